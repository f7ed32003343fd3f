/* eval: forward passes and the input gradient. See include/vfy/eval.h. */
#include "vfy/eval.h"
#include "vfy/la.h"

#include <math.h>
#include <string.h>

/* MAXPOOL: the window's first input of largest value (NaN: the first input), for the value and
 * for the gradient's route. */
static int64_t pool_argmax_f64(const vfy_layer *L, int64_t j, const double *a)
{
    const int64_t *win = L->pool + j * L->pool_k;
    int64_t m = -1;
    for (int64_t t = 0; t < L->pool_k; t++)
        if (win[t] >= 0 && (m < 0 || a[win[t]] > a[m]))
            m = win[t];
    return m;
}

static void maxpool_f64(const vfy_layer *L, const double *a, double *b)
{
    for (int64_t j = 0; j < L->n_out; j++)
        b[j] = a[pool_argmax_f64(L, j, a)];
}

/* PRODUCT: v_a v_b for each pair, v_a where b is -1 (a copy). */
static void product_f64(const vfy_layer *L, const double *a, double *b)
{
    for (int64_t j = 0; j < L->n_out; j++) {
        int64_t p = L->pool[2 * j], q = L->pool[2 * j + 1];
        b[j] = q < 0 ? a[p] : a[p] * a[q];
    }
}

int64_t vfy_eval_ws_len(const vfy_net *net)
{
    int64_t n = 0;
    for (int64_t k = 0; k < net->n_layers; k++)
        if (net->layers[k].conv && vfy_la_conv_ws_len(net->layers[k].conv) > n)
            n = vfy_la_conv_ws_len(net->layers[k].conv);
    return 2 * vfy_net_max_width(net) + n;
}

/* b = W a (transpose: W^T a) for a DENSE layer; conv_ws (NULL: none) serves a convolution. */
static void dense_mul(const vfy_layer *L, const double *a, double *b, int transpose,
                      double *conv_ws)
{
    if (L->conv && conv_ws) {
        if (transpose)
            vfy_la_conv_bwd(L->conv, 1, a, b, conv_ws);
        else
            vfy_la_conv_fwd(L->conv, VFY_CONV_W, 1, a, b, conv_ws);
    } else if (L->csr) {
        vfy_la_csr_gemv(L->csr, a, b, transpose, 0);
    } else {
        vfy_la_gemv(L->n_out, L->n_in, L->w, a, b, transpose);
    }
}

int64_t vfy_eval_batch_ws_len(const vfy_net *net, int64_t k)
{
    /* (the sparse products' block workspace only where a block of rows fills it) */
    int64_t w = vfy_net_max_width(net), n = k >= VFY_CSR_BLOCK ? 2 * VFY_CSR_BLOCK * w : 0;
    for (int64_t q = 0; q < net->n_layers; q++)
        if (net->layers[q].conv && vfy_la_conv_ws_len(net->layers[q].conv) > n)
            n = vfy_la_conv_ws_len(net->layers[q].conv);
    return 2 * k * w + n;
}

