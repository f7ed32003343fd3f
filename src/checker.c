/* checker: the independent certificate checker. See include/vfy/checker.h and docs/certificate.md.
 *
 * Deliberately self-contained: nothing here comes from bound.c, la.c or bab.c. The arithmetic is
 * plain C with every operation's round-to-nearest result stepped one ulp outward (up/dn below), so
 * each computed interval contains the exact real value. Speed is secondary to a short argument.
 *
 * Perturbation model (docs/soundness.md section 4), per affine layer k and output j:
 *     v' = W v + b + e,   |e_j| <= E_j = c1 (|W| H)_j + c2 |b_j| + c3 [+ X_j],   H >= |v|,
 *  float32 claim, SCALE: c1 = gamma32(fan_in+2)(1 + w_relerr) + w_relerr, c2 = gamma32(fan_in+2),
 *                 c3 = (fan_in+2) 2^-149;
 *  float32 claim, DENSE: c1 = w_relerr, c2 = 0, c3 = (fan_in+2) 2^-149, and X_j the rounding of
 *                 the row's sum (exec32_up): its m terms of magnitudes a_i (products with
 *                 (1 + w_relerr)|W| H, and |b_j|), each rounded at most `ops` times before the sum
 *                 (1, 2 for rounded multipliers), then summed in any order;
 *  real claim:    c1 = w_relerr, c2 = c3 = 0;
 * gamma32(n) = n 2^-24 / (1 - n 2^-24) (Higham, Thm 3.1, any summation order, with or without fma).
 * ReLU and Sign are exact; a product's float32 value is within 2^-24 |a b| + 2^-149 of the real one
 * (CK_PROD_EXEC below); Sigmoid and Tanh are enclosed from libm with widening, and under the
 * float32 claim their executed value may differ from the real one by CK_ACT_EXEC (section
 * "Sigmoid and Tanh" below); a lowered Softmax's (EXP, RECIP) by recip_exec_up (section "Exp and
 * Recip"). A float32 execution may overflow where the real network does not, so under the
 * float32 claim no bound may leave (-1e38, 1e38). */
#include "vfy/checker.h"
#include "vfy/net.h"
#include "vfy/onnx.h"
#include "vfy/spec.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FLOAT_EXEC_LIMIT 1e38
#define COVER_BUDGET 400000000LL /* region visits allowed to the cover check */
#define RELU_BISECT_MAX 8 /* activation splits the checker adds to a region it cannot confirm */

/* ---- outward rounding ----
 * up(x) >= the exact value of any operation whose round-to-nearest result is x; dn likewise below.
 * SOUND: the exact value lies within half an ulp of x, so below succ(x) = x + ulp(x) (at most; less
 * when x < 0 is minus a power of two). d = fl(fl(|x| 2^-52) + 2^-1074) >= ulp(x): for normal x,
 * |x| 2^-52 >= ulp(x), which is a double, and rounding to nearest is monotone; for subnormal x,
 * ulp(x) = 2^-1074 <= d. Hence x + d >= succ(x), a double, and fl(x + d) >= succ(x) again by
 * monotonicity. Overflow gives +-inf or NaN (inf - inf), which every caller rejects through its
 * finiteness tests. No rounding mode is changed, and the form is branch-free (it vectorises). */
static inline double up(double x) { return x + (fabs(x) * 0x1p-52 + 0x1p-1074); }
static inline double dn(double x) { return x - (fabs(x) * 0x1p-52 + 0x1p-1074); }

/* ---- the checker's state ---- */
typedef struct ck {
    const vfy_net *net;
    const vfy_spec *spec;
    int fsem;                 /* 1: the float32 claim, 0: real only */
    int64_t nx, ny, L, width;
    double *c1, *c2, *c3;     /* per layer: perturbation constants (affine layers) */
    int *ops;                 /* per layer: > 0 for a DENSE layer's rounded sum (X_j above) */
    double **lo, **hi, **E;   /* per layer: bounds of its output, perturbation bound (affine) */
    double **wp, **wn;        /* DENSE layers: max(W, 0) and min(W, 0) (exact) */
    double **ln;              /* SIGMOID/TANH/SIGN/EXP/RECIP layers: lines sl, tl, su, tu (4 n)
                               * for the current bounds */
    double *H, *sv, *tv;      /* width: |input| bound; ReLU upper lines s z + t */
    int64_t *idx;             /* width */
    int64_t cap;              /* rows the buffers below hold */
    double *al, *ah, *bl, *bh;   /* cap x width: interval coefficients (current, next) */
    double *betal, *betah;       /* cap: interval constants */
    double *lb;                  /* cap: row lower bounds */
    char *dead;                  /* cap: a row that met a non-finite value */
    double *ilo, *ihi, *ic;      /* cap x nx, cap: final linear forms (for Farkas) */
    double *mu, *mub, *sg;       /* cap: Farkas multipliers */
    int mub_ok;                  /* mub holds the current case's best multipliers */
    double *mus;                 /* cap: each open case's multipliers, by row */
    double *xl2, *xh2;           /* nx: bisection pieces */
    const vfy_check_opts *opts;
    int slopes;                  /* lower slopes of unstable ReLUs: 0 CROWN's default, 1 s = u/(u-l) */
    int refine_all;              /* back-substitute every neuron that feeds a ReLU, stable ones too */
    int64_t pieces, farkas;
    int deepest;                 /* deepest bisection of the current region */
    /* format 2 (ReLU splitting) */
    int64_t half;                /* entries of the flat layout: every layer's outputs, in order */
    int64_t *foff;               /* per layer: offset of its outputs in the flat layout */
    double *plo, *phi;           /* half each: the root's bounds (the prior), valid on [prl, prh] */
    double *prl, *prh;           /* nx */
    int64_t prior_box;           /* the box of the last 'root' line; -1: no usable prior */
    int prior_dirty;             /* bounds were derived since the later layers were re-bounded */
    int64_t prior_layer;         /* layer of the last derived bound */
    int lo_is_prior;             /* lo/hi hold the prior's layers (no region was bounded since) */
    int use_prior;               /* layers() intersects every layer with the prior */
    int64_t n_sp;                /* the current region's splits: layer, neuron, sign (then the
                                  * checker's own, from activation bisection) */
    int64_t n_sp_beta;           /* the region's own: the ones with multipliers */
    int64_t *sp_k, *sp_j;
    signed char *sp_s;
    const double **ra, **rb;     /* cap: each row's slopes (flat, NaN: default) and multipliers, or NULL */
    int params;                  /* backward reads ra/rb */
    const double *pa, *pb;       /* the region's rows: slopes (rows x half), multipliers (rows x n_sp) */
    const char *phas;            /* per region row: a 'row' line gave its parameters */
    const int64_t *crow;         /* per case of the spec: its first row among the region's, or -1 */
} ck;

static void ck_free(ck *c)
{
    if (c->lo)
        for (int64_t k = 0; k < c->L; k++) {
            vfy_free(c->lo[k]);
            vfy_free(c->hi[k]);
            vfy_free(c->E[k]);
            vfy_free(c->wp[k]);
            vfy_free(c->wn[k]);
            vfy_free(c->ln[k]);
        }
    void *bufs[] = {c->c1, c->c2, c->c3, c->ops, c->lo, c->hi, c->E, c->wp, c->wn, c->ln, c->H,
                    c->sv, c->tv, c->idx, c->al, c->ah, c->bl, c->bh, c->betal, c->betah, c->lb,
                    c->dead, c->ilo, c->ihi, c->ic, c->mu, c->mub, c->sg, c->xl2, c->xh2, c->mus,
                    c->foff, c->plo, c->phi, c->prl, c->prh, c->sp_k, c->sp_j, c->sp_s,
                    (void *)c->ra, (void *)c->rb};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        vfy_free(bufs[i]);
}

static int ck_reserve(ck *c, int64_t K)
{
    if (K <= c->cap)
        return 1;
    double **d[] = {&c->al, &c->ah, &c->bl, &c->bh};
    for (size_t i = 0; i < 4; i++) {
        vfy_free(*d[i]);
        *d[i] = vfy_alloc_array((size_t)(K * c->width), sizeof(double));
    }
    double **e[] = {&c->betal, &c->betah, &c->lb, &c->ic, &c->mu, &c->mub, &c->sg, &c->mus};
    for (size_t i = 0; i < 8; i++) {
        vfy_free(*e[i]);
        *e[i] = vfy_alloc_array((size_t)K, sizeof(double));
    }
    vfy_free(c->ilo);
    vfy_free(c->ihi);
    vfy_free(c->dead);
    vfy_free((void *)c->ra);
    vfy_free((void *)c->rb);
    c->ra = vfy_alloc_array((size_t)K, sizeof(double *));
    c->rb = vfy_alloc_array((size_t)K, sizeof(double *));
    c->ilo = vfy_alloc_array((size_t)(K * c->nx), sizeof(double));
    c->ihi = vfy_alloc_array((size_t)(K * c->nx), sizeof(double));
    c->dead = vfy_alloc((size_t)K);
    c->cap = 0;
    for (size_t i = 0; i < 4; i++)
        if (!*d[i])
            return 0;
    for (size_t i = 0; i < 8; i++)
        if (!*e[i])
            return 0;
    if (!c->ilo || !c->ihi || !c->dead || !c->ra || !c->rb)
        return 0;
    c->cap = K;
    return 1;
}

/* The float32 rounding of a sum of m terms of magnitudes a_i, each rounded at most ops times first,
 * summed in any order (file comment), from A >= sum a_i and M >= max a_i:
 *   every addition's error is at most u times its exact result, which is at most the sum of the
 *   terms below it in the summation tree (each grown by at most (1+u) per rounding on its way);
 *   ordering the tree's m - 1 additions by how many terms lie below them, the c-th has at most
 *   m - c + 1 (a tree's root has m; remove it and the two subtrees' counts interleave, each below
 *   its own size), whose sum is at most min(A, (m - c + 1) M); with n = m - c + 1 running over
 *   2..m and any K in [1, m], sum_n min(A, n M) <= M (K(K+1)/2 - 1) + A (m - K). The ops roundings
 *   of each term add at most ops u A. All of it times (1+u)^(ops+m) <= 1 / (1 - (ops+m) u).
 * -1 when (ops + m) u >= 1/2. */
static double exec32_up(double A, double M, int64_t m, int ops)
{
    if (m <= 0 || !(A > 0))
        return 0;
    double nu = (double)(m + ops) * 0x1p-24;
    if (!(nu < 0.5))
        return -1;
    double rho = up(1.0 / dn(1.0 - nu));
    double K = 1;
    if (M > 0 && m <= (1 << 25)) {
        K = floor(A / M);
        K = K < 1 ? 1 : (K > (double)m ? (double)m : K);
    }
    double B = up(up(M * (K * (K + 1) / 2 - 1)) + up(A * ((double)m - K)));
    return up(up(up(up((double)ops * A) + B) * rho) * 0x1p-24);
}

/* gamma32(n) rounded up; 0 when n 2^-24 >= 1/2 (then no float32 claim can be checked). */
static double gamma32_up(int64_t n)
{
    double nu = (double)n * 0x1p-24; /* exact for n < 2^53 */
    if (!(nu < 0.5))
        return 0;
    return up(up(nu) / dn(1.0 - nu));
}

/* The activations bounded by lines sl z + tl <= f(z) <= su z + tu (c->ln). */
static int lined_act(vfy_layer_kind k)
{
    return vfy_layer_is_sshaped(k) || vfy_layer_is_gated(k) || k == VFY_LAYER_SIGN ||
           k == VFY_LAYER_SIN || k == VFY_LAYER_COS || vfy_layer_is_convex(k);
}

static vfy_status ck_init(ck *c, const vfy_net *net, const vfy_spec *spec, int fsem, vfy_error *err)
{
    c->net = net;
    c->spec = spec;
    c->fsem = fsem;
    c->nx = net->n_in;
    c->ny = net->n_out;
    c->L = net->n_layers;
    c->width = vfy_net_max_width(net);
    if (c->width < c->nx)
        c->width = c->nx;
    if (c->width < c->ny)
        c->width = c->ny;
    size_t L1 = (size_t)c->L + 1, w = (size_t)c->width;
    c->c1 = vfy_alloc_array(L1, sizeof(double));
    c->c2 = vfy_alloc_array(L1, sizeof(double));
    c->c3 = vfy_alloc_array(L1, sizeof(double));
    c->ops = vfy_alloc_array(L1, sizeof(int));
    c->lo = vfy_alloc_array(L1, sizeof(double *));
    c->hi = vfy_alloc_array(L1, sizeof(double *));
    c->E = vfy_alloc_array(L1, sizeof(double *));
    c->wp = vfy_alloc_array(L1, sizeof(double *));
    c->wn = vfy_alloc_array(L1, sizeof(double *));
    c->ln = vfy_alloc_array(L1, sizeof(double *));
    c->H = vfy_alloc_array(w, sizeof(double));
    c->sv = vfy_alloc_array(w, sizeof(double));
    c->tv = vfy_alloc_array(w, sizeof(double));
    c->idx = vfy_alloc_array(w, sizeof(int64_t));
    c->xl2 = vfy_alloc_array((size_t)c->nx + 1, sizeof(double));
    c->xh2 = vfy_alloc_array((size_t)c->nx + 1, sizeof(double));
    if (!c->c1 || !c->c2 || !c->c3 || !c->ops || !c->lo || !c->hi || !c->E || !c->wp || !c->wn ||
        !c->ln || !c->H || !c->sv || !c->tv || !c->idx || !c->xl2 || !c->xh2)
        return vfy_fail(err, VFY_ERR_NOMEM, "out of memory in the checker");
    for (int64_t k = 0; k < c->L; k++) {
        const vfy_layer *Lk = &net->layers[k];
        if (Lk->kind != VFY_LAYER_DENSE && Lk->kind != VFY_LAYER_SCALE &&
            Lk->kind != VFY_LAYER_RELU && !vfy_layer_is_sshaped(Lk->kind) &&
            Lk->kind != VFY_LAYER_MAXPOOL &&
            Lk->kind != VFY_LAYER_PRODUCT && !lined_act(Lk->kind))
            return vfy_fail(err, VFY_ERR_UNSUPPORTED, "checker: layer %lld ('%s') has a kind it "
                            "does not know", (long long)k, Lk->name);
        c->lo[k] = vfy_alloc_array((size_t)Lk->n_out, sizeof(double));
        c->hi[k] = vfy_alloc_array((size_t)Lk->n_out, sizeof(double));
        c->E[k] = vfy_alloc_array((size_t)Lk->n_out, sizeof(double));
        if (!c->lo[k] || !c->hi[k] || !c->E[k])
            return vfy_fail(err, VFY_ERR_NOMEM, "out of memory in the checker");
        if (Lk->kind == VFY_LAYER_RELU || Lk->kind == VFY_LAYER_MAXPOOL ||
            Lk->kind == VFY_LAYER_PRODUCT)
            continue;
        if (lined_act(Lk->kind)) {
            if (!(c->ln[k] = vfy_alloc_array((size_t)(4 * Lk->n_out), sizeof(double))))
                return vfy_fail(err, VFY_ERR_NOMEM, "out of memory in the checker");
            continue;
        }
        if (Lk->kind == VFY_LAYER_DENSE && !Lk->csr) { /* (sparse rows are read as they are) */
            size_t nw = (size_t)(Lk->n_in * Lk->n_out);
            c->wp[k] = vfy_alloc_array(nw, sizeof(double));
            c->wn[k] = vfy_alloc_array(nw, sizeof(double));
            if (!c->wp[k] || !c->wn[k])
                return vfy_fail(err, VFY_ERR_NOMEM, "out of memory in the checker");
            for (size_t q = 0; q < nw; q++) {
                c->wp[k][q] = Lk->w[q] > 0 ? Lk->w[q] : 0.0;
                c->wn[k][q] = Lk->w[q] < 0 ? Lk->w[q] : 0.0;
            }
        }
        double rel = Lk->w_relerr;
        if (fsem) {
            double g = gamma32_up(Lk->fan_in + 2);
            if (!(g > 0))
                return vfy_fail(err, VFY_ERR_UNSUPPORTED, "checker: layer '%s' sums %lld terms, "
                                "too many for a float32 error bound", Lk->name,
                                (long long)Lk->fan_in);
            c->c1[k] = up(up(g * up(1.0 + rel)) + rel);
            c->c2[k] = g;
            c->c3[k] = up((double)(Lk->fan_in + 2) * 0x1p-149);
            if (Lk->kind == VFY_LAYER_DENSE) {
                c->c1[k] = rel;
                c->c2[k] = 0;
                c->ops[k] = rel > 0 ? 2 : 1;
            }
        } else {
            c->c1[k] = rel;
            c->c2[k] = 0;
            c->c3[k] = 0;
        }
    }
    c->foff = vfy_alloc_array(L1, sizeof(int64_t));
    if (!c->foff)
        return vfy_fail(err, VFY_ERR_NOMEM, "out of memory in the checker");
    for (int64_t k = 0; k < c->L; k++) {
        c->foff[k] = c->half;
        c->half += net->layers[k].n_out;
    }
    c->foff[c->L] = c->half;
    c->plo = vfy_alloc_array((size_t)c->half + 1, sizeof(double));
    c->phi = vfy_alloc_array((size_t)c->half + 1, sizeof(double));
    c->prl = vfy_alloc_array((size_t)c->nx + 1, sizeof(double));
    c->prh = vfy_alloc_array((size_t)c->nx + 1, sizeof(double));
    c->prior_box = -1;
    if (!c->plo || !c->phi || !c->prl || !c->prh || !ck_reserve(c, 2 * c->width + 8))
        return vfy_fail(err, VFY_ERR_NOMEM, "out of memory in the checker");
    return VFY_OK;
}

/* The ReLU layer fed by entry idx of the flat layout (an affine layer's output followed by a ReLU),
 * or -1. */
static int64_t relu_fed(const ck *c, int64_t idx)
{
    if (idx < 0 || idx >= c->half)
        return -1;
    int64_t k = 0;
    while (c->foff[k + 1] <= idx)
        k++;
    const vfy_layer *Lk = &c->net->layers[k];
    if ((Lk->kind != VFY_LAYER_DENSE && Lk->kind != VFY_LAYER_SCALE &&
         Lk->kind != VFY_LAYER_MAXPOOL && Lk->kind != VFY_LAYER_PRODUCT) || k + 1 >= c->L ||
        c->net->layers[k + 1].kind != VFY_LAYER_RELU)
        return -1;
    return k + 1;
}

static const double *in_lo(const ck *c, int64_t k, const double *xl) { return k ? c->lo[k - 1] : xl; }
static const double *in_hi(const ck *c, int64_t k, const double *xh) { return k ? c->hi[k - 1] : xh; }

/* [lo, hi] += [a, b] w elementwise (a <= b), for w = wp + wn with wp = max(w, 0), wn = min(w, 0):
 * the lower end of [a, b] w is a wp + b wn, the upper b wp + a wn; one term of each is an exact
 * zero, so each sum is the rounded product. SOUND: rounded outward before and after the add. */
static void axpy_iv(int64_t n, double a, double b, const double *restrict wp,
                    const double *restrict wn, double *restrict lo, double *restrict hi)
{
    for (int64_t q = 0; q < n; q++) {
        double pl = a * wp[q] + b * wn[q], ph = b * wp[q] + a * wn[q];
        lo[q] = dn(lo[q] + dn(pl));
        hi[q] = up(hi[q] + up(ph));
    }
}

/* The same for row o of a sparse W, its nonzeros only: the lower end of [a, b] w is a w for w > 0,
 * b w for w < 0 (the upper the other). SOUND: as axpy_iv. */
static void axpy_iv_sparse(const vfy_csr *W, int64_t o, double a, double b, double *restrict lo,
                           double *restrict hi)
{
    for (int64_t p = W->row_start[o]; p < W->row_start[o + 1]; p++) {
        int64_t q = W->col[p];
        double w = W->val[p];
        double pl = w > 0 ? a * w : b * w, ph = w > 0 ? b * w : a * w;
        lo[q] = dn(lo[q] + dn(pl));
        hi[q] = up(hi[q] + up(ph));
    }
}

