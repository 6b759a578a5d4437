/* The command line: parse options, then run the stages in order. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gpugen.h"

typedef struct {
  const char *spec_path;
  const char *out_dir;   /* -o; "out" by default */
  bool check_only;       /* --check */
  bool verbose;          /* -v */
} Options;

static void usage(FILE *f) {
  fprintf(f,
          "usage: gpugen [options] SPEC.json\n"
          "       gpugen init [-o SPEC.json] [-I DIR]... HEADER TYPE...\n"
          "\n"
          "Generates CUDA code (SharedMem<T>, warp shuffles, ldg, host API) for the\n"
          "types and reductions of a JSON spec. See docs/spec.md.\n"
          "\n"
          "options:\n"
          "  -o DIR       write the output files into DIR (default: out)\n"
          "  --check      validate the spec and write nothing\n"
          "  -v           list the files written or left unchanged\n"
          "  --help       show this help\n"
          "  --version    show the version\n"
          "\n"
          "gpugen init writes a spec skeleton (to stdout, or to a new file SPEC.json)\n"
          "whose types and fields are read from HEADER with libclang.\n"
          "\n"
          "environment:\n"
          "  GPUGEN_NVCC  the nvcc asked which targets it can build (default: nvcc)\n"
          "\n"
          "exit status: 0 success, 1 errors in the spec, 2 usage errors\n");
}

static _Noreturn void usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "gpugen: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\nTry 'gpugen --help'.\n");
  arena_free_all();
  exit(2);
}

static Options parse_options(int argc, char **argv) {
  Options o = {.out_dir = "out"};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout);
      exit(0);
    } else if (strcmp(a, "--version") == 0) {
      printf("gpugen %s\n", GPUGEN_VERSION);
      exit(0);
    } else if (strcmp(a, "--check") == 0) {
      o.check_only = true;
    } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
      o.verbose = true;
    } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
      if (i + 1 >= argc || !argv[i + 1][0])
        usage_error("option '%s' needs a directory", a);
      o.out_dir = argv[++i];
    } else if (strncmp(a, "-o", 2) == 0 && a[2]) {
      o.out_dir = a + 2;
    } else if (a[0] == '-' && a[1]) {
      usage_error("unknown option '%s'", a);
    } else if (o.spec_path) {
      usage_error("more than one spec given ('%s'); run gpugen once per spec", a);
    } else {
      o.spec_path = a;
    }
  }
  if (!o.spec_path)
    usage_error("no spec given%s", "");
  return o;
}

/* A header the user keeps next to the output must not be overwritten. */
static void check_header_clash(const Spec *spec, const OutputSet *set) {
  for (int i = 0; i < spec->nheaders; i++) {
    const char *h = spec->headers[i];
    const char *abs = absolute_path(h[0] == '/' ? h : arena_printf("%s/%s", spec->dir, h));
    for (int f = 0; f < set->nfiles; f++)
      if (strcmp(abs, arena_printf("%s/%s", set->out_dir, set->files[f].name)) == 0)
        diag_error(spec->path, "headers[%d]: '%s' is where gpugen writes its own %s; choose another -o", i, h,
                   set->files[f].name);
  }
}

static int run(const Options *o) {
  size_t len;
  char *text = read_file(o->spec_path, &len);
  if (!text) {
    fprintf(stderr, "%s: error: cannot read the spec: %s\n", o->spec_path, strerror(errno));
    return 1;
  }
  Spec *spec = spec_parse(o->spec_path, text, len);
  if (!spec) /* a JSON syntax error; shape errors still go through the checks */
    return 1;
  spec->dir = dir_name(absolute_path(o->spec_path));

  int archs[64];
  const char *why = NULL;
  int narchs = nvcc_supported_archs(archs, 64, &why);
  if (narchs < 0)
    diag_error(o->spec_path, "cannot check \"targets\": %s", why);
  spec_check(spec, archs, narchs);
  if (diag_count())
    return 1;
  layout_spec(spec);
  if (diag_count())
    return 1;
  ClangOptions clang = {ARENA_ARRAY(const char *, spec->ninclude_dirs), spec->ninclude_dirs, cuda_include_dir()};
  for (int i = 0; i < spec->ninclude_dirs; i++) {
    const char *d = spec->include_dirs[i];
    clang.include_dirs[i] = d[0] == '/' ? d : arena_printf("%s/%s", spec->dir, d);
  }
  clang_check_spec(spec, &clang);
  if (diag_count())
    return 1;

  OutputSet set = {.out_dir = absolute_path(o->out_dir)};
  emit_header(spec, &set);
  emit_device(spec, &set);
  emit_host(spec, &set);
  emit_build(spec, &set);
  check_header_clash(spec, &set);
  int status = 0;
  if (diag_count())
    status = 1;
  else if (!o->check_only && output_write(&set, o->out_dir, o->verbose) != 0)
    status = 1;
  output_free(&set);
  return status;
}

/* gpugen init [-o SPEC] [-I DIR]... HEADER TYPE...: a spec skeleton whose
 * types are read from the header. */
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
  const char **dirs_in_spec = ARENA_ARRAY(const char *, ndirs + 1);
  for (int i = 0; i < ndirs; i++)
    dirs_in_spec[i] = out_path ? relative_path(dir_name(absolute_path(out_path)), dirs[i]) : display_path(dirs[i]);
  ClangOptions opts = {dirs, ndirs, cuda_include_dir()};
  Buf text = {0};
  int status = 0;
  if (!clang_spec_skeleton(header, in_spec, dirs_in_spec, types, ntypes, &opts, &text)) {
    status = 1;
  } else if (!out_path) {
    fputs(text.data, stdout);
  } else {
    OutputSet set = {.out_dir = dir_name(absolute_path(out_path))};
    const char *base = strrchr(out_path, '/');
    buf_put(output_add(&set, base ? base + 1 : out_path), text.data);
    status = output_write(&set, dir_name(out_path), false) != 0;
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
  Options o = parse_options(argc, argv);
  int status = run(&o);
  arena_free_all();
  return status;
}
