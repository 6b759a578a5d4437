/* gpugen explain: what the earlier stages computed for a checked spec,
 * for people (text) or tools (--json). Reads only the model (and the one
 * constant of the reduction template that sizes the temp memory); with
 * --resources, also what resources.c measured. */
#include <stdlib.h>
#include <string.h>
#include "gpugen.h"

/* ---- what both forms show ---------------------------------------------------- */

static int elem_size(const TypeRef *r) { return r->is_scalar ? scalar_info[r->scalar].size : r->type->size; }
static int elem_align(const TypeRef *r) { return r->is_scalar ? scalar_info[r->scalar].align : r->type->align; }

/* Padding bytes between field f and the next one (or the end of the type). */
static int padding_after(const Type *t, int f) {
  const Field *fd = &t->fields[f];
  int end = fd->offset + elem_size(&fd->ref) * fd->count;
  int next = f + 1 < t->nfields ? t->fields[f + 1].offset : t->size;
  return next - end;
}

/* M_R_temp_bytes: [alignment slack][max_grid flags][max_grid partials]. */
static long long temp_bytes(const Reduction *r) {
  long long align = elem_align(&r->accumulator) > 16 ? elem_align(&r->accumulator) : 16;
  return align + (long long)kernel_max_grid * (8 + elem_size(&r->accumulator));
}

static const char *scalar_limit(ScalarKind k, bool max) {
  const ScalarInfo *si = &scalar_info[k];
  if (si->num == NUM_FLOAT)
    return max ? "+inf" : "-inf";
  if (si->num == NUM_BOOL)
    return max ? "true" : "false";
  long double v = max ? si->max : si->min;
  return si->num == NUM_UNSIGNED ? arena_printf("%llu", (unsigned long long)v) : arena_printf("%lld", (long long)v);
}

/* A builtin operator's identity, in words (field by field for structs). */
static const char *builtin_identity(const Reduction *r) {
  const TypeRef *acc = &r->accumulator;
  bool scalar = acc->is_scalar;
  switch (r->op) {
  case OP_SUM: case OP_BIT_OR: case OP_BIT_XOR: case OP_DOT: return scalar ? "0" : "0 in every field";
  case OP_PROD: return scalar ? "1" : "1 in every field";
  case OP_BIT_AND: return scalar ? "all bits set" : "all bits set in every field";
  case OP_MIN: case OP_ARGMIN:
    return scalar ? arena_printf("%s (the largest %s)", scalar_limit(acc->scalar, true), acc->spelling)
                  : "the largest value of every field";
  case OP_MAX: case OP_ARGMAX:
    return scalar ? arena_printf("%s (the smallest %s)", scalar_limit(acc->scalar, false), acc->spelling)
                  : "the smallest value of every field";
  default: bug("no identity for operator %d", (int)r->op);
  }
}

static void put_json_string(Buf *b, const char *s) {
  buf_put(b, "\"");
  for (const unsigned char *p = (const unsigned char *)s; *p; p++)
    if (*p == '"' || *p == '\\')
      buf_printf(b, "\\%c", *p);
    else if (*p < 0x20)
      buf_printf(b, "\\u%04x", *p);
    else
      buf_putn(b, (const char *)p, 1);
  buf_put(b, "\"");
}

/* A spec value (an identity) as compact JSON. Its depth is bounded by the
 * accumulator's nesting, which check.c bounds. */
static void put_value(Buf *b, const Value *v) {
  switch (v->kind) {
  case VAL_NUMBER: buf_printf(b, "%.17g", v->number); break;
  case VAL_STRING: put_json_string(b, v->string); break;
  case VAL_BOOL: buf_put(b, v->boolean ? "true" : "false"); break;
  case VAL_NULL: buf_put(b, "null"); break;
  case VAL_ARRAY: case VAL_OBJECT:
    buf_put(b, v->kind == VAL_ARRAY ? "[" : "{");
    for (int i = 0; i < v->nitems; i++) {
      if (i)
        buf_put(b, ", ");
      if (v->kind == VAL_OBJECT) {
        put_json_string(b, v->items[i]->key);
        buf_put(b, ": ");
      }
      put_value(b, v->items[i]);
    }
    buf_put(b, v->kind == VAL_ARRAY ? "]" : "}");
    break;
  }
}

static const char *plan_offsets(const WordPlan *p) {
  Buf b = {0};
  for (int w = 0; w < p->nwords; w++)
    buf_printf(&b, w ? " %d" : "%d", p->offsets[w]);
  const char *s = arena_strdup(b.data ? b.data : "");
  buf_free(&b);
  return s;
}

