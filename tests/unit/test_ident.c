/* Which spec names may become identifiers, and spelling suggestions. */
#include "unit.h"

static void test_accepts_plain_names(void **state) {
  (void)state;
  assert_null(ident_problem("Particle"));
  assert_null(ident_problem("sum_sq2"));
  assert_null(ident_problem("x"));
}

static void test_rejects_unsafe_names(void **state) {
  (void)state;
  const char *bad[] = {"", "2d", "a-b", "a b", "int", "class", "template", "namespace", "threadIdx",
                       "warpSize", "__x", "_X", "_x", "a__b", "gpugen_thing", "SharedMem", "ldg",
                       "shfl_sync", "uint32_t", "x;int"};
  /* refused by the identifier rules, or held by the headers and templates
   * (build/reserved.c) */
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    if (!ident_problem(bad[i]) && !ident_reserved(bad[i], false))
      fail_msg("'%s' was accepted", bad[i]);
  }
  /* what the reserved tables hold, by kind */
  assert_non_null(ident_reserved("INT8_MAX", true));
  assert_null(ident_reserved("float4", true)); /* a type, not a macro: fine as a field name */
  assert_non_null(ident_reserved("float4", false));
  assert_non_null(ident_reserved("cudaSuccess", false));
  assert_non_null(ident_reserved("detail", false));
  assert_null(ident_reserved("Particle", false));
}

static void test_suggestions(void **state) {
  (void)state;
  const char *cands[] = {"float", "double", "int"};
  assert_string_equal(suggest("flaot", cands, 3), "float");
  assert_string_equal(suggest("dobule", cands, 3), "double");
  assert_null(suggest("quaternion", cands, 3));
  assert_int_equal(edit_distance("kitten", "sitting"), 3);
}

static void test_targets(void **state) {
  (void)state;
  int arch;
  char suffix;
  assert_true(target_parse("sm_90", &arch, &suffix));
  assert_int_equal(arch, 90);
  assert_int_equal(suffix, 0);
  assert_true(target_parse("sm_90a", &arch, &suffix));
  assert_int_equal(suffix, 'a');
  assert_true(target_parse("sm_100f", &arch, &suffix));
  assert_false(target_parse("sm_63", &arch, &suffix));
  assert_false(target_parse("sm_80a", &arch, &suffix));
  assert_false(target_parse("compute_80", &arch, &suffix));
  assert_false(target_parse("sm_8", &arch, &suffix));
  assert_false(target_parse("sm_90x", &arch, &suffix));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_accepts_plain_names),
    cmocka_unit_test(test_rejects_unsafe_names),
    cmocka_unit_test(test_suggestions),
    cmocka_unit_test(test_targets),
  };
  int failed = cmocka_run_group_tests_name("ident", tests, NULL, NULL);
  arena_free_all();
  return failed;
}
