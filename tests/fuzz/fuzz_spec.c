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
 * the outer one or empty, and real_pt marks only inputs whose inner interval is empty, as
 * vfy_box_cex_range reports; box indices in range; the networks' tensors one after another in
 * declaration order, hidden nodes named and before the outputs, their sizes summing to n_x and
 * n_y). */
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
            /* a real point is marked only where the inner interval is empty */
            if (x->real_pt && x->real_pt[i] && !(x->in_lo[i] > x->in_hi[i]))
                abort();
            double lo, hi;
            int r = vfy_box_cex_range(x, i, &lo, &hi);
            if (r == 1 ? !(lo == x->in_lo[i] && hi == x->in_hi[i] && lo <= hi)
                       : r == 2 ? !(lo == x->lo[i] && hi == x->hi[i]) : r != 0)
                abort();
        }
    if (s->version == 2) { /* the tensors' shapes give the offsets, n_x and n_y */
        int64_t off[2] = {0, 0};
        if (s->n_nets < 1)
            abort();
        for (int64_t k = 0; k < s->n_nets; k++) {
            const vfy_spec_net *nt = &s->nets[k];
            if (!nt->name || nt->x_off != off[0] || nt->y_off != off[1] ||
                (nt->rel == VFY_SPEC_OWN) != (nt->rel_to < 0) || nt->rel_to >= k ||
                nt->n_inputs < 1 || nt->n_outputs <= nt->n_hidden || nt->n_hidden < 0 ||
                nt->n_inputs > VFY_SPEC_MAX_IO || nt->n_outputs > VFY_SPEC_MAX_IO)
                abort();
            int hidden = 0, named = 1, seen_output = 0;
            for (int q = 0; q < 2; q++)
                for (int j = 0; j < (q ? nt->n_outputs : nt->n_inputs); j++) {
                    /* declaration order: each tensor right after the one before; the hidden
                     * nodes named and before the outputs */
                    const vfy_spec_tensor *t = q ? &nt->outputs[j] : &nt->inputs[j];
                    int64_t n = 1;
                    for (int d = 0; d < t->rank; d++)
                        n *= t->shape[d];
                    if (!t->name || !t->type || t->size != n || t->off != off[q] ||
                        (t->hidden && (!q || !t->onnx_name || seen_output)))
                        abort();
                    hidden += t->hidden;
                    seen_output |= q && !t->hidden;
                    named &= t->onnx_name != NULL;
                    off[q] += n;
                }
            if (hidden != nt->n_hidden || named != nt->by_name ||
                off[0] - nt->x_off != nt->n_x || off[1] - nt->y_off != nt->n_y)
                abort();
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
