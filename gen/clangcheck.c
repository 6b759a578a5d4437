/* The user's headers against the spec, through libclang's C API (the only
 * file that knows libclang). The headers are parsed as CUDA twice, for the
 * host and for the GPU (nvptx64), and every spec type and reduction
 * function is looked up and compared: struct layouts field by field, the
 * operators' signatures, and whether they can run on the GPU and the host. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <clang-c/Index.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gpugen.h"

#ifndef GPUGEN_CLANG_RESOURCE_DIR
#define GPUGEN_CLANG_RESOURCE_DIR ""
#endif

static const Spec *cur;

/* CXStrings are disposed as soon as they are read. */
static char *take(CXString s) {
  const char *c = clang_getCString(s);
  char *copy = arena_strdup(c ? c : "");
  clang_disposeString(s);
  return copy;
}

static const char *cursor_place(CXCursor c) {
  CXFile file;
  unsigned line, col;
  clang_getSpellingLocation(clang_getCursorLocation(c), &file, &line, &col, NULL);
  if (!file)
    return arena_strdup("<built-in>");
  return arena_printf("%s:%u:%u", display_path(take(clang_getFileName(file))), line, col);
}

/* ---- parsing -------------------------------------------------------------- */

/* What clang said of a call probe (call_probe_text): the call of a
 * reduction's operator exactly as the generated code makes it. It is
 * reported after check_function, and only where that found nothing
 * simpler to say. */
typedef struct {
  int reduction;
  const char *role;    /* "fold" or "combine" */
  const char *message; /* clang's, with the places of its notes */
} CallFailure;
static CallFailure *call_failures;
static int ncall_failures, call_failures_cap;

static void note_call_failure(const char *line, CXDiagnostic d) {
  int reduction;
  char role[16];
  const char *marker = strstr(line, "gpugen_call_");
  if (!marker || sscanf(marker, "gpugen_call_%d_%15[a-z]", &reduction, role) != 2)
    return;
  for (int i = 0; i < ncall_failures; i++)
    if (call_failures[i].reduction == reduction && strcmp(call_failures[i].role, role) == 0)
      return; /* the GPU parse says it again */
  Buf msg = {0};
  buf_put(&msg, take(clang_getDiagnosticSpelling(d)));
  CXDiagnosticSet notes = clang_getChildDiagnostics(d);
  for (unsigned k = 0; k < clang_getNumDiagnosticsInSet(notes); k++) {
    CXDiagnostic n = clang_getDiagnosticInSet(notes, k);
    CXFile file;
    unsigned nline, col;
    clang_getSpellingLocation(clang_getDiagnosticLocation(n), &file, &nline, &col, NULL);
    if (file)
      buf_printf(&msg, "; %s:%u:%u: %s", display_path(take(clang_getFileName(file))), nline, col,
                 take(clang_getDiagnosticSpelling(n)));
    clang_disposeDiagnostic(n);
  }
  if (ncall_failures == call_failures_cap) {
    call_failures_cap = call_failures_cap ? 2 * call_failures_cap : 8;
    CallFailure *grown = ARENA_ARRAY(CallFailure, call_failures_cap);
    if (ncall_failures)
      memcpy(grown, call_failures, sizeof *grown * (size_t)ncall_failures);
    call_failures = grown;
  }
  call_failures[ncall_failures++] = (CallFailure){reduction, arena_strdup(role), arena_strdup(msg.data)};
  buf_free(&msg);
}

typedef struct {
  CXIndex index;
  CXTranslationUnit tu;
} Parsed;

/* Parses the headers as CUDA for one side, as nvcc sees them: clang's CUDA
 * mode with the installed toolkit's headers (cuda_runtime.h and the
 * execution spaces, __align__, __launch_bounds__, CCCL's cuda/std), or, for
 * the C side, as plain C11. */
typedef enum { SIDE_HOST, SIDE_GPU, SIDE_PLAIN_C } Side;

/* Parses the headers, then `extra` (probes, or NULL), for one side: CUDA
 * for the host or the GPU, or plain C11 as a C file that includes
 * <module>.h would see them (its errors are counted, not reported). */
static bool parse_side(const char *const *headers, int nheaders, const ClangOptions *opts, Side side,
                       const char *extra, Parsed *out, const char **c_problem) {
  bool device = side == SIDE_GPU;
  const char **args = ARENA_ARRAY(const char *, 32 + opts->ninclude_dirs); /* every include directory fits */
  int n = 0;
  args[n++] = "-x";
  if (side == SIDE_PLAIN_C) {
    args[n++] = "c";
    args[n++] = "-std=c11";
  } else {
    args[n++] = "cuda";
    args[n++] = device ? "--cuda-device-only" : "--cuda-host-only";
    if (device)
      args[n++] = "--cuda-gpu-arch=sm_70";
    if (opts->cuda_include_dir) {
      args[n++] = arena_printf("--cuda-path=%s", dir_name(opts->cuda_include_dir));
      args[n++] = arena_printf("-isystem%s/cccl", opts->cuda_include_dir); /* cuda/std, as nvcc finds it */
    } else {
      /* No toolkit beside nvcc: clang's CUDA mode without CUDA's headers
       * still knows the execution spaces as attributes; the macros that
       * cuda_runtime.h would define for them are given here, so headers
       * that need nothing else still parse (their own includes of CUDA
       * headers say what is missing). */
      static const char *const spaces[] = {
          "-D__CUDACC__",
          "-D__host__=__attribute__((host))",
          "-D__device__=__attribute__((device))",
          "-D__global__=__attribute__((global))",
          "-D__shared__=__attribute__((shared))",
          "-D__constant__=__attribute__((constant))",
          "-D__managed__=__attribute__((managed))",
          "-D__forceinline__=__inline__ __attribute__((always_inline))",
      };
      args[n++] = "-nocudainc";
      for (size_t k = 0; k < sizeof spaces / sizeof spaces[0]; k++)
        args[n++] = spaces[k];
    }
    args[n++] = "-nocudalib";
    args[n++] = "-std=c++17";
    args[n++] = "-Wno-unknown-cuda-version";
    /* C11 keywords (_Alignas, _Static_assert, ...) that clang takes in C++ as
     * an extension and nvcc refuses */
    args[n++] = "-Werror=c11-extensions";
  }
  const char *resource = getenv("GPUGEN_CLANG_RESOURCE_DIR");
  if (!resource || !*resource)
    resource = GPUGEN_CLANG_RESOURCE_DIR;
  if (*resource) {
    args[n++] = "-resource-dir";
    args[n++] = resource;
  }
  if (opts->first_dir)
    args[n++] = arena_printf("-I%s", opts->first_dir);
  for (int i = 0; i < opts->ninclude_dirs; i++)
    args[n++] = arena_printf("-I%s", opts->include_dirs[i]);
  if (opts->cuda_include_dir)
    args[n++] = arena_printf("-isystem%s", opts->cuda_include_dir);

  /* The headers by their spelling in the spec, found through the -I flags
   * as the generated files find them: no path of the user's is pasted into
   * this text. The file's own directory does not exist, so nothing is
   * found beside it. */
  Buf main_file = {0};
  for (int i = 0; i < nheaders; i++)
    buf_printf(&main_file, "#include \"%s\"\n", headers[i]);
  if (extra)
    buf_put(&main_file, extra);
  const char *main_name = side == SIDE_PLAIN_C ? "/gpugen-probe/gpugen-check.c" : "/gpugen-probe/gpugen-check.cu";
  struct CXUnsavedFile unsaved = {main_name, main_file.data ? main_file.data : "", (unsigned long)main_file.len};

  out->index = clang_createIndex(0, 0);
  header_reads_begin();
  enum CXErrorCode err = clang_parseTranslationUnit2(
      out->index, main_name, args, n, &unsaved, 1,
      CXTranslationUnit_SkipFunctionBodies | CXTranslationUnit_DetailedPreprocessingRecord, &out->tu);
  header_reads_end();
  const char *main_file_text = main_file.data ? arena_strdup(main_file.data) : NULL;
  buf_free(&main_file);
  if (err != CXError_Success) {
    diag_error(cur ? cur->path : NULL, "libclang could not parse the headers (error %d)", (int)err);
    clang_disposeIndex(out->index);
    out->tu = NULL;
    return false;
  }
  /* The header's own diagnostics, in file:line:col form. */
  bool ok = true;
  unsigned ndiags = clang_getNumDiagnostics(out->tu);
  for (unsigned i = 0; i < ndiags; i++) {
    CXDiagnostic d = clang_getDiagnostic(out->tu, i);
    enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
    if (sev >= CXDiagnostic_Error && side == SIDE_PLAIN_C) {
      if (ok) { /* the first one says why */
        CXFile file;
        unsigned line;
        clang_getSpellingLocation(clang_getDiagnosticLocation(d), &file, &line, NULL, NULL);
        *c_problem = arena_printf("%s:%u: %s", file ? display_path(take(clang_getFileName(file))) : "<command line>",
                                  line, take(clang_getDiagnosticSpelling(d)));
      }
      ok = false;
    } else if (sev >= CXDiagnostic_Error) {
      CXFile file;
      unsigned line, col;
      clang_getSpellingLocation(clang_getDiagnosticLocation(d), &file, &line, &col, NULL);
      if (file && clang_Location_isFromMainFile(clang_getDiagnosticLocation(d)) && main_file_text) {
        /* a call probe's line: kept for check_reductions, which names the spec's place */
        const char *at = main_file_text;
        for (unsigned k = 1; k < line && at; k++)
          at = strchr(at, '\n') ? strchr(at, '\n') + 1 : NULL;
        if (at && strncmp(at, "using gpugen_call_", 18) == 0) {
          note_call_failure(arena_strndup(at, strcspn(at, "\n")), d);
          clang_disposeDiagnostic(d);
          continue;
        }
      }
      const char *place = file ? arena_printf("%s:%u:%u", display_path(take(clang_getFileName(file))), line, col)
                               : arena_strdup("<command line>");
      const char *option = take(clang_getDiagnosticOption(d, NULL));
      const char *spelling = take(clang_getDiagnosticSpelling(d));
      const char *refused = header_read_refused(spelling);
      const char *why = refused ? ""
                        : strcmp(option, "-Wc11-extensions") == 0
                            ? "; nvcc compiles the headers as C++, where C11's keywords do not exist: use the C++ "
                              "spelling (alignas, static_assert, ...) under #ifdef __cplusplus"
                            : "";
      diag_error(place, "%s%s%s", refused ? refused : spelling, why, device ? " (parsing for the GPU)" : "");
      ok = false;
    }
    clang_disposeDiagnostic(d);
  }
  return ok;
}

