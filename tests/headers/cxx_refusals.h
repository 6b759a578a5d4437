// C++ classes gpugen refuses, each for its own reason.
#include <vector_types.h>
struct Shape {
  float area;
  virtual float scale(float) const;
};
struct Node { int id; };
struct Shared : virtual Node { int extra; };
struct Owned {
  int *p;
  int n;
  Owned(const Owned &other);
};
struct Logged { float x; ~Logged(); };
struct WithRef { const int &r; int v; };
struct Base { int a; };
struct BaseListedLast : Base { int b; };
struct Circle : Shape { float r; };
struct Flags { unsigned ok : 1; unsigned bad : 7; };
struct Padded { double d; char c; };
struct AfterPadding : Padded { char e; };
template <class T> struct Box { T v; virtual ~Box(); };
typedef Box<int> IntBox;
// an instance already laid out (Holder uses it), with a destructor of its own
template <class T> struct Box2 { T v; ~Box2(); };
typedef Box2<int> IntBox2;
struct Holder { IntBox2 b; };
