/* Pose sources (include/vkskin/pose.h): one question, "the locals of instance i at frame f",
 * answered the same way for every engine, so the CPU reference, the fast CPU path and the GPU
 * batch start from identical float32 numbers. */
#include <string.h>

#include "vkskin/clip.h"
#include "vkskin/clip_sample.h"
#include "vkskin/clip_layers.h"
#include "vkskin/pose.h"

/* A playback's clip time (clip.h): the float rule of vks_clip_play_time_f (src/core/clip_time.c)
 * applied to a vks_clip_play, which is a pose source's notion and so lives here, not in core. */
double vks_clip_play_time(const vks_clip_play *play, double T)
{
    return vks_clip_play_time_f(play->clip, (vks_cycle)play->cycle, play->start, play->speed, (float)T);
}

float vks_pose_source_time(const vks_pose_source *src, uint32_t frame)
{
    float fps = src->fps > 0 ? src->fps : 30.0f;
    return src->start_time + (float)frame / fps;
}

void vks_pose_source_locals(const vks_pose_source *src, const vks_skin *skin, uint32_t instance, uint32_t frame,
                            vks_affine *out)
{
    switch (src->kind) {
    case VKS_POSE_FRAMES:
        if (src->frames && src->frames->frame_count && src->frames->node_count == skin->node_count) {
            uint32_t f = frame % src->frames->frame_count;
            memcpy(out, src->frames->locals + (size_t)f * skin->node_count, skin->node_count * sizeof *out);
            return;
        }
        /* an empty or mismatched set: the bind pose, as if no entry were listed */
        vks_pose_bind(skin, out);
        return;
    case VKS_POSE_BIND:
        vks_pose_bind(skin, out);
        return;
    case VKS_POSE_CLIP: {
        const vks_clip_play *pl = src->plays && src->play_count ? &src->plays[instance % src->play_count] : NULL;
        const vks_clip_layers *ly = src->layers && src->play_count ? &src->layers[instance % src->play_count] : NULL;
        if (ly && ly->count) {
            vks_clip_layers_locals_d(ly, skin, vks_pose_source_time(src, frame), out);
            return;
        }
        if (!pl || !pl->clip || !pl->binding || pl->binding->node_count != skin->node_count) {
            vks_pose_bind(skin, out);
            return;
        }
        double t = vks_clip_play_time(pl, vks_pose_source_time(src, frame));
        if (src->fast_sampling)
            vks_clip_sample_locals(pl->clip, pl->binding, skin, (float)t, out);
        else
            vks_clip_sample_locals_d(pl->clip, pl->binding, skin, t, out);
        return;
    }
    case VKS_POSE_LOCALS: /* instance kinds (instance.h): a pose source holds no locals or layers of */
    case VKS_POSE_LAYERS: /* its own, so it poses as an empty entry does: the bind pose */
    case VKS_POSE_HOST:
        vks_pose_bind(skin, out);
        return;
    case VKS_POSE_PROCEDURAL:
        break;
    }
    vks_pose_procedural(skin, src->seed, instance, vks_pose_source_time(src, frame), src->max_angle, out);
}

uint32_t vks_pose_source_weights(const vks_pose_source *src, const vks_skin *skin, uint32_t instance, uint32_t frame,
                                 float *out)
{
    const vks_clip_play *pl = NULL;
    const vks_clip_layers *ly = NULL;
    if (src->kind == VKS_POSE_CLIP && src->play_count) {
        pl = src->plays ? &src->plays[instance % src->play_count] : NULL;
        ly = src->layers ? &src->layers[instance % src->play_count] : NULL;
    }
    const vks_pose_set *set = src->kind == VKS_POSE_FRAMES ? src->frames : NULL;
    if (set && set->weights && set->frame_count && set->target_count == skin->target_count)
        memcpy(out, set->weights + (size_t)(frame % set->frame_count) * skin->target_count,
               skin->target_count * sizeof *out);
    else if (ly && ly->count)
        vks_clip_layers_weights_d(ly, skin, vks_pose_source_time(src, frame), out);
    else if (pl && pl->clip)
        vks_clip_sample_weights_d(pl->clip, skin, vks_clip_play_time(pl, vks_pose_source_time(src, frame)), out);
    else
        for (uint32_t t = 0; t < skin->target_count; t++)
            out[t] = skin->targets[t].default_weight;
    uint32_t off = 0;
    for (uint32_t t = 0; t < skin->target_count; t++)
        off += out[t] != skin->targets[t].default_weight;
    return off;
}