static bool parse_headers(const char *const *headers, int nheaders, const ClangOptions *opts, bool device,
                          Parsed *out) {
  return parse_side(headers, nheaders, opts, device ? SIDE_GPU : SIDE_HOST, NULL, out, NULL);
}

static void dispose(Parsed *p) {
  if (p->tu)
    clang_disposeTranslationUnit(p->tu);
  if (p->index)
    clang_disposeIndex(p->index);
  p->tu = NULL;
  p->index = NULL;
}

/* ---- what the headers declare --------------------------------------------- */

typedef struct {
  const char *name;
  CXCursor cursor;
  enum CXCursorKind kind; /* StructDecl (definition), UnionDecl, TypedefDecl, FunctionDecl, or forward struct */
  bool forward;
  int next_same_name; /* index of the next declaration of this name, or -1 */
} Decl;

/* The headers' declarations, with indexes so each lookup costs the same
 * however many there are. */
typedef struct {
  Decl *items;
  int n, cap;
  Map *by_kind;  /* "kind/forward/name" -> the first such Decl */
  Map *by_name;  /* name -> the first Decl of that name (then next_same_name) */
} Decls;

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  Decls *d = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl)
    return CXChildVisit_Recurse; /* extern "C" { ... }, which older libclang shows as an unexposed declaration */
  if (clang_Location_isInSystemHeader(clang_getCursorLocation(c)))
    return CXChildVisit_Continue;
  if (k == CXCursor_TypeAliasDecl) /* using A = B; is a typedef */
    k = CXCursor_TypedefDecl;
  if (k != CXCursor_StructDecl && k != CXCursor_ClassDecl && k != CXCursor_UnionDecl && k != CXCursor_TypedefDecl &&
      k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate)
    return CXChildVisit_Continue;
  const char *name = take(clang_getCursorSpelling(c));
  if (!*name)
    return CXChildVisit_Continue;
  if (d->n == d->cap) {
    int cap = d->cap ? d->cap * 2 : 64;
    Decl *items = ARENA_ARRAY(Decl, cap);
    if (d->n)
      memcpy(items, d->items, sizeof(Decl) * (size_t)d->n);
    d->items = items;
    d->cap = cap;
  }
  bool is_record = k == CXCursor_StructDecl || k == CXCursor_ClassDecl || k == CXCursor_UnionDecl;
  d->items[d->n++] = (Decl){name, c, k == CXCursor_ClassDecl ? CXCursor_StructDecl : k,
                            is_record && !clang_isCursorDefinition(c)};
  return CXChildVisit_Continue;
}

static const char *kind_key(const char *name, enum CXCursorKind kind, bool forward) {
  return arena_printf("%d/%d/%s", (int)kind, (int)forward, name);
}

static Decls collect_decls(CXTranslationUnit tu) {
  Decls d = {0};
  clang_visitChildren(clang_getTranslationUnitCursor(tu), collect, &d);
  d.by_kind = map_new();
  d.by_name = map_new();
  Map *last = map_new(); /* name -> slot holding the latest Decl of that name */
  for (int i = 0; i < d.n; i++) {
    Decl *x = &d.items[i];
    x->next_same_name = -1;
    map_put(d.by_kind, kind_key(x->name, x->kind, x->forward), x); /* the first one stays */
    Decl **slot = (Decl **)map_get(last, x->name);
    if (slot) {
      (*slot)->next_same_name = i;
    } else {
      slot = ARENA_NEW(Decl *);
      map_put(last, x->name, slot);
      map_put(d.by_name, x->name, x);
    }
    *slot = x;
  }
  return d;
}

static const Decl *find_decl(const Decls *d, const char *name, enum CXCursorKind kind, bool forward) {
  return map_get(d->by_kind, kind_key(name, kind, forward));
}

static const char *suggest_decl(const Decls *d, const char *name, enum CXCursorKind kind) {
  const char **names = ARENA_ARRAY(const char *, d->n + 1);
  int n = 0;
  for (int i = 0; i < d->n; i++)
    if (d->items[i].kind == kind || (kind == CXCursor_StructDecl && d->items[i].kind == CXCursor_TypedefDecl))
      names[n++] = d->items[i].name;
  const char *near = suggest(name, names, n);
  return near ? arena_printf(" (did you mean '%s'?)", near) : "";
}

/* A spec type found in the headers. */
typedef struct {
  CXType type;    /* canonical record type */
  CXCursor decl;  /* the struct's definition */
  bool found;
} Found;

