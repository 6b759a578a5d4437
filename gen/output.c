/* Writes the generated files as one transaction: every file is staged in a
 * temporary beside its place, then the changed ones are renamed into place
 * in order, each old file kept as a hard link until the whole set has landed.
 * A failure rolls the landed ones back, so the output directory is left as it
 * was. A kill -9 leaves each file old or new and complete (rename is atomic),
 * and the stamp, written last, older than the inputs; the next run finishes
 * the job and removes what the dead one left (.NAME.gpugen-*).
 * Only regular files are read or replaced, and no output may be one of the
 * inputs (compared by device and inode, not by spelling). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gpugen.h"

#define TEMP_MARK ".gpugen-"

Buf *output_add(OutputSet *set, const char *name) {
  if (set->nfiles == OUTPUT_MAX_FILES)
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

void output_protect(OutputSet *set, const char *path) {
  if (set->ninputs == set->inputs_cap) {
    set->inputs_cap = set->inputs_cap ? 2 * set->inputs_cap : 16;
    const char **grown = ARENA_ARRAY(const char *, set->inputs_cap);
    for (int i = 0; i < set->ninputs; i++)
      grown[i] = set->inputs[i];
    set->inputs = grown;
  }
  set->inputs[set->ninputs++] = path;
}

static uint64_t fnv1a(const char *p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++)
    h = (h ^ (unsigned char)p[i]) * 1099511628211ull;
  return h;
}

void output_add_stamp(OutputSet *set, const char *name) {
  Buf text = {0};
  buf_put(&text, "# gpugen stamp: written after every other file of a successful run.\n"
                 "# Build rules depend on it; older than an input means: run gpugen again.\n");
  for (int i = 0; i < set->nfiles; i++)
    buf_printf(&text, "%s %zu %016llx\n", set->files[i].name, set->files[i].text.len,
               (unsigned long long)fnv1a(set->files[i].text.data ? set->files[i].text.data : "",
                                         set->files[i].text.len));
  Buf *b = output_add(set, name);
  *b = text;
  set->files[set->nfiles - 1].always_write = true;
}

void output_free(OutputSet *set) {
  for (int i = 0; i < set->nfiles; i++)
    buf_free(&set->files[i].text);
  set->nfiles = 0;
}

/* ---- staging -------------------------------------------------------------- */

typedef struct {
  bool exists;        /* a regular file is at the final path */
  bool changed;       /* content differs (or always_write) */
  char *temp;         /* staged new content */
  char *backup;       /* hard link to the old file while the set lands */
  bool landed;        /* renamed into place */
} FileState;

/* Compares an existing regular file with text, reading at most text->len + 1
 * bytes through a descriptor that cannot block (FIFOs are refused before). */
static bool same_content(const char *path, const Buf *text) {
  int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return false;
  struct stat st;
  bool same = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size == text->len;
  char chunk[65536];
  size_t at = 0;
  while (same) {
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      same = n == 0 && at == text->len;
      break;
    }
    same = at + (size_t)n <= text->len && memcmp(chunk, text->data + at, (size_t)n) == 0;
    at += (size_t)n;
  }
  close(fd);
  return same;
}

static const char *file_kind(mode_t m) {
  if (S_ISDIR(m)) return "a directory";
  if (S_ISLNK(m)) return "a symbolic link";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISSOCK(m)) return "a socket";
  if (S_ISCHR(m) || S_ISBLK(m)) return "a device";
  return "not a regular file";
}

/* mkdir -p, remembering what it made so a failure can undo it; *why says
 * what is in the way. */
