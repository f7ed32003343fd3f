/* Check suite: la (BLAS wrapper, directed rounding) and bound (IBP, CROWN). Soundness tests assert
 * that sampled points lie inside the bounds, with no tolerance. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "require.h"
#include "testnet.h"
#include "vfy/bound.h"
#include "vfy/checker.h"
#include "vfy/eval.h"
#include "vfy/la.h"
#include "vfy/onnx.h"
#include "vfy/spec.h"

#include <stdio.h>

/* exact a + b = s + e (TwoSum) */
static void two_sum(double a, double b, double *s, double *e)
{
    *s = a + b;
    double bb = *s - a;
    *e = (a - (*s - bb)) + (b - bb);
}

START_TEST(test_directed_rounding)
{
    uint64_t st = 7;
    for (int i = 0; i < 20000; i++) {
        double a = ldexp(2 * testnet_uniform(&st) - 1, (int)(testnet_uniform(&st) * 80) - 40);
        double b = ldexp(2 * testnet_uniform(&st) - 1, (int)(testnet_uniform(&st) * 80) - 40);
        double s, e;
        two_sum(a, b, &s, &e);
        double d = vfy_add_down(a, b), u = vfy_add_up(a, b);
        /* d <= s + e <= u exactly */
        ck_assert(d < s || (d == s && e >= 0));
        ck_assert(u > s || (u == s && e <= 0));
        double p = a * b, pe = fma(a, b, -p);
        double md = vfy_mul_down(a, b), mu = vfy_mul_up(a, b);
        ck_assert(md < p || (md == p && pe >= 0));
        ck_assert(mu > p || (mu == p && pe <= 0));
    }
}
END_TEST

/* Zero results: a sum or difference that rounds to zero is exact and stays zero, as does a product
 * with a zero factor (a subnormal step there once slowed every bound vector of a net with stable
 * ReLUs); a product that underflows to zero from nonzero factors still steps outward. */
START_TEST(test_directed_rounding_zero)
{
    uint64_t st = 8;
    for (int i = 0; i < 2000; i++) {
        double a = ldexp(2 * testnet_uniform(&st) - 1, (int)(testnet_uniform(&st) * 2000) - 1000);
        ck_assert(vfy_add_up(a, -a) == 0 && vfy_add_down(a, -a) == 0);
        ck_assert(vfy_sub_up(a, a) == 0 && vfy_sub_down(a, a) == 0);
        ck_assert(vfy_mul_up(a, 0.0) == 0 && vfy_mul_down(0.0, a) == 0);
        ck_assert(vfy_mul_up(a, -0.0) == 0 && vfy_mul_down(-0.0, a) == 0);
    }
    double t = 0x1p-600;
    ck_assert(vfy_mul_up(t, t) > 0 && vfy_mul_down(t, t) <= 0);
    ck_assert(vfy_mul_up(-t, t) >= 0 && vfy_mul_down(-t, t) < 0);
    ck_assert(vfy_add_up(DBL_TRUE_MIN, DBL_TRUE_MIN) >= 2 * DBL_TRUE_MIN);
    ck_assert(vfy_sub_down(DBL_TRUE_MIN, 2 * DBL_TRUE_MIN) <= -DBL_TRUE_MIN);
    ck_assert(isnan(vfy_mul_up(0.0, INFINITY)) && isnan(vfy_mul_down(INFINITY, 0.0)));
}
END_TEST

/* sum_p |a_ip b_pj| of row-major A (m x k) and B (k x n): the scale of entry (i, j)'s error */
static double abs_dot(const double *a, const double *b, int64_t i, int64_t j, int64_t k, int64_t n)
{
    double s = 0;
    for (int64_t p = 0; p < k; p++)
        s += fabs(a[i * k + p] * b[p * n + j]);
    return s;
}

/* vfy_la_gemm (C = A B, and C += A B), vfy_la_gemm_bt (C = A B^T) against the plain reference, for
 * 1 to 12 rows: fewer than la.c's GEMV_ROWS go row by row through gemv, more through one gemm.
 * What C held before is overwritten (NaN there included) unless accumulated into. */
START_TEST(test_gemm_matches_reference)
{
    uint64_t st = 11 + (uint64_t)_i;
    int64_t m = 1 + _i, n = 9, k = 13;
    double a[12 * 13], b[13 * 9], bt[9 * 13], c0[12 * 9], c1[12 * 9], c2[12 * 9], c3[12 * 9];
    for (int i = 0; i < m * k; i++)
        a[i] = 2 * testnet_uniform(&st) - 1;
    for (int i = 0; i < k * n; i++)
        b[i] = 2 * testnet_uniform(&st) - 1;
    for (int p = 0; p < k; p++)
        for (int j = 0; j < n; j++)
            bt[j * k + p] = b[p * n + j];
    for (int i = 0; i < m * n; i++) {
        c0[i] = 2 * testnet_uniform(&st) - 1;
        c1[i] = c3[i] = NAN;
        c2[i] = c0[i];
    }
    vfy_la_gemm(m, n, k, a, b, c1, 0);
    vfy_la_gemm_bt(m, n, k, a, bt, c3);
    vfy_la_gemm(m, n, k, a, b, c2, 1);
    double r[12 * 9];
    vfy_la_gemm_ref(m, n, k, a, b, r, 0);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double s = abs_dot(a, b, i, j, k, n);
            /* each is within gamma(k) sum|a||b| of the exact value (the accumulated one within
             * gamma(k + 1) (sum|a||b| + |c0|)) */
            double e = r[i * n + j];
            REQUIRE(fabs(c1[i * n + j] - e) <= 2 * vfy_la_gamma(k) * s);
            REQUIRE(fabs(c3[i * n + j] - e) <= 2 * vfy_la_gamma(k) * s);
            REQUIRE(fabs(c2[i * n + j] - (e + c0[i * n + j])) <=
                    2 * vfy_la_gamma(k + 1) * (s + fabs(c0[i * n + j])));
        }
}
END_TEST

/* vfy_la_gemm_ws against the plain reference, on shapes that take the transposed product (8 to 32
 * rows, k a multiple of 128 or at least 512; la.c) and shapes that do not (fewer or more rows, k
 * 300): every entry within the error of one dot product, and what C held (NaN) overwritten. */
START_TEST(test_gemm_ws_matches_reference)
{
    static const int64_t ms[] = {1, 7, 8, 13, 32, 33}, ks[] = {128, 256, 300, 520};
    int64_t m = ms[_i % 6], k = ks[_i / 6 % 4], n = _i / 24 ? 131 : 9;
    uint64_t st = 101 + (uint64_t)_i;
    double *a = malloc((size_t)(m * k) * sizeof(double)), *b = malloc((size_t)(k * n) * 8);
    double *c = malloc((size_t)(m * n) * 8), *r = malloc((size_t)(m * n) * 8);
    double *ws = malloc((size_t)(m * n) * 8);
    ck_assert(a && b && c && r && ws);
    for (int64_t i = 0; i < m * k; i++)
        a[i] = 2 * testnet_uniform(&st) - 1;
    for (int64_t i = 0; i < k * n; i++)
        b[i] = 2 * testnet_uniform(&st) - 1;
    vfy_la_gemm_ref(m, n, k, a, b, r, 0);
    /* with the workspace, then without it (NULL: the plain product) */
    for (int pass = 0; pass < 2; pass++) {
        for (int64_t i = 0; i < m * n; i++)
            c[i] = ws[i] = NAN;
        vfy_la_gemm_ws(m, n, k, a, b, c, pass ? NULL : ws);
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
                double s = abs_dot(a, b, i, j, k, n);
                REQUIRE_MSG(fabs(c[i * n + j] - r[i * n + j]) <= 2 * vfy_la_gamma(k) * s,
                            "m %lld k %lld n %lld: entry (%lld, %lld) %g against %g", (long long)m,
                            (long long)k, (long long)n, (long long)i, (long long)j, c[i * n + j],
                            r[i * n + j]);
            }
    }
    free(a);
    free(b);
    free(c);
    free(r);
    free(ws);
}
END_TEST

/* ---- the float32 execution of one row in any order (la.h, vfy_la_exec_err32) ----
 * Terms are float32 products w v (exact in double) and a float32 bias, with w, v in +-[2^-6, 2):
 * every product, every float32 rounding of a multiple of 2^-58 below 2^13 and every float32 sum of
 * such values is a multiple of 2^-58, so the exact sum and each execution's error are integers in
 * units of 2^-58 (held in __int128): the check has no tolerance. */
#define EX_UNIT 58
static __int128 ex_fix(double x) { return (__int128)ldexp(x, EX_UNIT); }

/* the float32 sum of p[0..n) along a random binary tree (random pairs merged) */
static float ex_tree(float *p, int n, uint64_t *st)
{
    while (n > 1) {
        int a = (int)(testnet_uniform(st) * n), b = (int)(testnet_uniform(st) * (n - 1));
        b += b >= a;
        float sum = p[a] + p[b];
        p[a < b ? a : b] = sum;
        p[a < b ? b : a] = p[n - 1];
        n--;
    }
    return p[0];
}
static float ex_pairwise(const float *p, int n)
{
    if (n == 1)
        return p[0];
    volatile float l = ex_pairwise(p, n / 2), r = ex_pairwise(p + n / 2, n - n / 2);
    return l + r;
}
static int ex_desc(const void *a, const void *b)
{
    float x = fabsf(*(const float *)a), y = fabsf(*(const float *)b);
    return (x < y) - (x > y);
}

/* Rows of m products and a bias, magnitudes equal, uniform, geometric, one dominant or half zero,
 * signs mixed or equal: every execution order tried (index order, largest first, smallest first,
 * pairwise, random trees, fma chains) stays within vfy_la_exec_err32 of the exact sum; with
 * equal terms the bound is about half of Higham's gamma_(m+1) A. */
START_TEST(test_exec_err32_any_order)
{
    enum { MAXM = 800 };
    static float w[MAXM + 1], v[MAXM + 1], p[MAXM + 1], q[MAXM + 1];
    static const int ms[] = {1, 2, 3, 5, 17, 100, 333, 800};
    uint64_t st = 99;
    int checks = 0;
    for (size_t mi = 0; mi < sizeof ms / sizeof ms[0]; mi++)
        for (int dist = 0; dist < 5; dist++)
            for (int trial = 0; trial < 6; trial++) {
                int m = ms[mi], same_sign = trial & 1;
                float bias = (trial % 3 == 2) ? 0.0f : (float)(1.5 * testnet_uniform(&st) + 0.02);
                double A = fabs((double)bias), M = fabs((double)bias);
                int64_t nz = bias != 0;
                __int128 exact = ex_fix(bias);
                for (int i = 0; i < m; i++) {
                    double mag;
                    switch (dist) {
                    case 0: mag = 1.0; break;
                    case 1: mag = 0.02 + 1.9 * testnet_uniform(&st); break;
                    case 2: mag = ldexp(1.0, -(i % 6)); break;
                    case 3: mag = i == 0 ? 1.99 : 0.02; break;
                    default: mag = i % 2 ? 0 : 0.02 + 1.9 * testnet_uniform(&st); break;
                    }
                    float sg = same_sign || testnet_uniform(&st) < 0.5 ? 1.0f : -1.0f;
                    w[i] = sg * (dist == 0 ? 1.0f : (float)(0.02 + 1.9 * testnet_uniform(&st)));
                    /* v has magnitude mag (0 stays 0), rounded to float32 within range */
                    v[i] = mag == 0 ? 0.0f : (float)fmin(1.99, fmax(0.02, mag));
                    double t = (double)w[i] * (double)v[i];
                    exact += ex_fix(t);
                    A = vfy_add_up(A, fabs(t));
                    M = fmax(M, fabs(t));
                    nz += t != 0;
                }
                double bound = vfy_la_exec_err32(A, M, nz, 1);
                __int128 lim = (__int128)floor(ldexp(bound, EX_UNIT));
                float res[8];
                int nres = 0;
                for (int i = 0; i < m; i++)
                    p[i] = w[i] * v[i];
                p[m] = bias;
                volatile float acc = 0;
                for (int i = 0; i <= m; i++)
                    acc = acc + p[i];
                res[nres++] = acc;
                memcpy(q, p, (size_t)(m + 1) * sizeof *q);
                qsort(q, (size_t)(m + 1), sizeof *q, ex_desc);
                acc = 0;
                for (int i = 0; i <= m; i++)
                    acc = acc + q[i];
                res[nres++] = acc;
                acc = 0;
                for (int i = m; i >= 0; i--)
                    acc = acc + q[i];
                res[nres++] = acc;
                res[nres++] = ex_pairwise(p, m + 1);
                for (int r = 0; r < 2; r++) {
                    memcpy(q, p, (size_t)(m + 1) * sizeof *q);
                    res[nres++] = ex_tree(q, m + 1, &st);
                }
                acc = bias;
                for (int i = 0; i < m; i++)
                    acc = fmaf(w[i], v[i], acc);
                res[nres++] = acc;
                acc = 0;
                for (int i = m - 1; i >= 0; i--)
                    acc = fmaf(w[i], v[i], acc);
                acc = acc + bias;
                res[nres++] = acc;
                for (int r = 0; r < nres; r++) {
                    __int128 d = ex_fix(res[r]) - exact;
                    REQUIRE_MSG((d < 0 ? -d : d) <= lim, "m %d dist %d trial %d order %d: error "
                                "%.6g > %.6g", m, dist, trial, r, ldexp((double)d, -EX_UNIT),
                                bound);
                    checks++;
                }
                if (dist == 0 && m >= 100 && trial % 3 == 2)
                    REQUIRE_MSG(bound <= 0.55 * vfy_la_gamma32n(m + 1) * A, "m %d: %.6g", m,
                                bound / (vfy_la_gamma32n(m + 1) * A));
            }
    ck_assert_int_eq(checks, 8 * 5 * 6 * 8);
    /* The adversarial row (ex_adversarial): its error reaches over half of the bound, so the
     * bound's sum term B is no looser than about 2x (a bound with B halved fails here). */
    {
        float t[TESTNET_ADV_TERMS];
        float sum = testnet_adversarial_row(t);
        __int128 ex = 0;
        double A = 0, M = 0;
        for (int k = 0; k < TESTNET_ADV_TERMS; k++) {
            ex += ex_fix(t[k]);
            A = vfy_add_up(A, t[k]);
            M = fmax(M, t[k]);
        }
        double bound = vfy_la_exec_err32(A, M, TESTNET_ADV_TERMS, 1);
        __int128 d = ex - ex_fix(sum);
        REQUIRE_MSG(d >= 0 && d <= (__int128)floor(ldexp(bound, EX_UNIT)), "error %.6g, bound %.6g",
                    ldexp((double)d, -EX_UNIT), bound);
        REQUIRE_MSG(ldexp((double)d, -EX_UNIT) >= 0.5 * bound, "error %.6g, bound %.6g",
                    ldexp((double)d, -EX_UNIT), bound);
    }
    /* no terms, no error; one term: its own rounding only */
    ck_assert(vfy_la_exec_err32(0, 0, 0, 1) == 0);
    ck_assert(vfy_la_exec_err32(3.0, 3.0, 1, 1) <= 3.0 * 0x1p-24 * (1 + 0x1p-20));
}
END_TEST

/* The bounds of a DENSE layer on a point box (inputs float32 values, a third of them 0) contain the
 * layer's float32 execution in the worst orders: the allowance charged from the terms' count and
 * largest magnitude (row_terms) is wired as la.h states. */
START_TEST(test_exec_allowance_orders)
{
    enum { NI = 300, NO = 12 };
    static double wd[NO * NI], bd[NO];
    static float xf[NI], q[NI + 1];
    uint64_t st = 4242;
    for (int i = 0; i < NO * NI; i++)
        wd[i] = (double)(float)(2 * testnet_uniform(&st) - 1);
    for (int j = 0; j < NO; j++)
        bd[j] = j % 3 ? (double)(float)(4 * testnet_uniform(&st) - 2) : 0.0;
    const double *wl[1] = {wd}, *bl[1] = {bd};
    int64_t sizes[2] = {NI, NO};
    vfy_net *net = testnet_dense(1, sizes, wl, bl);
    ck_assert_ptr_nonnull(net);
    double lo[NI], hi[NI];
    for (int i = 0; i < NI; i++) {
        xf[i] = i % 3 == 0 ? 0.0f : (float)(3 * testnet_uniform(&st) - 1.5);
        lo[i] = hi[i] = xf[i];
    }
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
    vfy_bounds *bb = vfy_bounds_create(ctx);
    ck_assert_ptr_nonnull(bb);
    for (int meth = 0; meth < 2; meth++) {
        ck_assert_int_eq(vfy_bound_layers(ctx, meth ? VFY_BOUND_CROWN : VFY_BOUND_IBP, lo, hi,
                                          NULL, bb), VFY_OK);
        for (int j = 0; j < NO; j++) {
            int n = 0;
            for (int i = 0; i < NI; i++)
                q[n++] = (float)wd[j * NI + i] * xf[i];
            q[n++] = (float)bd[j];
            float res[5];
            qsort(q, (size_t)n, sizeof *q, ex_desc);
            volatile float acc = 0;
            for (int i = 0; i < n; i++)
                acc = acc + q[i];
            res[0] = acc;
            acc = 0;
            for (int i = n - 1; i >= 0; i--)
                acc = acc + q[i];
            res[1] = acc;
            res[4] = ex_pairwise(q, n);
            res[2] = ex_tree(q, n, &st); /* (reduces q in place) */
            acc = (float)bd[j];
            for (int i = 0; i < NI; i++)
                acc = fmaf((float)wd[j * NI + i], xf[i], acc);
            res[3] = acc;
            for (int r = 0; r < 5; r++)
                REQUIRE_MSG(bb->lo[0][j] <= res[r] && res[r] <= bb->hi[0][j],
                            "method %d row %d order %d: %.9g not in [%.9g, %.9g]", meth, j, r,
                            (double)res[r], bb->lo[0][j], bb->hi[0][j]);
        }
    }
    vfy_bounds_free(bb);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
    /* the adversarial row as a layer TESTNET_ADV_TERMS -> 1 at x = 1: its float32 execution in
     * index order comes within a factor 2 of the allowance, which must hold it */
    float ya;
    double one_lo[TESTNET_ADV_TERMS], one_hi[TESTNET_ADV_TERMS];
    net = testnet_adversarial_net(&ya);
    ck_assert_ptr_nonnull(net);
    for (int k = 0; k < TESTNET_ADV_TERMS; k++)
        one_lo[k] = one_hi[k] = 1.0;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
    bb = vfy_bounds_create(ctx);
    ck_assert_ptr_nonnull(bb);
    for (int meth = 0; meth < 2; meth++) {
        ck_assert_int_eq(vfy_bound_layers(ctx, meth ? VFY_BOUND_CROWN : VFY_BOUND_IBP, one_lo,
                                          one_hi, NULL, bb), VFY_OK);
        REQUIRE_MSG(bb->lo[0][0] <= ya && ya <= bb->hi[0][0], "method %d: %.9g not in [%.9g, %.9g]",
                    meth, (double)ya, bb->lo[0][0], bb->hi[0][0]);
    }
    vfy_bounds_free(bb);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* vfy_la_gemm_f32 within the error la.h states (tiny coefficients, subnormal in float32,
 * included), by gemv (5 rows, fewer than la.c's GEMV_ROWS) and by gemm (12 rows), and it declines
 * what float32 cannot hold. */
START_TEST(test_gemm_f32_error)
{
    uint64_t st = 21;
    enum { MMAX = 12, N = 7, KK = 300 };
    const int M = _i == 0 ? 5 : MMAX;
    static double a[MMAX * KK], c[MMAX * N];
    static float b[KK * N], ws[MMAX * (KK + N)];
    for (int i = 0; i < M * KK; i++) {
        double u = testnet_uniform(&st);
        a[i] = u < 0.1 ? 0.0 : (u < 0.3 ? (2 * u - 0.4) * 1e-39 : 4 * testnet_uniform(&st) - 2);
    }
    for (int i = 0; i < KK * N; i++)
        b[i] = (float)(4 * testnet_uniform(&st) - 2);
    /* the transposed form: each within the same error (by gemm, the same products) */
    static float bt[N * KK];
    static double c2[MMAX * N];
    for (int p = 0; p < KK; p++)
        for (int j = 0; j < N; j++)
            bt[j * KK + p] = b[p * N + j];
    ck_assert(vfy_la_gemm_f32(M, N, KK, a, b, 0, c, ws));
    ck_assert(vfy_la_gemm_f32(M, N, KK, a, bt, 1, c2, ws));
    long double g32 = vfy_la_gamma32(KK);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            long double exact = 0, bound = 0;
            for (int p = 0; p < KK; p++) {
                long double av = a[i * KK + p], bv = b[p * N + j];
                long double ab = fabsl(av), bb = fabsl(bv);
                exact += av * bv;
                bound += (0x1p-24L * ab + 0x1p-126L) * bb;
                bound += g32 * ((1 + 0x1p-23L) * ab + 0x1p-126L) * bb;
            }
            bound += (2.0L * KK + 2) * 0x1p-126L;
            REQUIRE_MSG(fabsl((long double)c[i * N + j] - exact) <= bound, "entry %d %d", i, j);
            REQUIRE_MSG(fabsl((long double)c2[i * N + j] - exact) <= bound, "entry %d %d (B^T)", i,
                        j);
            if (M >= 8)
                ck_assert(c2[i * N + j] == c[i * N + j]);
        }
    a[3] = 0x1p101;
    ck_assert(!vfy_la_gemm_f32(M, N, KK, a, b, 0, c, ws));
    a[3] = NAN;
    ck_assert(!vfy_la_gemm_f32(M, N, KK, a, b, 0, c, ws));
    a[3] = 0x1p99;
    b[3 * N] = 0x1p100f; /* a product of 2^199 overflows float32 */
    ck_assert(!vfy_la_gemm_f32(M, N, KK, a, b, 0, c, ws));
}
END_TEST

/* CROWN's bounds of net on [lo, hi] without (ctx[0], bb[0]) and with (ctx[1], bb[1]) float32
 * products, in real-valued semantics (f32_pair_free releases them). */
static void f32_pair_bounds(const vfy_net *net, const double *lo, const double *hi,
                            vfy_bound_ctx *ctx[2], vfy_bounds *bb[2])
{
    for (int f = 0; f < 2; f++) {
        ck_assert_int_eq(vfy_bound_ctx_create(net, 0, &ctx[f], NULL), VFY_OK);
        vfy_bound_ctx_set_f32(ctx[f], f);
        bb[f] = vfy_bounds_create(ctx[f]);
        ck_assert_ptr_nonnull(bb[f]);
        ck_assert_int_eq(vfy_bound_layers(ctx[f], VFY_BOUND_CROWN, lo, hi, NULL, bb[f]), VFY_OK);
    }
}

static void f32_pair_free(vfy_bound_ctx *ctx[2], vfy_bounds *bb[2])
{
    for (int f = 0; f < 2; f++) {
        vfy_bounds_free(bb[f]);
        vfy_bound_ctx_free(ctx[f]);
    }
}

/* The exact range [*mn, *mx] of c·x + d over the box [lo, hi] (nx inputs), in long double. */
static void linear_range(const long double *c, long double d, int nx, const double *lo,
                         const double *hi, long double *mn, long double *mx)
{
    *mn = *mx = d;
    for (int i = 0; i < nx; i++) {
        *mn += c[i] > 0 ? c[i] * lo[i] : c[i] * hi[i];
        *mx += c[i] > 0 ? c[i] * hi[i] : c[i] * lo[i];
    }
}

/* CROWN's hidden bounds with float32 products stay below the exact minimum: a net whose first two
 * ReLU layers are active on the whole box, so that a third-layer pre-activation is an exact linear
 * function of x (its minimum at a corner, evaluated in long double) and CROWN's bound of it
 * differs from that minimum only by the charges (its backward pass meets W2 with rows of W4: a
 * float32 product that rounds). Real-valued semantics: no float32-execution allowance hides the
 * products' rounding. Without f32_charge most bounds land above the minimum. */
START_TEST(test_f32_products_sound)
{
    uint64_t st = 500 + (uint64_t)_i;
    enum { NX = 30, H = 40 };
    const int64_t sizes[5] = {NX, H, H, H, 1};
    static double w0[H * NX], b0[H], w2[H * H], b2[H], w4[H * H], b4[H], w6[H], b6[1];
    for (int i = 0; i < H * NX; i++)
        w0[i] = (float)(2 * testnet_uniform(&st) - 1);
    for (int i = 0; i < H * H; i++) {
        w2[i] = (float)(2 * testnet_uniform(&st) - 1);
        w4[i] = (float)(2 * testnet_uniform(&st) - 1);
    }
    for (int m = 0; m < H; m++) {
        b0[m] = 50;   /* |W0 x| <= 30 * 1.5 on the box: the first ReLU layer active */
        b2[m] = 4000; /* |W2 v| <= 40 * 95: the second too */
        w6[m] = (float)(2 * testnet_uniform(&st) - 1);
    }
    /* v4 = W4 W2 W0 x + d, with C = W4 W2 W0 and d = W4 (W2 b0 + b2) + b4 */
    static long double c[H * NX], d[H];
    for (int j = 0; j < H; j++) {
        long double dj = 0;
        for (int m = 0; m < H; m++) {
            long double t = b2[m];
            for (int q = 0; q < H; q++)
                t += (long double)w2[m * H + q] * b0[q];
            dj += (long double)w4[j * H + m] * t;
        }
        b4[j] = -(double)dj + (testnet_uniform(&st) - 0.5); /* near 0: unstable after IBP */
        d[j] = dj + b4[j];
        for (int i = 0; i < NX; i++) {
            long double cji = 0;
            for (int m = 0; m < H; m++) {
                long double t = 0;
                for (int q = 0; q < H; q++)
                    t += (long double)w2[m * H + q] * w0[q * NX + i];
                cji += (long double)w4[j * H + m] * t;
            }
            c[j * NX + i] = cji;
        }
    }
    b6[0] = 0;
    const double *w[4] = {w0, w2, w4, w6}, *b[4] = {b0, b2, b4, b6};
    vfy_net *net = testnet_dense(4, sizes, w, b);
    ck_assert_ptr_nonnull(net);
    double lo[NX], hi[NX];
    for (int i = 0; i < NX; i++) {
        double cc = 2 * testnet_uniform(&st) - 1;
        lo[i] = cc - 0.5;
        hi[i] = cc + 0.5;
    }
    vfy_bounds *bb[2];
    vfy_bound_ctx *ctx[2];
    f32_pair_bounds(net, lo, hi, ctx, bb);
    for (int f = 0; f < 2; f++)
        for (int m = 0; m < H; m++)
            ck_assert(bb[f]->lo[0][m] > 0 && bb[f]->lo[2][m] > 0);
    int64_t looser = 0;
    for (int j = 0; j < H; j++) {
        long double mn, mx;
        linear_range(c + j * NX, d[j], NX, lo, hi, &mn, &mx);
        for (int f = 0; f < 2; f++)
            REQUIRE_MSG(bb[f]->lo[4][j] <= mn && mx <= bb[f]->hi[4][j],
                        "f32 %d neuron %d: [%.17Lg, %.17Lg] not in [%.17g, %.17g]", f, j, mn, mx,
                        bb[f]->lo[4][j], bb[f]->hi[4][j]);
        /* the float32 path ran: its charge shows (here about 0.5: the a-priori bound on v2's
         * magnitude, 8,000, not its width; the rounding itself is 1e-5 to 1e-4) */
        looser += bb[1]->lo[4][j] < bb[0]->lo[4][j];
    }
    ck_assert_int_gt(looser, H / 2);
    f32_pair_free(ctx, bb);
    vfy_net_free(net);
}
END_TEST


/* The input layer's float32 product in centred form (bound.c, cen_compute): inputs far from 0
 * (1,000 to 1,500) on a narrow box (radius 1e-3), a first ReLU layer active on it, so that a
 * second-layer pre-activation is an exact linear function of x (its minimum and maximum at
 * corners, in long double). CROWN's bounds of it with float32 products must hold them with no
 * tolerance, and stay within 1e-3 of them: charged by the inputs' magnitudes (f32_charge's
 * G = |W| H), the input layer's product costs about 0.25 here; charged by the box's radius,
 * about 1e-6 (the hidden layer's product about 3e-5). The centre's term T = lam (W c) - P c is
 * about 2e-3 (P's rounding times c): without it (cen_correct) bounds land inside the range.
 * Real-valued semantics; the bounds without float32 products hold them too. */
START_TEST(test_f32_input_layer_centred)
{
    uint64_t st = 900 + (uint64_t)_i;
    const double rad = 1e-3;
    enum { NX = 30, H = 40 };
    const int64_t sizes[4] = {NX, H, H, 1};
    static double w0[H * NX], b0[H], w2[H * H], b2[H], w4[H], b4[1], cen[NX];
    for (int i = 0; i < NX; i++)
        cen[i] = (float)(1000 + 500 * testnet_uniform(&st));
    for (int i = 0; i < H * NX; i++)
        w0[i] = (float)(2 * testnet_uniform(&st) - 1);
    for (int i = 0; i < H * H; i++)
        w2[i] = (float)(2 * testnet_uniform(&st) - 1);
    for (int m = 0; m < H; m++) {
        long double t = 0; /* v1 = W0 (x - c) + 0.5 + e, |W0 (x - c)| <= 0.03: active */
        for (int i = 0; i < NX; i++)
            t += (long double)w0[m * NX + i] * cen[i];
        b0[m] = (double)(0.5 - t);
        w4[m] = (float)(2 * testnet_uniform(&st) - 1);
    }
    /* v2 = C x + d, with C = W2 W0 and d = W2 b0 + b2; b2 puts v2 near 0 at the centre */
    static long double c[H * NX], d[H];
    for (int j = 0; j < H; j++) {
        long double dj = 0, at_c = 0;
        for (int m = 0; m < H; m++)
            dj += (long double)w2[j * H + m] * b0[m];
        for (int i = 0; i < NX; i++) {
            long double cji = 0;
            for (int m = 0; m < H; m++)
                cji += (long double)w2[j * H + m] * w0[m * NX + i];
            c[j * NX + i] = cji;
            at_c += cji * cen[i];
        }
        b2[j] = -(double)(dj + at_c) + 0.05 * (testnet_uniform(&st) - 0.5);
        d[j] = dj + b2[j];
    }
    b4[0] = 0;
    const double *w[3] = {w0, w2, w4}, *b[3] = {b0, b2, b4};
    vfy_net *net = testnet_dense(3, sizes, w, b);
    ck_assert_ptr_nonnull(net);
    double lo[NX], hi[NX];
    for (int i = 0; i < NX; i++) {
        lo[i] = cen[i] - rad;
        hi[i] = cen[i] + rad;
    }
    vfy_bounds *bb[2];
    vfy_bound_ctx *ctx[2];
    f32_pair_bounds(net, lo, hi, ctx, bb);
    for (int f = 0; f < 2; f++)
        for (int m = 0; m < H; m++)
            ck_assert(bb[f]->lo[0][m] > 0);
    int64_t looser = 0, unstable = 0;
    for (int j = 0; j < H; j++) {
        long double mn, mx;
        linear_range(c + j * NX, d[j], NX, lo, hi, &mn, &mx);
        for (int f = 0; f < 2; f++)
            REQUIRE_MSG(bb[f]->lo[2][j] <= mn && mx <= bb[f]->hi[2][j],
                        "f32 %d neuron %d: [%.17Lg, %.17Lg] not in [%.17g, %.17g]", f, j, mn, mx,
                        bb[f]->lo[2][j], bb[f]->hi[2][j]);
        int straddles = mn < 0 && mx > 0; /* (IBP leaves it unstable: CROWN refines it) */
        unstable += straddles;
        REQUIRE_MSG(!straddles || (mn - bb[1]->lo[2][j] < 1e-3 && bb[1]->hi[2][j] - mx < 1e-3),
                    "neuron %d: [%.17g, %.17g] is loose around [%.17Lg, %.17Lg]", j,
                    bb[1]->lo[2][j], bb[1]->hi[2][j], mn, mx);
        /* (the float32 path ran: its charge shows) */
        looser += straddles && bb[1]->lo[2][j] < bb[0]->lo[2][j];
    }
    ck_assert_int_gt(unstable, H / 2);
    ck_assert_int_gt(looser, unstable / 2);
    f32_pair_free(ctx, bb);
    vfy_net_free(net);
}
END_TEST

/* The input layer's coefficients and the centred form's terms are kept between calls while the box
 * is the same (bound.c, affine_prepare): one bounds object that bounds boxes A, B, A, B, then B
 * with one upper end moved, then with a prior, gives bit for bit the bounds of a fresh object for
 * each, with float32 products and a float32 execution's allowance (float semantics) or without.
 * Kept across a change of the box, or of its upper ends only, the bounds differ. */
START_TEST(test_input_layer_kept_per_box)
{
    const int64_t hid[2] = {24, 16};
    vfy_net *net = testnet_random(950 + (uint64_t)_i, 20, hid, 2, 3, 0.5, 0);
    ck_assert_ptr_nonnull(net);
    int64_t n = net->n_in;
    double box[2][2][20];
    uint64_t st = 77 + (uint64_t)_i;
    for (int a = 0; a < 2; a++)
        for (int64_t j = 0; j < n; j++) {
            double c = 2 * testnet_uniform(&st) - 1, r = 0.2 * testnet_uniform(&st);
            box[a][0][j] = c - r;
            box[a][1][j] = c + r;
        }
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, _i % 2, &ctx, NULL), VFY_OK);
    vfy_bounds *kept = vfy_bounds_create(ctx);
    ck_assert_ptr_nonnull(kept);
    int64_t flat = vfy_bounds_flat_size(ctx);
    double *prior = malloc((size_t)flat * sizeof(double));
    const int seq[6] = {0, 1, 0, 1, 1, 1};
    for (int t = 0; t < 6; t++) {
        double *lo = box[seq[t]][0], *hi = box[seq[t]][1];
        if (t == 4)
            hi[5] += 3; /* (so that |hi| is its largest magnitude: q changes) */
        const double *pr = NULL;
        if (t == 5) { /* (a prior from the bounds before: layers before k_from are copied) */
            vfy_bounds_export(ctx, kept, prior);
            pr = prior;
        }
        vfy_bounds *fresh = vfy_bounds_create(ctx);
        ck_assert_ptr_nonnull(fresh);
        ck_assert_int_eq(vfy_bound_layers_from(ctx, VFY_BOUND_CROWN, lo, hi, pr, 2, kept),
                         VFY_OK);
        ck_assert_int_eq(vfy_bound_layers_from(ctx, VFY_BOUND_CROWN, lo, hi, pr, 2, fresh),
                         VFY_OK);
        for (int64_t k = 0; k < net->n_layers; k++)
            for (int64_t j = 0; j < net->layers[k].n_out; j++)
                REQUIRE_MSG(kept->lo[k][j] == fresh->lo[k][j] &&
                                kept->hi[k][j] == fresh->hi[k][j],
                            "step %d layer %lld neuron %lld: [%.17g, %.17g] against [%.17g, %.17g]",
                            t, (long long)k, (long long)j, kept->lo[k][j], kept->hi[k][j],
                            fresh->lo[k][j], fresh->hi[k][j]);
        vfy_bounds_free(fresh);
    }
    free(prior);
    vfy_bounds_free(kept);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* Sample s of [lo, hi]: the two extreme corners, two alternating ones, then uniform points; each
 * float32-valued and inside the box (so a float32 execution sees the same x), in x and xf. */
static void sample_point(uint64_t *st, int s, int64_t nx, const double *lo, const double *hi,
                         double *x, float *xf)
{
    for (int64_t j = 0; j < nx; j++) {
        double u = s < 2 ? (double)s : (s < 4 ? (double)((j + s) % 2) : testnet_uniform(st));
        float f = (float)(lo[j] + u * (hi[j] - lo[j]));
        if ((double)f < lo[j])
            f = nextafterf(f, INFINITY);
        if ((double)f > hi[j])
            f = nextafterf(f, -INFINITY);
        x[j] = f;
        xf[j] = f;
    }
}

/* Sample points of [lo, hi] (corners first) and check every layer's value lies in the bounds. */
static void check_contains(const vfy_net *net, const vfy_bounds *b, const double *lo,
                           const double *hi, uint64_t seed, int n_samples)
{
    uint64_t st = seed;
    int64_t nx = net->n_in;
    double *x = malloc((size_t)nx * sizeof *x);
    float *xf = malloc((size_t)nx * sizeof *xf);
    float *yf = malloc((size_t)net->n_out * sizeof *yf);
    float *sf = malloc((size_t)(2 * vfy_net_max_width(net)) * sizeof *sf);
    double **acts = calloc((size_t)net->n_layers, sizeof *acts);
    for (int64_t k = 0; k < net->n_layers; k++)
        acts[k] = malloc((size_t)net->layers[k].n_out * sizeof(double));
    for (int s = 0; s < n_samples; s++) {
        sample_point(&st, s, nx, lo, hi, x, xf);
        vfy_eval_forward_all(net, x, acts, NULL);
        for (int64_t k = 0; k < net->n_layers; k++)
            for (int64_t j = 0; j < net->layers[k].n_out; j++) {
                REQUIRE_MSG(b->lo[k][j] <= acts[k][j] && acts[k][j] <= b->hi[k][j],
                            "layer %lld neuron %lld: %.17g not in [%.17g, %.17g]", (long long)k,
                            (long long)j, acts[k][j], b->lo[k][j], b->hi[k][j]);
            }
        vfy_eval_f32(net, xf, yf, sf);
        int64_t L = net->n_layers - 1;
        for (int64_t j = 0; j < net->n_out; j++)
            REQUIRE(b->lo[L][j] <= (double)yf[j] && (double)yf[j] <= b->hi[L][j]);
    }
    for (int64_t k = 0; k < net->n_layers; k++)
        free(acts[k]);
    free(acts);
    free(x);
    free(xf);
    free(yf);
    free(sf);
}

