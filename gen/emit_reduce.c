/* The reductions, for each of the three files that carry them:
 *   <module>.h    C declarations (emit_reduce_declarations)
 *   <module>.cuh  the scalar operations, one operator struct per reduction,
 *                 the warp and block collectives, M_R_warp, M_R_block and
 *                 M_R_identity: what a user's own kernel may call
 *   <module>.cu   the kernel library (loads, tuning, policy, plans, the
 *                 single-pass protocol, agents), then per reduction its
 *                 kernels, dispatch, C API and CPU reference
 * The generic code is in templates/, one file per layer; this file writes
 * what differs per reduction and the order of the layers. */
#include <stdlib.h>
#include <string.h>
#include "gpugen.h"

static bool any_segmented(const Spec *spec) {
  for (int i = 0; i < spec->nreductions; i++)
    if (spec->reductions[i].segmented)
      return true;
  return false;
}

static const char *op_struct(const Spec *spec, const Reduction *r) {
  return arena_printf("%s::detail::%s_op", spec->module, r->name);
}

/* ---- literals --------------------------------------------------------------- */

static const char *integer_literal(ScalarKind k, long double v) {
  const ScalarInfo *si = &scalar_info[k];
  if (si->num == NUM_BOOL)
    return v != 0 ? "true" : "false";
  if (si->num == NUM_UNSIGNED)
    return arena_printf("static_cast<%s>(%lluULL)", si->spelling, (unsigned long long)v);
  if (v == -9223372036854775808.0L)
    return arena_printf("static_cast<%s>(-9223372036854775807LL - 1)", si->spelling);
  return arena_printf("static_cast<%s>(%lldLL)", si->spelling, (long long)v);
}

/* value is "inf", "-inf", "nan" or a number */
static const char *float_literal(ScalarKind k, const char *special, double v) {
  const char *f = special ? (strcmp(special, "inf") == 0 ? "INFINITY" : strcmp(special, "-inf") == 0 ? "-INFINITY" : "NAN")
                          : arena_printf("%a", v);
  switch (k) {
  case SC_FLOAT: return arena_printf("static_cast<float>(%s)", f);
  case SC_DOUBLE: return arena_printf("static_cast<double>(%s)", f);
  case SC_HALF: return arena_printf("__float2half(static_cast<float>(%s))", f);
  case SC_BF16: return arena_printf("__float2bfloat16(static_cast<float>(%s))", f);
  default: bug("not a floating type");
  }
}

/* The identity of a builtin operator for one scalar type. */
static const char *builtin_identity(ScalarKind k, OpKind op) {
  const ScalarInfo *si = &scalar_info[k];
  bool fp = si->num == NUM_FLOAT;
  switch (op) {
  case OP_SUM: case OP_BIT_OR: case OP_BIT_XOR: case OP_DOT:
    return fp ? float_literal(k, NULL, 0.0) : integer_literal(k, 0);
  case OP_PROD:
    return fp ? float_literal(k, NULL, 1.0) : integer_literal(k, 1);
  case OP_BIT_AND:
    return si->num == NUM_BOOL ? "true" : arena_printf("static_cast<%s>(~0ULL)", si->spelling);
  case OP_MIN: case OP_ARGMIN:
    return fp ? float_literal(k, "inf", 0) : integer_literal(k, si->max);
  case OP_MAX: case OP_ARGMAX:
    return fp ? float_literal(k, "-inf", 0) : integer_literal(k, si->min);
  default: bug("no identity for op %d", (int)op);
  }
}

/* Assignments that set `lhs` (of type r) to the builtin identity. An array
 * field is a loop; arrays nest through struct fields, so each level has its
 * own index (i0, i1, ...) and an inner loop never hides an outer one's. */
static void emit_builtin_identity(Buf *b, const char *lhs, const TypeRef *r, OpKind op, const char *indent, int depth) {
  if (r->is_scalar) {
    buf_printf(b, "%s%s = %s;\n", indent, lhs, builtin_identity(r->scalar, op));
    return;
  }
  for (int f = 0; f < r->type->nfields; f++) {
    const Field *fd = &r->type->fields[f];
    if (fd->is_array) {
      buf_printf(b, "%sfor (int i%d = 0; i%d < %d; ++i%d) {\n", indent, depth, depth, fd->count, depth);
      emit_builtin_identity(b, arena_printf("%s.%s[i%d]", lhs, fd->name, depth), &fd->ref, op,
                            arena_printf("%s  ", indent), depth + 1);
      buf_printf(b, "%s}\n", indent);
    } else {
      emit_builtin_identity(b, arena_printf("%s.%s", lhs, fd->name), &fd->ref, op, indent, depth);
    }
  }
}

