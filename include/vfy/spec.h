/* spec: a VNNLIB property, parsed and normalised.
 *
 * VNNLIB describes the UNSAFE set. After parsing, the property is a disjunction of cases; case k is
 *     x in box[k.box]  and  for every row r of the case:  sum_j cy[j] Y_j + sum_j cx[j] X_j <= rhs
 * The instance is sat iff some case has a solution x (with y = net(x)).
 *
 * Decimal constants are real numbers that a double may not hold exactly, so every constant is kept
 * as an enclosing interval [lo, hi] of doubles (lo == hi when the literal is exact in binary):
 *  - each box is kept twice: `lo/hi` CONTAINS the real box (for proofs) and `in_lo/in_hi` is
 *    CONTAINED in it (for counterexamples);
 *  - each row's right-hand side is [rhs_lo, rhs_hi]: a proof refutes the row when
 *    lower_bound(lhs) > rhs_hi, and a counterexample satisfies it when upper_bound(lhs) <= rhs_lo
 *    (< rhs_lo for a strict row).
 * A strict comparison (<, >; a disequality is a < b or a > b) is read as non-strict by proofs (the
 * unsafe set only grows) and kept strict for counterexamples: in the row's flag, or for a bound on
 * a single X_i in the inner box (the next double inward when the bound is a double itself).
 * Coefficients cy/cx come from comparisons of variables (+1/-1/0) and are exact.
 *
 * Two dialects are read. VNNLIB 1 declares scalars X_i / Y_i (declare-const). VNNLIB 2.0 declares
 * one network whose input and output are tensors, (declare-network N (declare-input X float32
 * [1,5]) (declare-output Y float32 [1,5])), and names elements X[0,3]: element X[i_0,...,i_r-1]
 * is X_i with i its row-major offset (the ONNX tensor's order), so both give the same form.
 * A network may declare several inputs and outputs (an ONNX model's several graph inputs and
 * outputs, matched by order or, when every one is given its ONNX name, by name) and hidden nodes
 * (declare-hidden: values the model computes, by their ONNX names), and a 2.0 query
 * may declare several networks (the later ones possibly equal-to or isomorphic-to an earlier one):
 * X_i then runs over all networks' inputs, one network after another and within a network one
 * tensor after another, and Y_i over their outputs (vfy_spec_tensor's off). */
#ifndef VFY_SPEC_H
#define VFY_SPEC_H

#include "vfy/core.h"

typedef struct vfy_box {
    double *lo, *hi;        /* n_x each: outer enclosure of the real box */
    double *in_lo, *in_hi;  /* n_x each: inner (in_lo >= lo, in_hi <= hi); in_lo > in_hi where
                             * the real interval holds no double (X_0 = 0.1, or 0 < X_0 < 0) */
    unsigned char *real_pt; /* n_x, or NULL when all 0: 1 where in_lo > in_hi although the real
                             * interval is known not to be empty (X_0 = 0.1: a point that holds no
                             * double; [lo, hi] contains it). A counterexample gives such an input
                             * the float32 nearest to it (vfy_cex_range, docs/soundness.md 7); one
                             * whose inner interval is empty and real_pt 0 (0 < X_0 < 0, or not
                             * decided) can be proved, but no counterexample of it printed */
} vfy_box;

typedef struct vfy_row {
    double *cy;             /* n_y coefficients of Y */
    double *cx;             /* n_x coefficients of X, or NULL when the row has no X term */
    double rhs_lo, rhs_hi;  /* enclosure of the real right-hand side */
    int strict;             /* 1: lhs < rhs (from <, > or a disequality's alternative) */
} vfy_row;

typedef struct vfy_case {
    int64_t box;            /* index into spec->boxes */
    int64_t n_rows;         /* 0 means "any output is unsafe" (then every x in the box is a counterexample) */
    vfy_row *rows;
} vfy_case;

#define VFY_SPEC_MAX_RANK 8

/* A VNNLIB 2.0 tensor declaration, as written (for the counterexample's header lines). */
typedef struct vfy_spec_tensor {
    char *name;             /* the query's name, e.g. "X" */
    char *type;             /* element type: Real, real, float32 or float64 as written (ONNX's
                             * float and double read as float32 and float64) */
    char *onnx_name;        /* the ONNX input/output it names, NULL when matched by position */
    int rank;               /* 0 for a scalar */
    int64_t shape[VFY_SPEC_MAX_RANK];
    int64_t size;           /* its number of elements (1 for a scalar) */
    int hidden;             /* a declare-hidden: an ONNX value the network computes (onnx_name),
                             * kept among the outputs (its elements are Y_...) */
    int64_t off;            /* its elements are X_off .. X_{off+size-1} (Y_... for an output):
                             * declaration order as parsed; the model's order once the CLI has
                             * matched the tensors to the model's (vfy_spec_permute) */
} vfy_spec_tensor;

