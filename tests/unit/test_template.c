/* The template engine and relative paths. */
#include "unit.h"

static void test_relative_path(void **state) {
  (void)state;
  assert_string_equal(relative_path("/a/b/out", "/a/b/specs/x.h"), "../specs/x.h");
  assert_string_equal(relative_path("/a/b", "/a/b/x.h"), "x.h");
  assert_string_equal(relative_path("/a/bc", "/a/b/x.h"), "../b/x.h");
  assert_string_equal(relative_path("/a/b/out/sub", "/a/x.h"), "../../../x.h");
  assert_string_equal(relative_path("/", "/x.h"), "x.h");
  assert_string_equal(absolute_path("/a/./b/../c//d"), "/a/c/d");
}

static void test_template_blocks(void **state) {
  (void)state;
  Buf b = {0};
  const char *kv[] = {"MODULE", "m", NULL};
  template_emit(&b, "host.cu.tmpl", "prologue", kv);
  assert_non_null(strstr(b.data, "#include \"m.cuh\""));
  assert_null(strstr(b.data, "$("));
  assert_null(strstr(b.data, "@@"));
  buf_free(&b);
  const char *kv2[] = {"MODULE", "m", "GENCODE", " -x", "INCLUDES", "", "SPEC_DIR", "/s/", "SPEC_NAME", "m.json", NULL};
  template_emit(&b, "build.mk.tmpl", "body", kv2);
  assert_non_null(strstr(b.data, "m_DIR := $(dir $(lastword $(MAKEFILE_LIST)))"));
  buf_free(&b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_relative_path),
    cmocka_unit_test(test_template_blocks),
  };
  int failed = cmocka_run_group_tests_name("template", tests, NULL, NULL);
  arena_free_all();
  return failed;
}
