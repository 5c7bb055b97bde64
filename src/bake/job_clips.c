/* The time of a bake job's clip frame (vks__bake_frame_time), shared by the engine, the
 * layers, root motion and the writers, apart from each of them. */
#include "bake/job_internal.h"

double vks__bake_frame_time(const vks_bake_job *job, const vks_bake_clip *c, uint32_t f)
{
    /* rounded to float: the time the GPU samples at and the sidecar records, so a reader
       of the sidecar samples the very same pose */
    double t = (double)c->t0 + (double)f / job->fps;
    return (double)(float)(t < c->t1 ? t : c->t1);
}
