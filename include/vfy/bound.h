/* bound: sound bounds on a vfy_net over an input box: IBP and CROWN.
 *
 * Every bound here holds for (a) the real-valued network (the stored doubles, with each layer's
 * w_relerr charged) and, when ctx->float_semantics is set, (b) every floating-point execution of
 * it in float32 or float64 in any summation order, on any input whose float32 rounding lies in the
 * box (see vfy_bound_widen_input). Our own round-to-nearest arithmetic is charged as an a-priori error
 * term per layer (la.h); final concretisation uses directed rounding. No epsilon decides anything.
 *
 * Notation: v_0 = x, v_{k+1} = layer_k(v_k). vfy_bounds holds [lo[k], hi[k]] ⊇ every reachable v_{k+1}.
 * Maths of each relaxation is above its code in src/bound.c; docs/soundness.md has the argument. */
#ifndef VFY_BOUND_H
#define VFY_BOUND_H

#include "vfy/net.h"

typedef struct vfy_bound_ctx vfy_bound_ctx;

typedef enum vfy_bound_method {
    VFY_BOUND_IBP,    /* interval bound propagation */
    VFY_BOUND_CROWN,  /* backward linear bounds; intermediate pre-activations bounded by CROWN too */
    VFY_BOUND_ALPHA,  /* CROWN, then the output rows' ReLU slopes optimised (alpha-CROWN) */
    VFY_BOUND_AUTO,   /* for the search to choose (CROWN layer bounds here) */
} vfy_bound_method;

/* Create a context for net (borrowed; must outlive the context). float_semantics: charge the
 * allowance for the network's own float32 execution (recommended; off only to measure its cost). */
vfy_status vfy_bound_ctx_create(const vfy_net *net, int float_semantics, vfy_bound_ctx **out,
                                vfy_error *err);
void vfy_bound_ctx_free(vfy_bound_ctx *ctx);
/* |W| of DENSE layer k (n_out x n_in), kept by the context; NULL for other layers. */
const double *vfy_bound_ctx_absw(const vfy_bound_ctx *ctx, int64_t k);
/* The network and the float_semantics flag the context was created with. */
const vfy_net *vfy_bound_ctx_net(const vfy_bound_ctx *ctx);
int vfy_bound_ctx_float_semantics(const vfy_bound_ctx *ctx);
/* Whether the search may work on SIGMOID/TANH neurons as on ReLUs (default 1): their lines are
 * optimised by vfy_bound_rows_alpha and vfy_bound_tighten_alpha, and their pre-activations score
 * in vfy_bound_relu_scores (split at vfy_bound_split_point). Off where only ReLU work is recorded
 * (certificates, whose splits are all at 0). */
void vfy_bound_ctx_set_act_search(vfy_bound_ctx *ctx, int on);
/* Threads vfy_bound_tighten_alpha may run (default 1; the result does not depend on them). The
 * caller keeps BLAS single-threaded then. */
void vfy_bound_ctx_set_threads(vfy_bound_ctx *ctx, int n);
/* Float32 products (default on): CROWN's passes for the hidden layers' bounds and the branching
 * look-ahead form their products with float32 copies of the DENSE weights that are exactly float32
 * (sgemm), each charged its rounding error a priori (bound.c, f32_charge), so every bound stays
 * sound and the hidden ones are looser by that charge; the optimised output rows stay in double.
 * Off: every product in double (the tests that compare two paths bit for bit, or with a reference
 * implementation). */
void vfy_bound_ctx_set_f32(vfy_bound_ctx *ctx, int on);
/* Ideal upper facets (default off): in the alpha passes (vfy_bound_rows_alpha and its batch, and
 * so vfy_bound_tighten_alpha's, whose prefix contexts take the setting), each unstable ReLU whose
 * input is a DENSE layer of at most 1024 inputs a neuron (bound.c, facet_layers) may take, for a
 * row that bounds it from above, a mix of its triangle's upper line and a facet of its hull over
 * the box of the layer's inputs (Anderson et al. 2020), the mix optimised with the slopes. Every
 * pass stays sound; a step costs more, and the bounds are mostly tighter (not always: the mixes
 * change the slopes' ascent). A certificate cannot record the facets: its runs leave them off. No
 * effect on a network without such a layer. */
