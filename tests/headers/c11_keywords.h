/* A C header with a C11 keyword that clang takes in C++ as an extension
 * and nvcc refuses (c11_keywords.json). */
typedef struct Wide { _Alignas(32) float x; float y; } Wide;
