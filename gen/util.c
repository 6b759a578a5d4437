/* Arena memory, text buffers, file reading and spelling suggestions. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include "gpugen.h"

/* The arena is a list of blocks freed together at exit: a generator is a
 * short-lived process, and one owner keeps valgrind quiet. */
typedef struct Block {
  struct Block *next;
  max_align_t data[];
} Block;
static Block *arena_blocks;

void *arena_alloc(size_t n) {
  Block *b = calloc(1, sizeof(Block) + (n ? n : 1));
  if (!b) {
    fprintf(stderr, "gpugen: out of memory\n");
    exit(1);
  }
  b->next = arena_blocks;
  arena_blocks = b;
  return b->data;
}

void arena_free_all(void) {
  while (arena_blocks) {
    Block *next = arena_blocks->next;
    free(arena_blocks);
    arena_blocks = next;
  }
}

char *arena_strndup(const char *s, size_t n) {
  char *p = arena_alloc(n + 1);
  memcpy(p, s, n);
  return p;
}

char *arena_strdup(const char *s) { return arena_strndup(s, strlen(s)); }

char *arena_printf(const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *p = arena_alloc((size_t)n + 1);
  vsnprintf(p, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  return p;
}

static void buf_reserve(Buf *b, size_t extra) {
  if (b->len + extra + 1 <= b->cap)
    return;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + extra + 1)
    cap *= 2;
  char *p = realloc(b->data, cap);
  if (!p) {
    fprintf(stderr, "gpugen: out of memory\n");
    exit(1);
  }
  b->data = p;
  b->cap = cap;
}

void buf_putn(Buf *b, const char *s, size_t n) {
  buf_reserve(b, n);
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = 0;
}

void buf_put(Buf *b, const char *s) { buf_putn(b, s, strlen(s)); }

void buf_printf(Buf *b, const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  buf_reserve(b, (size_t)n);
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  b->len += (size_t)n;
}

void buf_free(Buf *b) {
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}

/* Reads a regular file of at most max bytes. Anything else (a directory, a
 * FIFO, a device) is refused without reading, so nothing blocks or runs
 * without bound; *why says what was wrong. */
char *read_file(const char *path, size_t max, size_t *len, const char **why) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    *why = strerror(errno);
    return NULL;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    *why = S_ISDIR(st.st_mode) ? "it is a directory" : S_ISFIFO(st.st_mode) ? "it is a FIFO, not a regular file"
           : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "it is a device, not a regular file"
           : "it is not a regular file";
    close(fd);
    return NULL;
  }
  if ((unsigned long long)st.st_size > max) {
    *why = arena_printf("it is %lld bytes, and gpugen reads at most %zu (docs/spec.md, Limits)",
                        (long long)st.st_size, max);
    close(fd);
    return NULL;
  }
  Buf b = {0};
  char chunk[65536];
  for (;;) {
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      *why = strerror(errno);
      close(fd);
      buf_free(&b);
      return NULL;
    }
    if (n == 0)
      break;
    if (b.len + (size_t)n > max) { /* it grew while being read */
      *why = arena_printf("it is larger than %zu bytes (docs/spec.md, Limits)", max);
      close(fd);
      buf_free(&b);
      return NULL;
    }
    buf_putn(&b, chunk, (size_t)n);
  }
  close(fd);
  char *p = arena_strndup(b.data ? b.data : "", b.len);
  *len = b.len;
  buf_free(&b);
  return p;
}

int edit_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 64 || lb > 64)
    return 1000;
  int row[65];
  for (size_t j = 0; j <= lb; j++)
    row[j] = (int)j;
  for (size_t i = 1; i <= la; i++) {
    int diag = row[0];
    row[0] = (int)i;
    for (size_t j = 1; j <= lb; j++) {
      int up = row[j];
      int cost = a[i - 1] == b[j - 1] ? 0 : 1;
      int best = diag + cost;
      if (row[j] + 1 < best)
        best = row[j] + 1;
      if (row[j - 1] + 1 < best)
        best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[lb];
}

const char *suggest(const char *word, const char *const *candidates, int n) {
  const char *best = NULL;
  int best_d = 1000;
  int limit = strlen(word) <= 4 ? 1 : 2;
  for (int i = 0; i < n; i++) {
    int d = edit_distance(word, candidates[i]);
    if (d < best_d) {
      best_d = d;
      best = candidates[i];
    }
  }
  return best_d <= limit ? best : NULL;
}

/* Lexically normalized absolute form of path ("." and ".." folded). */
char *absolute_path(const char *path) {
  Buf joined = {0};
  if (path[0] != '/') {
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd))
      bug("cannot get the current directory");
    buf_put(&joined, cwd);
    buf_put(&joined, "/");
  }
  buf_put(&joined, path);
  char **parts = ARENA_ARRAY(char *, joined.len + 1);
  int n = 0;
  for (char *tok = strtok(joined.data, "/"); tok; tok = strtok(NULL, "/")) {
    if (strcmp(tok, ".") == 0)
      continue;
    if (strcmp(tok, "..") == 0) {
      if (n > 0)
        n--;
      continue;
    }
    parts[n++] = arena_strdup(tok);
  }
  buf_free(&joined);
  Buf out = {0};
  for (int i = 0; i < n; i++) {
    buf_put(&out, "/");
    buf_put(&out, parts[i]);
  }
  char *result = arena_strdup(n ? out.data : "/");
  buf_free(&out);
  return result;
}

/* The path relative to the working directory when it lies inside it. */
const char *display_path(const char *path) {
  char cwd[4096];
  if (path[0] == '/' && getcwd(cwd, sizeof cwd)) {
    size_t n = strlen(cwd);
    if (strncmp(path, cwd, n) == 0 && path[n] == '/')
      return path + n + 1;
  }
  return path;
}

char *dir_name(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash)
    return arena_strdup(".");
  if (slash == path)
    return arena_strdup("/");
  return arena_strndup(path, (size_t)(slash - path));
}

/* A string map with open addressing; keys are not copied. Arena memory. */
struct Map {
  const char **keys;
  const void **values;
  size_t cap, n;
};

static uint64_t hash_string(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

Map *map_new(void) {
  Map *m = ARENA_NEW(Map);
  m->cap = 64;
  m->keys = ARENA_ARRAY(const char *, m->cap);
  m->values = ARENA_ARRAY(const void *, m->cap);
  return m;
}

static size_t map_slot(const Map *m, const char *key) {
  size_t i = (size_t)hash_string(key) & (m->cap - 1);
  while (m->keys[i] && strcmp(m->keys[i], key) != 0)
    i = (i + 1) & (m->cap - 1);
  return i;
}

const void *map_get(const Map *m, const char *key) {
  size_t i = map_slot(m, key);
  return m->keys[i] ? m->values[i] : NULL;
}

const void *map_put(Map *m, const char *key, const void *value) {
  size_t i = map_slot(m, key);
  if (m->keys[i])
    return m->values[i];
  m->keys[i] = key;
  m->values[i] = value;
  if (++m->n * 2 > m->cap) { /* keep it at most half full */
    const char **keys = m->keys;
    const void **values = m->values;
    size_t cap = m->cap;
    m->cap *= 2;
    m->keys = ARENA_ARRAY(const char *, m->cap);
    m->values = ARENA_ARRAY(const void *, m->cap);
    for (size_t k = 0; k < cap; k++)
      if (keys[k]) {
        size_t j = map_slot(m, keys[k]);
        m->keys[j] = keys[k];
        m->values[j] = values[k];
      }
  }
  return NULL;
}
