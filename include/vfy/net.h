/* net: the network as the bound, evaluation and search modules see it, a chain of layers
 *
 *     v_0 = x (the ONNX input, flattened row-major),  v_{k+1} = layer_k(v_k),  y = v_L.
 *
 * Layers are DENSE (v' = W v + b), SCALE (v' = s .* v + b, a diagonal DENSE) and RELU. The ONNX loader
 * lowers a graph into this form without rounding the real-valued semantics: every float32 weight is
 * held exactly in a double, and where the lowering had to round a coefficient (e.g. Div by a constant
 * c stored as the multiplier 1/c) the layer says by how much in w_relerr, so that bounds stay sound.
 *
 * fan_in is the number of products a floating-point execution of the layer sums per output (the
 * ONNX node's reduction length); the rounding allowance for the network's own float execution is
 * charged from it (see docs/soundness.md). */
#ifndef VFY_NET_H
#define VFY_NET_H

#include "vfy/core.h"

typedef enum vfy_layer_kind {
    VFY_LAYER_DENSE,
    VFY_LAYER_SCALE,
    VFY_LAYER_RELU,
    VFY_LAYER_KIND_COUNT
} vfy_layer_kind;

typedef struct vfy_layer {
    vfy_layer_kind kind;
    int64_t n_in, n_out;   /* RELU and SCALE: n_in == n_out */
    double *w;             /* DENSE: n_out x n_in row-major; SCALE: n_out multipliers; RELU: NULL */
    double *b;             /* DENSE and SCALE: n_out (never NULL there); RELU: NULL */
    double w_relerr;       /* |w_real - w| <= w_relerr * |w| elementwise; 0 when w is exact */
    int64_t fan_in;        /* products per output in a float execution: n_in for DENSE, 1 for SCALE */
    char name[96];         /* the ONNX node(s) it came from, for messages and logs */
} vfy_layer;

typedef struct vfy_net {
    int64_t n_layers;
    vfy_layer *layers;     /* owned */
    int64_t n_in, n_out;   /* flattened sizes of the ONNX input and output */
    int in_rank;           /* the ONNX input's shape, for information */
    int64_t in_shape[8];
    int out_rank;
    int64_t out_shape[8];
} vfy_net;

/* Free a network and everything it owns; accepts NULL. */
void vfy_net_free(vfy_net *net);

/* Append a layer to net (which takes ownership of w and b, allocated by vfy_alloc); checks that the
 * sizes chain (n_in equals the previous layer's n_out, or net->n_in for the first). On failure w and b
 * are freed. */
vfy_status vfy_net_push(vfy_net *net, vfy_layer_kind kind, int64_t n_in, int64_t n_out,
                        double *w, double *b, double w_relerr, int64_t fan_in, const char *name,
                        vfy_error *err);

/* Check the invariants above (sizes chain, finite weights, n_out of the last layer == net->n_out). */
vfy_status vfy_net_validate(const vfy_net *net, vfy_error *err);

/* Largest width of any layer's input or output (for scratch buffers). */
int64_t vfy_net_max_width(const vfy_net *net);

#endif
