/* Fills the CUDA skeletons of templates/ (embedded at build time). A
 * template is split into blocks, each starting with a line "@@ NAME";
 * $(KEY) in a block is replaced by the value the emitter passes, and $$
 * stands for a literal $ (for make syntax). */
#include <string.h>
#include "gpugen.h"

extern const struct {
  const char *name;
  const char *text;
} embedded_templates[];

const char *template_text(const char *name) {
  for (int i = 0; embedded_templates[i].name; i++)
    if (strcmp(embedded_templates[i].name, name) == 0)
      return embedded_templates[i].text;
  bug("no template named %s", name);
}

static const char *find_block(const char *text, const char *block, const char **end) {
  size_t n = strlen(block);
  for (const char *p = text; p && *p;) {
    if (strncmp(p, "@@ ", 3) == 0 && strncmp(p + 3, block, n) == 0 && p[3 + n] == '\n') {
      const char *start = p + 4 + n;
      const char *q = start;
      while (*q && !(q[0] == '@' && q[1] == '@' && q[2] == ' ' && (q == start || q[-1] == '\n')))
        q++;
      *end = q;
      return start;
    }
    p = strchr(p, '\n');
    if (p)
      p++;
  }
  return NULL;
}

void template_emit(Buf *b, const char *name, const char *block, const char *const *kv) {
  const char *end;
  const char *p = find_block(template_text(name), block, &end);
  if (!p)
    bug("template %s has no block %s", name, block);
  while (p < end) {
    const char *dollar = strchr(p, '$');
    if (!dollar || dollar >= end) {
      buf_putn(b, p, (size_t)(end - p));
      return;
    }
    buf_putn(b, p, (size_t)(dollar - p));
    if (dollar[1] == '$') {
      buf_put(b, "$");
      p = dollar + 2;
      continue;
    }
    if (dollar[1] != '(')
      bug("lone $ in template %s block %s", name, block);
    const char *close = strchr(dollar, ')');
    if (!close || close >= end)
      bug("unterminated $( in template %s block %s", name, block);
    size_t klen = (size_t)(close - dollar - 2);
    const char *value = NULL;
    for (const char *const *k = kv; k && *k; k += 2)
      if (strlen(*k) == klen && strncmp(*k, dollar + 2, klen) == 0)
        value = k[1];
    if (!value)
      bug("template %s block %s uses $(%.*s), which the emitter did not give", name, block, (int)klen, dollar + 2);
    buf_put(b, value);
    p = close + 1;
  }
}