/* The literal of a scalar identity as the spec gives it. */
static const char *value_literal(ScalarKind k, const Value *v) {
  const ScalarInfo *si = &scalar_info[k];
  if (si->num == NUM_BOOL)
    return v->boolean ? "true" : "false";
  if (si->num == NUM_FLOAT)
    return float_literal(k, v->kind == VAL_STRING ? v->string : NULL, v->number);
  return integer_literal(k, v->kind == VAL_STRING ? strtold(v->string, NULL) : (long double)v->number);
}

static void emit_value_identity(Buf *b, const char *lhs, const TypeRef *r, const Value *v, bool is_array,
                                const char *indent) {
  if (is_array) {
    for (int i = 0; i < v->nitems; i++)
      emit_value_identity(b, arena_printf("%s[%d]", lhs, i), r, v->items[i], false, indent);
    return;
  }
  if (r->is_scalar) {
    buf_printf(b, "%s%s = %s;\n", indent, lhs, value_literal(r->scalar, v));
    return;
  }
  for (int f = 0; f < r->type->nfields; f++) {
    const Field *fd = &r->type->fields[f];
    for (int i = 0; i < v->nitems; i++)
      if (strcmp(v->items[i]->key, fd->name) == 0)
        emit_value_identity(b, arena_printf("%s.%s", lhs, fd->name), &fd->ref, v->items[i], fd->is_array, indent);
  }
}

/* ---- field-by-field builtin operators on structs ---------------------------- */

static const char *op_helper(OpKind op) {
  switch (op) {
  case OP_SUM: return "sum_of";
  case OP_PROD: return "prod_of";
  case OP_MIN: return "min_of";
  case OP_MAX: return "max_of";
  case OP_BIT_AND: return "and_of";
  case OP_BIT_OR: return "or_of";
  case OP_BIT_XOR: return "xor_of";
  default: bug("no helper for op %d", (int)op);
  }
}

/* needed[type order][op]: which struct overloads the builtin reductions use */
static void mark_needed(bool (*needed)[OP_ARGMAX + 1], const TypeRef *r, OpKind op) {
  if (r->is_scalar || needed[r->type->order][op])
    return;
  needed[r->type->order][op] = true;
  for (int f = 0; f < r->type->nfields; f++)
    mark_needed(needed, &r->type->fields[f].ref, op);
}

static void emit_struct_ops(Buf *b, const Spec *spec) {
  bool (*needed)[OP_ARGMAX + 1] = arena_alloc(sizeof(bool[OP_ARGMAX + 1]) * (size_t)(spec->ntypes + 1));
  for (int i = 0; i < spec->nreductions; i++) {
    const Reduction *r = &spec->reductions[i];
    if (r->op != OP_NONE && r->op != OP_ARGMIN && r->op != OP_ARGMAX)
      mark_needed(needed, &r->accumulator, r->op);
  }
  for (int i = 0; i < spec->ntypes; i++) {
    const Type *t = spec->types_ordered[i];
    for (int op = OP_SUM; op <= OP_BIT_XOR; op++) {
      if (!needed[t->order][op])
        continue;
      const char *h = op_helper((OpKind)op);
      buf_printf(b, "/* %s of %s, field by field */\n", op_names[op], t->name);
      buf_printf(b, "__host__ __device__ __forceinline__ %s %s(const %s &a, const %s &b) {\n  %s r;\n", t->name, h,
                 t->name, t->name, t->name);
      for (int f = 0; f < t->nfields; f++) {
        const Field *fd = &t->fields[f];
        if (fd->is_array)
          buf_printf(b, "  for (int i = 0; i < %d; ++i)\n    r.%s[i] = detail::%s(a.%s[i], b.%s[i]);\n", fd->count, fd->name, h,
                     fd->name, fd->name);
        else
          buf_printf(b, "  r.%s = detail::%s(a.%s, b.%s);\n", fd->name, h, fd->name, fd->name);
      }
      buf_put(b, "  return r;\n}\n");
    }
  }
}

/* ---- <module>.cuh ----------------------------------------------------------- */

static const char *acc_cuda(const Reduction *r) { return type_cuda_spelling(&r->accumulator); }
static const char *in_cuda(const Reduction *r) { return type_cuda_spelling(&r->input); }

