/* graph: values and nodes, topological order, shape inference, constant folding, and the lowering
 * to a vfy_net. See include/vfy/graph.h. */
#include "vfy/graph.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Per-op facts: the ONNX op type, the attributes we understand (space separated: any other is
 * refused, since ignoring it could change the semantics), and the input count. An input past
 * min_in may be left out (an empty name), but not of a VARIADIC op, whose inputs are all
 * operands. */
#define VARIADIC (1 << 20)
static const struct op_info {
    const char *name;
    const char *attrs;
    int min_in, max_in;
} op_info[] = {
    {"?", "", 0, 0},
    {"Identity", "", 1, 1},
    {"Constant", "value value_float value_floats value_int value_ints", 0, 0},
    {"ConstantOfShape", "value", 1, 1},
    {"Shape", "start end", 1, 1},
    {"Gather", "axis", 2, 2},
    {"Concat", "axis", 1, VARIADIC},
    {"Cast", "to saturate", 1, 1},
    {"Unsqueeze", "axes", 1, 2},
    {"Squeeze", "axes", 1, 2},
    {"Slice", "starts ends axes", 1, 5},
    {"Expand", "", 2, 2},
    {"Tile", "", 2, 2},
    {"Reshape", "allowzero", 2, 2},
    {"Flatten", "axis", 1, 1},
    {"Transpose", "perm", 1, 1},
    {"Gemm", "alpha beta transA transB", 2, 3},
    {"MatMul", "", 2, 2},
    {"Add", "", 2, 2},
    {"Sub", "", 2, 2},
    {"Mul", "", 2, 2},
    {"Div", "", 2, 2},
    {"Neg", "", 1, 1},
    {"Relu", "", 1, 1},
    {"Conv", "auto_pad dilations group kernel_shape pads strides", 2, 3},
    {"AveragePool", "auto_pad ceil_mode count_include_pad kernel_shape pads strides", 1, 1},
    {"GlobalAveragePool", "", 1, 1},
    {"MaxPool", "auto_pad ceil_mode dilations kernel_shape pads storage_order strides", 1, 1},
    {"BatchNormalization", "epsilon momentum spatial training_mode", 5, 5},
    {"Pad", "mode pads value", 1, 4},
    {"Sigmoid", "", 1, 1},
    {"Tanh", "", 1, 1},
    {"LeakyRelu", "alpha", 1, 1},
    {"Clip", "min max", 1, 3},
    {"PRelu", "", 2, 2},
    {"Abs", "", 1, 1},
    {"Max", "", 1, VARIADIC},
    {"Min", "", 1, VARIADIC},
    {"ReduceMean", "axes keepdims noop_with_empty_axes", 1, 2},
    {"ReduceSum", "axes keepdims noop_with_empty_axes", 1, 2},
    {"Dropout", "ratio seed", 1, 3},
    {"ConvTranspose",
     "auto_pad dilations group kernel_shape output_padding output_shape pads strides", 2, 3},
    {"Resize",
     "antialias axes coordinate_transformation_mode cubic_coeff_a exclude_outside "
     "extrapolation_value keep_aspect_ratio_policy mode nearest_mode", 1, 4},
    {"Upsample", "mode scales", 1, 2},
    {"Softmax", "axis", 1, 1},
    {"LogSoftmax", "axis", 1, 1},
    {"Split", "axis num_outputs split", 1, 2},
    {"Pow", "", 2, 2},
    {"ReduceMax", "axes keepdims noop_with_empty_axes", 1, 2},
    {"ReduceMin", "axes keepdims noop_with_empty_axes", 1, 2},
    {"GlobalMaxPool", "", 1, 1},
    {"Sign", "", 1, 1},
    {"Exp", "", 1, 1},
    {"Log", "", 1, 1},
    {"Sqrt", "", 1, 1},
    {"Reciprocal", "", 1, 1},
    {"Softplus", "", 1, 1},
    {"LayerNormalization", "axis epsilon stash_type", 2, 3},
    {"Sin", "", 1, 1},
    {"Cos", "", 1, 1},
    {"HardSigmoid", "alpha beta", 1, 1},
    {"HardSwish", "", 1, 1},
    {"Elu", "alpha", 1, 1},
    {"Selu", "alpha gamma", 1, 1},
    {"Celu", "alpha", 1, 1},
    {"Softsign", "", 1, 1},
    {"Mish", "", 1, 1},
    {"Sum", "", 1, VARIADIC},
    {"Mean", "", 1, VARIADIC},
    {"Erf", "", 1, 1},
    {"Gelu", "approximate", 1, 1},
    {"Equal", "", 2, 2},
    {"Less", "", 2, 2},
    {"LessOrEqual", "", 2, 2},
    {"Greater", "", 2, 2},
    {"GreaterOrEqual", "", 2, 2},
    {"Not", "", 1, 1},
    {"And", "", 2, 2},
    {"Or", "", 2, 2},
    {"Xor", "", 2, 2},
    {"Where", "", 3, 3},
    {"Range", "", 3, 3},
    {"Floor", "", 1, 1},
    {"Ceil", "", 1, 1},
    {"Round", "", 1, 1},
    {"Swish", "alpha", 1, 1},
    {"", "", 1, 1}, /* ERFGATE (no model node has an empty op_type: onnx.c refuses it) */
};
_Static_assert(sizeof op_info / sizeof op_info[0] == VFY_OP_COUNT, "one entry per op");

static const char *const dtype_names[] = {"FLOAT", "DOUBLE", "INT64", "INT32", "BOOL"};
_Static_assert(sizeof dtype_names / sizeof dtype_names[0] == VFY_DT_COUNT, "one name per dtype");

vfy_op vfy_op_from_name(const char *op_type)
{
    for (int k = 1; k < VFY_OP_COUNT; k++)
        if (strcmp(op_info[k].name, op_type) == 0)
            return (vfy_op)k;
    return VFY_OP_OTHER;
}

const char *vfy_op_name(vfy_op op)
{
    return (op >= 0 && op < VFY_OP_COUNT) ? op_info[op].name : "?";
}

const char *vfy_dtype_name(vfy_dtype dt)
{
    return (dt >= 0 && dt < VFY_DT_COUNT) ? dtype_names[dt] : "?";
}

/* ---- construction and destruction ---- */

void vfy_tensor_clear(vfy_tensor *t)
{
    if (!t)
        return;
    vfy_free(t->f);
    vfy_free(t->i);
    t->f = NULL;
    t->i = NULL;
}

vfy_graph *vfy_graph_new(const char *file)
{
    vfy_graph *g = vfy_alloc(sizeof *g);
    if (!g)
        return NULL;
    g->file = vfy_strdup(file ? file : "model");
    if (!g->file) {
        vfy_free(g);
        return NULL;
    }
    g->input = g->output = -1;
    return g;
}

static void attr_clear(vfy_attr *a)
{
    vfy_free(a->name);
    vfy_free(a->ints);
    vfy_free(a->floats);
    vfy_free(a->s);
    vfy_tensor_clear(&a->t);
}

void vfy_graph_free(vfy_graph *g)
{
    if (!g)
        return;
    for (int64_t k = 0; k < g->n_values; k++) {
        vfy_free(g->values[k].name);
        vfy_tensor_clear(&g->values[k].t);
    }
    for (int64_t k = 0; k < g->n_nodes; k++) {
        vfy_node *n = &g->nodes[k];
        vfy_free(n->name);
        vfy_free(n->op_type);
        vfy_free(n->in);
        vfy_free(n->out);
        for (int64_t a = 0; a < n->n_attr; a++)
            attr_clear(&n->attr[a]);
        vfy_free(n->attr);
    }
    vfy_free(g->values);
    vfy_free(g->nodes);
    vfy_free(g->inputs);
    vfy_free(g->outputs);
    vfy_free(g->file);
    vfy_free(g);
}

int64_t vfy_graph_find_value(const vfy_graph *g, const char *name)
{
    for (int64_t k = 0; k < g->n_values; k++)
        if (strcmp(g->values[k].name, name) == 0)
            return k;
    return -1;
}

/* Grow an array of elem-sized items to hold at least need items. */
static int grow(void **arr, int64_t *cap, int64_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    int64_t nc = *cap ? *cap * 2 : 16;
    while (nc < need)
        nc *= 2;
    void *p = vfy_realloc(*arr, (size_t)nc * elem);
    if (!p)
        return -1;
    memset((char *)p + (size_t)*cap * elem, 0, (size_t)(nc - *cap) * elem);
    *arr = p;
    *cap = nc;
    return 0;
}

vfy_status vfy_graph_add_value(vfy_graph *g, const char *name, int64_t *idx, vfy_error *err)
{
    if (vfy_graph_find_value(g, name) >= 0)
        return vfy_fail(err, VFY_ERR_INVALID, "%s: tensor '%s' is defined twice", g->file, name);
    if (grow((void **)&g->values, &g->cap_values, g->n_values + 1, sizeof *g->values))
        return vfy_fail(err, VFY_ERR_NOMEM, "%s: out of memory", g->file);
    vfy_value *v = &g->values[g->n_values];
    memset(v, 0, sizeof *v);
    v->name = vfy_strdup(name);
    if (!v->name)
        return vfy_fail(err, VFY_ERR_NOMEM, "%s: out of memory", g->file);
    v->producer = -1;
    *idx = g->n_values++;
    return VFY_OK;
}

vfy_status vfy_graph_add_node(vfy_graph *g, const char *name, const char *op_type, int64_t n_in,
                              int64_t n_out, int64_t n_attr, int64_t *idx, vfy_error *err)
{
    if (grow((void **)&g->nodes, &g->cap_nodes, g->n_nodes + 1, sizeof *g->nodes))
        return vfy_fail(err, VFY_ERR_NOMEM, "%s: out of memory", g->file);
    vfy_node *n = &g->nodes[g->n_nodes];
    memset(n, 0, sizeof *n);
    char nm[32];
    if (!name || !*name) {
        snprintf(nm, sizeof nm, "#%lld", (long long)g->n_nodes);
        name = nm;
    }
    /* The node counts as added from here on, so vfy_graph_free releases whatever got allocated. */
    g->n_nodes++;
    n->op = vfy_op_from_name(op_type);
    n->name = vfy_strdup(name);
    n->op_type = vfy_strdup(op_type);
    n->in = vfy_alloc_array((size_t)n_in, sizeof *n->in);
    n->out = vfy_alloc_array((size_t)n_out, sizeof *n->out);
    n->attr = vfy_alloc_array((size_t)n_attr, sizeof *n->attr);
    if (!n->name || !n->op_type || !n->in || !n->out || !n->attr)
        return vfy_fail(err, VFY_ERR_NOMEM, "%s: out of memory", g->file);
    n->n_in = n_in;
    n->n_out = n_out;
    for (int64_t k = 0; k < n_in; k++)
        n->in[k] = -1;
    for (int64_t k = 0; k < n_out; k++)
        n->out[k] = -1;
    *idx = g->n_nodes - 1;
    return VFY_OK;
}

/* ---- several inputs and outputs ---- */

/* A new value named base + suffix, or base + suffix + "#2", "#3"... when that name is taken. */
static vfy_status add_fresh_value(vfy_graph *g, const char *base, const char *suffix,
                                  int64_t *idx, vfy_error *err)
{
    char name[512];
    for (int q = 1;; q++) {
        if (q == 1)
            snprintf(name, sizeof name, "%s%s", base, suffix);
        else
            snprintf(name, sizeof name, "%s%s#%d", base, suffix, q);
        if (vfy_graph_find_value(g, name) < 0)
            return vfy_graph_add_value(g, name, idx, err);
    }
}

static int set_shape(vfy_tensor *t, int rank, const int64_t *shape);
static int tensor_alloc(vfy_tensor *t);

/* A new constant INT64 vector of n entries. */
static vfy_status add_int_const(vfy_graph *g, const char *base, const int64_t *v, int64_t n,
                                int64_t *idx, vfy_error *err)
{
    vfy_status st = add_fresh_value(g, base, "", idx, err);
    if (st)
        return st;
    vfy_value *c = &g->values[*idx];
    c->t.dtype = VFY_DT_INT64;
    if (set_shape(&c->t, 1, &n) || tensor_alloc(&c->t))
        return vfy_fail(err, VFY_ERR_NOMEM, "%s: out of memory", g->file);
    memcpy(c->t.i, v, (size_t)n * sizeof *v);
    c->is_const = c->is_shaped = 1;
    return VFY_OK;
}

/* A new node op(ins) -> out, with an INT attribute axis when axis >= 0 (Concat). */
static vfy_status add_join_node(vfy_graph *g, const char *op, const int64_t *ins, int64_t n_in,
                                int64_t out, int64_t axis, vfy_error *err)
{
    char nm[64];
    snprintf(nm, sizeof nm, "vfy.%s.%lld", op, (long long)g->n_nodes);
    int64_t k;
    vfy_status st = vfy_graph_add_node(g, nm, op, n_in, 1, axis >= 0, &k, err);
    if (st)
        return st;
    vfy_node *n = &g->nodes[k];
    memcpy(n->in, ins, (size_t)n_in * sizeof *ins);
    n->out[0] = out;
    g->values[out].producer = k;
    if (axis >= 0) {
        n->attr[0] = (vfy_attr){.name = vfy_strdup("axis"), .kind = VFY_ATTR_INT, .i = axis};
        n->n_attr = 1;
        if (!n->attr[0].name)
            return vfy_fail(err, VFY_ERR_NOMEM, "%s: out of memory", g->file);
    }
    return VFY_OK;
}

vfy_status vfy_graph_set_io(vfy_graph *g, const int64_t *inputs, int64_t n_inputs,
                            const int64_t *outputs, int64_t n_outputs, vfy_error *err)
{
    VFY_ASSERT(n_inputs >= 1 && n_outputs >= 1 && !g->inputs && !g->outputs);
    g->inputs = vfy_alloc_array((size_t)n_inputs, sizeof *g->inputs);
    g->outputs = vfy_alloc_array((size_t)n_outputs, sizeof *g->outputs);
    if (!g->inputs || !g->outputs)
        return vfy_fail(err, VFY_ERR_NOMEM, "%s: out of memory", g->file);
    memcpy(g->inputs, inputs, (size_t)n_inputs * sizeof *inputs);
    memcpy(g->outputs, outputs, (size_t)n_outputs * sizeof *outputs);
    g->n_inputs = n_inputs;
    g->n_outputs = n_outputs;
    g->input = inputs[0];
    g->output = outputs[0];
    vfy_status st;
    if (n_inputs > 1) {
        /* flat = the inputs one after another; input k = Reshape(Slice(flat, [o], [o + n]),
         * its shape) */
        int64_t total = 0, flat, zero = 0;
        const vfy_value *v0 = &g->values[inputs[0]];
        for (int64_t k = 0; k < n_inputs; k++) {
            const vfy_value *v = &g->values[inputs[k]];
            if (v->t.dtype != v0->t.dtype)
                return vfy_fail(err, VFY_ERR_UNSUPPORTED, "%s: inputs '%s' and '%s' have "
                                "different data types %s and %s (unsupported)", g->file, v0->name,
                                v->name, vfy_dtype_name(v0->t.dtype), vfy_dtype_name(v->t.dtype));
            if (total > VFY_MAX_ELEMS - v->t.numel)
                return vfy_fail(err, VFY_ERR_UNSUPPORTED, "%s: the inputs are too large",
                                g->file);
            total += v->t.numel;
        }
        if ((st = add_fresh_value(g, "vfy.inputs", "", &flat, err)))
            return st;
        vfy_value *f = &g->values[flat];
        f->t = (vfy_tensor){.dtype = v0->t.dtype, .rank = 1, .shape = {total}, .numel = total};
        f->is_shaped = 1;
        int64_t axes, off = 0;
        if ((st = add_int_const(g, "vfy.axis0", &zero, 1, &axes, err)))
            return st;
        for (int64_t k = 0; k < n_inputs; k++) {
            vfy_value *v = &g->values[inputs[k]];
            int64_t end = off + v->t.numel, b, e, shape, part, dims[VFY_MAX_RANK];
            int rank = v->t.rank;
            memcpy(dims, v->t.shape, sizeof dims); /* (adding values moves g->values) */
            if ((st = add_int_const(g, "vfy.start", &off, 1, &b, err)) ||
                (st = add_int_const(g, "vfy.end", &end, 1, &e, err)) ||
                (st = add_int_const(g, "vfy.shape", dims, rank, &shape, err)) ||
                (st = add_fresh_value(g, "vfy.part", "", &part, err)))
                return st;
            int64_t sl[4] = {flat, b, e, axes}, rs[2] = {part, shape};
            if ((st = add_join_node(g, "Slice", sl, 4, part, -1, err)) ||
                (st = add_join_node(g, "Reshape", rs, 2, inputs[k], -1, err)))
                return st;
            /* its type and shape now come from the nodes (inferred), as any node output's */
            v = &g->values[inputs[k]];
            v->is_shaped = 0;
            off = end;
        }
        g->input = flat;
    }
    if (n_outputs > 1) {
        /* output = Concat(Reshape(output k, [-1]) for each k), axis 0 */
        int64_t *parts = vfy_alloc_array((size_t)n_outputs, sizeof *parts), minus1 = -1, shape,
                cat;
        if (!parts)
            return vfy_fail(err, VFY_ERR_NOMEM, "%s: out of memory", g->file);
        st = add_int_const(g, "vfy.flat", &minus1, 1, &shape, err);
        for (int64_t k = 0; k < n_outputs && !st; k++) {
            int64_t rs[2] = {outputs[k], shape};
            if (!(st = add_fresh_value(g, "vfy.flat_output", "", &parts[k], err)))
                st = add_join_node(g, "Reshape", rs, 2, parts[k], -1, err);
        }
        if (!st && !(st = add_fresh_value(g, "vfy.outputs", "", &cat, err)))
            st = add_join_node(g, "Concat", parts, n_outputs, cat, 0, err);
        vfy_free(parts);
        if (st)
            return st;
        g->output = cat;
    }
    return VFY_OK;
}

/* ---- topological order ---- */

vfy_status vfy_graph_sort(vfy_graph *g, vfy_error *err)
{
    vfy_status st = VFY_OK;
    int64_t n = g->n_nodes;
    char *done = vfy_alloc((size_t)n + 1);
    int64_t *order = vfy_alloc_array((size_t)n + 1, sizeof *order);
    vfy_node *sorted = vfy_alloc_array((size_t)n + 1, sizeof *sorted);
    if (!done || !order || !sorted) {
        st = vfy_fail(err, VFY_ERR_NOMEM, "%s: out of memory", g->file);
        goto fail;
    }
    /* Repeated stable passes: one pass for a graph that is already in order (the usual case). */
    int64_t n_done = 0;
    while (n_done < n) {
        int64_t before = n_done;
        for (int64_t k = 0; k < n; k++) {
            if (done[k])
                continue;
            const vfy_node *nd = &g->nodes[k];
            int ready = 1;
            for (int64_t j = 0; j < nd->n_in && ready; j++) {
                if (nd->in[j] < 0)
                    continue;
                int64_t p = g->values[nd->in[j]].producer;
                if (p >= 0 && !done[p])
                    ready = 0;
            }
            if (ready) {
                done[k] = 1;
                order[n_done++] = k;
            }
        }
        if (n_done == before) {
            for (int64_t k = 0; k < n; k++)
                if (!done[k]) {
                    st = vfy_fail(err, VFY_ERR_INVALID, "%s: node '%s' (%s): the graph has a cycle",
                                  g->file, g->nodes[k].name, g->nodes[k].op_type);
                    goto fail;
                }
        }
    }
    for (int64_t k = 0; k < n; k++)
        sorted[k] = g->nodes[order[k]];
    for (int64_t k = 0; k < n; k++)
        g->nodes[k] = sorted[k];
    for (int64_t k = 0; k < n; k++)
        for (int64_t j = 0; j < g->nodes[k].n_out; j++)
            if (g->nodes[k].out[j] >= 0)
                g->values[g->nodes[k].out[j]].producer = k;
fail:
    vfy_free(done);
    vfy_free(order);
    vfy_free(sorted);
    return st;
}

/* live[k] = 1 when node k contributes to the output (g sorted). Caller frees; NULL on no memory. */
static char *live_nodes(const vfy_graph *g)
{
    char *live = vfy_alloc((size_t)g->n_nodes + 1);
    if (!live)
        return NULL;
    if (g->output >= 0 && g->values[g->output].producer >= 0)
        live[g->values[g->output].producer] = 1;
    for (int64_t k = g->n_nodes - 1; k >= 0; k--) {
        if (!live[k])
            continue;
        const vfy_node *n = &g->nodes[k];
        for (int64_t j = 0; j < n->n_in; j++)
            if (n->in[j] >= 0 && g->values[n->in[j]].producer >= 0)
                live[g->values[n->in[j]].producer] = 1;
    }
    return live;
}

/* ---- shape inference and folding: helpers ---- */

static vfy_status nfail(const vfy_graph *g, const vfy_node *n, vfy_error *err, vfy_status st,
                        const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static vfy_status nfail(const vfy_graph *g, const vfy_node *n, vfy_error *err, vfy_status st,
                        const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return vfy_fail(err, st, "%s: node '%s' (%s): %s", g->file, n->name, n->op_type, msg);
}

#define NOMEM(g, n, err) nfail(g, n, err, VFY_ERR_NOMEM, "out of memory")

static int dt_float(vfy_dtype dt) { return dt == VFY_DT_FLOAT || dt == VFY_DT_DOUBLE; }

/* Set t's shape; 0, or -1 when the element count overflows or exceeds VFY_MAX_ELEMS. */
static int set_shape(vfy_tensor *t, int rank, const int64_t *shape)
{
    if (rank < 0 || rank > VFY_MAX_RANK)
        return -1;
    int64_t n = 1;
    for (int d = 0; d < rank; d++) {
        if (shape[d] < 0 || __builtin_mul_overflow(n, shape[d], &n) || n > VFY_MAX_ELEMS)
            return -1;
    }
    int64_t tmp[VFY_MAX_RANK];
    for (int d = 0; d < rank; d++) /* shape may alias t->shape */
        tmp[d] = shape[d];
    t->rank = rank;
    for (int d = 0; d < rank; d++)
        t->shape[d] = tmp[d];
    t->numel = n;
    return 0;
}

/* Allocate t's data for its dtype and numel (zeroed); -1 when out of memory. */
static int tensor_alloc(vfy_tensor *t)
{
    vfy_tensor_clear(t);
    if (dt_float(t->dtype))
        t->f = vfy_alloc_array((size_t)t->numel + 1, sizeof *t->f);
    else
        t->i = vfy_alloc_array((size_t)t->numel + 1, sizeof *t->i);
    return (t->f || t->i) ? 0 : -1;
}

/* dst[a] = src[b]; same dtype family. */
static void elem_copy(vfy_tensor *dst, int64_t a, const vfy_tensor *src, int64_t b)
{
    if (dst->f)
        dst->f[a] = src->f[b];
    else
        dst->i[a] = src->i[b];
}

static const vfy_attr *attr_get(const vfy_node *n, const char *name)
{
    for (int64_t k = 0; k < n->n_attr; k++)
        if (strcmp(n->attr[k].name, name) == 0)
            return &n->attr[k];
    return NULL;
}

static vfy_status attr_int(const vfy_graph *g, const vfy_node *n, const char *name, int64_t def,
                           int64_t *out, vfy_error *err)
{
    const vfy_attr *a = attr_get(n, name);
    *out = def;
    if (!a)
        return VFY_OK;
    if (a->kind != VFY_ATTR_INT)
        return nfail(g, n, err, VFY_ERR_INVALID, "attribute '%s' must be an int", name);
    *out = a->i;
    return VFY_OK;
}

static vfy_status attr_float(const vfy_graph *g, const vfy_node *n, const char *name, double def,
                             double *out, vfy_error *err)
{
    const vfy_attr *a = attr_get(n, name);
    *out = def;
    if (!a)
        return VFY_OK;
    if (a->kind != VFY_ATTR_FLOAT)
        return nfail(g, n, err, VFY_ERR_INVALID, "attribute '%s' must be a float", name);
    *out = a->f;
    return VFY_OK;
}

/* A list of ints from input k when present (a constant integer tensor of rank <= 1), else from the
 * attribute `name`; *present = 0 when neither is given. The list points into the graph. */
static vfy_status int_list(const vfy_graph *g, const vfy_node *n, int64_t k, const char *name,
                           const int64_t **vals, int64_t *count, int *present, vfy_error *err)
{
    *vals = NULL;
    *count = 0;
    *present = 0;
    if (k < n->n_in && n->in[k] >= 0) {
        const vfy_value *v = &g->values[n->in[k]];
        if (!v->is_const)
            return nfail(g, n, err, VFY_ERR_UNSUPPORTED,
                         "input '%s' must be a constant (unsupported)", v->name);
        if (dt_float(v->t.dtype) || v->t.rank > 1)
            return nfail(g, n, err, VFY_ERR_INVALID, "input '%s' must be a 1-D integer tensor",
                         v->name);
        *vals = v->t.i;
        *count = v->t.numel;
        *present = 1;
        return VFY_OK;
    }
    const vfy_attr *a = attr_get(n, name);
    if (!a)
        return VFY_OK;
    if (a->kind != VFY_ATTR_INTS && a->kind != VFY_ATTR_INT)
        return nfail(g, n, err, VFY_ERR_INVALID, "attribute '%s' must be a list of ints", name);
    *vals = a->kind == VFY_ATTR_INTS ? a->ints : &a->i;
    *count = a->kind == VFY_ATTR_INTS ? a->n : 1;
    *present = 1;
    return VFY_OK;
}

/* Normalise an axis in [-rank, rank) to [0, rank); -1 when out of range. */
static int64_t norm_axis(int64_t axis, int64_t rank)
{
    if (axis < -rank || axis >= rank)
        return -1;
    return axis < 0 ? axis + rank : axis;
}

/* Multidirectional (numpy) broadcast of shapes a and b into (rank, shape); -1 if incompatible. */
static int bcast_shape(const vfy_tensor *a, const vfy_tensor *b, int *rank, int64_t *shape)
{
    int r = a->rank > b->rank ? a->rank : b->rank;
    for (int d = 0; d < r; d++) {
        int da = d - (r - a->rank), db = d - (r - b->rank);
        int64_t x = da >= 0 ? a->shape[da] : 1, y = db >= 0 ? b->shape[db] : 1;
        if (x != y && x != 1 && y != 1)
            return -1;
        shape[d] = x == 1 ? y : x;
    }
    *rank = r;
    return 0;
}

/* Flat index into t (right-aligned against oshape, size-1 dims broadcast) of the element at flat
 * index idx of oshape. */
static int64_t bcast_src(const int64_t *oshape, int orank, const vfy_tensor *t, int64_t idx)
{
    int64_t src = 0, stride = 1;
    for (int d = orank - 1; d >= 0; d--) {
        int64_t c = idx % oshape[d];
        idx /= oshape[d];
        int td = d - (orank - t->rank);
        if (td >= 0) {
            if (t->shape[td] != 1)
                src += c * stride;
            stride *= t->shape[td];
        }
    }
    return src;
}

/* Elementwise arithmetic in the tensor's own type: float32 for FLOAT (what onnxruntime computes),
 * double for DOUBLE. Sigmoid, Tanh, Sin, Cos and Pow (but by 2: x x) of constants go through libm
 * (vfy_act_f32/f64, powf/pow); a runtime's own
 * kernel may land a few ulps away, and the folded value is the network's constant from then on
 * (docs/soundness.md section 4b). */
static double farith(vfy_dtype dt, vfy_op op, double a, double b)
{
    if (dt == VFY_DT_FLOAT) {
        float x = (float)a, y = (float)b, r = 0;
        switch (op) {
        case VFY_OP_ADD: r = x + y; break;
        case VFY_OP_SUB: r = x - y; break;
        case VFY_OP_MUL: r = x * y; break;
        case VFY_OP_DIV: r = x / y; break;
        case VFY_OP_NEG: r = -x; break;
        case VFY_OP_RELU: r = x > 0 ? x : 0.0f; break;
        case VFY_OP_SIGMOID: r = vfy_act_f32(VFY_LAYER_SIGMOID, x); break;
        case VFY_OP_TANH: r = vfy_act_f32(VFY_LAYER_TANH, x); break;
        case VFY_OP_SIGN: r = vfy_act_f32(VFY_LAYER_SIGN, x); break;
        case VFY_OP_EXP: r = vfy_act_f32(VFY_LAYER_EXP, x); break;
        case VFY_OP_LOG: r = vfy_act_f32(VFY_LAYER_LOG, x); break;
        case VFY_OP_SQRT: r = vfy_act_f32(VFY_LAYER_SQRT, x); break;
        case VFY_OP_RECIPROCAL: r = vfy_act_f32(VFY_LAYER_RECIP, x); break;
        case VFY_OP_SOFTPLUS: r = vfy_act_f32(VFY_LAYER_SOFTPLUS, x); break;
        case VFY_OP_SIN: r = vfy_act_f32(VFY_LAYER_SIN, x); break;
        case VFY_OP_COS: r = vfy_act_f32(VFY_LAYER_COS, x); break;
        case VFY_OP_ERF: r = vfy_act_f32(VFY_LAYER_ERF, x); break;
        case VFY_OP_GELU: r = vfy_act_f32(VFY_LAYER_GELU, x); break;
        case VFY_OP_SWISH: r = vfy_act_f32(VFY_LAYER_SILU, x); break;
        case VFY_OP_ERFGATE: r = vfy_act_f32(VFY_LAYER_ERFGATE, x); break;
        case VFY_OP_POW: r = y == 2.0f ? x * x : powf(x, y); break;
        default: VFY_ASSERT(0);
        }
        return r;
    }
    switch (op) {
    case VFY_OP_ADD: return a + b;
    case VFY_OP_SUB: return a - b;
    case VFY_OP_MUL: return a * b;
    case VFY_OP_DIV: return a / b;
    case VFY_OP_NEG: return -a;
    case VFY_OP_RELU: return a > 0 ? a : 0.0;
    case VFY_OP_SIGMOID: return vfy_act_f64(VFY_LAYER_SIGMOID, a);
    case VFY_OP_TANH: return vfy_act_f64(VFY_LAYER_TANH, a);
    case VFY_OP_SIGN: return vfy_act_f64(VFY_LAYER_SIGN, a);
    case VFY_OP_EXP: return vfy_act_f64(VFY_LAYER_EXP, a);
    case VFY_OP_LOG: return vfy_act_f64(VFY_LAYER_LOG, a);
    case VFY_OP_SQRT: return vfy_act_f64(VFY_LAYER_SQRT, a);
    case VFY_OP_RECIPROCAL: return vfy_act_f64(VFY_LAYER_RECIP, a);
    case VFY_OP_SOFTPLUS: return vfy_act_f64(VFY_LAYER_SOFTPLUS, a);
    case VFY_OP_SIN: return vfy_act_f64(VFY_LAYER_SIN, a);
    case VFY_OP_COS: return vfy_act_f64(VFY_LAYER_COS, a);
    case VFY_OP_ERF: return vfy_act_f64(VFY_LAYER_ERF, a);
    case VFY_OP_GELU: return vfy_act_f64(VFY_LAYER_GELU, a);
    case VFY_OP_SWISH: return vfy_act_f64(VFY_LAYER_SILU, a);
    case VFY_OP_ERFGATE: return vfy_act_f64(VFY_LAYER_ERFGATE, a);
    case VFY_OP_POW: return b == 2.0 ? a * a : pow(a, b);
    default: VFY_ASSERT(0);
    }
    return 0;
}

/* Integer arithmetic in int64 (C truncating division); -1 on overflow or division by zero, and for
 * INT32 when the result leaves the int32 range. */
static int iarith(vfy_dtype dt, vfy_op op, int64_t a, int64_t b, int64_t *r)
{
    int bad = 0;
    switch (op) {
    case VFY_OP_ADD: bad = __builtin_add_overflow(a, b, r); break;
    case VFY_OP_SUB: bad = __builtin_sub_overflow(a, b, r); break;
    case VFY_OP_MUL: bad = __builtin_mul_overflow(a, b, r); break;
    case VFY_OP_DIV:
        bad = b == 0 || (a == INT64_MIN && b == -1);
        *r = bad ? 0 : a / b;
        break;
    case VFY_OP_NEG: bad = __builtin_sub_overflow((int64_t)0, a, r); break;
    case VFY_OP_RELU: *r = a > 0 ? a : 0; break;
    default: VFY_ASSERT(0);
    }
    if (!bad && dt == VFY_DT_INT32 && (*r < INT32_MIN || *r > INT32_MAX))
        bad = 1;
    return bad ? -1 : 0;
}

/* ---- shape inference and folding: one function per op family ---- */

/* Context of the node being inferred. */
typedef struct ictx {
    vfy_graph *g;
    vfy_node *n;
    vfy_value *in[8];   /* first inputs (NULL when omitted) */
    vfy_value *o;       /* the output */
    int all_const;
    vfy_error *err;
} ictx;

static vfy_status bad_shape(ictx *c)
{
    return nfail(c->g, c->n, c->err, VFY_ERR_UNSUPPORTED,
                 "output shape has rank > %d or more than %lld elements (unsupported)",
                 VFY_MAX_RANK, (long long)VFY_MAX_ELEMS);
}

/* Output = input 0 with another shape and the same data (Identity, Reshape, Flatten, Squeeze,
 * Unsqueeze: row-major order is unchanged). */
static vfy_status out_view(ictx *c, int rank, const int64_t *shape)
{
    const vfy_tensor *x = &c->in[0]->t;
    vfy_tensor *t = &c->o->t;
    t->dtype = x->dtype;
    if (set_shape(t, rank, shape))
        return bad_shape(c);
    if (t->numel != x->numel)
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID,
                     "cannot reshape %lld elements into %lld", (long long)x->numel,
                     (long long)t->numel);
    if (c->in[0]->is_const) {
        if (tensor_alloc(t))
            return NOMEM(c->g, c->n, c->err);
        for (int64_t k = 0; k < t->numel; k++)
            elem_copy(t, k, x, k);
        c->o->is_const = 1;
    }
    return VFY_OK;
}

static vfy_status need_const(ictx *c, int k)
{
    if (c->in[k] && !c->in[k]->is_const)
        return nfail(c->g, c->n, c->err, VFY_ERR_UNSUPPORTED,
                     "unsupported operator on the computed path (input '%s' is not a constant)",
                     c->in[k]->name);
    return VFY_OK;
}

static vfy_status infer_constant(ictx *c)
{
    vfy_tensor *t = &c->o->t;
    if (c->n->n_attr != 1)
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "needs exactly one value attribute");
    const vfy_attr *a = &c->n->attr[0];
    if (strcmp(a->name, "value") == 0 && a->kind == VFY_ATTR_TENSOR) {
        t->dtype = a->t.dtype;
        if (set_shape(t, a->t.rank, a->t.shape))
            return bad_shape(c);
        if (tensor_alloc(t))
            return NOMEM(c->g, c->n, c->err);
        for (int64_t k = 0; k < t->numel; k++)
            elem_copy(t, k, &a->t, k);
    } else if (strcmp(a->name, "value_float") == 0 && a->kind == VFY_ATTR_FLOAT) {
        t->dtype = VFY_DT_FLOAT;
        set_shape(t, 0, NULL);
        if (tensor_alloc(t))
            return NOMEM(c->g, c->n, c->err);
        t->f[0] = a->f;
    } else if (strcmp(a->name, "value_int") == 0 && a->kind == VFY_ATTR_INT) {
        t->dtype = VFY_DT_INT64;
        set_shape(t, 0, NULL);
        if (tensor_alloc(t))
            return NOMEM(c->g, c->n, c->err);
        t->i[0] = a->i;
    } else if (strcmp(a->name, "value_floats") == 0 && a->kind == VFY_ATTR_FLOATS) {
        t->dtype = VFY_DT_FLOAT;
        if (set_shape(t, 1, &a->n))
            return bad_shape(c);
        if (tensor_alloc(t))
            return NOMEM(c->g, c->n, c->err);
        memcpy(t->f, a->floats, (size_t)a->n * sizeof *t->f);
    } else if (strcmp(a->name, "value_ints") == 0 && a->kind == VFY_ATTR_INTS) {
        t->dtype = VFY_DT_INT64;
        if (set_shape(t, 1, &a->n))
            return bad_shape(c);
        if (tensor_alloc(t))
            return NOMEM(c->g, c->n, c->err);
        memcpy(t->i, a->ints, (size_t)a->n * sizeof *t->i);
    } else {
        return nfail(c->g, c->n, c->err, VFY_ERR_UNSUPPORTED, "unsupported attribute '%s'", a->name);
    }
    c->o->is_const = 1;
    return VFY_OK;
}

