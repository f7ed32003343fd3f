/* refine: hidden bounds decided by searches on the network's prefixes (see refine.h). */
#include "vfy/refine.h"
#include "vfy/attack.h"
#include "vfy/eval.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define DESCENT_STEPS 3      /* vertex steps per neuron and sign when looking for both signs */
#define RANDOM_VERTICES 8    /* random corners of the box evaluated first */
#define MIN_START_S 0.02     /* a prefix search is not started with less time than this */
/* A prefix search gets at least this long when the time allows (a fair share of a layer with
 * hundreds of candidates is too short to prove any: better to decide the best-scored ones) */
#define MIN_SEARCH_S 0.5
/* A layer's sign searches cut short by their share are run again, each with at least RETRY_GROWTH
 * times the floor of the pass before, within RETRY_SHARE of the time the layer leaves (at most
 * RETRY_PASSES passes; not on the last layer refined). Early in a layer a share is its floor
 * (hundreds of candidates left), and the layers of sign searches mostly end well inside their
 * time (mnist_fc 256x6 prop_12_0.05: layer 9's 255 searches in 23.7 s of 58.9 s, 22 of them cut
 * short at the floor; at 900 s, with longer shares, 5), the rest going to the next layers */
/* With all of the time left (RETRY_SHARE 1), 256x6 prop_13_0.05 took 131 s (99 s without
 * retries): its layers 5 and 7 spent 37 s on them; with half, 115 s, and prop_12_0.05 198 s */
#define RETRY_GROWTH 2.0
#define RETRY_PASSES 3
#define RETRY_SHARE 0.5
/* ...and each at most RETRY_CAP times its pass's floor: a layer whose bounds' searches were
 * skipped (BOUND_PROBE) leaves most of its time, which one sign search cut short would otherwise
 * take (oval21 cifar_deep_kw img9931, layer 3: one search run again for 14 s, then 7 s, in vain) */
#define RETRY_CAP 4.0
/* A neuron seen at both signs has its bound searched when the value seen leaves at least this
 * share of its interval to gain; the search's target is that far (a share of the gap) past the
 * value */
#define TIGHTEN_MIN_GAIN 0.05
#define TIGHTEN_SLACK 0.02
/* ...and at most this long: a layer with few of them leaves the rest of its time to the next
 * layers and to the search after (its bound gains little past a second, a search's delay costs) */
#define MAX_TIGHTEN_S 1.0
/* A layer's searches of a bound stop once BOUND_PROBE of them have ended and fewer than one in
 * BOUND_YIELD changed a bound: the rest would not either, and their time goes to the next layers
 * and to the search after. On mnist_fc a bound's search pays (256x6 prop_12_0.05, layer 3: 116 of
 * them and 24 of a sign changed 57 bounds); on oval21 the prefix searches' attacks find values
 * past nearly every target (cifar_deep_kw img9931: 431 of them changed 3 bounds in 25.7 s of its
 * layer 3, 579 changed 10 in layer 5, and the refinement took 131 s of 300 for 22 neurons made
 * stable, too few for the search to restart on them: bab.c keeps its first search then). */
#define BOUND_PROBE 32
#define BOUND_YIELD 16

typedef struct {
    const vfy_net *P;
    double **acts;
    double *x, *grad, *tmp, *g;
    signed char *seen; /* per output of P: bit 1 seen < 0, bit 2 seen > 0 */
    double *zmin, *zmax; /* per output of P: the least and greatest value seen */
} observer;

static void observe_at(observer *o, const double *x)
{
    const vfy_net *P = o->P;
    vfy_eval_forward_all(P, x, o->acts, o->tmp);
    const double *z = o->acts[P->n_layers - 1];
    for (int64_t j = 0; j < P->n_out; j++) {
        o->seen[j] |= (signed char)((z[j] < 0 ? 1 : 0) | (z[j] > 0 ? 2 : 0));
        o->zmin[j] = fmin(o->zmin[j], z[j]);
        o->zmax[j] = fmax(o->zmax[j], z[j]);
    }
}

/* Look for both signs of every unstable output of P over [lo, hi] (a heuristic: it only chooses
 * which neurons are worth a search, and which side). Each point is a corner of the box: the box's
 * random corners, then for each neuron and sign not yet seen, a few steps from the centre to the
 * corner that the gradient of +-z_j points to. */
static void observe(observer *o, const double *lo, const double *hi, const double *zlo,
                    const double *zhi, vfy_rng *rng, const vfy_deadline *dl)
{
    const vfy_net *P = o->P;
    int64_t nx = P->n_in;
    for (int r = 0; r < RANDOM_VERTICES; r++) {
        for (int64_t i = 0; i < nx; i++)
            o->x[i] = vfy_rng_uniform(rng) < 0.5 ? lo[i] : hi[i];
        observe_at(o, o->x);
    }
    for (int64_t j = 0; j < P->n_out; j++) {
        if (!(zlo[j] < 0 && zhi[j] > 0))
            continue;
        for (int side = 1; side <= 2; side++) {
            if (o->seen[j] & side)
                continue;
            if (dl && vfy_deadline_over(dl))
                return;
            for (int64_t i = 0; i < nx; i++)
                o->x[i] = 0.5 * (lo[i] + hi[i]);
            memset(o->g, 0, (size_t)P->n_out * sizeof(double));
            o->g[j] = side == 1 ? -1.0 : 1.0; /* side 1 looks for z_j < 0: ascend -z_j */
            for (int step = 0; step < DESCENT_STEPS && !(o->seen[j] & side); step++) {
                vfy_eval_forward_all(P, o->x, o->acts, o->tmp);
                vfy_eval_grad(P, o->x, o->acts, o->g, o->grad, o->tmp);
                for (int64_t i = 0; i < nx; i++)
                    o->x[i] = o->grad[i] > 0 ? hi[i] : (o->grad[i] < 0 ? lo[i] : o->x[i]);
                observe_at(o, o->x);
            }
        }
    }
}

