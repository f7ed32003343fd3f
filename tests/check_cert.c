/* Check suite: certificates and the independent checker, and adversarial networks where rounding
 * decides the answer.
 *
 * Certificates: every unsat instance of models/EXPECTED.csv is certified and checked valid; each
 * kind of corruption is rejected (a region line removed, a case removed, a box shrunk, a value
 * changed, the model checksum changed, a certificate of another spec, a forged certificate for a
 * sat spec); ACAS Xu instances when ../shared/benchmarks/acasxu exists (tests run from the repo
 * root).
 *
 * Adversarial networks: each is built so that the real-valued network satisfies the property while
 * a float32 execution of it violates it (huge cancelling weights, a margin of a few ulps, float32
 * overflow, a subnormal weight, a subnormal input, an input at a box corner that a float32 runtime
 * rounds outside the box). A rounding-blind CROWN (plain double, no allowance, written below)
 * claims unsat on each: that is what a verifier ignoring rounding would answer. verify must not
 * answer unsat there, and the checker must reject a certificate claiming it; on the same networks
 * with a real margin verify answers unsat and its certificate is valid.
 *
 * Sign: the bound module has no SIGN relaxation yet, so the checker's SIGN support is tested on
 * hand-written certificates (accepted where the relaxation proves them, rejected where a sample or
 * a known point violates the claim) and on its lines directly. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "require.h"
#include "testnet.h"
#include "vfy/cert.h"
#include "vfy/checker.h"
#include "vfy/eval.h"
#include "vfy/onnx.h"
#include "vfy/verify.h"

/* ---- helpers ---- */

static char tmpdir[256];

static const char *tmp_path(const char *name)
{
    static char buf[512];
    snprintf(buf, sizeof buf, "%s/%s", tmpdir, name);
    return buf;
}

static char *slurp(const char *path, size_t *len)
{
    uint8_t *d = NULL;
    vfy_error err;
    REQUIRE_MSG(vfy_read_file(path, &d, len, &err) == VFY_OK, "%s", err.msg);
    return (char *)d;
}

static void opts_cert(vfy_verify_opts *o, double timeout_s)
{
    vfy_verify_opts_default(o);
    o->threads = 1;
    o->timeout_s = timeout_s;
    o->method = VFY_BOUND_CROWN;
    o->split = VFY_SPLIT_INPUT;
    o->reuse_parent_bounds = 0;
}

/* Verify model/spec files with a certificate at cert_path; returns the verdict. relu: ReLU
 * splitting with alpha/beta-CROWN (format 2), else input splitting with plain CROWN. */
static vfy_verdict certify(const char *model, const char *spec, const char *cert_path,
                           double timeout_s, double *time_s, int relu)
{
    vfy_error err;
    vfy_net *net = NULL;
    vfy_spec *sp = NULL;
    /* as verify reads a query: its hidden nodes made outputs, its tensors in the model's order */
    const char *hidden[VFY_SPEC_MAX_IO];
    REQUIRE_MSG(vfy_spec_load(spec, &sp, &err) == VFY_OK, "%s", err.msg);
    REQUIRE_MSG(vfy_onnx_load_hidden(model, hidden, vfy_spec_hidden_names(sp, 0, hidden), &net,
                                     &err) == VFY_OK, "%s", err.msg);
    REQUIRE_MSG(vfy_net_fit_query(net, model, sp, spec, &err) == VFY_OK, "%s", err.msg);
    vfy_verify_opts o;
    opts_cert(&o, timeout_s);
    if (relu) {
        o.method = VFY_BOUND_AUTO;
        o.split = VFY_SPLIT_RELU;
    }
    vfy_cert_writer *w = NULL;
    REQUIRE_MSG(vfy_cert_begin(cert_path, model, spec, net, sp, 1, &w, &err) == VFY_OK, "%s",
                err.msg);
    o.on_refuted = vfy_cert_on_refuted;
    o.on_root_bound = vfy_cert_on_root_bound;
    o.on_refuted_user = w;
    vfy_verify_result res;
    REQUIRE_MSG(vfy_verify(net, sp, &o, &res, &err) == VFY_OK, "%s", err.msg);
    ck_assert_int_eq(vfy_cert_finish(w, res.verdict == VFY_UNSAT, &err), VFY_OK);
    vfy_verdict v = res.verdict;
    if (time_s)
        *time_s = res.time_s;
    vfy_verify_result_free(&res);
    vfy_spec_free(sp);
    vfy_net_free(net);
    return v;
}

static vfy_verdict certify_files(const char *model, const char *spec, const char *cert_path,
                                 double timeout_s, double *time_s)
{
    return certify(model, spec, cert_path, timeout_s, time_s, 0);
}

/* Check certificate text against model/spec files; returns res.valid, why in why. */
static int check_text(const char *model, const char *spec, const char *cert, char *why,
                      vfy_check_result *out)
{
    size_t ml, sl;
    char *m = slurp(model, &ml), *s = slurp(spec, &sl);
    vfy_check_result res;
    vfy_error err;
    vfy_status st = vfy_check_certificate_bytes((const uint8_t *)m, ml, model, s, sl, spec, cert,
                                                strlen(cert), "test.cert", NULL, &res, &err);
    REQUIRE_MSG(st == VFY_OK, "checker error: %s", err.msg);
    if (why)
        snprintf(why, 1024, "%s", res.why);
    if (out)
        *out = res;
    vfy_free(m);
    vfy_free(s);
    return res.valid;
}

/* Lines of a text, editable. */
typedef struct tlines {
    int n;
    char *line[4096];
} tlines;

static void tl_split(tlines *t, const char *text)
{
    t->n = 0;
    const char *p = text;
    while (*p && t->n < 4096) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        t->line[t->n] = malloc(n + 1);
        memcpy(t->line[t->n], p, n);
        t->line[t->n][n] = '\0';
        t->n++;
        p += n + (e ? 1 : 0);
    }
}

static char *tl_join(const tlines *t)
{
    size_t n = 1;
    for (int i = 0; i < t->n; i++)
        n += strlen(t->line[i]) + 1;
    char *s = malloc(n), *p = s;
    for (int i = 0; i < t->n; i++)
        p += sprintf(p, "%s\n", t->line[i]);
    *p = '\0';
    return s;
}

static void tl_set(tlines *t, int i, const char *s)
{
    free(t->line[i]);
    t->line[i] = strdup(s);
}

static void tl_remove(tlines *t, int i)
{
    free(t->line[i]);
    memmove(&t->line[i], &t->line[i + 1], (size_t)(t->n - i - 1) * sizeof(char *));
    t->n--;
}

static void tl_free(tlines *t)
{
    for (int i = 0; i < t->n; i++)
        free(t->line[i]);
    t->n = 0;
}

static int tl_find(const tlines *t, const char *prefix)
{
    for (int i = 0; i < t->n; i++)
        if (!strncmp(t->line[i], prefix, strlen(prefix)))
            return i;
    return -1;
}

/* ---- certificates of the project's models ---- */

static const char *const unsat_instances[][2] = {
    {"models/tiny_relu.onnx", "specs/tiny_relu_unsat.vnnlib"},
    {"models/abs_split.onnx", "specs/abs_split_unsat.vnnlib"},
    {"models/rand2_a.onnx", "specs/rand2_a_unsat.vnnlib"},
    {"models/rand2_a.onnx", "specs/rand2_a_tight_unsat.vnnlib"},
    {"models/rand2_b.onnx", "specs/rand2_b_cmp_unsat.vnnlib"},
    {"models/rand2_b.onnx", "specs/rand2_b_dnf_unsat.vnnlib"},
    {"models/acas_like.onnx", "specs/acas_like_unsat.vnnlib"},
    {"models/pool2.onnx", "specs/pool2_unsat.vnnlib"},
    {"models/res2.onnx", "specs/res2_unsat.vnnlib"},
    {"models/res2.onnx", "specs/res2_tight_unsat.vnnlib"},
    {"models/soft2.onnx", "specs/soft2_cmp_unsat.vnnlib"}, /* ends in a Softmax */
    {"models/tconv2.onnx", "specs/tconv2_unsat.vnnlib"},   /* a ConvTranspose */
    {"models/up2.onnx", "specs/up2_unsat.vnnlib"},         /* a Resize */
    {"models/mul2.onnx", "specs/mul2_unsat.vnnlib"},       /* products and squares */
    {"models/mul2.onnx", "specs/mul2_tight_unsat.vnnlib"},
    {"models/silu2.onnx", "specs/silu2_unsat.vnnlib"},     /* x read on both sides of a Sigmoid */
    {"models/redmax2.onnx", "specs/redmax2_unsat.vnnlib"}, /* ReduceMax, ReduceMin */
    {"models/sign2.onnx", "specs/sign2_unsat.vnnlib"},     /* a binarized step */
    {"models/smx2.onnx", "specs/smx2_unsat.vnnlib"},       /* a Softmax inside the graph */
    {"models/lnsp2.onnx", "specs/lnsp2_unsat.vnnlib"},     /* a LayerNorm, a Softplus */
    {"models/lnsp2.onnx", "specs/lnsp2_tight_unsat.vnnlib"},
    {"models/trig2.onnx", "specs/trig2_unsat.vnnlib"},     /* Sin and Cos */
    {"models/act2.onnx", "specs/act2_unsat.vnnlib"},       /* Elu, HardSwish, Softsign */
};
#define N_UNSAT ((int)(sizeof unsat_instances / sizeof unsat_instances[0]))

/* The certificate file at path, checked through the file API as the CLI does: it must be valid. */
static void check_file_valid(const char *m, const char *s, const char *path, vfy_check_result *res)
{
    vfy_error err;
    REQUIRE_MSG(vfy_check_certificate(m, s, path, NULL, res, &err) == VFY_OK, "%s", err.msg);
    REQUIRE_MSG(res->valid, "%s %s: %s", m, s, res->why);
}

START_TEST(test_models_certified)
{
    const char *m = unsat_instances[_i][0], *s = unsat_instances[_i][1];
    const char *path = tmp_path("model.cert");
    ck_assert_int_eq(certify_files(m, s, path, 30, NULL), VFY_UNSAT);
    vfy_check_result res;
    check_file_valid(m, s, path, &res);
    ck_assert_int_ge(res.regions, 1);
    unlink(path);
}
END_TEST

/* A certificate of rand2_a_tight_unsat (29 regions) and of rand2_b_dnf_unsat (2 cases). */
static char *tight_cert(void)
{
    const char *path = tmp_path("tight.cert");
    ck_assert_int_eq(certify_files("models/rand2_a.onnx", "specs/rand2_a_tight_unsat.vnnlib", path,
                                   30, NULL), VFY_UNSAT);
    size_t n;
    char *t = slurp(path, &n);
    unlink(path);
    return t;
}

static int tight_valid(const char *cert, char *why)
{
    return check_text("models/rand2_a.onnx", "specs/rand2_a_tight_unsat.vnnlib", cert, why, NULL);
}

/* A model ending in a Softmax: the checker, like verify, takes only rows its input answers; a
 * threshold on one output is refused by name, whatever the certificate says. */
START_TEST(test_softmax_rows_refused)
{
    const char *path = tmp_path("soft.cert");
    ck_assert_int_eq(certify_files("models/soft2.onnx", "specs/soft2_cmp_unsat.vnnlib", path, 30,
                                   NULL), VFY_UNSAT);
    vfy_check_result res;
    vfy_error err;
    ck_assert_int_eq(vfy_check_certificate("models/soft2.onnx",
                                           "tests/data/bad/softmax_threshold.vnnlib", path, NULL,
                                           &res, &err), VFY_ERR_UNSUPPORTED);
    REQUIRE_MSG(strstr(err.msg, "softmax_threshold.vnnlib: case 1, constraint 1") &&
                strstr(err.msg, "Softmax"), "%s", err.msg);
    ck_assert(!res.valid);
    unlink(path);
}
END_TEST

START_TEST(test_corrupt_region_removed)
{
    char *c = tight_cert(), why[1024];
    ck_assert(tight_valid(c, why));
    tlines t;
    tl_split(&t, c);
    int r = tl_find(&t, "region ");
    ck_assert_int_ge(r, 0);
    /* removing a line, the end count no longer matches */
    tl_remove(&t, r + 3);
    char *c2 = tl_join(&t);
    ck_assert(!tight_valid(c2, why));
    REQUIRE_MSG(strstr(why, "end line says"), "%s", why);
    /* with the count corrected, the cover has a hole */
    int e = tl_find(&t, "end ");
    char buf[64];
    int nreg = 0;
    for (int i = 0; i < t.n; i++)
        nreg += !strncmp(t.line[i], "region ", 7);
    snprintf(buf, sizeof buf, "end %d", nreg);
    tl_set(&t, e, buf);
    char *c3 = tl_join(&t);
    ck_assert(!tight_valid(c3, why));
    REQUIRE_MSG(strstr(why, "is not covered near x = ("), "%s", why);
    free(c2);
    free(c3);
    tl_free(&t);
    vfy_free(c);
}
END_TEST

START_TEST(test_corrupt_case_removed)
{
    const char *m = "models/rand2_b.onnx", *s = "specs/rand2_b_dnf_unsat.vnnlib";
    const char *path = tmp_path("dnf.cert");
    ck_assert_int_eq(certify_files(m, s, path, 30, NULL), VFY_UNSAT);
    size_t n;
    char *c = slurp(path, &n), why[1024];
    ck_assert(check_text(m, s, c, why, NULL));
    tlines t;
    tl_split(&t, c);
    int r = tl_find(&t, "region ");
    char *p = strstr(t.line[r], " cases 0 1");
    REQUIRE_MSG(p != NULL, "expected both cases on one region: %s", t.line[r]);
    strcpy(p, " cases 0"); /* case 1 no longer refuted anywhere */
    char *c2 = tl_join(&t);
    ck_assert(!check_text(m, s, c2, why, NULL));
    REQUIRE_MSG(strstr(why, "case 1 of box 0 is not covered"), "%s", why);
    free(c2);
    tl_free(&t);
    vfy_free(c);
    unlink(path);
}
END_TEST

/* Replace token k (0-based, whitespace separated) of line i by tok. */
static void set_token(tlines *t, int i, int k, const char *tok)
{
    char out[8192] = "", *save = NULL, *copy = strdup(t->line[i]);
    int q = 0;
    for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save), q++) {
        strcat(out, q ? " " : "");
        strcat(out, q == k ? tok : w);
    }
    free(copy);
    tl_set(t, i, out);
}

static double get_token(const tlines *t, int i, int k)
{
    char *save = NULL, *copy = strdup(t->line[i]);
    char *w = strtok_r(copy, " ", &save);
    for (int q = 0; q < k && w; q++)
        w = strtok_r(NULL, " ", &save);
    ck_assert_ptr_nonnull(w);
    double v = strtod(w, NULL);
    free(copy);
    return v;
}

START_TEST(test_corrupt_box_shrunk)
{
    char *c = tight_cert(), why[1024], tok[64];
    tlines t;
    tl_split(&t, c);
    int r = tl_find(&t, "region ");
    /* "region B lo l0 l1 hi h0 h1 cases ...": h0 is token 6 */
    double l0 = get_token(&t, r, 3), h0 = get_token(&t, r, 6);
    snprintf(tok, sizeof tok, "%a", l0 + 0.99 * (h0 - l0));
    set_token(&t, r, 6, tok);
    char *c2 = tl_join(&t);
    ck_assert(!tight_valid(c2, why));
    REQUIRE_MSG(strstr(why, "is not covered near x = ("), "%s", why);
    free(c2);
    tl_free(&t);
    vfy_free(c);
}
END_TEST

