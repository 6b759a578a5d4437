// A C++ header: a class with a non-virtual base, member functions, and
// typedefs and an alias of class template instances.
#ifndef CXX_TYPES_H
#define CXX_TYPES_H
#include <vector_types.h>

#ifdef __CUDACC__
#define CXX_HD __host__ __device__
#else
#define CXX_HD
#endif

struct Base {
  float weight;
  int count;
};

// Fields in layout order: the base's (weight, count), then its own.
struct Tracked : Base {
  double total;
  float2 last;
  CXX_HD double mean() const { return count ? total / count : 0.0; }
};

template <class T> struct Pair {
  T lo, hi;
  CXX_HD Pair widen(T x) const { return Pair{x < lo ? x : lo, hi < x ? x : hi}; }
};
typedef Pair<float> PairF;
// an instance of a template with a base: base fields first here too
template <class T> struct Tagged : Base {
  T tag;
};
typedef Tagged<short> TaggedS;
using PairL = Pair<long long>;

CXX_HD inline PairF range_fold(PairF a, float x) { return a.widen(x); }
CXX_HD inline PairF range_combine(const PairF &a, const PairF &b) {
  return PairF{b.lo < a.lo ? b.lo : a.lo, a.hi < b.hi ? b.hi : a.hi};
}
#endif