static vfy_status infer_constant_of_shape(ictx *c)
{
    vfy_status st = need_const(c, 0);
    if (st)
        return st;
    const vfy_tensor *s = &c->in[0]->t;
    if (dt_float(s->dtype) || s->rank != 1 || s->numel > VFY_MAX_RANK)
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "the shape must be a 1-D int64 tensor");
    const vfy_attr *a = attr_get(c->n, "value");
    vfy_tensor *t = &c->o->t;
    t->dtype = VFY_DT_FLOAT;
    if (a) {
        if (a->kind != VFY_ATTR_TENSOR || a->t.numel != 1)
            return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "'value' must be a one-element tensor");
        t->dtype = a->t.dtype;
    }
    if (set_shape(t, (int)s->numel, s->i))
        return bad_shape(c);
    if (tensor_alloc(t))
        return NOMEM(c->g, c->n, c->err);
    for (int64_t k = 0; a && k < t->numel; k++)
        elem_copy(t, k, &a->t, 0);
    c->o->is_const = 1;
    return VFY_OK;
}

static vfy_status infer_shape(ictx *c)
{
    const vfy_tensor *x = &c->in[0]->t;
    int64_t start, end;
    vfy_status st = attr_int(c->g, c->n, "start", 0, &start, c->err);
    if (!st)
        st = attr_int(c->g, c->n, "end", x->rank, &end, c->err);
    if (st)
        return st;
    /* ONNX clamps start and end to [0, rank] after adding rank to negative values. */
    if (start < 0)
        start += x->rank;
    if (end < 0)
        end += x->rank;
    start = start < 0 ? 0 : start > x->rank ? x->rank : start;
    end = end < 0 ? 0 : end > x->rank ? x->rank : end;
    int64_t len = end > start ? end - start : 0;
    vfy_tensor *t = &c->o->t;
    t->dtype = VFY_DT_INT64;
    set_shape(t, 1, &len);
    if (tensor_alloc(t))
        return NOMEM(c->g, c->n, c->err);
    for (int64_t k = 0; k < len; k++)
        t->i[k] = x->shape[start + k];
    c->o->is_const = 1; /* SOUND: shapes are static, so Shape is constant even on computed data */
    return VFY_OK;
}

/* Slice and Gather copy elements of input 0. On a computed input, the op's own folding (fold) runs
 * on the input's element indices, an INT64 tensor 0, 1, ..., numel - 1 of its shape: *map then
 * holds, for each output element, the input element it copies, and the output's shape. The result
 * is the op's own semantics (one implementation serves constants and computed data). */
static vfy_status selection_map(ictx *c, vfy_status (*fold)(ictx *), vfy_tensor *map)
{
    vfy_value in = *c->in[0], out = *c->o;
    in.t.dtype = VFY_DT_INT64;
    in.t.f = NULL;
    in.t.i = NULL;
    in.is_const = 1;
    if (tensor_alloc(&in.t))
        return NOMEM(c->g, c->n, c->err);
    for (int64_t k = 0; k < in.t.numel; k++)
        in.t.i[k] = k;
    memset(&out.t, 0, sizeof out.t);
    out.is_const = 0;
    ictx c2 = *c;
    c2.in[0] = &in;
    c2.o = &out;
    c2.all_const = 1;
    vfy_status st = fold(&c2);
    vfy_tensor_clear(&in.t);
    if (st == VFY_OK && !out.t.i) {
        vfy_tensor_clear(&out.t);
        st = NOMEM(c->g, c->n, c->err);
    }
    if (st) {
        vfy_tensor_clear(&out.t);
        return st;
    }
    *map = out.t;
    return VFY_OK;
}

/* Shape inference of Slice/Gather on a computed input (the other inputs constant); the lowering
 * (lower_select) copies the selected elements. */
static vfy_status infer_selection(ictx *c, vfy_status (*fold)(ictx *))
{
    const vfy_tensor *x = &c->in[0]->t;
    if (!dt_float(x->dtype))
        return nfail(c->g, c->n, c->err, VFY_ERR_UNSUPPORTED, "selects from a computed %s tensor "
                     "(unsupported)", vfy_dtype_name(x->dtype));
    for (int k = 1; k < c->n->n_in && k < 8; k++) {
        vfy_status st = need_const(c, k);
        if (st)
            return st;
    }
    vfy_tensor map;
    vfy_status st = selection_map(c, fold, &map);
    if (st)
        return st;
    int64_t n = map.numel;
    vfy_tensor *t = &c->o->t;
    t->dtype = x->dtype;
    int bad = set_shape(t, map.rank, map.shape);
    vfy_tensor_clear(&map);
    if (bad)
        return bad_shape(c);
    if (n == 0)
        return nfail(c->g, c->n, c->err, VFY_ERR_UNSUPPORTED, "selects no element of the computed "
                     "tensor (unsupported)");
    return VFY_OK;
}

static vfy_status infer_gather(ictx *c)
{
    if (!c->in[0]->is_const && c->in[1]->is_const)
        return infer_selection(c, infer_gather);
    vfy_status st = need_const(c, 0);
    if (!st)
        st = need_const(c, 1);
    if (st)
        return st;
    const vfy_tensor *x = &c->in[0]->t, *ix = &c->in[1]->t;
    int64_t axis;
    if ((st = attr_int(c->g, c->n, "axis", 0, &axis, c->err)))
        return st;
    if ((axis = norm_axis(axis, x->rank)) < 0)
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "axis out of range");
    if (dt_float(ix->dtype))
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "indices must be integers");
    int64_t shape[2 * VFY_MAX_RANK];
    int r = 0;
    for (int d = 0; d < axis; d++)
        shape[r++] = x->shape[d];
    for (int d = 0; d < ix->rank; d++)
        shape[r++] = ix->shape[d];
    for (int d = (int)axis + 1; d < x->rank; d++)
        shape[r++] = x->shape[d];
    vfy_tensor *t = &c->o->t;
    t->dtype = x->dtype;
    if (set_shape(t, r, shape))
        return bad_shape(c);
    if (tensor_alloc(t))
        return NOMEM(c->g, c->n, c->err);
    int64_t outer = 1, inner = 1, dim = x->shape[axis];
    for (int d = 0; d < axis; d++)
        outer *= x->shape[d];
    for (int d = (int)axis + 1; d < x->rank; d++)
        inner *= x->shape[d];
    int64_t k = 0;
    for (int64_t o = 0; o < outer; o++)
        for (int64_t j = 0; j < ix->numel; j++) {
            int64_t id = ix->i[j];
            if (id < -dim || id >= dim)
                return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "index %lld out of range",
                             (long long)id);
            if (id < 0)
                id += dim;
            for (int64_t q = 0; q < inner; q++)
                elem_copy(t, k++, x, (o * dim + id) * inner + q);
        }
    c->o->is_const = 1;
    return VFY_OK;
}

/* Expand (x broadcast with the constant shape, both ways as numpy does) and Tile (x repeated
 * repeats[d] times along each axis d): every output element copies one element of x; on a
 * computed x a selection (infer_selection, lower_select). */
static vfy_status infer_expand_tile(ictx *c)
{
    if (!c->in[0]->is_const && c->in[1]->is_const)
        return infer_selection(c, infer_expand_tile);
    vfy_status st = need_const(c, 0);
    if (!st)
        st = need_const(c, 1);
    if (st)
        return st;
    const vfy_tensor *x = &c->in[0]->t, *sh = &c->in[1]->t;
    if (dt_float(sh->dtype) || sh->rank != 1)
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "input '%s' must be a 1-D integer tensor",
                     c->in[1]->name);
    int64_t shape[VFY_MAX_RANK];
    int r;
    int tile = c->n->op == VFY_OP_TILE;
    if (tile) {
        if (sh->numel != x->rank)
            return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "%lld repeats for rank %d",
                         (long long)sh->numel, x->rank);
        r = x->rank;
        for (int d = 0; d < r; d++) {
            if (sh->i[d] < 0 || (sh->i[d] > 0 && x->shape[d] > VFY_MAX_ELEMS / sh->i[d]))
                return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "repeat %lld out of range",
                             (long long)sh->i[d]);
            shape[d] = x->shape[d] * sh->i[d];
        }
    } else {
        if (sh->numel > VFY_MAX_RANK)
            return nfail(c->g, c->n, c->err, VFY_ERR_UNSUPPORTED, "rank %lld (unsupported)",
                         (long long)sh->numel);
        vfy_tensor want = {.dtype = x->dtype, .rank = (int)sh->numel};
        for (int d = 0; d < want.rank; d++) {
            if (sh->i[d] < 0)
                return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "negative dimension %lld",
                             (long long)sh->i[d]);
            want.shape[d] = sh->i[d];
        }
        if (bcast_shape(x, &want, &r, shape))
            return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "shape does not broadcast");
    }
    vfy_tensor *t = &c->o->t;
    t->dtype = x->dtype;
    if (set_shape(t, r, shape))
        return bad_shape(c);
    if (tensor_alloc(t))
        return NOMEM(c->g, c->n, c->err);
    for (int64_t k = 0; k < t->numel; k++) {
        int64_t src = 0;
        if (tile) {
            int64_t rest = k, stride = 1;
            for (int d = r - 1; d >= 0; d--) {
                src += (rest % shape[d]) % x->shape[d] * stride;
                rest /= shape[d];
                stride *= x->shape[d];
            }
        } else {
            src = bcast_src(shape, r, x, k);
        }
        elem_copy(t, k, x, src);
    }
    c->o->is_const = 1;
    return VFY_OK;
}

static vfy_status infer_concat(ictx *c)
{
    vfy_node *n = c->n;
    const vfy_graph *g = c->g;
    int all_const = 1;
    for (int64_t k = 0; k < n->n_in; k++) {
        if (n->in[k] < 0)
            return nfail(c->g, n, c->err, VFY_ERR_INVALID, "an omitted input");
        all_const = all_const && g->values[n->in[k]].is_const;
    }
    const vfy_tensor *x0 = &g->values[n->in[0]].t;
    /* computed inputs are lowered (vfy_graph_lower), which needs real-valued elements */
    if (!all_const && !dt_float(x0->dtype))
        return nfail(c->g, n, c->err, VFY_ERR_UNSUPPORTED, "concatenates computed %s tensors "
                     "(unsupported)", vfy_dtype_name(x0->dtype));
    int64_t axis;
    vfy_status st = attr_int(c->g, n, "axis", INT64_MIN, &axis, c->err);
    if (st)
        return st;
    if ((axis = norm_axis(axis, x0->rank)) < 0)
        return nfail(c->g, n, c->err, VFY_ERR_INVALID, "missing or out-of-range axis");
    int64_t shape[VFY_MAX_RANK];
    memcpy(shape, x0->shape, sizeof shape);
    shape[axis] = 0;
    for (int64_t k = 0; k < n->n_in; k++) {
        const vfy_tensor *x = &g->values[n->in[k]].t;
        int ok = x->rank == x0->rank && x->dtype == x0->dtype;
        for (int d = 0; ok && d < x->rank; d++)
            ok = d == axis || x->shape[d] == x0->shape[d];
        if (!ok)
            return nfail(c->g, n, c->err, VFY_ERR_INVALID, "inputs differ in type or shape");
        if (__builtin_add_overflow(shape[axis], x->shape[axis], &shape[axis]))
            return bad_shape(c);
    }
    vfy_tensor *t = &c->o->t;
    t->dtype = x0->dtype;
    if (set_shape(t, x0->rank, shape))
        return bad_shape(c);
    if (!all_const)
        return VFY_OK;
    if (tensor_alloc(t))
        return NOMEM(c->g, n, c->err);
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < axis; d++)
        outer *= shape[d];
    for (int d = (int)axis + 1; d < x0->rank; d++)
        inner *= shape[d];
    int64_t w = 0;
    for (int64_t o = 0; o < outer; o++)
        for (int64_t k = 0; k < n->n_in; k++) {
            const vfy_tensor *x = &g->values[n->in[k]].t;
            int64_t len = x->shape[axis] * inner;
            for (int64_t q = 0; q < len; q++)
                elem_copy(t, w++, x, o * len + q);
        }
    c->o->is_const = 1;
    return VFY_OK;
}

static vfy_status infer_cast(ictx *c)
{
    int64_t to;
    vfy_status st = attr_int(c->g, c->n, "to", -1, &to, c->err);
    if (st)
        return st;
    vfy_dtype dt;
    switch (to) {
    case 1: dt = VFY_DT_FLOAT; break;
    case 11: dt = VFY_DT_DOUBLE; break;
    case 7: dt = VFY_DT_INT64; break;
    case 6: dt = VFY_DT_INT32; break;
    case 9: dt = VFY_DT_BOOL; break;
    default:
        return nfail(c->g, c->n, c->err, VFY_ERR_UNSUPPORTED, "cast to data type %lld (unsupported)",
                     (long long)to);
    }
    const vfy_tensor *x = &c->in[0]->t;
    vfy_tensor *t = &c->o->t;
    t->dtype = dt;
    set_shape(t, x->rank, x->shape);
    if (!c->in[0]->is_const) {
        /* SOUND: on computed data only casts that are the identity on reals are accepted. */
        if (!(dt == x->dtype || (x->dtype == VFY_DT_FLOAT && dt == VFY_DT_DOUBLE)))
            return nfail(c->g, c->n, c->err, VFY_ERR_UNSUPPORTED,
                         "cast of a computed %s tensor to %s (unsupported)", vfy_dtype_name(x->dtype),
                         vfy_dtype_name(dt));
        return VFY_OK;
    }
    if (tensor_alloc(t))
        return NOMEM(c->g, c->n, c->err);
    for (int64_t k = 0; k < t->numel; k++) {
        if (dt_float(dt)) {
            double v = x->f ? x->f[k] : (double)x->i[k];
            t->f[k] = dt == VFY_DT_FLOAT ? (double)(float)v : v;
        } else if (dt == VFY_DT_BOOL) { /* nonzero (NaN too) is true */
            t->i[k] = x->f ? !(x->f[k] == 0) : x->i[k] != 0;
        } else if (x->i) {
            t->i[k] = x->i[k];
        } else {
            double v = trunc(x->f[k]);
            if (!(v >= -0x1p63 && v < 0x1p63))
                return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "value %g out of integer range",
                             x->f[k]);
            t->i[k] = (int64_t)v;
        }
        if (dt == VFY_DT_INT32 && (t->i[k] < INT32_MIN || t->i[k] > INT32_MAX))
            return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "value out of int32 range");
    }
    c->o->is_const = 1;
    return VFY_OK;
}

static vfy_status infer_unsqueeze(ictx *c)
{
    const int64_t *axes;
    int64_t na;
    int present;
    vfy_status st = int_list(c->g, c->n, 1, "axes", &axes, &na, &present, c->err);
    if (st)
        return st;
    const vfy_tensor *x = &c->in[0]->t;
    int64_t r = x->rank + na;
    if (!present || r > VFY_MAX_RANK)
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "missing axes or rank above %d",
                     VFY_MAX_RANK);
    char mark[VFY_MAX_RANK] = {0};
    for (int64_t k = 0; k < na; k++) {
        int64_t a = norm_axis(axes[k], r);
        if (a < 0 || mark[a])
            return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "bad axis %lld", (long long)axes[k]);
        mark[a] = 1;
    }
    int64_t shape[VFY_MAX_RANK];
    for (int d = 0, j = 0; d < r; d++)
        shape[d] = mark[d] ? 1 : x->shape[j++];
    return out_view(c, (int)r, shape);
}

static vfy_status infer_squeeze(ictx *c)
{
    const int64_t *axes;
    int64_t na;
    int present;
    vfy_status st = int_list(c->g, c->n, 1, "axes", &axes, &na, &present, c->err);
    if (st)
        return st;
    const vfy_tensor *x = &c->in[0]->t;
    char mark[VFY_MAX_RANK] = {0};
    for (int64_t k = 0; present && k < na; k++) {
        int64_t a = norm_axis(axes[k], x->rank);
        if (a < 0 || x->shape[a] != 1)
            return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "cannot squeeze axis %lld",
                         (long long)axes[k]);
        mark[a] = 1;
    }
    int64_t shape[VFY_MAX_RANK];
    int r = 0;
    for (int d = 0; d < x->rank; d++)
        if (!(present ? mark[d] : x->shape[d] == 1))
            shape[r++] = x->shape[d];
    return out_view(c, r, shape);
}

static vfy_status infer_slice(ictx *c)
{
    if (!c->in[0]->is_const)
        return infer_selection(c, infer_slice);
    vfy_status st = need_const(c, 0);
    if (st)
        return st;
    const vfy_tensor *x = &c->in[0]->t;
    const int64_t *starts, *ends, *axes, *steps;
    int64_t ns, ne, na, nt;
    int ps, pe, pa, pt;
    if ((st = int_list(c->g, c->n, 1, "starts", &starts, &ns, &ps, c->err)) ||
        (st = int_list(c->g, c->n, 2, "ends", &ends, &ne, &pe, c->err)) ||
        (st = int_list(c->g, c->n, 3, "axes", &axes, &na, &pa, c->err)) ||
        (st = int_list(c->g, c->n, 4, "", &steps, &nt, &pt, c->err)))
        return st;
    if (!ps || !pe || ns != ne || (pa && na != ns) || (pt && nt != ns))
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "inconsistent starts/ends/axes/steps");
    int64_t lo[VFY_MAX_RANK], step[VFY_MAX_RANK], shape[VFY_MAX_RANK];
    char mark[VFY_MAX_RANK] = {0};
    for (int d = 0; d < x->rank; d++) {
        lo[d] = 0;
        step[d] = 1;
        shape[d] = x->shape[d];
    }
    for (int64_t k = 0; k < ns; k++) {
        int64_t a = norm_axis(pa ? axes[k] : k, x->rank);
        int64_t s = pt ? steps[k] : 1, dim = a >= 0 ? x->shape[a] : 0;
        if (a < 0 || mark[a] || s == 0)
            return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "bad axis or step");
        mark[a] = 1;
        int64_t b = starts[k], e = ends[k];
        if (b < 0)
            b += dim;
        if (e < 0)
            e += dim;
        /* ONNX clamping: [0, dim] for positive steps, [-1, dim-1] for negative ones. */
        if (s > 0) {
            b = b < 0 ? 0 : b > dim ? dim : b;
            e = e < 0 ? 0 : e > dim ? dim : e;
        } else {
            b = b < 0 ? -1 : b > dim - 1 ? dim - 1 : b;
            e = e < -1 ? -1 : e > dim - 1 ? dim - 1 : e;
        }
        int64_t span = s > 0 ? e - b : b - e, as = s > 0 ? s : -s;
        lo[a] = b;
        step[a] = s;
        shape[a] = span > 0 ? (span + as - 1) / as : 0;
    }
    vfy_tensor *t = &c->o->t;
    t->dtype = x->dtype;
    if (set_shape(t, x->rank, shape))
        return bad_shape(c);
    if (tensor_alloc(t))
        return NOMEM(c->g, c->n, c->err);
    for (int64_t k = 0; k < t->numel; k++) {
        int64_t idx = k, src = 0, stride = 1;
        for (int d = x->rank - 1; d >= 0; d--) {
            int64_t q = idx % shape[d];
            idx /= shape[d];
            src += (lo[d] + q * step[d]) * stride;
            stride *= x->shape[d];
        }
        elem_copy(t, k, x, src);
    }
    c->o->is_const = 1;
    return VFY_OK;
}

static vfy_status infer_reshape(ictx *c)
{
    vfy_status st = need_const(c, 1);
    if (st)
        return st;
    const vfy_tensor *x = &c->in[0]->t, *s = &c->in[1]->t;
    int64_t allowzero;
    if ((st = attr_int(c->g, c->n, "allowzero", 0, &allowzero, c->err)))
        return st;
    if (dt_float(s->dtype) || s->rank != 1 || s->numel > VFY_MAX_RANK)
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID,
                     "the shape must be a 1-D integer tensor of at most %d values", VFY_MAX_RANK);
    int64_t shape[VFY_MAX_RANK], known = 1;
    int neg = -1;
    for (int d = 0; d < s->numel; d++) {
        int64_t v = s->i[d];
        if (v == 0 && !allowzero) {
            if (d >= x->rank)
                return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "0 refers to a missing dim");
            v = x->shape[d];
        }
        if (v == -1) {
            if (neg >= 0)
                return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "more than one -1 in the shape");
            neg = d;
            v = 1;
        } else if (v < 0) {
            return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "negative dim %lld", (long long)v);
        }
        shape[d] = v;
        if (__builtin_mul_overflow(known, v, &known))
            return bad_shape(c);
    }
    if (neg >= 0) {
        if (known == 0 || x->numel % known != 0)
            return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "cannot infer the -1 dim");
        shape[neg] = x->numel / known;
    }
    return out_view(c, (int)s->numel, shape);
}

static vfy_status infer_flatten(ictx *c)
{
    const vfy_tensor *x = &c->in[0]->t;
    int64_t axis;
    vfy_status st = attr_int(c->g, c->n, "axis", 1, &axis, c->err);
    if (st)
        return st;
    if (axis < 0)
        axis += x->rank;
    if (axis < 0 || axis > x->rank)
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "axis out of range");
    int64_t shape[2] = {1, 1};
    for (int d = 0; d < x->rank; d++)
        shape[d >= axis] *= x->shape[d];
    return out_view(c, 2, shape);
}

/* perm of a Transpose node (default: reversed axes); -1 when not a permutation of 0..rank-1. */
static int transpose_perm(const vfy_node *n, int rank, int64_t *perm)
{
    const vfy_attr *a = attr_get(n, "perm");
    char seen[VFY_MAX_RANK] = {0};
    if (a && (a->kind != VFY_ATTR_INTS || a->n != rank))
        return -1;
    for (int d = 0; d < rank; d++) {
        perm[d] = a ? a->ints[d] : rank - 1 - d;
        if (perm[d] < 0 || perm[d] >= rank || seen[perm[d]])
            return -1;
        seen[perm[d]] = 1;
    }
    return 0;
}

/* Source flat index of output element k of transposing x by perm. */
static int64_t transpose_src(const vfy_tensor *x, const int64_t *perm, int64_t k)
{
    int64_t stride[VFY_MAX_RANK], src = 0;
    int64_t s = 1;
    for (int d = x->rank - 1; d >= 0; d--) {
        stride[d] = s;
        s *= x->shape[d];
    }
    for (int d = x->rank - 1; d >= 0; d--) {
        int64_t od = x->shape[perm[d]];
        src += (k % od) * stride[perm[d]];
        k /= od;
    }
    return src;
}

static vfy_status infer_transpose(ictx *c)
{
    const vfy_tensor *x = &c->in[0]->t;
    int64_t perm[VFY_MAX_RANK], shape[VFY_MAX_RANK];
    if (transpose_perm(c->n, x->rank, perm))
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "bad perm");
    for (int d = 0; d < x->rank; d++)
        shape[d] = x->shape[perm[d]];
    vfy_tensor *t = &c->o->t;
    t->dtype = x->dtype;
    set_shape(t, x->rank, shape);
    if (!c->in[0]->is_const)
        return VFY_OK;
    if (tensor_alloc(t))
        return NOMEM(c->g, c->n, c->err);
    for (int64_t k = 0; k < t->numel; k++)
        elem_copy(t, k, x, transpose_src(x, perm, k));
    c->o->is_const = 1;
    return VFY_OK;
}

static vfy_status infer_elementwise(ictx *c)
{
    vfy_op op = c->n->op;
    const vfy_tensor *a = &c->in[0]->t, *b = c->in[1] ? &c->in[1]->t : a;
    /* Pow: a float base (ONNX's T1), an exponent of a float or an integer type (T2) */
    int pow_int = op == VFY_OP_POW && !dt_float(b->dtype);
    if (op == VFY_OP_POW && !dt_float(a->dtype))
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "input '%s' has type %s, expected a "
                     "float type", c->in[0]->name, vfy_dtype_name(a->dtype));
    if (a->dtype != b->dtype && !pow_int)
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "operand types differ (%s, %s)",
                     vfy_dtype_name(a->dtype), vfy_dtype_name(b->dtype));
    if (a->dtype == VFY_DT_BOOL)
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "arithmetic on BOOL tensors");
    int64_t shape[VFY_MAX_RANK];
    int r;
    if (bcast_shape(a, b, &r, shape))
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "operand shapes do not broadcast");
    vfy_tensor *t = &c->o->t;
    t->dtype = a->dtype;
    if (set_shape(t, r, shape))
        return bad_shape(c);
    if (!c->all_const)
        return VFY_OK;
    if (tensor_alloc(t))
        return NOMEM(c->g, c->n, c->err);
    for (int64_t k = 0; k < t->numel; k++) {
        int64_t ia = bcast_src(shape, r, a, k), ib = bcast_src(shape, r, b, k);
        if (t->f) {
            t->f[k] = farith(t->dtype, op, a->f[ia], pow_int ? (double)b->i[ib] : b->f[ib]);
        } else if (iarith(t->dtype, op, a->i[ia], b->i[ib], &t->i[k])) {
            return nfail(c->g, c->n, c->err, VFY_ERR_INVALID,
                         "integer overflow or division by zero");
        }
    }
    c->o->is_const = 1;
    return VFY_OK;
}

/* Comparisons (Equal, Less, LessOrEqual, Greater, GreaterOrEqual) and logic (Not, And, Or, Xor):
 * of constants only (a step of a computed value has no relaxation here; they make masks and
 * positions in transformer graphs), broadcast, giving BOOL. Comparisons take two operands of one
 * type (BOOL for Equal only); logic takes BOOL. A float NaN compares false. */
static vfy_status infer_compare_logic(ictx *c)
{
    vfy_op op = c->n->op;
    for (int q = 0; q < c->n->n_in; q++) {
        vfy_status st = need_const(c, q);
        if (st)
            return st;
    }
    const vfy_tensor *a = &c->in[0]->t, *b = c->in[1] ? &c->in[1]->t : a;
    int logic = op == VFY_OP_NOT || op == VFY_OP_AND || op == VFY_OP_OR || op == VFY_OP_XOR;
    if (a->dtype != b->dtype)
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "operand types differ (%s, %s)",
                     vfy_dtype_name(a->dtype), vfy_dtype_name(b->dtype));
    if (logic != (a->dtype == VFY_DT_BOOL) && !(op == VFY_OP_EQUAL && a->dtype == VFY_DT_BOOL))
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "operands of type %s, expected %s",
                     vfy_dtype_name(a->dtype), logic ? "BOOL" : "a numeric type");
    int64_t shape[VFY_MAX_RANK];
    int r;
    if (bcast_shape(a, b, &r, shape))
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "operand shapes do not broadcast");
    vfy_tensor *t = &c->o->t;
    t->dtype = VFY_DT_BOOL;
    if (set_shape(t, r, shape))
        return bad_shape(c);
    if (tensor_alloc(t))
        return NOMEM(c->g, c->n, c->err);
    for (int64_t k = 0; k < t->numel; k++) {
        int64_t ia = bcast_src(shape, r, a, k), ib = bcast_src(shape, r, b, k);
        /* (int64 and double compare exactly within their own type) */
        int lt = a->f ? a->f[ia] < b->f[ib] : a->i[ia] < b->i[ib];
        int gt = a->f ? a->f[ia] > b->f[ib] : a->i[ia] > b->i[ib];
        int eq = a->f ? a->f[ia] == b->f[ib] : a->i[ia] == b->i[ib];
        int v = 0;
        switch (op) {
        case VFY_OP_EQUAL: v = eq; break;
        case VFY_OP_LESS: v = lt; break;
        case VFY_OP_LESS_OR_EQUAL: v = lt || eq; break;
        case VFY_OP_GREATER: v = gt; break;
        case VFY_OP_GREATER_OR_EQUAL: v = gt || eq; break;
        case VFY_OP_NOT: v = !a->i[ia]; break;
        case VFY_OP_AND: v = a->i[ia] && b->i[ib]; break;
        case VFY_OP_OR: v = a->i[ia] || b->i[ib]; break;
        default: v = !a->i[ia] != !b->i[ib]; break; /* XOR */
        }
        t->i[k] = v;
    }
    c->o->is_const = 1;
    return VFY_OK;
}

/* Where(cond, x, y) of constants: x where cond, else y (all three broadcast). A computed x or y
 * was rewritten before (expand_where); a computed condition is refused. */
static vfy_status infer_where(ictx *c)
{
    vfy_status st = need_const(c, 0);
    if (st)
        return st;
    const vfy_tensor *m = &c->in[0]->t, *x = &c->in[1]->t, *y = &c->in[2]->t;
    if (m->dtype != VFY_DT_BOOL)
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "the condition has type %s, expected "
                     "BOOL", vfy_dtype_name(m->dtype));
    if (x->dtype != y->dtype)
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "operand types differ (%s, %s)",
                     vfy_dtype_name(x->dtype), vfy_dtype_name(y->dtype));
    vfy_tensor xy = {.dtype = x->dtype};
    int64_t shape[VFY_MAX_RANK];
    int r;
    if (bcast_shape(x, y, &r, shape) || set_shape(&xy, r, shape) ||
        bcast_shape(m, &xy, &r, shape))
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "operand shapes do not broadcast");
    if ((st = need_const(c, 1)) || (st = need_const(c, 2)))
        return st;
    vfy_tensor *t = &c->o->t;
    t->dtype = x->dtype;
    if (set_shape(t, r, shape))
        return bad_shape(c);
    if (tensor_alloc(t))
        return NOMEM(c->g, c->n, c->err);
    for (int64_t k = 0; k < t->numel; k++) {
        if (m->i[bcast_src(shape, r, m, k)])
            elem_copy(t, k, x, bcast_src(shape, r, x, k));
        else
            elem_copy(t, k, y, bcast_src(shape, r, y, k));
    }
    c->o->is_const = 1;
    return VFY_OK;
}

/* Range(start, limit, delta) of scalar constants of one type: max(ceil((limit - start) / delta), 0)
 * elements, each the last plus delta (ONNX's definition, a loop), rounded in the type's own
 * arithmetic. */
static vfy_status infer_range(ictx *c)
{
    for (int q = 0; q < 3; q++) {
        vfy_status st = need_const(c, q);
        if (st)
            return st;
        if (c->in[q]->t.numel != 1 || c->in[q]->t.dtype != c->in[0]->t.dtype ||
            c->in[q]->t.dtype == VFY_DT_BOOL)
            return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "start, limit and delta must be "
                         "numeric scalars of one type");
    }
    const vfy_tensor *a = &c->in[0]->t, *l = &c->in[1]->t, *d = &c->in[2]->t;
    vfy_tensor *t = &c->o->t;
    t->dtype = a->dtype;
    double n;
    if (a->f)
        n = ceil((l->f[0] - a->f[0]) / d->f[0]);
    else
        n = d->i[0] == 0 ? NAN : ceil(((double)l->i[0] - (double)a->i[0]) / (double)d->i[0]);
    if (!(n == n) || (a->f && !(d->f[0] != 0)))
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "delta is zero or a value is not "
                     "finite");
    if (n > VFY_MAX_ELEMS)
        return bad_shape(c);
    int64_t len = n > 0 ? (int64_t)n : 0;
    if (set_shape(t, 1, &len))
        return bad_shape(c);
    if (tensor_alloc(t))
        return NOMEM(c->g, c->n, c->err);
    for (int64_t k = 0; k < len; k++) {
        if (t->f)
            t->f[k] = k == 0 ? a->f[0] : farith(t->dtype, VFY_OP_ADD, t->f[k - 1], d->f[0]);
        else if (k == 0)
            t->i[k] = a->i[0];
        else if (iarith(t->dtype, VFY_OP_ADD, t->i[k - 1], d->i[0], &t->i[k]))
            return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "integer overflow");
    }
    c->o->is_const = 1;
    return VFY_OK;
}

/* Floor, Ceil, Round (halves to even, as ONNX) of float constants: exact in either float type. */
static vfy_status infer_rounding(ictx *c)
{
    vfy_status st = need_const(c, 0);
    if (st)
        return st;
    const vfy_tensor *x = &c->in[0]->t;
    if (!dt_float(x->dtype))
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "input '%s' has type %s, expected a "
                     "float type", c->in[0]->name, vfy_dtype_name(x->dtype));
    vfy_tensor *t = &c->o->t;
    t->dtype = x->dtype;
    if (set_shape(t, x->rank, x->shape) || tensor_alloc(t))
        return NOMEM(c->g, c->n, c->err);
    for (int64_t k = 0; k < t->numel; k++)
        t->f[k] = c->n->op == VFY_OP_FLOOR ? floor(x->f[k])
                : c->n->op == VFY_OP_CEIL ? ceil(x->f[k]) : nearbyint(x->f[k]);
    c->o->is_const = 1;
    return VFY_OK;
}

/* MatMul's geometry (numpy's): a rank-1 a is [1,k] (the 1 dropped after), a rank-1 b is [k,1];
 * the batch dimensions (all but the last two) broadcast. Ab, Bb: the operands' batch parts, bshape
 * (rb dimensions) the broadcast batch shape, then m and n where a and b have them (rank r). 1 when
 * the inner dimensions differ, 2 when the batch ones do not broadcast. */
typedef struct mm_geom {
    vfy_tensor Ab, Bb;
    int64_t m, k, n, nbatch, bshape[VFY_MAX_RANK + 2];
    int rb, r;
} mm_geom;

static int mm_geom_get(const vfy_tensor *a, const vfy_tensor *b, mm_geom *gm)
{
    vfy_tensor A = *a, B = *b;
    if (a->rank == 1) {
        A.rank = 2;
        A.shape[0] = 1;
        A.shape[1] = a->shape[0];
    }
    if (b->rank == 1) {
        B.rank = 2;
        B.shape[0] = b->shape[0];
        B.shape[1] = 1;
    }
    gm->m = A.shape[A.rank - 2];
    gm->k = A.shape[A.rank - 1];
    gm->n = B.shape[B.rank - 1];
    if (B.shape[B.rank - 2] != gm->k)
        return 1;
    gm->Ab = A;
    gm->Bb = B;
    gm->Ab.rank -= 2;
    gm->Bb.rank -= 2;
    if (bcast_shape(&gm->Ab, &gm->Bb, &gm->r, gm->bshape))
        return 2;
    gm->nbatch = 1;
    for (int d = 0; d < gm->r; d++)
        gm->nbatch *= gm->bshape[d];
    gm->rb = gm->r;
    if (a->rank != 1)
        gm->bshape[gm->r++] = gm->m;
    if (b->rank != 1)
        gm->bshape[gm->r++] = gm->n;
    return 0;
}

static vfy_status infer_matmul(ictx *c)
{
    const vfy_tensor *a = &c->in[0]->t, *b = &c->in[1]->t;
    if (a->dtype != b->dtype || !dt_float(a->dtype) || a->rank < 1 || b->rank < 1)
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "needs two float tensors of rank >= 1");
    mm_geom gm;
    int bad = mm_geom_get(a, b, &gm);
    if (bad == 1)
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "inner dimensions differ (%lld, %lld)",
                     (long long)gm.k, (long long)(b->rank == 1 ? b->shape[0]
                                                               : b->shape[b->rank - 2]));
    if (bad == 2)
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "batch dimensions do not broadcast");
    int64_t m = gm.m, k = gm.k, n = gm.n, nbatch = gm.nbatch, *shape = gm.bshape;
    int rb = gm.rb;
    const vfy_tensor Ab = gm.Ab, Bb = gm.Bb;
    vfy_tensor *t = &c->o->t;
    t->dtype = a->dtype;
    if (set_shape(t, gm.r, shape))
        return bad_shape(c);
    if (!c->all_const)
        return VFY_OK;
    if (tensor_alloc(t))
        return NOMEM(c->g, c->n, c->err);
    for (int64_t q = 0; q < nbatch; q++) {
        int64_t ia = bcast_src(shape, rb, &Ab, q) * m * k, ib = bcast_src(shape, rb, &Bb, q) * k * n;
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
                /* Sequential sum in the tensor's type (float32 for FLOAT). */
                float sf = 0;
                double sd = 0;
                for (int64_t l = 0; l < k; l++) {
                    double x = a->f[ia + i * k + l], y = b->f[ib + l * n + j];
                    sf = sf + (float)x * (float)y;
                    sd = sd + x * y;
                }
                t->f[(q * m + i) * n + j] = t->dtype == VFY_DT_FLOAT ? (double)sf : sd;
            }
    }
    c->o->is_const = 1;
    return VFY_OK;
}

