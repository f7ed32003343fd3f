/* result: the VNN-COMP result file.
 *
 *   unsat | unknown | timeout | error            (one line)
 *   sat                                          followed by, for a VNNLIB 1 spec,
 *   ((X_0 v)
 *    (X_1 v) ...
 *    (Y_0 v) ...)
 * or for a VNNLIB 2.0 query (its section 5.3 assignment: each declared tensor, in declaration
 * order, as a line "NAME TYPE [shape]" and then its values in row-major order, one a line; with
 * several networks, each network's input and output, network after network)
 *   X float32 [1,5]
 *   v ...
 *   Y float32 [1,5]
 *   v ...
 * X are the confirmed counterexample's float32-valued inputs, Y the network's float32 outputs on
 * exactly those inputs, printed with %.17g so that they read back to the same double. */
#ifndef VFY_RESULT_H
#define VFY_RESULT_H

#include <stdio.h>

#include "vfy/spec.h"
#include "vfy/verify.h"

/* Write the verdict (and the counterexample for sat, in spec's dialect; NULL: VNNLIB 1) to path. */
vfy_status vfy_result_write(const char *path, const vfy_verify_result *res, const vfy_spec *spec,
                            int64_t n_in, int64_t n_out, vfy_error *err);
/* The VNNLIB 2.0 standard's command-line answer to `verify verify`, after its verdict line: for
 * sat, each declared variable a line NAME[i,j]=v in declaration order (each network's inputs,
 * hidden nodes and outputs; a scalar tensor as NAME=v; X_i=v, Y_j=v for VNNLIB 1). Nothing
 * for other verdicts. */
void vfy_result_print_assignment(FILE *f, const vfy_verify_result *res, const vfy_spec *spec,
                                 int64_t n_in, int64_t n_out);
/* Write the single word "error" to path (best effort, for failed runs). */
vfy_status vfy_result_write_error(const char *path, vfy_error *err);

#endif
