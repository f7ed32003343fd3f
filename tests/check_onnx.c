/* Check suite for the ONNX loader, the graph IR and the lowering to vfy_net.
 *
 * Models are built in memory with protobuf-c structs, packed, and loaded with vfy_onnx_load_bytes;
 * the lowered net, evaluated in double, is compared with a reference forward pass written here from
 * the ONNX semantics of each test model. */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "require.h"
#include "onnx.pb-c.h"
#include "vfy/bound.h"
#include "vfy/eval.h"
#include "vfy/graph.h"
#include "vfy/onnx.h"
#include "vfy/spec.h"
#include "vfy/verify.h"

/* ---- a tiny arena for the test's own protobuf structs (freed by the fixture) ---- */

static void *arena[8192];
static int n_arena;

static void *t_alloc(size_t n)
{
    ck_assert_int_lt(n_arena, 8192);
    void *p = calloc(1, n ? n : 1);
    ck_assert_ptr_nonnull(p);
    arena[n_arena++] = p;
    return p;
}

static void arena_free(void)
{
    while (n_arena)
        free(arena[--n_arena]);
}

static void setup(void) { vfy_alloc_fail_after(-1); }

/* ---- protobuf builders ---- */

enum enc { ENC_RAW, ENC_FLOAT, ENC_DOUBLE, ENC_DOUBLE_RAW, ENC_NONE };

static int64_t prod(int rank, const int64_t *dims)
{
    int64_t n = 1;
    for (int d = 0; d < rank; d++)
        if (__builtin_mul_overflow(n, dims[d], &n))
            return -1; /* only for tensors built without data */
    return n;
}

static void put_le(uint8_t *p, uint64_t v, int n)
{
    for (int k = 0; k < n; k++)
        p[k] = (uint8_t)(v >> (8 * k));
}

static Onnx__TensorProto *tensor_base(const char *name, int rank, const int64_t *dims, int32_t dt)
{
    Onnx__TensorProto *t = t_alloc(sizeof *t);
    onnx__tensor_proto__init(t);
    t->name = (char *)name;
    t->n_dims = (size_t)rank;
    t->dims = t_alloc(sizeof(int64_t) * (size_t)(rank + 1));
    if (rank > 0) /* (a scalar's dims may be NULL) */
        memcpy(t->dims, dims, sizeof(int64_t) * (size_t)rank);
    t->has_data_type = 1;
    t->data_type = dt;
    return t;
}

static Onnx__TensorProto *tensor_f(const char *name, int rank, const int64_t *dims, const float *v,
                                   enum enc e)
{
    int64_t n = prod(rank, dims);
    int dbl = e == ENC_DOUBLE || e == ENC_DOUBLE_RAW;
    Onnx__TensorProto *t = tensor_base(name, rank, dims, dbl ? 11 : 1);
    switch (e) {
    case ENC_RAW:
        t->has_raw_data = 1;
        t->raw_data.len = (size_t)n * 4;
        t->raw_data.data = t_alloc(t->raw_data.len);
        for (int64_t k = 0; k < n; k++) {
            uint32_t u;
            memcpy(&u, &v[k], 4);
            put_le(t->raw_data.data + 4 * k, u, 4);
        }
        break;
    case ENC_FLOAT:
        t->n_float_data = (size_t)n;
        t->float_data = t_alloc(sizeof(float) * (size_t)n);
        memcpy(t->float_data, v, sizeof(float) * (size_t)n);
        break;
    case ENC_DOUBLE:
        t->n_double_data = (size_t)n;
        t->double_data = t_alloc(sizeof(double) * (size_t)n);
        for (int64_t k = 0; k < n; k++)
            t->double_data[k] = v[k];
        break;
    case ENC_DOUBLE_RAW:
        t->has_raw_data = 1;
        t->raw_data.len = (size_t)n * 8;
        t->raw_data.data = t_alloc(t->raw_data.len);
        for (int64_t k = 0; k < n; k++) {
            double d = v[k];
            uint64_t u;
            memcpy(&u, &d, 8);
            put_le(t->raw_data.data + 8 * k, u, 8);
        }
        break;
    case ENC_NONE: break;
    }
    return t;
}

static Onnx__TensorProto *tensor_i64(const char *name, int rank, const int64_t *dims,
                                     const int64_t *v, int raw)
{
    int64_t n = prod(rank, dims);
    Onnx__TensorProto *t = tensor_base(name, rank, dims, 7);
    if (raw) {
        t->has_raw_data = 1;
        t->raw_data.len = (size_t)n * 8;
        t->raw_data.data = t_alloc(t->raw_data.len);
        for (int64_t k = 0; k < n; k++)
            put_le(t->raw_data.data + 8 * k, (uint64_t)v[k], 8);
    } else {
        t->n_int64_data = (size_t)n;
        t->int64_data = t_alloc(sizeof(int64_t) * (size_t)n);
        memcpy(t->int64_data, v, sizeof(int64_t) * (size_t)n);
    }
    return t;
}

static Onnx__TensorProto *tensor_i32(const char *name, int rank, const int64_t *dims,
                                     const int32_t *v)
{
    int64_t n = prod(rank, dims);
    Onnx__TensorProto *t = tensor_base(name, rank, dims, 6);
    t->n_int32_data = (size_t)n;
    t->int32_data = t_alloc(sizeof(int32_t) * (size_t)n);
    memcpy(t->int32_data, v, sizeof(int32_t) * (size_t)n);
    return t;
}

/* A BOOL tensor (ONNX 9): raw, one byte per element, or in int32_data. */
static Onnx__TensorProto *tensor_bool(const char *name, int rank, const int64_t *dims,
                                      const int *v, int raw)
{
    int64_t n = prod(rank, dims);
    Onnx__TensorProto *t = tensor_base(name, rank, dims, 9);
    if (raw) {
        t->has_raw_data = 1;
        t->raw_data.len = (size_t)n;
        t->raw_data.data = t_alloc(t->raw_data.len);
        for (int64_t k = 0; k < n; k++)
            t->raw_data.data[k] = (uint8_t)(v[k] != 0);
    } else {
        t->n_int32_data = (size_t)n;
        t->int32_data = t_alloc(sizeof(int32_t) * (size_t)n);
        for (int64_t k = 0; k < n; k++)
            t->int32_data[k] = v[k] != 0;
    }
    return t;
}

static Onnx__AttributeProto *attr_base(const char *name, Onnx__AttributeProto__AttributeType ty)
{
    Onnx__AttributeProto *a = t_alloc(sizeof *a);
    onnx__attribute_proto__init(a);
    a->name = (char *)name;
    a->has_type = 1;
    a->type = ty;
    return a;
}

static Onnx__AttributeProto *attr_i(const char *name, int64_t v)
{
    Onnx__AttributeProto *a = attr_base(name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT);
    a->has_i = 1;
    a->i = v;
    return a;
}

static Onnx__AttributeProto *attr_f(const char *name, float v)
{
    Onnx__AttributeProto *a = attr_base(name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT);
    a->has_f = 1;
    a->f = v;
    return a;
}

static Onnx__AttributeProto *attr_ints(const char *name, int n, const int64_t *v)
{
    Onnx__AttributeProto *a = attr_base(name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS);
    a->n_ints = (size_t)n;
    a->ints = t_alloc(sizeof(int64_t) * (size_t)(n + 1));
    memcpy(a->ints, v, sizeof(int64_t) * (size_t)n);
    return a;
}

static Onnx__AttributeProto *attr_t(const char *name, Onnx__TensorProto *t)
{
    Onnx__AttributeProto *a = attr_base(name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR);
    a->t = t;
    return a;
}

/* Split "a,,b" into names (empty = omitted optional input). */
static char **split(const char *s, size_t *n)
{
    char *copy = t_alloc(strlen(s) + 1);
    strcpy(copy, s);
    char **v = t_alloc(sizeof(char *) * 16);
    *n = 0;
    if (!*s)
        return v;
    char *p = copy;
    for (;;) {
        v[(*n)++] = p;
        char *c = strchr(p, ',');
        if (!c)
            break;
        *c = 0;
        p = c + 1;
    }
    return v;
}

/* node("Gemm", "g", "x,W,C", "y", attr..., NULL) */
static Onnx__NodeProto *node(const char *op, const char *name, const char *ins, const char *outs,
                             ...)
{
    Onnx__NodeProto *n = t_alloc(sizeof *n);
    onnx__node_proto__init(n);
    n->op_type = (char *)op;
    n->name = (char *)name;
    n->input = split(ins, &n->n_input);
    n->output = split(outs, &n->n_output);
    n->attribute = t_alloc(sizeof(Onnx__AttributeProto *) * 8);
    va_list ap;
    va_start(ap, outs);
    Onnx__AttributeProto *a;
    while ((a = va_arg(ap, Onnx__AttributeProto *)) != NULL)
        n->attribute[n->n_attribute++] = a;
    va_end(ap);
    return n;
}

/* A tensor ValueInfo; a negative dim is symbolic ("N"). */
static Onnx__ValueInfoProto *vinfo(const char *name, int32_t elem, int rank, const int64_t *dims)
{
    Onnx__ValueInfoProto *vi = t_alloc(sizeof *vi);
    onnx__value_info_proto__init(vi);
    vi->name = (char *)name;
    Onnx__TypeProto *tp = t_alloc(sizeof *tp);
    onnx__type_proto__init(tp);
    Onnx__TypeProto__Tensor *tt = t_alloc(sizeof *tt);
    onnx__type_proto__tensor__init(tt);
    tt->has_elem_type = 1;
    tt->elem_type = elem;
    Onnx__TensorShapeProto *sh = t_alloc(sizeof *sh);
    onnx__tensor_shape_proto__init(sh);
    sh->n_dim = (size_t)rank;
    sh->dim = t_alloc(sizeof(void *) * (size_t)(rank + 1));
    for (int d = 0; d < rank; d++) {
        Onnx__TensorShapeProto__Dimension *dm = t_alloc(sizeof *dm);
        onnx__tensor_shape_proto__dimension__init(dm);
        if (dims[d] < 0) {
            dm->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
            dm->dim_param = (char *)"N";
        } else {
            dm->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
            dm->dim_value = dims[d];
        }
        sh->dim[d] = dm;
    }
    tt->shape = sh;
    tp->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
    tp->tensor_type = tt;
    vi->type = tp;
    return vi;
}

typedef struct mb {
    Onnx__NodeProto *node[64];
    size_t nn;
    Onnx__TensorProto *init[64];
    size_t ni;
    Onnx__ValueInfoProto *in[8];
    size_t nin;
    Onnx__ValueInfoProto *out[4];
    size_t nout;
} mb;

static uint8_t *mb_pack(const mb *b, size_t *len)
{
    Onnx__GraphProto g;
    onnx__graph_proto__init(&g);
    g.name = (char *)"test";
    g.n_node = b->nn;
    g.node = (Onnx__NodeProto **)b->node;
    g.n_initializer = b->ni;
    g.initializer = (Onnx__TensorProto **)b->init;
    g.n_input = b->nin;
    g.input = (Onnx__ValueInfoProto **)b->in;
    g.n_output = b->nout;
    g.output = (Onnx__ValueInfoProto **)b->out;
    Onnx__OperatorSetIdProto op;
    onnx__operator_set_id_proto__init(&op);
    op.domain = (char *)"";
    op.has_version = 1;
    op.version = 13;
    Onnx__OperatorSetIdProto *ops[1] = {&op};
    Onnx__ModelProto m;
    onnx__model_proto__init(&m);
    m.has_ir_version = 1;
    m.ir_version = 7;
    m.graph = &g;
    m.n_opset_import = 1;
    m.opset_import = ops;
    *len = onnx__model_proto__get_packed_size(&m);
    uint8_t *buf = t_alloc(*len + 1);
    ck_assert_uint_eq(onnx__model_proto__pack(&m, buf), *len);
    return buf;
}

static vfy_status load(const mb *b, vfy_net **net, vfy_error *e)
{
    size_t len;
    uint8_t *buf = mb_pack(b, &len);
    vfy_error_clear(e);
    return vfy_onnx_load_bytes(buf, len, "test.onnx", net, e);
}

#define ADD_NODE(b, ...) ((b).node[(b).nn++] = node(__VA_ARGS__))
#define ADD_INIT(b, t) ((b).init[(b).ni++] = (t))
#define FLT 1
#define DBL 11

/* ---- evaluation of the lowered net and comparison with a reference ---- */

static void net_eval(const vfy_net *net, const double *x, double *y)
{
    int64_t w = vfy_net_max_width(net);
    double *a = calloc((size_t)w, sizeof *a), *b = calloc((size_t)w, sizeof *b);
    ck_assert(a && b);
    memcpy(a, x, (size_t)net->n_in * sizeof *a);
    for (int64_t l = 0; l < net->n_layers; l++) {
        const vfy_layer *L = &net->layers[l];
        for (int64_t o = 0; o < L->n_out; o++) {
            if (L->kind == VFY_LAYER_RELU) {
                b[o] = a[o] > 0 ? a[o] : 0;
            } else if (L->kind == VFY_LAYER_SIGMOID) {
                b[o] = o < L->n_pass ? a[o] : 1.0 / (1.0 + exp(-a[o]));
            } else if (L->kind == VFY_LAYER_TANH) {
                b[o] = o < L->n_pass ? a[o] : tanh(a[o]);
            } else if (L->kind == VFY_LAYER_ERF) {
                b[o] = o < L->n_pass ? a[o] : erf(a[o]);
            } else if (L->kind == VFY_LAYER_ERFGATE) {
                b[o] = o < L->n_pass ? a[o] : 0.5 * a[o] * erfc(-a[o]);
            } else if (L->kind == VFY_LAYER_SILU) {
                b[o] = o < L->n_pass ? a[o] : a[o] / (1.0 + exp(-a[o]));
            } else if (L->kind == VFY_LAYER_GELU) {
                b[o] = o < L->n_pass ? a[o] : 0.5 * a[o] * erfc(-a[o] * 0.70710678118654752440);
            } else if (L->kind == VFY_LAYER_SIGN) {
                b[o] = o < L->n_pass ? a[o] : (a[o] > 0 ? 1.0 : (a[o] < 0 ? -1.0 : 0.0));
            } else if (L->kind == VFY_LAYER_EXP) {
                b[o] = o < L->n_pass ? a[o] : exp(a[o]);
            } else if (L->kind == VFY_LAYER_RECIP) {
                b[o] = o < L->n_pass ? a[o] : 1.0 / a[o];
            } else if (L->kind == VFY_LAYER_SQRT) {
                b[o] = o < L->n_pass ? a[o] : sqrt(a[o]);
            } else if (L->kind == VFY_LAYER_LOG) {
                b[o] = o < L->n_pass ? a[o] : log(a[o]);
            } else if (L->kind == VFY_LAYER_SOFTPLUS) {
                b[o] = o < L->n_pass ? a[o] : log1p(exp(a[o]));
            } else if (L->kind == VFY_LAYER_SIN) {
                b[o] = o < L->n_pass ? a[o] : sin(a[o]);
            } else if (L->kind == VFY_LAYER_COS) {
                b[o] = o < L->n_pass ? a[o] : cos(a[o]);
            } else if (L->kind == VFY_LAYER_SCALE) {
                b[o] = L->w[o] * a[o] + L->b[o];
            } else if (L->kind == VFY_LAYER_PRODUCT) {
                int64_t p = L->pool[2 * o], q = L->pool[2 * o + 1];
                b[o] = q < 0 ? a[p] : a[p] * a[q];
            } else if (L->kind == VFY_LAYER_MAXPOOL) {
                b[o] = -INFINITY;
                for (int64_t t = 0; t < L->pool_k; t++)
                    if (L->pool[o * L->pool_k + t] >= 0)
                        b[o] = fmax(b[o], a[L->pool[o * L->pool_k + t]]);
            } else {
                const int64_t *idx;
                const double *val;
                int64_t nz;
                vfy_layer_row(L, o, &idx, &val, &nz);
                double s = L->b[o];
                for (int64_t t = 0; t < nz; t++)
                    s += val[t] * a[idx ? idx[t] : t];
                b[o] = s;
            }
        }
        double *t = a;
        a = b;
        b = t;
    }
    memcpy(y, a, (size_t)net->n_out * sizeof *y);
    free(a);
    free(b);
}

typedef void (*ref_fn)(const double *x, double *y);

static uint64_t rng = 88172645463325252ull;
static double urand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1p-53 * 4.0 - 2.0;
}

static void check_against(const vfy_net *net, ref_fn ref)
{
    enum { TRIALS = 25 };
    double y[256], r[256];
    ck_assert_int_le(net->n_out, 256);
    double *xs = calloc((size_t)(TRIALS * net->n_in), sizeof *xs);
    double *ys = calloc((size_t)(TRIALS * net->n_out), sizeof *ys);
    double *one = calloc((size_t)(TRIALS * net->n_out), sizeof *one);
    double *ws = calloc((size_t)vfy_eval_batch_ws_len(net, TRIALS), sizeof *ws);
    ck_assert(xs && ys && one && ws);
    for (int trial = 0; trial < TRIALS; trial++) {
        double *x = xs + trial * net->n_in;
        for (int64_t k = 0; k < net->n_in; k++)
            x[k] = urand();
        net_eval(net, x, y);
        ref(x, r);
        for (int64_t k = 0; k < net->n_out; k++)
            REQUIRE_MSG(fabs(y[k] - r[k]) <= 1e-12 * (1 + fabs(r[k])),
                        "output %lld: net %.17g, reference %.17g", (long long)k, y[k], r[k]);
        vfy_eval_f64(net, x, one + trial * net->n_out, ws);
    }
    /* the batched double pass on all the points at once: the single passes' values, up to the
     * order of the products' roundings (the convolutions, sparse and dense layers of every model
     * built here) */
    for (int64_t n = 3; n <= TRIALS; n += TRIALS - 3) { /* (fewer than a CSR block, more) */
        vfy_eval_f64_batch(net, n, xs, ys, ws);
        for (int64_t k = 0; k < n * net->n_out; k++)
            REQUIRE_MSG(fabs(ys[k] - one[k]) <= 1e-12 * (1 + fabs(one[k])),
                        "point %lld output %lld: batched %.17g, alone %.17g",
                        (long long)(k / net->n_out), (long long)(k % net->n_out), ys[k], one[k]);
    }
    free(xs);
    free(ys);
    free(one);
    free(ws);
}

/* Load b, expecting success; returns the net (caller frees). */
static vfy_net *load_ok(const mb *b)
{
    vfy_net *net = NULL;
    vfy_error e;
    vfy_status st = load(b, &net, &e);
    REQUIRE_MSG(st == VFY_OK, "load failed: %s", e.msg);
    ck_assert_ptr_nonnull(net);
    return net;
}

static void load_fails(const mb *b, vfy_status want, const char *s1, const char *s2)
{
    vfy_net *net = NULL;
    vfy_error e;
    vfy_status st = load(b, &net, &e);
    REQUIRE_MSG(st == want, "status %s, want %s: %s", vfy_status_name(st), vfy_status_name(want),
                e.msg);
    ck_assert_ptr_null(net);
    REQUIRE_MSG(!s1 || strstr(e.msg, s1), "message '%s' lacks '%s'", e.msg, s1);
    REQUIRE_MSG(!s2 || strstr(e.msg, s2), "message '%s' lacks '%s'", e.msg, s2);
    REQUIRE_MSG(strstr(e.msg, "test.onnx"), "message '%s' does not name the file", e.msg);
    REQUIRE_MSG(!strchr(e.msg, '\n'), "message has a newline");
}

/* ---- model data shared by tests ---- */

static const float W32[6] = {0.5f, -1.25f, 0.1f, 3.0f, -0.7f, 2.5f}; /* [3,2] */
static const float B2[2] = {0.3f, -0.2f};

/* y = x @ W32 + B2 for x [3] */
static void ref_mm(const double *x, double *y)
{
    for (int j = 0; j < 2; j++) {
        y[j] = (double)B2[j];
        for (int l = 0; l < 3; l++)
            y[j] += x[l] * (double)W32[l * 2 + j];
    }
}

/* x [1,3] -> MatMul W -> Add b -> Reshape [2] -> Relu? no: kept linear for the reference. */
static void build_mm(mb *b, enum enc we, enum enc be, int32_t elem, int shape_raw)
{
    memset(b, 0, sizeof *b);
    int64_t xd[2] = {1, 3}, wd[2] = {3, 2}, bd[1] = {2}, sd[1] = {1}, sv[1] = {-1}, yd[1] = {2};
    b->in[b->nin++] = vinfo("x", elem, 2, xd);
    b->out[b->nout++] = vinfo("y", elem, 1, yd);
    ADD_INIT(*b, tensor_f("W", 2, wd, W32, we));
    ADD_INIT(*b, tensor_f("B", 1, bd, B2, be));
    ADD_INIT(*b, tensor_i64("S", 1, sd, sv, shape_raw));
    ADD_NODE(*b, "MatMul", "mm", "x,W", "h", NULL);
    ADD_NODE(*b, "Add", "add", "h,B", "h2", NULL);
    ADD_NODE(*b, "Reshape", "rs", "h2,S", "y", NULL);
}

START_TEST(test_encodings)
{
    static const enum enc fenc[][2] = {{ENC_RAW, ENC_FLOAT}, {ENC_FLOAT, ENC_RAW}};
    static const enum enc denc[][2] = {{ENC_DOUBLE, ENC_DOUBLE_RAW}, {ENC_DOUBLE_RAW, ENC_DOUBLE}};
    for (int k = 0; k < 4; k++) {
        mb b;
        if (k < 2)
            build_mm(&b, fenc[k][0], fenc[k][1], FLT, k);
        else
            build_mm(&b, denc[k - 2][0], denc[k - 2][1], DBL, k & 1);
        vfy_net *net = load_ok(&b);
        ck_assert_int_eq(net->n_in, 3);
        ck_assert_int_eq(net->n_out, 2);
        ck_assert_int_eq(net->n_layers, 1); /* MatMul with the Add folded in, Reshape free */
        ck_assert_int_eq(net->layers[0].kind, VFY_LAYER_DENSE);
        ck_assert_int_eq(net->layers[0].fan_in, 3);
        ck_assert(net->layers[0].w_relerr == 0);
        ck_assert_ptr_nonnull(strstr(net->layers[0].name, "mm"));
        ck_assert_ptr_nonnull(strstr(net->layers[0].name, "add"));
        /* float32 weights are read exactly */
        ck_assert(net->layers[0].w[0 * 3 + 1] == (double)0.1f); /* W[1][0] */
        ck_assert_int_eq(net->in_rank, 2);
        ck_assert_int_eq(net->out_rank, 1);
        check_against(net, ref_mm);
        vfy_net_free(net);
    }
}
END_TEST

/* Gemm parameters for the reference. */
static int g_ta, g_tb, g_crank;
static float g_alpha, g_beta;
static const float GA[6] = {1.5f, -2.0f, 0.25f, 0.75f, 3.0f, -0.5f}; /* B: [3,2] or [2,3] */
static const float GC[2] = {0.125f, -4.0f};
static const double GAD[6] = {1.0 / 3, -2.0 / 7, 0.25, 0.75, 3.0, -0.1};
static double g_B[6];

static Onnx__TensorProto *tensor_d(const char *name, int rank, const int64_t *dims,
                                   const double *v)
{
    int64_t n = prod(rank, dims);
    Onnx__TensorProto *t = tensor_base(name, rank, dims, 11);
    t->n_double_data = (size_t)n;
    t->double_data = t_alloc(sizeof(double) * (size_t)n);
    memcpy(t->double_data, v, sizeof(double) * (size_t)n);
    return t;
}

static void ref_gemm(const double *x, double *y)
{
    /* A = x as [1,3] (or [3,1] with transA), B' [3,2] */
    for (int j = 0; j < 2; j++) {
        double s = 0;
        for (int l = 0; l < 3; l++)
            s += x[l] * g_B[g_tb ? j * 3 + l : l * 2 + j];
        y[j] = (double)g_alpha * s + (double)g_beta * (double)GC[g_crank == 1 ? j : 0];
    }
}

START_TEST(test_gemm)
{
    for (int k = 0; k < 12; k++) {
        int dbl = k >= 8; /* a DOUBLE model whose alpha * B is not exact in double */
        g_ta = k & 1;
        g_tb = (k >> 1) & 1;
        g_crank = (k >> 2) & 1 ? 1 : 0; /* C [2] or C scalar [] */
        g_alpha = dbl ? 0.1f : 0.5f;
        g_beta = 2.0f;
        for (int q = 0; q < 6; q++)
            g_B[q] = dbl ? GAD[q] : (double)GA[q];
        mb b = {0};
        int64_t xd[2] = {g_ta ? 3 : 1, g_ta ? 1 : 3}, bd[2] = {g_tb ? 2 : 3, g_tb ? 3 : 2};
        int64_t cd[1] = {2}, yd[2] = {1, 2};
        b.in[b.nin++] = vinfo("x", dbl ? DBL : FLT, 2, xd);
        b.out[b.nout++] = vinfo("y", dbl ? DBL : FLT, 2, yd);
        ADD_INIT(b, dbl ? tensor_d("B", 2, bd, GAD) : tensor_f("B", 2, bd, GA, ENC_RAW));
        ADD_INIT(b, tensor_f("C", g_crank, cd, GC, dbl ? ENC_DOUBLE : ENC_FLOAT));
        ADD_NODE(b, "Gemm", "gemm1", "x,B,C", "y", attr_f("alpha", g_alpha),
                 attr_f("beta", g_beta), attr_i("transA", g_ta), attr_i("transB", g_tb), NULL);
        vfy_net *net = load_ok(&b);
        ck_assert_int_eq(net->n_in, 3);
        ck_assert_int_eq(net->n_out, 2);
        ck_assert(net->n_ins == 1 && net->n_outs == 1);
        ck_assert_str_eq(net->ins[0].name, "x"); /* what a VNNLIB 2.0 query may name */
        ck_assert_str_eq(net->outs[0].name, "y");
        /* alpha is not +-1: a float execution rounds alpha times the sum after it, so alpha
         * stays a separate (exact) SCALE with beta C */
        ck_assert_int_eq(net->n_layers, 2);
        ck_assert_int_eq(net->layers[0].fan_in, 3);
        ck_assert_int_eq(net->layers[1].kind, VFY_LAYER_SCALE);
        for (int64_t l = 0; l < net->n_layers; l++)
            REQUIRE(net->layers[l].w_relerr == 0);
        REQUIRE(net->layers[1].w[0] == (double)g_alpha);
        check_against(net, ref_gemm);
        vfy_net_free(net);
    }
}
END_TEST

/* Gemm with the computed tensor as B: y = A' x' with A constant [2,3], x [3,1] or [1,3] (transB). */
static void ref_gemm_b(const double *x, double *y)
{
    for (int i = 0; i < 2; i++) {
        double s = 0;
        for (int l = 0; l < 3; l++)
            s += (double)GA[i * 3 + l] * x[l];
        y[i] = s + (double)GC[i];
    }
}

START_TEST(test_gemm_computed_b)
{
    for (int tb = 0; tb < 2; tb++) {
        mb b = {0};
        int64_t xd[2] = {tb ? 1 : 3, tb ? 3 : 1}, ad[2] = {2, 3}, cd[2] = {2, 1}, yd[2] = {2, 1};
        b.in[b.nin++] = vinfo("x", FLT, 2, xd);
        b.out[b.nout++] = vinfo("y", FLT, 2, yd);
        ADD_INIT(b, tensor_f("A", 2, ad, GA, ENC_RAW));
        ADD_INIT(b, tensor_f("C", 2, cd, GC, ENC_RAW));
        ADD_NODE(b, "Gemm", "gb", "A,x,C", "y", attr_i("transB", tb), NULL);
        vfy_net *net = load_ok(&b);
        ck_assert_int_eq(net->n_layers, 1);
        check_against(net, ref_gemm_b);
        vfy_net_free(net);
    }
}
END_TEST

/* x [2,3] @ W32 [3,2] + B2 -> [2,2] (block diagonal), then Relu; and W1 [3] @ x^T style. */
static void ref_batched(const double *x, double *y)
{
    for (int r = 0; r < 2; r++) {
        ref_mm(x + 3 * r, y + 2 * r);
        for (int j = 0; j < 2; j++)
            y[2 * r + j] = y[2 * r + j] > 0 ? y[2 * r + j] : 0;
    }
}

START_TEST(test_matmul_batched)
{
    mb b = {0};
    int64_t xd[3] = {-1, 2, 3}, wd[2] = {3, 2}, bd[1] = {2}, yd[3] = {1, 2, 2};
    b.in[b.nin++] = vinfo("x", FLT, 3, xd);
    b.out[b.nout++] = vinfo("y", FLT, 3, yd);
    ADD_INIT(b, tensor_f("W", 2, wd, W32, ENC_RAW));
    ADD_INIT(b, tensor_f("B", 1, bd, B2, ENC_RAW));
    ADD_NODE(b, "MatMul", "mm", "x,W", "h", NULL);
    ADD_NODE(b, "Add", "add", "B,h", "h2", NULL); /* constant first */
    ADD_NODE(b, "Relu", "relu", "h2", "y", NULL);
    vfy_net *net = load_ok(&b);
    ck_assert_int_eq(net->n_in, 6);
    ck_assert_int_eq(net->n_out, 4);
    ck_assert_int_eq(net->n_layers, 2);
    ck_assert_int_eq(net->layers[0].fan_in, 3);
    ck_assert_int_eq(net->layers[1].kind, VFY_LAYER_RELU);
    check_against(net, ref_batched);
    vfy_net_free(net);
}
END_TEST

/* Constant @ computed: W32^T-like [2,3] constant times x [3]. */
static void ref_const_left(const double *x, double *y)
{
    for (int i = 0; i < 2; i++) {
        y[i] = 0;
        for (int l = 0; l < 3; l++)
            y[i] += (double)GA[i * 3 + l] * x[l];
    }
}

START_TEST(test_matmul_const_left)
{
    mb b = {0};
    int64_t xd[1] = {3}, ad[2] = {2, 3}, yd[1] = {2};
    b.in[b.nin++] = vinfo("x", FLT, 1, xd);
    b.out[b.nout++] = vinfo("y", FLT, 1, yd);
    ADD_INIT(b, tensor_f("A", 2, ad, GA, ENC_FLOAT));
    ADD_NODE(b, "MatMul", "mm", "A,x", "y", NULL);
    vfy_net *net = load_ok(&b);
    ck_assert_int_eq(net->n_layers, 1);
    check_against(net, ref_const_left);
    vfy_net_free(net);
}
END_TEST

/* Normalisation: (x - mean) / d, then 2 * ..., then 1 - ..., d = 3 or 4. */
static const float MEAN[4] = {0.1f, 0.2f, -0.3f, 0.4f};
static float g_div;
static void ref_norm(const double *x, double *y)
{
    for (int k = 0; k < 4; k++)
        y[k] = 1.0 - 2.0 * ((x[k] - (double)MEAN[k]) / (double)g_div);
}

START_TEST(test_normalise)
{
    float divs[2] = {3.0f, 4.0f};
    for (int k = 0; k < 2; k++) {
        g_div = divs[k];
        mb b = {0};
        int64_t xd[2] = {1, 4}, md[2] = {1, 4}, one[1] = {1}, yd[2] = {1, 4};
        float two = 2.0f, onef = 1.0f;
        b.in[b.nin++] = vinfo("x", FLT, 2, xd);
        b.out[b.nout++] = vinfo("y", FLT, 2, yd);
        ADD_INIT(b, tensor_f("mean", 2, md, MEAN, ENC_RAW));
        ADD_INIT(b, tensor_f("two", 0, one, &two, ENC_FLOAT));
        ADD_INIT(b, tensor_f("one", 1, one, &onef, ENC_FLOAT));
        ADD_NODE(b, "Constant", "dconst", "", "d", attr_t("value", tensor_f("", 0, one, &g_div,
                                                                            ENC_RAW)), NULL);
        ADD_NODE(b, "Sub", "sub", "x,mean", "a", NULL);
        ADD_NODE(b, "Div", "div", "a,d", "c", NULL);
        ADD_NODE(b, "Mul", "mul", "two,c", "e", NULL);
        ADD_NODE(b, "Sub", "rsub", "one,e", "y", NULL);
        vfy_net *net = load_ok(&b);
        ck_assert_int_eq(net->n_in, 4);
        /* Sub; Div (1/3 is not a double: w_relerr; 1/4 exact, but a runtime multiplies after
         * the Sub's rounding); Mul by 2 (the same); the final 1 - e folds into the Mul's layer:
         * s = -1 and that layer's bias is 0, so the runtime's 1 - 2c is one sum */
        ck_assert_int_eq(net->n_layers, 3);
        for (int l = 0; l < 3; l++)
            ck_assert_int_eq(net->layers[l].kind, VFY_LAYER_SCALE);
        REQUIRE(net->layers[0].w_relerr == 0 && net->layers[2].w_relerr == 0);
        REQUIRE(net->layers[1].w_relerr == (k == 0 ? 0x1p-53 : 0));
        REQUIRE(net->layers[1].w[0] == (k == 0 ? 1.0 / 3.0 : 0.25));
        REQUIRE(net->layers[2].w[0] == -2.0 && net->layers[2].b[0] == 1.0);
        check_against(net, ref_norm);
        vfy_net_free(net);
    }
}
END_TEST

/* An Add whose double sum is not exact is not folded: the bias would be rounded. */
START_TEST(test_add_inexact_not_folded)
{
    mb b = {0};
    int64_t xd[1] = {1}, one[1] = {1};
    float w = 1.0f, big = 0x1p30f, small = 0x1p-20f;
    b.in[b.nin++] = vinfo("x", FLT, 1, xd);
    b.out[b.nout++] = vinfo("y", FLT, 1, xd);
    ADD_INIT(b, tensor_f("W", 2, (int64_t[]){1, 1}, &w, ENC_RAW));
    ADD_INIT(b, tensor_f("big", 1, one, &big, ENC_RAW));
    ADD_INIT(b, tensor_f("small", 1, one, &small, ENC_RAW));
    ADD_NODE(b, "MatMul", "mm", "x,W", "h", NULL);
    ADD_NODE(b, "Add", "a1", "h,small", "h2", NULL);
    ADD_NODE(b, "Add", "a2", "h2,big", "h3", NULL);     /* 2^-20 + 2^30 is exact in double */
    ADD_NODE(b, "Sub", "a3", "h3,small", "h4", NULL);   /* 2^30 exactly */
    ADD_NODE(b, "Mul", "a4", "h4,big", "y", NULL);
    vfy_net *net = load_ok(&b);
    /* the first Add becomes the MatMul's bias; the others are SCALE layers (the folded bias is
     * not 0, or the multiplier not +-1) */
    ck_assert_int_eq(net->n_layers, 4);
    ck_assert(net->layers[0].b[0] == 0x1p-20 && net->layers[1].b[0] == 0x1p30);
    ck_assert(net->layers[2].b[0] == -0x1p-20 && net->layers[3].w[0] == 0x1p30);
    vfy_net_free(net);
    /* now with a sum that needs more than 53 bits */
    mb c = {0};
    float tiny = 0x1p-40f;
    c.in[c.nin++] = vinfo("x", FLT, 1, xd);
    c.out[c.nout++] = vinfo("y", FLT, 1, xd);
    ADD_INIT(c, tensor_f("big", 1, one, &big, ENC_RAW));
    ADD_INIT(c, tensor_f("tiny", 1, one, &tiny, ENC_RAW));
    ADD_NODE(c, "Add", "a1", "x,big", "h", NULL);
    ADD_NODE(c, "Add", "a2", "h,tiny", "y", NULL);
    net = load_ok(&c);
    ck_assert_int_eq(net->n_layers, 2);
    ck_assert(net->layers[0].b[0] == 0x1p30 && net->layers[1].b[0] == 0x1p-40);
    vfy_net_free(net);
}
END_TEST

