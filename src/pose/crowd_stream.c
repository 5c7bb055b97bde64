/* A crowd file's entry as a stream instance (stream.h): what the entry's model, clip, start,
 * speed, cycle and root mean to the streaming engine. */
#include "vkskin/stream.h"

#include <string.h>

void vks_stream_instance_from_crowd(const vks_crowd_entry *e, uint32_t model, int32_t clip, vks_cycle clip_cycle,
                                    vks_stream_instance *out)
{
    memset(out, 0, sizeof *out);
    out->model = model;
    out->root = e->root;
    if (clip < 0)
        return; /* no clip: the bind pose */
    out->pose = VKS_STREAM_CLIP;
    out->clip = (uint32_t)clip;
    out->clip_start = e->start;
    out->clip_speed = e->speed;
    out->clip_cycle = e->cycle >= 0 ? (vks_cycle)e->cycle : clip_cycle;
}
