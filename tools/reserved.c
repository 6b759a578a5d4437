/* Build-time tool: the names a spec may not take, read from the real
 * headers and templates rather than kept by hand.
 *   reserved OUT.c MACROS PREPROCESSED TEMPLATE...
 * MACROS is `nvcc -E -Xcompiler -dM` of the headers the generated code
 * includes, PREPROCESSED is `nvcc -E` of the same; TEMPLATEs are the files
 * of templates/. It writes sorted tables of:
 *   - the macros, each with the identifiers of its replacement list (a
 *     macro of the user's named like one of those would change what a
 *     system macro that the generated code uses expands to);
 *   - the names declared at global scope of the headers (types, functions,
 *     variables, enumerators, namespaces);
 *   - the names the templates declare at namespace scope (inside the
 *     module's namespaces), and the patterns of the ones built from the
 *     module and reduction names ("$(M)_$(R)_kernel").
 * A small tokenizer is enough: it tracks braces and parentheses, and an
 * identifier outside both (namespace and extern "C" blocks aside) is part
 * of a global declaration. It errs on the side of reserving a name. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char **items;
  int n, cap;
} List;

static void add(List *l, const char *s, size_t n) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 1024;
    l->items = realloc(l->items, sizeof(char *) * (size_t)l->cap);
    if (!l->items)
      exit(1);
  }
  char *p = malloc(n + 1);
  if (!p)
    exit(1);
  memcpy(p, s, n);
  p[n] = 0;
  l->items[l->n++] = p;
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *p = malloc((size_t)n + 1);
  if (!p || fread(p, 1, (size_t)n, f) != (size_t)n)
    exit(1);
  p[n] = 0;
  fclose(f);
  return p;
}

static int is_ident_start(int c) { return isalpha(c) || c == '_'; }
static int is_ident(int c) { return isalnum(c) || c == '_'; }

/* A placeholder $(KEY) of the templates, or 0. */
static size_t placeholder(const char *p) {
  if (p[0] != '$' || p[1] != '(')
    return 0;
  size_t n = 2;
  while (isupper((unsigned char)p[n]) || p[n] == '_')
    n++;
  return p[n] == ')' ? n + 1 : 0;
}

enum { B_TRANSPARENT, B_ENUM, B_OTHER };

/* Collects the identifiers of global declarations in text. With
 * templates, namespace blocks are transparent and identifiers may contain
 * placeholders; names with only module/reduction placeholders are kept as
 * patterns, others (type-dependent ones) are dropped. */
