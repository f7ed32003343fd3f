/* Check suite for the VNNLIB parser (src/spec.c): normalised form, exact constants, every error with
 * its line:column, the VNN-COMP benchmark files (when ../shared/benchmarks exists), allocation
 * failures, truncated and corrupted input, deep nesting and speed. */
#include "require.h"
#include "vfy/spec.h"

#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <unistd.h>

#define BENCH "../shared/benchmarks"
#define H1 "(declare-const X_0 Real)\n(declare-const Y_0 Real)\n" /* asserts start on line 3 */

static vfy_status parse(const char *txt, vfy_spec **s, vfy_error *e)
{
    return vfy_spec_parse(txt, strlen(txt), "t.vnnlib", s, e);
}

static vfy_spec *parse_ok(const char *txt)
{
    vfy_spec *s = NULL;
    vfy_error e;
    vfy_status st = parse(txt, &s, &e);
    REQUIRE_MSG(st == VFY_OK, "unexpected error: %s", e.msg);
    ck_assert_ptr_nonnull(s);
    return s;
}

/* The parse fails with status want and a message that starts with prefix (e.g. "t.vnnlib:3:9: ")
 * and contains sub. */
static void parse_err(const char *txt, vfy_status want, const char *prefix, const char *sub)
{
    vfy_spec *s = (vfy_spec *)&s; /* must be reset to NULL */
    vfy_error e;
    vfy_status st = parse(txt, &s, &e);
    REQUIRE_MSG(st == want, "status %s (want %s), message: %s", vfy_status_name(st),
                vfy_status_name(want), e.msg);
    ck_assert_ptr_null(s);
    ck_assert_int_eq(e.status, want);
    REQUIRE_MSG(strncmp(e.msg, prefix, strlen(prefix)) == 0, "message '%s' lacks prefix '%s'",
                e.msg, prefix);
    REQUIRE_MSG(strstr(e.msg, sub) != NULL, "message '%s' lacks '%s'", e.msg, sub);
    REQUIRE_MSG(strchr(e.msg, '\n') == NULL, "message is one line");
}

/* Rounding of a decimal literal to the doubles below and above it (glibc's strtod honours the
 * rounding mode): the oracle for the parser's exact enclosures. */
static double strtod_dir(const char *s, int mode)
{
    fesetround(mode);
    double v = strtod(s, NULL);
    fesetround(FE_TONEAREST);
    return v;
}

static double nu(double x) { return nextafter(x, INFINITY); }
static double nd(double x) { return nextafter(x, -INFINITY); }

/* ---- normalised form ------------------------------------------------------------------------- */

START_TEST(test_exact_box_and_row)
{
    vfy_spec *s = parse_ok(H1 "(assert (>= X_0 -1))\n(assert (<= X_0 0.5))\n(assert (<= Y_0 3))\n");
    ck_assert_int_eq(s->n_x, 1);
    ck_assert_int_eq(s->n_y, 1);
    ck_assert_int_eq(s->n_boxes, 1);
    ck_assert_int_eq(s->n_cases, 1);
    vfy_box *b = &s->boxes[0];
    ck_assert(b->lo[0] == -1 && b->in_lo[0] == -1 && b->hi[0] == 0.5 && b->in_hi[0] == 0.5);
    vfy_case *c = &s->cases[0];
    ck_assert_int_eq(c->box, 0);
    ck_assert_int_eq(c->n_rows, 1);
    ck_assert(c->rows[0].cy[0] == 1.0);
    ck_assert_ptr_null(c->rows[0].cx);
    ck_assert(c->rows[0].rhs_lo == 3 && c->rows[0].rhs_hi == 3);
    vfy_spec_free(s);
}
END_TEST

START_TEST(test_inexact_literals)
{
    /* 0.1 rounds up to the double 0.1 (> 1/10), 0.3 rounds down (< 3/10) */
    vfy_spec *s = parse_ok(H1 "(assert (<= X_0 0.1))(assert (>= X_0 -0.3))(assert (<= Y_0 0.1))");
    vfy_box *b = &s->boxes[0];
    ck_assert(b->hi[0] == 0.1 && b->in_hi[0] == nd(0.1));        /* in_hi < 1/10 < hi */
    ck_assert(b->lo[0] == nd(-0.3) && b->in_lo[0] == -0.3);      /* lo < -3/10 < in_lo */
    ck_assert(b->hi[0] == strtod_dir("0.1", FE_UPWARD));
    ck_assert(b->in_hi[0] == strtod_dir("0.1", FE_DOWNWARD));
    vfy_row *r = &s->cases[0].rows[0];
    ck_assert(r->rhs_lo == nd(0.1) && r->rhs_hi == 0.1);
    vfy_spec_free(s);
}
END_TEST

START_TEST(test_literal_forms)
{
    const char *forms[][2] = {
        {"-0.5", "-0.5"}, {"(- 0.5)", "-0.5"}, {"+0.5", "0.5"}, {"5e-1", "0.5"},
        {"5E-1", "0.5"},  {".5", "0.5"},       {"5.", "5"},     {"0.500000000000000000000000000000", "0.5"},
        {"1.5e+2", "150"}, {"-0", "0"},        {"(- (- 2))", "2"}, {"0000.25", "0.25"},
        {"9007199254740993", "9007199254740993"}, {"1e-400", "1e-400"}, {"1e22", "1e22"},
        {"123456789012345678901234567890e-10", "12345678901234567890.123456789"},
    };
    for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++) {
        char txt[512];
        snprintf(txt, sizeof txt, H1 "(assert (<= X_0 %s))(assert (>= X_0 -1e300))", forms[k][0]);
        vfy_spec *s = parse_ok(txt);
        double up = strtod_dir(forms[k][1], FE_UPWARD), dn = strtod_dir(forms[k][1], FE_DOWNWARD);
        REQUIRE_MSG(s->boxes[0].hi[0] == up && s->boxes[0].in_hi[0] == dn,
                    "literal %s: [%.17g %.17g], want [%.17g %.17g]", forms[k][0],
                    s->boxes[0].in_hi[0], s->boxes[0].hi[0], dn, up);
        ck_assert(!signbit(s->boxes[0].hi[0]) || s->boxes[0].hi[0] != 0); /* no -0 */
        vfy_spec_free(s);
    }
}
END_TEST

/* Random literals (short ones take the 128-bit path, long ones the printf path) against the
 * directed-rounding oracle, as an X bound and as a row right-hand side. */
START_TEST(test_random_literals)
{
    srand(12345);
    for (int it = 0; it < 4000; it++) {
        char lit[128], txt[512];
        int n = 1 + rand() % (it % 4 == 0 ? 40 : 20), p = 0;
        if (rand() % 2)
            lit[p++] = '-';
        int point = rand() % (n + 1);
        for (int k = 0; k < n; k++) {
            if (k == point)
                lit[p++] = '.';
            lit[p++] = (char)('0' + rand() % 10);
        }
        if (rand() % 3 == 0)
            p += snprintf(lit + p, 16, "e%d", rand() % 80 - 40);
        lit[p] = '\0';
        snprintf(txt, sizeof txt, H1 "(assert (<= X_0 %s))(assert (>= X_0 -1e300))(assert (>= Y_0 %s))",
                 lit, lit);
        vfy_spec *s = parse_ok(txt);
        double up = strtod_dir(lit, FE_UPWARD) + 0.0, dn = strtod_dir(lit, FE_DOWNWARD) + 0.0;
        REQUIRE_MSG(s->boxes[0].hi[0] == up && s->boxes[0].in_hi[0] == dn, "literal %s", lit);
        vfy_row *r = &s->cases[0].rows[0]; /* -Y_0 <= -lit */
        ck_assert(r->cy[0] == -1);
        REQUIRE_MSG(r->rhs_lo == -up && r->rhs_hi == -dn, "literal %s: rhs [%.17g %.17g]", lit,
                    r->rhs_lo, r->rhs_hi);
        vfy_spec_free(s);
    }
}
END_TEST

/* real_pt: an input whose inner interval is empty (its real interval holds no double) is marked
 * when its bounds prove the real interval not empty, decided exactly between literals that share
 * an enclosure; vfy_box_cex_range then gives its outer interval (2), an inner one otherwise (1),
 * and nothing where the interval is or may be empty (0). */
START_TEST(test_real_points)
{
    const struct {
        const char *asserts;
        int range; /* vfy_box_cex_range of X_0 */
    } t[] = {
        {"(assert (= X_0 0.1))", 2},
        {"(assert (<= X_0 0.1))(assert (>= X_0 0.1))", 2},
        {"(assert (<= 0.1 X_0))(assert (<= X_0 0.10))", 2},
        {"(assert (>= X_0 0.1))(assert (<= X_0 0.10000000000000000001))", 2},
        {"(assert (>= X_0 0.1))(assert (>= X_0 0.10000000000000000001))"
         "(assert (<= X_0 0.10000000000000000001))", 2},
        {"(assert (>= X_0 -0.3))(assert (<= X_0 -0.3))", 2},
        /* SMT-LIB's negative numerals, (- 0.3), and a unary plus */
        {"(assert (= X_0 (- 0.3)))", 2},
        {"(assert (>= X_0 (- 0.3)))(assert (<= X_0 -0.3))", 2},
        {"(assert (>= X_0 (- (- 0.1))))(assert (<= X_0 (+ 0.1)))", 2},
        {"(assert (>= X_0 (- 0.29999999999999999999)))(assert (<= X_0 (- 0.3)))", 0},
        {"(assert (>= X_0 1e-400))(assert (<= X_0 1e-400))", 2},
        /* empty real intervals of the same enclosure */
        {"(assert (>= X_0 0.10000000000000000001))(assert (<= X_0 0.1))", 0},
        {"(assert (>= X_0 0.1))(assert (>= X_0 0.10000000000000000001))(assert (<= X_0 0.1))", 0},
        {"(assert (< X_0 0.1))(assert (>= X_0 0.1))", 0},
        {"(assert (> X_0 0))(assert (< X_0 0))", 0},
        {"(assert (>= X_0 -0.3))(assert (<= X_0 -0.30000000000000000001))", 0},
        /* not a literal against X_0 alone: not decided, so not marked */
        {"(assert (<= (* 2 X_0) 0.2))(assert (>= X_0 0.1))", 0},
        {"(assert (<= X_0 (+ 0.05 0.05)))(assert (>= X_0 0.1))", 0},
        /* intervals that hold doubles: the inner one */
        {"(assert (>= X_0 0.1))(assert (<= X_0 0.1000000000001))", 1},
        {"(assert (= X_0 0.5))", 1},
    };
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
        char text[512];
        snprintf(text, sizeof text, H1 "%s(assert (<= Y_0 1))", t[k].asserts);
        vfy_spec *s = parse_ok(text);
        const vfy_box *b = &s->boxes[0];
        double lo, hi;
        int range = vfy_box_cex_range(b, 0, &lo, &hi);
        REQUIRE_MSG(range == t[k].range, "%s: range %d", t[k].asserts, range);
        if (range == 2)
            ck_assert(b->in_lo[0] > b->in_hi[0] && lo == b->lo[0] && hi == b->hi[0]);
        if (range == 1)
            ck_assert(lo == b->in_lo[0] && hi == b->in_hi[0] && lo <= hi);
        vfy_spec_free(s);
    }
    /* random pairs of 20-digit decimals of one length, so that strcmp orders them as numbers,
     * most of them within one double's enclosure: the interval [a, b] (or (a, b]) holds a real
     * point exactly when a <= b (a < b); a contradictory spec (its enclosures apart) is an error */
    uint64_t st = 12345;
    for (int k = 0; k < 400; k++) {
        char a[32], b[32], text[512];
        snprintf(a, sizeof a, "0.1000000000000000");
        snprintf(b, sizeof b, "0.1000000000000000");
        for (int d = 0; d < 4; d++) {
            st = st * 6364136223846793005ULL + 1442695040888963407ULL;
            a[18 + d] = (char)('0' + (st >> 33) % 10);
            b[18 + d] = (char)('0' + (st >> 40) % 10);
            a[19 + d] = b[19 + d] = '\0';
        }
        if (k % 7 == 0)
            memcpy(b, a, sizeof a);
        int strict = k % 3 == 0, c = strcmp(a, b);
        snprintf(text, sizeof text,
                 H1 "(assert (%s X_0 %s))(assert (<= X_0 %s))(assert (<= Y_0 1))",
                 strict ? ">" : ">=", a, b);
        vfy_spec *sp = NULL;
        vfy_error e;
        if (vfy_spec_parse(text, strlen(text), "t.vnnlib", &sp, &e) != VFY_OK) {
            REQUIRE_MSG(c > 0 || (strict && c == 0), "%s: %s", text, e.msg);
            continue;
        }
        double lo, hi;
        int r = vfy_box_cex_range(&sp->boxes[0], 0, &lo, &hi);
        int nonempty = strict ? c < 0 : c <= 0;
        REQUIRE_MSG(nonempty ? r != 0 : r == 0, "%s: range %d", text, r);
        vfy_spec_free(sp);
    }
    /* two boxes alike but for real_pt stay two boxes (a case's point is not another's empty
     * interval), and a disjunct's mark is its own */
    vfy_spec *s = parse_ok(H1 "(assert (or (and (>= X_0 0.1) (<= X_0 0.1))\n"
                           "(and (>= X_0 0.10000000000000000001) (<= X_0 0.1))))"
                           "(assert (<= Y_0 1))");
    ck_assert_int_eq(s->n_boxes, 2);
    double lo, hi;
    ck_assert_int_eq(vfy_box_cex_range(&s->boxes[s->cases[0].box], 0, &lo, &hi), 2);
    ck_assert_int_eq(vfy_box_cex_range(&s->boxes[s->cases[1].box], 0, &lo, &hi), 0);
    vfy_spec_free(s);
}
END_TEST

