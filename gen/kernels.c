/* The kernel library's names that gen owns: the templates are filled from
 * this table (each reduction's kernel names, the row forms, the largest
 * grid), and explain, --resources and the name checks read it, so what gen
 * reports is what the generated code declares. */
#include <string.h>
#include "gpugen.h"

const unsigned int kernel_max_grid = 2048;

/* Row-tile forms, in the order of the template's enum row_form (each a
 * kernel of its own, M_R_row_tiles_kernel<form>). */
const char *const row_form_names[] = {"short_rows", "grouped_rows", "long_rows", "wide_rows", "run_rows",
                                      "dense_short_rows"};
const int row_form_count = (int)(sizeof row_form_names / sizeof row_form_names[0]);

/* Every __global__ kernel of a reduction: its placeholder in the templates
 * and the suffix of its name after <module>_<reduction>. */
const KernelName kernel_names[] = {
    {"KERNEL", "_kernel", false},
    {"SEGMENTED_KERNEL", "_segmented_kernel", true},
    {"ROWS_KERNEL", "_rows_kernel", true},
    {"SPLIT_ROWS_KERNEL", "_split_rows_kernel", true},
    {"ROW_GROUPS_KERNEL", "_row_groups_kernel", true},
    {"ROW_BLOCKS_KERNEL", "_row_blocks_kernel", true},
    {"ROW_TILES_KERNEL", "_row_tiles_kernel", true},
};
const int kernel_name_count = (int)(sizeof kernel_names / sizeof kernel_names[0]);

const char *row_forms_enumerators(void) {
  Buf b = {0};
  for (int f = 0; f < row_form_count; f++)
    buf_printf(&b, "%s%s", f ? ", " : "", row_form_names[f]);
  const char *s = arena_strdup(b.data);
  buf_free(&b);
  return s;
}
