/* Check suite: la (BLAS wrapper, directed rounding) and bound (IBP, CROWN). Soundness tests assert
 * that sampled points lie inside the bounds, with no tolerance. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testnet.h"
#include "vfy/bound.h"
#include "vfy/eval.h"
#include "vfy/la.h"
#include "vfy/onnx.h"
#include "vfy/spec.h"

#include <stdio.h>

/* exact a + b = s + e (TwoSum) */
static void two_sum(double a, double b, double *s, double *e)
{
    *s = a + b;
    double bb = *s - a;
    *e = (a - (*s - bb)) + (b - bb);
}

START_TEST(test_directed_rounding)
{
    uint64_t st = 7;
    for (int i = 0; i < 20000; i++) {
        double a = ldexp(2 * testnet_uniform(&st) - 1, (int)(testnet_uniform(&st) * 80) - 40);
        double b = ldexp(2 * testnet_uniform(&st) - 1, (int)(testnet_uniform(&st) * 80) - 40);
        double s, e;
        two_sum(a, b, &s, &e);
        double d = vfy_add_down(a, b), u = vfy_add_up(a, b);
        /* d <= s + e <= u exactly */
        ck_assert(d < s || (d == s && e >= 0));
        ck_assert(u > s || (u == s && e <= 0));
        double p = a * b, pe = fma(a, b, -p);
        double md = vfy_mul_down(a, b), mu = vfy_mul_up(a, b);
        ck_assert(md < p || (md == p && pe >= 0));
        ck_assert(mu > p || (mu == p && pe <= 0));
    }
}
END_TEST

START_TEST(test_gemm_matches_reference)
{
    uint64_t st = 11;
    int64_t m = 7, n = 9, k = 13;
    double a[7 * 13], b[13 * 9], c1[7 * 9], c2[7 * 9];
    for (int i = 0; i < m * k; i++)
        a[i] = 2 * testnet_uniform(&st) - 1;
    for (int i = 0; i < k * n; i++)
        b[i] = 2 * testnet_uniform(&st) - 1;
    vfy_la_gemm(m, n, k, a, b, c1, 0);
    vfy_la_gemm_ref(m, n, k, a, b, c2, 0);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int p = 0; p < k; p++)
                s += fabs(a[i * k + p] * b[p * n + j]);
            /* both are within gamma(k) sum|a||b| of the exact value */
            ck_assert(fabs(c1[i * n + j] - c2[i * n + j]) <= 2 * vfy_la_gamma(k) * s);
        }
}
END_TEST

typedef struct shape {
    int64_t n_in, n_out;
    int n_hidden;
    int64_t hidden[4];
    double scale;
    int with_scale;
} shape;

static const shape shapes[] = {
    {2, 2, 2, {8, 8}, 1.0, 0},
    {5, 5, 3, {20, 20, 20}, 0.5, 1},
    {3, 4, 4, {16, 12, 10, 8}, 0.8, 0},
    {10, 3, 1, {30}, 2.0, 1},
};