/* Gemm's attributes and the shapes of A' and B' (after transposition): A' is m x k, B' is k x n. */
typedef struct gemm_info {
    double alpha, beta;
    int64_t ta, tb, m, k, n;
} gemm_info;

static vfy_status gemm_get(const vfy_graph *g, const vfy_node *n, gemm_info *gi, vfy_error *err)
{
    vfy_status st;
    if ((st = attr_float(g, n, "alpha", 1.0, &gi->alpha, err)) ||
        (st = attr_float(g, n, "beta", 1.0, &gi->beta, err)) ||
        (st = attr_int(g, n, "transA", 0, &gi->ta, err)) ||
        (st = attr_int(g, n, "transB", 0, &gi->tb, err)))
        return st;
    const vfy_tensor *a = &g->values[n->in[0]].t, *b = &g->values[n->in[1]].t;
    if (a->rank != 2 || b->rank != 2 || a->dtype != b->dtype || !dt_float(a->dtype))
        return nfail(g, n, err, VFY_ERR_INVALID, "A and B must be float matrices of one type");
    gi->m = a->shape[gi->ta ? 1 : 0];
    gi->k = a->shape[gi->ta ? 0 : 1];
    gi->n = b->shape[gi->tb ? 0 : 1];
    if (b->shape[gi->tb ? 1 : 0] != gi->k)
        return nfail(g, n, err, VFY_ERR_INVALID, "inner dimensions differ");
    if (n->n_in > 2 && n->in[2] >= 0) {
        const vfy_tensor *cc = &g->values[n->in[2]].t;
        int ok = cc->rank <= 2 && cc->dtype == a->dtype;
        int64_t want[2] = {gi->m, gi->n};
        for (int d = 0; ok && d < cc->rank; d++) /* unidirectional broadcast to [m, n] */
            ok = cc->shape[d] == 1 || cc->shape[d] == want[2 - cc->rank + d];
        if (!ok)
            return nfail(g, n, err, VFY_ERR_INVALID, "C does not broadcast to [%lld, %lld]",
                         (long long)gi->m, (long long)gi->n);
    }
    return VFY_OK;
}

static vfy_status infer_gemm(ictx *c)
{
    gemm_info gi;
    vfy_status st = gemm_get(c->g, c->n, &gi, c->err);
    if (st)
        return st;
    const vfy_tensor *a = &c->in[0]->t, *b = &c->in[1]->t, *cc = c->in[2] ? &c->in[2]->t : NULL;
    vfy_tensor *t = &c->o->t;
    int64_t shape[2] = {gi.m, gi.n};
    t->dtype = a->dtype;
    if (set_shape(t, 2, shape))
        return bad_shape(c);
    if (!c->all_const)
        return VFY_OK;
    if (tensor_alloc(t))
        return NOMEM(c->g, c->n, c->err);
    int fl = t->dtype == VFY_DT_FLOAT;
    for (int64_t i = 0; i < gi.m; i++)
        for (int64_t j = 0; j < gi.n; j++) {
            float sf = 0;
            double sd = 0;
            for (int64_t l = 0; l < gi.k; l++) {
                double x = a->f[gi.ta ? l * gi.m + i : i * gi.k + l];
                double y = b->f[gi.tb ? j * gi.k + l : l * gi.n + j];
                sf = sf + (float)x * (float)y;
                sd = sd + x * y;
            }
            double cv = cc ? cc->f[bcast_src(shape, 2, cc, i * gi.n + j)] : 0;
            double r;
            if (fl) {
                float rf = (float)gi.alpha * sf;
                if (cc && gi.beta != 0)
                    rf = rf + (float)gi.beta * (float)cv;
                r = rf;
            } else {
                r = gi.alpha * sd;
                if (cc && gi.beta != 0)
                    r = r + gi.beta * cv;
            }
            t->f[i * gi.n + j] = r;
        }
    c->o->is_const = 1;
    return VFY_OK;
}

/* ---- sliding windows: Conv, AveragePool, GlobalAveragePool, MaxPool ---- */

/* A string attribute (the copy in the graph), or def when absent. */
static vfy_status attr_str(const vfy_graph *g, const vfy_node *n, const char *name, const char *def,
                           const char **out, vfy_error *err)
{
    const vfy_attr *a = attr_get(n, name);
    *out = def;
    if (!a)
        return VFY_OK;
    if (a->kind != VFY_ATTR_STRING)
        return nfail(g, n, err, VFY_ERR_INVALID, "attribute '%s' must be a string", name);
    *out = a->s;
    return VFY_OK;
}

/* Window geometry on an (N, C, H, W) tensor; a 1-D op on (N, C, W) is the case H = 1. Output
 * element (b, m, oy, ox) reads input (b, c, iy, ix) with iy = oy*sh - pt + ky*dh (ky < kh) and
 * ix = ox*sw - pl + kx*dw (kx < kw); positions outside [0, h) x [0, w) are padding. Every field is
 * at most 2^28 (inputs) or 2^24 (attributes), so the index arithmetic below cannot overflow. */
typedef struct win_geom {
    int64_t n, c, h, w;         /* input */
    int64_t kh, kw, sh, sw, dh, dw;
    int64_t pt, pl, pb, pr;     /* pads: top, left, bottom, right */
    int64_t oh, ow;             /* output spatial size */
} win_geom;

#define WIN_MAX_ATTR ((int64_t)1 << 24)

/* An attribute list of nsp values in [lo, WIN_MAX_ATTR] (2*nsp for pads) into out; def when absent. */
static vfy_status win_list(const vfy_graph *g, const vfy_node *n, const char *name, int64_t count,
                           int64_t lo, int64_t def, int64_t *out, vfy_error *err)
{
    const int64_t *v;
    int64_t nv;
    int present;
    vfy_status st = int_list(g, n, INT64_MAX, name, &v, &nv, &present, err);
    if (st)
        return st;
    if (present && nv != count)
        return nfail(g, n, err, VFY_ERR_INVALID, "attribute '%s' has %lld values, expected %lld",
                     name, (long long)nv, (long long)count);
    for (int64_t k = 0; k < count; k++) {
        out[k] = present ? v[k] : def;
        if (out[k] < lo || out[k] > WIN_MAX_ATTR)
            return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "attribute '%s' value %lld out of range "
                         "[%lld, %lld] (unsupported)", name, (long long)out[k], (long long)lo,
                         (long long)WIN_MAX_ATTR);
    }
    return VFY_OK;
}

/* Output size of one spatial axis (pads begin/end filled for auto_pad); -1 when the window does
 * not fit, -2 when ceil_mode would start a window in the end padding (runtimes disagree there). */
static int64_t win_axis(int64_t in, int64_t k, int64_t s, int64_t d, const char *auto_pad,
                        int ceil_mode, int64_t *pad_b, int64_t *pad_e)
{
    int64_t dk = (k - 1) * d + 1, out;
    if (strcmp(auto_pad, "SAME_UPPER") == 0 || strcmp(auto_pad, "SAME_LOWER") == 0) {
        out = (in + s - 1) / s;
        int64_t total = (out - 1) * s + dk - in;
        if (total < 0)
            total = 0;
        *pad_b = auto_pad[5] == 'U' ? total / 2 : total - total / 2;
        *pad_e = total - *pad_b;
        return out;
    }
    if (strcmp(auto_pad, "VALID") == 0)
        *pad_b = *pad_e = 0;
    int64_t span = in + *pad_b + *pad_e - dk;
    if (span < 0)
        return -1;
    out = ceil_mode ? (span + s - 1) / s + 1 : span / s + 1;
    if (ceil_mode && (out - 1) * s >= in + *pad_b)
        return -2;
    return out;
}

/* The geometry of node n on input x. kernel: the spatial kernel (Conv: from the weights; pools:
 * NULL, read from kernel_shape; GlobalAveragePool: the whole input, pass global = 1). */
static vfy_status win_get(const vfy_graph *g, const vfy_node *n, const vfy_tensor *x,
                          const int64_t *kernel, int global, win_geom *wg, vfy_error *err)
{
    memset(wg, 0, sizeof *wg);
    if (x->rank != 3 && x->rank != 4)
        return nfail(g, n, err, VFY_ERR_UNSUPPORTED,
                     "input of rank %d (only 1-D and 2-D NCHW windows are supported)", x->rank);
    int nsp = x->rank - 2;
    wg->n = x->shape[0];
    wg->c = x->shape[1];
    wg->h = nsp == 2 ? x->shape[2] : 1;
    wg->w = x->shape[x->rank - 1];
    int64_t ks[2] = {1, 1}, st[2] = {1, 1}, dl[2] = {1, 1}, pd[4] = {0, 0, 0, 0}, ka[2];
    vfy_status s;
    const char *auto_pad = "NOTSET";
    int64_t ceil_mode = 0;
    if (global) {
        ks[0] = wg->h;
        ks[1] = wg->w;
    } else {
        if ((s = win_list(g, n, "strides", nsp, 1, 1, st + 2 - nsp, err)) ||
            (s = win_list(g, n, "dilations", nsp, 1, 1, dl + 2 - nsp, err)) ||
            (s = attr_str(g, n, "auto_pad", "NOTSET", &auto_pad, err)) ||
            (s = attr_int(g, n, "ceil_mode", 0, &ceil_mode, err)))
            return s;
        int64_t pads[4];
        if ((s = win_list(g, n, "pads", 2 * nsp, 0, 0, pads, err)))
            return s;
        if (nsp == 2) {
            pd[0] = pads[0]; pd[1] = pads[1]; pd[2] = pads[2]; pd[3] = pads[3];
        } else {
            pd[1] = pads[0];
            pd[3] = pads[1];
        }
        if (strcmp(auto_pad, "NOTSET") && strcmp(auto_pad, "VALID") &&
            strcmp(auto_pad, "SAME_UPPER") && strcmp(auto_pad, "SAME_LOWER"))
            return nfail(g, n, err, VFY_ERR_INVALID, "unknown auto_pad '%s'", auto_pad);
        if (strcmp(auto_pad, "NOTSET") && (pd[0] || pd[1] || pd[2] || pd[3]))
            return nfail(g, n, err, VFY_ERR_INVALID, "both pads and auto_pad '%s' given", auto_pad);
        if (ceil_mode != 0 && ceil_mode != 1)
            return nfail(g, n, err, VFY_ERR_INVALID, "ceil_mode must be 0 or 1");
        const vfy_attr *a = attr_get(n, "kernel_shape");
        if (a || !kernel) {
            if ((s = win_list(g, n, "kernel_shape", nsp, 1, 0, ka + 2 - nsp, err)))
                return s;
            if (!a)
                return nfail(g, n, err, VFY_ERR_INVALID, "missing attribute 'kernel_shape'");
            ka[0] = nsp == 2 ? ka[0] : 1;
            if (kernel && (ka[0] != kernel[0] || ka[1] != kernel[1]))
                return nfail(g, n, err, VFY_ERR_INVALID, "kernel_shape differs from the weights");
        }
        ks[0] = kernel ? kernel[0] : ka[0];
        ks[1] = kernel ? kernel[1] : ka[1];
    }
    wg->kh = ks[0];
    wg->kw = ks[1];
    wg->sh = st[0];
    wg->sw = st[1];
    wg->dh = dl[0];
    wg->dw = dl[1];
    wg->pt = pd[0];
    wg->pl = pd[1];
    wg->pb = pd[2];
    wg->pr = pd[3];
    if (wg->kh < 1 || wg->kw < 1 || wg->kh > WIN_MAX_ATTR || wg->kw > WIN_MAX_ATTR)
        return nfail(g, n, err, VFY_ERR_INVALID, "empty or oversized kernel");
    wg->oh = win_axis(wg->h, wg->kh, wg->sh, wg->dh, auto_pad, (int)ceil_mode, &wg->pt, &wg->pb);
    wg->ow = win_axis(wg->w, wg->kw, wg->sw, wg->dw, auto_pad, (int)ceil_mode, &wg->pl, &wg->pr);
    if (wg->oh == -2 || wg->ow == -2)
        return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "ceil_mode puts a window entirely in the end "
                     "padding (unsupported: runtimes differ there)");
    if (wg->oh < 0 || wg->ow < 0)
        return nfail(g, n, err, VFY_ERR_INVALID, "the kernel is larger than the padded input");
    return VFY_OK;
}

/* Set the output shape (N, M, oh, ow), or (N, M, ow) for a 1-D op. */
static vfy_status win_out(ictx *c, const win_geom *wg, int64_t m)
{
    const vfy_tensor *x = &c->in[0]->t;
    int64_t shape[4] = {wg->n, m, wg->oh, wg->ow};
    if (x->rank == 3)
        shape[2] = wg->ow;
    c->o->t.dtype = x->dtype;
    if (set_shape(&c->o->t, x->rank, shape))
        return bad_shape(c);
    return VFY_OK;
}

/* The new ops are linear maps of the computed tensor; on constants nobody needs them folded. */
static vfy_status need_computed(ictx *c)
{
    if (c->all_const)
        return nfail(c->g, c->n, c->err, VFY_ERR_UNSUPPORTED,
                     "folding this operator on constants (unsupported)");
    if (!dt_float(c->in[0]->t.dtype))
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "input must be a float tensor");
    return VFY_OK;
}

/* Conv, ConvTranspose: a computed float input, constant weights and bias of its type. */
static vfy_status conv_operands(ictx *c, const vfy_tensor **x, const vfy_tensor **wt,
                                const vfy_tensor **b)
{
    vfy_status st;
    if ((st = need_computed(c)) || (st = need_const(c, 1)) || (st = need_const(c, 2)))
        return st;
    *x = &c->in[0]->t;
    *wt = &c->in[1]->t;
    *b = c->in[2] ? &c->in[2]->t : NULL;
    if ((*wt)->dtype != (*x)->dtype || (*b && (*b)->dtype != (*x)->dtype))
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "operand types differ");
    return VFY_OK;
}

static vfy_status infer_conv(ictx *c)
{
    const vfy_tensor *x, *wt, *b;
    vfy_status st = conv_operands(c, &x, &wt, &b);
    if (st)
        return st;
    if (wt->rank != x->rank)
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "weights of rank %d for input of rank %d",
                     wt->rank, x->rank);
    if (x->rank != 3 && x->rank != 4)
        return nfail(c->g, c->n, c->err, VFY_ERR_UNSUPPORTED,
                     "input of rank %d (only 1-D and 2-D NCHW convolutions are supported)", x->rank);
    int64_t group, m = wt->shape[0];
    if ((st = attr_int(c->g, c->n, "group", 1, &group, c->err)))
        return st;
    if (group < 1 || x->shape[1] % group || m % group ||
        wt->shape[1] * group != x->shape[1])
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID,
                     "group %lld does not fit the %lld input and %lld output channels",
                     (long long)group, (long long)x->shape[1], (long long)m);
    if (b && (b->rank != 1 || b->shape[0] != m))
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "bias must have shape [%lld]",
                     (long long)m);
    int64_t kernel[2] = {x->rank == 4 ? wt->shape[2] : 1, wt->shape[wt->rank - 1]};
    win_geom wg;
    if ((st = win_get(c->g, c->n, x, kernel, 0, &wg, c->err)))
        return st;
    return win_out(c, &wg, m);
}

/* ConvTranspose on X (N, C, H, W) with weights (C, M/group, kh, kw): every input element scatters
 * its kernel, y[b, oc, iy*sh - pt + ky*dh, ix*sw - pl + kx*dw] += x[b, ic, iy, ix] w[ic, j, ky, kx]
 * with oc = (ic / (C/group)) (M/group) + j, then the bias; the output is
 * oh = sh (h - 1) + output_padding + (kh - 1) dh + 1 - pt - pb (likewise ow). The geometry in
 * win_geom's fields, (h, w) the input and (oh, ow) the output; *m the output channels. auto_pad
 * SAME_* and output_shape (which choose the pads from the output) are refused. */
static vfy_status tconv_get(const vfy_graph *g, const vfy_node *n, const vfy_tensor *x,
                            const vfy_tensor *wt, win_geom *wg, int64_t *m, int64_t *group,
                            vfy_error *err)
{
    memset(wg, 0, sizeof *wg);
    if (x->rank != 3 && x->rank != 4)
        return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "input of rank %d (only 1-D and 2-D NCHW "
                     "transposed convolutions are supported)", x->rank);
    if (wt->rank != x->rank)
        return nfail(g, n, err, VFY_ERR_INVALID, "weights of rank %d for input of rank %d",
                     wt->rank, x->rank);
    int nsp = x->rank - 2;
    int64_t st[2] = {1, 1}, dl[2] = {1, 1}, op[2] = {0, 0}, pads[4] = {0, 0, 0, 0}, ka[2] = {1, 1};
    const char *auto_pad = "NOTSET";
    vfy_status s;
    if ((s = attr_int(g, n, "group", 1, group, err)) ||
        (s = win_list(g, n, "strides", nsp, 1, 1, st + 2 - nsp, err)) ||
        (s = win_list(g, n, "dilations", nsp, 1, 1, dl + 2 - nsp, err)) ||
        (s = win_list(g, n, "output_padding", nsp, 0, 0, op + 2 - nsp, err)) ||
        (s = win_list(g, n, "pads", 2 * nsp, 0, 0, pads, err)) ||
        (s = attr_str(g, n, "auto_pad", "NOTSET", &auto_pad, err)))
        return s;
    if (attr_get(n, "output_shape"))
        return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "attribute 'output_shape' (unsupported: give "
                     "pads)");
    if (strcmp(auto_pad, "NOTSET") && strcmp(auto_pad, "VALID"))
        return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "auto_pad '%s' (supported: NOTSET, VALID)",
                     auto_pad);
    if (strcmp(auto_pad, "NOTSET") && (pads[0] || pads[1] || pads[2] || pads[3]))
        return nfail(g, n, err, VFY_ERR_INVALID, "both pads and auto_pad '%s' given", auto_pad);
    int64_t c = x->shape[1];
    if (*group < 1 || c % *group || wt->shape[0] != c)
        return nfail(g, n, err, VFY_ERR_INVALID, "weights for %lld input channels and group %lld "
                     "do not fit %lld input channels", (long long)wt->shape[0], (long long)*group,
                     (long long)c);
    *m = wt->shape[1] * *group;
    int64_t kernel[2] = {nsp == 2 ? wt->shape[2] : 1, wt->shape[wt->rank - 1]};
    if (attr_get(n, "kernel_shape")) {
        if ((s = win_list(g, n, "kernel_shape", nsp, 1, 0, ka + 2 - nsp, err)))
            return s;
        if (ka[0] != kernel[0] || ka[1] != kernel[1])
            return nfail(g, n, err, VFY_ERR_INVALID, "kernel_shape differs from the weights");
    }
    wg->n = x->shape[0];
    wg->c = c;
    wg->h = nsp == 2 ? x->shape[2] : 1;
    wg->w = x->shape[x->rank - 1];
    wg->kh = kernel[0];
    wg->kw = kernel[1];
    wg->sh = st[0];
    wg->sw = st[1];
    wg->dh = dl[0];
    wg->dw = dl[1];
    if (nsp == 2) {
        wg->pt = pads[0];
        wg->pl = pads[1];
        wg->pb = pads[2];
        wg->pr = pads[3];
    } else {
        wg->pl = pads[0];
        wg->pr = pads[1];
    }
    if (wg->kh < 1 || wg->kw < 1 || wg->kh > WIN_MAX_ATTR || wg->kw > WIN_MAX_ATTR)
        return nfail(g, n, err, VFY_ERR_INVALID, "empty or oversized kernel");
    if (op[0] >= st[0] && op[0] >= dl[0])
        return nfail(g, n, err, VFY_ERR_INVALID, "output_padding must be below the stride or the "
                     "dilation");
    if (op[1] >= st[1] && op[1] >= dl[1])
        return nfail(g, n, err, VFY_ERR_INVALID, "output_padding must be below the stride or the "
                     "dilation");
    /* (every term at most 2^28 or 2^24 squared: no overflow) */
    wg->oh = wg->sh * (wg->h - 1) + op[0] + (wg->kh - 1) * wg->dh + 1 - wg->pt - wg->pb;
    wg->ow = wg->sw * (wg->w - 1) + op[1] + (wg->kw - 1) * wg->dw + 1 - wg->pl - wg->pr;
    if (wg->oh < 1 || wg->ow < 1)
        return nfail(g, n, err, VFY_ERR_INVALID, "the pads leave an empty output");
    return VFY_OK;
}

static vfy_status infer_conv_transpose(ictx *c)
{
    const vfy_tensor *x, *wt, *b;
    vfy_status st = conv_operands(c, &x, &wt, &b);
    if (st)
        return st;
    win_geom wg;
    int64_t m, group;
    if ((st = tconv_get(c->g, c->n, x, wt, &wg, &m, &group, c->err)))
        return st;
    if (b && (b->rank != 1 || b->shape[0] != m))
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "bias must have shape [%lld]",
                     (long long)m);
    return win_out(c, &wg, m);
}

/* Resize and Upsample with mode nearest: output element (o_0, ..., o_{r-1}) is input element
 * (i_0, ...) with i_d = nearest(x_d(o_d)) clamped to [0, in_d), where x_d is the
 * coordinate_transformation_mode's map (half_pixel (o + 1/2)/s - 1/2, asymmetric o/s, align_corners
 * o (in - 1)/(out - 1), pytorch_half_pixel, tf_half_pixel_for_nn (o + 1/2)/s) and nearest the
 * nearest_mode (round_prefer_floor, round_prefer_ceil, floor, ceil); Upsample is asymmetric and
 * floor. s is the axis's scale (the float32 value given, or out/in when sizes are given; then
 * out = floor(in s) otherwise). A selection: the lowered layer's entries are 1 (exact).
 * SOUND: a runtime computes x in float32 and may land on the other side of a rounding boundary
 * than the real x: an index is taken only when the real x (computed in double: it is a rational
 * whose distance to a boundary, when not 0, is far above double's rounding) lies farther than
 * 2^-16 (|x| + 2) from every boundary, or exactly on one with every float32 step of the formula
 * as written (num / den - sub: a division, as ONNX and onnxruntime write it) exact, so that the
 * runtime's x is the real one (resize_exact); otherwise the node is refused. ri->idx[d] holds i_d
 * for every o_d (freed by resize_free). */
typedef struct resize_info {
    int rank;
    int64_t out[VFY_MAX_RANK];
    int64_t *idx[VFY_MAX_RANK];
} resize_info;

static void resize_free(resize_info *ri)
{
    for (int d = 0; d < VFY_MAX_RANK; d++) {
        vfy_free(ri->idx[d]);
        ri->idx[d] = NULL;
    }
}

/* Constant input k, a 1-D tensor of floats (want_int 0) or integers (1); *t NULL when the input
 * is omitted or empty. */
static vfy_status const_floats(const vfy_graph *g, const vfy_node *n, int64_t k, int want_int,
                               const vfy_tensor **t, vfy_error *err)
{
    *t = NULL;
    if (k >= n->n_in || n->in[k] < 0)
        return VFY_OK;
    const vfy_value *v = &g->values[n->in[k]];
    if (!v->is_const)
        return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "input '%s' must be a constant (unsupported)",
                     v->name);
    if (v->t.numel == 0)
        return VFY_OK;
    if (dt_float(v->t.dtype) == want_int || v->t.rank != 1)
        return nfail(g, n, err, VFY_ERR_INVALID, "input '%s' must be a 1-D %s tensor", v->name,
                     want_int ? "integer" : "float");
    *t = &v->t;
    return VFY_OK;
}

/* 1 when num / den - sub is exact in float32 with num, den, sub as given (den a float32 value):
 * the quotient is a float32 number (fma checks it is the real quotient), so is the difference. */
static int resize_exact(double num, double den, double sub)
{
    double q = num / den;
    return (double)(float)den == den && (double)(float)num == num && fma(q, den, -num) == 0 &&
           (double)(float)q == q && (double)(float)(q - sub) == q - sub;
}

static vfy_status resize_get(const vfy_graph *g, const vfy_node *n, const vfy_tensor *x,
                             resize_info *ri, vfy_error *err)
{
    memset(ri, 0, sizeof *ri);
    ri->rank = x->rank;
    int up = n->op == VFY_OP_UPSAMPLE;
    const char *mode = "nearest", *ctm = up ? "asymmetric" : "half_pixel";
    const char *nm = up ? "floor" : "round_prefer_floor", *kar = "stretch";
    int64_t anti = 0;
    vfy_status st;
    if ((st = attr_str(g, n, "mode", "nearest", &mode, err)))
        return st;
    if (!up && ((st = attr_str(g, n, "coordinate_transformation_mode", ctm, &ctm, err)) ||
                (st = attr_str(g, n, "nearest_mode", nm, &nm, err)) ||
                (st = attr_str(g, n, "keep_aspect_ratio_policy", kar, &kar, err)) ||
                (st = attr_int(g, n, "antialias", 0, &anti, err))))
        return st;
    if (strcmp(mode, "nearest"))
        return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "mode '%s' (supported: nearest)", mode);
    if (anti || attr_get(n, "axes") || strcmp(kar, "stretch"))
        return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "antialias, axes or keep_aspect_ratio_policy "
                     "(unsupported)");
    int c_mode = !strcmp(ctm, "half_pixel") ? 0 : !strcmp(ctm, "asymmetric") ? 1
               : !strcmp(ctm, "align_corners") ? 2 : !strcmp(ctm, "pytorch_half_pixel") ? 3
               : !strcmp(ctm, "tf_half_pixel_for_nn") ? 4 : -1;
    int r_mode = !strcmp(nm, "round_prefer_floor") ? 0 : !strcmp(nm, "round_prefer_ceil") ? 1
               : !strcmp(nm, "floor") ? 2 : !strcmp(nm, "ceil") ? 3 : -1;
    if (c_mode < 0 || r_mode < 0)
        return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "coordinate_transformation_mode '%s' or "
                     "nearest_mode '%s' (unsupported)", ctm, nm);
    const vfy_tensor *sc = NULL, *sz = NULL;
    if (up && n->n_in < 2) {
        const vfy_attr *a = attr_get(n, "scales");
        if (!a || a->kind != VFY_ATTR_FLOATS)
            return nfail(g, n, err, VFY_ERR_INVALID, "needs scales");
        if (a->n != x->rank)
            return nfail(g, n, err, VFY_ERR_INVALID, "%lld scales for rank %d", (long long)a->n,
                         x->rank);
    } else if ((st = const_floats(g, n, n->n_in == 2 ? 1 : 2, 0, &sc, err)) ||
               (st = const_floats(g, n, 3, 1, &sz, err))) {
        return st;
    }
    const vfy_attr *sa = up && n->n_in < 2 ? attr_get(n, "scales") : NULL;
    if (!sa && !sc == !sz)
        return nfail(g, n, err, VFY_ERR_INVALID, "needs exactly one of scales and sizes");
    if ((sc && sc->numel != x->rank) || (sz && sz->numel != x->rank))
        return nfail(g, n, err, VFY_ERR_INVALID, "scales or sizes of length %lld for rank %d",
                     (long long)(sc ? sc->numel : sz->numel), x->rank);
    for (int d = 0; d < x->rank; d++) {
        int64_t in = x->shape[d], out;
        double s;
        if (sz) {
            out = sz->i[d];
            s = (double)out / (double)in;
        } else {
            s = sa ? sa->floats[d] : sc->f[d];
            if (!(s > 0) || !(s * (double)in < (double)WIN_MAX_ATTR))
                return nfail(g, n, err, VFY_ERR_INVALID, "scale %g out of range", s);
            out = (int64_t)floor(s * (double)in);
        }
        if (out < 1 || out > WIN_MAX_ATTR)
            return nfail(g, n, err, VFY_ERR_INVALID, "output size %lld on axis %d", (long long)out,
                         d);
        ri->out[d] = out;
        if (!(ri->idx[d] = vfy_alloc_array((size_t)out, sizeof(int64_t))))
            return NOMEM(g, n, err);
        for (int64_t o = 0; o < out; o++) {
            /* x = num / den - sub */
            double num = (double)o + 0.5, den = s, sub = 0.5;
            switch (c_mode) {
            case 1: num = (double)o, sub = 0; break;
            case 2: num = out > 1 ? (double)o * (double)(in - 1) : 0, den = out > 1 ? out - 1 : 1,
                    sub = 0; break;
            case 3: if (out == 1) num = 0, den = 1, sub = 0; break;
            case 4: sub = 0; break;
            default: break;
            }
            double xo = num / den - sub;
            /* the boundary of the rounding rule nearest xo */
            double bnd = r_mode < 2 ? floor(xo) + 0.5 : nearbyint(xo);
            double tol = 0x1p-16 * (fabs(xo) + 2);
            if (fabs(xo - bnd) <= tol && !(xo == bnd && resize_exact(num, den, sub)))
                return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "output %lld on axis %d maps to %.9g, "
                             "too near a rounding boundary for every runtime to pick one input",
                             (long long)o, d, xo);
            double r;
            switch (r_mode) {
            case 0: r = xo - floor(xo) > 0.5 ? ceil(xo) : floor(xo); break;
            case 1: r = xo - floor(xo) >= 0.5 ? ceil(xo) : floor(xo); break;
            case 2: r = floor(xo); break;
            default: r = ceil(xo); break;
            }
            int64_t i = r < 0 ? 0 : (r > (double)(in - 1) ? in - 1 : (int64_t)r);
            ri->idx[d][o] = i;
        }
    }
    return VFY_OK;
}

static vfy_status infer_resize(ictx *c)
{
    vfy_status st;
    if ((st = need_computed(c)))
        return st;
    resize_info ri;
    st = resize_get(c->g, c->n, &c->in[0]->t, &ri, c->err);
    if (st == VFY_OK) {
        c->o->t.dtype = c->in[0]->t.dtype;
        if (set_shape(&c->o->t, ri.rank, ri.out))
            st = bad_shape(c);
    }
    resize_free(&ri);
    return st;
}

static vfy_status infer_avgpool(ictx *c)
{
    vfy_status st;
    int64_t cip;
    if ((st = need_computed(c)) ||
        (st = attr_int(c->g, c->n, "count_include_pad", 0, &cip, c->err)))
        return st;
    if (cip != 0 && cip != 1)
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "count_include_pad must be 0 or 1");
    win_geom wg;
    if ((st = win_get(c->g, c->n, &c->in[0]->t, NULL,
                      c->n->op == VFY_OP_GLOBAL_AVERAGE_POOL ||
                          c->n->op == VFY_OP_GLOBAL_MAX_POOL, &wg, c->err)))
        return st;
    return win_out(c, &wg, wg.c);
}

/* MaxPool: the window geometry of AveragePool (with dilations); the optional Indices output is
 * refused with every other second output (infer_node). storage_order only orders Indices. */
static vfy_status infer_maxpool(ictx *c)
{
    vfy_status st;
    int64_t so;
    if ((st = need_computed(c)) || (st = attr_int(c->g, c->n, "storage_order", 0, &so, c->err)))
        return st;
    if (so != 0 && so != 1)
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "storage_order must be 0 or 1");
    win_geom wg;
    if ((st = win_get(c->g, c->n, &c->in[0]->t, NULL, 0, &wg, c->err)))
        return st;
    return win_out(c, &wg, wg.c);
}

/* The constant bounds of Clip: inputs 1 and 2 (opset >= 11; omitted: none) or the attributes min
 * and max (opset 6); -inf/+inf when absent. Each must be a constant scalar. */
static vfy_status clip_bounds(const vfy_graph *g, const vfy_node *n, double *lo, double *hi,
                              vfy_error *err)
{
    vfy_status st;
    if ((st = attr_float(g, n, "min", -INFINITY, lo, err)) ||
        (st = attr_float(g, n, "max", INFINITY, hi, err)))
        return st;
    for (int64_t k = 1; k < n->n_in && k < 3; k++) {
        if (n->in[k] < 0)
            continue;
        const vfy_value *v = &g->values[n->in[k]];
        if (!v->is_const || v->t.numel != 1 || !v->t.f)
            return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "%s bound '%s' is not a constant float "
                         "scalar (unsupported)", k == 1 ? "lower" : "upper", v->name);
        *(k == 1 ? lo : hi) = v->t.f[0];
    }
    if (isnan(*lo) || isnan(*hi) || *lo > *hi)
        return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "bounds [%g, %g] are NaN or empty "
                     "(unsupported)", *lo, *hi);
    return VFY_OK;
}

/* LeakyRelu and Clip: the shape and type of the input (a float tensor, computed). */
/* PRelu, Max, Min: input k (the constant: PRelu's slope, Max/Min's other operand) broadcast to
 * the computed input's shape, which is the output's; finite float values. *ci: the computed input
 * (Max/Min: exactly two inputs, one of them constant). */
static vfy_status pwl_const(const vfy_graph *g, const vfy_node *n, int *ci, const vfy_tensor **ct,
                            vfy_error *err)
{
    if (n->op != VFY_OP_PRELU && n->n_in != 2)
        return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "%lld operands (supported: a computed tensor "
                     "and a constant)", (long long)n->n_in);
    const vfy_value *a = &g->values[n->in[0]], *b = &g->values[n->in[1]];
    if (a->is_const == b->is_const || (n->op == VFY_OP_PRELU && !b->is_const))
        return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "%s (supported: a computed tensor and a "
                     "constant %s)", a->is_const ? "of constants" : "of two computed tensors",
                     n->op == VFY_OP_PRELU ? "slope" : "operand");
    *ci = a->is_const ? 1 : 0;
    const vfy_value *x = *ci ? b : a, *k = *ci ? a : b;
    if (!dt_float(x->t.dtype) || k->t.dtype != x->t.dtype)
        return nfail(g, n, err, VFY_ERR_INVALID, "operands must be float tensors of one type");
    int r;
    int64_t shape[VFY_MAX_RANK];
    if (bcast_shape(&x->t, &k->t, &r, shape) || r != x->t.rank ||
        memcmp(shape, x->t.shape, (size_t)r * sizeof *shape))
        return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "constant '%s' does not broadcast to the "
                     "shape of '%s'", k->name, x->name);
    for (int64_t j = 0; j < k->t.numel; j++)
        if (!isfinite(k->t.f[j]))
            return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "constant '%s' holds %g (unsupported)",
                         k->name, k->t.f[j]);
    *ct = &k->t;
    return VFY_OK;
}

static vfy_status infer_pwl(ictx *c)
{
    vfy_status st;
    if (c->n->op == VFY_OP_PRELU || c->n->op == VFY_OP_MAX || c->n->op == VFY_OP_MIN) {
        int ci;
        const vfy_tensor *ct;
        if ((st = pwl_const(c->g, c->n, &ci, &ct, c->err)))
            return st;
        vfy_tensor *t = &c->o->t;
        t->dtype = c->in[ci]->t.dtype;
        if (set_shape(t, c->in[ci]->t.rank, c->in[ci]->t.shape))
            return bad_shape(c);
        return VFY_OK;
    }
    if (c->n->op == VFY_OP_CLIP) {
        /* (the bounds may be constant inputs: all_const then says nothing about x) */
        if (c->in[0]->is_const)
            return nfail(c->g, c->n, c->err, VFY_ERR_UNSUPPORTED,
                         "folding this operator on constants (unsupported)");
        if (!dt_float(c->in[0]->t.dtype))
            return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "input must be a float tensor");
        double lo, hi;
        if ((st = clip_bounds(c->g, c->n, &lo, &hi, c->err)))
            return st;
    } else if ((st = need_computed(c))) {
        return st;
    }
    vfy_tensor *t = &c->o->t;
    t->dtype = c->in[0]->t.dtype;
    if (set_shape(t, c->in[0]->t.rank, c->in[0]->t.shape))
        return bad_shape(c);
    return VFY_OK;
}

