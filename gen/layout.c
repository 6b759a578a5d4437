/* Sizes, alignments, field offsets and padding (x86-64 Linux C rules, which
 * nvcc uses for device code too), and the word plans the emitters follow:
 * which 32-bit words a shuffle moves and which vector loads ldg issues. */
#include <string.h>
#include "gpugen.h"

static const char *spec_path; /* for messages */

static int round_up(int x, int a) { return (x + a - 1) / a * a; }

/* Splits [0, size) into words of word_bytes and keeps those that hold at
 * least one used byte. */
static void make_plan(WordPlan *p, int size, int word_bytes, const unsigned char *used) {
  int total = (size + word_bytes - 1) / word_bytes;
  p->word_bytes = word_bytes;
  p->offsets = ARENA_ARRAY(int, total);
  p->bytes = ARENA_ARRAY(int, total);
  p->nwords = 0;
  p->skipped = 0;
  for (int w = 0; w < total; w++) {
    int off = w * word_bytes;
    int n = size - off < word_bytes ? size - off : word_bytes;
    bool any = used == NULL;
    for (int i = 0; i < n && !any; i++)
      any = used[off + i];
    if (!any) {
      p->skipped++;
      continue;
    }
    p->offsets[p->nwords] = off;
    p->bytes[p->nwords] = n;
    p->nwords++;
  }
}

/* Loads may be as wide as the type's alignment guarantees, up to 16 bytes. */
static int load_word_bytes(int align) { return align >= 16 ? 16 : align; }

void layout_scalar_plan(ScalarKind k, WordPlan *shuffle, WordPlan *load) {
  int size = scalar_info[k].size;
  make_plan(shuffle, size, 4, NULL);
  make_plan(load, size, load_word_bytes(scalar_info[k].align), NULL);
}

static void elem_layout(const TypeRef *r, int *size, int *align) {
  if (r->is_scalar) {
    *size = scalar_info[r->scalar].size;
    *align = scalar_info[r->scalar].align;
  } else {
    *size = r->type->size;
    *align = r->type->align;
  }
}

void layout_type(Type *t) {
  int offset = 0, align = 1;
  long long end = 0;
  for (int f = 0; f < t->nfields; f++) {
    Field *fd = &t->fields[f];
    int es, ea;
    elem_layout(&fd->ref, &es, &ea);
    if (es == 0)
      bug("field %s laid out before its type", fd->name);
    fd->offset = round_up(offset, ea);
    end = (long long)fd->offset + (long long)es * fd->count;
    if (end > LIMIT_TYPE_BYTES) {
      diag_error(spec_path, "%s: type '%s' is larger than %d bytes; gpugen accepts at most %d (docs/spec.md, Limits)",
                 t->path, t->name, LIMIT_TYPE_BYTES, LIMIT_TYPE_BYTES);
      t->size = t->align = 1;
      return;
    }
    offset = (int)end;
    if (ea > align)
      align = ea;
  }
  if (t->explicit_align) {
    if (t->explicit_align < align)
      diag_error(spec_path, "%s.align: %d is below the natural alignment of '%s' (%d); C cannot lower it", t->path,
                 t->explicit_align, t->name, align);
    else
      align = t->explicit_align;
  }
  t->align = align;
  t->size = round_up(offset, align);
  t->used = arena_alloc((size_t)t->size);
  for (int f = 0; f < t->nfields; f++) {
    Field *fd = &t->fields[f];
    int es, ea;
    elem_layout(&fd->ref, &es, &ea);
    for (int e = 0; e < fd->count; e++) {
      unsigned char *dst = t->used + fd->offset + e * es;
      if (fd->ref.is_scalar)
        memset(dst, 1, (size_t)es);
      else
        memcpy(dst, fd->ref.type->used, (size_t)es);
    }
  }
  t->padding_bytes = 0;
  for (int i = 0; i < t->size; i++)
    t->padding_bytes += !t->used[i];
  make_plan(&t->shuffle, t->size, 4, t->used);
  make_plan(&t->load, t->size, load_word_bytes(t->align), t->used);
}

static int gcd(int a, int b) { return b ? gcd(b, a % b) : a; }

static int ref_size(const TypeRef *t) { return t->is_scalar ? scalar_info[t->scalar].size : t->type->size; }
static int ref_align(const TypeRef *t) { return t->is_scalar ? scalar_info[t->scalar].align : t->type->align; }