START_TEST(test_bounds_contain_samples)
{
    const testnet_shape *sh = &testnet_shapes[_i % 4];
    vfy_net *net = testnet_random(100 + (uint64_t)_i, sh->n_in, sh->hidden, sh->n_hidden, sh->n_out,
                                  sh->scale, sh->with_scale);
    ck_assert_ptr_nonnull(net);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
    vfy_bounds *bi = vfy_bounds_create(ctx), *bc = vfy_bounds_create(ctx);
    ck_assert_ptr_nonnull(bi);
    ck_assert_ptr_nonnull(bc);
    uint64_t st = 1000 + (uint64_t)_i;
    double lo[16], hi[16], wlo[16], whi[16];
    for (int64_t j = 0; j < net->n_in; j++) {
        double c = 2 * testnet_uniform(&st) - 1, r = 0.05 + testnet_uniform(&st) * (_i < 4 ? 0.1 : 1.0);
        lo[j] = wlo[j] = c - r;
        hi[j] = whi[j] = c + r;
    }
    vfy_bound_widen_input(ctx, net->n_in, wlo, whi);
    for (int64_t j = 0; j < net->n_in; j++)
        ck_assert(wlo[j] < lo[j] && whi[j] > hi[j]);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_IBP, wlo, whi, NULL, bi), VFY_OK);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo, whi, NULL, bc), VFY_OK);
    check_contains(net, bi, lo, hi, 5 + (uint64_t)_i, 300);
    check_contains(net, bc, lo, hi, 5 + (uint64_t)_i, 300);
    /* rows: lower bounds of random output combinations hold at samples; CROWN >= IBP */
    int64_t K = 3, ny = net->n_out, nx = net->n_in;
    double cy[3 * 8], lbi[3], lbc[3], lam[3 * 16];
    for (int64_t i = 0; i < K * ny; i++)
        cy[i] = (double)(int)(testnet_uniform(&st) * 5) - 2;
    ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_IBP, wlo, whi, bi, K, cy, NULL, lbi, NULL, NULL), VFY_OK);
    ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_CROWN, wlo, whi, bc, K, cy, NULL, lbc, lam, NULL), VFY_OK);
    double x[16], y[8], scr[128];
    for (int i = 0; i < K; i++)
        ck_assert(lbc[i] >= lbi[i]);
    for (int s = 0; s < 300; s++) {
        for (int64_t j = 0; j < nx; j++)
            x[j] = lo[j] + testnet_uniform(&st) * (hi[j] - lo[j]);
        vfy_eval_f64(net, x, y, scr);
        for (int i = 0; i < K; i++) {
            double v = 0;
            for (int64_t j = 0; j < ny; j++)
                v += cy[i * ny + j] * y[j];
            REQUIRE_MSG(lbc[i] <= v, "row %d: bound %.17g above value %.17g", i, lbc[i], v);
        }
    }
    vfy_bounds_free(bi);
    vfy_bounds_free(bc);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* CROWN is strictly tighter than IBP on a deeper random net: the reason to have it. */
START_TEST(test_crown_tighter_than_ibp)
{
    int64_t hidden[3] = {20, 20, 20};
    vfy_net *net = testnet_random(42, 5, hidden, 3, 5, 0.5, 0);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
    vfy_bounds *b = vfy_bounds_create(ctx);
    double lo[5], hi[5];
    for (int j = 0; j < 5; j++) {
        lo[j] = -0.1;
        hi[j] = 0.1;
    }
    double cy[5] = {1, -1, 0, 0, 0}, lbi, lbc;
    vfy_bound_layers(ctx, VFY_BOUND_IBP, lo, hi, NULL, b);
    vfy_bound_rows(ctx, VFY_BOUND_IBP, lo, hi, b, 1, cy, NULL, &lbi, NULL, NULL);
    vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo, hi, NULL, b);
    vfy_bound_rows(ctx, VFY_BOUND_CROWN, lo, hi, b, 1, cy, NULL, &lbc, NULL, NULL);
    REQUIRE_MSG(lbc > lbi, "crown %g ibp %g", lbc, lbi);
    vfy_bounds_free(b);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* vfy_bound_ctx_set_deadline: past the deadline (or with its flag raised) CROWN's passes are left
 * out and the bounds are IBP's, bit for bit; with a deadline to come they are CROWN's, tighter. */
START_TEST(test_crown_deadline_ibp)
{
    int64_t hidden[3] = {20, 20, 20};
    vfy_net *net = testnet_random(42, 5, hidden, 3, 5, 0.5, 0);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
    vfy_bounds *bi = vfy_bounds_create(ctx), *bc = vfy_bounds_create(ctx);
    int64_t half = vfy_bounds_flat_size(ctx) / 2;
    double *fi = calloc((size_t)(4 * half), sizeof(double)), *fc = fi + 2 * half;
    double lo[5], hi[5];
    for (int j = 0; j < 5; j++) {
        lo[j] = -0.1;
        hi[j] = 0.1;
    }
    double cy[5] = {1, -1, 0, 0, 0}, lbi, lbc, lb_later;
    vfy_bound_layers(ctx, VFY_BOUND_IBP, lo, hi, NULL, bi);
    vfy_bound_rows(ctx, VFY_BOUND_IBP, lo, hi, bi, 1, cy, NULL, &lbi, NULL, NULL);
    vfy_bounds_export(ctx, bi, fi);
    vfy_deadline dl[2] = {{vfy_now() - 1.0, 0}, {INFINITY, 1}};
    for (int k = 0; k < 2; k++) {
        vfy_bound_ctx_set_deadline(ctx, &dl[k]);
        vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo, hi, NULL, bc);
        vfy_bound_rows(ctx, VFY_BOUND_CROWN, lo, hi, bc, 1, cy, NULL, &lbc, NULL, NULL);
        vfy_bounds_export(ctx, bc, fc);
        ck_assert(memcmp(fi, fc, (size_t)(2 * half) * sizeof(double)) == 0);
        REQUIRE_MSG(lbc == lbi, "deadline %d: %.17g against IBP's %.17g", k, lbc, lbi);
    }
    vfy_deadline later = {vfy_now() + 3600.0, 0};
    vfy_bound_ctx_set_deadline(ctx, &later);
    vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo, hi, NULL, bc);
    vfy_bound_rows(ctx, VFY_BOUND_CROWN, lo, hi, bc, 1, cy, NULL, &lb_later, NULL, NULL);
    REQUIRE_MSG(lb_later > lbi, "crown %g ibp %g", lb_later, lbi);
    free(fi);
    vfy_bounds_free(bi);
    vfy_bounds_free(bc);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* y = relu(2^60 x + 1) - relu(2^60 x) is 1 in real arithmetic on x in [0.5, 1] but 0 when executed
 * in floating point: with the float-execution allowance, y > 0.5 must not be proved. */
START_TEST(test_float_execution_cancellation)
{
    const int64_t sizes[3] = {1, 2, 1};
    const double w1[2] = {0x1p60, 0x1p60}, b1[2] = {1, 0}, w2[2] = {1, -1}, b2[1] = {0};
    const double *w[2] = {w1, w2}, *b[2] = {b1, b2};
    vfy_net *net = testnet_dense(2, sizes, w, b);
    ck_assert_ptr_nonnull(net);
    double x = 1.0, y, scr[8];
    vfy_eval_f64(net, &x, &y, scr);
    ck_assert(y == 0.0); /* the float execution */
    for (int fs = 0; fs <= 1; fs++) {
        vfy_bound_ctx *ctx;
        ck_assert_int_eq(vfy_bound_ctx_create(net, fs, &ctx, NULL), VFY_OK);
        vfy_bounds *bb = vfy_bounds_create(ctx);
        double lo = 0.5, hi = 1.0, cy = 1.0, lb;
        vfy_bound_widen_input(ctx, 1, &lo, &hi);
        vfy_bound_layers(ctx, VFY_BOUND_CROWN, &lo, &hi, NULL, bb);
        vfy_bound_rows(ctx, VFY_BOUND_CROWN, &lo, &hi, bb, 1, &cy, NULL, &lb, NULL, NULL);
        if (fs)
            REQUIRE_MSG(!(lb > 0.5), "float semantics must not prove y > 0.5 (lb %g)", lb);
        /* either way the bound holds for the value executed in double */
        ck_assert(lb <= y || !fs);
        vfy_bounds_free(bb);
        vfy_bound_ctx_free(ctx);
    }
    vfy_net_free(net);
}
END_TEST

/* A proof with margin survives the allowance: y = relu(x) + 1 > 0.5 on [-1, 1]. */
START_TEST(test_margin_proved)
{
    const int64_t sizes[3] = {1, 1, 1};
    const double w1[1] = {1}, b1[1] = {0}, w2[1] = {1}, b2[1] = {1};
    const double *w[2] = {w1, w2}, *b[2] = {b1, b2};
    vfy_net *net = testnet_dense(2, sizes, w, b);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
    vfy_bounds *bb = vfy_bounds_create(ctx);
    double lo = -1, hi = 1, cy = 1, lb;
    vfy_bound_widen_input(ctx, 1, &lo, &hi);
    vfy_bound_layers(ctx, VFY_BOUND_CROWN, &lo, &hi, NULL, bb);
    vfy_bound_rows(ctx, VFY_BOUND_CROWN, &lo, &hi, bb, 1, &cy, NULL, &lb, NULL, NULL);
    ck_assert(lb > 0.99 && lb <= 1.0);
    vfy_bounds_free(bb);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* Overflowing float32 range: no proof is claimed under float semantics. */
START_TEST(test_float_overflow_no_proof)
{
    const int64_t sizes[3] = {1, 1, 1};
    const double w1[1] = {0x1p127}, b1[1] = {0}, w2[1] = {0x1p-127}, b2[1] = {1};
    const double *w[2] = {w1, w2}, *b[2] = {b1, b2};
    vfy_net *net = testnet_dense(2, sizes, w, b);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
    vfy_bounds *bb = vfy_bounds_create(ctx);
    double lo = 2, hi = 4, cy = 1, lb;
    vfy_bound_layers(ctx, VFY_BOUND_CROWN, &lo, &hi, NULL, bb);
    vfy_bound_rows(ctx, VFY_BOUND_CROWN, &lo, &hi, bb, 1, &cy, NULL, &lb, NULL, NULL);
    ck_assert(lb == -INFINITY);
    vfy_bounds_free(bb);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST


/* CROWN against the reference implementation's values in ../shared/benchmarks/REFERENCE_BOUNDS.md
 * (auto_LiRPA, float32): in real-only mode our bound is never looser than the reference (beyond 1e-4
 * for float32 vs double); it can be tighter, since intermediate bounds are also intersected with IBP
 * (on ACAS Xu prop_3 by up to 0.12, while the sampled minima of the rows lie far above both). */
static void check_reference(const char *model, const char *spec_path, const double *ref, int n_ref)
{
    vfy_net *net = NULL;
    vfy_spec *spec = NULL;
    vfy_error err;
    REQUIRE_MSG(vfy_onnx_load(model, &net, &err) == VFY_OK, "%s", err.msg);
    REQUIRE_MSG(vfy_spec_load(spec_path, &spec, &err) == VFY_OK, "%s", err.msg);
    int64_t K = 0, ny = net->n_out;
    double cy[64 * 10], rhs[64], lb[64];
    for (int64_t c = 0; c < spec->n_cases; c++)
        for (int64_t i = 0; i < spec->cases[c].n_rows; i++, K++) {
            REQUIRE(K < 64);
            memcpy(cy + K * ny, spec->cases[c].rows[i].cy, (size_t)ny * sizeof(double));
            rhs[K] = spec->cases[c].rows[i].rhs_hi;
        }
    ck_assert_int_eq(K, n_ref);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 0, &ctx, NULL), VFY_OK);
    /* the relaxation's maths against the reference's: products in double (the float32 products'
     * charge costs 2e-4 of the 256x2 net's margin, test_f32_products_sound) */
    vfy_bound_ctx_set_f32(ctx, 0);
    vfy_bounds *b = vfy_bounds_create(ctx);
    const double *lo = spec->boxes[0].lo, *hi = spec->boxes[0].hi;
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo, hi, NULL, b), VFY_OK);
    ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_CROWN, lo, hi, b, K, cy, NULL, lb, NULL, NULL), VFY_OK);
    for (int64_t i = 0; i < K; i++) {
        double m = lb[i] - rhs[i];
        REQUIRE_MSG(m >= ref[i] - 1e-4 * (1 + fabs(ref[i])) && m <= ref[i] + 0.2 * (1 + fabs(ref[i])),
                    "%s row %lld: crown %.6g, reference %.6g", model, (long long)i, m, ref[i]);
    }
    vfy_bounds_free(b);
    vfy_bound_ctx_free(ctx);
    vfy_spec_free(spec);
    vfy_net_free(net);
}

START_TEST(test_reference_bounds)
{
    FILE *f = fopen("../shared/benchmarks/REFERENCE_BOUNDS.md", "r");
    if (!f) {
        fprintf(stderr, "skipped: ../shared/benchmarks is absent\n");
        return;
    }
    fclose(f);
    static const double mnist2[9] = {0.412259, 0.48894, 0.434482, 0.47527, 0.398815,
                                     0.340795, 0.443228, 0.470415, 0.349224};
    static const double mnist6[9] = {0.977781, 0.977098, 0.98013, 0.971321, 0.96791,
                                     0.951837, 0.968011, 0.967507, 0.976784};
    static const double acas[4] = {-0.503859, -0.569159, -0.897641, -0.966174};
    check_reference("../shared/benchmarks/mnist_fc/onnx/mnist-net_256x2.onnx",
                    "../shared/benchmarks/mnist_fc/vnnlib/prop_0_0.03.vnnlib", mnist2, 9);
    check_reference("../shared/benchmarks/mnist_fc/onnx/mnist-net_256x6.onnx",
                    "../shared/benchmarks/mnist_fc/vnnlib/prop_3_0.03.vnnlib", mnist6, 9);
    check_reference("../shared/benchmarks/acasxu/onnx/ACASXU_run2a_1_1_batch_2000.onnx",
                    "../shared/benchmarks/acasxu/vnnlib/prop_3.vnnlib", acas, 4);
}
END_TEST


/* Dense grids on 2-input networks with several hidden layers (so that CROWN refines bounds through
 * earlier relaxations): every layer's value at every grid point lies inside the CROWN bounds. Random
 * points in higher dimensions rarely come near a neuron's extremes; a grid in 2-D does. */
START_TEST(test_grid_contains)
{
    int64_t hidden[4] = {10, 12, 10, 8};
    vfy_net *net = testnet_random(500 + (uint64_t)_i, 2, hidden, 3 + _i % 2, 3, 0.9, _i % 3 == 0);
    ck_assert_ptr_nonnull(net);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, _i % 2, &ctx, NULL), VFY_OK);
    vfy_bounds *b = vfy_bounds_create(ctx);
    uint64_t st = 77 + (uint64_t)_i;
    double lo[2], hi[2], wlo[2], whi[2];
    for (int j = 0; j < 2; j++) {
        double c = 2 * testnet_uniform(&st) - 1, r = 0.2 + 0.8 * testnet_uniform(&st);
        lo[j] = wlo[j] = c - r;
        hi[j] = whi[j] = c + r;
    }
    vfy_bound_widen_input(ctx, 2, wlo, whi);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo, whi, NULL, b), VFY_OK);
    double **acts = calloc((size_t)net->n_layers, sizeof *acts);
    for (int64_t k = 0; k < net->n_layers; k++)
        acts[k] = malloc((size_t)net->layers[k].n_out * sizeof(double));
    const int G = 100;
    for (int a = 0; a <= G; a++)
        for (int c = 0; c <= G; c++) {
            double x[2] = {lo[0] + (hi[0] - lo[0]) * a / G, lo[1] + (hi[1] - lo[1]) * c / G};
            if (a == G)
                x[0] = hi[0];
            if (c == G)
                x[1] = hi[1];
            vfy_eval_forward_all(net, x, acts, NULL);
            for (int64_t k = 0; k < net->n_layers; k++)
                for (int64_t j = 0; j < net->layers[k].n_out; j++)
                    REQUIRE_MSG(b->lo[k][j] <= acts[k][j] && acts[k][j] <= b->hi[k][j],
                                "layer %lld neuron %lld: %.17g not in [%.17g, %.17g]",
                                (long long)k, (long long)j, acts[k][j], b->lo[k][j], b->hi[k][j]);
        }
    for (int64_t k = 0; k < net->n_layers; k++)
        free(acts[k]);
    free(acts);
    vfy_bounds_free(b);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* ---- Sigmoid and Tanh ---- */

/* Check records every passing ck_assert through a pipe (a system call each); the loops below test
 * millions of points, so they call it only on failure. */
#define CHECK(c) do { if (!(c)) ck_assert(c); } while (0)
#define CHECKM(c, ...) do { if (!(c)) REQUIRE_MSG(c, __VA_ARGS__); } while (0)

static long double act_ref(vfy_layer_kind kind, long double z)
{
    if (kind == VFY_LAYER_ERF)
        return erfl(z);
    if (kind == VFY_LAYER_GELU)
        return 0.5L * z * erfcl(-z * 0.70710678118654752440084436210484903928L);
    if (kind == VFY_LAYER_SILU)
        return z / (1.0L + expl(-z));
    if (kind == VFY_LAYER_ERFGATE)
        return 0.5L * z * erfcl(-z);
    return kind == VFY_LAYER_SIGMOID ? 1.0L / (1.0L + expl(-z)) : tanhl(z);
}

/* The kinds with pieces the loop tests run over (_i 0, 1, 2 S-shaped; 3, 4 gated), their names,
 * max |f''| and f'(z). */
static vfy_layer_kind sact_kind(int i)
{
    static const vfy_layer_kind k[6] = {VFY_LAYER_SIGMOID, VFY_LAYER_TANH, VFY_LAYER_ERF,
                                        VFY_LAYER_GELU, VFY_LAYER_SILU, VFY_LAYER_ERFGATE};
    return k[i];
}
static const char *sact_name(int i)
{
    static const char *const n[6] = {"sigmoid", "tanh", "erf", "gelu", "silu", "erfgate"};
    return n[i];
}
/* sigmoid'' max 0.0962, tanh'' 0.7698, erf'' = -2 z C e^(-z^2) at z = 1/sqrt(2): 0.9679; gelu''
 * = phi (2 - z^2) at 0: 0.798; silu'' = s (1 - s)(2 + z (1 - 2 s)) at 0: 1/2; erfgate'' =
 * (2 - 2 z^2) e^(-z^2) / sqrt(pi) at 0: 1.1284 */
static double sact_f2max(int i)
{
    static const double m[6] = {0.0963, 0.7699, 0.968, 0.8, 0.5, 1.129};
    return m[i];
}
static long double sact_slope(vfy_layer_kind kind, long double z)
{
    long double f = act_ref(kind, z);
    if (kind == VFY_LAYER_ERF)
        return 2.0L / sqrtl(3.14159265358979323846264338327950288L) * expl(-z * z);
    return kind == VFY_LAYER_SIGMOID ? f * (1 - f) : 1 - f * f;
}

/* f(z) - (s z + t) in long double, with s z split exactly (fma) so that only long double rounding
 * (2^-64 relative, far below the certified lines' own margins of at least one double ulp) remains. */
static long double act_gap(vfy_layer_kind kind, double z, double s, double t)
{
    double p = s * z, e = fma(s, z, -p);
    return ((act_ref(kind, z) - (long double)t) - (long double)p) - (long double)e;
}

/* A random interval of one of the shapes that matter: tiny, saturated (|z| ~ 40), straddling 0,
 * one-sided (either sign), general, a point, an end point at 0. */
static void act_interval(uint64_t *st, int cls, double *l, double *u)
{
    double a = testnet_uniform(st), b = testnet_uniform(st);
    switch (cls) {
    case 0: /* tiny */
        *l = 20 * a - 10;
        *u = *l + ldexp(b, -(int)(10 + 40 * testnet_uniform(st)));
        break;
    case 1: /* saturated or across the saturation */
        *l = testnet_uniform(st) < 0.5 ? -45 + 10 * a : 30 + 10 * a;
        *u = *l + (testnet_uniform(st) < 0.5 ? 15 * b : 85 * b);
        break;
    case 2: /* straddling */
        *l = -8 * a - 1e-3;
        *u = 8 * b + 1e-3;
        break;
    case 3: /* one-sided */
        *l = 12 * a * a;
        *u = *l + 6 * b;
        if (testnet_uniform(st) < 0.5) {
            double t = -*u;
            *u = -*l;
            *l = t;
        }
        break;
    case 4: /* general */
        *l = 40 * a - 20;
        *u = *l + 20 * b;
        break;
    case 5: /* a point */
        *l = *u = 16 * a - 8;
        break;
    default: /* an end point at 0 */
        *l = testnet_uniform(st) < 0.5 ? -6 * a : 0.0;
        *u = *l < 0 ? 0.0 : 6 * b;
        break;
    }
}

/* The relaxation lines hold on every sampled point of thousands of random intervals (no tolerance),
 * and the certified intercepts lose little against the best intercept for the same slope. */
START_TEST(test_act_lines)
{
    vfy_layer_kind kind = sact_kind(_i);
    double f2max = sact_f2max(_i); /* max |f''| */
    uint64_t st = 31 + (uint64_t)_i;
    for (int t = 0; t < 3500; t++) {
        double l, u, sl, tl, su, tu;
        act_interval(&st, t % 7, &l, &u);
        vfy_bound_act_lines(kind, l, u, &sl, &tl, &su, &tu);
        CHECK(isfinite(sl) && isfinite(tl) && isfinite(su) && isfinite(tu));
        long double lo_gap = INFINITY, up_gap = INFINITY;
        const int G = 400;
        for (int g = 0; g <= G + 20; g++) {
            double z = g <= G ? l + (u - l) * g / G : l + (u - l) * testnet_uniform(&st);
            if (g == G)
                z = u;
            if (z < l)
                z = l;
            if (z > u)
                z = u;
            long double a = act_gap(kind, z, sl, tl), b = -act_gap(kind, z, su, tu);
            CHECKM(a >= 0 && b >= 0, "%s on [%.17g, %.17g] at %.17g: lower %.17g z + %.17g "
                          "(gap %Lg), upper %.17g z + %.17g (gap %Lg)", sact_name(_i), l, u,
                          z, sl, tl, a, su, tu, b);
            lo_gap = a < lo_gap ? a : lo_gap;
            up_gap = b < up_gap ? b : up_gap;
        }
        /* tightness: each line comes within f''max h^2 of f (h = (u - l)/64, the certification's
         * pieces) up to the enclosures' widening; the grid sees the closest point up to
         * f''max (step/2)^2 / 2 */
        double h = (u - l) / 64, step = (u - l) / G;
        double loss = f2max * (h * h + step * step / 8) + 1e-12 * (1 + fabs(sl * l) + fabs(su * u));
        if (u - l > 0x1p-20)
            CHECKM(lo_gap <= loss && up_gap <= loss, "%s on [%.17g, %.17g]: gaps %Lg %Lg above %g",
                   sact_name(_i), l, u, lo_gap, up_gap, loss);
    }
    /* degenerate inputs give the whole range or the constants, never a wrong line */
    double sl, tl, su, tu;
    vfy_bound_act_lines(kind, NAN, NAN, &sl, &tl, &su, &tu);
    CHECK(sl == 0 && su == 0 && tl == (kind == VFY_LAYER_SIGMOID ? 0 : -1) && tu == 1);
    vfy_bound_act_lines(kind, NAN, 1, &sl, &tl, &su, &tu);
    CHECK(sl == 0 && su == 0 && tl == (kind == VFY_LAYER_SIGMOID ? 0 : -1) &&
          tu >= act_ref(kind, 1) && tu < 1);
    vfy_bound_act_lines(kind, -INFINITY, INFINITY, &sl, &tl, &su, &tu);
    CHECK(sl == 0 && su == 0 && tl == (kind == VFY_LAYER_SIGMOID ? 0 : -1) && tu == 1);
    vfy_bound_act_lines(kind, -800, -790, &sl, &tl, &su, &tu);
    CHECK(tl <= act_ref(kind, -790) && tu >= act_ref(kind, -790));
}
END_TEST

/* A float32 forward pass whose activations err by +-delta (alternating), as a runtime's approximate
 * kernels may (onnxruntime's are within 4e-7 of the real functions): the bounds with the float
 * semantics must contain it too. */
static void eval_f32_perturbed(const vfy_net *net, const float *x, float *y, float delta)
{
    int64_t w = vfy_net_max_width(net);
    float *a = malloc((size_t)w * sizeof *a), *b = malloc((size_t)w * sizeof *b);
    memcpy(a, x, (size_t)net->n_in * sizeof *a);
    for (int64_t k = 0; k < net->n_layers; k++) {
        const vfy_layer *L = &net->layers[k];
        for (int64_t j = 0; j < L->n_out; j++) {
            if (L->kind == VFY_LAYER_DENSE) {
                float acc = 0;
                for (int64_t i = 0; i < L->n_in; i++)
                    acc += (float)L->w[j * L->n_in + i] * a[i];
                b[j] = acc + (float)L->b[j];
            } else if (L->kind == VFY_LAYER_SCALE) {
                b[j] = (float)L->w[j] * a[j] + (float)L->b[j];
            } else {
                b[j] = vfy_act_f32(L->kind, a[j]);
                if (L->kind != VFY_LAYER_RELU)
                    b[j] += (j + k) % 2 ? delta : -delta;
            }
        }
        float *t = a;
        a = b;
        b = t;
    }
    memcpy(y, a, (size_t)net->n_out * sizeof *y);
    free(a);
    free(b);
}

#define N_ACT_MIXES 6
#define N_ALL_MIXES 8 /* (the last two with GELU/SILU layers: no alpha lines or splits) */
static const vfy_layer_kind act_mixes[N_ALL_MIXES][4] = {
    {VFY_LAYER_SIGMOID, VFY_LAYER_SIGMOID, VFY_LAYER_SIGMOID, VFY_LAYER_SIGMOID},
    {VFY_LAYER_TANH, VFY_LAYER_TANH, VFY_LAYER_TANH, VFY_LAYER_TANH},
    {VFY_LAYER_SIGMOID, VFY_LAYER_RELU, VFY_LAYER_TANH, VFY_LAYER_SIGMOID},
    {VFY_LAYER_TANH, VFY_LAYER_SIGMOID, VFY_LAYER_RELU, VFY_LAYER_TANH},
    {VFY_LAYER_ERF, VFY_LAYER_ERF, VFY_LAYER_ERF, VFY_LAYER_ERF},
    {VFY_LAYER_ERF, VFY_LAYER_RELU, VFY_LAYER_SIGMOID, VFY_LAYER_ERF},
    {VFY_LAYER_GELU, VFY_LAYER_ERFGATE, VFY_LAYER_GELU, VFY_LAYER_ERFGATE},
    {VFY_LAYER_SILU, VFY_LAYER_RELU, VFY_LAYER_TANH, VFY_LAYER_GELU},
};

/* Lines of any slope (what alpha-CROWN optimises), their intercepts certified on the alpha pieces
 * in round-to-nearest plus one bound of the rounding errors (act_cert): on thousands of random
 * intervals (saturated, wide, tiny, straddling) and slopes inside and outside f''s range, every
 * sampled point lies on the right side (no tolerance), and each intercept is within
 * f''max h^2 of the best one for its slope (h = (u - l)/16, the pieces) plus the grid's miss. */
START_TEST(test_act_any_slope)
{
    vfy_layer_kind kind = sact_kind(_i);
    double f2max = sact_f2max(_i), dmax = vfy_act_max_slope(kind);
    uint64_t st = 77 + (uint64_t)_i;
    int64_t n_lines = 0;
    for (int t = 0; t < 3000; t++) {
        double l, u;
        act_interval(&st, t % 7, &l, &u);
        if (!(l < u))
            continue;
        double a = dmax * (1.4 * testnet_uniform(&st) - 0.2); /* also below 0 and above max f' */
        if (t % 5 == 0)
            a = 0.0;
        int upper = t % 2;
        double c = vfy_bound_act_line(kind, l, u, a, upper);
        CHECKM(isfinite(c), "%s on [%.17g, %.17g], slope %.17g: no intercept", sact_name(_i),
               l, u, a);
        n_lines++;
        long double gap_min = INFINITY;
        const int G = 400;
        for (int g = 0; g <= G + 20; g++) {
            double z = g <= G ? l + (u - l) * g / G : l + (u - l) * testnet_uniform(&st);
            z = g == G ? u : (z < l ? l : (z > u ? u : z));
            long double gap = act_gap(kind, z, a, c); /* f(z) - (a z + c) */
            if (upper)
                gap = -gap;
            CHECKM(gap >= 0, "%s on [%.17g, %.17g], slope %.17g, %s intercept %.17g: gap %Lg at %.17g",
                   sact_name(_i), l, u, a, upper ? "upper" : "lower", c, gap, z);
            gap_min = gap < gap_min ? gap : gap_min;
        }
        double h = (u - l) / 16, step = (u - l) / G;
        double loss = f2max * (h * h + step * step / 8) + (dmax + fabs(a)) * step +
                      1e-12 * (1 + fabs(a) * fmax(fabs(l), fabs(u)));
        CHECKM(gap_min <= loss, "%s on [%.17g, %.17g], slope %.17g: gap %Lg above %g",
               sact_name(_i), l, u, a, gap_min, loss);
    }
    ck_assert(n_lines > 2000);
}
END_TEST

/* A tangent line is certified about exactly: for a slope a = f'(d) at a random d where f is concave
 * (upper line, d > 0) or convex (lower, d < 0), on random intervals around d where that tangent
 * bounds f (checked at 2,000 points), the intercept is within 1e-9 (1 + |a| max(|l|, |u|)) of the
 * tangent's own, f(d) - a d. (Before the piece holding the touch point was cut there, the loss was
 * about f'' h^2 with h = (u - l)/16: 5e-3 for a sigmoid on [-3.6, 3.6].) It still holds at every
 * sampled point, no tolerance. */
START_TEST(test_act_tangent_tight)
{
    vfy_layer_kind kind = sact_kind(_i);
    uint64_t st = 4242 + (uint64_t)_i;
    int64_t n_checked = 0;
    for (int t = 0; t < 2000; t++) {
        int upper = t % 2;
        double d = (0.05 + 5 * testnet_uniform(&st)) * (upper ? 1 : -1);
        double l = d - 8 * testnet_uniform(&st) - 1e-3, u = d + 8 * testnet_uniform(&st) + 1e-3;
        long double fd = act_ref(kind, d);
        double a = (double)sact_slope(kind, d);
        long double tangent = fd - (long double)a * d; /* the intercept through (d, f(d)) */
        int holds = 1;
        for (int g = 0; g <= 2000 && holds; g++) {
            double z = l + (u - l) * g / 2000;
            long double gap = act_gap(kind, z, a, (double)tangent);
            holds = upper ? gap <= 1e-15L : gap >= -1e-15L;
        }
        if (!holds)
            continue; /* the tangent at d does not bound f on [l, u]: another point decides */
        double c = vfy_bound_act_line(kind, l, u, a, upper);
        double H = fmax(fabs(l), fabs(u)), tol = 1e-9 * (1 + fabs(a) * H);
        long double loss = upper ? (long double)c - tangent : tangent - (long double)c;
        CHECKM(loss >= -1e-15L && loss <= tol, "%s on [%.17g, %.17g], tangent at %.17g (%s): "
               "intercept %.17g, loss %Lg", sact_name(_i), l, u, d,
               upper ? "upper" : "lower", c, loss);
        for (int g = 0; g <= 200; g++) {
            double z = g == 200 ? u : l + (u - l) * testnet_uniform(&st);
            long double gap = act_gap(kind, z, a, c);
            CHECKM(upper ? gap <= 0 : gap >= 0, "%s: line off at %.17g",
                   sact_name(_i), z);
        }
        n_checked++;
    }
    ck_assert(n_checked > 500);
}
END_TEST

/* The gated activations' lines and range (bound.c, "Gated activations"; _i / 2: GELU, SILU): on
 * thousands of random intervals (tiny, wide, straddling the minimum and the inflection points,
 * far in either tail) every sampled point lies between the lines and inside the range (long double
 * reference, no tolerance); the lines come within 4 f''max h^2 of f (h the certification's piece
 * width, f''max = 2 phi(0) < 0.8 for GELU, 1/2 for SILU) plus the grid's miss; on [-1, 1] and
 * [-3, 3] the lower bound is within 1e-8 of the least value. _i odd: the float semantics' range
 * widened by the allowance (2^-19 or 2^-18 times 1 + |z|) holds a value that far off. */
static long double gated_ref(vfy_layer_kind kind, long double z)
{
    if (kind == VFY_LAYER_SILU)
        return z / (1.0L + expl(-z));
    if (kind == VFY_LAYER_ERFGATE)
        return 0.5L * z * erfcl(-z);
    return 0.5L * z * erfcl(-z * 0.70710678118654752440084436210484903928L);
}

START_TEST(test_gated_lines)
{
    vfy_layer_kind kind = _i / 2 == 2 ? VFY_LAYER_ERFGATE
                        : _i / 2      ? VFY_LAYER_SILU : VFY_LAYER_GELU;
    const char *name = _i / 2 == 2 ? "erfgate" : _i / 2 ? "silu" : "gelu";
    double f2max = _i / 2 == 2 ? 1.129 : 0.8;
    int fsem = _i % 2;
    uint64_t st = 90 + (uint64_t)_i;
    for (int t = 0; t < 3000; t++) {
        double l, u, sl, tl, su, tu;
        act_interval(&st, t % 7, &l, &u);
        if (t % 11 == 0) { /* around the minimum (-0.75, -1.28) and the inflection -c */
            l = -3.0 + 2 * testnet_uniform(&st);
            u = l + 2 * testnet_uniform(&st);
        }
        vfy_bound_act_lines(kind, l, u, &sl, &tl, &su, &tu);
        CHECK(isfinite(sl) && isfinite(su) && !isnan(tl) && !isnan(tu));
        long double lo_gap = INFINITY, up_gap = INFINITY;
        const int G = 400;
        for (int g = 0; g <= G + 20; g++) {
            double z = g <= G ? l + (u - l) * g / G : l + (u - l) * testnet_uniform(&st);
            z = g == G ? u : (z < l ? l : (z > u ? u : z));
            long double f = gated_ref(kind, z);
            double p = sl * z, e = fma(sl, z, -p), q = su * z, r = fma(su, z, -q);
            long double a = ((f - tl) - p) - e, b = (((long double)tu - f) + q) + r;
            CHECKM(a >= 0 && b >= 0, "%s on [%.17g, %.17g] at %.17g: lower %.17g z + %.17g "
                   "(gap %Lg), upper %.17g z + %.17g (gap %Lg)", name, l, u, z, sl, tl, a, su,
                   tu, b);
            lo_gap = a < lo_gap ? a : lo_gap;
            up_gap = b < up_gap ? b : up_gap;
        }
        double h = (u - l) / 64, step = (u - l) / G;
        double loss = 4 * f2max * h * h + 1.2 * step + 1e-12 * (1 + fabs(sl * l) + fabs(su * u));
        if (u - l > 0x1p-20 && isfinite(tl) && isfinite(tu))
            CHECKM(lo_gap <= loss && up_gap <= loss, "%s on [%.17g, %.17g]: gaps %Lg %Lg above "
                   "%g", name, l, u, lo_gap, up_gap, loss);
    }
    /* the range: the least value; float semantics: widened */
    vfy_net *net = calloc(1, sizeof *net);
    net->n_in = net->n_out = 1;
    ck_assert_int_eq(vfy_net_push(net, kind, 1, 1, NULL, NULL, 0, 0, "gated", NULL), VFY_OK);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, fsem, &ctx, NULL), VFY_OK);
    vfy_bounds *b = vfy_bounds_create(ctx);
    static const double xs[][2] = {{-1, 1}, {-3, 3}, {0.5, 0.5}, {-40, -30}, {20, 21}, {-1, -0.9}};
    for (size_t q = 0; q < sizeof xs / sizeof xs[0]; q++) {
        double lo = xs[q][0], hi = xs[q][1];
        vfy_bound_widen_input(ctx, 1, &lo, &hi);
        ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, &lo, &hi, NULL, b), VFY_OK);
        double allow = !fsem ? 0
                     : (kind == VFY_LAYER_SILU ? 0x1p-18 : 0x1p-19) *
                           (1 + fmax(fabs(xs[q][0]), fabs(xs[q][1])));
        long double fmin = INFINITY;
        for (int g = 0; g <= 10000; g++) {
            double z = xs[q][0] + (xs[q][1] - xs[q][0]) * g / 10000;
            long double f = gated_ref(kind, z);
            fmin = f < fmin ? f : fmin;
            REQUIRE_MSG(b->lo[0][0] <= f - allow && f + allow <= b->hi[0][0],
                        "[%g, %g] at %g: %.20Lg not in [%.17g, %.17g] (allowance %g)", xs[q][0],
                        xs[q][1], z, f, b->lo[0][0], b->hi[0][0], allow);
        }
        if (q < 2) /* (the grid's least value is above the true one by f'' (h/2)^2 / 2 < 1e-8) */
            REQUIRE_MSG(b->lo[0][0] >= fmin - 1e-8 - 2 * allow, "[%g, %g]: lower bound %.17g, "
                        "least value %.17Lg", xs[q][0], xs[q][1], b->lo[0][0], fmin);
    }
    vfy_bounds_free(b);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* Random sigmoid/tanh (and mixed) networks: sampled points (double and float32 executions, and a
 * float32 execution with perturbed activations) lie in the IBP and CROWN bounds of every layer; the
 * rows' CROWN bounds hold at every sample and are never below IBP's; CROWN's output layer bounds
 * are not looser than IBP's beyond rounding. */
