/* The reductions, for each of the three files that carry them:
 *   <module>.h    C declarations (emit_reduce_declarations)
 *   <module>.cuh  one operator struct per reduction, M_R_warp, M_R_block,
 *                 M_R_identity, and the per-architecture tuning constants
 *   <module>.cu   one kernel per reduction, the host API, the CPU reference
 * The generic machinery (warp/block/device loops) is in
 * templates/reduce.cuh.tmpl; this file writes what differs per reduction. */
#include <stdlib.h>
#include <string.h>
#include "gpugen.h"

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
  case OP_SUM: case OP_BIT_OR: case OP_BIT_XOR:
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

/* Assignments that set `lhs` (of type r) to the builtin identity. */
static void emit_builtin_identity(Buf *b, const char *lhs, const TypeRef *r, OpKind op, const char *indent) {
  if (r->is_scalar) {
    buf_printf(b, "%s%s = %s;\n", indent, lhs, builtin_identity(r->scalar, op));
    return;
  }
  for (int f = 0; f < r->type->nfields; f++) {
    const Field *fd = &r->type->fields[f];
    if (fd->is_array) {
      buf_printf(b, "%sfor (int i = 0; i < %d; ++i) {\n", indent, fd->count);
      emit_builtin_identity(b, arena_printf("%s.%s[i]", lhs, fd->name), &fd->ref, op, arena_printf("%s  ", indent));
      buf_printf(b, "%s}\n", indent);
    } else {
      emit_builtin_identity(b, arena_printf("%s.%s", lhs, fd->name), &fd->ref, op, indent);
    }
  }
}

static void emit_value_identity(Buf *b, const char *lhs, const TypeRef *r, const Value *v, bool is_array,
                                const char *indent) {
  if (is_array) {
    for (int i = 0; i < v->nitems; i++)
      emit_value_identity(b, arena_printf("%s[%d]", lhs, i), r, v->items[i], false, indent);
    return;
  }
  if (r->is_scalar) {
    const ScalarInfo *si = &scalar_info[r->scalar];
    const char *lit;
    if (si->num == NUM_BOOL)
      lit = v->boolean ? "true" : "false";
    else if (si->num == NUM_FLOAT)
      lit = float_literal(r->scalar, v->kind == VAL_STRING ? v->string : NULL, v->number);
    else
      lit = integer_literal(r->scalar, v->kind == VAL_STRING ? strtold(v->string, NULL) : (long double)v->number);
    buf_printf(b, "%s%s = %s;\n", indent, lhs, lit);
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
          buf_printf(b, "  for (int i = 0; i < %d; ++i)\n    r.%s[i] = %s(a.%s[i], b.%s[i]);\n", fd->count, fd->name, h,
                     fd->name, fd->name);
        else
          buf_printf(b, "  r.%s = %s(a.%s, b.%s);\n", fd->name, h, fd->name, fd->name);
      }
      buf_put(b, "  return r;\n}\n");
    }
  }
}

/* ---- <module>.cuh ----------------------------------------------------------- */

static const char *acc_cuda(const Reduction *r) { return type_cuda_spelling(&r->accumulator); }
static const char *in_cuda(const Reduction *r) { return type_cuda_spelling(&r->input); }

