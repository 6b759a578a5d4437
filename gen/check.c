/* Raw Spec -> checked Spec: every name, type reference, path, target,
 * tuning entry and identity is validated here, and all problems are
 * reported in one run. Nothing after this stage sees an unchecked value. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "gpugen.h"

static const Spec *cur;

#define ERR(jpath, ...) diag_error(cur->path, "%s: %s", (jpath), arena_printf(__VA_ARGS__))

static void check_name(const char *name, const char *jpath, const char *what) {
  const char *why = ident_problem(name);
  if (!why)
    return;
  if (strlen(name) > 64) /* a long name is shown by its start */
    ERR(jpath, "%s '%.40s...' cannot be used: %s", what, name, why);
  else
    ERR(jpath, "%s '%s' cannot be used: %s", what, name, why);
}

/* Paths are written into #include lines and makefiles: allow only
 * characters that need no quoting anywhere. */
static bool path_chars_safe(const char *p) {
  if (!*p)
    return false;
  for (; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
          strchr("_-./+", *p)))
      return false;
  return true;
}

static const char *in_dir(const char *dir, const char *path) {
  return path[0] == '/' ? path : arena_printf("%s/%s", dir, path);
}

static bool climbs(const char *path) {
  for (const char *p = path; (p = strstr(p, "..")); p += 2)
    if ((p == path || p[-1] == '/') && (p[2] == '/' || p[2] == 0))
      return true;
  return false;
}

/* include_dirs: existing directories, relative to the spec's directory. */
static void check_include_dirs(Spec *s) {
  for (int i = 0; i < s->ninclude_dirs; i++) {
    const char *d = s->include_dirs[i], *jpath = arena_printf("include_dirs[%d]", i);
    if (!path_chars_safe(d)) {
      ERR(jpath, "path '%s' may only contain letters, digits and '_-./+'", d);
      continue;
    }
    /* name the path as the user wrote it; the directory as given on the command line */
    const char *where = d[0] == '/' ? "" : arena_printf(" (in '%s', the spec's directory)", dir_name(cur->path));
    struct stat st;
    if (stat(in_dir(cur->dir, d), &st) != 0)
      ERR(jpath, "'%s' does not exist%s", d, where);
    else if (!S_ISDIR(st.st_mode))
      ERR(jpath, "'%s' is not a directory%s", d, where);
    for (int j = 0; j < i; j++)
      if (strcmp(d, s->include_dirs[j]) == 0)
        ERR(jpath, "'%s' is listed twice", d);
  }
}

/* headers: regular files, found as a C compiler finds #include "NAME" with
 * -I for the spec's directory and then each of include_dirs; the generated
 * code includes them by that spelling, so it may not climb with "..". */
static void check_headers(Spec *s) {
  s->header_paths = ARENA_ARRAY(const char *, s->nheaders);
  for (int i = 0; i < s->nheaders; i++) {
    const char *h = s->headers[i], *jpath = arena_printf("headers[%d]", i);
    if (!path_chars_safe(h)) {
      ERR(jpath, "path '%s' may only contain letters, digits and '_-./+'", h);
      continue;
    }
    if (climbs(h)) {
      ERR(jpath, "'%s' climbs with '..'; the generated code includes headers by their spelling, so list the "
                 "directory in \"include_dirs\" and the header by its name there", h);
      continue;
    }
    for (int j = 0; j < i; j++)
      if (strcmp(h, s->headers[j]) == 0)
        ERR(jpath, "'%s' is listed twice", h);
    const char *found = NULL;
    struct stat st;
    if (stat(in_dir(s->dir, h), &st) == 0)
      found = in_dir(s->dir, h);
    for (int d = 0; !found && h[0] != '/' && d < s->ninclude_dirs; d++) {
      const char *p = arena_printf("%s/%s", in_dir(s->dir, s->include_dirs[d]), h);
      if (stat(p, &st) == 0)
        found = p;
    }
    const char *where = h[0] == '/' ? ""
                        : arena_printf(" (in '%s', the spec's directory%s)", dir_name(cur->path),
                                       s->ninclude_dirs ? ", or its include_dirs" : "");
    if (!found)
      ERR(jpath, "'%s' does not exist%s", h, where);
    else if (!S_ISREG(st.st_mode))
      ERR(jpath, "'%s' is not a regular file%s", h, where);
    else
      s->header_paths[i] = absolute_path(found);
  }
}

static int compare_targets(const void *a, const void *b) {
  const Target *x = a, *y = b;
  if (x->arch != y->arch)
    return x->arch - y->arch;
  return x->suffix - y->suffix;
}

static void check_targets(Spec *s, const int *nvcc_archs, int n_nvcc) {
  bool ok = true;
  for (int i = 0; i < s->ntargets; i++) {
    Target *t = &s->targets[i];
    const char *jpath = arena_printf("targets[%d]", i);
    if (strncmp(t->name, "sm_0", 4) == 0) {
      ERR(jpath, "'%s' is not how CUDA spells an architecture; write it without the leading zero", t->name);
      ok = false;
      continue;
    }
    if (!target_parse(t->name, &t->arch, &t->suffix)) {
      ERR(jpath, "'%s' is not a CUDA architecture; valid ones are %s (optionally with 'a' from sm_90 "
                 "or 'f' from sm_100)", t->name, target_known_list());
      ok = false;
      continue;
    }
    bool supported = n_nvcc < 0; /* nvcc could not be asked: reported already */
    for (int k = 0; k < n_nvcc; k++)
      supported |= nvcc_archs[k] == t->arch;
    if (!supported) {
      Buf list = {0};
      for (int k = 0; k < n_nvcc; k++)
        buf_printf(&list, "%ssm_%d", k ? " " : "", nvcc_archs[k]);
      ERR(jpath, "'%s' is a real architecture, but the installed nvcc cannot build it (it builds: %s)",
          t->name, list.data ? list.data : "nothing");
      buf_free(&list);
    }
    for (int j = 0; j < i; j++)
      if (strcmp(s->targets[j].name, t->name) == 0)
        ERR(jpath, "'%s' is listed twice", t->name);
  }
  /* nvcc refuses one architecture's code both family-specific and not */
  for (int i = 0; ok && i < s->ntargets; i++)
    for (int j = 0; j < s->ntargets; j++)
      if (s->targets[i].suffix == 'f' && s->targets[j].arch == s->targets[i].arch && !s->targets[j].suffix)
        ERR(arena_printf("targets[%d]", i), "'%s' and '%s' cannot both be targets: nvcc refuses to build one "
            "architecture's code both family-specific and not (the code of '%s' runs on '%s' too); keep one",
            s->targets[i].name, s->targets[j].name, s->targets[i].name, s->targets[j].name);
  if (ok && s->ntargets > 0) /* qsort of NULL is undefined even for 0 elements */
    qsort(s->targets, (size_t)s->ntargets, sizeof(Target), compare_targets);
}