/* ---- Sin and Cos ----
 * Enclosures: libm's sin and cos within 2^-46 |v| + 2^-1060 (glibc documents 1 ulp), clamped to
 * [-1, 1]; |z| > 2^20 or NaN: [-1, 1].
 * Range on [l, u]: the ends' enclosures, 1 if a maximum point (sin: pi/2 + 2 pi k, cos: 2 pi k)
 * may be inside, -1 if a minimum point may (the maximum's points shifted by pi): a point
 * p = p0 + k fl(2 pi) is taken as inside when within [l - r, u + r], r = 2^-30 (1 + |l| + |u|),
 * far more than the error of p (< (|k| + 2) 2^-51 (1 + |p|)). Wider than 6 or beyond 2^20: [-1, 1].
 * Lines of slope s: g = f - s z has its extrema on [l, u] at the ends or where f' = s:
 * sin: z = +-acos(s) + 2 pi k; cos: z = asin(-s) + 2 pi k, pi - asin(-s) + 2 pi k (|s| <= 1).
 * Each real such point c inside has a computed one c' with |c - c'| <= r' = 2^-40 (1 + |c'|);
 * g'(c) = 0 and |g''| <= 1 give g(c) <= g(c') + r'^2 / 2 (and >= g(c') - r'^2 / 2). So the upper
 * intercept is the max of up(Fhi(p) - s p) over the ends and the c' within [l - r', u + r']
 * (plus r'^2 / 2), the lower the min of the like. Slopes: the chord's, f' at l, (l+u)/2, u, and 0,
 * keeping per side the line nearest f at the midpoint (any slope is sound).
 * Float32 claim: a runtime's sinf/cosf within CK_ACT_EXEC of the real function for |z| <= 2^13;
 * beyond, nothing is confirmed. */
#define CK_TRIG_FLOAT_ARG 0x1p13
#define CK_TWO_PI 6.283185307179586
#define CK_PI 3.141592653589793

static void trig_iv(vfy_layer_kind kind, double z, double *lo, double *hi)
{
    *lo = -1.0;
    *hi = 1.0;
    if (!(fabs(z) <= 0x1p20))
        return;
    double v = kind == VFY_LAYER_SIN ? sin(z) : cos(z);
    double d = up(up(fabs(v) * 0x1p-46) + 0x1p-1060), l = dn(v - d), h = up(v + d);
    *lo = l > -1.0 ? l : -1.0;
    *hi = h < 1.0 ? h : 1.0;
}

/* 1 when p0 + 2 pi k may lie in [l, u] for some integer k. */
static int trig_point_in(double p0, double l, double u)
{
    double r = 0x1p-30 * (1.0 + fabs(l) + fabs(u));
    for (double k = floor((l - r - p0) / CK_TWO_PI) - 1; k <= ceil((u + r - p0) / CK_TWO_PI) + 1;
         k++) {
        double p = p0 + k * CK_TWO_PI;
        if (p >= l - r && p <= u + r)
            return 1;
    }
    return 0;
}

static void trig_range_ck(vfy_layer_kind kind, double l, double u, double *lo, double *hi)
{
    *lo = -1.0;
    *hi = 1.0;
    if (!(l <= u) || !(fabs(l) <= 0x1p20) || !(fabs(u) <= 0x1p20) || !(u - l < 6.0))
        return;
    double a0, a1, b0, b1;
    trig_iv(kind, l, &a0, &a1);
    trig_iv(kind, u, &b0, &b1);
    double pmax = kind == VFY_LAYER_SIN ? 0.5 * CK_PI : 0.0;
    *lo = trig_point_in(pmax - CK_PI, l, u) ? -1.0 : (a0 < b0 ? a0 : b0);
    *hi = trig_point_in(pmax, l, u) ? 1.0 : (a1 > b1 ? a1 : b1);
}

/* The intercept of the line of slope s above (upper) or below f on [l, u]; +-inf if not finite. */
static double trig_icept_ck(vfy_layer_kind kind, double l, double u, double s, int upper)
{
    double p[2] = {l, u}, t = upper ? -INFINITY : INFINITY;
    for (int i = 0; i < 2; i++) {
        double lo, hi;
        trig_iv(kind, p[i], &lo, &hi);
        double v = upper ? up(hi - dn(s * p[i])) : dn(lo - up(s * p[i]));
        t = upper ? (v > t ? v : t) : (v < t ? v : t);
    }
    if (fabs(s) <= 1.0) {
        double a = kind == VFY_LAYER_SIN ? acos(s) : asin(-s);
        double base[2] = {a, kind == VFY_LAYER_SIN ? -a : CK_PI - a};
        for (int b = 0; b < 2; b++) {
            double r0 = 0x1p-40 * (9.0 + fabs(l) + fabs(u));
            double k1 = ceil((u + r0 - base[b]) / CK_TWO_PI) + 1;
            for (double k = floor((l - r0 - base[b]) / CK_TWO_PI) - 1; k <= k1; k++) {
                double c = base[b] + k * CK_TWO_PI, r = 0x1p-40 * (1.0 + fabs(c));
                if (!(c >= l - r && c <= u + r))
                    continue;
                double lo, hi, h = up(0.5 * up(r * r));
                trig_iv(kind, c, &lo, &hi);
                double v = upper ? up(up(hi - dn(s * c)) + h) : dn(dn(lo - up(s * c)) - h);
                t = upper ? (v > t ? v : t) : (v < t ? v : t);
            }
        }
    }
    return isfinite(t) ? t : (upper ? INFINITY : -INFINITY);
}

static void trig_lines_ck(vfy_layer_kind kind, double l, double u, double *sl, double *tl,
                          double *su, double *tu)
{
    trig_range_ck(kind, l, u, tl, tu);
    *sl = *su = 0;
    if (!(l < u) || !(u - l > 0x1p-20) || !(u - l <= 6.0) || !(fabs(l) <= 0x1p20) ||
        !(fabs(u) <= 0x1p20))
        return;
    int sn = kind == VFY_LAYER_SIN;
    double m = 0.5 * l + 0.5 * u;
    double s[5] = {((sn ? sin(u) : cos(u)) - (sn ? sin(l) : cos(l))) / (u - l),
                   sn ? cos(l) : -sin(l), sn ? cos(m) : -sin(m), sn ? cos(u) : -sin(u), 0.0};
    double vu = *tu, vl = *tl;
    for (int i = 0; i < 5; i++) {
        if (!isfinite(s[i]))
            continue;
        double t = trig_icept_ck(kind, l, u, s[i], 1);
        if (isfinite(t) && s[i] * m + t < vu) {
            vu = s[i] * m + t;
            *su = s[i];
            *tu = t;
        }
        t = trig_icept_ck(kind, l, u, s[i], 0);
        if (isfinite(t) && s[i] * m + t > vl) {
            vl = s[i] * m + t;
            *sl = s[i];
            *tl = t;
        }
    }
}

/* ---- Sigmoid, Tanh and Erf ----
 * f is increasing; f' is even and decreasing in |z| (f convex below 0, concave above);
 * sigmoid' = s (1 - s) <= 1/4, tanh' = 1 - t^2 <= 1, erf' = C e^(-z^2) <= C = 2 / sqrt(pi).
 * Value enclosures rest on libm: exp, erf and tanh within 2^-48 relative (16 ulp; glibc documents
 * 1, 1 and 2 ulp). Float32 claim: a runtime's activation kernel is within CK_ACT_EXEC of the real
 * function (absolute: onnxruntime's rational approximations err by up to 3.6e-7 measured;
 * docs/soundness.md section 4b). */
#define CK_ACT_EXEC 0x1p-19
#define CK_ACT_PIECES 64

/* [*lo, *hi] ∋ f(z). SOUND: sigmoid: E = exp(-z) is within 2^-48 E (+2^-1074 underflow) of e^-z
 * for z >= -700 (no overflow), so 1 + e^-z lies in [1 + E(1 - 2^-47) - 2^-1074,
 * 1 + E(1 + 2^-47) + 2^-1073]
 * and s(z) = 1/(1 + e^-z) between the reciprocals, each step rounded outward; below -700,
 * 0 < s(z) < e^z < 2^-1000. tanh and erf: libm's t within 2^-48 |t| (+ a few 2^-1074), widened by
 * 2^-47 |t| + 2^-1070. All clamped to the function's range. NaN: the whole range. */
static void act_iv(vfy_layer_kind kind, double z, double *lo, double *hi)
{
    double rlo = kind == VFY_LAYER_SIGMOID ? 0.0 : -1.0;
    *lo = rlo;
    *hi = 1.0;
    if (z != z)
        return;
    if (kind == VFY_LAYER_SIGMOID) {
        if (z < -700) {
            *lo = 0.0;
            *hi = 0x1p-1000;
            return;
        }
        double e = exp(-z);
        double el = dn(dn(e * dn(1.0 - 0x1p-47)) - 0x1p-1074);
        double eh = up(up(e * up(1.0 + 0x1p-47)) + 0x1p-1073);
        double dl = dn(1.0 + (el > 0 ? el : 0)), dh = up(1.0 + eh);
        double l = dn(1.0 / dh), h = up(1.0 / dl);
        *lo = l > rlo ? l : rlo;
        *hi = h < 1.0 ? h : 1.0;
    } else {
        double t = kind == VFY_LAYER_ERF ? erf(z) : tanh(z);
        double d = up(up(fabs(t) * 0x1p-47) + 0x1p-1070);
        double l = dn(t - d), h = up(t + d);
        *lo = l > rlo ? l : rlo;
        *hi = h < 1.0 ? h : 1.0;
    }
}

/* [*dlo, *dhi] ∋ f'(z) from z and [lo, hi] ∋ f(z). SOUND: sigmoid: s and 1 - s are non-negative,
 * so lo (1 - hi) <= s (1 - s) <= hi (1 - lo); tanh: t^2 lies between the end points' squares (0 if
 * they straddle 0); erf: from z, q = z^2 rounded both ways, e^-q within 2^-47 relative (+2^-1074)
 * of libm's exp, times the doubles 0x1.20dd750429b6dp+0 below C and 0x1.20dd750429b6ep+0 above.
 * Outward, clamped to (0, max f']. */
static void act_div(vfy_layer_kind kind, double z, double lo, double hi, double *dlo, double *dhi)
{
    double a, b;
    if (kind == VFY_LAYER_ERF) {
        if (z != z) {
            *dlo = 0;
            *dhi = VFY_ERF_DMAX;
            return;
        }
        double el = dn(dn(exp(-up(z * z)) * dn(1.0 - 0x1p-47)) - 0x1p-1074);
        double eh = up(up(exp(-dn(z * z)) * up(1.0 + 0x1p-47)) + 0x1p-1073);
        a = dn(0x1.20dd750429b6dp+0 * (el > 0 ? el : 0));
        b = up(VFY_ERF_DMAX * eh);
        *dlo = a > 0 ? a : 0;
        *dhi = b < VFY_ERF_DMAX ? b : VFY_ERF_DMAX;
        return;
    }
    if (kind == VFY_LAYER_SIGMOID) {
        a = dn(lo * dn(1.0 - hi));
        b = up(hi * up(1.0 - lo));
        *dlo = a > 0 ? a : 0;
        *dhi = b < 0.25 ? b : 0.25;
    } else {
        double m = fabs(lo) > fabs(hi) ? fabs(lo) : fabs(hi);
        double n = (lo <= 0 && hi >= 0) ? 0 : (fabs(lo) < fabs(hi) ? fabs(lo) : fabs(hi));
        a = dn(1.0 - up(m * m));
        b = up(1.0 - dn(n * n));
        *dlo = a > 0 ? a : 0;
        *dhi = b < 1.0 ? b : 1.0;
    }
}

static double act_pt(vfy_layer_kind kind, double z)
{
    if (kind == VFY_LAYER_ERF)
        return erf(z);
    return kind == VFY_LAYER_SIGMOID ? 1.0 / (1.0 + exp(-z)) : tanh(z);
}
static double act_dpt(vfy_layer_kind kind, double z)
{
    if (kind == VFY_LAYER_ERF)
        return 1.1283791670955126 * exp(-z * z);
    double v = act_pt(kind, z);
    return kind == VFY_LAYER_SIGMOID ? v * (1.0 - v) : 1.0 - v * v;
}

/* Lines sl z + tl <= f(z) <= su z + tu on [l, u]. Slopes, a free choice (CROWN's): the chord on the
 * side where it lies on the right side of f, the tangent at the midpoint on the other; straddling 0,
 * the tangent from an end point (its touching point by bisection) or the chord when that point lies
 * beyond the other end. Slopes are clamped to >= 0 (f is increasing). Intercepts: certified on
 * CK_ACT_PIECES pieces [p, q]: g = f - a z satisfies g <= g(p) + max(0, sup f' - a)(q - p) and
 * g <= g(q) + max(0, a - inf f')(q - p) there (and symmetrically from below), sup f' at the point of
 * [p, q] nearest 0, inf f' at the end farthest from 0. SOUND: all rounded outward from enclosures;
 * a point, a non-finite or a tiny interval takes the constants f(l), f(u). */
static void act_lines_ck(vfy_layer_kind kind, double l, double u, double *sl, double *tl, double *su,
                         double *tu)
{
    double a0, a1, b0, b1;
    act_iv(kind, l, &a0, &a1);
    act_iv(kind, u, &b0, &b1);
    *sl = *su = 0;
    *tl = a0;
    *tu = b1;
    if (!(l < u) || !(u - l < INFINITY) || !(u - l > 0x1p-20))
        return;
    double fl = act_pt(kind, l), fu = act_pt(kind, u), k = (fu - fl) / (u - l), m = 0.5 * l + 0.5 * u;
    double slo, sup;
    if (u <= 0) {
        sup = k;
        slo = act_dpt(kind, m);
    } else if (l >= 0) {
        slo = k;
        sup = act_dpt(kind, m);
    } else {
        /* upper: through (l, f(l)), tangent at d in (0, u] */
        if (fu - fl <= act_dpt(kind, u) * (u - l)) {
            sup = k;
        } else {
            double d0 = 0, d1 = u;
            for (int it = 0; it < 30; it++) {
                double d = 0.5 * (d0 + d1);
                if (act_pt(kind, d) - fl < act_dpt(kind, d) * (d - l))
                    d0 = d;
                else
                    d1 = d;
            }
            sup = act_dpt(kind, d1);
        }
        /* lower: through (u, f(u)), tangent at d in [l, 0) */
        if (fu - fl <= act_dpt(kind, l) * (u - l)) {
            slo = k;
        } else {
            double d0 = l, d1 = 0;
            for (int it = 0; it < 30; it++) {
                double d = 0.5 * (d0 + d1);
                if (fu - act_pt(kind, d) > act_dpt(kind, d) * (u - d))
                    d0 = d;
                else
                    d1 = d;
            }
            slo = act_dpt(kind, d0);
        }
    }
    if (!(slo >= 0) || !(slo < INFINITY))
        slo = 0;
    if (!(sup >= 0) || !(sup < INFINITY))
        sup = 0;
    double dmax = vfy_act_max_slope(kind);
    double P[CK_ACT_PIECES + 1], F0[CK_ACT_PIECES + 1], F1[CK_ACT_PIECES + 1];
    double D0[CK_ACT_PIECES + 1], D1[CK_ACT_PIECES + 1];
    for (int i = 0; i <= CK_ACT_PIECES; i++) {
        /* monotone in i, P[0] = l, P[N] = u: the pieces cover [l, u] */
        double p = l + (u - l) * ((double)i / CK_ACT_PIECES);
        P[i] = i == CK_ACT_PIECES ? u : (p < u ? p : u);
        act_iv(kind, P[i], &F0[i], &F1[i]);
        act_div(kind, P[i], F0[i], F1[i], &D0[i], &D1[i]);
    }
    double hi_g = -INFINITY, lo_g = INFINITY;
    for (int i = 0; i < CK_ACT_PIECES; i++) {
        double p = P[i], q = P[i + 1], w = up(q - p);
        double dh = (p <= 0 && q >= 0) ? dmax : (q < 0 ? D1[i + 1] : D1[i]);
        double dl = fabs(p) >= fabs(q) ? D0[i] : D0[i + 1];
        double r = up(dh - sup), f = up(sup - dl);
        double u1 = up(up(F1[i] - dn(sup * p)) + up((r > 0 ? r : 0) * w));
        double u2 = up(up(F1[i + 1] - dn(sup * q)) + up((f > 0 ? f : 0) * w));
        double g = u1 < u2 ? u1 : u2;
        hi_g = g > hi_g ? g : hi_g;
        r = up(dh - slo);
        f = up(slo - dl);
        double l1 = dn(dn(F0[i] - up(slo * p)) - up((f > 0 ? f : 0) * w));
        double l2 = dn(dn(F0[i + 1] - up(slo * q)) - up((r > 0 ? r : 0) * w));
        g = l1 > l2 ? l1 : l2;
        lo_g = g < lo_g ? g : lo_g;
    }
    if (isfinite(hi_g)) {
        *su = sup;
        *tu = hi_g;
    }
    if (isfinite(lo_g)) {
        *sl = slo;
        *tl = lo_g;
    }
}

/* ---- Sign ----
 * sign(z) = -1, 0, 1 for z < 0, z = 0, z > 0: nondecreasing, and exact in every float execution
 * (no rounding), so no allowance is charged for it under either claim. Lines on [l, u], each valid
 * for every real z there:
 *   l > 0: y = 1;  u < 0: y = -1;  l = u = 0: y = 0 (slope 0, the constant on both sides);
 *   l = 0 < u: a z <= y <= 1, 0 <= a <= 1/u (for z in (0, u], a z <= a u <= 1; at 0, 0 <= 0);
 *   l < 0 = u: -1 <= y <= b z, 0 <= b <= 1/|l| (for z in [l, 0), b z >= b l >= -1; at 0, 0);
 *   l < 0 < u: a z - 1 <= y <= b z + 1, a = 2/u if u >= -l else 0, b = 2/|l| if -l > u else 0:
 *     a in [0, 2/u] gives a z - 1 <= 1 on (0, u] and <= -1 for z <= 0; b in [0, 2/|l|] gives
 *     b z + 1 >= -1 on [l, 0) and >= 1 for z >= 0.
 * SOUND: each slope is its quotient rounded down (dn), so at most the exact 1/u, 1/|l|, 2/u or
 * 2/|l|, and clamped to [0, finite) (a slope 0 is always valid); intercepts are exact integers. */
static double slope_dn(double q)
{
    double a = dn(q);
    return a >= 0 && a < INFINITY ? a : 0;
}

static double sign_of(double z) { return z > 0 ? 1.0 : (z < 0 ? -1.0 : 0.0); }

static void sign_lines_ck(double l, double u, double *sl, double *tl, double *su, double *tu)
{
    *sl = *su = 0;
    *tl = -1;
    *tu = 1;
    if (l != l || u != u) /* (the range: the caller refuses NaN bounds anyway) */
        return;
    if (l > 0 || u < 0 || (l == 0 && u == 0)) {
        *tl = *tu = sign_of(l > 0 ? l : u);
    } else if (l == 0) {
        *sl = slope_dn(1.0 / u);
        *tl = 0;
    } else if (u == 0) {
        *su = slope_dn(1.0 / -l);
        *tu = 0;
    } else if (u >= -l) {
        *sl = slope_dn(2.0 / u);
    } else {
        *su = slope_dn(2.0 / -l);
    }
}