/* "float", or "(float, double)" for an "input" list */
static const char *inputs_cuda(const Reduction *r) {
  if (r->ninputs == 1)
    return in_cuda(r);
  const char *s = "(";
  for (int i = 0; i < r->ninputs; i++)
    s = arena_printf("%s%s%s", s, i ? ", " : "", type_cuda_spelling(&r->inputs[i]));
  return arena_printf("%s)", s);
}

/* Joins pattern over the inputs, with sep between: in the pattern, '#'
 * stands for the array's number and '@' for its type. */
static const char *each_input(const Reduction *r, const char *pattern, const char *sep, bool c_types) {
  Buf out = {0};
  for (int i = 0; i < r->ninputs; i++) {
    const char *t = c_types ? type_c_spelling(&r->inputs[i]) : type_cuda_spelling(&r->inputs[i]);
    buf_put(&out, i ? sep : "");
    for (const char *p = pattern; *p; p++)
      if (*p == '#')
        buf_printf(&out, "%d", i);
      else if (*p == '@')
        buf_put(&out, t);
      else
        buf_putn(&out, p, 1);
  }
  const char *s = arena_strdup(out.data ? out.data : "");
  buf_free(&out);
  return s;
}

/* Whether the template's loops reach the input through the op's source
 * struct (an "input" list, or run-time "params" that travel with the
 * pointers) rather than through a plain pointer. */
static bool uses_source(const Reduction *r) { return r->ninputs > 1 || r->has_params; }

/* The op's input_type (one element of each array, and the call's params)
 * and source (the arrays' pointers, advanced together, and the params),
 * with the read primitives the template's loops call on a source. The
 * params ride along with every element so that fold receives them without
 * a new argument through the machinery; they are kernel arguments, and
 * every copy is the same value, which the compiler keeps once. */
static void emit_input_structs(Buf *b, const Reduction *r) {
  const char *params = r->has_params ? arena_printf("    %s params;\n", type_cuda_spelling(&r->params)) : "";
  buf_printf(b, "  /* one element of each array%s */\n  struct input_type {\n", r->has_params ? ", and the params" : "");
  buf_put(b, each_input(r, "    @ x#;\n", "", false));
  buf_printf(b, "%s  };\n  /* the arrays, advanced together%s */\n  struct source {\n", params,
             r->has_params ? ", and the params" : "");
  buf_put(b, each_input(r, "    const @ *p#;\n", "", false));
  buf_put(b, params);
  buf_printf(b, "    __host__ __device__ __forceinline__ source operator+(size_t k) const { return {%s%s}; }\n",
             each_input(r, "p# + k", ", ", false), r->has_params ? ", params" : "");
  buf_put(b, "  };\n");
  /* what the strategies size their work by: the arrays' bytes per element */
  buf_printf(b, "  static constexpr size_t element_bytes = %s;\n",
             r->has_params ? each_input(r, "sizeof(@)", " + ", false) : "sizeof(input_type)");
}

static void emit_input_loads(Buf *b, const Spec *spec, const Reduction *r) {
  const char *op = arena_printf("%s_op", r->name);
  buf_printf(b, "/* %s's arrays in the read loops: element by element, as vector groups (each array's part of a\n"
                " * group in its own 16-byte loads), and the one 16-byte head that suits every array. */\n", r->name);
  const char *with_params = r->has_params ? ", in.params" : "";
  buf_printf(b, "__device__ __forceinline__ %s::input_type ldg(const %s::source &in) {\n  return {%s%s};\n}\n", op, op,
             each_input(r, arena_printf("%s::ldg(in.p#)", spec->module), ", ", false), with_params);
  buf_printf(b, "template <class T, int U, int VEC, bool VECTOR, int PREFETCH = 0>\n"
                "__device__ __forceinline__ void load_group(const %s::source &in, size_t g, T (&x)[VECTOR ? U : 1]) {\n"
                "  if constexpr (VECTOR) {\n", op);
  for (int i = 0; i < r->ninputs; i++) {
    const char *t = type_cuda_spelling(&r->inputs[i]);
    buf_printf(b, "    %s x%d[U];\n    detail::load_group<%s, U, U * sizeof(%s) / 16, true, PREFETCH>(in.p%d, g, x%d);\n", t, i,
               t, t, i, i);
  }
  buf_printf(b, "#pragma unroll\n    for (int u = 0; u < U; ++u)\n      x[u] = {%s%s};\n", each_input(r, "x#[u]", ", ", false),
             with_params);
  buf_put(b, "  } else {\n    x[0] = detail::ldg(in + g);\n  }\n}\n");
  buf_printf(b, "__host__ __device__ __forceinline__ bool vector_head(const %s::source &in, size_t size, size_t n, "
                "size_t *head) {\n  (void)size;\n", op);
  buf_printf(b, "  const void *const p[] = {%s};\n", each_input(r, "in.p#", ", ", false));
  buf_printf(b, "  const size_t bytes[] = {%s};\n", each_input(r, "sizeof(@)", ", ", false));
  buf_put(b, "  return detail::vector_head_all(p, bytes, n, head);\n}\n");
}

