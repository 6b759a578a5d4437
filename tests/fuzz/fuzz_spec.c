/* libFuzzer target: spec bytes -> checked model -> generated files, in
 * process, through gpugen_generate. nvcc is not asked (a fixed list of
 * architectures) and libclang is left out; everything else runs, the file
 * writes included, in a scratch directory made and removed per input.
 * Beyond the sanitizers it checks the output set's promises. A failed run
 * leaves the output directory as it was (here: absent). After a spec that
 * succeeded, the output directory is disturbed in one of four ways, chosen
 * by a hash of the input, and gpugen runs again:
 *   nothing changed, a file truncated, a file deleted: the run succeeds and
 *     gives the same files (names and sizes) as the first;
 *   a file replaced by a directory: the run fails and changes nothing. */
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
static int report_fd = 2; /* stderr as it was at start (make fuzz closes fd 2: gpugen's own messages) */
static char scratch_root[4096]; /* $TMPDIR/gpugen-fuzz.XXXXXX (a tmpfs such as /dev/shm is fastest) */

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path);
}

static void remove_tree(const char *dir) { nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS); }

static void cleanup_scratch(void) { remove_tree(scratch_root); }

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  dev_null = fopen("/dev/null", "w");
  report_fd = dup(2);
  const char *tmp = getenv("TMPDIR");
  snprintf(scratch_root, sizeof scratch_root, "%s/gpugen-fuzz.XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!dev_null || report_fd < 0 || !mkdtemp(scratch_root))
    abort();
  atexit(cleanup_scratch);
  return 0;
}

/* Everything under dir, sorted (readdir order may change): "f PATH SIZE" for
 * regular files, "d PATH" for directories (whose sizes vary by file system),
 * "o PATH" for anything else. */
static Buf listing;
static int list_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)flag, (void)ftw;
  if (S_ISREG(st->st_mode))
    buf_printf(&listing, "f %s %lld\n", path, (long long)st->st_size);
  else
    buf_printf(&listing, "%c %s\n", S_ISDIR(st->st_mode) ? 'd' : 'o', path);
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

static _Noreturn void broken(const char *what) {
  dprintf(report_fd, "fuzz_spec: %s\n", what);
  abort();
}

/* The path of the n-th (mod their count) regular file under dir, or NULL;
 * gpugen writes at most a handful of files. */
static char *regular_files[64];
static int nregular_files;
static int collect_file(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)flag, (void)ftw;
  if (S_ISREG(st->st_mode) && nregular_files < 64)
    regular_files[nregular_files++] = strdup(path);
  return 0;
}
static char *nth_file(const char *dir, uint64_t n) {
  nregular_files = 0;
  nftw(dir, collect_file, 16, FTW_PHYS);
  qsort(regular_files, (size_t)nregular_files, sizeof(char *), compare_lines);
  char *found = NULL;
  for (int i = 0; i < nregular_files; i++)
    if ((uint64_t)i == n % (uint64_t)nregular_files)
      found = regular_files[i];
    else
      free(regular_files[i]);
  return found;
}

static uint64_t fnv1a(const uint8_t *p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++)
    h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

enum Disturbance { NOTHING, TRUNCATE, DELETE, MAKE_DIRECTORY };

/* After a successful run: disturb out_dir, run again, check the outcome. */
static void rerun(const GenOptions *o, const char *run_dir, const char *out_dir, uint64_t hash) {
  enum Disturbance how = (enum Disturbance)(hash % 4);
  char *first = snapshot(run_dir);
  char *victim = nth_file(out_dir, hash / 4);
  if (!victim)
    broken("a successful run wrote no file");
  if ((how == TRUNCATE && truncate(victim, 0) != 0) || (how == DELETE && unlink(victim) != 0) ||
      (how == MAKE_DIRECTORY && (unlink(victim) != 0 || mkdir(victim, 0777) != 0)))
    broken("cannot disturb the output directory");
  char *before = snapshot(run_dir);
  int status = gpugen_generate(o);
  gpugen_reset();
  char *after = snapshot(run_dir);
  if (how == MAKE_DIRECTORY) {
    if (status == 0)
      broken("a run with a directory where an output file goes succeeded");
    if (strcmp(before, after) != 0)
      broken("a failed run changed the output directory");
  } else {
    if (status != 0)
      broken("a second run of a good spec failed");
    if (strcmp(first, after) != 0)
      broken("a second run gave other files than the first");
  }
  free(first);
  free(victim);
  free(before);
  free(after);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > MAX_INPUT)
    return -1;
  char run_dir[sizeof scratch_root + 16];
  snprintf(run_dir, sizeof run_dir, "%s/run", scratch_root);
  if (mkdir(run_dir, 0777) != 0)
    broken("cannot make the scratch directory");
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
  if (status != 0 && lstat(out_dir, &st) == 0)
    broken("gpugen failed but created the output directory");
  if (status == 0)
    rerun(&o, run_dir, out_dir, fnv1a(data, size));
  free(text);
  remove_tree(run_dir);
  return 0;
}
