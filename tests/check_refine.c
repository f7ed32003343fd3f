/* Check suite: network prefixes (net.c), hidden bounds decided by prefix searches (refine.c), and
 * the search options they use (hidden_prior, attack). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "require.h"
#include "testnet.h"
#include "vfy/bound.h"
#include "vfy/eval.h"
#include "vfy/la.h"
#include "vfy/refine.h"

/* z = c - relu(x0 + x1) - relu(x0 - x1), y = relu(z). Over [-1, 1]^2 the triangles of the two ReLUs
 * (upper lines (a + 2) / 2) only give z >= c - (x0 + 2) >= c - 3, while z is in [c - 2, c]. With
 * c = 2.5, z is in [0.5, 2.5]: no single-neuron relaxation sees that z's ReLU is active. */
static vfy_net *hidden_stable_net(double c)
{
    const int64_t sizes[4] = {2, 2, 1, 1};
    const double w1[4] = {1, 1, 1, -1}, b1[2] = {0, 0}, w2[2] = {-1, -1}, b2[1] = {c};
    const double w3[1] = {1}, b3[1] = {0};
    const double *w[3] = {w1, w2, w3}, *b[3] = {b1, b2, b3};
    return testnet_dense(3, sizes, w, b);
}

typedef struct {
    double lo[64], hi[64], in_lo[64], in_hi[64];
    vfy_box box;
} test_box;

static void box_init(test_box *tb, int64_t n, const double *lo, const double *hi)
{
    memcpy(tb->lo, lo, (size_t)n * sizeof(double));
    memcpy(tb->hi, hi, (size_t)n * sizeof(double));
    memcpy(tb->in_lo, lo, (size_t)n * sizeof(double));
    memcpy(tb->in_hi, hi, (size_t)n * sizeof(double));
    tb->box = (vfy_box){tb->lo, tb->hi, tb->in_lo, tb->in_hi, NULL};
}

/* Bounds of net over the box as the search's roots have them: CROWN then alpha-CROWN on the hidden
 * layers, over the widened box. sl non-NULL: the root's slopes are kept there, as the search keeps
 * them (vfy_bound_slopes, attached to the bounds). */
static vfy_bounds *root_bounds(const vfy_bound_ctx *ctx, const test_box *tb, int64_t n,
                               vfy_bound_slopes **sl)
{
    double lo[64], hi[64];
    memcpy(lo, tb->lo, (size_t)n * sizeof(double));
    memcpy(hi, tb->hi, (size_t)n * sizeof(double));
    vfy_bound_widen_input(ctx, n, lo, hi);
    vfy_bounds *b = vfy_bounds_create(ctx);
    ck_assert_ptr_nonnull(b);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo, hi, NULL, b), VFY_OK);
    if (sl) {
        *sl = vfy_bound_slopes_create(ctx, b, (size_t)1 << 24);
        ck_assert_ptr_nonnull(*sl);
        vfy_bounds_use_slopes(b, *sl);
    }
    int64_t n_a = 0;
    ck_assert_int_eq(vfy_bound_tighten_alpha(ctx, lo, hi, b, 20, NULL, &n_a), VFY_OK);
    return b;
}

START_TEST(test_prefix_same_values)
{
    int64_t hidden[3] = {9, 7, 5};
    vfy_net *net = testnet_random(17, 6, hidden, 3, 3, 1.0, 1);
    ck_assert_ptr_nonnull(net);
    double *acts[16], x[6], y[16], scr[64];
    for (int64_t k = 0; k < net->n_layers; k++)
        acts[k] = malloc((size_t)net->layers[k].n_out * sizeof(double));
    uint64_t rs = 3;
    for (int64_t n = 1; n <= net->n_layers; n++) {
        vfy_net *p = NULL;
        vfy_error err;
        ck_assert_int_eq(vfy_net_prefix(net, n, &p, &err), VFY_OK);
        ck_assert_int_eq(p->n_layers, n);
        ck_assert_int_eq(p->n_out, net->layers[n - 1].n_out);
        ck_assert_int_eq(vfy_net_validate(p, &err), VFY_OK);
        for (int t = 0; t < 50; t++) {
            for (int j = 0; j < 6; j++)
                x[j] = 4 * testnet_uniform(&rs) - 2;
            vfy_eval_forward_all(net, x, acts, NULL);
            vfy_eval_f64(p, x, y, scr);
            /* the same operations in the same order: the same doubles */
            for (int64_t j = 0; j < p->n_out; j++)
                REQUIRE(y[j] == acts[n - 1][j]);
        }
        vfy_net_free(p);
    }
    vfy_net *p = NULL;
    vfy_error err;
    ck_assert_int_eq(vfy_net_prefix(net, 0, &p, &err), VFY_ERR_INVALID);
    ck_assert_int_eq(vfy_net_prefix(net, net->n_layers + 1, &p, &err), VFY_ERR_INVALID);
    ck_assert_ptr_null(p);
    /* sparse layers stay sparse */
    ck_assert_int_eq(vfy_net_sparsify(net, 1.0, 1, &err), VFY_OK);
    ck_assert_int_eq(vfy_net_prefix(net, 3, &p, &err), VFY_OK);
    ck_assert_ptr_nonnull(p->layers[1].csr);
    vfy_net_free(p);
    for (int64_t k = 0; k < net->n_layers; k++)
        free(acts[k]);
    vfy_net_free(net);
}
END_TEST

/* hidden_stable_net(c) over [-1, 1]^2: its root bounds (CROWN, alpha-CROWN), refined with one
 * thread (float semantics: fs); z's bounds before are kept in z_lo0, z_hi0. */
typedef struct {
    vfy_net *net;
    vfy_bound_ctx *ctx;
    vfy_bounds *b;
    double z_lo0, z_hi0;
    vfy_refine_stats rs;
} refined_net;

static void refine_hidden_stable_needing(double c, int fs, const vfy_deadline *dl,
                                         const vfy_deadline *dl_sign, int64_t min_proved,
                                         refined_net *r)
{
    r->net = hidden_stable_net(c);
    ck_assert_ptr_nonnull(r->net);
    vfy_error err;
    ck_assert_int_eq(vfy_bound_ctx_create(r->net, fs, &r->ctx, &err), VFY_OK);
    const double lo[2] = {-1, -1}, hi[2] = {1, 1};
    test_box tb;
    box_init(&tb, 2, lo, hi);
    r->b = root_bounds(r->ctx, &tb, 2, NULL);
    r->z_lo0 = r->b->lo[2][0];
    r->z_hi0 = r->b->hi[2][0];
    vfy_verify_opts o;
    vfy_verify_opts_default(&o);
    o.threads = 1;
    ck_assert_int_eq(vfy_refine_hidden_until(r->ctx, &tb.box, r->b, NULL, &o, dl, dl_sign,
                                             min_proved, NULL, NULL, &r->rs, &err),
                     VFY_OK);
}

