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

/* The real f at a double z, in long double from libm (glibc's long double functions are within a
 * few ulp, 2^-62; sqrtl and the division correctly rounded), enclosed in [f - |f| 2^-60,
 * f + |f| 2^-60]; a line's value s z + t is taken in __float128, where s z is exact (106 bits) and
 * the sum rounded once, within 2^-113 of its own magnitude. A lower line holds at z when its value
 * plus that rounding is at most the enclosure's low end (and an upper line symmetrically): no
 * tolerance in the permissive direction. */
const testnet_cvx_pt testnet_cvx_pts[TESTNET_CVX_PTS] = {
    {VFY_LAYER_EXP, 3, 0x1p-21, 0x1p-146},      {VFY_LAYER_EXP, -20, 0x1p-21, 0x1p-146},
    {VFY_LAYER_RECIP, 3, 0x1p-24, 0x1p-149},    {VFY_LAYER_RECIP, -7, 0x1p-24, 0x1p-149},
    {VFY_LAYER_SQRT, 2, 0x1p-24, 0},            {VFY_LAYER_SQRT, 0x1p40, 0x1p-24, 0},
    {VFY_LAYER_LOG, 5, 0x1p-21, 0x1p-146},      {VFY_LAYER_LOG, 0x1p-10, 0x1p-21, 0x1p-146},
    {VFY_LAYER_SOFTPLUS, 0.5, 0x1p-21, 0x1p-21}, {VFY_LAYER_SOFTPLUS, -30, 0x1p-21, 0x1p-21},
    {VFY_LAYER_SOFTPLUS, 40, 0x1p-21, 0x1p-21}};

long double testnet_cvx_ref(vfy_layer_kind kind, double z)
{
    long double x = z;
    switch (kind) {
    case VFY_LAYER_EXP: return expl(x);
    case VFY_LAYER_RECIP: return 1.0L / x;
    case VFY_LAYER_SQRT: return sqrtl(x);
    case VFY_LAYER_LOG: return logl(x);
    default: return (x > 0 ? x : 0) + log1pl(expl(-fabsl(x)));
    }
}

static __float128 q_abs(__float128 v) { return v < 0 ? -v : v; }

/* 1 when sl z + tl <= f(z) <= su z + tu holds at z (see above). Softplus: f = m + L, m = max(z,
 * 0) exact, L = log1p(e^-|z|) > 0 within 2^-60 L + 2^-16000 (its underflow in long double), the
 * sum rounded once in __float128; a constant line at most m lies below f (f > m). */
int testnet_cvx_holds(vfy_layer_kind kind, double z, double sl, double tl, double su, double tu)
{
    __float128 f = (__float128)testnet_cvx_ref(kind, z), e = q_abs(f) * 0x1p-60Q;
    if (kind == VFY_LAYER_SOFTPLUS) {
        double m = z > 0 ? z : 0;
        long double L = log1pl(expl(-fabsl((long double)z)));
        f = (__float128)m + (__float128)L;
        e = (__float128)L * 0x1p-60Q + 0x1p-16000Q + q_abs(f) * 0x1p-112Q;
        if (sl == 0 && tl <= m)
            tl = -INFINITY; /* (holds exactly) */
    }
    __float128 lo = (__float128)sl * z + tl, hi = (__float128)su * z + tu;
    if (tl == -INFINITY || tu == INFINITY) /* (no line on that side: it holds trivially) */
        return (tl == -INFINITY || lo + q_abs(lo) * 0x1p-112Q <= f - e) &&
               (tu == INFINITY || f + e <= hi - q_abs(hi) * 0x1p-112Q);
    lo += q_abs(lo) * 0x1p-112Q;
    hi -= q_abs(hi) * 0x1p-112Q;
    return lo <= f - e && f + e <= hi;
}


/* A random interval of class cls in the domain of kind (RECIP's side by the caller's sign). */
void testnet_cvx_interval(vfy_layer_kind kind, uint64_t *st, int cls, double *l, double *u)
{
    double a = testnet_uniform(st), b = testnet_uniform(st);
    double w = ldexp(1.0, -(int)(2 + 50 * testnet_uniform(st))); /* a relative width */
    int pos = kind == VFY_LAYER_RECIP || kind == VFY_LAYER_SQRT || kind == VFY_LAYER_LOG;
    if (pos) { /* in (0, inf): log-uniform ends, near the pole, huge, narrow, points */
        double c = pow(10, 600 * a - 300);
        switch (cls) {
        case 0: *l = c; *u = c * (1 + w); break;
        case 1: *l = fmin(c, pow(10, 600 * b - 300)); *u = fmax(c, pow(10, 600 * b - 300)); break;
        case 2: *l = kind == VFY_LAYER_SQRT && a < 0.5 ? 0.0 : ldexp(1.0, -1074 + (int)(60 * a));
                *u = pow(10, 4 * b - 2); break;
        case 3: *l = 1e-3 + a; *u = *l * (1 + 10 * b); break;
        case 4: *l = *u = c; break;
        case 5: *l = c; *u = nextafter(c, INFINITY); break;
        default: *l = 0.5 + a; *u = *l + 4 * b; break;
        }
        if (kind == VFY_LAYER_SQRT && cls == 6 && a < 0.3)
            *l = 0.0;
    } else { /* every real: exp up to 700, softplus anywhere */
        double top = kind == VFY_LAYER_EXP ? 700 : 1e6, c = (2 * a - 1) * top;
        switch (cls) {
        case 0: *l = c; *u = fmin(c + w * fmax(fabs(c), 1), top); break;
        case 1: *l = fmin(c, (2 * b - 1) * top); *u = fmax(c, (2 * b - 1) * top); break;
        case 2: *l = -60 * a; *u = 80 * b; break;
        case 3: *l = 20 * a - 10; *u = *l + 20 * b; break;
        case 4: *l = *u = c; break;
        case 5: *l = c; *u = nextafter(c, INFINITY); break;
        default: *l = (2 * a - 1) * 40; *u = *l + 1e-6 * b; break;
        }
        if (kind == VFY_LAYER_SOFTPLUS && cls == 1 && a < 0.2) { /* beyond exp's range */
            *l = -1e300 * b;
            *u = 1e300 * a;
        }
    }
}

const vfy_layer_kind testnet_cvx_kinds[5] = {VFY_LAYER_EXP, VFY_LAYER_RECIP, VFY_LAYER_SQRT,
                                             VFY_LAYER_LOG, VFY_LAYER_SOFTPLUS};
const char *const testnet_cvx_names[5] = {"exp", "recip", "sqrt", "log", "softplus"};

void testnet_cvx_case(int rep, uint64_t *st, int *ki, double *l, double *u)
{
    *ki = rep % 5;
    testnet_cvx_interval(testnet_cvx_kinds[*ki], st, (rep / 5) % 7, l, u);
    if (*ki == 1 && (rep / 35) % 2) { /* 1/v on v < 0 (concave) */
        double t = -*u;
        *u = -*l;
        *l = t;
    }
}
