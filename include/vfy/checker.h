/* checker: the independent certificate checker (`verify --check-certificate MODEL SPEC CERT`).
 *
 * It trusts only the inputs: the ONNX loader and the VNNLIB parser (which define what the model and
 * the property are) and the core helpers. It shares no code with the bound, la or bab modules: every
 * bound is re-derived here with its own arithmetic, in which each floating-point operation is
 * rounded outward by one ulp (no global rounding mode), intermediate layer bounds by interval
 * arithmetic refined by back-substitution, and each row of the property by back-substitution with
 * interval-valued coefficients, CROWN's default slopes, and the allowance for the network's float32
 * execution of docs/soundness.md section 4. docs/certificate.md states what is checked:
 *  (a) the header names these exact model and spec (checksums, sizes, counts);
 *  (b) on every region line, every listed case is refuted: one of its rows has a sound lower bound
 *      above rhs_hi, or a non-negative combination of the rows' linear bounds is positive on the
 *      region (Farkas); a region not confirmed whole is bisected (up to opts.max_depth levels) and
 *      every piece must be confirmed;
 *  (c) for every case, the regions that refute it cover its whole input box (and, for the float32
 *      claim, the float32 rounding of every point of it). */
#ifndef VFY_CHECKER_H
#define VFY_CHECKER_H

#include "vfy/net.h"
#include "vfy/spec.h"

typedef struct vfy_check_opts {
    int max_depth;  /* bisection levels tried on a region that is not confirmed whole (default 20) */
} vfy_check_opts;

void vfy_check_opts_default(vfy_check_opts *o);

typedef struct vfy_check_result {
    int valid;          /* 1: every check passed */
    char why[1024];     /* !valid: the first failure, "CERT:LINE: reason" or the uncovered point */
    int64_t regions;    /* region lines checked */
    int64_t bisected;   /* regions confirmed only after bisection */
    int64_t pieces;     /* boxes bounded in all (regions and bisection pieces) */
    int64_t farkas;     /* case refutations that needed a combination of rows */
    double time_s;
} vfy_check_result;

/* Check the certificate at cert_path against the model and spec files. Returns VFY_OK when the
 * check ran (then res->valid says the verdict); an error status when a file cannot be read, the
 * model or spec does not load (VFY_ERR_IO/PARSE/UNSUPPORTED/INVALID) or memory runs out. A
 * malformed or wrong certificate is not an error: it is invalid. */
vfy_status vfy_check_certificate(const char *model_path, const char *spec_path,
                                 const char *cert_path, const vfy_check_opts *opts,
                                 vfy_check_result *res, vfy_error *err);

/* The same on bytes in memory (none needs a terminating NUL); the names are used in messages. */
vfy_status vfy_check_certificate_bytes(const uint8_t *model, size_t model_len, const char *model_name,
                                       const char *spec, size_t spec_len, const char *spec_name,
                                       const char *cert, size_t cert_len, const char *cert_name,
                                       const vfy_check_opts *opts, vfy_check_result *res,
                                       vfy_error *err);

/* The same for a network and spec the caller has loaded itself (borrowed): the header's checksum
 * lines must be well formed but are not compared, since there are no files to hash. For tests and
 * for callers that vouch for what they loaded. */
vfy_status vfy_check_certificate_net(const vfy_net *net, const vfy_spec *spec, const char *cert,
                                     size_t cert_len, const char *cert_name,
                                     const vfy_check_opts *opts, vfy_check_result *res,
                                     vfy_error *err);

/* The checker's own relaxation of a SIGMOID, TANH, SIGN, EXP or RECIP neuron with pre-activation
 * in [l, u] (sl z + tl <= f(z) <= su z + tu for the real f and every z in [l, u]; RECIP: tl = -inf,
 * tu = +inf unless l > 0). Exposed for tests. */
void vfy_check_act_lines(vfy_layer_kind kind, double l, double u, double *sl, double *tl, double *su,
                         double *tu);

#endif
