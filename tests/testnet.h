/* Helpers shared by the Check suites: small networks built in memory. */
#ifndef VFY_TESTNET_H
#define VFY_TESTNET_H

#include "vfy/net.h"

/* A random fully-connected ReLU network n_in -> hidden[0] -> ... -> n_out with float32-valued
 * weights in [-scale, scale] (deterministic in seed). with_scale adds a SCALE layer (input
 * normalisation) in front. Returns NULL on allocation failure. */
vfy_net *testnet_random(uint64_t seed, int64_t n_in, const int64_t *hidden, int n_hidden,
                        int64_t n_out, double scale, int with_scale);
/* The same with the activation after hidden layer l given by act[l] (RELU, SIGMOID or TANH). */
vfy_net *testnet_random_act(uint64_t seed, int64_t n_in, const int64_t *hidden, int n_hidden,
                            int64_t n_out, double scale, int with_scale, const vfy_layer_kind *act);
/* A network from explicit DENSE layers separated by ReLUs: sizes[0..n_dense], weights row-major. */
vfy_net *testnet_dense(int n_dense, const int64_t *sizes, const double *const *w,
                       const double *const *b);
/* A random network with MAXPOOL layers: n_in -> DENSE 12 -> RELU -> MAXPOOL 6 (windows of 3,
 * overlapping, with padding) -> DENSE 10 -> MAXPOOL 5 (windows of 2, on pre-activations) -> RELU
 * -> DENSE n_out, float32-valued weights in [-scale, scale]. */
vfy_net *testnet_random_pool(uint64_t seed, int64_t n_in, int64_t n_out, double scale);
/* A net with two PRODUCT layers (products, squares, a copy; testnet.c), the first on the inputs
 * when on_input (n_in >= 6), else after a DENSE layer; ReLU after each. */
vfy_net *testnet_random_product(uint64_t seed, int64_t n_in, int64_t n_out, double scale,
                                int on_input);
/* x -> DENSE 8 -> SIGMOID (the first 4 passed through) -> PRODUCT (a x sigmoid(b) gates, a
 * square, a copy) -> RELU -> DENSE 8 -> TANH (the first 3 passed through) -> DENSE n_out. */
vfy_net *testnet_random_gated(uint64_t seed, int64_t n_in, int64_t n_out, double scale);
double testnet_uniform(uint64_t *state); /* [0,1) */
/* TESTNET_ADV_TERMS float32 values in [1, 2) written to t, each chosen so that their running
 * float32 sum in index order (returned) rounds down by almost half an ulp at every step: a row
 * whose float32 execution comes within a factor 2 of the allowance vfy_la_exec_err32 charges. */
#define TESTNET_ADV_TERMS 300
float testnet_adversarial_row(float *t);
/* That row as a network: one DENSE layer TESTNET_ADV_TERMS -> 1 with the terms as weights and bias
 * 0; *y is its float32 execution at x = 1 (all inputs) in index order. NULL when out of memory. */
vfy_net *testnet_adversarial_net(float *y);

/* Four shapes of random networks (arguments of testnet_random) shared by the bound suites. */
typedef struct testnet_shape {
    int64_t n_in, n_out;
    int n_hidden;
    int64_t hidden[4];
    double scale;
    int with_scale;
} testnet_shape;
extern const testnet_shape testnet_shapes[4];

/* The convex kinds (EXP, RECIP, SQRT, LOG, SOFTPLUS): the real f at z in long double, and 1 when
 * sl z + tl <= f(z) <= su z + tu provably holds at z (an enclosure of f, the lines' values in
 * __float128; testnet.c); an infinite intercept is no line (it holds). */
long double testnet_cvx_ref(vfy_layer_kind kind, double z);
/* Points c of each convex kind with the float claim's allowance rel |f| + ab there (bound.c's and
 * checker.c's): the allowance tests' cases, TESTNET_CVX_PTS of them. */
typedef struct testnet_cvx_pt {
    vfy_layer_kind k;
    double c, rel, ab;
} testnet_cvx_pt;
#define TESTNET_CVX_PTS 11
extern const testnet_cvx_pt testnet_cvx_pts[TESTNET_CVX_PTS];
int testnet_cvx_holds(vfy_layer_kind kind, double z, double sl, double tl, double su, double tu);
/* A random interval of class cls (0..6: narrow, wide, near a pole or from 0, moderate, a point,
 * two adjacent doubles, tiny) in kind's domain ((0, inf) for RECIP, SQRT, LOG). */
void testnet_cvx_interval(vfy_layer_kind kind, uint64_t *st, int cls, double *l, double *u);
/* The convex kinds (EXP, RECIP, SQRT, LOG, SOFTPLUS) and their names, and the rep-th case of the
 * line tests: kind testnet_cvx_kinds[rep % 5] (*ki), an interval of class (rep / 5) % 7, RECIP's
 * on v < 0 every other time (rep / 35 odd). */
extern const vfy_layer_kind testnet_cvx_kinds[5];
extern const char *const testnet_cvx_names[5];
void testnet_cvx_case(int rep, uint64_t *st, int *ki, double *l, double *u);

#endif
