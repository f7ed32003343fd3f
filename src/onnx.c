/* onnx: protobuf-c -> graph IR -> vfy_net. See include/vfy/onnx.h.
 *
 * The protobuf is validated while it is copied into the graph (names, references, dims, data sizes)
 * and freed before the graph is sorted, inferred and lowered: nothing built here points into it.
 * protobuf-c allocates through the vfy funnel, so the fail-the-Nth-allocation tests cover it too. */
#include "vfy/onnx.h"

#include "vfy/graph.h"
#include "onnx.pb-c.h"

#include <stdio.h>
#include <string.h>

/* protobuf-c allocator routed through vfy_alloc; remembers a failure so that a NULL from unpack can
 * be told apart (out of memory vs. not a protobuf). */
typedef struct pb_state {
    int failed;
} pb_state;

static void *pb_alloc(void *data, size_t size)
{
    void *p = vfy_alloc(size);
    if (!p)
        ((pb_state *)data)->failed = 1;
    return p;
}

static void pb_free(void *data, void *p)
{
    (void)data;
    vfy_free(p);
}

static const char *onnx_type_name(int32_t dt)
{
    static const char *const names[] = {
        "UNDEFINED", "FLOAT", "UINT8", "INT8", "UINT16", "INT16", "INT32", "INT64", "STRING", "BOOL",
        "FLOAT16", "DOUBLE", "UINT32", "UINT64", "COMPLEX64", "COMPLEX128", "BFLOAT16",
    };
    return (dt >= 0 && dt < (int32_t)(sizeof names / sizeof names[0])) ? names[dt] : "unknown";
}

static int dtype_from_onnx(int32_t dt, vfy_dtype *out)
{
    switch (dt) {
    case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT: *out = VFY_DT_FLOAT; return 0;
    case ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE: *out = VFY_DT_DOUBLE; return 0;
    case ONNX__TENSOR_PROTO__DATA_TYPE__INT64: *out = VFY_DT_INT64; return 0;
    case ONNX__TENSOR_PROTO__DATA_TYPE__INT32: *out = VFY_DT_INT32; return 0;
    case ONNX__TENSOR_PROTO__DATA_TYPE__BOOL: *out = VFY_DT_BOOL; return 0;
    default: return -1;
    }
}

static uint64_t le_bytes(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int k = n - 1; k >= 0; k--)
        v = v << 8 | p[k];
    return v;
}