/* ---- Exp, Recip, Sqrt, Log, Softplus ----
 * Monotone functions, convex or concave on each piece of their domain: exp (increasing, convex),
 * 1/z (decreasing; convex for z > 0, concave for z < 0), sqrt (increasing, concave, z >= 0), log
 * (increasing, concave, z > 0), softplus = log(1 + e^z) = max(z, 0) + log1p(e^-|z|) (increasing,
 * convex). A lowered Softmax is s_i = 1 / (1 + sum_{j != i} exp(x_j - x_i)) (DENSE -> EXP ->
 * DENSE -> RECIP, both with the Softmax's length in fan_in: vfy_layer_in_softmax).
 * Enclosures: libm's exp and log within 2^-46 |v| + 2^-1060 of the real value (v libm's; glibc
 * documents 1 ulp; cf. Sigmoid's 2^-48), exp's lower end clamped at 0, an overflow or NaN giving
 * [0, inf]; log1p the same (softplus: log1p at both ends of e^-|z|'s enclosure, increasing, plus
 * max(z, 0)); 1/z and sqrt(z) one ulp outward (IEEE division and square root are correctly
 * rounded). Outside the domain: (-inf, inf), and the bounds confirm nothing.
 * Lines on [l, u] inside one piece, for any computed slope s:
 *   chord side (above a convex f, below a concave one): f - s z is convex (concave), so extreme
 *     at an end: f(z) <= s z + max(f(l) - s l, f(u) - s u) (convex; >= and min: concave);
 *   tangent side at d, with [fpl, fph] ∋ f'(d), W >= max(d - l, u - d), err = max(fph - s,
 *     s - fpl): convex f(z) >= f(d) + f'(d)(z - d) = s z + (f(d) - s d) + (f'(d) - s)(z - d)
 *     >= s z + Flo(d) - s d - err W; concave f(z) <= s z + Fhi(d) - s d + err W;
 *   d the midpoint (1/z: +-sqrt(l) sqrt(u)); f'(d): exp' = exp, (1/z)' = -(1/z)^2 (between the
 *   squares of 1/d's enclosure, one-signed), sqrt' = 0.5 / sqrt, log' = 1/d, softplus' =
 *   sigmoid = e/(1 + e) with e = e^d (d < 0), 1/(1 + e) with e = e^-d (d >= 0).
 * SOUND: every step rounded outward; a degenerate or non-finite case takes slope 0 and the
 * range's ends. Float32 claim: a Softmax's EXP has no allowance (the runtime computes the Softmax
 * its own way); its RECIP's value, the Softmax's, is assumed within 2^-19 + n 2^-23 of the real one
 * (n = fan_in); a standalone layer's within rel |f| + abs of the real f (cv_exec_up: 1/z 2^-24,
 * 2^-149 and sqrt 2^-24, 0, both correctly rounded; exp and log 2^-21, 2^-146; softplus 2^-21,
 * 2^-21), |f| bounded by the larger end of its range. */
static void exp_iv(double z, double *lo, double *hi)
{
    double v = exp(z);
    *lo = 0;
    *hi = INFINITY;
    if (z != z || !(v < INFINITY))
        return;
    double d = up(up(v * 0x1p-46) + 0x1p-1060), l = dn(v - d);
    *lo = l > 0 ? l : 0;
    *hi = up(v + d);
}

static double recip_exec_up(int64_t n) { return up(0x1p-19 + up((double)n * 0x1p-23)); }

/* The domain's piece holds [l, u] (l <= u, neither NaN). */
static int cv_domain(vfy_layer_kind kind, double l, double u)
{
    if (!(l <= u))
        return 0;
    if (kind == VFY_LAYER_RECIP)
        return l > 0 || u < 0;
    if (kind == VFY_LAYER_SQRT)
        return l >= 0;
    if (kind == VFY_LAYER_LOG)
        return l > 0;
    return 1;
}

/* [*lo, *hi] ∋ f(z) (z inside the domain; else the whole line). */
static void cv_iv(vfy_layer_kind kind, double z, double *lo, double *hi)
{
    *lo = -INFINITY;
    *hi = INFINITY;
    if (z != z)
        return;
    if (kind == VFY_LAYER_EXP) {
        exp_iv(z, lo, hi);
    } else if (kind == VFY_LAYER_RECIP) {
        if (z != 0) {
            *lo = dn(1.0 / z);
            *hi = up(1.0 / z);
        }
    } else if (kind == VFY_LAYER_SQRT) {
        if (z >= 0) {
            double r = sqrt(z), a = dn(r);
            *lo = a > 0 ? a : 0;
            *hi = r == INFINITY ? r : up(r);
        }
    } else if (kind == VFY_LAYER_LOG) {
        if (z == INFINITY) {
            *lo = 709;
        } else if (z > 0) {
            double v = log(z), d = up(up(fabs(v) * 0x1p-46) + 0x1p-1060);
            *lo = dn(v - d);
            *hi = up(v + d);
        }
    } else { /* SOFTPLUS: m + log1p(e), e = e^-|z| in (0, 1], m = max(z, 0) */
        double m = z > 0 ? z : 0, e0, e1;
        if (m == INFINITY) {
            *lo = INFINITY;
            return;
        }
        exp_iv(-fabs(z), &e0, &e1);
        e1 = e1 < 1 ? e1 : 1;
        double p = log1p(e0), q = log1p(e1);
        double a = dn(p - up(up(p * 0x1p-46) + 0x1p-1060));
        double b = up(q + up(up(q * 0x1p-46) + 0x1p-1060));
        a = dn(m + (a > 0 ? a : 0));
        *lo = a > m ? a : m;
        *hi = up(m + b);
    }
}

/* [*lo, *hi] ⊇ f([l, u]): the ends' enclosures on a piece of the domain, else the whole line. */
static void cv_range(vfy_layer_kind kind, double l, double u, double *lo, double *hi)
{
    double t;
    *lo = -INFINITY;
    *hi = INFINITY;
    if (!cv_domain(kind, l, u))
        return;
    cv_iv(kind, kind == VFY_LAYER_RECIP ? u : l, lo, &t);
    cv_iv(kind, kind == VFY_LAYER_RECIP ? l : u, &t, hi);
}

/* [*a, *b] ∋ f'(d) from [f0, f1] ∋ f(d) (see above), rounded outward. */
static void cv_div(vfy_layer_kind kind, double d, double f0, double f1, double *a, double *b)
{
    if (kind == VFY_LAYER_EXP) {
        *a = f0;
        *b = f1;
    } else if (kind == VFY_LAYER_RECIP) {
        double m = fabs(f0) < fabs(f1) ? fabs(f0) : fabs(f1);
        double n = fabs(f0) < fabs(f1) ? fabs(f1) : fabs(f0);
        *a = -up(n * n);
        *b = -dn(m * m);
    } else if (kind == VFY_LAYER_SQRT) {
        *a = dn(0.5 / f1);
        *b = f0 > 0 ? up(0.5 / f0) : INFINITY;
    } else if (kind == VFY_LAYER_LOG) {
        *a = dn(1.0 / d);
        *b = up(1.0 / d);
    } else {
        double e0, e1;
        exp_iv(d < 0 ? d : -d, &e0, &e1);
        if (d < 0) {
            *a = dn(e0 / up(1.0 + e1));
            *b = up(e1 / dn(1.0 + e1));
        } else {
            *a = dn(1.0 / up(1.0 + e1));
            *b = up(1.0 / dn(1.0 + e0));
        }
    }
}

/* plain double, a choice: the function and its derivative */
static double cv_pt(vfy_layer_kind kind, double z)
{
    if (kind == VFY_LAYER_EXP)
        return exp(z);
    if (kind == VFY_LAYER_RECIP)
        return 1.0 / z;
    if (kind == VFY_LAYER_SQRT)
        return sqrt(z);
    if (kind == VFY_LAYER_LOG)
        return log(z);
    return (z > 0 ? z : 0) + log1p(exp(-fabs(z)));
}
static double cv_dpt(vfy_layer_kind kind, double z)
{
    if (kind == VFY_LAYER_EXP)
        return exp(z);
    if (kind == VFY_LAYER_RECIP)
        return -1.0 / (z * z);
    if (kind == VFY_LAYER_SQRT)
        return 0.5 / sqrt(z);
    if (kind == VFY_LAYER_LOG)
        return 1.0 / z;
    return z >= 0 ? 1.0 / (1.0 + exp(-z)) : exp(z) / (1.0 + exp(z));
}

/* Lines sl z + tl <= f(z) <= su z + tu on [l, u] (see above); outside the domain none (intercepts
 * -inf and +inf). */
static void cv_lines_ck(vfy_layer_kind kind, double l, double u, double *sl, double *tl,
                        double *su, double *tu)
{
    *sl = *su = 0;
    cv_range(kind, l, u, tl, tu);
    if (!cv_domain(kind, l, u) || !(l < u) || !(u - l < INFINITY))
        return;
    int cvx = kind == VFY_LAYER_EXP || kind == VFY_LAYER_SOFTPLUS ||
              (kind == VFY_LAYER_RECIP && l > 0);
    double l0, l1, u0, u1, t1, t2, t;
    cv_iv(kind, l, &l0, &l1);
    cv_iv(kind, u, &u0, &u1);
    double s = (cv_pt(kind, u) - cv_pt(kind, l)) / (u - l);
    if (cvx) {
        t1 = up(l1 - dn(s * l));
        t2 = up(u1 - dn(s * u));
        t = t1 > t2 ? t1 : t2;
        if (isfinite(s) && isfinite(t1) && isfinite(t2)) {
            *su = s;
            *tu = t;
        }
    } else {
        t1 = dn(l0 - up(s * l));
        t2 = dn(u0 - up(s * u));
        t = t1 < t2 ? t1 : t2;
        if (isfinite(s) && isfinite(t1) && isfinite(t2)) {
            *sl = s;
            *tl = t;
        }
    }
    double d = kind != VFY_LAYER_RECIP ? 0.5 * l + 0.5 * u
             : l > 0 ? sqrt(l) * sqrt(u) : -(sqrt(-l) * sqrt(-u));
    d = d < l ? l : (d > u ? u : d);
    double w1 = up(d - l), w2 = up(u - d), W = w1 > w2 ? w1 : w2, f0, f1, fpl, fph;
    cv_iv(kind, d, &f0, &f1);
    cv_div(kind, d, f0, f1, &fpl, &fph);
    s = cv_dpt(kind, d);
    double e1 = up(fph - s), e2 = up(s - fpl), err = e1 > e2 ? e1 : e2;
    err = err > 0 ? err : 0;
    if (cvx) {
        t = dn(dn(f0 - up(s * d)) - up(err * W));
        if (isfinite(s) && isfinite(t)) {
            *sl = s;
            *tl = t;
        }
    } else {
        t = up(up(f1 - dn(s * d)) + up(err * W));
        if (isfinite(s) && isfinite(t)) {
            *su = s;
            *tu = t;
        }
    }
}

/* ---- Gated activations: Gelu, SiLU and ERFGATE (u (1 + erf(u)) / 2: g = erfc(-u) / 2,
 * g' = e^(-u^2) / sqrt(pi), c = 1, z* = -0.53159689, f(z*) = -0.12018779) ----
 * f(z) = z g(z): Gelu's g = Phi(z) = erfc(-z / sqrt2) / 2, g' = phi = e^(-z^2/2) / sqrt(2 pi);
 * SiLU's g = sigmoid, g' = s (1 - s). f' = g + z g' increases on [-c, c] and decreases outside; f
 * decreases to its least value at z* then increases (bounds of the constants below, with margin:
 * Gelu c = sqrt2, f'(+-c) = 1.12890414 / -0.12890414, z* = -0.75179152, f(z*) = -0.16997121;
 * SiLU c = 2.39935728, f'(+-c) = 1.09983932 / -0.09983932, z* = -1.27846454,
 * f(z*) = -0.27846454). Value
 * enclosures rest on libm's erfc, exp and the sigmoid's enclosure (act_iv) within 2^-48 relative
 * (widened by 2^-47 |v| + 2^-1070). Float32 claim: a runtime's Gelu within 2^-19 (1 + |z|) of the
 * real one, a SiLU (a Sigmoid, then a product) within 2^-18 (1 + |z|). */
#define CK_GATED_PIECES 64

typedef struct ck_gated {
    double c_lo, c_hi, dmin, dmax, zmin_lo, zmin_hi, fmin, exec;
} ck_gated;

static const ck_gated *gated_ck(vfy_layer_kind kind)
{
    static const ck_gated gelu = {0x1.6a09e667f3bccp+0, 0x1.6a09e667f3bcdp+0, -0.128905, 1.128905,
                                  -0.7518, -0.7517, -0.16997121, 0x1p-19};
    static const ck_gated silu = {2.3993, 2.3994, -0.09984, 1.09984, -1.2785, -1.2784,
                                  -0.27846455, 0x1p-18};
    static const ck_gated erfgate = {1.0, 1.0, -0.128905, 1.128905, -0.5317, -0.5315,
                                     -0.1201878, 0x1p-19};
    return kind == VFY_LAYER_GELU ? &gelu : kind == VFY_LAYER_SILU ? &silu : &erfgate;
}

/* [*lo, *hi] ∋ g(z) (z finite): Gelu's from w between z times the doubles around 1/sqrt2
 * (erfc(-w) increasing in w); SiLU's the sigmoid's enclosure. */
static void gate_ck(vfy_layer_kind kind, double z, double *lo, double *hi)
{
    if (kind == VFY_LAYER_SILU) {
        act_iv(VFY_LAYER_SIGMOID, z, lo, hi);
        return;
    }
    double r0 = 0x1.6a09e667f3bccp-1, r1 = 0x1.6a09e667f3bcdp-1;
    double a0 = dn(z * r0), a1 = dn(z * r1), b0 = up(z * r0), b1 = up(z * r1);
    double wl = a0 < a1 ? a0 : a1, wh = b0 > b1 ? b0 : b1;
    if (kind == VFY_LAYER_ERFGATE) /* g = erfc(-z) / 2: no scaling of z */
        wl = wh = z;
    double el = erfc(-wl), eh = erfc(-wh);
    el = dn(el - up(up(fabs(el) * 0x1p-47) + 0x1p-1070));
    eh = up(eh + up(up(fabs(eh) * 0x1p-47) + 0x1p-1070));
    *lo = dn(0.5 * el);
    *hi = up(0.5 * eh);
    if (*lo < 0)
        *lo = 0;
    if (*hi > 1)
        *hi = 1;
}

/* [*lo, *hi] ∋ f(z); a NaN or infinite z: the range's ends it may reach. */
static void gated_iv(vfy_layer_kind kind, double z, double *lo, double *hi)
{
    const ck_gated *gc = gated_ck(kind);
    if (!(fabs(z) < INFINITY)) {
        *lo = z > 0 ? INFINITY : gc->fmin;
        *hi = z < 0 ? 0 : INFINITY;
        return;
    }
    double pl, ph;
    gate_ck(kind, z, &pl, &ph);
    *lo = z >= 0 ? dn(z * pl) : dn(z * ph);
    *hi = z >= 0 ? up(z * ph) : up(z * pl);
    if (*lo < gc->fmin)
        *lo = gc->fmin;
}

/* [*dlo, *dhi] ∋ f'(z). */
static void gated_div(vfy_layer_kind kind, double z, double *dlo, double *dhi)
{
    const ck_gated *gc = gated_ck(kind);
    *dlo = gc->dmin;
    *dhi = gc->dmax;
    if (!(fabs(z) < INFINITY))
        return;
    double pl, ph, ql, qh;
    gate_ck(kind, z, &pl, &ph);
    if (kind == VFY_LAYER_GELU || kind == VFY_LAYER_ERFGATE) {
        /* phi = e^(-z^2/2) / sqrt(2 pi); ERFGATE's g' = e^(-z^2) / sqrt(pi) */
        double hf = kind == VFY_LAYER_GELU ? 0.5 : 1.0;
        double el = exp(-up(hf * up(z * z))), eh = exp(-dn(hf * dn(z * z)));
        el = dn(dn(el * dn(1.0 - 0x1p-47)) - 0x1p-1074);
        eh = up(up(eh * up(1.0 + 0x1p-47)) + 0x1p-1073);
        double kl = kind == VFY_LAYER_GELU ? 0x1.9884533d43650p-2 : 0x1.20dd750429b6dp-1;
        double kh = kind == VFY_LAYER_GELU ? 0x1.9884533d43652p-2 : 0x1.20dd750429b6ep-1;
        ql = dn((el > 0 ? el : 0) * kl);
        qh = up(eh * kh);
    } else {
        act_div(VFY_LAYER_SIGMOID, z, pl, ph, &ql, &qh);
    }
    double zl = z >= 0 ? dn(z * ql) : dn(z * qh), zh = z >= 0 ? up(z * qh) : up(z * ql);
    double a = dn(pl + zl), b = up(ph + zh);
    *dlo = a > gc->dmin ? a : gc->dmin;
    *dhi = b < gc->dmax ? b : gc->dmax;
}

/* The range on [l, u]: the ends' enclosures, and the least value where z* may lie inside. */
static void gated_range_ck(vfy_layer_kind kind, double l, double u, double *lo, double *hi)
{
    const ck_gated *gc = gated_ck(kind);
    double a, b, c2, d;
    gated_iv(kind, l, &a, &b);
    gated_iv(kind, u, &c2, &d);
    *lo = a < c2 ? a : c2;
    *hi = b > d ? b : d;
    if (l <= gc->zmin_hi && u >= gc->zmin_lo)
        *lo = gc->fmin;
}

/* f and f' in plain double, only to choose slopes. */
static double gated_pt(vfy_layer_kind kind, double z)
{
    if (kind == VFY_LAYER_ERFGATE)
        return 0.5 * z * erfc(-z);
    return kind == VFY_LAYER_GELU ? 0.5 * z * erfc(-z * 0.70710678118654752)
                                  : z * act_pt(VFY_LAYER_SIGMOID, z);
}
static double gated_dpt(vfy_layer_kind kind, double z)
{
    if (kind == VFY_LAYER_ERFGATE)
        return 0.5 * erfc(-z) + z * 0.5641895835477563 * exp(-z * z);
    if (kind == VFY_LAYER_GELU)
        return 0.5 * erfc(-z * 0.70710678118654752) + z * 0.3989422804014327 * exp(-0.5 * z * z);
    double v = act_pt(VFY_LAYER_SIGMOID, z);
    return v * (1.0 + z * (1.0 - v));
}

/* Lines on [l, u]: of the slopes chord, f'(l), f'(m), f'(u) and 0, the lowest upper and highest
 * lower at the midpoint m, each intercept certified on CK_GATED_PIECES pieces from f's enclosures
 * and f''s bounds on each piece (monotone on a piece that holds neither +-c; the constants where
 * it may), every step rounded outward. Constants (the range) on a point, a non-finite or tiny
 * interval. */
static void gated_lines_ck(vfy_layer_kind kind, double l, double u, double *sl, double *tl,
                           double *su, double *tu)
{
    const ck_gated *gc = gated_ck(kind);
    *sl = *su = 0;
    gated_range_ck(kind, l, u, tl, tu);
    if (!(l < u) || !(u - l < INFINITY) || !(u - l > 0x1p-20))
        return;
    enum { N = CK_GATED_PIECES };
    double P[N + 1], F0[N + 1], F1[N + 1], d0[N + 1], d1[N + 1];
    for (int i = 0; i <= N; i++) {
        double p = l + (u - l) * ((double)i / N);
        P[i] = i == N ? u : (p < u ? p : u);
        gated_iv(kind, P[i], &F0[i], &F1[i]);
        gated_div(kind, P[i], &d0[i], &d1[i]);
    }
    double m = 0.5 * l + 0.5 * u, fl = gated_pt(kind, l), fu = gated_pt(kind, u);
    double cand[5] = {(fu - fl) / (u - l), gated_dpt(kind, l), gated_dpt(kind, m),
                      gated_dpt(kind, u), 0};
    double bu = *tu, bl = *tl;
    for (int c2 = 0; c2 < 5; c2++) {
        double a = cand[c2];
        if (!(fabs(a) < INFINITY))
            continue;
        double hg = -INFINITY, lg = INFINITY;
        for (int i = 0; i < N; i++) {
            double p = P[i], q = P[i + 1], w = up(q - p);
            double dl = d0[i] < d0[i + 1] ? d0[i] : d0[i + 1];
            double dh = d1[i] > d1[i + 1] ? d1[i] : d1[i + 1];
            if (p <= -gc->c_lo && q >= -gc->c_hi)
                dl = gc->dmin;
            if (p <= gc->c_hi && q >= gc->c_lo)
                dh = gc->dmax;
            double r = up(dh - a), f = up(a - dl);
            r = r > 0 ? r : 0;
            f = f > 0 ? f : 0;
            double u1 = up(up(F1[i] - dn(a * p)) + up(r * w));
            double u2 = up(up(F1[i + 1] - dn(a * q)) + up(f * w));
            double g = u1 < u2 ? u1 : u2;
            hg = g > hg ? g : hg;
            double l1 = dn(dn(F0[i] - up(a * p)) - up(f * w));
            double l2 = dn(dn(F0[i + 1] - up(a * q)) - up(r * w));
            g = l1 > l2 ? l1 : l2;
            lg = g < lg ? g : lg;
        }
        if (fabs(hg) < INFINITY && a * m + hg < bu) {
            bu = a * m + hg;
            *su = a;
            *tu = hg;
        }
        if (fabs(lg) < INFINITY && a * m + lg > bl) {
            bl = a * m + lg;
            *sl = a;
            *tl = lg;
        }
    }
}

/* Whether bounds on [l, u] may confirm anything: inside one piece of the domain, not NaN. */
static int cv_claims(vfy_layer_kind kind, double l, double u) { return cv_domain(kind, l, u); }