START_TEST(test_corrupt_value_changed)
{
    char *c = tight_cert(), why[1024];
    tlines t;
    tl_split(&t, c);
    int r = tl_find(&t, "region ");
    /* a value changed in the file: lo[0] of a region moved above its hi, then a hex digit made
     * invalid. (Moving lo[0] far out instead is not a corruption the checker must reject: this
     * network's Y_0 stays above the threshold on the whole plane, and the checker proves the grown
     * region by bisection, which is right.) */
    char *save = strdup(t.line[r]);
    set_token(&t, r, 3, "0x1p+10");
    char *c2 = tl_join(&t);
    ck_assert(!tight_valid(c2, why));
    REQUIRE_MSG(strstr(why, "empty region"), "%s", why);
    tl_set(&t, r, save);
    char *p = strstr(t.line[r], "0x");
    ck_assert_ptr_nonnull(p);
    p[2] = 'g';
    char *c3 = tl_join(&t);
    ck_assert(!tight_valid(c3, why));
    REQUIRE_MSG(strstr(why, "is not a finite hexadecimal float"), "%s", why);
    free(save);
    free(c2);
    free(c3);
    tl_free(&t);
    vfy_free(c);
}
END_TEST

START_TEST(test_corrupt_header)
{
    char *c = tight_cert(), why[1024];
    tlines t;
    tl_split(&t, c);
    int h = tl_find(&t, "model ");
    char *p = t.line[h] + 6; /* the first hex digit of the checksum */
    *p = *p == '0' ? '1' : '0';
    char *c2 = tl_join(&t);
    ck_assert(!tight_valid(c2, why));
    REQUIRE_MSG(strstr(why, "checksum or size of the model"), "%s", why);
    free(c2);
    tl_free(&t);
    /* truncated: no end line */
    tl_split(&t, c);
    tl_remove(&t, tl_find(&t, "end "));
    c2 = tl_join(&t);
    ck_assert(!tight_valid(c2, why));
    REQUIRE_MSG(strstr(why, "truncated"), "%s", why);
    free(c2);
    tl_free(&t);
    /* not a certificate */
    ck_assert(!tight_valid("hello\n", why));
    ck_assert(!tight_valid("", why));
    vfy_free(c);
}
END_TEST

START_TEST(test_corrupt_other_spec)
{
    /* a certificate of rand2_a_unsat offered for rand2_a_sat: the header names another spec; with
     * the header forged (the right checksum), its regions cannot prove a false property */
    const char *m = "models/rand2_a.onnx", *s2 = "specs/rand2_a_sat.vnnlib";
    const char *path = tmp_path("other.cert");
    ck_assert_int_eq(certify_files(m, "specs/rand2_a_unsat.vnnlib", path, 30, NULL), VFY_UNSAT);
    size_t n;
    char *c = slurp(path, &n), why[1024];
    ck_assert(!check_text(m, s2, c, why, NULL));
    REQUIRE_MSG(strstr(why, "checksum or size of the spec"), "%s", why);
    char *s = slurp(s2, &n);
    char line[256];
    snprintf(line, sizeof line, "spec %016llx %llu %s",
             (unsigned long long)vfy_cert_fnv1a64((const uint8_t *)s, n), (unsigned long long)n, s2);
    tlines t;
    tl_split(&t, c);
    tl_set(&t, tl_find(&t, "spec "), line);
    char *c2 = tl_join(&t);
    ck_assert(!check_text(m, s2, c2, why, NULL));
    REQUIRE_MSG(strstr(why, "is not refuted") || strstr(why, "not covered") ||
                strstr(why, "cases is"), "%s", why);
    free(c2);
    tl_free(&t);
    vfy_free(s);
    vfy_free(c);
    unlink(path);
}
END_TEST

/* A forged certificate for each sat spec: one region per box (the box widened as the verifier
 * would), listing every case, with the right checksums. The property is false, so the checker
 * must reject it. */
static const char *const sat_instances[][2] = {
    {"models/tiny_relu.onnx", "specs/tiny_relu_sat.vnnlib"},
    {"models/abs_split.onnx", "specs/abs_split_sat.vnnlib"},
    {"models/rand2_a.onnx", "specs/rand2_a_sat.vnnlib"},
    {"models/rand2_a.onnx", "specs/rand2_a_cmp_sat.vnnlib"},
    {"models/rand2_b.onnx", "specs/rand2_b_dnf_sat.vnnlib"},
    {"models/acas_like.onnx", "specs/acas_like_sat.vnnlib"},
    {"models/pool2.onnx", "specs/pool2_sat.vnnlib"},
};

static char *forge(const char *model, const char *spec, const vfy_net *net, const vfy_spec *sp)
{
    size_t ml, sl;
    char *m = slurp(model, &ml), *s = slurp(spec, &sl);
    size_t cap = 1 << 20;
    char *out = malloc(cap), *p = out;
    p += sprintf(p, "verify-certificate 1\nsemantics float32\nmodel %016llx %zu %s\n"
                 "spec %016llx %zu %s\nn_in %lld\nn_out %lld\nboxes %lld\ncases %lld\n",
                 (unsigned long long)vfy_cert_fnv1a64((uint8_t *)m, ml), ml, model,
                 (unsigned long long)vfy_cert_fnv1a64((uint8_t *)s, sl), sl, spec,
                 (long long)net->n_in, (long long)net->n_out, (long long)sp->n_boxes,
                 (long long)sp->n_cases);
    int64_t nreg = 0;
    for (int64_t b = 0; b < sp->n_boxes; b++) {
        int any = 0;
        for (int64_t c = 0; c < sp->n_cases; c++)
            any |= sp->cases[c].box == b && sp->cases[c].n_rows > 0;
        if (!any)
            continue;
        p += sprintf(p, "region %lld lo", (long long)b);
        for (int64_t j = 0; j < net->n_in; j++)
            p += sprintf(p, " %a", sp->boxes[b].lo[j] - fabs(sp->boxes[b].lo[j]) * 0x1p-23 - 0x1p-140);
        p += sprintf(p, " hi");
        for (int64_t j = 0; j < net->n_in; j++)
            p += sprintf(p, " %a", sp->boxes[b].hi[j] + fabs(sp->boxes[b].hi[j]) * 0x1p-23 + 0x1p-140);
        p += sprintf(p, " cases");
        for (int64_t c = 0; c < sp->n_cases; c++)
            if (sp->cases[c].box == b && sp->cases[c].n_rows > 0)
                p += sprintf(p, " %lld", (long long)c);
        p += sprintf(p, "\n");
        nreg++;
    }
    sprintf(p, "end %lld\n", (long long)nreg);
    vfy_free(m);
    vfy_free(s);
    return out;
}

/* The model m and the spec s, which must load. */
static void load_pair(const char *m, const char *s, vfy_net **net, vfy_spec **sp)
{
    vfy_error err;
    ck_assert(vfy_onnx_load(m, net, &err) == VFY_OK);
    ck_assert(vfy_spec_load(s, sp, &err) == VFY_OK);
}

START_TEST(test_forged_sat)
{
    const char *m = sat_instances[_i][0], *s = sat_instances[_i][1];
    vfy_net *net = NULL;
    vfy_spec *sp = NULL;
    load_pair(m, s, &net, &sp);
    char *c = forge(m, s, net, sp), why[1024];
    REQUIRE_MSG(!check_text(m, s, c, why, NULL), "%s %s: forged certificate accepted", m, s);
    free(c);
    vfy_spec_free(sp);
    vfy_net_free(net);
}
END_TEST

/* Networks of several inputs and outputs (named, or in order) and hidden nodes: the checker lays
 * the query's tensors out as verify does, by input splitting (_i < 3) and by ReLU splitting. The
 * certificate offered for a false twin of its spec (one threshold moved past the extreme, the
 * header's checksum the twin's) is rejected: the checker refutes the rows it reads itself. */
static const char *const multi_io_specs[][3] = {
    /* spec, its threshold, the twin's: past score[0] - aux's max 0.7347, z[0]'s 1.2451, aux's
     * 1.1614 */
    {"specs/multi_io_named_unsat.vnnlib", "1.244", "0.684"},
    {"specs/multi_io_hidden_unsat.vnnlib", "1.247", "1.200"},
    {"specs/multi_io_order_unsat.vnnlib", "1.417", "1.100"},
};

START_TEST(test_multi_io_certified)
{
    const char *m = "models/multi_io.onnx", *s = multi_io_specs[_i % 3][0];
    const char *path = tmp_path("multi_io.cert");
    ck_assert_int_eq(certify(m, s, path, 30, NULL, _i >= 3), VFY_UNSAT);
    vfy_check_result res;
    check_file_valid(m, s, path, &res);
    ck_assert_int_ge(res.regions, 1);
    /* the false twin: the same text with the threshold moved (in the assertion, not a comment) */
    size_t n, nc;
    char *c = slurp(path, &nc);
    uint8_t *bytes = NULL;
    vfy_error err;
    REQUIRE_MSG(vfy_read_file(s, &bytes, &n, &err) == VFY_OK, "%s", err.msg);
    char *text = (char *)bytes;
    char line[1024], why[1024], twin[512];
    char *first = strstr(text, "(assert");
    ck_assert_ptr_nonnull(first);
    char *at = strstr(first, multi_io_specs[_i % 3][1]);
    ck_assert_ptr_nonnull(at);
    memcpy(at, multi_io_specs[_i % 3][2], 5);
    snprintf(twin, sizeof twin, "%s", tmp_path("multi_io_twin.vnnlib"));
    FILE *f = fopen(twin, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(text, 1, n, f), n);
    ck_assert_int_eq(fclose(f), 0);
    snprintf(line, sizeof line, "spec %016llx %llu %s",
             (unsigned long long)vfy_cert_fnv1a64((const uint8_t *)text, n), (unsigned long long)n,
             twin);
    tlines t;
    tl_split(&t, c);
    tl_set(&t, tl_find(&t, "spec "), line);
    char *c2 = tl_join(&t);
    REQUIRE_MSG(!check_text(m, twin, c2, why, NULL), "%s: accepted for its false twin", s);
    REQUIRE_MSG(strstr(why, "is not refuted") || strstr(why, "not covered"), "%s", why);
    free(c2);
    tl_free(&t);
    vfy_free(text);
    vfy_free(c);
    unlink(twin);
    unlink(path);
}
END_TEST

/* vfy_net_fit_query on a model read with other hidden nodes than the query's (here in the other
 * order): an error naming the node, not an abort. */
START_TEST(test_fit_query_hidden_mismatch)
{
    vfy_error err;
    vfy_spec *sp = NULL;
    vfy_net *net = NULL;
    const char *swapped[2] = {"relu1", "fc1"};
    ck_assert_int_eq(vfy_spec_load("specs/multi_io_hidden_unsat.vnnlib", &sp, &err), VFY_OK);
    ck_assert_int_eq(vfy_onnx_load_hidden("models/multi_io.onnx", swapped, 2, &net, &err), VFY_OK);
    ck_assert_int_eq(vfy_net_fit_query(net, "m", sp, "s", &err), VFY_ERR_INVALID);
    REQUIRE_MSG(strstr(err.msg, "hidden node 'fc1'") && strstr(err.msg, "is not among"), "%s",
                err.msg);
    vfy_net_free(net);
    vfy_spec_free(sp);
}
END_TEST

/* ---- ReLU-split certificates (format 2) ---- */

/* Verify with ReLU splitting (alpha/beta-CROWN, root tightened) and a certificate at cert_path. */
static vfy_verdict certify_relu(const char *model, const char *spec, const char *cert_path)
{
    return certify(model, spec, cert_path, 30, NULL, 1);
}

static const char *const relu_instances[][2] = {
    {"models/rand2_a.onnx", "specs/rand2_a_unsat.vnnlib"},
    {"models/abs_split.onnx", "specs/abs_split_unsat.vnnlib"},
    {"models/res2.onnx", "specs/res2_tight_unsat.vnnlib"}, /* residual: carried values */
};

START_TEST(test_relu_certified)
{
    const char *m = relu_instances[_i][0], *s = relu_instances[_i][1];
    const char *path = tmp_path("relu.cert");
    ck_assert_int_eq(certify_relu(m, s, path), VFY_UNSAT);
    size_t n;
    char *t = slurp(path, &n);
    /* a proof by activation splitting, with its multipliers */
    REQUIRE_MSG(strstr(t, " splits ") && strstr(t, "\nrow ") && strstr(t, " beta "), "%s", s);
    vfy_check_result res;
    check_file_valid(m, s, path, &res);
    /* a tree of several regions (8 for rand2_a since the intercept scores lead the branching) */
    ck_assert_int_ge(res.regions, 4);
    vfy_free(t);
    unlink(path);
}
END_TEST

/* Two cases that each need splits (Y_0 <= -0.043: rand2_a_unsat's; Y_2 <= -0.2): a tree each
 * (bab.c: push_root), so every region lists one case, both cases have regions, and the checker's
 * cover, case by case, accepts the certificate. */
START_TEST(test_relu_case_trees_certified)
{
    const char *m = "models/rand2_a.onnx";
    const char *spec = "(declare-const X_0 Real)(declare-const X_1 Real)"
                       "(declare-const Y_0 Real)(declare-const Y_1 Real)(declare-const Y_2 Real)"
                       "(assert (>= X_0 -1.0))(assert (<= X_0 1.0))"
                       "(assert (>= X_1 -1.0))(assert (<= X_1 1.0))"
                       "(assert (or (and (<= Y_0 -0.043)) (and (<= Y_2 -0.2))))\n";
    char s[512];
    snprintf(s, sizeof s, "%s", tmp_path("two_cases.vnnlib"));
    FILE *f = fopen(s, "w");
    ck_assert_ptr_nonnull(f);
    fputs(spec, f);
    fclose(f);
    const char *path = tmp_path("two_cases.cert");
    ck_assert_int_eq(certify_relu(m, s, path), VFY_UNSAT);
    size_t n;
    char *t = slurp(path, &n);
    tlines tl;
    tl_split(&tl, t);
    int per_case[2] = {0, 0};
    for (int i = 0; i < tl.n; i++) {
        if (strncmp(tl.line[i], "region ", 7))
            continue;
        const char *c = strstr(tl.line[i], " cases ");
        ck_assert_ptr_nonnull(c);
        int k = -1, used = 0;
        REQUIRE_MSG(sscanf(c, " cases %d%n", &k, &used) == 1 && c[used] == '\0' && k >= 0 &&
                        k < 2,
                    "line %d lists more than one case: %s", i + 1, c);
        per_case[k]++;
    }
    REQUIRE_MSG(per_case[0] > 1 && per_case[1] > 1, "regions: %d of case 0, %d of case 1",
                per_case[0], per_case[1]);
    vfy_check_result res;
    check_file_valid(m, s, path, &res);
    tl_free(&tl);
    vfy_free(t);
    unlink(path);
    unlink(s);
}
END_TEST

/* Index of the k-th line (from the end when k < 0) starting with prefix and containing needle. */
static int tl_nth(const tlines *t, const char *prefix, const char *needle, int k)
{
    int hits[4096], n = 0;
    for (int i = 0; i < t->n; i++)
        if (!strncmp(t->line[i], prefix, strlen(prefix)) && (!needle || strstr(t->line[i], needle)))
            hits[n++] = i;
    ck_assert_int_gt(n, 0);
    return k >= 0 ? hits[k < n ? k : n - 1] : hits[n + k >= 0 ? n + k : 0];
}

/* The position (token number) of the first token equal to tok on line i, or -1. */
static int tok_pos(const tlines *t, int i, const char *tok)
{
    char *save = NULL, *copy = strdup(t->line[i]);
    int q = 0, at = -1;
    for (char *w = strtok_r(copy, " ", &save); w && at < 0; w = strtok_r(NULL, " ", &save), q++)
        if (!strcmp(w, tok))
            at = q;
    free(copy);
    return at;
}

