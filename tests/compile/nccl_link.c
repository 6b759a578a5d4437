/* The NCCL forms from plain C, linked with -lnccl and run without a GPU:
 * temp and window sizes, and bad arguments refused before any CUDA or NCCL call
 * (tests/golden/nccl.json; tests/run.sh compile). */
#include <stdio.h>
#include "xgpu.h"

static int failures;
static void expect(int ok, const char *what) {
  if (!ok) {
    printf("FAIL %s\n", what);
    failures++;
  }
}

int main(void) {
  char temp[64];
  long long out;
  int in[4] = {0};
  /* sizes: the fold's records grow with the ranks; the schedule's slots hold the longest chunk per rank */
  expect(xgpu_best_nccl_temp_bytes(1000, 8) > xgpu_best_nccl_temp_bytes(1000, 2), "records grow with the ranks");
  expect(xgpu_range_combine_nccl_temp_bytes(1000, 3) >= 3 * 334 * sizeof(MinMax), "slots of the longest chunk");
  expect(xgpu_range_combine_nccl_temp_bytes(1000, 1) < sizeof(MinMax) * 1000, "one rank needs no slots");
  expect(xgpu_total_combine_nccl_temp_bytes(1 << 20, 2) == 0, "ncclAllReduce needs no temp");
  /* a NULL communicator is refused before anything runs */
  expect(xgpu_total_nccl(in, 4, &out, temp, sizeof temp, NULL, 0) == ncclInvalidArgument, "total: NULL comm");
  expect(xgpu_best_nccl(NULL, 4, NULL, temp, sizeof temp, NULL, 0) == ncclInvalidArgument, "best: NULL pointers");
  expect(xgpu_range_combine_nccl(NULL, 4, NULL, temp, sizeof temp, NULL, 0) == ncclInvalidArgument, "range: NULL comm");
  expect(xgpu_last_span_combine_nccl(NULL, 0, NULL, NULL, 0, NULL, 0) == ncclInvalidArgument, "last_span: NULL comm");
  /* the device path: sizes, and a missing window or communicator refused before anything runs */
  expect(xgpu_range_combine_nccl_window_bytes(1000, 3) >= 3 * 334 * sizeof(MinMax), "window slots of the longest chunk");
  expect(xgpu_range_combine_nccl_window_bytes(1000, 3) % 256 == 0, "window slots in 256-byte steps");
  expect(xgpu_total_nccl_window_bytes(1 << 20, 2) >= xgpu_total_temp_bytes(1 << 20), "window holds the local temp");
  xgpu_nccl_window *win = (xgpu_nccl_window *)temp;
  expect(xgpu_nccl_window_create(NULL, 1 << 20, &win) == ncclInvalidArgument && win == NULL, "create: NULL comm");
  expect(xgpu_nccl_window_create(NULL, 1 << 20, NULL) == ncclInvalidArgument, "create: NULL out");
  expect(xgpu_nccl_window_destroy(NULL) == ncclSuccess, "destroy: NULL is a no-op");
  expect(xgpu_total_nccl_window(in, 4, &out, NULL, 0) == ncclInvalidArgument, "total window: NULL window");
  expect(xgpu_best_nccl_window(NULL, 4, NULL, NULL, 0) == ncclInvalidArgument, "best window: NULL pointers");
  expect(xgpu_range_combine_nccl_window(NULL, 4, NULL, NULL, 0) == ncclInvalidArgument, "range window: NULL window");
  if (!failures)
    printf("nccl forms: linked with -lnccl; sizes and bad arguments checked without a GPU\n");
  return failures != 0;
}