/* What a prefix search on neuron j tries to prove: a sign the observations never contradicted
 * (z_j > 0, z_j < 0), or, for a neuron seen at both signs, a bound near the least (greatest) value
 * seen (z_j > target, z_j < target). */
enum { PROVE_ACTIVE, PROVE_INACTIVE, TIGHTEN_LO, TIGHTEN_HI };
/* which of a pre-activation's bounds a prefix search changed (flags per flat index) */
enum { SEARCHED_LO = 1, SEARCHED_HI = 2 };

typedef struct {
    int64_t j;
    int kind;
    double area;
    double target;
} cand;

/* signs first (a proof makes the ReLU stable), then by weight */
static int cand_cmp(const void *pa, const void *pb)
{
    const cand *a = pa, *b = pb;
    int ta = a->kind >= TIGHTEN_LO, tb = b->kind >= TIGHTEN_LO;
    if (ta != tb)
        return ta - tb;
    if (a->area != b->area)
        return a->area > b->area ? -1 : 1;
    if (a->j != b->j)
        return a->j < b->j ? -1 : 1;
    return a->kind - b->kind;
}

static void observer_free(observer *o, int64_t n_layers)
{
    if (o->acts)
        for (int64_t k = 0; k < n_layers; k++)
            vfy_free(o->acts[k]);
    vfy_free(o->acts);
    vfy_free(o->x);
    vfy_free(o->grad);
    vfy_free(o->tmp);
    vfy_free(o->g);
    vfy_free(o->seen);
    vfy_free(o->zmin);
    vfy_free(o->zmax);
}

static int observer_init(observer *o, const vfy_net *P)
{
    memset(o, 0, sizeof *o);
    o->P = P;
    o->acts = vfy_alloc_array((size_t)P->n_layers, sizeof(double *));
    o->x = vfy_alloc_array((size_t)P->n_in, sizeof(double));
    o->grad = vfy_alloc_array((size_t)P->n_in, sizeof(double));
    o->tmp = vfy_alloc_array((size_t)vfy_eval_ws_len(P), sizeof(double));
    o->g = vfy_alloc_array((size_t)P->n_out, sizeof(double));
    o->seen = vfy_alloc_array((size_t)P->n_out, 1);
    o->zmin = vfy_alloc_array((size_t)P->n_out, sizeof(double));
    o->zmax = vfy_alloc_array((size_t)P->n_out, sizeof(double));
    if (!o->acts || !o->x || !o->grad || !o->tmp || !o->g || !o->seen || !o->zmin || !o->zmax)
        return 0;
    for (int64_t j = 0; j < P->n_out; j++) {
        o->zmin[j] = INFINITY;
        o->zmax[j] = -INFINITY;
    }
    for (int64_t k = 0; k < P->n_layers; k++)
        if (!(o->acts[k] = vfy_alloc_array((size_t)P->layers[k].n_out, sizeof(double))))
            return 0;
    return 1;
}

/* The target of a bound's search from the value v seen (from below: the least value, else the
 * greatest), TIGHTEN_SLACK of the gap past it; 0 when the gap left to the bound [lo, hi] is not
 * worth a search. */
static int tighten_target(int from_below, double v, double lo, double hi, double *t)
{
    double gap = from_below ? v - lo : hi - v;
    if (!(TIGHTEN_MIN_GAIN * (hi - lo) < gap))
        return 0;
    *t = from_below ? v - TIGHTEN_SLACK * gap : v + TIGHTEN_SLACK * gap;
    return 1;
}

/* One prefix search: does an input of the box put the row of sub (on P's output j) at or below its
 * rhs? Within time_s, from the earlier layers' bounds pflat. *z_cex: on sat, z_j at the
 * counterexample (double evaluation). */
