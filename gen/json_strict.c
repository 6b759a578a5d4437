/* RFC 8259 JSON, checked on the raw bytes before cJSON (which is lenient)
 * reads them: the grammar, UTF-8, escapes, no NUL inside strings or keys,
 * numbers without leading zeros and exact as doubles, no repeated keys, and
 * the nesting limit. The first problem is reported with line:col and the
 * JSON path of the value it is in. Iterative: depth costs no C stack. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "gpugen.h"

typedef struct {
  bool object;       /* else an array */
  int index;         /* array: the element being read */
  const char *key;   /* object: the member being read (raw, NULL before the first) */
  size_t key_len;
  const char **keys; /* object: the keys seen, to find repeats */
  size_t *key_lens;
  int nkeys, cap;
} Frame;

typedef struct {
  const char *file, *text;
  size_t len, pos;
  Frame stack[LIMIT_JSON_DEPTH + 1];
  int depth;
  bool failed;
} Lexer;

/* The path of the value being read; deep ones keep their ends. */
static const char *json_path(const Lexer *lx) {
  Buf b = {0};
  for (int i = 0; i < lx->depth; i++) {
    if (lx->depth > 8 && i == 4) {
      buf_put(&b, "...");
      i = lx->depth - 3;
    }
    const Frame *f = &lx->stack[i];
    if (!f->object)
      buf_printf(&b, "[%d]", f->index);
    else if (f->key)
      buf_printf(&b, "%s%.*s", b.len ? "." : "", (int)f->key_len, f->key);
  }
  const char *p = arena_strdup(b.len ? b.data : "");
  buf_free(&b);
  return p;
}

/* grammar: the document is not JSON at all ("invalid JSON: ..., after
 * PATH"); otherwise a rule about the value at PATH ("PATH: ..."). */
static void report(Lexer *lx, size_t at, bool grammar, const char *what) {
  if (lx->failed)
    return;
  lx->failed = true;
  int line = 1, col = 1;
  for (size_t i = 0; i < at && i < lx->len; i++) {
    if (lx->text[i] == '\n') {
      line++;
      col = 1;
    } else if (((unsigned char)lx->text[i] & 0xc0) != 0x80) { /* columns count characters */
      col++;
    }
  }
  const char *path = json_path(lx);
  const char *place = arena_printf("%s:%d:%d", lx->file, line, col);
  if (grammar || !path[0])
    diag_error(place, "invalid JSON: %s%s", what, path[0] ? arena_printf(" (after %s)", path) : "");
  else
    diag_error(place, "%s: %s", path, what);
}

static void fail_at(Lexer *lx, size_t at, const char *what) { report(lx, at, false, what); }
static void syntax_at(Lexer *lx, size_t at, const char *what) { report(lx, at, true, what); }

static void skip_space(Lexer *lx) {
  while (lx->pos < lx->len && strchr(" \t\r\n", lx->text[lx->pos]) && lx->text[lx->pos])
    lx->pos++;
}

/* Length of the UTF-8 sequence at s (1..4), or 0 when it is not valid
 * (overlong forms, surrogates and code points past U+10FFFF included). */
static int utf8_length(const unsigned char *s, size_t avail) {
  unsigned c = s[0];
  int n;
  unsigned min, cp;
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) n = 2, min = 0x80, cp = c & 0x1f;
  else if (c >= 0xe0 && c <= 0xef) n = 3, min = 0x800, cp = c & 0x0f;
  else if (c >= 0xf0 && c <= 0xf4) n = 4, min = 0x10000, cp = c & 0x07;
  else return 0;
  if ((size_t)n > avail)
    return 0;
  for (int i = 1; i < n; i++) {
    if ((s[i] & 0xc0) != 0x80)
      return 0;
    cp = cp << 6 | (s[i] & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
    return 0;
  return n;
}

static int hex4(const char *s) {
  int v = 0;
  for (int i = 0; i < 4; i++) {
    char c = s[i];
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0)
      return -1;
    v = v * 16 + d;
  }
  return v;
}

