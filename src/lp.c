/* lp: the triangle relaxation as a GLPK linear program, and safe bounds from its duals.
 * See include/vfy/lp.h for the relaxation and the weak-duality bound that makes GLPK's tolerances
 * harmless. */
#include "vfy/lp.h"
#include "vfy/la.h"

#include <glpk.h>
#include <limits.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#define ETA64 0x1p-1074
#define ETA32 0x1p-149
#define LP_ITER_BASE 10000 /* a solve's simplex iterations at most: this plus */
#define LP_ITER_PER_DIM 50 /* this many per row and column (GLPK needs a few per row) */

struct vfy_lp {
    const vfy_bound_ctx *ctx;
    const vfy_net *net;
    glp_prob *P;
    int64_t nx;
    int **ref;         /* ref[k][j]: the column holding v_{k+1}[j], 0 where it is the constant 0, -1
                        * where it is a pre-activation of an inactive ReLU (no column) */
    int *zcol;         /* per column: for an unstable ReLU's output, the column of its input; else 0 */
    int *layer_of;     /* per column: the layer whose output it is (-1 for inputs and helpers) */
    int *def_row;      /* per column: for an affine output z, its row z - W v in [b - p, b + p] */
    int *sig_col;      /* per unstable ReLU output y: its phase column sigma (ideal cuts), or 0 */
    int n_fixed;       /* ReLUs whose phase vfy_lp_fix_relu has fixed now */
    /* our own copy of the rows (CSR, 1-based row and column numbers as in GLPK) */
    int64_t nrows, ncols, nnz, cap_rows, cap_nnz, cap_cols;
    int64_t *rstart;   /* nrows + 2 */
    int *rcol;
    double *rval;
    double *rl, *ru;   /* row bounds, +-INFINITY where absent */
    double *cl, *cu;   /* column bounds, finite */
    /* scratch */
    double *obj;       /* ncols + 1 */
    double *d, *S;     /* ncols + 1 */
    int64_t *cnt;      /* ncols + 1 */
    double *y;         /* nrows + 1 */
    const vfy_deadline *dl;
    int64_t solves, iterations, cuts;
    int t_col;         /* the conjunction's helper column (0 until first used) */
    int64_t case_r0;   /* rows of the current conjunction start after this one */
    int64_t case_r1;   /* ...and end with this one (cuts added after it stay) */
    int case_ok;       /* a conjunction is loaded */
    int dual_next;     /* bounds changed since the last solve: use the dual simplex */
    int empty;         /* the last solve's constraints are certified infeasible (certify_empty) */
    struct vfy_lp *next_live; /* the thread's next LP with a GLPK problem (glpk_recover) */
    int compact;       /* built by vfy_lp_build_compact: hidden neurons are not all columns */
    int64_t n_built;   /* layers in the relaxation (a prefix of the network, or all of it) */
    /* per unstable ReLU output column y: its row y - z >= 0, and its original bounds (fix_relu) */
    int *lower_row;
    char *fixed_saved;
    double *save_zl, *save_zu, *save_yl, *save_yu;
};

/* ---------------------------------------------------------------- building */

/* Reallocate the array whose pointer is at pp (any pointer type) to `bytes`; 0 on failure, with
 * the old array kept. */
static int resize(void *pp, size_t bytes)
{
    void *old, *p;
    memcpy(&old, pp, sizeof old);
    if (!(p = vfy_realloc(old, bytes)))
        return 0;
    memcpy(pp, &p, sizeof p);
    return 1;
}

/* The next power-of-two capacity from cap (or `first`) that holds need. */
static int64_t grown(int64_t cap, int64_t first, int64_t need)
{
    cap = cap ? cap : first;
    while (cap < need)
        cap *= 2;
    return cap;
}

static int grow_rows(vfy_lp *lp, int64_t need_rows, int64_t need_nnz)
{
    if (need_rows + 2 > lp->cap_rows) {
        size_t cap = (size_t)grown(lp->cap_rows, 1024, need_rows + 2), d = sizeof(double);
        if (!resize(&lp->rstart, cap * sizeof(int64_t)) || !resize(&lp->rl, cap * d) ||
            !resize(&lp->ru, cap * d) || !resize(&lp->y, cap * d))
            return 0;
        lp->cap_rows = (int64_t)cap;
    }
    if (need_nnz + 1 > lp->cap_nnz) {
        size_t cap = (size_t)grown(lp->cap_nnz, 4096, need_nnz + 1);
        if (!resize(&lp->rcol, cap * sizeof(int)) || !resize(&lp->rval, cap * sizeof(double)))
            return 0;
        lp->cap_nnz = (int64_t)cap;
    }
    return 1;
}

static int grow_cols(vfy_lp *lp, int64_t need)
{
    if (need + 1 <= lp->cap_cols)
        return 1;
    size_t cap = (size_t)grown(lp->cap_cols, 1024, need + 1), d = cap * sizeof(double);
    size_t n = cap * sizeof(int);
    if (!resize(&lp->cl, d) || !resize(&lp->cu, d) || !resize(&lp->obj, d) || !resize(&lp->d, d) ||
        !resize(&lp->S, d) || !resize(&lp->save_zl, d) || !resize(&lp->save_zu, d) ||
        !resize(&lp->save_yl, d) || !resize(&lp->save_yu, d) ||
        !resize(&lp->cnt, cap * sizeof(int64_t)) || !resize(&lp->fixed_saved, cap) ||
        !resize(&lp->zcol, n) || !resize(&lp->layer_of, n) || !resize(&lp->lower_row, n) ||
        !resize(&lp->def_row, n) || !resize(&lp->sig_col, n))
        return 0;
    for (size_t j = (size_t)lp->cap_cols; j < cap; j++)
        lp->obj[j] = 0.0;
    lp->cap_cols = (int64_t)cap;
    return 1;
}

/* A new column with bounds [l, u]; returns its number or 0 on allocation failure. */
static int new_col(vfy_lp *lp, double l, double u, int layer)
{
    if (lp->ncols >= INT_MAX - 2 || !grow_cols(lp, lp->ncols + 1))
        return 0;
    int c = (int)++lp->ncols;
    lp->cl[c] = l;
    lp->cu[c] = u;
    lp->zcol[c] = 0;
    lp->layer_of[c] = layer;
    lp->lower_row[c] = 0;
    lp->def_row[c] = 0;
    lp->sig_col[c] = 0;
    lp->fixed_saved[c] = 0;
    lp->obj[c] = 0.0;
    return c;
}

/* Start a row; entries follow with row_add; row_end closes it with its bounds. */
static int row_begin(vfy_lp *lp, int64_t max_entries)
{
    if (lp->nrows >= INT_MAX - 2 || !grow_rows(lp, lp->nrows + 1, lp->nnz + max_entries))
        return 0;
    lp->rstart[lp->nrows + 1] = lp->nnz;
    return 1;
}
static void row_add(vfy_lp *lp, int col, double v)
{
    if (col == 0 || v == 0.0)
        return;
    lp->rcol[lp->nnz] = col;
    lp->rval[lp->nnz] = v;
    lp->nnz++;
}
static void row_end(vfy_lp *lp, double rl, double ru)
{
    lp->nrows++;
    lp->rl[lp->nrows] = rl;
    lp->ru[lp->nrows] = ru;
    lp->rstart[lp->nrows + 1] = lp->nnz;
}

/* GLPK scales each row and column by factors that need not be powers of two (GLP_SF_AUTO) and
 * asserts, aborting the process, that a double-bounded variable's scaled bounds still differ
 * (spx_build_lp, "l[k] != u[k]"): bounds a few ulps apart, as on a domain split down to its
 * last ulps, can round together. Such a variable is handed to GLPK as fixed at its lower bound.
 * SOUND: GLPK's solution is only used through safe_bound, which reads our own bounds (lp->cl,
 * lp->cu, lp->rl, lp->ru; weak duality holds for any multipliers), and its primal point only as
 * a candidate that is checked. (Seen: scripts/fuzz_exact.py, a 2-input net split to one ulp.) */
static int glpk_too_narrow(double l, double u)
{
    return !(u - l > fmax(0x1p-40 * fmax(fabs(l), fabs(u)), 0x1p-600));
}

static void glp_set_row_from(glp_prob *P, int i, double rl, double ru)
{
    if (rl == -INFINITY && ru == INFINITY)
        glp_set_row_bnds(P, i, GLP_FR, 0.0, 0.0);
    else if (rl == -INFINITY)
        glp_set_row_bnds(P, i, GLP_UP, 0.0, ru);
    else if (ru == INFINITY)
        glp_set_row_bnds(P, i, GLP_LO, rl, 0.0);
    else if (glpk_too_narrow(rl, ru))
        glp_set_row_bnds(P, i, GLP_FX, rl, rl);
    else
        glp_set_row_bnds(P, i, GLP_DB, rl, ru);
}

static void glp_set_col_from(glp_prob *P, int j, double l, double u)
{
    if (glpk_too_narrow(l, u))
        glp_set_col_bnds(P, j, GLP_FX, l, l);
    else
        glp_set_col_bnds(P, j, GLP_DB, l, u);
}

/* Hand the rows [r0+1, nrows] and columns [c0+1, ncols] to GLPK. */
static void load_new(vfy_lp *lp, int64_t r0, int64_t c0)
{
    glp_prob *P = lp->P;
    if (lp->ncols > c0)
        glp_add_cols(P, (int)(lp->ncols - c0));
    for (int64_t j = c0 + 1; j <= lp->ncols; j++)
        glp_set_col_from(P, (int)j, lp->cl[j], lp->cu[j]);
    if (lp->nrows > r0)
        glp_add_rows(P, (int)(lp->nrows - r0));
    for (int64_t i = r0 + 1; i <= lp->nrows; i++) {
        int64_t s = lp->rstart[i], n = lp->rstart[i + 1] - s;
        /* GLPK's arrays are 1-based: pass pointers one before the entries */
        glp_set_mat_row(P, (int)i, (int)n, lp->rcol + s - 1, lp->rval + s - 1);
        glp_set_row_from(P, (int)i, lp->rl[i], lp->ru[i]);
    }
}

static int term_hook(void *info, const char *s)
{
    (void)info;
    vfy_log(2, "glpk: %s", s);
    return 1; /* nothing reaches stdout */
}

static void glpk_quiet(void)
{
    glp_term_hook(term_hook, NULL);
}

void vfy_lp_thread_done(void) { glp_free_env(); }

/* ---------------------------------------------------------------- GLPK's own errors */

/* GLPK ends the process (abort) on an internal error: a failed assertion or a call it rejects
 * (seen: a column's scaled bounds rounded together, see glpk_too_narrow). With an error hook it
 * calls the hook first, which may leave by longjmp; the thread's GLPK environment must then be
 * freed (glp_free_env), and every problem object in it goes. So the calls into GLPK's solver run
 * under guarded(): on an error every LP of the thread gets a new GLPK problem built from our own
 * copy of its rows, columns and objective (every change handed to GLPK is made to that copy first),
 * with a standard basis, and the failed call reports failure. A solve that failed so leaves the
 * multipliers 0, whose safe bound (the columns' box) is still a bound: the verdict can only be
 * weaker, never wrong. */
static _Thread_local jmp_buf *glpk_jmp;  /* where the error hook returns to, inside guarded() */
static _Thread_local vfy_lp *live_lps;   /* the thread's LPs that hold a GLPK problem */
static atomic_long glpk_fail_countdown = -1; /* test mode: vfy_lp_fail_after */
static atomic_long glpk_errors;

