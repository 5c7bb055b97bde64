/* A bake job's clips: a clip file read for the job's model (vks_bake_read_clips) and the time
 * of a clip's frame (vks_bake_frame_time), shared by the engine, the layers, root motion and the
 * writers, apart from each of them. */
#include <stdlib.h>

#include "bake_job.h"

vks_clip_set *vks_bake_read_clips(const vks_bake_clip_spec *spec, const vks_skin *skin)
{
    size_t size = 0;
    uint8_t *bytes = vks_cli_read_file(spec->file, &size);
    if (!bytes)
        return NULL;
    vks_read_options o = {0};
    o.clip.duration = spec->duration;
    o.clip.fps = spec->fps;
    vks_clip_set *set = vks_cli_read_clips(spec->where, spec->file, bytes, size, skin, &o);
    free(bytes);
    return set;
}

double vks_bake_frame_time(const vks_bake_job *job, const vks_bake_clip *c, uint32_t f)
{
    /* rounded to float: the time the GPU samples at and the sidecar records, so a reader
       of the sidecar samples the very same pose */
    double t = (double)c->t0 + (double)f / job->fps;
    return (double)(float)(t < c->t1 ? t : c->t1);
}