/* A standalone layer's float execution allowance at |f| <= m, rounded up. */
static double cv_exec_up(vfy_layer_kind kind, double m)
{
    double rel = 0x1p-21, ab = 0x1p-146;
    if (kind == VFY_LAYER_RECIP || kind == VFY_LAYER_SQRT) {
        rel = 0x1p-24;
        ab = kind == VFY_LAYER_RECIP ? 0x1p-149 : 0;
    } else if (kind == VFY_LAYER_SOFTPLUS) {
        ab = 0x1p-21;
    }
    return up(up(m * rel) + ab);
}

void vfy_check_act_lines(vfy_layer_kind kind, double l, double u, double *sl, double *tl, double *su,
                         double *tu)
{
    VFY_ASSERT(lined_act(kind));
    if (kind == VFY_LAYER_SIN || kind == VFY_LAYER_COS)
        trig_lines_ck(kind, l, u, sl, tl, su, tu);
    else if (vfy_layer_is_gated(kind))
        gated_lines_ck(kind, l, u, sl, tl, su, tu);
    else if (kind == VFY_LAYER_SIGN)
        sign_lines_ck(l, u, sl, tl, su, tu);
    else if (vfy_layer_is_convex(kind))
        cv_lines_ck(kind, l, u, sl, tl, su, tu);
    else
        act_lines_ck(kind, l, u, sl, tl, su, tu);
}

/* Row i's new coefficients (in bl/bh, n_in of them) and constants [bl, bh] are final: a row with a
 * non-finite one can prove nothing (dead). */
static void row_done(ck *c, int64_t i, int64_t n_in, double bl, double bh)
{
    const double *na_ = c->bl + i * c->width, *nh_ = c->bh + i * c->width;
    int fin = isfinite(bl) && isfinite(bh);
    for (int64_t q = 0; q < n_in && fin; q++)
        fin = isfinite(na_[q]) && isfinite(nh_[q]);
    if (!fin)
        c->dead[i] = 1;
    c->betal[i] = bl;
    c->betah[i] = bh;
}

/* The new coefficients become the current ones. */
static void swap_coeffs(ck *c)
{
    double *t = c->al;
    c->al = c->bl;
    c->bl = t;
    t = c->ah;
    c->ah = c->bh;
    c->bh = t;
}

/* ---- products ----
 * PRODUCT y = a b on the box [la, ua] x [lb, ub] (a square a^2 when both are one input):
 *     sa a + sb b + tl <= a b <= sa a + sb b + tu
 * for any slopes, with tl, tu the least and largest value of f = a b - sa a - sb b over the box:
 * f is bilinear, so they are among its four vertices' values. The slopes are the means of
 * McCormick's planes, sa = (lb + ub) / 2, sb = (la + ua) / 2. A square: g = a^2 - s a with
 * s = la + ua is convex, >= -s^2 / 4 everywhere and largest at an end. Returns 0 when a bound is
 * not finite. SOUND: every value rounded outward (up/dn), so the planes hold for the slopes as
 * computed. A float32 execution's product is within CK_PROD_EXEC(|a| |b|) of the real one. */
#define CK_PROD_EXEC(m) up(up((m) * 0x1p-24) + 0x1p-149)
static int prod_planes(double la, double ua, double lb, double ub, int square, double *sa,
                       double *sb, double *tl, double *tu)
{
    if (!(isfinite(la) && isfinite(ua) && isfinite(lb) && isfinite(ub)))
        return 0;
    if (square) {
        double s = la + ua;
        double g1 = up(up(la * la) - dn(s * la)), g2 = up(up(ua * ua) - dn(s * ua));
        *sa = s;
        *sb = 0;
        *tl = -up(up(s * s) * 0.25);
        *tu = g1 > g2 ? g1 : g2;
        return isfinite(*tl) && isfinite(g1) && isfinite(g2);
    }
    *sa = 0.5 * lb + 0.5 * ub;
    *sb = 0.5 * la + 0.5 * ua;
    const double av[2] = {la, ua}, bv[2] = {lb, ub};
    *tl = INFINITY;
    *tu = -INFINITY;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            double a = av[i], b = bv[j];
            double fl = dn(dn(dn(a * b) - up(*sa * a)) - up(*sb * b));
            double fh = up(up(up(a * b) - dn(*sa * a)) - dn(*sb * b));
            if (!isfinite(fl) || !isfinite(fh)) /* (an overflow: NaN or inf, never skipped) */
                return 0;
            *tl = fl < *tl ? fl : *tl;
            *tu = fh > *tu ? fh : *tu;
        }
    return 1;
}

/* ---- back-substitution ----
 * K rows of interval coefficients on v_{k_top+1} are in al/ah (row stride width), constants in
 * betal/betah. Invariant, for every execution of the network from an input in [xl, xh]:
 *     there are lam in [al, ah] and beta in [betal, betah] with  row(y) >= lam·v + beta.
 * (lam is one fixed vector, the one exact arithmetic would have produced; the intervals enclose it.)
 * At the input the minimum over lam in its box and x in [xl, xh] is taken at a corner. cx (K x nx,
 * or NULL) is added to the input coefficients. keep: store the final linear forms in ilo/ihi/ic. */
static void backward(ck *c, int64_t k_top, int64_t K, const double *xl, const double *xh,
                     const double *cx, int keep)
{
    const vfy_net *net = c->net;
    int64_t W = c->width;
    for (int64_t i = 0; i < K; i++)
        c->dead[i] = 0;
    for (int64_t k = k_top; k >= 0; k--) {
        const vfy_layer *Lk = &net->layers[k];
        int64_t n_in = Lk->n_in, n_out = Lk->n_out;
        if (lined_act(Lk->kind)) {
            /* lam_j f(z_j) >= mu_j z_j + d_j on [l_j, u_j] with the lines sl z + tl <= f(z) <=
             * su z + tu: writing lam = lam+ - lam-, lam+ f >= lam+ (sl z + tl) and
             * -lam- f >= -lam- (su z + tu), so mu = lam+ sl - lam- su, d = lam+ tl - lam- tu. Over
             * lam in [a, b]: with sl, su >= 0, mu in [a+ sl - a- su, b+ sl - b- su] (increasing
             * in lam); else (RECIP's negative slopes) mu, linear on lam <= 0 and on lam >= 0, lies
             * between its values at a, b and (a < 0 < b) 0; d between the corner values. Float32
             * claim: the executed f is within E_j of the real one (set with the layer's bounds:
             * CK_ACT_EXEC for Sigmoid, Tanh, Erf, Sin and Cos, 2^-19 (1 + |z|) for Gelu and
             * 2^-18 (1 + |z|) for SiLU,
             * recip_exec_up at a Softmax's RECIP,
             * cv_exec_up for a standalone convex kind; 0 for SIGN, which every execution
             * computes exactly, a Softmax's EXP, charged at its RECIP, and elements passed
             * through), so max|lam| E_j is subtracted.
             * SOUND: products and sums rounded outward; a, b finite (a row that met a non-finite
             * coefficient is dead already), so is every line. */
            const double *ln = c->ln[k], *ex = c->E[k];
            const double *sl = ln, *tl = ln + n_in, *su = ln + 2 * n_in, *tu = ln + 3 * n_in;
            for (int64_t i = 0; i < K; i++) {
                double *ra = c->al + i * W, *rh = c->ah + i * W;
                double bl = c->betal[i], bh = c->betah[i], pen = 0;
                for (int64_t j = 0; j < n_in; j++) {
                    double a = ra[j], b = rh[j];
                    if (a == 0 && b == 0)
                        continue;
                    double pa = a > 0 ? a : 0, pb = b > 0 ? b : 0;
                    double na = a < 0 ? -a : 0, nb = b < 0 ? -b : 0;
                    ra[j] = dn(dn(pa * sl[j]) - up(na * su[j]));
                    rh[j] = up(up(pb * sl[j]) - dn(nb * su[j]));
                    if (!(sl[j] >= 0 && su[j] >= 0)) {
                        double m1 = up(up(pa * sl[j]) - dn(na * su[j]));
                        double m2 = dn(dn(pb * sl[j]) - up(nb * su[j]));
                        double ml = ra[j] < m2 ? ra[j] : m2, mh = rh[j] > m1 ? rh[j] : m1;
                        ra[j] = a < 0 && b > 0 && ml > 0 ? 0 : ml;
                        rh[j] = a < 0 && b > 0 && mh < 0 ? 0 : mh;
                    }
                    double p1 = pa * tl[j], p2 = pb * tl[j], q1 = na * tu[j], q2 = nb * tu[j];
                    double pmin = p1 < p2 ? p1 : p2, pmax = p1 < p2 ? p2 : p1;
                    double qmin = q1 < q2 ? q1 : q2, qmax = q1 < q2 ? q2 : q1;
                    bl = dn(bl + dn(dn(pmin) - up(qmax)));
                    bh = up(bh + up(up(pmax) - dn(qmin)));
                    if (c->fsem && ex[j] > 0)
                        pen = up(pen + up((fabs(a) > fabs(b) ? fabs(a) : fabs(b)) * ex[j]));
                }
                c->betal[i] = dn(bl - pen);
                c->betah[i] = bh;
            }
            continue;
        }
        if (Lk->kind == VFY_LAYER_PRODUCT) {
            /* y_o = v_a v_b (prod_planes): writing lam = lam+ - lam-,
             *     lam y_o >= lam (sa v_a + sb v_b) + lam+ tl - lam- tu;
             * a copy (b = -1) passes lam to v_a. Over lam in [a, b]: v_a's coefficient gains
             * [a, b] sa (ordered by sa's sign), v_b's [a, b] sb, the constant the enclosure of
             * lam+ tl - lam- tu as for Sigmoid's lines. Float32 claim: max|lam| CK_PROD_EXEC
             * subtracted. Planes that cannot be made (a bound not finite) kill the row. SOUND:
             * every product and sum rounded outward. */
            const double *l = in_lo(c, k, xl), *u = in_hi(c, k, xh);
            for (int64_t i = 0; i < K; i++) {
                const double *ra = c->al + i * W, *rh = c->ah + i * W;
                double *na_ = c->bl + i * W, *nh_ = c->bh + i * W;
                memset(na_, 0, (size_t)n_in * sizeof(double));
                memset(nh_, 0, (size_t)n_in * sizeof(double));
                double bl = c->betal[i], bh = c->betah[i], pen = 0;
                for (int64_t o = 0; o < n_out; o++) {
                    double a = ra[o], b = rh[o];
                    if (a == 0 && b == 0)
                        continue;
                    int64_t p = Lk->pool[2 * o], q = Lk->pool[2 * o + 1];
                    if (q < 0) {
                        na_[p] = dn(na_[p] + a);
                        nh_[p] = up(nh_[p] + b);
                        continue;
                    }
                    double sa, sb, tl, tu;
                    if (!prod_planes(l[p], u[p], l[q], u[q], p == q, &sa, &sb, &tl, &tu)) {
                        bl = -INFINITY;
                        continue;
                    }
                    const int64_t in2[2] = {p, q};
                    const double sl2[2] = {sa, sb};
                    for (int t = 0; t < 2; t++) {
                        double x1 = a * sl2[t], x2 = b * sl2[t];
                        na_[in2[t]] = dn(na_[in2[t]] + dn(x1 < x2 ? x1 : x2));
                        nh_[in2[t]] = up(nh_[in2[t]] + up(x1 < x2 ? x2 : x1));
                    }
                    double pa = a > 0 ? a : 0, pb = b > 0 ? b : 0;
                    double ma = a < 0 ? -a : 0, mb = b < 0 ? -b : 0;
                    double p1 = pa * tl, p2 = pb * tl, q1 = ma * tu, q2 = mb * tu;
                    double pmin = p1 < p2 ? p1 : p2, pmax = p1 < p2 ? p2 : p1;
                    double qmin = q1 < q2 ? q1 : q2, qmax = q1 < q2 ? q2 : q1;
                    bl = dn(bl + dn(dn(pmin) - up(qmax)));
                    bh = up(bh + up(up(pmax) - dn(qmin)));
                    if (c->fsem) {
                        double ha = fabs(l[p]) > fabs(u[p]) ? fabs(l[p]) : fabs(u[p]);
                        double hb = fabs(l[q]) > fabs(u[q]) ? fabs(l[q]) : fabs(u[q]);
                        double e = CK_PROD_EXEC(up(ha * hb));
                        pen = up(pen + up((fabs(a) > fabs(b) ? fabs(a) : fabs(b)) * e));
                    }
                }
                row_done(c, i, n_in, dn(bl - pen), bh);
            }
            swap_coeffs(c);
            continue;
        }
        if (Lk->kind == VFY_LAYER_MAXPOOL) {
            /* y_o = max of v over the window W_o. With m the window's input of largest lower
             * bound and U its largest upper bound, v_m <= y_o <= U, and y_o = v_m when
             * l_m >= u_i for every other i in W_o (a float execution's max is exact). Writing
             * lam = lam+ - lam-: lam y_o >= lam+ v_m - lam- U (lam v_m when dominated). Over lam
             * in [a, b]: v_m's coefficient gains [a+, b+] ([a, b] when dominated), the constant
             * [-a- U, -b- U] (a- >= b-). SOUND: every sum rounded outward; m held exactly in
             * sv (m < 2^53), U in tv (NaN: dominated). */
            const double *l = in_lo(c, k, xl), *u = in_hi(c, k, xh);
            for (int64_t o = 0; o < n_out; o++) {
                const int64_t *win = Lk->pool + o * Lk->pool_k;
                int64_t m = -1;
                double U = -INFINITY;
                for (int64_t p = 0; p < Lk->pool_k; p++)
                    if (win[p] >= 0) {
                        if (m < 0 || l[win[p]] > l[m])
                            m = win[p];
                        U = u[win[p]] > U ? u[win[p]] : U;
                    }
                int dom = 1;
                for (int64_t p = 0; p < Lk->pool_k; p++)
                    if (win[p] >= 0 && (isnan(u[win[p]]) || (win[p] != m && !(l[m] >= u[win[p]]))))
                        dom = 0;
                c->sv[o] = (double)m;
                c->tv[o] = dom ? NAN : U;
            }
            for (int64_t i = 0; i < K; i++) {
                const double *ra = c->al + i * W, *rh = c->ah + i * W;
                double *na_ = c->bl + i * W, *nh_ = c->bh + i * W;
                memset(na_, 0, (size_t)n_in * sizeof(double));
                memset(nh_, 0, (size_t)n_in * sizeof(double));
                double bl = c->betal[i], bh = c->betah[i];
                for (int64_t o = 0; o < n_out; o++) {
                    double a = ra[o], b = rh[o], U = c->tv[o];
                    if (a == 0 && b == 0)
                        continue;
                    int64_t m = (int64_t)c->sv[o];
                    if (isnan(U)) {
                        na_[m] = dn(na_[m] + a);
                        nh_[m] = up(nh_[m] + b);
                        continue;
                    }
                    na_[m] = dn(na_[m] + (a > 0 ? a : 0));
                    nh_[m] = up(nh_[m] + (b > 0 ? b : 0));
                    double ma = a < 0 ? -a : 0, mb = b < 0 ? -b : 0;
                    if (ma == 0)
                        continue; /* then mb = 0 too: no constant */
                    double d1 = -ma * U, d2 = -mb * U; /* (mb = 0, U infinite: NaN, dead below) */
                    bl = dn(bl + dn(d1 < d2 ? d1 : d2));
                    bh = up(bh + up(d1 < d2 ? d2 : d1));
                }
                row_done(c, i, n_in, bl, bh);
            }
            swap_coeffs(c);
            continue;
        }
        if (Lk->kind == VFY_LAYER_RELU) {
            /* lam_j relu(z_j) >= mu_j z_j + d_j on [l_j, u_j]:
             *  l >= 0: relu(z) = z;  u <= 0: relu(z) = 0;  else, writing lam = lam+ - lam-:
             *  lam+ relu(z) >= lam+ a z for any a in [0, 1] (CROWN's default a = 1 if u > -l else 0;
             *  the fallback a = s, the upper line's slope), and
             *  -lam- relu(z) >= -lam- (s z + t) for the upper line relu(z) <= s z + t. So
             *  mu = lam+ a - lam- s, d = -lam- t; over lam in [la, lh], lam+ in [la+, lh+] and
             *  lam- in [lh-, la-] give mu in [la+ a - la- s, lh+ a - lh- s], d in [-la- t, -lh- t].
             * SOUND for any computed s in [0,1]: relu is convex, so s z + t >= relu(z) on [l, u]
             * iff it holds at both ends: t >= -s l and t >= u - s u, t rounded up. */
            const double *l = in_lo(c, k, xl), *u = in_hi(c, k, xh);
            for (int64_t j = 0; j < n_in; j++) {
                if (l[j] < 0 && u[j] > 0) {
                    double s = u[j] / (u[j] - l[j]);
                    if (!(s >= 0))
                        s = 0;
                    if (s > 1)
                        s = 1;
                    double t1 = up(-s * l[j]), t2 = up(u[j] - dn(s * u[j]));
                    double t = t1 > t2 ? t1 : t2;
                    c->sv[j] = s;
                    c->tv[j] = t > 0 ? t : 0;
                }
            }
            for (int64_t i = 0; i < K; i++) {
                double *ra = c->al + i * W, *rh = c->ah + i * W;
                double bl = c->betal[i], bh = c->betah[i];
                /* the row's own slopes (certificate 'row'/'bound' lines), over z's flat entries */
                const double *rs = c->params && k > 0 && c->ra[i] ? c->ra[i] + c->foff[k - 1] : NULL;
                for (int64_t j = 0; j < n_in; j++) {
                    double a = ra[j], b = rh[j];
                    if ((a == 0 && b == 0) || l[j] >= 0)
                        continue;
                    if (!(u[j] > 0)) {
                        ra[j] = rh[j] = 0;
                        continue;
                    }
                    double s = c->sv[j], t = c->tv[j];
                    double al = c->slopes ? s : (u[j] > -l[j] ? 1.0 : 0.0);
                    if (rs && rs[j] >= 0 && rs[j] <= 1) /* any a in [0, 1] is a lower line */
                        al = rs[j];
                    double pa = a > 0 ? a : 0, pb = b > 0 ? b : 0;
                    double na = a < 0 ? -a : 0, nb = b < 0 ? -b : 0;
                    ra[j] = dn(dn(pa * al) - up(na * s));
                    rh[j] = up(up(pb * al) - dn(nb * s));
                    bl = dn(bl - up(na * t));
                    bh = up(bh - dn(nb * t));
                }
                c->betal[i] = bl;
                c->betah[i] = bh;
                /* Split multipliers: on the region every split neuron has sign z_j >= 0, so for
                 * beta >= 0,  lam·z = (lam - beta sign e_j)·z + beta sign z_j >= (lam - beta sign
                 * e_j)·z. SOUND: beta >= 0 (checked when read), sign = +-1 (exact product), the
                 * difference rounded outward. */
                const double *rb = c->params && k > 0 ? c->rb[i] : NULL;
                for (int64_t q = 0; rb && q < c->n_sp_beta; q++)
                    if (c->sp_k[q] == k - 1) {
                        double bs = c->sp_s[q] > 0 ? rb[q] : -rb[q];
                        int64_t j = c->sp_j[q];
                        ra[j] = dn(ra[j] - bs);
                        rh[j] = up(rh[j] - bs);
                    }
            }
            continue;
        }
        /* Affine: lam·v' = (lam W)·v + lam·b + lam·e  >=  (lam W)·v + lam·b - |lam|·E.
         * SOUND: every product and sum below is rounded outward, so [bl, bh] encloses lam W and the
         * constants enclose lam·b; |lam| <= max(|la|, |lh|); the penalty is rounded up. */
        const double *E = c->E[k];
        for (int64_t i = 0; i < K; i++) {
            const double *ra = c->al + i * W, *rh = c->ah + i * W;
            double *na_ = c->bl + i * W, *nh_ = c->bh + i * W;
            memset(na_, 0, (size_t)n_in * sizeof(double));
            memset(nh_, 0, (size_t)n_in * sizeof(double));
            double bl = c->betal[i], bh = c->betah[i], pen = 0;
            for (int64_t o = 0; o < n_out; o++) {
                double a = ra[o], b = rh[o];
                if (a == 0 && b == 0)
                    continue;
                if (Lk->kind == VFY_LAYER_DENSE && Lk->csr) {
                    axpy_iv_sparse(Lk->csr, o, a, b, na_, nh_);
                } else if (Lk->kind == VFY_LAYER_DENSE) {
                    axpy_iv(n_in, a, b, c->wp[k] + o * n_in, c->wn[k] + o * n_in, na_, nh_);
                } else {
                    double w = Lk->w[o];
                    na_[o] = w >= 0 ? dn(a * w) : dn(b * w);
                    nh_[o] = w >= 0 ? up(b * w) : up(a * w);
                }
                double bo = Lk->b[o];
                if (bo > 0) {
                    bl = dn(bl + dn(a * bo));
                    bh = up(bh + up(b * bo));
                } else if (bo < 0) {
                    bl = dn(bl + dn(b * bo));
                    bh = up(bh + up(a * bo));
                }
                double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
                pen = up(pen + up(m * E[o]));
            }
            row_done(c, i, n_in, dn(bl - pen), bh);
        }
        swap_coeffs(c);
    }
    /* SOUND: min over lam_j in [a, b], x_j in [xl, xh] of lam_j x_j is at a corner; each corner
     * product and the sum are rounded down. */
    int64_t n = c->nx;
    for (int64_t i = 0; i < K; i++) {
        double *ra = c->al + i * W, *rh = c->ah + i * W;
        double v = c->betal[i];
        for (int64_t j = 0; j < n; j++) {
            if (cx && cx[i * n + j] != 0) {
                ra[j] = dn(ra[j] + cx[i * n + j]);
                rh[j] = up(rh[j] + cx[i * n + j]);
            }
            double p1 = dn(ra[j] * xl[j]), p2 = dn(ra[j] * xh[j]);
            double p3 = dn(rh[j] * xl[j]), p4 = dn(rh[j] * xh[j]);
            double m = p1 < p2 ? p1 : p2;
            m = m < p3 ? m : p3;
            m = m < p4 ? m : p4;
            v = dn(v + m);
            if (!isfinite(ra[j]) || !isfinite(rh[j]))
                c->dead[i] = 1;
        }
        c->lb[i] = (c->dead[i] || !isfinite(v)) ? -INFINITY : v;
        if (keep) {
            memcpy(c->ilo + i * n, ra, (size_t)n * sizeof(double));
            memcpy(c->ihi + i * n, rh, (size_t)n * sizeof(double));
            c->ic[i] = c->betal[i];
        }
    }
}