void vfy_lp_fail_after(long n) { atomic_store(&glpk_fail_countdown, n); }
long vfy_lp_glpk_errors(void) { return atomic_load(&glpk_errors); }

static void live_add(vfy_lp *lp)
{
    lp->next_live = live_lps;
    live_lps = lp;
}

static void live_remove(vfy_lp *lp)
{
    for (vfy_lp **p = &live_lps; *p; p = &(*p)->next_live)
        if (*p == lp) {
            *p = lp->next_live;
            return;
        }
}

static void load_new(vfy_lp *lp, int64_t r0, int64_t c0);

/* A new GLPK problem for lp from our copy. */
static void glpk_rebuild(vfy_lp *lp)
{
    lp->P = glp_create_prob();
    glp_set_obj_dir(lp->P, GLP_MIN);
    load_new(lp, 0, 0);
    for (int64_t j = 1; j <= lp->ncols; j++)
        if (lp->obj[j] != 0.0)
            glp_set_obj_coef(lp->P, (int)j, lp->obj[j]);
    glp_scale_prob(lp->P, GLP_SF_AUTO);
    glp_std_basis(lp->P);
    lp->dual_next = 0;
}

static void glpk_recover(void)
{
    glp_free_env();
    glpk_quiet();
    atomic_fetch_add(&glpk_errors, 1);
    vfy_log(1, "lp: GLPK failed (an internal error); the thread's LPs rebuilt, that solve unused");
    for (vfy_lp *lp = live_lps; lp; lp = lp->next_live)
        glpk_rebuild(lp);
}

static _Noreturn void error_hook(void *info)
{
    (void)info;
    longjmp(*glpk_jmp, 1);
}

static int fail_injected(void)
{
    long n = atomic_load(&glpk_fail_countdown);
    while (n >= 0 && !atomic_compare_exchange_weak(&glpk_fail_countdown, &n, n - 1))
        ;
    return n == 0;
}

/* fn(lp->P, arg) with GLPK's errors caught (above); 1 when it returned, 0 when GLPK failed. */
static int guarded(vfy_lp *lp, void (*fn)(glp_prob *, void *), void *arg)
{
    jmp_buf here;
    if (setjmp(here)) { /* no GLPK call before glp_free_env: its environment is in error */
        glpk_jmp = NULL;
        glpk_recover();
        return 0;
    }
    glpk_jmp = &here;
    glp_error_hook(error_hook, NULL);
    if (fail_injected())
        glp_set_col_bnds(lp->P, 0, GLP_FR, 0.0, 0.0); /* test mode: column 0 is GLPK's error */
    fn(lp->P, arg);
    glp_error_hook(NULL, NULL);
    glpk_jmp = NULL;
    return 1;
}

typedef struct { const glp_smcp *parm; int ret; } simplex_call;

static void call_simplex(glp_prob *P, void *arg)
{
    simplex_call *c = arg;
    c->ret = glp_simplex(P, c->parm);
}

static void call_adv_basis(glp_prob *P, void *arg)
{
    (void)arg;
    glp_adv_basis(P, 0);
}

#define GLPK_LOST (-1) /* a guarded call that failed (GLPK's own codes are not negative) */

/* glp_simplex under guarded(); GLPK_LOST when GLPK failed. */
static int simplex(vfy_lp *lp, const glp_smcp *parm)
{
    simplex_call c = {parm, GLPK_LOST};
    return guarded(lp, call_simplex, &c) ? c.ret : GLPK_LOST;
}

void vfy_lp_free(vfy_lp *lp)
{
    if (!lp)
        return;
    if (lp->P) {
        live_remove(lp);
        glp_delete_prob(lp->P);
    }
    if (lp->ref) {
        for (int64_t k = 0; k < lp->net->n_layers; k++)
            vfy_free(lp->ref[k]);
        vfy_free(lp->ref);
    }
    vfy_free(lp->zcol);
    vfy_free(lp->layer_of);
    vfy_free(lp->lower_row);
    vfy_free(lp->def_row);
    vfy_free(lp->sig_col);
    vfy_free(lp->fixed_saved);
    vfy_free(lp->save_zl);
    vfy_free(lp->save_zu);
    vfy_free(lp->save_yl);
    vfy_free(lp->save_yu);
    vfy_free(lp->rstart);
    vfy_free(lp->rcol);
    vfy_free(lp->rval);
    vfy_free(lp->rl);
    vfy_free(lp->ru);
    vfy_free(lp->cl);
    vfy_free(lp->cu);
    vfy_free(lp->obj);
    vfy_free(lp->d);
    vfy_free(lp->S);
    vfy_free(lp->cnt);
    vfy_free(lp->y);
    vfy_free(lp);
}

/* The perturbation p_j of affine layer k's output j (see bound.c's error model, without our own
 * rounding, which the safe bound accounts for separately):
 *     |v_{k+1} - (W v_k + b)| <= p = w_relerr' (|W| H + |b|) + [float semantics] the float32
 *     execution's rounding of the row (vfy_la_exec_err32 for DENSE, gamma32(fan_in + 2) for SCALE,
 *     on (1 + w_relerr) |W| H + |b|) + (fan_in + 2) 2^-149,
 * H = max(|lo(v_k)|, |hi(v_k)|). Every operation rounds up. Zero for exact weights and the real
 * network: the row is then an equality. */
static double perturbation(const vfy_bound_ctx *ctx, const vfy_layer *L, int64_t j, const double *H)
{
    int fs = vfy_bound_ctx_float_semantics(ctx);
    double coef = L->w_relerr > 0 ? L->w_relerr * (1.0 + 0x1p-30) : 0.0;
    if (coef == 0.0 && !fs)
        return 0.0;
    double G = 0.0, M = 0.0;
    int64_t m = 0;
    if (L->kind == VFY_LAYER_DENSE) {
        const int64_t *idx;
        const double *w;
        int64_t nz;
        vfy_layer_row(L, j, &idx, &w, &nz);
        for (int64_t t = 0; t < nz; t++) {
            double a = vfy_mul_up(fabs(w[t]), H[idx ? idx[t] : t]);
            G = vfy_add_up(G, a);
            M = fmax(M, a);
            m += w[t] != 0 && H[idx ? idx[t] : t] > 0;
        }
    } else {
        G = vfy_mul_up(fabs(L->w[j]), H[j]);
    }
    double bj = fabs(L->b[j]);
    double p = vfy_mul_up(coef, vfy_add_up(G, bj));
    if (fs) {
        double wr = L->w_relerr > 0 ? vfy_add_up(1.0, L->w_relerr) : 1.0;
        double A = vfy_mul_up(vfy_add_up(G, bj), wr), e;
        if (L->kind == VFY_LAYER_DENSE)
            e = vfy_la_exec_err32(A, vfy_mul_up(fmax(M, bj), wr), m + (bj > 0),
                                  L->w_relerr > 0 ? 2 : 1);
        else
            e = vfy_mul_up(vfy_la_gamma32n(L->fan_in + 2), A);
        p = vfy_add_up(vfy_add_up(p, e), (double)(L->fan_in + 2) * ETA32);
    }
    return p;
}

int vfy_lp_relaxes(vfy_layer_kind kind)
{
    return kind == VFY_LAYER_DENSE || kind == VFY_LAYER_SCALE || kind == VFY_LAYER_RELU;
}

/* 1 when layers [0, n_layers) hold a layer this LP has no relaxation for (every kind but DENSE,
 * SCALE and RELU: vfy_lp_relaxes), so the builders refuse such a network (VFY_ERR_UNSUPPORTED) and
 * the search goes without LP. */
static int has_unrelaxed(const vfy_net *net, int64_t n_layers)
{
    for (int64_t k = 0; k < n_layers; k++)
        if (!vfy_lp_relaxes(net->layers[k].kind))
            return 1;
    return 0;
}

vfy_status vfy_lp_build(const vfy_bound_ctx *ctx, const double *in_lo, const double *in_hi,
                        const vfy_bounds *b, vfy_lp **out, vfy_error *err)
{
    return vfy_lp_build_prefix(ctx, in_lo, in_hi, b, vfy_bound_ctx_net(ctx)->n_layers, out, err);
}

vfy_status vfy_lp_build_prefix(const vfy_bound_ctx *ctx, const double *in_lo, const double *in_hi,
                               const vfy_bounds *b, int64_t n_layers, vfy_lp **out, vfy_error *err)
{
    const vfy_net *net = vfy_bound_ctx_net(ctx);
    *out = NULL;
    if (n_layers < 0 || n_layers > net->n_layers)
        return vfy_fail(err, VFY_ERR_INVALID, "lp: a prefix of %lld layers of %lld",
                        (long long)n_layers, (long long)net->n_layers);
    if (has_unrelaxed(net, n_layers))
        return vfy_fail(err, VFY_ERR_UNSUPPORTED,
                        "lp: Sigmoid/Tanh/MaxPool layers have no LP relaxation");
    if (b->overflow)
        return vfy_fail(err, VFY_ERR_INVALID, "lp: layer bounds overflow the float32 range");
    vfy_lp *lp = vfy_alloc(sizeof *lp);
    if (!lp)
        return vfy_fail(err, VFY_ERR_NOMEM, "lp: out of memory");
    lp->ctx = ctx;
    lp->net = net;
    lp->nx = net->n_in;
    lp->n_built = n_layers;
    lp->ref = vfy_alloc_array((size_t)(net->n_layers + 1), sizeof(int *));
    int64_t wmax = vfy_net_max_width(net);
    double *H = vfy_alloc_array((size_t)(wmax > 0 ? wmax : 1), sizeof(double));
    int *xref = vfy_alloc_array((size_t)(net->n_in > 0 ? net->n_in : 1), sizeof(int));
    vfy_status st = VFY_OK;
    if (!lp->ref || !H || !xref)
        goto nomem;
    for (int64_t j = 0; j < net->n_in; j++) {
        if (!(isfinite(in_lo[j]) && isfinite(in_hi[j]) && in_lo[j] <= in_hi[j])) {
            st = vfy_fail(err, VFY_ERR_INVALID, "lp: input %lld has no finite bounds", (long long)j);
            goto fail;
        }
        if (!(xref[j] = new_col(lp, in_lo[j], in_hi[j], -1)))
            goto nomem;
    }
    const int *prev = xref;
    const double *plo = in_lo, *phi = in_hi;
    for (int64_t k = 0; k < n_layers; k++) {
        const vfy_layer *L = &net->layers[k];
        const double *lo = b->lo[k], *hi = b->hi[k];
        int *ref = lp->ref[k] = vfy_alloc_array((size_t)(L->n_out > 0 ? L->n_out : 1), sizeof(int));
        if (!ref)
            goto nomem;
        for (int64_t j = 0; j < L->n_out; j++)
            if (!(isfinite(lo[j]) && isfinite(hi[j]) && lo[j] <= hi[j])) {
                st = vfy_fail(err, VFY_ERR_INVALID, "lp: layer %lld neuron %lld has no finite bounds",
                              (long long)k, (long long)j);
                goto fail;
            }
        if (L->kind == VFY_LAYER_RELU) {
            for (int64_t j = 0; j < L->n_out; j++) {
                double l = plo[j], u = phi[j];
                if (u <= 0 || prev[j] <= 0) {
                    ref[j] = 0;       /* inactive (or the constant 0): the constant 0 */
                } else if (l >= 0) {
                    ref[j] = prev[j]; /* active: the identity */
                } else {
                    /* unstable: y in [max(0, lo_y), hi_y], y >= z, y <= s z + t */
                    int y = new_col(lp, fmax(0.0, lo[j]), hi[j], (int)k);
                    if (!y)
                        goto nomem;
                    lp->zcol[y] = prev[j];
                    ref[j] = y;
                    double s, t;
                    vfy_bound_relu_upper(l, u, &s, &t);
                    if (!row_begin(lp, 2))
                        goto nomem;
                    row_add(lp, y, 1.0);
                    row_add(lp, prev[j], -1.0);
                    row_end(lp, 0.0, INFINITY);
                    lp->lower_row[y] = (int)lp->nrows;
                    if (!row_begin(lp, 2))
                        goto nomem;
                    row_add(lp, y, 1.0);
                    row_add(lp, prev[j], -s);
                    row_end(lp, -INFINITY, t);
                }
            }
        } else {
            for (int64_t i = 0; i < L->n_in; i++)
                H[i] = fmax(fabs(plo[i]), fabs(phi[i]));
            /* a pre-activation whose ReLU is inactive reaches no row: it gets no column (ref -1) */
            int before_relu = k + 1 < n_layers && net->layers[k + 1].kind == VFY_LAYER_RELU;
            for (int64_t j = 0; j < L->n_out; j++) {
                if (before_relu && hi[j] <= 0) {
                    ref[j] = -1;
                    continue;
                }
                int z = new_col(lp, lo[j], hi[j], (int)k);
                if (!z)
                    goto nomem;
                ref[j] = z;
                double p = perturbation(ctx, L, j, H);
                const int64_t *idx = NULL;
                const double *w = NULL;
                int64_t nz = 1;
                if (L->kind == VFY_LAYER_DENSE)
                    vfy_layer_row(L, j, &idx, &w, &nz);
                if (!row_begin(lp, 1 + nz))
                    goto nomem;
                row_add(lp, z, 1.0);
                /* z - W v = b (+- p): the coefficients are the stored doubles, exactly */
                if (L->kind == VFY_LAYER_DENSE) {
                    for (int64_t t = 0; t < nz; t++)
                        row_add(lp, prev[idx ? idx[t] : t], -w[t]);
                } else {
                    row_add(lp, prev[j], -L->w[j]);
                }
                if (p == 0.0)
                    row_end(lp, L->b[j], L->b[j]);
                else
                    row_end(lp, vfy_sub_down(L->b[j], p), vfy_add_up(L->b[j], p));
                lp->def_row[z] = (int)lp->nrows;
            }
        }
        prev = ref;
        plo = lo;
        phi = hi;
    }
    glpk_quiet();
    lp->P = glp_create_prob();
    live_add(lp);
    glp_set_obj_dir(lp->P, GLP_MIN);
    load_new(lp, 0, 0);
    glp_scale_prob(lp->P, GLP_SF_AUTO);
    guarded(lp, call_adv_basis, NULL);
    vfy_free(H);
    vfy_free(xref);
    *out = lp;
    return VFY_OK;
nomem:
    st = vfy_fail(err, VFY_ERR_NOMEM, "lp: out of memory");
fail:
    vfy_free(H);
    vfy_free(xref);
    vfy_lp_free(lp);
    return st;
}