/* A bias that a later Add cancels (Gemm bias 1e6, then Add -1e6) is not folded into one row with
 * bias 0: a float32 execution rounds 0.1 + 1e6 to 1000000.125 and returns 0.125 at x = 1, which the
 * folded row's allowance (from |b| = 0) did not cover. The bounds (float semantics) must hold
 * it. */
START_TEST(test_fold_cancelling_bias)
{
    mb b = {0};
    int64_t xd[2] = {1, 1}, one[1] = {1};
    float w = 0.1f, big = 1e6f, nbig = -1e6f;
    b.in[b.nin++] = vinfo("x", FLT, 2, xd);
    b.out[b.nout++] = vinfo("y", FLT, 2, xd);
    ADD_INIT(b, tensor_f("W", 2, (int64_t[]){1, 1}, &w, ENC_RAW));
    ADD_INIT(b, tensor_f("C", 1, one, &big, ENC_RAW));
    ADD_INIT(b, tensor_f("D", 1, one, &nbig, ENC_RAW));
    ADD_NODE(b, "Gemm", "gemm", "x,W,C", "h", NULL);
    ADD_NODE(b, "Add", "add", "h,D", "y", NULL);
    vfy_net *net = load_ok(&b);
    int64_t last = net->n_layers - 1;
    /* the float32 execution in ONNX order at x = 1 */
    volatile float h = w * 1.0f;
    h = h + big;
    float y32 = h + nbig;
    ck_assert(y32 == 0.125f);
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
    vfy_bounds *bc = vfy_bounds_create(ctx);
    ck_assert_ptr_nonnull(bc);
    double lo = 1, hi = 1;
    for (int m = 0; m < 2; m++) {
        vfy_bound_method meth = m ? VFY_BOUND_CROWN : VFY_BOUND_IBP;
        ck_assert_int_eq(vfy_bound_layers(ctx, meth, &lo, &hi, NULL, bc), VFY_OK);
        REQUIRE_MSG(bc->lo[last][0] <= y32 && y32 <= bc->hi[last][0], "%s: [%.17g, %.17g]",
                    m ? "crown" : "ibp", bc->lo[last][0], bc->hi[last][0]);
    }
    ck_assert_int_eq(net->n_layers, 2);
    vfy_bounds_free(bc);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* x [N,2,3] -> Reshape(x, Concat(Gather(Shape(x), 0) unsqueezed, [-1])) -> [1,6] -> MatMul W6x2.
 * Also a folded Cast, Slice, ConstantOfShape and an INT32 Gather index. */
static const float W62[12] = {1, -1, 0.5f, 2, -3, 0.25f, 1.5f, -0.5f, 4, 1, -2, 0.75f};
static void ref_shape(const double *x, double *y)
{
    for (int j = 0; j < 2; j++) {
        y[j] = 0;
        for (int l = 0; l < 6; l++)
            y[j] += x[l] * (double)W62[l * 2 + j];
    }
}

START_TEST(test_shape_folding)
{
    for (int variant = 0; variant < 2; variant++) {
        mb b = {0};
        int64_t xd[3] = {-1, 2, 3}, one[1] = {1}, wd[2] = {6, 2}, yd[2] = {1, 2};
        int64_t m1 = -1, zero64 = 0, ax0 = 0;
        int32_t idx32 = 0;
        b.in[b.nin++] = vinfo("x", FLT, 3, xd);
        b.out[b.nout++] = vinfo("y", FLT, 2, yd);
        ADD_INIT(b, tensor_f("W", 2, wd, W62, ENC_RAW));
        ADD_INIT(b, tensor_i64("minus1", 1, one, &m1, 1));
        ADD_INIT(b, tensor_i32("i0", 0, one, &idx32));
        ADD_INIT(b, tensor_i64("z", 1, one, &zero64, 0));
        ADD_NODE(b, "Shape", "shape", "x", "s", NULL);
        ADD_NODE(b, "Cast", "cast32", "i0", "i0b", attr_i("to", 7), NULL);
        ADD_NODE(b, "Gather", "gather", "s,i0b", "n0", attr_i("axis", 0), NULL);
        if (variant == 0) {
            ADD_NODE(b, "Unsqueeze", "unsq", "n0", "n1", attr_ints("axes", 1, &ax0), NULL);
        } else {
            ADD_NODE(b, "Unsqueeze", "unsq", "n0,z", "n1", NULL);
        }
        /* Slice(minus1, [0], [1]) is minus1 again; ConstantOfShape([1]) + minus1 too */
        ADD_NODE(b, "Slice", "slice", "minus1,z,minus1", "m1s", NULL); /* ends=-1 -> empty */
        ADD_NODE(b, "Concat", "concat0", "m1s,minus1", "m1c", attr_i("axis", 0), NULL);
        ADD_NODE(b, "ConstantOfShape", "cos", "minus1_shape", "zeros",
                 attr_t("value", tensor_i64("", 1, one, &zero64, 0)), NULL);
        ADD_NODE(b, "Shape", "shape2", "minus1", "minus1_shape", NULL);
        ADD_NODE(b, "Add", "addz", "m1c,zeros", "m1d", NULL);
        ADD_NODE(b, "Concat", "concat", "n1,m1d", "newshape", attr_i("axis", 0), NULL);
        ADD_NODE(b, "Reshape", "reshape", "x,newshape", "xf", NULL);
        ADD_NODE(b, "MatMul", "mm", "xf,W", "y", NULL);
        vfy_net *net = load_ok(&b); /* nodes are out of order on purpose (cos before shape2) */
        ck_assert_int_eq(net->n_in, 6);
        ck_assert_int_eq(net->n_out, 2);
        ck_assert_int_eq(net->in_rank, 3);
        ck_assert_int_eq(net->in_shape[0], 1); /* symbolic batch dim taken as 1 */
        ck_assert_int_eq(net->n_layers, 1);
        check_against(net, ref_shape);
        vfy_net_free(net);
    }
}
END_TEST

/* Flatten and Squeeze create no layer. */
START_TEST(test_flatten_squeeze)
{
    mb b = {0};
    int64_t xd[4] = {1, 1, 2, 3}, wd[2] = {6, 2}, yd[2] = {1, 2}, ax[1] = {1};
    b.in[b.nin++] = vinfo("x", FLT, 4, xd);
    b.out[b.nout++] = vinfo("y", FLT, 2, yd);
    ADD_INIT(b, tensor_f("W", 2, wd, W62, ENC_FLOAT));
    ADD_NODE(b, "Squeeze", "sq", "x", "x3", attr_ints("axes", 1, ax), NULL);
    ADD_NODE(b, "Identity", "id", "x3", "x4", NULL);
    ADD_NODE(b, "Flatten", "fl", "x4", "xf", attr_i("axis", 1), NULL);
    ADD_NODE(b, "MatMul", "mm", "xf,W", "y", NULL);
    vfy_net *net = load_ok(&b);
    ck_assert_int_eq(net->n_layers, 1);
    check_against(net, ref_shape);
    vfy_net_free(net);
}
END_TEST

/* Transpose [2,3] -> [3,2], then Neg. */
static void ref_transpose(const double *x, double *y)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 2; j++)
            y[i * 2 + j] = -x[j * 3 + i];
}

START_TEST(test_transpose)
{
    mb b = {0};
    int64_t xd[2] = {2, 3}, yd[2] = {3, 2}, perm[2] = {1, 0};
    b.in[b.nin++] = vinfo("x", FLT, 2, xd);
    b.out[b.nout++] = vinfo("y", FLT, 2, yd);
    ADD_NODE(b, "Transpose", "tr", "x", "t", attr_ints("perm", 2, perm), NULL);
    ADD_NODE(b, "Neg", "neg", "t", "y", NULL);
    vfy_net *net = load_ok(&b);
    ck_assert_int_eq(net->n_layers, 1); /* Neg folds into the permutation exactly */
    ck_assert_int_eq(net->layers[0].kind, VFY_LAYER_DENSE);
    ck_assert_int_eq(net->layers[0].fan_in, 1);
    check_against(net, ref_transpose);
    vfy_net_free(net);

    /* moving only a size-1 axis is free */
    mb c = {0};
    int64_t x1[3] = {1, 3, 1}, y1[3] = {3, 1, 1}, perm3[3] = {1, 0, 2};
    c.in[c.nin++] = vinfo("x", FLT, 3, x1);
    c.out[c.nout++] = vinfo("y", FLT, 3, y1);
    ADD_NODE(c, "Transpose", "tr", "x", "y", attr_ints("perm", 3, perm3), NULL);
    net = load_ok(&c);
    ck_assert_int_eq(net->n_layers, 0);
    ck_assert_int_eq(net->n_in, 3);
    vfy_net_free(net);
}
END_TEST

/* Constant nodes (value tensor, value_float, value_floats), folded arithmetic on constants in float32
 * (0.1f + 0.2f as float32, then used as a bias), broadcasting x [3] against c [2,3]. */
static void ref_const(const double *x, double *y)
{
    float s = 0.1f + 0.2f; /* what onnxruntime computes */
    for (int r = 0; r < 2; r++)
        for (int k = 0; k < 3; k++)
            y[r * 3 + k] = x[k] + (double)s + (double)(r == 0 ? 1.0f : -1.0f);
}

START_TEST(test_constants)
{
    mb b = {0};
    int64_t xd[1] = {3}, yd[2] = {2, 3}, cd[2] = {2, 1};
    float pm[2] = {1.0f, -1.0f};
    b.in[b.nin++] = vinfo("x", FLT, 1, xd);
    b.out[b.nout++] = vinfo("y", FLT, 2, yd);
    ADD_NODE(b, "Constant", "c1", "", "a", attr_f("value_float", 0.1f), NULL);
    ADD_NODE(b, "Constant", "c2", "", "b", attr_t("value", tensor_f("", 0, cd, (float[]){0.2f},
                                                                    ENC_FLOAT)), NULL);
    ADD_NODE(b, "Add", "fold", "a,b", "s", NULL);
    ADD_NODE(b, "Constant", "c3", "", "pm", attr_t("value", tensor_f("", 2, cd, pm, ENC_RAW)), NULL);
    ADD_NODE(b, "Add", "add1", "x,s", "h", NULL);
    ADD_NODE(b, "Add", "bcast", "h,pm", "y", NULL);
    vfy_net *net = load_ok(&b);
    ck_assert_int_eq(net->n_in, 3);
    ck_assert_int_eq(net->n_out, 6);
    check_against(net, ref_const);
    ck_assert(net->layers[0].b[0] == (double)(0.1f + 0.2f));
    vfy_net_free(net);
}
END_TEST

/* Sigmoid and Tanh: x [3] @ W32 + B2 -> Sigmoid -> Mul by Sigmoid(C) (folded in float32, as a
 * runtime computes it) -> Tanh. The activations become their own layers; the Mul is a SCALE layer
 * (never folded into an activation). */
static const float SIG_C[2] = {0.5f, 2.0f};

static float sigmoid_f32(float v) { return 1.0f / (1.0f + expf(-v)); } /* v >= 0 here */

static void ref_sig_tanh(const double *x, double *y)
{
    double h[2];
    ref_mm(x, h);
    for (int j = 0; j < 2; j++)
        y[j] = tanh((double)sigmoid_f32(SIG_C[j]) * (1.0 / (1.0 + exp(-h[j]))));
}

START_TEST(test_sigmoid_tanh)
{
    mb b = {0};
    int64_t xd[1] = {3}, wd[2] = {3, 2}, bd[1] = {2};
    b.in[b.nin++] = vinfo("x", FLT, 1, xd);
    b.out[b.nout++] = vinfo("y", FLT, 1, bd);
    ADD_INIT(b, tensor_f("W", 2, wd, W32, ENC_RAW));
    ADD_INIT(b, tensor_f("B", 1, bd, B2, ENC_RAW));
    ADD_INIT(b, tensor_f("C", 1, bd, SIG_C, ENC_FLOAT));
    ADD_NODE(b, "MatMul", "mm", "x,W", "h", NULL);
    ADD_NODE(b, "Add", "add", "h,B", "z", NULL);
    ADD_NODE(b, "Sigmoid", "sig", "z", "s", NULL);
    ADD_NODE(b, "Sigmoid", "sigc", "C", "sc", NULL); /* constant: folded */
    ADD_NODE(b, "Mul", "mul", "s,sc", "m", NULL);
    ADD_NODE(b, "Tanh", "th", "m", "y", NULL);
    vfy_net *net = load_ok(&b);
    ck_assert_int_eq(net->n_layers, 4);
    ck_assert_int_eq(net->layers[0].kind, VFY_LAYER_DENSE);
    ck_assert_int_eq(net->layers[1].kind, VFY_LAYER_SIGMOID);
    ck_assert_int_eq(net->layers[2].kind, VFY_LAYER_SCALE);
    ck_assert_int_eq(net->layers[3].kind, VFY_LAYER_TANH);
    ck_assert_ptr_null(net->layers[1].w);
    for (int j = 0; j < 2; j++)
        ck_assert(net->layers[2].w[j] == (double)sigmoid_f32(SIG_C[j]));
    check_against(net, ref_sig_tanh);
    /* the library's own evaluations agree: double closely, float32 to float32 accuracy */
    double x[3] = {0.3, -1.2, 0.7}, y[2], r[2], scr[16];
    float xf[3] = {0.3f, -1.2f, 0.7f}, yf[2], sf[16];
    ref_sig_tanh((double[]){(double)xf[0], (double)xf[1], (double)xf[2]}, r);
    for (int j = 0; j < 3; j++)
        x[j] = (double)xf[j];
    vfy_eval_f64(net, x, y, scr);
    vfy_eval_f32(net, xf, yf, sf);
    for (int j = 0; j < 2; j++) {
        REQUIRE_MSG(fabs(y[j] - r[j]) <= 1e-14, "f64 %.17g ref %.17g", y[j], r[j]);
        REQUIRE_MSG(fabs((double)yf[j] - r[j]) <= 1e-6, "f32 %.9g ref %.17g", (double)yf[j], r[j]);
    }
    vfy_net_free(net);
    /* a sigmoid of a saturating input, and the float32 form that cannot overflow */
    ck_assert(vfy_act_f32(VFY_LAYER_SIGMOID, -100.0f) >= 0.0f && vfy_act_f32(VFY_LAYER_SIGMOID, -100.0f) < 1e-40f);
    ck_assert(vfy_act_f32(VFY_LAYER_SIGMOID, 100.0f) == 1.0f);
    ck_assert(vfy_act_f64(VFY_LAYER_SIGMOID, -800.0) == 0.0);
    ck_assert(vfy_act_f32(VFY_LAYER_TANH, -30.0f) == -1.0f);
}
END_TEST

/* Softmax and LogSoftmax as the output: the layers compute the logits (x [1,3] @ W32 + B2), the
 * net records the op, and vfy_eval_out_* gives the model's outputs. A LogSoftmax elsewhere, or
 * over part of the output, is refused by name; a Softmax there is lowered into the layers
 * (lower_softmax) along the last axis, refused along another. */
START_TEST(test_softmax_output)
{
    int64_t xd[2] = {1, 3}, wd[2] = {3, 2}, bd[1] = {2}, yd[2] = {1, 2};
    for (int lg = 0; lg < 2; lg++) {
        mb b = {0};
        b.in[b.nin++] = vinfo("x", FLT, 2, xd);
        b.out[b.nout++] = vinfo("y", FLT, 2, yd);
        ADD_INIT(b, tensor_f("W", 2, wd, W32, ENC_RAW));
        ADD_INIT(b, tensor_f("B", 1, bd, B2, ENC_RAW));
        ADD_NODE(b, "MatMul", "mm", "x,W", "h", NULL);
        ADD_NODE(b, "Add", "add", "h,B", "z", NULL);
        if (lg)
            ADD_NODE(b, "LogSoftmax", "sm", "z", "y", attr_i("axis", 1), NULL);
        else
            ADD_NODE(b, "Softmax", "sm", "z", "y", NULL);
        vfy_net *net = load_ok(&b);
        ck_assert_int_eq(net->out_op, lg ? VFY_OUT_LOG_SOFTMAX : VFY_OUT_SOFTMAX);
        ck_assert_int_eq(net->n_layers, 1);
        ck_assert_int_eq(net->n_out, 2);
        check_against(net, ref_mm); /* the layers: the logits */
        double x[3] = {0.3, -1.2, 0.7}, z[2], y[2], scr[16];
        float xf[3] = {0.3f, -1.2f, 0.7f}, yf[2], sf[16];
        for (int j = 0; j < 3; j++)
            x[j] = (double)xf[j];
        ref_mm(x, z);
        vfy_eval_f64(net, x, y, scr);
        vfy_eval_f32(net, xf, yf, sf);
        vfy_eval_out_f64(net, y);
        vfy_eval_out_f32(net, yf);
        double lse = log(exp(z[0]) + exp(z[1]));
        for (int j = 0; j < 2; j++) {
            double want = lg ? z[j] - lse : exp(z[j] - lse);
            REQUIRE_MSG(fabs(y[j] - want) <= 1e-14, "f64 %.17g want %.17g", y[j], want);
            REQUIRE_MSG(fabs((double)yf[j] - want) <= 1e-6, "f32 %.9g want %.17g", (double)yf[j],
                        want);
        }
        if (!lg)
            ck_assert(fabs(y[0] + y[1] - 1) <= 1e-15);
        vfy_net_free(net);
        /* before another op: a LogSoftmax refused by name, a Softmax lowered (relu(s) = s) */
        b.out[0] = vinfo("r", FLT, 2, yd);
        ADD_NODE(b, "Relu", "relu", "y", "r", NULL);
        if (lg) {
            load_fails(&b, VFY_ERR_UNSUPPORTED, "node 'sm' (LogSoftmax)", "last operation");
            continue;
        }
        net = load_ok(&b);
        ck_assert_int_eq(net->out_op, VFY_OUT_IDENTITY);
        double r[2];
        net_eval(net, x, r);
        for (int j = 0; j < 2; j++)
            REQUIRE_MSG(fabs(r[j] - exp(z[j] - lse)) <= 1e-14, "lowered Softmax %.17g want %.17g",
                        r[j], exp(z[j] - lse));
        vfy_net_free(net);
    }
    /* over each row of a [2, 2] output: lowered, each row a Softmax; on a rank-1 output without
     * an axis (whose meaning changed with opset 13) and along the first axis: refused */
    int64_t x2[2] = {2, 3}, y2[2] = {2, 2}, x1[1] = {3}, y1[1] = {2};
    for (int k = 0; k < 3; k++) {
        mb b = {0};
        b.in[b.nin++] = vinfo("x", FLT, k == 1 ? 1 : 2, k == 1 ? x1 : x2);
        b.out[b.nout++] = vinfo("y", FLT, k == 1 ? 1 : 2, k == 1 ? y1 : y2);
        ADD_INIT(b, tensor_f("W", 2, wd, W32, ENC_RAW));
        ADD_NODE(b, "MatMul", "mm", "x,W", "z", NULL);
        ADD_NODE(b, "Softmax", "sm", "z", "y", k == 2 ? attr_i("axis", 0) : NULL, NULL);
        if (k) {
            load_fails(&b, VFY_ERR_UNSUPPORTED, "node 'sm' (Softmax)", "last axis");
            continue;
        }
        vfy_net *net = load_ok(&b);
        double x[6] = {0.3, -1.2, 0.7, 1.1, 0.2, -0.4}, y[4];
        net_eval(net, x, y);
        for (int row = 0; row < 2; row++) {
            double z[2] = {0, 0};
            for (int j = 0; j < 2; j++)
                for (int i = 0; i < 3; i++)
                    z[j] += x[row * 3 + i] * (double)W32[i * 2 + j];
            for (int j = 0; j < 2; j++) {
                double want = 1.0 / (1.0 + exp(z[1 - j] - z[j]));
                REQUIRE_MSG(fabs(y[row * 2 + j] - want) <= 1e-14, "row %d: %.17g want %.17g", row,
                            y[row * 2 + j], want);
            }
        }
        vfy_net_free(net);
    }
}
END_TEST

/* The mnist-like chain: Flatten -> Gemm -> Relu -> Gemm, weights in float_data. */
START_TEST(test_relu_chain)
{
    mb b = {0};
    int64_t xd[3] = {1, 1, 3}, w1d[2] = {2, 3}, b1d[1] = {2}, w2d[2] = {2, 2}, yd[2] = {1, 2};
    float w2[4] = {1, 2, -3, 0.5f};
    b.in[b.nin++] = vinfo("x", FLT, 3, xd);
    b.out[b.nout++] = vinfo("y", FLT, 2, yd);
    ADD_INIT(b, tensor_f("W1", 2, w1d, GA, ENC_FLOAT));
    ADD_INIT(b, tensor_f("B1", 1, b1d, GC, ENC_FLOAT));
    ADD_INIT(b, tensor_f("W2", 2, w2d, w2, ENC_FLOAT));
    b.in[b.nin++] = vinfo("W1", FLT, 2, w1d); /* IR < 4 style: initializers listed as inputs */
    ADD_NODE(b, "Flatten", "", "x", "xf", NULL);
    ADD_NODE(b, "Gemm", "", "xf,W1,B1", "h", attr_i("transB", 1), NULL);
    ADD_NODE(b, "Relu", "", "h", "r", NULL);
    ADD_NODE(b, "Gemm", "", "r,W2", "y", attr_i("transB", 1), NULL);
    vfy_net *net = load_ok(&b);
    ck_assert_int_eq(net->n_layers, 3);
    ck_assert_str_eq(net->layers[0].name, "#1");
    double x[3] = {0.5, -1, 2}, y[2], h[2];
    net_eval(net, x, y);
    for (int i = 0; i < 2; i++) {
        h[i] = (double)GC[i];
        for (int l = 0; l < 3; l++)
            h[i] += (double)GA[i * 3 + l] * x[l];
        h[i] = h[i] > 0 ? h[i] : 0;
    }
    for (int i = 0; i < 2; i++)
        ck_assert(fabs(y[i] - ((double)w2[i * 2] * h[0] + (double)w2[i * 2 + 1] * h[1])) < 1e-12);
    vfy_net_free(net);
}
END_TEST

/* ---- graphs whose computed path branches: residual Add/Sub, computed Concat ---- */

static float RA[16], RB[16], RC[12], RV[16], RW[66], RK[2], RBA[4];

static void res_weights(void)
{
    for (int i = 0; i < 16; i++) {
        RA[i] = (float)((i * 7 + 3) % 11 - 5) / 4.0f;
        RB[i] = (float)((i * 5 + 1) % 9 - 4) / 4.0f;
        RV[i] = (float)((i * 3 + 2) % 7 - 3) / 8.0f;
    }
    for (int i = 0; i < 12; i++)
        RC[i] = (float)((i * 11 + 4) % 13 - 6) / 4.0f;
    for (int i = 0; i < 66; i++)
        RW[i] = (float)((i * 13 + 5) % 17 - 8) / 8.0f;
    for (int i = 0; i < 4; i++)
        RBA[i] = (float)i * 0.25f - 0.375f;
    RK[0] = 0.5f;
    RK[1] = -1.5f;
}

/* y = W v + b for W [n_out, n_in] row-major (Gemm with transB = 1) */
static void ref_gemm_t(const float *W, const float *b, int n_out, int n_in, const double *v, double *y)
{
    for (int o = 0; o < n_out; o++) {
        y[o] = b ? (double)b[o] : 0.0;
        for (int j = 0; j < n_in; j++)
            y[o] += (double)W[o * n_in + j] * v[j];
    }
}

static double relu_d(double v) { return v > 0 ? v : 0; }

/* t = relu(v + B relu(A v + bias)) (bias may be NULL), the residual block of R1 and R2 */
static void res_block(const double *v, const float *bias, double *t)
{
    double h[4], f[4];
    ref_gemm_t(RA, bias, 4, 4, v, h);
    for (int i = 0; i < 4; i++)
        h[i] = relu_d(h[i]);
    ref_gemm_t(RB, NULL, 4, 4, h, f);
    for (int i = 0; i < 4; i++)
        t[i] = relu_d(v[i] + f[i]);
}

/* R1: t = relu(x + B relu(A x + ba)), y = C t: x crosses a ReLU (carried as relu(x), relu(-x)). */
static void ref_res1(const double *x, double *y)
{
    double t[4];
    res_block(x, RBA, t);
    ref_gemm_t(RC, NULL, 3, 4, t, y);
}

/* R2 (a ResNet block): r = relu(A x + ba), t = relu(r + B relu(A r)), y = C t: r is >= 0, carried
 * as itself. */
static void ref_res2(const double *x, double *y)
{
    double r[4], t[4];
    ref_gemm_t(RA, RBA, 4, 4, x, r);
    for (int i = 0; i < 4; i++)
        r[i] = relu_d(r[i]);
    res_block(r, NULL, t);
    ref_gemm_t(RC, NULL, 3, 4, t, y);
}

/* R3: x [1,1,4,4], r = relu(x), m = maxpool2x2(r), c = concat(flat(m), flat(r), K) [1,22],
 * z = V flat(r) [1,1], y = W (c - z) (z broadcast). */
static void ref_res3(const double *x, double *y)
{
    double c[22], z;
    for (int oy = 0; oy < 2; oy++)
        for (int ox = 0; ox < 2; ox++) {
            double m = 0;
            for (int ky = 0; ky < 2; ky++)
                for (int kx = 0; kx < 2; kx++)
                    m = fmax(m, relu_d(x[(2 * oy + ky) * 4 + 2 * ox + kx]));
            c[oy * 2 + ox] = m;
        }
    for (int i = 0; i < 16; i++)
        c[4 + i] = relu_d(x[i]);
    c[20] = RK[0];
    c[21] = RK[1];
    z = 0;
    for (int i = 0; i < 16; i++)
        z += (double)RV[i] * c[4 + i];
    for (int i = 0; i < 22; i++)
        c[i] -= z;
    ref_gemm_t(RW, NULL, 3, 22, c, y);
}

static void build_res12(mb *b, int variant)
{
    int64_t xd[2] = {1, 4}, wd[2] = {4, 4}, bd[1] = {4}, cd[2] = {3, 4}, yd[2] = {1, 3};
    res_weights();
    b->in[b->nin++] = vinfo("x", FLT, 2, xd);
    b->out[b->nout++] = vinfo("y", FLT, 2, yd);
    ADD_INIT(*b, tensor_f("A", 2, wd, RA, ENC_FLOAT));
    ADD_INIT(*b, tensor_f("ba", 1, bd, RBA, ENC_FLOAT));
    ADD_INIT(*b, tensor_f("B", 2, wd, RB, ENC_FLOAT));
    ADD_INIT(*b, tensor_f("C", 2, cd, RC, ENC_RAW));
    if (variant == 1) {
        ADD_NODE(*b, "Gemm", "g1", "x,A,ba", "h", attr_i("transB", 1), NULL);
        ADD_NODE(*b, "Relu", "r1", "h", "hr", NULL);
        ADD_NODE(*b, "Gemm", "g2", "hr,B", "f", attr_i("transB", 1), NULL);
        ADD_NODE(*b, "Add", "skip", "x,f", "s", NULL);
    } else {
        ADD_NODE(*b, "Gemm", "g0", "x,A,ba", "a", attr_i("transB", 1), NULL);
        ADD_NODE(*b, "Relu", "r0", "a", "r", NULL);
        ADD_NODE(*b, "Gemm", "g1", "r,A", "h", attr_i("transB", 1), NULL);
        ADD_NODE(*b, "Relu", "r1", "h", "hr", NULL);
        ADD_NODE(*b, "Gemm", "g2", "hr,B", "f", attr_i("transB", 1), NULL);
        ADD_NODE(*b, "Add", "skip", "f,r", "s", NULL); /* the carried value second */
    }
    ADD_NODE(*b, "Relu", "r2", "s", "t", NULL);
    ADD_NODE(*b, "Gemm", "g3", "t,C", "y", attr_i("transB", 1), NULL);
}

static void build_res3(mb *b)
{
    int64_t xd[4] = {1, 1, 4, 4}, kd[2] = {1, 2}, vd[2] = {16, 1}, wd[2] = {22, 3}, yd[2] = {1, 3};
    int64_t k2[2] = {2, 2};
    res_weights();
    b->in[b->nin++] = vinfo("x", FLT, 4, xd);
    b->out[b->nout++] = vinfo("y", FLT, 2, yd);
    ADD_INIT(*b, tensor_f("K", 2, kd, RK, ENC_FLOAT));
    ADD_INIT(*b, tensor_f("V", 2, vd, RV, ENC_FLOAT));
    float wt[66]; /* W as [22, 3] for a plain MatMul */
    for (int o = 0; o < 3; o++)
        for (int i = 0; i < 22; i++)
            wt[i * 3 + o] = RW[o * 22 + i];
    ADD_INIT(*b, tensor_f("W", 2, wd, wt, ENC_FLOAT));
    ADD_NODE(*b, "Relu", "r", "x", "xr", NULL);
    ADD_NODE(*b, "MaxPool", "mp", "xr", "m", attr_ints("kernel_shape", 2, k2),
             attr_ints("strides", 2, k2), NULL);
    ADD_NODE(*b, "Flatten", "fr", "xr", "rf", NULL);
    ADD_NODE(*b, "Flatten", "fm", "m", "mf", NULL);
    ADD_NODE(*b, "MatMul", "z", "rf,V", "z", NULL);
    ADD_NODE(*b, "Concat", "cat", "mf,rf,K", "c", attr_i("axis", 1), NULL);
    ADD_NODE(*b, "Sub", "centre", "c,z", "s", NULL);
    ADD_NODE(*b, "MatMul", "out", "s,W", "y", NULL);
}

/* Every reference output at sampled points of a box lies in the lowered net's CROWN bounds and in
 * its bounds after alpha-CROWN on the hidden layers (no tolerance; float semantics). */
static void check_bounds_hold(const vfy_net *net, ref_fn ref, double radius)
{
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
    vfy_bounds *bc = vfy_bounds_create(ctx);
    ck_assert_ptr_nonnull(bc);
    double lo[64], hi[64], x[64], y[32];
    ck_assert_int_le(net->n_in, 64);
    ck_assert_int_le(net->n_out, 32);
    for (int64_t j = 0; j < net->n_in; j++) {
        double c = 0.5 * urand();
        lo[j] = c - radius;
        hi[j] = c + radius;
    }
    int64_t L = net->n_layers - 1, n_tight = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 0)
            ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo, hi, NULL, bc), VFY_OK);
        else
            ck_assert_int_eq(vfy_bound_tighten_alpha(ctx, lo, hi, bc, 20, NULL, &n_tight), VFY_OK);
        for (int s = 0; s < 400; s++) {
            for (int64_t j = 0; j < net->n_in; j++) {
                double u = s < 2 ? (double)s : (s < 4 ? (double)((j + s) % 2) : 0.25 * (urand() + 2));
                x[j] = lo[j] + u * (hi[j] - lo[j]);
            }
            ref(x, y);
            for (int64_t j = 0; j < net->n_out; j++)
                REQUIRE_MSG(bc->lo[L][j] <= y[j] && y[j] <= bc->hi[L][j],
                            "pass %d output %lld: %.17g not in [%.17g, %.17g]", pass, (long long)j,
                            y[j], bc->lo[L][j], bc->hi[L][j]);
        }
    }
    vfy_bounds_free(bc);
    vfy_bound_ctx_free(ctx);
}

START_TEST(test_residual)
{
    /* R1: x is read after the ReLU it feeds: carried as (relu(x), relu(-x)) */
    mb b1 = {0};
    build_res12(&b1, 1);
    vfy_net *net = load_ok(&b1);
    check_against(net, ref_res1);
    /* DENSE [x; -x; A x + ba] (the split folded into g1), RELU over 12, DENSE [p; q; B h],
     * DENSE p - q + f, RELU 4, DENSE 3 */
    ck_assert_int_eq(net->n_layers, 6);
    ck_assert_int_eq(net->layers[1].kind, VFY_LAYER_RELU);
    ck_assert_int_eq(net->layers[1].n_out, 12);
    ck_assert_int_eq(net->layers[3].n_out, 4);
    check_bounds_hold(net, ref_res1, 0.3);
    check_bounds_hold(net, ref_res1, 1.5);
    vfy_net_free(net);
    /* R2: the carried value is a ReLU's output, >= 0: it crosses the next ReLU as itself */
    mb b2 = {0};
    build_res12(&b2, 2);
    net = load_ok(&b2);
    check_against(net, ref_res2);
    ck_assert_int_eq(net->n_layers, 8);
    ck_assert_int_eq(net->layers[3].kind, VFY_LAYER_RELU);
    ck_assert_int_eq(net->layers[3].n_out, 8);
    {
        /* the copies of r are known >= 0: their ReLU neurons are stable, not unstable by a
         * rounding slack */
        vfy_bound_ctx *ctx;
        ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
        vfy_bounds *bb = vfy_bounds_create(ctx);
        double lo[4] = {-1, -1, -1, -1}, hi[4] = {1, 1, 1, 1};
        ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_IBP, lo, hi, NULL, bb), VFY_OK);
        for (int j = 0; j < 4; j++)
            REQUIRE(bb->lo[2][j] == 0 && bb->lo[4][j] == 0 && bb->hi[2][j] > 0);
        vfy_bounds_free(bb);
        vfy_bound_ctx_free(ctx);
    }
    check_bounds_hold(net, ref_res2, 0.3);
    check_bounds_hold(net, ref_res2, 1.5);
    vfy_net_free(net);
    /* R3: MaxPool carrying, aliases (Flatten) of carried values, Concat with a constant, Sub of
     * two computed tensors with broadcasting */
    mb b3 = {0};
    build_res3(&b3);
    net = load_ok(&b3);
    check_against(net, ref_res3);
    ck_assert_int_eq(net->layers[1].kind, VFY_LAYER_MAXPOOL);
    ck_assert_int_eq(net->layers[1].n_out, 16 + 4);
    check_bounds_hold(net, ref_res3, 0.3);
    vfy_net_free(net);
}
END_TEST

