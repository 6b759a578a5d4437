/* The run-time tuning rule of tests/golden/basic.json (default 256/16,
 * sm_80 256/8, sm_90 512/16/2): the largest tuned target not above the
 * device, else the default. Plain C11 against the generated basic.h. */
#include <stdio.h>
#include "basic.h"

static int failures;
static void expect(int arch, int block, int items, int min_blocks) {
  basic_tuning t = basic_tuning_for_arch(arch);
  if (t.block != block || t.items_per_thread != items || t.min_blocks_per_sm != min_blocks) {
    printf("sm_%d: got %d/%d/%d, expected %d/%d/%d\n", arch, t.block, t.items_per_thread, t.min_blocks_per_sm,
           block, items, min_blocks);
    failures++;
  }
}

int main(void) {
  expect(70, 256, 16, 0);  /* below every tuned target: default */
  expect(75, 256, 16, 0);  /* a target without its own entry */
  expect(80, 256, 8, 0);
  expect(86, 256, 8, 0);   /* not a target: falls back to sm_80 */
  expect(89, 256, 8, 0);
  expect(90, 512, 16, 2);
  expect(120, 512, 16, 2); /* newer than every target: the newest entry */
  return failures != 0;
}