/* The compact relaxation (vfy_lp_build_compact). Each neuron's value is carried forward as an
 * affine form over the base variables (the inputs and the outputs of the unstable ReLUs met so far)
 * with an error radius:  v = A·base + c + e,  |e| <= E. An affine layer maps it to
 *     A' = W A,  c' = W c + b,  E' = |W| E + p + r,
 * p the layer's perturbation (as in the full LP) and r the rounding of our own products:
 *     |fl(W A) - W A| |base| + |fl(W c + b) - (W c + b)| <= gamma(n + 2) |W| (|A| M + |c|) + gamma |b|
 * with M = max |base| (la.h's model; everything on the right is evaluated with a (1 + gamma) margin
 * and rounded up). A stable ReLU keeps (active) or zeroes (inactive) the form (and on request its
 * sign becomes a row on the form: compact_bound_row); an unstable one adds
 * columns z and y, the row  z - A·base  in  [c - E, c + E]  and the triangle, and its form becomes y.
 * SOUND: by induction every real (and, with float semantics, every float32) value lies in its form's
 * range, so every row holds at every reachable point. */
static int compact_affine(const vfy_bound_ctx *ctx, const vfy_layer *L, int64_t nb, const double *A,
                          const double *c, const double *E, const double *M, const double *plo,
                          const double *phi, double *A2, double *c2, double *E2, double *tmp,
                          double *H)
{
    int64_t n_in = L->n_in, n_out = L->n_out;
    double g = vfy_la_gamma(n_in + nb + 2);
    /* tmp = |A| M + |c| per input neuron, rounded up with a margin */
    for (int64_t i = 0; i < n_in; i++) {
        double t = fabs(c[i]);
        for (int64_t q = 0; q < nb; q++)
            t = vfy_add_up(t, vfy_mul_up(fabs(A[i * nb + q]), M[q]));
        tmp[i] = t;
        H[i] = fmax(fabs(plo[i]), fabs(phi[i]));
    }
    if (L->kind == VFY_LAYER_DENSE && !L->csr)
        vfy_la_gemm(n_out, nb, n_in, L->w, A, A2, 0);
    for (int64_t j = 0; j < n_out; j++) {
        double cj = L->b[j], wE = 0.0, wT = 0.0;
        if (L->kind == VFY_LAYER_DENSE) {
            const int64_t *idx;
            const double *w;
            int64_t nz;
            vfy_layer_row(L, j, &idx, &w, &nz);
            if (L->csr) /* row j of W A from its nonzeros (fewer terms than n_in: same bound) */
                memset(A2 + j * nb, 0, (size_t)nb * sizeof *A2);
            for (int64_t t = 0; t < nz; t++) {
                int64_t i = idx ? idx[t] : t;
                if (L->csr)
                    for (int64_t q = 0; q < nb; q++)
                        A2[j * nb + q] += w[t] * A[i * nb + q];
                cj += w[t] * c[i];
                wE = vfy_add_up(wE, vfy_mul_up(fabs(w[t]), E[i]));
                wT = vfy_add_up(wT, vfy_mul_up(fabs(w[t]), tmp[i]));
            }
        } else {
            for (int64_t q = 0; q < nb; q++)
                A2[j * nb + q] = L->w[j] * A[j * nb + q];
            cj += L->w[j] * c[j];
            wE = vfy_mul_up(fabs(L->w[j]), E[j]);
            wT = vfy_mul_up(fabs(L->w[j]), tmp[j]);
        }
        double r = vfy_mul_up(2.0 * g, vfy_add_up(wT, fabs(L->b[j])));
        double e = vfy_add_up(vfy_add_up(vfy_mul_up(wE, 1.0 + g), r), perturbation(ctx, L, j, H));
        e = vfy_add_up(e, (double)(n_in + nb + 4) * ETA64);
        c2[j] = cj;
        E2[j] = e;
        if (!(isfinite(cj) && isfinite(e)))
            return 0;
    }
    return 1;
}

/* A row  col - A·base  in  [c - E, c + E]. */
static int compact_row(vfy_lp *lp, int col, const int *base, int64_t nb, const double *a, double c,
                       double E)
{
    if (!row_begin(lp, nb + 1))
        return 0;
    row_add(lp, col, 1.0);
    for (int64_t q = 0; q < nb; q++)
        row_add(lp, base[q], -a[q]);
    row_end(lp, vfy_sub_down(c, E), vfy_add_up(c, E));
    return 1;
}

/* A stable ReLU's pre-activation bound on its sign's side as a row on its form: at every
 * reachable point A·base + c + e lies in [l, u] with |e| <= E, so
 *     A·base >= l - c - E  (active, l >= 0)    or    A·base <= u - c + E  (inactive, u <= 0),
 * rounded outward. The form only carries the neuron's value; without this row the relaxation
 * forgets the sign that decided it, which over a ReLU-split domain is a constraint the base
 * variables' box does not imply (seen: leaves of scripts/fuzz_exact.py whose phases contradict
 * each other, so that their region is empty, had a feasible compact LP). The row is added only
 * where the form's value over the base box may have the other sign (judged in round-to-nearest:
 * leaving a row out only loosens the relaxation), and only on request (sign_rows: a ReLU-split
 * domain; over an input box the bounds' signs hold at every point of the box anyway, and the
 * rows cost time: ACAS Xu 3_3 prop_2, the LP stage 5.8 s against 5.3 s for the same tree). */
static int compact_bound_row(vfy_lp *lp, const int *base, int64_t nb, const double *a, double c,
                             double E, double l, double u)
{
    double lo = vfy_sub_down(vfy_sub_down(l, c), E), hi = vfy_add_up(vfy_sub_up(u, c), E);
    double rlo = 0.0, rhi = 0.0;
    for (int64_t q = 0; q < nb; q++) {
        double x = a[q], bl = lp->cl[base[q]], bu = lp->cu[base[q]];
        rlo += x * (x > 0 ? bl : bu);
        rhi += x * (x > 0 ? bu : bl);
    }
    /* only a side that decides the sign: the form may cross 0 there over the base box */
    double rl = l >= 0 && rlo + c < 0 ? lo : -INFINITY, ru = u <= 0 && rhi + c > 0 ? hi : INFINITY;
    if (rl == -INFINITY && ru == INFINITY)
        return 1;
    if (!row_begin(lp, nb))
        return 0;
    for (int64_t q = 0; q < nb; q++)
        row_add(lp, base[q], a[q]);
    row_end(lp, rl, ru);
    return 1;
}

/* compact_affine's product W A has nb multiply-adds per coefficient of W (its nonzeros when
 * sparse), nb at most the inputs plus the two columns of each unstable ReLU */
double vfy_lp_compact_cost(const vfy_net *net, int64_t max_unstable)
{
    double madds = 0;
    for (int64_t k = 0; k < net->n_layers; k++)
        if (net->layers[k].kind == VFY_LAYER_DENSE)
            madds += vfy_layer_madds(&net->layers[k]) * (double)(net->n_in + 2 * max_unstable);
    return madds;
}

