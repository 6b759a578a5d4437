/* libFuzzer target: spec bytes -> checked model -> generated files, in
 * process, through gpugen_generate. nvcc is not asked (a fixed list of
 * architectures) and libclang is left out; everything else runs, the file
 * writes included, in a scratch directory made and removed per input.
 * Beyond the sanitizers it checks the output set's promises. A failed run
 * leaves the output directory as it was (here: absent). After a spec that
 * succeeded, the output directory is disturbed in one of eight ways, chosen
 * by a hash of the input, and gpugen runs again:
 *   nothing changed, a file truncated, a file deleted, the temporary of a
 *     killed run left beside a file: the run succeeds and leaves the same
 *     files (names and sizes) as the first, the leftover removed;
 *   a file replaced by a directory, a dangling symlink or a FIFO, the output
 *     directory replaced by a file: the run fails (at once: a hang is a
 *     libFuzzer timeout) and changes nothing.
 * Half of the inputs also ask for a --depfile (beside the output directory),
 * and a quarter are explained too (text or JSON, to stdout, which the target
 * sends to /dev/null): explain writes no file. */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdbool.h>
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
  if (!freopen("/dev/null", "w", stdout)) /* gpugen explain's text; libFuzzer and the sanitizers use stderr */
    abort();
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

/* The first four are repaired by the next run, the others refused. */
enum Disturbance { NOTHING, TRUNCATE, DELETE, LEFTOVER_TEMP, MAKE_DIRECTORY, MAKE_SYMLINK, MAKE_FIFO, OUT_DIR_IS_FILE };
enum { NDISTURBANCES = OUT_DIR_IS_FILE + 1 };

static bool disturb(enum Disturbance how, const char *victim, const char *out_dir) {
  switch (how) {
  case NOTHING:
    return true;
  case TRUNCATE:
    return truncate(victim, 0) == 0;
  case DELETE:
    return unlink(victim) == 0;
  case LEFTOVER_TEMP: { /* what a kill -9 leaves: .NAME.gpugen-XXXXXX beside NAME */
    char temp[8192];
    const char *base = strrchr(victim, '/') + 1;
    snprintf(temp, sizeof temp, "%.*s.%s.gpugen-dead01", (int)(base - victim), victim, base);
    FILE *f = fopen(temp, "w");
    return f && fputs("half a file", f) >= 0 && fclose(f) == 0;
  }
  case MAKE_DIRECTORY:
    return unlink(victim) == 0 && mkdir(victim, 0777) == 0;
  case MAKE_SYMLINK:
    return unlink(victim) == 0 && symlink("nowhere", victim) == 0;
  case MAKE_FIFO:
    return unlink(victim) == 0 && mkfifo(victim, 0666) == 0;
  case OUT_DIR_IS_FILE: {
    remove_tree(out_dir);
    FILE *f = fopen(out_dir, "w");
    return f && fclose(f) == 0;
  }
  }
  return false;
}

/* After a successful run: disturb out_dir, run again, check the outcome. */
static void rerun(const GenOptions *o, const char *run_dir, const char *out_dir, uint64_t hash) {
  enum Disturbance how = (enum Disturbance)(hash % NDISTURBANCES);
  char *first = snapshot(run_dir);
  char *victim = nth_file(out_dir, hash / NDISTURBANCES);
  if (!victim)
    broken("a successful run wrote no file");
  if (!disturb(how, victim, out_dir))
    broken("cannot disturb the output directory");
  char *before = snapshot(run_dir);
  int status = gpugen_generate(o);
  gpugen_reset();
  char *after = snapshot(run_dir);
  if (how >= MAKE_DIRECTORY) {
    if (status == 0)
      broken("a run succeeded over something in the way (a directory, symlink, FIFO or file)");
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
  char spec_path[sizeof run_dir + 16], out_dir[sizeof run_dir + 16], depfile[sizeof run_dir + 16];
  snprintf(spec_path, sizeof spec_path, "%s/spec.json", run_dir);
  snprintf(out_dir, sizeof out_dir, "%s/out", run_dir);
  snprintf(depfile, sizeof depfile, "%s/deps.d", run_dir);
  uint64_t hash = fnv1a(data, size);
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
      .depfile = (hash >> 40) & 1 ? depfile : NULL,
  };
  int status = gpugen_generate(&o);
  gpugen_reset();
  struct stat st;
  if (status != 0 && (lstat(out_dir, &st) == 0 || lstat(depfile, &st) == 0))
    broken("gpugen failed but created the output directory or the depfile");
  if (status == 0)
    rerun(&o, run_dir, out_dir, hash);
  if ((hash >> 41) % 4 == 0) {
    ExplainOptions how = {.json = (hash >> 43) & 1};
    GenOptions explain = o;
    explain.explain = &how;
    char *before = snapshot(run_dir);
    gpugen_generate(&explain);
    gpugen_reset();
    char *after = snapshot(run_dir);
    if (strcmp(before, after) != 0)
      broken("gpugen explain changed files");
    free(before);
    free(after);
  }
  free(text);
  remove_tree(run_dir);
  return 0;
}