/* Each corruption of a ReLU-split certificate of rand2_a_unsat is rejected, with the reason. */
START_TEST(test_relu_corrupt)
{
    const char *m = "models/rand2_a.onnx", *s = "specs/rand2_a_unsat.vnnlib";
    const char *path = tmp_path("relu_c.cert");
    ck_assert_int_eq(certify_relu(m, s, path), VFY_UNSAT);
    size_t n;
    char *text = slurp(path, &n), why[1024];
    unlink(path);
    REQUIRE_MSG(check_text(m, s, text, why, NULL), "%s", why);
    tlines t;
    tl_split(&t, text);
    const char *expect = NULL;
    int r = tl_nth(&t, "region", " splits ", -1); /* the last region with splits */
    int sp = tok_pos(&t, r, "splits");
    ck_assert_int_gt(sp, 0);
    switch (_i) {
    case 0: { /* a leaf removed (with its row lines): its sign pattern is uncovered */
        tl_remove(&t, r);
        while (r < t.n && !strncmp(t.line[r], "row ", 4))
            tl_remove(&t, r);
        int e = tl_find(&t, "end ");
        char buf[64];
        snprintf(buf, sizeof buf, "end %d", atoi(t.line[e] + 4) - 1);
        tl_set(&t, e, buf);
        expect = "uncovered";
        break;
    }
    case 1: { /* the sign of a leaf's last split flipped: the leaf's own pattern is left open */
        int ns = atoi(strstr(t.line[r], " splits ") + 8);
        int q = sp + 2 * ns + 1;
        char *save = NULL, *copy = strdup(t.line[r]), *w = strtok_r(copy, " ", &save);
        for (int k = 0; k < q; k++)
            w = strtok_r(NULL, " ", &save);
        set_token(&t, r, q, !strcmp(w, "+") ? "-" : "+");
        free(copy);
        expect = "uncovered";
        break;
    }
    case 2: { /* a negative multiplier */
        int row = tl_nth(&t, "row", " beta ", 0);
        set_token(&t, row, tok_pos(&t, row, "beta") + 1, "-0x1p+0");
        expect = "multiplier";
        break;
    }
    case 3: { /* a slope above 1 in a root bound */
        int b = tl_nth(&t, "bound", NULL, 0);
        ck_assert_int_gt(atoi(strstr(t.line[b], " alpha ") + 7), 0);
        set_token(&t, b, tok_pos(&t, b, "alpha") + 3, "0x1.8p+0");
        expect = "slope";
        break;
    }
    case 4: /* a split on a neuron that feeds no ReLU (the last output) */
        set_token(&t, r, sp + 2, "1000000");
        expect = "not the input of a ReLU";
        break;
    case 5: /* the root line removed: its bound lines belong to no box */
        tl_remove(&t, tl_find(&t, "root "));
        expect = "before any 'root' line";
        break;
    case 6: { /* a 'row' line for a case the region does not list */
        int row = r + 1;
        set_token(&t, row, 1, "7");
        expect = "expected 'row C R'";
        break;
    }
    case 7: /* a split count past the network (it asked for 320 GB before it was read) */
        set_token(&t, r, sp + 1, "40000001000");
        expect = "more than the network's";
        break;
    case 8: { /* the second split on the first one's neuron */
        ck_assert_int_ge(atoi(strstr(t.line[r], " splits ") + 8), 2);
        char *save = NULL, *copy = strdup(t.line[r]), *w = strtok_r(copy, " ", &save);
        for (int k = 0; k < sp + 2; k++)
            w = strtok_r(NULL, " ", &save);
        set_token(&t, r, sp + 4, w);
        free(copy);
        expect = "split twice";
        break;
    }
    }
    char *bad = tl_join(&t);
    REQUIRE_MSG(!check_text(m, s, bad, why, NULL), "corruption %d accepted", _i);
    REQUIRE_MSG(strstr(why, expect), "corruption %d: '%s' does not say '%s'", _i, why, expect);
    free(bad);
    tl_free(&t);
    vfy_free(text);
}
END_TEST

/* A region the checker cannot confirm whole is split on one more activation (then on the input):
 * the verifier's certificate of rand2_a_unsat cut down to its root's two children (the first split
 * neuron, both signs, no slopes or multipliers) is still valid, each region needing bisection. */
START_TEST(test_relu_checker_bisects)
{
    const char *m = "models/rand2_a.onnx", *s = "specs/rand2_a_unsat.vnnlib";
    const char *path = tmp_path("relu_b.cert");
    ck_assert_int_eq(certify_relu(m, s, path), VFY_UNSAT);
    size_t n;
    char *text = slurp(path, &n);
    unlink(path);
    tlines t, u;
    tl_split(&t, text);
    u.n = 0;
    char first[64] = "";
    const char *box = NULL;
    for (int i = 0; i < t.n; i++) {
        const char *l = t.line[i];
        if (!strncmp(l, "region", 6) && !box) {
            const char *sp = strstr(l, " splits ");
            ck_assert_ptr_nonnull(sp);
            /* "region B lo .. hi .." and the first split's neuron */
            int nsp = 0, idx = -1;
            ck_assert_int_eq(sscanf(sp, " splits %d %d", &nsp, &idx), 2);
            snprintf(first, sizeof first, "%d", idx);
            box = l;
            for (int h = 0; h < 2; h++) {
                char *x = malloc(strlen(l) + 64);
                sprintf(x, "%.*s splits 1 %s %c cases 0", (int)(sp - l), l, first, h ? '-' : '+');
                u.line[u.n++] = x;
            }
        } else if (!strncmp(l, "region", 6) || !strncmp(l, "row ", 4)) {
            continue;
        } else if (!strncmp(l, "end", 3)) {
            u.line[u.n++] = strdup("end 2");
        } else {
            u.line[u.n++] = strdup(l);
        }
    }
    ck_assert_ptr_nonnull(box);
    char *c = tl_join(&u), why[1024];
    vfy_check_result res;
    REQUIRE_MSG(check_text(m, s, c, why, &res), "%s", why);
    ck_assert_int_eq(res.regions, 2);
    ck_assert_int_eq(res.bisected, 2);
    free(c);
    tl_free(&t);
    tl_free(&u);
    vfy_free(text);
}
END_TEST

/* A forged ReLU-split certificate of a sat spec (the box split on one neuron, both halves claimed
 * refuted) is rejected: the counterexample's half cannot be proved. */
START_TEST(test_relu_forged_sat)
{
    const char *m = sat_instances[_i][0], *s = sat_instances[_i][1];
    vfy_net *net = NULL;
    vfy_spec *sp = NULL;
    load_pair(m, s, &net, &sp);
    if (net->n_layers < 2 || net->layers[1].kind != VFY_LAYER_RELU) {
        vfy_spec_free(sp);
        vfy_net_free(net);
        return; /* the forgery splits neuron 0, the input of the first ReLU */
    }
    char *c = forge(m, s, net, sp), why[1024];
    tlines t, u;
    tl_split(&t, c);
    u.n = 0;
    int nreg = 0;
    for (int i = 0; i < t.n; i++) {
        const char *l = t.line[i];
        if (!strncmp(l, "verify-certificate", 18)) {
            u.line[u.n++] = strdup("verify-certificate 2");
        } else if (!strncmp(l, "region", 6)) {
            const char *cs = strstr(l, " cases");
            for (int h = 0; h < 2; h++) {
                char *x = malloc(strlen(l) + 32);
                sprintf(x, "%.*s splits 1 0 %c%s", (int)(cs - l), l, h ? '-' : '+', cs);
                u.line[u.n++] = x;
                nreg++;
            }
        } else if (!strncmp(l, "end", 3)) {
            char *x = malloc(32);
            sprintf(x, "end %d", nreg);
            u.line[u.n++] = x;
        } else {
            u.line[u.n++] = strdup(l);
        }
    }
    char *f = tl_join(&u);
    REQUIRE_MSG(!check_text(m, s, f, why, NULL), "%s %s: forged certificate accepted", m, s);
    REQUIRE_MSG(strstr(why, "not refuted"), "%s", why);
    free(f);
    free(c);
    tl_free(&t);
    tl_free(&u);
    vfy_spec_free(sp);
    vfy_net_free(net);
}
END_TEST

/* ---- ACAS Xu (skipped when the benchmark folder is absent) ---- */
static const char *const acas[][2] = {
    {"onnx/ACASXU_run2a_1_1_batch_2000.onnx", "vnnlib/prop_1.vnnlib"},
    {"onnx/ACASXU_run2a_2_5_batch_2000.onnx", "vnnlib/prop_1.vnnlib"},
    {"onnx/ACASXU_run2a_3_3_batch_2000.onnx", "vnnlib/prop_4.vnnlib"},
};

/* 1 when the benchmark directory root is absent (said on stderr: the test is skipped). */
static int benchmark_absent(const char *root, const char *what)
{
    struct stat stt;
    if (stat(root, &stt) == 0)
        return 0;
    fprintf(stderr, "check_cert: %s absent, %s skipped\n", root, what);
    return 1;
}

START_TEST(test_acasxu)
{
    const char *root = "../shared/benchmarks/acasxu";
    if (benchmark_absent(root, "ACAS Xu certificates"))
        return;
    char m[512], s[512];
    snprintf(m, sizeof m, "%s/%s", root, acas[_i][0]);
    snprintf(s, sizeof s, "%s/%s", root, acas[_i][1]);
    const char *path = tmp_path("acas.cert");
    double tv;
    ck_assert_int_eq(certify_files(m, s, path, 20, &tv), VFY_UNSAT);
    vfy_check_result res;
    check_file_valid(m, s, path, &res);
    fprintf(stderr, "check_cert: %s %s: verify %.3f s, check %.3f s, %lld regions\n", acas[_i][0],
            acas[_i][1], tv, res.time_s, (long long)res.regions);
    unlink(path);
}
END_TEST

/* Convolutional nets (verivital, when ../shared/benchmarks/verivital exists): their lowered
 * convolutions are held in sparse form only, which both the verifier and the checker read; a
 * certificate of an unsat instance by ReLU splitting checks valid. */
START_TEST(test_sparse_certified)
{
    const char *root = "../shared/benchmarks/verivital";
    if (benchmark_absent(root, "convolutional certificates"))
        return;
    static const char *const nets[] = {"Convnet_avgpool", "Convnet_maxpool"};
    char m[512], s[512];
    snprintf(m, sizeof m, "%s/onnx/%s.onnx", root, nets[_i]);
    snprintf(s, sizeof s, "%s/vnnlib/prop_0_0.004.vnnlib", root);
    vfy_net *net;
    vfy_spec *sp;
    load_pair(m, s, &net, &sp);
    int sparse = 0;
    for (int64_t k = 0; k < net->n_layers; k++)
        sparse += net->layers[k].csr != NULL && net->layers[k].w == NULL;
    ck_assert_int_ge(sparse, 1);
    vfy_spec_free(sp);
    vfy_net_free(net);
    const char *path = tmp_path("conv.cert");
    ck_assert_int_eq(certify_relu(m, s, path), VFY_UNSAT);
    vfy_check_result res;
    check_file_valid(m, s, path, &res);
    ck_assert_int_ge(res.regions, 1);
    unlink(path);
}
END_TEST

/* ---- adversarial networks ---- */

/* The rounding-blind CROWN: interval bounds and back-substitution in plain double, default slopes,
 * no allowance for any rounding, the input box not widened. What a verifier that ignores floating
 * point computes. Returns a lower bound of cy·y (+ cx·x) that is only "valid" in exact arithmetic
 * of the computed values. Nets here are DENSE/RELU chains no wider than 8. */
static double blind_crown(const vfy_net *net, const double *xl, const double *xh, const double *cy,
                          const double *cx)
{
    double lo[16][8], hi[16][8];
    ck_assert_int_le(net->n_layers, 16);
    for (int64_t k = 0; k < net->n_layers; k++) {
        const vfy_layer *L = &net->layers[k];
        const double *l = k ? lo[k - 1] : xl, *u = k ? hi[k - 1] : xh;
        ck_assert_int_le(L->n_out, 8);
        for (int64_t j = 0; j < L->n_out; j++) {
            if (L->kind == VFY_LAYER_RELU) {
                lo[k][j] = fmax(l[j], 0);
                hi[k][j] = fmax(u[j], 0);
                continue;
            }
            double a = L->b[j], b = L->b[j];
            for (int64_t q = 0; q < L->n_in; q++) {
                double w = L->w[j * L->n_in + q];
                a += w > 0 ? w * l[q] : w * u[q];
                b += w > 0 ? w * u[q] : w * l[q];
            }
            lo[k][j] = a;
            hi[k][j] = b;
        }
    }
    double lam[8], nl[8], beta = 0;
    int64_t n = net->n_out;
    memcpy(lam, cy, (size_t)n * sizeof(double));
    for (int64_t k = net->n_layers - 1; k >= 0; k--) {
        const vfy_layer *L = &net->layers[k];
        const double *l = k ? lo[k - 1] : xl, *u = k ? hi[k - 1] : xh;
        if (L->kind == VFY_LAYER_RELU) {
            for (int64_t j = 0; j < n; j++) {
                if (l[j] >= 0)
                    continue;
                if (u[j] <= 0) {
                    lam[j] = 0;
                } else if (lam[j] >= 0) {
                    lam[j] *= u[j] > -l[j] ? 1.0 : 0.0;
                } else {
                    double s = u[j] / (u[j] - l[j]);
                    beta += lam[j] * (-s * l[j]);
                    lam[j] *= s;
                }
            }
            continue;
        }
        for (int64_t q = 0; q < L->n_in; q++) {
            nl[q] = 0;
            for (int64_t j = 0; j < L->n_out; j++)
                nl[q] += lam[j] * L->w[j * L->n_in + q];
        }
        for (int64_t j = 0; j < L->n_out; j++)
            beta += lam[j] * L->b[j];
        n = L->n_in;
        memcpy(lam, nl, (size_t)n * sizeof(double));
    }
    double v = beta;
    for (int64_t q = 0; q < n; q++) {
        double c = lam[q] + (cx ? cx[q] : 0);
        v += c >= 0 ? c * xl[q] : c * xh[q];
    }
    return v;
}

/* y = w2 · relu(w1 x + b1) + b2 with explicit small layers. */
static vfy_net *net2(int64_t h, const double *w1, const double *b1, const double *w2, double b2)
{
    const int64_t sizes[3] = {1, h, 1};
    const double bb2[1] = {b2};
    const double *w[2] = {w1, w2}, *b[2] = {b1, bb2};
    vfy_net *n = testnet_dense(2, sizes, w, b);
    ck_assert_ptr_nonnull(n);
    return n;
}

typedef struct adv {
    const char *name;
    int64_t h;
    double w1[2], b1[2], w2[2], b2;      /* the network where rounding decides */
    double gw1[2], gb1[2], gw2[2], gb2;  /* its variant with a real margin */
    double x_lo, x_hi;                   /* the real input box */
    int upper;                           /* unsafe set: 1: Y_0 >= t, 0: Y_0 <= t */
    double t_bad, t_good;                /* thresholds of the two variants */
    double x_witness;                    /* where float32 execution violates the first */
} adv;

