/* cli: the verify command. The only place that decides the process exit code.
 *
 * Exit codes: 0 unsat (the property holds), 1 sat (counterexample), 2 unknown, 3 timeout,
 *             4 usage error, 5 bad input (file, ONNX, VNNLIB, mismatch), 6 internal error/out of memory. */
#include "vfy/attack.h"
#include "vfy/cert.h"
#include "vfy/checker.h"
#include "vfy/bound.h"
#include "vfy/lp.h"
#include "vfy/la.h"
#include "vfy/core.h"
#include "vfy/graph.h"
#include "vfy/onnx.h"
#include "vfy/product.h"
#include "vfy/result.h"
#include "vfy/spec.h"
#include "vfy/verify.h"

#include <errno.h>
#include <math.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { EXIT_UNSAT = 0, EXIT_SAT = 1, EXIT_UNKNOWN = 2, EXIT_TIMEOUT = 3, EXIT_USAGE = 4,
       EXIT_BAD_INPUT = 5, EXIT_INTERNAL = 6 };

#define VFY_VERSION "0.1.0"

static const char usage_text[] =
    "usage: verify MODEL.onnx SPEC.vnnlib [options]\n"
    "       verify NAME=MODEL.onnx ... SPEC.vnnlib [options]\n"
    "       verify --check-certificate MODEL.onnx SPEC.vnnlib CERT [-v]\n"
    "       verify verify QUERY.vnnlib --network NAME=MODEL.onnx ... [--timeout S] [options]\n"
    "       verify supports --vnnlib-versions | --onnx-opset-versions | --onnx-element-types |\n"
    "                       --onnx-operators | --multiple-inputs-outputs | --hidden-nodes |\n"
    "                       --multiple-networks | --multiple-node-comparisons | --logics\n"
    "       verify --name | --version\n"
    "\n"
    "Decides whether some input of the VNNLIB spec's region drives the network's output into the\n"
    "spec's unsafe set. Prints one line: unsat (the property holds, proved), sat (a counterexample,\n"
    "confirmed), unknown, or timeout. The spec is VNNLIB 1 (declare-const X_i Real) or VNNLIB 2.0\n"
    "(declare-network, each network with its inputs, hidden nodes and outputs).\n"
    "\n"
    "The commands verify and supports are the VNNLIB 2.0 standard's command-line interface: the\n"
    "models given by --network, the verdict line timed-out, unknown, unsat or sat, and after sat\n"
    "the assignment, a line NAME[i,j]=value for each declared element in declaration order.\n"
    "(A model file named verify or supports is then written ./verify.)\n"
    "\n"
    "A VNNLIB 2.0 query may declare several networks: give a model for each, as NAME=MODEL.onnx\n"
    "with NAME the network's, or as plain paths in the networks' order (a network declared\n"
    "equal-to another may be left out: it is that network's model). The VNN-COMP form\n"
    "\"[('f', 'a.onnx'), ('g', 'b.onnx')]\" is read by scripts/vnncomp/run_instance.sh. The\n"
    "networks need one layer sequence (as equal-to and isomorphic-to ones have); they are\n"
    "verified side by side as one network, with the inputs that every case ties by equalities\n"
    "(X_f[i] == X_g[i]) made one.\n"
    "\n"
    "options:\n"
    "  --timeout S        give up after S seconds from the start, reading the model\n"
    "                     included (default: no limit)\n"
    "  --result FILE      write a VNN-COMP result file (sat is followed by the counterexample)\n"
    "  --seed N           seed of the counterexample search (default 0)\n"
    "  --threads N        worker threads (default: the number of cores)\n"
    "  --bounds M         bounding method of each domain: ibp, crown, alpha (alpha/beta-CROWN),\n"
    "                     lp (auto, then the triangle LP by GLPK on every domain left open),\n"
    "                     nolp (auto without any LP) or auto (default: crown with input\n"
    "                     splitting, alpha with ReLU splitting, and the LP with ReLU phase\n"
    "                     enumeration on domains with few unstable ReLUs, see --lp-exact)\n"
    "  --lp-exact N       enumerate ReLU phases by LP on domains with at most N unstable ReLUs\n"
    "                     (default 24, 0 to 62; 0 turns the enumeration off; with ReLU\n"
    "                     splitting, in auto, within a fifth of the workers' time)\n"
    "  --split M          branching: auto, input or relu (default auto: input splitting for at\n"
    "                     most 16 inputs, ReLU splitting otherwise)\n"
    "  --alpha-iters N    alpha-CROWN iterations per domain (default 16; 50 on nets with\n"
    "                     Sigmoid or Tanh layers)\n"
    "  --rebound M        after a ReLU split, the later layers' bounds: always re-bounded by\n"
    "                     CROWN, never (the parent's, the split neuron clamped), or auto\n"
    "                     (default: re-bounded while that cuts their unstable neurons' widths\n"
    "                     by 0.2% a split on average, measured during the search; never in\n"
    "                     the refinement's prefix searches)\n"
    "  --max-memory MB    ceiling on the memory: what the process holds when the search\n"
    "                     starts, the workers' estimated scratch and the queued domains\n"
    "                     (default 2048); past it the search continues depth-first, a few\n"
    "                     domains a round. The rows bounded at once take at most an eighth\n"
    "                     of it: a spec of many cases over a large input is bounded a chunk\n"
    "                     of cases at a time, each case left open then searched on its own\n"
    "  --certificate FILE write a certificate of an unsat verdict to FILE (docs/certificate.md);\n"
    "                     for any other verdict FILE is removed. Turns off what the checker\n"
    "                     cannot re-derive: the LP stage (so not with --bounds lp), and bounds\n"
    "                     inherited along the search's path (each region's proof stands on\n"
    "                     its box, its splits and the root's certified bounds); --bounds auto\n"
    "                     then means alpha-CROWN, whose slopes the certificate records\n"
    "  --check-certificate  check CERT with the independent checker: prints 'valid' (exit 0)\n"
    "                     or 'invalid: <first failure>' (exit 1)\n"
    "  --no-refine        one search: no refinement of the root's hidden bounds by searches on\n"
    "                     the network's prefixes after a tenth of the time, or sooner when the\n"
    "                     first search's gap is not closing (ReLU splitting over two ReLU layers\n"
    "                     or more), whose timing the verdict then depends on\n"
    "  --no-attack        no counterexample search (the PGD attack before and during the\n"
    "                     search): a sat then comes only from the points the bounds single\n"
    "                     out, e.g. for a property expected to hold, or to test the bounds\n"
    "  --refine-bounds    the refinement's later prefix searches also carry the bounds its\n"
    "                     searches tightened (not only the neurons made stable) as constraints\n"
    "  --no-facets        the alpha passes without ideal upper facets (by default, where a\n"
    "                     ReLU's input layer has at most 1024 inputs a neuron, a mix of the\n"
    "                     triangle and a facet of the ReLU's hull over its inputs' box: in every\n"
    "                     alpha pass on networks with a convolution; on the others in a second\n"
    "                     pass over the root's hidden bounds and in the last search (after the\n"
    "                     refinement, or the only one); off with --certificate)\n"
    "  --joint-cases      with ReLU splitting, search the cases a box's root leaves open in one\n"
    "                     tree whose domains carry them all (default: a tree for each case)\n"
    "  --real-only        prove for the real-valued network only, without the allowance for its\n"
    "                     float32 execution (for measuring that allowance's cost)\n"
    "  --compare-bounds   instead of verifying, print for every row of the spec the lower bound of\n"
    "                     its margin (row - rhs) over the first input box by IBP, CROWN and\n"
    "                     alpha-CROWN (8 and 50 iterations; alpha-fac: 50 with the facets of\n"
    "                     --no-facets, where the network has them), the triangle LP (GLPK, safe\n"
    "                     dual bound), the LP with multi-neuron cuts, the LP with single-neuron\n"
    "                     ideal cuts (the hull of each ReLU of at most 64 inputs over their\n"
    "                     box), and CROWN and the LP after the hidden layers are tightened by\n"
    "                     LP, with the time each took; --timeout counts from the start: the\n"
    "                     methods not started by then are listed as skipped (all of them, exit\n"
    "                     3, when it passes while the model is read), and the LP's solves stop\n"
    "                     there\n"
    "  -v, -vv, -vvv      progress and statistics on stderr (-vvv: each prefix search too)\n"
    "  -h, --help         this text;  --version  the version\n"
    "\n"
    "exit codes: 0 unsat, 1 sat, 2 unknown, 3 timeout, 4 usage error, 5 bad input, 6 internal error\n";

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "verify: error: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (see verify --help)\n");
    return EXIT_USAGE;
}