static void refine_hidden_stable_within(double c, int fs, const vfy_deadline *dl,
                                        const vfy_deadline *dl_sign, refined_net *r)
{
    refine_hidden_stable_needing(c, fs, dl, dl_sign, 0, r);
}

static void refine_hidden_stable(double c, int fs, refined_net *r)
{
    vfy_deadline dl = {vfy_now() + 20, 0};
    refine_hidden_stable_within(c, fs, &dl, NULL, r);
}

static void refined_net_free(refined_net *r)
{
    vfy_bounds_free(r->b);
    vfy_bound_ctx_free(r->ctx);
    vfy_net_free(r->net);
}

START_TEST(test_refine_decides_hidden_neuron)
{
    refined_net r;
    refine_hidden_stable(2.5, _i, &r);
    /* the relaxations leave z unstable: z's lower bound is about -0.5 */
    REQUIRE_MSG(r.z_lo0 < -0.4 && r.z_hi0 > 0, "z in [%g, %g]", r.z_lo0, r.z_hi0);
    ck_assert_int_eq(r.rs.candidates, 1);
    ck_assert_int_eq(r.rs.proved, 1);
    ck_assert(r.rs.searches >= 1);
    /* proved active: the lower bound is 0 (its exact value 0.5 lies above), the upper one kept */
    ck_assert(r.b->lo[2][0] == 0.0);
    ck_assert(r.b->hi[2][0] == r.z_hi0);
    refined_net_free(&r);
}
END_TEST

/* min_proved: c = 2.5's one candidate of a sign is searched (and proved) when the refinement needs
 * one neuron made stable, not when it needs two (its layer is the last: nothing else could add) */
START_TEST(test_refine_min_proved)
{
    vfy_deadline dl = {vfy_now() + 20, 0};
    refined_net r;
    refine_hidden_stable_needing(2.5, 0, &dl, NULL, 1, &r);
    ck_assert_int_eq(r.rs.proved, 1);
    ck_assert(r.b->lo[2][0] == 0.0);
    refined_net_free(&r);
    refine_hidden_stable_needing(2.5, 0, &dl, NULL, 2, &r);
    ck_assert_int_eq(r.rs.candidates, 1);
    ck_assert_int_eq(r.rs.searches, 0);
    ck_assert(r.b->lo[2][0] == r.z_lo0 && r.b->hi[2][0] == r.z_hi0);
    refined_net_free(&r);
}
END_TEST

/* A layer whose searches are of a sign runs to dl_sign, past dl; one of bounds' searches stops at
 * dl: with dl already over, c = 2.5's neuron (a sign search) is still proved when dl_sign leaves
 * time, not without dl_sign; c = 1's (seen at both signs: a bound's search) is not searched. */
START_TEST(test_refine_sign_deadline)
{
    vfy_deadline over = {vfy_now() - 1, 0}, later = {vfy_now() + 20, 0};
    refined_net r;
    refine_hidden_stable_within(2.5, 0, &over, &later, &r);
    ck_assert_int_eq(r.rs.proved, 1);
    ck_assert(r.b->lo[2][0] == 0.0);
    refined_net_free(&r);
    refine_hidden_stable_within(2.5, 0, &over, NULL, &r);
    ck_assert_int_eq(r.rs.searches, 0);
    ck_assert(r.b->lo[2][0] == r.z_lo0);
    refined_net_free(&r);
    refine_hidden_stable_within(1.0, 0, &over, &later, &r);
    ck_assert_int_eq(r.rs.searches, 0);
    ck_assert(r.b->lo[2][0] == r.z_lo0);
    refined_net_free(&r);
}
END_TEST

/* c = 1: z is in [-1, 1] (-1 at x0 = 1), seen at both signs, and the relaxations give z >= -2. A
 * search of a bound near the least value seen proves z > t for a t just below -1; the upper bound
 * (1, exact) is kept. */
START_TEST(test_refine_tightens_unstable_neuron)
{
    refined_net r;
    refine_hidden_stable(1.0, _i, &r);
    REQUIRE_MSG(r.z_lo0 < -1.9 && r.z_hi0 >= 1, "z in [%g, %g]", r.z_lo0, r.z_hi0);
    ck_assert_int_eq(r.rs.candidates, 0);
    ck_assert_int_eq(r.rs.observed, 1);
    ck_assert_int_eq(r.rs.tightened, 1);
    /* SOUND: -1 is attained; the bound is within the target's slack (2% of the gap) of it */
    REQUIRE_MSG(r.b->lo[2][0] <= -1 && r.b->lo[2][0] >= -1.03, "z >= %.17g", r.b->lo[2][0]);
    ck_assert(r.b->hi[2][0] == r.z_hi0);
    uint64_t st = 5;
    for (int t = 0; t < 20000; t++) {
        double x[2] = {-1 + 2 * testnet_uniform(&st), -1 + 2 * testnet_uniform(&st)};
        double z = 1 - fmax(x[0] + x[1], 0) - fmax(x[0] - x[1], 0);
        REQUIRE(z >= r.b->lo[2][0]);
    }
    refined_net_free(&r);
}
END_TEST

/* A layer of n neurons z_i = c_i - relu(x0 + x1) - relu(x0 - x1) (c_i spread over [0.2, 1.8]) over
 * [-1, 1]^2, then their sum: as for c = 1 above, each z_i is seen at both signs, attains c_i - 2 at
 * a corner, and the relaxations give c_i - 3; every bound's search tightens. */
static vfy_net *tightening_layer_net(int64_t n)
{
    const int64_t sizes[4] = {2, 2, n, 1};
    double w1[4] = {1, 1, 1, -1}, b1[2] = {0, 0}, w2[128], b2[64], w3[64], b3[1] = {0};
    for (int64_t i = 0; i < n; i++) {
        w2[2 * i] = w2[2 * i + 1] = -1;
        b2[i] = 0.2 + 1.6 * (double)i / (double)(n - 1);
        w3[i] = 1;
    }
    const double *w[3] = {w1, w2, w3}, *b[3] = {b1, b2, b3};
    return testnet_dense(3, sizes, w, b);
}