START_TEST(test_act_bounds_contain)
{
    const testnet_shape *sh = &testnet_shapes[_i % 4];
    const vfy_layer_kind *act = act_mixes[(_i / 4) % N_ALL_MIXES];
    int fsem = _i % 3 != 2;
    double scale = sh->scale * (_i % 2 ? 3.0 : 1.0); /* larger weights: saturated neurons */
    vfy_net *net = testnet_random_act(300 + (uint64_t)_i, sh->n_in, sh->hidden, sh->n_hidden, sh->n_out,
                                      scale, sh->with_scale, act);
    ck_assert_ptr_nonnull(net);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, fsem, &ctx, NULL), VFY_OK);
    vfy_bounds *bi = vfy_bounds_create(ctx), *bc = vfy_bounds_create(ctx);
    CHECK(bi && bc);
    uint64_t st = 2000 + (uint64_t)_i;
    double lo[16], hi[16], wlo[16], whi[16];
    for (int64_t j = 0; j < net->n_in; j++) {
        double c = 2 * testnet_uniform(&st) - 1, r = 0.02 + testnet_uniform(&st) * (_i < 8 ? 0.1 : 1.0);
        lo[j] = wlo[j] = c - r;
        hi[j] = whi[j] = c + r;
    }
    vfy_bound_widen_input(ctx, net->n_in, wlo, whi);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_IBP, wlo, whi, NULL, bi), VFY_OK);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo, whi, NULL, bc), VFY_OK);
    if (fsem) {
        check_contains(net, bi, lo, hi, 9 + (uint64_t)_i, 300);
        check_contains(net, bc, lo, hi, 9 + (uint64_t)_i, 300);
    }
    int64_t L = net->n_layers - 1, K = 3, ny = net->n_out, nx = net->n_in;
    for (int64_t j = 0; j < ny; j++) {
        CHECKM(bc->lo[L][j] >= bi->lo[L][j] - 1e-9 * (1 + fabs(bi->lo[L][j])) &&
                      bc->hi[L][j] <= bi->hi[L][j] + 1e-9 * (1 + fabs(bi->hi[L][j])),
                      "output %lld: crown [%.17g, %.17g], ibp [%.17g, %.17g]", (long long)j,
                      bc->lo[L][j], bc->hi[L][j], bi->lo[L][j], bi->hi[L][j]);
    }
    double cy[3 * 8], lbi[3], lbc[3];
    for (int64_t i = 0; i < K * ny; i++)
        cy[i] = (double)(int)(testnet_uniform(&st) * 5) - 2;
    ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_IBP, wlo, whi, bi, K, cy, NULL, lbi, NULL, NULL), VFY_OK);
    ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_CROWN, wlo, whi, bc, K, cy, NULL, lbc, NULL, NULL), VFY_OK);
    for (int i = 0; i < K; i++)
        CHECK(lbc[i] >= lbi[i] && isfinite(lbc[i]));
    /* alpha-CROWN and the branching scores on mixed nets: the bound only improves; a ReLU's
     * pre-activation scores only where it straddles 0, a Sigmoid/Tanh's wherever
     * vfy_bound_split_point can split it, and there always */
    double lba[3], *score = calloc((size_t)(vfy_bounds_flat_size(ctx) / 2), sizeof *score);
    ck_assert_int_eq(vfy_bound_rows_alpha(ctx, wlo, whi, bc, K, cy, NULL, NULL, 5, lba, NULL, NULL),
                     VFY_OK);
    ck_assert_int_eq(vfy_bound_relu_scores(ctx, wlo, whi, bc, K, cy, NULL, score, NULL), VFY_OK);
    for (int64_t k = 0, off = 0; k < net->n_layers; off += net->layers[k].n_out, k++)
        for (int64_t j = 0; j < net->layers[k].n_out; j++) {
            vfy_layer_kind nk = k + 1 < net->n_layers ? net->layers[k + 1].kind : VFY_LAYER_DENSE;
            double l = bc->lo[k][j], u = bc->hi[k][j];
            int s_shaped = vfy_layer_is_sshaped(nk) || vfy_layer_is_gated(nk);
            int clamped = !vfy_layer_is_act(net->layers[k].kind);
            if (s_shaped && clamped && j >= net->layers[k + 1].n_pass)
                CHECK((score[off + j] > 0) == !isnan(vfy_bound_split_point(l, u)));
            else
                CHECK(score[off + j] == 0 ||
                      (nk == VFY_LAYER_RELU && clamped && l < 0 && u > 0));
        }
    free(score);
    for (int i = 0; i < K; i++)
        CHECK(lba[i] >= lbc[i]);
    double x[16], y[8], scr[128], **acts = calloc((size_t)net->n_layers, sizeof *acts);
    float xf[16], yf[8];
    for (int64_t k = 0; k < net->n_layers; k++)
        acts[k] = malloc((size_t)net->layers[k].n_out * sizeof(double));
    for (int s = 0; s < 400; s++) {
        sample_point(&st, s, nx, lo, hi, x, xf);
        vfy_eval_forward_all(net, x, acts, NULL);
        for (int64_t k = 0; k < net->n_layers; k++)
            for (int64_t j = 0; j < net->layers[k].n_out; j++)
                CHECKM(bc->lo[k][j] <= acts[k][j] && acts[k][j] <= bc->hi[k][j] &&
                              bi->lo[k][j] <= acts[k][j] && acts[k][j] <= bi->hi[k][j],
                              "layer %lld neuron %lld: %.17g not in crown [%.17g, %.17g] or ibp",
                              (long long)k, (long long)j, acts[k][j], bc->lo[k][j], bc->hi[k][j]);
        vfy_eval_f64(net, x, y, scr);
        for (int i = 0; i < K; i++) {
            double v = 0;
            for (int64_t j = 0; j < ny; j++)
                v += cy[i * ny + j] * y[j];
            CHECKM(lbc[i] <= v && lba[i] <= v, "row %d: bound %.17g (alpha %.17g) above value %.17g",
                   i, lbc[i], lba[i], v);
        }
        if (fsem) {
            eval_f32_perturbed(net, xf, yf, 0x1p-21f);
            for (int64_t j = 0; j < ny; j++)
                CHECKM(bc->lo[L][j] <= (double)yf[j] && (double)yf[j] <= bc->hi[L][j],
                              "perturbed float32 output %lld: %.9g not in [%.17g, %.17g]",
                              (long long)j, (double)yf[j], bc->lo[L][j], bc->hi[L][j]);
            for (int i = 0; i < K; i++) {
                double v = 0;
                for (int64_t j = 0; j < ny; j++)
                    v += cy[i * ny + j] * (double)yf[j];
                CHECKM(lbc[i] <= v, "row %d: bound %.17g above perturbed float32 %.17g", i,
                              lbc[i], v);
            }
        }
    }
    for (int64_t k = 0; k < net->n_layers; k++)
        free(acts[k]);
    free(acts);
    vfy_bounds_free(bi);
    vfy_bounds_free(bc);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* Dense grids on 2-input sigmoid/tanh networks: every layer's value at every grid point lies inside
 * the CROWN bounds, and the CROWN rows hold at every grid point. */
START_TEST(test_act_grid_contains)
{
    int64_t hidden[4] = {10, 12, 10, 8};
    vfy_net *net = testnet_random_act(700 + (uint64_t)_i, 2, hidden, 3 + _i % 2, 3, _i % 2 ? 2.5 : 0.9,
                                      _i % 3 == 0, act_mixes[_i % N_ALL_MIXES]);
    ck_assert_ptr_nonnull(net);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, _i % 2, &ctx, NULL), VFY_OK);
    vfy_bounds *b = vfy_bounds_create(ctx);
    uint64_t st = 177 + (uint64_t)_i;
    double lo[2], hi[2], wlo[2], whi[2];
    for (int j = 0; j < 2; j++) {
        double c = 2 * testnet_uniform(&st) - 1, r = 0.2 + 0.8 * testnet_uniform(&st);
        lo[j] = wlo[j] = c - r;
        hi[j] = whi[j] = c + r;
    }
    vfy_bound_widen_input(ctx, 2, wlo, whi);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo, whi, NULL, b), VFY_OK);
    double cy[9] = {1, -1, 0, 0, 1, -1, -1, 0.5, 2}, lb[3], y[3], scr[64];
    ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_CROWN, wlo, whi, b, 3, cy, NULL, lb, NULL, NULL), VFY_OK);
    double **acts = calloc((size_t)net->n_layers, sizeof *acts);
    for (int64_t k = 0; k < net->n_layers; k++)
        acts[k] = malloc((size_t)net->layers[k].n_out * sizeof(double));
    const int G = 100;
    for (int a = 0; a <= G; a++)
        for (int c = 0; c <= G; c++) {
            double x[2] = {lo[0] + (hi[0] - lo[0]) * a / G, lo[1] + (hi[1] - lo[1]) * c / G};
            if (a == G)
                x[0] = hi[0];
            if (c == G)
                x[1] = hi[1];
            vfy_eval_forward_all(net, x, acts, NULL);
            for (int64_t k = 0; k < net->n_layers; k++)
                for (int64_t j = 0; j < net->layers[k].n_out; j++)
                    CHECKM(b->lo[k][j] <= acts[k][j] && acts[k][j] <= b->hi[k][j],
                                  "layer %lld neuron %lld: %.17g not in [%.17g, %.17g]",
                                  (long long)k, (long long)j, acts[k][j], b->lo[k][j], b->hi[k][j]);
            vfy_eval_f64(net, x, y, scr);
            for (int i = 0; i < 3; i++)
                CHECK(lb[i] <= cy[3 * i] * y[0] + cy[3 * i + 1] * y[1] + cy[3 * i + 2] * y[2]);
        }
    for (int64_t k = 0; k < net->n_layers; k++)
        free(acts[k]);
    free(acts);
    vfy_bounds_free(b);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* The float-execution allowance is charged where bounds are tight: a network that is one activation
 * layer, on point boxes. Its float semantics bounds (IBP and CROWN rows) must contain every value
 * within 2^-21 of f(x) (a runtime's activation kernel may be that far off: onnxruntime's measured
 * worst is 3.6e-7), and the real-only bounds stay within 1e-12 of f(x). */
START_TEST(test_act_exec_allowance)
{
    vfy_layer_kind kind = sact_kind(_i);
    vfy_net *net = calloc(1, sizeof *net);
    net->n_in = net->n_out = 1;
    ck_assert_int_eq(vfy_net_push(net, kind, 1, 1, NULL, NULL, 0, 0, "act", NULL), VFY_OK);
    static const double xs[] = {0.3, -0.3, 0, 2.5, -4, 17, -17, 40, -40, 1e-30};
    for (int fs = 0; fs <= 1; fs++) {
        vfy_bound_ctx *ctx;
        ck_assert_int_eq(vfy_bound_ctx_create(net, fs, &ctx, NULL), VFY_OK);
        vfy_bounds *b = vfy_bounds_create(ctx);
        for (size_t t = 0; t < sizeof xs / sizeof xs[0]; t++) {
            double lo = xs[t], hi = xs[t], cy[2] = {1, -1}, lb[2];
            long double f = act_ref(kind, xs[t]);
            vfy_bound_widen_input(ctx, 1, &lo, &hi);
            for (int m = 0; m < 2; m++) {
                vfy_bound_method meth = m ? VFY_BOUND_CROWN : VFY_BOUND_IBP;
                ck_assert_int_eq(vfy_bound_layers(ctx, meth, &lo, &hi, NULL, b), VFY_OK);
                ck_assert_int_eq(vfy_bound_rows(ctx, meth, &lo, &hi, b, 2, cy, NULL, lb, NULL, NULL),
                                 VFY_OK);
                double blo = m ? lb[0] : b->lo[0][0], bhi = m ? -lb[1] : b->hi[0][0];
                if (fs)
                    REQUIRE_MSG(blo <= f - 0x1p-21L && bhi >= f + 0x1p-21L,
                                "x = %g: [%.17g, %.17g] misses f(x) +- 2^-21", xs[t], blo, bhi);
                else
                    REQUIRE_MSG(blo <= f && bhi >= f && bhi - blo <= 1e-12,
                                "x = %g: real bounds [%.17g, %.17g]", xs[t], blo, bhi);
            }
        }
        vfy_bounds_free(b);
        vfy_bound_ctx_free(ctx);
    }
    vfy_net_free(net);
}
END_TEST

/* CROWN gains on sigmoid networks (the reason for the lines), and a bounds object serves contexts
 * with and without the float semantics alternately without mixing their allowances up. */
START_TEST(test_act_crown_tighter)
{
    int64_t hidden[3] = {20, 20, 20};
    vfy_net *net = testnet_random_act(42, 5, hidden, 3, 5, 0.5, 0, act_mixes[0]);
    vfy_bound_ctx *cf, *cr;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &cf, NULL), VFY_OK);
    ck_assert_int_eq(vfy_bound_ctx_create(net, 0, &cr, NULL), VFY_OK);
    vfy_bounds *b = vfy_bounds_create(cf);
    double lo[5], hi[5];
    for (int j = 0; j < 5; j++) {
        lo[j] = -0.5;
        hi[j] = 0.5;
    }
    double cy[5] = {1, -1, 0, 0, 0}, lbi, lbc, lbr, lbf;
    vfy_bound_layers(cf, VFY_BOUND_IBP, lo, hi, NULL, b);
    vfy_bound_rows(cf, VFY_BOUND_IBP, lo, hi, b, 1, cy, NULL, &lbi, NULL, NULL);
    vfy_bound_layers(cf, VFY_BOUND_CROWN, lo, hi, NULL, b);
    vfy_bound_rows(cf, VFY_BOUND_CROWN, lo, hi, b, 1, cy, NULL, &lbc, NULL, NULL);
    CHECKM(lbc > lbi, "crown %g ibp %g", lbc, lbi);
    vfy_bound_layers(cr, VFY_BOUND_CROWN, lo, hi, NULL, b);
    vfy_bound_rows(cr, VFY_BOUND_CROWN, lo, hi, b, 1, cy, NULL, &lbr, NULL, NULL);
    vfy_bound_layers(cf, VFY_BOUND_CROWN, lo, hi, NULL, b);
    vfy_bound_rows(cf, VFY_BOUND_CROWN, lo, hi, b, 1, cy, NULL, &lbf, NULL, NULL);
    CHECKM(lbr > lbc && lbf == lbc, "real %.17g, float %.17g then %.17g", lbr, lbc, lbf);
    vfy_bounds_free(b);
    vfy_bound_ctx_free(cf);
    vfy_bound_ctx_free(cr);
    vfy_net_free(net);
}
END_TEST

/* A random box of n inputs: per input a centre in [-1, 1] and a radius r0 + rw u, drawn from *st;
 * [wlo, whi] is the box widened for float32 inputs (vfy_bound_widen_input). */
static void random_box(uint64_t *st, int64_t n, double r0, double rw, const vfy_bound_ctx *ctx,
                       double *lo, double *hi, double *wlo, double *whi)
{
    for (int64_t j = 0; j < n; j++) {
        double c = 2 * testnet_uniform(st) - 1, r = r0 + rw * testnet_uniform(st);
        lo[j] = wlo[j] = c - r;
        hi[j] = whi[j] = c + r;
    }
    vfy_bound_widen_input(ctx, n, wlo, whi);
}

/* A random network with several ReLU layers (shape by i), its context, and a random input box:
 * per input a centre in [-1, 1] and a radius r0 + 0.5 u, drawn from *st; [wlo, whi] is the box
 * widened for float32 inputs. */
static vfy_net *random_multilayer(int i, uint64_t seed, uint64_t *st, double r0,
                                  vfy_bound_ctx **ctx, double *lo, double *hi, double *wlo,
                                  double *whi)
{
    const testnet_shape *sh = &testnet_shapes[1 + i % 2];
    vfy_net *net = testnet_random(seed, sh->n_in, sh->hidden, sh->n_hidden, sh->n_out, sh->scale,
                                  sh->with_scale);
    ck_assert_ptr_nonnull(net);
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, ctx, NULL), VFY_OK);
    random_box(st, net->n_in, r0, 0.5, *ctx, lo, hi, wlo, whi);
    return net;
}

/* Asserts that no bound of bt is looser than bc's; returns how many neurons bt tightened. */
static int64_t tightened(const vfy_net *net, const vfy_bounds *bc, const vfy_bounds *bt)
{
    int64_t strict = 0;
    for (int64_t k = 0; k < net->n_layers; k++)
        for (int64_t j = 0; j < net->layers[k].n_out; j++) {
            REQUIRE(bt->lo[k][j] >= bc->lo[k][j] && bt->hi[k][j] <= bc->hi[k][j]);
            strict += bt->lo[k][j] > bc->lo[k][j] || bt->hi[k][j] < bc->hi[k][j];
        }
    return strict;
}

/* alpha-CROWN on the hidden layers: every layer's bounds still contain every sampled execution (no
 * tolerance), none is looser than CROWN's, and some are tighter; from case 6 on, with ideal upper
 * facets (vfy_bound_ctx_set_facets: the prefix contexts take the setting). */
START_TEST(test_tighten_alpha_sound)
{
    uint64_t st = 50 + (uint64_t)_i;
    double lo[16], hi[16], wlo[16], whi[16];
    vfy_bound_ctx *ctx;
    vfy_net *net = random_multilayer(_i, 700 + (uint64_t)_i, &st, 0.2, &ctx, lo, hi, wlo, whi);
    vfy_bound_ctx_set_facets(ctx, _i >= 6);
    vfy_bounds *bc = vfy_bounds_create(ctx), *bt = vfy_bounds_create(ctx);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo, whi, NULL, bc), VFY_OK);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo, whi, NULL, bt), VFY_OK);
    int64_t n_t = 0;
    ck_assert_int_eq(vfy_bound_tighten_alpha(ctx, wlo, whi, bt, 20, NULL, &n_t), VFY_OK);
    int64_t strict = tightened(net, bc, bt);
    ck_assert(n_t > 0 && strict > 0);
    check_contains(net, bt, lo, hi, 9 + (uint64_t)_i, 400);
    vfy_bounds_free(bc);
    vfy_bounds_free(bt);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* alpha-CROWN on the hidden layers charges every rounding error and the float32 execution
 * allowance: the bounds it gives the second ReLU layer's pre-activations are exactly those of
 * vfy_bound_rows_alpha on the network's prefix bounded by vfy_bound_layers (whose layer bounds
 * carry the rounding coefficients). The prefix's bounds once lacked them (copied layer bounds
 * only): the tightened hidden bounds were missing the float32 allowance, unsound for a float32
 * execution. */
START_TEST(test_tighten_alpha_charges_rounding)
{
    uint64_t st = 90 + (uint64_t)_i;
    double lo[16], hi[16], wlo[16], whi[16];
    vfy_bound_ctx *ctx;
    vfy_net *net = random_multilayer(_i, 760 + (uint64_t)_i, &st, 0.3, &ctx, lo, hi, wlo, whi);
    vfy_bounds *bt = vfy_bounds_create(ctx);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo, whi, NULL, bt), VFY_OK);
    /* the second ReLU layer k2 (the first one tightening touches), its unstable neurons */
    int64_t k2 = -1, seen = 0;
    for (int64_t k = 1; k < net->n_layers && k2 < 0; k++)
        if (net->layers[k].kind == VFY_LAYER_RELU && seen++ == 1)
            k2 = k;
    ck_assert(k2 > 0);
    int64_t m = k2 - 1, n_out = net->layers[m].n_out, idx[64], n = 0;
    double old_lo[64], old_hi[64];
    for (int64_t j = 0; j < n_out; j++)
        if (bt->lo[m][j] < 0 && bt->hi[m][j] > 0) {
            old_lo[n] = bt->lo[m][j];
            old_hi[n] = bt->hi[m][j];
            idx[n++] = j;
        }
    ck_assert(n > 0 && 2 * n < 64); /* one chunk of rows */
    int64_t n_t = 0;
    ck_assert_int_eq(vfy_bound_tighten_alpha(ctx, wlo, whi, bt, 20, NULL, &n_t), VFY_OK);
    vfy_net pre = *net;
    pre.n_layers = k2;
    pre.n_out = n_out;
    vfy_bound_ctx *pc;
    ck_assert_int_eq(vfy_bound_ctx_create(&pre, 1, &pc, NULL), VFY_OK);
    vfy_bounds *pb = vfy_bounds_create(pc);
    ck_assert_int_eq(vfy_bound_layers(pc, VFY_BOUND_CROWN, wlo, whi, NULL, pb), VFY_OK);
    double cy[64 * 64] = {0}, out[64];
    for (int64_t r = 0; r < 2 * n; r++)
        cy[r * n_out + idx[r / 2]] = r % 2 ? -1.0 : 1.0;
    ck_assert_int_eq(vfy_bound_rows_alpha(pc, wlo, whi, pb, 2 * n, cy, NULL, NULL, 20, out, NULL,
                                          NULL), VFY_OK);
    int64_t differ = 0;
    for (int64_t a = 0; a < n; a++) {
        int64_t j = idx[a];
        double want_lo = fmax(old_lo[a], out[2 * a]), want_hi = fmin(old_hi[a], -out[2 * a + 1]);
        differ += bt->lo[m][j] != want_lo || bt->hi[m][j] != want_hi;
    }
    REQUIRE_MSG(differ == 0, "%lld of %lld neurons differ", (long long)differ, (long long)n);
    ck_assert(n_t > 0);
    vfy_bounds_free(pb);
    vfy_bound_ctx_free(pc);
    vfy_bounds_free(bt);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* The root's hidden-bound slopes kept for its domains (vfy_bound_slopes): alpha-CROWN on the
 * hidden layers records them, and CROWN on a sub-box (a domain) that starts from them contains
 * every sampled execution (no tolerance) and bounds some hidden neuron tighter than CROWN's default
 * slopes; past the size limit none are kept. */
START_TEST(test_root_slopes)
{
    uint64_t st = 120 + (uint64_t)_i;
    double lo[16], hi[16], wlo[16], whi[16];
    vfy_bound_ctx *ctx;
    vfy_net *net = random_multilayer(_i, 780 + (uint64_t)_i, &st, 0.3, &ctx, lo, hi, wlo, whi);
    vfy_bounds *b0 = vfy_bounds_create(ctx), *bp = vfy_bounds_create(ctx);
    vfy_bounds *bs = vfy_bounds_create(ctx);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo, whi, NULL, b0), VFY_OK);
    ck_assert_ptr_null(vfy_bound_slopes_create(ctx, b0, 16));
    vfy_bound_slopes *sl = vfy_bound_slopes_create(ctx, b0, (size_t)1 << 26);
    ck_assert_ptr_nonnull(sl);
    ck_assert_int_eq(vfy_bound_slopes_recorded(sl), 0);
    vfy_bounds_use_slopes(b0, sl);
    int64_t n_t = 0;
    ck_assert_int_eq(vfy_bound_tighten_alpha(ctx, wlo, whi, b0, 20, NULL, &n_t), VFY_OK);
    ck_assert(vfy_bound_slopes_recorded(sl) > 0);
    /* a domain: the box with a margin cut from every side */
    int64_t nx = net->n_in;
    double dlo[16], dhi[16], dwlo[16], dwhi[16];
    for (int64_t j = 0; j < nx; j++) {
        double w = hi[j] - lo[j];
        dlo[j] = dwlo[j] = lo[j] + 0.1 * w;
        dhi[j] = dwhi[j] = hi[j] - 0.1 * w;
    }
    vfy_bound_widen_input(ctx, nx, dwlo, dwhi);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, dwlo, dwhi, NULL, bp), VFY_OK);
    vfy_bounds_use_slopes(bs, sl);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, dwlo, dwhi, NULL, bs), VFY_OK);
    check_contains(net, bs, dlo, dhi, 31 + (uint64_t)_i, 400);
    int64_t tighter_n = 0;
    for (int64_t k = 0; k < net->n_layers; k++)
        for (int64_t j = 0; j < net->layers[k].n_out; j++)
            tighter_n += bs->lo[k][j] > bp->lo[k][j] || bs->hi[k][j] < bp->hi[k][j];
    REQUIRE_MSG(tighter_n > 0, "no bound tighter with the root's slopes");
    vfy_bounds_use_slopes(b0, NULL);
    vfy_bounds_use_slopes(bs, NULL);
    vfy_bound_slopes_free(sl);
    vfy_bounds_free(b0);
    vfy_bounds_free(bp);
    vfy_bounds_free(bs);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* alpha-CROWN on the hidden layers shared by threads: a layer's rows run in chunks fixed by their
 * count alone, so with 1, 2 or 3 threads every bound is the same double; enough unstable neurons
 * (ReLU, and Sigmoid in the second net) that each layer splits into several chunks; every sample
 * inside. */
START_TEST(test_tighten_alpha_threads)
{
    int64_t hidden[3] = {120, 120, 120};
    static const vfy_layer_kind acts[2][3] = {
        {VFY_LAYER_RELU, VFY_LAYER_RELU, VFY_LAYER_RELU},
        {VFY_LAYER_SIGMOID, VFY_LAYER_RELU, VFY_LAYER_SIGMOID}};
    vfy_net *net = testnet_random_act(950 + (uint64_t)_i, 6, hidden, 3, 3, 0.4, 0, acts[_i]);
    ck_assert_ptr_nonnull(net);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
    uint64_t st = 41 + (uint64_t)_i;
    double lo[6], hi[6], wlo[6], whi[6];
    random_box(&st, 6, 0.5, 0.5, ctx, lo, hi, wlo, whi);
    vfy_bounds *b[3];
    int64_t n_t[3];
    for (int t = 0; t < 3; t++) {
        vfy_bound_ctx_set_threads(ctx, t + 1);
        b[t] = vfy_bounds_create(ctx);
        ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo, whi, NULL, b[t]), VFY_OK);
        if (t == 0) { /* the rows of a layer after the first make several chunks (>= 2 x 64) */
            int64_t unstable = 0;
            for (int64_t j = 0; j < 120; j++) { /* (a Sigmoid neuron is tightened unless a point) */
                double l = b[0]->lo[4][j], u = b[0]->hi[4][j];
                unstable += acts[_i][2] == VFY_LAYER_RELU ? l < 0 && u > 0 : l < u;
            }
            REQUIRE_MSG(unstable >= 64, "%lld unstable", (long long)unstable);
        }
        ck_assert_int_eq(vfy_bound_tighten_alpha(ctx, wlo, whi, b[t], 8, NULL, &n_t[t]), VFY_OK);
    }
    ck_assert(n_t[0] > 0 && n_t[1] == n_t[0] && n_t[2] == n_t[0]);
    for (int t = 1; t < 3; t++)
        for (int64_t k = 0; k < net->n_layers; k++)
            for (int64_t j = 0; j < net->layers[k].n_out; j++)
                REQUIRE(b[t]->lo[k][j] == b[0]->lo[k][j] && b[t]->hi[k][j] == b[0]->hi[k][j]);
    check_contains(net, b[1], lo, hi, 5 + (uint64_t)_i, 300);
    for (int t = 0; t < 3; t++)
        vfy_bounds_free(b[t]);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* Warm starts of alpha/beta-CROWN (vfy_bound_alpha_warm): (a) starting from a previous call's best
 * parameters, one pass gets that call's bound back (up to the float32 storage of the slopes);
 * (b) whatever the warm values (NaN, out of range, random), every sampled point's row value is at
 * least the bound (no tolerance); (c) a warm start for another number of rows is ignored. */
START_TEST(test_alpha_warm)
{
    uint64_t st = 90 + (uint64_t)_i;
    double lo[16], hi[16], wlo[16], whi[16];
    vfy_bound_ctx *ctx;
    vfy_net *net = random_multilayer(_i, 950 + (uint64_t)_i, &st, 0.2, &ctx, lo, hi, wlo, whi);
    vfy_bounds *b = vfy_bounds_create(ctx);
    int64_t nx = net->n_in, ny = net->n_out, R = vfy_bound_ctx_n_relu(ctx);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo, whi, NULL, b), VFY_OK);
    enum { K = 3 };
    double cy[K * 8], lb1[K], lb2[K], lb3[K];
    ck_assert(ny <= 8);
    for (int64_t i = 0; i < K * ny; i++)
        cy[i] = (double)(int)(testnet_uniform(&st) * 5) - 2;
    float *warm = malloc((size_t)(K * R + 1) * sizeof(float));
    ck_assert_int_eq(vfy_bound_rows_alpha(ctx, wlo, whi, b, K, cy, NULL, NULL, 12, lb1, NULL, NULL),
                     VFY_OK);
    for (int i = 0; i < K; i++)
        ck_assert(vfy_bound_best_warm(ctx, b, i, warm + i * R));
    vfy_bound_alpha_warm(b, K, warm, 0);
    ck_assert_int_eq(vfy_bound_rows_alpha(ctx, wlo, whi, b, K, cy, NULL, NULL, 1, lb2, NULL, NULL),
                     VFY_OK);
    for (int i = 0; i < K; i++)
        REQUIRE_MSG(lb2[i] >= lb1[i] - 1e-6 * (1 + fabs(lb1[i])), "row %d: %g after a warm "
                    "start, %g before", i, lb2[i], lb1[i]);
    /* (b) garbage: NaN, negative, above 1, random */
    for (int64_t q = 0; q < K * R; q++) {
        int t = (int)(testnet_uniform(&st) * 4);
        warm[q] = t == 0 ? NAN : t == 1 ? -1.0f : t == 2 ? 2.0f : (float)testnet_uniform(&st);
    }
    vfy_bound_alpha_warm(b, K, warm, 0);
    ck_assert_int_eq(vfy_bound_rows_alpha(ctx, wlo, whi, b, K, cy, NULL, NULL, 4, lb3, NULL, NULL),
                     VFY_OK);
    double *acts[16] = {0}, x[16];
    ck_assert(net->n_layers <= 16);
    for (int64_t k = 0; k < net->n_layers; k++)
        acts[k] = malloc((size_t)net->layers[k].n_out * sizeof(double));
    for (int t = 0; t < 1000; t++) {
        for (int64_t j = 0; j < nx; j++)
            x[j] = lo[j] + testnet_uniform(&st) * (hi[j] - lo[j]);
        vfy_eval_forward_all(net, x, acts, NULL);
        const double *y = acts[net->n_layers - 1];
        for (int i = 0; i < K; i++) {
            double v = 0;
            for (int64_t j = 0; j < ny; j++)
                v += cy[i * ny + j] * y[j];
            REQUIRE_MSG(v >= lb3[i], "row %d: value %g below the bound %g", i, v, lb3[i]);
        }
    }
    /* (c) K differs: ignored, the call runs as without it */
    vfy_bound_alpha_warm(b, K + 1, warm, 0);
    ck_assert_int_eq(vfy_bound_rows_alpha(ctx, wlo, whi, b, K, cy, NULL, NULL, 12, lb2, NULL, NULL),
                     VFY_OK);
    for (int i = 0; i < K; i++)
        ck_assert(lb2[i] == lb1[i]);
    for (int64_t k = 0; k < net->n_layers; k++)
        free(acts[k]);
    free(warm);
    vfy_bounds_free(b);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* A split domain: up to 3 unstable ReLU inputs of b (one per layer, deepest
 * first), each given the sign it has at x0, clamped into b's bounds (vfy_bound_layers with the
 * prior). With off (bounds as constraints) instead: each a random sign and an offset between its
 * value at x0 and the layer bound, sign (z - off) >= 0 holding at x0; b is left as it is. Returns
 * the number of splits. */
static int64_t split_domain(const vfy_net *net, const vfy_bound_ctx *ctx, vfy_bounds *b,
                            const double *wlo, const double *whi, const double *x0, uint64_t *st,
                            int64_t *idx, int64_t *kq, int64_t *jq, signed char *sg, double *off)
{
    int64_t F = vfy_bounds_flat_size(ctx), half = F / 2, n_sp = 0;
    double *flat = malloc((size_t)F * sizeof(double));
    double *acts[16] = {0};
    for (int64_t k = 0; k < net->n_layers; k++)
        acts[k] = malloc((size_t)net->layers[k].n_out * sizeof(double));
    vfy_eval_forward_all(net, x0, acts, NULL);
    vfy_bounds_export(ctx, b, flat);
    for (int64_t k = net->n_layers - 2, foff; k >= 0 && n_sp < 3; k--) {
        if (net->layers[k + 1].kind != VFY_LAYER_RELU)
            continue;
        foff = 0;
        for (int64_t t = 0; t < k; t++)
            foff += net->layers[t].n_out;
        for (int64_t j = 0; j < net->layers[k].n_out; j++) {
            if (!(b->lo[k][j] < 0 && b->hi[k][j] > 0) || testnet_uniform(st) < 0.5)
                continue;
            double z = acts[k][j];
            idx[n_sp] = foff + j;
            kq[n_sp] = k;
            jq[n_sp] = j;
            if (off) {
                sg[n_sp] = testnet_uniform(st) < 0.5 ? 1 : -1;
                off[n_sp] = sg[n_sp] > 0 ? z - 0.3 * (z - b->lo[k][j])
                                         : z + 0.3 * (b->hi[k][j] - z);
            } else {
                sg[n_sp] = z >= 0 ? 1 : -1;
                flat[(sg[n_sp] > 0 ? 0 : half) + foff + j] = 0;
            }
            n_sp++;
            break;
        }
    }
    if (!off)
        ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo, whi, flat, b), VFY_OK);
    for (int64_t k = 0; k < net->n_layers; k++)
        free(acts[k]);
    free(flat);
    return n_sp;
}

/* For the constraints sign_q (z_q - off_q) >= 0, q < n (z_q: neuron jq[q] of layer kq[q], flat
 * index idx[q]; off NULL: 0, branching splits), x0 in the region: K random rows bounded by
 * alpha/beta-CROWN on b satisfy, at every sampled input of the region (half uniform on the box
 * [lo, hi], half near x0),
 *   row(x) - sum_q beta_q sign_q (z_q(x) - off_q) >= lb
 * for the multipliers of the pass that gave lb (vfy_bound_best_params), hence row(x) >= lb (no
 * tolerance). */
static void require_constraints_sound(const vfy_net *net, const vfy_bound_ctx *ctx, vfy_bounds *b,
                                      const double *lo, const double *hi, const double *wlo,
                                      const double *whi, const double *x0, uint64_t *st,
                                      int64_t n, const int64_t *idx, const int64_t *kq,
                                      const int64_t *jq, const signed char *sg, const double *off)
{
    int64_t nx = net->n_in, ny = net->n_out, half = vfy_bounds_flat_size(ctx) / 2;
    enum { K = 3 };
    double cy[K * 8], lb[K], beta[K][3], *acts[16] = {0}, x[16];
    ck_assert(net->n_layers <= 16 && ny <= 8 && nx <= 16 && n <= 3);
    for (int64_t k = 0; k < net->n_layers; k++)
        acts[k] = malloc((size_t)net->layers[k].n_out * sizeof(double));
    for (int64_t i = 0; i < K * ny; i++)
        cy[i] = (double)(int)(testnet_uniform(st) * 5) - 2;
    vfy_splits sp = {n, idx, sg, off};
    ck_assert_int_eq(vfy_bound_rows_alpha(ctx, wlo, whi, b, K, cy, NULL, &sp, 20, lb, NULL, NULL),
                     VFY_OK);
    double *af = malloc((size_t)half * sizeof(double));
    for (int i = 0; i < K; i++)
        ck_assert(vfy_bound_best_params(ctx, b, i, af, beta[i]));
    free(af);
    int on = 0;
    for (int t = 0; t < 20000; t++) {
        for (int64_t j = 0; j < nx; j++) {
            double r = testnet_uniform(st);
            x[j] = t % 2 ? lo[j] + r * (hi[j] - lo[j])
                         : fmin(hi[j], fmax(lo[j], x0[j] + (r - 0.5) * 0.1 * (hi[j] - lo[j])));
        }
        vfy_eval_forward_all(net, x, acts, NULL);
        int in = 1;
        for (int64_t q = 0; q < n; q++)
            in &= sg[q] * (acts[kq[q]][jq[q]] - (off ? off[q] : 0.0)) >= 0;
        if (!in)
            continue;
        on++;
        const double *y = acts[net->n_layers - 1];
        for (int i = 0; i < K; i++) {
            double v = 0, lag = 0;
            for (int64_t j = 0; j < ny; j++)
                v += cy[i * ny + j] * y[j];
            for (int64_t q = 0; q < n; q++)
                lag += beta[i][q] * sg[q] * (acts[kq[q]][jq[q]] - (off ? off[q] : 0.0));
            REQUIRE_MSG(v >= lb[i], "row %d: value %.17g below the bound %.17g", i, v, lb[i]);
            REQUIRE_MSG(v - lag >= lb[i], "row %d: Lagrangian %.17g below the bound %.17g "
                        "(beta %g %g %g)", i, v - lag, lb[i], beta[i][0], n > 1 ? beta[i][1] : 0,
                        n > 2 ? beta[i][2] : 0);
        }
    }
    REQUIRE_MSG(on > 100, "only %d samples in the region", on);
    for (int64_t k = 0; k < net->n_layers; k++)
        free(acts[k]);
}

/* Random network i (seeds st0, net_seed) and point x0 in its box; up to 3 unstable neurons as
 * split_domain picks them (with_offsets: bounds as constraints, else splits):
 * require_constraints_sound. */
static void constraints_case(int i, uint64_t st0, uint64_t net_seed, int with_offsets,
                             int facets)
{
    uint64_t st = st0;
    double lo[16], hi[16], wlo[16], whi[16], x0[16], off[3];
    vfy_bound_ctx *ctx;
    vfy_net *net = random_multilayer(i, net_seed, &st, 0.3, &ctx, lo, hi, wlo, whi);
    vfy_bound_ctx_set_facets(ctx, facets);
    ck_assert_int_eq(vfy_bound_ctx_facets(ctx), facets); /* (every layer's fan-in is small) */
    vfy_bounds *b = vfy_bounds_create(ctx);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo, whi, NULL, b), VFY_OK);
    int64_t idx[3], kq[3], jq[3];
    signed char sg[3];
    for (int64_t j = 0; j < net->n_in; j++)
        x0[j] = lo[j] + testnet_uniform(&st) * (hi[j] - lo[j]);
    double *offs = with_offsets ? off : NULL;
    int64_t n = split_domain(net, ctx, b, wlo, whi, x0, &st, idx, kq, jq, sg, offs);
    ck_assert_int_gt(n, 0);
    require_constraints_sound(net, ctx, b, lo, hi, wlo, whi, x0, &st, n, idx, kq, jq, sg, offs);
    vfy_bounds_free(b);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}

