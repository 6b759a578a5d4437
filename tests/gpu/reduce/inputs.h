// Inputs and comparisons shared by the reduction tests (test_reduce.cu,
// test_segmented.cu, test_shapes.cu): the fills and the float bounds; the
// check counter and the hash come from harness.h.
#ifndef REDUCE_INPUTS_H
#define REDUCE_INPUTS_H
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <cuda_runtime.h>
#include "harness.h"
#include "user_ops.h"

// ---- inputs --------------------------------------------------------------
enum InputClass { GENERAL, PROD, TIES, SMALL, REAL };

template <class T> static void fill_scalar(T &x, unsigned long long h, InputClass cls) {
  if constexpr (std::is_floating_point<T>::value) {
    if (cls == PROD)
      x = (h & 1) ? T(1) : T(-1); // products of +-1 are exact in any order
    else if (cls == REAL)
      x = T((h >> 11) * (1.0 / 9007199254740992.0)); // [0, 1)
    else
      x = T(int(h % 9) - 4) / T(8); // multiples of 1/8: partial sums stay exact
  } else if (cls == TIES) {
    x = T(h % 16); // many equal values: argmin/argmax must pick the lowest index
  } else if (cls == SMALL) {
    x = T(int(h % 2001) - 1000);
  } else {
    x = T(h);
  }
}

template <class T> static void fill_field(T &x, unsigned long long h, InputClass cls, int &field) {
  fill_scalar(x, mix(h + 977ULL * (unsigned)field++), cls);
}
template <class T, size_t N> static void fill_field(T (&x)[N], unsigned long long h, InputClass cls, int &field) {
  for (size_t i = 0; i < N; i++)
    fill_field(x[i], h, cls, field);
}
// Fills v[0, n); structs through the fill_struct overloads that the
// including file defines from cases.inc (found at instantiation).
template <class T> static void fill(T *v, size_t n, InputClass cls, unsigned long long seed) {
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; i++) {
    if constexpr (std::is_arithmetic<T>::value)
      fill_scalar(v[i], mix(i ^ seed), cls);
    else
      fill_struct(v[i], mix(i ^ seed), cls);
  }
}

enum Compare { EXACT, FLOAT_BOUND, WELFORD };

// The comparison of one result with the CPU reference's: bit for bit, or
// within the documented bound for inexact float results.
template <class IN, class ACC>
static bool close_to(Compare cmp, bool (*equal)(const ACC &, const ACC &), const ACC &got, const ACC &want,
                     const IN *in, size_t n) {
  if constexpr (std::is_same<ACC, float>::value && std::is_same<IN, float>::value) {
    if (cmp == FLOAT_BOUND) {
      // the documented bound: |gpu - sequential| <= 2 * n * eps * sum |x|
      double abs_sum = 0;
      for (size_t i = 0; i < n; i++)
        abs_sum += std::fabs((double)in[i]);
      return std::fabs((double)got - (double)want) <= 2.0 * (double)n * 1.1920929e-7 * abs_sum;
    }
  }
  if constexpr (std::is_same<ACC, Welford>::value) {
    if (cmp == WELFORD) {
      // against exact double-precision statistics (the float CPU reference
      // itself drifts once n passes 2^24, where n += 1.0f stops counting)
      double mean = 0, m2 = 0;
      for (size_t i = 0; i < n; i++)
        mean += in[i];
      mean = n ? mean / (double)n : 0;
      for (size_t i = 0; i < n; i++)
        m2 += ((double)in[i] - mean) * ((double)in[i] - mean);
      return std::fabs(got.n - (double)n) <= 1e-5 * (double)n + 0.5 &&
             std::fabs(got.mean - mean) <= 1e-4 * (std::fabs(mean) + 1e-3) &&
             std::fabs(got.m2 - m2) <= 1e-3 * (m2 + 1e-3);
    }
  }
  return equal(got, want);
}

#endif