/* Copy a TensorProto (with its data) into t. what names it in messages ("tensor 'W'"). */
static vfy_status load_tensor(const Onnx__TensorProto *tp, vfy_tensor *t, const char *file,
                              const char *what, vfy_error *err)
{
    if (tp->n_dims > VFY_MAX_RANK)
        return vfy_fail(err, VFY_ERR_UNSUPPORTED, "%s: %s has rank %zu (at most %d supported)", file,
                        what, tp->n_dims, VFY_MAX_RANK);
    int64_t numel = 1;
    for (size_t d = 0; d < tp->n_dims; d++) {
        if (tp->dims[d] < 0)
            return vfy_fail(err, VFY_ERR_INVALID, "%s: %s has a negative dim %lld", file, what,
                            (long long)tp->dims[d]);
        if (__builtin_mul_overflow(numel, tp->dims[d], &numel) || numel > VFY_MAX_ELEMS)
            return vfy_fail(err, VFY_ERR_UNSUPPORTED, "%s: %s is too large", file, what);
        t->shape[d] = tp->dims[d];
    }
    t->rank = (int)tp->n_dims;
    t->numel = numel;
    if (tp->segment || (tp->has_data_location &&
                        tp->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL))
        return vfy_fail(err, VFY_ERR_UNSUPPORTED, "%s: %s uses external or segmented data "
                        "(unsupported)", file, what);
    if (dtype_from_onnx(tp->data_type, &t->dtype))
        return vfy_fail(err, VFY_ERR_UNSUPPORTED, "%s: %s has data type %s (%d) (unsupported)", file,
                        what, onnx_type_name(tp->data_type), (int)tp->data_type);
    /* Sizes are checked before allocating, so a hostile dims field cannot make us allocate. */
    int esize = t->dtype == VFY_DT_BOOL ? 1
              : (t->dtype == VFY_DT_FLOAT || t->dtype == VFY_DT_INT32) ? 4 : 8;
    int raw = tp->has_raw_data && tp->raw_data.len > 0;
    size_t have = t->dtype == VFY_DT_FLOAT ? tp->n_float_data
                : t->dtype == VFY_DT_DOUBLE ? tp->n_double_data
                : t->dtype == VFY_DT_INT64 ? tp->n_int64_data : tp->n_int32_data; /* (BOOL too) */
    if (raw && tp->raw_data.len != (size_t)numel * (size_t)esize)
        return vfy_fail(err, VFY_ERR_INVALID, "%s: %s has %zu bytes of raw data, expected %lld",
                        file, what, tp->raw_data.len, (long long)numel * esize);
    if (!raw && have != (size_t)numel)
        return vfy_fail(err, VFY_ERR_INVALID, "%s: %s %s (%zu values for %lld elements)", file, what,
                        have == 0 ? "has no data" : "has the wrong amount of data", have,
                        (long long)numel);
    if (t->dtype == VFY_DT_FLOAT || t->dtype == VFY_DT_DOUBLE)
        t->f = vfy_alloc_array((size_t)numel + 1, sizeof *t->f);
    else
        t->i = vfy_alloc_array((size_t)numel + 1, sizeof *t->i);
    if (!t->f && !t->i)
        return vfy_fail(err, VFY_ERR_NOMEM, "%s: out of memory loading %s", file, what);
    if (raw) {
        const uint8_t *p = tp->raw_data.data;
        for (int64_t k = 0; k < numel; k++, p += esize) {
            uint64_t u = le_bytes(p, esize);
            switch (t->dtype) {
            case VFY_DT_FLOAT: {
                uint32_t u32 = (uint32_t)u;
                float f;
                memcpy(&f, &u32, sizeof f);
                t->f[k] = f; /* SOUND: float -> double is exact */
                break;
            }
            case VFY_DT_DOUBLE: memcpy(&t->f[k], &u, sizeof u); break;
            case VFY_DT_INT64: t->i[k] = (int64_t)u; break;
            case VFY_DT_INT32: t->i[k] = (int32_t)(uint32_t)u; break;
            case VFY_DT_BOOL: t->i[k] = u != 0; break;
            case VFY_DT_COUNT: VFY_ASSERT(0);
            }
        }
        return VFY_OK;
    }
    for (int64_t k = 0; k < numel; k++) {
        switch (t->dtype) {
        case VFY_DT_FLOAT: t->f[k] = tp->float_data[k]; break;
        case VFY_DT_DOUBLE: t->f[k] = tp->double_data[k]; break;
        case VFY_DT_INT64: t->i[k] = tp->int64_data[k]; break;
        case VFY_DT_INT32: t->i[k] = tp->int32_data[k]; break;
        case VFY_DT_BOOL: t->i[k] = tp->int32_data[k] != 0; break;
        case VFY_DT_COUNT: VFY_ASSERT(0);
        }
    }
    return VFY_OK;
}

