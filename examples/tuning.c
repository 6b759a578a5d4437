/* Plain C11 use of a generated module: which tuning each GPU generation
 * gets under specs/mytypes.json (the largest tuned target not above it). */
#include <stdio.h>
#include "mytypes.h"

int main(void) {
  const int archs[] = {75, 80, 86, 89, 90, 100, 120};
  for (size_t i = 0; i < sizeof archs / sizeof archs[0]; i++) {
    mytypes_tuning t = mytypes_tuning_for_arch(archs[i]);
    printf("sm_%d: block %d, items_per_thread %d, min_blocks_per_sm %d\n", archs[i], t.block,
           t.items_per_thread, t.min_blocks_per_sm);
  }
  /* A Particle from C: the struct comes from specs/usertypes.h, checked by mytypes.h. */
  Particle p = {{1.0f, 2.0f, 3.0f}, 7, 0x1};
  printf("Particle is %zu bytes; id %d\n", sizeof p, p.id);
  return 0;
}