/* BatchNormalization (inference): x [N, C, ...] and constant scale, B, mean, var of shape [C]. */
static vfy_status infer_batchnorm(ictx *c)
{
    vfy_status st;
    int64_t training, spatial;
    if ((st = need_computed(c)) || (st = attr_int(c->g, c->n, "training_mode", 0, &training, c->err)) ||
        (st = attr_int(c->g, c->n, "spatial", 1, &spatial, c->err)))
        return st;
    if (training || spatial != 1)
        return nfail(c->g, c->n, c->err, VFY_ERR_UNSUPPORTED,
                     "training_mode or spatial = 0 (unsupported)");
    const vfy_tensor *x = &c->in[0]->t;
    if (x->rank < 2)
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "input needs a channel axis");
    for (int k = 1; k < 5; k++) {
        if ((st = need_const(c, k)))
            return st;
        const vfy_tensor *p = &c->in[k]->t;
        if (p->dtype != x->dtype || p->rank != 1 || p->shape[0] != x->shape[1])
            return nfail(c->g, c->n, c->err, VFY_ERR_INVALID,
                         "'%s' must be a %s tensor of shape [%lld]", c->in[k]->name,
                         vfy_dtype_name(x->dtype), (long long)x->shape[1]);
    }
    c->o->t.dtype = x->dtype;
    set_shape(&c->o->t, x->rank, x->shape);
    return VFY_OK;
}

/* Pad, mode constant: pads from input 1 or the attribute (begins then ends, negative = crop), the
 * value from input 2 or the attribute, optional axes (input 3). pad_get fills the begin offsets and
 * the output shape; the folding and the lowering walk the output and ask pad_src for the source. */
typedef struct pad_info {
    int64_t begin[VFY_MAX_RANK];
    double fvalue;
    int64_t ivalue;
} pad_info;

static vfy_status pad_get(const vfy_graph *g, const vfy_node *n, pad_info *pi, int64_t *shape,
                          vfy_error *err)
{
    const vfy_tensor *x = &g->values[n->in[0]].t;
    const char *mode;
    vfy_status st = attr_str(g, n, "mode", "constant", &mode, err);
    if (st)
        return st;
    if (strcmp(mode, "constant") != 0)
        return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "mode '%s' (unsupported: only 'constant')",
                     mode);
    const int64_t *pads, *axes;
    int64_t np, na;
    int pp, pa;
    if ((st = int_list(g, n, 1, "pads", &pads, &np, &pp, err)) ||
        (st = int_list(g, n, 3, "", &axes, &na, &pa, err)))
        return st;
    int64_t axis[VFY_MAX_RANK];
    if (!pa)
        na = x->rank;
    if (!pp || na > x->rank || np != 2 * na)
        return nfail(g, n, err, VFY_ERR_INVALID, "missing pads or %lld pads for %lld axes",
                     (long long)np, (long long)na);
    char seen[VFY_MAX_RANK] = {0};
    for (int64_t k = 0; k < na; k++) {
        axis[k] = pa ? norm_axis(axes[k], x->rank) : k;
        if (axis[k] < 0 || seen[axis[k]])
            return nfail(g, n, err, VFY_ERR_INVALID, "bad axis");
        seen[axis[k]] = 1;
    }
    memset(pi, 0, sizeof *pi);
    for (int d = 0; d < x->rank; d++)
        shape[d] = x->shape[d];
    for (int64_t k = 0; k < na; k++) {
        int64_t b = pads[k], e = pads[na + k], d = axis[k];
        if (b < -VFY_MAX_ELEMS || b > VFY_MAX_ELEMS || e < -VFY_MAX_ELEMS || e > VFY_MAX_ELEMS ||
            shape[d] + b + e < 0)
            return nfail(g, n, err, VFY_ERR_INVALID, "pads %lld, %lld do not fit axis %lld",
                         (long long)b, (long long)e, (long long)d);
        pi->begin[d] = b;
        shape[d] += b + e;
        if (shape[d] == 0)
            return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "pads leave axis %lld empty (unsupported)",
                         (long long)d);
    }
    const vfy_attr *va = attr_get(n, "value");
    if (n->n_in > 2 && n->in[2] >= 0) {
        const vfy_value *v = &g->values[n->in[2]];
        if (!v->is_const)
            return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "computed constant_value (unsupported)");
        if (v->t.numel != 1 || v->t.dtype != x->dtype)
            return nfail(g, n, err, VFY_ERR_INVALID, "constant_value must be one %s",
                         vfy_dtype_name(x->dtype));
        pi->fvalue = v->t.f ? v->t.f[0] : 0;
        pi->ivalue = v->t.i ? v->t.i[0] : 0;
    } else if (va) {
        if (va->kind != VFY_ATTR_FLOAT)
            return nfail(g, n, err, VFY_ERR_INVALID, "attribute 'value' must be a float");
        pi->fvalue = va->f;
        pi->ivalue = fabs(va->f) < 0x1p62 ? (int64_t)va->f : 0;
    }
    return VFY_OK;
}

/* Flat source index in x of element k of the padded output (shape oshape), or -1 for padding. */
static int64_t pad_src(const vfy_tensor *x, const int64_t *oshape, const pad_info *pi, int64_t k)
{
    int64_t src = 0, stride = 1;
    for (int d = x->rank - 1; d >= 0; d--) {
        int64_t i = k % oshape[d] - pi->begin[d];
        k /= oshape[d];
        if (i < 0 || i >= x->shape[d])
            return -1;
        src += i * stride;
        stride *= x->shape[d];
    }
    return src;
}

static vfy_status infer_pad(ictx *c)
{
    pad_info pi;
    int64_t shape[VFY_MAX_RANK];
    vfy_status st = pad_get(c->g, c->n, &pi, shape, c->err);
    if (st)
        return st;
    const vfy_tensor *x = &c->in[0]->t;
    vfy_tensor *t = &c->o->t;
    t->dtype = x->dtype;
    if (set_shape(t, x->rank, shape))
        return bad_shape(c);
    if (!c->in[0]->is_const)
        return VFY_OK;
    if (tensor_alloc(t))
        return NOMEM(c->g, c->n, c->err);
    for (int64_t k = 0; k < t->numel; k++) {
        int64_t s = pad_src(x, shape, &pi, k);
        if (s >= 0)
            elem_copy(t, k, x, s);
        else if (t->f)
            t->f[k] = pi.fvalue;
        else
            t->i[k] = pi.ivalue;
    }
    c->o->is_const = 1;
    return VFY_OK;
}

/* Check the node's attributes against the op's list: an attribute we do not understand could change
 * the semantics, so it is refused. */
static vfy_status check_attrs(const vfy_graph *g, const vfy_node *n, vfy_error *err)
{
    const char *list = op_info[n->op].attrs;
    for (int64_t k = 0; k < n->n_attr; k++) {
        const char *nm = n->attr[k].name;
        size_t len = strlen(nm);
        const char *p = list;
        int found = 0;
        while (!found && len && (p = strstr(p, nm)) != NULL) {
            found = (p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0');
            p++;
        }
        if (!found)
            return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "unsupported attribute '%s'", nm);
    }
    return VFY_OK;
}

/* ReduceMean, ReduceSum: the reduced axes (attribute, or input 1 from opset 13/18; none: every
 * axis, or the identity with noop_with_empty_axes) in red[], and the output's shape. On computed
 * float tensors only (a constant reduction would need the runtime's summation order to fold). */
static vfy_status reduce_axes(const vfy_graph *g, const vfy_node *n, const vfy_tensor *x,
                              char *red, int *rank, int64_t *shape, vfy_error *err)
{
    const int64_t *axes;
    int64_t na, keep, noop;
    int pa;
    vfy_status st;
    if ((st = int_list(g, n, 1, "axes", &axes, &na, &pa, err)) ||
        (st = attr_int(g, n, "keepdims", 1, &keep, err)) ||
        (st = attr_int(g, n, "noop_with_empty_axes", 0, &noop, err)))
        return st;
    for (int d = 0; d < x->rank; d++)
        red[d] = na == 0 && !noop;
    for (int64_t k = 0; k < na; k++) {
        int64_t a = norm_axis(axes[k], x->rank);
        if (a < 0 || red[a])
            return nfail(g, n, err, VFY_ERR_INVALID, "axis %lld out of range or repeated",
                         (long long)axes[k]);
        red[a] = 1;
    }
    *rank = 0;
    for (int d = 0; d < x->rank; d++)
        if (!red[d] || keep)
            shape[(*rank)++] = red[d] ? 1 : x->shape[d];
    return VFY_OK;
}

static vfy_status infer_reduce(ictx *c)
{
    const vfy_tensor *x = &c->in[0]->t;
    if (c->in[0]->is_const || !dt_float(x->dtype))
        return nfail(c->g, c->n, c->err, VFY_ERR_UNSUPPORTED, "reduces a %s %s tensor (unsupported: "
                     "only computed float tensors)", c->in[0]->is_const ? "constant" : "computed",
                     vfy_dtype_name(x->dtype));
    char red[VFY_MAX_RANK];
    int64_t shape[VFY_MAX_RANK];
    int rank;
    vfy_status st = reduce_axes(c->g, c->n, x, red, &rank, shape, c->err);
    if (st)
        return st;
    c->o->t.dtype = x->dtype;
    return set_shape(&c->o->t, rank, shape) ? bad_shape(c) : VFY_OK;
}

/* Dropout in inference is the identity: training_mode (input 2, default false) must be a constant
 * false; the ratio does not matter then. (A mask output is refused as any second output is.) */
static vfy_status infer_dropout(ictx *c)
{
    if (c->n->n_in > 2 && c->in[2]) {
        const vfy_value *tm = c->in[2];
        if (!tm->is_const || tm->t.numel != 1)
            return nfail(c->g, c->n, c->err, VFY_ERR_UNSUPPORTED,
                         "training_mode '%s' must be a constant scalar (unsupported)", tm->name);
        if (tm->t.f ? tm->t.f[0] != 0 : tm->t.i[0] != 0)
            return nfail(c->g, c->n, c->err, VFY_ERR_UNSUPPORTED,
                         "training_mode is true (unsupported: a random mask)");
    }
    return out_view(c, c->in[0]->t.rank, c->in[0]->t.shape);
}

/* Softmax, LogSoftmax: the shape of the input, a float type, the axis in range; never folded (the
 * lowering takes them only as the network's output, net.h). */
static vfy_status infer_softmax(ictx *c)
{
    const vfy_tensor *x = &c->in[0]->t;
    int64_t axis;
    vfy_status st = attr_int(c->g, c->n, "axis", -1, &axis, c->err);
    if (st)
        return st;
    if (!dt_float(x->dtype))
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "input '%s' has type %s, expected a "
                     "float type", c->in[0]->name, vfy_dtype_name(x->dtype));
    if (norm_axis(axis, x->rank > 0 ? x->rank : 1) < 0)
        return nfail(c->g, c->n, c->err, VFY_ERR_INVALID, "axis %lld out of range for rank %d",
                     (long long)axis, x->rank);
    if (c->all_const)
        return nfail(c->g, c->n, c->err, VFY_ERR_UNSUPPORTED, "of constants (unsupported)");
    return out_view(c, x->rank, x->shape);
}

/* 1 when Softmax/LogSoftmax node n normalises over every element of its input x, whatever the
 * opset: from opset 13 it normalises along `axis` (default -1), before that over the dimensions
 * from `axis` on (default 1). Every dimension but the axis of size 1 makes both readings the whole
 * tensor; with no axis given, the last dimension must be the only one above 1 and the rank at least
 * 2 (a rank-1 tensor under the old default would be normalised element by element). */
static int softmax_whole(const vfy_node *n, const vfy_tensor *x)
{
    const vfy_attr *a = attr_get(n, "axis");
    int64_t axis = a ? norm_axis(a->i, x->rank > 0 ? x->rank : 1) : x->rank - 1;
    if (!a && x->rank < 2)
        return 0;
    for (int d = 0; d < x->rank; d++)
        if (d != axis && x->shape[d] != 1)
            return 0;
    return 1;
}

static vfy_status infer_node(vfy_graph *g, int64_t idx, vfy_error *err)
{
    vfy_node *n = &g->nodes[idx];
    ictx c = {.g = g, .n = n, .err = err, .all_const = 1};
    if (n->op == VFY_OP_OTHER)
        return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "unsupported operator");
    const struct op_info *oi = &op_info[n->op];
    if (n->n_in < oi->min_in || n->n_in > oi->max_in)
        return nfail(g, n, err, VFY_ERR_INVALID, "has %lld inputs, expected %d to %d",
                     (long long)n->n_in, oi->min_in, oi->max_in);
    if (n->n_out < 1 || n->out[0] < 0)
        return nfail(g, n, err, VFY_ERR_INVALID, "has no output");
    for (int64_t k = 1; k < n->n_out; k++)
        if (n->out[k] >= 0)
            return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "second output '%s' (unsupported)",
                         g->values[n->out[k]].name);
    for (int64_t k = 0; k < n->n_in; k++) {
        if (n->in[k] < 0) {
            /* (seen: a Max whose second input was left out read a value before the first one,
             * found by tests/fuzz/fuzz_onnx.c) */
            if (k < oi->min_in || oi->max_in == VARIADIC)
                return nfail(g, n, err, VFY_ERR_INVALID, "required input %lld is missing",
                             (long long)k);
            continue;
        }
        vfy_value *v = &g->values[n->in[k]];
        if (!v->is_shaped)
            return nfail(g, n, err, VFY_ERR_INVALID, "input '%s' has no known shape", v->name);
        if (!v->is_const)
            c.all_const = 0;
        if (k < 8)
            c.in[k] = v;
    }
    vfy_status st = check_attrs(g, n, err);
    if (st)
        return st;
    c.o = &g->values[n->out[0]];
    switch (n->op) {
    case VFY_OP_IDENTITY: st = out_view(&c, c.in[0]->t.rank, c.in[0]->t.shape); break;
    case VFY_OP_CONSTANT: st = infer_constant(&c); break;
    case VFY_OP_CONSTANT_OF_SHAPE: st = infer_constant_of_shape(&c); break;
    case VFY_OP_EQUAL:
    case VFY_OP_LESS:
    case VFY_OP_LESS_OR_EQUAL:
    case VFY_OP_GREATER:
    case VFY_OP_GREATER_OR_EQUAL:
    case VFY_OP_NOT:
    case VFY_OP_AND:
    case VFY_OP_OR:
    case VFY_OP_XOR: st = infer_compare_logic(&c); break;
    case VFY_OP_WHERE: st = infer_where(&c); break;
    case VFY_OP_RANGE: st = infer_range(&c); break;
    case VFY_OP_FLOOR:
    case VFY_OP_CEIL:
    case VFY_OP_ROUND: st = infer_rounding(&c); break;
    case VFY_OP_SHAPE: st = infer_shape(&c); break;
    case VFY_OP_GATHER: st = infer_gather(&c); break;
    case VFY_OP_CONCAT: st = infer_concat(&c); break;
    case VFY_OP_CAST: st = infer_cast(&c); break;
    case VFY_OP_UNSQUEEZE: st = infer_unsqueeze(&c); break;
    case VFY_OP_SQUEEZE: st = infer_squeeze(&c); break;
    case VFY_OP_SLICE: st = infer_slice(&c); break;
    case VFY_OP_EXPAND:
    case VFY_OP_TILE: st = infer_expand_tile(&c); break;
    case VFY_OP_RESHAPE: st = infer_reshape(&c); break;
    case VFY_OP_FLATTEN: st = infer_flatten(&c); break;
    case VFY_OP_TRANSPOSE: st = infer_transpose(&c); break;
    case VFY_OP_GEMM: st = infer_gemm(&c); break;
    case VFY_OP_MATMUL: st = infer_matmul(&c); break;
    case VFY_OP_ADD:
    case VFY_OP_SUB:
    case VFY_OP_MUL:
    case VFY_OP_DIV:
    case VFY_OP_NEG:
    case VFY_OP_RELU: st = infer_elementwise(&c); break;
    case VFY_OP_POW: st = infer_elementwise(&c); break;
    case VFY_OP_SIGMOID:
    case VFY_OP_TANH:
    case VFY_OP_EXP:
    case VFY_OP_LOG:
    case VFY_OP_SQRT:
    case VFY_OP_RECIPROCAL:
    case VFY_OP_SOFTPLUS:
    case VFY_OP_SIGN: /* (ONNX also has an integer Sign: not in networks, refused) */
    case VFY_OP_SIN:
    case VFY_OP_COS:
    case VFY_OP_ERF:
    case VFY_OP_GELU: /* (the exact form: the tanh form was rewritten) */
    case VFY_OP_SWISH: /* (alpha 1: other values were rewritten) */
    case VFY_OP_ERFGATE:
        /* ONNX defines them on floating types only (integer folding has no meaning for them);
         * constants fold in the tensor's type through libm (expf, logf...), a value a runtime's
         * kernel may differ from by a few ulp: the model is verified for the folded constant */
        st = dt_float(c.in[0]->t.dtype) ? infer_elementwise(&c)
           : nfail(g, n, err, VFY_ERR_INVALID, "input '%s' has type %s, expected a float type",
                   c.in[0]->name, vfy_dtype_name(c.in[0]->t.dtype));
        break;
    case VFY_OP_CONV: st = infer_conv(&c); break;
    case VFY_OP_CONV_TRANSPOSE: st = infer_conv_transpose(&c); break;
    case VFY_OP_RESIZE:
    case VFY_OP_UPSAMPLE: st = infer_resize(&c); break;
    case VFY_OP_AVERAGE_POOL:
    case VFY_OP_GLOBAL_AVERAGE_POOL:
    case VFY_OP_GLOBAL_MAX_POOL: st = infer_avgpool(&c); break;
    case VFY_OP_MAX_POOL: st = infer_maxpool(&c); break;
    case VFY_OP_LEAKY_RELU:
    case VFY_OP_PRELU:
    case VFY_OP_ABS:
    case VFY_OP_MAX:
    case VFY_OP_MIN:
    case VFY_OP_CLIP: st = infer_pwl(&c); break;
    case VFY_OP_BATCH_NORM: st = infer_batchnorm(&c); break;
    case VFY_OP_PAD: st = infer_pad(&c); break;
    case VFY_OP_REDUCE_MEAN:
    case VFY_OP_REDUCE_SUM:
    case VFY_OP_REDUCE_MAX:
    case VFY_OP_REDUCE_MIN: st = infer_reduce(&c); break;
    case VFY_OP_DROPOUT: st = infer_dropout(&c); break;
    case VFY_OP_SOFTMAX:
    case VFY_OP_LOG_SOFTMAX: st = infer_softmax(&c); break;
    case VFY_OP_SPLIT: /* (expand_split made it a Slice) */
    case VFY_OP_LAYER_NORM: /* (expand_layernorm rewrote it) */
    case VFY_OP_HARD_SIGMOID: /* (expand_activation rewrote them) */
    case VFY_OP_HARD_SWISH:
    case VFY_OP_ELU:
    case VFY_OP_SELU:
    case VFY_OP_CELU:
    case VFY_OP_SOFTSIGN:
    case VFY_OP_MISH:
    case VFY_OP_SUM:
    case VFY_OP_MEAN:
    case VFY_OP_OTHER:
    case VFY_OP_COUNT: VFY_ASSERT(0);
    }
    if (st == VFY_OK)
        c.o->is_shaped = 1;
    return st;
}

/* Node k's attributes become starts = {b}, ends = {e}, axes = {axis}: ONNX Slice's form of opset
 * 1 (a new array: the old one may have room for fewer). */
static vfy_status slice_attrs(vfy_graph *g, int64_t k, int64_t b, int64_t e, int64_t axis,
                              vfy_error *err)
{
    vfy_node *n = &g->nodes[k];
    vfy_attr *at = vfy_alloc_array(3, sizeof *at);
    if (!at)
        return NOMEM(g, n, err);
    for (int64_t q = 0; q < n->n_attr; q++)
        attr_clear(&n->attr[q]);
    vfy_free(n->attr);
    n->attr = at;
    n->n_attr = 0;
    const char *names[3] = {"starts", "ends", "axes"};
    int64_t vals[3] = {b, e, axis};
    for (int q = 0; q < 3; q++) {
        n->n_attr++; /* (counted at once, so that vfy_graph_free releases it) */
        at[q].name = vfy_strdup(names[q]);
        at[q].ints = vfy_alloc_array(1, sizeof *at[q].ints);
        if (!at[q].name || !at[q].ints)
            return NOMEM(g, n, err);
        at[q].kind = VFY_ATTR_INTS;
        at[q].n = 1;
        at[q].ints[0] = vals[q];
    }
    n->op = VFY_OP_SLICE;
    n->n_in = 1;
    return VFY_OK;
}

/* Split (one node, several outputs) becomes one Slice per output along its axis, so that its
 * folding, shape inference and lowering are Slice's (a selection: exact in every semantics). Node
 * k keeps the first output; each other one gets a new node, inferred here at once (its readers
 * come later in the order; the caller sorts the graph again after the pass). The parts' sizes:
 * input 1 (opset 13 on) or the attribute split, else num_outputs parts of ceil(d / n) elements
 * (opset 18: the last one smaller), else n equal parts. */
static vfy_status expand_split(vfy_graph *g, int64_t k, vfy_error *err)
{
    vfy_node *n = &g->nodes[k];
    const struct op_info *oi = &op_info[VFY_OP_SPLIT];
    if (n->n_in < oi->min_in || n->n_in > oi->max_in || n->in[0] < 0)
        return nfail(g, n, err, VFY_ERR_INVALID, "has %lld inputs, expected 1 or 2",
                     (long long)n->n_in);
    vfy_status st = check_attrs(g, n, err);
    if (st)
        return st;
    const vfy_value *x = &g->values[n->in[0]];
    if (!x->is_shaped)
        return nfail(g, n, err, VFY_ERR_INVALID, "input '%s' has no known shape", x->name);
    int64_t axis, num, m = n->n_out;
    if (m < 1) /* (a node without outputs is never live: defensive) */
        return nfail(g, n, err, VFY_ERR_INVALID, "has no output");
    if ((st = attr_int(g, n, "axis", 0, &axis, err)) ||
        (st = attr_int(g, n, "num_outputs", 0, &num, err)))
        return st;
    int64_t a = norm_axis(axis, x->t.rank);
    if (a < 0)
        return nfail(g, n, err, VFY_ERR_INVALID, "axis %lld out of range for rank %d",
                     (long long)axis, x->t.rank);
    if (num != 0 && num != m)
        return nfail(g, n, err, VFY_ERR_INVALID, "num_outputs is %lld for %lld outputs",
                     (long long)num, (long long)m);
    const int64_t *sizes;
    int64_t ns;
    int present;
    if ((st = int_list(g, n, 1, "split", &sizes, &ns, &present, err)))
        return st;
    if (present && num != 0)
        return nfail(g, n, err, VFY_ERR_INVALID, "both split and num_outputs are given");
    if (present && ns != m)
        return nfail(g, n, err, VFY_ERR_INVALID, "%lld split sizes for %lld outputs",
                     (long long)ns, (long long)m);
    int64_t dim = x->t.shape[a];
    if (!present && num == 0 && dim % m != 0)
        return nfail(g, n, err, VFY_ERR_INVALID, "an axis of %lld elements does not split into "
                     "%lld equal parts", (long long)dim, (long long)m);
    int64_t chunk = num != 0 ? (dim + m - 1) / m : dim / m, b = 0, sum = 0;
    for (int64_t i = 0; present && i < m; i++) {
        if (sizes[i] < 0 || sizes[i] > dim)
            return nfail(g, n, err, VFY_ERR_INVALID, "split size %lld out of range",
                         (long long)sizes[i]);
        sum += sizes[i];
    }
    if (present && sum != dim)
        return nfail(g, n, err, VFY_ERR_INVALID, "split sizes sum to %lld, the axis has %lld",
                     (long long)sum, (long long)dim);
    int64_t x_idx = n->in[0], first = -1, first_b = 0, first_e = 0;
    for (int64_t i = 0; i < m; i++, b += present ? sizes[i - 1] : chunk) {
        int64_t e = present ? b + sizes[i] : (b + chunk < dim ? b + chunk : dim);
        int64_t out = g->nodes[k].out[i];
        if (out < 0)
            continue;
        if (first < 0) {
            first = out;
            first_b = b;
            first_e = e;
            continue;
        }
        /* a node of its own for output i (g->nodes may move) */
        int64_t idx;
        if ((st = vfy_graph_add_node(g, g->nodes[k].name, g->nodes[k].op_type, 1, 1, 0, &idx,
                                     err)) ||
            (st = slice_attrs(g, idx, b, e, a, err)))
            return st;
        g->nodes[idx].in[0] = x_idx;
        g->nodes[idx].out[0] = out;
        g->values[out].producer = idx;
        if ((st = infer_node(g, idx, err)) != VFY_OK)
            return st;
    }
    if (first < 0)
        return nfail(g, &g->nodes[k], err, VFY_ERR_INVALID, "has no output");
    n = &g->nodes[k];
    n->out[0] = first;
    for (int64_t i = 1; i < m; i++)
        n->out[i] = -1;
    n->n_out = 1;
    return slice_attrs(g, k, first_b, first_e, a, err);
}

/* Max and Min of two computed tensors of one float type (broadcast either way: the Sub and the
 * Add or Sub below broadcast alike) become, exactly in real arithmetic,
 *   Max(a, b) = b + relu(a - b),   Min(a, b) = a - relu(a - b)
 * as the nodes Sub(a, b) -> d, Relu(d) -> r, then node k itself Add(b, r) or Sub(a, r): a residual
 * graph, which the lowering carries (a value read on both sides of a ReLU, docs/soundness.md
 * section 3). A float runtime computes the Max or Min exactly, the value of this form's layers
 * with no rounding at all, which their allowances contain. The new nodes keep node k's name and
 * op type (messages name the file's node); they are inferred at once, and the caller sorts the
 * graph again after the pass. 0 in *done when k is not such a node (nothing changed). */
static vfy_status expand_max_min(vfy_graph *g, int64_t k, int *done, vfy_error *err)
{
    vfy_node *n = &g->nodes[k];
    *done = 0;
    if ((n->op != VFY_OP_MAX && n->op != VFY_OP_MIN) || n->n_in != 2 || n->n_attr != 0 ||
        n->n_out != 1 || n->out[0] < 0 || n->in[0] < 0 || n->in[1] < 0)
        return VFY_OK;
    int64_t ia = n->in[0], ib = n->in[1];
    const vfy_value *a = &g->values[ia], *b = &g->values[ib];
    if (!a->is_shaped || !b->is_shaped || a->is_const || b->is_const)
        return VFY_OK;
    if (!dt_float(a->t.dtype) || a->t.dtype != b->t.dtype)
        return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "of two computed tensors of different "
                     "types (supported: one float type)");
    int is_max = n->op == VFY_OP_MAX;
    char *base = vfy_strdup(g->values[n->out[0]].name);
    if (!base)
        return NOMEM(g, n, err);
    int64_t vd, vr, nd, nr;
    vfy_status st;
    if ((st = add_fresh_value(g, base, is_max ? ":max_a_minus_b" : ":min_a_minus_b", &vd, err)) ||
        (st = add_fresh_value(g, base, is_max ? ":max_relu" : ":min_relu", &vr, err)) ||
        (st = vfy_graph_add_node(g, g->nodes[k].name, g->nodes[k].op_type, 2, 1, 0, &nd, err)) ||
        (st = vfy_graph_add_node(g, g->nodes[k].name, g->nodes[k].op_type, 1, 1, 0, &nr, err))) {
        vfy_free(base);
        return st;
    }
    vfy_free(base);
    vfy_node *d = &g->nodes[nd], *r = &g->nodes[nr];
    d->op = VFY_OP_SUB;
    d->in[0] = ia;
    d->in[1] = ib;
    d->out[0] = vd;
    g->values[vd].producer = nd;
    r->op = VFY_OP_RELU;
    r->in[0] = vd;
    r->out[0] = vr;
    g->values[vr].producer = nr;
    if ((st = infer_node(g, nd, err)) || (st = infer_node(g, nr, err)))
        return st;
    n = &g->nodes[k];
    n->op = is_max ? VFY_OP_ADD : VFY_OP_SUB;
    n->in[0] = is_max ? ib : ia;
    n->in[1] = vr;
    *done = 1;
    return VFY_OK;
}

/* Max and Min of more than two inputs, at least one computed: folded pairwise, the computed
 * inputs first and the constants after them (so no pair is of two constants), each pair but the
 * last a new node (expanded by expand_max_min when both are computed, and inferred at once), node
 * k itself the last pair. max and min are associative and commutative, exactly, in every
 * semantics. *done 1 when the graph changed. */
static vfy_status expand_max_min_many(vfy_graph *g, int64_t k, int *done, vfy_error *err)
{
    vfy_node *n = &g->nodes[k];
    *done = 0;
    if ((n->op != VFY_OP_MAX && n->op != VFY_OP_MIN) || n->n_in <= 2 || n->n_attr != 0 ||
        n->n_out != 1 || n->out[0] < 0)
        return VFY_OK;
    int64_t m = n->n_in, n_comp = 0;
    int64_t *order = vfy_alloc_array((size_t)m, sizeof *order);
    if (!order)
        return NOMEM(g, n, err);
    for (int pass = 0, w = 0; pass < 2; pass++)
        for (int64_t j = 0; j < m; j++) {
            int64_t v = n->in[j];
            if (v < 0 || !g->values[v].is_shaped) {
                vfy_free(order);
                return VFY_OK; /* (infer_node reports it) */
            }
            if (g->values[v].is_const == pass) {
                order[w++] = v;
                n_comp += !pass;
            }
        }
    if (n_comp == 0) { /* constants only: left to infer_node */
        vfy_free(order);
        return VFY_OK;
    }
    char *base = vfy_strdup(g->values[n->out[0]].name);
    vfy_status st = base ? VFY_OK : NOMEM(g, n, err);
    int64_t acc = order[0];
    for (int64_t t = 1; st == VFY_OK && t + 1 < m; t++) {
        int64_t v, nd;
        int dd;
        if ((st = add_fresh_value(g, base, g->nodes[k].op == VFY_OP_MAX ? ":max" : ":min", &v,
                                  err)) ||
            (st = vfy_graph_add_node(g, g->nodes[k].name, g->nodes[k].op_type, 2, 1, 0, &nd, err)))
            break;
        vfy_node *p = &g->nodes[nd];
        p->op = g->nodes[k].op;
        p->in[0] = acc;
        p->in[1] = order[t];
        p->out[0] = v;
        g->values[v].producer = nd;
        if ((st = expand_max_min(g, nd, &dd, err)) || (st = infer_node(g, nd, err)))
            break;
        acc = v;
    }
    if (st == VFY_OK) {
        n = &g->nodes[k];
        n->in[0] = acc;
        n->in[1] = order[m - 1];
        n->n_in = 2;
        *done = 1;
    }
    vfy_free(base);
    vfy_free(order);
    return st;
}

/* Pow of a computed base by a constant exponent whose every element is 2 becomes Mul(x, x) (a
 * square, exactly; a runtime's pow(x, 2) is x x rounded once, within the product's allowance);
 * an exponent that would broadcast the base to a larger shape, another exponent, or a computed
 * one are refused naming the node. Constants fold as they are. */
static vfy_status expand_pow(vfy_graph *g, int64_t k, vfy_error *err)
{
    vfy_node *n = &g->nodes[k];
    if (n->op != VFY_OP_POW || n->n_in != 2 || n->in[0] < 0 || n->in[1] < 0)
        return VFY_OK;
    const vfy_value *x = &g->values[n->in[0]], *e = &g->values[n->in[1]];
    if (!x->is_shaped || !e->is_shaped || x->is_const)
        return VFY_OK;
    if (!e->is_const)
        return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "a computed exponent (unsupported)");
    int two = e->t.rank <= x->t.rank;
    for (int64_t i = 0; two && i < e->t.numel; i++)
        two = e->t.f ? e->t.f[i] == 2.0 : e->t.i[i] == 2;
    for (int d = 0; two && d < e->t.rank; d++)
        two = e->t.shape[e->t.rank - 1 - d] == 1 ||
              e->t.shape[e->t.rank - 1 - d] == x->t.shape[x->t.rank - 1 - d];
    if (!two)
        return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "of a computed tensor by an exponent other "
                     "than 2 or one that broadcasts it (supported: the square)");
    n->op = VFY_OP_MUL;
    n->in[1] = n->in[0];
    return VFY_OK;
}

/* A new node of op on inputs a and b (b < 0: one input), with node k's name and op type (messages
 * name the file's node), writing a new value named after node k's output plus suffix, inferred at
 * once; *out its value and *nd its index. */
static vfy_status add_op_node(vfy_graph *g, int64_t k, vfy_op op, int64_t a, int64_t b,
                              const char *suffix, int64_t *out, int64_t *nd, vfy_error *err)
{
    char *base = vfy_strdup(g->values[g->nodes[k].out[0]].name);
    if (!base)
        return NOMEM(g, &g->nodes[k], err);
    vfy_status st = add_fresh_value(g, base, suffix, out, err);
    vfy_free(base);
    if (st || (st = vfy_graph_add_node(g, g->nodes[k].name, g->nodes[k].op_type, b < 0 ? 1 : 2,
                                       1, op == VFY_OP_REDUCE_MEAN ? 1 : 0, nd, err)))
        return st;
    vfy_node *n = &g->nodes[*nd];
    n->op = op;
    n->in[0] = a;
    if (b >= 0)
        n->in[1] = b;
    n->out[0] = *out;
    g->values[*out].producer = *nd;
    if (op == VFY_OP_REDUCE_MEAN) { /* over the last axis, kept (keepdims defaults to 1) */
        vfy_attr *at = &n->attr[0];
        n->n_attr = 1; /* (counted at once, so that vfy_graph_free releases it) */
        at->name = vfy_strdup("axes");
        at->ints = vfy_alloc_array(1, sizeof *at->ints);
        if (!at->name || !at->ints)
            return NOMEM(g, n, err);
        at->kind = VFY_ATTR_INTS;
        at->n = 1;
        at->ints[0] = -1;
    }
    return infer_node(g, *nd, err);
}

/* Div by a computed tensor y (a float type; the dividend computed or constant, broadcast either
 * way) becomes, exactly in real arithmetic, Div(x, y) = Mul(x, Reciprocal(y)): the node
 * Reciprocal(y) -> r (a RECIP layer: no claim where y may be 0), then node k itself Mul(x, r) (a
 * product of two computed tensors, or a Mul by a constant). A float runtime's x / y is one
 * rounding (x/y)(1 + d), |d| <= 2^-24: the value of these layers' execution with the reciprocal
 * rounded that way and the product exact, inside their allowances. *done = 1 when the graph
 * changed (the caller sorts it again). */
static vfy_status expand_div(vfy_graph *g, int64_t k, int *done, vfy_error *err)
{
    vfy_node *n = &g->nodes[k];
    *done = 0;
    if (n->op != VFY_OP_DIV || n->n_in != 2 || n->in[0] < 0 || n->in[1] < 0 || n->n_out < 1 ||
        n->out[0] < 0)
        return VFY_OK;
    const vfy_value *x = &g->values[n->in[0]], *y = &g->values[n->in[1]];
    if (!x->is_shaped || !y->is_shaped || y->is_const || !dt_float(y->t.dtype) ||
        x->t.dtype != y->t.dtype)
        return VFY_OK; /* (infer_node reports what is wrong) */
    int64_t r, nd;
    vfy_status st = add_op_node(g, k, VFY_OP_RECIPROCAL, n->in[1], -1, ":reciprocal", &r, &nd,
                                err);
    if (st)
        return st;
    n = &g->nodes[k];
    n->op = VFY_OP_MUL;
    n->in[1] = r;
    *done = 1;
    return VFY_OK;
}

/* LayerNormalization (opset 17) becomes its ONNX function body, the chain PyTorch exports for
 * earlier opsets, exactly in real arithmetic:
 *     m = ReduceMean(X), d = X - m, v = ReduceMean(d d), s = Sqrt(v + epsilon),
 *     Y = d Reciprocal(s) Scale (+ B)
 * (the reductions over the last axis, kept). Only the last axis (axis = -1 or rank - 1): another
 * normalises over several trailing axes, refused naming the node; stash_type only 1 (float32),
 * and the optional outputs Mean and InvStdDev must be unused. A float claim then covers a runtime
 * that executes this chain (docs/soundness.md section 4): one that computes the variance its own
 * way (a fused kernel's E[x^2] - E[x]^2) is not covered. Node k becomes the last Add (Mul without
 * B); *done = 1. */
