# Compiles one generated module the way a user would, with warnings as
# errors, for every target its .mk names.
# usage: make -f tests/compile/check.mk OUT=dir MODULE=name WORK=dir
HERE      := $(dir $(lastword $(MAKEFILE_LIST)))
$(MODULE)_REGENERATE := no # the files as generated are under test
include $(OUT)/$(MODULE).mk
NVCC      ?= nvcc
CUDA_INC  := $(dir $(shell command -v $(NVCC)))../include
# --threads 0: one nvcc thread per CPU compiles the targets side by side
# (2 cores, the segmented golden module's object: 229 s alone, 133 s so)
# GENCODE= narrows the targets (the compile suite builds the GPU tests'
# modules, which the GPU machine builds for every target, for one here)
GENCODE   ?= $($(MODULE)_GENCODE)
NVFLAGS   := --threads 0 -std=c++17 -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror $(GENCODE) $($(MODULE)_INCLUDES)

.DELETE_ON_ERROR:
all: $(WORK)/c11.o $(WORK)/cxx.o $(WORK)/host.o $(WORK)/exercise.o $(WORK)/exercise.ptx

# The C header on its own, as plain C11 and as C++ (no nvcc), with CUDA's
# include directories as nvcc adds them (cccl/ holds cuda/std). A module
# whose headers are C++ only must say so to a C compiler, and nothing else.
$(WORK)/c11.o: $($(MODULE)_HEADERS)
	printf '#include "%s.h"\nint gpugen_c11_check;\n' $(MODULE) > $(WORK)/c11.c
	if grep -q "the spec's headers are C++ only" $(OUT)/$(MODULE).h; then \
	  ! gcc -std=c11 -I$(CUDA_INC) $($(MODULE)_INCLUDES) -c -o $@ $(WORK)/c11.c 2> $(WORK)/c11.err && \
	  grep -q "error: #error \"$(MODULE).h: the spec's headers are C++ only" $(WORK)/c11.err && touch $@; \
	else \
	  gcc -std=c11 -pedantic -Wall -Wextra -Werror -I$(CUDA_INC) $($(MODULE)_INCLUDES) -c -o $@ $(WORK)/c11.c; \
	fi
$(WORK)/cxx.o: $($(MODULE)_HEADERS)
	printf '#include "%s.h"\nint gpugen_cxx_check;\n' $(MODULE) > $(WORK)/cxx.cpp
	g++ -std=c++17 -Wall -Wextra -Werror -I$(CUDA_INC) -I$(CUDA_INC)/cccl $($(MODULE)_INCLUDES) -c -o $@ $(WORK)/cxx.cpp
$(WORK)/host.o: $($(MODULE)_SOURCES) $($(MODULE)_HEADERS)
	$(NVCC) $(NVFLAGS) -c -o $@ $($(MODULE)_SOURCES)
$(WORK)/exercise.cu: $($(MODULE)_HEADERS)
	sh $(HERE)exercise.sh $(OUT)/$(MODULE).cuh > $@
$(WORK)/exercise.o: $(WORK)/exercise.cu
	$(NVCC) $(NVFLAGS) -c -o $@ $<
# PTX of the newest target, read by tests/compile/ptx_words.sh
$(WORK)/exercise.ptx: $(WORK)/exercise.cu
	$(NVCC) -std=c++17 $($(MODULE)_INCLUDES) -arch=$(lastword $(subst code=, ,$($(MODULE)_GENCODE))) -ptx -o $@ $<