void vfy_eval_f64_batch(const vfy_net *net, int64_t k, const double *x, double *y,
                        double *scratch)
{
    int64_t w = vfy_net_max_width(net);
    double *a = scratch, *b = scratch + k * w, *ws = scratch + 2 * k * w;
    memcpy(a, x, (size_t)(k * net->n_in) * sizeof(double));
    for (int64_t q = 0; q < net->n_layers; q++) {
        const vfy_layer *L = &net->layers[q];
        int64_t ni = L->n_in, no = L->n_out;
        switch (L->kind) {
        case VFY_LAYER_DENSE:
            if (k == 1) /* (one point: the matrix-vector products) */
                dense_mul(L, a, b, 0, ws);
            else if (L->conv)
                vfy_la_conv_fwd(L->conv, VFY_CONV_W, k, a, b, ws);
            else if (L->csr)
                vfy_la_csr_mul_t(k, a, L->csr, b, k >= VFY_CSR_BLOCK ? ws : NULL);
            else
                vfy_la_gemm_bt(k, no, ni, a, L->w, b);
            for (int64_t i = 0; i < k; i++)
                for (int64_t j = 0; j < no; j++)
                    b[i * no + j] += L->b[j];
            break;
        case VFY_LAYER_SCALE:
            for (int64_t i = 0; i < k; i++)
                for (int64_t j = 0; j < no; j++)
                    b[i * no + j] = L->w[j] * a[i * ni + j] + L->b[j];
            break;
        case VFY_LAYER_RELU:
            for (int64_t i = 0; i < k * no; i++)
                b[i] = a[i] > 0 ? a[i] : 0.0;
            break;
        case VFY_LAYER_MAXPOOL:
            for (int64_t i = 0; i < k; i++)
                maxpool_f64(L, a + i * ni, b + i * no);
            break;
        case VFY_LAYER_PRODUCT:
            for (int64_t i = 0; i < k; i++)
                product_f64(L, a + i * ni, b + i * no);
            break;
        default: /* (as in vfy_eval_f64) */
            VFY_ASSERT(vfy_layer_passes(L->kind));
            for (int64_t i = 0; i < k; i++)
                for (int64_t j = 0; j < no; j++) {
                    double v = a[i * ni + j];
                    b[i * no + j] = j < L->n_pass ? v : vfy_act_f64(L->kind, v);
                }
        }
        double *t = a;
        a = b;
        b = t;
    }
    memcpy(y, a, (size_t)(k * net->n_out) * sizeof(double));
}

/* (vfy_eval_batch_ws_len(net, 1) == vfy_eval_ws_len(net): the same buffers) */
void vfy_eval_f64(const vfy_net *net, const double *x, double *y, double *scratch)
{
    vfy_eval_f64_batch(net, 1, x, y, scratch);
}

void vfy_eval_f32(const vfy_net *net, const float *x, float *y, float *scratch)
{
    int64_t w = vfy_net_max_width(net);
    float *a = scratch, *b = scratch + w;
    memcpy(a, x, (size_t)net->n_in * sizeof(float));
    for (int64_t k = 0; k < net->n_layers; k++) {
        const vfy_layer *L = &net->layers[k];
        switch (L->kind) {
        case VFY_LAYER_DENSE:
            for (int64_t j = 0; j < L->n_out; j++) {
                float acc = 0.0f;
                if (L->csr) { /* the nonzero products, in the same order */
                    const vfy_csr *c = L->csr;
                    for (int64_t p = c->row_start[j]; p < c->row_start[j + 1]; p++)
                        acc += (float)c->val[p] * a[c->col[p]];
                } else {
                    const double *row = L->w + j * L->n_in;
                    for (int64_t i = 0; i < L->n_in; i++)
                        acc += (float)row[i] * a[i];
                }
                b[j] = acc + (float)L->b[j];
            }
            break;
        case VFY_LAYER_SCALE:
            for (int64_t j = 0; j < L->n_out; j++)
                b[j] = (float)L->w[j] * a[j] + (float)L->b[j];
            break;
        case VFY_LAYER_RELU:
            for (int64_t j = 0; j < L->n_out; j++)
                b[j] = a[j] > 0 ? a[j] : 0.0f;
            break;
        case VFY_LAYER_MAXPOOL:
            for (int64_t j = 0; j < L->n_out; j++) {
                const int64_t *win = L->pool + j * L->pool_k;
                int64_t m = -1;
                for (int64_t t = 0; t < L->pool_k; t++)
                    if (win[t] >= 0 && (m < 0 || a[win[t]] > a[m]))
                        m = win[t];
                b[j] = a[m];
            }
            break;
        case VFY_LAYER_PRODUCT: /* one float32 product each, as a runtime's Mul */
            for (int64_t j = 0; j < L->n_out; j++) {
                int64_t p = L->pool[2 * j], q = L->pool[2 * j + 1];
                b[j] = q < 0 ? a[p] : a[p] * a[q];
            }
            break;
        default: /* the elementwise activations but RELU (the first n_pass elements pass
                  * through) */
            VFY_ASSERT(vfy_layer_passes(L->kind));
            for (int64_t j = 0; j < L->n_out; j++)
                b[j] = j < L->n_pass ? a[j] : vfy_act_f32(L->kind, a[j]);
        }
        float *t = a;
        a = b;
        b = t;
    }
    memcpy(y, a, (size_t)net->n_out * sizeof(float));
}