/* beta-CROWN on a split domain: random splits of unstable neurons (several layers, both signs),
 * each with its sign at a random point x0 (so the domain is not empty), the layer bounds clamped
 * accordingly. */
START_TEST(test_beta_sound)
{
    constraints_case(_i, 300 + (uint64_t)_i, 1200 + (uint64_t)_i, 0, 0);
}
END_TEST

/* The same with ideal upper facets (vfy_bound_ctx_set_facets), splits and bounds as constraints:
 * every sampled point of the region is above each row's bound, with no tolerance. */
START_TEST(test_facets_sound)
{
    constraints_case(_i, 7300 + (uint64_t)_i, 7700 + (uint64_t)_i, _i % 2, 1);
}
END_TEST

/* Domain d of a batch test: its layer bounds *b (CROWN over [wlo, whi]), a point x0 of its box
 * [lo, hi], up to 3 splits there (domains after the first; split_domain), and K random rows cy. */
static void batch_domain(const vfy_net *net, const vfy_bound_ctx *ctx, int d, uint64_t *st,
                         const double *lo, const double *hi, const double *wlo, const double *whi,
                         vfy_bounds **b, double *x0, int64_t *idx, int64_t *kq, int64_t *jq,
                         signed char *sg, int64_t *n_sp, vfy_splits *sp, int64_t K, double *cy)
{
    *b = vfy_bounds_create(ctx);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo, whi, NULL, *b), VFY_OK);
    for (int64_t j = 0; j < net->n_in; j++)
        x0[j] = lo[j] + testnet_uniform(st) * (hi[j] - lo[j]);
    *n_sp = d > 0 ? split_domain(net, ctx, *b, wlo, whi, x0, st, idx, kq, jq, sg, NULL) : 0;
    *sp = (vfy_splits){*n_sp, idx, sg, NULL};
    for (int64_t i = 0; i < K * net->n_out; i++)
        cy[i] = (double)(int)(testnet_uniform(st) * 5) - 2;
}

/* The domains of a batch test (at most BATCH_D, of at most BATCH_K rows): a random multilayer
 * net (random_multilayer's case i and seed), facets on or off, domain 0 on the net's own box,
 * domain d > 0 on a random box of radius 0.1 + 0.1 d, each with its layer bounds, point, splits
 * and rows (batch_domain). */
enum { BATCH_D = 3, BATCH_K = 3 };
typedef struct {
    vfy_net *net;
    vfy_bound_ctx *ctx;
    int D;
    double lo[BATCH_D][16], hi[BATCH_D][16], wlo[BATCH_D][16], whi[BATCH_D][16], x0[BATCH_D][16];
    vfy_bounds *b[BATCH_D];
    int64_t idx[BATCH_D][3], kq[BATCH_D][3], jq[BATCH_D][3], n_sp[BATCH_D];
    signed char sg[BATCH_D][3];
    vfy_splits sp[BATCH_D];
    double cy[BATCH_D][BATCH_K * 8];
} batch_fixture;

static void batch_fixture_init(batch_fixture *f, int D, int64_t K, int i, uint64_t net_seed,
                               uint64_t *st, int facets)
{
    ck_assert(D <= BATCH_D && K <= BATCH_K);
    memset(f, 0, sizeof *f);
    f->D = D;
    f->net = random_multilayer(i, net_seed, st, 0.3, &f->ctx, f->lo[0], f->hi[0], f->wlo[0],
                               f->whi[0]);
    vfy_bound_ctx_set_facets(f->ctx, facets);
    ck_assert(f->net->n_in <= 16 && f->net->n_out <= 8 && f->net->n_layers <= 16);
    for (int d = 1; d < D; d++)
        random_box(st, f->net->n_in, 0.1 + 0.1 * d, 0.5, f->ctx, f->lo[d], f->hi[d], f->wlo[d],
                   f->whi[d]);
    for (int d = 0; d < D; d++)
        batch_domain(f->net, f->ctx, d, st, f->lo[d], f->hi[d], f->wlo[d], f->whi[d], &f->b[d],
                     f->x0[d], f->idx[d], f->kq[d], f->jq[d], f->sg[d], &f->n_sp[d], &f->sp[d], K,
                     f->cy[d]);
}

static void batch_fixture_free(batch_fixture *f)
{
    for (int d = 0; d < f->D; d++)
        vfy_bounds_free(f->b[d]);
    vfy_bound_ctx_free(f->ctx);
    vfy_net_free(f->net);
}

/* Several domains in one batch with facets (vfy_bound_rows_alpha_batch: the rows of all domains
 * through each layer, their facets' coefficients per row), with splits, an early stop packing
 * rows out, and rows with input terms: every sampled point of each domain's region is above each
 * of its rows' bounds, with no tolerance. */
START_TEST(test_facets_batch_sound)
{
    enum { D = 3, K = 3 };
    uint64_t st = 7900 + (uint64_t)_i;
    batch_fixture fx;
    batch_fixture_init(&fx, D, K, _i, 8100 + (uint64_t)_i, &st, 1);
    vfy_net *net = fx.net;
    vfy_bound_ctx *ctx = fx.ctx;
    ck_assert(vfy_bound_ctx_facets(ctx));
    int64_t nx = net->n_in, ny = net->n_out;
    vfy_bounds *work = vfy_bounds_create(ctx);
    double cx[K * 16], lb[D][K], stop[K] = {-1e-3, 1e30, 1e30};
    vfy_alpha_job jobs[D];
    for (int d = 0; d < D; d++) {
        jobs[d] = (vfy_alpha_job){fx.b[d], fx.wlo[d], fx.whi[d], K, fx.cy[d], d == 2 ? cx : NULL,
                                  fx.n_sp[d] ? &fx.sp[d] : NULL, NULL, 0, 0, lb[d], NULL, NULL,
                                  NULL, 0, d == 1 ? stop : NULL, NULL, NULL};
    }
    for (int64_t i = 0; i < K * nx; i++)
        cx[i] = testnet_uniform(&st) - 0.5;
    ck_assert_int_eq(vfy_bound_rows_alpha_batch(ctx, work, D, jobs, 20), VFY_OK);
    double *acts[16] = {0}, x[16];
    for (int64_t k = 0; k < net->n_layers; k++)
        acts[k] = malloc((size_t)net->layers[k].n_out * sizeof(double));
    for (int d = 0; d < D; d++) {
        int on = 0;
        for (int t = 0; t < 6000; t++) {
            for (int64_t j = 0; j < nx; j++) {
                double r = testnet_uniform(&st);
                double w = fx.hi[d][j] - fx.lo[d][j];
                x[j] = t % 2 ? fx.lo[d][j] + r * w
                             : fmin(fx.hi[d][j],
                                    fmax(fx.lo[d][j], fx.x0[d][j] + (r - 0.5) * 0.1 * w));
            }
            vfy_eval_forward_all(net, x, acts, NULL);
            int in = 1;
            for (int64_t q = 0; q < fx.n_sp[d]; q++)
                in &= fx.sg[d][q] * acts[fx.kq[d][q]][fx.jq[d][q]] >= 0;
            if (!in)
                continue;
            on++;
            const double *y = acts[net->n_layers - 1];
            for (int i = 0; i < K; i++) {
                double v = 0;
                for (int64_t j = 0; j < ny; j++)
                    v += fx.cy[d][i * ny + j] * y[j];
                for (int64_t j = 0; d == 2 && j < nx; j++)
                    v += cx[i * nx + j] * x[j];
                REQUIRE_MSG(v >= lb[d][i], "domain %d row %d: value %.17g below the bound %.17g",
                            d, i, v, lb[d][i]);
            }
        }
        REQUIRE_MSG(on > 100, "domain %d: only %d samples in the region", d, on);
    }
    for (int64_t k = 0; k < net->n_layers; k++)
        free(acts[k]);
    vfy_bounds_free(work);
    batch_fixture_free(&fx);
}
END_TEST

/* One batch of three domains of a net whose facet layers have 100 to 150 inputs a neuron (bit
 * sets of two and three words), twenty passes (three selections of the facets), one domain's
 * first row stopping mid-ascent (packed out) and one domain with input terms: with the facets'
 * memo (vfy_bound_ctx_set_facet_memo) every bound and every row's input coefficients are those
 * computed without it, bit for bit, and the facets change some bound (they were taken). */
static void memo_batch(vfy_bound_ctx *ctx, uint64_t seed, int facets, int memo, int iters,
                       double stop0, double *lb, double *lam_in)
{
    enum { D = 3, K = 4 };
    const vfy_net *net = vfy_bound_ctx_net(ctx);
    int64_t nx = net->n_in, ny = net->n_out;
    uint64_t st = seed;
    double lo[D][100], hi[D][100], wlo[D][100], whi[D][100], cy[D][K * 6], cx[K * 100];
    double stop[K] = {stop0, 1e30, 1e30, 1e30};
    vfy_bounds *b[D];
    vfy_alpha_job jobs[D];
    ck_assert(nx == 100 && ny <= 6);
    vfy_bound_ctx_set_facets(ctx, facets);
    vfy_bound_ctx_set_facet_memo(ctx, memo);
    ck_assert_int_eq(vfy_bound_ctx_facets(ctx), facets);
    for (int64_t i = 0; i < K * nx; i++)
        cx[i] = testnet_uniform(&st) - 0.5;
    for (int d = 0; d < D; d++) {
        random_box(&st, nx, 0.02 + 0.02 * d, 0.05, ctx, lo[d], hi[d], wlo[d], whi[d]);
        b[d] = vfy_bounds_create(ctx);
        ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo[d], whi[d], NULL, b[d]),
                         VFY_OK);
        for (int64_t i = 0; i < K * ny; i++)
            cy[d][i] = (double)(int)(testnet_uniform(&st) * 5) - 2;
        jobs[d] = (vfy_alpha_job){b[d], wlo[d], whi[d], K, cy[d], d == 2 ? cx : NULL, NULL, NULL,
                                  0, 0, lb + d * K, lam_in + d * K * nx, NULL, NULL, 0,
                                  d == 1 ? stop : NULL, NULL, NULL};
    }
    vfy_bounds *work = vfy_bounds_create(ctx);
    ck_assert_int_eq(vfy_bound_rows_alpha_batch(ctx, work, D, jobs, iters), VFY_OK);
    vfy_bounds_free(work);
    for (int d = 0; d < D; d++)
        vfy_bounds_free(b[d]);
}

START_TEST(test_facets_memo_same)
{
    enum { N = 3 * 4 };
    const int64_t hidden[3] = {150, 130, 70};
    vfy_net *net = testnet_random(9100 + (uint64_t)_i, 100, hidden, 3, 6, 0.15, 0);
    ck_assert_ptr_nonnull(net);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
    static double lb[3][N], lam[3][N * 100];
    uint64_t seed = 9200 + (uint64_t)_i;
    /* domain 1's first row stops halfway between its first pass's bound and its last's */
    memo_batch(ctx, seed, 1, 0, 1, 1e30, lb[0], lam[0]);
    memo_batch(ctx, seed, 1, 0, 20, 1e30, lb[1], lam[1]);
    ck_assert(lb[1][4] > lb[0][4]);
    double stop0 = 0.5 * (lb[0][4] + lb[1][4]);
    memo_batch(ctx, seed, 1, 1, 20, stop0, lb[0], lam[0]);
    memo_batch(ctx, seed, 1, 0, 20, stop0, lb[1], lam[1]);
    memo_batch(ctx, seed, 0, 1, 20, stop0, lb[2], lam[2]);
    int differ = 0;
    for (int i = 0; i < N; i++) {
        REQUIRE_MSG(memcmp(&lb[0][i], &lb[1][i], sizeof(double)) == 0,
                    "row %d: %.17g with the memo, %.17g without", i, lb[0][i], lb[1][i]);
        differ |= lb[0][i] != lb[2][i];
    }
    ck_assert(memcmp(lam[0], lam[1], sizeof lam[0]) == 0);
    REQUIRE_MSG(differ, "the facets changed no bound");
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* A facet where the triangle is loose: y = relu(v1 + v2 - 1) on [0, 1]^2 is at most v1 (the
 * hull's facet), while the triangle over z in [-1, 1] only gives (v1 + v2) / 2. The output
 * v1 - y is >= 0 everywhere (0 at v = 0): alpha-CROWN's bound is -1/2, with facets it is 0 up to
 * the float allowance, and never above 0. On a net whose only layer has 2,000 inputs a neuron, the
 * setter leaves them off. */
START_TEST(test_facets_tighter)
{
    const int64_t sizes[3] = {2, 2, 1};
    const double w1[4] = {1, 1, 1, 0}, b1[2] = {-1, 0}, w2[2] = {-1, 1}, b2[1] = {0};
    const double *w[2] = {w1, w2}, *b[2] = {b1, b2};
    vfy_net *net = testnet_dense(2, sizes, w, b);
    ck_assert_ptr_nonnull(net);
    for (int fs = 0; fs <= 1; fs++) {
        vfy_bound_ctx *ctx;
        ck_assert_int_eq(vfy_bound_ctx_create(net, fs, &ctx, NULL), VFY_OK);
        vfy_bounds *bb = vfy_bounds_create(ctx);
        double lo[2] = {0, 0}, hi[2] = {1, 1}, cy = 1.0, lb[2];
        vfy_bound_widen_input(ctx, 2, lo, hi);
        for (int f = 0; f <= 1; f++) {
            vfy_bound_ctx_set_facets(ctx, f);
            ck_assert_int_eq(vfy_bound_ctx_facets(ctx), f);
            ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo, hi, NULL, bb), VFY_OK);
            ck_assert_int_eq(vfy_bound_rows_alpha(ctx, lo, hi, bb, 1, &cy, NULL, NULL, 30, &lb[f],
                                                  NULL, NULL), VFY_OK);
        }
        REQUIRE_MSG(lb[0] < -0.49 && lb[0] > -0.51, "without facets: %.17g", lb[0]);
        REQUIRE_MSG(lb[1] > -1e-3 && lb[1] <= 0, "with facets (float semantics %d): %.17g", fs,
                    lb[1]);
        vfy_bounds_free(bb);
        vfy_bound_ctx_free(ctx);
    }
    vfy_net_free(net);
    /* a layer of more inputs a neuron than facets take (bound.c: FAC_MAX_FANIN): none */
    const int64_t wide[3] = {2000, 1, 1};
    double *ww = calloc(2000, sizeof(double)), one = 1, zero = 0;
    const double *w3[2] = {ww, &one}, *b3[2] = {&zero, &zero};
    net = testnet_dense(2, wide, w3, b3);
    ck_assert_ptr_nonnull(net);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
    vfy_bound_ctx_set_facets(ctx, 1);
    ck_assert_int_eq(vfy_bound_ctx_facets(ctx), 0);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
    free(ww);
}
END_TEST

/* alpha's gradient is the bound's (vfy_bound_primal_last: the relaxed network's value at the last
 * gradient step's primal point equals that step's bound), in real arithmetic with double products
 * (float semantics charge the bound what a float32 execution may lose; float32 products perturb
 * the primal point): on ReLU nets with splits and with bounds as constraints (the Lagrangian's
 * terms), on Sigmoid/Tanh/ReLU mixes and on MaxPool nets, half of them with rows that have input
 * terms too. Through f instead of the lines, or through the max instead of the pool's
 * relaxation, the two differ. */
START_TEST(test_alpha_primal)
{
    uint64_t st = 9500 + (uint64_t)_i;
    double lo[16], hi[16], wlo[16], whi[16], x0[16], off[3], cy[4 * 8], lb[4];
    vfy_net *net;
    int kind = _i % 4;
    if (kind < 2) {
        const testnet_shape *sh = &testnet_shapes[1 + _i % 2];
        net = testnet_random(9600 + (uint64_t)_i, sh->n_in, sh->hidden, sh->n_hidden, sh->n_out,
                             sh->scale, sh->with_scale);
    } else if (kind == 2) {
        const testnet_shape *sh = &testnet_shapes[1 + _i % 3];
        net = testnet_random_act(9600 + (uint64_t)_i, sh->n_in, sh->hidden, sh->n_hidden,
                                 sh->n_out, sh->scale * 2, sh->with_scale,
                                 act_mixes[_i / 4 % N_ACT_MIXES]);
    } else
        net = testnet_random_pool(9600 + (uint64_t)_i, 8, 4, 1.0);
    ck_assert_ptr_nonnull(net);
    ck_assert(net->n_in <= 16 && net->n_out <= 8);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 0, &ctx, NULL), VFY_OK);
    vfy_bound_ctx_set_f32(ctx, 0);
    random_box(&st, net->n_in, 0.2, 0.5, ctx, lo, hi, wlo, whi);
    vfy_bounds *b = vfy_bounds_create(ctx);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo, whi, NULL, b), VFY_OK);
    int64_t idx[3], kq[3], jq[3], n = 0;
    signed char sg[3];
    if (kind < 2) {
        for (int64_t j = 0; j < net->n_in; j++)
            x0[j] = lo[j] + testnet_uniform(&st) * (hi[j] - lo[j]);
        n = split_domain(net, ctx, b, wlo, whi, x0, &st, idx, kq, jq, sg, kind ? off : NULL);
    }
    vfy_splits sp = {n, idx, sg, kind ? off : NULL};
    enum { K = 4 };
    for (int64_t i = 0; i < K * net->n_out; i++)
        cy[i] = (double)(int)(testnet_uniform(&st) * 5) - 2;
    double cx[K * 16]; /* half the cases: rows with input terms too */
    for (int64_t i = 0; i < K * net->n_in; i++)
        cx[i] = (double)(int)(testnet_uniform(&st) * 5) - 2;
    ck_assert_int_eq(vfy_bound_rows_alpha(ctx, wlo, whi, b, K, cy, _i % 8 >= 4 ? cx : NULL,
                                          n ? &sp : NULL, 20, lb, NULL, NULL), VFY_OK);
    static const char *const what[4] = {"splits", "offsets", "sigmoid/tanh", "maxpool"};
    double val[K], plb[K];
    REQUIRE_MSG(vfy_bound_primal_last(b, K, val, plb), "%s: no gradient step", what[kind]);
    for (int64_t i = 0; i < K; i++)
        REQUIRE_MSG(isfinite(plb[i]) && fabs(val[i] - plb[i]) <= 1e-9 * (1 + fabs(plb[i])),
                    "%s (%lld splits) row %lld: relaxed network's value %.17g at the primal "
                    "point, bound %.17g", what[kind], (long long)n, (long long)i, val[i], plb[i]);
    vfy_bounds_free(b);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* Bounds as constraints (vfy_splits.offset): sign (z - t) >= 0 with t between a random point's
 * value and the layer bound (so the region is not empty; the layer bounds are not clamped to
 * it). */
START_TEST(test_offset_constraints_sound)
{
    constraints_case(_i, 900 + (uint64_t)_i, 4200 + (uint64_t)_i, 1, 0);
}
END_TEST

/* Branching on a ReLU: (a) vfy_bound_split_lb's two child bounds hold at every sampled point on
 * their side of the split (no tolerance); (b) a child's layers computed from its parent's bounds
 * with vfy_bound_layers_from (the layers up to the split taken as they are) equal those
 * recomputed from scratch with the same prior (up to the order BLAS sums in), and contain every
 * sample of the child. */
START_TEST(test_split_children)
{
    uint64_t st = 70 + (uint64_t)_i;
    double lo[16], hi[16], wlo[16], whi[16];
    vfy_bound_ctx *ctx;
    vfy_net *net = random_multilayer(_i, 900 + (uint64_t)_i, &st, 0.2, &ctx, lo, hi, wlo, whi);
    vfy_bounds *b = vfy_bounds_create(ctx), *b1 = vfy_bounds_create(ctx), *b2 = vfy_bounds_create(ctx);
    int64_t nx = net->n_in, ny = net->n_out;
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo, whi, NULL, b), VFY_OK);
    /* the last unstable pre-activation that feeds a ReLU after the first (so later layers exist
     * and earlier ones are taken over) */
    int64_t half = vfy_bounds_flat_size(ctx) / 2, off = 0, idx = -1, kz = -1, jz = -1;
    for (int64_t k = 0; k + 1 < net->n_layers; off += net->layers[k].n_out, k++) {
        if (net->layers[k + 1].kind != VFY_LAYER_RELU || k == 0)
            continue;
        for (int64_t j = 0; j < net->layers[k].n_out; j++)
            if (b->lo[k][j] < 0 && b->hi[k][j] > 0 && idx < 0) {
                idx = off + j;
                kz = k;
                jz = j;
            }
    }
    ck_assert(idx >= 0);
    enum { K = 3 };
    double cy[K * 8], lbn[K], lbp[K];
    for (int64_t i = 0; i < K * ny; i++)
        cy[i] = (double)(int)(testnet_uniform(&st) * 5) - 2;
    /* idx looked ahead alone and among others (one pass): the same bounds */
    int64_t cands[3] = {idx, idx, idx};
    for (int64_t k = 0, o = 0; k + 1 < net->n_layers; o += net->layers[k].n_out, k++)
        for (int64_t j = 0; j < net->layers[k].n_out; j++)
            if (net->layers[k + 1].kind == VFY_LAYER_RELU && b->lo[k][j] < 0 && b->hi[k][j] > 0 &&
                o + j != idx)
                cands[2] = o + j;
    double lbn3[3 * K], lbp3[3 * K];
    ck_assert_int_eq(vfy_bound_split_lb(ctx, wlo, whi, b, K, cy, NULL, 1, &idx, lbn, lbp), VFY_OK);
    ck_assert_int_eq(vfy_bound_split_lb(ctx, wlo, whi, b, K, cy, NULL, 3, cands, lbn3, lbp3), VFY_OK);
    /* (an estimate, not a soundness claim: BLAS may sum a longer product in another order, and
     * the look-ahead's products are float32's: OpenBLAS 0.3.21's Haswell kernels on an AMD EPYC
     * summed one candidate's and three candidates' differently, by up to 1.5e-7 on bounds of 2 to
     * 16) */
    for (int i = 0; i < K; i++) {
        double tol = 1e-6 * (1 + fabs(lbn[i]) + fabs(lbp[i]));
        ck_assert(fabs(lbn3[i] - lbn[i]) <= tol && fabs(lbp3[i] - lbp[i]) <= tol);
        ck_assert(fabs(lbn3[K + i] - lbn[i]) <= tol && fabs(lbp3[K + i] - lbp[i]) <= tol);
    }
    /* the children's layer bounds, for the z <= 0 side */
    ck_assert(half > 0);
    double *flat = malloc((size_t)half * 2 * sizeof(double));
    vfy_bounds_export(ctx, b, flat);
    flat[half + idx] = 0.0;
    ck_assert_int_eq(vfy_bound_layers_from(ctx, VFY_BOUND_CROWN, wlo, whi, flat, 0, b1), VFY_OK);
    ck_assert_int_eq(vfy_bound_layers_from(ctx, VFY_BOUND_CROWN, wlo, whi, flat, kz + 1, b2), VFY_OK);
    /* (from scratch, the split neuron is stable when its layer is re-bounded, so that layer's
     * other rows go through BLAS in a smaller batch, summed in another order on some CPUs: equal
     * up to that rounding; up to the split, never looser than the parent's) */
    for (int64_t k = 0; k < net->n_layers; k++)
        for (int64_t j = 0; j < net->layers[k].n_out; j++) {
            double l1 = b1->lo[k][j], l2 = b2->lo[k][j], h1 = b1->hi[k][j], h2 = b2->hi[k][j];
            double tol = 1e-12 * (1 + fabs(l2) + fabs(h2));
            REQUIRE(fabs(l1 - l2) <= tol && fabs(h1 - h2) <= tol);
            if (k <= kz)
                REQUIRE(l1 >= l2 && h1 <= h2);
        }
    double *acts[16] = {0};
    ck_assert(net->n_layers <= 16);
    for (int64_t k = 0; k < net->n_layers; k++)
        acts[k] = malloc((size_t)net->layers[k].n_out * sizeof(double));
    double x[16];
    int seen[2] = {0, 0};
    for (int t = 0; t < 2000; t++) {
        for (int64_t j = 0; j < nx; j++)
            x[j] = lo[j] + testnet_uniform(&st) * (hi[j] - lo[j]);
        vfy_eval_forward_all(net, x, acts, NULL);
        const double *y = acts[net->n_layers - 1];
        double z = acts[kz][jz];
        for (int i = 0; i < K; i++) {
            double v = 0;
            for (int64_t j = 0; j < ny; j++)
                v += cy[i * ny + j] * y[j];
            if (z <= 0)
                REQUIRE_MSG(lbn[i] <= v, "z <= 0 child, row %d: %.17g > %.17g", i, lbn[i], v);
            if (z >= 0)
                REQUIRE_MSG(lbp[i] <= v, "z >= 0 child, row %d: %.17g > %.17g", i, lbp[i], v);
        }
        seen[z >= 0]++;
        if (z <= 0)
            for (int64_t k = 0; k < net->n_layers; k++)
                for (int64_t j = 0; j < net->layers[k].n_out; j++)
                    REQUIRE(b2->lo[k][j] <= acts[k][j] && acts[k][j] <= b2->hi[k][j]);
    }
    ck_assert(seen[0] > 0 && seen[1] > 0); /* both sides were exercised */
    for (int64_t k = 0; k < net->n_layers; k++)
        free(acts[k]);
    free(flat);
    vfy_bounds_free(b);
    vfy_bounds_free(b1);
    vfy_bounds_free(b2);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* Over [wlo, whi]: IBP's layer bounds into bi, CROWN's into bc, CROWN's then alpha-CROWN's on the
 * hidden layers into bt. */
static void layer_bounds3(vfy_bound_ctx *ctx, const double *wlo, const double *whi, vfy_bounds *bi,
                          vfy_bounds *bc, vfy_bounds *bt)
{
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_IBP, wlo, whi, NULL, bi), VFY_OK);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo, whi, NULL, bc), VFY_OK);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo, whi, NULL, bt), VFY_OK);
    int64_t n_t = 0;
    ck_assert_int_eq(vfy_bound_tighten_alpha(ctx, wlo, whi, bt, 20, NULL, &n_t), VFY_OK);
}

/* MAXPOOL layers (windows overlapping, with padding, on post- and pre-activations): IBP, CROWN,
 * alpha-CROWN on the hidden layers and the rows' alpha/beta bounds all hold at every sampled
 * execution (no tolerance), beta with a split on a ReLU whose pre-activation is a MAXPOOL output. */
START_TEST(test_maxpool_sound)
{
    uint64_t st = 400 + (uint64_t)_i;
    vfy_net *net = testnet_random_pool(900 + (uint64_t)_i, 4, 3, 1.0);
    ck_assert_ptr_nonnull(net);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
    double lo[4], hi[4], wlo[4], whi[4];
    random_box(&st, 4, 0.1, 0.5, ctx, lo, hi, wlo, whi);
    vfy_bounds *bi = vfy_bounds_create(ctx), *bc = vfy_bounds_create(ctx), *bt = vfy_bounds_create(ctx);
    layer_bounds3(ctx, wlo, whi, bi, bc, bt);
    check_contains(net, bi, lo, hi, 11 + (uint64_t)_i, 400);
    check_contains(net, bc, lo, hi, 11 + (uint64_t)_i, 400);
    check_contains(net, bt, lo, hi, 11 + (uint64_t)_i, 400);
    /* rows by IBP, CROWN and alpha-CROWN; then beta with a split on the ReLU after the second pool
     * (pre-activation: layer 4, the MAXPOOL output), its sign taken at a random point x0 */
    enum { K = 3 };
    double cy[K * 3], lbi[K], lbc[K], lba[K], lbb[K], x0[4], x[4];
    for (int64_t i = 0; i < K * 3; i++)
        cy[i] = (double)(int)(testnet_uniform(&st) * 5) - 2;
    ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_IBP, wlo, whi, bi, K, cy, NULL, lbi, NULL, NULL),
                     VFY_OK);
    ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_CROWN, wlo, whi, bc, K, cy, NULL, lbc, NULL, NULL),
                     VFY_OK);
    ck_assert_int_eq(vfy_bound_rows_alpha(ctx, wlo, whi, bc, K, cy, NULL, NULL, 20, lba, NULL, NULL),
                     VFY_OK);
    double *acts[8];
    for (int64_t k = 0; k < net->n_layers; k++)
        acts[k] = malloc((size_t)net->layers[k].n_out * sizeof(double));
    ck_assert_int_eq(net->layers[4].kind, VFY_LAYER_MAXPOOL);
    int64_t F = vfy_bounds_flat_size(ctx), half = F / 2, off4 = 0, j4 = -1;
    for (int64_t k = 0; k < 4; k++)
        off4 += net->layers[k].n_out;
    for (int64_t j = 0; j < 5 && j4 < 0; j++)
        if (bc->lo[4][j] < 0 && bc->hi[4][j] > 0)
            j4 = j;
    for (int64_t j = 0; j < 4; j++)
        x0[j] = lo[j] + testnet_uniform(&st) * (hi[j] - lo[j]);
    vfy_eval_forward_all(net, x0, acts, NULL);
    signed char sg = j4 >= 0 && acts[4][j4] < 0 ? -1 : 1;
    vfy_bounds *bb = vfy_bounds_create(ctx);
    double *flat = malloc((size_t)F * sizeof(double));
    vfy_bounds_export(ctx, bc, flat);
    if (j4 >= 0)
        flat[(sg > 0 ? 0 : half) + off4 + j4] = 0;
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo, whi, flat, bb), VFY_OK);
    int64_t idx = off4 + j4;
    vfy_splits sp = {1, &idx, &sg, NULL};
    ck_assert_int_eq(vfy_bound_rows_alpha(ctx, wlo, whi, bb, K, cy, NULL, j4 >= 0 ? &sp : NULL, 20,
                                          lbb, NULL, NULL), VFY_OK);
    /* alpha starts from CROWN's bound; CROWN's layer bounds are IBP's intersected with more, but
     * IBP's midpoint-radius form on them can round a few ulps differently: a tightness check, not
     * a soundness one, so with that slack. The relaxation must gain somewhere. */
    int gained = 0;
    for (int i = 0; i < K; i++) {
        ck_assert(lba[i] >= lbc[i]);
        REQUIRE_MSG(lbc[i] >= lbi[i] - 1e-12 * (1 + fabs(lbi[i])), "row %d: CROWN %.17g, IBP "
                    "%.17g", i, lbc[i], lbi[i]);
        gained |= lbc[i] > lbi[i] + 1e-6;
    }
    ck_assert(gained);
    for (int t = 0; t < 4000; t++) {
        for (int64_t j = 0; j < 4; j++)
            x[j] = lo[j] + testnet_uniform(&st) * (hi[j] - lo[j]);
        vfy_eval_forward_all(net, x, acts, NULL);
        const double *y = acts[net->n_layers - 1];
        int on = j4 < 0 || sg * acts[4][j4] >= 0;
        for (int i = 0; i < K; i++) {
            double v = cy[i * 3] * y[0] + cy[i * 3 + 1] * y[1] + cy[i * 3 + 2] * y[2];
            REQUIRE_MSG(v >= lba[i], "row %d: value %.17g below alpha's bound %.17g", i, v, lba[i]);
            REQUIRE_MSG(!on || v >= lbb[i], "row %d: value %.17g below the split domain's bound "
                        "%.17g", i, v, lbb[i]);
        }
    }
    for (int64_t k = 0; k < net->n_layers; k++)
        free(acts[k]);
    free(flat);
    vfy_bounds_free(bi);
    vfy_bounds_free(bc);
    vfy_bounds_free(bt);
    vfy_bounds_free(bb);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* The primal point of alpha-CROWN's gradient goes through a MAXPOOL as the row's relaxation does
 * (x_m where its coefficient is >= 0, the window's largest upper bound elsewhere), not through the
 * max itself: on 12 random MAXPOOL nets (4 rows each, 50 iterations) the rows' total gain over
 * CROWN is 224.0 (through the max: 98.8; new better on 189 of 240 rows of 60 nets, worse on 2). */
START_TEST(test_maxpool_alpha_gain)
{
    double gain = 0;
    for (int t = 0; t < 12; t++) {
        vfy_net *net = testnet_random_pool(9300 + (uint64_t)t, 8, 4, 1.0);
        ck_assert_ptr_nonnull(net);
        vfy_bound_ctx *ctx;
        ck_assert_int_eq(vfy_bound_ctx_create(net, 0, &ctx, NULL), VFY_OK);
        uint64_t st = 9400 + (uint64_t)t;
        double lo[8], hi[8], wlo[8], whi[8];
        random_box(&st, 8, 0.3, 0.6, ctx, lo, hi, wlo, whi);
        vfy_bounds *b = vfy_bounds_create(ctx);
        ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo, whi, NULL, b), VFY_OK);
        double cy[4 * 4], lbc[4], lba[4];
        for (int i = 0; i < 16; i++)
            cy[i] = (double)(int)(testnet_uniform(&st) * 5) - 2;
        ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_CROWN, wlo, whi, b, 4, cy, NULL, lbc, NULL,
                                        NULL), VFY_OK);
        ck_assert_int_eq(vfy_bound_rows_alpha(ctx, wlo, whi, b, 4, cy, NULL, NULL, 50, lba, NULL,
                                              NULL), VFY_OK);
        for (int r = 0; r < 4; r++) {
            ck_assert(lba[r] >= lbc[r]);
            gain += lba[r] - lbc[r];
        }
        vfy_bounds_free(b);
        vfy_bound_ctx_free(ctx);
        vfy_net_free(net);
    }
    REQUIRE_MSG(gain > 160, "alpha-CROWN's total gain over CROWN %.6g", gain);
}
END_TEST

/* A stack-held net's layers (their pools; no weights) freed. */
static void free_layers(vfy_net *net)
{
    for (int64_t k = 0; k < net->n_layers; k++)
        vfy_free(net->layers[k].pool);
    vfy_free(net->layers);
}

/* The MAXPOOL relaxation on a window of two inputs, x = (x0, x1) straight from the box:
 * (a) x0 in [2, 3] dominates x1 in [0, 1]: y = x0 exactly, so CROWN's bounds of y - x0 and x0 - y
 * are 0 up to rounding, where IBP's are -1; (b) x0 in [0, 2], x1 in [1, 3]: CROWN's lower line is
 * x1 (the larger lower bound): y - x1 >= 0 up to rounding (IBP: -2), and its upper bound of y is
 * the constant 3. */
START_TEST(test_maxpool_relaxation)
{
    vfy_net net = {0};
    net.n_in = 2;
    net.n_out = 1;
    int64_t *pool = vfy_alloc_array(2, sizeof(int64_t));
    pool[0] = 0;
    pool[1] = 1;
    ck_assert_int_eq(vfy_net_push_maxpool(&net, 2, 1, 2, pool, "pool", NULL), VFY_OK);
    ck_assert_int_eq(vfy_net_validate(&net, NULL), VFY_OK);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(&net, 1, &ctx, NULL), VFY_OK);
    vfy_bounds *b = vfy_bounds_create(ctx);
    double cy[2] = {1, -1}, cx[4] = {-1, 0, 1, 0}, lb[2], lbi[2];
    double lo_a[2] = {2, 0}, hi_a[2] = {3, 1};
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo_a, hi_a, NULL, b), VFY_OK);
    ck_assert(b->lo[0][0] == 2 && b->hi[0][0] == 3);
    ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_IBP, lo_a, hi_a, b, 2, cy, cx, lbi, NULL, NULL),
                     VFY_OK);
    ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_CROWN, lo_a, hi_a, b, 2, cy, cx, lb, NULL, NULL),
                     VFY_OK);
    ck_assert(lbi[0] <= -1 && lbi[0] > -1 - 1e-12 && lbi[1] <= -1 && lbi[1] > -1 - 1e-12);
    ck_assert(lb[0] <= 0 && lb[0] > -1e-12 && lb[1] <= 0 && lb[1] > -1e-12);
    double lo_b[2] = {0, 1}, hi_b[2] = {2, 3}, cxb[4] = {0, -1, 0, 0};
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo_b, hi_b, NULL, b), VFY_OK);
    ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_CROWN, lo_b, hi_b, b, 2, cy, cxb, lb, NULL, NULL),
                     VFY_OK);
    ck_assert(lb[0] <= 0 && lb[0] > -1e-12);
    ck_assert(lb[1] <= -3 && lb[1] > -3 - 1e-12);
    vfy_bounds_free(b);
    vfy_bound_ctx_free(ctx);
    free_layers(&net);
}
END_TEST

/* PRODUCT layers (products of two values, squares, a copy; on the inputs or on a hidden layer):
 * IBP, CROWN, alpha-CROWN on the hidden layers and the rows' alpha/beta bounds all hold at every
 * sampled execution, double and float32 (no tolerance); beta with a split on the ReLU whose
 * pre-activation is a PRODUCT output. */