static void emit_op_struct(Buf *b, const Reduction *r) {
  const char *space = r->host_reference ? "__host__ __device__" : "__device__";
  const char *what = r->op != OP_NONE ? arena_printf("builtin %s", op_names[r->op])
                                      : arena_printf("%s%s%s", r->fold ? r->fold : "", r->fold ? " then " : "", r->combine);
  buf_printf(b, "\n/* %s: %s over %s into %s, %s%s%s%s */\n", r->name, what, inputs_cuda(r), acc_cuda(r),
             r->commutative ? "commutative" : "ordered (non-commutative)", r->indexed ? ", indexed" : "",
             r->has_params ? arena_printf(", params %s", type_cuda_spelling(&r->params)) : "",
             r->host_reference ? "" : "; GPU only (no CPU reference)");
  buf_printf(b, "struct %s_op {\n", r->name);
  if (uses_source(r)) {
    emit_input_structs(b, r);
    buf_printf(b, "  typedef %s acc_type;\n", acc_cuda(r));
  } else {
    buf_printf(b, "  typedef %s input_type;\n  typedef %s acc_type;\n", in_cuda(r), acc_cuda(r));
  }
  buf_printf(b, "  static constexpr bool commutative = %s;\n", r->commutative ? "true" : "false");
  buf_printf(b, "  static constexpr bool packs_in_ticket = %s\n",
             r->packs_in_ticket ? "true; /* an integer sum of up to 32 bits: merged in the ticket's atomic */"
                                : "false;");
  buf_printf(b, "  static %s __forceinline__ acc_type identity() {\n", space);
  if (r->accumulator.is_scalar && r->op != OP_ARGMIN && r->op != OP_ARGMAX) {
    const ScalarKind k = r->accumulator.scalar;
    buf_printf(b, "    return %s;\n  }\n", r->identity ? value_literal(k, r->identity) : builtin_identity(k, r->op));
  } else {
    buf_put(b, "    acc_type r;\n");
    if (r->identity)
      emit_value_identity(b, "r", &r->accumulator, r->identity, false, "    ");
    else if (r->op == OP_ARGMIN || r->op == OP_ARGMAX)
      buf_printf(b, "    r.value = %s;\n    r.index = -1; /* none yet */\n", builtin_identity(r->input.scalar, r->op));
    else
      emit_builtin_identity(b, "r", &r->accumulator, r->op, "    ", 0);
    buf_put(b, "    return r;\n  }\n");
  }
  buf_printf(b, "  static %s __forceinline__ acc_type combine(const acc_type &a, const acc_type &b) {\n", space);
  switch (r->op) {
  case OP_NONE:
    buf_printf(b, "    return ::%s(a, b);\n", r->combine);
    break;
  case OP_ARGMIN: case OP_ARGMAX: {
    /* b wins when it is a real value (not NaN, not the identity) that is
     * better, or equal with a lower index: a total order, so any merge
     * order gives the same {value, index}. */
    const char *better = r->op == OP_ARGMIN ? "detail::less(b.value, a.value)" : "detail::less(a.value, b.value)";
    buf_printf(b, "    bool b_wins = b.index >= 0 && detail::same(b.value, b.value) &&\n"
                  "                  (a.index < 0 || %s || (detail::same(a.value, b.value) && b.index < a.index));\n"
                  "    return b_wins ? b : a;\n", better);
    break;
  }
  case OP_DOT:
    buf_put(b, "    return detail::sum_of(a, b);\n");
    break;
  default:
    buf_printf(b, "    return detail::%s(a, b);\n", op_helper(r->op));
  }
  buf_put(b, "  }\n");
  buf_printf(b, "  static %s __forceinline__ acc_type fold(const acc_type &a, const input_type &x, size_t index) {\n",
             space);
  if (r->op == OP_ARGMIN || r->op == OP_ARGMAX)
    /* one accumulator sees indices in increasing order, so a strict
     * comparison keeps the lowest index among equal values */
    buf_printf(b, "    if (a.index < 0 ? !detail::same(x, x) : !%s)\n      return a;\n"
                  "    acc_type r;\n    r.value = x;\n    r.index = static_cast<long long>(index);\n    return r;\n",
               r->op == OP_ARGMIN ? "detail::less(x, a.value)" : "detail::less(a.value, x)");
  else if (r->op == OP_DOT)
    buf_put(b, "    (void)index;\n    return detail::sum_of(a, detail::prod_of(static_cast<acc_type>(x.x0), static_cast<acc_type>(x.x1)));\n");
  else if (r->op == OP_NONE && r->fold)
    /* fold(acc, inputs..., [index], [params]) */
    buf_printf(b, "%s    return ::%s(a, %s%s%s);\n", r->indexed ? "" : "    (void)index;\n", r->fold,
               uses_source(r) ? each_input(r, "x.x#", ", ", false) : "x",
               r->indexed ? ", static_cast<long long>(index)" : "", r->has_params ? ", x.params" : "");
  else if (r->op == OP_NONE)
    buf_put(b, "    (void)index;\n    return combine(a, x);\n");
  else if (!r->input.is_scalar && r->input.type != r->accumulator.type) {
    /* a CUDA vector into a wider one (uchar3 into uint3): component-wise */
    buf_put(b, "    (void)index;\n    acc_type w;\n");
    const Type *acc = r->accumulator.type;
    for (int f = 0; f < acc->nfields; f++)
      buf_printf(b, "    w.%s = static_cast<%s>(x.%s);\n", acc->fields[f].name,
                 type_cuda_spelling(&acc->fields[f].ref), acc->fields[f].name);
    buf_put(b, "    return combine(a, w);\n");
  } else
    buf_put(b, "    (void)index;\n    return combine(a, static_cast<acc_type>(x));\n");
  buf_put(b, "  }\n};\n");
}

