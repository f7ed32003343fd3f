/* net: the layer chain. See include/vfy/net.h. */
#include "vfy/net.h"
#include "vfy/spec.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void vfy_net_free(vfy_net *net)
{
    if (!net)
        return;
    for (int64_t i = 0; i < net->n_layers; i++) {
        vfy_free(net->layers[i].w);
        vfy_free(net->layers[i].b);
        vfy_free(net->layers[i].pool);
        vfy_la_csr_free(net->layers[i].csr);
        vfy_la_conv_free(net->layers[i].conv);
    }
    vfy_free(net->layers);
    for (int64_t k = 0; k < net->n_ins; k++)
        vfy_free(net->ins[k].name);
    for (int64_t k = 0; k < net->n_outs; k++)
        vfy_free(net->outs[k].name);
    vfy_free(net->ins);
    vfy_free(net->outs);
    vfy_free(net);
}

static const char *const kind_names[] = {"dense", "scale", "relu", "sigmoid", "tanh", "maxpool",
                                          "product", "sign", "exp", "recip", "sqrt", "log",
                                          "softplus", "sin", "cos", "erf", "gelu", "silu",
                                          "erfgate"};
_Static_assert(sizeof kind_names / sizeof kind_names[0] == VFY_LAYER_KIND_COUNT, "one name per kind");

/* A zeroed layer at the end of net; NULL (err set) when out of memory. */
static vfy_layer *append_layer(vfy_net *net, vfy_error *err)
{
    vfy_layer *nl = vfy_realloc(net->layers, (size_t)(net->n_layers + 1) * sizeof *nl);
    if (!nl) {
        vfy_fail(err, VFY_ERR_NOMEM, "out of memory building the network");
        return NULL;
    }
    net->layers = nl;
    vfy_layer *L = &net->layers[net->n_layers++];
    memset(L, 0, sizeof *L);
    return L;
}

/* Append a DENSE, SCALE or activation layer whose matrix is w (dense) or csr (sparse, DENSE only);
 * takes ownership of w, csr and b, freed on failure. */
static vfy_status push_layer(vfy_net *net, vfy_layer_kind kind, int64_t n_in, int64_t n_out,
                             double *w, vfy_csr *csr, double *b, double w_relerr, int64_t fan_in,
                             const char *name, vfy_error *err)
{
    int64_t prev = net->n_layers ? net->layers[net->n_layers - 1].n_out : net->n_in;
    vfy_status st = VFY_OK;
    if (kind < 0 || kind >= VFY_LAYER_KIND_COUNT) {
        st = vfy_fail(err, VFY_ERR_INTERNAL, "net: bad layer kind %d", (int)kind);
        goto fail;
    }
    if (kind == VFY_LAYER_MAXPOOL || kind == VFY_LAYER_PRODUCT) {
        st = vfy_fail(err, VFY_ERR_INTERNAL, "net: a %s layer takes vfy_net_push_%s",
                      kind_names[kind], kind_names[kind]);
        goto fail;
    }
    if (n_in != prev || n_in <= 0 || n_out <= 0 || (kind != VFY_LAYER_DENSE && n_in != n_out)) {
        st = vfy_fail(err, VFY_ERR_INVALID, "layer '%s' (%s): size %lld -> %lld does not follow %lld",
                      name ? name : "?", kind_names[kind], (long long)n_in, (long long)n_out,
                      (long long)prev);
        goto fail;
    }
    int has_w = csr ? kind == VFY_LAYER_DENSE && !w && csr->m == n_out && csr->n == n_in
                    : w != NULL;
    if (vfy_layer_is_act(kind) ? (w || csr || b) : (!has_w || !b)) {
        st = vfy_fail(err, VFY_ERR_INTERNAL, "layer '%s': %s weights", name ? name : "?",
                      vfy_layer_is_act(kind) ? "unexpected" : "missing or misshaped");
        goto fail;
    }
    vfy_layer *L = append_layer(net, err);
    if (!L) {
        st = VFY_ERR_NOMEM;
        goto fail;
    }
    L->kind = kind;
    L->n_in = n_in;
    L->n_out = n_out;
    L->w = w;
    L->csr = csr;
    L->b = b;
    L->w_relerr = w_relerr;
    L->fan_in = fan_in > 0 ? fan_in : (kind == VFY_LAYER_DENSE ? n_in : 1);
    snprintf(L->name, sizeof L->name, "%s", name ? name : kind_names[kind]);
    return VFY_OK;
fail:
    vfy_free(w);
    vfy_la_csr_free(csr);
    vfy_free(b);
    return st;
}

