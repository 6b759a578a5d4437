/* gpugen explain --resources: builds a generated module with nvcc and
 * measures each reduction kernel (flat, segmented and row kernels) per target: registers, spills, stack and
 * shared memory from ptxas -v, and the shuffle and global-load instructions
 * in its PTX (kept with --keep). The only file that runs nvcc on the
 * output; explain.c prints what it finds. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "gpugen.h"

/* One word for sh -c: single-quoted, with ' written as '\''. */
static const char *shell_word(const char *s) {
  Buf b = {0};
  buf_put(&b, "'");
  for (const char *p = s; *p; p++)
    if (*p == '\'')
      buf_put(&b, "'\\''");
    else
      buf_putn(&b, p, 1);
  buf_put(&b, "'");
  const char *w = arena_strdup(b.data);
  buf_free(&b);
  return w;
}

/* The kernel name inside a mangled entry name ("_Z20mytypes_total_kernelPKi..."). */
static const char *demangled_name(const char *mangled) {
  const char *p = mangled;
  if (strncmp(p, "_Z", 2) != 0)
    return mangled;
  p += 2;
  if (*p == 'L')
    p++;
  char *end;
  long len = strtol(p, &end, 10);
  if (end == p || len <= 0 || (size_t)len > strlen(end))
    return mangled;
  return arena_strndup(end, (size_t)len);
}

/* The name of form f of the row-tile kernel, whose instances differ only
 * in that template argument: the f-th of gen's row forms (kernels.c), which
 * the template's enum row_form is filled from; NULL past its end. */
static const char *row_form_name(long f) {
  return f >= 0 && f < row_form_count ? row_form_names[f] : NULL;
}

/* What explain shows for a kernel: its name; for the device path across
 * GPUs (the flat kernel instantiated with the window's finish,
 * nccl.cu.tmpl) the name with "<window>", and for a row-tile kernel the
 * name with its form ("<long_rows>"), so the rows of one reduction and
 * target differ. */
static const char *kernel_label(const char *mangled) {
  const char *name = demangled_name(mangled);
  if (strstr(mangled, "_window_finish"))
    return arena_printf("%s<window>", name);
  const char *form = strstr(mangled, "row_formE");
  if (form) {
    char *end;
    long f = strtol(form + strlen("row_formE"), &end, 10);
    const char *form_name = end != form + strlen("row_formE") ? row_form_name(f) : NULL;
    return form_name ? arena_printf("%s<%s>", name, form_name) : arena_printf("%s<form %ld>", name, f);
  }
  return name;
}

/* The reduction whose kernel this is (gen's table of kernel names,
 * kernels.c). check.c keeps every such name unique in the module, so a
 * name belongs to one reduction at most. */
static int reduction_of_kernel(const Spec *spec, const char *name) {
  for (int i = 0; i < spec->nreductions; i++)
    for (int k = 0; k < kernel_name_count; k++)
      if (strcmp(name, arena_printf("%s_%s%s", spec->module, spec->reductions[i].name, kernel_names[k].suffix)) == 0)
        return i;
  return -1;
}

static KernelResources *add_kernel(Resources *res, int *cap) {
  if (res->n == *cap) {
    *cap = *cap ? 2 * *cap : 16;
    KernelResources *grown = ARENA_ARRAY(KernelResources, *cap);
    if (res->n)
      memcpy(grown, res->kernels, sizeof *grown * (size_t)res->n);
    res->kernels = grown;
  }
  return &res->kernels[res->n++];
}

static int number_before(const char *line, const char *label) {
  const char *p = strstr(line, label);
  if (!p)
    return -1;
  while (p > line && p[-1] == ' ')
    p--;
  while (p > line && p[-1] >= '0' && p[-1] <= '9')
    p--;
  return atoi(p);
}

/* Counts the instructions of one .entry in a PTX file; false when the PTX
 * or the entry is not there. */
static bool count_ptx(const char *ptx_path, KernelResources *k) {
  size_t len;
  const char *why;
  char *text = read_file(ptx_path, (size_t)1 << 30, &len, &why);
  const char *entry = text ? strstr(text, arena_printf(".entry %s(", k->entry)) : NULL;
  if (!entry)
    return false;
  const char *end = strstr(entry + 1, ".entry ");
  for (const char *line = entry; line && (!end || line < end); line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
    const char *p = line;
    while (*p == ' ' || *p == '\t')
      p++;
    if (*p == '@') /* a predicate: @%p1 shfl.sync... */
      p = strchr(p, ' ') ? strchr(p, ' ') + 1 : p;
    if (strncmp(p, "shfl.sync", 9) == 0)
      k->shfl++;
    else if (strncmp(p, "ld.global", 9) == 0)
      k->global_loads++;
  }
  return true;
}

/* explain's order: by reduction, then target, then kernel name (the flat
 * kernel first), whatever order ptxas compiled them in. */