/* The spec's tuning as compile-time constants: the same rule as
 * M_tuning_for_arch, on __CUDA_ARCH__. */
static void emit_tuning_constants(Buf *b, const Spec *spec) {
  buf_put(b, "\n/* Tuning of the architecture being compiled (the spec's \"tuning\", same rule as the host's). */\n");
  const char *kw = "#if";
  for (int i = spec->ntargets - 1; i >= 0; i--) {
    const Target *t = &spec->targets[i];
    if (!t->tuned)
      continue;
    buf_printf(b, "%s defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= %d /* %s */\n", kw, t->arch * 10, t->name);
    buf_printf(b, "constexpr int tuned_block = %d, tuned_items = %d, tuned_min_blocks = %d;\n", t->tuning.block,
               t->tuning.items_per_thread, t->tuning.min_blocks_per_sm ? t->tuning.min_blocks_per_sm : 1);
    kw = "#elif";
  }
  if (strcmp(kw, "#elif") == 0)
    buf_put(b, "#else\n");
  buf_printf(b, "constexpr int tuned_block = %d, tuned_items = %d, tuned_min_blocks = %d;\n", spec->default_tuning.block,
             spec->default_tuning.items_per_thread,
             spec->default_tuning.min_blocks_per_sm ? spec->default_tuning.min_blocks_per_sm : 1);
  if (strcmp(kw, "#elif") == 0)
    buf_put(b, "#endif\n");
}

/* <module>.cuh, inside namespace M: what a user's own kernel may call
 * beside the per-type helpers. Each layer calls only those before it: the
 * scalar operations, each reduction's operators, the warp and block
 * collectives beneath M_R_warp and M_R_block. */
void emit_reduce_device(const Spec *spec, Buf *b) {
  if (!spec->nreductions)
    return;
  buf_put(b, "\n/* ---- reductions: operators and collectives ---- */\n");
  const char *kv[] = {"M", spec->module, NULL};
  buf_put(b, "namespace detail {\n\n");
  template_emit(b, "ops.cuh.tmpl", "ops", kv);
  emit_struct_ops(b, spec);
  for (int i = 0; i < spec->nreductions; i++)
    emit_op_struct(b, &spec->reductions[i]);
  buf_put(b, "\n");
  template_emit(b, "collectives.cuh.tmpl", "collectives", kv);
  buf_put(b, "\n} // namespace detail\n");
}

