/* bound: IBP and CROWN with a sound allowance for every rounding error. See include/vfy/bound.h.
 *
 * Error model (docs/soundness.md has the full argument):
 *  - The network: v_{k+1} = W v_k + b + e_k for an affine layer, where e_k is the layer's perturbation:
 *    the error of a float32 execution in any summation order (a DENSE row: the rounding of its
 *    terms and of their sum's tree, vfy_la_exec_err32; a SCALE: gamma32(fan_in + 2)(|W||v| + |b|))
 *    plus the representation error of the stored weights (|W_real - W| <= w_relerr |W|). The real
 *    network is the case e_k = 0. ReLU is exact in every semantics; Sigmoid and Tanh are enclosed
 *    from libm and, for float executions, charged ACT_EXEC_ERR (section "Sigmoid and Tanh" below).
 *  - Our own arithmetic: every BLAS product is round-to-nearest; its error is bounded a priori by
 *    gamma(n) sum |a||b| (+ n 2^-1074 for underflow) and charged to a per-row slack that is subtracted
 *    from the bound at the end. Scalars that decide (concretisation, slack sums) use directed
 *    rounding (la.h).
 * Per affine layer k and output j we precompute
 *    q_k[j] = (gamma(n_in+n_out) + w_relerr') * ((1+gamma) G_j + |b_j|) + E32_j + tiny,
 *    G = |W| H,  H = max(|lo(v_k)|, |hi(v_k)|)   (elementwise magnitude bound of the layer's input),
 * (E32_j the float32 execution's allowance of row j, 0 for the real network)
 * which bounds, per unit of |coefficient| on output j, both the perturbation e_k and the rounding of
 * our own products with W and b. IBP widens by q; the backward pass charges |Lambda| q. */
#include "vfy/bound.h"
#include "vfy/la.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define ETA64 0x1p-1074 /* smallest positive subnormal double: the absolute error of an underflow */
#define ETA32 0x1p-149  /* the same for float32 */
/* Float32 executions can overflow where the real network does not; beyond this no proof is claimed. */
#define FLOAT_EXEC_LIMIT 1e38
/* Pieces on which the lines of optimised (alpha) slopes of SIGMOID/TANH are certified (act_cert):
 * fewer than ACT_PIECES, as each row and step certifies its own line. */
#define ACT_ALPHA_PIECES 16
#define ACT_PIECE_LEN(n) (6 * (n) + 5) /* doubles of a neuron's pieces (act_pieces) */
#define ACT_CACHE 7 /* doubles per neuron of an activation layer's cached lines (act_lines) */
/* The step size of the SIGMOID/TANH slopes' ascent (ACT_LR of the range [0, max f'] per step, as
 * Adam scales it) decays geometrically to ACT_LR_FINAL of its first value over a call's
 * iterations. At a constant step the slopes of the hidden bounds oscillate: on the eran sigmoid
 * net (20 iterations per hidden bound) the root's worst margin moved from -2.9 to +0.6 (idx 7903)
 * and from -0.49 to +3.0 (idx 858) with a decay to 0.1, while a constant step of half or three
 * times the size gave +0.16 / -35. With the gradient taken at the relaxed network's point
 * (alpha_gradient) a gentler schedule pays: the worst margin after 20 steps per hidden bound and
 * 50 for the rows, idx 3881 / 4857 / 3991 / 1655 / 6623 / 1211, was -0.42 / -3.92 / -5.24 / -22.4 /
 * -87.1 / -40.3 with (0.1, 0.1) and is +0.76 / -1.35 / -1.98 / -15.2 / -62.6 / -14.0 with
 * (0.06, 0.5); on random 4x20 Sigmoid/Tanh nets the two are within 0.7% of each other. (ReLU
 * slopes keep a constant step of 0.1: a decay made the mnist_fc root bounds worse.) */
#define ACT_LR 0.06
#define ACT_LR_FINAL 0.5
/* crown_refine uses kept slopes (vfy_bound_slopes) where a chunk's rows' slopes take at most this
 * many bytes of the scratch: up to 4,096 ReLUs before the layer (mnist_fc 256x6: 1,280) */
#define SLOPES_CHUNK_BYTES (8 << 20)
/* ... and only on nets of at most this many ReLUs: on oval21's conv nets (3,000-6,000) recording
 * and reading them made quick instances 3 to 6 times slower (cifar_deep img8366: 1.6 -> 9.9 s);
 * mnist_fc (768-1,536) and eran's 9x200 (1,800) gain */
#define SLOPES_MAX_RELUS 2048
#define F32_OFF INT64_MAX /* vfy_bound_scratch.f32_from: no float32 products */

struct vfy_bound_ctx {
    const vfy_net *net;
    int float_semantics;
    double **absw;   /* DENSE layers: |W| */
    unsigned char *wfull; /* per layer: 1 for a dense DENSE layer with no zero weight */
    double **rowmax;      /* DENSE layers: each row's largest |w| */
    int64_t *roff;   /* per layer: offset of a RELU layer's neurons among all ReLU neurons */
    int64_t *foff;   /* per layer: offset of the layer's outputs in the flat layout */
    int64_t n_relu;  /* ReLU neurons in all */
    int64_t *soff;   /* per layer: offset of a SIGMOID/TANH layer's neurons among all such */
    int64_t n_sact;  /* SIGMOID/TANH neurons in all */
    int64_t *moff;   /* per layer: offset of a MAXPOOL or PRODUCT layer's outputs among all such */
    int64_t n_mp;    /* MAXPOOL and PRODUCT outputs in all */
    int64_t n_prod;  /* PRODUCT outputs in all */
    int act_search;  /* optimise and split them too (vfy_bound_ctx_set_act_search; default 1) */
    int n_threads;   /* threads of vfy_bound_tighten_alpha (vfy_bound_ctx_set_threads; default 1) */
    char **nonneg;   /* affine layers: per output, 1 when it is >= 0 in every semantics
                      * (nonneg_rows); NULL for a layer with no such output */
    float **wf;      /* DENSE layers (not sparse) whose weights are all 0 or normal float32
                      * numbers: W in float32, exactly (the float products); else NULL */
    int f32;         /* float32 products allowed (vfy_bound_ctx_set_f32; default 1) */
    int64_t chunk_rows; /* vfy_bound_chunk_rows of the net: crown_refine's rows at a time */
    int facets;      /* ideal upper facets in the alpha passes (vfy_bound_ctx_set_facets;
                      * default 0) */
    int64_t *fvoff;  /* per layer: a ReLU layer's offset among the facet layers' inputs (the
                      * primal vectors' layout), -1 where it takes no facets */
    int64_t n_fv;    /* the facet layers' inputs in all */
    int64_t *fooff;  /* per layer: a ReLU layer's offset among the facet layers' neurons, -1 */
    int64_t n_fo;    /* the facet layers' neurons in all */
    int64_t *fbw;    /* per facet layer: 64-bit words of a bit set over a neuron's inputs */
    int64_t *fboff;  /* per facet layer: its neurons' bit sets' offset in a row's, in words */
    int64_t n_fb;    /* a row's bit sets in all, in words */
    int fac_memo;    /* the facets' memo between selections (vfy_bound_ctx_set_facet_memo; 1) */
    const vfy_deadline *dl; /* past it, no CROWN passes (vfy_bound_ctx_set_deadline; NULL) */
};

/* A domain's share of a backward pass over the rows of one scratch (several domains' rows go
 * through the affine layers as one matrix product, vfy_bound_rows_alpha_batch): rows [r0, r0 + K)
 * are bounded on b's layer bounds over the box [in_lo, in_hi]; its splits are entries
 * [sp0, sp0 + n_sp) of the scratch's sp_layer/sp_j/beta_s, and row r0 + i's multipliers are
 * beta[bo + i n_sp + q]. */
typedef struct bseg {
    vfy_bounds *b;
    const double *in_lo, *in_hi;
    int64_t r0, K, sp0, n_sp, bo;
    /* inside vfy_bound_rows_alpha_batch: its slot in the ReLU cache, its job, and where its rows
     * and multipliers start among the call's (r0, K and bo change when rows that stopped early are
     * packed out, these do not) */
    int64_t rc, job, o_r0, o_bo;
} bseg;

/* Between two selections of the facets (FAC_RESELECT) a row's facet at a neuron stays the one
 * named by h at fac_v's point over the call's box, so what the passes derive from it is the same
 * at every step: its set I (a bit set over the neuron's row, in fac_bits), fac_emit_at's theta and
 * the constant's sums S and E once rounded (and its outcome), fac_value_at's D. Each is computed
 * at its first use in a generation (gen: the scratch's fac_gen then; a new selection, rows packed
 * out or a new call start the next) and read back after: the same numbers as computing it again.
 * On cifar_wide_kw, the loops over a neuron's inputs that computed them at every step were a third
 * of the search's time. */
struct fac_memo {
    double theta, S, E, D;
    uint64_t gen;
    int32_t h;     /* (an entry of a facet layer's row: at most FAC_MAX_FANIN of them) */
    int16_t flags; /* FM_BITS, FM_EMIT (rc: fac_emit_at's outcome), FM_VAL (D) */
    int16_t rc;
};
/* The memo's memory in one call at most (K n_fo entries and K n_fb words): past it (the hidden
 * bounds of a net with tens of thousands of ReLUs, 256 rows a call) a call computes them at every
 * step instead, as before the memo; on cifar_wide_kw a row takes 390 KB (72 rows a batch) */
#define FAC_MEMO_BYTES ((size_t)128 << 20)
#define FM_BITS 1
#define FM_EMIT 2
#define FM_VAL 4

typedef struct vfy_bound_scratch {
    int64_t cap_rows;   /* rows the K-sized buffers hold */
    int64_t width;      /* max layer width */
    double *lam, *lam2, *absl; /* cap_rows x width */
    double *beta, *slack, *t, *d, *lbtmp; /* cap_rows */
    double *m, *r, *H, *G, *c, *R;        /* width */
    double *tmax;                         /* width: a DENSE row's largest |w| H (row_terms) */
    int64_t *tcnt;                        /* width: its terms with w != 0 and H > 0 */
    double *s_up, *t_up, *s_lo;           /* width: ReLU upper lines, lower slopes */
    int64_t *idx;                         /* width: crown_refine's rows */
    int64_t *cls;                         /* 2 width: backward's ReLU classification */
    double *csr_ws; /* VFY_CSR_BLOCK 2 width: the sparse products' workspace (NULL: no sparse layer) */
    double *conv_ws; /* the convolutions' workspace (vfy_la_conv_ws_len; NULL: no conv layer) */
    /* affine_prepare's input magnitudes H are finite: the convolution kernels, whose products
     * include exact zeros (padding, zero weights) that would make an infinite input NaN where the
     * CSR kernels give +-inf, may serve it and ibp_affine */
    int conv_ok;
    double **q;        /* per layer: q_k (affine layers) */
    /* per layer with a float32 weight copy (ctx->wf): q_k plus the charge of a float32 product's
     * rounding per unit of |coefficient| (f32_charge), and that product's absolute (underflow)
     * charge per row */
    double **qf, *tiny32;
    /* backward forms the products with W of the layers from f32_from on in float32 where it can
     * (F32_OFF: none): crown_refine and the branching look-ahead (which only scores) from layer 0;
     * the optimised rows stay in double. On mnist_fc 256x4, 14% more domains a second from the
     * hidden layers' products, and 13% more from the input layer's (docs/results.md). That one
     * is charged in centred form (cen_*) where it can be: its charge then scales with the box's
     * radius, not the inputs' magnitudes (which cost 1e-3 of the 256x2 net's root CROWN margin);
     * crown_refine keeps it in double where it cannot */
    int64_t f32_from;
    /* 1 while a pass may stop at the context's deadline (ctx->dl) between two layers, its rows
     * then bounded by -inf (crown_refine's and vfy_bound_rows' passes, where the bounds before
     * them, IBP's, stand) */
    int abortable;
    /* The input layer's float32 product in centred form (cen_compute), for a DENSE input layer
     * with float32 weights: the box the layer was prepared for (cen_lo, cen_hi); x = c + d over
     * it, |d| <= r, and |c| (cen_ac); fl(W c) and a bound per unit of |coefficient| of its error
     * and of a product's with it (cen_wce); q_0 plus the float32 charge per unit of |coefficient|
     * with G = |W| r (cen_q), and the product's underflow charge per row (cen_tiny). The box and
     * the context are also those of the input layer's q, qf and tiny32 (affine_prepare). */
    enum { CEN_NONE, CEN_STALE, CEN_OK, CEN_BAD } cen_state;
    const vfy_bound_ctx *cen_ctx;
    double *cen_c, *cen_ac, *cen_r, *cen_lo, *cen_hi, *cen_wc, *cen_wce, *cen_q, cen_tiny;
    float *fws;        /* the float products' workspace (grow-only) */
    size_t cap_fws;
    double *gws; /* the transposed products' workspace (vfy_la_gemm_ws; grow-only) */
    size_t cap_gws;
    /* ideal upper facets (vfy_bound_rows_alpha_batch): per row, the primal input of each DENSE
     * layer feeding a facet layer (ctx->fvoff), the coefficients the facets add on that input
     * and their error terms; the mixes (fac_lam: K R mixes, then their gradients and Adam's
     * moments); the selection's workspace; fac_ok while fac_v holds the last primal point */
    double *fac_v, *fac_corr, *fac_err, *fac_lam; /* fac_lam: 4 K R (mix, gradient, Adam) */
    size_t cap_fac_v, cap_fac_corr, cap_fac_err, cap_fac_lam;
    struct fac_item *fac_ord;
    size_t cap_fac_ord;
    /* K R: the facet the last selection (FAC_RESELECT) chose for each row and neuron at fac_v's
     * point (h's entry in its layer's row + 1; -1: none; 0: not looked at), which the backward
     * passes take instead of choosing again (fac_emit_at) */
    double *fac_h;
    size_t cap_fac_h;
    double *fac_pre; /* the widest layer's input: a row's position in a facet layer's box */
    size_t cap_fac_pre;
    /* between selections (FAC_RESELECT) the facets stay those named at fac_v's point, and a
     * gradient step evaluates them at its own point (fac_vc; its positions in fac_pos) */
    double *fac_vc, *fac_pos;
    size_t cap_fac_vc, cap_fac_pos;
    int fac_step;
    /* per segment of the call (its slot rc) and facet layer: what fac_pre_start computes once
     * for the call (FAC_BOX(ctx) each), and whether it has (fac_rdy, n_layers each: 0 or 1) */
    double *fac_box, *fac_rdy;
    size_t cap_fac_box, cap_fac_rdy;
    int fac_ok;
    /* per row and facet neuron (K n_fo of them, the slopes' layout over the facet layers; and
     * K n_fb words of bit sets): the facets' memo (struct fac_memo) and the current generation */
    struct fac_memo *fac_mm;
    size_t cap_fac_mm;
    uint64_t *fac_bits;
    size_t cap_fac_bits;
    uint64_t fac_gen;
    int fac_mm_on; /* this call memoises (ctx->fac_memo, and within FAC_MEMO_BYTES) */
    double **act;      /* per activation layer but ReLU: ACT_CACHE n: cached lines (act_lines)
                        * for the bounds l, u: l, u, sl, tl, su, tu, and (convex kinds) m >= |f|
                        * over [l, u]; then (SIGMOID/TANH) ACT_PIECE_LEN(ACT_ALPHA_PIECES) n: each
                        * neuron's pieces (act_pieces) for certifying other slopes (act_cert) */
    double *hsum;      /* per layer: sum of H over the layer's input */
    /* alpha optimisation of output rows: K x n_relu each, and K x width primal vectors */
    int64_t cap_alpha;
    double *alpha, *tape, *grad, *adam_m, *adam_v, *pv, *pv2, *best_lb, *ctmp;
    double *best_alpha;  /* K x n_relu, alpha's layout: the slopes of each row's best pass */
    /* a warm start for the next vfy_bound_rows_alpha (vfy_bound_alpha_warm), borrowed; NULL: none */
    const float *warm;
    int64_t warm_K, warm_nsp;
    int64_t best_K; /* rows optimised by the last vfy_bound_rows_alpha(_batch) (0: none) */
    /* that call's jobs: each one's rows (job_rows) and its segment among bsegs (job_seg; -1: not
     * optimised), for vfy_bound_best_warm/params */
    bseg *bsegs, *wsegs; /* (wsegs: the segments still in the ascent) */
    int64_t n_jobs, cap_jobs, *job_rows, *job_seg;
    /* the stacked rows of a batch: cy, cx, and the best bound, input coefficients, constant */
    int64_t cap_stack;
    double *cyb, *cxb, *lbb, *lamb, *cinb;
    /* the rows still in the ascent: each one's row among the call's (wrow) and whether it stops
     * (row_done) */
    int64_t *wrow;
    unsigned char *row_done;
    /* beta (split multipliers): K x n_splits each, and each split's layer and neuron */
    int64_t cap_beta;
    double *beta_v, *beta_g, *beta_m, *beta_s, *best_beta;
    int64_t *sp_layer, *sp_j;
    double *sp_off; /* each split's offset t: the constraint is sign (z - t) >= 0 */
    /* alpha for SIGMOID/TANH (K x n_sact each, a layer's block at K soff[k]): the slopes of the
     * lower and upper lines, Adam's moments, the coefficient at each neuron (tape) and the point
     * where the used line's certified intercept was attained (za), for the gradient, and the
     * slope and intercept of the line each row used (sla, stl: the relaxed network's forward) */
    int64_t cap_salpha;
    double *sal_lo, *sal_up, *sgrad_lo, *sgrad_up, *sm_lo, *sm_up, *sv_lo, *sv_up, *stape, *sza;
    double *sla, *stl;
    /* the coefficient at each MAXPOOL/PRODUCT output (K x n_mp, a layer's block at K moff[k]),
     * recorded
     * by the alpha passes for the relaxed network's forward (alpha_gradient) */
    int64_t cap_mtape;
    double *mtape;
    /* alpha for PRODUCT (K x n_mp each, at the mtape's offsets; MAXPOOL's entries unused): each
     * row's mix theta of McCormick's two planes (product_mixed_plane), its gradient and Adam's
     * moments */
    int64_t cap_palpha;
    double *pal, *pal_g, *pal_m1, *pal_m2;
    int use_palpha; /* backward uses pal (set only inside vfy_bound_rows_alpha), */
    int64_t pal_K;  /* ... of that many rows in all (a layer's block at pal_K moff[k]) */
    /* the last gradient step of vfy_bound_rows_alpha: each row's value in the relaxed network at
     * its primal point (pval) and that pass's bound (plb); n_primal rows, 0: no step taken */
    double *pval, *plb;
    int64_t n_primal;
    int use_salpha; /* backward uses sal_lo/sal_up (set only inside vfy_bound_rows_alpha) */
    int keep_stape; /* backward records stape without using sal_lo/sal_up (branching scores) */
    /* branching look-ahead (vfy_bound_split_lb), NULL otherwise: row i treats neuron ov_j[i] of
     * ReLU layer ov_layer[i] as decided (ov_sign[i] < 0: inactive, > 0: active) */
    const int64_t *ov_layer, *ov_j;
    const signed char *ov_sign;
    /* its rows' slopes and multipliers (grow-only: a fresh block of this size, over the mmap
     * threshold, cost a page fault per 4 KiB on every branching, 8% of a mnist_fc 256x6 run) */
    double *ov_alpha, *ov_beta;
    size_t cap_ov_alpha, cap_ov_beta;
    /* crown_refine's rows' slopes from the bounds' vfy_bound_slopes (grow-only) */
    double *sl_alpha;
    size_t cap_sl_alpha;
    /* the ReLU layers' classification and lines of each segment of a batch (relu_cache_fill),
     * used by backward_segs and alpha_gradient only while rc_on: inside
     * vfy_bound_rows_alpha_batch, whose segments' layer bounds do not change, the same values
     * were otherwise recomputed by each of its passes (a tenth of a run on a net with one wide
     * ReLU layer and one open row). rc_lines: four blocks of n_seg n_relu (CROWN's lower slope,
     * the upper line's slope and intercept, H), segment g's ReLU layer k at g n_relu + roff[k] in
     * each; rc_idx: its unstable neurons at 2 (g n_relu + roff[k]), its inactive ones n_in
     * further; rc_cnt (2 per segment and layer: how many of each) and rc_tiny at g n_layers + k.
     * (grow-only) */
    int rc_on;
    int64_t rc_n; /* segments filled (a segment's slot: bseg.rc) */
    double *rc_lines, *rc_tiny;
    int64_t *rc_idx, *rc_cnt;
    size_t cap_rc_lines, cap_rc_tiny, cap_rc_idx, cap_rc_cnt;
} vfy_bound_scratch;

struct vfy_bound_slopes {
    int64_t half, n_relu, n_rows;
    int64_t *row_of;    /* per flat index: its lower bound's row (upper: + 1), or -1 */
    float *a;           /* n_rows x n_relu, ReLU neuron roff[k] + j of the context: slope or NaN */
    unsigned char *rec; /* per row: slopes recorded */
};

/* 1 for the activations whose lines alpha-CROWN optimises on pieces and the search may split
 * (Sigmoid, Tanh, Erf; Gelu and SiLU); Sign, Exp and the reciprocal keep their fixed lines. */
static int act_has_pieces(vfy_layer_kind kind)
{
    return vfy_layer_is_sshaped(kind) || vfy_layer_is_gated(kind);
}

/* The outputs of the affine layers that are >= 0 in every semantics, whatever the input: a row
 * whose coefficients and bias are >= 0 and whose nonzero coefficients all multiply values known to
 * be >= 0 (outputs of a RELU, of a MAXPOOL over such values, of such rows, squares and products of
 * such values; not a SIGMOID's, which the
 * perturbation model lets a float execution miss by ACT_EXEC_ERR). The lowering
 * of residual graphs makes them (a ReLU's output carried past later ReLUs as its copy, see
 * src/graph.c); without this fact IBP's rounding slack leaves those copies a lower bound a hair
 * below 0, unstable neurons that are not.
 * SOUND: the real value is a sum of products of nonnegative numbers (a stored coefficient w >= 0
 * stands for a real one within w_relerr w of it, also >= 0); a float execution rounds each product
 * and sum of nonnegative values to a nonnegative value, as rounding is monotone and 0 is a float. */
static vfy_status nonneg_rows(vfy_bound_ctx *ctx)
{
    const vfy_net *net = ctx->net;
    int64_t w = vfy_net_max_width(net);
    char *in = vfy_alloc((size_t)w + 1), *out = vfy_alloc((size_t)w + 1);
    vfy_status st = VFY_ERR_NOMEM;
    if (!in || !out)
        goto done;
    for (int64_t k = 0; k < net->n_layers; k++) {
        const vfy_layer *L = &net->layers[k];
        int64_t n_pos = 0;
        for (int64_t j = 0; j < L->n_out; j++) {
            int pos;
            if (L->kind == VFY_LAYER_RELU) {
                pos = 1;
            } else if (vfy_layer_passes(L->kind)) {
                pos = j < L->n_pass && in[j]; /* (a value passed through) */
            } else if (L->kind == VFY_LAYER_MAXPOOL) {
                pos = 1;
                for (int64_t t = 0; t < L->pool_k; t++) {
                    int64_t i = L->pool[j * L->pool_k + t];
                    pos = pos && (i < 0 || in[i]);
                }
            } else if (L->kind == VFY_LAYER_PRODUCT) {
                /* a square, or a product of two values >= 0, is >= 0 (a float product too) */
                int64_t p = L->pool[2 * j], q = L->pool[2 * j + 1];
                pos = q < 0 ? in[p] : (p == q || (in[p] && in[q]));
            } else if (L->kind == VFY_LAYER_SCALE) {
                pos = k > 0 && in[j] && L->w[j] >= 0 && L->b[j] >= 0;
            } else {
                const int64_t *idx;
                const double *val;
                int64_t nz;
                vfy_layer_row(L, j, &idx, &val, &nz);
                pos = k > 0 && L->b[j] >= 0;
                for (int64_t t = 0; pos && t < nz; t++)
                    pos = val[t] == 0 || (val[t] > 0 && in[idx ? idx[t] : t]);
            }
            out[j] = (char)pos;
            n_pos += pos;
        }
        if (n_pos > 0 && (L->kind == VFY_LAYER_DENSE || L->kind == VFY_LAYER_SCALE)) {
            if (!(ctx->nonneg[k] = vfy_alloc((size_t)L->n_out)))
                goto done;
            memcpy(ctx->nonneg[k], out, (size_t)L->n_out);
        }
        char *t = in;
        in = out;
        out = t;
    }
    st = VFY_OK;
done:
    vfy_free(in);
    vfy_free(out);
    return st;
}

/* Lower bounds of layer k's outputs that are >= 0 in every semantics (nonneg_rows) raised to 0. */
static void clamp_nonneg(const vfy_bound_ctx *ctx, vfy_bounds *b, int64_t k)
{
    const char *nn = ctx->nonneg[k];
    if (!nn)
        return;
    for (int64_t j = 0; j < ctx->net->layers[k].n_out; j++)
        if (nn[j] && !(b->lo[k][j] >= 0))
            b->lo[k][j] = 0;
}

/* The ReLU layers that take ideal upper facets (backward_segs): those whose input comes from a
 * DENSE layer with exact weights (w_relerr 0: the facet's coefficients are its weights) of at most
 * FAC_MAX_FANIN inputs a neuron (a facet costs a pass over the neuron's inputs per row and
 * gradient step; oval21's dense layers after the convolutions have 512 and 1024 inputs, and
 * their facets helped cifar_deep_kw img1052: unsat in 221 s with them, still open at 466 s
 * without them (nor facets in the root's hidden bounds)). */
#define FAC_MAX_FANIN 1024

static void facet_layers(vfy_bound_ctx *ctx)
{
    const vfy_net *net = ctx->net;
    ctx->n_fv = ctx->n_fo = ctx->n_fb = 0;
    for (int64_t k = 0; k < net->n_layers; k++) {
        const vfy_layer *L = &net->layers[k], *P = k > 0 ? &net->layers[k - 1] : NULL;
        ctx->fvoff[k] = ctx->fooff[k] = ctx->fboff[k] = -1;
        ctx->fbw[k] = 0;
        if (L->kind != VFY_LAYER_RELU || !P || P->kind != VFY_LAYER_DENSE || P->w_relerr > 0)
            continue;
        int64_t fan = P->n_in;
        if (P->csr) {
            fan = 0;
            for (int64_t j = 0; j < P->n_out; j++) {
                int64_t c = P->csr->row_start[j + 1] - P->csr->row_start[j];
                fan = c > fan ? c : fan;
            }
        }
        if (fan > FAC_MAX_FANIN)
            continue;
        ctx->fvoff[k] = ctx->n_fv;
        ctx->n_fv += P->n_in;
        ctx->fooff[k] = ctx->n_fo;
        ctx->n_fo += P->n_out;
        ctx->fbw[k] = (fan + 63) / 64;
        ctx->fboff[k] = ctx->n_fb;
        ctx->n_fb += P->n_out * ctx->fbw[k];
    }
}

vfy_status vfy_bound_ctx_create(const vfy_net *net, int float_semantics, vfy_bound_ctx **out,
                                vfy_error *err)
{
    *out = NULL;
    vfy_bound_ctx *ctx = vfy_alloc(sizeof *ctx);
    if (!ctx)
        goto nomem;
    ctx->net = net;
    ctx->float_semantics = float_semantics;
    ctx->absw = vfy_alloc_array((size_t)net->n_layers + 1, sizeof *ctx->absw);
    ctx->roff = vfy_alloc_array((size_t)net->n_layers + 1, sizeof *ctx->roff);
    ctx->wfull = vfy_alloc_array((size_t)net->n_layers + 1, 1);
    ctx->rowmax = vfy_alloc_array((size_t)net->n_layers + 1, sizeof *ctx->rowmax);
    if (!ctx->absw || !ctx->roff || !ctx->wfull || !ctx->rowmax)
        goto nomem;
    ctx->foff = vfy_alloc_array((size_t)net->n_layers + 1, sizeof *ctx->foff);
    ctx->soff = vfy_alloc_array((size_t)net->n_layers + 1, sizeof *ctx->soff);
    ctx->moff = vfy_alloc_array((size_t)net->n_layers + 1, sizeof *ctx->moff);
    ctx->nonneg = vfy_alloc_array((size_t)net->n_layers + 1, sizeof *ctx->nonneg);
    ctx->wf = vfy_alloc_array((size_t)net->n_layers + 1, sizeof *ctx->wf);
    if (!ctx->foff || !ctx->soff || !ctx->moff || !ctx->nonneg || !ctx->wf ||
        nonneg_rows(ctx) != VFY_OK)
        goto nomem;
    ctx->act_search = 1;
    ctx->n_threads = 1;
    ctx->f32 = 1;
    ctx->chunk_rows = vfy_bound_chunk_rows(net);
    ctx->fvoff = vfy_alloc_array((size_t)net->n_layers + 1, sizeof *ctx->fvoff);
    ctx->fooff = vfy_alloc_array((size_t)net->n_layers + 1, sizeof *ctx->fooff);
    ctx->fbw = vfy_alloc_array((size_t)net->n_layers + 1, sizeof *ctx->fbw);
    ctx->fboff = vfy_alloc_array((size_t)net->n_layers + 1, sizeof *ctx->fboff);
    if (!ctx->fvoff || !ctx->fooff || !ctx->fbw || !ctx->fboff)
        goto nomem;
    ctx->fac_memo = 1;
    facet_layers(ctx);
    for (int64_t k = 0, off = 0; k < net->n_layers; off += net->layers[k].n_out, k++) {
        ctx->foff[k] = off;
        ctx->roff[k] = ctx->n_relu;
        ctx->soff[k] = ctx->n_sact;
        ctx->moff[k] = ctx->n_mp;
        if (net->layers[k].kind == VFY_LAYER_MAXPOOL || net->layers[k].kind == VFY_LAYER_PRODUCT)
            ctx->n_mp += net->layers[k].n_out;
        if (net->layers[k].kind == VFY_LAYER_PRODUCT)
            ctx->n_prod += net->layers[k].n_out;
        if (net->layers[k].kind == VFY_LAYER_RELU)
            ctx->n_relu += net->layers[k].n_out;
        if (act_has_pieces(net->layers[k].kind))
            ctx->n_sact += net->layers[k].n_out;
    }
    for (int64_t k = 0; k < net->n_layers; k++) {
        const vfy_layer *L = &net->layers[k];
        if (L->kind != VFY_LAYER_DENSE)
            continue;
        if (L->csr) { /* (a sparse layer's |W| is taken on the fly) */
            if (!(ctx->rowmax[k] = vfy_alloc_array((size_t)L->n_out, sizeof(double))))
                goto nomem;
            for (int64_t j = 0; j < L->n_out; j++)
                for (int64_t p = L->csr->row_start[j]; p < L->csr->row_start[j + 1]; p++)
                    ctx->rowmax[k][j] = fmax(ctx->rowmax[k][j], fabs(L->csr->val[p]));
            continue;
        }
        int64_t nw = L->n_in * L->n_out;
        ctx->absw[k] = vfy_alloc_array((size_t)nw, sizeof(double));
        if (!ctx->absw[k])
            goto nomem;
        if (!(ctx->rowmax[k] = vfy_alloc_array((size_t)L->n_out, sizeof(double))))
            goto nomem;
        int full = 1;
        for (int64_t i = 0; i < nw; i++) {
            ctx->absw[k][i] = fabs(L->w[i]);
            full = full && L->w[i] != 0;
            ctx->rowmax[k][i / L->n_in] = fmax(ctx->rowmax[k][i / L->n_in], ctx->absw[k][i]);
        }
        ctx->wfull[k] = (unsigned char)full;
        int exact = 1;
        for (int64_t i = 0; exact && i < nw; i++) {
            double w = L->w[i];
            exact = (double)(float)w == w && (w == 0 || fabs(w) >= FLT_MIN);
        }
        if (exact) {
            if (!(ctx->wf[k] = vfy_alloc_array((size_t)nw, sizeof(float))))
                goto nomem;
            for (int64_t i = 0; i < nw; i++)
                ctx->wf[k][i] = (float)L->w[i];
        }
    }
    *out = ctx;
    return VFY_OK;
nomem:
    vfy_bound_ctx_free(ctx);
    return vfy_fail(err, VFY_ERR_NOMEM, "out of memory preparing bounds");
}

const double *vfy_bound_ctx_absw(const vfy_bound_ctx *ctx, int64_t k) { return ctx->absw[k]; }
const vfy_net *vfy_bound_ctx_net(const vfy_bound_ctx *ctx) { return ctx->net; }
int vfy_bound_ctx_float_semantics(const vfy_bound_ctx *ctx) { return ctx->float_semantics; }
void vfy_bound_ctx_set_act_search(vfy_bound_ctx *ctx, int on) { ctx->act_search = on != 0; }
void vfy_bound_ctx_set_threads(vfy_bound_ctx *ctx, int n) { ctx->n_threads = n < 1 ? 1 : n; }
void vfy_bound_ctx_set_f32(vfy_bound_ctx *ctx, int on) { ctx->f32 = on != 0; }
void vfy_bound_ctx_set_facets(vfy_bound_ctx *ctx, int on)
{
    ctx->facets = on != 0 && ctx->n_fv > 0;
}
int vfy_bound_ctx_facets(const vfy_bound_ctx *ctx) { return ctx->facets; }
void vfy_bound_ctx_set_facet_memo(vfy_bound_ctx *ctx, int on) { ctx->fac_memo = on != 0; }

void vfy_bound_ctx_set_deadline(vfy_bound_ctx *ctx, const vfy_deadline *dl) { ctx->dl = dl; }

void vfy_bound_ctx_free(vfy_bound_ctx *ctx)
{
    if (!ctx)
        return;
    if (ctx->absw)
        for (int64_t k = 0; k < ctx->net->n_layers; k++)
            vfy_free(ctx->absw[k]);
    vfy_free(ctx->absw);
    vfy_free(ctx->wfull);
    vfy_free(ctx->fvoff);
    vfy_free(ctx->fooff);
    vfy_free(ctx->fbw);
    vfy_free(ctx->fboff);
    if (ctx->rowmax)
        for (int64_t k = 0; k < ctx->net->n_layers; k++)
            vfy_free(ctx->rowmax[k]);
    vfy_free(ctx->rowmax);
    if (ctx->nonneg)
        for (int64_t k = 0; k < ctx->net->n_layers; k++)
            vfy_free(ctx->nonneg[k]);
    vfy_free(ctx->nonneg);
    if (ctx->wf)
        for (int64_t k = 0; k < ctx->net->n_layers; k++)
            vfy_free(ctx->wf[k]);
    vfy_free(ctx->wf);
    vfy_free(ctx->roff);
    vfy_free(ctx->foff);
    vfy_free(ctx->soff);
    vfy_free(ctx->moff);
    vfy_free(ctx);
}

static void scratch_free_rows(vfy_bound_scratch *s)
{
    vfy_free(s->lam);
    vfy_free(s->lam2);
    vfy_free(s->absl);
    vfy_free(s->beta);
    vfy_free(s->slack);
    vfy_free(s->t);
    vfy_free(s->d);
    vfy_free(s->lbtmp);
    s->lam = s->lam2 = s->absl = s->beta = s->slack = s->t = s->d = s->lbtmp = NULL;
    s->cap_rows = 0;
}

/* p, or a new block in its place (p freed), holding at least n elements of elem bytes (kept
 * between calls, *cap its size), zeroed when new; NULL on allocation failure. */
static void *grow_mem(void *p, size_t *cap, size_t n, size_t elem)
{
    if (n <= *cap)
        return p;
    vfy_free(p);
    p = vfy_alloc_array(n, elem);
    *cap = p ? n : 0;
    return p;
}

/* The same for doubles */
static double *grow_buf(double **p, size_t *cap, size_t n)
{
    if (n > *cap) {
        vfy_free(*p);
        *p = vfy_alloc_array(n, sizeof(double));
        *cap = *p ? n : 0;
    }
    return *p;
}

/* Make room for K rows; returns 0 on allocation failure. */
static int scratch_reserve(vfy_bound_scratch *s, int64_t K)
{
    if (K <= s->cap_rows)
        return 1;
    scratch_free_rows(s);
    size_t n = (size_t)K * (size_t)s->width;
    s->lam = vfy_alloc_array(n, sizeof(double));
    s->lam2 = vfy_alloc_array(n, sizeof(double));
    s->absl = vfy_alloc_array(n, sizeof(double));
    s->beta = vfy_alloc_array((size_t)K, sizeof(double));
    s->slack = vfy_alloc_array((size_t)K, sizeof(double));
    s->t = vfy_alloc_array((size_t)K, sizeof(double));
    s->d = vfy_alloc_array((size_t)K, sizeof(double));
    s->lbtmp = vfy_alloc_array((size_t)K, sizeof(double));
    if (!s->lam || !s->lam2 || !s->absl || !s->beta || !s->slack || !s->t || !s->d || !s->lbtmp) {
        scratch_free_rows(s);
        return 0;
    }
    s->cap_rows = K;
    return 1;
}

/* An array of n per-layer arrays (entries may be NULL), and the array itself. */
static void free_per_layer(double **p, int64_t n)
{
    for (int64_t k = 0; p && k < n; k++)
        vfy_free(p[k]);
    vfy_free(p);
}

void vfy_bounds_free(vfy_bounds *b)
{
    if (!b)
        return;
    for (int64_t k = 0; k < b->n_layers; k++) {
        if (b->lo)
            vfy_free(b->lo[k]);
        if (b->hi)
            vfy_free(b->hi[k]);
    }
    vfy_free(b->lo);
    vfy_free(b->hi);
    vfy_bound_scratch *s = b->scratch;
    if (s) {
        scratch_free_rows(s);
        vfy_free(s->m);
        vfy_free(s->r);
        vfy_free(s->H);
        vfy_free(s->G);
        vfy_free(s->tmax);
        vfy_free(s->tcnt);
        vfy_free(s->c);
        vfy_free(s->R);
        vfy_free(s->s_up);
        vfy_free(s->t_up);
        vfy_free(s->s_lo);
        vfy_free(s->idx);
        vfy_free(s->cls);
        vfy_free(s->csr_ws);
        vfy_free(s->conv_ws);
        free_per_layer(s->q, b->n_layers);
        free_per_layer(s->qf, b->n_layers);
        free_per_layer(s->act, b->n_layers);
        vfy_free(s->tiny32);
        double **cen[] = {&s->cen_c, &s->cen_ac, &s->cen_r, &s->cen_lo,
                          &s->cen_hi, &s->cen_wc, &s->cen_wce, &s->cen_q};
        for (size_t i = 0; i < sizeof cen / sizeof cen[0]; i++)
            vfy_free(*cen[i]);
        vfy_free(s->fws);
        vfy_free(s->gws);
        vfy_free(s->fac_v);
        vfy_free(s->fac_vc);
        vfy_free(s->fac_pos);
        vfy_free(s->fac_corr);
        vfy_free(s->fac_err);
        vfy_free(s->fac_lam);
        vfy_free(s->fac_ord);
        vfy_free(s->fac_h);
        vfy_free(s->fac_mm);
        vfy_free(s->fac_bits);
        vfy_free(s->fac_pre);
        vfy_free(s->fac_box);
        vfy_free(s->fac_rdy);
        vfy_free(s->hsum);
        vfy_free(s->alpha);
        vfy_free(s->tape);
        vfy_free(s->grad);
        vfy_free(s->adam_m);
        vfy_free(s->adam_v);
        vfy_free(s->pv);
        vfy_free(s->pv2);
        vfy_free(s->best_lb);
        vfy_free(s->ctmp);
        vfy_free(s->pval);
        vfy_free(s->plb);
        vfy_free(s->ov_alpha);
        vfy_free(s->ov_beta);
        vfy_free(s->sl_alpha);
        vfy_free(s->rc_lines);
        vfy_free(s->rc_tiny);
        vfy_free(s->rc_idx);
        vfy_free(s->rc_cnt);
        vfy_free(s->beta_v);
        vfy_free(s->beta_g);
        vfy_free(s->beta_m);
        vfy_free(s->beta_s);
        vfy_free(s->best_beta);
        vfy_free(s->best_alpha);
        vfy_free(s->sp_layer);
        vfy_free(s->sp_j);
        vfy_free(s->sp_off);
        vfy_free(s->bsegs);
        vfy_free(s->wsegs);
        vfy_free(s->job_rows);
        vfy_free(s->job_seg);
        vfy_free(s->cyb);
        vfy_free(s->cxb);
        vfy_free(s->lbb);
        vfy_free(s->lamb);
        vfy_free(s->cinb);
        vfy_free(s->wrow);
        vfy_free(s->row_done);
        double **sa[] = {&s->sal_lo, &s->sal_up, &s->sgrad_lo, &s->sgrad_up, &s->sm_lo, &s->sm_up,
                         &s->sv_lo, &s->sv_up, &s->stape, &s->sza, &s->sla, &s->stl};
        for (size_t i = 0; i < sizeof sa / sizeof sa[0]; i++)
            vfy_free(*sa[i]);
        vfy_free(s->mtape);
        double **pa[] = {&s->pal, &s->pal_g, &s->pal_m1, &s->pal_m2};
        for (size_t i = 0; i < sizeof pa / sizeof pa[0]; i++)
            vfy_free(*pa[i]);
        vfy_free(s);
    }
    vfy_free(b);
}

vfy_bounds *vfy_bounds_create(const vfy_bound_ctx *ctx)
{
    const vfy_net *net = ctx->net;
    vfy_bounds *b = vfy_alloc(sizeof *b);
    if (!b)
        return NULL;
    b->n_layers = net->n_layers;
    b->lo = vfy_alloc_array((size_t)net->n_layers + 1, sizeof(double *));
    b->hi = vfy_alloc_array((size_t)net->n_layers + 1, sizeof(double *));
    vfy_bound_scratch *s = b->scratch = vfy_alloc(sizeof *s);
    if (!b->lo || !b->hi || !s)
        goto fail;
    s->width = vfy_net_max_width(net);
    size_t w = (size_t)s->width;
    int64_t conv_len = 0;
    s->m = vfy_alloc_array(w, sizeof(double));
    s->r = vfy_alloc_array(w, sizeof(double));
    s->H = vfy_alloc_array(w, sizeof(double));
    s->G = vfy_alloc_array(w, sizeof(double));
    s->tmax = vfy_alloc_array(w, sizeof(double));
    s->tcnt = vfy_alloc_array(w, sizeof(int64_t));
    s->c = vfy_alloc_array(w, sizeof(double));
    s->R = vfy_alloc_array(w, sizeof(double));
    s->s_up = vfy_alloc_array(w, sizeof(double));
    s->t_up = vfy_alloc_array(w, sizeof(double));
    s->s_lo = vfy_alloc_array(w, sizeof(double));
    s->idx = vfy_alloc_array(w, sizeof(int64_t));
    s->cls = vfy_alloc_array(2 * w, sizeof(int64_t));
    s->q = vfy_alloc_array((size_t)net->n_layers + 1, sizeof(double *));
    s->act = vfy_alloc_array((size_t)net->n_layers + 1, sizeof(double *));
    s->hsum = vfy_alloc_array((size_t)net->n_layers + 1, sizeof(double));
    s->f32_from = F32_OFF;
    s->qf = vfy_alloc_array((size_t)net->n_layers + 1, sizeof(double *));
    s->tiny32 = vfy_alloc_array((size_t)net->n_layers + 1, sizeof(double));
    if (!s->qf || !s->tiny32)
        goto fail;
    const vfy_layer *L0 = net->n_layers > 0 ? &net->layers[0] : NULL;
    if (L0 && L0->kind == VFY_LAYER_DENSE && !L0->conv && !L0->csr && ctx->wf[0]) {
        s->cen_c = vfy_alloc_array((size_t)L0->n_in, sizeof(double));
        s->cen_ac = vfy_alloc_array((size_t)L0->n_in, sizeof(double));
        s->cen_r = vfy_alloc_array((size_t)L0->n_in, sizeof(double));
        s->cen_lo = vfy_alloc_array((size_t)L0->n_in, sizeof(double));
        s->cen_hi = vfy_alloc_array((size_t)L0->n_in, sizeof(double));
        s->cen_wc = vfy_alloc_array((size_t)L0->n_out, sizeof(double));
        s->cen_wce = vfy_alloc_array((size_t)L0->n_out, sizeof(double));
        s->cen_q = vfy_alloc_array((size_t)L0->n_out, sizeof(double));
        if (!s->cen_c || !s->cen_ac || !s->cen_r || !s->cen_lo || !s->cen_hi || !s->cen_wc ||
            !s->cen_wce || !s->cen_q)
            goto fail;
    }
    if (!s->m || !s->r || !s->H || !s->G || !s->tmax || !s->tcnt || !s->c || !s->R || !s->s_up ||
        !s->t_up || !s->s_lo ||
        !s->idx || !s->cls || !s->q || !s->act || !s->hsum)
        goto fail;
    for (int64_t k = 0; k < net->n_layers; k++) {
        const vfy_layer *L = &net->layers[k];
        if (L->kind == VFY_LAYER_DENSE && L->csr && !s->csr_ws) {
            s->csr_ws = vfy_alloc_array(2 * VFY_CSR_BLOCK * w, sizeof(double));
            if (!s->csr_ws)
                goto fail;
        }
        if (L->kind == VFY_LAYER_DENSE && L->conv)
            conv_len = conv_len > vfy_la_conv_ws_len(L->conv) ? conv_len
                                                               : vfy_la_conv_ws_len(L->conv);
        b->lo[k] = vfy_alloc_array((size_t)L->n_out, sizeof(double));
        b->hi[k] = vfy_alloc_array((size_t)L->n_out, sizeof(double));
        if (!b->lo[k] || !b->hi[k])
            goto fail;
        if (L->kind == VFY_LAYER_DENSE || L->kind == VFY_LAYER_SCALE) {
            s->q[k] = vfy_alloc_array((size_t)L->n_out, sizeof(double));
            if (!s->q[k])
                goto fail;
            if (ctx->wf[k] && !(s->qf[k] = vfy_alloc_array((size_t)L->n_out, sizeof(double))))
                goto fail;
        } else if (vfy_layer_passes(L->kind)) {
            /* (SIGN and the convex kinds: their lines only, no pieces) */
            int64_t per = ACT_CACHE +
                          (act_has_pieces(L->kind) ? ACT_PIECE_LEN(ACT_ALPHA_PIECES) : 0);
            s->act[k] = vfy_alloc_array((size_t)(per * L->n_out), sizeof(double));
            if (!s->act[k])
                goto fail;
            for (int64_t j = 0; j < 2 * L->n_out; j++)
                s->act[k][j] = NAN; /* no bounds cached yet */
        }
    }
    if (conv_len && !(s->conv_ws = vfy_alloc_array((size_t)conv_len, sizeof(double))))
        goto fail;
    int64_t rows = 2 * s->width < ctx->chunk_rows ? 2 * s->width : ctx->chunk_rows;
    if (!scratch_reserve(s, rows + 8))
        goto fail;
    return b;
fail:
    vfy_bounds_free(b);
    return NULL;
}

int64_t vfy_bound_chunk_rows(const vfy_net *net)
{
    /* halved while 3 buffers of rows + 8 rows of the widest layer pass the budget: a 224 x 224
     * image's 150,528 inputs took 303 MB a buffer, 2.7 GB a worker in the three vfy_bounds it
     * holds, past the default memory ceiling before anything was bounded */
    double width = (double)vfy_net_max_width(net);
    int64_t rows = VFY_BOUND_CHUNK_ROWS;
    while (rows > VFY_BOUND_CHUNK_ROWS_MIN &&
           24.0 * width * (double)(rows + 8) > VFY_BOUND_CHUNK_BYTES)
        rows /= 2;
    return rows;
}

void vfy_bound_widen_input(const vfy_bound_ctx *ctx, int64_t n, double *lo, double *hi)
{
    if (!ctx->float_semantics)
        return;
    /* SOUND: |fl32(x) - x| <= 2^-24 |x| for x in the float32 range, so x and fl32(x) lie in
     * [lo - 2^-24|lo|, hi + 2^-24|hi|] (a subnormal result is within 2^-150 absolute: covered by the
     * extra 2^-149). */
    for (int64_t j = 0; j < n; j++) {
        lo[j] = vfy_sub_down(lo[j], vfy_add_up(vfy_mul_up(fabs(lo[j]), 0x1p-24), ETA32));
        hi[j] = vfy_add_up(hi[j], vfy_add_up(vfy_mul_up(fabs(hi[j]), 0x1p-24), ETA32));
    }
}

static const double *layer_in_lo(const vfy_bounds *b, int64_t k, const double *in_lo)
{
    return k == 0 ? in_lo : b->lo[k - 1];
}
static const double *layer_in_hi(const vfy_bounds *b, int64_t k, const double *in_hi)
{
    return k == 0 ? in_hi : b->hi[k - 1];
}

/* The float32 product P = fl32(lam' W) of backward, lam' = lam rounded to float32 (la.h):
 *   lam W v - P v = (lam - lam') W v + (lam' W - P) v, and with |v| <= H, G = |W| H,
 *   |(lam - lam') W v| <= sum_i (2^-24 |lam_i| + 2^-126) G_i,
 *   |(lam' W - P) v|  <= gamma32(n_out) sum_i ((1 + 2^-23) |lam_i| + 2^-126) G_i
 *                        + (2 n_out + 2) 2^-126 sum_j H_j,
 * so per unit of |lam_i| the charge is f32_charge(n_out) G_i, plus an absolute term (tiny32). */
static double f32_charge(int64_t n_out)
{
    return vfy_add_up(vfy_mul_up(vfy_la_gamma32(n_out), 1.0 + 0x1p-23), 0x1p-24);
}

/* Per row j of DENSE layer k, at least the largest product |w_ji| H_i (up to its rounding to
 * nearest) in s->tmax[j], and the number of i with w_ji != 0 and H_i > 0 in s->tcnt[j] (H is
 * s->H): the terms a float execution of the row can round (an exact zero adds nothing). hmax is the
 * largest H_i, hc the number of H_i > 0. */
static void row_terms(const vfy_bound_ctx *ctx, vfy_bound_scratch *s, int64_t k, double hmax,
                      int64_t hc)
{
    const double *H = s->H;
    double *tmax = s->tmax;
    int64_t *cnt = s->tcnt;
    /* the row's largest |w| times the largest H (exact maxima would cost a pass over |W| per
     * layer and domain, a twentieth of the search's time on mnist_fc, for bounds within 1% on
     * oval21's nets); the count from the inputs with H > 0 when no weight is 0 */
    const vfy_layer *L = &ctx->net->layers[k];
    const double *rmax = ctx->rowmax[k];
    int64_t n_in = L->n_in;
    if (s->conv_ok) {
        /* the counts as a convolution of the indicator of H > 0 with that of w != 0: sums of at
         * most n_in ones, exact in double (scratch: the IBP vectors c and R, filled after) */
        for (int64_t i = 0; i < n_in; i++)
            s->c[i] = H[i] > 0;
        vfy_la_conv_fwd(L->conv, VFY_CONV_NZ, 1, s->c, s->R, s->conv_ws);
        for (int64_t j = 0; j < L->n_out; j++) {
            tmax[j] = rmax[j] * hmax;
            cnt[j] = (int64_t)s->R[j];
        }
        return;
    }
    for (int64_t j = 0; j < L->n_out; j++) {
        tmax[j] = rmax[j] * hmax;
        int64_t c = 0;
        if (L->csr) {
            const vfy_csr *a = L->csr;
            for (int64_t p = a->row_start[j]; p < a->row_start[j + 1]; p++)
                c += a->val[p] != 0 && H[a->col[p]] > 0;
        } else if (ctx->wfull[k]) {
            c = hc;
        } else {
            const double *row = ctx->absw[k] + j * n_in;
            for (int64_t i = 0; i < n_in; i++)
                c += row[i] > 0 && H[i] > 0;
        }
        cnt[j] = c;
    }
}

/* The radius about m = (lo + hi) / 2, rounded up: [m - r, m + r] contains [lo, hi] in real
 * arithmetic (affine_prepare's, and the centred form's, which must be the same box). */
static inline double box_radius(double lo, double hi, double m)
{
    return fmax(vfy_sub_up(hi, m), vfy_sub_up(m, lo));
}

/* The input layer's float32 product in centred form. For the box's centre c and radius r (rounded
 * up: [c - r, c + r] contains [lo, hi]) every x of the box is c + d with |d| <= r, and with
 * P = fl32(lam' W) (f32_charge):
 *     lam W x = P x + (lam W - P) c + (lam W - P) d,
 * where backward adds T = lam (W c) - P c to the row's constant (cen_correct) and charges
 * |(lam W - P) d| as f32_charge does with v = d: f32_charge(n_out) G_i per unit of |lam_i| with
 * G = |W| r, plus (2 n_out + 2) 2^-126 sum r and the 2^-126 terms of G (cen_tiny). So the charge
 * scales with the box's radius; f32_charge's with its magnitudes (an MNIST pixel's 1 against a
 * radius of 0.05). W c is computed once per box: SOUND: |fl(W c) - W c| <= gamma(n_in) |W| |c|
 * plus n_in 2^-1074 per entry for underflow (cen_wce, its own products rounded up by 1 + g).
 * affine_prepare only records the box (CEN_STALE): the products are made at the first pass that
 * uses them (cen_fits), since most of the passes that prepare the input layer never do, and kept
 * while the box stays the same (it is one box, bit for bit, and so the same q_0 and terms). */
static void cen_compute(const vfy_bound_ctx *ctx, vfy_bound_scratch *s)
{
    const vfy_layer *L = &ctx->net->layers[0];
    int64_t n_in = L->n_in, n_out = L->n_out;
    double sum_r = 0.0, sum_g = 0.0, g = vfy_la_gamma(n_in + n_out), c32 = f32_charge(n_out);
    const double *q = s->q[0];
    int ok = 1;
    for (int64_t j = 0; j < n_in; j++) {
        /* (affine_prepare's centre and radius) */
        double lo = s->cen_lo[j], hi = s->cen_hi[j], m = 0.5 * (lo + hi);
        double r = box_radius(lo, hi, m);
        s->cen_c[j] = m;
        s->cen_ac[j] = fabs(m);
        s->cen_r[j] = r;
        sum_r = vfy_add_up(sum_r, r);
        ok = ok && isfinite(m) && isfinite(r);
    }
    s->cen_state = CEN_BAD;
    if (!ok)
        return;
    vfy_la_gemv(n_out, n_in, L->w, s->cen_c, s->cen_wc, 0);
    vfy_la_gemv(n_out, n_in, ctx->absw[0], s->cen_r, s->cen_q, 0);
    vfy_la_gemv(n_out, n_in, ctx->absw[0], s->cen_ac, s->cen_wce, 0);
    double ge = vfy_la_gamma(n_in), go = vfy_la_gamma(n_out), tiny = (double)(n_in + 2) * ETA64;
    for (int64_t j = 0; j < n_out; j++) {
        double G = vfy_mul_up(s->cen_q[j], 1.0 + g);
        sum_g = vfy_add_up(sum_g, G);
        s->cen_q[j] = vfy_add_up(q[j], vfy_mul_up(c32, G));
        double e = vfy_add_up(vfy_mul_up(ge, vfy_mul_up(s->cen_wce[j], 1.0 + g)), tiny);
        s->cen_wce[j] = vfy_add_up(e, vfy_mul_up(go, fabs(s->cen_wc[j])));
        ok = ok && isfinite(s->cen_wc[j]) && isfinite(s->cen_q[j]) && isfinite(s->cen_wce[j]);
    }
    s->cen_tiny = vfy_mul_up(0x1p-125, vfy_add_up(vfy_add_up(sum_g, 1.0),
                                                  vfy_mul_up((double)(n_out + 1), sum_r)));
    if (ok && isfinite(s->cen_tiny))
        s->cen_state = CEN_OK;
}

/* The box [lo, hi] lies in the one the input layer was prepared for, so in [c - r, c + r], and the
 * centred form's terms are finite: backward may then charge the input layer's float32 product in
 * centred form. (The test without branches, so that the loop vectorises: a NaN end point fails.) */
static int cen_fits(const vfy_bound_ctx *ctx, vfy_bound_scratch *s, const double *lo,
                    const double *hi)
{
    if (s->cen_state == CEN_NONE || s->cen_state == CEN_BAD || s->cen_ctx != ctx)
        return 0;
    int out = 0;
    for (int64_t j = 0; j < ctx->net->layers[0].n_in; j++)
        out |= !(lo[j] >= s->cen_lo[j]) | !(hi[j] <= s->cen_hi[j]);
    if (out)
        return 0;
    if (s->cen_state == CEN_STALE)
        cen_compute(ctx, s);
    return s->cen_state == CEN_OK;
}

/* The perturbation/rounding coefficient of affine layer k (see the file comment), from the bounds
 * of its input. Fills s->q[k], s->hsum[k] (and s->qf[k], s->tiny32[k]); leaves the midpoint m,
 * radius r (both such that [m - r, m + r] contains [lo, hi]) and H in the scratch for IBP. */
static void affine_prepare(const vfy_bound_ctx *ctx, vfy_bounds *b, int64_t k, const double *lo,
                           const double *hi)
{
    const vfy_layer *L = &ctx->net->layers[k];
    vfy_bound_scratch *s = b->scratch;
    int64_t n_in = L->n_in, n_out = L->n_out;
    double hsum = 0.0, hmax = 0.0;
    int64_t hc = 0;
    for (int64_t j = 0; j < n_in; j++) {
        double m = 0.5 * (lo[j] + hi[j]);
        /* SOUND: r is rounded up, so [m - r, m + r] ⊇ [lo, hi] in real arithmetic. */
        double r = box_radius(lo[j], hi[j], m);
        s->m[j] = m;
        s->r[j] = r;
        s->H[j] = fmax(fmax(fabs(lo[j]), fabs(hi[j])), r);
        hsum = vfy_add_up(hsum, s->H[j]);
        hmax = s->H[j] > hmax ? s->H[j] : hmax;
        hc += s->H[j] > 0;
    }
    s->hsum[k] = hsum;
    s->conv_ok = L->kind == VFY_LAYER_DENSE && L->conv && hsum < INFINITY; /* (NaN fails) */
    double g = vfy_la_gamma(n_in + n_out);
    double coef = g;
    if (L->w_relerr > 0)
        coef += L->w_relerr * (1.0 + 0x1p-30);
    coef = vfy_up(coef);
    double tiny = (double)(n_in + 2) * ETA64;
    if (ctx->float_semantics)
        tiny += (double)(L->fan_in + 2) * ETA32;
    tiny = vfy_up(tiny);
    /* a float execution's weights: |W_real| <= (1 + w_relerr) |W| */
    double wr = L->w_relerr > 0 ? vfy_add_up(1.0, L->w_relerr) : 1.0;
    double *q = s->q[k];
    /* the input layer's coefficients depend on the box alone: kept while it is the one recorded
     * (bit for bit: every domain below one root under ReLU splitting), as are the centred form's */
    size_t nb = (size_t)n_in * sizeof(double);
    int same_box = k == 0 && s->cen_c && s->cen_state != CEN_NONE && s->cen_ctx == ctx &&
                   !memcmp(s->cen_lo, lo, nb) && !memcmp(s->cen_hi, hi, nb);
    if (same_box)
        return;
    if (L->kind == VFY_LAYER_DENSE) {
        if (s->conv_ok)
            vfy_la_conv_fwd(L->conv, VFY_CONV_ABS, 1, s->H, s->G, s->conv_ws);
        else if (L->csr)
            vfy_la_csr_gemv(L->csr, s->H, s->G, 0, 1);
        else
            vfy_la_gemv(n_out, n_in, ctx->absw[k], s->H, s->G, 0);
        if (ctx->float_semantics)
            row_terms(ctx, s, k, hmax, hc);
        /* a rounded multiplier (1/k of an average) may be rounded once more by the runtime */
        int ops = L->w_relerr > 0 ? 2 : 1;
        double *qf = s->qf[k], sum_g = 0.0, c32 = f32_charge(n_out);
        for (int64_t j = 0; j < n_out; j++) {
            double G = vfy_mul_up(s->G[j], 1.0 + g);
            double bj = fabs(L->b[j]);
            q[j] = vfy_add_up(vfy_mul_up(coef, vfy_add_up(G, bj)), tiny);
            if (ctx->float_semantics) {
                /* SOUND: the float32 execution of row j (la.h): its terms' magnitudes sum to at
                 * most G + |b_j|, the largest is at most tmax or |b_j|, at most tcnt + 1 of them
                 * are nonzero; all times wr for the real weights */
                double A = vfy_mul_up(vfy_add_up(G, bj), wr);
                double M = vfy_mul_up(fmax(vfy_mul_up(s->tmax[j], 1.0 + 0x1p-52), bj), wr);
                M = M < A ? M : A; /* (every term is at most their sum) */
                int64_t m = s->tcnt[j] + (bj > 0);
                q[j] = vfy_add_up(q[j], vfy_la_exec_err32(A, M, m, ops));
            }
            if (qf) {
                qf[j] = vfy_add_up(q[j], vfy_mul_up(c32, G));
                sum_g = vfy_add_up(sum_g, G);
            }
        }
        /* the float product's underflow: 2^-126 |W v|_i per coefficient rounded to 0 or less
         * (sum G) and (2 n_out + 2) 2^-126 per entry of the product, times H (sum H) */
        if (qf)
            s->tiny32[k] = vfy_mul_up(0x1p-125, vfy_add_up(vfy_add_up(sum_g, 1.0),
                                                          vfy_mul_up((double)(n_out + 1), hsum)));
        /* the box the input layer's coefficients are for (and the centred form's: cen_compute) */
        if (k == 0 && s->cen_c) {
            s->cen_ctx = ctx;
            memcpy(s->cen_lo, lo, nb);
            memcpy(s->cen_hi, hi, nb);
            s->cen_state = CEN_STALE;
        }
    } else {
        /* SCALE: every term passes through at most fan_in + 2 roundings (net.h) */
        double c = coef;
        if (ctx->float_semantics)
            c = vfy_add_up(c, vfy_mul_up(vfy_la_gamma32n(L->fan_in + 2), wr));
        for (int64_t j = 0; j < n_out; j++) {
            double G = vfy_mul_up(fabs(L->w[j]), s->H[j]);
            q[j] = vfy_add_up(vfy_mul_up(c, vfy_add_up(G, fabs(L->b[j]))), tiny);
        }
    }
}

/* IBP through affine layer k:  out ∈ W m + b ± (|W| r + q).
 * SOUND: fl(W m + b) and fl(|W| r) each lie within gamma(n_in+1)(|W| H + |b|) of their exact values
 * and q_k covers that as well as the layer's perturbation; the final +/- use directed rounding. */
static void ibp_affine(const vfy_bound_ctx *ctx, vfy_bounds *b, int64_t k)
{
    const vfy_layer *L = &ctx->net->layers[k];
    vfy_bound_scratch *s = b->scratch;
    const double *q = s->q[k];
    if (s->conv_ok) {
        vfy_la_conv_fwd(L->conv, VFY_CONV_W, 1, s->m, s->c, s->conv_ws);
        vfy_la_conv_fwd(L->conv, VFY_CONV_ABS, 1, s->r, s->R, s->conv_ws);
    } else if (L->kind == VFY_LAYER_DENSE && L->csr) {
        vfy_la_csr_gemv(L->csr, s->m, s->c, 0, 0);
        vfy_la_csr_gemv(L->csr, s->r, s->R, 0, 1);
    } else if (L->kind == VFY_LAYER_DENSE) {
        vfy_la_gemv(L->n_out, L->n_in, L->w, s->m, s->c, 0);
        vfy_la_gemv(L->n_out, L->n_in, ctx->absw[k], s->r, s->R, 0);
    } else {
        for (int64_t j = 0; j < L->n_out; j++) {
            s->c[j] = L->w[j] * s->m[j];
            s->R[j] = fabs(L->w[j]) * s->r[j];
        }
    }
    for (int64_t j = 0; j < L->n_out; j++) {
        double c = s->c[j] + L->b[j];
        double rad = vfy_add_up(s->R[j], q[j]);
        b->lo[k][j] = vfy_sub_down(c, rad);
        b->hi[k][j] = vfy_add_up(c, rad);
    }
}

/* ReLU's upper line over [l, u] with l < 0 < u:  relu(z) <= s z + t,  s = u/(u - l).
 * SOUND for any computed s: relu is convex, so a line lies above it on [l, u] iff it lies above both
 * end points: s l + t >= 0 and s u + t >= u, i.e. t >= max(-s l, u - s u); t is rounded up. */
static void relu_upper_line(double l, double u, double *s_out, double *t_out)
{
    double s = u / (u - l);
    if (!(s >= 0.0))
        s = 0.0;
    if (s > 1.0)
        s = 1.0;
    double t1 = vfy_mul_up(-s, l);                 /* >= -s l */
    double t2 = vfy_sub_up(u, vfy_mul_down(s, u)); /* >= u - s u */
    *s_out = s;
    *t_out = fmax(fmax(t1, t2), 0.0);
}

void vfy_bound_relu_upper(double l, double u, double *s, double *t) { relu_upper_line(l, u, s, t); }

/* CROWN's default lower slope for an unstable ReLU: 1 when u > -l, else 0 (both exact). */
static double relu_lower_slope(double l, double u) { return u > -l ? 1.0 : 0.0; }

/* ---- Sigmoid, Tanh and Erf ----
 *
 * All three are increasing, f' is even and decreasing in |z| (so f is convex for z <= 0 and concave
 * for z >= 0), sigmoid' = s (1 - s) in (0, 1/4], tanh' = 1 - t^2 in (0, 1], erf' = C e^(-z^2) in
 * (0, C], C = 2 / sqrt(pi); tanh and erf are odd, sigmoid(-z) = 1 - sigmoid(z).
 *
 * Enclosure of the real function at a double z (act_enclose). We rely on libm: glibc documents exp
 * and erf within 1 ulp and tanh within 2 ulp (its libm-test-ulps tables); we assume at most 2^-48
 * relative (16 ulp) for all three. sigmoid(z) is computed as 1/(1 + exp(-z)); for z >= -700,
 * exp(-z) <= e^700 is finite and s(z) >= e^-700 / 2 is a normal double, so the three steps
 * (exp, +, /) perturb the result by a relative (1 + d1)(1 + d2)(1 + d3) with
 * |d1| <= 2^-48 + 2^-1074 (an underflowing exp adds at most 2^-1074 to 1 + exp),
 * |d2|, |d3| <= 2^-53: in all below 2^-47. For z < -700, 0 < s(z) < e^z <= e^-700 < 2^-1000.
 * tanh(z) and erf(z) are libm's; a subnormal result is off by a few 2^-1074 at most. Hence the
 * value widened by 2^-46 |v| + 2^-1060 (rounded outward) and clamped to the range (0, 1) or
 * (-1, 1) encloses the real f(z).
 *
 * Float executions (ctx->float_semantics): a runtime does not compute these functions exactly, and
 * onnxruntime does not even use libm: its MLAS kernels evaluate a clamped rational approximation
 * (sigmoid clamped to [-18, 18], tanh to [-9, 9]) in float32. Its error is absolute, not relative:
 * sigmoid(-17) = 4e-8 comes out near 2e-7. Measured against a long-double reference on every 61st
 * float32 of |x| <= 64 (with and without fma), the largest errors are 2.0e-7 (sigmoid) and 3.6e-7
 * (tanh); glibc's expf/tanhf/erff (our vfy_eval_f32) stay below 1e-7, and onnxruntime's Erf is
 * a float32 polynomial of like accuracy (MlasComputeErf). We charge ACT_EXEC_ERR = 2^-19
 * = 1.9e-6 absolute per activation output (5x the worst measured), in IBP and in the backward pass.
 * This is an assumption about the runtime's activation kernels, stated in docs/soundness.md. */
#define ACT_LIBM_REL 0x1p-46
#define ACT_EXEC_ERR 0x1p-19
/* Lines are certified on ACT_PIECES sub-intervals; below ACT_MIN_WIDTH the constants are used. */
#define ACT_PIECES 64
#define ACT_MIN_WIDTH 0x1p-20

static double act_range_lo(vfy_layer_kind kind) { return kind == VFY_LAYER_SIGMOID ? 0.0 : -1.0; }

/* ---- Convex and concave functions: Exp, the reciprocal, Sqrt, Log, Softplus ----
 *
 * Each is monotone, and convex or concave on each piece of its domain:
 *   exp       increasing, convex               every real
 *   1/v       decreasing, convex on v > 0,     v != 0
 *             concave on v < 0
 *   sqrt      increasing, concave              v >= 0
 *   log       increasing, concave              v > 0
 *   softplus  increasing, convex               every real; log(1 + e^v) = max(v, 0) + log1p(e^-|v|)
 * A Softmax inside the graph is lowered as s_i = 1 / (1 + sum_{j != i} exp(x_j - x_i)): DENSE
 * differences, EXP, DENSE sums (bias 1), RECIP (graph.c); those two layers carry the Softmax's
 * length in fan_in (vfy_layer_in_softmax).
 * Enclosures of the real f at a double z (conv_enclose), each rounded outward: exp and log by libm,
 * within 2^-46 |v| + 2^-1060 of libm's value v (as for Sigmoid, ACT_LIBM_REL; glibc documents 1
 * ulp), exp's clamped at 0; 1/v and sqrt by the correctly rounded IEEE division and square root,
 * one ulp outward; softplus from e = exp(-|z|) in (0, 1] enclosed as above, log1p (increasing, the
 * same libm assumption) at the ends of e's enclosure, plus max(z, 0) (exact), at least max(z, 0).
 * Outside the domain the whole real line (no claim).
 * The range over [l, u] inside one piece of the domain (conv_range): the enclosures at the ends
 * (monotone); across or touching a pole or outside the domain, the whole real line.
 * Lines on [l, u] (l < u finite, inside one piece), for any computed slope s:
 *   the chord's side (above a convex f, below a concave one): g = f - s z is convex (concave), so
 *     its largest (least) value on [l, u] is at an end:
 *       convex:  f(z) <= s z + max(Fhi(l) - s l, Fhi(u) - s u),
 *       concave: f(z) >= s z + min(Flo(l) - s l, Flo(u) - s u),
 *     rounded outward, s the chord's slope as computed;
 *   the tangent's side, at d in [l, u]: with s = f'(d) as computed, err >= |f'(d) - s| from an
 *     enclosure of f'(d), and W >= |z - d| on [l, u], for every z there
 *       convex:  f(z) >= f(d) + f'(d)(z - d) = s z + (f(d) - s d) + (f'(d) - s)(z - d)
 *                     >= s z + Flo(d) - s d - err W,
 *       concave: f(z) <= s z + Fhi(d) - s d + err W,
 *     rounded outward; d the midpoint (the least area between tangent and f), for 1/v the
 *     geometric mean +-sqrt(l u) (as the Softmax's lines always had); f'(d) enclosed from the
 *     enclosure of f(d) or from d: exp' = exp, (1/v)' = -(1/v)^2, sqrt' = 1/(2 sqrt),
 *     log' = 1/v, softplus' = sigmoid = e/(1 + e), e = e^d (d < 0), = 1/(1 + e^-d) (d >= 0).
 * Where a value is not finite, the constants of the range (its ends).
 * Float executions (ctx->float_semantics): inside a lowered Softmax the runtime's own kernel is
 * assumed within 2^-19 + n 2^-23 of the real Softmax (n its length, in RECIP's fan_in;
 * docs/soundness.md), charged at RECIP; EXP charges nothing there. A standalone layer's executed
 * value is assumed within rel |f| + abs of the real f at its (float) input (conv_exec): a float32
 * division and sqrtf are correctly rounded (2^-24 relative, + 2^-149 for a subnormal quotient);
 * expf and logf within 2^-21 relative (a few ulp) + 2^-146; a runtime's Softplus, often computed
 * as log(1 + exp(x)) (absolute error about 2^-24 where exp(x) is below float32's precision of 1),
 * within 2^-21 |f| + 2^-21. It is charged per neuron from a bound of |f| over the input's
 * interval (the larger enclosure end, f being monotone). */
static int conv_domain(vfy_layer_kind kind, double l, double u)
{
    switch (kind) {
    case VFY_LAYER_RECIP: return l > 0 || u < 0;
    case VFY_LAYER_SQRT: return l >= 0;
    case VFY_LAYER_LOG: return l > 0;
    default: return 1; /* (exp, softplus) */
    }
}

/* exp(z) enclosed from libm's value (a NaN or an overflow: [0, inf]). */
static void exp_enclose(double z, double *lo, double *hi)
{
    double v = exp(z);
    if (isnan(v)) {
        *lo = 0;
        *hi = INFINITY;
        return;
    }
    /* SOUND: |v - e^z| <= 2^-46 |v| + 2^-1060 under the libm assumption */
    double d = vfy_add_up(vfy_mul_up(v, ACT_LIBM_REL), 0x1p-1060);
    *lo = fmax(vfy_sub_down(v, d), 0.0);
    *hi = vfy_add_up(v, d);
}

static void conv_enclose(vfy_layer_kind kind, double z, double *lo, double *hi)
{
    *lo = kind == VFY_LAYER_EXP || kind == VFY_LAYER_SOFTPLUS ? 0.0 : -INFINITY;
    *hi = INFINITY;
    if (isnan(z))
        return;
    switch (kind) {
    case VFY_LAYER_EXP: exp_enclose(z, lo, hi); return;
    case VFY_LAYER_RECIP:
        if (z != 0) { /* SOUND: the correctly rounded quotient, one ulp outward */
            *lo = vfy_div_down(1.0, z);
            *hi = vfy_div_up(1.0, z);
        }
        return;
    case VFY_LAYER_SQRT:
        if (z >= 0) { /* SOUND: the correctly rounded root, one ulp outward */
            *lo = vfy_sqrt_down(z);
            *hi = vfy_sqrt_up(z);
        }
        return;
    case VFY_LAYER_LOG:
        if (z == INFINITY) {
            *lo = 709; /* (log(DBL_MAX) > 709) */
        } else if (z > 0) { /* SOUND: the libm assumption, as for exp */
            double v = log(z), d = vfy_add_up(vfy_mul_up(fabs(v), ACT_LIBM_REL), 0x1p-1060);
            *lo = vfy_sub_down(v, d);
            *hi = vfy_add_up(v, d);
        }
        return;
    default: { /* SOFTPLUS */
        double m = fmax(z, 0.0), elo, ehi;
        if (m == INFINITY) {
            *lo = INFINITY;
            return;
        }
        /* SOUND: e = e^-|z| in [elo, ehi] within (0, 1]; log1p is increasing, and its libm values
         * at the ends, widened by the libm assumption, enclose log1p(e); adding m is exact up to
         * the outward rounding; softplus(z) > m */
        exp_enclose(-fabs(z), &elo, &ehi);
        ehi = fmin(ehi, 1.0);
        double p = log1p(elo), q = log1p(ehi);
        double plo = fmax(vfy_sub_down(p, vfy_add_up(vfy_mul_up(p, ACT_LIBM_REL), 0x1p-1060)), 0);
        double qhi = vfy_add_up(q, vfy_add_up(vfy_mul_up(q, ACT_LIBM_REL), 0x1p-1060));
        *lo = fmax(vfy_add_down(m, plo), m);
        *hi = vfy_add_up(m, qhi);
        return;
    }
    }
}

/* [*lo, *hi] ⊇ f([l, u]) (l <= u): the enclosures at the ends of a piece of the domain (f is
 * monotone there), else the whole real line. */
static void conv_range(vfy_layer_kind kind, double l, double u, double *lo, double *hi)
{
    double t;
    *lo = -INFINITY;
    *hi = INFINITY;
    if (!(l <= u) || !conv_domain(kind, l, u))
        return;
    int dec = kind == VFY_LAYER_RECIP;
    conv_enclose(kind, dec ? u : l, lo, &t);
    conv_enclose(kind, dec ? l : u, &t, hi);
}

/* [*dlo, *dhi] ∋ f'(d), [flo, fhi] ∋ f(d), d inside the domain. SOUND: exp' = exp; 1/v keeps the
 * sign of d, so (1/v)^2 lies between the squares of the enclosure's ends; sqrt' = 1/(2 sqrt(d)) =
 * 0.5 / f(d); log' = 1/d; softplus' = sigmoid(d) = e/(1 + e) (e = e^d), increasing in e, or
 * 1/(1 + e) (e = e^-d), decreasing in e; every operation rounded outward. */
static void conv_deriv(vfy_layer_kind kind, double d, double flo, double fhi, double *dlo,
                       double *dhi)
{
    switch (kind) {
    case VFY_LAYER_EXP:
        *dlo = flo;
        *dhi = fhi;
        return;
    case VFY_LAYER_RECIP: {
        double a = fmin(fabs(flo), fabs(fhi)), b = fmax(fabs(flo), fabs(fhi));
        *dlo = -vfy_mul_up(b, b);
        *dhi = -vfy_mul_down(a, a);
        return;
    }
    case VFY_LAYER_SQRT:
        *dlo = vfy_div_down(0.5, fhi);
        *dhi = flo > 0 ? vfy_div_up(0.5, flo) : INFINITY;
        return;
    case VFY_LAYER_LOG:
        *dlo = vfy_div_down(1.0, d);
        *dhi = vfy_div_up(1.0, d);
        return;
    default: { /* SOFTPLUS */
        double elo, ehi;
        exp_enclose(d < 0 ? d : -d, &elo, &ehi);
        if (d < 0) {
            *dlo = vfy_div_down(elo, vfy_add_up(1.0, elo));
            *dhi = vfy_div_up(ehi, vfy_add_down(1.0, ehi));
        } else {
            *dlo = vfy_div_down(1.0, vfy_add_up(1.0, ehi));
            *dhi = vfy_div_up(1.0, vfy_add_down(1.0, elo));
        }
        return;
    }
    }
}

/* The chord's slope on [l, u], the tangent point d and f'(d), in plain double: choices only (the
 * intercepts are certified for whatever comes out). */
static double conv_chord(vfy_layer_kind kind, double l, double u)
{
    switch (kind) {
    case VFY_LAYER_EXP: return (exp(u) - exp(l)) / (u - l);
    case VFY_LAYER_RECIP: return -1.0 / l / u;
    case VFY_LAYER_SQRT: return 1.0 / (sqrt(l) + sqrt(u));
    case VFY_LAYER_LOG: return log1p((u - l) / l) / (u - l);
    default: return (vfy_act_f64(kind, u) - vfy_act_f64(kind, l)) / (u - l);
    }
}

static double conv_point(vfy_layer_kind kind, double l, double u)
{
    double d = kind != VFY_LAYER_RECIP ? 0.5 * l + 0.5 * u
             : l > 0 ? sqrt(l) * sqrt(u) : -(sqrt(-l) * sqrt(-u));
    return fmin(fmax(d, l), u);
}

static double conv_slope(vfy_layer_kind kind, double d)
{
    switch (kind) {
    case VFY_LAYER_EXP: return exp(d);
    case VFY_LAYER_RECIP: return -(1.0 / d) * (1.0 / d);
    case VFY_LAYER_SQRT: return 0.5 / sqrt(d);
    case VFY_LAYER_LOG: return 1.0 / d;
    default: return vfy_act_f64(VFY_LAYER_SIGMOID, d);
    }
}

/* The lines of a vfy_layer_is_convex kind on [l, u] (see above): the chord on one side, the
 * tangent on the other; the range's constants where a line cannot be made; outside the domain
 * (or across a pole) no lines at all (intercepts -inf and +inf). */
static void conv_lines(vfy_layer_kind kind, double l, double u, double *sl, double *tl, double *su,
                       double *tu)
{
    *sl = *su = 0;
    conv_range(kind, l, u, tl, tu);
    if (!(l < u) || !(u - l < INFINITY) || !conv_domain(kind, l, u))
        return;
    int cvx = kind == VFY_LAYER_EXP || kind == VFY_LAYER_SOFTPLUS ||
              (kind == VFY_LAYER_RECIP && l > 0);
    double l0, l1, u0, u1, t;
    conv_enclose(kind, l, &l0, &l1);
    conv_enclose(kind, u, &u0, &u1);
    double s = conv_chord(kind, l, u);
    if (cvx) { /* SOUND: f - s z convex, largest at an end; the upper enclosures, rounded up */
        t = fmax(vfy_sub_up(l1, vfy_mul_down(s, l)), vfy_sub_up(u1, vfy_mul_down(s, u)));
        if (isfinite(s) && isfinite(t)) {
            *su = s;
            *tu = t;
        }
    } else { /* SOUND: f - s z concave, least at an end; the lower enclosures, rounded down */
        t = fmin(vfy_sub_down(l0, vfy_mul_up(s, l)), vfy_sub_down(u0, vfy_mul_up(s, u)));
        if (isfinite(s) && isfinite(t)) {
            *sl = s;
            *tl = t;
        }
    }
    double d = conv_point(kind, l, u), flo, fhi, dlo, dhi;
    conv_enclose(kind, d, &flo, &fhi);
    conv_deriv(kind, d, flo, fhi, &dlo, &dhi);
    s = conv_slope(kind, d);
    double w = fmax(vfy_sub_up(d, l), vfy_sub_up(u, d));
    double err = fmax(fmax(vfy_sub_up(dhi, s), vfy_sub_up(s, dlo)), 0.0);
    if (cvx) { /* SOUND: f(z) >= s z + Flo(d) - s d - err W (see above), rounded down */
        t = vfy_sub_down(vfy_sub_down(flo, vfy_mul_up(s, d)), vfy_mul_up(err, w));
        if (isfinite(s) && isfinite(t)) {
            *sl = s;
            *tl = t;
        }
    } else { /* SOUND: f(z) <= s z + Fhi(d) - s d + err W, rounded up */
        t = vfy_add_up(vfy_sub_up(fhi, vfy_mul_down(s, d)), vfy_mul_up(err, w));
        if (isfinite(s) && isfinite(t)) {
            *su = s;
            *tu = t;
        }
    }
}

/* Whether a proof may be claimed with layer L's input in [l, u]: exp's input bounded and at most
 * 700 (as the Softmax's always was); a Softmax's reciprocal on [1, inf), any other on a bounded
 * interval on one side of 0; sqrt's and log's inputs bounded and >= 0, > 0; softplus's not NaN.
 * Otherwise the domain claims nothing (b->overflow), in every semantics. */
static int conv_claims(const vfy_layer *L, double l, double u)
{
    switch (L->kind) {
    case VFY_LAYER_EXP: return u <= 700 && l > -INFINITY;
    case VFY_LAYER_RECIP:
        if (vfy_layer_in_softmax(L))
            return l >= 1 && u < INFINITY;
        return (l > 0 || u < 0) && l > -INFINITY && u < INFINITY;
    case VFY_LAYER_SQRT: return l >= 0 && u < INFINITY;
    case VFY_LAYER_LOG: return l > 0 && u < INFINITY;
    default: return l <= u; /* (SOFTPLUS; false for NaN) */
    }
}

/* A standalone layer's float execution (not a Softmax's): within rel |f| + abs of the real f. */
static void conv_exec(vfy_layer_kind kind, double *rel, double *ab)
{
    switch (kind) {
    case VFY_LAYER_RECIP: *rel = 0x1p-24, *ab = 0x1p-149; return;
    case VFY_LAYER_SQRT: *rel = 0x1p-24, *ab = 0; return;
    case VFY_LAYER_SOFTPLUS: *rel = 0x1p-21, *ab = 0x1p-21; return;
    case VFY_LAYER_GELU: *rel = 0x1p-19, *ab = 0x1p-19; return; /* (m: the input's magnitude) */
    case VFY_LAYER_SILU: *rel = 0x1p-18, *ab = 0x1p-18; return; /* (likewise) */
    case VFY_LAYER_ERFGATE: *rel = 0x1p-19, *ab = 0x1p-19; return; /* (likewise) */
    default: *rel = 0x1p-21, *ab = 0x1p-146; return; /* (EXP, LOG) */
    }
}

/* The allowance of a standalone layer's float execution at an output bounded by m in magnitude. */
static double conv_exec_err(vfy_layer_kind kind, double m)
{
    double rel, ab;
    conv_exec(kind, &rel, &ab);
    return vfy_add_up(vfy_mul_up(m, rel), ab);
}

/* SIN and COS.
 * Enclosures: sin and cos by libm, within 2^-46 |v| + 2^-1060 of the real value (the assumption of
 * the Sigmoid section above), clamped to [-1, 1]; where |z| > TRIG_MAX_ARG, or z is NaN, only
 * [-1, 1] (nothing rests on libm's argument reduction of huge arguments).
 * Range on [l, u] (IBP): the enclosures at the ends, widened to 1 where a maximum point of f (sin:
 * pi/2 + 2 pi k; cos: 2 pi k) may lie in [l, u], and to -1 where a minimum point may (sin:
 * -pi/2 + 2 pi k; cos: pi + 2 pi k). "May": the computed point c = c0 + k fl(2 pi) lies in
 * [l - d, u + d], d = 2^-30 (1 + |l| + |u|); the real point differs from c by less than
 * (|k| + 2) 2^-51 (1 + |c|), far below d for |l|, |u| <= TRIG_MAX_ARG. Beyond TRIG_MAX_ARG, or for
 * u - l >= 6, [-1, 1].
 * Lines: for any computed slope s, g(z) = f(z) - s z is largest and smallest on [l, u] at its ends
 * or where g'(z) = 0, f'(z) = s, which has solutions only for |s| <= 1:
 *   sin: cos z = s at z = +-acos(s) + 2 pi k;  cos: -sin z = s at z = -asin(s) + 2 pi k and
 *   pi + asin(s) + 2 pi k.
 * For each such real point c in [l, u] one computed point c' = c0' + k fl(2 pi) (k enumerated
 * over every value that can place it in [l - e, u + e]) lies within e = 2^-40 (1 + |c'|) of it
 * (libm's acos and asin, the assumption above, and the roundings of the sum err by far less), and
 * since g'(c) = 0 and |g''| = |f| <= 1, Taylor's theorem at c gives |g(c) - g(c')| <= e^2 / 2. So
 *   tu = max(Ghi(l), Ghi(u), Ghi(c') + e^2/2 over the computed c' in [l - e, u + e]),
 *   Ghi(z) = Fhi(z) - s z rounded up,
 * bounds g from above on [l, u] (a c' near no real critical point in [l, u] only raises the max),
 * and tl likewise from below. The slope: of the chord, f' at l, at the midpoint, at u, and 0, the
 * one whose line is lowest (upper) or highest (lower) at the midpoint, i.e. encloses the least
 * area with f; any choice is sound. Constant lines (the range) when [l, u] is not finite, narrower
 * than ACT_MIN_WIDTH or wider than TRIG_LINE_WIDTH.
 * A float execution's sinf/cosf is taken within ACT_EXEC_ERR of the real function at its input
 * (as for Sigmoid and Tanh); beyond TRIG_FLOAT_ARG, where a runtime's vectorised kernels lose
 * their argument reduction, no proof is claimed for it (the domain's overflow flag). */
#define TRIG_MAX_ARG 0x1p20
#define TRIG_FLOAT_ARG 0x1p13
#define TRIG_LINE_WIDTH 6.0
#define TRIG_RANGE_WIDTH 6.0 /* wider: [-1, 1] (the enumeration's cost) */
#define TRIG_PI 3.141592653589793
#define TRIG_TWO_PI 6.283185307179586

static void trig_enclose(vfy_layer_kind kind, double z, double *lo, double *hi)
{
    if (!(fabs(z) <= TRIG_MAX_ARG)) {
        *lo = -1.0;
        *hi = 1.0;
        return;
    }
    double v = kind == VFY_LAYER_SIN ? sin(z) : cos(z);
    double d = vfy_add_up(vfy_mul_up(fabs(v), ACT_LIBM_REL), 0x1p-1060);
    *lo = fmax(vfy_sub_down(v, d), -1.0);
    *hi = fmin(vfy_add_up(v, d), 1.0);
}

/* 1 when some point c0 + 2 pi k (k an integer) may lie in [l, u] (see above); l <= u finite. */
static int trig_hits(double c0, double l, double u)
{
    double d = 0x1p-30 * (1.0 + fabs(l) + fabs(u));
    double k0 = floor((l - d - c0) / TRIG_TWO_PI) - 1, k1 = ceil((u + d - c0) / TRIG_TWO_PI) + 1;
    for (double k = k0; k <= k1; k++) {
        double c = c0 + k * TRIG_TWO_PI;
        if (c >= l - d && c <= u + d)
            return 1;
    }
    return 0;
}

/* f's range on [l, u], enclosed (see above). */
static void trig_range(vfy_layer_kind kind, double l, double u, double *lo, double *hi)
{
    if (!(l <= u) || !(fabs(l) <= TRIG_MAX_ARG) || !(fabs(u) <= TRIG_MAX_ARG) ||
        !(u - l < TRIG_RANGE_WIDTH)) {
        *lo = -1.0;
        *hi = 1.0;
        return;
    }
    double a_lo, a_hi, b_lo, b_hi;
    trig_enclose(kind, l, &a_lo, &a_hi);
    trig_enclose(kind, u, &b_lo, &b_hi);
    *lo = fmin(a_lo, b_lo);
    *hi = fmax(a_hi, b_hi);
    double top = kind == VFY_LAYER_SIN ? 0.5 * TRIG_PI : 0.0;
    if (trig_hits(top, l, u))
        *hi = 1.0;
    if (trig_hits(top - TRIG_PI, l, u))
        *lo = -1.0;
}

/* The certified intercept of the line of slope s above (upper) or below f on [l, u] (see above);
 * [flo, fhi] the enclosures of f at l and u; +-inf when something is not finite. */
static double trig_intercept(vfy_layer_kind kind, double l, double u, const double *flo,
                             const double *fhi, double s, int upper)
{
    double t = upper ? fmax(vfy_sub_up(fhi[0], vfy_mul_down(s, l)),
                            vfy_sub_up(fhi[1], vfy_mul_down(s, u)))
                     : fmin(vfy_sub_down(flo[0], vfy_mul_up(s, l)),
                            vfy_sub_down(flo[1], vfy_mul_up(s, u)));
    if (!(fabs(s) <= 1.0))
        return isfinite(t) ? t : (upper ? INFINITY : -INFINITY); /* (no critical point) */
    double c0[2];
    if (kind == VFY_LAYER_SIN) {
        c0[0] = acos(s);
        c0[1] = -c0[0];
    } else {
        c0[0] = -asin(s);
        c0[1] = TRIG_PI + asin(s);
    }
    for (int b = 0; b < 2; b++) {
        double e0 = 0x1p-40 * (1.0 + fabs(l) + fabs(u) + 8.0);
        double k0 = floor((l - e0 - c0[b]) / TRIG_TWO_PI) - 1;
        double k1 = ceil((u + e0 - c0[b]) / TRIG_TWO_PI) + 1;
        for (double k = k0; k <= k1; k++) {
            double c = c0[b] + k * TRIG_TWO_PI;
            double e = 0x1p-40 * (1.0 + fabs(c)), h = vfy_mul_up(0.5, vfy_mul_up(e, e));
            if (!(c >= l - e && c <= u + e))
                continue;
            double lo, hi;
            trig_enclose(kind, c, &lo, &hi);
            if (upper)
                t = fmax(t, vfy_add_up(vfy_sub_up(hi, vfy_mul_down(s, c)), h));
            else
                t = fmin(t, vfy_sub_down(vfy_sub_down(lo, vfy_mul_up(s, c)), h));
        }
    }
    return isfinite(t) ? t : (upper ? INFINITY : -INFINITY);
}

/* The lines of SIN or COS on [l, u] (see above). */
static void trig_lines(vfy_layer_kind kind, double l, double u, double *sl, double *tl, double *su,
                       double *tu)
{
    trig_range(kind, l, u, tl, tu);
    *sl = *su = 0.0;
    if (!(l < u) || !(u - l > ACT_MIN_WIDTH) || !(u - l <= TRIG_LINE_WIDTH) ||
        !(fabs(l) <= TRIG_MAX_ARG) || !(fabs(u) <= TRIG_MAX_ARG))
        return;
    double flo[2], fhi[2];
    trig_enclose(kind, l, &flo[0], &fhi[0]);
    trig_enclose(kind, u, &flo[1], &fhi[1]);
    double m = 0.5 * l + 0.5 * u;
    int sin_k = kind == VFY_LAYER_SIN;
    double fv_l = sin_k ? sin(l) : cos(l), fv_u = sin_k ? sin(u) : cos(u);
    double cand[5] = {(fv_u - fv_l) / (u - l), sin_k ? cos(l) : -sin(l),
                      sin_k ? cos(m) : -sin(m), sin_k ? cos(u) : -sin(u), 0.0};
    double best_up = *tu, best_lo = *tl; /* the constant lines' values at m */
    for (int c = 0; c < 5; c++) {
        double s = cand[c];
        if (!isfinite(s))
            continue;
        double t = trig_intercept(kind, l, u, flo, fhi, s, 1);
        if (isfinite(t) && s * m + t < best_up) {
            best_up = s * m + t;
            *su = s;
            *tu = t;
        }
        t = trig_intercept(kind, l, u, flo, fhi, s, 0);
        if (isfinite(t) && s * m + t > best_lo) {
            best_lo = s * m + t;
            *sl = s;
            *tl = t;
        }
    }
}

/* ---- Gated activations: Gelu, SiLU and ERFGATE ----
 *
 * (ERFGATE, h(u) = u (1 + erf(u)) / 2 = u g(u) with g = erfc(-u) / 2, g' = e^(-u^2) / sqrt(pi),
 * carries PyTorch's Erf export of the Gelu between scalings, graph.c expand_gelu_export; below,
 * what is said of Gelu holds for it with c = 1, f'(+-c) as Gelu's, z* = -0.5315968867,
 * f(z*) = -0.1201877934, its g enclosed from erfc(-u) directly and g' as phi is.)
 *
 * f(z) = z g(z) with g a distribution function: Gelu's g = Phi(z) = erfc(-z / sqrt2) / 2 (the
 * normal distribution), SiLU's g = sigmoid(z) (x sigmoid(x), also called Swish). f' = g + z g';
 * f is convex on [-c, c] and concave outside (Gelu: f'' = phi (2 - z^2), c = sqrt2; SiLU:
 * f'' = s (1 - s) (2 + z (1 - 2 s)), c = 2.3993572805...), so f' increases on [-c, c] from its
 * least value f'(-c) to its largest f'(c) and decreases outside (to 0 at -inf, 1 at +inf); f
 * decreases to its least value f(z*) then increases. The constants (gated_consts, each a bound of
 * the value with margin, from bisection and golden-section searches in double good to 1e-11):
 *            c              f'(-c)           f'(c)           z*                f(z*)
 *   Gelu     1.41421356...  -0.12890414...   1.12890414...   -0.75179152204    -0.16997120748
 *   SiLU     2.39935728...  -0.09983932...   1.09983932...   -1.27846454276    -0.27846454276
 * Enclosures (gated_enclose, gated_deriv): Gelu's w = z / sqrt2 between z times the doubles just
 * below and above 1/sqrt2 (rounded outward), Phi = erfc(-w) / 2 with libm's erfc within
 * 2^-46 |v| + 2^-1060 (the libm assumption above; glibc documents erfc within 5 ulp), erfc
 * decreasing, so Phi between the enclosures at the two ends of w; phi from exp's enclosure at
 * -z^2/2 rounded both ways, times the doubles around 1/sqrt(2 pi). SiLU's sigmoid and its
 * derivative s (1 - s) from act_enclose and act_deriv. f = z g and f' = g + z g' rounded outward
 * by z's sign; f never below f(z*)'s bound.
 * Range on [l, u] (gated_range): the enclosures at the ends; where z* may lie inside, f(z*)'s
 * bound.
 * Lines (gated_lines): for a slope a, g = f - a z is bounded on 64 pieces [p, q] of [l, u] as in
 * act_relax, from f's enclosures at the end points and f''s sup and inf on the piece: f' is
 * monotone on a piece that holds neither +-c (its extremes at the end points); a piece that may
 * hold c has sup f'(c)'s bound, one that may hold -c inf f'(-c)'s. Every operation is rounded
 * outward. Slopes: of the chord, f' at l, at the midpoint and at u, and 0, the one whose certified
 * line is lowest (upper) or highest (lower) at the midpoint. Constant lines (the range) where
 * [l, u] is not finite or narrower than ACT_MIN_WIDTH. alpha-CROWN optimises their slopes within
 * [f'(-c), f'(c)] on act_pieces' pieces (act_cert, no touching-point cut), and the search splits
 * them as it splits Sigmoid's.
 * Float executions: a runtime's Gelu (x (1 + erf(x / sqrt2)) / 2 in float32, its erf a polynomial)
 * is taken within 2^-19 (1 + |z|) of f(z); SiLU, run as a Sigmoid (within ACT_EXEC_ERR = 2^-19)
 * times x (rounded: 2^-24 relative), within |z| 2^-19 + 2^-24 |z| (1 + 2^-19) <= 2^-18 (1 + |z|);
 * charged per neuron from max(|l|, |u|) (conv_exec). */
#define GATED_PIECES 64

typedef struct gated_consts {
    double c_lo, c_hi;       /* the inflection point c >= 0 lies in [c_lo, c_hi] */
    double dmin, dmax;       /* dmin <= f'(z) <= dmax everywhere */
    double zmin_lo, zmin_hi; /* z* lies in [zmin_lo, zmin_hi] */
    double fmin;             /* f(z) >= fmin everywhere */
} gated_consts;

static const gated_consts *gated_info(vfy_layer_kind kind)
{
    static const gated_consts gelu = {0x1.6a09e667f3bccp+0, 0x1.6a09e667f3bcdp+0, -0.128905,
                                      1.128905, -0.7518, -0.7517, -0.16997121};
    static const gated_consts silu = {2.3993, 2.3994, -0.09984, 1.09984, -1.2785, -1.2784,
                                      -0.27846455};
    static const gated_consts erfgate = {1.0, 1.0, -0.128905, 1.128905, -0.5317, -0.5315,
                                         -0.1201878};
    VFY_ASSERT(vfy_layer_is_gated(kind));
    return kind == VFY_LAYER_GELU ? &gelu : kind == VFY_LAYER_SILU ? &silu : &erfgate;
}

/* The least and largest slope of an activation with pieces: f''s range. */
static double act_dmax(vfy_layer_kind kind)
{
    return vfy_layer_is_gated(kind) ? gated_info(kind)->dmax : vfy_act_max_slope(kind);
}
static double act_dmin(vfy_layer_kind kind)
{
    return vfy_layer_is_gated(kind) ? gated_info(kind)->dmin : 0.0;
}

/* [*lo, *hi] ∋ erfc(-w) / 2 for every w in [wl, wh]: -w decreasing in w, erfc decreasing, so
 * between erfc(-wl)/2 and erfc(-wh)/2, each enclosed under the libm assumption. */
static void half_erfc_enclose(double wl, double wh, double *lo, double *hi)
{
    double a = erfc(-wl), b = erfc(-wh);
    double da = vfy_add_up(vfy_mul_up(fabs(a), ACT_LIBM_REL), 0x1p-1060);
    double db = vfy_add_up(vfy_mul_up(fabs(b), ACT_LIBM_REL), 0x1p-1060);
    *lo = fmax(0.5 * vfy_sub_down(a, da), 0.0); /* (halving: exact but for subnormals, below) */
    *hi = fmin(vfy_add_up(0.5 * vfy_add_up(b, db), 0x1p-1074), 1.0);
    *lo = fmax(vfy_sub_down(*lo, 0x1p-1074), 0.0);
}

/* [*lo, *hi] ∋ Phi(z) = erfc(-z / sqrt2) / 2 (NaN: [0, 1]), z / sqrt2 in [wl, wh] from the doubles
 * around 1/sqrt2. */
static void gelu_phi_cdf(double z, double *lo, double *hi)
{
    *lo = 0;
    *hi = 1;
    if (isnan(z))
        return;
    double wl = fmin(vfy_mul_down(z, 0x1.6a09e667f3bccp-1), vfy_mul_down(z, 0x1.6a09e667f3bcdp-1));
    double wh = fmax(vfy_mul_up(z, 0x1.6a09e667f3bccp-1), vfy_mul_up(z, 0x1.6a09e667f3bcdp-1));
    half_erfc_enclose(wl, wh, lo, hi);
}

static void act_enclose(vfy_layer_kind kind, double z, double *lo, double *hi);
static void act_deriv(vfy_layer_kind kind, double z, double lo, double hi, double *dlo,
                      double *dhi);

/* [*lo, *hi] ∋ g(z), the gate (z finite); ERFGATE's g = erfc(-z) / 2 enclosed as erfc is. */
static void gated_gate(vfy_layer_kind kind, double z, double *lo, double *hi)
{
    if (kind == VFY_LAYER_GELU) {
        gelu_phi_cdf(z, lo, hi);
    } else if (kind == VFY_LAYER_SILU) {
        act_enclose(VFY_LAYER_SIGMOID, z, lo, hi);
    } else {
        half_erfc_enclose(z, z, lo, hi);
    }
}

static void gated_enclose(vfy_layer_kind kind, double z, double *lo, double *hi)
{
    const gated_consts *gc = gated_info(kind);
    double pl, ph;
    if (isnan(z) || isinf(z)) {
        *lo = isinf(z) && z > 0 ? INFINITY : gc->fmin;
        *hi = isinf(z) && z < 0 ? 0.0 : INFINITY;
        return;
    }
    gated_gate(kind, z, &pl, &ph);
    if (z >= 0) {
        *lo = vfy_mul_down(z, pl);
        *hi = vfy_mul_up(z, ph);
    } else {
        *lo = vfy_mul_down(z, ph);
        *hi = vfy_mul_up(z, pl);
    }
    *lo = fmax(*lo, gc->fmin);
}

/* [*dlo, *dhi] ∋ f'(z) = g(z) + z g'(z). */
static void gated_deriv(vfy_layer_kind kind, double z, double *dlo, double *dhi)
{
    const gated_consts *gc = gated_info(kind);
    *dlo = gc->dmin;
    *dhi = gc->dmax;
    if (!isfinite(z))
        return;
    double pl, ph, ql, qh;
    gated_gate(kind, z, &pl, &ph);
    if (kind == VFY_LAYER_GELU) { /* g' = phi */
        double el, eh, t;
        exp_enclose(-0.5 * vfy_mul_up(z, z), &el, &t); /* (halving exact: z^2 / 2 >= tiny) */
        exp_enclose(-0.5 * vfy_mul_down(z, z), &t, &eh);
        ql = vfy_mul_down(el, 0x1.9884533d43650p-2);
        qh = vfy_mul_up(eh, 0x1.9884533d43652p-2);
    } else if (kind == VFY_LAYER_ERFGATE) { /* g' = e^(-z^2) / sqrt(pi) = erf'(z) / 2 */
        act_deriv(VFY_LAYER_ERF, z, 0, 0, &ql, &qh);
        ql = vfy_mul_down(0.5, ql);
        qh = vfy_mul_up(0.5, qh);
    } else { /* g' = s (1 - s) */
        act_deriv(VFY_LAYER_SIGMOID, z, pl, ph, &ql, &qh);
    }
    double zl = z >= 0 ? vfy_mul_down(z, ql) : vfy_mul_down(z, qh);
    double zh = z >= 0 ? vfy_mul_up(z, qh) : vfy_mul_up(z, ql);
    *dlo = fmax(vfy_add_down(pl, zl), gc->dmin);
    *dhi = fmin(vfy_add_up(ph, zh), gc->dmax);
}

static void gated_range(vfy_layer_kind kind, double l, double u, double *lo, double *hi)
{
    const gated_consts *gc = gated_info(kind);
    double a, b, c, d;
    gated_enclose(kind, l, &a, &b);
    gated_enclose(kind, u, &c, &d);
    *lo = fmin(a, c);
    *hi = fmax(b, d);
    if (isnan(l) || isnan(u) || (l <= gc->zmin_hi && u >= gc->zmin_lo))
        *lo = gc->fmin;
    if (isnan(l) || isnan(u))
        *hi = INFINITY;
}

/* The certified intercept of the line of slope a above (upper) or below f on the pieces P[0..n]
 * with f's enclosures F0/F1 and f''s bounds D0/D1 on each piece; +-inf when not finite. */
static double gated_cert(int n, const double *P, const double *F0, const double *F1,
                         const double *D0, const double *D1, double a, int upper)
{
    double best = upper ? -INFINITY : INFINITY;
    for (int i = 0; i < n; i++) {
        double p = P[i], q = P[i + 1], w = vfy_sub_up(q, p);
        double rise = fmax(vfy_sub_up(D1[i], a), 0.0), fall = fmax(vfy_sub_up(a, D0[i]), 0.0);
        double e;
        if (upper) { /* g <= g(p) + rise w, g <= g(q) + fall w */
            double u1 = vfy_add_up(vfy_sub_up(F1[i], vfy_mul_down(a, p)), vfy_mul_up(rise, w));
            double u2 = vfy_add_up(vfy_sub_up(F1[i + 1], vfy_mul_down(a, q)), vfy_mul_up(fall, w));
            e = fmin(u1, u2);
            best = fmax(best, e);
        } else { /* g >= g(p) - fall w, g >= g(q) - rise w */
            double l1 = vfy_sub_down(vfy_sub_down(F0[i], vfy_mul_up(a, p)), vfy_mul_up(fall, w));
            double l2 =
                vfy_sub_down(vfy_sub_down(F0[i + 1], vfy_mul_up(a, q)), vfy_mul_up(rise, w));
            e = fmax(l1, l2);
            best = fmin(best, e);
        }
        if (isnan(e))
            return upper ? INFINITY : -INFINITY;
    }
    return best;
}

static void gated_lines(vfy_layer_kind kind, double l, double u, double *sl, double *tl,
                        double *su, double *tu)
{
    const gated_consts *gc = gated_info(kind);
    *sl = *su = 0;
    gated_range(kind, l, u, tl, tu);
    if (!(l < u) || !(u - l < INFINITY) || !(u - l > ACT_MIN_WIDTH))
        return;
    enum { N = GATED_PIECES };
    double P[N + 1], F0[N + 1], F1[N + 1], D0[N], D1[N], dl[N + 1], dh[N + 1];
    for (int i = 0; i <= N; i++) {
        double p = i == 0 ? l : (i == N ? u : fmin(l + (u - l) * ((double)i / N), u));
        P[i] = p;
        gated_enclose(kind, p, &F0[i], &F1[i]);
        gated_deriv(kind, p, &dl[i], &dh[i]);
    }
    for (int i = 0; i < N; i++) {
        double p = P[i], q = P[i + 1];
        D0[i] = fmin(dl[i], dl[i + 1]);
        D1[i] = fmax(dh[i], dh[i + 1]);
        if (p <= -gc->c_lo && q >= -gc->c_hi)
            D0[i] = gc->dmin;
        if (p <= gc->c_hi && q >= gc->c_lo)
            D1[i] = gc->dmax;
    }
    double m = 0.5 * l + 0.5 * u, fl = vfy_act_f64(kind, l), fu = vfy_act_f64(kind, u);
    double cand[5] = {(fu - fl) / (u - l), vfy_act_slope_f64(kind, l, fl),
                      vfy_act_slope_f64(kind, m, vfy_act_f64(kind, m)),
                      vfy_act_slope_f64(kind, u, fu), 0.0};
    double best_up = *tu, best_lo = *tl; /* (the constant lines' values at m) */
    for (int c = 0; c < 5; c++) {
        double a = cand[c];
        if (!isfinite(a))
            continue;
        double t = gated_cert(N, P, F0, F1, D0, D1, a, 1);
        if (isfinite(t) && a * m + t < best_up) {
            best_up = a * m + t;
            *su = a;
            *tu = t;
        }
        t = gated_cert(N, P, F0, F1, D0, D1, a, 0);
        if (isfinite(t) && a * m + t > best_lo) {
            best_lo = a * m + t;
            *sl = a;
            *tl = t;
        }
    }
}

/* How far a float execution's activation output may be from the real function's (absolute), where
 * it is the same for every neuron: Sigmoid and Tanh ACT_EXEC_ERR (below); at a Softmax's RECIP the
 * runtime's Softmax of length n against the real one, 2^-19 + n 2^-23 (an assumption on its
 * kernel, docs/soundness.md); Sign and a Softmax's EXP nothing (exact; inside a Softmax); ReLU
 * exact. A standalone convex kind's allowance is per neuron (conv_exec_err). */
static double act_exec_err(const vfy_layer *L)
{
    if (vfy_layer_is_sshaped(L->kind) || L->kind == VFY_LAYER_SIN ||
        L->kind == VFY_LAYER_COS)
        return ACT_EXEC_ERR;
    if (L->kind == VFY_LAYER_RECIP && vfy_layer_in_softmax(L))
        return vfy_add_up(0x1p-19, (double)L->fan_in * 0x1p-23);
    return 0.0;
}

/* [*lo, *hi] ∋ f(z) for the real f (see above); the whole range when z is NaN. */
static void act_enclose(vfy_layer_kind kind, double z, double *lo, double *hi)
{
    if (vfy_layer_is_convex(kind)) {
        conv_enclose(kind, z, lo, hi);
        return;
    }
    if (kind == VFY_LAYER_SIN || kind == VFY_LAYER_COS) {
        trig_enclose(kind, z, lo, hi);
        return;
    }
    if (vfy_layer_is_gated(kind)) {
        gated_enclose(kind, z, lo, hi);
        return;
    }
    if (kind == VFY_LAYER_SIGN) { /* exact */
        *lo = isnan(z) ? -1.0 : vfy_act_f64(kind, z);
        *hi = isnan(z) ? 1.0 : vfy_act_f64(kind, z);
        return;
    }
    double rlo = act_range_lo(kind);
    if (isnan(z)) {
        *lo = rlo;
        *hi = 1.0;
        return;
    }
    double v;
    if (kind == VFY_LAYER_SIGMOID) {
        if (z < -700) {
            *lo = 0.0; /* SOUND: 0 < s(z) < e^z <= e^-700 < 2^-1000 */
            *hi = 0x1p-1000;
            return;
        }
        v = 1.0 / (1.0 + exp(-z));
    } else if (kind == VFY_LAYER_ERF) {
        v = erf(z);
    } else {
        v = tanh(z);
    }
    /* SOUND: |v - f(z)| < 2^-46 |v| + 2^-1060 under the libm assumption above */
    double d = vfy_add_up(vfy_mul_up(fabs(v), ACT_LIBM_REL), 0x1p-1060);
    *lo = fmax(vfy_sub_down(v, d), rlo);
    *hi = fmin(vfy_add_up(v, d), 1.0);
}

/* [*dlo, *dhi] ∋ f'(z) from z and an enclosure [lo, hi] ∋ f(z) (lo, hi inside f's range).
 * SOUND: sigmoid: 0 <= lo <= s <= hi <= 1, so lo (1 - hi) <= s (1 - s) <= hi (1 - lo), both products of
 * non-negative factors; tanh: t^2 lies between the squares of the end points (0 when they straddle 0).
 * erf' = C e^(-z^2), C = 2 / sqrt(pi), from z itself: z^2 rounded down and up, e^-q enclosed as exp
 * is (exp_enclose, decreasing in q), times VFY_ERF_DMAX's neighbour below C (0x1.20dd750429b6dp+0)
 * and VFY_ERF_DMAX above it.
 * Rounded outward, then clamped to f''s range (0, max f']. */
static void act_deriv(vfy_layer_kind kind, double z, double lo, double hi, double *dlo, double *dhi)
{
    if (kind == VFY_LAYER_ERF) {
        double elo, ehi, t;
        if (isnan(z)) {
            *dlo = 0;
            *dhi = VFY_ERF_DMAX;
            return;
        }
        exp_enclose(-vfy_mul_up(z, z), &elo, &t);  /* e^-q over q >= z^2: at most e^(-z^2) */
        exp_enclose(-vfy_mul_down(z, z), &t, &ehi); /* q <= z^2: at least */
        *dlo = fmax(vfy_mul_down(0x1.20dd750429b6dp+0, elo), 0.0);
        *dhi = fmin(vfy_mul_up(VFY_ERF_DMAX, ehi), VFY_ERF_DMAX);
        return;
    }
    if (kind == VFY_LAYER_SIGMOID) {
        *dlo = fmax(vfy_mul_down(lo, vfy_sub_down(1.0, hi)), 0.0);
        *dhi = fmin(vfy_mul_up(hi, vfy_sub_up(1.0, lo)), 0.25);
    } else {
        double a = fmax(fabs(lo), fabs(hi));
        double c = (lo <= 0 && hi >= 0) ? 0.0 : fmin(fabs(lo), fabs(hi));
        *dlo = fmax(vfy_sub_down(1.0, vfy_mul_up(a, a)), 0.0);
        *dhi = fmin(vfy_sub_up(1.0, vfy_mul_down(c, c)), 1.0);
    }
}

/* f and f' in plain double: only to choose slopes, never to bound. */
static double act_val(vfy_layer_kind kind, double z) { return vfy_act_f64(kind, z); }
static double act_slope(vfy_layer_kind kind, double z)
{
    double v = act_val(kind, z);
    if (kind == VFY_LAYER_ERF)
        return vfy_act_slope_f64(kind, z, v);
    return kind == VFY_LAYER_SIGMOID ? v * (1.0 - v) : 1.0 - v * v;
}

/* The slopes of CROWN's lines for f on [l, u] (l < u finite), as auto_LiRPA chooses them:
 *  u <= 0 (f convex):   upper = the chord, lower = the tangent at the midpoint;
 *  l >= 0 (f concave):  lower = the chord, upper = the tangent at the midpoint;
 *  l < 0 < u:           upper = the line through (l, f(l)) tangent to f at some d in (0, u], i.e. the
 *                       root of h(d) = f(d) - f(l) - f'(d)(d - l), increasing on [0, inf) with h(0) < 0;
 *                       when h(u) <= 0 the tangent point lies beyond u and the chord is above f;
 *                       lower = symmetrically the line through (u, f(u)) tangent at d in [l, 0),
 *                       the root of g(d) = f(u) - f(d) - f'(d)(u - d), decreasing on (-inf, 0], g(0) < 0;
 *                       the chord when g(l) <= 0.
 * The roots are found by 30 bisection steps. These are only choices: act_relax certifies the
 * intercepts for whatever slopes come out, so nothing here needs to be exact. */
static void act_slopes(vfy_layer_kind kind, double l, double u, double *a_lo, double *a_up)
{
    double fl = act_val(kind, l), fu = act_val(kind, u);
    double chord = (fu - fl) / (u - l), mid = 0.5 * l + 0.5 * u;
    if (u <= 0) {
        *a_up = chord;
        *a_lo = act_slope(kind, mid);
        return;
    }
    if (l >= 0) {
        *a_lo = chord;
        *a_up = act_slope(kind, mid);
        return;
    }
    if (fu - fl - act_slope(kind, u) * (u - l) <= 0) {
        *a_up = chord;
    } else {
        double d0 = 0, d1 = u;
        for (int it = 0; it < 30; it++) {
            double d = 0.5 * (d0 + d1);
            if (act_val(kind, d) - fl - act_slope(kind, d) * (d - l) < 0)
                d0 = d;
            else
                d1 = d;
        }
        *a_up = act_slope(kind, d1);
    }
    if (fu - fl - act_slope(kind, l) * (u - l) <= 0) {
        *a_lo = chord;
    } else {
        double d0 = l, d1 = 0;
        for (int it = 0; it < 30; it++) {
            double d = 0.5 * (d0 + d1);
            if (fu - act_val(kind, d) - act_slope(kind, d) * (u - d) > 0)
                d0 = d;
            else
                d1 = d;
        }
        *a_lo = act_slope(kind, d0);
    }
}

/* Linear bounds of the real f on [l, u]:  sl z + tl <= f(z) <= su z + tu  for every z in [l, u].
 *
 * The slopes come from act_slopes; the intercepts are certified, whatever the slopes: with
 * g(z) = f(z) - a z, the line a z + t is above f on [l, u] iff t >= max g, below iff t <= min g. Cut
 * [l, u] into ACT_PIECES pieces [p, q] (computed end points, monotone, p_0 = l, p_N = u, so they cover
 * [l, u]); on each, with Dlo <= f' <= Dhi on [p, q] and w >= q - p,
 *     g(z) = g(p) + int_p^z (f' - a)  <= g(p) + max(0, Dhi - a) w,
 *     g(z) = g(q) - int_z^q (f' - a)  <= g(q) + max(0, a - Dlo) w,
 *     g(z) >= g(p) - max(0, a - Dlo) w,    g(z) >= g(q) - max(0, Dhi - a) w.
 * (Near the tangent point f' - a is small on the piece, so the loss is about f'' w^2: act_cert cuts
 * the pieces at the points where f' = a, after which it is about nothing.) f' is even and
 * decreasing in |z|: its sup on [p, q] is at the point nearest 0 (f'(0) = 1/4 or 1 when 0 is inside),
 * its inf at the end point farthest from 0; both come from act_deriv on the enclosures of f.
 * tu = max over pieces of the smaller upper estimate, tl = min of the larger lower one.
 * SOUND: g(p) is bounded by the enclosure of f(p) minus a p; the estimates' rounding errors are
 * bounded as act_cert says; a non-finite result falls back to the constants.
 * When [l, u] is narrower than ACT_MIN_WIDTH, not finite, or NaN, the constant lines
 * f(l) <= f(z) <= f(u) (monotonicity, enclosures rounded outward) are used. */
/* A neuron's pieces for act_cert, n of them, in one array of ACT_PIECE_LEN(n) doubles:
 *   P[0..n]    the computed end points (monotone, P[0] = l, P[n] = u, so they cover [l, u]),
 *   Flo, Fhi   [0..n] enclosures of f at the end points,
 *   W[0..n)    piece widths rounded up (W_i >= P[i+1] - P[i]),
 *   Dup, Ddn   [0..n) sup and inf of f' on each piece: f' is even and decreasing in |z|, so its sup
 *              is at the end point nearest 0 (max f' = 1/4 or 1 when 0 is inside), its inf at the
 *              one farthest from 0; both from act_deriv on the enclosures of f,
 *   then H = max(|l|, |u|) >= |P[i]| and Wmax = max W_i. */
static void act_pieces(vfy_layer_kind kind, double l, double u, int n, double *D)
{
    double *P = D, *Flo = P + (n + 1), *Fhi = Flo + (n + 1), *W = Fhi + (n + 1), *Dup = W + n,
           *Ddn = Dup + n;
    double width = u - l, dmax = vfy_act_max_slope(kind), dlo_prev = 0, dhi_prev = 0;
    double wmax = 0;
    const gated_consts *gc = vfy_layer_is_gated(kind) ? gated_info(kind) : NULL;
    for (int i = 0; i <= n; i++) {
        double p = i == 0 ? l : (i == n ? u : fmin(l + width * ((double)i / n), u)), dlo, dhi;
        P[i] = p;
        act_enclose(kind, p, &Flo[i], &Fhi[i]);
        if (gc)
            gated_deriv(kind, p, &dlo, &dhi);
        else
            act_deriv(kind, p, Flo[i], Fhi[i], &dlo, &dhi);
        if (i > 0) {
            double a = P[i - 1];
            W[i - 1] = vfy_sub_up(p, a);
            wmax = fmax(wmax, W[i - 1]);
            if (gc) { /* f' monotone on a piece that holds neither -c nor c (gated_lines) */
                Dup[i - 1] = a <= gc->c_hi && p >= gc->c_lo ? gc->dmax : fmax(dhi_prev, dhi);
                Ddn[i - 1] = a <= -gc->c_lo && p >= -gc->c_hi ? gc->dmin : fmin(dlo_prev, dlo);
            } else {
                Dup[i - 1] = (a <= 0 && p >= 0) ? dmax : (p < 0 ? dhi : dhi_prev);
                Ddn[i - 1] = fabs(a) >= fabs(p) ? dlo_prev : dlo;
            }
        }
        dlo_prev = dlo;
        dhi_prev = dhi;
    }
    D[ACT_PIECE_LEN(n) - 2] = fmax(fabs(l), fabs(u));
    D[ACT_PIECE_LEN(n) - 1] = wmax;
}

/* The point z1 > 0 where f'(z1) = a, for a in (0, max f'); NAN otherwise. f' is even, so -z1 is
 * the other such point (upper lines of slope a touch f at z1, where it is concave, lower ones at
 * -z1). sigmoid: s(1 - s) = a at s = (1 + r)/2, r = sqrt(1 - 4a), and s / (1 - s) =
 * (1 + r)^2 / (4a); tanh: 1 - t^2 = a at t = sqrt(1 - a), atanh t = log((1 + t)^2 / a) / 2;
 * erf: C e^(-z^2) = a at z = sqrt(log(C / a)).
 * Only a choice of where act_cert cuts a piece: nothing depends on its accuracy. */
static double act_touch(vfy_layer_kind kind, double a)
{
    if (vfy_layer_is_gated(kind))
        return NAN; /* (up to three such points: no cut, the pieces' estimates alone) */
    double dmax = vfy_act_max_slope(kind), z;
    if (!(a > 0 && a < dmax))
        return NAN;
    if (kind == VFY_LAYER_ERF) {
        z = sqrt(fmax(log(1.1283791670955126 / a), 0.0));
    } else if (kind == VFY_LAYER_SIGMOID) {
        double r = sqrt(1.0 - 4.0 * a);
        z = log((1.0 + r) * (1.0 + r) / (4.0 * a));
    } else {
        double t = sqrt(1.0 - a);
        z = 0.5 * log((1.0 + t) * (1.0 + t) / a);
    }
    return z;
}

/* One piece's estimate of act_relax's comment for the line of slope a: on [p, q] (width w rounded
 * up) with f' in [Ddn, Dup], the smaller upper (upper = 1) or the larger lower estimate of
 * g = f - a z, from the enclosures [flo, fhi] of f at the end points. Round to nearest (see
 * act_cert). */
static inline double act_piece_est(double p, double q, double w, const double *flo,
                                   const double *fhi, double dup, double ddn, double a, int upper)
{
    double rise = dup - a, fall = a - ddn;
    rise = (rise > 0 ? rise : 0) * w;
    fall = (fall > 0 ? fall : 0) * w;
    if (upper) {
        double u1 = fhi[0] - a * p + rise, u2 = fhi[1] - a * q + fall;
        return u1 < u2 ? u1 : u2;
    }
    double l1 = flo[0] - a * p - fall, l2 = flo[1] - a * q - rise;
    return l1 > l2 ? l1 : l2;
}

/* The piece c of act_pieces (n pieces, data D, scale = n / (u - l)) holding z; -1 when z is not
 * strictly inside one. */
static int act_piece_of(int n, const double *D, double scale, double z)
{
    const double *P = D;
    if (!(z > P[0] && z < P[n]))
        return -1;
    double x = (z - P[0]) * scale; /* (clamped before the conversion: scale may be infinite) */
    int c = x < 1 ? 0 : (x >= n - 1 ? n - 1 : (int)x);
    while (c > 0 && !(z > P[c]))
        c--;
    while (c < n - 1 && !(z < P[c + 1]))
        c++;
    return z > P[c] && z < P[c + 1] ? c : -1;
}

/* The estimate of piece c of act_pieces cut at the m points z[1..m] (sorted, strictly inside it;
 * z[0] and z[m + 1] are filled in here with its end points), [fl, fh] the enclosures of f at them
 * and [dl, dh] of f' at the cut points: the max (upper) or min over the m + 1 parts of
 * act_piece_est, f' bounded on each part by its sup at the end nearest 0 (max f' when 0 is
 * inside) and its inf at the farthest. On a piece on one side of 0 the piece's own sup and inf
 * (Dup, Ddn) are those at its end points nearest and farthest from 0, the only ones its parts
 * read; a piece around 0 gets f' at its end points from f's enclosures. *bad collects a NaN as
 * act_cert's does. */
static double act_cut_est(vfy_layer_kind kind, int n, const double *D, int c, int m, double *z,
                          double *fl, double *fh, double *dl, double *dh, double a, int upper,
                          double *bad)
{
    const double *P = D, *Flo = P + (n + 1), *Fhi = Flo + (n + 1), *W = Fhi + (n + 1),
                 *Dup = W + n, *Ddn = Dup + n;
    double dmax = vfy_act_max_slope(kind);
    z[0] = P[c];
    fl[0] = Flo[c];
    fh[0] = Fhi[c];
    z[m + 1] = P[c + 1];
    fl[m + 1] = Flo[c + 1];
    fh[m + 1] = Fhi[c + 1];
    if (P[c] >= 0) { /* nearest 0: the left end; (the unread ones: f''s whole range) */
        dl[0] = 0, dh[0] = Dup[c], dl[m + 1] = Ddn[c], dh[m + 1] = dmax;
    } else if (P[c + 1] <= 0) {
        dl[0] = Ddn[c], dh[0] = dmax, dl[m + 1] = 0, dh[m + 1] = Dup[c];
    } else {
        act_deriv(kind, z[0], fl[0], fh[0], &dl[0], &dh[0]);
        act_deriv(kind, z[m + 1], fl[m + 1], fh[m + 1], &dl[m + 1], &dh[m + 1]);
    }
    double r = upper ? -INFINITY : INFINITY;
    for (int h = 0; h <= m; h++) {
        double p = z[h], q = z[h + 1];
        double dup = (p <= 0 && q >= 0) ? dmax : (q < 0 ? dh[h + 1] : dh[h]);
        double ddn = fabs(p) >= fabs(q) ? dl[h] : dl[h + 1];
        double v = act_piece_est(p, q, vfy_sub_up(q, p), fl + h, fh + h, dup, ddn, a, upper);
        *bad += v * 0;
        r = upper ? fmax(r, v) : fmin(r, v);
    }
    return r;
}

/* The certified intercept of the line of slope a above f (upper) or below f on the pieces of
 * act_pieces, by the estimates of act_relax's comment; +-inf when nothing finite results (the
 * caller then keeps other lines). *za (may be NULL): about where the line touches f (for the alpha
 * gradient only).
 * g = f - a z has its extrema where f' = a, at -z1 and z1 (act_touch; f' is even): the pieces
 * holding them are the ones whose estimates lose about f'' w^2 (5e-3 on a sigmoid over [-3.6, 3.6]
 * with 16 pieces, per neuron; at a slope near max f', g is so flat that the piece of the other
 * extremum can decide too). Those pieces are cut there, with the enclosure of f at z1 (one more
 * evaluation; at -z1 by symmetry: s(-z) = 1 - s(z), tanh(-z) = -tanh z); on each part f' - a keeps
 * about one sign, so its estimate is about exact. The parts cover the piece, so the cut only
 * tightens; each such piece takes the better of both.
 * The pieces' estimates, e.g. u1 = Fhi_i - a P_i + max(0, Dup_i - a) W_i, are evaluated in round to
 * nearest (this runs for every row, neuron and ascent step: directed rounding of each operation
 * cost more than half of the time on sigmoid nets) and the result is moved outward by one bound E
 * of their rounding errors. SOUND: each estimate takes at most five operations on terms bounded by
 * |Fhi|, |Flo| <= Fm (1 for the S-shaped kinds, H + 1 for the gated ones), |a P_i| <= |a| H,
 * max(0, Dup_i - a) W_i and max(0, a - Ddn_i) W_i <= (dmax + |a|) Wmax; with u = 2^-53 its error
 * is below 3u (Fm + |a| H + (dmax + |a|) Wmax) plus
 * O(u^2) and an underflow of 2^-1074 per product, so E = 2^-49 (...) + 2^-1070 (computed upward)
 * covers it, and max/min of the estimates are exact. The parts of a cut piece keep those bounds:
 * the cut points lie inside the piece (|z| <= H) and the parts' widths, rounded up, are at most
 * the piece's (W_i <= Wmax). A NaN or infinity anywhere makes the result infinite. */
static double act_cert(vfy_layer_kind kind, int n, const double *D, double a, int upper,
                       double *za)
{
    const double *P = D, *Flo = P + (n + 1), *Fhi = Flo + (n + 1), *W = Fhi + (n + 1),
                 *Dup = W + n, *Ddn = Dup + n;
    double dmax = act_dmax(kind), H = D[ACT_PIECE_LEN(n) - 2],
           Wmax = D[ACT_PIECE_LEN(n) - 1], fa = fabs(a);
    /* (|F| <= 1 for the S-shaped kinds; a gated kind's |f(z)| <= max(|z|, 0.28) <= H + 1, and its
     * fall a - Ddn <= |a| + |f'(-c)| <= |a| + dmax) */
    double Fm = vfy_layer_is_gated(kind) ? vfy_add_up(H, 1.0) : 1.0;
    double E = vfy_add_up(vfy_mul_up(0x1p-49, vfy_add_up(vfy_add_up(Fm, vfy_mul_up(fa, H)),
                                                         vfy_mul_up(vfy_add_up(dmax, fa), Wmax))),
                          0x1p-1070);
    double z1 = act_touch(kind, a);
    int cn = -1, cp = -1; /* -1 when none (or NaN) */
    if (z1 < H) {
        double scale = n / (P[n] - P[0]);
        cn = act_piece_of(n, D, scale, -z1);
        cp = act_piece_of(n, D, scale, z1);
    }
    /* every piece's estimate (a loop per side, without branches: this is the hot loop), then the
     * best of those not cut */
    double est[ACT_PIECES], bad = 0;
    VFY_ASSERT(n <= ACT_PIECES);
    if (upper)
        for (int i = 0; i < n; i++)
            est[i] = act_piece_est(P[i], P[i + 1], W[i], Flo + i, Fhi + i, Dup[i], Ddn[i], a, 1);
    else
        for (int i = 0; i < n; i++)
            est[i] = act_piece_est(P[i], P[i + 1], W[i], Flo + i, Fhi + i, Dup[i], Ddn[i], a, 0);
    for (int i = 0; i < n; i++)
        bad += est[i] * 0; /* NaN when an estimate is NaN or infinite */
    double t = upper ? -INFINITY : INFINITY;
    double t_cn = cn >= 0 ? est[cn] : t, t_cp = cp >= 0 ? est[cp] : t;
    int best = 0;
    for (int i = 0; i < n; i++) {
        if (i == cn || i == cp)
            continue;
        if (upper ? est[i] > t : est[i] < t) {
            t = est[i];
            best = i;
        }
    }
    double zbest = 0.5 * P[best] + 0.5 * P[best + 1];
    /* a cut piece whose estimate does not beat the others' cannot decide: it is not cut (the cut
     * only tightens it), it only joins the max/min */
    if (cn >= 0 && !(upper ? t_cn > t : t_cn < t)) {
        t = upper ? fmax(t, t_cn) : fmin(t, t_cn);
        if (cp == cn)
            cp = -1;
        cn = -1;
    }
    if (cp >= 0 && !(upper ? t_cp > t : t_cp < t)) {
        t = upper ? fmax(t, t_cp) : fmin(t, t_cp);
        cp = -1;
    }
    if (cn >= 0 || cp >= 0) {
        double flp, fhp, fln, fhn, dlp, dhp, z[4], fl[4], fh[4], dl[4], dh[4];
        act_enclose(kind, z1, &flp, &fhp);
        act_deriv(kind, z1, flp, fhp, &dlp, &dhp); /* (f' is even: also at -z1) */
        if (kind == VFY_LAYER_SIGMOID) {
            fln = vfy_sub_down(1.0, fhp);
            fhn = vfy_sub_up(1.0, flp);
        } else {
            fln = -fhp;
            fhn = -flp;
        }
        double t_cut;
        if (cn >= 0 && cn == cp) { /* both in one piece */
            z[1] = -z1, fl[1] = fln, fh[1] = fhn, dl[1] = dlp, dh[1] = dhp;
            z[2] = z1, fl[2] = flp, fh[2] = fhp, dl[2] = dlp, dh[2] = dhp;
            t_cut = act_cut_est(kind, n, D, cn, 2, z, fl, fh, dl, dh, a, upper, &bad);
            t_cut = upper ? fmin(t_cut, t_cn) : fmax(t_cut, t_cn);
        } else {
            double t_n = upper ? -INFINITY : INFINITY, t_p = t_n;
            if (cn >= 0) {
                z[1] = -z1, fl[1] = fln, fh[1] = fhn, dl[1] = dlp, dh[1] = dhp;
                double v = act_cut_est(kind, n, D, cn, 1, z, fl, fh, dl, dh, a, upper, &bad);
                t_n = upper ? fmin(t_cn, v) : fmax(t_cn, v);
            }
            if (cp >= 0) {
                z[1] = z1, fl[1] = flp, fh[1] = fhp, dl[1] = dlp, dh[1] = dhp;
                double v = act_cut_est(kind, n, D, cp, 1, z, fl, fh, dl, dh, a, upper, &bad);
                t_p = upper ? fmin(t_cp, v) : fmax(t_cp, v);
            }
            t_cut = upper ? fmax(t_n, t_p) : fmin(t_n, t_p);
        }
        /* (fmin/fmax pass over a NaN: bad has it) */
        if (upper ? t_cut >= t : t_cut <= t) {
            t = t_cut;
            zbest = upper ? z1 : -z1; /* where the line of that side touches f */
        }
    }
    if (za)
        *za = zbest;
    if (bad != 0 || !isfinite(E)) /* (bad is NaN then) */
        return upper ? INFINITY : -INFINITY;
    return upper ? vfy_add_up(t, E) : vfy_sub_down(t, E);
}

/* ---- Sign ----
 *
 * sign(z) is -1, 0 or 1 (a binarized network's step); a float execution computes it exactly from
 * its input, so no allowance. On [l, u] (sl z + tl <= sign(z) <= su z + tu for every real z there):
 *   l > 0: 1;  u < 0: -1;  l = u = 0: 0 (constants; NaN or empty: the range [-1, 1]).
 *   l = 0 < u (values 0, 1):   below a z, a <= 1/u (a z <= 1 on (0, u], 0 at 0);   above 1.
 *   l < 0 = u (values -1, 0):  above b z, b <= 1/|l| (b z >= -1 on [l, 0));  below -1.
 *   l < 0 < u: below a z - 1 with 0 <= a <= 2/u (a z - 1 <= 1 on (0, u], <= -1 for z <= 0),
 *              above b z + 1 with 0 <= b <= 2/|l| (b z + 1 >= -1 on [l, 0), >= 1 for z >= 0).
 * The slopes are the steepest allowed (their quotient rounded down, so the lines hold for them as
 * computed) or 0, whichever leaves the smaller area between the line and sign over [l, u]: below,
 * the area is 2 u + a (l^2 - u^2) / 2, least with a = 2/u when u >= |l|; above, 2 |l| +
 * b (u^2 - l^2) / 2, least with b = 2/|l| when |l| > u. The intercepts are exact. */
static void sign_lines(double l, double u, double *sl, double *tl, double *su, double *tu)
{
    *sl = *su = 0;
    *tl = -1;
    *tu = 1;
    if (!(l <= u))
        return;
    if (l > 0 || u < 0) {
        *tl = *tu = l > 0 ? 1.0 : -1.0;
    } else if (l == 0 && u == 0) {
        *tl = *tu = 0;
    } else if (l == 0) {
        *tl = 0;
        *sl = isfinite(u) ? fmax(vfy_div_down(1.0, u), 0.0) : 0.0;
    } else if (u == 0) {
        *tu = 0;
        *su = isfinite(l) ? fmax(vfy_div_down(1.0, -l), 0.0) : 0.0;
    } else {
        if (u >= -l && isfinite(u))
            *sl = fmax(vfy_div_down(2.0, u), 0.0); /* (an underflow: 0) */
        if (-l > u && isfinite(l))
            *su = fmax(vfy_div_down(2.0, -l), 0.0);
    }
}

static void act_relax(vfy_layer_kind kind, double l, double u, double *sl, double *tl, double *su,
                      double *tu)
{
    if (kind == VFY_LAYER_SIGN) {
        sign_lines(l, u, sl, tl, su, tu);
        return;
    }
    if (vfy_layer_is_convex(kind)) {
        conv_lines(kind, l, u, sl, tl, su, tu);
        return;
    }
    if (kind == VFY_LAYER_SIN || kind == VFY_LAYER_COS) {
        trig_lines(kind, l, u, sl, tl, su, tu);
        return;
    }
    if (vfy_layer_is_gated(kind)) {
        gated_lines(kind, l, u, sl, tl, su, tu);
        return;
    }
    double flo, fhi, glo, ghi;
    act_enclose(kind, l, &flo, &fhi);
    act_enclose(kind, u, &glo, &ghi);
    *sl = *su = 0.0;
    *tl = flo;
    *tu = ghi;
    if (!(l < u) || !(u - l < INFINITY) || !(u - l > ACT_MIN_WIDTH))
        return;
    double a_lo, a_up;
    act_slopes(kind, l, u, &a_lo, &a_up);
    if (!isfinite(a_lo) || !isfinite(a_up))
        return;
    double D[ACT_PIECE_LEN(ACT_PIECES)];
    act_pieces(kind, l, u, ACT_PIECES, D);
    double t_up = act_cert(kind, ACT_PIECES, D, a_up, 1, NULL);
    double t_lo = act_cert(kind, ACT_PIECES, D, a_lo, 0, NULL);
    if (isfinite(t_up)) {
        *su = a_up;
        *tu = t_up;
    }
    if (isfinite(t_lo)) {
        *sl = a_lo;
        *tl = t_lo;
    }
}

void vfy_bound_act_lines(vfy_layer_kind kind, double l, double u, double *sl, double *tl, double *su,
                         double *tu)
{
    VFY_ASSERT(vfy_layer_passes(kind));
    act_relax(kind, l, u, sl, tl, su, tu);
}

/* Splits of an interval on one side of 0 stop at this width (each child keeps half of it, still
 * above ACT_MIN_WIDTH, where the lines give way to constants) */
#define ACT_SPLIT_MIN_WIDTH 0x1p-16

double vfy_bound_split_point(double l, double u)
{
    if (l < 0 && u > 0)
        return 0.0;
    if (!(u - l > ACT_SPLIT_MIN_WIDTH) || !isfinite(l) || !isfinite(u))
        return NAN;
    double p = 0.5 * l + 0.5 * u; /* (no overflow) */
    return l < p && p < u ? p : NAN;
}

double vfy_bound_act_line(vfy_layer_kind kind, double l, double u, double a, int upper)
{
    VFY_ASSERT(act_has_pieces(kind));
    VFY_ASSERT(l < u && u - l < INFINITY && isfinite(a));
    double D[ACT_PIECE_LEN(ACT_ALPHA_PIECES)];
    act_pieces(kind, l, u, ACT_ALPHA_PIECES, D);
    return act_cert(kind, ACT_ALPHA_PIECES, D, a, upper, NULL);
}

/* Neuron j's piece data in the cache of activation layer k (n neurons): P, Flo, Fhi, Dlo, Dhi of
 * ACT_ALPHA_PIECES + 1 entries each. */
static double *act_piece_data(vfy_bound_scratch *s, int64_t k, int64_t n, int64_t j)
{
    return s->act[k] + ACT_CACHE * n + j * ACT_PIECE_LEN(ACT_ALPHA_PIECES);
}

/* Make the cached lines of activation layer k (SIGMOID or TANH) those of its input bounds [l, u]:
 * a neuron is recomputed only when its [l, u] changed since (the cache is keyed by the bounds
 * themselves, so it can never serve lines of other bounds). */
static void act_lines(const vfy_layer *L, vfy_bound_scratch *s, int64_t k, const double *l,
                      const double *u)
{
    int64_t n = L->n_in;
    double *c = s->act[k];
    double *cl = c, *cu = c + n, *sl = c + 2 * n, *tl = c + 3 * n, *su = c + 4 * n, *tu = c + 5 * n;
    double *mag = c + 6 * n;
    for (int64_t j = 0; j < n; j++) {
        if (cl[j] == l[j] && cu[j] == u[j])
            continue;
        mag[j] = 0;
        if (j < L->n_pass) { /* passed through: the identity, no pieces (never relaxed) */
            sl[j] = su[j] = 1;
            tl[j] = tu[j] = 0;
            if (act_has_pieces(L->kind))
                act_piece_data(s, k, n, j)[0] = NAN;
            cl[j] = l[j];
            cu[j] = u[j];
            continue;
        }
        act_relax(L->kind, l[j], u[j], &sl[j], &tl[j], &su[j], &tu[j]);
        if (vfy_layer_is_convex(L->kind)) { /* |f| <= mag on [l, u] (f monotone there) */
            double a, b;
            conv_range(L->kind, l[j], u[j], &a, &b);
            mag[j] = fmax(fabs(a), fabs(b));
        } else if (vfy_layer_is_gated(L->kind)) { /* (its allowance grows with |z|) */
            mag[j] = isnan(l[j]) || isnan(u[j]) ? INFINITY : fmax(fabs(l[j]), fabs(u[j]));
        }
        cl[j] = l[j];
        cu[j] = u[j];
        if (!act_has_pieces(L->kind))
            continue; /* (its lines are fixed: no pieces) */
        /* the pieces for other slopes, only where act_relax made lines (P[0] = NaN: none) */
        double *P = act_piece_data(s, k, n, j);
        const int N = ACT_ALPHA_PIECES;
        if (sl[j] != 0 || su[j] != 0)
            act_pieces(L->kind, l[j], u[j], N, P);
        else
            P[0] = NAN;
    }
}

/* The window of MAXPOOL output j on input bounds [l, u]: *m the input of largest lower bound (the
 * first such), *top the largest upper bound; returns 1 when x_m dominates (l_m >= u_i for every
 * other input i of the window: then max = x_m on the whole box). */
static int pool_window(const vfy_layer *L, int64_t j, const double *l, const double *u, int64_t *m,
                       double *top)
{
    const int64_t *win = L->pool + j * L->pool_k;
    int64_t a = -1;
    double t = -INFINITY;
    for (int64_t p = 0; p < L->pool_k; p++) {
        int64_t i = win[p];
        if (i < 0)
            continue;
        if (a < 0 || l[i] > l[a])
            a = i;
        t = fmax(t, u[i]); /* (NaN bounds: fmax skips them; NaN u is caught below) */
    }
    *m = a;
    *top = t;
    int dom = !isnan(l[a]);
    for (int64_t p = 0; p < L->pool_k && dom; p++) {
        int64_t i = win[p];
        if (i >= 0 && i != a && !(l[a] >= u[i]))
            dom = 0;
        if (i >= 0 && isnan(u[i]))
            *top = INFINITY;
    }
    return dom;
}

/* MAXPOOL y_j = max_{i in W_j} x_i, relaxed per window on the input bounds [l, u]: with m the input
 * of largest lower bound and U = max_{i in W_j} u_i,
 *     x_m <= y_j <= U,  and y_j = x_m when x_m dominates (l_m >= u_i for every other i in W_j).
 * A coefficient lam >= 0 (or a dominated window) moves to x_m: lam y_j >= lam x_m; lam < 0 takes
 * the constant: lam y_j >= lam U. A float execution computes the max exactly, so nothing else is
 * charged. SOUND: the coefficients of x are sums of the lam (a window can share an input with
 * others): |error| <= gamma(n_out) sum |lam| H_m; the constant d = sum lam U is a dot product,
 * charged gamma(n_out + 1) sum |lam U| plus n_out 2^-1074 of underflow; U = +inf makes the bound
 * -inf (no claim). */
static void maxpool_backward(const vfy_bound_ctx *ctx, vfy_bound_scratch *s, const bseg *G,
                             int64_t k)
{
    const vfy_layer *L = &ctx->net->layers[k];
    int64_t n_in = L->n_in, n_out = L->n_out;
    const double *l = layer_in_lo(G->b, k, G->in_lo), *u = layer_in_hi(G->b, k, G->in_hi);
    double *lam = s->lam, *lam2 = s->lam2;
    /* s->cls: each window's m; s->G: its U, or NaN when dominated (s->idx is crown_refine's) */
    for (int64_t j = 0; j < n_out; j++) {
        double top;
        int dom = pool_window(L, j, l, u, &s->cls[j], &top);
        s->G[j] = dom ? NAN : top;
    }
    for (int64_t i = 0; i < n_in; i++)
        s->H[i] = fmax(fabs(l[i]), fabs(u[i]));
    double g = vfy_la_gamma(n_out + 1);
    double tiny = (double)(n_out + 1) * ETA64;
    for (int64_t i = G->r0; i < G->r0 + G->K; i++) {
        const double *row = lam + i * n_out;
        double *out = lam2 + i * n_in;
        double d = 0, abst = 0, errmu = 0;
        for (int64_t j = 0; j < n_out; j++) {
            double x = row[j];
            if (x == 0)
                continue;
            int64_t m = s->cls[j];
            if (x > 0 || isnan(s->G[j])) {
                out[m] += x;
                errmu += fabs(x) * s->H[m];
            } else {
                double p = x * s->G[j];
                d += p;
                abst += fabs(p);
            }
        }
        double e = vfy_add_up(vfy_mul_up(g, errmu), vfy_mul_up(g, abst));
        s->beta[i] += d;
        e = vfy_add_up(e, vfy_mul_up(fabs(s->beta[i]), 0x1p-52));
        s->slack[i] = vfy_add_up(vfy_add_up(s->slack[i], e), tiny);
    }
}

/* PRODUCT y = a b, on the box [la, ua] x [lb, ub] of its inputs (a square a^2 when both are one
 * input), lies between two parallel planes:
 *     sa a + sb b + tl  <=  a b  <=  sa a + sb b + tu.
 * Two factors: sa = (lb + ub) / 2, sb = (la + ua) / 2, the mean of McCormick's two lower planes and
 * also of his two upper ones (both means have these slopes), whose gap to a b is at most half of
 * either plane's, (ua - la)(ub - lb) / 2. For any slopes, f(a, b) = a b - sa a - sb b is bilinear,
 * so its range over the box is that of the four vertices: tl and tu are their least and largest
 * values, each evaluated with outward rounding, so the planes hold for the slopes as computed.
 * A square: one slope s = la + ua (sb = 0), the chord's and the tangent's at the centre;
 * g(a) = a^2 - s a is convex, at least -s^2 / 4 everywhere (tl) and largest at an end of [la, ua]
 * (tu). A bound that is not finite gives tl = -inf, tu = +inf: no claim. */
static void product_planes(double la, double ua, double lb, double ub, int square, double *sa,
                           double *sb, double *tl, double *tu)
{
    if (!(isfinite(la) && isfinite(ua) && isfinite(lb) && isfinite(ub))) {
        *sa = *sb = 0;
        *tl = -INFINITY;
        *tu = INFINITY;
        return;
    }
    if (square) {
        double c = la + ua;
        *sa = c;
        *sb = 0;
        *tl = -vfy_mul_up(vfy_mul_up(c, c), 0.25);
        *tu = fmax(vfy_sub_up(vfy_mul_up(la, la), vfy_mul_down(c, la)),
                   vfy_sub_up(vfy_mul_up(ua, ua), vfy_mul_down(c, ua)));
        return;
    }
    double ca = 0.5 * la + 0.5 * ua, cb = 0.5 * lb + 0.5 * ub; /* (no overflow) */
    const double av[2] = {la, ua}, bv[2] = {lb, ub};
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            double a = av[i], b = bv[j];
            lo = fmin(lo, vfy_sub_down(vfy_sub_down(vfy_mul_down(a, b), vfy_mul_up(cb, a)),
                                       vfy_mul_up(ca, b)));
            hi = fmax(hi, vfy_sub_up(vfy_sub_up(vfy_mul_up(a, b), vfy_mul_down(cb, a)),
                                     vfy_mul_down(ca, b)));
        }
    *sa = cb;
    *sb = ca;
    *tl = isnan(lo) ? -INFINITY : lo;
    *tu = isnan(hi) ? INFINITY : hi;
}

/* alpha-CROWN's plane of a b for one row: a mix theta in [0, 1] of McCormick's two planes on the
 * side the row needs (upper = 0: below a b, for a coefficient >= 0; else above),
 *     below:  theta (lb a + la b - la lb) + (1 - theta) (ub a + ua b - ua ub),
 *     above:  theta (ub a + la b - la ub) + (1 - theta) (lb a + ua b - ua lb),
 * both valid (convex combinations of valid planes); theta = 1/2 gives product_planes' slopes.
 * The slopes are taken as computed and the intercept certified for them as in product_planes
 * (the extreme of the bilinear a b - sa a - sb b over the box's vertices, rounded outward), so
 * any theta is sound. A square below: the tangent at d = la + theta (ua - la), slope 2 d (exact)
 * and intercept -d^2 rounded down (a^2 - 2 d a >= -d^2 everywhere); above: the chord (theta
 * unused). *va, *vb: where the intercept's extreme is attained (a vertex, or d), and *dsa, *dsb
 * the slopes' derivatives in theta: the gradient of the row's term lam (sa a + sb b + t) at the
 * point (a, b) is lam (dsa (a - va) + dsb (b - vb)) (envelope theorem; steering only). */
static void product_mixed_plane(double la, double ua, double lb, double ub, int square, int upper,
                                double theta, double *sa, double *sb, double *t, double *va,
                                double *vb, double *dsa, double *dsb)
{
    *va = *vb = *dsa = *dsb = 0;
    if (!(isfinite(la) && isfinite(ua) && isfinite(lb) && isfinite(ub))) {
        *sa = *sb = 0;
        *t = upper ? INFINITY : -INFINITY;
        return;
    }
    theta = theta < 0 ? 0 : (theta > 1 ? 1 : theta);
    if (square) {
        double tl, tu;
        product_planes(la, ua, lb, ub, 1, sa, sb, &tl, &tu);
        if (upper) {
            *t = tu;
            return;
        }
        double d = fmin(fmax(la + theta * (ua - la), la), ua);
        if (!isfinite(2 * d)) { /* (the chord's planes: no overflow in the slope) */
            *t = tl;
            return;
        }
        *sa = 2 * d;
        *sb = 0;
        *t = -vfy_mul_up(d, d);
        *va = d;
        *dsa = 2 * (ua - la);
        return;
    }
    if (upper) {
        *sa = lb + theta * (ub - lb);
        *sb = ua + theta * (la - ua);
        *dsa = ub - lb;
    } else {
        *sa = ub + theta * (lb - ub);
        *sb = ua + theta * (la - ua);
        *dsa = lb - ub;
    }
    *dsb = la - ua;
    const double av[2] = {la, ua}, bv[2] = {lb, ub};
    double ext = upper ? -INFINITY : INFINITY, best = upper ? -INFINITY : INFINITY;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            double a = av[i], b = bv[j], e;
            if (upper)
                e = vfy_sub_up(vfy_sub_up(vfy_mul_up(a, b), vfy_mul_down(*sa, a)),
                               vfy_mul_down(*sb, b));
            else
                e = vfy_sub_down(vfy_sub_down(vfy_mul_down(a, b), vfy_mul_up(*sa, a)),
                                 vfy_mul_up(*sb, b));
            ext = isnan(e) || isnan(ext) ? NAN : (upper ? fmax(ext, e) : fmin(ext, e));
            double f = a * b - *sa * a - *sb * b; /* (which vertex: steering only) */
            if (upper ? f > best : f < best) {
                best = f;
                *va = a;
                *vb = b;
            }
        }
    *t = isnan(ext) ? (upper ? INFINITY : -INFINITY) : ext;
}

void vfy_bound_product_plane(double la, double ua, double lb, double ub, int square, int upper,
                             double theta, double *sa, double *sb, double *t)
{
    double va, vb, da, db;
    product_mixed_plane(la, ua, lb, ub, square, upper, theta, sa, sb, t, &va, &vb, &da, &db);
}

/* The range of a b over the box, rounded outward (a square: of a^2 over [la, ua]); the whole line
 * when a bound is not finite. */
static void product_interval(double la, double ua, double lb, double ub, int square, double *lo,
                             double *hi)
{
    if (!(isfinite(la) && isfinite(ua) && isfinite(lb) && isfinite(ub))) {
        *lo = -INFINITY;
        *hi = INFINITY;
        return;
    }
    if (square) {
        double m = fmax(fabs(la), fabs(ua));
        *lo = la >= 0 ? vfy_mul_down(la, la) : (ua <= 0 ? vfy_mul_down(ua, ua) : 0.0);
        *hi = vfy_mul_up(m, m);
        return;
    }
    const double av[2] = {la, ua}, bv[2] = {lb, ub};
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            *lo = fmin(*lo, vfy_mul_down(av[i], bv[j]));
            *hi = fmax(*hi, vfy_mul_up(av[i], bv[j]));
        }
}

/* How far a float32 execution's product of a and b (|a| <= ma, |b| <= mb) may be from the real
 * one: fl(a b) = a b (1 + delta) + eta, |delta| <= 2^-24, |eta| <= 2^-150 (an underflow). */
static double product_exec_err(double ma, double mb)
{
    return vfy_add_up(vfy_mul_up(vfy_mul_up(ma, mb), 0x1p-24), 0x1p-149);
}

/* PRODUCT, backward: by product_planes, lam y >= (lam sa) a + (lam sb) b + lam t with t = tl when
 * lam >= 0, else tu; a copy (b = -1) passes lam to a. Under the float claim each product's value
 * may be off by product_exec_err: |lam| times it is charged. SOUND: the coefficients of the
 * inputs are sums of at most n_out + 1 rounded products lam s (an input can feed several
 * outputs): |error| <= gamma(n_out + 2) sum |lam s| H, plus 2^-1074 H per product of underflow;
 * the constant d = sum lam t is a dot product, charged gamma(n_out + 2) sum |lam t| and 2^-1074
 * per term. */
static void product_backward(const vfy_bound_ctx *ctx, vfy_bound_scratch *s, const bseg *G,
                             int64_t k)
{
    const vfy_layer *L = &ctx->net->layers[k];
    int64_t n_in = L->n_in, n_out = L->n_out;
    const double *l = layer_in_lo(G->b, k, G->in_lo), *u = layer_in_hi(G->b, k, G->in_hi);
    double *lam = s->lam, *lam2 = s->lam2;
    /* per output: slopes s->m, s->r, intercepts s->c, s->R, execution error s->G */
    double hsum = 0;
    for (int64_t i = 0; i < n_in; i++) {
        s->H[i] = fmax(fabs(l[i]), fabs(u[i]));
        hsum = vfy_add_up(hsum, s->H[i]);
    }
    /* each row's mix of McCormick's planes (alpha passes), else the mean planes, made here */
    const double *pal = s->use_palpha ? s->pal + s->pal_K * ctx->moff[k] : NULL;
    for (int64_t j = 0; j < n_out; j++) {
        int64_t p = L->pool[2 * j], q = L->pool[2 * j + 1];
        if (q < 0)
            continue;
        if (!pal)
            product_planes(l[p], u[p], l[q], u[q], p == q, &s->m[j], &s->r[j], &s->c[j],
                           &s->R[j]);
        s->G[j] = ctx->float_semantics ? product_exec_err(s->H[p], s->H[q]) : 0.0;
    }
    double g = vfy_la_gamma(n_out + 2);
    double tiny = vfy_mul_up((double)(2 * n_out + 2) * ETA64, vfy_add_up(hsum, 1.0));
    for (int64_t i = G->r0; i < G->r0 + G->K; i++) {
        const double *row = lam + i * n_out;
        double *out = lam2 + i * n_in;
        double d = 0, abst = 0, errmu = 0, exec = 0;
        for (int64_t j = 0; j < n_out; j++) {
            double x = row[j];
            if (x == 0)
                continue;
            int64_t p = L->pool[2 * j], q = L->pool[2 * j + 1];
            if (q < 0) {
                out[p] += x;
                errmu += fabs(x) * s->H[p];
                continue;
            }
            double sa, sb, t, va, vb, da, db;
            if (pal) {
                product_mixed_plane(l[p], u[p], l[q], u[q], p == q, x < 0, pal[i * n_out + j],
                                    &sa, &sb, &t, &va, &vb, &da, &db);
            } else {
                sa = s->m[j];
                sb = s->r[j];
                t = x >= 0 ? s->c[j] : s->R[j];
            }
            double ma = x * sa, mb = x * sb;
            out[p] += ma;
            out[q] += mb;
            errmu += fabs(ma) * s->H[p] + fabs(mb) * s->H[q];
            double pr = x * t;
            d += pr;
            abst += fabs(pr);
            exec += fabs(x) * s->G[j];
        }
        double e = vfy_add_up(vfy_mul_up(g, errmu), vfy_mul_up(g, abst));
        if (exec > 0) /* SOUND: the sum of |lam| E rounded (gamma) and up */
            e = vfy_add_up(e, vfy_mul_up(exec, 1.0 + g));
        s->beta[i] += d;
        e = vfy_add_up(e, vfy_mul_up(fabs(s->beta[i]), 0x1p-52));
        s->slack[i] = vfy_add_up(vfy_add_up(s->slack[i], e), tiny);
    }
}

/* The float products' workspace of at least n floats; NULL when out of memory (double then). */
static float *f32_ws(vfy_bound_scratch *s, int64_t n)
{
    if ((size_t)n > s->cap_fws) {
        vfy_free(s->fws);
        s->fws = vfy_alloc_array((size_t)n, sizeof(float));
        s->cap_fws = s->fws ? (size_t)n : 0;
    }
    return s->fws;
}

/* An activation layer's neurons for a backward pass over its input bounds [l, u] (n of them):
 * H = max(|l|, |u|) and its sum rounded up (*hsum); the neurons to relax, unst[0 .. *nu): every
 * neuron of a SIGMOID/TANH layer, a ReLU layer's unstable ones, with their upper line su z + tu
 * and CROWN's lower slope sl (relu only); a ReLU layer's inactive ones, inact[0 .. *nz) (a stable
 * active ReLU is in neither). */
static void act_classify(int relu, int64_t n, int64_t n_pass, const double *l, const double *u,
                         double *H, double *sl, double *su, double *tu, int64_t *unst,
                         int64_t *inact, int64_t *nu, int64_t *nz, double *hsum)
{
    int64_t a = 0, z = 0;
    double hs = 0;
    for (int64_t j = 0; j < n; j++) {
        H[j] = fmax(fabs(l[j]), fabs(u[j]));
        hs = vfy_add_up(hs, H[j]);
        if (!relu) { /* every neuron relaxed, but those passed through (the identity) */
            if (j >= n_pass)
                unst[a++] = j;
            continue;
        }
        if (l[j] >= 0)
            continue;
        if (u[j] > 0) {
            relu_upper_line(l[j], u[j], &su[j], &tu[j]);
            sl[j] = relu_lower_slope(l[j], u[j]);
            unst[a++] = j;
        } else {
            inact[z++] = j;
        }
    }
    *nu = a;
    *nz = z;
    *hsum = hs;
}

/* The underflow of a backward step through an activation layer of n inputs whose magnitudes sum
 * to at most hsum: 2^-1074 per product, n + 1 of them per unit of |coefficient| times H. */
static double act_tiny(int64_t n, double hsum)
{
    return vfy_mul_up((double)(n + 1) * ETA64, vfy_add_up(hsum, 1.0));
}

/* Fill the batch's ReLU cache (the scratch's rc_* fields) for its n_seg segments; 0 when memory
 * is short (the passes then classify as usual). */
static int relu_cache_fill(const vfy_bound_ctx *ctx, vfy_bound_scratch *s, const bseg *segs,
                           int64_t n_seg)
{
    const vfy_net *net = ctx->net;
    int64_t R = ctx->n_relu, L = net->n_layers;
    size_t nr = (size_t)(n_seg * R), nl = (size_t)(n_seg * L);
    if (R == 0 || !grow_buf(&s->rc_lines, &s->cap_rc_lines, 4 * nr + 1) ||
        !grow_buf(&s->rc_tiny, &s->cap_rc_tiny, nl + 1))
        return 0;
    if (2 * nr + 1 > s->cap_rc_idx || 2 * nl + 1 > s->cap_rc_cnt) {
        vfy_free(s->rc_idx);
        vfy_free(s->rc_cnt);
        s->rc_idx = vfy_alloc_array(2 * nr + 1, sizeof(int64_t));
        s->rc_cnt = vfy_alloc_array(2 * nl + 1, sizeof(int64_t));
        s->cap_rc_idx = s->rc_idx && s->rc_cnt ? 2 * nr + 1 : 0;
        s->cap_rc_cnt = s->rc_idx && s->rc_cnt ? 2 * nl + 1 : 0;
        if (!s->cap_rc_idx)
            return 0;
    }
    double *sl = s->rc_lines, *su = sl + nr, *tu = su + nr, *H = tu + nr;
    s->rc_n = n_seg;
    for (int64_t g = 0; g < n_seg; g++) {
        const bseg *G = &segs[g];
        VFY_ASSERT(G->rc == g); /* (filled for the call's segments, in order) */
        for (int64_t k = 0; k < L; k++) {
            const vfy_layer *Ly = &net->layers[k];
            if (Ly->kind != VFY_LAYER_RELU)
                continue;
            int64_t o = g * R + ctx->roff[k], n = Ly->n_in, *c = s->rc_cnt + 2 * (g * L + k);
            double hsum;
            act_classify(1, n, 0, layer_in_lo(G->b, k, G->in_lo), layer_in_hi(G->b, k, G->in_hi),
                         H + o, sl + o, su + o, tu + o, s->rc_idx + 2 * o, s->rc_idx + 2 * o + n,
                         &c[0], &c[1], &hsum);
            s->rc_tiny[g * L + k] = act_tiny(n, hsum);
        }
    }
    return 1;
}

/* *t = |row|·q and *d = row·b, each in four partial sums (independent additions: not one chain
 * of latencies); SOUND in any order: the caller's charges (gamma) hold for every summation order */
static void row_terms4(const double *restrict row, const double *restrict q,
                       const double *restrict b, int64_t n, double *t, double *d)
{
    double t4[4] = {0, 0, 0, 0}, d4[4] = {0, 0, 0, 0};
    int64_t j = 0;
    for (; j + 4 <= n; j += 4)
        for (int u = 0; u < 4; u++) {
            t4[u] += fabs(row[j + u]) * q[j + u];
            d4[u] += row[j + u] * b[j + u];
        }
    for (; j < n; j++) {
        t4[0] += fabs(row[j]) * q[j];
        d4[0] += row[j] * b[j];
    }
    *t = (t4[0] + t4[1]) + (t4[2] + t4[3]);
    *d = (d4[0] + d4[1]) + (d4[2] + d4[3]);
}

/* The centred form's correction of rows r0 .. r0 + K of segment G (cen_compute): with lam the rows
 * on the input layer's output and P = lam2 their float32 product, T = lam (W c) - P c added to each
 * row's constant. SOUND: fl(lam fl(W c)) is within gamma(n_out) |lam| |fl(W c)| (plus
 * n_out 2^-1074) of lam fl(W c), which is within |lam| |fl(W c) - W c| of lam (W c): both in
 * |lam| cen_wce, its sum rounded (1 + gamma); fl(P c) within gamma(n_in) |P| |c| (plus
 * n_in 2^-1074) of P c; their difference and its addition to the constant are rounded once each
 * (2^-52 of the result's magnitude, as elsewhere). All charged to the row's slack; the sums in any
 * order (row_terms4). */
static void cen_correct(const vfy_bound_scratch *ds, vfy_bound_scratch *s, const bseg *G,
                        const double *lam, const double *lam2, int64_t n_in, int64_t n_out)
{
    double go = vfy_la_gamma(n_out), gi = vfy_la_gamma(n_in);
    double tiny = (double)(n_in + n_out) * ETA64;
    for (int64_t i = G->r0; i < G->r0 + G->K; i++) {
        double a, ae, pc, pa;
        row_terms4(lam + i * n_out, ds->cen_wce, ds->cen_wc, n_out, &ae, &a);
        row_terms4(lam2 + i * n_in, ds->cen_ac, ds->cen_c, n_in, &pa, &pc);
        double T = a - pc;
        double e = vfy_add_up(vfy_mul_up(ae, 1.0 + go), vfy_mul_up(gi, pa));
        e = vfy_add_up(vfy_add_up(e, tiny), vfy_mul_up(fabs(T), 0x1p-52));
        s->beta[i] += T;
        e = vfy_add_up(e, vfy_mul_up(fabs(s->beta[i]), 0x1p-52));
        s->slack[i] = vfy_add_up(s->slack[i], e);
    }
}

/* A SCALE layer's row: out = row .* w and row_terms4's sums, in one pass over the row (rows of
 * lam and lam2 never overlap: restrict lets the loop run in vectors) */
static void scale_row_terms(double *restrict out, const double *restrict row,
                            const double *restrict w, const double *restrict q,
                            const double *restrict b, int64_t n, double *t, double *d)
{
    double t4[4] = {0, 0, 0, 0}, d4[4] = {0, 0, 0, 0};
    int64_t j = 0;
    for (; j + 4 <= n; j += 4)
        for (int u = 0; u < 4; u++) {
            double r = row[j + u];
            out[j + u] = r * w[j + u];
            t4[u] += fabs(r) * q[j + u];
            d4[u] += r * b[j + u];
        }
    for (; j < n; j++) {
        out[j] = row[j] * w[j];
        t4[0] += fabs(row[j]) * q[j];
        d4[0] += row[j] * b[j];
    }
    *t = (t4[0] + t4[1]) + (t4[2] + t4[3]);
    *d = (d4[0] + d4[1]) + (d4[2] + d4[3]);
}


/* ---------------------------------------------------------------- ideal upper facets */
/* The hull of y = relu(sum_i w_i v_i + beta) over the box of v (Anderson et al. 2020), beta <= bu:
 * with Lc_i the end of v_i minimising w_i v_i, Uc_i the other, l(I) = bu + sum_I w_i Lc_i +
 * sum_{not I} w_i Uc_i, any I and h not in I with l(I) >= 0 >= l(I + h) give
 *     y <= sum_I w_i (v_i - Lc_i) + theta w_h (v_h - Lc_h),   theta = l(I) / (|w_h| (Uc_h - Lc_h)),
 * and so does any theta' >= max(theta, 0): at z <= 0 every term is >= 0; at z > 0 the right side
 * minus z is at least -l(I) + |w_h| |Uc_h - v_h| + theta' |w_h| |v_h - Lc_h|, linear in v_h,
 * 0 at Uc_h and -l(I + h) >= 0 at Lc_h. A row's coefficient x < 0 on y then takes x times the
 * right side, which acts on v directly (the neuron's coefficient on z is 0). The facet of a row is
 * the tightest at its last primal point v*: the inputs by increasing (v*_i - Lc_i)/(Uc_i - Lc_i),
 * I their prefix until l would cross 0, h the one crossing. */
static double ds_hsum(const vfy_bounds *b, int64_t k) { return b->scratch->hsum[k]; }

/* The mixes' ascent rate: on oval21 cifar_deep_kw img1052 (the search's gap after 60 s
 * --no-refine) 0.01: -0.0129, 0.05: -0.0052, 0.1: -0.0030, 0.2: -0.0040 */
#define FAC_LR 0.1
/* The facets are chosen at one gradient step in FAC_RESELECT (rows that leave the ascent take
 * theirs with them: pack_segments packs the rest's points, names and mixes);
 * the steps between keep them, named at the point where they were chosen (fac_v), and move their
 * mixes by their values at each step's own point (fac_value_at). Chosen anew at every step, the
 * facet tightest at one minimiser was loose at the next and the mixes never settled: oval21
 * cifar_deep_kw img1052's root (CROWN's layer bounds), first row, -0.0566 after 50, 200 or 1,000
 * steps; kept for 2, 4, 8, 10 steps or for good: -0.0204, -0.0125, -0.0079, -0.0048, -0.0115
 * (alpha alone -0.0804; the LP with each ReLU's hull over its inputs' box +0.059). Its search
 * (--no-refine): a timeout at 120 s (26,193 domains) before; unsat in 65.4 s with 4, 57.3 s
 * with 8. Every unstable neuron of a row is looked at: chosen at every step, the facets of all
 * of them had cost too much (cifar_deep_kw img4168 timed out at 72 s: 109 domains in its first
 * phase's 2.4 s), so only the 64 of the largest triangle intercepts were; chosen one step in 8,
 * all of them take img1052's first row to +0.0155 (refuted at the root) and its search to 33.4 s
 * (5,929 domains, against 13,035 with 64); img4168 63.8 s. Since the memo (struct fac_memo)
 * made a kept step cheap, 16 (a search's domain, 16 steps, chooses its facets once): oval21 at a
 * tenth of its timeouts, its 23 solved in 84.6 / 89.4 s against 90.9 / 91.8 s with 8 (two runs
 * each; cifar_deep_kw img1052 6.9-8.0 s against 10.9-11.6 s), and mnist_fc's root pass with the
 * facets faster and tighter (256x6 prop_12_0.05: 4.72 s, 1,001 left unstable, against 5.80 s,
 * 1,008; 256x4 prop_2_0.05: 2.22 s, 503, against 2.90 s, 511); cifar_wide_kw img9916 at 120 s
 * 17,168 domains against 11,570 */
#define FAC_RESELECT 16

struct fac_item {
    double p, d;
    int64_t i;
};

/* Neuron j of DENSE layer P: its inputs (col NULL: all of P's) and weights. */
static int64_t fac_row(const vfy_layer *P, int64_t j, const int64_t **col, const double **w)
{
    if (P->csr) {
        int64_t a = P->csr->row_start[j];
        *col = P->csr->col + a;
        *w = P->csr->val + a;
        return P->csr->row_start[j + 1] - a;
    }
    *col = NULL;
    *w = P->w + j * P->n_in;
    return P->n_in;
}

/* What the facets of one domain's DENSE layer P share: per input of its box lo, hi, hi - lo
 * (plain: the selection), the same rounded down and max(|lo|, |hi|); per neuron, l(empty)
 * (fac_l0) in plain arithmetic and rounded up, each computed at its first use (NAN until then);
 * and the row's point's position (v*_i - lo_i) / (hi_i - lo_i) (fac_pre_row). Computed once per
 * domain and layer for a whole call of vfy_bound_rows_alpha_batch, whose passes all bound the
 * domain on the same layer bounds and perturbations (once per pass, the sums over the box were
 * 11% of oval21 cifar_wide_kw img3458's time; once per row and neuron, 80% of mnist_fc 256x4
 * prop_14_0.05's). */
typedef struct {
    const double *lo, *hi;
    double *rng, *rng_dn, *mag, *pos, *l0, *l0_up;
} fac_pre;

#define FAC_BOX(ctx) (3 * (ctx)->n_fv + 2 * (ctx)->n_fo)

static fac_pre fac_pre_start(const vfy_bound_ctx *ctx, vfy_bound_scratch *s, const bseg *G,
                             int64_t k)
{
    const vfy_layer *P = &ctx->net->layers[k - 1];
    const double *lo = layer_in_lo(G->b, k - 1, G->in_lo), *hi = layer_in_hi(G->b, k - 1, G->in_hi);
    double *box = s->fac_box + G->rc * FAC_BOX(ctx);
    int64_t v = ctx->fvoff[k], o = 3 * ctx->n_fv + ctx->fooff[k];
    fac_pre f = {lo,      hi,           box + v, box + ctx->n_fv + v, box + 2 * ctx->n_fv + v,
                 s->fac_pre, box + o, box + o + ctx->n_fo};
    double *rdy = &s->fac_rdy[G->rc * ctx->net->n_layers + k];
    if (*rdy == 0) {
        for (int64_t i = 0; i < P->n_in; i++) {
            f.rng[i] = hi[i] - lo[i];
            f.rng_dn[i] = vfy_sub_down(hi[i], lo[i]);
            f.mag[i] = fmax(fabs(lo[i]), fabs(hi[i]));
        }
        for (int64_t j = 0; j < P->n_out; j++)
            f.l0[j] = f.l0_up[j] = NAN;
        *rdy = 1;
    }
    return f;
}

/* The position of the row's point vs in the box, per input (plain arithmetic: it only chooses). */
static void fac_pre_row(const vfy_layer *P, fac_pre *f, const double *vs)
{
    for (int64_t i = 0; i < P->n_in; i++)
        f->pos[i] = f->rng[i] > 0 ? (vs[i] - f->lo[i]) / f->rng[i] : 0.0;
}

/* l(empty) = bu + sum_i w_i (w_i >= 0 ? u_i : l_i) of neuron j, in plain arithmetic (f->l0: it
 * only chooses; -inf: none) and rounded up (f->l0_up; +inf: none), both at its first use in the
 * pass, in one pass over the row. SOUND: the sum of bu and n rounded products is within
 * gamma(n + 1) (|bu| + sum |p_i|) of the exact one, plus 2^-1074 per product for underflow
 * (vfy_la_gamma(n + 2) covers the rounding of the computed sum of magnitudes too); an infinite
 * or NaN sum (an unbounded input) names no facet. */
static void fac_l0(const vfy_layer *P, int64_t j, fac_pre *f, double bu)
{
    if (!isnan(f->l0_up[j]))
        return;
    const int64_t *col;
    const double *w;
    int64_t n = fac_row(P, j, &col, &w), e = 0;
    double ps[4] = {0, 0, 0, 0}, pa[4] = {0, 0, 0, 0};
    if (!col)
        for (; e + 4 <= n; e += 4)
            for (int t = 0; t < 4; t++) {
                double p = w[e + t] * (w[e + t] >= 0 ? f->hi[e + t] : f->lo[e + t]);
                ps[t] += p;
                pa[t] += fabs(p);
            }
    for (; e < n; e++) {
        int64_t i = col ? col[e] : e;
        double p = w[e] * (w[e] >= 0 ? f->hi[i] : f->lo[i]);
        ps[0] += p;
        pa[0] += fabs(p);
    }
    double sum = bu + ((ps[0] + ps[1]) + (ps[2] + ps[3]));
    double mag = fabs(bu) + ((pa[0] + pa[1]) + (pa[2] + pa[3]));
    double err = vfy_add_up(vfy_mul_up(mag, vfy_la_gamma(n + 2)), (double)n * ETA64);
    double up = vfy_add_up(sum, err);
    f->l0[j] = isfinite(sum) && isfinite(up) ? sum : -INFINITY;
    f->l0_up[j] = isfinite(sum) && isfinite(up) ? up : INFINITY;
}

/* Inputs in the order of their position, ties by their entry in the row: a strict total order,
 * so that a facet is named by its h alone (I: the inputs before h; fac_emit_at) */
static inline int fac_before(double p, int64_t e, double ph, int64_t eh)
{
    return p < ph || (p == ph && e < eh);
}

/* x where c holds, else +0, and a where c holds, else b: by masks, without a branch. The facets'
 * loops below test each input of a row against the position of h; in the order of the row those
 * tests fall either way at random, and as branches their mispredictions took most of the loops'
 * time (oval21 cifar_wide_kw img9916: fac_value_at and fac_emit_at 40% of the search's). The
 * results are the same as with branches: an input left out adds +0 to each sum. */
static inline double fac_keep(int c, double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    u &= (uint64_t)0 - (uint64_t)(c != 0);
    memcpy(&x, &u, sizeof x);
    return x;
}

static inline double fac_sel(int c, double a, double b)
{
    uint64_t ua, ub, m = (uint64_t)0 - (uint64_t)(c != 0);
    memcpy(&ua, &a, sizeof ua);
    memcpy(&ub, &b, sizeof ub);
    ua = (ua & m) | (ub & ~m);
    memcpy(&a, &ua, sizeof a);
    return a;
}

/* Positions in FAC_NB buckets (fac_select): a bucket's inputs all come before the next's */
#define FAC_NB 64
static inline int fac_bucket(double p)
{
    /* clamped to [0, FAC_NB - 1] by maxsd/minsd, not branches (a point at a corner of its box
     * puts positions at 0 and 1 at random); p < 1 gives p FAC_NB < FAC_NB exactly, p NaN 0 */
    double c = p * FAC_NB;
    c = c > 0 ? c : 0.0;
    c = c < FAC_NB - 1 ? c : (double)(FAC_NB - 1);
    return (int)c;
}

/* The crossing among ord[a .. end) in the order fac_before, by weighted selection (expected
 * linear time): the input where the widths d, summed in that order, reach *budget. The inputs
 * before it move to the front of the range; returns its place, *budget less their widths; or
 * end, *budget less all the range's, when they sum to less. */
static int64_t fac_cross(struct fac_item *ord, int64_t a, int64_t end, double *budget)
{
    int64_t bnd = end;
    while (bnd - a > 1) {
        double piv = ord[a + (bnd - a) / 2].p;
        int64_t pe = ord[a + (bnd - a) / 2].i;
        int64_t lt = a, gt = bnd, t = a; /* [a, lt) before piv, [lt, t) piv, [gt, bnd) after */
        double sl = 0, se = 0;
        while (t < gt) {
            struct fac_item it = ord[t];
            if (fac_before(it.p, it.i, piv, pe)) {
                ord[t++] = ord[lt];
                ord[lt++] = it;
                sl += it.d;
            } else if (it.i != pe) {
                ord[t] = ord[--gt];
                ord[gt] = it;
            } else {
                t++;
                se += it.d;
            }
        }
        if (sl >= *budget) {
            bnd = lt;
        } else if (sl + se >= *budget) {
            *budget -= sl;
            a = lt; /* (gt == lt + 1: the pivot alone) */
            bnd = a + 1;
        } else {
            *budget -= sl + se;
            a = gt;
        }
    }
    if (a < end && bnd == end && ord[a].d < *budget) { /* the last input, short of it */
        *budget -= ord[a].d;
        return end;
    }
    return a;
}

/* The tightest facet of neuron j of DENSE layer P (beta <= bu; the box and the point's position in
 * f) in plain arithmetic (it only chooses): I is ord[0 .. *q), h is ord[*q].i (entries of P's row),
 * the inputs that can move ord[0 .. *m); I holds exactly the inputs before h (fac_before); its
 * value at the point in *fv (fv NULL: not wanted). Returns 0 when there is none (an input
 * unbounded, or the neuron stable over the box). */
static int fac_select(const vfy_layer *P, int64_t j, fac_pre *f, double bu, struct fac_item *ord,
                      int64_t *qo, int64_t *mo, double *fv)
{
    const int64_t *col;
    const double *w;
    int64_t n = fac_row(P, j, &col, &w), m = 0;
    fac_l0(P, j, f, bu);
    double l0 = f->l0[j];
    if (!(l0 > 0))
        return 0;
    /* the inputs that can move, and their widths d and p d summed per bucket of position */
    double bd[FAC_NB] = {0}, bpd[FAC_NB] = {0};
    for (int64_t e = 0; e < n; e++) {
        int64_t i = col ? col[e] : e;
        double wi = w[e];
        if (wi != 0 && f->rng[i] > 0) {
            double p = fac_sel(wi >= 0, f->pos[i], 1.0 - f->pos[i]), d = fabs(wi) * f->rng[i];
            if (isnan(p))
                continue; /* (fac_before puts it before nothing: never in I, never h) */
            int b = fac_bucket(p);
            bd[b] += d;
            bpd[b] += p * d;
            ord[m++] = (struct fac_item){p, d, e};
        }
    }
    /* the bucket where the widths reach l(empty), the inputs of those before it to the front,
     * then its own: the crossing is among these (or, by the sums' rounding, after them) */
    double budget = l0, fs = 0;
    int B = 0;
    for (; B < FAC_NB && bd[B] < budget; B++) {
        budget -= bd[B];
        fs += bpd[B];
    }
    if (B == FAC_NB)
        return 0;
    int64_t lt = 0, t = 0, gt = m;
    while (t < gt) {
        struct fac_item it = ord[t];
        int b = fac_bucket(it.p);
        if (b < B) {
            ord[t++] = ord[lt];
            ord[lt++] = it;
        } else if (b > B) {
            ord[t] = ord[--gt];
            ord[gt] = it;
        } else
            t++;
    }
    int64_t a = fac_cross(ord, lt, gt, &budget);
    if (a >= gt)
        a = fac_cross(ord, gt, m, &budget);
    if (a >= m)
        return 0;
    *qo = a;
    *mo = m;
    if (!fv)
        return 1;
    double th = budget / ord[a].d;
    for (t = lt; t < a; t++)
        fs += ord[t].p * ord[t].d;
    *fv = fs + fmin(fmax(th, 0.0), 1.0) * ord[a].p * ord[a].d;
    return 1;
}

/* Whether entry e of a row (weight we, input i), an input that can move (we != 0, rng > 0: the
 * caller's test, a branch, as most inputs of a layer can move or most cannot), is in the I of the
 * facet named by h at f's point (ph: h's position there): before h (fac_before), as 0 or 1 */
static inline int fac_in_I(const fac_pre *f, double we, int64_t i, int64_t e, double ph,
                           int64_t h)
{
    double p = fac_sel(we >= 0, f->pos[i], 1.0 - f->pos[i]);
    return (p < ph) | ((p == ph) & (e < h));
}

/* mm's flags for generation gen and the facet named by h, after clearing an entry of another */
static inline int fac_memo_flags(struct fac_memo *mm, uint64_t gen, int64_t h)
{
    if (mm->gen != gen || mm->h != h) {
        mm->gen = gen;
        mm->h = (int32_t)h;
        mm->flags = 0;
    }
    return mm->flags;
}

/* The value at the point whose positions are pos of the facet named by h at f's point (I: the
 * inputs before h there; plain arithmetic: it only steers the ascent). Returns 0 when h names
 * none. mm (NULL: none) and bits are the row's and neuron's memo (struct fac_memo) for gen: I and
 * D from it where they are there, else put there. */
static int fac_value_at(const vfy_layer *P, int64_t j, fac_pre *f, const double *pos, double bu,
                        int64_t h, struct fac_memo *mm, uint64_t *bits, uint64_t gen, double *fv)
{
    const int64_t *col;
    const double *w;
    int64_t n = fac_row(P, j, &col, &w);
    fac_l0(P, j, f, bu);
    double l0 = f->l0[j];
    if (!(l0 > 0))
        return 0;
    int64_t ih = col ? col[h] : h;
    if (!(f->rng[ih] > 0) || w[h] == 0)
        return 0;
    double D = 0, fs = 0;
    int fl = mm ? fac_memo_flags(mm, gen, h) : 0;
    if (fl & FM_BITS) {
        /* I's entries in the order of the row: the sums below, less their terms of +0 (D too
         * where fac_emit_at put I there first) */
        int dv = !(fl & FM_VAL);
        for (int64_t wd = 0; wd * 64 < n; wd++)
            for (uint64_t b = bits[wd]; b; b &= b - 1) {
                int64_t e = wd * 64 + __builtin_ctzll(b), i = col ? col[e] : e;
                double we = w[e], d = fabs(we) * f->rng[i];
                D += dv ? d : 0.0;
                fs += fac_sel(we >= 0, pos[i], 1.0 - pos[i]) * d;
            }
        if (dv) {
            mm->D = D;
            mm->flags |= FM_VAL;
        }
        D = mm->D;
    } else {
        double ph = w[h] >= 0 ? f->pos[ih] : 1.0 - f->pos[ih];
        if (mm)
            memset(bits, 0, (size_t)((n + 63) / 64) * sizeof *bits);
        for (int64_t e = 0; e < n; e++) {
            int64_t i = col ? col[e] : e;
            double we = w[e];
            if (we == 0 || !(f->rng[i] > 0))
                continue;
            int in = fac_in_I(f, we, i, e, ph, h);
            double d = fac_keep(in, fabs(we) * f->rng[i]);
            D += d;
            fs += fac_keep(in, fac_sel(we >= 0, pos[i], 1.0 - pos[i]) * d);
            if (mm)
                bits[e >> 6] |= (uint64_t)in << (e & 63);
        }
        if (mm) {
            mm->D = D;
            mm->flags |= FM_BITS | FM_VAL;
        }
    }
    double dh = fabs(w[h]) * f->rng[ih], th = (l0 - D) / dh;
    *fv = fs + fmin(fmax(th, 0.0), 1.0) * (w[h] >= 0 ? pos[ih] : 1.0 - pos[ih]) * dh;
    return isfinite(*fv);
}

/* The facet's term theta w_h (v_h - Lc_h) (input ih of weight wh) added to a row's emission: its
 * coefficient x theta wh onto corr, its constant into S (low; the product theta wh enclosed
 * between its two roundings) and its magnitude into E (high); then the row's constant's lower
 * bound -x S in *cst and its error |x| E in *err. Returns 0 where either is not finite. */
static int fac_emit_h(const fac_pre *f, double wh, int64_t ih, double theta, double x, double S,
                      double E, double *corr, double *cst, double *err)
{
    double lch = wh >= 0 ? f->lo[ih] : f->hi[ih];
    double tlo = vfy_mul_down(theta, wh), thi = vfy_mul_up(theta, wh);
    corr[ih] += x * (theta * wh);
    S = vfy_add_down(S, fmin(vfy_mul_down(tlo, lch), vfy_mul_down(thi, lch)));
    E = vfy_add_up(E, vfy_mul_up(fmax(fabs(tlo), fabs(thi)), f->mag[ih]));
    *cst = vfy_mul_down(-x, S);
    *err = vfy_mul_up(-x, E);
    return isfinite(*cst) && isfinite(*err);
}

/* For a row with coefficient x < 0 on the ReLU of neuron j (beta <= bu), the facet fac_select
 * chose (I = ord[0 .. q), h = ord[q]), with rigorous rounding: x times its coefficients added to
 * corr, its constant's lower bound in *cst, |x| sum |g_i| H_i in *err. Returns 0 when the chosen
 * I, h do not make a facet once rounded (l(I + h) > 0 rounding up). */
static int fac_emit(const vfy_layer *P, int64_t j, fac_pre *f, double bu, struct fac_item *ord,
                    int64_t q, int64_t m, double x, double *corr, double *cst, double *err)
{
    const int64_t *col;
    const double *w;
    const double *lo = f->lo, *hi = f->hi;
    fac_row(P, j, &col, &w);
    fac_l0(P, j, f, bu);
    double l = f->l0_up[j];
    for (int64_t t = 0; t < q; t++) {
        int64_t e = ord[t].i, i = col ? col[e] : e;
        l = vfy_sub_up(l, vfy_mul_down(fabs(w[e]), f->rng_dn[i]));
    }
    int64_t h = ord[q].i, ih = col ? col[h] : h;
    double dh = vfy_mul_down(fabs(w[h]), f->rng_dn[ih]);
    /* rounded up, l(I + h) may still be above 0 where the plain sums crossed: h joins I and the
     * next input by position is h (a few times at most) */
    for (int tries = 0; tries < 4 && dh > 0 && vfy_sub_up(l, dh) > 0 && q + 1 < m; tries++) {
        l = vfy_sub_up(l, dh);
        int64_t nx = q + 1;
        for (int64_t t = q + 2; t < m; t++)
            nx = ord[t].p < ord[nx].p ? t : nx;
        struct fac_item it = ord[q + 1];
        ord[q + 1] = ord[nx];
        ord[nx] = it;
        q++;
        h = ord[q].i;
        ih = col ? col[h] : h;
        dh = vfy_mul_down(fabs(w[h]), f->rng_dn[ih]);
    }
    if (!(dh > 0) || !(vfy_sub_up(l, dh) <= 0) || !isfinite(l))
        return 0;
    double theta = fmax(vfy_div_up(l, dh), 0.0);
    double S = 0, E = 0;
    for (int64_t t = 0; t < q; t++) {
        int64_t e = ord[t].i, i = col ? col[e] : e;
        double lc = w[e] >= 0 ? lo[i] : hi[i];
        corr[i] += x * w[e];
        S = vfy_add_down(S, vfy_mul_down(w[e], lc));
        E = vfy_add_up(E, vfy_mul_up(fabs(w[e]), f->mag[i]));
    }
    return fac_emit_h(f, w[h], ih, theta, x, S, E, corr, cst, err);
}

/* x w_e onto corr at the input of each entry e of the bit set I (a row of n entries), in the
 * row's order */
static void fac_corr_add(int64_t n, const int64_t *col, const double *w, const uint64_t *bits,
                         double x, double *corr)
{
    for (int64_t wd = 0; wd * 64 < n; wd++)
        for (uint64_t b = bits[wd]; b; b &= b - 1) {
            int64_t e = wd * 64 + __builtin_ctzll(b);
            corr[col ? col[e] : e] += x * w[e];
        }
}

/* fac_emit for the facet named by h alone (an entry of P's row): I is the inputs before h
 * (fac_before) at f's position, the set fac_select chose there. One pass over the row gathers
 * I, with its three sums in plain arithmetic, each then widened by its rounding error (SOUND, for
 * any summation order: a sum of n rounded products is within gamma(n + 1) times the computed sum
 * of their magnitudes, plus 2^-1074 per product for underflow, of the exact sum):
 *   D = sum_I |w_i| (u_i - l_i)dn, taken low, so l(I) = l(empty)up - D is taken high;
 *   S = sum_I w_i lc_i, taken low;   E = sum_I |w_i| H_i, taken high;
 * each is what fac_emit's chains of directed roundings bound. Returns 1 with the facet added as
 * fac_emit does, 0 when there is none, -1 when l(I + h) > 0 once rounded (fac_emit's walk past h
 * is the caller's). mm (NULL: none) and bits are the row's and neuron's memo for gen: I, theta,
 * S, E and the outcome, which depend on the facet and the box, not on x, from it where they are
 * there (the same numbers), else put there. */
static int fac_emit_at(const vfy_layer *P, int64_t j, fac_pre *f, double bu, int64_t h,
                       struct fac_memo *mm, uint64_t *bits, uint64_t gen, double x, double *corr,
                       double *cst, double *err)
{
    const int64_t *col;
    const double *w;
    const double *lo = f->lo, *hi = f->hi;
    int64_t n = fac_row(P, j, &col, &w);
    int64_t ih = col ? col[h] : h;
    int fl = mm ? fac_memo_flags(mm, gen, h) : 0;
    if ((fl & (FM_BITS | FM_EMIT)) == (FM_BITS | FM_EMIT)) {
        if (mm->rc != 1)
            return mm->rc;
        fac_corr_add(n, col, w, bits, x, corr);
        return fac_emit_h(f, w[h], ih, mm->theta, x, mm->S, mm->E, corr, cst, err);
    }
    fac_l0(P, j, f, bu);
    double l0 = f->l0_up[j];
    double ph = w[h] >= 0 ? f->pos[ih] : 1.0 - f->pos[ih];
    double D = 0, S = 0, Sa = 0, E = 0;
    int64_t q = 0;
    uint64_t own[FAC_MAX_FANIN / 64]; /* (without a memo; a facet layer's fan-in is at most that) */
    if (!mm)
        bits = own;
    memset(bits, 0, (size_t)((n + 63) / 64) * sizeof *bits);
    for (int64_t e = 0; e < n; e++) {
        int64_t i = col ? col[e] : e;
        double wi = w[e];
        if (wi == 0 || !(f->rng[i] > 0))
            continue;
        int in = fac_in_I(f, wi, i, e, ph, h);
        double t = fac_keep(in, wi * fac_sel(wi >= 0, lo[i], hi[i]));
        D += fac_keep(in, fabs(wi) * f->rng_dn[i]);
        S += t;
        Sa += fabs(t);
        E += fac_keep(in, fabs(wi) * f->mag[i]);
        bits[e >> 6] |= (uint64_t)in << (e & 63);
        q += in;
    }
    double g = vfy_la_gamma(q + 1), tiny = (double)q * ETA64;
    double l = vfy_sub_up(l0, vfy_sub_down(D, vfy_add_up(vfy_mul_up(D, g), tiny)));
    double dh = vfy_mul_down(fabs(w[h]), f->rng_dn[ih]);
    int rc = 1;
    if (!(dh > 0) || !isfinite(l))
        rc = 0;
    else if (!(vfy_sub_up(l, dh) <= 0))
        rc = -1;
    double theta = rc == 1 ? fmax(vfy_div_up(l, dh), 0.0) : 0.0;
    S = vfy_sub_down(S, vfy_add_up(vfy_mul_up(Sa, g), tiny));
    E = vfy_add_up(E, vfy_add_up(vfy_mul_up(E, g), tiny));
    if (mm) {
        mm->theta = theta;
        mm->S = S;
        mm->E = E;
        mm->rc = (int16_t)rc;
        mm->flags |= FM_BITS | FM_EMIT;
    }
    if (rc != 1)
        return rc;
    fac_corr_add(n, col, w, bits, x, corr);
    return fac_emit_h(f, w[h], ih, theta, x, S, E, corr, cst, err);
}

/* The backward pass. On entry s->lam holds K rows of coefficients on v_{k_end} and beta/slack the
 * constant and error of each row, with the invariant (for every execution of the network)
 *     row_i(y) >= lam_i · v_{k_end} + beta_i - slack_i.
 * Each step rewrites the right-hand side on v_{k-1} keeping the invariant; at v_0 = x the minimum over
 * the box is taken with directed rounding. cx (K x n_in or NULL) is added at the input. */
static void backward_segs(const vfy_bound_ctx *ctx, vfy_bound_scratch *s, const bseg *segs,
                          int64_t n_seg, int64_t k_end, int64_t K, const double *cx, double *lb,
                          double *lam_in, double *c_in, const double *alpha, double *tape,
                          const double *beta)
{
    const vfy_net *net = ctx->net;
    int64_t fac_layer = -1; /* the ReLU layer whose facets wait for their affine step */
    for (int64_t k = k_end - 1; k >= 0; k--) {
        if (s->abortable && vfy_deadline_over(ctx->dl)) {
            /* SOUND: -inf bounds every row (a layer of a large convolutional net takes a second
             * or more; past the deadline the rest of the pass is left out) */
            for (int64_t g = 0; g < n_seg; g++)
                for (int64_t i = segs[g].r0; i < segs[g].r0 + segs[g].K; i++) {
                    lb[i] = -INFINITY;
                    if (lam_in)
                        memset(lam_in + i * net->n_in, 0, (size_t)net->n_in * sizeof(double));
                    if (c_in)
                        c_in[i] = -INFINITY;
                }
            return;
        }
        const vfy_layer *L = &net->layers[k];
        int64_t n_in = L->n_in, n_out = L->n_out;
        double *lam = s->lam, *lam2 = s->lam2;
        /* beta-CROWN: on the domain, every split neuron satisfies sign (z_j - t) >= 0 (t = 0 for
         * a branching split), so for beta >= 0
         *     row >= row - beta sign (z_j - t) = row - beta sign z_j + beta sign t
         * there: subtract beta sign from the coefficient of z_j, add beta sign t to the constant.
         * SOUND for any computed value: fl(lam - beta sign) lies between lam and lam - beta sign
         * (rounding is monotonic), so the effective multiplier beta' (beta' sign = lam - fl(...))
         * is still >= 0; the constant takes beta' sign t, bounded below from the enclosure
         * [sub_down, sub_up] of lam - fl(...) and rounded down, its addition charged to the
         * slack. */
        for (int64_t g = 0; beta && g < n_seg; g++) {
            const bseg *G = &segs[g];
            for (int64_t q = 0; q < G->n_sp; q++) {
                if (s->sp_layer[G->sp0 + q] != k)
                    continue;
                double t = s->sp_off[G->sp0 + q];
                for (int64_t i = 0; i < G->K; i++) {
                    double *c = &lam[(G->r0 + i) * n_out + s->sp_j[G->sp0 + q]];
                    double old = *c;
                    *c = old - beta[G->bo + i * G->n_sp + q] * s->beta_s[G->sp0 + q];
                    if (t == 0.0 || *c == old)
                        continue;
                    double d_lo = vfy_sub_down(old, *c), d_hi = vfy_sub_up(old, *c);
                    double add = fmin(vfy_mul_down(d_lo, t), vfy_mul_down(d_hi, t));
                    int64_t r = G->r0 + i;
                    s->beta[r] += add;
                    s->slack[r] = vfy_add_up(s->slack[r], vfy_mul_up(fabs(s->beta[r]), 0x1p-52));
                }
            }
        }
        if (L->kind == VFY_LAYER_MAXPOOL || L->kind == VFY_LAYER_PRODUCT) {
            if (tape && s->mtape && K <= s->cap_mtape)
                memcpy(s->mtape + K * ctx->moff[k], lam, (size_t)(K * n_out) * sizeof(double));
            memset(lam2, 0, (size_t)(K * n_in) * sizeof(double));
            for (int64_t g = 0; g < n_seg; g++) {
                if (L->kind == VFY_LAYER_MAXPOOL)
                    maxpool_backward(ctx, s, &segs[g], k);
                else
                    product_backward(ctx, s, &segs[g], k);
            }
            s->lam = lam2;
            s->lam2 = lam;
            continue;
        }
        if (vfy_layer_is_act(L->kind)) {
            /* An activation h = f(z), relaxed per neuron by  sl z + tl <= f(z) <= su z + tu  on the
             * pre-activation's [l, u]; each coefficient picks the line by its sign:
             *   lam >= 0: lam f(z) >= (lam sl) z + lam tl;   lam < 0: lam f(z) >= (lam su) z + lam tu.
             * ReLU: stable active (l >= 0): f(z) = z, coefficient untouched; stable inactive
             * (u <= 0): f(z) = 0, coefficient 0; unstable: lower line a z (a = alpha, or CROWN's
             * default), upper line s z + t (relu_upper_line). SIGMOID/TANH: every neuron takes its
             * certified lines (act_relax), and a float execution's value of f is within
             * ACT_EXEC_ERR of the real one, so (float semantics) |lam| ACT_EXEC_ERR is charged.
             * SOUND: fl(lam sl) differs from lam sl by at most 2^-53 |mu| (+2^-1074), times
             * |z| <= H; the sum d of the lam t is a dot product charged gamma(n) sum |lam t|; the
             * underflow of each term is in tiny. */
            int relu = L->kind == VFY_LAYER_RELU;
            const double *al = alpha && relu ? alpha + K * ctx->roff[k] : NULL;
            if (tape && relu)
                memcpy(tape + K * ctx->roff[k], lam, (size_t)(K * n_in) * sizeof(double));
            /* SIGMOID/TANH with optimised slopes (inside vfy_bound_rows_alpha): each row's line
             * of slope sal_lo (lam >= 0) or sal_up (lam < 0), its intercept certified on the
             * neuron's pieces (act_cert: sound for any slope); where no piece data exists or
             * the certificate is not finite, the default line */
            const double *salo = NULL, *saup = NULL;
            double *sza = NULL, *sla = NULL, *stl = NULL;
            int sig = act_has_pieces(L->kind);
            if (sig && s->use_salpha) {
                int64_t o = K * ctx->soff[k];
                salo = s->sal_lo + o;
                saup = s->sal_up + o;
                sza = s->sza + o;
                sla = s->sla + o;
                stl = s->stl + o;
            }
            if (sig && (s->use_salpha || s->keep_stape))
                memcpy(s->stape + K * ctx->soff[k], lam, (size_t)(K * n_in) * sizeof(double));
            double exec_err = ctx->float_semantics ? act_exec_err(L) : 0.0;
            int64_t fo = relu && ctx->facets && s->fac_ok ? ctx->fvoff[k] : -1;
            const vfy_layer *FP = fo >= 0 ? &net->layers[k - 1] : NULL;
            if (FP) {
                memset(s->fac_corr, 0, (size_t)(K * FP->n_in) * sizeof(double));
                memset(s->fac_err, 0, (size_t)K * sizeof(double));
                fac_layer = k;
            }
            int cvx = vfy_layer_is_convex(L->kind);
            int per_neuron = ((cvx && !vfy_layer_in_softmax(L)) || vfy_layer_is_gated(L->kind)) &&
                             ctx->float_semantics;
            double g = vfy_la_gamma(n_in);
            for (int64_t sg = 0; sg < n_seg; sg++) {
                const bseg *G = &segs[sg];
                vfy_bound_scratch *ds = G->b->scratch; /* the domain's cached lines */
                const double *l = layer_in_lo(G->b, k, G->in_lo), *u = layer_in_hi(G->b, k, G->in_hi);
                /* classified once (per batch when the ReLU cache is on): unst relaxed, inact
                 * inactive (stable active: untouched) */
                int64_t nu, nz;
                const int64_t *unst, *inact;
                const double *H, *sl, *tl = NULL, *su, *tu, *mag = NULL;
                double tiny;
                if (relu && s->rc_on) {
                    int64_t o = G->rc * ctx->n_relu + ctx->roff[k], nr = s->rc_n * ctx->n_relu;
                    const int64_t *c = s->rc_cnt + 2 * (G->rc * net->n_layers + k);
                    sl = s->rc_lines + o;
                    su = sl + nr;
                    tu = su + nr;
                    H = tu + nr;
                    unst = s->rc_idx + 2 * o;
                    inact = unst + n_in;
                    nu = c[0];
                    nz = c[1];
                    tiny = s->rc_tiny[G->rc * net->n_layers + k];
                } else {
                    double hsum;
                    act_classify(relu, n_in, L->n_pass, l, u, s->H, s->s_lo, s->s_up, s->t_up,
                                 s->cls, s->cls + n_in, &nu, &nz, &hsum);
                    tiny = act_tiny(n_in, hsum);
                    H = s->H;
                    sl = s->s_lo;
                    su = s->s_up;
                    tu = s->t_up;
                    unst = s->cls;
                    inact = s->cls + n_in;
                }
                if (!relu) {
                    act_lines(L, ds, k, l, u);
                    const double *c = ds->act[k];
                    sl = c + 2 * n_in;
                    tl = c + 3 * n_in;
                    su = c + 4 * n_in;
                    tu = c + 5 * n_in;
                    mag = c + 6 * n_in;
                }
                fac_pre fpre = {0};
                if (FP)
                    fpre = fac_pre_start(ctx, s, G, k);
                for (int64_t i = G->r0; i < G->r0 + G->K; i++) {
                    double *row = lam + i * n_in;
                    double d = 0, abst = 0, errmu = 0, absx = 0, exs = 0, facd = 0;
                    int row_pos = 0; /* fpre.pos is this row's */
                    /* look-ahead rows: on their child the neuron is decided, relu(z) = 0
                     * (inactive) or z (active), exactly; a SIGMOID/TANH neuron is split at p
                     * (vfy_bound_split_point) and takes the lines of its child's interval,
                     * [l, p] or [p, u] (act_relax: sound there) */
                    int64_t ovj = s->ov_layer && s->ov_layer[i] == k ? s->ov_j[i] : -1;
                    for (int64_t a = 0; a < nz; a++)
                        row[inact[a]] = 0.0; /* exact: relu(z) = 0 */
                    for (int64_t a = 0; a < nu; a++) {
                        int64_t j = unst[a];
                        if (j == ovj && relu) {
                            if (s->ov_sign[i] < 0)
                                row[j] = 0.0;
                            continue;
                        }
                        double x = row[j], mu;
                        if (cvx && x == 0)
                            continue; /* (exactly nothing: its lines may be infinite) */
                        double lmb = FP && x < 0 && j != ovj
                                         ? s->fac_lam[K * ctx->roff[k] + i * n_in + j] : 0;
                        if (lmb > 0) {
                            /* x = xf + xt (+ delta, |delta| <= 2^-53 |x|, times y in [0, H]) */
                            double xf = x * lmb, xt = x - xf, cst, fe;
                            double bu = vfy_add_up(FP->b[j], ds->q[k - 1][j]);
                            int64_t nv = FP->n_in, q, m;
                            if (!row_pos) {
                                fac_pre_row(FP, &fpre, s->fac_v + K * fo + i * nv);
                                row_pos = 1;
                            }
                            /* the facet the gradient step chose at this point, else chosen */
                            double hc = s->fac_h[K * ctx->roff[k] + i * n_in + j];
                            int ok = hc < 0 ? 0 : -1;
                            if (hc > 0) {
                                struct fac_memo *mm = NULL;
                                uint64_t *bits = NULL;
                                if (s->fac_mm_on) {
                                    mm = s->fac_mm + K * ctx->fooff[k] + i * n_in + j;
                                    bits = s->fac_bits + K * ctx->fboff[k] +
                                           (i * n_in + j) * ctx->fbw[k];
                                }
                                ok = fac_emit_at(FP, j, &fpre, bu, (int64_t)hc - 1, mm, bits,
                                                 s->fac_gen, xf, s->fac_corr + i * nv, &cst, &fe);
                            }
                            if (ok < 0)
                                ok = fac_select(FP, j, &fpre, bu, s->fac_ord, &q, &m, NULL) &&
                                     fac_emit(FP, j, &fpre, bu, s->fac_ord, q, m, xf,
                                              s->fac_corr + i * nv, &cst, &fe);
                            if (ok) {
                                facd = vfy_add_down(facd, cst);
                                s->fac_err[i] = vfy_add_up(s->fac_err[i], fe);
                                errmu = vfy_add_up(errmu, vfy_mul_up(fabs(x), H[j]));
                                x = xt;
                            }
                        }
                        /* SOUND: a standalone convex kind's float value is within
                         * conv_exec_err(|f|) of f(z): |lam| times it, summed rounding up */
                        if (per_neuron)
                            exs = vfy_add_up(exs, vfy_mul_up(fabs(x),
                                                             conv_exec_err(L->kind, mag[j])));
                        double a_s = x >= 0 ? sl[j] : su[j];
                        double t_s = x >= 0 ? (tl ? tl[j] : 0) : tu[j];
                        if (j == ovj) {
                            /* (the child's interval, [l, p] or [p, u], split where the search
                             * splits it, from the same bounds) */
                            double cl, ctl, cu, ctu, p = vfy_bound_split_point(l[j], u[j]);
                            if (isnan(p))
                                p = s->ov_sign[i] < 0 ? u[j] : l[j]; /* (the parent's lines) */
                            act_relax(L->kind, s->ov_sign[i] < 0 ? l[j] : p,
                                      s->ov_sign[i] < 0 ? p : u[j], &cl, &ctl, &cu, &ctu);
                            a_s = x >= 0 ? cl : cu;
                            t_s = x >= 0 ? ctl : ctu;
                        }
                        if (salo) {
                            const double *P = act_piece_data(ds, k, n_in, j);
                            const int N = ACT_ALPHA_PIECES;
                            double sa = x >= 0 ? salo[i * n_in + j] : saup[i * n_in + j], za = NAN;
                            if (!isnan(P[0]) && isfinite(sa)) {
                                double t = act_cert(L->kind, N, P, sa, x < 0, &za);
                                if (isfinite(t)) {
                                    a_s = sa;
                                    t_s = t;
                                }
                            }
                            sza[i * n_in + j] = za;
                            sla[i * n_in + j] = a_s;
                            stl[i * n_in + j] = t_s;
                        }
                        if (x >= 0) {
                            mu = x * (al ? al[i * n_in + j] : a_s);
                            if (tl) {
                                double p = x * t_s;
                                d += p;
                                abst += fabs(p);
                            }
                        } else {
                            mu = x * a_s;
                            double p = x * t_s;
                            d += p;
                            abst += fabs(p);
                        }
                        absx += fabs(x);
                        errmu += fabs(mu) * H[j];
                        row[j] = mu;
                    }
                    double e = vfy_add_up(vfy_mul_up(g, errmu), vfy_mul_up(g, abst));
                    if (exec_err > 0) /* SOUND: |lam|·ACT_EXEC_ERR, the sum rounded (gamma) and up */
                        e = vfy_add_up(e, vfy_mul_up(vfy_mul_up(absx, 1.0 + g), exec_err));
                    e = vfy_add_up(e, exs);
                    s->beta[i] += d;
                    e = vfy_add_up(e, vfy_mul_up(fabs(s->beta[i]), 0x1p-52));
                    if (facd != 0) { /* SOUND: facd is a lower bound; the addition's rounding */
                        s->beta[i] += facd;
                        e = vfy_add_up(e, vfy_mul_up(fabs(s->beta[i]), 0x1p-52));
                    }
                    s->slack[i] = vfy_add_up(vfy_add_up(s->slack[i], e), tiny);
                }
            }
            continue;
        }
        /* Affine: v_{k+1} = W v_k + b + e, |e| <= perturbation.
         * lam · v_{k+1} = (lam W) v_k + lam·b + lam·e  >=  fl(lam W) v_k + fl(lam·b) - |lam| q_k.
         * SOUND: |lam W - fl(lam W)| |v_k| <= gamma |lam| |W| H and |lam·b - fl(lam·b)| <=
         * gamma |lam||b|, both inside |lam| q_k; the underflow of each entry of fl(lam W) adds at
         * most n_out 2^-1074 per entry, i.e. n_out 2^-1074 sum(H) per row. The product is one
         * for the rows of every domain; q_k and H are each domain's. */
        int f32 = 0;
        if (L->kind == VFY_LAYER_DENSE && L->conv) {
            vfy_la_conv_bwd(L->conv, K, lam, lam2, s->conv_ws);
        } else if (L->kind == VFY_LAYER_DENSE && L->csr) {
            vfy_la_csr_lmul(K, lam, L->csr, lam2, s->csr_ws);
        } else if (L->kind == VFY_LAYER_DENSE) {
            float *ws = ctx->f32 && k >= s->f32_from && ctx->wf[k] ? f32_ws(s, K * (n_in + n_out))
                                                                    : NULL;
            f32 = ws && vfy_la_gemm_f32(K, n_in, n_out, lam, ctx->wf[k], 0, lam2, ws);
            if (!f32) /* (no workspace, out of memory: the plain product) */
                vfy_la_gemm_ws(K, n_in, n_out, lam, L->w, lam2,
                               grow_buf(&s->gws, &s->cap_gws, (size_t)(K * n_in)));
            for (int64_t sg = 0; f32 && k == 0 && sg < n_seg; sg++)
                if (cen_fits(ctx, segs[sg].b->scratch, segs[sg].in_lo, segs[sg].in_hi))
                    cen_correct(segs[sg].b->scratch, s, &segs[sg], lam, lam2, n_in, n_out);
        }
        double g = vfy_la_gamma(n_out);
        if (fac_layer == k + 1) {
            /* the facets' coefficients on this layer's input, added to the product.
             * SOUND: each entry is the product plus at most n_out + 1 rounded terms g_i, so
             * within gamma(n_out + 3) (|product| + sum |g_i|) of the exact sum; times H */
            double gf = vfy_la_gamma(n_out + 3);
            for (int64_t sg = 0; sg < n_seg; sg++) {
                const bseg *G = &segs[sg];
                const double *vlo = layer_in_lo(G->b, k, G->in_lo);
                const double *vhi = layer_in_hi(G->b, k, G->in_hi);
                for (int64_t i = G->r0; i < G->r0 + G->K; i++) {
                    if (s->fac_err[i] == 0)
                        continue; /* (a facet with a nonzero term has err > 0: none here) */
                    double *r2 = lam2 + i * n_in, ea = 0;
                    const double *cr = s->fac_corr + i * n_in;
                    for (int64_t p = 0; p < n_in; p++) {
                        double H = fmax(fabs(vlo[p]), fabs(vhi[p]));
                        ea = vfy_add_up(ea, vfy_mul_up(fabs(r2[p]), H));
                        r2[p] += cr[p];
                    }
                    double e = vfy_mul_up(gf, vfy_add_up(ea, s->fac_err[i]));
                    e = vfy_add_up(e, vfy_mul_up((double)(2 * n_out + 2) * ETA64,
                                                 vfy_add_up(ds_hsum(G->b, k), 1.0)));
                    s->slack[i] = vfy_add_up(s->slack[i], e);
                }
            }
            fac_layer = -1;
        }
        for (int64_t sg = 0; sg < n_seg; sg++) {
            const bseg *G = &segs[sg];
            const vfy_bound_scratch *ds = G->b->scratch;
            /* SOUND: a float32 product is charged qf >= q + f32_charge G, and tiny32; the input
             * layer's in centred form where its rows were corrected (cen_correct) */
            int cen = f32 && k == 0 && cen_fits(ctx, G->b->scratch, G->in_lo, G->in_hi);
            const double *q = cen ? ds->cen_q : f32 ? ds->qf[k] : ds->q[k];
            /* t_i = |lam_i|·q and d_i = lam_i·b in one pass over lam (SCALE: also the product),
             * each in four partial sums (independent additions: not one chain of latencies);
             * SOUND in any order: the charges below (gamma) hold for every summation order */
            for (int64_t i = G->r0; i < G->r0 + G->K; i++) {
                const double *row = lam + i * n_out;
                if (L->kind == VFY_LAYER_SCALE)
                    scale_row_terms(lam2 + i * n_in, row, L->w, q, L->b, n_out, &s->t[i],
                                    &s->d[i]);
                else
                    row_terms4(row, q, L->b, n_out, &s->t[i], &s->d[i]);
            }
            double tiny = vfy_mul_up((double)(n_out + 1) * ETA64, vfy_add_up(ds->hsum[k], 1.0));
            if (f32)
                tiny = vfy_add_up(tiny, cen ? ds->cen_tiny : ds->tiny32[k]);
            for (int64_t i = G->r0; i < G->r0 + G->K; i++) {
                double e = vfy_mul_up(s->t[i], 1.0 + g); /* SOUND: the gemv of |lam| q rounded */
                s->beta[i] += s->d[i];
                e = vfy_add_up(e, vfy_mul_up(fabs(s->beta[i]), 0x1p-52)); /* the += above */
                s->slack[i] = vfy_add_up(vfy_add_up(s->slack[i], e), tiny);
            }
        }
        s->lam = lam2;
        s->lam2 = lam;
    }
    /* At the input: min over x in [in_lo, in_hi] of (lam + cx)·x, per coordinate the end point
     * chosen by the sign, summed to nearest in four partial sums, then the error charged:
     * SOUND: any summation order of n rounded products is within gamma(n) sum |p_j| of the exact
     * sum of the exact products (vfy_la_gamma covers the rounding of sum |p_j| itself), plus
     * 2^-1074 per product for underflow. A zero coefficient contributes exactly 0 (even at an
     * infinite end point, where the product would be NaN); a NaN one stays NaN (no bound). */
    int64_t n = net->n_in;
    for (int64_t sg = 0; sg < n_seg; sg++) {
        const bseg *G = &segs[sg];
        const double *in_lo = G->in_lo, *in_hi = G->in_hi;
        for (int64_t i = G->r0; i < G->r0 + G->K; i++) {
            double *row = s->lam + i * n;
            double err = 0.0;
            if (cx) {
                for (int64_t j = 0; j < n; j++) {
                    row[j] += cx[i * n + j];
                    /* SOUND: the sum is rounded: |error| <= 2^-53 |row_j|, times |x_j| */
                    err += fabs(row[j]) * fmax(fabs(in_lo[j]), fabs(in_hi[j]));
                }
                err = vfy_add_up(vfy_mul_up(err, vfy_la_gamma(n)), (double)n * ETA64);
            }
            double ps[4] = {0, 0, 0, 0}, pa[4] = {0, 0, 0, 0};
            int64_t j = 0;
            /* (the end point selected without branches, so that the loop vectorises: c * 0
             * for c == 0, the same product as before, and a NaN c still gives NaN) */
            for (; j + 4 <= n; j += 4)
                for (int t = 0; t < 4; t++) {
                    double c = row[j + t], lo = in_lo[j + t], hi = in_hi[j + t];
                    double e = c > 0 ? lo : hi;
                    double p = c * (c == 0 ? 0.0 : e);
                    ps[t] += p;
                    pa[t] += fabs(p);
                }
            for (; j < n; j++) {
                double c = row[j], lo = in_lo[j], hi = in_hi[j];
                double e = c > 0 ? lo : hi;
                double p = c * (c == 0 ? 0.0 : e);
                ps[0] += p;
                pa[0] += fabs(p);
            }
            double sum = (ps[0] + ps[1]) + (ps[2] + ps[3]);
            double asum = (pa[0] + pa[1]) + (pa[2] + pa[3]);
            double min_err = vfy_add_up(vfy_mul_up(asum, vfy_la_gamma(n + 1)), (double)n * ETA64);
            double v = vfy_add_down(sum, s->beta[i]);
            v = vfy_sub_down(v, vfy_add_up(vfy_add_up(s->slack[i], err), min_err));
            lb[i] = isnan(v) ? -INFINITY : v;
            if (lam_in)
                memcpy(lam_in + i * n, row, (size_t)n * sizeof(double));
            if (c_in) {
                /* SOUND: row_i >= lam_in·x + beta - slack - err on the box, beta - (slack + err)
                 * rounded down */
                double c = vfy_sub_down(s->beta[i], vfy_add_up(s->slack[i], err));
                c_in[i] = isnan(c) ? -INFINITY : c;
            }
        }
    }
}

/* backward_segs for the K rows of one domain, b's own scratch holding them (its splits, when
 * beta is given, are entries [0, n_sp) of the scratch's split arrays). */
static void backward(const vfy_bound_ctx *ctx, vfy_bounds *b, int64_t k_end, int64_t K,
                     const double *in_lo, const double *in_hi, const double *cx, double *lb,
                     double *lam_in, double *c_in, const double *alpha, double *tape,
                     int64_t n_sp, const double *beta)
{
    bseg one = {b, in_lo, in_hi, 0, K, 0, n_sp, 0, 0, 0, 0, 0};
    backward_segs(ctx, b->scratch, &one, 1, k_end, K, cx, lb, lam_in, c_in, alpha, tape, beta);
}

/* Start K backward rows on v_{k_end} (k_end >= 1). */
static void rows_init(vfy_bound_scratch *s, int64_t K)
{
    for (int64_t i = 0; i < K; i++) {
        s->beta[i] = 0.0;
        s->slack[i] = 0.0;
    }
}

static void check_overflow(const vfy_bound_ctx *ctx, vfy_bounds *b, int64_t k)
{
    if (!ctx->float_semantics)
        return;
    const vfy_layer *L = &ctx->net->layers[k];
    for (int64_t j = 0; j < L->n_out; j++)
        if (!(b->lo[k][j] > -FLOAT_EXEC_LIMIT && b->hi[k][j] < FLOAT_EXEC_LIMIT))
            b->overflow = 1;
}

/* The slopes of crown_refine's 2 na rows (+-e_j for neuron idx[a] of affine layer k) from b's kept
 * slopes, in backward's alpha layout (ReLU layer q's block at 2 na roff[q]): a row's recorded slope
 * where it lies in [0, 1], else CROWN's default for b's bounds (which the pass would use). */
static void slopes_rows(const vfy_bound_ctx *ctx, const vfy_bounds *b, int64_t k,
                        const int64_t *idx, int64_t na, double *al)
{
    const vfy_bound_slopes *sl = b->slopes;
    int64_t K = 2 * na;
    for (int64_t q = 1; q <= k; q++) {
        const vfy_layer *R = &ctx->net->layers[q];
        if (R->kind != VFY_LAYER_RELU)
            continue;
        const double *l = b->lo[q - 1], *u = b->hi[q - 1];
        for (int64_t i = 0; i < K; i++) {
            int64_t row = sl->row_of[ctx->foff[k] + idx[i / 2]];
            const float *src = row >= 0 && sl->rec[row + i % 2]
                                   ? sl->a + (row + i % 2) * sl->n_relu + ctx->roff[q] : NULL;
            double *dst = al + K * ctx->roff[q] + i * R->n_in;
            for (int64_t j = 0; j < R->n_in; j++) {
                double v = src ? (double)src[j] : NAN;
                dst[j] = v >= 0 && v <= 1 ? v : relu_lower_slope(l[j], u[j]);
            }
        }
    }
}

/* CROWN refinement of the output of affine layer k, a pre-activation: for every neuron that the
 * IBP step left unstable (before a ReLU) or not a point (before SIGMOID/TANH, whose relaxation
 * tightens with any narrower interval), lower-bound v_j and -v_j by a backward pass and intersect. */
static vfy_status crown_refine(const vfy_bound_ctx *ctx, vfy_bounds *b, int64_t k,
                               const double *in_lo, const double *in_hi)
{
    vfy_bound_scratch *s = b->scratch;
    const vfy_layer *L = &ctx->net->layers[k];
    int64_t n = L->n_out, nu = 0;
    int relu = ctx->net->layers[k + 1].kind == VFY_LAYER_RELU;
    for (int64_t j = 0; j < n; j++)
        if (relu ? (b->lo[k][j] < 0 && b->hi[k][j] > 0) : b->lo[k][j] < b->hi[k][j])
            s->idx[nu++] = j;
    if (nu == 0)
        return VFY_OK;
    /* two rows per neuron, in chunks of vfy_bound_chunk_rows rows, so that a scratch of that many
     * rows serves every layer (a chunk's rows read only the bounds of layers before k, never the
     * ones set here); kept slopes only where a chunk's fit in SLOPES_CHUNK_BYTES, so that
     * the chunks never shrink for them */
    const vfy_bound_slopes *sl = b->slopes;
    int64_t n_before = 0; /* ReLU neurons of the layers before k + 1: a row's slopes */
    for (int64_t q = 1; sl && q <= k; q++)
        if (ctx->net->layers[q].kind == VFY_LAYER_RELU)
            n_before = ctx->roff[q] + ctx->net->layers[q].n_in;
    const int64_t chunk = ctx->chunk_rows, per_chunk = chunk / 2;
    if (n_before * chunk * (int64_t)sizeof(double) > SLOPES_CHUNK_BYTES)
        n_before = 0;
    for (int64_t a0 = 0; a0 < nu; a0 += per_chunk) {
        /* SOUND: past the deadline the neurons left keep the IBP bounds set before this */
        if (vfy_deadline_over(ctx->dl))
            break;
        int64_t na = nu - a0 < per_chunk ? nu - a0 : per_chunk, K = 2 * na;
        if (!scratch_reserve(s, K))
            return VFY_ERR_NOMEM;
        memset(s->lam, 0, (size_t)(K * n) * sizeof(double));
        for (int64_t a = 0; a < na; a++) {
            s->lam[(2 * a) * n + s->idx[a0 + a]] = 1.0;
            s->lam[(2 * a + 1) * n + s->idx[a0 + a]] = -1.0;
        }
        rows_init(s, K);
        double *lbv = s->lbtmp, *al = NULL;
        if (n_before > 0) {
            al = grow_buf(&s->sl_alpha, &s->cap_sl_alpha, (size_t)(K * n_before));
            if (!al)
                return VFY_ERR_NOMEM;
            slopes_rows(ctx, b, k, s->idx + a0, na, al);
        }
        /* (the input layer's product in float32 only in centred form: uncentred, its charge
         * would cost the bounds more than its time saves; with float32 products off, the
         * centred form's terms are not computed) */
        s->f32_from = ctx->f32 && cen_fits(ctx, s, in_lo, in_hi) ? 0 : 1;
        s->abortable = 1;
        backward(ctx, b, k + 1, K, in_lo, in_hi, NULL, lbv, NULL, NULL, al, NULL, 0, NULL);
        s->abortable = 0;
        s->f32_from = F32_OFF;
        for (int64_t a = 0; a < na; a++) {
            int64_t j = s->idx[a0 + a];
            double lo = lbv[2 * a], hi = -lbv[2 * a + 1];
            if (lo > b->lo[k][j])
                b->lo[k][j] = lo;
            if (hi < b->hi[k][j])
                b->hi[k][j] = hi;
        }
    }
    return VFY_OK;
}

int64_t vfy_bound_flat_layer(const vfy_bound_ctx *ctx, int64_t idx)
{
    int64_t k = 0;
    while (k + 1 < ctx->net->n_layers && ctx->foff[k + 1] <= idx)
        k++;
    return k;
}

int64_t vfy_bound_relu_index(const vfy_bound_ctx *ctx, int64_t idx)
{
    int64_t k = vfy_bound_flat_layer(ctx, idx);
    if (k + 1 >= ctx->net->n_layers || ctx->net->layers[k + 1].kind != VFY_LAYER_RELU ||
        idx < ctx->foff[k])
        return -1;
    return ctx->roff[k + 1] + (idx - ctx->foff[k]);
}

int64_t vfy_bounds_flat_size(const vfy_bound_ctx *ctx)
{
    int64_t n = 0;
    for (int64_t k = 0; k < ctx->net->n_layers; k++)
        n += ctx->net->layers[k].n_out;
    return 2 * n;
}

void vfy_bounds_export(const vfy_bound_ctx *ctx, const vfy_bounds *b, double *flat)
{
    int64_t half = vfy_bounds_flat_size(ctx) / 2, off = 0;
    for (int64_t k = 0; k < ctx->net->n_layers; k++) {
        int64_t n = ctx->net->layers[k].n_out;
        memcpy(flat + off, b->lo[k], (size_t)n * sizeof(double));
        memcpy(flat + half + off, b->hi[k], (size_t)n * sizeof(double));
        off += n;
    }
}

/* SOUND: prior bounds hold on a superset of the box, so they hold here; the intersection of two
 * sound enclosures is sound. */
static void intersect_prior(const vfy_bound_ctx *ctx, vfy_bounds *b, int64_t k, const double *prior,
                            int64_t off, int64_t half)
{
    const double *plo = prior + off, *phi = prior + half + off;
    for (int64_t j = 0; j < ctx->net->layers[k].n_out; j++) {
        if (plo[j] > b->lo[k][j])
            b->lo[k][j] = plo[j];
        if (phi[j] < b->hi[k][j])
            b->hi[k][j] = phi[j];
    }
}

vfy_status vfy_bound_layers(const vfy_bound_ctx *ctx, vfy_bound_method method, const double *in_lo,
                            const double *in_hi, const double *prior, vfy_bounds *b)
{
    return vfy_bound_layers_from(ctx, method, in_lo, in_hi, prior, 0, b);
}

vfy_status vfy_bound_layers_from(const vfy_bound_ctx *ctx, vfy_bound_method method,
                                 const double *in_lo, const double *in_hi, const double *prior,
                                 int64_t k_from, vfy_bounds *b)
{
    const vfy_net *net = ctx->net;
    int64_t half = prior ? vfy_bounds_flat_size(ctx) / 2 : 0, off = 0;
    if (!prior)
        k_from = 0;
    b->overflow = 0;
    for (int64_t k = 0; k < net->n_layers; off += net->layers[k].n_out, k++) {
        const vfy_layer *L = &net->layers[k];
        const double *lo = layer_in_lo(b, k, in_lo), *hi = layer_in_hi(b, k, in_hi);
        if (L->kind == VFY_LAYER_RELU) {
            for (int64_t j = 0; j < L->n_out; j++) {
                b->lo[k][j] = lo[j] > 0 ? lo[j] : 0.0;
                b->hi[k][j] = hi[j] > 0 ? hi[j] : 0.0;
                if (isnan(lo[j]) || isnan(hi[j])) {
                    b->lo[k][j] = 0.0;
                    b->hi[k][j] = INFINITY;
                }
            }
            continue;
        }
        if (L->kind == VFY_LAYER_MAXPOOL) {
            /* SOUND: max is increasing in each input, so y_j lies in [max l_i, max u_i]; a NaN
             * bound gives the whole line. */
            for (int64_t j = 0; j < L->n_out; j++) {
                const int64_t *win = L->pool + j * L->pool_k;
                double a = -INFINITY, c = -INFINITY;
                int bad = 0;
                for (int64_t p = 0; p < L->pool_k; p++) {
                    if (win[p] < 0)
                        continue;
                    bad |= isnan(lo[win[p]]) || isnan(hi[win[p]]);
                    a = fmax(a, lo[win[p]]);
                    c = fmax(c, hi[win[p]]);
                }
                b->lo[k][j] = bad ? -INFINITY : a;
                b->hi[k][j] = bad ? INFINITY : c;
            }
            if (k < k_from) {
                /* SOUND: the prior's bounds hold on a superset of this domain */
                memcpy(b->lo[k], prior + off, (size_t)L->n_out * sizeof(double));
                memcpy(b->hi[k], prior + half + off, (size_t)L->n_out * sizeof(double));
            } else if (prior) {
                intersect_prior(ctx, b, k, prior, off, half);
            }
            continue;
        }
        if (L->kind == VFY_LAYER_PRODUCT) {
            /* SOUND: product_interval, widened by a float execution's error (product_exec_err);
             * a square or a product of two values >= 0 is >= 0 in every semantics */
            for (int64_t j = 0; j < L->n_out; j++) {
                int64_t p = L->pool[2 * j], q = L->pool[2 * j + 1];
                if (q < 0) {
                    b->lo[k][j] = isnan(lo[p]) ? -INFINITY : lo[p];
                    b->hi[k][j] = isnan(hi[p]) ? INFINITY : hi[p];
                    continue;
                }
                double yl, yh;
                product_interval(lo[p], hi[p], lo[q], hi[q], p == q, &yl, &yh);
                if (ctx->float_semantics) {
                    double e = product_exec_err(fmax(fabs(lo[p]), fabs(hi[p])),
                                                fmax(fabs(lo[q]), fabs(hi[q])));
                    yl = vfy_sub_down(yl, e);
                    yh = vfy_add_up(yh, e);
                }
                if (p == q || (lo[p] >= 0 && lo[q] >= 0))
                    yl = fmax(yl, 0.0);
                b->lo[k][j] = isnan(yl) ? -INFINITY : yl;
                b->hi[k][j] = isnan(yh) ? INFINITY : yh;
            }
            if (k < k_from) {
                /* SOUND: the prior's bounds hold on a superset of this domain */
                memcpy(b->lo[k], prior + off, (size_t)L->n_out * sizeof(double));
                memcpy(b->hi[k], prior + half + off, (size_t)L->n_out * sizeof(double));
            } else if (prior) {
                intersect_prior(ctx, b, k, prior, off, half);
            }
            check_overflow(ctx, b, k);
            continue;
        }
        if (vfy_layer_is_act(L->kind)) {
            /* SOUND: f is increasing, so f(z) lies in [f(lo), f(hi)], each enclosed outward
             * (act_enclose; NaN gives the whole range); a convex kind's range on a piece of its
             * domain likewise (conv_range; decreasing 1/v: the ends swap); SIN and COS: their range
             * on [lo, hi] (trig_range). A float execution's value is within ACT_EXEC_ERR of f(z)
             * (SIGMOID, TANH, SIN, COS; a Softmax's RECIP its own allowance), a standalone convex
             * kind's within conv_exec_err of its magnitude. */
            double e = ctx->float_semantics ? act_exec_err(L) : 0.0, t;
            int cv = vfy_layer_is_convex(L->kind);
            int alone = cv && !vfy_layer_in_softmax(L);
            for (int64_t j = 0; j < L->n_out; j++) {
                if (j < L->n_pass) { /* passed through: exactly its input */
                    b->lo[k][j] = isnan(lo[j]) ? -INFINITY : lo[j];
                    b->hi[k][j] = isnan(hi[j]) ? INFINITY : hi[j];
                    continue;
                }
                if (L->kind == VFY_LAYER_SIN || L->kind == VFY_LAYER_COS) {
                    /* (not monotone: the range's own enclosure; past TRIG_FLOAT_ARG a float
                     * execution's value is not claimed) */
                    trig_range(L->kind, lo[j], hi[j], &b->lo[k][j], &b->hi[k][j]);
                    if (e > 0 && !(fmax(fabs(lo[j]), fabs(hi[j])) <= TRIG_FLOAT_ARG))
                        b->overflow = 1;
                } else if (vfy_layer_is_gated(L->kind)) {
                    /* (not monotone: its range; a float execution within conv_exec_err of the
                     * input's magnitude) */
                    gated_range(L->kind, lo[j], hi[j], &b->lo[k][j], &b->hi[k][j]);
                    if (ctx->float_semantics) {
                        double ex = conv_exec_err(L->kind, fmax(fabs(lo[j]), fabs(hi[j])));
                        b->lo[k][j] = vfy_sub_down(b->lo[k][j], ex);
                        b->hi[k][j] = vfy_add_up(b->hi[k][j], ex);
                    }
                } else if (!cv) {
                    act_enclose(L->kind, lo[j], &b->lo[k][j], &t);
                    act_enclose(L->kind, hi[j], &t, &b->hi[k][j]);
                } else {
                    /* where a convex kind's lines cannot be made (an input unbounded, near exp's
                     * overflow, touching or across a pole, outside the domain): no proof is
                     * claimed, in any semantics */
                    if (!conv_claims(L, lo[j], hi[j]))
                        b->overflow = 1;
                    conv_range(L->kind, lo[j], hi[j], &b->lo[k][j], &b->hi[k][j]);
                    if (alone && ctx->float_semantics) {
                        double m = fmax(fabs(b->lo[k][j]), fabs(b->hi[k][j]));
                        double ex = conv_exec_err(L->kind, m);
                        b->lo[k][j] = vfy_sub_down(b->lo[k][j], ex);
                        b->hi[k][j] = vfy_add_up(b->hi[k][j], ex);
                    }
                }
                if (e > 0) {
                    b->lo[k][j] = vfy_sub_down(b->lo[k][j], e);
                    b->hi[k][j] = vfy_add_up(b->hi[k][j], e);
                }
                if (isnan(b->lo[k][j]))
                    b->lo[k][j] = -INFINITY;
                if (isnan(b->hi[k][j]))
                    b->hi[k][j] = INFINITY;
            }
            if (alone) /* (a Softmax's chain is not what a runtime executes: no range check) */
                check_overflow(ctx, b, k);
            continue;
        }
        /* the layer's rounding coefficients (s->q[k], used by every later backward pass) are
         * always derived here from the bounds of its input, never left from another domain */
        affine_prepare(ctx, b, k, lo, hi);
        if (k < k_from) {
            /* SOUND: the prior's bounds hold on a superset of this domain */
            memcpy(b->lo[k], prior + off, (size_t)L->n_out * sizeof(double));
            memcpy(b->hi[k], prior + half + off, (size_t)L->n_out * sizeof(double));
        } else {
            ibp_affine(ctx, b, k);
            if (prior)
                intersect_prior(ctx, b, k, prior, off, half);
            clamp_nonneg(ctx, b, k);
            vfy_layer_kind nk = k + 1 < net->n_layers ? net->layers[k + 1].kind : VFY_LAYER_DENSE;
            int feeds_act = vfy_layer_is_act(nk) || nk == VFY_LAYER_MAXPOOL ||
                            nk == VFY_LAYER_PRODUCT;
            if (method != VFY_BOUND_IBP && feeds_act && k > 0) {
                vfy_status st = crown_refine(ctx, b, k, in_lo, in_hi);
                if (st != VFY_OK)
                    return st;
            }
        }
        for (int64_t j = 0; j < L->n_out; j++) {
            if (isnan(b->lo[k][j]))
                b->lo[k][j] = -INFINITY;
            if (isnan(b->hi[k][j]))
                b->hi[k][j] = INFINITY;
        }
        check_overflow(ctx, b, k);
    }
    return VFY_OK;
}

static int alpha_reserve(const vfy_bound_ctx *ctx, vfy_bound_scratch *s, int64_t K);

/* min over y in [ylo, yhi], x in the box of cy·y + cx·x, directed rounding throughout. */
static double interval_row(int64_t ny, const double *cy, const double *ylo, const double *yhi,
                           int64_t nx, const double *cx, const double *xlo, const double *xhi)
{
    double sum = 0.0;
    for (int64_t j = 0; j < ny; j++) {
        if (cy[j] == 0)
            continue;
        sum = vfy_add_down(sum, cy[j] > 0 ? vfy_mul_down(cy[j], ylo[j]) : vfy_mul_down(cy[j], yhi[j]));
    }
    if (cx)
        for (int64_t j = 0; j < nx; j++) {
            if (cx[j] == 0)
                continue;
            sum = vfy_add_down(sum, cx[j] > 0 ? vfy_mul_down(cx[j], xlo[j]) : vfy_mul_down(cx[j], xhi[j]));
        }
    return isnan(sum) ? -INFINITY : sum;
}

vfy_status vfy_bound_rows(const vfy_bound_ctx *ctx, vfy_bound_method method, const double *in_lo,
                          const double *in_hi, vfy_bounds *b, int64_t K, const double *cy,
                          const double *cx, double *lb, double *lam_in, double *c_in)
{
    const vfy_net *net = ctx->net;
    int64_t L = net->n_layers, ny = net->n_out, nx = net->n_in;
    const double *ylo = L ? b->lo[L - 1] : in_lo, *yhi = L ? b->hi[L - 1] : in_hi;
    for (int64_t i = 0; i < K; i++)
        lb[i] = interval_row(ny, cy + i * ny, ylo, yhi, nx, cx ? cx + i * nx : NULL, in_lo, in_hi);
    /* the IBP bound as a linear form: zero coefficients, constant lb */
    if (lam_in)
        memset(lam_in, 0, (size_t)(K * nx) * sizeof(double));
    if (c_in)
        memcpy(c_in, lb, (size_t)K * sizeof(double));
    /* (past the deadline the IBP bound above stands: sound) */
    if (method != VFY_BOUND_IBP && !vfy_deadline_over(ctx->dl)) {
        vfy_bound_scratch *s = b->scratch;
        if (!scratch_reserve(s, K) || (lam_in && !alpha_reserve(ctx, s, K)))
            return VFY_ERR_NOMEM;
        memcpy(s->lam, cy, (size_t)(K * ny) * sizeof(double));
        rows_init(s, K);
        double *lbc = s->lbtmp;
        double *lamc = lam_in ? s->pv : NULL, *cc = lam_in ? s->best_lb : NULL;
        s->abortable = 1;
        backward(ctx, b, L, K, in_lo, in_hi, cx, lbc, lamc, cc, NULL, NULL, 0, NULL);
        s->abortable = 0;
        /* Both bounds are sound: keep the better, so CROWN is never looser than IBP. */
        for (int64_t i = 0; i < K; i++)
            if (lbc[i] > lb[i]) {
                lb[i] = lbc[i];
                if (lam_in)
                    memcpy(lam_in + i * nx, lamc + i * nx, (size_t)nx * sizeof(double));
                if (c_in)
                    c_in[i] = cc[i];
            }
    }
    if (b->overflow)
        for (int64_t i = 0; i < K; i++) {
            lb[i] = -INFINITY;
            if (c_in)
                c_in[i] = -INFINITY;
        }
    return VFY_OK;
}

/* Each of the n buffers *bufs[i] freed and allocated anew with len doubles; 0 when out of memory
 * (that one is then NULL, the later ones keep their old blocks: all freed with the scratch). */
static int realloc_set(double **const *bufs, size_t n, size_t len)
{
    for (size_t i = 0; i < n; i++) {
        vfy_free(*bufs[i]);
        if (!(*bufs[i] = vfy_alloc_array(len, sizeof(double))))
            return 0;
    }
    return 1;
}

static int alpha_reserve(const vfy_bound_ctx *ctx, vfy_bound_scratch *s, int64_t K)
{
    if (K <= s->cap_alpha)
        return 1;
    double **bufs[] = {&s->alpha, &s->tape, &s->grad, &s->adam_m, &s->adam_v, &s->best_alpha};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) {
        vfy_free(*bufs[i]);
        *bufs[i] = vfy_alloc_array((size_t)(K * (ctx->n_relu + 1)), sizeof(double));
    }
    vfy_free(s->pv);
    vfy_free(s->pv2);
    vfy_free(s->best_lb);
    vfy_free(s->ctmp);
    vfy_free(s->pval);
    vfy_free(s->plb);
    s->n_primal = 0;
    s->pval = vfy_alloc_array((size_t)K, sizeof(double));
    s->plb = vfy_alloc_array((size_t)K, sizeof(double));
    s->ctmp = vfy_alloc_array((size_t)K, sizeof(double));
    s->pv = vfy_alloc_array((size_t)(K * s->width), sizeof(double));
    s->pv2 = vfy_alloc_array((size_t)(K * s->width), sizeof(double));
    s->best_lb = vfy_alloc_array((size_t)K, sizeof(double));
    if (!s->alpha || !s->tape || !s->grad || !s->adam_m || !s->adam_v || !s->pv || !s->pv2 ||
        !s->best_lb || !s->ctmp || !s->best_alpha || !s->pval || !s->plb) {
        s->cap_alpha = 0;
        return 0;
    }
    s->cap_alpha = K;
    if (ctx->n_sact > 0 && K > s->cap_salpha) {
        double **sa[] = {&s->sal_lo, &s->sal_up, &s->sgrad_lo, &s->sgrad_up, &s->sm_lo, &s->sm_up,
                         &s->sv_lo, &s->sv_up, &s->stape, &s->sza, &s->sla, &s->stl};
        if (!realloc_set(sa, sizeof sa / sizeof sa[0], (size_t)(K * ctx->n_sact))) {
            s->cap_salpha = s->cap_alpha = 0;
            return 0;
        }
        s->cap_salpha = K;
    }
    if (ctx->n_mp > 0 && K > s->cap_mtape) {
        vfy_free(s->mtape);
        s->mtape = vfy_alloc_array((size_t)(K * ctx->n_mp), sizeof(double));
        s->cap_mtape = s->mtape ? K : 0;
        if (!s->mtape) {
            s->cap_alpha = 0;
            return 0;
        }
    }
    if (ctx->n_prod > 0 && K > s->cap_palpha) {
        double **pa[] = {&s->pal, &s->pal_g, &s->pal_m1, &s->pal_m2};
        if (!realloc_set(pa, sizeof pa / sizeof pa[0], (size_t)(K * ctx->n_mp))) {
            s->cap_palpha = s->cap_alpha = 0;
            return 0;
        }
        s->cap_palpha = K;
    }
    return 1;
}

/* Gradient of each row's bound with respect to its lower slopes. The bound is the minimum over the
 * box of a function that is linear in each slope once the relaxation choices are fixed, so its
 * derivative with respect to alpha_j (a neuron whose relaxed output carries the coefficient
 * lam_j >= 0) is lam_j z_j*, where z* is the pre-activation at the minimising point, obtained by
 * running the relaxed network forward from the minimising input vertex x*. Search only: the bound
 * that counts is always recomputed by the sound backward pass. */
static void alpha_gradient(const vfy_bound_ctx *ctx, vfy_bound_scratch *s, const bseg *segs,
                           int64_t n_seg, int64_t K, const double *lam_in)
{
    const vfy_net *net = ctx->net;
    int64_t nx = net->n_in;
    double *v = s->pv, *v2 = s->pv2;
    /* (facets) chosen anew at this step's point, recorded in fac_v, or kept (FAC_RESELECT): this
     * step's point then goes to fac_vc, where the facets kept are evaluated */
    int reselect = !s->fac_ok || s->fac_step % FAC_RESELECT == 0;
    s->fac_step++;
    s->fac_gen += reselect; /* (the facets' memo: those of the last selection no longer hold) */
    double *fv_rec = reselect ? s->fac_v : s->fac_vc;
    for (int64_t sg = 0; sg < n_seg; sg++)
        for (int64_t i = segs[sg].r0; i < segs[sg].r0 + segs[sg].K; i++)
            for (int64_t j = 0; j < nx; j++)
                v[i * nx + j] = lam_in[i * nx + j] >= 0 ? segs[sg].in_lo[j] : segs[sg].in_hi[j];
    for (int64_t k = 0; k < net->n_layers; k++) {
        const vfy_layer *L = &net->layers[k];
        int64_t n_in = L->n_in, n_out = L->n_out;
        if (ctx->facets && s->fac_v && k + 1 < net->n_layers) {
            int64_t fo = ctx->fvoff[k + 1];
            if (fo >= 0)
                memcpy(fv_rec + K * fo, v, (size_t)(K * n_in) * sizeof(double));
        }
        if (L->kind == VFY_LAYER_DENSE) {
            if (L->conv)
                vfy_la_conv_fwd(L->conv, VFY_CONV_W, K, v, v2, s->conv_ws);
            else if (L->csr)
                vfy_la_csr_mul_t(K, v, L->csr, v2, s->csr_ws);
            else {
                /* (the primal point only steers the ascent: float32 where it can) */
                float *ws = ctx->f32 && ctx->wf[k] ? f32_ws(s, K * (n_in + n_out)) : NULL;
                if (!(ws && vfy_la_gemm_f32(K, n_out, n_in, v, ctx->wf[k], 1, v2, ws)))
                    vfy_la_gemm_bt(K, n_out, n_in, v, L->w, v2);
            }
            for (int64_t i = 0; i < K; i++)
                for (int64_t j = 0; j < n_out; j++)
                    v2[i * n_out + j] += L->b[j];
        } else if (L->kind == VFY_LAYER_SCALE) {
            for (int64_t i = 0; i < K; i++)
                for (int64_t j = 0; j < n_out; j++)
                    v2[i * n_out + j] = L->w[j] * v[i * n_in + j] + L->b[j];
        } else if (L->kind == VFY_LAYER_MAXPOOL) {
            /* no parameters; the primal point goes through the relaxation the row used
             * (maxpool_backward): x_m where its coefficient is >= 0 or x_m dominates, the
             * window's largest upper bound U elsewhere (through the max itself where U is not
             * finite: steering only) */
            const double *mt = s->mtape + K * ctx->moff[k];
            for (int64_t sg = 0; sg < n_seg; sg++) {
                const bseg *G = &segs[sg];
                const double *l = layer_in_lo(G->b, k, G->in_lo);
                const double *u = layer_in_hi(G->b, k, G->in_hi);
                for (int64_t j = 0; j < n_out; j++) {
                    int64_t m;
                    double top;
                    int dom = pool_window(L, j, l, u, &m, &top);
                    for (int64_t i = G->r0; i < G->r0 + G->K; i++) {
                        double y;
                        if (dom || mt[i * n_out + j] >= 0)
                            y = v[i * n_in + m];
                        else if (isfinite(top))
                            y = top;
                        else {
                            const int64_t *win = L->pool + j * L->pool_k;
                            y = -INFINITY;
                            for (int64_t p = 0; p < L->pool_k; p++)
                                if (win[p] >= 0)
                                    y = fmax(y, v[i * n_in + win[p]]);
                        }
                        v2[i * n_out + j] = y;
                    }
                }
            }
        } else if (L->kind == VFY_LAYER_PRODUCT) {
            /* the primal point goes through the plane the row used (product_backward): tl's
             * where its coefficient is >= 0, tu's elsewhere, or the row's mix of McCormick's
             * planes (alpha passes), whose gradient in theta is taken here
             * (product_mixed_plane); through the product itself where the planes are not
             * finite (steering only) */
            const double *mt = s->mtape + K * ctx->moff[k];
            const double *pal = s->use_palpha ? s->pal + K * ctx->moff[k] : NULL;
            double *pg = s->use_palpha ? s->pal_g + K * ctx->moff[k] : NULL;
            for (int64_t sg = 0; sg < n_seg; sg++) {
                const bseg *G = &segs[sg];
                const double *l = layer_in_lo(G->b, k, G->in_lo);
                const double *u = layer_in_hi(G->b, k, G->in_hi);
                for (int64_t j = 0; j < n_out; j++) {
                    int64_t p = L->pool[2 * j], q = L->pool[2 * j + 1];
                    double sa = 0, sb = 0, tl = 0, tu = 0;
                    if (q >= 0 && !pal)
                        product_planes(l[p], u[p], l[q], u[q], p == q, &sa, &sb, &tl, &tu);
                    for (int64_t i = G->r0; i < G->r0 + G->K; i++) {
                        const double *vi = v + i * n_in;
                        double x = mt[i * n_out + j], t = x >= 0 ? tl : tu, a = sa, b = sb;
                        if (pal && q >= 0) {
                            double va, vb, da, db;
                            product_mixed_plane(l[p], u[p], l[q], u[q], p == q, x < 0,
                                                pal[i * n_out + j], &a, &b, &t, &va, &vb, &da,
                                                &db);
                            pg[i * n_out + j] = x * (da * (vi[p] - va) + db * (vi[q] - vb));
                        }
                        v2[i * n_out + j] = q < 0 ? vi[p]
                                          : isfinite(t) ? a * vi[p] + b * vi[q] + t
                                                        : vi[p] * vi[q];
                    }
                }
            }
        } else if (L->kind != VFY_LAYER_RELU) {
            /* SIGMOID/TANH with optimised lines: a row's term lam (a z + t(a)) has, t(a) being
             * the extreme of f(z) - a z over [l, u] (attained about za, recorded by the backward
             * pass), the derivative lam (z - za) in a (envelope theorem): into the lower slope's
             * gradient when lam >= 0, else the upper's. The primal point goes on through the
             * line the row used (a z + t), as through a ReLU's: the bound is the relaxed
             * network's minimum, so its derivatives are taken at the relaxed network's point.
             * Through f itself instead, the error compounds over the layers: on the eran sigmoid
             * net's idx 3881 the root's worst margin stalled at -0.95 however long the ascent.
             * Without optimised lines, and through SIGN and the convex kinds: through f
             * (steering only). */
            if (s->use_salpha &&
                act_has_pieces(L->kind)) {
                int64_t o = K * ctx->soff[k];
                const double *tp = s->stape + o, *za = s->sza + o, *sa = s->sla + o,
                             *st = s->stl + o;
                double *glo = s->sgrad_lo + o, *gup = s->sgrad_up + o;
                for (int64_t p = 0; p < K * n_in; p++) {
                    if (p % n_in < L->n_pass) { /* passed through: the identity */
                        glo[p] = gup[p] = 0;
                        v2[p] = v[p];
                        continue;
                    }
                    double gz = isnan(za[p]) ? 0 : tp[p] * (v[p] - za[p]);
                    glo[p] = tp[p] >= 0 ? gz : 0;
                    gup[p] = tp[p] >= 0 ? 0 : gz;
                    v2[p] = sa[p] * v[p] + st[p];
                }
            } else
                for (int64_t p = 0; p < K * n_out; p++)
                    v2[p] = p % n_out < L->n_pass ? v[p] : vfy_act_f64(L->kind, v[p]);
        } else {
            const double *tp = s->tape + K * ctx->roff[k];
            const double *al = s->alpha + K * ctx->roff[k];
            double *gr = s->grad + K * ctx->roff[k];
            for (int64_t sg = 0; sg < n_seg; sg++) {
                const bseg *G = &segs[sg];
                const double *l = layer_in_lo(G->b, k, G->in_lo), *u = layer_in_hi(G->b, k, G->in_hi);
                const double *su = s->s_up, *tu = s->t_up;
                if (s->rc_on) {
                    int64_t nr = s->rc_n * ctx->n_relu;
                    su = s->rc_lines + nr + G->rc * ctx->n_relu + ctx->roff[k];
                    tu = su + nr;
                } else {
                    for (int64_t j = 0; j < n_in; j++)
                        if (l[j] < 0 && u[j] > 0)
                            relu_upper_line(l[j], u[j], &s->s_up[j], &s->t_up[j]);
                }
                /* (facets) a row's upper line mixed with the tightest facet at the
                 * layer's input here, lam F + (1 - lam) T, and d bound / d lam = tp (F - T) */
                int64_t fo = ctx->facets && s->fac_v ? ctx->fvoff[k] : -1;
                const vfy_layer *FP = fo >= 0 ? &net->layers[k - 1] : NULL;
                fac_pre fpre = {0};
                if (FP)
                    fpre = fac_pre_start(ctx, s, G, k);
                for (int64_t i = G->r0; i < G->r0 + G->K; i++) {
                    /* (facets) for every unstable neuron whose row's coefficient is negative */
                    if (FP) {
                        int64_t c = 0;
                        for (int64_t j = 0; j < n_in && !c; j++)
                            c = l[j] < 0 && u[j] > 0 && tp[i * n_in + j] < 0;
                        if (c > 0)
                            fac_pre_row(FP, &fpre, s->fac_v + K * fo + i * FP->n_in);
                        if (c > 0 && !reselect) { /* the positions at this step's point */
                            fac_pre cur = fpre;
                            cur.pos = s->fac_pos;
                            fac_pre_row(FP, &cur, s->fac_vc + K * fo + i * FP->n_in);
                        }
                    }
                    for (int64_t j = 0; j < n_in; j++) {
                        double z = v[i * n_in + j], out;
                        int64_t ij = i * n_in + j;
                        gr[ij] = 0;
                        if (FP) {
                            s->fac_lam[K * ctx->n_relu + K * ctx->roff[k] + ij] = 0;
                            if (reselect)
                                s->fac_h[K * ctx->roff[k] + ij] = 0;
                        }
                        if (l[j] >= 0)
                            out = z;
                        else if (!(u[j] > 0))
                            out = 0;
                        else if (tp[ij] >= 0) {
                            out = al[ij] * z;
                            gr[ij] = tp[ij] * z;
                        } else {
                            out = su[j] * z + tu[j];
                            double fv;
                            int64_t q, m, p = K * ctx->roff[k] + ij;
                            /* (bu as the backward pass's: fac_l0 keeps its sums) */
                            double bu = FP ? vfy_add_up(FP->b[j], G->b->scratch->q[k - 1][j]) : 0;
                            if (FP && !reselect) { /* the facet kept, at this step's point */
                                double hc = s->fac_h[p];
                                struct fac_memo *mm = NULL;
                                uint64_t *bits = NULL;
                                if (s->fac_mm_on) {
                                    mm = s->fac_mm + K * ctx->fooff[k] + ij;
                                    bits = s->fac_bits + K * ctx->fboff[k] + ij * ctx->fbw[k];
                                }
                                if (hc > 0 && fac_value_at(FP, j, &fpre, s->fac_pos, bu,
                                                           (int64_t)hc - 1, mm, bits, s->fac_gen,
                                                           &fv)) {
                                    s->fac_lam[K * ctx->n_relu + p] = tp[ij] * (fv - out);
                                    out += s->fac_lam[p] * (fv - out);
                                }
                            } else if (FP) {
                                if (fac_select(FP, j, &fpre, bu, s->fac_ord, &q, &m, &fv)) {
                                    s->fac_lam[K * ctx->n_relu + p] = tp[ij] * (fv - out);
                                    out += s->fac_lam[p] * (fv - out);
                                    s->fac_h[p] = (double)(s->fac_ord[q].i + 1);
                                } else
                                    s->fac_h[p] = -1;
                            }
                        }
                        v2[ij] = out;
                    }
                }
            }
        }
        /* d bound / d beta_q = -sign_q (z_q* - t_q) (z_q* the split neuron's value at the
         * minimiser, t_q its offset) */
        for (int64_t sg = 0; sg < n_seg; sg++) {
            const bseg *G = &segs[sg];
            for (int64_t q = 0; q < G->n_sp; q++)
                if (s->sp_layer[G->sp0 + q] == k)
                    for (int64_t i = 0; i < G->K; i++)
                        s->beta_g[G->bo + i * G->n_sp + q] =
                            -s->beta_s[G->sp0 + q] *
                            (v2[(G->r0 + i) * n_out + s->sp_j[G->sp0 + q]] - s->sp_off[G->sp0 + q]);
        }
        double *t = v;
        v = v2;
        v2 = t;
    }
    s->pv = v;
    s->pv2 = v2;
    s->fac_ok = ctx->facets && s->fac_v;
}

/* Each row's value in the relaxed network at the primal point of the pass whose bounds are lbc,
 * c_y y* + c_x x* plus the splits' terms beta_q (-sign_q (z_q* - t_q)) of the Lagrangian, which
 * that bound equals up to rounding; kept with lbc for vfy_bound_primal_last (a test that every
 * layer's forward is the relaxation's). Called before alpha_gradient with y NULL (the rows' input
 * terms, from lam_in's signs, which the forward pass overwrites), then with its output y. Once
 * per call, around its last gradient step: not the ascent's work. */
static void record_primal(const vfy_bound_ctx *ctx, vfy_bound_scratch *s, const bseg *segs,
                          int64_t n_seg, int64_t K, const double *lam_in, const double *cxb,
                          const double *y, const double *lbc)
{
    int64_t nx = ctx->net->n_in, ny = ctx->net->n_out;
    for (int64_t sg = 0; sg < n_seg; sg++) {
        const bseg *G = &segs[sg];
        for (int64_t i = G->r0; i < G->r0 + G->K; i++) {
            double val = 0;
            if (!y) {
                for (int64_t j = 0; cxb && j < nx; j++)
                    val += cxb[i * nx + j] *
                           (lam_in[i * nx + j] >= 0 ? G->in_lo[j] : G->in_hi[j]);
                s->pval[i] = val;
                continue;
            }
            val = s->pval[i];
            for (int64_t j = 0; j < ny; j++)
                val += s->cyb[i * ny + j] * y[i * ny + j];
            for (int64_t q = 0; q < G->n_sp; q++) {
                int64_t p = G->bo + (i - G->r0) * G->n_sp + q;
                val += s->beta_v[p] * s->beta_g[p];
            }
            s->pval[i] = val;
        }
    }
    if (y) {
        memcpy(s->plb, lbc, (size_t)K * sizeof(double));
        s->n_primal = K;
    }
}

/* The slopes (and multipliers, n_sp from bo) of row i of the current pass's KW rows become the
 * best of the call's row o of K (its multipliers at ob). */
static void keep_best(const vfy_bound_ctx *ctx, vfy_bound_scratch *s, int64_t K, int64_t o,
                      int64_t ob, int64_t KW, int64_t i, int64_t bo, int64_t n_sp)
{
    const vfy_net *net = ctx->net;
    for (int64_t k = 0; k < net->n_layers; k++) {
        int64_t n = net->layers[k].n_in;
        if (net->layers[k].kind == VFY_LAYER_RELU)
            memcpy(s->best_alpha + K * ctx->roff[k] + o * n, s->alpha + KW * ctx->roff[k] + i * n,
                   (size_t)n * sizeof(double));
    }
    if (n_sp > 0)
        memcpy(s->best_beta + ob, s->beta_v + bo, (size_t)n_sp * sizeof(double));
}

int vfy_bound_primal_last(const vfy_bounds *b, int64_t K, double *val, double *lb)
{
    const vfy_bound_scratch *s = b->scratch;
    if (s->n_primal != K || K <= 0)
        return 0;
    memcpy(val, s->pval, (size_t)K * sizeof(double));
    memcpy(lb, s->plb, (size_t)K * sizeof(double));
    return 1;
}

void vfy_bound_alpha_warm(vfy_bounds *b, int64_t K, const float *warm, int64_t n_sp)
{
    b->scratch->warm = warm;
    b->scratch->warm_K = K;
    b->scratch->warm_nsp = n_sp;
}

/* Row i of the last vfy_bound_rows_alpha(_batch)'s jobs (in order): its segment and its row in the
 * scratch, or NULL when its job was not optimised. */
static const bseg *best_row(const vfy_bound_scratch *s, int64_t i, int64_t *row)
{
    int64_t base = 0;
    for (int64_t j = 0; j < s->n_jobs && i >= 0; j++) {
        if (i < base + s->job_rows[j]) {
            if (s->job_seg[j] < 0)
                return NULL;
            const bseg *G = &s->bsegs[s->job_seg[j]];
            *row = G->r0 + (i - base);
            return G;
        }
        base += s->job_rows[j];
    }
    return NULL;
}

int vfy_bound_best_warm(const vfy_bound_ctx *ctx, const vfy_bounds *b, int64_t i, float *out)
{
    const vfy_net *net = ctx->net;
    const vfy_bound_scratch *s = b->scratch;
    int64_t K = s->best_K, R = ctx->n_relu, r = 0;
    const bseg *G = best_row(s, i, &r);
    if (!G)
        return 0;
    for (int64_t k = 0; k < net->n_layers; k++) {
        if (net->layers[k].kind != VFY_LAYER_RELU)
            continue;
        int64_t n = net->layers[k].n_in;
        const double *al = s->best_alpha + K * ctx->roff[k] + r * n;
        for (int64_t j = 0; j < n; j++)
            out[ctx->roff[k] + j] = (float)al[j];
    }
    for (int64_t q = 0; q < G->n_sp; q++)
        out[R + q] = (float)s->best_beta[G->bo + (r - G->r0) * G->n_sp + q];
    return 1;
}

int64_t vfy_bound_ctx_n_relu(const vfy_bound_ctx *ctx) { return ctx->n_relu; }

int vfy_bound_best_params(const vfy_bound_ctx *ctx, const vfy_bounds *b, int64_t i,
                          double *alpha_flat, double *beta)
{
    const vfy_net *net = ctx->net;
    const vfy_bound_scratch *s = b->scratch;
    int64_t half = vfy_bounds_flat_size(ctx) / 2, K = s->best_K, r = 0;
    for (int64_t q = 0; q < half; q++)
        alpha_flat[q] = NAN;
    const bseg *G = best_row(s, i, &r);
    if (!G)
        return 0;
    for (int64_t k = 1; k < net->n_layers; k++) {
        if (net->layers[k].kind != VFY_LAYER_RELU)
            continue;
        int64_t n = net->layers[k].n_in;
        const double *l = G->b->lo[k - 1], *u = G->b->hi[k - 1];
        const double *al = s->best_alpha + K * ctx->roff[k] + r * n;
        for (int64_t j = 0; j < n; j++)
            if (l[j] < 0 && u[j] > 0)
                alpha_flat[ctx->foff[k - 1] + j] = al[j];
    }
    if (beta && G->n_sp > 0)
        memcpy(beta, s->best_beta + G->bo + (r - G->r0) * G->n_sp,
               (size_t)G->n_sp * sizeof(double));
    return 1;
}

vfy_status vfy_bound_rows_alpha(const vfy_bound_ctx *ctx, const double *in_lo, const double *in_hi,
                                vfy_bounds *b, int64_t K, const double *cy, const double *cx,
                                const vfy_splits *splits, int iters, double *lb, double *lam_in,
                                double *c_in)
{
    vfy_bound_scratch *s = b->scratch;
    /* (past the context's deadline the ascent ends after its current pass) */
    vfy_alpha_job job = {b, in_lo, in_hi, K, cy, cx, splits, s->warm, s->warm_K, s->warm_nsp,
                         lb, lam_in, c_in, NULL, 0, NULL, NULL, ctx->dl};
    s->warm = NULL; /* one call only */
    return vfy_bound_rows_alpha_batch(ctx, b, 1, &job, iters);
}

/* Room for n_sp splits (and as many multipliers) in a scratch's split arrays. */
static int batch_reserve_splits(vfy_bound_scratch *s, int64_t n_sp)
{
    if (n_sp <= s->cap_beta)
        return 1;
    double **bb[] = {&s->beta_v, &s->beta_g, &s->beta_m, &s->beta_s, &s->best_beta};
    for (size_t i = 0; i < 5; i++) {
        vfy_free(*bb[i]);
        *bb[i] = vfy_alloc_array((size_t)n_sp * 2, sizeof(double));
    }
    vfy_free(s->sp_layer);
    vfy_free(s->sp_j);
    vfy_free(s->sp_off);
    s->sp_layer = vfy_alloc_array((size_t)n_sp, sizeof(int64_t));
    s->sp_j = vfy_alloc_array((size_t)n_sp, sizeof(int64_t));
    s->sp_off = vfy_alloc_array((size_t)n_sp, sizeof(double));
    s->cap_beta = n_sp;
    if (!s->beta_v || !s->beta_g || !s->beta_m || !s->beta_s || !s->best_beta || !s->sp_layer ||
        !s->sp_j || !s->sp_off) {
        s->cap_beta = 0;
        return 0;
    }
    return 1;
}

/* Room in the scratch for a batch of n jobs, K rows, NS splits and NB multipliers in all. */
static int batch_reserve(const vfy_bound_ctx *ctx, vfy_bound_scratch *s, int64_t n, int64_t K,
                         int64_t NS, int64_t NB)
{
    const vfy_net *net = ctx->net;
    if (!scratch_reserve(s, K) || !alpha_reserve(ctx, s, K))
        return 0;
    if (n > s->cap_jobs) {
        vfy_free(s->bsegs);
        vfy_free(s->wsegs);
        vfy_free(s->job_rows);
        vfy_free(s->job_seg);
        s->bsegs = vfy_alloc_array((size_t)n, sizeof(bseg));
        s->wsegs = vfy_alloc_array((size_t)n, sizeof(bseg));
        s->job_rows = vfy_alloc_array((size_t)n, sizeof(int64_t));
        s->job_seg = vfy_alloc_array((size_t)n, sizeof(int64_t));
        s->cap_jobs = s->bsegs && s->wsegs && s->job_rows && s->job_seg ? n : 0;
        if (!s->cap_jobs)
            return 0;
    }
    if (K > s->cap_stack) {
        double **st[] = {&s->cyb, &s->cxb, &s->lbb, &s->lamb, &s->cinb};
        int64_t sz[] = {net->n_out, net->n_in, 1, net->n_in, 1};
        s->cap_stack = K;
        for (size_t i = 0; i < 5; i++) {
            vfy_free(*st[i]);
            *st[i] = vfy_alloc_array((size_t)(K * sz[i]), sizeof(double));
            if (!*st[i])
                s->cap_stack = 0;
        }
        vfy_free(s->wrow);
        vfy_free(s->row_done);
        s->wrow = vfy_alloc_array((size_t)K, sizeof(int64_t));
        s->row_done = vfy_alloc_array((size_t)K, 1);
        if (!s->cap_stack || !s->wrow || !s->row_done) {
            s->cap_stack = 0;
            return 0;
        }
    }
    if (!batch_reserve_splits(s, NB > NS ? NB : NS))
        return 0;
    return 1;
}

/* Adam's direction for one parameter: its moments m and v updated by the gradient g, then
 * m' / (sqrt(v') + 1e-12) for the bias-corrected m' = m r1 and v' = v r2, where r1 = 1 / (1 - b1^t)
 * and r2 = 1 / (1 - b2^t) come once a step (one division an entry, not three). */
#define ADAM_B1 0.9
#define ADAM_B2 0.999
static inline double adam_dir(double *m, double *v, double g, double r1, double r2)
{
    *m = ADAM_B1 * *m + (1 - ADAM_B1) * g;
    *v = ADAM_B2 * *v + (1 - ADAM_B2) * g * g;
    return *m * r1 / (sqrt(*v * r2) + 1e-12);
}

/* Whether row i of job J may leave the ascent: a row of its conjunction (the rows of its stop_case)
 * has a best bound lb past its stop_lb (then the caller's test, lb > rhs, refutes that case). */
static int row_stopped(const vfy_alpha_job *J, const double *lb, int64_t i)
{
    if (!J->stop_lb)
        return 0;
    if (lb[i] > J->stop_lb[i])
        return 1;
    for (int64_t i2 = 0; J->stop_case && i2 < J->K; i2++)
        if (J->stop_case[i2] == J->stop_case[i] && lb[i2] > J->stop_lb[i2])
            return 1;
    return 0;
}

/* Packs array a, laid out as blocks (one per layer k of the kind `which` selects: 0 ReLU, 1
 * Sigmoid/Tanh, 2 MaxPool/Product, n_out wide; 3 ReLU layers with facets, fvoff, as wide as the
 * input of the DENSE layer before) of K rows, block k at K off[k], into the same layout over the
 * rows not done, kept in order (new block k at K2 off[k]). Each move goes to a lower or equal
 * address and they run in increasing order, so memmove in place never overwrites what is still
 * to be read. */
static void pack_blocks(double *a, const vfy_bound_ctx *ctx, int which, const unsigned char *done,
                        int64_t K, int64_t K2)
{
    const vfy_net *net = ctx->net;
    for (int64_t k = 0; k < net->n_layers; k++) {
        vfy_layer_kind kind = net->layers[k].kind;
        int in = which == 0 ? kind == VFY_LAYER_RELU
               : which == 1 ? act_has_pieces(kind)
               : which == 2 ? kind == VFY_LAYER_MAXPOOL || kind == VFY_LAYER_PRODUCT
                            : ctx->fvoff[k] >= 0;
        if (!in)
            continue;
        int64_t w = which == 3 ? net->layers[k - 1].n_in : net->layers[k].n_out;
        const int64_t off = which == 0 ? ctx->roff[k]
                          : which == 1 ? ctx->soff[k]
                          : which == 2 ? ctx->moff[k]
                                       : ctx->fvoff[k];
        for (int64_t i = 0, r2 = 0; i < K; i++)
            if (!done[i])
                memmove(a + K2 * off + r2++ * w, a + K * off + i * w, (size_t)w * sizeof(double));
    }
}

/* Packs K row-major rows of width w the same way. */
static void pack_rows(double *a, int64_t w, const unsigned char *done, int64_t K)
{
    for (int64_t i = 0, r2 = 0; i < K; i++)
        if (!done[i])
            memmove(a + r2++ * w, a + i * w, (size_t)w * sizeof(double));
}

/* Packs a split multipliers' array the same way: segment g's row i has n_sp of them at
 * bo + (i - r0) n_sp of src, and the rows kept get them in order from dst on. Returns how many. */
static int64_t pack_mult(double *dst, const double *src, const bseg *ws, int64_t nw,
                         const unsigned char *done)
{
    int64_t b2 = 0;
    for (int64_t g = 0; g < nw; g++)
        for (int64_t i = ws[g].r0; ws[g].n_sp > 0 && i < ws[g].r0 + ws[g].K; i++) {
            if (done[i])
                continue;
            memmove(dst + b2, src + ws[g].bo + (i - ws[g].r0) * ws[g].n_sp,
                    (size_t)ws[g].n_sp * sizeof(double));
            b2 += ws[g].n_sp;
        }
    return b2;
}

/* Early stop: the ascent's state over the KW rows of the nw segments ws (NBW multipliers) packed
 * into the rows not done (s->row_done), every row keeping its own values: the slopes and Adam's
 * moments of every kind, the last pass's tapes and input coefficients (the gradient step reads
 * them), the stacked rows, the multipliers and each row's place in the call (wrow); then the
 * segments renumbered, those left without rows dropped. Returns the rows left. */
static int64_t pack_segments(const vfy_bound_ctx *ctx, vfy_bound_scratch *s, bseg *ws,
                             int64_t *nw, int64_t KW, int64_t *NBW, int any_cx, int sact,
                             int sprod)
{
    const vfy_net *net = ctx->net;
    const unsigned char *done = s->row_done;
    int64_t K2 = 0;
    for (int64_t i = 0; i < KW; i++)
        K2 += !done[i];
    double *relu[] = {s->alpha, s->grad, s->adam_m, s->adam_v, s->tape};
    for (size_t q = 0; ctx->n_relu > 0 && q < sizeof relu / sizeof relu[0]; q++)
        pack_blocks(relu[q], ctx, 0, done, KW, K2);
    double *sig[] = {s->sal_lo, s->sal_up, s->sgrad_lo, s->sgrad_up, s->sm_lo, s->sm_up,
                     s->sv_lo, s->sv_up, s->stape, s->sza, s->sla, s->stl};
    for (size_t q = 0; sact && q < sizeof sig / sizeof sig[0]; q++)
        pack_blocks(sig[q], ctx, 1, done, KW, K2);
    if (ctx->n_mp > 0 && s->mtape)
        pack_blocks(s->mtape, ctx, 2, done, KW, K2);
    double *mp[] = {s->pal, s->pal_g, s->pal_m1, s->pal_m2};
    for (size_t q = 0; sprod && q < sizeof mp / sizeof mp[0]; q++)
        pack_blocks(mp[q], ctx, 2, done, KW, K2);
    if (ctx->facets && s->fac_v) {
        /* the facets: the points where they were chosen (fac_v) and their names (fac_h), and
         * their mixes, the mixes' gradients and Adam's moments (four blocks of KW R, each in
         * the slopes' layout, packed in place and then moved down to blocks of K2 R). A row's
         * ascent is then the one it would have alone (test_alpha_batch_early_stop). */
        int64_t R = ctx->n_relu;
        pack_blocks(s->fac_v, ctx, 3, done, KW, K2);
        pack_blocks(s->fac_h, ctx, 0, done, KW, K2);
        s->fac_gen++; /* (the memo is in the layout of KW rows: computed again in K2's) */
        for (int64_t q = 0; q < 4; q++) {
            pack_blocks(s->fac_lam + q * KW * R, ctx, 0, done, KW, K2);
            memmove(s->fac_lam + q * K2 * R, s->fac_lam + q * KW * R,
                    (size_t)(K2 * R) * sizeof(double));
        }
    }
    pack_rows(s->cyb, net->n_out, done, KW);
    if (any_cx)
        pack_rows(s->cxb, net->n_in, done, KW);
    pack_rows(s->pv2, net->n_in, done, KW);
    for (int64_t i = 0, r2 = 0; i < KW; i++)
        if (!done[i])
            s->wrow[r2++] = s->wrow[i];
    if (*NBW > 0) {
        pack_mult(s->beta_v, s->beta_v, ws, *nw, done);
        pack_mult(s->beta_g, s->beta_g, ws, *nw, done);
        int64_t nb2 = pack_mult(s->beta_m, s->beta_m, ws, *nw, done);
        /* (the second moments, NBW further: every first moment is read by now) */
        pack_mult(s->beta_m + nb2, s->beta_m + *NBW, ws, *nw, done);
        *NBW = nb2;
    }
    int64_t m = 0, r2 = 0, b2 = 0;
    for (int64_t g = 0; g < *nw; g++) {
        int64_t kept = 0;
        for (int64_t i = ws[g].r0; i < ws[g].r0 + ws[g].K; i++)
            kept += !done[i];
        if (kept == 0)
            continue;
        ws[m] = ws[g];
        ws[m].r0 = r2;
        ws[m].K = kept;
        ws[m].bo = b2;
        r2 += kept;
        b2 += kept * ws[m].n_sp;
        m++;
    }
    *nw = m;
    return K2;
}

vfy_status vfy_bound_rows_alpha_batch(const vfy_bound_ctx *ctx, vfy_bounds *work, int64_t n_jobs,
                                      const vfy_alpha_job *jobs, int iters)
{
    vfy_bound_scratch *s = work->scratch;
    const vfy_net *net = ctx->net;
    int64_t L = net->n_layers, R = ctx->n_relu, nx = net->n_in, ny = net->n_out;
    int sact = ctx->n_sact > 0 && ctx->act_search;
    int sprod = ctx->n_prod > 0 && ctx->act_search; /* PRODUCT planes optimised too */
    s->best_K = 0;
    s->n_jobs = 0;
    /* the jobs optimised here: rows to bound, valid layer bounds, something to optimise */
    int64_t n = 0, K = 0, NS = 0, NB = 0, any_cx = 0;
    for (int64_t j = 0; j < n_jobs; j++) {
        const vfy_alpha_job *J = &jobs[j];
        int64_t nsp = J->splits ? J->splits->n : 0;
        if (J->K > 0 && iters > 0 && (R > 0 || sact || sprod) && !J->b->overflow) {
            n++;
            K += J->K;
            NS += nsp;
            NB += J->K * nsp;
            any_cx |= J->cx != NULL;
        }
    }
    if (!batch_reserve(ctx, s, n_jobs, K, NS, NB))
        return VFY_ERR_NOMEM;
    s->fac_ok = 0;
    s->fac_step = 0;
    if (ctx->facets) {
        int64_t tot = ctx->n_fv, w = 0;
        for (int64_t k = 0; k < L; k++)
            w = net->layers[k].n_in > w ? net->layers[k].n_in : w;
        if (!grow_buf(&s->fac_v, &s->cap_fac_v, (size_t)(K * tot + 1)) ||
            !grow_buf(&s->fac_corr, &s->cap_fac_corr, (size_t)(K * w + 1)) ||
            !grow_buf(&s->fac_err, &s->cap_fac_err, (size_t)(K + 1)) ||
            !grow_buf(&s->fac_lam, &s->cap_fac_lam, (size_t)(4 * K * R + 1)) ||
            !grow_buf(&s->fac_h, &s->cap_fac_h, (size_t)(K * R + 1)) ||
            !grow_buf(&s->fac_pre, &s->cap_fac_pre, (size_t)(w + 1)) ||
            !grow_buf(&s->fac_vc, &s->cap_fac_vc, (size_t)(K * tot + 1)) ||
            !grow_buf(&s->fac_pos, &s->cap_fac_pos, (size_t)(w + 1)) ||
            !grow_buf(&s->fac_box, &s->cap_fac_box, (size_t)(n * FAC_BOX(ctx) + 1)) ||
            !grow_buf(&s->fac_rdy, &s->cap_fac_rdy, (size_t)(n * L + 1)))
            return VFY_ERR_NOMEM;
        size_t n_mm = (size_t)(K * ctx->n_fo + 1), n_bits = (size_t)(K * ctx->n_fb + 1);
        s->fac_mm_on = ctx->fac_memo &&
                       n_mm * sizeof *s->fac_mm + n_bits * sizeof *s->fac_bits <= FAC_MEMO_BYTES;
        if (s->fac_mm_on) {
            s->fac_mm = grow_mem(s->fac_mm, &s->cap_fac_mm, n_mm, sizeof *s->fac_mm);
            s->fac_bits = grow_mem(s->fac_bits, &s->cap_fac_bits, n_bits, sizeof *s->fac_bits);
            if (!s->fac_mm || !s->fac_bits)
                return VFY_ERR_NOMEM;
        }
        s->fac_gen++; /* (a new call: new boxes, new rows) */
        memset(s->fac_rdy, 0, (size_t)(n * L) * sizeof(double));
        memset(s->fac_lam, 0, (size_t)(4 * K * R) * sizeof(double));
        memset(s->fac_h, 0, (size_t)(K * R) * sizeof(double));
        if ((size_t)w + 1 > s->cap_fac_ord) {
            vfy_free(s->fac_ord);
            s->fac_ord = vfy_alloc_array((size_t)w + 1, sizeof(struct fac_item));
            s->cap_fac_ord = s->fac_ord ? (size_t)w + 1 : 0;
            if (!s->fac_ord)
                return VFY_ERR_NOMEM;
        }
    }
    /* the others: CROWN's bound (each on its own scratch) */
    n = K = NS = NB = 0;
    for (int64_t j = 0; j < n_jobs; j++) {
        const vfy_alpha_job *J = &jobs[j];
        int64_t nsp = J->splits ? J->splits->n : 0;
        s->job_rows[j] = J->K;
        s->job_seg[j] = -1;
        if (!(J->K > 0 && iters > 0 && (R > 0 || sact || sprod) && !J->b->overflow)) {
            vfy_status st = vfy_bound_rows(ctx, VFY_BOUND_CROWN, J->in_lo, J->in_hi, J->b, J->K,
                                           J->cy, J->cx, J->lb, J->lam_in, J->c_in);
            if (st != VFY_OK)
                return st;
            continue;
        }
        bseg *G = &s->bsegs[n];
        *G = (bseg){J->b, J->in_lo, J->in_hi, K, J->K, NS, nsp, NB, n, j, K, NB};
        s->job_seg[j] = n++;
        for (int64_t q = 0; q < nsp; q++) {
            int64_t k = vfy_bound_flat_layer(ctx, J->splits->idx[q]);
            s->sp_layer[NS + q] = k;
            s->sp_j[NS + q] = J->splits->idx[q] - ctx->foff[k];
            s->beta_s[NS + q] = J->splits->sign[q] > 0 ? 1.0 : -1.0;
            s->sp_off[NS + q] = J->splits->offset ? J->splits->offset[q] : 0.0;
        }
        memcpy(s->cyb + K * ny, J->cy, (size_t)(J->K * ny) * sizeof(double));
        if (any_cx) {
            if (J->cx)
                memcpy(s->cxb + K * nx, J->cx, (size_t)(J->K * nx) * sizeof(double));
            else
                memset(s->cxb + K * nx, 0, (size_t)(J->K * nx) * sizeof(double));
        }
        K += J->K;
        NS += nsp;
        NB += J->K * nsp;
    }
    s->n_jobs = n_jobs;
    if (n == 0)
        return VFY_OK;
    const bseg *segs = s->bsegs;
    const double *cxb = any_cx ? s->cxb : NULL;
    /* (the segments' layer bounds stay as they are until the return: the cache holds) */
    s->rc_on = relu_cache_fill(ctx, s, segs, n);
    double *lb = s->lbb, *lam_in = s->lamb, *c_in = s->cinb;
    /* the first bound of every row: IBP's, then CROWN's (default slopes) where better, as
     * vfy_bound_rows */
    for (int64_t g = 0; g < n; g++) {
        const bseg *G = &segs[g];
        const double *ylo = L ? G->b->lo[L - 1] : G->in_lo, *yhi = L ? G->b->hi[L - 1] : G->in_hi;
        for (int64_t i = G->r0; i < G->r0 + G->K; i++)
            lb[i] = c_in[i] = interval_row(ny, s->cyb + i * ny, ylo, yhi, nx,
                                           cxb ? cxb + i * nx : NULL, G->in_lo, G->in_hi);
    }
    memset(lam_in, 0, (size_t)(K * nx) * sizeof(double));
    memcpy(s->lam, s->cyb, (size_t)(K * ny) * sizeof(double));
    rows_init(s, K);
    backward_segs(ctx, s, segs, n, L, K, cxb, s->lbtmp, s->pv2, s->ctmp, NULL, NULL, NULL);
    for (int64_t i = 0; i < K; i++)
        if (s->lbtmp[i] > lb[i]) {
            lb[i] = s->lbtmp[i];
            memcpy(lam_in + i * nx, s->pv2 + i * nx, (size_t)nx * sizeof(double));
            c_in[i] = s->ctmp[i];
        }
    if (NB > 0) { /* (without splits the arrays may never have been allocated) */
        memset(s->beta_v, 0, (size_t)NB * sizeof(double));
        memset(s->beta_g, 0, (size_t)NB * sizeof(double));
        memset(s->beta_m, 0, (size_t)(2 * NB) * sizeof(double));
    }
    /* SIGMOID/TANH: start from the default lines' slopes (each domain's cache holds those of its
     * bounds: the pass above made them) */
    for (int64_t k = 0; sact && k < L; k++) {
        const vfy_layer *Ly = &net->layers[k];
        if (!act_has_pieces(Ly->kind))
            continue;
        int64_t nn = Ly->n_in, o = K * ctx->soff[k];
        for (int64_t g = 0; g < n; g++) {
            const bseg *G = &segs[g];
            vfy_bound_scratch *ds = G->b->scratch;
            act_lines(Ly, ds, k, layer_in_lo(G->b, k, G->in_lo), layer_in_hi(G->b, k, G->in_hi));
            const double *c = ds->act[k];
            for (int64_t i = G->r0; i < G->r0 + G->K; i++)
                for (int64_t j = 0; j < nn; j++) {
                    s->sal_lo[o + i * nn + j] = c[2 * nn + j];
                    s->sal_up[o + i * nn + j] = c[4 * nn + j];
                }
        }
    }
    if (sact) {
        size_t nb = (size_t)(K * ctx->n_sact) * sizeof(double);
        memset(s->sm_lo, 0, nb);
        memset(s->sm_up, 0, nb);
        memset(s->sv_lo, 0, nb);
        memset(s->sv_up, 0, nb);
    }
    /* start from CROWN's slopes */
    for (int64_t k = 0; k < L; k++) {
        const vfy_layer *Ly = &net->layers[k];
        if (Ly->kind != VFY_LAYER_RELU)
            continue;
        double *al = s->alpha + K * ctx->roff[k];
        for (int64_t g = 0; g < n; g++) {
            const bseg *G = &segs[g];
            const double *l = layer_in_lo(G->b, k, G->in_lo), *u = layer_in_hi(G->b, k, G->in_hi);
            for (int64_t i = G->r0; i < G->r0 + G->K; i++)
                for (int64_t j = 0; j < Ly->n_in; j++)
                    al[i * Ly->n_in + j] = relu_lower_slope(l[j], u[j]);
        }
    }
    /* the first pass (CROWN's slopes, no multipliers) stands for the initial bound until a pass
     * beats it */
    memcpy(s->best_alpha, s->alpha, (size_t)(K * R) * sizeof(double));
    if (NB > 0)
        memset(s->best_beta, 0, (size_t)NB * sizeof(double));
    s->best_K = K;
    /* a warm start (the parent domain's best parameters) replaces the first pass's; any slope in
     * [0, 1] and multiplier >= 0 is sound, so this only changes where the ascent starts */
    for (int64_t j = 0; j < n_jobs; j++) {
        const vfy_alpha_job *J = &jobs[j];
        if (s->job_seg[j] < 0 || !J->warm || J->warm_K != J->K || J->warm_nsp > segs[s->job_seg[j]].n_sp)
            continue;
        const bseg *G = &segs[s->job_seg[j]];
        int64_t stride = (J->warm_idx ? J->warm_n : R) + J->warm_nsp;
        /* a compact warm start: the slopes of ReLUs warm_idx[q] only (the others keep the first
         * pass's) */
        for (int64_t q = 0, k = 0; J->warm_idx && q < J->warm_n; q++) {
            int64_t ri = J->warm_idx[q];
            while (k < L && (net->layers[k].kind != VFY_LAYER_RELU ||
                             ri >= ctx->roff[k] + net->layers[k].n_in))
                k++;
            if (k >= L || ri < ctx->roff[k]) /* (warm_idx increasing: none left) */
                break;
            int64_t nk = net->layers[k].n_in, jj = ri - ctx->roff[k];
            double *al = s->alpha + K * ctx->roff[k] + G->r0 * nk + jj;
            for (int64_t i = 0; i < G->K; i++) {
                double a = J->warm[i * stride + q];
                if (a >= 0 && a <= 1)
                    al[i * nk] = a;
            }
        }
        for (int64_t k = 0; !J->warm_idx && k < L; k++) {
            const vfy_layer *Ly = &net->layers[k];
            if (Ly->kind != VFY_LAYER_RELU)
                continue;
            double *al = s->alpha + K * ctx->roff[k];
            for (int64_t i = 0; i < G->K; i++)
                for (int64_t jj = 0; jj < Ly->n_in; jj++) {
                    double a = J->warm[i * stride + ctx->roff[k] + jj];
                    if (a >= 0 && a <= 1)
                        al[(G->r0 + i) * Ly->n_in + jj] = a;
                }
        }
        for (int64_t i = 0; i < G->K; i++)
            for (int64_t q = 0; q < J->warm_nsp; q++) {
                double v = J->warm[i * stride + (J->warm_idx ? J->warm_n : R) + q];
                s->beta_v[G->bo + i * G->n_sp + q] = v > 0 ? v : 0;
            }
    }
    memset(s->adam_m, 0, (size_t)(K * R) * sizeof(double));
    memset(s->adam_v, 0, (size_t)(K * R) * sizeof(double));
    /* PRODUCT: every row starts from the mean planes (theta = 1/2: product_planes' slopes) */
    if (sprod) {
        size_t nb = (size_t)(K * ctx->n_mp);
        for (size_t p = 0; p < nb; p++)
            s->pal[p] = 0.5;
        memset(s->pal_g, 0, nb * sizeof(double));
        memset(s->pal_m1, 0, nb * sizeof(double));
        memset(s->pal_m2, 0, nb * sizeof(double));
    }
    double *lbc = s->best_lb;
    s->n_primal = 0;
    const double lr = 0.1, b1 = ADAM_B1, b2 = ADAM_B2;
    const double act_decay = pow(ACT_LR_FINAL, 1.0 / (iters > 1 ? iters - 1 : 1));
    double b1t = 1, b2t = 1, act_lr = ACT_LR;
    s->use_salpha = sact; /* (reset before the return below) */
    s->use_palpha = sprod;
    s->pal_K = K;
    /* the segments still in the ascent (ws, nw of them) and their rows (KW) and multipliers (NBW):
     * all of them until rows stop early (stop_lb), then packed */
    bseg *ws = s->wsegs;
    memcpy(ws, segs, (size_t)n * sizeof(bseg));
    int64_t nw = n, KW = K, NBW = NB;
    for (int64_t i = 0; i < K; i++)
        s->wrow[i] = i;
    int early = 0;
    const vfy_deadline *dl = NULL;
    for (int64_t j = 0; j < n_jobs; j++) {
        early |= s->job_seg[j] >= 0 && jobs[j].stop_lb != NULL;
        dl = dl ? dl : jobs[j].dl;
    }
    for (int it = 0; it < iters; it++) {
        memcpy(s->lam, s->cyb, (size_t)(KW * ny) * sizeof(double));
        rows_init(s, KW);
        backward_segs(ctx, s, ws, nw, L, KW, cxb, lbc, s->pv2 /* lam at the input */, s->ctmp,
                      s->alpha, s->tape, NBW ? s->beta_v : NULL);
        /* every pass is sound for its slopes: keep each row's best */
        for (int64_t g = 0; g < nw; g++) {
            const bseg *G = &ws[g];
            for (int64_t i = G->r0; i < G->r0 + G->K; i++) {
                int64_t o = s->wrow[i];
                if (lbc[i] > lb[o]) {
                    lb[o] = lbc[i];
                    memcpy(lam_in + o * nx, s->pv2 + i * nx, (size_t)nx * sizeof(double));
                    c_in[o] = s->ctmp[i];
                    keep_best(ctx, s, K, o, G->o_bo + (o - G->o_r0) * G->n_sp, KW, i,
                              G->bo + (i - G->r0) * G->n_sp, G->n_sp);
                }
            }
        }
        if (it + 1 == iters || (dl && vfy_deadline_over(dl)))
            break;
        if (early) {
            int64_t nd = 0;
            for (int64_t g = 0; g < nw; g++) {
                const bseg *G = &ws[g];
                for (int64_t i = G->r0; i < G->r0 + G->K; i++) {
                    int64_t o = s->wrow[i] - G->o_r0;
                    s->row_done[i] = (unsigned char)row_stopped(&jobs[G->job], lb + G->o_r0, o);
                    nd += s->row_done[i];
                }
            }
            if (nd == KW)
                break; /* every row's case refuted: nothing left to optimise */
            if (nd > 0) {
                KW = pack_segments(ctx, s, ws, &nw, KW, &NBW, any_cx, sact, sprod);
                s->pal_K = KW;
            }
        }
        memcpy(s->pv, s->pv2, (size_t)(KW * nx) * sizeof(double));
        /* (the primal point is recorded for the call's rows: not once some have stopped) */
        int primal = it + 2 == iters && KW == K;
        if (primal)
            record_primal(ctx, s, ws, nw, KW, s->pv, cxb, NULL, lbc);
        alpha_gradient(ctx, s, ws, nw, KW, s->pv);
        if (primal)
            record_primal(ctx, s, ws, nw, KW, NULL, NULL, s->pv, lbc);
        /* projected Adam ascent on the slopes, each kept in [0, 1] */
        b1t *= b1;
        b2t *= b2;
        const double r1 = 1 / (1 - b1t), r2 = 1 / (1 - b2t);
        for (int64_t p = 0; p < KW * R; p++) {
            double g = s->grad[p];
            if (g == 0 && s->adam_m[p] == 0)
                continue; /* a stable neuron's slope (no gradient ever): nothing would move */
            double a = s->alpha[p] + lr * adam_dir(&s->adam_m[p], &s->adam_v[p], g, r1, r2);
            s->alpha[p] = a < 0 ? 0 : (a > 1 ? 1 : a);
        }
        /* projected Adam ascent on the facets' mixes, each kept in [0, 1] (the
         * gradients from the pass above, at the primal point before it) */
        for (int64_t p = 0; ctx->facets && s->fac_ok && p < KW * R; p++) {
            double *fl = s->fac_lam, g = fl[KW * R + p];
            double *m1 = fl + 2 * KW * R, *m2 = fl + 3 * KW * R;
            if (g == 0 && m1[p] == 0)
                continue;
            double a = fl[p] + FAC_LR * adam_dir(&m1[p], &m2[p], g, r1, r2);
            fl[p] = a < 0 ? 0 : (a > 1 ? 1 : a);
        }
        /* projected Adam ascent on the split multipliers, each kept >= 0 */
        for (int64_t p = 0; p < NBW; p++) {
            double v = s->beta_v[p] + lr * adam_dir(&s->beta_m[p], &s->beta_m[NBW + p],
                                                    s->beta_g[p], r1, r2);
            s->beta_v[p] = v > 0 ? v : 0;
        }
        /* projected Adam ascent on the PRODUCT mixes, each kept in [0, 1] (any mix is sound:
         * product_mixed_plane certifies its intercept) */
        for (int64_t p = 0; sprod && p < KW * ctx->n_mp; p++) {
            double g = s->pal_g[p];
            if (g == 0 && s->pal_m1[p] == 0)
                continue;
            double v = s->pal[p] + lr * adam_dir(&s->pal_m1[p], &s->pal_m2[p], g, r1, r2);
            s->pal[p] = v < 0 ? 0 : (v > 1 ? 1 : v);
        }
        /* projected Adam ascent on the SIGMOID/TANH slopes, each kept in [0, max f'] (any slope
         * is sound: its intercept is certified; the range only keeps the search sensible) */
        if (it > 0)
            act_lr *= act_decay;
        for (int64_t k = 0; sact && k < L; k++) {
            const vfy_layer *Ly = &net->layers[k];
            if (!act_has_pieces(Ly->kind))
                continue;
            /* (a gated kind's slopes in [f'(-c), f'(c)], below 0 too) */
            double dmax = act_dmax(Ly->kind), dmin = act_dmin(Ly->kind);
            int64_t o = KW * ctx->soff[k];
            for (int h = 0; h < 2; h++) {
                double *a = (h ? s->sal_up : s->sal_lo) + o, *g = (h ? s->sgrad_up : s->sgrad_lo) + o;
                double *m1 = (h ? s->sm_up : s->sm_lo) + o, *m2 = (h ? s->sv_up : s->sv_lo) + o;
                for (int64_t p = 0; p < KW * Ly->n_in; p++) {
                    if (g[p] == 0 && m1[p] == 0)
                        continue;
                    double v = a[p] + act_lr * dmax * adam_dir(&m1[p], &m2[p], g[p], r1, r2);
                    a[p] = v < dmin ? dmin : (v > dmax ? dmax : v);
                }
            }
        }
    }
    s->use_salpha = 0;
    s->use_palpha = 0;
    s->rc_on = 0;
    s->fac_ok = 0;
    /* each job's results */
    for (int64_t j = 0; j < n_jobs; j++) {
        if (s->job_seg[j] < 0)
            continue;
        const vfy_alpha_job *J = &jobs[j];
        const bseg *G = &segs[s->job_seg[j]];
        memcpy(J->lb, lb + G->r0, (size_t)G->K * sizeof(double));
        if (J->lam_in)
            memcpy(J->lam_in, lam_in + G->r0 * nx, (size_t)(G->K * nx) * sizeof(double));
        if (J->c_in)
            memcpy(J->c_in, c_in + G->r0, (size_t)G->K * sizeof(double));
    }
    return VFY_OK;
}

vfy_status vfy_bound_relu_scores(const vfy_bound_ctx *ctx, const double *in_lo, const double *in_hi,
                                 vfy_bounds *b, int64_t K, const double *cy, const double *cx,
                                 double *score, double *iscore)
{
    const vfy_net *net = ctx->net;
    vfy_bound_scratch *s = b->scratch;
    memset(score, 0, (size_t)(vfy_bounds_flat_size(ctx) / 2) * sizeof(double));
    if (iscore)
        memset(iscore, 0, (size_t)(vfy_bounds_flat_size(ctx) / 2) * sizeof(double));
    int sact = ctx->n_sact > 0 && ctx->act_search;
    if ((ctx->n_relu == 0 && !sact) || K == 0)
        return VFY_OK;
    if (!scratch_reserve(s, K) || !alpha_reserve(ctx, s, K))
        return VFY_ERR_NOMEM;
    memcpy(s->lam, cy, (size_t)(K * net->n_out) * sizeof(double));
    rows_init(s, K);
    s->keep_stape = sact;
    backward(ctx, b, net->n_layers, K, in_lo, in_hi, cx, s->best_lb, NULL, NULL, NULL, s->tape, 0,
             NULL);
    s->keep_stape = 0;
    /* BaBSR-style: an unstable neuron's relaxation costs the bound up to |lam| times the height of
     * the triangle relaxation at z = 0, -l u / (u - l); splitting it removes that. A SIGMOID/TANH
     * neuron: |lam| times the largest gap between its upper and lower line on [l, u] (at an end:
     * the gap is linear), which a split at vfy_bound_split_point shrinks (at 0, or halving an
     * interval on one side of 0). */
    int64_t off = 0;
    for (int64_t k = 0; k < net->n_layers; k++) {
        const vfy_layer *L = &net->layers[k];
        int act = sact && act_has_pieces(L->kind);
        /* (only a pre-activation whose layer takes its bounds from a domain's prior, where a
         * split's clamp is kept: an activation's output is recomputed from its input, so a split
         * of it would stay as wide as before, and be chosen again and again) */
        int clamped = k > 0 && !vfy_layer_is_act(net->layers[k - 1].kind);
        if ((L->kind == VFY_LAYER_RELU || act) && clamped) {
            int64_t poff = off - net->layers[k - 1].n_out; /* flat offset of the pre-activation */
            const double *l = b->lo[k - 1], *u = b->hi[k - 1];
            const double *tp = act ? s->stape + K * ctx->soff[k] : s->tape + K * ctx->roff[k];
            const double *c = act ? s->act[k] : NULL;
            int64_t n = L->n_in;
            for (int64_t j = act ? L->n_pass : 0; j < n; j++) { /* (passed through: exact) */
                if (act ? isnan(vfy_bound_split_point(l[j], u[j])) : !(l[j] < 0 && u[j] > 0))
                    continue;
                double h = -l[j] * u[j] / (u[j] - l[j]), acc = 0;
                if (act) {
                    double ds = c[4 * n + j] - c[2 * n + j], dt = c[5 * n + j] - c[3 * n + j];
                    h = fmax(ds * l[j] + dt, ds * u[j] + dt);
                    if (!(h > 0))
                        continue;
                }
                double neg = 0;
                for (int64_t i = 0; i < K; i++) {
                    acc += fabs(tp[i * n + j]);
                    neg += tp[i * n + j] < 0 ? -tp[i * n + j] : 0;
                }
                score[poff + j] = acc * h + 1e-300; /* > 0: marks the neuron splittable */
                if (iscore)
                    iscore[poff + j] = (act ? acc : neg) * h + 1e-300;
            }
        }
        off += L->n_out;
    }
    return VFY_OK;
}

/* Branching look-ahead: lower bounds of the K rows in the two children of splitting each of n
 * candidate pre-activations, all in one backward pass of 2 n K rows (one large product per layer
 * rather than 2 n small ones): the rows of candidate c's child treat that neuron as decided (ov_* in
 * the scratch), everything else as in the parent. The later layers are not re-bounded, as a real
 * child would be: each value is a sound but looser bound of its child. With params, each row takes
 * the slopes and split multipliers that gave its parent row its bound (any slope in [0, 1] and
 * multiplier >= 0 is sound on the child too, a subset of the parent's domain): the look-ahead then
 * starts from the parent's optimised bound instead of CROWN's. */
vfy_status vfy_bound_split_lb(const vfy_bound_ctx *ctx, const double *in_lo, const double *in_hi,
                              vfy_bounds *b, int64_t K, const double *cy, const double *cx,
                              int64_t n, const int64_t *idx, double *lb_neg, double *lb_pos)
{
    return vfy_bound_split_lb_params(ctx, in_lo, in_hi, b, K, cy, cx, n, idx, NULL, NULL, lb_neg,
                                     lb_pos);
}

vfy_status vfy_bound_split_lb_params(const vfy_bound_ctx *ctx, const double *in_lo,
                                     const double *in_hi, vfy_bounds *b, int64_t K,
                                     const double *cy, const double *cx, int64_t n,
                                     const int64_t *idx, const vfy_bounds *params,
                                     const int64_t *prow, double *lb_neg, double *lb_pos)
{
    const vfy_net *net = ctx->net;
    vfy_bound_scratch *s = b->scratch;
    int64_t ny = net->n_out, nx = net->n_in, M = 2 * n * K, R = ctx->n_relu;
    if (M == 0)
        return VFY_OK;
    if (!scratch_reserve(s, M))
        return VFY_ERR_NOMEM;
    /* the parameters of each parent row (G[i] NULL: none), and the splits they go with: those of
     * the domain, the same for every row that has them */
    const vfy_bound_scratch *ps = params ? params->scratch : NULL;
    const bseg *G0 = NULL;
    int64_t n_sp = 0, *prr = vfy_alloc_array((size_t)K + 1, sizeof(int64_t));
    const bseg **G = vfy_alloc_array((size_t)K + 1, sizeof(bseg *));
    int64_t *ovl = vfy_alloc_array((size_t)(2 * M), sizeof(int64_t));
    signed char *ovs = vfy_alloc_array((size_t)M, 1);
    double *lb = vfy_alloc_array((size_t)M, sizeof(double));
    double *cxm = cx ? vfy_alloc_array((size_t)(M * nx), sizeof(double)) : NULL;
    double *al = NULL, *bv = NULL;
    vfy_status st = VFY_OK;
    if (!ovl || !ovs || !lb || (cx && !cxm) || !prr || !G) {
        st = VFY_ERR_NOMEM;
        goto done;
    }
    for (int64_t i = 0; i < K; i++) {
        G[i] = ps && prow && prow[i] >= 0 ? best_row(ps, prow[i], &prr[i]) : NULL;
        if (G[i] && G0 && (G[i]->n_sp != G0->n_sp || G[i]->sp0 != G0->sp0))
            G[i] = NULL; /* (rows of another domain: not this one's parameters) */
        if (G[i] && !G0)
            G0 = G[i];
    }
    if (G0) {
        n_sp = G0->n_sp;
        al = grow_buf(&s->ov_alpha, &s->cap_ov_alpha, (size_t)(M * R) + 1);
        bv = grow_buf(&s->ov_beta, &s->cap_ov_beta, (size_t)(M * n_sp) + 1);
        if (!al || !bv || (n_sp > s->cap_beta && !batch_reserve_splits(s, n_sp))) {
            st = VFY_ERR_NOMEM;
            goto done;
        }
        for (int64_t q = 0; q < n_sp; q++) {
            s->sp_layer[q] = ps->sp_layer[G0->sp0 + q];
            s->sp_j[q] = ps->sp_j[G0->sp0 + q];
            s->beta_s[q] = ps->beta_s[G0->sp0 + q];
            s->sp_off[q] = ps->sp_off[G0->sp0 + q];
        }
    }
    /* row (c, h, i) at (2 c + h) K + i */
    for (int64_t c = 0; c < n; c++) {
        int64_t k = vfy_bound_flat_layer(ctx, idx[c]);
        for (int h = 0; h < 2; h++)
            for (int64_t i = 0; i < K; i++) {
                int64_t r = (2 * c + h) * K + i;
                ovl[r] = k + 1; /* the ReLU layer whose input is the pre-activation */
                ovl[M + r] = idx[c] - ctx->foff[k];
                ovs[r] = h ? 1 : -1;
                memcpy(s->lam + r * ny, cy + i * ny, (size_t)ny * sizeof(double));
                if (cx)
                    memcpy(cxm + r * nx, cx + i * nx, (size_t)nx * sizeof(double));
                if (!G0)
                    continue;
                for (int64_t kk = 0; kk < net->n_layers; kk++) {
                    const vfy_layer *Ly = &net->layers[kk];
                    if (Ly->kind != VFY_LAYER_RELU)
                        continue;
                    int64_t m = Ly->n_in;
                    double *dst = al + M * ctx->roff[kk] + r * m;
                    if (G[i])
                        memcpy(dst, ps->best_alpha + ps->best_K * ctx->roff[kk] + prr[i] * m,
                               (size_t)m * sizeof(double));
                    else /* CROWN's default slopes */
                        for (int64_t j = 0; j < m; j++)
                            dst[j] = relu_lower_slope(layer_in_lo(b, kk, in_lo)[j],
                                                      layer_in_hi(b, kk, in_hi)[j]);
                }
                for (int64_t q = 0; q < n_sp; q++)
                    bv[r * n_sp + q] =
                        G[i] ? ps->best_beta[G[i]->bo + (prr[i] - G[i]->r0) * n_sp + q] : 0.0;
            }
    }
    s->ov_layer = ovl;
    s->ov_j = ovl + M;
    s->ov_sign = ovs;
    rows_init(s, M);
    s->f32_from = 0; /* (the look-ahead only scores the candidates) */
    backward(ctx, b, net->n_layers, M, in_lo, in_hi, cxm, lb, NULL, NULL, al, NULL, n_sp,
             n_sp ? bv : NULL);
    s->f32_from = F32_OFF;
    s->ov_layer = s->ov_j = NULL;
    s->ov_sign = NULL;
    for (int64_t c = 0; c < n; c++)
        for (int64_t i = 0; i < K; i++) {
            lb_neg[c * K + i] = lb[(2 * c) * K + i];
            lb_pos[c * K + i] = lb[(2 * c + 1) * K + i];
        }
done:
    vfy_free(ovl);
    vfy_free(ovs);
    vfy_free(lb);
    vfy_free(cxm);
    vfy_free(prr);
    vfy_free(G);
    return st;
}

/* ---------------------------------------------------------------- alpha on hidden layers */

/* SOUND: max(0, l) <= relu(z) <= max(0, u) for z in [l, u]; the rest is vfy_bound_layers with the
 * current bounds as the prior (an intersection of sound enclosures). */
/* The pre-activations whose bounds vfy_bound_tighten_alpha optimises: those of a ReLU layer after
 * the first ReLU layer (whose own are exact by CROWN), not behind an activation. */
static int tightened_layer(const vfy_net *net, int64_t k, int64_t *relu_seen)
{
    const vfy_layer *R = &net->layers[k];
    if (R->kind != VFY_LAYER_RELU || vfy_layer_is_act(net->layers[k - 1].kind))
        return 0;
    return (*relu_seen)++ > 0;
}

vfy_bound_slopes *vfy_bound_slopes_create(const vfy_bound_ctx *ctx, const vfy_bounds *root,
                                          size_t max_bytes)
{
    const vfy_net *net = ctx->net;
    if (ctx->n_relu == 0 || ctx->n_relu > SLOPES_MAX_RELUS)
        return NULL;
    vfy_bound_slopes *sl = vfy_alloc(sizeof *sl);
    if (!sl)
        return NULL;
    sl->half = vfy_bounds_flat_size(ctx) / 2;
    sl->n_relu = ctx->n_relu;
    sl->row_of = vfy_alloc_array((size_t)sl->half, sizeof(int64_t));
    if (!sl->row_of)
        goto fail;
    for (int64_t f = 0; f < sl->half; f++)
        sl->row_of[f] = -1;
    int64_t rows = 0, relu_seen = 0;
    for (int64_t k = 1; k < net->n_layers; k++) {
        if (!tightened_layer(net, k, &relu_seen) ||
            ctx->roff[k] * ctx->chunk_rows * (int64_t)sizeof(double) > SLOPES_CHUNK_BYTES)
            continue; /* (crown_refine would not use them) */
        const double *lo = root->lo[k - 1], *hi = root->hi[k - 1];
        for (int64_t j = 0; j < net->layers[k - 1].n_out; j++)
            if (lo[j] < 0 && hi[j] > 0) {
                sl->row_of[ctx->foff[k - 1] + j] = rows;
                rows += 2;
            }
    }
    sl->n_rows = rows;
    if (rows == 0 || (double)rows * (double)sl->n_relu * sizeof(float) > (double)max_bytes)
        goto fail;
    sl->a = vfy_alloc_array((size_t)(rows * sl->n_relu), sizeof(float));
    sl->rec = vfy_alloc_array((size_t)rows, 1);
    if (!sl->a || !sl->rec)
        goto fail;
    return sl;
fail:
    vfy_bound_slopes_free(sl);
    return NULL;
}

void vfy_bound_slopes_free(vfy_bound_slopes *sl)
{
    if (!sl)
        return;
    vfy_free(sl->row_of);
    vfy_free(sl->a);
    vfy_free(sl->rec);
    vfy_free(sl);
}

int64_t vfy_bound_slopes_recorded(const vfy_bound_slopes *sl)
{
    int64_t n = 0;
    for (int64_t r = 0; sl && r < sl->n_rows; r++)
        n += sl->rec[r];
    return n;
}

void vfy_bounds_use_slopes(vfy_bounds *b, vfy_bound_slopes *sl) { b->slopes = sl; }

/* Record the slopes of row i of the last vfy_bound_rows_alpha on the prefix (pc, pb) as those of
 * neuron f's lower (upper = 0) or upper bound, if sl keeps that neuron. aflat: scratch of the
 * prefix's flat size / 2. */
static void slopes_record(const vfy_bound_ctx *ctx, vfy_bound_slopes *sl, int64_t f, int upper,
                          const vfy_bound_ctx *pc, const vfy_bounds *pb, int64_t i, double *aflat)
{
    int64_t row = sl->row_of[f];
    if (row < 0 || !vfy_bound_best_params(pc, pb, i, aflat, NULL))
        return;
    row += upper;
    float *dst = sl->a + row * sl->n_relu;
    for (int64_t q = 1; q < pc->net->n_layers; q++) {
        const vfy_layer *R = &pc->net->layers[q];
        if (R->kind != VFY_LAYER_RELU)
            continue;
        for (int64_t j = 0; j < R->n_in; j++)
            dst[ctx->roff[q] + j] = (float)aflat[ctx->foff[q - 1] + j];
    }
    sl->rec[row] = 1;
}

vfy_status vfy_bound_refresh(const vfy_bound_ctx *ctx, const double *in_lo, const double *in_hi,
                             vfy_bounds *b, int64_t k, double *flat)
{
    const double *lo = b->lo[k - 1], *hi = b->hi[k - 1];
    for (int64_t j = 0; j < ctx->net->layers[k].n_out; j++) {
        b->lo[k][j] = fmax(b->lo[k][j], fmax(lo[j], 0.0));
        b->hi[k][j] = fmin(b->hi[k][j], fmax(hi[j], 0.0));
    }
    vfy_bounds_export(ctx, b, flat);
    return vfy_bound_layers(ctx, VFY_BOUND_CROWN, in_lo, in_hi, flat, b);
}

/* alpha-CROWN for hidden pre-activations: for a ReLU layer k after the first, the network's prefix
 * of layers [0, k) is bounded as a network of its own, with one row per bound (+e_j for the lower
 * and -e_j for the upper bound of unstable neuron j), and vfy_bound_rows_alpha optimises each row's
 * slopes separately. SOUND: every pass of vfy_bound_rows_alpha is a sound backward pass over the
 * prefix with the same (sound) layer bounds, so each result bounds the neuron; we keep the tighter
 * of it and the old bound. */
#define TIGHTEN_CHUNK 256 /* rows per call at most, to bound the scratch memory */
#define TIGHTEN_SPLIT 4       /* chunks at least, for threads to share ... */
#define TIGHTEN_MIN_ROWS 64   /* ... of this many rows at least */
#define TIGHTEN_THREADS_MAX 8
vfy_status vfy_bound_tighten_alpha(const vfy_bound_ctx *ctx, const double *in_lo,
                                   const double *in_hi, vfy_bounds *b, int iters,
                                   const vfy_deadline *dl, int64_t *n_tightened)
{
    return vfy_bound_tighten_alpha_rec(ctx, in_lo, in_hi, b, iters, dl, n_tightened, NULL, NULL);
}

/* One thread's share of a layer's rows in vfy_bound_tighten_alpha_rec: the chunks c = first,
 * first + step, ... of n_chunks, each bounded by vfy_bound_rows_alpha on the prefix (its own
 * bounds object pb); row r's bound goes to out[r]. */
typedef struct tighten_part {
    const vfy_bound_ctx *pc;
    vfy_bounds *pb;
    const double *in_lo, *in_hi;
    const vfy_deadline *dl;
    const int64_t *idx;
    int64_t rows, n_chunks, first, step, n_out;
    int iters;
    double *cy, *out;
    vfy_status st;
    const vfy_bound_ctx *ctx; /* the whole network's, and the slopes to record (or NULL) */
    vfy_bound_slopes *sl;
    int64_t foff_m;           /* flat offset of the layer's neurons */
    double *aflat;            /* the prefix's flat size / 2 (with sl) */
    const vfy_splits *cons;   /* constraints on the prefix's pre-activations, or NULL */
} tighten_part;

/* Whether row r's bound out[r] (+e_j: lower, -e_j: upper, j = idx[r / 2]) beats the current one
 * (NaN, a row not bounded: no). */
static int tighter(const double *out, int64_t r, const int64_t *idx, const double *lo,
                   const double *hi)
{
    int64_t j = idx[r / 2];
    return r % 2 == 0 ? out[r] > lo[j] : -out[r] < hi[j];
}

static void *tighten_run(void *arg)
{
    tighten_part *T = arg;
    T->st = VFY_OK;
    for (int64_t c = T->first; c < T->n_chunks && T->st == VFY_OK; c += T->step) {
        if (T->dl && vfy_deadline_over(T->dl))
            break; /* the rows left keep their NaN: not tightened */
        /* equal chunks, fixed by the row count alone: the result does not depend on the threads */
        int64_t r0 = T->rows * c / T->n_chunks, K = T->rows * (c + 1) / T->n_chunks - r0;
        memset(T->cy, 0, (size_t)(K * T->n_out) * sizeof(double));
        for (int64_t i = 0; i < K; i++) {
            int64_t r = r0 + i;
            T->cy[i * T->n_out + T->idx[r / 2]] = r % 2 ? -1.0 : 1.0;
        }
        T->st = vfy_bound_rows_alpha(T->pc, T->in_lo, T->in_hi, T->pb, K, T->cy, NULL, T->cons,
                                     T->iters, T->out + r0, NULL, NULL);
        for (int64_t i = 0; T->sl && T->st == VFY_OK && i < K; i++)
            slopes_record(T->ctx, T->sl, T->foff_m + T->idx[(r0 + i) / 2], (int)((r0 + i) % 2),
                          T->pc, T->pb, i, T->aflat);
    }
    return NULL;
}

/* The bounds of the prefix context pc (the first pc->net->n_layers layers of b's network) from b:
 * the layer bounds copied and, for each affine layer, its rounding coefficients q derived from its
 * input's bounds (as vfy_bound_layers does). SOUND: every backward pass charges |lam| q_k for the
 * float32 execution allowance and its own products' rounding; bounds copied without them (the
 * scratch's zeros) would charge nothing (test_tighten_alpha_charges_rounding). */
static void prefix_bounds(const vfy_bound_ctx *pc, vfy_bounds *pb, const vfy_bounds *b,
                          const double *in_lo, const double *in_hi)
{
    const vfy_net *pre = pc->net;
    for (int64_t q = 0; q < pre->n_layers; q++) {
        const vfy_layer *L = &pre->layers[q];
        memcpy(pb->lo[q], b->lo[q], (size_t)L->n_out * sizeof(double));
        memcpy(pb->hi[q], b->hi[q], (size_t)L->n_out * sizeof(double));
        if (L->kind == VFY_LAYER_DENSE || L->kind == VFY_LAYER_SCALE)
            affine_prepare(pc, pb, q, layer_in_lo(pb, q, in_lo), layer_in_hi(pb, q, in_hi));
    }
    pb->overflow = b->overflow;
}

static vfy_status tighten_alpha(const vfy_bound_ctx *ctx, const double *in_lo,
                                const double *in_hi, vfy_bounds *b, int iters,
                                const vfy_splits *cons, const vfy_deadline *dl,
                                int64_t *n_tightened, vfy_bound_tighten_rec rec, void *rec_user);

vfy_status vfy_bound_tighten_alpha_rec(const vfy_bound_ctx *ctx, const double *in_lo,
                                       const double *in_hi, vfy_bounds *b, int iters,
                                       const vfy_deadline *dl, int64_t *n_tightened,
                                       vfy_bound_tighten_rec rec, void *rec_user)
{
    return tighten_alpha(ctx, in_lo, in_hi, b, iters, NULL, dl, n_tightened, rec, rec_user);
}

vfy_status vfy_bound_tighten_alpha_cons(const vfy_bound_ctx *ctx, const double *in_lo,
                                        const double *in_hi, vfy_bounds *b, int iters,
                                        const vfy_splits *cons, const vfy_deadline *dl,
                                        int64_t *n_tightened)
{
    return tighten_alpha(ctx, in_lo, in_hi, b, iters, cons, dl, n_tightened, NULL, NULL);
}

/* A layer's rows with constraints (cons): each row is bounded over {x in the box : every
 * constraint holds}, by beta-CROWN's multiplier on each constraint whose pre-activation is in the
 * prefix before the row's layer (those at the row's layer or after are not in its backward pass).
 * SOUND when the constraints hold on the whole box (the caller's contract): that set is then the
 * box, and the bound holds for every x in it. */
static vfy_status tighten_alpha(const vfy_bound_ctx *ctx, const double *in_lo,
                                const double *in_hi, vfy_bounds *b, int iters,
                                const vfy_splits *cons, const vfy_deadline *dl,
                                int64_t *n_tightened, vfy_bound_tighten_rec rec, void *rec_user)
{
    const vfy_net *net = ctx->net;
    *n_tightened = 0;
    if (b->overflow)
        return VFY_OK;
    int64_t n_cons = cons && !rec ? cons->n : 0;
    int64_t *c_idx = n_cons ? vfy_alloc_array((size_t)n_cons, sizeof(int64_t)) : NULL;
    signed char *c_sign = n_cons ? vfy_alloc_array((size_t)n_cons, 1) : NULL;
    double *c_off = n_cons ? vfy_alloc_array((size_t)n_cons, sizeof(double)) : NULL;
    if (n_cons && (!c_idx || !c_sign || !c_off)) {
        vfy_free(c_idx);
        vfy_free(c_sign);
        vfy_free(c_off);
        return VFY_ERR_NOMEM;
    }
    vfy_splits layer_cons = {0, c_idx, c_sign, c_off};
    int64_t half = vfy_bounds_flat_size(ctx) / 2, relu_seen = 0;
    int64_t wmax = vfy_net_max_width(net);
    /* threads share a layer's chunks; a certificate's record (rec) is made chunk by chunk, in order */
    int n_thr = rec ? 1 : (ctx->n_threads < 1 ? 1 : (ctx->n_threads > TIGHTEN_THREADS_MAX
                                                        ? TIGHTEN_THREADS_MAX : ctx->n_threads));
    tighten_part parts[TIGHTEN_THREADS_MAX];
    memset(parts, 0, sizeof parts);
    double *flat = vfy_alloc_array((size_t)(2 * half + 1), sizeof(double));
    double *out = vfy_alloc_array((size_t)(2 * wmax + 1), sizeof(double));
    int64_t *idx = vfy_alloc_array((size_t)(wmax + 1), sizeof(int64_t));
    double *aflat = rec ? vfy_alloc_array((size_t)(half + 1), sizeof(double)) : NULL;
    vfy_status st = VFY_OK;
    int ok = flat && out && idx && (!rec || aflat);
    for (int t = 0; t < n_thr && ok; t++)
        ok = (parts[t].cy = vfy_alloc_array((size_t)(TIGHTEN_CHUNK * wmax), sizeof(double))) != NULL;
    if (!ok) {
        st = VFY_ERR_NOMEM;
        goto done;
    }
    for (int64_t k = 1; k < net->n_layers; k++) {
        const vfy_layer *R = &net->layers[k];
        /* the pre-activations of ReLU layers, and of SIGMOID/TANH layers when their lines are
         * optimised too (not in certificate runs: a `bound` line records ReLU slopes only) */
        int act = act_has_pieces(R->kind) && ctx->act_search &&
                  !rec;
        vfy_layer_kind pk = net->layers[k - 1].kind;
        if ((R->kind != VFY_LAYER_RELU && !act) || vfy_layer_is_act(pk))
            continue;
        if (relu_seen++ == 0)
            continue; /* affine in x: CROWN is already exact there */
        if (dl && vfy_deadline_over(dl))
            break; /* what is done is kept */
        double *lo = b->lo[k - 1], *hi = b->hi[k - 1];
        int64_t n = 0, n_out = net->layers[k - 1].n_out;
        for (int64_t j = 0; j < n_out; j++)
            if (act ? lo[j] < hi[j] : (lo[j] < 0 && hi[j] > 0))
                idx[n++] = j;
        if (n == 0)
            continue;
        /* the constraints on pre-activations of the layers before k - 1 (the prefix's own) */
        layer_cons.n = 0;
        for (int64_t q = 0; q < n_cons; q++) {
            if (vfy_bound_flat_layer(ctx, cons->idx[q]) >= k - 1)
                continue;
            c_idx[layer_cons.n] = cons->idx[q];
            c_sign[layer_cons.n] = cons->sign[q];
            c_off[layer_cons.n++] = cons->offset ? cons->offset[q] : 0.0;
        }
        /* the prefix as a network of its own (a view: it owns nothing) */
        vfy_net pre = *net;
        pre.n_layers = k;
        pre.n_out = n_out;
        vfy_bound_ctx *pc = NULL;
        st = vfy_bound_ctx_create(&pre, ctx->float_semantics, &pc, NULL);
        if (st == VFY_OK) {
            vfy_bound_ctx_set_act_search(pc, ctx->act_search);
            vfy_bound_ctx_set_facets(pc, ctx->facets);
            vfy_bound_ctx_set_facet_memo(pc, ctx->fac_memo);
        }
        /* rows 2j, 2j + 1: +-e_j for unstable neuron idx[j], in equal chunks of at most
         * TIGHTEN_CHUNK, and at least TIGHTEN_SPLIT of at least TIGHTEN_MIN_ROWS when there are
         * enough rows, whatever the threads (the chunking is part of the rounding) */
        int64_t rows = 2 * n, n_chunks = (rows + TIGHTEN_CHUNK - 1) / TIGHTEN_CHUNK;
        int64_t n_split = rows / TIGHTEN_MIN_ROWS < TIGHTEN_SPLIT ? rows / TIGHTEN_MIN_ROWS
                                                                    : TIGHTEN_SPLIT;
        if (n_chunks < n_split)
            n_chunks = n_split;
        int n_use = n_chunks < n_thr ? (int)n_chunks : n_thr;
        for (int t = 0; t < n_use && st == VFY_OK; t++) {
            tighten_part *T = &parts[t];
            double *cy = T->cy;
            double *af = T->aflat; /* (kept from layer to layer) */
            *T = (tighten_part){pc, NULL, in_lo, in_hi, dl, idx, rows, n_chunks, t, n_use, n_out,
                                iters, cy, out, VFY_OK, ctx, act ? NULL : b->slopes,
                                ctx->foff[k - 1], af, layer_cons.n ? &layer_cons : NULL};
            if (T->sl && !T->aflat &&
                !(T->aflat = vfy_alloc_array((size_t)(half + 1), sizeof(double))))
                st = VFY_ERR_NOMEM;
            if (!(T->pb = vfy_bounds_create(pc)))
                st = VFY_ERR_NOMEM;
            else
                prefix_bounds(pc, T->pb, b, in_lo, in_hi);
        }
        for (int64_t r = 0; r < rows; r++)
            out[r] = NAN; /* not bounded (deadline) */
        if (st == VFY_OK && rec) {
            /* one chunk at a time, each recorded before the next overwrites the scratch */
            tighten_part *T = &parts[0];
            T->step = n_chunks;
            int64_t hp = vfy_bounds_flat_size(pc) / 2; /* the prefix's flat layout is the
                                                         * network's, cut after layer k - 1 */
            for (int64_t c = 0; c < n_chunks && st == VFY_OK; c++) {
                T->first = c;
                tighten_run(T);
                st = T->st;
                int64_t r0 = rows * c / n_chunks, r1 = rows * (c + 1) / n_chunks;
                for (int64_t r = r0; r < r1 && st == VFY_OK; r++) {
                    if (!tighter(out, r, idx, lo, hi))
                        continue;
                    vfy_bound_best_params(pc, T->pb, r - r0, aflat, NULL);
                    for (int64_t q = hp; q < half; q++)
                        aflat[q] = NAN;
                    rec(rec_user, ctx->foff[k - 1] + idx[r / 2], r % 2, aflat);
                }
            }
        } else if (st == VFY_OK) {
            pthread_t tid[TIGHTEN_THREADS_MAX];
            int started = 0;
            for (int t = 1; t < n_use; t++) {
                if (pthread_create(&tid[t], NULL, tighten_run, &parts[t]) != 0)
                    break;
                started = t;
            }
            /* a thread that could not start leaves its chunks to this one */
            for (int t = started + 1; t < n_use; t++)
                tighten_run(&parts[t]);
            tighten_run(&parts[0]);
            for (int t = 1; t <= started; t++)
                pthread_join(tid[t], NULL);
            for (int t = 0; t < n_use && st == VFY_OK; t++)
                st = parts[t].st;
        }
        for (int64_t r = 0; r < rows && st == VFY_OK; r++) {
            int64_t j = idx[r / 2];
            int better = tighter(out, r, idx, lo, hi);
            if (r % 2 == 0 && better)
                lo[j] = out[r];
            else if (better)
                hi[j] = -out[r];
            *n_tightened += better;
        }
        for (int t = 0; t < n_use; t++) {
            vfy_bounds_free(parts[t].pb);
            parts[t].pb = NULL;
        }
        vfy_bound_ctx_free(pc);
        if (st != VFY_OK)
            goto done;
        if (act) { /* re-bound every layer on the tightened pre-activations */
            vfy_bounds_export(ctx, b, flat);
            st = vfy_bound_layers(ctx, VFY_BOUND_CROWN, in_lo, in_hi, flat, b);
        } else {
            st = vfy_bound_refresh(ctx, in_lo, in_hi, b, k, flat);
        }
        if (st != VFY_OK)
            goto done;
    }
done:
    vfy_free(flat);
    vfy_free(out);
    vfy_free(idx);
    vfy_free(aflat);
    vfy_free(c_idx);
    vfy_free(c_sign);
    vfy_free(c_off);
    for (int t = 0; t < TIGHTEN_THREADS_MAX; t++) {
        vfy_free(parts[t].cy);
        vfy_free(parts[t].aflat);
    }
    return st;
}
