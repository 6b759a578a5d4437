/* Includes, through "include_dirs", a header named like gpugen's <module>.h:
 * with the output directory on the include path, one would hide the other. */
#include "shadowing.h"
typedef struct A { int x; } A;