static int make_dirs(const char *dir, char **made, int *nmade, int max, const char **why, const char **where) {
  *where = dir;
  struct stat st;
  if (stat(dir, &st) == 0) {
    if (S_ISDIR(st.st_mode))
      return 0;
    *why = arena_printf("it is %s, not a directory", S_ISREG(st.st_mode) ? "a regular file" : file_kind(st.st_mode));
    return -1;
  }
  if (lstat(dir, &st) == 0 && S_ISLNK(st.st_mode)) {
    *why = "it is a symbolic link to something that does not exist";
    return -1;
  }
  if (errno != ENOENT && errno != ENOTDIR) { /* ENOTDIR: a parent is in the way, and says so below */
    *why = strerror(errno);
    return -1;
  }
  char *parent = dir_name(dir);
  if (strcmp(parent, dir) != 0 && make_dirs(parent, made, nmade, max, why, where) != 0)
    return -1;
  *where = dir;
  if (*nmade == max) {
    *why = "too many directories to create";
    return -1;
  }
  if (mkdir(dir, 0777) != 0) {
    /* another run may have made it since the stat above: then it is theirs, and ours to use */
    if (errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
      return 0;
    *why = strerror(errno);
    return -1;
  }
  made[(*nmade)++] = arena_strdup(dir);
  return 0;
}

static char *temp_name(const char *final, const char *kind) {
  const char *slash = strrchr(final, '/');
  return arena_printf("%.*s/.%s%s%sXXXXXX", (int)(slash - final), final, slash + 1, TEMP_MARK, kind);
}

static int write_temp(const OutputFile *f, char **temp_path) {
  char *path = temp_name(f->path, "new-");
  int fd = mkstemp(path);
  if (fd < 0)
    return -1;
  *temp_path = path;
  mode_t mask = umask(0);
  umask(mask);
  size_t at = 0;
  int failed = fchmod(fd, 0666 & ~mask) != 0;
  while (!failed && at < f->text.len) {
    ssize_t n = write(fd, f->text.data + at, f->text.len - at);
    if (n < 0 && errno == EINTR)
      continue;
    failed = n <= 0;
    at += n > 0 ? (size_t)n : 0;
  }
  if (close(fd) != 0)
    failed = 1;
  return failed ? -1 : 0;
}

/* Test hooks, never set outside the tests: GPUGEN_TEST_FAIL_RENAME=K makes
 * the K-th rename of a commit fail (1-based), to exercise the rollback;
 * GPUGEN_TEST_RENAME_DELAY_MS=T waits before each rename, so that a kill
 * can land between two of them. */
static int commit_rename(const char *from, const char *to, int *count) {
  const char *fail_at = getenv("GPUGEN_TEST_FAIL_RENAME");
  const char *delay = getenv("GPUGEN_TEST_RENAME_DELAY_MS");
  if (delay)
    usleep((useconds_t)atoi(delay) * 1000);
  if (fail_at && atoi(fail_at) == ++*count)
    return errno = EIO, -1;
  return rename(from, to);
}

/* Leftovers of a run that was killed (its temporaries and backups), for the
 * files of this set only; called with the directory lock held. */
static void remove_leftovers(const OutputSet *set, const char *dir) {
  DIR *d = opendir(dir);
  if (!d)
    return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] != '.' || !strstr(e->d_name, TEMP_MARK))
      continue;
    for (int i = 0; i < set->nfiles; i++) {
      const char *base = strrchr(set->files[i].path, '/') + 1;
      size_t n = strlen(base);
      if (strncmp(e->d_name + 1, base, n) == 0 && strncmp(e->d_name + 1 + n, TEMP_MARK, strlen(TEMP_MARK)) == 0 &&
          strcmp(dir_name(set->files[i].path), dir) == 0) {
        unlinkat(dirfd(d), e->d_name, 0);
        break;
      }
    }
  }
  closedir(d);
}

/* Everything that can be known before writing: each final path is absent or a
 * regular file, and none is an input. Reports every problem. */
static bool preflight(const OutputSet *set, FileState *st) {
  bool ok = true;
  for (int i = 0; i < set->nfiles; i++) {
    const OutputFile *f = &set->files[i];
    struct stat s;
    if (lstat(f->path, &s) != 0) {
      if (errno != ENOENT && errno != ENOTDIR) {
        diag_error(display_path(f->path), "cannot look at it: %s", strerror(errno));
        ok = false;
      }
      continue;
    }
    if (!S_ISREG(s.st_mode)) {
      diag_error(display_path(f->path), "it is %s; gpugen replaces only regular files", file_kind(s.st_mode));
      ok = false;
      continue;
    }
    st[i].exists = true;
    for (int k = 0; k < set->ninputs; k++) {
      struct stat in;
      if (stat(set->inputs[k], &in) == 0 && in.st_dev == s.st_dev && in.st_ino == s.st_ino) {
        diag_error(display_path(f->path), "it is the input '%s'; gpugen would overwrite it with its %s (choose "
                   "another -o)", display_path(set->inputs[k]), f->name);
        ok = false;
      }
    }
  }
  return ok;
}

/* The directories that hold outputs, each locked (flock) for the whole
 * transaction so that two gpugen runs on one directory take turns. */
typedef struct {
  const char *dirs[OUTPUT_MAX_FILES];
  int fds[OUTPUT_MAX_FILES];
  int n;
} Locks;

typedef struct {
  const char *dir;
  int fd;
  dev_t dev;
  ino_t ino;
} LockDir;

static int compare_lock_dirs(const void *a, const void *b) {
  const LockDir *x = a, *y = b;
  if (x->dev != y->dev)
    return x->dev < y->dev ? -1 : 1;
  return x->ino < y->ino ? -1 : x->ino > y->ino;
}

/* Every run locks its directories in one global order (by device and
 * inode, whatever path names them), so two runs whose sets share
 * directories, such as an output directory and a depfile's, never wait on
 * each other in a cycle. */