/* The tuning a device of compute capability arch gets: the entry of the
 * largest tuned target not above it, else "default" (M_tuning_for_arch on
 * the host, the #if chain on __CUDA_ARCH__ in the kernels). */
const Target *spec_tuned_target(const Spec *spec, int arch) {
  const Target *chosen = NULL;
  for (int i = 0; i < spec->ntargets; i++)
    if (spec->targets[i].tuned && spec->targets[i].arch <= arch)
      chosen = &spec->targets[i];
  return chosen;
}

/* The blocks an SM that the tuning a target compiles with asks for in
 * __launch_bounds__ must fit that target's SM, or ptxas rejects the kernel
 * under -Werror (target_sm_limits). */
static void check_tuning_fits(const Spec *s) {
  for (int i = 0; i < s->ntargets; i++) {
    const Target *t = &s->targets[i], *from = spec_tuned_target(s, t->arch);
    const Tuning *tu = from ? &from->tuning : &s->default_tuning;
    if (!tu->min_blocks_per_sm)
      continue;
    const char *where = arena_printf("%s.min_blocks_per_sm", from ? from->tuning_path : "tuning.default");
    const char *taker = from == t ? "" : arena_printf(" (%s has no entry of its own and takes this one)", t->name);
    int threads, blocks;
    target_sm_limits(t->arch, &threads, &blocks);
    if (tu->min_blocks_per_sm > blocks)
      ERR(where, "%d blocks an SM, but an SM of %s holds at most %d%s", tu->min_blocks_per_sm, t->name, blocks,
          taker);
    else if (tu->min_blocks_per_sm * tu->block > threads)
      ERR(where, "%d blocks of %d threads an SM is %d threads, but an SM of %s holds at most %d; ask for %d or fewer%s",
          tu->min_blocks_per_sm, tu->block, tu->min_blocks_per_sm * tu->block, t->name, threads, threads / tu->block,
          taker);
  }
}

static void check_tuning(Spec *s) {
  for (int i = 0; i < s->ntuning_entries; i++) {
    TuningEntry *e = &s->tuning_entries[i];
    if (strcmp(e->key, "default") == 0)
      continue;
    Target *match = NULL;
    for (int k = 0; k < s->ntargets; k++)
      if (strcmp(s->targets[k].name, e->key) == 0)
        match = &s->targets[k];
    if (!match) {
      int arch;
      char suffix;
      if (!target_parse(e->key, &arch, &suffix))
        ERR(e->path, "'%s' is neither \"default\" nor a CUDA architecture", e->key);
      else
        ERR(e->path, "'%s' is not one of \"targets\"; tune only architectures you build for", e->key);
      continue;
    }
    match->tuned = true;
    match->tuning = e->tuning;
    match->tuning_path = e->path;
  }
  /* The run-time rule picks a tuning by architecture number, so targets of
   * one number (sm_90 and sm_90a) must share theirs, or one never applies. */
  for (int i = 0; i < s->ntargets; i++)
    for (int j = 0; j < i; j++) {
      const Target *a = &s->targets[j], *b = &s->targets[i];
      if (!a->arch || a->arch != b->arch)
        continue;
      Tuning ta = a->tuned ? a->tuning : s->default_tuning, tb = b->tuned ? b->tuning : s->default_tuning;
      if (memcmp(&ta, &tb, sizeof ta) != 0)
        ERR("tuning", "targets '%s' and '%s' are both architecture %d, which picks one tuning at run time; "
            "give them the same tuning, or the one of '%s' never takes effect", a->name, b->name, a->arch,
            b->name);
    }
  check_tuning_fits(s);
}

static Map *types_by_name; /* the spec's types by name, filled by check_types */
static int suggestions_left;  /* suggestions cost a pass over every name: only the first few get one */

/* CUDA's vector types the spec names, one Type each (made by resolve, in
 * the order first named); add_vector_types puts them into the spec. */
static Map *vectors_by_name;
static Type **vectors_used;
static int nvectors_used;

/* The Type standing for CUDA's vector type v: components x, y, z, w laid
 * out with CUDA's alignment, so layout.c and the emitters treat it as a
 * struct whose definition comes from CUDA's headers. */
