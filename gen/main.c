/* The command line: parse options, then run the stages in order. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gpugen.h"


static void usage(FILE *f) {
  fprintf(f,
          "usage: gpugen [options] SPEC.json\n"
          "       gpugen explain [--json] [--resources] SPEC.json [NAME]...\n"
          "       gpugen init [-o SPEC.json] [-I DIR]... HEADER TYPE...\n"
          "\n"
          "Generates CUDA code (SharedMem<T>, warp shuffles, ldg, host API) for the\n"
          "types and reductions of a JSON spec. See gpugen(1) and docs/spec.md.\n"
          "\n"
          "options:\n"
          "  -o DIR, --output DIR  write the output files into DIR (default: out)\n"
          "  --depfile FILE        also write FILE, the outputs' dependencies in the\n"
          "                        format of gcc -MD (every run, for make, ninja, CMake)\n"
          "  --check               validate the spec and write nothing\n"
          "  -q, --quiet           print errors only (no notes)\n"
          "  -v, --verbose         list the files written or left unchanged\n"
          "  -h, --help            show this help\n"
          "  --version             show the version\n"
          "\n"
          "gpugen explain prints what gpugen computed for the spec's types and\n"
          "reductions (all, or the NAMEs): layouts, word plans, read plans, tuning.\n"
          "  --json                one JSON document instead of text\n"
          "  --resources           also build the module with nvcc and report each\n"
          "                        kernel's registers, spills, shared memory and PTX\n"
          "                        shuffle and load counts, per target\n"
          "\n"
          "gpugen init writes a spec skeleton (to stdout, or to a new file SPEC.json)\n"
          "whose types and fields are read from HEADER with libclang.\n"
          "  -o SPEC.json          write the skeleton there (never overwrites)\n"
          "  -I DIR                search DIR for the header's includes\n"
          "\n"
          "environment:\n"
          "  GPUGEN_NVCC                the nvcc asked which targets it can build, and\n"
          "                             used by explain --resources (default: nvcc)\n"
          "  GPUGEN_CLANG_RESOURCE_DIR  libclang's resource directory (default: the one\n"
          "                             gpugen was built with)\n"
          "\n"
          "exit status: 0 success, 1 errors in the spec, its headers or the output,\n"
          "2 usage errors\n");
}

static _Noreturn void usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "gpugen: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\nTry 'gpugen --help'.\n");
  arena_free_all();
  exit(2);
}

/* The argument of an option given as "-o DIR", "-oDIR", "--output DIR" or
 * "--output=DIR"; NULL when a is not that option. */
static const char *option_value(int argc, char **argv, int *i, const char *shortname, const char *longname) {
  const char *a = argv[*i];
  size_t nlong = strlen(longname);
  if ((shortname && strcmp(a, shortname) == 0) || strcmp(a, longname) == 0) {
    if (*i + 1 >= argc || !argv[*i + 1][0])
      usage_error("option '%s' needs a value", a);
    return argv[++*i];
  }
  if (shortname && strncmp(a, shortname, 2) == 0 && a[2])
    return a + 2;
  if (strncmp(a, longname, nlong) == 0 && a[nlong] == '=') {
    if (!a[nlong + 1])
      usage_error("option '%s' needs a value", a);
    return a + nlong + 1;
  }
  return NULL;
}

static GenOptions parse_options(int argc, char **argv, int first) {
  GenOptions o = {.out_dir = "out"};
  bool explain = first > 1;
  ExplainOptions *ex = explain ? ARENA_NEW(ExplainOptions) : NULL;
  const char **names = ARENA_ARRAY(const char *, argc);
  const char *value;
  for (int i = first; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout);
      arena_free_all();
      exit(0);
    } else if (strcmp(a, "--version") == 0) {
      printf("gpugen %s\n", GPUGEN_VERSION);
      arena_free_all();
      exit(0);
    } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
      o.quiet = true;
    } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
      o.verbose = true;
    } else if (explain && strcmp(a, "--json") == 0) {
      ex->json = true;
    } else if (explain && strcmp(a, "--resources") == 0) {
      ex->resources = true;
    } else if (!explain && strcmp(a, "--check") == 0) {
      o.check_only = true;
    } else if (!explain && (value = option_value(argc, argv, &i, "-o", "--output"))) {
      o.out_dir = value;
    } else if (!explain && (value = option_value(argc, argv, &i, NULL, "--depfile"))) {
      o.depfile = value;
    } else if (a[0] == '-' && a[1]) {
      usage_error(explain ? "explain: unknown option '%s'" : "unknown option '%s'", a);
    } else if (!o.spec_path) {
      o.spec_path = a;
    } else if (explain) {
      names[ex->nnames++] = a;
    } else {
      usage_error("more than one spec given ('%s'); run gpugen once per spec", a);
    }
  }
  if (!o.spec_path)
    usage_error("no spec given%s", "");
  if (o.quiet && o.verbose)
    usage_error("-q and -v contradict each other%s", "");
  if (ex) {
    ex->names = names;
    o.explain = ex;
    o.check_only = true;
  }
  return o;
}