/* Sample points of [lo, hi] (corners first) and check every layer's value lies in the bounds. */
static void check_contains(const vfy_net *net, const vfy_bounds *b, const double *lo,
                           const double *hi, uint64_t seed, int n_samples)
{
    uint64_t st = seed;
    int64_t nx = net->n_in;
    double *x = malloc((size_t)nx * sizeof *x);
    float *xf = malloc((size_t)nx * sizeof *xf);
    float *yf = malloc((size_t)net->n_out * sizeof *yf);
    float *sf = malloc((size_t)(2 * vfy_net_max_width(net)) * sizeof *sf);
    double **acts = calloc((size_t)net->n_layers, sizeof *acts);
    for (int64_t k = 0; k < net->n_layers; k++)
        acts[k] = malloc((size_t)net->layers[k].n_out * sizeof(double));
    for (int s = 0; s < n_samples; s++) {
        for (int64_t j = 0; j < nx; j++) {
            double u = s < 2 ? (double)s : (s < 4 ? (double)((j + s) % 2) : testnet_uniform(&st));
            /* float32-valued points inside the box, so the float32 execution sees the same x */
            float f = (float)(lo[j] + u * (hi[j] - lo[j]));
            if ((double)f < lo[j])
                f = nextafterf(f, INFINITY);
            if ((double)f > hi[j])
                f = nextafterf(f, -INFINITY);
            x[j] = f;
            xf[j] = f;
        }
        vfy_eval_forward_all(net, x, acts);
        for (int64_t k = 0; k < net->n_layers; k++)
            for (int64_t j = 0; j < net->layers[k].n_out; j++) {
                ck_assert_msg(b->lo[k][j] <= acts[k][j] && acts[k][j] <= b->hi[k][j],
                              "layer %lld neuron %lld: %.17g not in [%.17g, %.17g]", (long long)k,
                              (long long)j, acts[k][j], b->lo[k][j], b->hi[k][j]);
            }
        vfy_eval_f32(net, xf, yf, sf);
        int64_t L = net->n_layers - 1;
        for (int64_t j = 0; j < net->n_out; j++)
            ck_assert(b->lo[L][j] <= (double)yf[j] && (double)yf[j] <= b->hi[L][j]);
    }
    for (int64_t k = 0; k < net->n_layers; k++)
        free(acts[k]);
    free(acts);
    free(x);
    free(xf);
    free(yf);
    free(sf);
}

START_TEST(test_bounds_contain_samples)
{
    const shape *sh = &shapes[_i % 4];
    vfy_net *net = testnet_random(100 + (uint64_t)_i, sh->n_in, sh->hidden, sh->n_hidden, sh->n_out,
                                  sh->scale, sh->with_scale);
    ck_assert_ptr_nonnull(net);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
    vfy_bounds *bi = vfy_bounds_create(ctx), *bc = vfy_bounds_create(ctx);
    ck_assert_ptr_nonnull(bi);
    ck_assert_ptr_nonnull(bc);
    uint64_t st = 1000 + (uint64_t)_i;
    double lo[16], hi[16], wlo[16], whi[16];
    for (int64_t j = 0; j < net->n_in; j++) {
        double c = 2 * testnet_uniform(&st) - 1, r = 0.05 + testnet_uniform(&st) * (_i < 4 ? 0.1 : 1.0);
        lo[j] = wlo[j] = c - r;
        hi[j] = whi[j] = c + r;
    }
    vfy_bound_widen_input(ctx, net->n_in, wlo, whi);
    for (int64_t j = 0; j < net->n_in; j++)
        ck_assert(wlo[j] < lo[j] && whi[j] > hi[j]);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_IBP, wlo, whi, NULL, bi), VFY_OK);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo, whi, NULL, bc), VFY_OK);
    check_contains(net, bi, lo, hi, 5 + (uint64_t)_i, 300);
    check_contains(net, bc, lo, hi, 5 + (uint64_t)_i, 300);
    /* rows: lower bounds of random output combinations hold at samples; CROWN >= IBP */
    int64_t K = 3, ny = net->n_out, nx = net->n_in;
    double cy[3 * 8], lbi[3], lbc[3], lam[3 * 16];
    for (int64_t i = 0; i < K * ny; i++)
        cy[i] = (double)(int)(testnet_uniform(&st) * 5) - 2;
    ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_IBP, wlo, whi, bi, K, cy, NULL, lbi, NULL, NULL), VFY_OK);
    ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_CROWN, wlo, whi, bc, K, cy, NULL, lbc, lam, NULL), VFY_OK);
    double x[16], y[8], scr[128];
    for (int i = 0; i < K; i++)
        ck_assert(lbc[i] >= lbi[i]);
    for (int s = 0; s < 300; s++) {
        for (int64_t j = 0; j < nx; j++)
            x[j] = lo[j] + testnet_uniform(&st) * (hi[j] - lo[j]);
        vfy_eval_f64(net, x, y, scr);
        for (int i = 0; i < K; i++) {
            double v = 0;
            for (int64_t j = 0; j < ny; j++)
                v += cy[i * ny + j] * y[j];
            ck_assert_msg(lbc[i] <= v, "row %d: bound %.17g above value %.17g", i, lbc[i], v);
        }
    }
    vfy_bounds_free(bi);
    vfy_bounds_free(bc);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* CROWN is strictly tighter than IBP on a deeper random net: the reason to have it. */