static vfy_status expand_layernorm(vfy_graph *g, int64_t k, int *done, vfy_error *err)
{
    vfy_node *n = &g->nodes[k];
    *done = 0;
    if (n->op != VFY_OP_LAYER_NORM)
        return VFY_OK;
    vfy_status st = check_attrs(g, n, err);
    if (st)
        return st;
    if (n->n_in < 2 || n->in[0] < 0 || n->in[1] < 0 || n->n_out < 1 || n->out[0] < 0)
        return nfail(g, n, err, VFY_ERR_INVALID, "needs inputs X and Scale and an output Y");
    for (int64_t q = 1; q < n->n_out; q++) {
        int64_t o = n->out[q];
        int used = o >= 0 && o == g->output;
        for (int64_t a = 0; o >= 0 && a < g->n_nodes && !used; a++)
            for (int64_t b = 0; b < g->nodes[a].n_in && !used; b++)
                used = g->nodes[a].in[b] == o;
        if (used)
            return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "output '%s' (Mean or InvStdDev) is "
                         "used (unsupported)", g->values[o].name);
    }
    const vfy_value *x = &g->values[n->in[0]];
    if (!x->is_shaped || x->is_const || !dt_float(x->t.dtype) || x->t.rank < 1)
        return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "of a constant, non-float or scalar input "
                     "(unsupported)");
    int64_t axis, stash, rank = x->t.rank;
    double eps;
    if ((st = attr_int(g, n, "axis", -1, &axis, err)) ||
        (st = attr_int(g, n, "stash_type", 1, &stash, err)) ||
        (st = attr_float(g, n, "epsilon", (double)1e-5f, &eps, err)))
        return st;
    if (norm_axis(axis, rank) != rank - 1)
        return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "normalises from axis %lld of a rank-%lld "
                     "input (supported: the last axis only)", (long long)axis, (long long)rank);
    if (stash != 1)
        return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "stash_type %lld (supported: 1, float32)",
                     (long long)stash);
    if (!isfinite(eps))
        return nfail(g, n, err, VFY_ERR_INVALID, "epsilon is not finite");
    int64_t in_x = n->in[0], in_s = n->in[1], in_b = n->n_in > 2 ? n->in[2] : -1;
    vfy_dtype dt = x->t.dtype;
    /* epsilon: a scalar constant of X's type (the float32 attribute, held exactly) */
    char *base = vfy_strdup(g->values[n->out[0]].name);
    int64_t ve;
    if (!base)
        return NOMEM(g, n, err);
    st = add_fresh_value(g, base, ":epsilon", &ve, err);
    vfy_free(base);
    if (st)
        return st;
    vfy_value *ev = &g->values[ve];
    ev->t.dtype = dt;
    if (set_shape(&ev->t, 0, NULL) || tensor_alloc(&ev->t))
        return NOMEM(g, &g->nodes[k], err);
    ev->t.f[0] = eps;
    ev->is_const = ev->is_shaped = 1;
    ev->producer = -1;
    int64_t m, d, q, v, va, sd, inv, nrm, nd;
    if ((st = add_op_node(g, k, VFY_OP_REDUCE_MEAN, in_x, -1, ":mean", &m, &nd, err)) ||
        (st = add_op_node(g, k, VFY_OP_SUB, in_x, m, ":centred", &d, &nd, err)) ||
        (st = add_op_node(g, k, VFY_OP_MUL, d, d, ":square", &q, &nd, err)) ||
        (st = add_op_node(g, k, VFY_OP_REDUCE_MEAN, q, -1, ":variance", &v, &nd, err)) ||
        (st = add_op_node(g, k, VFY_OP_ADD, v, ve, ":variance_eps", &va, &nd, err)) ||
        (st = add_op_node(g, k, VFY_OP_SQRT, va, -1, ":std", &sd, &nd, err)) ||
        (st = add_op_node(g, k, VFY_OP_RECIPROCAL, sd, -1, ":inv_std", &inv, &nd, err)) ||
        (st = add_op_node(g, k, VFY_OP_MUL, d, inv, ":normalised", &nrm, &nd, err)))
        return st;
    if (in_b >= 0) {
        int64_t sc;
        if ((st = add_op_node(g, k, VFY_OP_MUL, nrm, in_s, ":scaled", &sc, &nd, err)))
            return st;
        in_s = sc;
        nrm = in_b; /* node k: Add(scaled, B) */
    }
    n = &g->nodes[k];
    for (int64_t a = 0; a < n->n_attr; a++)
        attr_clear(&n->attr[a]);
    n->n_attr = 0;
    n->op = in_b >= 0 ? VFY_OP_ADD : VFY_OP_MUL;
    n->in[0] = in_b >= 0 ? in_s : nrm;
    n->in[1] = in_b >= 0 ? nrm : in_s;
    n->n_in = 2;
    n->n_out = 1;
    *done = 1;
    return VFY_OK;
}

/* A scalar constant of type dt holding v, named after node k's output with suffix. v must be a
 * value of dt (an attribute, or a small integer): it is the network's constant as written. */
static vfy_status add_scalar(vfy_graph *g, int64_t k, const char *suffix, vfy_dtype dt, double v,
                             int64_t *out, vfy_error *err)
{
    char *base = vfy_strdup(g->values[g->nodes[k].out[0]].name);
    if (!base)
        return NOMEM(g, &g->nodes[k], err);
    vfy_status st = add_fresh_value(g, base, suffix, out, err);
    vfy_free(base);
    if (st)
        return st;
    vfy_value *ev = &g->values[*out];
    ev->t.dtype = dt;
    if (set_shape(&ev->t, 0, NULL) || tensor_alloc(&ev->t))
        return NOMEM(g, &g->nodes[k], err);
    ev->t.f[0] = v;
    ev->is_const = ev->is_shaped = 1;
    ev->producer = -1;
    return VFY_OK;
}

/* Node k becomes op(a, b) (b < 0: op(a)), its attributes dropped; *done = 1. A node of one input
 * gets room for two. */
static vfy_status become(vfy_graph *g, int64_t k, vfy_op op, int64_t a, int64_t b, int *done,
                         vfy_error *err)
{
    vfy_node *n = &g->nodes[k];
    if (b >= 0 && n->n_in < 2) {
        int64_t *in = vfy_alloc_array(2, sizeof *in);
        if (!in)
            return NOMEM(g, n, err);
        vfy_free(n->in);
        n->in = in;
    }
    for (int64_t q = 0; q < n->n_attr; q++)
        attr_clear(&n->attr[q]);
    n->n_attr = 0;
    n->op = op;
    n->in[0] = a;
    if (b >= 0)
        n->in[1] = b;
    n->n_in = b >= 0 ? 2 : 1;
    n->n_out = 1;
    *done = 1;
    return VFY_OK;
}

/* The activations ONNX defines as functions of others become those others, exactly in real
 * arithmetic, with the float32 attributes as written (alpha, beta, gamma; HardSwish's 1/6 as a
 * runtime of the input's type holds it):
 *   HardSigmoid(x) = relu(a x + b) - relu(a x + b - 1)      (= max(0, min(1, a x + b)))
 *   HardSwish(x)   = x HardSigmoid(x) with a = 1/6, b = 1/2
 *   Elu(x)         = relu(x) + a (exp(-relu(-x)) - 1)     (x for x > 0, a (e^x - 1) else)
 *   Selu(x)        = g Elu_a(x)
 *   Celu(x)        = relu(x) + a (exp(-relu(-x) / a) - 1)
 *                    (a > 0: max(0, x) + min(0, a (e^(x/a) - 1)))
 *   Softsign(x)    = x Reciprocal(|x| + 1)
 *   Mish(x)        = x tanh(Softplus(x))
 *   Gelu(x)        = (x (1 + tanh((x + (x x x) d) e))) 0.5,  d = 0.044715, e = sqrt(2/pi)
 *                    (approximate "tanh"; d and e as a runtime of the input's type holds them, as
 *                    its kernel does); the exact Gelu ("none") is a GELU layer of its own
 *   Sum(x1..xn)    = x1 + ... + xn,  Mean = Sum / n      (broadcast as Add)
 * Each identity holds for every real x (at 0 both sides of Elu's are 0). A float claim covers a
 * runtime that executes these chains (docs/soundness.md section 4); a fused kernel rounds
 * differently. *done = 1 when node k was rewritten (it becomes the chain's last node). */
static vfy_status expand_activation(vfy_graph *g, int64_t k, int *done, vfy_error *err)
{
    vfy_node *n = &g->nodes[k];
    vfy_op op = n->op;
    *done = 0;
    if (op != VFY_OP_HARD_SIGMOID && op != VFY_OP_HARD_SWISH && op != VFY_OP_ELU &&
        op != VFY_OP_SELU && op != VFY_OP_CELU && op != VFY_OP_SOFTSIGN && op != VFY_OP_MISH &&
        op != VFY_OP_SUM && op != VFY_OP_MEAN && op != VFY_OP_GELU)
        return VFY_OK;
    vfy_status st = check_attrs(g, n, err);
    if (st)
        return st;
    if (n->n_in < 1 || n->n_out < 1 || n->out[0] < 0)
        return nfail(g, n, err, VFY_ERR_INVALID, "needs an input and an output");
    for (int64_t q = 0; q < n->n_in; q++) {
        const vfy_value *v = n->in[q] >= 0 ? &g->values[n->in[q]] : NULL;
        if (!v || !v->is_shaped || !dt_float(v->t.dtype))
            return nfail(g, n, err, VFY_ERR_INVALID, "input %lld is missing or not of a float "
                         "type", (long long)q);
    }
    vfy_dtype dt = g->values[n->in[0]].t.dtype;
    int64_t x = n->in[0], t1, t2, t3, t4, t5, one, nd;
    if (op == VFY_OP_SUM || op == VFY_OP_MEAN) {
        int64_t acc = x, cnt = n->n_in;
        for (int64_t q = 1; q + (op == VFY_OP_SUM) < cnt; q++)
            if ((st = add_op_node(g, k, VFY_OP_ADD, acc, g->nodes[k].in[q], ":sum", &acc, &nd,
                                  err)))
                return st;
        if (op == VFY_OP_SUM && cnt > 1)
            return become(g, k, VFY_OP_ADD, acc, g->nodes[k].in[cnt - 1], done, err);
        if (op == VFY_OP_MEAN && cnt > 1) {
            if ((st = add_scalar(g, k, ":count", dt, (double)cnt, &t1, err)))
                return st;
            return become(g, k, VFY_OP_DIV, acc, t1, done, err);
        }
        return become(g, k, VFY_OP_IDENTITY, x, -1, done, err);
    }
    double a, b, gm;
    switch (op) {
    case VFY_OP_HARD_SIGMOID:
    case VFY_OP_HARD_SWISH:
        if (op == VFY_OP_HARD_SWISH) {
            a = dt == VFY_DT_FLOAT ? (double)(1.0f / 6.0f) : 1.0 / 6.0;
            b = 0.5;
        } else if ((st = attr_float(g, n, "alpha", (double)0.2f, &a, err)) ||
                   (st = attr_float(g, n, "beta", 0.5, &b, err))) {
            return st;
        }
        if (!isfinite(a) || !isfinite(b))
            return nfail(g, n, err, VFY_ERR_INVALID, "alpha or beta is not finite");
        if ((st = add_scalar(g, k, ":alpha", dt, a, &t1, err)) ||
            (st = add_scalar(g, k, ":beta", dt, b, &t2, err)) ||
            (st = add_scalar(g, k, ":one", dt, 1.0, &one, err)) ||
            (st = add_op_node(g, k, VFY_OP_MUL, x, t1, ":ax", &t3, &nd, err)) ||
            (st = add_op_node(g, k, VFY_OP_ADD, t3, t2, ":axb", &t3, &nd, err)) ||
            (st = add_op_node(g, k, VFY_OP_SUB, t3, one, ":axb1", &t4, &nd, err)) ||
            (st = add_op_node(g, k, VFY_OP_RELU, t3, -1, ":lower", &t3, &nd, err)) ||
            (st = add_op_node(g, k, VFY_OP_RELU, t4, -1, ":upper", &t4, &nd, err)))
            return st;
        if (op == VFY_OP_HARD_SIGMOID) {
            return become(g, k, VFY_OP_SUB, t3, t4, done, err);
        }
        if ((st = add_op_node(g, k, VFY_OP_SUB, t3, t4, ":hard_sigmoid", &t5, &nd, err)))
            return st;
        return become(g, k, VFY_OP_MUL, x, t5, done, err);
    case VFY_OP_ELU:
    case VFY_OP_SELU:
    case VFY_OP_CELU:
        if ((st = attr_float(g, n, "alpha", op == VFY_OP_SELU ? (double)1.67326319217681884765625f
                                                               : 1.0, &a, err)) ||
            (st = attr_float(g, n, "gamma", (double)1.05070102214813232421875f, &gm, err)))
            return st;
        if (!isfinite(a) || !isfinite(gm) || (op == VFY_OP_CELU && !(a > 0)))
            return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "alpha %g%s (supported: finite%s)", a,
                         op == VFY_OP_SELU ? " or gamma not finite" : "",
                         op == VFY_OP_CELU ? ", > 0" : "");
        if ((st = add_scalar(g, k, ":alpha", dt, a, &t1, err)) ||
            (st = add_scalar(g, k, ":one", dt, 1.0, &one, err)) ||
            (st = add_op_node(g, k, VFY_OP_NEG, x, -1, ":neg", &t2, &nd, err)) ||
            (st = add_op_node(g, k, VFY_OP_RELU, t2, -1, ":neg_part", &t2, &nd, err)) ||
            (st = add_op_node(g, k, VFY_OP_NEG, t2, -1, ":min0", &t2, &nd, err)))
            return st;
        if (op == VFY_OP_CELU && (st = add_op_node(g, k, VFY_OP_DIV, t2, t1, ":scaled", &t2, &nd,
                                                   err)))
            return st;
        if ((st = add_op_node(g, k, VFY_OP_EXP, t2, -1, ":exp", &t2, &nd, err)) ||
            (st = add_op_node(g, k, VFY_OP_SUB, t2, one, ":expm1", &t2, &nd, err)) ||
            (st = add_op_node(g, k, VFY_OP_MUL, t2, t1, ":negative", &t2, &nd, err)) ||
            (st = add_op_node(g, k, VFY_OP_RELU, x, -1, ":positive", &t3, &nd, err)))
            return st;
        if (op != VFY_OP_SELU) {
            return become(g, k, VFY_OP_ADD, t3, t2, done, err);
        }
        if ((st = add_scalar(g, k, ":gamma", dt, gm, &t4, err)) ||
            (st = add_op_node(g, k, VFY_OP_ADD, t3, t2, ":elu", &t5, &nd, err)))
            return st;
        return become(g, k, VFY_OP_MUL, t5, t4, done, err);
    case VFY_OP_SOFTSIGN:
        if ((st = add_scalar(g, k, ":one", dt, 1.0, &one, err)) ||
            (st = add_op_node(g, k, VFY_OP_ABS, x, -1, ":abs", &t1, &nd, err)) ||
            (st = add_op_node(g, k, VFY_OP_ADD, t1, one, ":abs1", &t1, &nd, err)) ||
            (st = add_op_node(g, k, VFY_OP_RECIPROCAL, t1, -1, ":reciprocal", &t1, &nd, err)))
            return st;
        return become(g, k, VFY_OP_MUL, x, t1, done, err);
    case VFY_OP_GELU: {
        const char *approx;
        if ((st = attr_str(g, n, "approximate", "none", &approx, err)))
            return st;
        int tanh_form = strcmp(approx, "tanh") == 0;
        if (!tanh_form && strcmp(approx, "none") != 0)
            return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "approximate '%s' (supported: none, "
                         "tanh)", approx);
        if (!tanh_form)
            return VFY_OK; /* (a GELU layer of its own: lowered as it is) */
        int f32 = dt == VFY_DT_FLOAT; /* (the constants as the input's type holds them) */
        double d = f32 ? (double)0.044715f : 0.044715,
               e = f32 ? (double)0.79788456080286535588f : 0.79788456080286535588;
        if ((st = add_scalar(g, k, ":cubic", dt, d, &t1, err)) ||
            (st = add_scalar(g, k, ":sqrt_2_pi", dt, e, &t4, err)) ||
            (st = add_op_node(g, k, VFY_OP_MUL, x, x, ":square", &t2, &nd, err)) ||
            (st = add_op_node(g, k, VFY_OP_MUL, t2, x, ":cube", &t2, &nd, err)) ||
            (st = add_op_node(g, k, VFY_OP_MUL, t2, t1, ":cube_d", &t2, &nd, err)) ||
            (st = add_op_node(g, k, VFY_OP_ADD, x, t2, ":inner", &t2, &nd, err)) ||
            (st = add_op_node(g, k, VFY_OP_MUL, t2, t4, ":scaled", &t2, &nd, err)) ||
            (st = add_op_node(g, k, VFY_OP_TANH, t2, -1, ":tanh", &t2, &nd, err)))
            return st;
        if ((st = add_scalar(g, k, ":one", dt, 1.0, &one, err)) ||
            (st = add_scalar(g, k, ":half", dt, 0.5, &t5, err)) ||
            (st = add_op_node(g, k, VFY_OP_ADD, t2, one, ":one_plus", &t2, &nd, err)) ||
            (st = add_op_node(g, k, VFY_OP_MUL, x, t2, ":product", &t3, &nd, err)))
            return st;
        return become(g, k, VFY_OP_MUL, t3, t5, done, err);
    }
    default: /* MISH */
        if ((st = add_op_node(g, k, VFY_OP_SOFTPLUS, x, -1, ":softplus", &t1, &nd, err)) ||
            (st = add_op_node(g, k, VFY_OP_TANH, t1, -1, ":tanh", &t1, &nd, err)))
            return st;
        return become(g, k, VFY_OP_MUL, x, t1, done, err);
    }
}

/* Where(cond, x, y) with a constant cond and a computed x or y becomes x m + y' (m = cond in x's
 * float type, 1 or 0): a computed branch is multiplied by its mask (m for x, 1 - m for y), a
 * constant one is replaced by the constant of cond's and its own broadcast shape that holds it
 * where it is selected and 0 elsewhere; the two terms are added. Exact for the reals and in float
 * (v 1 = v, v 0 = +-0, v + 0 = v for finite v). A computed cond is left to infer_where, which
 * refuses it. *done = 1 when node k was rewritten. */
static vfy_status expand_where(vfy_graph *g, int64_t k, int *done, vfy_error *err)
{
    vfy_node *n = &g->nodes[k];
    *done = 0;
    if (n->op != VFY_OP_WHERE || n->n_in != 3 || n->n_out < 1 || n->out[0] < 0)
        return VFY_OK;
    for (int q = 0; q < 3; q++)
        if (n->in[q] < 0 || !g->values[n->in[q]].is_shaped)
            return VFY_OK; /* (infer_node names the problem) */
    const vfy_value *cv = &g->values[n->in[0]];
    if (!cv->is_const || cv->t.dtype != VFY_DT_BOOL ||
        (g->values[n->in[1]].is_const && g->values[n->in[2]].is_const))
        return VFY_OK;
    vfy_dtype dt = g->values[n->in[1]].t.dtype;
    if (!dt_float(dt) || g->values[n->in[2]].t.dtype != dt)
        return VFY_OK; /* (infer_where refuses it) */
    int64_t term[2], nd;
    for (int side = 0; side < 2; side++) {
        n = &g->nodes[k]; /* (adding values may move the arrays) */
        int64_t b = n->in[1 + side];
        vfy_tensor m = g->values[n->in[0]].t; /* (a view: its data is read, never freed) */
        const vfy_tensor *bt = &g->values[b].t;
        int cb = g->values[b].is_const;
        vfy_tensor shaped = {.dtype = dt};
        int64_t shape[VFY_MAX_RANK];
        int r = m.rank;
        memcpy(shape, m.shape, sizeof shape);
        if (cb && (bcast_shape(&m, bt, &r, shape)))
            return nfail(g, n, err, VFY_ERR_INVALID, "operand shapes do not broadcast");
        if (set_shape(&shaped, r, shape))
            return nfail(g, n, err, VFY_ERR_UNSUPPORTED, "too large a tensor");
        char *base = vfy_strdup(g->values[n->out[0]].name);
        if (!base)
            return NOMEM(g, n, err);
        int64_t ci;
        vfy_status st = add_fresh_value(g, base, side ? ":mask_else" : ":mask_then", &ci, err);
        vfy_free(base);
        if (st)
            return st;
        n = &g->nodes[k];
        vfy_value *ev = &g->values[ci];
        ev->t = shaped;
        if (tensor_alloc(&ev->t))
            return NOMEM(g, n, err);
        const vfy_tensor *mt = &g->values[n->in[0]].t, *bb = &g->values[n->in[1 + side]].t;
        for (int64_t e = 0; e < ev->t.numel; e++) {
            int sel = mt->i[bcast_src(shape, r, mt, e)] != side; /* (x where true, y where not) */
            ev->t.f[e] = !cb ? (double)sel : sel ? bb->f[bcast_src(shape, r, bb, e)] : 0.0;
        }
        ev->is_const = ev->is_shaped = 1;
        ev->producer = -1;
        term[side] = ci;
        if (!cb && (st = add_op_node(g, k, VFY_OP_MUL, b, ci, side ? ":else" : ":then",
                                     &term[side], &nd, err)))
            return st;
    }
    return become(g, k, VFY_OP_ADD, term[0], term[1], done, err);
}

/* Swish(x) = x sigmoid(a x) (opset 24, attribute alpha = a, a float32): a SILU layer when a = 1,
 * else rewritten as x Sigmoid(x a). And Mul(x, Sigmoid(x)) (either order; x computed, of a float
 * type), as networks with SiLU are exported, becomes Swish(x): one SILU layer, relaxed as one
 * function (bound.c, "Gated activations") instead of a product of two bounded factors. Exact for
 * the reals; a float execution of either form is within the SILU layer's allowance (a Sigmoid
 * kernel's 2^-19 times |x| plus the product's rounding). *done = 1 when node k was rewritten. */
static vfy_status expand_swish(vfy_graph *g, int64_t k, int *done, vfy_error *err)
{
    vfy_node *n = &g->nodes[k];
    *done = 0;
    if (n->op == VFY_OP_MUL && n->n_in == 2 && n->in[0] >= 0 && n->in[1] >= 0) {
        for (int side = 0; side < 2; side++) {
            int64_t x = n->in[side], sv = n->in[1 - side], p = g->values[sv].producer;
            const vfy_value *xv = &g->values[x];
            if (p < 0 || g->nodes[p].op != VFY_OP_SIGMOID || g->nodes[p].n_in != 1 ||
                g->nodes[p].in[0] != x || xv->is_const || !xv->is_shaped ||
                !dt_float(xv->t.dtype))
                continue;
            return become(g, k, VFY_OP_SWISH, x, -1, done, err);
        }
        return VFY_OK;
    }
    if (n->op != VFY_OP_SWISH)
        return VFY_OK;
    vfy_status st = check_attrs(g, n, err);
    double a;
    if (st || (st = attr_float(g, n, "alpha", 1.0, &a, err)))
        return st;
    if (!isfinite(a))
        return nfail(g, n, err, VFY_ERR_INVALID, "alpha is not finite");
    if (a == 1.0)
        return VFY_OK;
    if (n->n_in < 1 || n->in[0] < 0 || n->n_out < 1 || n->out[0] < 0 ||
        !g->values[n->in[0]].is_shaped || !dt_float(g->values[n->in[0]].t.dtype))
        return nfail(g, n, err, VFY_ERR_INVALID, "needs an input of a float type and an output");
    int64_t x = n->in[0], t1, t2, nd;
    if ((st = add_scalar(g, k, ":alpha", g->values[x].t.dtype, a, &t1, err)) ||
        (st = add_op_node(g, k, VFY_OP_MUL, x, t1, ":scaled", &t2, &nd, err)) ||
        (st = add_op_node(g, k, VFY_OP_SIGMOID, t2, -1, ":sigmoid", &t2, &nd, err)))
        return st;
    return become(g, k, VFY_OP_MUL, x, t2, done, err);
}

/* 1 when value v is a one-element constant of a float type holding exactly want (want NAN: any
 * finite nonzero value), its value in *val. */
static int scalar_is(const vfy_graph *g, int64_t v, double want, double *val)
{
    if (v < 0 || !g->values[v].is_const || !dt_float(g->values[v].t.dtype) ||
        g->values[v].t.numel != 1)
        return 0;
    double x = g->values[v].t.f[0];
    *val = x;
    return isnan(want) ? isfinite(x) && x != 0 : x == want;
}

/* The node producing value v when it is op with two inputs, else -1. */
static int64_t producer_of(const vfy_graph *g, int64_t v, vfy_op op)
{
    int64_t p = v >= 0 ? g->values[v].producer : -1;
    return p >= 0 && g->nodes[p].op == op && g->nodes[p].n_in >= 1 ? p : -1;
}

/* Whether value c is 1 + erf(a) (Add, either order) with a = x / d (Div) or x r (Mul, either
 * order) for a computed x and a scalar constant d or r: *a, *s the scalar's value, *div 1 for a
 * Div. */
static int erf_half_of(const vfy_graph *g, int64_t c, int64_t x, int64_t *a, int64_t *s,
                       int *div)
{
    double v;
    int64_t pa = producer_of(g, c, VFY_OP_ADD);
    if (pa < 0 || g->nodes[pa].n_in != 2)
        return 0;
    const vfy_node *na = &g->nodes[pa];
    int side = scalar_is(g, na->in[1], 1.0, &v) ? 0 : scalar_is(g, na->in[0], 1.0, &v) ? 1 : -1;
    if (side < 0)
        return 0;
    int64_t pe = producer_of(g, na->in[side], VFY_OP_ERF);
    if (pe < 0 || g->nodes[pe].n_in != 1)
        return 0;
    int64_t av = g->nodes[pe].in[0], pd = producer_of(g, av, VFY_OP_DIV);
    int64_t pm = producer_of(g, av, VFY_OP_MUL);
    if (pd >= 0 && g->nodes[pd].n_in == 2 && g->nodes[pd].in[0] == x &&
        scalar_is(g, g->nodes[pd].in[1], NAN, &v)) {
        *a = av, *s = g->nodes[pd].in[1], *div = 1;
        return 1;
    }
    for (int q = 0; pm >= 0 && g->nodes[pm].n_in == 2 && q < 2; q++)
        if (g->nodes[pm].in[q] == x && scalar_is(g, g->nodes[pm].in[1 - q], NAN, &v)) {
            *a = av, *s = g->nodes[pm].in[1 - q], *div = 0;
            return 1;
        }
    return 0;
}

/* The exact Gelu as PyTorch exports it before opset 20, x (1 + erf(x / d)) 0.5 with d float32's
 * sqrt 2: Mul(Mul(x, Add(Erf(Div(x, d)), 1)), 0.5), or Mul(Mul(x, 0.5), Add(...)) (either order
 * of every Mul and of the Add; Mul(x, r) for Div(x, d)). With h(u) = u (1 + erf(u)) / 2, that is
 * d h(x / d), or h(x r) / r: node k becomes Mul(ERFGATE(a), d) or Div(ERFGATE(a), r), a the
 * existing x / d or x r. Exact for the reals; in a float execution the runtime multiplies by x
 * where this multiplies h's u by d, and fl(x / d) d is within 2^-23 |x| of x, far inside ERFGATE's
 * allowance 2^-19 (1 + |u|) scaled by d (docs/soundness.md section 4c). *done = 1 when
 * rewritten. */
static vfy_status expand_gelu_export(vfy_graph *g, int64_t k, int *done, vfy_error *err)
{
    const vfy_node *n = &g->nodes[k];
    *done = 0;
    if (n->op != VFY_OP_MUL || n->n_in != 2 || n->in[0] < 0 || n->in[1] < 0)
        return VFY_OK;
    double v;
    for (int q = 0; q < 2; q++) {
        int64_t P = n->in[q], Q = n->in[1 - q], x = -1, c = -1, a, s;
        int64_t pp = producer_of(g, P, VFY_OP_MUL);
        if (pp < 0 || g->nodes[pp].n_in != 2)
            continue;
        const vfy_node *np = &g->nodes[pp];
        if (scalar_is(g, Q, 0.5, &v)) { /* Mul(Mul(x, c), 0.5): x the operand c is 1 + erf of */
            for (int r = 0; r < 2 && x < 0; r++)
                if (!g->values[np->in[r]].is_const &&
                    erf_half_of(g, np->in[1 - r], np->in[r], &a, &s, &(int){0}))
                    x = np->in[r], c = np->in[1 - r];
        } else { /* Mul(Mul(x, 0.5), c) */
            for (int r = 0; r < 2 && x < 0; r++)
                if (scalar_is(g, np->in[r], 0.5, &v) && !g->values[np->in[1 - r]].is_const)
                    x = np->in[1 - r], c = Q;
        }
        int div;
        if (x < 0 || !dt_float(g->values[x].t.dtype) || !erf_half_of(g, c, x, &a, &s, &div))
            continue;
        int64_t h, nd;
        vfy_status st = add_op_node(g, k, VFY_OP_ERFGATE, a, -1, ":erfgate", &h, &nd, err);
        if (st)
            return st;
        return become(g, k, div ? VFY_OP_MUL : VFY_OP_DIV, h, s, done, err);
    }
    return VFY_OK;
}

vfy_status vfy_graph_infer(vfy_graph *g, vfy_error *err)
{
    vfy_status st = VFY_OK;
    char *live = live_nodes(g);
    if (!live)
        return vfy_fail(err, VFY_ERR_NOMEM, "%s: out of memory", g->file);
    int64_t n0 = g->n_nodes, n_rewritten = 0;
    for (int64_t k = 0; k < n0; k++) {
        if (!live[k]) /* dead branches need not be understood */
            continue;
        int done = 0;
        if (g->nodes[k].op == VFY_OP_SPLIT) {
            done = 1;
            st = expand_split(g, k, err);
        } else if (g->nodes[k].op == VFY_OP_POW) {
            st = expand_pow(g, k, err);
        } else if (g->nodes[k].op == VFY_OP_DIV) {
            st = expand_div(g, k, &done, err);
        } else if (g->nodes[k].op == VFY_OP_LAYER_NORM) {
            st = expand_layernorm(g, k, &done, err);
        } else if (g->nodes[k].op == VFY_OP_WHERE) {
            st = expand_where(g, k, &done, err);
        } else if (g->nodes[k].op == VFY_OP_MUL || g->nodes[k].op == VFY_OP_SWISH) {
            st = expand_gelu_export(g, k, &done, err);
            if (st == VFY_OK && !done)
                st = expand_swish(g, k, &done, err);
        } else if ((st = expand_activation(g, k, &done, err)) == VFY_OK && done) {
            /* (rewritten) */
        } else if (st == VFY_OK) {
            int many = 0;
            st = expand_max_min_many(g, k, &many, err);
            if (st == VFY_OK)
                st = expand_max_min(g, k, &done, err);
            done |= many;
        }
        if (st != VFY_OK)
            goto fail;
        n_rewritten += done;
        if ((st = infer_node(g, k, err)) != VFY_OK)
            goto fail;
    }
    if (n_rewritten > 0) /* (the nodes they added went to the end) */
        st = vfy_graph_sort(g, err);
fail:
    vfy_free(live);
    return st;
}

/* ---- lowering to vfy_net ----
 *
 * The computed path (values depending on the input) is walked in topological order; v is the current
 * vector, the flattened row-major elements of the current tensor. Reshape, Flatten, Squeeze,
 * Unsqueeze, Identity, widening Casts and a Pad that pads nothing keep v and create no layer. Every
 * layer stores the node's real-valued map exactly (w_relerr = 0) except where a coefficient is a
 * rounded quotient, which says so in w_relerr: a Div by c whose 1/c is not a double, an average over
 * k positions with k not a power of two (2^-53), and the BatchNormalization multiplier
 * scale / sqrt(var + eps) (2^-50). Folding into the previous layer happens only when every resulting
 * coefficient is the exact real value (products checked with fma, sums with TwoSum). */

typedef struct lctx {
    const vfy_graph *g;
    vfy_net *net;
    vfy_error *err;
    /* the layers lowered from Conv nodes, their geometry and the first column they read, for
     * vfy_net_bind_conv once the net is complete (a later fold may have changed the matrix: the
     * binding compares it). A Conv lowered on its own (lower_carrying's net T) registers -1 - its
     * layer of T, which emit_embedded turns into the layer it becomes in the net (-1 when none:
     * not bound). */
    int64_t n_conv, *conv_layer, *conv_c0;
    vfy_conv_geom *conv_geom;
    /* the limits (vfy_lower_limits): the deadline (or NULL) and the bytes the layers may hold;
     * main is the net being built (lower_carrying lowers a node into a net of its own for a
     * while, whose layers count too) */
    const vfy_deadline *dl;
    double max_bytes;
    vfy_net *main;
} lctx;

/* The bytes net's affine layers hold: entries, bias, CSR indices. */
static double net_bytes(const vfy_net *net)
{
    double sum = 0;
    for (int64_t k = 0; net && k < net->n_layers; k++) {
        const vfy_layer *L = &net->layers[k];
        if (L->csr)
            sum += 16.0 * (double)L->csr->nnz + 8.0 * (double)(L->csr->m + 1);
        else if (L->kind == VFY_LAYER_DENSE && L->w)
            sum += 8.0 * (double)L->n_out * (double)L->n_in;
        if (L->b)
            sum += 8.0 * (double)L->n_out;
    }
    return sum;
}

/* The bytes lc's layers hold so far. */
static double lowered_bytes(const lctx *lc)
{
    return net_bytes(lc->main) + (lc->net != lc->main ? net_bytes(lc->net) : 0.0);
}

/* The message of a lowering stopped by its memory ceiling. */
static vfy_status too_big(const lctx *lc, const vfy_node *n, double need)
{
    return nfail(lc->g, n, lc->err, VFY_ERR_UNSUPPORTED, "the lowered network would hold more "
                 "than %.0f MB (%.0f MB needed so far; the ceiling is half of this machine's "
                 "memory): too large (unsupported)", lc->max_bytes / 1048576.0, need / 1048576.0);
}

/* VFY_ERR_TIMEOUT, naming the node, once lc's deadline has passed. */
static vfy_status lower_timeout(const lctx *lc, const vfy_node *n)
{
    return nfail(lc->g, n, lc->err, VFY_ERR_TIMEOUT, "the deadline passed while the model was "
                 "being lowered");
}

/* *p = a*b; 1 when the double product is the exact real product. */
static int prod_exact(double a, double b, double *p)
{
    *p = a * b;
    if (!isfinite(*p))
        return 0;
    if (*p == 0)
        return a == 0 || b == 0;
    /* SOUND: above 2^-969 the residual a*b - p is a double, so fma returns it exactly. */
    return fabs(*p) >= 0x1p-969 && fma(a, b, -*p) == 0;
}

/* *s = a+b; 1 when exact (TwoSum residual zero; TwoSum is error-free even with underflow). */
static int sum_exact(double a, double b, double *s)
{
    *s = a + b;
    if (!isfinite(*s))
        return 0;
    double bb = *s - a;
    double e = (a - (*s - bb)) + (b - bb);
    return e == 0;
}

static void name_append(vfy_layer *L, const char *name)
{
    size_t len = strlen(L->name);
    if (len + 2 < sizeof L->name)
        snprintf(L->name + len, sizeof L->name - len, "+%s", name);
}

/* A dense n_out x n_in matrix above VFY_MAX_ELEMS entries is refused. */
static vfy_status dense_size(lctx *lc, const vfy_node *n, int64_t n_out, int64_t n_in, int64_t *sz)
{
    if (__builtin_mul_overflow(n_out, n_in, sz) || *sz > VFY_MAX_ELEMS)
        return nfail(lc->g, n, lc->err, VFY_ERR_UNSUPPORTED,
                     "the lowered %lld x %lld matrix is too large (unsupported)", (long long)n_out,
                     (long long)n_in);
    double need = lowered_bytes(lc) + 8.0 * (double)*sz + 8.0 * (double)n_out;
    if (need > lc->max_bytes)
        return too_big(lc, n, need);
    return VFY_OK;
}

/* W (n_out x n_in) and b (n_out), zeroed; refuses matrices above VFY_MAX_ELEMS entries. */
static vfy_status dense_alloc(lctx *lc, const vfy_node *n, int64_t n_out, int64_t n_in, double **w,
                              double **b)
{
    int64_t sz;
    *w = *b = NULL;
    vfy_status st = dense_size(lc, n, n_out, n_in, &sz);
    if (st)
        return st;
    *w = vfy_alloc_array((size_t)sz, sizeof **w);
    *b = vfy_alloc_array((size_t)n_out, sizeof **b);
    if (!*w || !*b) {
        vfy_free(*w);
        vfy_free(*b);
        *w = *b = NULL;
        return NOMEM(lc->g, n, lc->err);
    }
    return VFY_OK;
}

