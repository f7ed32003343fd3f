/* net: the network as the bound, evaluation and search modules see it, a chain of layers
 *
 *     v_0 = x (the ONNX input, flattened row-major),  v_{k+1} = layer_k(v_k),  y = v_L.
 *
 * Layers are DENSE (v' = W v + b), SCALE (v' = s .* v + b, a diagonal DENSE), the elementwise
 * activations RELU, SIGMOID (v' = 1 / (1 + exp(-v))), TANH, ERF (the error function), GELU and SILU
 * (v Phi(v), v sigmoid(v)), SIGN (v' = -1, 0 or 1 as v < 0,
 * v = 0 or v > 0: a binarized network's step, exact in any float execution), SIN, COS, the convex
 * kinds EXP, RECIP (1/v), SQRT, LOG, SOFTPLUS (log(1 + exp(v))), PRODUCT (v'_j = v_a v_b), and
 * MAXPOOL
 * (v'_j = max over the window {v_i : i in pool[j]}, a window of pool_k input indices, -1 for
 * padding; every window holds at least one input). A float execution computes MAXPOOL exactly (max
 * rounds nothing). The ONNX loader lowers a graph into this form without rounding the real-valued
 * semantics: every float32 weight is held exactly in a double, and where the lowering had to round
 * a coefficient (e.g. Div by a constant c stored as the multiplier 1/c) the layer says by how much
 * in w_relerr, so that bounds stay sound.
 *
 * fan_in is the number of products a floating-point execution of the layer sums per output (the
 * ONNX node's reduction length); the rounding allowance for the network's own float execution is
 * charged from it (see docs/soundness.md, section 4). The lowering keeps every DENSE row one sum in
 * any float execution: its terms (products, the bias) each rounded once before the sum, twice when
 * w_relerr > 0 (a runtime may round the multiplier 1/k as well); nothing is rounded after the sum
 * (no multiplier but +-1 and no added constant but onto a zero bias is folded into a layer). A
 * SCALE layer's terms pass through at most fan_in + 2 roundings. */
#ifndef VFY_NET_H
#define VFY_NET_H

#include "vfy/core.h"
#include "vfy/la.h"

typedef enum vfy_layer_kind {
    VFY_LAYER_DENSE,
    VFY_LAYER_SCALE,
    VFY_LAYER_RELU,
    VFY_LAYER_SIGMOID,
    VFY_LAYER_TANH,
    VFY_LAYER_MAXPOOL,
    VFY_LAYER_PRODUCT,
    VFY_LAYER_SIGN,
    VFY_LAYER_EXP,      /* v' = exp(v): an ONNX Exp, or a step of a lowered Softmax (RECIP) */
    VFY_LAYER_RECIP,    /* v' = 1 / v (v != 0): an ONNX Reciprocal or divisor; or a lowered
                         * Softmax's last step, on v >= 1 (vfy_layer_in_softmax) */
    VFY_LAYER_SQRT,     /* v' = sqrt(v) on v >= 0 */
    VFY_LAYER_LOG,      /* v' = log(v) on v > 0 */
    VFY_LAYER_SOFTPLUS, /* v' = log(1 + exp(v)) */
    VFY_LAYER_SIN,      /* v' = sin(v) */
    VFY_LAYER_COS,      /* v' = cos(v) */
    VFY_LAYER_ERF,      /* v' = erf(v) = (2 / sqrt(pi)) int_0^v exp(-t^2) dt */
    VFY_LAYER_GELU,     /* v' = v Phi(v), Phi the standard normal distribution function */
    VFY_LAYER_SILU,     /* v' = v sigmoid(v) (Swish) */
    VFY_LAYER_ERFGATE,  /* v' = v (1 + erf(v)) / 2: PyTorch's exported Gelu between the scalings of
                         * its input and output (graph.c, expand_gelu_export) */
    VFY_LAYER_KIND_COUNT
} vfy_layer_kind;

typedef struct vfy_layer {
    vfy_layer_kind kind;
    int64_t n_in, n_out;   /* activations and SCALE: n_in == n_out */
    double *w;             /* DENSE: n_out x n_in row-major, NULL when csr holds the matrix; SCALE:
                            * n_out multipliers; activations: NULL */
    double *b;             /* DENSE and SCALE: n_out (never NULL there); activations: NULL */
    double w_relerr;       /* |w_real - w| <= w_relerr * |w| elementwise; 0 when w is exact */
    int64_t fan_in;        /* products per output in a float execution: n_in for DENSE, 1 for SCALE */
    int64_t pool_k;        /* MAXPOOL: window size; PRODUCT: 2; else 0 */
    int64_t n_pass;        /* the activations of vfy_layer_passes: the first n_pass elements pass
                            * through unchanged (values
                            * carried past the activation); else 0 */
    int64_t *pool;         /* MAXPOOL: n_out x pool_k input indices (-1: padding); PRODUCT: n_out
                            * pairs (a, b), b = -1 for a copy of v_a; else NULL */
    vfy_csr *csr;          /* DENSE: the matrix's nonzeros by rows when it is sparse (a lowered
                            * convolution or pooling; vfy_net_sparsify), then its only form (w is
                            * NULL); else NULL */
    vfy_conv *conv;        /* DENSE with csr: the same matrix as a convolution (la.h), for the bound
                            * module's products; NULL when it is not one (vfy_net_bind_conv) */
    char name[96];         /* the ONNX node(s) it came from, for messages and logs */
} vfy_layer;

