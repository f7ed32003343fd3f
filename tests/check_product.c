/* Unit tests for product: networks side by side, and inputs tied by equalities made one. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "require.h"
#include "testnet.h"
#include "vfy/bound.h"
#include "vfy/eval.h"
#include "vfy/product.h"
#include "vfy/spec.h"

static vfy_spec *parse(const char *text)
{
    vfy_spec *s = NULL;
    vfy_error e;
    vfy_status st = vfy_spec_parse(text, strlen(text), "t.vnnlib", &s, &e);
    ck_assert_msg(st == VFY_OK, "%s", e.msg);
    return s;
}

/* The product evaluates each network on its own slice of the input, exactly (double and float32
 * passes), for networks of different widths and one layer sequence. */
START_TEST(test_product_eval)
{
    int64_t h1[2] = {6, 5}, h2[2] = {9, 4};
    vfy_net *f = testnet_random(11, 3, h1, 2, 2, 1.0, 1);
    vfy_net *g = testnet_random(12, 4, h2, 2, 3, 1.0, 1);
    const vfy_net *parts[3] = {f, g, f};
    const char *names[3] = {"f", "g", "h"};
    vfy_net *p = NULL;
    vfy_error e;
    ck_assert_int_eq(vfy_net_product(parts, names, 3, &p, &e), VFY_OK);
    ck_assert_int_eq(p->n_in, 10);
    ck_assert_int_eq(p->n_out, 7);
    ck_assert_int_eq(p->n_layers, f->n_layers);
    double *ws = malloc((size_t)vfy_eval_ws_len(p) * sizeof(double));
    float *wsf = malloc((size_t)(2 * vfy_net_max_width(p)) * sizeof(float));
    uint64_t st = 5;
    for (int rep = 0; rep < 200; rep++) {
        double x[10], y[7], yf[3], yg[3];
        float x32[10], y32[7], yf32[3], yg32[3];
        for (int j = 0; j < 10; j++) {
            x32[j] = (float)(2 * testnet_uniform(&st) - 1);
            x[j] = x32[j];
        }
        vfy_eval_f64(p, x, y, ws);
        vfy_eval_f32(p, x32, y32, wsf);
        const double *xs[3] = {x, x + 3, x + 7};
        const float *xs32[3] = {x32, x32 + 3, x32 + 7};
        for (int q = 0, o = 0; q < 3; q++) {
            const vfy_net *n = parts[q];
            vfy_eval_f64(n, xs[q], q == 1 ? yg : yf, ws);
            vfy_eval_f32(n, xs32[q], q == 1 ? yg32 : yf32, wsf);
            for (int64_t j = 0; j < n->n_out; j++, o++) {
                /* (double: BLAS may sum in another order, the zero terms aside) */
                REQUIRE(fabs(y[o] - (q == 1 ? yg : yf)[j]) <= 1e-12 * (1 + fabs(y[o])));
                REQUIRE(y32[o] == (q == 1 ? yg32 : yf32)[j]);
            }
        }
    }
    free(ws);
    free(wsf);
    vfy_net_free(p);
    vfy_net_free(f);
    vfy_net_free(g);
}
END_TEST

/* Bounds of the product contain every sampled output of the parts, no tolerance: IBP and CROWN
 * over the box, with the float allowance, for ReLU, Sigmoid and MAXPOOL networks. */