START_TEST(test_product_sound)
{
    uint64_t st = 700 + (uint64_t)_i;
    int on_input = _i % 2;
    int64_t P = on_input ? 4 : 3; /* the hidden PRODUCT layer */
    vfy_net *net = testnet_random_product(1700 + (uint64_t)_i, 6, 3, 1.0, on_input);
    ck_assert_ptr_nonnull(net);
    ck_assert_int_eq(net->layers[P].kind, VFY_LAYER_PRODUCT);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
    double lo[6], hi[6], wlo[6], whi[6];
    random_box(&st, 6, 0.1, 0.5, ctx, lo, hi, wlo, whi);
    vfy_bounds *bi = vfy_bounds_create(ctx), *bc = vfy_bounds_create(ctx);
    vfy_bounds *bt = vfy_bounds_create(ctx);
    layer_bounds3(ctx, wlo, whi, bi, bc, bt);
    check_contains(net, bi, lo, hi, 21 + (uint64_t)_i, 400);
    check_contains(net, bc, lo, hi, 21 + (uint64_t)_i, 400);
    check_contains(net, bt, lo, hi, 21 + (uint64_t)_i, 400);
    enum { K = 3 };
    double cy[K * 3], lbi[K], lbc[K], lba[K], lbb[K], x0[6], x[6];
    for (int64_t i = 0; i < K * 3; i++)
        cy[i] = (double)(int)(testnet_uniform(&st) * 5) - 2;
    ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_IBP, wlo, whi, bi, K, cy, NULL, lbi, NULL,
                                    NULL), VFY_OK);
    ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_CROWN, wlo, whi, bc, K, cy, NULL, lbc, NULL,
                                    NULL), VFY_OK);
    ck_assert_int_eq(vfy_bound_rows_alpha(ctx, wlo, whi, bc, K, cy, NULL, NULL, 20, lba, NULL,
                                          NULL), VFY_OK);
    double *acts[8];
    for (int64_t k = 0; k < net->n_layers; k++)
        acts[k] = malloc((size_t)net->layers[k].n_out * sizeof(double));
    int64_t F = vfy_bounds_flat_size(ctx), half = F / 2, offp = 0, jp = -1;
    for (int64_t k = 0; k < P; k++)
        offp += net->layers[k].n_out;
    for (int64_t j = 0; j < 6 && jp < 0; j++)
        if (bc->lo[P][j] < 0 && bc->hi[P][j] > 0)
            jp = j;
    for (int64_t j = 0; j < 6; j++)
        x0[j] = lo[j] + testnet_uniform(&st) * (hi[j] - lo[j]);
    vfy_eval_forward_all(net, x0, acts, NULL);
    signed char sg = jp >= 0 && acts[P][jp] < 0 ? -1 : 1;
    vfy_bounds *bb = vfy_bounds_create(ctx);
    double *flat = malloc((size_t)F * sizeof(double));
    vfy_bounds_export(ctx, bc, flat);
    if (jp >= 0)
        flat[(sg > 0 ? 0 : half) + offp + jp] = 0;
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo, whi, flat, bb), VFY_OK);
    int64_t idx = offp + jp;
    vfy_splits sp = {1, &idx, &sg, NULL};
    ck_assert_int_eq(vfy_bound_rows_alpha(ctx, wlo, whi, bb, K, cy, NULL, jp >= 0 ? &sp : NULL, 20,
                                          lbb, NULL, NULL), VFY_OK);
    for (int i = 0; i < K; i++)
        ck_assert(lba[i] >= lbc[i] && lbc[i] >= lbi[i]);
    for (int t = 0; t < 4000; t++) {
        for (int64_t j = 0; j < 6; j++)
            x[j] = lo[j] + testnet_uniform(&st) * (hi[j] - lo[j]);
        vfy_eval_forward_all(net, x, acts, NULL);
        const double *y = acts[net->n_layers - 1];
        int on = jp < 0 || sg * acts[P][jp] >= 0;
        for (int i = 0; i < K; i++) {
            double v = cy[i * 3] * y[0] + cy[i * 3 + 1] * y[1] + cy[i * 3 + 2] * y[2];
            REQUIRE_MSG(v >= lba[i], "row %d: value %.17g below alpha's bound %.17g", i, v, lba[i]);
            REQUIRE_MSG(!on || v >= lbb[i], "row %d: value %.17g below the split domain's bound "
                        "%.17g", i, v, lbb[i]);
        }
    }
    for (int64_t k = 0; k < net->n_layers; k++)
        free(acts[k]);
    free(flat);
    vfy_bounds_free(bi);
    vfy_bounds_free(bc);
    vfy_bounds_free(bt);
    vfy_bounds_free(bb);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* The PRODUCT relaxation where it is exact at the minimiser: (a) y = x0 x1 on [1, 2] x [3, 5]:
 * min of y - 4 x0 = x0 (x1 - 4) is -2 (at (2, 3)); the planes' slopes (4, 1.5) make CROWN's bound
 * 1.5 x1 - 6.5 >= -2, tight up to rounding, where IBP's is 3 - 8 = -5. (b) y = x0^2 on [-1, 3]:
 * min of y - 2 x0 is -1 (at 1) and max is 3 (at -1 and 3): CROWN's bounds -1 and -3 (of the
 * negated row) up to rounding, IBP's -6 and -9. (c) a copy passes its input exactly. */
START_TEST(test_product_relaxation)
{
    vfy_net net = {0};
    net.n_in = 2;
    net.n_out = 3;
    int64_t *pairs = vfy_alloc_array(6, sizeof(int64_t));
    const int64_t pr[6] = {0, 1, 0, 0, 1, -1};
    memcpy(pairs, pr, sizeof pr);
    ck_assert_int_eq(vfy_net_push_product(&net, 2, 3, pairs, "product", NULL), VFY_OK);
    ck_assert_int_eq(vfy_net_validate(&net, NULL), VFY_OK);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(&net, 0, &ctx, NULL), VFY_OK);
    vfy_bounds *b = vfy_bounds_create(ctx);
    double lo_a[2] = {1, 3}, hi_a[2] = {2, 5};
    double cy[9] = {1, 0, 0, 0, 0, 1, 0, 0, -1}, cx[6] = {-4, 0, 0, 0, 0, 1}, lb[3], lbi[3];
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo_a, hi_a, NULL, b), VFY_OK);
    ck_assert(b->lo[0][0] <= 3 && b->lo[0][0] > 3 - 1e-12 && b->hi[0][0] >= 10);
    ck_assert(b->lo[0][2] == 3 && b->hi[0][2] == 5);
    ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_IBP, lo_a, hi_a, b, 3, cy, cx, lbi, NULL, NULL),
                     VFY_OK);
    ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_CROWN, lo_a, hi_a, b, 3, cy, cx, lb, NULL, NULL),
                     VFY_OK);
    REQUIRE_MSG(lbi[0] <= -5 && lbi[0] > -5 - 1e-12, "IBP %.17g", lbi[0]);
    REQUIRE_MSG(lb[0] <= -2 && lb[0] > -2 - 1e-12, "CROWN %.17g", lb[0]);
    /* the copy y2 = x1: y2 >= 3, and x1 - y2 >= 0, both up to rounding */
    ck_assert(lb[1] <= 3 && lb[1] > 3 - 1e-12);
    ck_assert(lb[2] <= 0 && lb[2] > -1e-12);
    double lo_b[2] = {-1, 0}, hi_b[2] = {3, 1};
    double cyb[6] = {0, 1, 0, 0, -1, 0}, cxb[4] = {-2, 0, 2, 0};
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo_b, hi_b, NULL, b), VFY_OK);
    ck_assert(b->lo[0][1] == 0 && b->hi[0][1] >= 9 && b->hi[0][1] < 9 + 1e-12);
    ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_IBP, lo_b, hi_b, b, 2, cyb, cxb, lbi, NULL,
                                    NULL), VFY_OK);
    ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_CROWN, lo_b, hi_b, b, 2, cyb, cxb, lb, NULL,
                                    NULL), VFY_OK);
    REQUIRE_MSG(lbi[0] <= -6 && lbi[1] <= -9, "IBP %.17g %.17g", lbi[0], lbi[1]);
    REQUIRE_MSG(lb[0] <= -1 && lb[0] > -1 - 1e-12, "CROWN %.17g", lb[0]);
    REQUIRE_MSG(lb[1] <= -3 && lb[1] > -3 - 1e-12, "CROWN %.17g", lb[1]);
    /* (d) factors whose products overflow: x0 x1 on [1e200, 2e200] x [-1e200, 1e200] reaches
     * -2e400, below every double, and x0^2 exceeds every double: a vertex's value is then NaN
     * (inf - inf), which must make the planes claim nothing, not be skipped by fmin/fmax. The
     * rows' coefficients are 1e-300, so that nothing else overflows: the true minima are
     * -2e100 (1e-300 x0 x1) and -4e100 (-1e-300 x0^2) */
    double lo_d[2] = {1e200, -1e200}, hi_d[2] = {2e200, 1e200};
    double cyd[6] = {1e-300, 0, 0, 0, -1e-300, 0};
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo_d, hi_d, NULL, b), VFY_OK);
    ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_CROWN, lo_d, hi_d, b, 2, cyd, NULL, lb, NULL,
                                    NULL), VFY_OK);
    REQUIRE_MSG(lb[0] <= -2e100 && lb[1] <= -4e100, "CROWN %.17g %.17g", lb[0], lb[1]);
    /* (e) every vertex product overflows (x0 x1 >= 1e400 on [1e200, 2e200]^2): a directed
     * rounding of +inf is NaN, and a lower bound of +inf would claim the value exceeds every
     * real; the layer's bounds must claim nothing below (a finite or -inf lower bound) */
    double lo_e[2] = {1e200, 1e200}, hi_e[2] = {2e200, 2e200};
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo_e, hi_e, NULL, b), VFY_OK);
    for (int j = 0; j < 2; j++)
        REQUIRE_MSG(b->lo[0][j] <= DBL_MAX && b->hi[0][j] == INFINITY, "output %d: [%.17g, "
                    "%.17g]", j, b->lo[0][j], b->hi[0][j]);
    vfy_bounds_free(b);
    vfy_bound_ctx_free(ctx);
    free_layers(&net);
}
END_TEST

/* The net of one PRODUCT layer on 4 inputs: x0 x1, x2^2, x1 x2 and x3 copied. */
static void product4_net(vfy_net *net)
{
    net->n_in = 4;
    net->n_out = 4;
    int64_t *pairs = vfy_alloc_array(8, sizeof(int64_t));
    const int64_t pr[8] = {0, 1, 2, 2, 1, 2, 3, -1};
    memcpy(pairs, pr, sizeof pr);
    ck_assert_int_eq(vfy_net_push_product(net, 4, 4, pairs, "product", NULL), VFY_OK);
}

/* product4_net at x: in double (exact for float32 inputs) and as a float32 execution */
static void product4_eval(const double *x, const float *xf, double *y, float *yf)
{
    y[0] = x[0] * x[1];
    y[1] = x[2] * x[2];
    y[2] = x[1] * x[2];
    y[3] = x[3];
    yf[0] = xf[0] * xf[1];
    yf[1] = xf[2] * xf[2];
    yf[2] = xf[1] * xf[2];
    yf[3] = xf[3];
}

/* A PRODUCT layer on the inputs (x0 x1, x2^2, x1 x2, x3 copied), float32 box ends: at every
 * vertex of the box and at random points, each layer bound and each row's linear bound
 * (lam_in·x + c_in of vfy_bound_rows, rows y_j + c·x with small integer c, so that CROWN's planes
 * are used) hold for the real product and for a float32 execution's, fl(a b), which is below a b
 * where it rounds down (a vertex where a plane touches: the allowance must be charged). The
 * products of two float32 numbers are exact in double; the only allowance is the rounding of the
 * test's own sums of four terms (gamma(16) of their magnitude, 1e-14 here against the 6e-8 of a
 * float32 product's rounding). */
START_TEST(test_product_vertices)
{
    vfy_net net = {0};
    product4_net(&net);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(&net, 1, &ctx, NULL), VFY_OK);
    vfy_bounds *b = vfy_bounds_create(ctx);
    uint64_t st = 4242 + (uint64_t)_i;
    enum { K = 8 };
    int crown_used = 0;
    for (int round = 0; round < 20; round++) {
        double lo[4], hi[4], cy[K * 4], cx[K * 4], lb[K], lam[K * 4], c0[K];
        for (int j = 0; j < 4; j++) {
            /* ends of 24 significant bits near 1 (products that round in float32), some < 0 */
            float a = (float)(1 + testnet_uniform(&st)), w = (float)(0.5 * testnet_uniform(&st));
            if (testnet_uniform(&st) < 0.3)
                a = -a;
            lo[j] = a;
            hi[j] = (double)(a + w);
        }
        ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo, hi, NULL, b), VFY_OK);
        for (int i = 0; i < K; i++)
            for (int j = 0; j < 4; j++) {
                cy[i * 4 + j] = j == i % 4 ? (i < 4 ? 1 : -1) : 0;
                cx[i * 4 + j] = (double)(int)(testnet_uniform(&st) * 7) - 3;
            }
        ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_CROWN, lo, hi, b, K, cy, cx, lb, lam, c0),
                         VFY_OK);
        for (int i = 0; i < K; i++)
            for (int j = 0; j < 4; j++)
                crown_used += lam[i * 4 + j] != 0;
        for (int s = 0; s < 40; s++) {
            double x[4];
            float xf[4], yf[4];
            for (int j = 0; j < 4; j++) {
                double u = s < 16 ? (double)((s >> j) & 1) : testnet_uniform(&st);
                xf[j] = (float)(lo[j] + u * (hi[j] - lo[j]));
                xf[j] = fminf(fmaxf(xf[j], (float)lo[j]), (float)hi[j]);
                x[j] = xf[j];
            }
            double y[4];
            product4_eval(x, xf, y, yf);
            for (int j = 0; j < 4; j++)
                REQUIRE_MSG(b->lo[0][j] <= fmin(y[j], (double)yf[j]) &&
                            fmax(y[j], (double)yf[j]) <= b->hi[0][j],
                            "output %d: %.17g (float32 %.9g) not in [%.17g, %.17g]", j, y[j],
                            (double)yf[j], b->lo[0][j], b->hi[0][j]);
            for (int i = 0; i < K; i++) {
                /* the test's own sums, rounded to nearest: each within gamma(16) of its magnitude
                 * (Higham), an allowance for this evaluation only */
                double form = c0[i], row = 0, rowf = 0, mag = fabs(c0[i]);
                for (int j = 0; j < 4; j++) {
                    form += lam[i * 4 + j] * x[j];
                    row += cy[i * 4 + j] * y[j] + cx[i * 4 + j] * x[j];
                    rowf += cy[i * 4 + j] * (double)yf[j] + cx[i * 4 + j] * x[j];
                    mag += fabs(lam[i * 4 + j] * x[j]) + fabs(cy[i * 4 + j] * y[j]) +
                           fabs(cx[i * 4 + j] * x[j]);
                }
                double ev = 2 * vfy_la_gamma(16) * mag;
                REQUIRE_MSG(lb[i] <= fmin(row, rowf) + ev && form <= fmin(row, rowf) + ev,
                            "row %d at sample %d: value %.17g (float32 execution %.17g), linear "
                            "bound %.17g, bound %.17g", i, s, row, rowf, form, lb[i]);
            }
        }
    }
    ck_assert(crown_used > 0);
    vfy_bounds_free(b);
    vfy_bound_ctx_free(ctx);
    free_layers(&net);
}
END_TEST

static double sign_of(double z) { return z > 0 ? 1.0 : (z < 0 ? -1.0 : 0.0); }

/* SIGN's lines (vfy_bound_act_lines) on intervals of every kind (l = 0, u = 0, both, one-signed,
 * straddling with either end larger, tiny, huge, infinite, NaN): below and above sign at the ends,
 * at 0, next to 0 on both sides and at samples, evaluated exactly (__float128 holds a product of
 * two doubles); the straddling lines touch where they should (at u below, at l above, when
 * steep). */
START_TEST(test_sign_lines)
{
    uint64_t st = 6600 + (uint64_t)_i;
    const double fixed[][2] = {{0, 0},     {0, 1},       {-1, 0},  {-3, 5},   {-5, 3},
                               {-2, 2},    {1, 4},       {-4, -1}, {-1e-300, 1e-300},
                               {-1e300, 2e300}, {0, 1e-310}, {-INFINITY, 1}, {-1, INFINITY},
                               {NAN, 1},   {0x1p-1074, 1}, {-7, 0x1p-1074}};
    int nfixed = (int)(sizeof fixed / sizeof fixed[0]);
    for (int rep = 0; rep < 3000; rep++) {
        double l, u;
        if (rep < nfixed) {
            l = fixed[rep][0];
            u = fixed[rep][1];
        } else {
            double e1 = ldexp(1.0, (int)(testnet_uniform(&st) * 40) - 20);
            l = (2 * testnet_uniform(&st) - 1) * e1;
            u = l + testnet_uniform(&st) * 2 * e1;
            if (rep % 5 == 0)
                l = 0;
            if (rep % 7 == 0)
                u = 0, l = fmin(l, 0);
        }
        double sl, tl, su, tu;
        vfy_bound_act_lines(VFY_LAYER_SIGN, l, u, &sl, &tl, &su, &tu);
        ck_assert(isfinite(sl) && isfinite(tl) && isfinite(su) && isfinite(tu));
        if (!(l <= u))
            continue;
        double pts[24];
        int np = 0;
        pts[np++] = l;
        pts[np++] = u;
        if (l <= 0 && u >= 0) {
            pts[np++] = 0;
            if (u > 0)
                pts[np++] = fmin(u, 0x1p-1074), pts[np++] = fmin(u, 0x1p-60);
            if (l < 0)
                pts[np++] = fmax(l, -0x1p-1074), pts[np++] = fmax(l, -0x1p-60);
        }
        for (int t = 0; t < 8 && isfinite(l) && isfinite(u); t++)
            pts[np++] = fmin(fmax(l + testnet_uniform(&st) * (u - l), l), u);
        for (int p = 0; p < np; p++) {
            double z = pts[p];
            if (!isfinite(z))
                continue;
            __float128 y = sign_of(z), lo = (__float128)sl * z + tl, hi = (__float128)su * z + tu;
            REQUIRE_MSG(lo <= y && y <= hi, "[%.17g, %.17g]: at z = %.17g sign %g, lines %.17g z + "
                        "%.17g and %.17g z + %.17g", l, u, z, (double)y, sl, tl, su, tu);
        }
        if (l < 0 && u > 0 && isfinite(l) && isfinite(u) && u > 1e-250 && -l > 1e-250) {
            if (u > -l) /* steep below: 2/u rounded down, within an ulp of touching at u */
                REQUIRE_MSG((double)((__float128)sl * u + tl) >= 1 - 0x1p-50,
                            "[%.17g, %.17g]: the lower line %.17g z - 1 leaves u", l, u, sl);
            if (-l > u)
                REQUIRE_MSG((double)((__float128)su * l + tu) <= -1 + 0x1p-50,
                            "[%.17g, %.17g]: the upper line %.17g z + 1 leaves l", l, u, su);
        }
    }
}
END_TEST

/* Over [wlo, whi] (widened for float inputs first): IBP into bi, CROWN into bc, CROWN then
 * alpha-CROWN on the hidden layers into ba; then K rows cy of small integers over the ny outputs,
 * bounded by CROWN on bc (lbc) and by alpha-CROWN on ba (lba). */
static void three_bounds(vfy_bound_ctx *ctx, int64_t nx, double *wlo, double *whi, vfy_bounds *bi,
                         vfy_bounds *bc, vfy_bounds *ba, uint64_t *st, int K, int64_t ny,
                         double *cy, double *lbc, double *lba)
{
    vfy_bound_widen_input(ctx, nx, wlo, whi);
    layer_bounds3(ctx, wlo, whi, bi, bc, ba);
    for (int64_t i = 0; i < K * ny; i++)
        cy[i] = (double)((int)(testnet_uniform(st) * 5) - 2);
    ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_CROWN, wlo, whi, bc, K, cy, NULL, lbc, NULL,
                                    NULL), VFY_OK);
    ck_assert_int_eq(vfy_bound_rows_alpha(ctx, wlo, whi, ba, K, cy, NULL, NULL, 20, lba, NULL,
                                          NULL), VFY_OK);
}

/* A binarized network: integer weights on inputs on the grid of 1/8, so that SIGN's input is
 * exactly 0 at some grid points (sign 0 there, +-1 next to it): x (3) -> DENSE -> SIGN -> DENSE
 * -> RELU -> DENSE -> SIGN (values carried past it: n_pass) -> DENSE. IBP, CROWN and alpha-CROWN
 * on the hidden layers, and the rows by CROWN and alpha, contain every grid point of the box, in
 * double and float32 (no tolerance); the float semantics charge nothing for SIGN (its bounds on a
 * box where the input is one-signed are exactly +-1). */
/* A net of 3 inputs, DENSE layers 3-6-5-4-2 with kinds[0..2] after the first three (the first
 * layer's weights small integers and its biases eighths, the others float32 values), the last
 * activation passing 2 values through. */
static vfy_net *act_net3(uint64_t *st, const vfy_layer_kind kinds[3], double wscale)
{
    vfy_net *net = calloc(1, sizeof *net);
    ck_assert_ptr_nonnull(net);
    net->n_in = 3;
    net->n_out = 2;
    const int64_t sizes[] = {3, 6, 5, 4, 2};
    for (int l = 0; l < 4; l++) {
        int64_t ni = sizes[l], no = sizes[l + 1];
        double *w = vfy_alloc_array((size_t)(ni * no), sizeof(double));
        double *b = vfy_alloc_array((size_t)no, sizeof(double));
        ck_assert(w && b);
        for (int64_t t = 0; t < ni * no; t++)
            w[t] = l == 0 ? (double)((int)(testnet_uniform(st) * 5) - 2)
                          : (double)(float)(wscale * (2 * testnet_uniform(st) - 1));
        for (int64_t t = 0; t < no; t++)
            b[t] = l == 0 ? (double)((int)(testnet_uniform(st) * 5) - 2) / 8
                          : (double)(float)(testnet_uniform(st) - 0.5);
        ck_assert_int_eq(vfy_net_push(net, VFY_LAYER_DENSE, ni, no, w, b, 0, ni, "dense", NULL),
                         VFY_OK);
        if (l < 3) {
            ck_assert_int_eq(vfy_net_push(net, kinds[l], no, no, NULL, NULL, 0, 0, "act", NULL),
                             VFY_OK);
            if (l == 2)
                net->layers[net->n_layers - 1].n_pass = 2;
        }
    }
    ck_assert_int_eq(vfy_net_validate(net, NULL), VFY_OK);
    return net;
}

/* For both semantics: IBP, CROWN and alpha-CROWN bounds (three_bounds, K random rows) over a box
 * of [-6/8, 2/8] + [1/8, 6/8] times scale per input, then every point of a 9^3 grid of it inside
 * every layer's bounds and every row's value (float64 and float32 execution) above both row
 * bounds, with no tolerance. Returns the grid points where the first activation's input is 0. */
static int grid_inside(vfy_net *net, uint64_t *st, double scale)
{
    int zeros = 0;
    for (int fsem = 0; fsem < 2; fsem++) {
        vfy_bound_ctx *ctx;
        ck_assert_int_eq(vfy_bound_ctx_create(net, fsem, &ctx, NULL), VFY_OK);
        vfy_bounds *bi = vfy_bounds_create(ctx), *bc = vfy_bounds_create(ctx);
        vfy_bounds *ba = vfy_bounds_create(ctx);
        double lo[3], hi[3], wlo[3], whi[3];
        for (int j = 0; j < 3; j++) {
            lo[j] = wlo[j] = scale * (double)((int)(testnet_uniform(st) * 9) - 6) / 8;
            hi[j] = whi[j] = lo[j] + scale * (double)(1 + (int)(testnet_uniform(st) * 6)) / 8;
        }
        enum { K = 3 };
        double cy[K * 2], lbc[K], lba[K];
        three_bounds(ctx, 3, wlo, whi, bi, bc, ba, st, K, 2, cy, lbc, lba);
        double *acts[8], x[3], y[2], scr[256];
        float xf[3], yf[2], sf[256];
        for (int64_t k = 0; k < net->n_layers; k++)
            acts[k] = malloc((size_t)net->layers[k].n_out * sizeof(double));
        for (int a = 0; a <= 8; a++)
            for (int c = 0; c <= 8; c++)
                for (int e = 0; e <= 8; e++) {
                    const int g[3] = {a, c, e};
                    for (int j = 0; j < 3; j++) {
                        x[j] = fmin(lo[j] + g[j] * (hi[j] - lo[j]) / 8, hi[j]);
                        xf[j] = (float)x[j];
                    }
                    vfy_eval_forward_all(net, x, acts, NULL);
                    for (int64_t j = 0; j < 6; j++)
                        zeros += acts[0][j] == 0;
                    for (int64_t k = 0; k < net->n_layers; k++)
                        for (int64_t j = 0; j < net->layers[k].n_out; j++) {
                            double v = acts[k][j];
                            const vfy_bounds *bs[3] = {bi, bc, ba};
                            for (int q = 0; q < 3; q++)
                                REQUIRE_MSG(bs[q]->lo[k][j] <= v && v <= bs[q]->hi[k][j],
                                            "fsem %d bounds %d layer %lld neuron %lld: %.17g "
                                            "not in [%.17g, %.17g]", fsem, q, (long long)k,
                                            (long long)j, v, bs[q]->lo[k][j], bs[q]->hi[k][j]);
                        }
                    vfy_eval_f64(net, x, y, scr);
                    vfy_eval_f32(net, xf, yf, sf);
                    for (int i = 0; i < K; i++) {
                        double v = cy[2 * i] * y[0] + cy[2 * i + 1] * y[1];
                        double vf = cy[2 * i] * (double)yf[0] + cy[2 * i + 1] * (double)yf[1];
                        REQUIRE_MSG(lbc[i] <= v && lba[i] <= v && lba[i] >= lbc[i] &&
                                    (!fsem || (lbc[i] <= vf && lba[i] <= vf)),
                                    "fsem %d row %d: value %.17g (float32 %.17g), CROWN %.17g, "
                                    "alpha %.17g", fsem, i, v, vf, lbc[i], lba[i]);
                    }
                }
        for (int64_t k = 0; k < net->n_layers; k++)
            free(acts[k]);
        vfy_bounds_free(bi);
        vfy_bounds_free(bc);
        vfy_bounds_free(ba);
        vfy_bound_ctx_free(ctx);
    }
    return zeros;
}

START_TEST(test_sign_bounds_contain)
{
    uint64_t st = 4700 + (uint64_t)_i;
    const vfy_layer_kind kinds[3] = {VFY_LAYER_SIGN, VFY_LAYER_RELU, VFY_LAYER_SIGN};
    vfy_net *net = act_net3(&st, kinds, 1.0);
    int zeros = grid_inside(net, &st, 1.0); /* grid points where a SIGN's input is exactly 0 */
    REQUIRE_MSG(zeros > 0, "no grid point puts a SIGN's input at 0");
    vfy_net_free(net);
}
END_TEST

/* SIN and COS inside networks (sin, relu, cos; cos, sin, sin), on boxes from a quarter of a
 * period to several periods per neuron: every grid point inside IBP, CROWN and alpha bounds. */
START_TEST(test_trig_bounds_contain)
{
    uint64_t st = 4900 + (uint64_t)_i;
    const vfy_layer_kind k1[3] = {VFY_LAYER_SIN, VFY_LAYER_RELU, VFY_LAYER_COS};
    const vfy_layer_kind k2[3] = {VFY_LAYER_COS, VFY_LAYER_SIN, VFY_LAYER_SIN};
    double scale = _i < 2 ? 0.5 : (_i < 4 ? 2.0 : 6.0);
    vfy_net *net = act_net3(&st, _i % 2 ? k2 : k1, _i < 4 ? 1.0 : 3.0);
    grid_inside(net, &st, scale);
    vfy_net_free(net);
}
END_TEST

/* SIN's and COS's lines, the verifier's (vfy_bound_act_lines) and the checker's
 * (vfy_check_act_lines), on intervals of every width up to 7 and centres up to 1e4: below and
 * above the function at the ends, at f's extrema, at the lines' touching candidates and 400 grid
 * points, against sinl and cosl (their own error, below 2^-60, the only margin); up to width 1
 * each line comes within 1e-9 of f somewhere on the grid or at an end (it touches). */
START_TEST(test_trig_lines)
{
    uint64_t st = 9300 + (uint64_t)_i;
    for (int rep = 0; rep < 3000; rep++) {
        vfy_layer_kind kind = rep % 2 ? VFY_LAYER_COS : VFY_LAYER_SIN;
        double c = rep % 3 == 0 ? (testnet_uniform(&st) - 0.5) * 8
                                : (testnet_uniform(&st) - 0.5) * ldexp(1.0, (int)(rep % 14));
        double w = rep % 5 == 0 ? 7 * testnet_uniform(&st)
                                : ldexp(1.0, (int)(testnet_uniform(&st) * 22) - 20);
        double l = c - 0.5 * w, u = c + 0.5 * w;
        for (int who = 0; who < 2; who++) {
            double sl, tl, su, tu;
            if (who)
                vfy_check_act_lines(kind, l, u, &sl, &tl, &su, &tu);
            else
                vfy_bound_act_lines(kind, l, u, &sl, &tl, &su, &tu);
            ck_assert(isfinite(sl) && isfinite(tl) && isfinite(su) && isfinite(tu));
            long double gap_lo = INFINITY, gap_hi = INFINITY;
            /* the grid, then f's extrema and the points where f' is a line's slope */
            long double pts[520];
            int np = 0;
            for (int p = 0; p <= 400; p++)
                pts[np++] = p == 400 ? u : l + (u - l) * (p / 400.0);
            const long double tau = 6.283185307179586477L, pi = tau / 2;
            for (int q = 0; q < 6; q++) {
                long double b;
                if (q < 4) { /* the extrema: pi/2 k */
                    b = q * pi / 2;
                } else {
                    long double s = fminl(fmaxl(q == 4 ? sl : su, -1), 1);
                    b = kind == VFY_LAYER_SIN ? acosl(s) : -asinl(s);
                }
                for (int sgn = 0; sgn < 2; sgn++) {
                    long double b2 = q < 4 || !sgn ? b : (kind == VFY_LAYER_SIN ? -b : pi - b);
                    long double k0 = floorl((l - b2) / tau);
                    for (long double k = k0; k <= k0 + 2 && np < 520; k++) {
                        long double z = b2 + k * tau;
                        if (z >= l && z <= u)
                            pts[np++] = z;
                    }
                }
            }
            for (int p = 0; p < np; p++) {
                long double z = pts[p];
                long double f = kind == VFY_LAYER_SIN ? sinl(z) : cosl(z), ref = 0x1p-60L;
                long double lo = (long double)sl * z + tl, hi = (long double)su * z + tu;
                REQUIRE_MSG(lo <= f + ref && f - ref <= hi, "%s %s on [%.17g, %.17g] at %.17Lg: "
                            "%.17Lg not in [%.17Lg, %.17Lg]", who ? "checker" : "verifier",
                            kind == VFY_LAYER_SIN ? "sin" : "cos", l, u, z, f, lo, hi);
                gap_lo = fminl(gap_lo, f - lo);
                gap_hi = fminl(gap_hi, hi - f);
            }
            if (w <= 1 && fabs(c) < 1e3)
                REQUIRE_MSG(gap_lo <= 1e-9L && gap_hi <= 1e-9L, "%s on [%.17g, %.17g]: a line "
                            "touches nowhere (gaps %.3Lg, %.3Lg)", who ? "checker" : "verifier",
                            l, u, gap_lo, gap_hi);
        }
    }
}
END_TEST

/* EXP's and RECIP's lines (vfy_bound_act_lines) on intervals of every width (exp on [-60, 80],
 * 1/v on [1, 1e6]): below and above the function at the ends, the midpoint, the tangent points
 * and samples, against expl and 1.0L / z (their own error, below 2^-60 relative, is the only
 * margin); the lines are finite and touch (the chord at the ends, the tangent near its point). */
START_TEST(test_exp_recip_lines)
{
    uint64_t st = 9200 + (uint64_t)_i;
    for (int rep = 0; rep < 4000; rep++) {
        int recip = rep % 2;
        vfy_layer_kind kind = recip ? VFY_LAYER_RECIP : VFY_LAYER_EXP;
        double l, u, w = ldexp(1.0, (int)(testnet_uniform(&st) * 24) - 16);
        if (recip) {
            double e = ldexp(1.0, (int)(testnet_uniform(&st) * 20));
            l = 1 + (rep % 6 == 1 ? 0 : testnet_uniform(&st) * e);
            u = l + w * l;
        } else {
            l = -60 + testnet_uniform(&st) * 130;
            u = fmin(l + w * 10, 80);
        }
        double sl, tl, su, tu;
        vfy_bound_act_lines(kind, l, u, &sl, &tl, &su, &tu);
        ck_assert(isfinite(sl) && isfinite(tl) && isfinite(su) && isfinite(tu));
        double pts[16] = {l, u, 0.5 * l + 0.5 * u, recip ? sqrt(l) * sqrt(u) : 0.5 * l + 0.5 * u};
        int np = 4;
        for (int t = 0; t < 12; t++)
            pts[np++] = fmin(fmax(l + testnet_uniform(&st) * (u - l), l), u);
        long double gap_lo = INFINITY, gap_hi = INFINITY;
        for (int p = 0; p < np; p++) {
            long double z = pts[p], f = recip ? 1.0L / z : expl(z), ref = fabsl(f) * 0x1p-60L;
            long double lo = (long double)sl * z + tl, hi = (long double)su * z + tu;
            REQUIRE_MSG(lo <= f + ref && f - ref <= hi, "%s on [%.17g, %.17g] at %.17g: %.17Lg not "
                        "in [%.17Lg, %.17Lg]", recip ? "1/v" : "exp", l, u, (double)z, f, lo, hi);
            gap_lo = fminl(gap_lo, (f - lo) / f);
            gap_hi = fminl(gap_hi, (hi - f) / f);
        }
        if (u - l > 0x1p-10 * fabs(l) + 0x1p-10)
            REQUIRE_MSG(gap_lo <= 0x1p-30L && gap_hi <= 0x1p-30L, "%s on [%.17g, %.17g]: the lines "
                        "touch nowhere (relative gaps %.3Lg, %.3Lg)", recip ? "1/v" : "exp", l, u,
                        gap_lo, gap_hi);
    }
}
END_TEST

/* ---- the convex kinds: Exp, the reciprocal, Sqrt, Log, Softplus ----
 * (testnet_cvx_holds: a line against an enclosure of the real f, no tolerance) */

/* The lines of every convex kind (vfy_bound_act_lines) on 30,000 random intervals: narrow, wide,
 * huge, near a pole (1/v and log just above 0, sqrt from 0), points and pairs of adjacent doubles,
 * 1/v on either side of 0: every line holds at the ends, their neighbours, the midpoint, the
 * tangent points and 40 random (for wide positive intervals also log-uniform) points, against
 * the enclosure of cvx_holds; the lines are finite; on intervals neither tiny nor huge they touch
 * f (the chord at an end, the tangent near its point: not vacuous). Outside the domain or across
 * a pole no lines (intercepts -inf and +inf). */
START_TEST(test_convex_lines)
{
    const char *const *names = testnet_cvx_names;
    uint64_t st = 9400 + (uint64_t)_i;
    for (int rep = 0; rep < 30000; rep++) {
        int ki;
        double l, u, sl, tl, su, tu;
        testnet_cvx_case(rep, &st, &ki, &l, &u);
        vfy_layer_kind kind = testnet_cvx_kinds[ki];
        vfy_bound_act_lines(kind, l, u, &sl, &tl, &su, &tu);
        /* (finite wherever f is: 1/v of a subnormal, exp near 710 exceed the doubles) */
        int fin = fabsl(testnet_cvx_ref(kind, l)) < 0x1p1020L &&
                  fabsl(testnet_cvx_ref(kind, u)) < 0x1p1020L;
        REQUIRE_MSG((!fin || (isfinite(sl) && isfinite(tl) && isfinite(su) && isfinite(tu))) &&
                    (kind == VFY_LAYER_RECIP || (sl >= 0 && su >= 0)),
                    "%s on [%a, %a]: lines %a z + %a, %a z + %a", names[ki], l, u, sl, tl, su, tu);
        double z[64];
        int nz = 0;
        z[nz++] = l;
        z[nz++] = u;
        z[nz++] = nextafter(l, INFINITY);
        z[nz++] = nextafter(u, -INFINITY);
        z[nz++] = 0.5 * l + 0.5 * u;
        z[nz++] = l > 0 ? sqrt(l) * sqrt(u) : (u < 0 ? -(sqrt(-l) * sqrt(-u)) : 0);
        for (int g = 0; g < 40; g++) {
            double v = testnet_uniform(&st);
            z[nz++] = g % 2 && l > 0 && u > 2 * l ? exp(log(l) + v * (log(u) - log(l)))
                                                  : l + v * (u - l);
        }
        for (int g = 0; g < nz; g++) {
            if (!(z[g] >= l && z[g] <= u))
                continue;
            REQUIRE_MSG(testnet_cvx_holds(kind, z[g], sl, tl, su, tu),
                        "%s on [%.17g, %.17g] at %.17g: "
                        "lower %.17g z + %.17g, upper %.17g z + %.17g, f = %.20Lg", names[ki], l, u,
                        z[g], sl, tl, su, tu, testnet_cvx_ref(kind, z[g]));
        }
        /* not vacuous: where the interval is neither tiny nor huge, the chord meets f at an end
         * and the tangent near its point, within 2^-30 of f's magnitude there */
        double fm = fmax(fabs((double)testnet_cvx_ref(kind, l)),
                         fabs((double)testnet_cvx_ref(kind, u)));
        if (!(u - l > 1e-3 * fmax(fabs(l), 1e-3) && fabs(l) < 1e3 && fabs(u) < 1e3 &&
              fm < 1e12 && (kind != VFY_LAYER_EXP || u < 40)))
            continue;
        long double best_lo = INFINITY, best_hi = INFINITY;
        for (int g = 0; g < 6; g++) {
            if (!(z[g] >= l && z[g] <= u))
                continue;
            long double f = testnet_cvx_ref(kind, z[g]);
            best_lo = fminl(best_lo, f - ((long double)sl * z[g] + tl));
            best_hi = fminl(best_hi, (long double)su * z[g] + tu - f);
        }
        REQUIRE_MSG(best_lo <= 0x1p-30L * (fm + 1) && best_hi <= 0x1p-30L * (fm + 1),
                    "%s on [%.17g, %.17g]: the lines touch nowhere (gaps %.3Lg, %.3Lg)", names[ki],
                    l, u, best_lo, best_hi);
    }
    /* outside the domain, or touching or across a pole: no lines */
    const struct {
        vfy_layer_kind k;
        double l, u;
    } bad[] = {{VFY_LAYER_RECIP, -1, 1}, {VFY_LAYER_RECIP, 0, 1}, {VFY_LAYER_RECIP, -1, 0},
               {VFY_LAYER_RECIP, NAN, 1}, {VFY_LAYER_SQRT, -1e-300, 1}, {VFY_LAYER_SQRT, -2, -1},
               {VFY_LAYER_LOG, 0, 1}, {VFY_LAYER_LOG, -1, 2}};
    for (size_t t = 0; t < sizeof bad / sizeof bad[0]; t++) {
        double sl, tl, su, tu;
        vfy_bound_act_lines(bad[t].k, bad[t].l, bad[t].u, &sl, &tl, &su, &tu);
        REQUIRE_MSG(tl == -INFINITY && tu == INFINITY, "case %zu: lines %g z + %g, %g z + %g", t,
                    sl, tl, su, tu);
    }
}
END_TEST