/* The index of val among the NULL-terminated names, or -1 (--split and --rebound list their
 * enums' names in order). */
_Static_assert(VFY_SPLIT_AUTO == 0 && VFY_SPLIT_INPUT == 1 && VFY_SPLIT_RELU == 2, "--split");
_Static_assert(VFY_REBOUND_AUTO == 0 && VFY_REBOUND_ALWAYS == 1 && VFY_REBOUND_NEVER == 2,
               "--rebound");
static int parse_choice(const char *val, const char *const *names)
{
    for (int i = 0; names[i]; i++)
        if (!strcmp(val, names[i]))
            return i;
    return -1;
}

static int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || errno != 0)
        return 0;
    *out = v;
    return 1;
}

static int parse_int(const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end != '\0' || errno != 0 || v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

static int exit_for_status(vfy_status st);

/* verify --check-certificate MODEL SPEC CERT */
static int check_certificate(const char *model, const char *spec, const char *cert)
{
    if (!model || !spec || !cert)
        return usage_error("%s", "--check-certificate needs MODEL.onnx SPEC.vnnlib CERT");
    vfy_check_opts o;
    vfy_check_opts_default(&o);
    vfy_check_result r;
    vfy_error err;
    vfy_error_clear(&err);
    vfy_status st = vfy_check_certificate(model, spec, cert, &o, &r, &err);
    if (st != VFY_OK) {
        fprintf(stderr, "verify: error: %s\n", err.msg);
        return exit_for_status(st);
    }
    if (!r.valid) {
        printf("invalid: %s\n", r.why);
        return 1;
    }
    printf("valid\n");
    return 0;
}

static int exit_for_status(vfy_status st)
{
    switch (st) {
    case VFY_ERR_IO:
    case VFY_ERR_PARSE:
    case VFY_ERR_UNSUPPORTED:
    case VFY_ERR_INVALID:
        return EXIT_BAD_INPUT;
    case VFY_ERR_TIMEOUT:
        return EXIT_TIMEOUT;
    default:
        return EXIT_INTERNAL;
    }
}

#define COMPARE_CUT_PAIRS 50 /* pairs of neurons given multi-neuron cuts in --compare-bounds */
#define COMPARE_CUT_ROUNDS 20 /* rounds of single-neuron ideal cuts per row there */

/* One method's line of --compare-bounds, flushed at once (a run cut short keeps what it
 * printed). */
static void compare_print(const char *name, double t0, int64_t K, const double *lb,
                          const double *rhs)
{
    printf("%-9s %8.4f ", name, vfy_now() - t0);
    for (int64_t i = 0; i < K; i++)
        printf(" %.6g", vfy_sub_down(lb[i], rhs[i]));
    printf("\n");
    fflush(stdout);
}

/* Whether the method `name` may start before the deadline; if not, its line says it was skipped. */
static int compare_in_time(const char *name, const vfy_deadline *dl)
{
    if (!vfy_deadline_over(dl))
        return 1;
    printf("%-9s skipped: out of time (--timeout)\n", name);
    fflush(stdout);
    return 0;
}

/* --compare-bounds: the margins' lower bounds over the first box by each method, side by side.
 * A method starts only before the deadline dl (--timeout); the LP's solves stop at it (a solve cut
 * short still gives a safe, weaker bound), and so do the bound passes (the context's deadline:
 * their bounds are then not the method's, so a method the deadline cut is listed as cut short,
 * not with numbers, and the ones after as skipped). */
static vfy_status compare_bounds(const vfy_net *net, const vfy_spec *spec, int float_semantics,
                                 const vfy_deadline *dl, vfy_error *err)
{
    vfy_bound_ctx *ctx = NULL;
    vfy_bounds *b = NULL;
    double *cy = NULL, *cx = NULL, *rhs = NULL, *lb = NULL, *lam = NULL, *cc = NULL, *lo = NULL,
           *hi = NULL;
    int64_t K = 0, nx = net->n_in, ny = net->n_out;
    vfy_status st = vfy_bound_ctx_create(net, float_semantics, &ctx, err);
    if (st != VFY_OK)
        return st;
    vfy_bound_ctx_set_deadline(ctx, dl);
    for (int64_t c = 0; c < spec->n_cases; c++)
        if (spec->cases[c].box == 0)
            K += spec->cases[c].n_rows;
    b = vfy_bounds_create(ctx);
    cy = vfy_alloc_array((size_t)(K * ny + 1), sizeof(double));
    cx = vfy_alloc_array((size_t)(K * nx + 1), sizeof(double));
    rhs = vfy_alloc_array((size_t)K + 1, sizeof(double));
    lb = vfy_alloc_array((size_t)K + 1, sizeof(double));
    lam = vfy_alloc_array((size_t)(K * nx + 1), sizeof(double));
    cc = vfy_alloc_array((size_t)K + 1, sizeof(double));
    lo = vfy_alloc_array((size_t)nx, sizeof(double));
    hi = vfy_alloc_array((size_t)nx, sizeof(double));
    if (!b || !cy || !cx || !rhs || !lb || !lam || !cc || !lo || !hi) {
        st = vfy_fail(err, VFY_ERR_NOMEM, "out of memory comparing bounds");
        goto done;
    }
    int64_t k = 0;
    for (int64_t c = 0; c < spec->n_cases; c++) {
        if (spec->cases[c].box != 0)
            continue;
        for (int64_t i = 0; i < spec->cases[c].n_rows; i++, k++) {
            const vfy_row *r = &spec->cases[c].rows[i];
            memcpy(cy + k * ny, r->cy, (size_t)ny * sizeof(double));
            if (r->cx)
                memcpy(cx + k * nx, r->cx, (size_t)nx * sizeof(double));
            rhs[k] = r->rhs_hi;
        }
    }
    memcpy(lo, spec->boxes[0].lo, (size_t)nx * sizeof(double));
    memcpy(hi, spec->boxes[0].hi, (size_t)nx * sizeof(double));
    vfy_bound_widen_input(ctx, nx, lo, hi);
    if (net->out_op != VFY_OUT_IDENTITY) /* (the rows' signs agree, not their values) */
        printf("rows bounded on the input of the model's %s (its logits)\n",
               net->out_op == VFY_OUT_SOFTMAX ? "Softmax" : "LogSoftmax");
    printf("method      time_s   margin lower bound per row (row - rhs; > 0 refutes the row)\n");
    /* alpha-fac: alpha-50 with the ideal upper facets, on networks that have them */
    static const char *const names[] = {"ibp", "crown", "alpha-8", "alpha-50", "alpha-fac"};
    vfy_bound_ctx_set_facets(ctx, 1);
    int n_methods = vfy_bound_ctx_facets(ctx) ? 5 : 4;
    for (int m = 0; m < n_methods && compare_in_time(names[m], dl); m++) {
        double t0 = vfy_now();
        vfy_bound_ctx_set_facets(ctx, m == 4);
        st = vfy_bound_layers(ctx, m == 0 ? VFY_BOUND_IBP : VFY_BOUND_CROWN, lo, hi, NULL, b);
        if (st == VFY_OK && m < 2)
            st = vfy_bound_rows(ctx, m == 0 ? VFY_BOUND_IBP : VFY_BOUND_CROWN, lo, hi, b, K, cy, cx,
                                lb, lam, cc);
        else if (st == VFY_OK)
            st = vfy_bound_rows_alpha(ctx, lo, hi, b, K, cy, cx, NULL, m == 2 ? 8 : 50, lb, lam,
                                      cc);
        if (st != VFY_OK) {
            st = vfy_fail(err, st, "bounding failed (%s)", vfy_status_name(st));
            goto done;
        }
        if (m > 0 && vfy_deadline_over(dl)) { /* (IBP's numbers, not the method's) */
            printf("%-9s cut short: out of time (--timeout)\n", names[m]);
            fflush(stdout);
            continue; /* (the next is skipped) */
        }
        compare_print(names[m], t0, K, lb, rhs);
    }
    /* the triangle LP over the same (CROWN) layer bounds, then with pair cuts added */
    st = vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo, hi, NULL, b);
    static const char *const lp_names[] = {"lp", "lp-cuts", "lp-ideal"};
    for (int m = 0; m < 3 && st == VFY_OK && compare_in_time(lp_names[m], dl); m++) {
        double t0 = vfy_now();
        vfy_lp *lp = NULL;
        int64_t n_cuts = 0;
        st = vfy_lp_build(ctx, lo, hi, b, &lp, err);
        if (st == VFY_ERR_UNSUPPORTED) { /* Sigmoid/Tanh: no LP lines */
            st = VFY_OK;
            break;
        }
        if (st == VFY_OK)
            vfy_lp_set_deadline(lp, dl);
        if (st == VFY_OK && m == 1)
            st = vfy_lp_add_pair_cuts(lp, NULL, COMPARE_CUT_PAIRS, &n_cuts);
        if (st == VFY_OK && m == 2) {
            st = vfy_lp_bound_rows_cuts(lp, K, cy, cx, COMPARE_CUT_ROUNDS, lb);
            for (int64_t i = 0; i < K; i++)
                lam[i] = NAN;
        } else if (st == VFY_OK) {
            st = vfy_lp_bound_rows(lp, K, cy, cx, lb, lam);
        }
        if (st == VFY_OK) {
            compare_print(lp_names[m], t0, K, lb, rhs);
            vfy_lp_stats ls;
            vfy_lp_stats_get(lp, &ls);
            vfy_log(1, "%s: %lld columns, %lld rows, %lld nonzeros, %lld cut rows, %lld solves, "
                       "%lld simplex iterations", lp_names[m], (long long)ls.cols,
                    (long long)ls.rows, (long long)ls.nnz, (long long)ls.cuts,
                    (long long)ls.solves, (long long)ls.iterations);
            for (int64_t i = 0; i < K; i++)
                vfy_log(1, "  row %lld: safe bound %.17g, GLPK's objective %.17g", (long long)i,
                        lb[i], lam[i]);
        }
        vfy_lp_free(lp);
    }
    /* hidden layers tightened by alpha-CROWN, then alpha on the output rows */
    if (st == VFY_OK && compare_in_time("alpha-hid", dl)) {
        double t0 = vfy_now();
        int64_t n_t = 0;
        st = vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo, hi, NULL, b);
        if (st == VFY_OK)
            st = vfy_bound_tighten_alpha(ctx, lo, hi, b, 20, NULL, &n_t);
        if (st == VFY_OK)
            st = vfy_bound_rows_alpha(ctx, lo, hi, b, K, cy, cx, NULL, 50, lb, lam, cc);
        if (st == VFY_OK) {
            compare_print("alpha-hid", t0, K, lb, rhs);
            vfy_log(1, "alpha-hid: %lld hidden bounds tightened", (long long)n_t);
        }
    }
    /* hidden layers tightened by LP first, then CROWN and the LP on the output rows */
    if (st == VFY_OK && compare_in_time("lpt-crown", dl)) {
        double t0 = vfy_now();
        int64_t n_t = 0;
        st = vfy_bound_layers(ctx, VFY_BOUND_CROWN, lo, hi, NULL, b);
        if (st == VFY_OK)
            st = vfy_lp_tighten_layers(ctx, lo, hi, b, INT64_MAX, dl, &n_t);
        double t1 = vfy_now();
        if (st == VFY_OK)
            st = vfy_bound_rows(ctx, VFY_BOUND_CROWN, lo, hi, b, K, cy, cx, lb, lam, cc);
        if (st == VFY_OK) {
            compare_print("lpt-crown", t0, K, lb, rhs);
            vfy_log(1, "lpt: %lld hidden neurons tightened by LP in %.3f s", (long long)n_t, t1 - t0);
            vfy_lp *lp = NULL;
            if (compare_in_time("lpt-lp", dl))
                st = vfy_lp_build(ctx, lo, hi, b, &lp, err);
            if (st == VFY_ERR_UNSUPPORTED) {
                st = VFY_OK; /* Sigmoid/Tanh: no LP line */
            } else if (st == VFY_OK && lp) {
                vfy_lp_set_deadline(lp, dl);
                st = vfy_lp_bound_rows(lp, K, cy, cx, lb, NULL);
            }
            if (st == VFY_OK && lp)
                compare_print("lpt-lp", t0, K, lb, rhs);
            vfy_lp_free(lp);
        }
    }
    vfy_lp_thread_done();
    if (st != VFY_OK)
        goto done;