/* 40 inputs in [0.5, 1], a first layer of 8 ReLUs active over the whole box (positive weights and
 * biases), a second of n whose inputs are affine in x with weights of both signs: CROWN's bounds
 * on them are exact (attained at corners), while the box's random corners rarely reach them. Every
 * bound's search finds a value past its target and leaves the bound as it was. */
static vfy_net *exact_layer_net(int64_t n)
{
    const int64_t sizes[4] = {40, 8, n, 1};
    static double w1[8 * 40], w2[64 * 8];
    double b1[8], b2[64], w3[64], b3[1] = {0};
    uint64_t st = 11;
    for (int64_t i = 0; i < 8 * 40; i++)
        w1[i] = 0.1 + testnet_uniform(&st);
    for (int64_t i = 0; i < 8; i++)
        b1[i] = 0.5;
    for (int64_t i = 0; i < n * 8; i++)
        w2[i] = 2 * testnet_uniform(&st) - 1;
    for (int64_t i = 0; i < n; i++) {
        /* centred: the corners' values lie on both sides of 0 */
        double mid = 0;
        for (int64_t h = 0; h < 8; h++) {
            double s = b1[h];
            for (int64_t q = 0; q < 40; q++)
                s += 0.75 * w1[h * 40 + q];
            mid += w2[i * 8 + h] * s;
        }
        b2[i] = -mid;
        w3[i] = 1;
    }
    const double *w[3] = {w1, w2, w3}, *b[3] = {b1, b2, b3};
    return testnet_dense(3, sizes, w, b);
}

/* One thread's refinement of net's root bounds over the box [lo, hi]^n_in; the second layer's
 * bounds before it in lo0, hi0. */
static void refine_layer_net(vfy_net *net, double lo, double hi, vfy_bound_ctx **ctx,
                             vfy_bounds **b, double *lo0, double *hi0, vfy_refine_stats *rs)
{
    vfy_error err;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 0, ctx, &err), VFY_OK);
    double blo[64], bhi[64];
    for (int64_t i = 0; i < net->n_in; i++) {
        blo[i] = lo;
        bhi[i] = hi;
    }
    test_box tb;
    box_init(&tb, net->n_in, blo, bhi);
    *b = root_bounds(*ctx, &tb, net->n_in, NULL);
    int64_t m = net->layers[2].n_out;
    memcpy(lo0, (*b)->lo[2], (size_t)m * sizeof(double));
    memcpy(hi0, (*b)->hi[2], (size_t)m * sizeof(double));
    vfy_verify_opts o;
    vfy_verify_opts_default(&o);
    o.threads = 1;
    vfy_deadline dl = {vfy_now() + 60, 0};
    ck_assert_int_eq(
        vfy_refine_hidden_until(*ctx, &tb.box, *b, NULL, &o, &dl, NULL, 0, NULL, NULL, rs, &err),
        VFY_OK);
}

/* A layer's searches of a bound stop when the first BOUND_PROBE (32) of them changed too few
 * bounds (fewer than one in 16), and run on when they pay. */