void vfy_eval_forward_all(const vfy_net *net, const double *x, double **acts, double *ws)
{
    double *conv_ws = ws ? ws + 2 * vfy_net_max_width(net) : NULL;
    const double *a = x;
    for (int64_t k = 0; k < net->n_layers; k++) {
        const vfy_layer *L = &net->layers[k];
        double *b = acts[k];
        switch (L->kind) {
        case VFY_LAYER_DENSE:
            dense_mul(L, a, b, 0, conv_ws);
            for (int64_t j = 0; j < L->n_out; j++)
                b[j] += L->b[j];
            break;
        case VFY_LAYER_SCALE:
            for (int64_t j = 0; j < L->n_out; j++)
                b[j] = L->w[j] * a[j] + L->b[j];
            break;
        case VFY_LAYER_RELU:
            for (int64_t j = 0; j < L->n_out; j++)
                b[j] = a[j] > 0 ? a[j] : 0.0;
            break;
        case VFY_LAYER_MAXPOOL:
            maxpool_f64(L, a, b);
            break;
        case VFY_LAYER_PRODUCT:
            product_f64(L, a, b);
            break;
        default: /* the elementwise activations but RELU (the first n_pass elements pass
                  * through) */
            VFY_ASSERT(vfy_layer_passes(L->kind));
            for (int64_t j = 0; j < L->n_out; j++)
                b[j] = j < L->n_pass ? a[j] : vfy_act_f64(L->kind, a[j]);
        }
        a = b;
    }
}