static vfy_status load_attr(const Onnx__AttributeProto *ap, vfy_attr *a, const vfy_graph *g,
                            const vfy_node *n, vfy_error *err)
{
    if (!ap->name || !*ap->name)
        return vfy_fail(err, VFY_ERR_INVALID, "%s: node '%s' (%s): attribute without a name",
                        g->file, n->name, n->op_type);
    if (!(a->name = vfy_strdup(ap->name)))
        return vfy_fail(err, VFY_ERR_NOMEM, "%s: out of memory", g->file);
    if (ap->ref_attr_name && *ap->ref_attr_name)
        return vfy_fail(err, VFY_ERR_UNSUPPORTED, "%s: node '%s' (%s): attribute '%s' refers to a "
                        "function attribute (unsupported)", g->file, n->name, n->op_type, ap->name);
    int type = ap->type;
    if (!ap->has_type) /* old exporters leave the type out: take it from the field that is set */
        type = ap->t ? ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR
             : ap->n_ints ? ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS
             : ap->n_floats ? ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS
             : ap->has_s ? ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING
             : ap->has_f ? ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT
             : ap->has_i ? ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT
                         : ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__UNDEFINED;
    switch (type) {
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT:
        a->kind = VFY_ATTR_INT;
        a->i = ap->i;
        break;
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT:
        a->kind = VFY_ATTR_FLOAT;
        a->f = ap->f;
        break;
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS:
        a->kind = VFY_ATTR_INTS;
        a->n = (int64_t)ap->n_ints;
        if (!(a->ints = vfy_alloc_array(ap->n_ints + 1, sizeof *a->ints)))
            return vfy_fail(err, VFY_ERR_NOMEM, "%s: out of memory", g->file);
        if (ap->n_ints)
            memcpy(a->ints, ap->ints, ap->n_ints * sizeof *a->ints);
        break;
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS:
        a->kind = VFY_ATTR_FLOATS;
        a->n = (int64_t)ap->n_floats;
        if (!(a->floats = vfy_alloc_array(ap->n_floats + 1, sizeof *a->floats)))
            return vfy_fail(err, VFY_ERR_NOMEM, "%s: out of memory", g->file);
        for (size_t k = 0; k < ap->n_floats; k++)
            a->floats[k] = ap->floats[k];
        break;
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING:
        a->kind = VFY_ATTR_STRING;
        if (!(a->s = vfy_alloc(ap->s.len + 1)))
            return vfy_fail(err, VFY_ERR_NOMEM, "%s: out of memory", g->file);
        if (ap->s.len)
            memcpy(a->s, ap->s.data, ap->s.len);
        break;
    case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR: {
        if (!ap->t)
            return vfy_fail(err, VFY_ERR_INVALID, "%s: node '%s' (%s): attribute '%s' has no tensor",
                            g->file, n->name, n->op_type, ap->name);
        char what[256];
        snprintf(what, sizeof what, "node '%s' (%s): attribute '%s'", n->name, n->op_type, ap->name);
        a->kind = VFY_ATTR_TENSOR;
        return load_tensor(ap->t, &a->t, g->file, what, err);
    }
    default:
        a->kind = VFY_ATTR_OTHER;
        break;
    }
    return VFY_OK;
}

/* Declare the network input from its ValueInfo: FLOAT or DOUBLE, static shape; symbolic, 0 or -1
 * dims (a batch) are taken as 1. */
static vfy_status load_input(const Onnx__ValueInfoProto *vi, vfy_value *v, const char *file,
                             vfy_error *err)
{
    const Onnx__TypeProto *tp = vi->type;
    if (!tp || tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || !tp->tensor_type)
        return vfy_fail(err, VFY_ERR_UNSUPPORTED, "%s: input '%s' is not a tensor (unsupported)",
                        file, vi->name);
    const Onnx__TypeProto__Tensor *tt = tp->tensor_type;
    if (tt->elem_type != ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT &&
        tt->elem_type != ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE)
        return vfy_fail(err, VFY_ERR_UNSUPPORTED, "%s: input '%s' has data type %s (unsupported)",
                        file, vi->name, onnx_type_name(tt->elem_type));
    if (!tt->shape)
        return vfy_fail(err, VFY_ERR_UNSUPPORTED, "%s: input '%s' has no shape (unsupported)", file,
                        vi->name);
    if (tt->shape->n_dim > VFY_MAX_RANK)
        return vfy_fail(err, VFY_ERR_UNSUPPORTED, "%s: input '%s' has rank %zu (at most %d)", file,
                        vi->name, tt->shape->n_dim, VFY_MAX_RANK);
    v->t.dtype = tt->elem_type == ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT ? VFY_DT_FLOAT
                                                                        : VFY_DT_DOUBLE;
    v->t.rank = (int)tt->shape->n_dim;
    int64_t numel = 1;
    for (size_t d = 0; d < tt->shape->n_dim; d++) {
        const Onnx__TensorShapeProto__Dimension *dim = tt->shape->dim[d];
        int64_t x = 1;
        if (dim->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE && dim->dim_value > 0)
            x = dim->dim_value;
        v->t.shape[d] = x;
        if (__builtin_mul_overflow(numel, x, &numel) || numel > VFY_MAX_ELEMS)
            return vfy_fail(err, VFY_ERR_UNSUPPORTED, "%s: input '%s' is too large", file, vi->name);
    }
    v->t.numel = numel;
    v->is_shaped = 1;
    return VFY_OK;
}

