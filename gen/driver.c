/* The pipeline as a library call: spec bytes -> checked model -> files.
 * main.c, the fuzzer and the tests all run gpugen through here. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <string.h>
#include "gpugen.h"

int gpugen_generate(const GenOptions *o) {
  size_t len = o->spec_len;
  /* spec_parse reads one byte past the text: the NUL that read_file adds */
  const char *text = o->spec_text ? arena_strndup(o->spec_text, len) : NULL;
  if (!text) {
    const char *why;
    char *read = read_file(o->spec_path, LIMIT_SPEC_BYTES, &len, &why);
    if (!read) {
      diag_error(o->spec_path, "cannot read the spec: %s", why);
      return 1;
    }
    text = read;
  }
  /* Each stage runs only on what the stages before it accepted: a shape
   * error (a missing name, a number where a string belongs) stops before
   * check.c, whose checks may then rely on every field being there. */
  Spec *spec = spec_parse(o->spec_path, text, len);
  if (!spec || diag_count())
    return 1;
  spec->dir = dir_name(absolute_path(o->spec_path));

  int archs[64];
  int narchs;
  if (o->archs) {
    narchs = o->narchs;
    memcpy(archs, o->archs, sizeof(int) * (size_t)narchs);
  } else {
    const char *why = NULL;
    narchs = nvcc_supported_archs(archs, 64, &why);
    if (narchs < 0)
      diag_error(o->spec_path, "cannot check \"targets\": %s", why);
  }
  spec_check(spec, archs, narchs);
  if (diag_count())
    return 1;
  layout_spec(spec);
  if (diag_count())
    return 1;
  if (!o->skip_headers) {
    ClangOptions clang = {ARENA_ARRAY(const char *, spec->ninclude_dirs), spec->ninclude_dirs, cuda_include_dir()};
    for (int i = 0; i < spec->ninclude_dirs; i++) {
      const char *d = spec->include_dirs[i];
      clang.include_dirs[i] = d[0] == '/' ? d : arena_printf("%s/%s", spec->dir, d);
    }
    clang_check_spec(spec, &clang);
    if (diag_count())
      return 1;
  }

  OutputSet set = {.out_dir = absolute_path(o->out_dir)};
  emit_header(spec, &set);
  emit_device(spec, &set);
  emit_host(spec, &set);
  emit_build(spec, &set);
  output_add_stamp(&set, arena_printf("%s.stamp", spec->module));
  /* no output may overwrite an input, whatever path leads to it */
  output_protect(&set, absolute_path(o->spec_path));
  for (int i = 0; i < spec->nheaders; i++) {
    const char *h = spec->headers[i];
    output_protect(&set, h[0] == '/' ? h : arena_printf("%s/%s", spec->dir, h));
  }
  int status = 0;
  if (diag_count())
    status = 1;
  else if (!o->check_only && output_write(&set, o->verbose) != 0)
    status = 1;
  output_free(&set);
  return status;
}

void gpugen_reset(void) {
  diag_reset();
  arena_free_all();
}
