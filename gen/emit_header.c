/* <module>.h: the struct definitions (or the user's headers), the layout
 * checks, and the C-callable host API. Valid C11, C++ and CUDA. */
#include <string.h>
#include "gpugen.h"

#define TMPL "header.h.tmpl"

static bool is_half_kind(ScalarKind k) { return k == SC_HALF || k == SC_BF16; }
/* __half and __nv_bfloat16, and CUDA's vector types of them (__half2) */
static bool is_half(const TypeRef *r) {
  return r->is_scalar ? is_half_kind(r->scalar) : r->type->vector && is_half_kind(r->type->vector->elem);
}

static bool uses_half_types(const Spec *spec) {
  for (int i = 0; i < spec->ntypes; i++)
    for (int f = 0; f < spec->types[i]->nfields; f++)
      if (is_half(&spec->types[i]->fields[f].ref))
        return true;
  for (int i = 0; i < spec->nreductions; i++) {
    const Reduction *r = &spec->reductions[i];
    for (int k = 0; k < r->ninputs; k++)
      if (is_half(&r->inputs[k]))
        return true;
    if (is_half(&r->accumulator) || (r->has_params && is_half(&r->params)))
      return true;
  }
  return false;
}

static bool uses_half_vectors(const Spec *spec) {
  for (int i = 0; i < spec->ntypes; i++)
    if (spec->types[i]->vector && is_half_kind(spec->types[i]->vector->elem))
      return true;
  return false;
}

static void emit_struct(Buf *b, const Type *t) {
  buf_printf(b, "\n/* %d bytes, align %d */\n", t->size, t->align);
  buf_printf(b, "typedef struct %s {\n", t->name);
  for (int f = 0; f < t->nfields; f++) {
    const Field *fd = &t->fields[f];
    buf_put(b, "  ");
    if (f == 0 && t->explicit_align)
      buf_printf(b, "GPUGEN_ALIGNAS(%d) ", t->explicit_align);
    buf_printf(b, "%s %s", type_c_spelling(&fd->ref), fd->name);
    if (fd->is_array)
      buf_printf(b, "[%d]", fd->count);
    buf_printf(b, "; /* offset %d */\n", fd->offset);
  }
  buf_printf(b, "} %s;\n", t->name);
}

/* The compiler re-checks every number layout.c computed, as bindgen's
 * layout tests do; with user headers this is what catches a mismatch. */
static void emit_layout_asserts(Buf *b, const Type *t) {
  const char *n = t->c_spelling;
  buf_printf(b, "GPUGEN_STATIC_ASSERT(sizeof(%s) == %d, \"%s: size differs from the spec\");\n", n, t->size, n);
  buf_printf(b, "GPUGEN_STATIC_ASSERT(GPUGEN_ALIGNOF(%s) == %d, \"%s: alignment differs from the spec\");\n", n,
             t->align, n);
  if (t->not_standard_layout) {
    buf_printf(b, "/* %s has fields in a base class and in itself, where offsetof is not portable:\n"
                  " * gpugen checked their offsets when it read the header. */\n", n);
    return;
  }
  for (int f = 0; f < t->nfields; f++) {
    const Field *fd = &t->fields[f];
    int elem = fd->ref.is_scalar ? scalar_info[fd->ref.scalar].size : fd->ref.type->size;
    buf_printf(b, "GPUGEN_STATIC_ASSERT(offsetof(%s, %s) == %d, \"%s.%s: offset differs from the spec\");\n", n,
               fd->name, fd->offset, n, fd->name);
    buf_printf(b, "GPUGEN_STATIC_ASSERT(sizeof(((%s *)0)->%s) == %d, \"%s.%s: size differs from the spec\");\n", n,
               fd->name, elem * fd->count, n, fd->name);
  }
}

void emit_header(const Spec *spec, OutputSet *out) {
  Buf *b = output_add(out, arena_printf("%s.h", spec->module));
  emit_banner(b, spec, "/* ", " * ", " */");
  const char *kv[] = {"MODULE", spec->module, "GUARD", module_guard(spec), NULL};
  template_emit(b, TMPL, "prologue", kv);
  emit_nccl_include(spec, b);
  if (uses_half_types(spec))
    template_emit(b, TMPL, "half_types", kv);
  if (uses_half_vectors(spec))
    template_emit(b, TMPL, "half_vector_types", kv);

  if (spec->nheaders) {
    buf_put(b, "\n/* The types come from the spec's headers; the checks below make the\n"
               " * compiler confirm they match the spec. */\n");
    /* by the spelling in the spec, found through the include flags of
     * <module>.mk or gpugen_generate(), so the output directory can move */
    if (spec->cxx_only_headers)
      buf_printf(b, "#ifndef __cplusplus\n#error \"%s.h: the spec's headers are C++ only; include %s.h from C++ or CUDA "
                 "(its API is extern C)\"\n#endif\n", spec->module, spec->module);
    /* a header that leaves a #pragma pack active must not pack the code below */
    buf_put(b, "#pragma pack(push)\n");
    for (int i = 0; i < spec->nheaders; i++)
      buf_printf(b, "#include \"%s\"\n", spec->headers[i]);
    buf_put(b, "#pragma pack(pop)\n");
  }
  const size_t after_headers = b->len;
  for (int i = 0; i < spec->ntypes; i++)
    if (spec->types_ordered[i]->vector)
      continue; /* CUDA's headers define it; the checks below assert its layout */
    else if (!spec->nheaders || spec->types_ordered[i]->synthetic)
      emit_struct(b, spec->types_ordered[i]);
  if (spec->ntypes)
    buf_put(b, "\n/* Layout checks */\n");
  for (int i = 0; i < spec->ntypes; i++)
    emit_layout_asserts(b, spec->types_ordered[i]);
  buf_put(b, "\n");
  template_emit(b, TMPL, "api", kv);
  emit_reduce_declarations(spec, b);
  emit_shield_user_macros(b, spec, after_headers, arena_printf("%s.h", spec->module));
  template_emit(b, TMPL, "api_end", kv);
}