void vfy_bound_ctx_set_facets(vfy_bound_ctx *ctx, int on);
int vfy_bound_ctx_facets(const vfy_bound_ctx *ctx); /* whether they are on */
/* Whether the facets' passes memoise, between two selections of a row's facets, what they derive
 * from them (default on; bound.c, fac_memo). The bounds are the same bit for bit either way: off
 * is for the test that says so. */
void vfy_bound_ctx_set_facet_memo(vfy_bound_ctx *ctx, int on);
/* A deadline (NULL, the default: none; borrowed) past which vfy_bound_layers and vfy_bound_rows
 * leave out their CROWN passes: their bounds are then IBP's, sound and looser, so that a pass over
 * a network too large for the time left ends at once (a VGG-16 on 64 x 64 images, 3.6e8
 * nonzeros: the root's CROWN ran for minutes past a deadline of 20 s). Layers whose CROWN pass
 * was done keep it; a layer's pass stops between two chunks of its neurons, and a pass begun
 * between two layers, its rows then bounded by -inf. vfy_bound_rows_alpha's ascent ends after the
 * pass it is in (each row keeps the best bound of the passes it took). */
void vfy_bound_ctx_set_deadline(vfy_bound_ctx *ctx, const vfy_deadline *dl);

/* ReLU's upper line over [l, u] with l < 0 < u: relu(z) <= s z + t for every real z in [l, u], with
 * s = u/(u - l) as computed and t rounded up so that the line is sound for that s. */
void vfy_bound_relu_upper(double l, double u, double *s, double *t);

/* alpha-CROWN's plane of a product a b (a^2 when square) on [la, ua] x [lb, ub]: the mix theta
 * in [0, 1] of McCormick's two planes below a b (upper 0) or above it (upper 1), the chord above
 * a square, the tangent at la + theta (ua - la) below it:  sa a + sb b + t  <= a b  (>= when
 * upper) for every real (a, b) in the box, for sa and sb as computed (t certified for them). */
void vfy_bound_product_plane(double la, double ua, double lb, double ub, int square, int upper,
                             double theta, double *sa, double *sb, double *t);

/* Per-layer bounds; also per-thread scratch. Allocate one per worker. */
typedef struct vfy_bounds {
    int64_t n_layers;
    double **lo, **hi;   /* lo[k], hi[k]: bounds of v_{k+1}, length layers[k].n_out */
    int overflow;        /* set when a value may exceed the float32 range: no proof is then claimed */
    struct vfy_bound_scratch *scratch;
    struct vfy_bound_slopes *slopes; /* borrowed, or NULL (vfy_bounds_use_slopes) */
} vfy_bounds;

vfy_bounds *vfy_bounds_create(const vfy_bound_ctx *ctx);
void vfy_bounds_free(vfy_bounds *b);

/* Hidden-bound slopes kept for a search's domains. For every pre-activation of a ReLU layer after
 * the first that is unstable in the bounds it is created from (a root's), one row for its lower and
 * one for its upper bound: the ReLU lower slopes of the alpha-CROWN pass that gave that bound
 * (recorded by vfy_bound_tighten_alpha on bounds using them; NaN: none yet). The CROWN re-bounding
 * of hidden layers (vfy_bound_layers and _from) on bounds using them starts each row from its
 * slopes instead of CROWN's defaults: a domain inside the root re-bounds a layer after a split with
 * the root's optimised slopes, so the split's effect is not lost to the intersection with the
 * root's alpha-CROWN bounds. SOUND: any slope in [0, 1] is a valid lower line of an unstable ReLU
 * on any interval, so every pass stays sound whatever the slopes (others are replaced by the
 * default). NULL when out of memory, past max_bytes, or on a net of more than 2,048 ReLUs (where
 * recording and reading them cost more than they gained). */
typedef struct vfy_bound_slopes vfy_bound_slopes;
vfy_bound_slopes *vfy_bound_slopes_create(const vfy_bound_ctx *ctx, const vfy_bounds *root,
                                          size_t max_bytes);
void vfy_bound_slopes_free(vfy_bound_slopes *sl);
/* Rows that hold slopes (recorded at least once). */
int64_t vfy_bound_slopes_recorded(const vfy_bound_slopes *sl);
/* b uses sl (borrowed; NULL: none): tightening records into it, CROWN reads from it. Several bounds
 * may share one; recording (vfy_bound_tighten_alpha) must not run while others read. */