/* Several graph inputs and outputs: a [1,2] and b [3] in, u = a Wa + b, y1 = relu(u) [1,3] and
 * y2 = y1 Wb [1,2] out, listed y2 first. The net's input is (a, b), its output (y2, y1). */
static const float MIO_A[6] = {0.5f, -1.25f, 2.0f, 1.5f, 0.75f, -0.5f}; /* Wa [2,3] */
static const float MIO_B[6] = {1.0f, -2.0f, 0.25f, 0.5f, -1.5f, 3.0f};  /* Wb [3,2] */

static void ref_multi_io(const double *x, double *y)
{
    double y1[3];
    for (int j = 0; j < 3; j++)
        y1[j] = relu_d(x[0] * MIO_A[j] + x[1] * MIO_A[3 + j] + x[2 + j]);
    for (int j = 0; j < 2; j++)
        y[j] = y1[0] * MIO_B[j] + y1[1] * MIO_B[2 + j] + y1[2] * MIO_B[4 + j];
    memcpy(y + 2, y1, sizeof y1);
}

static void build_multi_io(mb *bp)
{
    static const int64_t ad[2] = {1, 2}, bd[1] = {3}, wad[2] = {2, 3}, wbd[2] = {3, 2},
                         y1d[2] = {1, 3}, y2d[2] = {1, 2};
    mb b = {0};
    b.in[b.nin++] = vinfo("a", FLT, 2, ad);
    b.in[b.nin++] = vinfo("b", FLT, 1, bd);
    b.out[b.nout++] = vinfo("y2", FLT, 2, y2d);
    b.out[b.nout++] = vinfo("y1", FLT, 2, y1d);
    ADD_INIT(b, tensor_f("Wa", 2, wad, MIO_A, ENC_RAW));
    ADD_INIT(b, tensor_f("Wb", 2, wbd, MIO_B, ENC_RAW));
    ADD_NODE(b, "MatMul", "mm1", "a,Wa", "t", NULL);
    ADD_NODE(b, "Add", "add", "t,b", "u", NULL);
    ADD_NODE(b, "Relu", "r", "u", "y1", NULL);
    ADD_NODE(b, "MatMul", "mm2", "y1,Wb", "y2", NULL);
    *bp = b;
}

/* The DENSE layers of net that only select (one coefficient 1 a row, no bias). */
static int n_selections(const vfy_net *net)
{
    int n = 0;
    for (int64_t l = 0; l < net->n_layers; l++) {
        const vfy_layer *L = &net->layers[l];
        int sel = L->kind == VFY_LAYER_DENSE;
        for (int64_t o = 0; sel && o < L->n_out; o++) {
            const int64_t *idx;
            const double *val;
            int64_t nz, ones = 0, others = 0;
            vfy_layer_row(L, o, &idx, &val, &nz);
            for (int64_t t = 0; t < nz; t++)
                ones += val[t] == 1, others += val[t] != 1 && val[t] != 0;
            sel = ones == 1 && !others && L->b[o] == 0;
        }
        n += sel;
    }
    return n;
}

static const float DUP_W[8] = {1.0f, -2.0f, 0.5f, 3.0f, -1.5f, 0.25f, 2.0f, -0.75f};
static void ref_dup(const double *x, double *y)
{
    const double v[4] = {x[0], x[1], x[0], x[1]};
    for (int i = 0; i < 2; i++) {
        y[i] = 0;
        for (int j = 0; j < 4; j++)
            y[i] += DUP_W[i * 4 + j] * v[j];
    }
}

START_TEST(test_multi_io)
{
    int64_t bd[1] = {3};
    mb b;
    build_multi_io(&b);
    vfy_net *net = load_ok(&b);
    ck_assert(net->n_in == 5 && net->n_out == 5 && net->n_ins == 2 && net->n_outs == 2);
    ck_assert_str_eq(net->ins[0].name, "a");
    ck_assert(net->ins[0].off == 0 && net->ins[0].numel == 2 && net->ins[0].rank == 2 &&
              net->ins[0].shape[1] == 2);
    ck_assert_str_eq(net->ins[1].name, "b");
    ck_assert(net->ins[1].off == 2 && net->ins[1].numel == 3 && net->ins[1].rank == 1);
    ck_assert_str_eq(net->outs[0].name, "y2");
    ck_assert(net->outs[0].off == 0 && net->outs[0].numel == 2);
    ck_assert_str_eq(net->outs[1].name, "y1");
    ck_assert(net->outs[1].off == 2 && net->outs[1].numel == 3 && net->outs[1].shape[1] == 3);
    check_against(net, ref_multi_io);
    /* the joins are selections, folded into the layers beside them */
    ck_assert_int_eq(n_selections(net), 0);
    check_bounds_hold(net, ref_multi_io, 0.3);
    check_bounds_hold(net, ref_multi_io, 1.5);
    vfy_net_free(net);
    /* an unused input still takes its place in the net's input */
    b.in[b.nin++] = vinfo("c", FLT, 1, bd);
    net = load_ok(&b);
    ck_assert(net->n_in == 8 && net->n_ins == 3 && net->ins[2].off == 5);
    vfy_net_free(net);
    /* the model's own names for its values are kept: a value named as the joined input is not
     * taken */
    mb c = {0};
    c.in[c.nin++] = vinfo("vfy.inputs", FLT, 1, bd);
    c.in[c.nin++] = vinfo("x", FLT, 1, bd);
    c.out[c.nout++] = vinfo("y", FLT, 1, bd);
    c.out[c.nout++] = vinfo("vfy.outputs", FLT, 1, bd);
    ADD_NODE(c, "Add", "add", "vfy.inputs,x", "y", NULL);
    ADD_NODE(c, "Relu", "r", "x", "vfy.outputs", NULL);
    net = load_ok(&c);
    ck_assert(net->n_in == 6 && net->n_out == 6);
    ck_assert_str_eq(net->ins[0].name, "vfy.inputs");
    ck_assert_str_eq(net->outs[1].name, "vfy.outputs");
    double x[6] = {1, -2, 3, 0.5, 4, -6}, y[6];
    net_eval(net, x, y);
    const double want[6] = {1.5, 2, -3, 0.5, 4, 0};
    for (int j = 0; j < 6; j++)
        REQUIRE_MSG(y[j] == want[j], "output %d: %g, want %g", j, y[j], want[j]);
    vfy_net_free(net);
    /* a selection that reads an input twice (Concat(x, x)) is not folded into the Gemm after
     * it: the merged coefficients would be sums, another float computation */
    int64_t xd[2] = {1, 2}, wd[2] = {2, 4}, yd[2] = {1, 2};
    mb d = {0};
    d.in[d.nin++] = vinfo("x", FLT, 2, xd);
    d.out[d.nout++] = vinfo("y", FLT, 2, yd);
    ADD_INIT(d, tensor_f("W", 2, wd, DUP_W, ENC_RAW));
    ADD_NODE(d, "Concat", "cat", "x,x", "c", attr_i("axis", 1), NULL);
    ADD_NODE(d, "Gemm", "g", "c,W", "y", attr_i("transB", 1), NULL);
    net = load_ok(&d);
    ck_assert_int_eq(net->n_layers, 2);
    ck_assert_int_eq(n_selections(net), 1);
    ck_assert_int_eq(net->layers[1].fan_in, 4);
    check_against(net, ref_dup);
    check_bounds_hold(net, ref_dup, 0.5);
    vfy_net_free(net);
}
END_TEST

/* A Conv net on x [1,1,20,20], given whole or as its top and bottom halves joined by a Concat
 * (large: the joins lower to sparse selections). */
static float SEL_K[18], SEL_W[3 * 648];

static void build_halves(mb *b, int halves)
{
    static const int64_t xd[4] = {1, 1, 20, 20}, hd[4] = {1, 1, 10, 20}, kd[4] = {2, 1, 3, 3},
                         wd[2] = {3, 648}, yd[2] = {1, 3};
    memset(b, 0, sizeof *b);
    if (halves) {
        b->in[b->nin++] = vinfo("top", FLT, 4, hd);
        b->in[b->nin++] = vinfo("bottom", FLT, 4, hd);
        ADD_NODE(*b, "Concat", "join", "top,bottom", "x", attr_i("axis", 2), NULL);
    } else {
        b->in[b->nin++] = vinfo("x", FLT, 4, xd);
    }
    b->out[b->nout++] = vinfo("y", FLT, 2, yd);
    ADD_INIT(*b, tensor_f("K", 4, kd, SEL_K, ENC_RAW));
    ADD_INIT(*b, tensor_f("W", 2, wd, SEL_W, ENC_RAW));
    ADD_NODE(*b, "Conv", "conv", "x,K", "c", NULL);
    ADD_NODE(*b, "Relu", "r", "c", "h", NULL);
    ADD_NODE(*b, "Flatten", "f", "h", "v", attr_i("axis", 1), NULL);
    ADD_NODE(*b, "Gemm", "g", "v,W", "y", attr_i("transB", 1), NULL);
}

START_TEST(test_selections_sparse)
{
    for (int k = 0; k < 18; k++)
        SEL_K[k] = (float)urand();
    for (int k = 0; k < 3 * 648; k++)
        SEL_W[k] = (float)(0.1 * urand());
    mb whole, halves;
    build_halves(&whole, 0);
    build_halves(&halves, 1);
    vfy_net *a = load_ok(&whole), *b = load_ok(&halves);
    /* the joined halves are the input in its order: the selections are dropped, the Conv first */
    ck_assert_int_eq(b->n_layers, a->n_layers);
    ck_assert_int_eq(n_selections(b), 0);
    ck_assert(b->layers[0].kind == VFY_LAYER_DENSE && b->layers[0].n_in == 400);
    double x[400], ya[3], yb[3];
    for (int t = 0; t < 5; t++) {
        for (int k = 0; k < 400; k++)
            x[k] = urand();
        net_eval(a, x, ya);
        net_eval(b, x, yb);
        for (int j = 0; j < 3; j++)
            REQUIRE_MSG(ya[j] == yb[j], "output %d: %.17g whole, %.17g joined", j, ya[j], yb[j]);
    }
    vfy_net_free(a);
    vfy_net_free(b);
}
END_TEST

/* Values inside the graph asked for as more outputs (VNNLIB 2.0's declare-hidden). */
static vfy_status load_hidden(const mb *b, const char *const *hidden, int64_t n, vfy_net **net,
                              vfy_error *e)
{
    size_t len;
    uint8_t *buf = mb_pack(b, &len);
    vfy_error_clear(e);
    return vfy_onnx_load_bytes_hidden(buf, len, "test.onnx", hidden, n, net, e);
}

static void ref_multi_io_hidden(const double *x, double *y)
{
    ref_multi_io(x, y); /* then u = a Wa + b, before the ReLU */
    for (int j = 0; j < 3; j++)
        y[5 + j] = x[0] * MIO_A[j] + x[1] * MIO_A[3 + j] + x[2 + j];
}

START_TEST(test_hidden_values)
{
    mb b;
    build_multi_io(&b);
    vfy_net *net = NULL;
    vfy_error e;
    const char *u[1] = {"u"};
    REQUIRE_MSG(load_hidden(&b, u, 1, &net, &e) == VFY_OK, "%s", e.msg);
    ck_assert(net->n_out == 8 && net->n_outs == 3 && net->outs[2].hidden && !net->outs[1].hidden);
    ck_assert_str_eq(net->outs[2].name, "u");
    ck_assert(net->outs[2].off == 5 && net->outs[2].numel == 3 && net->outs[2].rank == 2);
    check_against(net, ref_multi_io_hidden);
    check_bounds_hold(net, ref_multi_io_hidden, 0.5);
    vfy_net_free(net);
    /* a graph input may be asked for too; the errors */
    const char *ab[2] = {"b", "a"};
    REQUIRE_MSG(load_hidden(&b, ab, 2, &net, &e) == VFY_OK, "%s", e.msg);
    ck_assert(net->n_out == 5 + 3 + 2 && net->outs[2].off == 5 && net->outs[3].off == 8 &&
              net->outs[3].numel == 2);
    vfy_net_free(net);
    static const struct {
        const char *names[2];
        int n;
        vfy_status st;
        const char *msg;
    } bad[] = {
        {{"nope"}, 1, VFY_ERR_INVALID, "no value named 'nope' (declare-hidden) in the model"},
        {{"Wa"}, 1, VFY_ERR_UNSUPPORTED, "'Wa' (declare-hidden) is a constant of the model"},
        {{"y1"}, 1, VFY_ERR_INVALID, "'y1' (declare-hidden) is a graph output"},
        {{"u", "u"}, 2, VFY_ERR_INVALID, "'u' (declare-hidden) is declared hidden twice"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        net = NULL;
        vfy_status st = load_hidden(&b, bad[k].names, bad[k].n, &net, &e);
        REQUIRE_MSG(st == bad[k].st && strstr(e.msg, bad[k].msg) && strstr(e.msg, "test.onnx"),
                    "case %zu: %s: %s", k, vfy_status_name(st), e.msg);
        ck_assert_ptr_null(net);
    }
}
END_TEST

/* y = relu(relu(x)) + relu(x): the inner ReLU's output is carried past the outer one, of which it
 * is the value (>= 0): an alias. Before, the outer ReLU acted in place on the carried slot and the
 * lowering counted two slots where the vector had one ("does not follow"; random DAG seeds 358
 * and 364 of test_random_dags hit it). */
static void ref_relu_twice(const double *x, double *y)
{
    for (int j = 0; j < 3; j++)
        y[j] = 2 * (x[j] > 0 ? x[j] : 0);
}

START_TEST(test_relu_twice_carried)
{
    int64_t xd[2] = {1, 3};
    mb b = {0};
    b.in[b.nin++] = vinfo("x", FLT, 2, xd);
    b.out[b.nout++] = vinfo("y", FLT, 2, xd);
    ADD_NODE(b, "Relu", "r1", "x", "h", NULL);
    ADD_NODE(b, "Relu", "r2", "h", "g", NULL);
    ADD_NODE(b, "Add", "skip", "g,h", "y", NULL);
    vfy_net *net = load_ok(&b);
    check_against(net, ref_relu_twice);
    vfy_net_free(net);
}
END_TEST

START_TEST(test_residual_errors)
{
    int64_t xd[2] = {1, 3};
    /* a power of two computed tensors (their quotient is supported: test_div_computed) */
    mb b = {0};
    b.in[b.nin++] = vinfo("x", FLT, 2, xd);
    b.out[b.nout++] = vinfo("y", FLT, 2, xd);
    ADD_NODE(b, "Relu", "r", "x", "h", NULL);
    ADD_NODE(b, "Pow", "pw", "x,h", "y", NULL);
    load_fails(&b, VFY_ERR_UNSUPPORTED, "node 'pw' (Pow)", "computed exponent");
}
END_TEST

/* A residual block on an 8 x 16 x 16 input, y = Gemm(relu(conv2(relu(conv1(x))) + x)), both convs
 * 3 x 3 with padding 1: its lowered convolutions and the copies that carry x are large and mostly
 * zeros, so they are held in sparse form only (no dense matrix), the copy of x folded into the
 * sparse conv1 layer; both layers take the convolution form. The lowered net evaluates as the
 * graph does, and CROWN bounds hold at sampled points (no tolerance). */
enum { RC_C = 8, RC_H = 16, RC_N = RC_C * RC_H * RC_H, RC_OUT = 4 };
static float rc_k[2][RC_C * RC_C * 9], rc_b[2][RC_C], rc_fc[RC_OUT * RC_N], rc_fb[RC_OUT];

static void rc_conv(int k, const double *x, double *y)
{
    for (int o = 0; o < RC_C; o++)
        for (int i = 0; i < RC_H; i++)
            for (int j = 0; j < RC_H; j++) {
                double s = rc_b[k][o];
                for (int c = 0; c < RC_C; c++)
                    for (int di = 0; di < 3; di++)
                        for (int dj = 0; dj < 3; dj++) {
                            int ii = i + di - 1, jj = j + dj - 1;
                            if (ii >= 0 && ii < RC_H && jj >= 0 && jj < RC_H)
                                s += (double)rc_k[k][((o * RC_C + c) * 3 + di) * 3 + dj] *
                                     x[(c * RC_H + ii) * RC_H + jj];
                        }
                y[(o * RC_H + i) * RC_H + j] = s;
            }
}

static void ref_rc(const double *x, double *y)
{
    static double h[RC_N], g[RC_N];
    rc_conv(0, x, h);
    for (int i = 0; i < RC_N; i++)
        h[i] = h[i] > 0 ? h[i] : 0;
    rc_conv(1, h, g);
    for (int i = 0; i < RC_N; i++)
        g[i] = g[i] + x[i] > 0 ? g[i] + x[i] : 0;
    for (int o = 0; o < RC_OUT; o++) {
        y[o] = rc_fb[o];
        for (int i = 0; i < RC_N; i++)
            y[o] += (double)rc_fc[o * RC_N + i] * g[i];
    }
}

START_TEST(test_residual_conv_sparse)
{
    mb b = {0};
    int64_t xd[4] = {1, RC_C, RC_H, RC_H}, yd[2] = {1, RC_OUT}, kd[4] = {RC_C, RC_C, 3, 3};
    int64_t bd[1] = {RC_C}, fd[2] = {RC_OUT, RC_N}, fbd[1] = {RC_OUT}, pads[4] = {1, 1, 1, 1};
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < RC_C * RC_C * 9; i++)
            rc_k[k][i] = (float)(urand() / 8);
        for (int i = 0; i < RC_C; i++)
            rc_b[k][i] = (float)(urand() / 4);
    }
    for (int i = 0; i < RC_OUT * RC_N; i++)
        rc_fc[i] = (float)(urand() / 16);
    for (int i = 0; i < RC_OUT; i++)
        rc_fb[i] = (float)urand();
    b.in[b.nin++] = vinfo("x", FLT, 4, xd);
    b.out[b.nout++] = vinfo("y", FLT, 2, yd);
    ADD_INIT(b, tensor_f("W1", 4, kd, rc_k[0], ENC_RAW));
    ADD_INIT(b, tensor_f("B1", 1, bd, rc_b[0], ENC_RAW));
    ADD_INIT(b, tensor_f("W2", 4, kd, rc_k[1], ENC_RAW));
    ADD_INIT(b, tensor_f("B2", 1, bd, rc_b[1], ENC_RAW));
    ADD_INIT(b, tensor_f("FC", 2, fd, rc_fc, ENC_RAW));
    ADD_INIT(b, tensor_f("FB", 1, fbd, rc_fb, ENC_RAW));
    ADD_NODE(b, "Conv", "c1", "x,W1,B1", "h", attr_ints("pads", 4, pads), NULL);
    ADD_NODE(b, "Relu", "r1", "h", "r", NULL);
    ADD_NODE(b, "Conv", "c2", "r,W2,B2", "g", attr_ints("pads", 4, pads), NULL);
    ADD_NODE(b, "Add", "add", "g,x", "s", NULL);
    ADD_NODE(b, "Relu", "r2", "s", "t", NULL);
    ADD_NODE(b, "Flatten", "flat", "t", "f", attr_i("axis", 1), NULL);
    ADD_NODE(b, "Gemm", "fc", "f,FC,FB", "y", attr_i("transB", 1), NULL);
    vfy_net *net = load_ok(&b);
    ck_assert_int_eq(vfy_net_validate(net, NULL), VFY_OK);
    /* DENSE [x; -x; conv1 x] (sparse, the split folded in), RELU, DENSE [p - q + conv2 r] or the
     * like (sparse), RELU, DENSE fc */
    int n_sparse = 0;
    for (int64_t k = 0; k < net->n_layers; k++) {
        const vfy_layer *L = &net->layers[k];
        if (L->kind == VFY_LAYER_DENSE && L->n_in * L->n_out >= VFY_SPARSE_MIN_ENTRIES &&
            L->n_in >= RC_N) {
            REQUIRE_MSG(L->csr && !L->w, "layer %lld (%lld x %lld) not sparse-only", (long long)k,
                        (long long)L->n_out, (long long)L->n_in);
            n_sparse++;
        }
    }
    ck_assert_int_ge(n_sparse, 2);
    ck_assert_int_eq(net->layers[0].n_out, 3 * RC_N); /* the copy of x folded into conv1's layer */
    /* both convolutions take the im2col products: the block of their layer's last rows, the
     * values carried beside them (the copies of x, the skip) outside it */
    int n_conv = 0;
    for (int64_t k = 0; k < net->n_layers; k++) {
        const vfy_conv *cv = net->layers[k].conv;
        if (!cv)
            continue;
        REQUIRE_MSG(cv->g.oc == RC_C && cv->g.c == RC_C && cv->rest &&
                    cv->rest->nnz == 2 * RC_N, "layer %lld", (long long)k);
        n_conv++;
    }
    ck_assert_int_eq(n_conv, 2);
    ck_assert_int_eq(net->layers[1].kind, VFY_LAYER_RELU);
    static double x[RC_N], lo[RC_N], hi[RC_N];
    double r[RC_OUT];
    check_against(net, ref_rc); /* (the batched pass through both convolution forms too) */
    vfy_bound_ctx *ctx;
    ck_assert_int_eq(vfy_bound_ctx_create(net, 1, &ctx, NULL), VFY_OK);
    vfy_bounds *bc = vfy_bounds_create(ctx);
    ck_assert_ptr_nonnull(bc);
    for (int i = 0; i < RC_N; i++) {
        double c = 0.5 * urand();
        lo[i] = c - 0.02;
        hi[i] = c + 0.02;
    }
    ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo, hi, NULL, bc), VFY_OK);
    int64_t L = net->n_layers - 1;
    for (int s = 0; s < 50; s++) {
        for (int i = 0; i < RC_N; i++) {
            double u = s < 2 ? (double)s
                     : (s < 4 ? (double)((i + s) % 2) : 0.5 * (urand() + 2) / 2);
            x[i] = lo[i] + u * (hi[i] - lo[i]);
        }
        ref_rc(x, r);
        for (int o = 0; o < RC_OUT; o++)
            REQUIRE_MSG(bc->lo[L][o] <= r[o] && r[o] <= bc->hi[L][o], "output %d: %.17g not in "
                        "[%.17g, %.17g]", o, r[o], bc->lo[L][o], bc->hi[L][o]);
    }
    vfy_bounds_free(bc);
    vfy_bound_ctx_free(ctx);
    vfy_net_free(net);
}
END_TEST

/* x [1,2,3,4] (element (c, h, w) at 12 c + 4 h + w):
 *   s = Slice(x, starts [1, 3], ends [3, -5], axes [2, 3], steps [1, -2])   -> [1,2,2,2]: h in {1, 2},
 *       w in {3, 1}
 *   g = Gather(x, [2, 0, -1], axis 3)                                      -> [1,2,3,3]
 *   q = Gather(x, 1 (a scalar), axis 1)                                    -> [1,3,4]
 *   y = Concat(flat(s), flat(g), flat(q)) - x[0,0,0,0] broadcast           -> [1, 8 + 18 + 12] */
static void ref_select(const double *x, double *y)
{
    int k = 0;
    for (int c = 0; c < 2; c++)
        for (int h = 1; h <= 2; h++)
            for (int w = 3; w >= 1; w -= 2)
                y[k++] = x[12 * c + 4 * h + w];
    static const int gi[3] = {2, 0, 3};
    for (int c = 0; c < 2; c++)
        for (int h = 0; h < 3; h++)
            for (int i = 0; i < 3; i++)
                y[k++] = x[12 * c + 4 * h + gi[i]];
    for (int h = 0; h < 3; h++)
        for (int w = 0; w < 4; w++)
            y[k++] = x[12 + 4 * h + w];
    for (int i = 0; i < k; i++)
        y[i] -= x[0];
}

/* Expand and Tile of a computed x [1, 3]: y = [Expand(x, (2, 1, 3)) flattened, Tile(x, (1, 2))
 * flattened], x four times over; Expand's shape is itself made by a Tile of constants (folded).
 * A shape that does not broadcast is refused by name. */
static void ref_expand_tile(const double *x, double *y)
{
    for (int k = 0; k < 6; k++)
        y[k] = x[k % 3];
    for (int k = 0; k < 6; k++)
        y[6 + k] = x[k % 3];
}

START_TEST(test_expand_tile)
{
    mb b = {0};
    int64_t xd[2] = {1, 3}, yd[2] = {1, 12}, one[1] = {1}, two[1] = {2};
    int64_t s2[1] = {2}, rest[2] = {1, 3}, rep[2] = {1, 2};
    b.in[b.nin++] = vinfo("x", FLT, 2, xd);
    b.out[b.nout++] = vinfo("y", FLT, 2, yd);
    ADD_INIT(b, tensor_i64("s2", 1, one, s2, 0));
    ADD_INIT(b, tensor_i64("rest", 1, two, rest, 0));
    ADD_INIT(b, tensor_i64("rep", 1, two, rep, 0));
    ADD_INIT(b, tensor_i64("r1", 1, one, one, 0));
    ADD_NODE(b, "Tile", "tc", "s2,r1", "s2t", NULL); /* constants: folded, [2] */
    ADD_NODE(b, "Concat", "shape", "s2t,rest", "shp", attr_i("axis", 0), NULL); /* (2, 1, 3) */
    ADD_NODE(b, "Expand", "ex", "x,shp", "e", NULL);
    ADD_NODE(b, "Tile", "ti", "x,rep", "t", NULL);
    ADD_NODE(b, "Flatten", "fe", "e", "ef", attr_i("axis", 0), NULL);
    ADD_NODE(b, "Flatten", "ft", "t", "tf", attr_i("axis", 0), NULL);
    ADD_NODE(b, "Concat", "cat", "ef,tf", "y", attr_i("axis", 1), NULL);
    vfy_net *net = load_ok(&b);
    check_against(net, ref_expand_tile);
    vfy_net_free(net);
    /* a shape that does not broadcast */
    mb e = {0};
    int64_t bad[2] = {2, 2};
    e.in[e.nin++] = vinfo("x", FLT, 2, xd);
    e.out[e.nout++] = vinfo("y", FLT, 2, (int64_t[]){2, 3});
    ADD_INIT(e, tensor_i64("bad", 1, two, bad, 0));
    ADD_NODE(e, "Expand", "ex", "x,bad", "y", NULL);
    load_fails(&e, VFY_ERR_INVALID, "node 'ex' (Expand)", "broadcast");
}
END_TEST

/* y = [c1, b1, a0, c0, b0, a1, d1] of x's parts a = x[0:3], b = x[3:8], c = x[8:12] (split by
 * input), c into two equal parts, a by the attribute (1, 2), b by num_outputs 2 (3 and 2), and x's
 * second half d1 (the first output omitted) */
static void ref_split(const double *x, double *y)
{
    static const int src[18] = {10, 11, 6, 7, 0, 8, 9, 3, 4, 5, 1, 2, 6, 7, 8, 9, 10, 11};
    for (int k = 0; k < 18; k++)
        y[k] = x[src[k]];
}

START_TEST(test_split)
{
    mb b = {0};
    int64_t xd[2] = {1, 12}, yd[2] = {1, 18}, three[1] = {3}, sz[3] = {3, 5, 4}, a12[2] = {1, 2};
    b.in[b.nin++] = vinfo("x", FLT, 2, xd);
    b.out[b.nout++] = vinfo("y", FLT, 2, yd);
    ADD_INIT(b, tensor_i64("sz", 1, three, sz, 0));
    ADD_NODE(b, "Split", "s1", "x,sz", "a,b,c", attr_i("axis", 1), NULL);
    ADD_NODE(b, "Split", "s2", "c", "c0,c1", attr_i("axis", -1), NULL);
    ADD_NODE(b, "Split", "s3", "a", "a0,a1", attr_i("axis", 1), attr_ints("split", 2, a12), NULL);
    ADD_NODE(b, "Split", "s4", "b", "b0,b1", attr_i("axis", 1), attr_i("num_outputs", 2), NULL);
    ADD_NODE(b, "Split", "s5", "x", ",d1", attr_i("axis", 1), NULL);
    ADD_NODE(b, "Concat", "cat", "c1,b1,a0,c0,b0,a1,d1", "y", attr_i("axis", 1), NULL);
    vfy_net *net = load_ok(&b);
    check_against(net, ref_split);
    vfy_net_free(net);
    /* sizes that do not add up to the axis */
    mb e = {0};
    int64_t bad[3] = {3, 5, 3};
    e.in[e.nin++] = vinfo("x", FLT, 2, xd);
    e.out[e.nout++] = vinfo("y", FLT, 2, (int64_t[]){1, 3});
    ADD_INIT(e, tensor_i64("bad", 1, three, bad, 0));
    ADD_NODE(e, "Split", "sb", "x,bad", "y,q,r", attr_i("axis", 1), NULL);
    load_fails(&e, VFY_ERR_INVALID, "node 'sb' (Split)", "sum to 11");
    /* equal parts that do not divide the axis */
    mb f = {0};
    f.in[f.nin++] = vinfo("x", FLT, 2, xd);
    f.out[f.nout++] = vinfo("y", FLT, 2, (int64_t[]){1, 2});
    ADD_NODE(f, "Split", "s5", "x", "y,q,r,s,t", attr_i("axis", 1), NULL);
    load_fails(&f, VFY_ERR_INVALID, "node 's5' (Split)", "5 equal parts");
    /* an unknown attribute is refused, not ignored */
    mb h = {0};
    h.in[h.nin++] = vinfo("x", FLT, 2, xd);
    h.out[h.nout++] = vinfo("y", FLT, 2, (int64_t[]){1, 6});
    ADD_NODE(h, "Split", "sx", "x", "y,q", attr_i("axis", 1), attr_i("stash", 1), NULL);
    load_fails(&h, VFY_ERR_UNSUPPORTED, "node 'sx' (Split)", "'stash'");
}
END_TEST

START_TEST(test_select_computed)
{
    mb b = {0};
    int64_t xd[4] = {1, 2, 3, 4}, yd[2] = {1, 38}, two[1] = {2}, three[1] = {3}, one[1] = {1};
    int64_t st[2] = {1, 3}, en[2] = {3, -5}, ax[2] = {2, 3}, sp[2] = {1, -2}, gi[3] = {2, 0, -1};
    int64_t q1 = 1, z4[4] = {0, 0, 0, 0}, o4[4] = {1, 1, 1, 1};
    b.in[b.nin++] = vinfo("x", FLT, 4, xd);
    b.out[b.nout++] = vinfo("y", FLT, 2, yd);
    ADD_INIT(b, tensor_i64("st", 1, two, st, 0));
    ADD_INIT(b, tensor_i64("en", 1, two, en, 1));
    ADD_INIT(b, tensor_i64("ax", 1, two, ax, 0));
    ADD_INIT(b, tensor_i64("sp", 1, two, sp, 0));
    ADD_INIT(b, tensor_i64("gi", 1, three, gi, 0));
    ADD_INIT(b, tensor_i64("q1", 0, one, &q1, 0)); /* a scalar (dims unused) */
    ADD_INIT(b, tensor_i64("z4", 1, (int64_t[]){4}, z4, 0));
    ADD_INIT(b, tensor_i64("o4", 1, (int64_t[]){4}, o4, 0));
    ADD_NODE(b, "Slice", "s", "x,st,en,ax,sp", "s", NULL);
    ADD_NODE(b, "Gather", "g", "x,gi", "g", attr_i("axis", 3), NULL);
    ADD_NODE(b, "Gather", "q", "x,q1", "q", attr_i("axis", 1), NULL);
    ADD_NODE(b, "Slice", "corner", "x,z4,o4", "x0", NULL); /* [1,1,1,1] */
    ADD_NODE(b, "Flatten", "fs", "s", "sf", NULL);
    ADD_NODE(b, "Flatten", "fg", "g", "gf", NULL);
    ADD_NODE(b, "Flatten", "fq", "q", "qf", NULL);
    ADD_NODE(b, "Flatten", "f0", "x0", "x0f", NULL);
    ADD_NODE(b, "Concat", "cat", "sf,gf,qf", "c", attr_i("axis", 1), NULL);
    ADD_NODE(b, "Sub", "centre", "c,x0f", "y", NULL);
    vfy_net *net = load_ok(&b);
    check_against(net, ref_select);
    vfy_net_free(net);
    /* a slice that selects nothing */
    mb e = {0};
    int64_t s0[1] = {2}, e0[1] = {2}, a0[1] = {3};
    e.in[e.nin++] = vinfo("x", FLT, 4, xd);
    e.out[e.nout++] = vinfo("y", FLT, 4, (int64_t[]){1, 2, 3, 0});
    ADD_INIT(e, tensor_i64("s0", 1, one, s0, 0));
    ADD_INIT(e, tensor_i64("e0", 1, one, e0, 0));
    ADD_INIT(e, tensor_i64("a0", 1, one, a0, 0));
    ADD_NODE(e, "Slice", "empty", "x,s0,e0,a0", "y", NULL);
    load_fails(&e, VFY_ERR_UNSUPPORTED, "node 'empty' (Slice)", "no element");
    /* computed indices */
    mb f = {0};
    f.in[f.nin++] = vinfo("x", FLT, 4, xd);
    f.out[f.nout++] = vinfo("y", FLT, 2, yd);
    ADD_INIT(f, tensor_i64("gi", 1, three, gi, 0));
    ADD_NODE(f, "Gather", "gx", "gi,x", "y", NULL);
    load_fails(&f, VFY_ERR_UNSUPPORTED, "node 'gx' (Gather)", "not a constant");
}
END_TEST

/* ---- random DAGs: Gemm, Relu, Add, Sub, Concat, Slice on [1, n] tensors; a node's first input is
 * a recent value, its second any earlier one (so values are read again far downstream, across
 * several ReLUs) ---- */

enum { DAG_MAXV = 24, DAG_MAXW = 12 };
typedef struct dag_node {
    int op; /* 0 Gemm, 1 Relu, 2 Add, 3 Sub, 4 Concat, 5 Slice, 6 Mul, 7 Sigmoid, 8 Tanh */
    int a, b, width, s0, s1;
    float w[DAG_MAXW * DAG_MAXW], bias[DAG_MAXW];
} dag_node;
static dag_node dag_nodes[DAG_MAXV];
static int dag_width[DAG_MAXV + 1], dag_n, dag_out;

static uint64_t dag_rng;
static int dag_rand(int n)
{
    dag_rng ^= dag_rng << 13;
    dag_rng ^= dag_rng >> 7;
    dag_rng ^= dag_rng << 17;
    return (int)(dag_rng % (uint64_t)n);
}