/* Rows 2a and 2a + 1 (a < nu) become +e_j and -e_j on the n outputs of a layer, j = c->idx[a],
 * with zero constants: the start of back-substituting neuron j's lower and upper bound. */
static void unit_rows(ck *c, int64_t n, int64_t nu)
{
    int64_t W = c->width;
    for (int64_t a = 0; a < nu; a++)
        for (int h = 0; h < 2; h++) {
            int64_t i = 2 * a + h;
            memset(c->al + i * W, 0, (size_t)n * sizeof(double));
            memset(c->ah + i * W, 0, (size_t)n * sizeof(double));
            c->al[i * W + c->idx[a]] = c->ah[i * W + c->idx[a]] = h ? -1.0 : 1.0;
            c->betal[i] = c->betah[i] = 0;
        }
}

/* Tighten the neurons of affine layer k (which feeds an activation: the unstable ones before a ReLU,
 * those of a Sign whose value is not yet constant, all before Sigmoid/Tanh/Exp/Recip) by
 * back-substitution of +v_j and -v_j. SOUND: both enclosures hold, so their intersection does. */
static int refine(ck *c, int64_t k, const double *xl, const double *xh)
{
    int64_t n = c->net->layers[k].n_out, nu = 0;
    const vfy_layer *A = &c->net->layers[k + 1];
    int relu = A->kind == VFY_LAYER_RELU, sign = A->kind == VFY_LAYER_SIGN;
    for (int64_t j = 0; j < n; j++) {
        double l = c->lo[k][j], u = c->hi[k][j];
        int want = l < u;
        if (relu && !c->refine_all)
            want = l < 0 && u > 0;
        else if (sign && j >= A->n_pass) /* (sign is constant on l > 0 and on u < 0) */
            want = l <= 0 && u >= 0 && l < u;
        if (want)
            c->idx[nu++] = j;
    }
    if (nu == 0)
        return 1;
    int64_t K = 2 * nu;
    if (!ck_reserve(c, K))
        return 0;
    unit_rows(c, n, nu);
    /* with refine_all, both lower slopes of the unstable ReLUs below (CROWN's default, then
     * u/(u-l)): each is sound, the intersection tighter than either */
    int slopes = c->slopes;
    for (int pass = c->refine_all ? 0 : slopes; pass < (c->refine_all ? 2 : slopes + 1); pass++) {
        if (c->refine_all && pass == 1)
            unit_rows(c, n, nu);
        c->slopes = pass;
        backward(c, k, K, xl, xh, NULL, 0);
        for (int64_t a = 0; a < nu; a++) {
            int64_t j = c->idx[a];
            double lo = c->lb[2 * a], hi = -c->lb[2 * a + 1];
            if (lo > c->lo[k][j])
                c->lo[k][j] = lo;
            if (hi < c->hi[k][j])
                c->hi[k][j] = hi;
        }
    }
    c->slopes = slopes;
    return 1;
}

/* Intersect layer k's bounds with the prior (when in use) and clamp the region's split neurons of
 * layer k: 0 when an interval becomes empty. SOUND: the prior holds for every execution from the
 * root box, which contains the region; the clamps define the region's part of the input (z >= 0 or
 * z <= 0 for the execution's own value); an empty interval means no execution from the region
 * satisfies its splits, so nothing is left to refute there. */
static int constrain(ck *c, int64_t k)
{
    double *lo = c->lo[k], *hi = c->hi[k];
    int64_t n = c->net->layers[k].n_out;
    if (c->use_prior) {
        const double *pl = c->plo + c->foff[k], *ph = c->phi + c->foff[k];
        for (int64_t j = 0; j < n; j++) {
            if (pl[j] > lo[j])
                lo[j] = pl[j];
            if (ph[j] < hi[j])
                hi[j] = ph[j];
        }
    }
    for (int64_t q = 0; q < c->n_sp; q++)
        if (c->sp_k[q] == k) {
            int64_t j = c->sp_j[q];
            if (c->sp_s[q] > 0 && lo[j] < 0)
                lo[j] = 0;
            if (c->sp_s[q] < 0 && hi[j] > 0)
                hi[j] = 0;
        }
    for (int64_t j = 0; j < n; j++)
        if (lo[j] > hi[j])
            return 0;
    return 1;
}

/* Bounds of every layer over [xl, xh]: interval arithmetic, then (with deep) back-substitution
 * for the neurons of each layer that feeds an activation, a MAXPOOL or a PRODUCT (refine); each
 * layer constrained by the prior and the splits (constrain). Returns 1, 0 when a bound is not
 * finite or (float32 claim) leaves the float32 range, 2 when the region's splits leave nothing
 * (constrain), -1 when out of memory. */
static int layers(ck *c, const double *xl, const double *xh, int deep)
{
    const vfy_net *net = c->net;
    c->lo_is_prior = 0;
    for (int64_t k = 0; k < c->L; k++) {
        const vfy_layer *Lk = &net->layers[k];
        const double *l = in_lo(c, k, xl), *u = in_hi(c, k, xh);
        double *lo = c->lo[k], *hi = c->hi[k];
        int64_t n_in = Lk->n_in, n_out = Lk->n_out;
        if (Lk->kind == VFY_LAYER_RELU) {
            for (int64_t j = 0; j < n_out; j++) {
                lo[j] = l[j] > 0 ? l[j] : 0;
                hi[j] = u[j] > 0 ? u[j] : 0;
            }
            if (!constrain(c, k))
                return 2;
            continue;
        }
        if (Lk->kind == VFY_LAYER_MAXPOOL) {
            /* SOUND: max is increasing in each input: y in [max l, max u] over the window */
            for (int64_t j = 0; j < n_out; j++) {
                const int64_t *win = Lk->pool + j * Lk->pool_k;
                lo[j] = hi[j] = -INFINITY;
                for (int64_t p = 0; p < Lk->pool_k; p++) {
                    if (win[p] < 0)
                        continue;
                    if (isnan(l[win[p]]) || isnan(u[win[p]]))
                        return 0;
                    lo[j] = l[win[p]] > lo[j] ? l[win[p]] : lo[j];
                    hi[j] = u[win[p]] > hi[j] ? u[win[p]] : hi[j];
                }
            }
            if (!constrain(c, k))
                return 2;
            continue;
        }
        if (Lk->kind == VFY_LAYER_PRODUCT) {
            /* SOUND: a b over the box lies between its least and largest vertex products
             * (bilinear), a^2 in [the smaller end's square or 0, the larger's], rounded outward;
             * the float32 claim adds CK_PROD_EXEC; a square or a product of two values >= 0 is
             * >= 0 in either semantics (rounding is monotone) */
            for (int64_t j = 0; j < n_out; j++) {
                int64_t p = Lk->pool[2 * j], q = Lk->pool[2 * j + 1];
                if (q < 0) {
                    lo[j] = l[p];
                    hi[j] = u[p];
                    continue;
                }
                if (!(isfinite(l[p]) && isfinite(u[p]) && isfinite(l[q]) && isfinite(u[q])))
                    return 0;
                double ylo = INFINITY, yhi = -INFINITY;
                const double av[2] = {l[p], u[p]}, bv[2] = {l[q], u[q]};
                for (int s1 = 0; s1 < 2; s1++)
                    for (int s2 = 0; s2 < 2; s2++) {
                        double v = av[s1] * (p == q ? av[s1] : bv[s2]);
                        if (!isfinite(v))
                            return 0; /* (an overflow: confirms nothing) */
                        ylo = dn(v) < ylo ? dn(v) : ylo;
                        yhi = up(v) > yhi ? up(v) : yhi;
                    }
                if (p == q && l[p] < 0 && u[p] > 0)
                    ylo = 0;
                if (c->fsem) {
                    double ha = fabs(l[p]) > fabs(u[p]) ? fabs(l[p]) : fabs(u[p]);
                    double hb = fabs(l[q]) > fabs(u[q]) ? fabs(l[q]) : fabs(u[q]);
                    double e = CK_PROD_EXEC(up(ha * hb));
                    ylo = dn(ylo - e);
                    yhi = up(yhi + e);
                }
                /* as for affine layers: a bound that is not finite (an overflow, whose outward
                 * step is NaN), or under the float32 claim out of its range, confirms nothing */
                double lim = c->fsem ? FLOAT_EXEC_LIMIT : INFINITY;
                if (!(ylo > -lim && yhi < lim))
                    return 0;
                if (p == q || (l[p] >= 0 && l[q] >= 0))
                    ylo = ylo > 0 ? ylo : 0;
                lo[j] = ylo;
                hi[j] = yhi;
            }
            if (!constrain(c, k))
                return 2;
            continue;
        }
        if (lined_act(Lk->kind)) {
            /* SOUND: f increasing: f(z) in [f(l), f(u)], enclosed outward; the float32 claim adds
             * the execution's allowance E_j (kept for back-substitution). The lines for
             * back-substitution are made here, once the input bounds are final. */
            double *ln = c->ln[k], *E = c->E[k], t;
            for (int64_t j = 0; j < n_out; j++) {
                E[j] = 0;
                if (j < Lk->n_pass) { /* passed through: the identity, exactly */
                    lo[j] = l[j];
                    hi[j] = u[j];
                    ln[j] = ln[2 * n_out + j] = 1;
                    ln[n_out + j] = ln[3 * n_out + j] = 0;
                    continue;
                }
                if (Lk->kind == VFY_LAYER_SIGN) {
                    /* SOUND: sign is nondecreasing and exact in every execution: y in
                     * [sign(l), sign(u)], with no allowance; a NaN bound confirms nothing */
                    if (isnan(l[j]) || isnan(u[j]))
                        return 0;
                    lo[j] = sign_of(l[j]);
                    hi[j] = sign_of(u[j]);
                    sign_lines_ck(l[j], u[j], &ln[j], &ln[n_out + j], &ln[2 * n_out + j],
                                  &ln[3 * n_out + j]);
                    continue;
                }
                if (vfy_layer_is_convex(Lk->kind)) {
                    /* SOUND: f monotone on a piece of its domain: y between the enclosures at the
                     * ends (cv_range), widened under the float32 claim by the execution's
                     * allowance; across a pole, outside the domain or NaN, or a bound that is not
                     * finite (float32: beyond FLOAT_EXEC_LIMIT) confirms nothing */
                    if (!cv_claims(Lk->kind, l[j], u[j]))
                        return 0;
                    cv_range(Lk->kind, l[j], u[j], &lo[j], &hi[j]);
                    if (c->fsem && vfy_layer_in_softmax(Lk)) {
                        E[j] = Lk->kind == VFY_LAYER_RECIP ? recip_exec_up(Lk->fan_in) : 0;
                    } else if (c->fsem) {
                        double m = fabs(lo[j]) > fabs(hi[j]) ? fabs(lo[j]) : fabs(hi[j]);
                        E[j] = cv_exec_up(Lk->kind, m);
                    }
                    if (E[j] > 0) {
                        lo[j] = dn(lo[j] - E[j]);
                        hi[j] = up(hi[j] + E[j]);
                    }
                    double lim = c->fsem ? FLOAT_EXEC_LIMIT : INFINITY;
                    if (!(lo[j] > -lim && hi[j] < lim))
                        return 0;
                    cv_lines_ck(Lk->kind, l[j], u[j], &ln[j], &ln[n_out + j], &ln[2 * n_out + j],
                                &ln[3 * n_out + j]);
                    continue;
                }
                if (vfy_layer_is_gated(Lk->kind)) {
                    /* SOUND: the range on [l, u] (gated_range_ck), widened under the float32
                     * claim by its allowance times 1 + max(|l|, |u|); a NaN bound confirms
                     * nothing */
                    if (isnan(l[j]) || isnan(u[j]))
                        return 0;
                    gated_range_ck(Lk->kind, l[j], u[j], &lo[j], &hi[j]);
                    if (c->fsem) {
                        double m = fabs(l[j]) > fabs(u[j]) ? fabs(l[j]) : fabs(u[j]);
                        double x = gated_ck(Lk->kind)->exec;
                        E[j] = up(up(m * x) + x);
                        lo[j] = dn(lo[j] - E[j]);
                        hi[j] = up(hi[j] + E[j]);
                        if (!(lo[j] > -FLOAT_EXEC_LIMIT && hi[j] < FLOAT_EXEC_LIMIT))
                            return 0;
                    }
                    gated_lines_ck(Lk->kind, l[j], u[j], &ln[j], &ln[n_out + j],
                                   &ln[2 * n_out + j], &ln[3 * n_out + j]);
                    continue;
                }
                if (Lk->kind == VFY_LAYER_SIN || Lk->kind == VFY_LAYER_COS) {
                    /* SOUND: the range on [l, u] (trig_range_ck), widened by CK_ACT_EXEC under
                     * the float32 claim, which confirms nothing past CK_TRIG_FLOAT_ARG */
                    if (isnan(l[j]) || isnan(u[j]))
                        return 0;
                    if (c->fsem && !(fabs(l[j]) <= CK_TRIG_FLOAT_ARG &&
                                     fabs(u[j]) <= CK_TRIG_FLOAT_ARG))
                        return 0;
                    trig_range_ck(Lk->kind, l[j], u[j], &lo[j], &hi[j]);
                    if (c->fsem) {
                        E[j] = CK_ACT_EXEC;
                        lo[j] = dn(lo[j] - CK_ACT_EXEC);
                        hi[j] = up(hi[j] + CK_ACT_EXEC);
                    }
                    trig_lines_ck(Lk->kind, l[j], u[j], &ln[j], &ln[n_out + j],
                                  &ln[2 * n_out + j], &ln[3 * n_out + j]);
                    continue;
                }
                if (c->fsem)
                    E[j] = CK_ACT_EXEC;
                act_iv(Lk->kind, l[j], &lo[j], &t);
                act_iv(Lk->kind, u[j], &t, &hi[j]);
                if (c->fsem) {
                    lo[j] = dn(lo[j] - CK_ACT_EXEC);
                    hi[j] = up(hi[j] + CK_ACT_EXEC);
                }
                act_lines_ck(Lk->kind, l[j], u[j], &ln[j], &ln[n_out + j], &ln[2 * n_out + j],
                             &ln[3 * n_out + j]);
            }
            if (!constrain(c, k))
                return 2;
            continue;
        }
        for (int64_t q = 0; q < n_in; q++)
            c->H[q] = fabs(l[q]) > fabs(u[q]) ? fabs(l[q]) : fabs(u[q]);
        /* SOUND: sums of outward-rounded products enclose W v + b for v in [l, u]; A >= (|W| H)_j;
         * E_j bounds the perturbation (file comment), rounded up. */
        for (int64_t j = 0; j < n_out; j++) {
            double sl = Lk->b[j], sh = Lk->b[j], A = 0, M = 0;
            int64_t m = 0;
            const int64_t *idx = NULL;
            const double *wr = Lk->w + j;
            int64_t nz = 1;
            if (Lk->kind == VFY_LAYER_DENSE)
                vfy_layer_row(Lk, j, &idx, &wr, &nz);
            for (int64_t t = 0; t < nz; t++) {
                int64_t q = Lk->kind != VFY_LAYER_DENSE ? j : idx ? idx[t] : t;
                double w = wr[t];
                if (w > 0) {
                    sl = dn(sl + dn(w * l[q]));
                    sh = up(sh + up(w * u[q]));
                } else if (w < 0) {
                    sl = dn(sl + dn(w * u[q]));
                    sh = up(sh + up(w * l[q]));
                } else {
                    continue;
                }
                double a = up(fabs(w) * c->H[q]);
                A = up(A + a);
                M = a > M ? a : M;
                m += c->H[q] > 0;
            }
            double E = 0;
            if (c->c1[k] > 0 || c->c2[k] > 0 || c->c3[k] > 0)
                E = up(up(up(c->c1[k] * A) + up(c->c2[k] * fabs(Lk->b[j]))) + c->c3[k]);
            if (c->ops[k] > 0) {
                double bj = fabs(Lk->b[j]), rel1 = up(1.0 + Lk->w_relerr);
                double X = exec32_up(up(up(A * rel1) + bj), fmax(up(M * rel1), bj),
                                     m + (bj > 0), c->ops[k]);
                if (X < 0)
                    return 0;
                E = up(E + X);
            }
            c->E[k][j] = E;
            lo[j] = dn(sl - E);
            hi[j] = up(sh + E);
        }
        if (!constrain(c, k))
            return 2;
        if (deep && k > 0 && k + 1 < c->L &&
            (net->layers[k + 1].kind == VFY_LAYER_RELU || lined_act(net->layers[k + 1].kind) ||
             net->layers[k + 1].kind == VFY_LAYER_MAXPOOL ||
             net->layers[k + 1].kind == VFY_LAYER_PRODUCT)) {
            if (!refine(c, k, xl, xh))
                return -1;
            if (!constrain(c, k))
                return 2;
        }
        double lim = c->fsem ? FLOAT_EXEC_LIMIT : INFINITY;
        for (int64_t j = 0; j < n_out; j++)
            if (!(lo[j] > -lim && hi[j] < lim))
                return 0;
    }
    return 1;
}

/* min over y in the output bounds and x in [xl, xh] of cy·y + cx·x, rounded down. */
static double ibp_row(const ck *c, const vfy_row *r, const double *xl, const double *xh)
{
    const double *yl = in_lo(c, c->L, xl), *yh = in_hi(c, c->L, xh);
    double v = 0;
    for (int64_t j = 0; j < c->ny; j++)
        if (r->cy[j] != 0)
            v = dn(v + dn(r->cy[j] * (r->cy[j] > 0 ? yl[j] : yh[j])));
    if (r->cx)
        for (int64_t j = 0; j < c->nx; j++)
            if (r->cx[j] != 0)
                v = dn(v + dn(r->cx[j] * (r->cx[j] > 0 ? xl[j] : xh[j])));
    return isfinite(v) ? v : -INFINITY;
}

/* Farkas: rows i = 0..m-1 of a case with linear forms row_i(x) >= lam_i·x + c_i (lam_i in
 * [ilo, ihi]). If for some mu >= 0,  min_{x in box} sum_i mu_i (lam_i·x + c_i - rhs_hi_i) > 0,
 * then no x of the box satisfies every row_i(x) <= rhs_hi_i. mu is searched in plain double
 * (exponentiated supergradient ascent on the simplex); the test that decides is rounded outward and
 * holds for whatever mu was found. */