void vfy_bounds_use_slopes(vfy_bounds *b, vfy_bound_slopes *sl);

/* Widen a box outward by the float32 rounding of inputs (relative 2^-24, outward), so that for every
 * real x in [lo,hi] both x and fl32(x) lie in the result. No-op when float_semantics is off. */
void vfy_bound_widen_input(const vfy_bound_ctx *ctx, int64_t n, double *lo, double *hi);

/* The CROWN refinement of a layer runs its backward passes on at most vfy_bound_chunk_rows rows
 * at a time, so that a vfy_bounds' scratch stays at about 24 width (rows + 8) bytes for any
 * layer width (it grows only for a caller's larger row counts): VFY_BOUND_CHUNK_ROWS, fewer (down
 * to VFY_BOUND_CHUNK_ROWS_MIN) where that scratch would pass VFY_BOUND_CHUNK_BYTES. */
#define VFY_BOUND_CHUNK_ROWS 256
#define VFY_BOUND_CHUNK_ROWS_MIN 16
#define VFY_BOUND_CHUNK_BYTES 134217728.0
int64_t vfy_bound_chunk_rows(const vfy_net *net);

/* Fill b with bounds of every layer over x in [in_lo, in_hi] by the given method. prior (or NULL) is
 * a flat copy (vfy_bounds_export) of bounds valid over a box containing this one, e.g. the parent
 * domain's: each layer is intersected with it as soon as it is computed, so neurons stable there
 * stay stable here at no cost. */
vfy_status vfy_bound_layers(const vfy_bound_ctx *ctx, vfy_bound_method method, const double *in_lo,
                            const double *in_hi, const double *prior, vfy_bounds *b);

/* As vfy_bound_layers, but the affine layers before k_from take prior's bounds as they are (their
 * rounding coefficients are still derived here): for a domain that differs from the one prior was
 * computed on only by an activation split whose pre-activation is the output of layer k_from - 1
 * (clamped in prior), recomputing those layers would give prior's bounds again. k_from = 0, or
 * prior NULL: every layer is computed. */
vfy_status vfy_bound_layers_from(const vfy_bound_ctx *ctx, vfy_bound_method method,
                                 const double *in_lo, const double *in_hi, const double *prior,
                                 int64_t k_from, vfy_bounds *b);

/* Number of doubles in a flat copy of all layers' bounds (lo of every layer, then hi). */
int64_t vfy_bounds_flat_size(const vfy_bound_ctx *ctx);
/* The ReLU index (the order of the slopes in vfy_bound_alpha_warm's layout) of the ReLU that flat
 * entry idx (of the lower half) feeds, or -1 when that entry feeds no ReLU. */
int64_t vfy_bound_relu_index(const vfy_bound_ctx *ctx, int64_t idx);
void vfy_bounds_export(const vfy_bound_ctx *ctx, const vfy_bounds *b, double *flat);
/* The layer whose output holds entry idx (< half the flat size) of that layout. */
int64_t vfy_bound_flat_layer(const vfy_bound_ctx *ctx, int64_t idx);

/* Lower bounds of K linear functions  cy[i]·y + cx[i]·x  (cy: K x n_out, cx: K x n_in or NULL) over
 * the box, by CROWN's backward pass on the layer bounds in b (from vfy_bound_layers), or by IBP when
 * method is VFY_BOUND_IBP. lb[i] is a sound lower bound (-INFINITY when nothing can be said).
 * If lam_in is non-NULL (K x n_in) it receives the final input coefficients (for branching scores
 * and for the attack: the box vertex minimising row i's linear bound), and c_in (K, may be NULL; only with lam_in) the
 * constants, so that row_i(x) >= lam_in[i]·x + c_in[i] holds soundly for every x in the box. */
vfy_status vfy_bound_rows(const vfy_bound_ctx *ctx, vfy_bound_method method, const double *in_lo,
                          const double *in_hi, vfy_bounds *b, int64_t K, const double *cy,
                          const double *cx, double *lb, double *lam_in, double *c_in);

/* Activation splits of a domain: the inputs where sign[q] * z >= 0 for the pre-activation at flat
 * index idx[q] (vfy_bounds_export's layout), q < n. The layer bounds of such a domain must already
 * be clamped accordingly (e.g. through the prior of vfy_bound_layers). With offset (finite values),
 * constraint q is sign[q] * (z - offset[q]) >= 0 instead: a bound on z known to hold on the whole
 * domain, which vfy_bound_rows_alpha prices by a multiplier as it does a split (a bound already in
 * the layer bounds still constrains the relaxation of the layers before z). */
