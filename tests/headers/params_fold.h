/* Folds whose signatures miss what "indexed" and "params" add (params_fold.json). */
#ifdef __CUDACC__
#define HD __host__ __device__
#else
#define HD
#endif
typedef struct Limit { float x; } Limit;
typedef struct Best { float v; long long at; } Best;
static inline HD Best no_index(Best a, float x) { (void)x; return a; }
static inline HD Best int_index(Best a, float x, int i) { (void)x; (void)i; return a; }
static inline HD Best params_first(Best a, float x, Limit p, long long i) { (void)x; (void)p; (void)i; return a; }
static inline HD Best no_params(Best a, float x, long long i) { (void)x; (void)i; return a; }
static inline HD Best best_combine(Best a, Best b) { return b.at >= 0 ? b : a; }