static vfy_status prefix_search(const vfy_net *P, const vfy_spec *sub, const vfy_verify_opts *opts,
                                const double *pflat, const vfy_splits *proved,
                                const vfy_splits *bounds, double time_s,
                                uint64_t seed, int64_t j, vfy_verdict *v, double *open_bound,
                                double *z_cex, int64_t *rebounded, vfy_error *err)
{
    vfy_verify_opts o;
    vfy_verify_opts_default(&o);
    o.timeout_s = fmax(time_s, 0.0);
    o.seed = opts->seed + seed;
    o.threads = 1; /* (refine_layer runs searches side by side instead) */
    o.float_semantics = opts->float_semantics;
    /* the searches running side by side share what the process leaves under the ceiling (the
     * caller's first search keeps its queue meanwhile: given a share of the whole ceiling, each
     * search's own floor, a quarter of it, went past: 2,315 MB under 2,048), at least a MB */
    double room_mb = opts->max_memory_mb - vfy_resident_bytes() / 1048576.0;
    o.max_memory_mb = fmax(1.0, room_mb / (opts->threads > 1 ? opts->threads : 1));
    o.alpha_iters = opts->alpha_iters;
    /* AUTO: a prefix search keeps its domains' later layers fixed (the parent's bounds, the
     * split neurons clamped): its one row made re-bounding them as costly as the alpha/beta
     * optimisation itself (39% of a search's time against 39%, mnist_fc 256x6), and
     * without it 256x6 prop_12_0.05's refinement bounded 15-37% more domains a second and
     * proved 651 signs instead of 542 in the same time */
    o.rebound = opts->rebound == VFY_REBOUND_AUTO ? VFY_REBOUND_NEVER : opts->rebound;
    o.lp = VFY_LP_OFF;
    o.split = VFY_SPLIT_RELU;
    o.hidden_prior = pflat;
    o.hidden_slopes = opts->hidden_slopes;
    o.n_root_splits = proved->n;
    o.root_split_idx = proved->idx;
    o.root_split_sign = proved->sign;
    o.root_bounds = bounds->n > 0 ? bounds : NULL;
    o.attack = 0; /* observe() looked already */
    o.facets = opts->facets;
    vfy_verify_result r;
    /* the prefix searches' own progress reports would drown the caller's (a search of one
     * thread logs from the calling thread only) */
    vfy_log_demote(2);
    vfy_status st = vfy_verify(P, sub, &o, &r, err);
    vfy_log_demote(-2);
    *v = st == VFY_OK ? r.verdict : VFY_UNKNOWN;
    *open_bound = st == VFY_OK ? r.open_bound : -INFINITY;
    *z_cex = st == VFY_OK && r.verdict == VFY_SAT && r.y64 ? r.y64[j] : NAN;
    *rebounded = st == VFY_OK ? r.rebounded : 0;
    if (st == VFY_OK)
        vfy_log(3, "refine: prefix search: %lld domains, %.3f s of %.3f s", (long long)r.domains,
                r.time_s, o.timeout_s);
    vfy_verify_result_free(&r);
    return st;
}

/* The searches of one layer, run by up to opts->threads threads side by side (each search on one
 * thread: a short search's root and first rounds leave a second worker idle). Each candidate's
 * bounds change under the lock; a layer's searches are independent (each starts from the layers
 * before, pflat). */
typedef struct {
    const vfy_net *P;
    const vfy_box *box;
    const vfy_verify_opts *opts;
    const double *pflat;
    const vfy_splits *proved; /* the earlier layers' neurons proved stable, as the roots' splits */
    const vfy_splits *bounds; /* the earlier layers' tightened bounds, as the roots' constraints */
    const vfy_deadline *dl;
    const cand *cs;
    int64_t k;
    const int64_t *order; /* the pass's candidates, indices into cs (NULL: cs in order) */
    int64_t n;            /* ...and their count */
    double min_s;         /* a sign search's floor in this pass */
    int n_threads;
    double *zlo, *zhi;
    unsigned char *searched; /* layer k-1's entries of the flags (refine_layer) */
    pthread_mutex_t mu; /* guards what follows, and zlo, zhi, searched */
    int64_t next;       /* the next candidate to search (a position in the pass) */
    int64_t *retry;     /* sign searches timed out in this pass (indices into cs)... */
    int64_t n_retry;    /* ...and their count */
    vfy_refine_stats *stats;
    int64_t n_changed;
    int64_t bound_done;    /* searches of a bound ended in this layer... */
    int64_t bound_changed; /* ...of which changed it */
    int64_t n_skipped;     /* searches of a bound skipped for that yield (BOUND_PROBE) */
    vfy_status st; /* the first failure */
    vfy_error err;
} layer_pool;

/* The candidate at position pos of the pool's pass (an index into cs) */
static int64_t pass_cand(const layer_pool *lp, int64_t pos)
{
    return lp->order ? lp->order[pos] : pos;
}

/* The candidate at position pos of the pool's pass: its search(es) within its share of the layer's
 * time; *any_changed: set when they changed a bound. */