START_TEST(test_product_bounds_sound)
{
    int64_t h[2] = {7, 6};
    vfy_layer_kind sig[2] = {VFY_LAYER_SIGMOID, VFY_LAYER_RELU};
    vfy_net *nets[6] = {testnet_random(21, 3, h, 2, 2, 1.5, 0),
                        testnet_random(22, 3, h, 2, 2, 1.5, 0),
                        testnet_random_act(23, 3, h, 2, 2, 1.5, 0, sig),
                        testnet_random_act(24, 3, h, 2, 2, 1.5, 0, sig),
                        testnet_random_pool(25, 3, 2, 1.0), testnet_random_pool(26, 3, 2, 1.0)};
    uint64_t st = 9;
    for (int pair = 0; pair < 3; pair++) {
        const vfy_net *parts[2] = {nets[2 * pair], nets[2 * pair + 1]};
        vfy_net *p = NULL;
        vfy_error e;
        ck_assert_int_eq(vfy_net_product(parts, NULL, 2, &p, &e), VFY_OK);
        vfy_bound_ctx *ctx = NULL;
        ck_assert_int_eq(vfy_bound_ctx_create(p, 1, &ctx, &e), VFY_OK);
        vfy_bounds *b = vfy_bounds_create(ctx);
        double lo[6], hi[6], cy[4 * 4] = {0}, lb[4], ws[4096];
        for (int j = 0; j < 6; j++) {
            lo[j] = -1 + testnet_uniform(&st);
            hi[j] = lo[j] + testnet_uniform(&st);
        }
        for (int i = 0; i < 4; i++)
            cy[i * 4 + i] = i % 2 ? -1.0 : 1.0; /* lower bounds of y_0, y_2; upper of y_1, y_3 */
        for (int m = 0; m < 2; m++) {
            vfy_bound_method method = m ? VFY_BOUND_CROWN : VFY_BOUND_IBP;
            ck_assert_int_eq(vfy_bound_layers(ctx, method, lo, hi, NULL, b), VFY_OK);
            ck_assert_int_eq(vfy_bound_rows(ctx, method, lo, hi, b, 4, cy, NULL, lb, NULL, NULL),
                             VFY_OK);
            for (int rep = 0; rep < 300; rep++) {
                double x[6], y[4];
                for (int j = 0; j < 6; j++)
                    x[j] = lo[j] + (hi[j] - lo[j]) * testnet_uniform(&st);
                if (rep < 64)
                    for (int j = 0; j < 6; j++)
                        x[j] = (rep >> j) & 1 ? hi[j] : lo[j];
                vfy_eval_f64(parts[0], x, y, ws);
                vfy_eval_f64(parts[1], x + 3, y + 2, ws);
                for (int i = 0; i < 4; i++)
                    REQUIRE((i % 2 ? -y[i] : y[i]) >= lb[i]);
            }
        }
        vfy_bounds_free(b);
        vfy_bound_ctx_free(ctx);
        vfy_net_free(p);
    }
    for (int k = 0; k < 6; k++)
        vfy_net_free(nets[k]);
}
END_TEST

START_TEST(test_product_errors)
{
    int64_t h1[2] = {6, 5}, h3[3] = {4, 4, 4};
    vfy_layer_kind sig[2] = {VFY_LAYER_SIGMOID, VFY_LAYER_RELU};
    vfy_net *f = testnet_random(31, 2, h1, 2, 2, 1.0, 0);
    vfy_net *g = testnet_random(32, 2, h3, 3, 2, 1.0, 0);
    vfy_net *s = testnet_random_act(33, 2, h1, 2, 2, 1.0, 0, sig);
    const char *names[2] = {"f", "g"};
    vfy_net *p = (vfy_net *)&p;
    vfy_error e;
    const vfy_net *fg[2] = {f, g}, *fs[2] = {f, s};
    ck_assert_int_eq(vfy_net_product(fg, names, 2, &p, &e), VFY_ERR_UNSUPPORTED);
    ck_assert_ptr_null(p);
    ck_assert_msg(strstr(e.msg, "networks 'f' and 'g' have 5 and 7 layers"), "%s", e.msg);
    ck_assert_int_eq(vfy_net_product(fs, names, 2, &p, &e), VFY_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(e.msg, "networks 'f' and 'g' differ in layer 2"), "%s", e.msg);
    vfy_net *f2 = testnet_random(31, 2, h1, 2, 2, 1.0, 0);
    const vfy_net *ff[2] = {f, f2};
    f2->layers[1].fan_in = 4; /* as a lowered Softmax's EXP would have it */
    ck_assert_int_eq(vfy_net_product(ff, names, 2, &p, &e), VFY_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(e.msg, "differ in layer 2"), "%s", e.msg);
    vfy_net_free(f2);
    f->out_op = VFY_OUT_SOFTMAX;
    ck_assert_int_eq(vfy_net_product(fg, names, 2, &p, &e), VFY_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(e.msg, "network 'f' ends in a Softmax"), "%s", e.msg);
    vfy_net_free(f);
    vfy_net_free(g);
    vfy_net_free(s);
}
END_TEST

