typedef struct Flags {
  unsigned int low : 4;
  unsigned int high : 28;
} Flags;