vfy_status vfy_net_push(vfy_net *net, vfy_layer_kind kind, int64_t n_in, int64_t n_out,
                        double *w, double *b, double w_relerr, int64_t fan_in, const char *name,
                        vfy_error *err)
{
    return push_layer(net, kind, n_in, n_out, w, NULL, b, w_relerr, fan_in, name, err);
}

vfy_status vfy_net_push_csr(vfy_net *net, int64_t n_in, int64_t n_out, vfy_csr *csr, double *b,
                            double w_relerr, int64_t fan_in, const char *name, vfy_error *err)
{
    if (!csr) {
        vfy_free(b);
        return vfy_fail(err, VFY_ERR_INTERNAL, "layer '%s': missing sparse weights",
                        name ? name : "?");
    }
    return push_layer(net, VFY_LAYER_DENSE, n_in, n_out, NULL, csr, b, w_relerr, fan_in, name, err);
}

/* A MAXPOOL or PRODUCT layer: n_out windows of pool_k input indices (owned; freed on failure). */
static vfy_status push_indexed(vfy_net *net, vfy_layer_kind kind, int64_t n_in, int64_t n_out,
                               int64_t pool_k, int64_t *pool, const char *name, vfy_error *err)
{
    int64_t prev = net->n_layers ? net->layers[net->n_layers - 1].n_out : net->n_in;
    if (!pool || n_in != prev || n_in <= 0 || n_out <= 0 || pool_k <= 0) {
        vfy_free(pool);
        return vfy_fail(err, VFY_ERR_INVALID, "layer '%s' (%s): size %lld -> %lld (window %lld) "
                        "does not follow %lld", name ? name : "?", kind_names[kind],
                        (long long)n_in, (long long)n_out, (long long)pool_k, (long long)prev);
    }
    vfy_layer *L = append_layer(net, err);
    if (!L) {
        vfy_free(pool);
        return VFY_ERR_NOMEM;
    }
    L->kind = kind;
    L->n_in = n_in;
    L->n_out = n_out;
    L->fan_in = 1;
    L->pool_k = pool_k;
    L->pool = pool;
    snprintf(L->name, sizeof L->name, "%s", name ? name : kind_names[kind]);
    return VFY_OK;
}

vfy_status vfy_net_push_maxpool(vfy_net *net, int64_t n_in, int64_t n_out, int64_t pool_k,
                                int64_t *pool, const char *name, vfy_error *err)
{
    return push_indexed(net, VFY_LAYER_MAXPOOL, n_in, n_out, pool_k, pool, name, err);
}

vfy_status vfy_net_push_product(vfy_net *net, int64_t n_in, int64_t n_out, int64_t *pairs,
                                const char *name, vfy_error *err)
{
    return push_indexed(net, VFY_LAYER_PRODUCT, n_in, n_out, 2, pairs, name, err);
}

/* A MAXPOOL layer's windows: indices in [-1, n_in), at least one input each; a PRODUCT layer's
 * pairs: the first index in [0, n_in), the second in [-1, n_in). */
static vfy_status validate_pool(const vfy_layer *L, vfy_error *err)
{
    const char *kn = kind_names[L->kind];
    if (L->w || L->b || !L->pool || L->pool_k <= 0 ||
        (L->kind == VFY_LAYER_PRODUCT && L->pool_k != 2))
        return vfy_fail(err, VFY_ERR_INVALID, "layer '%s' (%s): no windows, or weights", L->name,
                        kn);
    for (int64_t j = 0; j < L->n_out; j++) {
        int64_t n = 0;
        for (int64_t t = 0; t < L->pool_k; t++) {
            int64_t i = L->pool[j * L->pool_k + t];
            if (i < -1 || i >= L->n_in || (i < 0 && t == 0 && L->kind == VFY_LAYER_PRODUCT))
                return vfy_fail(err, VFY_ERR_INVALID, "layer '%s' (%s): window %lld reads "
                                "input %lld of %lld", L->name, kn, (long long)j, (long long)i,
                                (long long)L->n_in);
            n += i >= 0;
        }
        if (n == 0)
            return vfy_fail(err, VFY_ERR_INVALID, "layer '%s' (%s): window %lld is empty",
                            L->name, kn, (long long)j);
    }
    return VFY_OK;
}