/* Looks a struct up by typedef name, then by tag; reports what is wrong. */
static Found find_struct(const Decls *d, const Type *t, const char **c_spelling, bool report) {
  Found f = {0};
  const Decl *td = find_decl(d, t->name, CXCursor_TypedefDecl, false);
  if (td) {
    CXType under = clang_getCanonicalType(clang_getTypedefDeclUnderlyingType(td->cursor));
    CXCursor decl = clang_getTypeDeclaration(under);
    enum CXCursorKind k = clang_getCursorKind(decl);
    if (under.kind == CXType_Record && (k == CXCursor_StructDecl || k == CXCursor_ClassDecl)) {
      if (clang_Type_getSizeOf(under) < 0) {
        if (report)
          diag_error(cursor_place(td->cursor), "'%s' (%s in %s) is an incomplete type here: the struct is declared "
                     "but never defined", t->name, t->path, cur->path);
        return f;
      }
      /* the generated code uses the typedef, gpugen's layout the struct: they must agree */
      long long declared_align = clang_Type_getAlignOf(clang_getCursorType(td->cursor));
      if (report && declared_align > 0 && declared_align != clang_Type_getAlignOf(under)) {
        diag_error(cursor_place(td->cursor), "typedef '%s' (%s in %s) has alignment %lld, but its struct has %lld; "
                   "the generated code would lay out arrays of the typedef by one and move values by the other: align "
                   "the struct itself (alignas, __align__) instead", t->name, t->path, cur->path, declared_align,
                   clang_Type_getAlignOf(under));
        return f;
      }
      f.type = under;
      f.decl = clang_getCursorDefinition(decl);
      f.found = true;
      *c_spelling = t->name;
      return f;
    }
    if (report)
      diag_error(cursor_place(td->cursor), "'%s' (%s in %s) is %s here, not a struct%s", t->name, t->path, cur->path,
                 k == CXCursor_UnionDecl ? "a union" : arena_printf("a typedef of '%s'", take(clang_getTypeSpelling(under))),
                 k == CXCursor_UnionDecl ? "; gpugen supports structs only" : "");
    return f;
  }
  const Decl *sd = find_decl(d, t->name, CXCursor_StructDecl, false);
  if (sd) {
    f.type = clang_getCanonicalType(clang_getCursorType(sd->cursor));
    f.decl = sd->cursor;
    f.found = true;
    *c_spelling = arena_printf("struct %s", t->name);
    return f;
  }
  if (!report)
    return f;
  const Decl *ud = find_decl(d, t->name, CXCursor_UnionDecl, false);
  const Decl *fwd = find_decl(d, t->name, CXCursor_StructDecl, true);
  if (ud)
    diag_error(cursor_place(ud->cursor), "'%s' (%s in %s) is a union here; gpugen supports structs only", t->name,
               t->path, cur->path);
  else if (fwd)
    diag_error(cursor_place(fwd->cursor), "'%s' (%s in %s) is declared here but never defined (an incomplete type)",
               t->name, t->path, cur->path);
  else
    diag_error(cur->path, "%s: struct '%s' is not defined in the headers%s", t->path, t->name,
               suggest_decl(d, t->name, CXCursor_StructDecl));
  return f;
}

/* ---- comparing types ------------------------------------------------------ */

static bool scalar_of(CXType t, ScalarKind *k) {
  switch (t.kind) {
  case CXType_Bool: *k = SC_BOOL; return true;
  case CXType_Char_S: case CXType_Char_U: *k = SC_CHAR; return true;
  case CXType_SChar: *k = SC_SCHAR; return true;
  case CXType_UChar: *k = SC_UCHAR; return true;
  case CXType_Short: *k = SC_SHORT; return true;
  case CXType_UShort: *k = SC_USHORT; return true;
  case CXType_Int: *k = SC_INT; return true;
  case CXType_UInt: *k = SC_UINT; return true;
  case CXType_Long: *k = SC_LONG; return true;
  case CXType_ULong: *k = SC_ULONG; return true;
  case CXType_LongLong: *k = SC_LLONG; return true;
  case CXType_ULongLong: *k = SC_ULLONG; return true;
  case CXType_Float: *k = SC_FLOAT; return true;
  case CXType_Double: *k = SC_DOUBLE; return true;
  case CXType_Record: {
    const char *name = take(clang_getCursorSpelling(clang_getTypeDeclaration(t)));
    if (strcmp(name, "__half") == 0) { *k = SC_HALF; return true; }
    if (strcmp(name, "__nv_bfloat16") == 0) { *k = SC_BF16; return true; }
    return false;
  }
  default: return false;
  }
}

/* The spec's types as found in one parse, for nested-struct comparisons. */
typedef struct {
  Found *found; /* indexed like spec->types */
} Catalog;

/* Does the canonical clang type t denote the spec type reference r? */
static bool same_type(const Catalog *cat, CXType t, const TypeRef *r) {
  t = clang_getCanonicalType(t);
  ScalarKind k;
  if (r->is_scalar)
    return scalar_of(t, &k) && scalar_info[k].canonical == scalar_info[r->scalar].canonical;
  if (t.kind != CXType_Record)
    return false;
  if (r->type->vector) /* CUDA's own struct of that name, at global scope */
    return strcmp(take(clang_getCursorSpelling(clang_getTypeDeclaration(t))), r->type->name) == 0 &&
           clang_getCursorKind(clang_getCursorSemanticParent(clang_getTypeDeclaration(t))) == CXCursor_TranslationUnit;
  const Found *f = &cat->found[r->type->index];
  return f->found && clang_equalCursors(clang_getCanonicalCursor(clang_getTypeDeclaration(t)),
                                        clang_getCanonicalCursor(f->decl));
}

static const char *spec_spelling(const Field *f) {
  const char *s = type_cuda_spelling(&f->ref);
  return f->is_array ? arena_printf("%s[%d]", s, f->count) : s;
}

/* Every field of a struct, however many: none may be dropped, or a header
 * field the spec does not list would pass the comparison. */
typedef struct {
  CXCursor *cursors;
  int n, cap;
} FieldList;

static enum CXVisitorResult collect_field(CXCursor c, CXClientData data) {
  FieldList *l = data;
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 32;
    CXCursor *grown = ARENA_ARRAY(CXCursor, l->cap);
    if (l->n)
      memcpy(grown, l->cursors, sizeof(CXCursor) * (size_t)l->n);
    l->cursors = grown;
  }
  l->cursors[l->n++] = c;
  return CXVisit_Continue;
}

/* ---- C++ classes ------------------------------------------------------------ */

/* What libclang's API does not tell about a C++ class, the compiler does:
 * sizeof lays out a class template instance (a typedef alone leaves it
 * incomplete), __builtin_offsetof reaches fields inherited from a base,
 * and __is_trivially_copyable says whether bytes may be copied. Such
 * types get a second parse with one constexpr variable per question (a
 * "probe"), whose values are read back by evaluation. */
static Map *probe_values; /* probe name -> long long *; empty without a second parse */

static const char *probe_name(const Type *t, const char *what) {
  return arena_printf("gpugen_probe_%d_%s", t->index, what);
}

static bool probe_value(const Type *t, const char *what, long long *value) {
  const long long *v = probe_values ? map_get(probe_values, probe_name(t, what)) : NULL;
  if (v)
    *value = *v;
  return v != NULL;
}

typedef struct {
  CXCursor *items;
  int n, cap;
} CursorList;

static void cursor_push(CursorList *l, CXCursor c) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 8;
    CXCursor *grown = ARENA_ARRAY(CXCursor, l->cap);
    if (l->n)
      memcpy(grown, l->items, sizeof(CXCursor) * (size_t)l->n);
    l->items = grown;
  }
  l->items[l->n++] = c;
}

/* The members that make a record a C++ class: bases and member functions. */
static enum CXChildVisitResult collect_cxx_member(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  switch (clang_getCursorKind(c)) {
  case CXCursor_CXXBaseSpecifier: case CXCursor_CXXMethod: case CXCursor_Constructor: case CXCursor_Destructor:
  case CXCursor_ConversionFunction: case CXCursor_FunctionTemplate:
    cursor_push(data, c);
    break;
  default: break;
  }
  return CXChildVisit_Continue;
}

/* A class template instance lists no members of its own to libclang: they
 * are read from the template it instantiates. */
static CursorList *cxx_members(CXCursor record) {
  CursorList *l = ARENA_NEW(CursorList);
  CXCursor pattern = clang_getSpecializedCursorTemplate(record);
  clang_visitChildren(clang_Cursor_isNull(pattern) ? record : pattern, collect_cxx_member, l);
  return l;
}

static CXType base_type(CXCursor base_specifier) {
  return clang_getCanonicalType(clang_getCursorType(base_specifier));
}
static CXCursor base_decl(CXCursor base_specifier) {
  return clang_getCursorDefinition(clang_getTypeDeclaration(base_type(base_specifier)));
}

/* The fields of the bases (base first, recursively), then the class's own:
 * the layout order a spec lists them in. */
static void collect_layout_fields(CXCursor record, CXType type, FieldList *out, int *inherited) {
  CursorList *members = cxx_members(record);
  for (int i = 0; i < members->n; i++)
    if (clang_getCursorKind(members->items[i]) == CXCursor_CXXBaseSpecifier &&
        !clang_isVirtualBase(members->items[i])) {
      int ignored = 0;
      collect_layout_fields(base_decl(members->items[i]), base_type(members->items[i]), out, &ignored);
    }
  *inherited = out->n;
  clang_Type_visitFields(type, collect_field, out);
}

/* The probes for spec type t, found in the first parse as decl (NULL when
 * it is a typedef of a class template instance not yet laid out). */
