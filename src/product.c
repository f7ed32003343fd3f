/* product: networks side by side, and tied inputs eliminated. See include/vfy/product.h. */
#include "vfy/product.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *net_name(const char *const *names, int64_t i)
{
    return names && names[i] ? names[i] : "?";
}

/* The DENSE layers at depth k of every network as one block-diagonal matrix: column block i holds
 * network i's inputs, row block i its outputs. Kept sparse when any block is or when large and
 * mostly zero (VFY_SPARSE_*, the loader's rule); dense otherwise. */
static vfy_status push_dense_blocks(vfy_net *p, const vfy_net *const *nets, int64_t n, int64_t k,
                                    vfy_error *err)
{
    int64_t m = 0, cols = 0, nnz = 0, fan_in = 0, any_csr = 0;
    double relerr = 0.0;
    for (int64_t i = 0; i < n; i++) {
        const vfy_layer *L = &nets[i]->layers[k];
        m += L->n_out;
        cols += L->n_in;
        nnz += L->csr ? L->csr->nnz : L->n_out * L->n_in;
        fan_in = L->fan_in > fan_in ? L->fan_in : fan_in;
        relerr = L->w_relerr > relerr ? L->w_relerr : relerr;
        any_csr |= L->csr != NULL;
    }
    double entries = (double)m * (double)cols;
    int sparse = any_csr || (entries >= VFY_SPARSE_MIN_ENTRIES &&
                             (double)nnz <= VFY_SPARSE_DENSITY * entries);
    double *b = vfy_alloc_array((size_t)m, sizeof(double));
    double *w = sparse ? NULL : vfy_alloc_array((size_t)(m * cols), sizeof(double));
    vfy_csr *c = sparse ? vfy_la_csr_alloc(m, cols, nnz) : NULL;
    if (!b || (sparse ? !c : !w)) {
        vfy_free(b);
        vfy_free(w);
        vfy_la_csr_free(c);
        return vfy_fail(err, VFY_ERR_NOMEM, "out of memory building the networks' product");
    }
    int64_t r0 = 0, c0 = 0, t = 0;
    for (int64_t i = 0; i < n; i++) {
        const vfy_layer *L = &nets[i]->layers[k];
        for (int64_t j = 0; j < L->n_out; j++) {
            const int64_t *idx;
            const double *val;
            int64_t len;
            vfy_layer_row(L, j, &idx, &val, &len);
            for (int64_t q = 0; q < len; q++) {
                int64_t col = c0 + (idx ? idx[q] : q);
                if (sparse) {
                    c->col[t] = col;
                    c->val[t++] = val[q];
                } else {
                    w[(r0 + j) * cols + col] = val[q];
                }
            }
            if (sparse)
                c->row_start[r0 + j + 1] = t;
            b[r0 + j] = L->b[j];
        }
        r0 += L->n_out;
        c0 += L->n_in;
    }
    if (sparse) {
        c->nnz = t;
        return vfy_net_push_csr(p, cols, m, c, b, relerr, fan_in, "product", err);
    }
    return vfy_net_push(p, VFY_LAYER_DENSE, cols, m, w, b, relerr, fan_in, "product", err);
}

