/* verify: the search. Given a network and a spec, decide whether some input of the spec's region
 * drives the output into the unsafe set.
 *
 * For each distinct input box of the spec, branch and bound: on the input (few inputs) or on
 * unstable ReLUs (many). Every domain is bounded (CROWN, or alpha/beta-CROWN with ReLU splits), the
 * cases it refutes are dropped, counterexamples are sought at the points the bounds suggest, and the
 * rest is split. Domains that CROWN leaves open with few unstable ReLUs get the LP stage (lp.h): the
 * triangle LP and an enumeration of those ReLUs' phases with safe LP bounds. With ReLU splitting a
 * first search gets a tenth of the time; if it does not finish, unstable hidden neurons of the root
 * are decided by searches on the network's prefixes (refine.h) and the search restarts. Domains are taken in fixed-size batches from a best-first
 * frontier and bounded in parallel; results are applied in batch order, so the verdict and the
 * counterexample depend only on the seed, never on the thread count or timing (except where a
 * deadline, the first phase's included, cuts the search). A random and gradient attack runs first. */
#ifndef VFY_VERIFY_H
#define VFY_VERIFY_H

#include "vfy/bound.h"
#include "vfy/spec.h"

typedef enum vfy_verdict {
    VFY_UNSAT,    /* proved: no input of the region reaches the unsafe set */
    VFY_SAT,      /* a confirmed counterexample */
    VFY_UNKNOWN,  /* the search ended without either */
    VFY_TIMEOUT,  /* the deadline passed first */
    VFY_VERDICT_COUNT
} vfy_verdict;

const char *vfy_verdict_name(vfy_verdict v); /* "unsat", "sat", "unknown", "timeout" */

typedef enum vfy_split_mode {
    VFY_SPLIT_AUTO,   /* input splitting for few inputs, activation splitting otherwise */
    VFY_SPLIT_INPUT,  /* bisect the input box */
    VFY_SPLIT_RELU,   /* split unstable ReLUs (z <= 0 | z >= 0) */
} vfy_split_mode;

typedef enum vfy_lp_use {
    VFY_LP_OFF,   /* bounds only from the bound module */
    VFY_LP_AUTO,  /* the triangle LP and the exact phase enumeration on domains that CROWN leaves
                     open and that have at most lp_exact_max unstable ReLUs */
    VFY_LP_ALL,   /* the triangle LP on every domain CROWN leaves open (--bounds lp) */
} vfy_lp_use;

/* After a ReLU split, the layers after the split neuron's: */
typedef enum vfy_rebound_use {
    VFY_REBOUND_AUTO,   /* re-bounded (CROWN on their unstable neurons) while that cuts their
                           widths enough, measured as the search goes (bab.c: interm_fixed);
                           never in the refinement's prefix searches (refine.c) */
    VFY_REBOUND_ALWAYS, /* always re-bounded */
    VFY_REBOUND_NEVER,  /* the parent's bounds, the split neurons clamped (alpha-beta-CROWN's
                           fixed intermediate bounds); certificates re-bound all the same */
} vfy_rebound_use;

/* A domain on which the search refuted cases: no x in [lo, hi] of input box `box` on which every
 * activation split holds (the pre-activation at flat index split_idx[q], in vfy_bounds_export's
 * layout, has sign split_sign[q] (+1: >= 0, -1: <= 0)) satisfies any of the n_cases cases. The
 * proof parameters of the rows of those cases (in order: the rows of cases[0], then of cases[1],
 * ...) are alpha (n_rows x n_half: the lower slope of each unstable ReLU input, NaN for CROWN's
 * default) and beta (n_rows x n_splits, multipliers >= 0), or NULL when plain CROWN proved it. */
typedef struct vfy_refutation {
    int64_t box;
    const double *lo, *hi;
    int64_t n_cases;
    const int64_t *cases;
    int64_t n_splits;
    const int64_t *split_idx;
    const signed char *split_sign;
    int64_t n_rows, n_half;
    const double *alpha, *beta;
} vfy_refutation;

/* alpha-CROWN iterations per domain by default: ReLU nets; nets with Sigmoid/Tanh layers, whose
 * lines' ascent needs more (eran's sigmoid net, idx 3881, hidden bounds by 20 steps: the root's
 * worst margin -5.4 after 16 iterations, -0.42 after 50, -0.21 after 100) */
#define VFY_ALPHA_ITERS 16
#define VFY_ALPHA_ITERS_ACT 50