static void add_probes(Buf *probes, const Type *t, CXCursor *decl) {
  buf_printf(probes, "constexpr long long %s = sizeof(%s);\n", probe_name(t, "size"), t->name);
  buf_printf(probes, "constexpr long long %s = __is_trivially_copyable(%s);\n", probe_name(t, "copyable"), t->name);
  buf_printf(probes, "constexpr long long %s = __is_trivially_constructible(%s);\n", probe_name(t, "trivial_default"),
             t->name);
  buf_printf(probes, "constexpr long long %s = __is_standard_layout(%s);\n", probe_name(t, "standard"), t->name);
  buf_printf(probes, "constexpr long long %s = __is_polymorphic(%s);\n", probe_name(t, "polymorphic"), t->name);
  if (!decl)
    return;
  FieldList *fields = ARENA_NEW(FieldList);
  int inherited;
  collect_layout_fields(*decl, clang_getCanonicalType(clang_getCursorType(*decl)), fields, &inherited);
  for (int i = 0; i < inherited; i++) {
    const char *name = take(clang_getCursorSpelling(fields->cursors[i]));
    if (*name)
      buf_printf(probes, "constexpr long long %s = __builtin_offsetof(%s, %s);\n",
                 probe_name(t, arena_printf("offset_%s", name)), t->name, name);
  }
}

/* The probe text for the spec types that are C++ classes or typedefs of
 * class template instances, or NULL when there are none. */
static const char *probe_text(const Decls *d, const Spec *spec) {
  Buf probes = {0};
  for (int i = 0; i < spec->ntypes; i++) {
    const Type *t = spec->types[i];
    if (t->synthetic || t->vector)
      continue;
    const Decl *td = find_decl(d, t->name, CXCursor_TypedefDecl, false);
    const Decl *sd = find_decl(d, t->name, CXCursor_StructDecl, false);
    CXCursor decl;
    if (td) {
      CXType under = clang_getCanonicalType(clang_getTypedefDeclUnderlyingType(td->cursor));
      if (under.kind != CXType_Record)
        continue;
      if (clang_Type_getSizeOf(under) < 0) {
        if (clang_Type_getNumTemplateArguments(under) > 0)
          add_probes(&probes, t, NULL);
        continue;
      }
      decl = clang_getCursorDefinition(clang_getTypeDeclaration(under));
      if (clang_Type_getNumTemplateArguments(under) > 0) { /* an instance: its traits, whatever its members */
        add_probes(&probes, t, &decl);
        continue;
      }
    } else if (sd) {
      decl = sd->cursor;
    } else {
      continue;
    }
    if (cxx_members(decl)->n > 0)
      add_probes(&probes, t, &decl);
  }
  const char *text = probes.data ? arena_strdup(probes.data) : NULL;
  buf_free(&probes);
  return text;
}

static enum CXChildVisitResult read_probe(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  if (clang_getCursorKind(c) != CXCursor_VarDecl)
    return CXChildVisit_Continue;
  const char *name = take(clang_getCursorSpelling(c));
  if (strncmp(name, "gpugen_probe_", 13) != 0)
    return CXChildVisit_Continue;
  CXEvalResult r = clang_Cursor_Evaluate(c);
  if (r && clang_EvalResult_getKind(r) == CXEval_Int) {
    long long *v = ARENA_NEW(long long);
    *v = clang_EvalResult_getAsLongLong(r);
    map_put(data, name, v);
  }
  if (r)
    clang_EvalResult_dispose(r);
  return CXChildVisit_Continue;
}

/* Virtual functions or bases, anywhere in the class or its bases: the
 * first one found, as a message, or NULL. */
static const char *virtual_problem(CXCursor record, const char **place) {
  CursorList *members = cxx_members(record);
  for (int i = 0; i < members->n; i++) {
    CXCursor m = members->items[i];
    enum CXCursorKind k = clang_getCursorKind(m);
    if (k == CXCursor_CXXBaseSpecifier && clang_isVirtualBase(m)) {
      *place = cursor_place(m);
      return arena_printf("has a virtual base class '%s', which it reaches through a hidden pointer",
                          take(clang_getTypeSpelling(base_type(m))));
    }
    if ((k == CXCursor_CXXMethod || k == CXCursor_Destructor) && clang_CXXMethod_isVirtual(m)) {
      *place = cursor_place(m);
      return arena_printf("has a virtual function '%s', so it holds a hidden pointer to a table of functions",
                          take(clang_getCursorSpelling(m)));
    }
    if (k == CXCursor_CXXBaseSpecifier) {
      const char *why = virtual_problem(base_decl(m), place);
      if (why)
        return arena_printf("%s (in its base '%s')", why, take(clang_getTypeSpelling(base_type(m))));
    }
  }
  return NULL;
}

/* A C++ class gpugen cannot move as bytes is refused with the reason. */
static bool check_cxx_class(const Type *t, const Found *f) {
  const char *place = NULL;
  const char *why = virtual_problem(f->decl, &place);
  long long polymorphic;
  if (!why && probe_value(t, "polymorphic", &polymorphic) && polymorphic) { /* in a template's instance */
    why = "has virtual functions, so it holds a hidden pointer to a table of functions";
    place = cursor_place(f->decl);
  }
  if (why) {
    diag_error(place, "'%s' (%s in %s) %s; that pointer means nothing on the other side (host or GPU) and cannot "
               "be copied as bytes: gpugen supports classes without virtual functions or virtual bases", t->name,
               t->path, cur->path, why);
    return false;
  }
  long long copyable;
  if (probe_value(t, "copyable", &copyable) && !copyable) {
    diag_error(cursor_place(f->decl), "'%s' (%s in %s) is not trivially copyable: it, a base or a member declares "
               "its own copy or move constructor, assignment or destructor; gpugen copies values as bytes (shuffles, "
               "ldg, memcpy), so leave those to the compiler (or = default)", t->name, t->path, cur->path);
    return false;
  }
  long long trivial_default;
  if (probe_value(t, "trivial_default", &trivial_default) && !trivial_default) {
    diag_error(cursor_place(f->decl), "'%s' (%s in %s) has no trivial default constructor: it, a base or a member "
               "declares or deletes one, or gives a field a default value; gpugen's code declares values without "
               "initializers and in __shared__ arrays, which need one, so leave it to the compiler (or = default)",
               t->name, t->path, cur->path);
    return false;
  }
  return true;
}

/* What makes a field impossible for gpugen, or NULL. */
static const char *unsupported_field(CXCursor field, CXType *elem, long long *count) {
  if (clang_Cursor_isBitField(field))
    return "a bitfield; gpugen moves whole bytes, so use a plain integer field";
  if (!*take(clang_getCursorSpelling(field)))
    return "an anonymous struct or union member; give it a name and a spec type";
  CXType t = clang_getCanonicalType(clang_getCursorType(field));
  *count = 1;
  *elem = t;
  if (t.kind == CXType_IncompleteArray)
    return "a flexible array member; give the array a fixed size and a \"count\"";
  if (t.kind == CXType_ConstantArray) {
    *count = clang_getArraySize(t);
    *elem = clang_getCanonicalType(clang_getArrayElementType(t));
    if (elem->kind == CXType_ConstantArray || elem->kind == CXType_IncompleteArray)
      return "a multi-dimensional array; flatten it into one \"count\"";
  }
  if (clang_isConstQualifiedType(*elem))
    return "const; gpugen's code declares values of the type without initializers and sets them field by field "
           "(identities, shuffles, loads), so drop the const";
  switch (elem->kind) {
  case CXType_Pointer: return "a pointer; gpugen types hold values only";
  case CXType_Enum: return "an enum; use the integer type it stands for";
  case CXType_LValueReference: case CXType_RValueReference:
    return "a reference; gpugen types hold values only, so store the value (or an index)";
  case CXType_Record:
    if (clang_getCursorKind(clang_getTypeDeclaration(*elem)) == CXCursor_UnionDecl)
      return "a union; gpugen supports structs only";
    break;
  default: break;
  }
  return NULL;
}

