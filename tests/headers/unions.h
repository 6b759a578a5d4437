typedef union Bits { float f; unsigned int u; } Bits;
typedef struct Holder {
  union { float f; int i; } value;
  int tag;
} Holder;
