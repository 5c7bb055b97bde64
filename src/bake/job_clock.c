/* The bake job engine's clock, in a unit of its own so that job_api.c and job_run.c both time
 * with it while only job_api.c calls into job_run.c. */
#include <time.h>

#include "bake/job_internal.h"

double vks__bake_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}
