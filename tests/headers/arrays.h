typedef struct Arr {
  float pos[4];
  int grid[2][2];
  int plain;
} Arr;
typedef struct Tail {
  int n;
  float data[];
} Tail;
