/* la: the only module that calls BLAS, and the scalar helpers for directed rounding.
 *
 * Products run in round-to-nearest BLAS; callers charge the a-priori error bound
 *     |fl(sum_k a_k b_k) - sum_k a_k b_k| <= gamma(n) * sum_k |a_k||b_k| + n * 2^-1074   (any order)
 * with gamma(n) = n u / (1 - n u), u = 2^-53 (Higham, Accuracy and Stability, Thm 3.1; the second term
 * covers underflow). The FPU rounding mode is never changed: a directed result is obtained by
 * stepping the round-to-nearest result one ulp outward, which contains the exact value because a
 * correctly rounded result is within half an ulp of it. */
#ifndef VFY_LA_H
#define VFY_LA_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* C = A * B (+ C when accumulate): A is m x k, B is k x n, C is m x n, all row-major, leading
 * dimensions equal to the column counts. Uses OpenBLAS dgemm. */
void vfy_la_gemm(int64_t m, int64_t n, int64_t k, const double *a, const double *b, double *c,
                 int accumulate);
/* C = A * B as vfy_la_gemm (not accumulated), through the transposed product where that is faster
 * (few rows against a wide B); ws holds m n doubles (NULL: always the plain product). */
void vfy_la_gemm_ws(int64_t m, int64_t n, int64_t k, const double *a, const double *b, double *c,
                    double *ws);
/* C = A * B^T: A is m x k, B is n x k. */
void vfy_la_gemm_bt(int64_t m, int64_t n, int64_t k, const double *a, const double *b, double *c);
/* C = A * B (B_trans 0: B is k x n) or A * B^T (B_trans 1: B is n x k) in float32 arithmetic: A
 * rounded to float32, one sgemm (on x86 with subnormals flushed to zero, in this thread), C exactly
 * the float32 results. ws holds m (k + n) floats. Returns 0, C unspecified, when an entry of A is
 * NaN or above 2^100 in magnitude or an entry of C is not finite (the caller uses vfy_la_gemm).
 * Error, for the caller to charge: with A' the float32 rounding of A (an entry whose rounding is
 * subnormal taken as 0; B's entries must be 0 or normal floats),
 *     |A - A'| <= 2^-24 |A| + 2^-126,
 *     |fl32(A' B) - A' B| <= gamma32(k) |A'| |B| + (2 k + 2) 2^-126   (entrywise, any order). */
int vfy_la_gemm_f32(int64_t m, int64_t n, int64_t k, const double *a, const float *b, int b_trans,
                    double *c, float *ws);
/* y = A x (A is m x n row-major) or y = A^T x when transpose. */
void vfy_la_gemv(int64_t m, int64_t n, const double *a, const double *x, double *y, int transpose);
/* Plain-C reference of vfy_la_gemm (no BLAS), used as a test oracle. */
void vfy_la_gemm_ref(int64_t m, int64_t n, int64_t k, const double *a, const double *b, double *c,
                     int accumulate);
/* A matrix's nonzero entries by rows (compressed sparse rows): row i holds col[p], val[p] for p in
 * [row_start[i], row_start[i + 1]). The values are exact copies of the dense matrix's, so every
 * product below is one the dense kernels would form, and each output sums at most as many terms:
 * the error bound above holds with the dense matrix's dimensions. */
typedef struct vfy_csr {
    int64_t m, n, nnz;
    int64_t *row_start; /* m + 1 */
    int64_t *col;       /* nnz */
    double *val;        /* nnz */
} vfy_csr;

/* The CSR form of the m x n row-major matrix a when at most max_density m n of its entries are
 * nonzero (*out = NULL otherwise). Returns 0 when out of memory. */
int vfy_la_csr_build(int64_t m, int64_t n, const double *a, double max_density, vfy_csr **out);
void vfy_la_csr_free(vfy_csr *a);
/* An empty m x n matrix with room for nnz entries (row_start all 0, nnz set to 0); NULL when out of
 * memory. The caller fills col, val and row_start and sets nnz. */
vfy_csr *vfy_la_csr_alloc(int64_t m, int64_t n, int64_t nnz);
/* A copy of a; NULL when out of memory. */
vfy_csr *vfy_la_csr_copy(const vfy_csr *a);
/* y = A x, or y = A^T x when transpose; with absval, |A| in place of A. */
void vfy_la_csr_gemv(const vfy_csr *a, const double *x, double *y, int transpose, int absval);
/* Rows are taken VFY_CSR_BLOCK at a time through a workspace of VFY_CSR_BLOCK (m + n) doubles (ws;
 * NULL: one row at a time, slower). */
