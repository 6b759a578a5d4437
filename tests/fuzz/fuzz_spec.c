/* libFuzzer target: spec bytes -> checked model -> generated files, in
 * process, through gpugen_generate. nvcc is not asked (a fixed list of
 * architectures) and libclang is left out; everything else runs, the file
 * writes included, in a scratch directory made and removed per input.
 * Beyond the sanitizers it checks two promises: a failed run leaves the
 * output directory as it was (here: absent), and a second run of a spec
 * that succeeded succeeds again with the same files (names and sizes; the
 * golden suite checks that unchanged files keep their mtimes). */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gpugen.h"

/* Larger inputs only make runs slow; the limits on them are tested elsewhere. */
enum { MAX_INPUT = 64 * 1024 };

static const int fixed_archs[] = {75, 80, 86, 89, 90, 100, 120};
static FILE *dev_null;
static char scratch_root[] = "/tmp/gpugen-fuzz.XXXXXX";

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path);
}

static void remove_tree(const char *dir) { nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS); }

static void cleanup_scratch(void) { remove_tree(scratch_root); }

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  dev_null = fopen("/dev/null", "w");
  if (!dev_null || !mkdtemp(scratch_root))
    abort();
  atexit(cleanup_scratch);
  return 0;
}

/* The names and sizes of everything under dir, sorted (readdir order may change). */
static Buf listing;
static int list_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)flag, (void)ftw;
  buf_printf(&listing, "%s %lld\n", path, (long long)st->st_size);
  return 0;
}
static int compare_lines(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }
static char *snapshot(const char *dir) {
  listing.len = 0;
  nftw(dir, list_entry, 16, FTW_PHYS);
  size_t n = 0;
  char **lines = malloc(sizeof(char *) * (listing.len + 1));
  for (char *line = strtok(listing.data, "\n"); line; line = strtok(NULL, "\n"))
    lines[n++] = line;
  qsort(lines, n, sizeof(char *), compare_lines);
  Buf sorted = {0};
  for (size_t i = 0; i < n; i++)
    buf_printf(&sorted, "%s\n", lines[i]);
  free(lines);
  buf_free(&listing);
  char *copy = strdup(sorted.data ? sorted.data : "");
  buf_free(&sorted);
  return copy;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > MAX_INPUT)
    return -1;
  char run_dir[sizeof scratch_root + 16];
  snprintf(run_dir, sizeof run_dir, "%s/run", scratch_root);
  if (mkdir(run_dir, 0777) != 0)
    abort();
  /* The spec "lives" in run_dir, so headers may name the output files. */
  char spec_path[sizeof run_dir + 16], out_dir[sizeof run_dir + 16];
  snprintf(spec_path, sizeof spec_path, "%s/spec.json", run_dir);
  snprintf(out_dir, sizeof out_dir, "%s/out", run_dir);
  /* A private copy, so a read past the end is caught by ASan. */
  char *text = malloc(size ? size : 1);
  memcpy(text, data, size);

  diag_set_stream(dev_null);
  GenOptions o = {
      .spec_path = spec_path,
      .spec_text = text,
      .spec_len = size,
      .out_dir = out_dir,
      .archs = fixed_archs,
      .narchs = (int)(sizeof fixed_archs / sizeof fixed_archs[0]),
      .skip_headers = true,
  };
  int status = gpugen_generate(&o);
  gpugen_reset();
  struct stat st;
  if (status != 0 && lstat(out_dir, &st) == 0) {
    fprintf(stderr, "fuzz_spec: gpugen failed but created %s\n", out_dir);
    abort();
  }
  if (status == 0) {
    char *before = snapshot(run_dir);
    int again = gpugen_generate(&o);
    gpugen_reset();
    char *after = snapshot(run_dir);
    if (again != 0 || strcmp(before, after) != 0) {
      fprintf(stderr, "fuzz_spec: a second run %s\n", again ? "failed" : "gave other files");
      abort();
    }
    free(before);
    free(after);
  }
  free(text);
  remove_tree(run_dir);
  return 0;
}
