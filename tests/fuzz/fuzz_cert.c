/* libFuzzer harness for the certificate checker's reader: a fixed model and spec (read once from
 * models/abs_split.onnx and specs/abs_split_unsat.vnnlib, so run it from the repository's root),
 * the certificate fuzzed. Built by `make fuzz` and run by `make fuzz-run` (not by `make test`);
 * by hand, with clang:
 *
 *   clang -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -g -O1 -ffp-contract=off \
 *         -fsanitize=fuzzer,address,undefined -Iinclude -Ibuild/gen \
 *         -I/usr/include/x86_64-linux-gnu/openblas-pthread/ tests/fuzz/fuzz_cert.c src/checker.c \
 *         src/onnx.c src/graph.c src/net.c src/spec.c src/la.c src/core.c build/gen/onnx.pb-c.c \
 *         -lprotobuf-c -L/usr/lib/x86_64-linux-gnu/openblas-pthread/ -lopenblas -lm -lpthread \
 *         -o build/fuzz_cert
 *   mkdir -p build/fuzz_cert_corpus
 *   build/release/verify models/abs_split.onnx specs/abs_split_unsat.vnnlib \
 *         --certificate build/fuzz_cert_corpus/abs.cert
 *   build/fuzz_cert -max_len=4096 -rss_limit_mb=4096 build/fuzz_cert_corpus
 *
 * Contract checked on every input: the check runs (VFY_OK: a malformed certificate is invalid, not
 * an error), its reason is one line, and it never crashes, hangs or leaks. Bisection is kept to 4
 * levels so that one input stays fast. */
#include "vfy/checker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static uint8_t *model, *spec;
static size_t model_len, spec_len;

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        abort();
    uint8_t *buf = malloc(1 << 20);
    if (!buf)
        abort();
    *len = fread(buf, 1, 1 << 20, f);
    fclose(f);
    return buf;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    model = slurp("models/abs_split.onnx", &model_len);
    spec = slurp("specs/abs_split_unsat.vnnlib", &spec_len);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vfy_check_opts o;
    vfy_check_opts_default(&o);
    o.max_depth = 4;
    vfy_check_result r;
    vfy_error e;
    vfy_status st = vfy_check_certificate_bytes(model, model_len, "models/abs_split.onnx",
                                                (const char *)spec, spec_len,
                                                "specs/abs_split_unsat.vnnlib", (const char *)data,
                                                size, "fuzz.cert", &o, &r, &e);
    if (st != VFY_OK || memchr(r.why, '\0', sizeof r.why) == NULL ||
        (!r.valid && strchr(r.why, '\n') != NULL))
        abort();
    return 0;
}
