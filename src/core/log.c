/* Logger plumbing: format once into a stack buffer, then call the host (no allocation, so a
 * logger may be used on out-of-memory paths). */
#include "core/log.h"

#include <stdarg.h>
#include <stdio.h>

void vks__log(const vks_logger *l, vks_log_level level, const char *fmt, ...)
{
    if (!l || !l->func)
        return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    l->func(l->user, level, msg);
}

void vks_log_stderr(void *user, vks_log_level level, const char *msg)
{
    (void)user;
    (void)level;
    fprintf(stderr, "vkskin: %s\n", msg);
}