static void scan(const char *text, int templates, List *names, List *patterns) {
  char stack[4096];
  int depth = 0, parens = 0, angles = 0;
  int after_template = 0, pending_namespace = 0, pending_enum = 0, pending_extern = 0, enum_expect = 0;
  /* a template's parameters are not global names: remembered until its
   * declaration ends (a ';' or the '}' back at the depth it began at) */
  List tparams = {0};
  int tparam_depth = -1, tparam_next = 0;
  const char *p = text;
  int line_start = 1;
  while (*p) {
    if (line_start && (*p == '#' || (templates && p[0] == '@' && p[1] == '@'))) {
      /* preprocessor lines and template block markers; a template #define is a macro */
      const char *e = strchr(p, '\n');
      if (templates && strncmp(p, "#define ", 8) == 0) {
        const char *q = p + 8;
        size_t n = 0;
        while (is_ident((unsigned char)q[n]) || placeholder(q + n))
          n += placeholder(q + n) ? placeholder(q + n) : 1;
        if (n && !memchr(q, '$', n))
          add(names, q, n);
      }
      while (e && e > p && e[-1] == '\\')
        e = strchr(e + 1, '\n');
      p = e ? e + 1 : p + strlen(p);
      continue;
    }
    line_start = 0;
    char c = *p;
    if (c == '\n') {
      line_start = 1;
      p++;
      continue;
    }
    if (isspace((unsigned char)c)) {
      p++;
      continue;
    }
    if (c == '/' && p[1] == '/') {
      while (*p && *p != '\n')
        p++;
      continue;
    }
    if (c == '/' && p[1] == '*') {
      const char *e = strstr(p + 2, "*/");
      p = e ? e + 2 : p + strlen(p);
      continue;
    }
    if (c == '"' || c == '\'') {
      if (c == '"' && pending_extern && depth >= 0)
        pending_extern = 2; /* extern "C" */
      p++;
      while (*p && *p != c) {
        if (*p == '\\' && p[1])
          p++;
        p++;
      }
      if (*p)
        p++;
      continue;
    }
    if (is_ident_start((unsigned char)c) || placeholder(p)) {
      const char *s = p;
      while (is_ident((unsigned char)*p) || placeholder(p))
        p += placeholder(p) ? placeholder(p) : 1;
      size_t n = (size_t)(p - s);
      int outside = depth == 0 || stack[depth - 1] == B_TRANSPARENT;
      if (pending_extern == 2) /* extern "C" before a declaration, not a block */
        pending_extern = 0;
      if (n == 8 && strncmp(s, "template", 8) == 0) {
        after_template = 1;
      } else if (n == 9 && strncmp(s, "namespace", 9) == 0) {
        pending_namespace = 1;
      } else if (n == 4 && strncmp(s, "enum", 4) == 0) {
        pending_enum = 1;
      } else if (n == 6 && strncmp(s, "extern", 6) == 0) {
        pending_extern = 1;
      }
      int is_tparam = 0;
      for (int k = 0; k < tparams.n; k++)
        is_tparam |= strlen(tparams.items[k]) == n && strncmp(tparams.items[k], s, n) == 0;
      if (angles && tparam_next)
        add(&tparams, s, n);
      tparam_next = angles && ((n == 5 && strncmp(s, "class", 5) == 0) || (n == 8 && strncmp(s, "typename", 8) == 0) ||
                               (n == 3 && strncmp(s, "int", 3) == 0) || (n == 4 && strncmp(s, "bool", 4) == 0));
      int in_enum = depth > 0 && stack[depth - 1] == B_ENUM && parens == 0;
      if (!is_tparam && ((outside && parens == 0 && angles == 0) || (in_enum && enum_expect))) {
        if (!memchr(s, '$', n)) {
          add(names, s, n);
        } else if (templates) {
          /* keep patterns built from the module and reduction names only */
          int keep = 1;
          for (const char *q = s; q < s + n; q++)
            if (*q == '$') {
              size_t k = placeholder(q);
              if (!((k == 4 && q[2] == 'M') || (k == 9 && strncmp(q, "$(MODULE)", 9) == 0) ||
                    (k == 4 && q[2] == 'R')))
                keep = 0;
            }
          if (keep) {
            /* $(MODULE) and $(M) are one placeholder */
            char buf[512];
            size_t o = 0;
            for (const char *q = s; q < s + n && o + 8 < sizeof buf;) {
              if (strncmp(q, "$(MODULE)", 9) == 0) {
                memcpy(buf + o, "$(M)", 4);
                o += 4;
                q += 9;
              } else {
                buf[o++] = *q++;
              }
            }
            add(patterns, buf, o);
          }
        }
      }
      if (in_enum)
        enum_expect = 0;
      continue;
    }
    if (isdigit((unsigned char)c)) {
      while (is_ident((unsigned char)*p) || *p == '.')
        p++;
      continue;
    }
    p++;
    switch (c) {
    case '<':
      if (after_template && !angles) {
        for (int k = 0; k < tparams.n; k++)
          free(tparams.items[k]);
        tparams.n = 0;
        tparam_depth = depth;
      }
      if (after_template || angles)
        angles++;
      after_template = 0;
      break;
    case '>':
      if (angles)
        angles--;
      break;
    case '(':
      parens++;
      break;
    case ')':
      if (parens)
        parens--;
      break;
    case '{':
      if (depth < (int)sizeof stack) {
        int kind = B_OTHER;
        if (pending_enum)
          kind = B_ENUM;
        else if ((pending_namespace && templates) || pending_extern == 2)
          kind = B_TRANSPARENT;
        stack[depth++] = (char)kind;
        enum_expect = kind == B_ENUM;
      }
      pending_namespace = pending_enum = pending_extern = 0;
      after_template = 0;
      break;
    case '}':
      if (depth)
        depth--;
      if (depth == tparam_depth)
        tparams.n = 0, tparam_depth = -1;
      break;
    case ',':
      if (depth && stack[depth - 1] == B_ENUM && parens == 0)
        enum_expect = 1;
      break;
    case ';':
      pending_namespace = pending_enum = pending_extern = 0;
      after_template = 0;
      if (depth == tparam_depth)
        tparams.n = 0, tparam_depth = -1;
      break;
    default:
      break;
    }
  }
}