/* A standalone convex layer alone, y = f(x), on the point box [c, c] (not widened: f's input is
 * exact): under the float claim IBP's bounds and CROWN's rows (+y and -y) leave room for a float
 * execution's allowance E = rel |f| + abs (relative to the output: at sqrt(2^40) = 2^20 it is
 * 2^-4), and under the real claim they are within |f| 2^-40 + 2^-60 of f (tight: the allowance is
 * the float claim's only). f in long double. */
START_TEST(test_convex_exec_allowance)
{
    const testnet_cvx_pt *pts = testnet_cvx_pts;
    for (size_t p = 0; p < TESTNET_CVX_PTS; p++) {
        vfy_net *net = calloc(1, sizeof *net);
        ck_assert_ptr_nonnull(net);
        net->n_in = net->n_out = 1;
        ck_assert_int_eq(vfy_net_push(net, pts[p].k, 1, 1, NULL, NULL, 0, 0, "f", NULL), VFY_OK);
        double c = pts[p].c;
        long double f = testnet_cvx_ref(pts[p].k, c), af = fabsl(f);
        long double E = af * pts[p].rel + pts[p].ab, tight = af * 0x1p-40L + 0x1p-60L;
        for (int fsem = 0; fsem < 2; fsem++) {
            vfy_bound_ctx *ctx;
            ck_assert_int_eq(vfy_bound_ctx_create(net, fsem, &ctx, NULL), VFY_OK);
            vfy_bounds *bi = vfy_bounds_create(ctx), *bc = vfy_bounds_create(ctx);
            ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_IBP, &c, &c, NULL, bi), VFY_OK);
            ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, &c, &c, NULL, bc), VFY_OK);
            const double cy[2] = {1, -1};
            double lb[2];
            ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_CROWN, &c, &c, bc, 2, cy, NULL, lb,
                                            NULL, NULL), VFY_OK);
            long double lo = bi->lo[0][0], hi = bi->hi[0][0], rl = lb[0], rh = -lb[1];
            if (fsem)
                REQUIRE_MSG(lo <= f - E && hi >= f + E && rl <= f - E && rh >= f + E,
                            "kind %d at %g: f = %.20Lg, E = %.3Lg: IBP [%.20Lg, %.20Lg], rows "
                            "[%.20Lg, %.20Lg]", (int)pts[p].k, c, f, E, lo, hi, rl, rh);
            else
                REQUIRE_MSG(lo <= f && f <= hi && rl <= f && f <= rh && f - lo <= tight &&
                            hi - f <= tight && f - rl <= tight && rh - f <= tight,
                            "kind %d at %g (real): f = %.20Lg: IBP [%.20Lg, %.20Lg], rows [%.20Lg, "
                            "%.20Lg]", (int)pts[p].k, c, f, lo, hi, rl, rh);
            vfy_bounds_free(bi);
            vfy_bounds_free(bc);
            vfy_bound_ctx_free(ctx);
        }
        vfy_net_free(net);
    }
}
END_TEST

/* Push a Softmax over groups of m of the current n values as bound.c's callers see it after
 * graph.c's lowering: DENSE differences, EXP, DENSE sums (+1), RECIP. */
static void push_softmax(vfy_net *net, int64_t n, int64_t m)
{
    int64_t nd = n * (m - 1);
    double *w = calloc((size_t)(nd * n), sizeof *w), *b = calloc((size_t)nd, sizeof *b);
    ck_assert(w && b);
    for (int64_t i = 0, r = 0; i < n; i++)
        for (int64_t j = i / m * m; j < i / m * m + m; j++)
            if (j != i) {
                w[r * n + j] = 1;
                w[r * n + i] = -1;
                r++;
            }
    ck_assert_int_eq(vfy_net_push(net, VFY_LAYER_DENSE, n, nd, w, b, 0, 2, "diff", NULL), VFY_OK);
    ck_assert_int_eq(vfy_net_push(net, VFY_LAYER_EXP, nd, nd, NULL, NULL, 0, m, "exp", NULL),
                     VFY_OK);
    w = calloc((size_t)(nd * n), sizeof *w);
    b = calloc((size_t)n, sizeof *b);
    ck_assert(w && b);
    for (int64_t i = 0; i < n; i++) {
        for (int64_t t = 0; t < m - 1; t++)
            w[i * nd + i * (m - 1) + t] = 1;
        b[i] = 1;
    }
    ck_assert_int_eq(vfy_net_push(net, VFY_LAYER_DENSE, nd, n, w, b, 0, m, "sum", NULL), VFY_OK);
    ck_assert_int_eq(vfy_net_push(net, VFY_LAYER_RECIP, n, n, NULL, NULL, 0, m, "recip", NULL),
                     VFY_OK);
}

/* A Softmax inside the net (attention-like weights): x (3) -> DENSE (6) -> Softmax over two
 * groups of 3 -> DENSE -> RELU -> DENSE (2). IBP, CROWN and alpha-CROWN on the hidden layers and
 * the rows contain every sampled execution of the real network (the Softmax computed directly,
 * max-subtracted, in long double); under the float claim the bounds of the Softmax's outputs
 * contain a float32 runtime's Softmax too, and the rows its float32 output. */
START_TEST(test_softmax_bounds_contain)
{
    uint64_t st = 5300 + (uint64_t)_i;
    vfy_net *net = calloc(1, sizeof *net);
    ck_assert_ptr_nonnull(net);
    net->n_in = 3;
    net->n_out = 2;
    double scale = _i % 2 ? 3.0 : 1.0; /* (saturated Softmax groups at 3) */
    const int64_t sizes[][2] = {{3, 6}, {6, 5}, {5, 2}};
    double *W[3], *B[3];
    for (int l = 0; l < 3; l++) {
        int64_t ni = sizes[l][0], no = sizes[l][1];
        W[l] = vfy_alloc_array((size_t)(ni * no), sizeof(double));
        B[l] = vfy_alloc_array((size_t)no, sizeof(double));
        ck_assert(W[l] && B[l]);
        for (int64_t t = 0; t < ni * no; t++)
            W[l][t] = (double)(float)(scale * (2 * testnet_uniform(&st) - 1));
        for (int64_t t = 0; t < no; t++)
            B[l][t] = (double)(float)(testnet_uniform(&st) - 0.5);
    }
    double *Wc[3], *Bc[3]; /* (the net owns its layers' arrays: keep copies for the reference) */
    for (int l = 0; l < 3; l++) {
        Wc[l] = malloc((size_t)(sizes[l][0] * sizes[l][1]) * sizeof(double));
        Bc[l] = malloc((size_t)sizes[l][1] * sizeof(double));
        memcpy(Wc[l], W[l], (size_t)(sizes[l][0] * sizes[l][1]) * sizeof(double));
        memcpy(Bc[l], B[l], (size_t)sizes[l][1] * sizeof(double));
    }
    ck_assert(!vfy_net_push(net, VFY_LAYER_DENSE, 3, 6, W[0], B[0], 0, 3, "d0", NULL));
    push_softmax(net, 6, 3);
    ck_assert(!vfy_net_push(net, VFY_LAYER_DENSE, 6, 5, W[1], B[1], 0, 6, "d1", NULL));
    ck_assert(!vfy_net_push(net, VFY_LAYER_RELU, 5, 5, NULL, NULL, 0, 0, "r", NULL));
    ck_assert(!vfy_net_push(net, VFY_LAYER_DENSE, 5, 2, W[2], B[2], 0, 5, "d2", NULL));
    ck_assert_int_eq(vfy_net_validate(net, NULL), VFY_OK);
    int64_t ksm = 4; /* the RECIP layer: the Softmax's outputs */
    ck_assert(net->layers[ksm].kind == VFY_LAYER_RECIP);
    for (int fsem = 0; fsem < 2; fsem++) {
        vfy_bound_ctx *ctx;
        ck_assert_int_eq(vfy_bound_ctx_create(net, fsem, &ctx, NULL), VFY_OK);
        vfy_bounds *bi = vfy_bounds_create(ctx), *bc = vfy_bounds_create(ctx);
        vfy_bounds *ba = vfy_bounds_create(ctx);
        double lo[3], hi[3], wlo[3], whi[3];
        for (int j = 0; j < 3; j++) {
            double c = 2 * testnet_uniform(&st) - 1, r = 0.05 + 0.4 * testnet_uniform(&st);
            lo[j] = wlo[j] = c - r;
            hi[j] = whi[j] = c + r;
        }
        enum { K = 3 };
        double cy[K * 2], lbc[K], lba[K];
        three_bounds(ctx, 3, wlo, whi, bi, bc, ba, &st, K, 2, cy, lbc, lba);
        ck_assert(!bi->overflow && !bc->overflow);
        for (int i = 0; i < K; i++)
            ck_assert(isfinite(lbc[i]) && lba[i] >= lbc[i]);
        const vfy_bounds *bs[3] = {bi, bc, ba};
        for (int smp = 0; smp < 600; smp++) {
            long double x[3], h[6], s[6], g[5], y[2];
            float xf[3], hf[6], sf[6], gf[5], yf[2];
            for (int j = 0; j < 3; j++) {
                double u = smp < 8 ? (double)((smp >> j) & 1) : testnet_uniform(&st);
                xf[j] = (float)fmin(fmax(lo[j] + u * (hi[j] - lo[j]), lo[j]), hi[j]);
                if ((double)xf[j] < lo[j] || (double)xf[j] > hi[j])
                    xf[j] = (float)(0.5 * lo[j] + 0.5 * hi[j]);
                x[j] = xf[j];
            }
            for (int o = 0; o < 6; o++) {
                h[o] = Bc[0][o];
                hf[o] = (float)Bc[0][o];
                for (int i = 0; i < 3; i++) {
                    h[o] += (long double)Wc[0][o * 3 + i] * x[i];
                    hf[o] += (float)Wc[0][o * 3 + i] * xf[i];
                }
            }
            for (int q = 0; q < 2; q++) { /* the Softmax directly, as a runtime computes it */
                long double top = fmaxl(fmaxl(h[3 * q], h[3 * q + 1]), h[3 * q + 2]), sum = 0;
                float topf = fmaxf(fmaxf(hf[3 * q], hf[3 * q + 1]), hf[3 * q + 2]), sumf = 0;
                for (int t = 0; t < 3; t++) {
                    sum += expl(h[3 * q + t] - top);
                    sumf += expf(hf[3 * q + t] - topf);
                }
                for (int t = 0; t < 3; t++) {
                    s[3 * q + t] = expl(h[3 * q + t] - top) / sum;
                    sf[3 * q + t] = expf(hf[3 * q + t] - topf) / sumf;
                }
            }
            for (int o = 0; o < 5; o++) {
                g[o] = Bc[1][o];
                gf[o] = (float)Bc[1][o];
                for (int i = 0; i < 6; i++) {
                    g[o] += (long double)Wc[1][o * 6 + i] * s[i];
                    gf[o] += (float)Wc[1][o * 6 + i] * sf[i];
                }
                g[o] = g[o] > 0 ? g[o] : 0;
                gf[o] = gf[o] > 0 ? gf[o] : 0;
            }
            for (int o = 0; o < 2; o++) {
                y[o] = Bc[2][o];
                yf[o] = (float)Bc[2][o];
                for (int i = 0; i < 5; i++) {
                    y[o] += (long double)Wc[2][o * 5 + i] * g[i];
                    yf[o] += (float)Wc[2][o * 5 + i] * gf[i];
                }
            }
            for (int q = 0; q < 3; q++)
                for (int j = 0; j < 6; j++) {
                    long double lo_ = bs[q]->lo[ksm][j], hi_ = bs[q]->hi[ksm][j];
                    REQUIRE_MSG(lo_ <= s[j] && s[j] <= hi_ && (!fsem || (lo_ <= sf[j] &&
                                sf[j] <= hi_)), "fsem %d bounds %d softmax %d: %.17Lg (float32 "
                                "%.9g) not in [%.17Lg, %.17Lg]", fsem, q, j, s[j], (double)sf[j],
                                lo_, hi_);
                }
            for (int i = 0; i < K; i++) {
                long double v = cy[2 * i] * y[0] + cy[2 * i + 1] * y[1];
                long double vf = cy[2 * i] * (long double)yf[0] +
                                 cy[2 * i + 1] * (long double)yf[1];
                REQUIRE_MSG(lbc[i] <= v && lba[i] <= v && (!fsem || (lbc[i] <= vf && lba[i] <= vf)),
                            "fsem %d row %d: value %.17Lg (float32 %.17Lg), CROWN %.17g, alpha "
                            "%.17g", fsem, i, v, vf, lbc[i], lba[i]);
            }
        }
        vfy_bounds_free(bi);
        vfy_bounds_free(bc);
        vfy_bounds_free(ba);
        vfy_bound_ctx_free(ctx);
    }
    for (int l = 0; l < 3; l++) {
        free(Wc[l]);
        free(Bc[l]);
    }
    vfy_net_free(net);
}
END_TEST

/* The gap a b - (sa a + sb b + t) at one point in __float128 (113 bits): a and b on the grid of
 * 2^-12 in [-4, 4], so every product is exact and the sum off by at most about 2^-105, far below
 * the outward rounding of a certified intercept (about 2^-52 of the terms), so the sign of a gap
 * that matters is exact. */
static __float128 plane_gap(double a, double b, double sa, double sb, double t)
{
    return (__float128)a * b - ((__float128)sa * a + (__float128)sb * b + (__float128)t);
}

/* vfy_bound_product_plane on random boxes (grid of 2^-12, some straddling 0, some flat), every
 * side and mix theta (the ends 0 and 1 among them), exactly: below a b (or above) at the box's
 * four vertices, so everywhere (a b minus a plane is bilinear); a square's tangent below a^2 at
 * its point of contact and the ends. Each plane touches where its certificate says (within
 * 2^-40 of 0 at some vertex or at the tangent point): an intercept lower than needed shows, as
 * one raised by 1e-9 fails the first check. */
START_TEST(test_product_mixed_plane)
{
    uint64_t st = 8100 + (uint64_t)_i;
    for (int rep = 0; rep < 3000; rep++) {
        double la = round((4 * testnet_uniform(&st) - 2) * 4096) / 4096;
        double ua = la + round(testnet_uniform(&st) * 2 * 4096) / 4096;
        double lb = round((4 * testnet_uniform(&st) - 2) * 4096) / 4096;
        double ub = lb + round(testnet_uniform(&st) * 2 * 4096) / 4096;
        int square = rep % 3 == 0, upper = (rep / 3) % 2;
        double theta = rep % 7 == 0 ? 0.0 : (rep % 7 == 1 ? 1.0 : testnet_uniform(&st));
        if (square) {
            lb = la;
            ub = ua;
        }
        double sa, sb, t;
        vfy_bound_product_plane(la, ua, lb, ub, square, upper, theta, &sa, &sb, &t);
        ck_assert(isfinite(sa) && isfinite(sb) && isfinite(t));
        const double av[2] = {la, ua}, bv[2] = {lb, ub};
        __float128 closest = 1e9;
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) {
                double b = square ? av[i] : bv[j];
                __float128 g = plane_gap(av[i], b, sa, sb, t), gs = upper ? -g : g;
                REQUIRE_MSG(gs >= 0, "rep %d (square %d, upper %d, theta %.17g): box [%.17g, "
                            "%.17g] x [%.17g, %.17g], plane %.17g a + %.17g b + %.17g is on the "
                            "wrong side at (%.17g, %.17g)", rep, square, upper, theta, la, ua, lb,
                            ub, sa, sb, t, av[i], b);
                closest = gs < closest ? gs : closest;
            }
        if (square && !upper) {
            double d = 0.5 * sa; /* the tangent point (its slope is 2 d, exact) */
            ck_assert(d >= la && d <= ua);
            __float128 g = plane_gap(d, d, sa, sb, t);
            REQUIRE_MSG(g >= 0, "rep %d: the tangent at %.17g above a^2 (intercept %.17g)", rep,
                        d, t);
            closest = g < closest ? g : closest;
        }
        REQUIRE_MSG(closest <= 0x1p-40, "rep %d (square %d, upper %d, theta %.17g): the plane "
                    "%.17g a + %.17g b + %.17g touches nowhere (closest %.3g)", rep, square, upper,
                    theta, sa, sb, t, (double)closest);
    }
}
END_TEST

/* alpha-CROWN's mixes of McCormick's planes (product_mixed_plane): on the products a b, c^2 and
 * b c and a copy of d, rows mixing products and inputs are bounded by alpha with the mixes
 * optimised and without (vfy_bound_ctx_set_act_search 0: the mean planes). Every row's bound
 * holds at the box's 16 vertices (where the planes touch: an intercept too high by one rounding
 * shows) and at samples, exactly (float32 inputs: the products are exact in double), for the
 * real and the float32-rounded products; the mixes' bound is never below the mean planes' and
 * above it on some rows. */
START_TEST(test_product_alpha_mix)
{
    vfy_net net = {0};
    product4_net(&net);
    vfy_bound_ctx *ctx, *mean;
    ck_assert_int_eq(vfy_bound_ctx_create(&net, 1, &ctx, NULL), VFY_OK);
    ck_assert_int_eq(vfy_bound_ctx_create(&net, 1, &mean, NULL), VFY_OK);
    vfy_bound_ctx_set_act_search(mean, 0);
    vfy_bounds *b = vfy_bounds_create(ctx), *bm = vfy_bounds_create(mean);
    uint64_t st = 7300 + (uint64_t)_i;
    enum { K = 8 };
    int better = 0;
    for (int rd = 0; rd < 20; rd++) {
        double lo[4], hi[4], cy[K * 4], cx[K * 4], lb[K], lbm[K];
        /* (on the grid of 2^-12: every product, float32 rounding and row sum below is exact in
         * long double) */
        for (int j = 0; j < 4; j++) {
            lo[j] = round((2 * testnet_uniform(&st) - 1) * 4096) / 4096;
            hi[j] = lo[j] + (1 + round(testnet_uniform(&st) * 4096)) / 4096;
        }
        ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo, hi, NULL, b), VFY_OK);
        ck_assert_int_eq(vfy_bound_layers(mean, VFY_BOUND_CROWN, lo, hi, NULL, bm), VFY_OK);
        for (int i = 0; i < K; i++)
            for (int j = 0; j < 4; j++) {
                cy[i * 4 + j] = (double)(int)(testnet_uniform(&st) * 5) - 2;
                cx[i * 4 + j] = (double)(int)(testnet_uniform(&st) * 7) - 3;
            }
        ck_assert_int_eq(vfy_bound_rows_alpha(ctx, lo, hi, b, K, cy, cx, NULL, 30, lb, NULL,
                                              NULL), VFY_OK);
        ck_assert_int_eq(vfy_bound_rows_alpha(mean, lo, hi, bm, K, cy, cx, NULL, 30, lbm, NULL,
                                              NULL), VFY_OK);
        for (int i = 0; i < K; i++) {
            REQUIRE_MSG(lb[i] >= lbm[i], "round %d row %d: mixes %.17g below the mean planes' "
                        "%.17g", rd, i, lb[i], lbm[i]);
            better += lb[i] > lbm[i] + 1e-6;
        }
        for (int s = 0; s < 60; s++) {
            double x[4];
            float xf[4], yf[4];
            for (int j = 0; j < 4; j++) {
                double u = s < 16 ? (double)((s >> j) & 1) : testnet_uniform(&st);
                x[j] = fmin(lo[j] + round(u * (hi[j] - lo[j]) * 4096) / 4096, hi[j]);
                xf[j] = (float)x[j]; /* (exact) */
            }
            double y[4];
            product4_eval(x, xf, y, yf);
            for (int i = 0; i < K; i++) {
                /* the rows' values: integer multiples of products on the grid of 2^-48, at most
                 * 2^7 in magnitude, summed in long double (64 bits: exact) */
                long double row = 0, rowf = 0;
                for (int j = 0; j < 4; j++) {
                    row += (long double)cy[i * 4 + j] * y[j] + (long double)cx[i * 4 + j] * x[j];
                    rowf += (long double)cy[i * 4 + j] * yf[j] + (long double)cx[i * 4 + j] * x[j];
                }
                REQUIRE_MSG(lb[i] <= row && lb[i] <= rowf,
                            "round %d row %d at sample %d: value %.17Lg (float32 execution "
                            "%.17Lg), bound %.17g", rd, i, s, row, rowf, lb[i]);
            }
        }
    }
    REQUIRE_MSG(better > 0, "the mixes never beat the mean planes");
    vfy_bounds_free(b);
    vfy_bounds_free(bm);
    vfy_bound_ctx_free(ctx);
    vfy_bound_ctx_free(mean);
    free_layers(&net);
}
END_TEST

/* Activation layers passing their first elements through (values carried past a Sigmoid or a
 * Tanh: SiLU-like gates x sigmoid(y) through a PRODUCT): IBP, CROWN, alpha-CROWN on the hidden
 * layers and the rows' alpha bounds (optimised Sigmoid/Tanh lines) contain every sampled
 * execution, double and float32, no tolerance; the passed elements' bounds are their inputs'
 * exactly; the relaxed network at alpha's gradient point equals that pass's bound. */
START_TEST(test_pass_through_sound)
{
    uint64_t st = 5100 + (uint64_t)_i;
    vfy_net *net = testnet_random_gated(5200 + (uint64_t)_i, 5, 3, 1.5);
    ck_assert_ptr_nonnull(net);
    ck_assert(net->layers[1].kind == VFY_LAYER_SIGMOID && net->layers[1].n_pass == 4);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
    double lo[5], hi[5], wlo[5], whi[5];
    random_box(&st, 5, 0.1, 0.6, ctx, lo, hi, wlo, whi);
    vfy_bounds *bi = vfy_bounds_create(ctx), *bc = vfy_bounds_create(ctx);
    vfy_bounds *bt = vfy_bounds_create(ctx);
    layer_bounds3(ctx, wlo, whi, bi, bc, bt);
    for (int64_t j = 0; j < 4; j++)
        ck_assert(bc->lo[1][j] == bc->lo[0][j] && bc->hi[1][j] == bc->hi[0][j]);
    check_contains(net, bi, lo, hi, 31 + (uint64_t)_i, 400);
    check_contains(net, bc, lo, hi, 31 + (uint64_t)_i, 400);
    check_contains(net, bt, lo, hi, 31 + (uint64_t)_i, 400);
    enum { K = 3 };
    double cy[K * 3], lbc[K], lba[K], x[5], y[3];
    for (int64_t i = 0; i < K * 3; i++)
        cy[i] = (double)(int)(testnet_uniform(&st) * 5) - 2;
    ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_CROWN, wlo, whi, bc, K, cy, NULL, lbc, NULL,
                                    NULL), VFY_OK);
    ck_assert_int_eq(vfy_bound_rows_alpha(ctx, wlo, whi, bc, K, cy, NULL, NULL, 30, lba, NULL,
                                          NULL), VFY_OK);
    double scr[64];
    for (int t = 0; t < 4000; t++) {
        for (int64_t j = 0; j < 5; j++)
            x[j] = lo[j] + testnet_uniform(&st) * (hi[j] - lo[j]);
        vfy_eval_f64(net, x, y, scr);
        for (int i = 0; i < K; i++) {
            double v = cy[i * 3] * y[0] + cy[i * 3 + 1] * y[1] + cy[i * 3 + 2] * y[2];
            REQUIRE_MSG(v >= lba[i] && lba[i] >= lbc[i], "row %d: value %.17g, alpha %.17g, "
                        "CROWN %.17g", i, v, lba[i], lbc[i]);
        }
    }
    /* the real semantics, double products (no allowance between the two) */
    vfy_bound_ctx *c0;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 0, &c0, NULL), VFY_OK);
    vfy_bound_ctx_set_f32(c0, 0);
    vfy_bounds *b0 = vfy_bounds_create(c0);
    ck_assert_int_eq(vfy_bound_layers(c0, VFY_BOUND_CROWN, wlo, whi, NULL, b0), VFY_OK);
    ck_assert_int_eq(vfy_bound_rows_alpha(c0, wlo, whi, b0, K, cy, NULL, NULL, 30, lba, NULL,
                                          NULL), VFY_OK);
    double val[K], plb[K];
    REQUIRE_MSG(vfy_bound_primal_last(b0, K, val, plb), "no gradient step");
    for (int64_t i = 0; i < K; i++)
        REQUIRE_MSG(isfinite(plb[i]) && fabs(val[i] - plb[i]) <= 1e-9 * (1 + fabs(plb[i])),
                    "row %lld: relaxed network's value %.17g at the primal point, bound %.17g",
                    (long long)i, val[i], plb[i]);
    vfy_bounds_free(b0);
    vfy_bound_ctx_free(c0);
    vfy_bounds_free(bi);
    vfy_bounds_free(bc);
    vfy_bounds_free(bt);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* alpha-CROWN's gradient step goes through each PRODUCT as the row's relaxation does (the plane
 * of tl or tu by the sign of the row's coefficient): the relaxed network's value at the primal
 * point equals the bound of that pass, with and without a ReLU split. */
START_TEST(test_product_primal)
{
    uint64_t st = 9900 + (uint64_t)_i;
    vfy_net *net = testnet_random_product(9910 + (uint64_t)_i, 6, 3, 1.0, _i % 2);
    ck_assert_ptr_nonnull(net);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 0, &ctx, NULL), VFY_OK);
    vfy_bound_ctx_set_f32(ctx, 0);
    double lo[6], hi[6], wlo[6], whi[6], x0[6], cy[4 * 3], lb[4];
    random_box(&st, 6, 0.2, 0.5, ctx, lo, hi, wlo, whi);
    vfy_bounds *b = vfy_bounds_create(ctx);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo, whi, NULL, b), VFY_OK);
    int64_t idx[3], kq[3], jq[3], n = 0;
    signed char sg[3];
    for (int64_t j = 0; j < 6; j++)
        x0[j] = lo[j] + testnet_uniform(&st) * (hi[j] - lo[j]);
    if (_i >= 2)
        n = split_domain(net, ctx, b, wlo, whi, x0, &st, idx, kq, jq, sg, NULL);
    vfy_splits sp = {n, idx, sg, NULL};
    for (int64_t i = 0; i < 4 * 3; i++)
        cy[i] = (double)(int)(testnet_uniform(&st) * 5) - 2;
    ck_assert_int_eq(vfy_bound_rows_alpha(ctx, wlo, whi, b, 4, cy, NULL, n ? &sp : NULL, 20, lb,
                                          NULL, NULL), VFY_OK);
    double val[4], plb[4];
    REQUIRE_MSG(vfy_bound_primal_last(b, 4, val, plb), "no gradient step");
    for (int64_t i = 0; i < 4; i++)
        REQUIRE_MSG(isfinite(plb[i]) && fabs(val[i] - plb[i]) <= 1e-9 * (1 + fabs(plb[i])),
                    "(%lld splits) row %lld: relaxed network's value %.17g at the primal point, "
                    "bound %.17g", (long long)n, (long long)i, val[i], plb[i]);
    vfy_bounds_free(b);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* The convolution form cv of the CSR matrix c: |A| v and the count of nonzero weights on inputs
 * v > 0, against the CSR kernels (y1, y2: c->m; c1: c->n; ws: vfy_la_conv_ws_len). */
static void conv_abs_count_check(const vfy_conv *cv, const vfy_csr *c, const double *v, double *y1,
                                 double *y2, double *c1, double *ws)
{
    vfy_la_conv_fwd(cv, VFY_CONV_ABS, 1, v, y1, ws);
    vfy_la_csr_gemv(c, v, y2, 0, 1);
    REQUIRE(memcmp(y1, y2, (size_t)c->m * 8) == 0);
    for (int64_t q = 0; q < c->n; q++)
        c1[q] = v[q] > 0;
    vfy_la_conv_fwd(cv, VFY_CONV_NZ, 1, c1, y1, ws);
    for (int64_t o = 0; o < c->m; o++) {
        int64_t cnt = 0;
        for (int64_t p = c->row_start[o]; p < c->row_start[o + 1]; p++)
            cnt += v[c->col[p]] > 0;
        REQUIRE(y1[o] == (double)cnt);
    }
}

/* The convolution a (m x n, geometry g) as the last rows' block of a larger matrix: e rows above
 * it and pc columns before it and qc after, with entries outside the block (the values a network
 * carries beside a convolution: copies, a residual identity, a few random weights). The products
 * through the block and its rest equal the CSR kernels' bit for bit (integer values: every sum
 * exact); the block is found from the hinted columns, and from the last ones when the hint is
 * wrong and qc is 0; too many entries outside it, and none is taken. */
static void embedded_conv_check(const vfy_conv_geom *g, const double *a, uint64_t *st, int rep)
{
    int64_t m = g->oc * g->oh * g->ow, n = g->c * g->h * g->w;
    int64_t e = 1 + (int64_t)(testnet_uniform(st) * 4), pc = (int64_t)(testnet_uniform(st) * 5);
    int64_t qc = rep % 2 ? 0 : 1 + (int64_t)(testnet_uniform(st) * 4);
    int64_t M = e + m, N = pc + n + qc;
    double *b = calloc((size_t)(M * N), 8);
    ck_assert(b);
    for (int64_t i = 0; i < m; i++)
        memcpy(b + (e + i) * N + pc, a + i * n, (size_t)n * 8);
    int64_t no = pc + qc; /* the columns outside the block: [0, pc) and [pc + n, N) */
    for (int64_t i = 0; i < e && no > 0; i++) /* copies of them */
        b[i * N + (i % no < pc ? i % no : n + i % no)] = 1.0;
    for (int64_t i = 0; i < e; i++)
        b[i * N + pc + (int64_t)(testnet_uniform(st) * n)] = 2.0;
    for (int64_t i = 0; i < m && no > 0; i += 3) /* a residual identity, every third row */
        b[(e + i) * N + (i % no < pc ? i % no : n + i % no)] = -1.0;
    vfy_csr *c = NULL;
    ck_assert(vfy_la_csr_build(M, N, b, 1.0, &c) && c);
    vfy_conv *cv = vfy_la_conv_match(g, c, pc);
    REQUIRE_MSG(cv && cv->r0 == e && cv->c0 == pc, "rep %d: embedded, no match (%lld x %lld, "
                "%lld entries)", rep, (long long)M, (long long)N, (long long)c->nnz);
    if (qc == 0 && pc > 0) {
        vfy_conv *cl = vfy_la_conv_match(g, c, pc - 1);
        REQUIRE_MSG(cl && cl->c0 == pc, "rep %d: the last columns not tried", rep);
        vfy_la_conv_free(cl);
    }
    int64_t K = 1 + rep % 3;
    double *v = calloc((size_t)(K * N), 8), *l = calloc((size_t)(K * M), 8);
    double *y1 = calloc((size_t)(K * M), 8), *y2 = calloc((size_t)(K * M), 8);
    double *c1 = calloc((size_t)(K * N), 8), *c2 = calloc((size_t)(K * N), 8);
    double *ws = calloc((size_t)vfy_la_conv_ws_len(cv), 8);
    double *cws = calloc((size_t)(16 * (M + N)), 8);
    ck_assert(v && l && y1 && y2 && c1 && c2 && ws && cws);
    for (int64_t q = 0; q < K * N; q++)
        v[q] = (double)((int)(testnet_uniform(st) * 9) - 4);
    for (int64_t q = 0; q < K * M; q++)
        l[q] = testnet_uniform(st) < 0.3 ? 0.0 : (double)((int)(testnet_uniform(st) * 9) - 4);
    vfy_la_conv_fwd(cv, VFY_CONV_W, K, v, y1, ws);
    vfy_la_csr_mul_t(K, v, c, y2, cws);
    REQUIRE_MSG(memcmp(y1, y2, (size_t)(K * M) * 8) == 0, "rep %d: embedded fwd", rep);
    vfy_la_conv_bwd(cv, K, l, c1, ws);
    vfy_la_csr_lmul(K, l, c, c2, cws);
    REQUIRE_MSG(memcmp(c1, c2, (size_t)(K * N) * 8) == 0, "rep %d: embedded bwd", rep);
    conv_abs_count_check(cv, c, v, y1, y2, c1, ws);
    vfy_conv *cp = vfy_la_conv_copy(cv);
    ck_assert(cp && cp->rest && cp->rest->nnz == cv->rest->nnz && cp->rest_nz);
    vfy_la_conv_free(cp);
    vfy_la_conv_free(cv);
    vfy_la_csr_free(c);
    /* more entries outside the block than in it: no convolution form */
    for (int64_t i = 0; i < e; i++)
        for (int64_t j = 0; j < N; j++)
            b[i * N + j] = 1.0;
    ck_assert(vfy_la_csr_build(M, N, b, 1.0, &c) && c);
    int64_t in_block = 0;
    for (int64_t q = 0; q < m * n; q++)
        in_block += a[q] != 0;
    REQUIRE(2 * (c->nnz - in_block) <= c->nnz || !vfy_la_conv_match(g, c, pc));
    vfy_la_csr_free(c);
    free(b), free(v), free(l), free(y1), free(y2), free(c1), free(c2), free(ws), free(cws);
}

/* Convolutions (la.h): the im2col products against the CSR kernels on random geometries (strides,
 * pads, dilations, groups), with small integer weights and inputs so that every sum is exact in
 * any order: equal bit for bit. vfy_la_conv_match takes exactly the matrices of its geometry (a
 * changed weight that only one output reads is another kernel: never the same one), and
 * none with fewer than 4 output channels per group. */