static vfy_status search_targets(layer_pool *lp, int64_t pos, double *cy, vfy_row *row,
                                 const vfy_spec *sub, int *any_changed, vfy_error *err)
{
    const vfy_deadline *dl = lp->dl;
    double left = dl ? dl->t_end - vfy_now() : INFINITY;
    int64_t c = pass_cand(lp, pos);
    int64_t j = lp->cs[c].j, m = lp->P->n_out;
    int kind = lp->cs[c].kind;
    /* the row's unsafe side: z_j <= t (a proof gives z_j > t: t = 0 for a sign, the target for a
     * lower bound), or -z_j <= -t (z_j < t) */
    int from_below = kind == PROVE_ACTIVE || kind == TIGHTEN_LO;
    double t = lp->cs[c].target;
    /* an equal share of the layer's time left, the threads running side by side; a sign search
     * at least the pass's floor (a bound's search tightens in any time at all) */
    double share = left * (double)lp->n_threads / (double)(lp->n - pos);
    share = kind < TIGHTEN_LO ? fmax(lp->min_s, share) : fmin(MAX_TIGHTEN_S, share);
    double t_cand = vfy_now() + (isfinite(left) ? fmin(left, share) : 10.0);
    pthread_mutex_lock(&lp->mu);
    double lo = lp->zlo[j], hi = lp->zhi[j];
    pthread_mutex_unlock(&lp->mu);
    for (;;) {
        double z_cex = NAN;
        vfy_verdict v;
        double open_bound;
        int64_t rebounded;
        memset(cy, 0, (size_t)m * sizeof(double));
        cy[j] = from_below ? 1.0 : -1.0;
        row->rhs_lo = row->rhs_hi = from_below ? t : -t;
        vfy_status st = prefix_search(lp->P, sub, lp->opts, lp->pflat, lp->proved, lp->bounds,
                                      t_cand - vfy_now(),
                                      (uint64_t)c, j, &v, &open_bound, &z_cex, &rebounded,
                                      err);
        vfy_log(2, "refine: layer %lld neuron %lld (z %s %g? bounds [%g, %g]): %s, open bound %g",
                (long long)lp->k, (long long)j, from_below ? ">" : "<", t, lo, hi,
                vfy_verdict_name(v), open_bound);
        pthread_mutex_lock(&lp->mu);
        lp->stats->searches++;
        lp->stats->rebounded += rebounded;
        if (st == VFY_OK && v == VFY_SAT && kind < TIGHTEN_LO)
            lp->stats->observed++;
        if (st == VFY_OK && v == VFY_UNSAT) {
            /* SOUND: no input of the box (float32 executions included when ctx charges them)
             * puts z_j on the other side of t (exact: t is the row's rhs) */
            if (from_below)
                lp->zlo[j] = fmax(lp->zlo[j], t);
            else
                lp->zhi[j] = fmin(lp->zhi[j], t);
            lp->searched[j] |= from_below ? SEARCHED_LO : SEARCHED_HI;
            *any_changed = 1;
            if (kind < TIGHTEN_LO)
                lp->stats->proved++;
            else
                lp->stats->tightened++;
            lp->n_changed++;
        } else if (st == VFY_OK && v == VFY_TIMEOUT && open_bound > -INFINITY) {
            /* SOUND: the row (z_j, or -z_j) is at least open_bound over the whole box */
            int changed = 0;
            if (from_below && open_bound > lp->zlo[j]) {
                lp->zlo[j] = open_bound;
                lp->searched[j] |= SEARCHED_LO;
                changed = 1;
            } else if (!from_below && -open_bound < lp->zhi[j]) {
                lp->zhi[j] = -open_bound;
                lp->searched[j] |= SEARCHED_HI;
                changed = 1;
            }
            lp->stats->tightened += changed;
            lp->n_changed += changed;
            *any_changed |= changed;
        }
        if (st == VFY_OK && v == VFY_TIMEOUT && kind < TIGHTEN_LO)
            lp->retry[lp->n_retry++] = c;
        pthread_mutex_unlock(&lp->mu);
        if (st != VFY_OK || v != VFY_SAT || kind < TIGHTEN_LO)
            return st;
        /* a value past the target: the next target just short of it, while the gain left is
         * worth it and the time allows */
        double t_next;
        if (!tighten_target(from_below, z_cex, lo, hi, &t_next))
            return VFY_OK;
        if (from_below ? !(t_next < t) : !(t_next > t))
            return VFY_OK; /* (a float32 counterexample's double value at the target) */
        t = t_next;
        if (!(t_cand - vfy_now() > MIN_START_S))
            return VFY_OK;
    }
}

static vfy_status search_candidate(layer_pool *lp, int64_t pos, double *cy, vfy_row *row,
                                   const vfy_spec *sub, vfy_error *err)
{
    int changed = 0;
    vfy_status st = search_targets(lp, pos, cy, row, sub, &changed, err);
    if (lp->cs[pass_cand(lp, pos)].kind >= TIGHTEN_LO) {
        pthread_mutex_lock(&lp->mu);
        lp->bound_done++;
        lp->bound_changed += changed;
        pthread_mutex_unlock(&lp->mu);
    }
    return st;
}

/* Whether the candidate at position pos is a bound's search that the layer's yield so far says
 * to skip (BOUND_PROBE; under the pool's lock) */
static int bound_search_skipped(const layer_pool *lp, int64_t pos)
{
    return lp->cs[pass_cand(lp, pos)].kind >= TIGHTEN_LO && lp->bound_done >= BOUND_PROBE &&
           lp->bound_changed * BOUND_YIELD < lp->bound_done;
}