static int farkas(ck *c, const vfy_case *cs, int64_t r0, const double *xl, const double *xh)
{
    int64_t m = cs->n_rows, n = c->nx;
    c->mub_ok = 0;
    if (m < 2)
        return 0;
    for (int64_t i = 0; i < m; i++) {
        if (!(c->ic[r0 + i] > -INFINITY) || c->dead[r0 + i])
            return 0;
        c->mu[i] = 1.0 / (double)m;
    }
    double best = -INFINITY;
    for (int it = 0; it < 100; it++) {
        double f = 0, smax = 0;
        for (int64_t i = 0; i < m; i++) {
            c->sg[i] = c->ic[r0 + i] - cs->rows[i].rhs_hi;
            f += c->mu[i] * c->sg[i];
        }
        for (int64_t j = 0; j < n; j++) {
            double g = 0;
            for (int64_t i = 0; i < m; i++)
                g += c->mu[i] * 0.5 * (c->ilo[(r0 + i) * n + j] + c->ihi[(r0 + i) * n + j]);
            double xs = g >= 0 ? xl[j] : xh[j];
            f += g * xs;
            for (int64_t i = 0; i < m; i++)
                c->sg[i] += 0.5 * (c->ilo[(r0 + i) * n + j] + c->ihi[(r0 + i) * n + j]) * xs;
        }
        if (f > best) {
            best = f;
            memcpy(c->mub, c->mu, (size_t)m * sizeof(double));
            c->mub_ok = 1;
        }
        for (int64_t i = 0; i < m; i++)
            smax = fabs(c->sg[i]) > smax ? fabs(c->sg[i]) : smax;
        if (!(smax > 0) || !isfinite(smax))
            break;
        double eta = 2.0 / (smax * sqrt((double)it + 1.0)), z = 0;
        for (int64_t i = 0; i < m; i++) {
            c->mu[i] *= exp(eta * c->sg[i]);
            z += c->mu[i];
        }
        if (!(z > 0) || !isfinite(z))
            break;
        for (int64_t i = 0; i < m; i++)
            c->mu[i] /= z;
    }
    if (!(best > 0))
        return 0;
    /* SOUND: mu_i >= 0 is a fixed double; D >= sum mu_i (rhs_hi_i - c_i); the coefficient of x_j
     * lies in [glo, ghi] and its minimum times x_j is at a corner; all rounded outward. */
    const double *mu = c->mub;
    double D = 0, v = 0;
    for (int64_t i = 0; i < m; i++) {
        if (!(mu[i] >= 0) || !isfinite(mu[i]))
            return 0;
        D = up(D + up(mu[i] * up(cs->rows[i].rhs_hi - c->ic[r0 + i])));
    }
    for (int64_t j = 0; j < n; j++) {
        double glo = 0, ghi = 0;
        for (int64_t i = 0; i < m; i++) {
            glo = dn(glo + dn(mu[i] * c->ilo[(r0 + i) * n + j]));
            ghi = up(ghi + up(mu[i] * c->ihi[(r0 + i) * n + j]));
        }
        double p1 = dn(glo * xl[j]), p2 = dn(glo * xh[j]), p3 = dn(ghi * xl[j]), p4 = dn(ghi * xh[j]);
        double t = p1 < p2 ? p1 : p2;
        t = t < p3 ? t : p3;
        t = t < p4 ? t : p4;
        v = dn(v + t);
    }
    v = dn(v - D);
    return isfinite(v) && v > 0;
}

/* Try to refute cases[0..n) on [xl, xh]; done[i] is set for each refuted one (others untouched).
 * deep: back-substitution for intermediate bounds too. margin receives the best (lb - rhs_hi) of
 * the last case that stayed open. Returns the number refuted, or -1 when out of memory. */
static int64_t refute(ck *c, const double *xl, const double *xh, const int64_t *cases, int64_t n,
                      char *done, int deep, double *margin)
{
    const vfy_spec *spec = c->spec;
    c->params = 0;
    int st = layers(c, xl, xh, deep);
    if (st < 0)
        return -1;
    if (st == 0) {
        *margin = -INFINITY;
        return 0;
    }
    if (st == 2) {
        /* no execution from the piece satisfies the region's splits: nothing to refute */
        int64_t got = 0;
        for (int64_t a = 0; a < n; a++)
            if (!done[a]) {
                done[a] = 1;
                got++;
            }
        return got;
    }
    int64_t K = 0;
    for (int64_t a = 0; a < n; a++)
        if (!done[a])
            K += spec->cases[cases[a]].n_rows;
    if (K == 0)
        return 0;
    if (!ck_reserve(c, K))
        return -1;
    int64_t W = c->width, ny = c->ny, nx = c->nx, i = 0;
    int has_cx = 0;
    double *cx = NULL;
    char *was_done = vfy_alloc((size_t)n + 1);
    if (!was_done)
        return -1;
    memcpy(was_done, done, (size_t)n);
    for (int64_t a = 0; a < n; a++)
        for (int64_t r = 0; !done[a] && r < spec->cases[cases[a]].n_rows; r++)
            has_cx |= spec->cases[cases[a]].rows[r].cx != NULL;
    if (has_cx && !(cx = vfy_alloc_array((size_t)(K * nx), sizeof(double)))) {
        vfy_free(was_done);
        return -1;
    }
    for (int64_t a = 0; a < n; a++) {
        if (done[a])
            continue;
        const vfy_case *cs = &spec->cases[cases[a]];
        int64_t r0 = c->crow ? c->crow[cases[a]] : -1;
        for (int64_t r = 0; r < cs->n_rows; r++, i++) {
            memcpy(c->al + i * W, cs->rows[r].cy, (size_t)ny * sizeof(double));
            memcpy(c->ah + i * W, cs->rows[r].cy, (size_t)ny * sizeof(double));
            c->betal[i] = c->betah[i] = 0;
            if (cx && cs->rows[r].cx)
                memcpy(cx + i * nx, cs->rows[r].cx, (size_t)nx * sizeof(double));
            int has = r0 >= 0 && c->phas[r0 + r];
            c->ra[i] = has ? c->pa + (r0 + r) * c->half : NULL;
            c->rb[i] = has && c->n_sp_beta > 0 ? c->pb + (r0 + r) * c->n_sp_beta : NULL;
        }
    }
    c->params = 1;
    backward(c, c->L - 1, K, xl, xh, cx, 1);
    c->params = 0;
    vfy_free(cx);
    int64_t got = 0;
    i = 0;
    for (int64_t a = 0; a < n; a++) {
        if (done[a])
            continue;
        const vfy_case *cs = &spec->cases[cases[a]];
        int64_t r0 = i;
        double best = -INFINITY;
        int ok = 0;
        for (int64_t r = 0; r < cs->n_rows; r++, i++) {
            double ib = ibp_row(c, &cs->rows[r], xl, xh);
            if (ib > c->lb[i]) {
                /* the interval bound is tighter: use it as the row's linear form (lam = 0) */
                c->lb[i] = c->ic[i] = ib;
                c->dead[i] = 0;
                memset(c->ilo + i * nx, 0, (size_t)nx * sizeof(double));
                memset(c->ihi + i * nx, 0, (size_t)nx * sizeof(double));
            }
            /* SOUND: lb is a lower bound of the row's left side over the piece, rhs_hi is at least
             * the real right-hand side: the row cannot hold anywhere on the piece. */
            if (c->lb[i] > cs->rows[r].rhs_hi)
                ok = 1;
            double g = c->lb[i] - cs->rows[r].rhs_hi;
            if (g > best)
                best = g;
        }
        if (!ok && farkas(c, cs, r0, xl, xh)) {
            ok = 1;
            c->farkas++;
        }
        if (ok) {
            done[a] = 1;
            got++;
        } else {
            *margin = best;
            /* keep the multipliers for the combined pass below (NaN: none) */
            for (int64_t r = 0; r < cs->n_rows; r++)
                c->mus[r0 + r] = c->mub_ok && cs->n_rows >= 2 ? c->mub[r] : NAN;
        }
    }
    /* A case still open gets one more pass: back-substitution of the combination
     * sum_i mu_i row_i itself (with the Farkas multipliers found above), which picks every
     * relaxation for the combination. SOUND: mu_i >= 0; the combined coefficients are carried as
     * outward-rounded intervals; an x satisfying every row has sum_i mu_i row_i(x) <= R (rounded
     * up), so a lower bound above R refutes the case. Rows with X terms are left out. */
    i = 0;
    for (int64_t a = 0; a < n; a++) {
        if (was_done[a])
            continue; /* its rows were not bounded in this call */
        const vfy_case *cs = &spec->cases[cases[a]];
        int64_t r0 = i;
        i += cs->n_rows;
        if (done[a])
            continue;
        int usable = cs->n_rows >= 2;
        for (int64_t r = 0; r < cs->n_rows && usable; r++)
            usable = cs->rows[r].cx == NULL && c->mus[r0 + r] >= 0 && isfinite(c->mus[r0 + r]);
        if (!usable)
            continue;
        double R = 0;
        for (int64_t j = 0; j < ny; j++)
            c->al[j] = c->ah[j] = 0;
        for (int64_t r = 0; r < cs->n_rows; r++) {
            double mu = c->mus[r0 + r];
            R = up(R + up(mu * cs->rows[r].rhs_hi));
            for (int64_t j = 0; j < ny; j++) {
                double v = cs->rows[r].cy[j];
                if (v == 0)
                    continue;
                c->al[j] = dn(c->al[j] + dn(mu * v));
                c->ah[j] = up(c->ah[j] + up(mu * v));
            }
        }
        c->betal[0] = c->betah[0] = 0;
        backward(c, c->L - 1, 1, xl, xh, NULL, 1);
        if (!c->dead[0] && isfinite(c->lb[0]) && c->lb[0] > R) {
            done[a] = 1;
            got++;
            c->farkas++;
        }
    }
    vfy_free(was_done);
    return got;
}

/* Refute cases[0..n) on every piece of [xl, xh] (bisected up to opts->max_depth levels along the
 * widest dimension relative to the spec box bw). Returns 1, 0 (a piece stays open: *fail_case,
 * *margin, *fail_depth say which), -1 out of memory. */
static int prove(ck *c, const double *xl, const double *xh, const double *bw, const int64_t *cases,
                 int64_t n, int depth, int64_t *fail_case, double *margin, int *fail_depth)
{
    char *done = vfy_alloc((size_t)n + 1);
    double *buf = vfy_alloc_array((size_t)(4 * c->nx) + 1, sizeof(double));
    int64_t *open = vfy_alloc_array((size_t)n + 1, sizeof(int64_t));
    int ret = -1;
    if (!done || !buf || !open)
        goto out;
    c->pieces++;
    if (depth > c->deepest)
        c->deepest = depth;
    int64_t left = n, got;
    double mg = -INFINITY;
    /* passes, cheapest first: interval layer bounds; back-substituted layer bounds; the same with
     * the adaptive lower slopes (CROWN's default is a coin toss where u = -l); then every neuron
     * that feeds a ReLU back-substituted with both slopes, stable ones too (the verifier's
     * intermediate bounds come from a slightly different interval pass, so a neuron stable here may
     * have been tightened there: without this, a proof with a small margin can fail here; only for
     * regions with activation splits, where it was needed) */
    for (int pass = 0; pass < (c->n_sp_beta > 0 ? 4 : 3) && left > 0; pass++) {
        c->slopes = pass == 2;
        c->refine_all = pass == 3;
        got = refute(c, xl, xh, cases, n, done, pass > 0, &mg);
        c->refine_all = 0;
        if (got < 0)
            goto out;
        left -= got;
    }
    if (left == 0) {
        ret = 1;
        goto out;
    }
    int64_t no = 0;
    for (int64_t a = 0; a < n; a++)
        if (!done[a])
            open[no++] = cases[a];
    /* A region with activation splits (many inputs: bisecting the input is hopeless) is split on
     * one more activation instead, up to RELU_BISECT_MAX of them: the unstable pre-activation, in the
     * deepest layer that has one, whose interval is the most balanced around 0 (in the last pass's
     * bounds). SOUND: z >= 0 and z <= 0 cover every execution; each side is proved with the split
     * clamped (no multiplier). */
    if (c->n_sp_beta > 0 && c->n_sp - c->n_sp_beta < RELU_BISECT_MAX) {
        int64_t bk = -1, bj = -1;
        double bv = 0;
        for (int64_t k = c->L - 2; k >= 0 && bk < 0; k--) {
            if (c->net->layers[k + 1].kind != VFY_LAYER_RELU)
                continue;
            for (int64_t j = 0; j < c->net->layers[k].n_out; j++) {
                double l = c->lo[k][j], u = c->hi[k][j], v = -l < u ? -l : u;
                if (l < 0 && u > 0 && v > bv) {
                    bv = v;
                    bk = k;
                    bj = j;
                }
            }
        }
        if (bk >= 0) {
            int64_t q = c->n_sp++;
            c->sp_k[q] = bk;
            c->sp_j[q] = bj;
            ret = 1;
            for (int sg = 1; sg >= -1 && ret == 1; sg -= 2) {
                c->sp_s[q] = (signed char)sg;
                ret = prove(c, xl, xh, bw, open, no, depth + 1, fail_case, margin, fail_depth);
            }
            c->n_sp--;
            goto out;
        }
    }
    int64_t nx = c->nx, dim = -1;
    double bestw = -1;
    for (int64_t j = 0; j < nx; j++) {
        double mid = 0.5 * (xl[j] + xh[j]);
        if (!(xl[j] < mid && mid < xh[j]))
            continue;
        double w = bw[j] > 0 ? (xh[j] - xl[j]) / bw[j] : (xh[j] - xl[j]);
        if (w > bestw) {
            bestw = w;
            dim = j;
        }
    }
    if (depth >= c->opts->max_depth || dim < 0) {
        *fail_case = open[0];
        *margin = mg;
        *fail_depth = depth;
        ret = 0;
        goto out;
    }
    /* SOUND: [lo, mid] ∪ [mid, hi] = [lo, hi] */
    double mid = 0.5 * (xl[dim] + xh[dim]);
    double *l1 = buf, *h1 = buf + nx, *l2 = buf + 2 * nx, *h2 = buf + 3 * nx;
    memcpy(l1, xl, (size_t)nx * sizeof(double));
    memcpy(h1, xh, (size_t)nx * sizeof(double));
    memcpy(l2, xl, (size_t)nx * sizeof(double));
    memcpy(h2, xh, (size_t)nx * sizeof(double));
    h1[dim] = mid;
    l2[dim] = mid;
    ret = prove(c, l1, h1, bw, open, no, depth + 1, fail_case, margin, fail_depth);
    if (ret == 1)
        ret = prove(c, l2, h2, bw, open, no, depth + 1, fail_case, margin, fail_depth);
out:
    vfy_free(done);
    vfy_free(buf);
    vfy_free(open);
    return ret;
}

/* ---- the cover check ----
 * covers(B, S) decides whether the closed boxes S cover the closed box B:
 *  - keep the regions meeting B properly (in every dimension where B has width, an overlap of
 *    positive width; where B is a point, containing it); none left: B's relative interior is
 *    uncovered (reported at B's centre);
 *  - a region containing B: covered;
 *  - else cut B at a region boundary v strictly inside B (preferring a clean cut that no region
 *    crosses, found by a sweep in lo order, the most balanced one) and require both halves covered.
 * SOUND: by induction, a 1 means B ⊆ ∪S (B is the union of its halves). If no boundary lies inside
 * B, every kept region contains B (so the cut always exists when needed). Each cut leaves fewer
 * boundaries inside each half, so the recursion ends. */
typedef struct cover {
    const double *R;   /* regions: lo (nx) then hi (nx), each */
    int64_t nx;
    int64_t budget;
    double *where;     /* nx: centre of an uncovered box */
    int gave_up;
} cover;

typedef struct span { double lo, hi; } span;

static int span_cmp(const void *a, const void *b)
{
    double x = ((const span *)a)->lo, y = ((const span *)b)->lo;
    return (x > y) - (x < y);
}

static int covers(cover *cv, double *blo, double *bhi, const int64_t *ids, int64_t n)
{
    int64_t nx = cv->nx;
    cv->budget -= n + 1;
    if (cv->budget < 0) {
        cv->gave_up = 1;
        return 0;
    }
    int64_t *keep = vfy_alloc_array((size_t)n + 1, sizeof(int64_t));
    span *sp = vfy_alloc_array((size_t)n + 1, sizeof(span));
    int ret = 0;
    if (!keep || !sp) {
        cv->gave_up = 2;
        goto out;
    }
    int64_t m = 0;
    for (int64_t t = 0; t < n; t++) {
        const double *lo = cv->R + ids[t] * 2 * nx, *hi = lo + nx;
        int meet = 1, contains = 1;
        for (int64_t d = 0; d < nx && meet; d++) {
            if (blo[d] < bhi[d])
                meet = lo[d] < bhi[d] && hi[d] > blo[d];
            else
                meet = lo[d] <= blo[d] && blo[d] <= hi[d];
            contains &= lo[d] <= blo[d] && bhi[d] <= hi[d];
        }
        if (meet && contains) {
            ret = 1;
            goto out;
        }
        if (meet)
            keep[m++] = ids[t];
    }
    if (m == 0) {
        for (int64_t d = 0; d < nx; d++)
            cv->where[d] = 0.5 * (blo[d] + bhi[d]);
        goto out;
    }
    int64_t cut_d = -1;
    double cut_v = 0, cut_bal = INFINITY;
    for (int64_t d = 0; d < nx; d++) {
        if (!(blo[d] < bhi[d]))
            continue;
        for (int64_t t = 0; t < m; t++) {
            const double *lo = cv->R + keep[t] * 2 * nx;
            sp[t].lo = lo[d];
            sp[t].hi = lo[nx + d];
        }
        qsort(sp, (size_t)m, sizeof *sp, span_cmp);
        double maxhi = -INFINITY;
        for (int64_t t = 0; t < m; t++) {
            if (t > 0 && sp[t].lo >= maxhi && blo[d] < maxhi && maxhi < bhi[d]) {
                double bal = fabs(2.0 * (double)t - (double)m);
                if (bal < cut_bal) {
                    cut_bal = bal;
                    cut_d = d;
                    cut_v = maxhi;
                }
            }
            if (sp[t].hi > maxhi)
                maxhi = sp[t].hi;
        }
    }
    if (cut_d < 0) {
        /* no clean cut: any boundary inside B (some region crosses it and goes to both halves) */
        for (int64_t t = 0; t < m && cut_d < 0; t++) {
            const double *lo = cv->R + keep[t] * 2 * nx, *hi = lo + nx;
            for (int64_t d = 0; d < nx && cut_d < 0; d++) {
                if (blo[d] < lo[d] && lo[d] < bhi[d]) {
                    cut_d = d;
                    cut_v = lo[d];
                } else if (blo[d] < hi[d] && hi[d] < bhi[d]) {
                    cut_d = d;
                    cut_v = hi[d];
                }
            }
        }
    }
    VFY_ASSERT(cut_d >= 0); /* else every kept region contains B (see above) */
    double save = bhi[cut_d];
    bhi[cut_d] = cut_v;
    ret = covers(cv, blo, bhi, keep, m);
    bhi[cut_d] = save;
    if (ret) {
        save = blo[cut_d];
        blo[cut_d] = cut_v;
        ret = covers(cv, blo, bhi, keep, m);
        blo[cut_d] = save;
    }
out:
    vfy_free(keep);
    vfy_free(sp);
    return ret;
}

/* ---- the sign-pattern cover (format 2) ----
 * Regions on one box with activation splits: each is the part of the box where its split neurons
 * have the given signs. pcovers(S) under a partial assignment A of signs (the cell of executions
 * whose split neurons have those signs), for the regions S that agree with A: 1 if one region of S
 * has all its splits in A (it contains the cell); else the neuron v that most regions of S split on
 * (outside A) is assigned both ways, and both cells must be covered by the regions agreeing with
 * that sign (those without a split on v go to both).
 * SOUND: the cells A ∧ v >= 0 and A ∧ v <= 0 cover the cell A (closed half-spaces), so by induction
 * a 1 means the regions contain the whole cell; at the root, A is empty: the whole box. */
typedef struct pcover {
    const int64_t *soff;      /* per region: its splits are sidx/ssgn[soff[r] .. soff[r + 1]) */
    const int64_t *sidx;
    const signed char *ssgn;
    signed char *asg;         /* half: the assignment, 0 where free */
    int64_t *cnt;             /* half: scratch counts, all 0 between calls */
    int64_t budget;
    int gave_up;              /* 1: budget spent, 2: out of memory */
    char why[256];            /* the first uncovered cell */
} pcover;