done:
    vfy_free(cy);
    vfy_free(cx);
    vfy_free(rhs);
    vfy_free(lb);
    vfy_free(lam);
    vfy_free(cc);
    vfy_free(lo);
    vfy_free(hi);
    vfy_bounds_free(b);
    vfy_bound_ctx_free(ctx);
    return st;
}

#define MAX_MODELS 16 /* models on the command line (networks of one query) */

/* A model argument: "PATH", or "NAME=PATH" for the query's network NAME (an argument that names
 * an existing file as a whole is a path). */
typedef struct model_arg {
    char name[64];
    const char *path;
} model_arg;

static void split_model_arg(const char *arg, model_arg *m)
{
    m->name[0] = '\0';
    m->path = arg;
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || access(arg, F_OK) == 0 || (size_t)(eq - arg) >= sizeof m->name ||
        !((arg[0] >= 'a' && arg[0] <= 'z') || (arg[0] >= 'A' && arg[0] <= 'Z')))
        return;
    for (const char *c = arg; c < eq; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '_'))
            return;
    memcpy(m->name, arg, (size_t)(eq - arg));
    m->name[eq - arg] = '\0';
    m->path = eq + 1;
}

/* Which model each of the query's networks takes (bind[q], an index into models): named ones
 * by name; plain paths in the networks' order, to all networks not named or, when fewer, to
 * those not equal-to another; an equal-to network left without one takes its network's. */