static void *layer_worker(void *arg)
{
    layer_pool *lp = arg;
    vfy_error err;
    int64_t m = lp->P->n_out;
    double *cy = vfy_alloc_array((size_t)m, sizeof(double));
    vfy_status st = cy ? VFY_OK : vfy_fail(&err, VFY_ERR_NOMEM, "out of memory refining hidden "
                                                                "bounds");
    vfy_row row = {.cy = cy, .rhs_lo = 0.0, .rhs_hi = 0.0};
    vfy_case cse = {0, 1, &row};
    vfy_spec sub = {.n_x = lp->P->n_in, .n_y = m, .n_boxes = 1, .boxes = (vfy_box *)lp->box,
                    .n_cases = 1, .cases = &cse};
    while (st == VFY_OK) {
        pthread_mutex_lock(&lp->mu);
        int64_t c = lp->st == VFY_OK ? lp->next++ : lp->n;
        if (c < lp->n && bound_search_skipped(lp, c)) {
            /* (the bounds' searches come last in a pass: cand_cmp) */
            lp->stats->bound_skipped += lp->n - c;
            lp->n_skipped += lp->n - c;
            lp->next = c = lp->n;
        }
        pthread_mutex_unlock(&lp->mu);
        double left = lp->dl ? lp->dl->t_end - vfy_now() : INFINITY;
        if (c >= lp->n || (lp->dl && (vfy_deadline_over(lp->dl) || !(left > MIN_START_S))))
            break;
        st = search_candidate(lp, c, cy, &row, &sub, &err);
    }
    if (st != VFY_OK) {
        pthread_mutex_lock(&lp->mu);
        if (lp->st == VFY_OK) {
            lp->st = st;
            lp->err = err;
        }
        pthread_mutex_unlock(&lp->mu);
    }
    vfy_free(cy);
    return NULL;
}

/* One pass of the pool's searches, on up to its n_threads threads; returns the threads run. */
static int run_pass(layer_pool *lp)
{
    pthread_t tid[64];
    int started = 0;
    for (int t = 1; t < lp->n_threads; t++) {
        if (pthread_create(&tid[t], NULL, layer_worker, lp) != 0)
            break;
        started = t;
    }
    layer_worker(lp);
    for (int t = 1; t <= started; t++)
        pthread_join(tid[t], NULL);
    return started + 1;
}

static int index_cmp(const void *pa, const void *pb)
{
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    return (a > b) - (a < b);
}

/* Decide the unstable pre-activations of ReLU layer k (layer k-1's outputs) by prefix searches,
 * within dl, or dl_sign (later) when at least half of the searches are of a sign; may_retry: the
 * sign searches cut short run again with part of the time the layer leaves (RETRY_SHARE). With
 * fewer candidates of a sign than need, none is searched (*hopeless). */