static const adv advs[] = {
    /* relu(2^60 x + 1) - relu(2^60 x) = 1 in reals; float32 loses the 1 */
    {"huge cancelling weights", 2, {0x1p60, 0x1p60}, {1, 0}, {1, -1}, 0,
     {0x1p60, 0x1p60}, {0x1p45, 0}, {1, -1}, 0, 1, 1, 0, 0.5, 0x1p44, 1},
    /* relu(x + 2^-25) - relu(x) = 2^-25 in reals; 1 + 2^-25 rounds to 1 in float32 */
    {"margin of a few ulps", 2, {1, 1}, {0x1p-25, 0}, {1, -1}, 0,
     {1, 1}, {0x1p-25, 0}, {1, -1}, 0, 1, 1, 0, 0, -0x1p-15, 1},
    /* 2^-100 relu(2^100 x) = x in reals; 2^100 x overflows float32 for x = 2^30 */
    {"float32 overflow", 1, {0x1p100}, {0}, {0x1p-100}, 0,
     {0x1p60}, {0}, {0x1p-60}, 0, 0x1p29, 0x1p30, 1, 0x1p31, 0x1p31, 0x1p30},
    /* relu(2^-140 x) >= 2^-150 > 0 in reals; 2^-150 underflows to 0 in float32 */
    {"subnormal weight", 1, {0x1p-140}, {0}, {1}, 0,
     {0x1p-130}, {0}, {1}, 0, 0x1p-10, 1, 0, 0, 0, 0x1p-10},
    /* relu(2^100 x) at x = 1.75 2^-149: float32 rounds the input to 2^-148 */
    {"subnormal input", 1, {0x1p100}, {0}, {1}, 0,
     {0x1p100}, {0}, {1}, 0, 0x1.cp-149, 0x1.cp-149, 1, 0x1.ep-49, 0x1p-47, 0x1.cp-149},
    /* relu(x) on [0, 1 + 0.75 2^-23]: the corner rounds up to 1 + 2^-23 in float32 */
    {"input at a box corner", 1, {1}, {0}, {1}, 0,
     {1}, {0}, {1}, 0, 0, 0x1.0000018p0, 1, 0x1.000001ccccccdp0, 0x1.0001p0, 0x1.0000018p0},
};
#define N_ADV ((int)(sizeof advs / sizeof advs[0]))

static vfy_spec *adv_spec(const adv *a, double t)
{
    char text[4096]; /* %.200g prints these dyadic constants exactly */
    snprintf(text, sizeof text,
             "(declare-const X_0 Real)(declare-const Y_0 Real)"
             "(assert (>= X_0 %.200g))(assert (<= X_0 %.200g))(assert (%s Y_0 %.200g))",
             a->x_lo, a->x_hi, a->upper ? ">=" : "<=", t);
    vfy_spec *s = NULL;
    vfy_error err;
    REQUIRE_MSG(vfy_spec_parse(text, strlen(text), "adv.vnnlib", &s, &err) == VFY_OK, "%s",
                err.msg);
    return s;
}

/* The certificate of a verify run on an in-memory network, collected through the hook. */
typedef struct memcert {
    char *buf;
    size_t len;
    FILE *f;
    int64_t n_in, n;
} memcert;

static void mem_region(memcert *m, int64_t box, const double *lo, const double *hi, int64_t n,
                       const int64_t *cases)
{
    fprintf(m->f, "region %lld lo", (long long)box);
    for (int64_t j = 0; j < m->n_in; j++)
        fprintf(m->f, " %a", lo[j]);
    fprintf(m->f, " hi");
    for (int64_t j = 0; j < m->n_in; j++)
        fprintf(m->f, " %a", hi[j]);
    fprintf(m->f, " cases");
    for (int64_t i = 0; i < n; i++)
        fprintf(m->f, " %lld", (long long)cases[i]);
    fprintf(m->f, "\n");
    m->n++;
}

static void mem_refuted(void *user, const vfy_refutation *r)
{
    ck_assert_int_eq(r->n_splits, 0); /* input splitting: the region is the whole claim */
    mem_region(user, r->box, r->lo, r->hi, r->n_cases, r->cases);
}

/* The header of a certificate of the claim sem ("float32" or "real"). */
static void mem_header_sem(memcert *m, const vfy_net *net, const vfy_spec *sp, const char *sem)
{
    m->f = open_memstream(&m->buf, &m->len);
    ck_assert_ptr_nonnull(m->f);
    m->n_in = net->n_in;
    fprintf(m->f, "verify-certificate 1\nsemantics %s\nmodel 0000000000000000 0 mem\n"
            "spec 0000000000000000 0 mem\nn_in %lld\nn_out %lld\nboxes %lld\ncases %lld\n", sem,
            (long long)net->n_in, (long long)net->n_out, (long long)sp->n_boxes,
            (long long)sp->n_cases);
}

static void mem_header(memcert *m, const vfy_net *net, const vfy_spec *sp)
{
    mem_header_sem(m, net, sp, "float32");
}

static int check_mem(const vfy_net *net, const vfy_spec *sp, memcert *m, char *why)
{
    fprintf(m->f, "end %lld\n", (long long)m->n);
    fclose(m->f);
    vfy_check_result res;
    vfy_error err;
    REQUIRE_MSG(vfy_check_certificate_net(net, sp, m->buf, m->len, "mem.cert", NULL, &res, &err) ==
                VFY_OK, "%s", err.msg);
    snprintf(why, 1024, "%s", res.why);
    free(m->buf);
    return res.valid;
}

START_TEST(test_adversarial)
{
    const adv *a = &advs[_i];
    vfy_net *net = net2(a->h, a->w1, a->b1, a->w2, a->b2);
    vfy_net *gnet = net2(a->h, a->gw1, a->gb1, a->gw2, a->gb2);
    vfy_spec *bad = adv_spec(a, a->t_bad), *good = adv_spec(a, a->t_good);
    const vfy_row *row = &bad->cases[0].rows[0];
    /* 1. the real network satisfies the property, a float32 execution violates it */
    float xf = (float)a->x_witness, yf, scratch[8];
    vfy_eval_f32(net, &xf, &yf, scratch);
    int violated = a->upper ? (double)yf >= a->t_bad : (double)yf <= a->t_bad;
    REQUIRE_MSG(violated, "%s: float32 execution at %a gives %a, no violation", a->name,
                a->x_witness, (double)yf);
    /* 2. a rounding-blind CROWN would claim unsat: its lower bound of the row exceeds rhs */
    double lb = blind_crown(net, bad->boxes[0].lo, bad->boxes[0].hi, row->cy, row->cx);
    REQUIRE_MSG(lb > row->rhs_hi, "%s: the blind CROWN does not claim unsat (lb %a, rhs %a)",
                a->name, lb, row->rhs_hi);
    /* 3. verify does not answer unsat (sat needs the real network to violate too: unknown or
     * timeout) */
    vfy_verify_opts o;
    opts_cert(&o, 0.5);
    vfy_verify_result res;
    vfy_error err;
    memcert mc = {0};
    mem_header(&mc, net, bad);
    o.on_refuted = mem_refuted;
    o.on_refuted_user = &mc;
    ck_assert(vfy_verify(net, bad, &o, &res, &err) == VFY_OK);
    REQUIRE_MSG(res.verdict != VFY_UNSAT, "%s: verify answered unsat", a->name);
    fprintf(stderr, "check_cert: %-24s blind CROWN: unsat (lb %.3g > %.3g); verify: %s\n", a->name,
            lb, row->rhs_hi, vfy_verdict_name(res.verdict));
    vfy_verify_result_free(&res);
    char why[1024];
    /* the partial certificate of that run does not cover the box */
    ck_assert(!check_mem(net, bad, &mc, why));
    /* 4. a forged certificate claiming the whole (widened) box is rejected */
    memcert mf = {0};
    mem_header(&mf, net, bad);
    double lo = bad->boxes[0].lo[0], hi = bad->boxes[0].hi[0];
    lo -= fabs(lo) * 0x1p-23 + 0x1p-140;
    hi += fabs(hi) * 0x1p-23 + 0x1p-140;
    int64_t c0 = 0;
    mem_region(&mf, 0, &lo, &hi, 1, &c0);
    REQUIRE_MSG(!check_mem(net, bad, &mf, why), "%s: forged certificate accepted", a->name);
    /* 5. with a real margin, verify answers unsat and its certificate is valid */
    memcert mg = {0};
    mem_header(&mg, gnet, good);
    opts_cert(&o, 5);
    o.on_refuted = mem_refuted;
    o.on_refuted_user = &mg;
    ck_assert(vfy_verify(gnet, good, &o, &res, &err) == VFY_OK);
    REQUIRE_MSG(res.verdict == VFY_UNSAT, "%s: verify answered %s with a margin", a->name,
                vfy_verdict_name(res.verdict));
    vfy_verify_result_free(&res);
    REQUIRE_MSG(check_mem(gnet, good, &mg, why), "%s: %s", a->name, why);
    vfy_spec_free(bad);
    vfy_spec_free(good);
    vfy_net_free(net);
    vfy_net_free(gnet);
}
END_TEST

/* ---- Sigmoid and Tanh ---- */

/* x (n_in = 2) -> DENSE w1 (h x 2), b1 -> act -> DENSE w2 (1 x h), b2 */
static vfy_net *act_net(vfy_layer_kind kind, int64_t h, const double *w1, const double *b1,
                        const double *w2, double b2)
{
    vfy_net *net = calloc(1, sizeof *net);
    ck_assert_ptr_nonnull(net);
    net->n_in = 2;
    net->n_out = 1;
    double *a = vfy_alloc_array((size_t)(2 * h), sizeof(double)), *b = vfy_alloc_array((size_t)h, sizeof(double));
    double *c = vfy_alloc_array((size_t)h, sizeof(double)), *d = vfy_alloc_array(1, sizeof(double));
    memcpy(a, w1, (size_t)(2 * h) * sizeof(double));
    memcpy(b, b1, (size_t)h * sizeof(double));
    memcpy(c, w2, (size_t)h * sizeof(double));
    d[0] = b2;
    ck_assert_int_eq(vfy_net_push(net, VFY_LAYER_DENSE, 2, h, a, b, 0, 2, "d1", NULL), VFY_OK);
    ck_assert_int_eq(vfy_net_push(net, kind, h, h, NULL, NULL, 0, 0, "act", NULL), VFY_OK);
    ck_assert_int_eq(vfy_net_push(net, VFY_LAYER_DENSE, h, 1, c, d, 0, h, "d2", NULL), VFY_OK);
    return net;
}

static vfy_spec *act_spec(double x0l, double x0h, double x1l, double x1h, const char *cmp, double t)
{
    char text[2048];
    snprintf(text, sizeof text,
             "(declare-const X_0 Real)(declare-const X_1 Real)(declare-const Y_0 Real)"
             "(assert (>= X_0 %.200g))(assert (<= X_0 %.200g))(assert (>= X_1 %.200g))"
             "(assert (<= X_1 %.200g))(assert (%s Y_0 %.200g))", x0l, x0h, x1l, x1h, cmp, t);
    vfy_spec *sp = NULL;
    vfy_error err;
    REQUIRE_MSG(vfy_spec_parse(text, strlen(text), "act.vnnlib", &sp, &err) == VFY_OK, "%s", err.msg);
    return sp;
}

/* Verify with a certificate in memory; returns the verdict, *valid the checker's answer. */
static vfy_verdict act_certify(const vfy_net *net, const vfy_spec *sp, double timeout, int *valid,
                               char *why)
{
    vfy_verify_opts o;
    opts_cert(&o, timeout);
    memcert mc = {0};
    mem_header(&mc, net, sp);
    o.on_refuted = mem_refuted;
    o.on_refuted_user = &mc;
    vfy_verify_result res;
    vfy_error err;
    ck_assert(vfy_verify(net, sp, &o, &res, &err) == VFY_OK);
    vfy_verdict v = res.verdict;
    vfy_verify_result_free(&res);
    *valid = check_mem(net, sp, &mc, why);
    return v;
}

/* The least output of a 2-input, 1-output net (at most 16 neurons per layer) on the grid
 * x = (lo0 + a / div, lo1 + b / div), a = 0..n0, b = 0..n1. */
static double grid_min(const vfy_net *net, double lo0, int n0, double lo1, int n1, double div)
{
    double mn = INFINITY, x[2], y, scr[32];
    ck_assert(net->n_in == 2 && net->n_out == 1 && 2 * vfy_net_max_width(net) <= 32);
    for (int a = 0; a <= n0; a++)
        for (int b = 0; b <= n1; b++) {
            x[0] = lo0 + a / div;
            x[1] = lo1 + b / div;
            vfy_eval_f64(net, x, &y, scr);
            mn = y < mn ? y : mn;
        }
    return mn;
}

/* Sigmoid, tanh, erf, gelu and silu nets, proofs that need input splitting: verify's certificate is
 * valid in the checker (its own enclosures and lines). Nets: y = f(x0 + x1/4) + f(-x0) - offset,
 * and a random 2 -> 6 -> 1 net with its threshold below the sampled minimum. */
START_TEST(test_act_certified)
{
    vfy_layer_kind kind = _i == 12      ? VFY_LAYER_ERFGATE
                        : _i == 11      ? VFY_LAYER_SILU
                        : _i >= 9       ? VFY_LAYER_GELU
                        : _i % 3 == 0 ? VFY_LAYER_SIGMOID
                        : _i % 3 == 1 ? VFY_LAYER_TANH : VFY_LAYER_ERF;
    char why[1024];
    int valid;
    if (_i < 3) {
        const double w1[4] = {1, 0.25, -1, 0}, b1[2] = {0, 0}, w2[2] = {1, 1};
        vfy_net *net = act_net(kind, 2, w1, b1, w2, 0);
        /* f(x0 + x1/4) + f(-x0) >= f(-x0) + f(x0 - 1/4) > t on x1 in [-1, 0] (tanh: -0.249,
         * erf: -0.281 at the least, at x0 = 1/8) */
        double t = kind == VFY_LAYER_SIGMOID ? 0.9 : -0.3;
        vfy_spec *sp = act_spec(-3, 3, -1, 0, "<=", t);
        ck_assert_int_eq(act_certify(net, sp, 20, &valid, why), VFY_UNSAT);
        REQUIRE_MSG(valid, "%s", why);
        vfy_spec_free(sp);
        /* a forged certificate for a threshold just above the sampled minimum (sat) is rejected */
        double mn = grid_min(net, -3, 300, -1, 50, 50.0);
        sp = act_spec(-3, 3, -1, 0, "<=", mn + 1e-4);
        memcert mf = {0};
        mem_header(&mf, net, sp);
        double lo[2] = {-3.001, -1.001}, hi[2] = {3.001, 0.001};
        int64_t c0 = 0;
        mem_region(&mf, 0, lo, hi, 1, &c0);
        REQUIRE_MSG(!check_mem(net, sp, &mf, why), "forged certificate accepted");
        vfy_spec_free(sp);
        vfy_net_free(net);
        return;
    }
    uint64_t st = 40 + (uint64_t)_i;
    double w1[12], b1[6], w2[6];
    for (int j = 0; j < 12; j++)
        w1[j] = (double)(float)(3 * testnet_uniform(&st) - 1.5);
    for (int j = 0; j < 6; j++) {
        b1[j] = (double)(float)(testnet_uniform(&st) - 0.5);
        w2[j] = (double)(float)(2 * testnet_uniform(&st) - 1);
    }
    vfy_net *net = act_net(kind, 6, w1, b1, w2, 0.125);
    double mn = grid_min(net, -1, 200, -1, 200, 100.0);
    vfy_spec *sp = act_spec(-1, 1, -1, 1, "<=", mn - 0.02);
    ck_assert_int_eq(act_certify(net, sp, 20, &valid, why), VFY_UNSAT);
    REQUIRE_MSG(valid, "%s", why);
    vfy_spec_free(sp);
    vfy_net_free(net);
}
END_TEST

/* The checker's own lines hold at every sampled point of thousands of random intervals (tiny,
 * saturated, straddling, one-sided), against long double with no tolerance (the product split
 * exactly by fma). */