static int pcovers(pcover *pc, int64_t half, const int64_t *ids, int64_t m)
{
    pc->budget -= m + 1;
    if (pc->budget < 0) {
        pc->gave_up = 1;
        return 0;
    }
    if (m == 0) {
        if (!pc->why[0]) {
            size_t o = 0;
            for (int64_t v = 0; v < half && o + 32 < sizeof pc->why; v++)
                if (pc->asg[v])
                    o += (size_t)snprintf(pc->why + o, sizeof pc->why - o, "%s%lld %c", o ? ", " : "",
                                          (long long)v, pc->asg[v] > 0 ? '+' : '-');
            if (o == 0)
                snprintf(pc->why, sizeof pc->why, "no split");
        }
        return 0;
    }
    for (int64_t t = 0; t < m; t++) {
        int64_t r = ids[t], free_n = 0;
        for (int64_t q = pc->soff[r]; q < pc->soff[r + 1]; q++)
            free_n += pc->asg[pc->sidx[q]] == 0;
        if (free_n == 0)
            return 1;
    }
    int64_t best = -1, bestc = 0;
    for (int64_t t = 0; t < m; t++)
        for (int64_t q = pc->soff[ids[t]]; q < pc->soff[ids[t] + 1]; q++) {
            int64_t v = pc->sidx[q];
            if (pc->asg[v] == 0 && ++pc->cnt[v] > bestc) {
                bestc = pc->cnt[v];
                best = v;
            }
        }
    for (int64_t t = 0; t < m; t++)
        for (int64_t q = pc->soff[ids[t]]; q < pc->soff[ids[t] + 1]; q++)
            pc->cnt[pc->sidx[q]] = 0;
    int64_t *sub = vfy_alloc_array((size_t)m, sizeof(int64_t));
    if (!sub) {
        pc->gave_up = 2;
        return 0;
    }
    int ok = 1;
    for (int sg = 1; sg >= -1 && ok; sg -= 2) {
        int64_t m2 = 0;
        for (int64_t t = 0; t < m; t++) {
            int agree = 1;
            for (int64_t q = pc->soff[ids[t]]; q < pc->soff[ids[t] + 1]; q++)
                if (pc->sidx[q] == best)
                    agree = pc->ssgn[q] == sg;
            if (agree)
                sub[m2++] = ids[t];
        }
        pc->asg[best] = (signed char)sg;
        ok = pcovers(pc, half, sub, m2);
        pc->asg[best] = 0;
    }
    vfy_free(sub);
    return ok;
}

/* ---- certificate text ---- */
typedef struct lines {
    const char *p, *end;
    int64_t no;           /* number of the current line */
    const char *name;
    char tok[80];
    const char *lp, *le;  /* the current line */
} lines;

static int next_line(lines *ln)
{
    if (ln->p >= ln->end)
        return 0;
    ln->lp = ln->p;
    const char *e = memchr(ln->p, '\n', (size_t)(ln->end - ln->p));
    ln->le = e ? e : ln->end;
    ln->p = e ? e + 1 : ln->end;
    ln->no++;
    return 1;
}

/* The next whitespace-separated token of the line into ln->tok; 0 at the end of the line, -1 when
 * the token is too long. */
static int token(lines *ln)
{
    while (ln->lp < ln->le && (*ln->lp == ' ' || *ln->lp == '\t' || *ln->lp == '\r'))
        ln->lp++;
    if (ln->lp >= ln->le)
        return 0;
    size_t n = 0;
    while (ln->lp < ln->le && *ln->lp != ' ' && *ln->lp != '\t' && *ln->lp != '\r') {
        if (n + 1 >= sizeof ln->tok)
            return -1;
        ln->tok[n++] = *ln->lp++;
    }
    ln->tok[n] = '\0';
    return 1;
}

static int tok_int(lines *ln, long long *v)
{
    if (token(ln) != 1)
        return 0;
    char *e;
    const char *s = ln->tok;
    if (!(*s >= '0' && *s <= '9'))
        return 0;
    *v = strtoll(s, &e, 10);
    return *e == '\0' && *v >= 0 && *v < (1LL << 62);
}

/* A finite double written in C99 hexadecimal ("%a"): exact by construction. */
static int tok_hex(lines *ln, double *v)
{
    if (token(ln) != 1)
        return 0;
    const char *s = ln->tok;
    if (*s == '-' || *s == '+')
        s++;
    if (!(s[0] == '0' && (s[1] == 'x' || s[1] == 'X')))
        return 0;
    char *e;
    *v = strtod(ln->tok, &e);
    return *e == '\0' && isfinite(*v);
}

static int tok_is(lines *ln, const char *word) { return token(ln) == 1 && !strcmp(ln->tok, word); }

