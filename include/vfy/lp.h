/* lp: linear programs over a network's triangle relaxation, solved by GLPK, with safe bounds.
 *
 * Over an input box and sound layer bounds (vfy_bound_layers, with any activation splits already
 * clamped into them) the relaxation has one column per input, per affine output (but those that
 * feed an inactive ReLU) and per unstable ReLU output, every column boxed by its layer bounds, and
 * the rows
 *     affine:  z_j - sum_k W_jk v_k  in  [b_j - p_j, b_j + p_j]   (p_j: the layer's perturbation, as in
 *              bound.c: float32 execution and weight representation error; 0 for the exact real net)
 *     ReLU:    y >= 0 (column bound), y >= z, y <= s z + t        (the triangle; vfy_bound_relu_upper)
 * stable ReLUs are the identity (y = z) or zero. Optional multi-neuron rows couple pairs of unstable
 * neurons of one layer (vfy_lp_add_pair_cuts); optional single-neuron ideal cuts, with a phase
 * column each, cut a ReLU down to its hull over its inputs' box (vfy_lp_bound_rows_cuts). Every
 * real input of the box, and every float32 execution when the context charges it, gives a
 * feasible point, so min over the relaxation is a lower bound of min over the network.
 *
 * Safe bounds: GLPK's objective value is never used as a bound. For any row multipliers y (GLPK's
 * duals, optimal or not) weak duality gives, for every feasible point,
 *     c·x = (c - A^T y)·x + y·(A x) >= sum_j min_{x_j in [l_j,u_j]} d_j x_j + sum_i min_{r in [rl_i,ru_i]} y_i r
 * with d = c - A^T y. We recompute d in double with an a-priori error term (la.h), take each minimum
 * at an end point with directed rounding, and zero any multiplier whose row side is infinite. That
 * number, not GLPK's, is the bound; see docs/soundness.md.
 *
 * One vfy_lp belongs to one thread (GLPK keeps a per-thread environment); create, solve and free it
 * on the same thread, and call vfy_lp_thread_done() when a thread is finished with GLPK. */
#ifndef VFY_LP_H
#define VFY_LP_H

#include "vfy/bound.h"

typedef struct vfy_lp vfy_lp;

/* 1 for the layer kinds this LP relaxes: DENSE, SCALE and RELU; a network with any other layer is
 * refused by the builders below. */
int vfy_lp_relaxes(vfy_layer_kind kind);

/* Build the relaxation of the whole network over [in_lo, in_hi] with the layer bounds in b (valid
 * over that box). Fails with VFY_ERR_INVALID when a bound is not finite (no LP is then possible), and
 * with VFY_ERR_UNSUPPORTED when the network (for the prefix and compact forms: the part built) has a
 * layer this LP does not relax (vfy_lp_relaxes). */
vfy_status vfy_lp_build(const vfy_bound_ctx *ctx, const double *in_lo, const double *in_hi,
                        const vfy_bounds *b, vfy_lp **out, vfy_error *err);
/* The relaxation of the first n_layers layers only (a prefix, for bounding hidden neurons). Only
 * vfy_lp_bound_neuron (for layers < n_layers) applies to it. */
vfy_status vfy_lp_build_prefix(const vfy_bound_ctx *ctx, const double *in_lo, const double *in_hi,
                               const vfy_bounds *b, int64_t n_layers, vfy_lp **out, vfy_error *err);

/* The same relaxation with fewer columns, for a box where few ReLUs are unstable: the stable
 * layers are composed into affine forms over the inputs and the unstable ReLUs' outputs (with an
 * error radius for rounding and perturbation, see lp.c), so the LP has columns only for the inputs,
 * the unstable ReLUs (z and y) and the outputs. Fails (VFY_ERR_INVALID) when more than
 * max_unstable ReLUs are unstable. vfy_lp_bound_neuron is not available on it. */
/* Multiply-adds of the forms' products when vfy_lp_build_compact runs on net with up to
 * max_unstable unstable ReLUs: sum over affine layers of their coefficients (nonzeros when
 * sparse) times (n_in0 + 2 max_unstable). */
double vfy_lp_compact_cost(const vfy_net *net, int64_t max_unstable);
/* sign_rows: each stable ReLU's sign is also a row on its form where the inputs' and unstable
 * outputs' box does not imply it: needed where b holds ReLU splits (clamped into it), for which a
 * form alone would forget the split. */
vfy_status vfy_lp_build_compact(const vfy_bound_ctx *ctx, const double *in_lo, const double *in_hi,
                                const vfy_bounds *b, int64_t max_unstable, int sign_rows,
                                vfy_lp **out, vfy_error *err);
void vfy_lp_free(vfy_lp *lp);
/* Free GLPK's environment of the calling thread (every vfy_lp of the thread must be freed first). */
void vfy_lp_thread_done(void);

/* GLPK aborts the process on an internal error; here its solver runs with the error caught
 * (lp.c, guarded): every vfy_lp of the thread is rebuilt from verify's own copy of it, and the
 * failed solve yields no multipliers (a weaker bound, still safe). vfy_lp_glpk_errors() counts
 * such errors (all threads); vfy_lp_fail_after(n) makes the (n+1)-th guarded GLPK call from now
 * fail so (test mode, as vfy_alloc_fail_after; -1 disables). */
long vfy_lp_glpk_errors(void);
void vfy_lp_fail_after(long n);

/* Bound every solve of lp by this deadline (NULL: none). GLPK's time limit follows it; a solve cut
 * short still yields a safe (if weaker) bound. */
void vfy_lp_set_deadline(vfy_lp *lp, const vfy_deadline *dl);