/* value v: 0 is x, k + 1 the output of node k */
static void ref_dag(const double *x, double *y)
{
    double val[DAG_MAXV + 1][DAG_MAXW];
    memcpy(val[0], x, 4 * sizeof(double));
    for (int k = 0; k < dag_n; k++) {
        const dag_node *d = &dag_nodes[k];
        const double *a = val[d->a], *b = val[d->b];
        double *o = val[k + 1];
        int wa = dag_width[d->a];
        for (int j = 0; j < d->width; j++) {
            switch (d->op) {
            case 0:
                o[j] = d->bias[j];
                for (int i = 0; i < wa; i++)
                    o[j] += (double)d->w[j * wa + i] * a[i];
                break;
            case 1: o[j] = a[j] > 0 ? a[j] : 0; break;
            case 2: o[j] = a[j] + b[j]; break;
            case 3: o[j] = a[j] - b[j]; break;
            case 4: o[j] = j < wa ? a[j] : b[j - wa]; break;
            case 5: o[j] = a[d->s0 + j]; break;
            case 6: o[j] = a[j] * b[j]; break;
            case 7: o[j] = 1.0 / (1.0 + exp(-a[j])); break;
            default: o[j] = tanh(a[j]); break;
            }
        }
    }
    memcpy(y, val[dag_out], (size_t)dag_width[dag_out] * sizeof(double));
}

static char *t_strdup(const char *s)
{
    char *c = t_alloc(strlen(s) + 1);
    strcpy(c, s);
    return c;
}

static char *dag_name(const char *fmt, int k)
{
    char *s = t_alloc(16);
    snprintf(s, 16, fmt, k);
    return s;
}

/* A random DAG of n_nodes nodes (seeded), its ONNX model in b; the output is a final Gemm. With
 * more, Mul of two values, Sigmoid and Tanh too. */
static void build_dag(mb *b, uint64_t seed, int n_nodes, int more)
{
    dag_rng = seed * 2654435761u + 1;
    dag_width[0] = 4;
    dag_n = 0;
    int64_t xd[2] = {1, 4};
    b->in[b->nin++] = vinfo("v0", FLT, 2, xd);
    for (int k = 0; k < n_nodes; k++) {
        dag_node *d = &dag_nodes[k];
        int last = k == n_nodes - 1, nv = k + 1;
        d->op = last ? 0 : dag_rand(more ? 9 : 6);
        /* the first input one of the last three values (a chain), the second any earlier one */
        d->a = nv - 1 - dag_rand(nv < 3 ? nv : 3);
        int wa = dag_width[d->a];
        d->b = d->a;
        if (d->op == 2 || d->op == 3 || d->op == 6) { /* a second value of the same width, often
                                                        * another one */
            int t = dag_rand(nv);
            for (int q = 0; q < nv; q++)
                if (dag_width[(t + q) % nv] == wa) {
                    d->b = (t + q) % nv;
                    break;
                }
        }
        if (d->op == 4) {
            d->b = dag_rand(nv);
            if (wa + dag_width[d->b] > DAG_MAXW)
                d->op = 0;
        }
        if (d->op == 5 && wa < 2)
            d->op = 1;
        const char *out = last ? "y" : dag_name("v%d", k + 1);
        const char *nm = dag_name("n%d", k);
        char ins[64];
        switch (d->op) {
        case 0: {
            d->width = last ? 3 : 2 + dag_rand(DAG_MAXW - 1);
            for (int i = 0; i < d->width * wa; i++)
                d->w[i] = (float)(dag_rand(17) - 8) / 8.0f;
            for (int i = 0; i < d->width; i++)
                d->bias[i] = (float)(dag_rand(9) - 4) / 8.0f;
            int64_t wd[2] = {d->width, wa}, bd[1] = {d->width};
            ADD_INIT(*b, tensor_f(dag_name("W%d", k), 2, wd, d->w, ENC_RAW));
            ADD_INIT(*b, tensor_f(dag_name("B%d", k), 1, bd, d->bias, ENC_RAW));
            snprintf(ins, sizeof ins, "v%d,W%d,B%d", d->a, k, k);
            ADD_NODE(*b, "Gemm", nm, t_strdup(ins), out, attr_i("transB", 1), NULL);
            break;
        }
        case 1:
        case 2:
        case 3:
        case 4:
        case 6:
        case 7:
        case 8: {
            static const char *const names[9] = {"", "Relu", "Add", "Sub", "Concat", "", "Mul",
                                                 "Sigmoid", "Tanh"};
            int unary = d->op == 1 || d->op >= 7;
            d->width = d->op == 4 ? wa + dag_width[d->b] : wa;
            snprintf(ins, sizeof ins, unary ? "v%d" : "v%d,v%d", d->a, d->b);
            ADD_NODE(*b, names[d->op], nm, t_strdup(ins), out,
                     d->op == 4 ? attr_i("axis", 1) : NULL, NULL);
            break;
        }
        default: {
            d->s0 = dag_rand(wa - 1);
            d->s1 = d->s0 + 1 + dag_rand(wa - d->s0);
            d->width = d->s1 - d->s0;
            int64_t one[1] = {1}, st[1] = {d->s0}, en[1] = {d->s1}, ax[1] = {1};
            ADD_INIT(*b, tensor_i64(dag_name("s%d", k), 1, one, st, 0));
            ADD_INIT(*b, tensor_i64(dag_name("e%d", k), 1, one, en, 0));
            ADD_INIT(*b, tensor_i64(dag_name("a%d", k), 1, one, ax, 0));
            snprintf(ins, sizeof ins, "v%d,s%d,e%d,a%d", d->a, k, k, k);
            ADD_NODE(*b, "Slice", nm, t_strdup(ins), out, NULL);
            break;
        }
        }
        dag_width[k + 1] = d->width;
        dag_n++;
    }
    dag_out = n_nodes;
    int64_t yd[2] = {1, 3};
    b->out[b->nout++] = vinfo("y", FLT, 2, yd);
}

/* Random DAGs: the lowered net equals the graph evaluated directly, and its CROWN and alpha-CROWN
 * bounds hold at sampled points (no tolerance). */
START_TEST(test_random_dags)
{
    mb b = {0};
    build_dag(&b, 100 + (uint64_t)_i, 8 + _i % 10, 0);
    vfy_net *net = load_ok(&b);
    check_against(net, ref_dag);
    check_bounds_hold(net, ref_dag, 0.3);
    check_bounds_hold(net, ref_dag, 1.5);
    vfy_net_free(net);
}
END_TEST

/* The same with products of two values, Sigmoid and Tanh among the nodes (values read on both
 * sides of them pass through). */
START_TEST(test_random_dags_mul)
{
    mb b = {0};
    build_dag(&b, 500 + (uint64_t)_i, 8 + _i % 10, 1);
    vfy_net *net = load_ok(&b);
    check_against(net, ref_dag);
    check_bounds_hold(net, ref_dag, 0.3);
    check_bounds_hold(net, ref_dag, 1.5);
    vfy_net_free(net);
}
END_TEST

/* x [1,2,3,4]: m = ReduceMean(x, axes [2,3]) [1,2,1,1]; s = ReduceSum(x, axes input [-3],
 * keepdims 0) [1,3,4]; t = ReduceSum(x) (every axis) [1,1,1,1]; y = Concat of their flattenings */
static void ref_reduce(const double *x, double *y)
{
    double t = 0;
    for (int c = 0; c < 2; c++) {
        double m = 0;
        for (int i = 0; i < 12; i++)
            m += x[12 * c + i];
        y[c] = m / 12;
        t += m;
    }
    for (int i = 0; i < 12; i++)
        y[2 + i] = x[i] + x[12 + i];
    y[14] = t;
}

/* x [1,2,3,4]: ReduceMax over axes [2,3] (keepdims) [1,2,1,1], ReduceMin over the last axis
 * (keepdims 0) [1,2,3], GlobalMaxPool [1,2,1,1], ReduceMax over every axis [1,1,1,1]; y = the
 * concatenation of their flattenings [1,11] */
static void ref_reduce_max(const double *x, double *y)
{
    double all = -INFINITY;
    for (int c = 0; c < 2; c++) {
        double m = -INFINITY;
        for (int i = 0; i < 12; i++)
            m = fmax(m, x[12 * c + i]);
        y[c] = y[8 + c] = m;
        all = fmax(all, m);
        for (int r = 0; r < 3; r++) {
            double mn = INFINITY;
            for (int w = 0; w < 4; w++)
                mn = fmin(mn, x[12 * c + 4 * r + w]);
            y[2 + 3 * c + r] = mn;
        }
    }
    y[10] = all;
}

START_TEST(test_reduce_max_min)
{
    mb b = {0};
    int64_t xd[4] = {1, 2, 3, 4}, yd[2] = {1, 11}, ax23[2] = {2, 3}, axm1[1] = {-1}, one[1] = {1};
    b.in[b.nin++] = vinfo("x", FLT, 4, xd);
    b.out[b.nout++] = vinfo("y", FLT, 2, yd);
    ADD_INIT(b, tensor_i64("axm1", 1, one, axm1, 0));
    ADD_NODE(b, "ReduceMax", "rmax", "x", "a", attr_ints("axes", 2, ax23), NULL);
    ADD_NODE(b, "ReduceMin", "rmin", "x,axm1", "m", attr_i("keepdims", 0), NULL);
    ADD_NODE(b, "GlobalMaxPool", "gmp", "x", "g", NULL);
    ADD_NODE(b, "ReduceMax", "rall", "x", "t", NULL);
    ADD_NODE(b, "Flatten", "f1", "a", "af", NULL);
    ADD_NODE(b, "Flatten", "f2", "m", "mf", NULL);
    ADD_NODE(b, "Flatten", "f3", "g", "gf", NULL);
    ADD_NODE(b, "Flatten", "f4", "t", "tf", NULL);
    ADD_NODE(b, "Concat", "cat", "af,mf,gf,tf", "y", attr_i("axis", 1), NULL);
    vfy_net *net = load_ok(&b);
    check_against(net, ref_reduce_max);
    check_bounds_hold(net, ref_reduce_max, 0.3);
    check_bounds_hold(net, ref_reduce_max, 1.5);
    vfy_net_free(net);
}
END_TEST

START_TEST(test_reduce)
{
    mb b = {0};
    int64_t xd[4] = {1, 2, 3, 4}, yd[2] = {1, 15}, ax23[2] = {2, 3}, axm3[1] = {-3}, one[1] = {1};
    b.in[b.nin++] = vinfo("x", FLT, 4, xd);
    b.out[b.nout++] = vinfo("y", FLT, 2, yd);
    ADD_INIT(b, tensor_i64("axm3", 1, one, axm3, 0));
    ADD_NODE(b, "ReduceMean", "mean", "x", "m", attr_ints("axes", 2, ax23), NULL);
    ADD_NODE(b, "ReduceSum", "sum1", "x,axm3", "s", attr_i("keepdims", 0), NULL);
    ADD_NODE(b, "ReduceSum", "sumall", "x", "t", NULL);
    ADD_NODE(b, "Flatten", "fm", "m", "mf", NULL);
    ADD_NODE(b, "Flatten", "fs", "s", "sf", NULL);
    ADD_NODE(b, "Flatten", "ft", "t", "tf", NULL);
    ADD_NODE(b, "Concat", "cat", "mf,sf,tf", "y", attr_i("axis", 1), NULL);
    vfy_net *net = load_ok(&b);
    check_against(net, ref_reduce);
    /* the mean's 1/12 is rounded: the layer says so */
    ck_assert(net->layers[0].w_relerr > 0 || net->layers[1].w_relerr > 0);
    check_bounds_hold(net, ref_reduce, 0.5);
    vfy_net_free(net);
    /* a repeated axis; a constant reduced */
    b.node[0] = node("ReduceMean", "mean", "x", "m", attr_ints("axes", 2, (int64_t[]){2, -2}), NULL);
    load_fails(&b, VFY_ERR_INVALID, "node 'mean' (ReduceMean)", "repeated");
    mb c = {0};
    c.in[c.nin++] = vinfo("x", FLT, 4, xd);
    c.out[c.nout++] = vinfo("y", FLT, 4, xd);
    ADD_INIT(c, tensor_f("k", 1, one, W32, ENC_FLOAT));
    ADD_NODE(c, "ReduceSum", "ks", "k", "kk", NULL);
    ADD_NODE(c, "Add", "plus", "x,kk", "y", NULL);
    load_fails(&c, VFY_ERR_UNSUPPORTED, "node 'ks' (ReduceSum)", "constant");
}
END_TEST

/* Dropout in inference: the identity (a ratio input is ignored); training_mode true is refused. */
START_TEST(test_dropout)
{
    mb b = {0};
    int64_t xd[2] = {1, 3}, wd[2] = {2, 3}, one[1] = {1}, yd[2] = {1, 2};
    float ratio = 0.5f;
    b.in[b.nin++] = vinfo("x", FLT, 2, xd);
    b.out[b.nout++] = vinfo("y", FLT, 2, yd);
    ADD_INIT(b, tensor_f("W", 2, wd, W32, ENC_FLOAT));
    ADD_INIT(b, tensor_f("r", 0, one, &ratio, ENC_FLOAT));
    ADD_NODE(b, "Dropout", "d0", "x,r", "xd", NULL);
    ADD_NODE(b, "Gemm", "g", "xd,W", "h", attr_i("transB", 1), NULL);
    ADD_NODE(b, "Dropout", "d1", "h", "y", NULL);
    vfy_net *net = load_ok(&b);
    ck_assert_int_eq(net->n_layers, 1);
    double x[3] = {0.5, -1, 2}, y[2];
    net_eval(net, x, y);
    for (int i = 0; i < 2; i++)
        ck_assert(y[i] == (double)W32[3 * i] * x[0] + (double)W32[3 * i + 1] * x[1] +
                             (double)W32[3 * i + 2] * x[2]);
    vfy_net_free(net);
    int64_t t1 = 1;
    ADD_INIT(b, tensor_i64("tm", 0, one, &t1, 0));
    b.node[2] = node("Dropout", "d1", "h,r,tm", "y", NULL);
    load_fails(&b, VFY_ERR_UNSUPPORTED, "node 'd1' (Dropout)", "training_mode is true");
}
END_TEST

/* ---- convolutional operators, each against a direct reference in double ---- */

static Onnx__AttributeProto *attr_s(const char *name, const char *v)
{
    Onnx__AttributeProto *a = attr_base(name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING);
    a->has_s = 1;
    a->s.len = strlen(v);
    a->s.data = (uint8_t *)v;
    return a;
}

static void node_attr(Onnx__NodeProto *n, Onnx__AttributeProto *a)
{
    ck_assert_uint_lt(n->n_attribute, 8);
    n->attribute[n->n_attribute++] = a;
}

/* A window configuration (h = 1 and rank 3 for 1-D) with the expected pads and output size, worked
 * out by hand from the ONNX formulas; the reference functions below read it. */
typedef struct win {
    int64_t c, h, w, m, group, kh, kw, sh, sw, dh, dw, pt, pl, pb, pr, oh, ow;
    int bias, cip, rank;
} win;
static win cw;
static float KW[1024], KB[64];

/* x (c, h, w) copied into an explicitly zero-padded xp, then each output a sum over the kernel in
 * padded coordinates (window (oy*sh + ky*dh, ox*sw + kx*dw)). */
static void ref_conv(const double *x, double *y)
{
    int64_t hp = cw.h + cw.pt + cw.pb, wp = cw.w + cw.pl + cw.pr;
    int64_t cg = cw.c / cw.group, mg = cw.m / cw.group;
    double *xp = calloc((size_t)(cw.c * hp * wp), sizeof *xp);
    ck_assert_ptr_nonnull(xp);
    for (int64_t c = 0; c < cw.c; c++)
        for (int64_t i = 0; i < cw.h; i++)
            for (int64_t j = 0; j < cw.w; j++)
                xp[(c * hp + i + cw.pt) * wp + j + cw.pl] = x[(c * cw.h + i) * cw.w + j];
    for (int64_t m = 0; m < cw.m; m++)
        for (int64_t oy = 0; oy < cw.oh; oy++)
            for (int64_t ox = 0; ox < cw.ow; ox++) {
                double s = cw.bias ? (double)KB[m] : 0;
                for (int64_t cc = 0; cc < cg; cc++)
                    for (int64_t ky = 0; ky < cw.kh; ky++)
                        for (int64_t kx = 0; kx < cw.kw; kx++) {
                            int64_t c = (m / mg) * cg + cc;
                            int64_t iy = oy * cw.sh + ky * cw.dh, ix = ox * cw.sw + kx * cw.dw;
                            REQUIRE(iy < hp && ix < wp);
                            s += (double)KW[((m * cg + cc) * cw.kh + ky) * cw.kw + kx] *
                                 xp[(c * hp + iy) * wp + ix];
                        }
                y[(m * cw.oh + oy) * cw.ow + ox] = s;
            }
    free(xp);
}

static void win_dims(int64_t *xd, int64_t *yd, int64_t m)
{
    int64_t x4[4] = {1, cw.c, cw.h, cw.w}, y4[4] = {1, m, cw.oh, cw.ow};
    int64_t x3[3] = {1, cw.c, cw.w}, y3[3] = {1, m, cw.ow};
    memcpy(xd, cw.rank == 4 ? x4 : x3, sizeof(int64_t) * (size_t)cw.rank);
    memcpy(yd, cw.rank == 4 ? y4 : y3, sizeof(int64_t) * (size_t)cw.rank);
}

/* Strides, dilations and pads (or auto_pad) of cw as attributes of n (1-D: the w entries). */
static void win_attrs(Onnx__NodeProto *n, const char *auto_pad, int dil)
{
    int sp = cw.rank == 4;
    int64_t s[2] = {cw.sh, cw.sw}, d[2] = {cw.dh, cw.dw}, p[4] = {cw.pt, cw.pl, cw.pb, cw.pr};
    int64_t p1[2] = {cw.pl, cw.pr};
    node_attr(n, attr_ints("strides", sp ? 2 : 1, s + !sp));
    if (dil)
        node_attr(n, attr_ints("dilations", sp ? 2 : 1, d + !sp));
    if (auto_pad)
        node_attr(n, attr_s("auto_pad", auto_pad));
    else
        node_attr(n, attr_ints("pads", sp ? 4 : 2, sp ? p : p1));
}

/* x -> Conv(cw) -> y, random float32 kernel and bias. */
static void build_conv(mb *b, const char *auto_pad, int kshape)
{
    memset(b, 0, sizeof *b);
    int64_t xd[4], yd[4], cg = cw.c / cw.group;
    int64_t wd4[4] = {cw.m, cg, cw.kh, cw.kw}, wd3[3] = {cw.m, cg, cw.kw}, bd[1] = {cw.m};
    win_dims(xd, yd, cw.m);
    for (int64_t k = 0; k < cw.m * cg * cw.kh * cw.kw; k++)
        KW[k] = (float)urand();
    for (int64_t k = 0; k < cw.m; k++)
        KB[k] = (float)urand();
    b->in[b->nin++] = vinfo("x", FLT, cw.rank, xd);
    b->out[b->nout++] = vinfo("y", FLT, cw.rank, yd);
    ADD_INIT(*b, tensor_f("W", cw.rank, cw.rank == 4 ? wd4 : wd3, KW, ENC_RAW));
    ADD_INIT(*b, tensor_f("B", 1, bd, KB, ENC_FLOAT));
    Onnx__NodeProto *n = node("Conv", "conv", cw.bias ? "x,W,B" : "x,W", "y", NULL);
    win_attrs(n, auto_pad, 1);
    if (cw.group != 1)
        node_attr(n, attr_i("group", cw.group));
    if (kshape)
        node_attr(n, attr_ints("kernel_shape", cw.rank - 2, cw.rank == 4 ? &cw.kh : &cw.kw));
    b->node[b->nn++] = n;
}

START_TEST(test_conv)
{
    static const struct {
        win w;
        const char *auto_pad;
        int kshape;
    } cases[] = {
        /*  c  h  w  m  g kh kw sh sw dh dw pt pl pb pr oh ow  bias cip rank */
        {{4, 5, 5, 4, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 5, 5, 1, 0, 4}, NULL, 1},
        {{4, 5, 5, 3, 1, 3, 3, 2, 2, 1, 1, 1, 0, 0, 1, 2, 2, 1, 0, 4}, NULL, 0},  /* stride 2 */
        {{2, 6, 6, 3, 1, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2, 6, 6, 1, 0, 4}, NULL, 0},  /* dilation 2 */
        {{4, 5, 5, 4, 2, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 5, 5, 1, 0, 4}, NULL, 0},  /* 2 groups */
        {{2, 6, 6, 2, 1, 3, 3, 2, 2, 1, 1, 0, 0, 1, 1, 3, 3, 1, 0, 4}, "SAME_UPPER", 0},
        {{2, 6, 6, 2, 1, 3, 3, 2, 2, 1, 1, 1, 1, 0, 0, 3, 3, 1, 0, 4}, "SAME_LOWER", 0},
        {{4, 5, 5, 2, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 5, 5, 0, 0, 4}, NULL, 1},  /* 1x1 */
        {{3, 7, 7, 2, 1, 2, 3, 2, 2, 1, 1, 0, 0, 0, 0, 3, 3, 1, 0, 4}, "VALID", 1},
        {{3, 1, 9, 2, 1, 1, 3, 1, 2, 1, 2, 0, 1, 0, 1, 1, 4, 1, 0, 3}, NULL, 1},  /* 1-D */
        {{4, 7, 7, 4, 4, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 3, 3, 1, 0, 4}, NULL, 0},  /* depthwise */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        cw = cases[k].w;
        mb b;
        build_conv(&b, cases[k].auto_pad, cases[k].kshape);
        vfy_net *net = load_ok(&b);
        ck_assert_int_eq(net->n_layers, 1);
        const vfy_layer *L = &net->layers[0];
        ck_assert_int_eq(L->kind, VFY_LAYER_DENSE);
        ck_assert_int_eq(L->n_in, cw.c * cw.h * cw.w);
        ck_assert_int_eq(L->n_out, cw.m * cw.oh * cw.ow);
        ck_assert_int_eq(L->fan_in, cw.c / cw.group * cw.kh * cw.kw);
        ck_assert(L->w_relerr == 0);
        check_against(net, ref_conv);
        vfy_net_free(net);
    }
}
END_TEST

static vfy_status load_lim(const mb *b, const vfy_lower_limits *lim, vfy_net **net, vfy_error *e)
{
    size_t len;
    uint8_t *buf = mb_pack(b, &len);
    vfy_error_clear(e);
    return vfy_onnx_load_bytes_limited(buf, len, "test.onnx", NULL, 0, lim, net, e);
}

static void limited_fails(const mb *b, const vfy_lower_limits *lim, vfy_status want,
                          const char *s1, const char *s2)
{
    vfy_net *net = NULL;
    vfy_error e;
    vfy_status st = load_lim(b, lim, &net, &e);
    REQUIRE_MSG(st == want, "status %s, want %s: %s", vfy_status_name(st), vfy_status_name(want),
                e.msg);
    ck_assert_ptr_null(net);
    REQUIRE_MSG(strstr(e.msg, "test.onnx") && strstr(e.msg, s1) && (!s2 || strstr(e.msg, s2)),
                "message '%s' lacks the file, '%s' or '%s'", e.msg, s1, s2 ? s2 : "");
}

/* The loaders' limits (graph.h, vfy_lower_limits): a ceiling on the lowered layers' bytes, checked
 * against the Conv nodes' entries before anything is built and then as each matrix is reserved
 * and allocated, and a deadline. Within them the net is the one the plain loader gives. */
START_TEST(test_lower_limits)
{
    /* test_conv's first geometry: 100 outputs of 36 entries, 57,600 bytes as a CSR */
    cw = (win){4, 5, 5, 4, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 5, 5, 1, 0, 4};
    mb b;
    build_conv(&b, NULL, 1);
    vfy_net *ref = load_ok(&b), *net = NULL;
    vfy_lower_limits lim = {NULL, 50000};
    limited_fails(&b, &lim, VFY_ERR_UNSUPPORTED, "node 'conv' (Conv): the network's convolutions "
                  "lower to", "too large");
    /* above the Conv's entries, below the 86,400 bytes they take while built */
    lim.max_bytes = 70000;
    limited_fails(&b, &lim, VFY_ERR_UNSUPPORTED, "node 'conv' (Conv): the lowered network would "
                  "hold more than", "too large");
    lim.max_bytes = 1e6;
    vfy_error e;
    REQUIRE_MSG(load_lim(&b, &lim, &net, &e) == VFY_OK, "%s", e.msg);
    ck_assert_int_eq(net->n_layers, ref->n_layers);
    double x[100], y[100], yr[100];
    for (int t = 0; t < 20; t++) {
        for (int64_t i = 0; i < ref->n_in; i++)
            x[i] = urand();
        net_eval(net, x, y);
        net_eval(ref, x, yr);
        for (int64_t j = 0; j < ref->n_out; j++)
            ck_assert(y[j] == yr[j]);
    }
    vfy_net_free(net);
    net = NULL;
    /* a deadline passed, or cancelled: timeout; one to come: loaded */
    vfy_deadline dl = {vfy_now() - 1.0, 0};
    lim = (vfy_lower_limits){&dl, 0};
    limited_fails(&b, &lim, VFY_ERR_TIMEOUT, "the deadline passed", NULL);
    dl = (vfy_deadline){INFINITY, 1};
    limited_fails(&b, &lim, VFY_ERR_TIMEOUT, "the deadline passed", NULL);
    dl = (vfy_deadline){vfy_now() + 3600.0, 0};
    REQUIRE_MSG(load_lim(&b, &lim, &net, &e) == VFY_OK, "%s", e.msg);
    vfy_net_free(net);
    vfy_net_free(ref);
    /* a MatMul's dense matrix (6 entries and 2 of bias: 64 bytes) against a ceiling of 40 */
    build_mm(&b, ENC_RAW, ENC_RAW, FLT, 0);
    lim = (vfy_lower_limits){NULL, 40};
    limited_fails(&b, &lim, VFY_ERR_UNSUPPORTED, "the lowered network would hold more than",
                  "too large");
    ck_assert(vfy_lower_max_bytes(NULL) > 0);
    ck_assert(vfy_lower_max_bytes(&lim) == 40);
}
END_TEST

/* ConvTranspose on cw's geometry (c, h, w the input; m, oh, ow the output worked out by hand from
 * oh = sh (h - 1) + output_padding + (kh - 1) dh + 1 - pt - pb), kernel (c, m/group, kh, kw):
 * every input element scatters its kernel (the ONNX definition, written directly). */
static int64_t ct_opad[2];
static void ref_conv_transpose(const double *x, double *y)
{
    int64_t cg = cw.c / cw.group, mg = cw.m / cw.group;
    for (int64_t o = 0; o < cw.m * cw.oh * cw.ow; o++)
        y[o] = cw.bias ? (double)KB[o / (cw.oh * cw.ow)] : 0;
    for (int64_t c = 0; c < cw.c; c++)
        for (int64_t iy = 0; iy < cw.h; iy++)
            for (int64_t ix = 0; ix < cw.w; ix++)
                for (int64_t j = 0; j < mg; j++)
                    for (int64_t ky = 0; ky < cw.kh; ky++)
                        for (int64_t kx = 0; kx < cw.kw; kx++) {
                            int64_t oy = iy * cw.sh - cw.pt + ky * cw.dh;
                            int64_t ox = ix * cw.sw - cw.pl + kx * cw.dw;
                            if (oy < 0 || oy >= cw.oh || ox < 0 || ox >= cw.ow)
                                continue;
                            int64_t m = (c / cg) * mg + j;
                            y[(m * cw.oh + oy) * cw.ow + ox] +=
                                (double)KW[((c * mg + j) * cw.kh + ky) * cw.kw + kx] *
                                x[(c * cw.h + iy) * cw.w + ix];
                        }
}

static void build_conv_transpose(mb *b, const char *auto_pad, int kshape)
{
    memset(b, 0, sizeof *b);
    int64_t xd[4], yd[4], mg = cw.m / cw.group;
    int64_t wd4[4] = {cw.c, mg, cw.kh, cw.kw}, wd3[3] = {cw.c, mg, cw.kw}, bd[1] = {cw.m};
    win_dims(xd, yd, cw.m);
    for (int64_t k = 0; k < cw.c * mg * cw.kh * cw.kw; k++)
        KW[k] = (float)urand();
    for (int64_t k = 0; k < cw.m; k++)
        KB[k] = (float)urand();
    b->in[b->nin++] = vinfo("x", FLT, cw.rank, xd);
    b->out[b->nout++] = vinfo("y", FLT, cw.rank, yd);
    ADD_INIT(*b, tensor_f("W", cw.rank, cw.rank == 4 ? wd4 : wd3, KW, ENC_RAW));
    ADD_INIT(*b, tensor_f("B", 1, bd, KB, ENC_FLOAT));
    Onnx__NodeProto *n = node("ConvTranspose", "ct", cw.bias ? "x,W,B" : "x,W", "y", NULL);
    win_attrs(n, auto_pad, 1);
    if (cw.group != 1)
        node_attr(n, attr_i("group", cw.group));
    if (ct_opad[0] || ct_opad[1])
        node_attr(n, attr_ints("output_padding", cw.rank - 2, ct_opad + (cw.rank == 3)));
    if (kshape)
        node_attr(n, attr_ints("kernel_shape", cw.rank - 2, cw.rank == 4 ? &cw.kh : &cw.kw));
    b->node[b->nn++] = n;
}

START_TEST(test_conv_transpose)
{
    static const struct {
        win w;
        int64_t opad[2];
        const char *auto_pad;
        int kshape;
    } cases[] = {
        /*  c  h  w  m  g kh kw sh sw dh dw pt pl pb pr oh ow   bias cip rank */
        {{2, 3, 3, 3, 1, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 6, 6, 1, 0, 4}, {1, 1}, NULL, 1},
        {{4, 4, 4, 2, 2, 2, 2, 1, 1, 2, 2, 0, 0, 0, 0, 6, 6, 1, 0, 4}, {0, 0}, NULL, 0},
        {{3, 1, 5, 2, 1, 1, 3, 1, 2, 1, 1, 0, 0, 0, 1, 1, 10, 0, 0, 3}, {0, 0}, NULL, 1}, /* 1-D */
        {{2, 2, 3, 2, 1, 2, 2, 2, 1, 1, 1, 0, 0, 0, 0, 4, 4, 1, 0, 4}, {0, 0}, "VALID", 1},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        cw = cases[k].w;
        ct_opad[0] = cases[k].opad[0];
        ct_opad[1] = cases[k].opad[1];
        mb b;
        build_conv_transpose(&b, cases[k].auto_pad, cases[k].kshape);
        vfy_net *net = load_ok(&b);
        ck_assert_int_eq(net->n_layers, 1);
        const vfy_layer *L = &net->layers[0];
        ck_assert_int_eq(L->kind, VFY_LAYER_DENSE);
        ck_assert_int_eq(L->n_in, cw.c * cw.h * cw.w);
        ck_assert_int_eq(L->n_out, cw.m * cw.oh * cw.ow);
        ck_assert_int_eq(L->fan_in, cw.c / cw.group * cw.kh * cw.kw);
        ck_assert(L->w_relerr == 0);
        check_against(net, ref_conv_transpose);
        vfy_net_free(net);
    }
    /* pads chosen from the output (auto_pad SAME_*, output_shape) are refused by name */
    cw = cases[0].w;
    ct_opad[0] = ct_opad[1] = 0;
    mb b;
    build_conv_transpose(&b, "SAME_UPPER", 0);
    load_fails(&b, VFY_ERR_UNSUPPORTED, "node 'ct' (ConvTranspose)", "auto_pad 'SAME_UPPER'");
    build_conv_transpose(&b, NULL, 0);
    int64_t os[2] = {6, 6};
    node_attr(b.node[0], attr_ints("output_shape", 2, os));
    load_fails(&b, VFY_ERR_UNSUPPORTED, "node 'ct' (ConvTranspose)", "output_shape");
}
END_TEST

/* Resize and Upsample, mode nearest, on x (1, 2, rh, rw): the expected input row and column of
 * every output row and column worked out by hand from the ONNX formulas. */
static int64_t rs_h, rs_w, rs_oh, rs_ow, rs_ih[16], rs_iw[16];
static void ref_resize(const double *x, double *y)
{
    for (int64_t c = 0; c < 2; c++)
        for (int64_t i = 0; i < rs_oh; i++)
            for (int64_t j = 0; j < rs_ow; j++)
                y[(c * rs_oh + i) * rs_ow + j] = x[(c * rs_h + rs_ih[i]) * rs_w + rs_iw[j]];
}

/* x (1, 2, h, w) -> op(x, inputs ins) -> y (1, 2, oh, ow); "s" a float initializer of 4 scales,
 * "z" an int64 one of 4 sizes, "r" an empty roi */
static void build_resize(mb *b, const char *op, const char *ins, const float *sc, const int64_t *sz)
{
    memset(b, 0, sizeof *b);
    int64_t xd[4] = {1, 2, rs_h, rs_w}, yd[4] = {1, 2, rs_oh, rs_ow}, d4[1] = {4}, d0[1] = {0};
    b->in[b->nin++] = vinfo("x", FLT, 4, xd);
    b->out[b->nout++] = vinfo("y", FLT, 4, yd);
    ADD_INIT(*b, tensor_f("s", 1, d4, sc, ENC_RAW));
    ADD_INIT(*b, tensor_i64("z", 1, d4, sz, 0));
    ADD_INIT(*b, tensor_f("r", 1, d0, sc, ENC_RAW));
    b->node[b->nn++] = node(op, "rs", ins, "y", NULL);
}