static vfy_status bind_models(const model_arg *models, int n_models, const vfy_spec *spec,
                              const char *spec_path, int *bind, vfy_error *err)
{
    int64_t n_nets = spec->n_nets > 0 ? spec->n_nets : 1;
    if (n_nets > MAX_MODELS)
        return vfy_fail(err, VFY_ERR_UNSUPPORTED, "%s: declares %lld networks, more than %d",
                        spec_path, (long long)n_nets, MAX_MODELS);
    for (int64_t q = 0; q < n_nets; q++)
        bind[q] = -1;
    int n_plain = 0;
    for (int i = 0; i < n_models; i++) {
        if (!models[i].name[0]) {
            n_plain++;
            continue;
        }
        int64_t q = 0;
        while (q < spec->n_nets && strcmp(spec->nets[q].name, models[i].name) != 0)
            q++;
        if (q == spec->n_nets)
            return vfy_fail(err, VFY_ERR_INVALID, "%s: no network '%s' is declared (model "
                            "%s=%s)", spec_path, models[i].name, models[i].name, models[i].path);
        if (bind[q] >= 0)
            return vfy_fail(err, VFY_ERR_INVALID, "two models for network '%s'", models[i].name);
        bind[q] = i;
    }
    int64_t open = 0, open_own = 0;
    for (int64_t q = 0; q < n_nets; q++)
        if (bind[q] < 0) {
            open++;
            open_own += spec->n_nets == 0 || spec->nets[q].rel != VFY_SPEC_EQUAL_TO;
        }
    if (n_plain != open && n_plain != open_own)
        return vfy_fail(err, VFY_ERR_INVALID, "%s: declares %lld network(s), but %d model(s) "
                        "were given (NAME=MODEL.onnx gives a network its model)", spec_path,
                        (long long)n_nets, n_models);
    for (int64_t q = 0, i = 0; q < n_nets; q++) {
        if (bind[q] >= 0 || (n_plain < open && spec->nets[q].rel == VFY_SPEC_EQUAL_TO))
            continue;
        while (models[i].name[0])
            i++;
        bind[q] = (int)i++;
    }
    for (int64_t q = 0; q < n_nets; q++)
        if (bind[q] < 0) /* (equal-to an earlier network, bound by now) */
            bind[q] = bind[spec->nets[q].rel_to];
    return VFY_OK;
}

/* Whether two lists of hidden nodes' names are the same list. */
static int same_names(const char *const *a, int na, const char *const *b, int nb)
{
    if (na != nb)
        return 0;
    for (int k = 0; k < na; k++)
        if (strcmp(a[k], b[k]) != 0)
            return 0;
    return 1;
}

/* Load the spec and the models, and make them one network and one spec: a query over several
 * networks becomes their product (product.h); with tie, the inputs every case ties by
 * equalities become one (*ties; n_z == n_x when none are). */
