/* eval: concrete forward passes of a vfy_net, in double and in float32.
 *
 * Neither is a proof device: a counterexample is confirmed by a sound point evaluation in the bound
 * module. eval_f32 mimics a float32 execution in ONNX order (each output: products summed in index
 * order, then the bias), and gives the Y printed in result files. */
#ifndef VFY_EVAL_H
#define VFY_EVAL_H

#include "vfy/net.h"

/* Doubles of scratch the double passes take: two layer vectors and the convolutions' workspace. */
int64_t vfy_eval_ws_len(const vfy_net *net);
/* y (n_out) = net(x) in double. scratch: vfy_eval_ws_len(net) doubles. */
void vfy_eval_f64(const vfy_net *net, const double *x, double *y, double *scratch);
/* Doubles of scratch vfy_eval_f64_batch takes for k points. */
int64_t vfy_eval_batch_ws_len(const vfy_net *net, int64_t k);
/* y (k x n_out) = net(x_i) for the k rows of x (k x n_in), in double: each layer's product one
 * matrix product for all k rows (the weights read once, not k times). The values are
 * vfy_eval_f64's up to the order of the roundings: a search device, as it is. scratch:
 * vfy_eval_batch_ws_len(net, k) doubles. */
void vfy_eval_f64_batch(const vfy_net *net, int64_t k, const double *x, double *y,
                        double *scratch);
/* The same in float32 arithmetic. scratch: 2 * max width floats. */
void vfy_eval_f32(const vfy_net *net, const float *x, float *y, float *scratch);

/* The model's output from the last layer's y (n_out values, in place): net->out_op applied as a
 * runtime would, max subtracted first (Softmax: exp(y_i - m) / sum, the sum in index order;
 * LogSoftmax: y_i - m - log(sum)), in float32 with expf/logf or in double. Nothing for IDENTITY.
 * vfy_eval_f32/f64 stop at the last layer (every row of a spec that passes vfy_spec_check_output
 * holds of y exactly when it holds of the model's output in the reals). */
void vfy_eval_out_f32(const vfy_net *net, float *y);
void vfy_eval_out_f64(const vfy_net *net, double *y);

/* Forward pass that keeps every layer's output (acts[k], length layers[k].n_out; acts must hold
 * net->n_layers pointers to buffers of the right sizes), then the gradient with respect to x of
 * g · y, into grad_x (n_in). ws (NULL: the convolutions' products through their sparse form) and
 * tmp: vfy_eval_ws_len(net) doubles. */
void vfy_eval_forward_all(const vfy_net *net, const double *x, double **acts, double *ws);
void vfy_eval_grad(const vfy_net *net, const double *x, double *const *acts, const double *g,
                   double *grad_x, double *tmp);

#endif