vfy_status vfy_net_prefix(const vfy_net *net, int64_t n_layers, vfy_net **out, vfy_error *err)
{
    *out = NULL;
    if (n_layers < 1 || n_layers > net->n_layers)
        return vfy_fail(err, VFY_ERR_INVALID, "net: no prefix of %lld layers in %lld",
                        (long long)n_layers, (long long)net->n_layers);
    vfy_net *p = vfy_alloc(sizeof *p);
    if (!p)
        return vfy_fail(err, VFY_ERR_NOMEM, "out of memory building a prefix network");
    p->n_in = net->n_in;
    p->in_rank = net->in_rank;
    memcpy(p->in_shape, net->in_shape, sizeof p->in_shape);
    p->n_out = net->layers[n_layers - 1].n_out;
    p->out_rank = 1;
    p->out_shape[0] = p->n_out;
    vfy_status st = VFY_OK;
    for (int64_t k = 0; k < n_layers && st == VFY_OK; k++) {
        const vfy_layer *L = &net->layers[k];
        if (L->kind == VFY_LAYER_MAXPOOL || L->kind == VFY_LAYER_PRODUCT) {
            int64_t *pool = vfy_alloc_array((size_t)(L->n_out * L->pool_k), sizeof(int64_t));
            if (!pool) {
                st = vfy_fail(err, VFY_ERR_NOMEM, "out of memory building a prefix network");
                break;
            }
            memcpy(pool, L->pool, (size_t)(L->n_out * L->pool_k) * sizeof(int64_t));
            st = push_indexed(p, L->kind, L->n_in, L->n_out, L->pool_k, pool, L->name, err);
            continue;
        }
        if (L->csr) {
            vfy_csr *c = vfy_la_csr_copy(L->csr);
            double *b = vfy_alloc_array((size_t)L->n_out, sizeof(double));
            if (!c || !b) {
                vfy_la_csr_free(c);
                vfy_free(b);
                st = vfy_fail(err, VFY_ERR_NOMEM, "out of memory building a prefix network");
                break;
            }
            memcpy(b, L->b, (size_t)L->n_out * sizeof(double));
            st = vfy_net_push_csr(p, L->n_in, L->n_out, c, b, L->w_relerr, L->fan_in, L->name, err);
            if (st == VFY_OK && L->conv) /* (none when out of memory: the CSR kernels serve) */
                p->layers[p->n_layers - 1].conv = vfy_la_conv_copy(L->conv);
            continue;
        }
        double *w = NULL, *b = NULL;
        if (L->w) {
            size_t n = (size_t)(L->kind == VFY_LAYER_DENSE ? L->n_out * L->n_in : L->n_out);
            w = vfy_alloc_array(n, sizeof(double));
            b = vfy_alloc_array((size_t)L->n_out, sizeof(double));
            if (!w || !b) {
                vfy_free(w);
                vfy_free(b);
                st = vfy_fail(err, VFY_ERR_NOMEM, "out of memory building a prefix network");
                break;
            }
            memcpy(w, L->w, n * sizeof(double));
            memcpy(b, L->b, (size_t)L->n_out * sizeof(double));
        }
        st = vfy_net_push(p, L->kind, L->n_in, L->n_out, w, b, L->w_relerr, L->fan_in, L->name, err);
        if (st == VFY_OK)
            p->layers[p->n_layers - 1].n_pass = L->n_pass;
    }
    if (st != VFY_OK) {
        vfy_net_free(p);
        return st;
    }
    *out = p;
    return VFY_OK;
}