#define VFY_CSR_BLOCK 8
/* C = L A: L is k x m, C is k x n (row-major). */
void vfy_la_csr_lmul(int64_t k, const double *l, const vfy_csr *a, double *c, double *ws);
/* C = V A^T: V is k x n, C is k x m. */
void vfy_la_csr_mul_t(int64_t k, const double *v, const vfy_csr *a, double *c, double *ws);

/* A 2-D convolution (NCHW, batch 1, row-major flattening) as a matrix: output (o, oy, ox) sums
 * k[o][(i, ky, kx)] x[(g cg + i, iy, ix)] over the cg input channels of its group g = o / ocg and
 * the window positions inside the input, iy = oy sh - pt + ky dh, ix = ox sw - pl + kx dw. */
typedef struct vfy_conv_geom {
    int64_t c, h, w;    /* input channels, height, width */
    int64_t oc, oh, ow; /* output channels, height, width */
    int64_t kh, kw, sh, sw, pt, pl, dh, dw, groups;
} vfy_conv_geom;

/* A sparse matrix m x n that holds a convolution as a block, for products through im2col and
 * BLAS: the block's rows are the matrix's last oc oh ow ones (from r0 = m - oc oh ow), its columns
 * [c0, c0 + c h w). The kernel is read off the matrix (oc x ckk, ckk = cg kh kw; entries the matrix
 * never uses are 0), with |k| and the indicator of k != 0. The matrix's other entries (a network's
 * values carried beside the convolution: copies, a residual connection's identity; none inside the
 * block) are rest, NULL when there are none, and rest_nz the indicator of their != 0. The
 * products sum, per output entry, the same products
 * as the CSR kernels' (with exact zeros for padding and zero weights; a block row's other entries
 * lie in other columns) in another order, so the header's error bound holds with the matrix's
 * dimensions. */
typedef enum vfy_conv_ker { VFY_CONV_W, VFY_CONV_ABS, VFY_CONV_NZ } vfy_conv_ker;
typedef struct vfy_conv {
    vfy_conv_geom g;
    int64_t cg, ocg, ckk, ohw;
    double *k, *kabs, *knz;
    int64_t *tap; /* per kernel entry: the output rectangle it reads inside, and its offset */
    int64_t m, n, r0, c0;
    vfy_csr *rest, *rest_nz;
} vfy_conv;

/* The convolution of geometry g that a holds as its last oc oh ow rows' block at columns c0 (tried
 * first) or, failing that, at its last c h w columns, every entry compared; NULL when a holds no
 * such block, when out of memory, or when the kernels would not pay (fewer than 4 output channels
 * per group, or more entries outside the block than in it). */
vfy_conv *vfy_la_conv_match(const vfy_conv_geom *g, const vfy_csr *a, int64_t c0);
vfy_conv *vfy_la_conv_copy(const vfy_conv *cv);
void vfy_la_conv_free(vfy_conv *cv);
/* Doubles of workspace the products need. */
int64_t vfy_la_conv_ws_len(const vfy_conv *cv);
/* Y = V A^T with ker's entries in place of A's (A itself, |A| or the indicator of A != 0): V is
 * k x n, Y is k x m. */
void vfy_la_conv_fwd(const vfy_conv *cv, vfy_conv_ker ker, int64_t k, const double *v, double *y,
                     double *ws);
/* C = L A: L is k x m, C is k x n. */
void vfy_la_conv_bwd(const vfy_conv *cv, int64_t k, const double *l, double *c, double *ws);

/* Limit BLAS to one thread (we parallelise over domains instead). */
void vfy_la_single_thread(void);

/* Error-bound constant for dot products of length n in double: an upper bound of 2*gamma(n+2),
 * generous enough to also cover the rounding of the error term's own evaluation. */
double vfy_la_gamma(int64_t n);
/* The same for float32 arithmetic (u = 2^-24), for our own float32 products (vfy_la_gemm_f32). */
double vfy_la_gamma32(int64_t n);
/* Higham's gamma_n = n u / (1 - n u) for float32 (u = 2^-24), rounded up: a computation in which
 * every term passes through at most n float32 roundings is within gamma_n of the exact value, per
 * unit of the terms' magnitudes (Higham, Lemma 3.1). +inf when n u >= 1/2. */