static void emit_op_struct(Buf *b, const Reduction *r) {
  const char *space = r->host_reference ? "__host__ __device__" : "__device__";
  const char *what = r->op != OP_NONE ? arena_printf("builtin %s", op_names[r->op])
                                      : arena_printf("%s%s%s", r->fold ? r->fold : "", r->fold ? " then " : "", r->combine);
  buf_printf(b, "\n/* %s: %s over %s into %s, %s%s */\n", r->name, what, in_cuda(r), acc_cuda(r),
             r->commutative ? "commutative" : "ordered (non-commutative)",
             r->host_reference ? "" : "; GPU only (no CPU reference)");
  buf_printf(b, "struct %s_op {\n", r->name);
  buf_printf(b, "  typedef %s input_type;\n  typedef %s acc_type;\n", in_cuda(r), acc_cuda(r));
  buf_printf(b, "  static constexpr bool commutative = %s;\n", r->commutative ? "true" : "false");
  buf_printf(b, "  static %s __forceinline__ acc_type identity() {\n    acc_type r;\n", space);
  if (r->identity)
    emit_value_identity(b, "r", &r->accumulator, r->identity, false, "    ");
  else if (r->op == OP_ARGMIN || r->op == OP_ARGMAX)
    buf_printf(b, "    r.value = %s;\n    r.index = -1; /* none yet */\n", builtin_identity(r->input.scalar, r->op));
  else
    emit_builtin_identity(b, "r", &r->accumulator, r->op, "    ");
  buf_put(b, "    return r;\n  }\n");
  buf_printf(b, "  static %s __forceinline__ acc_type combine(const acc_type &a, const acc_type &b) {\n", space);
  switch (r->op) {
  case OP_NONE:
    buf_printf(b, "    return %s(a, b);\n", r->combine);
    break;
  case OP_ARGMIN: case OP_ARGMAX: {
    /* b wins when it is a real value (not NaN, not the identity) that is
     * better, or equal with a lower index: a total order, so any merge
     * order gives the same {value, index}. */
    const char *better = r->op == OP_ARGMIN ? "less(b.value, a.value)" : "less(a.value, b.value)";
    buf_printf(b, "    bool b_wins = b.index >= 0 && same(b.value, b.value) &&\n"
                  "                  (a.index < 0 || %s || (same(a.value, b.value) && b.index < a.index));\n"
                  "    return b_wins ? b : a;\n", better);
    break;
  }
  default:
    buf_printf(b, "    return %s(a, b);\n", op_helper(r->op));
  }
  buf_put(b, "  }\n");
  buf_printf(b, "  static %s __forceinline__ acc_type fold(const acc_type &a, const input_type &x, size_t index) {\n",
             space);
  if (r->op == OP_ARGMIN || r->op == OP_ARGMAX)
    /* one accumulator sees indices in increasing order, so a strict
     * comparison keeps the lowest index among equal values */
    buf_printf(b, "    if (a.index < 0 ? !same(x, x) : !%s)\n      return a;\n"
                  "    acc_type r;\n    r.value = x;\n    r.index = static_cast<long long>(index);\n    return r;\n",
               r->op == OP_ARGMIN ? "less(x, a.value)" : "less(a.value, x)");
  else if (r->op == OP_NONE && r->fold)
    buf_printf(b, "    (void)index;\n    return %s(a, x);\n", r->fold);
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

void emit_reduce_device(const Spec *spec, Buf *b) {
  if (!spec->nreductions)
    return;
  buf_put(b, "\n/* ---- reductions ---- */\n");
  template_emit(b, "reduce.cuh.tmpl", "machinery", NULL);
  for (int i = 0; i < spec->nreductions; i++)
    if (spec->reductions[i].segmented) {
      template_emit(b, "reduce.cuh.tmpl", "segmented_machinery", NULL);
      break;
    }
  buf_put(b, "\nnamespace detail {\n");
  emit_tuning_constants(b, spec);
  emit_struct_ops(b, spec);
  for (int i = 0; i < spec->nreductions; i++)
    emit_op_struct(b, &spec->reductions[i]);
  buf_put(b, "} // namespace detail\n");
}

/* After the namespace: the pieces for the user's own kernels. */
void emit_reduce_device_api(const Spec *spec, Buf *b) {
  for (int i = 0; i < spec->nreductions; i++) {
    const Reduction *r = &spec->reductions[i];
    const char *m = spec->module, *acc = acc_cuda(r), *op = op_struct(spec, r);
    const char *kv[] = {"M", m, "R", r->name, "ACC", acc, "OP", op, NULL};
    template_emit(b, "reduce.cuh.tmpl", "device_api", kv);
  }
}

/* ---- <module>.h -------------------------------------------------------------- */

/* Segment i is d_in[d_offsets[i], d_offsets[i + 1]); row i is
 * d_in[i * row_length, (i + 1) * row_length). */
static void emit_segmented_declarations(const Spec *spec, const Reduction *r, Buf *b) {
  const char *m = spec->module, *in = type_c_spelling(&r->input), *acc = type_c_spelling(&r->accumulator);
  const char *off = scalar_info[r->offset].c_spelling;
  buf_printf(b, "size_t %s_%s_segmented_temp_bytes(size_t num_segments);\n", m, r->name);
  buf_printf(b, "cudaError_t %s_%s_segmented(const %s *d_in, const %s *d_offsets, size_t num_segments,\n"
                "    %s *d_out, void *d_temp, size_t temp_bytes, cudaStream_t stream);\n", m, r->name, in, off, acc);
  if (r->host_reference)
    buf_printf(b, "void %s_%s_segmented_host(const %s *h_in, const %s *h_offsets, size_t num_segments, %s *h_out);\n",
               m, r->name, in, off, acc);
  buf_printf(b, "size_t %s_%s_rows_temp_bytes(size_t num_rows, size_t row_length);\n", m, r->name);
  buf_printf(b, "cudaError_t %s_%s_rows(const %s *d_in, size_t num_rows, size_t row_length,\n"
                "    %s *d_out, void *d_temp, size_t temp_bytes, cudaStream_t stream);\n", m, r->name, in, acc);
  if (r->host_reference)
    buf_printf(b, "void %s_%s_rows_host(const %s *h_in, size_t num_rows, size_t row_length, %s *h_out);\n", m,
               r->name, in, acc);
}

void emit_reduce_declarations(const Spec *spec, Buf *b) {
  for (int i = 0; i < spec->nreductions; i++) {
    const Reduction *r = &spec->reductions[i];
    const char *m = spec->module, *in = type_c_spelling(&r->input), *acc = type_c_spelling(&r->accumulator);
    buf_printf(b, "\n/* %s: %s of %s into %s%s. */\n", r->name,
               r->op != OP_NONE ? op_names[r->op] : arena_printf("%s%s%s", r->fold ? r->fold : "", r->fold ? "/" : "", r->combine),
               type_cuda_spelling(&r->input), type_cuda_spelling(&r->accumulator),
               r->commutative ? "" : ", in input order");
    buf_printf(b, "size_t %s_%s_temp_bytes(size_t n);\n", m, r->name);
    buf_printf(b, "cudaError_t %s_%s(const %s *d_in, size_t n, %s *d_out, void *d_temp, size_t temp_bytes,\n"
                  "    cudaStream_t stream);\n", m, r->name, in, acc);
    if (r->host_reference)
      buf_printf(b, "%s %s_%s_host(const %s *h_in, size_t n);\n", acc, m, r->name, in);
    if (r->segmented)
      emit_segmented_declarations(spec, r, b);
  }
}

/* ---- <module>.cu -------------------------------------------------------------- */

void emit_reduce_host(const Spec *spec, Buf *b) {
  if (!spec->nreductions)
    return;
  template_emit(b, "reduce.cuh.tmpl", "host_support", (const char *[]){"M", spec->module, NULL});
  for (int i = 0; i < spec->nreductions; i++) {
    const Reduction *r = &spec->reductions[i];
    const ReadPlan p = r->read;
    const char *kv[] = {"M", spec->module, "R", r->name, "IN", in_cuda(r), "ACC", acc_cuda(r),
                        "OP", op_struct(spec, r),
                        "SIZE", arena_printf("%d", p.size),
                        "GROUP", arena_printf("%d", p.group),
                        "VEC", arena_printf("%d", p.vec),
                        "PER_GROUP", arena_printf("%d", p.per_group),
                        "PLAN", p.per_group
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
    template_emit(b, "reduce.cuh.tmpl", "kernel", kv);
    if (r->segmented)
      template_emit(b, "reduce.cuh.tmpl", "segmented", kv);
    if (r->host_reference)
      template_emit(b, "reduce.cuh.tmpl", "host_reference", kv);
    if (r->segmented && r->host_reference)
      template_emit(b, "reduce.cuh.tmpl", "segmented_host_reference", kv);
  }
}