/* Statistics of the relaxation: columns, rows, nonzeros, solves so far, simplex iterations. */
typedef struct vfy_lp_stats {
    int64_t cols, rows, nnz, solves, iterations, cuts;
} vfy_lp_stats;
void vfy_lp_stats_get(const vfy_lp *lp, vfy_lp_stats *st);

/* Safe lower bounds of K linear functions cy[i]·y + cx[i]·x (cy: K x n_out, cx: K x n_in or NULL).
 * lp_value (K, may be NULL) receives GLPK's own objective values, for comparison only. */
vfy_status vfy_lp_bound_rows(vfy_lp *lp, int64_t K, const double *cy, const double *cx, double *lb,
                             double *lp_value);

/* A conjunction: a safe lower bound of  min over the relaxation of  max_i (row_i - rhs[i]),  rows as
 * in vfy_lp_bound_rows (m of them). A positive value proves that no point of the box satisfies
 * every row_i <= rhs[i]. x_opt (n_in, may be NULL) receives the input part of GLPK's optimum, a
 * candidate counterexample (clamped to the box; unchecked). */
vfy_status vfy_lp_bound_case(vfy_lp *lp, int64_t m, const double *cy, const double *cx,
                             const double *rhs, double *lb, double *x_opt);

/* The same in steps, to solve one conjunction under several ReLU phases (vfy_lp_fix_relu) with
 * warm starts: begin adds its rows, solve bounds it (as vfy_lp_bound_case), end retires them. */
vfy_status vfy_lp_case_begin(vfy_lp *lp, int64_t m, const double *cy, const double *cx,
                             const double *rhs);
vfy_status vfy_lp_case_solve(vfy_lp *lp, double *lb, double *x_opt);
/* vfy_lp_case_solve with up to `rounds` rounds of single-neuron ideal cuts (as
 * vfy_lp_bound_rows_cuts), made while no phase is fixed; the cuts stay for later cases. */
vfy_status vfy_lp_case_solve_cuts(vfy_lp *lp, int rounds, double *lb, double *x_opt);
void vfy_lp_case_end(vfy_lp *lp);

/* Fix the phase of unstable ReLU j of layer k (a RELU layer): sign +1 active (z >= 0, y = z), -1
 * inactive (z <= 0, y = 0), 0 back to the relaxation. VFY_ERR_INVALID when the neuron is not an
 * unstable ReLU of this relaxation or the phase is impossible within its bounds. */
vfy_status vfy_lp_fix_relu(vfy_lp *lp, int64_t k, int64_t j, int sign);

/* The unstable ReLUs of the relaxation (their layer and index, the first max of them), and for
 * each how far GLPK's last solution is from the real ReLU (|y - relu(z)|, viol may be NULL).
 * Returns how many there are in all. */
int64_t vfy_lp_unstable(const vfy_lp *lp, int64_t max, int64_t *layer, int64_t *index, double *viol);

/* Safe bounds of neuron j of layer k's output v_{k+1} (k an affine layer). The result is
 * intersected with nothing: the caller keeps the tighter of this and its own bounds. */
vfy_status vfy_lp_bound_neuron(vfy_lp *lp, int64_t k, int64_t j, double *lo, double *hi);

/* Multi-neuron constraints: for up to max_pairs pairs (i, j) of unstable ReLUs of one layer, the
 * octagon bounds of z_i + z_j and z_i - z_j are computed by this LP (safe bounds), and the upper
 * facets of the convex hull of relu(z_i) + relu(z_j) over that octagon are added as rows. The
 * triangles' sum is that hull over the bounding box only, so the cuts are tighter wherever the
 * octagon cuts corners off the box. Pairs are taken among the best-scored unstable neurons: weight
 * (flat layout of vfy_bounds_export, indexed by the pre-activation; may be NULL: the triangle's
 * area -l u / (u - l)). *n_added receives the number of rows added. */
vfy_status vfy_lp_add_pair_cuts(vfy_lp *lp, const double *weight, int64_t max_pairs,
                                 int64_t *n_added);

/* vfy_lp_bound_rows with single-neuron ideal cuts (lp.c): after each solve, every unstable ReLU
 * of at most VFY_LP_CUT_MAX_FANIN inputs whose convex hull over its inputs' box the optimum
 * violates gets the most violated cut (and a phase column), for up to `rounds` rounds of cuts per
 * row. The cuts stay in the relaxation. A cut has a coefficient per input: on mnist_fc 256x2
 * (784 and 256 inputs a neuron) 20 rounds on 9 rows took 806 s (the triangle LP 0.11 s), on
 * verivital's 2x2 convolution (4 inputs) about 2 s a row. */
#define VFY_LP_CUT_MAX_FANIN 64
/* The unstable ReLUs of lp that ideal cuts may be given (at most VFY_LP_CUT_MAX_FANIN inputs). */
int64_t vfy_lp_cut_candidates(const vfy_lp *lp);
vfy_status vfy_lp_bound_rows_cuts(vfy_lp *lp, int64_t K, const double *cy, const double *cx,
                                  int rounds, double *lb);

/* Tighten the hidden layers' bounds in b (valid over [in_lo, in_hi]) by LP: for each ReLU layer
 * after the first, the pre-activations of up to max_per_layer unstable neurons (the loosest
 * triangles first) are bounded by the triangle LP of the prefix network, and every later layer is
 * then re-bounded by CROWN on top of them (intersected, so nothing loosens). *n_tightened counts the
 * neurons that improved. Each layer gets an equal share of the time to the deadline (dl may be
 * NULL: no limit); what is done by then is kept. */
vfy_status vfy_lp_tighten_layers(const vfy_bound_ctx *ctx, const double *in_lo, const double *in_hi,
                                 vfy_bounds *b, int64_t max_per_layer, const vfy_deadline *dl,
                                 int64_t *n_tightened);

#endif