static vfy_status refine_layer(const vfy_bound_ctx *ctx, const vfy_box *box, vfy_bounds *b,
                               const double *start, unsigned char *searched,
                               const double *weight, int64_t k, int may_retry,
                               const vfy_verify_opts *opts,
                               const vfy_deadline *dl, const vfy_deadline *dl_sign, vfy_rng *rng,
                               int64_t need, int *hopeless, vfy_refine_stats *stats,
                               int64_t *n_changed, vfy_error *err)
{
    const vfy_net *net = vfy_bound_ctx_net(ctx);
    vfy_net *P = NULL;
    observer ob;
    memset(&ob, 0, sizeof ob);
    cand *cs = NULL;
    double *pflat = NULL;
    int64_t *sp_idx = NULL, *bd_idx = NULL;
    signed char *sp_sign = NULL, *bd_sign = NULL;
    double *bd_off = NULL;
    int64_t *retry = NULL;
    *n_changed = 0;
    vfy_status st = vfy_net_prefix(net, k, &P, err);
    if (st != VFY_OK)
        return st;
    int64_t m = P->n_out, half = 0;
    for (int64_t q = 0; q < k; q++)
        half += net->layers[q].n_out;
    int64_t woff = half - m; /* layer k-1's outputs in the flat layout */
    cs = vfy_alloc_array((size_t)(2 * m), sizeof(cand));
    pflat = vfy_alloc_array((size_t)(2 * half), sizeof(double));
    sp_idx = vfy_alloc_array((size_t)half + 1, sizeof(int64_t));
    sp_sign = vfy_alloc_array((size_t)half + 1, 1);
    bd_idx = vfy_alloc_array((size_t)(2 * half) + 1, sizeof(int64_t));
    bd_sign = vfy_alloc_array((size_t)(2 * half) + 1, 1);
    bd_off = vfy_alloc_array((size_t)(2 * half) + 1, sizeof(double));
    retry = vfy_alloc_array((size_t)(4 * m) + 1, sizeof(int64_t)); /* two lists of up to 2m */
    if (!retry || !cs || !pflat || !sp_idx || !sp_sign || !bd_idx || !bd_sign || !bd_off ||
        !observer_init(&ob, P)) {
        st = vfy_fail(err, VFY_ERR_NOMEM, "out of memory refining hidden bounds");
        goto done;
    }
    double *zlo = b->lo[k - 1], *zhi = b->hi[k - 1];
    observe(&ob, box->in_lo, box->in_hi, zlo, zhi, rng, dl_sign ? dl_sign : dl);
    int64_t n = 0, n_sign = 0, n_unstable = 0, n_both = 0;
    for (int64_t j = 0; j < m; j++) {
        if (!(zlo[j] < 0 && zhi[j] > 0))
            continue;
        n_unstable++;
        double w = weight ? weight[woff + j] : -zlo[j] * zhi[j] / (zhi[j] - zlo[j]);
        if (ob.seen[j] == 3) {
            stats->observed++;
            n_both++;
            /* really unstable: its bounds are worth tightening when the values seen leave a
             * good share of the relaxation's interval (a target just short of the value seen,
             * so that a search can prove it) */
            double t;
            if (tighten_target(1, ob.zmin[j], zlo[j], zhi[j], &t))
                cs[n++] = (cand){j, TIGHTEN_LO, w, t};
            if (tighten_target(0, ob.zmax[j], zlo[j], zhi[j], &t))
                cs[n++] = (cand){j, TIGHTEN_HI, w, t};
            continue;
        }
        if (ob.seen[j] == 0)
            continue; /* only z = 0 was seen: no side to try */
        cs[n++] = (cand){j, ob.seen[j] == 2 ? PROVE_ACTIVE : PROVE_INACTIVE, w, 0.0};
        n_sign++;
    }
    vfy_log(2, "refine: layer %lld: %lld unstable, %lld seen at both signs", (long long)k,
            (long long)n_unstable, (long long)n_both);
    stats->candidates += n_sign;
    *hopeless = n_sign < need;
    if (*hopeless) {
        vfy_log(2, "refine: layer %lld: %lld searches of a sign, short of the %lld more neurons "
                   "the refinement needs proved stable: it ends", (long long)k, (long long)n_sign,
                (long long)need);
        goto done;
    }
    qsort(cs, (size_t)n, sizeof(cand), cand_cmp);
    if (dl_sign && 2 * n_sign >= n)
        dl = dl_sign;

    /* the prefix searches start from the bounds of b on layers 0..k-1 */
    for (int64_t q = 0, off = 0; q < k; q++) {
        int64_t w = net->layers[q].n_out;
        memcpy(pflat + off, b->lo[q], (size_t)w * sizeof(double));
        memcpy(pflat + half + off, b->hi[q], (size_t)w * sizeof(double));
        off += w;
    }
    /* the ReLUs of the prefix (layers 1..k-2 of it) unstable when the refinement began and stable
     * now: the searches' roots carry them as constraints (SOUND: each sign holds over the box);
     * those still unstable whose bound the refinement tightened, that bound (z >= lo, z <= hi;
     * SOUND: b's bounds hold over the box) */
    vfy_splits proved = {0, sp_idx, sp_sign, NULL};
    vfy_splits bounds = {0, bd_idx, bd_sign, bd_off};
    int64_t full_half = vfy_bounds_flat_size(ctx) / 2;
    for (int64_t q = 0, off = 0; q + 2 <= k; off += net->layers[q].n_out, q++) {
        if (net->layers[q + 1].kind != VFY_LAYER_RELU)
            continue;
        for (int64_t j = 0; j < net->layers[q].n_out; j++) {
            int64_t f = off + j;
            if (!(start[f] < 0 && start[full_half + f] > 0))
                continue;
            int sign = b->lo[q][j] >= 0 ? 1 : (b->hi[q][j] <= 0 ? -1 : 0);
            if (sign != 0) {
                sp_idx[proved.n] = f;
                sp_sign[proved.n++] = (signed char)sign;
                continue;
            }
            if (opts->refine_bounds && (searched[f] & SEARCHED_LO) && b->lo[q][j] > start[f]) {
                bd_idx[bounds.n] = f;
                bd_sign[bounds.n] = 1;
                bd_off[bounds.n++] = b->lo[q][j];
            }
            if (opts->refine_bounds && (searched[f] & SEARCHED_HI) &&
                b->hi[q][j] < start[full_half + f]) {
                bd_idx[bounds.n] = f;
                bd_sign[bounds.n] = -1;
                bd_off[bounds.n++] = b->hi[q][j];
            }
        }
    }
    int n_threads = opts->threads > 1 ? (opts->threads > 64 ? 64 : opts->threads) : 1;
    if (n_threads > n)
        n_threads = n > 0 ? (int)n : 1;
    vfy_log(2, "refine: layer %lld: as constraints, %lld neurons made stable before it and %lld "
               "bounds tightened%s", (long long)k, (long long)proved.n, (long long)bounds.n,
            opts->refine_bounds ? "" : " (--refine-bounds off)");
    layer_pool lp = {P, box, opts, pflat, &proved, &bounds, dl, cs, k, NULL, n, MIN_SEARCH_S,
                     n_threads, zlo, zhi, searched + woff,
                     PTHREAD_MUTEX_INITIALIZER, 0, retry, 0, stats, 0, 0, 0, 0, VFY_OK, {0}};
    double t_layer = vfy_now();
    int started = run_pass(&lp);
    int64_t n_retried = 0;
    vfy_deadline retry_dl = {0, 0};
    for (int pass = 1; may_retry && pass < RETRY_PASSES && lp.st == VFY_OK && lp.n_retry > 0 && dl;
         pass++) {
        /* the searches cut short again, within RETRY_SHARE of the layer's time left, when that
         * gives each of them RETRY_GROWTH times the last pass's floor (their order: by weight, as
         * at first) */
        double left = RETRY_SHARE * (dl->t_end - vfy_now());
        double each = left * (double)n_threads / (double)lp.n_retry;
        if (!(each >= RETRY_GROWTH * lp.min_s))
            break;
        /* (the threads take them in rounds) */
        double most = RETRY_CAP * RETRY_GROWTH * lp.min_s *
                      (double)((lp.n_retry + n_threads - 1) / n_threads);
        left = fmin(left, most);
        qsort(lp.retry, (size_t)lp.n_retry, sizeof(int64_t), index_cmp);
        int64_t *pass_order = lp.retry;
        lp.retry = pass_order == retry ? retry + n : retry;
        lp.order = pass_order;
        lp.n = lp.n_retry;
        lp.n_retry = 0;
        lp.next = 0;
        lp.min_s = RETRY_GROWTH * lp.min_s;
        n_retried += lp.n;
        retry_dl.t_end = vfy_now() + left;
        lp.dl = &retry_dl;
        vfy_log(2, "refine: layer %lld: %lld sign searches cut short run again, at least %.2f s "
                   "each, in %.1f s", (long long)k, (long long)lp.n, lp.min_s, left);
        run_pass(&lp);
    }
    pthread_mutex_destroy(&lp.mu);
    *n_changed = lp.n_changed;
    stats->retried += n_retried;
    st = lp.st;
    if (st != VFY_OK)
        *err = lp.err;
    vfy_log(2, "refine: layer %lld: %lld searches of a sign (%lld run again), %lld of a bound "
               "(%lld skipped: %lld of %lld changed it), %lld bounds changed (%d threads) in %.1f "
               "s of %.1f s", (long long)k, (long long)n_sign, (long long)n_retried,
            (long long)(n - n_sign), (long long)lp.n_skipped, (long long)lp.bound_changed,
            (long long)lp.bound_done, (long long)*n_changed, started, vfy_now() - t_layer,
            dl ? dl->t_end - t_layer : INFINITY);
done:
    observer_free(&ob, P ? P->n_layers : 0);
    vfy_net_free(P);
    vfy_free(cs);
    vfy_free(pflat);
    vfy_free(sp_idx);
    vfy_free(sp_sign);
    vfy_free(bd_idx);
    vfy_free(bd_sign);
    vfy_free(bd_off);
    vfy_free(retry);
    return st;
}

