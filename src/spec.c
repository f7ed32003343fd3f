/* spec: the VNNLIB parser. See include/vfy/spec.h for the normalised form it produces.
 *
 * Pipeline (every stage linear in the input, none recursive, so deep nesting cannot overflow the
 * C stack):
 *   1. lex + build a flat S-expression tree in pre-order (nodes[], each with its subtree size);
 *   2. collect declarations (X_i / Y_i, any order, indices must be exactly 0..n-1; or VNNLIB
 *      2.0's one declare-network, whose input and output tensors' elements X[i,j] are X_k, Y_k
 *      at their row-major offsets k);
 *   3. per assert: a forward pass gives every node its role (formula / term / operator head) and
 *      checks names, arities and literals in document order; a reverse pass (reverse pre-order is
 *      a post-order of the mirrored tree) evaluates bottom-up with an explicit value stack:
 *      terms become sparse linear expressions with an interval constant, comparisons become
 *      atoms, and/or become DNFs whose conjunctions are ropes (shared binary concatenation trees),
 *      so a product of DNFs costs O(number of result conjunctions), not O(their total length);
 *   4. the DNF of all asserts (their product) is flattened case by case: bounds on a single X_i
 *      form the case's box, everything else becomes a row; equal boxes are shared.
 *
 * Soundness of constants: a literal is converted with strtod and compared EXACTLY with its decimal
 * value, so each constant is a tight enclosure [lo, hi] (lo == hi when exact, else the two doubles
 * around the real value). All constant arithmetic is interval arithmetic with outward rounding
 * obtained from error-free transformations (TwoSum, fma), never from the FPU rounding mode. */
#include "vfy/spec.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPEC_MAX_DEPTH 10000          /* parenthesis nesting */
#define SPEC_MAX_CASES 100000         /* conjunctions of the DNF, after every product */
#define SPEC_MAX_ITEMS 50000000.0     /* atom references summed over the DNF's conjunctions */
#define SPEC_MAX_DOUBLES ((int64_t)1 << 27) /* doubles stored in the output spec (1 GiB) */
#define SPEC_MAX_INDEX ((int64_t)1 << 30)   /* largest accepted X_i / Y_i index */
#define SPEC_MAX_TOKEN 0x40000000u    /* longest token in bytes */

/* ---- nodes of the S-expression tree ---------------------------------------------------------- */

enum {
    OP_NONE,
    OP_FORMULA, OP_TERM, /* role placeholders set by the parent in the forward pass */
    OP_HEAD,             /* the operator symbol of a list */
    OP_AND, OP_OR, OP_LE, OP_GE, OP_LT, OP_GT, OP_EQ, OP_NE, OP_TRUE, OP_FALSE,
    OP_ADD, OP_SUB, OP_MUL, OP_VAR, OP_NUM,
};

typedef struct node {
    int64_t off;  /* byte offset of the token or of the '(' */
    int64_t size; /* nodes in the subtree, this one included */
    union {
        int64_t n_kids;  /* lists: number of children (operator head included) */
        int64_t var;     /* OP_VAR: 2*i for X_i, 2*i+1 for Y_i */
        double num[2];   /* OP_NUM: enclosure of the literal */
    } u;
    uint32_t len;        /* atoms: token length */
    uint32_t line, col;  /* 1-based; col counts bytes */
    uint8_t is_list, op;
} node;

typedef struct decl {
    int64_t index, node;
} decl;

/* A VNNLIB 2.0 declare-input / declare-output: its atoms' nodes and its shape. */
typedef struct tensor_decl {
    int64_t name, type, onnx; /* atom nodes; onnx -1 when no ONNX name is given */
    int hidden;               /* a declare-hidden (kept among the outputs: a computed value) */
    const char *type_name;    /* the element type's name in a result file */
    int rank;
    int64_t shape[VFY_SPEC_MAX_RANK];
    int64_t size;             /* product of shape (1 for a scalar) */
} tensor_decl;

/* A VNNLIB 2.0 declare-network: its name, its relation to an earlier network, its tensors. The
 * query's X_i run over the networks' inputs in declaration order, its Y_i over their outputs. */
typedef struct net_decl {
    int64_t name;          /* atom node */
    vfy_spec_relation rel;
    int64_t rel_to;        /* index of the network named by equal-to / isomorphic-to, else -1 */
    tensor_decl tin[VFY_SPEC_MAX_IO], tout[VFY_SPEC_MAX_IO];
    int n_in, n_out;
    int64_t x_off, y_off;  /* its inputs are X_{x_off} ..., its outputs Y_{y_off} ... */
    int64_t n_x, n_y;      /* their total sizes */
} net_decl;

/* The tensor of net q holding X_i (is_y 0) or Y_i (is_y 1), and its first element's index. */
static const tensor_decl *tensor_at(const net_decl *nets, int64_t n_nets, int is_y, int64_t i,
                                    int64_t *off)
{
    int64_t q = 0;
    while (q + 1 < n_nets && i >= (is_y ? nets[q + 1].y_off : nets[q + 1].x_off))
        q++;
    const net_decl *nd = &nets[q];
    const tensor_decl *t = is_y ? nd->tout : nd->tin;
    int n = is_y ? nd->n_out : nd->n_in;
    int64_t o = is_y ? nd->y_off : nd->x_off;
    int k = 0;
    while (k + 1 < n && i >= o + t[k].size)
        o += t[k++].size;
    *off = o;
    return &t[k];
}

/* ---- values of the reverse pass ------------------------------------------------------------- */

typedef struct lin {
    int64_t v; /* 2*i for X_i, 2*i+1 for Y_i */
    double c;  /* exact coefficient */
} lin;

/* A term (sum_k lins[k].c * var + [lo, hi]) or a DNF (n conjunctions, rope ids). Small values are
 * stored inline (cap == 0: `one` / `id1`) so that the common leaf costs no allocation. */
typedef struct val {
    int is_dnf;
    int64_t n, cap;
    lin *lins;
    lin one;
    int64_t *ids;
    int64_t id1;
    double lo, hi;
    int64_t lit; /* node + 1 of the numeric literal whose value this is exactly, minus that for
                  * its negation ((- 0.1), SMT-LIB's way to write -0.1), else 0 */
} val;

#define VAL_LINS(x) ((x)->cap ? (x)->lins : &(x)->one)
#define VAL_IDS(x) ((x)->cap ? (x)->ids : &(x)->id1)

enum { ATOM_UP, ATOM_LO, ATOM_ROW };

/* A normalised comparison. ATOM_UP: X_x <= [lo,hi]; ATOM_LO: X_x >= [lo,hi]; ATOM_ROW:
 * sum pool[off..off+n) <= [lo,hi]; strict: < instead of <= (for ATOM_UP / ATOM_LO already in the
 * inner end of [lo, hi]). */
typedef struct atom {
    int kind, strict;
    int64_t x;
    double lo, hi;
    int64_t off, n;
    int64_t node;
    int64_t lit; /* ATOM_UP / ATOM_LO: the literal that is exactly the bound (val's lit), or 0 */
} atom;

/* Rope: a conjunction as a binary tree of atoms. b == -1: leaf for atom a; otherwise the
 * concatenation of ropes a and b. Rope 0 is the empty conjunction. */
typedef struct rope {
    int64_t a, b, count;
} rope;

typedef struct parser {
    const char *text;
    size_t len;
    const char *name;
    vfy_error *err;

    node *nodes;
    int64_t n_nodes, cap_nodes;
    uint32_t eof_line, eof_col;

    decl *dx, *dy;
    int64_t n_dx, cap_dx, n_dy, cap_dy;
    int64_t n_x, n_y;
    int64_t *x_decl; /* n_x: node of X_i's declaration */
    int v2;          /* a VNNLIB 2.0 declare-network was read: nets holds the networks */
    net_decl *nets;
    int64_t n_nets, cap_nets;

    val *vals;
    int64_t n_vals, cap_vals;
    atom *atoms;
    int64_t n_atoms, cap_atoms;
    lin *pool;
    int64_t n_pool, cap_pool;
    rope *ropes;
    int64_t n_ropes, cap_ropes;
    int64_t *stack, n_stack, cap_stack; /* scratch: open lists, rope flattening */
    int64_t *items, n_items, cap_items; /* scratch: flattened conjunction */
    int64_t first_assert;               /* node of the first assert, -1 if none */
    int64_t prefix;  /* the asserts' conjunction of single-case arguments, which begins every
                      * case's rope (the input box, typically), or -1 */
} parser;

/* ---- errors ---------------------------------------------------------------------------------- */

static vfy_status perr_at(parser *p, uint32_t line, uint32_t col, vfy_status st, const char *fmt,
                          ...) __attribute__((format(printf, 5, 6)));
static vfy_status perr_at(parser *p, uint32_t line, uint32_t col, vfy_status st, const char *fmt,
                          ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return vfy_fail(p->err, st, "%s:%u:%u: %s", p->name, (unsigned)line, (unsigned)col, msg);
}

#define PERR(p, nd, st, ...) perr_at((p), (p)->nodes[nd].line, (p)->nodes[nd].col, (st), __VA_ARGS__)

static vfy_status nomem(parser *p)
{
    return vfy_fail(p->err, VFY_ERR_NOMEM, "%s: out of memory while parsing the spec", p->name);
}

/* Printable excerpt of an atom's text for messages (at most 40 bytes, controls replaced). */
static const char *tok(const parser *p, int64_t nd, char *buf, size_t cap)
{
    const node *n = &p->nodes[nd];
    size_t k = n->len < cap - 4 ? n->len : cap - 4, i;
    for (i = 0; i < k; i++) {
        unsigned char ch = (unsigned char)p->text[n->off + (int64_t)i];
        buf[i] = (ch >= 0x20 && ch < 0x7f) ? (char)ch : '?';
    }
    if (k < n->len)
        buf[i++] = '.', buf[i++] = '.', buf[i++] = '.';
    buf[i] = '\0';
    return buf;
}

#define TOKBUF 44

static int tok_is(const parser *p, int64_t nd, const char *s)
{
    const node *n = &p->nodes[nd];
    size_t k = strlen(s);
    return !n->is_list && n->len == k && memcmp(p->text + n->off, s, k) == 0;
}

/* Grow the array *pp (elements of elem bytes, capacity *cap) to hold need elements. 0 or -1. */
static int grow(void *pp, int64_t *cap, int64_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    int64_t nc = *cap ? *cap : 16;
    while (nc < need)
        nc *= 2;
    if ((uint64_t)nc > SIZE_MAX / elem)
        return -1;
    void *arr;
    memcpy(&arr, pp, sizeof arr);
    void *q = vfy_realloc(arr, (size_t)nc * elem);
    if (!q)
        return -1;
    memcpy(pp, &q, sizeof q);
    *cap = nc;
    return 0;
}

#define GROW(p, arr, cap, need) grow(&(arr), &(cap), (need), sizeof *(arr))

/* ---- exact decimal literals ------------------------------------------------------------------ */

static int digits_cmp(const char *a, int64_t na, int64_t ea, const char *b, int64_t nb, int64_t eb)
{
    /* Compare a = int(a[0..na)) * 10^ea with b likewise; both have no leading or trailing zeros
     * and na, nb >= 1, so the value of a lies in [10^(ea+na-1), 10^(ea+na)). */
    int64_t sa = ea + na, sb = eb + nb;
    if (sa != sb)
        return sa < sb ? -1 : 1;
    int64_t m = na < nb ? na : nb;
    int c = memcmp(a, b, (size_t)m);
    if (c != 0)
        return c < 0 ? -1 : 1;
    return na == nb ? 0 : (na < nb ? -1 : 1);
}

static int bitlen128(unsigned __int128 x)
{
    int n = 0;
    while (x) {
        x >>= 1;
        n++;
    }
    return n;
}

/* Sign of v - r, where v > 0 is a finite double and r = int(d[0..nd)) * 10^e > 0 (d has no
 * leading or trailing zeros). Exact: 128-bit integer arithmetic when the literal is short, else
 * glibc's exact decimal expansion of v (printf prints every digit of a double exactly). */
static int cmp_double_decimal(double v, const char *d, int64_t nd, int64_t e)
{
    int x;
    uint64_t m = (uint64_t)ldexp(frexp(v, &x), 53); /* v = m 2^(x-53) exactly */
    if (nd <= 19) {
        uint64_t M = 0;
        for (int64_t i = 0; i < nd; i++)
            M = M * 10 + (uint64_t)(d[i] - '0');
        if (e >= 0 && e <= 19) {
            unsigned __int128 R = M, V;
            for (int64_t i = 0; i < e; i++)
                R *= 10;
            /* v is an integer here: r >= 1 is an integer, so v = round(r) >= 1 is one too, and
             * v < 2^128 because r < 2^127.2. */
            V = (unsigned __int128)v;
            return V == R ? 0 : (V < R ? -1 : 1);
        }
        if (e < 0 && e >= -27) {
            int q = (int)-e;
            int s = x - 53 + q; /* v = m 2^(x-53); compare m 5^q 2^s with M (both sides * 10^q) */
            unsigned __int128 L = m, R = M;
            for (int i = 0; i < q; i++)
                L *= 5; /* < 2^53 * 5^27 < 2^116 */
            if (s >= 0) {
                if (bitlen128(L) + s > 127)
                    return 1; /* L 2^s >= 2^127 > M */
                L <<= s;
            } else {
                if (bitlen128(R) - s > 127)
                    return -1; /* M 2^-s >= 2^127 > L */
                R <<= -s;
            }
            return L == R ? 0 : (L < R ? -1 : 1);
        }
    }
    /* v = m 2^-k with m odd, m < 2^53: its exact expansion m 5^k 10^-k has at most
     * 16 + floor(k log10 5) + 1 <= floor(0.7 k) + 17 significant digits, so printing P of them
     * (P - 1 after the point) is exact; an integer v (k = 0 after the shifts) may have up to 309,
     * and 801 cover any double (767 at most). A float32 value in [0, 1) needs about 35, where 801
     * took 10 us (stem224's 19 MB spec: 3.4 s to read). */
    int64_t k = 53 - (int64_t)x;
    while (k > 0 && m % 2 == 0) {
        m /= 2;
        k--;
    }
    int P = k > 0 && k < 1100 ? (int)(7 * k / 10) + 18 : 801;
    P = P < 801 ? P : 801;
    char buf[832];
    int w = snprintf(buf, sizeof buf, "%.*e", P - 1, v);
    if (w <= 0 || (size_t)w >= sizeof buf)
        VFY_ASSERT(!"exact expansion fits");
    char dig[801];
    int64_t nv = 0;
    const char *q = buf;
    for (; *q && *q != 'e'; q++)
        if (*q >= '0' && *q <= '9')
            dig[nv++] = *q;
    VFY_ASSERT(*q == 'e' && nv == P && dig[0] != '0');
    long ex = strtol(q + 1, NULL, 10);
    int64_t ev = (int64_t)ex - (P - 1);
    while (nv > 1 && dig[nv - 1] == '0')
        nv--, ev++;
    return digits_cmp(dig, nv, ev, d, nd, e);
}

