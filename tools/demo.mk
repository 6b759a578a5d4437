# Builds a generated module the way a user's Makefile would (make demo).
# usage: make -f tools/demo.mk OUT=out MODULE=mytypes
# make demo has just run gpugen; the fragment only compiles the module.
$(MODULE)_REGENERATE := no
include $(OUT)/$(MODULE).mk
NVCC      ?= nvcc
CUDA_HOME := $(abspath $(dir $(shell command -v $(NVCC)))..)
NVCCFLAGS := -std=c++17 -O2 -Werror all-warnings
NVFLAGS   := $(NVCCFLAGS) $($(MODULE)_GENCODE) $($(MODULE)_INCLUDES)

.PHONY: run maxsub rowstats cg syncbn
run: $(OUT)/demo_tuning $(OUT)/demo_particles
	$(OUT)/demo_tuning
	@if nvidia-smi -L >/dev/null 2>&1; then $(OUT)/demo_particles; \
	 else echo "demo_particles built; skipped running it: no GPU"; fi

# The host API from plain C: gcc -std=c11 compiles, the CUDA runtime links.
$(OUT)/demo_tuning: examples/tuning.c $($(MODULE)_OBJECTS)
	gcc -std=c11 -pedantic -Wall -Wextra -Werror -I$(CUDA_HOME)/include $($(MODULE)_INCLUDES) -c -o $(OUT)/tuning.o $<
	g++ -o $@ $(OUT)/tuning.o $($(MODULE)_OBJECTS) -L$(CUDA_HOME)/lib64 -lcudart
$(OUT)/demo_particles: examples/particles.cu $($(MODULE)_OBJECTS)
	$(NVCC) $(NVFLAGS) -o $@ $< $($(MODULE)_OBJECTS)

# examples/maxsub: an ordered reduction called from plain C
maxsub: $(OUT)/demo_maxsub
	@if nvidia-smi -L >/dev/null 2>&1; then $(OUT)/demo_maxsub; \
	 else echo "demo_maxsub built; skipped running it: no GPU"; fi
$(OUT)/demo_maxsub: examples/maxsub/main.c $($(MODULE)_OBJECTS)
	gcc -std=c11 -pedantic -Wall -Wextra -Werror -I$(CUDA_HOME)/include $($(MODULE)_INCLUDES) -c -o $(OUT)/main.o $<
	g++ -o $@ $(OUT)/main.o $($(MODULE)_OBJECTS) -L$(CUDA_HOME)/lib64 -lcudart

# examples/rowstats: per-row statistics (M_R_rows, M_R_segmented) from plain C
rowstats: $(OUT)/demo_rowstats
	@if nvidia-smi -L >/dev/null 2>&1; then $(OUT)/demo_rowstats; \
	 else echo "demo_rowstats built; skipped running it: no GPU"; fi
$(OUT)/demo_rowstats: examples/rowstats/main.c $($(MODULE)_OBJECTS)
	gcc -std=c11 -pedantic -Wall -Wextra -Werror -I$(CUDA_HOME)/include $($(MODULE)_INCLUDES) -c -o $(OUT)/main.o $<
	g++ -o $@ $(OUT)/main.o $($(MODULE)_OBJECTS) -L$(CUDA_HOME)/lib64 -lcudart

# examples/cg: conjugate-gradient steps whose dot products and squared
# distance (reductions over two arrays) run on the GPU, from plain C
cg: $(OUT)/demo_cg
	@if nvidia-smi -L >/dev/null 2>&1; then $(OUT)/demo_cg; \
	 else echo "demo_cg built; skipped running it: no GPU"; fi
$(OUT)/demo_cg: examples/cg/main.c $($(MODULE)_OBJECTS)
	gcc -std=c11 -pedantic -Wall -Wextra -Werror -I$(CUDA_HOME)/include $($(MODULE)_INCLUDES) -c -o $(OUT)/main.o $<
	g++ -o $@ $(OUT)/main.o $($(MODULE)_OBJECTS) -L$(CUDA_HOME)/lib64 -lcudart -lm
# examples/syncbn: per-channel Welford across GPUs through NCCL, one process
# per GPU (NVLink multicast stays off)
syncbn: $(OUT)/demo_syncbn
	@if nvidia-smi -L >/dev/null 2>&1; then NCCL_NVLS_ENABLE=0 $(OUT)/demo_syncbn; \
	 else echo "demo_syncbn built; skipped running it: no GPU"; fi
$(OUT)/demo_syncbn: examples/syncbn/main.c $($(MODULE)_OBJECTS)
	gcc -std=c11 -pedantic -Wall -Wextra -Werror -I$(CUDA_HOME)/include $($(MODULE)_INCLUDES) -c -o $(OUT)/main.o $<
	g++ -o $@ $(OUT)/main.o $($(MODULE)_OBJECTS) -L$(CUDA_HOME)/lib64 $($(MODULE)_LDLIBS) -lcudart