static vfy_status add_inputs_nodes(const Onnx__GraphProto *G, vfy_graph *g, int64_t *ins,
                                   int64_t *n_real_out, vfy_error *err);
static vfy_status find_outputs(const Onnx__GraphProto *G, vfy_graph *g, int64_t *outs,
                               vfy_error *err);

/* Copy the model into g, validating as we go. */
static vfy_status build_graph(const Onnx__ModelProto *m, vfy_graph *g,
                              const char *const *hidden, int64_t n_hidden, vfy_error *err)
{
    const char *file = g->file;
    const Onnx__GraphProto *G = m->graph;
    vfy_status st;
    int64_t idx;
    if (!G)
        return vfy_fail(err, VFY_ERR_PARSE, "%s: not a valid ONNX model (no graph)", file);
    if (G->n_sparse_initializer)
        return vfy_fail(err, VFY_ERR_UNSUPPORTED, "%s: sparse initializers (unsupported)", file);
    for (size_t k = 0; k < G->n_initializer; k++) {
        const Onnx__TensorProto *tp = G->initializer[k];
        if (!tp->name || !*tp->name)
            return vfy_fail(err, VFY_ERR_INVALID, "%s: initializer %zu has no name", file, k);
        if ((st = vfy_graph_add_value(g, tp->name, &idx, err)))
            return st;
        char what[160];
        snprintf(what, sizeof what, "tensor '%s'", tp->name);
        if ((st = load_tensor(tp, &g->values[idx].t, file, what, err)))
            return st;
        g->values[idx].is_const = g->values[idx].is_shaped = 1;
    }
    int64_t n_real = 0, *ins = vfy_alloc_array(G->n_input + 1, sizeof *ins),
            *outs = vfy_alloc_array(G->n_output + (size_t)n_hidden + 1, sizeof *outs);
    if (!ins || !outs) {
        vfy_free(ins);
        vfy_free(outs);
        return vfy_fail(err, VFY_ERR_NOMEM, "%s: out of memory", file);
    }
    st = add_inputs_nodes(G, g, ins, &n_real, err);
    if (st == VFY_OK)
        st = find_outputs(G, g, outs, err);
    /* the hidden values asked for, as more outputs */
    for (int64_t k = 0; st == VFY_OK && k < n_hidden; k++) {
        int64_t v = vfy_graph_find_value(g, hidden[k]);
        if (v < 0)
            st = vfy_fail(err, VFY_ERR_INVALID, "%s: no value named '%s' (declare-hidden) in the "
                          "model", file, hidden[k]);
        else if (g->values[v].is_const)
            st = vfy_fail(err, VFY_ERR_UNSUPPORTED, "%s: '%s' (declare-hidden) is a constant of "
                          "the model, not a value it computes", file, hidden[k]);
        for (size_t j = 0; st == VFY_OK && j < G->n_output + (size_t)k; j++)
            if (outs[j] == v)
                st = vfy_fail(err, VFY_ERR_INVALID, "%s: '%s' (declare-hidden) is %s", file,
                              hidden[k], j < G->n_output ? "a graph output: declare it as one"
                                                          : "declared hidden twice");
        outs[G->n_output + (size_t)k] = v;
    }
    if (st == VFY_OK)
        st = vfy_graph_set_io(g, ins, n_real, outs, (int64_t)G->n_output + n_hidden, err);
    vfy_free(ins);
    vfy_free(outs);
    return st;
}

/* The graph's inputs (initializers listed among them skipped) into ins[*n_real], then its nodes
 * and their outputs. */
