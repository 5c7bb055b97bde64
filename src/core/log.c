/* Logger plumbing: format into a stack buffer, then call the host. A message longer than the
 * buffer (long paths) is formatted again into memory of its size; where none is to be had it
 * goes out cut, so a logger may still be used on out-of-memory paths. */
#include "core/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void vks__log(const vks_logger *l, vks_log_level level, const char *fmt, ...)
{
    if (!l || !l->func)
        return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char *whole = n >= (int)sizeof msg ? malloc((size_t)n + 1) : NULL;
    if (whole) {
        va_start(ap, fmt);
        vsnprintf(whole, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    l->func(l->user, level, whole ? whole : msg);
    free(whole);
}

void vks_log_stderr(void *user, vks_log_level level, const char *msg)
{
    (void)user;
    (void)level;
    fprintf(stderr, "vkskin: %s\n", msg);
}