typedef struct vfy_verify_opts {
    vfy_split_mode split;      /* branching (default AUTO) */
    double timeout_s;          /* wall-clock budget from the call; INFINITY for none */
    uint64_t seed;             /* attack randomness */
    int threads;               /* workers (>= 1) */
    int float_semantics;       /* also cover float32 executions (default on) */
    vfy_bound_method method;   /* bounding method of every domain (default AUTO: CROWN with
                                  input splitting, alpha/beta-CROWN with ReLU splitting) */
    int alpha_iters;           /* alpha-CROWN iterations per domain with VFY_BOUND_ALPHA; < 0
                                  (the default): VFY_ALPHA_ITERS, or VFY_ALPHA_ITERS_ACT on nets
                                  whose Sigmoid/Tanh lines are optimised */
    double max_memory_mb;      /* ceiling on the memory: what the process holds when the search
                                  starts, the workers' estimated scratch and the queued domains
                                  (at their actual sizes); past it the search goes on depth-first,
                                  a few domains a round (it never drops a domain) */
    vfy_lp_use lp;             /* the LP stage (GLPK; default AUTO) */
    int lp_exact_max;          /* enumerate ReLU phases by LP on domains with at most this many
                                  unstable ReLUs (default 24; 0: never) */
    vfy_rebound_use rebound;   /* the layers after a ReLU split (default AUTO) */
    int reuse_parent_bounds;   /* children intersect their layer bounds with the parent's (default 1);
                                  0 makes every domain's proof self-contained (certificates) */
    /* Certificates. Called on the calling thread, in a deterministic order, for every domain on
     * which cases were refuted (vfy_refutation). NULL: not called. Setting it turns off what a
     * checker could not re-derive (the LP stage). */
    void (*on_refuted)(void *user, const struct vfy_refutation *r);
    /* With ReLU splitting and on_refuted set: every hidden bound of a box's root tightened by
     * alpha-CROWN, before that box's domains (vfy_bound_tighten_rec's arguments, with the box and
     * the root's input region [lo, hi]). NULL: not called. */
    void (*on_root_bound)(void *user, int64_t box, const double *lo, const double *hi, int64_t idx,
                          int upper, const double *alpha_flat);
    void *on_refuted_user;           /* user of both */
    /* NULL, or layer bounds (vfy_bounds_export's layout for this network) valid over every input box
     * of the spec, widened as vfy_bound_widen_input does: with ReLU splitting each root intersects
     * its own bounds with them and skips its hidden tightening (the caller did it: refine.h). */
    const double *hidden_prior;
    /* NULL, or with hidden_prior: the caller's root slopes (vfy_bound_slopes) of a network whose
     * first layers are this network's layers (a prefix, vfy_net_prefix), borrowed and only read:
     * with ReLU splitting the domains re-bound their hidden layers from them (any slope in [0, 1]
     * is sound, so they need not be this search's own). */
    struct vfy_bound_slopes *hidden_slopes;
    /* With hidden_prior: n_root_splits signs of hidden pre-activations (flat indices and signs as
     * vfy_splits') that hold over every input box, e.g. neurons a caller proved stable: with ReLU
     * splitting every domain carries them as splits, their multipliers tightening its bounds
     * (hidden_prior must have those neurons clamped to their sign). */
    int64_t n_root_splits;
    const int64_t *root_split_idx;
    const signed char *root_split_sign;
    /* With hidden_prior: bounds of hidden pre-activations that hold over every input box (a
     * vfy_splits with offsets: sign (z - offset) >= 0), e.g. bounds a caller tightened past the
     * relaxation's: with ReLU splitting every bound of the search prices them by multipliers, as
     * constraints on the layers before them (never branched on; not with on_refuted). NULL: none. */
    const vfy_splits *root_bounds;
    int refine;                /* 1 (default): with ReLU splitting over two ReLU layers or more, a
                                  first search with a tenth of the time, then the root's hidden
                                  bounds refined by prefix searches (refine.h) and a second search;
                                  0: one search (whose result depends on no timing but the
                                  deadline's) */
    int refine_bounds;         /* 1: with refine, the later layers' prefix searches also carry
                                  the bounds the refinement's searches tightened as constraints
                                  (root_bounds); 0 (default): only the neurons it made stable
                                  (measured no better: docs/results.md) */
    int facets;                /* 1 (default): ideal upper facets in the alpha passes where the
                                  network has them (vfy_bound_ctx_set_facets; not with
                                  on_refuted): on networks with a convolution in every pass, on
                                  the others in a second pass over the root's hidden bounds
                                  and, with ReLU splitting, in the last search (the one after
                                  the refinement, or the only one); 0: the triangle's lines
                                  only */
    int case_trees;            /* 1 (default): with ReLU splitting, the cases a box's root leaves
                                  open once bounded are searched in trees of their own, one case
                                  each (a split that one case needs is not paid for by the
                                  others); 0: one tree, whose domains carry every case open */
    int attack;                /* 1 (default): attack every case before (and between) the searches,
                                  and descend from the weakest points of the best domains; 0: no
                                  attack (a prefix search of refine.h, whose caller looked already):
                                  only the points the bounds single out are tried */
    int compact_domains;       /* 1 (default): with ReLU splitting (no certificate), a queued
                                  domain keeps only the bounds and slopes that can differ from its
                                  root's and matter (the unstable pre-activations', those of other
                                  activations and pools; not an affine layer's input: bab.c); 0:
                                  all of them */
} vfy_verify_opts;

void vfy_verify_opts_default(vfy_verify_opts *o);

