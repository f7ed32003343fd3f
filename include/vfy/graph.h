/* graph: the ONNX model as a dataflow graph of typed tensors, between the ONNX loader and the net.
 *
 * A graph is a set of values (tensors: name, type, static shape, and data when constant) and nodes
 * (an op, its input values, attributes, its output values). The loader (src/onnx.c) fills it from the
 * protobuf; the graph owns copies of everything (it never points into the protobuf). Then:
 *
 *     vfy_graph_sort    topological order of the nodes (rejects cycles)
 *     vfy_graph_infer   shape inference and constant folding, in one pass in that order: every node
 *                       whose inputs are all constant is evaluated in its tensor's own ONNX type
 *                       (float32 arithmetic for FLOAT, int64 for shape arithmetic), so shape
 *                       computations (Shape -> Gather -> Concat -> Reshape) fold away
 *     vfy_graph_lower   the computed path (the values that depend on the network input) lowered to
 *                       the layer chain of vfy/net.h without rounding its real-valued semantics
 *
 * Messages name the file (g->file) and the node: "model.onnx: node 'fc1' (Gemm): ...". */
#ifndef VFY_GRAPH_H
#define VFY_GRAPH_H

#include "vfy/net.h"

#define VFY_MAX_RANK 8
/* Largest tensor (elements) or lowered weight matrix (entries) the loader materialises. */
#define VFY_MAX_ELEMS ((int64_t)1 << 28)

