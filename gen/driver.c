/* The pipeline as a library call: spec bytes -> checked model -> files.
 * main.c, the fuzzer and the tests all run gpugen through here. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gpugen.h"

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* The output name a header's file name equals, or NULL. */
static const char *output_named(const Spec *spec, const OutputSet *set, const char *header) {
  const char *name = base_name(header);
  for (int f = 0; f < set->nfiles; f++)
    if (strcmp(name, set->files[f].name) == 0)
      return set->files[f].name;
  const char *stamp = arena_printf("%s.stamp", spec->module);
  return strcmp(name, stamp) == 0 ? stamp : NULL;
}

static void report_clash(const Spec *spec, const char *header, const char *output, const char *which) {
  diag_error(spec->path, "%sthe header %s has the file name of gpugen's output %s (in the output directory); "
             "on the include path one would hide the other: rename the header or the module", which,
             display_path(header), output);
}

/* Generated files include the user's headers by their spelling in the spec,
 * found through -I flags, so a user header whose file name is one of the
 * output names would hide the generated file or be hidden by it: the
 * spec's headers, and every file they include. */
static void check_header_clash(const Spec *spec, const OutputSet *set) {
  const char **direct = ARENA_ARRAY(const char *, spec->nheaders);
  for (int i = 0; i < spec->nheaders; i++) {
    direct[i] = spec->header_paths[i];
    const char *output = output_named(spec, set, direct[i]);
    if (output)
      report_clash(spec, direct[i], output, arena_printf("headers[%d]: ", i));
  }
  for (int i = 0; i < spec->nheader_files; i++) {
    const char *output = output_named(spec, set, spec->header_files[i]);
    bool reported = false; /* as one of the spec's headers, above (clashes are rare: no cost otherwise) */
    for (int d = 0; output && d < spec->nheaders && !reported; d++)
      reported = strcmp(direct[d], spec->header_files[i]) == 0;
    if (output && !reported)
      report_clash(spec, spec->header_files[i], output, "");
  }
}

/* --depfile: written with the outputs, every run, and never over an input
 * or an output. */
static void add_depfile(const Spec *spec, OutputSet *set, const GenOptions *o) {
  const char *path = absolute_path(o->depfile);
  bool clash = strcmp(path, absolute_path(spec->path)) == 0 ||
               strcmp(path, arena_printf("%s/%s.stamp", set->out_dir, spec->module)) == 0;
  for (int f = 0; f < set->nfiles; f++)
    clash |= strcmp(path, set->files[f].path) == 0;
  for (int i = 0; i < spec->nheader_files; i++)
    clash |= strcmp(path, spec->header_files[i]) == 0;
  if (clash) {
    diag_error(spec->path, "--depfile '%s' is one of gpugen's inputs or outputs; name another file", o->depfile);
    return;
  }
  Buf text = {0};
  const char *bad = depfile_text(spec, set, o->out_dir, &text);
  if (bad)
    diag_error(spec->path, "the path '%s' has %s, which a depfile cannot hold", bad,
               strpbrk(bad, "\n\r") ? "a line break" : "a ':'");
  Buf *b = output_add_path(set, path);
  set->files[set->nfiles - 1].always_write = true;
  *b = text;
}

static void emit_all(const Spec *spec, OutputSet *set) {
  emit_header(spec, set);
  emit_device(spec, set);
  emit_host(spec, set);
  emit_build(spec, set);
}

/* gpugen explain; with --resources the module is written to a scratch
 * directory first, for nvcc to build. */
static int run_explain(const Spec *spec, const ExplainOptions *opts) {
  Resources res = {0};
  bool measured = false;
  if (opts->resources) {
    const char *tmp = getenv("TMPDIR");
    char *dir = arena_printf("%s/gpugen-explain-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
      fprintf(stderr, "gpugen: error: cannot make a scratch directory '%s': %s\n", dir, strerror(errno));
      return 1;
    }
    OutputSet set = {.out_dir = dir};
    emit_all(spec, &set);
    const char **dirs = ARENA_ARRAY(const char *, spec->ninclude_dirs + 1);
    for (int i = 0; i < spec->ninclude_dirs; i++) {
      const char *d = spec->include_dirs[i];
      dirs[i] = d[0] == '/' ? d : arena_printf("%s/%s", spec->dir, d);
    }
    measured = !diag_count() && output_write(&set, false) == 0 &&
               measure_resources(spec, dir, dirs, spec->ninclude_dirs, &res);
    for (int f = 0; f < set.nfiles; f++)
      unlink(set.files[f].path);
    output_free(&set);
    rmdir(dir);
    if (!measured)
      return 1;
  }
  return explain_spec(spec, opts, measured ? &res : NULL, stdout) ? 0 : 1;
}

int gpugen_generate(const GenOptions *o) {
  diag_set_quiet(o->quiet);
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
    ClangOptions clang = {ARENA_ARRAY(const char *, spec->ninclude_dirs), spec->ninclude_dirs, cuda_include_dir(),
                          spec->dir};
    for (int i = 0; i < spec->ninclude_dirs; i++) {
      const char *d = spec->include_dirs[i];
      clang.include_dirs[i] = d[0] == '/' ? d : arena_printf("%s/%s", spec->dir, d);
    }
    clang_check_spec(spec, &clang);
    if (diag_count())
      return 1;
  }

  if (o->explain)
    return run_explain(spec, o->explain);

  OutputSet set = {.out_dir = absolute_path(o->out_dir)};
  emit_all(spec, &set);
  check_header_clash(spec, &set);
  if (o->depfile && !diag_count())
    add_depfile(spec, &set, o);
  output_add_stamp(&set, arena_printf("%s.stamp", spec->module));
  /* no output may overwrite an input, whatever path leads to it */
  output_protect(&set, absolute_path(o->spec_path));
  for (int i = 0; i < spec->nheaders; i++)
    output_protect(&set, spec->header_paths[i]);
  for (int i = 0; i < spec->nheader_files; i++)
    output_protect(&set, spec->header_files[i]);
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