typedef struct vfy_verify_result {
    vfy_verdict verdict;
    double *x;        /* SAT: the counterexample (n_in float32-valued doubles), owned */
    float *y32;       /* SAT: float32 evaluation of the network at x (n_out), owned */
    double *y64;      /* SAT: double evaluation (n_out), owned */
    int64_t sat_case; /* SAT: the case of the spec it violates */
    int64_t domains;  /* domains bounded */
    int64_t max_depth;
    int64_t max_queued; /* most domains held at once (best-first heap and depth-first stack) */
    int64_t max_domain_bytes; /* the largest domain queued below a root (a root carries every
                                 bound of the network: its size is the net's): its own block and
                                 half of the prior and warm start it shares with its sibling; not
                                 the input box, which a ReLU split's whole tree shares */
    int64_t unresolved; /* leaves that could not be split further nor decided */
    int64_t lp_domains; /* domains given the LP stage */
    int64_t lp_refuted; /* cases refuted there (by the LP or the phase enumeration) */
    int64_t lp_solves;  /* LPs solved */
    int64_t root_lp_refuted; /* cases refuted at a box's root by the LP with ideal cuts */
    double lp_time_s;   /* seconds the LP stage took, summed over the workers */
    int64_t alpha_tightened; /* hidden bounds of the root that alpha-CROWN tightened (ReLU splitting) */
    int64_t refined;    /* hidden neurons of the roots made stable by prefix searches (refine.h) */
    int64_t root_deepened; /* alpha-CROWN passes over a root's hidden layers after its first, with
                            * more steps (Sigmoid/Tanh nets, as many as the time allows) */
    int64_t rebounded;  /* ReLU-split domains whose layers after the splits were re-bounded */
    int64_t lookahead_closed; /* children of ReLU splits refuted by the branching look-ahead's
                               * bounds, never bounded themselves (not in domains) */
    int64_t case_roots; /* roots of a case's own search tree (opts->case_trees): copies of a box's
                         * root, one per case it left open */
    int64_t compact_entries; /* the most bound entries a compact domain kept (0: none compact) */
    int64_t rows_at_once; /* ReLU splitting: the rows a worker bounded at once where a box's do
                           * not all fit its scratch budget (an eighth of the memory ceiling, at
                           * most 256 MB): a root's cases a chunk at a time, and a tree for each
                           * case from the start; 0: every box's rows at once */
    double first_phase_s; /* seconds the first phase took when a second followed; else 0 */
    int first_phase_cut;  /* it ended before its time: its gap was closing too slowly */
    int first_phase_on;   /* it went on past its time, unrefined: its gap was closing in time,
                           * or its time went to the root's bounds */
    int64_t attacked_cases; /* cases given the full first attack: every case, or on a costly
                             * attack (a wide net, thousands of cases) those of the boxes left
                             * open after their root (the others got a quick one only) */
    double time_s;
    /* TIMEOUT of a spec with one box and one case of one row (finite rhs_hi), no leaf left
     * unresolved: a sound lower bound, at most rhs_hi, of the row's left side over the whole box
     * (the least bound of the domains left open; the closed ones are above rhs_hi; -INFINITY when
     * the deadline came before the root was bounded); else -INFINITY.
     * (refine.c: a search that did not prove a neuron stable still tightens its bound.) */
    double open_bound;
    char reason[256]; /* a short human explanation of an unknown/timeout */
} vfy_verify_result;

/* A search's worst gap over time (the first phase's, on one box), to end the phase where it cannot
 * close the gap (bab.c: GAP_*). */
#define VFY_GAP_TRACK_MAX 512
typedef struct vfy_gap_track {
    double t[VFY_GAP_TRACK_MAX], g[VFY_GAP_TRACK_MAX];
    int n;
    double t0;   /* the first record's time: the root bounded */
    double root; /* its gap: the root's bound (NaN: none yet) */
} vfy_gap_track;

void vfy_gap_track_reset(vfy_gap_track *gt);
/* Record the worst gap g at time t (a closed or infinite gap is not recorded). */
void vfy_gap_track_add(vfy_gap_track *gt, double t, double g);
/* Whether a phase ending at t_end (now t) cannot close the gap recorded in gt. */
int vfy_gap_hopeless(const vfy_gap_track *gt, double t, double t_end);
/* Whether the search recorded in gt, at its phase's end t, closes its gap at a rate that would end
 * it well within the time left before t_final (bab.c: GAP_ON_TRACK). */
int vfy_gap_on_track(const vfy_gap_track *gt, double t, double t_final);

/* Run the verifier. net and spec are borrowed; the spec's n_x/n_y must match the network (checked:
 * VFY_ERR_INVALID). The result's arrays are allocated here; free with vfy_verify_result_free (a
 * call that fails, out of memory say, frees them itself: freeing again is harmless). */
vfy_status vfy_verify(const vfy_net *net, const vfy_spec *spec, const vfy_verify_opts *opts,
                      vfy_verify_result *res, vfy_error *err);
void vfy_verify_result_free(vfy_verify_result *res);

#endif