typedef struct vfy_splits {
    int64_t n;
    const int64_t *idx;
    const signed char *sign; /* +1: z >= 0 (z >= offset), -1: z <= 0 (z <= offset) */
    const double *offset;    /* NULL: every offset 0 */
} vfy_splits;

/* As vfy_bound_rows with CROWN, then `iters` steps of alpha-CROWN on the rows (and beta-CROWN when
 * splits is non-NULL: one multiplier per row and split, optimised jointly with the slopes): the lower slopes of the
 * unstable ReLUs (one set per row) are optimised by projected gradient ascent (Adam) on each row's
 * bound, and every row keeps the best bound of any pass (each pass is a sound backward pass for its
 * slopes). Intermediate bounds in b are not changed. */
vfy_status vfy_bound_rows_alpha(const vfy_bound_ctx *ctx, const double *in_lo, const double *in_hi,
                                vfy_bounds *b, int64_t K, const double *cy, const double *cx,
                                const vfy_splits *splits, int iters, double *lb, double *lam_in,
                                double *c_in);

/* One domain's rows for vfy_bound_rows_alpha_batch: the arguments of vfy_bound_rows_alpha, with
 * its warm start (vfy_bound_alpha_warm's; warm may be NULL) and its outputs. */
typedef struct vfy_alpha_job {
    vfy_bounds *b;                 /* the domain's layer bounds (vfy_bound_layers) */
    const double *in_lo, *in_hi;   /* its box */
    int64_t K;
    const double *cy, *cx;         /* K x n_out; K x n_in or NULL */
    const vfy_splits *splits;      /* or NULL */
    const float *warm;             /* or NULL */
    int64_t warm_K, warm_nsp;
    double *lb, *lam_in, *c_in;    /* K; K x n_in or NULL; K or NULL */
    /* a compact warm start: each row holds the slopes of the warm_n ReLUs warm_idx (increasing
     * ReLU indices, vfy_bound_relu_index), then the warm_nsp multipliers; NULL: the full layout */
    const int64_t *warm_idx;
    int64_t warm_n;
    /* early stop (NULL: none): the rows stop_case[i] == c form a conjunction, refuted once one of
     * them has lb[i] > stop_lb[i]; then its rows leave the ascent (keeping the best bounds and
     * parameters of the passes they took) and the rows left are packed into fewer, so the
     * products shrink. stop_case NULL: each row alone. */
    const double *stop_lb;
    const int64_t *stop_case;
    /* or NULL: once it is over, the ascent of the whole call ends after its current pass (every
     * row keeps the best bound of the passes it took, each sound): a batch of a deep net's
     * domains takes about a second, which the search's deadline would otherwise overrun */
    const vfy_deadline *dl;
} vfy_alpha_job;

/* vfy_bound_rows_alpha for n domains at once: every job gets exactly the bounds it would get
 * alone (each row's passes are its own), but the rows of all jobs go through each affine layer as
 * one matrix product, which is what makes small jobs fast. The rows live in work's scratch (work
 * may be a job's bounds only when n = 1); vfy_bound_best_warm/params on work then take row i of
 * the jobs' rows in order. */
vfy_status vfy_bound_rows_alpha_batch(const vfy_bound_ctx *ctx, vfy_bounds *work, int64_t n,
                                      const vfy_alpha_job *jobs, int iters);

/* After vfy_bound_rows_alpha on b: the slopes and split multipliers of the pass that gave row i
 * its bound (the pass is sound for any such parameters, so a checker given them re-derives the
 * bound; docs/certificate.md). alpha_flat (vfy_bounds_flat_size / 2 entries, the flat layout of
 * vfy_bounds_export) receives the lower slope of every pre-activation that is unstable in b, NaN
 * elsewhere; beta (may be NULL) one multiplier per split, in the splits' order. Returns 0 (all
 * NaN) when the call did no optimisation (then the bound is CROWN's, with its default slopes). */
int vfy_bound_best_params(const vfy_bound_ctx *ctx, const vfy_bounds *b, int64_t i,
                          double *alpha_flat, double *beta);

