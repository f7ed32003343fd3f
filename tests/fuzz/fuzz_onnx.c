/* libFuzzer harness for the ONNX loader (protobuf-c, the graph IR, shape inference, constant
 * folding, lowering). Built by `make fuzz` and run by `make fuzz-run` (not by `make test`); by
 * hand, with clang (docs/results.md has a campaign's numbers):
 *
 *   clang -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -g -O1 -ffp-contract=off \
 *         -fsanitize=fuzzer,address,undefined -Iinclude -Ibuild/gen \
 *         -I/usr/include/x86_64-linux-gnu/openblas-pthread/ tests/fuzz/fuzz_onnx.c \
 *         src/onnx.c src/graph.c src/net.c src/eval.c src/la.c src/core.c build/gen/onnx.pb-c.c \
 *         -lprotobuf-c -L/usr/lib/x86_64-linux-gnu/openblas-pthread/ -lopenblas -lm -lpthread \
 *         -o build/fuzz_onnx
 *   mkdir -p build/fuzz_onnx_corpus     (then copy models/'s and tests/data/bad/'s ONNX files in)
 *   build/fuzz_onnx -max_len=8192 -rss_limit_mb=4096 build/fuzz_onnx_corpus
 *
 * Contract checked on every input: the loader returns a status (never crashes, hangs or leaks),
 * *out is set exactly on success, an error's message is one line naming the file, and a loaded
 * net passes vfy_net_validate and evaluates (in double, at the origin) to finite or infinite
 * values without touching memory it does not own. */
#include "vfy/eval.h"
#include "vfy/net.h"
#include "vfy/onnx.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vfy_net *net = NULL;
    vfy_error e;
    vfy_status st = vfy_onnx_load_bytes(data, size, "fuzz.onnx", &net, &e);
    if ((st == VFY_OK) != (net != NULL) || st == VFY_ERR_INTERNAL || st == VFY_ERR_IO)
        abort();
    if (st != VFY_OK) {
        if (strchr(e.msg, '\n') != NULL || e.status != st || strstr(e.msg, "fuzz.onnx") == NULL)
            abort();
        return 0;
    }
    if (vfy_net_validate(net, &e) != VFY_OK)
        abort();
    int64_t ws = vfy_eval_ws_len(net);
    if (net->n_in <= (1 << 20) && ws <= (1 << 24)) {
        double *x = calloc((size_t)net->n_in + 1, sizeof(double));
        double *y = calloc((size_t)net->n_out + 1, sizeof(double));
        double *s = calloc((size_t)ws + 1, sizeof(double));
        if (x && y && s)
            vfy_eval_f64(net, x, y, s);
        free(x);
        free(y);
        free(s);
    }
    vfy_net_free(net);
    return 0;
}
