/* Headers that libclang accepts but whose generated code would not build
 * (not_buildable.json): every one is refused with its reason. */
#ifdef __CUDACC__
#define HD __host__ __device__
#else
#define HD
#endif

struct Frozen { const int a; int b; };                  /* a const field */
class Hidden { int a; public: int b; };                 /* a private field */
struct Started { int a; Started() : a(1) {} };          /* a user-provided default constructor */
struct Deleted { int a; Deleted() = delete; };          /* a deleted one */
struct Wide { int a, b; };
typedef struct Wide WideAligned __attribute__((aligned(16))); /* aligned unlike its struct */

struct Acc { int a; };
HD Acc declared_only(Acc x, Acc y);                     /* no body in the header */
HD inline Acc twice(Acc x, Acc y) { return x; }
HD inline Acc twice(const Acc &x, const Acc &y) { return y; } /* the same call matches both */
HD inline Acc defaulted(Acc x, Acc y) { return x; }
HD inline Acc defaulted(Acc x, Acc y, int z = 0) { return y; } /* and again through a default argument */
