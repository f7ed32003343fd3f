/* bab: input-splitting branch and bound. See include/vfy/verify.h. */
#include "vfy/verify.h"
#include "vfy/attack.h"
#include "vfy/eval.h"
#include "vfy/la.h"
#include "vfy/lp.h"
#include "vfy/refine.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>
#include <string.h>

#define BATCH 32 /* domains bounded per round; fixed so results do not depend on the thread count */
/* the same past the memory ceiling (depth-first): four groups of GROUP_MAX, so that two workers
 * bound at once and share groups of unequal cost (a round of 4, within one group, left all but
 * one worker idle: oval21's long searches ran on one core of two from the ceiling on; with two
 * groups a round, one per worker, the workers were busy 75% of a round after the refinement) */
#define STACK_BATCH 32
#define STACK_DEPTH_ROOM 64 /* levels of that stack the memory ceiling leaves room for */
#define LOCAL_ATTACK_RANKS 2 /* the best domains of a round that also get a local attack */
/* a domain's candidate vertices (one per open case) evaluated in one batched pass, at most, and
 * the bytes of the two layer buffers per worker that bound that number (a net of wide layers, a
 * batch of one: the single pass's memory) */
#define CAND_BATCH 32
#define CAND_BATCH_BYTES 8388608.0
/* With ReLU splitting every domain is the whole box and the local attacks only add seeds: after
 * the first LOCAL_ATTACK_EARLY rounds, one round in LOCAL_ATTACK_EVERY gets them. Measured on
 * mnist_fc 256x4 (unsat): every round's attacks took about a fifth of the search's time, and no
 * mnist_fc counterexample came from them. */
#define LOCAL_ATTACK_EARLY 8
#define LOCAL_ATTACK_EVERY 8
#define LOCAL_DESCENT_STEPS 50 /* ReLU splitting: descent steps from a domain's weakest vertex */
#define AUTO_INPUT_SPLIT_MAX 16 /* AUTO splits the input when it has at most this many dimensions */
#define BRANCH_CANDIDATES 4 /* ReLUs looked ahead per split (filtered smart branching) */
/* ...of which this many are those of the best intercept scores (vfy_bound_relu_scores), the
 * others, and any the intercept list lacks, those of the best scores. A neuron whose rows all take
 * its lower line scores high (|coefficient| x height) yet its split rarely moves the bound: with
 * 4 + 4 (alpha-beta-CROWN's kfsb also takes both lists) oval21 cifar_base img8717 and cifar_deep
 * img7878 (72 s timeouts with the scores alone) ended in 2.0 and 5.0 s. The score list's
 * candidates then still won the look-ahead where the search after did worse: with the intercept
 * list alone (4 + 0) mnist_fc 256x4 prop_10_0.05 was proved in 30.5 s (a timeout at 75 s), 256x6
 * prop_13_0.05 in 102.3 s (a timeout at 150 s), their last searches 2,100 / 192 domains against
 * 34,643 / 12,544 (the refinement's prefix searches branch the same way). 8 + 0: the same
 * (25.9 / 102.9 s) at twice the look-ahead; 2 + 2: 27.4 s / a timeout; 1 + 0 (no look-ahead):
 * oval21 cifar_base img3568 44.0 s against 26.1 s. */
#define BRANCH_INTERCEPT 4
_Static_assert(BRANCH_INTERCEPT <= BRANCH_CANDIDATES, "the intercept candidates are among them");
#define LEAF_ITERS 100 /* alpha/beta iterations on a domain whose ReLUs are all decided */

static const char *const verdict_names[] = {"unsat", "sat", "unknown", "timeout"};
_Static_assert(sizeof verdict_names / sizeof verdict_names[0] == VFY_VERDICT_COUNT, "names");

const char *vfy_verdict_name(vfy_verdict v)
{
    return (v >= 0 && v < VFY_VERDICT_COUNT) ? verdict_names[v] : "unknown";
}

void vfy_verify_opts_default(vfy_verify_opts *o)
{
    o->timeout_s = INFINITY;
    o->seed = 0;
    o->threads = 2;
    o->float_semantics = 1;
    o->method = VFY_BOUND_AUTO;
    o->split = VFY_SPLIT_AUTO;
    o->alpha_iters = -1;
    o->max_memory_mb = 2048;
    o->lp = VFY_LP_AUTO;
    o->lp_exact_max = 24;
    o->rebound = VFY_REBOUND_AUTO;
    o->reuse_parent_bounds = 1;
    o->on_refuted = NULL;
    o->on_root_bound = NULL;
    o->on_refuted_user = NULL;
    o->hidden_prior = NULL;
    o->hidden_slopes = NULL;
    o->n_root_splits = 0;
    o->root_split_idx = NULL;
    o->root_split_sign = NULL;
    o->root_bounds = NULL;
    o->refine_bounds = 0;
    o->refine = 1;
    o->facets = 1;
    o->case_trees = 1;
    o->attack = 1;
    o->compact_domains = 1;
}

void vfy_verify_result_free(vfy_verify_result *res)
{
    if (!res)
        return;
    vfy_free(res->x);
    vfy_free(res->y32);
    vfy_free(res->y64);
    res->x = NULL;
    res->y32 = NULL;
    res->y64 = NULL;
}

/* Read-only data shared by domains, counted: the input box of the domains below a ReLU split (a
 * ReLU split never changes the box: a CIFAR box is 48 KB, three quarters of such a domain's own
 * block), and the prior bounds and warm start that a ReLU split's two children have alike (each
 * child's own split is applied when the prior is read, full_prior). Domains are made, queued and
 * freed by the search's thread only. */
typedef struct shared_block {
    int64_t refs;    /* domains holding it */
    int64_t in_heap; /* of them, those in the best-first heap (the block is counted once there) */
    size_t bytes;
    double v[];
} shared_block;

static shared_block *block_new(size_t payload)
{
    shared_block *b = vfy_alloc(sizeof *b + payload);
    if (b) {
        b->refs = b->in_heap = 0;
        b->bytes = sizeof *b + payload;
    }
    return b;
}

static void block_unref(shared_block *b)
{
    if (b && --b->refs == 0)
        vfy_free(b);
}

typedef struct domain {
    int64_t depth;
    int64_t n_active;  /* cases of the box not yet refuted on this domain */
    int64_t *active;
    double *lo, *hi;   /* in the block, or in sbox (then never written) */
    shared_block *sbox; /* the box, shared with other domains (a reference), or NULL */
    shared_block *spw;  /* prior and warm, shared with the sibling (a reference), or NULL */
    double *prior;     /* the parent's layer bounds (flat), or NULL at a root; compact: only the
                        * entries of the search's compact set (search.cp_idx), lower then upper.
                        * In spw: without the clamp of this domain's last split (full_prior's) */
    int compact;
    int of_base;       /* the root whose bounds are the search's base (compact_begin) */
    double prio;       /* the parent's best bound on this region: lower is more promising for sat */
    uint64_t seq;      /* creation order, to break ties deterministically */
    int64_t n_splits;  /* activation splits (ReLU branching) */
    int64_t stale;     /* the last splits whose effect on the later layers' bounds has not been
                        * propagated (the prior's layers after them were not re-bounded) */
    int64_t *split_idx;
    signed char *split_sign;
    /* each split's point t: the split is sign (z - t) >= 0; 0 but for a SIGMOID/TANH neuron split
     * on one side of 0 (vfy_bound_split_point) */
    double *split_off;
    /* the parent's best slopes and multipliers for this domain's rows (vfy_bound_alpha_warm), or
     * NULL: warm_rows rows of n_relu + warm_nsp floats */
    float *warm;
    int64_t warm_rows, warm_nsp;
    size_t bytes;      /* the block's own size, counted against the memory ceiling while queued
                        * (with sbox and spw, each counted once: heap_charge) */
} domain;

/* One block: the struct, lo and hi (unless they are sb's), the prior bounds (n_prior doubles, may
 * be 0) and the warm start (n_warm floats, may be 0) unless they are pw's, the active list, the
 * splits' indices, points (0 here) and signs. A reference to sb and to pw is taken. */
static domain *domain_new_in(int64_t nx, shared_block *sb, shared_block *pw, int64_t n_prior,
                             int64_t n_active, int64_t n_splits, int64_t n_warm)
{
    int64_t n_box = sb ? 0 : 2 * nx, n_own_prior = pw ? 0 : n_prior, n_own_warm = pw ? 0 : n_warm;
    size_t sz = sizeof(domain) + (size_t)(n_box + n_own_prior) * sizeof(double) +
                (size_t)(n_active + n_splits) * sizeof(int64_t) +
                (size_t)n_splits * sizeof(double) + (size_t)n_own_warm * sizeof(float) +
                (size_t)n_splits;
    domain *d = vfy_alloc(sz);
    if (!d)
        return NULL;
    double *tail = (double *)(d + 1);
    d->sbox = sb;
    d->spw = pw;
    if (sb) {
        sb->refs++;
        d->lo = sb->v;
        d->hi = sb->v + nx;
    } else {
        d->lo = tail;
        d->hi = tail + nx;
    }
    d->active = (int64_t *)(tail + n_box + n_own_prior);
    d->n_active = n_active;
    d->split_idx = d->active + n_active;
    d->split_off = (double *)(d->split_idx + n_splits);
    memset(d->split_off, 0, (size_t)n_splits * sizeof(double));
    if (pw) {
        pw->refs++;
        d->prior = n_prior ? pw->v : NULL;
        d->warm = n_warm ? (float *)(pw->v + n_prior) : NULL;
    } else {
        d->prior = n_prior ? tail + n_box : NULL;
        d->warm = n_warm ? (float *)(d->split_off + n_splits) : NULL;
    }
    d->warm_rows = d->warm_nsp = 0;
    d->stale = 0;
    d->compact = d->of_base = 0;
    d->split_sign = (signed char *)((float *)(d->split_off + n_splits) + n_own_warm);
    d->n_splits = n_splits;
    d->bytes = sz;
    return d;
}

static domain *domain_new(int64_t nx, int64_t n_prior, int64_t n_active, int64_t n_splits,
                          int64_t n_warm)
{
    return domain_new_in(nx, NULL, NULL, n_prior, n_active, n_splits, n_warm);
}

/* d's box as a shared one: d's own (a new copy, no reference taken yet), or NULL out of memory. */
static shared_block *domain_box_share(const domain *d, int64_t nx)
{
    if (d->sbox)
        return d->sbox;
    shared_block *sb = block_new((size_t)(2 * nx) * sizeof(double));
    if (!sb)
        return NULL;
    memcpy(sb->v, d->lo, (size_t)nx * sizeof(double));
    memcpy(sb->v + nx, d->hi, (size_t)nx * sizeof(double));
    return sb;
}

static void domain_free(domain *d)
{
    if (!d)
        return;
    block_unref(d->sbox);
    block_unref(d->spw);
    vfy_free(d);
}

typedef enum { R_PROVED, R_SAT, R_SPLIT, R_STUCK, R_SKIPPED, R_NOMEM } rkind;

typedef struct dresult {
    rkind kind;
    int64_t dim;       /* R_SPLIT */
    double split_at;   /* R_SPLIT on an activation: its split point (vfy_bound_split_point) */
    int64_t n_active;  /* cases still open (R_SPLIT) */
    int64_t *active;   /* buffer of max_cases */
    double *x;         /* R_SAT: the confirmed point */
    int64_t sat_case;
    double *bounds;    /* R_SPLIT: this domain's layer bounds (flat), the children's prior */
    double prio;       /* R_SPLIT: min over open cases of the max over rows of (lb - rhs) */
    int relu;          /* R_SPLIT: dim is a ReLU (flat index), not an input dimension */
    int closed[2];     /* R_SPLIT (ReLU): child z <= 0 / z >= 0 refuted by the look-ahead */
    int lp_tried, lp_won; /* the LP stage ran here; it refuted a case or found a counterexample */
    int rebounded;        /* the layers after the splits were re-bounded (not the prior's) */
    double cut;           /* then: the sum over the prior's unstable neurons there of the share of
                           * their width cut, per stale split */
    int64_t cut_n;        /* and how many neurons that sum is over */
    /* certificates: the proof parameters of each row, in the order of the domain's cases
     * (vfy_bound_best_params; NaN slopes and no multipliers where plain CROWN bounded it) */
    double *par_alpha;    /* max_rows x n_half */
    double *par_beta;     /* max_rows x cap_sp */
    int64_t cap_sp, n_sp;
    /* R_SPLIT with ReLU splitting: the best slopes and multipliers of the open cases' rows, for the
     * children's warm start (vfy_bound_best_warm's layout) */
    float *warm;
    int64_t cap_warm, warm_rows, warm_nsp;
} dresult;

/* A worker bounds the domains of a group (up to GROUP_MAX of a round) together: each domain has a
 * slot, its own layer bounds and rows; the alpha/beta optimisation of all of them is one call
 * (vfy_bound_rows_alpha_batch), whose products are then large enough to run at full speed. The
 * fields below that have a slot are pointed at the slot in use (use_slot). */
#define GROUP_MAX 8
_Static_assert(STACK_BATCH >= 4 * GROUP_MAX, "a depth-first round must keep two workers busy");
#define GROUP_SCRATCH_BYTES 268435456.0 /* estimated scratch memory of a worker's slots, at most */
#define ROW_SCRATCH_BYTES 268435456.0   /* ...and of the rows it bounds at once (row_cap), at
                                         * most an eighth of the memory ceiling */
typedef struct worker {
    vfy_bounds *b;         /* the slot's layer bounds */
    vfy_bounds *bs[GROUP_MAX];
    vfy_bounds *work;      /* the group's rows (vfy_bound_rows_alpha_batch) */
    vfy_attack_ws *ws;
    double *cy, *cx, *lb, *lam_in, *score, *cand; /* cy, cx, lb, lam_in: the slot's */
    int64_t *row_case;     /* the slot's */
    double *row_rhs;       /* the slot's: each row's rhs_hi (the ascent stops once lb > it) */
    int has_cx;            /* the slot's */
    double *cy0, *cx0, *lb0, *lam0, *cin0; /* every slot's, max_rows rows each */
    int64_t *rc0;
    double *rhs0;
    int hcx[GROUP_MAX];
    int64_t slot_K[GROUP_MAX];    /* rows of the slot's domain, -1: not bounded */
    int64_t slot_row0[GROUP_MAX]; /* its first row among the batch's (work), -1: not in it */
    double *sm_a, *sm_b; /* width each: smear vectors */
    double *c_in;        /* K: constants of the rows' linear bounds */
    double *rscore;      /* n_flat / 2: ReLU branching scores */
    double *iscore;      /* n_flat / 2: their intercept scores (vfy_bound_relu_scores) */
    double *bcy, *bcx;   /* the best row of each open case (K x n_out, K x n_in) */
    double *mu, *mu_best, *sg; /* K: conjunction multipliers and supergradient */
    int mu_valid;              /* mu_best holds multipliers of the current case */
    double *ccy, *ccx;         /* a combined row (n_out, n_in) */
    double *brhs;              /* K: the right-hand side of each best row in bcy */
    int64_t *bprow;            /* K: its row in the last batch on work (-1: none) */
    double *lbn, *lbp;         /* BRANCH_CANDIDATES x K: the look-ahead's bounds of the children */
    /* domain_finish's first pass, per active case: refuted, its best row (-1: none), that row's
     * gap, and its candidate's place in the batch evaluated at once (-1: evaluated alone) */
    unsigned char *fin_ref;
    int64_t *fin_best, *fin_cand;
    double *fin_gap;
    double *cands, *cand_y, *cand_ws; /* cand_batch candidates (n_in), outputs, workspace */
    /* per slot, with the search's cuts: the cuts then the domain's splits (bound_splits) */
    int64_t *sp_idx[GROUP_MAX];
    signed char *sp_sign[GROUP_MAX];
    double *sp_off[GROUP_MAX];
    int64_t sp_cap[GROUP_MAX];
    double *pf;         /* n_flat: a compact prior expanded (the base elsewhere) */
    int64_t pf_gen;     /* the base generation pf's other entries hold (0: none) */
} worker;

typedef struct search {
    const vfy_net *net;
    const vfy_spec *spec;
    const vfy_bound_ctx *ctx;
    const vfy_verify_opts *opts;
    vfy_deadline dl;
    vfy_deadline final_dl; /* the whole search's (dl's is a phase's at times): the bound passes'
                            * (vfy_bound_ctx_set_deadline) */
    int64_t max_rows, max_cases;
    /* rows a worker bounds at once (its buffers' size): a box's, or where they would pass
     * ROW_SCRATCH_BYTES (a 1,000-class spec over an image's 150,528 inputs: 999 rows of 1.2 MB
     * in each of a dozen buffers) fewer, but at least any case's: a box's root is then bounded a
     * chunk of its cases at a time, and its trees start a case apart (push_root) */
    int64_t row_cap;
    int64_t cand_batch; /* candidates evaluated together, at most (CAND_BATCH) */
    int64_t n_flat;    /* doubles in a flat copy of the layer bounds */
    int relu_split;    /* branch on ReLUs rather than on the input */
    int act_lines;     /* Sigmoid/Tanh lines are optimised (the net has some; not a certificate run) */
    int facets;        /* ideal upper facets in every alpha pass (networks with a convolution) */
    int root_facets;   /* ...in the root's hidden bounds (every network) */
    int search_facets; /* ...in the last search: after the refinement, or the only one (not in a
                        * prefix search) */
    int alpha_iters;   /* alpha-CROWN iterations per domain (opts->alpha_iters, resolved) */
    vfy_bound_slopes *slopes; /* the root's hidden-bound slopes, in every worker's bounds */
    int slopes_owned;         /* 0: borrowed from the caller (opts->hidden_slopes), not freed */
    int64_t slopes_box;       /* the input box whose root they are of */
    int lp_stage_on;   /* the LP stage runs (opts->lp, and no certificate is being written) */
    int root_lp_on;    /* the root's LP with ideal cuts runs (the same, whatever its cost) */
    int root_lp_misses; /* boxes whose root LP refuted nothing, while none refuted anything */
    unsigned char *case_done; /* per case: refuted for good at its box's root (root_lp) */
    int cert;          /* a certificate is being written (opts->on_refuted) */
    /* the caller's bounds on hidden pre-activations (opts->root_bounds), priced in every bound of
     * the search as constraints before the domain's splits; NULL: none */
    const vfy_splits *cuts;
    int64_t n_cuts;
    int64_t n_half;    /* n_flat / 2: pre-activations and outputs of every layer */
    double scratch_bytes; /* the workers' estimated scratch, left out of the queue's budget */
    double stack_room;    /* bytes left out of it too, for the depth-first stack past it */
    double *g_alpha, *g_beta; /* the rows of a refutation, gathered for on_refuted */
    int64_t g_cap_sp;
    double *root_prior;       /* certificates with ReLU splitting: the current box's root bounds */
    /* Compact domains (ReLU splitting from one root, no certificate): a child's prior holds only
     * the entries its bounds can differ from the root's in: the pre-activations unstable on the
     * root's bounds (base) and every entry of the affine and max-pool layers that feed no ReLU.
     * The others are the base's, which hold on the whole box and so on every domain (looser only
     * where the path tightened a stable neuron: its rounding allowance). ReLU and activation
     * layers are never read from a prior (vfy_bound_layers_from). The warm slopes are kept for
     * the unstable ReLUs only (a stable ReLU has none). On cifar_wide_kw: 422 of 12,498 entries,
     * a domain of about 480 KB becomes 57 KB (most of it the input box). */
    double *base;             /* n_flat; NULL: no compact domain */
    int64_t base_gen;         /* changes with base */
    int64_t n_cp, *cp_idx;    /* the compact set: flat (lower-half) indices, increasing */
    int64_t *cp_pos;          /* n_half: an entry's position in the compact set, -1 */
    int64_t n_cw, *cw_idx;    /* the unstable pre-activations' ReLU indices, increasing */
    int64_t n_relu;           /* ReLU neurons of the network (warm starts) */
    atomic_llong lp_domains, lp_refuted, lp_solves;
    /* the LP stage's record so far, updated between rounds in batch order (so that the choice of
     * domains for it is deterministic while the record decides; the time cap below depends on
     * measured times): where it rarely refutes anything, it is only sampled */
    int64_t lp_tried, lp_won;
    /* the nanoseconds the stage took, summed over the workers as each stage ends (not in batch
     * order: a round's stages would all start from the same total) */
    atomic_llong lp_ns;
    double t_start; /* when the search started (vfy_now) */
    /* the same for re-bounding the layers after a ReLU split (interm_fixed): the share of the
     * unstable neurons' widths it cut, summed with cut_n over a window of recent domains */
    double interm_cut, interm_n;
    int64_t *case_domains; /* domains bounded with each case open (-vv's per-case counts) */
    vfy_bound_method method; /* per-domain bounds (opts->method, AUTO resolved) */
    worker *workers;
    int n_workers;
    int group;         /* domains per group (<= GROUP_MAX) */
    /* the current batch */
    domain *batch[BATCH];
    dresult res[BATCH];
    int n_batch;
    int64_t round; /* rounds of the current box so far */
    atomic_int next;
} search;

static void worker_free(worker *w)
{
    vfy_free(w->pf);
    for (int g = 0; g < GROUP_MAX; g++)
        vfy_bounds_free(w->bs[g]);
    vfy_bounds_free(w->work);
    vfy_attack_ws_free(w->ws);
    vfy_free(w->cy0);
    vfy_free(w->cx0);
    vfy_free(w->lb0);
    vfy_free(w->lam0);
    vfy_free(w->cin0);
    vfy_free(w->score);
    vfy_free(w->cand);
    vfy_free(w->fin_ref);
    vfy_free(w->fin_best);
    vfy_free(w->fin_cand);
    vfy_free(w->fin_gap);
    vfy_free(w->cands);
    vfy_free(w->cand_y);
    vfy_free(w->cand_ws);
    vfy_free(w->rc0);
    vfy_free(w->rhs0);
    vfy_free(w->sm_a);
    vfy_free(w->sm_b);
    vfy_free(w->rscore);
    vfy_free(w->iscore);
    vfy_free(w->bcy);
    vfy_free(w->bcx);
    vfy_free(w->mu);
    vfy_free(w->mu_best);
    vfy_free(w->sg);
    vfy_free(w->ccy);
    vfy_free(w->ccx);
    vfy_free(w->brhs);
    vfy_free(w->bprow);
    vfy_free(w->lbn);
    vfy_free(w->lbp);
    for (int g = 0; g < GROUP_MAX; g++) {
        vfy_free(w->sp_idx[g]);
        vfy_free(w->sp_sign[g]);
        vfy_free(w->sp_off[g]);
    }
}

/* The constraints d's bounds are computed under, in slot g's buffers: the search's cuts (the
 * caller's hidden bounds: the same for every domain, so that a parent's multipliers stay in place
 * for its children's warm start), then d's splits. *out = NULL when there are none; returns 0
 * when out of memory. */