static vfy_status add_inputs_nodes(const Onnx__GraphProto *G, vfy_graph *g, int64_t *ins,
                                   int64_t *n_real_out, vfy_error *err)
{
    const char *file = g->file;
    vfy_status st;
    int64_t idx, n_real = 0;
    for (size_t k = 0; k < G->n_input; k++) {
        const Onnx__ValueInfoProto *vi = G->input[k];
        if (!vi->name || !*vi->name)
            return vfy_fail(err, VFY_ERR_INVALID, "%s: graph input %zu has no name", file, k);
        int64_t j = vfy_graph_find_value(g, vi->name);
        if (j >= 0 && g->values[j].is_const)
            continue; /* graph.input also lists initializers (IR < 4): not a network input */
        if ((st = vfy_graph_add_value(g, vi->name, &idx, err)))
            return st;
        if ((st = load_input(vi, &g->values[idx], file, err)))
            return st;
        ins[n_real++] = idx;
    }
    *n_real_out = n_real;
    if (n_real == 0)
        return vfy_fail(err, VFY_ERR_UNSUPPORTED, "%s: the model has no input besides "
                        "initializers", file);
    if (G->n_output == 0)
        return vfy_fail(err, VFY_ERR_INVALID, "%s: the model has no output", file);
    /* Nodes and their outputs first (the file need not be in topological order), inputs after. */
    for (size_t k = 0; k < G->n_node; k++) {
        const Onnx__NodeProto *np = G->node[k];
        if (!np->op_type || !*np->op_type)
            return vfy_fail(err, VFY_ERR_INVALID, "%s: node %zu has no op type", file, k);
        if ((st = vfy_graph_add_node(g, np->name, np->op_type, (int64_t)np->n_input,
                                     (int64_t)np->n_output, (int64_t)np->n_attribute, &idx, err)))
            return st;
        vfy_node *n = &g->nodes[idx];
        if (np->domain && *np->domain && strcmp(np->domain, "ai.onnx") != 0)
            return vfy_fail(err, VFY_ERR_UNSUPPORTED,
                            "%s: node '%s' (%s): operator domain '%s' (unsupported operator)", file,
                            n->name, n->op_type, np->domain);
        for (size_t j = 0; j < np->n_output; j++) {
            if (!np->output[j] || !*np->output[j])
                continue;
            int64_t v;
            if (vfy_graph_find_value(g, np->output[j]) >= 0)
                return vfy_fail(err, VFY_ERR_INVALID, "%s: node '%s' (%s): output '%s' is defined "
                                "twice", file, n->name, n->op_type, np->output[j]);
            if ((st = vfy_graph_add_value(g, np->output[j], &v, err)))
                return st;
            n = &g->nodes[idx];
            n->out[j] = v;
            g->values[v].producer = idx;
        }
        for (size_t j = 0; j < np->n_attribute; j++) {
            n->n_attr++;
            if ((st = load_attr(np->attribute[j], &n->attr[j], g, n, err)))
                return st;
        }
    }
    for (size_t k = 0; k < G->n_node; k++) {
        const Onnx__NodeProto *np = G->node[k];
        vfy_node *n = &g->nodes[k];
        for (size_t j = 0; j < np->n_input; j++) {
            if (!np->input[j] || !*np->input[j])
                continue; /* an omitted optional input */
            if ((n->in[j] = vfy_graph_find_value(g, np->input[j])) < 0)
                return vfy_fail(err, VFY_ERR_INVALID, "%s: node '%s' (%s): input '%s' is not "
                                "defined (no initializer, input or node output of that name)",
                                file, n->name, n->op_type, np->input[j]);
        }
    }
    return VFY_OK;
}

/* The graph's outputs, each a value some node produces, into outs. */
static vfy_status find_outputs(const Onnx__GraphProto *G, vfy_graph *g, int64_t *outs,
                               vfy_error *err)
{
    for (size_t k = 0; k < G->n_output; k++) {
        const char *oname = G->output[k]->name;
        int64_t v = oname ? vfy_graph_find_value(g, oname) : -1;
        if (v < 0)
            return vfy_fail(err, VFY_ERR_INVALID, "%s: graph output '%s' is not produced by any "
                            "node", g->file, oname ? oname : "");
        for (size_t j = 0; j < k; j++)
            if (outs[j] == v)
                return vfy_fail(err, VFY_ERR_UNSUPPORTED, "%s: graph output '%s' is listed "
                                "twice (unsupported)", g->file, oname);
        outs[k] = v;
    }
    return VFY_OK;
}

