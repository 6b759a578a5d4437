/* The runtime functions a generated module calls, answered by FakeDevice
 * (fake_cuda.h). */
#include "fake_cuda.h"
#include <cstring>
#include <map>

FakeDevice fake_device;
std::vector<FakeLaunch> fake_launches;
int fake_device_number = 0;

namespace {
std::map<const void *, std::string> &kernel_names() {
  static std::map<const void *, std::string> names;
  return names;
}
std::string name_of(const void *fun) {
  auto it = kernel_names().find(fun);
  return it == kernel_names().end() ? std::string("?") : it->second;
}
struct PushedLaunch {
  dim3 grid, block;
  size_t shared;
  void *stream;
};
std::vector<PushedLaunch> &pushed() {
  static std::vector<PushedLaunch> p;
  return p;
}
void *handle_storage[1];
} // namespace

std::vector<std::string> fake_registered_kernels() {
  std::vector<std::string> names;
  for (const auto &k : kernel_names())
    names.push_back(k.second);
  return names;
}

extern "C" {
void **__cudaRegisterFatBinary(void *) { return handle_storage; }
void __cudaRegisterFatBinaryEnd(void **) {}
void __cudaUnregisterFatBinary(void **) {}
char __cudaInitModule(void **) { return 1; }
void __cudaRegisterFunction(void **, const char *hostFun, char *, const char *deviceName, int, uint3 *, uint3 *, dim3 *,
                            dim3 *, int *) {
  kernel_names()[hostFun] = deviceName;
}
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, struct CUstream_st *stream) {
  pushed().push_back({grid, block, shared, stream});
  return 0;
}
cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared, void *stream) {
  if (pushed().empty())
    return cudaErrorInvalidValue;
  *grid = pushed().back().grid;
  *block = pushed().back().block;
  *shared = pushed().back().shared;
  *(void **)stream = pushed().back().stream;
  pushed().pop_back();
  return cudaSuccess;
}
cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *fun) {
  *kernel = (cudaKernel_t)fun;
  return cudaSuccess;
}
cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t) {
  fake_launches.push_back({name_of((const void *)kernel), grid, block, shared, args});
  return cudaSuccess;
}
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block, void **args, size_t shared,
                                    cudaStream_t stream) {
  return __cudaLaunchKernel(kernel, grid, block, args, shared, stream);
}
cudaError_t cudaGetDevice(int *device) {
  *device = fake_device_number;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int) {
  switch (attr) {
  case cudaDevAttrMultiProcessorCount: *value = fake_device.sms; return cudaSuccess;
  case cudaDevAttrComputeCapabilityMajor: *value = fake_device.arch / 10; return cudaSuccess;
  case cudaDevAttrComputeCapabilityMinor: *value = fake_device.arch % 10; return cudaSuccess;
  default: *value = 0; return cudaSuccess;
  }
}
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *fun) {
  std::memset(attr, 0, sizeof *attr);
  attr->ptxVersion = fake_device.arch;
  attr->binaryVersion = fake_device.arch;
  attr->localSizeBytes = fake_device.local && fake_device.local(name_of(fun)) ? 16 : 0;
  attr->maxThreadsPerBlock = 1024;
  return cudaSuccess;
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *fun, int block, size_t) {
  *blocks = fake_device.per_sm ? fake_device.per_sm(name_of(fun), block) : (block > 0 ? 2048 / block : 0);
  return cudaSuccess;
}
cudaError_t cudaGetLastError(void) { return cudaSuccess; }
cudaError_t cudaPeekAtLastError(void) { return cudaSuccess; }
}
