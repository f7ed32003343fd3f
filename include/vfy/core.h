/* core: status codes and error records, the allocation funnel, logging, clocks and deadlines.
 *
 * Every fallible function in verify returns a vfy_status and, on failure, fills a vfy_error whose
 * message names the user's artefact (file, ONNX node, VNNLIB line:column). Library code never calls
 * exit(); only the CLI decides the process exit code. */
#ifndef VFY_CORE_H
#define VFY_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>

typedef enum vfy_status {
    VFY_OK = 0,
    VFY_ERR_IO,          /* a file could not be opened or read */
    VFY_ERR_PARSE,       /* malformed ONNX or VNNLIB */
    VFY_ERR_UNSUPPORTED, /* well-formed but uses something verify does not handle (an ONNX op, ...) */
    VFY_ERR_INVALID,     /* inconsistent input: shapes, variables, an unbounded or empty region */
    VFY_ERR_NOMEM,       /* an allocation failed */
    VFY_ERR_INTERNAL,    /* a broken invariant of our own */
    VFY_ERR_TIMEOUT,     /* the deadline passed before the work was done (no fault of the input:
                          * the CLI answers timeout) */
    VFY_STATUS_COUNT
} vfy_status;

typedef struct vfy_error {
    vfy_status status;
    char msg[1024];
} vfy_error;

/* Fill err (may be NULL) with status st and a printf-style message; returns st. A message is kept
 * to one line: newlines in it are replaced by spaces. */
vfy_status vfy_fail(vfy_error *err, vfy_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Reset err to VFY_OK with an empty message. */
void vfy_error_clear(vfy_error *err);
/* Short name of a status ("io error", "parse error", ...). */
const char *vfy_status_name(vfy_status st);

/* Always-on assertion: a broken invariant of verify itself, never a user error. */
#define VFY_ASSERT(cond) \
    ((cond) ? (void)0 : vfy_assert_fail(#cond, __FILE__, __LINE__))
_Noreturn void vfy_assert_fail(const char *expr, const char *file, int line);

/* The allocation funnel. vfy_alloc returns zeroed memory or NULL; vfy_free accepts NULL.
 * vfy_alloc_fail_after(n) makes the (n+1)-th allocation from now fail (test mode; -1 disables). */
void *vfy_alloc(size_t n_bytes);
void *vfy_alloc_array(size_t count, size_t elem_size); /* NULL also on count*size overflow */
void *vfy_realloc(void *p, size_t n_bytes);
void vfy_free(void *p);
char *vfy_strdup(const char *s);
void vfy_alloc_fail_after(long n);

/* Read a whole file into a fresh buffer (owned by the caller, vfy_free), NUL-terminated for
 * convenience (the terminator is not counted in *len). */
vfy_status vfy_read_file(const char *path, uint8_t **data, size_t *len, vfy_error *err);

/* Logging to stderr: level 0 = errors only, 1 = progress (-v), 2 = debug (-vv). */
extern int vfy_log_level;
void vfy_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Whether vfy_log(level, ...) prints from the calling thread. */
int vfy_log_on(int level);
/* The calling thread's messages from now on count as `by` levels more detailed (negative: undo);
 * a nested search's progress, for example, shows only at a higher -v. */
void vfy_log_demote(int by);

/* Monotonic wall clock in seconds. */
double vfy_now(void);

/* The bytes the process holds in memory now (its resident set; 0 when unknown): what a search's
 * queue budget leaves out besides its workers' scratch (the network, its bounds context, a
 * caller's own search). */
double vfy_resident_bytes(void);
/* The machine's physical memory in bytes (0 when unknown). */
double vfy_physical_memory_bytes(void);
/* Hand the heap's free memory back to the system where the C library can (glibc's malloc_trim), so
 * that vfy_resident_bytes counts what is in use after a phase freed much (no-op elsewhere). */
void vfy_release_free_memory(void);

/* A deadline shared by every worker: absolute time in vfy_now() seconds (INFINITY for none) and a
 * cancel flag that any worker may raise (e.g. when a counterexample is found). */
typedef struct vfy_deadline {
    double t_end;
    volatile int cancel;
} vfy_deadline;
/* Nonzero when the deadline has passed or the flag was raised. */
int vfy_deadline_over(const vfy_deadline *d);

#endif
