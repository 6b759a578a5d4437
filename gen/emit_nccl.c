/* The reductions across GPUs through NCCL ("nccl": true):
 *   <module>.h   #include <nccl.h> and the declarations of M_R_nccl and
 *                M_R_combine_nccl with their temp_bytes;
 *   <module>.cu  the schedule (plain C), NCCL as its transport, and per
 *                reduction the kernels and the host API; and the device
 *                path: M_nccl_window (symmetric memory and NCCL 2.28's
 *                device API) and each reduction's _nccl_window forms.
 * A module without the key gets none of it and never names NCCL. The code
 * is in templates/nccl.cu.tmpl; this file picks the parts. */
#include "gpugen.h"

#define TMPL "nccl.cu.tmpl"

bool spec_uses_nccl(const Spec *spec) {
  for (int i = 0; i < spec->nreductions; i++)
    if (spec->reductions[i].nccl)
      return true;
  return false;
}

void emit_nccl_include(const Spec *spec, Buf *b) {
  if (spec_uses_nccl(spec))
    buf_put(b, "#include <nccl.h> /* \"nccl\": true: the reductions across GPUs */\n");
}

/* <module>.cuh, before <module>.h: NCCL's device API, which the device path uses. */
void emit_nccl_device_includes(const Spec *spec, Buf *b) {
  if (spec_uses_nccl(spec))
    template_emit(b, TMPL, "device_includes", NULL);
}

/* The window every _nccl_window form takes, once per module (M.h). */
void emit_nccl_window_declarations(const Spec *spec, Buf *b) {
  if (!spec_uses_nccl(spec))
    return;
  const char *m = spec->module;
  buf_printf(b, "\n/* The device path across GPUs (docs/emitted.md): a window of symmetric memory on every rank of\n"
                " * comm, made and destroyed by all ranks together, each from its own thread or process. */\n");
  buf_printf(b, "typedef struct %s_nccl_window %s_nccl_window;\n", m, m);
  buf_printf(b, "ncclResult_t %s_nccl_window_create(ncclComm_t comm, size_t bytes, %s_nccl_window **out);\n", m, m);
  buf_printf(b, "ncclResult_t %s_nccl_window_destroy(%s_nccl_window *win);\n", m, m);
}

/* d_params: the reduction's device input parameters as its flat form takes
 * them (one array, or one per entry of an "input" list); params: its
 * ", const P *params" after n, or "". */
void emit_nccl_declarations(const Spec *spec, const Reduction *r, const char *d_params, const char *params, Buf *b) {
  if (!r->nccl)
    return;
  const char *m = spec->module, *acc = type_c_spelling(&r->accumulator);
  buf_printf(b, "/* %s across the GPUs of comm (docs/emitted.md): _nccl reduces rank 0's data, then rank 1's, ...;\n"
                " * _combine_nccl combines the ranks' partials element by element, in rank order. */\n", r->name);
  buf_printf(b, "size_t %s_%s_nccl_temp_bytes(size_t n, int nranks);\n", m, r->name);
  buf_printf(b, "ncclResult_t %s_%s_nccl(%s, size_t n%s, %s *d_out, void *d_temp, size_t temp_bytes,\n"
                "    ncclComm_t comm, cudaStream_t stream);\n", m, r->name, d_params, params, acc);
  buf_printf(b, "size_t %s_%s_combine_nccl_temp_bytes(size_t count, int nranks);\n", m, r->name);
  buf_printf(b, "ncclResult_t %s_%s_combine_nccl(const %s *d_partials, size_t count, %s *d_out, void *d_temp,\n"
                "    size_t temp_bytes, ncclComm_t comm, cudaStream_t stream);\n", m, r->name, acc, acc);
  buf_printf(b, "size_t %s_%s_nccl_window_bytes(size_t n, int nranks);\n", m, r->name);
  buf_printf(b, "ncclResult_t %s_%s_nccl_window(%s, size_t n%s, %s *d_out, %s_nccl_window *win,\n"
                "    cudaStream_t stream);\n", m, r->name, d_params, params, acc, m);
  buf_printf(b, "size_t %s_%s_combine_nccl_window_bytes(size_t count, int nranks);\n", m, r->name);
  buf_printf(b, "ncclResult_t %s_%s_combine_nccl_window(const %s *d_partials, size_t count, %s *d_out,\n"
                "    %s_nccl_window *win, cudaStream_t stream);\n", m, r->name, acc, acc, m);
}