START_TEST(test_conv_kernels)
{
    uint64_t st = 4242 + (uint64_t)_i;
    for (int rep = 0; rep < 12; rep++) {
        vfy_conv_geom g = {0};
        g.groups = 1 + (int64_t)(testnet_uniform(&st) * 2);
        g.c = g.groups * (1 + (int64_t)(testnet_uniform(&st) * 3));
        g.oc = g.groups * (4 + (int64_t)(testnet_uniform(&st) * 3));
        g.h = 3 + (int64_t)(testnet_uniform(&st) * 6);
        g.w = 3 + (int64_t)(testnet_uniform(&st) * 6);
        g.kh = 1 + (int64_t)(testnet_uniform(&st) * 3);
        g.kw = 1 + (int64_t)(testnet_uniform(&st) * 3);
        g.sh = 1 + (int64_t)(testnet_uniform(&st) * 2);
        g.sw = 1 + (int64_t)(testnet_uniform(&st) * 2);
        g.dh = 1 + (int64_t)(testnet_uniform(&st) * 2);
        g.dw = 1 + (int64_t)(testnet_uniform(&st) * 2);
        g.pt = (int64_t)(testnet_uniform(&st) * 3);
        g.pl = (int64_t)(testnet_uniform(&st) * 3);
        g.oh = (g.h + 2 * g.pt - g.dh * (g.kh - 1) - 1) / g.sh + 1;
        g.ow = (g.w + 2 * g.pl - g.dw * (g.kw - 1) - 1) / g.sw + 1;
        if (g.oh < 1 || g.ow < 1)
            continue;
        int64_t cg = g.c / g.groups, ocg = g.oc / g.groups, ckk = cg * g.kh * g.kw;
        int64_t m = g.oc * g.oh * g.ow, n = g.c * g.h * g.w;
        double *ker = calloc((size_t)(g.oc * ckk), sizeof *ker), *a = calloc((size_t)(m * n), 8);
        ck_assert(ker && a);
        for (int64_t t = 0; t < g.oc * ckk; t++) /* a third of the weights 0 */
            ker[t] = testnet_uniform(&st) < 0.33 ? 0.0
                                                  : (double)((int)(testnet_uniform(&st) * 7) - 3);
        for (int64_t o = 0; o < m; o++) {
            int64_t oc = o / (g.oh * g.ow), oy = o / g.ow % g.oh, ox = o % g.ow;
            for (int64_t t = 0; t < ckk; t++) {
                int64_t kx = t % g.kw, ky = t / g.kw % g.kh, i = t / (g.kw * g.kh);
                int64_t iy = oy * g.sh - g.pt + ky * g.dh, ix = ox * g.sw - g.pl + kx * g.dw;
                if (iy >= 0 && iy < g.h && ix >= 0 && ix < g.w)
                    a[o * n + ((oc / ocg * cg + i) * g.h + iy) * g.w + ix] = ker[oc * ckk + t];
            }
        }
        vfy_csr *c = NULL;
        ck_assert(vfy_la_csr_build(m, n, a, 1.0, &c) && c);
        vfy_conv *cv = vfy_la_conv_match(&g, c, 0);
        REQUIRE_MSG(cv, "rep %d: no match", rep);
        {
            /* the first r rows of a: a 1 x 1 convolution on a 1 x 1 image of n channels, taken
             * from 4 output channels on, not at 3 */
            vfy_conv_geom g1 = {.c = n, .h = 1, .w = 1, .oh = 1, .ow = 1, .kh = 1, .kw = 1,
                                .sh = 1, .sw = 1, .dh = 1, .dw = 1, .groups = 1};
            for (g1.oc = 3; g1.oc <= 4 && g1.oc <= m; g1.oc++) {
                vfy_csr *c1x1 = NULL;
                ck_assert(vfy_la_csr_build(g1.oc, n, a, 1.0, &c1x1) && c1x1);
                vfy_conv *cv1 = vfy_la_conv_match(&g1, c1x1, 0);
                REQUIRE(g1.oc == 3 ? cv1 == NULL : cv1 != NULL);
                vfy_la_conv_free(cv1);
                vfy_la_csr_free(c1x1);
            }
        }
        int64_t K = 1 + rep % 5;
        double *v = calloc((size_t)(K * n), 8), *l = calloc((size_t)(K * m), 8);
        double *y1 = calloc((size_t)(K * m), 8), *y2 = calloc((size_t)(K * m), 8);
        double *c1 = calloc((size_t)(K * n), 8), *c2 = calloc((size_t)(K * n), 8);
        double *ws = calloc((size_t)vfy_la_conv_ws_len(cv), 8);
        double *cws = calloc((size_t)(16 * (m + n)), 8);
        ck_assert(v && l && y1 && y2 && c1 && c2 && ws && cws);
        for (int64_t q = 0; q < K * n; q++)
            v[q] = (double)((int)(testnet_uniform(&st) * 9) - 4);
        for (int64_t q = 0; q < K * m; q++)
            l[q] = (double)((int)(testnet_uniform(&st) * 9) - 4);
        vfy_la_conv_fwd(cv, VFY_CONV_W, K, v, y1, ws);
        vfy_la_csr_mul_t(K, v, c, y2, cws);
        REQUIRE(memcmp(y1, y2, (size_t)(K * m) * 8) == 0);
        vfy_la_conv_bwd(cv, K, l, c1, ws);
        vfy_la_csr_lmul(K, l, c, c2, cws);
        REQUIRE(memcmp(c1, c2, (size_t)(K * n) * 8) == 0);
        /* rows that are 0 outside a rectangle of output positions (a neuron's row a few layers
         * back), one all 0: the packed products of their support, the same bits */
        for (int64_t r = 0; r < K; r++) {
            int64_t ya = (int64_t)(testnet_uniform(&st) * g.oh);
            int64_t xa = (int64_t)(testnet_uniform(&st) * g.ow);
            int64_t yb = ya + 1 + (int64_t)(testnet_uniform(&st) * (g.oh - ya));
            int64_t xb = xa + 1 + (int64_t)(testnet_uniform(&st) * (g.ow - xa));
            for (int64_t o = 0; o < m; o++) {
                int64_t oy = o / g.ow % g.oh, ox = o % g.ow;
                if (r == 1 || oy < ya || oy >= yb || ox < xa || ox >= xb)
                    l[r * m + o] = 0.0;
            }
        }
        vfy_la_conv_bwd(cv, K, l, c1, ws);
        vfy_la_csr_lmul(K, l, c, c2, cws);
        REQUIRE_MSG(memcmp(c1, c2, (size_t)(K * n) * 8) == 0, "rep %d: sparse rows", rep);
        conv_abs_count_check(cv, c, v, y1, y2, c1, ws);
        embedded_conv_check(&g, a, &st, rep);
        vfy_conv *cp = vfy_la_conv_copy(cv);
        ck_assert(cp && memcmp(cp->k, cv->k, (size_t)(g.oc * ckk) * 8) == 0);
        vfy_la_conv_free(cp);
        vfy_la_conv_free(cv);
        /* not that convolution: one stored weight changed, another stride, a weight the kernel
         * does not have */
        if (c->nnz > 0) { /* (a kernel entry that only this row reads: another kernel) */
            c->val[c->nnz / 2] += 0.5;
            vfy_conv *cw = vfy_la_conv_match(&g, c, 0);
            REQUIRE(!cw || memcmp(cw->k, ker, (size_t)(g.oc * ckk) * 8) != 0);
            vfy_la_conv_free(cw);
            c->val[c->nnz / 2] -= 0.5;
        }
        vfy_conv_geom g2 = g;
        g2.sw = g.sw + 1;
        REQUIRE(g.ow < 2 || !vfy_la_conv_match(&g2, c, 0));
        vfy_la_csr_free(c);
        for (int64_t q = 0; q < m * n; q++)
            if (a[q] == 0 && testnet_uniform(&st) < 0.05) {
                a[q] = 1.0;
                ck_assert(vfy_la_csr_build(m, n, a, 1.0, &c) && c);
                vfy_conv *cw = vfy_la_conv_match(&g, c, 0);
                REQUIRE(!cw || memcmp(cw->k, ker, (size_t)(g.oc * ckk) * 8) != 0);
                vfy_la_conv_free(cw);
                vfy_la_csr_free(c);
                break;
            }
        free(ker), free(a), free(v), free(l), free(y1), free(y2), free(c1), free(c2), free(ws);
        free(cws);
    }
}
END_TEST

/* A benchmark's model and spec from ../shared/benchmarks; 0 (the test skipped, a line on stderr)
 * when the model is absent. */
static int load_bench(const char *model, const char *spec_path, vfy_net **net, vfy_spec **spec)
{
    FILE *f = fopen(model, "rb");
    if (!f) {
        fprintf(stderr, "skipped: %s is absent\n", model);
        return 0;
    }
    fclose(f);
    vfy_error err;
    *net = NULL;
    *spec = NULL;
    REQUIRE_MSG(vfy_onnx_load(model, net, &err) == VFY_OK, "%s", err.msg);
    REQUIRE_MSG(vfy_spec_load(spec_path, spec, &err) == VFY_OK, "%s", err.msg);
    return 1;
}

/* The benchmark conv nets (skipped without ../shared): the lowering gives every convolution of
 * oval21's cifar_wide_kw its convolution form, and bounds through it match those through the CSR
 * kernels up to the summation order and contain sampled executions (no tolerance). */
START_TEST(test_conv_bounds_benchmark)
{
    const char *model = "../shared/benchmarks/oval21/onnx/cifar_wide_kw.onnx";
    const char *spec_path =
        "../shared/benchmarks/oval21/vnnlib/cifar_wide_kw-img8517-eps0.006928104575163399.vnnlib";
    vfy_net *net;
    vfy_spec *spec;
    if (!load_bench(model, spec_path, &net, &spec))
        return;
    int n_conv = 0;
    for (int64_t k = 0; k < net->n_layers; k++)
        n_conv += net->layers[k].conv != NULL;
    ck_assert_int_eq(n_conv, 2);
    const double *lo = spec->boxes[0].lo, *hi = spec->boxes[0].hi;
    int64_t K = 9, ny = net->n_out;
    double cy[9 * 10] = {0}, lb1[9], lb2[9];
    for (int64_t i = 0; i < K; i++) {
        cy[i * ny] = 1;
        cy[i * ny + 1 + i] = -1;
    }
    double *flat[2] = {NULL, NULL};
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) /* the same net through the CSR kernels */
            for (int64_t k = 0; k < net->n_layers; k++) {
                vfy_la_conv_free(net->layers[k].conv);
                net->layers[k].conv = NULL;
            }
        vfy_bound_ctx *ctx;
        ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
        vfy_bounds *b = vfy_bounds_create(ctx);
        ck_assert(b);
        ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo, hi, NULL, b), VFY_OK);
        ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_CROWN, lo, hi, b, K, cy, NULL,
                                        pass ? lb2 : lb1, NULL, NULL), VFY_OK);
        flat[pass] = calloc((size_t)vfy_bounds_flat_size(ctx), sizeof(double));
        vfy_bounds_export(ctx, b, flat[pass]);
        int64_t nf = vfy_bounds_flat_size(ctx);
        if (pass == 1)
            for (int64_t q = 0; q < nf; q++)
                REQUIRE_MSG(fabs(flat[0][q] - flat[1][q]) <= 1e-9 * (1 + fabs(flat[1][q])),
                            "flat %lld: %.17g against %.17g", (long long)q, flat[0][q],
                            flat[1][q]);
        vfy_bounds_free(b);
        vfy_bound_ctx_free(ctx);
    }
    for (int64_t i = 0; i < K; i++)
        REQUIRE(fabs(lb1[i] - lb2[i]) <= 1e-9 * (1 + fabs(lb2[i])));
    /* sampled points (the CSR forward pass) above the conv forms' bounds */
    uint64_t st = 99;
    double *x = calloc((size_t)net->n_in, 8), *scr = calloc((size_t)vfy_eval_ws_len(net), 8), y[10];
    ck_assert(x && scr);
    for (int s = 0; s < 200; s++) {
        for (int64_t j = 0; j < net->n_in; j++) {
            double u = testnet_uniform(&st);
            x[j] = s % 2 ? (u < 0.5 ? lo[j] : hi[j]) : lo[j] + u * (hi[j] - lo[j]);
        }
        vfy_eval_f64(net, x, y, scr);
        for (int64_t i = 0; i < K; i++)
            REQUIRE_MSG(y[0] - y[1 + i] >= lb1[i], "sample %d row %lld: %.17g below %.17g", s,
                        (long long)i, y[0] - y[1 + i], lb1[i]);
    }
    free(x), free(scr), free(flat[0]), free(flat[1]);
    vfy_spec_free(spec);
    vfy_net_free(net);
}
END_TEST

/* The facets' mixes on a real conv net (skipped without ../shared): oval21 cifar_deep_kw
 * img1052's root box (widened as the verifier does), CROWN's layer bounds, 50 steps of alpha with
 * facets. While each gradient step chose every facet anew at its own point, the first row's margin
 * stayed at -0.0566 after 50, 200 or 1,000 steps (alpha alone -0.0804, the LP with each ReLU's hull
 * over its inputs' box +0.059): the facet tightest at one minimiser is loose at the next, and the
 * mix never settles. Kept between selections (bound.c: FAC_RESELECT) the facets let it settle,
 * and with every unstable neuron's facet the row is refuted there: +0.0155. Sampled executions
 * lie above every row's bound (no tolerance). */
START_TEST(test_facets_kept_benchmark)
{
    const char *model = "../shared/benchmarks/oval21/onnx/cifar_deep_kw.onnx";
    const char *spec_path =
        "../shared/benchmarks/oval21/vnnlib/cifar_deep_kw-img1052-eps0.010718954248366015.vnnlib";
    vfy_net *net;
    vfy_spec *spec;
    if (!load_bench(model, spec_path, &net, &spec))
        return;
    int64_t nx = net->n_in, ny = net->n_out, K = 0;
    double cy[16 * 10], rhs[16], lb[16], lo[3072], hi[3072];
    ck_assert(nx == 3072 && ny == 10);
    for (int64_t c = 0; c < spec->n_cases; c++)
        for (int64_t i = 0; i < spec->cases[c].n_rows; i++, K++) {
            ck_assert(K < 16 && spec->cases[c].rows[i].cx == NULL);
            memcpy(cy + K * ny, spec->cases[c].rows[i].cy, (size_t)ny * sizeof(double));
            rhs[K] = spec->cases[c].rows[i].rhs_hi;
        }
    ck_assert_int_eq(K, 9);
    memcpy(lo, spec->boxes[0].lo, sizeof lo);
    memcpy(hi, spec->boxes[0].hi, sizeof hi);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
    vfy_bound_widen_input(ctx, nx, lo, hi);
    vfy_bound_ctx_set_facets(ctx, 1);
    ck_assert(vfy_bound_ctx_facets(ctx));
    vfy_bounds *b = vfy_bounds_create(ctx);
    ck_assert(b);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo, hi, NULL, b), VFY_OK);
    ck_assert_int_eq(vfy_bound_rows_alpha(ctx, lo, hi, b, K, cy, NULL, NULL, 50, lb, NULL, NULL),
                     VFY_OK);
    REQUIRE_MSG(lb[0] - rhs[0] > 0, "row 0's margin %.17g", lb[0] - rhs[0]);
    uint64_t st = 5;
    double *x = calloc((size_t)nx, 8), *scr = calloc((size_t)vfy_eval_ws_len(net), 8), y[10];
    ck_assert(x && scr);
    for (int t = 0; t < 100; t++) {
        for (int64_t j = 0; j < nx; j++) {
            double u = testnet_uniform(&st);
            x[j] = t % 2 ? (u < 0.5 ? lo[j] : hi[j]) : lo[j] + u * (hi[j] - lo[j]);
        }
        vfy_eval_f64(net, x, y, scr);
        for (int64_t i = 0; i < K; i++) {
            double v = 0;
            for (int64_t j = 0; j < ny; j++)
                v += cy[i * ny + j] * y[j];
            REQUIRE_MSG(v >= lb[i], "sample %d row %lld: %.17g below %.17g", t, (long long)i, v,
                        lb[i]);
        }
    }
    free(x), free(scr);
    vfy_bounds_free(b);
    vfy_bound_ctx_free(ctx);
    vfy_spec_free(spec);
    vfy_net_free(net);
}
END_TEST

/* Sparse layers (vfy_net_sparsify, the form lowered convolutions get): the CSR kernels agree with
 * the dense ones (la), and on a net with mostly zero weights the CSR form gives the dense form's
 * bounds up to rounding order, bounds that contain every sampled execution (no tolerance), and the
 * same float32 execution bit for bit. */
START_TEST(test_sparse_matches_dense)
{
    uint64_t st = 77 + (uint64_t)_i;
    /* kernels: a random 7 x 9 matrix with zeros, every product against the dense reference */
    /* (19 rows: the blocked kernels' 8, 4, 2 and single-row paths) */
    double a[63], x[9], y1[9], y2[9], L[19 * 7], c1[19 * 9], c2[19 * 9], V[19 * 9], d1[19 * 7],
        d2[19 * 7], ws[VFY_CSR_BLOCK * 16];
    for (int q = 0; q < 63; q++)
        a[q] = testnet_uniform(&st) < 0.6 ? 0.0 : 2 * testnet_uniform(&st) - 1;
    for (int q = 0; q < 19 * 7; q++)
        L[q] = testnet_uniform(&st) < 0.3 ? 0.0 : 2 * testnet_uniform(&st) - 1;
    for (int q = 0; q < 19 * 9; q++)
        V[q] = 2 * testnet_uniform(&st) - 1;
    for (int q = 0; q < 9; q++)
        x[q] = 2 * testnet_uniform(&st) - 1;
    vfy_csr *c = NULL;
    ck_assert(vfy_la_csr_build(7, 9, a, 0.0, &c) && c == NULL); /* too dense for 0 */
    ck_assert(vfy_la_csr_build(7, 9, a, 1.0, &c) && c != NULL);
    for (int t = 0; t < 2; t++) {
        for (int ab = 0; ab < 2; ab++) {
            double aa[63];
            for (int q = 0; q < 63; q++)
                aa[q] = ab ? fabs(a[q]) : a[q];
            vfy_la_csr_gemv(c, x, y1, t, ab);
            vfy_la_gemv(7, 9, aa, x, y2, t);
            for (int q = 0; q < (t ? 9 : 7); q++)
                REQUIRE(fabs(y1[q] - y2[q]) <= 1e-14);
        }
    }
    static const int n_rows[] = {1, 3, 15, 19};
    for (int t = 0; t < 8; t++) {
        int k = n_rows[t % 4];
        double *w = t < 4 ? NULL : ws;
        vfy_la_csr_lmul(k, L, c, c1, w);
        vfy_la_gemm_ref(k, 9, 7, L, a, c2, 0);
        for (int q = 0; q < k * 9; q++)
            REQUIRE(fabs(c1[q] - c2[q]) <= 1e-14);
        vfy_la_csr_mul_t(k, V, c, d1, w);
        vfy_la_gemm_bt(k, 7, 9, V, a, d2);
        for (int q = 0; q < k * 7; q++)
            REQUIRE(fabs(d1[q] - d2[q]) <= 1e-14);
    }
    vfy_la_csr_free(c);
    /* a random net, three quarters of its weights zeroed */
    const testnet_shape *sh = &testnet_shapes[1 + _i % 2];
    vfy_net *net = testnet_random(500 + (uint64_t)_i, sh->n_in, sh->hidden, sh->n_hidden,
                                  sh->n_out, sh->scale, sh->with_scale);
    for (int64_t k = 0; k < net->n_layers; k++)
        if (net->layers[k].kind == VFY_LAYER_DENSE)
            for (int64_t q = 0; q < net->layers[k].n_in * net->layers[k].n_out; q++)
                if (testnet_uniform(&st) < 0.75)
                    net->layers[k].w[q] = 0;
    double lo[16], hi[16], wlo[16], whi[16];
    for (int64_t j = 0; j < net->n_in; j++) {
        double cc = 2 * testnet_uniform(&st) - 1, r = 0.2 + 0.5 * testnet_uniform(&st);
        lo[j] = wlo[j] = cc - r;
        hi[j] = whi[j] = cc + r;
    }
    enum { K = 3 };
    double cy[K * 8], lbd[K], lbs[K], ycmp[2][8];
    for (int64_t i = 0; i < K * net->n_out; i++)
        cy[i] = (double)(int)(testnet_uniform(&st) * 5) - 2;
    vfy_bounds *bd = NULL;
    vfy_bound_ctx *ctx[2];
    float xf[16], yf[2][8], sf[256];
    for (int64_t j = 0; j < net->n_in; j++)
        xf[j] = (float)(0.5 * (lo[j] + hi[j]));
    for (int sparse = 0; sparse < 2; sparse++) {
        if (sparse) {
            ck_assert_int_eq(vfy_net_sparsify(net, 1.0, 0, NULL), VFY_OK);
            for (int64_t k = 0; k < net->n_layers; k++)
                REQUIRE(net->layers[k].kind != VFY_LAYER_DENSE || net->layers[k].csr);
        }
        ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx[sparse], NULL), VFY_OK);
        vfy_bound_ctx_set_f32(ctx[sparse], 0); /* (sparse layers' products are double) */
        if (sparse == 0)
            vfy_bound_widen_input(ctx[0], net->n_in, wlo, whi);
        vfy_bounds *b = vfy_bounds_create(ctx[sparse]);
        ck_assert_int_eq(vfy_bound_layers(ctx[sparse], VFY_BOUND_CROWN, wlo, whi, NULL, b), VFY_OK);
        ck_assert_int_eq(vfy_bound_rows_alpha(ctx[sparse], wlo, whi, b, K, cy, NULL, NULL, 10,
                                              sparse ? lbs : lbd, NULL, NULL), VFY_OK);
        vfy_eval_f32(net, xf, yf[sparse], sf);
        double xd[16];
        for (int64_t j = 0; j < net->n_in; j++)
            xd[j] = xf[j];
        vfy_eval_f64(net, xd, ycmp[sparse], (double *)sf);
        if (sparse) {
            check_contains(net, b, lo, hi, 3 + (uint64_t)_i, 300);
            for (int64_t k = 0; k < net->n_layers; k++)
                for (int64_t j = 0; j < net->layers[k].n_out; j++) {
                    double e = 1e-9 * (1 + fabs(bd->lo[k][j]) + fabs(bd->hi[k][j]));
                    REQUIRE(fabs(b->lo[k][j] - bd->lo[k][j]) <= e);
                    REQUIRE(fabs(b->hi[k][j] - bd->hi[k][j]) <= e);
                }
            vfy_bounds_free(b);
        } else {
            bd = b;
        }
    }
    for (int i = 0; i < K; i++)
        REQUIRE_MSG(fabs(lbs[i] - lbd[i]) <= 1e-9 * (1 + fabs(lbd[i])), "row %d: %.17g vs %.17g",
                    i, lbs[i], lbd[i]);
    for (int64_t j = 0; j < net->n_out; j++) {
        ck_assert(yf[0][j] == yf[1][j]);
        ck_assert(fabs(ycmp[0][j] - ycmp[1][j]) <= 1e-12 * (1 + fabs(ycmp[0][j])));
    }
    vfy_bounds_free(bd);
    vfy_bound_ctx_free(ctx[0]);
    vfy_bound_ctx_free(ctx[1]);
    vfy_net_free(net);
}
END_TEST

/* Of layer k's first n neurons: those IBP (bi) leaves unstable, and those CROWN (bc) tightens past
 * IBP on either side. */
static void count_past_ibp(const vfy_bounds *bi, const vfy_bounds *bc, int64_t k, int64_t n,
                           int64_t *unstable, int64_t *tightened)
{
    *unstable = *tightened = 0;
    for (int64_t j = 0; j < n; j++) {
        *unstable += bi->lo[k][j] < 0 && bi->hi[k][j] > 0;
        *tightened += bc->lo[k][j] > bi->lo[k][j] || bc->hi[k][j] < bi->hi[k][j];
    }
}

/* Fewer rows a chunk on wide layers: VFY_BOUND_CHUNK_ROWS while 3 buffers of rows + 8 rows of
 * the widest layer fit VFY_BOUND_CHUNK_BYTES, else the most that fit, halving down to
 * VFY_BOUND_CHUNK_ROWS_MIN (an ImageNet input, 150,528 wide: 256 rows were 303 MB a buffer). On a
 * net of 45,000 inputs (64 rows a chunk) whose second layer has more unstable neurons than a chunk
 * holds, CROWN tightens more of them than a chunk past IBP and every sampled execution lies
 * inside every layer's bounds (no tolerance). */
START_TEST(test_chunk_rows_wide)
{
    const int64_t widths[] = {6, 21000, 30000, 45000, 150528};
    for (size_t q = 0; q < sizeof widths / sizeof widths[0]; q++) {
        int64_t w = widths[q], hidden[1] = {2};
        vfy_net *net = testnet_random(70 + q, w, hidden, 1, 2, 1.0, 0);
        ck_assert_ptr_nonnull(net);
        int64_t rows = vfy_bound_chunk_rows(net);
        double bytes = 24.0 * (double)w * (double)(rows + 8);
        ck_assert_int_ge(rows, VFY_BOUND_CHUNK_ROWS_MIN);
        ck_assert_int_le(rows, VFY_BOUND_CHUNK_ROWS);
        ck_assert(rows == VFY_BOUND_CHUNK_ROWS_MIN || bytes <= VFY_BOUND_CHUNK_BYTES);
        ck_assert(rows == VFY_BOUND_CHUNK_ROWS ||
                  24.0 * (double)w * (double)(2 * rows + 8) > VFY_BOUND_CHUNK_BYTES);
        ck_assert_int_eq(rows, w <= 21000 ? VFY_BOUND_CHUNK_ROWS
                                          : (w == 45000 ? 64 : (w == 30000 ? 128 : 16)));
        vfy_net_free(net);
    }
    int64_t hidden[2] = {100, 100};
    enum { NX = 45000 };
    vfy_net *net = testnet_random(75, NX, hidden, 2, 2, 0.5, 0);
    ck_assert_ptr_nonnull(net);
    double *lo = malloc(NX * sizeof(double)), *hi = malloc(NX * sizeof(double));
    ck_assert(lo && hi);
    uint64_t st = 5;
    for (int j = 0; j < NX; j++) {
        double c = 2 * testnet_uniform(&st) - 1;
        lo[j] = c - 0.01;
        hi[j] = c + 0.01;
    }
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
    vfy_bounds *bi = vfy_bounds_create(ctx), *bc = vfy_bounds_create(ctx);
    ck_assert(bi && bc);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_IBP, lo, hi, NULL, bi), VFY_OK);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo, hi, NULL, bc), VFY_OK);
    int64_t unstable, tightened;
    count_past_ibp(bi, bc, 2, 100, &unstable, &tightened);
    REQUIRE_MSG(unstable > 32, "%lld unstable", (long long)unstable);
    REQUIRE_MSG(tightened > 32, "%lld tightened", (long long)tightened);
    check_contains(net, bc, lo, hi, 19, 100);
    vfy_bounds_free(bi);
    vfy_bounds_free(bc);
    vfy_bound_ctx_free(ctx);
    free(lo);
    free(hi);
    vfy_net_free(net);
}
END_TEST

/* CROWN refinement in chunks of VFY_BOUND_CHUNK_ROWS rows: on a net whose second layer has more
 * unstable neurons than one chunk holds, more neurons than a chunk are tightened past IBP (every
 * chunk ran), every sampled execution lies inside every layer's bounds (no tolerance), and the
 * sparse form of the net (blocked CSR kernels, 256-row chunks) gives the dense form's bounds up to
 * rounding order. */
START_TEST(test_crown_refine_chunks)
{
    int64_t hidden[2] = {400, 400};
    vfy_net *net = testnet_random(900 + (uint64_t)_i, 6, hidden, 2, 3, 0.5, 0);
    ck_assert_ptr_nonnull(net);
    uint64_t st = 31 + (uint64_t)_i;
    for (int64_t q = 0; q < net->layers[2].n_in * net->layers[2].n_out; q++)
        if (testnet_uniform(&st) < 0.7)
            net->layers[2].w[q] = 0;
    double lo[6], hi[6], wlo[6], whi[6];
    for (int j = 0; j < 6; j++) {
        double c = 2 * testnet_uniform(&st) - 1;
        lo[j] = wlo[j] = c - 0.5;
        hi[j] = whi[j] = c + 0.5;
    }
    vfy_bounds *bd = NULL;
    for (int sparse = 0; sparse < 2; sparse++) {
        if (sparse)
            ck_assert_int_eq(vfy_net_sparsify(net, 0.5, 0, NULL), VFY_OK);
        ck_assert(!sparse || net->layers[2].csr);
        vfy_bound_ctx *ctx;
        ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
        vfy_bound_ctx_set_f32(ctx, 0); /* (sparse layers' products are double) */
        if (!sparse)
            vfy_bound_widen_input(ctx, 6, wlo, whi);
        vfy_bounds *bi = vfy_bounds_create(ctx), *bc = vfy_bounds_create(ctx);
        ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_IBP, wlo, whi, NULL, bi), VFY_OK);
        ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo, whi, NULL, bc), VFY_OK);
        int64_t unstable, tightened;
        count_past_ibp(bi, bc, 2, 400, &unstable, &tightened);
        REQUIRE_MSG(unstable > VFY_BOUND_CHUNK_ROWS / 2, "%lld unstable", (long long)unstable);
        REQUIRE_MSG(tightened > VFY_BOUND_CHUNK_ROWS / 2, "%lld tightened", (long long)tightened);
        check_contains(net, bc, lo, hi, 17 + (uint64_t)_i, 200);
        if (sparse) {
            for (int64_t k = 0; k < net->n_layers; k++)
                for (int64_t j = 0; j < net->layers[k].n_out; j++) {
                    double e = 1e-9 * (1 + fabs(bd->lo[k][j]) + fabs(bd->hi[k][j]));
                    REQUIRE(fabs(bc->lo[k][j] - bd->lo[k][j]) <= e);
                    REQUIRE(fabs(bc->hi[k][j] - bd->hi[k][j]) <= e);
                }
            vfy_bounds_free(bc);
            vfy_bounds_free(bd);
        } else {
            bd = bc;
        }
        vfy_bounds_free(bi);
        vfy_bound_ctx_free(ctx);
    }
    vfy_net_free(net);
}
END_TEST

/* An activation whose input is another activation's output (x -> Dense -> Tanh -> Tanh -> Dense):
 * a domain's prior cannot clamp that input (an activation's bounds are recomputed from its own
 * input), so a split there would leave it as wide, and the search would choose it again and again;
 * only the first Tanh's pre-activations score. */
START_TEST(test_scores_skip_act_inputs)
{
    vfy_net *net = calloc(1, sizeof *net);
    ck_assert_ptr_nonnull(net);
    net->n_in = 2;
    net->n_out = 1;
    double *w1 = vfy_alloc_array(6, sizeof(double)), *b1 = vfy_alloc_array(3, sizeof(double));
    double *w2 = vfy_alloc_array(3, sizeof(double)), *b2 = vfy_alloc_array(1, sizeof(double));
    const double w1v[6] = {1, -1, 2, 1, -1, 0.5};
    memcpy(w1, w1v, sizeof w1v);
    w2[0] = 1;
    w2[1] = -2;
    w2[2] = 1;
    ck_assert_int_eq(vfy_net_push(net, VFY_LAYER_DENSE, 2, 3, w1, b1, 0, 2, "d1", NULL), VFY_OK);
    ck_assert_int_eq(vfy_net_push(net, VFY_LAYER_TANH, 3, 3, NULL, NULL, 0, 0, "t1", NULL), VFY_OK);
    ck_assert_int_eq(vfy_net_push(net, VFY_LAYER_TANH, 3, 3, NULL, NULL, 0, 0, "t2", NULL), VFY_OK);
    ck_assert_int_eq(vfy_net_push(net, VFY_LAYER_DENSE, 3, 1, w2, b2, 0, 3, "d2", NULL), VFY_OK);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
    double lo[2] = {-1, -1}, hi[2] = {1, 1}, cy[1] = {1}, lb;
    vfy_bounds *b = vfy_bounds_create(ctx);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo, hi, NULL, b), VFY_OK);
    ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_CROWN, lo, hi, b, 1, cy, NULL, &lb, NULL, NULL),
                     VFY_OK);
    int64_t half = vfy_bounds_flat_size(ctx) / 2;
    ck_assert_int_eq(half, 10);
    double score[10];
    ck_assert_int_eq(vfy_bound_relu_scores(ctx, lo, hi, b, 1, cy, NULL, score, NULL), VFY_OK);
    for (int j = 0; j < 3; j++) {
        ck_assert(b->lo[1][j] < 0 && b->hi[1][j] > 0); /* (the second Tanh's inputs straddle 0) */
        ck_assert(score[j] > 0);                       /* d1's outputs: the first Tanh's inputs */
        ck_assert(score[3 + j] == 0);                  /* t1's outputs: the second Tanh's */
    }
    for (int j = 6; j < 10; j++)
        ck_assert(score[j] == 0);
    vfy_bounds_free(b);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* Where activation splitting cuts an interval: 0 when it straddles 0, however narrow; else the
 * midpoint, strictly inside; no split (NaN) when too narrow to halve usefully or not finite. */
START_TEST(test_split_point)
{
    ck_assert(vfy_bound_split_point(-1, 2) == 0);
    ck_assert(vfy_bound_split_point(-0x1p-40, 0x1p-40) == 0);
    ck_assert(vfy_bound_split_point(1, 3) == 2);
    ck_assert(vfy_bound_split_point(-3, -1) == -2);
    ck_assert(vfy_bound_split_point(0, 1) == 0.5); /* (touching 0 is one side of it) */
    ck_assert(vfy_bound_split_point(-1, 0) == -0.5);
    double p = vfy_bound_split_point(1e308, 1.7e308); /* (no overflow) */
    ck_assert(p > 1e308 && p < 1.7e308);
    ck_assert(isnan(vfy_bound_split_point(1, 1 + 0x1p-18)));
    ck_assert(isnan(vfy_bound_split_point(1, 1)));
    ck_assert(isnan(vfy_bound_split_point(2, 1)));
    ck_assert(isnan(vfy_bound_split_point(1, INFINITY)));
    ck_assert(isnan(vfy_bound_split_point(-INFINITY, -1)));
    ck_assert(isnan(vfy_bound_split_point(NAN, 1)));
    ck_assert(vfy_bound_split_point(-INFINITY, INFINITY) == 0);
    /* every split point that exists lies strictly inside, on random intervals of any scale */
    uint64_t st = 77;
    for (int t = 0; t < 10000; t++) {
        double a = (testnet_uniform(&st) - 0.5) * ldexp(1.0, (int)(testnet_uniform(&st) * 80) - 40);
        double b = a + testnet_uniform(&st) * ldexp(1.0, (int)(testnet_uniform(&st) * 80) - 40);
        double q = vfy_bound_split_point(a, b);
        ck_assert(isnan(q) || (a < q && q < b));
        ck_assert(!isnan(q) || (!(a < 0 && b > 0) && (b - a <= 0x1p-16 || nextafter(a, b) == b)));
    }
}
END_TEST

/* alpha-CROWN on Sigmoid/Tanh lines (slopes optimised, intercepts certified per row and step):
 * on random sigmoid, tanh and mixed networks, the rows' bounds after 30 steps are never below
 * CROWN's, some are strictly above, and every sampled execution (double, float32, and float32 with
 * every activation off by 2^-21) lies above them, with no tolerance; alpha-CROWN on the hidden
 * layers (Sigmoid/Tanh pre-activations too) keeps every layer's samples, never loosens a bound and
 * tightens some; with the lines' optimisation off (certificate runs) the bounds are CROWN's. */
START_TEST(test_act_alpha)
{
    const testnet_shape *sh = &testnet_shapes[1 + _i % 3];
    const vfy_layer_kind *act = act_mixes[_i % N_ALL_MIXES];
    vfy_net *net = testnet_random_act(4000 + (uint64_t)_i, sh->n_in, sh->hidden, sh->n_hidden,
                                      sh->n_out, sh->scale * 2, sh->with_scale, act);
    ck_assert_ptr_nonnull(net);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
    uint64_t st = 5000 + (uint64_t)_i;
    double lo[16], hi[16], wlo[16], whi[16];
    random_box(&st, net->n_in, 0.2, 0.6, ctx, lo, hi, wlo, whi);
    vfy_bounds *bc = vfy_bounds_create(ctx), *bt = vfy_bounds_create(ctx);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo, whi, NULL, bc), VFY_OK);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo, whi, NULL, bt), VFY_OK);
    enum { K = 4 };
    int64_t ny = net->n_out, nx = net->n_in;
    double cy[K * 8], lbc[K], lba[K], lboff[K];
    for (int64_t i = 0; i < K * ny; i++)
        cy[i] = (double)(int)(testnet_uniform(&st) * 5) - 2;
    ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_CROWN, wlo, whi, bc, K, cy, NULL, lbc, NULL, NULL),
                     VFY_OK);
    vfy_bound_ctx_set_act_search(ctx, 0);
    ck_assert_int_eq(vfy_bound_rows_alpha(ctx, wlo, whi, bc, K, cy, NULL, NULL, 30, lboff, NULL,
                                          NULL), VFY_OK);
    vfy_bound_ctx_set_act_search(ctx, 1);
    ck_assert_int_eq(vfy_bound_rows_alpha(ctx, wlo, whi, bc, K, cy, NULL, NULL, 30, lba, NULL, NULL),
                     VFY_OK);
    int gained = 0, has_relu = 0;
    for (int64_t k = 0; k < net->n_layers; k++)
        has_relu |= net->layers[k].kind == VFY_LAYER_RELU;
    for (int i = 0; i < K; i++) {
        ck_assert(lba[i] >= lbc[i] && lboff[i] >= lbc[i]);
        if (!has_relu)
            REQUIRE(lboff[i] == lbc[i]); /* nothing else to optimise */
        gained |= lba[i] > lbc[i] + 1e-9 * (1 + fabs(lbc[i]));
    }
    REQUIRE_MSG(gained, "no row gained over CROWN");
    int64_t n_t = 0;
    ck_assert_int_eq(vfy_bound_tighten_alpha(ctx, wlo, whi, bt, 20, NULL, &n_t), VFY_OK);
    int64_t strict = tightened(net, bc, bt);
    if (sh->n_hidden > 1) /* (one hidden layer: its pre-activations are exact already) */
        ck_assert(n_t > 0 && strict > 0);
    check_contains(net, bt, lo, hi, 21 + (uint64_t)_i, 300);
    /* the branching look-ahead on two Sigmoid/Tanh pre-activations, the one of largest score and
     * the one of largest score whose interval lies on one side of 0 (split at its midpoint): each
     * child's bound (the lines of [l, p] or [p, u], p = vfy_bound_split_point) holds at every
     * sample on its side */
    double *score = calloc((size_t)(vfy_bounds_flat_size(ctx) / 2), sizeof *score);
    ck_assert_int_eq(vfy_bound_relu_scores(ctx, wlo, whi, bc, K, cy, NULL, score, NULL), VFY_OK);
    int64_t cand[2] = {-1, -1}, ck[2] = {-1, -1}, cj[2] = {-1, -1};
    double pt[2] = {0, 0};
    for (int64_t k = 0, off = 0; k + 1 < net->n_layers; off += net->layers[k].n_out, k++)
        for (int64_t j = 0; j < net->layers[k].n_out; j++) {
            if (!(score[off + j] > 0) || net->layers[k + 1].kind == VFY_LAYER_RELU)
                continue;
            double l = bc->lo[k][j], u = bc->hi[k][j], p = vfy_bound_split_point(l, u);
            ck_assert(l < p && p < u); /* (scored: splittable) */
            for (int c = 0; c < 2; c++)
                if ((c == 0 || l >= 0 || u <= 0) &&
                    (cand[c] < 0 || score[off + j] > score[cand[c]])) {
                    cand[c] = off + j;
                    ck[c] = k;
                    cj[c] = j;
                    pt[c] = p;
                }
        }
    free(score);
    ck_assert(cand[0] >= 0);
    /* a one-sided pre-activation of an S-shaped layer that can be split is scored (all of them
     * may straddle 0: one wide hidden layer, or Erf's steep middle) */
    int one_sided = 0;
    for (int64_t k = 0; k + 1 < net->n_layers; k++)
        for (int64_t j = 0; j < net->layers[k].n_out; j++) {
            double l = bc->lo[k][j], u = bc->hi[k][j];
            one_sided |= (vfy_layer_is_sshaped(net->layers[k + 1].kind) ||
                          vfy_layer_is_gated(net->layers[k + 1].kind)) &&
                         j >= net->layers[k + 1].n_pass && (l >= 0 || u <= 0) &&
                         !isnan(vfy_bound_split_point(l, u));
        }
    REQUIRE_MSG((cand[1] >= 0) == one_sided, "one-sided neurons with pieces: %d, scored: %d",
                one_sided, cand[1] >= 0);
    if (cand[1] >= 0)
        ck_assert(pt[1] != 0);
    double lbn[2][K], lbp[2][K];
    for (int c = 0; c < 2; c++) {
        if (cand[c] < 0)
            continue;
        ck_assert_int_eq(vfy_bound_split_lb(ctx, wlo, whi, bc, K, cy, NULL, 1, &cand[c], lbn[c],
                                            lbp[c]), VFY_OK);
        for (int i = 0; i < K; i++) /* (each child's interval is finite: so are its lines) */
            REQUIRE(isfinite(lbn[c][i]) && isfinite(lbp[c][i]));
    }
    double x[16], y[8];
    float xf[16], yf[8];
    double *acts[16];
    for (int64_t k = 0; k < net->n_layers; k++)
        acts[k] = malloc((size_t)net->layers[k].n_out * sizeof(double));
    for (int t = 0; t < 2000; t++) {
        sample_point(&st, t, nx, lo, hi, x, xf);
        vfy_eval_forward_all(net, x, acts, NULL);
        memcpy(y, acts[net->n_layers - 1], (size_t)ny * sizeof(double));
        for (int i = 0; i < K; i++) {
            double v = 0;
            for (int64_t j = 0; j < ny; j++)
                v += cy[i * ny + j] * y[j];
            for (int c = 0; c < 2; c++) {
                if (cand[c] < 0)
                    continue;
                double z = acts[ck[c]][cj[c]];
                CHECKM(z > pt[c] || lbn[c][i] <= v, "row %d: z <= %g child's bound %.17g > %.17g",
                       i, pt[c], lbn[c][i], v);
                CHECKM(z < pt[c] || lbp[c][i] <= v, "row %d: z >= %g child's bound %.17g > %.17g",
                       i, pt[c], lbp[c][i], v);
            }
        }
        for (int pert = 0; pert < 3; pert++) {
            if (pert == 1) {
                float sf[256];
                vfy_eval_f32(net, xf, yf, sf);
            } else if (pert == 2) {
                eval_f32_perturbed(net, xf, yf, 0x1p-21f);
            }
            for (int i = 0; i < K; i++) {
                double v = 0;
                for (int64_t j = 0; j < ny; j++)
                    v += cy[i * ny + j] * (pert ? (double)yf[j] : y[j]);
                CHECKM(lba[i] <= v, "row %d (execution %d): alpha's bound %.17g above %.17g", i,
                       pert, lba[i], v);
            }
        }
    }
    for (int64_t k = 0; k < net->n_layers; k++)
        free(acts[k]);
    vfy_bounds_free(bc);
    vfy_bounds_free(bt);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* The Sigmoid/Tanh lines' gradient is taken at the relaxed network's point: the primal point goes
 * on through the lines each row used, as through a ReLU's. Through the activation itself (as
 * before), the error compounded over eran's six sigmoid layers and the ascent stalled: from CROWN's
 * hidden bounds (idx 3881's box, float semantics, the 9 rows of its spec) the worst margin was
 * -58.4 after 16 iterations and -47.6 / -47.5 after 100 / 200; now -56.6, -36.3 and -36.0 (-57.0,
 * -35.9, -35.75 with the step schedule tuned for the old gradient). Skipped without
 * ../shared/benchmarks/eran. */
START_TEST(test_act_alpha_eran)
{
    const char *model = "../shared/benchmarks/eran/onnx/ffnnSIGMOID__Point_6x200.onnx";
    const char *spec_path =
        "../shared/benchmarks/eran/vnnlib/mnist_spec_idx_3881_eps_0.01200.vnnlib";
    vfy_net *net;
    vfy_spec *spec;
    if (!load_bench(model, spec_path, &net, &spec))
        return;
    REQUIRE(net->n_in == 784 && net->n_out == 10 && spec->n_boxes == 1);
    enum { KMAX = 16 };
    int64_t K = 0, ny = net->n_out;
    double cy[KMAX * 10], rhs[KMAX], lb[KMAX], lbc[KMAX];
    for (int64_t c = 0; c < spec->n_cases; c++)
        for (int64_t i = 0; i < spec->cases[c].n_rows; i++, K++) {
            REQUIRE(K < KMAX);
            memcpy(cy + K * ny, spec->cases[c].rows[i].cy, (size_t)ny * sizeof(double));
            rhs[K] = spec->cases[c].rows[i].rhs_hi;
        }
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
    vfy_bounds *b = vfy_bounds_create(ctx);
    double lo[784], hi[784];
    memcpy(lo, spec->boxes[0].lo, sizeof lo);
    memcpy(hi, spec->boxes[0].hi, sizeof hi);
    vfy_bound_widen_input(ctx, 784, lo, hi);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo, hi, NULL, b), VFY_OK);
    ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_CROWN, lo, hi, b, K, cy, NULL, lbc, NULL, NULL),
                     VFY_OK);
    ck_assert_int_eq(vfy_bound_rows_alpha(ctx, lo, hi, b, K, cy, NULL, NULL, 100, lb, NULL, NULL),
                     VFY_OK);
    double worst = INFINITY, worst_crown = INFINITY;
    for (int64_t i = 0; i < K; i++) {
        ck_assert(lb[i] >= lbc[i]);
        worst = fmin(worst, lb[i] - rhs[i]);
        worst_crown = fmin(worst_crown, lbc[i] - rhs[i]);
    }
    REQUIRE_MSG(worst > -40, "worst margin %.6g after 100 iterations (CROWN: %.6g)", worst,
                worst_crown);
    vfy_bounds_free(b);
    vfy_bound_ctx_free(ctx);
    vfy_spec_free(spec);
    vfy_net_free(net);
}
END_TEST