/* After the namespace: the pieces for the user's own kernels. */
void emit_reduce_device_api(const Spec *spec, Buf *b) {
  if (spec->nreductions)
    template_emit(b, "collectives.cuh.tmpl", "device_api_forms", NULL);
  for (int i = 0; i < spec->nreductions; i++) {
    const Reduction *r = &spec->reductions[i];
    const char *m = spec->module, *acc = acc_cuda(r), *op = op_struct(spec, r);
    const char *kv[] = {"M", m, "R", r->name, "ACC", acc, "OP", op, NULL};
    template_emit(b, "collectives.cuh.tmpl", "device_api", kv);
  }
}

/* <module>.cu, before the reductions' kernels: the private layers, each
 * calling only those before it (docs/emitted.md, "How the files are laid
 * out"): the tuning, per-thread loads, the policy, plans, the single-pass
 * protocol, then one agent per family. */
static void emit_kernel_library(const Spec *spec, Buf *b) {
  const char *kv[] = {"M", spec->module, "SM_LIMITS", target_sm_limits_cpp(), "MAX_GRID",
                      arena_printf("%u", kernel_max_grid), "ROW_FORMS", row_forms_enumerators(), NULL};
  buf_printf(b, "\n/* ---- the kernel library: loads, policy, plans, the single-pass protocol, agents ---- */\n"
                "namespace %s {\n\nnamespace detail {\n", spec->module);
  emit_tuning_constants(b, spec);
  buf_put(b, "} // namespace detail\n");
  template_emit(b, "thread_loads.cuh.tmpl", "thread_loads", kv);
  bool any_source = false;
  for (int i = 0; i < spec->nreductions; i++)
    any_source |= uses_source(&spec->reductions[i]);
  if (any_source) {
    buf_put(b, "\nnamespace detail {\n");
    for (int i = 0; i < spec->nreductions; i++)
      if (uses_source(&spec->reductions[i]))
        emit_input_loads(b, spec, &spec->reductions[i]);
    buf_put(b, "} // namespace detail\n");
  }
  template_emit(b, "policy.cuh.tmpl", "policy", kv);
  if (any_segmented(spec))
    template_emit(b, "policy.cuh.tmpl", "segmented_policy", kv);
  template_emit(b, "plans.cuh.tmpl", "plans", kv);
  if (any_segmented(spec))
    template_emit(b, "plans.cuh.tmpl", "segmented_plans", kv);
  template_emit(b, "collectives.cuh.tmpl", "kernel_collectives", kv);
  template_emit(b, "single_pass.cuh.tmpl", "single_pass", kv);
  template_emit(b, "agent_flat.cuh.tmpl", "agent_flat", kv);
  if (any_segmented(spec)) {
    template_emit(b, "segment_pieces.cuh.tmpl", "segment_pieces", kv);
    template_emit(b, "agent_segments.cuh.tmpl", "agent_segments", kv);
    template_emit(b, "agent_rows.cuh.tmpl", "agent_rows", kv);
  }
  buf_printf(b, "\n} // namespace %s\n", spec->module);
  template_emit(b, "dispatch.cu.tmpl", "support", kv);
  template_emit(b, "single_pass.cuh.tmpl", "host", kv);
}

/* ---- <module>.h -------------------------------------------------------------- */

/* Segment i is d_in[d_offsets[i], d_offsets[i + 1]); row i is
 * d_in[i * row_length, (i + 1) * row_length). */
/* The input parameters: "const T *d_in", or "const T0 *d_in0, const T1 *d_in1, ..." for an "input" list. */
static const char *input_params(const Reduction *r, const char *prefix, bool c_types) {
  if (r->ninputs == 1)
    return arena_printf("const %s *%s_in", c_types ? type_c_spelling(&r->input) : in_cuda(r), prefix);
  return each_input(r, arena_printf("const @ *%s_in#", prefix), ", ", c_types);
}

/* ", const P *params" after the sizes when the reduction has "params", else "". */
static const char *params_param(const Reduction *r, bool c_types) {
  if (!r->has_params)
    return "";
  return arena_printf(", const %s *params", c_types ? type_c_spelling(&r->params) : type_cuda_spelling(&r->params));
}