/* The NCCL type and operator that compute r exactly, when its accumulator
 * is an integer scalar under sum, prod, min or max (dot combines by sum) (NCCL's arithmetic wraps
 * as the generated operators do, and is exact in any order); NULL
 * otherwise (user types, floats, bitwise and arg operators take the
 * schedule). */
static const char *nccl_type(const Reduction *r) {
  const TypeRef *a = &r->accumulator;
  bool exact_op = r->op == OP_SUM || r->op == OP_PROD || r->op == OP_MIN || r->op == OP_MAX || r->op == OP_DOT;
  if (!a->is_scalar || !exact_op)
    return NULL;
  const ScalarInfo *si = &scalar_info[a->scalar];
  bool is_signed = si->num == NUM_SIGNED;
  if (si->num != NUM_SIGNED && si->num != NUM_UNSIGNED)
    return NULL;
  switch (si->size) {
  case 1: return is_signed ? "ncclInt8" : "ncclUint8";
  case 4: return is_signed ? "ncclInt32" : "ncclUint32";
  case 8: return is_signed ? "ncclInt64" : "ncclUint64";
  default: return NULL;
  }
}

static const char *nccl_op(OpKind op) {
  return op == OP_SUM || op == OP_DOT ? "ncclSum" : op == OP_PROD ? "ncclProd" : op == OP_MIN ? "ncclMin" : "ncclMax";
}

/* Once per module, before the reductions' parts: the chunks (both paths
 * split a combine's elements with them), the schedule and its transport
 * only when some reduction takes it. */
void emit_nccl_support(const Spec *spec, Buf *b) {
  if (!spec_uses_nccl(spec))
    return;
  template_emit(b, TMPL, "chunks", NULL);
  template_emit(b, TMPL, "common", (const char *[]){"M", spec->module, NULL});
  template_emit(b, TMPL, "window_common", (const char *[]){"M", spec->module, NULL});
  for (int i = 0; i < spec->nreductions; i++)
    if (spec->reductions[i].nccl && !nccl_type(&spec->reductions[i])) {
      template_emit(b, TMPL, "schedule", NULL);
      template_emit(b, TMPL, "transport", (const char *[]){"M", spec->module, NULL});
      break;
    }
}

/* kv: the reduction's keys as emit_reduce_host gives them to
 * reduce.cuh.tmpl; the input side (D_PARAMS, D_ARGS, D_NULL, D_MISALIGNED)
 * covers one array or an "input" list alike. */
void emit_nccl_reduction(const Reduction *r, Buf *b, const char *const *kv) {
  if (!r->nccl)
    return;
  bool arg = r->op == OP_ARGMIN || r->op == OP_ARGMAX;
  const char *type = nccl_type(r);
  int n = 0;
  while (kv[n])
    n++;
  const char *extra[] = {
    "SHIFT", arg ? "  if (a.index >= 0) /* -1: none yet */\n    a.index += (long long)before;\n  return a;\n"
                 : "  (void)before;\n  return a;\n",
    "COUNTED", arg ? "true" : "false",
    "NCCL_TYPE", type ? type : "",
    "NCCL_OP", type ? nccl_op(r->op) : "",
  };
  const int nextra = (int)(sizeof extra / sizeof extra[0]);
  const char **all = arena_alloc(sizeof(char *) * (size_t)(n + nextra + 1)); /* zeroed: NULL-terminated */
  for (int i = 0; i < n; i++)
    all[i] = kv[i];
  for (int i = 0; i < nextra; i++)
    all[n + i] = extra[i];
  template_emit(b, TMPL, "record", all);
  template_emit(b, TMPL, type ? "global_allreduce" : "global_gather", all);
  template_emit(b, TMPL, type ? "combine_allreduce" : "combine_schedule", all);
  template_emit(b, TMPL, "window", all);
}

/* Once per module, after the reductions: making the window, whose record
 * slots fit the largest reduction's record. */
void emit_nccl_window_create(const Spec *spec, Buf *b) {
  if (!spec_uses_nccl(spec))
    return;
  Buf sizes = {0};
  for (int i = 0; i < spec->nreductions; i++)
    if (spec->reductions[i].nccl)
      buf_printf(&sizes, "%ssizeof(%s_%s_nccl_record)", sizes.len ? ", " : "", spec->module,
                 spec->reductions[i].name);
  const char *record_sizes = arena_strdup(sizes.data);
  buf_free(&sizes);
  template_emit(b, TMPL, "window_create", (const char *[]){"M", spec->module, "RECORD_SIZES", record_sizes, NULL});
}