static uint64_t fnv1a64(const uint8_t *d, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        h ^= d[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

void vfy_check_opts_default(vfy_check_opts *o) { o->max_depth = 20; }

/* invalid: fill res->why through vfy_fail (one line) */
#define INVALID(...)                                                   \
    do {                                                               \
        vfy_error e_;                                                  \
        vfy_fail(&e_, VFY_ERR_INVALID, __VA_ARGS__);                   \
        snprintf(res->why, sizeof res->why, "%s", e_.msg);             \
        res->valid = 0;                                                \
        goto done;                                                     \
    } while (0)

static int header_file(lines *ln, const char *key, const uint8_t *d, size_t n)
{
    if (!next_line(ln) || !tok_is(ln, key) || token(ln) != 1 || strlen(ln->tok) != 16)
        return -1;
    char *e;
    unsigned long long h = strtoull(ln->tok, &e, 16);
    long long bytes;
    if (*e || !tok_int(ln, &bytes))
        return -1;
    return h == fnv1a64(d, n) && (unsigned long long)bytes == (unsigned long long)n;
}

static int header_count(lines *ln, const char *key, long long *v)
{
    return next_line(ln) && tok_is(ln, key) && tok_int(ln, v) && token(ln) == 0;
}

/* ---- the root's bounds (format 2) ----
 * 'root B lo .. hi ..' starts a prior: every layer bounded over that box as for a region (interval,
 * then back-substitution). Each following 'bound IDX lo|hi alpha ..' tightens one pre-activation by
 * the back-substitution of +-e_IDX through the layers before it, with the line's slopes and the
 * prior's current bounds; when the bounds move on to another layer, every layer is re-bounded with
 * the prior (so later layers profit). SOUND: each bound is a sound back-substitution over the root
 * box for any slopes in [0, 1]; intersections of sound enclosures are sound. Regions of box B inside
 * the root box intersect their layers with the prior (constrain). */
static void prior_store(ck *c)
{
    for (int64_t k = 0; k < c->L; k++) {
        int64_t n = c->net->layers[k].n_out;
        memcpy(c->plo + c->foff[k], c->lo[k], (size_t)n * sizeof(double));
        memcpy(c->phi + c->foff[k], c->hi[k], (size_t)n * sizeof(double));
    }
    c->prior_dirty = 0;
    c->lo_is_prior = 1;
}

/* Bound every layer over the root box (with the prior when with_prior) and make that the prior.
 * Returns 1, 0 when the prior is unusable (then dropped), -1 out of memory. */
static int prior_bound_layers(ck *c, int with_prior)
{
    c->use_prior = with_prior;
    c->n_sp = 0;
    c->params = 0;
    c->slopes = 0;
    int st = layers(c, c->prl, c->prh, 1);
    c->use_prior = 0;
    if (st < 0)
        return -1;
    if (st != 1) {
        c->prior_box = -1;
        return 0;
    }
    prior_store(c);
    return 1;
}

/* Tighten the prior's bound of neuron j of affine layer k (upper: its upper bound) with the slopes
 * alpha (flat). Returns 1, 0 when the prior was dropped, -1 out of memory. */
static int prior_tighten(ck *c, int64_t k, int64_t j, int upper, const double *alpha)
{
    if (c->prior_box < 0)
        return 0;
    if (!c->lo_is_prior || (c->prior_dirty && k != c->prior_layer)) {
        int st = prior_bound_layers(c, 1);
        if (st <= 0)
            return st;
    }
    int64_t n = c->net->layers[k].n_out, f = c->foff[k] + j;
    memset(c->al, 0, (size_t)n * sizeof(double));
    memset(c->ah, 0, (size_t)n * sizeof(double));
    c->al[j] = c->ah[j] = upper ? -1.0 : 1.0;
    c->betal[0] = c->betah[0] = 0;
    c->ra[0] = alpha;
    c->rb[0] = NULL;
    c->n_sp = 0;
    c->slopes = 0;
    c->params = 1;
    backward(c, k, 1, c->prl, c->prh, NULL, 0);
    c->params = 0;
    double lb = c->lb[0];
    if (!upper && lb > c->plo[f])
        c->plo[f] = c->lo[k][j] = lb;
    if (upper && -lb < c->phi[f])
        c->phi[f] = c->hi[k][j] = -lb;
    c->prior_dirty = 1;
    c->prior_layer = k;
    return 1;
}

/* 'alpha N (idx a)..' of a 'row' or 'bound' line into out (half entries, NaN where not given): each
 * idx a ReLU's pre-activation (before layer `below` when below >= 0), increasing, a in [0, 1].
 * Returns NULL or a message. */
static const char *read_alpha(ck *c, lines *ln, int64_t below, double *out)
{
    long long n, idx, prev = -1;
    for (int64_t q = 0; q < c->half; q++)
        out[q] = NAN;
    if (!tok_is(ln, "alpha") || !tok_int(ln, &n))
        return "expected 'alpha N'";
    for (long long t = 0; t < n; t++) {
        double a;
        if (!tok_int(ln, &idx) || idx <= prev)
            return "alpha indices must be increasing integers";
        int64_t kr = relu_fed(c, idx);
        if (kr < 0)
            return "an alpha index is not the input of a ReLU";
        if (below >= 0 && kr - 1 >= below)
            return "an alpha index is not before the bound's layer";
        if (!tok_hex(ln, &a) || !(a >= 0 && a <= 1))
            return "a slope is not a hexadecimal float in [0, 1]";
        out[idx] = a;
        prev = idx;
    }
    return NULL;
}

/* The capacity that holds `need` elements, doubling from cap (from `first` when cap is 0). */
static int64_t grown(int64_t cap, int64_t need, int64_t first)
{
    int64_t nc = cap ? 2 * cap : first;
    while (nc < need)
        nc *= 2;
    return nc;
}

/* The whole check. model/spec (the files' bytes) are NULL when the caller vouches for net and spec
 * (vfy_check_certificate_net): then the checksums are read but not compared. */
static vfy_status check(const vfy_net *net, const vfy_spec *spec, const uint8_t *model,
                        size_t model_len, const char *model_name, const char *spec_text,
                        size_t spec_len, const char *spec_name, const char *cert, size_t cert_len,
                        const char *cert_name, const vfy_check_opts *opts, vfy_check_result *res,
                        vfy_error *err)
{
    double t0 = vfy_now();
    memset(res, 0, sizeof *res);
    vfy_check_opts dflt;
    if (!opts) {
        vfy_check_opts_default(&dflt);
        opts = &dflt;
    }
    ck c;
    memset(&c, 0, sizeof c);
    double *R = NULL, *box_w = NULL, *tlo = NULL, *thi = NULL;
    int64_t *rcases = NULL, *roff = NULL, *rbox = NULL, *ids = NULL, *cl = NULL;
    int64_t nreg = 0, capreg = 0, ncl = 0, capcl = 0;
    cover cv;
    memset(&cv, 0, sizeof cv);
    /* format 2: every region's splits (soff, sidx, ssgn), the current region's row parameters */
    int64_t *soff = NULL, *sidx = NULL, *crow = NULL, *grp = NULL;
    signed char *ssgn = NULL;
    int64_t nsidx = 0, capsidx = 0, cap_rows = 0, cap_pb = 0;
    int64_t *split_line = NULL; /* per neuron: the last region line that split it (twice: invalid) */
    double *pa = NULL, *pb = NULL, *abuf = NULL;
    char *phas = NULL, *grouped = NULL;
    int have_root = 0;
    pcover pc;
    memset(&pc, 0, sizeof pc);
    vfy_status st = vfy_net_validate(net, err);
    if (st != VFY_OK)
        goto done;
    if (spec->n_nets > 1) { /* (verify writes no certificate for them) */
        st = vfy_fail(err, VFY_ERR_UNSUPPORTED, "%s: certificates of queries over several "
                      "networks are not supported", spec_name);
        goto done;
    }
    if (spec->n_x != net->n_in || spec->n_y != net->n_out) {
        st = vfy_fail(err, VFY_ERR_INVALID, "%s declares %lld inputs and %lld outputs but %s has "
                      "%lld and %lld", spec_name, (long long)spec->n_x, (long long)spec->n_y,
                      model_name, (long long)net->n_in, (long long)net->n_out);
        goto done;
    }
    /* a model ending in a Softmax: the certificate is about its input, which answers only the rows
     * that hold of both alike */
    if ((st = vfy_net_check_rows(net, spec, spec_name, err)) != VFY_OK)
        goto done;
    res->valid = 1;
    c.opts = opts;
    lines ln = {cert, cert + cert_len, 0, cert_name, "", NULL, NULL};
    const char *cn = cert_name;
    long long v;
    /* (a) the header */
    if (!next_line(&ln) || !tok_is(&ln, "verify-certificate") || !tok_int(&ln, &v))
        INVALID("%s:%lld: not a verify certificate (expected 'verify-certificate 1')", cn,
                (long long)ln.no);
    if (v != 1 && v != 2)
        INVALID("%s:%lld: certificate format version %lld, this checker reads versions 1 and 2", cn,
                (long long)ln.no, v);
    int version = (int)v;
    int fsem;
    if (!next_line(&ln) || !tok_is(&ln, "semantics") || token(&ln) != 1)
        INVALID("%s:%lld: expected 'semantics float32' or 'semantics real'", cn, (long long)ln.no);
    if (!strcmp(ln.tok, "float32"))
        fsem = 1;
    else if (!strcmp(ln.tok, "real"))
        fsem = 0;
    else
        INVALID("%s:%lld: unknown semantics '%s'", cn, (long long)ln.no, ln.tok);
    int hm = header_file(&ln, "model", model, model_len);
    if (!model && hm == 0)
        hm = 1;
    if (hm < 0)
        INVALID("%s:%lld: expected 'model <fnv1a64> <bytes> <name>'", cn, (long long)ln.no);
    if (hm == 0)
        INVALID("%s:%lld: the checksum or size of the model does not match %s (a certificate for "
                "another model?)", cn, (long long)ln.no, model_name);
    int hs = header_file(&ln, "spec", (const uint8_t *)spec_text, spec_len);
    if (!spec_text && hs == 0)
        hs = 1;
    if (hs < 0)
        INVALID("%s:%lld: expected 'spec <fnv1a64> <bytes> <name>'", cn, (long long)ln.no);
    if (hs == 0)
        INVALID("%s:%lld: the checksum or size of the spec does not match %s (a certificate for "
                "another spec?)", cn, (long long)ln.no, spec_name);
    const char *keys[4] = {"n_in", "n_out", "boxes", "cases"};
    long long want[4] = {net->n_in, net->n_out, spec->n_boxes, spec->n_cases};
    for (int q = 0; q < 4; q++) {
        if (!header_count(&ln, keys[q], &v))
            INVALID("%s:%lld: expected '%s N'", cn, (long long)ln.no, keys[q]);
        if (v != want[q])
            INVALID("%s:%lld: %s is %lld but the model and spec give %lld", cn, (long long)ln.no,
                    keys[q], v, want[q]);
    }
    if ((st = ck_init(&c, net, spec, fsem, err)) != VFY_OK)
        goto done;
    int64_t nx = net->n_in;
    box_w = vfy_alloc_array((size_t)nx + 1, sizeof(double));
    cl = vfy_alloc_array((size_t)spec->n_cases + 1, sizeof(int64_t));
    crow = vfy_alloc_array((size_t)spec->n_cases + 1, sizeof(int64_t));
    abuf = vfy_alloc_array((size_t)c.half + 1, sizeof(double));
    if (!box_w || !cl || !crow || !abuf)
        goto nomem;
    for (int64_t q = 0; q < spec->n_cases; q++)
        crow[q] = -1;
    /* (b) the regions */
    int ended = 0;
    while (next_line(&ln)) {
        int tk = token(&ln);
        if (tk == 0)
            continue; /* blank line */
        if (ended)
            INVALID("%s:%lld: text after the 'end' line", cn, (long long)ln.no);
        if (tk == 1 && !strcmp(ln.tok, "end")) {
            if (!tok_int(&ln, &v) || token(&ln) != 0)
                INVALID("%s:%lld: expected 'end N'", cn, (long long)ln.no);
            if (v != nreg)
                INVALID("%s:%lld: the certificate has %lld region lines but its end line says %lld",
                        cn, (long long)ln.no, (long long)nreg, v);
            ended = 1;
            continue;
        }
        if (tk == 1 && (!strcmp(ln.tok, "root") || !strcmp(ln.tok, "bound")) && version < 2)
            INVALID("%s:%lld: a '%s' line in a version 1 certificate", cn, (long long)ln.no, ln.tok);
        if (tk == 1 && !strcmp(ln.tok, "root")) {
            long long rb;
            if (!tok_int(&ln, &rb) || rb >= spec->n_boxes)
                INVALID("%s:%lld: bad box index (the spec has %lld boxes)", cn, (long long)ln.no,
                        (long long)spec->n_boxes);
            if (!tok_is(&ln, "lo"))
                INVALID("%s:%lld: expected 'lo' after the box index", cn, (long long)ln.no);
            for (int64_t j = 0; j < nx; j++)
                if (!tok_hex(&ln, &c.prl[j]))
                    INVALID("%s:%lld: lo[%lld] is not a finite hexadecimal float", cn,
                            (long long)ln.no, (long long)j);
            if (!tok_is(&ln, "hi"))
                INVALID("%s:%lld: expected 'hi' after %lld lower bounds", cn, (long long)ln.no,
                        (long long)nx);
            for (int64_t j = 0; j < nx; j++)
                if (!tok_hex(&ln, &c.prh[j]) || !(c.prl[j] <= c.prh[j]))
                    INVALID("%s:%lld: hi[%lld] is not a finite hexadecimal float at least lo[%lld]",
                            cn, (long long)ln.no, (long long)j, (long long)j);
            if (token(&ln) != 0)
                INVALID("%s:%lld: text after the root box", cn, (long long)ln.no);
            c.prior_box = rb;
            have_root = 1;
            if (prior_bound_layers(&c, 0) < 0)
                goto nomem;
            c.prior_layer = -1;
            continue;
        }
        if (tk == 1 && !strcmp(ln.tok, "bound")) {
            long long bi;
            if (!have_root)
                INVALID("%s:%lld: a 'bound' line before any 'root' line", cn, (long long)ln.no);
            if (!tok_int(&ln, &bi) || relu_fed(&c, bi) < 0)
                INVALID("%s:%lld: a bound's index must be the input of a ReLU", cn, (long long)ln.no);
            int upper;
            if (token(&ln) != 1 || (strcmp(ln.tok, "lo") && strcmp(ln.tok, "hi")))
                INVALID("%s:%lld: expected 'lo' or 'hi' after the bound's index", cn, (long long)ln.no);
            upper = !strcmp(ln.tok, "hi");
            int64_t kb = relu_fed(&c, bi) - 1;
            const char *why = read_alpha(&c, &ln, kb, abuf);
            if (why)
                INVALID("%s:%lld: %s", cn, (long long)ln.no, why);
            if (token(&ln) != 0)
                INVALID("%s:%lld: text after the slopes", cn, (long long)ln.no);
            if (prior_tighten(&c, kb, bi - c.foff[kb], upper, abuf) < 0)
                goto nomem;
            continue;
        }
        if (tk != 1 || strcmp(ln.tok, "region"))
            INVALID("%s:%lld: expected a 'region' or 'end' line", cn, (long long)ln.no);
        long long box;
        if (!tok_int(&ln, &box) || box >= spec->n_boxes)
            INVALID("%s:%lld: bad box index (the spec has %lld boxes)", cn, (long long)ln.no,
                    (long long)spec->n_boxes);
        if (nreg == capreg) {
            int64_t nc = grown(capreg, nreg + 1, 256);
            double *R2 = vfy_realloc(R, (size_t)nc * 2 * (size_t)nx * sizeof(double));
            if (!R2)
                goto nomem;
            R = R2;
            int64_t *o2 = vfy_realloc(roff, (size_t)(nc + 1) * sizeof(int64_t));
            if (!o2)
                goto nomem;
            roff = o2;
            int64_t *b2 = vfy_realloc(rbox, (size_t)nc * sizeof(int64_t));
            if (!b2)
                goto nomem;
            rbox = b2;
            int64_t *s2 = vfy_realloc(soff, (size_t)(nc + 1) * sizeof(int64_t));
            if (!s2)
                goto nomem;
            soff = s2;
            capreg = nc;
            if (nreg == 0)
                roff[0] = soff[0] = 0;
        }
        double *xl = R + nreg * 2 * nx, *xh = xl + nx;
        if (!tok_is(&ln, "lo"))
            INVALID("%s:%lld: expected 'lo' after the box index", cn, (long long)ln.no);
        for (int64_t j = 0; j < nx; j++)
            if (!tok_hex(&ln, &xl[j]))
                INVALID("%s:%lld: lo[%lld] is not a finite hexadecimal float ('%s')", cn,
                        (long long)ln.no, (long long)j, ln.tok);
        if (!tok_is(&ln, "hi"))
            INVALID("%s:%lld: expected 'hi' after %lld lower bounds", cn, (long long)ln.no,
                    (long long)nx);
        for (int64_t j = 0; j < nx; j++) {
            if (!tok_hex(&ln, &xh[j]))
                INVALID("%s:%lld: hi[%lld] is not a finite hexadecimal float ('%s')", cn,
                        (long long)ln.no, (long long)j, ln.tok);
            if (!(xl[j] <= xh[j]))
                INVALID("%s:%lld: empty region: lo[%lld] > hi[%lld]", cn, (long long)ln.no,
                        (long long)j, (long long)j);
        }
        /* format 2: the region's activation splits */
        tk = token(&ln);
        int64_t nsp = 0;
        if (tk == 1 && !strcmp(ln.tok, "splits")) {
            long long ns;
            if (version < 2 || !tok_int(&ln, &ns))
                INVALID("%s:%lld: expected 'splits N' (format 2)", cn, (long long)ln.no);
            /* each split names a different neuron in two tokens: N is checked against both
             * before anything is allocated for it (seen: 'splits 40000001000' asked for 320 GB,
             * found by tests/fuzz/fuzz_cert.c) */
            if (ns > c.half || ns > (ln.le - ln.lp) / 2)
                INVALID("%s:%lld: 'splits %lld': more than the network's %lld neurons or the "
                        "line's tokens", cn, (long long)ln.no, ns, (long long)c.half);
            if (!split_line && /* zeroed: line numbers start at 1 */
                !(split_line = vfy_alloc_array((size_t)c.half + 1, sizeof(int64_t))))
                goto nomem;
            if (nsidx + ns > capsidx) {
                int64_t nc = grown(capsidx, nsidx + ns, 1024);
                int64_t *i2 = vfy_realloc(sidx, (size_t)nc * sizeof(int64_t));
                if (!i2)
                    goto nomem;
                sidx = i2;
                signed char *g2 = vfy_realloc(ssgn, (size_t)nc);
                if (!g2)
                    goto nomem;
                ssgn = g2;
                capsidx = nc;
            }
            for (long long q = 0; q < ns; q++) {
                long long si;
                if (!tok_int(&ln, &si) || relu_fed(&c, si) < 0)
                    INVALID("%s:%lld: split %lld is not the input of a ReLU", cn, (long long)ln.no,
                            q);
                if (token(&ln) != 1 || (strcmp(ln.tok, "+") && strcmp(ln.tok, "-")))
                    INVALID("%s:%lld: split %lld: expected the sign '+' or '-'", cn,
                            (long long)ln.no, q);
                if (split_line[si] == ln.no) /* O(1) a split: a long line cannot stall it */
                    INVALID("%s:%lld: neuron %lld is split twice", cn, (long long)ln.no, si);
                split_line[si] = ln.no;
                sidx[nsidx + q] = si;
                ssgn[nsidx + q] = ln.tok[0] == '+' ? 1 : -1;
            }
            nsp = ns;
            tk = token(&ln);
        }
        if (tk != 1 || strcmp(ln.tok, "cases"))
            INVALID("%s:%lld: expected 'cases' after %lld upper bounds", cn, (long long)ln.no,
                    (long long)nx);
        int64_t n = 0;
        long long prev = -1;
        while ((tk = token(&ln)) == 1) {
            char *e;
            const char *s = ln.tok;
            long long cc = (*s >= '0' && *s <= '9') ? strtoll(s, &e, 10) : -1;
            if (cc < 0 || *e || cc >= spec->n_cases)
                INVALID("%s:%lld: bad case index '%s' (the spec has %lld cases)", cn,
                        (long long)ln.no, ln.tok, (long long)spec->n_cases);
            if (cc <= prev)
                INVALID("%s:%lld: case indices must increase", cn, (long long)ln.no);
            if (spec->cases[cc].box != box)
                INVALID("%s:%lld: case %lld belongs to box %lld, not %lld", cn, (long long)ln.no,
                        cc, (long long)spec->cases[cc].box, box);
            if (spec->cases[cc].n_rows == 0)
                INVALID("%s:%lld: case %lld constrains no output, it cannot be refuted", cn,
                        (long long)ln.no, cc);
            prev = cc;
            cl[n++] = cc;
        }
        if (tk < 0)
            INVALID("%s:%lld: token too long", cn, (long long)ln.no);
        if (n == 0)
            INVALID("%s:%lld: a region line lists no case", cn, (long long)ln.no);
        /* format 2: the parameters of the listed cases' rows, one 'row' line each (optional) */
        int64_t n_rows = 0;
        for (int64_t a = 0; a < n; a++) {
            crow[cl[a]] = n_rows;
            n_rows += spec->cases[cl[a]].n_rows;
        }
        if (n_rows > cap_rows) {
            vfy_free(pa);
            vfy_free(phas);
            pa = vfy_alloc_array((size_t)(n_rows * c.half) + 1, sizeof(double));
            phas = vfy_alloc((size_t)n_rows + 1);
            cap_rows = pa && phas ? n_rows : 0;
            if (!cap_rows)
                goto nomem;
        }
        if (n_rows * nsp > cap_pb) {
            vfy_free(pb);
            pb = vfy_alloc_array((size_t)(n_rows * nsp) + 1, sizeof(double));
            cap_pb = pb ? n_rows * nsp : 0;
            if (!pb)
                goto nomem;
        }
        memset(phas, 0, (size_t)n_rows);
        int64_t reg_line = ln.no;
        while (ln.p + 4 <= ln.end && !memcmp(ln.p, "row ", 4)) {
            next_line(&ln);
            token(&ln);
            long long rc, rr;
            if (version < 2 || !tok_int(&ln, &rc) || rc >= spec->n_cases || crow[rc] < 0 ||
                !tok_int(&ln, &rr) || rr >= spec->cases[rc].n_rows)
                INVALID("%s:%lld: expected 'row C R' for a row R of a case C of the region above",
                        cn, (long long)ln.no);
            int64_t ri = crow[rc] + rr;
            if (phas[ri])
                INVALID("%s:%lld: a second 'row' line for case %lld row %lld", cn,
                        (long long)ln.no, rc, rr);
            phas[ri] = 1;
            const char *why = read_alpha(&c, &ln, -1, pa + ri * c.half);
            if (why)
                INVALID("%s:%lld: %s", cn, (long long)ln.no, why);
            if (nsp > 0) {
                if (!tok_is(&ln, "beta"))
                    INVALID("%s:%lld: expected 'beta' and %lld multipliers", cn, (long long)ln.no,
                            (long long)nsp);
                for (int64_t q = 0; q < nsp; q++)
                    if (!tok_hex(&ln, &pb[ri * nsp + q]) || !(pb[ri * nsp + q] >= 0))
                        INVALID("%s:%lld: multiplier %lld is not a hexadecimal float >= 0", cn,
                                (long long)ln.no, (long long)q);
            }
            if (token(&ln) != 0)
                INVALID("%s:%lld: text after the row's parameters", cn, (long long)ln.no);
        }
        /* the region's splits, as layer and neuron */
        if (nsp > 0) {
            vfy_free(c.sp_k);
            vfy_free(c.sp_j);
            vfy_free(c.sp_s);
            c.sp_k = vfy_alloc_array((size_t)(nsp + RELU_BISECT_MAX), sizeof(int64_t));
            c.sp_j = vfy_alloc_array((size_t)(nsp + RELU_BISECT_MAX), sizeof(int64_t));
            c.sp_s = vfy_alloc((size_t)(nsp + RELU_BISECT_MAX));
            if (!c.sp_k || !c.sp_j || !c.sp_s)
                goto nomem;
            for (int64_t q = 0; q < nsp; q++) {
                c.sp_k[q] = relu_fed(&c, sidx[nsidx + q]) - 1;
                c.sp_j[q] = sidx[nsidx + q] - c.foff[c.sp_k[q]];
                c.sp_s[q] = ssgn[nsidx + q];
            }
        }
        /* the prior of this box, when the region lies in its root box */
        int inside = c.prior_box == box;
        for (int64_t j = 0; j < nx && inside; j++)
            inside = c.prl[j] <= xl[j] && xh[j] <= c.prh[j];
        if (inside && c.prior_dirty && prior_bound_layers(&c, 1) < 0)
            goto nomem;
        c.use_prior = inside && c.prior_box == box;
        c.n_sp = c.n_sp_beta = nsp;
        c.pa = pa;
        c.pb = pb;
        c.phas = phas;
        c.crow = crow;
        const vfy_box *bx = &spec->boxes[box];
        for (int64_t j = 0; j < nx; j++)
            box_w[j] = bx->hi[j] - bx->lo[j];
        int64_t fc = -1;
        double mg = -INFINITY;
        int fd = 0;
        c.deepest = 0;
        int pr = prove(&c, xl, xh, box_w, cl, n, 0, &fc, &mg, &fd);
        c.use_prior = 0;
        c.n_sp = c.n_sp_beta = 0;
        c.crow = NULL;
        for (int64_t a = 0; a < n; a++)
            crow[cl[a]] = -1;
        if (pr < 0)
            goto nomem;
        if (pr == 0)
            ln.no = reg_line; /* name the region's line */
        if (pr == 0) {
            if (fd > 0)
                INVALID("%s:%lld: case %lld is not refuted on this region, nor on every piece of "
                        "it bisected %d times (best row margin %.3g)", cn, (long long)ln.no,
                        (long long)fc, fd, mg);
            INVALID("%s:%lld: case %lld is not refuted on this region (best row margin %.3g)", cn,
                    (long long)ln.no, (long long)fc, mg);
        }
        if (c.deepest > 0)
            res->bisected++;
        /* remember the region for the cover check */
        if (ncl + n > capcl) {
            int64_t nc = grown(capcl, ncl + n, 1024);
            int64_t *r2 = vfy_realloc(rcases, (size_t)nc * sizeof(int64_t));
            if (!r2)
                goto nomem;
            rcases = r2;
            capcl = nc;
        }
        memcpy(rcases + ncl, cl, (size_t)n * sizeof(int64_t));
        ncl += n;
        rbox[nreg] = box;
        roff[nreg + 1] = ncl;
        nsidx += nsp;
        soff[nreg + 1] = nsidx;
        nreg++;
        res->regions = nreg;
    }
    if (!ended)
        INVALID("%s:%lld: the certificate ends without its 'end N' line (truncated?)", cn,
                (long long)ln.no);
    /* (c) the cover: every case's box, and under the float32 claim the float32 rounding of each
     * of its points (round-to-nearest is monotone, so fl32([lo, hi]) ⊆ [fl32(lo), fl32(hi)]) */
    ids = vfy_alloc_array((size_t)nreg + 1, sizeof(int64_t));
    tlo = vfy_alloc_array((size_t)nx + 1, sizeof(double));
    thi = vfy_alloc_array((size_t)nx + 1, sizeof(double));
    cv.where = vfy_alloc_array((size_t)nx + 1, sizeof(double));
    if (!ids || !tlo || !thi || !cv.where)
        goto nomem;
    cv.R = R;
    cv.nx = nx;
    cv.budget = COVER_BUDGET;
    grp = vfy_alloc_array((size_t)(2 * nreg) + 1, sizeof(int64_t));
    grouped = vfy_alloc((size_t)nreg + 1);
    pc.asg = vfy_alloc((size_t)c.half + 1);
    pc.cnt = vfy_alloc_array((size_t)c.half + 1, sizeof(int64_t));
    if (!grp || !grouped || !pc.asg || !pc.cnt)
        goto nomem;
    memset(pc.asg, 0, (size_t)c.half + 1);
    memset(pc.cnt, 0, ((size_t)c.half + 1) * sizeof(int64_t));
    pc.soff = soff;
    pc.sidx = sidx;
    pc.ssgn = ssgn;
    pc.budget = COVER_BUDGET;
    for (int64_t cc = 0; cc < spec->n_cases; cc++) {
        int64_t b = spec->cases[cc].box, m = 0;
        for (int64_t r = 0; r < nreg; r++) {
            if (rbox[r] != b)
                continue;
            for (int64_t q = roff[r]; q < roff[r + 1]; q++)
                if (rcases[q] == cc) {
                    ids[m++] = r;
                    break;
                }
        }
        /* regions with activation splits count for their box when, with the others on the same
         * box, they cover every sign pattern (pcovers); each such group stands as one region */
        int64_t m1 = 0, m2 = 0;
        for (int64_t t = 0; t < m; t++) {
            grouped[t] = 0;
            if (soff[ids[t] + 1] == soff[ids[t]])
                ids[m1++] = ids[t];
            else
                grp[m2++] = ids[t];
        }
        m = m1;
        for (int64_t t = 0; t < m2; t++) {
            if (grouped[t])
                continue;
            int64_t g = 0;
            const double *bt = R + grp[t] * 2 * nx;
            for (int64_t u = t; u < m2; u++)
                if (!grouped[u] && !memcmp(R + grp[u] * 2 * nx, bt, (size_t)(2 * nx) * sizeof(double))) {
                    grouped[u] = 1;
                    grp[m2 + g++] = grp[u]; /* grp has room: m2 + g <= 2 m2 */
                }
            if (pcovers(&pc, c.half, grp + m2, g))
                ids[m++] = grp[t];
            else if (pc.gave_up == 2)
                goto nomem;
            else if (pc.gave_up)
                INVALID("%s: the sign-pattern cover of case %lld gave up", cn, (long long)cc);
        }
        const vfy_box *bx = &spec->boxes[b];
        for (int64_t j = 0; j < nx; j++) {
            tlo[j] = bx->lo[j];
            thi[j] = bx->hi[j];
            if (fsem) {
                if (!(fabs(tlo[j]) <= FLT_MAX && fabs(thi[j]) <= FLT_MAX))
                    INVALID("%s: box %lld leaves the float32 range in X_%lld: the float32 claim "
                            "cannot hold", cn, (long long)b, (long long)j);
                double f = (double)(float)tlo[j], g = (double)(float)thi[j];
                if (f < tlo[j])
                    tlo[j] = f;
                if (g > thi[j])
                    thi[j] = g;
            }
        }
        if (!covers(&cv, tlo, thi, ids, m)) {
            if (cv.gave_up == 2)
                goto nomem;
            if (cv.gave_up)
                INVALID("%s: the cover check of case %lld gave up after %lld region visits", cn,
                        (long long)cc, (long long)COVER_BUDGET);
            char pt[512];
            size_t o = 0;
            for (int64_t j = 0; j < nx && o + 40 < sizeof pt; j++)
                o += (size_t)snprintf(pt + o, sizeof pt - o, "%s%.9g", j ? ", " : "", cv.where[j]);
            if (nx > 0 && o + 40 >= sizeof pt)
                snprintf(pt + o, sizeof pt - o, ", ...");
            if (pc.why[0])
                INVALID("%s: case %lld of box %lld is not covered near x = (%s); its regions with "
                        "activation splits leave the signs (%s) uncovered", cn, (long long)cc,
                        (long long)b, pt, pc.why);
            INVALID("%s: case %lld of box %lld is not covered near x = (%s)", cn, (long long)cc,
                    (long long)b, pt);
        }
    }
    goto done;
nomem:
    st = vfy_fail(err, VFY_ERR_NOMEM, "out of memory checking %s", cert_name);
    res->valid = 0;
done:
    res->pieces = c.pieces;
    res->farkas = c.farkas;
    res->time_s = vfy_now() - t0;
    if (st == VFY_OK)
        vfy_log(1, "checker: %lld regions, %lld bisected, %lld pieces bounded, %lld Farkas "
                "refutations, %.3f s", (long long)res->regions, (long long)res->bisected,
                (long long)res->pieces, (long long)res->farkas, res->time_s);
    ck_free(&c);
    vfy_free(R);
    vfy_free(box_w);
    vfy_free(tlo);
    vfy_free(thi);
    vfy_free(rcases);
    vfy_free(roff);
    vfy_free(rbox);
    vfy_free(ids);
    vfy_free(cl);
    vfy_free(cv.where);
    vfy_free(soff);
    vfy_free(sidx);
    vfy_free(ssgn);
    vfy_free(split_line);
    vfy_free(crow);
    vfy_free(grp);
    vfy_free(grouped);
    vfy_free(pa);
    vfy_free(pb);
    vfy_free(phas);
    vfy_free(abuf);
    vfy_free(pc.asg);
    vfy_free(pc.cnt);
    if (st != VFY_OK)
        res->valid = 0;
    return st;
}

vfy_status vfy_check_certificate_net(const vfy_net *net, const vfy_spec *spec, const char *cert,
                                     size_t cert_len, const char *cert_name,
                                     const vfy_check_opts *opts, vfy_check_result *res,
                                     vfy_error *err)
{
    return check(net, spec, NULL, 0, "the model", NULL, 0, "the spec", cert, cert_len, cert_name,
                 opts, res, err);
}

vfy_status vfy_check_certificate_bytes(const uint8_t *model, size_t model_len, const char *model_name,
                                       const char *spec_text, size_t spec_len, const char *spec_name,
                                       const char *cert, size_t cert_len, const char *cert_name,
                                       const vfy_check_opts *opts, vfy_check_result *res,
                                       vfy_error *err)
{
    memset(res, 0, sizeof *res);
    vfy_net *net = NULL;
    vfy_spec *spec = NULL;
    /* as verify reads them: the query's hidden nodes become the model's last outputs, and its
     * tensors are laid out in the model's order (several inputs or outputs, named ones) */
    const char *hidden[VFY_SPEC_MAX_IO];
    vfy_status st = vfy_spec_parse(spec_text, spec_len, spec_name, &spec, err);
    if (st == VFY_OK && spec->n_nets > 1)
        st = vfy_fail(err, VFY_ERR_UNSUPPORTED, "%s: certificates of queries over several "
                      "networks are not supported", spec_name);
    if (st == VFY_OK)
        st = vfy_onnx_load_bytes_hidden(model, model_len, model_name, hidden,
                                        vfy_spec_hidden_names(spec, 0, hidden), &net, err);
    if (st == VFY_OK)
        st = vfy_net_fit_query(net, model_name, spec, spec_name, err);
    if (st == VFY_OK)
        st = check(net, spec, model, model_len, model_name, spec_text, spec_len, spec_name, cert,
                   cert_len, cert_name, opts, res, err);
    vfy_spec_free(spec);
    vfy_net_free(net);
    return st;
}

vfy_status vfy_check_certificate(const char *model_path, const char *spec_path,
                                 const char *cert_path, const vfy_check_opts *opts,
                                 vfy_check_result *res, vfy_error *err)
{
    memset(res, 0, sizeof *res);
    uint8_t *m = NULL, *s = NULL, *c = NULL;
    size_t ml = 0, sl = 0, cl = 0;
    vfy_status st = vfy_read_file(model_path, &m, &ml, err);
    if (st == VFY_OK)
        st = vfy_read_file(spec_path, &s, &sl, err);
    if (st == VFY_OK)
        st = vfy_read_file(cert_path, &c, &cl, err);
    if (st == VFY_OK)
        st = vfy_check_certificate_bytes(m, ml, model_path, (const char *)s, sl, spec_path,
                                         (const char *)c, cl, cert_path, opts, res, err);
    vfy_free(m);
    vfy_free(s);
    vfy_free(c);
    return st;
}
