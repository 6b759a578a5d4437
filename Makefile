# gpugen: `make` builds ./gpugen, `make demo` runs it on the example spec and
# builds the output with nvcc, `make test` runs every test.

CC      ?= cc
NVCC    ?= nvcc
CFLAGS  ?= -O2 -g
WARN     = -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-missing-field-initializers
# libclang comes from whatever LLVM llvm-config names (Debian: libclang-dev).
LLVM_CONFIG ?= llvm-config
CLANG_CFLAGS = -I$(shell $(LLVM_CONFIG) --includedir) \
  -DGPUGEN_CLANG_RESOURCE_DIR='"$(shell $(LLVM_CONFIG) --libdir)/clang/$(shell $(LLVM_CONFIG) --version)"'
CLANG_LIBS   = -L$(shell $(LLVM_CONFIG) --libdir) -Wl,-rpath,$(shell $(LLVM_CONFIG) --libdir) -lclang
LIBS     = -lcjson -lm $(CLANG_LIBS)

BUILD     = build
GEN_SRCS  = $(filter-out gen/main.c,$(wildcard gen/*.c))
GEN_OBJS  = $(GEN_SRCS:gen/%.c=$(BUILD)/gen/%.o) $(BUILD)/templates.o $(BUILD)/reserved.o
TEMPLATES = $(wildcard templates/*.tmpl)
UNIT_SRCS = $(wildcard tests/unit/test_*.c)
UNIT_BINS = $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

DEMO_SPEC = specs/mytypes.json
DEMO_OUT  = out

.DELETE_ON_ERROR:
.PHONY: all deps demo bench bench-compile test test-unit test-golden test-errors test-compile test-valgrind test-gpu \
        golden-update clean
all: deps gpugen

# Installs the Debian packages gpugen needs when they are missing.
deps:
	@tools/install-deps.sh

gpugen: $(BUILD)/gen/main.o $(GEN_OBJS)
	$(CC) $(CFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/gen/%.o: gen/%.c gen/gpugen.h gen/model.h | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(WARN) -c -o $@ $<
$(BUILD)/gen/clangcheck.o: gen/clangcheck.c gen/gpugen.h gen/model.h | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(WARN) $(CLANG_CFLAGS) -c -o $@ $<

# Templates are compiled into the binary, so gpugen works from any directory.
$(BUILD)/tools/embed: tools/embed.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(WARN) -o $@ $<
$(BUILD)/templates.c: $(TEMPLATES) $(BUILD)/tools/embed
	$(BUILD)/tools/embed $@ $(TEMPLATES)
$(BUILD)/templates.o: $(BUILD)/templates.c
	$(CC) $(CFLAGS) -std=c11 -c -o $@ $<

# The names a spec may not take, read from the headers the generated code
# includes (through nvcc's preprocessor) and from the templates.
$(BUILD)/reserved/probe.cu: $(TEMPLATES)
	@mkdir -p $(dir $@)
	grep -h '^#include <' $(TEMPLATES) | sort -u > $@
$(BUILD)/reserved/macros.txt: $(BUILD)/reserved/probe.cu
	$(NVCC) -E -x cu -Xcompiler -dM -o $@ $<
$(BUILD)/reserved/probe.ii: $(BUILD)/reserved/probe.cu
	$(NVCC) -E -x cu -o $@ $<
$(BUILD)/tools/reserved: tools/reserved.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(WARN) -o $@ $<
$(BUILD)/reserved.c: $(BUILD)/tools/reserved $(BUILD)/reserved/macros.txt $(BUILD)/reserved/probe.ii $(TEMPLATES)
	$(BUILD)/tools/reserved $@ $(BUILD)/reserved/macros.txt $(BUILD)/reserved/probe.ii $(TEMPLATES)
$(BUILD)/reserved.o: $(BUILD)/reserved.c
	$(CC) $(CFLAGS) -std=c11 -c -o $@ $<

demo: all
	./gpugen -v -o $(DEMO_OUT) $(DEMO_SPEC)
	$(MAKE) -f tools/demo.mk OUT=$(DEMO_OUT) MODULE=mytypes
	./gpugen -v -o $(DEMO_OUT)/maxsub examples/maxsub/maxsub.json
	$(MAKE) -f tools/demo.mk OUT=$(DEMO_OUT)/maxsub MODULE=maxsub maxsub

$(BUILD)/tests/%: tests/unit/%.c $(GEN_OBJS) tests/unit/unit.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(WARN) -Igen -o $@ $< $(GEN_OBJS) $(LIBS) -lcmocka

test: all $(UNIT_BINS)
	@tests/run.sh all

test-unit: all $(UNIT_BINS)
	@tests/run.sh unit
test-golden: all
	@tests/run.sh golden
test-errors: all
	@tests/run.sh errors
test-compile: all
	@tests/run.sh compile
test-valgrind: all
	@tests/run.sh valgrind
test-gpu: all
	@tests/run.sh gpu

# Benchmarks (bench/): `make bench` needs a GPU; `make bench-compile` does not.
bench: all
	$(MAKE) -C bench bench
bench-compile: all
	$(MAKE) -C bench compile

# Rewrites the expected files of tests/golden from the current gpugen.
golden-update: all
	@UPDATE=1 tests/run.sh golden

clean:
	rm -rf $(BUILD) gpugen $(DEMO_OUT)