static int bound_splits(const search *s, worker *w, int g, const domain *d, vfy_splits *buf,
                        const vfy_splits **out)
{
    *out = NULL;
    if (s->n_cuts == 0) {
        *buf = (vfy_splits){d->n_splits, d->split_idx, d->split_sign, d->split_off};
        if (d->n_splits > 0)
            *out = buf;
        return 1;
    }
    int64_t n = s->n_cuts + d->n_splits;
    if (n > w->sp_cap[g]) {
        vfy_free(w->sp_idx[g]);
        vfy_free(w->sp_sign[g]);
        vfy_free(w->sp_off[g]);
        w->sp_idx[g] = vfy_alloc_array((size_t)n, sizeof(int64_t));
        w->sp_sign[g] = vfy_alloc_array((size_t)n, 1);
        w->sp_off[g] = vfy_alloc_array((size_t)n, sizeof(double));
        w->sp_cap[g] = w->sp_idx[g] && w->sp_sign[g] && w->sp_off[g] ? n : 0;
        if (w->sp_cap[g] == 0)
            return 0;
        /* the cuts, once per buffer (they are the search's: the same for every domain) */
        const vfy_splits *c = s->cuts;
        memcpy(w->sp_idx[g], c->idx, (size_t)s->n_cuts * sizeof(int64_t));
        memcpy(w->sp_sign[g], c->sign, (size_t)s->n_cuts);
        if (c->offset)
            memcpy(w->sp_off[g], c->offset, (size_t)s->n_cuts * sizeof(double));
        else
            memset(w->sp_off[g], 0, (size_t)s->n_cuts * sizeof(double));
    }
    memcpy(w->sp_idx[g] + s->n_cuts, d->split_idx, (size_t)d->n_splits * sizeof(int64_t));
    memcpy(w->sp_sign[g] + s->n_cuts, d->split_sign, (size_t)d->n_splits);
    memcpy(w->sp_off[g] + s->n_cuts, d->split_off, (size_t)d->n_splits * sizeof(double));
    *buf = (vfy_splits){n, w->sp_idx[g], w->sp_sign[g], w->sp_off[g]};
    *out = buf;
    return 1;
}

/* Point the worker's per-slot fields at slot g. */
static void use_slot(const search *s, worker *w, int g)
{
    int64_t nx = s->net->n_in, ny = s->net->n_out, K = s->row_cap;
    w->b = w->bs[g];
    w->cy = w->cy0 + g * K * ny;
    w->cx = w->cx0 + g * K * nx;
    w->lb = w->lb0 + g * K;
    w->lam_in = w->lam0 + g * K * nx;
    w->c_in = w->cin0 + g * K;
    w->row_case = w->rc0 + g * K;
    w->row_rhs = w->rhs0 + g * K;
    w->has_cx = w->hcx[g];
}

static int worker_init(worker *w, const search *s)
{
    int64_t nx = s->net->n_in, ny = s->net->n_out, K = s->row_cap, G = s->group;
    memset(w, 0, sizeof *w);
    for (int g = 0; g < G; g++)
        if (!(w->bs[g] = vfy_bounds_create(s->ctx)))
            return 0;
    w->work = vfy_bounds_create(s->ctx);
    w->ws = vfy_attack_ws_create(s->ctx, s->net, s->spec);
    w->cy0 = vfy_alloc_array((size_t)(G * K * ny), sizeof(double));
    w->cx0 = vfy_alloc_array((size_t)(G * K * nx), sizeof(double));
    w->lb0 = vfy_alloc_array((size_t)(G * K), sizeof(double));
    w->lam0 = vfy_alloc_array((size_t)(G * K * nx), sizeof(double));
    w->cin0 = vfy_alloc_array((size_t)(G * K), sizeof(double));
    w->rc0 = vfy_alloc_array((size_t)(G * K), sizeof(int64_t));
    w->rhs0 = vfy_alloc_array((size_t)(G * K), sizeof(double));
    if (!w->work || !w->cy0 || !w->cx0 || !w->lb0 || !w->lam0 || !w->cin0 || !w->rc0 || !w->rhs0)
        return 0;
    use_slot(s, w, 0);
    w->score = vfy_alloc_array((size_t)nx, sizeof(double));
    w->cand = vfy_alloc_array((size_t)nx, sizeof(double));
    w->fin_ref = vfy_alloc_array((size_t)s->max_cases, 1);
    w->fin_best = vfy_alloc_array((size_t)s->max_cases, sizeof(int64_t));
    w->fin_cand = vfy_alloc_array((size_t)s->max_cases, sizeof(int64_t));
    w->fin_gap = vfy_alloc_array((size_t)s->max_cases, sizeof(double));
    w->cands = vfy_alloc_array((size_t)(s->cand_batch * nx), sizeof(double));
    w->cand_y = vfy_alloc_array((size_t)(s->cand_batch * ny), sizeof(double));
    w->cand_ws = vfy_alloc_array((size_t)vfy_eval_batch_ws_len(s->net, s->cand_batch),
                                 sizeof(double));
    if (!w->fin_ref || !w->fin_best || !w->fin_cand || !w->fin_gap || !w->cands || !w->cand_y ||
        !w->cand_ws)
        return 0;
    w->sm_a = vfy_alloc_array((size_t)vfy_net_max_width(s->net), sizeof(double));
    w->sm_b = vfy_alloc_array((size_t)vfy_net_max_width(s->net), sizeof(double));
    w->rscore = vfy_alloc_array((size_t)(s->n_flat / 2 + 1), sizeof(double));
    w->iscore = vfy_alloc_array((size_t)(s->n_flat / 2 + 1), sizeof(double));
    if (s->relu_split && !(w->pf = vfy_alloc_array((size_t)s->n_flat + 1, sizeof(double))))
        return 0;
    w->bcy = vfy_alloc_array((size_t)(K * ny), sizeof(double));
    w->bcx = vfy_alloc_array((size_t)(K * nx), sizeof(double));
    if (!w->rscore || !w->iscore || !w->bcy || !w->bcx)
        return 0;
    w->mu = vfy_alloc_array((size_t)K, sizeof(double));
    w->mu_best = vfy_alloc_array((size_t)K, sizeof(double));
    w->sg = vfy_alloc_array((size_t)K, sizeof(double));
    w->ccy = vfy_alloc_array((size_t)ny, sizeof(double));
    w->ccx = vfy_alloc_array((size_t)nx, sizeof(double));
    w->brhs = vfy_alloc_array((size_t)K, sizeof(double));
    w->bprow = vfy_alloc_array((size_t)K, sizeof(int64_t));
    w->lbn = vfy_alloc_array((size_t)(BRANCH_CANDIDATES * K), sizeof(double));
    w->lbp = vfy_alloc_array((size_t)(BRANCH_CANDIDATES * K), sizeof(double));
    if (!w->ccy || !w->ccx || !w->brhs || !w->bprow || !w->lbn || !w->lbp)
        return 0;
    return w->c_in && w->mu && w->mu_best && w->sg && w->sm_a && w->sm_b && w->b && w->ws &&
           w->cy && w->cx && w->lb && w->lam_in && w->score && w->cand && w->row_case;
}

/* Take x, whose margin in case c a double pass found to be margin, as a counterexample of case c
 * when the sound confirmation holds (x is modified). */
static int take_candidate(search *s, worker *w, int64_t c, double margin, double *x, dresult *r)
{
    if (margin > 0)
        return 0;
    if (!vfy_cex_confirm(s->net, s->spec, c, x, w->ws))
        return 0;
    memcpy(r->x, x, (size_t)s->net->n_in * sizeof(double));
    r->kind = R_SAT;
    r->sat_case = c;
    return 1;
}

/* Try x as a counterexample of case c (x is modified). */
static int try_candidate(search *s, worker *w, int64_t c, double *x, dresult *r)
{
    return take_candidate(s, w, c, vfy_case_margin(s->net, s->spec, c, x, w->ws), x, r);
}

/* Branching score (ReluVal's "smear"): an upper bound of |d row / d x_j| over the domain (the interval
 * gradient through the ReLUs: 0 where inactive, up to 1 where unstable or active) times the width of
 * x_j, added into score[j]. Unlike the final linear coefficients of the bound, it also sees the
 * dimensions that act through unstable neurons, whose relaxation is what splitting tightens. */
static void add_smear(search *s, worker *w, const domain *d, const double *cy, const double *cx,
                      double *score)
{
    const vfy_net *net = s->net;
    double *g = w->sm_a, *g2 = w->sm_b;
    for (int64_t j = 0; j < net->n_out; j++)
        g[j] = fabs(cy[j]);
    for (int64_t k = net->n_layers - 1; k >= 0; k--) {
        const vfy_layer *L = &net->layers[k];
        if (L->kind == VFY_LAYER_DENSE && L->csr) {
            vfy_la_csr_gemv(L->csr, g, g2, 1, 1);
        } else if (L->kind == VFY_LAYER_DENSE) {
            vfy_la_gemv(L->n_out, L->n_in, vfy_bound_ctx_absw(s->ctx, k), g, g2, 1);
        } else if (L->kind == VFY_LAYER_SCALE) {
            for (int64_t j = 0; j < L->n_out; j++)
                g2[j] = g[j] * fabs(L->w[j]);
        } else if (L->kind == VFY_LAYER_RELU) {
            const double *hi = k > 0 ? w->b->hi[k - 1] : d->hi;
            for (int64_t j = 0; j < L->n_out; j++)
                g2[j] = hi[j] > 0 ? g[j] : 0.0;
        } else if (L->kind == VFY_LAYER_MAXPOOL) {
            /* the max moves with at most one input of each window: a window's weight reaches
             * each of its inputs */
            memset(g2, 0, (size_t)L->n_in * sizeof(double));
            for (int64_t j = 0; j < L->n_out; j++)
                for (int64_t p = 0; p < L->pool_k; p++)
                    if (L->pool[j * L->pool_k + p] >= 0)
                        g2[L->pool[j * L->pool_k + p]] += g[j];
        } else if (L->kind == VFY_LAYER_PRODUCT) {
            /* |d(a b) / da| = |b|: each factor's weight is the other's largest magnitude */
            const double *lo = k > 0 ? w->b->lo[k - 1] : d->lo;
            const double *hi = k > 0 ? w->b->hi[k - 1] : d->hi;
            memset(g2, 0, (size_t)L->n_in * sizeof(double));
            for (int64_t j = 0; j < L->n_out; j++) {
                int64_t p = L->pool[2 * j], q = L->pool[2 * j + 1];
                if (q < 0) {
                    g2[p] += g[j];
                    continue;
                }
                g2[p] += g[j] * fmax(fabs(lo[q]), fabs(hi[q]));
                g2[q] += g[j] * fmax(fabs(lo[p]), fabs(hi[p]));
            }
        } else if (vfy_layer_is_convex(L->kind)) {
            /* |f'| on [l, u] is largest at an end (f' is monotone there: f convex or concave);
             * a score, not a bound: plain double, 1 where not finite */
            const double *lo = k > 0 ? w->b->lo[k - 1] : d->lo;
            const double *hi = k > 0 ? w->b->hi[k - 1] : d->hi;
            for (int64_t j = 0; j < L->n_out; j++) {
                double sa = vfy_act_slope_f64(L->kind, lo[j], vfy_act_f64(L->kind, lo[j]));
                double sb = vfy_act_slope_f64(L->kind, hi[j], vfy_act_f64(L->kind, hi[j]));
                double m = fmax(fabs(sa), fabs(sb));
                g2[j] = j < L->n_pass ? g[j] : g[j] * (isfinite(m) ? m : 1.0);
            }
        } else { /* SIGMOID, TANH, ERF: slopes at most 1/4, 1, 2/sqrt(pi) (1: an element passed
                  * through); SIGN, SIN, COS: 1 (a step has no slope bound; a score, not a bound) */
            double m = vfy_layer_is_sshaped(L->kind) ? vfy_act_max_slope(L->kind) : 1.0;
            for (int64_t j = 0; j < L->n_out; j++)
                g2[j] = j < L->n_pass ? g[j] : g[j] * m;
        }
        double *t = g;
        g = g2;
        g2 = t;
    }
    for (int64_t j = 0; j < net->n_in; j++)
        score[j] += (g[j] + (cx ? fabs(cx[j]) : 0.0)) * (d->hi[j] - d->lo[j]);
}

/* A conjunction of rows can be infeasible on a domain although no single row is positive on all of
 * it (near where two rows cross, splitting alone never closes the domain). With the rows' sound
 * linear bounds row_i(x) >= a_i·x + c_i on the box, an unsafe x must satisfy a_i·x <= d_i with
 * d_i = rhs_hi_i - c_i for every i. For any mu >= 0, if  min_{x in box} sum_i mu_i (a_i·x - d_i) > 0
 * no x satisfies them all (Farkas): the case is refuted. mu is searched on the simplex by
 * exponentiated supergradient ascent in plain double; the check that decides uses directed rounding
 * and holds for whatever mu was found. */
static int conj_refuted(worker *w, const domain *d, int64_t nx, const vfy_case *cs, int64_t row0)
{
    int64_t m = cs->n_rows;
    w->mu_valid = 0;
    if (m < 2)
        return 0;
    const double *A = w->lam_in + row0 * nx, *C = w->c_in + row0;
    double *mu = w->mu, *sg = w->sg, best = -INFINITY;
    for (int64_t i = 0; i < m; i++) {
        if (!(C[i] > -INFINITY))
            return 0;
        mu[i] = 1.0 / (double)m;
    }
    for (int it = 0; it < 60; it++) {
        /* f(mu) = sum_j min_x g_j x_j - sum_i mu_i d_i, g = sum_i mu_i a_i; supergradient at x* */
        double f = 0, smax = 0;
        for (int64_t i = 0; i < m; i++) {
            sg[i] = -(cs->rows[i].rhs_hi - C[i]);
            f += mu[i] * sg[i];
        }
        for (int64_t j = 0; j < nx; j++) {
            double g = 0;
            for (int64_t i = 0; i < m; i++)
                g += mu[i] * A[i * nx + j];
            double xs = g >= 0 ? d->lo[j] : d->hi[j];
            f += g * xs;
            for (int64_t i = 0; i < m; i++)
                sg[i] += A[i * nx + j] * xs;
        }
        if (f > best) {
            best = f;
            memcpy(w->mu_best, mu, (size_t)m * sizeof(double));
            w->mu_valid = 1;
        }
        for (int64_t i = 0; i < m; i++)
            smax = fmax(smax, fabs(sg[i]));
        if (!(smax > 0) || !isfinite(smax))
            break;
        double eta = 2.0 / (smax * sqrt((double)it + 1.0)), z = 0;
        for (int64_t i = 0; i < m; i++) {
            mu[i] *= exp(eta * sg[i]);
            z += mu[i];
        }
        for (int64_t i = 0; i < m; i++)
            mu[i] /= z;
    }
    if (!(best > 0))
        return 0;
    /* SOUND: g_j ∈ [glo, ghi] by directed sums; min over x_j of g_j x_j is at a corner of
     * [glo, ghi] x [lo_j, hi_j], each product rounded down; D >= sum mu_i d_i rounded up. */
    mu = w->mu_best;
    double lhs = 0, D = 0;
    for (int64_t i = 0; i < m; i++) {
        double di = vfy_sub_up(cs->rows[i].rhs_hi, C[i]);
        D = vfy_add_up(D, vfy_mul_up(mu[i], di));
    }
    for (int64_t j = 0; j < nx; j++) {
        double glo = 0, ghi = 0;
        for (int64_t i = 0; i < m; i++) {
            glo = vfy_add_down(glo, vfy_mul_down(mu[i], A[i * nx + j]));
            ghi = vfy_add_up(ghi, vfy_mul_up(mu[i], A[i * nx + j]));
        }
        double t = fmin(fmin(vfy_mul_down(glo, d->lo[j]), vfy_mul_down(glo, d->hi[j])),
                        fmin(vfy_mul_down(ghi, d->lo[j]), vfy_mul_down(ghi, d->hi[j])));
        lhs = vfy_add_down(lhs, t);
    }
    double v = vfy_sub_down(lhs, D);
    return v > 0;
}

/* Whether two of the case's rows contradict each other whatever the network: rows without X terms
 * with c_j = -t c_i for some t > 0 (checked exact), so that c_i·y <= r_i and c_i·y >= -r_j / t
 * cannot both hold when t r_i + r_j < 0 (r the outer ends rhs_hi, the sum rounded up): an empty
 * unsafe set, such as Y_g > Y_f + e and Y_g < Y_f - e asked together. */
static int rows_contradict(const vfy_case *cs, int64_t ny)
{
    for (int64_t i = 0; i < cs->n_rows; i++) {
        const vfy_row *a = &cs->rows[i];
        int64_t k = 0;
        while (!a->cx && k < ny && a->cy[k] == 0.0)
            k++;
        if (a->cx || k == ny)
            continue;
        for (int64_t j = i + 1; j < cs->n_rows; j++) {
            const vfy_row *b = &cs->rows[j];
            double t = b->cx ? 0.0 : -b->cy[k] / a->cy[k];
            int exact = t > 0 && isfinite(t);
            for (int64_t q = 0; q < ny && exact; q++) {
                double p = t * a->cy[q];
                exact = fma(t, a->cy[q], -p) == 0.0 && p == -b->cy[q];
            }
            /* SOUND: b = -t a exactly, and t rhs_hi_a + rhs_hi_b is at most the rounded-up sum */
            if (exact && vfy_add_up(vfy_mul_up(t, a->rhs_hi), b->rhs_hi) < 0)
                return 1;
        }
    }
    return 0;
}

/* After conj_refuted, a second chance for a multi-row case: bound the combination sum_i mu_i row_i
 * itself with one more backward pass, which chooses every relaxation for the combination instead of
 * combining bounds chosen for each row. mu (the best multipliers of the Farkas search) is rounded to
 * multiples of 2^-20 so that the combined coefficients are computed exactly (each product and sum is
 * checked exact; otherwise the attempt is skipped). An unsafe x satisfies every row_i <= rhs_i, so
 * sum_i mu_i row_i(x) <= sum_i mu_i rhs_hi_i =: R (rounded up); a lower bound above R refutes. */
static int combo_refuted(search *s, worker *w, const domain *d, const vfy_case *cs)
{
    const vfy_net *net = s->net;
    int64_t m = cs->n_rows, ny = net->n_out, nx = net->n_in;
    if (m < 2 || !w->mu_valid)
        return 0;
    double *cy = w->ccy, *cx = w->ccx;
    memset(cy, 0, (size_t)ny * sizeof(double));
    memset(cx, 0, (size_t)nx * sizeof(double));
    int has_cx = 0;
    double R = 0;
    for (int64_t i = 0; i < m; i++) {
        double mu = ldexp(nearbyint(ldexp(w->mu_best[i], 20)), -20);
        if (!(mu > 0))
            continue;
        const vfy_row *r = &cs->rows[i];
        R = vfy_add_up(R, vfy_mul_up(mu, r->rhs_hi));
        for (int pass = 0; pass < 2; pass++) {
            const double *src = pass ? r->cx : r->cy;
            double *dst = pass ? cx : cy;
            int64_t n = pass ? nx : ny;
            if (!src)
                continue;
            has_cx |= pass;
            for (int64_t j = 0; j < n; j++) {
                if (src[j] == 0)
                    continue;
                double p = mu * src[j];
                if (fma(mu, src[j], -p) != 0)
                    return 0; /* inexact product */
                double t = dst[j] + p, bb = t - dst[j];
                if ((dst[j] - (t - bb)) + (p - bb) != 0)
                    return 0; /* inexact sum (TwoSum) */
                dst[j] = t;
            }
        }
    }
    double lb;
    if (vfy_bound_rows(s->ctx, VFY_BOUND_CROWN, d->lo, d->hi, w->b, 1, cy, has_cx ? cx : NULL, &lb,
                       NULL, NULL) != VFY_OK)
        return 0;
    /* SOUND: cy, cx are exactly sum_i mu_i c_i and R >= sum_i mu_i rhs_hi_i */
    return lb > R;
}

/* Put the rows of the n cases listed in `cases`, one after another, into w->cy and w->cx (zero
 * where a row has no X part), each row's case (its place in `cases`) and rhs_hi into
 * w->row_case and w->row_rhs; returns how many rows. *has_cx (may be NULL): whether some row has
 * an X part. */
static int64_t stack_rows(const search *s, worker *w, int64_t n, const int64_t *cases,
                          int *has_cx)
{
    int64_t nx = s->net->n_in, ny = s->net->n_out, K = 0;
    int any = 0;
    for (int64_t a = 0; a < n; a++) {
        const vfy_case *cs = &s->spec->cases[cases[a]];
        for (int64_t i = 0; i < cs->n_rows; i++, K++) {
            memcpy(w->cy + K * ny, cs->rows[i].cy, (size_t)ny * sizeof(double));
            if (cs->rows[i].cx)
                memcpy(w->cx + K * nx, cs->rows[i].cx, (size_t)nx * sizeof(double));
            else
                memset(w->cx + K * nx, 0, (size_t)nx * sizeof(double));
            any |= cs->rows[i].cx != NULL;
            w->row_case[K] = a;
            w->row_rhs[K] = cs->rows[i].rhs_hi;
        }
    }
    if (has_cx)
        *has_cx = any;
    return K;
}

/* The rows of the n cases listed in `cases`. */
static int64_t rows_of(const search *s, const int64_t *cases, int64_t n)
{
    int64_t K = 0;
    for (int64_t a = 0; a < n; a++)
        K += s->spec->cases[cases[a]].n_rows;
    return K;
}

/* The end of the chunk of cases[a0 ..) bounded at once: as many as fit row_cap rows (one case at
 * least, which always fits); *K gets their rows. */
static int64_t case_chunk(const search *s, const int64_t *cases, int64_t n, int64_t a0, int64_t *K)
{
    int64_t a1 = a0;
    *K = 0;
    for (; a1 < n; a1++) {
        int64_t m = s->spec->cases[cases[a1]].n_rows;
        if (a1 > a0 && *K + m > s->row_cap)
            break;
        *K += m;
    }
    return a1;
}

/* The first row of d's case active[a] among the rows of all its cases (process_domain's order). */
static int64_t case_row0(const search *s, const domain *d, int64_t a)
{
    int64_t r = 0;
    for (int64_t q = 0; q < a; q++)
        r += s->spec->cases[d->active[q]].n_rows;
    return r;
}

/* Certificates: keep the proof parameters of row i of the last vfy_bound_rows_alpha(_batch) on
 * src as those of row `row` of the domain. Returns 0 when out of memory. */
static int keep_params(search *s, const vfy_bounds *src, const domain *d, dresult *r, int64_t i,
                       int64_t row)
{
    if (d->n_splits > r->cap_sp) {
        double *nb = vfy_alloc_array((size_t)(s->row_cap * d->n_splits), sizeof(double));
        if (!nb)
            return 0;
        vfy_free(r->par_beta);
        r->par_beta = nb;
        r->cap_sp = d->n_splits;
    }
    r->n_sp = d->n_splits;
    double *beta = r->par_beta ? r->par_beta + row * d->n_splits : NULL;
    if (!vfy_bound_best_params(s->ctx, src, i, r->par_alpha + row * s->n_half, beta) && beta)
        for (int64_t q = 0; q < d->n_splits; q++)
            beta[q] = 0;
    return 1;
}

/* The children's warm start: the best slopes and multipliers of the rows of r's open cases (in
 * r->active's order, which is d->active's with the refuted cases left out), the domain's rows being
 * those from row0 of the last batch on w->work. Returns 0 when out of memory; no warm start when
 * the domain's bound was not optimised. */