START_TEST(test_resize)
{
    static const float s2[4] = {1, 1, 2, 2}, s23[4] = {1, 1, 2, 3}, s15[4] = {1, 1, 1.5f, 1};
    static const float s15u[4] = {1, 1, 1.50000012f, 1};
    int64_t sz[4] = {1, 2, 4, 2};
    mb b;
    /* half_pixel, round_prefer_floor (the defaults), scales 2: x = o/2 - 1/4, i = floor(o/2) */
    rs_h = 2, rs_w = 3, rs_oh = 4, rs_ow = 6;
    int64_t ih[4] = {0, 0, 1, 1}, iw[6] = {0, 0, 1, 1, 2, 2};
    memcpy(rs_ih, ih, sizeof ih);
    memcpy(rs_iw, iw, sizeof iw);
    build_resize(&b, "Resize", "x,r,s", s2, sz);
    vfy_net *net = load_ok(&b);
    ck_assert_int_eq(net->n_layers, 1);
    ck_assert_int_eq(net->layers[0].fan_in, 1);
    check_against(net, ref_resize);
    vfy_net_free(net);
    /* opset 10's two inputs (x, scales) */
    build_resize(&b, "Resize", "x,s", s2, sz);
    net = load_ok(&b);
    check_against(net, ref_resize);
    vfy_net_free(net);
    /* asymmetric, round_prefer_ceil: x = o/2, ties at odd o exact (scale a power of two): up */
    int64_t ihc[4] = {0, 1, 1, 1}, iwc[6] = {0, 1, 1, 2, 2, 2};
    memcpy(rs_ih, ihc, sizeof ihc);
    memcpy(rs_iw, iwc, sizeof iwc);
    build_resize(&b, "Resize", "x,r,s", s2, sz);
    node_attr(b.node[0], attr_s("coordinate_transformation_mode", "asymmetric"));
    node_attr(b.node[0], attr_s("nearest_mode", "round_prefer_ceil"));
    net = load_ok(&b);
    check_against(net, ref_resize);
    vfy_net_free(net);
    /* Upsample (asymmetric, floor) by (2, 3): i = floor(o / s) */
    rs_ow = 9;
    int64_t iwu[9] = {0, 0, 0, 1, 1, 1, 2, 2, 2};
    memcpy(rs_ih, ih, sizeof ih);
    memcpy(rs_iw, iwu, sizeof iwu);
    build_resize(&b, "Upsample", "x,s", s23, sz);
    net = load_ok(&b);
    check_against(net, ref_resize);
    vfy_net_free(net);
    /* sizes (4, 2): rows by 2 as above; columns 3 -> 2, s = 2/3: x = 1.5 o + 1/4, i = 0, 2 */
    rs_ow = 2;
    int64_t iws[2] = {0, 2};
    memcpy(rs_iw, iws, sizeof iws);
    build_resize(&b, "Resize", "x,r,,z", s2, sz);
    net = load_ok(&b);
    check_against(net, ref_resize);
    vfy_net_free(net);
    /* a scale of 1.5: row 1 maps exactly onto the tie 1.5 / 1.5 - 1/2 = 1/2, every float32 step
     * exact, so round_prefer_floor's 0 is every runtime's; row 2: 2.5 / 1.5 - 1/2 = 7/6 -> 1 */
    rs_oh = 3, rs_ow = 3;
    int64_t ih15[3] = {0, 0, 1}, iw15[3] = {0, 1, 2};
    memcpy(rs_ih, ih15, sizeof ih15);
    memcpy(rs_iw, iw15, sizeof iw15);
    build_resize(&b, "Resize", "x,r,s", s15, sz);
    net = load_ok(&b);
    check_against(net, ref_resize);
    vfy_net_free(net);
    /* refused: linear interpolation; the next float32 scale above 1.5, whose row 1 maps to
     * 0.49999996, within float32 rounding of the tie */
    build_resize(&b, "Resize", "x,r,s", s15u, sz);
    load_fails(&b, VFY_ERR_UNSUPPORTED, "node 'rs' (Resize)", "rounding boundary");
    build_resize(&b, "Resize", "x,r,s", s2, sz);
    node_attr(b.node[0], attr_s("mode", "linear"));
    load_fails(&b, VFY_ERR_UNSUPPORTED, "node 'rs' (Resize)", "mode 'linear'");
}
END_TEST

/* Conv -> Relu -> Flatten -> Gemm: the flattened NCHW order is the DENSE layers' order. */
static float G3[300];
static void ref_conv_gemm(const double *x, double *y)
{
    double h[100];
    ref_conv(x, h);
    for (int j = 0; j < 3; j++) {
        y[j] = 0;
        for (int l = 0; l < 100; l++)
            y[j] += (double)G3[j * 100 + l] * (h[l] > 0 ? h[l] : 0);
    }
}

START_TEST(test_conv_flatten_gemm)
{
    cw = (win){4, 5, 5, 4, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 5, 5, 1, 0, 4};
    mb b;
    build_conv(&b, NULL, 0);
    int64_t gd[2] = {3, 100}, yd[2] = {1, 3};
    for (int k = 0; k < 300; k++)
        G3[k] = (float)urand();
    b.node[0]->output[0] = (char *)"c";
    b.out[0] = vinfo("y", FLT, 2, yd);
    ADD_INIT(b, tensor_f("G", 2, gd, G3, ENC_RAW));
    ADD_NODE(b, "Relu", "relu", "c", "r", NULL);
    ADD_NODE(b, "Flatten", "flat", "r", "f", NULL);
    ADD_NODE(b, "Gemm", "fc", "f,G", "y", attr_i("transB", 1), NULL);
    vfy_net *net = load_ok(&b);
    ck_assert_int_eq(net->n_layers, 3);
    ck_assert_int_eq(net->layers[1].kind, VFY_LAYER_RELU);
    ck_assert_int_eq(net->layers[2].fan_in, 100);
    check_against(net, ref_conv_gemm);
    vfy_net_free(net);
}
END_TEST

/* Average over the window's input positions, divided by their count (count_include_pad = 0) or
 * by the count of positions inside the padded input (1). */
static void ref_avgpool(const double *x, double *y)
{
    for (int64_t c = 0; c < cw.c; c++)
        for (int64_t oy = 0; oy < cw.oh; oy++)
            for (int64_t ox = 0; ox < cw.ow; ox++) {
                double s = 0;
                int64_t n_in = 0, n_pad = 0;
                for (int64_t ky = 0; ky < cw.kh; ky++)
                    for (int64_t kx = 0; kx < cw.kw; kx++) {
                        int64_t iy = oy * cw.sh - cw.pt + ky, ix = ox * cw.sw - cw.pl + kx;
                        if (iy < cw.h + cw.pb && ix < cw.w + cw.pr)
                            n_pad++;
                        if (iy >= 0 && iy < cw.h && ix >= 0 && ix < cw.w) {
                            s += x[(c * cw.h + iy) * cw.w + ix];
                            n_in++;
                        }
                    }
                y[(c * cw.oh + oy) * cw.ow + ox] = s / (double)(cw.cip ? n_pad : n_in);
            }
}

static void build_pool(mb *b, const char *op, const char *auto_pad, int ceil_mode)
{
    memset(b, 0, sizeof *b);
    int64_t xd[4], yd[4];
    win_dims(xd, yd, cw.c);
    b->in[b->nin++] = vinfo("x", FLT, cw.rank, xd);
    b->out[b->nout++] = vinfo("y", FLT, cw.rank, yd);
    Onnx__NodeProto *n = node(op, "pool", "x", "y", NULL);
    if (strcmp(op, "MaxPool") == 0) {
        win_attrs(n, auto_pad, 1);
        node_attr(n, attr_ints("kernel_shape", cw.rank - 2, cw.rank == 4 ? &cw.kh : &cw.kw));
        if (ceil_mode)
            node_attr(n, attr_i("ceil_mode", 1));
    }
    if (strcmp(op, "AveragePool") == 0) {
        win_attrs(n, auto_pad, 0);
        node_attr(n, attr_ints("kernel_shape", cw.rank - 2, cw.rank == 4 ? &cw.kh : &cw.kw));
        node_attr(n, attr_i("count_include_pad", cw.cip));
        if (ceil_mode)
            node_attr(n, attr_i("ceil_mode", 1));
    }
    b->node[b->nn++] = n;
}

/* LeakyRelu and Clip, lowered through ReLU: the lowered net computes them exactly (x on both sides
 * of every kink, urand's [-2, 2]); Clip's bounds as inputs (opset 11), as attributes (opset 6), one
 * of them omitted; bounds that are computed or empty are refused. */
static double clip_lo, clip_hi, leaky_alpha;
static void ref_leaky(const double *x, double *y)
{
    for (int j = 0; j < 4; j++)
        y[j] = x[j] >= 0 ? x[j] : (double)(float)leaky_alpha * x[j];
}
static void ref_clip(const double *x, double *y)
{
    for (int j = 0; j < 4; j++)
        y[j] = fmin(fmax(x[j], clip_lo), clip_hi);
}

static void build_unary(mb *b, const char *op, const char *ins)
{
    memset(b, 0, sizeof *b);
    int64_t d[1] = {4};
    b->in[b->nin++] = vinfo("x", FLT, 1, d);
    b->out[b->nout++] = vinfo("y", FLT, 1, d);
    b->node[b->nn++] = node(op, "pwl", ins, "y", NULL);
}

START_TEST(test_leaky_clip)
{
    mb b;
    for (int k = 0; k < 3; k++) {
        leaky_alpha = k == 0 ? 0.01 : (k == 1 ? 0.2 : 1.5);
        build_unary(&b, "LeakyRelu", "x");
        if (k > 0)
            node_attr(b.node[0], attr_f("alpha", (float)leaky_alpha));
        else
            leaky_alpha = 0.01; /* the default */
        vfy_net *net = load_ok(&b);
        ck_assert_int_eq(net->n_layers, 3);
        ck_assert_int_eq(net->layers[1].kind, VFY_LAYER_RELU);
        check_against(net, ref_leaky);
        vfy_net_free(net);
    }
    static const float lo[1] = {-0.5f}, hi[1] = {1.25f};
    int64_t sd[1] = {1};
    /* inputs, both bounds; the lower only (upper omitted); the upper only (lower omitted) */
    const char *ins[3] = {"x,lo,hi", "x,lo", "x,,hi"};
    for (int k = 0; k < 3; k++) {
        build_unary(&b, "Clip", ins[k]);
        ADD_INIT(b, tensor_f("lo", 0, sd, lo, ENC_FLOAT));
        ADD_INIT(b, tensor_f("hi", 0, sd, hi, ENC_FLOAT));
        clip_lo = k == 2 ? -INFINITY : -0.5;
        clip_hi = k == 1 ? INFINITY : 1.25;
        vfy_net *net = load_ok(&b);
        ck_assert_int_eq(net->n_layers, 3);
        check_against(net, ref_clip);
        vfy_net_free(net);
    }
    /* attributes (opset 6) */
    build_unary(&b, "Clip", "x");
    node_attr(b.node[0], attr_f("min", 0.0f));
    node_attr(b.node[0], attr_f("max", 6.0f));
    clip_lo = 0, clip_hi = 6;
    vfy_net *net = load_ok(&b);
    check_against(net, ref_clip);
    vfy_net_free(net);
    /* no bounds: the identity, no layer */
    build_unary(&b, "Clip", "x");
    ADD_NODE(b, "Relu", "r", "y", "z", NULL);
    b.out[0] = vinfo("z", FLT, 1, (int64_t[]){4});
    net = load_ok(&b);
    ck_assert_int_eq(net->n_layers, 1);
    vfy_net_free(net);
    /* refused: an empty interval, a bound computed from the input */
    build_unary(&b, "Clip", "x");
    node_attr(b.node[0], attr_f("min", 1.0f));
    node_attr(b.node[0], attr_f("max", -1.0f));
    load_fails(&b, VFY_ERR_UNSUPPORTED, "node 'pwl' (Clip)", "empty");
    build_unary(&b, "Clip", "x,m");
    ADD_NODE(b, "ReduceMin", "m0", "x", "m", NULL);
    b.node[0] = b.node[1];
    b.node[1] = node("Clip", "pwl", "x,m", "y", NULL);
    load_fails(&b, VFY_ERR_UNSUPPORTED, "node 'pwl' (Clip)", "not a constant");
}
END_TEST

/* PRelu (a slope per element, and one broadcast), Abs, Max and Min with a constant (either
 * operand order, per element or scalar): lowered through ReLU, the lowered net computes them
 * exactly, as does min(x, c, c); a constant that does not broadcast to x is refused by name. */
static float pw_c[4] = {0.1f, -0.5f, 2.0f, 0.25f};
static int pw_kind, pw_scalar; /* 0 PRelu, 1 Abs, 2 Max, 3 Min */
static void ref_pw(const double *x, double *y)
{
    for (int j = 0; j < 4; j++) {
        double c = (double)pw_c[pw_scalar ? 0 : j];
        y[j] = pw_kind == 0 ? (x[j] >= 0 ? x[j] : c * x[j])
             : pw_kind == 1 ? fabs(x[j])
             : pw_kind == 2 ? fmax(x[j], c) : fmin(x[j], c);
    }
}

START_TEST(test_prelu_abs_maxmin)
{
    static const char *ops[4] = {"PRelu", "Abs", "Max", "Min"};
    int64_t d4[1] = {4}, d1[1] = {1};
    for (int k = 0; k < 4; k++)
        for (int sc = 0; sc < 2; sc++)
            for (int swap = 0; swap < 2; swap++) {
                if ((k == 1 && (sc || swap)) || (k == 0 && swap))
                    continue; /* (Abs has no constant; PRelu's slope comes second) */
                pw_kind = k;
                pw_scalar = sc;
                mb b;
                build_unary(&b, ops[k], k == 1 ? "x" : (swap ? "c,x" : "x,c"));
                ADD_INIT(b, tensor_f("c", 1, sc ? d1 : d4, pw_c, ENC_RAW));
                vfy_net *net = load_ok(&b);
                ck_assert_int_eq(net->n_layers, 3);
                ck_assert_int_eq(net->layers[1].kind, VFY_LAYER_RELU);
                ck_assert_int_eq(net->layers[1].n_in, k >= 2 ? 4 : 8);
                check_against(net, ref_pw);
                vfy_net_free(net);
            }
    /* three operands: folded pairwise (test_max_min_many), min(x, c, c) = min(x, c) */
    mb b;
    build_unary(&b, "Min", "x,c,c");
    ADD_INIT(b, tensor_f("c", 1, d4, pw_c, ENC_RAW));
    pw_kind = 3;
    pw_scalar = 0;
    vfy_net *net3 = load_ok(&b);
    check_against(net3, ref_pw);
    vfy_net_free(net3);
    int64_t d3[1] = {3};
    build_unary(&b, "PRelu", "x,c");
    ADD_INIT(b, tensor_f("c", 1, d3, pw_c, ENC_RAW));
    load_fails(&b, VFY_ERR_UNSUPPORTED, "node 'pwl' (PRelu)", "does not broadcast");
}
END_TEST

/* Max and Min of two computed tensors: h = x W1, g = relu(x W2), y = [max(h, g), min(g, h)] */
static const float mm_w1[16] = {0.5f, -1.0f, 0.25f, 2.0f, -0.75f, 0.5f, 1.5f, -0.5f,
                                1.0f, 0.125f, -2.0f, 0.5f, 0.25f, 0.75f, 0.5f, -1.25f};
static const float mm_w2[16] = {-0.5f, 1.0f, 0.75f, -0.25f, 1.25f, -0.5f, 0.5f, 1.0f,
                                0.5f, 0.25f, -1.0f, 0.75f, -1.5f, 0.5f, 0.25f, 0.5f};

/* A model on x [rows, 4] with the constants W1 = mm_w1 and W2 = mm_w2 (4 x 4) and an output y of
 * the given shape; the test adds its nodes. */
static void mm_model(mb *b, int64_t rows, int yrank, const int64_t *ydims)
{
    int64_t xd[2] = {rows, 4}, wd[2] = {4, 4};
    b->in[b->nin++] = vinfo("x", FLT, 2, xd);
    b->out[b->nout++] = vinfo("y", FLT, yrank, ydims);
    ADD_INIT(*b, tensor_f("W1", 2, wd, mm_w1, ENC_RAW));
    ADD_INIT(*b, tensor_f("W2", 2, wd, mm_w2, ENC_RAW));
}

/* Column j of x W1 and of x W2 for one row x of 4 features, summed in order in double. */
static void mm_hu(const double *x, int j, double *h, double *u)
{
    *h = *u = 0;
    for (int i = 0; i < 4; i++) {
        *h += x[i] * (double)mm_w1[i * 4 + j];
        *u += x[i] * (double)mm_w2[i * 4 + j];
    }
}

/* mm_hu in long double (the references of the bounds tests). */
static void mm_hu_ld(const double *x, int j, long double *h, long double *u)
{
    *h = *u = 0;
    for (int i = 0; i < 4; i++) {
        *h += (long double)x[i] * mm_w1[i * 4 + j];
        *u += (long double)x[i] * mm_w2[i * 4 + j];
    }
}

static void ref_max_min(const double *x, double *y)
{
    for (int j = 0; j < 4; j++) {
        double h, u;
        mm_hu(x, j, &h, &u);
        double g = u > 0 ? u : 0;
        y[j] = h > g ? h : g;
        y[4 + j] = h < g ? h : g;
    }
}

static void ref_max_min_bcast(const double *x, double *y)
{
    double s = x[0] + x[1] + x[2] + x[3];
    for (int j = 0; j < 4; j++) {
        y[j] = fmax(x[j], s);
        y[4 + j] = fmin(s, x[j]);
    }
}

START_TEST(test_max_min_computed)
{
    mb b = {0};
    int64_t yd[2] = {1, 8};
    mm_model(&b, 1, 2, yd);
    ADD_NODE(b, "MatMul", "m1", "x,W1", "h", NULL);
    ADD_NODE(b, "MatMul", "m2", "x,W2", "u", NULL);
    ADD_NODE(b, "Relu", "r", "u", "g", NULL);
    ADD_NODE(b, "Max", "mx", "h,g", "p", NULL);
    ADD_NODE(b, "Min", "mn", "g,h", "q", NULL);
    ADD_NODE(b, "Concat", "cat", "p,q", "y", attr_i("axis", 1), NULL);
    vfy_net *net = load_ok(&b);
    check_against(net, ref_max_min);
    vfy_net_free(net);
    /* two computed tensors of different shapes, broadcast: max(x_j, sum(x)), min(sum(x), x_j) */
    mb e = {0};
    int64_t s1[2] = {4, 1};
    mm_model(&e, 1, 2, yd); /* (W1, W2 unused here) */
    ADD_INIT(e, tensor_f("S", 2, s1, (const float[]){1.0f, 1.0f, 1.0f, 1.0f}, ENC_RAW));
    ADD_NODE(e, "MatMul", "sum", "x,S", "s", NULL); /* [1, 1] */
    ADD_NODE(e, "Max", "mxb", "x,s", "p", NULL);
    ADD_NODE(e, "Min", "mnb", "s,x", "q", NULL);
    ADD_NODE(e, "Concat", "cat", "p,q", "y", attr_i("axis", 1), NULL);
    net = load_ok(&e);
    check_against(net, ref_max_min_bcast);
    check_bounds_hold(net, ref_max_min_bcast, 0.3);
    vfy_net_free(net);
}
END_TEST

/* [max(h, g, x, 0.25), min(g, -0.5, h, x)] with h = x W1, g = relu(x W2): Max and Min of more
 * than two inputs, computed and constant mixed */
static void ref_max_min_many(const double *x, double *y)
{
    for (int j = 0; j < 4; j++) {
        double h, u;
        mm_hu(x, j, &h, &u);
        double g = u > 0 ? u : 0;
        y[j] = fmax(fmax(h, g), fmax(x[j], 0.25));
        y[4 + j] = fmin(fmin(g, -0.5), fmin(h, x[j]));
    }
}

START_TEST(test_max_min_many)
{
    mb b = {0};
    int64_t yd[2] = {1, 8}, one[1] = {1};
    mm_model(&b, 1, 2, yd);
    ADD_INIT(b, tensor_f("q", 1, one, (const float[]){0.25f}, ENC_RAW));
    ADD_INIT(b, tensor_f("mh", 1, one, (const float[]){-0.5f}, ENC_RAW));
    ADD_NODE(b, "MatMul", "m1", "x,W1", "h", NULL);
    ADD_NODE(b, "MatMul", "m2", "x,W2", "u", NULL);
    ADD_NODE(b, "Relu", "r", "u", "g", NULL);
    ADD_NODE(b, "Max", "mx", "h,g,x,q", "p", NULL);
    ADD_NODE(b, "Min", "mn", "g,mh,h,x", "m", NULL);
    ADD_NODE(b, "Concat", "cat", "p,m", "y", attr_i("axis", 1), NULL);
    vfy_net *net = load_ok(&b);
    check_against(net, ref_max_min_many);
    check_bounds_hold(net, ref_max_min_many, 0.3);
    check_bounds_hold(net, ref_max_min_many, 1.5);
    vfy_net_free(net);
}
END_TEST

/* [h * g, g * g, h * s, x * h] with h = x W1, g = relu(x W2), s = sum(x) (a [1, 1] tensor
 * broadcast): products of computed tensors, a square, a broadcast, the input carried past. */
static void ref_mul(const double *x, double *y)
{
    double sum = x[0] + x[1] + x[2] + x[3];
    for (int j = 0; j < 4; j++) {
        double h, u;
        mm_hu(x, j, &h, &u);
        double g = u > 0 ? u : 0;
        y[j] = h * g;
        y[4 + j] = g * g;
        y[8 + j] = h * sum;
        y[12 + j] = x[j] * h;
    }
}

/* Mul of two computed tensors: DENSE copies then a PRODUCT layer, against a reference (a square
 * is one input's pairs); Mul with a constant stays a SCALE; a third product of computed tensors
 * of different shapes broadcasts. */
START_TEST(test_mul_computed)
{
    mb b = {0};
    int64_t yd[2] = {1, 16}, s1[2] = {4, 1};
    mm_model(&b, 1, 2, yd);
    ADD_INIT(b, tensor_f("S", 2, s1, (const float[]){1.0f, 1.0f, 1.0f, 1.0f}, ENC_RAW));
    ADD_NODE(b, "MatMul", "m1", "x,W1", "h", NULL);
    ADD_NODE(b, "MatMul", "m2", "x,W2", "u", NULL);
    ADD_NODE(b, "MatMul", "ms", "x,S3", "s", NULL);
    ADD_NODE(b, "Relu", "r", "u", "g", NULL);
    ADD_NODE(b, "Mul", "p", "h,g", "p", NULL);
    ADD_NODE(b, "Mul", "sq", "g,g", "q", NULL);
    ADD_NODE(b, "Mul", "bc", "h,s", "t", NULL);
    ADD_NODE(b, "Mul", "xh", "x,h", "v", NULL);
    ADD_NODE(b, "Concat", "cat", "p,q,t,v", "y", attr_i("axis", 1), NULL);
    int64_t one[1] = {1};
    ADD_INIT(b, tensor_f("two", 1, one, (const float[]){2.0f}, ENC_RAW));
    ADD_INIT(b, tensor_i64("two_i", 1, one, (const int64_t[]){2}, 1));
    ADD_INIT(b, tensor_f("three", 1, one, (const float[]){3.0f}, ENC_RAW));
    ADD_NODE(b, "Pow", "cpow2", "S,two_i", "S2", NULL); /* constants: folded, S3 = S2 = S */
    ADD_NODE(b, "Pow", "cpow", "S2,three", "S3", NULL);
    vfy_net *net = load_ok(&b);
    int n_prod = 0;
    for (int64_t k = 0; k < net->n_layers; k++)
        n_prod += net->layers[k].kind == VFY_LAYER_PRODUCT;
    ck_assert_int_eq(n_prod, 4);
    check_against(net, ref_mul);
    vfy_net_free(net);
    /* the square as Pow(g, 2), by a float and by an int64 exponent */
    b.node[5] = node("Pow", "sq", "g,two", "q", NULL);
    net = load_ok(&b);
    check_against(net, ref_mul);
    vfy_net_free(net);
    b.node[5] = node("Pow", "sq", "g,two_i", "q", NULL);
    net = load_ok(&b);
    check_against(net, ref_mul);
    vfy_net_free(net);
    /* other exponents and computed ones are refused by name */
    b.node[5] = node("Pow", "cube", "g,three", "q", NULL);
    load_fails(&b, VFY_ERR_UNSUPPORTED, "node 'cube' (Pow)", "exponent other than 2");
    b.node[5] = node("Pow", "pp", "g,h", "q", NULL);
    load_fails(&b, VFY_ERR_UNSUPPORTED, "node 'pp' (Pow)", "computed exponent");
}
END_TEST

/* With h = x W1 and g = relu(x W2) (each [1,4]): y = [H G (H, G: h, g as 2x2), the batched
 * products of h as [2,1,2] and g as [2,2,1], x x^T] */
static void ref_matmul2(const double *x, double *y)
{
    double h[4], g[4];
    for (int j = 0; j < 4; j++) {
        double u = 0;
        h[j] = 0;
        for (int i = 0; i < 4; i++) {
            h[j] += x[i] * (double)mm_w1[i * 4 + j];
            u += x[i] * (double)mm_w2[i * 4 + j];
        }
        g[j] = u > 0 ? u : 0;
    }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            y[2 * i + j] = h[2 * i] * g[j] + h[2 * i + 1] * g[2 + j];
    for (int q = 0; q < 2; q++)
        y[4 + q] = h[2 * q] * g[2 * q] + h[2 * q + 1] * g[2 * q + 1];
    y[6] = x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3];
}

/* MatMul of two computed tensors (2-D, batched, a quadratic form x x^T): copies, products and
 * sums, against a reference and inside CROWN and alpha bounds. */
START_TEST(test_matmul_computed)
{
    mb b = {0};
    int64_t yd[2] = {1, 7}, two[1] = {2}, three[1] = {3};
    mm_model(&b, 1, 2, yd);
    ADD_INIT(b, tensor_i64("s22", 1, two, (const int64_t[]){2, 2}, 0));
    ADD_INIT(b, tensor_i64("s212", 1, three, (const int64_t[]){2, 1, 2}, 0));
    ADD_INIT(b, tensor_i64("s221", 1, three, (const int64_t[]){2, 2, 1}, 0));
    ADD_NODE(b, "MatMul", "m1", "x,W1", "h", NULL);
    ADD_NODE(b, "MatMul", "m2", "x,W2", "u", NULL);
    ADD_NODE(b, "Relu", "r", "u", "g", NULL);
    ADD_NODE(b, "Reshape", "rh", "h,s22", "H", NULL);
    ADD_NODE(b, "Reshape", "rg", "g,s22", "G", NULL);
    ADD_NODE(b, "MatMul", "hg", "H,G", "P", NULL);
    ADD_NODE(b, "Reshape", "rh3", "h,s212", "H3", NULL);
    ADD_NODE(b, "Reshape", "rg3", "g,s221", "G3", NULL);
    ADD_NODE(b, "MatMul", "bhg", "H3,G3", "Q", NULL);
    ADD_NODE(b, "Transpose", "xt", "x", "X", NULL);
    ADD_NODE(b, "MatMul", "xx", "x,X", "S", NULL);
    ADD_INIT(b, tensor_i64("s14", 1, two, (const int64_t[]){1, 4}, 0));
    ADD_INIT(b, tensor_i64("s12", 1, two, (const int64_t[]){1, 2}, 0));
    ADD_NODE(b, "Reshape", "f1", "P,s14", "Pf", NULL);
    ADD_NODE(b, "Reshape", "f2", "Q,s12", "Qf", NULL);
    ADD_NODE(b, "Concat", "cat", "Pf,Qf,S", "y", attr_i("axis", 1), NULL);
    vfy_net *net = load_ok(&b);
    check_against(net, ref_matmul2);
    check_bounds_hold(net, ref_matmul2, 0.3);
    check_bounds_hold(net, ref_matmul2, 1.5);
    vfy_net_free(net);
}
END_TEST

/* One attention head on 2 tokens of 4 features (x as [2, 4]): Q = x W1, K = x W2, V = relu(x W1),
 * A = Softmax(Q K^T / 2) along the keys, y = A V + x (a residual). */
static void ref_attention(const double *x, double *y)
{
    double q[2][4], k[2][4], v[2][4];
    for (int t = 0; t < 2; t++)
        for (int j = 0; j < 4; j++) {
            mm_hu(x + t * 4, j, &q[t][j], &k[t][j]);
            v[t][j] = q[t][j] > 0 ? q[t][j] : 0;
        }
    for (int t = 0; t < 2; t++) {
        double s[2];
        for (int u = 0; u < 2; u++) {
            s[u] = 0;
            for (int j = 0; j < 4; j++)
                s[u] += q[t][j] * k[u][j];
            s[u] *= 0.5;
        }
        double a0 = 1.0 / (1.0 + exp(s[1] - s[0])), a1 = 1.0 / (1.0 + exp(s[0] - s[1]));
        for (int j = 0; j < 4; j++)
            y[t * 4 + j] = a0 * v[0][j] + a1 * v[1][j] + x[t * 4 + j];
    }
}

/* An attention block (products of computed tensors, a Softmax inside the graph, a residual):
 * against a reference, and CROWN and alpha-CROWN bounds hold at samples. */
START_TEST(test_attention_block)
{
    mb b = {0};
    int64_t yd[2] = {2, 4}, one[1] = {1};
    mm_model(&b, 2, 2, yd);
    ADD_INIT(b, tensor_f("half", 1, one, (const float[]){0.5f}, ENC_RAW));
    ADD_NODE(b, "MatMul", "q", "x,W1", "Q", NULL);
    ADD_NODE(b, "MatMul", "k", "x,W2", "K", NULL);
    ADD_NODE(b, "Relu", "v", "Q", "V", NULL);
    ADD_NODE(b, "Transpose", "kt", "K", "KT", NULL);
    ADD_NODE(b, "MatMul", "qk", "Q,KT", "S0", NULL);
    ADD_NODE(b, "Mul", "scale", "S0,half", "S", NULL);
    ADD_NODE(b, "Softmax", "sm", "S", "A", attr_i("axis", -1), NULL);
    ADD_NODE(b, "MatMul", "av", "A,V", "O", NULL);
    ADD_NODE(b, "Add", "res", "O,x", "y", NULL);
    vfy_net *net = load_ok(&b);
    int64_t n_exp = 0;
    for (int64_t k = 0; k < net->n_layers; k++)
        n_exp += net->layers[k].kind == VFY_LAYER_EXP;
    ck_assert_int_eq(n_exp, 1);
    ck_assert_int_eq(net->out_op, VFY_OUT_IDENTITY);
    check_against(net, ref_attention);
    check_bounds_hold(net, ref_attention, 0.05);
    check_bounds_hold(net, ref_attention, 0.3);
    vfy_net_free(net);
}
END_TEST

/* [exp(h), log(g), sqrt(g), 1/g, softplus(h), 1/(-g)] with h = x W1, g = relu(x W2) + 0.5 > 0:
 * h and g each read by several of the ops (carried past them) */
static void ref_convex(const double *x, double *y)
{
    for (int j = 0; j < 4; j++) {
        double h, u;
        mm_hu(x, j, &h, &u);
        double g = (u > 0 ? u : 0) + 0.5;
        y[j] = exp(h);
        y[4 + j] = log(g);
        y[8 + j] = sqrt(g);
        y[12 + j] = 1.0 / g;
        y[16 + j] = log1p(exp(h));
        y[20 + j] = 1.0 / -g;
    }
}

/* Exp, Log, Sqrt, Reciprocal and Softplus load as layers of their own kind (standalone: fan_in 1,
 * not a Softmax's), evaluate as the reference, and CROWN and alpha-CROWN bounds (float claim)
 * hold at samples. */
START_TEST(test_convex_ops)
{
    mb b = {0};
    int64_t yd[2] = {1, 24}, one[1] = {1};
    mm_model(&b, 1, 2, yd);
    ADD_INIT(b, tensor_f("half", 1, one, (const float[]){0.5f}, ENC_RAW));
    ADD_NODE(b, "MatMul", "m1", "x,W1", "h", NULL);
    ADD_NODE(b, "MatMul", "m2", "x,W2", "u", NULL);
    ADD_NODE(b, "Relu", "r", "u", "ur", NULL);
    ADD_NODE(b, "Add", "pos", "ur,half", "g", NULL);
    ADD_NODE(b, "Exp", "ex", "h", "e", NULL);
    ADD_NODE(b, "Log", "lg", "g", "l", NULL);
    ADD_NODE(b, "Sqrt", "sq", "g", "s", NULL);
    ADD_NODE(b, "Reciprocal", "rc", "g", "i", NULL);
    ADD_NODE(b, "Softplus", "sp", "h", "p", NULL);
    ADD_NODE(b, "Neg", "ng", "g", "n", NULL);
    ADD_NODE(b, "Reciprocal", "rn", "n", "q", NULL);
    ADD_NODE(b, "Concat", "cat", "e,l,s,i,p,q", "y", attr_i("axis", 1), NULL);
    vfy_net *net = load_ok(&b);
    int seen[VFY_LAYER_KIND_COUNT] = {0};
    for (int64_t k = 0; k < net->n_layers; k++) {
        const vfy_layer *L = &net->layers[k];
        seen[L->kind]++;
        if (vfy_layer_is_convex(L->kind))
            ck_assert(!vfy_layer_in_softmax(L));
    }
    ck_assert(seen[VFY_LAYER_EXP] == 1 && seen[VFY_LAYER_LOG] == 1 && seen[VFY_LAYER_SQRT] == 1 &&
              seen[VFY_LAYER_RECIP] == 2 && seen[VFY_LAYER_SOFTPLUS] == 1);
    check_against(net, ref_convex);
    check_bounds_hold(net, ref_convex, 0.05);
    check_bounds_hold(net, ref_convex, 0.3);
    vfy_net_free(net);
}
END_TEST

/* [x / g, 2 / g, h / sum(g), x / (-g)] with h = x W1, g = relu(x W2) + 0.5: Div by a computed
 * tensor (broadcast, a constant dividend, a negative divisor) */
static void ref_div(const double *x, double *y)
{
    double g[4], h[4], sg = 0;
    for (int j = 0; j < 4; j++) {
        double u;
        mm_hu(x, j, &h[j], &u);
        g[j] = (u > 0 ? u : 0) + 0.5;
        sg += g[j];
    }
    for (int j = 0; j < 4; j++) {
        y[j] = x[j] / g[j];
        y[4 + j] = 2.0 / g[j];
        y[8 + j] = h[j] / sg;
        y[12 + j] = x[j] / -g[j];
    }
}

/* Div by a computed tensor becomes Mul by its Reciprocal (a RECIP layer, then a product or a
 * SCALE): evaluates as the reference, bounds hold at samples. */
START_TEST(test_div_computed)
{
    mb b = {0};
    int64_t yd[2] = {1, 16}, one[1] = {1};
    mm_model(&b, 1, 2, yd);
    ADD_INIT(b, tensor_f("half", 1, one, (const float[]){0.5f}, ENC_RAW));
    ADD_INIT(b, tensor_f("two", 1, one, (const float[]){2.0f}, ENC_RAW));
    ADD_NODE(b, "MatMul", "m1", "x,W1", "h", NULL);
    ADD_NODE(b, "MatMul", "m2", "x,W2", "u", NULL);
    ADD_NODE(b, "Relu", "r", "u", "ur", NULL);
    ADD_NODE(b, "Add", "pos", "ur,half", "g", NULL);
    ADD_NODE(b, "Div", "d1", "x,g", "a", NULL);
    ADD_NODE(b, "Div", "d2", "two,g", "c", NULL);
    ADD_NODE(b, "ReduceSum", "rs", "g", "sg", attr_ints("axes", 1, (const int64_t[]){1}), NULL);
    ADD_NODE(b, "Div", "d3", "h,sg", "e", NULL);
    ADD_NODE(b, "Neg", "ng", "g", "n", NULL);
    ADD_NODE(b, "Div", "d4", "x,n", "f", NULL);
    ADD_NODE(b, "Concat", "cat", "a,c,e,f", "y", attr_i("axis", 1), NULL);
    vfy_net *net = load_ok(&b);
    check_against(net, ref_div);
    check_bounds_hold(net, ref_div, 0.05);
    check_bounds_hold(net, ref_div, 0.3);
    vfy_net_free(net);
}
END_TEST