/* A domain of a batch test: its box, a point in it, its splits (layer kq, neuron jq, sign sg). */
typedef struct test_domain {
    const double *lo, *hi, *x0;
    int64_t n_sp;
    const int64_t *kq, *jq;
    const signed char *sg;
} test_domain;

/* n samples of domain dm (every other one near x0), those on its splits' sides checked against the
 * K rows cy (and cx, or NULL) of the batch in work from its row row0, bounded by lb: each row's
 * value at least its bound, also less its Lagrangian terms with the multipliers the batch reports
 * for it, no tolerance. Returns the samples checked. */
static int batch_samples_hold(const vfy_net *net, const vfy_bound_ctx *ctx, vfy_bounds *work,
                              int64_t row0, int K, const double *cy, const double *cx,
                              const double *lb, const test_domain *dm, int n, uint64_t *st)
{
    int64_t nx = net->n_in, ny = net->n_out, half = vfy_bounds_flat_size(ctx) / 2;
    double *acts[16] = {0}, x[16], beta[3], *af = malloc((size_t)(half + 1) * sizeof(double));
    ck_assert(nx <= 16 && net->n_layers <= 16 && dm->n_sp <= 3);
    for (int64_t k = 0; k < net->n_layers; k++)
        acts[k] = malloc((size_t)net->layers[k].n_out * sizeof(double));
    int on = 0;
    for (int t = 0; t < n; t++) {
        for (int64_t j = 0; j < nx; j++) {
            double r = testnet_uniform(st), w = dm->hi[j] - dm->lo[j];
            x[j] = t % 2 ? dm->lo[j] + r * w
                         : fmin(dm->hi[j], fmax(dm->lo[j], dm->x0[j] + (r - 0.5) * 0.1 * w));
        }
        vfy_eval_forward_all(net, x, acts, NULL);
        int in = 1;
        for (int64_t q = 0; q < dm->n_sp; q++)
            in &= dm->sg[q] * acts[dm->kq[q]][dm->jq[q]] >= 0;
        if (!in)
            continue;
        on++;
        const double *y = acts[net->n_layers - 1];
        for (int i = 0; i < K; i++) {
            REQUIRE(vfy_bound_best_params(ctx, work, row0 + i, af, beta));
            double v = 0, lag = 0;
            for (int64_t j = 0; j < ny; j++)
                v += cy[i * ny + j] * y[j];
            for (int64_t j = 0; cx && j < nx; j++)
                v += cx[i * nx + j] * x[j];
            for (int64_t q = 0; q < dm->n_sp; q++)
                lag += beta[q] * dm->sg[q] * acts[dm->kq[q]][dm->jq[q]];
            REQUIRE_MSG(v >= lb[i] && v - lag >= lb[i],
                        "row %lld: %.17g (Lagrangian %.17g) below %.17g", (long long)(row0 + i), v,
                        v - lag, lb[i]);
        }
    }
    for (int64_t k = 0; k < net->n_layers; k++)
        free(acts[k]);
    free(af);
    return on;
}

/* Several domains' alpha/beta optimisation in one call (vfy_bound_rows_alpha_batch): three domains
 * (boxes of their own, two with ReLU splits, one with input terms cx, one with a warm start) and a
 * fourth job with no rows. (a) Every job's bounds match those of the same job run alone (the same
 * passes; only the products' summation order may differ); (b) with the multipliers of the pass that
 * gave each bound (vfy_bound_best_params on the batch's rows), every sampled input of each domain
 * satisfies row - sum beta sign z >= lb, hence row >= lb, with no tolerance: the batch keeps each
 * domain's bounds, splits and rows apart; (c) the warm start from the batch (vfy_bound_best_warm)
 * gets a single call back to that bound; (d) the look-ahead of a split from a domain's parameters in
 * the batch (vfy_bound_split_lb_params) holds on both children. */
START_TEST(test_alpha_batch)
{
    enum { D = 3, K = 3 };
    uint64_t st = 500 + (uint64_t)_i;
    batch_fixture fx;
    batch_fixture_init(&fx, D, K, _i, 1500 + (uint64_t)_i, &st, 0);
    vfy_net *net = fx.net;
    vfy_bound_ctx *ctx = fx.ctx;
    int64_t nx = net->n_in, ny = net->n_out, half = vfy_bounds_flat_size(ctx) / 2;
    int64_t R = vfy_bound_ctx_n_relu(ctx);
    vfy_bounds *work = vfy_bounds_create(ctx), *alone = vfy_bounds_create(ctx);
    double cx[K * 16], lb[D][K], lb1[K], lam[D][K * 16], c_in[D][K];
    for (int64_t i = 0; i < K * nx; i++)
        cx[i] = testnet_uniform(&st) - 0.5;
    /* a warm start for domain 0: a short single run's best slopes */
    float *warm = malloc((size_t)(K * R + 1) * sizeof(float));
    ck_assert_int_eq(vfy_bound_rows_alpha(ctx, fx.wlo[0], fx.whi[0], fx.b[0], K, fx.cy[0], NULL,
                                          NULL, 3, lb1, NULL, NULL), VFY_OK);
    for (int i = 0; i < K; i++)
        ck_assert(vfy_bound_best_warm(ctx, fx.b[0], i, warm + i * R));
    vfy_alpha_job jobs[D + 1];
    for (int d = 0; d < D; d++)
        jobs[d] = (vfy_alpha_job){fx.b[d], fx.wlo[d], fx.whi[d], K, fx.cy[d], d == 2 ? cx : NULL,
                                  fx.n_sp[d] ? &fx.sp[d] : NULL, d == 0 ? warm : NULL, K, 0,
                                  lb[d], lam[d], c_in[d], NULL, 0, NULL, NULL, NULL};
    double none_lb[1] = {-1};
    jobs[D] = (vfy_alpha_job){fx.b[0], fx.wlo[0], fx.whi[0], 0, fx.cy[0], NULL, NULL, NULL, 0, 0,
                              none_lb, NULL, NULL, NULL, 0, NULL, NULL, NULL};
    ck_assert_int_eq(vfy_bound_rows_alpha_batch(ctx, work, D + 1, jobs, 15), VFY_OK);
    ck_assert(none_lb[0] == -1); /* no rows: nothing written */
    /* (a) each job alone, on a copy of its bounds */
    double *flat = malloc((size_t)vfy_bounds_flat_size(ctx) * sizeof(double));
    for (int d = 0; d < D; d++) {
        vfy_bounds_export(ctx, fx.b[d], flat);
        ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, fx.wlo[d], fx.whi[d], flat,
                                          alone), VFY_OK);
        if (d == 0)
            vfy_bound_alpha_warm(alone, K, warm, 0);
        ck_assert_int_eq(vfy_bound_rows_alpha(ctx, fx.wlo[d], fx.whi[d], alone, K, fx.cy[d],
                                              d == 2 ? cx : NULL, fx.n_sp[d] ? &fx.sp[d] : NULL, 15,
                                              lb1, NULL, NULL), VFY_OK);
        for (int i = 0; i < K; i++)
            REQUIRE_MSG(fabs(lb[d][i] - lb1[i]) <= 1e-6 * (1 + fabs(lb1[i])),
                        "domain %d row %d: %.17g in the batch, %.17g alone", d, i, lb[d][i], lb1[i]);
    }
    /* (e) the warm start in the compact layout (the slopes of domain 0's unstable ReLUs only, as
     * bab.c's compact domains keep them) gives the full layout's bounds exactly: a stable ReLU's
     * slope is never used */
    {
        vfy_bounds_export(ctx, fx.b[0], flat);
        int64_t *widx = malloc((size_t)(half + 1) * sizeof(int64_t)), nw = 0;
        for (int64_t f = 0; f < half; f++) {
            int64_t ri = vfy_bound_relu_index(ctx, f);
            if (ri >= 0 && flat[f] < 0 && flat[half + f] > 0)
                widx[nw++] = ri;
        }
        float *cw = malloc((size_t)(K * nw + 1) * sizeof(float));
        for (int i = 0; i < K; i++)
            for (int64_t q = 0; q < nw; q++)
                cw[i * nw + q] = warm[i * R + widx[q]];
        double lbw[2][K];
        for (int pass = 0; pass < 2; pass++) {
            ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, fx.wlo[0], fx.whi[0], flat,
                                              alone), VFY_OK);
            vfy_alpha_job j1 = {alone, fx.wlo[0], fx.whi[0], K, fx.cy[0], NULL, NULL,
                                pass ? cw : warm, K, 0, lbw[pass], NULL, NULL,
                                pass ? widx : NULL, pass ? nw : 0, NULL, NULL, NULL};
            ck_assert_int_eq(vfy_bound_rows_alpha_batch(ctx, alone, 1, &j1, 15), VFY_OK);
        }
        for (int i = 0; i < K; i++)
            REQUIRE_MSG(lbw[0][i] == lbw[1][i], "row %d: %.17g full, %.17g compact (%lld of %lld)",
                        i, lbw[0][i], lbw[1][i], (long long)nw, (long long)R);
        free(widx);
        free(cw);
    }
    /* (b) samples of each domain against the batch's bounds and multipliers */
    double x[16], beta[3], *af = malloc((size_t)half * sizeof(double));
    double *acts[16] = {0};
    for (int64_t k = 0; k < net->n_layers; k++)
        acts[k] = malloc((size_t)net->layers[k].n_out * sizeof(double));
    for (int d = 0; d < D; d++) {
        test_domain dm = {fx.lo[d], fx.hi[d], fx.x0[d], fx.n_sp[d], fx.kq[d], fx.jq[d], fx.sg[d]};
        int on = batch_samples_hold(net, ctx, work, d * K, K, fx.cy[d], d == 2 ? cx : NULL, lb[d],
                                    &dm, 6000, &st);
        REQUIRE_MSG(on > 100, "domain %d: only %d samples", d, on);
    }
    /* rows past the jobs' have no parameters */
    ck_assert(!vfy_bound_best_params(ctx, work, D * K, af, beta));
    /* (d) the look-ahead from domain 1's parameters in the batch (vfy_bound_split_lb_params): on an
     * unstable neuron not split yet, each child's bounds hold at every sample of the domain on its
     * side (no tolerance); without parameters (prow -1) it is vfy_bound_split_lb exactly */
    int64_t cand = -1, kc = -1, jc = -1;
    for (int64_t k = 0, o = 0; k + 1 < net->n_layers && cand < 0; o += net->layers[k].n_out, k++)
        for (int64_t j = 0; j < net->layers[k].n_out && cand < 0; j++) {
            int taken = 0;
            for (int64_t q = 0; q < fx.n_sp[1]; q++)
                taken |= fx.idx[1][q] == o + j;
            if (net->layers[k + 1].kind == VFY_LAYER_RELU && fx.b[1]->lo[k][j] < 0 &&
                fx.b[1]->hi[k][j] > 0 && !taken) {
                cand = o + j;
                kc = k;
                jc = j;
            }
        }
    if (cand >= 0) {
        int64_t prow[K], none[K];
        double ln[K], lp[K], ln0[K], lp0[K], ln1[K], lp1[K];
        for (int i = 0; i < K; i++) {
            prow[i] = K + i;
            none[i] = -1;
        }
        ck_assert_int_eq(vfy_bound_split_lb_params(ctx, fx.wlo[1], fx.whi[1], fx.b[1], K, fx.cy[1],
                                                   NULL, 1, &cand, work, prow, ln, lp), VFY_OK);
        ck_assert_int_eq(vfy_bound_split_lb_params(ctx, fx.wlo[1], fx.whi[1], fx.b[1], K, fx.cy[1],
                                                   NULL, 1, &cand, work, none, ln0, lp0), VFY_OK);
        ck_assert_int_eq(vfy_bound_split_lb(ctx, fx.wlo[1], fx.whi[1], fx.b[1], K, fx.cy[1], NULL,
                                            1, &cand, ln1, lp1), VFY_OK);
        for (int i = 0; i < K; i++)
            REQUIRE(ln0[i] == ln1[i] && lp0[i] == lp1[i]);
        int seen[2] = {0, 0};
        for (int t = 0; t < 6000; t++) {
            for (int64_t j = 0; j < nx; j++) {
                double r = testnet_uniform(&st);
                double w = fx.hi[1][j] - fx.lo[1][j];
                x[j] = t % 2 ? fx.lo[1][j] + r * w
                             : fmin(fx.hi[1][j],
                                    fmax(fx.lo[1][j], fx.x0[1][j] + (r - 0.5) * 0.1 * w));
            }
            vfy_eval_forward_all(net, x, acts, NULL);
            int in = 1;
            for (int64_t q = 0; q < fx.n_sp[1]; q++)
                in &= fx.sg[1][q] * acts[fx.kq[1][q]][fx.jq[1][q]] >= 0;
            if (!in)
                continue;
            double z = acts[kc][jc];
            const double *y = acts[net->n_layers - 1];
            for (int i = 0; i < K; i++) {
                double v = 0;
                for (int64_t j = 0; j < ny; j++)
                    v += fx.cy[1][i * ny + j] * y[j];
                if (z <= 0)
                    REQUIRE_MSG(ln[i] <= v, "z <= 0 child, row %d: %.17g > %.17g", i, ln[i], v);
                if (z >= 0)
                    REQUIRE_MSG(lp[i] <= v, "z >= 0 child, row %d: %.17g > %.17g", i, lp[i], v);
            }
            seen[z >= 0]++;
        }
        ck_assert(seen[0] + seen[1] > 100);
    }
    /* (c) domain 1's best parameters from the batch warm-start a single pass alone */
    float *warm1 = malloc((size_t)(K * (R + 3) + 1) * sizeof(float));
    for (int i = 0; i < K; i++)
        ck_assert(vfy_bound_best_warm(ctx, work, K + i, warm1 + i * (R + fx.n_sp[1])));
    vfy_bounds_export(ctx, fx.b[1], flat);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, fx.wlo[1], fx.whi[1], flat, alone),
                     VFY_OK);
    vfy_bound_alpha_warm(alone, K, warm1, fx.n_sp[1]);
    ck_assert_int_eq(vfy_bound_rows_alpha(ctx, fx.wlo[1], fx.whi[1], alone, K, fx.cy[1], NULL,
                                          fx.n_sp[1] ? &fx.sp[1] : NULL, 1, lb1, NULL, NULL),
                     VFY_OK);
    for (int i = 0; i < K; i++)
        REQUIRE_MSG(lb1[i] >= lb[1][i] - 1e-6 * (1 + fabs(lb[1][i])),
                    "row %d: %g from the batch's warm start, %g in the batch", i, lb1[i], lb[1][i]);
    for (int64_t k = 0; k < net->n_layers; k++)
        free(acts[k]);
    free(af);
    free(flat);
    free(warm);
    free(warm1);
    vfy_bounds_free(work);
    vfy_bounds_free(alone);
    batch_fixture_free(&fx);
}
END_TEST


/* Early stop of a batch's rows (stop_lb, stop_case), on ReLU nets with splits and on a gated net
 * (Sigmoid, PRODUCT, ReLU, Tanh: every kind of parameter the ascent packs). Thresholds just below
 * each row's bound after 4 passes make jobs 0 and 1 stop after about 4 of 15 (job 1 cases
 * {0, 0, 1} whose row 1 never passes: rows 0 and 2 refute both), job 2's case 1 (rows 1, 2) stop
 * while its case 0 (row 0, which never passes) goes on, and job 3 has no stop. (a) Job 2's row 0
 * and job 3 get the bounds of the batch without stops (their rows packed among fewer, each row's
 * passes its own); (b) each case that stops has a row past its threshold; (c) every job's bound
 * holds at sampled points of its domain (its splits kept), also less its Lagrangian terms with the
 * multipliers the batch reports for it, no tolerance; (d) the primal point is not recorded once
 * rows are packed (how this test knows packing happened); (e) on the ReLU nets, the best slopes
 * and multipliers the batch reports for a row (at its place in the call) warm-start a single pass
 * alone back to its bound. The last runs take ideal upper facets (vfy_bound_ctx_set_facets): their
 * points, names and mixes are packed with the rows, so (a) holds with them too (they were chosen
 * again, their mixes cleared, when rows were packed); (e) is not asked (a warm start has no
 * mixes). */
START_TEST(test_alpha_batch_early_stop)
{
    enum { D = 4, K = 3, IT = 15 };
    uint64_t st = 7700 + (uint64_t)_i;
    int facets = _i >= 6, gated = !facets && _i % 3 == 2;
    double lo[D][16], hi[D][16], wlo[D][16], whi[D][16], x0[D][16];
    vfy_bound_ctx *ctx;
    vfy_net *net;
    if (gated) {
        net = testnet_random_gated(7800 + (uint64_t)_i, 5, 3, 1.5);
        ck_assert_ptr_nonnull(net);
        ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
        random_box(&st, net->n_in, 0.1, 0.6, ctx, lo[0], hi[0], wlo[0], whi[0]);
    } else {
        net = random_multilayer(_i, 7900 + (uint64_t)_i, &st, 0.3, &ctx, lo[0], hi[0], wlo[0],
                                whi[0]);
    }
    vfy_bound_ctx_set_facets(ctx, facets);
    ck_assert_int_eq(vfy_bound_ctx_facets(ctx), facets);
    int64_t nx = net->n_in, ny = net->n_out;
    ck_assert(nx <= 16 && ny <= 8 && net->n_layers <= 16);
    for (int d = 1; d < D; d++)
        random_box(&st, nx, 0.1 + 0.05 * d, 0.5, ctx, lo[d], hi[d], wlo[d], whi[d]);
    vfy_bounds *b[D], *work = vfy_bounds_create(ctx);
    int64_t idx[D][3], kq[D][3], jq[D][3], n_sp[D] = {0};
    signed char sg[D][3];
    vfy_splits sp[D];
    double cy[D][K * 8], lbr[D][K], lb4[D][K], lbs[D][K];
    for (int d = 0; d < D; d++) {
        b[d] = vfy_bounds_create(ctx);
        ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo[d], whi[d], NULL, b[d]),
                         VFY_OK);
        for (int64_t j = 0; j < nx; j++)
            x0[d][j] = lo[d][j] + testnet_uniform(&st) * (hi[d][j] - lo[d][j]);
        if (d % 2 == 1 && !gated)
            n_sp[d] = split_domain(net, ctx, b[d], wlo[d], whi[d], x0[d], &st, idx[d], kq[d], jq[d],
                                   sg[d], NULL);
        sp[d] = (vfy_splits){n_sp[d], idx[d], sg[d], NULL};
        for (int64_t i = 0; i < K * ny; i++)
            cy[d][i] = (double)(int)(testnet_uniform(&st) * 5) - 2;
    }
    vfy_alpha_job jobs[D];
    double stop[D][K];
    int64_t cases1[K] = {0, 0, 1}, cases2[K] = {0, 1, 1};
    double pv[D * K], plb[D * K];
    for (int pass = 0; pass < 3; pass++) { /* without stops, 15 and 4 passes; then with */
        double(*out)[K] = pass == 0 ? lbr : pass == 1 ? lb4 : lbs;
        for (int d = 0; d < D; d++) {
            jobs[d] = (vfy_alpha_job){b[d], wlo[d], whi[d], K, cy[d], NULL, n_sp[d] ? &sp[d] : NULL,
                                      NULL, 0, 0, out[d], NULL, NULL, NULL, 0, NULL, NULL, NULL};
            if (pass < 2 || d == 3)
                continue;
            for (int i = 0; i < K; i++)
                stop[d][i] = lb4[d][i] - 1e-9 * (1 + fabs(lb4[d][i]));
            if (d == 1)
                stop[d][1] = INFINITY;
            if (d == 2)
                stop[d][0] = INFINITY;
            jobs[d].stop_lb = stop[d];
            jobs[d].stop_case = d == 1 ? cases1 : d == 2 ? cases2 : NULL;
        }
        ck_assert_int_eq(vfy_bound_rows_alpha_batch(ctx, work, D, jobs, pass == 1 ? 4 : IT),
                         VFY_OK);
        if (pass == 0)
            REQUIRE_MSG(vfy_bound_primal_last(work, D * K, pv, plb),
                        "no primal point without stops");
    }
    /* (d) */
    REQUIRE_MSG(!vfy_bound_primal_last(work, D * K, pv, plb), "no job stopped early");
    /* (a) */
    for (int d = 2; d < D; d++)
        for (int i = 0; i < (d == 2 ? 1 : K); i++)
            REQUIRE_MSG(fabs(lbs[d][i] - lbr[d][i]) <= 1e-6 * (1 + fabs(lbr[d][i])),
                        "domain %d row %d: %.17g with stops, %.17g without", d, i, lbs[d][i],
                        lbr[d][i]);
    /* (b) */
    for (int i = 0; i < K; i++)
        REQUIRE_MSG(lbs[0][i] > stop[0][i], "domain 0 row %d: %.17g, stop %.17g", i, lbs[0][i],
                    stop[0][i]);
    REQUIRE(lbs[1][0] > stop[1][0] && lbs[1][2] > stop[1][2]);
    REQUIRE(lbs[2][1] > stop[2][1] || lbs[2][2] > stop[2][2]);
    /* (c) */
    for (int d = 0; d < D; d++) {
        test_domain dm = {lo[d], hi[d], x0[d], n_sp[d], kq[d], jq[d], sg[d]};
        int on = batch_samples_hold(net, ctx, work, d * K, K, cy[d], NULL, lbs[d], &dm, 3000, &st);
        REQUIRE_MSG(on > 50, "domain %d: only %d samples", d, on);
    }
    /* (e) ReLU nets: each row's best slopes and multipliers, from its place in the call, warm-start
     * a single pass alone back to its bound (the Sigmoid/Tanh lines are not in a warm start) */
    int64_t R = vfy_bound_ctx_n_relu(ctx);
    float *warm = malloc((size_t)(K * (R + 3) + 1) * sizeof(float));
    double *flat = malloc((size_t)vfy_bounds_flat_size(ctx) * sizeof(double)), lb1[K];
    vfy_bounds *alone = vfy_bounds_create(ctx);
    for (int d = 0; !gated && !facets && d < D; d++) {
        for (int i = 0; i < K; i++)
            REQUIRE(vfy_bound_best_warm(ctx, work, d * K + i, warm + i * (R + n_sp[d])));
        vfy_bounds_export(ctx, b[d], flat);
        ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo[d], whi[d], flat, alone),
                         VFY_OK);
        vfy_bound_alpha_warm(alone, K, warm, n_sp[d]);
        ck_assert_int_eq(vfy_bound_rows_alpha(ctx, wlo[d], whi[d], alone, K, cy[d], NULL,
                                              n_sp[d] ? &sp[d] : NULL, 1, lb1, NULL, NULL), VFY_OK);
        for (int i = 0; i < K; i++)
            REQUIRE_MSG(lb1[i] >= lbs[d][i] - 1e-6 * (1 + fabs(lbs[d][i])),
                        "domain %d row %d: %.17g from its warm start, %.17g in the batch", d, i,
                        lb1[i], lbs[d][i]);
    }
    free(warm);
    free(flat);
    vfy_bounds_free(alone);
    for (int d = 0; d < D; d++)
        vfy_bounds_free(b[d]);
    vfy_bounds_free(work);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* A batch's deadline (vfy_alpha_job.dl): over before the call (or cancelled), the ascent ends
 * after its first pass, and every row gets exactly the bound of a call of one pass; a deadline far
 * off changes nothing (the bounds of 15 passes without one). With facets and splits. */
START_TEST(test_alpha_batch_deadline)
{
    enum { D = 2, K = 3 };
    uint64_t st = 9100 + (uint64_t)_i;
    batch_fixture fx;
    batch_fixture_init(&fx, D, K, _i, 9200 + (uint64_t)_i, &st, _i % 2);
    vfy_bound_ctx *ctx = fx.ctx;
    vfy_bounds *work = vfy_bounds_create(ctx);
    double lb[4][D][K];
    vfy_deadline over = {0.0, 0}, cancelled = {INFINITY, 1}, far = {vfy_now() + 3600, 0};
    const vfy_deadline *dls[4] = {NULL, &over, &cancelled, &far};
    double none[D][K];
    for (int run = 0; run < 5; run++) { /* one pass; 15 with each deadline; 15 with none */
        vfy_alpha_job jobs[D];
        for (int d = 0; d < D; d++)
            jobs[d] = (vfy_alpha_job){fx.b[d], fx.wlo[d], fx.whi[d], K, fx.cy[d], NULL,
                                      fx.n_sp[d] ? &fx.sp[d] : NULL, NULL, 0, 0,
                                      run < 4 ? lb[run][d] : none[d], NULL, NULL, NULL, 0, NULL,
                                      NULL, run < 4 ? dls[run] : NULL};
        ck_assert_int_eq(vfy_bound_rows_alpha_batch(ctx, work, D, jobs, run == 0 ? 1 : 15),
                         VFY_OK);
    }
    for (int d = 0; d < D; d++)
        for (int i = 0; i < K; i++) {
            REQUIRE_MSG(lb[1][d][i] == lb[0][d][i] && lb[2][d][i] == lb[0][d][i],
                        "domain %d row %d: one pass %.17g; deadline over %.17g, cancelled %.17g",
                        d, i, lb[0][d][i], lb[1][d][i], lb[2][d][i]);
            REQUIRE_MSG(lb[3][d][i] == none[d][i], "domain %d row %d: %.17g with a deadline "
                        "far off, %.17g without", d, i, lb[3][d][i], none[d][i]);
        }
    vfy_bounds_free(work);
    batch_fixture_free(&fx);
}
END_TEST

/* The intercept score (vfy_bound_relu_scores' iscore) counts only the rows whose coefficient at a
 * ReLU is below 0, the rows that take its upper line. One hidden layer, y = sum_j v_j relu(z_j)
 * with z over [-1, 1]^2 unstable everywhere: the row y gives each neuron the coefficient v_j, so a
 * neuron with v_j > 0 (lower line) scores |v_j| h_j but no intercept, one with v_j < 0 the same
 * for both; adding the row -y makes every intercept score equal the score. */
START_TEST(test_intercept_score)
{
    const int64_t sizes[3] = {2, 4, 1};
    const double w1[8] = {1, 1, 1, -1, -1, 0.5, 0.5, 1}, b1[4] = {0.1, -0.2, 0.3, 0};
    const double w2[4] = {1, -1, 2, -2}, b2[1] = {0};
    const double *w[2] = {w1, w2}, *b[2] = {b1, b2};
    vfy_net *net = testnet_dense(2, sizes, w, b);
    ck_assert_ptr_nonnull(net);
    vfy_bound_ctx *ctx = NULL;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 0, &ctx, NULL), VFY_OK);
    vfy_bounds *bc = vfy_bounds_create(ctx);
    ck_assert_ptr_nonnull(bc);
    double lo[2] = {-1, -1}, hi[2] = {1, 1};
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo, hi, NULL, bc), VFY_OK);
    int64_t n = vfy_bounds_flat_size(ctx) / 2;
    double *score = calloc((size_t)n, sizeof *score), *iscore = calloc((size_t)n, sizeof *iscore);
    double cy[2] = {1, -1};
    for (int K = 1; K <= 2; K++) {
        ck_assert_int_eq(vfy_bound_relu_scores(ctx, lo, hi, bc, K, cy, NULL, score, iscore),
                         VFY_OK);
        for (int64_t j = 0; j < 4; j++) {
            double l = bc->lo[0][j], u = bc->hi[0][j];
            ck_assert(l < 0 && u > 0);
            double h = -l * u / (u - l), want = (K == 1 ? 1.0 : 2.0) * fabs(w2[j]) * h;
            REQUIRE_MSG(fabs(score[j] - want) <= 1e-12 * want, "neuron %lld: score %.17g, want "
                        "%.17g", (long long)j, score[j], want);
            if (K == 2 || w2[j] < 0)
                REQUIRE(iscore[j] == (K == 1 ? score[j] : 0.5 * score[j] + 0.5e-300));
            else
                REQUIRE(iscore[j] > 0 && iscore[j] < 1e-200); /* splittable, no intercept */
        }
        for (int64_t q = 4; q < n; q++)
            REQUIRE(score[q] == 0 && iscore[q] == 0);
    }
    free(score);
    free(iscore);
    vfy_bounds_free(bc);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

static Suite *bound_suite(void)
{
    Suite *s = suite_create("bound");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_directed_rounding);
    tcase_add_test(tc, test_directed_rounding_zero);
    tcase_add_loop_test(tc, test_gemm_matches_reference, 0, 12);
    tcase_add_loop_test(tc, test_gemm_ws_matches_reference, 0, 48);
    tcase_add_loop_test(tc, test_gemm_f32_error, 0, 2);
    tcase_add_test(tc, test_exec_err32_any_order);
    tcase_add_test(tc, test_exec_allowance_orders);
    tcase_add_loop_test(tc, test_f32_products_sound, 0, 4);
    tcase_add_loop_test(tc, test_f32_input_layer_centred, 0, 4);
    tcase_add_loop_test(tc, test_input_layer_kept_per_box, 0, 4);
    tcase_add_loop_test(tc, test_bounds_contain_samples, 0, 12);
    tcase_add_test(tc, test_crown_tighter_than_ibp);
    tcase_add_test(tc, test_crown_deadline_ibp);
    tcase_add_test(tc, test_float_execution_cancellation);
    tcase_add_test(tc, test_margin_proved);
    tcase_add_test(tc, test_float_overflow_no_proof);
    tcase_add_test(tc, test_reference_bounds);
    tcase_add_loop_test(tc, test_grid_contains, 0, 8);
    tcase_add_loop_test(tc, test_tighten_alpha_sound, 0, 12);
    tcase_add_loop_test(tc, test_tighten_alpha_threads, 0, 2);
    tcase_add_loop_test(tc, test_tighten_alpha_charges_rounding, 0, 4);
    tcase_add_loop_test(tc, test_root_slopes, 0, 4);
    tcase_add_loop_test(tc, test_split_children, 0, 6);
    tcase_add_loop_test(tc, test_alpha_warm, 0, 4);
    tcase_add_loop_test(tc, test_beta_sound, 0, 12);
    tcase_add_loop_test(tc, test_offset_constraints_sound, 0, 12);
    tcase_add_loop_test(tc, test_facets_sound, 0, 16);
    tcase_add_loop_test(tc, test_facets_batch_sound, 0, 8);
    tcase_add_test(tc, test_facets_tighter);
    tcase_add_loop_test(tc, test_facets_memo_same, 0, 4);
    tcase_add_loop_test(tc, test_alpha_primal, 0, 32);
    tcase_add_loop_test(tc, test_act_lines, 0, 3);
    tcase_add_loop_test(tc, test_act_any_slope, 0, 6);
    tcase_add_loop_test(tc, test_act_tangent_tight, 0, 3);
    tcase_add_loop_test(tc, test_act_bounds_contain, 0, 32);
    tcase_add_loop_test(tc, test_act_grid_contains, 0, 16);
    tcase_add_loop_test(tc, test_gated_lines, 0, 6);
    tcase_add_test(tc, test_act_crown_tighter);
    tcase_add_loop_test(tc, test_act_exec_allowance, 0, 3);
    tcase_add_loop_test(tc, test_maxpool_sound, 0, 12);
    tcase_add_test(tc, test_maxpool_alpha_gain);
    tcase_add_test(tc, test_maxpool_relaxation);
    tcase_add_loop_test(tc, test_product_sound, 0, 12);
    tcase_add_test(tc, test_product_relaxation);
    tcase_add_loop_test(tc, test_product_vertices, 0, 4);
    tcase_add_loop_test(tc, test_product_alpha_mix, 0, 4);
    tcase_add_loop_test(tc, test_product_mixed_plane, 0, 2);
    tcase_add_loop_test(tc, test_sign_lines, 0, 2);
    tcase_add_loop_test(tc, test_sign_bounds_contain, 0, 6);
    tcase_add_loop_test(tc, test_trig_bounds_contain, 0, 6);
    tcase_add_loop_test(tc, test_trig_lines, 0, 2);
    tcase_add_loop_test(tc, test_exp_recip_lines, 0, 2);
    tcase_add_loop_test(tc, test_convex_lines, 0, 2);
    tcase_add_test(tc, test_convex_exec_allowance);
    tcase_add_loop_test(tc, test_softmax_bounds_contain, 0, 6);
    tcase_add_loop_test(tc, test_product_primal, 0, 6);
    tcase_add_loop_test(tc, test_pass_through_sound, 0, 10);
    tcase_add_loop_test(tc, test_sparse_matches_dense, 0, 6);
    tcase_add_loop_test(tc, test_conv_kernels, 0, 4);
    tcase_add_test(tc, test_conv_bounds_benchmark);
    tcase_add_test(tc, test_facets_kept_benchmark);
    tcase_add_loop_test(tc, test_crown_refine_chunks, 0, 2);
    tcase_add_test(tc, test_chunk_rows_wide);
    tcase_add_test(tc, test_split_point);
    tcase_add_test(tc, test_scores_skip_act_inputs);
    tcase_add_loop_test(tc, test_act_alpha, 0, 16);
    tcase_add_test(tc, test_act_alpha_eran);
    tcase_add_loop_test(tc, test_alpha_batch, 0, 8);
    tcase_add_loop_test(tc, test_alpha_batch_early_stop, 0, 9);
    tcase_add_loop_test(tc, test_alpha_batch_deadline, 0, 4);
    tcase_add_test(tc, test_intercept_score);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    vfy_la_single_thread(); /* tiny products: OpenBLAS threads only add overhead */
    SRunner *sr = srunner_create(bound_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