static int keep_warm(search *s, worker *w, const domain *d, dresult *r, int64_t row0)
{
    r->warm_rows = 0;
    r->warm_nsp = s->n_cuts + d->n_splits; /* (bound_splits') */
    int64_t stride = s->n_relu + r->warm_nsp, need = s->row_cap * stride;
    if (need > r->cap_warm) {
        float *nw = vfy_alloc_array((size_t)need, sizeof(float));
        if (!nw)
            return 0;
        vfy_free(r->warm);
        r->warm = nw;
        r->cap_warm = need;
    }
    int64_t row = 0, out = 0, q = 0;
    for (int64_t a = 0; a < d->n_active; a++) {
        int64_t m = s->spec->cases[d->active[a]].n_rows;
        if (q < r->n_active && r->active[q] == d->active[a]) {
            for (int64_t i = 0; i < m; i++)
                if (row0 < 0 ||
                    !vfy_bound_best_warm(s->ctx, w->work, row0 + row + i,
                                         r->warm + (out + i) * stride))
                    return 1;
            out += m;
            q++;
        }
        row += m;
    }
    r->warm_rows = out;
    return 1;
}

/* A domain whose ReLUs are all decided but whose cases are still open: re-bound the rows of those
 * cases with many alpha/beta iterations; the cases refuted now are dropped from r. Returns 1 when
 * none remains. */
static int leaf_refuted(search *s, worker *w, const domain *d, dresult *r)
{
    const vfy_spec *spec = s->spec;
    int64_t nx = s->net->n_in, K = stack_rows(s, w, r->n_active, r->active, NULL);
    if (K == 0)
        return 0;
    vfy_splits buf;
    const vfy_splits *sp;
    if (!bound_splits(s, w, 0, d, &buf, &sp) ||
        vfy_bound_rows_alpha(s->ctx, d->lo, d->hi, w->b, K, w->cy, w->cx, sp, LEAF_ITERS, w->lb,
                             w->lam_in, w->c_in) != VFY_OK)
        return 0;
    int64_t row0 = 0, kept = 0;
    for (int64_t a = 0; a < r->n_active; a++) {
        const vfy_case *cs = &spec->cases[r->active[a]];
        int refuted = 0;
        for (int64_t i = 0; i < cs->n_rows; i++)
            refuted |= w->lb[row0 + i] > cs->rows[i].rhs_hi; /* SOUND: as in process_domain */
        if (!refuted)
            refuted = conj_refuted(w, d, nx, cs, row0);
        if (!refuted)
            r->active[kept++] = r->active[a];
        else if (s->cert) {
            /* this case's rows were bounded here, not in process_domain */
            int64_t pos = 0;
            while (d->active[pos] != r->active[a])
                pos++;
            int64_t dr = case_row0(s, d, pos);
            for (int64_t i = 0; i < cs->n_rows; i++)
                if (!keep_params(s, w->b, d, r, row0 + i, dr + i))
                    return 0;
        }
        row0 += cs->n_rows;
    }
    r->n_active = kept;
    return kept == 0;
}

/* The LP stage of a domain (issue 4): each open case is bounded over the triangle LP of the domain
 * (GLPK, safe dual bound). When the relaxation has at most `exact_max` unstable ReLUs, their phases
 * are then enumerated depth-first with warm-started LPs: a phase assignment whose LP bound is
 * positive is refuted; one with every phase fixed is exact up to the float32 perturbation, and its
 * optimum is a candidate counterexample, confirmed by the forward pass or else left open. Cases
 * refuted are dropped from r; returns 1 when r became SAT. Budget: at most `max_nodes` LPs per case. */
#define EXACT_MAX_NODES 64
#define PROGRESS_EVERY 2.0        /* seconds between the search's progress lines (-vv) */
#define PHASE1_SHARE 0.1          /* of the time, for the first search before LP tightening */
#define PHASE1_DEFAULT_S 30        /* the same without a timeout */
/* the root's hidden-bound slopes kept for the domains (vfy_bound_slopes) up to this size: mnist_fc
 * 256x6 takes 16 MB */
#define SLOPES_MAX_BYTES ((size_t)256 << 20)
#define HIDDEN_ALPHA_ITERS 20      /* alpha-CROWN steps per hidden bound at the root */
/* Sigmoid/Tanh nets: passes of 3, 9, 27 times HIDDEN_ALPHA_ITERS steps follow while they fit */
#define HIDDEN_ALPHA_DEEPEN 3
#define HIDDEN_ALPHA_ITERS_MAX 540
/* of the time left after the first pass, for those. At a fifth, 30 s (eran's 10% timeouts) left
 * no room for the 60-step pass (7 s); at a half it runs and proves idx 3881, 4857, 3991, 3789,
 * 4214 and 6553 at the root in 9-10 s, which 30 s of splitting Sigmoids at 0 did not */
#define HIDDEN_ALPHA_DEEPEN_SHARE 0.5
/* of the whole time left (not the phase's), for the root's first pass and its pass with facets */
#define HIDDEN_ALPHA_SHARE 0.2
/* of the time left, for refining the root's hidden layers (ending once the root is proved), and
 * for its layers whose searches are mostly of a sign (vfy_refine_hidden_until's dl_sign). Proving
 * signs makes the deep nets' bounds: mnist_fc 256x6 prop_1_0.03 needs about 200 s of refinement
 * (its sign proofs on the last hidden layer take 2.4 s at the median: 69 of 1 s each proved 3),
 * and the search after it stalls within 0.6 of the goal; with 0.7 of the time for every layer it
 * is proved in 186 s and 203 s (timeouts with half; 183 s with 0.7 for the sign layers only),
 * 256x6 prop_10/13_0.05 in 98 / 130 s (109 / 137 s), while 256x4 prop_6_0.03 / prop_9_0.05,
 * whose search after the refinement does the work, take 153 / 141 s (127 / 125 s). On oval21
 * nearly every neuron is seen at both signs (only its bounds are searched) and the search after
 * does the work: 0.7 for every layer lost deep img4168 (50 s to a timeout at 72 s) and took
 * img4510 from 7 s to 55 s. With four fifths 256x4 prop_9_0.05 timed out (an earlier session). */
#define REFINE_SHARE 0.5
#define REFINE_SIGN_SHARE 0.7
/* The first search goes on, its frontier kept, when the refinement decided fewer than one in
 * REFINE_KEEP of the root's unstable ReLUs (a new root would mostly repeat it); the refinement
 * ends once that many are out of its reach (vfy_refine_hidden_until's min_proved): cifar_wide_kw
 * img3458 at 720 s spent 59 s on its last layer's bounds after 16 of 1,582 were proved, to be
 * thrown away, and ended with 3,040 domains open, 150 fewer every 2.4 s. */
#define REFINE_KEEP 20

/* The first phase ends early on a box whose gap it cannot close: once it has had GAP_MIN_ROUNDS
 * rounds and a quarter of its time after the root's bound (GAP_MIN_ELAPSED), while more than half
 * of the root's gap is left (GAP_LEFT) and the rate of the last half of that time would close less
 * than a quarter of it by the phase's end (GAP_CLOSE): the refinement gets the time instead.
 * mnist_fc 256x6 prop_12_0.05: 30 s of first phase took the worst gap from -1686 to -1520, and the
 * refinement needs all the time it can get (at 900 s: 286 s, after which the search proved it in
 * 24 s). A search closing its gap in time moves it faster than that, and a nearly closed gap never
 * ends the phase (oval21's instances proved late in their first phase are not cut). */
#define GAP_MIN_ELAPSED 0.25
#define GAP_LEFT 0.5
#define GAP_CLOSE 0.25
#define GAP_MIN_ROUNDS 8

void vfy_gap_track_reset(vfy_gap_track *gt)
{
    gt->n = 0;
    gt->t0 = NAN;
    gt->root = NAN;
}

void vfy_gap_track_add(vfy_gap_track *gt, double t, double g)
{
    if (!(g < 0) || !isfinite(g))
        return;
    if (isnan(gt->root)) {
        gt->root = g;
        gt->t0 = t;
    }
    if (gt->n == VFY_GAP_TRACK_MAX) { /* every other one kept: the times stay spread out */
        for (int i = 0; i < VFY_GAP_TRACK_MAX / 2; i++) {
            gt->t[i] = gt->t[2 * i + 1];
            gt->g[i] = gt->g[2 * i + 1];
        }
        gt->n = VFY_GAP_TRACK_MAX / 2;
    }
    gt->t[gt->n] = t;
    gt->g[gt->n] = g;
    gt->n++;
}

/* The rate at which the recorded gap closed over the last half of the time since the root (NaN
 * when it cannot be told). */
static double gap_rate(const vfy_gap_track *gt, double t)
{
    double g = gt->g[gt->n - 1], t_half = gt->t0 + 0.5 * (t - gt->t0);
    int i = 0;
    while (i + 1 < gt->n && gt->t[i + 1] <= t_half)
        i++;
    double dt = t - gt->t[i];
    return dt > 0 ? (g - gt->g[i]) / dt : NAN;
}

int vfy_gap_hopeless(const vfy_gap_track *gt, double t, double t_end)
{
    if (gt->n < GAP_MIN_ROUNDS || !(t - gt->t0 >= GAP_MIN_ELAPSED * (t_end - gt->t0)) ||
        !(t < t_end))
        return 0;
    double g = gt->g[gt->n - 1];
    if (!(g < GAP_LEFT * gt->root))
        return 0;
    double rate = gap_rate(gt, t);
    return !isnan(rate) && rate * (t_end - t) < GAP_CLOSE * -g;
}

/* The first phase, at its end, goes on without the refinement when the rate of the last half of
 * its time would close what is left of the gap within GAP_ON_TRACK of the time left (a search's
 * gap closes ever more slowly: the margin covers that). On oval21 the refinement decides a
 * handful of 400 unstable neurons, and with the full 720 s it took cifar_wide_kw img8517 128 s
 * for the same tree: 374 s against 248 s with --no-refine (57,515 and 57,503 domains);
 * mnist_fc's searches that need it end their first phase as hopeless (256x4 prop_9_0.05: -9.29
 * of the root's -13.18 after 8.6 s). A search that stalls later still ends as hopeless and is
 * refined then. */
#define GAP_ON_TRACK 0.25

int vfy_gap_on_track(const vfy_gap_track *gt, double t, double t_final)
{
    if (gt->n < GAP_MIN_ROUNDS || !(t < t_final))
        return 0;
    double rate = gap_rate(gt, t);
    return rate > 0 && -gt->g[gt->n - 1] <= rate * GAP_ON_TRACK * (t_final - t);
}

#define ROOT_TIGHTEN_DEFAULT_S 60 /* the same without a timeout */
#define FINAL_ATTACK_ROUNDS 8 /* attack rounds after an unresolved search when there is no deadline */
#define LP_WARMUP 64 /* domains given the LP stage before its record decides */
#define LP_TIME_SHARE 0.2 /* of the workers' time, at most, for an LP stage that does not pay */
#define LP_BUILD_MAX_MADDS 4e9 /* AUTO: no LP stage when building a domain's LP costs more */
#define ATTACK_SHARE 0.1 /* of the time left, at most, for the attack before (and between) the phases */
#define ATTACK_QUICK_MADDS 2e9 /* multiply-adds of the first attack when the full one would cost more */
#define ATTACK_LAYER_OVERHEAD 100.0 /* an evaluation's overhead a layer, in multiply-adds' time */

/* The Sigmoid/Tanh lines' ascent takes a step that decays over a call's iterations, and after
 * HIDDEN_ALPHA_ITERS steps per hidden bound it is far from converged: on eran's sigmoid net the
 * root's worst gap was -3.94 after 20 steps, -0.30 after 60 and -0.066 after 180 (idx 3789, before
 * the lines' gradient was taken at the relaxed network's point; now 3881: -0.42 after 20 steps,
 * proved after 60). So while the root stands open and a pass HIDDEN_ALPHA_DEEPEN times as long as
 * the last (`took` seconds) is expected to end within HIDDEN_ALPHA_DEEPEN_SHARE of the time left,
 * the hidden layers are tightened again with that many times the steps. A pass that would end past
 * *t_long (when the search's long attack is due) waits for that attack, which then does not run
 * again (*t_long = INFINITY): a violation is not left behind a minute of tightening (eran sigmoid
 * idx 7259 at 300 s: the long attack found it at 85.6 s, after the 540-step pass). SOUND: each pass
 * is vfy_bound_tighten_alpha's, which keeps the better of a bound and its new value. */
/* The root's pass with facets (fully connected nets) starts with at least this many times the plain
 * pass's time left in the phase (vfy_verify) */
#define FACET_PASS_ROOM 4.0
static int root_refuted(search *s, worker *w, const domain *d);
static int64_t open_cases(search *s, worker *w, const domain *d, int64_t *open,
                          unsigned char *done);
static int64_t attack_all(search *s, vfy_verify_result *res, vfy_rng *rng, int n_samples,
                          int starts, int steps, double share);
typedef struct long_attack {
    double *t_long;            /* when it is due; INFINITY once run */
    vfy_rng *rng;
    int n_samples, steps;
} long_attack;
static vfy_status deepen_root(search *s, const domain *root, vfy_bounds *b0, double took,
                              vfy_verify_result *res, const long_attack *la)
{
    vfy_status st = VFY_OK;
    vfy_deadline dl = {vfy_now() + ROOT_TIGHTEN_DEFAULT_S, 0};
    if (isfinite(s->dl.t_end))
        dl.t_end = vfy_now() + HIDDEN_ALPHA_DEEPEN_SHARE * (s->dl.t_end - vfy_now());
    for (int iters = HIDDEN_ALPHA_ITERS * HIDDEN_ALPHA_DEEPEN; iters <= HIDDEN_ALPHA_ITERS_MAX;
         iters *= HIDDEN_ALPHA_DEEPEN) {
        double t0 = vfy_now();
        if (t0 + HIDDEN_ALPHA_DEEPEN * took > dl.t_end || vfy_deadline_over(&s->dl) ||
            root_refuted(s, &s->workers[0], root))
            break;
        if (t0 + HIDDEN_ALPHA_DEEPEN * took > *la->t_long) {
            *la->t_long = INFINITY;
            attack_all(s, res, la->rng, la->n_samples, 16, la->steps, ATTACK_SHARE);
            if (res->verdict == VFY_SAT) {
                vfy_log(1, "counterexample found by the long attack before a deeper pass");
                break;
            }
            if (vfy_deadline_over(&s->dl) || vfy_now() + HIDDEN_ALPHA_DEEPEN * took > dl.t_end)
                break;
        }
        int64_t n = 0;
        st = vfy_bound_tighten_alpha_rec(s->ctx, root->lo, root->hi, b0, iters, &dl, &n, NULL, NULL);
        if (st != VFY_OK)
            break;
        res->root_deepened++;
        took = vfy_now() - t0;
        vfy_log(2, "root: a pass of %d steps per hidden bound tightened %lld in %.2f s", iters,
                (long long)n, took);
    }
    return st;
}

/* The root with every ReLU that the refinement (or the re-bounding after it) made stable as a split
 * of its sign (a new domain; NULL when out of memory): z_j >= 0 (or <= 0) holds over the whole box,
 * so it is a valid constraint, and beta-CROWN's multiplier on it (as on a branching split) tightens
 * the root's bound beyond clamping the neuron: the relaxation of the layers before it admits
 * points where z_j has the other sign, which the multiplier prices (the LP with the same layer
 * bounds has the constraint; CROWN's backward pass alone does not). before: the root's flat bounds
 * before the refinement, after: now. SOUND: each split holds for every input of the box (the
 * bounds are proved). */
static domain *constrained_root(search *s, const domain *root, const double *before,
                                const double *after, int64_t *n_new)
{
    int64_t half = s->n_half, nx = s->net->n_in, n = 0;
    domain *d = NULL;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            d = domain_new(nx, s->n_flat, root->n_active, root->n_splits + n, 0);
            if (!d)
                return NULL;
            memcpy(d->lo, root->lo, (size_t)nx * sizeof(double));
            memcpy(d->hi, root->hi, (size_t)nx * sizeof(double));
            memcpy(d->active, root->active, (size_t)root->n_active * sizeof(int64_t));
            memcpy(d->split_idx, root->split_idx, (size_t)root->n_splits * sizeof(int64_t));
            memcpy(d->split_sign, root->split_sign, (size_t)root->n_splits);
            memcpy(d->split_off, root->split_off, (size_t)root->n_splits * sizeof(double));
            d->depth = root->depth;
            d->prio = root->prio;
            d->seq = root->seq;
        }
        int64_t q = root->n_splits;
        for (int64_t f = 0; f < half; f++) {
            int64_t k = vfy_bound_flat_layer(s->ctx, f);
            if (k + 1 >= s->net->n_layers || s->net->layers[k + 1].kind != VFY_LAYER_RELU ||
                !(before[f] < 0 && before[half + f] > 0))
                continue;
            int sign = after[f] >= 0 ? 1 : (after[half + f] <= 0 ? -1 : 0);
            if (sign == 0)
                continue;
            if (d) {
                d->split_idx[q] = f;
                d->split_sign[q] = (signed char)sign;
            }
            q++;
        }
        n = q - root->n_splits;
    }
    *n_new = n;
    return d;
}

/* The refinement ends once the root's rows are refuted on the bounds it has reached, its
 * constraints included (the search after it would end at its root) */
typedef struct {
    search *s;
    const domain *root;
    const double *before;
    double *now;
} refine_check;

static int refine_settled(void *user)
{
    refine_check *rc = user;
    search *s = rc->s;
    int64_t n = 0;
    vfy_bounds_export(s->ctx, s->workers[0].b, rc->now);
    domain *d = constrained_root(s, rc->root, rc->before, rc->now, &n);
    int settled = d && root_refuted(s, &s->workers[0], d);
    domain_free(d);
    return settled;
}

/* Second phase: decide unstable hidden neurons of the root by prefix searches (refine.h), the
 * neurons that matter most to the box's rows (their branching scores) first, within dl (dl_sign for
 * a layer whose searches are mostly of a sign). *n_proved counts the neurons made stable; it ends
 * once min_proved of them are out of reach. Only running out of memory is an error; any other
 * failure of the refinement leaves the bounds as they were proved so far (each change is a proof
 * of its own). */
static vfy_status refine_root(search *s, const domain *root, int64_t bi, const int64_t *box_cases,
                              int64_t nc, const vfy_deadline *dl, const vfy_deadline *dl_sign,
                              int64_t min_proved, int64_t *n_proved)
{
    worker *w = &s->workers[0];
    *n_proved = 0;
    double *score = vfy_alloc_array((size_t)s->n_half + 1, sizeof(double));
    double *before = vfy_alloc_array((size_t)s->n_flat + 1, sizeof(double));
    double *now = vfy_alloc_array((size_t)s->n_flat + 1, sizeof(double));
    if (!score || !before || !now) {
        vfy_free(score);
        vfy_free(before);
        vfy_free(now);
        return VFY_ERR_NOMEM;
    }
    vfy_bounds_export(s->ctx, w->b, before);
    /* the scores of all of the box's rows: sums over the rows, so over chunks of row_cap (now
     * holds a chunk's until the refinement uses it) */
    vfy_status st = VFY_OK;
    for (int64_t a0 = 0, a1, K; a0 < nc && st == VFY_OK; a0 = a1) {
        a1 = case_chunk(s, box_cases, nc, a0, &K);
        int has_cx;
        stack_rows(s, w, a1 - a0, box_cases + a0, &has_cx);
        st = vfy_bound_relu_scores(s->ctx, root->lo, root->hi, w->b, K, w->cy,
                                   has_cx ? w->cx : NULL, a0 == 0 ? score : now, NULL);
        for (int64_t q = 0; a0 > 0 && st == VFY_OK && q < s->n_half; q++)
            score[q] += now[q];
    }
    if (st != VFY_OK) {
        vfy_free(score);
        vfy_free(before);
        vfy_free(now);
        return st;
    }
    vfy_refine_stats rs;
    vfy_error err;
    double t0 = vfy_now();
    /* the prefix searches re-bound their domains from this root's kept slopes too */
    vfy_verify_opts ro = *s->opts;
    ro.hidden_slopes = s->slopes;
    refine_check rc = {s, root, before, now};
    st = vfy_refine_hidden_until(s->ctx, &s->spec->boxes[bi], w->b, score, &ro, dl, dl_sign,
                                 min_proved, refine_settled, &rc, &rs, &err);
    vfy_free(score);
    *n_proved = rs.proved;
    vfy_log(1, "refine: %lld of %lld candidates proved stable, %lld more tightened, in %lld prefix "
               "searches (%lld run again; %lld seen unstable; %lld domains re-bounded), %.2f s",
            (long long)rs.proved, (long long)rs.candidates, (long long)rs.tightened,
            (long long)rs.searches, (long long)rs.retried, (long long)rs.observed,
            (long long)rs.rebounded,
            vfy_now() - t0);
    if (st != VFY_OK && st != VFY_ERR_NOMEM) {
        vfy_log(1, "refine: stopped: %s", err.msg);
        st = VFY_OK;
    }
    /* (the search after does not carry the neurons made stable as constraints, as the prefix
     * searches do: on mnist_fc 256x4 prop_7_0.05 its domains were slower and its gaps worse, a
     * timeout at 300 s against 99.8 s without) */
    vfy_free(before);
    vfy_free(now);
    return st;
}

/* Unstable ReLUs of the layer bounds in b (pre-activation bounds straddling 0). */
static int64_t count_unstable(const search *s, const vfy_bounds *b)
{
    int64_t n = 0;
    for (int64_t k = 1; k < s->net->n_layers; k++) {
        if (s->net->layers[k].kind != VFY_LAYER_RELU)
            continue;
        const double *lo = b->lo[k - 1], *hi = b->hi[k - 1];
        for (int64_t j = 0; j < s->net->layers[k].n_out; j++)
            n += lo[j] < 0 && hi[j] > 0;
    }
    return n;
}
/* A case's rows into w->cy, w->cx (zeros where a row has none) and their rhs_hi into w->lb: the
 * form vfy_lp_case_begin takes. */
static void case_rows(const search *s, worker *w, const vfy_case *cs)
{
    int64_t nx = s->net->n_in, ny = s->net->n_out;
    for (int64_t i = 0; i < cs->n_rows; i++) {
        memcpy(w->cy + i * ny, cs->rows[i].cy, (size_t)ny * sizeof(double));
        if (cs->rows[i].cx)
            memcpy(w->cx + i * nx, cs->rows[i].cx, (size_t)nx * sizeof(double));
        else
            memset(w->cx + i * nx, 0, (size_t)nx * sizeof(double));
        w->lb[i] = cs->rows[i].rhs_hi;
    }
}

