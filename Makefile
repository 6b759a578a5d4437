# gpugen: `make` builds ./gpugen, `make demo` runs it on the example spec and
# builds the output with nvcc, `make test` runs every test.

CC      ?= cc
NVCC    ?= nvcc
CFLAGS  ?= -O2 -g
WARN     = -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-missing-field-initializers
# libclang 22 (Debian's libclang-22-dev), which parses CUDA 13's own headers
# as nvcc sees them; tools/install-deps.sh installs it.
LLVM_DIR    ?= /usr/lib/llvm-22
CLANG_CFLAGS = -I$(LLVM_DIR)/include \
  -DGPUGEN_CLANG_RESOURCE_DIR='"$(firstword $(wildcard $(LLVM_DIR)/lib/clang/*))"'
CLANG_LIBS   = -L$(LLVM_DIR)/lib -Wl,-rpath,$(LLVM_DIR)/lib -lclang
# gen/header_files.c defines open() for libLLVM to bind to: exported
LIBS     = -lcjson -lm $(CLANG_LIBS) -Wl,--export-dynamic-symbol=open

BUILD     = build
GEN_SRCS  = $(filter-out gen/main.c,$(wildcard gen/*.c))
GEN_OBJS  = $(GEN_SRCS:gen/%.c=$(BUILD)/gen/%.o) $(BUILD)/templates.o $(BUILD)/reserved.o
TEMPLATES = $(wildcard templates/*.tmpl)
UNIT_SRCS = $(wildcard tests/unit/test_*.c)
UNIT_BINS = $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

DEMO_SPEC = specs/mytypes.json
DEMO_OUT  = out

.DELETE_ON_ERROR:
.PHONY: all deps install demo bench bench-nccl bench-compile check test test-unit test-golden test-errors test-compile test-valgrind test-gpu test-integration test-install test-explain \
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
	grep -h '^#include <' $(TEMPLATES) | grep -v '<nccl' | sort -u > $@
	awk '/^@@ /{keep = $$2 == "device_includes"; next} keep' templates/nccl.cu.tmpl | \
	  sed 's/^#include <nccl.h>/#if __has_include(<nccl.h>)\n#include <nccl.h>\n#endif/' >> $@
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
	./gpugen -v -o $(DEMO_OUT)/rowstats examples/rowstats/rowstats.json
	$(MAKE) -f tools/demo.mk OUT=$(DEMO_OUT)/rowstats MODULE=rowstats rowstats
	./gpugen -v -o $(DEMO_OUT)/syncbn examples/syncbn/syncbn.json
	$(MAKE) -f tools/demo.mk OUT=$(DEMO_OUT)/syncbn MODULE=syncbn syncbn
	./gpugen -v -o $(DEMO_OUT)/cg examples/cg/cg.json
	$(MAKE) -f tools/demo.mk OUT=$(DEMO_OUT)/cg MODULE=cg cg

$(BUILD)/tests/%: tests/unit/%.c $(GEN_OBJS) tests/unit/unit.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(WARN) -Igen $(UNIT_CFLAGS) -o $@ $< $(GEN_OBJS) $(LIBS) -lcmocka
# test_vectors compares gpugen's table with CUDA's vector_types.h, compiled as C
$(BUILD)/tests/test_vectors: UNIT_CFLAGS = -isystem $(dir $(shell command -v $(NVCC)))../include

# The NCCL schedule's unit test compiles the template's plain-C blocks.
$(BUILD)/tests/nccl_schedule.inc: templates/nccl.cu.tmpl
	@mkdir -p $(dir $@)
	awk '/^@@ /{keep = $$2 == "chunks" || $$2 == "schedule"; next} keep' $< > $@
$(BUILD)/tests/test_nccl_schedule: $(BUILD)/tests/nccl_schedule.inc
$(BUILD)/tests/test_nccl_schedule: UNIT_CFLAGS = -I$(BUILD)/tests

test: all $(UNIT_BINS)
	@tests/run.sh all

# The quick tier, for every edit: unit, golden, errors, cli, explain (no
# --resources), output and the fuzz corpus replay.
check: all $(UNIT_BINS) fuzz-build
	@tests/run.sh check

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
test-integration: all
	@tests/run.sh integration
test-install: all
	@tests/run.sh install
test-explain: all
	@tests/run.sh explain
test-gpu: all
	@tests/run.sh gpu

# make install PREFIX=/usr/local DESTDIR=: the binary, the man page, the CMake
# package and the docs (with the examples). gpugen needs nothing else at run
# time: its templates are inside it.
PREFIX  ?= /usr/local
DESTDIR ?=
EXAMPLE_FILES = $(wildcard examples/make/Makefile examples/make/*.json examples/make/*.[ch] \
  examples/make/include/*.h examples/cmake/CMakeLists.txt)
INSTALL_DOCS = README.md docs/spec.md docs/emitted.md docs/integration.md docs/spec.schema.json
install: all
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/man/man1" \
	  "$(DESTDIR)$(PREFIX)/lib/cmake/gpugen" "$(DESTDIR)$(PREFIX)/share/doc/gpugen/examples"
	install -m 755 gpugen "$(DESTDIR)$(PREFIX)/bin/gpugen"
	install -m 644 docs/gpugen.1 "$(DESTDIR)$(PREFIX)/share/man/man1/gpugen.1"
	install -m 644 cmake/gpugenConfig.cmake cmake/gpugenConfigVersion.cmake cmake/gpugenGenerate.cmake \
	  "$(DESTDIR)$(PREFIX)/lib/cmake/gpugen/"
	install -m 644 $(INSTALL_DOCS) "$(DESTDIR)$(PREFIX)/share/doc/gpugen/"
	for f in $(EXAMPLE_FILES); do install -D -m 644 "$$f" "$(DESTDIR)$(PREFIX)/share/doc/gpugen/$$f" || exit 1; done

# Benchmarks (bench/): `make bench` and `make bench-nccl` need GPUs; `make bench-compile` does not.
bench: all
	$(MAKE) -C bench bench
bench-compile: all
	$(MAKE) -C bench compile
# 2 GPUs or more (NCCL): the reductions across GPUs against one GPU and NCCL
bench-nccl: all
	$(MAKE) -C bench nccl

# Rewrites the expected files of tests/golden from the current gpugen.
golden-update: all
	@UPDATE=1 tests/run.sh golden explain

clean:
	rm -rf $(BUILD) gpugen $(DEMO_OUT) build-fuzz build-san

# Fuzzing (tests/fuzz/, docs/testing.md): a libFuzzer target over the whole
# pipeline, built with clang into its own directory. `make fuzz FUZZ_SECONDS=N`
# fuzzes for N seconds, growing build-fuzz/corpus from tests/fuzz/corpus (a
# crash lands in build-fuzz/crash-*);
# `make test` only replays tests/fuzz/corpus and tests/fuzz/regressions.
FUZZ_BUILD   = build-fuzz
FUZZ_CC      = clang
FUZZ_SAN     = -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS  = -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link $(FUZZ_SAN)
FUZZ_SECONDS ?= 60
FUZZ_ARGS    = -max_len=4096 -timeout=10 -rss_limit_mb=2048 -close_fd_mask=2 -dict=tests/fuzz/spec.dict -artifact_prefix=$(FUZZ_BUILD)/
.PHONY: fuzz fuzz-build fuzz-seeds test-fuzz
# The build tools (embed, reserved) are built with these flags too; their
# leaks at exit do not matter, so LeakSanitizer is off while building.
fuzz-build:
	@ASAN_OPTIONS=detect_leaks=0 $(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) CFLAGS='$(FUZZ_CFLAGS)' $(FUZZ_BUILD)/fuzz_spec
$(BUILD)/fuzz_spec: tests/fuzz/fuzz_spec.c $(GEN_OBJS) gen/gpugen.h gen/model.h
	$(CC) $(CFLAGS) $(WARN) -Igen -fsanitize=fuzzer -o $@ $< $(GEN_OBJS) $(LIBS)
# Copies every spec of the repository into the corpus as seed-PATH (the fuzz
# suite replays the specs themselves, so stale seeds only make fuzzing start
# from less).
fuzz-seeds:
	rm -f tests/fuzz/corpus/seed-*
	for f in $$(git ls-files '*.json' | grep -v '^docs/\|^tests/fuzz/'); do \
	  cp "$$f" "tests/fuzz/corpus/seed-$$(echo "$$f" | tr / -)"; done
fuzz: fuzz-build
	@mkdir -p $(FUZZ_BUILD)/corpus
	$(FUZZ_BUILD)/fuzz_spec $(FUZZ_ARGS) -max_total_time=$(FUZZ_SECONDS) $(FUZZ_BUILD)/corpus tests/fuzz/corpus

# The property test as long as asked: random valid specs from seed
# PROPERTY_SEED on, PROPERTY_COUNT of them, each built with nvcc and gcc and
# its CPU references checked (tests/property/property.py).
PROPERTY_SEED  ?= 1000
PROPERTY_COUNT ?= 50
.PHONY: fuzz-compile
fuzz-compile: all
	python3 tests/property/property.py --gpugen $(CURDIR)/gpugen --work $(BUILD)/property \
	  --seed $(PROPERTY_SEED) --count $(PROPERTY_COUNT)

# Sanitizers: gpugen and the unit tests built with ASan + UBSan into
# build-san/, then the unit, golden, errors, cli and output suites run with them
# (tests/run.sh takes GPUGEN and BUILD from the environment). abort_on_error
# turns every report into exit 134, which no test expects (specs exit 1).
SAN_BUILD  = build-san
SAN_CFLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
.PHONY: test-sanitize sanitize-build
sanitize-build:
	@ASAN_OPTIONS=detect_leaks=0 $(MAKE) --no-print-directory BUILD=$(SAN_BUILD) CFLAGS='$(SAN_CFLAGS)' $(SAN_BUILD)/gpugen $(UNIT_SRCS:tests/unit/%.c=$(SAN_BUILD)/tests/%)
$(BUILD)/gpugen: $(BUILD)/gen/main.o $(GEN_OBJS)
	$(CC) $(CFLAGS) -o $@ $^ $(LIBS)
test-sanitize: sanitize-build
	@GPUGEN=$(CURDIR)/$(SAN_BUILD)/gpugen BUILD=$(SAN_BUILD) ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:abort_on_error=1 tests/run.sh unit golden errors cli output
test: fuzz-build
test-fuzz: fuzz-build
	@tests/run.sh fuzz
