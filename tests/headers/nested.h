struct Inner { int a; };
struct Other { int a; };
struct Outer {
  struct Other in;
  double w;
};