START_TEST(test_refine_bound_yield)
{
    int64_t n = 48;
    vfy_bound_ctx *ctx;
    vfy_bounds *b;
    double lo0[64], hi0[64];
    vfy_refine_stats rs;
    /* every search pays: all of them run */
    vfy_net *net = tightening_layer_net(n);
    ck_assert_ptr_nonnull(net);
    refine_layer_net(net, -1, 1, &ctx, &b, lo0, hi0, &rs);
    ck_assert_int_eq(rs.observed, n);
    ck_assert_int_eq(rs.bound_skipped, 0);
    REQUIRE_MSG(rs.tightened >= n, "%lld bounds tightened by %lld searches",
                (long long)rs.tightened, (long long)rs.searches);
    for (int64_t i = 0; i < n; i++) {
        double c = 0.2 + 1.6 * (double)i / (double)(n - 1);
        /* SOUND: c - 2 is attained (x = (1, 1)); tighter than the relaxation's c - 3 */
        REQUIRE_MSG(b->lo[2][i] <= c - 2 && b->lo[2][i] > lo0[i], "z_%lld >= %.17g (was %g)",
                    (long long)i, b->lo[2][i], lo0[i]);
    }
    vfy_bounds_free(b);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
    /* none pays: after the first 32 the rest of the layer's are skipped, the bounds unchanged */
    net = exact_layer_net(n);
    ck_assert_ptr_nonnull(net);
    refine_layer_net(net, 0.5, 1, &ctx, &b, lo0, hi0, &rs);
    int64_t n_bound = rs.searches - (rs.candidates > 0 ? rs.candidates : 0);
    REQUIRE_MSG(rs.observed >= n / 2 && rs.tightened == 0 && rs.proved == 0,
                "%lld seen at both signs, %lld tightened, %lld proved", (long long)rs.observed,
                (long long)rs.tightened, (long long)rs.proved);
    REQUIRE_MSG(rs.bound_skipped > 0 && rs.bound_skipped + 32 <= 2 * rs.observed,
                "%lld searches of a bound skipped of %lld run (%lld neurons seen at both signs)",
                (long long)rs.bound_skipped, (long long)n_bound, (long long)rs.observed);
    for (int64_t i = 0; i < n; i++)
        ck_assert(b->lo[2][i] == lo0[i] && b->hi[2][i] == hi0[i]);
    vfy_bounds_free(b);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* Every layer bound of b holds at 20,000 points of the 5-input box [lo, hi] (a quarter of them
 * corners), with no tolerance. */
static void require_inside(const vfy_net *net, const vfy_bounds *b, const double *lo,
                           const double *hi, uint64_t *st)
{
    double *acts[16], x[5];
    ck_assert(net->n_in == 5 && net->n_layers <= 16);
    for (int64_t k = 0; k < net->n_layers; k++)
        acts[k] = malloc((size_t)net->layers[k].n_out * sizeof(double));
    for (int t = 0; t < 20000; t++) {
        for (int j = 0; j < 5; j++) {
            double u = testnet_uniform(st);
            x[j] = t % 4 == 0 ? (u < 0.5 ? lo[j] : hi[j]) : lo[j] + u * (hi[j] - lo[j]);
        }
        vfy_eval_forward_all(net, x, acts, NULL);
        for (int64_t k = 0; k < net->n_layers; k++)
            for (int64_t j = 0; j < net->layers[k].n_out; j++)
                REQUIRE_MSG(acts[k][j] >= b->lo[k][j] && acts[k][j] <= b->hi[k][j],
                            "layer %lld neuron %lld: %.17g outside [%.17g, %.17g]", (long long)k,
                            (long long)j, acts[k][j], b->lo[k][j], b->hi[k][j]);
    }
    for (int64_t k = 0; k < net->n_layers; k++)
        free(acts[k]);
}

/* Random networks (seed) and boxes (box_seed), refined with the prefix searches borrowing the root's kept
 * slopes or not, and (i >= 3) carrying the earlier layers' tightened bounds as constraints
 * (refine_bounds): every refined bound still holds at every sampled point (no tolerance), and no
 * bound loosens. With the slopes: they stay recorded, and are freed here once (a search freeing
 * them would be a double free under the sanitizers). */
static void refine_sound_random(int i, uint64_t seed, uint64_t box_seed, int64_t width,
                                int with_slopes)
{
    int64_t hidden[3] = {width, width, width};
    vfy_net *net = testnet_random(seed, 5, hidden, 3, 2, 0.8, 0);
    ck_assert_ptr_nonnull(net);
    vfy_bound_ctx *ctx = NULL;
    vfy_error err;
    ck_assert_int_eq(vfy_bound_ctx_create(net, i % 2, &ctx, &err), VFY_OK);
    uint64_t st = box_seed;
    double lo[5], hi[5];
    for (int j = 0; j < 5; j++) {
        double c = 2 * testnet_uniform(&st) - 1, r = 0.3 + testnet_uniform(&st);
        lo[j] = (double)(float)(c - r);
        hi[j] = (double)(float)(c + r);
    }
    test_box tb;
    box_init(&tb, 5, lo, hi);
    vfy_bound_slopes *sl = NULL;
    vfy_bounds *b = root_bounds(ctx, &tb, 5, with_slopes ? &sl : NULL);
    int64_t recorded = vfy_bound_slopes_recorded(sl);
    ck_assert(!with_slopes || recorded > 0);
    int64_t half = vfy_bounds_flat_size(ctx) / 2;
    double *before = malloc((size_t)(2 * half) * sizeof(double));
    double *after = malloc((size_t)(2 * half) * sizeof(double));
    vfy_bounds_export(ctx, b, before);
    vfy_verify_opts o;
    vfy_verify_opts_default(&o);
    o.threads = 1 + i % 2;
    o.hidden_slopes = sl;
    o.refine_bounds = i >= 3;
    vfy_deadline dl = {vfy_now() + 1.5, 0};
    vfy_refine_stats rs;
    ck_assert_int_eq(vfy_refine_hidden(ctx, &tb.box, b, NULL, &o, &dl, &rs, &err), VFY_OK);
    ck_assert(rs.proved <= rs.candidates && rs.proved <= rs.searches);
    ck_assert(!with_slopes || rs.searches > 0);
    ck_assert(vfy_bound_slopes_recorded(sl) >= recorded);
    vfy_bounds_export(ctx, b, after);
    int64_t changed = 0;
    for (int64_t q = 0; q < half; q++) {
        ck_assert(after[q] >= before[q]);
        ck_assert(after[half + q] <= before[half + q]);
        changed += after[q] != before[q] || after[half + q] != before[half + q];
    }
    ck_assert(rs.proved == 0 || changed > 0);
    require_inside(net, b, lo, hi, &st);
    free(before);
    free(after);
    vfy_bounds_use_slopes(b, NULL);
    vfy_bound_slopes_free(sl);
    vfy_bounds_free(b);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}

START_TEST(test_refine_sound_random)
{
    refine_sound_random(_i, 100 + (uint64_t)_i, 77 + (uint64_t)_i, 10, 0);
}
END_TEST

START_TEST(test_refine_root_slopes_sound)
{
    refine_sound_random(_i, 500 + (uint64_t)_i, 91 + (uint64_t)_i, 12, 1);
}
END_TEST

/* A prefix search keeps its domains' later layers fixed by default (AUTO: re-bounding them cost as
 * much as the rest of a one-row search); ALWAYS still re-bounds them. The same random network and
 * box for both: its searches split neurons of the first ReLU layer, with layers after them. */
static int64_t refine_rebounded(vfy_rebound_use mode, double *proved)
{
    int64_t hidden[3] = {12, 12, 12};
    vfy_net *net = testnet_random(2024, 5, hidden, 3, 2, 0.8, 0);
    ck_assert_ptr_nonnull(net);
    vfy_bound_ctx *ctx = NULL;
    vfy_error err;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 0, &ctx, &err), VFY_OK);
    double lo[5], hi[5];
    for (int j = 0; j < 5; j++) {
        lo[j] = -1.0;
        hi[j] = 1.0;
    }
    test_box tb;
    box_init(&tb, 5, lo, hi);
    vfy_bounds *b = root_bounds(ctx, &tb, 5, NULL);
    vfy_verify_opts o;
    vfy_verify_opts_default(&o);
    o.threads = 1;
    o.rebound = mode;
    vfy_refine_stats rs;
    ck_assert_int_eq(vfy_refine_hidden(ctx, &tb.box, b, NULL, &o, NULL, &rs, &err), VFY_OK);
    ck_assert_int_gt(rs.searches, 0);
    *proved = (double)rs.proved;
    vfy_bounds_free(b);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
    return rs.rebounded;
}

START_TEST(test_refine_prefix_bounds_fixed)
{
    double p_auto, p_always;
    ck_assert_int_eq(refine_rebounded(VFY_REBOUND_AUTO, &p_auto), 0);
    ck_assert_int_gt(refine_rebounded(VFY_REBOUND_ALWAYS, &p_always), 0);
    /* (without a deadline every search ends in a proof or a counterexample: the same signs) */
    ck_assert(p_auto == p_always);
}
END_TEST

/* open_bound: a search cut short still bounds its row over the whole box. The output's minimum over
 * the box is just above the row's rhs (a hard proof): the output shifted and rhs 0 (_i < 3), or
 * rhs just below the minimum (_i >= 3: refine.c's searches of a bound); the search gets little
 * time. */
