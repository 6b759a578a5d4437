/* The checked spec: plain C structs that every stage after check.c reads.
 * spec.c fills the raw fields, check.c resolves names and validates,
 * layout.c fills the sizes, offsets and plans. Emitters only read. */
#ifndef GPUGEN_MODEL_H
#define GPUGEN_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
  SC_BOOL, SC_CHAR, SC_SCHAR, SC_UCHAR, SC_SHORT, SC_USHORT, SC_INT, SC_UINT,
  SC_LONG, SC_ULONG, SC_LLONG, SC_ULLONG, SC_FLOAT, SC_DOUBLE,
  SC_INT8, SC_INT16, SC_INT32, SC_INT64, SC_UINT8, SC_UINT16, SC_UINT32, SC_UINT64,
  SC_HALF, SC_BF16,
  SC_COUNT
} ScalarKind;

typedef enum { NUM_BOOL, NUM_SIGNED, NUM_UNSIGNED, NUM_FLOAT } NumClass;

typedef struct {
  const char *spelling;   /* as written in a spec and in CUDA code */
  const char *c_spelling; /* in the plain-C view of <module>.h */
  const char *ident;      /* identifier-safe form, for emitted symbol names */
  int size, align;
  NumClass num;
  ScalarKind canonical;   /* distinct C++ type it names (int32_t -> int) */
  long double min, max;   /* representable range, for identity checks */
} ScalarInfo;

extern const ScalarInfo scalar_info[SC_COUNT];

/* One of CUDA's vector types (float4, uchar3, double4_32a, __half2, ...):
 * a struct of `count` components x, y, z, w that CUDA's headers define;
 * gpugen lays it out, moves and reduces it like a spec type, and never
 * defines it. */
typedef struct {
  const char *spelling;   /* as in CUDA code and in a spec */
  const char *c_spelling; /* in the plain-C view of <module>.h (gpugen_half2 for __half2) */
  ScalarKind elem;        /* the components' type */
  int count;              /* 1..4 */
  int align;              /* CUDA's alignment (float4: 16, uchar3: 1, long4_32a: 32) */
  const char *deprecated; /* CUDA 13 deprecates it: what to use instead; NULL otherwise */
} VectorInfo;

extern const VectorInfo vector_info[];
extern const int vector_count;

/* A JSON value kept for check.c (identities); spec.c converts it from cJSON. */
typedef enum { VAL_NUMBER, VAL_STRING, VAL_BOOL, VAL_NULL, VAL_ARRAY, VAL_OBJECT } ValueKind;
typedef struct Value Value;
struct Value {
  ValueKind kind;
  const char *path;   /* JSON path for messages, e.g. reductions[1].identity.sum */
  double number;
  const char *string;
  bool boolean;
  const char *key;    /* member name when inside an object */
  Value **items;      /* array elements or object members */
  int nitems;
};

typedef struct Type Type;

/* A field's type: a scalar, or another spec type (nesting). */
typedef struct {
  const char *spelling; /* as written in the spec */
  bool is_scalar;
  ScalarKind scalar;
  Type *type;
} TypeRef;

typedef struct {
  const char *name;
  const char *path;    /* types[i].fields[j] */
  TypeRef ref;
  int count;           /* array length; 1 for a plain field */
  bool is_array;       /* "count" given, even if 1 */
  int offset;          /* filled by layout.c */
} Field;

/* How a type is moved as 32-bit words (shuffles) or wide loads (ldg). */
typedef struct {
  int word_bytes;      /* 4 for shuffles; 1..16 for loads */
  int nwords;          /* words actually moved */
  int *offsets;        /* byte offset of each moved word */
  int *bytes;          /* bytes in each moved word (last may be partial) */
  int skipped;         /* words that are pure padding and not moved */
} WordPlan;

struct Type {
  const char *name;
  const char *c_spelling; /* "Name", or "struct Name" for a header struct without typedef */
  const char *path;    /* types[i] */
  Field *fields;
  int nfields;
  int explicit_align;  /* "align" key, 0 when absent */
  bool synthetic;      /* made by gpugen (argmin/argmax results), never from headers */
  const VectorInfo *vector; /* one of CUDA's vector types (check.c): CUDA defines it, gpugen never does */
  bool not_standard_layout; /* a C++ class with fields in a base and in itself (clangcheck.c): offsetof is not
                               portable there, so only clangcheck.c checks its offsets */
  /* filled by layout.c */
  int size, align;
  unsigned char *used; /* size bytes: 1 where a byte belongs to some field */
  int padding_bytes;
  WordPlan shuffle;
  WordPlan load;
  int index;           /* position in "types" (check.c) */
  int order;           /* position in dependency order (nested types first) */
};