static void emit_segmented_declarations(const Spec *spec, const Reduction *r, Buf *b) {
  const char *m = spec->module, *acc = type_c_spelling(&r->accumulator);
  const char *d_in = input_params(r, "d", true), *h_in = input_params(r, "h", true);
  const char *off = scalar_info[r->offset].c_spelling, *params = params_param(r, true);
  buf_printf(b, "size_t %s_%s_segmented_temp_bytes(size_t num_segments);\n", m, r->name);
  buf_printf(b, "cudaError_t %s_%s_segmented(%s, const %s *d_offsets, size_t num_segments%s,\n"
                "    %s *d_out, void *d_temp, size_t temp_bytes, cudaStream_t stream);\n", m, r->name, d_in, off, params,
             acc);
  if (r->host_reference)
    buf_printf(b, "void %s_%s_segmented_host(%s, const %s *h_offsets, size_t num_segments%s, %s *h_out);\n",
               m, r->name, h_in, off, params, acc);
  buf_printf(b, "size_t %s_%s_rows_temp_bytes(size_t num_rows, size_t row_length);\n", m, r->name);
  buf_printf(b, "cudaError_t %s_%s_rows(%s, size_t num_rows, size_t row_length%s,\n"
                "    %s *d_out, void *d_temp, size_t temp_bytes, cudaStream_t stream);\n", m, r->name, d_in, params, acc);
  if (r->host_reference)
    buf_printf(b, "void %s_%s_rows_host(%s, size_t num_rows, size_t row_length%s, %s *h_out);\n", m,
               r->name, h_in, params, acc);
}

void emit_reduce_declarations(const Spec *spec, Buf *b) {
  emit_nccl_window_declarations(spec, b);
  for (int i = 0; i < spec->nreductions; i++) {
    const Reduction *r = &spec->reductions[i];
    const char *m = spec->module, *acc = type_c_spelling(&r->accumulator);
    const char *params = params_param(r, true);
    buf_printf(b, "\n/* %s: %s of %s into %s%s%s. */\n", r->name,
               r->op != OP_NONE ? op_names[r->op] : arena_printf("%s%s%s", r->fold ? r->fold : "", r->fold ? "/" : "", r->combine),
               inputs_cuda(r), type_cuda_spelling(&r->accumulator),
               r->commutative ? "" : ", in input order",
               r->indexed && r->has_params ? ", fold sees each element's index and *params (read at each call)"
               : r->indexed                ? ", fold sees each element's index"
               : r->has_params             ? ", fold sees *params (read at each call)"
                                           : "");
    buf_printf(b, "size_t %s_%s_temp_bytes(size_t n);\n", m, r->name);
    buf_printf(b, "cudaError_t %s_%s(%s, size_t n%s, %s *d_out, void *d_temp, size_t temp_bytes,\n"
                  "    cudaStream_t stream);\n", m, r->name, input_params(r, "d", true), params, acc);
    if (r->host_reference && r->host_through_pointer)
      buf_printf(b, "void %s_%s_host(%s, size_t n%s, %s *h_out);\n", m, r->name, input_params(r, "h", true), params,
                 acc);
    else if (r->host_reference)
      buf_printf(b, "%s %s_%s_host(%s, size_t n%s);\n", acc, m, r->name, input_params(r, "h", true), params);
    if (r->segmented)
      emit_segmented_declarations(spec, r, b);
    emit_nccl_declarations(spec, r, input_params(r, "d", true), params, b);
  }
}

/* ---- <module>.cu -------------------------------------------------------------- */

/* The kernel comment's read plan for an "input" list. */
static const char *read_plan_several(const Reduction *r) {
  const ReadPlan p = r->read;
  if (!p.per_group)
    return arena_printf("%d arrays, element by element with ldg (a group of whole elements of each array in 16-byte "
                        "words would take more than 64 bytes of one array)", r->ninputs);
  return arena_printf("%d arrays, read as groups of %d elements of each (%d x 16-byte loads in all) after a head of at "
                      "most 15 elements that puts every array on a 16-byte boundary, or element by element with ldg "
                      "when the arrays have no such common head", r->ninputs, p.per_group, p.vec);
}