/* ---- selection ------------------------------------------------------------------ */

static bool wanted(const ExplainOptions *o, const char *name, bool *used) {
  if (o->nnames == 0)
    return true;
  for (int i = 0; i < o->nnames; i++)
    if (strcmp(o->names[i], name) == 0)
      return used[i] = true;
  return false;
}

/* Every NAME must be a type or a reduction of the spec. */
static bool check_names(const Spec *spec, const ExplainOptions *o) {
  bool ok = true;
  const char **known = ARENA_ARRAY(const char *, spec->ntypes + spec->nreductions + 1);
  int nknown = 0;
  for (int i = 0; i < spec->ntypes; i++)
    known[nknown++] = spec->types[i]->name;
  for (int i = 0; i < spec->nreductions; i++)
    known[nknown++] = spec->reductions[i].name;
  for (int n = 0; n < o->nnames; n++) {
    bool found = false;
    for (int k = 0; k < nknown && !found; k++)
      found = strcmp(known[k], o->names[n]) == 0;
    if (!found) {
      const char *hint = suggest(o->names[n], known, nknown);
      diag_error(spec->path, "explain: '%s' is no type or reduction of the spec%s", o->names[n],
                 hint ? arena_printf(" (did you mean '%s'?)", hint) : "");
      ok = false;
    }
  }
  return ok;
}

/* ---- text -------------------------------------------------------------------------- */

static void text_plan(Buf *b, const char *what, const char *verb, const WordPlan *p, int size) {
  buf_printf(b, "  %s: %d word%s of %d bytes %s", what, p->nwords, p->nwords == 1 ? "" : "s", p->word_bytes, verb);
  if (p->nwords)
    buf_printf(b, " (offsets %s)", plan_offsets(p));
  buf_printf(b, ", %d padding word%s skipped", p->skipped, p->skipped == 1 ? "" : "s");
  if (p->nwords && p->bytes[p->nwords - 1] < p->word_bytes)
    buf_printf(b, "; the last word holds %d of the %d bytes", p->bytes[p->nwords - 1], size);
  buf_put(b, "\n");
}

static void text_type(Buf *b, const Type *t) {
  buf_printf(b, "type %s: %d bytes, align %d%s, %d padding byte%s\n", t->name, t->size, t->align,
             t->vector ? " (CUDA's vector type)" : t->explicit_align ? " (raised by \"align\")" : "", t->padding_bytes,
             t->padding_bytes == 1 ? "" : "s");
  buf_printf(b, "  %-16s %-20s %6s %5s %5s %8s\n", "field", "type", "offset", "size", "align", "padding");
  for (int f = 0; f < t->nfields; f++) {
    const Field *fd = &t->fields[f];
    const char *type = fd->is_array ? arena_printf("%s[%d]", fd->ref.spelling, fd->count) : fd->ref.spelling;
    buf_printf(b, "  %-16s %-20s %6d %5d %5d %8d\n", fd->name, type, fd->offset, elem_size(&fd->ref) * fd->count,
               elem_align(&fd->ref), padding_after(t, f));
  }
  text_plan(b, "shuffle", "moved", &t->shuffle, t->size);
  text_plan(b, "ldg", "loaded", &t->load, t->size);
}

static void text_resources(Buf *b, int index, const Resources *res) {
  buf_put(b, "  resources (ptxas -v; instructions in the PTX):\n");
  for (int k = 0; k < res->n; k++) {
    const KernelResources *kr = &res->kernels[k];
    if (kr->reduction == index)
      buf_printf(b, "    %-8s %s: %d registers, %d B stack, %d B spill stores, %d B spill loads, %d B smem; "
                 "%d shfl.sync, %d ld.global\n", kr->target, kr->kernel, kr->registers, kr->stack_bytes,
                 kr->spill_store_bytes, kr->spill_load_bytes, kr->smem_bytes, kr->shfl, kr->global_loads);
  }
}

static void json_resources(Buf *b, int index, const Resources *res) {
  buf_put(b, ",\n     \"resources\": [");
  int n = 0;
  for (int k = 0; k < res->n; k++) {
    const KernelResources *kr = &res->kernels[k];
    if (kr->reduction == index)
      buf_printf(b, "%s{\"target\": \"%s\", \"kernel\": \"%s\", \"registers\": %d, \"stack_bytes\": %d, "
                 "\"spill_store_bytes\": %d, \"spill_load_bytes\": %d, \"smem_bytes\": %d, \"shfl_sync\": %d, "
                 "\"ld_global\": %d}", n++ ? ",\n                   " : "", kr->target, kr->kernel, kr->registers,
                 kr->stack_bytes, kr->spill_store_bytes, kr->spill_load_bytes, kr->smem_bytes, kr->shfl,
                 kr->global_loads);
  }
  buf_put(b, "]");
}

