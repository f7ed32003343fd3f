# verify: one Makefile, three modes.
#   make                 release build of build/release/verify
#   make test            build and run every Check suite (release) and the regression tier
#   make sanitize        build and run every Check suite under AddressSanitizer + UBSan
#   make BUILD=debug     unoptimised build with assertions and symbols
# Sources: src/*.c (library + CLI in src/cli.c), tests/check_*.c (one Check suite per module, each its
# own binary), protobuf-c code generated at build time from Debian's onnx.proto.

BUILD   ?= release
ONNX_PROTO ?= /usr/include/onnx/onnx.proto
CC      ?= cc
OUT     := build/$(BUILD)
GEN     := build/gen

BLAS_CFLAGS := $(shell pkg-config --cflags openblas 2>/dev/null)
BLAS_LIBS   := $(shell pkg-config --libs openblas 2>/dev/null || echo -lopenblas)
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS  := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lrt -lm)

WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla \
           -Wformat=2 -Wno-format-nonliteral
BASE    := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -ffp-contract=off -fno-fast-math \
           -pthread -Iinclude -I$(GEN) $(BLAS_CFLAGS) -MMD -MP
ifeq ($(BUILD),release)
  OPT := -O2 -g
else ifeq ($(BUILD),debug)
  OPT := -O0 -g3
else ifeq ($(BUILD),asan)
  OPT := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
  LDSAN := -fsanitize=address,undefined
else
  $(error unknown BUILD=$(BUILD): use release, debug or asan)
endif
CFLAGS_ALL := $(BASE) $(OPT) $(CFLAGS)
LIBS := -lglpk $(BLAS_LIBS) -lprotobuf-c -lm -lpthread

LIB_SRC  := $(filter-out src/cli.c,$(wildcard src/*.c))
LIB_OBJ  := $(patsubst src/%.c,$(OUT)/obj/%.o,$(LIB_SRC)) $(OUT)/obj/onnx.pb-c.o
TEST_SRC := $(wildcard tests/check_*.c)
TEST_BIN := $(patsubst tests/%.c,$(OUT)/%,$(TEST_SRC))
TEST_HELP_SRC := $(filter-out $(TEST_SRC),$(wildcard tests/*.c))
TEST_HELP_OBJ := $(patsubst tests/%.c,$(OUT)/tobj/%.o,$(TEST_HELP_SRC))

.PHONY: all test sanitize clean models fuzz fuzz-run
.SECONDARY:
all: $(OUT)/verify

# One rule makes both files: the .c depends on the .h so that parallel make never runs protoc-c twice.
$(GEN)/onnx.pb-c.h: $(ONNX_PROTO)
	@mkdir -p $(GEN)
	cp -f $(ONNX_PROTO) $(GEN)/onnx.proto
	cd $(GEN) && protoc-c --c_out=. onnx.proto

$(GEN)/onnx.pb-c.c: $(GEN)/onnx.pb-c.h
	@test -f $@ || { rm -f $<; $(MAKE) $<; }

$(OUT)/obj/onnx.pb-c.o: $(GEN)/onnx.pb-c.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE) $(OPT) -w -c $< -o $@

$(OUT)/obj/%.o: src/%.c | $(GEN)/onnx.pb-c.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(WARN) -c $< -o $@

$(OUT)/tobj/%.o: tests/%.c | $(GEN)/onnx.pb-c.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(CHECK_CFLAGS) $(WARN) -Wno-missing-prototypes -c $< -o $@

$(OUT)/libvfy.a: $(LIB_OBJ)
	rm -f $@ && ar rcs $@ $^

$(OUT)/verify: $(OUT)/obj/cli.o $(OUT)/libvfy.a
	$(CC) $(OPT) $(LDSAN) -o $@ $^ $(LIBS)

$(OUT)/check_%: $(OUT)/tobj/check_%.o $(TEST_HELP_OBJ) $(OUT)/libvfy.a
	$(CC) $(OPT) $(LDSAN) -o $@ $^ $(CHECK_LIBS) $(LIBS)

# Every suite runs even when one fails; the summary line counts suites.
test: $(OUT)/verify $(TEST_BIN)
	@VFY_BIN=$(OUT)/verify scripts/run_tests.sh $(TEST_BIN)

# Under the sanitizers a suite runs several times slower: Check's per-test timeouts are tripled
# (verivital's certificate test takes 24-36 s of its 60 under AddressSanitizer on a quiet
# machine, and timed out with the cores shared five ways)
sanitize:
	CK_TIMEOUT_MULTIPLIER=3 $(MAKE) BUILD=asan test

models:
	scripts/make_models.sh

# libFuzzer harnesses (tests/fuzz/; clang, `apt install clang`; not part of `make test`):
# `make fuzz` builds them into build/fuzz/, `make fuzz-run` runs each for FUZZ_SECONDS (default 60)
# on a corpus in build/fuzz/ seeded from models/, specs/ and tests/data/bad/; a crash is written
# there.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_DIR     := build/fuzz
FUZZ_FLAGS   := $(BASE) -g -O1 -fsanitize=fuzzer,address,undefined $(BLAS_CFLAGS)
FUZZ_LIBS    := -lprotobuf-c $(BLAS_LIBS) -lm -lpthread
FUZZ_ONNX_SRC := src/onnx.c src/graph.c src/net.c src/eval.c src/la.c src/core.c \
                 $(GEN)/onnx.pb-c.c
fuzz: $(FUZZ_DIR)/fuzz_spec $(FUZZ_DIR)/fuzz_onnx $(FUZZ_DIR)/fuzz_cert

$(FUZZ_DIR)/fuzz_spec: tests/fuzz/fuzz_spec.c src/spec.c src/core.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $^ -lm -o $@

$(FUZZ_DIR)/fuzz_onnx: tests/fuzz/fuzz_onnx.c $(FUZZ_ONNX_SRC)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $^ $(FUZZ_LIBS) -o $@

$(FUZZ_DIR)/fuzz_cert: tests/fuzz/fuzz_cert.c src/checker.c src/spec.c $(FUZZ_ONNX_SRC)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $^ $(FUZZ_LIBS) -o $@

fuzz-run: fuzz $(OUT)/verify
	@mkdir -p $(FUZZ_DIR)/spec_corpus $(FUZZ_DIR)/onnx_corpus $(FUZZ_DIR)/cert_corpus
	cp -n specs/*.vnnlib tests/data/bad/*.vnnlib $(FUZZ_DIR)/spec_corpus/
	cp -n models/*.onnx tests/data/bad/*.onnx $(FUZZ_DIR)/onnx_corpus/
	test -s $(FUZZ_DIR)/cert_corpus/seed || $(OUT)/verify models/abs_split.onnx \
	    specs/abs_split_unsat.vnnlib --certificate $(FUZZ_DIR)/cert_corpus/seed >/dev/null
	cd $(FUZZ_DIR) && ./fuzz_spec -max_len=4096 -max_total_time=$(FUZZ_SECONDS) spec_corpus
	cd $(FUZZ_DIR) && ./fuzz_onnx -max_len=8192 -rss_limit_mb=4096 \
	    -max_total_time=$(FUZZ_SECONDS) onnx_corpus
	./$(FUZZ_DIR)/fuzz_cert -max_len=8192 -max_total_time=$(FUZZ_SECONDS) \
	    -artifact_prefix=$(FUZZ_DIR)/ $(FUZZ_DIR)/cert_corpus

clean:
	rm -rf build

-include $(wildcard $(OUT)/obj/*.d $(OUT)/tobj/*.d)