vfy_status vfy_lp_build_compact(const vfy_bound_ctx *ctx, const double *in_lo, const double *in_hi,
                                const vfy_bounds *b, int64_t max_unstable, int sign_rows,
                                vfy_lp **out, vfy_error *err)
{
    const vfy_net *net = vfy_bound_ctx_net(ctx);
    *out = NULL;
    if (has_unrelaxed(net, net->n_layers))
        return vfy_fail(err, VFY_ERR_UNSUPPORTED,
                        "lp: Sigmoid/Tanh/MaxPool layers have no LP relaxation");
    if (b->overflow)
        return vfy_fail(err, VFY_ERR_INVALID, "lp: layer bounds overflow the float32 range");
    int64_t U = 0, nx = net->n_in;
    for (int64_t k = 0; k < net->n_layers; k++) {
        if (net->layers[k].kind != VFY_LAYER_RELU)
            continue;
        const double *l = k ? b->lo[k - 1] : in_lo, *u = k ? b->hi[k - 1] : in_hi;
        for (int64_t j = 0; j < net->layers[k].n_out; j++)
            U += l[j] < 0 && u[j] > 0;
    }
    if (U > max_unstable)
        return vfy_fail(err, VFY_ERR_INVALID, "lp: %lld unstable ReLUs, more than %lld",
                        (long long)U, (long long)max_unstable);
    vfy_lp *lp = vfy_alloc(sizeof *lp);
    if (!lp)
        return vfy_fail(err, VFY_ERR_NOMEM, "lp: out of memory");
    lp->ctx = ctx;
    lp->net = net;
    lp->nx = nx;
    lp->compact = 1;
    lp->n_built = net->n_layers;
    int64_t wmax = vfy_net_max_width(net), nbmax = nx + U;
    if (wmax < nx)
        wmax = nx;
    lp->ref = vfy_alloc_array((size_t)net->n_layers, sizeof(int *));
    double *A = vfy_alloc_array((size_t)(wmax * nbmax), sizeof(double));
    double *A2 = vfy_alloc_array((size_t)(wmax * nbmax), sizeof(double));
    double *cv = vfy_alloc_array((size_t)wmax, sizeof(double));
    double *c2 = vfy_alloc_array((size_t)wmax, sizeof(double));
    double *E = vfy_alloc_array((size_t)wmax, sizeof(double));
    double *E2 = vfy_alloc_array((size_t)wmax, sizeof(double));
    double *tmp = vfy_alloc_array((size_t)wmax, sizeof(double));
    double *H = vfy_alloc_array((size_t)wmax, sizeof(double));
    double *M = vfy_alloc_array((size_t)nbmax, sizeof(double));
    int *base = vfy_alloc_array((size_t)nbmax, sizeof(int));
    vfy_status st = VFY_OK;
    if (!lp->ref || !A || !A2 || !cv || !c2 || !E || !E2 || !tmp || !H || !M || !base)
        goto nomem;
    for (int64_t k = 0; k < net->n_layers; k++)
        if (!(lp->ref[k] = vfy_alloc_array((size_t)(net->layers[k].n_out + 1), sizeof(int))))
            goto nomem;
    /* the inputs: v_0 = x, forms are unit vectors */
    int64_t nb = nx;
    for (int64_t j = 0; j < nx; j++) {
        if (!(isfinite(in_lo[j]) && isfinite(in_hi[j]) && in_lo[j] <= in_hi[j])) {
            st = vfy_fail(err, VFY_ERR_INVALID, "lp: input %lld has no finite bounds", (long long)j);
            goto fail;
        }
        if (!(base[j] = new_col(lp, in_lo[j], in_hi[j], -1)))
            goto nomem;
        M[j] = fmax(fabs(in_lo[j]), fabs(in_hi[j]));
        for (int64_t q = 0; q < nbmax; q++)
            A[j * nbmax + q] = q == j;
        cv[j] = 0.0;
        E[j] = 0.0;
    }
    /* forms are stored with row stride nbmax; columns beyond nb are zero */
    const double *plo = in_lo, *phi = in_hi;
    int64_t n_cur = nx;
    for (int64_t k = 0; k < net->n_layers; k++) {
        const vfy_layer *L = &net->layers[k];
        const double *lo = b->lo[k], *hi = b->hi[k];
        for (int64_t j = 0; j < L->n_out; j++)
            if (!(isfinite(lo[j]) && isfinite(hi[j]) && lo[j] <= hi[j])) {
                st = vfy_fail(err, VFY_ERR_INVALID, "lp: layer %lld neuron %lld has no finite bounds",
                              (long long)k, (long long)j);
                goto fail;
            }
        if (L->kind == VFY_LAYER_RELU) {
            for (int64_t j = 0; j < L->n_out; j++) {
                double l = plo[j], u = phi[j];
                double *a = A + j * nbmax;
                lp->ref[k][j] = 0;
                if (sign_rows && (l >= 0 || u <= 0) &&
                    !compact_bound_row(lp, base, nb, a, cv[j], E[j], l, u))
                    goto nomem;
                if (l >= 0)
                    continue; /* active: the form stays */
                if (u <= 0) { /* inactive: exactly 0 */
                    memset(a, 0, (size_t)nbmax * sizeof(double));
                    cv[j] = E[j] = 0.0;
                    continue;
                }
                int z = new_col(lp, l, u, (int)k - 1), y = new_col(lp, fmax(0.0, lo[j]), hi[j], (int)k);
                if (!z || !y || !compact_row(lp, z, base, nb, a, cv[j], E[j]))
                    goto nomem;
                lp->def_row[z] = (int)lp->nrows;
                lp->zcol[y] = z;
                lp->ref[k][j] = y;
                double s, t;
                vfy_bound_relu_upper(l, u, &s, &t);
                if (!row_begin(lp, 2))
                    goto nomem;
                row_add(lp, y, 1.0);
                row_add(lp, z, -1.0);
                row_end(lp, 0.0, INFINITY);
                lp->lower_row[y] = (int)lp->nrows;
                if (!row_begin(lp, 2))
                    goto nomem;
                row_add(lp, y, 1.0);
                row_add(lp, z, -s);
                row_end(lp, -INFINITY, t);
                /* the new base variable */
                base[nb] = y;
                M[nb] = fmax(fabs(lo[j]), fabs(hi[j]));
                nb++;
                memset(a, 0, (size_t)nbmax * sizeof(double));
                a[nb - 1] = 1.0;
                cv[j] = E[j] = 0.0;
            }
        } else {
            /* compact_affine works with stride nb; gather, compute, scatter */
            for (int64_t i = 0; i < L->n_in; i++)
                memmove(A2 + i * nb, A + i * nbmax, (size_t)nb * sizeof(double));
            if (!compact_affine(ctx, L, nb, A2, cv, E, M, plo, phi, A, c2, E2, tmp, H)) {
                st = vfy_fail(err, VFY_ERR_INVALID, "lp: a form of layer %lld is not finite",
                              (long long)k);
                goto fail;
            }
            for (int64_t j = L->n_out - 1; j >= 0; j--) {
                memmove(A + j * nbmax, A + j * nb, (size_t)nb * sizeof(double));
                memset(A + j * nbmax + nb, 0, (size_t)(nbmax - nb) * sizeof(double));
            }
            memcpy(cv, c2, (size_t)L->n_out * sizeof(double));
            memcpy(E, E2, (size_t)L->n_out * sizeof(double));
            for (int64_t j = 0; j < L->n_out; j++)
                lp->ref[k][j] = 0;
        }
        n_cur = L->n_out;
        plo = lo;
        phi = hi;
    }
    /* the outputs: one column each, tied to its form */
    {
        int64_t Lk = net->n_layers - 1;
        for (int64_t j = 0; j < n_cur; j++) {
            int o = new_col(lp, plo[j], phi[j], (int)Lk);
            if (!o || !compact_row(lp, o, base, nb, A + j * nbmax, cv[j], E[j]))
                goto nomem;
            if (Lk >= 0)
                lp->ref[Lk][j] = o;
        }
    }
    glpk_quiet();
    lp->P = glp_create_prob();
    live_add(lp);
    glp_set_obj_dir(lp->P, GLP_MIN);
    load_new(lp, 0, 0);
    glp_scale_prob(lp->P, GLP_SF_AUTO);
    guarded(lp, call_adv_basis, NULL);
    goto cleanup;
nomem:
    st = vfy_fail(err, VFY_ERR_NOMEM, "lp: out of memory");
fail:
    vfy_lp_free(lp);
    lp = NULL;
cleanup:
    vfy_free(A);
    vfy_free(A2);
    vfy_free(cv);
    vfy_free(c2);
    vfy_free(E);
    vfy_free(E2);
    vfy_free(tmp);
    vfy_free(H);
    vfy_free(M);
    vfy_free(base);
    *out = lp;
    return st;
}

void vfy_lp_set_deadline(vfy_lp *lp, const vfy_deadline *dl) { lp->dl = dl; }

void vfy_lp_stats_get(const vfy_lp *lp, vfy_lp_stats *st)
{
    st->cols = lp->ncols;
    st->rows = lp->nrows;
    st->nnz = lp->nnz;
    st->solves = lp->solves;
    st->iterations = lp->iterations;
    st->cuts = lp->cuts;
}

/* ---------------------------------------------------------------- solving */

static double safe_value(vfy_lp *lp, const double *obj, const double *ys);

/* GLPK's basis status of variable k: rows 1..m, then columns. */
static int var_stat(glp_prob *P, int m, int k)
{
    return k <= m ? glp_get_row_stat(P, k) : glp_get_col_stat(P, k - m);
}

typedef struct { int k, *ind; double *val; int len; } tab_row_call;

/* Row k of the simplex table (its basis factorised first), or len -1. */
static void call_tab_row(glp_prob *P, void *arg)
{
    tab_row_call *c = arg;
    if (glp_bf_exists(P) || glp_factorize(P) == 0)
        c->len = glp_eval_tab_row(P, c->k, c->ind, c->val);
}

/* A certificate that the constraints are infeasible (Farkas), after GLPK found no feasible point.
 * Every feasible point, its row values r = A x in [rl, ru] and x in [cl, cu], satisfies for any row
 * multipliers y
 *     y·r - (A^T y)·x = 0,
 * so a safe lower bound above 0 of the left side's minimum over those boxes (safe_value with a zero
 * objective) proves that there is none. A domain's relaxation contains every point of the network
 * in the domain, so an empty relaxation refutes the domain whatever the objective: its minimum is
 * +infinity. (Seen: ReLU-split leaves whose phases contradict each other, scripts/fuzz_exact.py;
 * GLPK's multipliers of such an LP give a finite safe bound, and beta-CROWN's bound grows only as
 * fast as its multipliers follow the ray.)
 * The candidate y comes from the dual simplex, which stops at a basic variable x_k outside its
 * bounds that no nonbasic variable can bring back (glp_get_unbnd_ray): its tableau row
 * x_k = sum_t a_t x_{N_t} (glp_eval_tab_row) is sum_i y_i (r_i - A_i x) = 0 with y_k = 1 when x_k
 * is a row, y_i = -a_t for a nonbasic row variable i = N_t, and 0 for the other rows. Both y and -y
 * are tried. SOUND: GLPK only proposes y; the test is safe_value's own arithmetic on our rows and
 * bounds, so an inexact tableau can only make the certificate fail. */
static int certify_empty(vfy_lp *lp, const glp_smcp *parm0)
{
    glp_prob *P = lp->P;
    int m = (int)lp->nrows, n = (int)lp->ncols;
    if (glp_get_status(P) != GLP_NOFEAS || m < 1)
        return 0;
    int k = glp_get_unbnd_ray(P);
    if (!(k >= 1 && k <= m + n && var_stat(P, m, k) == GLP_BS)) {
        /* the primal simplex leaves no ray: the dual simplex on a zero objective (where every
         * basis is dual feasible) ends at one */
        for (int64_t j = 1; j <= n; j++)
            if (lp->obj[j] != 0.0)
                glp_set_obj_coef(P, (int)j, 0.0);
        glp_smcp parm = *parm0;
        parm.meth = GLP_DUAL;
        int ret = simplex(lp, &parm);
        lp->solves++;
        if (ret == GLPK_LOST)
            return 0; /* rebuilt with the objective */
        for (int64_t j = 1; j <= n; j++)
            if (lp->obj[j] != 0.0)
                glp_set_obj_coef(P, (int)j, lp->obj[j]);
        if (ret != 0 || glp_get_status(P) != GLP_NOFEAS)
            return 0;
        k = glp_get_unbnd_ray(P);
        if (!(k >= 1 && k <= m + n && var_stat(P, m, k) == GLP_BS))
            return 0;
    }
    int *ind = vfy_alloc_array((size_t)n + 1, sizeof(int));
    double *val = vfy_alloc_array((size_t)n + 1, sizeof(double));
    double *y = vfy_alloc_array((size_t)m + 1, sizeof(double));
    tab_row_call c = {k, ind, val, -1};
    int empty = 0;
    if (ind && val && y && guarded(lp, call_tab_row, &c) && c.len >= 0) {
        int len = c.len;
        if (k <= m)
            y[k] = 1.0;
        for (int t = 1; t <= len; t++)
            if (ind[t] >= 1 && ind[t] <= m && isfinite(val[t]))
                y[ind[t]] = -val[t];
        empty = safe_value(lp, NULL, y) > 0;
        for (int i = 1; i <= m && !empty; i++)
            y[i] = -y[i];
        empty = empty || safe_value(lp, NULL, y) > 0;
    }
    vfy_free(ind);
    vfy_free(val);
    vfy_free(y);
    return empty;
}