static vfy_status push(lctx *lc, const vfy_node *n, vfy_layer_kind kind, int64_t n_in,
                       int64_t n_out, double *w, double *b, double relerr, int64_t fan_in)
{
    vfy_status st = vfy_net_push(lc->net, kind, n_in, n_out, w, b, relerr, fan_in, n->name, lc->err);
    if (st && st != VFY_ERR_NOMEM)
        return nfail(lc->g, n, lc->err, st, "%s", lc->err ? lc->err->msg : "cannot add layer");
    return st;
}

/* A lowered DENSE layer's matrix while it is built: its entries as (row, column, value) triplets in
 * any order, and its bias (m entries, zeroed). A position written twice holds the sum, as += on a
 * dense matrix would (only Add or Sub of a value with itself does that: 1 + 1 or 1 - 1, exact;
 * lmat_finish checks). lmat_finish gives the matrix in sparse form (CSR, nothing else) when it is
 * large and mostly zeros, as lowered convolutions, pools and copies are, so that no dense matrix of
 * them is ever allocated; dense otherwise. */
typedef struct lmat {
    int64_t m, n, nnz, cap;
    int64_t *r, *c; /* entry q is (r[q], c[q], v[q]) */
    double *v;
    double *b;
    int in_order;      /* the entries so far by rows, then columns, no position twice */
    int oom, too_many; /* an entry could not be stored: out of memory, or above VFY_MAX_ELEMS */
    int over;          /* room for the entries would pass the lowering's memory ceiling */
    double need;       /* then: the bytes the layers and this matrix would hold */
    const lctx *lc;
} lmat;

static vfy_status lmat_init(lctx *lc, const vfy_node *n, lmat *M, int64_t m, int64_t cols)
{
    memset(M, 0, sizeof *M);
    M->m = m;
    M->n = cols;
    M->in_order = 1;
    M->lc = lc;
    if (!(M->b = vfy_alloc_array((size_t)m + 1, sizeof *M->b)))
        return NOMEM(lc->g, n, lc->err);
    return VFY_OK;
}

static void lmat_free_entries(lmat *M)
{
    vfy_free(M->r);
    vfy_free(M->c);
    vfy_free(M->v);
    M->r = M->c = NULL;
    M->v = NULL;
    M->nnz = M->cap = 0;
}

static void lmat_clear(lmat *M)
{
    const lctx *lc = M->lc;
    lmat_free_entries(M);
    vfy_free(M->b);
    memset(M, 0, sizeof *M);
    M->lc = lc;
}

/* Room for cap entries in all (a hint: lmat_add grows past it). */
static void lmat_reserve(lmat *M, int64_t cap)
{
    if (cap <= M->cap || M->oom || cap > VFY_MAX_ELEMS)
        return;
    /* (24 bytes an entry while it is built: row, column, value) */
    double need = lowered_bytes(M->lc) + 24.0 * (double)cap + 8.0 * (double)M->m;
    if (need > M->lc->max_bytes) {
        M->over = 1;
        M->oom = 1;
        M->need = need;
        return;
    }
    int64_t *r = vfy_realloc(M->r, (size_t)cap * sizeof *r);
    if (r)
        M->r = r;
    int64_t *c = vfy_realloc(M->c, (size_t)cap * sizeof *c);
    if (c)
        M->c = c;
    double *v = vfy_realloc(M->v, (size_t)cap * sizeof *v);
    if (v)
        M->v = v;
    if (!r || !c || !v)
        M->oom = 1;
    else
        M->cap = cap;
}

/* Entry (r, c) += v (nothing for v = 0); on running out of memory M->oom is set (lmat_finish
 * reports it). */
static void lmat_add(lmat *M, int64_t r, int64_t c, double v)
{
    VFY_ASSERT(r >= 0 && r < M->m && c >= 0 && c < M->n);
    if (M->oom || v == 0)
        return;
    if (M->nnz >= VFY_MAX_ELEMS) { /* reported by lmat_finish */
        M->too_many = 1;
        M->oom = 1;
        return;
    }
    if (M->nnz == M->cap)
        lmat_reserve(M, M->cap ? 2 * M->cap : 1024);
    if (M->oom)
        return;
    int64_t q = M->nnz++;
    if (q > 0 && M->in_order)
        M->in_order = M->r[q - 1] < r || (M->r[q - 1] == r && M->c[q - 1] < c);
    M->r[q] = r;
    M->c[q] = c;
    M->v[q] = v;
}

typedef struct lmat_entry {
    int64_t c;
    double v;
} lmat_entry;

static int cmp_entry_col(const void *a, const void *b)
{
    int64_t x = ((const lmat_entry *)a)->c, y = ((const lmat_entry *)b)->c;
    return (x > y) - (x < y);
}

/* M's entries by rows, then columns, duplicates summed and zeros dropped, in place (M->in_order
 * set). */
static vfy_status lmat_sort(lctx *lc, const vfy_node *n, lmat *M)
{
    int64_t m = M->m, *start = vfy_alloc_array((size_t)m + 2, sizeof *start);
    lmat_entry *sorted = vfy_alloc_array((size_t)M->nnz + 1, sizeof *sorted);
    vfy_status st = VFY_OK;
    if (!start || !sorted) {
        st = NOMEM(lc->g, n, lc->err);
        goto out;
    }
    /* by rows (counting sort, stable): start[r + 1] is then row r's first entry */
    for (int64_t q = 0; q < M->nnz; q++)
        start[M->r[q] + 2]++;
    for (int64_t r = 0; r < m; r++)
        start[r + 2] += start[r + 1];
    for (int64_t q = 0; q < M->nnz; q++)
        sorted[start[M->r[q] + 1]++] = (lmat_entry){M->c[q], M->v[q]};
    /* start[r] is now row r's first entry, start[m] the end; then by columns within each row */
    int64_t nnz = 0;
    for (int64_t r = 0; r < m; r++) {
        int64_t a = start[r], z = start[r + 1], row0 = nnz;
        qsort(sorted + a, (size_t)(z - a), sizeof *sorted, cmp_entry_col);
        for (int64_t q = a; q < z; q++) {
            if (nnz > row0 && M->c[nnz - 1] == sorted[q].c) {
                double sum;
                if (!sum_exact(M->v[nnz - 1], sorted[q].v, &sum)) {
                    st = nfail(lc->g, n, lc->err, VFY_ERR_INTERNAL,
                               "a lowered coefficient would be rounded");
                    goto out;
                }
                M->v[nnz - 1] = sum;
            } else {
                M->r[nnz] = r;
                M->c[nnz] = sorted[q].c;
                M->v[nnz++] = sorted[q].v;
            }
        }
        /* drop the zeros the sums made */
        int64_t keep = row0;
        for (int64_t q = row0; q < nnz; q++)
            if (M->v[q] != 0) {
                M->c[keep] = M->c[q];
                M->v[keep++] = M->v[q];
            }
        nnz = keep;
    }
    M->nnz = nnz;
    M->in_order = 1;
out:
    vfy_free(start);
    vfy_free(sorted);
    return st;
}

/* M's matrix as *w (dense, m x n) or *csr (sparse), exactly one set; M's entries are freed,
 * its bias kept. Sparse when m n >= VFY_SPARSE_MIN_ENTRIES and at most VFY_SPARSE_DENSITY of the
 * entries are nonzero (vfy_net_sparsify's rule); a dense matrix above VFY_MAX_ELEMS entries is
 * refused. */
static vfy_status lmat_finish(lctx *lc, const vfy_node *n, lmat *M, double **w, vfy_csr **csr)
{
    *w = NULL;
    *csr = NULL;
    vfy_status st = VFY_OK;
    int64_t m = M->m, cols = M->n;
    if (M->too_many) {
        st = nfail(lc->g, n, lc->err, VFY_ERR_UNSUPPORTED, "the lowered %lld x %lld matrix has "
                   "too many nonzeros, more than %lld (unsupported)", (long long)m, (long long)cols,
                   (long long)VFY_MAX_ELEMS);
        goto out;
    }
    if (M->over) {
        st = too_big(lc, n, M->need);
        goto out;
    }
    if (M->oom) {
        st = NOMEM(lc->g, n, lc->err);
        goto out;
    }
    if (!M->in_order && (st = lmat_sort(lc, n, M)))
        goto out;
    double cells = (double)m * (double)cols;
    if (cells >= (double)VFY_SPARSE_MIN_ENTRIES && (double)M->nnz <= VFY_SPARSE_DENSITY * cells) {
        /* the CSR form takes the column and value arrays as they are */
        vfy_csr *c = vfy_alloc(sizeof *c);
        int64_t *rs = vfy_alloc_array((size_t)m + 1, sizeof *rs);
        if (!c || !rs) {
            vfy_free(c);
            vfy_free(rs);
            st = NOMEM(lc->g, n, lc->err);
            goto out;
        }
        for (int64_t q = 0; q < M->nnz; q++)
            rs[M->r[q] + 1]++;
        for (int64_t r = 0; r < m; r++)
            rs[r + 1] += rs[r];
        c->m = m;
        c->n = cols;
        c->nnz = M->nnz;
        c->row_start = rs;
        if (!M->c) { /* no entry at all */
            M->c = vfy_alloc_array(1, sizeof *M->c);
            M->v = vfy_alloc_array(1, sizeof *M->v);
        }
        c->col = M->c;
        c->val = M->v;
        M->c = NULL;
        M->v = NULL;
        if (!c->col || !c->val) {
            vfy_la_csr_free(c);
            st = NOMEM(lc->g, n, lc->err);
            goto out;
        }
        *csr = c;
    } else {
        int64_t sz;
        if ((st = dense_size(lc, n, m, cols, &sz)))
            goto out;
        double *d = vfy_alloc_array((size_t)sz + 1, sizeof *d);
        if (!d) {
            st = NOMEM(lc->g, n, lc->err);
            goto out;
        }
        for (int64_t q = 0; q < M->nnz; q++)
            d[M->r[q] * cols + M->c[q]] = M->v[q];
        *w = d;
    }
out:
    lmat_free_entries(M);
    return st;
}

/* M as the next DENSE layer; M is cleared (its bias taken), whatever the outcome. */
static vfy_status lmat_push(lctx *lc, const vfy_node *n, lmat *M, double relerr, int64_t fan_in)
{
    double *w;
    vfy_csr *csr;
    vfy_status st = lmat_finish(lc, n, M, &w, &csr);
    double *b = M->b;
    int64_t rows = M->m, cols = M->n;
    M->b = NULL;
    lmat_clear(M);
    if (st) {
        vfy_free(b);
        return st;
    }
    if (w)
        return push(lc, n, VFY_LAYER_DENSE, cols, rows, w, b, relerr, fan_in);
    st = vfy_net_push_csr(lc->net, cols, rows, csr, b, relerr, fan_in, n->name, lc->err);
    if (st && st != VFY_ERR_NOMEM)
        return nfail(lc->g, n, lc->err, st, "%s", lc->err ? lc->err->msg : "cannot add layer");
    return st;
}

/* The stored coefficients of output o of a DENSE (its row: dense, or its nonzeros) or SCALE
 * layer. */
static double *affine_row(vfy_layer *L, int64_t o, int64_t *nz)
{
    if (L->kind == VFY_LAYER_SCALE) {
        *nz = 1;
        return L->w + o;
    }
    if (L->csr) {
        *nz = L->csr->row_start[o + 1] - L->csr->row_start[o];
        return L->csr->val + L->csr->row_start[o];
    }
    *nz = L->n_in;
    return L->w + o * L->n_in;
}

/* v' = s .* v + t (takes s and t): folded into the previous DENSE/SCALE layer when a float
 * execution of the two is still one sum of rounded terms (net.h): every s is +-1 (exact)
 * and, row by row, t is 0 or the layer's bias is 0 (t becomes the sum's bias term). Else a SCALE
 * layer: a runtime rounds s y + t after the sum, and a t that cancels the bias (b = 1e6, t = -1e6)
 * leaves a rounding error of the sum that the folded bias's |b + t| does not bound. An inexact
 * multiplier (relerr > 0) is never folded. */
static vfy_status emit_affine(lctx *lc, const vfy_node *n, double *s, double *t, int64_t len,
                              double relerr)
{
    vfy_net *net = lc->net;
    vfy_layer *L = net->n_layers ? &net->layers[net->n_layers - 1] : NULL;
    if (L && (L->kind == VFY_LAYER_DENSE || L->kind == VFY_LAYER_SCALE) && relerr == 0 &&
        L->n_out == len) {
        int ok = 1;
        for (int64_t o = 0; ok && o < len; o++)
            ok = fabs(s[o]) == 1 && (t[o] == 0 || L->b[o] == 0);
        if (ok) {
            /* SOUND: a product with +-1 and a sum with 0 are exact, so every coefficient below is
             * the exact real value; negating an inexact layer keeps its relative error bound. */
            for (int64_t o = 0; o < len; o++) {
                int64_t nz;
                double *row = affine_row(L, o, &nz);
                for (int64_t j = 0; j < nz; j++)
                    row[j] *= s[o];
                L->b[o] = s[o] * L->b[o] + t[o];
            }
            name_append(L, n->name);
            vfy_free(s);
            vfy_free(t);
            return VFY_OK;
        }
    }
    return push(lc, n, VFY_LAYER_SCALE, len, len, s, t, relerr, 1);
}

/* Add, Sub, Mul, Div with one constant operand (broadcast either way), Neg. */
static vfy_status lower_elementwise(lctx *lc, const vfy_node *n, int ci)
{
    const vfy_graph *g = lc->g;
    const vfy_tensor *x = &g->values[n->in[ci]].t, *o = &g->values[n->out[0]].t;
    const vfy_tensor *ct = n->n_in > 1 ? &g->values[n->in[1 - ci]].t : NULL;
    int64_t len = o->numel;
    double *s = NULL, *t = NULL, relerr = 0;
    vfy_status st = VFY_OK;
    if (len != x->numel) {
        /* The constant broadcasts x to a larger shape: a 0/1 selection first. */
        lmat M;
        if ((st = lmat_init(lc, n, &M, len, x->numel)))
            goto fail;
        for (int64_t k = 0; k < len; k++)
            lmat_add(&M, k, bcast_src(o->shape, o->rank, x, k), 1);
        if ((st = lmat_push(lc, n, &M, 0, 1)))
            goto fail;
    }
    s = vfy_alloc_array((size_t)len, sizeof *s);
    t = vfy_alloc_array((size_t)len, sizeof *t);
    if (!s || !t) {
        st = NOMEM(g, n, lc->err);
        goto fail;
    }
    for (int64_t k = 0; k < len; k++) {
        double c = ct ? ct->f[bcast_src(o->shape, o->rank, ct, k)] : 0;
        switch (n->op) {
        case VFY_OP_ADD: s[k] = 1; t[k] = c; break;
        case VFY_OP_SUB: s[k] = ci == 0 ? 1 : -1; t[k] = ci == 0 ? -c : c; break;
        case VFY_OP_MUL: s[k] = c; t[k] = 0; break;
        case VFY_OP_NEG: s[k] = -1; t[k] = 0; break;
        case VFY_OP_DIV:
            if (ci != 0) {
                st = nfail(g, n, lc->err, VFY_ERR_UNSUPPORTED,
                           "division by a computed tensor (unsupported)");
                goto fail;
            }
            s[k] = 1.0 / c;
            t[k] = 0;
            if (!isfinite(s[k]) || fabs(s[k]) < 0x1p-1022) {
                st = nfail(g, n, lc->err, VFY_ERR_UNSUPPORTED, "division by %g (unsupported)", c);
                goto fail;
            }
            /* SOUND: s = RN(1/c) satisfies |1/c - s| <= 2^-53 |s|; fma gives w*c - 1 exactly. */
            if (fma(s[k], c, -1.0) != 0)
                relerr = 0x1p-53;
            break;
        default: VFY_ASSERT(0);
        }
    }
    st = emit_affine(lc, n, s, t, len, relerr);
    return st;
fail:
    vfy_free(s);
    vfy_free(t);
    return st;
}

/* MatMul of the computed x with a constant matrix on either side; leading (batch) dims of x give a
 * block-diagonal matrix. */
static vfy_status lower_matmul(lctx *lc, const vfy_node *n, int ci)
{
    const vfy_graph *g = lc->g;
    const vfy_tensor *x = &g->values[n->in[ci]].t, *C = &g->values[n->in[1 - ci]].t;
    int64_t n_out = g->values[n->out[0]].t.numel, n_in = x->numel;
    for (int d = 0; d + 2 < C->rank; d++)
        if (C->shape[d] != 1)
            return nfail(g, n, lc->err, VFY_ERR_UNSUPPORTED,
                         "batched constant operand (unsupported)");
    double *w, *b;
    int64_t k;
    vfy_status st = VFY_OK;
    if (ci == 0) {
        /* x [.., r, k] @ C [k, m]:  y[r, j] = sum_l x[r, l] C[l, j] */
        k = x->shape[x->rank - 1];
        int64_t m = C->rank == 1 ? 1 : C->shape[C->rank - 1], rows = k ? n_in / k : 0;
        VFY_ASSERT(rows * m == n_out);
        if ((st = dense_alloc(lc, n, n_out, n_in, &w, &b)))
            return st;
        for (int64_t r = 0; r < rows; r++)
            for (int64_t j = 0; j < m; j++)
                for (int64_t l = 0; l < k; l++)
                    w[(r * m + j) * n_in + r * k + l] = C->f[l * m + j];
    } else {
        /* C [p, k] @ x [.., k, m]:  y[q, i, j] = sum_l C[i, l] x[q, l, j] */
        k = C->shape[C->rank - 1];
        int64_t p = C->rank == 1 ? 1 : C->shape[C->rank - 2];
        int64_t m = x->rank == 1 ? 1 : x->shape[x->rank - 1];
        int64_t nb = (k && m) ? n_in / (k * m) : 0;
        VFY_ASSERT(nb * p * m == n_out);
        if ((st = dense_alloc(lc, n, n_out, n_in, &w, &b)))
            return st;
        for (int64_t q = 0; q < nb; q++)
            for (int64_t i = 0; i < p; i++)
                for (int64_t j = 0; j < m; j++)
                    for (int64_t l = 0; l < k; l++)
                        w[((q * p + i) * m + j) * n_in + (q * k + l) * m + j] = C->f[i * k + l];
    }
    return push(lc, n, VFY_LAYER_DENSE, n_in, n_out, w, b, 0, k);
}

/* Gemm: y = alpha A'B' + beta C with A or B computed. alpha goes into W when it is +-1 (a float
 * execution multiplies the sum by it exactly), else into a following SCALE (the runtime rounds
 * alpha times the sum once more, after the sum: net.h). */
static vfy_status lower_gemm(lctx *lc, const vfy_node *n, int ci)
{
    const vfy_graph *g = lc->g;
    gemm_info gi;
    vfy_status st = gemm_get(g, n, &gi, lc->err);
    if (st)
        return st;
    if (ci == 2) /* alpha A'B' would have to be rounded into a bias */
        return nfail(g, n, lc->err, VFY_ERR_UNSUPPORTED,
                     "computed C with constant A and B (unsupported)");
    const vfy_tensor *a = &g->values[n->in[0]].t, *bm = &g->values[n->in[1]].t;
    const vfy_tensor *cc = n->n_in > 2 && n->in[2] >= 0 ? &g->values[n->in[2]].t : NULL;
    int64_t n_out = gi.m * gi.n, n_in = ci == 0 ? a->numel : bm->numel;
    double *w = NULL, *b = NULL, *s = NULL, *t = NULL;
    if ((st = dense_alloc(lc, n, n_out, n_in, &w, &b)))
        return st;
    int alpha_ok = fabs(gi.alpha) == 1;
    for (int64_t i = 0; i < gi.m; i++)
        for (int64_t j = 0; j < gi.n; j++)
            for (int64_t l = 0; l < gi.k; l++) {
                int64_t ia = gi.ta ? l * gi.m + i : i * gi.k + l;
                int64_t ib = gi.tb ? j * gi.k + l : l * gi.n + j;
                double cv = ci == 0 ? bm->f[ib] : a->f[ia];
                w[(i * gi.n + j) * n_in + (ci == 0 ? ia : ib)] = cv;
            }
    for (int64_t o = 0; cc && gi.beta != 0 && o < n_out; o++) {
        if (!prod_exact(gi.beta, cc->f[bcast_src((int64_t[]){gi.m, gi.n}, 2, cc, o)], &b[o])) {
            st = nfail(g, n, lc->err, VFY_ERR_UNSUPPORTED,
                       "beta * C is not exact in double (unsupported)");
            goto fail;
        }
    }
    if (alpha_ok) {
        for (int64_t q = 0; q < n_out * n_in; q++)
            w[q] *= gi.alpha;
        return push(lc, n, VFY_LAYER_DENSE, n_in, n_out, w, b, 0, gi.k);
    }
    /* SOUND: alpha (A'B') + beta C as DENSE(A'B') then SCALE(alpha, beta C): no product rounded. */
    s = vfy_alloc_array((size_t)n_out, sizeof *s);
    if (!s) {
        st = NOMEM(g, n, lc->err);
        goto fail;
    }
    for (int64_t o = 0; o < n_out; o++)
        s[o] = gi.alpha;
    t = b;
    b = vfy_alloc_array((size_t)n_out, sizeof *b);
    if (!b) {
        st = NOMEM(g, n, lc->err);
        goto fail;
    }
    st = push(lc, n, VFY_LAYER_DENSE, n_in, n_out, w, b, 0, gi.k);
    w = b = NULL;
    if (st)
        goto fail;
    st = push(lc, n, VFY_LAYER_SCALE, n_out, n_out, s, t, 0, 1);
    return st;
fail:
    vfy_free(w);
    vfy_free(b);
    vfy_free(s);
    vfy_free(t);
    return st;
}

static vfy_status lower_transpose(lctx *lc, const vfy_node *n)
{
    const vfy_tensor *x = &lc->g->values[n->in[0]].t;
    int64_t perm[VFY_MAX_RANK], len = x->numel;
    if (transpose_perm(n, x->rank, perm))
        return nfail(lc->g, n, lc->err, VFY_ERR_INVALID, "bad perm");
    int ident = 1;
    for (int64_t k = 0; ident && k < len; k++)
        ident = transpose_src(x, perm, k) == k;
    if (ident) /* only size-1 axes move: the flattened order is unchanged */
        return VFY_OK;
    lmat M;
    vfy_status st = lmat_init(lc, n, &M, len, len);
    if (st)
        return st;
    for (int64_t k = 0; k < len; k++)
        lmat_add(&M, k, transpose_src(x, perm, k), 1);
    return lmat_push(lc, n, &M, 0, 1);
}

/* Conv: y[b,m,oy,ox] = B[m] + sum W[m,cc,ky,kx] x[b, (m / (M/group)) * C/group + cc, iy, ix] over
 * cc < C/group, ky < kh, kx < kw, with iy, ix as in win_geom; padding positions add nothing. One
 * DENSE layer on the row-major (N, C, H, W) vector, whose nonzero entries are the kernel values
 * themselves (so exact); fan_in = C/group * kh * kw, the longest sum a float execution performs. */
static vfy_status lower_conv(lctx *lc, const vfy_node *n)
{
    const vfy_graph *g = lc->g;
    const vfy_tensor *x = &g->values[n->in[0]].t, *wt = &g->values[n->in[1]].t;
    const vfy_tensor *bt = n->n_in > 2 && n->in[2] >= 0 ? &g->values[n->in[2]].t : NULL;
    int64_t kernel[2] = {x->rank == 4 ? wt->shape[2] : 1, wt->shape[wt->rank - 1]}, group;
    win_geom wg;
    vfy_status st = win_get(g, n, x, kernel, 0, &wg, lc->err);
    if (st || (st = attr_int(g, n, "group", 1, &group, lc->err)))
        return st;
    int64_t m = wt->shape[0], cg = wt->shape[1], mg = m / group;
    int64_t n_in = x->numel, n_out = g->values[n->out[0]].t.numel, nnz;
    VFY_ASSERT(n_out == wg.n * m * wg.oh * wg.ow && n_in == wg.n * wg.c * wg.h * wg.w);
    if (__builtin_mul_overflow(n_out, cg * wg.kh * wg.kw, &nnz) || nnz > VFY_MAX_ELEMS)
        return nfail(g, n, lc->err, VFY_ERR_UNSUPPORTED, "the lowered %lld x %lld matrix (%lld x "
                     "%lld weights per output) is too large (unsupported)", (long long)n_out,
                     (long long)n_in, (long long)cg, (long long)(wg.kh * wg.kw));
    lmat M;
    if ((st = lmat_init(lc, n, &M, n_out, n_in)))
        return st;
    lmat_reserve(&M, nnz);
    for (int64_t bn = 0; bn < wg.n; bn++)
        for (int64_t oc = 0; oc < m; oc++) {
            /* (a large one takes seconds: the deadline is read per output channel) */
            if (M.over || vfy_deadline_over(lc->dl)) {
                st = M.over ? too_big(lc, n, M.need) : lower_timeout(lc, n);
                lmat_clear(&M);
                return st;
            }
            for (int64_t oy = 0; oy < wg.oh; oy++)
                for (int64_t ox = 0; ox < wg.ow; ox++) {
                    int64_t o = ((bn * m + oc) * wg.oh + oy) * wg.ow + ox;
                    M.b[o] = bt ? bt->f[oc] : 0;
                    for (int64_t cc = 0; cc < cg; cc++) {
                        int64_t ch = (oc / mg) * cg + cc;
                        const double *ker = wt->f + (oc * cg + cc) * wg.kh * wg.kw;
                        for (int64_t ky = 0; ky < wg.kh; ky++) {
                            int64_t iy = oy * wg.sh - wg.pt + ky * wg.dh;
                            if (iy < 0 || iy >= wg.h)
                                continue;
                            for (int64_t kx = 0; kx < wg.kw; kx++) {
                                int64_t ix = ox * wg.sw - wg.pl + kx * wg.dw;
                                if (ix < 0 || ix >= wg.w)
                                    continue;
                                /* SOUND: dilations >= 1, so each input position is hit once and
                                 * its coefficient is one float32 kernel value, not a sum. */
                                lmat_add(&M, o, ((bn * wg.c + ch) * wg.h + iy) * wg.w + ix,
                                         ker[ky * wg.kw + kx]);
                            }
                        }
                    }
                }
        }
    if ((st = lmat_push(lc, n, &M, 0, cg * wg.kh * wg.kw)))
        return st;
    if (wg.n == 1) {
        int64_t *cl = vfy_realloc(lc->conv_layer, (size_t)(lc->n_conv + 1) * sizeof *cl);
        if (cl)
            lc->conv_layer = cl;
        vfy_conv_geom *cgm = vfy_realloc(lc->conv_geom, (size_t)(lc->n_conv + 1) * sizeof *cgm);
        if (cgm)
            lc->conv_geom = cgm;
        int64_t *cc = vfy_realloc(lc->conv_c0, (size_t)(lc->n_conv + 1) * sizeof *cc);
        if (cc)
            lc->conv_c0 = cc;
        if (!cl || !cgm || !cc)
            return NOMEM(g, n, lc->err);
        lc->conv_layer[lc->n_conv] = lc->net->n_layers - 1;
        lc->conv_c0[lc->n_conv] = 0;
        lc->conv_geom[lc->n_conv++] = (vfy_conv_geom){
            .c = wg.c, .h = wg.h, .w = wg.w, .oc = m, .oh = wg.oh, .ow = wg.ow, .kh = wg.kh,
            .kw = wg.kw, .sh = wg.sh, .sw = wg.sw, .pt = wg.pt, .pl = wg.pl, .dh = wg.dh,
            .dw = wg.dw, .groups = group};
    }
    return VFY_OK;
}

/* ConvTranspose (tconv_get): one DENSE layer, rows the outputs. Output (oy, ox) receives input
 * (iy, ix) through kernel tap ky = (oy + pt - iy sh) / dh when that is an integer in [0, kh) (and
 * likewise kx): at most one tap per input element and output, so every coefficient is one float32
 * kernel value, never a sum. fan_in: (C/group) kh kw, the most products any output sums. */
static vfy_status lower_conv_transpose(lctx *lc, const vfy_node *n)
{
    const vfy_graph *g = lc->g;
    const vfy_tensor *x = &g->values[n->in[0]].t, *wt = &g->values[n->in[1]].t;
    const vfy_tensor *bt = n->n_in > 2 && n->in[2] >= 0 ? &g->values[n->in[2]].t : NULL;
    win_geom wg;
    int64_t m, group;
    vfy_status st = tconv_get(g, n, x, wt, &wg, &m, &group, lc->err);
    if (st)
        return st;
    int64_t cg = wg.c / group, mg = m / group, n_in = x->numel, nnz;
    int64_t n_out = g->values[n->out[0]].t.numel;
    VFY_ASSERT(n_out == wg.n * m * wg.oh * wg.ow && n_in == wg.n * wg.c * wg.h * wg.w);
    if (__builtin_mul_overflow(n_in, mg * wg.kh * wg.kw, &nnz) || nnz > VFY_MAX_ELEMS)
        return nfail(g, n, lc->err, VFY_ERR_UNSUPPORTED, "the lowered %lld x %lld matrix is too "
                     "large (unsupported)", (long long)n_out, (long long)n_in);
    lmat M;
    if ((st = lmat_init(lc, n, &M, n_out, n_in)))
        return st;
    lmat_reserve(&M, nnz);
    for (int64_t bn = 0; bn < wg.n; bn++)
        for (int64_t oc = 0; oc < m; oc++) {
            /* (a large one takes seconds: the deadline is read per output channel) */
            if (M.over || vfy_deadline_over(lc->dl)) {
                st = M.over ? too_big(lc, n, M.need) : lower_timeout(lc, n);
                lmat_clear(&M);
                return st;
            }
            for (int64_t oy = 0; oy < wg.oh; oy++)
                for (int64_t ox = 0; ox < wg.ow; ox++) {
                    int64_t o = ((bn * m + oc) * wg.oh + oy) * wg.ow + ox;
                    M.b[o] = bt ? bt->f[oc] : 0;
                    int64_t gi = oc / mg, j = oc % mg;
                    for (int64_t cc = 0; cc < cg; cc++) {
                        int64_t ic = gi * cg + cc;
                        const double *ker = wt->f + (ic * mg + j) * wg.kh * wg.kw;
                        for (int64_t ky = 0; ky < wg.kh; ky++) {
                            int64_t ty = oy + wg.pt - ky * wg.dh;
                            if (ty < 0 || ty % wg.sh || ty / wg.sh >= wg.h)
                                continue;
                            for (int64_t kx = 0; kx < wg.kw; kx++) {
                                int64_t tx = ox + wg.pl - kx * wg.dw;
                                if (tx < 0 || tx % wg.sw || tx / wg.sw >= wg.w)
                                    continue;
                                /* SOUND: (iy, ix) fixes (ky, kx) for this output: one kernel
                                 * value per entry, added once */
                                lmat_add(&M, o, ((bn * wg.c + ic) * wg.h + ty / wg.sh) * wg.w +
                                                    tx / wg.sw, ker[ky * wg.kw + kx]);
                            }
                        }
                    }
                }
        }
    return lmat_push(lc, n, &M, 0, cg * wg.kh * wg.kw);
}

/* AveragePool, GlobalAveragePool: y[b,c,oy,ox] = (1/k) sum of x over the window's positions inside
 * the input, where k counts the padding too when count_include_pad = 1 (the window clipped to the
 * padded input, as onnxruntime and PyTorch do) and only the input positions otherwise. One DENSE
 * layer with entries 1/k; fan_in = kh * kw. */
static vfy_status lower_avgpool(lctx *lc, const vfy_node *n)
{
    const vfy_graph *g = lc->g;
    const vfy_tensor *x = &g->values[n->in[0]].t;
    win_geom wg;
    int64_t cip;
    vfy_status st = win_get(g, n, x, NULL, n->op == VFY_OP_GLOBAL_AVERAGE_POOL, &wg, lc->err);
    if (st || (st = attr_int(g, n, "count_include_pad", 0, &cip, lc->err)))
        return st;
    int64_t n_in = x->numel, n_out = g->values[n->out[0]].t.numel;
    VFY_ASSERT(n_out == wg.n * wg.c * wg.oh * wg.ow);
    double relerr = 0;
    lmat M;
    if ((st = lmat_init(lc, n, &M, n_out, n_in)))
        return st;
    lmat_reserve(&M, n_out * wg.kh * wg.kw);
    for (int64_t bc = 0; bc < wg.n * wg.c; bc++)
        for (int64_t oy = 0; oy < wg.oh; oy++)
            for (int64_t ox = 0; ox < wg.ow; ox++) {
                int64_t o = (bc * wg.oh + oy) * wg.ow + ox;
                int64_t hs = oy * wg.sh - wg.pt, ws = ox * wg.sw - wg.pl;
                int64_t he = hs + wg.kh, we = ws + wg.kw;
                if (cip && (he > wg.h + wg.pb || we > wg.w + wg.pr)) {
                    st = nfail(g, n, lc->err, VFY_ERR_UNSUPPORTED, "a ceil_mode window extends "
                               "past the padding with count_include_pad (unsupported: runtimes "
                               "differ there)");
                    goto fail;
                }
                int64_t k = he - hs;
                k *= we - ws;
                hs = hs < 0 ? 0 : hs;
                ws = ws < 0 ? 0 : ws;
                he = he > wg.h ? wg.h : he;
                we = we > wg.w ? wg.w : we;
                if (!cip)
                    k = (he > hs && we > ws) ? (he - hs) * (we - ws) : 0;
                if (k <= 0) {
                    st = nfail(g, n, lc->err, VFY_ERR_UNSUPPORTED,
                               "a window covers only padding (unsupported)");
                    goto fail;
                }
                double v = 1.0 / (double)k;
                /* SOUND: v = RN(1/k) with k < 2^53, so |1/k - v| <= 2^-53 |v|; fma gives v*k - 1
                 * exactly, zero iff v is 1/k (k a power of two). */
                if (fma(v, (double)k, -1.0) != 0)
                    relerr = 0x1p-53;
                for (int64_t iy = hs; iy < he; iy++)
                    for (int64_t ix = ws; ix < we; ix++)
                        lmat_add(&M, o, (bc * wg.h + iy) * wg.w + ix, v);
            }
    st = lmat_push(lc, n, &M, relerr, wg.kh * wg.kw);
fail:
    lmat_clear(&M);
    return st;
}

/* MaxPool: y[b,c,oy,ox] = max of x[b,c,iy,ix] over the window's positions inside the input
 * (padding is -inf: it never wins). One MAXPOOL layer whose window j lists those positions' flat
 * indices (-1 for padding); a window of padding only is refused. */
static vfy_status lower_maxpool(lctx *lc, const vfy_node *n)
{
    const vfy_graph *g = lc->g;
    const vfy_tensor *x = &g->values[n->in[0]].t;
    win_geom wg;
    vfy_status st = win_get(g, n, x, NULL, n->op == VFY_OP_GLOBAL_MAX_POOL, &wg, lc->err);
    if (st)
        return st;
    int64_t n_in = x->numel, n_out = g->values[n->out[0]].t.numel, k = wg.kh * wg.kw, sz;
    VFY_ASSERT(n_out == wg.n * wg.c * wg.oh * wg.ow);
    if (__builtin_mul_overflow(n_out, k, &sz) || sz > VFY_MAX_ELEMS)
        return nfail(g, n, lc->err, VFY_ERR_UNSUPPORTED, "%lld windows of %lld are too many "
                     "(unsupported)", (long long)n_out, (long long)k);
    int64_t *pool = vfy_alloc_array((size_t)sz, sizeof *pool);
    if (!pool)
        return NOMEM(g, n, lc->err);
    for (int64_t bc = 0; bc < wg.n * wg.c; bc++)
        for (int64_t oy = 0; oy < wg.oh; oy++)
            for (int64_t ox = 0; ox < wg.ow; ox++) {
                int64_t o = (bc * wg.oh + oy) * wg.ow + ox, inside = 0;
                for (int64_t ky = 0; ky < wg.kh; ky++)
                    for (int64_t kx = 0; kx < wg.kw; kx++) {
                        int64_t iy = oy * wg.sh - wg.pt + ky * wg.dh;
                        int64_t ix = ox * wg.sw - wg.pl + kx * wg.dw;
                        int in = iy >= 0 && iy < wg.h && ix >= 0 && ix < wg.w;
                        pool[o * k + ky * wg.kw + kx] = in ? (bc * wg.h + iy) * wg.w + ix : -1;
                        inside += in;
                    }
                if (inside == 0) {
                    vfy_free(pool);
                    return nfail(g, n, lc->err, VFY_ERR_UNSUPPORTED,
                                 "a window covers only padding (unsupported)");
                }
            }
    st = vfy_net_push_maxpool(lc->net, n_in, n_out, k, pool, n->name, lc->err);
    if (st && st != VFY_ERR_NOMEM)
        return nfail(g, n, lc->err, st, "%s", lc->err ? lc->err->msg : "cannot add layer");
    return st;
}

