#include "testnet.h"

#include <math.h>
#include <string.h>

double testnet_uniform(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1p-53;
}

/* A DENSE layer n_prev -> n with random float32-valued weights; 0 on failure (net freed). */
static int push_random_dense(vfy_net *net, uint64_t *st, int64_t prev, int64_t n, double scale)
{
    double *w = vfy_alloc_array((size_t)(n * prev), sizeof(double));
    double *b = vfy_alloc_array((size_t)n, sizeof(double));
    if (!w || !b) {
        vfy_free(w);
        vfy_free(b);
        return 0;
    }
    for (int64_t i = 0; i < n * prev; i++)
        w[i] = (double)(float)(scale * (2 * testnet_uniform(st) - 1));
    for (int64_t i = 0; i < n; i++)
        b[i] = (double)(float)(0.3 * scale * (2 * testnet_uniform(st) - 1));
    return vfy_net_push(net, VFY_LAYER_DENSE, prev, n, w, b, 0, prev, "dense", NULL) == VFY_OK;
}

vfy_net *testnet_random(uint64_t seed, int64_t n_in, const int64_t *hidden, int n_hidden,
                        int64_t n_out, double scale, int with_scale)
{
    return testnet_random_act(seed, n_in, hidden, n_hidden, n_out, scale, with_scale, NULL);
}

/* An empty network of n_in inputs and n_out outputs; NULL when out of memory. */
static vfy_net *empty_net(int64_t n_in, int64_t n_out)
{
    vfy_net *net = vfy_alloc(sizeof *net);
    if (net) {
        net->n_in = n_in;
        net->n_out = n_out;
    }
    return net;
}

vfy_net *testnet_random_act(uint64_t seed, int64_t n_in, const int64_t *hidden, int n_hidden,
                            int64_t n_out, double scale, int with_scale, const vfy_layer_kind *act)
{
    vfy_net *net = empty_net(n_in, n_out);
    if (!net)
        return NULL;
    uint64_t st = seed;
    if (with_scale) {
        double *w = vfy_alloc_array((size_t)n_in, sizeof(double));
        double *b = vfy_alloc_array((size_t)n_in, sizeof(double));
        if (!w || !b) {
            vfy_free(w);
            vfy_free(b);
            vfy_net_free(net);
            return NULL;
        }
        for (int64_t j = 0; j < n_in; j++) {
            w[j] = (double)(float)(0.5 + testnet_uniform(&st));
            b[j] = (double)(float)(testnet_uniform(&st) - 0.5);
        }
        if (vfy_net_push(net, VFY_LAYER_SCALE, n_in, n_in, w, b, 0x1p-53, 1, "scale", NULL) != VFY_OK) {
            vfy_net_free(net);
            return NULL;
        }
    }
    int64_t prev = n_in;
    for (int l = 0; l <= n_hidden; l++) {
        int64_t n = l < n_hidden ? hidden[l] : n_out;
        if (!push_random_dense(net, &st, prev, n, scale)) {
            vfy_net_free(net);
            return NULL;
        }
        if (l < n_hidden && vfy_net_push(net, act ? act[l] : VFY_LAYER_RELU, n, n, NULL, NULL, 0, 0,
                                         act ? "act" : "relu", NULL) != VFY_OK) {
            vfy_net_free(net);
            return NULL;
        }
        prev = n;
    }
    return net;
}

vfy_net *testnet_dense(int n_dense, const int64_t *sizes, const double *const *w,
                       const double *const *b)
{
    vfy_net *net = vfy_alloc(sizeof *net);
    if (!net)
        return NULL;
    net->n_in = sizes[0];
    net->n_out = sizes[n_dense];
    for (int l = 0; l < n_dense; l++) {
        int64_t ni = sizes[l], no = sizes[l + 1];
        double *ww = vfy_alloc_array((size_t)(ni * no), sizeof(double));
        double *bb = vfy_alloc_array((size_t)no, sizeof(double));
        if (!ww || !bb) {
            vfy_free(ww);
            vfy_free(bb);
            vfy_net_free(net);
            return NULL;
        }
        memcpy(ww, w[l], (size_t)(ni * no) * sizeof(double));
        memcpy(bb, b[l], (size_t)no * sizeof(double));
        if (vfy_net_push(net, VFY_LAYER_DENSE, ni, no, ww, bb, 0, ni, "dense", NULL) != VFY_OK ||
            (l + 1 < n_dense &&
             vfy_net_push(net, VFY_LAYER_RELU, no, no, NULL, NULL, 0, 0, "relu", NULL) != VFY_OK)) {
            vfy_net_free(net);
            return NULL;
        }
    }
    return net;
}

const testnet_shape testnet_shapes[4] = {
    {2, 2, 2, {8, 8}, 1.0, 0},
    {5, 5, 3, {20, 20, 20}, 0.5, 1},
    {3, 4, 4, {16, 12, 10, 8}, 0.8, 0},
    {10, 3, 1, {30}, 2.0, 1},
};

/* MAXPOOL n -> n / 2 with windows of k: window j reads inputs 2j .. 2j + k - 1 (past the end:
 * padding, -1), so windows overlap when k > 2. */
static int push_pool(vfy_net *net, int64_t n, int64_t k)
{
    int64_t m = n / 2;
    int64_t *pool = vfy_alloc_array((size_t)(m * k), sizeof(int64_t));
    if (!pool)
        return 0;
    for (int64_t j = 0; j < m; j++)
        for (int64_t t = 0; t < k; t++)
            pool[j * k + t] = 2 * j + t < n ? 2 * j + t : -1;
    return vfy_net_push_maxpool(net, n, m, k, pool, "maxpool", NULL) == VFY_OK;
}

