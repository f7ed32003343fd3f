/* Check suite of the lp module: the triangle LP (full and compact), safe dual bounds, conjunctions,
 * ReLU phase fixing and multi-neuron cuts. Soundness checks compare with sampled points and use no
 * tolerance. */
#include "vfy/bound.h"
#include "vfy/eval.h"
#include "vfy/la.h"
#include "vfy/lp.h"
#include "vfy/onnx.h"
#include "vfy/spec.h"
#include "require.h"
#include "testnet.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


typedef struct fixture {
    vfy_net *net;
    vfy_bound_ctx *ctx;
    vfy_bounds *b;
    double lo[16], hi[16];     /* the sampled box */
    double wlo[16], whi[16];   /* widened for float32 inputs */
} fixture;

static void fixture_make(fixture *f, int i, int float_semantics, double radius)
{
    const testnet_shape *sh = &testnet_shapes[i % 4];
    f->net = testnet_random(300 + (uint64_t)i, sh->n_in, sh->hidden, sh->n_hidden, sh->n_out,
                            sh->scale, sh->with_scale);
    ck_assert_ptr_nonnull(f->net);
    ck_assert_int_eq(vfy_bound_ctx_create(f->net, float_semantics, &f->ctx, NULL), VFY_OK);
    f->b = vfy_bounds_create(f->ctx);
    ck_assert_ptr_nonnull(f->b);
    uint64_t st = 77 + (uint64_t)i;
    for (int64_t j = 0; j < f->net->n_in; j++) {
        double c = 2 * testnet_uniform(&st) - 1, r = radius * (0.5 + testnet_uniform(&st));
        f->lo[j] = f->wlo[j] = c - r;
        f->hi[j] = f->whi[j] = c + r;
    }
    vfy_bound_widen_input(f->ctx, f->net->n_in, f->wlo, f->whi);
    ck_assert_int_eq(vfy_bound_layers(f->ctx, VFY_BOUND_CROWN, f->wlo, f->whi, NULL, f->b), VFY_OK);
}

/* A fixture of an explicit net (testnet_dense) in the real semantics; its box is the caller's. */
static void fixture_dense(fixture *f, int n_dense, const int64_t *sizes, const double *const *w,
                          const double *const *b)
{
    f->net = testnet_dense(n_dense, sizes, w, b);
    ck_assert_ptr_nonnull(f->net);
    ck_assert_int_eq(vfy_bound_ctx_create(f->net, 0, &f->ctx, NULL), VFY_OK);
    f->b = vfy_bounds_create(f->ctx);
    ck_assert_ptr_nonnull(f->b);
}

static void fixture_free(fixture *f)
{
    vfy_bounds_free(f->b);
    vfy_bound_ctx_free(f->ctx);
    vfy_net_free(f->net);
}

/* A float32-valued sample of the box (corners first); y64 and y32 its outputs. */
static void sample(const fixture *f, int s, uint64_t *st, double *x, double *y64, double *y32)
{
    const vfy_net *net = f->net;
    float xf[16], yf[16], sf[256];
    double sd[256];
    for (int64_t j = 0; j < net->n_in; j++) {
        double u = s < 2 ? (double)s : (s < 4 ? (double)((j + s) % 2) : testnet_uniform(st));
        float v = (float)(f->lo[j] + u * (f->hi[j] - f->lo[j]));
        if ((double)v < f->lo[j])
            v = nextafterf(v, INFINITY);
        if ((double)v > f->hi[j])
            v = nextafterf(v, -INFINITY);
        x[j] = v;
        xf[j] = v;
    }
    vfy_eval_f64(net, x, y64, sd);
    vfy_eval_f32(net, xf, yf, sf);
    for (int64_t j = 0; j < net->n_out; j++)
        y32[j] = yf[j];
}

static double dot(const double *a, const double *b, int64_t n)
{
    double s = 0;
    for (int64_t j = 0; j < n; j++)
        s += a[j] * b[j];
    return s;
}

/* Rows' safe LP bounds hold at every sample (real and float32 outputs), are at least CROWN's up to
 * the rounding the safe bound charges, and agree with GLPK's own optimum to a few digits. */
