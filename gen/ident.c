/* What may become an identifier in generated code. Every spec name ends up
 * in C, C++ and CUDA at once, so it must be safe in all three. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "gpugen.h"

static const char *const keywords[] = {
  /* C11 and C23 */
  "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
  "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
  "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
  "union", "unsigned", "void", "volatile", "while", "bool", "true", "false", "nullptr",
  "alignas", "alignof", "static_assert", "thread_local", "constexpr", "typeof",
  "typeof_unqual",
  /* C++ */
  "and", "and_eq", "asm", "bitand", "bitor", "catch", "char8_t", "char16_t", "char32_t",
  "class", "compl", "concept", "consteval", "constinit", "const_cast", "co_await",
  "co_return", "co_yield", "decltype", "delete", "dynamic_cast", "explicit", "export",
  "friend", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "operator", "or",
  "or_eq", "private", "protected", "public", "reinterpret_cast", "requires", "static_cast",
  "template", "this", "throw", "try", "typeid", "typename", "using", "virtual", "wchar_t",
  "xor", "xor_eq", "final", "override", "import", "module",
  /* the program's entry point */
  "main",
  /* Names the included headers and gpugen's templates declare are not kept
   * here: check.c takes them from build/reserved.c, made at build time. */
};

const char *ident_problem(const char *name) {
  if (!name[0])
    return "it is empty";
  if (strlen(name) > LIMIT_NAME)
    return arena_printf("it is longer than %d characters", LIMIT_NAME);
  if (!(isalpha((unsigned char)name[0]) || name[0] == '_'))
    return "it is not a C identifier (it must start with a letter or '_')";
  for (const char *p = name; *p; p++)
    if (!(isalnum((unsigned char)*p) || *p == '_') || (unsigned char)*p >= 0x80)
      return "it is not a C identifier (only letters, digits and '_' are allowed)";
  if (name[0] == '_' && (name[1] == '_' || isupper((unsigned char)name[1])))
    return "identifiers starting with '__' or '_' and a capital letter are reserved";
  if (strstr(name, "__"))
    return "identifiers containing '__' are reserved in C++";
  if (name[0] == '_')
    return "identifiers starting with '_' are reserved at file scope in C";
  if (strncmp(name, "gpugen_", 7) == 0 || strncmp(name, "GPUGEN_", 7) == 0)
    return "the prefix 'gpugen_' is reserved for gpugen's own names";
  for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
    if (strcmp(name, keywords[i]) == 0)
      return "it is a C, C++ or CUDA keyword";
  return NULL;
}

static int compare_name(const void *key, const void *item) { return strcmp(key, *(const char *const *)item); }

static bool in_table(const char *name, const char *const *table, int n) {
  return bsearch(name, table, (size_t)n, sizeof *table, compare_name) != NULL;
}

const char *ident_reserved(const char *name, bool macros_only) {
  if (in_table(name, reserved_macros, reserved_macros_count))
    return "the headers the generated code includes define it as a macro";
  if (macros_only)
    return NULL;
  if (in_table(name, reserved_header_names, reserved_header_names_count))
    return "the headers the generated code includes (CUDA's and the C library's) declare it";
  if (in_table(name, reserved_template_names, reserved_template_names_count))
    return "gpugen's generated code declares it";
  return NULL;
}

static int compare_expansion(const void *key, const void *entry) {
  const char *name = key, *e = *(const char *const *)entry;
  size_t n = strcspn(e, " ");
  int c = strncmp(name, e, n);
  return c ? c : (unsigned char)name[n];
}

const char *ident_macro_expansion(const char *name) {
  const char *const *e = bsearch(name, reserved_macro_expansions, (size_t)reserved_macro_expansions_count,
                                 sizeof *reserved_macro_expansions, compare_expansion);
  return e ? *e + strlen(name) : NULL;
}
