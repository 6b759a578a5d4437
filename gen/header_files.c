/* Only regular files reach libclang.
 *
 * A header that includes a FIFO, /dev/zero or another device would hang
 * the parse: open() of a FIFO blocks until a writer comes, and a device
 * never ends. libclang has no hook for the files it opens, and libLLVM
 * opens every file through open(), so gpugen defines open() itself (the
 * executable's definition is the one the libraries bind to, see the
 * Makefile's --export-dynamic-symbol): while headers are being parsed, a
 * read-only open of anything but a regular file or a directory fails with
 * EACCES, and the path is remembered so that clang's "cannot open" error at
 * the #include line can say why. Every other open passes through
 * unchanged. */
#undef _FORTIFY_SOURCE
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include "gpugen.h"

enum { REFUSED_MAX = 8, REFUSED_PATH = 4096 };

/* Set and cleared by the thread that starts the parse, read by the thread
 * libclang parses on, which it starts and joins in between. */
static bool guarding;
static char refused[REFUSED_MAX][REFUSED_PATH];
static const char *refused_kind[REFUSED_MAX];
static int nrefused;

static const char *kind_of(mode_t mode) {
  return S_ISFIFO(mode)  ? "a FIFO"
         : S_ISCHR(mode) ? "a character device"
         : S_ISBLK(mode) ? "a block device"
         : S_ISSOCK(mode) ? "a socket"
                          : "not a regular file";
}

int open(const char *path, int flags, ...) {
  mode_t mode = 0;
  if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) {
    va_list ap;
    va_start(ap, flags);
    mode = (mode_t)va_arg(ap, int);
    va_end(ap);
  }
  struct stat st;
  if (guarding && (flags & O_ACCMODE) == O_RDONLY && stat(path, &st) == 0 && !S_ISREG(st.st_mode) &&
      !S_ISDIR(st.st_mode)) {
    if (nrefused < REFUSED_MAX && strlen(path) < REFUSED_PATH) {
      strcpy(refused[nrefused], path);
      refused_kind[nrefused++] = kind_of(st.st_mode);
    }
    errno = EACCES;
    return -1;
  }
  return openat(AT_FDCWD, path, flags, mode);
}

void header_reads_begin(void) {
  nrefused = 0;
  guarding = true;
}

void header_reads_end(void) {
  guarding = false;
}

const char *header_read_refused(const char *text) {
  for (int i = 0; i < nrefused; i++)
    if (strstr(text, refused[i]))
      return arena_printf("'%s' is %s; headers may include only regular files (reading a FIFO or a "
                          "device may never end)", display_path(refused[i]), refused_kind[i]);
  return NULL;
}