typedef enum vfy_op {
    VFY_OP_OTHER,            /* an op verify does not know: kept so the error can name it */
    VFY_OP_IDENTITY,
    VFY_OP_CONSTANT,
    VFY_OP_CONSTANT_OF_SHAPE,
    VFY_OP_SHAPE,
    VFY_OP_GATHER,
    VFY_OP_CONCAT,
    VFY_OP_CAST,
    VFY_OP_UNSQUEEZE,
    VFY_OP_SQUEEZE,
    VFY_OP_SLICE,
    VFY_OP_EXPAND,           /* constant shape; on a computed tensor a selection */
    VFY_OP_TILE,             /* constant repeats; likewise */
    VFY_OP_RESHAPE,
    VFY_OP_FLATTEN,
    VFY_OP_TRANSPOSE,
    VFY_OP_GEMM,
    VFY_OP_MATMUL,
    VFY_OP_ADD,
    VFY_OP_SUB,
    VFY_OP_MUL,
    VFY_OP_DIV,
    VFY_OP_NEG,
    VFY_OP_RELU,
    VFY_OP_CONV,             /* 1-D and 2-D, NCHW */
    VFY_OP_AVERAGE_POOL,
    VFY_OP_GLOBAL_AVERAGE_POOL,
    VFY_OP_MAX_POOL,         /* one output (Indices unsupported) */
    VFY_OP_BATCH_NORM,       /* inference mode */
    VFY_OP_PAD,              /* constant mode */
    VFY_OP_SIGMOID,
    VFY_OP_TANH,
    VFY_OP_LEAKY_RELU,       /* lowered through ReLU (graph.c) */
    VFY_OP_CLIP,             /* constant bounds; lowered through ReLU (graph.c) */
    VFY_OP_PRELU,            /* constant slope; lowered through ReLU */
    VFY_OP_ABS,              /* lowered through ReLU */
    VFY_OP_MAX,              /* of a computed tensor and a constant; lowered through ReLU */
    VFY_OP_MIN,              /* likewise */
    VFY_OP_REDUCE_MEAN,      /* on computed tensors */
    VFY_OP_REDUCE_SUM,
    VFY_OP_DROPOUT,          /* inference: the identity */
    VFY_OP_CONV_TRANSPOSE,   /* 1-D and 2-D, NCHW; explicit pads (or VALID), no output_shape */
    VFY_OP_RESIZE,           /* mode nearest, where every index is unambiguous (graph.c) */
    VFY_OP_UPSAMPLE,         /* likewise (deprecated form of Resize) */
    VFY_OP_SOFTMAX,          /* only as the output, over all of it (net.h, vfy_out_op) */
    VFY_OP_LOG_SOFTMAX,      /* likewise */
    VFY_OP_SPLIT,            /* rewritten into one Slice per output by vfy_graph_infer */
    VFY_OP_POW,              /* constants; a computed base squared (exponent 2): Mul(x, x) */
    VFY_OP_REDUCE_MAX,       /* on computed tensors: a MAXPOOL of each reduced group */
    VFY_OP_REDUCE_MIN,       /* likewise, between two negations */
    VFY_OP_GLOBAL_MAX_POOL,  /* a MAXPOOL over each channel */
    VFY_OP_SIGN,             /* floating types: a SIGN layer (binarized networks) */
    VFY_OP_EXP,              /* floating types: an EXP layer */
    VFY_OP_LOG,              /* a LOG layer */
    VFY_OP_SQRT,             /* a SQRT layer */
    VFY_OP_RECIPROCAL,       /* a RECIP layer (Div by a computed tensor becomes one, graph.c) */
    VFY_OP_SOFTPLUS,         /* a SOFTPLUS layer */
    VFY_OP_LAYER_NORM,       /* rewritten into its ONNX function body by vfy_graph_infer */
    VFY_OP_SIN,              /* floating types: a SIN layer */
    VFY_OP_COS,              /* floating types: a COS layer */
    VFY_OP_HARD_SIGMOID,     /* rewritten by vfy_graph_infer (expand_activation) */
    VFY_OP_HARD_SWISH,       /* likewise */
    VFY_OP_ELU,              /* likewise */
    VFY_OP_SELU,             /* likewise */
    VFY_OP_CELU,             /* likewise */
    VFY_OP_SOFTSIGN,         /* likewise */
    VFY_OP_MISH,             /* likewise */
    VFY_OP_SUM,              /* likewise: Adds */
    VFY_OP_MEAN,             /* likewise: Adds and a Div */
    VFY_OP_ERF,              /* floating types: an ERF layer */
    VFY_OP_GELU,             /* floating types: a GELU layer; the tanh form rewritten
                              * (expand_activation) */
    VFY_OP_EQUAL,            /* comparisons of constants (BOOL), folded */
    VFY_OP_LESS,
    VFY_OP_LESS_OR_EQUAL,
    VFY_OP_GREATER,
    VFY_OP_GREATER_OR_EQUAL,
    VFY_OP_NOT,              /* logic on constant BOOL tensors, folded */
    VFY_OP_AND,
    VFY_OP_OR,
    VFY_OP_XOR,
    VFY_OP_WHERE,            /* constant condition: folded, or rewritten (expand_where) */
    VFY_OP_RANGE,            /* of constants, folded */
    VFY_OP_FLOOR,            /* of constants, folded */
    VFY_OP_CEIL,
    VFY_OP_ROUND,
    VFY_OP_SWISH,            /* x sigmoid(alpha x) (opset 24): a SILU layer for alpha 1, else
                              * rewritten; Mul(x, Sigmoid(x)) becomes one (vfy_graph_infer) */
    VFY_OP_ERFGATE,          /* internal, no ONNX name: u (1 + erf(u)) / 2, an ERFGATE layer
                              * (expand_gelu_export) */
    VFY_OP_COUNT
} vfy_op;

/* Element types (the ONNX TensorProto.DataType codes we accept). Integer tensors hold int64_t
 * data, floating ones hold double data (a float32 value is held exactly). */
typedef enum vfy_dtype {
    VFY_DT_FLOAT,   /* ONNX FLOAT (1) */
    VFY_DT_DOUBLE,  /* ONNX DOUBLE (11) */
    VFY_DT_INT64,   /* ONNX INT64 (7) */
    VFY_DT_INT32,   /* ONNX INT32 (6), held in int64_t */
    VFY_DT_BOOL,    /* ONNX BOOL (9), held in int64_t as 0 or 1; constants only */
    VFY_DT_COUNT
} vfy_dtype;

