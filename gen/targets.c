/* CUDA architectures: which exist, and which the installed nvcc builds. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "gpugen.h"

/* Every real architecture NVIDIA has shipped, as sm_NN. 'a' (arch-specific)
 * variants exist from sm_90, 'f' (family) variants from sm_100. */
static const int known_archs[] = {20, 21, 30, 32, 35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75,
                                  80, 86, 87, 88, 89, 90, 100, 101, 103, 110, 120, 121};

/* The most threads and blocks one SM of each architecture holds. ptxas
 * rejects __launch_bounds__ past them (its "out of range" warning, an error
 * under -Werror), so the spec's tuning is checked against them and the
 * emitted kernels cap their derived bounds with them. sm_75 to sm_121 are
 * what CUDA 13.0's ptxas accepts, probed one by one; the older ones are
 * the CUDA Programming Guide's table; sm_101 is sm_110 before CUDA 13
 * renamed it. */
static const struct {
  int arch, threads, blocks;
} sm_limits[] = {
    {20, 1536, 8},   {21, 1536, 8},   {30, 2048, 16},  {32, 2048, 16},  {35, 2048, 16},  {37, 2048, 16},
    {50, 2048, 32},  {52, 2048, 32},  {53, 2048, 32},  {60, 2048, 32},  {61, 2048, 32},  {62, 2048, 32},
    {70, 2048, 32},  {72, 2048, 32},  {75, 1024, 16},  {80, 2048, 32},  {86, 1536, 16},  {87, 1536, 16},
    {88, 1536, 16},  {89, 1536, 24},  {90, 2048, 32},  {100, 2048, 32}, {101, 1536, 24}, {103, 2048, 32},
    {110, 1536, 24}, {120, 1536, 24}, {121, 1536, 24},
};
enum { sm_limits_count = sizeof sm_limits / sizeof sm_limits[0] };

/* The limits of `arch`; an architecture not in the table gets the smallest
 * of the current ones (sm_75's), as the emitted code does. */
void target_sm_limits(int arch, int *threads, int *blocks) {
  *threads = 1024;
  *blocks = 16;
  for (int i = 0; i < sm_limits_count; i++)
    if (sm_limits[i].arch == arch) {
      *threads = sm_limits[i].threads;
      *blocks = sm_limits[i].blocks;
    }
}

/* The same table as C++ for the emitted code: sm_threads_max and
 * sm_blocks_max for the architecture being compiled, one #if branch per
 * pair of limits, the fallback (host pass, unknown architectures) last. */
const char *target_sm_limits_cpp(void) {
  Buf b = {0};
  bool done[sm_limits_count] = {false};
  const char *kw = "#if";
  for (int i = 0; i < sm_limits_count; i++) {
    if (done[i])
      continue;
    buf_printf(&b, "%s defined(__CUDA_ARCH__) && (", kw);
    int on_line = 0;
    for (int j = i; j < sm_limits_count; j++) {
      if (sm_limits[j].threads != sm_limits[i].threads || sm_limits[j].blocks != sm_limits[i].blocks)
        continue;
      done[j] = true;
      if (on_line == 4) {
        buf_put(&b, " \\\n    ");
        on_line = 0;
      }
      buf_printf(&b, "%s__CUDA_ARCH__ == %d", j == i ? "" : on_line ? " || " : "|| ", sm_limits[j].arch * 10);
      on_line++;
    }
    buf_printf(&b, ")\nconstexpr int sm_threads_max = %d, sm_blocks_max = %d;\n", sm_limits[i].threads,
               sm_limits[i].blocks);
    kw = "#elif";
  }
  buf_put(&b, "#else\nconstexpr int sm_threads_max = 1024, sm_blocks_max = 16;\n#endif");
  const char *text = arena_strdup(b.data);
  buf_free(&b);
  return text;
}

bool target_parse(const char *name, int *arch, char *suffix) {
  if (strncmp(name, "sm_", 3) != 0)
    return false;
  const char *p = name + 3;
  int n = 0, digits = 0;
  while (*p >= '0' && *p <= '9' && digits < 4) {
    n = n * 10 + (*p - '0');
    p++;
    digits++;
  }
  if (digits < 2 || name[3] == '0') /* one spelling per architecture: no leading zeros */
    return false;
  char s = 0;
  if (*p == 'a' || *p == 'f')
    s = *p++;
  if (*p)
    return false;
  bool known = false;
  for (size_t i = 0; i < sizeof known_archs / sizeof known_archs[0]; i++)
    known |= known_archs[i] == n;
  if (!known || (s == 'a' && n < 90) || (s == 'f' && n < 100))
    return false;
  *arch = n;
  *suffix = s;
  return true;
}

const char *target_known_list(void) {
  static char list[512];
  if (!list[0]) {
    size_t len = 0;
    for (size_t i = 0; i < sizeof known_archs / sizeof known_archs[0]; i++)
      len += (size_t)snprintf(list + len, sizeof list - len, "%ssm_%d", i ? " " : "", known_archs[i]);
  }
  return list;
}

/* The CUDA include directory beside the nvcc that gpugen asks, or NULL. */
const char *cuda_include_dir(void) {
  const char *nvcc = getenv("GPUGEN_NVCC");
  if (!nvcc || !*nvcc)
    nvcc = "nvcc";
  const char *found = NULL;
  if (strchr(nvcc, '/')) {
    found = nvcc;
  } else {
    const char *path = getenv("PATH");
    for (char *dir = path ? strtok(arena_strdup(path), ":") : NULL; dir && !found; dir = strtok(NULL, ":")) {
      const char *candidate = arena_printf("%s/%s", dir, nvcc);
      if (access(candidate, X_OK) == 0)
        found = candidate;
    }
  }
  if (!found)
    return NULL;
  const char *inc = arena_printf("%s/../include", dir_name(absolute_path(found)));
  return access(arena_printf("%s/cuda_runtime_api.h", inc), R_OK) == 0 ? absolute_path(inc) : NULL;
}

/* Runs `$GPUGEN_NVCC --list-gpu-arch` (nvcc by default) without a shell
 * and collects the compute_NN lines. */
int nvcc_supported_archs(int *archs, int max, const char **why) {
  const char *nvcc = getenv("GPUGEN_NVCC");
  if (!nvcc || !*nvcc)
    nvcc = "nvcc";
  int fds[2];
  if (pipe(fds) != 0) {
    *why = "cannot create a pipe";
    return -1;
  }
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    *why = "cannot fork";
    return -1;
  }
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    execlp(nvcc, nvcc, "--list-gpu-arch", (char *)NULL);
    _exit(127);
  }
  close(fds[1]);
  Buf out = {0};
  char chunk[4096];
  ssize_t n;
  while ((n = read(fds[0], chunk, sizeof chunk)) > 0)
    buf_putn(&out, chunk, (size_t)n);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    buf_free(&out);
    *why = WIFEXITED(status) && WEXITSTATUS(status) == 127
               ? arena_printf("cannot run '%s' (is the CUDA Toolkit on PATH? set GPUGEN_NVCC to its nvcc)", nvcc)
               : arena_printf("'%s --list-gpu-arch' failed", nvcc);
    return -1;
  }
  int count = 0;
  for (char *line = out.data; line && *line && count < max;) {
    char *end = strchr(line, '\n');
    if (strncmp(line, "compute_", 8) == 0)
      archs[count++] = atoi(line + 8);
    line = end ? end + 1 : NULL;
  }
  buf_free(&out);
  if (count == 0) {
    *why = arena_printf("'%s --list-gpu-arch' listed no architectures", nvcc);
    return -1;
  }
  return count;
}
