/* The layout engine against what the C compiler itself computes for the
 * same structs (sizeof, _Alignof, offsetof), and the word plans. */
#include "unit.h"

static Field field(const char *name, ScalarKind k, int count) {
  Field f = {.name = name, .ref = {.is_scalar = true, .scalar = k}, .count = count, .is_array = count > 1};
  return f;
}
static Field nested(const char *name, Type *t, int count) {
  Field f = {.name = name, .ref = {.type = t}, .count = count, .is_array = count > 1};
  return f;
}
static Type *make_type(const char *name, Field *fields, int n) {
  Type *t = ARENA_NEW(Type);
  t->name = name;
  t->fields = ARENA_ARRAY(Field, n);
  memcpy(t->fields, fields, sizeof(Field) * (size_t)n);
  t->nfields = n;
  layout_type(t);
  return t;
}
#define CHECK_SIZE(t, C) do { assert_int_equal((t)->size, sizeof(C)); assert_int_equal((t)->align, _Alignof(C)); } while (0)
#define CHECK_OFFSET(t, i, C, f) assert_int_equal((t)->fields[i].offset, offsetof(C, f))

struct IntLL { int a; long long b; };
struct Odd3 { unsigned char a, b, c; };
struct Short3 { short a, b, c; };
struct Float3 { float x, y, z; };
struct Mixed { char c; double d; short s[3]; };
struct Odd17 { unsigned char b[17]; };
struct Nest { char tag; struct IntLL inner[2]; uint16_t tail; };
struct __attribute__((aligned(16))) Aligned16 { float a; };

static void test_scalar_struct_layouts(void **state) {
  (void)state;
  Field f1[] = {field("a", SC_INT, 1), field("b", SC_LLONG, 1)};
  Type *t = make_type("IntLL", f1, 2);
  CHECK_SIZE(t, struct IntLL);
  CHECK_OFFSET(t, 1, struct IntLL, b);
  assert_int_equal(t->padding_bytes, 4);

  Field f2[] = {field("a", SC_UCHAR, 1), field("b", SC_UCHAR, 1), field("c", SC_UCHAR, 1)};
  CHECK_SIZE(make_type("Odd3", f2, 3), struct Odd3);
  Field f3[] = {field("a", SC_SHORT, 1), field("b", SC_SHORT, 1), field("c", SC_SHORT, 1)};
  CHECK_SIZE(make_type("Short3", f3, 3), struct Short3);
  Field f4[] = {field("x", SC_FLOAT, 1), field("y", SC_FLOAT, 1), field("z", SC_FLOAT, 1)};
  CHECK_SIZE(make_type("Float3", f4, 3), struct Float3);
  Field f5[] = {field("c", SC_CHAR, 1), field("d", SC_DOUBLE, 1), field("s", SC_SHORT, 3)};
  Type *m = make_type("Mixed", f5, 3);
  CHECK_SIZE(m, struct Mixed);
  CHECK_OFFSET(m, 1, struct Mixed, d);
  CHECK_OFFSET(m, 2, struct Mixed, s);
  Field f6[] = {field("b", SC_UINT8, 17)};
  CHECK_SIZE(make_type("Odd17", f6, 1), struct Odd17);
}

static void test_nested_and_aligned(void **state) {
  (void)state;
  Field f1[] = {field("a", SC_INT, 1), field("b", SC_LLONG, 1)};
  Type *inner = make_type("IntLL", f1, 2);
  Field f2[] = {field("tag", SC_CHAR, 1), nested("inner", inner, 2), field("tail", SC_UINT16, 1)};
  Type *t = make_type("Nest", f2, 3);
  CHECK_SIZE(t, struct Nest);
  CHECK_OFFSET(t, 1, struct Nest, inner);
  CHECK_OFFSET(t, 2, struct Nest, tail);
  /* padding of the nested struct stays padding in the outer one */
  assert_int_equal(t->padding_bytes, (int)sizeof(struct Nest) - 1 - 2 * 12 - 2);

  Field f3[] = {field("a", SC_FLOAT, 1)};
  Type *a = ARENA_NEW(Type);
  a->name = "Aligned16";
  a->fields = ARENA_ARRAY(Field, 1);
  a->fields[0] = f3[0];
  a->nfields = 1;
  a->explicit_align = 16;
  layout_type(a);
  CHECK_SIZE(a, struct Aligned16);
  assert_int_equal(a->load.word_bytes, 16);
  assert_int_equal(a->load.nwords, 1);
}

