/* JSON bytes -> raw Spec. The only file that knows cJSON. It checks the
 * shape of the document (keys, JSON kinds, integer ranges); what the names
 * mean is check.c's job. */
#include <math.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "gpugen.h"

static const char *spec_path;

#define ERR(jpath, ...) diag_error(spec_path, "%s: %s", (jpath), arena_printf(__VA_ARGS__))

static const char *kind_name(const cJSON *j) {
  if (cJSON_IsObject(j)) return "an object";
  if (cJSON_IsArray(j)) return "an array";
  if (cJSON_IsString(j)) return "a string";
  if (cJSON_IsNumber(j)) return "a number";
  if (cJSON_IsBool(j)) return "a boolean";
  if (cJSON_IsNull(j)) return "null";
  return "invalid";
}

static const char *member_path(const char *path, const char *key) {
  return path[0] ? arena_printf("%s.%s", path, key) : arena_strdup(key);
}

static const char *index_path(const char *path, int i) { return arena_printf("%s[%d]", path, i); }

/* Unknown keys are errors: a typo must not be ignored. (Repeated keys were
 * refused by json_check_strict.) */
static void check_keys(const cJSON *obj, const char *path, const char *const *allowed, int n) {
  for (const cJSON *a = obj->child; a; a = a->next) {
    bool known = false;
    for (int i = 0; i < n; i++)
      known |= strcmp(a->string, allowed[i]) == 0;
    if (!known) {
      const char *near = suggest(a->string, allowed, n);
      if (near)
        ERR(member_path(path, a->string), "unknown key '%s' (did you mean '%s'?)", a->string, near);
      else
        ERR(member_path(path, a->string), "unknown key '%s'", a->string);
    }
  }
}

/* Arrays longer than a documented limit are refused before anything is
 * allocated for their elements. */
static bool within_limit(const cJSON *array, const char *path, int limit, const char *what) {
  int n = cJSON_GetArraySize(array);
  if (n <= limit)
    return true;
  ERR(path, "%d %s; gpugen accepts at most %d (docs/spec.md, Limits)", n, what, limit);
  return false;
}

static const cJSON *member(const cJSON *obj, const char *key) {
  return cJSON_GetObjectItemCaseSensitive(obj, key);
}

static bool expect(const cJSON *j, cJSON_bool ok, const char *path, const char *what) {
  if (!ok)
    ERR(path, "expected %s, found %s", what, kind_name(j));
  return ok;
}

static const char *get_string(const cJSON *obj, const char *key, const char *path, bool required) {
  const cJSON *j = member(obj, key);
  const char *p = member_path(path, key);
  if (!j) {
    if (required)
      ERR(p, "missing (required)");
    return NULL;
  }
  if (!expect(j, cJSON_IsString(j), p, "a string"))
    return NULL;
  return arena_strdup(j->valuestring);
}

/* Integers must be whole numbers in [lo, hi]; false when the key is absent or wrong. */
static bool get_int(const cJSON *obj, const char *key, const char *path, long lo, long hi, long *out) {
  const cJSON *j = member(obj, key);
  if (!j)
    return false;
  const char *p = member_path(path, key);
  if (!expect(j, cJSON_IsNumber(j), p, "an integer"))
    return false;
  double d = j->valuedouble;
  if (d != floor(d) || d < (double)lo || d > (double)hi) {
    ERR(p, d == floor(d) ? "%.0f is not an integer in %ld..%ld" : "%g is not an integer in %ld..%ld", d, lo, hi);
    return false;
  }
  *out = (long)d;
  return true;
}

/* Element i of the result is element i of the JSON array, or NULL where
 * that was not a string, so later messages name the right index. */
static const char **get_string_array(const cJSON *obj, const char *key, const char *path, int *count) {
  const cJSON *j = member(obj, key);
  *count = 0;
  if (!j)
    return NULL;
  const char *p = member_path(path, key);
  if (!expect(j, cJSON_IsArray(j), p, "an array of strings") || !within_limit(j, p, LIMIT_LIST, "entries"))
    return NULL;
  int n = cJSON_GetArraySize(j);
  const char **out = ARENA_ARRAY(const char *, n);
  for (const cJSON *e = j->child; e; e = e->next, (*count)++)
    if (expect(e, cJSON_IsString(e), index_path(p, *count), "a string"))
      out[*count] = arena_strdup(e->valuestring);
  return out;
}