/* Field by field: names, order, types, counts; then offsets, size, alignment. */
static void check_struct(const Catalog *cat, Type *t, const Found *f) {
  if (!check_cxx_class(t, f))
    return;
  long long standard;
  t->not_standard_layout = probe_value(t, "standard", &standard) && !standard;
  FieldList *fields = ARENA_NEW(FieldList);
  int inherited; /* fields[0, inherited) come from base classes */
  collect_layout_fields(f->decl, f->type, fields, &inherited);
  bool shape_ok = true;
  for (int i = 0; i < fields->n; i++) {
    CXCursor fc = fields->cursors[i];
    const char *name = take(clang_getCursorSpelling(fc));
    CXType elem;
    long long count;
    const char *why = unsupported_field(fc, &elem, &count);
    if (why) {
      diag_error(cursor_place(fc), "field '%s' of '%s' is %s (%s in %s)", name, t->name, why, t->path, cur->path);
      shape_ok = false;
      continue;
    }
    enum CX_CXXAccessSpecifier access = clang_getCXXAccessSpecifier(fc);
    if (access == CX_CXXPrivate || access == CX_CXXProtected) {
      diag_error(cursor_place(fc), "field '%s' of '%s' is %s (%s in %s); gpugen's code reads and writes fields by "
                 "name (identities, builtin operators, layout checks), so make it public", name, t->name,
                 access == CX_CXXPrivate ? "private" : "protected", t->path, cur->path);
      shape_ok = false;
      continue;
    }
    int match = -1;
    for (int j = 0; j < t->nfields; j++)
      if (strcmp(t->fields[j].name, name) == 0)
        match = j;
    if (match < 0) {
      diag_error(cursor_place(fc), "field '%s' of '%s' is not in %s (%s)", name, t->name, cur->path, t->path);
      shape_ok = false;
      continue;
    }
    const Field *sf = &t->fields[match];
    if (match != i) {
      const char *from = i < inherited ? arena_printf(" (from its base '%s'; a spec lists base fields first)",
                                                      take(clang_getCursorSpelling(clang_getCursorSemanticParent(fc))))
                                       : "";
      diag_error(cursor_place(fc), "field '%s' of '%s'%s is field %d here but field %d in %s (%s)", name, t->name, from,
                 i + 1, match + 1, cur->path, sf->path);
      shape_ok = false;
    }
    bool is_array = clang_getCanonicalType(clang_getCursorType(fc)).kind == CXType_ConstantArray;
    if (!same_type(cat, elem, &sf->ref) || count != sf->count || is_array != sf->is_array) {
      diag_error(cursor_place(fc), "field '%s' of '%s' is '%s' here but '%s' in %s (%s)", name, t->name,
                 take(clang_getTypeSpelling(clang_getCursorType(fc))), spec_spelling(sf), cur->path, sf->path);
      shape_ok = false;
    }
  }
  for (int j = 0; j < t->nfields; j++) {
    bool present = false;
    for (int i = 0; i < fields->n; i++)
      present |= strcmp(take(clang_getCursorSpelling(fields->cursors[i])), t->fields[j].name) == 0;
    if (!present) {
      diag_error(cursor_place(f->decl), "'%s' has no field '%s' here, but %s declares it in %s", t->name,
                 t->fields[j].name, t->fields[j].path, cur->path);
      shape_ok = false;
    }
  }
  if (!shape_ok)
    return;
  /* Same fields: any layout difference comes from packing or alignment. */
  for (int i = 0; i < fields->n; i++) {
    long long bits = clang_Cursor_getOffsetOfField(fields->cursors[i]), bytes;
    if (i < inherited) /* the offset in its base is not the one in t */
      bits = probe_value(t, arena_printf("offset_%s", t->fields[i].name), &bytes) ? 8 * bytes : -1;
    if (bits >= 0 && bits / 8 != t->fields[i].offset && inherited > 0 && i >= inherited)
      diag_error(cursor_place(fields->cursors[i]), "field '%s' of '%s' is at offset %lld here but at offset %d per %s "
                 "(%s): C++ places a class's own fields after the whole base class (with its tail padding, or into "
                 "it), where a C struct of the same fields would not; make the base's size a multiple of its "
                 "alignment without padding, or move the fields into one class", t->fields[i].name, t->name, bits / 8,
                 t->fields[i].offset, cur->path, t->fields[i].path);
    else if (bits >= 0 && bits / 8 != t->fields[i].offset)
      diag_error(cursor_place(fields->cursors[i]), "field '%s' of '%s' is at offset %lld here but at offset %d per %s "
                 "(%s); is the header packed (#pragma pack, __attribute__((packed))) or over-aligned (alignas)?",
                 t->fields[i].name, t->name, bits / 8, t->fields[i].offset, cur->path, t->fields[i].path);
  }
  long long size = clang_Type_getSizeOf(f->type), align = clang_Type_getAlignOf(f->type);
  if (size != t->size || align != t->align) {
    const char *hint = align > t->align ? arena_printf("; add \"align\": %lld to %s", align, t->path)
                       : inherited > 0  ? "; C++ lays its base class out whole (see the offsets above)"
                                        : "; is the header packed (#pragma pack)?";
    diag_error(cursor_place(f->decl), "'%s' is %lld bytes with alignment %lld here but %d bytes with alignment %d per "
               "%s (%s)%s", t->name, size, align, t->size, t->align, cur->path, t->path, hint);
  }
}

/* The GPU parse must lay every type out as the host parse does. */
static void compare_sides(const Type *t, const Found *host, const Found *gpu) {
  long long hs = clang_Type_getSizeOf(host->type), gs = clang_Type_getSizeOf(gpu->type);
  long long ha = clang_Type_getAlignOf(host->type), ga = clang_Type_getAlignOf(gpu->type);
  bool same = hs == gs && ha == ga;
  FieldList *hf = ARENA_NEW(FieldList), *gf = ARENA_NEW(FieldList);
  clang_Type_visitFields(host->type, collect_field, hf);
  clang_Type_visitFields(gpu->type, collect_field, gf);
  same = same && hf->n == gf->n;
  for (int i = 0; same && i < hf->n; i++)
    same = clang_Cursor_getOffsetOfField(hf->cursors[i]) == clang_Cursor_getOffsetOfField(gf->cursors[i]);
  if (!same)
    diag_error(cursor_place(host->decl), "'%s' (%s) is laid out differently for the host (%lld bytes, align %lld) "
               "and for the GPU (%lld bytes, align %lld); check #ifdefs on __CUDA_ARCH__ or __CUDACC__ in the header",
               t->name, t->path, hs, ha, gs, ga);
}

/* ---- reduction functions -------------------------------------------------- */

typedef enum { BY_VALUE, BY_CONST_REF, MISMATCH } Passing;

static Passing passing_of(const Catalog *cat, CXType param, const TypeRef *want) {
  CXType t = clang_getCanonicalType(param);
  if (t.kind == CXType_LValueReference) {
    CXType pointee = clang_getPointeeType(t);
    return clang_isConstQualifiedType(pointee) && same_type(cat, pointee, want) ? BY_CONST_REF : MISMATCH;
  }
  return same_type(cat, t, want) ? BY_VALUE : MISMATCH;
}

/* ret fn(ACC, rest[0], ..., rest[nrest - 1]) */
static bool signature_matches(const Catalog *cat, CXCursor fn, const TypeRef *ret, const TypeRef *a,
                              const TypeRef *rest, int nrest) {
  if (clang_Cursor_getNumArguments(fn) != 1 + nrest || clang_isFunctionTypeVariadic(clang_getCursorType(fn)))
    return false;
  bool ok = same_type(cat, clang_getCursorResultType(fn), ret) &&
            passing_of(cat, clang_getCursorType(clang_Cursor_getArgument(fn, 0)), a) != MISMATCH;
  for (int i = 0; ok && i < nrest; i++)
    ok = passing_of(cat, clang_getCursorType(clang_Cursor_getArgument(fn, (unsigned)(1 + i))), &rest[i]) != MISMATCH;
  return ok;
}

typedef struct {
  bool host, device;
} Spaces;

static enum CXChildVisitResult visit_attrs(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  Spaces *s = data;
  switch (clang_getCursorKind(c)) {
  case CXCursor_CUDAHostAttr: s->host = true; break;
  case CXCursor_CUDADeviceAttr: s->device = true; break;
  default: break;
  }
  return CXChildVisit_Continue;
}

/* Finds `role` function `name` (fold or combine) and checks its signature
 * and where it may run; returns whether it can also run on the host. */
/* Whether some declaration of function `name` has a body. The parse skips
 * bodies, so a definition is a declaration whose text goes on with a '{'. */