START_TEST(test_act_checker_lines)
{
    vfy_layer_kind kind = _i == 0 ? VFY_LAYER_SIGMOID : _i == 1 ? VFY_LAYER_TANH
                        : _i == 2 ? VFY_LAYER_ERF : _i == 3 ? VFY_LAYER_GELU
                        : _i == 4 ? VFY_LAYER_SILU : VFY_LAYER_ERFGATE;
    const char *name = _i == 0 ? "sigmoid" : _i == 1 ? "tanh" : _i == 2 ? "erf"
                     : _i == 3 ? "gelu" : _i == 4 ? "silu" : "erfgate";
    uint64_t st = 8 + (uint64_t)_i;
    for (int t = 0; t < 3000; t++) {
        double a = testnet_uniform(&st), b = testnet_uniform(&st), l, u;
        switch (t % 5) {
        case 0: l = 20 * a - 10; u = l + ldexp(b, -(int)(10 + 40 * testnet_uniform(&st))); break;
        case 1: l = (testnet_uniform(&st) < 0.5 ? -45 : 30) + 10 * a; u = l + 40 * b; break;
        case 2: l = -8 * a - 1e-3; u = 8 * b + 1e-3; break;
        case 3: l = 12 * a * a; u = l + 6 * b; if (b < 0.5) { double s = -u; u = -l; l = s; } break;
        default: l = 40 * a - 20; u = l + 20 * b; break;
        }
        double sl, tl, su, tu;
        vfy_check_act_lines(kind, l, u, &sl, &tl, &su, &tu);
        for (int g = 0; g <= 300; g++) {
            double z = g == 300 ? u : l + (u - l) * g / 300;
            if (z > u)
                z = u;
            long double f = _i == 5   ? 0.5L * z * erfcl(-(long double)z)
                          : _i == 4 ? z / (1.0L + expl(-(long double)z))
                          : _i == 3 ? 0.5L * z * erfcl(-z * 0.707106781186547524400844362104849L)
                          : _i == 2 ? erfl(z)
                          : _i      ? tanhl(z) : 1.0L / (1.0L + expl(-(long double)z));
            double p = sl * z, e = fma(sl, z, -p), q = su * z, r = fma(su, z, -q);
            long double lo_gap = ((f - tl) - p) - e, up_gap = (((long double)tu - f) + q) + r;
            if (!(lo_gap >= 0 && up_gap >= 0))
                REQUIRE_MSG(0, "%s on [%.17g, %.17g] at %.17g: lower %.17g z + %.17g, upper %.17g "
                            "z + %.17g", name, l, u, z, sl, tl, su, tu);
        }
    }
}
END_TEST

/* ---- Sign ----
 * bound.c has no SIGN relaxation yet, so verify cannot produce these certificates: they are written
 * by hand (one region, format 1) and the checker decides them alone. */

/* Layers for hand-built nets (the net takes copies of w and b). */
static void push_dense_copy(vfy_net *net, int64_t ni, int64_t no, const double *w, const double *b)
{
    double *a = vfy_alloc_array((size_t)(ni * no), sizeof(double));
    double *c = vfy_alloc_array((size_t)no, sizeof(double));
    ck_assert(a && c);
    memcpy(a, w, (size_t)(ni * no) * sizeof(double));
    memcpy(c, b, (size_t)no * sizeof(double));
    ck_assert_int_eq(vfy_net_push(net, VFY_LAYER_DENSE, ni, no, a, c, 0, ni, "dense", NULL),
                     VFY_OK);
}

static void push_act_n(vfy_net *net, vfy_layer_kind kind, int64_t n, int64_t n_pass)
{
    ck_assert_int_eq(vfy_net_push(net, kind, n, n, NULL, NULL, 0, 0, "act", NULL), VFY_OK);
    net->layers[net->n_layers - 1].n_pass = n_pass;
}

static vfy_net *empty_net2(void)
{
    vfy_net *net = calloc(1, sizeof *net);
    ck_assert_ptr_nonnull(net);
    net->n_in = 2;
    net->n_out = 1;
    return net;
}

/* The checker's verdict on one region [lo, hi] refuting case 0 of sp under the claim sem ("real"
 * or "float32"), bisected at most depth levels (0: the relaxation on the whole region decides). */
static int sign_region_valid(const vfy_net *net, const vfy_spec *sp, const char *sem,
                             const double *lo, const double *hi, int depth, char *why)
{
    memcert m = {0};
    mem_header_sem(&m, net, sp, sem);
    int64_t c0 = 0;
    mem_region(&m, 0, lo, hi, 1, &c0);
    fprintf(m.f, "end %lld\n", (long long)m.n);
    fclose(m.f);
    vfy_check_opts o;
    vfy_check_opts_default(&o);
    o.max_depth = depth;
    vfy_check_result res;
    vfy_error err;
    REQUIRE_MSG(vfy_check_certificate_net(net, sp, m.buf, m.len, "mem.cert", &o, &res, &err) ==
                VFY_OK, "%s", err.msg);
    snprintf(why, 1024, "%s", res.why);
    free(m.buf);
    return res.valid;
}

/* Whether y = sl z + tl <= sign(z) <= su z + tu holds at z, decided exactly: sl z = p + e (fma),
 * and p + e <= d for a double d iff p < d, or p == d and e <= 0 (p is p + e rounded to nearest). */
static int sign_line_holds(double z, double sl, double tl, double su, double tu)
{
    double f = z > 0 ? 1 : (z < 0 ? -1 : 0);
    double p = sl * z, e = fma(sl, z, -p), d = f - tl;
    double q = su * z, r = fma(su, z, -q), d2 = f - tu;
    return (p < d || (p == d && e <= 0)) && (q > d2 || (q == d2 && r >= 0));
}

/* The checker's SIGN lines hold at every sampled point (the ends, 0, its neighbours, random
 * points) of thousands of intervals of every kind (l = 0 < u, l < 0 = u, a point 0, one-sided,
 * straddling with u = -l, u = -l +- an ulp, huge and subnormal ends), decided exactly; they are the
 * lines of the relaxation (constants where sign is, slopes within 2^-50 of 1/u, 1/|l|, 2/u or
 * 2/|l|); and the same check catches slopes rounded to nearest instead of down. */
START_TEST(test_sign_checker_lines)
{
    uint64_t st = 77;
    int rn_caught = 0;
    for (int t = 0; t < 4000; t++) {
        double a = testnet_uniform(&st), b = testnet_uniform(&st);
        double s = ldexp(1.0 + a, (int)(120 * b) - 60), l, u;
        switch (t % 8) {
        case 0: l = 0; u = s; break;
        case 1: l = -s; u = 0; break;
        case 2: l = u = 0; break;
        case 3: l = s; u = s * (1 + b); break;
        case 4: l = -s * (1 + b); u = -s; break;
        case 5: l = -s; u = t % 16 == 5 ? s : nextafter(s, t % 3 ? 0 : INFINITY); break;
        case 6: l = -s * (0.01 + 4 * b); u = s; break;
        default: l = t % 3 ? -0x1p-1074 * (1 + (int)(8 * a)) : -1e300 * (1 + a);
                 u = t % 3 ? 0x1p-1074 * (1 + (int)(8 * b)) : 1e300 * (1 + b); break;
        }
        double sl, tl, su, tu;
        vfy_check_act_lines(VFY_LAYER_SIGN, l, u, &sl, &tl, &su, &tu);
        REQUIRE_MSG(sl >= 0 && su >= 0 && isfinite(sl) && isfinite(su), "slopes %g %g", sl, su);
        double z[12] = {l, u, nextafter(l, INFINITY), nextafter(u, -INFINITY), 0, 0x1p-1074,
                        -0x1p-1074};
        for (int g = 7; g < 12; g++)
            z[g] = l + (u - l) * testnet_uniform(&st);
        for (int g = 0; g < 12; g++) {
            if (!(z[g] >= l && z[g] <= u))
                continue;
            REQUIRE_MSG(sign_line_holds(z[g], sl, tl, su, tu), "sign on [%a, %a] at %a: lower "
                        "%a z + %g, upper %a z + %g", l, u, z[g], sl, tl, su, tu);
        }
        /* which lines (every case of the relaxation, slopes rounded down by at most 2^-50) */
        const double tight = 1 - 0x1p-50;
        if (l > 0 || u < 0 || (l == 0 && u == 0)) {
            double v = l > 0 ? 1 : (u < 0 ? -1 : 0);
            REQUIRE(sl == 0 && su == 0 && tl == v && tu == v);
        } else if (l == 0) {
            REQUIRE(su == 0 && tl == 0 && tu == 1);
            REQUIRE_MSG(isinf(1 / u) || sl >= tight / u, "l = 0 < u = %a: slope %a", u, sl);
        } else if (u == 0) {
            REQUIRE(sl == 0 && tl == -1 && tu == 0);
            REQUIRE_MSG(isinf(1 / l) || su >= tight / -l, "l = %a < u = 0: slope %a", l, su);
        } else {
            REQUIRE(tl == -1 && tu == 1);
            if (u >= -l)
                REQUIRE_MSG(su == 0 && (isinf(2 / u) || sl >= tight * 2 / u), "[%a, %a]", l, u);
            else
                REQUIRE_MSG(sl == 0 && (isinf(2 / l) || su >= tight * 2 / -l), "[%a, %a]", l, u);
        }
        /* power: the nearest slope 2/u fails the check at z = u whenever it exceeds 2/u */
        if (l < 0 && u > 0 && u >= -l && isfinite(2 / u) && !sign_line_holds(u, 2 / u, -1, 0, 1))
            rn_caught++;
    }
    REQUIRE_MSG(rn_caught > 10, "slopes rounded to nearest failed the check %d times", rn_caught);
}
END_TEST

/* Hand-built certificates the checker must accept, and their false twins it must reject.
 * (a) y = sign(x0 + x1/4) + sign(-x0) (DENSE -> SIGN -> DENSE) is <= 0 on x0 in [-1, 1],
 *     x1 in [-1, -1/2]: Y_0 >= 1/2 is refuted (by bisection), Y_0 >= 0 (attained at x0 = -1/2)
 *     is not, under either claim.
 * (b) y = sign(x0) - 2 x0 (x0 passed through the SIGN layer, n_pass = 1) on [-1, 1]: the lower line
 *     sign(z) >= 2z/u - 1 gives y >= -1, tight (attained at x0 = 1), where intervals give -3; with
 *     no bisection, Y_0 <= -1 - 2^-40 is refuted under the real claim and Y_0 <= -1 - 2^-20 under
 *     the float32 one (the affine layers' allowance is below 2^-20, a Sigmoid's 2^-19 activation
 *     allowance is not: the checker must charge none for SIGN). On [-1, 1/2] the upper line
 *     sign(z) <= 2z/|l| + 1 gives y <= 1, attained at x0 = -1: Y_0 >= 1 + 2^-40 (2^-20) is
 *     refuted the same way.
 * (c) y = sign(relu(x0)) - relu(x0) (DENSE -> RELU -> SIGN, n_pass = 1) on [0, 1]: the ReLU makes
 *     SIGN's input bound exactly 0 below, where sign(r) >= r/u gives y >= 0 (attained at 0 and 1);
 *     Y_0 <= -2^-40 (-2^-20) is refuted without bisection. */
START_TEST(test_sign_certified)
{
    char why[1024];
    const char *sem[2] = {"real", "float32"};
    /* (a) */
    const double w1[4] = {1, 0.25, -1, 0}, b1[2] = {0, 0}, w2[2] = {1, 1};
    vfy_net *net = act_net(VFY_LAYER_SIGN, 2, w1, b1, w2, 0);
    vfy_spec *good = act_spec(-1, 1, -1, -0.5, ">=", 0.5);
    vfy_spec *bad = act_spec(-1, 1, -1, -0.5, ">=", 0);
    double lo[2] = {-1, -1}, hi[2] = {1, -0.5};
    for (int s = 0; s < 2; s++) {
        REQUIRE_MSG(sign_region_valid(net, good, sem[s], lo, hi, 20, why), "%s: %s", sem[s], why);
        REQUIRE_MSG(!sign_region_valid(net, bad, sem[s], lo, hi, 20, why), "%s: forged", sem[s]);
    }
    vfy_spec_free(good);
    vfy_spec_free(bad);
    vfy_net_free(net);
    /* (b) */
    net = empty_net2();
    const double c1[4] = {1, 0, 1, 0}, z2[2] = {0, 0}, c2[2] = {-2, 1}, z1[1] = {0};
    push_dense_copy(net, 2, 2, c1, z2);
    push_act_n(net, VFY_LAYER_SIGN, 2, 1);
    push_dense_copy(net, 2, 1, c2, z1);
    for (int up_side = 0; up_side < 2; up_side++) {
        double x0h = up_side ? 0.5 : 1, v = up_side ? 1 : -1, dir = up_side ? 1 : -1;
        const char *cmp = up_side ? ">=" : "<=";
        double blo[2] = {-1, 0}, bhi[2] = {x0h, 0};
        for (int s = 0; s < 2; s++) {
            double m = s ? 0x1p-20 : 0x1p-40;
            vfy_spec *sp = act_spec(-1, x0h, 0, 0, cmp, v + dir * m);
            REQUIRE_MSG(sign_region_valid(net, sp, sem[s], blo, bhi, 0, why), "(b) %s %s: %s",
                        cmp, sem[s], why);
            vfy_spec_free(sp);
            sp = act_spec(-1, x0h, 0, 0, cmp, v);
            REQUIRE_MSG(!sign_region_valid(net, sp, sem[s], blo, bhi, 0, why), "(b) %s %s: "
                        "forged", cmp, sem[s]);
            vfy_spec_free(sp);
        }
    }
    vfy_net_free(net);
    /* (c) */
    net = empty_net2();
    const double c3[2] = {-1, 1};
    push_dense_copy(net, 2, 2, c1, z2);
    push_act_n(net, VFY_LAYER_RELU, 2, 0);
    push_act_n(net, VFY_LAYER_SIGN, 2, 1);
    push_dense_copy(net, 2, 1, c3, z1);
    double clo[2] = {0, 0}, chi[2] = {1, 0};
    for (int s = 0; s < 2; s++) {
        vfy_spec *sp = act_spec(0, 1, 0, 0, "<=", s ? -0x1p-20 : -0x1p-40);
        REQUIRE_MSG(sign_region_valid(net, sp, sem[s], clo, chi, 0, why), "(c) %s: %s", sem[s],
                    why);
        vfy_spec_free(sp);
        sp = act_spec(0, 1, 0, 0, "<=", 0);
        REQUIRE_MSG(!sign_region_valid(net, sp, sem[s], clo, chi, 0, why), "(c) %s: forged",
                    sem[s]);
        vfy_spec_free(sp);
    }
    vfy_net_free(net);
}
END_TEST

/* Forged certificates that only a SIGN relaxation tighter than sound would pass, rejected under
 * both claims and with bisection: y = sign(x0) - 2 x0 on [-1, 1] is -1 + 2^-21 at x0 = -2^-22, so
 * Y_0 <= -1 + 2^-20 holds there (a lower line without its intercept -1 would give y >= 0);
 * y = sign(relu(x0)) is 0 for every x0 <= 0, so Y_0 <= 1/2 holds there (taking SIGN's input bound
 * l = 0 as positive would give y = 1); y = sign(x0) on the point x0 = 0 is 0, so Y_0 <= 1/2 and
 * Y_0 >= -1/2 both hold there (taking sign(0) as +1 or -1 would refute one). */