void vfy_eval_grad(const vfy_net *net, const double *x, double *const *acts, const double *g,
                   double *grad_x, double *tmp)
{
    int64_t w = vfy_net_max_width(net);
    double *cur = tmp, *nxt = tmp + w;
    memcpy(cur, g, (size_t)net->n_out * sizeof(double));
    for (int64_t k = net->n_layers - 1; k >= 0; k--) {
        const vfy_layer *L = &net->layers[k];
        const double *in = k > 0 ? acts[k - 1] : x;
        switch (L->kind) {
        case VFY_LAYER_DENSE:
            dense_mul(L, cur, nxt, 1, tmp + 2 * w);
            break;
        case VFY_LAYER_SCALE:
            for (int64_t j = 0; j < L->n_out; j++)
                nxt[j] = cur[j] * L->w[j];
            break;
        case VFY_LAYER_RELU:
            for (int64_t j = 0; j < L->n_out; j++)
                nxt[j] = in[j] > 0 ? cur[j] : 0.0;
            break;
        case VFY_LAYER_SIGMOID: /* sigmoid' = s (1 - s), s the layer's output */
            for (int64_t j = 0; j < L->n_out; j++)
                nxt[j] = j < L->n_pass ? cur[j] : cur[j] * acts[k][j] * (1.0 - acts[k][j]);
            break;
        case VFY_LAYER_TANH: /* tanh' = 1 - t^2 */
            for (int64_t j = 0; j < L->n_out; j++)
                nxt[j] = j < L->n_pass ? cur[j] : cur[j] * (1.0 - acts[k][j] * acts[k][j]);
            break;
        case VFY_LAYER_ERF: /* erf' = (2 / sqrt(pi)) e^(-z^2), z the layer's input */
        case VFY_LAYER_GELU: /* Phi(z) + z phi(z) */
        case VFY_LAYER_SILU: /* s (1 + z (1 - s)) */
        case VFY_LAYER_ERFGATE: /* erfc(-z) / 2 + z e^(-z^2) / sqrt(pi) */
            for (int64_t j = 0; j < L->n_out; j++)
                nxt[j] = j < L->n_pass ? cur[j]
                                       : cur[j] * vfy_act_slope_f64(L->kind, in[j], acts[k][j]);
            break;
        case VFY_LAYER_SIGN:
            /* sign' = 0 wherever it exists: the search steers by the straight-through estimate
             * (hard tanh's derivative, 1 on [-1, 1], the binarized networks' training rule), and
             * by 1/|z| outside it so that a far input still moves its neuron toward 0 */
            for (int64_t j = 0; j < L->n_out; j++)
                nxt[j] = j < L->n_pass || fabs(in[j]) <= 1 ? cur[j] : cur[j] / fabs(in[j]);
            break;
        case VFY_LAYER_EXP:
        case VFY_LAYER_RECIP:
        case VFY_LAYER_SQRT:
        case VFY_LAYER_LOG:
        case VFY_LAYER_SOFTPLUS:
        case VFY_LAYER_SIN:
        case VFY_LAYER_COS:
            /* exp' = exp, (1/v)' = -(1/v)^2, sqrt' = 1/(2 sqrt), log' = 1/v, softplus' =
             * sigmoid, sin' = cos, cos' = -sin; clamped at a domain's edge (vfy_act_slope_f64:
             * steering only) */
            for (int64_t j = 0; j < L->n_out; j++)
                nxt[j] = j < L->n_pass ? cur[j]
                                       : cur[j] * vfy_act_slope_f64(L->kind, in[j], acts[k][j]);
            break;
        case VFY_LAYER_MAXPOOL: /* the gradient goes to each window's maximum */
            memset(nxt, 0, (size_t)L->n_in * sizeof(double));
            for (int64_t j = 0; j < L->n_out; j++)
                nxt[pool_argmax_f64(L, j, in)] += cur[j];
            break;
        case VFY_LAYER_PRODUCT: /* d(v_a v_b) = v_b dv_a + v_a dv_b */
            memset(nxt, 0, (size_t)L->n_in * sizeof(double));
            for (int64_t j = 0; j < L->n_out; j++) {
                int64_t p = L->pool[2 * j], q = L->pool[2 * j + 1];
                if (q < 0) {
                    nxt[p] += cur[j];
                } else {
                    nxt[p] += cur[j] * in[q];
                    nxt[q] += cur[j] * in[p];
                }
            }
            break;
        default:
            VFY_ASSERT(0);
        }
        double *t = cur;
        cur = nxt;
        nxt = t;
    }
    memcpy(grad_x, cur, (size_t)net->n_in * sizeof(double));
}

void vfy_eval_out_f32(const vfy_net *net, float *y)
{
    int64_t n = net->n_out;
    if (net->out_op == VFY_OUT_IDENTITY || n <= 0)
        return;
    float m = y[0], sum = 0.0f;
    for (int64_t j = 1; j < n; j++)
        m = y[j] > m ? y[j] : m;
    for (int64_t j = 0; j < n; j++)
        sum += expf(y[j] - m);
    for (int64_t j = 0; j < n; j++)
        y[j] = net->out_op == VFY_OUT_SOFTMAX ? expf(y[j] - m) / sum : (y[j] - m) - logf(sum);
}

void vfy_eval_out_f64(const vfy_net *net, double *y)
{
    int64_t n = net->n_out;
    if (net->out_op == VFY_OUT_IDENTITY || n <= 0)
        return;
    double m = y[0], sum = 0.0;
    for (int64_t j = 1; j < n; j++)
        m = y[j] > m ? y[j] : m;
    for (int64_t j = 0; j < n; j++)
        sum += exp(y[j] - m);
    for (int64_t j = 0; j < n; j++)
        y[j] = net->out_op == VFY_OUT_SOFTMAX ? exp(y[j] - m) / sum : (y[j] - m) - log(sum);
}