static vfy_status load_problem(const model_arg *models, int n_models, const char *spec_path,
                               int tie, const vfy_lower_limits *lim, vfy_net **net_out,
                               vfy_spec **spec_out, vfy_ties *ties, vfy_error *err)
{
    vfy_spec *spec = NULL;
    /* per network: its model loaded with its hidden nodes, owned by the first network of that
     * model and those hidden nodes (the others borrow it) */
    vfy_net *per[MAX_MODELS] = {NULL}, *net = NULL;
    int bind[MAX_MODELS], owner[MAX_MODELS];
    const char *hidden[MAX_MODELS][VFY_SPEC_MAX_IO];
    int n_hidden[MAX_MODELS] = {0};
    memset(ties, 0, sizeof *ties);
    vfy_status st = vfy_spec_load(spec_path, &spec, err);
    if (st == VFY_OK)
        st = bind_models(models, n_models, spec, spec_path, bind, err);
    int64_t n_nets = st == VFY_OK && spec->n_nets > 0 ? spec->n_nets : 1;
    int64_t *xmap = NULL, *ymap = NULL;
    if (st == VFY_OK && (!(xmap = vfy_alloc_array((size_t)spec->n_x, sizeof *xmap)) ||
                         !(ymap = vfy_alloc_array((size_t)spec->n_y, sizeof *ymap))))
        st = vfy_fail(err, VFY_ERR_NOMEM, "out of memory");
    for (int64_t q = 0; st == VFY_OK && q < n_nets; q++) {
        int i = bind[q];
        /* a network's hidden nodes, in the query's order: the model's last outputs */
        n_hidden[q] = vfy_spec_hidden_names(spec, q, hidden[q]);
        owner[q] = (int)q;
        for (int64_t r = 0; r < q && owner[q] == q; r++)
            if (bind[r] == i && same_names(hidden[r], n_hidden[r], hidden[q], n_hidden[q]))
                owner[q] = (int)r;
        if (owner[q] == q)
            st = vfy_onnx_load_limited(models[i].path, hidden[q], n_hidden[q], lim, &per[q], err);
        else
            per[q] = per[owner[q]];
        if (st == VFY_OK)
            st = vfy_net_fit_spec(per[q], models[i].path, spec, spec->n_nets ? q : -1,
                                  spec_path, xmap, ymap, err);
    }
    /* the query's tensors laid out as the models have theirs */
    if (st == VFY_OK)
        st = vfy_spec_permute(spec, xmap, ymap, err);
    vfy_free(xmap);
    vfy_free(ymap);
    /* a network declared equal-to another must be given that network's model (compared without
     * the hidden nodes either declares, which only add outputs) */
    for (int64_t q = 0; st == VFY_OK && n_nets > 1 && q < n_nets; q++) {
        int64_t r = spec->nets[q].rel_to;
        if (spec->nets[q].rel != VFY_SPEC_EQUAL_TO || bind[q] == bind[r])
            continue;
        vfy_net *a = NULL, *b = NULL;
        int same = 0;
        if (same_names(hidden[q], n_hidden[q], hidden[r], n_hidden[r])) {
            same = vfy_net_same(per[q], per[r]);
        } else if ((st = vfy_onnx_load_limited(models[bind[q]].path, NULL, 0, lim, &a, err)) ==
                       VFY_OK &&
                   (st = vfy_onnx_load_limited(models[bind[r]].path, NULL, 0, lim, &b, err)) ==
                       VFY_OK) {
            same = vfy_net_same(a, b);
        }
        vfy_net_free(a);
        vfy_net_free(b);
        if (st == VFY_OK && !same)
            st = vfy_fail(err, VFY_ERR_INVALID, "%s: network '%s' is declared equal-to '%s', but "
                          "its model %s is not %s's model %s", spec_path, spec->nets[q].name,
                          spec->nets[r].name, models[bind[q]].path, spec->nets[r].name,
                          models[bind[r]].path);
    }
    if (st == VFY_OK && n_nets == 1) {
        net = per[0];
        per[0] = NULL;
    } else if (st == VFY_OK) {
        const vfy_net *parts[MAX_MODELS];
        const char *names[MAX_MODELS];
        for (int64_t q = 0; q < n_nets; q++) {
            parts[q] = per[q];
            names[q] = spec->nets[q].name;
        }
        st = vfy_net_product(parts, names, n_nets, &net, err);
        if (st != VFY_OK) { /* (the message names the networks: add the query's file) */
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s", err->msg);
            vfy_fail(err, st, "%s: %s", spec_path, msg);
        }
    }
    if (st == VFY_OK)
        st = vfy_ties_find(spec, ties, err);
    if (st == VFY_OK && !tie) {
        vfy_ties_free(ties);
        ties->n_z = ties->n_x;
    }
    if (st == VFY_OK && ties->n_z < ties->n_x) {
        vfy_log(1, "%s: %lld inputs tied by equalities into %lld", spec_path,
                (long long)ties->n_x, (long long)ties->n_z);
        st = vfy_ties_apply_spec(ties, spec, spec_path, err);
        if (st == VFY_OK)
            st = vfy_ties_apply_net(ties, net, err);
    }
    for (int64_t q = 0; q < n_nets && q < MAX_MODELS; q++)
        if (per[q] && owner[q] == q)
            vfy_net_free(per[q]);
    if (st != VFY_OK) {
        vfy_ties_free(ties);
        vfy_net_free(net);
        vfy_spec_free(spec);
        return st;
    }
    *net_out = net;
    *spec_out = spec;
    return VFY_OK;
}

/* `verify supports OPTION`: what the VNNLIB 2.0 standard's capability queries ask. */
static int supports(int argc, char **argv)
{
    if (argc != 1)
        return usage_error("%s", "supports takes one option, e.g. verify supports --hidden-nodes");
    const char *q = argv[0];
    if (!strcmp(q, "--vnnlib-versions")) {
        puts("2.0\n2.0"); /* (and VNNLIB 1, outside the standard's versions) */
    } else if (!strcmp(q, "--onnx-opset-versions")) {
        puts("8\n18"); /* the operators' forms read, opset 8 (ACAS Xu) to 18 (Split, Reduce*) */
    } else if (!strcmp(q, "--onnx-element-types")) {
        /* sound for float32 executions, so for float64 ones (smaller roundings), and the reals */
        puts("float32\nfloat64\nreal");
    } else if (!strcmp(q, "--onnx-operators")) {
        for (int k = 1; k < VFY_OP_COUNT; k++)
            if (*vfy_op_name((vfy_op)k)) /* (internal ops have no ONNX name) */
                puts(vfy_op_name((vfy_op)k));
    } else if (!strcmp(q, "--multiple-inputs-outputs") || !strcmp(q, "--multiple-input-outputs") ||
               !strcmp(q, "--hidden-nodes") || !strcmp(q, "--multiple-networks") ||
               !strcmp(q, "--multiple-node-comparisons")) {
        puts("true");
    } else if (!strcmp(q, "--logics") || !strcmp(q, "--arithmetic-complexity")) {
        puts("LINEAR"); /* linear constraints over inputs, outputs and hidden nodes */
    } else {
        return usage_error("supports: unknown option '%s'", q);
    }
    return 0;
}