static const float ln_gamma[4] = {1.5f, -0.5f, 0.75f, 2.0f};
static const float ln_beta[4] = {0.25f, 0.0f, -1.0f, 0.5f};

/* LayerNorm over the last axis of h = x W1 (rows of 4): (h - mean) / sqrt(var + 1e-5f) gamma +
 * beta, in double */
static void ref_layernorm(const double *x, double *y)
{
    for (int t = 0; t < 2; t++) {
        double h[4], m = 0, v = 0;
        for (int j = 0; j < 4; j++) {
            double u;
            mm_hu(x + 4 * t, j, &h[j], &u);
            m += h[j] / 4;
        }
        for (int j = 0; j < 4; j++)
            v += (h[j] - m) * (h[j] - m) / 4;
        double sd = sqrt(v + (double)1e-5f);
        for (int j = 0; j < 4; j++)
            y[4 * t + j] = (h[j] - m) / sd * ln_gamma[j] + ln_beta[j];
    }
}

/* A LayerNorm as PyTorch exports it before opset 17 (ReduceMean, Sub, Pow 2, ReduceMean, Add eps,
 * Sqrt, Div, Mul, Add) and as the opset-17 LayerNormalization op: both evaluate as the reference,
 * bounds hold at samples; the op on a non-last axis, with another stash_type, or with its Mean
 * output used is refused with one line naming the node. */
START_TEST(test_layernorm)
{
    int64_t yd[2] = {2, 4}, one[1] = {1}, four[1] = {4};
    for (int op = 0; op < 2; op++) {
        mb b = {0};
        mm_model(&b, 2, 2, yd);
        ADD_INIT(b, tensor_f("gamma", 1, four, ln_gamma, ENC_RAW));
        ADD_INIT(b, tensor_f("beta", 1, four, ln_beta, ENC_RAW));
        ADD_NODE(b, "MatMul", "m1", "x,W1", "h", NULL);
        if (op) {
            ADD_NODE(b, "LayerNormalization", "ln", "h,gamma,beta", "y", attr_i("axis", -1),
                     attr_f("epsilon", 1e-5f), NULL);
        } else {
            ADD_INIT(b, tensor_f("eps", 1, one, (const float[]){1e-5f}, ENC_RAW));
            ADD_INIT(b, tensor_f("two", 1, one, (const float[]){2.0f}, ENC_RAW));
            const int64_t last[1] = {-1};
            ADD_NODE(b, "ReduceMean", "mean", "h", "m", attr_ints("axes", 1, last), NULL);
            ADD_NODE(b, "Sub", "sub", "h,m", "d", NULL);
            ADD_NODE(b, "Pow", "pow", "d,two", "p", NULL);
            ADD_NODE(b, "ReduceMean", "var", "p", "v", attr_ints("axes", 1, last), NULL);
            ADD_NODE(b, "Add", "addeps", "v,eps", "ve", NULL);
            ADD_NODE(b, "Sqrt", "sqrt", "ve", "s", NULL);
            ADD_NODE(b, "Div", "div", "d,s", "n", NULL);
            ADD_NODE(b, "Mul", "scale", "n,gamma", "ns", NULL);
            ADD_NODE(b, "Add", "shift", "ns,beta", "y", NULL);
        }
        vfy_net *net = load_ok(&b);
        check_against(net, ref_layernorm);
        check_bounds_hold(net, ref_layernorm, 0.02);
        check_bounds_hold(net, ref_layernorm, 0.2);
        vfy_net_free(net);
    }
    for (int bad = 0; bad < 3; bad++) {
        mb b = {0};
        mm_model(&b, 2, 2, yd);
        ADD_INIT(b, tensor_f("gamma", 1, four, ln_gamma, ENC_RAW));
        ADD_NODE(b, "MatMul", "m1", "x,W1", "h", NULL);
        if (bad == 0) {
            ADD_NODE(b, "LayerNormalization", "ln0", "h,gamma", "y", attr_i("axis", 0), NULL);
            load_fails(&b, VFY_ERR_UNSUPPORTED, "node 'ln0' (LayerNormalization)", "last axis");
        } else if (bad == 1) {
            ADD_NODE(b, "LayerNormalization", "ln1", "h,gamma", "y", attr_i("stash_type", 11),
                     NULL);
            load_fails(&b, VFY_ERR_UNSUPPORTED, "node 'ln1' (LayerNormalization)", "stash_type");
        } else {
            ADD_NODE(b, "LayerNormalization", "ln2", "h,gamma", "z,mn", NULL);
            ADD_NODE(b, "Add", "use", "z,mn", "y", NULL);
            load_fails(&b, VFY_ERR_UNSUPPORTED, "node 'ln2' (LayerNormalization)", "'mn'");
        }
    }
}
END_TEST

/* ---- every convex op in one network, bounds against exact and float32 references ----
 * x [1, 4]; h = x W1, u = x W2, g = relu(u) + 0.5;
 * y = [softplus(h), sqrt(g), log(g), exp(h / 2), 1/g, h / g, layernorm(h) gamma + beta] (28).
 * cv_ref_ld: the real network in long double (libm's long double functions, 2^-62); cv_ref_f32: a
 * float32 runtime executing the ONNX ops one by one (each MatMul a float sum in order, Div one
 * rounded quotient, Softplus naively log(1 + exp(x)) when naive, else max(x, 0) +
 * log1p(exp(-|x|))). */
static void cv_ref_ld(const double *x, long double *y)
{
    long double h[4], g[4], m = 0, v = 0;
    for (int j = 0; j < 4; j++) {
        long double a = 0, b = 0;
        for (int i = 0; i < 4; i++) {
            a += (long double)x[i] * mm_w1[i * 4 + j];
            b += (long double)x[i] * mm_w2[i * 4 + j];
        }
        h[j] = a;
        g[j] = (b > 0 ? b : 0) + 0.5L;
        m += a / 4;
    }
    for (int j = 0; j < 4; j++)
        v += (h[j] - m) * (h[j] - m) / 4;
    long double sd = sqrtl(v + (long double)1e-5f);
    for (int j = 0; j < 4; j++) {
        y[j] = (h[j] > 0 ? h[j] : 0) + log1pl(expl(-fabsl(h[j])));
        y[4 + j] = sqrtl(g[j]);
        y[8 + j] = logl(g[j]);
        y[12 + j] = expl(h[j] * 0.5L);
        y[16 + j] = 1.0L / g[j];
        y[20 + j] = h[j] / g[j];
        y[24 + j] = (h[j] - m) / sd * ln_gamma[j] + ln_beta[j];
    }
}

static void cv_ref_f32(const float *x, float *y, int naive)
{
    float h[4], g[4], d[4], m = 0, v = 0;
    for (int j = 0; j < 4; j++) {
        float a = 0, b = 0;
        for (int i = 0; i < 4; i++) {
            a += x[i] * mm_w1[i * 4 + j];
            b += x[i] * mm_w2[i * 4 + j];
        }
        h[j] = a;
        g[j] = (b > 0 ? b : 0) + 0.5f;
        m += a;
    }
    m /= 4;
    for (int j = 0; j < 4; j++) {
        d[j] = h[j] - m;
        v += d[j] * d[j];
    }
    float sd = sqrtf(v / 4 + 1e-5f);
    for (int j = 0; j < 4; j++) {
        y[j] = naive ? logf(1.0f + expf(h[j])) : fmaxf(h[j], 0) + log1pf(expf(-fabsf(h[j])));
        y[4 + j] = sqrtf(g[j]);
        y[8 + j] = logf(g[j]);
        y[12 + j] = expf(h[j] * 0.5f);
        y[16 + j] = 1.0f / g[j];
        y[20 + j] = h[j] / g[j];
        y[24 + j] = d[j] / sd * ln_gamma[j] + ln_beta[j];
    }
}

static void cv_model(mb *b, int layer_norm_op)
{
    int64_t yd[2] = {1, 28}, one[1] = {1}, four[1] = {4};
    const int64_t last[1] = {-1};
    mm_model(b, 1, 2, yd);
    ADD_INIT(*b, tensor_f("half", 1, one, (const float[]){0.5f}, ENC_RAW));
    ADD_INIT(*b, tensor_f("gamma", 1, four, ln_gamma, ENC_RAW));
    ADD_INIT(*b, tensor_f("beta", 1, four, ln_beta, ENC_RAW));
    ADD_NODE(*b, "MatMul", "m1", "x,W1", "h", NULL);
    ADD_NODE(*b, "MatMul", "m2", "x,W2", "u", NULL);
    ADD_NODE(*b, "Relu", "r", "u", "ur", NULL);
    ADD_NODE(*b, "Add", "pos", "ur,half", "g", NULL);
    ADD_NODE(*b, "Softplus", "sp", "h", "a", NULL);
    ADD_NODE(*b, "Sqrt", "sq", "g", "s", NULL);
    ADD_NODE(*b, "Log", "lg", "g", "l", NULL);
    ADD_NODE(*b, "Mul", "hh", "h,half", "h2", NULL);
    ADD_NODE(*b, "Exp", "ex", "h2", "e", NULL);
    ADD_NODE(*b, "Reciprocal", "rc", "g", "i", NULL);
    ADD_NODE(*b, "Div", "dv", "h,g", "q", NULL);
    if (layer_norm_op) {
        ADD_NODE(*b, "LayerNormalization", "ln", "h,gamma,beta", "n", attr_f("epsilon", 1e-5f),
                 NULL);
    } else {
        ADD_INIT(*b, tensor_f("eps", 1, one, (const float[]){1e-5f}, ENC_RAW));
        ADD_NODE(*b, "ReduceMean", "mean", "h", "m", attr_ints("axes", 1, last), NULL);
        ADD_NODE(*b, "Sub", "sub", "h,m", "d", NULL);
        ADD_NODE(*b, "Mul", "sqr", "d,d", "p", NULL);
        ADD_NODE(*b, "ReduceMean", "var", "p", "v", attr_ints("axes", 1, last), NULL);
        ADD_NODE(*b, "Add", "addeps", "v,eps", "ve", NULL);
        ADD_NODE(*b, "Sqrt", "std", "ve", "sd", NULL);
        ADD_NODE(*b, "Div", "div", "d,sd", "nn", NULL);
        ADD_NODE(*b, "Mul", "scale", "nn,gamma", "ns", NULL);
        ADD_NODE(*b, "Add", "shift", "ns,beta", "n", NULL);
    }
    ADD_NODE(*b, "Concat", "cat", "a,s,l,e,i,q,n", "y", attr_i("axis", 1), NULL);
}

typedef void (*ref_ld_fn)(const double *x, long double *y);
/* A float32 execution of the network at x (variant 0 or 1: two runtimes' ways; net: the lowered
 * network, for a reference that runs it). */
typedef void (*ref_f32_fn)(const float *x, float *y, int variant, const vfy_net *net);

/* net (4 inputs, NY outputs, NY <= 64): under the real claim and the float claim, IBP, CROWN and
 * alpha-CROWN (hidden layers) bounds of every output contain ref's value (long double) at 600
 * sampled float32 inputs of each box (its corners first), and under the float claim both of
 * ref32's values; K random integer rows bounded by CROWN and by alpha-CROWN lie below the rows'
 * values likewise. No tolerance. Boxes of radius r0 and r1 around 0.5 urand(). */
static void bounds_contain_ref(const vfy_net *net, int64_t NY, double r0, double r1, ref_ld_fn ref,
                               ref_f32_fn ref32)
{
    enum { K = 6, NYMAX = 64 };
    ck_assert_int_eq(net->n_in, 4);
    ck_assert_int_le(NY, NYMAX);
    for (int fsem = 0; fsem < 2; fsem++)
        for (int rad = 0; rad < 2; rad++) {
            vfy_bound_ctx *ctx;
            ck_assert_int_eq(vfy_bound_ctx_create(net, fsem, &ctx, NULL), VFY_OK);
            vfy_bounds *bs[3] = {vfy_bounds_create(ctx), vfy_bounds_create(ctx),
                                 vfy_bounds_create(ctx)};
            vfy_bounds *ba = vfy_bounds_create(ctx);
            ck_assert(bs[0] && bs[1] && bs[2] && ba);
            double lo[4], hi[4], wlo[4], whi[4], r = rad ? r1 : r0;
            for (int j = 0; j < 4; j++) {
                double c = 0.5 * urand();
                lo[j] = wlo[j] = c - r;
                hi[j] = whi[j] = c + r;
            }
            vfy_bound_widen_input(ctx, 4, wlo, whi);
            ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_IBP, wlo, whi, NULL, bs[0]), VFY_OK);
            ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo, whi, NULL, bs[1]), VFY_OK);
            ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo, whi, NULL, bs[2]), VFY_OK);
            int64_t n_t = 0;
            ck_assert_int_eq(vfy_bound_tighten_alpha(ctx, wlo, whi, bs[2], 20, NULL, &n_t), VFY_OK);
            ck_assert_int_eq(vfy_bound_layers(ctx, VFY_BOUND_CROWN, wlo, whi, NULL, ba), VFY_OK);
            for (int q = 0; q < 3; q++)
                ck_assert(!bs[q]->overflow);
            double cy[K * NYMAX], lbc[K], lba[K];
            for (int i = 0; i < K * NY; i++)
                cy[i] = (double)((int)((urand() + 2) * 1.25) - 2); /* (in -2..2) */
            ck_assert_int_eq(vfy_bound_rows(ctx, VFY_BOUND_CROWN, wlo, whi, bs[1], K, cy, NULL,
                                            lbc, NULL, NULL), VFY_OK);
            ck_assert_int_eq(vfy_bound_rows_alpha(ctx, wlo, whi, ba, K, cy, NULL, NULL, 20, lba,
                                                  NULL, NULL), VFY_OK);
            for (int i = 0; i < K; i++)
                REQUIRE_MSG(isfinite(lbc[i]) && lba[i] >= lbc[i], "row %d: CROWN %g, alpha %g", i,
                            lbc[i], lba[i]);
            int64_t L = net->n_layers - 1;
            for (int smp = 0; smp < 600; smp++) {
                double x[4];
                float xf[4];
                long double y[NYMAX];
                float yf[2][NYMAX];
                for (int j = 0; j < 4; j++) {
                    double t = smp < 16 ? (double)((smp >> j) & 1) : 0.25 * (urand() + 2);
                    xf[j] = (float)(lo[j] + t * (hi[j] - lo[j]));
                    if ((double)xf[j] < lo[j] || (double)xf[j] > hi[j])
                        xf[j] = (float)(0.5 * lo[j] + 0.5 * hi[j]);
                    x[j] = xf[j];
                }
                ref(x, y);
                ref32(xf, yf[0], 0, net);
                ref32(xf, yf[1], 1, net);
                for (int q = 0; q < 3; q++)
                    for (int j = 0; j < NY; j++) {
                        long double l = bs[q]->lo[L][j], h = bs[q]->hi[L][j];
                        REQUIRE_MSG(l <= y[j] && y[j] <= h && (!fsem || (l <= yf[0][j] &&
                                    yf[0][j] <= h && l <= yf[1][j] && yf[1][j] <= h)),
                                    "fsem %d r %g bounds %d output %d: %.20Lg (float32 %.9g, "
                                    "%.9g) not in [%.17Lg, %.17Lg]", fsem, r, q, j, y[j],
                                    (double)yf[0][j], (double)yf[1][j], l, h);
                    }
                for (int i = 0; i < K; i++) {
                    long double v = 0, vf = 0, vn = 0;
                    for (int j = 0; j < NY; j++) {
                        v += cy[i * NY + j] * y[j];
                        vf += cy[i * NY + j] * (long double)yf[0][j];
                        vn += cy[i * NY + j] * (long double)yf[1][j];
                    }
                    REQUIRE_MSG(lbc[i] <= v && lba[i] <= v &&
                                (!fsem || (lbc[i] <= vf && lba[i] <= vf && lbc[i] <= vn &&
                                           lba[i] <= vn)),
                                "fsem %d r %g row %d: %.17Lg (float32 %.17Lg, %.17Lg), CROWN "
                                "%.17g, alpha %.17g", fsem, r, i, v, vf, vn, lbc[i], lba[i]);
                }
            }
            for (int q = 0; q < 3; q++)
                vfy_bounds_free(bs[q]);
            vfy_bounds_free(ba);
            vfy_bound_ctx_free(ctx);
        }
}

static void cv_ref_f32_net(const float *x, float *y, int naive, const vfy_net *net)
{
    (void)net;
    cv_ref_f32(x, y, naive);
}

/* The network above (LayerNorm decomposed, or as the op) inside its bounds (bounds_contain_ref),
 * on boxes of radius 0.02 and 0.25; both float32 runtimes' values too. */
START_TEST(test_convex_net_sound)
{
    mb b = {0};
    cv_model(&b, _i % 2);
    vfy_net *net = load_ok(&b);
    ck_assert_int_eq(net->n_out, 28);
    bounds_contain_ref(net, 28, 0.02, 0.25, cv_ref_ld, cv_ref_f32_net);
    vfy_net_free(net);
}
END_TEST

/* y = 1 / x0 (Div of a constant by the input) on x0 in [0, 1]: the real y is >= 1 wherever it is
 * defined, so Y_0 <= 0.5 holds nowhere, but the divisor reaches 0: verify must not answer unsat
 * (no claim across a pole), and finds no counterexample either: unknown (or timeout). Likewise
 * -0.5 <= Y_0 <= 0.5 on x0 in [-1, 1] (|1/x0| >= 1, across the pole). On [0.5, 1] the first spec
 * is proved. */
START_TEST(test_div_by_zero_unknown)
{
    mb b = {0};
    int64_t xd[2] = {1, 1}, one[1] = {1};
    b.in[b.nin++] = vinfo("x", FLT, 2, xd);
    b.out[b.nout++] = vinfo("y", FLT, 2, xd);
    ADD_INIT(b, tensor_f("c1", 1, one, (const float[]){1.0f}, ENC_RAW));
    ADD_NODE(b, "Div", "inv", "c1,x", "y", NULL);
    vfy_net *net = load_ok(&b);
    for (int c = 0; c < 3; c++) {
        char text[512];
        snprintf(text, sizeof text, "(declare-const X_0 Real)\n(declare-const Y_0 Real)\n"
                 "(assert (>= X_0 %s))\n(assert (<= X_0 1.0))\n(assert (<= Y_0 0.5))\n%s",
                 c == 1 ? "0.5" : c == 2 ? "-1.0" : "0.0",
                 c == 2 ? "(assert (>= Y_0 -0.5))\n" : "");
        vfy_spec *spec = NULL;
        vfy_error err;
        ck_assert_int_eq(vfy_spec_parse(text, strlen(text), "t.vnnlib", &spec, &err), VFY_OK);
        vfy_verify_opts o;
        vfy_verify_opts_default(&o);
        o.timeout_s = 2;
        o.threads = 1;
        vfy_verify_result res;
        ck_assert_int_eq(vfy_verify(net, spec, &o, &res, &err), VFY_OK);
        if (c != 1)
            REQUIRE_MSG(res.verdict == VFY_UNKNOWN || res.verdict == VFY_TIMEOUT,
                        "divisor reaching 0 (spec %d): verdict %d", c, (int)res.verdict);
        else
            REQUIRE_MSG(res.verdict == VFY_UNSAT, "divisor in [0.5, 1]: verdict %d",
                        (int)res.verdict);
        vfy_verify_result_free(&res);
        vfy_spec_free(spec);
    }
    vfy_net_free(net);
}
END_TEST

/* [x0 + sigmoid(x0) .., tanh(h) + r, r] with h = x W1, r = relu(x W2) - x: values carried past a
 * Sigmoid and a Tanh (x of either sign, then r carried past the Tanh after a ReLU made it a pair).
 * (x sigmoid(x) would be one SILU layer: test_swish.) */
static void ref_carry(const double *x, double *y)
{
    for (int j = 0; j < 4; j++) {
        double h, u;
        mm_hu(x, j, &h, &u);
        double r = (u > 0 ? u : 0) - x[j];
        y[j] = x[j] + 1.0 / (1.0 + exp(-x[j]));
        y[4 + j] = tanh(h) + r;
        y[8 + j] = r;
    }
}

/* Values read on both sides of a Sigmoid or a Tanh pass through the layer (its first n_pass
 * elements): x + sigmoid(x), and a residual across a Tanh, against a reference. */
START_TEST(test_carry_past_sigmoid)
{
    mb b = {0};
    int64_t yd[2] = {1, 12};
    mm_model(&b, 1, 2, yd);
    ADD_NODE(b, "Sigmoid", "sg", "x", "s", NULL);
    ADD_NODE(b, "Add", "xs", "x,s", "p", NULL);
    ADD_NODE(b, "MatMul", "m2", "x,W2", "u", NULL);
    ADD_NODE(b, "Relu", "rl", "u", "g", NULL);
    ADD_NODE(b, "Sub", "rs", "g,x", "r", NULL);
    ADD_NODE(b, "MatMul", "m1", "x,W1", "h", NULL);
    ADD_NODE(b, "Tanh", "th", "h", "t", NULL);
    ADD_NODE(b, "Add", "skip", "t,r", "q", NULL);
    ADD_NODE(b, "Concat", "cat", "p,q,r", "y", attr_i("axis", 1), NULL);
    vfy_net *net = load_ok(&b);
    int64_t n_pass = 0;
    for (int64_t k = 0; k < net->n_layers; k++)
        if (net->layers[k].kind == VFY_LAYER_SIGMOID || net->layers[k].kind == VFY_LAYER_TANH)
            n_pass += net->layers[k].n_pass > 0;
    ck_assert_int_eq(n_pass, 2);
    check_against(net, ref_carry);
    vfy_net_free(net);
}
END_TEST

static double sgn(double v) { return v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0); }

/* y = [sign(x W1) + x W1, sign(x W2 - c) * 2, sign(sign(x W2) + 0.1)] with c = Sign(C) folded (a
 * binarized layer's weights are often a Sign of constants) */
static const float sign_c[4] = {0.5f, -2.0f, 0.0f, 3.0f};
static void ref_sign(const double *x, double *y)
{
    for (int j = 0; j < 4; j++) {
        double h, u;
        mm_hu(x, j, &h, &u);
        y[j] = sgn(h) + h;
        y[4 + j] = sgn(u - sgn(sign_c[j])) * 2;
        y[8 + j] = sgn(sgn(u) + 0.1f); /* (larq's ste_sign: sign(0) taken as 1) */
    }
}

static const float trig_c[4] = {0.5f, -2.0f, 0.0f, 100.0f};
static void ref_trig(const double *x, double *y)
{
    for (int j = 0; j < 4; j++) {
        double h, u;
        mm_hu(x, j, &h, &u);
        y[j] = h * sin(h);
        y[4 + j] = cos(u) + (double)sinf(trig_c[j]);
    }
}

/* A model whose one node `name` (op) reads an INT64 constant: refused, naming the node (the
 * functions ONNX defines on floating types only). */
static void refuse_integer_input(const char *op, const char *name)
{
    mb bi = {0};
    int64_t id[1] = {4};
    const int64_t iv[4] = {1, -2, 0, 3};
    char where[64];
    bi.in[bi.nin++] = vinfo("x", FLT, 1, id);
    bi.out[bi.nout++] = vinfo("y", FLT, 1, id);
    ADD_INIT(bi, tensor_i64("I", 1, id, iv, 1));
    ADD_NODE(bi, op, name, "I", "ji", NULL);
    ADD_NODE(bi, "Cast", "cf", "ji", "jf", attr_i("to", 1), NULL);
    ADD_NODE(bi, "Add", "ad", "x,jf", "y", NULL);
    snprintf(where, sizeof where, "node '%s' (%s)", name, op);
    load_fails(&bi, VFY_ERR_INVALID, where, "expected a float type");
}

/* Sin and Cos: SIN and COS layers on computed tensors (h read on both sides of the Sin: carried,
 * n_pass, then a product), folded on constants (float32 sinf), against a reference; an integer
 * Cos is refused by name. */
START_TEST(test_trig_op)
{
    mb b = {0};
    int64_t yd[2] = {1, 8}, cd[1] = {4};
    mm_model(&b, 1, 2, yd);
    ADD_INIT(b, tensor_f("C", 1, cd, trig_c, ENC_RAW));
    ADD_NODE(b, "MatMul", "m1", "x,W1", "h", NULL);
    ADD_NODE(b, "Sin", "s1", "h", "sh", NULL);
    ADD_NODE(b, "Mul", "hs", "h,sh", "p", NULL);
    ADD_NODE(b, "MatMul", "m2", "x,W2", "u", NULL);
    ADD_NODE(b, "Cos", "c1", "u", "cu", NULL);
    ADD_NODE(b, "Sin", "sc", "C", "c", NULL);
    ADD_NODE(b, "Add", "add", "cu,c", "q", NULL);
    ADD_NODE(b, "Concat", "cat", "p,q", "y", attr_i("axis", 1), NULL);
    vfy_net *net = load_ok(&b);
    int64_t n_sin = 0, n_cos = 0, n_pass = 0;
    for (int64_t k = 0; k < net->n_layers; k++) {
        n_sin += net->layers[k].kind == VFY_LAYER_SIN;
        n_cos += net->layers[k].kind == VFY_LAYER_COS;
        if (net->layers[k].kind == VFY_LAYER_SIN)
            n_pass += net->layers[k].n_pass;
    }
    ck_assert(n_sin == 1 && n_cos == 1 && n_pass > 0);
    check_against(net, ref_trig);
    vfy_net_free(net);
    refuse_integer_input("Cos", "ci");
}
END_TEST

static const float act_c[4] = {0.5f, -2.0f, 0.0f, 3.0f};
static double elu_ref(double v, double a) { return v > 0 ? v : a * (exp(v) - 1); }
static void ref_acts(const double *x, double *y)
{
    const double sa = (double)1.67326319217681884765625f, sg = (double)1.05070102214813232421875f;
    for (int j = 0; j < 4; j++) {
        double h, u;
        mm_hu(x, j, &h, &u);
        double a = (double)0.3f * h + (double)0.4f, hs = (double)(1.0f / 6.0f) * h + 0.5;
        y[j] = fmax(0, fmin(1, a));
        y[4 + j] = h * fmax(0, fmin(1, hs));
        y[8 + j] = elu_ref(h, (double)0.7f);
        y[12 + j] = sg * elu_ref(h, sa);
        y[16 + j] = fmax(0, h) + fmin(0, 1.5 * (exp(h / 1.5) - 1));
        y[20 + j] = h / (1 + fabs(h));
        y[24 + j] = h * tanh(log1p(exp(h)));
        y[28 + j] = h + u + (double)act_c[j];
        y[32 + j] = (h + u) / 2;
    }
}

/* HardSigmoid, HardSwish, Elu, Selu, Celu, Softsign, Mish, Sum and Mean: rewritten into the ops
 * they are functions of (expand_activation), against a reference; Celu with alpha <= 0 is refused
 * naming the node. */
static void acts_model(mb *bp)
{
    mb b = {0};
    int64_t yd[2] = {1, 36}, cd[1] = {4};
    mm_model(&b, 1, 2, yd);
    ADD_INIT(b, tensor_f("C", 1, cd, act_c, ENC_RAW));
    ADD_NODE(b, "MatMul", "m1", "x,W1", "h", NULL);
    ADD_NODE(b, "MatMul", "m2", "x,W2", "u", NULL);
    ADD_NODE(b, "HardSigmoid", "a1", "h", "y1", attr_f("alpha", 0.3f), attr_f("beta", 0.4f), NULL);
    ADD_NODE(b, "HardSwish", "a2", "h", "y2", NULL);
    ADD_NODE(b, "Elu", "a3", "h", "y3", attr_f("alpha", 0.7f), NULL);
    ADD_NODE(b, "Selu", "a4", "h", "y4", NULL);
    ADD_NODE(b, "Celu", "a5", "h", "y5", attr_f("alpha", 1.5f), NULL);
    ADD_NODE(b, "Softsign", "a6", "h", "y6", NULL);
    ADD_NODE(b, "Mish", "a7", "h", "y7", NULL);
    ADD_NODE(b, "Sum", "a8", "h,u,C", "y8", NULL);
    ADD_NODE(b, "Mean", "a9", "h,u", "y9", NULL);
    ADD_NODE(b, "Concat", "cat", "y1,y2,y3,y4,y5,y6,y7,y8,y9", "y", attr_i("axis", 1), NULL);
    *bp = b;
}

START_TEST(test_activation_rewrites)
{
    mb b;
    acts_model(&b);
    vfy_net *net = load_ok(&b);
    check_against(net, ref_acts);
    vfy_net_free(net);
    mb bc = {0};
    int64_t xd[2] = {1, 4};
    mm_model(&bc, 1, 2, xd);
    ADD_NODE(bc, "MatMul", "m1", "x,W1", "h", NULL);
    ADD_NODE(bc, "Celu", "celu0", "h", "y", attr_f("alpha", -1.0f), NULL);
    load_fails(&bc, VFY_ERR_UNSUPPORTED, "node 'celu0' (Celu)", "alpha -1");
}
END_TEST

/* ref_acts in long double (its functions' errors below 2^-60 relative) */
static long double elu_ld(long double v, long double a) { return v > 0 ? v : a * expm1l(v); }
static void ref_acts_ld(const double *x, long double *y)
{
    const long double sa = 1.67326319217681884765625L, sg = 1.05070102214813232421875L;
    for (int j = 0; j < 4; j++) {
        long double h, u;
        mm_hu_ld(x, j, &h, &u);
        long double a = (long double)0.3f * h + (long double)0.4f;
        long double hs = (long double)(1.0f / 6.0f) * h + 0.5L;
        y[j] = fmaxl(0, fminl(1, a));
        y[4 + j] = h * fmaxl(0, fminl(1, hs));
        y[8 + j] = elu_ld(h, (long double)0.7f);
        y[12 + j] = sg * elu_ld(h, sa);
        y[16 + j] = fmaxl(0, h) + fminl(0, 1.5L * expm1l(h / 1.5L));
        y[20 + j] = h / (1 + fabsl(h));
        y[24 + j] = h * tanhl(h > 0 ? h + log1pl(expl(-h)) : log1pl(expl(h)));
        y[28 + j] = h + u + (long double)act_c[j];
        y[32 + j] = (h + u) / 2;
    }
}

/* The lowered chain's own float32 execution (the same for both variants). */
static void acts_ref_f32(const float *x, float *y, int variant, const vfy_net *net)
{
    (void)variant;
    float *sf = malloc((size_t)(2 * vfy_net_max_width(net) + 64) * sizeof(float));
    ck_assert_ptr_nonnull(sf);
    vfy_eval_f32(net, x, y, sf);
    free(sf);
}

/* The rewritten activations inside their bounds (bounds_contain_ref: the long double reference,
 * and under the float claim the lowered chain's float32 outputs), on boxes of radius 0.05 and 1. */
START_TEST(test_activation_rewrites_sound)
{
    mb b;
    acts_model(&b);
    vfy_net *net = load_ok(&b);
    bounds_contain_ref(net, 36, 0.05, 1.0, ref_acts_ld, acts_ref_f32);
    vfy_net_free(net);
}
END_TEST

/* Erf and Gelu (both forms) on computed tensors, an Erf of a constant folded, against references:
 * the exact Gelu is a GELU layer (x Phi(x), 1/sqrt(2) exactly); the tanh form's constants are
 * float32's nearest 0.044715 and sqrt(2/pi), as the loader holds them for a FLOAT input
 * (expand_activation). */
static const float erf_c[4] = {0.5f, -2.0f, 0.0f, 3.0f};
static void gelu_model(mb *bp)
{
    mb b = {0};
    int64_t yd[2] = {1, 16}, cd[1] = {4};
    mm_model(&b, 1, 2, yd);
    ADD_INIT(b, tensor_f("C", 1, cd, erf_c, ENC_RAW));
    ADD_NODE(b, "MatMul", "m1", "x,W1", "h", NULL);
    ADD_NODE(b, "MatMul", "m2", "x,W2", "u", NULL);
    ADD_NODE(b, "Erf", "e1", "h", "y1", NULL);
    ADD_NODE(b, "Gelu", "g1", "h", "y2", NULL);
    ADD_NODE(b, "Gelu", "g2", "u", "y3", attr_s("approximate", "tanh"), NULL);
    ADD_NODE(b, "Erf", "ec", "C", "ce", NULL); /* constant: folded */
    ADD_NODE(b, "Add", "a4", "u,ce", "y4", NULL);
    ADD_NODE(b, "Concat", "cat", "y1,y2,y3,y4", "y", attr_i("axis", 1), NULL);
    *bp = b;
}

static void ref_gelu(const double *x, double *y)
{
    const double c = 0.70710678118654752440, d = (double)0.044715f,
                 e = (double)0.79788456080286535588f;
    for (int j = 0; j < 4; j++) {
        double h = 0, u = 0;
        for (int i = 0; i < 4; i++) {
            h += x[i] * mm_w1[i * 4 + j];
            u += x[i] * mm_w2[i * 4 + j];
        }
        y[j] = erf(h);
        y[4 + j] = 0.5 * h * erfc(-h * c);
        y[8 + j] = 0.5 * (u * (1 + tanh((u + u * u * u * d) * e)));
        y[12 + j] = u + (double)erff(erf_c[j]);
    }
}

static void ref_gelu_ld(const double *x, long double *y)
{
    const long double c = 0.70710678118654752440084436210484903928L, d = (long double)0.044715f,
                      e = (long double)0.79788456080286535588f;
    for (int j = 0; j < 4; j++) {
        long double h, u;
        mm_hu_ld(x, j, &h, &u);
        y[j] = erfl(h);
        y[4 + j] = 0.5L * h * erfcl(-h * c);
        y[8 + j] = 0.5L * (u * (1 + tanhl((u + u * u * u * d) * e)));
        y[12 + j] = u + (long double)erff(erf_c[j]);
    }
}