/* The pre-activations feeding a ReLU that were unstable in start (flat bounds) and are stable in
 * b, each with its sign (+1: z >= 0), into idx/sign; returns their count. */
static int64_t made_stable(const vfy_bound_ctx *ctx, const double *start, const vfy_bounds *b,
                           int64_t *idx, signed char *sign)
{
    const vfy_net *net = vfy_bound_ctx_net(ctx);
    int64_t n = 0, half = vfy_bounds_flat_size(ctx) / 2;
    for (int64_t q = 0, off = 0; q + 1 < net->n_layers; off += net->layers[q].n_out, q++) {
        if (net->layers[q + 1].kind != VFY_LAYER_RELU)
            continue;
        for (int64_t j = 0; j < net->layers[q].n_out; j++) {
            int64_t f = off + j;
            if (!(start[f] < 0 && start[half + f] > 0))
                continue;
            int sg = b->lo[q][j] >= 0 ? 1 : (b->hi[q][j] <= 0 ? -1 : 0);
            if (sg != 0) {
                idx[n] = f;
                sign[n++] = (signed char)sg;
            }
        }
    }
    return n;
}

/* An equal share of the time to dl among n_left layers (none without a finite dl). */
static vfy_deadline layer_share(const vfy_deadline *dl, int64_t n_left)
{
    vfy_deadline share = {INFINITY, 0};
    if (dl && isfinite(dl->t_end))
        share.t_end = vfy_now() + (dl->t_end - vfy_now()) / (double)n_left;
    return share;
}

vfy_status vfy_refine_hidden(const vfy_bound_ctx *ctx, const vfy_box *box, vfy_bounds *b,
                             const double *weight, const vfy_verify_opts *opts,
                             const vfy_deadline *dl, vfy_refine_stats *stats, vfy_error *err)
{
    return vfy_refine_hidden_until(ctx, box, b, weight, opts, dl, NULL, 0, NULL, NULL, stats, err);
}