static int lp_stage(search *s, worker *w, const domain *d, dresult *r, int64_t exact_max)
{
    const vfy_net *net = s->net;
    const vfy_spec *spec = s->spec;
    int64_t nx = net->n_in, ny = net->n_out;
    vfy_lp *lp = NULL;
    vfy_error err;
    vfy_status bst = vfy_lp_build_compact(s->ctx, d->lo, d->hi, w->b, exact_max, s->relu_split,
                                          &lp, &err);
    if (bst == VFY_ERR_INVALID)
        bst = vfy_lp_build(s->ctx, d->lo, d->hi, w->b, &lp, &err);
    if (bst != VFY_OK)
        return 0;
    vfy_lp_set_deadline(lp, &s->dl);
    int64_t U = vfy_lp_unstable(lp, 0, NULL, NULL, NULL);
    int exact = U <= exact_max && U <= 62;
    int64_t *ul = NULL, *ui = NULL;
    double *viol = NULL;
    signed char *phase = NULL, *stack = NULL;
    if (exact) {
        ul = vfy_alloc_array((size_t)U + 1, sizeof(int64_t));
        ui = vfy_alloc_array((size_t)U + 1, sizeof(int64_t));
        viol = vfy_alloc_array((size_t)U + 1, sizeof(double));
        phase = vfy_alloc((size_t)U + 1);
        stack = vfy_alloc((size_t)(U + 1) * (size_t)(EXACT_MAX_NODES + U + 2));
        if (!ul || !ui || !viol || !phase || !stack)
            exact = 0;
        else
            vfy_lp_unstable(lp, U, ul, ui, NULL);
    }
    int sat = 0;
    int64_t kept = 0;
    for (int64_t a = 0; a < r->n_active && !sat; a++) {
        int64_t c = r->active[a];
        const vfy_case *cs = &spec->cases[c];
        case_rows(s, w, cs);
        int refuted = 0;
        if (vfy_lp_case_begin(lp, cs->n_rows, w->cy, w->cx, w->lb) == VFY_OK) {
            double v;
            vfy_lp_case_solve(lp, &v, w->cand);
            refuted = v > 0; /* SOUND: a safe bound above 0 of max_i (row_i - rhs_hi_i) */
            if (!refuted && try_candidate(s, w, c, w->cand, r))
                sat = 1;
            if (!refuted && !sat && exact) {
                /* depth-first over phase assignments; a stack entry is a full assignment */
                int64_t top = 0, nodes = 0, open = 0;
                memset(stack, 0, (size_t)U);
                top = 1;
                memset(phase, 0, (size_t)U);
                while (top > 0 && !sat) {
                    if (nodes >= EXACT_MAX_NODES || vfy_deadline_over(&s->dl)) {
                        open = 1;
                        break;
                    }
                    top--;
                    const signed char *want = stack + top * U;
                    int ok = 1;
                    for (int64_t q = 0; q < U && ok; q++)
                        if (phase[q] != want[q]) {
                            ok = vfy_lp_fix_relu(lp, ul[q], ui[q], want[q]) == VFY_OK;
                            phase[q] = ok ? want[q] : phase[q];
                        }
                    if (!ok)
                        continue; /* an impossible phase within the bounds: nothing to refute */
                    nodes++;
                    vfy_lp_case_solve(lp, &v, w->cand);
                    if (v > 0)
                        continue; /* SOUND: as above, under these phases */
                    if (try_candidate(s, w, c, w->cand, r)) {
                        sat = 1;
                        break;
                    }
                    vfy_lp_unstable(lp, U, ul, ui, viol);
                    int64_t pick = -1;
                    for (int64_t q = 0; q < U; q++)
                        if (phase[q] == 0 && (pick < 0 || viol[q] > viol[pick]))
                            pick = q;
                    if (pick < 0) {
                        open = 1; /* every phase fixed, yet neither refuted nor confirmed */
                        continue;
                    }
                    for (int sg = -1; sg <= 1; sg += 2) {
                        signed char *child = stack + top * U;
                        memcpy(child, phase, (size_t)U);
                        child[pick] = (signed char)sg;
                        top++;
                    }
                }
                if (!sat && !open && top == 0)
                    refuted = 1;
                for (int64_t q = 0; q < U; q++)
                    if (phase[q] != 0) {
                        vfy_lp_fix_relu(lp, ul[q], ui[q], 0);
                        phase[q] = 0;
                    }
            }
            vfy_lp_case_end(lp);
        }
        if (!refuted && !sat) {
            if (kept != a) { /* keep each open case's best row beside it (ReLU branching scores) */
                memmove(w->bcy + kept * ny, w->bcy + a * ny, (size_t)ny * sizeof(double));
                memmove(w->bcx + kept * nx, w->bcx + a * nx, (size_t)nx * sizeof(double));
                w->brhs[kept] = w->brhs[a];
                w->bprow[kept] = w->bprow[a];
            }
            r->active[kept++] = c;
        }
        if (refuted)
            atomic_fetch_add(&s->lp_refuted, 1);
    }
    vfy_lp_stats ls;
    vfy_lp_stats_get(lp, &ls);
    atomic_fetch_add(&s->lp_solves, ls.solves);
    atomic_fetch_add(&s->lp_domains, 1);
    if (!sat)
        r->n_active = kept;
    vfy_free(ul);
    vfy_free(ui);
    vfy_free(viol);
    vfy_free(phase);
    vfy_free(stack);
    vfy_lp_free(lp);
    return sat;
}

/* The root's LP with ideal cuts (lp.c: vfy_lp_case_solve_cuts): each open case of the root is
 * bounded over the triangle LP of the whole network on the root's layer bounds (w->b),
 * strengthened by rounds of the single-neuron convex hulls over their inputs' boxes that the
 * optimum violates (the cuts stay in the LP for the next case). Where a ReLU's inputs cannot
 * reach the ends of its interval together the triangle is far from that hull: verivital's
 * Convnet_avgpool prop_7_0.04 (one ReLU layer of 23,328, 5,299 unstable; the 2x2 kernels' inputs
 * are independent pixels) has a triangle LP of -0.449 on its hard row (alpha-CROWN -0.450, the
 * search closed it to -0.24 in 120 s), and 0.490 with the cuts (an attack's best 0.554), in
 * 5.8 s. It runs on the cases alpha-CROWN leaves open, when every unstable ReLU can be cut
 * (all_cuttable). Refuted cases leave the root (and are marked in s->case_done); returns how many
 * are left, -1 out of memory.
 * SOUND: a positive safe dual bound of the conjunction over a relaxation of every real point. */
#define ROOT_LP_ROUNDS 20     /* rounds of cuts per case */
/* of the time left, at most, for it (a case that will not be refuted stops after a few rounds: see
 * lp.c's solve_cuts); verivital prop_7_0.04 takes 6.4 s, a quarter of 30 s would be 7.4 s */
#define ROOT_LP_SHARE 0.4
#define ROOT_LP_DEFAULT_S 60  /* the same without a timeout */
#define ROOT_LP_MISSES 3      /* boxes it may refute nothing on before it is turned off */
/* Whether every unstable ReLU of the bounds b has at most VFY_LP_CUT_MAX_FANIN nonzero weights
 * into it (a ReLU on the inputs themselves: its hull is the triangle), so that the LP with ideal
 * cuts is the single-neuron hull relaxation of the whole network. Where some are left to their
 * triangles the LP stays near alpha-CROWN and costs more than the search it would spare: on
 * oval21 (the first convolution's 48 inputs a neuron, the later ones' hundreds; 81-91% of the
 * unstable ReLUs cuttable) it refuted nothing and took 1-17 s of the 72 s, cifar_deep_kw img4325
 * 19.4 s against 2.3 s, and img3568 was lost. */
static int all_cuttable(const search *s, const vfy_bounds *b)
{
    const vfy_net *net = s->net;
    int64_t n = 0;
    for (int64_t k = 1; k < net->n_layers; k++) {
        if (net->layers[k].kind != VFY_LAYER_RELU)
            continue;
        /* (after a SCALE layer a ReLU has one input: its hull is the triangle, nothing to cut) */
        const vfy_layer *A = &net->layers[k - 1];
        if (A->kind != VFY_LAYER_DENSE)
            return 0;
        for (int64_t j = 0; j < A->n_out; j++) {
            if (!(b->lo[k - 1][j] < 0 && b->hi[k - 1][j] > 0))
                continue;
            n++;
            const int64_t *idx;
            const double *wv;
            int64_t nz, fan = 0;
            vfy_layer_row(A, j, &idx, &wv, &nz);
            for (int64_t t = 0; t < nz; t++)
                fan += wv[t] != 0.0;
            if (fan > VFY_LP_CUT_MAX_FANIN)
                return 0;
        }
    }
    return n > 0;
}

static int64_t root_lp(search *s, worker *w, domain *root, double t_final, vfy_verify_result *res)
{
    const vfy_spec *spec = s->spec;
    const vfy_bounds *b = w->b;
    vfy_deadline ldl = {vfy_now() + ROOT_LP_DEFAULT_S, 0};
    if (isfinite(t_final))
        ldl.t_end = vfy_now() + ROOT_LP_SHARE * (t_final - vfy_now());
    double t0 = vfy_now();
    if (!all_cuttable(s, b)) {
        if (res->root_lp_refuted == 0 && ++s->root_lp_misses >= ROOT_LP_MISSES)
            s->root_lp_on = 0;
        return root->n_active;
    }
    /* the cases alpha-CROWN refutes on b need no LP */
    int64_t open = open_cases(s, w, root, root->active, s->case_done);
    if (open >= 0)
        root->n_active = open;
    if (root->n_active == 0)
        return 0;
    vfy_lp *lp = NULL;
    vfy_error err;
    vfy_status st = vfy_lp_build(s->ctx, root->lo, root->hi, b, &lp, &err);
    if (st != VFY_OK)
        return st == VFY_ERR_NOMEM ? -1 : root->n_active;
    int64_t n_cand = vfy_lp_cut_candidates(lp), n_unst = vfy_lp_unstable(lp, 0, NULL, NULL, NULL);
    vfy_log(2, "root LP: %lld of %lld unstable ReLUs may be cut", (long long)n_cand,
            (long long)n_unst);
    if (n_cand == 0) { /* the triangle LP alone: alpha-CROWN's match */
        vfy_lp_free(lp);
        vfy_lp_thread_done();
        if (res->root_lp_refuted == 0 && ++s->root_lp_misses >= ROOT_LP_MISSES)
            s->root_lp_on = 0;
        return root->n_active;
    }
    vfy_lp_set_deadline(lp, &ldl);
    int64_t kept = 0, n0 = root->n_active;
    for (int64_t a = 0; a < n0; a++) {
        int64_t c = root->active[a];
        const vfy_case *cs = &spec->cases[c];
        double v = -INFINITY;
        if (!vfy_deadline_over(&ldl)) {
            case_rows(s, w, cs);
            st = vfy_lp_case_begin(lp, cs->n_rows, w->cy, w->cx, w->lb);
            if (st == VFY_OK)
                st = vfy_lp_case_solve_cuts(lp, ROOT_LP_ROUNDS, &v, NULL);
            vfy_lp_case_end(lp);
            if (st == VFY_ERR_NOMEM) {
                vfy_lp_free(lp);
                vfy_lp_thread_done();
                return -1;
            }
        }
        vfy_log(2, "root LP: case %lld: %.6g after %.2f s", (long long)c, v, vfy_now() - t0);
        if (v > 0) /* SOUND: as above */
            s->case_done[c] = 1;
        else
            root->active[kept++] = c;
    }
    vfy_lp_stats ls;
    vfy_lp_stats_get(lp, &ls);
    vfy_log(1, "root LP with ideal cuts: %lld of %lld cases refuted in %.2f s (%lld cuts, "
               "%lld solves, %lld columns)", (long long)(n0 - kept), (long long)n0,
            vfy_now() - t0, (long long)ls.cuts, (long long)ls.solves, (long long)ls.cols);
    vfy_lp_free(lp);
    vfy_lp_thread_done();
    res->root_lp_refuted += n0 - kept;
    /* a spec of many boxes stops giving it time once it has refuted nothing on ROOT_LP_MISSES */
    if (res->root_lp_refuted == 0 && ++s->root_lp_misses >= ROOT_LP_MISSES)
        s->root_lp_on = 0;
    root->n_active = kept;
    return kept;
}

/* alpha-CROWN on w's bounds over d's cases: the cases it leaves open are written to open[] (may be
 * d->active itself; NULL: only counted), the others marked in done[] (may be NULL). Returns how
 * many are open, -1 when nothing was bounded (no rows, or a failure). */
static int64_t open_cases(search *s, worker *w, const domain *d, int64_t *open,
                          unsigned char *done)
{
    const vfy_spec *spec = s->spec;
    vfy_splits buf; /* (a root's constraints, and the cuts) */
    const vfy_splits *sp;
    if (!bound_splits(s, w, 0, d, &buf, &sp))
        return -1;
    /* the cases a chunk at a time (case_chunk): a root's rows may not all fit the buffers. Past
     * the deadline the cases left stay open, unbounded (open[] may be d->active: an entry is
     * read before any write reaches it) */
    int64_t n = 0, bounded = 0;
    for (int64_t a0 = 0, a1, K; a0 < d->n_active; a0 = a1) {
        a1 = case_chunk(s, d->active, d->n_active, a0, &K);
        int go = K > 0 && !(bounded > 0 && vfy_deadline_over(&s->final_dl));
        if (go) {
            /* a case's rows leave the ascent once one of them is refuted (stop_lb) */
            int has_cx;
            stack_rows(s, w, a1 - a0, d->active + a0, &has_cx);
            vfy_alpha_job job = {w->b, d->lo, d->hi, K, w->cy, has_cx ? w->cx : NULL, sp,
                                 NULL, 0, 0, w->lb, w->lam_in, w->c_in, NULL, 0,
                                 w->row_rhs, w->row_case, &s->final_dl};
            if (vfy_bound_rows_alpha_batch(s->ctx, w->b, 1, &job, s->alpha_iters) != VFY_OK)
                return -1;
            bounded += K;
        }
        for (int64_t a = a0, row0 = 0; a < a1; a++) {
            int64_t c = d->active[a];
            const vfy_case *cs = &spec->cases[c];
            int refuted = 0;
            for (int64_t i = 0; go && i < cs->n_rows; i++)
                refuted |= w->lb[row0 + i] > cs->rows[i].rhs_hi; /* SOUND: a row refuted */
            if (!refuted && open)
                open[n] = c;
            n += !refuted;
            if (refuted && done)
                done[c] = 1;
            row0 += cs->n_rows;
        }
    }
    return bounded > 0 ? n : -1;
}

/* Whether alpha-CROWN on the layer bounds in w->b (already computed for d) refutes every case of d
 * by a single row: then the search needs nothing more at the root. */
static int root_refuted(search *s, worker *w, const domain *d)
{
    return open_cases(s, w, d, NULL, NULL) == 0;
}

/* Append to cand[0 .. *nc) the neurons of the best scores (ties: lower index first) that are not
 * in it yet, until it holds n_max. */
static void top_scores(const double *score, int64_t n, int64_t *cand, int *nc, int n_max)
{
    int n0 = *nc, m = n0;
    for (int64_t q = 0; q < n; q++) {
        double v = score[q];
        if (!(v > 0))
            continue;
        int dup = 0;
        for (int t = 0; t < n0 && !dup; t++)
            dup = cand[t] == q;
        if (dup)
            continue;
        /* insertion into the top list, best score first */
        int pos = m;
        while (pos > n0 && score[cand[pos - 1]] < v)
            pos--;
        if (pos >= n_max)
            continue;
        if (m < n_max)
            m++;
        for (int t = m - 1; t > pos; t--)
            cand[t] = cand[t - 1];
        cand[pos] = q;
    }
    *nc = m;
}

/* The ReLU to split (flat index; -1 if none is unstable, -2 out of memory), by filtered smart
 * branching: the BRANCH_CANDIDATES neurons of the best scores (BRANCH_INTERCEPT of the best
 * intercept scores w->iscore, the rest of the best BaBSR-style scores w->rscore) are each looked
 * ahead (vfy_bound_split_lb_params: both children bounded with the slopes and multipliers
 * that gave the domain its bound, later layers not re-bounded), and
 * the one whose two children leave the least total deficit, the sum over open cases of
 * min(bound - rhs, 0), wins; ties go to the earlier in that list.
 * closed[h]: the winner's child h (0: z <= 0, 1: z >= 0) has every open case refuted by its
 * look-ahead bound, which is a sound bound of that child (its layer bounds are the domain's,
 * which hold on the child, the split neuron clamped; any slope in [0, 1] and multiplier >= 0 is
 * sound; the float32 products are charged as everywhere else): it need not be bounded again.
 * On mnist_fc 256x4 prop_10_0.05 one child in five (520 of 2,652) was closed so; on oval21's
 * wide net 1 of 356 (its children's own passes are what tighten it). What it saves is mostly
 * the child's re-bounding of the later layers (its first alpha pass would refute it too): on
 * 256x4 prop_0_0.05 (one search), the same tree in 9.5 s against 10.1 s when every domain is
 * re-bounded, 12.6 s both ways when none is (INTERM_MIN_CUT says what this did to auto). */
static int64_t branch_choice(search *s, worker *w, const domain *d, const dresult *r,
                             int closed[2])
{
    closed[0] = closed[1] = 0;
    int64_t cand[BRANCH_CANDIDATES] = {0};
    int nc = 0;
    top_scores(w->iscore, s->n_flat / 2, cand, &nc, BRANCH_INTERCEPT);
    top_scores(w->rscore, s->n_flat / 2, cand, &nc, BRANCH_CANDIDATES);
    if (nc <= 1)
        return nc ? cand[0] : -1;
    int64_t best = cand[0], K = r->n_active;
    int best_c = 0;
    double best_v = -INFINITY;
    if (vfy_bound_split_lb_params(s->ctx, d->lo, d->hi, w->b, K, w->bcy,
                                  w->has_cx ? w->bcx : NULL, nc, cand, w->work, w->bprow, w->lbn,
                                  w->lbp) != VFY_OK)
        return -2;
    for (int c = 0; c < nc; c++) {
        double v = 0;
        for (int64_t i = 0; i < K; i++) {
            double gn = w->lbn[c * K + i] - w->brhs[i], gp = w->lbp[c * K + i] - w->brhs[i];
            v += fmin(gn, 0.0) + fmin(gp, 0.0);
        }
        if (v > best_v) {
            best_v = v;
            best = cand[c];
            best_c = c;
        }
    }
    /* SOUND: a case is refuted on a child when its row's bound there exceeds the row's rhs_hi
     * (strictly, as domain_finish decides it). (Not with a certificate, which records each
     * region's own proof: every child is bounded.) */
    closed[0] = closed[1] = K > 0 && !s->cert;
    for (int64_t i = 0; i < K; i++) {
        closed[0] &= w->lbn[best_c * K + i] > w->brhs[i];
        closed[1] &= w->lbp[best_c * K + i] > w->brhs[i];
    }
    return best;
}

/* Re-bounding the layers after a ReLU split (CROWN on each unstable neuron from the split's layer
 * on) tightens them through the split; on wide layers one split moves them little, and the passes
 * can cost as much as the domain's own bound (oval21's convolutional nets: twice the domains a
 * second without them, the same tree; mnist_fc's 256-wide layers: without them, trees ten times
 * larger). So it is measured: the share of the width of the prior's unstable neurons it cuts,
 * per stale split. Below INTERM_MIN_CUT on average, the later layers keep the prior's bounds,
 * one domain in INTERM_SAMPLE still re-bounded to keep measuring.
 * The children the branching look-ahead refutes (branch_choice) are not bounded, so not measured:
 * a decisive split's, which a re-bound cut most (mnist_fc 256x4 prop_0_0.05: cuts of 7-13% of
 * the widths among them). Without them the mean there fell from 1.8% to 0.5%, the threshold
 * then, and most domains kept their prior's bounds: 15.1 s against 11.3 s, 9.5 s when always
 * re-bounded. At 0.2% it is 8.0 s (251 of 304 re-bounded); oval21's convolutional nets measure a
 * few hundredths of a percent. */
#define INTERM_WARMUP 256    /* neurons measured before the record decides */
#define INTERM_MIN_CUT 0.002 /* mean share of an unstable neuron's width cut */
#define INTERM_SAMPLE 16
#define INTERM_WINDOW 20000.0 /* neurons in the record, past which it is halved */

static int interm_fixed(const search *s, const domain *d)
{
    switch (s->opts->rebound) {
    case VFY_REBOUND_ALWAYS: return 0;
    case VFY_REBOUND_NEVER: return 1;
    default:
        return s->interm_n >= INTERM_WARMUP && s->interm_cut < INTERM_MIN_CUT * s->interm_n &&
               d->seq % INTERM_SAMPLE != 0;
    }
}

/* The compact set from the root's bounds (root->prior, full), when the frontier is empty (no
 * domain is compact against an older base). Returns 0 when out of memory. */
static int compact_begin(search *s, const domain *root, int frontier_empty)
{
    if (!s->relu_split || s->cert || !root->prior || !frontier_empty || !s->opts->compact_domains) {
        vfy_free(s->base);
        s->base = NULL;
        return 1;
    }
    const vfy_net *net = s->net;
    int64_t half = s->n_half;
    if (!s->base) {
        s->base = vfy_alloc_array((size_t)s->n_flat + 1, sizeof(double));
        s->cp_idx = vfy_alloc_array((size_t)half + 1, sizeof(int64_t));
        s->cp_pos = vfy_alloc_array((size_t)half + 1, sizeof(int64_t));
        s->cw_idx = vfy_alloc_array((size_t)half + 1, sizeof(int64_t));
        if (!s->base || !s->cp_idx || !s->cp_pos || !s->cw_idx)
            return 0;
    }
    memcpy(s->base, root->prior, (size_t)s->n_flat * sizeof(double));
    s->base_gen++;
    s->n_cp = s->n_cw = 0;
    for (int64_t k = 0, off = 0; k < net->n_layers; off += net->layers[k].n_out, k++) {
        vfy_layer_kind kind = net->layers[k].kind;
        int feeds_relu = k + 1 < net->n_layers && net->layers[k + 1].kind == VFY_LAYER_RELU;
        /* the input of an affine layer: its bounds relax nothing (they only size the rounding
         * charges and IBP's intervals), so a domain takes the root's, valid on its sub-box (a
         * residual net's convolutions and batch norms: 173,499 entries a domain, 2.7 MB, then
         * 1,457) */
        int feeds_affine = k + 1 < net->n_layers && (net->layers[k + 1].kind == VFY_LAYER_DENSE ||
                                                     net->layers[k + 1].kind == VFY_LAYER_SCALE);
        for (int64_t j = 0; j < net->layers[k].n_out; j++) {
            int64_t f = off + j;
            s->cp_pos[f] = -1;
            if (kind == VFY_LAYER_RELU || vfy_layer_is_act(kind) || feeds_affine)
                continue; /* never read from a prior, or the root's will do */
            if (feeds_relu && (s->base[f] >= 0 || s->base[half + f] <= 0))
                continue; /* stable on the whole box */
            if (feeds_relu)
                s->cw_idx[s->n_cw++] = vfy_bound_relu_index(s->ctx, f);
            s->cp_pos[f] = s->n_cp;
            s->cp_idx[s->n_cp++] = f;
        }
    }
    vfy_log(2, "compact domains: %lld of %lld bound entries, %lld slopes", (long long)s->n_cp,
            (long long)half, (long long)s->n_cw);
    return 1;
}

