/* <module>.mk: the nvcc flags the module needs and the rules that
 * regenerate and compile it, for make users. */
#include <string.h>
#include "gpugen.h"

/* A path as a make variable holds it, usable both in rules and as a shell
 * word in recipes: a space becomes "\ " and '#' "\#". Characters that make
 * or the shell would read as syntax cannot be carried; NULL then. */
static const char *make_word(const char *path) {
  Buf b = {0};
  bool ok = true;
  for (const char *p = path; *p && ok; p++) {
    unsigned char c = (unsigned char)*p;
    if (c == ' ' || c == '#')
      buf_put(&b, "\\");
    ok = c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         strchr("/._+-,=@~ #", c);
    buf_putn(&b, p, 1);
  }
  const char *word = ok ? arena_strdup(b.data ? b.data : "") : NULL;
  buf_free(&b);
  return word;
}

static const char *checked_word(const Spec *spec, const char *what, const char *path) {
  const char *word = make_word(path);
  if (!word)
    diag_error(spec->path, "%s '%s' has a character that a Make fragment cannot carry (only letters, digits, "
               "spaces and /._+-,=@~# can be); move or rename it", what, path);
  return word ? word : "";
}

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
  /* The generated files include the headers by their spelling in the spec,
   * so the spec's directory goes on the include path, then include_dirs. */
  Buf includes = {0};
  if (spec->nheaders)
    buf_printf(&includes, " -I$(%s_SPEC_DIR).", spec->module);
  for (int i = 0; i < spec->ninclude_dirs; i++) {
    const char *d = spec->include_dirs[i];
    if (d[0] == '/')
      buf_printf(&includes, " -I%s", checked_word(spec, "include_dirs entry", d));
    else
      buf_printf(&includes, " -I$(%s_SPEC_DIR)%s", spec->module, checked_word(spec, "include_dirs entry", d));
  }
  const char *dir = spec->dir;
  const char *slash = strrchr(spec->path, '/');
  const char *kv[] = {"MODULE", spec->module, "GENCODE", gencode.data, "INCLUDES", includes.data ? includes.data : "",
                      "SPEC_DIR", checked_word(spec, "the spec's directory", strcmp(dir, "/") ? arena_printf("%s/", dir) : dir),
                      "SPEC_NAME", checked_word(spec, "the spec's file name", slash ? slash + 1 : spec->path), NULL};
  template_emit(b, "build.mk.tmpl", "body", kv);
  if (spec_uses_nccl(spec))
    template_emit(b, "build.mk.tmpl", "nccl", kv);
  buf_free(&gencode);
  buf_free(&includes);
}
