/* --depfile FILE: what the outputs depend on, in the format of gcc -MD -MF,
 * so make, ninja and CMake redo the generation when an input changes.
 * Targets: the stamp (which gpugen writes last), then every output file.
 * Prerequisites: the spec and every file libclang read for its headers. */
#include <string.h>
#include "gpugen.h"

/* Escapes one path for a make rule: a space or tab gets a backslash (and
 * the backslashes before it are doubled), '#' gets a backslash, '$' is
 * doubled. A line break cannot be written at all, nor a ':', which make
 * reads as the rule's separator wherever it stands. */
static bool put_make_path(Buf *b, const char *path) {
  for (const char *p = path; *p; p++) {
    if (*p == '\n' || *p == '\r' || *p == ':')
      return false;
    if (*p == ' ' || *p == '\t') {
      for (const char *q = p; q > path && q[-1] == '\\'; q--)
        buf_put(b, "\\");
      buf_put(b, "\\");
    } else if (*p == '#') {
      buf_put(b, "\\");
    } else if (*p == '$') {
      buf_put(b, "$");
    }
    buf_putn(b, p, 1);
  }
  return true;
}

static const char *joined(const char *dir, const char *name) {
  size_t n = strlen(dir);
  return n && dir[n - 1] == '/' ? arena_printf("%s%s", dir, name) : arena_printf("%s/%s", dir, name);
}

/* Puts path, escaped, into b; remembers the first one that cannot be written. */
static void put(Buf *b, const char *path, const char **bad) {
  if (!put_make_path(b, path) && !*bad)
    *bad = path;
}

const char *depfile_text(const Spec *spec, const OutputSet *set, const char *out_dir, Buf *b) {
  const char *stamp = arena_printf("%s.stamp", spec->module);
  const char *bad = NULL;
  /* Targets as the build names them: the -o spelling plus the file name.
   * The stamp first: it is the rule's real output, and ninja wants a
   * depfile to name the edge's output first. */
  put(b, joined(out_dir, stamp), &bad);
  for (int i = 0; i < set->nfiles; i++)
    if (strcmp(set->files[i].name, stamp) != 0) {
      buf_put(b, " \\\n ");
      put(b, joined(out_dir, set->files[i].name), &bad);
    }
  buf_put(b, ": ");
  put(b, spec->path, &bad);
  for (int i = 0; i < spec->nheader_files; i++) {
    buf_put(b, " \\\n ");
    put(b, spec->header_files[i], &bad);
  }
  buf_put(b, "\n");
  /* Like gcc -MP: an empty rule per header, so a header that is deleted or
   * renamed makes the build regenerate instead of stopping. */
  for (int i = 0; i < spec->nheader_files; i++) {
    buf_put(b, "\n");
    put(b, spec->header_files[i], &bad);
    buf_put(b, ":\n");
  }
  return bad;
}