/* d's prior in the full flat layout: d->prior itself, or a copy in w->pf (a compact one over the
 * base), clamped by d's last split when the prior is shared with d's sibling (which has the other
 * sign of it; the parent's bounds hold the earlier splits' clamps). SOUND: the split's sign holds
 * on all of d. */
static const double *full_prior(const search *s, worker *w, const domain *d)
{
    if (!d->compact && !d->spw)
        return d->prior;
    int64_t half = s->n_half;
    if (!d->compact) {
        memcpy(w->pf, d->prior, (size_t)s->n_flat * sizeof(double));
        w->pf_gen = 0; /* (pf holds no base now) */
    } else {
        if (w->pf_gen != s->base_gen) {
            memcpy(w->pf, s->base, (size_t)s->n_flat * sizeof(double));
            w->pf_gen = s->base_gen;
        }
        /* (every compact domain writes the same entries: the others stay the base's) */
        for (int64_t q = 0; q < s->n_cp; q++) {
            w->pf[s->cp_idx[q]] = d->prior[q];
            w->pf[half + s->cp_idx[q]] = d->prior[s->n_cp + q];
        }
    }
    /* (compact: only a set's entry, which the next domain writes over; a split neuron is in the
     * set, see the split) */
    if (d->spw && d->n_splits > 0) {
        int64_t q = d->n_splits - 1, f = d->split_idx[q];
        double t = d->split_off[q];
        if (!(d->compact && s->cp_pos[f] < 0)) {
            if (d->split_sign[q] > 0 && w->pf[f] < t)
                w->pf[f] = t;
            if (d->split_sign[q] < 0 && w->pf[half + f] > t)
                w->pf[half + f] = t;
        }
    }
    return w->pf;
}

static void measure_cut(const search *s, const domain *d, const double *prior, int64_t k_from,
                        const vfy_bounds *b, dresult *r)
{
    const vfy_net *net = s->net;
    int64_t half = s->n_flat / 2, off = 0, n = 0;
    double cut = 0;
    for (int64_t k = 0; k + 1 < net->n_layers; off += net->layers[k].n_out, k++) {
        if (k < k_from || net->layers[k + 1].kind != VFY_LAYER_RELU)
            continue;
        for (int64_t j = 0; j < net->layers[k].n_out; j++) {
            double pl = prior[off + j], ph = prior[half + off + j];
            if (!(pl < 0 && ph > 0) || isinf(pl) || isinf(ph))
                continue;
            double l = fmax(b->lo[k][j], pl), h = fmin(b->hi[k][j], ph);
            cut += h > l ? 1 - (h - l) / (ph - pl) : 1;
            n++;
        }
    }
    r->cut = cut / (double)(d->stale > 0 ? d->stale : 1);
    r->cut_n = n;
}

/* Bounding a domain, first step (slot g of w): its layer bounds and the rows of its open cases.
 * Sets w->slot_K[g] to the rows, or -1 when r is already final (deadline, out of memory). */
static void domain_begin(search *s, worker *w, const domain *d, dresult *r, int g)
{
    use_slot(s, w, g);
    w->slot_K[g] = -1;
    w->slot_row0[g] = -1;
    r->n_active = 0;
    r->lp_tried = r->lp_won = 0;
    r->rebounded = 0;
    r->closed[0] = r->closed[1] = 0;
    r->cut = 0;
    r->cut_n = 0;
    if (vfy_deadline_over(&s->dl)) {
        r->kind = R_SKIPPED;
        return;
    }
    /* a ReLU-split child differs from the domain its prior was bounded on only by its stale
     * splits: the layers up to the earliest of their pre-activations keep the prior's bounds
     * (recomputing them would give the same); where re-bounding the later ones rarely pays
     * (interm_fixed), they keep the prior's too, as alpha-beta-CROWN's fixed intermediate bounds,
     * the split neurons clamped */
    int64_t k_from = 0, n_layers = s->net->n_layers;
    if (s->relu_split && d->n_splits > 0) {
        int64_t n_stale = d->stale < 1 ? 1 : (d->stale > d->n_splits ? d->n_splits : d->stale);
        k_from = n_layers;
        for (int64_t q = d->n_splits - n_stale; q < d->n_splits; q++) {
            int64_t kq = vfy_bound_flat_layer(s->ctx, d->split_idx[q]) + 1;
            if (kq < k_from)
                k_from = kq;
        }
        if (!s->cert && interm_fixed(s, d))
            k_from = n_layers;
    }
    /* (certificates: the prior is the root's, clamped by every split: the layers from the
     * earliest split's on are recomputed) */
    for (int64_t q = 0; s->cert && s->relu_split && q < d->n_splits; q++) {
        int64_t kq = vfy_bound_flat_layer(s->ctx, d->split_idx[q]) + 1;
        if (kq < k_from)
            k_from = kq;
    }
    const double *prior = full_prior(s, w, d);
    if (vfy_bound_layers_from(s->ctx, s->method, d->lo, d->hi,
                              (s->opts->reuse_parent_bounds || s->relu_split) ? prior : NULL,
                              k_from, w->b) != VFY_OK) {
        r->kind = R_NOMEM;
        return;
    }
    if (s->relu_split && d->n_splits > 0 && k_from < n_layers) {
        r->rebounded = 1;
        if (!s->cert)
            measure_cut(s, d, prior, k_from, w->b, r);
    }
    /* stack the rows of every open case */
    int64_t K = stack_rows(s, w, d->n_active, d->active, &w->has_cx);
    w->hcx[g] = w->has_cx;
    w->slot_K[g] = K;
}

/* Bounding, second step, for the n domains of a group (batch entries i0 ..): the rows of those
 * that need the alpha/beta optimisation (a domain with ReLU splits needs the split multipliers)
 * are optimised together; the others get their method's bound alone. */
static void bound_group(search *s, worker *w, int i0, int n)
{
    vfy_alpha_job jobs[GROUP_MAX];
    vfy_splits sp[GROUP_MAX];
    int slot[GROUP_MAX], nj = 0;
    int64_t row0 = 0;
    for (int g = 0; g < n; g++) {
        const domain *d = s->batch[i0 + g];
        dresult *r = &s->res[i0 + g];
        int64_t K = w->slot_K[g];
        if (K <= 0)
            continue;
        use_slot(s, w, g);
        if (s->method == VFY_BOUND_ALPHA ||
            ((d->n_splits > 0 || s->n_cuts > 0) && s->method != VFY_BOUND_IBP)) {
            const vfy_splits *spp;
            if (!bound_splits(s, w, g, d, &sp[nj], &spp)) {
                r->kind = R_NOMEM;
                w->slot_K[g] = -1;
                continue;
            }
            jobs[nj] = (vfy_alpha_job){w->b, d->lo, d->hi, K, w->cy, w->has_cx ? w->cx : NULL,
                                       spp, d->warm, d->warm_rows,
                                       d->warm_nsp, w->lb, w->lam_in, w->c_in,
                                       d->compact ? s->cw_idx : NULL, d->compact ? s->n_cw : 0,
                                       w->row_rhs, w->row_case, &s->dl};
            slot[nj++] = g;
            w->slot_row0[g] = row0;
            row0 += K;
            continue;
        }
        if (vfy_bound_rows(s->ctx, s->method, d->lo, d->hi, w->b, K, w->cy,
                           w->has_cx ? w->cx : NULL, w->lb, w->lam_in, w->c_in) != VFY_OK) {
            r->kind = R_NOMEM;
            w->slot_K[g] = -1;
            continue;
        }
        if (s->cert) {
            for (int64_t q = 0; q < K * s->n_half; q++)
                r->par_alpha[q] = NAN;
            r->n_sp = 0;
        }
    }
    if (nj == 0)
        return;
    int ok = vfy_bound_rows_alpha_batch(s->ctx, w->work, nj, jobs, s->alpha_iters) == VFY_OK;
    for (int j = 0; j < nj; j++) {
        int g = slot[j];
        const domain *d = s->batch[i0 + g];
        dresult *r = &s->res[i0 + g];
        for (int64_t i = 0; ok && s->cert && i < jobs[j].K; i++)
            if (!keep_params(s, w->work, d, r, w->slot_row0[g] + i, i))
                ok = 0;
        if (!ok) {
            r->kind = R_NOMEM;
            w->slot_K[g] = -1;
        }
    }
}

/* Bounding, last step (slot g): refute cases, look for a counterexample, or choose a split. */
static void domain_finish(search *s, worker *w, const domain *d, int rank, dresult *r, int g)
{
    const vfy_net *net = s->net;
    const vfy_spec *spec = s->spec;
    int64_t nx = net->n_in, ny = net->n_out;
    if (w->slot_K[g] < 0)
        return; /* r is final */
    use_slot(s, w, g);
    int attack_rank = rank < LOCAL_ATTACK_RANKS && s->opts->attack &&
                      (!s->relu_split || s->round < LOCAL_ATTACK_EARLY ||
                       s->round % LOCAL_ATTACK_EVERY == 0);
    /* A case is refuted when one of its rows is positive on the whole domain:
     * SOUND: lb is a sound lower bound of the row's left side and rhs_hi >= the real constant. */
    memset(w->score, 0, (size_t)nx * sizeof(double));
    /* first pass: which cases the bounds refute, and each open case's candidate, the domain vertex
     * minimising the linear bound of the row closest to refutation; the candidates' outputs then
     * come from one batched pass (the weights read once, not once per case) */
    int64_t n_cand = 0;
    for (int64_t a = 0, row0 = 0; a < d->n_active; row0 += spec->cases[d->active[a]].n_rows, a++) {
        const vfy_case *cs = &spec->cases[d->active[a]];
        int refuted = 0;
        int64_t best = -1;
        double best_gap = -INFINITY;
        for (int64_t i = 0; i < cs->n_rows; i++) {
            /* (rounded down: a timeout's open_bound adds rhs_hi back, see below) */
            double gap = vfy_sub_down(w->lb[row0 + i], cs->rows[i].rhs_hi);
            if (w->lb[row0 + i] > cs->rows[i].rhs_hi)
                refuted = 1;
            if (best < 0 || gap > best_gap) {
                best = i;
                best_gap = gap;
            }
        }
        if (!refuted && conj_refuted(w, d, nx, cs, row0))
            refuted = 1;
        if (!refuted && combo_refuted(s, w, d, cs))
            refuted = 1;
        w->fin_ref[a] = (unsigned char)refuted;
        w->fin_best[a] = best;
        w->fin_gap[a] = best_gap;
        w->fin_cand[a] = -1;
        if (!refuted && best >= 0 && n_cand < s->cand_batch) {
            const double *lam = w->lam_in + (row0 + best) * nx;
            double *x = w->cands + n_cand * nx;
            for (int64_t j = 0; j < nx; j++)
                x[j] = lam[j] >= 0 ? d->lo[j] : d->hi[j];
            w->fin_cand[a] = n_cand++;
        }
    }
    if (n_cand > 0)
        vfy_eval_f64_batch(net, n_cand, w->cands, w->cand_y, w->cand_ws);
    int64_t row0 = 0;
    r->prio = INFINITY;
    for (int64_t a = 0; a < d->n_active; a++) {
        /* each open case costs passes here (its candidates' forward passes, input splitting's
         * smear): with a thousand classes on a large net, minutes. Past the search's deadline
         * (not a phase's, whose domains are finished: they carry over) the domain goes back to
         * the frontier as it came (nothing is concluded from it) */
        if (vfy_deadline_over(&s->final_dl)) {
            r->kind = R_SKIPPED;
            return;
        }
        int64_t c = d->active[a];
        const vfy_case *cs = &spec->cases[c];
        int refuted = w->fin_ref[a];
        int64_t best = w->fin_best[a];
        double best_gap = w->fin_gap[a];
        if (!refuted) {
            w->brhs[r->n_active] = best >= 0 ? cs->rows[best].rhs_hi : 0.0;
            w->bprow[r->n_active] = best >= 0 && w->slot_row0[g] >= 0 ? w->slot_row0[g] + row0 + best
                                                                        : -1;
            if (best >= 0) {
                memcpy(w->bcy + r->n_active * ny, cs->rows[best].cy, (size_t)ny * sizeof(double));
                if (cs->rows[best].cx)
                    memcpy(w->bcx + r->n_active * nx, cs->rows[best].cx, (size_t)nx * sizeof(double));
                else
                    memset(w->bcx + r->n_active * nx, 0, (size_t)nx * sizeof(double));
            } else {
                memset(w->bcy + r->n_active * ny, 0, (size_t)ny * sizeof(double));
                memset(w->bcx + r->n_active * nx, 0, (size_t)nx * sizeof(double));
            }
            r->active[r->n_active++] = c;
            double case_gap = cs->n_rows ? best_gap : -INFINITY;
            if (case_gap < r->prio)
                r->prio = case_gap;
            /* candidate: the domain vertex minimising the linear bound of the row closest to
             * refutation, then the centre */
            if (best >= 0) {
                const double *lam = w->lam_in + (row0 + best) * nx;
                for (int64_t j = 0; j < nx; j++)
                    w->cand[j] = lam[j] >= 0 ? d->lo[j] : d->hi[j];
                if (!s->relu_split) /* input-split scores only */
                    add_smear(s, w, d, cs->rows[best].cy, cs->rows[best].cx, w->score);
                int64_t q = w->fin_cand[a];
                if (q >= 0 ? take_candidate(s, w, c,
                                            vfy_case_margin_y(net, spec, c, w->cands + q * nx,
                                                              w->cand_y + q * ny),
                                            w->cand, r)
                           : try_candidate(s, w, c, w->cand, r))
                    return;
            }
            /* (with ReLU splitting every domain has the whole box: its centre was tried) */
            for (int64_t j = 0; !s->relu_split && j < nx; j++)
                w->cand[j] = 0.5 * (d->lo[j] + d->hi[j]);
            if (!s->relu_split && try_candidate(s, w, c, w->cand, r))
                return;
            /* the most promising domains of each round also get a short local attack: once a
             * domain is small, descent from inside it finds violations too narrow for sampling;
             * with ReLU splitting (the whole box) it continues the first attack with new seeds */
            if (attack_rank && best_gap < 0 && s->relu_split && best >= 0) {
                /* with ReLU splitting, descent from the vertex that minimises the domain's linear
                 * bound of the row closest to refutation: where its relaxation is weakest */
                const double *lam = w->lam_in + (row0 + best) * nx;
                for (int64_t j = 0; j < nx; j++)
                    w->cand[j] = lam[j] >= 0 ? d->lo[j] : d->hi[j];
                if (vfy_attack_from(net, spec, c, d->lo, d->hi, w->cand, LOCAL_DESCENT_STEPS,
                                    &s->dl, w->ws, w->cand)) {
                    memcpy(r->x, w->cand, (size_t)nx * sizeof(double));
                    r->kind = R_SAT;
                    r->sat_case = c;
                    return;
                }
            }
            if (attack_rank && best_gap < 0) {
                vfy_rng rng;
                vfy_rng_seed(&rng, s->opts->seed ^ (d->seq * 0x9E3779B97F4A7C15ull));
                if (vfy_attack_case(net, spec, c, d->lo, d->hi, 8, 2, 20, &rng, &s->dl,
                                    w->ws, w->cand)) {
                    memcpy(r->x, w->cand, (size_t)nx * sizeof(double));
                    r->kind = R_SAT;
                    r->sat_case = c;
                    return;
                }
            }
        }
        row0 += cs->n_rows;
    }
    if (r->n_active > 0 && s->lp_stage_on && !vfy_deadline_over(&s->dl)) {
        int all = s->opts->lp == VFY_LP_ALL;
        int64_t U = count_unstable(s, w->b);
        /* AUTO: while the stage pays (it refuted something on at least a fifth of the domains it
         * was given) every eligible domain gets it; else, while it warms up, and then one domain
         * in 64, as long as it has taken at most LP_TIME_SHARE of the workers' time (on oval21's
         * cifar_wide a domain's stage took about 1 s against 10 ms for its bounds, refuting
         * nothing: its warm-up alone would have taken a minute, its samples 60% after).
         * With ReLU splitting the stage keeps to that share even when it pays: it enumerates the
         * phases of ReLUs the search splits itself, each of its domains far cheaper than the
         * stage's LPs (random 4-12-12-12-3 nets, test_lp_stage_relu_share: the stage refuted
         * cases on most domains it got and took 75-82% of the workers' time, the searches
         * 0.46 / 4.91 / 9.89 / 2.40 s, against 0.14 / 0.49 / 1.31 / 0.33 s within the share).
         * A domain whose ReLUs are all decided gets it always, share or not: one small LP (no
         * unstable ReLU, lp.c's compact form) with each decided sign a row, exact but for the
         * float32 perturbation and empty where the splits contradict each other (certified:
         * lp.c, certify_empty), where the search has no split left and beta-CROWN's bound may
         * not reach (a 1-input fuzz net, --split relu: 3 such leaves were left open, and the
         * verdict `unknown`, in 3 of 10 runs, as their share ran out) */
        int leaf = s->relu_split && U == 0;
        int pays = s->lp_won > 0 && 5 * s->lp_won >= s->lp_tried;
        int within = 1e-9 * (double)atomic_load(&s->lp_ns) <=
                     LP_TIME_SHARE * (double)s->n_workers * (vfy_now() - s->t_start);
        int run = leaf || (pays ? within || !s->relu_split
                                : within && (s->lp_tried < LP_WARMUP || d->seq % 64 == 0));
        if (all || (U <= s->opts->lp_exact_max && run)) {
            int64_t before = r->n_active;
            double t_lp = vfy_now();
            r->lp_tried = 1;
            int sat = lp_stage(s, w, d, r, s->opts->lp_exact_max);
            r->lp_won = sat || r->n_active < before;
            atomic_fetch_add(&s->lp_ns, (long long)(1e9 * (vfy_now() - t_lp)));
            if (sat)
                return; /* R_SAT */
        }
    }
    if (r->n_active == 0) {
        r->kind = R_PROVED;
        return;
    }
    int relu_here = s->relu_split;
    r->relu = relu_here;
    if (relu_here) {
        /* split the unstable ReLU with the best score (ties: lowest index) */
        if (vfy_bound_relu_scores(s->ctx, d->lo, d->hi, w->b, r->n_active, w->bcy,
                                  w->has_cx ? w->bcx : NULL, w->rscore, w->iscore) != VFY_OK) {
            r->kind = R_NOMEM;
            return;
        }
        int64_t idx = branch_choice(s, w, d, r, r->closed);
        if (idx == -2) {
            r->kind = R_NOMEM;
            return;
        }
        if (idx < 0) {
            /* every ReLU is decided: the bound is then an LP dual that the short optimisation may
             * not have reached; optimise the open cases' rows much longer before giving up */
            r->kind = leaf_refuted(s, w, d, r) ? R_PROVED : R_STUCK;
            return;
        }
        r->kind = R_SPLIT;
        r->dim = idx;
        vfy_bounds_export(s->ctx, w->b, r->bounds);
        /* (where the look-ahead split it: the same bounds; a ReLU is unstable there: 0) */
        double p = vfy_bound_split_point(r->bounds[idx], r->bounds[s->n_half + idx]);
        r->split_at = isnan(p) ? 0.0 : p;
        if (!keep_warm(s, w, d, r, w->slot_row0[g]))
            r->kind = R_NOMEM;
        return;
    }
    /* split the splittable dimension with the largest score (ties: widest, then lowest index) */
    int64_t dim = -1;
    double best_score = -1, best_w = -1;
    for (int64_t j = 0; j < nx; j++) {
        double mid = 0.5 * (d->lo[j] + d->hi[j]);
        if (!(d->lo[j] < mid && mid < d->hi[j]))
            continue;
        double wj = d->hi[j] - d->lo[j];
        if (w->score[j] > best_score || (w->score[j] == best_score && wj > best_w)) {
            dim = j;
            best_score = w->score[j];
            best_w = wj;
        }
    }
    if (dim < 0) {
        r->kind = R_STUCK;
        return;
    }
    r->kind = R_SPLIT;
    r->dim = dim;
    vfy_bounds_export(s->ctx, w->b, r->bounds);
}

static void *worker_main(void *arg)
{
    void **pa = arg;
    search *s = pa[0];
    worker *w = pa[1];
    for (;;) {
        /* groups of s->group consecutive domains: the same whatever the number of threads */
        int gi = atomic_fetch_add(&s->next, 1), i0 = gi * s->group;
        if (i0 >= s->n_batch)
            break;
        int n = s->n_batch - i0 < s->group ? s->n_batch - i0 : s->group;
        for (int g = 0; g < n; g++)
            domain_begin(s, w, s->batch[i0 + g], &s->res[i0 + g], g);
        bound_group(s, w, i0, n);
        for (int g = 0; g < n; g++)
            domain_finish(s, w, s->batch[i0 + g], i0 + g, &s->res[i0 + g], g);
    }
    use_slot(s, w, 0);
    if (s->lp_stage_on)
        vfy_lp_thread_done(); /* GLPK's environment of this thread */
    return NULL;
}

static void run_batch(search *s)
{
    atomic_store(&s->next, 0);
    if (s->n_workers <= 1 || s->n_batch <= s->group) {
        void *arg[2] = {s, &s->workers[0]};
        worker_main(arg);
        return;
    }
    pthread_t tid[64];
    void *args[64][2];
    int started = 0;
    for (int t = 1; t < s->n_workers; t++) {
        args[t][0] = s;
        args[t][1] = &s->workers[t];
        if (pthread_create(&tid[t], NULL, worker_main, args[t]) != 0)
            break;
        started = t;
    }
    args[0][0] = s;
    args[0][1] = &s->workers[0];
    worker_main(args[0]);
    for (int t = 1; t <= started; t++)
        pthread_join(tid[t], NULL);
}

/* The frontier of open domains: a binary heap ordered by (prio, seq), i.e. best-first on the bound,
 * which drives the search toward the global minimum of the property's margin and so toward a
 * counterexample when there is one; the set of domains bounded (the tree) does not depend on the
 * order, only the time to a counterexample and the memory do. Once the heap's domains take `budget`
 * bytes (their blocks' actual sizes: a domain whose cases were refuted keeps fewer rows), new
 * children go to a stack that is served first: the search degrades to depth-first instead of
 * running out of memory. */
typedef struct frontier {
    domain **heap;
    int64_t n, cap_alloc;
    domain **stk;
    int64_t n_stk, cap_stk;
    double budget;     /* bytes of heap domains allowed by the memory ceiling */
    double heap_bytes; /* bytes of the domains in the heap */
    uint64_t seq;
    size_t max_bytes;  /* the largest domain pushed below a root */
} frontier;

static int dom_less(const domain *a, const domain *b)
{
    return a->prio < b->prio || (a->prio == b->prio && a->seq < b->seq);
}

/* Make room for one more entry in a growable array of domains; 0 on allocation failure. */
static int grow(domain ***arr, int64_t *cap, int64_t n)
{
    if (n < *cap)
        return 1;
    int64_t nc = *cap ? 2 * *cap : 256;
    domain **nd = vfy_realloc(*arr, (size_t)nc * sizeof *nd);
    if (!nd)
        return 0;
    *arr = nd;
    *cap = nc;
    return 1;
}

/* What queuing d in the heap adds to its bytes: d's own block, and each shared block of d's that
 * no domain in the heap holds yet (heap_enter, heap_leave keep the counts). */