START_TEST(test_crown_tighter_than_ibp)
{
    int64_t hidden[3] = {20, 20, 20};
    vfy_net *net = testnet_random(42, 5, hidden, 3, 5, 0.5, 0);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
    vfy_bounds *b = vfy_bounds_create(ctx);
    double lo[5], hi[5];
    for (int j = 0; j < 5; j++) {
        lo[j] = -0.1;
        hi[j] = 0.1;
    }
    double cy[5] = {1, -1, 0, 0, 0}, lbi, lbc;
    vfy_bound_layers(ctx, VFY_BOUND_IBP, lo, hi, NULL, b);
    vfy_bound_rows(ctx, VFY_BOUND_IBP, lo, hi, b, 1, cy, NULL, &lbi, NULL, NULL);
    vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo, hi, NULL, b);
    vfy_bound_rows(ctx, VFY_BOUND_CROWN, lo, hi, b, 1, cy, NULL, &lbc, NULL, NULL);
    ck_assert_msg(lbc > lbi, "crown %g ibp %g", lbc, lbi);
    vfy_bounds_free(b);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* y = relu(2^60 x + 1) - relu(2^60 x) is 1 in real arithmetic on x in [0.5, 1] but 0 when executed
 * in floating point: with the float-execution allowance, y > 0.5 must not be proved. */
START_TEST(test_float_execution_cancellation)
{
    const int64_t sizes[3] = {1, 2, 1};
    const double w1[2] = {0x1p60, 0x1p60}, b1[2] = {1, 0}, w2[2] = {1, -1}, b2[1] = {0};
    const double *w[2] = {w1, w2}, *b[2] = {b1, b2};
    vfy_net *net = testnet_dense(2, sizes, w, b);
    ck_assert_ptr_nonnull(net);
    double x = 1.0, y, scr[8];
    vfy_eval_f64(net, &x, &y, scr);
    ck_assert(y == 0.0); /* the float execution */
    for (int fs = 0; fs <= 1; fs++) {
        vfy_bound_ctx *ctx;
        ck_assert_int_eq(vfy_bound_ctx_create(net, fs, &ctx, NULL), VFY_OK);
        vfy_bounds *bb = vfy_bounds_create(ctx);
        double lo = 0.5, hi = 1.0, cy = 1.0, lb;
        vfy_bound_widen_input(ctx, 1, &lo, &hi);
        vfy_bound_layers(ctx, VFY_BOUND_CROWN, &lo, &hi, NULL, bb);
        vfy_bound_rows(ctx, VFY_BOUND_CROWN, &lo, &hi, bb, 1, &cy, NULL, &lb, NULL, NULL);
        if (fs)
            ck_assert_msg(!(lb > 0.5), "float semantics must not prove y > 0.5 (lb %g)", lb);
        /* either way the bound holds for the value executed in double */
        ck_assert(lb <= y || !fs);
        vfy_bounds_free(bb);
        vfy_bound_ctx_free(ctx);
    }
    vfy_net_free(net);
}
END_TEST