/* One input: groups of lcm(size, 16) bytes. Several: group g holds elements
 * [g * U, (g + 1) * U) of every array, U the lcm of each array's elements per
 * 16-byte-multiple group, and each array's part of it must stay within 64
 * bytes; size is sizeof the struct of one element of each (the template's
 * R_inputs: members in order, C layout). */
static void plan_read(Reduction *r) {
  ReadPlan *p = &r->read;
  if (r->ninputs <= 1) {
    p->size = ref_size(&r->input);
    p->group = p->size / gcd(p->size, 16) * 16;
    p->vec = p->group / 16;
    p->per_group = p->group <= 64 ? p->group / p->size : 0;
    return;
  }
  int u = 1, bytes = 0, size = 0, align = 1;
  bool fits = true;
  for (int i = 0; i < r->ninputs; i++) {
    int sz = ref_size(&r->inputs[i]), al = ref_align(&r->inputs[i]);
    int per = sz / gcd(sz, 16) * 16 / sz;
    u = u / gcd(u, per) * per;
    size = (size + al - 1) / al * al + sz;
    align = al > align ? al : align;
    bytes += sz;
  }
  for (int i = 0; i < r->ninputs; i++)
    fits = fits && u * ref_size(&r->inputs[i]) <= 64;
  p->size = (size + align - 1) / align * align;
  p->group = u * bytes;
  p->vec = p->group / 16;
  p->per_group = fits ? u : 0;
}

/* How the flat kernel merges the blocks' partials: a builtin sum (or dot
 * product) into an integer of up to 32 bits adds up modulo 2^32, so each
 * block folds its partial into the atomic that counts the blocks; every
 * other reduction has the last block merge them (docs/emitted.md,
 * "Merging"). */
static bool packs_in_ticket(const Reduction *r) {
  if ((r->op != OP_SUM && r->op != OP_DOT) || !r->accumulator.is_scalar)
    return false;
  const ScalarInfo *acc = &scalar_info[r->accumulator.scalar];
  return (acc->num == NUM_SIGNED || acc->num == NUM_UNSIGNED) && acc->size <= 4;
}

/* Whether a value of r holds a __half2 or __nv_bfloat162: CUDA gives them a
 * user-provided copy constructor, so C++ returns them (and any struct that
 * holds one) through memory, where C returns the same bytes in registers. */
static bool holds_paired_half(const TypeRef *r) {
  if (r->is_scalar)
    return false;
  if (r->type->vector)
    return r->type->vector->count == 2 && (r->type->vector->elem == SC_HALF || r->type->vector->elem == SC_BF16);
  for (int f = 0; f < r->type->nfields; f++)
    if (holds_paired_half(&r->type->fields[f].ref))
      return true;
  return false;
}

void layout_spec(Spec *spec) {
  spec_path = spec->path;
  long long total = 0;
  for (int i = 0; i < spec->ntypes; i++) {
    Type *t = spec->types_ordered[i];
    layout_type(t);
    /* the generated code grows with the bytes of every type: bound it */
    total += t->size;
    if (total > LIMIT_ALL_TYPE_BYTES) {
      diag_error(spec_path, "%s: the types up to '%s' take more than %d bytes together; gpugen accepts at most %d "
                 "(docs/spec.md, Limits)", t->path, t->name, LIMIT_ALL_TYPE_BYTES, LIMIT_ALL_TYPE_BYTES);
      return;
    }
  }
  for (int i = 0; i < spec->nreductions; i++) {
    const Reduction *r = &spec->reductions[i];
    const int acc = ref_size(&r->accumulator);
    if (acc > LIMIT_ACC_BYTES)
      diag_error(spec_path, "%s: the accumulator '%s' takes %d bytes; the kernels keep %d accumulators in a block's "
                 "static shared memory, which holds %d bytes on every target, so an accumulator may take at most %d bytes "
                 "(docs/spec.md, Limits)", r->path, type_cuda_spelling(&r->accumulator), acc, LIMIT_SHARED_SLOTS,
                 LIMIT_STATIC_SHARED, LIMIT_ACC_BYTES);
    spec->reductions[i].host_through_pointer = holds_paired_half(&r->accumulator);
    plan_read(&spec->reductions[i]);
    spec->reductions[i].packs_in_ticket = packs_in_ticket(&spec->reductions[i]);
  }
}