static int kernel_order(const void *a, const void *b) {
  const KernelResources *x = a, *y = b;
  if (x->reduction != y->reduction)
    return x->reduction < y->reduction ? -1 : 1;
  int c = strcmp(x->target, y->target);
  return c ? c : strcmp(x->kernel, y->kernel);
}

static void remove_tree(const char *dir) {
  DIR *d = opendir(dir);
  if (!d)
    return;
  struct dirent *e;
  while ((e = readdir(d)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
      unlink(arena_printf("%s/%s", dir, e->d_name));
  closedir(d);
  rmdir(dir);
}

bool measure_resources(const Spec *spec, const char *module_dir, const char *const *include_dirs, int ninclude_dirs,
                       Resources *out) {
  const char *nvcc = getenv("GPUGEN_NVCC");
  if (!nvcc || !*nvcc)
    nvcc = "nvcc";
  const char *keep = arena_printf("%s/keep", module_dir);
  Buf cmd = {0};
  buf_printf(&cmd, "mkdir %s && %s", shell_word(keep), shell_word(nvcc));
  for (int i = 0; i < spec->ntargets; i++) {
    const Target *t = &spec->targets[i];
    const char *arch = arena_printf("%d%s", t->arch, t->suffix ? (char[]){t->suffix, 0} : "");
    buf_printf(&cmd, " -gencode arch=compute_%s,code=sm_%s", arch, arch);
  }
  buf_printf(&cmd, " -std=c++17 -I%s", shell_word(module_dir));
  if (spec->nheaders)
    buf_printf(&cmd, " -I%s", shell_word(spec->dir));
  for (int i = 0; i < ninclude_dirs; i++)
    buf_printf(&cmd, " -I%s", shell_word(include_dirs[i]));
  buf_printf(&cmd, " -Xptxas -v --keep --keep-dir %s -c %s -o %s 2>&1", shell_word(keep),
             shell_word(arena_printf("%s/%s.cu", module_dir, spec->module)),
             shell_word(arena_printf("%s/%s.o", keep, spec->module)));
  FILE *p = popen(cmd.data, "r");
  buf_free(&cmd);
  if (!p) {
    diag_error(spec->path, "explain --resources: cannot run %s", nvcc);
    return false;
  }
  Buf log = {0};
  char line[4096];
  int cap = 0;
  KernelResources *cur = NULL;
  while (fgets(line, sizeof line, p)) {
    buf_put(&log, line);
    char name[1024], target[64];
    if (sscanf(line, "ptxas info : Compiling entry function '%1023[^']' for '%63[^']'", name, target) == 2 ||
        sscanf(line, "ptxas info    : Compiling entry function '%1023[^']' for '%63[^']'", name, target) == 2) {
      int r = reduction_of_kernel(spec, demangled_name(name));
      cur = NULL;
      if (r < 0)
        continue;
      cur = add_kernel(out, &cap);
      *cur = (KernelResources){.reduction = r, .target = arena_strdup(target), .kernel = kernel_label(name),
                               .entry = arena_strdup(name)};
    } else if (cur && strstr(line, "bytes stack frame")) {
      cur->stack_bytes = number_before(line, "bytes stack frame");
      cur->spill_store_bytes = number_before(line, "bytes spill stores");
      cur->spill_load_bytes = number_before(line, "bytes spill loads");
    } else if (cur && strstr(line, "Used ") && strstr(line, "registers")) {
      cur->registers = number_before(line, "registers");
      int smem = number_before(line, "bytes smem");
      cur->smem_bytes = smem < 0 ? 0 : smem;
    }
  }
  int status = pclose(p);
  bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!ok)
    diag_error(spec->path, "explain --resources: %s could not build the module%s:\n%s", nvcc,
               WIFEXITED(status) && WEXITSTATUS(status) == 127 ? " (is nvcc on PATH, or GPUGEN_NVCC set?)" : "",
               log.data ? log.data : "");
  else if (out->n == 0)
    diag_error(spec->path, "explain --resources: ptxas -v reported no reduction kernel");
  for (int i = 0; ok && i < out->n; i++) {
    const char *arch = out->kernels[i].target + 3; /* "sm_90a" -> "90a" */
    const char *ptx = arena_printf("%s/%s.compute_%s.ptx", keep, spec->module, arch);
    /* nvcc names it M.ptx when it compiles for one architecture only */
    if (spec->ntargets == 1 && access(ptx, R_OK) != 0)
      ptx = arena_printf("%s/%s.ptx", keep, spec->module);
    if (!count_ptx(ptx, &out->kernels[i])) {
      diag_error(spec->path, "explain --resources: nvcc left no PTX for %s in %s", out->kernels[i].kernel, ptx);
      ok = false;
    }
  }
  buf_free(&log);
  remove_tree(keep);
  if (out->n > 1)
    qsort(out->kernels, (size_t)out->n, sizeof *out->kernels, kernel_order);
  return ok && out->n > 0;
}
