// The skewed segment layouts of the segmented bench (bench_segmented.cu),
// as CSR offsets over n elements.
#pragma once
#include <cmath>
#include <cstddef>
#include <vector>

// Power-law lengths: about 1/u^1.5 for u uniform in (0, 1], capped at n / 16
// (407,561 segments for 2^28 elements).
static inline std::vector<long long> power_law_offsets(size_t n) {
  std::vector<long long> off(1, 0);
  unsigned long long h = 0x5eed;
  while ((size_t)off.back() < n) {
    h = h * 6364136223846793005ULL + 1442695040888963407ULL;
    double u = ((h >> 11) + 1) * (1.0 / 9007199254740992.0);
    size_t len = (size_t)std::pow(u, -1.5);
    len = len > n / 16 ? n / 16 : len;
    off.push_back((long long)((size_t)off.back() + len < n ? (size_t)off.back() + len : n));
  }
  return off;
}

// One giant segment (half the elements, the 1000th) among segments of 4.
static inline std::vector<long long> giant_offsets(size_t n) {
  std::vector<long long> off(1, 0);
  while ((size_t)off.back() < n)
    off.push_back(off.back() + (off.size() == 1000 ? (long long)(n / 2) : 4));
  off.back() = (long long)n;
  return off;
}

// Short lengths, uniform in 0 to 32 (a sparse matrix's rows or a graph's
// adjacency lists, 16 on average).
static inline std::vector<long long> short_offsets(size_t n) {
  std::vector<long long> off(1, 0);
  unsigned long long h = 0x5407;
  while ((size_t)off.back() < n) {
    h = h * 6364136223846793005ULL + 1442695040888963407ULL;
    const size_t len = (size_t)(h >> 33) % 33;
    off.push_back((long long)((size_t)off.back() + len < n ? (size_t)off.back() + len : n));
  }
  return off;
}
