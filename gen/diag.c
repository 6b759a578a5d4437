/* Diagnostics: user errors are collected (all of them, with their place)
 * so one run reports every problem; internal bugs abort loudly. */
#include <stdlib.h>
#include "gpugen.h"

static int error_count;
static FILE *diag_stream;
static bool notes_off;

void diag_set_quiet(bool quiet) { notes_off = quiet; }
void diag_set_stream(FILE *f) { diag_stream = f; }
int diag_count(void) { return error_count; }
void diag_reset(void) { error_count = 0; }

/* A message quotes what the user wrote, which may be huge: each is cut at
 * DIAG_MAX_LINE bytes, so the report stays readable and bounded. */
#define DIAG_MAX_LINE 1000

static void report(const char *place, const char *kind, const char *fmt, va_list ap) {
  FILE *f = diag_stream ? diag_stream : stderr;
  char line[DIAG_MAX_LINE + 1];
  int n = vsnprintf(line, sizeof line, fmt, ap);
  if (place)
    fprintf(f, "%.*s: ", DIAG_MAX_LINE, place);
  fprintf(f, "%s: ", kind);
  /* one message, one line: control characters the user wrote are escaped */
  for (const char *p = line; *p; p++) {
    if (*p == '\n')
      fputs("\\n", f);
    else if ((unsigned char)*p < 0x20 || *p == 0x7f)
      fprintf(f, "\\x%02x", (unsigned char)*p);
    else
      fputc(*p, f);
  }
  fprintf(f, "%s\n", n > DIAG_MAX_LINE ? " [...]" : "");
}

void diag_error(const char *place, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(place, "error", fmt, ap);
  va_end(ap);
  error_count++;
}

void diag_note(const char *place, const char *fmt, ...) {
  if (notes_off)
    return;
  va_list ap;
  va_start(ap, fmt);
  report(place, "note", fmt, ap);
  va_end(ap);
}

void bug_at(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "gpugen: internal error at %s:%d: ", file, line);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\nThis is a bug in gpugen, not in your spec.\n");
  va_end(ap);
  abort();
}
