enum Color { RED, GREEN };
typedef struct Node {
  struct Node *next;
  enum Color color;
} Node;