START_TEST(test_open_bound_sound)
{
    int64_t hidden[3] = {16, 16, 16};
    vfy_net *net = testnet_random(300 + (uint64_t)_i, 6, hidden, 3, 1, 1.0, 0);
    ck_assert_ptr_nonnull(net);
    double lo[6], hi[6], x[6], y[1], scr[128], mn = INFINITY;
    for (int j = 0; j < 6; j++) {
        lo[j] = -1;
        hi[j] = 1;
    }
    uint64_t st = 9 + (uint64_t)_i;
    for (int t = 0; t < 20000; t++) {
        for (int j = 0; j < 6; j++)
            x[j] = -1 + 2 * testnet_uniform(&st);
        vfy_eval_f64(net, x, y, scr);
        mn = fmin(mn, y[0]);
    }
    double rhs = 0.0;
    if (_i < 3) {
        vfy_layer *last = &net->layers[net->n_layers - 1];
        last->b[0] = (double)(float)(last->b[0] - mn + 0.02);
    } else {
        rhs = mn - 0.02;
    }
    test_box tb;
    box_init(&tb, 6, lo, hi);
    double cy[1] = {1.0};
    vfy_row row = {.cy = cy, .rhs_lo = rhs, .rhs_hi = rhs};
    vfy_case cse = {0, 1, &row};
    vfy_spec spec = {.n_x = 6, .n_y = 1, .n_boxes = 1, .boxes = &tb.box, .n_cases = 1,
                     .cases = &cse};
    vfy_verify_opts o;
    vfy_verify_opts_default(&o);
    o.threads = 1 + _i % 2;
    o.timeout_s = 0.02 * (1 + _i % 3);
    o.split = VFY_SPLIT_RELU;
    o.lp = VFY_LP_OFF;
    o.attack = 0;
    vfy_verify_result res;
    vfy_error err;
    ck_assert_int_eq(vfy_verify(net, &spec, &o, &res, &err), VFY_OK);
    if (res.verdict == VFY_TIMEOUT && res.unresolved == 0) {
        /* (-INFINITY only when the deadline came before the root was bounded: a 0.02 s timeout on
         * a machine whose cores were shared seven ways) */
        REQUIRE_MSG(res.open_bound <= rhs && (res.open_bound > -INFINITY || res.domains == 0),
                    "open bound %.17g, rhs %.17g, %lld domains", res.open_bound, rhs,
                    (long long)res.domains);
        for (int t = 0; t < 20000; t++) {
            for (int j = 0; j < 6; j++) {
                double u = testnet_uniform(&st);
                x[j] = t % 3 == 0 ? (u < 0.5 ? -1 : 1) : -1 + 2 * u;
            }
            vfy_eval_f64(net, x, y, scr);
            REQUIRE_MSG(y[0] >= res.open_bound, "y %.17g below the open bound %.17g", y[0],
                        res.open_bound);
        }
    } else {
        ck_assert(res.open_bound == -INFINITY);
    }
    vfy_verify_result_free(&res);
    vfy_net_free(net);
}
END_TEST

/* The spec "some x of [-1, 1]^2 gives Y_0 <= y_max" */
static vfy_spec *square_spec(double y_max)
{
    char text[512];
    snprintf(text, sizeof text,
             "(declare-const X_0 Real)(declare-const X_1 Real)(declare-const Y_0 Real)"
             "(assert (>= X_0 -1))(assert (<= X_0 1))(assert (>= X_1 -1))"
             "(assert (<= X_1 1))(assert (<= Y_0 %.17g))", y_max);
    vfy_spec *spec = NULL;
    vfy_error err;
    ck_assert_int_eq(vfy_spec_parse(text, strlen(text), "t.vnnlib", &spec, &err), VFY_OK);
    return spec;
}

/* A one-thread ReLU-split search without LP and attack from the caller's bounds prior (may be
 * NULL), root constraints (n of idx, sign) and root bounds (may be NULL): unsat, in *domains
 * domains */
static void prior_search(const vfy_net *net, const vfy_spec *spec, const double *prior, int64_t n,
                         const int64_t *idx, const signed char *sign, const vfy_splits *bounds,
                         int64_t *domains)
{
    vfy_verify_opts o;
    vfy_verify_opts_default(&o);
    o.threads = 1;
    o.timeout_s = 20;
    o.split = VFY_SPLIT_RELU;
    o.lp = VFY_LP_OFF;
    o.attack = 0;
    o.hidden_prior = prior;
    o.n_root_splits = n;
    o.root_split_idx = idx;
    o.root_split_sign = sign;
    o.root_bounds = bounds;
    vfy_verify_result res;
    vfy_error err;
    ck_assert_int_eq(vfy_verify(net, spec, &o, &res, &err), VFY_OK);
    ck_assert_int_eq(res.verdict, VFY_UNSAT);
    *domains = res.domains;
    vfy_verify_result_free(&res);
}

/* The search from prior_with, root constraints (n of idx, sign) and root bounds (may be NULL)
 * proves at its root; the one from prior_without (may be NULL) has to split */
static void require_root_proof_only_with(const vfy_net *net, const vfy_spec *spec,
                                         const double *prior_with, int64_t n, const int64_t *idx,
                                         const signed char *sign, const vfy_splits *bounds,
                                         const double *prior_without)
{
    int64_t with, without;
    prior_search(net, spec, prior_with, n, idx, sign, bounds, &with);
    prior_search(net, spec, prior_without, 0, NULL, NULL, NULL, &without);
    ck_assert_int_eq(with, 1);
    REQUIRE_MSG(without > 1, "%lld domains", (long long)without);
}

/* hidden_prior: bounds the caller proved are used by the roots. With z >= 0.5 given, y = relu(z) >=
 * 0.5 is proved at the root; without it the search has to split. attack = 0 still proves. */
START_TEST(test_hidden_prior_used)
{
    vfy_net *net = hidden_stable_net(2.5);
    vfy_bound_ctx *ctx = NULL;
    vfy_error err;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, &err), VFY_OK);
    vfy_spec *spec = square_spec(0.25);
    test_box tb;
    box_init(&tb, 2, spec->boxes[0].lo, spec->boxes[0].hi);
    vfy_bounds *b = root_bounds(ctx, &tb, 2, NULL);
    int64_t flat_n = vfy_bounds_flat_size(ctx), half = flat_n / 2;
    double *prior = malloc((size_t)flat_n * sizeof(double));
    vfy_bounds_export(ctx, b, prior);
    int64_t z_at = net->layers[0].n_out + net->layers[1].n_out; /* z: layer 2's output */
    ck_assert(prior[z_at] < 0 && prior[half + z_at] == b->hi[2][0]);
    prior[z_at] = 0.5; /* its exact minimum */
    require_root_proof_only_with(net, spec, prior, 0, NULL, NULL, NULL, NULL);
    free(prior);
    vfy_bounds_free(b);
    vfy_spec_free(spec);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* y = -relu(h1 + h2), h1 = relu(x0 + x1), h2 = relu(x0 - x1), and z = c - h1 - h2 beside it (its
 * ReLU unused by y). Over [-1, 1]^2, h1 + h2 <= 2, so y >= -2, while the triangles give h1 + h2 <=
 * x0 + 2 <= 3: y >= -3. With c = 2.5, z >= 0.5 > 0, which the refinement proves (the relaxations
 * leave z unstable, test_refine_decides_hidden_neuron); as a constraint, z >= 0 says h1 + h2 <= 2.5
 * of the relaxed points too, and its multiplier gives y >= -2.5. */