START_TEST(test_lp_contains_samples)
{
    int fs = _i >= 4;
    fixture f;
    fixture_make(&f, _i, fs, 0.15);
    const vfy_net *net = f.net;
    int64_t ny = net->n_out, K = 3;
    uint64_t st = 9 + (uint64_t)_i;
    double cy[3 * 8], lbc[3], lbl[3], lbk[3], val[3];
    for (int64_t i = 0; i < K * ny; i++)
        cy[i] = (double)(int)(testnet_uniform(&st) * 5) - 2;
    ck_assert_int_eq(vfy_bound_rows(f.ctx, VFY_BOUND_CROWN, f.wlo, f.whi, f.b, K, cy, NULL, lbc,
                                    NULL, NULL), VFY_OK);
    vfy_lp *lp = NULL, *lc = NULL;
    ck_assert_int_eq(vfy_lp_build(f.ctx, f.wlo, f.whi, f.b, &lp, NULL), VFY_OK);
    ck_assert_int_eq(vfy_lp_bound_rows(lp, K, cy, NULL, lbl, val), VFY_OK);
    ck_assert_int_eq(vfy_lp_build_compact(f.ctx, f.wlo, f.whi, f.b, 1000, 0, &lc, NULL), VFY_OK);
    ck_assert_int_eq(vfy_lp_bound_rows(lc, K, cy, NULL, lbk, NULL), VFY_OK);
    for (int i = 0; i < K; i++) {
        double tol = 1e-9 * (1 + fabs(lbc[i]));
        REQUIRE_MSG(lbl[i] >= lbc[i] - tol, "row %d: LP %.17g below CROWN %.17g", i, lbl[i], lbc[i]);
        REQUIRE_MSG(lbk[i] >= lbc[i] - tol, "row %d: compact LP %.17g below CROWN %.17g", i,
                    lbk[i], lbc[i]);
        ck_assert(lbl[i] <= val[i]);
        ck_assert(fabs(lbl[i] - val[i]) <= 1e-6 * (1 + fabs(val[i])));
    }
    double x[16], y64[16], y32[16];
    for (int s = 0; s < 400; s++) {
        sample(&f, s, &st, x, y64, y32);
        for (int i = 0; i < K; i++) {
            double v64 = dot(cy + i * ny, y64, ny);
            REQUIRE_MSG(lbl[i] <= v64, "row %d: LP bound %.17g above %.17g", i, lbl[i], v64);
            REQUIRE_MSG(lbk[i] <= v64, "row %d: compact bound %.17g above %.17g", i, lbk[i], v64);
            if (fs) {
                double v32 = dot(cy + i * ny, y32, ny);
                REQUIRE(lbl[i] <= v32 && lbk[i] <= v32);
            }
        }
    }
    /* neuron bounds of the first affine layer's outputs contain the samples too */
    for (int64_t j = 0; j < net->layers[0].n_out && j < 4; j++) {
        double nlo, nhi;
        ck_assert_int_eq(vfy_lp_bound_neuron(lp, 0, j, &nlo, &nhi), VFY_OK);
        ck_assert(nlo <= nhi);
        double *acts[16] = {0};
        for (int64_t k = 0; k < net->n_layers; k++)
            acts[k] = malloc((size_t)net->layers[k].n_out * sizeof(double));
        for (int s = 0; s < 100; s++) {
            sample(&f, s, &st, x, y64, y32);
            vfy_eval_forward_all(net, x, acts, NULL);
            REQUIRE(nlo <= acts[0][j] && acts[0][j] <= nhi);
        }
        for (int64_t k = 0; k < net->n_layers; k++)
            free(acts[k]);
    }
    ck_assert_int_eq(vfy_lp_bound_neuron(lc, 0, 0, &lbl[0], &lbl[1]), VFY_ERR_INVALID);
    vfy_lp_free(lp);
    vfy_lp_free(lc);
    vfy_lp_thread_done();
    fixture_free(&f);
}
END_TEST

/* The LP charges the float32 execution as the bound module does (lp.c, perturbation): on the
 * adversarial row (testnet_adversarial_row, a layer of 300 inputs at x = 1) the LP's bounds of the
 * output in both directions hold its float32 execution in index order. */
START_TEST(test_lp_exec_allowance)
{
    enum { N = TESTNET_ADV_TERMS };
    static double lo[N], hi[N];
    float y;
    for (int k = 0; k < N; k++)
        lo[k] = hi[k] = 1.0;
    vfy_net *net = testnet_adversarial_net(&y);
    ck_assert_ptr_nonnull(net);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
    vfy_bounds *b = vfy_bounds_create(ctx);
    ck_assert_ptr_nonnull(b);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo, hi, NULL, b), VFY_OK);
    vfy_lp *lp;
    ck_assert_int_eq(vfy_lp_build(ctx, lo, hi, b, &lp, NULL), VFY_OK);
    double cy[2] = {1, -1}, lb[2];
    ck_assert_int_eq(vfy_lp_bound_rows(lp, 2, cy, NULL, lb, NULL), VFY_OK);
    REQUIRE_MSG(lb[0] <= y && -y >= lb[1], "%.9g not in [%.9g, %.9g]", (double)y, lb[0], -lb[1]);
    vfy_lp_free(lp);
    vfy_lp_thread_done();
    vfy_bounds_free(b);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* A conjunction's bound never exceeds max_i (row_i - rhs_i) at a sample; with rhs chosen so that
 * some sample satisfies every row, it is not positive (no false refutation). */
START_TEST(test_lp_case_sound)
{
    fixture f;
    fixture_make(&f, _i, 1, 0.2);
    const vfy_net *net = f.net;
    int64_t ny = net->n_out, m = 2;
    uint64_t st = 31 + (uint64_t)_i;
    double cy[2 * 8], rhs[2], x[16], y64[16], y32[16];
    for (int64_t i = 0; i < m * ny; i++)
        cy[i] = testnet_uniform(&st) * 2 - 1;
    sample(&f, 7, &st, x, y64, y32);
    for (int i = 0; i < m; i++)
        rhs[i] = dot(cy + i * ny, y64, ny) + 0.01 * i;
    vfy_lp *lp = NULL;
    ck_assert_int_eq(vfy_lp_build(f.ctx, f.wlo, f.whi, f.b, &lp, NULL), VFY_OK);
    double lb, xo[16];
    ck_assert_int_eq(vfy_lp_bound_case(lp, m, cy, NULL, rhs, &lb, xo), VFY_OK);
    ck_assert(lb <= 0);
    for (int64_t j = 0; j < net->n_in; j++)
        ck_assert(f.wlo[j] <= xo[j] && xo[j] <= f.whi[j]);
    for (int s = 0; s < 300; s++) {
        sample(&f, s, &st, x, y64, y32);
        double mx = -INFINITY;
        for (int i = 0; i < m; i++)
            mx = fmax(mx, dot(cy + i * ny, y64, ny) - rhs[i]);
        REQUIRE_MSG(lb <= mx, "case bound %.17g above %.17g", lb, mx);
    }
    /* the same again (its rows were retired and new ones added): the same bound */
    double lb2;
    ck_assert_int_eq(vfy_lp_bound_case(lp, m, cy, NULL, rhs, &lb2, NULL), VFY_OK);
    ck_assert(fabs(lb2 - lb) <= 1e-9 * (1 + fabs(lb)));
    vfy_lp_free(lp);
    vfy_lp_thread_done();
    fixture_free(&f);
}
END_TEST