vfy_status vfy_refine_hidden_until(const vfy_bound_ctx *ctx, const vfy_box *box, vfy_bounds *b,
                                   const double *weight, const vfy_verify_opts *opts,
                                   const vfy_deadline *dl, const vfy_deadline *dl_sign,
                                   int64_t min_proved, int (*settled)(void *user), void *user,
                                   vfy_refine_stats *stats, vfy_error *err)
{
    /* (the refinement's own steps end at the later deadline) */
    const vfy_deadline *dl_end = dl_sign && dl && dl_sign->t_end > dl->t_end ? dl_sign : dl;
    const vfy_net *net = vfy_bound_ctx_net(ctx);
    memset(stats, 0, sizeof *stats);
    int64_t nx = net->n_in;
    double *lo = vfy_alloc_array((size_t)nx, sizeof(double));
    double *hi = vfy_alloc_array((size_t)nx, sizeof(double));
    double *flat = vfy_alloc_array((size_t)vfy_bounds_flat_size(ctx) + 1, sizeof(double));
    double *start = vfy_alloc_array((size_t)vfy_bounds_flat_size(ctx) + 1, sizeof(double));
    unsigned char *searched = vfy_alloc_array((size_t)vfy_bounds_flat_size(ctx) / 2 + 1, 1);
    int64_t *c_idx = vfy_alloc_array((size_t)vfy_bounds_flat_size(ctx) / 2 + 1, sizeof(int64_t));
    signed char *c_sign = vfy_alloc_array((size_t)vfy_bounds_flat_size(ctx) / 2 + 1, 1);
    vfy_status st = VFY_OK;
    if (!lo || !hi || !flat || !start || !searched || !c_idx || !c_sign) {
        st = vfy_fail(err, VFY_ERR_NOMEM, "out of memory refining hidden bounds");
        goto done;
    }
    memset(searched, 0, (size_t)vfy_bounds_flat_size(ctx) / 2 + 1);
    memcpy(lo, box->lo, (size_t)nx * sizeof(double));
    memcpy(hi, box->hi, (size_t)nx * sizeof(double));
    vfy_bound_widen_input(ctx, nx, lo, hi);
    vfy_bounds_export(ctx, b, start);
    /* the ReLU layers after the first (the first one's inputs are affine in x: already exact) */
    int64_t layers[256], n_layers = 0, seen_relu = 0;
    for (int64_t k = 1; k < net->n_layers && n_layers < 256; k++)
        if (net->layers[k].kind == VFY_LAYER_RELU && net->layers[k - 1].kind != VFY_LAYER_RELU &&
            seen_relu++ > 0)
            layers[n_layers++] = k;
    vfy_rng rng;
    vfy_rng_seed(&rng, opts->seed ^ 0x5eed);
    for (int64_t q = 0; q < n_layers; q++) {
        if (dl_end && vfy_deadline_over(dl_end))
            break;
        /* each layer left gets an equal share of the time left (what one does not use goes to the
         * next). Not in proportion to the candidates: a later layer has many more, each dearer,
         * and the earlier layers' proofs are cheap and tighten everything after them. A layer
         * whose searches are mostly of a sign gets its share of the time to dl_sign. */
        vfy_deadline share = layer_share(dl, n_layers - q);
        vfy_deadline share_sign = layer_share(dl_sign, n_layers - q);
        int64_t k = layers[q], n_changed = 0;
        /* the neurons this layer's searches must prove for min_proved to be in reach, were every
         * unstable neuron of the later layers proved too */
        int64_t need = min_proved - stats->proved;
        for (int64_t r = q + 1; r < n_layers; r++) {
            const double *zl = b->lo[layers[r] - 1], *zh = b->hi[layers[r] - 1];
            for (int64_t j = 0; j < net->layers[layers[r]].n_out; j++)
                need -= zl[j] < 0 && zh[j] > 0;
        }
        int hopeless = 0;
        /* the last layer's time left goes to what follows the refinement (the caller's search),
         * not to its searches cut short (mnist_fc 256x6 prop_12_0.05 proved in 187.8 s against
         * 220.7 s with retries there) */
        st = refine_layer(ctx, box, b, start, searched, weight, k, q + 1 < n_layers, opts,
                          dl ? &share : NULL, dl_sign ? &share_sign : NULL, &rng, need,
                          &hopeless, stats, &n_changed, err);
        if (st != VFY_OK || hopeless)
            goto done;
        if (n_changed > 0 && !(dl_end && vfy_deadline_over(dl_end))) {
            /* the later layers, on top of the neurons decided: CROWN, then alpha-CROWN with
             * every neuron made stable so far as a constraint (past the deadline, not: b stays
             * sound without, and the search's next root re-bounds every layer on top of it).
             * SOUND: each constraint's sign is proved over the box. */
            st = vfy_bound_refresh(ctx, lo, hi, b, k, flat);
            int64_t n_a = 0;
            if (st == VFY_OK && q + 1 < n_layers) {
                vfy_splits cons = {made_stable(ctx, start, b, c_idx, c_sign), c_idx, c_sign, NULL};
                double t_a = vfy_now();
                st = vfy_bound_tighten_alpha_cons(ctx, lo, hi, b, 20, &cons, dl_end, &n_a);
                vfy_log(2, "refine: after layer %lld, alpha-CROWN with %lld neurons made stable as "
                           "constraints tightened %lld bounds in %.2f s", (long long)k,
                        (long long)cons.n, (long long)n_a, vfy_now() - t_a);
            }
            if (st != VFY_OK) {
                st = vfy_fail(err, st, "out of memory refining hidden bounds");
                goto done;
            }
            if (settled && settled(user)) {
                vfy_log(2, "refine: settled after layer %lld", (long long)k);
                break;
            }
        }
    }
done:
    vfy_free(lo);
    vfy_free(hi);
    vfy_free(flat);
    vfy_free(start);
    vfy_free(searched);
    vfy_free(c_idx);
    vfy_free(c_sign);
    return st;
}