/* Literals that are a double's whole decimal expansion (up to 767 digits: random bit patterns,
 * float32 values, subnormals, large integers) and the same with the last digit one up or down:
 * the first is the point [v, v], the others (of 18 digits or more) the next double out on their
 * side (the long path prints only as many digits as v's expansion can have, not 801). */
START_TEST(test_exact_long_literals)
{
    uint64_t st = 99;
    for (int it = 0; it < 3000; it++) {
        st = st * 6364136223846793005ULL + 1442695040888963407ULL;
        uint64_t bits = st >> 1;
        double v;
        if (it % 4 == 0) { /* a float32 value */
            uint32_t b32 = (uint32_t)(bits >> 33) & 0x7f7fffffu;
            float f;
            memcpy(&f, &b32, sizeof f);
            v = (double)f;
        } else {
            memcpy(&v, &bits, sizeof v);
            if (it % 4 == 1)
                v = ldexp(v, 0) * 0x1p-1000; /* (small, often subnormal) */
        }
        v = fabs(v);
        if (!isfinite(v) || v == 0)
            continue;
        char buf[900], lit[900];
        snprintf(buf, sizeof buf, "%.800e", v);
        /* the digits without trailing zeros, as d[0].d[1..]e<exp> */
        char *e = strchr(buf, 'e');
        ck_assert_ptr_nonnull(e);
        char *last = e - 1;
        while (*last == '0')
            last--;
        if (*last == '.')
            last--;
        for (int w = -1; w <= 1; w++) {
            size_t n = (size_t)(last - buf + 1);
            memcpy(lit, buf, n);
            if (w != 0) {
                /* (18 digits or more: the last one's unit is under half an ulp of v) */
                if (n < 19 || !(lit[n - 1] >= '1' && lit[n - 1] <= '8'))
                    continue;
                lit[n - 1] = (char)(lit[n - 1] + w);
            }
            snprintf(lit + n, sizeof lit - n, "%s", e);
            char txt[1200];
            snprintf(txt, sizeof txt, H1 "(assert (<= X_0 %s))(assert (>= X_0 -1))", lit);
            vfy_spec *s = parse_ok(txt);
            double hi = s->boxes[0].hi[0], in_hi = s->boxes[0].in_hi[0];
            double want_hi = w > 0 ? nu(v) : v, want_in = w < 0 ? nd(v) : v;
            REQUIRE_MSG(hi == want_hi && in_hi == want_in, "%.17g, last digit %+d: [%.17g %.17g]",
                        v, w, in_hi, hi);
            vfy_spec_free(s);
        }
    }
}
END_TEST

START_TEST(test_rows_normalised)
{
    vfy_spec *s = parse_ok("(declare-const Y_1 Real)(declare-const X_0 Real)(declare-const Y_0 Real)"
                           "(assert (and (<= X_0 1) (>= X_0 0)))"
                           "(assert (>= Y_0 Y_1))"   /* -Y_0 + Y_1 <= 0 */
                           "(assert (<= 2.5 Y_0))"   /* -Y_0 <= -2.5 */
                           "(assert (< Y_1 Y_0))"    /* strict read as <= */
                           "(assert (> Y_1 -1))");   /* -Y_1 <= 1 */
    ck_assert_int_eq(s->n_y, 2);
    ck_assert_int_eq(s->n_cases, 1);
    vfy_case *c = &s->cases[0];
    ck_assert_int_eq(c->n_rows, 4);
    ck_assert(c->rows[0].cy[0] == -1 && c->rows[0].cy[1] == 1 && c->rows[0].rhs_lo == 0 &&
              c->rows[0].rhs_hi == 0 && !signbit(c->rows[0].rhs_lo));
    ck_assert(c->rows[1].cy[0] == -1 && c->rows[1].cy[1] == 0 && c->rows[1].rhs_lo == -2.5 &&
              c->rows[1].rhs_hi == -2.5);
    ck_assert(c->rows[2].cy[0] == -1 && c->rows[2].cy[1] == 1);
    ck_assert(c->rows[3].cy[1] == -1 && c->rows[3].rhs_lo == 1 && c->rows[3].rhs_hi == 1);
    for (int k = 0; k < 4; k++)
        ck_assert_ptr_null(c->rows[k].cx);
    vfy_spec_free(s);
}
END_TEST

/* Strict comparisons: proofs read them as non-strict (the outer box, the rows' rhs), while a
 * counterexample must satisfy them strictly: the inner box stops one double short of an exact
 * bound, rows carry the flag; a disequality is the disjunction of the two strict sides. */
START_TEST(test_strict_comparisons)
{
    vfy_spec *s = parse_ok(H1 "(assert (< X_0 1))(assert (> X_0 -1))(assert (< Y_0 3))");
    vfy_box *b = &s->boxes[0];
    ck_assert(b->hi[0] == 1 && b->in_hi[0] == nd(1) && b->lo[0] == -1 && b->in_lo[0] == nu(-1));
    ck_assert(s->cases[0].rows[0].strict == 1 && s->cases[0].rows[0].rhs_lo == 3);
    vfy_spec_free(s);
    /* an inexact bound's inner end is already strictly inside */
    s = parse_ok(H1 "(assert (< X_0 0.1))(assert (>= X_0 -1))(assert (<= Y_0 3))");
    ck_assert(s->boxes[0].hi[0] == 0.1 && s->boxes[0].in_hi[0] == nd(0.1));
    ck_assert(s->boxes[0].in_lo[0] == -1 && s->cases[0].rows[0].strict == 0);
    vfy_spec_free(s);
    /* a bound through a coefficient: 2 X < 1 */
    s = parse_ok(H1 "(assert (< (* 2 X_0) 1))(assert (>= X_0 -1))(assert (<= Y_0 3))");
    ck_assert(s->boxes[0].hi[0] == 0.5 && s->boxes[0].in_hi[0] == nd(0.5));
    vfy_spec_free(s);
    /* constants: 1 < 1 is false, 1 <= 1 true, 1 != 2 true, 1 != 1 false */
    parse_err(H1 "(assert (<= -1 X_0 1))(assert (< 1 1))", VFY_ERR_INVALID, "t.vnnlib:3:1: ",
              "every case contains a false comparison");
    parse_err(H1 "(assert (<= -1 X_0 1))(assert (!= 1 1))", VFY_ERR_INVALID, "t.vnnlib:3:1: ",
              "every case contains a false comparison");
    s = parse_ok(H1 "(assert (<= -1 X_0 1))(assert (<= 1 1))(assert (!= 1 2))(assert (> Y_0 0))");
    ck_assert_int_eq(s->n_cases, 1);
    ck_assert(s->cases[0].n_rows == 1 && s->cases[0].rows[0].strict == 1);
    ck_assert(s->cases[0].rows[0].cy[0] == -1 && s->cases[0].rows[0].rhs_hi == 0);
    vfy_spec_free(s);
    /* Y_0 != Y_1: two cases, Y_0 - Y_1 < 0 and Y_1 - Y_0 < 0 */
    s = parse_ok("(declare-const X_0 Real)(declare-const Y_0 Real)(declare-const Y_1 Real)"
                 "(assert (<= -1 X_0 1))(assert (!= Y_0 Y_1))");
    ck_assert_int_eq(s->n_cases, 2);
    for (int k = 0; k < 2; k++) {
        vfy_row *r = &s->cases[k].rows[0];
        ck_assert(r->strict == 1 && r->rhs_lo == 0 && r->rhs_hi == 0);
        ck_assert(r->cy[0] == (k ? -1 : 1) && r->cy[1] == (k ? 1 : -1));
    }
    vfy_spec_free(s);
    /* X_0 != 0.5 on [0, 1]: [0, 0.5) and (0.5, 1] */
    s = parse_ok(H1 "(assert (<= 0 X_0 1))(assert (distinct X_0 0.5))(assert (<= Y_0 1))");
    ck_assert_int_eq(s->n_cases, 2);
    ck_assert_int_eq(s->n_boxes, 2);
    b = &s->boxes[s->cases[0].box];
    ck_assert(b->lo[0] == 0 && b->hi[0] == 0.5 && b->in_hi[0] == nd(0.5));
    b = &s->boxes[s->cases[1].box];
    ck_assert(b->lo[0] == 0.5 && b->in_lo[0] == nu(0.5) && b->hi[0] == 1);
    vfy_spec_free(s);
    parse_err(H1 "(assert (distinct X_0 1 2))", VFY_ERR_UNSUPPORTED, "t.vnnlib:3:9: ",
              "'distinct' is supported with two arguments");
}
END_TEST

START_TEST(test_equality_and_chain)
{
    vfy_spec *s = parse_ok(H1 "(assert (= X_0 0.5))(assert (= Y_0 1))");
    ck_assert(s->boxes[0].lo[0] == 0.5 && s->boxes[0].hi[0] == 0.5);
    ck_assert(s->boxes[0].in_lo[0] == 0.5 && s->boxes[0].in_hi[0] == 0.5);
    ck_assert_int_eq(s->cases[0].n_rows, 2);
    ck_assert(s->cases[0].rows[0].cy[0] == 1 && s->cases[0].rows[0].rhs_hi == 1);
    ck_assert(s->cases[0].rows[1].cy[0] == -1 && s->cases[0].rows[1].rhs_lo == -1);
    vfy_spec_free(s);
    s = parse_ok(H1 "(assert (<= -2 X_0 3))(assert (>= 4 Y_0 1))");
    ck_assert(s->boxes[0].lo[0] == -2 && s->boxes[0].hi[0] == 3);
    ck_assert_int_eq(s->cases[0].n_rows, 2); /* Y_0 <= 4, -Y_0 <= -1 */
    ck_assert(s->cases[0].rows[0].cy[0] == 1 && s->cases[0].rows[0].rhs_lo == 4);
    ck_assert(s->cases[0].rows[1].cy[0] == -1 && s->cases[0].rows[1].rhs_lo == -1);
    vfy_spec_free(s);
}
END_TEST