/* Fixing a ReLU's phase: the bound holds at every sample with that phase, and fixing every
 * unstable ReLU of a small net makes the LP exact: its optimum point's real value reaches the
 * bound up to rounding. */
START_TEST(test_lp_fix_relu)
{
    fixture f;
    fixture_make(&f, 0, 0, 0.3);
    const vfy_net *net = f.net;
    int64_t ny = net->n_out;
    vfy_lp *lp = NULL;
    ck_assert_int_eq(vfy_lp_build_compact(f.ctx, f.wlo, f.whi, f.b, 64, 0, &lp, NULL), VFY_OK);
    int64_t layer[64], index[64];
    int64_t U = vfy_lp_unstable(lp, 64, layer, index, NULL);
    ck_assert(U >= 1);
    double cy[8] = {1, -1}, rhs[1] = {0};
    ck_assert_int_eq(vfy_lp_case_begin(lp, 1, cy, NULL, rhs), VFY_OK);
    uint64_t st = 5;
    double *acts[16] = {0};
    for (int64_t k = 0; k < net->n_layers; k++)
        acts[k] = malloc((size_t)net->layers[k].n_out * sizeof(double));
    for (int sg = -1; sg <= 1; sg += 2) {
        ck_assert_int_eq(vfy_lp_fix_relu(lp, layer[0], index[0], sg), VFY_OK);
        double lb;
        ck_assert_int_eq(vfy_lp_case_solve(lp, &lb, NULL), VFY_OK);
        int hits = 0;
        for (int s = 0; s < 2000; s++) {
            double x[16], y64[16], y32[16];
            sample(&f, s, &st, x, y64, y32);
            vfy_eval_forward_all(net, x, acts, NULL);
            double z = acts[layer[0] - 1][index[0]];
            if ((sg > 0 && z < 0) || (sg < 0 && z > 0))
                continue;
            hits++;
            REQUIRE(lb <= dot(cy, y64, ny));
        }
        ck_assert(hits > 0);
    }
    ck_assert_int_eq(vfy_lp_fix_relu(lp, layer[0], index[0], 0), VFY_OK);
    ck_assert_int_eq(vfy_lp_fix_relu(lp, 0, 0, 1), VFY_ERR_INVALID); /* not a ReLU layer */
    vfy_lp_case_end(lp);
    for (int64_t k = 0; k < net->n_layers; k++)
        free(acts[k]);
    vfy_lp_free(lp);
    vfy_lp_thread_done();
    fixture_free(&f);
}
END_TEST

/* Pair cuts: still sound at every sample, never looser than the triangle LP, and strictly tighter
 * on at least one of these random nets. */
START_TEST(test_lp_pair_cuts)
{
    int tighter = 0;
    for (int i = 0; i < 4; i++) {
        fixture f;
        fixture_make(&f, i, 1, 0.4);
        const vfy_net *net = f.net;
        int64_t ny = net->n_out, K = 2;
        uint64_t st = 3 + (uint64_t)i;
        double cy[2 * 8], lb0[2], lb1[2];
        for (int64_t q = 0; q < K * ny; q++)
            cy[q] = (double)(int)(testnet_uniform(&st) * 5) - 2;
        vfy_lp *lp = NULL;
        ck_assert_int_eq(vfy_lp_build(f.ctx, f.wlo, f.whi, f.b, &lp, NULL), VFY_OK);
        ck_assert_int_eq(vfy_lp_bound_rows(lp, K, cy, NULL, lb0, NULL), VFY_OK);
        int64_t added = 0;
        ck_assert_int_eq(vfy_lp_add_pair_cuts(lp, NULL, 20, &added), VFY_OK);
        ck_assert_int_eq(vfy_lp_bound_rows(lp, K, cy, NULL, lb1, NULL), VFY_OK);
        for (int q = 0; q < K; q++) {
            REQUIRE(lb1[q] >= lb0[q] - 1e-9 * (1 + fabs(lb0[q])));
            tighter |= lb1[q] > lb0[q] + 1e-6 * (1 + fabs(lb0[q]));
        }
        for (int s = 0; s < 300; s++) {
            double x[16], y64[16], y32[16];
            sample(&f, s, &st, x, y64, y32);
            for (int q = 0; q < K; q++) {
                REQUIRE(lb1[q] <= dot(cy + q * ny, y64, ny));
                REQUIRE(lb1[q] <= dot(cy + q * ny, y32, ny));
            }
        }
        vfy_lp_free(lp);
        fixture_free(&f);
    }
    ck_assert(tighter);
    vfy_lp_thread_done();
}
END_TEST

/* A degenerate LP on which GLPK's simplex cycled: models/abs_split's pair cuts (float
 * semantics, as --compare-bounds builds them), solved with no deadline, never returned. Each
 * solve is capped in iterations: the cuts end (within the test's timeout), and the bound they
 * give still holds at samples of the box. */