/* Depth k's SCALE or activation layers as one: multipliers and biases one block after another. */
static vfy_status push_elementwise(vfy_net *p, const vfy_net *const *nets, int64_t n, int64_t k,
                                   vfy_error *err)
{
    const vfy_layer *L0 = &nets[0]->layers[k];
    int64_t m = 0, fan_in = 0;
    double relerr = 0.0;
    for (int64_t i = 0; i < n; i++) {
        const vfy_layer *L = &nets[i]->layers[k];
        m += L->n_out;
        fan_in = L->fan_in > fan_in ? L->fan_in : fan_in;
        relerr = L->w_relerr > relerr ? L->w_relerr : relerr;
    }
    double *w = NULL, *b = NULL;
    if (L0->kind == VFY_LAYER_SCALE) {
        w = vfy_alloc_array((size_t)m, sizeof(double));
        b = vfy_alloc_array((size_t)m, sizeof(double));
        if (!w || !b) {
            vfy_free(w);
            vfy_free(b);
            return vfy_fail(err, VFY_ERR_NOMEM, "out of memory building the networks' product");
        }
        for (int64_t i = 0, o = 0; i < n; o += nets[i]->layers[k].n_out, i++) {
            const vfy_layer *L = &nets[i]->layers[k];
            memcpy(w + o, L->w, (size_t)L->n_out * sizeof(double));
            memcpy(b + o, L->b, (size_t)L->n_out * sizeof(double));
        }
    }
    return vfy_net_push(p, L0->kind, m, m, w, b, relerr, fan_in, "product", err);
}

/* Depth k's MAXPOOL or PRODUCT layers as one: the windows one block after another, each index
 * moved by its block's offset (MAXPOOL windows padded with -1 to the longest). */
static vfy_status push_indexed_blocks(vfy_net *p, const vfy_net *const *nets, int64_t n,
                                      int64_t k, vfy_error *err)
{
    const vfy_layer *L0 = &nets[0]->layers[k];
    int64_t m = 0, cols = 0, pk = 0;
    for (int64_t i = 0; i < n; i++) {
        const vfy_layer *L = &nets[i]->layers[k];
        m += L->n_out;
        cols += L->n_in;
        pk = L->pool_k > pk ? L->pool_k : pk;
    }
    int64_t *pool = vfy_alloc_array((size_t)(m * pk), sizeof(int64_t));
    if (!pool)
        return vfy_fail(err, VFY_ERR_NOMEM, "out of memory building the networks' product");
    for (int64_t i = 0, r0 = 0, c0 = 0; i < n; i++) {
        const vfy_layer *L = &nets[i]->layers[k];
        for (int64_t j = 0; j < L->n_out; j++)
            for (int64_t q = 0; q < pk; q++) {
                int64_t v = q < L->pool_k ? L->pool[j * L->pool_k + q] : -1;
                pool[(r0 + j) * pk + q] = v < 0 ? -1 : c0 + v;
            }
        r0 += L->n_out;
        c0 += L->n_in;
    }
    if (L0->kind == VFY_LAYER_MAXPOOL)
        return vfy_net_push_maxpool(p, cols, m, pk, pool, "product", err);
    return vfy_net_push_product(p, cols, m, pool, "product", err);
}

