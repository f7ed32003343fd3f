/* result: the VNN-COMP result file. See include/vfy/result.h. */
#include "vfy/result.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static vfy_status finish(FILE *f, const char *path, vfy_error *err)
{
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return vfy_fail(err, VFY_ERR_IO, "%s: cannot write the result file: %s", path, strerror(errno));
    return VFY_OK;
}

/* VNNLIB 2.0's assignment of one tensor: "NAME TYPE [d_0,...]", then its values one a line. */
static void write_tensor(FILE *f, const vfy_spec_tensor *t, const double *x, const float *y,
                         int64_t n)
{
    fprintf(f, "%s %s [", t->name, t->type);
    for (int k = 0; k < t->rank; k++)
        fprintf(f, "%s%lld", k ? "," : "", (long long)t->shape[k]);
    fputs("]\n", f);
    for (int64_t j = 0; j < n; j++)
        fprintf(f, "%.17g\n", x ? x[j] : (double)y[j]);
}

vfy_status vfy_result_write(const char *path, const vfy_verify_result *res, const vfy_spec *spec,
                            int64_t n_in, int64_t n_out, vfy_error *err)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return vfy_fail(err, VFY_ERR_IO, "%s: cannot open the result file: %s", path, strerror(errno));
    fprintf(f, "%s\n", vfy_verdict_name(res->verdict));
    if (res->verdict == VFY_SAT && spec && spec->version == 2) {
        /* each network's inputs, then its outputs, in declaration order */
        for (int64_t q = 0; q < spec->n_nets; q++) {
            const vfy_spec_net *nt = &spec->nets[q];
            for (int j = 0; j < nt->n_inputs; j++) {
                const vfy_spec_tensor *t = &nt->inputs[j];
                VFY_ASSERT(t->off + t->size <= n_in);
                write_tensor(f, t, res->x + t->off, NULL, t->size);
            }
            for (int j = 0; j < nt->n_outputs; j++) {
                const vfy_spec_tensor *t = &nt->outputs[j];
                VFY_ASSERT(t->off + t->size <= n_out);
                write_tensor(f, t, NULL, res->y32 + t->off, t->size);
            }
        }
    } else if (res->verdict == VFY_SAT) {
        fputc('(', f);
        for (int64_t j = 0; j < n_in; j++)
            fprintf(f, "%s(X_%lld %.17g)\n", j ? " " : "", (long long)j, res->x[j]);
        for (int64_t j = 0; j < n_out; j++)
            fprintf(f, " (Y_%lld %.17g)%s\n", (long long)j, (double)res->y32[j],
                    j + 1 == n_out ? ")" : "");
    }
    return finish(f, path, err);
}

/* One tensor's elements as NAME[i,j]=v lines (v from x, or else y). */
static void print_tensor(FILE *f, const vfy_spec_tensor *t, const double *x, const float *y)
{
    int64_t idx[VFY_SPEC_MAX_RANK] = {0};
    for (int64_t e = 0; e < t->size; e++) {
        fputs(t->name, f);
        for (int k = 0; k < t->rank; k++)
            fprintf(f, "%c%lld", k ? ',' : '[', (long long)idx[k]);
        fprintf(f, "%s=%.17g\n", t->rank ? "]" : "", x ? x[e] : (double)y[e]);
        for (int k = t->rank - 1; k >= 0 && ++idx[k] == t->shape[k]; k--)
            idx[k] = 0; /* the next index in row-major order */
    }
}

void vfy_result_print_assignment(FILE *f, const vfy_verify_result *res, const vfy_spec *spec,
                                 int64_t n_in, int64_t n_out)
{
    if (res->verdict != VFY_SAT)
        return;
    if (spec && spec->version == 2) {
        for (int64_t q = 0; q < spec->n_nets; q++) {
            const vfy_spec_net *nt = &spec->nets[q];
            for (int j = 0; j < nt->n_inputs; j++)
                print_tensor(f, &nt->inputs[j], res->x + nt->inputs[j].off, NULL);
            for (int j = 0; j < nt->n_outputs; j++)
                print_tensor(f, &nt->outputs[j], NULL, res->y32 + nt->outputs[j].off);
        }
        return;
    }
    for (int64_t j = 0; j < n_in; j++)
        fprintf(f, "X_%lld=%.17g\n", (long long)j, res->x[j]);
    for (int64_t j = 0; j < n_out; j++)
        fprintf(f, "Y_%lld=%.17g\n", (long long)j, (double)res->y32[j]);
}

vfy_status vfy_result_write_error(const char *path, vfy_error *err)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return vfy_fail(err, VFY_ERR_IO, "%s: cannot open the result file: %s", path, strerror(errno));
    fputs("error\n", f);
    return finish(f, path, err);
}