static vfy_net *constraint_net(double c)
{
    const int64_t sizes[4] = {2, 2, 2, 1};
    const double w1[4] = {1, 1, 1, -1}, b1[2] = {0, 0}, w2[4] = {-1, -1, 1, 1}, b2[2] = {c, 0};
    const double w3[2] = {0, -1}, b3[1] = {0};
    const double *w[3] = {w1, w2, w3}, *b[3] = {b1, b2, b3};
    return testnet_dense(3, sizes, w, b);
}

/* constraint_net(c) over [-1, 1]^2 with the spec y <= y_max, and its root bounds (alpha-CROWN) */
typedef struct {
    vfy_net *net;
    vfy_bound_ctx *ctx;
    vfy_spec *spec;
    test_box tb;
    vfy_bounds *b;
    int64_t z_at; /* z's flat index (layer 2's first output); y's pre-activation is next */
} constraint_case;

static void constraint_case_init(constraint_case *cc, double c, double y_max)
{
    vfy_error err;
    cc->net = constraint_net(c);
    cc->ctx = NULL;
    ck_assert_int_eq(vfy_bound_ctx_create(cc->net, 1, &cc->ctx, &err), VFY_OK);
    cc->spec = square_spec(y_max);
    box_init(&cc->tb, 2, cc->spec->boxes[0].lo, cc->spec->boxes[0].hi);
    cc->b = root_bounds(cc->ctx, &cc->tb, 2, NULL);
    cc->z_at = cc->net->layers[0].n_out + cc->net->layers[1].n_out;
}

static void constraint_case_free(constraint_case *cc)
{
    vfy_bounds_free(cc->b);
    vfy_spec_free(cc->spec);
    vfy_bound_ctx_free(cc->ctx);
    vfy_net_free(cc->net);
}

/* On cc: y's alpha-CROWN bound is below -2.9 without the constraints sp and above lb_min with them
 * (their multipliers), and stays below y at 20,000 sampled points, a quarter of them where y is
 * least (x0 = 1, y = -2), with no tolerance. Then a search from cc's bounds given sp (as root
 * splits, or with offsets as root bounds) proves y > y_max at its root; without, it splits. */
static void require_constraint_tightens(constraint_case *cc, const vfy_splits *sp, double lb_min)
{
    double lo[2], hi[2], cy[1] = {1.0}, lb_plain, lb_con;
    memcpy(lo, cc->tb.lo, sizeof lo);
    memcpy(hi, cc->tb.hi, sizeof hi);
    vfy_bound_widen_input(cc->ctx, 2, lo, hi);
    ck_assert_int_eq(vfy_bound_rows_alpha(cc->ctx, lo, hi, cc->b, 1, cy, NULL, NULL, 50, &lb_plain,
                                          NULL, NULL), VFY_OK);
    ck_assert_int_eq(vfy_bound_rows_alpha(cc->ctx, lo, hi, cc->b, 1, cy, NULL, sp, 50, &lb_con,
                                          NULL, NULL), VFY_OK);
    REQUIRE_MSG(lb_plain < -2.9 && lb_con > lb_min, "y >= %g without, %g with", lb_plain, lb_con);
    uint64_t st = 7;
    double y[1], scr[16];
    for (int t = 0; t < 20000; t++) {
        double x[2] = {-1 + 2 * testnet_uniform(&st), -1 + 2 * testnet_uniform(&st)};
        if (t % 4 == 0)
            x[0] = 1;
        vfy_eval_f64(cc->net, x, y, scr);
        REQUIRE_MSG(y[0] >= lb_con, "y %.17g below %.17g", y[0], lb_con);
    }
    double *prior = malloc((size_t)vfy_bounds_flat_size(cc->ctx) * sizeof(double));
    vfy_bounds_export(cc->ctx, cc->b, prior);
    if (sp->offset)
        require_root_proof_only_with(cc->net, cc->spec, prior, 0, NULL, NULL, sp, prior);
    else
        require_root_proof_only_with(cc->net, cc->spec, prior, sp->n, sp->idx, sp->sign, NULL,
                                     prior);
    free(prior);
}

/* A neuron proved stable, carried as a split (vfy_splits; the roots' constraints of
 * vfy_verify_opts.root_split_idx): its multiplier tightens a bound that clamping the neuron does
 * not, the bound stays below every sampled value (no tolerance), and a search given it as a root
 * constraint proves at its root what it has to split for without. */
START_TEST(test_root_constraints_tighten)
{
    constraint_case cc;
    constraint_case_init(&cc, 2.5, -2.7);
    REQUIRE_MSG(cc.b->lo[2][0] < 0, "z >= %g before the refinement", cc.b->lo[2][0]);
    vfy_verify_opts o;
    vfy_verify_opts_default(&o);
    o.threads = 1;
    vfy_deadline dl = {vfy_now() + 20, 0};
    vfy_refine_stats rs;
    vfy_error err;
    ck_assert_int_eq(vfy_refine_hidden(cc.ctx, &cc.tb.box, cc.b, NULL, &o, &dl, &rs, &err), VFY_OK);
    ck_assert(cc.b->lo[2][0] == 0.0); /* proved active */
    const int64_t idx[1] = {cc.z_at};
    const signed char sign[1] = {1};
    vfy_splits sp = {1, idx, sign, NULL};
    require_constraint_tightens(&cc, &sp, -2.7);
    constraint_case_free(&cc);
}
END_TEST

