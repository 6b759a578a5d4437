/* <module>.mk: the nvcc flags the module needs, for make users. */
#include <string.h>
#include "gpugen.h"

void emit_build(const Spec *spec, OutputSet *out) {
  Buf *b = output_add(out, arena_printf("%s.mk", spec->module));
  emit_banner(b, spec, "# ", "# ", "");
  Buf gencode = {0};
  for (int i = 0; i < spec->ntargets; i++) {
    const Target *t = &spec->targets[i];
    const char *arch = arena_printf("%d%s", t->arch, t->suffix ? (char[]){t->suffix, 0} : "");
    buf_printf(&gencode, " -gencode arch=compute_%s,code=sm_%s", arch, arch);
    if (i == spec->ntargets - 1)
      buf_printf(&gencode, " -gencode arch=compute_%s,code=compute_%s", arch, arch);
  }
  Buf includes = {0};
  for (int i = 0; i < spec->ninclude_dirs; i++) {
    const char *d = spec->include_dirs[i];
    const char *abs = d[0] == '/' ? d : arena_printf("%s/%s", spec->dir, d);
    buf_printf(&includes, " -I$(%s_DIR)%s", spec->module, relative_path(out->out_dir, abs));
  }
  const char *kv[] = {"MODULE", spec->module, "GENCODE", gencode.data, "INCLUDES",
                      includes.data ? includes.data : "", NULL};
  template_emit(b, "build.mk.tmpl", "body", kv);
  buf_free(&gencode);
  buf_free(&includes);
}
