/* <module>.cuh: SharedMem<T>, warp shuffles and ldg for every spec type
 * and builtin scalar, following the word plans of layout.c. */
#include <string.h>
#include "gpugen.h"

#define TMPL "device.cuh.tmpl"

/* One C++ type per distinct builtin (int32_t is int, so it gets no
 * overloads of its own); natively_shuffled ones go straight to the
 * intrinsics. */
static const struct {
  ScalarKind kind;
  bool natively_shuffled;
} device_scalars[] = {
  {SC_BOOL, false}, {SC_CHAR, false}, {SC_SCHAR, false}, {SC_UCHAR, false}, {SC_SHORT, false},
  {SC_USHORT, false}, {SC_INT, true}, {SC_UINT, true}, {SC_LONG, true}, {SC_ULONG, true},
  {SC_LLONG, true}, {SC_ULLONG, true}, {SC_FLOAT, true}, {SC_DOUBLE, true}, {SC_HALF, true},
  {SC_BF16, true},
};

static const char *load_word_type(int bytes) {
  switch (bytes) {
  case 1: return "unsigned char";
  case 2: return "unsigned short";
  case 4: return "unsigned int";
  case 8: return "uint2";
  case 16: return "uint4";
  }
  bug("no load word of %d bytes", bytes);
}

/* Emits the plan's words as runs of consecutive words, one line each. */
static void emit_shuffle_runs(Buf *b, const WordPlan *p) {
  for (int i = 0; i < p->nwords;) {
    int j = i;
    while (j + 1 < p->nwords && p->offsets[j + 1] == p->offsets[j] + 4 && p->bytes[j + 1] == 4)
      j++;
    int full = p->bytes[j] == 4 ? j - i + 1 : j - i;
    if (full > 0)
      buf_printf(b, "  shuffle_run<%d>(in + %d, out + %d, op); /* bytes %d..%d */\n", full, p->offsets[i],
                 p->offsets[i], p->offsets[i], p->offsets[i] + 4 * full - 1);
    if (full < j - i + 1)
      buf_printf(b, "  shuffle_tail<%d>(in + %d, out + %d, op); /* bytes %d..%d */\n", p->bytes[j], p->offsets[j],
                 p->offsets[j], p->offsets[j], p->offsets[j] + p->bytes[j] - 1);
    i = j + 1;
  }
}

static void emit_load_runs(Buf *b, const WordPlan *p) {
  for (int i = 0; i < p->nwords;) {
    int j = i;
    while (j + 1 < p->nwords && p->offsets[j + 1] == p->offsets[j] + p->word_bytes)
      j++;
    int n = j - i + 1;
    buf_printf(b, "  detail::load_run<%d, %s>(in + %d, out + %d); /* bytes %d..%d */\n", n,
               load_word_type(p->word_bytes), p->offsets[i], p->offsets[i], p->offsets[i],
               p->offsets[i] + n * p->word_bytes - 1);
    i = j + 1;
  }
}

static const char *plural(int n, const char *word) { return arena_printf("%d %s%s", n, word, n == 1 ? "" : "s"); }

static void emit_plan_comment(Buf *b, const char *name, int size, int align, int padding, const WordPlan *shuffle,
                              const WordPlan *load) {
  buf_printf(b, "/* %s: %s, align %d, %s of padding\n", name, plural(size, "byte"), align, plural(padding, "byte"));
  buf_printf(b, " *   shuffle: %s of 32 bits (%s), %s skipped\n", plural(shuffle->nwords, "word"),
             plural(shuffle->nwords, "shfl.sync"), plural(shuffle->skipped, "padding word"));
  buf_printf(b, " *   ldg:     %s of %s, %s skipped */\n", plural(load->nwords, "load"),
             plural(load->word_bytes, "byte"), plural(load->skipped, "padding word"));
}

/* bits_equal compares the bytes that belong to fields, range by range. */
static const char *equal_ranges(const unsigned char *used, int size) {
  Buf b = {0};
  for (int i = 0; i < size;) {
    if (used && !used[i]) {
      i++;
      continue;
    }
    int j = i;
    while (j < size && (!used || used[j]))
      j++;
    buf_printf(&b, "%sdetail::bytes_equal(pa + %d, pb + %d, %d)", b.len ? " &&\n         " : "", i, i, j - i);
    i = j;
  }
  const char *out = arena_strdup(b.data);
  buf_free(&b);
  return out;
}