/* How the model's output derives from the last layer's vector v_L. A Softmax or LogSoftmax over all
 * of the output is kept out of the layers (nothing bounds it): the layers compute its input, the
 * logits z = v_L, and the spec's rows must be ones that hold of the outputs exactly when they hold
 * of z (vfy_net_check_rows below). Evaluation applies it (vfy_eval_out_f32/f64) where a model's own
 * output is needed: a counterexample's float checks and the Y values written for it. */
typedef enum vfy_out_op {
    VFY_OUT_IDENTITY = 0,  /* y = v_L */
    VFY_OUT_SOFTMAX,       /* y_i = exp(z_i) / sum_j exp(z_j) */
    VFY_OUT_LOG_SOFTMAX    /* y_i = z_i - log sum_j exp(z_j) */
} vfy_out_op;

/* One of the ONNX model's graph inputs or outputs: the net's input vector is its graph inputs'
 * values one after another (row-major each), its output vector likewise. */
typedef struct vfy_net_io {
    char *name;            /* the ONNX name (owned) */
    int rank;
    int64_t shape[8];
    int64_t numel;
    int64_t off;           /* its first element's index in the net's input (output) vector */
    int hidden;            /* an output: a value inside the graph (vfy_onnx_load_hidden) */
    int onnx_type;         /* its ONNX element type: 1 FLOAT, 11 DOUBLE (TensorProto.DataType) */
} vfy_net_io;

typedef struct vfy_net {
    int64_t n_layers;
    vfy_layer *layers;     /* owned */
    int64_t n_in, n_out;   /* flattened sizes of the ONNX input(s) and output(s) */
    int in_rank;           /* the ONNX input's shape ([n_in] for several), for information */
    int64_t in_shape[8];
    int out_rank;
    int64_t out_shape[8];
    vfy_out_op out_op;     /* applied to v_L to give the model's output (IDENTITY for a prefix) */
    int64_t n_ins, n_outs; /* the ONNX graph inputs and outputs (0 for a prefix or a product) */
    vfy_net_io *ins, *outs; /* owned, in the model's order */
} vfy_net;

/* 1 for the elementwise functions that are monotone and, on each piece of their domain, convex or
 * concave (EXP, RECIP, SQRT, LOG, SOFTPLUS): relaxed by a chord and a tangent (bound.c, checker.c),
 * never branched on, no alpha, no LP relaxation. */
static inline int vfy_layer_is_convex(vfy_layer_kind kind)
{
    return kind == VFY_LAYER_EXP || kind == VFY_LAYER_RECIP || kind == VFY_LAYER_SQRT ||
           kind == VFY_LAYER_LOG || kind == VFY_LAYER_SOFTPLUS;
}

/* 1 for the S-shaped activations SIGMOID, TANH and ERF: increasing, bounded, f' even and
 * decreasing in |v| (f convex for v <= 0, concave for v >= 0), f(-v) = f(0) * 2 - f(v). The bound
 * module relaxes them alike, and alpha-CROWN optimises their lines. */
static inline int vfy_layer_is_sshaped(vfy_layer_kind kind)
{
    return kind == VFY_LAYER_SIGMOID || kind == VFY_LAYER_TANH || kind == VFY_LAYER_ERF;
}

/* 1 for the gated activations GELU, SILU and ERFGATE, f(v) = v g(v) with g a distribution
 * function: not
 * monotone (a least value), convex between two inflection points and concave outside; the bound
 * module gives them certified lines of its own (no alpha, no splits). */
static inline int vfy_layer_is_gated(vfy_layer_kind kind)
{
    return kind == VFY_LAYER_GELU || kind == VFY_LAYER_SILU || kind == VFY_LAYER_ERFGATE;
}

/* The largest slope of an S-shaped activation, f'(0), or a double above it: sigmoid 1/4, tanh 1,
 * erf 2 / sqrt(pi) = 1.12837916709551257..., whose double nearest (0x1.20dd750429b6dp+0, below it)
 * is moved up one ulp. */