static void text_reduction(Buf *b, const Spec *spec, const Reduction *r, int index, const Resources *res) {
  const char *in = r->input.spelling;
  if (r->ninputs > 1) {
    in = "(";
    for (int i = 0; i < r->ninputs; i++)
      in = arena_printf("%s%s%s", in, i ? ", " : "", r->inputs[i].spelling);
    in = arena_printf("%s)", in);
  }
  buf_printf(b, "reduction %s: %s -> %s\n", r->name, in, r->accumulator.spelling);
  if (r->ninputs > 1) {
    buf_printf(b, "  inputs: %d arrays of n elements each, read together: ", r->ninputs);
    for (int i = 0; i < r->ninputs; i++)
      buf_printf(b, "%sd_in%d (%s, %d bytes)", i ? ", " : "", i, r->inputs[i].spelling, elem_size(&r->inputs[i]));
    buf_put(b, "\n");
  }
  if (r->op != OP_NONE)
    buf_printf(b, "  operator: builtin %s\n  identity: %s\n", op_names[r->op], builtin_identity(r));
  else {
    if (r->fold)
      buf_printf(b, "  operators: fold %s, combine %s\n  identity: ", r->fold, r->combine);
    else
      buf_printf(b, "  operators: combine %s (also folds each input)\n  identity: ", r->combine);
    put_value(b, r->identity);
    buf_put(b, "\n");
  }
  if (r->indexed || r->has_params)
    buf_printf(b, "  fold also takes: %s%s%s\n", r->indexed ? "the element's index (long long; within the segment for "
                                                                "the segmented forms)" : "",
               r->indexed && r->has_params ? ", then " : "",
               r->has_params ? arena_printf("the params (%s, read from *params at each call and passed by value)",
                                            type_cuda_spelling(&r->params)) : "");
  buf_printf(b, "  commutative: %s\n", r->commutative ? "yes (each lane keeps independent chains)"
                                                      : "no (every merge keeps input order)");
  buf_printf(b, "  merge across blocks: %s\n",
             r->packs_in_ticket ? "in the atomic that counts the blocks (an integer sum of up to 32 bits)"
                                : "the last block to finish merges the partials in block order");
  buf_printf(b, "  CPU reference: %s%s\n",
             r->host_reference ? arena_printf("%s_%s_host", spec->module, r->name)
                               : "none (an operator runs on the GPU only)",
             r->host_reference && r->host_through_pointer
                 ? ", which writes its result to *h_out (the accumulator holds a __half2 or __nv_bfloat162, "
                   "which C and C++ return differently by value)"
                 : "");
  if (r->segmented)
    buf_printf(b, "  segmented: %s_%s_segmented (%s offsets) and %s_%s_rows\n", spec->module, r->name,
               scalar_info[r->offset].spelling, spec->module, r->name);
  if (r->nccl)
    buf_printf(b, "  across GPUs (NCCL): %s_%s_nccl (rank 0's data, then rank 1's, ...) and %s_%s_combine_nccl "
               "(element-wise, in rank order); the device path %s_%s_nccl_window and %s_%s_combine_nccl_window "
               "(a %s_nccl_window, NCCL 2.28's device API)\n", spec->module, r->name, spec->module, r->name,
               spec->module, r->name, spec->module, r->name, spec->module);
  const ReadPlan *p = &r->read;
  if (r->ninputs > 1 && p->per_group)
    buf_printf(b, "  read plan: groups of %d elements of each array (%d bytes, %d x 16-byte loads in all), after a "
               "head of at most 15 elements that puts every array on a 16-byte boundary; element by element with ldg "
               "when the arrays have no such common head\n", p->per_group, p->group, p->vec);
  else if (r->ninputs > 1)
    buf_printf(b, "  read plan: element by element with ldg, %d bytes of each element of every array (a group of "
               "whole elements of each array in 16-byte words would exceed 64 bytes for one of them)\n", p->size);
  else if (p->per_group)
    buf_printf(b, "  read plan: %d-byte elements in groups of %d bytes (%d element%s, %d x 16-byte loads), after a "
               "head of at most 15 elements peeled to a 16-byte boundary; element by element with ldg when no "
               "head aligns the input\n", p->size, p->group, p->per_group, p->per_group == 1 ? "" : "s", p->vec);
  else
    buf_printf(b, "  read plan: %d-byte elements one by one with ldg (a group of whole elements in 16-byte words "
               "would be %d bytes, over the 64-byte register budget)\n", p->size, p->group);
  buf_put(b, "  tuning: a device of compute capability X takes the entry of the largest tuned target not above X\n"
             "          (upper_bound(X) - 1 over the tuned targets in ascending order), else \"default\":\n");
  for (int i = 0; i < spec->ntargets; i++) {
    const Target *t = &spec->targets[i];
    const Target *from = spec_tuned_target(spec, t->arch);
    const Tuning *tu = from ? &from->tuning : &spec->default_tuning;
    buf_printf(b, "    %-8s block %4d, items_per_thread %3d, min_blocks_per_sm %s  (%s)\n", t->name, tu->block,
               tu->items_per_thread, tu->min_blocks_per_sm ? arena_printf("%d", tu->min_blocks_per_sm) : "-",
               from ? arena_printf("from %s", from->name) : "default");
  }
  long long grid = (long long)kernel_max_grid;
  int acc_align = elem_align(&r->accumulator);
  buf_printf(b, "  temp bytes: %lld = %d (alignment) + %lld flags x 8 + %lld partials x %d, whatever n is\n",
             temp_bytes(r), acc_align > 16 ? acc_align : 16, grid, grid, elem_size(&r->accumulator));
  if (res)
    text_resources(b, index, res);
}