typedef enum {
  OP_NONE, OP_SUM, OP_PROD, OP_MIN, OP_MAX, OP_BIT_AND, OP_BIT_OR, OP_BIT_XOR,
  OP_ARGMIN, OP_ARGMAX,
  OP_DOT                /* sum of products of two inputs */
} OpKind;

extern const char *const op_names[]; /* indexed by OpKind */

/* How a reduction reads its input (layout.c): groups of lcm(size, 16)
 * bytes hold per_group whole elements in vec 16-byte words; per_group is 0
 * when such a group would exceed 64 bytes (too many registers), and those
 * types are read element by element. */
typedef struct {
  int size;       /* sizeof(input) */
  int group;      /* bytes per group */
  int vec;        /* 16-byte words per group */
  int per_group;  /* elements per group, 0 when there is no vector path */
} ReadPlan;

typedef struct {
  const char *name;
  const char *path;     /* reductions[i] */
  TypeRef input;        /* the first (or only) input: inputs[0] */
  TypeRef *inputs;      /* one per array read */
  int ninputs;          /* 1, or 2..LIMIT_INPUTS (gpugen.h) with an "input" list */
  bool input_list;      /* "input" was a list */
  TypeRef accumulator;  /* same as input when not given */
  bool has_accumulator;
  OpKind op;            /* OP_NONE for user functions */
  bool op_unknown;      /* "op" named no operator; spec.c reported it */
  const char *fold;     /* NULL when absent */
  const char *combine;
  Value *identity;      /* NULL when absent */
  bool commutative;
  bool malformed;       /* not a JSON object; spec.c reported it */
  bool host_reference;  /* operators also run on the host: emit M_R_host (clangcheck.c) */
  bool segmented;       /* "segmented": also emit M_R_segmented and M_R_rows */
  ScalarKind offset;    /* "offset_type" of M_R_segmented: SC_LLONG (default) or SC_INT */
  bool has_offset_type; /* "offset_type" given */
  bool nccl;            /* "nccl": also emit M_R_nccl and M_R_combine_nccl (emit_nccl.c) */
  TypeRef params;       /* "params": the type of fold's last argument, read from `const P *params` at each call */
  bool has_params;      /* "params" given */
  bool indexed;         /* "indexed": fold also takes the element's index (long long) after the inputs */
  ReadPlan read;        /* filled by layout.c; over all inputs: size is the bytes of one element of each */
  bool packs_in_ticket; /* layout.c: an integer sum of up to 32 bits, merged in the flat kernel's atomic */
  bool host_through_pointer; /* layout.c: the accumulator holds a __half2 or __nv_bfloat162, which C and C++
                                return differently by value, so M_R_host writes its result through h_out */
} Reduction;

typedef struct {
  int block;
  int items_per_thread;
  int min_blocks_per_sm; /* 0 when not given */
} Tuning;

typedef struct {
  const char *key;      /* "default" or "sm_90" as written */
  const char *path;     /* tuning.sm_90 */
  Tuning tuning;
} TuningEntry;

typedef struct {
  const char *name;     /* "sm_90a" as written */
  int arch;             /* 90 */
  char suffix;          /* 0, 'a' or 'f' */
  bool tuned;
  Tuning tuning;
  const char *tuning_path; /* the entry it was tuned by (tuning.sm_90) when tuned */
} Target;

typedef struct {
  const char *path;       /* the spec file as given on the command line */
  const char *dir;        /* directory of the spec file */
  const char *module;
  const char **headers;   /* as written, relative to dir */
  int nheaders;
  const char **include_dirs;
  int ninclude_dirs;
  Target *targets;        /* sorted by arch after check.c */
  int ntargets;
  Type **types;           /* in spec order */
  int ntypes;
  Type **types_ordered;   /* dependencies first; filled by check.c */
  Reduction *reductions;
  int nreductions;
  TuningEntry *tuning_entries; /* as written; check.c attaches them to targets */
  int ntuning_entries;
  Tuning default_tuning;
  const char **header_paths;  /* headers[i] found: in dir, else in the first include_dirs entry that has it
                                 (absolute; check.c) */
  const char **header_files; /* every file libclang read for the headers, transitively (absolute,
                                no repeats); filled by clangcheck.c, for depfiles and name clashes */
  int nheader_files;
  bool cxx_only_headers;      /* the headers do not parse as C11 (clangcheck.c): <module>.h is C++ only */
  const char **user_macros;   /* macros the user's headers define (clangcheck.c): each emitted file suspends
                                 those that name one of its identifiers (emit_common.c) */
  const char **user_macro_places; /* file:line:col of each definition */
  int nuser_macros;
} Spec;

#endif
