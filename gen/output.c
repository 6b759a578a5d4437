/* Writes the generated files: all to temporary files first, then renamed
 * into place, and only those whose content changed (so make does not
 * rebuild). If anything fails, the output directory is left as it was. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gpugen.h"

Buf *output_add(OutputSet *set, const char *name) {
  if (set->nfiles == (int)(sizeof set->files / sizeof set->files[0]))
    bug("too many output files");
  OutputFile *f = &set->files[set->nfiles++];
  f->name = name;
  f->path = arena_printf("%s/%s", set->out_dir, name);
  return &f->text;
}

Buf *output_add_path(OutputSet *set, const char *path) {
  Buf *b = output_add(set, path);
  set->files[set->nfiles - 1].path = path;
  return b;
}

void output_free(OutputSet *set) {
  for (int i = 0; i < set->nfiles; i++)
    buf_free(&set->files[i].text);
  set->nfiles = 0;
}

static bool same_content(const char *path, const Buf *text) {
  size_t len;
  char *old = read_file(path, &len);
  return old && len == text->len && memcmp(old, text->data, len) == 0;
}

/* mkdir -p, remembering what it made so a failure can undo it. */
static int make_dirs(const char *dir, char **made, int *nmade) {
  struct stat st;
  if (stat(dir, &st) == 0)
    return S_ISDIR(st.st_mode) ? 0 : (errno = ENOTDIR, -1);
  char *parent = dir_name(dir);
  if (strcmp(parent, dir) != 0 && make_dirs(parent, made, nmade) != 0)
    return -1;
  if (mkdir(dir, 0777) != 0)
    return -1;
  made[(*nmade)++] = arena_strdup(dir);
  return 0;
}

static int write_temp(const char *dir, const OutputFile *f, char **temp_path) {
  char *path = arena_printf("%s/.%s.gpugen-XXXXXX", dir, f->name);
  int fd = mkstemp(path);
  if (fd < 0)
    return -1;
  *temp_path = path;
  mode_t mask = umask(0);
  umask(mask);
  FILE *out = fdopen(fd, "wb");
  if (!out) {
    close(fd);
    return -1;
  }
  size_t n = f->text.len ? fwrite(f->text.data, 1, f->text.len, out) : 0;
  int failed = n != f->text.len || fflush(out) != 0 || fchmod(fd, 0666 & ~mask) != 0;
  if (fclose(out) != 0)
    failed = 1;
  return failed ? -1 : 0;
}

int output_write(OutputSet *set, const char *out_dir, bool verbose) {
  char *made[64];
  int nmade = 0;
  char *temps[16] = {0};
  bool changed[16] = {0};
  const char *failed_path = NULL;
  int saved_errno = 0;

  if (make_dirs(out_dir, made, &nmade) != 0) {
    failed_path = out_dir;
    saved_errno = errno;
    goto fail;
  }
  for (int i = 0; i < set->nfiles; i++) {
    const char *final = arena_printf("%s/%s", out_dir, set->files[i].name);
    if (same_content(final, &set->files[i].text))
      continue;
    changed[i] = true;
    if (write_temp(out_dir, &set->files[i], &temps[i]) != 0) {
      failed_path = temps[i] ? temps[i] : final;
      saved_errno = errno;
      goto fail;
    }
  }
  for (int i = 0; i < set->nfiles; i++) {
    if (!changed[i])
      continue;
    const char *final = arena_printf("%s/%s", out_dir, set->files[i].name);
    if (rename(temps[i], final) != 0) {
      /* Earlier renames have landed; rename cannot be undone portably. */
      fprintf(stderr, "gpugen: error: cannot replace '%s': %s\n", final, strerror(errno));
      for (int j = i; j < set->nfiles; j++)
        if (temps[j])
          unlink(temps[j]);
      return -1;
    }
    temps[i] = NULL;
    if (verbose)
      printf("wrote %s\n", final);
  }
  if (verbose)
    for (int i = 0; i < set->nfiles; i++)
      if (!changed[i])
        printf("unchanged %s/%s\n", out_dir, set->files[i].name);
  return 0;

fail:
  fprintf(stderr, "gpugen: error: cannot write '%s': %s; the output directory was left unchanged\n", failed_path,
          strerror(saved_errno));
  for (int i = 0; i < set->nfiles; i++)
    if (temps[i])
      unlink(temps[i]);
  while (nmade > 0)
    rmdir(made[--nmade]);
  return -1;
}
