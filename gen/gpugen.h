/* gpugen's stages, in pipeline order:
 *   spec.c     JSON bytes -> raw Spec (the only file that knows cJSON)
 *   check.c    names, types, targets, tuning, reductions -> checked Spec
 *   layout.c   sizes, offsets, padding, word plans
 *   clangcheck.c  the user's headers against the spec (and the files they read;
 *              header_files.c keeps those to regular files)
 *   emit_*.c   one emitter per kind of output file, into an OutputSet
 *   depfile.c  the --depfile text, added to the same set
 *   output.c   atomic, write-if-changed files
 *   explain.c  instead of writing: what the stages computed (resources.c
 *              builds the module with nvcc for --resources)
 * driver.c calls them in that order (main.c is the command line over it);
 * each stage only reads what the earlier ones produced. */
#ifndef GPUGEN_H
#define GPUGEN_H

#include <stdarg.h>
#include <stdio.h>
#include "model.h"

#define GPUGEN_VERSION "0.1.0"

/* Limits, documented in docs/spec.md ("Limits"); each is checked in one
 * place with a message that names it. */
#define LIMIT_SPEC_BYTES (16 << 20)     /* the spec file */
#define LIMIT_JSON_DEPTH 64             /* nesting of JSON arrays and objects */
#define LIMIT_TYPES 10000               /* entries of "types" */
#define LIMIT_FIELDS 10000              /* fields of one type */
#define LIMIT_REDUCTIONS 10000          /* entries of "reductions" */
#define LIMIT_LIST 256                  /* entries of "headers", "include_dirs", "targets" */
#define LIMIT_COUNT 65536               /* a field's "count" */
#define LIMIT_TYPE_BYTES 65536          /* sizeof one type */
#define LIMIT_ALL_TYPE_BYTES (1 << 20)  /* the sizes of all types together: bounds the output */
#define LIMIT_TYPE_DEPTH 32             /* types inside types */
#define LIMIT_NAME 128                  /* characters of a name */
#define LIMIT_MODULE_NAME 64            /* characters of the module name */
#define LIMIT_INPUTS 8                  /* arrays one reduction reads (an "input" list) */
/* A block's static shared memory is 48 KiB on every target; the block
 * collectives and the agents (templates/collectives.cuh.tmpl,
 * agent_*.cuh.tmpl) keep up to 33 accumulators there (a slot per warp and
 * one to broadcast) beside at most LIMIT_SHARED_OTHER bytes of flags,
 * bounds and counts, which bounds a reduction's accumulator. */
#define LIMIT_STATIC_SHARED 49152
#define LIMIT_SHARED_SLOTS 33
#define LIMIT_SHARED_OTHER 256
#define LIMIT_ACC_BYTES ((LIMIT_STATIC_SHARED - LIMIT_SHARED_OTHER) / LIMIT_SHARED_SLOTS)

/* util.c: arena memory (freed once at exit) and a growable text buffer */
void *arena_alloc(size_t n);            /* zeroed */
char *arena_strdup(const char *s);
char *arena_strndup(const char *s, size_t n);
char *arena_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void arena_free_all(void);
#define ARENA_NEW(T) ((T *)arena_alloc(sizeof(T)))
#define ARENA_ARRAY(T, n) ((T *)arena_alloc(sizeof(T) * (size_t)(n)))

typedef struct {
  char *data;
  size_t len, cap;
} Buf;
void buf_put(Buf *b, const char *s);
void buf_putn(Buf *b, const char *s, size_t n);
void buf_printf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_free(Buf *b);
char *read_file(const char *path, size_t max, size_t *len, const char **why); /* arena; NULL + *why on failure */
char *absolute_path(const char *path); /* lexically normalized */
char *dir_name(const char *path);
const char *display_path(const char *path); /* relative to the working directory when inside it */
int edit_distance(const char *a, const char *b);
/* closest of candidates within a small distance, or NULL */
const char *suggest(const char *word, const char *const *candidates, int n);

/* A string -> pointer map (util.c), for lookups by name in linear time. */
typedef struct Map Map;
Map *map_new(void);
const void *map_get(const Map *m, const char *key);
/* Adds key -> value (value non-NULL) and returns NULL, or returns the value
 * already there and changes nothing. Keys are not copied. */
const void *map_put(Map *m, const char *key, const void *value);

/* build/reserved.c, made at build time by tools/reserved.c from the headers
 * the generated code includes and from templates/ */
extern const char *const reserved_macros[], *const reserved_macro_expansions[], *const reserved_header_names[],
    *const reserved_template_names[], *const reserved_template_patterns[];
extern const int reserved_macros_count, reserved_macro_expansions_count, reserved_header_names_count,
    reserved_template_names_count, reserved_template_patterns_count;