vfy_status vfy_net_product(const vfy_net *const *nets, const char *const *names, int64_t n,
                           vfy_net **out, vfy_error *err)
{
    *out = NULL;
    for (int64_t i = 0; i < n; i++) {
        const vfy_net *f = nets[i];
        if (f->out_op != VFY_OUT_IDENTITY)
            return vfy_fail(err, VFY_ERR_UNSUPPORTED, "network '%s' ends in a %s: queries over "
                            "several networks need networks without one", net_name(names, i),
                            f->out_op == VFY_OUT_SOFTMAX ? "Softmax" : "LogSoftmax");
        if (f->n_layers != nets[0]->n_layers)
            return vfy_fail(err, VFY_ERR_UNSUPPORTED, "networks '%s' and '%s' have %lld and %lld "
                            "layers: queries over several networks need one layer sequence",
                            net_name(names, 0), net_name(names, i), (long long)nets[0]->n_layers,
                            (long long)f->n_layers);
        for (int64_t k = 0; k < f->n_layers; k++) {
            const vfy_layer *L = &f->layers[k], *L0 = &nets[0]->layers[k];
            if (L->kind != L0->kind)
                return vfy_fail(err, VFY_ERR_UNSUPPORTED, "networks '%s' and '%s' differ in "
                                "layer %lld ('%s' and '%s'): queries over several networks need "
                                "one layer sequence", net_name(names, 0), net_name(names, i),
                                (long long)k + 1, L0->name, L->name);
            if (L->n_pass > 0)
                return vfy_fail(err, VFY_ERR_UNSUPPORTED, "network '%s': layer '%s' carries "
                                "values past its activation, which the product of several "
                                "networks does not support", net_name(names, i), L->name);
            /* an EXP or RECIP of a lowered Softmax is told apart by its fan_in (the Softmax's
             * length, net.h), and its float allowance depends on it: one for all blocks */
            if (L->kind != VFY_LAYER_DENSE && L->fan_in != L0->fan_in)
                return vfy_fail(err, VFY_ERR_UNSUPPORTED, "networks '%s' and '%s' differ in "
                                "layer %lld ('%s' and '%s': a Softmax's step beside another, or "
                                "Softmaxes of two lengths)", net_name(names, 0),
                                net_name(names, i), (long long)k + 1, L0->name, L->name);
        }
    }
    vfy_net *p = vfy_alloc(sizeof *p);
    if (!p)
        return vfy_fail(err, VFY_ERR_NOMEM, "out of memory building the networks' product");
    for (int64_t i = 0; i < n; i++) {
        p->n_in += nets[i]->n_in;
        p->n_out += nets[i]->n_out;
    }
    p->in_rank = p->out_rank = 1;
    p->in_shape[0] = p->n_in;
    p->out_shape[0] = p->n_out;
    vfy_status st = VFY_OK;
    for (int64_t k = 0; k < nets[0]->n_layers && st == VFY_OK; k++) {
        vfy_layer_kind kind = nets[0]->layers[k].kind;
        if (kind == VFY_LAYER_DENSE)
            st = push_dense_blocks(p, nets, n, k, err);
        else if (kind == VFY_LAYER_MAXPOOL || kind == VFY_LAYER_PRODUCT)
            st = push_indexed_blocks(p, nets, n, k, err);
        else
            st = push_elementwise(p, nets, n, k, err);
    }
    if (st == VFY_OK)
        st = vfy_net_validate(p, err);
    if (st != VFY_OK) {
        vfy_net_free(p);
        return st;
    }
    *out = p;
    return VFY_OK;
}

static int same_doubles(const double *a, const double *b, int64_t n)
{
    if (!a || !b)
        return a == b;
    return memcmp(a, b, (size_t)n * sizeof(double)) == 0;
}

int vfy_net_same(const vfy_net *a, const vfy_net *b)
{
    if (a == b)
        return 1;
    if (a->n_layers != b->n_layers || a->n_in != b->n_in || a->n_out != b->n_out ||
        a->out_op != b->out_op)
        return 0;
    for (int64_t k = 0; k < a->n_layers; k++) {
        const vfy_layer *p = &a->layers[k], *q = &b->layers[k];
        if (p->kind != q->kind || p->n_in != q->n_in || p->n_out != q->n_out ||
            p->w_relerr != q->w_relerr || p->fan_in != q->fan_in || p->pool_k != q->pool_k ||
            p->n_pass != q->n_pass || !same_doubles(p->b, q->b, p->n_out))
            return 0;
        if (p->pool && (!q->pool || memcmp(p->pool, q->pool, (size_t)(p->n_out * p->pool_k) *
                                                                 sizeof(int64_t)) != 0))
            return 0;
        if (p->kind == VFY_LAYER_SCALE && !same_doubles(p->w, q->w, p->n_out))
            return 0;
        if (p->kind != VFY_LAYER_DENSE)
            continue;
        for (int64_t j = 0; j < p->n_out; j++) { /* row by row: dense or sparse alike */
            const int64_t *ip, *iq;
            const double *vp, *vq;
            int64_t np, nq, s = 0, t = 0;
            vfy_layer_row(p, j, &ip, &vp, &np);
            vfy_layer_row(q, j, &iq, &vq, &nq);
            while (s < np || t < nq) { /* the nonzeros, by column */
                int64_t cp = s < np ? (ip ? ip[s] : s) : INT64_MAX;
                int64_t cq = t < nq ? (iq ? iq[t] : t) : INT64_MAX;
                double xp = cp <= cq ? vp[s] : 0.0, xq = cq <= cp ? vq[t] : 0.0;
                if (memcmp(&xp, &xq, sizeof xp) != 0 && !(xp == 0.0 && xq == 0.0))
                    return 0;
                s += cp <= cq;
                t += cq <= cp;
            }
        }
    }
    return 1;
}