/* A proof with margin survives the allowance: y = relu(x) + 1 > 0.5 on [-1, 1]. */
START_TEST(test_margin_proved)
{
    const int64_t sizes[3] = {1, 1, 1};
    const double w1[1] = {1}, b1[1] = {0}, w2[1] = {1}, b2[1] = {1};
    const double *w[2] = {w1, w2}, *b[2] = {b1, b2};
    vfy_net *net = testnet_dense(2, sizes, w, b);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
    vfy_bounds *bb = vfy_bounds_create(ctx);
    double lo = -1, hi = 1, cy = 1, lb;
    vfy_bound_widen_input(ctx, 1, &lo, &hi);
    vfy_bound_layers(ctx, VFY_BOUND_CROWN, &lo, &hi, NULL, bb);
    vfy_bound_rows(ctx, VFY_BOUND_CROWN, &lo, &hi, bb, 1, &cy, NULL, &lb, NULL, NULL);
    ck_assert(lb > 0.99 && lb <= 1.0);
    vfy_bounds_free(bb);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* Overflowing float32 range: no proof is claimed under float semantics. */
START_TEST(test_float_overflow_no_proof)
{
    const int64_t sizes[3] = {1, 1, 1};
    const double w1[1] = {0x1p127}, b1[1] = {0}, w2[1] = {0x1p-127}, b2[1] = {1};
    const double *w[2] = {w1, w2}, *b[2] = {b1, b2};
    vfy_net *net = testnet_dense(2, sizes, w, b);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
    vfy_bounds *bb = vfy_bounds_create(ctx);
    double lo = 2, hi = 4, cy = 1, lb;
    vfy_bound_layers(ctx, VFY_BOUND_CROWN, &lo, &hi, NULL, bb);
    vfy_bound_rows(ctx, VFY_BOUND_CROWN, &lo, &hi, bb, 1, &cy, NULL, &lb, NULL, NULL);
    ck_assert(lb == -INFINITY);
    vfy_bounds_free(bb);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST


/* CROWN against the reference implementation's values in ../shared/benchmarks/REFERENCE_BOUNDS.md
 * (auto_LiRPA, float32): in real-only mode our bound is never looser than the reference (beyond 1e-4
 * for float32 vs double); it can be tighter, since intermediate bounds are also intersected with IBP
 * (on ACAS Xu prop_3 by up to 0.12, while the sampled minima of the rows lie far above both). */
static void check_reference(const char *model, const char *spec_path, const double *ref, int n_ref)
{
    vfy_net *net = NULL;
    vfy_spec *spec = NULL;
    vfy_error err;
    ck_assert_msg(vfy_onnx_load(model, &net, &err) == VFY_OK, "%s", err.msg);
    ck_assert_msg(vfy_spec_load(spec_path, &spec, &err) == VFY_OK, "%s", err.msg);
    int64_t K = 0, ny = net->n_out;
    double cy[64 * 10], rhs[64], lb[64];
    for (int64_t c = 0; c < spec->n_cases; c++)
        for (int64_t i = 0; i < spec->cases[c].n_rows; i++, K++) {
            ck_assert(K < 64);
            memcpy(cy + K * ny, spec->cases[c].rows[i].cy, (size_t)ny * sizeof(double));
            rhs[K] = spec->cases[c].rows[i].rhs_hi;
        }
    ck_assert_int_eq(K, n_ref);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 0, &ctx, NULL), VFY_OK);
    vfy_bounds *b = vfy_bounds_create(ctx);
    const double *lo = spec->boxes[0].lo, *hi = spec->boxes[0].hi;
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo, hi, NULL, b), VFY_OK);
    ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_CROWN, lo, hi, b, K, cy, NULL, lb, NULL, NULL), VFY_OK);
    for (int64_t i = 0; i < K; i++) {
        double m = lb[i] - rhs[i];
        ck_assert_msg(m >= ref[i] - 1e-4 * (1 + fabs(ref[i])) && m <= ref[i] + 0.2 * (1 + fabs(ref[i])),
                      "%s row %lld: crown %.6g, reference %.6g", model, (long long)i, m, ref[i]);
    }
    vfy_bounds_free(b);
    vfy_bound_ctx_free(ctx);
    vfy_spec_free(spec);
    vfy_net_free(net);
}