static int compare(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Sorted, without repeats, as a C array. */
static void write_table(FILE *out, const char *name, List *l) {
  qsort(l->items, (size_t)l->n, sizeof(char *), compare);
  fprintf(out, "const char *const %s[] = {\n", name);
  int n = 0;
  for (int i = 0; i < l->n; i++) {
    if (i && strcmp(l->items[i], l->items[i - 1]) == 0)
      continue;
    fprintf(out, "  \"%s\",\n", l->items[i]);
    n++;
  }
  fprintf(out, "};\nconst int %s_count = %d;\n\n", name, n);
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: reserved OUT.c MACROS PREPROCESSED [TEMPLATE...]\n");
    return 2;
  }
  List macros = {0}, globals = {0}, template_names = {0}, patterns = {0};
  List expansions = {0}; /* "NAME word word ...", one per macro */
  char *text = slurp(argv[2]);
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    if (strncmp(line, "#define ", 8))
      continue;
    size_t n = 0;
    while (is_ident((unsigned char)line[8 + n]))
      n++;
    add(&macros, line + 8, n);
    char words[8192];
    size_t used = 0;
    memcpy(words, line + 8, n);
    used = n;
    const char *p = line + 8 + n;
    if (*p == '(') /* the parameters are no words of the expansion */
      p = strchr(p, ')') ? strchr(p, ')') + 1 : p + strlen(p);
    while (*p) {
      if (*p == '"' || *p == '\'') { /* literals hold no identifiers */
        const char q = *p++;
        while (*p && *p != q)
          p += p[0] == '\\' && p[1] ? 2 : 1;
        p += *p ? 1 : 0;
      } else if (is_ident_start((unsigned char)*p)) {
        const char *s = p;
        while (is_ident((unsigned char)*p))
          p++;
        if (used + (size_t)(p - s) + 2 < sizeof words) {
          words[used++] = ' ';
          memcpy(words + used, s, (size_t)(p - s));
          used += (size_t)(p - s);
        }
      } else if (isdigit((unsigned char)*p)) {
        while (is_ident((unsigned char)*p) || *p == '.')
          p++;
      } else {
        p++;
      }
    }
    add(&expansions, words, used);
  }
  free(text);
  text = slurp(argv[3]);
  scan(text, 0, &globals, NULL);
  free(text);
  for (int i = 4; i < argc; i++) {
    text = slurp(argv[i]);
    char *body = strstr(text, "\n@@"); /* the prose before the first block is not code */
    scan(body ? body + 1 : text, 1, &template_names, &patterns);
    free(text);
  }
  if (globals.n < 100 || macros.n < 100) {
    fprintf(stderr, "reserved: only %d names and %d macros found; are the CUDA headers there?\n", globals.n, macros.n);
    return 1;
  }
  FILE *out = fopen(argv[1], "w");
  if (!out) {
    perror(argv[1]);
    return 1;
  }
  fprintf(out, "/* Made by tools/reserved.c at build time: do not edit. */\n");
  write_table(out, "reserved_macros", &macros);
  write_table(out, "reserved_macro_expansions", &expansions);
  write_table(out, "reserved_header_names", &globals);
  write_table(out, "reserved_template_names", &template_names);
  write_table(out, "reserved_template_patterns", &patterns);
  return fclose(out) != 0;
}