/* vfy_net_same: the same network loaded twice (one of them sparse), not one weight apart. */
START_TEST(test_net_same)
{
    int64_t h[2] = {6, 5};
    vfy_net *a = testnet_random(51, 3, h, 2, 2, 1.0, 1);
    vfy_net *b = testnet_random(51, 3, h, 2, 2, 1.0, 1);
    vfy_error e;
    ck_assert(vfy_net_same(a, a) && vfy_net_same(a, b));
    ck_assert_int_eq(vfy_net_sparsify(b, 1.0, 1, &e), VFY_OK); /* every DENSE layer as CSR */
    ck_assert_ptr_nonnull(b->layers[1].csr);
    ck_assert(vfy_net_same(a, b) && vfy_net_same(b, a));
    a->layers[1].w[7] = nextafter(a->layers[1].w[7], 2.0);
    ck_assert(!vfy_net_same(a, b) && !vfy_net_same(b, a));
    a->layers[1].w[7] = nextafter(a->layers[1].w[7], -2.0);
    ck_assert(vfy_net_same(a, b));
    a->layers[a->n_layers - 1].b[1] += 1.0;
    ck_assert(!vfy_net_same(a, b));
    vfy_net *c = testnet_random(52, 3, h, 2, 2, 1.0, 1);
    ck_assert(!vfy_net_same(a, c));
    vfy_net_free(a);
    vfy_net_free(b);
    vfy_net_free(c);
}
END_TEST

#define TWO "(vnnlib-version <2.0>)\n"                                                           \
            "(declare-network f (declare-input A real [3]) (declare-output B real [2]))\n"       \
            "(declare-network g (isomorphic-to f) (declare-input C real [3])"                    \
            " (declare-output D real [2]))\n"                                                    \
            "(assert (and (>= A[0] -1) (<= A[0] 1) (>= A[1] 0) (<= A[1] 0.5) (>= A[2] 0)"       \
            " (<= A[2] 1)))\n"

/* Ties: the equalities every case asserts make classes; the spec and the network are rewritten
 * over them; a counterexample of the rewritten problem is one of the original. */
START_TEST(test_ties)
{
    vfy_spec *s = parse(TWO "(assert (== A[0] C[0]))\n(assert (== C[2] A[2]))\n"
                            "(assert (and (<= C[1] A[1]) (>= C[1] 0.25)))\n"
                            "(assert (and (<= C[2] 0.75) (>= A[2] 0.125)))\n"
                            "(assert (or (>= B[0] D[0]) (and (== A[1] C[1]) (>= D[1] 1))))");
    ck_assert_int_eq(s->n_x, 6);
    ck_assert_int_eq(s->n_cases, 2);
    vfy_ties t;
    vfy_error e;
    ck_assert_int_eq(vfy_ties_find(s, &t, &e), VFY_OK);
    /* A[0] = C[0] and A[2] = C[2] in both cases; A[1] = C[1] in the second only: not tied */
    ck_assert_int_eq(t.n_z, 4);
    int64_t want[6] = {0, 1, 2, 0, 3, 2};
    for (int j = 0; j < 6; j++)
        ck_assert_int_eq(t.rep[j], want[j]);
    ck_assert_int_eq(vfy_ties_apply_spec(&t, s, "t.vnnlib", &e), VFY_OK);
    ck_assert_int_eq(s->n_x, 4);
    ck_assert_int_eq(s->n_cases, 2);
    const vfy_box *bx = &s->boxes[s->cases[0].box];
    /* z_2 = A[2] = C[2]: [0, 1] and C[2] <= 0.75, A[2] >= 0.125; z_3 = C[1] in [0.25, 0.5] */
    ck_assert(bx->lo[0] == -1 && bx->hi[0] == 1);
    ck_assert(bx->lo[2] == 0.125 && bx->hi[2] == 0.75);
    ck_assert(bx->in_lo[2] == 0.125 && bx->in_hi[2] == 0.75);
    ck_assert(bx->lo[3] == 0.25 && bx->hi[3] == 0.5);
    /* case 1: C[1] <= A[1] and the output row; the equalities are gone */
    ck_assert_int_eq(s->cases[0].n_rows, 2);
    for (int64_t c = 0; c < s->n_cases; c++)
        for (int64_t r = 0; r < s->cases[c].n_rows; r++) {
            const vfy_row *row = &s->cases[c].rows[r];
            if (!row->cx)
                continue;
            int64_t nz = 0;
            for (int j = 0; j < 4; j++)
                nz += row->cx[j] != 0.0;
            ck_assert_int_ge(nz, 1);
            ck_assert(row->cx[0] == 0.0 && row->cx[2] == 0.0); /* only the untied A[1], C[1] */
        }
    /* the network: a copy layer in front of the product */
    int64_t h[1] = {5};
    vfy_net *f = testnet_random(41, 3, h, 1, 2, 1.0, 0);
    vfy_net *g = testnet_random(42, 3, h, 1, 2, 1.0, 0);
    const vfy_net *parts[2] = {f, g};
    vfy_net *p = NULL, *p0 = NULL;
    ck_assert_int_eq(vfy_net_product(parts, NULL, 2, &p, &e), VFY_OK);
    ck_assert_int_eq(vfy_net_product(parts, NULL, 2, &p0, &e), VFY_OK);
    ck_assert_int_eq(vfy_ties_apply_net(&t, p, &e), VFY_OK);
    ck_assert_int_eq(p->n_in, 4);
    ck_assert_int_eq(p->n_layers, p0->n_layers + 1);
    double ws[512], z[4] = {0.3, -0.2, 0.7, 0.1}, x[6], y[4], y0[4];
    vfy_ties_expand(&t, z, x);
    ck_assert(x[0] == 0.3 && x[3] == 0.3 && x[2] == 0.7 && x[5] == 0.7 && x[1] == -0.2 &&
              x[4] == 0.1);
    vfy_eval_f64(p, z, y, ws);
    vfy_eval_f64(p0, x, y0, ws);
    for (int j = 0; j < 4; j++)
        ck_assert(y[j] == y0[j]);
    vfy_net_free(p);
    vfy_net_free(p0);
    vfy_net_free(f);
    vfy_net_free(g);
    vfy_ties_free(&t);
    vfy_spec_free(s);
}
END_TEST