static Value *convert_value(const cJSON *j, const char *path) {
  Value *v = ARENA_NEW(Value);
  v->path = path;
  if (cJSON_IsNumber(j)) {
    v->kind = VAL_NUMBER;
    v->number = j->valuedouble;
  } else if (cJSON_IsString(j)) {
    v->kind = VAL_STRING;
    v->string = arena_strdup(j->valuestring);
  } else if (cJSON_IsBool(j)) {
    v->kind = VAL_BOOL;
    v->boolean = cJSON_IsTrue(j);
  } else if (cJSON_IsNull(j)) {
    v->kind = VAL_NULL;
  } else {
    bool is_object = cJSON_IsObject(j);
    v->kind = is_object ? VAL_OBJECT : VAL_ARRAY;
    v->nitems = cJSON_GetArraySize(j);
    v->items = ARENA_ARRAY(Value *, v->nitems);
    int i = 0;
    for (const cJSON *e = j->child; e; e = e->next, i++) {
      v->items[i] = convert_value(e, is_object ? member_path(path, e->string) : index_path(path, i));
      if (is_object)
        v->items[i]->key = arena_strdup(e->string);
    }
  }
  return v;
}

static void parse_field(Field *f, const cJSON *j, const char *path) {
  static const char *const keys[] = {"name", "type", "count"};
  f->path = path;
  f->count = 1;
  if (!expect(j, cJSON_IsObject(j), path, "an object with \"name\" and \"type\""))
    return;
  check_keys(j, path, keys, 3);
  f->name = get_string(j, "name", path, true);
  f->ref.spelling = get_string(j, "type", path, true);
  long count;
  if (get_int(j, "count", path, 1, LIMIT_COUNT, &count)) {
    f->count = (int)count;
    f->is_array = true;
  }
}

static Type *parse_type(const cJSON *j, const char *path) {
  static const char *const keys[] = {"name", "fields", "align", "description"};
  Type *t = ARENA_NEW(Type);
  t->path = path;
  if (!expect(j, cJSON_IsObject(j), path, "an object with \"name\" and \"fields\""))
    return t;
  check_keys(j, path, keys, 4);
  t->name = get_string(j, "name", path, true);
  long align;
  if (get_int(j, "align", path, 1, 4096, &align))
    t->explicit_align = (int)align;
  const cJSON *fields = member(j, "fields");
  const char *fpath = member_path(path, "fields");
  if (!fields) {
    ERR(fpath, "missing (required)");
  } else if (expect(fields, cJSON_IsArray(fields), fpath, "an array of fields") &&
             within_limit(fields, fpath, LIMIT_FIELDS, "fields")) {
    t->nfields = cJSON_GetArraySize(fields);
    if (t->nfields == 0)
      ERR(fpath, "a type needs at least one field (C has no empty structs)");
    t->fields = ARENA_ARRAY(Field, t->nfields);
    int i = 0;
    for (const cJSON *e = fields->child; e; e = e->next, i++)
      parse_field(&t->fields[i], e, index_path(fpath, i));
  }
  return t;
}

static OpKind op_lookup(const char *name) {
  for (int k = OP_SUM; k <= OP_DOT; k++)
    if (strcmp(op_names[k], name) == 0)
      return (OpKind)k;
  return OP_NONE;
}

/* "input": one type, or a list of 2..LIMIT_INPUTS types (one per array). */
static void parse_inputs(Reduction *r, const cJSON *j, const char *path) {
  const cJSON *in = member(j, "input");
  const char *p = member_path(path, "input");
  if (!in || !cJSON_IsArray(in)) {
    r->input.spelling = get_string(j, "input", path, true);
    return;
  }
  r->input_list = true;
  int n = cJSON_GetArraySize(in);
  if (n < 2 || n > LIMIT_INPUTS) {
    ERR(p, "a list of %d input%s; a reduction reads 2 to %d arrays (write one type as a string)", n, n == 1 ? "" : "s",
        LIMIT_INPUTS);
    return;
  }
  r->ninputs = n;
  r->inputs = ARENA_ARRAY(TypeRef, n);
  int i = 0;
  for (const cJSON *e = in->child; e; e = e->next, i++)
    if (expect(e, cJSON_IsString(e), index_path(p, i), "a type name"))
      r->inputs[i].spelling = arena_strdup(e->valuestring);
  r->input = r->inputs[0];
}