START_TEST(test_erf_gelu)
{
    mb b;
    gelu_model(&b);
    vfy_net *net = load_ok(&b);
    int n_erf = 0, n_gelu = 0;
    for (int64_t k = 0; k < net->n_layers; k++) {
        n_erf += net->layers[k].kind == VFY_LAYER_ERF;
        n_gelu += net->layers[k].kind == VFY_LAYER_GELU;
    }
    ck_assert_int_ge(n_erf, 1);
    ck_assert_int_eq(n_gelu, 1);
    check_against(net, ref_gelu);
    vfy_net_free(net);
    mb b2;
    gelu_model(&b2);
    net = load_ok(&b2);
    bounds_contain_ref(net, 16, 0.05, 1.0, ref_gelu_ld, acts_ref_f32);
    vfy_net_free(net);
    ck_assert(vfy_act_f32(VFY_LAYER_ERF, -30.0f) == -1.0f && vfy_act_f64(VFY_LAYER_ERF, 0) == 0);
    /* an unknown form is refused naming the node; an integer Erf too */
    mb bg = {0};
    int64_t xd[2] = {1, 4};
    mm_model(&bg, 1, 2, xd);
    ADD_NODE(bg, "MatMul", "m1", "x,W1", "h", NULL);
    ADD_NODE(bg, "Gelu", "gelu0", "h", "y", attr_s("approximate", "fast"), NULL);
    load_fails(&bg, VFY_ERR_UNSUPPORTED, "node 'gelu0' (Gelu)", "approximate 'fast'");
    refuse_integer_input("Erf", "ei");
}
END_TEST

/* The exact Gelu as PyTorch exports it before opset 20 (expand_gelu_export): x (1 + erf(x / d))
 * 0.5 with d float32's sqrt 2, in both orders of the halving, Div by d or Mul by r = float32's
 * 1/sqrt 2, becomes an ERFGATE layer between scalings; with 0.25 in place of 0.5 it is not that
 * function and stays an ERF layer and a product. Against a reference and inside the bounds of both
 * claims. */
static const float gx_d = 1.41421356237309504880f, gx_r = 0.70710678118654752440f;
static void gelu_export_model(mb *bp)
{
    mb b = {0};
    int64_t yd[2] = {1, 12}, one[1] = {1};
    const float fone = 1.0f, half = 0.5f, quarter = 0.25f;
    mm_model(&b, 1, 2, yd);
    ADD_INIT(b, tensor_f("D", 1, one, &gx_d, ENC_RAW));
    ADD_INIT(b, tensor_f("R", 1, one, &gx_r, ENC_RAW));
    ADD_INIT(b, tensor_f("ONE", 1, one, &fone, ENC_RAW));
    ADD_INIT(b, tensor_f("HALF", 1, one, &half, ENC_RAW));
    ADD_INIT(b, tensor_f("QUARTER", 1, one, &quarter, ENC_RAW));
    ADD_NODE(b, "MatMul", "m1", "x,W1", "h", NULL);
    ADD_NODE(b, "MatMul", "m2", "x,W2", "u", NULL);
    /* torch.nn.functional.gelu: Div, Erf, Add, Mul(x, .), Mul(., 0.5) */
    ADD_NODE(b, "Div", "d1", "h,D", "a1", NULL);
    ADD_NODE(b, "Erf", "e1", "a1", "b1", NULL);
    ADD_NODE(b, "Add", "p1", "b1,ONE", "c1", NULL);
    ADD_NODE(b, "Mul", "q1", "h,c1", "e1o", NULL);
    ADD_NODE(b, "Mul", "g1", "e1o,HALF", "y1", NULL);
    /* x * 0.5 * (1 + erf(x * r)) with every operand order swapped */
    ADD_NODE(b, "Mul", "h2", "HALF,u", "p2", NULL);
    ADD_NODE(b, "Mul", "d2", "R,u", "a2", NULL);
    ADD_NODE(b, "Erf", "e2", "a2", "b2", NULL);
    ADD_NODE(b, "Add", "p2a", "ONE,b2", "c2", NULL);
    ADD_NODE(b, "Mul", "g2", "c2,p2", "y2", NULL);
    /* not the pattern (0.25) */
    ADD_NODE(b, "Div", "d3", "h,D", "a3", NULL);
    ADD_NODE(b, "Erf", "e3", "a3", "b3", NULL);
    ADD_NODE(b, "Add", "p3", "b3,ONE", "c3", NULL);
    ADD_NODE(b, "Mul", "q3", "h,c3", "e3o", NULL);
    ADD_NODE(b, "Mul", "g3", "e3o,QUARTER", "y3", NULL);
    ADD_NODE(b, "Concat", "cat", "y1,y2,y3", "y", attr_i("axis", 1), NULL);
    *bp = b;
}

static void ref_gelu_export(const double *x, double *y)
{
    for (int j = 0; j < 4; j++) {
        double h, u;
        mm_hu(x, j, &h, &u);
        y[j] = 0.5 * h * (1 + erf(h / (double)gx_d));
        y[4 + j] = 0.5 * u * (1 + erf(u * (double)gx_r));
        y[8 + j] = 0.25 * h * (1 + erf(h / (double)gx_d));
    }
}

static void ref_gelu_export_ld(const double *x, long double *y)
{
    for (int j = 0; j < 4; j++) {
        long double h, u;
        mm_hu_ld(x, j, &h, &u);
        y[j] = 0.5L * h * erfcl(-h / (long double)gx_d);
        y[4 + j] = 0.5L * u * erfcl(-u * (long double)gx_r);
        y[8 + j] = 0.25L * h * erfcl(-h / (long double)gx_d);
    }
}

START_TEST(test_gelu_export)
{
    mb b;
    gelu_export_model(&b);
    vfy_net *net = load_ok(&b);
    int n_gate = 0, n_erf = 0, n_prod = 0;
    for (int64_t k = 0; k < net->n_layers; k++) {
        n_gate += net->layers[k].kind == VFY_LAYER_ERFGATE;
        n_erf += net->layers[k].kind == VFY_LAYER_ERF;
        n_prod += net->layers[k].kind == VFY_LAYER_PRODUCT;
    }
    ck_assert_int_ge(n_gate, 1);
    ck_assert_int_eq(n_erf, 1);  /* (the 0.25 one) */
    ck_assert_int_eq(n_prod, 1);
    check_against(net, ref_gelu_export);
    vfy_net_free(net);
    mb b2;
    gelu_export_model(&b2);
    net = load_ok(&b2);
    bounds_contain_ref(net, 12, 0.05, 1.0, ref_gelu_export_ld, acts_ref_f32);
    vfy_net_free(net);
}
END_TEST

/* SiLU: Swish (opset 24) with alpha 1 and Mul(x, Sigmoid(x)) in either order become SILU layers
 * (expand_swish), no products; alpha 1.5 is rewritten as x Sigmoid(1.5 x) (a product); against a
 * reference and inside the bounds of both claims. */
static void swish_model(mb *bp)
{
    mb b = {0};
    int64_t yd[2] = {1, 16};
    mm_model(&b, 1, 2, yd);
    ADD_NODE(b, "MatMul", "m1", "x,W1", "h", NULL);
    ADD_NODE(b, "MatMul", "m2", "x,W2", "u", NULL);
    ADD_NODE(b, "Swish", "sw1", "h", "y1", NULL);
    ADD_NODE(b, "Swish", "sw2", "u", "y2", attr_f("alpha", 1.5f), NULL);
    ADD_NODE(b, "Sigmoid", "sg1", "h", "sh", NULL);
    ADD_NODE(b, "Mul", "mu1", "h,sh", "y3", NULL);
    ADD_NODE(b, "Sigmoid", "sg2", "u", "su", NULL);
    ADD_NODE(b, "Mul", "mu2", "su,u", "y4", NULL);
    ADD_NODE(b, "Concat", "cat", "y1,y2,y3,y4", "y", attr_i("axis", 1), NULL);
    *bp = b;
}

static void ref_swish(const double *x, double *y)
{
    for (int j = 0; j < 4; j++) {
        double h, u;
        mm_hu(x, j, &h, &u);
        y[j] = h / (1 + exp(-h));
        y[4 + j] = u / (1 + exp(-1.5 * u));
        y[8 + j] = h / (1 + exp(-h));
        y[12 + j] = u / (1 + exp(-u));
    }
}

static void ref_swish_ld(const double *x, long double *y)
{
    for (int j = 0; j < 4; j++) {
        long double h, u;
        mm_hu_ld(x, j, &h, &u);
        y[j] = h / (1 + expl(-h));
        y[4 + j] = u / (1 + expl(-1.5L * u));
        y[8 + j] = h / (1 + expl(-h));
        y[12 + j] = u / (1 + expl(-u));
    }
}

START_TEST(test_swish)
{
    mb b;
    swish_model(&b);
    vfy_net *net = load_ok(&b);
    int n_silu = 0, n_prod = 0;
    for (int64_t k = 0; k < net->n_layers; k++) {
        n_silu += net->layers[k].kind == VFY_LAYER_SILU;
        n_prod += net->layers[k].kind == VFY_LAYER_PRODUCT;
    }
    ck_assert_int_ge(n_silu, 1);
    ck_assert_int_eq(n_prod, 1); /* (alpha 1.5 only) */
    check_against(net, ref_swish);
    vfy_net_free(net);
    mb b2;
    swish_model(&b2);
    net = load_ok(&b2);
    bounds_contain_ref(net, 16, 0.05, 1.0, ref_swish_ld, acts_ref_f32);
    vfy_net_free(net);
}
END_TEST

/* Comparisons, logic, Range, Floor, Ceil and Round of constants fold into BOOL and float masks;
 * Where with a constant condition selects between computed and constant tensors (expand_where):
 * against a reference and inside the bounds of both claims. A comparison of a computed tensor, a
 * computed condition and logic on floats are refused naming the node. */
static const float where_k[4] = {0.5f, -1.0f, 2.0f, 3.0f}, where_r[4] = {1.5f, -1.5f, 2.5f, 0.49f};
static void where_model(mb *bp, int raw)
{
    mb b = {0};
    int64_t yd[2] = {1, 24}, d1[1] = {1}, d4[1] = {4}, d14[2] = {1, 4};
    mm_model(&b, 1, 2, yd);
    const int64_t zero = 0, four = 4, one = 1, three = 3;
    const float two = 2.0f, fzero = 0.0f;
    const int bits[4] = {1, 0, 1, 0};
    ADD_INIT(b, tensor_i64("R0", 0, NULL, &zero, 1));
    ADD_INIT(b, tensor_i64("R4", 0, NULL, &four, 0));
    ADD_INIT(b, tensor_i64("R1", 0, NULL, &one, 1));
    ADD_INIT(b, tensor_i64("I3", 1, d1, &three, 1));
    ADD_INIT(b, tensor_f("C2", 1, d1, &two, ENC_RAW));
    ADD_INIT(b, tensor_f("C0", 1, d1, &fzero, ENC_RAW));
    ADD_INIT(b, tensor_f("K", 2, d14, where_k, ENC_RAW));
    ADD_INIT(b, tensor_f("Q", 1, d4, where_r, ENC_FLOAT));
    ADD_INIT(b, tensor_bool("B", 1, d4, bits, raw));
    ADD_NODE(b, "MatMul", "m1", "x,W1", "h", NULL);
    ADD_NODE(b, "MatMul", "m2", "x,W2", "u", NULL);
    ADD_NODE(b, "Range", "rg", "R0,R4,R1", "r", NULL);             /* 0 1 2 3 */
    ADD_NODE(b, "Cast", "rf", "r", "f", attr_i("to", 1), NULL);
    ADD_NODE(b, "Less", "lt", "f,C2", "l", NULL);                   /* T T F F */
    ADD_NODE(b, "Equal", "eq", "r,I3", "e", NULL);                  /* F F F T */
    ADD_NODE(b, "Or", "or", "l,e", "m", NULL);                      /* T T F T */
    ADD_NODE(b, "Not", "not", "m", "nm", NULL);                     /* F F T F */
    ADD_NODE(b, "GreaterOrEqual", "ge", "f,C2", "g", NULL);         /* F F T T */
    ADD_NODE(b, "Xor", "xor", "g,l", "all", NULL);                  /* T T T T */
    ADD_NODE(b, "LessOrEqual", "le", "f,C2", "le2", NULL);          /* T T T F */
    ADD_NODE(b, "Greater", "gt", "f,C0", "gt0", NULL);              /* F T T T */
    ADD_NODE(b, "And", "and", "le2,gt0", "mid", NULL);              /* F T T F */
    ADD_NODE(b, "Where", "w1", "m,h,u", "y1", NULL);                /* h0 h1 u2 h3 */
    ADD_NODE(b, "Where", "w2", "nm,h,K", "y2", NULL);               /* K0 K1 h2 K3 */
    ADD_NODE(b, "Floor", "fl", "Q", "qf", NULL);                    /* 1 -2 2 0 */
    ADD_NODE(b, "Where", "w3", "m,qf,u", "y3", NULL);               /* 1 -2 u2 0 */
    ADD_NODE(b, "Round", "rd", "Q", "qr", NULL);                    /* 2 -2 2 0 */
    ADD_NODE(b, "Ceil", "ce", "Q", "qc", NULL);                     /* 2 -1 3 1 */
    ADD_NODE(b, "Where", "w4", "mid,qr,qc", "q4", NULL);            /* 2 -2 2 1 */
    ADD_NODE(b, "Add", "a4", "u,q4", "y4", NULL);
    ADD_NODE(b, "Where", "w5", "all,h,u", "y5", NULL);              /* h */
    ADD_NODE(b, "Where", "w6", "B,u,h", "y6", NULL);                /* u0 h1 u2 h3 */
    ADD_NODE(b, "Concat", "cat", "y1,y2,y3,y4,y5,y6", "y", attr_i("axis", 1), NULL);
    *bp = b;
}

static const double where_q4[4] = {2, -2, 2, 1};
static void ref_where(const double *x, double *y)
{
    for (int j = 0; j < 4; j++) {
        double h, u;
        mm_hu(x, j, &h, &u);
        y[j] = j == 2 ? u : h;
        y[4 + j] = j == 2 ? h : (double)where_k[j];
        y[8 + j] = j == 2 ? u : floor((double)where_r[j]);
        y[12 + j] = u + where_q4[j];
        y[16 + j] = h;
        y[20 + j] = j % 2 ? h : u;
    }
}

static void ref_where_ld(const double *x, long double *y)
{
    for (int j = 0; j < 4; j++) {
        long double h, u;
        mm_hu_ld(x, j, &h, &u);
        y[j] = j == 2 ? u : h;
        y[4 + j] = j == 2 ? h : (long double)where_k[j];
        y[8 + j] = j == 2 ? u : floorl((long double)where_r[j]);
        y[12 + j] = u + where_q4[j];
        y[16 + j] = h;
        y[20 + j] = j % 2 ? h : u;
    }
}

START_TEST(test_logic_where)
{
    for (int raw = 0; raw < 2; raw++) {
        mb b;
        where_model(&b, raw);
        vfy_net *net = load_ok(&b);
        check_against(net, ref_where);
        vfy_net_free(net);
    }
    mb b2;
    where_model(&b2, 1);
    vfy_net *net = load_ok(&b2);
    bounds_contain_ref(net, 24, 0.05, 1.0, ref_where_ld, acts_ref_f32);
    vfy_net_free(net);
    /* refusals */
    int64_t xd[2] = {1, 4}, d1[1] = {1};
    const float two = 2.0f;
    mb bl = {0};
    mm_model(&bl, 1, 2, xd);
    ADD_INIT(bl, tensor_f("C2", 1, d1, &two, ENC_RAW));
    ADD_NODE(bl, "MatMul", "m1", "x,W1", "h", NULL);
    ADD_NODE(bl, "Less", "lt0", "h,C2", "l", NULL);
    ADD_NODE(bl, "Where", "w0", "l,h,C2", "y", NULL);
    load_fails(&bl, VFY_ERR_UNSUPPORTED, "node 'lt0' (Less)", "not a constant");
    mb ba = {0};
    mm_model(&ba, 1, 2, xd);
    ADD_INIT(ba, tensor_f("C2", 1, d1, &two, ENC_RAW));
    ADD_NODE(ba, "And", "and0", "C2,C2", "c", NULL);
    ADD_NODE(ba, "MatMul", "m1", "x,W1", "h", NULL);
    ADD_NODE(ba, "Add", "ad", "h,c", "y", NULL);
    load_fails(&ba, VFY_ERR_INVALID, "node 'and0' (And)", "expected BOOL");
}
END_TEST

/* Sign: a SIGN layer on a computed tensor (h read on both sides of it: carried, n_pass), folded
 * on constants (Sign(0) = 0), larq's sign(sign(u) + 0.1), against a reference and on points where
 * its input is exactly 0; an integer Sign is refused by name. */
START_TEST(test_sign_op)
{
    mb b = {0};
    int64_t yd[2] = {1, 12}, cd[1] = {4};
    mm_model(&b, 1, 2, yd);
    ADD_INIT(b, tensor_f("C", 1, cd, sign_c, ENC_RAW));
    const float two = 2.0f;
    int64_t one[1] = {1};
    ADD_INIT(b, tensor_f("T", 1, one, &two, ENC_RAW));
    ADD_NODE(b, "MatMul", "m1", "x,W1", "h", NULL);
    ADD_NODE(b, "Sign", "s1", "h", "sh", NULL);
    ADD_NODE(b, "Add", "res", "sh,h", "p", NULL);
    ADD_NODE(b, "Sign", "sc", "C", "c", NULL);
    ADD_NODE(b, "MatMul", "m2", "x,W2", "u", NULL);
    ADD_NODE(b, "Sub", "sub", "u,c", "v", NULL);
    ADD_NODE(b, "Sign", "s2", "v", "sv", NULL);
    ADD_NODE(b, "Mul", "dbl", "sv,T", "q", NULL);
    const float tenth = 0.1f;
    ADD_INIT(b, tensor_f("E", 1, one, &tenth, ENC_RAW));
    ADD_NODE(b, "Sign", "s3", "u", "su", NULL);
    ADD_NODE(b, "Add", "ste", "su,E", "sue", NULL);
    ADD_NODE(b, "Sign", "s4", "sue", "w", NULL);
    ADD_NODE(b, "Concat", "cat", "p,q,w", "y", attr_i("axis", 1), NULL);
    vfy_net *net = load_ok(&b);
    int64_t n_sign = 0, n_pass = 0;
    for (int64_t k = 0; k < net->n_layers; k++)
        if (net->layers[k].kind == VFY_LAYER_SIGN) {
            n_sign++;
            n_pass += net->layers[k].n_pass;
        }
    ck_assert(n_sign >= 1 && n_pass > 0);
    check_against(net, ref_sign);
    /* x = 0: h = 0 and u - c = -c, so the signs of 0 and of the folded constants show */
    double x[4] = {0, 0, 0, 0}, y[12], r[12];
    net_eval(net, x, y);
    ref_sign(x, r);
    for (int k = 0; k < 12; k++)
        REQUIRE_MSG(y[k] == r[k], "output %d at 0: net %g, reference %g", k, y[k], r[k]);
    vfy_net_free(net);
    refuse_integer_input("Sign", "si");
}
END_TEST

/* The largest x over the window's input positions (with dilation; padding never wins). */
static void ref_maxpool(const double *x, double *y)
{
    for (int64_t c = 0; c < cw.c; c++)
        for (int64_t oy = 0; oy < cw.oh; oy++)
            for (int64_t ox = 0; ox < cw.ow; ox++) {
                double m = -INFINITY;
                for (int64_t ky = 0; ky < cw.kh; ky++)
                    for (int64_t kx = 0; kx < cw.kw; kx++) {
                        int64_t iy = oy * cw.sh - cw.pt + ky * cw.dh;
                        int64_t ix = ox * cw.sw - cw.pl + kx * cw.dw;
                        if (iy >= 0 && iy < cw.h && ix >= 0 && ix < cw.w)
                            m = fmax(m, x[(c * cw.h + iy) * cw.w + ix]);
                    }
                y[(c * cw.oh + oy) * cw.ow + ox] = m;
            }
}

/* MaxPool: one MAXPOOL layer whose windows match the ONNX formulas (strides, pads, dilations,
 * auto_pad, ceil_mode, 1-D); the Indices output and windows of padding only are refused. */
START_TEST(test_maxpool)
{
    static const struct {
        win w;
        const char *auto_pad;
        int ceil_mode;
    } cases[] = {
        /*  c  h  w  m  g kh kw sh sw dh dw pt pl pb pr oh ow  bias cip rank */
        {{2, 8, 8, 0, 1, 4, 4, 4, 4, 1, 1, 0, 0, 0, 0, 2, 2, 0, 0, 4}, NULL, 0}, /* verivital's */
        {{2, 6, 6, 0, 1, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 3, 3, 0, 0, 4}, NULL, 0}, /* overlap, pads */
        {{1, 7, 7, 0, 1, 2, 2, 1, 1, 2, 2, 0, 0, 0, 0, 5, 5, 0, 0, 4}, NULL, 0}, /* dilation 2 */
        {{2, 5, 5, 0, 1, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0, 3, 3, 0, 0, 4}, NULL, 1}, /* ceil_mode */
        {{2, 6, 6, 0, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 6, 6, 0, 0, 4}, "SAME_UPPER", 0},
        {{3, 1, 9, 0, 1, 1, 4, 1, 2, 1, 1, 0, 1, 0, 2, 1, 5, 0, 0, 3}, NULL, 0}, /* 1-D */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        cw = cases[k].w;
        mb b;
        build_pool(&b, "MaxPool", cases[k].auto_pad, cases[k].ceil_mode);
        vfy_net *net = load_ok(&b);
        ck_assert_int_eq(net->n_layers, 1);
        const vfy_layer *L = &net->layers[0];
        ck_assert_int_eq(L->kind, VFY_LAYER_MAXPOOL);
        ck_assert_int_eq(L->n_out, cw.c * cw.oh * cw.ow);
        ck_assert_int_eq(L->pool_k, cw.kh * cw.kw);
        check_against(net, ref_maxpool);
        vfy_net_free(net);
    }
    /* the optional second output (Indices) is refused, not ignored */
    cw = cases[0].w;
    mb b;
    build_pool(&b, "MaxPool", NULL, 0);
    b.node[0]->output = split("y,idx", &b.node[0]->n_output);
    load_fails(&b, VFY_ERR_UNSUPPORTED, "node 'pool' (MaxPool)", "second output");
    /* a window of padding only */
    cw = (win){1, 2, 2, 0, 1, 2, 2, 3, 3, 1, 1, 0, 0, 3, 3, 2, 2, 0, 0, 4};
    build_pool(&b, "MaxPool", NULL, 0);
    load_fails(&b, VFY_ERR_UNSUPPORTED, "node 'pool' (MaxPool)", "only padding");
}
END_TEST

START_TEST(test_avgpool)
{
    static const struct {
        win w;
        const char *auto_pad;
        int ceil_mode;
        double relerr;
    } cases[] = {
        /*  c  h  w  m  g kh kw sh sw dh dw pt pl pb pr oh ow  bias cip rank */
        {{2, 6, 6, 0, 1, 3, 3, 3, 3, 1, 1, 0, 0, 0, 0, 2, 2, 0, 0, 4}, NULL, 0, 0x1p-53}, /* 1/9 */
        {{2, 6, 6, 0, 1, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0, 3, 3, 0, 0, 4}, NULL, 0, 0},       /* 1/4 */
        {{2, 6, 6, 0, 1, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 3, 3, 0, 0, 4}, NULL, 0, 0x1p-53},
        {{2, 6, 6, 0, 1, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 3, 3, 0, 1, 4}, NULL, 0, 0x1p-53},
        {{2, 5, 5, 0, 1, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0, 3, 3, 0, 0, 4}, NULL, 1, 0}, /* 4, 2, 1 */
        {{2, 6, 6, 0, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 6, 6, 0, 0, 4}, "SAME_UPPER", 0, 0x1p-53},
        {{3, 1, 9, 0, 1, 1, 4, 1, 2, 1, 1, 0, 1, 0, 2, 1, 5, 0, 1, 3}, NULL, 0, 0},       /* 1-D */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        cw = cases[k].w;
        mb b;
        build_pool(&b, "AveragePool", cases[k].auto_pad, cases[k].ceil_mode);
        vfy_net *net = load_ok(&b);
        ck_assert_int_eq(net->n_layers, 1);
        const vfy_layer *L = &net->layers[0];
        ck_assert_int_eq(L->kind, VFY_LAYER_DENSE);
        ck_assert_int_eq(L->n_out, cw.c * cw.oh * cw.ow);
        ck_assert_int_eq(L->fan_in, cw.kh * cw.kw);
        REQUIRE_MSG(L->w_relerr == cases[k].relerr, "case %zu: w_relerr %g", k, L->w_relerr);
        check_against(net, ref_avgpool);
        vfy_net_free(net);
    }
    /* GlobalAveragePool: 16 positions (exact 1/16), then 9 */
    for (int64_t side = 4; side >= 3; side--) {
        cw = (win){3, side, side, 0, 1, side, side, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 0, 0, 4};
        mb b;
        build_pool(&b, "GlobalAveragePool", NULL, 0);
        vfy_net *net = load_ok(&b);
        ck_assert_int_eq(net->n_layers, 1);
        ck_assert_int_eq(net->n_out, 3);
        ck_assert_int_eq(net->layers[0].fan_in, side * side);
        ck_assert(net->layers[0].w_relerr == (side == 4 ? 0 : 0x1p-53));
        check_against(net, ref_avgpool);
        vfy_net_free(net);
    }
    /* ceil_mode where runtimes disagree: refused, not guessed */
    cw = (win){2, 5, 5, 0, 1, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0, 3, 3, 0, 1, 4};
    mb b;
    build_pool(&b, "AveragePool", NULL, 1);
    load_fails(&b, VFY_ERR_UNSUPPORTED, "node 'pool' (AveragePool)", "count_include_pad");
    cw = (win){2, 4, 4, 0, 1, 2, 2, 2, 2, 1, 1, 0, 0, 1, 1, 3, 3, 0, 0, 4};
    build_pool(&b, "AveragePool", NULL, 1);
    load_fails(&b, VFY_ERR_UNSUPPORTED, "node 'pool' (AveragePool)", "ceil_mode");
}
END_TEST

static float BN_S[4], BN_B[4], BN_M[4], BN_V[4];
static float g_eps;
static int g_bn_after_conv;
static void ref_bn(const double *x, double *y)
{
    double h[256];
    int64_t c = 3, inner = 4;
    if (g_bn_after_conv) {
        ref_conv(x, h);
        c = cw.m;
        inner = cw.oh * cw.ow;
    } else {
        memcpy(h, x, 12 * sizeof *h);
    }
    for (int64_t k = 0; k < c * inner; k++) {
        int64_t ch = k / inner;
        y[k] = (double)BN_S[ch] * (h[k] - (double)BN_M[ch]) / sqrt((double)BN_V[ch] + g_eps) +
               (double)BN_B[ch];
    }
}

static void add_bn(mb *b, const char *in, const char *out, int64_t c, int eps_attr)
{
    int64_t cd[1] = {c};
    ADD_INIT(*b, tensor_f("bn_s", 1, cd, BN_S, ENC_RAW));
    ADD_INIT(*b, tensor_f("bn_b", 1, cd, BN_B, ENC_RAW));
    ADD_INIT(*b, tensor_f("bn_m", 1, cd, BN_M, ENC_FLOAT));
    ADD_INIT(*b, tensor_f("bn_v", 1, cd, BN_V, ENC_FLOAT));
    char *ins = t_alloc(strlen(in) + 32);
    sprintf(ins, "%s,bn_s,bn_b,bn_m,bn_v", in);
    Onnx__NodeProto *n = node("BatchNormalization", "bn", ins, out, NULL);
    if (eps_attr)
        node_attr(n, attr_f("epsilon", g_eps));
    node_attr(n, attr_f("momentum", 0.9f));
    b->node[b->nn++] = n;
}

START_TEST(test_batchnorm)
{
    int64_t xd[4] = {1, 3, 2, 2};
    /* generic parameters: the multiplier is rounded, w_relerr = 2^-50 */
    for (int c = 0; c < 3; c++) {
        BN_S[c] = (float)urand();
        BN_B[c] = (float)urand();
        BN_M[c] = (float)urand();
        BN_V[c] = (float)fabs(urand()) + 0.1f;
    }
    g_eps = 1e-5f;
    g_bn_after_conv = 0;
    mb b = {0};
    b.in[b.nin++] = vinfo("x", FLT, 4, xd);
    b.out[b.nout++] = vinfo("y", FLT, 4, xd);
    add_bn(&b, "x", "y", 3, 0);
    vfy_net *net = load_ok(&b);
    ck_assert_int_eq(net->n_layers, 2); /* (x - mean), then w (.) + B */
    const vfy_layer *L0 = &net->layers[0], *L1 = &net->layers[1];
    ck_assert(L0->kind == VFY_LAYER_SCALE && L1->kind == VFY_LAYER_SCALE);
    ck_assert(L0->w_relerr == 0 && L0->fan_in == 1 && L0->w[5] == 1 && L0->b[5] == -BN_M[1]);
    ck_assert(L1->w_relerr == 0x1p-50 && L1->fan_in == 4 && L1->b[11] == BN_B[2]);
    for (int k = 0; k < 12; k++) {
        long double wr = (long double)BN_S[k / 4] / sqrtl((long double)BN_V[k / 4] + g_eps);
        ck_assert(fabsl(wr - L1->w[k]) <= 0x1p-50L * fabsl((long double)L1->w[k]));
    }
    check_against(net, ref_bn);
    vfy_net_free(net);
    /* scale / sqrt(var + eps) = 2 / sqrt(3 + 1) = 1 exactly: no relative error */
    for (int c = 0; c < 3; c++) {
        BN_S[c] = 2;
        BN_V[c] = 3;
    }
    g_eps = 1;
    memset(&b, 0, sizeof b);
    b.in[b.nin++] = vinfo("x", FLT, 4, xd);
    b.out[b.nout++] = vinfo("y", FLT, 4, xd);
    add_bn(&b, "x", "y", 3, 1);
    net = load_ok(&b);
    ck_assert_int_eq(net->n_layers, 2);
    ck_assert(net->layers[1].w_relerr == 0 && net->layers[1].w[0] == 1);
    check_against(net, ref_bn);
    vfy_net_free(net);
    /* after a Conv: DENSE, then the two SCALE layers (the - mean is not folded into the Conv) */
    cw = (win){3, 5, 5, 4, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 5, 5, 1, 0, 4};
    for (int c = 0; c < 4; c++) {
        BN_S[c] = (float)urand();
        BN_B[c] = (float)urand();
        BN_M[c] = (float)urand();
        BN_V[c] = (float)fabs(urand()) + 0.5f;
    }
    g_eps = 1e-3f;
    g_bn_after_conv = 1;
    build_conv(&b, NULL, 0);
    b.node[0]->output[0] = (char *)"c";
    add_bn(&b, "c", "y", 4, 1);
    net = load_ok(&b);
    ck_assert_int_eq(net->n_layers, 3);
    ck_assert_int_eq(net->layers[0].kind, VFY_LAYER_DENSE);
    check_against(net, ref_bn);
    vfy_net_free(net);
    g_bn_after_conv = 0;
    /* training mode is refused */
    memset(&b, 0, sizeof b);
    b.in[b.nin++] = vinfo("x", FLT, 4, xd);
    b.out[b.nout++] = vinfo("y", FLT, 4, xd);
    add_bn(&b, "x", "y", 3, 1);
    node_attr(b.node[0], attr_i("training_mode", 1));
    load_fails(&b, VFY_ERR_UNSUPPORTED, "node 'bn' (BatchNormalization)", "training_mode");
}
END_TEST

/* Pad of x [1,2,3,3] with begins g_pb[], ends g_pe[] on axes 2, 3 and value g_pv. */
static int64_t g_pb[2], g_pe[2];
static float g_pv;
static void ref_pad(const double *x, double *y)
{
    int64_t oh = 3 + g_pb[0] + g_pe[0], ow = 3 + g_pb[1] + g_pe[1];
    for (int64_t c = 0; c < 2; c++)
        for (int64_t i = 0; i < oh; i++)
            for (int64_t j = 0; j < ow; j++) {
                int64_t si = i - g_pb[0], sj = j - g_pb[1];
                int in = si >= 0 && si < 3 && sj >= 0 && sj < 3;
                y[(c * oh + i) * ow + j] = in ? x[(c * 3 + si) * 3 + sj] : (double)g_pv;
            }
}

static void build_pad(mb *b, int as_input, const char *mode)
{
    memset(b, 0, sizeof *b);
    int64_t xd[4] = {1, 2, 3, 3}, yd[4] = {1, 2, 3 + g_pb[0] + g_pe[0], 3 + g_pb[1] + g_pe[1]};
    int64_t pads[8] = {0, 0, g_pb[0], g_pb[1], 0, 0, g_pe[0], g_pe[1]}, pd[1] = {8}, one[1] = {1};
    b->in[b->nin++] = vinfo("x", FLT, 4, xd);
    b->out[b->nout++] = vinfo("y", FLT, 4, yd);
    Onnx__NodeProto *n;
    if (as_input) {
        ADD_INIT(*b, tensor_i64("pads", 1, pd, pads, 1));
        ADD_INIT(*b, tensor_f("value", 0, one, &g_pv, ENC_RAW));
        n = node("Pad", "pad", "x,pads,value", "y", NULL);
    } else {
        n = node("Pad", "pad", "x", "y", attr_ints("pads", 8, pads), NULL);
        if (g_pv != 0)
            node_attr(n, attr_f("value", g_pv));
    }
    if (mode)
        node_attr(n, attr_s("mode", mode));
    b->node[b->nn++] = n;
}

START_TEST(test_pad)
{
    static const struct {
        int64_t b0, b1, e0, e1;
        float v;
        int as_input;
    } cases[] = {
        {1, 2, 2, 1, 0, 0},     /* opset 2 style: attributes */
        {1, 2, 2, 1, 0.5f, 1},  /* opset 11 style: inputs, nonzero value as bias */
        {-1, 1, 0, -1, 0, 1},   /* negative pads crop */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        g_pb[0] = cases[k].b0;
        g_pb[1] = cases[k].b1;
        g_pe[0] = cases[k].e0;
        g_pe[1] = cases[k].e1;
        g_pv = cases[k].v;
        mb b;
        build_pad(&b, cases[k].as_input, k == 0 ? "constant" : NULL);
        vfy_net *net = load_ok(&b);
        ck_assert_int_eq(net->n_layers, 1);
        ck_assert_int_eq(net->layers[0].kind, VFY_LAYER_DENSE);
        ck_assert_int_eq(net->layers[0].fan_in, 1);
        ck_assert(net->layers[0].w_relerr == 0);
        check_against(net, ref_pad);
        vfy_net_free(net);
    }
    /* nothing padded: no layer (a Relu after it keeps the net non-empty) */
    g_pb[0] = g_pb[1] = g_pe[0] = g_pe[1] = 0;
    g_pv = 0;
    mb b;
    build_pad(&b, 0, NULL);
    b.node[0]->output[0] = (char *)"p";
    ADD_NODE(b, "Relu", "relu", "p", "y", NULL);
    vfy_net *net = load_ok(&b);
    ck_assert_int_eq(net->n_layers, 1);
    ck_assert_int_eq(net->layers[0].kind, VFY_LAYER_RELU);
    vfy_net_free(net);
    /* a constant operand is padded by folding */
    build_pad(&b, 0, NULL);
    int64_t cd[4] = {1, 2, 3, 3}, yd[4] = {1, 2, 3, 3};
    float cv[18];
    for (int k = 0; k < 18; k++)
        cv[k] = (float)k;
    ADD_INIT(b, tensor_f("c", 4, cd, cv, ENC_RAW));
    b.node[0]->input[0] = (char *)"c";
    b.node[0]->output[0] = (char *)"pc";
    b.out[0] = vinfo("y", FLT, 4, yd);
    ADD_NODE(b, "Add", "add", "x,pc", "y", NULL);
    net = load_ok(&b);
    ck_assert_int_eq(net->n_layers, 1);
    ck_assert(net->layers[0].b[17] == 17);
    vfy_net_free(net);
    /* other modes are refused */
    g_pb[0] = 1;
    build_pad(&b, 0, "reflect");
    load_fails(&b, VFY_ERR_UNSUPPORTED, "node 'pad' (Pad)", "mode 'reflect'");
}
END_TEST