START_TEST(test_lp_cycling_capped)
{
    vfy_net *net = NULL;
    vfy_spec *spec = NULL;
    vfy_error err;
    REQUIRE_MSG(vfy_onnx_load("models/abs_split.onnx", &net, &err) == VFY_OK, "%s", err.msg);
    REQUIRE_MSG(vfy_spec_load("specs/abs_split_unsat.vnnlib", &spec, &err) == VFY_OK, "%s",
                err.msg);
    vfy_bound_ctx *ctx = NULL;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
    vfy_bounds *b = vfy_bounds_create(ctx);
    ck_assert_ptr_nonnull(b);
    int64_t nx = net->n_in, ny = net->n_out;
    ck_assert(nx <= 16 && ny <= 16 && spec->n_cases >= 1 && spec->cases[0].n_rows >= 1);
    double lo[16], hi[16];
    memcpy(lo, spec->boxes[0].lo, (size_t)nx * sizeof(double));
    memcpy(hi, spec->boxes[0].hi, (size_t)nx * sizeof(double));
    vfy_bound_widen_input(ctx, nx, lo, hi);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo, hi, NULL, b), VFY_OK);
    const vfy_row *r = &spec->cases[0].rows[0];
    vfy_lp *lp = NULL;
    ck_assert_int_eq(vfy_lp_build(ctx, lo, hi, b, &lp, NULL), VFY_OK);
    int64_t added = 0;
    double lb;
    ck_assert_int_eq(vfy_lp_add_pair_cuts(lp, NULL, 50, &added), VFY_OK);
    ck_assert_int_eq(vfy_lp_bound_rows(lp, 1, r->cy, r->cx, &lb, NULL), VFY_OK);
    vfy_lp_stats ls;
    vfy_lp_stats_get(lp, &ls);
    REQUIRE_MSG(added > 0 && ls.solves > 1, "%lld cuts, %lld solves", (long long)added,
                (long long)ls.solves);
    uint64_t st = 5;
    double x[16], y[16], sc[256];
    ck_assert(vfy_eval_ws_len(net) <= 256);
    for (int s = 0; s < 2000; s++) {
        for (int64_t j = 0; j < nx; j++)
            x[j] = spec->boxes[0].lo[j] +
                   testnet_uniform(&st) * (spec->boxes[0].hi[j] - spec->boxes[0].lo[j]);
        vfy_eval_f64(net, x, y, sc);
        double v = 0;
        for (int64_t j = 0; j < ny; j++)
            v += r->cy[j] * y[j];
        for (int64_t j = 0; r->cx && j < nx; j++)
            v += r->cx[j] * x[j];
        REQUIRE_MSG(lb <= v, "sample %d: %.17g > %.17g", s, lb, v);
    }
    vfy_lp_free(lp);
    vfy_bounds_free(b);
    vfy_bound_ctx_free(ctx);
    vfy_spec_free(spec);
    vfy_net_free(net);
    vfy_lp_thread_done();
}
END_TEST

/* Ideal cuts (single-neuron hulls over the inputs' boxes): sound at every sample (real and float32
 * outputs), never looser than the triangle LP, strictly tighter on at least one of these random
 * nets; the conjunction form too; and none is made while a phase is fixed. */
START_TEST(test_lp_ideal_cuts)
{
    int tighter = 0;
    for (int i = 0; i < 4; i++) {
        fixture f;
        fixture_make(&f, i, i % 2, 0.4);
        const vfy_net *net = f.net;
        int64_t ny = net->n_out, K = 2;
        uint64_t st = 13 + (uint64_t)i;
        double cy[2 * 8], lb0[2], lb1[2], rhs[2] = {0, 0}, lbc = -INFINITY;
        for (int64_t q = 0; q < K * ny; q++)
            cy[q] = (double)(int)(testnet_uniform(&st) * 5) - 2;
        vfy_lp *lp = NULL;
        ck_assert_int_eq(vfy_lp_build(f.ctx, f.wlo, f.whi, f.b, &lp, NULL), VFY_OK);
        ck_assert(vfy_lp_cut_candidates(lp) > 0);
        ck_assert_int_eq(vfy_lp_bound_rows(lp, K, cy, NULL, lb0, NULL), VFY_OK);
        ck_assert_int_eq(vfy_lp_bound_rows_cuts(lp, K, cy, NULL, 10, lb1), VFY_OK);
        vfy_lp_stats ls;
        vfy_lp_stats_get(lp, &ls);
        for (int q = 0; q < K; q++) {
            REQUIRE(lb1[q] >= lb0[q] - 1e-9 * (1 + fabs(lb0[q])));
            tighter |= lb1[q] > lb0[q] + 1e-6 * (1 + fabs(lb0[q]));
        }
        /* the conjunction of both rows <= 0, with the cuts made so far and more */
        ck_assert_int_eq(vfy_lp_case_begin(lp, K, cy, NULL, rhs), VFY_OK);
        ck_assert_int_eq(vfy_lp_case_solve_cuts(lp, 10, &lbc, NULL), VFY_OK);
        vfy_lp_case_end(lp);
        for (int s = 0; s < 300; s++) {
            double x[16], y64[16], y32[16], mx = -INFINITY;
            sample(&f, s, &st, x, y64, y32);
            for (int q = 0; q < K; q++) {
                REQUIRE_MSG(lb1[q] <= dot(cy + q * ny, y64, ny), "net %d row %d: %.17g above %.17g",
                            i, q, lb1[q], dot(cy + q * ny, y64, ny));
                if (i % 2)
                    REQUIRE(lb1[q] <= dot(cy + q * ny, y32, ny));
                mx = fmax(mx, dot(cy + q * ny, y64, ny));
            }
            REQUIRE_MSG(lbc <= mx, "net %d: case bound %.17g above %.17g", i, lbc, mx);
        }
        /* while a phase is fixed no cut is made (they would hold on that phase only) */
        int64_t layer[1], index[1];
        if (vfy_lp_unstable(lp, 1, layer, index, NULL) > 0 &&
            vfy_lp_fix_relu(lp, layer[0], index[0], 1) == VFY_OK) {
            vfy_lp_stats before, after;
            vfy_lp_stats_get(lp, &before);
            ck_assert_int_eq(vfy_lp_bound_rows_cuts(lp, 1, cy, NULL, 10, lb1), VFY_OK);
            vfy_lp_stats_get(lp, &after);
            ck_assert_int_eq(after.cuts, before.cuts);
            ck_assert_int_eq(vfy_lp_fix_relu(lp, layer[0], index[0], 0), VFY_OK);
        }
        vfy_lp_free(lp);
        fixture_free(&f);
    }
    ck_assert(tighter);
    vfy_lp_thread_done();
}
END_TEST