/* ---- JSON (shape: docs/integration.md) ------------------------------------------------ */

static void json_plan(Buf *b, const WordPlan *p) {
  buf_printf(b, "{\"word_bytes\": %d, \"skipped_padding_words\": %d, \"words\": [", p->word_bytes, p->skipped);
  for (int w = 0; w < p->nwords; w++)
    buf_printf(b, "%s{\"offset\": %d, \"bytes\": %d}", w ? ", " : "", p->offsets[w], p->bytes[w]);
  buf_put(b, "]}");
}

static void json_type(Buf *b, const Type *t) {
  buf_put(b, "    {\"name\": ");
  put_json_string(b, t->name);
  buf_printf(b, ", \"size\": %d, \"align\": %d, \"padding_bytes\": %d,%s\n     \"fields\": [", t->size, t->align,
             t->padding_bytes, t->vector ? " \"cuda_vector\": true," : "");
  for (int f = 0; f < t->nfields; f++) {
    const Field *fd = &t->fields[f];
    buf_put(b, f ? ",\n                {\"name\": " : "{\"name\": ");
    put_json_string(b, fd->name);
    buf_put(b, ", \"type\": ");
    put_json_string(b, fd->ref.spelling);
    buf_printf(b, ", \"count\": %d, \"offset\": %d, \"size\": %d, \"align\": %d, \"padding_after\": %d}", fd->count,
               fd->offset, elem_size(&fd->ref) * fd->count, elem_align(&fd->ref), padding_after(t, f));
  }
  buf_put(b, "],\n     \"shuffle\": ");
  json_plan(b, &t->shuffle);
  buf_put(b, ",\n     \"ldg\": ");
  json_plan(b, &t->load);
  buf_put(b, "}");
}