/* BatchNormalization: y = scale (x - mean) / sqrt(var + eps) + B per channel (axis 1), as
 *   SCALE(1, -mean), then SCALE(w, 0) with w = scale / sqrt(var + eps) in double, then (1, B),
 * the last folded into the second when exact (it always is: that layer's bias is 0).
 * Real semantics: the double w rounds three times (the sum, sqrt, the division: relative errors
 * d1, d2, d3 <= u = 2^-53), so |w_real - w| / |w| = |1 - sqrt(1+d1)(1+d2)/(1+d3)|
 * <= sqrt(1+u)(1+u)/(1-u) - 1 < 3u: w_relerr = 2^-50 = 8u covers it (0 when the three operations
 * are checked exact). The biases -mean and B are float32
 * values, exact; no product or sum with them is rounded.
 * Float executions: a runtime computes w in float32 (up to ~3 roundings of 2^-24 on w) and may fold
 * everything into x*w' + b' or into a preceding Conv. The layers are kept apart so that each charges
 * its own allowance: the first gamma32(1)(|x| + |mean|), which covers the rounding of x*w' and
 * mean*w' however the runtime combines them; the second gamma32(4)(|w||x - mean| + |B|), whose 4
 * covers the float32 roundings of var + eps, sqrt and the division on top of the product's own. So
 * the first layer is never folded into the layer before it, nor the second into the first. */
static vfy_status lower_batchnorm(lctx *lc, const vfy_node *n)
{
    const vfy_graph *g = lc->g;
    const vfy_tensor *x = &g->values[n->in[0]].t;
    const double *scale = g->values[n->in[1]].t.f, *bias = g->values[n->in[2]].t.f;
    const double *mean = g->values[n->in[3]].t.f, *var = g->values[n->in[4]].t.f;
    int64_t len = x->numel, nc = x->shape[1], inner = 1;
    for (int d = 2; d < x->rank; d++)
        inner *= x->shape[d];
    double eps, relerr = 0;
    vfy_status st = attr_float(g, n, "epsilon", 1e-5f, &eps, lc->err);
    if (st)
        return st;
    double *wc = vfy_alloc_array((size_t)nc + 1, sizeof *wc);
    size_t sz = (size_t)len + 1, d = sizeof(double);
    double *s1 = vfy_alloc_array(sz, d), *t1 = vfy_alloc_array(sz, d);
    double *s2 = vfy_alloc_array(sz, d), *t2 = vfy_alloc_array(sz, d);
    double *s3 = vfy_alloc_array(sz, d), *t3 = vfy_alloc_array(sz, d);
    if (!wc || !s1 || !t1 || !s2 || !t2 || !s3 || !t3) {
        st = NOMEM(g, n, lc->err);
        goto fail;
    }
    for (int64_t c = 0; c < nc; c++) {
        double s, r;
        int exact = sum_exact(var[c], eps, &s);
        if (!(s > 0)) {
            st = nfail(g, n, lc->err, VFY_ERR_UNSUPPORTED,
                       "channel %lld: var + epsilon = %g is not positive (unsupported)",
                       (long long)c, s);
            goto fail;
        }
        r = sqrt(s);
        wc[c] = scale[c] / r;
        /* SOUND: fma returns r*r - s and w*r - scale exactly while the products stay above the
         * underflow threshold (checked), so both zero means w is the real quotient. */
        exact = exact && fabs(s) >= 0x1p-900 && fma(r, r, -s) == 0 &&
                (scale[c] == 0 || (fabs(scale[c]) >= 0x1p-900 && fma(wc[c], r, -scale[c]) == 0));
        if (!exact)
            relerr = 0x1p-50;
        if (!isfinite(wc[c]) || (wc[c] != 0 && fabs(wc[c]) < 0x1p-1000)) {
            st = nfail(g, n, lc->err, VFY_ERR_UNSUPPORTED,
                       "channel %lld: multiplier %g out of range (unsupported)", (long long)c,
                       wc[c]);
            goto fail;
        }
    }
    for (int64_t k = 0; k < len; k++) {
        int64_t c = (k / inner) % nc;
        s1[k] = 1;
        t1[k] = -mean[c];
        s2[k] = wc[c];
        t2[k] = 0;
        s3[k] = 1;
        t3[k] = bias[c];
    }
    vfy_free(wc);
    wc = NULL;
    st = push(lc, n, VFY_LAYER_SCALE, len, len, s1, t1, 0, 1);
    s1 = t1 = NULL;
    if (st)
        goto fail;
    st = push(lc, n, VFY_LAYER_SCALE, len, len, s2, t2, relerr, 4);
    s2 = t2 = NULL;
    if (st)
        goto fail;
    return emit_affine(lc, n, s3, t3, len, 0);
fail:
    vfy_free(wc);
    vfy_free(s1);
    vfy_free(t1);
    vfy_free(s2);
    vfy_free(t2);
    vfy_free(s3);
    vfy_free(t3);
    return st;
}

/* Pad (constant mode): a 0/1 selection, the pad value as the bias of the padded positions; no layer
 * when nothing is padded or cropped. */
static vfy_status lower_pad(lctx *lc, const vfy_node *n)
{
    const vfy_graph *g = lc->g;
    const vfy_tensor *x = &g->values[n->in[0]].t;
    pad_info pi;
    int64_t shape[VFY_MAX_RANK];
    vfy_status st = pad_get(g, n, &pi, shape, lc->err);
    if (st)
        return st;
    int ident = 1;
    for (int d = 0; d < x->rank; d++)
        ident = ident && pi.begin[d] == 0 && shape[d] == x->shape[d];
    if (ident)
        return VFY_OK;
    int64_t n_in = x->numel, n_out = g->values[n->out[0]].t.numel;
    lmat M;
    if ((st = lmat_init(lc, n, &M, n_out, n_in)))
        return st;
    for (int64_t k = 0; k < n_out; k++) {
        int64_t s = pad_src(x, shape, &pi, k);
        if (s >= 0)
            lmat_add(&M, k, s, 1);
        else
            M.b[k] = pi.fvalue; /* SOUND: a float32 (or double) constant, held exactly */
    }
    return lmat_push(lc, n, &M, 0, 1);
}

/* LeakyRelu, PRelu, Abs, Clip, and Max/Min with a constant through ReLU, exactly in real
 * arithmetic:
 *   LeakyRelu(x) = relu(x) - alpha relu(-x)               (any alpha: x >= 0 and x < 0 both check)
 *   PRelu(x)_j = relu(x_j) - s_j relu(-x_j)                (the slope broadcast to x)
 *   Abs(x) = relu(x) + relu(-x)
 *   Clip(x) = lo + relu(x - lo) - relu(x - hi)             (lo <= hi finite)
 *           = lo + relu(x - lo),  hi - relu(hi - x)        (one bound infinite), x (none)
 *   Max(x, c)_j = c_j + relu(x_j - c_j),  Min(x, c)_j = c_j - relu(c_j - x_j)
 * as DENSE (the ReLU inputs, entries +-1) -> RELU -> DENSE (their combination). Float executions:
 * a runtime computes alpha x (s_j x) with one float32 rounding and the others exactly; the
 * layers' allowances (fan_in 1 and 2) cover more than that. The two ReLU inputs of one element
 * are bounded apart, which is looser than a relaxation of the function itself, never unsound. */
static vfy_status lower_pwl(lctx *lc, const vfy_node *n, int64_t len)
{
    const vfy_graph *g = lc->g;
    double lo = -INFINITY, hi = INFINITY, alpha = 0;
    const vfy_tensor *ct = NULL; /* PRelu's slope, Max's or Min's constant operand */
    int ci = 0;
    vfy_status st = VFY_OK;
    if (n->op == VFY_OP_CLIP)
        st = clip_bounds(g, n, &lo, &hi, lc->err);
    else if (n->op == VFY_OP_LEAKY_RELU)
        st = attr_float(g, n, "alpha", (double)0.01f, &alpha, lc->err); /* a float attribute */
    else if (n->op != VFY_OP_ABS)
        st = pwl_const(g, n, &ci, &ct, lc->err);
    if (st)
        return st;
    if (n->op == VFY_OP_LEAKY_RELU && !isfinite(alpha))
        return nfail(g, n, lc->err, VFY_ERR_INVALID, "alpha %g is not finite", alpha);
    /* the ReLU inputs: (sign s_r, offset o_r) per copy r, z = s_r x + o_r; then
     * y = c0 + sum_r m_r relu(z_r); the offsets, multipliers and c0 may vary by element j
     * (PRelu's slope, Max's constant broadcast to x) */
    double sg[2] = {1, -1};
    int nr = 2, per_el = 0;
    double of0 = 0, of1 = 0, mu0 = 1, mu1 = 1, c0 = 0;
    switch (n->op) {
    case VFY_OP_LEAKY_RELU: mu1 = -alpha; break;             /* relu(x) - alpha relu(-x) */
    case VFY_OP_ABS: break;                                  /* relu(x) + relu(-x) */
    case VFY_OP_PRELU: per_el = 1; break;                    /* relu(x) - s_j relu(-x) */
    case VFY_OP_MAX: per_el = 1, nr = 1; break;              /* c_j + relu(x - c_j) */
    case VFY_OP_MIN: per_el = 1, nr = 1, sg[0] = -1; break;  /* c_j - relu(c_j - x) */
    default:                                                 /* Clip */
        if (isfinite(lo) && isfinite(hi)) {
            sg[1] = 1, of0 = -lo, of1 = -hi, mu1 = -1, c0 = lo; /* lo + relu(x-lo) - relu(x-hi) */
        } else if (isfinite(lo)) {
            of0 = -lo, c0 = lo, nr = 1;
        } else if (isfinite(hi)) {
            sg[0] = -1, of0 = hi, mu0 = -1, c0 = hi, nr = 1;
        } else {
            return VFY_OK; /* Clip without bounds: the identity */
        }
    }
    const vfy_value *xv = &g->values[n->in[ci]];
    lmat M;
    if ((st = lmat_init(lc, n, &M, nr * len, len)))
        return st;
    for (int r = 0; r < nr; r++)
        for (int64_t j = 0; j < len; j++) {
            double off = r ? of1 : of0;
            if (per_el && n->op != VFY_OP_PRELU) {
                double cj = ct->f[bcast_src(xv->t.shape, xv->t.rank, ct, j)];
                off = n->op == VFY_OP_MAX ? -cj : cj;
            }
            lmat_add(&M, r * len + j, j, sg[r]);
            M.b[r * len + j] = off; /* SOUND: -lo, -hi, hi, +-c_j are float constants, exact */
        }
    st = lmat_push(lc, n, &M, 0, 1);
    if (st || (st = push(lc, n, VFY_LAYER_RELU, nr * len, nr * len, NULL, NULL, 0, 1)))
        return st;
    if ((st = lmat_init(lc, n, &M, len, nr * len)))
        return st;
    for (int64_t j = 0; j < len; j++) {
        double cj = per_el ? ct->f[bcast_src(xv->t.shape, xv->t.rank, ct, j)] : 0;
        for (int r = 0; r < nr; r++) {
            double m = r ? mu1 : mu0;
            if (n->op == VFY_OP_PRELU && r == 1)
                m = -cj;
            else if (n->op == VFY_OP_MIN)
                m = -1;
            lmat_add(&M, j, r * len + j, m); /* SOUND: +-1, or a float32 slope, exact */
        }
        M.b[j] = n->op == VFY_OP_MAX || n->op == VFY_OP_MIN ? cj : c0;
    }
    return lmat_push(lc, n, &M, 0, nr);
}

/* The output index of element i of x under a reduction of the axes red: its coordinates with
 * the reduced ones dropped. */
static int64_t reduced_index(const vfy_tensor *x, const char *red, int64_t i)
{
    int64_t o = 0, stride = 1;
    for (int d = x->rank - 1; d >= 0; d--) {
        int64_t cd = i % x->shape[d];
        i /= x->shape[d];
        if (!red[d]) {
            o += cd * stride;
            stride *= x->shape[d];
        }
    }
    return o;
}

/* A Reduce node's reduced axes (red) and sizes: n_in inputs, n_out outputs, k = n_in / n_out
 * inputs reducing to each output (reduced_index gives which). */
static vfy_status reduce_groups(lctx *lc, const vfy_node *n, char *red, int64_t *n_in,
                                int64_t *n_out, int64_t *k)
{
    const vfy_tensor *x = &lc->g->values[n->in[0]].t;
    int64_t shape[VFY_MAX_RANK];
    int rank;
    vfy_status st = reduce_axes(lc->g, n, x, red, &rank, shape, lc->err);
    *n_in = x->numel;
    *n_out = lc->g->values[n->out[0]].t.numel;
    *k = *n_out > 0 ? *n_in / *n_out : 0;
    return st;
}

/* ReduceSum: y_o = sum of the x_i that reduce to o, coefficients 1; ReduceMean: 1/k each (k the
 * elements per output), rounded: relerr 2^-53 unless k is a power of two (as AveragePool). A float
 * execution sums k terms and divides once: k roundings, the fan-in. */
static vfy_status lower_reduce(lctx *lc, const vfy_node *n)
{
    const vfy_graph *g = lc->g;
    const vfy_tensor *x = &g->values[n->in[0]].t;
    char red[VFY_MAX_RANK];
    int64_t n_in, n_out, k;
    vfy_status st = reduce_groups(lc, n, red, &n_in, &n_out, &k);
    if (st)
        return st;
    double v = 1.0, relerr = 0;
    if (n->op == VFY_OP_REDUCE_MEAN) {
        v = 1.0 / (double)k;
        /* SOUND: v = RN(1/k), |1/k - v| <= 2^-53 |v|; fma gives v k - 1 exactly */
        if (fma(v, (double)k, -1.0) != 0)
            relerr = 0x1p-53;
    }
    lmat M;
    if ((st = lmat_init(lc, n, &M, n_out, n_in)))
        return st;
    for (int64_t i = 0; i < n_in; i++) {
        int64_t o = reduced_index(x, red, i);
        lmat_add(&M, o, i, v);
    }
    return lmat_push(lc, n, &M, relerr, k);
}

/* Softmax inside the graph (the output's is taken out by vfy_graph_lower), along the last axis:
 *     s_i = exp(x_i) / sum_j exp(x_j) = 1 / (1 + sum_{j != i} exp(x_j - x_i))
 * (exact for reals): a DENSE layer of the n (n - 1) differences of each group (coefficients +-1),
 * EXP, a DENSE layer of the sums plus 1, RECIP (both with fan_in n, vfy_layer_in_softmax: their
 * float allowance is the runtime Softmax's, bound.c). The sum is >= 1, so 1/v is taken where it is
 * convex and finite. Only the
 * last axis (explicit, or the default of a rank-2 input), where every opset reads the axis the
 * same way: before opset 13 the groups were the dimensions from the axis on. */
static vfy_status lower_softmax(lctx *lc, const vfy_node *n)
{
    const vfy_graph *g = lc->g;
    const vfy_tensor *x = &g->values[n->in[0]].t;
    const vfy_attr *a = attr_get(n, "axis");
    int64_t axis = a ? norm_axis(a->i, x->rank > 0 ? x->rank : 1) : (x->rank == 2 ? 1 : -1);
    if (x->rank < 1 || axis != x->rank - 1)
        return nfail(g, n, lc->err, VFY_ERR_UNSUPPORTED, "inside the graph is supported along the "
                     "last axis only (an explicit axis, or the default on a rank-2 input)");
    int64_t len = x->numel, m = x->shape[x->rank - 1], groups = m > 0 ? len / m : 0, nd;
    if (m < 1 || __builtin_mul_overflow(groups, m * (m - 1), &nd) || nd > VFY_MAX_ELEMS / 2)
        return nfail(g, n, lc->err, VFY_ERR_UNSUPPORTED, "of %lld groups of %lld is too large "
                     "(unsupported)", (long long)groups, (long long)m);
    if (m == 1) { /* s = 1: a DENSE layer of no coefficients and bias 1 */
        lmat M;
        vfy_status st = lmat_init(lc, n, &M, len, len);
        if (st)
            return st;
        for (int64_t i = 0; i < len; i++)
            M.b[i] = 1;
        return lmat_push(lc, n, &M, 0, 1);
    }
    lmat D, S;
    vfy_status st = lmat_init(lc, n, &D, nd, len);
    if (st)
        return st;
    lmat_reserve(&D, 2 * nd);
    for (int64_t q = 0, r = 0; q < groups; q++)
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < m; j++) {
                if (j == i)
                    continue;
                lmat_add(&D, r, q * m + j, 1.0);
                lmat_add(&D, r++, q * m + i, -1.0);
            }
    if ((st = lmat_push(lc, n, &D, 0, 2)) ||
        (st = push(lc, n, VFY_LAYER_EXP, nd, nd, NULL, NULL, 0, m)) ||
        (st = lmat_init(lc, n, &S, len, nd)))
        return st;
    lmat_reserve(&S, nd);
    for (int64_t i = 0; i < len; i++) {
        for (int64_t t = 0; t < m - 1; t++)
            lmat_add(&S, i, i * (m - 1) + t, 1.0);
        S.b[i] = 1;
    }
    if ((st = lmat_push(lc, n, &S, 0, m)))
        return st;
    return push(lc, n, VFY_LAYER_RECIP, len, len, NULL, NULL, 0, m);
}

/* A SCALE layer of -1 on len values (exact in every semantics). */
static vfy_status push_negation(lctx *lc, const vfy_node *n, int64_t len)
{
    double *w = vfy_alloc_array((size_t)len, sizeof *w);
    double *b = vfy_alloc_array((size_t)len, sizeof *b);
    if (!w || !b) {
        vfy_free(w);
        vfy_free(b);
        return NOMEM(lc->g, n, lc->err);
    }
    for (int64_t i = 0; i < len; i++)
        w[i] = -1;
    return push(lc, n, VFY_LAYER_SCALE, len, len, w, b, 0, 1);
}

/* ReduceMax: a MAXPOOL whose window o holds the inputs that reduce to output o; ReduceMin(x) =
 * -ReduceMax(-x), between two SCALE layers of -1 (exact in every semantics: a float max, min and
 * negation round nothing). */
static vfy_status lower_reduce_max(lctx *lc, const vfy_node *n)
{
    const vfy_graph *g = lc->g;
    const vfy_tensor *x = &g->values[n->in[0]].t;
    char red[VFY_MAX_RANK];
    int64_t n_in, n_out, k;
    vfy_status st = reduce_groups(lc, n, red, &n_in, &n_out, &k);
    if (st)
        return st;
    int is_min = n->op == VFY_OP_REDUCE_MIN;
    if (is_min && (st = push_negation(lc, n, n_in)))
        return st;
    int64_t *pool = vfy_alloc_array((size_t)n_in, sizeof *pool);
    int64_t *cnt = vfy_alloc_array((size_t)n_out, sizeof *cnt);
    if (!pool || !cnt) {
        vfy_free(pool);
        vfy_free(cnt);
        return NOMEM(g, n, lc->err);
    }
    for (int64_t i = 0; i < n_in; i++) {
        int64_t o = reduced_index(x, red, i);
        VFY_ASSERT(cnt[o] < k);
        pool[o * k + cnt[o]++] = i;
    }
    vfy_free(cnt);
    st = vfy_net_push_maxpool(lc->net, n_in, n_out, k, pool, n->name, lc->err);
    if (st && st != VFY_ERR_NOMEM)
        return nfail(g, n, lc->err, st, "%s", lc->err ? lc->err->msg : "cannot add layer");
    if (st || !is_min)
        return st;
    return push_negation(lc, n, n_out);
}

/* Slice, Gather on a computed tensor: a DENSE layer of rows with the one coefficient 1 (exact, no
 * rounding in any semantics), the map from the op's own folding (selection_map). */
static vfy_status lower_select(lctx *lc, const vfy_node *n)
{
    /* the fold only reads the graph */
    vfy_graph *g = (vfy_graph *)lc->g;
    ictx c = {.g = g, .n = (vfy_node *)n, .err = lc->err, .all_const = 1};
    for (int64_t k = 0; k < n->n_in && k < 8; k++)
        c.in[k] = n->in[k] >= 0 ? &g->values[n->in[k]] : NULL;
    c.o = &g->values[n->out[0]];
    vfy_tensor map;
    vfy_status st = selection_map(&c, n->op == VFY_OP_SLICE    ? infer_slice
                                      : n->op == VFY_OP_GATHER ? infer_gather
                                                               : infer_expand_tile, &map);
    if (st)
        return st;
    int64_t n_in = g->values[n->in[0]].t.numel;
    lmat M;
    if ((st = lmat_init(lc, n, &M, map.numel, n_in)) == VFY_OK) {
        for (int64_t k = 0; k < map.numel; k++)
            lmat_add(&M, k, map.i[k], 1);
        st = lmat_push(lc, n, &M, 0, 1);
    }
    vfy_tensor_clear(&map);
    return st;
}

/* Resize, Upsample (resize_get): the selection of each output's input, entries 1, fan_in 1. */
static vfy_status lower_resize(lctx *lc, const vfy_node *n)
{
    const vfy_tensor *x = &lc->g->values[n->in[0]].t;
    resize_info ri;
    vfy_status st = resize_get(lc->g, n, x, &ri, lc->err);
    int64_t n_out = lc->g->values[n->out[0]].t.numel;
    lmat M;
    if (st == VFY_OK && (st = lmat_init(lc, n, &M, n_out, x->numel)) == VFY_OK) {
        for (int64_t k = 0; k < n_out; k++) {
            int64_t rest = k, src = 0, stride = 1;
            for (int d = ri.rank - 1; d >= 0; d--) {
                src += ri.idx[d][rest % ri.out[d]] * stride;
                rest /= ri.out[d];
                stride *= x->shape[d];
            }
            lmat_add(&M, k, src, 1);
        }
        st = lmat_push(lc, n, &M, 0, 1);
    }
    resize_free(&ri);
    return st;
}

static vfy_status lower_node(lctx *lc, const vfy_node *n, int ci)
{
    int64_t len = lc->g->values[n->out[0]].t.numel;
    switch (n->op) {
    case VFY_OP_IDENTITY:
    case VFY_OP_DROPOUT:
    case VFY_OP_RESHAPE:
    case VFY_OP_FLATTEN:
    case VFY_OP_SQUEEZE:
    case VFY_OP_UNSQUEEZE:
    case VFY_OP_CAST: /* only widening casts reach here (vfy_graph_infer) */
        return VFY_OK;
    case VFY_OP_RELU: return push(lc, n, VFY_LAYER_RELU, len, len, NULL, NULL, 0, 1);
    case VFY_OP_SIGMOID: return push(lc, n, VFY_LAYER_SIGMOID, len, len, NULL, NULL, 0, 1);
    case VFY_OP_TANH: return push(lc, n, VFY_LAYER_TANH, len, len, NULL, NULL, 0, 1);
    case VFY_OP_ERF: return push(lc, n, VFY_LAYER_ERF, len, len, NULL, NULL, 0, 1);
    case VFY_OP_GELU: return push(lc, n, VFY_LAYER_GELU, len, len, NULL, NULL, 0, 1);
    case VFY_OP_SWISH: return push(lc, n, VFY_LAYER_SILU, len, len, NULL, NULL, 0, 1);
    case VFY_OP_ERFGATE: return push(lc, n, VFY_LAYER_ERFGATE, len, len, NULL, NULL, 0, 1);
    case VFY_OP_SIGN: return push(lc, n, VFY_LAYER_SIGN, len, len, NULL, NULL, 0, 1);
    /* (fan_in 1: standalone, not a Softmax's, vfy_layer_in_softmax) */
    case VFY_OP_EXP: return push(lc, n, VFY_LAYER_EXP, len, len, NULL, NULL, 0, 1);
    case VFY_OP_LOG: return push(lc, n, VFY_LAYER_LOG, len, len, NULL, NULL, 0, 1);
    case VFY_OP_SQRT: return push(lc, n, VFY_LAYER_SQRT, len, len, NULL, NULL, 0, 1);
    case VFY_OP_RECIPROCAL: return push(lc, n, VFY_LAYER_RECIP, len, len, NULL, NULL, 0, 1);
    case VFY_OP_SOFTPLUS: return push(lc, n, VFY_LAYER_SOFTPLUS, len, len, NULL, NULL, 0, 1);
    case VFY_OP_SIN: return push(lc, n, VFY_LAYER_SIN, len, len, NULL, NULL, 0, 1);
    case VFY_OP_COS: return push(lc, n, VFY_LAYER_COS, len, len, NULL, NULL, 0, 1);
    case VFY_OP_TRANSPOSE: return lower_transpose(lc, n);
    case VFY_OP_MATMUL: return lower_matmul(lc, n, ci);
    case VFY_OP_GEMM: return lower_gemm(lc, n, ci);
    case VFY_OP_ADD:
    case VFY_OP_SUB:
    case VFY_OP_MUL:
    case VFY_OP_DIV:
    case VFY_OP_NEG: return lower_elementwise(lc, n, ci);
    case VFY_OP_CONV: return lower_conv(lc, n);
    case VFY_OP_CONV_TRANSPOSE: return lower_conv_transpose(lc, n);
    case VFY_OP_RESIZE:
    case VFY_OP_UPSAMPLE: return lower_resize(lc, n);
    case VFY_OP_AVERAGE_POOL:
    case VFY_OP_GLOBAL_AVERAGE_POOL: return lower_avgpool(lc, n);
    case VFY_OP_MAX_POOL: return lower_maxpool(lc, n);
    case VFY_OP_LEAKY_RELU:
    case VFY_OP_PRELU:
    case VFY_OP_ABS:
    case VFY_OP_MAX:
    case VFY_OP_MIN:
    case VFY_OP_CLIP: return lower_pwl(lc, n, len);
    case VFY_OP_BATCH_NORM: return lower_batchnorm(lc, n);
    case VFY_OP_PAD: return lower_pad(lc, n);
    case VFY_OP_SLICE:
    case VFY_OP_EXPAND:
    case VFY_OP_TILE:
    case VFY_OP_GATHER: return lower_select(lc, n);
    case VFY_OP_REDUCE_MEAN:
    case VFY_OP_REDUCE_SUM: return lower_reduce(lc, n);
    case VFY_OP_REDUCE_MAX:
    case VFY_OP_REDUCE_MIN: return lower_reduce_max(lc, n);
    case VFY_OP_GLOBAL_MAX_POOL: return lower_maxpool(lc, n);
    case VFY_OP_SOFTMAX: return lower_softmax(lc, n);
    case VFY_OP_LOG_SOFTMAX: /* (the output's is taken out of the graph by vfy_graph_lower) */
        return nfail(lc->g, n, lc->err, VFY_ERR_UNSUPPORTED, "is supported only as the network's "
                     "last operation, over all of its output");
    default:
        return nfail(lc->g, n, lc->err, VFY_ERR_UNSUPPORTED, "unsupported operator");
    }
}

/* ---- graphs whose computed path branches ----
 *
 * A vfy_net is a chain, so a value read again later (the skip input of a residual connection, an
 * input of a computed Concat) travels along the layers between its producer and its last reader.
 * The chain's vector is then a sequence of slots, one computed value each: those carried, and last
 * the value the current node works on. An affine layer copies a carried value (rows with the one
 * coefficient 1, exact in every semantics). An activation layer acts on all of its inputs, so a
 * carried value enters it in a form that the activation leaves unchanged:
 *   NONNEG  a value >= 0 in every semantics (a ReLU's output, copies of it, a max of them):
 *           relu(x) = x;
 *   SPLIT   any x as the pair (p, q) = (relu(x), relu(-x)), stored at [off, off+len) and
 *           [off+len, off+2 len): x = p - q exactly, and p, q >= 0 are NONNEG in turn.
 * A PLAIN carried value (of either sign) becomes SPLIT at the next ReLU layer: the affine layer
 * before it gains the rows x and -x (negated copies of its own rows: exact). Every reader of a SPLIT
 * value uses p - q. Sigmoid and Tanh have no such form: they act on the work only, the carried
 * slots placed first and passed through unchanged (the layer's n_pass). A
 * MaxPool carries a value through windows of one element.
 * In a float execution the added rows compute x, -x and p - q exactly (one of p, q is 0), and a
 * reader's row W p - W q + b sums the same nonzero products as W x + b; the allowance charged from
 * the node's fan_in covers |W| |x| = |W| p + |W| q, so it stays sound. */

enum { FORM_PLAIN, FORM_NONNEG, FORM_SPLIT };

typedef struct lslot {
    int64_t value; /* its representative value: aliases (Reshape, Flatten...) share one slot */
    int64_t len;   /* elements of the value */
    int64_t last;  /* the last node reading it or an alias of it; n_nodes for the graph's output */
    int form;
} lslot;

static int64_t slot_width(const lslot *s) { return s->form == FORM_SPLIT ? 2 * s->len : s->len; }

/* The vector while a node's layers are emitted: the carried slots at offsets co[], the work (the
 * node's value in progress) at woff, wlen elements in form wform. */
typedef struct emb {
    lslot *cs;
    int64_t *co;
    int nc;
    int64_t woff, wlen;
    int wform;
    int64_t width;
} emb;

/* After a layer that writes [carried..., work]: offsets in order, the work last. */
static void emb_pack(emb *e, int64_t wlen, int wform)
{
    int64_t off = 0;
    for (int i = 0; i < e->nc; i++) {
        e->co[i] = off;
        off += slot_width(&e->cs[i]);
    }
    e->woff = off;
    e->wlen = wlen;
    e->wform = wform;
    e->width = off + (wform == FORM_SPLIT ? 2 * wlen : wlen);
}

/* Rows copying the carried slots into M (columns: e->width), a PLAIN slot as x and -x when
 * split_plain (its form becomes SPLIT); returns the number of rows written. */
static int64_t carry_rows(emb *e, lmat *M, int split_plain)
{
    int64_t r = 0;
    for (int i = 0; i < e->nc; i++) {
        lslot *s = &e->cs[i];
        int64_t o = e->co[i], len = s->len;
        for (int64_t j = 0; j < len; j++)
            lmat_add(M, r + j, o + j, 1);
        if (s->form == FORM_SPLIT) {
            for (int64_t j = 0; j < len; j++)
                lmat_add(M, r + len + j, o + len + j, 1);
        } else if (s->form == FORM_PLAIN && split_plain) {
            for (int64_t j = 0; j < len; j++)
                lmat_add(M, r + len + j, o + j, -1);
            s->form = FORM_SPLIT;
        }
        r += slot_width(s);
    }
    return r;
}

/* Coefficient c on element j of the work in row r of M, whatever the work's form. */
static void work_coef(const emb *e, lmat *M, int64_t r, int64_t j, double c)
{
    lmat_add(M, r, e->woff + j, c);
    if (e->wform == FORM_SPLIT)
        lmat_add(M, r, e->woff + e->wlen + j, -c);
}

static int carried_plain(const emb *e)
{
    for (int i = 0; i < e->nc; i++)
        if (e->cs[i].form == FORM_PLAIN)
            return 1;
    return 0;
}

/* One DENSE layer copying the carried slots (PLAIN ones split when split_plain) and the work
 * (merged to PLAIN when SPLIT). Folded into the previous DENSE layer when every row is a copy or a
 * negation of one of its rows (always exact). */
static vfy_status emit_copy(lctx *lc, const vfy_node *n, emb *e, int split_plain)
{
    int64_t rows = 0;
    for (int i = 0; i < e->nc; i++)
        rows += (split_plain && e->cs[i].form == FORM_PLAIN ? 2 : 1) * slot_width(&e->cs[i]);
    rows += e->wlen;
    lmat M;
    vfy_status st = lmat_init(lc, n, &M, rows, e->width);
    if (st)
        return st;
    int64_t r0 = carry_rows(e, &M, split_plain);
    for (int64_t j = 0; j < e->wlen; j++)
        work_coef(e, &M, r0 + j, j, 1.0);
    int wform = e->wform == FORM_SPLIT ? FORM_PLAIN : e->wform;
    vfy_net *net = lc->net;
    vfy_layer *P = net->n_layers ? &net->layers[net->n_layers - 1] : NULL;
    if (P && P->kind == VFY_LAYER_DENSE && P->n_out == e->width && e->wform != FORM_SPLIT &&
        !M.oom) {
        /* every row of M has one coefficient, +1 or -1: the folded row is P's row or its
         * negation */
        lmat F;
        if ((st = lmat_init(lc, n, &F, rows, P->n_in))) {
            lmat_clear(&M);
            return st;
        }
        for (int64_t q = 0; q < M.nnz; q++) {
            int64_t r = M.r[q], c = M.c[q];
            const int64_t *idx;
            const double *val;
            int64_t nz;
            vfy_layer_row(P, c, &idx, &val, &nz);
            for (int64_t t = 0; t < nz; t++)
                lmat_add(&F, r, idx ? idx[t] : t, M.v[q] * val[t]);
            F.b[r] = M.v[q] * P->b[c];
        }
        lmat_clear(&M);
        double *w;
        vfy_csr *csr;
        if ((st = lmat_finish(lc, n, &F, &w, &csr))) {
            lmat_clear(&F);
            return st;
        }
        vfy_free(P->w);
        vfy_la_csr_free(P->csr);
        vfy_free(P->b);
        P->w = w;
        P->csr = csr;
        P->b = F.b;
        P->n_out = rows;
    } else {
        if ((st = lmat_push(lc, n, &M, 0, 1)))
            return st;
    }
    emb_pack(e, e->wlen, wform);
    return VFY_OK;
}

/* An affine layer L of the node, applied to the work, the carried slots copied. */
static vfy_status emit_affine_embedded(lctx *lc, const vfy_node *n, emb *e, const vfy_layer *L)
{
    int64_t cw = 0;
    int in_place = e->wform != FORM_SPLIT;
    for (int i = 0; i < e->nc; i++) {
        in_place = in_place && e->co[i] == cw;
        cw += slot_width(&e->cs[i]);
    }
    in_place = in_place && e->woff == cw;
    double *W, *b;
    vfy_status st;
    if (L->kind == VFY_LAYER_SCALE && in_place) {
        /* the work is last and every slot keeps its place: a SCALE with 1 on the carried slots */
        int64_t len = cw + L->n_out;
        W = vfy_alloc_array((size_t)len, sizeof *W);
        b = vfy_alloc_array((size_t)len, sizeof *b);
        if (!W || !b) {
            vfy_free(W);
            vfy_free(b);
            return NOMEM(lc->g, n, lc->err);
        }
        for (int64_t j = 0; j < cw; j++)
            W[j] = 1;
        memcpy(W + cw, L->w, (size_t)L->n_out * sizeof *W);
        memcpy(b + cw, L->b, (size_t)L->n_out * sizeof *b);
        if ((st = push(lc, n, VFY_LAYER_SCALE, len, len, W, b, L->w_relerr, L->fan_in)))
            return st;
        emb_pack(e, L->n_out, FORM_PLAIN);
        return VFY_OK;
    }
    int64_t rows = cw + L->n_out;
    lmat M;
    if ((st = lmat_init(lc, n, &M, rows, e->width)))
        return st;
    int64_t r0 = carry_rows(e, &M, 0);
    for (int64_t o = 0; o < L->n_out; o++) {
        if (L->kind == VFY_LAYER_SCALE) {
            work_coef(e, &M, r0 + o, o, L->w[o]);
        } else {
            const int64_t *idx;
            const double *val;
            int64_t nz;
            vfy_layer_row(L, o, &idx, &val, &nz);
            for (int64_t t = 0; t < nz; t++)
                work_coef(e, &M, r0 + o, idx ? idx[t] : t, val[t]);
        }
        M.b[r0 + o] = L->b[o];
    }
    if ((st = lmat_push(lc, n, &M, L->w_relerr, L->fan_in)))
        return st;
    emb_pack(e, L->n_out, FORM_PLAIN);
    return VFY_OK;
}

