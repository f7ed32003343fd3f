/* attack: searching for counterexamples, and confirming them soundly.
 *
 * A candidate x for case c of a spec is a counterexample when x lies in the case's box and every row
 * cy·net(x) + cx·x <= rhs holds. Search works in double (margins and gradients); confirmation does
 * not trust it: vfy_cex_confirm rounds x to float32 values inside the case's INNER box (so the point
 * is exactly what a float32 runtime receives, and truly in the real box) and checks every row for
 * the float32 execution in ONNX order and the double execution (what runtimes compute), then for
 * the real-valued network and every float32 execution the allowance covers, with a sound point
 * evaluation (CROWN on the point box with the search's context). */
#ifndef VFY_ATTACK_H
#define VFY_ATTACK_H

#include "vfy/bound.h"
#include "vfy/spec.h"

/* A deterministic random generator (splitmix64 / xorshift) so that runs are reproducible by seed. */
typedef struct vfy_rng { uint64_t s; } vfy_rng;
void vfy_rng_seed(vfy_rng *r, uint64_t seed);
double vfy_rng_uniform(vfy_rng *r); /* in [0, 1) */

/* Per-thread working memory for the attack and for confirmation. */
typedef struct vfy_attack_ws vfy_attack_ws;
vfy_attack_ws *vfy_attack_ws_create(const vfy_bound_ctx *ctx, const vfy_net *net, const vfy_spec *spec);
void vfy_attack_ws_free(vfy_attack_ws *ws);

/* max over the case's rows of (cy·y + cx·x - rhs), in double; <= 0 suggests a counterexample.
 * A case without rows has margin -INFINITY. */
double vfy_case_margin(const vfy_net *net, const vfy_spec *spec, int64_t c, const double *x,
                       vfy_attack_ws *ws);
/* The same from the network's outputs y at x (vfy_eval_f64 or vfy_eval_f64_batch). */
double vfy_case_margin_y(const vfy_net *net, const vfy_spec *spec, int64_t c, const double *x,
                         const double *y);

/* Confirm x (n_in) as a counterexample of case c. On success returns 1 and leaves in x the confirmed
 * float32-valued point; otherwise returns 0 (x may have been moved into the box). */
/* The float32 value nearest x inside [lo, hi], into *f; 0 when [lo, hi] holds none. */
int vfy_float32_inside(double lo, double hi, double x, double *f);

int vfy_cex_confirm(const vfy_net *net, const vfy_spec *spec, int64_t c,
                    double *x, vfy_attack_ws *ws);

/* Search for a counterexample of case c inside [lo, hi] ∩ the case's inner box: n_samples random
 * points (the centre first), then projected signed-gradient descent on the margin for `steps`
 * iterations from each of the `restarts` best samples (at most 64). Returns 1 with the confirmed point in x_out, else 0. Stops early when the
 * deadline passes. */
int vfy_attack_case(const vfy_net *net, const vfy_spec *spec, int64_t c,
                    const double *lo, const double *hi, int n_samples, int restarts, int steps,
                    vfy_rng *rng, const vfy_deadline *dl, vfy_attack_ws *ws, double *x_out);

/* The same descent (`steps` iterations) from the one start x0 (clamped into [lo, hi] ∩ the case's
 * inner box). Returns 1 with the confirmed point in x_out, else 0. */
int vfy_attack_from(const vfy_net *net, const vfy_spec *spec, int64_t c, const double *lo,
                    const double *hi, const double *x0, int steps, const vfy_deadline *dl,
                    vfy_attack_ws *ws, double *x_out);

#endif
