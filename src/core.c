/* core: errors, allocation funnel, logging, clocks. See include/vfy/core.h. */
#include "vfy/core.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

int vfy_log_level = 0;

static const char *const status_names[] = {
    "ok", "io error", "parse error", "unsupported", "invalid input", "out of memory", "internal error",
    "timeout",
};
_Static_assert(sizeof status_names / sizeof status_names[0] == VFY_STATUS_COUNT,
               "one name per status");

const char *vfy_status_name(vfy_status st)
{
    return (st >= 0 && st < VFY_STATUS_COUNT) ? status_names[st] : "unknown status";
}

vfy_status vfy_fail(vfy_error *err, vfy_status st, const char *fmt, ...)
{
    if (err == NULL)
        return st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    for (char *p = err->msg; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    err->status = st;
    return st;
}

void vfy_error_clear(vfy_error *err)
{
    if (err) {
        err->status = VFY_OK;
        err->msg[0] = '\0';
    }
}

void vfy_assert_fail(const char *expr, const char *file, int line)
{
    fprintf(stderr, "verify: internal error: assertion '%s' failed at %s:%d\n", expr, file, line);
    fflush(stderr);
    abort();
}

/* Allocation funnel with a fail-the-Nth test mode (as Lua and SQLite do). */
static long alloc_countdown = -1;

void vfy_alloc_fail_after(long n) { alloc_countdown = n; }

static int alloc_should_fail(void)
{
    if (alloc_countdown < 0)
        return 0;
    if (alloc_countdown == 0)
        return 1;
    alloc_countdown--;
    return 0;
}

void *vfy_alloc(size_t n_bytes)
{
    if (alloc_should_fail())
        return NULL;
    return calloc(1, n_bytes ? n_bytes : 1);
}

void *vfy_alloc_array(size_t count, size_t elem_size)
{
    if (elem_size != 0 && count > SIZE_MAX / elem_size)
        return NULL;
    return vfy_alloc(count * elem_size);
}

void *vfy_realloc(void *p, size_t n_bytes)
{
    if (alloc_should_fail())
        return NULL;
    return realloc(p, n_bytes ? n_bytes : 1);
}

void vfy_free(void *p) { free(p); }

char *vfy_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = vfy_alloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

vfy_status vfy_read_file(const char *path, uint8_t **data, size_t *len, vfy_error *err)
{
    *data = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return vfy_fail(err, VFY_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = vfy_alloc(cap);
    vfy_status st = VFY_OK;
    if (!buf) {
        st = vfy_fail(err, VFY_ERR_NOMEM, "%s: out of memory reading the file", path);
        goto done;
    }
    for (;;) {
        if (n + 1 >= cap) {
            uint8_t *nb = vfy_realloc(buf, cap * 2);
            if (!nb) {
                st = vfy_fail(err, VFY_ERR_NOMEM, "%s: out of memory reading the file", path);
                goto done;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0) {
            if (ferror(f))
                st = vfy_fail(err, VFY_ERR_IO, "%s: read error: %s", path, strerror(errno));
            break;
        }
    }
done:
    fclose(f);
    if (st != VFY_OK) {
        vfy_free(buf);
        return st;
    }
    buf[n] = 0;
    *data = buf;
    *len = n;
    return VFY_OK;
}

/* The calling thread's messages count as this many levels more detailed (vfy_log_demote). */
static _Thread_local int log_demoted;

void vfy_log_demote(int by) { log_demoted += by; }

int vfy_log_on(int level) { return level + log_demoted <= vfy_log_level; }

void vfy_log(int level, const char *fmt, ...)
{
    if (!vfy_log_on(level))
        return;
    /* one write per line: threads' lines do not interleave */
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    fprintf(stderr, "verify: %s\n", line);
}

/* Linux: /proc/self/statm's resident pages; 0 where that cannot be read */
double vfy_resident_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f)
        return 0.0;
    long long size = 0, resident = 0;
    int ok = fscanf(f, "%lld %lld", &size, &resident) == 2;
    fclose(f);
    long page = sysconf(_SC_PAGESIZE);
    return ok && resident > 0 && page > 0 ? (double)resident * (double)page : 0.0;
}

double vfy_physical_memory_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (double)pages * (double)page : 0.0;
}

void vfy_release_free_memory(void)
{
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

double vfy_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int vfy_deadline_over(const vfy_deadline *d)
{
    if (d == NULL)
        return 0;
    if (d->cancel)
        return 1;
    return isfinite(d->t_end) && vfy_now() >= d->t_end;
}