START_TEST(test_linear_terms)
{
    vfy_spec *s = parse_ok("(declare-const X_0 Real)(declare-const X_1 Real)"
                           "(declare-const Y_0 Real)(declare-const Y_1 Real)"
                           "(assert (<= (* 2 X_0) 1))"              /* X_0 <= 0.5 */
                           "(assert (>= (* -4 X_0) 1))"             /* X_0 <= -0.25 */
                           "(assert (>= (- X_0) 1))"                /* X_0 <= -1 */
                           "(assert (<= (* 3 X_0 -1) 6))"           /* X_0 >= -2 */
                           "(assert (and (<= X_1 1) (>= (+ X_1 X_1 X_1) -3)))" /* X_1 >= -1 */
                           "(assert (<= (+ Y_0 1.5) Y_1))"          /* Y_0 - Y_1 <= -1.5 */
                           "(assert (<= (* 2 Y_0) (- Y_1 (* 3 X_0) 1)))" /* 2Y0 - Y1 + 3X0 <= -1 */
                           "(assert (<= X_0 X_1))"                  /* X_0 - X_1 <= 0 */
                           "(assert (<= (- Y_0 Y_0) (+ 1 2)))"      /* 0 <= 3: true, dropped */
                           "(assert (<= (+ Y_0 0.1 0.2) 0))");      /* Y_0 <= -(0.1+0.2) */
    vfy_box *b = &s->boxes[0];
    ck_assert(b->hi[0] == -1 && b->lo[0] == -2 && b->hi[1] == 1 && b->lo[1] == -1);
    vfy_case *c = &s->cases[0];
    ck_assert_int_eq(c->n_rows, 4);
    ck_assert(c->rows[0].cy[0] == 1 && c->rows[0].cy[1] == -1 && !c->rows[0].cx);
    ck_assert(c->rows[0].rhs_lo == -1.5 && c->rows[0].rhs_hi == -1.5);
    ck_assert(c->rows[1].cy[0] == 2 && c->rows[1].cy[1] == -1 && c->rows[1].cx);
    ck_assert(c->rows[1].cx[0] == 3 && c->rows[1].cx[1] == 0 && c->rows[1].rhs_lo == -1);
    ck_assert(c->rows[2].cy[0] == 0 && c->rows[2].cy[1] == 0);
    ck_assert(c->rows[2].cx[0] == 1 && c->rows[2].cx[1] == -1 && c->rows[2].rhs_hi == 0);
    /* -(0.1 + 0.2) = -0.3 in reals: enclosed, and tight to a few ulps */
    vfy_row *r = &c->rows[3];
    ck_assert(r->cy[0] == 1);
    ck_assert(r->rhs_lo <= strtod_dir("-0.3", FE_DOWNWARD));
    ck_assert(r->rhs_hi >= strtod_dir("-0.3", FE_UPWARD));
    ck_assert(r->rhs_hi - r->rhs_lo < 1e-15);
    vfy_spec_free(s);
    /* inexact division: X_0 <= 1/3 */
    s = parse_ok(H1 "(assert (<= (* 3 X_0) 1))(assert (>= X_0 0))");
    ck_assert(s->boxes[0].in_hi[0] < s->boxes[0].hi[0]);
    ck_assert(s->boxes[0].in_hi[0] == 1.0 / 3.0 && s->boxes[0].hi[0] == nu(1.0 / 3.0)); /* RN = RD here */
    vfy_spec_free(s);
}
END_TEST

START_TEST(test_disjunctions)
{
    /* the shape of acasxu prop_6: 2 input boxes times 4 output disjuncts */
    const char *txt = "(declare-const X_0 Real)(declare-const X_1 Real)"
                      "(declare-const Y_0 Real)(declare-const Y_1 Real)(declare-const Y_2 Real)"
                      "(assert (or (and (<= X_0 1) (>= X_0 0) (<= X_1 1) (>= X_1 0))\n"
                      "            (and (<= X_0 1) (>= X_0 0) (<= X_1 -1) (>= X_1 -2))))\n"
                      "(assert (or (and (<= Y_1 Y_0)) (and (<= Y_2 Y_0)) (<= Y_0 0) (<= Y_1 0)))";
    vfy_spec *s = parse_ok(txt);
    ck_assert_int_eq(s->n_boxes, 2);
    ck_assert_int_eq(s->n_cases, 8);
    for (int k = 0; k < 8; k++) {
        ck_assert_int_eq(s->cases[k].box, k / 4);
        ck_assert_int_eq(s->cases[k].n_rows, 1);
    }
    ck_assert(s->boxes[1].lo[1] == -2 && s->boxes[1].hi[1] == -1);
    ck_assert(s->cases[1].rows[0].cy[2] == 1 && s->cases[1].rows[0].cy[0] == -1);
    ck_assert(s->cases[2].rows[0].cy[0] == 1 && s->cases[2].rows[0].cy[1] == 0);
    vfy_spec_free(s);
    /* nested: (or (and A (or B C)) D) = AB | AC | D; the same box for all three */
    s = parse_ok(H1 "(assert (and (<= X_0 1) (>= X_0 0)))"
                    "(assert (or (and (<= Y_0 1) (or (<= Y_0 2) (and (<= Y_0 3) true))) (<= Y_0 4)))");
    ck_assert_int_eq(s->n_boxes, 1);
    ck_assert_int_eq(s->n_cases, 3);
    ck_assert_int_eq(s->cases[0].n_rows, 2);
    ck_assert_int_eq(s->cases[1].n_rows, 2);
    ck_assert_int_eq(s->cases[2].n_rows, 1);
    ck_assert(s->cases[0].rows[1].rhs_lo == 2 && s->cases[1].rows[1].rhs_lo == 3);
    ck_assert(s->cases[2].rows[0].rhs_lo == 4);
    vfy_spec_free(s);
    /* left- and right-nested chains keep document order */
    s = parse_ok(H1 "(assert (and (<= X_0 1) (>= X_0 0)))"
                    "(assert (or (or (or (<= Y_0 1) (<= Y_0 2)) (<= Y_0 3)) (or (<= Y_0 4) (<= Y_0 5))))");
    ck_assert_int_eq(s->n_cases, 5);
    for (int k = 0; k < 5; k++)
        ck_assert(s->cases[k].rows[0].rhs_lo == k + 1);
    vfy_spec_free(s);
    /* a box bound inside a disjunction only; the same box reached twice is shared */
    s = parse_ok(H1 "(assert (or (and (<= X_0 1) (>= X_0 0) (<= Y_0 1))"
                    "            (and (>= X_0 0) (<= X_0 1) (<= Y_0 2))))");
    ck_assert_int_eq(s->n_boxes, 1);
    ck_assert_int_eq(s->n_cases, 2);
    vfy_spec_free(s);
}
END_TEST

START_TEST(test_constants_and_booleans)
{
    /* true constant comparisons vanish; a false one removes its disjunct */
    vfy_spec *s = parse_ok(H1 "(assert (<= 1 2))(assert (and (<= X_0 1) (>= X_0 0)))"
                              "(assert (or (and (<= 2 1) (<= Y_0 5)) (<= Y_0 6) false))");
    ck_assert_int_eq(s->n_cases, 1);
    ck_assert(s->cases[0].rows[0].rhs_lo == 6);
    vfy_spec_free(s);
    /* no output constraint at all: every point of the box is unsafe */
    s = parse_ok(H1 "(assert (and (<= X_0 1) (>= X_0 0) true))");
    ck_assert_int_eq(s->n_cases, 1);
    ck_assert_int_eq(s->cases[0].n_rows, 0);
    vfy_spec_free(s);
    /* (<= 0.1 0.1) cannot be decided from enclosures: kept as a row with no variable */
    s = parse_ok(H1 "(assert (and (<= X_0 1) (>= X_0 0) (<= 0.1 0.1)))");
    ck_assert_int_eq(s->cases[0].n_rows, 1);
    ck_assert(s->cases[0].rows[0].cy[0] == 0 && s->cases[0].rows[0].rhs_lo <= 0 &&
              s->cases[0].rows[0].rhs_hi >= 0);
    vfy_spec_free(s);
    parse_err(H1 "(assert (and (<= X_0 1) (>= X_0 0)))\n(assert (or (<= 2 1) false))",
              VFY_ERR_INVALID, "t.vnnlib:3:1: ", "contradictory spec");
}
END_TEST

START_TEST(test_declarations_and_commands)
{
    vfy_spec *s = parse_ok("; comment (with parens\n(set-logic QF_LRA)\n"
                           "(declare-fun Y_0 () Real) ; trailing (\n"
                           "(declare-const X_2 Real)(declare-const X_0 Real)(declare-const X_1 Real)\n"
                           "(set-info :source |a | \"str \"\" ing\")\n"
                           "(assert (and (<= X_0 1) (<= X_1 1) (<= X_2 1)))\n"
                           "(assert (and (>= X_0 0) (>= X_1 0) (>= X_2 0)))\n(check-sat)\n(exit)\r\n");
    ck_assert_int_eq(s->n_x, 3);
    ck_assert_int_eq(s->n_y, 1);
    ck_assert_int_eq(s->cases[0].n_rows, 0);
    vfy_spec_free(s);
}
END_TEST

START_TEST(test_deep_nesting)
{
    /* 9000 nested ands, 9000 nested sums and 5000 nested ors: no recursion, no stack overflow */
    size_t cap = 400000, n = 0;
    char *t = malloc(cap);
    n += (size_t)snprintf(t + n, cap - n, H1 "(assert ");
    for (int k = 0; k < 9000; k++)
        n += (size_t)snprintf(t + n, cap - n, "(and ");
    n += (size_t)snprintf(t + n, cap - n, "(<= X_0 1) (>= X_0 0)");
    for (int k = 0; k < 9000; k++)
        t[n++] = ')';
    n += (size_t)snprintf(t + n, cap - n, ")\n(assert (<= ");
    for (int k = 0; k < 9000; k++)
        n += (size_t)snprintf(t + n, cap - n, "(+ 1 ");
    n += (size_t)snprintf(t + n, cap - n, "Y_0");
    for (int k = 0; k < 9000; k++)
        t[n++] = ')';
    n += (size_t)snprintf(t + n, cap - n, " 0))\n(assert ");
    for (int k = 0; k < 5000; k++)
        n += (size_t)snprintf(t + n, cap - n, "(or (<= Y_0 %d) ", k);
    n += (size_t)snprintf(t + n, cap - n, "false");
    for (int k = 0; k < 5000; k++)
        t[n++] = ')';
    n += (size_t)snprintf(t + n, cap - n, ")");
    t[n] = '\0';
    vfy_spec *s = parse_ok(t);
    ck_assert_int_eq(s->n_cases, 5000);
    ck_assert_int_eq(s->cases[4999].n_rows, 2);
    ck_assert(s->cases[0].rows[0].rhs_lo == -9000 && s->cases[4999].rows[1].rhs_lo == 4999);
    vfy_spec_free(s);
    /* too deep: an error, not a crash */
    n = (size_t)snprintf(t, cap, H1);
    for (int k = 0; k < 20000; k++)
        t[n++] = '(';
    t[n] = '\0';
    parse_err(t, VFY_ERR_PARSE, "t.vnnlib:3:10001: ", "nesting deeper than 10000");
    free(t);
}
END_TEST

/* ---- errors ---------------------------------------------------------------------------------- */

