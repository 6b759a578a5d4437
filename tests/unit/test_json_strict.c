/* json_strict.c accepts all of RFC 8259 that specs use; the refusals are
 * golden-tested in tests/errors/json_*.json. */
#include "unit.h"

static bool accepts(const char *text) {
  diag_reset();
  bool ok = json_check_strict("t.json", text, strlen(text));
  return ok && diag_count() == 0;
}

static void test_accepts_valid_json(void **state) {
  (void)state;
  const char *good[] = {
    "{}", "[]", " {\"a\" : [1, -0, 0.5, 1e5, 1E-5, -2.5e+3, 9007199254740992, -9007199254740992]} ",
    "{\"s\": \"tab\\t nl\\n quote\\\" slash\\/ back\\\\ u\\u00e9 pair\\ud83d\\ude00\"}",
    "{\"utf8\": \"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"}", "{\"t\": true, \"f\": false, \"n\": null}",
    "{\"nested\": {\"a\": {\"b\": [[[]]]}}, \"a\": 1}", "\"just a string\"", "0", "{\"a\":1,\"ab\":2,\"b\":3}",
  };
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
    if (!accepts(good[i]))
      fail_msg("refused: %s", good[i]);
}

static void test_refuses_invalid_json(void **state) {
  (void)state;
  const char *bad[] = {"", "{", "{\"a\"}", "{\"a\": 01}", "[1,]", "{\"a\":1,\"a\":2}", "\"\\u0000\"", "\"a\nb\"",
                       "\"\xff\"", "\"\xed\xa0\x80\"", "\"\\ud800\"", "1e400", "9007199254740993", "[1] 2", "tru",
                       "{'a': 1}", "[.5]", "[1.]", "[-]", "\"\\x\""};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    if (accepts(bad[i]))
      fail_msg("accepted: %s", bad[i]);
}

static void test_nesting_limit(void **state) {
  (void)state;
  char deep[2 * LIMIT_JSON_DEPTH + 3];
  int n = LIMIT_JSON_DEPTH;
  memset(deep, '[', (size_t)n);
  memset(deep + n, ']', (size_t)n);
  deep[2 * n] = 0;
  assert_true(accepts(deep)); /* exactly the limit */
  memset(deep, '[', (size_t)n + 1);
  memset(deep + n + 1, ']', (size_t)n + 1);
  deep[2 * n + 2] = 0;
  assert_false(accepts(deep));
}

static void test_map(void **state) {
  (void)state;
  Map *m = map_new();
  int values[5000];
  for (int i = 0; i < 5000; i++)
    assert_null(map_put(m, arena_printf("k%d", i), &values[i]));
  for (int i = 0; i < 5000; i++)
    assert_ptr_equal(map_get(m, arena_printf("k%d", i)), &values[i]);
  assert_ptr_equal(map_put(m, "k7", &values[0]), &values[7]); /* the first value stays */
  assert_null(map_get(m, "k5000"));
}

int main(void) {
  diag_set_stream(fopen("/dev/null", "w"));
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_accepts_valid_json),
    cmocka_unit_test(test_refuses_invalid_json),
    cmocka_unit_test(test_nesting_limit),
    cmocka_unit_test(test_map),
  };
  int failed = cmocka_run_group_tests(tests, NULL, NULL);
  arena_free_all();
  return failed;
}
