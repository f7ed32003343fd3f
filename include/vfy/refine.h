/* refine: hidden bounds past what any single relaxation gives, by searches on the network's
 * prefixes.
 *
 * With ReLU splitting every domain inherits its root's hidden bounds, and an unstable ReLU at the
 * root is a ReLU the search may have to split and a triangle that loosens every bound after it.
 * alpha-CROWN (and the triangle LP, which it matches) leaves many pre-activations unstable whose
 * sign never changes over the box (on mnist_fc 256x4 at eps 0.05: 72 of 158 after the second
 * layer, by descent). Deciding them is a verification problem of its own: "no input of the box
 * gives z_j <= 0" (or ">= 0") is a spec on the prefix network that ends at z's layer, and the whole
 * search (alpha/beta-CROWN branch and bound) answers it. A proof clamps the bound at 0 and the ReLU
 * becomes stable; a search cut short by its time still leaves a bound (the least over the domains
 * it left open, vfy_verify_result.open_bound), often far tighter than the relaxation's.
 * A pre-activation seen at both signs stays unstable, but its bounds shape its triangle and every
 * bound after it: the same search, on "z_j <= t" for a target t just below the least value seen
 * (or above the greatest), proves z_j > t or leaves its open bound (on mnist_fc 256x4 at eps 0.05,
 * a second-layer neuron's [-7.38, 4.23] became [-6.00, 3.70]); a counterexample, a value past the
 * target, moves the target past it while the time allows; a layer whose first bounds' searches
 * change too few bounds skips the rest of them (refine.c: BOUND_PROBE). This is what
 * alpha-beta-CROWN's MIP refinement of the hidden layers (bab-refine) computes with Gurobi, here
 * by its own search.
 *
 * Layers are refined in order, so each prefix search starts from the bounds its earlier layers got
 * (vfy_verify_opts.hidden_prior), and the later layers are re-bounded after each. A neuron made
 * stable is more than a clamped bound: "z_j >= 0 on the box" constrains the relaxation of the layers
 * before it too (the LP with these bounds has the constraint; CROWN's backward pass alone does not),
 * so the later layers' prefix searches carry every such neuron as a split of their roots
 * (vfy_verify_opts.root_split_idx), priced by beta-CROWN's multipliers as a branching split is. On
 * mnist_fc 256x6 prop_12_0.05 the refinement so proved 357 neurons stable instead of 146, and the
 * search after it started from a worst gap of -55 instead of -270. With refine_bounds
 * (`--refine-bounds`) the bounds its searches tightened on neurons left unstable are carried too
 * (root_bounds: sign (z - t) >= 0); measured, that gained nothing (docs/results.md), so it is off
 * by default.
 * SOUND: a bound changes only on the `unsat`, or the open_bound of a timeout, of a search over the
 * same input box, with the same float32 semantics, as the bounds describe. */
#ifndef VFY_REFINE_H
#define VFY_REFINE_H

#include "vfy/verify.h"

typedef struct vfy_refine_stats {
    int64_t candidates; /* unstable pre-activations with one sign never observed */
    int64_t searches;   /* prefix searches run */
    int64_t retried;    /* sign searches cut short by their share and run again with more time (of
                         * their layer's time left) */
    int64_t proved;     /* neurons made stable */
    int64_t tightened;  /* bounds of neurons left unstable made tighter (by a search cut short, or
                         * a proof of a target) */
    int64_t observed;   /* neurons seen with both signs (really unstable: only their bounds are
                         * searched) */
    int64_t bound_skipped; /* searches of a bound not run: too few of their layer's first ones
                            * changed a bound */
    int64_t rebounded;  /* domains of the searches whose later layers were re-bounded (with
                         * opts->rebound AUTO none: a search keeps its parents' bounds) */
} vfy_refine_stats;

/* Refine b (bounds of net over box, widened as vfy_bound_widen_input does, for ctx's semantics) in
 * place, within dl. Within a layer the neurons of greater weight (vfy_bounds_export's layout,
 * indexed by the pre-activation, e.g. branching scores; NULL: the triangle's area) go first. opts
 * gives the prefix searches their threads, seed, float semantics, memory ceiling, slopes
 * (hidden_slopes), alpha iterations, rebound mode (AUTO: the searches keep later layers fixed),
 * and refine_bounds (its other fields are not used). The last layers may be left as they were when
 * the time runs out. */
vfy_status vfy_refine_hidden(const vfy_bound_ctx *ctx, const vfy_box *box, vfy_bounds *b,
                             const double *weight, const vfy_verify_opts *opts,
                             const vfy_deadline *dl, vfy_refine_stats *stats, vfy_error *err);

/* As vfy_refine_hidden, asking settled(user) after each layer whose bounds changed (b re-bounded
 * after it): nonzero ends the refinement there (e.g. the caller's property is proved on b). A layer
 * where at least half of the searches are of a sign (neurons never seen at one of them) has its
 * share of the time to dl_sign instead of dl, when given (later than dl): proving signs is what
 * makes the deep layers' bounds, a tightened bound of a neuron seen at both signs gains less.
 * The refinement ends before a layer's searches once min_proved neurons made stable are out of
 * reach: those proved so far, the layer's neurons seen at one sign only and every unstable neuron
 * of the later layers are fewer (for a caller that has no use for fewer; 0: no minimum). */
vfy_status vfy_refine_hidden_until(const vfy_bound_ctx *ctx, const vfy_box *box, vfy_bounds *b,
                                   const double *weight, const vfy_verify_opts *opts,
                                   const vfy_deadline *dl, const vfy_deadline *dl_sign,
                                   int64_t min_proved, int (*settled)(void *user), void *user,
                                   vfy_refine_stats *stats, vfy_error *err);

#endif