static Type *vector_type(const VectorInfo *v) {
  Type *t = (Type *)map_get(vectors_by_name, v->spelling);
  if (t)
    return t;
  static const char *const component[] = {"x", "y", "z", "w"};
  t = ARENA_NEW(Type);
  t->name = v->spelling;
  t->c_spelling = v->c_spelling;
  t->path = arena_printf("CUDA's %s", v->spelling);
  t->vector = v;
  t->explicit_align = v->align;
  t->nfields = v->count;
  t->fields = ARENA_ARRAY(Field, v->count);
  for (int i = 0; i < v->count; i++)
    t->fields[i] = (Field){.name = component[i], .path = t->path, .count = 1,
                           .ref = {.spelling = scalar_info[v->elem].spelling, .is_scalar = true, .scalar = v->elem}};
  t->index = t->order = -1; /* set by add_vector_types */
  map_put(vectors_by_name, v->spelling, t);
  if (nvectors_used % 16 == 0) {
    Type **grown = ARENA_ARRAY(Type *, nvectors_used + 16);
    if (nvectors_used)
      memcpy(grown, vectors_used, sizeof *grown * (size_t)nvectors_used);
    vectors_used = grown;
  }
  vectors_used[nvectors_used++] = t;
  return t;
}

/* Looks a type name up among the scalars, CUDA's vector types and the spec's types. */
static bool resolve(Spec *s, TypeRef *r, const char *jpath) {
  if (!r->spelling)
    return false;
  if (scalar_lookup(r->spelling, &r->scalar)) {
    r->is_scalar = true;
    return true;
  }
  const VectorInfo *v = vector_lookup(r->spelling);
  if (v && v->deprecated) {
    ERR(jpath, "'%s' is deprecated in CUDA 13; %s (16- or 32-byte alignment)", r->spelling, v->deprecated);
    return false;
  }
  if (v) {
    r->type = vector_type(v);
    return true;
  }
  r->type = (Type *)map_get(types_by_name, r->spelling);
  if (r->type)
    return true;
  const char *near = NULL;
  if (suggestions_left > 0) {
    suggestions_left--;
    const char **names = ARENA_ARRAY(const char *, SC_COUNT + vector_count + s->ntypes);
    int n = 0;
    for (int k = 0; k < SC_COUNT; k++)
      names[n++] = scalar_info[k].spelling;
    for (int k = 0; k < vector_count; k++)
      names[n++] = vector_info[k].spelling;
    for (int i = 0; i < s->ntypes; i++)
      if (s->types[i]->name)
        names[n++] = s->types[i]->name;
    near = suggest(r->spelling, names, n);
  }
  if (near)
    ERR(jpath, "unknown type '%s' (did you mean '%s'?)", r->spelling, near);
  else
    ERR(jpath, "unknown type '%s'; use a scalar type (int, float, uint8_t, __half, ...) or a name from \"types\"",
        r->spelling);
  return false;
}

/* Dependency order (nested types first) by an iterative depth-first walk, so
 * long chains of nested types cost no C stack. A type met again while on
 * the walk's path closes a cycle; a path longer than LIMIT_TYPE_DEPTH is
 * refused. */
enum { UNSEEN, ON_PATH, DONE };
static const char *chain_text(Type **path, int from, int to, const Type *last) {
  Buf chain = {0};
  for (int i = from; i < to; i++) {
    if (to - from > 8 && i == from + 4) { /* long chains keep their ends */
      buf_put(&chain, "... -> ");
      i = to - 3;
    }
    buf_printf(&chain, "%s -> ", path[i]->name);
  }
  buf_put(&chain, last->name);
  const char *text = arena_strdup(chain.data);
  buf_free(&chain);
  return text;
}

static bool order_types(Spec *s) {
  int *state = ARENA_ARRAY(int, s->ntypes);
  Type **path = ARENA_ARRAY(Type *, LIMIT_TYPE_DEPTH + 1);
  int *next_field = ARENA_ARRAY(int, LIMIT_TYPE_DEPTH + 1);
  int next = 0;
  bool ok = true;
  s->types_ordered = ARENA_ARRAY(Type *, s->ntypes);
  for (int i = 0; i < s->ntypes; i++) {
    if (state[s->types[i]->index] != UNSEEN)
      continue;
    int depth = 0;
    path[0] = s->types[i];
    next_field[0] = 0;
    state[s->types[i]->index] = ON_PATH;
    while (depth >= 0) {
      Type *t = path[depth];
      if (next_field[depth] == t->nfields) { /* every nested type placed: place t */
        state[t->index] = DONE;
        t->order = next;
        s->types_ordered[next++] = t;
        depth--;
        continue;
      }
      Type *inner = t->fields[next_field[depth]++].ref.type;
      if (!inner || inner->vector || state[inner->index] == DONE) /* CUDA's vector types nest nothing */
        continue;
      if (state[inner->index] == ON_PATH) {
        int start = 0;
        while (path[start] != inner)
          start++;
        ERR(inner->path, "type '%s' contains itself (%s); use a pointer-free layout without cycles", inner->name,
            chain_text(path, start, depth + 1, inner));
      } else if (depth + 1 == LIMIT_TYPE_DEPTH) {
        ERR(path[0]->path, "types nested more than %d deep (%s); gpugen accepts at most %d (docs/spec.md, Limits)",
            LIMIT_TYPE_DEPTH, chain_text(path, 0, depth + 1, inner), LIMIT_TYPE_DEPTH);
        return false; /* once: every deeper start would say the same */
      } else {
        state[inner->index] = ON_PATH;
        path[++depth] = inner;
        next_field[depth] = 0;
        continue;
      }
      /* give up on this walk; its types stay unplaced, the others are still checked */
      ok = false;
      for (int k = 0; k <= depth; k++)
        state[path[k]->index] = DONE;
      break;
    }
  }
  return ok;
}