void vfy_net_bind_conv(vfy_net *net, int64_t k, const vfy_conv_geom *g, int64_t c0)
{
    if (k < 0 || k >= net->n_layers)
        return;
    vfy_layer *L = &net->layers[k];
    vfy_la_conv_free(L->conv);
    L->conv = L->kind == VFY_LAYER_DENSE && L->csr ? vfy_la_conv_match(g, L->csr, c0) : NULL;
}

vfy_status vfy_net_sparsify(vfy_net *net, double max_density, int64_t min_entries, vfy_error *err)
{
    for (int64_t k = 0; k < net->n_layers; k++) {
        vfy_layer *L = &net->layers[k];
        if (L->kind != VFY_LAYER_DENSE || L->csr || L->n_in * L->n_out < min_entries)
            continue;
        if (!vfy_la_csr_build(L->n_out, L->n_in, L->w, max_density, &L->csr))
            return vfy_fail(err, VFY_ERR_NOMEM, "out of memory building the network");
        if (L->csr) { /* the sparse form replaces the dense one */
            vfy_free(L->w);
            L->w = NULL;
        }
    }
    return VFY_OK;
}

/* A sparse layer's rows: shape n_out x n_in, columns increasing within a row and in range, values
 * finite and nonzero. */
static vfy_status validate_csr(const vfy_layer *L, vfy_error *err)
{
    const vfy_csr *c = L->csr;
    if (c->m != L->n_out || c->n != L->n_in || c->row_start[0] != 0 || c->row_start[c->m] != c->nnz)
        return vfy_fail(err, VFY_ERR_INVALID, "layer '%s': sparse weights of the wrong shape",
                        L->name);
    for (int64_t j = 0; j < c->m; j++) {
        if (c->row_start[j + 1] < c->row_start[j])
            return vfy_fail(err, VFY_ERR_INVALID, "layer '%s': sparse row %lld malformed", L->name,
                            (long long)j);
        for (int64_t p = c->row_start[j]; p < c->row_start[j + 1]; p++)
            if (c->col[p] < 0 || c->col[p] >= c->n ||
                (p > c->row_start[j] && c->col[p] <= c->col[p - 1]) || !isfinite(c->val[p]) ||
                c->val[p] == 0)
                return vfy_fail(err, VFY_ERR_INVALID, "layer '%s': sparse row %lld: entry %lld "
                                "malformed or not finite", L->name, (long long)j, (long long)p);
    }
    return VFY_OK;
}

vfy_status vfy_net_validate(const vfy_net *net, vfy_error *err)
{
    if (net->n_in <= 0 || net->n_out <= 0)
        return vfy_fail(err, VFY_ERR_INVALID, "network has an empty input or output");
    int64_t prev = net->n_in;
    for (int64_t i = 0; i < net->n_layers; i++) {
        const vfy_layer *L = &net->layers[i];
        if (L->n_in != prev)
            return vfy_fail(err, VFY_ERR_INVALID, "layer %lld '%s' takes %lld values, gets %lld",
                            (long long)i, L->name, (long long)L->n_in, (long long)prev);
        if (L->kind < 0 || L->kind >= VFY_LAYER_KIND_COUNT)
            return vfy_fail(err, VFY_ERR_INVALID, "layer %lld: bad kind %d", (long long)i, (int)L->kind);
        if (L->kind == VFY_LAYER_MAXPOOL || L->kind == VFY_LAYER_PRODUCT) {
            vfy_status st = validate_pool(L, err);
            if (st != VFY_OK)
                return st;
            prev = L->n_out;
            continue;
        }
        if (L->n_pass < 0 || L->n_pass > L->n_in ||
            (L->n_pass > 0 && !vfy_layer_passes(L->kind)))
            return vfy_fail(err, VFY_ERR_INVALID, "layer '%s' (%s): %lld elements passed through",
                            L->name, kind_names[L->kind], (long long)L->n_pass);
        if (vfy_layer_is_act(L->kind) && (L->n_in != L->n_out || L->w || L->b))
            return vfy_fail(err, VFY_ERR_INVALID, "layer '%s' (%s): an activation maps %lld values "
                            "to %lld%s", L->name, kind_names[L->kind], (long long)L->n_in,
                            (long long)L->n_out, L->w || L->b ? " and has weights" : "");
        if (L->kind == VFY_LAYER_DENSE && !L->w == !L->csr)
            return vfy_fail(err, VFY_ERR_INVALID, "layer '%s': %s", L->name,
                            L->w ? "both dense and sparse weights" : "no weights");
        if (L->csr) {
            vfy_status st = validate_csr(L, err);
            if (st != VFY_OK)
                return st;
        }
        int64_t nw = L->kind == VFY_LAYER_DENSE ? (L->w ? L->n_in * L->n_out : 0)
                   : L->kind == VFY_LAYER_SCALE ? L->n_out : 0;
        for (int64_t k = 0; k < nw; k++)
            if (!isfinite(L->w[k]))
                return vfy_fail(err, VFY_ERR_INVALID, "layer '%s': weight %lld is not finite",
                                L->name, (long long)k);
        if (!vfy_layer_is_act(L->kind))
            for (int64_t k = 0; k < L->n_out; k++)
                if (!isfinite(L->b[k]))
                    return vfy_fail(err, VFY_ERR_INVALID, "layer '%s': bias %lld is not finite",
                                    L->name, (long long)k);
        if (!(L->w_relerr >= 0 && L->w_relerr < 1e-3))
            return vfy_fail(err, VFY_ERR_INVALID, "layer '%s': weight error bound %g out of range",
                            L->name, L->w_relerr);
        prev = L->n_out;
    }
    if (prev != net->n_out)
        return vfy_fail(err, VFY_ERR_INVALID, "network output has %lld values, expected %lld",
                        (long long)prev, (long long)net->n_out);
    return VFY_OK;
}