/* GLPK's answer and the safe bound differ, and the safe one is used. Two inputs x1 in [0, 1] and
 * x2 in [0, 2^30]; y0 = x1 + 2^-53 x2, y1 = x2. The minimum of -y0 is -(1 + 2^-23), at x2 = 2^30,
 * but x2's reduced cost (about 2^-53 after scaling by the geometric mean of its coefficients 2^-53 and 1)
 * is far inside GLPK's optimality tolerance (1e-7), so GLPK may stop at x2 = 0 and claim -1: above
 * the true minimum, i.e. not a bound. The safe bound recomputes the reduced cost from the duals and
 * charges it over x2's whole range, so it is at most the true minimum whatever GLPK did. */
START_TEST(test_lp_safe_bound_not_glpk)
{
    const int64_t sizes[2] = {2, 2};
    const double w1[4] = {1, 0x1p-53, 0, 1}, b1[2] = {0, 0};
    const double *w[1] = {w1}, *b[1] = {b1};
    fixture f;
    fixture_dense(&f, 1, sizes, w, b);
    vfy_bound_ctx *ctx = f.ctx;
    vfy_bounds *bb = f.b;
    double lo[2] = {0, 0}, hi[2] = {1, 0x1p30};
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_IBP, lo, hi, NULL, bb), VFY_OK);
    vfy_lp *lp = NULL;
    ck_assert_int_eq(vfy_lp_build(ctx, lo, hi, bb, &lp, NULL), VFY_OK);
    double cy[2] = {-1, 0}, lb, val;
    const double truth = -(1.0 + 0x1p-23); /* exact in double */
    ck_assert_int_eq(vfy_lp_bound_rows(lp, 1, cy, NULL, &lb, &val), VFY_OK);
    REQUIRE_MSG(lb <= truth, "safe bound %.17g above the true minimum %.17g", lb, truth);
    ck_assert(lb >= truth - 1e-9);
    /* GLPK 5.0 stops at x2 = 0 here: its optimum -1 is not a lower bound, the safe one is */
    REQUIRE_MSG(val > truth && lb < val,
                "GLPK's optimum %.17g (expected above the true minimum: its tolerance)", val);
    vfy_lp_free(lp);
    vfy_lp_thread_done();
    fixture_free(&f);
}
END_TEST

/* Boxes one ulp wide in every input (a domain split to its last ulp; found by
 * scripts/fuzz_exact.py): GLPK scales its columns by factors that need not be powers of two and
 * aborted the process when a double-bounded column's scaled bounds rounded together ("l[k] !=
 * u[k]"). Now such a column is handed to GLPK as fixed; the safe bound, which reads the true
 * bounds, still holds at the box's corners (real outputs). */
START_TEST(test_lp_ulp_box)
{
    fixture f;
    fixture_make(&f, _i, 0, 0.2);
    const vfy_net *net = f.net;
    int64_t nx = net->n_in, ny = net->n_out;
    uint64_t st = 501 + (uint64_t)_i;
    for (int rep = 0; rep < 32; rep++) {
        double lo[16], hi[16], cy[8], y[8], sd[256];
        for (int64_t j = 0; j < nx; j++) {
            lo[j] = (2 * testnet_uniform(&st) - 1) * ldexp(1.0, (int)(testnet_uniform(&st) * 8));
            hi[j] = nextafter(lo[j], INFINITY);
        }
        for (int64_t j = 0; j < ny; j++)
            cy[j] = 2 * testnet_uniform(&st) - 1;
        ck_assert_int_eq(vfy_bound_layers(f.ctx, VFY_BOUND_CROWN, lo, hi, NULL, f.b), VFY_OK);
        vfy_lp *lp = NULL;
        ck_assert_int_eq(vfy_lp_build(f.ctx, lo, hi, f.b, &lp, NULL), VFY_OK);
        double lb, val;
        ck_assert_int_eq(vfy_lp_bound_rows(lp, 1, cy, NULL, &lb, &val), VFY_OK);
        for (int corner = 0; corner < (1 << nx) && corner < 64; corner++) {
            double x[16];
            for (int64_t j = 0; j < nx; j++)
                x[j] = (corner >> j) & 1 ? hi[j] : lo[j];
            vfy_eval_f64(net, x, y, sd);
            double v = dot(cy, y, ny);
            REQUIRE_MSG(lb <= v, "LP bound %.17g above %.17g at a corner", lb, v);
        }
        vfy_lp_free(lp);
    }
    vfy_lp_thread_done();
    fixture_free(&f);
}
END_TEST

