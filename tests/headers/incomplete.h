struct SumSq;
typedef struct Opaque Opaque;
typedef int NotAStruct;