int64_t vfy_net_max_width(const vfy_net *net)
{
    int64_t m = net->n_in;
    for (int64_t i = 0; i < net->n_layers; i++) {
        if (net->layers[i].n_out > m)
            m = net->layers[i].n_out;
    }
    return m;
}

float vfy_act_f32(vfy_layer_kind kind, float x)
{
    switch (kind) {
    case VFY_LAYER_RELU: return x > 0 ? x : 0.0f;
    case VFY_LAYER_SIGMOID:
        if (x >= 0)
            return 1.0f / (1.0f + expf(-x));
        else {
            float e = expf(x);
            return e / (1.0f + e);
        }
    case VFY_LAYER_TANH: return tanhf(x);
    case VFY_LAYER_SIGN: return x > 0 ? 1.0f : (x < 0 ? -1.0f : x); /* (0, -0, NaN: as they are) */
    case VFY_LAYER_EXP: return expf(x);
    case VFY_LAYER_RECIP: return 1.0f / x;
    case VFY_LAYER_SQRT: return sqrtf(x);
    case VFY_LAYER_LOG: return logf(x);
    case VFY_LAYER_SOFTPLUS: /* max(x, 0) + log1p(exp(-|x|)): never overflows */
        return x != x ? x : fmaxf(x, 0.0f) + log1pf(expf(-fabsf(x)));
    case VFY_LAYER_SIN: return sinf(x);
    case VFY_LAYER_COS: return cosf(x);
    case VFY_LAYER_ERF: return erff(x);
    case VFY_LAYER_GELU: return 0.5f * (x * (1.0f + erff(x * 0.70710678118654752440f)));
    case VFY_LAYER_SILU: return x * vfy_act_f32(VFY_LAYER_SIGMOID, x); /* (as Sigmoid, then Mul) */
    case VFY_LAYER_ERFGATE: return 0.5f * (x * (1.0f + erff(x)));
    default: VFY_ASSERT(0);
    }
    return 0;
}

