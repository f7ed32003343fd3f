/* la: BLAS wrapper and directed rounding. See include/vfy/la.h. */
#include "vfy/la.h"
#include "vfy/core.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define VFY_HAVE_MXCSR 1
#endif

void openblas_set_num_threads(int num_threads);

/* Products with fewer rows than this go row by row through gemv. A gemm packs all of B, the
 * layer's weights, before it multiplies, whatever the rows: with a 256 x 256 B (OpenBLAS 0.3.21,
 * Haswell kernels) one row took 50 us by dgemm and 6 us by dgemv, four rows 57 / 25 us, eight 73 /
 * 51 us, sixteen 97 / 102 us; with ACAS Xu's 50 x 50, gemm wins from eight rows on (1.4 / 2.0 us;
 * scripts/gemm_rows.c). The refinement's prefix searches bound one or a few rows at a time:
 * packing was the largest part of their time (mnist_fc 256x6, perf). Every entry of C is still
 * one dot product of a row of A and a column of B, in some order: the error bounds of la.h hold as
 * they are. C's rows are zeroed first where they are not accumulated into,
 * then accumulated into (beta 1): with beta 0 a BLAS scales what C held by 0 in a pass of its own,
 * and a NaN left there could stay. */
#define GEMV_ROWS 8

void vfy_la_gemm(int64_t m, int64_t n, int64_t k, const double *a, const double *b, double *c,
                 int accumulate)
{
    if (m == 0 || n == 0)
        return;
    if (m < GEMV_ROWS && k > 0) {
        if (!accumulate)
            memset(c, 0, (size_t)(m * n) * sizeof(double));
        for (int64_t i = 0; i < m; i++)
            cblas_dgemv(CblasRowMajor, CblasTrans, (int)k, (int)n, 1.0, b, (int)n, a + i * k, 1,
                        1.0, c + i * n, 1);
        return;
    }
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)k, 1.0, a, (int)k,
                b, (int)n, accumulate ? 1.0 : 0.0, c, (int)n);
}

/* Products of GEMV_ROWS to TT_ROWS rows whose inner dimension k is a multiple of 128 or at least
 * 512 go through the transposed product C^T = B^T A^T (one dgemm with both operands transposed)
 * and a transposition: OpenBLAS packs the operands the other way round, and packing A with a row
 * stride of a multiple of 1 KB is slow (cache sets). Time of the transposed form and its
 * transposition against one plain dgemm (OpenBLAS 0.3.21, one thread, scripts/gemm_rows.c's
 * method): k = 256, n = 256: 0.55 at 8 rows, 0.65 at 16, 0.92 at 32, 1.24 at 72; k = 784, n =
 * 256: 0.70 / 0.80 / 0.91; k = 520-1000: 0.62-0.86 at 8-16 rows; k = 300: 1.00-1.11, k = 100:
 * 0.9-1.9 (not taken). mnist_fc 256x6 prop_12_0.05's refinement (prefix searches, groups of 8
 * one-row domains; the first 100 s) bounded 782-878 / 729-752 / 504-546 domains a second in its
 * layers 3 / 5 / 7 in three runs, against 677 / 537 / 379 without it. Each entry of C is still
 * one dot product of a row of A and a column of B: the bounds of la.h hold as they are. (sgemm
 * gains less: k = 256, n = 256 or 784, 0.77-0.87 at 8-16 rows before the transposition; in
 * vfy_la_gemm_f32 it made no difference that the same measurement could tell.) */
#define TT_ROWS 32

void vfy_la_gemm_ws(int64_t m, int64_t n, int64_t k, const double *a, const double *b, double *c,
                    double *ws)
{
    if (!ws || m < GEMV_ROWS || m > TT_ROWS || k == 0 || n == 0 || (k % 128 != 0 && k < 512)) {
        vfy_la_gemm(m, n, k, a, b, c, 0);
        return;
    }
    cblas_dgemm(CblasRowMajor, CblasTrans, CblasTrans, (int)n, (int)m, (int)k, 1.0, b, (int)n, a,
                (int)k, 0.0, ws, (int)m);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++)
            c[i * n + j] = ws[j * m + i];
}