static bool has_body(const Decls *d, const char *name) {
  const Decl *head = map_get(d->by_name, name);
  for (int i = head ? (int)(head - d->items) : -1; i >= 0; i = d->items[i].next_same_name) {
    if (d->items[i].kind != CXCursor_FunctionDecl)
      continue;
    CXCursor c = d->items[i].cursor;
    CXFile file;
    unsigned offset;
    clang_getSpellingLocation(clang_getRangeEnd(clang_getCursorExtent(c)), &file, NULL, NULL, &offset);
    size_t size = 0;
    const char *text = file ? clang_getFileContents(clang_Cursor_getTranslationUnit(c), file, &size) : NULL;
    for (size_t at = offset; text && at < size; at++)
      if (text[at] == '{' || text[at] == '}')
        return true; /* the body, or its end where the extent stops before it */
      else if (text[at] == ';')
        break;
  }
  return false;
}

static bool check_function(const Catalog *cat, const Decls *d, const Reduction *r, int index, const char *role,
                           const char *name, const TypeRef *rest, int nrest) {
  const char *jpath = arena_printf("%s.%s", r->path, role);
  const char *args = type_cuda_spelling(&r->accumulator);
  for (int i = 0; i < nrest; i++)
    args = arena_printf("%s, %s", args, type_cuda_spelling(&rest[i]));
  const char *want = arena_printf("%s %s(%s)", type_cuda_spelling(&r->accumulator), name, args);
  const Decl *match = NULL, *first = NULL;
  bool is_template = false;
  const Decl *head = map_get(d->by_name, name);
  for (int i = head ? (int)(head - d->items) : -1; i >= 0; i = d->items[i].next_same_name) {
    if (d->items[i].kind == CXCursor_FunctionTemplate)
      is_template = true;
    if (d->items[i].kind != CXCursor_FunctionDecl)
      continue;
    if (!first)
      first = &d->items[i];
    if (!match && signature_matches(cat, d->items[i].cursor, &r->accumulator, &r->accumulator, rest, nrest))
      match = &d->items[i];
  }
  if (!first) {
    if (is_template)
      diag_error(cur->path, "%s: '%s' is a function template in the headers; gpugen calls plain functions (%s)", jpath,
                 name, want);
    else
      diag_error(cur->path, "%s: function '%s' is not declared in the headers%s", jpath, name,
                 suggest_decl(d, name, CXCursor_FunctionDecl));
    return false;
  }
  if (!match) {
    diag_error(cursor_place(first->cursor), "%s '%s' is '%s' here, but %s (%s in %s) needs %s, with each argument by "
               "value or by const reference", role, name, take(clang_getTypeSpelling(clang_getCursorType(first->cursor))),
               r->name, jpath, cur->path, want);
    return false;
  }
  Spaces s = {0};
  clang_visitChildren(match->cursor, visit_attrs, &s);
  if (!s.device) {
    diag_error(cursor_place(match->cursor), "%s '%s' is a host function, which GPU code cannot call (%s in %s); declare "
               "it __host__ __device__, e.g. through a macro that is empty for plain C compilers: "
               "#ifdef __CUDACC__ / #define HD __host__ __device__ / #else / #define HD / #endif", role, name, jpath,
               cur->path);
    return false;
  }
  /* the kernels are compiled without relocatable device code: the body must be in the headers */
  if (!has_body(d, name)) {
    diag_error(cursor_place(match->cursor), "%s '%s' is declared but not defined in the headers (%s in %s); the "
               "generated kernels call it from their own file, compiled without relocatable device code, so define it "
               "in the header (static inline, or inline in C++)", role, name, jpath, cur->path);
    return false;
  }
  for (int k = 0; k < ncall_failures; k++)
    if (call_failures[k].reduction == index && strcmp(call_failures[k].role, role) == 0) {
      diag_error(cursor_place(match->cursor), "%s '%s' matches %s, but the call the generated code makes, ::%s with "
                 "those arguments, does not compile (%s in %s): %s", role, name, want, name, jpath, cur->path,
                 call_failures[k].message);
      return false;
    }
  return s.host;
}

/* Appends "#undef X" for every identifier of `text` that is not a keyword
 * the probe uses or gpugen's own, once each (`seen` holds those done). */
static void undef_identifiers(Buf *out, const char *text, Map *seen) {
  static const char *const keywords[] = {"template", "class", "using", "decltype", "const", "unsigned", "signed",
                                         "long", "short", "int", "char", "float", "double", "bool", "void",
                                         "struct"};
  for (const char *p = text; *p;) {
    if (!(isalpha((unsigned char)*p) || *p == '_') || (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))) {
      p++;
      continue;
    }
    const char *q = p;
    while (isalnum((unsigned char)*q) || *q == '_')
      q++;
    const char *word = arena_strndup(p, (size_t)(q - p));
    p = q;
    bool keyword = strncmp(word, "gpugen_", 7) == 0;
    for (size_t k = 0; k < sizeof keywords / sizeof keywords[0] && !keyword; k++)
      keyword = strcmp(word, keywords[k]) == 0;
    if (keyword || map_put(seen, word, word))
      continue;
    buf_printf(out, "#undef %s\n", word);
  }
}

/* One line per reduction operator: the call the generated code makes, as
 * a type alias that clang must resolve (overloads, default arguments,
 * deleted functions), with every argument of the type and value category
 * the generated code passes. The user's macros named like a name the
 * probe spells are suspended first, as the generated code suspends them.
 * NULL when no reduction has functions. */
static const char *call_probe_text(const Spec *spec) {
  Buf calls = {0};
  for (int i = 0; i < spec->nreductions; i++) {
    const Reduction *r = &spec->reductions[i];
    if (r->op != OP_NONE)
      continue;
    const char *acc = arena_printf("gpugen_probe_value<const %s &>()", type_cuda_spelling(&r->accumulator));
    buf_printf(&calls, "using gpugen_call_%d_combine = decltype(::%s(%s, %s));\n", i, r->combine, acc, acc);
    if (!r->fold)
      continue;
    buf_printf(&calls, "using gpugen_call_%d_fold = decltype(::%s(%s", i, r->fold, acc);
    for (int k = 0; k < r->ninputs; k++)
      buf_printf(&calls, ", gpugen_probe_value<const %s &>()", type_cuda_spelling(&r->inputs[k]));
    if (r->indexed)
      buf_put(&calls, ", gpugen_probe_value<long long>()");
    if (r->has_params)
      buf_printf(&calls, ", gpugen_probe_value<const %s &>()", type_cuda_spelling(&r->params));
    buf_put(&calls, "));\n");
  }
  if (!calls.data)
    return NULL;
  Buf b = {0};
  Map *seen = map_new();
  buf_put(&b, "\n");
  undef_identifiers(&b, calls.data, seen);
  buf_put(&b, "template <class gpugen_probe_type> gpugen_probe_type &&gpugen_probe_value();\n");
  buf_put(&b, calls.data);
  const char *text = arena_strdup(b.data);
  buf_free(&b);
  buf_free(&calls);
  return text;
}

static void check_reductions(const Catalog *cat, const Decls *d, Spec *spec) {
  for (int i = 0; i < spec->nreductions; i++) {
    Reduction *r = &spec->reductions[i];
    if (r->op != OP_NONE) {
      r->host_reference = true;
      continue;
    }
    bool host = check_function(cat, d, r, i, "combine", r->combine, &r->accumulator, 1);
    if (r->fold) {
      /* fold(acc, inputs..., [long long index], [params]) */
      TypeRef *args = ARENA_ARRAY(TypeRef, r->ninputs + 2);
      int nargs = 0;
      for (int k = 0; k < r->ninputs; k++)
        args[nargs++] = r->inputs[k];
      if (r->indexed)
        args[nargs++] = (TypeRef){.spelling = "long long", .is_scalar = true, .scalar = SC_LLONG};
      if (r->has_params)
        args[nargs++] = r->params;
      host = check_function(cat, d, r, i, "fold", r->fold, args, nargs) && host;
    }
    r->host_reference = host;
    if (!host && diag_count() == 0)
      diag_note(spec->path, "%s: '%s' runs on the GPU only, so no CPU reference %s_%s_host is emitted", r->path,
                r->name, spec->module, r->name);
  }
}

/* ---- the files read ---------------------------------------------------------- */

/* Every file a parse read, for depfiles and name clashes: collected from
 * both sides, then sorted and made unique (n log n, however many). */
typedef struct {
  const char **paths;
  int n, cap;
} FileList;

