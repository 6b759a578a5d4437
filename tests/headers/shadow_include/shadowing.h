/* A user header whose file name is an output name of module "shadowing". */
#define SHADOWING_USER_HEADER 1