void emit_reduce_host(const Spec *spec, Buf *b) {
  if (!spec->nreductions)
    return;
  emit_kernel_library(spec, b);
  emit_nccl_support(spec, b);
  for (int i = 0; i < spec->nreductions; i++) {
    const Reduction *r = &spec->reductions[i];
    const ReadPlan p = r->read;
    const char *op = op_struct(spec, r);
    const bool one = r->ninputs == 1, plain = !uses_source(r);
    /* the params are read once, on the host, and travel by value in the source */
    const char *with_params = r->has_params ? ", *params" : "";
    const char *d_args = one ? "d_in" : each_input(r, "d_in#", ", ", false);
    const char *h_elements = one ? "h_in[i]" : each_input(r, "h_in#[i]", ", ", false);
    const char *kv[] = {"M", spec->module, "R", r->name, "ACC", acc_cuda(r),
                        "OP", op,
                        "IN_ARG", plain ? arena_printf("const %s *in", in_cuda(r)) : arena_printf("%s::source in", op),
                        "P_PARAM", params_param(r, false),
                        "P_ARG", r->has_params ? ", params" : "",
                        "P_INVALID", r->has_params ? arena_printf(" || !params || (uintptr_t)params %% alignof(%s) != 0",
                                                                  type_cuda_spelling(&r->params))
                                                   : "",
                        "D_PARAMS", input_params(r, "d", false),
                        "D_NULL", one ? "!d_in" : arena_printf("(%s)", each_input(r, "!d_in#", " || ", false)),
                        "D_MISALIGNED", one ? arena_printf("(uintptr_t)d_in %% alignof(%s) != 0", in_cuda(r))
                                            : each_input(r, "(uintptr_t)d_in# % alignof(@) != 0", " || ", false),
                        "D_ARGS", d_args,
                        "D_SOURCE", plain ? "d_in"
                                          : arena_printf("%s::source{%s%s}", op, d_args, with_params),
                        "H_PARAMS", input_params(r, "h", false),
                        "H_ELEMENT", plain ? "h_in[i]"
                                           : arena_printf("%s::input_type{%s%s}", op, h_elements, with_params),
                        "H_ARGS", one ? "h_in" : each_input(r, "h_in#", ", ", false),
                        "H_AT_BEGIN", one ? "h_in + begin" : each_input(r, "h_in# + begin", ", ", false),
                        "H_AT_ROW", one ? "h_in + r * row_length" : each_input(r, "h_in# + r * row_length", ", ", false),
                        "SIZE", plain ? arena_printf("%d", p.size) : arena_printf("%s::element_bytes", op),
                        "GROUP", arena_printf("%d", p.group),
                        "VEC", arena_printf("%d", p.vec),
                        "PER_GROUP", arena_printf("%d", p.per_group),
                        "PLAN", !one ? read_plan_several(r)
                                : p.per_group
                                    ? arena_printf("%d-byte elements are read as groups of %d in %d x 16-byte loads "
                                                   "(after a head of at most 15 elements peeled to a 16-byte boundary), "
                                                   "or element by element with ldg when the input cannot be aligned",
                                                   p.size, p.per_group, p.vec)
                                    : arena_printf("%d-byte elements are read element by element with ldg (a group "
                                                   "of whole elements in 16-byte words would take %d bytes of registers)",
                                                   p.size, p.group),
                        "OFF", scalar_info[r->offset].spelling,
                        "ORDER", r->commutative ? "commutative: each lane keeps K accumulators (independent chains)"
                                                : "ordered: lanes take consecutive groups and every merge keeps input order",
                        NULL};
    /* and each kernel's name, from gen's table (kernels.c) */
    const int fixed = (int)(sizeof kv / sizeof kv[0]) - 1;
    const char **all = ARENA_ARRAY(const char *, fixed + 2 * kernel_name_count + 1);
    memcpy(all, kv, sizeof(const char *) * (size_t)fixed);
    for (int k = 0; k < kernel_name_count; k++) {
      all[fixed + 2 * k] = kernel_names[k].placeholder;
      all[fixed + 2 * k + 1] = arena_printf("%s_%s%s", spec->module, r->name, kernel_names[k].suffix);
    }
    all[fixed + 2 * kernel_name_count] = NULL;
    template_emit(b, "kernels.cu.tmpl", "flat", all);
    template_emit(b, "dispatch.cu.tmpl", "flat", all);
    template_emit(b, "api.cu.tmpl", "flat", all);
    if (r->segmented) {
      template_emit(b, "kernels.cu.tmpl", "segmented", all);
      template_emit(b, "dispatch.cu.tmpl", "segmented", all);
      template_emit(b, "api.cu.tmpl", "segmented", all);
    }
    if (r->host_reference) {
      template_emit(b, "api.cu.tmpl", "flat_reference", all);
      template_emit(b, "api.cu.tmpl", r->host_through_pointer ? "host_through_pointer" : "host_by_value", all);
    }
    if (r->segmented && r->host_reference)
      template_emit(b, "api.cu.tmpl", "segmented_reference", all);
    emit_nccl_reduction(r, b, all);
  }
  emit_nccl_window_create(spec, b);
}