/* gpugen init [-o SPEC] [-I DIR]... HEADER TYPE...: a spec skeleton whose
 * types are read from the header. */
/* init writes only what gpugen accepts: the skeleton goes through every
 * check, read as if it were the spec at its path (or, printed, a spec in
 * the working directory, where its paths point from), before it is written. */
static bool skeleton_passes(const char *text, const char *out_path) {
  const char *as_path = out_path ? out_path : "gpugen-init.json";
  GenOptions check = {.spec_path = as_path, .spec_text = text, .spec_len = strlen(text), .out_dir = ".",
                      .check_only = true, .quiet = true};
  if (gpugen_generate(&check) == 0)
    return true;
  fprintf(stderr, "gpugen: error: init: the skeleton for these types would not pass gpugen's checks (the errors "
                  "above, as if it were %s); nothing written\n", as_path);
  return false;
}

static int run_init(int argc, char **argv) {
  const char *out_path = NULL, *header = NULL;
  const char **types = ARENA_ARRAY(const char *, argc);
  const char **dirs = ARENA_ARRAY(const char *, argc);
  int ntypes = 0, ndirs = 0;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "-o") == 0 && i + 1 < argc)
      out_path = argv[++i];
    else if (strcmp(a, "-I") == 0 && i + 1 < argc)
      dirs[ndirs++] = absolute_path(argv[++i]);
    else if (strncmp(a, "-I", 2) == 0 && a[2])
      dirs[ndirs++] = absolute_path(a + 2);
    else if (a[0] == '-')
      usage_error("init: unknown option '%s'", a);
    else if (!header)
      header = a;
    else
      types[ntypes++] = a;
  }
  if (!header || ntypes == 0)
    usage_error("usage: gpugen init [-o SPEC.json] [-I DIR]... HEADER TYPE...%s", "");
  if (out_path && access(out_path, F_OK) == 0) {
    fprintf(stderr, "gpugen: error: '%s' exists; init does not overwrite files\n", out_path);
    return 1;
  }
  /* the header as the spec will name it: relative to the spec's directory */
  const char *in_spec = out_path ? relative_path(dir_name(absolute_path(out_path)), absolute_path(header))
                                 : display_path(absolute_path(header));
  /* a header outside the spec's directory is named by its file name, and its
   * directory goes into include_dirs (specs may not climb with "..") */
  if (strncmp(in_spec, "../", 3) == 0) {
    dirs[ndirs++] = dir_name(absolute_path(header));
    const char *slash = strrchr(in_spec, '/');
    in_spec = slash + 1;
  }
  const char **dirs_in_spec = ARENA_ARRAY(const char *, ndirs + 1);
  for (int i = 0; i < ndirs; i++)
    dirs_in_spec[i] = out_path ? relative_path(dir_name(absolute_path(out_path)), dirs[i]) : display_path(dirs[i]);
  ClangOptions opts = {dirs, ndirs, cuda_include_dir(), NULL};
  Buf text = {0};
  int status = 0;
  if (!clang_spec_skeleton(header, in_spec, dirs_in_spec, types, ntypes, &opts, &text)) {
    status = 1;
  } else if (!skeleton_passes(text.data, out_path)) {
    status = 1;
  } else if (!out_path) {
    fputs(text.data, stdout);
  } else {
    OutputSet set = {.out_dir = dir_name(absolute_path(out_path))};
    const char *base = strrchr(out_path, '/');
    buf_put(output_add(&set, base ? base + 1 : out_path), text.data);
    status = output_write(&set, false) != 0;
    output_free(&set);
  }
  buf_free(&text);
  return status;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "init") == 0) {
    int status = run_init(argc, argv);
    arena_free_all();
    return status;
  }
  bool explain = argc > 1 && strcmp(argv[1], "explain") == 0;
  GenOptions o = parse_options(argc, argv, explain ? 2 : 1);
  int status = gpugen_generate(&o);
  arena_free_all();
  return status;
}