/* Run GLPK's simplex on the current objective, warm-started from the last basis. Whatever it
 * returns, lp->y then holds row multipliers (GLPK's duals; zeros when it could not start), and
 * lp->empty says whether the constraints were proved infeasible (certify_empty). */
static void solve(vfy_lp *lp)
{
    glp_prob *P = lp->P;
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    /* after an objective change the basis stays primal feasible; after bound changes (fix_relu)
     * it stays dual feasible */
    parm.meth = lp->dual_next ? GLP_DUALP : GLP_PRIMAL;
    lp->dual_next = 0;
    parm.presolve = GLP_OFF;
    /* GLPK's simplex can cycle on a degenerate LP (seen: a pair cut's LP of 25 rows, forever
     * without a deadline); an iteration limit far past what a solve takes ends it, and a solve
     * cut short still gives multipliers, so a safe bound (safe_bound: weak duality for any y) */
    int64_t it_cap = LP_ITER_BASE + LP_ITER_PER_DIM * (lp->nrows + lp->ncols);
    parm.it_lim = it_cap > INT_MAX ? INT_MAX : (int)it_cap;
    lp->empty = 0;
    for (int64_t i = 1; i <= lp->nrows; i++)
        lp->y[i] = 0.0;
    if (lp->dl) {
        if (vfy_deadline_over(lp->dl))
            return;
        if (isfinite(lp->dl->t_end)) {
            double ms = (lp->dl->t_end - vfy_now()) * 1000.0;
            if (!(ms >= 1.0))
                return;
            parm.tm_lim = ms > INT_MAX ? INT_MAX : (int)ms;
        }
    }
    int it0 = glp_get_it_cnt(P);
    int ret = simplex(lp, &parm);
    if (ret == GLP_EBADB || ret == GLP_ESING || ret == GLP_ECOND) {
        if (!guarded(lp, call_adv_basis, NULL))
            ret = GLPK_LOST;
        else
            ret = simplex(lp, &parm);
    }
    if (ret == GLPK_LOST)
        it0 = 0; /* a new problem (glpk_recover) */
    P = lp->P;
    lp->solves++;
    lp->iterations += glp_get_it_cnt(P) - it0;
    if (ret != 0 && ret != GLP_ETMLIM && ret != GLP_EITLIM && ret != GLP_EOBJLL && ret != GLP_EOBJUL)
        return;
    for (int64_t i = 1; i <= lp->nrows; i++) {
        double v = glp_get_row_dual(P, (int)i);
        lp->y[i] = isfinite(v) ? v : 0.0;
    }
    if (ret == 0)
        lp->empty = certify_empty(lp, &parm);
}

/* The safe bound: for row multipliers y and the objective c (NULL: zero),
 *     min c·x >= sum_j min_{[l_j,u_j]} d_j x_j + sum_i min_{[rl_i,ru_i]} y_i r_i,   d = c - A^T y.
 * SOUND: valid for every y (weak duality; a multiplier whose needed row side is infinite is zeroed
 * first). d is computed in round-to-nearest with |fl(d_j) - d_j| <= gamma(n_j + 1) (|c_j| +
 * sum_i |y_i a_ij|) + (n_j + 1) 2^-1074 (la.h), so d_j lies in [fl(d_j) - e_j, fl(d_j) + e_j]; each
 * minimum is taken over the corners of that interval and [l_j, u_j] with products rounded down, and
 * the sum is rounded down. */
static double safe_value(vfy_lp *lp, const double *obj, const double *ys)
{
    int64_t nc = lp->ncols;
    for (int64_t j = 1; j <= nc; j++) {
        lp->d[j] = obj ? obj[j] : 0.0;
        lp->S[j] = 0.0;
        lp->cnt[j] = 1;
    }
    double total = 0.0;
    for (int64_t i = 1; i <= lp->nrows; i++) {
        double y = ys[i];
        if (y > 0 && lp->rl[i] == -INFINITY)
            y = 0;
        if (y < 0 && lp->ru[i] == INFINITY)
            y = 0;
        if (y == 0)
            continue;
        total = vfy_add_down(total, vfy_mul_down(y, y > 0 ? lp->rl[i] : lp->ru[i]));
        for (int64_t e = lp->rstart[i]; e < lp->rstart[i + 1]; e++) {
            int j = lp->rcol[e];
            double p = y * lp->rval[e];
            lp->d[j] -= p;
            lp->S[j] += fabs(p);
            lp->cnt[j]++;
        }
    }
    for (int64_t j = 1; j <= nc; j++) {
        double c = obj ? fabs(obj[j]) : 0.0;
        double e = vfy_mul_up(vfy_la_gamma(lp->cnt[j] + 1),
                              vfy_add_up(c, vfy_mul_up(lp->S[j], 1.0 + 0x1p-40)));
        e = vfy_add_up(e, (double)(lp->cnt[j] + 1) * ETA64);
        double dlo = vfy_sub_down(lp->d[j], e), dhi = vfy_add_up(lp->d[j], e);
        double l = lp->cl[j], u = lp->cu[j];
        double t = fmin(fmin(vfy_mul_down(dlo, l), vfy_mul_down(dlo, u)),
                        fmin(vfy_mul_down(dhi, l), vfy_mul_down(dhi, u)));
        total = vfy_add_down(total, t);
    }
    return isnan(total) ? -INFINITY : total;
}

/* The safe bound of the current objective from GLPK's multipliers (safe_value). */
static double safe_bound(vfy_lp *lp)
{
    return safe_value(lp, lp->obj, lp->y);
}

static void obj_clear(vfy_lp *lp)
{
    for (int64_t j = 1; j <= lp->ncols; j++)
        if (lp->obj[j] != 0.0) {
            lp->obj[j] = 0.0;
            glp_set_obj_coef(lp->P, (int)j, 0.0);
        }
}

/* Put cy·v_L + cx·x (scaled by sgn) into lp->obj. Two terms on one column are summed in double;
 * the safe bound's error term covers that rounding (its gamma(n+1) has room for one more). */
static void obj_set_row(vfy_lp *lp, const double *cy, const double *cx, double sgn)
{
    const vfy_net *net = lp->net;
    int64_t L = net->n_layers - 1;
    for (int64_t j = 0; j < net->n_out; j++) {
        int c = L >= 0 ? lp->ref[L][j] : (int)(j + 1);
        if (c && cy[j] != 0.0)
            lp->obj[c] += sgn * cy[j];
    }
    if (cx)
        for (int64_t j = 0; j < lp->nx; j++)
            if (cx[j] != 0.0)
                lp->obj[j + 1] += sgn * cx[j];
    for (int64_t j = 1; j <= lp->ncols; j++)
        if (lp->obj[j] != 0.0)
            glp_set_obj_coef(lp->P, (int)j, lp->obj[j]);
}

vfy_status vfy_lp_bound_rows(vfy_lp *lp, int64_t K, const double *cy, const double *cx, double *lb,
                             double *lp_value)
{
    const vfy_net *net = lp->net;
    if (lp->n_built != net->n_layers)
        return VFY_ERR_INVALID; /* a prefix has no outputs */
    glpk_quiet();
    for (int64_t i = 0; i < K; i++) {
        obj_clear(lp);
        obj_set_row(lp, cy + i * net->n_out, cx ? cx + i * lp->nx : NULL, 1.0);
        solve(lp);
        lb[i] = safe_bound(lp);
        if (lp_value)
            lp_value[i] = glp_get_obj_val(lp->P);
    }
    obj_clear(lp);
    return VFY_OK;
}

vfy_status vfy_lp_bound_neuron(vfy_lp *lp, int64_t k, int64_t j, double *lo, double *hi)
{
    *lo = -INFINITY;
    *hi = INFINITY;
    if (k < 0 || k >= lp->n_built || j < 0 || j >= lp->net->layers[k].n_out)
        return VFY_ERR_INVALID;
    if (lp->compact)
        return VFY_ERR_INVALID; /* hidden neurons are forms there, not columns */
    int c = lp->ref[k][j];
    if (c < 0)
        return VFY_OK; /* not in the relaxation (below 0 before an inactive ReLU): nothing known */
    if (c == 0) {
        *lo = *hi = 0.0;
        return VFY_OK;
    }
    glpk_quiet();
    for (int pass = 0; pass < 2; pass++) {
        obj_clear(lp);
        double sgn = pass ? -1.0 : 1.0;
        lp->obj[c] = sgn;
        glp_set_obj_coef(lp->P, c, sgn);
        solve(lp);
        double v = safe_bound(lp);
        if (pass)
            *hi = -v; /* max z = -min(-z) <= -(safe lower bound of min(-z)) */
        else
            *lo = v;
    }
    obj_clear(lp);
    return VFY_OK;
}

/* Interval of cy·v_L + cx·x over the column bounds, rounded outward. */
static void row_range(const vfy_lp *lp, const double *cy, const double *cx, double *lo, double *hi)
{
    const vfy_net *net = lp->net;
    int64_t L = net->n_layers - 1;
    double a = 0.0, bsum = 0.0;
    for (int pass = 0; pass < 2; pass++) {
        const double *c = pass ? cx : cy;
        int64_t n = pass ? lp->nx : net->n_out;
        if (!c)
            continue;
        for (int64_t j = 0; j < n; j++) {
            int col = pass ? (int)(j + 1) : (L >= 0 ? lp->ref[L][j] : (int)(j + 1));
            if (c[j] == 0.0 || col == 0)
                continue;
            double l = lp->cl[col], u = lp->cu[col];
            a = vfy_add_down(a, fmin(vfy_mul_down(c[j], l), vfy_mul_down(c[j], u)));
            bsum = vfy_add_up(bsum, fmax(vfy_mul_up(c[j], l), vfy_mul_up(c[j], u)));
        }
    }
    *lo = a;
    *hi = bsum;
}

/* The conjunction max_i (row_i - rhs_i) as  min t  s.t.  row_i - t <= rhs_i,  t in [tl, tu].
 * SOUND: an x with every row_i(x) <= rhs_i has t* = max_i (row_i(x) - rhs_i) <= 0 feasible, since
 * tl = max_i (lo(row_i) - rhs_i) <= t* (lo a lower bound of the row) and tu >= 0 >= t*; so a
 * positive lower bound of min t excludes every such x. */