/* Warm start of the next vfy_bound_rows_alpha on b (one call only; warm is borrowed until then):
 * for each of its K rows, n_relu slopes (every ReLU neuron in network order; out of [0, 1], e.g.
 * NaN: CROWN's default) then n_sp multipliers for its first n_sp splits (the others start at 0).
 * Ignored when that call has a different K or fewer splits. The bound stays sound whatever the
 * values: they only move the ascent's starting point. */
void vfy_bound_alpha_warm(vfy_bounds *b, int64_t K, const float *warm, int64_t n_sp);
/* After vfy_bound_rows_alpha: row i's best slopes and multipliers in vfy_bound_alpha_warm's layout
 * (n_relu + the call's splits floats). Returns 0 when the call did no optimisation. */
int vfy_bound_best_warm(const vfy_bound_ctx *ctx, const vfy_bounds *b, int64_t i, float *out);
/* After vfy_bound_rows_alpha on b (iterations >= 2): for each of its K rows, the relaxed network's
 * value at the primal point of the ascent's last gradient step (val: the rows' terms plus the
 * splits' Lagrangian terms) and that step's bound (lb). The bound is that value (up to rounding
 * and the rounding charges) exactly when the gradient's forward pass follows each layer's
 * relaxation. Returns 0 when no step was taken. Exposed for tests. */
int vfy_bound_primal_last(const vfy_bounds *b, int64_t K, double *val, double *lb);
/* ReLU neurons of the network in all. */
int64_t vfy_bound_ctx_n_relu(const vfy_bound_ctx *ctx);

/* Where activation splitting cuts a pre-activation whose bounds are [l, u]: at 0 when the interval
 * straddles 0 (a ReLU's only split, and a SIGMOID/TANH's inflection point, past which each child's
 * function is convex or concave), else at the midpoint (only a SIGMOID/TANH neuron is split so: a
 * neuron on one side of 0 still has a gap between its lines, which halving its interval shrinks,
 * as GenBaB splits general nonlinearities). NaN when [l, u] is too narrow or not finite: no
 * split. */
double vfy_bound_split_point(double l, double u);

/* Branching scores for activation splitting: for every neuron of the flat layout (vfy_bounds_export)
 * that is an unstable pre-activation in b (of a ReLU; of a SIGMOID/TANH too when the search may work
 * on them: any whose interval vfy_bound_split_point can split) and is the output of a layer that is
 * not an activation (whose bounds a domain's prior, clamped by a split, gives), a positive score
 * estimating what splitting it gains for the K rows (BaBSR-style: |coefficient| x the relaxation's
 * height); 0 for every other entry. iscore (may be
 * NULL) gets the same for a ReLU with only the coefficients below 0, the rows that take its upper
 * line, whose intercept a split removes (alpha-beta-CROWN's intercept score; a row that takes the
 * lower line gains from the split only through the region it cuts). Each has
 * vfy_bounds_flat_size(ctx) / 2 entries. */
vfy_status vfy_bound_relu_scores(const vfy_bound_ctx *ctx, const double *in_lo, const double *in_hi,
                                 vfy_bounds *b, int64_t K, const double *cy, const double *cx,
                                 double *score, double *iscore);

/* Branching look-ahead: CROWN's lower bounds of the K rows (as vfy_bound_rows) in the two children
 * of splitting each of the n unstable pre-activations at flat indices idx[0..n): for candidate c,
 * z <= p into lb_neg[c K .. c K + K) and z >= p into lb_pos[...] (p: vfy_bound_split_point of its
 * bounds in b; 0 for a ReLU), in one backward pass. Only that neuron is decided (later layers are
 * not re-bounded), so each value is a sound but loose bound of its child: an estimate for choosing
 * what to split. */
vfy_status vfy_bound_split_lb(const vfy_bound_ctx *ctx, const double *in_lo, const double *in_hi,
                              vfy_bounds *b, int64_t K, const double *cy, const double *cx,
                              int64_t n, const int64_t *idx, double *lb_neg, double *lb_pos);
/* As vfy_bound_split_lb, each row i starting from the slopes and split multipliers that gave row
 * prow[i] of the last vfy_bound_rows_alpha(_batch) on params its bound (that call must have been on
 * b's domain, with its splits; prow[i] < 0 or a row without parameters: CROWN's default slopes).
 * Any such parameters are sound on the children: the look-ahead is then about as tight as the
 * parent's optimised bound, a better guide for the choice. params NULL: vfy_bound_split_lb. */