START_TEST(test_err_conv)
{
    /* an attribute MaxPool does not have: a clean error naming node, op and attribute */
    cw = (win){2, 4, 4, 0, 1, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0, 2, 2, 0, 0, 4};
    mb b;
    build_pool(&b, "AveragePool", NULL, 0);
    b.node[0]->op_type = (char *)"MaxPool";
    b.node[0]->name = (char *)"mp";
    load_fails(&b, VFY_ERR_UNSUPPORTED, "node 'mp' (MaxPool)", "attribute 'count_include_pad'");
    /* a lowered matrix above VFY_MAX_ELEMS nonzeros (32 x 600 x 600 outputs of 25 weights each):
     * refused before allocating */
    cw = (win){1, 600, 600, 32, 1, 5, 5, 1, 1, 1, 1, 2, 2, 2, 2, 600, 600, 1, 0, 4};
    build_conv(&b, NULL, 0);
    load_fails(&b, VFY_ERR_UNSUPPORTED, "node 'conv' (Conv)", "too large");
    /* inconsistent group */
    cw = (win){4, 5, 5, 3, 2, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 5, 5, 1, 0, 4};
    build_conv(&b, NULL, 0);
    load_fails(&b, VFY_ERR_INVALID, "node 'conv' (Conv)", "group");
    /* kernel_shape that contradicts the weights; pads together with auto_pad */
    cw = (win){4, 5, 5, 4, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 5, 5, 1, 0, 4};
    build_conv(&b, NULL, 0);
    node_attr(b.node[0], attr_ints("kernel_shape", 2, (int64_t[]){2, 2}));
    load_fails(&b, VFY_ERR_INVALID, "node 'conv' (Conv)", "kernel_shape");
    build_conv(&b, NULL, 0);
    node_attr(b.node[0], attr_s("auto_pad", "SAME_UPPER"));
    load_fails(&b, VFY_ERR_INVALID, "node 'conv' (Conv)", "auto_pad");
    /* computed weights */
    build_conv(&b, NULL, 0);
    b.node[0]->input[1] = (char *)"x";
    load_fails(&b, VFY_ERR_UNSUPPORTED, "node 'conv' (Conv)", "not a constant");
}
END_TEST

/* ---- errors ---- */

START_TEST(test_err_bytes)
{
    vfy_net *net = NULL;
    vfy_error e;
    ck_assert_int_eq(vfy_onnx_load_bytes((const uint8_t *)"", 0, "e.onnx", &net, &e), VFY_ERR_PARSE);
    ck_assert_str_eq(e.msg, "e.onnx: empty file");
    mb b;
    build_mm(&b, ENC_RAW, ENC_RAW, FLT, 1);
    size_t len;
    uint8_t *buf = mb_pack(&b, &len);
    for (size_t cut = 1; cut + 16 < len; cut += 7) { /* the tail is opset_import */
        vfy_status st = vfy_onnx_load_bytes(buf, cut, "t.onnx", &net, &e);
        ck_assert_int_ne(st, VFY_OK);
        ck_assert_ptr_null(net);
        ck_assert(st == VFY_ERR_PARSE || st == VFY_ERR_INVALID || st == VFY_ERR_UNSUPPORTED);
        ck_assert_ptr_nonnull(strstr(e.msg, "t.onnx: "));
    }
    ck_assert_int_eq(vfy_onnx_load_bytes(buf, len / 2, "t.onnx", &net, &e), VFY_ERR_PARSE);
    ck_assert_str_eq(e.msg, "t.onnx: not a valid ONNX protobuf");
    uint8_t rnd[512];
    for (int trial = 0; trial < 50; trial++) {
        for (size_t k = 0; k < sizeof rnd; k++)
            rnd[k] = (uint8_t)(urand() * 1000);
        vfy_status st = vfy_onnx_load_bytes(rnd, sizeof rnd, "r.onnx", &net, &e);
        ck_assert_int_ne(st, VFY_OK);
        ck_assert_ptr_null(net);
    }
    ck_assert_int_eq(vfy_onnx_load_bytes((const uint8_t *)"\xff\xff\xff", 3, "r.onnx", &net, &e),
                     VFY_ERR_PARSE);
    ck_assert_int_eq(vfy_onnx_load("/nonexistent/x.onnx", &net, &e), VFY_ERR_IO);
    ck_assert_ptr_nonnull(strstr(e.msg, "/nonexistent/x.onnx"));
}
END_TEST

/* Flip bytes of a valid model: never a crash, a leak, or a half-built net. */
START_TEST(test_err_mutations)
{
    mb b;
    build_mm(&b, ENC_RAW, ENC_FLOAT, FLT, 1);
    size_t len;
    uint8_t *buf = mb_pack(&b, &len);
    uint8_t *m = t_alloc(len);
    int ok = 0;
    for (int trial = 0; trial < 3000; trial++) {
        memcpy(m, buf, len);
        int flips = 1 + trial % 3;
        for (int f = 0; f < flips; f++)
            m[(size_t)((urand() + 2) / 4 * (double)len) % len] = (uint8_t)(urand() * 1000);
        vfy_net *net = NULL;
        vfy_error e;
        vfy_status st = vfy_onnx_load_bytes(m, len, "m.onnx", &net, &e);
        if (st == VFY_OK) {
            ok++;
            vfy_net_free(net);
        } else {
            ck_assert_ptr_null(net);
            REQUIRE(st != VFY_ERR_INTERNAL && st != VFY_ERR_NOMEM);
        }
    }
    ck_assert_int_gt(ok, 0);
}
END_TEST

START_TEST(test_err_unsupported_op)
{
    mb b = {0};
    int64_t xd[2] = {1, 3};
    b.in[b.nin++] = vinfo("x", FLT, 2, xd);
    b.out[b.nout++] = vinfo("y", FLT, 2, xd);
    ADD_NODE(b, "Relu", "r", "x", "h", NULL);
    ADD_NODE(b, "Hardmax", "hm_7", "h", "y", NULL);
    load_fails(&b, VFY_ERR_UNSUPPORTED, "node 'hm_7' (Hardmax): unsupported operator", NULL);
    /* without a name: the node's index */
    b.node[1]->name = NULL;
    load_fails(&b, VFY_ERR_UNSUPPORTED, "node '#1' (Hardmax): unsupported operator", NULL);
    /* an unknown attribute of a known op */
    b.node[1] = node("Relu", "r2", "h", "y", attr_i("bogus", 1), NULL);
    load_fails(&b, VFY_ERR_UNSUPPORTED, "'r2' (Relu)", "bogus");
    /* a foreign domain */
    b.node[1] = node("Relu", "r3", "h", "y", NULL);
    b.node[1]->domain = (char *)"com.microsoft";
    load_fails(&b, VFY_ERR_UNSUPPORTED, "'r3' (Relu)", "com.microsoft");
    /* an unsupported data type */
    mb c = {0};
    int64_t d1[1] = {3};
    c.in[c.nin++] = vinfo("x", FLT, 1, d1);
    c.out[c.nout++] = vinfo("y", FLT, 1, d1);
    Onnx__TensorProto *t = tensor_f("half", 1, d1, W32, ENC_FLOAT);
    t->data_type = 10;
    ADD_INIT(c, t);
    ADD_NODE(c, "Add", "a", "x,half", "y", NULL);
    load_fails(&c, VFY_ERR_UNSUPPORTED, "tensor 'half'", "FLOAT16");
    /* a computed tensor divides a constant: supported now (c times Reciprocal(x)) */
    mb d = {0};
    d.in[d.nin++] = vinfo("x", FLT, 1, d1);
    d.out[d.nout++] = vinfo("y", FLT, 1, d1);
    ADD_INIT(d, tensor_f("c", 1, d1, W32, ENC_FLOAT));
    ADD_NODE(d, "Div", "dv", "c,x", "y", NULL);
    vfy_net *dn = load_ok(&d);
    vfy_net_free(dn);
    /* a supported op that is only understood on constants */
    d.node[0] = node("Gather", "ga", "c,x", "y", NULL);
    load_fails(&d, VFY_ERR_UNSUPPORTED, "node 'ga' (Gather)", "not a constant");
    /* Gemm whose C is the computed tensor */
    mb f = {0};
    int64_t ad[2] = {1, 3}, bd[2] = {3, 1}, yd[2] = {1, 1};
    f.in[f.nin++] = vinfo("x", FLT, 2, yd);
    f.out[f.nout++] = vinfo("y", FLT, 2, yd);
    ADD_INIT(f, tensor_f("A", 2, ad, W32, ENC_FLOAT));
    ADD_INIT(f, tensor_f("B", 2, bd, W32, ENC_FLOAT));
    ADD_NODE(f, "Gemm", "gc", "A,B,x", "y", NULL);
    load_fails(&f, VFY_ERR_UNSUPPORTED, "node 'gc' (Gemm)", "computed C");
}
END_TEST

START_TEST(test_err_graph)
{
    int64_t xd[1] = {3};
    /* two graph inputs of different element types */
    mb b = {0};
    b.in[b.nin++] = vinfo("x", FLT, 1, xd);
    b.in[b.nin++] = vinfo("x2", ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE, 1, xd);
    b.out[b.nout++] = vinfo("y", FLT, 1, xd);
    ADD_NODE(b, "Relu", "r", "x", "y", NULL);
    load_fails(&b, VFY_ERR_UNSUPPORTED, "inputs 'x' and 'x2' have different data types",
               "FLOAT and DOUBLE");
    /* no input */
    b.nin = 0;
    load_fails(&b, VFY_ERR_UNSUPPORTED, "no input besides initializers", NULL);
    /* an output listed twice */
    b.nin = 1;
    b.out[b.nout++] = vinfo("y", FLT, 1, xd);
    load_fails(&b, VFY_ERR_UNSUPPORTED, "graph output 'y' is listed twice", NULL);
    /* a missing initializer */
    mb c = {0};
    c.in[c.nin++] = vinfo("x", FLT, 1, xd);
    c.out[c.nout++] = vinfo("y", FLT, 1, xd);
    ADD_NODE(c, "Add", "add", "x,bias", "y", NULL);
    load_fails(&c, VFY_ERR_INVALID, "node 'add' (Add)", "'bias' is not defined");
    /* an initializer without data */
    ADD_INIT(c, tensor_f("bias", 1, xd, NULL, ENC_NONE));
    load_fails(&c, VFY_ERR_INVALID, "tensor 'bias' has no data", NULL);
    /* raw data of the wrong size */
    c.init[0] = tensor_f("bias", 1, xd, W32, ENC_RAW);
    c.init[0]->raw_data.len -= 4;
    load_fails(&c, VFY_ERR_INVALID, "tensor 'bias'", "raw data");
    /* a negative dim */
    c.init[0] = tensor_f("bias", 1, (int64_t[]){-3}, W32, ENC_NONE);
    load_fails(&c, VFY_ERR_INVALID, "tensor 'bias'", "negative");
    /* dims whose product overflows */
    c.init[0] = tensor_f("bias", 3, (int64_t[]){1ll << 40, 1ll << 40, 1ll << 40}, W32, ENC_NONE);
    load_fails(&c, VFY_ERR_UNSUPPORTED, "tensor 'bias'", "too large");
    /* PRelu with a computed slope (products and quotients of two computed tensors are
     * supported: test_matmul_computed, test_div_computed) */
    mb d = {0};
    d.in[d.nin++] = vinfo("x", FLT, 1, xd);
    d.out[d.nout++] = vinfo("y", FLT, 1, xd);
    ADD_NODE(d, "Relu", "r", "x", "h", NULL);
    ADD_NODE(d, "PRelu", "dq", "x,h", "y", NULL);
    load_fails(&d, VFY_ERR_UNSUPPORTED, "node 'dq' (PRelu)", "two computed tensors");
    /* a cycle */
    mb e = {0};
    e.in[e.nin++] = vinfo("x", FLT, 1, xd);
    e.out[e.nout++] = vinfo("y", FLT, 1, xd);
    ADD_NODE(e, "Add", "a", "x,q", "p", NULL);
    ADD_NODE(e, "Relu", "b", "p", "q", NULL);
    ADD_NODE(e, "Relu", "c", "q", "y", NULL);
    load_fails(&e, VFY_ERR_INVALID, "cycle", NULL);
    /* an output nobody produces, also as the second of two */
    mb f = {0};
    f.in[f.nin++] = vinfo("x", FLT, 1, xd);
    f.out[f.nout++] = vinfo("nothing", FLT, 1, xd);
    ADD_NODE(f, "Relu", "r", "x", "y", NULL);
    load_fails(&f, VFY_ERR_INVALID, "'nothing'", NULL);
    f.out[0] = vinfo("y", FLT, 1, xd);
    f.out[f.nout++] = vinfo("nothing", FLT, 1, xd);
    load_fails(&f, VFY_ERR_INVALID, "graph output 'nothing' is not produced", NULL);
    /* a bad reshape */
    mb g = {0};
    int64_t sv[2] = {2, 2}, sd[1] = {2};
    g.in[g.nin++] = vinfo("x", FLT, 1, xd);
    g.out[g.nout++] = vinfo("y", FLT, 2, sv);
    ADD_INIT(g, tensor_i64("s", 1, sd, sv, 0));
    ADD_NODE(g, "Reshape", "rs", "x,s", "y", NULL);
    load_fails(&g, VFY_ERR_INVALID, "node 'rs' (Reshape)", "reshape 3 elements");
    /* an output that does not depend on the input */
    mb h = {0};
    h.in[h.nin++] = vinfo("x", FLT, 1, xd);
    h.out[h.nout++] = vinfo("y", FLT, 1, xd);
    ADD_INIT(h, tensor_f("c", 1, xd, W32, ENC_RAW));
    ADD_NODE(h, "Relu", "r", "c", "y", NULL);
    load_fails(&h, VFY_ERR_UNSUPPORTED, "does not depend", NULL);
}
END_TEST

/* Load buf failing the n-th allocation for n = 0, 1, ... until loading succeeds: every failure must
 * be a clean VFY_ERR_NOMEM with no half-built net (leaks show under ASan). n_layers >= 0: the
 * layer count of the loaded net. */
static void fail_every_allocation(const uint8_t *buf, size_t len, int64_t n_layers)
{
    vfy_status st = VFY_ERR_NOMEM;
    long n;
    for (n = 0; n < 100000 && st != VFY_OK; n++) {
        vfy_net *net = NULL;
        vfy_error e;
        vfy_alloc_fail_after(n);
        st = vfy_onnx_load_bytes(buf, len, "nomem.onnx", &net, &e);
        vfy_alloc_fail_after(-1);
        REQUIRE_MSG(st == VFY_OK || st == VFY_ERR_NOMEM, "n=%ld: %s", n, e.msg);
        ck_assert(st == VFY_OK ? net != NULL : net == NULL);
        if (net && n_layers >= 0)
            ck_assert_int_eq(net->n_layers, n_layers);
        vfy_net_free(net);
    }
    ck_assert_int_eq(st, VFY_OK);
    ck_assert_int_gt(n, 20);
}

/* Fail every allocation in turn: NOMEM (or OK once enough succeed), no leak (ASan build). */
START_TEST(test_nomem)
{
    mb b = {0};
    int64_t xd[3] = {-1, 2, 3}, one[1] = {1}, wd[2] = {6, 2}, yd[2] = {1, 2};
    int64_t m1 = -1;
    int32_t idx32 = 0;
    float three = 3.0f;
    b.in[b.nin++] = vinfo("x", FLT, 3, xd);
    b.out[b.nout++] = vinfo("y", FLT, 2, yd);
    ADD_INIT(b, tensor_f("W", 2, wd, W62, ENC_RAW));
    ADD_INIT(b, tensor_i64("minus1", 1, one, &m1, 1));
    ADD_INIT(b, tensor_i32("i0", 1, one, &idx32));
    ADD_NODE(b, "Shape", "shape", "x", "s", NULL);
    ADD_NODE(b, "Gather", "gather", "s,i0", "n1", NULL);
    ADD_NODE(b, "Concat", "concat", "n1,minus1", "ns", attr_i("axis", 0), NULL);
    ADD_NODE(b, "Constant", "c3", "", "three", attr_f("value_float", three), NULL);
    ADD_NODE(b, "Div", "div", "x,three", "xd", NULL);
    ADD_NODE(b, "Reshape", "reshape", "xd,ns", "xf", NULL);
    ADD_NODE(b, "Gemm", "gemm", "xf,W", "h", attr_f("alpha", 0.1f), NULL);
    ADD_NODE(b, "Relu", "relu", "h", "y", NULL);
    size_t len;
    uint8_t *buf = mb_pack(&b, &len);
    fail_every_allocation(buf, len, -1);
}
END_TEST

/* The same for the convolutional ops: Pad -> Conv -> BatchNormalization -> Relu -> AveragePool ->
 * GlobalAveragePool. */
START_TEST(test_nomem_conv)
{
    cw = (win){2, 4, 4, 3, 1, 3, 3, 1, 1, 1, 1, 0, 0, 0, 0, 4, 4, 1, 0, 4};
    mb b;
    build_conv(&b, NULL, 0);
    int64_t xd[4] = {1, 2, 2, 3}, pads[8] = {0, 0, 1, 0, 0, 0, 1, 1}, pd[1] = {8};
    int64_t yd[4] = {1, 3, 1, 1}, k2[2] = {2, 2};
    for (int c = 0; c < 3; c++) {
        BN_S[c] = (float)urand();
        BN_B[c] = (float)urand();
        BN_M[c] = (float)urand();
        BN_V[c] = (float)fabs(urand()) + 0.1f;
    }
    b.in[0] = vinfo("x", FLT, 4, xd);
    b.out[0] = vinfo("y", FLT, 4, yd);
    ADD_INIT(b, tensor_i64("pads", 1, pd, pads, 0));
    b.node[0]->input[0] = (char *)"xp";
    b.node[0]->output[0] = (char *)"c";
    b.node[1] = b.node[0];
    b.node[0] = node("Pad", "pad", "x,pads", "xp", NULL);
    b.nn = 2;
    add_bn(&b, "c", "n", 3, 1);
    ADD_NODE(b, "Relu", "relu", "n", "r", NULL);
    ADD_NODE(b, "AveragePool", "avg", "r", "a", attr_ints("kernel_shape", 2, k2),
             attr_ints("strides", 2, k2), NULL);
    ADD_NODE(b, "GlobalAveragePool", "gap", "a", "y", NULL);
    size_t len;
    uint8_t *buf = mb_pack(&b, &len);
    /* pad, conv, bn (2), relu, avg; the gap, an average of one element, is a selection, folded
     * into the avg */
    fail_every_allocation(buf, len, 6);
}
END_TEST

/* ---- the shared benchmarks, when present (../shared/benchmarks from the repo root) ---- */

static const char *bench_root(void)
{
    static const char *const roots[] = {"../shared/benchmarks", "../../shared/benchmarks"};
    struct stat sb;
    for (size_t k = 0; k < sizeof roots / sizeof roots[0]; k++)
        if (stat(roots[k], &sb) == 0 && S_ISDIR(sb.st_mode))
            return roots[k];
    return NULL;
}

/* Load every .onnx in root/dir/onnx; must_load: expect OK with these sizes, else OK or a clean
 * unsupported-operator error. Returns the number of files. */
static int load_dir(const char *root, const char *dir, int must_load, int64_t n_in, int64_t n_out)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/onnx", root, dir);
    DIR *d = opendir(path);
    if (!d)
        return 0;
    int count = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        size_t l = strlen(de->d_name);
        if (l < 5 || strcmp(de->d_name + l - 5, ".onnx") != 0)
            continue;
        char file[1400];
        snprintf(file, sizeof file, "%s/%s", path, de->d_name);
        vfy_net *net = NULL;
        vfy_error e;
        vfy_status st = vfy_onnx_load(file, &net, &e);
        count++;
        if (must_load) {
            REQUIRE_MSG(st == VFY_OK, "%s: %s", file, e.msg);
            if (n_in > 0) {
                ck_assert_int_eq(net->n_in, n_in);
                ck_assert_int_eq(net->n_out, n_out);
            }
            ck_assert_int_gt(net->n_layers, 0);
        } else {
            REQUIRE_MSG(st == VFY_OK || (st == VFY_ERR_UNSUPPORTED &&
                                         strstr(e.msg, "unsupported operator")),
                        "%s: %s", file, e.msg);
            if (st != VFY_OK)
                ck_assert_ptr_nonnull(strstr(e.msg, file));
        }
        vfy_net_free(net);
    }
    closedir(d);
    return count;
}

/* The first spec that root/dir/instances.csv pairs with onnx/file, into path; 0 when none. */
static int bench_spec(const char *root, const char *dir, const char *file, char *path, size_t size)
{
    char csv[1024], line[2048], want[512];
    snprintf(csv, sizeof csv, "%s/%s/instances.csv", root, dir);
    snprintf(want, sizeof want, "onnx/%s,", file);
    FILE *f = fopen(csv, "r");
    if (!f)
        return 0;
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        if (strncmp(line, want, strlen(want)) != 0)
            continue;
        char *spec = line + strlen(want), *comma = strchr(spec, ',');
        if (comma)
            *comma = 0;
        snprintf(path, size, "%s/%s/%s", root, dir, spec);
        found = 1;
    }
    fclose(f);
    return found;
}

/* root/dir/onnx/file must load with these sizes; at the centre of its first spec's first box the
 * outputs are finite, the same on a second pass, and largest at the label that every row of the
 * robustness property compares against (the benchmarks' images are classified correctly). */
static void bench_model(const char *root, const char *dir, const char *file, int64_t n_in,
                        int64_t n_out, int64_t min_layers)
{
    char path[1024], spath[1024];
    snprintf(path, sizeof path, "%s/%s/onnx/%s", root, dir, file);
    vfy_net *net = NULL;
    vfy_error e;
    vfy_status st = vfy_onnx_load(path, &net, &e);
    REQUIRE_MSG(st == VFY_OK, "%s: %s", path, e.msg);
    ck_assert_int_eq(net->n_in, n_in);
    ck_assert_int_eq(net->n_out, n_out);
    ck_assert_int_ge(net->n_layers, min_layers);
    REQUIRE_MSG(bench_spec(root, dir, file, spath, sizeof spath), "%s: no instance", path);
    vfy_spec *spec = NULL;
    st = vfy_spec_load(spath, &spec, &e);
    REQUIRE_MSG(st == VFY_OK, "%s: %s", spath, e.msg);
    ck_assert_int_eq(spec->n_x, n_in);
    ck_assert_int_eq(spec->n_y, n_out);
    double *x = calloc((size_t)n_in, sizeof *x), *y = calloc((size_t)n_out, sizeof *y);
    double *y2 = calloc((size_t)n_out, sizeof *y2);
    int64_t *uses = calloc((size_t)n_out, sizeof *uses), n_rows = 0;
    ck_assert(x && y && y2 && uses);
    const vfy_box *bx = &spec->boxes[spec->cases[0].box];
    for (int64_t k = 0; k < n_in; k++)
        x[k] = 0.5 * (bx->lo[k] + bx->hi[k]);
    net_eval(net, x, y);
    net_eval(net, x, y2);
    int64_t arg = 0;
    for (int64_t k = 0; k < n_out; k++) {
        REQUIRE_MSG(isfinite(y[k]), "%s: output %lld is %g", path, (long long)k, y[k]);
        REQUIRE_MSG(memcmp(&y[k], &y2[k], sizeof y[k]) == 0, "%s: not deterministic", path);
        if (y[k] > y[arg])
            arg = k;
    }
    for (int64_t c = 0; c < spec->n_cases; c++)
        for (int64_t r = 0; r < spec->cases[c].n_rows; r++, n_rows++)
            for (int64_t k = 0; k < n_out; k++)
                uses[k] += spec->cases[c].rows[r].cy[k] != 0;
    int64_t label = -1;
    for (int64_t k = 0; k < n_out; k++)
        if (n_rows > 1 && uses[k] == n_rows)
            label = k;
    REQUIRE_MSG(label >= 0, "%s: not a robustness property", spath);
    REQUIRE_MSG(arg == label, "%s at the centre of %s: class %lld, label %lld", path, spath,
                (long long)arg, (long long)label);
    free(x);
    free(y);
    free(y2);
    free(uses);
    vfy_spec_free(spec);
    vfy_net_free(net);
}

START_TEST(test_benchmarks)
{
    const char *root = bench_root();
    if (!root) {
        fprintf(stderr, "check_onnx: ../shared/benchmarks not found; benchmark loading skipped\n");
        return;
    }
    int n = load_dir(root, "test", 1, 0, 0);
    n += load_dir(root, "acasxu", 1, 5, 5);
    n += load_dir(root, "mnist_fc", 1, 784, 10);
    n += load_dir(root, "eran", 1, 784, 10);
    n += load_dir(root, "oval21", 1, 3072, 10);
    n += load_dir(root, "verivital", 0, 0, 0);
    ck_assert_int_gt(n, 0);
    struct stat sb;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/oval21/onnx", root);
    if (stat(dir, &sb) == 0) {
        bench_model(root, "oval21", "cifar_base_kw.onnx", 3072, 10, 7);
        bench_model(root, "oval21", "cifar_wide_kw.onnx", 3072, 10, 7);
        bench_model(root, "oval21", "cifar_deep_kw.onnx", 3072, 10, 11);
    }
    snprintf(dir, sizeof dir, "%s/verivital/onnx", root);
    if (stat(dir, &sb) == 0) {
        bench_model(root, "verivital", "Convnet_avgpool.onnx", 784, 10, 4);
        bench_model(root, "verivital", "Convnet_maxpool.onnx", 784, 10, 4);
    }
    snprintf(dir, sizeof dir, "%s/eran/onnx", root);
    if (stat(dir, &sb) == 0) {
        bench_model(root, "eran", "ffnnSIGMOID__Point_6x200.onnx", 784, 10, 14);
        bench_model(root, "eran", "mnist_relu_9_200.onnx", 784, 10, 18);
    }
}
END_TEST

/* The graph API on its own: sort and infer without the ONNX front end. */
START_TEST(test_graph_api)
{
    ck_assert_int_eq(vfy_op_from_name("Gemm"), VFY_OP_GEMM);
    ck_assert_int_eq(vfy_op_from_name("Conv"), VFY_OP_CONV);
    ck_assert_int_eq(vfy_op_from_name("MaxPool"), VFY_OP_MAX_POOL);
    ck_assert_int_eq(vfy_op_from_name("LpPool"), VFY_OP_OTHER);
    ck_assert_str_eq(vfy_op_name(VFY_OP_RELU), "Relu");
    for (int k = 1; k < VFY_OP_COUNT; k++)
        ck_assert_int_eq(vfy_op_from_name(vfy_op_name((vfy_op)k)), k);
    vfy_graph *g = vfy_graph_new("api");
    ck_assert_ptr_nonnull(g);
    vfy_error e;
    int64_t x, h, y, n1, n2;
    ck_assert_int_eq(vfy_graph_add_value(g, "x", &x, &e), VFY_OK);
    ck_assert_int_eq(vfy_graph_add_value(g, "h", &h, &e), VFY_OK);
    ck_assert_int_eq(vfy_graph_add_value(g, "y", &y, &e), VFY_OK);
    ck_assert_int_eq(vfy_graph_add_value(g, "y", &n1, &e), VFY_ERR_INVALID);
    g->values[x].t.rank = 1;
    g->values[x].t.shape[0] = 4;
    g->values[x].t.numel = 4;
    g->values[x].is_shaped = 1;
    /* out of order: Neg(h) -> y listed before Relu(x) -> h */
    ck_assert_int_eq(vfy_graph_add_node(g, "neg", "Neg", 1, 1, 0, &n1, &e), VFY_OK);
    g->nodes[n1].in[0] = h;
    g->nodes[n1].out[0] = y;
    g->values[y].producer = n1;
    ck_assert_int_eq(vfy_graph_add_node(g, NULL, "Relu", 1, 1, 0, &n2, &e), VFY_OK);
    ck_assert_str_eq(g->nodes[n2].name, "#1");
    g->nodes[n2].in[0] = x;
    g->nodes[n2].out[0] = h;
    g->values[h].producer = n2;
    g->input = x;
    g->output = y;
    ck_assert_int_eq(vfy_graph_sort(g, &e), VFY_OK);
    ck_assert_int_eq(g->nodes[0].op, VFY_OP_RELU);
    ck_assert_int_eq(vfy_graph_infer(g, &e), VFY_OK);
    ck_assert_int_eq(g->values[y].t.numel, 4);
    vfy_net *net = NULL;
    /* a deadline passed: the lowering stops at its first node, naming it */
    vfy_deadline dl = {vfy_now() - 1.0, 0};
    vfy_lower_limits lim = {&dl, 0};
    ck_assert_int_eq(vfy_graph_lower_limited(g, &lim, &net, &e), VFY_ERR_TIMEOUT);
    ck_assert_ptr_null(net);
    REQUIRE_MSG(strstr(e.msg, "node '#1' (Relu): the deadline passed while the model was being "
                       "lowered"), "%s", e.msg);
    ck_assert_int_eq(vfy_graph_lower(g, &net, &e), VFY_OK);
    ck_assert_int_eq(net->n_layers, 2);
    ck_assert_int_eq(net->layers[1].kind, VFY_LAYER_SCALE);
    ck_assert(net->layers[1].w[0] == -1);
    vfy_net_free(net);
    vfy_graph_free(g);
    vfy_graph_free(NULL);
}
END_TEST

static Suite *onnx_suite(void)
{
    Suite *s = suite_create("onnx");
    TCase *tc = tcase_create("load");
    tcase_add_checked_fixture(tc, setup, arena_free);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_encodings);
    tcase_add_test(tc, test_gemm);
    tcase_add_test(tc, test_gemm_computed_b);
    tcase_add_test(tc, test_matmul_batched);
    tcase_add_test(tc, test_matmul_const_left);
    tcase_add_test(tc, test_normalise);
    tcase_add_test(tc, test_add_inexact_not_folded);
    tcase_add_test(tc, test_fold_cancelling_bias);
    tcase_add_test(tc, test_shape_folding);
    tcase_add_test(tc, test_flatten_squeeze);
    tcase_add_test(tc, test_transpose);
    tcase_add_test(tc, test_constants);
    tcase_add_test(tc, test_relu_chain);
    tcase_add_test(tc, test_residual);
    tcase_add_test(tc, test_multi_io);
    tcase_add_test(tc, test_hidden_values);
    tcase_add_test(tc, test_selections_sparse);
    tcase_add_test(tc, test_residual_errors);
    tcase_add_test(tc, test_residual_conv_sparse);
    tcase_add_test(tc, test_select_computed);
    tcase_add_test(tc, test_expand_tile);
    tcase_add_test(tc, test_split);
    tcase_add_test(tc, test_max_min_computed);
    tcase_add_test(tc, test_max_min_many);
    tcase_add_test(tc, test_matmul_computed);
    tcase_add_test(tc, test_mul_computed);
    tcase_add_test(tc, test_carry_past_sigmoid);
    tcase_add_test(tc, test_sign_op);
    tcase_add_test(tc, test_trig_op);
    tcase_add_test(tc, test_activation_rewrites);
    tcase_add_test(tc, test_erf_gelu);
    tcase_add_test(tc, test_logic_where);
    tcase_add_test(tc, test_swish);
    tcase_add_test(tc, test_gelu_export);
    tcase_add_test(tc, test_activation_rewrites_sound);
    tcase_add_test(tc, test_attention_block);
    tcase_add_test(tc, test_convex_ops);
    tcase_add_test(tc, test_div_computed);
    tcase_add_test(tc, test_layernorm);
    tcase_add_test(tc, test_div_by_zero_unknown);
    tcase_add_loop_test(tc, test_convex_net_sound, 0, 4);
    tcase_add_test(tc, test_relu_twice_carried);
    tcase_add_test(tc, test_reduce);
    tcase_add_test(tc, test_reduce_max_min);
    tcase_add_test(tc, test_dropout);
    tcase_add_loop_test(tc, test_random_dags, 0, 20);
    tcase_add_loop_test(tc, test_random_dags_mul, 0, 30);
    tcase_add_test(tc, test_sigmoid_tanh);
    tcase_add_test(tc, test_softmax_output);
    tcase_add_test(tc, test_graph_api);
    tcase_add_test(tc, test_conv);
    tcase_add_test(tc, test_conv_flatten_gemm);
    tcase_add_test(tc, test_conv_transpose);
    tcase_add_test(tc, test_resize);
    tcase_add_test(tc, test_avgpool);
    tcase_add_test(tc, test_maxpool);
    tcase_add_test(tc, test_leaky_clip);
    tcase_add_test(tc, test_prelu_abs_maxmin);
    tcase_add_test(tc, test_batchnorm);
    tcase_add_test(tc, test_pad);
    suite_add_tcase(s, tc);
    TCase *te = tcase_create("errors");
    tcase_add_checked_fixture(te, setup, arena_free);
    tcase_set_timeout(te, 60);
    tcase_add_test(te, test_err_bytes);
    tcase_add_test(te, test_err_mutations);
    tcase_add_test(te, test_err_unsupported_op);
    tcase_add_test(te, test_err_graph);
    tcase_add_test(te, test_nomem);
    tcase_add_test(te, test_nomem_conv);
    tcase_add_test(te, test_err_conv);
    tcase_add_test(te, test_lower_limits);
    suite_add_tcase(s, te);
    TCase *tb = tcase_create("benchmarks");
    tcase_set_timeout(tb, 120);
    tcase_add_test(tb, test_benchmarks);
    suite_add_tcase(s, tb);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(onnx_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