static void parse_reduction(Reduction *r, const cJSON *j, const char *path) {
  static const char *const keys[] = {"name", "input", "accumulator", "op", "fold", "combine",
                                     "identity", "commutative", "segmented", "offset_type", "nccl", "params",
                                     "indexed", "description"};
  r->path = path;
  r->commutative = true;
  r->offset = SC_LLONG;
  r->ninputs = 1;
  r->inputs = &r->input;
  if (!expect(j, cJSON_IsObject(j), path, "an object")) {
    r->malformed = true;
    return;
  }
  check_keys(j, path, keys, 14);
  r->name = get_string(j, "name", path, true);
  parse_inputs(r, j, path);
  r->accumulator.spelling = get_string(j, "accumulator", path, false);
  r->has_accumulator = r->accumulator.spelling != NULL;
  const char *op = get_string(j, "op", path, false);
  if (op) {
    r->op = op_lookup(op);
    if (r->op == OP_NONE) {
      r->op_unknown = true;
      const char *near = suggest(op, op_names + 1, OP_DOT);
      ERR(member_path(path, "op"), "unknown operator '%s'%s (one of: sum prod min max bit_and bit_or bit_xor argmin argmax dot)",
          op, near ? arena_printf(" (did you mean '%s'?)", near) : "");
    }
  }
  r->fold = get_string(j, "fold", path, false);
  r->combine = get_string(j, "combine", path, false);
  const cJSON *id = member(j, "identity");
  if (id)
    r->identity = convert_value(id, member_path(path, "identity"));
  const cJSON *c = member(j, "commutative");
  if (c && expect(c, cJSON_IsBool(c), member_path(path, "commutative"), "true or false"))
    r->commutative = cJSON_IsTrue(c);
  const cJSON *seg = member(j, "segmented");
  if (seg && expect(seg, cJSON_IsBool(seg), member_path(path, "segmented"), "true or false"))
    r->segmented = cJSON_IsTrue(seg);
  const cJSON *nccl = member(j, "nccl");
  if (nccl && expect(nccl, cJSON_IsBool(nccl), member_path(path, "nccl"), "true or false"))
    r->nccl = cJSON_IsTrue(nccl);
  r->params.spelling = get_string(j, "params", path, false);
  r->has_params = r->params.spelling != NULL;
  const cJSON *indexed = member(j, "indexed");
  if (indexed && expect(indexed, cJSON_IsBool(indexed), member_path(path, "indexed"), "true or false"))
    r->indexed = cJSON_IsTrue(indexed);
  const char *offset = get_string(j, "offset_type", path, false);
  if (offset) {
    r->has_offset_type = true;
    if (strcmp(offset, "long long") == 0)
      r->offset = SC_LLONG;
    else if (strcmp(offset, "int") == 0)
      r->offset = SC_INT;
    else
      ERR(member_path(path, "offset_type"), "'%s' is not an offset type (\"long long\" or \"int\")", offset);
  }
}

static void parse_tuning_entry(TuningEntry *e, const cJSON *j, const char *path) {
  static const char *const keys[] = {"block", "items_per_thread", "min_blocks_per_sm"};
  e->key = arena_strdup(j->string);
  e->path = path;
  if (!expect(j, cJSON_IsObject(j), path, "an object with \"block\" and \"items_per_thread\""))
    return;
  check_keys(j, path, keys, 3);
  long v;
  if (get_int(j, "block", path, 32, 1024, &v)) {
    if (v % 32)
      ERR(member_path(path, "block"), "%ld is not a multiple of 32 (the warp size)", v);
    e->tuning.block = (int)v;
  } else if (!member(j, "block")) {
    ERR(member_path(path, "block"), "missing (required)");
  }
  if (get_int(j, "items_per_thread", path, 1, 64, &v))
    e->tuning.items_per_thread = (int)v;
  else if (!member(j, "items_per_thread"))
    ERR(member_path(path, "items_per_thread"), "missing (required)");
  if (get_int(j, "min_blocks_per_sm", path, 1, 32, &v))
    e->tuning.min_blocks_per_sm = (int)v;
}