typedef struct vfy_tensor {
    vfy_dtype dtype;
    int rank;
    int64_t shape[VFY_MAX_RANK];
    int64_t numel;      /* product of shape (1 for a scalar) */
    double *f;          /* data of a constant FLOAT/DOUBLE tensor (numel values, owned), else NULL */
    int64_t *i;         /* data of a constant INT64/INT32/BOOL tensor (owned), else NULL */
} vfy_tensor;

typedef enum vfy_attr_kind {
    VFY_ATTR_INT, VFY_ATTR_FLOAT, VFY_ATTR_INTS, VFY_ATTR_FLOATS, VFY_ATTR_STRING, VFY_ATTR_TENSOR,
    VFY_ATTR_OTHER, /* graphs, sparse tensors, ...: recorded by name only */
    VFY_ATTR_KIND_COUNT
} vfy_attr_kind;

typedef struct vfy_attr {
    char *name;
    vfy_attr_kind kind;
    int64_t i;          /* INT */
    double f;           /* FLOAT (the float32 value, exactly) */
    int64_t n;          /* INTS / FLOATS: count */
    int64_t *ints;      /* INTS */
    double *floats;     /* FLOATS */
    char *s;            /* STRING (NUL-terminated copy) */
    vfy_tensor t;       /* TENSOR (constant, with data) */
} vfy_attr;

typedef struct vfy_value {
    char *name;
    vfy_tensor t;       /* type and shape valid after vfy_graph_infer (inputs/initializers: at once) */
    int is_const;       /* 1: t holds data (initializer, Constant, or folded) */
    int is_shaped;      /* 1: t's shape is known */
    int64_t producer;   /* index of the node that produces it, -1 for graph inputs and initializers */
} vfy_value;

typedef struct vfy_node {
    vfy_op op;
    char *name;         /* ONNX name, or "#k" (k its index in the file) when it has none */
    char *op_type;      /* the ONNX op type as written */
    int64_t n_in;
    int64_t *in;        /* value indices; -1 for an omitted optional input */
    int64_t n_out;
    int64_t *out;       /* value indices; -1 for an unused optional output */
    int64_t n_attr;
    vfy_attr *attr;
} vfy_node;

typedef struct vfy_graph {
    char *file;         /* name used in messages */
    int64_t n_values, cap_values;
    vfy_value *values;
    int64_t n_nodes, cap_nodes;
    vfy_node *nodes;
    int64_t input;      /* the network input value */
    int64_t output;     /* the network output value */
    int64_t n_inputs, n_outputs;
    /* the ONNX graph's inputs and outputs, in order (owned): input and output themselves, or,
     * when several, what vfy_graph_set_io joins */
    int64_t *inputs, *outputs;
} vfy_graph;

/* A new empty graph (owned by the caller, vfy_graph_free); file is copied. NULL when out of memory. */
vfy_graph *vfy_graph_new(const char *file);
/* Free a graph and everything it owns; accepts NULL. */
void vfy_graph_free(vfy_graph *g);
/* Free a tensor's data (not the struct); accepts NULL. */
void vfy_tensor_clear(vfy_tensor *t);

/* Append a value named name (copied); *idx receives its index. VFY_ERR_INVALID when a value of that
 * name exists already (ONNX is single-assignment). */
vfy_status vfy_graph_add_value(vfy_graph *g, const char *name, int64_t *idx, vfy_error *err);
/* Index of the value named name, or -1. */
int64_t vfy_graph_find_value(const vfy_graph *g, const char *name);
/* Append a node with n_in inputs and n_out outputs, all set to -1, and room for n_attr attributes
 * (n_attr stays 0; the caller fills attr[] and counts). name and op_type are copied; a NULL or empty
 * name becomes "#k" with k = the node's index. *idx receives the node's index. */