static bool check_types(Spec *s) {
  bool resolved = true;
  bool duplicates = false;
  types_by_name = map_new();
  vectors_by_name = map_new();
  vectors_used = NULL;
  nvectors_used = 0;
  suggestions_left = 20;
  for (int i = 0; i < s->ntypes; i++) {
    Type *t = s->types[i];
    t->index = i;
    const Type *first = map_put(types_by_name, t->name, t);
    if (first) {
      ERR(t->path, "type '%s' is defined twice (also %s)", t->name, first->path);
      duplicates = true;
    }
  }
  Map *fields = map_new(); /* "type index.field name", to find repeated fields */
  for (int i = 0; i < s->ntypes; i++) {
    Type *t = s->types[i];
    check_name(t->name, arena_printf("%s.name", t->path), "type name");
    if (s->module && strcmp(t->name, s->module) == 0)
      ERR(t->path, "type '%s' has the module's name; the module becomes a C++ namespace of that name", t->name);
    else if (s->module && strncmp(t->name, s->module, strlen(s->module)) == 0 && t->name[strlen(s->module)] == '_')
      ERR(t->path, "type '%s' starts with '%s_', the prefix of the module's own C symbols", t->name, s->module);
    if (t->explicit_align && (t->explicit_align & (t->explicit_align - 1)))
      ERR(arena_printf("%s.align", t->path), "%d is not a power of two", t->explicit_align);
    for (int f = 0; f < t->nfields; f++) {
      Field *fd = &t->fields[f];
      check_name(fd->name, arena_printf("%s.name", fd->path), "field name");
      if (map_put(fields, arena_printf("%d.%s", i, fd->name), fd))
        ERR(fd->path, "field '%s' appears twice in '%s'", fd->name, t->name);
      const Type *same = map_get(types_by_name, fd->name);
      if (same)
        ERR(arena_printf("%s.name", fd->path), "field name '%s' cannot be used: it is the name of a type (%s), "
            "which a field would hide inside the struct in C++", fd->name, same->path);
      if (!resolve(s, &fd->ref, arena_printf("%s.type", fd->path)))
        resolved = false;
    }
  }
  if (!resolved || duplicates)
    return false;
  return order_types(s);
}

/* ---- reductions ---------------------------------------------------------- */

static bool all_leaves(const TypeRef *r, bool (*pred)(ScalarKind)) {
  if (r->is_scalar)
    return pred(r->scalar);
  for (int f = 0; f < r->type->nfields; f++)
    if (!all_leaves(&r->type->fields[f].ref, pred))
      return false;
  return true;
}
static bool is_integer(ScalarKind k) { return scalar_info[k].num == NUM_SIGNED || scalar_info[k].num == NUM_UNSIGNED || k == SC_BOOL; }
static bool is_not_bool(ScalarKind k) { return k != SC_BOOL; }

/* Digits of mantissa, or value bits for integers: how much a type holds exactly. */
static int exact_bits(ScalarKind k) {
  switch (k) {
  case SC_HALF: return 11;
  case SC_BF16: return 8;
  case SC_FLOAT: return 24;
  case SC_DOUBLE: return 53;
  default: return scalar_info[k].size * 8 - (scalar_info[k].num == NUM_SIGNED ? 1 : 0);
  }
}

/* A builtin accumulator must hold every input value exactly: never narrow. */
static const char *widening_problem(ScalarKind in, ScalarKind acc) {
  const ScalarInfo *i = &scalar_info[in], *a = &scalar_info[acc];
  if (acc == SC_BOOL)
    return "bool cannot accumulate";
  if (in == SC_BOOL)
    return NULL;
  if (i->num == NUM_FLOAT && a->num != NUM_FLOAT)
    return "a floating input needs a floating accumulator";
  if (i->num == NUM_FLOAT)
    return exact_bits(acc) >= exact_bits(in) && a->max >= i->max ? NULL : "it is narrower than the input";
  if (a->num == NUM_FLOAT)
    return exact_bits(acc) >= exact_bits(in) ? NULL : "it cannot hold every input value exactly";
  if (i->num == NUM_SIGNED && a->num == NUM_UNSIGNED)
    return "an unsigned accumulator cannot hold negative inputs";
  return a->min <= i->min && a->max >= i->max ? NULL : "it is narrower than the input";
}

static bool is_vector(const TypeRef *r) { return !r->is_scalar && r->type->vector; }

/* A builtin operator over a CUDA vector type may accumulate into a vector
 * of as many wider components (uchar3 into uint3), each widened like a
 * scalar. Returns false when input and accumulator are not both vectors. */
static bool check_vector_widening(const Reduction *r) {
  if (!is_vector(&r->input) && !is_vector(&r->accumulator))
    return false;
  const char *jpath = arena_printf("%s.accumulator", r->path);
  if (!is_vector(&r->input) || !is_vector(&r->accumulator)) {
    ERR(jpath, "'%s' cannot accumulate '%s': a vector type accumulates into a vector type of as many components",
        r->accumulator.spelling, r->input.spelling);
    return true;
  }
  const VectorInfo *in = r->input.type->vector, *acc = r->accumulator.type->vector;
  if (in->count != acc->count) {
    ERR(jpath, "'%s' cannot accumulate '%s': it has %d components, and the input %d", acc->spelling, in->spelling,
        acc->count, in->count);
    return true;
  }
  const char *why = widening_problem(in->elem, acc->elem);
  if (why)
    ERR(jpath, "'%s' cannot accumulate '%s': its components (%s) cannot accumulate the input's (%s): %s", acc->spelling,
        in->spelling, scalar_info[acc->elem].spelling, scalar_info[in->elem].spelling, why);
  return true;
}

static bool same_type(const TypeRef *a, const TypeRef *b) {
  if (a->is_scalar != b->is_scalar)
    return false;
  return a->is_scalar ? scalar_info[a->scalar].canonical == scalar_info[b->scalar].canonical : a->type == b->type;
}

static void check_identity_value(const Value *v, const TypeRef *r, bool is_array, int count);