START_TEST(test_errors_syntax)
{
    parse_err(H1 "(assert (<= X_0 1)", VFY_ERR_PARSE, "t.vnnlib:3:1: ", "never closed");
    parse_err(H1 "(assert (<= X_0 1)))", VFY_ERR_PARSE, "t.vnnlib:3:20: ", "unexpected ')'");
    parse_err(H1 "(assert (foo X_0 1))", VFY_ERR_PARSE, "t.vnnlib:3:10: ", "unknown function 'foo'");
    parse_err(H1 "(assert (<= (sin X_0) 1))", VFY_ERR_PARSE, "t.vnnlib:3:14: ",
              "unknown function 'sin'");
    parse_err(H1 "(assert (and (<= X_0 1)\n   (<= X_5 1)))", VFY_ERR_INVALID, "t.vnnlib:4:8: ",
              "undeclared variable 'X_5'");
    parse_err(H1 "(assert (<= Y_1 1))", VFY_ERR_INVALID, "t.vnnlib:3:13: ", "undeclared variable 'Y_1'");
    parse_err(H1 "(assert (<= Z 1))", VFY_ERR_PARSE, "t.vnnlib:3:13: ", "expected a number or a variable");
    parse_err(H1 "(assert (<= X_0 1.2.3))", VFY_ERR_PARSE, "t.vnnlib:3:17: ", "bad number '1.2.3'");
    parse_err(H1 "(assert (<= X_0 1e))", VFY_ERR_PARSE, "t.vnnlib:3:17: ", "bad number");
    parse_err(H1 "(assert (<= X_0 -))", VFY_ERR_PARSE, "t.vnnlib:3:17: ", "bad number");
    parse_err(H1 "(assert (<= X_0 1e999))", VFY_ERR_UNSUPPORTED, "t.vnnlib:3:17: ", "out of range");
    parse_err(H1 "(assert X_0)", VFY_ERR_PARSE, "t.vnnlib:3:9: ", "expected a formula");
    parse_err(H1 "(assert (<= X_0))", VFY_ERR_PARSE, "t.vnnlib:3:9: ", "at least 2 arguments");
    parse_err(H1 "(assert (<= X_0 1) (<= X_0 2))", VFY_ERR_PARSE, "t.vnnlib:3:1: ", "exactly one");
    parse_err(H1 "(assert ())", VFY_ERR_PARSE, "t.vnnlib:3:9: ", "empty list");
    parse_err(H1 "(assert ((and) 1))", VFY_ERR_PARSE, "t.vnnlib:3:10: ", "expected an operator");
    parse_err(H1 "(push 1)", VFY_ERR_PARSE, "t.vnnlib:3:2: ", "unknown command 'push'");
    parse_err(H1 "assert", VFY_ERR_PARSE, "t.vnnlib:3:1: ", "outside parentheses");
    parse_err(H1 "(assert (<= X_0 \"1))", VFY_ERR_PARSE, "t.vnnlib:3:17: ", "unterminated string");
    parse_err(H1 "(assert (<= X_0 1\x01))", VFY_ERR_PARSE, "t.vnnlib:3:18: ", "unexpected character 0x01");
    parse_err(H1 "(assert (<= (* X_0 Y_0) 1))", VFY_ERR_UNSUPPORTED, "t.vnnlib:3:13: ", "non-linear");
    parse_err(H1 "(assert (<= (* 0.1 X_0) 1))", VFY_ERR_UNSUPPORTED, "t.vnnlib:3:13: ", "exactly representable");
}
END_TEST

START_TEST(test_errors_declarations)
{
    parse_err("(declare-const X_0 Real)\n(declare-const Z Real)", VFY_ERR_INVALID, "t.vnnlib:2:16: ",
              "unsupported variable name 'Z'");
    parse_err("(declare-const X_0 Real)\n(declare-const X_01 Real)", VFY_ERR_INVALID,
              "t.vnnlib:2:16: ", "unsupported variable name");
    parse_err("(declare-const X_0 Int)", VFY_ERR_UNSUPPORTED, "t.vnnlib:1:20: ", "must be Real");
    parse_err("(declare-const X_0 Real)(declare-const Y_0 Real)\n(declare-const X_2 Real)",
              VFY_ERR_INVALID, "t.vnnlib:2:16: ", "X_2 is declared but X_1 is not");
    parse_err("(declare-const X_0 Real)(declare-const Y_0 Real)\n(declare-const X_0 Real)",
              VFY_ERR_INVALID, "t.vnnlib:2:16: ", "X_0 is declared twice");
    parse_err("(declare-const Y_0 Real)\n(assert (<= Y_0 1))\n", VFY_ERR_INVALID, "t.vnnlib:3:1: ",
              "no input variable");
    parse_err("(declare-const X_0 Real)\n(assert (<= X_0 1))", VFY_ERR_INVALID, "t.vnnlib:2:20: ",
              "no output variable");
    parse_err("", VFY_ERR_PARSE, "t.vnnlib:1:1: ", "empty");
    parse_err("; nothing but a comment\n   \n", VFY_ERR_PARSE, "t.vnnlib:1:1: ", "empty");
}
END_TEST

START_TEST(test_errors_region)
{
    parse_err("(declare-const X_0 Real)\n  (declare-const X_1 Real)(declare-const Y_0 Real)\n"
              "(assert (and (<= X_0 1) (>= X_0 0) (>= X_1 0)))",
              VFY_ERR_INVALID, "t.vnnlib:2:18: ", "X_1 has no upper bound");
    parse_err(H1 "(assert (<= X_0 1))", VFY_ERR_INVALID, "t.vnnlib:1:16: ", "X_0 has no lower bound");
    parse_err(H1 "(assert (or (and (<= X_0 1) (>= X_0 0)) (<= X_0 1)))", VFY_ERR_INVALID,
              "t.vnnlib:1:16: ", "X_0 has no lower bound in case 2 of 2");
    parse_err("(declare-const X_0 Real)(declare-const X_1 Real)(declare-const X_2 Real)"
              "(declare-const Y_0 Real)\n(assert (and (<= X_0 1) (>= X_0 0) (<= X_1 1) (>= X_1 0)))\n"
              "(assert (<= X_2 0.4))\n(assert (>= X_2 0.5))",
              VFY_ERR_INVALID, "t.vnnlib:4:9: ",
              "contradictory spec: the input region is empty (X_2 in [0.5, 0.40000000000000002])");
    /* a real point that holds no double: kept for proofs, its inner box empty (no point of it
     * can be printed) */
    vfy_spec *s = parse_ok(H1 "(assert (= X_0 0.1))");
    ck_assert(s->boxes[0].lo[0] <= 0.1 && s->boxes[0].hi[0] >= 0.1);
    ck_assert(s->boxes[0].lo[0] < s->boxes[0].hi[0]);
    ck_assert(s->boxes[0].in_lo[0] > s->boxes[0].in_hi[0]);
    vfy_spec_free(s);
    /* 0 < X_0 < 0: the outer box [0, 0], the inner one empty past both its ends (found by
     * tests/fuzz/fuzz_spec.c against an invariant that asked for in_lo <= hi) */
    s = parse_ok(H1 "(assert (> X_0 0))\n(assert (< X_0 0))");
    ck_assert(s->boxes[0].lo[0] == 0 && s->boxes[0].hi[0] == 0);
    ck_assert(s->boxes[0].in_lo[0] > s->boxes[0].hi[0] && s->boxes[0].in_hi[0] < s->boxes[0].lo[0]);
    vfy_spec_free(s);
    /* an empty disjunct is dropped, the other one stays */
    s = parse_ok(H1 "(assert (or (and (<= X_0 1) (>= X_0 2)) (and (<= X_0 1) (>= X_0 0.5))))");
    ck_assert_int_eq(s->n_cases, 1);
    ck_assert(s->boxes[0].lo[0] == 0.5);
    vfy_spec_free(s);
    /* the DNF blow-up guard: 2^17 cases */
    char t[4096];
    size_t n = (size_t)snprintf(t, sizeof t, H1 "(assert (and (<= X_0 1) (>= X_0 0)))\n");
    for (int k = 0; k < 17; k++)
        n += (size_t)snprintf(t + n, sizeof t - n, "(assert (or (<= Y_0 %d) (<= Y_0 -%d)))\n", k, k);
    parse_err(t, VFY_ERR_UNSUPPORTED, "t.vnnlib:3:1: ", "more than 100000 cases");
}
END_TEST

START_TEST(test_load_errors)
{
    vfy_spec *s = (vfy_spec *)&s;
    vfy_error e;
    ck_assert_int_eq(vfy_spec_load("/nonexistent/dir/p.vnnlib", &s, &e), VFY_ERR_IO);
    ck_assert_ptr_null(s);
    ck_assert_str_eq(e.msg, "/nonexistent/dir/p.vnnlib: cannot open: No such file or directory");
    char path[] = "/tmp/check_spec_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    const char *txt = H1 "(assert (<= X_0 1)) (assert (>= X_0 0))\n(assert (<= Y_7 1))";
    ck_assert_int_eq(write(fd, txt, strlen(txt)), (long)strlen(txt));
    close(fd);
    ck_assert_int_eq(vfy_spec_load(path, &s, &e), VFY_ERR_INVALID);
    ck_assert_ptr_null(s);
    char want[128];
    snprintf(want, sizeof want, "%s:4:13: undeclared variable 'Y_7'", path);
    ck_assert_str_eq(e.msg, want);
    fd = open(path, O_WRONLY | O_TRUNC);
    ck_assert_int_ge(fd, 0);
    txt = H1 "(assert (<= X_0 1)) (assert (>= X_0 0))\n(assert (<= Y_0 7))";
    ck_assert_int_eq(write(fd, txt, strlen(txt)), (long)strlen(txt));
    close(fd);
    ck_assert_int_eq(vfy_spec_load(path, &s, &e), VFY_OK);
    ck_assert_int_eq(s->n_cases, 1);
    vfy_spec_free(s);
    unlink(path);
}
END_TEST

/* ---- the VNN-COMP benchmark files ------------------------------------------------------------ */

static vfy_spec *load_bench(const char *rel)
{
    char path[1200];
    snprintf(path, sizeof path, BENCH "/%s", rel);
    if (access(path, R_OK) != 0)
        return NULL;
    vfy_spec *s = NULL;
    vfy_error e;
    vfy_status st = vfy_spec_load(path, &s, &e);
    REQUIRE_MSG(st == VFY_OK, "%s: %s", rel, e.msg);
    return s;
}

static int have_bench(void)
{
    if (access(BENCH, F_OK) == 0)
        return 1;
    fprintf(stderr, "check_spec: %s not found, benchmark tests skipped\n", BENCH);
    return 0;
}

START_TEST(test_bench_acasxu)
{
    if (!have_bench())
        return;
    vfy_spec *s = load_bench("acasxu/vnnlib/prop_6.vnnlib");
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(s->n_x, 5);
    ck_assert_int_eq(s->n_boxes, 2);
    ck_assert_int_eq(s->n_cases, 8);
    for (int k = 0; k < 8; k++) {
        ck_assert_int_eq(s->cases[k].box, k / 4);
        ck_assert_int_eq(s->cases[k].n_rows, 1);
        ck_assert(s->cases[k].rows[0].cy[k % 4 + 1] == 1 && s->cases[k].rows[0].cy[0] == -1);
    }
    /* 0.700434925 is inexact: the outer hi is above it, the inner below, one ulp apart */
    ck_assert(s->boxes[0].hi[0] == strtod_dir("0.700434925", FE_UPWARD));
    ck_assert(s->boxes[0].in_hi[0] == strtod_dir("0.700434925", FE_DOWNWARD));
    ck_assert(s->boxes[0].lo[3] == -0.5 && s->boxes[0].in_lo[3] == -0.5);
    ck_assert(s->boxes[1].hi[1] == strtod_dir("-0.11140846", FE_UPWARD));
    vfy_spec_free(s);

    s = load_bench("acasxu/vnnlib/prop_1.vnnlib"); /* unsafe: Y_0 >= 3.991125645861615 */
    ck_assert_int_eq(s->n_boxes, 1);
    ck_assert_int_eq(s->n_cases, 1);
    ck_assert_int_eq(s->cases[0].n_rows, 1);
    vfy_row *r = &s->cases[0].rows[0];
    ck_assert(r->cy[0] == -1 && r->cy[1] == 0 && r->cx == NULL);
    ck_assert(r->rhs_lo == -strtod_dir("3.991125645861615", FE_UPWARD));
    ck_assert(r->rhs_hi == -strtod_dir("3.991125645861615", FE_DOWNWARD));
    vfy_spec_free(s);

    s = load_bench("acasxu/vnnlib/prop_3.vnnlib"); /* unsafe: Y_0 <= Y_i for i = 1..4 */
    ck_assert_int_eq(s->n_cases, 1);
    ck_assert_int_eq(s->cases[0].n_rows, 4);
    for (int k = 0; k < 4; k++)
        ck_assert(s->cases[0].rows[k].cy[0] == 1 && s->cases[0].rows[k].cy[k + 1] == -1 &&
                  s->cases[0].rows[k].rhs_lo == 0 && s->cases[0].rows[k].rhs_hi == 0);
    ck_assert(s->boxes[0].hi[3] == 0.5 && s->boxes[0].lo[3] == strtod_dir("0.3", FE_DOWNWARD));
    vfy_spec_free(s);
}
END_TEST