/* {int; long long}: bytes 4..7 are padding, so the shuffle moves 3 words. */
static void test_shuffle_plan_skips_padding(void **state) {
  (void)state;
  Field f1[] = {field("a", SC_INT, 1), field("b", SC_LLONG, 1)};
  Type *t = make_type("IntLL", f1, 2);
  assert_int_equal(t->shuffle.nwords, 3);
  assert_int_equal(t->shuffle.skipped, 1);
  assert_int_equal(t->shuffle.offsets[0], 0);
  assert_int_equal(t->shuffle.offsets[1], 8);
  assert_int_equal(t->shuffle.offsets[2], 12);
  assert_int_equal(t->load.word_bytes, 8);
  assert_int_equal(t->load.nwords, 2);
}

static void test_odd_sizes(void **state) {
  (void)state;
  Field f2[] = {field("a", SC_UCHAR, 1), field("b", SC_UCHAR, 1), field("c", SC_UCHAR, 1)};
  Type *t3 = make_type("Odd3", f2, 3);
  assert_int_equal(t3->shuffle.nwords, 1);
  assert_int_equal(t3->shuffle.bytes[0], 3);
  assert_int_equal(t3->load.word_bytes, 1);
  assert_int_equal(t3->load.nwords, 3);

  Field f3[] = {field("a", SC_SHORT, 1), field("b", SC_SHORT, 1), field("c", SC_SHORT, 1)};
  Type *t6 = make_type("Short3", f3, 3);
  assert_int_equal(t6->shuffle.nwords, 2); /* 4 + 2 bytes, not 3 shorts */
  assert_int_equal(t6->shuffle.bytes[1], 2);

  Field f6[] = {field("b", SC_UINT8, 17)};
  Type *t17 = make_type("Odd17", f6, 1);
  assert_int_equal(t17->shuffle.nwords, 5);
  assert_int_equal(t17->shuffle.bytes[4], 1);

  /* char then double: bytes 1..7 padding; word 4..7 is pure padding */
  Field f5[] = {field("c", SC_CHAR, 1), field("d", SC_DOUBLE, 1)};
  Type *cd = make_type("CharDouble", f5, 2);
  assert_int_equal(cd->size, 16);
  assert_int_equal(cd->shuffle.nwords, 3);
  assert_int_equal(cd->load.skipped, 0); /* 8-byte load words both hold data */
}

static void test_scalar_plans(void **state) {
  (void)state;
  WordPlan s, l;
  layout_scalar_plan(SC_DOUBLE, &s, &l);
  assert_int_equal(s.nwords, 2);
  assert_int_equal(l.word_bytes, 8);
  assert_int_equal(l.nwords, 1);
  layout_scalar_plan(SC_BOOL, &s, &l);
  assert_int_equal(s.nwords, 1);
  assert_int_equal(s.bytes[0], 1);
  for (int k = 0; k < SC_COUNT; k++) {
    assert_int_equal(scalar_info[k].size, scalar_info[scalar_info[k].canonical].size);
    assert_int_equal(scalar_info[k].align, scalar_info[scalar_info[k].canonical].align);
  }
  assert_int_equal(scalar_info[SC_LONG].size, sizeof(long));
  assert_int_equal(scalar_info[SC_INT64].size, sizeof(int64_t));
  assert_int_equal(scalar_info[SC_ULLONG].align, _Alignof(unsigned long long));
}

/* Reductions read groups of lcm(size, 16) bytes: 8 six-byte elements in
 * 3 x 16 bytes; a 17-byte group (272 bytes) is too wide, so none. */
static void test_reduction_read_plans(void **state) {
  (void)state;
  Field f3[] = {field("a", SC_SHORT, 1), field("b", SC_SHORT, 1), field("c", SC_SHORT, 1)};
  Field f17[] = {field("b", SC_UINT8, 17)};
  Type *types[] = {make_type("Short3", f3, 3), make_type("Odd17", f17, 1)};
  Reduction r[4] = {
    {.input = {.is_scalar = true, .scalar = SC_INT}, .accumulator = {.is_scalar = true, .scalar = SC_INT}},
    {.input = {.type = types[0]}, .accumulator = {.type = types[0]}},
    {.input = {.type = types[1]}, .accumulator = {.type = types[1]}},
    {.input = {.is_scalar = true, .scalar = SC_INT8}, .accumulator = {.is_scalar = true, .scalar = SC_INT8}},
  };
  Spec spec = {.path = "unit", .types_ordered = types, .reductions = r, .nreductions = 4};
  layout_spec(&spec);
  assert_int_equal(r[0].read.group, 16);
  assert_int_equal(r[0].read.per_group, 4);
  assert_int_equal(r[1].read.group, 48);
  assert_int_equal(r[1].read.vec, 3);
  assert_int_equal(r[1].read.per_group, 8);
  assert_int_equal(r[2].read.group, 272);
  assert_int_equal(r[2].read.per_group, 0);
  assert_int_equal(r[3].read.per_group, 16);
}