void vfy_la_gemm_bt(int64_t m, int64_t n, int64_t k, const double *a, const double *b, double *c)
{
    if (m == 0 || n == 0)
        return;
    if (m < GEMV_ROWS && k > 0) {
        memset(c, 0, (size_t)(m * n) * sizeof(double));
        for (int64_t i = 0; i < m; i++)
            cblas_dgemv(CblasRowMajor, CblasNoTrans, (int)n, (int)k, 1.0, b, (int)k, a + i * k, 1,
                        1.0, c + i * n, 1);
        return;
    }
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)m, (int)n, (int)k, 1.0, a, (int)k, b,
                (int)k, 0.0, c, (int)n);
}

int vfy_la_gemm_f32(int64_t m, int64_t n, int64_t k, const double *a, const float *b, int b_trans,
                    double *c, float *ws)
{
    if (m == 0 || n == 0)
        return 1;
    float *af = ws, *cf = ws + m * k;
    for (int64_t i = 0; i < m * k; i++) {
        double x = a[i];
        if (!(fabs(x) <= 0x1p100))
            return 0; /* NaN, or float32 products that could overflow */
        af[i] = (float)x;
    }
#ifdef VFY_HAVE_MXCSR
    /* flush-to-zero and denormals-are-zero for this thread while the product runs: subnormal
     * operands (tiny coefficients) made OpenBLAS's sgemm several times slower than dgemm */
    unsigned int csr = _mm_getcsr();
    _mm_setcsr(csr | 0x8040u);
#endif
    if (m < GEMV_ROWS && k > 0) {
        memset(cf, 0, (size_t)(m * n) * sizeof(float));
        for (int64_t i = 0; i < m; i++) {
            if (b_trans)
                cblas_sgemv(CblasRowMajor, CblasNoTrans, (int)n, (int)k, 1.0f, b, (int)k,
                            af + i * k, 1, 1.0f, cf + i * n, 1);
            else
                cblas_sgemv(CblasRowMajor, CblasTrans, (int)k, (int)n, 1.0f, b, (int)n, af + i * k,
                            1, 1.0f, cf + i * n, 1);
        }
    } else
        cblas_sgemm(CblasRowMajor, CblasNoTrans, b_trans ? CblasTrans : CblasNoTrans, (int)m,
                    (int)n, (int)k, 1.0f, af, (int)k, b, b_trans ? (int)k : (int)n, 0.0f, cf,
                    (int)n);
#ifdef VFY_HAVE_MXCSR
    _mm_setcsr(csr);
#endif
    for (int64_t i = 0; i < m * n; i++) {
        if (!isfinite(cf[i]))
            return 0;
        c[i] = (double)cf[i];
    }
    return 1;
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

double vfy_la_gamma32n(int64_t n)
{
    double nu = (double)n * 0x1p-24; /* exact for n < 2^53 */
    if (!(nu < 0.5))
        return INFINITY;
    return vfy_up(vfy_up(nu) / vfy_down(1.0 - nu));
}

double vfy_la_exec_err32(double A, double M, int64_t m, int ops)
{
    if (m <= 0 || A == 0)
        return 0.0;
    double rho = vfy_la_gamma32n((int64_t)ops + m); /* rho - 1 */
    if (!isfinite(rho))
        return INFINITY;
    rho = vfy_add_up(rho, 1.0);
    /* K: any value in [1, m] gives a bound (each term of B is at most both j M and A) */
    double q = M > 0 ? A / M : 1.0;
    double K = q >= (double)m ? (double)m : (q >= 1.0 ? floor(q) : 1.0);
    if (K > 0x1p25)
        K = 1.0;
    double tri = K * (K + 1.0) * 0.5 - 1.0; /* exact for K <= 2^25 */
    double B = vfy_add_up(vfy_mul_up(M, tri), vfy_mul_up(A, (double)m - K));
    double s = vfy_add_up(vfy_mul_up((double)ops, A), B);
    return vfy_mul_up(vfy_mul_up(s, rho), 0x1p-24);
}


vfy_csr *vfy_la_csr_alloc(int64_t m, int64_t n, int64_t nnz)
{
    vfy_csr *c = vfy_alloc(sizeof *c);
    if (!c)
        return NULL;
    c->m = m;
    c->n = n;
    c->nnz = 0;
    c->row_start = vfy_alloc_array((size_t)m + 1, sizeof(int64_t));
    c->col = vfy_alloc_array((size_t)nnz + 1, sizeof(int64_t));
    c->val = vfy_alloc_array((size_t)nnz + 1, sizeof(double));
    if (!c->row_start || !c->col || !c->val) {
        vfy_la_csr_free(c);
        return NULL;
    }
    return c;
}

vfy_csr *vfy_la_csr_copy(const vfy_csr *a)
{
    vfy_csr *c = vfy_la_csr_alloc(a->m, a->n, a->nnz);
    if (!c)
        return NULL;
    c->nnz = a->nnz;
    memcpy(c->row_start, a->row_start, (size_t)(a->m + 1) * sizeof(int64_t));
    memcpy(c->col, a->col, (size_t)a->nnz * sizeof(int64_t));
    memcpy(c->val, a->val, (size_t)a->nnz * sizeof(double));
    return c;
}

int vfy_la_csr_build(int64_t m, int64_t n, const double *a, double max_density, vfy_csr **out)
{
    *out = NULL;
    int64_t nnz = 0;
    for (int64_t p = 0; p < m * n; p++)
        nnz += a[p] != 0;
    if ((double)nnz > max_density * (double)m * (double)n)
        return 1;
    vfy_csr *c = vfy_la_csr_alloc(m, n, nnz);
    if (!c)
        return 0;
    c->nnz = nnz;
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

/* Two doubles operated on together (GCC's vector extension: SSE2 on x86-64, the same IEEE products
 * and sums lane by lane as scalar code; -ffp-contract=off keeps them unfused). */
typedef double vfy_v2d __attribute__((vector_size(16)));

/* Rows [r0, r0 + B) of C = L A through their transposes: with LT (m x B) and CT (n x B), every
 * nonzero a_ij does CT[j] += a_ij LT[i] over B contiguous doubles (one cache line for B = 8)
 * instead of B scattered updates, and its column and value are loaded once for the B rows. Each
 * entry of C sums the same products as before, in another order: the error bound of the header
 * holds for any order. always_inline: B (even) is a constant at every call, so the inner loops
 * have a fixed length. */
static inline __attribute__((always_inline)) void csr_lmul_block(int64_t B, int64_t r0,
                                                                 const double *l,
                                                                 const vfy_csr *a, double *c,
                                                                 double *ws)
{
    int64_t m = a->m, n = a->n;
    double *restrict lt = ws, *restrict ct = ws + m * B;
    for (int64_t i = 0; i < m; i++)
        for (int64_t r = 0; r < B; r++)
            lt[i * B + r] = l[(r0 + r) * m + i];
    for (int64_t q = 0; q < n * B; q++)
        ct[q] = 0.0;
    for (int64_t i = 0; i < m; i++) {
        const double *restrict li = lt + i * B;
        int any = 0;
        for (int64_t r = 0; r < B; r++)
            any |= li[r] != 0;
        if (!any)
            continue;
        for (int64_t p = a->row_start[i]; p < a->row_start[i + 1]; p++) {
            vfy_v2d v = {a->val[p], a->val[p]};
            double *restrict cj = ct + a->col[p] * B;
#pragma GCC unroll 4
            for (int64_t r = 0; r < B; r += 2) {
                vfy_v2d x, y;
                memcpy(&x, li + r, sizeof x);
                memcpy(&y, cj + r, sizeof y);
                y += x * v;
                memcpy(cj + r, &y, sizeof y);
            }
        }
    }
    for (int64_t r = 0; r < B; r++)
        for (int64_t j = 0; j < n; j++)
            c[(r0 + r) * n + j] = ct[j * B + r];
}

void vfy_la_csr_lmul(int64_t k, const double *l, const vfy_csr *a, double *c, double *ws)
{
    int64_t r = 0;
    for (; ws && r + VFY_CSR_BLOCK <= k; r += VFY_CSR_BLOCK)
        csr_lmul_block(VFY_CSR_BLOCK, r, l, a, c, ws);
    for (; ws && r + 4 <= k; r += 4)
        csr_lmul_block(4, r, l, a, c, ws);
    for (; ws && r + 2 <= k; r += 2)
        csr_lmul_block(2, r, l, a, c, ws);
    for (; r < k; r++) {
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

/* Rows [r0, r0 + B) of C = V A^T, through VT (n x B): row i of A gathers B contiguous doubles per
 * nonzero into B sums (the same products and any order, as above). */
static inline __attribute__((always_inline)) void csr_mul_t_block(int64_t B, int64_t r0,
                                                                  const double *v,
                                                                  const vfy_csr *a, double *c,
                                                                  double *ws)
{
    int64_t m = a->m, n = a->n;
    double *restrict vt = ws;
    vfy_v2d acc[VFY_CSR_BLOCK / 2];
    for (int64_t j = 0; j < n; j++)
        for (int64_t r = 0; r < B; r++)
            vt[j * B + r] = v[(r0 + r) * n + j];
    for (int64_t i = 0; i < m; i++) {
#pragma GCC unroll 4
        for (int64_t r = 0; r < B / 2; r++)
            acc[r] = (vfy_v2d){0.0, 0.0};
        for (int64_t p = a->row_start[i]; p < a->row_start[i + 1]; p++) {
            vfy_v2d w = {a->val[p], a->val[p]};
            const double *restrict x = vt + a->col[p] * B;
#pragma GCC unroll 4
            for (int64_t r = 0; r < B / 2; r++) {
                vfy_v2d y;
                memcpy(&y, x + 2 * r, sizeof y);
                acc[r] += w * y;
            }
        }
#pragma GCC unroll 4
        for (int64_t r = 0; r < B / 2; r++) {
            c[(r0 + 2 * r) * m + i] = acc[r][0];
            c[(r0 + 2 * r + 1) * m + i] = acc[r][1];
        }
    }
}

void vfy_la_csr_mul_t(int64_t k, const double *v, const vfy_csr *a, double *c, double *ws)
{
    int64_t r = 0;
    for (; ws && r + VFY_CSR_BLOCK <= k; r += VFY_CSR_BLOCK)
        csr_mul_t_block(VFY_CSR_BLOCK, r, v, a, c, ws);
    for (; ws && r + 4 <= k; r += 4)
        csr_mul_t_block(4, r, v, a, c, ws);
    for (; ws && r + 2 <= k; r += 2)
        csr_mul_t_block(2, r, v, a, c, ws);
    for (; r < k; r++) {
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

/* ---- convolutions ---- */

static void conv_taps(const vfy_conv *cv, int64_t *tap);

/* Compare the block of a at rows [r0, r0 + oc ohw), columns [c0, c0 + c h w) with a convolution of
 * geometry G, reading its kernel into cv (cv->g, cg, ocg, ckk, ohw set; k zeroed); the count of
 * a's entries outside the block in *n_rest. 0 on a mismatch. */
static int conv_read_block(vfy_conv *cv, const vfy_csr *a, int64_t r0, int64_t c0, int64_t *n_rest)
{
    const vfy_conv_geom *g = &cv->g;
    int64_t ckk = cv->ckk, ocg = cv->ocg, cg = cv->cg, R = g->oc * cv->ohw;
    int64_t c1 = c0 + g->c * g->h * g->w;
    unsigned char *seen = vfy_alloc_array((size_t)(g->oc * ckk), 1);
    if (!seen)
        return 0;
    memset(cv->k, 0, (size_t)(g->oc * ckk) * sizeof(double));
    *n_rest = a->nnz;
    int ok = 1;
    /* Each row's window positions inside the input, in increasing column order (channel, then
     * row, then column), merged with the row's stored columns in the block's range: a stored
     * column outside the window or a weight that differs from the same kernel entry of another
     * row is a mismatch; a position not stored is the weight 0. */
    for (int64_t o = 0; ok && o < R; o++) {
        int64_t oc = o / cv->ohw, oy = o % cv->ohw / g->ow, ox = o % g->ow;
        int64_t p = a->row_start[r0 + o], end = a->row_start[r0 + o + 1];
        while (p < end && a->col[p] < c0)
            p++;
        int64_t p_in = p;
        double *ko = cv->k + oc * ckk;
        unsigned char *so = seen + oc * ckk;
        for (int64_t i = 0; ok && i < cg; i++) {
            int64_t ch = oc / ocg * cg + i;
            for (int64_t ky = 0; ok && ky < g->kh; ky++) {
                int64_t iy = oy * g->sh - g->pt + ky * g->dh;
                if (iy < 0 || iy >= g->h)
                    continue;
                for (int64_t kx = 0; kx < g->kw; kx++) {
                    int64_t ix = ox * g->sw - g->pl + kx * g->dw;
                    if (ix < 0 || ix >= g->w)
                        continue;
                    int64_t col = c0 + (ch * g->h + iy) * g->w + ix;
                    int64_t t = (i * g->kh + ky) * g->kw + kx;
                    if (p < end && a->col[p] < col) {
                        ok = 0;
                        break;
                    }
                    double v = p < end && a->col[p] == col ? a->val[p++] : 0.0;
                    if (!so[t]) {
                        so[t] = 1;
                        ko[t] = v;
                    } else if (ko[t] != v) {
                        ok = 0;
                        break;
                    }
                }
            }
        }
        ok = ok && (p == end || a->col[p] >= c1);
        *n_rest -= p - p_in;
    }
    vfy_free(seen);
    return ok;
}

vfy_conv *vfy_la_conv_match(const vfy_conv_geom *g, const vfy_csr *a, int64_t c0)
{
    const int64_t lim = (int64_t)1 << 28;
    if (g->c <= 0 || g->h <= 0 || g->w <= 0 || g->oc <= 0 || g->oh <= 0 || g->ow <= 0 ||
        g->kh <= 0 || g->kw <= 0 || g->sh <= 0 || g->sw <= 0 || g->dh <= 0 || g->dw <= 0 ||
        g->groups <= 0 || g->c % g->groups || g->oc % g->groups || g->c > lim || g->h > lim ||
        g->w > lim || g->oc > lim || g->oh > lim || g->ow > lim || g->kh > lim || g->kw > lim ||
        g->sh > lim || g->sw > lim || g->dh > lim || g->dw > lim || llabs(g->pt) > lim ||
        llabs(g->pl) > lim)
        return NULL;
    int64_t cg = g->c / g->groups, ocg = g->oc / g->groups, ckk = cg * g->kh * g->kw;
    if (ocg < 4 || (double)ckk * (double)g->oc > (double)lim ||
        (double)ckk * (double)g->oh * (double)g->ow > (double)lim ||
        (double)g->oc * (double)g->oh * (double)g->ow > (double)a->m ||
        (double)g->c * (double)g->h * (double)g->w > (double)a->n)
        return NULL;
    int64_t R = g->oc * g->oh * g->ow, N = g->c * g->h * g->w;
    vfy_conv *cv = vfy_alloc(sizeof *cv);
    if (!cv)
        return NULL;
    memset(cv, 0, sizeof *cv);
    cv->g = *g;
    cv->cg = cg;
    cv->ocg = ocg;
    cv->ckk = ckk;
    cv->ohw = g->oh * g->ow;
    cv->m = a->m;
    cv->n = a->n;
    cv->r0 = a->m - R;
    cv->k = vfy_alloc_array((size_t)(g->oc * ckk), sizeof(double));
    cv->kabs = vfy_alloc_array((size_t)(g->oc * ckk), sizeof(double));
    cv->knz = vfy_alloc_array((size_t)(g->oc * ckk), sizeof(double));
    cv->tap = vfy_alloc_array((size_t)(5 * ckk), sizeof(int64_t));
    int ok = cv->k && cv->kabs && cv->knz && cv->tap;
    /* the hinted columns, then the last ones */
    int64_t n_rest = 0, tries[2] = {c0, a->n - N};
    int found = 0;
    for (int t = 0; ok && !found && t < 2; t++) {
        if (tries[t] < 0 || tries[t] > a->n - N || (t == 1 && tries[1] == tries[0]))
            continue;
        cv->c0 = tries[t];
        found = conv_read_block(cv, a, cv->r0, cv->c0, &n_rest);
    }
    /* the block's own entries must be most of the matrix's for the kernels to pay */
    ok = ok && found && 2 * n_rest <= a->nnz;
    if (ok && n_rest > 0) {
        cv->rest = vfy_la_csr_alloc(a->m, a->n, n_rest);
        ok = cv->rest != NULL;
        int64_t q = 0, c1 = cv->c0 + N;
        for (int64_t i = 0; ok && i < a->m; i++) {
            for (int64_t p = a->row_start[i]; p < a->row_start[i + 1]; p++) {
                if (i >= cv->r0 && a->col[p] >= cv->c0 && a->col[p] < c1)
                    continue;
                cv->rest->col[q] = a->col[p];
                cv->rest->val[q++] = a->val[p];
            }
            cv->rest->row_start[i + 1] = q;
        }
        if (ok) {
            cv->rest->nnz = q;
            ok = (cv->rest_nz = vfy_la_csr_copy(cv->rest)) != NULL;
        }
        for (int64_t p = 0; ok && p < q; p++)
            cv->rest_nz->val[p] = cv->rest->val[p] != 0;
    }
    if (!ok) {
        vfy_la_conv_free(cv);
        return NULL;
    }
    for (int64_t t = 0; t < g->oc * ckk; t++) {
        cv->kabs[t] = fabs(cv->k[t]);
        cv->knz[t] = cv->k[t] != 0;
    }
    conv_taps(cv, cv->tap);
    return cv;
}

vfy_conv *vfy_la_conv_copy(const vfy_conv *cv)
{
    vfy_conv *c = vfy_alloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *cv;
    size_t n = (size_t)(cv->g.oc * cv->ckk);
    c->k = vfy_alloc_array(n, sizeof(double));
    c->kabs = vfy_alloc_array(n, sizeof(double));
    c->knz = vfy_alloc_array(n, sizeof(double));
    c->tap = vfy_alloc_array((size_t)(5 * cv->ckk), sizeof(int64_t));
    int ok = c->k && c->kabs && c->knz && c->tap;
    c->rest = cv->rest ? vfy_la_csr_copy(cv->rest) : NULL;
    c->rest_nz = cv->rest_nz ? vfy_la_csr_copy(cv->rest_nz) : NULL;
    ok = ok && (c->rest || !cv->rest) && (c->rest_nz || !cv->rest_nz);
    if (!ok) {
        vfy_la_conv_free(c);
        return NULL;
    }
    memcpy(c->k, cv->k, n * sizeof(double));
    memcpy(c->kabs, cv->kabs, n * sizeof(double));
    memcpy(c->knz, cv->knz, n * sizeof(double));
    memcpy(c->tap, cv->tap, (size_t)(5 * cv->ckk) * sizeof(int64_t));
    return c;
}

void vfy_la_conv_free(vfy_conv *cv)
{
    if (!cv)
        return;
    vfy_free(cv->k);
    vfy_free(cv->kabs);
    vfy_free(cv->knz);
    vfy_free(cv->tap);
    vfy_la_csr_free(cv->rest);
    vfy_la_csr_free(cv->rest_nz);
    vfy_free(cv);
}

/* (a row's im2col columns, and its packed coefficients: vfy_la_conv_bwd) */
int64_t vfy_la_conv_ws_len(const vfy_conv *cv) { return (cv->ckk + cv->ocg) * cv->ohw; }

/* The output columns [*lo, *hi) whose kernel column kx reads inside the input (the same for rows:
 * called with the vertical geometry). */
static void conv_range(int64_t k, int64_t stride, int64_t pad, int64_t dil, int64_t in, int64_t out,
                       int64_t *lo, int64_t *hi)
{
    int64_t off = k * dil - pad; /* input index = o stride + off */
    int64_t a = off >= 0 ? 0 : (-off + stride - 1) / stride;
    int64_t b = in - 1 - off < 0 ? 0 : (in - 1 - off) / stride + 1;
    *lo = a < out ? a : out;
    *hi = b < out ? b : out;
    if (*hi < *lo)
        *hi = *lo;
}

/* Kernel entry t = (i, ky, kx): the output rows [y0, y1) and columns [x0, x1) where it reads
 * inside the input, and the offset (in the group's input) of what it reads at output (0, 0), so
 * that output (oy, ox) reads off + oy sh w + ox sw: tap[5 t .. 5 t + 5) = (y0, y1, x0, x1, off). */
static void conv_taps(const vfy_conv *cv, int64_t *tap)
{
    const vfy_conv_geom *G = &cv->g;
    for (int64_t t = 0; t < cv->ckk; t++) {
        int64_t kx = t % G->kw, ky = t / G->kw % G->kh, i = t / (G->kw * G->kh), *p = tap + 5 * t;
        conv_range(ky, G->sh, G->pt, G->dh, G->h, G->oh, &p[0], &p[1]);
        conv_range(kx, G->sw, G->pl, G->dw, G->w, G->ow, &p[2], &p[3]);
        p[4] = (i * G->h + ky * G->dh - G->pt) * G->w + kx * G->dw - G->pl;
    }
}

/* Kernel entry t's row of cv->tap (conv_taps). */
static int64_t conv_tap(const vfy_conv *cv, int64_t t, int64_t *y0, int64_t *y1, int64_t *x0,
                        int64_t *x1)
{
    const int64_t *p = cv->tap + 5 * t;
    *y0 = p[0];
    *y1 = p[1];
    *x0 = p[2];
    *x1 = p[3];
    return p[4];
}

/* One row at a time: the entries outside the block first (the CSR product, every output; the rows
 * above the block 0 without them); then col (ckk x ohw) holds the row's inputs under kernel entry
 * t = (i, ky, kx) at each output position (0 in the padding), and the block's outputs (oc x ohw,
 * contiguous in y) add ker col, one product per group. */
void vfy_la_conv_fwd(const vfy_conv *cv, vfy_conv_ker which, int64_t k, const double *v, double *y,
                     double *ws)
{
    const vfy_conv_geom *G = &cv->g;
    const double *ker = which == VFY_CONV_W ? cv->k : which == VFY_CONV_ABS ? cv->kabs : cv->knz;
    const vfy_csr *rest = which == VFY_CONV_NZ ? cv->rest_nz : cv->rest;
    int64_t ohw = cv->ohw;
    double *col = ws;
    for (int64_t r = 0; r < k; r++) {
        const double *vrow = v + r * cv->n;
        double *yrow = y + r * cv->m;
        if (rest)
            vfy_la_csr_gemv(rest, vrow, yrow, 0, which == VFY_CONV_ABS);
        else
            memset(yrow, 0, (size_t)cv->r0 * sizeof(double));
        for (int64_t g = 0; g < G->groups; g++) {
            const double *vr = vrow + cv->c0 + g * cv->cg * G->h * G->w;
            for (int64_t t = 0; t < cv->ckk; t++) {
                int64_t y0, y1, x0, x1, off = conv_tap(cv, t, &y0, &y1, &x0, &x1);
                double *dst = col + t * ohw;
                memset(dst, 0, (size_t)ohw * sizeof(double));
                for (int64_t oy = y0; oy < y1; oy++) {
                    const double *src = vr + off + oy * G->sh * G->w;
                    double *d = dst + oy * G->ow;
                    for (int64_t ox = x0; ox < x1; ox++)
                        d[ox] = src[ox * G->sw];
                }
            }
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)cv->ocg, (int)ohw,
                        (int)cv->ckk, 1.0, ker + g * cv->ocg * cv->ckk, (int)cv->ckk, col,
                        (int)ohw, rest ? 1.0 : 0.0, yrow + cv->r0 + g * cv->ocg * ohw, (int)ohw);
        }
    }
}

/* The output positions a row's coefficients (oc x ohw, one group's ocg channels from l) are not 0
 * at: the bounding rectangle [*y0, *y1) x [*x0, *x1), empty (*y0 == *y1) when all are 0. */
static void conv_support(const vfy_conv *cv, const double *l, int64_t *y0, int64_t *y1, int64_t *x0,
                         int64_t *x1)
{
    const vfy_conv_geom *G = &cv->g;
    int64_t ya = G->oh, yb = 0, xa = G->ow, xb = 0;
    for (int64_t o = 0; o < cv->ocg; o++) {
        const double *lo = l + o * cv->ohw;
        for (int64_t oy = 0; oy < G->oh; oy++) {
            const double *r = lo + oy * G->ow;
            int64_t a = 0, b = G->ow;
            while (a < b && r[a] == 0.0)
                a++;
            if (a == b)
                continue;
            while (r[b - 1] == 0.0)
                b--;
            ya = oy < ya ? oy : ya;
            yb = oy + 1 > yb ? oy + 1 : yb;
            xa = a < xa ? a : xa;
            xb = b > xb ? b : xb;
        }
    }
    if (yb <= ya) {
        *y0 = *y1 = *x0 = *x1 = 0;
        return;
    }
    *y0 = ya;
    *y1 = yb;
    *x0 = xa;
    *x1 = xb;
}

/* One row at a time: col (ckk x m) = ker^T times the row's coefficients at the m output positions
 * of their support's rectangle (conv_support; all of them when it is most of the output: then read
 * in place, else packed), one product per group; each column entry is added to the input it came
 * from (the padding's are dropped: A has no entry there), after the entries outside the block (the
 * CSR product; 0 without them). Dropping the positions whose coefficients are all exactly 0 drops
 * terms 0 x k (k finite), which add exactly 0: the sums are those of the whole product, fewer
 * terms in another order (the header's bound holds). Rows of intermediate bounds start at one
 * neuron and spread by a kernel's width per layer: on a wide convolution most of a row is 0. */
void vfy_la_conv_bwd(const vfy_conv *cv, int64_t k, const double *l, double *c, double *ws)
{
    const vfy_conv_geom *G = &cv->g;
    int64_t ohw = cv->ohw;
    double *col = ws, *pack = ws + cv->ckk * ohw;
    for (int64_t r = 0; r < k; r++) {
        const double *lrow = l + r * cv->m;
        if (cv->rest)
            vfy_la_csr_gemv(cv->rest, lrow, c + r * cv->n, 1, 0);
        else
            memset(c + r * cv->n, 0, (size_t)cv->n * sizeof(double));
        for (int64_t g = 0; g < G->groups; g++) {
            const double *lg = lrow + cv->r0 + g * cv->ocg * ohw;
            int64_t sy0, sy1, sx0, sx1;
            conv_support(cv, lg, &sy0, &sy1, &sx0, &sx1);
            int64_t sw = sx1 - sx0, m = (sy1 - sy0) * sw;
            if (m == 0)
                continue;
            int packed = 2 * m <= ohw;
            if (packed) {
                for (int64_t o = 0; o < cv->ocg; o++)
                    for (int64_t oy = sy0; oy < sy1; oy++)
                        memcpy(pack + o * m + (oy - sy0) * sw, lg + o * ohw + oy * G->ow + sx0,
                               (size_t)sw * sizeof(double));
            } else {
                sy0 = sx0 = 0;
                sy1 = G->oh;
                sx1 = G->ow;
                sw = G->ow;
                m = ohw;
            }
            cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)cv->ckk, (int)m, (int)cv->ocg,
                        1.0, cv->k + g * cv->ocg * cv->ckk, (int)cv->ckk, packed ? pack : lg,
                        (int)m, 0.0, col, (int)m);
            double *cr = c + r * cv->n + cv->c0 + g * cv->cg * G->h * G->w;
            for (int64_t t = 0; t < cv->ckk; t++) {
                int64_t y0, y1, x0, x1, off = conv_tap(cv, t, &y0, &y1, &x0, &x1);
                y0 = y0 > sy0 ? y0 : sy0;
                y1 = y1 < sy1 ? y1 : sy1;
                x0 = x0 > sx0 ? x0 : sx0;
                x1 = x1 < sx1 ? x1 : sx1;
                const double *src = col + t * m;
                for (int64_t oy = y0; oy < y1; oy++) {
                    double *d = cr + off + oy * G->sh * G->w;
                    const double *sv = src + (oy - sy0) * sw;
                    for (int64_t ox = x0; ox < x1; ox++)
                        d[ox * G->sw] += sv[ox - sx0];
                }
            }
        }
    }
}