START_TEST(test_bench_mnist)
{
    if (!have_bench())
        return;
    vfy_spec *s = load_bench("mnist_fc/vnnlib/prop_0_0.03.vnnlib");
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(s->n_x, 784);
    ck_assert_int_eq(s->n_y, 10);
    ck_assert_int_eq(s->n_boxes, 1);
    ck_assert_int_eq(s->n_cases, 9);
    for (int k = 0; k < 9; k++) {
        ck_assert_int_eq(s->cases[k].n_rows, 1);
        int i = k < 4 ? k : k + 1; /* unsafe: Y_i >= Y_4, i.e. -Y_i + Y_4 <= 0 */
        ck_assert(s->cases[k].rows[0].cy[i] == -1 && s->cases[k].rows[0].cy[4] == 1);
    }
    for (int i = 0; i < 784; i++)
        ck_assert(s->boxes[0].lo[i] <= s->boxes[0].in_lo[i] &&
                  s->boxes[0].in_lo[i] <= s->boxes[0].in_hi[i] &&
                  s->boxes[0].in_hi[i] <= s->boxes[0].hi[i]);
    vfy_spec_free(s);
}
END_TEST

START_TEST(test_bench_all_files)
{
    if (!have_bench())
        return;
    DIR *top = opendir(BENCH);
    ck_assert_ptr_nonnull(top);
    int n_files = 0;
    struct dirent *de;
    while ((de = readdir(top)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        char dir[512];
        snprintf(dir, sizeof dir, BENCH "/%s/vnnlib", de->d_name);
        DIR *d = opendir(dir);
        if (!d)
            continue;
        struct dirent *f;
        while ((f = readdir(d)) != NULL) {
            size_t l = strlen(f->d_name);
            if (l < 7 || strcmp(f->d_name + l - 7, ".vnnlib") != 0)
                continue;
            char rel[1024];
            snprintf(rel, sizeof rel, "%s/vnnlib/%s", de->d_name, f->d_name);
            vfy_spec *s = load_bench(rel);
            ck_assert_ptr_nonnull(s);
            REQUIRE(s->n_cases >= 1 && s->n_boxes >= 1);
            for (int64_t b = 0; b < s->n_boxes; b++)
                for (int64_t i = 0; i < s->n_x; i++)
                    REQUIRE(s->boxes[b].lo[i] <= s->boxes[b].in_lo[i] &&
                            s->boxes[b].in_lo[i] <= s->boxes[b].in_hi[i] &&
                            s->boxes[b].in_hi[i] <= s->boxes[b].hi[i]);
            vfy_spec_free(s);
            n_files++;
        }
        closedir(d);
    }
    closedir(top);
    ck_assert_int_gt(n_files, 0);
}
END_TEST

/* ---- VNNLIB 2.0 ------------------------------------------------------------------------------ */

/* a and b are the same normalised spec: boxes, cases and rows bit for bit. */
static void require_same_spec(const vfy_spec *a, const vfy_spec *b, const char *what)
{
    REQUIRE_MSG(a->n_x == b->n_x && a->n_y == b->n_y && a->n_boxes == b->n_boxes &&
                a->n_cases == b->n_cases, "%s: sizes differ", what);
    for (int64_t k = 0; k < a->n_boxes; k++) {
        const vfy_box *p = &a->boxes[k], *q = &b->boxes[k];
        size_t bytes = (size_t)a->n_x * sizeof(double);
        REQUIRE_MSG(!memcmp(p->lo, q->lo, bytes) && !memcmp(p->hi, q->hi, bytes) &&
                    !memcmp(p->in_lo, q->in_lo, bytes) && !memcmp(p->in_hi, q->in_hi, bytes),
                    "%s: box %lld differs", what, (long long)k);
    }
    for (int64_t k = 0; k < a->n_cases; k++) {
        const vfy_case *p = &a->cases[k], *q = &b->cases[k];
        REQUIRE_MSG(p->box == q->box && p->n_rows == q->n_rows, "%s: case %lld differs", what,
                    (long long)k);
        for (int64_t r = 0; r < p->n_rows; r++) {
            const vfy_row *u = &p->rows[r], *v = &q->rows[r];
            REQUIRE_MSG(u->rhs_lo == v->rhs_lo && u->rhs_hi == v->rhs_hi &&
                        !memcmp(u->cy, v->cy, (size_t)a->n_y * sizeof(double)) &&
                        (u->cx == NULL) == (v->cx == NULL) &&
                        (!u->cx || !memcmp(u->cx, v->cx, (size_t)a->n_x * sizeof(double))),
                        "%s: case %lld row %lld differs", what, (long long)k, (long long)r);
        }
    }
}

START_TEST(test_v2_same_form)
{
    /* X is [2,3]: X[i,j] is X_(3i+j); Y is [3] */
    vfy_spec *a = parse_ok(
        "(declare-const X_0 Real)(declare-const X_1 Real)(declare-const X_2 Real)"
        "(declare-const X_3 Real)(declare-const X_4 Real)(declare-const X_5 Real)"
        "(declare-const Y_0 Real)(declare-const Y_1 Real)(declare-const Y_2 Real)\n"
        "(assert (and (>= X_0 0) (<= X_0 1) (>= X_1 -0.1) (<= X_1 0.1) (>= X_2 0) (<= X_2 1)))\n"
        "(assert (and (>= X_3 0) (<= X_3 1) (>= X_4 0.3) (<= X_4 1) (>= X_5 0) (<= X_5 1)))\n"
        "(assert (or (and (<= Y_0 Y_1) (>= (+ Y_2 (* 2 X_4)) 0.7)) (<= (- Y_2 Y_0) -1e-3)))\n"
        "(assert (= X_5 0.5))");
    vfy_spec *b = parse_ok(
        "; the same in VNNLIB 2.0\n(vnnlib-version <2.0>)\n"
        "(declare-network acc\n  (declare-input X float32 [2, 3])\n"
        "  (declare-output Y Real [3] \"out\"))\n"
        "(assert (and (>= X[0,0] 0) (<= X[0,0] 1) (>= X[0,1] -0.1) (<= X[0, 1] 0.1)"
        " (>= X[0,2] 0) (<= X[ 0 , 2 ] 1)))\n"
        "(assert (and (>= X[1,0] 0) (<= X[1,0] 1) (>= X[1,1] 0.3) (<= X[1,1] 1)"
        " (>= X[1,2] 0) (<= X[1,2] 1)))\n"
        "(assert (or (and (<= Y[0] Y[1]) (>= (+ Y[2] (* 2 X[1,1])) 0.7))"
        " (<= (- Y[2] Y[0]) -1e-3)))\n"
        "(assert (== X[1,2] 0.5))");
    require_same_spec(a, b, "hand-written");
    ck_assert_int_eq(a->version, 1);
    ck_assert_int_eq(a->n_nets, 0);
    ck_assert_int_eq(b->version, 2);
    ck_assert_int_eq(b->n_nets, 1);
    ck_assert_str_eq(b->nets[0].name, "acc");
    ck_assert(b->nets[0].rel == VFY_SPEC_OWN && b->nets[0].rel_to == -1);
    ck_assert(b->nets[0].x_off == 0 && b->nets[0].y_off == 0);
    ck_assert_str_eq(b->nets[0].inputs[0].name, "X");
    ck_assert_str_eq(b->nets[0].inputs[0].type, "float32");
    ck_assert_ptr_null(b->nets[0].inputs[0].onnx_name);
    ck_assert_int_eq(b->nets[0].inputs[0].rank, 2);
    ck_assert(b->nets[0].inputs[0].shape[0] == 2 && b->nets[0].inputs[0].shape[1] == 3);
    ck_assert_str_eq(b->nets[0].outputs[0].name, "Y");
    ck_assert_str_eq(b->nets[0].outputs[0].type, "Real");
    ck_assert_str_eq(b->nets[0].outputs[0].onnx_name, "out");
    ck_assert(b->nets[0].outputs[0].rank == 1 && b->nets[0].outputs[0].shape[0] == 3);
    vfy_spec_free(a);
    vfy_spec_free(b);
    /* ONNX's names float and double are float32 and float64 */
    b = parse_ok("(vnnlib-version <2.0>)(declare-network n (declare-input X float [1])"
                 " (declare-output Y double [1]))(assert (<= 0 X[0] 1))(assert (>= Y[0] 3))");
    ck_assert_str_eq(b->nets[0].inputs[0].type, "float32");
    ck_assert_str_eq(b->nets[0].outputs[0].type, "float64");
    vfy_spec_free(b);
    /* a scalar output named bare, a string with a quote in it, a version written 2.0 */
    b = parse_ok("(vnnlib-version 2.0)(declare-network n (declare-input in_1 real [1] \"a\"\"b\")"
                 " (declare-output y2 real []))(assert (<= 0 in_1[0] 1))(assert (>= y2 3))");
    ck_assert_str_eq(b->nets[0].inputs[0].onnx_name, "a\"b");
    ck_assert_str_eq(b->nets[0].inputs[0].type, "real");
    ck_assert(b->nets[0].outputs[0].rank == 0 && b->n_y == 1 && b->n_x == 1);
    ck_assert(b->cases[0].rows[0].cy[0] == -1 && b->cases[0].rows[0].rhs_hi == -3);
    vfy_spec_free(b);
}
END_TEST

/* VNNLIB 1 text over n_x inputs rewritten as VNNLIB 2.0 with X of shape [1, n_x / d, d] (d the
 * largest divisor up to 32) and Y of shape [n_y]: X_i becomes X[0,i/d,i%d]. Caller frees. */
static char *to_v2(const char *text, int64_t n_x, int64_t n_y)
{
    int64_t d = 1;
    for (int64_t k = 32; k >= 1; k--)
        if (n_x % k == 0) {
            d = k;
            break;
        }
    size_t len = strlen(text), cap = 3 * len + 4096, o = 0;
    char *out = malloc(cap);
    ck_assert_ptr_nonnull(out);
    o += (size_t)snprintf(out, cap, "(vnnlib-version <2.0>)\n(declare-network f (declare-input X "
                          "Real [1,%lld,%lld]) (declare-output Y Real [%lld]))\n",
                          (long long)(n_x / d), (long long)d, (long long)n_y);
    for (size_t i = 0; i < len;) {
        if (text[i] == ';') { /* comments are dropped */
            while (i < len && text[i] != '\n')
                i++;
            continue;
        }
        if (!strncmp(text + i, "(declare-const", 14)) {
            while (i < len && text[i] != ')')
                i++;
            i++;
            continue;
        }
        int is_var = (text[i] == 'X' || text[i] == 'Y') && text[i + 1] == '_' &&
                     (i == 0 || strchr(" \t\n\r(", text[i - 1]));
        if (is_var) {
            char *end;
            long long v = strtoll(text + i + 2, &end, 10);
            if (text[i] == 'X')
                o += (size_t)snprintf(out + o, cap - o, "X[0,%lld,%lld]", v / d, v % d);
            else
                o += (size_t)snprintf(out + o, cap - o, "Y[%lld]", v);
            i = (size_t)(end - text);
            continue;
        }
        ck_assert(o + 1 < cap);
        out[o++] = text[i++];
    }
    out[o] = '\0';
    return out;
}

START_TEST(test_v2_bench_files)
{
    if (!have_bench())
        return;
    const char *files[] = {"acasxu/vnnlib/prop_6.vnnlib", "acasxu/vnnlib/prop_9.vnnlib",
                           "mnist_fc/vnnlib/prop_0_0.03.vnnlib", "oval21/vnnlib",
                           "verivital/vnnlib", "eran/vnnlib"};
    int n = 0;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char dir[512], rel[1024];
        snprintf(dir, sizeof dir, BENCH "/%s", files[f]);
        DIR *d = opendir(dir);
        struct dirent *de = NULL;
        for (int first = 1; first || (d && de); first = 0) {
            if (d) { /* the first .vnnlib of a folder */
                while ((de = readdir(d)) && !strstr(de->d_name, ".vnnlib"))
                    ;
                if (!de)
                    break;
                snprintf(rel, sizeof rel, "%s/%s", files[f], de->d_name);
                de = NULL;
            } else {
                snprintf(rel, sizeof rel, "%s", files[f]);
            }
            char path[1200];
            snprintf(path, sizeof path, BENCH "/%s", rel);
            uint8_t *data;
            size_t len;
            vfy_error e;
            if (vfy_read_file(path, &data, &len, &e) != VFY_OK)
                continue;
            char *text = malloc(len + 1);
            memcpy(text, data, len);
            text[len] = '\0';
            vfy_free(data);
            vfy_spec *a = load_bench(rel);
            char *v2 = to_v2(text, a->n_x, a->n_y);
            vfy_spec *b = NULL;
            vfy_status st = vfy_spec_parse(v2, strlen(v2), rel, &b, &e);
            REQUIRE_MSG(st == VFY_OK, "%s as VNNLIB 2.0: %s", rel, e.msg);
            require_same_spec(a, b, rel);
            vfy_spec_free(a);
            vfy_spec_free(b);
            free(v2);
            free(text);
            n++;
        }
        if (d)
            closedir(d);
    }
    ck_assert_int_ge(n, 6);
}
END_TEST