static int lock_dirs(const OutputSet *set, Locks *l) {
  LockDir dirs[OUTPUT_MAX_FILES];
  int n = 0, status = 0;
  for (int i = 0; i < set->nfiles && status == 0; i++) {
    const char *dir = dir_name(set->files[i].path);
    bool seen = false;
    for (int k = 0; k < n; k++)
      seen |= strcmp(dirs[k].dir, dir) == 0;
    if (seen)
      continue;
    struct stat st;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &st) != 0) {
      if (fd >= 0)
        close(fd);
      status = -1;
      break;
    }
    dirs[n++] = (LockDir){dir, fd, st.st_dev, st.st_ino};
  }
  if (n)
    qsort(dirs, (size_t)n, sizeof dirs[0], compare_lock_dirs);
  /* test hook, never set outside the tests: waits after each lock, so that
   * runs that took their locks in different orders would deadlock */
  const char *delay = getenv("GPUGEN_TEST_LOCK_DELAY_MS");
  for (int k = 0; k < n; k++) {
    /* two paths to one directory: locked once */
    if (status == 0 && !(k > 0 && dirs[k].dev == dirs[k - 1].dev && dirs[k].ino == dirs[k - 1].ino)) {
      if (flock(dirs[k].fd, LOCK_EX) != 0)
        status = -1;
      else if (delay)
        usleep((useconds_t)atoi(delay) * 1000);
    }
    l->dirs[l->n] = dirs[k].dir;
    l->fds[l->n++] = dirs[k].fd;
  }
  return status;
}

static void unlock_dirs(Locks *l) {
  for (int k = 0; k < l->n; k++)
    close(l->fds[k]);
  l->n = 0;
}

int output_write(OutputSet *set, bool verbose) {
  char *made[64];
  int nmade = 0;
  FileState st[OUTPUT_MAX_FILES] = {0};
  Locks locks = {0};
  const char *failed_path = NULL;
  int saved_errno = 0;
  int renames = 0;

  const char *why = NULL, *where = NULL;
  for (int i = 0; i < set->nfiles && !why; i++)
    if (make_dirs(dir_name(set->files[i].path), made, &nmade, 64, &why, &where) != 0)
      diag_error(display_path(where), "cannot use it as the output directory: %s", why);
  if (why)
    goto undo_dirs;
  if (!failed_path && lock_dirs(set, &locks) != 0) {
    failed_path = set->out_dir;
    saved_errno = errno;
  }
  if (failed_path)
    goto fail;
  if (!preflight(set, st)) {
    unlock_dirs(&locks);
    goto undo_dirs;
  }
  for (int i = 0; i < set->nfiles; i++) {
    OutputFile *f = &set->files[i];
    st[i].changed = f->always_write || !st[i].exists || !same_content(f->path, &f->text);
    if (!st[i].changed)
      continue;
    if (write_temp(f, &st[i].temp) != 0) {
      failed_path = st[i].temp ? st[i].temp : f->path;
      saved_errno = errno;
      goto fail;
    }
    if (st[i].exists) {
      /* the old file stays reachable until the set has landed */
      char *backup = temp_name(f->path, "old-");
      int fd = mkstemp(backup);
      if (fd >= 0)
        close(fd);
      if (fd < 0 || unlink(backup) != 0 || link(f->path, backup) != 0) {
        failed_path = backup;
        saved_errno = errno;
        goto fail;
      }
      st[i].backup = backup;
    }
  }
  for (int i = 0; i < set->nfiles; i++) {
    if (!st[i].changed)
      continue;
    if (commit_rename(st[i].temp, set->files[i].path, &renames) != 0) {
      failed_path = set->files[i].path;
      saved_errno = errno;
      goto fail;
    }
    st[i].temp = NULL;
    st[i].landed = true;
  }
  for (int i = 0; i < set->nfiles; i++) {
    if (st[i].backup)
      unlink(st[i].backup);
    if (verbose && !set->files[i].always_write)
      printf("%s %s\n", st[i].changed ? "wrote" : "unchanged", display_path(set->files[i].path));
  }
  for (int k = 0; k < locks.n; k++)
    remove_leftovers(set, locks.dirs[k]);
  unlock_dirs(&locks);
  return 0;

fail:
  diag_error(display_path(failed_path), "cannot write it: %s; the output directory was left unchanged",
             strerror(saved_errno));
  for (int i = set->nfiles - 1; i >= 0; i--) {
    if (st[i].landed) { /* undo: the old file back, or no file where there was none */
      if (st[i].backup ? rename(st[i].backup, set->files[i].path) : unlink(set->files[i].path))
        diag_error(display_path(set->files[i].path), "cannot restore it: %s", strerror(errno));
      st[i].backup = NULL;
    }
    if (st[i].temp)
      unlink(st[i].temp);
    if (st[i].backup)
      unlink(st[i].backup);
  }
  unlock_dirs(&locks);
undo_dirs:
  while (nmade > 0)
    rmdir(made[--nmade]);
  return -1;
}