vfy_status vfy_lp_case_begin(vfy_lp *lp, int64_t m, const double *cy, const double *cx,
                             const double *rhs)
{
    const vfy_net *net = lp->net;
    int64_t L = net->n_layers - 1;
    lp->case_r0 = lp->case_r1 = lp->nrows;
    lp->case_ok = 0;
    if (lp->n_built != net->n_layers)
        return VFY_ERR_INVALID;
    if (m <= 0)
        return VFY_OK;
    glpk_quiet();
    double tl = -INFINITY, tu = 0.0;
    for (int64_t i = 0; i < m; i++) {
        double lo, hi;
        row_range(lp, cy + i * net->n_out, cx ? cx + i * lp->nx : NULL, &lo, &hi);
        tl = fmax(tl, vfy_sub_down(lo, rhs[i]));
        tu = fmax(tu, vfy_sub_up(hi, rhs[i]));
    }
    if (!(isfinite(tl) && isfinite(tu)))
        return VFY_OK;
    tu = vfy_add_up(tu, 1.0);
    if (tl > tu)
        tl = tu;
    int t = lp->t_col;
    if (t == 0) {
        int64_t c0 = lp->ncols;
        if (!(t = new_col(lp, tl, tu, -1)))
            return VFY_ERR_NOMEM;
        load_new(lp, lp->nrows, c0);
        lp->t_col = t;
    }
    lp->cl[t] = tl;
    lp->cu[t] = tu;
    glp_set_col_from(lp->P, t, tl, tu);
    int64_t r0 = lp->nrows;
    for (int64_t i = 0; i < m; i++) {
        if (!row_begin(lp, net->n_out + lp->nx + 1)) {
            lp->nrows = r0;
            lp->nnz = lp->rstart[r0 + 1];
            return VFY_ERR_NOMEM;
        }
        const double *ry = cy + i * net->n_out, *rx = cx ? cx + i * lp->nx : NULL;
        int64_t s0 = lp->nnz;
        for (int64_t j = 0; j < net->n_out; j++) {
            int col = L >= 0 ? lp->ref[L][j] : (int)(j + 1);
            if (col && ry[j] != 0.0)
                row_add(lp, col, ry[j]);
        }
        if (rx)
            for (int64_t j = 0; j < lp->nx; j++)
                row_add(lp, (int)(j + 1), rx[j]);
        row_add(lp, t, -1.0);
        /* An output that is an input column (a network of ReLUs only) meets cx on one column: the
         * two coefficients are summed, and the row is given up unless the sum is exact, so that the
         * row we store is the case's row exactly. */
        for (int64_t e = s0; e < lp->nnz; e++) {
            if (lp->rcol[e] > lp->nx)
                continue;
            for (int64_t f = e + 1; f < lp->nnz; f++)
                if (lp->rcol[f] == lp->rcol[e] && lp->rcol[e] != 0) {
                    double a = lp->rval[e], bv = lp->rval[f], sum = a + bv, bb = sum - a;
                    if ((a - (sum - bb)) + (bv - bb) != 0.0) { /* TwoSum: inexact */
                        lp->nrows = r0;
                        lp->nnz = lp->rstart[r0 + 1];
                        return VFY_OK; /* *lb stays -INFINITY */
                    }
                    lp->rval[e] = sum;
                    lp->rcol[f] = 0;
                }
        }
        int64_t w = s0;
        for (int64_t e = s0; e < lp->nnz; e++)
            if (lp->rcol[e] != 0 && lp->rval[e] != 0.0) {
                lp->rcol[w] = lp->rcol[e];
                lp->rval[w++] = lp->rval[e];
            }
        lp->nnz = w;
        row_end(lp, -INFINITY, rhs[i]);
    }
    load_new(lp, r0, lp->ncols);
    lp->case_r1 = lp->nrows;
    lp->case_ok = 1;
    return VFY_OK;
}

static vfy_status solve_cuts(vfy_lp *lp, int rounds, double stop_above);

vfy_status vfy_lp_case_solve(vfy_lp *lp, double *lb, double *x_opt)
{
    return vfy_lp_case_solve_cuts(lp, 0, lb, x_opt);
}

vfy_status vfy_lp_case_solve_cuts(vfy_lp *lp, int rounds, double *lb, double *x_opt)
{
    *lb = -INFINITY;
    if (!lp->case_ok)
        return VFY_OK;
    glpk_quiet();
    int t = lp->t_col;
    obj_clear(lp);
    lp->obj[t] = 1.0;
    glp_set_obj_coef(lp->P, t, 1.0);
    vfy_status st = solve_cuts(lp, rounds, 0.0);
    if (st != VFY_OK) {
        obj_clear(lp);
        return st;
    }
    *lb = lp->empty ? INFINITY : safe_bound(lp); /* SOUND: an empty relaxation (certify_empty) */
    if (x_opt)
        for (int64_t j = 0; j < lp->nx; j++)
            x_opt[j] = fmin(fmax(glp_get_col_prim(lp->P, (int)(j + 1)), lp->cl[j + 1]), lp->cu[j + 1]);
    obj_clear(lp);
    return VFY_OK;
}

void vfy_lp_case_end(vfy_lp *lp)
{
    /* retire the case: its rows become free (which keeps GLPK's basis valid for the next solve);
     * the cuts after them stay, valid for every case */
    for (int64_t i = lp->case_r0 + 1; i <= lp->case_r1 && i <= lp->nrows; i++) {
        lp->rl[i] = -INFINITY;
        lp->ru[i] = INFINITY;
        glp_set_row_bnds(lp->P, (int)i, GLP_FR, 0.0, 0.0);
    }
    lp->case_ok = 0;
}

vfy_status vfy_lp_bound_case(vfy_lp *lp, int64_t m, const double *cy, const double *cx,
                             const double *rhs, double *lb, double *x_opt)
{
    vfy_status st = vfy_lp_case_begin(lp, m, cy, cx, rhs);
    *lb = -INFINITY;
    if (st == VFY_OK)
        st = vfy_lp_case_solve(lp, lb, x_opt);
    vfy_lp_case_end(lp);
    return st;
}

/* Fixing a ReLU's phase by bounds only, so GLPK's basis stays valid (a warm start):
 *   active (z >= 0):   z in [max(l, 0), u] and the row y - z >= 0 becomes y - z = 0;
 *   inactive (z <= 0): z in [l, min(u, 0)] and y in [0, 0] (y >= z then holds).
 * SOUND: both describe exactly the points of the relaxation with that phase of a real ReLU. */
vfy_status vfy_lp_fix_relu(vfy_lp *lp, int64_t k, int64_t j, int sign)
{
    if (k < 0 || k >= lp->n_built || lp->net->layers[k].kind != VFY_LAYER_RELU ||
        j < 0 || j >= lp->net->layers[k].n_out)
        return VFY_ERR_INVALID;
    int y = lp->ref[k][j];
    if (y == 0 || lp->zcol[y] == 0 || lp->layer_of[y] != k)
        return VFY_ERR_INVALID; /* not an unstable ReLU of this relaxation */
    int z = lp->zcol[y];
    int r = lp->lower_row[y];
    if (!lp->fixed_saved[y]) { /* 1: saved, 2: saved and fixed now */
        lp->fixed_saved[y] = 1;
        lp->save_zl[y] = lp->cl[z];
        lp->save_zu[y] = lp->cu[z];
        lp->save_yl[y] = lp->cl[y];
        lp->save_yu[y] = lp->cu[y];
    }
    double zl = lp->save_zl[y], zu = lp->save_zu[y], yl = lp->save_yl[y], yu = lp->save_yu[y];
    double ru = INFINITY;
    if (sign > 0) {
        zl = fmax(zl, 0.0);
        ru = 0.0;
    } else if (sign < 0) {
        zu = fmin(zu, 0.0);
        yl = yu = 0.0;
    }
    if (zl > zu || yl > yu)
        return VFY_ERR_INVALID; /* the phase is impossible within the bounds: the caller prunes */
    lp->cl[z] = zl;
    lp->cu[z] = zu;
    lp->cl[y] = yl;
    lp->cu[y] = yu;
    lp->ru[r] = ru;
    glp_set_col_from(lp->P, z, zl, zu);
    glp_set_col_from(lp->P, y, yl, yu);
    glp_set_row_from(lp->P, r, lp->rl[r], ru);
    int sc = lp->sig_col[y];
    if (sc) { /* the phase indicator follows: 1 active, 0 inactive */
        lp->cl[sc] = sign > 0 ? 1.0 : 0.0;
        lp->cu[sc] = sign < 0 ? 0.0 : 1.0;
        glp_set_col_from(lp->P, sc, lp->cl[sc], lp->cu[sc]);
    }
    int was = lp->fixed_saved[y] == 2;
    lp->fixed_saved[y] = sign != 0 ? 2 : 1;
    lp->n_fixed += (sign != 0) - was;
    lp->dual_next = 1;
    return VFY_OK;
}

int64_t vfy_lp_unstable(const vfy_lp *lp, int64_t max, int64_t *layer, int64_t *index, double *viol)
{
    int64_t n = 0;
    for (int64_t k = 0; k < lp->n_built; k++) {
        if (lp->net->layers[k].kind != VFY_LAYER_RELU)
            continue;
        for (int64_t j = 0; j < lp->net->layers[k].n_out; j++) {
            int y = lp->ref[k][j];
            if (y == 0 || lp->zcol[y] == 0 || lp->layer_of[y] != k)
                continue;
            if (n < max) {
                layer[n] = k;
                index[n] = j;
                if (viol) {
                    /* how far GLPK's last point is from the real ReLU there */
                    double zv = glp_get_col_prim(lp->P, lp->zcol[y]), yv = glp_get_col_prim(lp->P, y);
                    viol[n] = fabs(yv - (zv > 0 ? zv : 0.0));
                }
            }
            n++;
        }
    }
    return n;
}


/* ---------------------------------------------------------------- multi-neuron cuts */

/* Safe lower bound of ci*x_a + cj*x_b over the relaxation. */
static double min_pair(vfy_lp *lp, int a, double ca, int bcol, double cb)
{
    obj_clear(lp);
    lp->obj[a] += ca;
    lp->obj[bcol] += cb;
    glp_set_obj_coef(lp->P, a, lp->obj[a]);
    glp_set_obj_coef(lp->P, bcol, lp->obj[bcol]);
    solve(lp);
    double v = safe_bound(lp);
    obj_clear(lp);
    return v;
}

typedef struct { double ilo, ihi, jlo, jhi; } vbox;

/* The 8 lines bounding the octagon P = box ∩ {Ls <= zi+zj <= Us} ∩ {Ld <= zi-zj <= Ud}:
 * p zi + q zj = r. */
typedef struct { int p, q; double r; } oline;

/* Enclose the intersection of two lines in a box (outward rounding); 0 when they are parallel. */
static int intersect(oline A, oline B, vbox *out)
{
    if (A.p * B.q - A.q * B.p == 0)
        return 0;
    if (A.q == 0 || B.q == 0) { /* one line is zi = c */
        oline V = A.q == 0 ? A : B, O = A.q == 0 ? B : A;
        double c = V.r; /* p = 1 on these */
        out->ilo = out->ihi = c;
        if (O.p == 0) { /* zj = r */
            out->jlo = out->jhi = O.r;
        } else if (O.q == 1) { /* zi + zj = r: zj = r - c */
            out->jlo = vfy_sub_down(O.r, c);
            out->jhi = vfy_sub_up(O.r, c);
        } else { /* zi - zj = r: zj = c - r */
            out->jlo = vfy_sub_down(c, O.r);
            out->jhi = vfy_sub_up(c, O.r);
        }
        return 1;
    }
    if (A.p == 0 || B.p == 0) { /* one line is zj = c */
        oline H = A.p == 0 ? A : B, O = A.p == 0 ? B : A;
        double c = H.r;
        out->jlo = out->jhi = c;
        if (O.q == 1) { /* zi = r - c */
            out->ilo = vfy_sub_down(O.r, c);
            out->ihi = vfy_sub_up(O.r, c);
        } else { /* zi - zj = r: zi = r + c */
            out->ilo = vfy_add_down(O.r, c);
            out->ihi = vfy_add_up(O.r, c);
        }
        return 1;
    }
    /* zi + zj = s, zi - zj = d: zi = (s + d)/2, zj = (s - d)/2 (halving rounded outward too) */
    oline S = A.q == 1 ? A : B, D = A.q == 1 ? B : A;
    out->ilo = vfy_down(0.5 * vfy_add_down(S.r, D.r));
    out->ihi = vfy_up(0.5 * vfy_add_up(S.r, D.r));
    out->jlo = vfy_down(0.5 * vfy_sub_down(S.r, D.r));
    out->jhi = vfy_up(0.5 * vfy_sub_up(S.r, D.r));
    return 1;
}