/* A numeric literal (decimal, optional sign, fraction, exponent) as (-1)^*neg int(dig[0..*nd))
 * 10^*e, the digits without leading or trailing zeros (*nd = 0: the value is 0); dig must hold
 * n bytes. Returns 0, or -1 on bad syntax. */
static int literal_digits(const char *s, size_t n, int *neg, char *dig, int64_t *nd, int64_t *e)
{
    size_t i = 0;
    *neg = 0;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        *neg = s[i++] == '-';
    size_t i0 = i;
    while (i < n && s[i] >= '0' && s[i] <= '9')
        i++;
    size_t n_int = i - i0, f0 = i, n_frac = 0;
    if (i < n && s[i] == '.') {
        i++;
        f0 = i;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
        n_frac = i - f0;
    }
    if (n_int + n_frac == 0)
        return -1;
    int64_t ex = 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        int eneg = 0;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            eneg = s[i++] == '-';
        size_t e0 = i;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            if (ex < 1000000000000LL)
                ex = ex * 10 + (s[i] - '0'); /* saturates: strtod sees 0 or inf anyway */
        if (i == e0)
            return -1;
        if (eneg)
            ex = -ex;
    }
    if (i != n)
        return -1;
    /* digits without the point, then value = int(digits) * 10^e */
    memcpy(dig, s + i0, n_int);
    memcpy(dig + n_int, s + f0, n_frac);
    *e = ex - (int64_t)n_frac;
    size_t a = 0, b = n_int + n_frac;
    while (a < b && dig[a] == '0')
        a++;
    while (b > a && dig[b - 1] == '0')
        b--, (*e)++;
    *nd = (int64_t)(b - a);
    memmove(dig, dig + a, b - a);
    return 0;
}

/* Parse a numeric literal into a tight enclosure. Returns 0, or -1 on bad syntax, -2 on out of
 * range, -3 on out of memory. */
static int parse_number(const char *s, size_t n, double *lo, double *hi)
{
    char small[256], *buf = small;
    if (n + 32 > sizeof small) {
        buf = vfy_alloc(n + 32);
        if (!buf)
            return -3;
    }
    int neg, rc = 0;
    int64_t nd, e;
    if (literal_digits(s, n, &neg, buf, &nd, &e) != 0) {
        rc = -1;
        goto done;
    }
    if (nd == 0) {
        *lo = *hi = 0.0;
        goto done;
    }
    /* canonical text "DDDe<E>" has no decimal point, so strtod is locale-independent here */
    snprintf(buf + nd, 24, "e%lld", (long long)e);
    double v = strtod(buf, NULL);
    if (isinf(v)) {
        rc = -2;
        goto done;
    }
    if (v == 0.0) {
        *lo = 0.0; /* underflow: 0 < r < smallest subnormal */
        *hi = nextafter(0.0, INFINITY);
    } else {
        int c = cmp_double_decimal(v, buf, nd, e);
        /* SOUND: c is the exact sign of v - r, so [lo, hi] contains r and is one ulp wide. */
        *lo = c > 0 ? nextafter(v, -INFINITY) : v;
        *hi = c < 0 ? nextafter(v, INFINITY) : v;
    }
    if (neg) {
        double t = *lo;
        *lo = -*hi;
        *hi = -t;
    }
done:
    if (buf != small)
        vfy_free(buf);
    return rc;
}

/* Sign of a - b for the exact values of two literals, each given as a val's lit (node + 1 of a
 * numeric literal, its syntax checked; negative for the literal's negation): -1, 0 or 1; -2 when
 * out of memory. */
static int literal_cmp(const parser *p, int64_t lit_a, int64_t lit_b)
{
    const node *na = &p->nodes[(lit_a < 0 ? -lit_a : lit_a) - 1];
    const node *nb = &p->nodes[(lit_b < 0 ? -lit_b : lit_b) - 1];
    char *da = vfy_alloc((size_t)na->len + 1), *db = vfy_alloc((size_t)nb->len + 1);
    int neg_a, neg_b, r = -2;
    int64_t la, lb, ea, eb;
    if (da && db && literal_digits(p->text + na->off, na->len, &neg_a, da, &la, &ea) == 0 &&
        literal_digits(p->text + nb->off, nb->len, &neg_b, db, &lb, &eb) == 0) {
        neg_a ^= lit_a < 0;
        neg_b ^= lit_b < 0;
        int ga = la == 0 ? 0 : (neg_a ? -1 : 1), gb = lb == 0 ? 0 : (neg_b ? -1 : 1);
        if (ga != gb)
            r = ga < gb ? -1 : 1;
        else if (ga == 0)
            r = 0;
        else
            r = ga * digits_cmp(da, la, ea, db, lb, eb);
    } else if (da && db) {
        VFY_ASSERT(!"literals were checked when read");
    }
    vfy_free(da);
    vfy_free(db);
    return r;
}

/* ---- directed rounding by error-free transformations ----------------------------------------- */

/* The exact a+b lies in [*dn, *up]. SOUND: TwoSum gives the exact rounding error of a finite sum;
 * non-finite results are rejected by the callers. */
static void add_dir(double a, double b, double *dn, double *up)
{
    double s = a + b;
    if (!isfinite(s)) {
        *dn = *up = s;
        return;
    }
    double bb = s - a;
    double err = (a - (s - bb)) + (b - bb);
    *dn = err < 0 ? nextafter(s, -INFINITY) : s;
    *up = err > 0 ? nextafter(s, INFINITY) : s;
}

/* The exact a*b lies in [*dn, *up]. SOUND: fma gives the exact error of a product unless the
 * product is tiny (error below the subnormal range), where we widen unconditionally. */
static void mul_dir(double a, double b, double *dn, double *up)
{
    double p = a * b;
    if (a == 0 || b == 0) {
        *dn = *up = 0.0;
        return;
    }
    if (fabs(a) == 1 || fabs(b) == 1) {
        *dn = *up = p;
        return;
    }
    if (!isfinite(p) || fabs(p) < 0x1p-960) {
        *dn = isfinite(p) ? nextafter(p, -INFINITY) : p;
        *up = isfinite(p) ? nextafter(p, INFINITY) : p;
        return;
    }
    double err = fma(a, b, -p);
    *dn = err < 0 ? nextafter(p, -INFINITY) : p;
    *up = err > 0 ? nextafter(p, INFINITY) : p;
}

/* The exact a/b (b != 0) lies in [*dn, *up]. SOUND: r = a - q b is exact by fma away from
 * underflow, and a/b - q = r/b has the sign of r*b. */
static void div_dir(double a, double b, double *dn, double *up)
{
    double q = a / b;
    if (a == 0 || fabs(b) == 1) {
        *dn = *up = q + 0.0;
        return;
    }
    if (!isfinite(q) || fabs(q) < 0x1p-960 || fabs(a) < 0x1p-900) {
        *dn = isfinite(q) ? nextafter(q, -INFINITY) : q;
        *up = isfinite(q) ? nextafter(q, INFINITY) : q;
        return;
    }
    double r = fma(-q, b, a);
    int sgn = (r > 0) - (r < 0);
    if (b < 0)
        sgn = -sgn;
    *dn = sgn < 0 ? nextafter(q, -INFINITY) : q;
    *up = sgn > 0 ? nextafter(q, INFINITY) : q;
}

/* [a] * [b] with outward rounding. */
static void imul(double alo, double ahi, double blo, double bhi, double *lo, double *hi)
{
    double d[4], u[4];
    mul_dir(alo, blo, &d[0], &u[0]);
    mul_dir(alo, bhi, &d[1], &u[1]);
    mul_dir(ahi, blo, &d[2], &u[2]);
    mul_dir(ahi, bhi, &d[3], &u[3]);
    *lo = d[0];
    *hi = u[0];
    for (int k = 1; k < 4; k++) {
        if (d[k] < *lo)
            *lo = d[k];
        if (u[k] > *hi)
            *hi = u[k];
    }
}

/* ---- stage 1: lexer and tree ----------------------------------------------------------------- */

static int is_space(unsigned char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v';
}

static vfy_status new_node(parser *p, int64_t off, uint32_t line, uint32_t col, int is_list,
                           int64_t *open, int64_t depth)
{
    if (GROW(p, p->nodes, p->cap_nodes, p->n_nodes + 1))
        return nomem(p);
    node *n = &p->nodes[p->n_nodes];
    memset(n, 0, sizeof *n);
    n->off = off;
    n->size = 1;
    n->line = line;
    n->col = col;
    n->is_list = (uint8_t)is_list;
    if (depth > 0)
        p->nodes[open[depth - 1]].u.n_kids++;
    p->n_nodes++;
    return VFY_OK;
}

static vfy_status build_tree(parser *p)
{
    const unsigned char *s = (const unsigned char *)p->text;
    size_t n = p->len, i = 0;
    uint32_t line = 1, col = 1;
    int64_t depth = 0;
    vfy_status st;
    if (GROW(p, p->stack, p->cap_stack, SPEC_MAX_DEPTH))
        return nomem(p);
    int64_t *open = p->stack;
#define ADV()                                                                 \
    do {                                                                      \
        if (s[i] == '\n') {                                                   \
            if (line < UINT32_MAX)                                            \
                line++;                                                       \
            col = 1;                                                          \
        } else if (col < UINT32_MAX) {                                        \
            col++;                                                            \
        }                                                                     \
        i++;                                                                  \
    } while (0)
    while (i < n) {
        unsigned char ch = s[i];
        if (is_space(ch)) {
            ADV();
        } else if (ch == ';') {
            while (i < n && s[i] != '\n')
                ADV();
        } else if (ch == '(') {
            if (depth == SPEC_MAX_DEPTH)
                return perr_at(p, line, col, VFY_ERR_PARSE, "nesting deeper than %d",
                               SPEC_MAX_DEPTH);
            if ((st = new_node(p, (int64_t)i, line, col, 1, open, depth)) != VFY_OK)
                return st;
            open[depth++] = p->n_nodes - 1;
            ADV();
        } else if (ch == ')') {
            if (depth == 0)
                return perr_at(p, line, col, VFY_ERR_PARSE, "unexpected ')'");
            int64_t k = open[--depth];
            p->nodes[k].size = p->n_nodes - k;
            ADV();
        } else if (ch < 0x20 || ch == 0x7f) {
            return perr_at(p, line, col, VFY_ERR_PARSE, "unexpected character 0x%02x", ch);
        } else {
            size_t i0 = i;
            uint32_t l0 = line, c0 = col;
            if (ch == '"' || ch == '|') { /* string or quoted symbol; "" escapes a quote */
                ADV();
                for (;;) {
                    if (i >= n)
                        return perr_at(p, l0, c0, VFY_ERR_PARSE, "unterminated %s",
                                       ch == '"' ? "string" : "quoted symbol");
                    if (s[i] == ch) {
                        ADV();
                        if (ch == '"' && i < n && s[i] == '"') {
                            ADV();
                            continue;
                        }
                        break;
                    }
                    ADV();
                }
            } else {
                while (i < n && !is_space(s[i]) && s[i] != '(' && s[i] != ')' && s[i] != ';' &&
                       s[i] != '"' && s[i] != '|' && s[i] >= 0x20 && s[i] != 0x7f) {
                    if (s[i] == '[') { /* VNNLIB 2.0 indices and shapes: [1, 5] may hold spaces */
                        uint32_t lb = line, cb = col;
                        ADV();
                        while (i < n && s[i] != ']') {
                            if (s[i] == '(' || s[i] == ')' || s[i] == ';' || s[i] == '"' ||
                                s[i] == '|' || s[i] == '[' || s[i] == 0x7f ||
                                (!is_space(s[i]) && s[i] < 0x20))
                                break;
                            ADV();
                        }
                        if (i >= n || s[i] != ']')
                            return perr_at(p, lb, cb, VFY_ERR_PARSE,
                                           "'[' is never closed (missing ']')");
                    }
                    ADV();
                }
            }
            if (i - i0 > SPEC_MAX_TOKEN)
                return perr_at(p, l0, c0, VFY_ERR_PARSE, "token too long");
            if (depth == 0) {
                char b[TOKBUF];
                size_t k = i - i0 < 40 ? i - i0 : 40;
                for (size_t j = 0; j < k; j++)
                    b[j] = (s[i0 + j] >= 0x20 && s[i0 + j] < 0x7f) ? (char)s[i0 + j] : '?';
                b[k] = '\0';
                return perr_at(p, l0, c0, VFY_ERR_PARSE, "unexpected '%s' outside parentheses",
                               b);
            }
            if ((st = new_node(p, (int64_t)i0, l0, c0, 0, open, depth)) != VFY_OK)
                return st;
            p->nodes[p->n_nodes - 1].len = (uint32_t)(i - i0);
        }
    }
#undef ADV
    p->eof_line = line;
    p->eof_col = col;
    if (depth > 0)
        return PERR(p, open[0], VFY_ERR_PARSE, "'(' is never closed (missing ')' at end of file)");
    return VFY_OK;
}

/* ---- stage 2: declarations ------------------------------------------------------------------- */

/* X_<i> / Y_<i> with a canonical decimal index: sets *is_y and *index; 0 if not such a name. */
static int var_name(const parser *p, int64_t nd, int *is_y, int64_t *index)
{
    const node *n = &p->nodes[nd];
    const char *s = p->text + n->off;
    if (n->is_list || n->len < 3 || (s[0] != 'X' && s[0] != 'Y') || s[1] != '_')
        return 0;
    if (s[2] == '0' && n->len > 3)
        return 0;
    int64_t v = 0;
    for (uint32_t k = 2; k < n->len; k++) {
        if (s[k] < '0' || s[k] > '9' || v > SPEC_MAX_INDEX)
            return 0;
        v = v * 10 + (s[k] - '0');
    }
    if (v > SPEC_MAX_INDEX)
        return 0;
    *is_y = s[0] == 'Y';
    *index = v;
    return 1;
}