/* ---- tied inputs ----------------------------------------------------------------------------- */

/* If row is x_a - x_b <= 0 (no Y term, exactly two X terms of coefficients 1 and -1, right-hand
 * side exactly 0, non-strict): 1 with *a, *b. */
static int tie_row(const vfy_row *row, int64_t n_x, int64_t n_y, int64_t *a, int64_t *b)
{
    if (!row->cx || row->strict || row->rhs_lo != 0.0 || row->rhs_hi != 0.0)
        return 0;
    for (int64_t j = 0; j < n_y; j++)
        if (row->cy[j] != 0.0)
            return 0;
    int64_t pos = -1, neg = -1;
    for (int64_t j = 0; j < n_x; j++) {
        double c = row->cx[j];
        if (c == 0.0)
            continue;
        if (c == 1.0 && pos < 0)
            pos = j;
        else if (c == -1.0 && neg < 0)
            neg = j;
        else
            return 0;
    }
    if (pos < 0 || neg < 0)
        return 0;
    *a = pos;
    *b = neg;
    return 1;
}

static int64_t uf_find(int64_t *parent, int64_t i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

/* Whether summing the coefficients of every class (rep) in every row is exact in double. */
static int sums_exact(const vfy_spec *spec, const int64_t *rep, int64_t n_z, double *acc)
{
    for (int64_t c = 0; c < spec->n_cases; c++)
        for (int64_t r = 0; r < spec->cases[c].n_rows; r++) {
            const double *cx = spec->cases[c].rows[r].cx;
            if (!cx)
                continue;
            memset(acc, 0, (size_t)n_z * sizeof(double));
            for (int64_t j = 0; j < spec->n_x; j++) {
                double s = acc[rep[j]] + cx[j];
                /* exact iff the rounding error of the sum (two-sum) is zero */
                double bv = s - acc[rep[j]];
                if ((acc[rep[j]] - (s - bv)) + (cx[j] - bv) != 0.0 || !isfinite(s))
                    return 0;
                acc[rep[j]] = s;
            }
        }
    return 1;
}

vfy_status vfy_ties_find(const vfy_spec *spec, vfy_ties *out, vfy_error *err)
{
    memset(out, 0, sizeof *out);
    int64_t n = spec->n_x;
    int64_t *parent = vfy_alloc_array((size_t)n, sizeof(int64_t));
    int64_t *rep = vfy_alloc_array((size_t)n, sizeof(int64_t));
    /* the first case's tie pairs, then those of them every other case has too */
    int64_t cap = 0, n_pairs = 0;
    int64_t (*pairs)[3] = NULL; /* (a, b, cases that have x_a - x_b <= 0 and the reverse) */
    double *acc = vfy_alloc_array((size_t)n, sizeof(double));
    if (!parent || !rep || !acc)
        goto nomem;
    if (spec->n_cases > 0) {
        const vfy_case *c0 = &spec->cases[0];
        for (int64_t r = 0; r < c0->n_rows; r++) {
            int64_t a, b;
            if (!tie_row(&c0->rows[r], n, spec->n_y, &a, &b) || a > b)
                continue;
            /* a < b: look for the reverse row b - a <= 0 in the same case */
            for (int64_t q = 0; q < c0->n_rows; q++) {
                int64_t a2, b2;
                if (tie_row(&c0->rows[q], n, spec->n_y, &a2, &b2) && a2 == b && b2 == a) {
                    if (n_pairs == cap) {
                        cap = cap ? 2 * cap : 16;
                        void *np = vfy_realloc(pairs, (size_t)cap * sizeof *pairs);
                        if (!np)
                            goto nomem;
                        pairs = np;
                    }
                    pairs[n_pairs][0] = a;
                    pairs[n_pairs][1] = b;
                    pairs[n_pairs++][2] = 1;
                    break;
                }
            }
        }
    }
    /* keep the pairs every other case asserts too (both directions) */
    for (int64_t c = 1; c < spec->n_cases; c++) {
        const vfy_case *cs = &spec->cases[c];
        for (int64_t p = 0; p < n_pairs; p++) {
            int fwd = 0, back = 0;
            for (int64_t r = 0; r < cs->n_rows && !(fwd && back); r++) {
                int64_t a, b;
                if (!tie_row(&cs->rows[r], n, spec->n_y, &a, &b))
                    continue;
                fwd |= a == pairs[p][0] && b == pairs[p][1];
                back |= a == pairs[p][1] && b == pairs[p][0];
            }
            if (!(fwd && back))
                pairs[p][2] = 0;
        }
    }
    for (int64_t j = 0; j < n; j++)
        parent[j] = j;
    for (int64_t p = 0; p < n_pairs; p++) {
        if (!pairs[p][2])
            continue;
        int64_t ra = uf_find(parent, pairs[p][0]), rb = uf_find(parent, pairs[p][1]);
        if (ra != rb) /* the smaller index is the class's root */
            parent[ra > rb ? ra : rb] = ra < rb ? ra : rb;
    }
    int64_t n_z = 0;
    for (int64_t j = 0; j < n; j++) {
        int64_t r = uf_find(parent, j);
        rep[j] = r == j ? n_z++ : rep[r];
    }
    if (n_z < n && !sums_exact(spec, rep, n_z, acc)) {
        for (int64_t j = 0; j < n; j++) /* (never for +-1 coefficients) */
            rep[j] = j;
        n_z = n;
    }
    vfy_free(parent);
    vfy_free(pairs);
    vfy_free(acc);
    out->n_x = n;
    out->n_z = n_z;
    out->rep = rep;
    return VFY_OK;
nomem:
    vfy_free(parent);
    vfy_free(rep);
    vfy_free(pairs);
    vfy_free(acc);
    return vfy_fail(err, VFY_ERR_NOMEM, "out of memory finding the spec's tied inputs");
}

/* A row with no term left: 0 <= rhs. 1 when it certainly holds (every x satisfies it). */
static int row_trivial(const vfy_row *row, int64_t n_z, int64_t n_y)
{
    for (int64_t j = 0; j < n_y; j++)
        if (row->cy[j] != 0.0)
            return 0;
    for (int64_t j = 0; row->cx && j < n_z; j++)
        if (row->cx[j] != 0.0)
            return 0;
    return row->strict ? row->rhs_lo > 0.0 : row->rhs_lo >= 0.0;
}

/* real_pt (spec.h) of each class of box bx's inputs, n_z flags (NULL when out of memory): 1 when
 * exactly one member's inner interval is empty, that member's real_pt is 1, and every other
 * member's inner interval contains its outer one. Then the member's real interval holds a point
 * (real_pt), which lies in every member's real interval (each contains its inner one): the class
 * has that real point, and the intersection of the outer intervals, the member's, contains it. */
static unsigned char *merge_real_points(const vfy_ties *t, const vfy_box *bx)
{
    int64_t nz = t->n_z, nx = t->n_x;
    unsigned char *rp = vfy_alloc((size_t)nz + 1);
    int64_t *who = vfy_alloc_array((size_t)nz, sizeof(int64_t)); /* -1 none, -2 not a point */
    if (!rp || !who) {
        vfy_free(rp);
        vfy_free(who);
        return NULL;
    }
    for (int64_t r = 0; r < nz; r++)
        who[r] = -1;
    for (int64_t j = 0; j < nx; j++) {
        int64_t r = t->rep[j];
        if (bx->in_lo[j] > bx->in_hi[j])
            who[r] = bx->real_pt[j] && who[r] == -1 ? j : -2;
    }
    for (int64_t j = 0; j < nx; j++) {
        int64_t r = t->rep[j], c = who[r];
        if (c >= 0 && j != c && !(bx->in_lo[j] <= bx->lo[c] && bx->in_hi[j] >= bx->hi[c]))
            who[r] = -2;
    }
    for (int64_t r = 0; r < nz; r++)
        rp[r] = who[r] >= 0;
    vfy_free(who);
    return rp;
}

vfy_status vfy_ties_apply_spec(const vfy_ties *t, vfy_spec *spec, const char *spec_name,
                               vfy_error *err)
{
    if (t->n_z == t->n_x)
        return VFY_OK;
    int64_t nz = t->n_z, nx = t->n_x;
    int64_t *empty = vfy_alloc_array((size_t)spec->n_boxes, sizeof(int64_t));
    if (!empty)
        return vfy_fail(err, VFY_ERR_NOMEM, "out of memory rewriting the spec");
    /* boxes: a class's outer box is the intersection of its members' outer boxes, its inner box
     * the intersection of their inner boxes (contained in each member's real box; empty, in_lo >
     * in_hi, when no double lies in all of them: then, as in the parser, no point is printed) */
    for (int64_t k = 0; k < spec->n_boxes; k++) {
        vfy_box *bx = &spec->boxes[k];
        double *v[4] = {vfy_alloc_array((size_t)nz, sizeof(double)),
                        vfy_alloc_array((size_t)nz, sizeof(double)),
                        vfy_alloc_array((size_t)nz, sizeof(double)),
                        vfy_alloc_array((size_t)nz, sizeof(double))};
        if (!v[0] || !v[1] || !v[2] || !v[3]) {
            for (int q = 0; q < 4; q++)
                vfy_free(v[q]);
            vfy_free(empty);
            return vfy_fail(err, VFY_ERR_NOMEM, "out of memory rewriting the spec");
        }
        for (int64_t r = 0; r < nz; r++) {
            v[0][r] = v[2][r] = -INFINITY;
            v[1][r] = v[3][r] = INFINITY;
        }
        for (int64_t j = 0; j < nx; j++) {
            int64_t r = t->rep[j];
            v[0][r] = fmax(v[0][r], bx->lo[j]);
            v[1][r] = fmin(v[1][r], bx->hi[j]);
            v[2][r] = fmax(v[2][r], bx->in_lo[j]);
            v[3][r] = fmin(v[3][r], bx->in_hi[j]);
        }
        empty[k] = -1;
        for (int64_t r = 0; r < nz && empty[k] < 0; r++)
            if (v[0][r] > v[1][r])
                empty[k] = r;
        unsigned char *rp = NULL;
        if (bx->real_pt && !(rp = merge_real_points(t, bx))) {
            for (int q = 0; q < 4; q++)
                vfy_free(v[q]);
            vfy_free(empty);
            return vfy_fail(err, VFY_ERR_NOMEM, "out of memory rewriting the spec");
        }
        vfy_free(bx->real_pt);
        bx->real_pt = rp;
        vfy_free(bx->lo);
        vfy_free(bx->hi);
        vfy_free(bx->in_lo);
        vfy_free(bx->in_hi);
        bx->lo = v[0];
        bx->hi = v[1];
        bx->in_lo = v[2];
        bx->in_hi = v[3];
    }
    /* rows: coefficients summed per class (exact: vfy_ties_find checked); rows left without a
     * term and certainly true (the equalities) dropped; cases on an emptied box dropped */
    int64_t kept = 0;
    vfy_status st = VFY_OK;
    for (int64_t c = 0; c < spec->n_cases; c++) {
        vfy_case *cs = &spec->cases[c];
        if (empty[cs->box] >= 0) {
            for (int64_t r = 0; r < cs->n_rows; r++) {
                vfy_free(cs->rows[r].cy);
                vfy_free(cs->rows[r].cx);
            }
            vfy_free(cs->rows);
            continue;
        }
        int64_t nr = 0;
        for (int64_t r = 0; r < cs->n_rows; r++) {
            vfy_row row = cs->rows[r];
            if (row.cx) {
                double *z = vfy_alloc_array((size_t)nz, sizeof(double));
                if (!z) {
                    st = vfy_fail(err, VFY_ERR_NOMEM, "out of memory rewriting the spec");
                    z = row.cx; /* (kept: freed with the spec) */
                } else {
                    int any = 0;
                    for (int64_t j = 0; j < nx; j++)
                        z[t->rep[j]] += row.cx[j];
                    for (int64_t j = 0; j < nz; j++)
                        any |= z[j] != 0.0;
                    vfy_free(row.cx);
                    if (!any) {
                        vfy_free(z);
                        z = NULL;
                    }
                }
                row.cx = z;
            }
            if (st == VFY_OK && row_trivial(&row, nz, spec->n_y)) {
                vfy_free(row.cy);
                vfy_free(row.cx);
                continue;
            }
            cs->rows[nr++] = row;
        }
        cs->n_rows = nr;
        spec->cases[kept++] = *cs;
    }
    spec->n_cases = kept;
    spec->n_x = nz;
    vfy_free(empty);
    if (st == VFY_OK && kept == 0)
        st = vfy_fail(err, VFY_ERR_INVALID, "%s: contradictory spec: the input equalities leave "
                      "the input region empty", spec_name);
    return st;
}

vfy_status vfy_ties_apply_net(const vfy_ties *t, vfy_net *net, vfy_error *err)
{
    if (t->n_z == t->n_x)
        return VFY_OK;
    if (net->n_in != t->n_x)
        return vfy_fail(err, VFY_ERR_INTERNAL, "ties: %lld inputs for a network of %lld",
                        (long long)t->n_x, (long long)net->n_in);
    double *w = vfy_alloc_array((size_t)(t->n_x * t->n_z), sizeof(double));
    double *b = vfy_alloc_array((size_t)t->n_x, sizeof(double));
    vfy_layer *nl = vfy_realloc(net->layers, (size_t)(net->n_layers + 1) * sizeof *nl);
    if (!w || !b || !nl) {
        vfy_free(w);
        vfy_free(b);
        if (nl)
            net->layers = nl;
        return vfy_fail(err, VFY_ERR_NOMEM, "out of memory tying the network's inputs");
    }
    net->layers = nl;
    for (int64_t j = 0; j < t->n_x; j++)
        w[j * t->n_z + t->rep[j]] = 1.0;
    memmove(nl + 1, nl, (size_t)net->n_layers * sizeof *nl);
    memset(nl, 0, sizeof *nl);
    nl->kind = VFY_LAYER_DENSE;
    nl->n_in = t->n_z;
    nl->n_out = t->n_x;
    nl->w = w;
    nl->b = b;
    nl->fan_in = 1; /* (1 z plus exact zeros: the copy is exact in any execution) */
    snprintf(nl->name, sizeof nl->name, "tied inputs");
    net->n_layers++;
    net->n_in = t->n_z;
    net->in_rank = 1;
    net->in_shape[0] = t->n_z;
    return vfy_net_validate(net, err);
}

void vfy_ties_expand(const vfy_ties *t, const double *z, double *x)
{
    for (int64_t j = 0; j < t->n_x; j++)
        x[j] = z[t->rep[j]];
}

void vfy_ties_free(vfy_ties *t)
{
    vfy_free(t->rep);
    t->rep = NULL;
}