static void visit_inclusion(CXFile file, CXSourceLocation *stack, unsigned depth, CXClientData data) {
  (void)stack;
  if (depth == 0) /* the in-memory main file that includes the spec's headers */
    return;
  FileList *list = data;
  if (list->n == list->cap) {
    list->cap = list->cap ? 2 * list->cap : 64;
    const char **grown = ARENA_ARRAY(const char *, list->cap);
    if (list->n)
      memcpy(grown, list->paths, sizeof *grown * (size_t)list->n);
    list->paths = grown;
  }
  /* the real path: the spelling clang used may climb through symlinks
   * ("gcc/x86_64-linux-gnu/12/../../../../include"), and lexically that
   * lands elsewhere */
  const char *name = take(clang_getFileName(file));
  char *real = realpath(name, NULL);
  list->paths[list->n++] = real ? arena_strdup(real) : absolute_path(name);
  free(real);
}

static int compare_paths(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void record_header_files(Spec *spec, FileList *list) {
  if (list->n)
    qsort(list->paths, (size_t)list->n, sizeof *list->paths, compare_paths);
  int unique = 0;
  for (int i = 0; i < list->n; i++)
    if (unique == 0 || strcmp(list->paths[unique - 1], list->paths[i]) != 0)
      list->paths[unique++] = list->paths[i];
  spec->header_files = list->paths;
  spec->nheader_files = unique;
}

/* ---- the headers' macros ----------------------------------------------------- */

typedef struct {
  Map *seen;  /* name -> its slot in names */
  const char **names, **places;
  int n, cap;
} MacroList;

/* Every macro the user's headers define (not CUDA's or the C library's),
 * for the emitters to suspend where the generated code uses its name: a
 * macro `min` or `value` must not rewrite the kernels, and a function-like
 * macro named like a checked operator must not replace the call. */
static enum CXChildVisitResult collect_macro(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  if (clang_getCursorKind(c) != CXCursor_MacroDefinition)
    return CXChildVisit_Continue;
  CXSourceLocation loc = clang_getCursorLocation(c);
  CXFile file;
  clang_getSpellingLocation(loc, &file, NULL, NULL, NULL);
  if (!file || clang_Location_isInSystemHeader(loc) || clang_Location_isFromMainFile(loc))
    return CXChildVisit_Continue; /* built in, on the command line, or gpugen's own probe text */
  MacroList *l = data;
  const char *name = take(clang_getCursorSpelling(c));
  if (map_get(l->seen, name))
    return CXChildVisit_Continue; /* a message names the first definition */
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 64;
    const char **names = ARENA_ARRAY(const char *, l->cap), **places = ARENA_ARRAY(const char *, l->cap);
    if (l->n) {
      memcpy(names, l->names, sizeof *names * (size_t)l->n);
      memcpy(places, l->places, sizeof *places * (size_t)l->n);
    }
    l->names = names;
    l->places = places;
  }
  l->names[l->n] = name;
  l->places[l->n] = cursor_place(c);
  map_put(l->seen, name, &l->names[l->n]);
  l->n++;
  return CXChildVisit_Continue;
}

/* ---- entry points ---------------------------------------------------------- */


/* <module>.h includes the headers: when they are not C, neither is it. */
static void note_cxx_only(Spec *spec, const char *const *headers, const ClangOptions *opts) {
  Parsed c = {0};
  const char *why = NULL;
  spec->cxx_only_headers = !parse_side(headers, spec->nheaders, opts, SIDE_PLAIN_C, NULL, &c, &why);
  dispose(&c);
  if (spec->cxx_only_headers && diag_count() == 0)
    diag_note(spec->path, "the headers are C++ only (as C: %s), so %s.h compiles as C++ and CUDA but not as C; "
              "its API stays extern \"C\", callable from C++", why ? why : "they do not parse", spec->module);
}

static Catalog find_all(const Decls *d, Spec *spec, bool report) {
  Catalog cat = {ARENA_ARRAY(Found, spec->ntypes)};
  for (int i = 0; i < spec->ntypes; i++) {
    if (spec->types[i]->synthetic || spec->types[i]->vector)
      continue;
    const char *spelling = spec->types[i]->name;
    cat.found[i] = find_struct(d, spec->types[i], &spelling, report);
    if (report)
      spec->types[i]->c_spelling = spelling;
  }
  return cat;
}

void clang_check_spec(Spec *spec, const ClangOptions *opts) {
  cur = spec;
  probe_values = NULL; /* none from an earlier spec (the arena that held them is gone) */
  for (int i = 0; i < spec->ntypes; i++)
    if (!spec->types[i]->synthetic && !spec->types[i]->vector)
      spec->types[i]->c_spelling = spec->types[i]->name;
  for (int i = 0; i < spec->nreductions; i++)
    spec->reductions[i].host_reference = spec->reductions[i].op != OP_NONE;
  if (spec->nheaders == 0)
    return;
  const char *const *headers = spec->headers; /* by their spelling, found through opts' -I flags */
  Parsed host = {0}, gpu = {0};
  FileList files = {0};
  probe_values = map_new();
  call_failures = NULL;
  ncall_failures = call_failures_cap = 0;
  const char *calls = call_probe_text(spec);
  if (!parse_side(headers, spec->nheaders, opts, SIDE_HOST, calls, &host, NULL)) {
    dispose(&host);
    return;
  }
  Decls decls = collect_decls(host.tu);
  const char *probes = probe_text(&decls, spec);
  if (probes && calls)
    probes = arena_printf("%s%s", probes, calls);
  if (probes) { /* C++ classes: parse again with the probes */
    dispose(&host);
    if (!parse_side(headers, spec->nheaders, opts, SIDE_HOST, probes, &host, NULL)) {
      dispose(&host);
      return;
    }
    clang_visitChildren(clang_getTranslationUnitCursor(host.tu), read_probe, probe_values);
    decls = collect_decls(host.tu);
  }
  clang_getInclusions(host.tu, visit_inclusion, &files);
  MacroList macros = {map_new()};
  clang_visitChildren(clang_getTranslationUnitCursor(host.tu), collect_macro, &macros);
  Catalog cat = find_all(&decls, spec, true);
  for (int i = 0; i < spec->ntypes; i++)
    if (cat.found[i].found && !spec->types[i]->synthetic)
      check_struct(&cat, spec->types[i], &cat.found[i]);
  check_reductions(&cat, &decls, spec);

  if (parse_side(headers, spec->nheaders, opts, SIDE_GPU, probes ? probes : calls, &gpu, NULL)) {
    clang_getInclusions(gpu.tu, visit_inclusion, &files);
    clang_visitChildren(clang_getTranslationUnitCursor(gpu.tu), collect_macro, &macros);
    Decls gdecls = collect_decls(gpu.tu);
    Catalog gcat = find_all(&gdecls, spec, false);
    for (int i = 0; i < spec->ntypes; i++)
      if (spec->types[i]->synthetic || spec->types[i]->vector)
        continue;
      else if (cat.found[i].found && gcat.found[i].found)
        compare_sides(spec->types[i], &cat.found[i], &gcat.found[i]);
      else if (cat.found[i].found)
        diag_error(cursor_place(cat.found[i].decl), "'%s' (%s) is not defined when the header is compiled for the GPU",
                   spec->types[i]->name, spec->types[i]->path);
  }
  record_header_files(spec, &files);
  spec->user_macros = macros.names;
  spec->user_macro_places = macros.places;
  spec->nuser_macros = macros.n;
  dispose(&gpu);
  dispose(&host);
  note_cxx_only(spec, headers, opts);
}

/* ---- gpugen init ------------------------------------------------------------ */

typedef struct {
  const char *name;
  CXType type;
  CXCursor decl;
} InitType;

static int init_find(const InitType *list, int n, CXCursor decl) {
  for (int i = 0; i < n; i++)
    if (clang_equalCursors(clang_getCanonicalCursor(list[i].decl), clang_getCanonicalCursor(decl)))
      return i;
  return -1;
}

/* CUDA's vector type that the record type t is, or NULL. */
static const VectorInfo *vector_of(CXType t) {
  CXCursor decl = clang_getTypeDeclaration(clang_getCanonicalType(t));
  if (clang_getCursorKind(clang_getCursorSemanticParent(decl)) != CXCursor_TranslationUnit)
    return NULL;
  return vector_lookup(take(clang_getCursorSpelling(decl)));
}