/* Two networks: X_i and Y_i run over f's tensors, then g's; bounds reach g's input through an
 * equality and a one-sided comparison with f's (propagate_differences). */
START_TEST(test_v2_networks)
{
    vfy_spec *s = parse_ok(
        "(vnnlib-version <2.0>)\n"
        "(declare-network f (declare-input A real [1,2]) (declare-output B real [3]))\n"
        "(declare-network g (equal-to f) (declare-input C float32 [2])"
        " (declare-output D real [3]))\n"
        "(assert (and (>= A[0,0] 0) (<= A[0,0] 1) (>= A[0,1] -1) (<= A[0,1] 0.5)))\n"
        "(assert (== C[1] A[0,1]))\n"
        "(assert (and (<= C[0] A[0,0]) (>= C[0] 0.25)))\n"
        "(assert (> B[2] (+ D[2] 0.5)))");
    ck_assert_int_eq(s->version, 2);
    ck_assert(s->n_x == 4 && s->n_y == 6 && s->n_nets == 2);
    ck_assert_str_eq(s->nets[0].name, "f");
    ck_assert_str_eq(s->nets[1].name, "g");
    ck_assert(s->nets[1].rel == VFY_SPEC_EQUAL_TO && s->nets[1].rel_to == 0);
    ck_assert(s->nets[1].x_off == 2 && s->nets[1].y_off == 3);
    ck_assert_str_eq(s->nets[1].inputs[0].name, "C");
    ck_assert_str_eq(s->nets[1].inputs[0].type, "float32");
    ck_assert(s->nets[1].outputs[0].rank == 1 && s->nets[1].outputs[0].shape[0] == 3);
    const vfy_box *bx = &s->boxes[0];
    ck_assert(bx->lo[2] == 0.25 && bx->hi[2] == 1 && bx->lo[3] == -1 && bx->hi[3] == 0.5);
    ck_assert(bx->in_lo[2] == 0.25 && bx->in_hi[2] == 1);
    ck_assert(bx->in_lo[3] == -1 && bx->in_hi[3] == 0.5);
    ck_assert_int_eq(s->n_cases, 1);
    int out_rows = 0;
    for (int64_t r = 0; r < s->cases[0].n_rows; r++) {
        const vfy_row *row = &s->cases[0].rows[r];
        if (row->cy[2] == 0.0)
            continue;
        out_rows++; /* D[2] - B[2] < -0.5 */
        ck_assert(row->cy[2] == -1 && row->cy[5] == 1 && row->rhs_hi == -0.5 && row->strict);
        ck_assert_ptr_null(row->cx);
    }
    ck_assert_int_eq(out_rows, 1);
    vfy_spec_free(s);
}
END_TEST

/* A network of several inputs and outputs, as the VNNLIB 2.0 standard's multi_io_net example
 * declares them; then renumbered to a model that lists them in another order. */
START_TEST(test_v2_multi_io)
{
    vfy_spec *s = parse_ok(
        "(vnnlib-version <2.0>)\n"
        "(declare-network m (declare-input img real [1,2] \"image\")"
        " (declare-input meta real [3] \"metadata\")"
        " (declare-output box real [1,2] \"bbox\") (declare-output lg real [] \"logits\"))\n"
        "(assert (and (>= img[0,0] 0) (<= img[0,0] 1) (>= img[0,1] 2) (<= img[0,1] 3)))\n"
        "(assert (and (>= meta[0] 4) (<= meta[0] 5) (>= meta[1] 6) (<= meta[1] 7)))\n"
        "(assert (and (>= meta[2] 8) (<= meta[2] 9)))\n"
        "(assert (<= (+ box[0,1] meta[2]) lg))");
    ck_assert(s->n_x == 5 && s->n_y == 3 && s->n_nets == 1);
    const vfy_spec_net *nt = &s->nets[0];
    ck_assert(nt->n_inputs == 2 && nt->n_outputs == 2 && nt->by_name);
    ck_assert(nt->n_x == 5 && nt->n_y == 3);
    ck_assert_str_eq(nt->inputs[1].name, "meta");
    ck_assert_str_eq(nt->inputs[1].onnx_name, "metadata");
    ck_assert(nt->inputs[0].off == 0 && nt->inputs[0].size == 2);
    ck_assert(nt->inputs[1].off == 2 && nt->inputs[1].size == 3);
    ck_assert(nt->outputs[0].off == 0 && nt->outputs[1].off == 2 && nt->outputs[1].rank == 0);
    const vfy_box *bx = &s->boxes[0];
    for (int i = 0; i < 5; i++)
        ck_assert(bx->lo[i] == 2 * i && bx->hi[i] == 2 * i + 1);
    ck_assert(s->n_cases == 1 && s->cases[0].n_rows == 1);
    const vfy_row *row = &s->cases[0].rows[0];
    ck_assert(row->cy[1] == 1 && row->cy[2] == -1 && row->cy[0] == 0);
    ck_assert(row->cx && row->cx[4] == 1 && row->cx[0] == 0);
    /* a model whose inputs are (metadata, image) and outputs (logits, bbox) */
    int64_t xmap[5] = {3, 4, 0, 1, 2}, ymap[3] = {1, 2, 0};
    ck_assert_int_eq(vfy_spec_permute(s, xmap, ymap, NULL), VFY_OK);
    ck_assert(nt->inputs[0].off == 3 && nt->inputs[1].off == 0);
    ck_assert(nt->outputs[0].off == 1 && nt->outputs[1].off == 0);
    const double want_lo[5] = {4, 6, 8, 0, 2};
    for (int i = 0; i < 5; i++)
        ck_assert(bx->lo[i] == want_lo[i] && bx->hi[i] == want_lo[i] + 1 &&
                  bx->in_lo[i] == want_lo[i] && bx->in_hi[i] == want_lo[i] + 1);
    ck_assert(row->cy[2] == 1 && row->cy[0] == -1 && row->cy[1] == 0);
    ck_assert(row->cx[2] == 1 && row->cx[4] == 0);
    vfy_spec_free(s);
    /* by order when none is named; a one-element tensor by its bare name */
    s = parse_ok("(vnnlib-version <2.0>)\n"
                 "(declare-network f (declare-input a real []) (declare-input b real [2])"
                 " (declare-output y real [2]) (declare-output z real []))\n"
                 "(assert (and (>= a 0) (<= a 1) (>= b[0] 0) (<= b[0] 1) (>= b[1] 0)"
                 " (<= b[1] 1)))\n(assert (>= z y[1]))");
    ck_assert(!s->nets[0].by_name && s->nets[0].inputs[1].off == 1);
    ck_assert(s->cases[0].rows[0].cy[2] == -1 && s->cases[0].rows[0].cy[1] == 1);
    vfy_spec_free(s);
    /* hidden nodes: among the outputs, in declaration order (before them), always named; the
     * inputs and outputs unnamed (matched by order) */
    s = parse_ok("(vnnlib-version <2.0>)\n"
                 "(declare-network f (declare-input x real [2]) (declare-hidden h real [3] \"fc1\")"
                 " (declare-output y real []))\n"
                 "(assert (and (>= x[0] 0) (<= x[0] 1) (>= x[1] 0) (<= x[1] 1)))\n"
                 "(assert (or (>= h[2] 5) (<= y 0)))");
    nt = &s->nets[0];
    ck_assert(nt->n_outputs == 2 && nt->n_hidden == 1 && !nt->by_name && s->n_y == 4);
    ck_assert(nt->outputs[0].hidden && !nt->outputs[1].hidden);
    ck_assert_str_eq(nt->outputs[0].onnx_name, "fc1");
    ck_assert(nt->outputs[0].off == 0 && nt->outputs[1].off == 3);
    ck_assert_int_eq(s->n_cases, 2);
    int seen = 0;
    for (int64_t c = 0; c < 2; c++) {
        const vfy_row *rw = &s->cases[c].rows[0];
        seen |= (rw->cy[2] == -1 && rw->rhs_hi == -5) ? 1 : (rw->cy[3] == 1 ? 2 : 0);
    }
    ck_assert_int_eq(seen, 3);
    vfy_spec_free(s);
}
END_TEST

