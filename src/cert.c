/* cert: the certificate writer. See include/vfy/cert.h and docs/certificate.md. */
#include "vfy/cert.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

struct vfy_cert_writer {
    FILE *f;
    char *path, *tmp;
    int64_t n_in, n_regions;
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

void vfy_cert_on_refuted(void *user, int64_t box, const double *lo, const double *hi, int64_t n,
                         const int64_t *cases)
{
    vfy_cert_writer *w = user;
    if (w->failed)
        return;
    /* %a prints every double exactly; the checker reads it back bit for bit */
    FILE *f = w->f;
    fprintf(f, "region %lld lo", (long long)box);
    for (int64_t j = 0; j < w->n_in; j++)
        fprintf(f, " %a", lo[j]);
    fputs(" hi", f);
    for (int64_t j = 0; j < w->n_in; j++)
        fprintf(f, " %a", hi[j]);
    fputs(" cases", f);
    for (int64_t i = 0; i < n; i++)
        fprintf(f, " %lld", (long long)cases[i]);
    if (fputc('\n', f) == EOF || ferror(f)) {
        w->failed = 1;
        snprintf(w->why, sizeof w->why, "%s: write error: %s", w->tmp, strerror(errno));
    }
    w->n_regions++;
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