vfy_status vfy_bound_split_lb_params(const vfy_bound_ctx *ctx, const double *in_lo,
                                     const double *in_hi, vfy_bounds *b, int64_t K,
                                     const double *cy, const double *cx, int64_t n,
                                     const int64_t *idx, const vfy_bounds *params,
                                     const int64_t *prow, double *lb_neg, double *lb_pos);

/* The relaxation of a SIGMOID, TANH, SIGN, EXP or RECIP neuron whose input lies in [l, u]: for
 * every real z in [l, u],  sl z + tl <= f(z) <= su z + tu  for the real function f (CROWN's
 * tangent/chord lines with intercepts certified in directed arithmetic; constants f(l), f(u) when
 * [l, u] is tiny, infinite or NaN; SIGN's, EXP's and RECIP's: sign_lines, conv_lines in bound.c).
 * A float execution's value can differ from the real one by the allowance of docs/soundness.md,
 * which the callers charge separately (a Sign's and EXP's: none). Exposed for tests. */
void vfy_bound_act_lines(vfy_layer_kind kind, double l, double u, double *sl, double *tl, double *su,
                         double *tu);
/* The intercept alpha-CROWN certifies for a line of any finite slope a over a SIGMOID or TANH neuron
 * with l < z < u (finite): upper: f(z) <= a z + t, else f(z) >= a z + t, for every real z in [l, u];
 * +-inf when nothing finite results. Exposed for tests. */
double vfy_bound_act_line(vfy_layer_kind kind, double l, double u, double a, int upper);

/* After the pre-activations of ReLU layer k (layer k-1's output bounds in b) were tightened: clamp
 * the ReLU's own bounds to them and re-bound every layer by CROWN, intersected with b (nothing
 * loosens). flat: scratch of vfy_bounds_flat_size(ctx) doubles. */
vfy_status vfy_bound_refresh(const vfy_bound_ctx *ctx, const double *in_lo, const double *in_hi,
                             vfy_bounds *b, int64_t k, double *flat);

/* alpha-CROWN on the hidden layers: for each ReLU layer after the first, the lower and upper bound
 * of every unstable pre-activation is optimised by vfy_bound_rows_alpha (iters steps) on the
 * network's prefix, the tighter of old and new is kept, and every later layer is re-bounded by
 * CROWN on top. *n_tightened counts the bounds that improved. Stops at the deadline (dl may be
 * NULL), keeping what it has done. A layer's rows are shared by the context's threads. */
vfy_status vfy_bound_tighten_alpha(const vfy_bound_ctx *ctx, const double *in_lo,
                                   const double *in_hi, vfy_bounds *b, int iters,
                                   const vfy_deadline *dl, int64_t *n_tightened);

/* As vfy_bound_tighten_alpha; every bound it tightens is reported to rec (if not NULL): the
 * pre-activation at flat index idx, its lower (upper = 0) or upper (upper = 1) bound, and the slopes
 * of the pass that proved it (alpha_flat as in vfy_bound_best_params, over the layers before idx's).
 * The bound itself is the back-substitution of +-e_idx through the layers before it with those
 * slopes and the layer bounds of b at that moment. */
/* As vfy_bound_tighten_alpha, each bound over the box under constraints that hold on the whole
 * box (the caller's proof, e.g. neurons proved stable): each constraint on a pre-activation before
 * a row's layer gets beta-CROWN's multiplier in that row's passes, so the bounds can be tighter
 * than without (the relaxation of the layers before a constrained neuron admits points where the
 * constraint fails; the multiplier prices them). cons NULL: vfy_bound_tighten_alpha. */
vfy_status vfy_bound_tighten_alpha_cons(const vfy_bound_ctx *ctx, const double *in_lo,
                                        const double *in_hi, vfy_bounds *b, int iters,
                                        const vfy_splits *cons, const vfy_deadline *dl,
                                        int64_t *n_tightened);

typedef void (*vfy_bound_tighten_rec)(void *user, int64_t idx, int upper, const double *alpha_flat);
vfy_status vfy_bound_tighten_alpha_rec(const vfy_bound_ctx *ctx, const double *in_lo,
                                       const double *in_hi, vfy_bounds *b, int iters,
                                       const vfy_deadline *dl, int64_t *n_tightened,
                                       vfy_bound_tighten_rec rec, void *rec_user);

#endif