/* A tied input whose real interval holds no double (A[1] = 0.1) keeps real_pt through the ties:
 * its class, whose other member (C[1], bounded through the equality) holds the point, gives
 * counterexamples its outer interval; two points of their own (0.1 against a literal of the same
 * enclosure) may differ, so their class gives none. */
START_TEST(test_ties_real_points)
{
#define NETS2 "(vnnlib-version <2.0>)\n"                                                         \
              "(declare-network f (declare-input A real [3]) (declare-output B real [2]))\n"     \
              "(declare-network g (isomorphic-to f) (declare-input C real [3])"                  \
              " (declare-output D real [2]))\n"                                                  \
              "(assert (and (>= A[0] -1) (<= A[0] 1) (== A[1] 0.1) (>= A[2] 0) (<= A[2] 1)))\n"  \
              "(assert (== A[1] C[1]))\n(assert (== A[0] C[0]))\n(assert (== A[2] C[2]))\n"
    const char *text[2] = {NETS2 "(assert (>= D[0] B[0]))",
                           NETS2 "(assert (== C[1] 0.10000000000000000001))\n"
                                 "(assert (>= D[0] B[0]))"};
    for (int k = 0; k < 2; k++) {
        vfy_error e;
        vfy_spec *s = parse(text[k]);
        double lo, hi;
        ck_assert_int_eq(vfy_box_cex_range(&s->boxes[0], 1, &lo, &hi), 2); /* A[1] */
        vfy_ties t;
        ck_assert_int_eq(vfy_ties_find(s, &t, &e), VFY_OK);
        ck_assert_int_eq(t.n_z, 3);
        ck_assert_int_eq(vfy_ties_apply_spec(&t, s, "t.vnnlib", &e), VFY_OK);
        int r = vfy_box_cex_range(&s->boxes[0], t.rep[1], &lo, &hi);
        REQUIRE_MSG(r == (k == 0 ? 2 : 0), "case %d: range %d", k, r);
        if (r == 2)
            ck_assert(lo < 0.1 && hi == 0.1 && s->boxes[0].lo[t.rep[1]] == lo); /* 0.1: a double */
        ck_assert_int_eq(vfy_box_cex_range(&s->boxes[0], t.rep[0], &lo, &hi), 1);
        vfy_ties_free(&t);
        vfy_spec_free(s);
    }
#undef NETS2
}
END_TEST

/* Ties whose boxes do not meet empty the region. The parser finds that itself (its bounds reach
 * through x_a - x_b <= 0); a box emptied only by the intersection drops its cases, or, when it is
 * every case's, is an error. */