static void check_scalar_value(const Value *v, ScalarKind k) {
  const ScalarInfo *si = &scalar_info[k];
  if (si->num == NUM_BOOL) {
    if (v->kind != VAL_BOOL)
      ERR(v->path, "expected true or false for a bool field");
    return;
  }
  if (v->kind == VAL_STRING) {
    if (si->num == NUM_FLOAT) {
      if (strcmp(v->string, "inf") && strcmp(v->string, "-inf") && strcmp(v->string, "nan"))
        ERR(v->path, "'%s' is not a number; floating fields accept numbers, \"inf\", \"-inf\" and \"nan\"", v->string);
      return;
    }
    /* 64-bit integers may be written as decimal strings (JSON numbers are
     * doubles): exactly -?(0|[1-9][0-9]*), no hex, exponents or spaces */
    const char *p = v->string + (v->string[0] == '-');
    size_t digits = strspn(p, "0123456789");
    if (digits == 0 || p[digits] || (p[0] == '0' && digits > 1) || digits > 20) {
      ERR(v->path, "'%s' is not a decimal integer (write it like \"-9223372036854775808\")", v->string);
      return;
    }
    long double x = strtold(v->string, NULL);
    if (x < si->min || x > si->max)
      ERR(v->path, "%s is out of range for %s (%.0Lf..%.0Lf)", v->string, si->spelling, si->min, si->max);
    return;
  }
  if (v->kind != VAL_NUMBER) {
    ERR(v->path, "expected a number for a %s field", si->spelling);
    return;
  }
  long double x = v->number;
  if (si->num == NUM_FLOAT) {
    if (x < si->min || x > si->max)
      ERR(v->path, "%g is out of range for %s", v->number, si->spelling);
    return;
  }
  if (x != floorl(x))
    ERR(v->path, "%g is not an integer, but the field is %s", v->number, si->spelling);
  else if (x < si->min || x > si->max)
    ERR(v->path, "%.0Lf is out of range for %s (%.0Lf..%.0Lf)", x, si->spelling, si->min, si->max);
  else if (fabsl(x) > 9007199254740992.0L)
    ERR(v->path, "%.0Lf is beyond 2^53, where JSON numbers lose precision; write it as a string", x);
}

static void check_struct_value(const Value *v, const Type *t) {
  if (v->kind != VAL_OBJECT) {
    ERR(v->path, "expected an object with the fields of '%s'", t->name);
    return;
  }
  Map *members = map_new(), *fields = map_new(); /* linear however many fields */
  for (int i = 0; i < v->nitems; i++)
    map_put(members, v->items[i]->key, v->items[i]);
  for (int f = 0; f < t->nfields; f++) {
    const Field *fd = &t->fields[f];
    map_put(fields, fd->name, fd);
    const Value *m = map_get(members, fd->name);
    if (!m)
      ERR(v->path, "missing field '%s' of '%s'", fd->name, t->name);
    else
      check_identity_value(m, &fd->ref, fd->is_array, fd->count);
  }
  for (int i = 0; i < v->nitems; i++)
    if (!map_get(fields, v->items[i]->key))
      ERR(v->items[i]->path, "'%s' has no field '%s'", t->name, v->items[i]->key);
}

static void check_identity_value(const Value *v, const TypeRef *r, bool is_array, int count) {
  if (is_array) {
    if (v->kind != VAL_ARRAY) {
      ERR(v->path, "expected an array of %d values", count);
      return;
    }
    if (v->nitems != count) {
      ERR(v->path, "expected %d values, found %d", count, v->nitems);
      return;
    }
    for (int i = 0; i < v->nitems; i++)
      check_identity_value(v->items[i], r, false, 1);
    return;
  }
  if (r->is_scalar)
    check_scalar_value(v, r->scalar);
  else
    check_struct_value(v, r->type);
}

/* "x0, x1, ...": the element types of an "input" list, for messages. */
static const char *input_list_spelling(const Reduction *r) {
  const char *s = "";
  for (int i = 0; i < r->ninputs; i++)
    s = arena_printf("%s%s%s", s, i ? ", " : "", r->inputs[i].spelling ? r->inputs[i].spelling : "?");
  return s;
}

/* The one builtin over several arrays: "dot", the sum of x0 * x1 over two
 * scalar inputs (any builtin with a list, or "dot" with one input, is an
 * error here). */
static void check_dot(Reduction *r, bool in_ok, bool acc_ok) {
  const char *op = op_names[r->op];
  if (r->op != OP_DOT) {
    ERR(arena_printf("%s.op", r->path), "'%s' reads one array; over an \"input\" list the builtin is \"dot\", or "
        "give user functions \"fold\"/\"combine\" with an \"identity\"", op);
    return;
  }
  if (r->fold || r->combine)
    ERR(r->path, "give either a builtin \"op\" or user functions \"fold\"/\"combine\", not both");
  if (r->identity)
    ERR(arena_printf("%s.identity", r->path), "builtin operators know their identity; remove \"identity\"");
  if (!r->commutative)
    ERR(arena_printf("%s.commutative", r->path), "builtin operators are commutative");
  if (!r->input_list || r->ninputs != 2) {
    if (r->input_list ? r->ninputs > 1 : r->input.spelling != NULL) /* else spec.c reported the list */
      ERR(arena_printf("%s.input", r->path), "'dot' multiplies two arrays: give \"input\" as a list of two scalar "
          "types, e.g. [\"float\", \"float\"]%s", r->input_list ? arena_printf(" (found %d)", r->ninputs) : "");
    return;
  }
  if (!in_ok || !acc_ok)
    return;
  for (int i = 0; i < 2; i++) {
    const TypeRef *in = &r->inputs[i];
    const char *p = arena_printf("%s.input[%d]", r->path, i);
    if (!in->is_scalar)
      ERR(p, "'dot' needs scalar inputs, and '%s' is a struct", in->spelling);
    else if (in->scalar == SC_BOOL)
      ERR(p, "'dot' of bool is not defined");
  }
  if (!r->accumulator.is_scalar) {
    ERR(arena_printf("%s.accumulator", r->path), "'dot' needs a scalar accumulator, and '%s' is a struct",
        r->accumulator.spelling);
    return;
  }
  if (!r->has_accumulator && r->inputs[0].is_scalar && r->inputs[1].is_scalar &&
      scalar_info[r->inputs[0].scalar].canonical != scalar_info[r->inputs[1].scalar].canonical)
    ERR(arena_printf("%s.accumulator", r->path), "missing: the inputs '%s' and '%s' differ, so name the accumulator "
        "that holds their products", r->inputs[0].spelling, r->inputs[1].spelling);
  for (int i = 0; i < 2 && r->has_accumulator; i++) {
    const TypeRef *in = &r->inputs[i];
    if (i == 1 && same_type(in, &r->inputs[0]))
      break; /* reported once */
    const char *why = in->is_scalar && in->scalar != SC_BOOL ? widening_problem(in->scalar, r->accumulator.scalar) : NULL;
    if (why)
      ERR(arena_printf("%s.accumulator", r->path), "'%s' cannot accumulate '%s': %s", r->accumulator.spelling,
          in->spelling, why);
  }
}