#define VFY_ERF_DMAX 0x1.20dd750429b6ep+0
static inline double vfy_act_max_slope(vfy_layer_kind kind)
{
    return kind == VFY_LAYER_SIGMOID ? 0.25 : kind == VFY_LAYER_TANH ? 1.0 : VFY_ERF_DMAX;
}

/* 1 for the elementwise activations (RELU, the S-shaped and gated ones, SIGN, SIN, COS and the
 * vfy_layer_is_convex ones): no weights, n_in == n_out. */
static inline int vfy_layer_is_act(vfy_layer_kind kind)
{
    return kind == VFY_LAYER_RELU || vfy_layer_is_sshaped(kind) || vfy_layer_is_gated(kind) ||
           kind == VFY_LAYER_SIGN || kind == VFY_LAYER_SIN || kind == VFY_LAYER_COS ||
           vfy_layer_is_convex(kind);
}

/* 1 for the activations whose first n_pass elements may pass through unchanged (values carried
 * past them: a ReLU carries its own way, as (relu(v), relu(-v))). */
static inline int vfy_layer_passes(vfy_layer_kind kind)
{
    return vfy_layer_is_sshaped(kind) || vfy_layer_is_gated(kind) || kind == VFY_LAYER_SIGN ||
           kind == VFY_LAYER_SIN || kind == VFY_LAYER_COS || vfy_layer_is_convex(kind);
}

/* 1 for an EXP or RECIP layer of a lowered Softmax (graph.c): those carry the Softmax's length n
 * >= 2 in fan_in, and a float execution's allowance for them is the runtime Softmax's (charged at
 * RECIP, none at EXP; docs/soundness.md section 4). A standalone Exp, Reciprocal or divisor has
 * fan_in 1, and its float execution's allowance is relative to its output. */
static inline int vfy_layer_in_softmax(const vfy_layer *L)
{
    return (L->kind == VFY_LAYER_EXP || L->kind == VFY_LAYER_RECIP) && L->fan_in >= 2;
}

/* An activation's value as a floating-point execution computes it: vfy_act_f32 in float32 with libm's
 * expf/tanhf/erff (sigmoid as 1/(1+expf(-x)) for x >= 0, expf(x)/(1+expf(x)) below, so that neither
 * overflows), vfy_act_f64 the same in double. For evaluation and constant folding only, never a proof
 * device: the bound module encloses the real functions itself. kind must satisfy vfy_layer_is_act. */
float vfy_act_f32(vfy_layer_kind kind, float x);
double vfy_act_f64(vfy_layer_kind kind, double x);

/* The derivative of an activation at x, y = vfy_act_f64(kind, x) its value, for the search's
 * gradient and branching scores only (steering, never a bound): SIGN's straight-through estimate;
 * outside a function's domain (1/v at 0, sqrt and log at v <= 0) the slope at a point just inside
 * it; clamped to [-1e12, 1e12], NaN to 0. */
double vfy_act_slope_f64(vfy_layer_kind kind, double x, double y);

/* Row j of a DENSE layer: *n coefficients val[t] at columns idx[t] (a sparse layer's nonzeros in
 * increasing column order), or with *idx NULL the whole dense row (column t is val[t]). */
static inline void vfy_layer_row(const vfy_layer *L, int64_t j, const int64_t **idx,
                                 const double **val, int64_t *n)
{
    if (L->csr) {
        int64_t s = L->csr->row_start[j];
        *idx = L->csr->col + s;
        *val = L->csr->val + s;
        *n = L->csr->row_start[j + 1] - s;
    } else {
        *idx = NULL;
        *val = L->w + j * L->n_in;
        *n = L->n_in;
    }
}

/* Multiply-adds of one evaluation of the layer: a DENSE layer's stored coefficients (its nonzeros
 * when sparse), one per output otherwise (a MAXPOOL window's comparisons). */
static inline double vfy_layer_madds(const vfy_layer *L)
{
    if (L->kind == VFY_LAYER_DENSE)
        return L->csr ? (double)L->csr->nnz : (double)L->n_in * (double)L->n_out;
    if (L->kind == VFY_LAYER_MAXPOOL)
        return (double)L->n_out * (double)(L->pool_k + 1);
    return (double)L->n_out;
}

/* Whether every row of spec holds of the model's output exactly when it holds of the last layer's
 * vector z (net->out_op), so that the spec can be verified on z as it is: always for IDENTITY and
 * for rows without Y terms; through a Softmax, a row comparing two outputs, a (Y_i - Y_j) <= 0
 * with a != 0 and no X term (y_i <= y_j iff z_i <= z_j, exp being increasing); through a
 * LogSoftmax, a row a (Y_i - Y_j) + X terms <= any constant (y_i - y_j = z_i - z_j exactly).
 * Otherwise VFY_ERR_UNSUPPORTED naming spec_name, the case and the row. */
