/* Named like the module's .cu, and listed in the spec's "headers". */
#define SHADOWING_USER_SOURCE 1
