/* The reductions across GPUs through NCCL ("nccl": true):
 *   <module>.h   #include <nccl.h> and the declarations of M_R_nccl and
 *                M_R_combine_nccl with their temp_bytes;
 *   <module>.cu  the schedule (plain C), NCCL as its transport, and per
 *                reduction the kernels and the host API.
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

void emit_nccl_declarations(const Spec *spec, const Reduction *r, Buf *b) {
  if (!r->nccl)
    return;
  const char *m = spec->module, *in = type_c_spelling(&r->input), *acc = type_c_spelling(&r->accumulator);
  buf_printf(b, "/* Across the ranks of comm (docs/emitted.md): the reduction of rank 0's data, then rank 1's, ...;\n"
                " * the element-wise %s of every rank's partials, in rank order. */\n", r->name);
  buf_printf(b, "size_t %s_%s_nccl_temp_bytes(size_t n, int nranks);\n", m, r->name);
  buf_printf(b, "ncclResult_t %s_%s_nccl(const %s *d_in, size_t n, %s *d_out, void *d_temp, size_t temp_bytes,\n"
                "    ncclComm_t comm, cudaStream_t stream);\n", m, r->name, in, acc);
  buf_printf(b, "size_t %s_%s_combine_nccl_temp_bytes(size_t count, int nranks);\n", m, r->name);
  buf_printf(b, "ncclResult_t %s_%s_combine_nccl(const %s *d_partials, size_t count, %s *d_out, void *d_temp,\n"
                "    size_t temp_bytes, ncclComm_t comm, cudaStream_t stream);\n", m, r->name, acc, acc);
}

/* Once per module, before the reductions' parts. */
void emit_nccl_support(const Spec *spec, Buf *b) {
  if (!spec_uses_nccl(spec))
    return;
  template_emit(b, TMPL, "schedule", NULL);
  template_emit(b, TMPL, "transport", NULL);
}

/* kv: the reduction's keys (M, R, IN, ACC, OP, ...), as emit_reduce_host
 * gives them to reduce.cuh.tmpl. */
void emit_nccl_reduction(const Reduction *r, Buf *b, const char *const *kv) {
  if (!r->nccl)
    return;
  bool arg = r->op == OP_ARGMIN || r->op == OP_ARGMAX;
  int n = 0;
  while (kv[n])
    n++;
  const char **all = arena_alloc(sizeof(char *) * (size_t)(n + 5));
  for (int i = 0; i < n; i++)
    all[i] = kv[i];
  all[n] = "SHIFT";
  all[n + 1] = arg ? "  if (a.index >= 0) /* -1: none yet */\n    a.index += (long long)before;\n  return a;\n"
                   : "  (void)before;\n  return a;\n";
  all[n + 2] = "COUNTED";
  all[n + 3] = arg ? "true" : "false";
  all[n + 4] = NULL;
  template_emit(b, TMPL, "reduction", all);
}