START_TEST(test_reference_bounds)
{
    FILE *f = fopen("../shared/benchmarks/REFERENCE_BOUNDS.md", "r");
    if (!f) {
        fprintf(stderr, "skipped: ../shared/benchmarks is absent\n");
        return;
    }
    fclose(f);
    static const double mnist2[9] = {0.412259, 0.48894, 0.434482, 0.47527, 0.398815,
                                     0.340795, 0.443228, 0.470415, 0.349224};
    static const double mnist6[9] = {0.977781, 0.977098, 0.98013, 0.971321, 0.96791,
                                     0.951837, 0.968011, 0.967507, 0.976784};
    static const double acas[4] = {-0.503859, -0.569159, -0.897641, -0.966174};
    check_reference("../shared/benchmarks/mnist_fc/onnx/mnist-net_256x2.onnx",
                    "../shared/benchmarks/mnist_fc/vnnlib/prop_0_0.03.vnnlib", mnist2, 9);
    check_reference("../shared/benchmarks/mnist_fc/onnx/mnist-net_256x6.onnx",
                    "../shared/benchmarks/mnist_fc/vnnlib/prop_3_0.03.vnnlib", mnist6, 9);
    check_reference("../shared/benchmarks/acasxu/onnx/ACASXU_run2a_1_1_batch_2000.onnx",
                    "../shared/benchmarks/acasxu/vnnlib/prop_3.vnnlib", acas, 4);
}
END_TEST


/* Dense grids on 2-input networks with several hidden layers (so that CROWN refines bounds through
 * earlier relaxations): every layer's value at every grid point lies inside the CROWN bounds. Random
 * points in higher dimensions rarely come near a neuron's extremes; a grid in 2-D does. */
START_TEST(test_grid_contains)
{
    int64_t hidden[4] = {10, 12, 10, 8};
    vfy_net *net = testnet_random(500 + (uint64_t)_i, 2, hidden, 3 + _i % 2, 3, 0.9, _i % 3 == 0);
    ck_assert_ptr_nonnull(net);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, _i % 2, &ctx, NULL), VFY_OK);
    vfy_bounds *b = vfy_bounds_create(ctx);
    uint64_t st = 77 + (uint64_t)_i;
    double lo[2], hi[2], wlo[2], whi[2];
    for (int j = 0; j < 2; j++) {
        double c = 2 * testnet_uniform(&st) - 1, r = 0.2 + 0.8 * testnet_uniform(&st);
        lo[j] = wlo[j] = c - r;
        hi[j] = whi[j] = c + r;
    }
    vfy_bound_widen_input(ctx, 2, wlo, whi);
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo, whi, NULL, b), VFY_OK);
    double **acts = calloc((size_t)net->n_layers, sizeof *acts);
    for (int64_t k = 0; k < net->n_layers; k++)
        acts[k] = malloc((size_t)net->layers[k].n_out * sizeof(double));
    const int G = 100;
    for (int a = 0; a <= G; a++)
        for (int c = 0; c <= G; c++) {
            double x[2] = {lo[0] + (hi[0] - lo[0]) * a / G, lo[1] + (hi[1] - lo[1]) * c / G};
            if (a == G)
                x[0] = hi[0];
            if (c == G)
                x[1] = hi[1];
            vfy_eval_forward_all(net, x, acts);
            for (int64_t k = 0; k < net->n_layers; k++)
                for (int64_t j = 0; j < net->layers[k].n_out; j++)
                    ck_assert_msg(b->lo[k][j] <= acts[k][j] && acts[k][j] <= b->hi[k][j],
                                  "layer %lld neuron %lld: %.17g not in [%.17g, %.17g]",
                                  (long long)k, (long long)j, acts[k][j], b->lo[k][j], b->hi[k][j]);
        }
    for (int64_t k = 0; k < net->n_layers; k++)
        free(acts[k]);
    free(acts);
    vfy_bounds_free(b);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

static Suite *bound_suite(void)
{
    Suite *s = suite_create("bound");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_directed_rounding);
    tcase_add_test(tc, test_gemm_matches_reference);
    tcase_add_loop_test(tc, test_bounds_contain_samples, 0, 12);
    tcase_add_test(tc, test_crown_tighter_than_ibp);
    tcase_add_test(tc, test_float_execution_cancellation);
    tcase_add_test(tc, test_margin_proved);
    tcase_add_test(tc, test_float_overflow_no_proof);
    tcase_add_test(tc, test_reference_bounds);
    tcase_add_loop_test(tc, test_grid_contains, 0, 8);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    vfy_la_single_thread(); /* tiny products: OpenBLAS threads only add overhead */
    SRunner *sr = srunner_create(bound_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
