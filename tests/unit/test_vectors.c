/* CUDA's vector types: gpugen's table (scalars.c) laid out by check.c and
 * layout.c against what the C compiler computes from CUDA's own
 * vector_types.h (sizeof, _Alignof, offsetof of the last component), for
 * every type a spec may name; the deprecated ones are refused. */
#include <vector_types.h>
#include "unit.h"

typedef struct {
  const char *name;
  int size, align, last_offset, count;
} Truth;

#define T1(T) {#T, sizeof(T), _Alignof(T), offsetof(T, x), 1}
#define T2(T) {#T, sizeof(T), _Alignof(T), offsetof(T, y), 2}
#define T3(T) {#T, sizeof(T), _Alignof(T), offsetof(T, z), 3}
#define T4(T) {#T, sizeof(T), _Alignof(T), offsetof(T, w), 4}
#define SMALL(b) T1(b##1), T2(b##2), T3(b##3), T4(b##4)
#define WIDE(b) T1(b##1), T2(b##2), T3(b##3), T4(b##4_16a), T4(b##4_32a)

static const Truth truth[] = {
  SMALL(char), SMALL(uchar), SMALL(short), SMALL(ushort), SMALL(int), SMALL(uint), SMALL(float),
  WIDE(long), WIDE(ulong), WIDE(longlong), WIDE(ulonglong), WIDE(double),
};
#define NTRUTH ((int)(sizeof truth / sizeof truth[0]))

static const int archs[] = {90};

static Spec *checked(const char *text) {
  gpugen_reset();
  diag_set_stream(fopen("/dev/null", "w"));
  Spec *s = spec_parse("vectors.json", text, strlen(text));
  assert_non_null(s);
  s->dir = ".";
  spec_check(s, archs, 1);
  if (diag_count() == 0)
    layout_spec(s);
  return s;
}

static void test_every_vector_type_has_cudas_layout(void **state) {
  (void)state;
  Buf b = {0};
  buf_put(&b, "{\"gpugen\": 1, \"module\": \"v\", \"targets\": [\"sm_90\"], \"types\": [{\"name\": \"All\", \"fields\": [");
  for (int i = 0; i < NTRUTH; i++)
    buf_printf(&b, "%s{\"name\": \"f%d\", \"type\": \"%s\"}", i ? ", " : "", i, truth[i].name);
  buf_put(&b, "]}]}");
  Spec *s = checked(b.data);
  assert_int_equal(diag_count(), 0);
  assert_int_equal(s->ntypes, 1 + NTRUTH); /* All, then each vector type once */
  for (int i = 0; i < NTRUTH; i++) {
    const Type *t = s->types[1 + i];
    assert_string_equal(t->name, truth[i].name);
    assert_non_null(t->vector);
    if (t->size != truth[i].size || t->align != truth[i].align ||
        t->fields[t->nfields - 1].offset != truth[i].last_offset || t->nfields != truth[i].count)
      fail_msg("%s: gpugen %d bytes, align %d, last component at %d; CUDA %d, %d, %d", t->name, t->size, t->align,
               t->fields[t->nfields - 1].offset, truth[i].size, truth[i].align, truth[i].last_offset);
    assert_int_equal(t->padding_bytes, t->size - t->nfields * scalar_info[t->vector->elem].size);
  }
  buf_free(&b);
}

/* The table holds exactly the types above, the deprecated ones and the two
 * half vectors (whose layout the generated headers assert under nvcc). */
static void test_table_matches_the_truth(void **state) {
  (void)state;
  int deprecated = 0, halves = 0, found = 0;
  for (int k = 0; k < vector_count; k++) {
    const VectorInfo *v = &vector_info[k];
    if (v->deprecated) {
      deprecated++;
      continue;
    }
    if (v->elem == SC_HALF || v->elem == SC_BF16) {
      halves++;
      assert_int_equal(v->align, 4);
      continue;
    }
    for (int i = 0; i < NTRUTH; i++)
      found += strcmp(truth[i].name, v->spelling) == 0;
  }
  assert_int_equal(found, NTRUTH);
  assert_int_equal(deprecated, 5); /* long4 ulong4 longlong4 ulonglong4 double4 */
  assert_int_equal(halves, 2);
  assert_int_equal(vector_count, NTRUTH + deprecated + halves);
}

static void test_deprecated_and_reserved_names_refused(void **state) {
  (void)state;
  checked("{\"gpugen\": 1, \"module\": \"v\", \"targets\": [\"sm_90\"], \"types\": [{\"name\": \"A\", \"fields\": "
          "[{\"name\": \"a\", \"type\": \"double4\"}]}]}");
  assert_int_equal(diag_count(), 1);
  checked("{\"gpugen\": 1, \"module\": \"v\", \"targets\": [\"sm_90\"], \"types\": [{\"name\": \"int2\", \"fields\": "
          "[{\"name\": \"a\", \"type\": \"int\"}]}]}");
  assert_int_equal(diag_count(), 1);
  /* every vector name is reserved by the headers the generated code includes, too */
  for (int k = 0; k < vector_count; k++)
    assert_non_null(ident_reserved(vector_info[k].spelling, false));
}

/* The plans follow CUDA's layout: float4 is one 16-byte load, uchar3 one
 * shuffle word and three 1-byte loads (align 1), read in groups of 16. */
static void test_plans_follow_cudas_layout(void **state) {
  (void)state;
  Spec *s = checked("{\"gpugen\": 1, \"module\": \"v\", \"targets\": [\"sm_90\"], \"reductions\": ["
                    "{\"name\": \"a\", \"input\": \"float4\", \"op\": \"sum\"},"
                    "{\"name\": \"b\", \"input\": \"uchar3\", \"accumulator\": \"uint3\", \"op\": \"sum\"},"
                    "{\"name\": \"c\", \"input\": \"longlong4_32a\", \"op\": \"max\"},"
                    "{\"name\": \"d\", \"input\": \"__half2\", \"op\": \"min\"}]}");
  assert_int_equal(diag_count(), 0);
  const struct {
    const char *name;
    int shuffle_words, load_words, load_bytes, group, per_group;
  } want[] = {
    {"float4", 4, 1, 16, 16, 1}, {"uchar3", 1, 3, 1, 48, 16}, {"longlong4_32a", 8, 2, 16, 32, 1},
    {"__half2", 1, 1, 4, 16, 4},
  };
  for (int i = 0; i < 4; i++) {
    const Type *t = NULL;
    for (int k = 0; k < s->ntypes; k++)
      if (strcmp(s->types[k]->name, want[i].name) == 0)
        t = s->types[k];
    assert_non_null(t);
    assert_int_equal(t->shuffle.nwords, want[i].shuffle_words);
    assert_int_equal(t->load.nwords, want[i].load_words);
    assert_int_equal(t->load.word_bytes, want[i].load_bytes);
    const Reduction *r = &s->reductions[i];
    assert_int_equal(r->read.group, want[i].group);
    assert_int_equal(r->read.per_group, want[i].per_group);
  }
  /* uint3 joined as the accumulator: 12 bytes, align 4 */
  assert_int_equal(s->reductions[1].accumulator.type->size, 12);
  assert_int_equal(s->reductions[1].accumulator.type->align, 4);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_every_vector_type_has_cudas_layout),
    cmocka_unit_test(test_table_matches_the_truth),
    cmocka_unit_test(test_deprecated_and_reserved_names_refused),
    cmocka_unit_test(test_plans_follow_cudas_layout),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