static void parse_tuning(Spec *s, const cJSON *j) {
  s->default_tuning = (Tuning){256, 16, 0};
  if (!j)
    return;
  if (!expect(j, cJSON_IsObject(j), "tuning", "an object"))
    return;
  int n = cJSON_GetArraySize(j);
  s->tuning_entries = ARENA_ARRAY(TuningEntry, n);
  bool has_default = false;
  for (const cJSON *e = j->child; e; e = e->next) {
    TuningEntry *t = &s->tuning_entries[s->ntuning_entries++];
    parse_tuning_entry(t, e, member_path("tuning", e->string));
    if (strcmp(e->string, "default") == 0) {
      has_default = true;
      s->default_tuning = t->tuning;
    }
  }
  if (!has_default)
    ERR("tuning.default", "missing (required when \"tuning\" is given)");
}

Spec *spec_parse(const char *path, const char *text, size_t len) {
  static const char *const keys[] = {"$schema", "description", "gpugen", "module", "headers",
                                     "include_dirs", "targets", "types", "reductions", "tuning"};
  spec_path = path;
  if (len > LIMIT_SPEC_BYTES) {
    diag_error(path, "the spec is %zu bytes; gpugen reads at most %d (docs/spec.md, Limits)", len, LIMIT_SPEC_BYTES);
    return NULL;
  }
  if (!json_check_strict(path, text, len))
    return NULL;
  /* len + 1: cJSON wants the terminating NUL inside the buffer */
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(text, len + 1, &end, 1);
  if (!root)
    bug("cJSON refused a document that json_check_strict accepted (at byte %td)", (end ? end : text) - text);
  Spec *s = ARENA_NEW(Spec);
  s->path = path;
  if (!cJSON_IsObject(root)) {
    ERR("(top level)", "expected an object, found %s", kind_name(root));
    cJSON_Delete(root);
    return s;
  }
  check_keys(root, "", keys, 10);

  const cJSON *version = member(root, "gpugen");
  if (!version)
    ERR("gpugen", "missing (required): the format version, 1");
  else if (!cJSON_IsNumber(version) || version->valuedouble != 1.0)
    ERR("gpugen", "unsupported format version (this gpugen reads version 1)");

  s->module = get_string(root, "module", "", true);
  s->headers = get_string_array(root, "headers", "", &s->nheaders);
  s->include_dirs = get_string_array(root, "include_dirs", "", &s->ninclude_dirs);

  const cJSON *targets = member(root, "targets");
  if (!targets)
    ERR("targets", "missing (required): the GPU architectures to build for, e.g. [\"sm_80\", \"sm_90\"]");
  const char **names = get_string_array(root, "targets", "", &s->ntargets);
  if (targets && cJSON_IsArray(targets) && cJSON_GetArraySize(targets) == 0)
    ERR("targets", "must list at least one architecture");
  s->targets = ARENA_ARRAY(Target, s->ntargets);
  for (int i = 0; i < s->ntargets; i++)
    s->targets[i].name = names[i];

  const cJSON *types = member(root, "types");
  if (types && expect(types, cJSON_IsArray(types), "types", "an array of types") &&
      within_limit(types, "types", LIMIT_TYPES, "types")) {
    s->ntypes = cJSON_GetArraySize(types);
    s->types = ARENA_ARRAY(Type *, s->ntypes);
    int i = 0;
    for (const cJSON *e = types->child; e; e = e->next, i++)
      s->types[i] = parse_type(e, index_path("types", i));
  }
  const cJSON *reductions = member(root, "reductions");
  if (reductions && expect(reductions, cJSON_IsArray(reductions), "reductions", "an array of reductions") &&
      within_limit(reductions, "reductions", LIMIT_REDUCTIONS, "reductions")) {
    s->nreductions = cJSON_GetArraySize(reductions);
    s->reductions = ARENA_ARRAY(Reduction, s->nreductions);
    int i = 0;
    for (const cJSON *e = reductions->child; e; e = e->next, i++)
      parse_reduction(&s->reductions[i], e, index_path("reductions", i));
  }
  if (!types && !reductions)
    ERR("(top level)", "a spec needs \"types\" or \"reductions\" (or both)");
  parse_tuning(s, member(root, "tuning"));
  cJSON_Delete(root);
  return s;
}