vfy_net *testnet_random_pool(uint64_t seed, int64_t n_in, int64_t n_out, double scale)
{
    vfy_net *net = empty_net(n_in, n_out);
    if (!net)
        return NULL;
    uint64_t st = seed;
    int ok = push_random_dense(net, &st, n_in, 12, scale) &&
             vfy_net_push(net, VFY_LAYER_RELU, 12, 12, NULL, NULL, 0, 0, "relu", NULL) == VFY_OK &&
             push_pool(net, 12, 3) && push_random_dense(net, &st, 6, 10, scale) &&
             push_pool(net, 10, 2) &&
             vfy_net_push(net, VFY_LAYER_RELU, 5, 5, NULL, NULL, 0, 0, "relu", NULL) == VFY_OK &&
             push_random_dense(net, &st, 5, n_out, scale);
    if (!ok || vfy_net_validate(net, NULL) != VFY_OK) {
        vfy_net_free(net);
        return NULL;
    }
    return net;
}

/* PRODUCT of n inputs: six outputs (0 1), (2 2) a square, (3 -) a copy, (4 5), (n-1 n-1), (1 0). */
static int push_product(vfy_net *net, int64_t n)
{
    static const int64_t pr[12] = {0, 1, 2, 2, 3, -1, 4, 5, -2, -2, 1, 0};
    int64_t *pairs = vfy_alloc_array(12, sizeof(int64_t));
    if (!pairs)
        return 0;
    for (int t = 0; t < 12; t++)
        pairs[t] = pr[t] == -2 ? n - 1 : pr[t];
    return vfy_net_push_product(net, n, 6, pairs, "product", NULL) == VFY_OK;
}

vfy_net *testnet_random_product(uint64_t seed, int64_t n_in, int64_t n_out, double scale,
                                int on_input)
{
    vfy_net *net = empty_net(n_in, n_out);
    if (!net)
        return NULL;
    uint64_t st = seed;
    int ok = on_input ? n_in >= 6 && push_product(net, n_in) &&
                            push_random_dense(net, &st, 6, 8, scale)
                      : push_random_dense(net, &st, n_in, 8, scale);
    ok = ok && vfy_net_push(net, VFY_LAYER_RELU, 8, 8, NULL, NULL, 0, 0, "relu", NULL) == VFY_OK &&
         push_random_dense(net, &st, 8, 8, scale) && push_product(net, 8) &&
         vfy_net_push(net, VFY_LAYER_RELU, 6, 6, NULL, NULL, 0, 0, "relu", NULL) == VFY_OK &&
         push_random_dense(net, &st, 6, n_out, scale);
    if (!ok || vfy_net_validate(net, NULL) != VFY_OK) {
        vfy_net_free(net);
        return NULL;
    }
    return net;
}

/* An activation layer of n elements whose first n_pass pass through. */
static int push_act_pass(vfy_net *net, vfy_layer_kind kind, int64_t n, int64_t n_pass)
{
    if (vfy_net_push(net, kind, n, n, NULL, NULL, 0, 0, "act", NULL) != VFY_OK)
        return 0;
    net->layers[net->n_layers - 1].n_pass = n_pass;
    return 1;
}

vfy_net *testnet_random_gated(uint64_t seed, int64_t n_in, int64_t n_out, double scale)
{
    static const int64_t pr[12] = {0, 4, 1, 5, 2, 6, 3, 7, 0, 0, 5, -1};
    vfy_net *net = empty_net(n_in, n_out);
    if (!net)
        return NULL;
    uint64_t st = seed;
    int64_t *pairs = vfy_alloc_array(12, sizeof(int64_t));
    if (pairs)
        memcpy(pairs, pr, sizeof pr);
    int ok = pairs && push_random_dense(net, &st, n_in, 8, scale) &&
             push_act_pass(net, VFY_LAYER_SIGMOID, 8, 4) &&
             vfy_net_push_product(net, 8, 6, pairs, "gate", NULL) == VFY_OK &&
             vfy_net_push(net, VFY_LAYER_RELU, 6, 6, NULL, NULL, 0, 0, "relu", NULL) == VFY_OK &&
             push_random_dense(net, &st, 6, 8, scale) && push_act_pass(net, VFY_LAYER_TANH, 8, 3) &&
             push_random_dense(net, &st, 8, n_out, scale);
    if (!ok || vfy_net_validate(net, NULL) != VFY_OK) {
        vfy_net_free(net);
        return NULL;
    }
    return net;
}

float testnet_adversarial_row(float *t)
{
    float sum = 1.5f;
    t[0] = 1.5f;
    for (int k = 1; k < TESTNET_ADV_TERMS; k++) {
        /* U: the float32 ulp of the next sum; the new term puts it just below a midpoint */
        int e;
        frexp((double)sum + 1.5, &e);
        double U = ldexp(1.0, e - 24), r = U / 2 - 0x1p-23;
        double need = fmod(fmod(r - fmod((double)sum + 1.0, U), U) + U, U);
        t[k] = (float)(1.0 + need < 2.0 ? 1.0 + need : 1.5);
        volatile float next = sum + t[k];
        sum = next;
    }
    return sum;
}

vfy_net *testnet_adversarial_net(float *y)
{
    float t[TESTNET_ADV_TERMS];
    double w[TESTNET_ADV_TERMS], b0 = 0;
    *y = testnet_adversarial_row(t);
    for (int k = 0; k < TESTNET_ADV_TERMS; k++)
        w[k] = t[k];
    const double *wl[1] = {w}, *bl[1] = {&b0};
    int64_t sizes[2] = {TESTNET_ADV_TERMS, 1};
    return testnet_dense(1, sizes, wl, bl);
}