START_TEST(test_ties_empty)
{
    vfy_error e;
    vfy_spec *s = NULL;
#define TIES3 "(assert (== A[1] C[1]))\n(assert (== A[0] C[0]))\n(assert (== A[2] C[2]))\n"
    const char *text = TWO TIES3
                           "(assert (or (and (>= C[1] 0.75) (<= C[1] 1)) (and (>= C[1] 0.25)"
                           " (<= C[1] 1))))\n(assert (>= D[0] B[0]))";
    s = parse(text);
    ck_assert_int_eq(s->n_cases, 1); /* C[1] = A[1] <= 0.5 meets C[1] >= 0.25 only */
    vfy_spec_free(s);
    const char *all = TWO "(assert (== A[1] C[1]))\n(assert (and (>= C[1] 0.75) (<= C[1] 1)))\n"
                          "(assert (and (>= C[0] 0) (<= C[0] 1) (>= C[2] 0) (<= C[2] 1)))\n"
                          "(assert (>= D[0] B[0]))";
    ck_assert_int_eq(vfy_spec_parse(all, strlen(all), "t.vnnlib", &s, &e), VFY_ERR_INVALID);
    ck_assert_msg(strstr(e.msg, "contradictory spec: the input region is empty"), "%s", e.msg);
    /* two cases on two boxes; one box's C[1] moved off A[1]'s by hand */
    s = parse(TWO TIES3 "(assert (or (and (>= C[1] 0.375) (<= C[1] 1))"
                        " (and (>= C[1] 0.25) (<= C[1] 1))))\n"
                  "(assert (>= D[0] B[0]))");
    ck_assert_int_eq(s->n_cases, 2);
    ck_assert_int_eq(s->n_boxes, 2);
    s->boxes[s->cases[0].box].lo[4] = 0.625;
    s->boxes[s->cases[0].box].in_lo[4] = 0.625;
    vfy_ties t;
    ck_assert_int_eq(vfy_ties_find(s, &t, &e), VFY_OK);
    ck_assert_int_eq(t.n_z, 3);
    ck_assert_int_eq(vfy_ties_apply_spec(&t, s, "t.vnnlib", &e), VFY_OK);
    ck_assert_int_eq(s->n_cases, 1);
    ck_assert(s->boxes[s->cases[0].box].lo[1] == 0.25 && s->boxes[s->cases[0].box].hi[1] == 0.5);
    vfy_ties_free(&t);
    vfy_spec_free(s);
    s = parse(TWO "(assert (== A[1] C[1]))\n(assert (and (>= C[1] 0.25) (<= C[1] 1)))\n"
                  "(assert (and (>= C[0] 0) (<= C[0] 1) (>= C[2] 0) (<= C[2] 1)))\n"
                  "(assert (>= D[0] B[0]))");
    s->boxes[0].lo[4] = s->boxes[0].in_lo[4] = 0.625;
    ck_assert_int_eq(vfy_ties_find(s, &t, &e), VFY_OK);
    ck_assert_int_eq(t.n_z, 5);
    ck_assert_int_eq(vfy_ties_apply_spec(&t, s, "t.vnnlib", &e), VFY_ERR_INVALID);
    ck_assert_msg(strstr(e.msg, "t.vnnlib: contradictory spec: the input equalities leave the "
                                "input region empty"), "%s", e.msg);
    vfy_ties_free(&t);
    vfy_spec_free(s);
}
END_TEST

/* No equalities, or only within some cases, or strict / offset ones: nothing tied. */
START_TEST(test_ties_none)
{
    vfy_spec *s = parse(TWO "(assert (and (>= C[0] 0) (<= C[0] 1) (>= C[2] 0) (<= C[2] 1)))\n"
                            "(assert (<= C[1] (+ A[1] 0.25)))\n(assert (>= C[1] (+ A[1] 0.25)))\n"
                            "(assert (>= D[0] B[0]))");
    vfy_ties t;
    vfy_error e;
    ck_assert_int_eq(vfy_ties_find(s, &t, &e), VFY_OK);
    ck_assert_int_eq(t.n_z, 6); /* C[1] = A[1] + 0.25 is not a tie (a constant) */
    /* ... but the comparisons bound C[1] through A[1] */
    ck_assert(s->boxes[0].lo[4] == 0.25 && s->boxes[0].hi[4] == 0.75);
    ck_assert_int_eq(vfy_ties_apply_spec(&t, s, "t.vnnlib", &e), VFY_OK);
    ck_assert_int_eq(s->n_x, 6);
    vfy_ties_free(&t);
    vfy_spec_free(s);
}
END_TEST

static Suite *product_suite(void)
{
    Suite *s = suite_create("product");
    TCase *tc = tcase_create("product");
    tcase_add_test(tc, test_product_eval);
    tcase_add_test(tc, test_product_bounds_sound);
    tcase_add_test(tc, test_product_errors);
    tcase_add_test(tc, test_net_same);
    tcase_add_test(tc, test_ties);
    tcase_add_test(tc, test_ties_empty);
    tcase_add_test(tc, test_ties_real_points);
    tcase_add_test(tc, test_ties_none);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(product_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