#define VFY_SPEC_MAX_IO 32  /* inputs, and outputs, of one network */

/* How a VNNLIB 2.0 network relates to one declared before it. */
typedef enum vfy_spec_relation {
    VFY_SPEC_OWN = 0,        /* none: a model of its own */
    VFY_SPEC_EQUAL_TO,       /* (equal-to N): the same structure and weights as N */
    VFY_SPEC_ISOMORPHIC_TO   /* (isomorphic-to N): the same structure as N, its own weights */
} vfy_spec_relation;

/* A VNNLIB 2.0 declare-network. Its inputs' elements are X_{x_off} .. X_{x_off + n_x - 1} of the
 * query, its outputs' Y_{y_off} .. Y_{y_off + n_y - 1}: the networks' blocks follow one another
 * in declaration order, and its tensors lie inside its blocks (in the model's order once matched
 * to it, vfy_spec_permute). */
typedef struct vfy_spec_net {
    char *name;
    vfy_spec_relation rel;
    int64_t rel_to;         /* the network related to (declared earlier), -1 for VFY_SPEC_OWN */
    int n_inputs, n_outputs;
    /* declaration order; outputs[] holds the hidden nodes too (declared before the outputs) */
    vfy_spec_tensor inputs[VFY_SPEC_MAX_IO], outputs[VFY_SPEC_MAX_IO];
    int n_hidden;           /* how many of outputs[] are hidden nodes */
    int by_name;            /* 1: every input and output names its ONNX tensor (matched by name;
                             * hidden nodes always are) */
    int64_t x_off, y_off;
    int64_t n_x, n_y;       /* the sizes of its blocks */
} vfy_spec_net;

typedef struct vfy_spec {
    int64_t n_x, n_y;       /* number of declared X_i and Y_i (indices 0..n-1, all declared) */
    int64_t n_boxes;
    vfy_box *boxes;         /* distinct input boxes */
    int64_t n_cases;
    vfy_case *cases;
    int version;            /* 1: X_i / Y_i declarations; 2: declare-network */
    int64_t n_nets;         /* version 2: the networks in declaration order (0 for version 1) */
    vfy_spec_net *nets;
} vfy_spec;

/* Parse VNNLIB text (len bytes, need not be NUL-terminated). `name` is the file name used in error
 * messages ("spec.vnnlib:12:5: ..."). On success *out is a new spec owned by the caller. */
vfy_status vfy_spec_parse(const char *text, size_t len, const char *name, vfy_spec **out,
                          vfy_error *err);
/* Read and parse a file. */
vfy_status vfy_spec_load(const char *path, vfy_spec **out, vfy_error *err);
/* Renumber the variables: X_i becomes X_{xmap[i]} and Y_j becomes Y_{ymap[j]} (permutations of
 * 0..n_x-1 and 0..n_y-1; NULL for the identity) in the boxes, the rows and the tensors' offsets.
 * Used to lay a network's tensors out in its model's order. */
vfy_status vfy_spec_permute(vfy_spec *spec, const int64_t *xmap, const int64_t *ymap,
                            vfy_error *err);
/* The ONNX names of network q's hidden nodes (declare-hidden), in the query's order, into
 * names[0..VFY_SPEC_MAX_IO) (borrowed from spec); returns how many (0 for a VNNLIB 1 spec). */
int vfy_spec_hidden_names(const vfy_spec *spec, int64_t q, const char **names);
/* Where a counterexample may put input j of box bx, into [*lo, *hi]: 1 and the inner interval
 * (inside the real one) when it is not empty; else 2 and the outer one (around the real one) where
 * real_pt marks a real interval known not to be empty (a float32 value next to it is then taken);
 * 0 when neither (no counterexample can be printed). */
int vfy_box_cex_range(const vfy_box *bx, int64_t j, double *lo, double *hi);
/* Free a spec; accepts NULL. */
void vfy_spec_free(vfy_spec *spec);

#endif
