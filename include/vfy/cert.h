/* cert: the certificate writer. With `verify --certificate FILE`, every region of the input on which
 * the search refuted cases is recorded (through vfy_verify_opts.on_refuted) in a text file that the
 * independent checker (include/vfy/checker.h) re-derives from scratch. docs/certificate.md is the
 * format's specification; in short:
 *
 *     verify-certificate 2
 *     semantics float32                      (or: real, with --real-only)
 *     model <fnv1a64 hex> <bytes> <path>     checksums of the exact files verified
 *     spec <fnv1a64 hex> <bytes> <path>
 *     n_in N / n_out N / boxes N / cases N   one per line
 *     root <box> lo <n_in %a> hi <n_in %a>   ReLU splitting: a box's tightened hidden bounds,
 *     bound <idx> lo|hi alpha N <idx a>...     each with the slopes that prove it
 *     region <box> lo <n_in %a> hi <n_in %a> [splits N <idx +|->...] cases <c ...>
 *     row <case> <r> alpha N <idx a>... [beta <N %a>]   the proof parameters of a row of the region
 *     end <number of region lines>
 *
 * The file is written as FILE.tmp during the search and renamed to FILE only when the caller keeps
 * it (an unsat verdict); otherwise both are removed, so a stale certificate never survives. */
#ifndef VFY_CERT_H
#define VFY_CERT_H

#include "vfy/net.h"
#include "vfy/spec.h"
#include "vfy/verify.h"

#define VFY_CERT_VERSION 2

typedef struct vfy_cert_writer vfy_cert_writer;

/* FNV-1a 64-bit hash of len bytes. */
uint64_t vfy_cert_fnv1a64(const uint8_t *data, size_t len);

/* Start a certificate at `path` for the model and spec files (read again here to hash them; they
 * must be the files net and spec were loaded from). float_semantics: the claim being certified
 * (vfy_verify_opts.float_semantics). On success *out is a writer owned by the caller, to be ended by
 * vfy_cert_finish. Errors: VFY_ERR_IO (a file), VFY_ERR_NOMEM. */
vfy_status vfy_cert_begin(const char *path, const char *model_path, const char *spec_path,
                          const vfy_net *net, const vfy_spec *spec, int float_semantics,
                          vfy_cert_writer **out, vfy_error *err);

/* The vfy_verify_opts.on_refuted and on_root_bound hooks; `user` is the writer, which must outlive
 * the search (it borrows spec). A write error is remembered and reported by vfy_cert_finish. */
void vfy_cert_on_refuted(void *user, const vfy_refutation *r);
void vfy_cert_on_root_bound(void *user, int64_t box, const double *lo, const double *hi, int64_t idx,
                            int upper, const double *alpha_flat);

/* End the certificate and free w (accepts NULL). keep != 0: write the trailer, flush and rename
 * FILE.tmp to FILE; keep == 0: remove FILE.tmp and any earlier FILE. Returns the first write error
 * of the whole certificate, if any (then nothing is left at FILE). */
vfy_status vfy_cert_finish(vfy_cert_writer *w, int keep, vfy_error *err);

#endif