static double heap_charge(const domain *d)
{
    double c = (double)d->bytes;
    if (d->sbox && d->sbox->in_heap == 0)
        c += (double)d->sbox->bytes;
    if (d->spw && d->spw->in_heap == 0)
        c += (double)d->spw->bytes;
    return c;
}

static void heap_enter(frontier *f, domain *d)
{
    f->heap_bytes += heap_charge(d);
    if (d->sbox)
        d->sbox->in_heap++;
    if (d->spw)
        d->spw->in_heap++;
}

static void heap_leave(frontier *f, domain *d)
{
    f->heap_bytes -= (double)d->bytes;
    if (d->sbox && --d->sbox->in_heap == 0)
        f->heap_bytes -= (double)d->sbox->bytes;
    if (d->spw && --d->spw->in_heap == 0)
        f->heap_bytes -= (double)d->spw->bytes;
}

static int frontier_push(frontier *f, domain *d)
{
    d->seq = f->seq++;
    /* (a domain's size: its own block and its half of the prior and warm start it shares with
     * its sibling; the box, shared by the whole tree, is left out) */
    size_t size = d->bytes + (d->spw ? d->spw->bytes / 2 : 0);
    if (d->depth > 0 && size > f->max_bytes)
        f->max_bytes = size;
    if (f->n > 0 && f->heap_bytes + heap_charge(d) > f->budget) {
        if (!grow(&f->stk, &f->cap_stk, f->n_stk))
            return 0;
        f->stk[f->n_stk++] = d;
        return 1;
    }
    if (!grow(&f->heap, &f->cap_alloc, f->n))
        return 0;
    int64_t i = f->n++;
    heap_enter(f, d);
    while (i > 0) {
        int64_t p = (i - 1) / 2;
        if (!dom_less(d, f->heap[p]))
            break;
        f->heap[i] = f->heap[p];
        i = p;
    }
    f->heap[i] = d;
    return 1;
}

static domain *frontier_pop(frontier *f)
{
    if (f->n_stk > 0)
        return f->stk[--f->n_stk];
    if (f->n == 0)
        return NULL;
    domain *top = f->heap[0], *last = f->heap[--f->n];
    heap_leave(f, top);
    if (f->n == 0)
        f->heap_bytes = 0.0;
    int64_t i = 0;
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= f->n)
            break;
        if (c + 1 < f->n && dom_less(f->heap[c + 1], f->heap[c]))
            c++;
        if (!dom_less(f->heap[c], last))
            break;
        f->heap[i] = f->heap[c];
        i = c;
    }
    if (f->n > 0)
        f->heap[i] = last;
    return top;
}

static void frontier_free(frontier *f)
{
    for (int64_t i = 0; i < f->n; i++)
        domain_free(f->heap[i]);
    for (int64_t i = 0; i < f->n_stk; i++)
        domain_free(f->stk[i]);
    vfy_free(f->heap);
    vfy_free(f->stk);
}

/* A queued domain's prior from r's layer bounds, and (warm not NULL) its warm start from r's best
 * slopes and multipliers: compact (cmp: only the search's compact set's entries, the base holding
 * the others) or whole. */
static void fill_prior_warm(const search *s, const dresult *r, int cmp, double *prior, float *warm)
{
    if (cmp)
        for (int64_t q = 0; q < s->n_cp; q++) {
            prior[q] = r->bounds[s->cp_idx[q]];
            prior[s->n_cp + q] = r->bounds[s->n_half + s->cp_idx[q]];
        }
    else
        memcpy(prior, r->bounds, (size_t)s->n_flat * sizeof(double));
    if (!warm)
        return;
    int64_t fs = s->n_relu + r->warm_nsp;
    if (!cmp) {
        memcpy(warm, r->warm, (size_t)(r->warm_rows * fs) * sizeof(float));
        return;
    }
    /* the unstable ReLUs' slopes, then the multipliers */
    int64_t cs = s->n_cw + r->warm_nsp;
    for (int64_t row = 0; row < r->warm_rows; row++) {
        const float *src = r->warm + row * fs;
        float *dst = warm + row * cs;
        for (int64_t q = 0; q < s->n_cw; q++)
            dst[q] = src[s->cw_idx[q]];
        memcpy(dst + s->n_cw, src + s->n_relu, (size_t)r->warm_nsp * sizeof(float));
    }
}

/* One -vv line of per-case figures: "case: count" (and its worst gap when worst is given) for
 * each case with a nonzero count; " ..." where the line is full. */
static void log_case_line(const char *what, int64_t nc, const int64_t *count, const double *worst)
{
    char line[512];
    int len = 0;
    for (int64_t c = 0; c < nc; c++) {
        if (count[c] == 0)
            continue;
        if (len > (int)sizeof line - 48) {
            len += snprintf(line + len, sizeof line - (size_t)len, " ...");
            break;
        }
        len += snprintf(line + len, sizeof line - (size_t)len, "%s%lld: %lld", len ? ", " : "",
                        (long long)c, (long long)count[c]);
        if (worst)
            len += snprintf(line + len, sizeof line - (size_t)len, " %.4g", worst[c]);
    }
    if (len > 0)
        vfy_log(2, "cases: %s %s", what, line);
}

/* -vv at a timeout: for each case, the open domains that carry it and their worst gap (the least
 * prio; in one tree a domain's prio covers all of its cases), so that a user sees which cases hold
 * the search up. */
static void log_open_cases(const search *s, const frontier *f)
{
    int64_t nc = s->spec->n_cases;
    int64_t *n_open = vfy_alloc_array((size_t)nc, sizeof *n_open);
    double *worst = vfy_alloc_array((size_t)nc, sizeof *worst);
    if (!n_open || !worst)
        goto out;
    for (int64_t c = 0; c < nc; c++) {
        n_open[c] = 0;
        worst[c] = INFINITY;
    }
    for (int64_t i = 0; i < f->n + f->n_stk; i++) {
        const domain *d = i < f->n ? f->heap[i] : f->stk[i - f->n];
        for (int64_t a = 0; a < d->n_active; a++) {
            n_open[d->active[a]]++;
            worst[d->active[a]] = fmin(worst[d->active[a]], d->prio);
        }
    }
    log_case_line("open at the end (case: domains, worst gap)", nc, n_open, worst);
out:
    vfy_free(n_open);
    vfy_free(worst);
}

/* A domain for case c alone, with from's splits and depth (its box sb's, its prior and warm start
 * pw's when given: domain_new_in), or NULL out of memory. */
static domain *case_copy(int64_t nx, const domain *from, int64_t c, shared_block *sb,
                         shared_block *pw, int64_t n_prior, int64_t n_warm)
{
    int64_t nsp = from->n_splits;
    domain *d = domain_new_in(nx, sb, pw, n_prior, 1, nsp, n_warm);
    if (!d)
        return NULL;
    memcpy(d->split_idx, from->split_idx, (size_t)nsp * sizeof(int64_t));
    memcpy(d->split_sign, from->split_sign, (size_t)nsp);
    memcpy(d->split_off, from->split_off, (size_t)nsp * sizeof(double));
    d->active[0] = c;
    d->depth = from->depth;
    d->stale = from->stale;
    d->prio = from->prio;
    return d;
}

/* A tree for each case. In one tree a domain stays open until all of its cases are refuted, so a
 * case is split, too, on every neuron that the others need: where cases need different splits the
 * trees multiply. oval21 cifar_wide_kw img2732: each of its nine cases is proved alone in 7-12 s
 * (17 to 427 domains), where one tree timed out at 720 s. So (opts->case_trees) a box's root is
 * bounded once with all of its cases, which drops those it refutes (oval21's easy instances end
 * there: a copy of the root per case cost each of them 0.1-0.7 s), and when it is to be split
 * with two cases or more open, it is queued again as a copy per case instead: the whole box with
 * the root's splits, its bounds just computed (valid on all of it) as the prior and that case's
 * rows of its warm start, the same for each but for the case. Each copy is then bounded, and
 * branches, for its case alone. The copies share the box, the prior and the warm start, read
 * only, as a split's two children share theirs. Returns 0 when out of memory (d stays the
 * caller's). */
static int case_roots(search *s, frontier *f, const domain *d, const dresult *r,
                      vfy_verify_result *res)
{
    int64_t nx = s->net->n_in;
    int cmp = s->base && (d->compact || d->of_base);
    int64_t n_prior = cmp ? 2 * s->n_cp : s->n_flat, n_ws = cmp ? s->n_cw : s->n_relu;
    int64_t cs = n_ws + r->warm_nsp;
    shared_block *sb = domain_box_share(d, nx);
    shared_block *pw = block_new((size_t)n_prior * sizeof(double) +
                                 (size_t)(r->warm_rows * cs) * sizeof(float));
    int ok = sb && pw;
    if (sb)
        sb->refs++; /* (this code's own references, meanwhile) */
    if (pw) {
        pw->refs++;
        fill_prior_warm(s, r, cmp, pw->v, (float *)(pw->v + n_prior));
    }
    for (int64_t a = 0, row = 0; a < r->n_active && ok; a++) {
        int64_t m = s->spec->cases[r->active[a]].n_rows;
        int warm = r->warm_rows > 0;
        domain *c = case_copy(nx, d, r->active[a], sb, pw, n_prior, warm ? m * cs : 0);
        if (!c) {
            ok = 0;
            break;
        }
        if (warm) { /* (its case's rows: r->warm keeps r->active's order) */
            c->warm = (float *)(pw->v + n_prior) + row * cs;
            c->warm_rows = m;
            c->warm_nsp = r->warm_nsp;
        }
        row += m;
        c->prio = r->prio;
        c->compact = cmp;
        if (!frontier_push(f, c)) {
            domain_free(c);
            ok = 0;
        } else {
            res->case_roots++;
        }
    }
    block_unref(sb);
    block_unref(pw);
    return ok;
}

/* Queue a box's root. A certificate run, whose domains' priors follow from the root's bounds and
 * their own splits alone (as the checker derives them), queues a copy per case at once instead
 * (case_roots' reasons): each then starts from the root's bounds. So does a root whose cases'
 * rows pass what a worker bounds at once (row_cap; with --joint-cases too). Root is queued or
 * freed; returns 0 when out of memory. */
static int push_root(search *s, frontier *f, domain *root, vfy_verify_result *res)
{
    int apart = s->relu_split && root->n_active >= 2 &&
                ((s->opts->case_trees && s->cert) ||
                 rows_of(s, root->active, root->n_active) > s->row_cap);
    if (!apart) {
        if (frontier_push(f, root))
            return 1;
        domain_free(root);
        return 0;
    }
    int64_t nx = s->net->n_in, n_prior = root->prior ? s->n_flat : 0;
    shared_block *sb = domain_box_share(root, nx);
    /* (the copies share the root's prior, read only, as case_roots' do, full_prior reading it
     * through the worker's copy: one copy each was 999 copies of 19 MB on a VGG-16 of 1,000
     * classes, 83 s for a deadline of 15) */
    shared_block *pw = n_prior ? block_new((size_t)n_prior * sizeof(double)) : NULL;
    int ok = sb != NULL && (pw != NULL || !n_prior);
    if (sb)
        sb->refs++; /* (this code's own references, meanwhile) */
    if (pw) {
        pw->refs++;
        memcpy(pw->v, root->prior, (size_t)n_prior * sizeof(double));
    }
    for (int64_t a = 0; a < root->n_active && ok; a++) {
        domain *d = case_copy(nx, root, root->active[a], sb, pw, n_prior, 0);
        if (!d) {
            ok = 0;
            break;
        }
        d->compact = root->compact;
        d->of_base = root->of_base;
        if (!frontier_push(f, d)) {
            domain_free(d);
            ok = 0;
        } else {
            res->case_roots++;
        }
    }
    block_unref(sb);
    block_unref(pw);
    domain_free(root);
    return ok;
}

static void set_sat(search *s, vfy_verify_result *res, const double *x, int64_t c)
{
    const vfy_net *net = s->net;
    memcpy(res->x, x, (size_t)net->n_in * sizeof(double));
    res->sat_case = c;
    res->verdict = VFY_SAT;
}

/* The attack on every case in turn, over its whole box, until a counterexample is confirmed (then
 * res is SAT) or the deadline passes. */
/* Attack every case in turn, within `share` of the time left (1: all of it): on networks whose
 * forward pass is costly (a convolution lowered to a large matrix) the attack's minimum budget
 * could otherwise take the whole timeout before any proof is tried. */
static int64_t attack_cases(search *s, vfy_verify_result *res, vfy_rng *rng, const int64_t *cases,
                            int64_t n_cases, int n_samples, int starts, int steps, double share)
{
    if (!s->opts->attack)
        return 0; /* the caller looked already (refine.c) */
    vfy_deadline dl = s->dl;
    if (isfinite(dl.t_end) && share < 1)
        dl.t_end = vfy_now() + share * (dl.t_end - vfy_now());
    int64_t q = 0;
    for (; q < n_cases && res->verdict != VFY_SAT; q++) {
        int64_t c = cases ? cases[q] : q;
        const vfy_box *bx = &s->spec->boxes[s->spec->cases[c].box];
        double *x = s->workers[0].cand;
        if (vfy_attack_case(s->net, s->spec, c, bx->lo, bx->hi, n_samples, starts, steps, rng,
                            &dl, s->workers[0].ws, x))
            set_sat(s, res, x, c);
    }
    return q; /* the cases attacked */
}

/* The same on every case of the spec. */
static int64_t attack_all(search *s, vfy_verify_result *res, vfy_rng *rng, int n_samples,
                          int starts, int steps, double share)
{
    return attack_cases(s, res, rng, NULL, s->spec->n_cases, n_samples, starts, steps, share);
}

/* The search keeps sl (NULL: none) as the root's hidden-bound slopes (vfy_bound_slopes) in
 * every worker's bounds, freeing those kept before if it owned them; owned: whether to free sl. */
static void keep_root_slopes(search *s, vfy_bound_slopes *sl, int owned)
{
    if (s->slopes_owned)
        vfy_bound_slopes_free(s->slopes);
    s->slopes = sl;
    s->slopes_owned = owned;
    for (int t = 0; t < s->n_workers; t++)
        for (int g = 0; g < GROUP_MAX; g++)
            if (s->workers[t].bs[g])
                vfy_bounds_use_slopes(s->workers[t].bs[g], sl);
}

/* Certificates: the root's tightened hidden bounds, passed on with the box they hold on. */
typedef struct root_rec {
    const vfy_verify_opts *opts;
    int64_t box;
    const double *lo, *hi;
} root_rec;

static void root_bound_rec(void *user, int64_t idx, int upper, const double *alpha_flat)
{
    const root_rec *rr = user;
    rr->opts->on_root_bound(rr->opts->on_refuted_user, rr->box, rr->lo, rr->hi, idx, upper,
                            alpha_flat);
}

/* Certificates: report the cases of d that r refuted, with their rows' proof parameters.
 * buf: max_cases. Returns 0 when out of memory. */
static int report_refuted(search *s, const domain *d, const dresult *r, int64_t box, int64_t *buf)
{
    int64_t n_ref = 0, n_rows = 0, nh = s->n_half, nsp = r->n_sp;
    if (!s->g_alpha &&
        !(s->g_alpha = vfy_alloc_array((size_t)(s->row_cap * nh) + 1, sizeof(double))))
        return 0;
    if (nsp > s->g_cap_sp) {
        vfy_free(s->g_beta);
        if (!(s->g_beta = vfy_alloc_array((size_t)(s->row_cap * nsp), sizeof(double))))
            return 0;
        s->g_cap_sp = nsp;
    }
    int any = 0;
    for (int64_t a = 0; a < d->n_active; a++) {
        int open = 0;
        for (int64_t q = 0; r->kind == R_SPLIT && q < r->n_active; q++)
            open |= r->active[q] == d->active[a];
        if (open)
            continue;
        buf[n_ref++] = d->active[a];
        int64_t m = s->spec->cases[d->active[a]].n_rows, r0 = case_row0(s, d, a);
        memcpy(s->g_alpha + n_rows * nh, r->par_alpha + r0 * nh, (size_t)(m * nh) * sizeof(double));
        if (nsp > 0)
            memcpy(s->g_beta + n_rows * nsp, r->par_beta + r0 * nsp, (size_t)(m * nsp) * sizeof(double));
        for (int64_t q = 0; q < m * nh && !any; q++)
            any = !isnan(r->par_alpha[r0 * nh + q]);
        n_rows += m;
    }
    if (n_ref == 0)
        return 1;
    vfy_refutation ref = {box, d->lo, d->hi, n_ref, buf, d->n_splits, d->split_idx, d->split_sign,
                          n_rows, nh, (any || nsp > 0) ? s->g_alpha : NULL,
                          nsp > 0 ? s->g_beta : NULL};
    s->opts->on_refuted(s->opts->on_refuted_user, &ref);
    return 1;
}

/* The queue's memory budget (bytes): the ceiling less `held` (the workers' scratch, the stack's
 * room) and what the process holds now, and at least a quarter of the ceiling. */
static double queue_budget(const vfy_verify_opts *opts, double held)
{
    double ceiling = opts->max_memory_mb * 1048576.0;
    return fmax(0.25 * ceiling, ceiling - held - vfy_resident_bytes());
}