/* Notes on stderr (the first input of each kind) for inputs whose real interval holds no float32
 * value: one known not to be empty gets the float32 nearest to it in a counterexample (attack.c,
 * to_float_near); one that may be empty (0 < X_0 < 0, or not decided exactly) none. */
static void note_inputs_without_float(const vfy_spec *spec, const char *spec_path)
{
    int nearest = 0, none = 0;
    for (int64_t k = 0; k < spec->n_boxes && !(nearest && none); k++)
        for (int64_t j = 0; j < spec->n_x; j++) {
            const vfy_box *bx = &spec->boxes[k];
            double lo, hi, f;
            int range = vfy_box_cex_range(bx, j, &lo, &hi);
            if (!range) {
                if (!none)
                    fprintf(stderr, "verify: note: %s: input %lld's interval [%.17g, %.17g] "
                            "may hold no real number (its bounds do not decide it): its cases "
                            "can be proved, but no counterexample of them given\n", spec_path,
                            (long long)j, bx->lo[j], bx->hi[j]);
                none = 1;
            } else if (range == 2 || !vfy_float32_inside(lo, hi, lo, &f)) {
                if (!nearest)
                    fprintf(stderr, "verify: note: %s: input %lld's real interval (within "
                            "[%.17g, %.17g]) holds no float32 value: a counterexample gives it "
                            "the float32 value next to it, what a float32 runtime receives for "
                            "it\n", spec_path, (long long)j, bx->lo[j], bx->hi[j]);
                nearest = 1;
            }
        }
}