/* Adds the struct and, first, the structs its fields use. */
static bool init_add(const Decls *d, InitType *list, int *n, int max, const char *name, CXType type, CXCursor decl) {
  if (init_find(list, *n, decl) >= 0)
    return true;
  FieldList *fields = ARENA_NEW(FieldList);
  int inherited;
  collect_layout_fields(decl, type, fields, &inherited);
  bool ok = fields->n > 0;
  if (!ok)
    diag_error(cursor_place(decl), "'%s' has no fields", name);
  for (int i = 0; i < fields->n; i++) {
    CXType elem;
    long long count;
    const char *why = unsupported_field(fields->cursors[i], &elem, &count);
    ScalarKind k;
    if (why) {
      diag_error(cursor_place(fields->cursors[i]), "field '%s' of '%s' is %s", take(clang_getCursorSpelling(fields->cursors[i])), name, why);
      ok = false;
    } else if (!scalar_of(elem, &k) && elem.kind == CXType_Record && vector_of(elem)) {
      continue; /* CUDA's: a builtin type of the spec */
    } else if (!scalar_of(elem, &k) && elem.kind == CXType_Record) {
      CXCursor nested = clang_getTypeDeclaration(elem);
      const char *nested_name = take(clang_getCursorSpelling(nested));
      /* prefer a typedef name that refers to this struct */
      for (int j = 0; j < d->n; j++)
        if (d->items[j].kind == CXCursor_TypedefDecl &&
            clang_equalCursors(clang_getCanonicalCursor(clang_getTypeDeclaration(clang_getCanonicalType(
                                   clang_getTypedefDeclUnderlyingType(d->items[j].cursor)))),
                               clang_getCanonicalCursor(nested)))
          nested_name = d->items[j].name;
      ok = init_add(d, list, n, max, nested_name, elem, nested) && ok;
    } else if (!scalar_of(elem, &k)) {
      diag_error(cursor_place(fields->cursors[i]), "field '%s' of '%s' has type '%s', which gpugen does not support",
                 take(clang_getCursorSpelling(fields->cursors[i])), name, take(clang_getTypeSpelling(elem)));
      ok = false;
    }
  }
  if (*n == max) {
    diag_error(NULL, "gpugen init describes at most %d structs at once (with the ones they nest)", max);
    return false;
  }
  list[(*n)++] = (InitType){name, type, decl};
  return ok;
}

static const char *field_type_name(const InitType *list, int n, CXType elem) {
  ScalarKind k;
  if (scalar_of(elem, &k))
    return scalar_info[k].spelling;
  if (vector_of(elem))
    return vector_of(elem)->spelling;
  int i = init_find(list, n, clang_getTypeDeclaration(elem));
  return i >= 0 ? list[i].name : "?";
}

bool clang_spec_skeleton(const char *header, const char *header_in_spec, const char *const *dirs_in_spec,
                         const char *const *types, int ntypes, const ClangOptions *opts, Buf *out) {
  static Spec none = {.path = "gpugen init"};
  cur = &none;
  Parsed p = {0};
  const char *abs = absolute_path(header), *name = strrchr(abs, '/') + 1;
  if (strpbrk(name, "\"\\\n\r")) {
    diag_error("gpugen init", "the header's file name '%s' has a character that an #include cannot name", name);
    return false;
  }
  ClangOptions with_dir = *opts;
  with_dir.first_dir = dir_name(abs);
  if (!parse_headers(&name, 1, &with_dir, false, &p)) {
    dispose(&p);
    return false;
  }
  Decls d = collect_decls(p.tu);
  /* A typedef of a class template's specialization (typedef Pair<float>
   * PF;) leaves the class uninstantiated until something needs its size,
   * as the spec check's own probes do: parse again with a sizeof of each
   * type the headers declare. */
  Buf sizes = {0};
  for (int i = 0; i < ntypes; i++) {
    const Decl *head = map_get(d.by_name, types[i]);
    bool a_type = false;
    for (int k = head ? (int)(head - d.items) : -1; k >= 0; k = d.items[k].next_same_name)
      a_type |= d.items[k].kind == CXCursor_StructDecl || d.items[k].kind == CXCursor_TypedefDecl;
    if (a_type) {
      /* sizeof where it can be taken, 0 for an incomplete type (whose error the checks below report) */
      if (!sizes.data)
        buf_put(&sizes, "template <class gpugen_type> constexpr auto gpugen_init_size(int) -> "
                        "decltype(sizeof(gpugen_type)) { return sizeof(gpugen_type); }\n"
                        "template <class gpugen_type> constexpr unsigned long long gpugen_init_size(...) { return 0; }\n");
      buf_printf(&sizes, "constexpr unsigned long long gpugen_init_size_%d = gpugen_init_size<%s>(0);\n", i,
                 types[i]);
    }
  }
  if (sizes.data) {
    dispose(&p);
    bool parsed = parse_side(&name, 1, &with_dir, SIDE_HOST, arena_strdup(sizes.data), &p, NULL);
    buf_free(&sizes);
    if (!parsed) {
      dispose(&p);
      return false;
    }
    d = collect_decls(p.tu);
  }
  InitType list[256];
  int n = 0;
  bool ok = true;
  for (int i = 0; i < ntypes; i++) {
    Type probe = {.name = types[i], .path = arena_printf("argument '%s'", types[i])};
    const char *spelling;
    Found f = find_struct(&d, &probe, &spelling, true);
    if (f.found)
      ok = init_add(&d, list, &n, 256, types[i], f.type, f.decl) && ok;
    else
      ok = false;
  }
  if (ok) {
    const char *base = strrchr(header, '/');
    char *module = arena_strdup(base ? base + 1 : header);
    for (char *c = module; *c; c++)
      if (*c == '.')
        *c = 0;
      else if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')))
        *c = '_';
    /* "_gpu": the module's <module>.h must not have the header's file name;
     * and the module's namespace must not have a struct's name */
    const char *module_name = arena_printf("%s_gpu", module);
    for (bool clash = true; clash;) {
      clash = false;
      for (int i = 0; i < n; i++)
        clash |= strcmp(list[i].name, module_name) == 0;
      if (clash)
        module_name = arena_printf("%s_module", module_name);
    }
    buf_printf(out, "{\n  \"gpugen\": 1,\n  \"module\": \"%s\",\n  \"headers\": [\"%s\"],\n", module_name,
               header_in_spec);
    if (opts->ninclude_dirs) {
      buf_put(out, "  \"include_dirs\": [");
      for (int i = 0; i < opts->ninclude_dirs; i++)
        buf_printf(out, "%s\"%s\"", i ? ", " : "", dirs_in_spec[i]);
      buf_put(out, "],\n");
    }
    buf_put(out, "  \"targets\": [\"sm_75\", \"sm_80\", \"sm_90\"],\n  \"types\": [\n");
    for (int i = 0; i < n; i++) {
      FieldList *fields = ARENA_NEW(FieldList);
      int inherited;
      collect_layout_fields(list[i].decl, list[i].type, fields, &inherited);
      buf_printf(out, "    {\"name\": \"%s\", \"fields\": [", list[i].name);
      for (int j = 0; j < fields->n; j++) {
        CXType elem;
        long long count;
        unsupported_field(fields->cursors[j], &elem, &count);
        bool array = clang_getCanonicalType(clang_getCursorType(fields->cursors[j])).kind == CXType_ConstantArray;
        buf_printf(out, "%s\n      {\"name\": \"%s\", \"type\": \"%s\"", j ? "," : "",
                   take(clang_getCursorSpelling(fields->cursors[j])), field_type_name(list, n, elem));
        if (array)
          buf_printf(out, ", \"count\": %lld", count);
        buf_put(out, "}");
      }
      long long align = clang_Type_getAlignOf(list[i].type);
      long long natural = 1;
      for (int j = 0; j < fields->n; j++) {
        CXType elem;
        long long count;
        unsupported_field(fields->cursors[j], &elem, &count);
        long long a = clang_Type_getAlignOf(elem);
        if (a > natural)
          natural = a;
      }
      buf_put(out, "\n    ]");
      if (align > natural)
        buf_printf(out, ", \"align\": %lld", align);
      buf_printf(out, "}%s\n", i + 1 < n ? "," : "");
    }
    buf_put(out, "  ]\n}\n");
  }
  dispose(&p);
  return ok;
}