/* "params" and "indexed" add arguments to a user fold: fold(acc, inputs...,
 * index, params). Builtin operators have no fold to receive them. */
static void check_fold_extras(Spec *s, Reduction *r) {
  if (r->has_params)
    resolve(s, &r->params, arena_printf("%s.params", r->path));
  const char *extra = r->has_params && r->indexed ? "\"params\" and \"indexed\""
                      : r->has_params             ? "\"params\""
                      : r->indexed                ? "\"indexed\""
                                                  : NULL;
  if (!extra || r->op_unknown)
    return;
  const char *key = r->has_params ? "params" : "indexed";
  if (r->op != OP_NONE)
    ERR(arena_printf("%s.%s", r->path, key), "%s add%s arguments to a user fold, and builtin '%s' has no fold; write "
        "\"fold\"/\"combine\" functions with an \"identity\"", extra, r->has_params && r->indexed ? "" : "s",
        op_names[r->op]);
  else if (!r->fold && r->combine)
    ERR(arena_printf("%s.fold", r->path), "missing: with %s, a fold(acc, x%s%s) is needed", extra,
        r->indexed ? ", long long index" : "", r->has_params ? ", params" : "");
  if (r->indexed && r->nccl)
    ERR(arena_printf("%s.indexed", r->path), "an indexed fold cannot be reduced across GPUs: a rank folds its own data "
        "before the exchange tells it where that data starts in the concatenation; drop \"nccl\" or \"indexed\"");
}

static void check_reduction(Spec *s, Reduction *r) {
  if (r->has_offset_type && !r->segmented)
    ERR(arena_printf("%s.offset_type", r->path), "only segmented reductions take offsets; add \"segmented\": true");
  bool in_ok = true;
  if (r->input_list) {
    for (int i = 0; i < r->ninputs; i++)
      in_ok = resolve(s, &r->inputs[i], arena_printf("%s.input[%d]", r->path, i)) && in_ok;
    if (r->ninputs > 1)
      r->input = r->inputs[0];
    else
      in_ok = false; /* a list of the wrong length: spec.c reported it */
  } else {
    in_ok = resolve(s, &r->input, arena_printf("%s.input", r->path));
  }
  bool acc_ok = true;
  if (r->has_accumulator)
    acc_ok = resolve(s, &r->accumulator, arena_printf("%s.accumulator", r->path));
  else
    r->accumulator = r->input;
  check_fold_extras(s, r);
  if (r->op == OP_DOT || (r->input_list && r->op != OP_NONE)) {
    check_dot(r, in_ok, acc_ok);
    return;
  }
  if (r->op != OP_NONE) {
    if (r->fold || r->combine)
      ERR(r->path, "give either a builtin \"op\" or user functions \"fold\"/\"combine\", not both");
    if (r->identity)
      ERR(arena_printf("%s.identity", r->path), "builtin operators know their identity; remove \"identity\"");
    if (!r->commutative)
      ERR(arena_printf("%s.commutative", r->path), "builtin operators are commutative");
    if (!in_ok || !acc_ok)
      return;
    const char *op = op_names[r->op];
    if (r->has_accumulator && !check_vector_widening(r)) {
      if (!r->input.is_scalar || !r->accumulator.is_scalar) {
        ERR(arena_printf("%s.accumulator", r->path), "a wider accumulator is supported for scalar inputs and CUDA's "
            "vector types only");
        return;
      }
      const char *why = widening_problem(r->input.scalar, r->accumulator.scalar);
      if (why)
        ERR(arena_printf("%s.accumulator", r->path), "'%s' cannot accumulate '%s': %s", r->accumulator.spelling,
            r->input.spelling, why);
    }
    if ((r->op == OP_BIT_AND || r->op == OP_BIT_OR || r->op == OP_BIT_XOR) && !all_leaves(&r->accumulator, is_integer))
      ERR(arena_printf("%s.op", r->path), "'%s' needs integer fields, and '%s' has floating ones", op,
          r->accumulator.spelling);
    if ((r->op == OP_SUM || r->op == OP_PROD) && !all_leaves(&r->accumulator, is_not_bool))
      ERR(arena_printf("%s.op", r->path), "'%s' of bool is not defined; count with \"accumulator\": \"int\"", op);
    if ((r->op == OP_ARGMIN || r->op == OP_ARGMAX) && is_vector(&r->input))
      ERR(arena_printf("%s.op", r->path), "'%s' needs a scalar input, and '%s' is one of CUDA's vector types, whose "
          "components have no one order; use \"min\"/\"max\" for the component-wise extremes, or user functions that "
          "compare them your way", op, r->input.spelling);
    else if ((r->op == OP_ARGMIN || r->op == OP_ARGMAX) && !r->input.is_scalar)
      ERR(arena_printf("%s.op", r->path), "'%s' needs a scalar input", op);
    if ((r->op == OP_ARGMIN || r->op == OP_ARGMAX) && r->has_accumulator)
      ERR(arena_printf("%s.accumulator", r->path), "'%s' returns the input type and its index; remove \"accumulator\"", op);
    return;
  }
  if (r->op_unknown)
    return;
  if (!r->combine) {
    ERR(r->path, "needs an \"op\" (sum, prod, min, max, bit_and, bit_or, bit_xor, argmin, argmax) or user "
                 "functions \"combine\" (and \"fold\") with an \"identity\"");
    return;
  }
  check_name(r->combine, arena_printf("%s.combine", r->path), "function name");
  if (r->fold)
    check_name(r->fold, arena_printf("%s.fold", r->path), "function name");
  if (s->nheaders == 0)
    ERR(r->path, "user functions live in the spec's \"headers\", and it lists none");
  if (!r->identity)
    ERR(arena_printf("%s.identity", r->path), "missing (required with user functions): the accumulator's starting value");
  if (r->input_list && !r->has_accumulator)
    ERR(arena_printf("%s.accumulator", r->path), "missing (required with an \"input\" list): the type fold returns");
  if (!in_ok || !acc_ok)
    return;
  if (!r->fold && r->input_list)
    ERR(arena_printf("%s.fold", r->path), "missing (required with an \"input\" list): a fold(acc, %s) that takes "
        "one element of each array", input_list_spelling(r));
  else if (!r->fold && !same_type(&r->input, &r->accumulator))
    ERR(arena_printf("%s.fold", r->path), "missing: input '%s' and accumulator '%s' differ, so a fold(acc, x) is needed",
        r->input.spelling, r->accumulator.spelling);
  if (r->identity)
    check_identity_value(r->identity, &r->accumulator, false, 1);
}

