/* <module>.cu: the host side: the run-time tuning selection, and the
 * reduction kernels with their host API (emit_reduce.c). */
#include <string.h>
#include "gpugen.h"

#define TMPL "host.cu.tmpl"

static const char *tuning_literal(const Tuning *t) {
  return arena_printf("{%d, %d, %d}", t->block, t->items_per_thread, t->min_blocks_per_sm);
}

void emit_host(const Spec *spec, OutputSet *out) {
  Buf *b = output_add(out, arena_printf("%s.cu", spec->module));
  emit_banner(b, spec, "/* ", " * ", " */");
  const char *kv[] = {"MODULE", spec->module, "DEFAULT", tuning_literal(&spec->default_tuning), NULL};
  const size_t before = b->len;
  template_emit(b, TMPL, "prologue", kv);
  /* the prologue's first line includes <module>.cuh */
  const size_t after_headers = (size_t)(strchr(b->data + before, '\n') + 1 - b->data);
  int tuned = 0;
  for (int i = 0; i < spec->ntargets; i++) {
    const Target *t = &spec->targets[i];
    if (!t->tuned)
      continue;
    buf_printf(b, "  {%d, %s}, /* %s */\n", t->arch, tuning_literal(&t->tuning), t->name);
    tuned++;
  }
  if (!tuned) /* C++ has no empty arrays; arch 0 never matches */
    buf_put(b, "  {0, {0, 0, 0}}, /* no per-target tuning in the spec */\n");
  template_emit(b, TMPL, "tuning_for_arch", kv);
  emit_reduce_host(spec, b);
  emit_shield_user_macros(b, spec, after_headers, arena_printf("%s.cu", spec->module));
}
