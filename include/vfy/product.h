/* product: one network and one spec from a query over several networks.
 *
 * A VNNLIB 2.0 query may declare networks f_1 .. f_m (spec.h: their inputs are the query's X in
 * declaration order, their outputs its Y). The search works on one network, so the networks are
 * put side by side, layer by layer: the product
 *     P(x^1, ..., x^m) = (f_1(x^1), ..., f_m(x^m))
 * has, at each depth, one layer whose matrix is block-diagonal in the networks' matrices (SCALE:
 * the multipliers one after another; an activation: the same activation over all blocks). It
 * computes every f_i exactly as f_i does, real-valued or in a float execution: a row's extra
 * terms are exact zeros, and each row's rounding allowance is charged for the largest fan-in, at
 * least its own. This needs networks of one layer sequence (the kinds of the layers in order),
 * which equal-to and isomorphic-to networks have by definition.
 *
 * Queries relate the networks' inputs, most often by equalities x_a = x_b (the same input fed to
 * two networks). Kept as rows, they would leave the input box free in both x_a and x_b, and
 * CROWN could not see that the two networks read one value. So the equalities that every case
 * of the spec asserts are eliminated: each class of tied inputs becomes one free input z_r, and a
 * first DENSE layer copies z into x (entries 0 and 1, exact). The spec is rewritten over z: a
 * class's box is the intersection of its members' boxes, a row's coefficient of z_r the sum of
 * its members' (exact, or the class is not merged), and the equality rows themselves, 0 = 0 over
 * z, are dropped. A point z is a counterexample of the rewritten problem exactly when x = copy(z)
 * is one of the original. */
#ifndef VFY_PRODUCT_H
#define VFY_PRODUCT_H

#include "vfy/net.h"
#include "vfy/spec.h"

/* The product of nets[0..n) (n >= 1; a network may appear twice). names[i] names nets[i] in
 * messages. Fails with VFY_ERR_UNSUPPORTED when the networks' layer sequences differ (also an
 * element-wise layer's fan_in: a lowered Softmax's steps), a network ends in a Softmax, or an
 * activation carries values past it. */
vfy_status vfy_net_product(const vfy_net *const *nets, const char *const *names, int64_t n,
                           vfy_net **out, vfy_error *err);

/* 1 when a and b compute the same function the same way: the same layers, sizes and weights, bit
 * for bit (what a network declared equal-to another must have). */
int vfy_net_same(const vfy_net *a, const vfy_net *b);

/* Inputs tied by equalities: x_j = z_{rep[j]}, rep non-decreasing in the first member of each
 * class (a class's smallest index j has rep[j] = the number of classes before it). */
typedef struct vfy_ties {
    int64_t n_x, n_z;
    int64_t *rep;          /* n_x */
} vfy_ties;

/* The classes of the equalities x_a = x_b (rows x_a - x_b <= 0 and x_b - x_a <= 0, no Y term,
 * non-strict) that every case of spec asserts; n_z == n_x when there are none. Free with
 * vfy_ties_free. */
vfy_status vfy_ties_find(const vfy_spec *spec, vfy_ties *out, vfy_error *err);

/* Rewrite spec over z (in place, as described above; spec->n_x becomes t->n_z). A case whose box
 * the intersection empties is dropped; when every case is, VFY_ERR_INVALID (a contradictory
 * spec, as the parser reports one). */
vfy_status vfy_ties_apply_spec(const vfy_ties *t, vfy_spec *spec, const char *spec_name,
                               vfy_error *err);

/* Prepend to net the layer x = copy(z) (n_z inputs); nothing when there are no ties. */
vfy_status vfy_ties_apply_net(const vfy_ties *t, vfy_net *net, vfy_error *err);

/* x = copy(z): x[j] = z[rep[j]] for j < n_x. */
void vfy_ties_expand(const vfy_ties *t, const double *z, double *x);

void vfy_ties_free(vfy_ties *t);

#endif