double vfy_act_f64(vfy_layer_kind kind, double x)
{
    switch (kind) {
    case VFY_LAYER_RELU: return x > 0 ? x : 0.0;
    case VFY_LAYER_SIGMOID:
        if (x >= 0)
            return 1.0 / (1.0 + exp(-x));
        else {
            double e = exp(x);
            return e / (1.0 + e);
        }
    case VFY_LAYER_TANH: return tanh(x);
    case VFY_LAYER_SIGN: return x > 0 ? 1.0 : (x < 0 ? -1.0 : x);
    case VFY_LAYER_EXP: return exp(x);
    case VFY_LAYER_RECIP: return 1.0 / x;
    case VFY_LAYER_SQRT: return sqrt(x);
    case VFY_LAYER_LOG: return log(x);
    case VFY_LAYER_SOFTPLUS: return x != x ? x : fmax(x, 0.0) + log1p(exp(-fabs(x)));
    case VFY_LAYER_SIN: return sin(x);
    case VFY_LAYER_COS: return cos(x);
    case VFY_LAYER_ERF: return erf(x);
    case VFY_LAYER_GELU: return 0.5 * x * erfc(-x * 0.70710678118654752440);
    case VFY_LAYER_SILU: return x * vfy_act_f64(VFY_LAYER_SIGMOID, x);
    case VFY_LAYER_ERFGATE: return 0.5 * x * erfc(-x);
    default: VFY_ASSERT(0);
    }
    return 0;
}

double vfy_act_slope_f64(vfy_layer_kind kind, double x, double y)
{
    const double edge = 0x1p-40; /* (the point "just inside" a domain that ends at 0) */
    double s;
    switch (kind) {
    case VFY_LAYER_RELU: s = x > 0 ? 1.0 : 0.0; break;
    case VFY_LAYER_SIGMOID: s = y * (1.0 - y); break;
    case VFY_LAYER_TANH: s = 1.0 - y * y; break;
    case VFY_LAYER_SIGN: s = fabs(x) <= 1 ? 1.0 : 1.0 / fabs(x); break;
    case VFY_LAYER_EXP: s = y; break;
    case VFY_LAYER_RECIP: s = x == 0 ? -1.0 / (edge * edge) : -y * y; break;
    case VFY_LAYER_SQRT: s = 0.5 / sqrt(x > edge ? x : edge); break;
    case VFY_LAYER_LOG: s = 1.0 / (x > edge ? x : edge); break;
    case VFY_LAYER_SOFTPLUS: s = vfy_act_f64(VFY_LAYER_SIGMOID, x); break;
    case VFY_LAYER_SIN: s = cos(x); break;
    case VFY_LAYER_COS: s = -sin(x); break;
    case VFY_LAYER_ERF: s = 1.1283791670955126 * exp(-x * x); break; /* (2 / sqrt(pi)) e^-x^2 */
    case VFY_LAYER_GELU: /* Phi(x) + x phi(x) */
        s = 0.5 * erfc(-x * 0.70710678118654752440) + x * 0.3989422804014327 * exp(-0.5 * x * x);
        break;
    case VFY_LAYER_ERFGATE: /* erfc(-x) / 2 + x e^(-x^2) / sqrt(pi) */
        s = 0.5 * erfc(-x) + x * 0.5641895835477563 * exp(-x * x);
        break;
    case VFY_LAYER_SILU: { /* s (1 + x (1 - s)) */
        double sg = vfy_act_f64(VFY_LAYER_SIGMOID, x);
        s = sg * (1.0 + x * (1.0 - sg));
        break;
    }
    default: VFY_ASSERT(0); return 0;
    }
    if (s != s)
        return 0;
    return s > 1e12 ? 1e12 : (s < -1e12 ? -1e12 : s);
}

static const char *io_kind(int is_out)
{
    return is_out ? "output" : "input";
}

/* The model's inputs (is_out 0) or outputs as a list for a message: "a, b". */
static void io_names(const vfy_net *net, int is_out, char *buf, size_t cap)
{
    size_t o = 0;
    buf[0] = '\0';
    for (int64_t j = 0; j < (is_out ? net->n_outs : net->n_ins) && o < cap; j++)
        if (!(is_out ? net->outs : net->ins)[j].hidden)
            o += (size_t)snprintf(buf + o, cap - o, "%s'%s'", o ? ", " : "",
                                  (is_out ? net->outs : net->ins)[j].name);
}