/* Build the LP of net over [lo, hi] with bounds b: the full form (compact 0) or the compact one. */
static vfy_lp *build_form(const vfy_bound_ctx *ctx, const double *lo, const double *hi,
                          const vfy_bounds *b, int compact)
{
    vfy_lp *lp = NULL;
    vfy_status st = compact ? vfy_lp_build_compact(ctx, lo, hi, b, 0, 1, &lp, NULL)
                            : vfy_lp_build(ctx, lo, hi, b, &lp, NULL);
    ck_assert_int_eq(st, VFY_OK);
    return lp;
}

/* A region whose decided ReLU signs contradict each other is empty: z1 = x - 1/2 >= 0 and
 * z2 = -x - 1/2 >= 0 on x in [-1, 1]. With the later layers' bounds wide, both LP forms prove it
 * (a Farkas certificate: the case's bound is +infinity, whatever the case); with z2 <= 0 instead
 * the region is x in [1/2, 1], and the bound of y - 100 (y = relu(z1) + relu(z2)) is finite and at
 * most its minimum -100. Before the compact form had its decided signs as rows it was feasible
 * here, and neither form's safe bound of an infeasible LP was above 0: such ReLU-split leaves
 * stayed open. */
START_TEST(test_lp_empty_region)
{
    const int64_t sizes[3] = {1, 2, 1};
    const double w1[2] = {1, -1}, b1[2] = {-0.5, -0.5}, w2[2] = {1, 1}, b2[1] = {0};
    const double *w[2] = {w1, w2}, *b[2] = {b1, b2};
    fixture f;
    fixture_dense(&f, 2, sizes, w, b);
    vfy_bound_ctx *ctx = f.ctx;
    vfy_bounds *bb = f.b;
    double lo = -1, hi = 1, cy = 1, rhs = 100;
    for (int compact = 0; compact <= 1; compact++) {
        ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, &lo, &hi, NULL, bb), VFY_OK);
        ck_assert(bb->lo[0][0] < 0 && bb->hi[0][0] > 0 && bb->lo[0][1] < 0 && bb->hi[0][1] > 0);
        bb->lo[0][0] = bb->lo[0][1] = 0.0; /* both active */
        /* the later bounds widened (still valid), so that only the signs show it */
        bb->hi[1][0] = bb->hi[1][1] = 10.0;
        bb->lo[2][0] = -10.0;
        bb->hi[2][0] = 10.0;
        vfy_lp *lp = build_form(ctx, &lo, &hi, bb, compact);
        double lb;
        ck_assert_int_eq(vfy_lp_bound_case(lp, 1, &cy, NULL, &rhs, &lb, NULL), VFY_OK);
        REQUIRE_MSG(lb == INFINITY, "form %d: an empty region's bound %.17g", compact, lb);
        vfy_lp_free(lp);
        bb->lo[0][1] = -1.5;
        bb->hi[0][1] = 0.0; /* z2 inactive: x in [1/2, 1] */
        lp = build_form(ctx, &lo, &hi, bb, compact);
        ck_assert_int_eq(vfy_lp_bound_case(lp, 1, &cy, NULL, &rhs, &lb, NULL), VFY_OK);
        REQUIRE_MSG(isfinite(lb) && lb <= -100, "form %d: bound %.17g", compact, lb);
        vfy_lp_free(lp);
    }
    vfy_lp_thread_done();
    fixture_free(&f);
}
END_TEST

/* Every unstable ReLU's sign decided (clamped into its bounds, as a ReLU split does), half of the
 * time as a sampled point's signs, half at random: in both LP forms the case's bound holds at every
 * sample with those signs (so no region with a point in it is called empty), and some random
 * assignments are proved empty. */
START_TEST(test_lp_decided_signs)
{
    fixture f;
    fixture_make(&f, _i, 1, 0.3);
    const vfy_net *net = f.net;
    int64_t ny = net->n_out, nl = net->n_layers;
    uint64_t st = 901 + (uint64_t)_i;
    double *acts[16] = {0}, *lo0[16] = {0}, *hi0[16] = {0};
    for (int64_t k = 0; k < nl; k++) {
        size_t n = (size_t)net->layers[k].n_out;
        acts[k] = malloc(n * sizeof(double));
        lo0[k] = malloc(n * sizeof(double));
        hi0[k] = malloc(n * sizeof(double));
        ck_assert(acts[k] && lo0[k] && hi0[k]);
        memcpy(lo0[k], f.b->lo[k], n * sizeof(double));
        memcpy(hi0[k], f.b->hi[k], n * sizeof(double));
    }
    int empty[2] = {0, 0}, hits = 0;
    for (int rep = 0; rep < 24; rep++) {
        double x[16], y64[16], y32[16], cy[8], rhs = 1e3, v0;
        sample(&f, 4 + rep, &st, x, y64, y32);
        vfy_eval_forward_all(net, x, acts, NULL);
        for (int64_t j = 0; j < ny; j++)
            cy[j] = 2 * testnet_uniform(&st) - 1;
        v0 = fmin(dot(cy, y64, ny), dot(cy, y32, ny)) - rhs; /* at the point of the signs */
        /* the signs: a ReLU layer k's input bounds are layer k-1's */
        for (int64_t k = 1; k < nl; k++) {
            if (net->layers[k].kind != VFY_LAYER_RELU)
                continue;
            for (int64_t j = 0; j < net->layers[k].n_out; j++) {
                double *l = &f.b->lo[k - 1][j], *u = &f.b->hi[k - 1][j];
                *l = lo0[k - 1][j];
                *u = hi0[k - 1][j];
                if (!(*l < 0 && *u > 0))
                    continue;
                int up = rep % 2 ? testnet_uniform(&st) < 0.5 : acts[k - 1][j] >= 0;
                if (up)
                    *l = 0.0;
                else
                    *u = 0.0;
            }
        }
        for (int compact = 0; compact <= 1; compact++) {
            vfy_lp *lp = build_form(f.ctx, f.wlo, f.whi, f.b, compact);
            double lb;
            ck_assert_int_eq(vfy_lp_bound_case(lp, 1, cy, NULL, &rhs, &lb, NULL), VFY_OK);
            vfy_lp_free(lp);
            empty[compact] += lb == INFINITY;
            if (rep % 2 == 0) /* the signs of a point: its region holds it */
                REQUIRE_MSG(lb <= v0, "form %d, a point's signs: bound %.17g above %.17g", compact,
                            lb, v0);
            for (int s = 0; s < 400; s++) {
                sample(&f, s, &st, x, y64, y32);
                vfy_eval_forward_all(net, x, acts, NULL);
                int in = 1;
                for (int64_t k = 1; k < nl && in; k++)
                    if (net->layers[k].kind == VFY_LAYER_RELU)
                        for (int64_t j = 0; j < net->layers[k].n_out && in; j++)
                            in = f.b->lo[k - 1][j] <= acts[k - 1][j] &&
                                 acts[k - 1][j] <= f.b->hi[k - 1][j];
                if (!in)
                    continue;
                hits++;
                double v = fmin(dot(cy, y64, ny), dot(cy, y32, ny)) - rhs;
                REQUIRE_MSG(lb <= v, "form %d, assignment %d: bound %.17g above %.17g", compact,
                            rep, lb, v);
            }
        }
    }
    ck_assert(hits > 0);
    REQUIRE_MSG(empty[0] > 0 && empty[1] > 0,
                "assignments proved empty: %d (full LP), %d (compact)", empty[0], empty[1]);
    for (int64_t k = 0; k < nl; k++) {
        free(acts[k]);
        free(lo0[k]);
        free(hi0[k]);
    }
    vfy_lp_thread_done();
    fixture_free(&f);
}
END_TEST