START_TEST(test_v2_errors)
{
#define NET(in, out) "(vnnlib-version <2.0>)\n(declare-network f (declare-input " in \
                     ") (declare-output " out "))\n"
#define N1 NET("X real [1,2]", "Y real [2]")
    parse_err(N1 "(assert (<= X[0,2] 1))", VFY_ERR_INVALID, "t.vnnlib:3:13: ",
              "'X[0,2]': index 2 is out of range for dimension 1 of size 2");
    parse_err(N1 "(assert (<= X[1] 1))", VFY_ERR_INVALID, "t.vnnlib:3:13: ",
              "'X[1]' needs 2 indices (its tensor has rank 2)");
    parse_err(N1 "(assert (<= X 1))", VFY_ERR_INVALID, "t.vnnlib:3:13: ",
              "'X' is a tensor of 2 elements");
    parse_err(N1 "(assert (<= X[0,-1] 1))", VFY_ERR_PARSE, "t.vnnlib:3:13: ", "bad index in");
    parse_err(N1 "(assert (<= Z[0] 1))", VFY_ERR_INVALID, "t.vnnlib:3:13: ",
              "undeclared variable 'Z[0]'");
    parse_err(N1 "(assert (<= X_0 1))", VFY_ERR_INVALID, "t.vnnlib:3:13: ",
              "undeclared variable 'X_0'");
    parse_err(N1 "(assert (<= X[0,0 1))", VFY_ERR_PARSE, "t.vnnlib:3:14: ",
              "'[' is never closed");
    parse_err(N1 "(assert (and (<= X[0,0] 1) (>= X[0,0] 0) (>= X[0,1] 0)))", VFY_ERR_INVALID,
              "t.vnnlib:2:35: ", "X[0,1] has no upper bound");
    parse_err(N1 "(assert (!= Y[0] 1 2))", VFY_ERR_UNSUPPORTED, "t.vnnlib:3:9: ",
              "'!=' is supported with two arguments");
    parse_err(N1 "(declare-const X_0 Real)", VFY_ERR_PARSE, "t.vnnlib:3:2: ",
              "declare-const cannot be mixed with declare-network");
    parse_err("(declare-const X_0 Real)" N1, VFY_ERR_PARSE, "t.vnnlib:2:1: ",
              "declare-network cannot be mixed with VNNLIB 1 declarations");
    /* several networks */
#define G(items) "(declare-network g " items ")\n"
    parse_err(N1 "(declare-network f (declare-input A real [1]) (declare-output B real [1]))",
              VFY_ERR_INVALID, "t.vnnlib:3:18: ", "network 'f' is declared twice");
    parse_err(N1 G("(equal-to h) (declare-input A real [1]) (declare-output B real [1])"),
              VFY_ERR_INVALID, "t.vnnlib:3:30: ", "equal-to: no network 'h' is declared before");
    parse_err(N1 G("(equal-to g) (declare-input A real [1]) (declare-output B real [1])"),
              VFY_ERR_INVALID, "t.vnnlib:3:30: ", "no network 'g' is declared before this one");
    parse_err(N1 G("(declare-input A real [1]) (isomorphic-to f) (declare-output B real [1])"),
              VFY_ERR_PARSE, "t.vnnlib:3:47: ", "isomorphic-to comes before the network's "
              "declare-input");
    parse_err(N1 G("(equal-to f) (isomorphic-to f) (declare-input A real [1])"),
              VFY_ERR_INVALID, "t.vnnlib:3:33: ", "related to one other network at most");
    parse_err(N1 G("(equal-to) (declare-input A real [1]) (declare-output B real [1])"),
              VFY_ERR_PARSE, "t.vnnlib:3:20: ", "equal-to expects the name of a network");
    parse_err(N1 G("(equal-to f) (declare-input X real [1]) (declare-output B real [1])"),
              VFY_ERR_INVALID, "t.vnnlib:3:48: ", "'X' is declared twice");
    parse_err(N1 G("(equal-to f) (declare-input A real [1]) (declare-output Y real [1])"),
              VFY_ERR_INVALID, "t.vnnlib:3:76: ", "'Y' is declared twice");
    parse_err(N1 G("(declare-input A real [1]) (declare-output B real [1])")
              "(assert (and (<= X[0,0] 1) (>= X[0,0] 0) (<= X[0,1] 1) (>= X[0,1] 0)))\n"
              "(assert (<= A[0] X[0,0]))", VFY_ERR_INVALID, "t.vnnlib:3:35: ",
              "A[0] has no lower bound");
#undef G
    /* hidden nodes: named, after the inputs and before the outputs */
    parse_err(NET("X real [1]) (declare-hidden H real [1]", "Y real [1]"), VFY_ERR_PARSE,
              "t.vnnlib:2:47: ", "declare-hidden needs the name of the ONNX value");
    parse_err(NET("X real [1]", "Y real [1]) (declare-hidden H real [1] \"h\""), VFY_ERR_PARSE,
              "t.vnnlib:2:75: ", "declare-hidden after declare-output");
    parse_err(NET("X real [1]) (declare-hidden H real [1] \"h\") (declare-input X2 real [1]",
                  "Y real [1]"), VFY_ERR_PARSE, "t.vnnlib:2:79: ",
              "declare-input after declare-hidden");
    parse_err("(declare-network f (declare-input X real [1]) (declare-hidden H real [1] \"h\"))",
              VFY_ERR_INVALID, "t.vnnlib:1:1: ", "network 'f' declares no output");
    /* several inputs and outputs: all named or none */
    parse_err(NET("X real [1] \"a\") (declare-input X2 real [1]", "Y real [1] \"y\""),
              VFY_ERR_INVALID, "t.vnnlib:2:1: ", "network 'f' gives ONNX names to 2 of its 3 "
              "inputs and outputs: name all of them (matched by name) or none");
    parse_err(NET("X real [1]", "Y real [1]) (declare-output X real [1]"), VFY_ERR_INVALID,
              "t.vnnlib:2:91: ", "'X' is declared twice");
    {
        char many[2048] = "(declare-network f";
        for (int k = 0; k <= VFY_SPEC_MAX_IO; k++)
            snprintf(many + strlen(many), sizeof many - strlen(many),
                     " (declare-input X%d real [1])", k);
        strcat(many, " (declare-output Y real [1]))");
        parse_err(many, VFY_ERR_UNSUPPORTED, "t.vnnlib:1:", "more than 32 inputs in one network");
    }
    parse_err("(declare-network f (declare-output Y real [1]) (declare-input X real [1]))",
              VFY_ERR_PARSE, "t.vnnlib:1:48: ", "declare-input after declare-output");
    parse_err("(declare-network f (declare-input X real [1]))", VFY_ERR_INVALID, "t.vnnlib:1:1: ",
              "network 'f' declares no output");
    parse_err(NET("X int8 [1]", "Y real [1]"), VFY_ERR_UNSUPPORTED, "t.vnnlib:2:37: ",
              "element type 'int8' is not supported");
    parse_err(NET("X real [1 2]", "Y real [1]"), VFY_ERR_PARSE, "t.vnnlib:2:42: ",
              "bad shape '[1 2]'");
    parse_err(NET("X real [1,0]", "Y real [1]"), VFY_ERR_INVALID, "t.vnnlib:2:42: ",
              "has a dimension of size 0");
    parse_err(NET("X real [1,1,1,1,1,1,1,1,1]", "Y real [1]"), VFY_ERR_UNSUPPORTED,
              "t.vnnlib:2:42: ", "more than 8 dimensions");
    parse_err(NET("X real [100000,100000]", "Y real [1]"), VFY_ERR_UNSUPPORTED,
              "t.vnnlib:2:42: ", "too many elements");
    /* a shape that no query of this length can bound (found by tests/fuzz/fuzz_spec.c: a
     * 200-byte query declaring 266666661 inputs allocated 2 GB) */
    parse_err(NET("X real [1,266666661]", "Y real []") "(assert (<= X[0,0] 1))", VFY_ERR_INVALID,
              "t.vnnlib:2:35: ", "the inputs have 266666661 elements, more than this 129-byte "
              "query");
    parse_err(NET("X real [1] onnx", "Y real [1]"), VFY_ERR_PARSE, "t.vnnlib:2:46: ",
              "expected the ONNX name as a string");
    parse_err(NET("X real", "Y real [1]"), VFY_ERR_PARSE, "t.vnnlib:2:20: ",
              "declare-input expects a name, an element type, a shape");
    parse_err(NET("1X real [1]", "Y real [1]"), VFY_ERR_PARSE, "t.vnnlib:2:35: ",
              "bad name '1X'");
    parse_err(NET("X real [1]", "X real [1]"), VFY_ERR_INVALID, "t.vnnlib:2:63: ",
              "'X' is declared twice");
    parse_err("(vnnlib-version <1.0>)", VFY_ERR_UNSUPPORTED, "t.vnnlib:1:17: ",
              "VNNLIB version '<1.0>' is not supported");
    parse_err("(vnnlib-version <2.>)", VFY_ERR_UNSUPPORTED, "t.vnnlib:1:17: ", "not supported");
    parse_err("(vnnlib-version <2.0a>)", VFY_ERR_UNSUPPORTED, "t.vnnlib:1:17: ", "not supported");
    parse_err("(vnnlib-version 20)", VFY_ERR_UNSUPPORTED, "t.vnnlib:1:17: ", "not supported");
    parse_err("(vnnlib-version <>)", VFY_ERR_UNSUPPORTED, "t.vnnlib:1:17: ", "not supported");
#undef N1
#undef NET
}
END_TEST

/* ---- robustness ------------------------------------------------------------------------------ */

static const char *SMALL =
    "; small spec in the style of acasxu prop_6\n"
    "(declare-const X_0 Real)(declare-const X_1 Real)\n"
    "(declare-const Y_0 Real)(declare-const Y_1 Real)(declare-const Y_2 Real)\n"
    "(assert (or (and (<= X_0 0.700434925) (>= X_0 -0.129289109) (<= X_1 0.5) (>= X_1 0.1))\n"
    "            (and (<= X_0 0.700434925) (>= X_0 -0.129289109) (<= X_1 -0.1) (>= X_1 -0.5))))\n"
    "(assert (or (and (<= Y_1 Y_0)) (and (<= (+ Y_2 (* 2 Y_1)) (- Y_0 1.5e-3)))))\n"
    "(assert (>= Y_2 (- 3)))\n";

/* SMALL in VNNLIB 2.0 */
static const char *SMALL2 =
    "(vnnlib-version <2.0>)\n(declare-network f (declare-input X float32 [1, 2] \"in\")\n"
    "  (declare-output Y real [1,3]))\n"
    "(assert (or (and (<= X[0,0] 0.700434925) (>= X[0,0] -0.129289109) (<= X[0,1] 0.5)"
    " (>= X[0,1] 0.1))\n"
    "            (and (<= X[0,0] 0.700434925) (>= X[0,0] -0.129289109) (<= X[0,1] -0.1)"
    " (>= X[0,1] -0.5))))\n"
    "(assert (or (and (<= Y[0,1] Y[0,0])) (and (<= (+ Y[0,2] (* 2 Y[0,1])) (- Y[0,0] 1.5e-3)))))\n"
    "(assert (>= Y[0,2] (- 3)))\n";

START_TEST(test_alloc_failures)
{
    vfy_spec *s;
    vfy_error e;
    for (int v = 0; v < 2; v++) {
        int ok = 0;
        for (long n = 0; n < 100000 && !ok; n++) {
            s = NULL;
            vfy_alloc_fail_after(n);
            vfy_status st = parse(v ? SMALL2 : SMALL, &s, &e);
            vfy_alloc_fail_after(-1);
            if (st == VFY_OK) {
                ok = 1;
                ck_assert_int_eq(s->n_cases, 4);
                ck_assert_int_eq(s->version, v + 1);
                vfy_spec_free(s);
            } else {
                REQUIRE_MSG(st == VFY_ERR_NOMEM, "n=%ld: %s", n, e.msg);
                ck_assert_ptr_null(s);
            }
        }
        ck_assert(ok);
    }
}
END_TEST

START_TEST(test_truncation)
{
    const char *txt = _i ? SMALL2 : SMALL;
    size_t len = strlen(txt);
    char *buf = malloc(len + 1);
    int n_ok = 0;
    for (size_t cut = 0; cut <= len; cut++) {
        memcpy(buf, txt, cut); /* not NUL-terminated on purpose: the parser reads len bytes */
        vfy_spec *s = NULL;
        vfy_error e;
        vfy_status st = vfy_spec_parse(buf, cut, "t", &s, &e);
        ck_assert(st == VFY_OK || st == VFY_ERR_PARSE || st == VFY_ERR_INVALID ||
                  st == VFY_ERR_UNSUPPORTED);
        ck_assert((st == VFY_OK) == (s != NULL));
        n_ok += st == VFY_OK;
        vfy_spec_free(s);
    }
    ck_assert_int_ge(n_ok, 1);
    free(buf);
}
END_TEST