vfy_status vfy_net_fit_spec(const vfy_net *net, const char *path, const vfy_spec *spec, int64_t q,
                            const char *spec_path, int64_t *xmap, int64_t *ymap, vfy_error *err)
{
    if (q < 0) {
        if (net->n_ins > 1 || net->n_outs > 1)
            return vfy_fail(err, VFY_ERR_UNSUPPORTED, "%s: a VNNLIB 1 query has one input and "
                            "one output, but %s has %lld inputs and %lld outputs (write the "
                            "query in VNNLIB 2.0, a declare-input for each)", spec_path, path,
                            (long long)net->n_ins, (long long)net->n_outs);
        if (spec->n_x != net->n_in || spec->n_y != net->n_out)
            return vfy_fail(err, VFY_ERR_INVALID, "%s: declares %lld input(s) X_i and %lld "
                            "output(s) Y_i, but %s has %lld input(s) and %lld output(s)",
                            spec_path, (long long)spec->n_x, (long long)spec->n_y, path,
                            (long long)net->n_in, (long long)net->n_out);
        for (int64_t i = 0; i < spec->n_x; i++)
            xmap[i] = i;
        for (int64_t i = 0; i < spec->n_y; i++)
            ymap[i] = i;
        return VFY_OK;
    }
    const vfy_spec_net *nt = &spec->nets[q];
    char which[96] = "", list[512];
    if (spec->n_nets > 1)
        snprintf(which, sizeof which, " for network '%s'", nt->name);
    for (int k = 0; k < 2; k++) {
        /* the hidden nodes come last in the model's outputs, in the query's order (as the loader
         * was given them: vfy_spec_hidden_names) */
        int n_hid = k ? nt->n_hidden : 0, n = (k ? nt->n_outputs : nt->n_inputs) - n_hid;
        int64_t n_model = (k ? net->n_outs : net->n_ins) - n_hid;
        const vfy_spec_tensor *ts = k ? nt->outputs : nt->inputs;
        const vfy_net_io *io = k ? net->outs : net->ins;
        int64_t base = k ? nt->y_off : nt->x_off, *map = k ? ymap : xmap;
        if (n != n_model)
            return vfy_fail(err, VFY_ERR_INVALID, "%s: declares %d %s%s%s, but %s has %lld",
                            spec_path, n, io_kind(k), n == 1 ? "" : "s", which, path,
                            (long long)n_model);
        int used[VFY_SPEC_MAX_IO] = {0};
        for (int j = 0, o = 0, h = 0; j < n + n_hid; j++) {
            const vfy_spec_tensor *t = &ts[j];
            int m = t->hidden ? n + h++ : o++;
            if (t->hidden) {
                if (m >= n_model + n_hid || !io[m].hidden || strcmp(io[m].name, t->onnx_name))
                    return vfy_fail(err, VFY_ERR_INVALID, "%s: %s's hidden node '%s'%s is not "
                                    "among the outputs %s was read with", spec_path, t->name,
                                    t->onnx_name, which, path);
            } else if (nt->by_name) {
                for (m = 0; m < n && strcmp(io[m].name, t->onnx_name) != 0; m++)
                    ;
                if (m == n) {
                    io_names(net, k, list, sizeof list);
                    return vfy_fail(err, VFY_ERR_INVALID, "%s: declares %s as the ONNX %s '%s'%s, "
                                    "but %s has no %s of that name (its %ss: %s)", spec_path,
                                    t->name, io_kind(k), t->onnx_name, which, path, io_kind(k),
                                    io_kind(k), list);
                }
                if (used[m]++)
                    return vfy_fail(err, VFY_ERR_INVALID, "%s: two %ss%s name the ONNX %s '%s'",
                                    spec_path, io_kind(k), which, io_kind(k), t->onnx_name);
            } else if (t->onnx_name && strcmp(t->onnx_name, io[m].name) != 0) {
                return vfy_fail(err, VFY_ERR_INVALID, "%s: declares %s as the ONNX %s '%s', but "
                                "%s's %s is '%s'", spec_path, t->name, io_kind(k), t->onnx_name,
                                path, io_kind(k), io[m].name);
            }
            /* an ONNX element type asks for that type's analysis: the model's must be it
             * (the VNNLIB 2.0 standard); Real leaves it open */
            int want = !strcmp(t->type, "float32") ? 1 : !strcmp(t->type, "float64") ? 11 : 0;
            if (want && want != io[m].onnx_type)
                return vfy_fail(err, VFY_ERR_INVALID, "%s: declares %s%s as %s, but %s's %s '%s' "
                                "holds %s (declare it Real, or as the model's type)", spec_path,
                                t->name, which, t->type, path, t->hidden ? "value" : io_kind(k),
                                io[m].name, io[m].onnx_type == 1    ? "float32"
                                            : io[m].onnx_type == 11 ? "float64"
                                                                    : "integers");
            if (t->size != io[m].numel)
                return vfy_fail(err, VFY_ERR_INVALID, "%s: declares %s%s with %lld element(s), "
                                "but %s's %s '%s' has %lld", spec_path, t->name, which,
                                (long long)t->size, path, io_kind(k), io[m].name,
                                (long long)io[m].numel);
            for (int64_t e = 0; e < t->size; e++)
                map[t->off + e] = base + io[m].off + e;
        }
    }
    return VFY_OK;
}