/* Whether box v may contain a point of P (a test that every true vertex passes). */
static int may_touch(const vbox *v, const double oct[8])
{
    /* oct: li, ui, lj, uj, Ls, Us, Ld, Ud */
    return v->ihi >= oct[0] && v->ilo <= oct[1] && v->jhi >= oct[2] && v->jlo <= oct[3] &&
           vfy_add_up(v->ihi, v->jhi) >= oct[4] && vfy_add_down(v->ilo, v->jlo) <= oct[5] &&
           vfy_sub_up(v->ihi, v->jlo) >= oct[6] && vfy_sub_down(v->ilo, v->jhi) <= oct[7];
}

static double relu(double x) { return x > 0 ? x : 0.0; }

/* Upper facets of g(zi, zj) = relu(zi) + relu(zj) over the octagon, as cuts
 *     y_i + y_j - a zi - b zj <= c.
 * g is convex, so its concave envelope over the polygon P is the upper hull of the lifted vertices
 * (v, g(v)); each facet is a plane through three of them with every other below. The plane's a, b
 * are whatever double arithmetic gives; the cut is made sound by c:
 * SOUND: g(z) - a zi - b zj is convex, so its maximum over P is at a vertex of P; every vertex lies
 * in one of the boxes kept below (outward-rounded intersections, filtered by a test every true
 * vertex passes), so P lies in the hull of the boxes' corners and the maximum over those corners,
 * evaluated with upward rounding, bounds it. Real (zi, zj) lie in P because the octagon's sides are
 * safe LP bounds; hence every real point satisfies the cut. */
static int64_t pair_facets(vfy_lp *lp, int yi, int yj, int zi, int zj, const double oct[8])
{
    oline ln[8] = {{1, 0, oct[0]}, {1, 0, oct[1]}, {0, 1, oct[2]}, {0, 1, oct[3]},
                   {1, 1, oct[4]}, {1, 1, oct[5]}, {1, -1, oct[6]}, {1, -1, oct[7]}};
    vbox vb[28];
    int nv = 0;
    for (int a = 0; a < 8; a++)
        for (int bb = a + 1; bb < 8; bb++) {
            vbox v;
            if (intersect(ln[a], ln[bb], &v) && may_touch(&v, oct))
                vb[nv++] = v;
        }
    if (nv < 3)
        return 0;
    /* nominal points: box midpoints, deduplicated */
    double px[28], py[28], pg[28];
    int np = 0;
    double scale = fmax(fmax(fabs(oct[0]), fabs(oct[1])), fmax(fabs(oct[2]), fabs(oct[3])));
    double tol = 1e-9 * (scale > 0 ? scale : 1.0);
    for (int v = 0; v < nv; v++) {
        double x = 0.5 * (vb[v].ilo + vb[v].ihi), yv = 0.5 * (vb[v].jlo + vb[v].jhi);
        int dup = 0;
        for (int q = 0; q < np; q++)
            dup |= fabs(px[q] - x) <= tol && fabs(py[q] - yv) <= tol;
        if (!dup) {
            px[np] = x;
            py[np] = yv;
            pg[np] = relu(x) + relu(yv);
            np++;
        }
    }
    double fa[64], fb[64];
    int nf = 0;
    int64_t added = 0;
    for (int p1 = 0; p1 < np; p1++)
        for (int p2 = p1 + 1; p2 < np; p2++)
            for (int p3 = p2 + 1; p3 < np; p3++) {
                double ux = px[p2] - px[p1], uy = py[p2] - py[p1], ug = pg[p2] - pg[p1];
                double vx = px[p3] - px[p1], vy = py[p3] - py[p1], vg = pg[p3] - pg[p1];
                double det = ux * vy - uy * vx;
                if (!(fabs(det) > tol * tol))
                    continue;
                /* g = a x + b y + c through the three points */
                double a = (ug * vy - uy * vg) / det, b = (ux * vg - ug * vx) / det;
                double c = pg[p1] - a * px[p1] - b * py[p1];
                if (!(isfinite(a) && isfinite(b) && isfinite(c)) || fabs(a) > 1e6 || fabs(b) > 1e6)
                    continue;
                int upper = 1;
                for (int q = 0; q < np && upper; q++)
                    upper = pg[q] <= a * px[q] + b * py[q] + c + tol;
                if (!upper)
                    continue;
                int dup = 0;
                for (int f = 0; f < nf; f++)
                    dup |= fabs(fa[f] - a) <= 1e-9 && fabs(fb[f] - b) <= 1e-9;
                if (dup || nf >= 64)
                    continue;
                fa[nf] = a;
                fb[nf] = b;
                nf++;
                /* the sound right-hand side */
                double cs = -INFINITY;
                for (int v = 0; v < nv; v++)
                    for (int corner = 0; corner < 4; corner++) {
                        double x = corner & 1 ? vb[v].ihi : vb[v].ilo;
                        double yv = corner & 2 ? vb[v].jhi : vb[v].jlo;
                        double g = vfy_add_up(relu(x), relu(yv));
                        double h = vfy_sub_up(vfy_sub_up(g, vfy_mul_down(a, x)), vfy_mul_down(b, yv));
                        cs = fmax(cs, h);
                    }
                if (!isfinite(cs) || !row_begin(lp, 4))
                    continue;
                row_add(lp, yi, 1.0);
                row_add(lp, yj, 1.0);
                row_add(lp, zi, -a);
                row_add(lp, zj, -b);
                row_end(lp, -INFINITY, cs);
                added++;
            }
    return added;
}

typedef struct { double score; int y; int layer; } cand;

static int cand_cmp(const void *pa, const void *pb)
{
    const cand *a = pa, *b = pb;
    if (a->score != b->score)
        return a->score > b->score ? -1 : 1;
    return a->y - b->y;
}

vfy_status vfy_lp_add_pair_cuts(vfy_lp *lp, const double *weight, int64_t max_pairs,
                                 int64_t *n_added)
{
    *n_added = 0;
    if (max_pairs <= 0)
        return VFY_OK;
    glpk_quiet();
    /* flat offset of every layer's output (vfy_bounds_export's layout) */
    const vfy_net *net = lp->net;
    int64_t n_c = 0;
    for (int64_t j = 1; j <= lp->ncols; j++)
        n_c += lp->zcol[j] != 0;
    if (n_c < 2)
        return VFY_OK;
    cand *cs = vfy_alloc_array((size_t)n_c, sizeof(cand));
    int64_t *off = vfy_alloc_array((size_t)net->n_layers + 1, sizeof(int64_t));
    if (!cs || !off) {
        vfy_free(cs);
        vfy_free(off);
        return VFY_ERR_NOMEM;
    }
    for (int64_t k = 0; k < net->n_layers; k++)
        off[k + 1] = off[k] + net->layers[k].n_out;
    n_c = 0;
    for (int64_t k = 0; k < lp->n_built; k++) {
        if (net->layers[k].kind != VFY_LAYER_RELU)
            continue;
        for (int64_t j = 0; j < net->layers[k].n_out; j++) {
            int y = lp->ref[k][j];
            if (y == 0 || lp->zcol[y] == 0 || lp->layer_of[y] != k)
                continue;
            int z = lp->zcol[y];
            double l = lp->cl[z], u = lp->cu[z];
            double sc = (weight && k > 0) ? weight[off[k - 1] + j] : -l * u / (u - l);
            cs[n_c++] = (cand){sc, y, (int)k};
        }
    }
    qsort(cs, (size_t)n_c, sizeof(cand), cand_cmp);
    int64_t pairs = 0;
    /* pairs among the best neurons of each layer, best first */
    int64_t top = 2;
    while (top * (top - 1) / 2 < max_pairs && top < n_c)
        top++;
    for (int64_t a = 0; a < top && pairs < max_pairs; a++)
        for (int64_t c = a + 1; c < top && pairs < max_pairs; c++) {
            if (cs[a].layer != cs[c].layer)
                continue;
            if (lp->dl && vfy_deadline_over(lp->dl))
                break;
            int yi = cs[a].y, yj = cs[c].y, zi = lp->zcol[yi], zj = lp->zcol[yj];
            double oct[8] = {lp->cl[zi], lp->cu[zi], lp->cl[zj], lp->cu[zj], 0, 0, 0, 0};
            /* the octagon's diagonal sides, safe bounds of the current relaxation, never looser
             * than the box's own */
            oct[4] = fmax(min_pair(lp, zi, 1.0, zj, 1.0), vfy_add_down(oct[0], oct[2]));
            oct[5] = fmin(-min_pair(lp, zi, -1.0, zj, -1.0), vfy_add_up(oct[1], oct[3]));
            oct[6] = fmax(min_pair(lp, zi, 1.0, zj, -1.0), vfy_sub_down(oct[0], oct[3]));
            oct[7] = fmin(-min_pair(lp, zi, -1.0, zj, 1.0), vfy_sub_up(oct[1], oct[2]));
            if (!(oct[4] <= oct[5] && oct[6] <= oct[7]))
                continue;
            int64_t r_before = lp->nrows;
            int64_t got = pair_facets(lp, yi, yj, zi, zj, oct);
            pairs++;
            if (got > 0) {
                load_new(lp, r_before, lp->ncols);
                *n_added += got;
            }
        }
    lp->cuts += *n_added;
    vfy_free(cs);
    vfy_free(off);
    return VFY_OK;
}

/* ---------------------------------------------------------------- intermediate bounds */

typedef struct { double score; int64_t j; } ncand;

static int ncand_cmp(const void *pa, const void *pb)
{
    const ncand *a = pa, *b = pb;
    if (a->score != b->score)
        return a->score > b->score ? -1 : 1;
    return a->j < b->j ? -1 : (a->j > b->j);
}