START_TEST(test_random_corruption)
{
    const char *txt = _i ? SMALL2 : SMALL;
    size_t len = strlen(txt);
    char *buf = malloc(len);
    const char alphabet[] = "()XY_0123456789.-+e;<=>* \n\"|\x01\xff[],";
    srand(777);
    for (int it = 0; it < 20000; it++) {
        memcpy(buf, txt, len);
        int flips = 1 + rand() % 4;
        for (int k = 0; k < flips; k++) {
            size_t at = (size_t)rand() % len;
            buf[at] = rand() % 2 ? (char)(rand() % 256) : alphabet[rand() % (sizeof alphabet - 1)];
        }
        vfy_spec *s = NULL;
        vfy_error e;
        vfy_status st = vfy_spec_parse(buf, len, "t", &s, &e);
        ck_assert(st == VFY_OK || st == VFY_ERR_PARSE || st == VFY_ERR_INVALID ||
                  st == VFY_ERR_UNSUPPORTED);
        if (st == VFY_OK)
            for (int64_t b = 0; b < s->n_boxes; b++)
                for (int64_t i = 0; i < s->n_x; i++)
                    REQUIRE(s->boxes[b].lo[i] <= s->boxes[b].in_lo[i] &&
                            s->boxes[b].in_hi[i] <= s->boxes[b].hi[i] &&
                            s->boxes[b].lo[i] <= s->boxes[b].hi[i]);
        vfy_spec_free(s);
    }
    /* pure random bytes */
    for (int it = 0; it < 2000; it++) {
        size_t n = (size_t)rand() % 200;
        for (size_t k = 0; k < n && k < len; k++)
            buf[k] = rand() % 3 ? alphabet[rand() % (sizeof alphabet - 1)] : (char)(rand() % 256);
        vfy_spec *s = NULL;
        vfy_error e;
        vfy_status st = vfy_spec_parse(buf, n < len ? n : len, "t", &s, &e);
        ck_assert(st != VFY_ERR_NOMEM && st != VFY_ERR_INTERNAL);
        vfy_spec_free(s);
    }
    free(buf);
}
END_TEST

START_TEST(test_speed)
{
    /* a 1 MB spec: 11000 bounded inputs and a 9-way output disjunction; best of 3 runs, so that
     * a busy machine does not fail the test */
    size_t cap = 3 << 20, n = 0;
    char *t = malloc(cap);
    int nx = 11500;
    for (int i = 0; i < nx; i++)
        n += (size_t)snprintf(t + n, cap - n, "(declare-const X_%d Real)\n", i);
    for (int i = 0; i < 10; i++)
        n += (size_t)snprintf(t + n, cap - n, "(declare-const Y_%d Real)\n", i);
    for (int i = 0; i < nx; i++)
        n += (size_t)snprintf(t + n, cap - n, "(assert (<= X_%d 0.0299999993294)) (assert (>= X_%d -0.01))\n",
                              i, i);
    n += (size_t)snprintf(t + n, cap - n, "(assert (or");
    for (int i = 1; i < 10; i++)
        n += (size_t)snprintf(t + n, cap - n, " (and (>= Y_%d Y_0))", i);
    n += (size_t)snprintf(t + n, cap - n, "))\n");
    ck_assert_uint_ge(n, 1u << 20);
    double dt = INFINITY;
    for (int run = 0; run < 3; run++) {
        double t0 = vfy_now();
        vfy_spec *s = NULL;
        vfy_error e;
        ck_assert_int_eq(vfy_spec_parse(t, n, "big", &s, &e), VFY_OK);
        double t1 = vfy_now() - t0;
        dt = t1 < dt ? t1 : dt;
        ck_assert_int_eq(s->n_cases, 9);
        ck_assert_int_eq(s->n_boxes, 1);
        ck_assert_int_eq(s->n_x, nx);
        vfy_spec_free(s);
    }
    free(t);
#if defined(__SANITIZE_ADDRESS__)
    double limit = 2.0;
#else
    double limit = 0.1;
#endif
    REQUIRE_MSG(dt < limit, "1 MB parsed in %.3f s", dt);
}
END_TEST

/* Appends to a growing text. */
static void put(char **t, size_t *n, size_t *cap, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void put(char **t, size_t *n, size_t *cap, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(*t + *n, *cap - *n, fmt, ap);
        va_end(ap);
        ck_assert_int_ge(k, 0);
        if (*n + (size_t)k < *cap) {
            *n += (size_t)k;
            return;
        }
        *cap *= 2;
        *t = realloc(*t, *cap);
        ck_assert_ptr_nonnull(*t);
    }
}

/* The asserts' input bounds, read once for every case that adds rows over the outputs only, give
 * the same spec as when each case repeats them: a product of two disjunctions (6 x 5 cases), one
 * disjunct bounding an input and one row with an input term (those cases read in full). */
START_TEST(test_shared_prefix)
{
    const int nx = 40, ny = 12;
    static const char *const or1[] = {"(>= Y_1 Y_0)", "(>= Y_2 (+ Y_0 0.1))",
                                      "(and (<= X_3 0.25) (>= Y_5 Y_0))", "(>= Y_7 (+ Y_0 X_2))",
                                      "(and (>= Y_8 Y_0) (<= Y_9 0.3))", "(>= Y_11 Y_0)"};
    static const char *const or2[] = {"(<= Y_4 0.7)", "(>= Y_6 Y_3)", "(<= X_5 0.125)",
                                      "(>= Y_10 -0.2)", "(>= (+ Y_1 Y_2) 0.0)"};
    size_t cap[2] = {1 << 12, 1 << 12}, n[2] = {0, 0};
    char *t[2] = {malloc(cap[0]), malloc(cap[1])}, box[4096];
    size_t nb = 0;
    for (int i = 0; i < nx; i++) /* inexact decimals: enclosures, not single doubles */
        nb += (size_t)snprintf(box + nb, sizeof box - nb, " (>= X_%d -%d.1) (<= X_%d %d.3)", i,
                               i % 3, i, i % 3);
    for (int v = 0; v < 2; v++) {
        for (int i = 0; i < nx; i++)
            put(&t[v], &n[v], &cap[v], "(declare-const X_%d Real)\n", i);
        for (int i = 0; i < ny; i++)
            put(&t[v], &n[v], &cap[v], "(declare-const Y_%d Real)\n", i);
    }
    /* 0: the bounds as asserts of their own, then the two disjunctions */
    put(&t[0], &n[0], &cap[0], "(assert (and%s))\n(assert (or", box);
    for (int a = 0; a < 6; a++)
        put(&t[0], &n[0], &cap[0], " %s", or1[a]);
    put(&t[0], &n[0], &cap[0], "))\n(assert (or");
    for (int b = 0; b < 5; b++)
        put(&t[0], &n[0], &cap[0], " %s", or2[b]);
    put(&t[0], &n[0], &cap[0], "))\n");
    /* 1: one disjunction of the 30 cases, each repeating the bounds (the last disjunction's
     * cases vary fastest) */
    put(&t[1], &n[1], &cap[1], "(assert (or");
    for (int a = 0; a < 6; a++)
        for (int b = 0; b < 5; b++)
            put(&t[1], &n[1], &cap[1], "\n (and%s %s %s)", box, or1[a], or2[b]);
    put(&t[1], &n[1], &cap[1], "))\n");
    vfy_spec *sa = NULL, *sb = NULL;
    vfy_error e;
    REQUIRE_MSG(vfy_spec_parse(t[0], n[0], "a", &sa, &e) == VFY_OK, "%s", e.msg);
    REQUIRE_MSG(vfy_spec_parse(t[1], n[1], "b", &sb, &e) == VFY_OK, "%s", e.msg);
    ck_assert_int_eq(sa->n_cases, 30);
    ck_assert_int_eq(sa->n_boxes, 4); /* the bounds; with X_3 <= 0.25, X_5 <= 0.125, or both */
    require_same_spec(sa, sb, "shared prefix");
    vfy_spec_free(sa);
    vfy_spec_free(sb);
    free(t[0]);
    free(t[1]);
}
END_TEST

/* 16,000 bounded inputs and 40 x 40 cases: 51.2 million bound references when each case reads
 * them, over the limit of the constraints' count (refused before); they are now read once. The
 * shared bounds' errors keep naming a case. */
START_TEST(test_shared_prefix_large)
{
    size_t cap = 1 << 16, n = 0;
    char *t = malloc(cap);
    const int nx = 16000, ny = 41, k = 40;
    for (int i = 0; i < nx; i++)
        put(&t, &n, &cap, "(declare-const X_%d Real)\n", i);
    for (int i = 0; i < ny; i++)
        put(&t, &n, &cap, "(declare-const Y_%d Real)\n", i);
    for (int i = 0; i < nx; i++)
        put(&t, &n, &cap, "(assert (>= X_%d 0.5)) (assert (<= X_%d 0.75))\n", i, i);
    for (int r = 0; r < 2; r++) {
        put(&t, &n, &cap, "(assert (or");
        for (int j = 1; j <= k; j++)
            put(&t, &n, &cap, " (>= Y_%d Y_0)", j);
        put(&t, &n, &cap, "))\n");
    }
    vfy_spec *s = NULL;
    vfy_error e;
    ck_assert_int_eq(vfy_spec_parse(t, n, "large", &s, &e), VFY_OK);
    ck_assert_int_eq(s->n_cases, k * k);
    ck_assert_int_eq(s->n_boxes, 1);
    for (int64_t c = 0; c < s->n_cases; c++)
        ck_assert(s->cases[c].box == 0 && s->cases[c].n_rows == 2);
    ck_assert(s->boxes[0].lo[nx - 1] == 0.5 && s->boxes[0].hi[nx - 1] == 0.75);
    vfy_spec_free(s);
    free(t);
    parse_err(H1 "(declare-const X_1 Real)\n(assert (>= X_0 0.5))\n(assert (<= X_0 0.25))\n"
              "(assert (>= X_1 0))\n(assert (<= X_1 1))\n(assert (or (>= Y_0 1) (<= Y_0 0)))\n",
              VFY_ERR_INVALID, "t.vnnlib:", "the input region is empty");
    parse_err(H1 "(declare-const X_1 Real)\n(assert (>= X_0 0.5))\n(assert (<= X_0 0.75))\n"
              "(assert (>= X_1 0))\n(assert (or (>= Y_0 1) (<= Y_0 0)))\n",
              VFY_ERR_INVALID, "t.vnnlib:", "X_1 has no upper bound in case 1 of 2");
}
END_TEST

static Suite *spec_suite(void)
{
    Suite *s = suite_create("spec");
    TCase *tc = tcase_create("form");
    tcase_add_test(tc, test_exact_box_and_row);
    tcase_add_test(tc, test_inexact_literals);
    tcase_add_test(tc, test_literal_forms);
    tcase_add_test(tc, test_random_literals);
    tcase_add_test(tc, test_exact_long_literals);
    tcase_add_test(tc, test_rows_normalised);
    tcase_add_test(tc, test_equality_and_chain);
    tcase_add_test(tc, test_strict_comparisons);
    tcase_add_test(tc, test_linear_terms);
    tcase_add_test(tc, test_disjunctions);
    tcase_add_test(tc, test_constants_and_booleans);
    tcase_add_test(tc, test_declarations_and_commands);
    tcase_add_test(tc, test_deep_nesting);
    tcase_add_test(tc, test_v2_same_form);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    tc = tcase_create("errors");
    tcase_add_test(tc, test_errors_syntax);
    tcase_add_test(tc, test_errors_declarations);
    tcase_add_test(tc, test_errors_region);
    tcase_add_test(tc, test_load_errors);
    tcase_add_test(tc, test_v2_errors);
    tcase_add_test(tc, test_v2_networks);
    tcase_add_test(tc, test_v2_multi_io);
    suite_add_tcase(s, tc);
    tc = tcase_create("benchmarks");
    tcase_add_test(tc, test_bench_acasxu);
    tcase_add_test(tc, test_bench_mnist);
    tcase_add_test(tc, test_bench_all_files);
    tcase_add_test(tc, test_v2_bench_files);
    tcase_set_timeout(tc, 300);
    suite_add_tcase(s, tc);
    tc = tcase_create("robustness");
    tcase_add_test(tc, test_alloc_failures);
    tcase_add_loop_test(tc, test_truncation, 0, 2);
    tcase_add_loop_test(tc, test_random_corruption, 0, 2);
    tcase_add_test(tc, test_real_points);
    tcase_add_test(tc, test_speed);
    tcase_add_test(tc, test_shared_prefix);
    tcase_add_test(tc, test_shared_prefix_large);
    tcase_set_timeout(tc, 300);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(spec_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