int main(int argc, char **argv)
{
    const char *pos[MAX_MODELS + 2], *spec_path = NULL, *result_path = NULL;
    int n_pos = 0;
    int compare = 0;
    const char *cert_path = NULL;
    int check_mode = 0;
    /* Blocks of 1 MiB and more straight from mmap, always: the bound scratch is sized for the most
     * rows a domain may need and mostly untouched, and glibc's moving threshold would otherwise
     * serve it from the heap and zero all of it on every search (refine.c runs hundreds) */
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    vfy_verify_opts opts;
    vfy_verify_opts_default(&opts);
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    opts.threads = ncpu > 0 ? (int)(ncpu > 64 ? 64 : ncpu) : 1;
    /* the VNNLIB 2.0 standard's commands (usage_text) */
    if (argc > 1 && !strcmp(argv[1], "supports"))
        return supports(argc - 2, argv + 2);
    if (argc == 2 && !strcmp(argv[1], "--name")) {
        puts("verify");
        return 0;
    }
    int std_cmd = argc > 1 && !strcmp(argv[1], "verify");
    const char *networks[MAX_MODELS];
    int n_networks = 0;
    for (int i = 1 + std_cmd; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage_text, stdout);
            return 0;
        } else if (!strcmp(a, "--version")) {
            printf("verify %s\n", VFY_VERSION);
            return 0;
        } else if (!strcmp(a, "-v")) {
            vfy_log_level = vfy_log_level < 1 ? 1 : vfy_log_level;
        } else if (!strcmp(a, "-vv")) {
            vfy_log_level = 2;
        } else if (!strcmp(a, "-vvv")) {
            vfy_log_level = 3;
        } else if (!strcmp(a, "--compare-bounds")) {
            compare = 1;
        } else if (!strcmp(a, "--real-only")) {
            opts.float_semantics = 0;
        } else if (!strcmp(a, "--no-refine")) {
            opts.refine = 0;
        } else if (!strcmp(a, "--no-attack")) {
            opts.attack = 0;
        } else if (!strcmp(a, "--refine-bounds")) {
            opts.refine_bounds = 1;
        } else if (!strcmp(a, "--no-facets")) {
            opts.facets = 0;
        } else if (!strcmp(a, "--joint-cases")) {
            opts.case_trees = 0;
        } else if (!strcmp(a, "--timeout") || !strcmp(a, "--result") || !strcmp(a, "--seed") ||
                   !strcmp(a, "--threads") || !strcmp(a, "--bounds") || !strcmp(a, "--alpha-iters") ||
                   !strcmp(a, "--max-memory") || !strcmp(a, "--split") || !strcmp(a, "--lp-exact") ||
                   !strcmp(a, "--certificate") || !strcmp(a, "--rebound")) {
            if (!val)
                return usage_error("%s needs a value", a);
            i++;
            long long n;
            if (!strcmp(a, "--timeout")) {
                if (!parse_double(val, &opts.timeout_s) || !(opts.timeout_s > 0))
                    return usage_error("--timeout needs a positive number of seconds, not '%s'", val);
            } else if (!strcmp(a, "--result")) {
                result_path = val;
            } else if (!strcmp(a, "--certificate")) {
                cert_path = val;
            } else if (!strcmp(a, "--seed")) {
                if (!parse_int(val, 0, INT64_MAX, &n))
                    return usage_error("--seed needs a non-negative integer, not '%s'", val);
                opts.seed = (uint64_t)n;
            } else if (!strcmp(a, "--threads")) {
                if (!parse_int(val, 1, 64, &n))
                    return usage_error("--threads needs an integer from 1 to 64, not '%s'", val);
                opts.threads = (int)n;
            } else if (!strcmp(a, "--split")) {
                static const char *const names[] = {"auto", "input", "relu", NULL};
                int c = parse_choice(val, names);
                if (c < 0)
                    return usage_error("--split takes auto, input or relu, not '%s'", val);
                opts.split = (vfy_split_mode)c;
            } else if (!strcmp(a, "--rebound")) {
                static const char *const names[] = {"auto", "always", "never", NULL};
                int c = parse_choice(val, names);
                if (c < 0)
                    return usage_error("--rebound takes auto, always or never, not '%s'", val);
                opts.rebound = (vfy_rebound_use)c;
            } else if (!strcmp(a, "--max-memory")) {
                if (!parse_double(val, &opts.max_memory_mb) || !(opts.max_memory_mb >= 1))
                    return usage_error("--max-memory needs a number of megabytes >= 1, not '%s'", val);
            } else if (!strcmp(a, "--lp-exact")) {
                if (!parse_int(val, 0, 62, &n))
                    return usage_error("--lp-exact needs an integer from 0 to 62, not '%s'", val);
                opts.lp_exact_max = (int)n;
            } else if (!strcmp(a, "--alpha-iters")) {
                if (!parse_int(val, 0, 1000, &n))
                    return usage_error("--alpha-iters needs an integer from 0 to 1000, not '%s'", val);
                opts.alpha_iters = (int)n;
            } else {
                if (!strcmp(val, "ibp"))
                    opts.method = VFY_BOUND_IBP;
                else if (!strcmp(val, "crown"))
                    opts.method = VFY_BOUND_CROWN;
                else if (!strcmp(val, "alpha"))
                    opts.method = VFY_BOUND_ALPHA;
                else if (!strcmp(val, "auto"))
                    opts.method = VFY_BOUND_AUTO;
                else if (!strcmp(val, "lp"))
                    opts.method = VFY_BOUND_AUTO, opts.lp = VFY_LP_ALL;
                else if (!strcmp(val, "nolp"))
                    opts.method = VFY_BOUND_AUTO, opts.lp = VFY_LP_OFF;
                else
                    return usage_error("--bounds takes ibp, crown, alpha, lp, nolp or auto, not '%s'",
                                       val);
                if (opts.method != VFY_BOUND_AUTO)
                    opts.lp = VFY_LP_OFF;
            }
        } else if (!strcmp(a, "--check-certificate")) {
            check_mode = 1;
        } else if (!strcmp(a, "--network")) {
            if (!std_cmd)
                return usage_error("%s", "--network is an option of the verify command (verify "
                                   "verify QUERY --network NAME=MODEL.onnx)");
            if (!val || !strchr(val, '='))
                return usage_error("%s", "--network needs NAME=MODEL.onnx");
            if (n_networks == MAX_MODELS)
                return usage_error("%s", "more than 16 networks");
            networks[n_networks++] = val;
            i++;
        } else if (a[0] == '-' && a[1] != '\0') {
            return usage_error("unknown option '%s'", a);
        } else if (n_pos < MAX_MODELS + 1) {
            pos[n_pos++] = a;
        } else {
            return usage_error("unexpected argument '%s' (more than 16 models)", a);
        }
    }
    if (std_cmd) { /* verify verify QUERY --network NAME=MODEL ...: the models, then the query */
        if (check_mode || compare)
            return usage_error("%s", "the verify command verifies: no --check-certificate or "
                               "--compare-bounds");
        if (n_pos != 1)
            return usage_error("%s", n_pos ? "the verify command takes one query (models by "
                               "--network NAME=MODEL.onnx)" : "expected a query: verify verify "
                               "QUERY.vnnlib --network NAME=MODEL.onnx");
        if (!n_networks)
            return usage_error("%s", "expected --network NAME=MODEL.onnx for the query's network");
        const char *query = pos[0];
        for (int k = 0; k < n_networks; k++)
            pos[k] = networks[k];
        pos[n_networks] = query;
        n_pos = n_networks + 1;
    }
    if (check_mode) {
        if (n_pos > 3)
            return usage_error("unexpected argument '%s'", pos[3]);
        return check_certificate(n_pos > 0 ? pos[0] : NULL, n_pos > 1 ? pos[1] : NULL,
                                 n_pos > 2 ? pos[2] : NULL);
    }
    if (n_pos < 2)
        return usage_error("%s", "expected a model and a spec: verify MODEL.onnx SPEC.vnnlib");
    spec_path = pos[n_pos - 1];
    int n_models = n_pos - 1;
    model_arg models[MAX_MODELS];
    for (int i = 0; i < n_models; i++)
        split_model_arg(pos[i], &models[i]);
    const char *model_path = models[0].path; /* (messages; the certificate's model) */
    vfy_cert_writer *cw = NULL;
    if (cert_path && opts.lp == VFY_LP_ALL)
        return usage_error("%s", "--certificate cannot be used with --bounds lp: the checker does "
                           "not re-derive LP bounds");
    if (cert_path)
        opts.reuse_parent_bounds = 0; /* an input-split region's proof needs nothing but its box */

    double t0 = vfy_now();
    vfy_error err;
    vfy_error_clear(&err);
    vfy_net *net = NULL;
    vfy_spec *spec = NULL;
    vfy_ties ties;
    vfy_verify_result res;
    memset(&res, 0, sizeof res);
    int code;
    double *x_full = NULL;
    /* (a certificate's checker re-reads the model and the spec as they are: no ties) */
    /* the deadline holds from the start: a model whose lowering takes longer ends in timeout */
    vfy_deadline load_dl = {isfinite(opts.timeout_s) ? t0 + opts.timeout_s : INFINITY, 0};
    vfy_lower_limits lim = {&load_dl, 0};
    vfy_status st = load_problem(models, n_models, spec_path, !cert_path, &lim, &net, &spec,
                                 &ties, &err);
    if (st == VFY_ERR_TIMEOUT) {
        fprintf(stderr, "verify: %s\n", err.msg);
        if (compare) { /* no method started: the table's one line says why */
            printf("every method skipped: out of time (--timeout) while loading the model\n");
            code = EXIT_TIMEOUT;
            goto out;
        }
        if (result_path) {
            vfy_verify_result tr;
            memset(&tr, 0, sizeof tr);
            tr.verdict = VFY_TIMEOUT;
            if (vfy_result_write(result_path, &tr, NULL, 0, 0, &err) != VFY_OK) {
                fprintf(stderr, "verify: error: %s\n", err.msg);
                code = EXIT_INTERNAL;
                goto out;
            }
        }
        puts(std_cmd ? "timed-out" : vfy_verdict_name(VFY_TIMEOUT));
        code = EXIT_TIMEOUT;
        goto out;
    }
    if (st == VFY_OK && cert_path && spec->n_nets > 1)
        st = vfy_fail(&err, VFY_ERR_UNSUPPORTED, "%s: --certificate: certificates of queries over "
                      "several networks are not supported", spec_path);
    if (st == VFY_OK && spec->n_nets > 1)
        model_path = "the networks' product";
    if (st == VFY_OK)
        note_inputs_without_float(spec, spec_path);
    if (st == VFY_OK)
        st = vfy_net_check_rows(net, spec, spec_path, &err);
    if (st == VFY_OK && net->out_op != VFY_OUT_IDENTITY && opts.float_semantics)
        fprintf(stderr, "verify: note: %s ends in a %s: the spec is verified on its input; the "
                "claim for float executions covers the layers before it, with the %s exact\n",
                model_path, net->out_op == VFY_OUT_SOFTMAX ? "Softmax" : "LogSoftmax",
                net->out_op == VFY_OUT_SOFTMAX ? "Softmax" : "LogSoftmax");
    /* a LayerNorm (or any Sqrt) is covered for float executions only as its ops run one by one
     * (docs/soundness.md section 3): say so where the float claim is made */
    for (int64_t k = 0; st == VFY_OK && opts.float_semantics && k < net->n_layers; k++)
        if (net->layers[k].kind == VFY_LAYER_SQRT) {
            fprintf(stderr, "verify: note: %s has a Sqrt (a LayerNorm's?): the claim for float "
                    "executions assumes its ops run one by one, not a fused LayerNorm kernel "
                    "(--real-only: the real-valued claim alone)\n", model_path);
            break;
        }
    if (st == VFY_OK && compare) {
        vfy_deadline cdl = {isfinite(opts.timeout_s) ? t0 + opts.timeout_s : INFINITY, 0};
        st = compare_bounds(net, spec, opts.float_semantics, &cdl, &err);
        if (st == VFY_OK) {
            code = 0;
            goto out;
        }
    } else if (st == VFY_OK) {
        vfy_log(1, "loaded %s (%lld inputs, %lld outputs, %lld layers) and %s (%lld boxes, %lld cases) in %.3f s",
                model_path, (long long)net->n_in, (long long)net->n_out, (long long)net->n_layers,
                spec_path, (long long)spec->n_boxes, (long long)spec->n_cases, vfy_now() - t0);
        if (isfinite(opts.timeout_s))
            opts.timeout_s -= vfy_now() - t0;
        if (!(opts.timeout_s > 0))
            opts.timeout_s = 1e-3;
        if (cert_path) {
            st = vfy_cert_begin(cert_path, model_path, spec_path, net, spec, opts.float_semantics,
                                &cw, &err);
            opts.on_refuted = vfy_cert_on_refuted;
            opts.on_root_bound = vfy_cert_on_root_bound;
            opts.on_refuted_user = cw;
        }
        if (st == VFY_OK)
            st = vfy_verify(net, spec, &opts, &res, &err);
        if (cw) {
            vfy_error e2;
            vfy_status st2 = vfy_cert_finish(cw, st == VFY_OK && res.verdict == VFY_UNSAT, &e2);
            if (st == VFY_OK && st2 != VFY_OK) {
                st = st2;
                err = e2;
            }
        }
    }
    if (st != VFY_OK) {
        fprintf(stderr, "verify: error: %s\n", err.msg);
        if (result_path) {
            vfy_error e2;
            if (vfy_result_write_error(result_path, &e2) != VFY_OK)
                fprintf(stderr, "verify: error: %s\n", e2.msg);
        }
        code = exit_for_status(st);
        goto out;
    }
    vfy_log(1, "%s after %.3f s: %lld domains, depth %lld%s%s", vfy_verdict_name(res.verdict),
            res.time_s, (long long)res.domains, (long long)res.max_depth,
            res.reason[0] ? "; " : "", res.reason);
    if (res.rebounded > 0)
        vfy_log(1, "ReLU splits: the later layers re-bounded on %lld of %lld domains",
                (long long)res.rebounded, (long long)res.domains);
    if (res.lookahead_closed > 0)
        vfy_log(1, "ReLU splits: %lld children refuted by the branching look-ahead, not bounded",
                (long long)res.lookahead_closed);
    if (res.case_roots > 0)
        vfy_log(1, "cases: %lld searched in a tree each", (long long)res.case_roots);
    if (res.max_queued > 0)
        vfy_log(1, "queue: at most %lld domains at once, the largest below a root %.1f KB",
                (long long)res.max_queued, (double)res.max_domain_bytes / 1024.0);
    if (res.lp_domains > 0)
        vfy_log(1, "LP stage: %lld domains, %lld cases refuted there, %lld LPs solved in %.2f s",
                (long long)res.lp_domains, (long long)res.lp_refuted, (long long)res.lp_solves,
                res.lp_time_s);
    if (vfy_lp_glpk_errors() > 0)
        vfy_log(1, "LP: GLPK failed %ld times (internal errors caught; those solves unused)",
                vfy_lp_glpk_errors());
    vfy_verify_result out = res;
    if (res.verdict == VFY_SAT && ties.n_z < ties.n_x) { /* the tied inputs written out */
        if (!(x_full = vfy_alloc_array((size_t)ties.n_x, sizeof(double)))) {
            fprintf(stderr, "verify: error: out of memory writing the counterexample\n");
            code = EXIT_INTERNAL;
            goto out;
        }
        vfy_ties_expand(&ties, res.x, x_full);
        out.x = x_full;
    }
    if (result_path) {
        st = vfy_result_write(result_path, &out, spec, ties.n_x, net->n_out, &err);
        if (st != VFY_OK) {
            fprintf(stderr, "verify: error: %s\n", err.msg);
            code = EXIT_INTERNAL;
            goto out;
        }
    }
    if (std_cmd) { /* the standard's words, then a sat's assignment */
        puts(res.verdict == VFY_TIMEOUT ? "timed-out" : vfy_verdict_name(res.verdict));
        vfy_result_print_assignment(stdout, &out, spec, ties.n_x, net->n_out);
    } else {
        printf("%s\n", vfy_verdict_name(res.verdict));
    }
    switch (res.verdict) {
    case VFY_UNSAT: code = EXIT_UNSAT; break;
    case VFY_SAT: code = EXIT_SAT; break;
    case VFY_TIMEOUT: code = EXIT_TIMEOUT; break;
    default: code = EXIT_UNKNOWN; break;
    }
out:
    vfy_free(x_full);
    vfy_ties_free(&ties);
    vfy_verify_result_free(&res);
    vfy_spec_free(spec);
    vfy_net_free(net);
    return code;
}