vfy_status vfy_net_fit_query(const vfy_net *net, const char *path, vfy_spec *spec,
                             const char *spec_path, vfy_error *err)
{
    if (spec->n_nets > 1)
        return vfy_fail(err, VFY_ERR_UNSUPPORTED, "%s: a query over %lld networks, not one",
                        spec_path, (long long)spec->n_nets);
    int64_t *xmap = vfy_alloc_array((size_t)spec->n_x + 1, sizeof *xmap);
    int64_t *ymap = vfy_alloc_array((size_t)spec->n_y + 1, sizeof *ymap);
    vfy_status st = !xmap || !ymap ? vfy_fail(err, VFY_ERR_NOMEM, "out of memory") : VFY_OK;
    if (st == VFY_OK)
        st = vfy_net_fit_spec(net, path, spec, spec->n_nets ? 0 : -1, spec_path, xmap, ymap, err);
    if (st == VFY_OK)
        st = vfy_spec_permute(spec, xmap, ymap, err);
    vfy_free(xmap);
    vfy_free(ymap);
    return st;
}

vfy_status vfy_net_check_rows(const vfy_net *net, const vfy_spec *spec,
                              const char *spec_name, vfy_error *err)
{
    if (net->out_op == VFY_OUT_IDENTITY)
        return VFY_OK;
    const char *op = net->out_op == VFY_OUT_SOFTMAX ? "Softmax" : "LogSoftmax";
    for (int64_t c = 0; c < spec->n_cases; c++) {
        const vfy_case *cs = &spec->cases[c];
        for (int64_t r = 0; r < cs->n_rows; r++) {
            const vfy_row *row = &cs->rows[r];
            int64_t n_nz = 0, i = -1, j = -1;
            for (int64_t k = 0; k < spec->n_y; k++)
                if (row->cy[k] != 0) {
                    n_nz++;
                    if (i < 0)
                        i = k;
                    else
                        j = k;
                }
            int x_terms = 0;
            for (int64_t k = 0; row->cx && k < spec->n_x; k++)
                x_terms |= row->cx[k] != 0;
            if (n_nz == 0)
                continue; /* no Y term: nothing of the output enters it */
            /* SOUND: y_i - y_j and z_i - z_j have the same sign through a Softmax (exp is
             * increasing and the denominator is shared) and are equal through a LogSoftmax (the
             * shared log-sum cancels); both hold for the real functions */
            int pair = n_nz == 2 && row->cy[i] == -row->cy[j];
            int ok = net->out_op == VFY_OUT_SOFTMAX
                         ? pair && !x_terms && row->rhs_lo == 0 && row->rhs_hi == 0
                         : pair;
            if (!ok)
                return vfy_fail(err, VFY_ERR_UNSUPPORTED,
                                "%s: case %lld, constraint %lld on the outputs: the model ends "
                                "in a %s, through which only %s can be verified", spec_name,
                                (long long)c + 1, (long long)r + 1, op,
                                net->out_op == VFY_OUT_SOFTMAX
                                    ? "comparisons of two outputs (Y_i <= Y_j)"
                                    : "differences of two outputs (a Y_i - a Y_j, X terms "
                                      "allowed)");
        }
    }
    return VFY_OK;
}