vfy_status vfy_onnx_load_bytes_limited(const uint8_t *data, size_t len, const char *name,
                                       const char *const *hidden, int64_t n_hidden,
                                       const vfy_lower_limits *lim, vfy_net **out,
                                       vfy_error *err)
{
    vfy_status st = VFY_OK;
    pb_state ps = {0};
    ProtobufCAllocator pa = {pb_alloc, pb_free, &ps};
    Onnx__ModelProto *m = NULL;
    vfy_graph *g = NULL;
    *out = NULL;
    if (!name)
        name = "model";
    if (len == 0 || !data) {
        st = vfy_fail(err, VFY_ERR_PARSE, "%s: empty file", name);
        goto fail;
    }
    m = onnx__model_proto__unpack(&pa, len, data);
    if (!m) {
        st = ps.failed ? vfy_fail(err, VFY_ERR_NOMEM, "%s: out of memory parsing the model", name)
                       : vfy_fail(err, VFY_ERR_PARSE, "%s: not a valid ONNX protobuf", name);
        goto fail;
    }
    if (!(g = vfy_graph_new(name))) {
        st = vfy_fail(err, VFY_ERR_NOMEM, "%s: out of memory", name);
        goto fail;
    }
    if ((st = build_graph(m, g, hidden, n_hidden, err)))
        goto fail;
    onnx__model_proto__free_unpacked(m, &pa);
    m = NULL;
    if ((st = vfy_graph_sort(g, err)) || (st = vfy_graph_infer(g, err)))
        goto fail;
    if (lim && vfy_deadline_over(lim->dl)) { /* (the parse and the folding take their time) */
        st = vfy_fail(err, VFY_ERR_TIMEOUT, "%s: the deadline passed while the model was being "
                      "read", name);
        goto fail;
    }
    if ((st = vfy_graph_lower_limited(g, lim, out, err)))
        goto fail;
    for (int64_t k = 0; k < n_hidden; k++)
        (*out)->outs[(*out)->n_outs - n_hidden + k].hidden = 1;
    vfy_graph_free(g);
    return VFY_OK;
fail:
    if (m)
        onnx__model_proto__free_unpacked(m, &pa);
    vfy_graph_free(g);
    return st;
}

vfy_status vfy_onnx_load_bytes_hidden(const uint8_t *data, size_t len, const char *name,
                                      const char *const *hidden, int64_t n_hidden,
                                      vfy_net **out, vfy_error *err)
{
    return vfy_onnx_load_bytes_limited(data, len, name, hidden, n_hidden, NULL, out, err);
}

vfy_status vfy_onnx_load_bytes(const uint8_t *data, size_t len, const char *name, vfy_net **out,
                               vfy_error *err)
{
    return vfy_onnx_load_bytes_hidden(data, len, name, NULL, 0, out, err);
}

vfy_status vfy_onnx_load_limited(const char *path, const char *const *hidden, int64_t n_hidden,
                                 const vfy_lower_limits *lim, vfy_net **out, vfy_error *err)
{
    uint8_t *bytes = NULL;
    size_t len = 0;
    *out = NULL;
    vfy_status st = vfy_read_file(path, &bytes, &len, err);
    if (st == VFY_OK)
        st = vfy_onnx_load_bytes_limited(bytes, len, path, hidden, n_hidden, lim, out, err);
    vfy_free(bytes);
    return st;
}

vfy_status vfy_onnx_load_hidden(const char *path, const char *const *hidden, int64_t n_hidden,
                                vfy_net **out, vfy_error *err)
{
    return vfy_onnx_load_limited(path, hidden, n_hidden, NULL, out, err);
}

vfy_status vfy_onnx_load(const char *path, vfy_net **out, vfy_error *err)
{
    return vfy_onnx_load_hidden(path, NULL, 0, out, err);
}
