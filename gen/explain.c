#include "gpugen.h"
bool explain_spec(const Spec *spec, const ExplainOptions *opts, FILE *out) { (void)spec; (void)opts; (void)out; return false; }