/* GLPK's own error (injected by vfy_lp_fail_after: a call GLPK rejects, inside a guarded call)
 * no longer ends the process: the failed solve's bound still holds at every sample, and the
 * thread's LPs are rebuilt from verify's copy: two at once, one with a phase fixed and a case
 * loaded, whose later solves give the bounds they gave before. */
START_TEST(test_lp_glpk_error)
{
    fixture f;
    fixture_make(&f, 0, 0, 0.3);
    const vfy_net *net = f.net;
    int64_t ny = net->n_out;
    vfy_lp *a = NULL, *b = NULL;
    ck_assert_int_eq(vfy_lp_build_compact(f.ctx, f.wlo, f.whi, f.b, 64, 0, &a, NULL), VFY_OK);
    ck_assert_int_eq(vfy_lp_build(f.ctx, f.wlo, f.whi, f.b, &b, NULL), VFY_OK);
    int64_t layer[64], index[64];
    ck_assert(vfy_lp_unstable(a, 64, layer, index, NULL) >= 1);
    double cy[8] = {1, -1, 0.5}, rhs = 0, ref_a, ref_b, lb, lb_b;
    ck_assert_int_eq(vfy_lp_bound_rows(b, 1, cy, NULL, &ref_b, NULL), VFY_OK);
    ck_assert_int_eq(vfy_lp_fix_relu(a, layer[0], index[0], 1), VFY_OK);
    ck_assert_int_eq(vfy_lp_case_begin(a, 1, cy, NULL, &rhs), VFY_OK);
    ck_assert_int_eq(vfy_lp_case_solve(a, &ref_a, NULL), VFY_OK);
    ck_assert(isfinite(ref_a) && isfinite(ref_b));
    long e0 = vfy_lp_glpk_errors();
    vfy_lp_fail_after(0);
    ck_assert_int_eq(vfy_lp_case_solve(a, &lb, NULL), VFY_OK);
    ck_assert_int_eq(vfy_lp_glpk_errors(), e0 + 1);
    double *acts[16] = {0};
    for (int64_t k = 0; k < net->n_layers; k++)
        acts[k] = malloc((size_t)net->layers[k].n_out * sizeof(double));
    uint64_t st = 17;
    int hits = 0;
    for (int s = 0; s < 1000; s++) {
        double x[16], y64[16], y32[16];
        sample(&f, s, &st, x, y64, y32);
        vfy_eval_forward_all(net, x, acts, NULL);
        if (acts[layer[0] - 1][index[0]] < 0)
            continue;
        hits++;
        REQUIRE_MSG(lb <= dot(cy, y64, ny) - rhs, "bound %.17g after GLPK's error", lb);
    }
    ck_assert(hits > 0);
    ck_assert_int_eq(vfy_lp_case_solve(a, &lb, NULL), VFY_OK);
    REQUIRE_MSG(fabs(lb - ref_a) <= 1e-9 * (1 + fabs(ref_a)), "rebuilt: %.17g, before: %.17g", lb,
                ref_a);
    vfy_lp_case_end(a);
    ck_assert_int_eq(vfy_lp_bound_rows(b, 1, cy, NULL, &lb_b, NULL), VFY_OK);
    REQUIRE_MSG(fabs(lb_b - ref_b) <= 1e-9 * (1 + fabs(ref_b)), "rebuilt: %.17g, before: %.17g",
                lb_b, ref_b);
    for (int64_t k = 0; k < net->n_layers; k++)
        free(acts[k]);
    vfy_lp_free(a);
    vfy_lp_free(b);
    vfy_lp_thread_done();
    fixture_free(&f);
}
END_TEST

