/* la: BLAS wrapper and directed rounding. See include/vfy/la.h. */
#include "vfy/la.h"
#include "vfy/core.h"

#include <cblas.h>
#include <math.h>

void openblas_set_num_threads(int num_threads);

void vfy_la_gemm(int64_t m, int64_t n, int64_t k, const double *a, const double *b, double *c,
                 int accumulate)
{
    if (m == 0 || n == 0)
        return;
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)k, 1.0, a, (int)k,
                b, (int)n, accumulate ? 1.0 : 0.0, c, (int)n);
}

void vfy_la_gemm_bt(int64_t m, int64_t n, int64_t k, const double *a, const double *b, double *c)
{
    if (m == 0 || n == 0)
        return;
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)m, (int)n, (int)k, 1.0, a, (int)k, b,
                (int)k, 0.0, c, (int)n);
}

void vfy_la_gemv(int64_t m, int64_t n, const double *a, const double *x, double *y, int transpose)
{
    if (m == 0 || n == 0) {
        int64_t len = transpose ? n : m;
        for (int64_t i = 0; i < len; i++)
            y[i] = 0.0;
        return;
    }
    cblas_dgemv(CblasRowMajor, transpose ? CblasTrans : CblasNoTrans, (int)m, (int)n, 1.0, a,
                (int)n, x, 1, 0.0, y, 1);
}

void vfy_la_gemm_ref(int64_t m, int64_t n, int64_t k, const double *a, const double *b, double *c,
                     int accumulate)
{
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double s = accumulate ? c[i * n + j] : 0.0;
            for (int64_t p = 0; p < k; p++)
                s += a[i * k + p] * b[p * n + j];
            c[i * n + j] = s;
        }
}

void vfy_la_single_thread(void) { openblas_set_num_threads(1); }

/* 2*gamma(n+2) <= 2 (n+2) u / (1 - (n+2) u) <= (n+3) * 2^-52 for n < 2^40: the extra ulp-sized slack
 * absorbs the rounding of this constant's own use. */
double vfy_la_gamma(int64_t n) { return ((double)n + 3.0) * 0x1p-52; }
double vfy_la_gamma32(int64_t n) { return ((double)n + 3.0) * 0x1p-23; }


int vfy_la_csr_build(int64_t m, int64_t n, const double *a, double max_density, vfy_csr **out)
{
    *out = NULL;
    int64_t nnz = 0;
    for (int64_t p = 0; p < m * n; p++)
        nnz += a[p] != 0;
    if ((double)nnz > max_density * (double)m * (double)n)
        return 1;
    vfy_csr *c = vfy_alloc(sizeof *c);
    if (!c)
        return 0;
    c->m = m;
    c->n = n;
    c->nnz = nnz;
    c->row_start = vfy_alloc_array((size_t)m + 1, sizeof(int64_t));
    c->col = vfy_alloc_array((size_t)nnz + 1, sizeof(int64_t));
    c->val = vfy_alloc_array((size_t)nnz + 1, sizeof(double));
    if (!c->row_start || !c->col || !c->val) {
        vfy_la_csr_free(c);
        return 0;
    }
    int64_t q = 0;
    for (int64_t i = 0; i < m; i++) {
        c->row_start[i] = q;
        for (int64_t j = 0; j < n; j++)
            if (a[i * n + j] != 0) {
                c->col[q] = j;
                c->val[q++] = a[i * n + j];
            }
    }
    c->row_start[m] = q;
    *out = c;
    return 1;
}

void vfy_la_csr_free(vfy_csr *a)
{
    if (!a)
        return;
    vfy_free(a->row_start);
    vfy_free(a->col);
    vfy_free(a->val);
    vfy_free(a);
}

void vfy_la_csr_gemv(const vfy_csr *a, const double *x, double *y, int transpose, int absval)
{
    if (transpose) {
        for (int64_t j = 0; j < a->n; j++)
            y[j] = 0.0;
        for (int64_t i = 0; i < a->m; i++) {
            double xi = x[i];
            if (xi == 0)
                continue;
            for (int64_t p = a->row_start[i]; p < a->row_start[i + 1]; p++)
                y[a->col[p]] += (absval ? fabs(a->val[p]) : a->val[p]) * xi;
        }
        return;
    }
    for (int64_t i = 0; i < a->m; i++) {
        double s = 0.0;
        for (int64_t p = a->row_start[i]; p < a->row_start[i + 1]; p++)
            s += (absval ? fabs(a->val[p]) : a->val[p]) * x[a->col[p]];
        y[i] = s;
    }
}

void vfy_la_csr_lmul(int64_t k, const double *l, const vfy_csr *a, double *c)
{
    for (int64_t r = 0; r < k; r++) {
        const double *lr = l + r * a->m;
        double *cr = c + r * a->n;
        for (int64_t j = 0; j < a->n; j++)
            cr[j] = 0.0;
        for (int64_t i = 0; i < a->m; i++) {
            double li = lr[i];
            if (li == 0)
                continue;
            for (int64_t p = a->row_start[i]; p < a->row_start[i + 1]; p++)
                cr[a->col[p]] += li * a->val[p];
        }
    }
}

void vfy_la_csr_mul_t(int64_t k, const double *v, const vfy_csr *a, double *c)
{
    for (int64_t r = 0; r < k; r++) {
        const double *vr = v + r * a->n;
        double *cr = c + r * a->m;
        for (int64_t i = 0; i < a->m; i++) {
            double s = 0.0;
            for (int64_t p = a->row_start[i]; p < a->row_start[i + 1]; p++)
                s += a->val[p] * vr[a->col[p]];
            cr[i] = s;
        }
    }
}