vfy_status vfy_verify(const vfy_net *net, const vfy_spec *spec, const vfy_verify_opts *opts,
                      vfy_verify_result *res, vfy_error *err)
{
    double t0 = vfy_now();
    memset(res, 0, sizeof *res);
    res->verdict = VFY_UNKNOWN;
    res->open_bound = -INFINITY;
    if (spec->n_x != net->n_in)
        return vfy_fail(err, VFY_ERR_INVALID,
                        "the spec declares %lld inputs X_i but the network has %lld",
                        (long long)spec->n_x, (long long)net->n_in);
    if (spec->n_y != net->n_out)
        return vfy_fail(err, VFY_ERR_INVALID,
                        "the spec declares %lld outputs Y_i but the network has %lld",
                        (long long)spec->n_y, (long long)net->n_out);
    /* (a spec the layers' output cannot answer for the model's: cli.c names the file first) */
    vfy_status rows_ok = vfy_net_check_rows(net, spec, "the spec", err);
    if (rows_ok != VFY_OK)
        return rows_ok;
    int64_t nx = net->n_in, ny = net->n_out;
    vfy_status st = VFY_OK;
    search s;
    memset(&s, 0, sizeof s);
    s.net = net;
    s.spec = spec;
    s.opts = opts;
    s.dl.t_end = isfinite(opts->timeout_s) ? t0 + opts->timeout_s : INFINITY;
    s.t_start = t0;
    s.n_workers = opts->threads < 1 ? 1 : (opts->threads > 64 ? 64 : opts->threads);
    vfy_bound_ctx *ctx = NULL;
    frontier fr = {0};
    int64_t *box_cases = NULL;
    /* the first phase's worst gaps on its box (on the heap: 8 KB more of this frame made oval21
     * cifar_deep img4510 12% slower, root included: 7.2 s against 6.5 s, three runs each) */
    vfy_gap_track *gt = NULL;
    res->x = vfy_alloc_array((size_t)nx, sizeof(double));
    res->y32 = vfy_alloc_array((size_t)ny, sizeof(float));
    res->y64 = vfy_alloc_array((size_t)ny, sizeof(double));
    if (!res->x || !res->y32 || !res->y64)
        goto nomem;
    st = vfy_bound_ctx_create(net, opts->float_semantics, &ctx, err);
    if (st != VFY_OK)
        goto done;
    s.ctx = ctx;
    s.final_dl.t_end = s.dl.t_end;
    vfy_bound_ctx_set_deadline(ctx, &s.final_dl);
    /* a domain's rows are its box's cases' at most (every case of a box, at its root) */
    s.max_rows = 1;
    int64_t case_rows_max = 1;
    {
        int64_t *box_rows = vfy_alloc_array((size_t)spec->n_boxes + 1, sizeof(int64_t));
        if (!box_rows)
            goto nomem;
        for (int64_t c = 0; c < spec->n_cases; c++) {
            int64_t m = spec->cases[c].n_rows;
            box_rows[spec->cases[c].box] += m;
            case_rows_max = m > case_rows_max ? m : case_rows_max;
        }
        for (int64_t bi = 0; bi < spec->n_boxes; bi++)
            s.max_rows = box_rows[bi] + 1 > s.max_rows ? box_rows[bi] + 1 : s.max_rows;
        vfy_free(box_rows);
    }
    s.max_cases = spec->n_cases > 0 ? spec->n_cases : 1;
    if (vfy_log_on(2) && spec->n_cases > 1) {
        s.case_domains = vfy_alloc_array((size_t)spec->n_cases, sizeof *s.case_domains);
        for (int64_t c = 0; s.case_domains && c < spec->n_cases; c++)
            s.case_domains[c] = 0;
    }
    double row_bytes = 16.0 * (double)vfy_net_max_width(net); /* a point's two layer buffers */
    s.cand_batch = (int64_t)fmax(1.0, fmin(CAND_BATCH, CAND_BATCH_BYTES / row_bytes));
    s.n_flat = vfy_bounds_flat_size(ctx);
    s.relu_split = opts->split == VFY_SPLIT_RELU ||
                   (opts->split == VFY_SPLIT_AUTO && nx > AUTO_INPUT_SPLIT_MAX && ctx != NULL);
    /* AUTO: CROWN per domain for input splitting (measured fastest on ACAS Xu), alpha/beta-CROWN
     * for ReLU splitting (the split multipliers need the optimisation) */
    /* the checker of certificates re-derives proofs by interval arithmetic and cannot follow an LP
     * dual, so a certificate run (on_refuted set) does without the LP stage */
    s.lp_stage_on = opts->lp != VFY_LP_OFF && opts->on_refuted == NULL;
    s.cert = opts->on_refuted != NULL;
    /* the caller's hidden bounds as constraints: with its hidden_prior, with ReLU splitting (the
     * split multipliers' optimisation), not in a certificate (whose checker does not know them) */
    if (opts->root_bounds && opts->root_bounds->n > 0 && opts->hidden_prior && s.relu_split &&
        !s.cert) {
        s.cuts = opts->root_bounds;
        s.n_cuts = s.cuts->n;
    }
    /* a certificate records ReLU slopes only: Sigmoid/Tanh keep their default lines there */
    vfy_bound_ctx_set_act_search(ctx, !s.cert);
    /* nor facets (bound.h: vfy_bound_ctx_set_facets). In every alpha pass they pay on networks
     * with convolutions, whose domains cost their products in any case: oval21 cifar_deep_kw
     * img1052, unsat in 221 s (--no-refine) where it timed out at 720 s. On fully connected nets,
     * whose products are cheap (BLAS), a domain costs many times more and the searches end in more
     * time for fewer domains (mnist_fc 256x4 prop_10_0.05, --no-refine: 16.6 s, 1,075 domains;
     * 51.3 s, 28,031 without facets): there they tighten the root's hidden bounds only, in a
     * second pass before the first search (below), which every domain inherits (at 75 s,
     * prop_10_0.05 10.2 s against 47.6 s, prop_0_0.05 5.8 s against 36.5 s). With the facets
     * at half their cost per domain, in every domain they still lose there at 75 s: 256x4
     * prop_9_0.05 / prop_4_0.05 / prop_12_0.05 time out (57.4 / 44.5 / 28.5 s root only).
     * What lost there was the refinement's prefix searches: with facets they prove fewer neurons
     * stable in their time. So the search after the refinement takes them (search_facets), where
     * the long searches of many unstable neurons are, and so does a search that no refinement
     * follows (--no-refine, one ReLU layer, a first phase that goes on to the end), but not the
     * first phase, whose pace decides when it ends and so what the refinement gets (256x4
     * prop_2_0.05 at 1,500 s: 1,048 s against 1,418 s; eran idx 4424 lost its proof at 75 s with
     * them in the first phase too; docs/results.md) */
    int conv = 0;
    for (int64_t k = 0; k < net->n_layers; k++)
        conv |= net->layers[k].conv != NULL;
    s.facets = opts->facets && !s.cert && conv;
    s.root_facets = opts->facets && !s.cert;
    s.search_facets = s.root_facets && s.relu_split && !opts->hidden_prior;
    vfy_bound_ctx_set_facets(ctx, s.facets);
    for (int64_t k = 0; k < net->n_layers && !s.cert; k++)
        s.act_lines |= vfy_layer_is_sshaped(net->layers[k].kind) ||
                       vfy_layer_is_gated(net->layers[k].kind);
    s.alpha_iters = opts->alpha_iters >= 0 ? opts->alpha_iters
                                           : (s.act_lines ? VFY_ALPHA_ITERS_ACT : VFY_ALPHA_ITERS);
    vfy_bound_ctx_set_threads(ctx, s.n_workers);
    s.n_relu = vfy_bound_ctx_n_relu(ctx);
    s.n_half = s.n_flat / 2;
    /* nor does the LP relax any layer but DENSE, SCALE and RELU (lp.c refuses the others): no LP
     * stage, no second phase */
    int64_t unrelaxed = -1;
    for (int64_t k = 0; k < net->n_layers; k++)
        if (!vfy_lp_relaxes(net->layers[k].kind))
            unrelaxed = unrelaxed < 0 ? k : unrelaxed;
    if (unrelaxed >= 0 && s.lp_stage_on) {
        s.lp_stage_on = 0;
        /* (asked for explicitly: say why it is not done, once, not from a prefix search) */
        if (opts->lp == VFY_LP_ALL && !opts->hidden_prior)
            vfy_log(0, "note: the LP has no relaxation of layer '%s': the search goes without it "
                    "(--bounds lp has no effect on this network)", net->layers[unrelaxed].name);
    }
    /* the root's LP with cuts (root_lp): with ReLU splitting, outside a prefix search */
    s.root_lp_on = s.lp_stage_on && s.relu_split && !opts->hidden_prior;
    /* AUTO: the compact LP of a domain carries every neuron as a form over the inputs and the
     * unstable ReLUs (lp.c), a dense product per affine layer: on a CIFAR conv net 4e10-7e10
     * multiply-adds, 3.6 s per domain (which also overran deadlines by as much), for LPs that
     * refuted nothing on oval21: the stage is left out there */
    if (s.lp_stage_on && opts->lp == VFY_LP_AUTO) {
        double madds = vfy_lp_compact_cost(net, opts->lp_exact_max);
        if (madds > LP_BUILD_MAX_MADDS) {
            s.lp_stage_on = 0;
            vfy_log(2, "LP stage off: %.3g multiply-adds to build a domain's LP", madds);
        }
    }
    /* (a certificate run has no LP stage to close the hard domains: alpha-CROWN, whose slopes the
     * certificate records, takes its place; on ACAS Xu it proves all 139 unsat instances there,
     * where CROWN alone leaves two) */
    s.method = opts->method != VFY_BOUND_AUTO ? opts->method
             : (s.relu_split || opts->on_refuted ? VFY_BOUND_ALPHA : VFY_BOUND_CROWN);
    /* domains per group: with ReLU splitting, up to GROUP_MAX within the scratch budget (each slot's
     * layer bounds carry a scratch of 3 x (min(2 width, vfy_bound_chunk_rows) + 8) rows of the
     * widest layer, what vfy_bounds_create reserves); input splitting bounds each domain alone (one
     * CROWN pass each) */
    s.group = 1;
    int64_t width = vfy_net_max_width(net), chunk = vfy_bound_chunk_rows(net);
    int64_t rows = 2 * width < chunk ? 2 * width : chunk;
    double per_slot = 24.0 * (double)width * (double)(rows + 8);
    if (s.relu_split) {
        double g = floor(GROUP_SCRATCH_BYTES / per_slot);
        s.group = g >= GROUP_MAX ? GROUP_MAX : (g < 1 ? 1 : (int)g);
    }
    /* a row bounded costs its coefficients at the input and output in the worker's buffers (of
     * each slot, and the best rows'), and in the batch's scratch about sixteen buffers of the
     * widest layer (the backward pass's, the slopes' gradients, the facets'); an input split
     * domain holds every case of its box (no cap: a few inputs) */
    double bound_row_bytes = 8.0 * (16.0 * (double)width +
                                    (double)(s.group + 1) * (3.0 * (double)nx + 2.0 * (double)ny));
    double row_budget = fmin(ROW_SCRATCH_BYTES, opts->max_memory_mb * 1048576.0 / 8.0);
    s.row_cap = s.max_rows;
    if (s.relu_split && (double)s.max_rows * bound_row_bytes > row_budget) {
        int64_t fit = (int64_t)floor(row_budget / bound_row_bytes);
        s.row_cap = fit > case_rows_max ? fit : case_rows_max;
        s.row_cap = s.row_cap < s.max_rows ? s.row_cap : s.max_rows;
        res->rows_at_once = s.row_cap;
        vfy_log(2, "rows: %lld bounded at once of a box's %lld (%.1f MB a row)",
                (long long)s.row_cap, (long long)(s.max_rows - 1), bound_row_bytes / 1048576.0);
    }
    /* the queue gets the memory ceiling less the workers' scratch (each slot's and the batch's
     * bounds, as estimated above), less room for the depth-first stack past it (STACK_BATCH
     * domains a level of depth, STACK_DEPTH_ROOM levels, at most a quarter of the ceiling) and
     * less what the process holds already, and at least a quarter of the ceiling */
    {
        /* (a ReLU split's children share their box: not counted) */
        double dom_bytes = (double)sizeof(domain) + 8.0 * (double)(s.relu_split ? 0 : 2 * nx) +
                           8.0 * (double)s.n_flat +
                           (s.relu_split ? 4.0 * (double)s.row_cap * (double)(s.n_relu + 32)
                                         : 0.0) +
                           8.0 * (double)s.max_cases + 64.0;
        /* (each slot's bounds, the batch's and the attack's; the rows bounded at once) */
        double scratch = (double)s.n_workers * ((double)(s.group + 2) * per_slot +
                                                (double)s.row_cap * bound_row_bytes);
        s.stack_room = fmin(0.25 * opts->max_memory_mb * 1048576.0,
                            (double)STACK_BATCH * STACK_DEPTH_ROOM * dom_bytes);
        double budget = queue_budget(opts, scratch + s.stack_room);
        fr.budget = budget;
        s.scratch_bytes = scratch;
        vfy_log(2, "queue: at most %.0f MB of domains (%.0f at the largest size; %.0f MB of workers' "
                   "scratch estimated)", budget / 1048576.0, floor(budget / dom_bytes),
                scratch / 1048576.0);
    }
    s.workers = vfy_alloc_array((size_t)s.n_workers, sizeof(worker));
    if (!s.workers)
        goto nomem;
    for (int t = 0; t < s.n_workers; t++)
        if (!worker_init(&s.workers[t], &s))
            goto nomem;
    /* a prefix search (refine.h) re-bounds its domains' hidden layers from the caller's root
     * slopes: its layers are the caller's first ones, so the slopes' layout is its own */
    if (opts->hidden_prior && opts->hidden_slopes && s.relu_split && !s.cert)
        keep_root_slopes(&s, opts->hidden_slopes, 0);
    for (int i = 0; i < BATCH; i++) {
        s.res[i].active = vfy_alloc_array((size_t)s.max_cases, sizeof(int64_t));
        s.res[i].x = vfy_alloc_array((size_t)nx, sizeof(double));
        s.res[i].bounds = vfy_alloc_array((size_t)s.n_flat, sizeof(double));
        if (!s.res[i].active || !s.res[i].x || !s.res[i].bounds)
            goto nomem;
        if (s.cert && !(s.res[i].par_alpha = vfy_alloc_array((size_t)(s.row_cap * s.n_half) + 1,
                                                             sizeof(double))))
            goto nomem;
    }
    if (s.cert && !(s.root_prior = vfy_alloc_array((size_t)s.n_flat + 1, sizeof(double))))
        goto nomem;
    box_cases = vfy_alloc_array((size_t)s.max_cases, sizeof(int64_t));
    s.case_done = vfy_alloc((size_t)spec->n_cases + 1);
    gt = vfy_alloc(sizeof *gt);
    if (!box_cases || !gt || !s.case_done)
        goto nomem;
    /* cases whose rows contradict each other are refuted before anything (not with a certificate,
     * whose checker re-derives every case from bounds) */
    int64_t n_contradict = 0;
    for (int64_t c = 0; !s.cert && c < spec->n_cases; c++)
        n_contradict += s.case_done[c] = (unsigned char)rows_contradict(&spec->cases[c], ny);
    if (n_contradict > 0)
        vfy_log(1, "%lld of %lld cases refuted by their rows alone (two rows contradict)",
                (long long)n_contradict, (long long)spec->n_cases);
    /* BLAS on one thread, with one worker too: the products are small and many, and OpenBLAS's
     * own threads wait for the next by spinning (sched_yield) on the other cores, so a search
     * given one thread used two (oval21 img876 with --threads 1: 13.3 s of CPU in 11.1 s) */
    vfy_la_single_thread();

    /* 1. attack every case before any proof effort, with a budget of about 3e7 multiply-adds of
     * sampling and 1e8 of gradient steps per case (2000 samples and 8 x 100 steps on ACAS Xu) */
    vfy_rng rng;
    vfy_rng_seed(&rng, opts->seed);
    double flops = 1;
    for (int64_t k = 0; k < net->n_layers; k++)
        flops += vfy_layer_madds(&net->layers[k]);
    int n_samples = (int)fmin(2000, fmax(50, 3e7 / flops));
    int pgd_steps = (int)fmin(100, fmax(20, 1e8 / (8 * 2 * flops)));
    /* on a wide network (large convolutions), or over thousands of cases, that attack is long,
     * and wasted where the root's bound proves the property at once: then a quick attack of about
     * ATTACK_QUICK_MADDS comes first, and the full one on a box's cases only once its root is
     * not refuted (ReLU splitting) or its first round leaves it open (input splitting). With
     * ReLU splitting the root's bound comes at once (one CROWN pass, far cheaper than the attack:
     * verivital, 0.1 s against 1 s), so there the attack is always deferred, the quick one a
     * tenth */
    /* (each evaluation also costs about ATTACK_LAYER_OVERHEAD multiply-adds' time a layer in
     * calls and loops: on a net of a few neurons that is nearly all of it, and 50,000 cases of
     * such a net took 20 s of full attacks before their roots were bounded, 0.3 ms each) */
    double attack_madds = (flops + ATTACK_LAYER_OVERHEAD * (double)net->n_layers) *
                          (double)spec->n_cases * (n_samples + 8.0 * 2.0 * pgd_steps);
    int attack_deferred = attack_madds > ATTACK_QUICK_MADDS || s.relu_split;
    if (attack_deferred) {
        double f = fmin(attack_madds > ATTACK_QUICK_MADDS ? 1.0 : 0.1,
                        ATTACK_QUICK_MADDS / attack_madds);
        attack_all(&s, res, &rng, (int)fmax(4, n_samples * f), 2, (int)fmax(5, pgd_steps * f),
                   ATTACK_SHARE);
    } else {
        res->attacked_cases = attack_all(&s, res, &rng, n_samples, 8, pgd_steps, ATTACK_SHARE);
    }

    /* 2. branch and bound, one box at a time. With ReLU splitting over two ReLU layers or more, in
     * two phases: a first search with a tenth of the time, which settles the easy instances at no
     * extra cost; if it runs out, unstable hidden neurons of the root are decided by prefix
     * searches (refine_root; every domain inherits the root's bounds) and the search starts again
     * with the rest of the time, from the box where it stopped (the boxes before are done). When
     * fewer than a twentieth of the unstable ReLUs were decided, a new root would mostly repeat the
     * first search: that search goes on instead, its frontier kept (the domains that the deadline
     * skipped were put back). Not for certificates (a checker cannot re-derive a prefix search),
     * nor inside a prefix search itself (hidden_prior set). */
    double t_final = s.dl.t_end;
    double t_progress = vfy_now() + PROGRESS_EVERY; /* -vv: the search's next progress line */
    double t_phase0 = vfy_now();
    int n_relu_layers = 0;
    for (int64_t k = 1; k < net->n_layers; k++)
        n_relu_layers += net->layers[k].kind == VFY_LAYER_RELU;
    int n_phases = (s.relu_split && !s.cert && !opts->hidden_prior && opts->refine &&
                    n_relu_layers >= 2)
                       ? 2
                       : 1;
    /* Violations inside an image-sized box need long descents (the step decays over them): 16
     * starts of up to 200 steps, within about 5e9 multiply-adds per case (mnist_fc 256x4: 200
     * steps, about 2 s for its 9 cases). Two phases run it between them; a single ReLU-split phase
     * (no LP: e.g. Sigmoid/Tanh networks) after a tenth of the time, once. */
    int long_steps = (int)fmin(200, fmax(pgd_steps, 5e9 / (16 * 2 * flops)));
    double t_long = n_phases == 1 && s.relu_split
                        ? vfy_now() + (isfinite(t_final) ? PHASE1_SHARE * (t_final - vfy_now())
                                                         : PHASE1_DEFAULT_S)
                        : INFINITY;
    int64_t bi_start = 0; /* the box where the first phase stopped */
    int64_t bi_attacked = -1; /* deferred attack: the boxes up to this one had their full attack */
    int kept = 0;         /* fr holds the first phase's frontier of box bi_start */
    for (int phase = 0; phase < n_phases; phase++) {
        int tighten = phase == 1;
        int restart = 0;
        if (n_phases == 2 && phase == 0)
            s.dl.t_end = vfy_now() + (isfinite(t_final) ? PHASE1_SHARE * (t_final - vfy_now())
                                                        : PHASE1_DEFAULT_S);
        else
            s.dl.t_end = t_final;
        for (int64_t bi = bi_start; bi < spec->n_boxes && res->verdict != VFY_SAT && !restart; bi++) {
            int64_t nc = 0;
            for (int64_t c = 0; c < spec->n_cases; c++)
                if (spec->cases[c].box == bi && !s.case_done[c])
                    box_cases[nc++] = c;
            if (nc == 0)
                continue;
            vfy_bound_ctx_set_facets(ctx, s.facets); /* (the search's, below, may add them) */
            /* the root's hidden bounds are tightened first, when there is time for it */
            int hidden = s.relu_split && !vfy_deadline_over(&s.dl), root_proved = 0;
            int box_attack = attack_deferred && bi > bi_attacked; /* its full attack is to come */
            int64_t n_t = 0, n_unstable = 0;
            /* a caller's constraints (opts->hidden_prior clamps their neurons) */
            int64_t n_rs = hidden && opts->hidden_prior && !s.cert ? opts->n_root_splits : 0;
            domain *root = domain_new(nx, hidden ? s.n_flat : 0, nc, n_rs, 0);
            if (!root)
                goto nomem;
            if (n_rs > 0) {
                memcpy(root->split_idx, opts->root_split_idx, (size_t)n_rs * sizeof(int64_t));
                memcpy(root->split_sign, opts->root_split_sign, (size_t)n_rs);
            }
            memcpy(root->lo, spec->boxes[bi].lo, (size_t)nx * sizeof(double));
            memcpy(root->hi, spec->boxes[bi].hi, (size_t)nx * sizeof(double));
            /* before root_refuted below reads them */
            memcpy(root->active, box_cases, (size_t)nc * sizeof(int64_t));
            vfy_bound_widen_input(ctx, nx, root->lo, root->hi);
            if (hidden) {
                /* ReLU splitting keeps the root's hidden bounds for every domain (children intersect
                 * with their parent's), so they are worth tightening: by alpha-CROWN (cheap) unless
                 * the root is refuted anyway, and in the second phase by prefix searches too, within
                 * REFINE_SHARE of the time left (REFINE_SIGN_SHARE for layers of sign searches) */
                vfy_bounds *b0 = s.workers[0].b;
                int64_t n_a = 0;
                double t1 = vfy_now();
                st = vfy_bound_layers(ctx, VFY_BOUND_CROWN, root->lo, root->hi, opts->hidden_prior,
                                      b0);
                /* (past the first phase's time too: the root's bounds may already refute it,
                 * and the refinement after would bound it again from the start) */
                /* a root whose rows do not fit at once is queued a copy per case (push_root):
                 * the cases refuted here are dropped first (not in a certificate, whose checker
                 * takes each case's proof from a domain) */
                int drop = !s.cert && rows_of(&s, box_cases, nc) > s.row_cap;
                int64_t n_open = -1;
                if (st == VFY_OK && vfy_now() < t_final)
                    n_open = open_cases(&s, &s.workers[0], root, drop ? root->active : NULL,
                                        drop ? s.case_done : NULL);
                root_proved = n_open == 0;
                if (drop && n_open >= 0) {
                    vfy_log(1, "root: %lld of %lld cases refuted, bounded %lld rows at a time",
                            (long long)(nc - n_open), (long long)nc, (long long)s.row_cap);
                    root->n_active = nc = n_open;
                    memcpy(box_cases, root->active, (size_t)nc * sizeof(int64_t));
                    if (nc == 0) { /* the box is done */
                        domain_free(root);
                        continue;
                    }
                }
                if (st == VFY_OK && box_attack && !root_proved) {
                    box_attack = 0;
                    bi_attacked = bi;
                    res->attacked_cases += attack_cases(&s, res, &rng, box_cases, nc, n_samples, 8,
                                                        pgd_steps, ATTACK_SHARE);
                }
                if (st == VFY_OK && !vfy_deadline_over(&s.dl) && !root_proved &&
                    res->verdict != VFY_SAT && !opts->hidden_prior) {
                    /* within a fifth of the whole time left, not of the first phase's: its
                     * bounds serve both phases, and cut short they serve both worse (oval21
                     * cifar_deep_kw img1052 at 72 s: 1.4 s, 972 bounds tightened against 1,156
                     * and a root gap of -0.115 against -0.077; a timeout, and unsat in 35.2 s
                     * with the single phase's pass). The first phase's clock then starts after
                     * it, as after the root's LP. On wide convolutional nets it is not cheap. */
                    vfy_deadline adl = {vfy_now() + ROOT_TIGHTEN_DEFAULT_S, 0};
                    if (isfinite(t_final))
                        adl.t_end = vfy_now() + HIDDEN_ALPHA_SHARE * (t_final - vfy_now());
                    int extend = n_phases == 2 && phase == 0;
                    root_rec rr = {opts, bi, root->lo, root->hi};
                    /* the slopes of the root's hidden bounds, kept for its domains (not in
                     * certificates: the checker re-bounds a domain's layers by CROWN's defaults) */
                    if (!s.cert && s.relu_split && (!s.slopes || s.slopes_box != bi)) {
                        /* (a later phase keeps them: the root's bounds only tighten) */
                        keep_root_slopes(&s, NULL, 0);
                        keep_root_slopes(&s, vfy_bound_slopes_create(ctx, b0, SLOPES_MAX_BYTES), 1);
                        s.slopes_box = bi;
                    }
                    double t_pass = vfy_now();
                    st = vfy_bound_tighten_alpha_rec(ctx, root->lo, root->hi, b0, HIDDEN_ALPHA_ITERS,
                                                     &adl, &n_a,
                                                     opts->on_root_bound ? root_bound_rec : NULL, &rr);
                    double t_plain = vfy_now() - t_pass;
                    /* the facet pass below (fully connected nets) has the plain pass's deadline,
                     * a fifth of the whole time left, the first phase extended by what it takes.
                     * A fifth of the first phase's time cut it short on its edge: on mnist_fc
                     * 256x6 prop_12_0.05 at 300 s the whole pass takes 4.6-5.4 s against that
                     * 6 s, and cut short (1,752 bounds tightened of 2,008) it left layer 7 with
                     * 235 unstable neurons instead of 204, the refinement 729 candidates instead
                     * of 659, and the search a timeout at a gap of -0.207 (unsat in 198.6 s
                     * after the whole pass) */
                    if (extend)
                        s.dl.t_end = fmin(t_final, s.dl.t_end + t_plain);
                    if (st == VFY_OK && s.root_facets && !s.facets && phase == 0 &&
                        !vfy_deadline_over(&adl) &&
                        vfy_now() + FACET_PASS_ROOM * t_plain < s.dl.t_end) {
                        /* a second pass with the facets, within the same time: on fully
                         * connected nets they cost 5-20 times as much, and a pass cut short
                         * leaves its later layers as they were (keeping the better of each
                         * bound): in place of the first, its cut on mnist_fc 256x4 prop_0_0.05
                         * at 8 s left 292 neurons unstable against the plain pass's 204. Not
                         * after a refinement, whose prefix searches do better without it: the
                         * neurons they prove stable carry multipliers (root splits), those the
                         * facets made stable none (256x4 prop_9_0.05 at 75 s: 132 left unstable
                         * without the pass, 145 with it, and a timeout). Nor when the phase's
                         * time left is short of FACET_PASS_ROOM plain passes: its layers check
                         * the deadline between them, and one with facets may overrun it by a
                         * second, the first phase's whole time at an 8 s timeout (no refinement
                         * then: test_refine_phase_benchmark) */
                        double t_fac = vfy_now();
                        int64_t n_f = 0;
                        vfy_bound_ctx_set_facets(ctx, 1);
                        if (vfy_bound_ctx_facets(ctx)) { /* (a ReLU layer that takes them) */
                            st = vfy_bound_tighten_alpha_rec(ctx, root->lo, root->hi, b0,
                                                             HIDDEN_ALPHA_ITERS, &adl, &n_f, NULL,
                                                             NULL);
                            vfy_log(2, "root: %lld hidden bounds tightened by a pass with facets "
                                    "in %.2f s", (long long)n_f, vfy_now() - t_fac);
                        }
                        vfy_bound_ctx_set_facets(ctx, 0);
                        if (extend)
                            s.dl.t_end = fmin(t_final, s.dl.t_end + (vfy_now() - t_fac));
                    }
                    if (st == VFY_OK && s.act_lines && !opts->on_root_bound) {
                        long_attack la = {&t_long, &rng, n_samples, long_steps};
                        /* (the time of the plain pass: deepen_root's passes are plain) */
                        st = deepen_root(&s, root, b0, t_plain, res, &la);
                    }
                    if (st == VFY_OK && phase == 0 && s.root_lp_on && !opts->on_root_bound &&
                        !vfy_deadline_over(&s.dl)) {
                        double t_lp = vfy_now();
                        int64_t left = root_lp(&s, &s.workers[0], root, t_final, res);
                        if (left < 0)
                            st = VFY_ERR_NOMEM;
                        /* the first phase's clock starts after it */
                        if (n_phases == 2)
                            s.dl.t_end = fmin(t_final, s.dl.t_end + (vfy_now() - t_lp));
                        if (left == 0) { /* the box is done */
                            domain_free(root);
                            continue;
                        }
                        nc = left;
                        memcpy(box_cases, root->active, (size_t)nc * sizeof(int64_t));
                    }
                    if (st == VFY_OK && tighten && !vfy_deadline_over(&s.dl)) {
                        vfy_deadline tdl = {vfy_now() + ROOT_TIGHTEN_DEFAULT_S, 0};
                        vfy_deadline tdl_sign = tdl;
                        if (isfinite(s.dl.t_end)) {
                            tdl.t_end = vfy_now() + REFINE_SHARE * (s.dl.t_end - vfy_now());
                            tdl_sign.t_end =
                                vfy_now() + REFINE_SIGN_SHARE * (s.dl.t_end - vfy_now());
                        }
                        /* a first search kept goes on unless the refinement decides enough */
                        int64_t min_proved =
                            kept && bi == bi_start
                                ? (count_unstable(&s, b0) + REFINE_KEEP - 1) / REFINE_KEEP
                                : 0;
                        st = refine_root(&s, root, bi, box_cases, nc, &tdl, &tdl_sign, min_proved,
                                         &n_t);
                    }
                }
                if (st != VFY_OK) {
                    domain_free(root);
                    goto nomem;
                }
                vfy_bounds_export(ctx, b0, root->prior);
                n_unstable = count_unstable(&s, b0);
                res->alpha_tightened += n_a;
                res->refined += n_t;
                vfy_log(1, "root: %lld hidden bounds tightened by alpha-CROWN, %lld neurons made stable "
                           "by prefix searches, in %.2f s; %lld unstable", (long long)n_a,
                        (long long)n_t, vfy_now() - t1, (long long)n_unstable);
            }
            root->prio = -INFINITY;
            if (kept && bi == bi_start && REFINE_KEEP * n_t < n_unstable && !root_proved) {
                vfy_log(1, "refinement decided %lld of %lld unstable: the first search goes on",
                        (long long)n_t, (long long)n_unstable);
                domain_free(root);
            } else {
                if (kept) {
                    /* the first search's queue is gone, and the refinement's searches too: the
                     * new one gets the ceiling less the scratch and what the process holds now
                     * (their freed memory handed back: kept, it let 256x4 prop_2_0.05 reach
                     * 2,384 MB under the 2,048 MB ceiling) */
                    frontier_free(&fr);
                    memset(&fr, 0, sizeof fr);
                    vfy_release_free_memory();
                    fr.budget = queue_budget(opts, s.scratch_bytes + s.stack_room);
                }
                s.round = 0;
                if (!compact_begin(&s, root, fr.n + fr.n_stk == 0)) {
                    domain_free(root);
                    goto nomem;
                }
                root->of_base = s.base != NULL;
                if (s.base && s.n_cp > res->compact_entries)
                    res->compact_entries = s.n_cp;
                if (!push_root(&s, &fr, root, res))
                    goto nomem;
            }
            kept = 0;
            /* the long attack waits for a first round: a root whose tightening alone ran past
             * t_long may be proved by it (eran sigmoid: 2.8 s of attack after a 3.4 s root) */
            int64_t rounds_here = 0;
            vfy_gap_track_reset(gt);
            /* (the last search: the one after the refinement, or the only one) */
            vfy_bound_ctx_set_facets(ctx, s.facets || (s.search_facets && phase == n_phases - 1));
            while (fr.n + fr.n_stk > 0 && res->verdict != VFY_SAT) {
                if (rounds_here > 0 && box_attack) {
                    box_attack = 0;
                    bi_attacked = bi;
                    res->attacked_cases += attack_cases(&s, res, &rng, box_cases, nc, n_samples, 8,
                                                        pgd_steps, ATTACK_SHARE);
                    if (res->verdict == VFY_SAT)
                        break;
                }
                if (rounds_here > 0 && vfy_now() >= t_long) {
                    t_long = INFINITY;
                    attack_all(&s, res, &rng, n_samples, 16, long_steps, ATTACK_SHARE);
                    if (res->verdict == VFY_SAT) {
                        vfy_log(1, "counterexample found by the long attack during the search");
                        break;
                    }
                }
                if (fr.n + fr.n_stk > res->max_queued)
                    res->max_queued = fr.n + fr.n_stk;
                if ((int64_t)fr.max_bytes > res->max_domain_bytes)
                    res->max_domain_bytes = (int64_t)fr.max_bytes;
                /* past the memory ceiling (domains on the stack) each round adds at most its
                 * size to the stack, which so holds at most STACK_BATCH domains per level of
                 * depth */
                int take = fr.n_stk > 0 ? STACK_BATCH : BATCH;
                s.n_batch = 0;
                while (s.n_batch < take && fr.n + fr.n_stk > 0)
                    s.batch[s.n_batch++] = frontier_pop(&fr);
                run_batch(&s);
                s.round++;
                rounds_here++;
                /* apply in batch order; children pushed so the first domain's are on top */
                int timed_out = 0;
                for (int i = s.n_batch - 1; i >= 0; i--) {
                    domain *d = s.batch[i];
                    dresult *r = &s.res[i];
                    if (opts->on_refuted && (r->kind == R_PROVED || r->kind == R_SPLIT) &&
                        !report_refuted(&s, d, r, bi, box_cases)) {
                        for (int j = i; j >= 0; j--)
                            domain_free(s.batch[j]);
                        goto nomem;
                    }
                    s.lp_tried += r->lp_tried;
                    s.lp_won += r->lp_won;
                    /* (a domain skipped at the deadline after its bounds counts as not bounded:
                     * it comes back, or the search ends) */
                    if (r->kind != R_SKIPPED)
                        res->rebounded += r->rebounded;
                    s.interm_cut += r->cut;
                    s.interm_n += (double)r->cut_n;
                    if (s.interm_n > INTERM_WINDOW) {
                        s.interm_cut *= 0.5;
                        s.interm_n *= 0.5;
                    }
                    if (s.case_domains && r->kind != R_SKIPPED && r->kind != R_NOMEM)
                        for (int64_t a = 0; a < d->n_active; a++)
                            s.case_domains[d->active[a]]++;
                    switch (r->kind) {
                    case R_PROVED:
                        res->domains++;
                        domain_free(d);
                        break;
                    case R_STUCK:
                        res->domains++;
                        res->unresolved++;
                        domain_free(d);
                        break;
                    case R_SAT:
                        res->domains++;
                        domain_free(d);
                        break;
                    case R_SKIPPED: /* back to the frontier, for a search that goes on */
                        timed_out = 1;
                        if (!frontier_push(&fr, d)) {
                            domain_free(d);
                            for (int j = i - 1; j >= 0; j--)
                                domain_free(s.batch[j]);
                            goto nomem;
                        }
                        break;
                    case R_NOMEM:
                        domain_free(d);
                        for (int j = i - 1; j >= 0; j--)
                            domain_free(s.batch[j]);
                        goto nomem;
                    case R_SPLIT: {
                        res->domains++;
                        if (r->relu && opts->case_trees && !s.cert && r->n_active >= 2 &&
                            d->depth == 0) {
                            /* a box's root: a tree for each case it leaves open (case_roots) */
                            int ok = case_roots(&s, &fr, d, r, res);
                            domain_free(d);
                            if (ok)
                                break;
                            for (int j = i - 1; j >= 0; j--)
                                domain_free(s.batch[j]);
                            goto nomem;
                        }
                        int64_t nsp = d->n_splits + (r->relu ? 1 : 0);
                        /* (children are compact when the search has a base and d is of it: a
                         * root, or compact itself) */
                        int cmp = s.base && (d->compact || d->of_base);
                        int64_t n_prior = cmp ? 2 * s.n_cp : s.n_flat;
                        int64_t n_ws = cmp ? s.n_cw : s.n_relu;
                        int64_t n_warm = r->relu ? r->warm_rows * (n_ws + r->warm_nsp) : 0;
                        /* a ReLU split keeps the box: the children share d's; and (but for
                         * certificates, whose priors are built per child) one copy of the prior
                         * and warm start, which they have alike. Each block is held by a
                         * reference of this code's own meanwhile. */
                        int share = r->relu && !s.cert;
                        shared_block *sb = r->relu ? domain_box_share(d, nx) : NULL;
                        shared_block *pw =
                            share ? block_new((size_t)n_prior * sizeof(double) +
                                              (size_t)n_warm * sizeof(float))
                                  : NULL;
                        domain *ch[2] = {NULL, NULL};
                        if (sb)
                            sb->refs++;
                        if (pw)
                            pw->refs++;
                        if ((sb || !r->relu) && (pw || !share)) {
                            ch[0] = domain_new_in(nx, sb, pw, n_prior, r->n_active, nsp, n_warm);
                            ch[1] = domain_new_in(nx, sb, pw, n_prior, r->n_active, nsp, n_warm);
                        }
                        /* (a new block no child holds goes here; d's box stays d's) */
                        block_unref(sb);
                        block_unref(pw);
                        if (!ch[0] || !ch[1]) {
                            domain_free(ch[0]);
                            domain_free(ch[1]);
                            domain_free(d);
                            for (int j = i - 1; j >= 0; j--)
                                domain_free(s.batch[j]);
                            goto nomem;
                        }
                        double mid = r->relu ? 0.0 : 0.5 * (d->lo[r->dim] + d->hi[r->dim]);
                        for (int h = 0; h < 2; h++) {
                            if (!ch[h]->sbox) {
                                memcpy(ch[h]->lo, d->lo, (size_t)nx * sizeof(double));
                                memcpy(ch[h]->hi, d->hi, (size_t)nx * sizeof(double));
                            }
                            memcpy(ch[h]->active, r->active, (size_t)r->n_active * sizeof(int64_t));
                            ch[h]->compact = cmp;
                            /* (a shared prior and warm start are filled in once, by ch[0]) */
                            if (h == 0 || !ch[1]->spw)
                                fill_prior_warm(&s, r, cmp, ch[h]->prior,
                                                n_warm > 0 ? ch[h]->warm : NULL);
                            ch[h]->depth = d->depth + 1;
                            ch[h]->stale = !r->relu ? 0
                                           : (r->rebounded || d->n_splits == 0) ? 1
                                                                                : d->stale + 1;
                            if (n_warm > 0) {
                                ch[h]->warm_rows = r->warm_rows;
                                ch[h]->warm_nsp = r->warm_nsp;
                            }
                        }
                        for (int h = 0; h < 2; h++) {
                            memcpy(ch[h]->split_idx, d->split_idx, (size_t)d->n_splits * sizeof(int64_t));
                            memcpy(ch[h]->split_sign, d->split_sign, (size_t)d->n_splits);
                            memcpy(ch[h]->split_off, d->split_off,
                                   (size_t)d->n_splits * sizeof(double));
                            if (r->relu) {
                                ch[h]->split_idx[d->n_splits] = r->dim;
                                ch[h]->split_sign[d->n_splits] = h ? 1 : -1;
                                ch[h]->split_off[d->n_splits] = r->split_at;
                            }
                        }
                        if (r->relu) {
                            /* SOUND: z <= t or z >= t covers every input (t the split point: 0 for
                             * a ReLU); each child's layer bounds (its prior) hold on its part,
                             * clamped by its sign at t */
                            int64_t half = s.n_flat / 2;
                            if (s.cert) {
                                /* certificates: a domain's bounds must follow from the root's and
                                 * its own splits alone, as the checker derives them (not from the
                                 * path's intersections) */
                                if (d->n_splits == 0)
                                    memcpy(s.root_prior, r->bounds, (size_t)s.n_flat * sizeof(double));
                                for (int h = 0; h < 2; h++) {
                                    memcpy(ch[h]->prior, s.root_prior, (size_t)s.n_flat * sizeof(double));
                                    for (int64_t q = 0; q < nsp; q++) {
                                        int64_t f = ch[h]->split_idx[q];
                                        double t = ch[h]->split_off[q], *pr = ch[h]->prior;
                                        if (ch[h]->split_sign[q] > 0 && pr[f] < t)
                                            pr[f] = t;
                                        if (ch[h]->split_sign[q] < 0 && pr[half + f] > t)
                                            pr[half + f] = t;
                                    }
                                }
                            }
                            /* (a split neuron is unstable on the domain's bounds, which lie
                                 * within the base's: it is in the compact set; were it not, the
                                 * clamp would only be left out, the split staying a constraint) */
                            int64_t lo_at = cmp ? s.cp_pos[r->dim] : r->dim;
                            int64_t hi_at = cmp ? s.n_cp + lo_at : half + r->dim;
                            /* (a shared prior gets each child's clamps as it is read) */
                            double t = r->split_at;
                            if (lo_at >= 0 && !ch[0]->spw && ch[0]->prior[hi_at] > t)
                                ch[0]->prior[hi_at] = t;
                            if (lo_at >= 0 && !ch[1]->spw && ch[1]->prior[lo_at] < t)
                                ch[1]->prior[lo_at] = t;
                        } else {
                            /* SOUND: [lo, mid] ∪ [mid, hi] = [lo, hi] */
                            ch[0]->hi[r->dim] = mid;
                            ch[1]->lo[r->dim] = mid;
                        }
                        if (ch[0]->depth > res->max_depth)
                            res->max_depth = ch[0]->depth;
                        domain_free(d);
                        ch[0]->prio = ch[1]->prio = r->prio;
                        /* a child the look-ahead refuted is done (branch_choice) */
                        for (int h = 0; h < 2; h++)
                            if (r->closed[h]) {
                                domain_free(ch[h]);
                                ch[h] = NULL;
                                res->lookahead_closed++;
                            }
                        if (ch[1] && !frontier_push(&fr, ch[1])) {
                            domain_free(ch[0]);
                            domain_free(ch[1]);
                            goto nomem;
                        }
                        if (ch[0] && !frontier_push(&fr, ch[0])) {
                            domain_free(ch[0]);
                            goto nomem;
                        }
                        break;
                    }
                    }
                }
                int first_of_two = n_phases == 2 && phase == 0;
                int progress_line = vfy_log_on(2) && vfy_now() >= t_progress;
                double worst = INFINITY; /* the open domains' worst gap (their parents' bounds) */
                if (first_of_two || progress_line) {
                    worst = fr.n ? fr.heap[0]->prio : INFINITY;
                    for (int64_t i = 0; i < fr.n_stk; i++)
                        worst = fmin(worst, fr.stk[i]->prio);
                }
                if (progress_line) {
                    vfy_log(2, "search: %lld domains, %lld open, worst gap %.4g, depth %lld",
                            (long long)res->domains, (long long)(fr.n + fr.n_stk), worst,
                            (long long)res->max_depth);
                    t_progress = vfy_now() + PROGRESS_EVERY;
                }
                int hopeless = 0;
                if (first_of_two && !timed_out && fr.n + fr.n_stk > 0) {
                    double now = vfy_now();
                    vfy_gap_track_add(gt, now, worst);
                    hopeless = vfy_gap_hopeless(gt, now, s.dl.t_end);
                    res->first_phase_cut = hopeless;
                    if (hopeless)
                        vfy_log(1, "first phase: worst gap %.4g after %.1f s (the root's %.4g), "
                                   "closing too slowly: it ends here",
                                worst, now - gt->t0, gt->root);
                }
                for (int i = 0; i < s.n_batch; i++)
                    if (s.res[i].kind == R_SAT) {
                        set_sat(&s, res, s.res[i].x, s.res[i].sat_case);
                        break;
                    }
                /* the first phase's time is up, with time left after it */
                int phase_up = first_of_two && timed_out && res->verdict != VFY_SAT &&
                               s.dl.t_end < t_final;
                if (phase_up && res->domains == 0 && vfy_now() < t_final) {
                    /* the root's bounds took all of the first phase: each prefix search costs at
                     * least as much, so the refinement would not pay (a CIFAR-sized convBig's root
                     * took 12 s of 12, then the refinement 31 s for nothing) */
                    res->first_phase_on = 1;
                    vfy_log(1, "first phase: its time went to the root's bounds (%.1f s): the "
                               "search goes on without the refinement", vfy_now() - t_phase0);
                    s.dl.t_end = t_final;
                    n_phases = 1; /* (nor is it judged hopeless later: one search to the end) */
                    vfy_bound_ctx_set_facets(ctx, s.facets || s.search_facets);
                    continue;
                }
                if (phase_up && vfy_gap_on_track(gt, vfy_now(), t_final)) {
                    /* the first search is on track: it goes on to the end, unrefined */
                    res->first_phase_on = 1;
                    vfy_log(1, "first phase: worst gap %.4g after %.1f s (the root's %.4g), "
                               "closing in time: it goes on without the refinement",
                            gt->g[gt->n - 1], vfy_now() - gt->t0, gt->root);
                    s.dl.t_end = t_final;
                    vfy_bound_ctx_set_facets(ctx, s.facets || s.search_facets);
                    continue;
                }
                if ((timed_out || hopeless) && res->verdict != VFY_SAT && phase + 1 < n_phases &&
                    vfy_now() < t_final) {
                    restart = 1; /* the first phase's time is up: start again, tightened */
                    bi_start = bi;
                    break;
                }
                if (timed_out && res->verdict != VFY_SAT) {
                    res->verdict = VFY_TIMEOUT;
                    snprintf(res->reason, sizeof res->reason, "deadline after %lld domains",
                             (long long)res->domains);
                    double rhs = spec->n_cases == 1 && spec->cases[0].n_rows == 1
                                     ? spec->cases[0].rows[0].rhs_hi : NAN;
                    if (spec->n_boxes == 1 && isfinite(rhs) && res->unresolved == 0) {
                        /* SOUND: every domain of the box is either closed (its row's lower bound
                         * above rhs_hi) or here, with prio = its parent's sound lower bound of the
                         * row less rhs_hi, rounded down (valid on the parent's superset of it) */
                        double ob = 0.0;
                        for (int64_t i = 0; i < fr.n; i++)
                            ob = fmin(ob, fr.heap[i]->prio);
                        for (int64_t i = 0; i < fr.n_stk; i++)
                            ob = fmin(ob, fr.stk[i]->prio);
                        res->open_bound = vfy_add_down(ob, rhs);
                    }
                    if (vfy_log_on(2) && spec->n_cases > 1)
                        log_open_cases(&s, &fr);
                    goto done;
                }
            }
        }
        if (!restart)
            break;
        res->first_phase_s = vfy_now() - t_phase0;
        vfy_log(1, "first phase out of time after %lld domains: refining the root's hidden bounds",
                (long long)res->domains);
        /* a proof is not quick: before the second phase, the long attack (above) */
        s.dl.t_end = t_final;
        attack_all(&s, res, &rng, n_samples, 16, long_steps, ATTACK_SHARE);
        if (res->verdict == VFY_SAT) {
            vfy_log(1, "counterexample found by the attack between the phases");
            break;
        }
        kept = 1; /* (the count of unresolved leaves carries over: a restart can only
                   * overstate it, which costs a proof, never soundness) */
    }
    s.dl.t_end = t_final; /* a first phase that ended unresolved leaves the rest to the attack */
    if (opts->attack && res->verdict != VFY_SAT && res->unresolved > 0 &&
        !vfy_deadline_over(&s.dl)) {
        /* 3. no proof is coming: spend what is left of the time on the attack, with rounds of
         * longer descents (steps doubling up to 1000) from fresh samples, every case in turn;
         * without a deadline, FINAL_ATTACK_ROUNDS rounds (without the attack, nothing: this loop
         * spun on a no-op until the deadline, e.g. in a prefix search with a stuck leaf) */
        int steps = pgd_steps;
        for (int round = 0; !vfy_deadline_over(&s.dl) && res->verdict != VFY_SAT &&
                            (isfinite(s.dl.t_end) || round < FINAL_ATTACK_ROUNDS);
             round++) {
            steps = steps * 2 > 1000 ? 1000 : steps * 2;
            attack_all(&s, res, &rng, n_samples, 8, steps, 1.0);
        }
        if (res->verdict == VFY_SAT)
            vfy_log(1, "counterexample found by the attack after the search ended unresolved");
    }
    if (res->verdict != VFY_SAT) {
        if (res->unresolved > 0) {
            res->verdict = VFY_UNKNOWN;
            snprintf(res->reason, sizeof res->reason,
                     "%lld domains could be neither split further nor decided",
                     (long long)res->unresolved);
        } else {
            res->verdict = VFY_UNSAT;
        }
    }
    goto done;
nomem:
    st = vfy_fail(err, VFY_ERR_NOMEM, "out of memory during the search");
done:
    res->lp_domains = atomic_load(&s.lp_domains);
    res->lp_refuted = atomic_load(&s.lp_refuted);
    res->lp_solves = atomic_load(&s.lp_solves);
    res->lp_time_s = 1e-9 * (double)atomic_load(&s.lp_ns);
    if (st == VFY_OK && res->verdict == VFY_SAT) {
        float *xf = (float *)s.workers[0].cand; /* n_in floats fit in n_in doubles */
        float *scratch = vfy_alloc_array((size_t)(2 * vfy_net_max_width(net)), sizeof(float));
        double *sd = vfy_alloc_array((size_t)vfy_eval_ws_len(net), sizeof(double));
        if (!scratch || !sd) {
            st = vfy_fail(err, VFY_ERR_NOMEM, "out of memory");
        } else {
            for (int64_t j = 0; j < nx; j++)
                xf[j] = (float)res->x[j];
            vfy_eval_f32(net, xf, res->y32, scratch);
            vfy_eval_f64(net, res->x, res->y64, sd);
            vfy_eval_out_f32(net, res->y32); /* the model's own outputs (a Softmax's) */
            vfy_eval_out_f64(net, res->y64);
        }
        vfy_free(scratch);
        vfy_free(sd);
    }
    if (s.case_domains)
        log_case_line("domains bounded (case: domains; one with several open counts for each)",
                      spec->n_cases, s.case_domains, NULL);
    vfy_free(s.case_domains);
    frontier_free(&fr);
    vfy_free(box_cases);
    vfy_free(s.case_done);
    vfy_free(gt);
    for (int i = 0; i < BATCH; i++) {
        vfy_free(s.res[i].active);
        vfy_free(s.res[i].x);
        vfy_free(s.res[i].bounds);
        vfy_free(s.res[i].par_alpha);
        vfy_free(s.res[i].par_beta);
    }
    vfy_free(s.g_alpha);
    vfy_free(s.g_beta);
    vfy_free(s.root_prior);
    vfy_free(s.base);
    vfy_free(s.cp_idx);
    vfy_free(s.cp_pos);
    vfy_free(s.cw_idx);
    for (int i = 0; i < BATCH; i++)
        vfy_free(s.res[i].warm);
    if (s.workers) {
        keep_root_slopes(&s, NULL, 0);
        for (int t = 0; t < s.n_workers; t++)
            worker_free(&s.workers[t]);
    }
    vfy_free(s.workers);
    vfy_bound_ctx_free(ctx);
    res->time_s = vfy_now() - t0;
    if (st != VFY_OK) {
        res->verdict = VFY_UNKNOWN;
        vfy_verify_result_free(res); /* (a failed call leaves nothing to free) */
    }
    return st;
}