double vfy_la_gamma32n(int64_t n);
/* An upper bound of the rounding error of a float32 execution of one row of an affine layer, in any
 * summation order, with or without fma: the row is a sum of m terms (products w_i v_i and the bias)
 * of magnitudes a_i, A >= sum a_i, M >= max a_i, each term rounded at most `ops` times before it
 * enters the sum (the product; a runtime-computed multiplier), the sum's tree rounding each of its
 * m - 1 additions. Underflow is not included (the caller adds its absolute term).
 *
 * An addition rounds its exact result s by at most u |s|, and |s| is at most the sum of the
 * |terms| below it in the tree (times (1+u) per rounding on the way); the tree's internal node with
 * the c-th most terms below it has at most m - c + 1 of them (by induction over the two subtrees),
 * which sum to at most T(j) = the sum of the j largest a_i <= min(A, j M). So
 *     |error| <= u rho (ops A + B),  B = sum_{j=2}^{m} min(A, j M),  rho = (1+u)^(ops+m) <=
 *     1 / (1 - (ops+m) u),
 * and for any 1 <= K <= m, B <= M (K(K+1)/2 - 1) + A (m - K) (K = floor(A/M) makes it tightest).
 * With m equal terms this is about u (ops + m/2) A, half of gamma_m A; +inf when (ops+m) u >= 1/2.
 */
double vfy_la_exec_err32(double A, double M, int64_t m, int ops);

/* Directed scalar arithmetic: the result bounds the exact one from below (down) or above (up).
 * Inline bit stepping instead of libm's nextafter (which is a slow call in the bound kernels). An
 * overflowed result steps back to the finite range (the exact value of finite operands is finite), a
 * NaN stays NaN. */
static inline double vfy_up(double x)
{
    if (x != x || x == INFINITY)
        return x;
    if (x == -INFINITY)
        return -DBL_MAX;
    if (x == 0)
        return DBL_TRUE_MIN;
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    u = x > 0 ? u + 1 : u - 1;
    memcpy(&x, &u, sizeof u);
    return x;
}
static inline double vfy_down(double x) { return -vfy_up(-x); }
/* A sum or difference of two finite doubles that rounds to zero is exactly zero (with gradual
 * underflow every nonzero exact sum is at least the smallest subnormal in magnitude), so it is kept
 * at zero: stepping it to +-DBL_TRUE_MIN would be sound but would fill the bound vectors with
 * subnormals (every stable ReLU's radius), and each product with a subnormal costs a microcode
 * assist, ten times a normal one. */
static inline double vfy_add_down(double a, double b)
{
    double s = a + b;
    return s == 0 ? 0.0 : vfy_down(s);
}
static inline double vfy_add_up(double a, double b)
{
    double s = a + b;
    return s == 0 ? 0.0 : vfy_up(s);
}
static inline double vfy_sub_down(double a, double b) { return vfy_add_down(a, -b); }
static inline double vfy_sub_up(double a, double b) { return vfy_add_up(a, -b); }
/* A product can underflow to a result whose error is up to half the smallest subnormal, which the
 * one-ulp step covers too (the ulp of a subnormal is 2^-1074); a product with a zero factor is
 * exactly zero. */
static inline double vfy_mul_down(double a, double b)
{
    double p = a * b;
    return p == 0 && (a == 0 || b == 0) ? 0.0 : vfy_down(p);
}
static inline double vfy_mul_up(double a, double b)
{
    double p = a * b;
    return p == 0 && (a == 0 || b == 0) ? 0.0 : vfy_up(p);
}
/* A quotient (b nonzero) is correctly rounded too, within an ulp of the exact one, underflow
 * included; a zero dividend gives exactly zero. */
static inline double vfy_div_down(double a, double b)
{
    double q = a / b;
    return q == 0 && a == 0 ? 0.0 : vfy_down(q);
}
static inline double vfy_div_up(double a, double b)
{
    double q = a / b;
    return q == 0 && a == 0 ? 0.0 : vfy_up(q);
}
/* IEEE sqrt is correctly rounded too (a >= 0; NaN otherwise); sqrt(0) = 0 exactly. */
static inline double vfy_sqrt_down(double a)
{
    double q = sqrt(a);
    return q == 0 ? 0.0 : vfy_down(q);
}
static inline double vfy_sqrt_up(double a)
{
    double q = sqrt(a);
    return q == 0 ? 0.0 : vfy_up(q);
}

#endif