static void json_reduction(Buf *b, const Spec *spec, const Reduction *r, int index, const Resources *res) {
  buf_put(b, "    {\"name\": ");
  put_json_string(b, r->name);
  buf_put(b, ", \"input\": ");
  if (r->ninputs > 1) {
    buf_put(b, "[");
    for (int i = 0; i < r->ninputs; i++) {
      buf_put(b, i ? ", " : "");
      put_json_string(b, r->inputs[i].spelling);
    }
    buf_put(b, "]");
  } else {
    put_json_string(b, r->input.spelling);
  }
  buf_put(b, ", \"accumulator\": ");
  put_json_string(b, r->accumulator.spelling);
  if (r->op != OP_NONE) {
    buf_printf(b, ",\n     \"operator\": {\"builtin\": \"%s\"}, \"identity\": ", op_names[r->op]);
    put_json_string(b, builtin_identity(r));
  } else {
    buf_put(b, ",\n     \"operator\": {\"fold\": ");
    if (r->fold)
      put_json_string(b, r->fold);
    else
      buf_put(b, "null");
    buf_put(b, ", \"combine\": ");
    put_json_string(b, r->combine);
    buf_put(b, "}, \"identity\": ");
    put_value(b, r->identity);
  }
  buf_printf(b, ",\n     \"indexed\": %s, \"params\": ", r->indexed ? "true" : "false");
  if (r->has_params)
    put_json_string(b, type_cuda_spelling(&r->params));
  else
    buf_put(b, "null");
  buf_printf(b, ",\n     \"commutative\": %s, \"merge\": \"%s\", \"cpu_reference\": ",
             r->commutative ? "true" : "false", r->packs_in_ticket ? "in_ticket_atomic" : "last_block");
  if (r->host_reference)
    put_json_string(b, arena_printf("%s_%s_host", spec->module, r->name));
  else
    buf_put(b, "null");
  buf_put(b, ", \"segmented\": ");
  if (r->segmented)
    buf_printf(b, "{\"offset_type\": \"%s\"}", scalar_info[r->offset].spelling);
  else
    buf_put(b, "null");
  buf_put(b, ", \"nccl\": ");
  if (r->nccl)
    buf_printf(b, "{\"global\": \"%s_%s_nccl\", \"combine\": \"%s_%s_combine_nccl\", "
               "\"global_window\": \"%s_%s_nccl_window\", \"combine_window\": \"%s_%s_combine_nccl_window\"}",
               spec->module, r->name, spec->module, r->name, spec->module, r->name, spec->module, r->name);
  else
    buf_put(b, "null");
  const ReadPlan *p = &r->read;
  buf_printf(b, ",\n     \"read_plan\": {\"element_bytes\": %d, \"group_bytes\": %d, \"vector_loads_per_group\": %d, "
             "\"elements_per_group\": %d, \"vector_path\": %s},\n     \"tuning\": [", p->size, p->group, p->vec,
             p->per_group, p->per_group ? "true" : "false");
  for (int i = 0; i < spec->ntargets; i++) {
    const Target *t = &spec->targets[i];
    const Target *from = spec_tuned_target(spec, t->arch);
    const Tuning *tu = from ? &from->tuning : &spec->default_tuning;
    buf_printf(b, "%s{\"target\": \"%s\", \"block\": %d, \"items_per_thread\": %d, \"min_blocks_per_sm\": %d, "
               "\"from\": \"%s\"}", i ? ",\n                " : "", t->name, tu->block, tu->items_per_thread,
               tu->min_blocks_per_sm, from ? from->name : "default");
  }
  buf_printf(b, "],\n     \"temp_bytes\": %lld", temp_bytes(r));
  if (res)
    json_resources(b, index, res);
  buf_put(b, "}");
}

bool explain_spec(const Spec *spec, const ExplainOptions *o, const Resources *res, FILE *out) {
  if (!check_names(spec, o))
    return false;
  bool *used = ARENA_ARRAY(bool, o->nnames + 1);
  Buf b = {0};
  if (o->json) {
    buf_printf(&b, "{\"gpugen\": \"%s\", \"module\": ", GPUGEN_VERSION);
    put_json_string(&b, spec->module);
    buf_put(&b, ", \"targets\": [");
    for (int i = 0; i < spec->ntargets; i++)
      buf_printf(&b, "%s\"%s\"", i ? ", " : "", spec->targets[i].name);
    buf_put(&b, "],\n  \"types\": [");
    int n = 0;
    for (int i = 0; i < spec->ntypes; i++)
      if (wanted(o, spec->types[i]->name, used)) {
        buf_put(&b, n++ ? ",\n" : "\n");
        json_type(&b, spec->types[i]);
      }
    buf_put(&b, n ? "\n  ],\n  \"reductions\": [" : "],\n  \"reductions\": [");
    n = 0;
    for (int i = 0; i < spec->nreductions; i++)
      if (wanted(o, spec->reductions[i].name, used)) {
        buf_put(&b, n++ ? ",\n" : "\n");
        json_reduction(&b, spec, &spec->reductions[i], i, res);
      }
    buf_put(&b, n ? "\n  ]}\n" : "]}\n");
  } else {
    buf_printf(&b, "module %s, targets", spec->module);
    for (int i = 0; i < spec->ntargets; i++)
      buf_printf(&b, " %s", spec->targets[i].name);
    buf_put(&b, "\n");
    for (int i = 0; i < spec->ntypes; i++)
      if (wanted(o, spec->types[i]->name, used)) {
        buf_put(&b, "\n");
        text_type(&b, spec->types[i]);
      }
    for (int i = 0; i < spec->nreductions; i++)
      if (wanted(o, spec->reductions[i].name, used)) {
        buf_put(&b, "\n");
        text_reduction(&b, spec, &spec->reductions[i], i, res);
      }
  }
  fputs(b.data, out);
  buf_free(&b);
  return true;
}
