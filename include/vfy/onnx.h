/* onnx: load an ONNX model (protobuf, via protobuf-c) and lower it to a vfy_net.
 *
 * The loader validates the protobuf fully, builds the graph IR (include/vfy/graph.h), infers shapes,
 * folds constants, and lowers the result to the layer chain of include/vfy/net.h. The protobuf is
 * freed before returning: the net never points into it. Every error names the file and, where there
 * is one, the ONNX node (name and op type): "model.onnx: node 'conv1' (Conv): ...". */
#ifndef VFY_ONNX_H
#define VFY_ONNX_H

#include "vfy/graph.h"

/* Load path into a new net owned by the caller (vfy_net_free). */
vfy_status vfy_onnx_load(const char *path, vfy_net **out, vfy_error *err);
/* The same from bytes in memory; `name` is used in messages. */
vfy_status vfy_onnx_load_bytes(const uint8_t *data, size_t len, const char *name, vfy_net **out,
                               vfy_error *err);
/* Either, with the values named hidden[0..n_hidden) (ONNX value names: a node's output, or a
 * graph input) as more outputs after the graph's own: net->outs lists them last, flagged hidden
 * (VNNLIB 2.0's declare-hidden). */
vfy_status vfy_onnx_load_hidden(const char *path, const char *const *hidden, int64_t n_hidden,
                                vfy_net **out, vfy_error *err);
vfy_status vfy_onnx_load_bytes_hidden(const uint8_t *data, size_t len, const char *name,
                                      const char *const *hidden, int64_t n_hidden,
                                      vfy_net **out, vfy_error *err);

/* vfy_onnx_load_hidden within lim (graph.h: a deadline, past which it stops with
 * VFY_ERR_TIMEOUT, and a ceiling on the lowered layers' bytes; NULL: the defaults, no deadline
 * and half the machine's memory, as every loader above). */
vfy_status vfy_onnx_load_limited(const char *path, const char *const *hidden, int64_t n_hidden,
                                 const vfy_lower_limits *lim, vfy_net **out, vfy_error *err);
vfy_status vfy_onnx_load_bytes_limited(const uint8_t *data, size_t len, const char *name,
                                       const char *const *hidden, int64_t n_hidden,
                                       const vfy_lower_limits *lim, vfy_net **out,
                                       vfy_error *err);

#endif
