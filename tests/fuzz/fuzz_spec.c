/* libFuzzer harness for the VNNLIB parser. Built by `make fuzz` and run by `make fuzz-run` (not by
 * `make test`); by hand, with clang:
 *
 *   clang -std=c11 -D_DEFAULT_SOURCE -g -O1 -ffp-contract=off -fsanitize=fuzzer,address,undefined \
 *         -Iinclude tests/fuzz/fuzz_spec.c src/spec.c src/core.c -lm -o build/fuzz_spec
 *   mkdir -p build && cp -r ../shared/benchmarks/acasxu/vnnlib build/fuzz_corpus
 *   cp specs/acas_like_sat_v2.vnnlib specs/rand2_b_dnf_sat_v2.vnnlib build/fuzz_corpus  # 2.0
 *   build/fuzz_spec -max_len=4096 build/fuzz_corpus
 *
 * Contract checked on every input: the parser returns a status (never crashes or leaks), *out is
 * set exactly on success, the message of an error is one line, and a parsed spec satisfies the
 * invariants of include/vfy/spec.h (lo <= hi, lo <= in_lo, in_hi <= hi: an inner box is inside
 * the outer one or empty; box indices in range; the networks' tensors one after another, their
 * sizes summing to n_x and n_y). */
#include "vfy/spec.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vfy_spec *s = NULL;
    vfy_error e;
    vfy_status st = vfy_spec_parse((const char *)data, size, "fuzz", &s, &e);
    if ((st == VFY_OK) != (s != NULL) || st == VFY_ERR_INTERNAL || st == VFY_ERR_IO)
        abort();
    if (st != VFY_OK) {
        if (strchr(e.msg, '\n') != NULL || e.status != st)
            abort();
        return 0;
    }
    for (int64_t b = 0; b < s->n_boxes; b++)
        for (int64_t i = 0; i < s->n_x; i++) {
            const vfy_box *x = &s->boxes[b];
            if (!(x->lo[i] <= x->in_lo[i] && x->in_hi[i] <= x->hi[i] && x->lo[i] <= x->hi[i]))
                abort();
        }
    if (s->version == 2) { /* the tensors' shapes give the offsets, n_x and n_y */
        int64_t off[2] = {0, 0};
        if (s->n_nets < 1)
            abort();
        for (int64_t k = 0; k < s->n_nets; k++) {
            const vfy_spec_net *nt = &s->nets[k];
            const vfy_spec_tensor *t[2] = {&nt->input, &nt->output};
            if (!nt->name || nt->x_off != off[0] || nt->y_off != off[1] ||
                (nt->rel == VFY_SPEC_OWN) != (nt->rel_to < 0) || nt->rel_to >= k)
                abort();
            for (int q = 0; q < 2; q++) {
                int64_t n = 1;
                for (int d = 0; d < t[q]->rank; d++)
                    n *= t[q]->shape[d];
                if (!t[q]->name || !t[q]->type)
                    abort();
                off[q] += n;
            }
        }
        if (off[0] != s->n_x || off[1] != s->n_y)
            abort();
    } else if (s->version != 1 || s->n_nets != 0 || s->nets) {
        abort();
    }
    for (int64_t c = 0; c < s->n_cases; c++) {
        const vfy_case *k = &s->cases[c];
        if (k->box < 0 || k->box >= s->n_boxes || k->n_rows < 0)
            abort();
        for (int64_t r = 0; r < k->n_rows; r++)
            if (!(k->rows[r].rhs_lo <= k->rows[r].rhs_hi))
                abort();
    }
    vfy_spec_free(s);
    return 0;
}
