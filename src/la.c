/* la: BLAS wrapper and directed rounding. See include/vfy/la.h. */
#include "vfy/la.h"

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