/* A string from the opening quote; false after reporting a problem. */
static bool lex_string(Lexer *lx) {
  size_t start = lx->pos++;
  while (lx->pos < lx->len) {
    unsigned char c = (unsigned char)lx->text[lx->pos];
    if (c == '"') {
      lx->pos++;
      return true;
    }
    if (c < 0x20) {
      fail_at(lx, lx->pos, c == 0 ? "a NUL byte inside a string" :
              arena_printf("control character 0x%02x inside a string (write it as an escape, e.g. \\n)", c));
      return false;
    }
    if (c == '\\') {
      char e = lx->pos + 1 < lx->len ? lx->text[lx->pos + 1] : 0;
      if (e && strchr("\"\\/bfnrt", e)) {
        lx->pos += 2;
        continue;
      }
      if (e != 'u') {
        fail_at(lx, lx->pos, arena_printf("invalid escape '\\%c'", e >= 0x20 && e < 0x7f ? e : '?'));
        return false;
      }
      int u = lx->pos + 6 <= lx->len ? hex4(lx->text + lx->pos + 2) : -1;
      if (u < 0) {
        fail_at(lx, lx->pos, "'\\u' needs four hexadecimal digits");
        return false;
      }
      if (u == 0) {
        fail_at(lx, lx->pos, "'\\u0000' (NUL) is not allowed in strings and keys");
        return false;
      }
      if (u >= 0xdc00 && u <= 0xdfff) {
        fail_at(lx, lx->pos, arena_printf("'\\u%04x' is a lone low surrogate, not a character", u));
        return false;
      }
      if (u >= 0xd800 && u <= 0xdbff) {
        int low = lx->pos + 12 <= lx->len && lx->text[lx->pos + 6] == '\\' && lx->text[lx->pos + 7] == 'u'
                      ? hex4(lx->text + lx->pos + 8) : -1;
        if (low < 0xdc00 || low > 0xdfff) {
          fail_at(lx, lx->pos, arena_printf("'\\u%04x' is a high surrogate without its low half", u));
          return false;
        }
        lx->pos += 6;
      }
      lx->pos += 6;
      continue;
    }
    int n = utf8_length((const unsigned char *)lx->text + lx->pos, lx->len - lx->pos);
    if (n == 0) {
      fail_at(lx, lx->pos, arena_printf("byte 0x%02x is not valid UTF-8", c));
      return false;
    }
    lx->pos += (size_t)n;
  }
  syntax_at(lx, start, "string not closed before the end of the file");
  return false;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static bool lex_number(Lexer *lx) {
  size_t start = lx->pos, p = lx->pos;
  const char *t = lx->text;
  if (p < lx->len && t[p] == '-')
    p++;
  if (p >= lx->len || !is_digit(t[p])) {
    fail_at(lx, start, "a number needs a digit after '-'");
    return false;
  }
  if (t[p] == '0' && p + 1 < lx->len && is_digit(t[p + 1])) {
    fail_at(lx, start, "numbers may not have leading zeros");
    return false;
  }
  while (p < lx->len && is_digit(t[p]))
    p++;
  bool integer = true;
  if (p < lx->len && t[p] == '.') {
    integer = false;
    if (++p >= lx->len || !is_digit(t[p])) {
      fail_at(lx, start, "a number needs digits after '.'");
      return false;
    }
    while (p < lx->len && is_digit(t[p]))
      p++;
  }
  if (p < lx->len && (t[p] == 'e' || t[p] == 'E')) {
    integer = false;
    if (++p < lx->len && (t[p] == '+' || t[p] == '-'))
      p++;
    if (p >= lx->len || !is_digit(t[p])) {
      fail_at(lx, start, "a number needs digits in its exponent");
      return false;
    }
    while (p < lx->len && is_digit(t[p]))
      p++;
  }
  const char *literal = arena_strndup(t + start, p - start);
  double d = strtod(literal, NULL);
  if (d > 1.7976931348623157e308 || d < -1.7976931348623157e308) {
    fail_at(lx, start, arena_printf("%s is out of the range of a double", literal));
    return false;
  }
  /* an integer literal is exact as a double up to 2^53 = 9007199254740992 */
  const char *digits = literal[0] == '-' ? literal + 1 : literal;
  size_t ndigits = strlen(digits);
  if (integer && (ndigits > 16 || (ndigits == 16 && strcmp(digits, "9007199254740992") > 0))) {
    fail_at(lx, start, arena_printf("%s is beyond 2^53, where JSON numbers lose precision; write 64-bit values as "
                                    "decimal strings", literal));
    return false;
  }
  lx->pos = p;
  return true;
}

typedef struct {
  const char *key; /* raw, inside the text */
  size_t len;
} KeyRef;

static int compare_keys(const void *a, const void *b) {
  const KeyRef *x = a, *y = b;
  size_t n = x->len < y->len ? x->len : y->len;
  int c = memcmp(x->key, y->key, n);
  if (c)
    return c;
  if (x->len != y->len)
    return x->len < y->len ? -1 : 1;
  return x->key < y->key ? -1 : x->key > y->key; /* equal keys in document order */
}

/* Repeated keys, found by sorting the object's keys when it closes; the
 * message points at the second occurrence. */
static bool check_repeats(Lexer *lx, Frame *f) {
  if (f->nkeys < 2)
    return true;
  KeyRef *sorted = ARENA_ARRAY(KeyRef, f->nkeys);
  for (int i = 0; i < f->nkeys; i++)
    sorted[i] = (KeyRef){f->keys[i], f->key_lens[i]};
  qsort(sorted, (size_t)f->nkeys, sizeof *sorted, compare_keys);
  for (int i = 1; i < f->nkeys; i++)
    if (sorted[i].len == sorted[i - 1].len && memcmp(sorted[i].key, sorted[i - 1].key, sorted[i].len) == 0) {
      f->key = sorted[i].key;
      f->key_len = sorted[i].len;
      fail_at(lx, (size_t)(sorted[i].key - 1 - lx->text), "key given more than once in this object");
      return false;
    }
  return true;
}

static void add_key(Frame *f, const char *key, size_t len) {
  if (f->nkeys == f->cap) {
    f->cap = f->cap ? 2 * f->cap : 8;
    const char **keys = ARENA_ARRAY(const char *, f->cap);
    size_t *lens = ARENA_ARRAY(size_t, f->cap);
    for (int i = 0; i < f->nkeys; i++) {
      keys[i] = f->keys[i];
      lens[i] = f->key_lens[i];
    }
    f->keys = keys;
    f->key_lens = lens;
  }
  f->keys[f->nkeys] = key;
  f->key_lens[f->nkeys++] = len;
}

static const char *found(const Lexer *lx) {
  if (lx->pos >= lx->len)
    return "unexpected end of file";
  unsigned char c = (unsigned char)lx->text[lx->pos];
  if (c < 0x20 || c >= 0x7f)
    return arena_printf("unexpected byte 0x%02x", c);
  return arena_printf("unexpected '%c'", c);
}

bool json_check_strict(const char *file, const char *text, size_t len) {
  Lexer *lx = ARENA_NEW(Lexer);
  *lx = (Lexer){.file = file, .text = text, .len = len};
  if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
    fail_at(lx, 0, "a UTF-8 byte order mark is not allowed");
    return false;
  }
  /* expecting a value; after it, a ',' or the close of the container */
  for (;;) {
    skip_space(lx);
    if (lx->pos >= lx->len) {
      syntax_at(lx, lx->pos, "unexpected end of file");
      return false;
    }
    char c = text[lx->pos];
    if (c == '{' || c == '[') {
      if (lx->depth == LIMIT_JSON_DEPTH) {
        fail_at(lx, lx->pos, arena_printf("nested deeper than %d levels", LIMIT_JSON_DEPTH));
        return false;
      }
      lx->stack[lx->depth++] = (Frame){.object = c == '{'};
      lx->pos++;
      skip_space(lx);
      if (lx->pos < len && text[lx->pos] == (c == '{' ? '}' : ']')) {
        lx->depth--;
        lx->pos++;
        goto after_value;
      }
      if (c == '[')
        continue;
      goto member_key;
    } else if (c == '"') {
      if (!lex_string(lx))
        return false;
    } else if (c == '-' || is_digit(c)) {
      if (!lex_number(lx))
        return false;
    } else if (len - lx->pos >= 4 && memcmp(text + lx->pos, "true", 4) == 0) {
      lx->pos += 4;
    } else if (len - lx->pos >= 5 && memcmp(text + lx->pos, "false", 5) == 0) {
      lx->pos += 5;
    } else if (len - lx->pos >= 4 && memcmp(text + lx->pos, "null", 4) == 0) {
      lx->pos += 4;
    } else {
      syntax_at(lx, lx->pos, arena_printf("%s where a value should be", found(lx)));
      return false;
    }
  after_value:
    for (;;) {
      skip_space(lx);
      if (lx->depth == 0) {
        if (lx->pos < len) {
          syntax_at(lx, lx->pos, arena_printf("%s after the end of the document", found(lx)));
          return false;
        }
        return true;
      }
      Frame *f = &lx->stack[lx->depth - 1];
      char close = f->object ? '}' : ']';
      if (lx->pos < len && text[lx->pos] == ',') {
        lx->pos++;
        if (!f->object) {
          f->index++;
          break;
        }
        skip_space(lx);
        goto member_key;
      }
      if (lx->pos < len && text[lx->pos] == close) {
        if (f->object && !check_repeats(lx, f))
          return false;
        lx->depth--;
        lx->pos++;
        continue;
      }
      syntax_at(lx, lx->pos, arena_printf("%s; expected ',' or '%c'", found(lx), close));
      return false;
    }
    continue;
  member_key: {
      Frame *f = &lx->stack[lx->depth - 1];
      if (lx->pos >= len || text[lx->pos] != '"') {
        syntax_at(lx, lx->pos, arena_printf("%s; expected a key in double quotes", found(lx)));
        return false;
      }
      /* the path names the key while it is read, so find its end first */
      size_t key_start = lx->pos + 1, key_end = key_start;
      while (key_end < len && text[key_end] != '"')
        key_end += text[key_end] == '\\' ? 2 : 1;
      f->key = text + key_start;
      f->key_len = (key_end < len ? key_end : len) - key_start;
      if (!lex_string(lx))
        return false;
      f->key_len = lx->pos - 1 - key_start;
      add_key(f, f->key, f->key_len);
      skip_space(lx);
      if (lx->pos >= len || text[lx->pos] != ':') {
        syntax_at(lx, lx->pos, arena_printf("%s; expected ':' after the key", found(lx)));
        return false;
      }
      lx->pos++;
    }
  }
}