/* diag.c: user errors are collected with their place; bugs abort */
void diag_error(const char *place, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_note(const char *place, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int diag_count(void);
void diag_reset(void);
void diag_set_stream(FILE *f);
void diag_set_quiet(bool quiet); /* -q: notes are not printed */
_Noreturn void bug_at(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define bug(...) bug_at(__FILE__, __LINE__, __VA_ARGS__)

/* scalars.c: the builtin field types */
bool scalar_lookup(const char *spelling, ScalarKind *out);
const VectorInfo *vector_lookup(const char *spelling); /* CUDA's vector type of that name, or NULL */
/* ident.c: what may become a C/C++/CUDA identifier in generated code */
const char *ident_problem(const char *name); /* NULL when fine, else why not */
/* Why the included headers or gpugen's templates already hold name (only
 * macros when macros_only), or NULL; from build/reserved.c */
const char *ident_reserved(const char *name, bool macros_only);
/* The identifiers of the replacement list of that headers' macro `name`,
 * each after a space ("" for an empty one), or NULL when it is none */
const char *ident_macro_expansion(const char *name);

/* targets.c: CUDA architectures */
bool target_parse(const char *name, int *arch, char *suffix);
const char *target_known_list(void);
void target_sm_limits(int arch, int *threads, int *blocks);
const char *target_sm_limits_cpp(void);
/* architectures the installed nvcc can build, as "compute_NN" numbers;
 * returns -1 with a message in *why when nvcc cannot be asked */
int nvcc_supported_archs(int *archs, int max, const char **why);
const char *cuda_include_dir(void); /* beside that nvcc, or NULL */

/* json_strict.c: RFC 8259 on the raw bytes (cJSON is lenient); false after
 * reporting the first problem */
bool json_check_strict(const char *file, const char *text, size_t len);

/* spec.c */
Spec *spec_parse(const char *path, const char *text, size_t len);

/* check.c */
void spec_check(Spec *spec, const int *nvcc_archs, int n_nvcc_archs);
const Target *spec_tuned_target(const Spec *spec, int arch);

/* clangcheck.c: the user's headers against the spec, through libclang */
typedef struct {
  const char **include_dirs; /* absolute */
  int ninclude_dirs;
  const char *cuda_include_dir; /* NULL when unknown */
  const char *first_dir;        /* searched before include_dirs (the spec's directory), or NULL */
} ClangOptions;
void clang_check_spec(Spec *spec, const ClangOptions *opts);
/* gpugen init: the JSON spec skeleton for TYPEs of a header, into out;
 * returns false (with errors reported) when a type cannot be described */
bool clang_spec_skeleton(const char *header, const char *header_in_spec, const char *const *dirs_in_spec,
                         const char *const *types, int ntypes, const ClangOptions *opts, Buf *out);

/* header_files.c: while headers are parsed, only regular files (and
 * directories) open for reading; what was refused, named in clang's error
 * text, gets its reason (NULL otherwise) */
void header_reads_begin(void);
void header_reads_end(void);
const char *header_read_refused(const char *clang_message);

/* layout.c */
void layout_spec(Spec *spec);
void layout_type(Type *t);                 /* after its nested types */
void layout_scalar_plan(ScalarKind k, WordPlan *shuffle, WordPlan *load);

/* Generated files: emitters add, output.c writes. */
typedef struct {
  const char *name;     /* as shown in messages: the file name inside the output directory */
  const char *path;     /* absolute path where it lands */
  bool always_write;    /* rewritten even when unchanged (the depfile, the stamp) */
  Buf text;
} OutputFile;
#define OUTPUT_MAX_FILES 16
typedef struct {
  OutputFile files[OUTPUT_MAX_FILES];
  int nfiles;
  const char *out_dir;  /* absolute: where output_add puts files */
  const char **inputs;  /* files no output may be (compared by device and inode) */
  int ninputs, inputs_cap;
} OutputSet;
Buf *output_add(OutputSet *set, const char *name);      /* a file inside out_dir */
Buf *output_add_path(OutputSet *set, const char *path); /* a file anywhere (absolute path) */
/* The stamp: names, sizes and hashes of the files added so far; always
 * written, and last, so build rules can depend on it. Add it last. */
void output_add_stamp(OutputSet *set, const char *name);
void output_protect(OutputSet *set, const char *path);  /* an input the outputs must not overwrite */
void output_free(OutputSet *set);
/* Writes the set as one transaction: changed files only, all or nothing.
 * 0 on success; on failure nothing has changed and a message was printed. */
int output_write(OutputSet *set, bool verbose);

/* depfile.c: the text of --depfile (gcc -MD format) for the files of set,
 * named as out_dir (the -o spelling) plus their names, into b. Returns NULL,
 * or the first path that a depfile cannot hold (a line break). */
const char *depfile_text(const Spec *spec, const OutputSet *set, const char *out_dir, Buf *b);

/* template.c: the CUDA skeletons in templates/, embedded at build time */
const char *template_text(const char *name);
/* Appends block `block` of template `name`, replacing $(KEY) from the
 * NULL-terminated key/value list. */
void template_emit(Buf *b, const char *name, const char *block, const char *const *kv);

/* kernels.c: the kernel library's names that gen owns */
typedef struct {
  const char *placeholder; /* $(NAME) in the templates, filled with <module>_<reduction><suffix> */
  const char *suffix;
  bool segmented;          /* only "segmented" reductions have it */
} KernelName;
extern const KernelName kernel_names[];
extern const int kernel_name_count;
extern const char *const row_form_names[];
extern const int row_form_count;
extern const unsigned int kernel_max_grid;
const char *row_forms_enumerators(void); /* "short_rows, grouped_rows, ..." */

/* emit_*.c */
void emit_header(const Spec *spec, OutputSet *out);   /* <module>.h */
void emit_device(const Spec *spec, OutputSet *out);   /* <module>.cuh */
void emit_host(const Spec *spec, OutputSet *out);     /* <module>.cu */
void emit_build(const Spec *spec, OutputSet *out);    /* <module>.mk */
/* emit_reduce.c: the reductions' parts of <module>.cuh, .h and .cu */
void emit_reduce_device(const Spec *spec, Buf *b);      /* inside namespace M */
void emit_reduce_device_api(const Spec *spec, Buf *b);  /* after it: M_R_warp, M_R_block, M_R_identity */
void emit_reduce_declarations(const Spec *spec, Buf *b);
void emit_reduce_host(const Spec *spec, Buf *b);
/* emit_nccl.c: the reductions across GPUs ("nccl": true); nothing otherwise */
bool spec_uses_nccl(const Spec *spec);
void emit_nccl_include(const Spec *spec, Buf *b);                                   /* <module>.h */
void emit_nccl_device_includes(const Spec *spec, Buf *b);                           /* <module>.cuh */
void emit_nccl_window_declarations(const Spec *spec, Buf *b);                       /* <module>.h */
void emit_nccl_declarations(const Spec *spec, const Reduction *r, const char *d_params, const char *params,
                            Buf *b); /* <module>.h */
void emit_nccl_support(const Spec *spec, Buf *b);                                   /* <module>.cu, once */
void emit_nccl_reduction(const Reduction *r, Buf *b, const char *const *kv);        /* <module>.cu */
void emit_nccl_window_create(const Spec *spec, Buf *b);                             /* <module>.cu, last */
/* shared by the emitters (emit_common.c) */
const char *module_guard(const Spec *spec);           /* upper-case module name for include guards */
const char *type_c_spelling(const TypeRef *r);        /* in plain C */
const char *type_cuda_spelling(const TypeRef *r);     /* in CUDA C++ */
const char *relative_path(const char *from_dir, const char *to_path);
/* Suspends the user's macros that name identifiers of b after `start` (file: its name, for messages). */
void emit_shield_user_macros(Buf *b, const Spec *spec, size_t start, const char *file);
void emit_banner(Buf *b, const Spec *spec, const char *comment_open, const char *line_prefix,
                 const char *comment_close);

/* explain.c: what gpugen computed for a checked spec, for people or tools */
typedef struct {
  bool json;                /* --json: one JSON document instead of text */
  bool resources;           /* --resources: build with nvcc, report ptxas and PTX counts */
  const char *const *names; /* types and reductions to show; all when nnames is 0 */
  int nnames;
} ExplainOptions;
/* resources.c: one reduction kernel for one target, as nvcc built it */
typedef struct {
  int reduction;          /* index in spec->reductions */
  const char *target;     /* "sm_90" */
  const char *kernel;     /* "M_R_kernel" */
  const char *entry;      /* its mangled name */
  int registers, stack_bytes, spill_store_bytes, spill_load_bytes, smem_bytes; /* ptxas -v */
  int shfl, global_loads; /* shfl.sync and ld.global instructions in its PTX */
} KernelResources;
typedef struct {
  KernelResources *kernels; /* in nvcc's order: by target, then kernel */
  int n;
} Resources;
/* Builds the module written to module_dir with $GPUGEN_NVCC (default nvcc)
 * for every target and measures its kernels; false (error reported) when
 * nvcc fails or is missing. */
bool measure_resources(const Spec *spec, const char *module_dir, const char *const *include_dirs, int ninclude_dirs,
                       Resources *out);
/* Writes the explanation to out; false (errors reported) when a name is
 * unknown. res is NULL unless --resources. */
bool explain_spec(const Spec *spec, const ExplainOptions *opts, const Resources *res, FILE *out);

/* driver.c: the whole pipeline, for main.c, the fuzzer and the tests */
typedef struct {
  const char *spec_path;  /* for messages; read unless spec_text is given */
  const char *spec_text;  /* the spec's bytes (spec_len of them), or NULL */
  size_t spec_len;
  const char *out_dir;    /* -o */
  bool check_only;        /* --check: validate, write nothing */
  bool verbose;           /* -v */
  bool quiet;             /* -q: no notes, only errors */
  const char *depfile;    /* --depfile: also write this (gcc -MD format), or NULL */
  const ExplainOptions *explain; /* gpugen explain: describe the model, write no files */
  const int *archs;       /* when non-NULL, the architectures nvcc builds (nvcc is not asked) */
  int narchs;
  bool skip_headers;      /* leave out the libclang checks (the fuzzer) */
} GenOptions;
/* Runs every stage; 0 on success, 1 when the spec or the output had errors
 * (reported through diag.c or on stderr). */
int gpugen_generate(const GenOptions *o);
/* Forgets diagnostics and frees the arena, for a next in-process run. */
void gpugen_reset(void);

#endif
