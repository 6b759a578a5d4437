/* The builtin field types: sizes and alignments follow the x86-64 Linux
 * ABI, which CUDA device code shares with its host. */
#include <float.h>
#include <string.h>
#include "gpugen.h"

#define SINT(bits) (-(long double)(1ULL << ((bits) - 1))), ((long double)((1ULL << ((bits) - 1)) - 1))
#define UINT(bits) 0.0L, ((long double)(UINT64_MAX >> (64 - (bits))))

const ScalarInfo scalar_info[SC_COUNT] = {
  [SC_BOOL]   = {"bool", "bool", "bool", 1, 1, NUM_BOOL, SC_BOOL, 0.0L, 1.0L},
  [SC_CHAR]   = {"char", "char", "char", 1, 1, NUM_SIGNED, SC_CHAR, SINT(8)},
  [SC_SCHAR]  = {"signed char", "signed char", "schar", 1, 1, NUM_SIGNED, SC_SCHAR, SINT(8)},
  [SC_UCHAR]  = {"unsigned char", "unsigned char", "uchar", 1, 1, NUM_UNSIGNED, SC_UCHAR, UINT(8)},
  [SC_SHORT]  = {"short", "short", "short", 2, 2, NUM_SIGNED, SC_SHORT, SINT(16)},
  [SC_USHORT] = {"unsigned short", "unsigned short", "ushort", 2, 2, NUM_UNSIGNED, SC_USHORT, UINT(16)},
  [SC_INT]    = {"int", "int", "int", 4, 4, NUM_SIGNED, SC_INT, SINT(32)},
  [SC_UINT]   = {"unsigned int", "unsigned int", "uint", 4, 4, NUM_UNSIGNED, SC_UINT, UINT(32)},
  [SC_LONG]   = {"long", "long", "long", 8, 8, NUM_SIGNED, SC_LONG, SINT(64)},
  [SC_ULONG]  = {"unsigned long", "unsigned long", "ulong", 8, 8, NUM_UNSIGNED, SC_ULONG, UINT(64)},
  [SC_LLONG]  = {"long long", "long long", "llong", 8, 8, NUM_SIGNED, SC_LLONG, SINT(64)},
  [SC_ULLONG] = {"unsigned long long", "unsigned long long", "ullong", 8, 8, NUM_UNSIGNED, SC_ULLONG, UINT(64)},
  [SC_FLOAT]  = {"float", "float", "float", 4, 4, NUM_FLOAT, SC_FLOAT, -FLT_MAX, FLT_MAX},
  [SC_DOUBLE] = {"double", "double", "double", 8, 8, NUM_FLOAT, SC_DOUBLE, -DBL_MAX, DBL_MAX},
  /* the <stdint.h> names are typedefs of the types above on x86-64 Linux */
  [SC_INT8]   = {"int8_t", "int8_t", "int8", 1, 1, NUM_SIGNED, SC_SCHAR, SINT(8)},
  [SC_INT16]  = {"int16_t", "int16_t", "int16", 2, 2, NUM_SIGNED, SC_SHORT, SINT(16)},
  [SC_INT32]  = {"int32_t", "int32_t", "int32", 4, 4, NUM_SIGNED, SC_INT, SINT(32)},
  [SC_INT64]  = {"int64_t", "int64_t", "int64", 8, 8, NUM_SIGNED, SC_LONG, SINT(64)},
  [SC_UINT8]  = {"uint8_t", "uint8_t", "uint8", 1, 1, NUM_UNSIGNED, SC_UCHAR, UINT(8)},
  [SC_UINT16] = {"uint16_t", "uint16_t", "uint16", 2, 2, NUM_UNSIGNED, SC_USHORT, UINT(16)},
  [SC_UINT32] = {"uint32_t", "uint32_t", "uint32", 4, 4, NUM_UNSIGNED, SC_UINT, UINT(32)},
  [SC_UINT64] = {"uint64_t", "uint64_t", "uint64", 8, 8, NUM_UNSIGNED, SC_ULONG, UINT(64)},
  /* C has no half types: <module>.h gives them a storage struct there */
  [SC_HALF]   = {"__half", "gpugen_half", "half", 2, 2, NUM_FLOAT, SC_HALF, -65504.0L, 65504.0L},
  [SC_BF16]   = {"__nv_bfloat16", "gpugen_bfloat16", "bfloat16", 2, 2, NUM_FLOAT, SC_BF16,
                 -3.38953138925153547590470800371487866880e38L, 3.38953138925153547590470800371487866880e38L},
};

bool scalar_lookup(const char *spelling, ScalarKind *out) {
  for (int k = 0; k < SC_COUNT; k++) {
    if (strcmp(scalar_info[k].spelling, spelling) == 0) {
      *out = (ScalarKind)k;
      return true;
    }
  }
  return false;
}

const char *const op_names[] = {
  [OP_NONE] = "", [OP_SUM] = "sum", [OP_PROD] = "prod", [OP_MIN] = "min", [OP_MAX] = "max",
  [OP_BIT_AND] = "bit_and", [OP_BIT_OR] = "bit_or", [OP_BIT_XOR] = "bit_xor",
  [OP_ARGMIN] = "argmin", [OP_ARGMAX] = "argmax", [OP_DOT] = "dot",
};

/* CUDA's vector types, as vector_types.h, cuda_fp16.h and cuda_bf16.h of
 * CUDA 13 define them: 2 components are aligned to their size, 4 to their
 * size up to 16 bytes, 1 and 3 like one component. CUDA 13 deprecates the
 * 4-component types of 8-byte components for _16a and _32a variants. The
 * generated headers assert every size, alignment and offset, so a CUDA
 * that differs stops the build. */
#define VEC123(name, k, es) {name "1", name "1", k, 1, es, NULL}, {name "2", name "2", k, 2, 2 * (es), NULL}, \
  {name "3", name "3", k, 3, es, NULL}
#define VEC_SMALL(name, k, es) VEC123(name, k, es), {name "4", name "4", k, 4, 4 * (es) > 16 ? 16 : 4 * (es), NULL}
#define VEC_WIDE(name, k) VEC123(name, k, 8), {name "4", name "4", k, 4, 16, "use " name "4_16a or " name "4_32a"}, \
  {name "4_16a", name "4_16a", k, 4, 16, NULL}, {name "4_32a", name "4_32a", k, 4, 32, NULL}

const VectorInfo vector_info[] = {
  VEC_SMALL("char", SC_SCHAR, 1), VEC_SMALL("uchar", SC_UCHAR, 1),
  VEC_SMALL("short", SC_SHORT, 2), VEC_SMALL("ushort", SC_USHORT, 2),
  VEC_SMALL("int", SC_INT, 4), VEC_SMALL("uint", SC_UINT, 4),
  VEC_WIDE("long", SC_LONG), VEC_WIDE("ulong", SC_ULONG),
  VEC_WIDE("longlong", SC_LLONG), VEC_WIDE("ulonglong", SC_ULLONG),
  VEC_SMALL("float", SC_FLOAT, 4), VEC_WIDE("double", SC_DOUBLE),
  {"__half2", "gpugen_half2", SC_HALF, 2, 4, NULL},
  {"__nv_bfloat162", "gpugen_bfloat162", SC_BF16, 2, 4, NULL},
};
const int vector_count = (int)(sizeof vector_info / sizeof vector_info[0]);

const VectorInfo *vector_lookup(const char *spelling) {
  for (int i = 0; i < vector_count; i++)
    if (strcmp(vector_info[i].spelling, spelling) == 0)
      return &vector_info[i];
  return NULL;
}
