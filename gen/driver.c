/* The pipeline as a library call: spec bytes -> checked model -> files.
 * main.c, the fuzzer and the tests all run gpugen through here. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <string.h>
#include "gpugen.h"

/* A header the user keeps next to the output must not be overwritten. */
static void check_header_clash(const Spec *spec, const OutputSet *set) {
  for (int i = 0; i < spec->nheaders; i++) {
    const char *h = spec->headers[i];
    const char *abs = absolute_path(h[0] == '/' ? h : arena_printf("%s/%s", spec->dir, h));
    for (int f = 0; f < set->nfiles; f++)
      if (strcmp(abs, set->files[f].path) == 0)
        diag_error(spec->path, "headers[%d]: '%s' is where gpugen writes its own %s; choose another -o", i, h,
                   set->files[f].name);
  }
}

int gpugen_generate(const GenOptions *o) {
  size_t len = o->spec_len;
  /* spec_parse reads one byte past the text: the NUL that read_file adds */
  const char *text = o->spec_text ? arena_strndup(o->spec_text, len) : NULL;
  if (!text) {
    char *read = read_file(o->spec_path, &len);
    if (!read) {
      fprintf(stderr, "%s: error: cannot read the spec: %s\n", o->spec_path, strerror(errno));
      return 1;
    }
    text = read;
  }
  Spec *spec = spec_parse(o->spec_path, text, len);
  if (!spec) /* a JSON syntax error; shape errors still go through the checks */
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
  check_header_clash(spec, &set);
  int status = 0;
  if (diag_count())
    status = 1;
  else if (!o->check_only && output_write(&set, o->out_dir, o->verbose) != 0)
    status = 1;
  output_free(&set);
  return status;
}

void gpugen_reset(void) {
  diag_reset();
  arena_free_all();
}