vfy_status vfy_graph_add_node(vfy_graph *g, const char *name, const char *op_type, int64_t n_in,
                              int64_t n_out, int64_t n_attr, int64_t *idx, vfy_error *err);

/* Declare the network's inputs (values with their type and shape set, no producer) and outputs
 * (values nodes produce), in the model's order. One of each: they are g->input and g->output.
 * Several inputs: g->input becomes a new rank-1 value holding them all one after another, each
 * input the Reshape of its Slice of it; several outputs: g->output becomes the Concat of their
 * flattenings (nodes added here, named "vfy.*"). The inputs must share one element type. */
vfy_status vfy_graph_set_io(vfy_graph *g, const int64_t *inputs, int64_t n_inputs,
                            const int64_t *outputs, int64_t n_outputs, vfy_error *err);

/* The op for an ONNX op type ("Gemm" -> VFY_OP_GEMM; unknown -> VFY_OP_OTHER), and back. */
vfy_op vfy_op_from_name(const char *op_type);
const char *vfy_op_name(vfy_op op);
/* The ONNX name of a dtype ("FLOAT", ...). */
const char *vfy_dtype_name(vfy_dtype dt);

/* Topological order: reorder g->nodes so every node comes after the producers of its inputs (stable:
 * an already sorted graph keeps its order). VFY_ERR_INVALID on a cycle. */
vfy_status vfy_graph_sort(vfy_graph *g, vfy_error *err);

/* Shape inference and constant folding over a sorted graph. Requires the input's and the
 * initializers' tensors set. VFY_ERR_UNSUPPORTED for an unknown op, attribute or a non-constant
 * operand an op needs constant (messages name the node); VFY_ERR_INVALID for inconsistent shapes. */
vfy_status vfy_graph_infer(vfy_graph *g, vfy_error *err);

/* Lower the computed path of an inferred graph to a new net (owned by the caller, vfy_net_free).
 * A computed value read by several nodes (residual Add/Sub, computed Concat) is carried along the
 * chain until its last reader (exactly; see src/graph.c). VFY_ERR_UNSUPPORTED for ops that cannot be
 * lowered exactly, two computed operands of any op but Add, Sub and Concat, and a value carried
 * past a Sigmoid or Tanh. Conv, AveragePool, GlobalAveragePool and Pad become DENSE layers
 * (the operator's matrix on the row-major (N,C,H,W) vector; refused above VFY_MAX_ELEMS entries),
 * BatchNormalization a SCALE per element, MaxPool a MAXPOOL layer (its windows' input indices).
 * See src/graph.c for the lowering of each op. */
vfy_status vfy_graph_lower(const vfy_graph *g, vfy_net **out, vfy_error *err);

/* What a lowering may take: a deadline (NULL: none), past which it stops with VFY_ERR_TIMEOUT,
 * and a ceiling on the bytes its layers' matrices hold (their entries, the bias, the CSR row and
 * column indices, a matrix's entries while it is built; <= 0: half the machine's physical
 * memory, vfy_physical_memory_bytes), past which it stops with VFY_ERR_UNSUPPORTED. The
 * ceiling keeps a network whose convolutions lower to tens of gigabytes (a VGG-16 on 64 x 64
 * images, 1.4e9 nonzeros) from taking the machine's memory: refused at once where its Conv nodes'
 * entries alone exceed it, else when the lowering reaches it. */
typedef struct vfy_lower_limits {
    const vfy_deadline *dl;
    double max_bytes;
} vfy_lower_limits;

/* vfy_graph_lower within lim (NULL: the defaults above). */
vfy_status vfy_graph_lower_limited(const vfy_graph *g, const vfy_lower_limits *lim, vfy_net **out,
                                   vfy_error *err);
/* The ceiling in bytes that lim sets (its default filled in). */
double vfy_lower_max_bytes(const vfy_lower_limits *lim);

#endif
