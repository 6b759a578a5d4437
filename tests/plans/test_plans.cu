/* The host's plans, on the CPU (tests/run.sh plans): the generated module
 * of plans.json is compiled into this file, and its pure plan functions
 * are called with made-up devices. No GPU is needed or touched. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
extern "C" {
#include <cmocka.h>
}
#include "pl.cu"

using namespace pl::detail;

/* The flat grid rule (balanced_parts): every block it launches gets a
 * share, it never launches more than it may, and its busiest SM never holds
 * more tiles than the full grid's would. */
static void test_balanced_parts(void **state) {
  (void)state;
  assert_int_equal(balanced_parts(1024, 396, 132), 256); /* 3 blocks an SM: 256 blocks of 4 tiles, not 342 of 3 */
  assert_int_equal(balanced_parts(16384, 396, 132), 391);
  for (size_t sms : {1, 7, 132})
    for (size_t most : {1, 2, 131, 132, 264, 396, 528, 2047})
      for (size_t tiles = 1; tiles <= 5000; ++tiles) {
        const size_t cap = tiles < most ? tiles : most;
        const size_t b = balanced_parts(tiles, cap, sms);
        const size_t full = busy_parts(tiles, cap);
        assert_true(b >= 1 && ceil_div(tiles, ceil_div(tiles, b)) == b);
        assert_true(b <= cap);
        assert_true(ceil_div(b, sms) * ceil_div(tiles, b) <= ceil_div(full, sms) * ceil_div(tiles, full));
      }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_balanced_parts),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