/* ---- names the generated code declares ------------------------------------ */

/* Who holds a name in the one table of check_symbols. */
typedef enum { HELD_TEMPLATE, HELD_MODULE, HELD_TYPE, HELD_REDUCTION } Holder;
typedef struct {
  Holder by;
  const char *path; /* types[i] or reductions[i] */
  const char *name; /* the type or reduction */
} Held;

static const char *held_by(const Held *h) {
  switch (h->by) {
  case HELD_TEMPLATE: return "gpugen's generated code declares it";
  case HELD_MODULE: return "the module already defines it";
  case HELD_TYPE: return arena_printf("it is the type '%s' (%s)", h->name, h->path);
  case HELD_REDUCTION: return arena_printf("reduction '%s' (%s) emits it too", h->name, h->path);
  }
  return "?";
}

static const Held tmpl_held = {HELD_TEMPLATE};

/* Names emit_reduce.c builds in C, beside the templates' patterns: per
 * reduction, $(R)_op in the module's detail namespace and the
 * argmin/argmax result type; per module, the tuning constants. */
static const char *const emitted_patterns[] = {"$(R)_op", "$(M)_$(R)_result"};
static const char *const emitted_names[] = {"tuned_block", "tuned_items", "tuned_min_blocks"};

static const char *instantiate(const char *pattern, const char *module, const char *reduction) {
  Buf b = {0};
  for (const char *p = pattern; *p;) {
    if (strncmp(p, "$(M)", 4) == 0) {
      buf_put(&b, module);
      p += 4;
    } else if (strncmp(p, "$(R)", 4) == 0) {
      buf_put(&b, reduction);
      p += 4;
    } else {
      buf_putn(&b, p++, 1);
    }
  }
  const char *out = arena_strdup(b.data);
  buf_free(&b);
  return out;
}

/* Every name the module puts into C, C++ or CUDA is looked up among the
 * names the included headers and gpugen's templates already hold
 * (ident_reserved), and goes into one table, so a clash of any two is found
 * by one lookup (linear in the spec). */