struct vfy_spec;
vfy_status vfy_net_check_rows(const vfy_net *net, const struct vfy_spec *spec,
                              const char *spec_name, vfy_error *err);

/* Whether the model at path (net) fits network q of the query spec (q < 0: a VNNLIB 1 spec's X_i
 * and Y_i), and where each of the query's tensors lies in the model's input (output) vector:
 * xmap[i] (ymap[j]) is the index X_i (Y_j) takes once laid out in the model's order. A network's
 * tensors stand for the model's graph inputs and outputs in order or, when all name them, by
 * name (vfy_spec_net); its hidden nodes are the model's last outputs, in the query's order (as
 * vfy_spec_hidden_names lists them for the loader). VFY_ERR_INVALID or _UNSUPPORTED otherwise,
 * naming spec_path and path. */
vfy_status vfy_net_fit_spec(const vfy_net *net, const char *path, const struct vfy_spec *spec,
                            int64_t q, const char *spec_path, int64_t *xmap, int64_t *ymap,
                            vfy_error *err);
/* vfy_net_fit_spec for a query over one network (its network 0, or a VNNLIB 1 spec), then the
 * spec's tensors laid out as the model has them (vfy_spec_permute). */
vfy_status vfy_net_fit_query(const vfy_net *net, const char *path, struct vfy_spec *spec,
                             const char *spec_path, vfy_error *err);

/* Free a network and everything it owns; accepts NULL. */
void vfy_net_free(vfy_net *net);

/* Append a layer to net (which takes ownership of w and b, allocated by vfy_alloc); checks that the
 * sizes chain (n_in equals the previous layer's n_out, or net->n_in for the first). On failure w and b
 * are freed. */
vfy_status vfy_net_push(vfy_net *net, vfy_layer_kind kind, int64_t n_in, int64_t n_out,
                        double *w, double *b, double w_relerr, int64_t fan_in, const char *name,
                        vfy_error *err);

/* Append a DENSE layer held in sparse form only (takes ownership of csr, n_out x n_in, and b; both
 * freed on failure). */
vfy_status vfy_net_push_csr(vfy_net *net, int64_t n_in, int64_t n_out, vfy_csr *csr, double *b,
                            double w_relerr, int64_t fan_in, const char *name, vfy_error *err);

/* Give layer k the convolution form g when its sparse matrix holds that convolution as its last
 * rows' block, at columns c0 or its last ones (vfy_la_conv_match: every entry compared); otherwise,
 * or when out of memory, the layer keeps none (its products stay on the CSR kernels). */
void vfy_net_bind_conv(vfy_net *net, int64_t k, const vfy_conv_geom *g, int64_t c0);

/* Append a MAXPOOL layer (takes ownership of pool, n_out x pool_k indices in [-1, n_in), at least
 * one >= 0 per window; freed on failure). */
vfy_status vfy_net_push_maxpool(vfy_net *net, int64_t n_in, int64_t n_out, int64_t pool_k,
                                int64_t *pool, const char *name, vfy_error *err);

/* Append a PRODUCT layer (takes ownership of pairs: n_out pairs (a, b), a in [0, n_in), b in
 * [-1, n_in); freed on failure). */
vfy_status vfy_net_push_product(vfy_net *net, int64_t n_in, int64_t n_out, int64_t *pairs,
                                const char *name, vfy_error *err);

/* A copy of the first n_layers layers of net (1 <= n_layers <= net->n_layers), its output the last
 * of them; sparse layers stay sparse. */
vfy_status vfy_net_prefix(const vfy_net *net, int64_t n_layers, vfy_net **out, vfy_error *err);

/* Give every DENSE layer of at least min_entries entries of which at most max_density are nonzero
 * (a lowered convolution or pooling) its CSR form, which replaces the dense w.
 * VFY_SPARSE_DENSITY and VFY_SPARSE_MIN_ENTRIES are what the loader uses: below them BLAS on the
 * dense matrix is as fast. */
#define VFY_SPARSE_DENSITY 0.125
#define VFY_SPARSE_MIN_ENTRIES 65536
vfy_status vfy_net_sparsify(vfy_net *net, double max_density, int64_t min_entries, vfy_error *err);

/* Check the invariants above (sizes chain, finite weights, n_out of the last layer == net->n_out). */
vfy_status vfy_net_validate(const vfy_net *net, vfy_error *err);

/* Largest width of any layer's input or output (for scratch buffers). */
int64_t vfy_net_max_width(const vfy_net *net);

#endif