/* A bound the refinement tightened, as a constraint (vfy_splits.offset; the roots' bounds of
 * vfy_verify_opts.root_bounds), on constraint_net(1.5), where h1 + h2 <= 2 over the box but the
 * triangles give h1 + h2 <= 3: case 0, z = 1.5 - h1 - h2 >= -0.5 (a lower bound; the relaxation's
 * is -1.5); case 1, h1 + h2 <= 2 on y's own pre-activation (an upper bound). Either raises y's
 * bound from -3 to about -2, the exact minimum (attained at x0 = 1, which the samples include): a
 * constant of the wrong sign or size would put the bound above a sample. A search given the bound
 * proves y > -2.2 at its root; without it, it splits. */
START_TEST(test_root_bounds_tighten)
{
    constraint_case cc;
    constraint_case_init(&cc, 1.5, -2.2);
    const int64_t idx[1] = {_i == 0 ? cc.z_at : cc.z_at + 1};
    const signed char sign[1] = {_i == 0 ? 1 : -1};
    const double off[1] = {_i == 0 ? -0.5 : 2.0};
    REQUIRE_MSG(_i == 0 ? cc.b->lo[2][0] < -1.4 : cc.b->hi[2][1] > 2.9, "bounds [%g, %g], [%g, %g]",
                cc.b->lo[2][0], cc.b->hi[2][0], cc.b->lo[2][1], cc.b->hi[2][1]);
    vfy_splits sp = {1, idx, sign, off};
    require_constraint_tightens(&cc, &sp, -2.1);
    constraint_case_free(&cc);
}
END_TEST

/* constraint_net(2.5) with one more ReLU layer on p = 1 - h1 - h2 (then out = relu(p)): over
 * [-1, 1]^2, p >= -1 (h1 + h2 <= 2), while the triangles give p >= -2. z = 2.5 - h1 - h2 >= 0.5
 * holds on the box; as a constraint of the hidden layers' alpha-CROWN (vfy_bound_tighten_alpha_cons)
 * its multiplier gives p >= -1.5, which plain alpha-CROWN and the clamping of z do not. The bound
 * stays below p at 20,000 sampled points (a quarter at x0 = 1, where p = -1), no tolerance; a
 * constraint on p's own layer or later is not used for p. */
START_TEST(test_tighten_alpha_constraints)
{
    const int64_t sizes[5] = {2, 2, 2, 1, 1};
    const double w1[4] = {1, 1, 1, -1}, b1[2] = {0, 0}, w2[4] = {-1, -1, 1, 1}, b2[2] = {2.5, 0};
    const double w3[2] = {0, -1}, b3[1] = {1}, w4[1] = {1}, b4[1] = {0};
    const double *w[4] = {w1, w2, w3, w4}, *bb[4] = {b1, b2, b3, b4};
    vfy_net *net = testnet_dense(4, sizes, w, bb);
    ck_assert_ptr_nonnull(net);
    vfy_bound_ctx *ctx = NULL;
    vfy_error err;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, &err), VFY_OK);
    double blo[2] = {-1, -1}, bhi[2] = {1, 1};
    test_box tb;
    box_init(&tb, 2, blo, bhi);
    vfy_bounds *b = root_bounds(ctx, &tb, 2, NULL);
    int64_t z_at = net->layers[0].n_out + net->layers[1].n_out, p_layer = 4;
    ck_assert_int_eq(net->layers[p_layer + 1].kind, VFY_LAYER_RELU);
    double plain = b->lo[p_layer][0];
    REQUIRE_MSG(plain < -1.9 && b->lo[2][0] < 0, "p >= %g, z >= %g before", plain, b->lo[2][0]);
    double lo[2], hi[2];
    memcpy(lo, tb.lo, sizeof lo);
    memcpy(hi, tb.hi, sizeof hi);
    vfy_bound_widen_input(ctx, 2, lo, hi);
    /* p >= 0 itself (false on the box): a constraint on p's own layer is not in its backward
     * pass, so it must change nothing */
    const int64_t own_idx[1] = {z_at + 4};
    const signed char pos[1] = {1};
    vfy_splits own = {1, own_idx, pos, NULL};
    int64_t n_t = 0;
    ck_assert_int_eq(vfy_bound_tighten_alpha_cons(ctx, lo, hi, b, 20, &own, NULL, &n_t), VFY_OK);
    REQUIRE_MSG(b->lo[p_layer][0] < -1.9, "p >= %g with a constraint on its own layer",
                b->lo[p_layer][0]);
    const int64_t z_idx[1] = {z_at};
    vfy_splits cons = {1, z_idx, pos, NULL};
    ck_assert_int_eq(vfy_bound_tighten_alpha_cons(ctx, lo, hi, b, 50, &cons, NULL, &n_t), VFY_OK);
    double with = b->lo[p_layer][0];
    REQUIRE_MSG(with > -1.6 && n_t > 0, "p >= %g with z >= 0 (%lld tightened)", with,
                (long long)n_t);
    uint64_t st = 11;
    double *acts[8];
    double store[8][8];
    for (int k = 0; k < 8; k++)
        acts[k] = store[k];
    for (int t = 0; t < 20000; t++) {
        double x[2] = {-1 + 2 * testnet_uniform(&st), -1 + 2 * testnet_uniform(&st)};
        if (t % 4 == 0)
            x[0] = 1;
        vfy_eval_forward_all(net, x, acts, NULL);
        REQUIRE_MSG(acts[p_layer][0] >= with, "p %.17g below %.17g", acts[p_layer][0], with);
    }
    vfy_bounds_free(b);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* A layer of RETRY_HARD sign searches no share of a second decides, weighted first, then
 * RETRY_EASY quick ones. hidden_stable_net's construction over RETRY_PAIRS pairs of inputs:
 * z = c - sum_p (relu(x_2p + x_2p+1) + relu(x_2p - x_2p+1)) is at least c - 2P over [-1, 1]^2P,
 * the triangles give c - 3P, and a proof of z > 0 for c just above 2P needs nearly every pair's
 * two ReLUs split (about 3^P domains); on one pair with c = 2.5 it takes a few. Within RETRY_DL_S
 * the hard ones are cut short at the 0.5 s floor, the easy ones end at once, and the time their
 * shares kept is the layer's left: the hard ones run again, with at least twice the floor. A ReLU
 * layer after (of sum_i relu(z_i) >= 0: no candidate) makes z's layer not the last refined one,
 * and halves its share of the time; without it (_i = 1) z's layer is the last, whose time left
 * goes to the caller's search instead: no search runs again. */
