#include <vector_types.h>
typedef struct Particle { float4 pos; int3 cell; uchar3 rgb; } Particle;
