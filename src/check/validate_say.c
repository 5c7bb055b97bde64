/* validate's clock and its lines to the host, the lowest of validate's units: every other one
 * (the reference, the bound, the golden chunks, the readback) times and speaks through these,
 * and none of them calls back into a file that calls it. */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "check/validate_engine.h"

double vks__validate_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

void vks__validate_say(const vctx *c, const char *fmt, ...)
{
    if (!c->say)
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    c->say(c->say_user, line);
}