START_TEST(test_sign_forged_rejected)
{
    char why[1024];
    const char *sem[2] = {"real", "float32"};
    const double c1[4] = {1, 0, 1, 0}, z2[2] = {0, 0}, c2[2] = {-2, 1}, z1[1] = {0};
    const double e2[2] = {0, 1}, d1[2] = {1, 0}, b0[1] = {0}, w2[1] = {1};
    for (int s = 0; s < 2; s++) {
        vfy_net *net = empty_net2();
        push_dense_copy(net, 2, 2, c1, z2);
        push_act_n(net, VFY_LAYER_SIGN, 2, 1);
        push_dense_copy(net, 2, 1, c2, z1);
        double lo[2] = {-1, 0}, hi[2] = {1, 0};
        vfy_spec *sp = act_spec(-1, 1, 0, 0, "<=", -1 + 0x1p-20);
        REQUIRE_MSG(!sign_region_valid(net, sp, sem[s], lo, hi, 20, why), "%s: intercept", sem[s]);
        vfy_spec_free(sp);
        vfy_net_free(net);
        net = empty_net2();
        push_dense_copy(net, 2, 2, c1, z2);
        push_act_n(net, VFY_LAYER_RELU, 2, 0);
        push_act_n(net, VFY_LAYER_SIGN, 2, 0);
        push_dense_copy(net, 2, 1, e2, z1);
        sp = act_spec(-1, 1, 0, 0, "<=", 0.5);
        REQUIRE_MSG(!sign_region_valid(net, sp, sem[s], lo, hi, 20, why), "%s: sign(0)", sem[s]);
        vfy_spec_free(sp);
        vfy_net_free(net);
        net = act_net(VFY_LAYER_SIGN, 1, d1, b0, w2, 0);
        double o[2] = {0, 0};
        for (int side = 0; side < 2; side++) {
            sp = act_spec(0, 0, 0, 0, side ? ">=" : "<=", side ? -0.5 : 0.5);
            REQUIRE_MSG(!sign_region_valid(net, sp, sem[s], o, o, 20, why), "%s: point 0, %s",
                        sem[s], side ? ">=" : "<=");
            vfy_spec_free(sp);
        }
        vfy_net_free(net);
    }
}
END_TEST

/* Sin and Cos at their extrema: y = f(x0) on an interval around a maximum (sin: pi/2; cos: 0) or
 * a minimum (sin: 3 pi/2; cos: pi). The true claim |y| <= 1 is certified with the margin 2^-20
 * in real semantics, not in float32 (the runtime's allowance 2^-19 exceeds it) but with 2^-18;
 * the false claim 2^-30 inside the extreme is rejected at any depth in both, and the verifier
 * finds its counterexample in real semantics (in float32 it must not prove it). */
START_TEST(test_trig_certified)
{
    char why[1024];
    const double w1[2] = {1, 0}, b1[1] = {0}, w2[1] = {1};
    const double around[4] = {1.5707963267948966, 0.0, 4.71238898038469, 3.141592653589793};
    for (int c = 0; c < 4; c++) {
        vfy_layer_kind kind = c % 2 ? VFY_LAYER_COS : VFY_LAYER_SIN;
        int top = c < 2; /* a maximum (1) or a minimum (-1) */
        vfy_net *net = act_net(kind, 1, w1, b1, w2, 0);
        /* (float32 ends: a float32 claim covers the inputs' float32 values) */
        double lo[2] = {(float)(around[c] - 0.1), 0}, hi[2] = {(float)(around[c] + 0.1), 0};
        const char *cmp = top ? ">=" : "<=";
        double ext = top ? 1 : -1, sg = top ? 1 : -1;
        struct { const char *sem; double margin; int valid; } cases[4] = {
            {"real", 0x1p-20, 1}, {"float32", 0x1p-20, 0}, {"float32", 0x1p-18, 1},
            {"real", -0x1p-30, 0}};
        for (int t = 0; t < 5; t++) {
            int q = t < 4 ? t : 3; /* (t = 4: the false claim in float32) */
            const char *sem = t < 4 ? cases[q].sem : "float32";
            vfy_spec *sp = act_spec(lo[0], hi[0], 0, 0, cmp, ext + sg * cases[q].margin);
            int v = sign_region_valid(net, sp, sem, lo, hi, 30, why);
            REQUIRE_MSG(v == cases[q].valid, "%s around %g, %s, margin %g: %s (%s)",
                        c % 2 ? "cos" : "sin", around[c], sem, cases[q].margin,
                        v ? "valid" : "invalid", why);
            if (q == 3) {
                /* real semantics: the counterexample is found; float32: the runtime's sin may be
                 * 2^-19 off, more than the claim's 2^-30, so no point is confirmed for every
                 * float32 execution (vfy_cex_confirm), and an unsat would be wrong */
                vfy_verify_opts o;
                opts_cert(&o, t == 4 ? 1 : 10); /* (float32: it runs to its deadline) */
                o.float_semantics = t == 4;
                vfy_verify_result res;
                ck_assert(vfy_verify(net, sp, &o, &res, NULL) == VFY_OK);
                REQUIRE_MSG(t == 4 ? res.verdict != VFY_UNSAT : res.verdict == VFY_SAT,
                            "%s around %g, %s: the false claim is %s", c % 2 ? "cos" : "sin",
                            around[c], sem, res.verdict == VFY_UNSAT ? "proved" : "not refuted");
                vfy_verify_result_free(&res);
            }
            vfy_spec_free(sp);
        }
        vfy_net_free(net);
    }
}
END_TEST

/* A random net on 2 inputs: DENSE 6 -> [RELU ->] SIGN (the first n_pass passed through) -> DENSE 6
 * -> SIGN -> DENSE 1. dyadic: weights k/8 in [-3/2, 3/2], biases k/16 in [-1/2, 1/2], so that on
 * inputs of the grid 2^-6 Z every sum is exact in float32 (under 20 significant bits): the
 * real network, its double and its float32 executions agree, and SIGN's inputs are often exactly 0.
 * Otherwise float32 weights in [-1.5, 1.5] and biases in [-0.5, 0.5]. */
static vfy_net *sign_random_net(uint64_t seed, int relu, int64_t n_pass, int dyadic)
{
    uint64_t st = seed;
    double w[36], b[6];
    vfy_net *net = empty_net2();
    const int64_t sizes[4] = {2, 6, 6, 1};
    for (int l = 0; l < 3; l++) {
        int64_t ni = sizes[l], no = sizes[l + 1];
        for (int64_t q = 0; q < ni * no; q++) {
            double r = testnet_uniform(&st);
            w[q] = dyadic ? floor(25 * r - 12) / 8 : (double)(float)(3 * r - 1.5);
        }
        for (int64_t q = 0; q < no; q++) {
            double r = testnet_uniform(&st);
            b[q] = dyadic ? floor(17 * r - 8) / 16 : (double)(float)(r - 0.5);
        }
        push_dense_copy(net, ni, no, w, b);
        if (l == 0 && relu)
            push_act_n(net, VFY_LAYER_RELU, no, 0);
        if (l < 2)
            push_act_n(net, VFY_LAYER_SIGN, no, l == 0 ? n_pass : 0);
    }
    return net;
}

/* The checker's bounds contain sampled executions of random nets with SIGN layers, with no
 * tolerance: on random boxes, a certificate claiming Y_0 <= min (Y_0 >= max) unreachable, min and
 * max taken over the samples, is rejected under both claims, with bisection. Dyadic nets (exact
 * in every semantics, SIGN's inputs often exactly 0) are sampled on the whole 2^-6 grid of the box;
 * float32 nets at random float32 points, in double and in float32 (the float32 claim covers both;
 * the real claim is checked on the dyadic nets only, whose executions are the real network). Not
 * vacuous: on most boxes the checker refutes a threshold 1/4 beyond the sampled extreme. */
START_TEST(test_sign_sound_sampled)
{
    char why[1024];
    const char *sem[2] = {"real", "float32"};
    int proved = 0, tried = 0;
    for (int n = 0; n < 8; n++) {
        int dyadic = n < 6;
        int64_t n_pass = n % 3 == 2 ? 0 : 1 + n % 3;
        vfy_net *net = sign_random_net(900 + (uint64_t)n, n % 2, n_pass, dyadic);
        double *ws = vfy_alloc_array((size_t)vfy_eval_ws_len(net), sizeof(double));
        float fs[64];
        ck_assert_ptr_nonnull(ws);
        uint64_t st = 300 + (uint64_t)n;
        for (int bx = 0; bx < 4; bx++) {
            /* a box of the grid, 2^-6 to 1/2 wide in each dimension */
            double lo[2], hi[2];
            for (int d = 0; d < 2; d++) {
                int wk = 1 + (int)(32 * testnet_uniform(&st));
                lo[d] = ldexp(floor(128 * testnet_uniform(&st)) - 64, -6);
                hi[d] = lo[d] + ldexp(wk, -6);
            }
            double mn = INFINITY, mx = -INFINITY, x[2], y;
            float xf[2], yf;
            for (int s = 0; s < (dyadic ? 33 * 33 : 2000); s++) {
                for (int d = 0; d < 2; d++) {
                    double g = dyadic ? lo[d] + ldexp(s % 33 * (d == 0) + s / 33 * (d == 1), -6)
                                      : lo[d] + (hi[d] - lo[d]) * testnet_uniform(&st);
                    xf[d] = (float)(g < hi[d] ? g : hi[d]);
                    if ((double)xf[d] < lo[d] || (double)xf[d] > hi[d])
                        xf[d] = (float)lo[d];
                    x[d] = xf[d];
                }
                vfy_eval_f64(net, x, &y, ws);
                vfy_eval_f32(net, xf, &yf, fs);
                REQUIRE_MSG(!dyadic || (double)yf == y, "dyadic net %d: executions differ", n);
                mn = fmin(mn, fmin(y, (double)yf));
                mx = fmax(mx, fmax(y, (double)yf));
            }
            for (int s = dyadic ? 0 : 1; s < 2; s++)
                for (int side = 0; side < 2; side++) {
                    const char *cmp = side ? ">=" : "<=";
                    double t = side ? mx : mn, dir = side ? 1 : -1;
                    vfy_spec *sp = act_spec(lo[0], hi[0], lo[1], hi[1], cmp, t);
                    REQUIRE_MSG(!sign_region_valid(net, sp, sem[s], lo, hi, 6, why), "net %d box "
                                "[%g, %g] x [%g, %g], %s: Y_0 %s %.17g, reached by a sample, "
                                "refuted", n, lo[0], hi[0], lo[1], hi[1], sem[s], cmp, t);
                    vfy_spec_free(sp);
                    sp = act_spec(lo[0], hi[0], lo[1], hi[1], cmp, t + dir * 0.25);
                    proved += sign_region_valid(net, sp, sem[s], lo, hi, 6, why);
                    tried++;
                    vfy_spec_free(sp);
                }
        }
        vfy_free(ws);
        vfy_net_free(net);
    }
    REQUIRE_MSG(2 * proved > tried, "only %d of %d thresholds 1/4 beyond the samples refuted",
                proved, tried);
}
END_TEST

/* ---- Exp and Recip (a lowered Softmax) ----
 * bound.c has no EXP or RECIP relaxation yet: the checker's support is tested on its lines and on
 * hand-written certificates (one region, format 1), as for SIGN. */

/* Whether sl z + tl <= f <= su z + tu at z, f a long double reference within 2^-60 |f| of the real
 * value (the only tolerance): sl z = p + e exactly (fma), the gaps taken in long double. */
static int line_holds_ld(double z, long double f, double sl, double tl, double su, double tu)
{
    long double m = fabsl(f) * 0x1p-60L;
    double p = sl * z, e = fma(sl, z, -p), q = su * z, r = fma(su, z, -q);
    long double lo_gap = ((f - tl) - p) - e, up_gap = (((long double)tu - f) + q) + r;
    return lo_gap >= -m && up_gap >= -m;
}

/* The gap f - (s z + t) (sign: +1 lower line, -1 upper), in long double. */
static long double line_gap_ld(double z, long double f, double s, double t, int sign)
{
    long double g = f - ((long double)s * z + t);
    return sign > 0 ? g : -g;
}

/* The checker's EXP and RECIP lines hold at the ends, the midpoint, their neighbours and random
 * points of 4,000 intervals each: EXP narrow, wide, negative, large (up to 80), straddling, and
 * points; RECIP narrow, [1, 1e6], log-uniform in [1, 1e6], Softmax-like [1, 3] and below 1, and
 * points. Slopes have the function's sign and are the relaxation's on a proper interval (EXP's
 * lower slope > 0, RECIP's both < 0); not vacuous: on intervals of width >= 2^-10 the upper line
 * meets f at an end and the lower line at its tangent point within 2^-36 of the terms' magnitudes.
 * RECIP on an interval that touches or holds 0 has no lines (intercepts -inf, +inf). */
START_TEST(test_softmax_checker_lines)
{
    uint64_t st = 41;
    for (int t = 0; t < 8000; t++) {
        int ex = t % 2 == 0, cs = (t / 2) % 6;
        double a = testnet_uniform(&st), b = testnet_uniform(&st), l, u;
        double nw = ldexp(b, -(int)(5 + 45 * testnet_uniform(&st))); /* a narrow width */
        if (ex) {
            switch (cs) {
            case 0: l = 160 * a - 80; u = l + nw; break;
            case 1: l = -80 * a; u = 80 * b; break;
            case 2: l = -80 + 70 * a; u = l + (-l) * b; break;
            case 3: l = 40 + 40 * a; u = l + (80 - l) * b; break;
            case 4: l = u = 160 * a - 80; break;
            default: l = 20 * a - 10; u = l + 20 * b; break;
            }
        } else {
            switch (cs) {
            case 0: l = pow(10, 6 * a); u = l * (1 + nw); break;
            case 1: l = 1 + (t % 4 ? a : 0); u = 1e6 * (t % 4 ? 1 - b / 2 : 1); break;
            case 2: l = pow(10, 6 * fmin(a, b)); u = pow(10, 6 * fmax(a, b)); break;
            case 3: l = u = pow(10, 6 * a); break;
            case 4: l = 1 + a; u = l + 2 * b; break;
            default: l = 1e-3 + a; u = l * (1 + 10 * b); break;
            }
        }
        vfy_layer_kind kind = ex ? VFY_LAYER_EXP : VFY_LAYER_RECIP;
        const char *name = ex ? "exp" : "recip";
        double sl, tl, su, tu;
        vfy_check_act_lines(kind, l, u, &sl, &tl, &su, &tu);
        REQUIRE_MSG(isfinite(sl) && isfinite(tl) && isfinite(su) && isfinite(tu), "%s on [%a, %a]",
                    name, l, u);
        if (ex)
            REQUIRE_MSG(sl >= 0 && su >= 0 && (l == u || sl > 0), "exp on [%a, %a]: slopes %a %a",
                        l, u, sl, su);
        else
            REQUIRE_MSG(sl <= 0 && su <= 0 && (l == u || (sl < 0 && su < 0)), "recip on [%a, %a]: "
                        "slopes %a %a", l, u, sl, su);
        double z[26] = {l, u, 0.5 * l + 0.5 * u, nextafter(l, INFINITY), nextafter(u, -INFINITY),
                        sqrt(l) * sqrt(u)};
        for (int g = 6; g < 26; g++)
            z[g] = l + (u - l) * testnet_uniform(&st);
        for (int g = 0; g < 26; g++) {
            if (!(z[g] >= l && z[g] <= u)) /* (and NaN: sqrt of a negative end) */
                continue;
            long double f = ex ? expl((long double)z[g]) : 1.0L / (long double)z[g];
            REQUIRE_MSG(line_holds_ld(z[g], f, sl, tl, su, tu), "%s on [%.17g, %.17g] at %.17g: "
                        "lower %.17g z + %.17g, upper %.17g z + %.17g", name, l, u, z[g], sl, tl,
                        su, tu);
        }
        if (!(u - l >= 0x1p-10))
            continue;
        /* not vacuous: the upper line meets f at an end, the lower at the tangent point */
        long double fl = ex ? expl((long double)l) : 1.0L / l;
        long double fu = ex ? expl((long double)u) : 1.0L / u;
        long double gu = fminl(line_gap_ld(l, fl, su, tu, -1), line_gap_ld(u, fu, su, tu, -1));
        long double scale = fmaxl(fl, fu) + fabs(su) * (fabs(l) + fabs(u)) + fabs(tu);
        REQUIRE_MSG(gu <= scale * 0x1p-36L, "%s on [%.17g, %.17g]: upper line %.3Lg off", name, l,
                    u, gu);
        double d = ex ? 0.5 * l + 0.5 * u : sqrt(l) * sqrt(u);
        long double fd = ex ? expl((long double)d) : 1.0L / d;
        long double gl = line_gap_ld(d, fd, sl, tl, 1);
        scale = fd + fabs(sl) * (fabs(d) + (u - l)) + fabs(tl);
        REQUIRE_MSG(gl <= scale * 0x1p-36L, "%s on [%.17g, %.17g]: lower line %.3Lg off at %.17g",
                    name, l, u, gl, d);
    }
    const double bad[4][2] = {{0, 1}, {-1, 2}, {-3, 0}, {NAN, 1}};
    for (int t = 0; t < 4; t++) {
        double sl, tl, su, tu;
        vfy_check_act_lines(VFY_LAYER_RECIP, bad[t][0], bad[t][1], &sl, &tl, &su, &tu);
        REQUIRE_MSG(tl == -INFINITY && tu == INFINITY, "recip on [%g, %g]: lines", bad[t][0],
                    bad[t][1]);
    }
}
END_TEST