vfy_status vfy_lp_tighten_layers(const vfy_bound_ctx *ctx, const double *in_lo, const double *in_hi,
                                 vfy_bounds *b, int64_t max_per_layer, const vfy_deadline *dl,
                                 int64_t *n_tightened)
{
    const vfy_net *net = vfy_bound_ctx_net(ctx);
    *n_tightened = 0;
    int64_t half = vfy_bounds_flat_size(ctx) / 2, n_relu_seen = 0;
    double *flat = vfy_alloc_array((size_t)(2 * half + 1), sizeof(double));
    ncand *cs = vfy_alloc_array((size_t)(vfy_net_max_width(net) + 1), sizeof(ncand));
    vfy_status st = VFY_OK;
    if (!flat || !cs) {
        st = VFY_ERR_NOMEM;
        goto done;
    }
    int64_t n_left = 0;
    for (int64_t k = 1; k < net->n_layers; k++)
        n_left += net->layers[k].kind == VFY_LAYER_RELU && net->layers[k - 1].kind != VFY_LAYER_RELU;
    n_left = n_left > 0 ? n_left - 1 : 0;
    for (int64_t k = 1; k < net->n_layers; k++) {
        const vfy_layer *L = &net->layers[k];
        if (L->kind != VFY_LAYER_RELU || net->layers[k - 1].kind == VFY_LAYER_RELU)
            continue;
        /* the first ReLU layer's inputs are affine in x: CROWN is exact there already */
        if (n_relu_seen++ == 0)
            continue;
        if (dl && vfy_deadline_over(dl))
            break;
        /* each remaining layer gets an equal share of the time left */
        vfy_deadline share = {INFINITY, 0};
        if (dl && isfinite(dl->t_end))
            share.t_end = vfy_now() + (dl->t_end - vfy_now()) / (double)(n_left > 0 ? n_left : 1);
        n_left--;
        double *lo = b->lo[k - 1], *hi = b->hi[k - 1];
        int64_t n = 0;
        for (int64_t j = 0; j < L->n_out; j++)
            if (lo[j] < 0 && hi[j] > 0)
                cs[n++] = (ncand){-lo[j] * hi[j] / (hi[j] - lo[j]), j};
        if (n == 0)
            continue;
        qsort(cs, (size_t)n, sizeof(ncand), ncand_cmp);
        if (n > max_per_layer)
            n = max_per_layer;
        vfy_lp *lp = NULL;
        st = vfy_lp_build_prefix(ctx, in_lo, in_hi, b, k, &lp, NULL);
        if (st == VFY_ERR_INVALID || st == VFY_ERR_UNSUPPORTED) {
            st = VFY_OK;
            break; /* bounds not finite, or a Sigmoid/Tanh before: nothing to tighten with */
        }
        if (st != VFY_OK)
            goto done;
        vfy_lp_set_deadline(lp, &share);
        for (int64_t q = 0; q < n; q++) {
            if (vfy_deadline_over(&share) || (dl && vfy_deadline_over(dl)))
                break;
            int64_t j = cs[q].j;
            double nlo, nhi;
            if (vfy_lp_bound_neuron(lp, k - 1, j, &nlo, &nhi) != VFY_OK)
                continue;
            /* SOUND: both are safe LP bounds over a relaxation of the box; keep the tighter */
            int better = 0;
            if (nlo > lo[j]) {
                lo[j] = nlo;
                better = 1;
            }
            if (nhi < hi[j]) {
                hi[j] = nhi;
                better = 1;
            }
            *n_tightened += better;
        }
        vfy_lp_free(lp);
        st = vfy_bound_refresh(ctx, in_lo, in_hi, b, k, flat);
        if (st != VFY_OK)
            goto done;
    }
done:
    vfy_free(flat);
    vfy_free(cs);
    return st;
}

/* ---------------------------------------------------------------- single-neuron ideal cuts */

/* The convex hull of one ReLU over the box of its inputs (Anderson et al., "Strong mixed-integer
 * programming formulations for trained neural networks", 2020). The triangle is the hull over the
 * interval of z = sum_i w_i v_i + beta only; over the box of the v_i it is loose wherever the
 * inputs cannot reach the interval's ends together. With beta in [beta_l, beta_u] (the defining
 * row's sides: the perturbation), per input the end minimising w_i v_i, Lc_i (l_i when w_i >= 0,
 * else u_i), the other end Uc_i, and the phase sigma (1 when z > 0, else 0), every subset I of the
 * inputs gives
 *     y <= sum_{i in I} w_i (v_i - Lc_i (1 - sigma)) + (beta_u + sum_{i not in I} w_i Uc_i) sigma.
 * With sigma relaxed to [0, 1] these, y >= z and y >= 0 describe the hull (their paper's ideal
 * formulation). Validity at a real point: sigma = 1 (z > 0, y = z): the right side is at least
 * sum_i w_i v_i + beta_u >= z; sigma = 0 (z <= 0, y = 0): each term w_i (v_i - Lc_i) >= 0.
 * I = all and I = empty, taken with z's own column bounds [l, u] (which the box's interval
 * contains), are the rows  y - z - l sigma <= -l  and  y - u sigma <= 0  (the triangle once sigma
 * is projected out); the others are separated: at GLPK's point the tightest I takes input i when
 * w_i (v_i - Lc_i (1 - sigma)) < w_i Uc_i sigma.
 * The row stored is  y - sum_I w_i v_i - c sigma <= -A,  A = sum_I w_i Lc_i rounded down,
 * B = beta_u + sum_{not I} w_i Uc_i rounded up, c = A + B rounded up.
 * SOUND: the exact cut gives y - sum_I w_i v_i <= -A_exact (1 - sigma) + B_exact sigma
 * <= -A (1 - sigma) + B sigma = -A + (A + B) sigma <= -A + c sigma for sigma >= 0; its
 * coefficients w_i are the defining row's, exactly. The column bounds of the v_i and of z must be
 * the layer bounds (sound for every real point), so no cut is made while a phase is fixed. */
#define CUT_MIN_VIOL 1e-6 /* relative to the neuron's upper bound */

/* Whether the unstable ReLU output y may get ideal cuts: its input z has a defining row of at
 * most VFY_LP_CUT_MAX_FANIN inputs. */
static int cut_candidate(const vfy_lp *lp, int64_t y)
{
    int z = lp->zcol[y];
    if (z == 0 || lp->def_row[z] == 0)
        return 0;
    int dr = lp->def_row[z];
    return lp->rstart[dr + 1] - lp->rstart[dr] - 1 <= VFY_LP_CUT_MAX_FANIN;
}

int64_t vfy_lp_cut_candidates(const vfy_lp *lp)
{
    int64_t n = 0;
    for (int64_t y = 1; y <= lp->ncols; y++)
        n += cut_candidate(lp, y);
    return n;
}

/* y's phase column and its two base rows; 0 when out of memory */
static int lift_relu(vfy_lp *lp, int y)
{
    int z = lp->zcol[y];
    double l = lp->cl[z], u = lp->cu[z];
    int sc = new_col(lp, 0.0, 1.0, -1);
    if (!sc || !row_begin(lp, 3))
        return 0;
    row_add(lp, y, 1.0);
    row_add(lp, z, -1.0);
    row_add(lp, sc, -l);
    row_end(lp, -INFINITY, -l);
    if (!row_begin(lp, 2))
        return 0;
    row_add(lp, y, 1.0);
    row_add(lp, sc, -u);
    row_end(lp, -INFINITY, 0.0);
    lp->sig_col[y] = sc;
    return sc;
}

/* Input v's (weight w) two terms of a cut at GLPK's point with sigma = sg: in I,
 * w (v - Lc (1 - sg)); out of I, w Uc sg. */
static void ideal_terms(const vfy_lp *lp, int v, double w, double sg, double *tin, double *tout)
{
    double lc = w >= 0 ? lp->cl[v] : lp->cu[v], uc = w >= 0 ? lp->cu[v] : lp->cl[v];
    *tin = w * (glp_get_col_prim(lp->P, v) - lc * (1.0 - sg));
    *tout = w * uc * sg;
}

/* Add the most violated ideal cut of each unstable ReLU at GLPK's current point (and the phase
 * columns of those met the first time). Returns the number of rows added, -1 out of memory. */
static int64_t separate_ideal(vfy_lp *lp)
{
    if (lp->n_fixed > 0)
        return 0;
    int64_t r0 = lp->nrows, c0 = lp->ncols, added = 0, nc = lp->ncols;
    for (int64_t y = 1; y <= nc; y++) {
        if (!cut_candidate(lp, y))
            continue;
        int z = lp->zcol[y], dr = lp->def_row[z];
        double u = lp->cu[z], ys = glp_get_col_prim(lp->P, (int)y);
        if (!(u > 0) || !(ys > 0))
            continue;
        int sc = lp->sig_col[y];
        /* sigma's value: GLPK's, or for a neuron not yet lifted the least the triangle allows */
        double sg = sc ? glp_get_col_prim(lp->P, sc) : ys / u;
        sg = fmin(fmax(sg, 0.0), 1.0);
        double rhs = lp->ru[dr] * sg, tin, tout;
        int64_t e0 = lp->rstart[dr], e1 = lp->rstart[dr + 1];
        for (int64_t e = e0; e < e1; e++)
            if (lp->rcol[e] != z) {
                ideal_terms(lp, lp->rcol[e], -lp->rval[e], sg, &tin, &tout);
                rhs += fmin(tin, tout);
            }
        if (!(ys - rhs > CUT_MIN_VIOL * u))
            continue;
        if (!sc && !(sc = lift_relu(lp, (int)y)))
            return -1;
        if (!row_begin(lp, e1 - e0 + 2))
            return -1;
        double A = 0.0, B = lp->ru[dr];
        row_add(lp, (int)y, 1.0);
        for (int64_t e = e0; e < e1; e++) {
            int v = lp->rcol[e];
            if (v == z)
                continue;
            double w = -lp->rval[e], lc = w >= 0 ? lp->cl[v] : lp->cu[v];
            double uc = w >= 0 ? lp->cu[v] : lp->cl[v];
            ideal_terms(lp, v, w, sg, &tin, &tout);
            if (tin < tout) {
                row_add(lp, v, -w);
                A = vfy_add_down(A, vfy_mul_down(w, lc));
            } else {
                B = vfy_add_up(B, vfy_mul_up(w, uc));
            }
        }
        row_add(lp, sc, -vfy_add_up(A, B));
        row_end(lp, -INFINITY, -A);
        added++;
    }
    if (lp->nrows > r0 || lp->ncols > c0)
        load_new(lp, r0, c0);
    lp->dual_next = added > 0; /* the basis stays dual feasible: the new rows enter basic */
    lp->cuts += added;
    return added;
}

/* Solve the current objective, adding ideal cuts at the optimum and solving again, up to `rounds`
 * times, until none is violated or the safe bound is above stop_above; with stop_above finite,
 * also once the last round's gain, kept up for the rounds left, would not get it there (the
 * gains shrink from round to round: on oval21's cifar_base_kw a row's -0.70 became -0.62 over
 * 20 rounds, no proof). */
static vfy_status solve_cuts(vfy_lp *lp, int rounds, double stop_above)
{
    solve(lp);
    double prev = -INFINITY;
    for (int r = 0; r < rounds; r++) {
        double now = lp->empty ? INFINITY : safe_bound(lp);
        if ((lp->dl && vfy_deadline_over(lp->dl)) || now > stop_above)
            break;
        if (isfinite(stop_above) && r > 0 && (now - prev) * (rounds - r) < stop_above - now)
            break;
        prev = now;
        int64_t n = separate_ideal(lp);
        if (n < 0)
            return VFY_ERR_NOMEM;
        if (n == 0)
            break;
        solve(lp);
    }
    return VFY_OK;
}

vfy_status vfy_lp_bound_rows_cuts(vfy_lp *lp, int64_t K, const double *cy, const double *cx,
                                  int rounds, double *lb)
{
    const vfy_net *net = lp->net;
    if (lp->n_built != net->n_layers)
        return VFY_ERR_INVALID;
    glpk_quiet();
    vfy_status st = VFY_OK;
    for (int64_t i = 0; i < K && st == VFY_OK; i++) {
        obj_clear(lp);
        obj_set_row(lp, cy + i * net->n_out, cx ? cx + i * lp->nx : NULL, 1.0);
        st = solve_cuts(lp, rounds, INFINITY);
        lb[i] = safe_bound(lp);
    }
    obj_clear(lp);
    return st;
}
