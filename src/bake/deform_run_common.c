/* What every part of the deform run shares (deform_run_common.h): its clock, the progress of
 * its chunks and each context's share of a split (deform_run.h). */
#include "bake/deform_run_common.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

double vks__deform_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void vks__chunks_progress(const vks__chunks *c, uint64_t done)
{
    if (c->progress)
        c->progress(c->user, done);
}

void vks_context_shares_begin(vks_context_shares *sh, int n, const char *unit, const char *parts)
{
    memset(sh, 0, sizeof *sh);
    sh->contexts = n < VKS_SHARES_MAX ? n : VKS_SHARES_MAX;
    sh->unit = unit, sh->parts = parts;
}

void vks_context_shares_set(vks_context_shares *sh, int k, const char *device, uint64_t count, uint64_t chunks,
                            double seconds)
{
    if (k < 0 || k >= sh->contexts)
        return;
    vks_context_share *x = &sh->s[k];
    snprintf(x->device, sizeof x->device, "%s", device ? device : "");
    x->count = count, x->chunks = chunks, x->seconds = seconds;
}