#define RETRY_PAIRS 12
#define RETRY_IN (2 * RETRY_PAIRS)
#define RETRY_HARD 2
#define RETRY_EASY 8
#define RETRY_DL_S 12.0
#define RETRY_NZ (RETRY_HARD + RETRY_EASY)
static vfy_net *retry_net(int with_tail)
{
    const int64_t sizes[5] = {RETRY_IN, RETRY_IN, RETRY_NZ, 1, 1};
    static double w0[RETRY_IN * RETRY_IN], b0[RETRY_IN], w1[RETRY_NZ * RETRY_IN], b1[RETRY_NZ];
    static double w2[RETRY_NZ], b2[1], w3[1] = {1}, b3[1] = {0};
    memset(w0, 0, sizeof w0);
    memset(w1, 0, sizeof w1);
    for (int64_t p = 0; p < RETRY_PAIRS; p++) {
        int64_t a = 2 * p, d = 2 * p + 1;
        w0[a * RETRY_IN + a] = w0[a * RETRY_IN + d] = w0[d * RETRY_IN + a] = 1;
        w0[d * RETRY_IN + d] = -1;
        b0[a] = b0[d] = 0;
    }
    for (int64_t i = 0; i < RETRY_NZ; i++) {
        int64_t n_terms = i < RETRY_HARD ? RETRY_IN : 2;
        for (int64_t j = 0; j < n_terms; j++)
            w1[i * RETRY_IN + j] = -1;
        b1[i] = i < RETRY_HARD ? (double)(float)(RETRY_IN + 0.01 * (double)(i + 1)) : 2.5;
        w2[i] = 1;
    }
    b2[0] = 0;
    const double *w[4] = {w0, w1, w2, w3}, *b[4] = {b0, b1, b2, b3};
    return testnet_dense(with_tail ? 4 : 3, sizes, w, b);
}

START_TEST(test_refine_retries_cut_searches)
{
    vfy_net *net = retry_net(_i == 0);
    vfy_bound_ctx *ctx = NULL;
    vfy_error err;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 0, &ctx, &err), VFY_OK);
    double lo[RETRY_IN], hi[RETRY_IN];
    for (int j = 0; j < RETRY_IN; j++) {
        lo[j] = -1.0;
        hi[j] = 1.0;
    }
    test_box tb;
    box_init(&tb, RETRY_IN, lo, hi);
    vfy_bounds *b = root_bounds(ctx, &tb, RETRY_IN, NULL);
    const int64_t nz = RETRY_NZ;
    for (int64_t i = 0; i < nz; i++)
        REQUIRE_MSG(b->lo[2][i] < 0 && b->hi[2][i] > 0, "z%lld in [%g, %g] at the root",
                    (long long)i, b->lo[2][i], b->hi[2][i]);
    /* the hard searches first */
    int64_t n_flat = vfy_bounds_flat_size(ctx) / 2, z_at = 0;
    for (int k = 0; k < 2; k++)
        z_at += net->layers[k].n_out;
    double *weight = calloc((size_t)n_flat, sizeof(double));
    ck_assert_ptr_nonnull(weight);
    for (int64_t i = 0; i < nz; i++)
        weight[z_at + i] = i < RETRY_HARD ? 10.0 : 1.0;
    vfy_verify_opts o;
    vfy_verify_opts_default(&o);
    o.threads = 1;
    vfy_refine_stats rs;
    double t0 = vfy_now();
    vfy_deadline dl = {t0 + RETRY_DL_S, 0};
    ck_assert_int_eq(vfy_refine_hidden(ctx, &tb.box, b, weight, &o, &dl, &rs, &err), VFY_OK);
    double took = vfy_now() - t0;
    ck_assert_int_ge(rs.proved, RETRY_EASY);
    int64_t want = _i == 0 ? RETRY_HARD : 0;
    REQUIRE_MSG(rs.retried == want, "%lld searches run again (%lld in all, %lld proved)",
                (long long)rs.retried, (long long)rs.searches, (long long)rs.proved);
    ck_assert_int_ge(rs.searches, RETRY_NZ + want);
    /* (the last layer's share is all the time: its searches end early, the hard ones at their
     * floor, the last one with what is left) */
    double share = _i == 0 ? RETRY_DL_S / 2 : RETRY_DL_S;
    REQUIRE_MSG(took < share + 0.5, "%.2f s for a layer's share %.1f s", took, share);
    uint64_t st = 77;
    double *acts[7], store[7][RETRY_IN];
    for (int k = 0; k < 7; k++)
        acts[k] = store[k];
    for (int t = 0; t < 20000; t++) {
        double x[RETRY_IN];
        for (int j = 0; j < RETRY_IN; j++) {
            double u = testnet_uniform(&st);
            x[j] = t % 3 == 0 ? (u < 0.5 ? -1 : 1) : -1 + 2 * u;
        }
        vfy_eval_forward_all(net, x, acts, NULL);
        for (int64_t i = 0; i < nz; i++)
            REQUIRE_MSG(acts[2][i] >= b->lo[2][i] && acts[2][i] <= b->hi[2][i],
                        "z%lld = %.17g outside [%.17g, %.17g]", (long long)i, acts[2][i],
                        b->lo[2][i], b->hi[2][i]);
    }
    free(weight);
    vfy_bounds_free(b);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

static Suite *refine_suite(void)
{
    Suite *s = suite_create("refine");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_prefix_same_values);
    tcase_add_test(tc, test_refine_sign_deadline);
    tcase_add_test(tc, test_refine_prefix_bounds_fixed);
    tcase_add_loop_test(tc, test_refine_retries_cut_searches, 0, 2);
    tcase_add_loop_test(tc, test_refine_decides_hidden_neuron, 0, 2);
    tcase_add_loop_test(tc, test_refine_tightens_unstable_neuron, 0, 2);
    tcase_add_test(tc, test_refine_bound_yield);
    tcase_add_test(tc, test_refine_min_proved);
    tcase_add_loop_test(tc, test_refine_sound_random, 0, 6);
    tcase_add_loop_test(tc, test_refine_root_slopes_sound, 0, 6);
    tcase_add_test(tc, test_hidden_prior_used);
    tcase_add_test(tc, test_root_constraints_tighten);
    tcase_add_loop_test(tc, test_root_bounds_tighten, 0, 2);
    tcase_add_test(tc, test_tighten_alpha_constraints);
    tcase_add_loop_test(tc, test_open_bound_sound, 0, 6);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    vfy_la_single_thread(); /* tiny products: OpenBLAS threads only add overhead */
    SRunner *sr = srunner_create(refine_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