static vfy_status emit_maxpool_embedded(lctx *lc, const vfy_node *n, emb *e, const vfy_layer *L)
{
    vfy_status st;
    if (e->wform == FORM_SPLIT && (st = emit_copy(lc, n, e, 0)))
        return st;
    int64_t cw = e->woff, k = L->pool_k, rows = 0;
    for (int i = 0; i < e->nc; i++)
        rows += slot_width(&e->cs[i]);
    int64_t *pool = vfy_alloc_array((size_t)((rows + L->n_out) * k), sizeof *pool);
    if (!pool)
        return NOMEM(lc->g, n, lc->err);
    int64_t r = 0;
    for (int i = 0; i < e->nc; i++)
        for (int64_t j = 0; j < slot_width(&e->cs[i]); j++, r++) {
            pool[r * k] = e->co[i] + j; /* a window of one element: the identity */
            for (int64_t t = 1; t < k; t++)
                pool[r * k + t] = -1;
        }
    for (int64_t o = 0; o < L->n_out; o++, r++)
        for (int64_t t = 0; t < k; t++) {
            int64_t src = L->pool[o * k + t];
            pool[r * k + t] = src >= 0 ? cw + src : -1;
        }
    st = vfy_net_push_maxpool(lc->net, e->width, rows + L->n_out, k, pool, n->name, lc->err);
    if (st)
        return st == VFY_ERR_NOMEM ? st : nfail(lc->g, n, lc->err, st, "%s", lc->err ? lc->err->msg : "");
    emb_pack(e, L->n_out, e->wform == FORM_NONNEG ? FORM_NONNEG : FORM_PLAIN);
    return VFY_OK;
}

/* The layers of T (the node lowered on its own input) applied to the work, the carried slots
 * travelling along; T's Conv registrations are lc's from conv_from on. */
static vfy_status emit_embedded(lctx *lc, const vfy_node *n, emb *e, const vfy_net *T,
                                int64_t conv_from)
{
    vfy_status st = VFY_OK;
    for (int64_t l = 0; l < T->n_layers && !st; l++) {
        const vfy_layer *L = &T->layers[l];
        switch (L->kind) {
        case VFY_LAYER_DENSE:
        case VFY_LAYER_SCALE: {
            int64_t woff = e->woff;
            if ((st = emit_affine_embedded(lc, n, e, L)))
                break;
            /* a Conv's layer: its rows are the layer's last, reading the work's columns */
            for (int64_t i = conv_from; i < lc->n_conv; i++)
                if (lc->conv_layer[i] == -1 - l) {
                    lc->conv_layer[i] = lc->net->n_layers - 1;
                    lc->conv_c0[i] = woff;
                }
            break;
        }
        case VFY_LAYER_MAXPOOL: st = emit_maxpool_embedded(lc, n, e, L); break;
        case VFY_LAYER_RELU:
            if ((carried_plain(e) || e->wform == FORM_SPLIT) && (st = emit_copy(lc, n, e, 1)))
                break;
            if (!(st = push(lc, n, VFY_LAYER_RELU, e->width, e->width, NULL, NULL, 0, 1)))
                emb_pack(e, e->wlen, FORM_NONNEG);
            break;
        default: { /* SIGMOID, TANH, SIGN, the convex kinds: the carried slots first, passed
                    * through (n_pass), the work last (a copy puts them so first); fan_in kept (a
                    * Softmax's EXP and RECIP hold its length there, net.h) */
            int64_t cw = 0;
            int packed = e->wform != FORM_SPLIT;
            for (int i = 0; i < e->nc; i++) {
                packed = packed && e->co[i] == cw;
                cw += slot_width(&e->cs[i]);
            }
            packed = packed && e->woff == cw && e->width == cw + e->wlen;
            if (!packed && (st = emit_copy(lc, n, e, 0)))
                break;
            if (!(st = push(lc, n, L->kind, e->width, e->width, NULL, NULL, 0, L->fan_in))) {
                lc->net->layers[lc->net->n_layers - 1].n_pass = e->woff;
                emb_pack(e, e->wlen, FORM_PLAIN);
            }
            break;
        }
        }
    }
    return st;
}

/* The lowering's state: the slots in vector order, and per value its representative. */
typedef struct dag {
    lslot *slot;
    int n;
    int64_t *rep;  /* per value: the value whose slot holds it, -1 before it is computed */
    int64_t *last; /* per value: the last live node reading it (n_nodes for the output), -1 none */
} dag;

static int slot_of(const dag *d, int64_t value)
{
    int64_t r = d->rep[value];
    for (int i = 0; i < d->n; i++)
        if (d->slot[i].value == r)
            return i;
    return -1;
}

static int64_t slot_off(const dag *d, int i)
{
    int64_t off = 0;
    for (int j = 0; j < i; j++)
        off += slot_width(&d->slot[j]);
    return off;
}

/* emb over the slots still read after node k (those read last by k dropped); the work unset. */
static void emb_from(const dag *d, int64_t k, emb *e)
{
    e->nc = 0;
    e->width = 0;
    for (int i = 0; i < d->n; i++) {
        if (d->slot[i].last > k) {
            e->cs[e->nc] = d->slot[i];
            e->co[e->nc++] = e->width;
        }
        e->width += slot_width(&d->slot[i]);
    }
    e->woff = e->wlen = 0;
    e->wform = FORM_PLAIN;
}

/* The work of e: slot s of d, where it stands in the vector now. */
static void emb_work_slot(emb *e, const dag *d, int s)
{
    e->woff = slot_off(d, s);
    e->wlen = d->slot[s].len;
    e->wform = d->slot[s].form;
}

/* The slots after node k: the carried ones, then its output. */
static void dag_commit(dag *d, const emb *e, int64_t out, int64_t last)
{
    for (int i = 0; i < e->nc; i++)
        d->slot[i] = e->cs[i];
    d->slot[e->nc] = (lslot){.value = out, .len = e->wlen, .last = last, .form = e->wform};
    d->n = e->nc + 1;
    d->rep[out] = out;
}

static int is_view_op(vfy_op op)
{
    return op == VFY_OP_IDENTITY || op == VFY_OP_DROPOUT || op == VFY_OP_RESHAPE ||
           op == VFY_OP_FLATTEN || op == VFY_OP_SQUEEZE || op == VFY_OP_UNSQUEEZE || op == VFY_OP_CAST;
}

/* Add or Sub of two computed tensors (broadcast either way), or Concat with computed inputs: one
 * DENSE layer whose rows have coefficients +-1 (a copy, a sum or difference of two elements). */
static vfy_status lower_combine(lctx *lc, const vfy_node *n, int64_t k, dag *d, emb *e)
{
    const vfy_graph *g = lc->g;
    const vfy_tensor *o = &g->values[n->out[0]].t;
    emb_from(d, k, e);
    int64_t cw = 0;
    for (int i = 0; i < e->nc; i++)
        cw += slot_width(&e->cs[i]);
    lmat M;
    vfy_status st = lmat_init(lc, n, &M, cw + o->numel, e->width);
    if (st)
        return st;
    carry_rows(e, &M, 0);
    emb src = *e;
    /* the source of input j's element i: its slot's offset and form */
    if (n->op == VFY_OP_ADD || n->op == VFY_OP_SUB) {
        for (int j = 0; j < 2; j++) {
            const vfy_value *x = &g->values[n->in[j]];
            int s = slot_of(d, n->in[j]);
            VFY_ASSERT(s >= 0);
            emb_work_slot(&src, d, s);
            double c = j == 1 && n->op == VFY_OP_SUB ? -1.0 : 1.0;
            for (int64_t i = 0; i < o->numel; i++)
                work_coef(&src, &M, cw + i, bcast_src(o->shape, o->rank, &x->t, i), c);
        }
    } else {
        int64_t axis;
        if ((st = attr_int(g, n, "axis", INT64_MIN, &axis, lc->err))) {
            lmat_clear(&M);
            return st;
        }
        axis = norm_axis(axis, o->rank);
        VFY_ASSERT(axis >= 0); /* checked by vfy_graph_infer */
        int64_t outer = 1, inner = 1, w = 0;
        for (int dd = 0; dd < axis; dd++)
            outer *= o->shape[dd];
        for (int dd = (int)axis + 1; dd < o->rank; dd++)
            inner *= o->shape[dd];
        for (int64_t q = 0; q < outer; q++)
            for (int64_t j = 0; j < n->n_in; j++) {
                const vfy_value *x = &g->values[n->in[j]];
                int64_t len = x->t.shape[axis] * inner;
                int s = x->is_const ? -1 : slot_of(d, n->in[j]);
                if (s >= 0)
                    emb_work_slot(&src, d, s);
                for (int64_t i = 0; i < len; i++, w++) {
                    if (s >= 0)
                        work_coef(&src, &M, cw + w, q * len + i, 1.0);
                    else
                        M.b[cw + w] = x->t.f[q * len + i]; /* SOUND: a float constant, exact */
                }
            }
        VFY_ASSERT(w == o->numel);
    }
    int64_t fan_in = n->op == VFY_OP_CONCAT ? 1 : 2;
    if ((st = lmat_push(lc, n, &M, 0, fan_in)))
        return st;
    emb_pack(e, o->numel, FORM_PLAIN);
    return VFY_OK;
}

/* P products of two computed values, the factors of product x being element src[x] of node n's
 * input 0 and element src[P + x] of its input 1 (with same, both factors come from input 0's
 * elements src[x]: a square): a DENSE layer of copies placing the factors side by side (exact in
 * every semantics), then a PRODUCT layer multiplying them; the carried slots are copied through
 * both. e is left on the P products. Takes ownership of nothing; src is the caller's. */
static vfy_status emit_products(lctx *lc, const vfy_node *n, int64_t kn, dag *d, emb *e,
                                int64_t P, const int64_t *src, int same)
{
    const vfy_graph *g = lc->g;
    int64_t n_fac = same ? 1 : 2;
    emb_from(d, kn, e);
    int64_t cw = 0;
    for (int i = 0; i < e->nc; i++)
        cw += slot_width(&e->cs[i]);
    lmat M;
    vfy_status st = lmat_init(lc, n, &M, cw + n_fac * P, e->width);
    if (st)
        return st;
    carry_rows(e, &M, 0);
    emb fe = *e;
    for (int64_t f = 0; f < n_fac; f++) {
        int s = slot_of(d, n->in[f]);
        VFY_ASSERT(s >= 0);
        emb_work_slot(&fe, d, s);
        for (int64_t x = 0; x < P; x++)
            work_coef(&fe, &M, cw + f * P + x, src[f * P + x], 1.0);
    }
    if ((st = lmat_push(lc, n, &M, 0, 1)))
        return st;
    emb_pack(e, n_fac * P, FORM_PLAIN);
    int64_t *pairs = vfy_alloc_array((size_t)(2 * (cw + P)), sizeof *pairs);
    if (!pairs)
        return NOMEM(g, n, lc->err);
    for (int64_t r = 0; r < cw; r++) {
        pairs[2 * r] = r; /* a carried element: its copy */
        pairs[2 * r + 1] = -1;
    }
    for (int64_t x = 0; x < P; x++) {
        pairs[2 * (cw + x)] = cw + x;
        pairs[2 * (cw + x) + 1] = cw + (same ? 0 : P) + x;
    }
    st = vfy_net_push_product(lc->net, e->width, cw + P, pairs, n->name, lc->err);
    if (st && st != VFY_ERR_NOMEM)
        return nfail(g, n, lc->err, st, "%s", lc->err ? lc->err->msg : "");
    if (st)
        return st;
    emb_pack(e, P, FORM_PLAIN);
    return VFY_OK;
}

/* Mul of two computed tensors (broadcast either way; Mul(x, x) a square): emit_products with
 * each output element's two sources. */
static vfy_status lower_product(lctx *lc, const vfy_node *n, int64_t k, dag *d, emb *e)
{
    const vfy_graph *g = lc->g;
    const vfy_tensor *o = &g->values[n->out[0]].t;
    int same = d->rep[n->in[0]] == d->rep[n->in[1]] &&
               g->values[n->in[0]].t.numel == o->numel && g->values[n->in[1]].t.numel == o->numel;
    int64_t len = o->numel;
    int64_t *src = vfy_alloc_array((size_t)(2 * len), sizeof *src);
    if (!src)
        return NOMEM(g, n, lc->err);
    for (int f = 0; f < 2; f++)
        for (int64_t i = 0; i < len; i++)
            src[f * len + i] = bcast_src(o->shape, o->rank, &g->values[n->in[f]].t, i);
    vfy_status st = emit_products(lc, n, k, d, e, len, src, same);
    vfy_free(src);
    return st;
}

/* MatMul of two computed tensors, y[q, i, j] = sum_t a[q, i, t] b[q, t, j] (numpy's broadcast
 * of the batch dimensions, mm_geom): emit_products for the k products of each output, then a
 * DENSE layer summing them (fan-in k: a float execution's sum, in any order, with or without
 * fma, which rounds no product: the product layer's allowance holds with no rounding too). The
 * carried slots travel along. */
static vfy_status lower_matmul2(lctx *lc, const vfy_node *n, int64_t kn, dag *d, emb *e)
{
    const vfy_graph *g = lc->g;
    const vfy_tensor *ta = &g->values[n->in[0]].t, *tb = &g->values[n->in[1]].t;
    mm_geom gm;
    int bad = mm_geom_get(ta, tb, &gm);
    VFY_ASSERT(bad == 0); /* (checked by vfy_graph_infer) */
    int64_t m = gm.m, k = gm.k, nn = gm.n, len = gm.nbatch * m * nn, P;
    if (__builtin_mul_overflow(len, k, &P) || P > VFY_MAX_ELEMS / 4)
        return nfail(g, n, lc->err, VFY_ERR_UNSUPPORTED, "%lld products of computed values are "
                     "too many (unsupported)", (long long)len * k);
    int64_t *src = vfy_alloc_array((size_t)(2 * P), sizeof *src);
    if (!src)
        return NOMEM(g, n, lc->err);
    for (int64_t q = 0; q < gm.nbatch; q++) {
        int64_t ia = bcast_src(gm.bshape, gm.rb, &gm.Ab, q) * m * k;
        int64_t ib = bcast_src(gm.bshape, gm.rb, &gm.Bb, q) * k * nn;
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < nn; j++)
                for (int64_t t = 0; t < k; t++) {
                    int64_t x = ((q * m + i) * nn + j) * k + t;
                    src[x] = ia + i * k + t;
                    src[P + x] = ib + t * nn + j;
                }
    }
    vfy_status st = emit_products(lc, n, kn, d, e, P, src, 0);
    vfy_free(src);
    if (st)
        return st;
    int64_t cw = e->woff;
    lmat M;
    if ((st = lmat_init(lc, n, &M, cw + len, e->width)))
        return st;
    carry_rows(e, &M, 0);
    for (int64_t o = 0; o < len; o++)
        for (int64_t t = 0; t < k; t++)
            work_coef(e, &M, cw + o, o * k + t, 1.0);
    if ((st = lmat_push(lc, n, &M, 0, k)))
        return st;
    emb_pack(e, len, FORM_PLAIN);
    return VFY_OK;
}

/* Node k with one computed input, on a vector that carries other values or holds the input in
 * another form: the node is lowered on its own input into T, then T's layers are embedded. */
static vfy_status lower_carrying(lctx *lc, const vfy_node *n, int64_t k, int ci, dag *d, emb *e)
{
    const vfy_graph *g = lc->g;
    int64_t in = n->in[ci], out = n->out[0];
    int s = slot_of(d, in);
    VFY_ASSERT(s >= 0);
    vfy_net *T = vfy_alloc(sizeof *T);
    if (!T)
        return NOMEM(g, n, lc->err);
    T->n_in = g->values[in].t.numel;
    vfy_net *main_net = lc->net;
    lc->net = T;
    int64_t conv_from = lc->n_conv;
    vfy_status st = lower_node(lc, n, ci);
    lc->net = main_net;
    for (int64_t i = conv_from; i < lc->n_conv; i++)
        lc->conv_layer[i] = -1 - lc->conv_layer[i];
    /* a ReLU of a value >= 0 is that value: an alias too (else the ReLU layer, acting in place on
     * the slot that is also carried, would leave two slots where the vector has one) */
    int relu_nonneg = T->n_layers == 1 && T->layers[0].kind == VFY_LAYER_RELU &&
                      d->slot[s].form == FORM_NONNEG;
    if (st == VFY_OK && (T->n_layers == 0 || relu_nonneg)) {
        /* the output is the input's elements in the same order: an alias */
        d->rep[out] = d->rep[in];
        if (d->last[out] > d->slot[s].last)
            d->slot[s].last = d->last[out];
    } else if (st == VFY_OK) {
        emb_from(d, k, e);
        emb_work_slot(e, d, s);
        if ((st = emit_embedded(lc, n, e, T, conv_from)) == VFY_OK)
            dag_commit(d, e, out, d->last[out]);
    }
    for (int64_t i = conv_from; i < lc->n_conv; i++)
        if (lc->conv_layer[i] < 0)
            lc->conv_layer[i] = -1;
    vfy_net_free(T);
    return st;
}

/* ---- selections folded away ---- */

/* Whether layer k of lc's net was lowered from a Conv (its form is kept: vfy_net_bind_conv). */
static int is_conv_layer(const lctx *lc, int64_t k)
{
    for (int64_t i = 0; i < lc->n_conv; i++)
        if (lc->conv_layer[i] == k)
            return 1;
    return 0;
}

/* Whether layer k only selects: DENSE (dense or CSR), not from a Conv, every row one nonzero
 * coefficient, exactly 1, and a zero bias; sel[o] the input row o copies. What the lowering
 * emits for a Slice, Concat or Split of carried values, and for vfy_graph_set_io's joins. */
static int is_selection(const lctx *lc, int64_t k, int64_t *sel)
{
    const vfy_layer *L = &lc->net->layers[k];
    if (L->kind != VFY_LAYER_DENSE || L->w_relerr != 0 || is_conv_layer(lc, k))
        return 0;
    for (int64_t o = 0; o < L->n_out; o++) {
        const int64_t *idx;
        const double *val;
        int64_t nz;
        if (L->b[o] != 0)
            return 0;
        vfy_layer_row(L, o, &idx, &val, &nz);
        sel[o] = -1;
        for (int64_t t = 0; t < nz; t++) {
            if (val[t] == 0)
                continue;
            if (val[t] != 1 || sel[o] >= 0)
                return 0;
            sel[o] = idx ? idx[t] : t;
        }
        if (sel[o] < 0)
            return 0;
    }
    return 1;
}

/* A DENSE layer (dense or CSR), not from a Conv, that a selection may join. */
static int plain_dense(const lctx *lc, int64_t k)
{
    return lc->net->layers[k].kind == VFY_LAYER_DENSE && !is_conv_layer(lc, k);
}

/* T's rows sel[0..n) (T P's matrix becomes S P: P's rows picked, bias likewise). */
static vfy_status pick_rows(vfy_layer *T, const int64_t *sel, int64_t n)
{
    double *b = vfy_alloc_array((size_t)n, sizeof *b);
    if (!b)
        return VFY_ERR_NOMEM;
    for (int64_t o = 0; o < n; o++)
        b[o] = T->b[sel[o]];
    if (T->csr) {
        int64_t nnz = 0;
        for (int64_t o = 0; o < n; o++)
            nnz += T->csr->row_start[sel[o] + 1] - T->csr->row_start[sel[o]];
        vfy_csr *c = vfy_la_csr_alloc(n, T->n_in, nnz);
        if (!c) {
            vfy_free(b);
            return VFY_ERR_NOMEM;
        }
        for (int64_t o = 0, q = 0; o < n; o++) {
            for (int64_t t = T->csr->row_start[sel[o]]; t < T->csr->row_start[sel[o] + 1];
                 t++, q++) {
                c->col[q] = T->csr->col[t];
                c->val[q] = T->csr->val[t];
            }
            c->row_start[o + 1] = q;
        }
        c->nnz = nnz;
        vfy_la_csr_free(T->csr);
        T->csr = c;
    } else {
        double *w = vfy_alloc_array((size_t)(n * T->n_in), sizeof *w);
        if (!w) {
            vfy_free(b);
            return VFY_ERR_NOMEM;
        }
        for (int64_t o = 0; o < n; o++)
            memcpy(w + o * T->n_in, T->w + sel[o] * T->n_in, (size_t)T->n_in * sizeof *w);
        vfy_free(T->w);
        T->w = w;
    }
    vfy_free(T->b);
    T->b = b;
    T->n_out = n;
    return VFY_OK;
}

/* T's column o moved to sel[o] among n_in columns (N S: S reads each column once). */
static vfy_status move_columns(vfy_layer *T, const int64_t *sel, int64_t n_in)
{
    if (T->csr) { /* the columns renamed; each row's entries kept in column order */
        vfy_csr *c = T->csr;
        for (int64_t t = 0; t < c->nnz; t++)
            c->col[t] = sel[c->col[t]];
        for (int64_t r = 0; r < c->m; r++)
            for (int64_t t = c->row_start[r] + 1; t < c->row_start[r + 1]; t++)
                for (int64_t u = t; u > c->row_start[r] && c->col[u - 1] > c->col[u]; u--) {
                    int64_t ci = c->col[u];
                    double cv = c->val[u];
                    c->col[u] = c->col[u - 1];
                    c->val[u] = c->val[u - 1];
                    c->col[u - 1] = ci;
                    c->val[u - 1] = cv;
                }
        c->n = n_in;
    } else {
        if ((double)T->n_out * (double)n_in > (double)VFY_MAX_ELEMS)
            return VFY_ERR_UNSUPPORTED; /* (not folded: too large a dense matrix) */
        double *w = vfy_alloc_array((size_t)(T->n_out * n_in), sizeof *w);
        if (!w)
            return VFY_ERR_NOMEM;
        for (int64_t i = 0; i < T->n_out; i++)
            for (int64_t o = 0; o < T->n_in; o++)
                w[i * n_in + sel[o]] = T->w[i * T->n_in + o];
        vfy_free(T->w);
        T->w = w;
    }
    T->n_in = n_in;
    return VFY_OK;
}

/* Fold each selection layer S away, exactly, in both real and float arithmetic:
 *  - S the identity, next to another DENSE layer: dropped;
 *  - after a DENSE layer P: S P is P's rows picked (its bias likewise); every output is one of
 *    P's row sums, computed as the model computes it (P's fan-in and allowance);
 *  - else before a DENSE layer N, when S reads each input at most once: N S has N's coefficients
 *    moved to the columns S reads (zeros elsewhere), the same terms in each sum.
 * (Reading an input twice, N S would add two coefficients into one: another float computation.)
 * Layers lowered from a Conv keep their form. */
static vfy_status fold_selections(lctx *lc)
{
    vfy_net *net = lc->net;
    vfy_status st = VFY_OK;
    for (int64_t k = 0; k < net->n_layers && st == VFY_OK;) {
        vfy_layer *S = &net->layers[k];
        int64_t *sel = vfy_alloc_array((size_t)S->n_out + 1, sizeof *sel);
        char *seen = vfy_alloc((size_t)S->n_in + 1);
        if (!sel || !seen) {
            st = VFY_ERR_NOMEM;
        } else if (is_selection(lc, k, sel)) {
            int identity = S->n_in == S->n_out, fwd = 1;
            for (int64_t o = 0; o < S->n_out; o++) {
                identity &= sel[o] == o;
                fwd &= !seen[sel[o]]++;
            }
            int removed = 1;
            /* an identity goes where a DENSE layer stays beside what it joined (the pattern of
             * the two folds below); else it stays, as an activation's affine neighbour */
            if (identity && ((k > 0 && net->layers[k - 1].kind == VFY_LAYER_DENSE) ||
                             (k + 1 < net->n_layers && net->layers[k + 1].kind == VFY_LAYER_DENSE)))
                ;
            else if (k > 0 && plain_dense(lc, k - 1))
                st = pick_rows(&net->layers[k - 1], sel, S->n_out);
            else if (fwd && k + 1 < net->n_layers && plain_dense(lc, k + 1))
                st = move_columns(&net->layers[k + 1], sel, S->n_in);
            else
                removed = 0;
            if (st == VFY_ERR_UNSUPPORTED) /* (left as it is) */
                st = VFY_OK, removed = 0;
            if (removed && st == VFY_OK) {
                vfy_free(S->w);
                vfy_free(S->b);
                vfy_la_csr_free(S->csr);
                memmove(S, S + 1, (size_t)(net->n_layers - k - 1) * sizeof *S);
                net->n_layers--;
                for (int64_t i = 0; i < lc->n_conv; i++)
                    if (lc->conv_layer[i] > k)
                        lc->conv_layer[i]--;
                k = k > 0 ? k - 1 : 0; /* (the layer before may now be followed by another) */
                vfy_free(sel);
                vfy_free(seen);
                continue;
            }
        }
        vfy_free(sel);
        vfy_free(seen);
        k++;
    }
    return st == VFY_ERR_NOMEM ? vfy_fail(lc->err, st, "%s: out of memory", lc->g->file) : st;
}

/* net->ins / net->outs from the graph's inputs and outputs (one of each when vfy_graph_set_io was
 * not called: g->input and g->output). */
static vfy_status describe_io(const vfy_graph *g, vfy_net *net, vfy_error *err)
{
    for (int k = 0; k < 2; k++) {
        int64_t n = k ? g->n_outputs : g->n_inputs;
        const int64_t *vals = k ? g->outputs : g->inputs;
        if (!n) {
            n = 1;
            vals = k ? &g->output : &g->input;
        }
        vfy_net_io *io = vfy_alloc_array((size_t)n, sizeof *io);
        if (!io)
            return vfy_fail(err, VFY_ERR_NOMEM, "%s: out of memory", g->file);
        *(k ? &net->outs : &net->ins) = io;
        *(k ? &net->n_outs : &net->n_ins) = n;
        for (int64_t j = 0, off = 0; j < n; j++) {
            const vfy_value *v = &g->values[vals[j]];
            static const int onnx_code[VFY_DT_COUNT] = {1, 11, 7, 6, 9};
            io[j] = (vfy_net_io){.rank = v->t.rank, .numel = v->t.numel, .off = off,
                                 .onnx_type = onnx_code[v->t.dtype]};
            memcpy(io[j].shape, v->t.shape, sizeof io[j].shape);
            off += v->t.numel;
            if (!(io[j].name = vfy_strdup(v->name)))
                return vfy_fail(err, VFY_ERR_NOMEM, "%s: out of memory", g->file);
        }
    }
    return VFY_OK;
}

double vfy_lower_max_bytes(const vfy_lower_limits *lim)
{
    if (lim && lim->max_bytes > 0)
        return lim->max_bytes;
    double phys = vfy_physical_memory_bytes();
    return phys > 0 ? 0.5 * phys : 8.0 * 1073741824.0; /* (unknown: 8 GB) */
}

/* The entries the live Conv nodes of g lower to (each output, its kernel's window; padding
 * counted), in bytes as a CSR holds them; *big: the largest node. A lower estimate of the
 * lowered network's size, known before anything is built. */
static double conv_bytes(const vfy_graph *g, const char *live, int64_t *big)
{
    double sum = 0, most = -1;
    *big = -1;
    for (int64_t k = 0; k < g->n_nodes; k++) {
        const vfy_node *n = &g->nodes[k];
        if (!live[k] || n->op != VFY_OP_CONV || n->n_in < 2 || n->in[1] < 0 ||
            g->values[n->out[0]].is_const)
            continue;
        const vfy_tensor *wt = &g->values[n->in[1]].t;
        double per = 1;
        for (int d = 1; d < wt->rank; d++) /* (C/group) x kernel */
            per *= (double)wt->shape[d];
        double b = 16.0 * per * (double)g->values[n->out[0]].t.numel;
        sum += b;
        if (b > most) {
            most = b;
            *big = k;
        }
    }
    return sum;
}

vfy_status vfy_graph_lower(const vfy_graph *g, vfy_net **out, vfy_error *err)
{
    return vfy_graph_lower_limited(g, NULL, out, err);
}

vfy_status vfy_graph_lower_limited(const vfy_graph *g, const vfy_lower_limits *lim, vfy_net **out,
                                   vfy_error *err)
{
    vfy_status st = VFY_OK;
    char *live = NULL;
    dag d = {0};
    emb e = {0};
    *out = NULL;
    vfy_net *net = vfy_alloc(sizeof *net);
    if (!net)
        return vfy_fail(err, VFY_ERR_NOMEM, "%s: out of memory", g->file);
    lctx lc = {.g = g, .net = net, .err = err, .dl = lim ? lim->dl : NULL,
               .max_bytes = vfy_lower_max_bytes(lim), .main = net};
    VFY_ASSERT(g->input >= 0 && g->output >= 0);
    const vfy_value *iv = &g->values[g->input], *ov = &g->values[g->output];
    if (!ov->is_shaped || iv->is_const || ov->is_const) {
        st = vfy_fail(err, VFY_ERR_UNSUPPORTED, "%s: output '%s' does not depend on input '%s'",
                      g->file, ov->name, iv->name);
        goto fail;
    }
    /* A Softmax or LogSoftmax giving the output over all of it stays out of the layers: they
     * compute its input (gout), and net->out_op says what follows (net.h) */
    int64_t gout = g->output, out_node = -1;
    if (ov->producer >= 0 && (g->nodes[ov->producer].op == VFY_OP_SOFTMAX ||
                              g->nodes[ov->producer].op == VFY_OP_LOG_SOFTMAX)) {
        const vfy_node *sn = &g->nodes[ov->producer];
        if (softmax_whole(sn, &g->values[sn->in[0]].t)) {
            out_node = ov->producer;
            gout = sn->in[0];
            net->out_op = sn->op == VFY_OP_SOFTMAX ? VFY_OUT_SOFTMAX : VFY_OUT_LOG_SOFTMAX;
        } else if (sn->op == VFY_OP_LOG_SOFTMAX) {
            st = nfail(g, sn, err, VFY_ERR_UNSUPPORTED, "supported only over all of the output: "
                       "every dimension but the axis of size 1, and an explicit axis for rank 1");
            goto fail;
        } /* (a Softmax over part of it is lowered as inside the graph: lower_softmax) */
    }
    net->n_in = iv->t.numel;
    net->n_out = ov->t.numel;
    net->in_rank = iv->t.rank;
    memcpy(net->in_shape, iv->t.shape, sizeof net->in_shape);
    net->out_rank = ov->t.rank;
    memcpy(net->out_shape, ov->t.shape, sizeof net->out_shape);
    if ((st = describe_io(g, net, err)))
        goto fail;
    size_t nv = (size_t)g->n_values + 1;
    live = live_nodes(g);
    if (live) { /* (refused before anything is built where the convolutions alone are too many) */
        int64_t big;
        double cb = conv_bytes(g, live, &big);
        if (cb > lc.max_bytes) {
            st = nfail(g, &g->nodes[big], err, VFY_ERR_UNSUPPORTED, "the network's convolutions "
                       "lower to %.0f MB of matrices, more than %.0f MB (the ceiling is half of "
                       "this machine's memory; this node is the largest): too large "
                       "(unsupported)", cb / 1048576.0, lc.max_bytes / 1048576.0);
            goto fail;
        }
    }
    d.rep = vfy_alloc_array(nv, sizeof *d.rep);
    d.last = vfy_alloc_array(nv, sizeof *d.last);
    /* at most one slot per computed value */
    d.slot = vfy_alloc_array(nv, sizeof *d.slot);
    e.cs = vfy_alloc_array(nv, sizeof *e.cs);
    e.co = vfy_alloc_array(nv, sizeof *e.co);
    if (!live || !d.rep || !d.last || !d.slot || !e.cs || !e.co) {
        st = vfy_fail(err, VFY_ERR_NOMEM, "%s: out of memory", g->file);
        goto fail;
    }
    for (int64_t v = 0; v < g->n_values; v++)
        d.rep[v] = d.last[v] = -1;
    for (int64_t k = 0; k < g->n_nodes; k++)
        if (live[k])
            for (int64_t j = 0; j < g->nodes[k].n_in; j++)
                if (g->nodes[k].in[j] >= 0)
                    d.last[g->nodes[k].in[j]] = k;
    d.last[gout] = g->n_nodes;
    d.rep[g->input] = g->input;
    d.slot[0] = (lslot){.value = g->input, .len = iv->t.numel, .last = d.last[g->input],
                        .form = FORM_PLAIN};
    d.n = 1;
    for (int64_t k = 0; k < g->n_nodes; k++) {
        const vfy_node *n = &g->nodes[k];
        if (!live[k] || g->values[n->out[0]].is_const || k == out_node)
            continue;
        if (vfy_deadline_over(lc.dl)) {
            st = lower_timeout(&lc, n);
            goto fail;
        }
        int ci = -1, n_comp = 0;
        for (int64_t j = 0; j < n->n_in; j++)
            if (n->in[j] >= 0 && !g->values[n->in[j]].is_const) {
                n_comp++;
                if (ci < 0)
                    ci = (int)j;
            }
        VFY_ASSERT(n_comp >= 1);
        int64_t o = n->out[0];
        if (n->op == VFY_OP_CONCAT ||
            (n_comp == 2 && (n->op == VFY_OP_ADD || n->op == VFY_OP_SUB))) {
            if ((st = lower_combine(&lc, n, k, &d, &e)))
                goto fail;
            dag_commit(&d, &e, o, d.last[o]);
            continue;
        }
        if (n_comp == 2 && (n->op == VFY_OP_MUL || n->op == VFY_OP_MATMUL)) {
            if ((st = n->op == VFY_OP_MUL ? lower_product(&lc, n, k, &d, &e)
                                          : lower_matmul2(&lc, n, k, &d, &e)))
                goto fail;
            dag_commit(&d, &e, o, d.last[o]);
            continue;
        }
        if (n_comp > 1) {
            st = nfail(g, n, err, VFY_ERR_UNSUPPORTED,
                       "combines two computed tensors (unsupported: only Add, Sub, Mul, MatMul and "
                       "Concat may combine the network's values)");
            goto fail;
        }
        int64_t in = n->in[ci];
        lslot *s0 = &d.slot[0];
        if (d.n == 1 && s0->value == d.rep[in] && s0->form != FORM_SPLIT && s0->last <= k) {
            /* a chain so far: the node is lowered in place (folding into the layer before it) */
            int64_t before = net->n_layers;
            if ((st = lower_node(&lc, n, ci)) != VFY_OK)
                goto fail;
            int form = FORM_PLAIN;
            if (is_view_op(n->op))
                form = s0->form;
            else if (n->op == VFY_OP_RELU && net->n_layers > before)
                form = FORM_NONNEG;
            *s0 = (lslot){.value = o, .len = g->values[o].t.numel, .last = d.last[o], .form = form};
            d.rep[o] = o;
            continue;
        }
        if ((st = lower_carrying(&lc, n, k, ci, &d, &e)))
            goto fail;
    }
    int s = slot_of(&d, gout);
    VFY_ASSERT(s >= 0 && d.slot[s].len == net->n_out);
    if (d.n != 1 || d.slot[0].form == FORM_SPLIT) {
        /* the output alone, in PLAIN form */
        emb_from(&d, g->n_nodes, &e);
        emb_work_slot(&e, &d, s);
        e.nc = 0;
        const vfy_node *pn = &g->nodes[g->values[gout].producer];
        lmat M;
        if ((st = lmat_init(&lc, pn, &M, e.wlen, e.width)))
            goto fail;
        for (int64_t j = 0; j < e.wlen; j++)
            work_coef(&e, &M, j, j, 1.0);
        if ((st = lmat_push(&lc, pn, &M, 0, 1)))
            goto fail;
    }
    if ((st = fold_selections(&lc)))
        goto fail;
    if ((st = vfy_net_validate(net, err)) != VFY_OK) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err ? err->msg : "");
        st = vfy_fail(err, st, "%s: %s", g->file, msg);
        goto fail;
    }
    /* lowered convolutions and pools are mostly zeros: the kernels then use their nonzeros only */
    if ((st = vfy_net_sparsify(net, VFY_SPARSE_DENSITY, VFY_SPARSE_MIN_ENTRIES, err)) != VFY_OK)
        goto fail;
    for (int64_t i = 0; i < lc.n_conv; i++)
        vfy_net_bind_conv(net, lc.conv_layer[i], &lc.conv_geom[i], lc.conv_c0[i]);
    *out = net;
    net = NULL;
fail:
    vfy_free(lc.conv_layer);
    vfy_free(lc.conv_geom);
    vfy_free(lc.conv_c0);
    vfy_free(live);
    vfy_free(d.rep);
    vfy_free(d.last);
    vfy_free(d.slot);
    vfy_free(e.cs);
    vfy_free(e.co);
    vfy_net_free(net);
    return st;
}