/* x -> DENSE 2 -> 2 (x0 passed on; x1 - x0) -> EXP -> DENSE 2 -> 2 (x0; 1 + e) -> RECIP (fan_in 2),
 * the first element passed through both activations when pass, so that the RECIP's second output
 * is the Softmax s_0 of the logits (x0, x1) = sigmoid(x0 - x1); with pass, a last DENSE gives
 * y = s_0 - x0/4, else y = s_0 (n_out 1: the net ends at a 1-element RECIP). */
static vfy_net *softmax_net(int pass)
{
    vfy_net *net = empty_net2();
    const double w1[4] = {1, 0, -1, 1}, z2[2] = {0, 0}, w2[4] = {1, 0, 0, 1}, b2[2] = {0, 1};
    const double v1[2] = {-1, 1}, v0[1] = {0}, one[1] = {1}, b1[1] = {1}, w3[2] = {-0.25, 1};
    if (pass) {
        push_dense_copy(net, 2, 2, w1, z2);
        push_act_n(net, VFY_LAYER_EXP, 2, 1);
        push_dense_copy(net, 2, 2, w2, b2);
        push_act_n(net, VFY_LAYER_RECIP, 2, 1);
        push_dense_copy(net, 2, 1, w3, v0);
    } else {
        push_dense_copy(net, 2, 1, v1, v0);
        push_act_n(net, VFY_LAYER_EXP, 1, 0);
        push_dense_copy(net, 1, 1, one, b1);
        push_act_n(net, VFY_LAYER_RECIP, 1, 0);
    }
    for (int64_t k = 0; k < net->n_layers; k++) /* (a Softmax's: vfy_layer_in_softmax) */
        if (net->layers[k].kind == VFY_LAYER_RECIP || net->layers[k].kind == VFY_LAYER_EXP)
            net->layers[k].fan_in = 2;
    return net;
}

/* Hand-built certificates for a lowered Softmax of two logits on x0 in [0, 1], x1 = 0:
 * (a) y = sigmoid(x0) (softmax_net(0)): min 1/2 at x0 = 0, max sigmoid(1) at x0 = 1;
 * (b) y = sigmoid(x0) - x0/4 (softmax_net(1)), decreasing: max 1/2 at 0, min sigmoid(1) - 1/4 at 1,
 *     which intervals alone cannot reach (they give [1/4, 0.74]): the lines decide, with bisection.
 * Each bound with a margin m (2^-30 real; 2^-17 float32, above RECIP's allowance 2^-19 + 2 2^-23)
 * is refuted under its claim; its attained twin (the bound itself, 2^-45 inside) is rejected under
 * both; the lower bound with a margin 2^-21 is refuted under the real claim, not under float32. */
START_TEST(test_softmax_certified)
{
    char why[1024];
    const char *sem[2] = {"real", "float32"};
    double lo[2] = {0, 0}, hi[2] = {1, 0}, s1 = 1.0 / (1.0 + exp(-1.0));
    for (int pass = 0; pass < 2; pass++) {
        vfy_net *net = softmax_net(pass);
        double ymin = pass ? s1 - 0.25 : 0.5, ymax = pass ? 0.5 : s1;
        for (int s = 0; s < 2; s++)
            for (int side = 0; side < 2; side++) {
                double m = s ? 0x1p-17 : 0x1p-30, v = side ? ymax : ymin, dir = side ? 1 : -1;
                const char *cmp = side ? ">=" : "<=";
                vfy_spec *sp = act_spec(0, 1, 0, 0, cmp, v + dir * m);
                REQUIRE_MSG(sign_region_valid(net, sp, sem[s], lo, hi, 20, why), "(%c) %s %s: %s",
                            "ab"[pass], cmp, sem[s], why);
                vfy_spec_free(sp);
                sp = act_spec(0, 1, 0, 0, cmp, v - dir * 0x1p-45);
                REQUIRE_MSG(!sign_region_valid(net, sp, sem[s], lo, hi, 20, why), "(%c) %s %s: "
                            "attained twin accepted", "ab"[pass], cmp, sem[s]);
                vfy_spec_free(sp);
            }
        /* the allowance decides: a margin 2^-21 (below 2^-19 + 2 2^-23) is refuted under the real
         * claim only */
        for (int s = 0; s < 2; s++) {
            vfy_spec *sp = act_spec(0, 1, 0, 0, "<=", ymin - 0x1p-21);
            REQUIRE_MSG(sign_region_valid(net, sp, sem[s], lo, hi, 20, why) == !s, "(%c) %s: "
                        "margin 2^-21", "ab"[pass], sem[s]);
            vfy_spec_free(sp);
        }
        vfy_net_free(net);
    }
}
END_TEST

/* RECIP claims nothing unless its input is on one side of 0: y = 1/x0 on x0 in [0, 1] (the bound
 * l = 0 stays in one piece of every bisection), on [-1, 1] and on [-1, 0] (where 1/x0 < 0 would be
 * true but for the pole), and y = 1/exp(x0) on [-800, -700] (exp's lower bound underflows to 0; the
 * real y exceeds 1e304): every claim is rejected under both claims, even those the real function
 * satisfies. */
START_TEST(test_recip_nonpositive_rejected)
{
    char why[1024];
    const char *sem[2] = {"real", "float32"};
    const double w[2] = {1, 0}, b[1] = {0};
    struct {
        double l, h;
        int ex;
        const char *cmp;
        double t;
    } cs[] = {{0, 1, 0, "<=", 0.5}, {-1, 1, 0, "<=", -1e300}, {-1, 1, 0, ">=", 1e300},
              {-1, 0, 0, ">=", 0}, {-800, -700, 1, "<=", 1}};
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++)
        for (int s = 0; s < 2; s++) {
            vfy_net *net = empty_net2();
            push_dense_copy(net, 2, 1, w, b);
            if (cs[i].ex)
                push_act_n(net, VFY_LAYER_EXP, 1, 0);
            push_act_n(net, VFY_LAYER_RECIP, 1, 0);
            net->layers[net->n_layers - 1].fan_in = 1;
            double lo[2] = {cs[i].l, 0}, hi[2] = {cs[i].h, 0};
            vfy_spec *sp = act_spec(cs[i].l, cs[i].h, 0, 0, cs[i].cmp, cs[i].t);
            REQUIRE_MSG(!sign_region_valid(net, sp, sem[s], lo, hi, 20, why), "case %zu %s: "
                        "confirmed", i, sem[s]);
            vfy_spec_free(sp);
            vfy_net_free(net);
        }
}
END_TEST

/* ---- Exp, Recip, Sqrt, Log, Softplus (standalone layers) ---- */

static const char *cvx_name(vfy_layer_kind k)
{
    for (int i = 0; i < 5; i++)
        if (testnet_cvx_kinds[i] == k)
            return testnet_cvx_names[i];
    return "?";
}

/* The checker's lines of every convex kind hold at the ends, their neighbours, the midpoint, the
 * tangent points and random points of 20,000 random intervals (testnet_cvx_interval: narrow, wide,
 * huge, near a pole, points; 1/z on either side of 0), against an enclosure of the real f with no
 * tolerance (testnet_cvx_holds); they are finite wherever f is, and outside the domain or across
 * a pole there are none. */
START_TEST(test_convex_checker_lines)
{
    uint64_t st = 4411;
    for (int rep = 0; rep < 20000; rep++) {
        int ki;
        double l, u, sl, tl, su, tu;
        testnet_cvx_case(rep, &st, &ki, &l, &u);
        vfy_layer_kind kind = testnet_cvx_kinds[ki];
        const char *name = testnet_cvx_names[ki];
        vfy_check_act_lines(kind, l, u, &sl, &tl, &su, &tu);
        int fin = fabsl(testnet_cvx_ref(kind, l)) < 0x1p1020L &&
                  fabsl(testnet_cvx_ref(kind, u)) < 0x1p1020L;
        REQUIRE_MSG(!fin || (isfinite(sl) && isfinite(tl) && isfinite(su) && isfinite(tu)),
                    "%s on [%a, %a]: lines %a z + %a, %a z + %a", name, l, u, sl, tl, su, tu);
        double z[48] = {l, u, nextafter(l, INFINITY), nextafter(u, -INFINITY), 0.5 * l + 0.5 * u,
                        l > 0 ? sqrt(l) * sqrt(u) : (u < 0 ? -(sqrt(-l) * sqrt(-u)) : 0)};
        for (int g = 6; g < 48; g++)
            z[g] = l + testnet_uniform(&st) * (u - l);
        for (int g = 0; g < 48; g++)
            if (z[g] >= l && z[g] <= u)
                REQUIRE_MSG(testnet_cvx_holds(kind, z[g], sl, tl, su, tu), "%s on [%.17g, %.17g] "
                            "at %.17g: lower %.17g z + %.17g, upper %.17g z + %.17g", name, l, u,
                            z[g], sl, tl, su, tu);
    }
    const struct {
        vfy_layer_kind k;
        double l, u;
    } bad[] = {{VFY_LAYER_RECIP, -1, 1}, {VFY_LAYER_RECIP, 0, 1}, {VFY_LAYER_SQRT, -1e-300, 1},
               {VFY_LAYER_LOG, 0, 1}, {VFY_LAYER_LOG, -1, 2}, {VFY_LAYER_SQRT, NAN, 1}};
    for (size_t t = 0; t < sizeof bad / sizeof bad[0]; t++) {
        double sl, tl, su, tu;
        vfy_check_act_lines(bad[t].k, bad[t].l, bad[t].u, &sl, &tl, &su, &tu);
        REQUIRE_MSG(tl == -INFINITY && tu == INFINITY, "case %zu: lines", t);
    }
}
END_TEST

/* y = f(x0 + x1/4 + c) + f(-x0 + c) on x0 in [-1, 1], x1 in [-1, 0], for each convex kind (1/z
 * with c = 2 and c = -2, sqrt and log with c = 2): verify proves a threshold 0.05 below the grid
 * minimum with input splitting and its certificate is valid in the checker; a forged certificate
 * for a threshold just above the grid minimum (a real counterexample exists) is rejected. */
START_TEST(test_convex_certified)
{
    static const vfy_layer_kind kinds[6] = {VFY_LAYER_EXP, VFY_LAYER_RECIP, VFY_LAYER_RECIP,
                                            VFY_LAYER_SQRT, VFY_LAYER_LOG, VFY_LAYER_SOFTPLUS};
    static const double cs[6] = {0, 2, -2, 2, 2, 0};
    char why[1024];
    int valid;
    const double w1[4] = {1, 0.25, -1, 0}, b1[2] = {cs[_i], cs[_i]}, w2[2] = {1, 1};
    vfy_net *net = act_net(kinds[_i], 2, w1, b1, w2, 0);
    ck_assert(!vfy_layer_in_softmax(&net->layers[1]));
    double mn = grid_min(net, -1, 200, -1, 100, 100.0);
    vfy_spec *sp = act_spec(-1, 1, -1, 0, "<=", mn - 0.05);
    ck_assert_int_eq(act_certify(net, sp, 20, &valid, why), VFY_UNSAT);
    REQUIRE_MSG(valid, "case %d: %s", _i, why);
    vfy_spec_free(sp);
    sp = act_spec(-1, 1, -1, 0, "<=", mn + 1e-4);
    memcert mf = {0};
    mem_header(&mf, net, sp);
    double lo[2] = {-1.001, -1.001}, hi[2] = {1.001, 0.001};
    int64_t c0 = 0;
    mem_region(&mf, 0, lo, hi, 1, &c0);
    REQUIRE_MSG(!check_mem(net, sp, &mf, why), "case %d: forged certificate accepted", _i);
    vfy_spec_free(sp);
    vfy_net_free(net);
}
END_TEST

/* The net is the layer alone, y = (f(x0), f(x1)), on the point x0 = c (a float32, so the point
 * box covers its float32 rounding; x1 = 1): f's input is exact in every semantics, so only the
 * enclosure of f and, under the float32 claim, a float execution's allowance E = rel |f| + abs
 * widen the bounds. The real value f(c) is known in long double. With m the margin, the unsafe set
 * Y_0 <= f(c) - m is empty, Y_0 <= f(c) + m is not. The checker accepts the empty one under the
 * real claim for m = |f| 2^-40 + 2^-60 (its enclosures are that tight), and rejects the other
 * under both claims (a claim 1e-9 too high is caught); under the float32 claim it rejects the empty
 * one for m = E / 2 (the allowance decides, relative to |f|: at sqrt(2^40) = 2^20 it is 2^-4) and
 * accepts it for m = 2 E + |f| 2^-40. */