static void emit_words_type(Buf *b, const char *type, const WordPlan *shuffle, const WordPlan *load,
                            const unsigned char *used, int size) {
  const char *kv[] = {"TYPE", type, NULL};
  template_emit(b, TMPL, "words_open", kv);
  emit_shuffle_runs(b, shuffle);
  template_emit(b, TMPL, "words_close", kv);
  emit_load_runs(b, load);
  template_emit(b, TMPL, "ldg_close", kv);
  const char *kv2[] = {"TYPE", type, "RANGES", equal_ranges(used, size), NULL};
  template_emit(b, TMPL, "bits_equal_open", kv2);
}

static void emit_shared_mem(Buf *b, const Spec *spec, const char *type, const char *ident, int align) {
  const char *array = arena_printf("gpugen_%s_smem_%s", spec->module, ident);
  const char *kv[] = {"TYPE", type, "ALIGN", arena_printf("%d", align), "ARRAY", array, NULL};
  template_emit(b, TMPL, "shared_mem", kv);
}

void emit_device(const Spec *spec, OutputSet *out) {
  Buf *b = output_add(out, arena_printf("%s.cuh", spec->module));
  emit_banner(b, spec, "/* ", " * ", " */");
  buf_put(b, "/* Device helpers for the types of this module: SharedMem<T>, shfl_sync,\n"
             " * shfl_up_sync, shfl_down_sync, shfl_xor_sync, ldg and bits_equal. See docs/emitted.md. */\n");
  const char *kv[] = {"MODULE", spec->module, "GUARD", module_guard(spec), NULL};
  const size_t before = b->len;
  template_emit(b, TMPL, "prologue", kv);
  emit_nccl_device_includes(spec, b);
  template_emit(b, TMPL, "module_header", kv);
  /* the system headers come first, then <module>.h with the spec's, then gpugen's code */
  const char *include = strstr(b->data + before, arena_printf("#include \"%s.h\"\n", spec->module));
  if (!include)
    bug("the .cuh prologue does not include %s.h", spec->module);
  const size_t after_headers = (size_t)(strchr(include, '\n') + 1 - b->data);

  template_emit(b, TMPL, "builtin_scalars", kv);
  for (size_t i = 0; i < sizeof device_scalars / sizeof device_scalars[0]; i++) {
    const ScalarInfo *si = &scalar_info[device_scalars[i].kind];
    const char *skv[] = {"TYPE", si->spelling, "ALIGN", arena_printf("%d", si->align),
                         "ARRAY", arena_printf("gpugen_%s_smem_%s", spec->module, si->ident),
                         "WORD", load_word_type(si->size), NULL};
    template_emit(b, TMPL, device_scalars[i].natively_shuffled ? "native_scalar" : "small_scalar", skv);
  }

  if (spec->ntypes)
    buf_put(b, "\n/* ---- spec types ---- */\n");
  for (int i = 0; i < spec->ntypes; i++) {
    const Type *t = spec->types_ordered[i];
    buf_put(b, "\n");
    emit_plan_comment(b, t->name, t->size, t->align, t->padding_bytes, &t->shuffle, &t->load);
    /* gpugen_M_smem_type_NAME: a type named like a builtin's identifier (llong, uchar) keeps an array of its
     * own; __half2's is ..._type_half2, with no "__" inside a name */
    const char *ident = arena_printf("type_%s", t->vector ? t->name + strspn(t->name, "_") : t->name);
    emit_shared_mem(b, spec, t->name, ident, t->align);
    emit_words_type(b, t->name, &t->shuffle, &t->load, t->used, t->size);
  }
  emit_reduce_device(spec, b);
  template_emit(b, TMPL, "namespace_end", kv);
  emit_reduce_device_api(spec, b);
  emit_shield_user_macros(b, spec, after_headers, arena_printf("%s.cuh", spec->module));
  template_emit(b, TMPL, "guard_end", kv);
}