static void check_symbols(Spec *s) {
  Map *table = map_new();
  static const Held module = {HELD_MODULE};
  for (size_t i = 0; i < sizeof emitted_names / sizeof emitted_names[0]; i++)
    map_put(table, emitted_names[i], &tmpl_held);

  const Held *h;
  const char *why = ident_problem(s->module) ? NULL : ident_reserved(s->module, false);
  if (why)
    ERR("module", "module name '%s' cannot be used: %s", s->module, why);
  for (int k = 0; k < reserved_template_patterns_count; k++) {
    const char *p = reserved_template_patterns[k];
    if (strstr(p, "$(R)") || strcmp(p, "$(M)") == 0)
      continue;
    const char *sym = instantiate(p, s->module, "");
    if ((why = ident_reserved(sym, false)) || ((h = map_put(table, sym, &module)) && (why = held_by(h))))
      ERR("module", "module name '%s' cannot be used: it would emit %s, but %s", s->module, sym, why);
  }
  /* fields live inside their struct: only macros can break them */
  for (int i = 0; i < s->ntypes; i++)
    for (int f = 0; f < s->types[i]->nfields; f++) {
      const Field *fd = &s->types[i]->fields[f];
      if (!ident_problem(fd->name) && (why = ident_reserved(fd->name, true)))
        ERR(arena_printf("%s.name", fd->path), "field name '%s' cannot be used: %s", fd->name, why);
    }
  for (int i = 0; i < s->ntypes; i++) {
    Type *t = s->types[i];
    if (ident_problem(t->name))
      continue;
    Held *mine = ARENA_NEW(Held);
    *mine = (Held){HELD_TYPE, t->path, t->name};
    /* a repeated type and the module's prefix are reported by check_types */
    if (vector_lookup(t->name)) {
      ERR(arena_printf("%s.name", t->path), "type name '%s' cannot be used: it is CUDA's vector type '%s', which "
          "gpugen knows; name it as a field or reduction type without defining it", t->name, t->name);
      continue;
    }
    why = ident_reserved(t->name, false);
    if (!why && (h = map_put(table, t->name, mine)) && h->by != HELD_MODULE && h->by != HELD_TYPE)
      why = held_by(h);
    if (why)
      ERR(arena_printf("%s.name", t->path), "type name '%s' cannot be used: %s", t->name, why);
  }
  Map *reductions = map_new();
  for (int i = 0; i < s->nreductions; i++) {
    Reduction *r = &s->reductions[i];
    if (ident_problem(r->name))
      continue;
    const Reduction *first = map_put(reductions, r->name, r);
    if (first) {
      ERR(r->path, "reduction '%s' is defined twice (also %s)", r->name, first->path);
      continue;
    }
    Held *mine = ARENA_NEW(Held);
    *mine = (Held){HELD_REDUCTION, r->path, r->name};
    bool reported = false;
    const int npatterns = reserved_template_patterns_count + 2 + kernel_name_count;
    for (int k = 0; k < npatterns && !reported; k++) {
      const int e = k - reserved_template_patterns_count;
      const char *p = e < 0 ? reserved_template_patterns[k]
                      : e < 2 ? emitted_patterns[e]
                              : arena_printf("$(M)_$(R)%s", kernel_names[e - 2].suffix); /* gen's kernel names */
      if (!strstr(p, "$(R)"))
        continue;
      const char *sym = instantiate(p, s->module, r->name);
      if ((why = ident_reserved(sym, false))) {
        ERR(arena_printf("%s.name", r->path), "reduction '%s' would emit %s, but %s", r->name, sym, why);
        break;
      }
      if (!(h = map_put(table, sym, mine)))
        continue;
      reported = true;
      if (h->by == HELD_REDUCTION)
        ERR(arena_printf("%s.name", r->path), "reductions '%s' and '%s' (%s) would emit the same C symbol %s",
            r->name, h->name, h->path, sym);
      else
        ERR(arena_printf("%s.name", r->path), "reduction '%s' would emit %s, but %s", r->name, sym, held_by(h));
    }
  }
}

/* argmin/argmax return {value, index}: a struct gpugen defines and lays out
 * like any spec type (so it gets shuffles, ldg and layout checks). */
static void add_result_types(Spec *s) {
  int extra = 0;
  for (int i = 0; i < s->nreductions; i++)
    extra += s->reductions[i].op == OP_ARGMIN || s->reductions[i].op == OP_ARGMAX;
  if (!extra)
    return;
  Type **types = ARENA_ARRAY(Type *, s->ntypes + extra);
  Type **ordered = ARENA_ARRAY(Type *, s->ntypes + extra);
  for (int i = 0; i < s->ntypes; i++) {
    types[i] = s->types[i];
    ordered[i] = s->types_ordered[i];
  }
  for (int i = 0; i < s->nreductions; i++) {
    Reduction *r = &s->reductions[i];
    if (r->op != OP_ARGMIN && r->op != OP_ARGMAX)
      continue;
    Type *t = ARENA_NEW(Type);
    t->name = arena_printf("%s_%s_result", s->module, r->name);
    t->c_spelling = t->name;
    t->path = r->path;
    t->synthetic = true;
    t->nfields = 2;
    t->fields = ARENA_ARRAY(Field, 2);
    t->fields[0] = (Field){.name = "value", .path = r->path, .ref = r->input, .count = 1};
    t->fields[1] = (Field){.name = "index", .path = r->path, .ref = {.spelling = "long long", .is_scalar = true,
                                                                      .scalar = SC_LLONG}, .count = 1};
    t->order = t->index = s->ntypes;
    types[s->ntypes] = ordered[s->ntypes] = t;
    s->ntypes++;
    r->accumulator = (TypeRef){.spelling = t->name, .type = t};
  }
  s->types = types;
  s->types_ordered = ordered;
}

/* CUDA's vector types the spec names join "types" after the spec's own
 * (so their indexes stay), and come first in dependency order: they nest
 * nothing. The emitters give them shuffles, ldg and operators, and assert
 * CUDA's layout, but never define them. */
static void add_vector_types(Spec *s) {
  if (!nvectors_used)
    return;
  Type **types = ARENA_ARRAY(Type *, s->ntypes + nvectors_used);
  Type **ordered = ARENA_ARRAY(Type *, s->ntypes + nvectors_used);
  for (int k = 0; k < nvectors_used; k++) {
    Type *v = vectors_used[k];
    v->index = s->ntypes + k;
    v->order = k;
    types[v->index] = ordered[k] = v;
  }
  for (int i = 0; i < s->ntypes; i++) {
    types[i] = s->types[i];
    ordered[nvectors_used + i] = s->types_ordered[i];
    ordered[nvectors_used + i]->order += nvectors_used;
  }
  s->types = types;
  s->types_ordered = ordered;
  s->ntypes += nvectors_used;
}

void spec_check(Spec *s, const int *nvcc_archs, int n_nvcc) {
  cur = s;
  check_name(s->module, "module", "module name");
  if (strlen(s->module) > LIMIT_MODULE_NAME)
    ERR("module", "keep module names to %d characters (they prefix every file and symbol)", LIMIT_MODULE_NAME);
  check_include_dirs(s);
  check_headers(s);
  check_targets(s, nvcc_archs, n_nvcc);
  check_tuning(s);
  for (int i = 0; i < s->nreductions; i++)
    check_name(s->reductions[i].name, arena_printf("%s.name", s->reductions[i].path), "reduction name");
  bool types_ok = check_types(s);
  if (types_ok)
    for (int i = 0; i < s->nreductions; i++)
      check_reduction(s, &s->reductions[i]);
  check_symbols(s);
  if (types_ok && diag_count() == 0 && s->module) {
    add_vector_types(s);
    add_result_types(s);
  }
}