START_TEST(test_convex_allowance_decides)
{
    const testnet_cvx_pt *pts = testnet_cvx_pts;
    const char *sem[2] = {"real", "float32"};
    char why[1024];
    for (size_t p = 0; p < TESTNET_CVX_PTS; p++) {
        vfy_net *net = empty_net2();
        net->n_out = 2;
        push_act_n(net, pts[p].k, 2, 0);
        double c = pts[p].c, lo[2] = {c, 1}, hi[2] = {c, 1};
        long double f = testnet_cvx_ref(pts[p].k, c), af = fabsl(f);
        long double E = af * pts[p].rel + pts[p].ab;
        /* (m, side, claim, expected): side -1 the empty set f - m, +1 the forged f + m */
        const struct {
            long double m;
            int side, s, valid;
        } cs[] = {{af * 0x1p-40L + 0x1p-60L, -1, 0, 1}, {af * 0x1p-40L + 0x1p-60L, 1, 0, 0},
                  {af * 0x1p-40L + 0x1p-60L, 1, 1, 0}, {E / 2, -1, 1, 0},
                  {2 * E + af * 0x1p-40L, -1, 1, 1}};
        for (size_t t = 0; t < sizeof cs / sizeof cs[0]; t++) {
            long double v = f + cs[t].side * cs[t].m;
            double thr = (double)v; /* rounded away from f: the set stays empty (or not) */
            if (cs[t].side < 0 && (long double)thr > v)
                thr = nextafter(thr, -INFINITY);
            if (cs[t].side > 0 && (long double)thr < v)
                thr = nextafter(thr, INFINITY);
            char text[1024];
            snprintf(text, sizeof text, "(declare-const X_0 Real)(declare-const X_1 Real)"
                     "(declare-const Y_0 Real)(declare-const Y_1 Real)(assert (>= X_0 %.200g))"
                     "(assert (<= X_0 %.200g))(assert (>= X_1 1))(assert (<= X_1 1))"
                     "(assert (<= Y_0 %.200g))", c, c, thr);
            vfy_spec *sp = NULL;
            vfy_error err;
            REQUIRE_MSG(vfy_spec_parse(text, strlen(text), "cvx.vnnlib", &sp, &err) == VFY_OK,
                        "%s", err.msg);
            int got = sign_region_valid(net, sp, sem[cs[t].s], lo, hi, 0, why);
            REQUIRE_MSG(got == cs[t].valid, "%s at %g, margin %Lg side %d %s: checker %d (%s)",
                        cvx_name(pts[p].k), c, cs[t].m, cs[t].side, sem[cs[t].s], got, why);
            vfy_spec_free(sp);
        }
        vfy_net_free(net);
    }
}
END_TEST

/* The activation allowance decides: y = f(x0) at the point x0 = 0 is 1/2 (sigmoid) or 0 (tanh, erf)
 * in real arithmetic, and a runtime's kernel may be 3.6e-7 off. The unsafe set y <= f(0) - 1e-7 is
 * empty for the real network, but verify must not answer unsat under the float32 semantics, and the
 * checker rejects a certificate claiming the box; with the margin 1e-5 the proof and certificate go
 * through; under the real semantics (no allowance) the small margin is proved too. */
START_TEST(test_act_allowance_decides)
{
    vfy_layer_kind kind = _i == 0 ? VFY_LAYER_SIGMOID : _i == 1 ? VFY_LAYER_TANH : VFY_LAYER_ERF;
    const double w1[2] = {1, 0}, b1[1] = {0}, w2[1] = {1};
    vfy_net *net = act_net(kind, 1, w1, b1, w2, 0);
    double f0 = kind == VFY_LAYER_SIGMOID ? 0.5 : 0.0;
    vfy_spec *bad = act_spec(0, 0, 0, 0, "<=", f0 - 1e-7), *good = act_spec(0, 0, 0, 0, "<=", f0 - 1e-5);
    char why[1024];
    int valid;
    ck_assert_int_ne(act_certify(net, bad, 1, &valid, why), VFY_UNSAT);
    ck_assert(!valid);
    memcert mf = {0};
    mem_header(&mf, net, bad);
    double lo[2] = {-0x1p-140, -0x1p-140}, hi[2] = {0x1p-140, 0x1p-140};
    int64_t c0 = 0;
    mem_region(&mf, 0, lo, hi, 1, &c0);
    REQUIRE_MSG(!check_mem(net, bad, &mf, why), "forged certificate accepted");
    ck_assert_int_eq(act_certify(net, good, 5, &valid, why), VFY_UNSAT);
    REQUIRE_MSG(valid, "%s", why);
    /* the real semantics: no allowance, the 1e-7 margin is a proof */
    vfy_verify_opts o;
    opts_cert(&o, 5);
    o.float_semantics = 0;
    vfy_verify_result res;
    vfy_error err;
    ck_assert(vfy_verify(net, bad, &o, &res, &err) == VFY_OK);
    ck_assert_int_eq(res.verdict, VFY_UNSAT);
    vfy_verify_result_free(&res);
    vfy_spec_free(bad);
    vfy_spec_free(good);
    vfy_net_free(net);
}
END_TEST

/* y = x0 x1: a net of one PRODUCT layer on 2 inputs (the caller frees it). */
static vfy_net *product_net(void)
{
    vfy_net *net = calloc(1, sizeof *net);
    ck_assert_ptr_nonnull(net);
    net->n_in = 2;
    net->n_out = 1;
    int64_t *pairs = vfy_alloc_array(2, sizeof(int64_t));
    pairs[0] = 0;
    pairs[1] = 1;
    ck_assert_int_eq(vfy_net_push_product(net, 2, 1, pairs, "x0 x1", NULL), VFY_OK);
    return net;
}

/* A product's float32 rounding decides, in the checker as in verify: y = x0 x1 at the point
 * x0 = x1 = 1 + 2^-23 is 1 + 2^-22 + 2^-46 for the real network and 1 + 2^-22 for a float32
 * execution (rounded down). Y_0 <= 1 + 2^-22 is violated by the execution only: verify must not
 * answer unsat and the checker rejects a certificate claiming the box; for the real semantics
 * it is a proof; with the threshold 1e-6 lower, the proof and its certificate hold. */
START_TEST(test_product_allowance_decides)
{
    vfy_net *net = product_net();
    double c = 1 + 0x1p-23, t = 1 + 0x1p-22;
    volatile float cf = (float)c, yf = cf * cf;
    ck_assert((double)yf == t && c * c > t); /* the float32 product rounds down onto t */
    vfy_spec *bad = act_spec(c, c, c, c, "<=", t), *good = act_spec(c, c, c, c, "<=", t - 1e-6);
    char why[1024];
    int valid;
    ck_assert_int_ne(act_certify(net, bad, 5, &valid, why), VFY_UNSAT);
    ck_assert(!valid);
    memcert mf = {0};
    mem_header(&mf, net, bad);
    double lo[2] = {c, c}, hi[2] = {c, c};
    int64_t c0 = 0;
    mem_region(&mf, 0, lo, hi, 1, &c0);
    REQUIRE_MSG(!check_mem(net, bad, &mf, why), "forged certificate accepted");
    ck_assert_int_eq(act_certify(net, good, 5, &valid, why), VFY_UNSAT);
    REQUIRE_MSG(valid, "%s", why);
    vfy_verify_opts o;
    opts_cert(&o, 5);
    o.float_semantics = 0;
    vfy_verify_result res;
    vfy_error err;
    ck_assert(vfy_verify(net, bad, &o, &res, &err) == VFY_OK);
    ck_assert_int_eq(res.verdict, VFY_UNSAT);
    vfy_verify_result_free(&res);
    vfy_spec_free(bad);
    vfy_spec_free(good);
    vfy_net_free(net);
}
END_TEST

/* Products that overflow: y = x0 x1 on [1e200, 2e200]^2 is at least 1e400, beyond every double.
 * A certificate claiming Y_0 <= 1e300 unsafe nowhere there is rejected under either claim: the
 * checker's enclosure of the product is not finite (its outward step of +inf is NaN), so it
 * cannot confirm the region. */
START_TEST(test_product_overflow_rejected)
{
    vfy_net *net = product_net();
    vfy_spec *sp = act_spec(1e200, 2e200, 1e200, 2e200, "<=", 1e300);
    char why[1024];
    for (int real = 0; real < 2; real++) {
        memcert mf = {0};
        mem_header_sem(&mf, net, sp, real ? "real" : "float32");
        double lo[2] = {1e200, 1e200}, hi[2] = {2e200, 2e200};
        int64_t c0 = 0;
        mem_region(&mf, 0, lo, hi, 1, &c0);
        REQUIRE_MSG(!check_mem(net, sp, &mf, why), "%s: a region whose product overflows was "
                    "confirmed", real ? "real" : "float32");
    }
    vfy_spec_free(sp);
    vfy_net_free(net);
}
END_TEST

/* The float32 execution's allowance of a long row decides, in the checker as in verify: the
 * adversarial row (testnet_adversarial_row: 300 inputs at x = 1, a float32 execution in index order
 * about 0.0019 below the real sum, half the allowance). Y_0 <= that float32 value is violated by
 * the execution, not by the real network: verify must not answer unsat and the checker rejects a
 * certificate claiming the box; with the threshold 0.01 lower, the proof and certificate hold. */
START_TEST(test_exec_allowance_decides)
{
    enum { N = TESTNET_ADV_TERMS };
    float y;
    vfy_net *net = testnet_adversarial_net(&y);
    ck_assert_ptr_nonnull(net);
    vfy_spec *sp[2];
    for (int g = 0; g < 2; g++) {
        size_t cap = 128 * N + 256, len = 0;
        char *text = malloc(cap);
        ck_assert_ptr_nonnull(text);
        for (int k = 0; k < N; k++)
            len += (size_t)snprintf(text + len, cap - len, "(declare-const X_%d Real)", k);
        len += (size_t)snprintf(text + len, cap - len, "(declare-const Y_0 Real)");
        for (int k = 0; k < N; k++)
            len += (size_t)snprintf(text + len, cap - len,
                                    "(assert (>= X_%d 1))(assert (<= X_%d 1))", k, k);
        len += (size_t)snprintf(text + len, cap - len, "(assert (<= Y_0 %.17g))",
                                (double)y - (g ? 0.01 : 0.0));
        ck_assert(len < cap);
        vfy_error err;
        REQUIRE_MSG(vfy_spec_parse(text, strlen(text), "row.vnnlib", &sp[g], &err) == VFY_OK, "%s",
                    err.msg);
        free(text);
    }
    char why[1024];
    int valid;
    ck_assert_int_ne(act_certify(net, sp[0], 2, &valid, why), VFY_UNSAT);
    ck_assert(!valid);
    memcert mf = {0};
    mem_header(&mf, net, sp[0]);
    static double lo[N], hi[N];
    for (int k = 0; k < N; k++) {
        lo[k] = 1 - 0x1p-52;
        hi[k] = 1 + 0x1p-52;
    }
    int64_t c0 = 0;
    mem_region(&mf, 0, lo, hi, 1, &c0);
    REQUIRE_MSG(!check_mem(net, sp[0], &mf, why), "forged certificate accepted");
    ck_assert_int_eq(act_certify(net, sp[1], 5, &valid, why), VFY_UNSAT);
    REQUIRE_MSG(valid, "%s", why);
    vfy_spec_free(sp[0]);
    vfy_spec_free(sp[1]);
    vfy_net_free(net);
}
END_TEST

/* The checker's resolution: y = x on the point box x = 2^53 (real claim: no allowance), where the
 * doubles are the integers. Y_0 <= 2^53 holds at x (sat): rejected; Y_0 <= 2^53 - 64 is refuted
 * with a margin of 64 ulps: accepted (the checker's outward rounding costs a few ulps per step). */
START_TEST(test_checker_ulps)
{
    const double w1[1] = {1}, b1[1] = {0}, w2[1] = {1};
    vfy_net *net = net2(1, w1, b1, w2, 0);
    const char *fmt = "(declare-const X_0 Real)(declare-const Y_0 Real)"
                      "(assert (>= X_0 9007199254740992))(assert (<= X_0 9007199254740992))"
                      "(assert (<= Y_0 %s))";
    for (int k = 0; k < 2; k++) {
        char text[512];
        snprintf(text, sizeof text, fmt, k ? "9007199254740992" : "9007199254740928");
        vfy_spec *sp = NULL;
        vfy_error err;
        ck_assert(vfy_spec_parse(text, strlen(text), "t.vnnlib", &sp, &err) == VFY_OK);
        memcert m = {0};
        m.f = open_memstream(&m.buf, &m.len);
        m.n_in = 1;
        fprintf(m.f, "verify-certificate 1\nsemantics real\nmodel 0000000000000000 0 m\n"
                "spec 0000000000000000 0 s\nn_in 1\nn_out 1\nboxes 1\ncases 1\n");
        double lo = 0x1p53, hi = 0x1p53;
        int64_t c0 = 0;
        mem_region(&m, 0, &lo, &hi, 1, &c0);
        char why[1024];
        int valid = check_mem(net, sp, &m, why);
        REQUIRE_MSG(valid == (k == 0), "k=%d: %s", k, why);
        vfy_spec_free(sp);
    }
    vfy_net_free(net);
}
END_TEST

START_TEST(test_writer_removes_on_sat)
{
    const char *path = tmp_path("sat.cert");
    FILE *f = fopen(path, "w");
    fputs("stale\n", f);
    fclose(f);
    ck_assert_int_eq(certify_files("models/tiny_relu.onnx", "specs/tiny_relu_sat.vnnlib", path, 30,
                                   NULL), VFY_SAT);
    ck_assert_int_ne(access(path, F_OK), 0);
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    ck_assert_int_ne(access(tmp, F_OK), 0);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("cert");
    TCase *tc = tcase_create("certificates");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_models_certified, 0, N_UNSAT);
    tcase_add_test(tc, test_corrupt_region_removed);
    tcase_add_test(tc, test_corrupt_case_removed);
    tcase_add_test(tc, test_corrupt_box_shrunk);
    tcase_add_test(tc, test_corrupt_value_changed);
    tcase_add_test(tc, test_corrupt_header);
    tcase_add_test(tc, test_corrupt_other_spec);
    tcase_add_loop_test(tc, test_multi_io_certified, 0, 6);
    tcase_add_test(tc, test_fit_query_hidden_mismatch);
    tcase_add_test(tc, test_softmax_rows_refused);
    tcase_add_loop_test(tc, test_forged_sat, 0, (int)(sizeof sat_instances / sizeof sat_instances[0]));
    tcase_add_test(tc, test_writer_removes_on_sat);
    tcase_add_loop_test(tc, test_relu_certified, 0, (int)(sizeof relu_instances / sizeof relu_instances[0]));
    tcase_add_test(tc, test_relu_case_trees_certified);
    tcase_add_loop_test(tc, test_relu_corrupt, 0, 9);
    tcase_add_test(tc, test_relu_checker_bisects);
    tcase_add_loop_test(tc, test_relu_forged_sat, 0, (int)(sizeof sat_instances / sizeof sat_instances[0]));
    tcase_add_test(tc, test_checker_ulps);
    tcase_add_test(tc, test_exec_allowance_decides);
    tcase_add_test(tc, test_product_allowance_decides);
    tcase_add_test(tc, test_product_overflow_rejected);
    tcase_add_loop_test(tc, test_act_certified, 0, 13);
    tcase_add_loop_test(tc, test_act_allowance_decides, 0, 3);
    tcase_add_loop_test(tc, test_act_checker_lines, 0, 6);
    tcase_add_test(tc, test_sign_checker_lines);
    tcase_add_test(tc, test_sign_certified);
    tcase_add_test(tc, test_sign_forged_rejected);
    tcase_add_test(tc, test_sign_sound_sampled);
    tcase_add_test(tc, test_softmax_checker_lines);
    tcase_add_test(tc, test_softmax_certified);
    tcase_add_test(tc, test_recip_nonpositive_rejected);
    tcase_add_test(tc, test_convex_checker_lines);
    tcase_add_loop_test(tc, test_convex_certified, 0, 6);
    tcase_add_test(tc, test_convex_allowance_decides);
    tcase_add_test(tc, test_trig_certified);
    suite_add_tcase(s, tc);
    TCase *ta = tcase_create("benchmarks");
    tcase_set_timeout(ta, 60);
    tcase_add_loop_test(ta, test_acasxu, 0, (int)(sizeof acas / sizeof acas[0]));
    tcase_add_loop_test(ta, test_sparse_certified, 0, 2);
    suite_add_tcase(s, ta);
    TCase *tv = tcase_create("adversarial");
    tcase_set_timeout(tv, 60);
    tcase_add_loop_test(tv, test_adversarial, 0, N_ADV);
    suite_add_tcase(s, tv);
    return s;
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/vfy_cert_XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("check_cert: mkdtemp");
        return EXIT_FAILURE;
    }
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "check_cert: could not remove %s\n", tmpdir);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