/* Bounds that are not finite: no LP, a clear status. */
START_TEST(test_lp_rejects_infinite)
{
    fixture f;
    fixture_make(&f, 1, 1, 0.1);
    f.b->hi[0][0] = INFINITY;
    vfy_lp *lp = (vfy_lp *)&f; /* must be reset to NULL */
    vfy_error err;
    ck_assert_int_eq(vfy_lp_build(f.ctx, f.wlo, f.whi, f.b, &lp, &err), VFY_ERR_INVALID);
    ck_assert_ptr_null(lp);
    ck_assert_ptr_nonnull(strstr(err.msg, "no finite bounds"));
    vfy_lp_free(lp);
    fixture_free(&f);
}
END_TEST

/* Sigmoid/Tanh have no LP relaxation: the builders refuse a network with them (a status, never a
 * crash or a wrong relaxation), and layer tightening leaves its bounds alone. */
START_TEST(test_lp_refuses_sigmoid)
{
    static const vfy_layer_kind acts[2] = {VFY_LAYER_RELU, VFY_LAYER_SIGMOID};
    int64_t hidden[2] = {6, 6};
    vfy_net *net = testnet_random_act(5, 2, hidden, 2, 2, 1.0, 0, acts);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
    vfy_bounds *b = vfy_bounds_create(ctx);
    double lo[2] = {-1, -1}, hi[2] = {1, 1};
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo, hi, NULL, b), VFY_OK);
    vfy_lp *lp = NULL;
    vfy_error err;
    ck_assert_int_eq(vfy_lp_build(ctx, lo, hi, b, &lp, &err), VFY_ERR_UNSUPPORTED);
    ck_assert_ptr_null(lp);
    ck_assert_int_eq(vfy_lp_build_compact(ctx, lo, hi, b, 64, 0, &lp, &err), VFY_ERR_UNSUPPORTED);
    ck_assert_ptr_null(lp);
    /* the prefix before the sigmoid (DENSE, RELU, DENSE) is an LP */
    ck_assert_int_eq(vfy_lp_build_prefix(ctx, lo, hi, b, 3, &lp, &err), VFY_OK);
    vfy_lp_free(lp);
    int64_t n_t = -1;
    ck_assert_int_eq(vfy_lp_tighten_layers(ctx, lo, hi, b, INT64_MAX, NULL, &n_t), VFY_OK);
    ck_assert_int_eq(n_t, 0);
    vfy_lp_thread_done();
    vfy_bounds_free(b);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST


/* The compact LP's build cost: the products W A of every affine layer, nb = the inputs plus two
 * columns per unstable ReLU (the search leaves the LP stage out where this is seconds). */
START_TEST(test_lp_compact_cost)
{
    int64_t hidden[2] = {7, 5};
    vfy_net *net = testnet_random(3, 4, hidden, 2, 3, 0.5, 1);
    ck_assert_ptr_nonnull(net);
    double want = 0;
    int dense = 0;
    for (int64_t k = 0; k < net->n_layers; k++)
        if (net->layers[k].kind == VFY_LAYER_DENSE) {
            want += (double)(net->layers[k].n_out * net->layers[k].n_in) * (4 + 2 * 10);
            dense++;
        }
    ck_assert_int_eq(dense, 3);
    ck_assert(vfy_lp_compact_cost(net, 10) == want);
    ck_assert(vfy_lp_compact_cost(net, 10) == (7 * 4 + 5 * 7 + 3 * 5) * 24.0);
    vfy_net_free(net);
}
END_TEST

/* Every allocation failure is reported, never a crash. */
START_TEST(test_lp_alloc_failures)
{
    fixture f;
    fixture_make(&f, 0, 1, 0.2);
    for (long n = 0; n < 400; n++) {
        vfy_lp *lp = NULL;
        vfy_alloc_fail_after(n);
        vfy_status st = vfy_lp_build(f.ctx, f.wlo, f.whi, f.b, &lp, NULL);
        vfy_lp_free(lp);
        vfy_alloc_fail_after(n);
        vfy_status st2 = vfy_lp_build_compact(f.ctx, f.wlo, f.whi, f.b, 64, 0, &lp, NULL);
        vfy_alloc_fail_after(-1);
        ck_assert(st == VFY_OK || st == VFY_ERR_NOMEM);
        ck_assert(st2 == VFY_OK || st2 == VFY_ERR_NOMEM);
        vfy_lp_free(lp);
    }
    vfy_lp_thread_done();
    fixture_free(&f);
}
END_TEST

static Suite *lp_suite(void)
{
    Suite *s = suite_create("lp");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_lp_contains_samples, 0, 8);
    tcase_add_loop_test(tc, test_lp_case_sound, 0, 4);
    tcase_add_test(tc, test_lp_exec_allowance);
    tcase_add_test(tc, test_lp_fix_relu);
    tcase_add_test(tc, test_lp_pair_cuts);
    tcase_add_test(tc, test_lp_cycling_capped);
    tcase_add_test(tc, test_lp_ideal_cuts);
    tcase_add_test(tc, test_lp_safe_bound_not_glpk);
    tcase_add_loop_test(tc, test_lp_ulp_box, 0, 4);
    tcase_add_test(tc, test_lp_empty_region);
    tcase_add_test(tc, test_lp_glpk_error);
    tcase_add_loop_test(tc, test_lp_decided_signs, 0, 4);
    tcase_add_test(tc, test_lp_rejects_infinite);
    tcase_add_test(tc, test_lp_refuses_sigmoid);
    tcase_add_test(tc, test_lp_compact_cost);
    tcase_add_test(tc, test_lp_alloc_failures);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    vfy_la_single_thread();
    SRunner *sr = srunner_create(lp_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
