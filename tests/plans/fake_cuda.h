/* A stand-in for the CUDA runtime on a machine without a GPU (tests/plans):
 * linked with `nvcc -cudart none`, it registers a module's kernels, answers
 * the queries dispatch makes with a made-up device, and records every
 * launch instead of running it. Nothing is read or written through the
 * pointers a test passes. */
#ifndef FAKE_CUDA_H
#define FAKE_CUDA_H
#include <string>
#include <vector>
#include <cuda_runtime_api.h>

/* The made-up device. per_sm(name, block) says how many blocks of a kernel
 * an SM holds; local(name) whether the kernel spills. */
struct FakeDevice {
  int sms = 132;
  int arch = 90; /* every kernel's PTX architecture */
  int (*per_sm)(const std::string &kernel, int block) = nullptr;
  bool (*local)(const std::string &kernel) = nullptr;
};
extern FakeDevice fake_device;

struct FakeLaunch {
  std::string kernel; /* the kernel's mangled name */
  dim3 grid, block;
  size_t shared;
  void **args;        /* valid during the launch only */
};
extern std::vector<FakeLaunch> fake_launches;

/* Each kernel's configuration is cached per device once asked: a fresh
 * device number makes dispatch ask again. */
extern int fake_device_number;

/* The mangled names of every kernel the linked modules registered. */
std::vector<std::string> fake_registered_kernels();
#endif