/* Several arrays: a group is U elements of each, U the lcm of each array's
 * elements per group, while each array's part fits 64 bytes; size is the
 * struct of one element of each (C layout). */
static void test_multi_input_read_plans(void **state) {
  (void)state;
  TypeRef ff[] = {{.is_scalar = true, .scalar = SC_FLOAT}, {.is_scalar = true, .scalar = SC_FLOAT}};
  TypeRef bf[] = {{.is_scalar = true, .scalar = SC_INT8}, {.is_scalar = true, .scalar = SC_FLOAT}};
  TypeRef bd[] = {{.is_scalar = true, .scalar = SC_INT8}, {.is_scalar = true, .scalar = SC_DOUBLE}};
  Reduction r[3] = {
    {.input = ff[0], .inputs = ff, .ninputs = 2, .accumulator = ff[0]},
    {.input = bf[0], .inputs = bf, .ninputs = 2, .accumulator = bf[0]},
    {.input = bd[0], .inputs = bd, .ninputs = 2, .accumulator = bd[0]},
  };
  Spec spec = {.path = "unit", .reductions = r, .nreductions = 3};
  layout_spec(&spec);
  assert_int_equal(r[0].read.per_group, 4);
  assert_int_equal(r[0].read.group, 32);
  assert_int_equal(r[0].read.vec, 2);
  assert_int_equal(r[0].read.size, 8);
  assert_int_equal(r[1].read.per_group, 16); /* 16 int8 in one load, 16 floats in four */
  assert_int_equal(r[1].read.vec, 5);
  assert_int_equal(r[1].read.size, 8);
  assert_int_equal(r[2].read.per_group, 0); /* 16 doubles would take 128 bytes */
  assert_int_equal(r[2].read.size, 16);
}

/* The flat kernel merges in the atomic that counts its blocks exactly for
 * builtin sums and dot products into integers of up to 32 bits. */
static void test_packs_in_ticket(void **state) {
  (void)state;
#define SCALAR(k) {.is_scalar = true, .scalar = (k)}
  TypeRef ii[] = {SCALAR(SC_INT), SCALAR(SC_INT)};
  Reduction r[] = {
    {.input = SCALAR(SC_INT), .accumulator = SCALAR(SC_INT), .op = OP_SUM},
    {.input = SCALAR(SC_INT8), .accumulator = SCALAR(SC_INT8), .op = OP_SUM},
    {.input = SCALAR(SC_UINT16), .accumulator = SCALAR(SC_UINT), .op = OP_SUM},
    {.input = ii[0], .inputs = ii, .ninputs = 2, .accumulator = SCALAR(SC_INT), .op = OP_DOT},
    {.input = SCALAR(SC_INT), .accumulator = SCALAR(SC_LLONG), .op = OP_SUM},   /* 8 bytes */
    {.input = SCALAR(SC_FLOAT), .accumulator = SCALAR(SC_FLOAT), .op = OP_SUM}, /* not an integer */
    {.input = SCALAR(SC_BOOL), .accumulator = SCALAR(SC_BOOL), .op = OP_SUM},   /* not a number that wraps */
    {.input = SCALAR(SC_INT), .accumulator = SCALAR(SC_INT), .op = OP_MIN},
    {.input = SCALAR(SC_INT), .accumulator = SCALAR(SC_INT), .op = OP_NONE},    /* a user fold */
  };
#undef SCALAR
  const bool want[] = {true, true, true, true, false, false, false, false, false};
  Spec spec = {.path = "unit", .reductions = r, .nreductions = (int)(sizeof r / sizeof r[0])};
  layout_spec(&spec);
  for (size_t i = 0; i < sizeof r / sizeof r[0]; i++)
    assert_int_equal(r[i].packs_in_ticket, want[i]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_reduction_read_plans),
    cmocka_unit_test(test_multi_input_read_plans),
    cmocka_unit_test(test_packs_in_ticket),
    cmocka_unit_test(test_scalar_struct_layouts),
    cmocka_unit_test(test_nested_and_aligned),
    cmocka_unit_test(test_shuffle_plan_skips_padding),
    cmocka_unit_test(test_odd_sizes),
    cmocka_unit_test(test_scalar_plans),
  };
  int failed = cmocka_run_group_tests_name("layout", tests, NULL, NULL);
  arena_free_all();
  return failed;
}