static int decl_cmp(const void *a, const void *b)
{
    const decl *x = a, *y = b;
    if (x->index != y->index)
        return x->index < y->index ? -1 : 1;
    return x->node < y->node ? -1 : (x->node > y->node);
}

/* Sort the declarations of one kind; check for duplicates and gaps; *n = count. */
static vfy_status check_decls(parser *p, decl *d, int64_t nd, char kind, int64_t *n)
{
    if (nd > 1)
        qsort(d, (size_t)nd, sizeof *d, decl_cmp);
    for (int64_t k = 0; k < nd; k++) {
        if (k > 0 && d[k].index == d[k - 1].index)
            return PERR(p, d[k].node, VFY_ERR_INVALID, "%c_%lld is declared twice", kind,
                        (long long)d[k].index);
        if (d[k].index != k)
            return PERR(p, d[k].node, VFY_ERR_INVALID,
                        "%c_%lld is declared but %c_%lld is not (indices must be 0..n-1)", kind,
                        (long long)d[k].index, kind, (long long)k);
    }
    *n = nd;
    return VFY_OK;
}

/* ---- VNNLIB 2.0 declarations ----------------------------------------------------------------- */

/* A VNNLIB 2.0 variable or network name: a letter, then letters, digits and underscores. */
static int is_ident(const char *s, size_t n)
{
    if (n == 0 || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
        return 0;
    for (size_t k = 1; k < n; k++)
        if (!((s[k] >= 'a' && s[k] <= 'z') || (s[k] >= 'A' && s[k] <= 'Z') ||
              (s[k] >= '0' && s[k] <= '9') || s[k] == '_'))
            return 0;
    return 1;
}

/* "[d_0, d_1, ...]" (n bytes from the '[' to the ']', spaces around the numbers allowed) into v;
 * *count receives the number of entries ("[]": 0). 0, or -1 when malformed, -2 when there are more
 * than max entries, -3 when an entry exceeds SPEC_MAX_INDEX. */
static int parse_index_list(const char *s, size_t n, int64_t *v, int max, int *count)
{
    if (n < 2 || s[0] != '[' || s[n - 1] != ']')
        return -1;
    size_t k = 1, end = n - 1;
    *count = 0;
    while (k < end && is_space((unsigned char)s[k]))
        k++;
    if (k == end)
        return 0;
    for (;;) {
        while (k < end && is_space((unsigned char)s[k]))
            k++;
        if (k == end || s[k] < '0' || s[k] > '9')
            return -1;
        int64_t x = 0;
        while (k < end && s[k] >= '0' && s[k] <= '9') {
            if (x > SPEC_MAX_INDEX)
                return -3;
            x = x * 10 + (s[k++] - '0');
        }
        if (x > SPEC_MAX_INDEX)
            return -3;
        if (*count == max)
            return -2;
        v[(*count)++] = x;
        while (k < end && is_space((unsigned char)s[k]))
            k++;
        if (k == end)
            return 0;
        if (s[k++] != ',')
            return -1;
    }
}

/* The element types whose values verify's analysis covers: the reals, and the float32 and float64
 * values among them (a counterexample is a float32 point, which both hold). ONNX's own names for
 * the two, float and double, are read as float32 and float64 (the names a result file uses). */
static const char *real_type(const parser *p, int64_t nd)
{
    static const char *const names[][2] = {{"Real", "Real"}, {"real", "real"},
                                           {"float32", "float32"}, {"float64", "float64"},
                                           {"float", "float32"}, {"double", "float64"}};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (tok_is(p, nd, names[k][0]))
            return names[k][1];
    return NULL;
}

/* (declare-input NAME TYPE [SHAPE] ["onnx-name"]) or declare-output, the list at node i. */
static vfy_status declare_tensor(parser *p, int64_t i, tensor_decl *t)
{
    char b[TOKBUF], what[20];
    const node *n = &p->nodes[i];
    int64_t h = i + 1;
    snprintf(what, sizeof what, "%s", tok(p, h, b, sizeof b));
    if (n->u.n_kids != 4 && n->u.n_kids != 5)
        return PERR(p, i, VFY_ERR_PARSE, "%s expects a name, an element type, a shape [d, ...] "
                    "and optionally an ONNX name", what);
    int64_t at[4] = {-1, -1, -1, -1};
    for (int64_t k = h + 1, j = 0; k < i + n->size; k += p->nodes[k].size, j++) {
        if (p->nodes[k].is_list)
            return PERR(p, k, VFY_ERR_PARSE, "%s: unexpected list", what);
        at[j] = k;
    }
    const node *nm = &p->nodes[at[0]];
    if (!is_ident(p->text + nm->off, nm->len))
        return PERR(p, at[0], VFY_ERR_PARSE, "%s: bad name '%s' (a letter, then letters, digits "
                    "and underscores)", what, tok(p, at[0], b, sizeof b));
    if (!(t->type_name = real_type(p, at[1])))
        return PERR(p, at[1], VFY_ERR_UNSUPPORTED, "element type '%s' is not supported (Real, "
                    "float32 and float64 are)", tok(p, at[1], b, sizeof b));
    const node *sh = &p->nodes[at[2]];
    int rc = parse_index_list(p->text + sh->off, sh->len, t->shape, VFY_SPEC_MAX_RANK, &t->rank);
    if (rc == -2)
        return PERR(p, at[2], VFY_ERR_UNSUPPORTED, "shape '%s' has more than %d dimensions",
                    tok(p, at[2], b, sizeof b), VFY_SPEC_MAX_RANK);
    if (rc != 0)
        return PERR(p, at[2], VFY_ERR_PARSE, "bad shape '%s' (expected [d, ...] of sizes)",
                    tok(p, at[2], b, sizeof b));
    t->size = 1;
    for (int k = 0; k < t->rank; k++) {
        if (t->shape[k] < 1)
            return PERR(p, at[2], VFY_ERR_INVALID, "shape '%s' has a dimension of size 0",
                        tok(p, at[2], b, sizeof b));
        if (t->size > SPEC_MAX_INDEX / t->shape[k])
            return PERR(p, at[2], VFY_ERR_UNSUPPORTED, "shape '%s' has too many elements",
                        tok(p, at[2], b, sizeof b));
        t->size *= t->shape[k];
    }
    if (at[3] >= 0 && p->text[p->nodes[at[3]].off] != '"')
        return PERR(p, at[3], VFY_ERR_PARSE, "%s: expected the ONNX name as a string, found '%s'",
                    what, tok(p, at[3], b, sizeof b));
    t->name = at[0];
    t->type = at[1];
    t->onnx = at[3];
    return VFY_OK;
}

static int same_atom(const parser *p, int64_t a, int64_t b)
{
    const node *x = &p->nodes[a], *y = &p->nodes[b];
    return x->len == y->len && memcmp(p->text + x->off, p->text + y->off, x->len) == 0;
}

/* Whether the atom at node nd names one of the tensors declared so far (every network's, and
 * net's own). */
static int tensor_declared(const parser *p, const net_decl *net, int64_t nd)
{
    for (int64_t k = 0; k <= p->n_nets; k++) {
        const net_decl *q = k < p->n_nets ? &p->nets[k] : net;
        for (int j = 0; j < q->n_in; j++)
            if (same_atom(p, q->tin[j].name, nd))
                return 1;
        for (int j = 0; j < q->n_out; j++)
            if (same_atom(p, q->tout[j].name, nd))
                return 1;
    }
    return 0;
}

/* (equal-to N) or (isomorphic-to N) in network net, the list at node k: N must be a network
 * declared before it. */
static vfy_status network_relation(parser *p, int64_t k, net_decl *net)
{
    char b[TOKBUF];
    int64_t h = k + 1, target = h + 1;
    if (net->rel != VFY_SPEC_OWN)
        return PERR(p, k, VFY_ERR_INVALID, "a network is related to one other network at most "
                    "(a second %s)", tok(p, h, b, sizeof b));
    if (net->n_in || net->n_out)
        return PERR(p, k, VFY_ERR_PARSE, "%s comes before the network's declare-input",
                    tok(p, h, b, sizeof b));
    if (p->nodes[k].u.n_kids != 2 || p->nodes[target].is_list)
        return PERR(p, k, VFY_ERR_PARSE, "%s expects the name of a network",
                    tok(p, h, b, sizeof b));
    for (int64_t q = 0; q < p->n_nets; q++)
        if (same_atom(p, p->nets[q].name, target)) {
            net->rel = tok_is(p, h, "equal-to") ? VFY_SPEC_EQUAL_TO : VFY_SPEC_ISOMORPHIC_TO;
            net->rel_to = q;
            return VFY_OK;
        }
    char b2[TOKBUF];
    return PERR(p, target, VFY_ERR_INVALID, "%s: no network '%s' is declared before this one",
                tok(p, h, b, sizeof b), tok(p, target, b2, sizeof b2));
}

/* (declare-network NAME [(equal-to N) | (isomorphic-to N)] (declare-input ...) ... (declare-output
 * ...) ...), the list at node i: one or more inputs, then one or more outputs. They stand for the
 * ONNX model's graph inputs and outputs in order or, when every one of them gives an ONNX name,
 * by name (the VNNLIB 2.0 standard: all named or none, when there are several). */
static vfy_status declare_network(parser *p, int64_t i)
{
    char b[TOKBUF];
    const node *n = &p->nodes[i];
    int64_t nm = i + 2;
    if (n->u.n_kids < 2 || p->nodes[nm].is_list)
        return PERR(p, i, VFY_ERR_PARSE, "declare-network expects a name and declarations");
    if (!is_ident(p->text + p->nodes[nm].off, p->nodes[nm].len))
        return PERR(p, nm, VFY_ERR_PARSE, "bad network name '%s'", tok(p, nm, b, sizeof b));
    if (p->n_dx || p->n_dy)
        return PERR(p, i, VFY_ERR_PARSE, "declare-network cannot be mixed with VNNLIB 1 "
                    "declarations (declare-const)");
    for (int64_t q = 0; q < p->n_nets; q++)
        if (same_atom(p, p->nets[q].name, nm))
            return PERR(p, nm, VFY_ERR_INVALID, "network '%s' is declared twice",
                        tok(p, nm, b, sizeof b));
    p->v2 = 1;
    net_decl net = {.name = nm, .rel = VFY_SPEC_OWN, .rel_to = -1};
    for (int64_t k = nm + 1; k < i + n->size; k += p->nodes[k].size) {
        const node *d = &p->nodes[k];
        int64_t h = k + 1;
        if (!d->is_list || d->u.n_kids == 0 || p->nodes[h].is_list)
            return PERR(p, k, VFY_ERR_PARSE, "expected a declaration such as (declare-input ...)");
        int is_hidden = tok_is(p, h, "declare-hidden");
        if (tok_is(p, h, "declare-input") || tok_is(p, h, "declare-output") || is_hidden) {
            int is_in = tok_is(p, h, "declare-input");
            int *count = is_in ? &net.n_in : &net.n_out;
            if (*count == VFY_SPEC_MAX_IO)
                return PERR(p, k, VFY_ERR_UNSUPPORTED, "more than %d %ss in one network",
                            VFY_SPEC_MAX_IO, is_in ? "input" : "output and hidden node");
            if (is_in && net.n_out)
                return PERR(p, k, VFY_ERR_PARSE, "declare-input after declare-%s (inputs are "
                            "declared first)", net.tout[net.n_out - 1].hidden ? "hidden"
                                                                               : "output");
            if (is_hidden && net.n_out && !net.tout[net.n_out - 1].hidden)
                return PERR(p, k, VFY_ERR_PARSE, "declare-hidden after declare-output (hidden "
                            "nodes are declared before the outputs)");
            tensor_decl *t = is_in ? &net.tin[*count] : &net.tout[*count];
            vfy_status st = declare_tensor(p, k, t);
            if (st != VFY_OK)
                return st;
            t->hidden = is_hidden;
            if (is_hidden && t->onnx < 0)
                return PERR(p, k, VFY_ERR_PARSE, "declare-hidden needs the name of the ONNX "
                            "value it stands for");
            if (tensor_declared(p, &net, t->name))
                return PERR(p, t->name, VFY_ERR_INVALID, "'%s' is declared twice",
                            tok(p, t->name, b, sizeof b));
            int64_t *total = is_in ? &net.n_x : &net.n_y;
            if (*total > SPEC_MAX_INDEX - t->size)
                return PERR(p, k, VFY_ERR_UNSUPPORTED, "the network's %ss have too many "
                            "elements", is_in ? "input" : "output");
            *total += t->size;
            (*count)++;
        } else if (tok_is(p, h, "equal-to") || tok_is(p, h, "isomorphic-to")) {
            vfy_status st = network_relation(p, k, &net);
            if (st != VFY_OK)
                return st;
        } else {
            return PERR(p, h, VFY_ERR_PARSE, "unknown declaration '%s' in declare-network",
                        tok(p, h, b, sizeof b));
        }
    }
    if (!net.n_in)
        return PERR(p, i, VFY_ERR_INVALID, "network '%s' declares no input",
                    tok(p, nm, b, sizeof b));
    int named = 0, n_hidden = 0;
    for (int j = 0; j < net.n_in; j++)
        named += net.tin[j].onnx >= 0;
    for (int j = 0; j < net.n_out; j++) {
        n_hidden += net.tout[j].hidden;
        named += net.tout[j].onnx >= 0 && !net.tout[j].hidden;
    }
    int n_io = net.n_in + net.n_out - n_hidden;
    if (net.n_out == n_hidden)
        return PERR(p, i, VFY_ERR_INVALID, "network '%s' declares no output",
                    tok(p, nm, b, sizeof b));
    if (n_io > 2 && named && named != n_io)
        return PERR(p, i, VFY_ERR_INVALID, "network '%s' gives ONNX names to %d of its %d inputs "
                    "and outputs: name all of them (matched by name) or none (matched by order)",
                    tok(p, nm, b, sizeof b), named, n_io);
    net.x_off = p->n_nets ? p->nets[p->n_nets - 1].x_off + p->nets[p->n_nets - 1].n_x : 0;
    net.y_off = p->n_nets ? p->nets[p->n_nets - 1].y_off + p->nets[p->n_nets - 1].n_y : 0;
    if (net.x_off > SPEC_MAX_INDEX - net.n_x || net.y_off > SPEC_MAX_INDEX - net.n_y)
        return PERR(p, i, VFY_ERR_UNSUPPORTED, "the networks' tensors have too many elements");
    if (GROW(p, p->nets, p->cap_nets, p->n_nets + 1))
        return nomem(p);
    p->nets[p->n_nets++] = net;
    return VFY_OK;
}

/* (vnnlib-version <2.0>), also written 2.0: the major version must be 2. */
static vfy_status check_version(parser *p, int64_t i)
{
    char b[TOKBUF];
    int64_t v = i + 2;
    if (p->nodes[i].u.n_kids != 2 || p->nodes[v].is_list)
        return PERR(p, i, VFY_ERR_PARSE, "vnnlib-version expects one version, e.g. <2.0>");
    const char *s = p->text + p->nodes[v].off;
    size_t len = p->nodes[v].len;
    if (len >= 2 && s[0] == '<' && s[len - 1] == '>')
        s++, len -= 2;
    /* "2", or "2." and at least one digit */
    int ok = len >= 1 && s[0] == '2' && (len == 1 || (len > 2 && s[1] == '.'));
    for (size_t q = 2; ok && q < len; q++)
        ok = s[q] >= '0' && s[q] <= '9';
    if (!ok)
        return PERR(p, v, VFY_ERR_UNSUPPORTED, "VNNLIB version '%s' is not supported (2.x is; "
                    "VNNLIB 1 files have no version line)", tok(p, v, b, sizeof b));
    return VFY_OK;
}

/* X[i_0,...] (or the bare name of a one-element tensor) in a VNNLIB 2.0 query: 1 with *is_y and
 * *index (the row-major offset) set; 0 when nd names no declared tensor; -1 on an error (*st). */
static int tensor_ref(parser *p, int64_t nd, int *is_y, int64_t *index, vfy_status *st)
{
    char b[TOKBUF];
    const node *n = &p->nodes[nd];
    const char *s = p->text + n->off;
    size_t base = 0;
    while (base < n->len && s[base] != '[')
        base++;
    const tensor_decl *t = NULL;
    int64_t off = 0;
    for (int64_t q = 0; q < p->n_nets && !t; q++)
        for (int k = 0; k < 2 && !t; k++) {
            const net_decl *nq = &p->nets[q];
            int64_t o = k ? nq->y_off : nq->x_off;
            for (int j = 0; j < (k ? nq->n_out : nq->n_in) && !t; j++) {
                const tensor_decl *c = k ? &nq->tout[j] : &nq->tin[j];
                const node *nm = &p->nodes[c->name];
                if (nm->len == base && memcmp(p->text + nm->off, s, base) == 0)
                    t = c, *is_y = k, off = o;
                o += c->size;
            }
        }
    if (!t)
        return 0;
    if (base == n->len) {
        if (t->size != 1) {
            *st = PERR(p, nd, VFY_ERR_INVALID, "'%s' is a tensor of %lld elements: name one "
                       "element, e.g. %s[%s]", tok(p, nd, b, sizeof b), (long long)t->size,
                       tok(p, nd, b, sizeof b), t->rank > 1 ? "0,..." : "0");
            return -1;
        }
        *index = off;
        return 1;
    }
    int64_t idx[VFY_SPEC_MAX_RANK];
    int r;
    int rc = parse_index_list(s + base, n->len - base, idx, VFY_SPEC_MAX_RANK, &r);
    if (rc == -1) {
        *st = PERR(p, nd, VFY_ERR_PARSE, "bad index in '%s' (expected %.*s[i, ...])",
                   tok(p, nd, b, sizeof b), (int)(base < 30 ? base : 30), s);
        return -1;
    }
    if (rc != 0 || r != t->rank) {
        *st = PERR(p, nd, VFY_ERR_INVALID, "'%s' needs %d ind%s (its tensor has rank %d)",
                   tok(p, nd, b, sizeof b), t->rank, t->rank == 1 ? "ex" : "ices", t->rank);
        return -1;
    }
    int64_t flat = 0;
    for (int k = 0; k < r; k++) {
        if (idx[k] >= t->shape[k]) {
            *st = PERR(p, nd, VFY_ERR_INVALID, "'%s': index %lld is out of range for dimension "
                       "%d of size %lld", tok(p, nd, b, sizeof b), (long long)idx[k], k,
                       (long long)t->shape[k]);
            return -1;
        }
        flat = flat * t->shape[k] + idx[k];
    }
    *index = off + flat;
    return 1;
}

/* X_i's name for messages: "X_i", or in a VNNLIB 2.0 query its element, e.g. "X[0,3]". */
static const char *x_label(const parser *p, int64_t i, char *buf, size_t cap)
{
    if (!p->v2) {
        snprintf(buf, cap, "X_%lld", (long long)i);
        return buf;
    }
    int64_t off;
    const tensor_decl *t = tensor_at(p->nets, p->n_nets, 0, i, &off);
    const node *nm = &p->nodes[t->name];
    i -= off;
    int64_t idx[VFY_SPEC_MAX_RANK];
    for (int k = t->rank - 1; k >= 0; k--) {
        idx[k] = i % t->shape[k];
        i /= t->shape[k];
    }
    size_t o = (size_t)snprintf(buf, cap, "%.*s", (int)(nm->len < 40 ? nm->len : 40),
                                p->text + nm->off);
    for (int k = 0; k < t->rank && o < cap; k++)
        o += (size_t)snprintf(buf + o, cap - o, "%c%lld%s", k ? ',' : '[', (long long)idx[k],
                              k + 1 == t->rank ? "]" : "");
    return buf;
}

static vfy_status collect_decls(parser *p)
{
    char b[TOKBUF];
    for (int64_t i = 0; i < p->n_nodes; i += p->nodes[i].size) {
        node *n = &p->nodes[i];
        VFY_ASSERT(n->is_list);
        if (n->u.n_kids == 0)
            return PERR(p, i, VFY_ERR_PARSE, "empty command '()'");
        int64_t h = i + 1;
        if (p->nodes[h].is_list)
            return PERR(p, h, VFY_ERR_PARSE, "expected a command name");
        int is_fun = tok_is(p, h, "declare-fun");
        if ((tok_is(p, h, "declare-const") || is_fun) && p->v2) {
            return PERR(p, h, VFY_ERR_PARSE, "%s cannot be mixed with declare-network",
                        is_fun ? "declare-fun" : "declare-const");
        } else if (tok_is(p, h, "declare-const") || is_fun) {
            int64_t want = is_fun ? 4 : 3;
            if (n->u.n_kids != want)
                return PERR(p, i, VFY_ERR_PARSE, "%s expects a name and a sort",
                            is_fun ? "declare-fun" : "declare-const");
            int64_t nm = h + 1, sort = nm + 1;
            if (is_fun) {
                if (!p->nodes[sort].is_list || p->nodes[sort].u.n_kids != 0)
                    return PERR(p, sort, VFY_ERR_UNSUPPORTED,
                                "declare-fun with arguments is not supported");
                sort++;
            }
            if (p->nodes[nm].is_list)
                return PERR(p, nm, VFY_ERR_PARSE, "expected a variable name");
            if (!tok_is(p, sort, "Real"))
                return PERR(p, sort, VFY_ERR_UNSUPPORTED, "variable sort must be Real");
            int is_y;
            int64_t index;
            if (!var_name(p, nm, &is_y, &index))
                return PERR(p, nm, VFY_ERR_INVALID,
                            "unsupported variable name '%s' (expected X_<i> or Y_<i>)",
                            tok(p, nm, b, sizeof b));
            if (is_y) {
                if (GROW(p, p->dy, p->cap_dy, p->n_dy + 1))
                    return nomem(p);
                p->dy[p->n_dy++] = (decl){index, nm};
            } else {
                if (GROW(p, p->dx, p->cap_dx, p->n_dx + 1))
                    return nomem(p);
                p->dx[p->n_dx++] = (decl){index, nm};
            }
        } else if (tok_is(p, h, "assert")) {
            if (n->u.n_kids != 2)
                return PERR(p, i, VFY_ERR_PARSE, "assert expects exactly one formula");
            if (p->first_assert < 0)
                p->first_assert = i;
        } else if (tok_is(p, h, "declare-network")) {
            vfy_status st = declare_network(p, i);
            if (st != VFY_OK)
                return st;
        } else if (tok_is(p, h, "vnnlib-version")) {
            vfy_status st = check_version(p, i);
            if (st != VFY_OK)
                return st;
        } else if (tok_is(p, h, "set-logic") || tok_is(p, h, "set-info") ||
                   tok_is(p, h, "set-option") || tok_is(p, h, "check-sat") ||
                   tok_is(p, h, "get-model") || tok_is(p, h, "exit")) {
            /* SMT-LIB commands without meaning for the property: ignored */
        } else {
            return PERR(p, h, VFY_ERR_PARSE, "unknown command '%s'", tok(p, h, b, sizeof b));
        }
    }
    vfy_status st;
    if (p->v2) {
        const net_decl *last = &p->nets[p->n_nets - 1];
        p->n_x = last->x_off + last->n_x;
        p->n_y = last->y_off + last->n_y;
        /* Every input element needs bounds, and each bound names it (4 bytes at least: X[0]):
         * shapes the text cannot bound are refused before n_x-sized arrays are allocated. */
        if (p->n_x > (int64_t)(p->len / 4))
            return PERR(p, last->tin[last->n_in - 1].name, VFY_ERR_INVALID, "the inputs have "
                        "%lld elements, more than this %zu-byte query can bound",
                        (long long)p->n_x, p->len);
    } else if ((st = check_decls(p, p->dx, p->n_dx, 'X', &p->n_x)) != VFY_OK ||
               (st = check_decls(p, p->dy, p->n_dy, 'Y', &p->n_y)) != VFY_OK) {
        return st;
    }
    if (p->n_x == 0)
        return perr_at(p, p->eof_line, p->eof_col, VFY_ERR_INVALID,
                       "no input variable declared (expected X_0 ...)");
    if (p->n_y == 0)
        return perr_at(p, p->eof_line, p->eof_col, VFY_ERR_INVALID,
                       "no output variable declared (expected Y_0 ...)");
    p->x_decl = vfy_alloc_array((size_t)p->n_x, sizeof *p->x_decl);
    if (!p->x_decl)
        return nomem(p);
    for (int64_t k = 0; k < p->n_x; k++) {
        int64_t off;
        p->x_decl[k] = p->v2 ? tensor_at(p->nets, p->n_nets, 0, k, &off)->name : p->dx[k].node;
    }
    return VFY_OK;
}

/* ---- stage 3a: forward pass (roles, names, literals) ----------------------------------------- */

static vfy_status forward(parser *p, int64_t root)
{
    char b[TOKBUF];
    p->nodes[root].op = OP_FORMULA;
    for (int64_t i = root, end = root + p->nodes[root].size; i < end; i++) {
        node *n = &p->nodes[i];
        if (n->op == OP_HEAD)
            continue;
        VFY_ASSERT(n->op == OP_FORMULA || n->op == OP_TERM);
        if (!n->is_list) {
            if (n->op == OP_FORMULA) {
                if (tok_is(p, i, "true"))
                    n->op = OP_TRUE;
                else if (tok_is(p, i, "false"))
                    n->op = OP_FALSE;
                else
                    return PERR(p, i, VFY_ERR_PARSE, "expected a formula, found '%s'",
                                tok(p, i, b, sizeof b));
                continue;
            }
            const char *s = p->text + n->off;
            int is_y, ref = 0;
            int64_t index;
            if (p->v2) {
                vfy_status st = VFY_OK;
                if ((ref = tensor_ref(p, i, &is_y, &index, &st)) < 0)
                    return st;
            }
            if (ref) {
                n->op = OP_VAR;
                n->u.var = 2 * index + is_y;
            } else if (!p->v2 && var_name(p, i, &is_y, &index)) {
                if (index >= (is_y ? p->n_y : p->n_x))
                    return PERR(p, i, VFY_ERR_INVALID, "undeclared variable '%s'",
                                tok(p, i, b, sizeof b));
                n->op = OP_VAR;
                n->u.var = 2 * index + is_y;
            } else if ((s[0] >= '0' && s[0] <= '9') || s[0] == '-' || s[0] == '+' || s[0] == '.') {
                double lo, hi;
                int rc = parse_number(s, n->len, &lo, &hi);
                if (rc == -3)
                    return nomem(p);
                if (rc == -1)
                    return PERR(p, i, VFY_ERR_PARSE, "bad number '%s'", tok(p, i, b, sizeof b));
                if (rc == -2)
                    return PERR(p, i, VFY_ERR_UNSUPPORTED, "number out of range '%s'",
                                tok(p, i, b, sizeof b));
                n->op = OP_NUM;
                n->u.num[0] = lo;
                n->u.num[1] = hi;
            } else if (s[0] == 'X' || s[0] == 'Y' ||
                       (p->v2 && ((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))) {
                return PERR(p, i, VFY_ERR_INVALID, "undeclared variable '%s'",
                            tok(p, i, b, sizeof b));
            } else {
                return PERR(p, i, VFY_ERR_PARSE, "expected a number or a variable, found '%s'",
                            tok(p, i, b, sizeof b));
            }
            continue;
        }
        if (n->u.n_kids == 0)
            return PERR(p, i, VFY_ERR_PARSE, "empty list '()'");
        int64_t h = i + 1;
        if (p->nodes[h].is_list)
            return PERR(p, h, VFY_ERR_PARSE, "expected an operator name");
        int op = OP_NONE, kid_role, min_args;
        if (n->op == OP_FORMULA) {
            /* Strict comparisons (and a disequality, a < b or a > b) keep their strictness for
             * counterexamples only: a proof reads them as non-strict, SOUND as VNNLIB states the
             * unsafe set, which only grows (vfy_row.strict, make_atom). */
            if (tok_is(p, h, "and"))
                op = OP_AND;
            else if (tok_is(p, h, "or"))
                op = OP_OR;
            else if (tok_is(p, h, "<="))
                op = OP_LE;
            else if (tok_is(p, h, "<"))
                op = OP_LT;
            else if (tok_is(p, h, ">="))
                op = OP_GE;
            else if (tok_is(p, h, ">"))
                op = OP_GT;
            else if (tok_is(p, h, "=") || tok_is(p, h, "=="))
                op = OP_EQ;
            else if (tok_is(p, h, "!=") || tok_is(p, h, "distinct"))
                op = OP_NE;
            kid_role = (op == OP_AND || op == OP_OR) ? OP_FORMULA : OP_TERM;
            min_args = (op == OP_AND || op == OP_OR) ? 1 : 2;
            if (op == OP_NE && n->u.n_kids != 3)
                return PERR(p, i, VFY_ERR_UNSUPPORTED, "'%s' is supported with two arguments",
                            tok(p, h, b, sizeof b));
        } else {
            if (tok_is(p, h, "+"))
                op = OP_ADD;
            else if (tok_is(p, h, "-"))
                op = OP_SUB;
            else if (tok_is(p, h, "*"))
                op = OP_MUL;
            kid_role = OP_TERM;
            min_args = 1;
        }
        if (op == OP_NONE)
            return PERR(p, h, VFY_ERR_PARSE, "unknown function '%s'", tok(p, h, b, sizeof b));
        if (n->u.n_kids - 1 < min_args)
            return PERR(p, i, VFY_ERR_PARSE, "'%s' expects at least %d argument%s",
                        tok(p, h, b, sizeof b), min_args, min_args > 1 ? "s" : "");
        n->op = (uint8_t)op;
        p->nodes[h].op = OP_HEAD;
        for (int64_t k = h + p->nodes[h].size; k < i + n->size; k += p->nodes[k].size)
            p->nodes[k].op = (uint8_t)kid_role;
    }
    return VFY_OK;
}

/* ---- stage 3b: values ------------------------------------------------------------------------ */

static void val_free(val *x)
{
    vfy_free(x->lins);
    vfy_free(x->ids);
    x->lins = NULL;
    x->ids = NULL;
}

static vfy_status push(parser *p, const val *x)
{
    if (GROW(p, p->vals, p->cap_vals, p->n_vals + 1))
        return nomem(p);
    p->vals[p->n_vals++] = *x;
    return VFY_OK;
}

/* Pop m values (they are owned by the caller's result or freed). */
static void drop(parser *p, int64_t m)
{
    for (int64_t k = 0; k < m; k++)
        val_free(&p->vals[p->n_vals - 1 - k]);
    p->n_vals -= m;
}

static int lin_cmp(const void *a, const void *b)
{
    const lin *x = a, *y = b;
    return x->v < y->v ? -1 : (x->v > y->v);
}

/* Sort the lins of t by variable, add equal ones (exactly) and drop zeros. */
static vfy_status normalise(parser *p, int64_t nd, val *t)
{
    if (t->n <= 1) {
        if (t->n == 1 && VAL_LINS(t)[0].c == 0)
            t->n = 0;
        return VFY_OK;
    }
    lin *l = t->lins;
    qsort(l, (size_t)t->n, sizeof *l, lin_cmp);
    int64_t k = 0;
    for (int64_t j = 0; j < t->n; j++) {
        if (k > 0 && l[k - 1].v == l[j].v) {
            double dn, up;
            add_dir(l[k - 1].c, l[j].c, &dn, &up);
            if (dn != up || !isfinite(dn))
                return PERR(p, nd, VFY_ERR_UNSUPPORTED,
                            "a coefficient of this term is not exactly representable");
            l[k - 1].c = dn;
        } else {
            l[k++] = l[j];
        }
    }
    int64_t m = 0;
    for (int64_t j = 0; j < k; j++)
        if (l[j].c != 0)
            l[m++] = l[j];
    t->n = m;
    return VFY_OK;
}

static vfy_status check_finite(parser *p, int64_t nd, double lo, double hi)
{
    if (!isfinite(lo) || !isfinite(hi))
        return PERR(p, nd, VFY_ERR_UNSUPPORTED, "constant out of range");
    return VFY_OK;
}

/* Sum of terms with signs: out = sum_k sg[k] * args[k]. args are not consumed. */
static vfy_status term_sum(parser *p, int64_t nd, val *const *args, const int *sg, int64_t m,
                           val *out)
{
    memset(out, 0, sizeof *out);
    int64_t total = 0;
    for (int64_t k = 0; k < m; k++)
        total += args[k]->n;
    lin *dst = &out->one;
    if (total > 1) {
        out->lins = vfy_alloc_array((size_t)total, sizeof *out->lins);
        if (!out->lins)
            return nomem(p);
        out->cap = total;
        dst = out->lins;
    }
    double lo = 0, hi = 0;
    int64_t j = 0;
    for (int64_t k = 0; k < m; k++) {
        const lin *l = VAL_LINS(args[k]);
        for (int64_t q = 0; q < args[k]->n; q++)
            dst[j++] = (lin){l[q].v, sg[k] > 0 ? l[q].c : -l[q].c};
        double alo = sg[k] > 0 ? args[k]->lo : -args[k]->hi;
        double ahi = sg[k] > 0 ? args[k]->hi : -args[k]->lo;
        double t;
        add_dir(lo, alo, &lo, &t);
        add_dir(hi, ahi, &t, &hi);
    }
    out->n = total;
    out->lo = lo + 0.0;
    out->hi = hi + 0.0;
    vfy_status st = check_finite(p, nd, out->lo, out->hi);
    if (st == VFY_OK)
        st = normalise(p, nd, out);
    if (st != VFY_OK)
        val_free(out);
    return st;
}

static vfy_status eval_arith(parser *p, int64_t nd)
{
    node *n = &p->nodes[nd];
    int64_t m = n->u.n_kids - 1;
    val *args[2], **a = args, res;
    int *sg = NULL, sg2[2];
    vfy_status st = VFY_OK;
    if (m > 2) {
        a = vfy_alloc_array((size_t)m, sizeof *a);
        sg = vfy_alloc_array((size_t)m, sizeof *sg);
        if (!a || !sg) {
            st = nomem(p);
            goto fail;
        }
    } else {
        sg = sg2;
    }
    for (int64_t k = 0; k < m; k++) {
        a[k] = &p->vals[p->n_vals - 1 - k];
        VFY_ASSERT(!a[k]->is_dnf);
    }
    if (n->op == OP_ADD || n->op == OP_SUB) {
        for (int64_t k = 0; k < m; k++)
            sg[k] = (n->op == OP_SUB && (k > 0 || m == 1)) ? -1 : 1;
        if ((st = term_sum(p, nd, a, sg, m, &res)) != VFY_OK)
            goto fail;
        if (m == 1 && a[0]->n == 0) /* (- c), (+ c): still exactly a literal, or its negation */
            res.lit = sg[0] * a[0]->lit;
    } else {
        int64_t var_arg = -1;
        double klo = 1, khi = 1;
        for (int64_t k = 0; k < m; k++) {
            if (a[k]->n > 0) {
                if (var_arg >= 0) {
                    st = PERR(p, nd, VFY_ERR_UNSUPPORTED,
                              "non-linear product (only constant * term is supported)");
                    goto fail;
                }
                var_arg = k;
            } else {
                imul(klo, khi, a[k]->lo, a[k]->hi, &klo, &khi);
            }
        }
        if ((st = check_finite(p, nd, klo, khi)) != VFY_OK)
            goto fail;
        if (var_arg < 0) {
            memset(&res, 0, sizeof res);
            res.lo = klo + 0.0;
            res.hi = khi + 0.0;
        } else {
            if (klo != khi) {
                st = PERR(p, nd, VFY_ERR_UNSUPPORTED,
                          "the coefficient of a variable must be exactly representable");
                goto fail;
            }
            int one = 1;
            val *t = a[var_arg];
            if ((st = term_sum(p, nd, &t, &one, 1, &res)) != VFY_OK)
                goto fail;
            lin *l = VAL_LINS(&res);
            for (int64_t q = 0; q < res.n; q++) {
                double dn, up;
                mul_dir(l[q].c, klo, &dn, &up);
                if (dn != up || !isfinite(dn)) {
                    val_free(&res);
                    st = PERR(p, nd, VFY_ERR_UNSUPPORTED,
                              "a coefficient of this term is not exactly representable");
                    goto fail;
                }
                l[q].c = dn;
            }
            imul(res.lo, res.hi, klo, klo, &res.lo, &res.hi);
            res.lo += 0.0;
            res.hi += 0.0;
            if ((st = check_finite(p, nd, res.lo, res.hi)) != VFY_OK ||
                (st = normalise(p, nd, &res)) != VFY_OK) {
                val_free(&res);
                goto fail;
            }
        }
    }
    drop(p, m);
    st = push(p, &res);
    if (st != VFY_OK)
        val_free(&res);
fail:
    if (a != args)
        vfy_free(a);
    if (sg != sg2)
        vfy_free(sg);
    return st;
}

/* ---- ropes ----------------------------------------------------------------------------------- */

static vfy_status rope_new(parser *p, int64_t a, int64_t b, int64_t count, int64_t *out)
{
    if (GROW(p, p->ropes, p->cap_ropes, p->n_ropes + 1))
        return nomem(p);
    p->ropes[p->n_ropes] = (rope){a, b, count};
    *out = p->n_ropes++;
    return VFY_OK;
}

static vfy_status rope_cat(parser *p, int64_t a, int64_t b, int64_t *out)
{
    if (p->ropes[a].count == 0) {
        *out = b;
        return VFY_OK;
    }
    if (p->ropes[b].count == 0) {
        *out = a;
        return VFY_OK;
    }
    return rope_new(p, a, b, p->ropes[a].count + p->ropes[b].count, out);
}

/* Flatten the ropes r[0..n) into p->items (atom indices, left to right, r[0]'s first). */
static vfy_status rope_flatten_list(parser *p, const int64_t *r, int64_t n)
{
    p->n_items = 0;
    p->n_stack = 0;
    if (GROW(p, p->stack, p->cap_stack, n + 1))
        return nomem(p);
    for (int64_t k = n - 1; k >= 0; k--)
        p->stack[p->n_stack++] = r[k];
    while (p->n_stack > 0) {
        rope *x = &p->ropes[p->stack[--p->n_stack]];
        if (x->count == 0)
            continue;
        if (x->b == -1) {
            if (GROW(p, p->items, p->cap_items, p->n_items + 1))
                return nomem(p);
            p->items[p->n_items++] = x->a;
            continue;
        }
        int64_t a = x->a, b = x->b;
        if (GROW(p, p->stack, p->cap_stack, p->n_stack + 2))
            return nomem(p);
        p->stack[p->n_stack++] = b;
        p->stack[p->n_stack++] = a;
    }
    return VFY_OK;
}

/* Flatten rope r into p->items. */
static vfy_status rope_flatten(parser *p, int64_t r)
{
    return rope_flatten_list(p, &r, 1);
}

/* ---- comparisons ----------------------------------------------------------------------------- */

enum { MADE_TRUE, MADE_FALSE, MADE_ATOM };

/* Turn d (normalised; meaning sum lins + [lo,hi] <= 0, or < 0 when strict) into an atom. */
static vfy_status make_atom(parser *p, int64_t nd, const val *d, int strict, int64_t lit,
                            int *made, int64_t *atom_id)
{
    /* SOUND: sum lins <= -c for the real c in [lo, hi], so the real rhs is in [-hi, -lo]. */
    double rlo = -d->hi + 0.0, rhi = -d->lo + 0.0;
    const lin *l = VAL_LINS(d);
    atom at = {ATOM_ROW, strict, -1, rlo, rhi, 0, d->n, nd, 0};
    if (d->n == 0) {
        if (strict ? rlo > 0 : rlo >= 0) { /* 0 <= rhs (0 < rhs) for every rhs in the enclosure */
            *made = MADE_TRUE;
            return VFY_OK;
        }
        if (strict ? rhi <= 0 : rhi < 0) {
            *made = MADE_FALSE;
            return VFY_OK;
        }
        /* undecidable with this enclosure: kept as a row with no variable, 0 <= rhs */
    } else if (d->n == 1 && l[0].v % 2 == 0) {
        double a = l[0].c, dn, up, t;
        at.x = l[0].v / 2;
        if (a > 0) { /* X <= rhs / a */
            at.kind = ATOM_UP;
            div_dir(rlo, a, &dn, &t);
            div_dir(rhi, a, &t, &up);
        } else { /* X >= rhs / a */
            at.kind = ATOM_LO;
            div_dir(rhi, a, &dn, &t);
            div_dir(rlo, a, &t, &up);
        }
        vfy_status st = check_finite(p, nd, dn, up);
        if (st != VFY_OK)
            return st;
        /* Strict: the inner end must lie strictly inside. When dn < up the real bound c is
         * strictly between them (rhs or its quotient was inexact); when dn == up == c it is
         * the next double inward. The outer end stays (the non-strict superset). */
        if (strict && dn == up) {
            if (at.kind == ATOM_UP)
                dn = nextafter(dn, -INFINITY);
            else
                up = nextafter(up, INFINITY);
        }
        at.lo = dn + 0.0;
        at.hi = up + 0.0;
        at.n = 0;
        /* the bound is exactly the literal's value when the comparison was X_i against it */
        at.lit = fabs(a) == 1.0 ? lit : 0;
    }
    if (at.kind == ATOM_ROW) {
        if (GROW(p, p->pool, p->cap_pool, p->n_pool + d->n))
            return nomem(p);
        at.off = p->n_pool;
        if (d->n > 0)
            memcpy(p->pool + p->n_pool, l, (size_t)d->n * sizeof *l);
        p->n_pool += d->n;
    }
    if (GROW(p, p->atoms, p->cap_atoms, p->n_atoms + 1))
        return nomem(p);
    p->atoms[p->n_atoms] = at;
    *atom_id = p->n_atoms++;
    *made = MADE_ATOM;
    return VFY_OK;
}

/* The literal (node + 1) when one of a, b is a lone X_i (coefficient exactly 1, no constant) and
 * the other exactly a numeric literal; else 0. */
static int64_t lone_x_literal(const val *a, const val *b)
{
    const val *v[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        const val *x = v[k], *c = v[1 - k];
        if (x->is_dnf || c->is_dnf || x->n != 1 || c->n != 0 || !c->lit)
            continue;
        const lin *l = VAL_LINS(x);
        if (l[0].v % 2 == 0 && l[0].c == 1.0 && x->lo == 0.0 && x->hi == 0.0)
            return c->lit;
    }
    return 0;
}

static vfy_status eval_cmp(parser *p, int64_t nd)
{
    node *n = &p->nodes[nd];
    int64_t m = n->u.n_kids - 1;
    int64_t conj = 0; /* rope of the atoms so far */
    int is_false = 0, strict = n->op == OP_LT || n->op == OP_GT || n->op == OP_NE;
    int up_only = n->op == OP_LE || n->op == OP_LT, down_only = n->op == OP_GE || n->op == OP_GT;
    int64_t alt[2]; /* OP_NE: the ropes of a < b and of a > b, -1 when false */
    int n_true = 0;
    vfy_status st = VFY_OK;
    /* chainable: (<= a b c) means a <= b and b <= c; (!= a b) is (or (< a b) (> a b)) */
    for (int64_t k = 0; k + 1 < m && !is_false; k++) {
        val *a = &p->vals[p->n_vals - 1 - k], *b = &p->vals[p->n_vals - 2 - k];
        for (int dir = 0; dir < 2; dir++) {
            /* dir 0: a <= b, i.e. a - b <= 0; dir 1: b - a <= 0 */
            if ((dir == 0 && down_only) || (dir == 1 && up_only))
                continue;
            val *ab[2] = {a, b}, d;
            int sg[2] = {dir == 0 ? 1 : -1, dir == 0 ? -1 : 1};
            if ((st = term_sum(p, nd, ab, sg, 2, &d)) != VFY_OK)
                return st;
            int made = MADE_TRUE;
            int64_t id = 0, leaf = 0;
            st = make_atom(p, nd, &d, strict, lone_x_literal(a, b), &made, &id);
            val_free(&d);
            if (st != VFY_OK)
                return st;
            if (n->op == OP_NE) {
                alt[dir] = -1;
                n_true += made == MADE_TRUE;
                if (made == MADE_TRUE)
                    alt[dir] = 0;
                else if (made == MADE_ATOM && (st = rope_new(p, id, -1, 1, &alt[dir])) != VFY_OK)
                    return st;
                continue;
            }
            if (made == MADE_FALSE) {
                is_false = 1;
                break;
            }
            if (made == MADE_ATOM) {
                if ((st = rope_new(p, id, -1, 1, &leaf)) != VFY_OK ||
                    (st = rope_cat(p, conj, leaf, &conj)) != VFY_OK)
                    return st;
            }
        }
    }
    drop(p, m);
    val res;
    memset(&res, 0, sizeof res);
    res.is_dnf = 1;
    if (n->op == OP_NE) { /* a disjunction of the alternatives not false (true if one is) */
        if (n_true > 0) {
            res.n = 1;
            res.id1 = 0;
        } else if (alt[0] >= 0 && alt[1] >= 0) {
            res.ids = vfy_alloc_array(2, sizeof *res.ids);
            if (!res.ids)
                return nomem(p);
            res.cap = res.n = 2;
            res.ids[0] = alt[0];
            res.ids[1] = alt[1];
        } else {
            res.n = alt[0] >= 0 || alt[1] >= 0;
            res.id1 = alt[0] >= 0 ? alt[0] : alt[1];
        }
        st = push(p, &res);
        if (st != VFY_OK)
            val_free(&res);
        return st;
    }
    res.n = is_false ? 0 : 1;
    res.id1 = conj;
    return push(p, &res);
}

/* ---- and / or -------------------------------------------------------------------------------- */

static vfy_status eval_or(parser *p, int64_t nd, int64_t m)
{
    val *base = &p->vals[p->n_vals - m];
    int64_t total = 0, big = 0;
    for (int64_t k = 0; k < m; k++) {
        total += base[k].n;
        if (base[k].n > base[big].n)
            big = k;
    }
    if (total > SPEC_MAX_CASES)
        return PERR(p, nd, VFY_ERR_UNSUPPORTED, "the property has more than %d cases",
                    SPEC_MAX_CASES);
    /* append every other disjunction into the biggest one (keeps document order) */
    val res = base[big];
    if (total > 1 && res.cap < total) {
        /* geometric growth: a chain of ors appending to its first argument stays linear */
        int64_t cap = res.cap, was_inline = res.cap == 0;
        int64_t *ids = was_inline ? NULL : res.ids;
        if (GROW(p, ids, cap, total))
            return nomem(p);
        if (was_inline && res.n == 1)
            ids[0] = res.id1;
        res.ids = ids;
        res.cap = cap;
    }
    /* rebuild in order: the arguments are stored last-first on the stack */
    int64_t *dst = VAL_IDS(&res), j = total;
    for (int64_t k = 0; k < m; k++) { /* k = 0 is the last argument */
        if (k == big) {
            memmove(dst + j - res.n, dst, (size_t)res.n * sizeof *dst);
            j -= res.n;
            continue;
        }
        const int64_t *src = VAL_IDS(&base[k]);
        j -= base[k].n;
        memcpy(dst + j, src, (size_t)base[k].n * sizeof *dst);
    }
    VFY_ASSERT(j == 0);
    res.n = total;
    base[big].ids = NULL; /* moved into res (a realloc may have freed the old block) */
    drop(p, m);
    return push(p, &res);
}

/* Product of the last m DNFs on the stack (the first argument is the top). Case order: the last
 * argument varies fastest. top: the conjunction of the asserts, whose single-case arguments
 * (p->prefix) begin every case and are read once for all of them (build_case), so counted once. */
static vfy_status eval_and(parser *p, int64_t nd, int64_t m, int top)
{
    val *base = &p->vals[p->n_vals - m];
    vfy_status st = VFY_OK;
    double n_res = 1, items = 0;
    int64_t single = 0, n_multi = 0;
    for (int64_t k = 0; k < m; k++)
        n_res *= (double)base[k].n;
    val res;
    memset(&res, 0, sizeof res);
    res.is_dnf = 1;
    int64_t *idx = NULL, *multi = NULL;
    if (n_res == 0) {
        drop(p, m);
        return push(p, &res);
    }
    if (n_res > SPEC_MAX_CASES)
        return PERR(p, nd, VFY_ERR_UNSUPPORTED, "the property has more than %d cases",
                    SPEC_MAX_CASES);
    /* conjunction of the single-case arguments, in document order (top of stack first) */
    for (int64_t k = m - 1; k >= 0; k--)
        if (base[k].n == 1 && (st = rope_cat(p, single, VAL_IDS(&base[k])[0], &single)) != VFY_OK)
            return st;
    for (int64_t k = 0; k < m; k++)
        n_multi += base[k].n > 1;
    /* the asserts' prefix is read once for all cases when it bounds inputs only (no row) */
    int shared = 0;
    if (top && n_multi > 0) {
        if ((st = rope_flatten(p, single)) != VFY_OK)
            return st;
        shared = 1;
        for (int64_t q = 0; q < p->n_items && shared; q++)
            shared = p->atoms[p->items[q]].kind != ATOM_ROW;
        p->prefix = shared ? single : -1;
    }
    for (int64_t k = 0; k < m; k++) {
        double len = 0;
        const int64_t *ids = VAL_IDS(&base[k]);
        for (int64_t q = 0; q < base[k].n; q++)
            len += (double)p->ropes[ids[q]].count;
        items += len * (shared && base[k].n == 1 ? 1.0 : n_res / (double)base[k].n);
    }
    if (items > SPEC_MAX_ITEMS)
        return PERR(p, nd, VFY_ERR_UNSUPPORTED,
                    "the property is too large (more than %.0f constraints over all cases)",
                    SPEC_MAX_ITEMS);
    if (n_multi == 0) {
        res.n = 1;
        res.id1 = single;
        drop(p, m);
        return push(p, &res);
    }
    int64_t n_out = (int64_t)n_res;
    idx = vfy_alloc_array((size_t)n_multi, sizeof *idx);
    multi = vfy_alloc_array((size_t)n_multi, sizeof *multi);
    res.ids = vfy_alloc_array((size_t)n_out, sizeof *res.ids);
    if (!idx || !multi || !res.ids) {
        st = nomem(p);
        goto fail;
    }
    res.cap = n_out;
    for (int64_t k = m - 1, q = 0; k >= 0; k--)
        if (base[k].n > 1)
            multi[q++] = k; /* document order */
    for (int64_t r = 0; r < n_out; r++) {
        int64_t c = single;
        for (int64_t q = 0; q < n_multi; q++)
            if ((st = rope_cat(p, c, base[multi[q]].ids[idx[q]], &c)) != VFY_OK)
                goto fail;
        res.ids[r] = c;
        for (int64_t q = n_multi - 1; q >= 0; q--) { /* odometer, last digit fastest */
            if (++idx[q] < base[multi[q]].n)
                break;
            idx[q] = 0;
        }
    }
    res.n = n_out;
    drop(p, m);
    st = push(p, &res);
    if (st == VFY_OK)
        res.ids = NULL;
fail:
    vfy_free(idx);
    vfy_free(multi);
    vfy_free(res.ids);
    return st;
}

/* Evaluate the formula rooted at `root`; leaves its DNF on the value stack. */
static vfy_status eval_formula(parser *p, int64_t root)
{
    vfy_status st = forward(p, root);
    if (st != VFY_OK)
        return st;
    for (int64_t i = root + p->nodes[root].size - 1; i >= root; i--) {
        node *n = &p->nodes[i];
        val x;
        memset(&x, 0, sizeof x);
        switch (n->op) {
        case OP_HEAD:
            break;
        case OP_VAR:
            x.n = 1;
            x.one = (lin){n->u.var, 1.0};
            st = push(p, &x);
            break;
        case OP_NUM:
            x.lo = n->u.num[0];
            x.hi = n->u.num[1];
            x.lit = i + 1;
            st = push(p, &x);
            break;
        case OP_TRUE:
        case OP_FALSE:
            x.is_dnf = 1;
            x.n = n->op == OP_TRUE;
            x.id1 = 0;
            st = push(p, &x);
            break;
        case OP_ADD:
        case OP_SUB:
        case OP_MUL:
            st = eval_arith(p, i);
            break;
        case OP_LE:
        case OP_GE:
        case OP_LT:
        case OP_GT:
        case OP_EQ:
        case OP_NE:
            st = eval_cmp(p, i);
            break;
        case OP_AND:
            st = eval_and(p, i, n->u.n_kids - 1, 0);
            break;
        case OP_OR:
            st = eval_or(p, i, n->u.n_kids - 1);
            break;
        default:
            VFY_ASSERT(!"every node has a role after the forward pass");
        }
        if (st != VFY_OK)
            return st;
    }
    return VFY_OK;
}

/* ---- stage 4: cases, boxes, rows ------------------------------------------------------------- */

typedef struct builder {
    double *lo, *hi, *in_lo, *in_hi; /* n_x scratch box */
    unsigned char *real_pt;          /* n_x: the box's real_pt (vfy_box) */
    int64_t *lo_at, *hi_at;          /* atom that set lo / hi, -1 if none */
    int64_t *lo_real, *hi_real;      /* n_x scratch: the atom of the greatest lower (least upper)
                                      * real bound, where real_pt is being decided */
    int64_t *ht;                     /* hash table of box indices, -1 empty */
    uint64_t ht_mask;
    int64_t cap_boxes, n_doubles;
    /* the first case dropped as empty: variable, bounds, atom */
    int64_t empty_x, empty_atom;
    double empty_lo, empty_hi;
    /* the box of the asserts' prefix alone (p->prefix): -2 not built yet, -1 empty */
    int64_t prefix_box;
    int64_t *rights, cap_rights; /* scratch: a case's ropes after the prefix */
} builder;

static uint64_t box_hash(const builder *b, int64_t n)
{
    uint64_t h = 1469598103934665603ULL;
    const double *arr[4] = {b->lo, b->hi, b->in_lo, b->in_hi};
    for (int a = 0; a < 4; a++)
        for (int64_t i = 0; i < n; i++) {
            uint64_t u;
            memcpy(&u, &arr[a][i], sizeof u);
            h = (h ^ u) * 1099511628211ULL;
            h ^= h >> 29;
        }
    return h; /* (real_pt differs only where in_lo > in_hi: box_equal tells those apart) */
}

static int any_real_pt(const unsigned char *real_pt, int64_t n)
{
    for (int64_t i = 0; real_pt && i < n; i++)
        if (real_pt[i])
            return 1;
    return 0;
}

static int box_equal(const builder *b, const vfy_box *x, int64_t n)
{
    size_t sz = (size_t)n * sizeof(double);
    if (memcmp(x->lo, b->lo, sz) || memcmp(x->hi, b->hi, sz) || memcmp(x->in_lo, b->in_lo, sz) ||
        memcmp(x->in_hi, b->in_hi, sz))
        return 0;
    if (!x->real_pt)
        return !any_real_pt(b->real_pt, n);
    return !memcmp(x->real_pt, b->real_pt, (size_t)n);
}

static vfy_status add_doubles(parser *p, builder *b, int64_t n)
{
    b->n_doubles += n;
    if (b->n_doubles > SPEC_MAX_DOUBLES)
        return vfy_fail(p->err, VFY_ERR_UNSUPPORTED,
                        "%s: the normalised property is too large (over %lld numbers)", p->name,
                        (long long)SPEC_MAX_DOUBLES);
    return VFY_OK;
}

/* Index of the scratch box in spec->boxes, adding it when new. */
static vfy_status intern_box(parser *p, builder *b, vfy_spec *spec, int64_t *out)
{
    int64_t n = p->n_x;
    uint64_t h = box_hash(b, n) & b->ht_mask;
    for (; b->ht[h] >= 0; h = (h + 1) & b->ht_mask)
        if (box_equal(b, &spec->boxes[b->ht[h]], n)) {
            *out = b->ht[h];
            return VFY_OK;
        }
    vfy_status st = add_doubles(p, b, 4 * n);
    if (st != VFY_OK)
        return st;
    if (GROW(p, spec->boxes, b->cap_boxes, spec->n_boxes + 1))
        return nomem(p);
    vfy_box *x = &spec->boxes[spec->n_boxes++];
    memset(x, 0, sizeof *x);
    x->lo = vfy_alloc_array((size_t)n, sizeof(double));
    x->hi = vfy_alloc_array((size_t)n, sizeof(double));
    x->in_lo = vfy_alloc_array((size_t)n, sizeof(double));
    x->in_hi = vfy_alloc_array((size_t)n, sizeof(double));
    if (!x->lo || !x->hi || !x->in_lo || !x->in_hi)
        return nomem(p);
    size_t sz = (size_t)n * sizeof(double);
    memcpy(x->lo, b->lo, sz);
    memcpy(x->hi, b->hi, sz);
    memcpy(x->in_lo, b->in_lo, sz);
    memcpy(x->in_hi, b->in_hi, sz);
    if (any_real_pt(b->real_pt, n)) {
        if (!(x->real_pt = vfy_alloc((size_t)n)))
            return nomem(p);
        memcpy(x->real_pt, b->real_pt, (size_t)n);
    }
    b->ht[h] = spec->n_boxes - 1;
    *out = spec->n_boxes - 1;
    return VFY_OK;
}

/* Bounds the case's rows x_a - x_b <= c (two X terms of coefficients 1 and -1, no Y term) imply
 * on inputs the box leaves open or wider: x_a <= hi_b + c and x_b >= lo_a - c, with c the outer
 * end of the right-hand side's enclosure and the sums rounded outward, repeated while a bound
 * moves (a few rounds: chains of such rows are short). A query over several networks bounds one
 * network's input and ties the other's to it (X_g[i] == X_f[i], X_g[0] <= X_f[0]). SOUND: every
 * point of the case satisfies the new bounds, so the outer box still contains the case's region;
 * the inner box is clipped into the outer one, where the atoms' own bounds still hold. */
static void propagate_differences(parser *p, builder *b)
{
    for (int round = 0, moved = 1; moved && round < 64; round++) {
        moved = 0;
        for (int64_t q = 0; q < p->n_items; q++) {
            const atom *a = &p->atoms[p->items[q]];
            if (a->kind != ATOM_ROW || a->n != 2)
                continue;
            const lin *l = p->pool + a->off;
            if (l[0].v % 2 || l[1].v % 2 || l[0].c + l[1].c != 0.0 || fabs(l[0].c) != 1.0)
                continue;
            int pos = l[0].c > 0 ? 0 : 1;
            int64_t xa = l[pos].v / 2, xb = l[1 - pos].v / 2;
            double dn, up;
            add_dir(b->hi[xb], a->hi, &dn, &up);
            if (up < b->hi[xa]) {
                b->hi[xa] = up;
                b->hi_at[xa] = p->items[q];
                moved = 1;
            }
            add_dir(b->lo[xa], -a->hi, &dn, &up);
            if (dn > b->lo[xb]) {
                b->lo[xb] = dn;
                b->lo_at[xb] = p->items[q];
                moved = 1;
            }
        }
    }
    for (int64_t i = 0; i < p->n_x; i++) {
        b->in_lo[i] = fmax(b->in_lo[i], b->lo[i]);
        b->in_hi[i] = fmin(b->in_hi[i], b->hi[i]);
    }
}

/* Of atoms a and c, bounds of one input of one kind: is a's real bound the tighter? 1 yes, 0 no,
 * -1 undecided (their enclosures overlap and one is not exactly a literal), -2 out of memory. A
 * strict bound is tighter than a non-strict one of the same value. */
static int tighter_bound(const parser *p, const atom *a, const atom *c)
{
    int cmp; /* sign of a's real bound - c's */
    if (a->lo > c->hi)
        cmp = 1;
    else if (a->hi < c->lo)
        cmp = -1;
    else if (a->lit && c->lit)
        cmp = literal_cmp(p, a->lit, c->lit);
    else
        return -1;
    if (cmp == -2)
        return -2;
    if (cmp == 0)
        return a->strict && !c->strict;
    return a->kind == ATOM_LO ? cmp > 0 : cmp < 0;
}

/* b->real_pt: for each input whose inner interval is empty (in_lo > in_hi), whether its real
 * interval, the one the case's bound atoms give, is known not to be empty: its greatest lower
 * bound is below its least upper one (or equal, both non-strict), decided exactly (a literal
 * against a literal, when enclosures overlap). Only where those atoms also give the outer box
 * (no row moved it: propagate_differences), which then contains the real interval. SOUND for
 * counterexamples (vfy_cex_range): a 1 means that a real point of the interval exists. */
static vfy_status mark_real_points(parser *p, builder *b)
{
    int64_t n = p->n_x, any = 0;
    for (int64_t i = 0; i < n; i++) {
        b->real_pt[i] = b->in_lo[i] > b->in_hi[i] && b->lo[i] <= b->hi[i] && b->lo_at[i] >= 0 &&
                        b->hi_at[i] >= 0 && p->atoms[b->lo_at[i]].kind == ATOM_LO &&
                        p->atoms[b->hi_at[i]].kind == ATOM_UP;
        b->lo_real[i] = b->hi_real[i] = -1;
        any |= b->real_pt[i];
    }
    for (int64_t q = 0; any && q < p->n_items; q++) {
        int64_t id = p->items[q];
        const atom *a = &p->atoms[id];
        if (a->kind == ATOM_ROW || !b->real_pt[a->x])
            continue;
        int64_t *best = a->kind == ATOM_LO ? &b->lo_real[a->x] : &b->hi_real[a->x];
        int t = *best < 0 ? 1 : tighter_bound(p, a, &p->atoms[*best]);
        if (t == -2)
            return nomem(p);
        if (t < 0)
            b->real_pt[a->x] = 0;
        else if (t)
            *best = id;
    }
    for (int64_t i = 0; any && i < n; i++) {
        if (!b->real_pt[i])
            continue;
        const atom *l = &p->atoms[b->lo_real[i]], *u = &p->atoms[b->hi_real[i]];
        int ok = l->hi < u->lo; /* the real l <= l->hi < u->lo <= the real u */
        if (!ok && l->lit && u->lit) {
            int c = literal_cmp(p, l->lit, u->lit);
            if (c == -2)
                return nomem(p);
            ok = c < 0 || (c == 0 && !l->strict && !u->strict);
        }
        b->real_pt[i] = (unsigned char)ok;
    }
    return VFY_OK;
}

/* The box of the conjunction in p->items (case k of n_conj, for messages): *box its index in
 * spec->boxes, or *dropped when its real input region is empty; *n_rows_out the rows among the
 * items. */
static vfy_status case_box(parser *p, builder *b, vfy_spec *spec, int64_t k, int64_t n_conj,
                           int64_t *box, int *dropped, int64_t *n_rows_out)
{
    int64_t n = p->n_x, n_rows = 0;
    for (int64_t i = 0; i < n; i++) {
        b->lo[i] = b->in_lo[i] = -INFINITY;
        b->hi[i] = b->in_hi[i] = INFINITY;
        b->lo_at[i] = b->hi_at[i] = -1;
    }
    for (int64_t q = 0; q < p->n_items; q++) {
        const atom *a = &p->atoms[p->items[q]];
        /* SOUND: outer bounds take the outward end of each enclosure, inner the inward end; the
         * box is the intersection, so outer contains and inner is contained in the real box. */
        if (a->kind == ATOM_UP) {
            if (a->hi < b->hi[a->x] || b->hi_at[a->x] < 0)
                b->hi[a->x] = a->hi, b->hi_at[a->x] = p->items[q];
            if (a->lo < b->in_hi[a->x])
                b->in_hi[a->x] = a->lo;
        } else if (a->kind == ATOM_LO) {
            if (a->lo > b->lo[a->x] || b->lo_at[a->x] < 0)
                b->lo[a->x] = a->lo, b->lo_at[a->x] = p->items[q];
            if (a->hi > b->in_lo[a->x])
                b->in_lo[a->x] = a->hi;
        } else {
            n_rows++;
        }
    }
    if (n_rows > 0)
        propagate_differences(p, b);
    *dropped = 0;
    for (int64_t i = 0; i < n; i++)
        if (b->lo[i] > b->hi[i]) { /* SOUND: the outer box contains the real one, so it is empty */
            if (b->empty_x < 0) {
                b->empty_x = i;
                b->empty_lo = b->lo[i];
                b->empty_hi = b->hi[i];
                b->empty_atom = p->atoms[b->lo_at[i] > b->hi_at[i] ? b->lo_at[i] : b->hi_at[i]].node;
            }
            *dropped = 1;
            return VFY_OK;
        }
    char where[64] = "";
    if (n_conj > 1)
        snprintf(where, sizeof where, " in case %lld of %lld", (long long)k + 1,
                 (long long)n_conj);
    char xl[96];
    for (int64_t i = 0; i < n; i++) {
        if (b->lo_at[i] < 0)
            return PERR(p, p->x_decl[i], VFY_ERR_INVALID, "%s has no lower bound%s",
                        x_label(p, i, xl, sizeof xl), where);
        if (b->hi_at[i] < 0)
            return PERR(p, p->x_decl[i], VFY_ERR_INVALID, "%s has no upper bound%s",
                        x_label(p, i, xl, sizeof xl), where);
    }
    /* An input whose real interval holds no double (X_0 = 0.1) leaves the inner box empty
     * (in_lo > in_hi): the case is proved over the outer box (dropping it would be unsound), and
     * a counterexample takes the float32 nearest to the real interval where that interval is
     * known not to be empty (real_pt); where not (0 < X_0 < 0), no point of it is printed. */
    vfy_status st = mark_real_points(p, b);
    if (st != VFY_OK)
        return st;
    *n_rows_out = n_rows;
    return intern_box(p, b, spec, box);
}

/* Append a case of input box `box` whose rows are the n_rows rows among p->items. */
static vfy_status case_rows(parser *p, builder *b, vfy_spec *spec, int64_t box, int64_t n_rows)
{
    vfy_status st;
    int64_t n = p->n_x;
    vfy_case *c = &spec->cases[spec->n_cases++];
    c->box = box;
    c->n_rows = 0;
    c->rows = NULL;
    if (n_rows == 0)
        return VFY_OK;
    c->rows = vfy_alloc_array((size_t)n_rows, sizeof *c->rows);
    if (!c->rows)
        return nomem(p);
    c->n_rows = n_rows;
    int64_t j = 0;
    for (int64_t q = 0; q < p->n_items; q++) {
        const atom *a = &p->atoms[p->items[q]];
        if (a->kind != ATOM_ROW)
            continue;
        vfy_row *row = &c->rows[j++];
        const lin *l = p->pool + a->off;
        int has_x = 0;
        for (int64_t t = 0; t < a->n; t++)
            has_x |= l[t].v % 2 == 0;
        if ((st = add_doubles(p, b, spec->n_y + (has_x ? n : 0))) != VFY_OK)
            return st;
        row->rhs_lo = a->lo;
        row->rhs_hi = a->hi;
        row->strict = a->strict;
        row->cy = vfy_alloc_array((size_t)spec->n_y, sizeof(double));
        if (!row->cy)
            return nomem(p);
        if (has_x && !(row->cx = vfy_alloc_array((size_t)n, sizeof(double))))
            return nomem(p);
        for (int64_t t = 0; t < a->n; t++) {
            if (l[t].v % 2)
                row->cy[l[t].v / 2] = l[t].c;
            else
                row->cx[l[t].v / 2] = l[t].c;
        }
    }
    return VFY_OK;
}

/* Build case k (of n_conj) from rope r. Sets *dropped when the case's real input region is
 * empty. A case that begins with the asserts' prefix (p->prefix: input bounds only) and adds
 * rows over the outputs only has the prefix's box, built once for all such cases: a spec of
 * 150,528 bounded inputs and 999 cases reads them once, not 999 times. */
static vfy_status build_case(parser *p, builder *b, vfy_spec *spec, int64_t r, int64_t k,
                             int64_t n_conj, int *dropped)
{
    vfy_status st;
    int64_t box = 0, n_rows = 0, n_rights = 0, x = r;
    *dropped = 0;
    while (p->prefix >= 0 && x != p->prefix && p->ropes[x].b >= 0) { /* down the left spine */
        if (GROW(p, b->rights, b->cap_rights, n_rights + 1))
            return nomem(p);
        b->rights[n_rights++] = p->ropes[x].b;
        x = p->ropes[x].a;
    }
    if (p->prefix >= 0 && x == p->prefix) {
        for (int64_t a = 0, z = n_rights - 1; a < z; a++, z--) { /* document order */
            int64_t t = b->rights[a];
            b->rights[a] = b->rights[z];
            b->rights[z] = t;
        }
        if ((st = rope_flatten_list(p, b->rights, n_rights)) != VFY_OK)
            return st;
        int y_only = 1;
        for (int64_t q = 0; q < p->n_items && y_only; q++) {
            const atom *a = &p->atoms[p->items[q]];
            y_only = a->kind == ATOM_ROW;
            for (int64_t t = 0; t < a->n && y_only; t++)
                y_only = p->pool[a->off + t].v % 2 == 1;
        }
        if (y_only) {
            if (b->prefix_box == -2) {
                int64_t prefix_rows = 0;
                int empty = 0;
                if ((st = rope_flatten(p, p->prefix)) != VFY_OK ||
                    (st = case_box(p, b, spec, k, n_conj, &b->prefix_box, &empty,
                                   &prefix_rows)) != VFY_OK)
                    return st;
                VFY_ASSERT(prefix_rows == 0);
                if (empty)
                    b->prefix_box = -1;
                if ((st = rope_flatten_list(p, b->rights, n_rights)) != VFY_OK)
                    return st;
            }
            if (b->prefix_box < 0) {
                *dropped = 1;
                return VFY_OK;
            }
            return case_rows(p, b, spec, b->prefix_box, p->n_items);
        }
    }
    if ((st = rope_flatten(p, r)) != VFY_OK ||
        (st = case_box(p, b, spec, k, n_conj, &box, dropped, &n_rows)) != VFY_OK || *dropped)
        return st;
    return case_rows(p, b, spec, box, n_rows);
}

/* A heap copy of the atom at nd; a string's quotes are removed and its "" read as ". */
static char *atom_text(const parser *p, int64_t nd)
{
    const node *n = &p->nodes[nd];
    const char *s = p->text + n->off;
    size_t len = n->len, k = 0, o = 0;
    int quoted = len >= 2 && s[0] == '"';
    char *d = vfy_alloc(len + 1);
    if (!d)
        return NULL;
    if (quoted)
        k = 1, len--;
    for (; k < len; k++) {
        d[o++] = s[k];
        if (quoted && s[k] == '"')
            k++;
    }
    d[o] = '\0';
    return d;
}

static vfy_status copy_tensor(parser *p, const tensor_decl *t, int64_t off, vfy_spec_tensor *out)
{
    out->rank = t->rank;
    out->size = t->size;
    out->off = off;
    memcpy(out->shape, t->shape, sizeof out->shape);
    if (!(out->name = atom_text(p, t->name)) || !(out->type = vfy_strdup(t->type_name)) ||
        (t->onnx >= 0 && !(out->onnx_name = atom_text(p, t->onnx))))
        return nomem(p);
    return VFY_OK;
}

static vfy_status build_spec(parser *p, const val *d, vfy_spec **out)
{
    builder b;
    memset(&b, 0, sizeof b);
    b.empty_x = -1;
    b.prefix_box = -2;
    vfy_status st = VFY_OK;
    vfy_spec *spec = vfy_alloc(sizeof *spec);
    if (!spec)
        return nomem(p);
    spec->n_x = p->n_x;
    spec->n_y = p->n_y;
    spec->version = p->v2 ? 2 : 1;
    if (p->v2 && !(spec->nets = vfy_alloc_array((size_t)p->n_nets, sizeof *spec->nets))) {
        st = nomem(p);
        goto fail;
    }
    spec->n_nets = p->n_nets; /* (zeroed: vfy_spec_free frees what was copied) */
    for (int64_t q = 0; q < p->n_nets; q++) {
        const net_decl *nd = &p->nets[q];
        vfy_spec_net *t = &spec->nets[q];
        t->rel = nd->rel;
        t->rel_to = nd->rel_to;
        t->x_off = nd->x_off;
        t->y_off = nd->y_off;
        t->n_x = nd->n_x;
        t->n_y = nd->n_y;
        t->n_inputs = nd->n_in;
        t->n_outputs = nd->n_out;
        t->by_name = 1; /* every tensor named */
        if (!(t->name = atom_text(p, nd->name))) {
            st = nomem(p);
            goto fail;
        }
        for (int k = 0; k < 2; k++) {
            int64_t off = k ? nd->y_off : nd->x_off;
            for (int j = 0; j < (k ? nd->n_out : nd->n_in); j++) {
                const tensor_decl *td = k ? &nd->tout[j] : &nd->tin[j];
                t->by_name &= td->onnx >= 0;
                (k ? &t->outputs[j] : &t->inputs[j])->hidden = td->hidden;
                t->n_hidden += td->hidden;
                if ((st = copy_tensor(p, td, off, k ? &t->outputs[j] : &t->inputs[j])))
                    goto fail;
                off += td->size;
            }
        }
    }
    int64_t n = p->n_x;
    if (d->n == 0) {
        st = perr_at(p, p->nodes[p->first_assert].line, p->nodes[p->first_assert].col,
                     VFY_ERR_INVALID, "contradictory spec: every case contains a false comparison");
        goto fail;
    }
    uint64_t hsz = 16;
    while (hsz < 2 * (uint64_t)d->n)
        hsz *= 2;
    b.ht_mask = hsz - 1;
    b.lo = vfy_alloc_array((size_t)n, sizeof(double));
    b.hi = vfy_alloc_array((size_t)n, sizeof(double));
    b.in_lo = vfy_alloc_array((size_t)n, sizeof(double));
    b.in_hi = vfy_alloc_array((size_t)n, sizeof(double));
    b.lo_at = vfy_alloc_array((size_t)n, sizeof(int64_t));
    b.hi_at = vfy_alloc_array((size_t)n, sizeof(int64_t));
    b.real_pt = vfy_alloc((size_t)n + 1);
    b.lo_real = vfy_alloc_array((size_t)n, sizeof(int64_t));
    b.hi_real = vfy_alloc_array((size_t)n, sizeof(int64_t));
    b.ht = vfy_alloc_array(hsz, sizeof(int64_t));
    spec->cases = vfy_alloc_array((size_t)d->n, sizeof *spec->cases);
    if (!b.lo || !b.hi || !b.in_lo || !b.in_hi || !b.lo_at || !b.hi_at || !b.real_pt ||
        !b.lo_real || !b.hi_real || !b.ht || !spec->cases) {
        st = nomem(p);
        goto fail;
    }
    for (uint64_t h = 0; h < hsz; h++)
        b.ht[h] = -1;
    const int64_t *ids = VAL_IDS(d);
    for (int64_t k = 0; k < d->n; k++) {
        int dropped;
        if ((st = build_case(p, &b, spec, ids[k], k, d->n, &dropped)) != VFY_OK)
            goto fail;
    }
    if (spec->n_cases == 0) {
        const node *e = &p->nodes[b.empty_atom];
        char xl[96];
        st = perr_at(p, e->line, e->col, VFY_ERR_INVALID,
                     "contradictory spec: the input region is empty (%s in [%.17g, %.17g])",
                     x_label(p, b.empty_x, xl, sizeof xl), b.empty_lo, b.empty_hi);
        goto fail;
    }
    *out = spec;
    spec = NULL;
fail:
    vfy_spec_free(spec);
    vfy_free(b.lo);
    vfy_free(b.hi);
    vfy_free(b.in_lo);
    vfy_free(b.in_hi);
    vfy_free(b.lo_at);
    vfy_free(b.hi_at);
    vfy_free(b.real_pt);
    vfy_free(b.lo_real);
    vfy_free(b.hi_real);
    vfy_free(b.ht);
    vfy_free(b.rights);
    return st;
}

/* ---- public API ------------------------------------------------------------------------------ */

int vfy_box_cex_range(const vfy_box *bx, int64_t j, double *lo, double *hi)
{
    if (bx->in_lo[j] <= bx->in_hi[j]) {
        *lo = bx->in_lo[j];
        *hi = bx->in_hi[j];
        return 1;
    }
    if (bx->real_pt && bx->real_pt[j]) {
        *lo = bx->lo[j];
        *hi = bx->hi[j];
        return 2;
    }
    return 0;
}

static void parser_free(parser *p)
{
    vfy_free(p->nodes);
    vfy_free(p->dx);
    vfy_free(p->dy);
    vfy_free(p->x_decl);
    vfy_free(p->nets);
    for (int64_t k = 0; k < p->n_vals; k++)
        val_free(&p->vals[k]);
    vfy_free(p->vals);
    vfy_free(p->atoms);
    vfy_free(p->pool);
    vfy_free(p->ropes);
    vfy_free(p->stack);
    vfy_free(p->items);
}

vfy_status vfy_spec_parse(const char *text, size_t len, const char *name, vfy_spec **out,
                          vfy_error *err)
{
    parser P, *p = &P;
    memset(p, 0, sizeof *p);
    p->text = text;
    p->len = len;
    p->name = name ? name : "<spec>";
    p->err = err;
    p->first_assert = -1;
    p->prefix = -1;
    vfy_status st;
    int64_t empty;
    *out = NULL;
    vfy_error_clear(err);
    if ((st = build_tree(p)) != VFY_OK)
        goto fail;
    if (p->n_nodes == 0) {
        st = perr_at(p, 1, 1, VFY_ERR_PARSE, "the spec is empty");
        goto fail;
    }
    if ((st = collect_decls(p)) != VFY_OK)
        goto fail;
    if ((st = rope_new(p, 0, -2, 0, &empty)) != VFY_OK) /* rope 0: the empty conjunction */
        goto fail;
    for (int64_t i = 0; i < p->n_nodes; i += p->nodes[i].size)
        if (tok_is(p, i + 1, "assert") && (st = eval_formula(p, i + 2)) != VFY_OK)
            goto fail;
    /* the asserts are conjoined */
    if (p->n_vals == 0) {
        val t;
        memset(&t, 0, sizeof t);
        t.is_dnf = 1;
        t.n = 1;
        if ((st = push(p, &t)) != VFY_OK)
            goto fail;
    } else if (p->n_vals > 1) {
        /* eval_and takes its first argument from the top: reverse to keep document order */
        for (int64_t a = 0, z = p->n_vals - 1; a < z; a++, z--) {
            val t = p->vals[a];
            p->vals[a] = p->vals[z];
            p->vals[z] = t;
        }
        if ((st = eval_and(p, p->first_assert, p->n_vals, 1)) != VFY_OK)
            goto fail;
    }
    VFY_ASSERT(p->n_vals == 1 && p->vals[0].is_dnf);
    st = build_spec(p, &p->vals[0], out);
fail:
    parser_free(p);
    return st;
}

vfy_status vfy_spec_load(const char *path, vfy_spec **out, vfy_error *err)
{
    uint8_t *data;
    size_t len;
    *out = NULL;
    vfy_status st = vfy_read_file(path, &data, &len, err);
    if (st != VFY_OK)
        return st;
    st = vfy_spec_parse((const char *)data, len, path, out, err);
    vfy_free(data);
    return st;
}

/* dst[map[i]] = src[i] for i < n, through tmp; src becomes the result. */
static void permute_into(double *src, const int64_t *map, int64_t n, double *tmp)
{
    for (int64_t i = 0; i < n; i++)
        tmp[map[i]] = src[i];
    memcpy(src, tmp, (size_t)n * sizeof *src);
}

/* Whether map moves every element of each tensor with its first (a block permutation). */
static int moves_blocks(const vfy_spec *spec, const int64_t *map, int is_y)
{
    for (int64_t q = 0; q < spec->n_nets; q++) {
        const vfy_spec_net *nt = &spec->nets[q];
        for (int j = 0; j < (is_y ? nt->n_outputs : nt->n_inputs); j++) {
            const vfy_spec_tensor *t = is_y ? &nt->outputs[j] : &nt->inputs[j];
            for (int64_t e = 1; e < t->size; e++)
                if (map[t->off + e] != map[t->off] + e)
                    return 0;
        }
    }
    return 1;
}

vfy_status vfy_spec_permute(vfy_spec *spec, const int64_t *xmap, const int64_t *ymap,
                            vfy_error *err)
{
    VFY_ASSERT((!xmap || moves_blocks(spec, xmap, 0)) && (!ymap || moves_blocks(spec, ymap, 1)));
    int moved = 0; /* (identities change nothing) */
    for (int64_t i = 0; xmap && i < spec->n_x; i++)
        moved |= xmap[i] != i;
    for (int64_t i = 0; ymap && i < spec->n_y; i++)
        moved |= ymap[i] != i;
    if (!moved)
        return VFY_OK;
    int64_t n = spec->n_x > spec->n_y ? spec->n_x : spec->n_y;
    double *tmp = vfy_alloc_array((size_t)n, sizeof *tmp);
    if (!tmp)
        return vfy_fail(err, VFY_ERR_NOMEM, "out of memory renumbering the query's variables");
    for (int64_t b = 0; xmap && b < spec->n_boxes; b++) {
        vfy_box *bx = &spec->boxes[b];
        permute_into(bx->lo, xmap, spec->n_x, tmp);
        permute_into(bx->hi, xmap, spec->n_x, tmp);
        permute_into(bx->in_lo, xmap, spec->n_x, tmp);
        permute_into(bx->in_hi, xmap, spec->n_x, tmp);
        unsigned char *flags = bx->real_pt ? vfy_alloc((size_t)spec->n_x) : NULL;
        if (bx->real_pt && !flags) {
            vfy_free(tmp);
            return vfy_fail(err, VFY_ERR_NOMEM, "out of memory renumbering the query's variables");
        }
        if (flags) {
            for (int64_t i = 0; i < spec->n_x; i++)
                flags[xmap[i]] = bx->real_pt[i];
            vfy_free(bx->real_pt);
            bx->real_pt = flags;
        }
    }
    for (int64_t c = 0; c < spec->n_cases; c++)
        for (int64_t r = 0; r < spec->cases[c].n_rows; r++) {
            vfy_row *row = &spec->cases[c].rows[r];
            if (ymap)
                permute_into(row->cy, ymap, spec->n_y, tmp);
            if (xmap && row->cx)
                permute_into(row->cx, xmap, spec->n_x, tmp);
        }
    for (int64_t q = 0; q < spec->n_nets; q++) {
        vfy_spec_net *nt = &spec->nets[q];
        for (int j = 0; xmap && j < nt->n_inputs; j++)
            nt->inputs[j].off = xmap[nt->inputs[j].off];
        for (int j = 0; ymap && j < nt->n_outputs; j++)
            nt->outputs[j].off = ymap[nt->outputs[j].off];
    }
    vfy_free(tmp);
    return VFY_OK;
}

int vfy_spec_hidden_names(const vfy_spec *spec, int64_t q, const char **names)
{
    int n = 0;
    for (int j = 0; q < spec->n_nets && j < spec->nets[q].n_outputs; j++)
        if (spec->nets[q].outputs[j].hidden)
            names[n++] = spec->nets[q].outputs[j].onnx_name;
    return n;
}

void vfy_spec_free(vfy_spec *spec)
{
    if (!spec)
        return;
    for (int64_t k = 0; k < spec->n_boxes; k++) {
        vfy_free(spec->boxes[k].lo);
        vfy_free(spec->boxes[k].hi);
        vfy_free(spec->boxes[k].in_lo);
        vfy_free(spec->boxes[k].in_hi);
        vfy_free(spec->boxes[k].real_pt);
    }
    vfy_free(spec->boxes);
    for (int64_t k = 0; k < spec->n_cases; k++) {
        for (int64_t r = 0; r < spec->cases[k].n_rows; r++) {
            vfy_free(spec->cases[k].rows[r].cy);
            vfy_free(spec->cases[k].rows[r].cx);
        }
        vfy_free(spec->cases[k].rows);
    }
    vfy_free(spec->cases);
    for (int64_t q = 0; q < spec->n_nets; q++) {
        vfy_spec_net *nt = &spec->nets[q];
        for (int k = 0; k < 2 * VFY_SPEC_MAX_IO; k++) {
            vfy_spec_tensor *t = k < VFY_SPEC_MAX_IO ? &nt->inputs[k]
                                                     : &nt->outputs[k - VFY_SPEC_MAX_IO];
            vfy_free(t->name);
            vfy_free(t->type);
            vfy_free(t->onnx_name);
        }
        vfy_free(nt->name);
    }
    vfy_free(spec->nets);
    vfy_free(spec);
}
