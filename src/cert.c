/* cert: the certificate writer. See include/vfy/cert.h and docs/certificate.md. */
#include "vfy/cert.h"

#include <math.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

struct vfy_cert_writer {
    FILE *f;
    char *path, *tmp;
    int64_t n_in, n_regions;
    int64_t n_half;    /* entries of a flat alpha vector: every layer's outputs */
    int64_t root_box;  /* the box whose 'root' line was written last (-1: none) */
    const vfy_spec *spec; /* borrowed: the rows of each case */
    int failed;        /* sticky: the first write error */
    char why[256];
};

uint64_t vfy_cert_fnv1a64(const uint8_t *data, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < len; i++) {
        h ^= data[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* "<hash> <bytes> <path>" of a file; the path is printed with control characters as '?' so that it
 * stays on its line. */
static vfy_status put_file_line(FILE *f, const char *key, const char *path, vfy_error *err)
{
    uint8_t *data = NULL;
    size_t len = 0;
    vfy_status st = vfy_read_file(path, &data, &len, err);
    if (st != VFY_OK)
        return st;
    fprintf(f, "%s %016llx %llu ", key, (unsigned long long)vfy_cert_fnv1a64(data, len),
            (unsigned long long)len);
    vfy_free(data);
    for (const char *p = path; *p; p++)
        fputc((unsigned char)*p < 0x20 || *p == 0x7f ? '?' : *p, f);
    fputc('\n', f);
    return VFY_OK;
}

static void writer_free(vfy_cert_writer *w)
{
    if (!w)
        return;
    if (w->f)
        fclose(w->f);
    vfy_free(w->path);
    vfy_free(w->tmp);
    vfy_free(w);
}

vfy_status vfy_cert_begin(const char *path, const char *model_path, const char *spec_path,
                          const vfy_net *net, const vfy_spec *spec, int float_semantics,
                          vfy_cert_writer **out, vfy_error *err)
{
    *out = NULL;
    vfy_status st;
    vfy_cert_writer *w = vfy_alloc(sizeof *w);
    size_t n = strlen(path);
    if (!w || !(w->path = vfy_strdup(path)) || !(w->tmp = vfy_alloc(n + 5))) {
        st = vfy_fail(err, VFY_ERR_NOMEM, "%s: out of memory starting the certificate", path);
        goto fail;
    }
    memcpy(w->tmp, path, n);
    memcpy(w->tmp + n, ".tmp", 5);
    w->n_in = net->n_in;
    w->root_box = -1;
    w->spec = spec;
    for (int64_t k = 0; k < net->n_layers; k++)
        w->n_half += net->layers[k].n_out;
    w->f = fopen(w->tmp, "w");
    if (!w->f) {
        st = vfy_fail(err, VFY_ERR_IO, "%s: cannot create: %s", w->tmp, strerror(errno));
        goto fail;
    }
    fprintf(w->f, "verify-certificate %d\n", VFY_CERT_VERSION);
    fprintf(w->f, "semantics %s\n", float_semantics ? "float32" : "real");
    if ((st = put_file_line(w->f, "model", model_path, err)) != VFY_OK ||
        (st = put_file_line(w->f, "spec", spec_path, err)) != VFY_OK)
        goto fail;
    fprintf(w->f, "n_in %lld\nn_out %lld\nboxes %lld\ncases %lld\n", (long long)net->n_in,
            (long long)net->n_out, (long long)spec->n_boxes, (long long)spec->n_cases);
    *out = w;
    return VFY_OK;
fail:
    if (w && w->f) {
        fclose(w->f);
        w->f = NULL;
        remove(w->tmp);
    }
    writer_free(w);
    return st;
}

static void check_write(vfy_cert_writer *w)
{
    if (ferror(w->f) && !w->failed) {
        w->failed = 1;
        snprintf(w->why, sizeof w->why, "%s: write error: %s", w->tmp, strerror(errno));
    }
}

/* " lo <n %a> hi <n %a>" */
static void put_box(FILE *f, int64_t n, const double *lo, const double *hi)
{
    fputs(" lo", f);
    for (int64_t j = 0; j < n; j++)
        fprintf(f, " %a", lo[j]);
    fputs(" hi", f);
    for (int64_t j = 0; j < n; j++)
        fprintf(f, " %a", hi[j]);
}

/* " alpha N (j a)..." over the set entries (not NaN) of a flat slope vector */
static void put_alpha(FILE *f, int64_t n_half, const double *alpha)
{
    int64_t n = 0;
    for (int64_t q = 0; q < n_half; q++)
        n += !isnan(alpha[q]);
    fprintf(f, " alpha %lld", (long long)n);
    for (int64_t q = 0; q < n_half; q++)
        if (!isnan(alpha[q]))
            fprintf(f, " %lld %a", (long long)q, alpha[q]);
}

void vfy_cert_on_refuted(void *user, const vfy_refutation *r)
{
    vfy_cert_writer *w = user;
    if (w->failed)
        return;
    /* %a prints every double exactly; the checker reads it back bit for bit */
    FILE *f = w->f;
    fprintf(f, "region %lld", (long long)r->box);
    put_box(f, w->n_in, r->lo, r->hi);
    if (r->n_splits > 0) {
        fprintf(f, " splits %lld", (long long)r->n_splits);
        for (int64_t q = 0; q < r->n_splits; q++)
            fprintf(f, " %lld %c", (long long)r->split_idx[q], r->split_sign[q] > 0 ? '+' : '-');
    }
    fputs(" cases", f);
    for (int64_t i = 0; i < r->n_cases; i++)
        fprintf(f, " %lld", (long long)r->cases[i]);
    fputc('\n', f);
    w->n_regions++;
    if (r->alpha || r->beta) {
        /* one 'row' line per row of the listed cases that has parameters */
        int64_t i = 0;
        for (int64_t a = 0; a < r->n_cases; a++) {
            int64_t m = w->spec->cases[r->cases[a]].n_rows;
            for (int64_t q = 0; q < m; q++, i++) {
                fprintf(f, "row %lld %lld", (long long)r->cases[a], (long long)q);
                if (r->alpha)
                    put_alpha(f, w->n_half, r->alpha + i * r->n_half);
                else
                    fputs(" alpha 0", f);
                if (r->n_splits > 0) {
                    fputs(" beta", f);
                    for (int64_t t = 0; t < r->n_splits; t++)
                        fprintf(f, " %a", r->beta ? r->beta[i * r->n_splits + t] : 0.0);
                }
                fputc('\n', f);
            }
        }
    }
    check_write(w);
}

void vfy_cert_on_root_bound(void *user, int64_t box, const double *lo, const double *hi, int64_t idx,
                            int upper, const double *alpha_flat)
{
    vfy_cert_writer *w = user;
    if (w->failed)
        return;
    FILE *f = w->f;
    if (box != w->root_box) {
        fprintf(f, "root %lld", (long long)box);
        put_box(f, w->n_in, lo, hi);
        fputc('\n', f);
        w->root_box = box;
    }
    fprintf(f, "bound %lld %s", (long long)idx, upper ? "hi" : "lo");
    put_alpha(f, w->n_half, alpha_flat);
    fputc('\n', f);
    check_write(w);
}

vfy_status vfy_cert_finish(vfy_cert_writer *w, int keep, vfy_error *err)
{
    if (!w)
        return VFY_OK;
    vfy_status st = VFY_OK;
    if (keep && !w->failed) {
        fprintf(w->f, "end %lld\n", (long long)w->n_regions);
        if (fflush(w->f) != 0 || ferror(w->f)) {
            w->failed = 1;
            snprintf(w->why, sizeof w->why, "%s: write error: %s", w->tmp, strerror(errno));
        }
    }
    int closed = fclose(w->f);
    w->f = NULL;
    if (keep && !w->failed && closed != 0) {
        w->failed = 1;
        snprintf(w->why, sizeof w->why, "%s: write error: %s", w->tmp, strerror(errno));
    }
    if (keep && !w->failed && rename(w->tmp, w->path) != 0) {
        w->failed = 1;
        snprintf(w->why, sizeof w->why, "%s: cannot rename to %s: %s", w->tmp, w->path,
                 strerror(errno));
    }
    if (!keep || w->failed) {
        remove(w->tmp);
        remove(w->path); /* a stale certificate must not pass for this run's */
    }
    if (keep && w->failed)
        st = vfy_fail(err, VFY_ERR_IO, "%s", w->why);
    writer_free(w);
    return st;
}
