/* --depfile: the gcc -MD format, every output a target, paths escaped. */
#include "unit.h"

static void test_depfile_escapes(void **state) {
  (void)state;
  const char *files[] = {"/usr/include/stdio.h", "/p/a b/h#1.h", "/p/$x/q\\ r.h"};
  Spec spec = {.path = "my specs/m.json", .module = "m", .header_files = files, .nheader_files = 3};
  OutputSet set = {.out_dir = "/abs/out"};
  output_add(&set, "m.h");
  output_add(&set, "m.cu");
  Buf b = {0};
  assert_null(depfile_text(&spec, &set, "out dir/", &b));
  assert_string_equal(b.data,
                      "out\\ dir/m.stamp \\\n"
                      " out\\ dir/m.h \\\n"
                      " out\\ dir/m.cu: my\\ specs/m.json \\\n"
                      " /usr/include/stdio.h \\\n"
                      " /p/a\\ b/h\\#1.h \\\n"
                      " /p/$$x/q\\\\\\ r.h\n"
                      "\n/usr/include/stdio.h:\n"
                      "\n/p/a\\ b/h\\#1.h:\n"
                      "\n/p/$$x/q\\\\\\ r.h:\n");
  buf_free(&b);
  output_free(&set);
}

static void test_depfile_refuses_line_breaks(void **state) {
  (void)state;
  const char *files[] = {"/p/two\nlines.h"};
  Spec spec = {.path = "m.json", .module = "m", .header_files = files, .nheader_files = 1};
  OutputSet set = {.out_dir = "/abs/out"};
  output_add(&set, "m.h");
  Buf b = {0};
  assert_string_equal(depfile_text(&spec, &set, "out", &b), "/p/two\nlines.h");
  buf_free(&b);
  output_free(&set);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_depfile_escapes),
    cmocka_unit_test(test_depfile_refuses_line_breaks),
  };
  int failed = cmocka_run_group_tests_name("depfile", tests, NULL, NULL);
  arena_free_all();
  return failed;
}
