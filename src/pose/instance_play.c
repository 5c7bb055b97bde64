/* vks_instance_clip_play (instance.h): an instance, whose clips are numbers, as the CPU engines
 * play it, whose clips are pointers (pose.h's vks_clip_play and vks_clip_layers). The GPU and
 * the CPU so play one description of an instance: a host that makes its instances of a crowd
 * file (vks_crowd_spec_instance) poses them on either without copying layers field by field. */
#include <string.h>

#include "vkskin/clip_sample.h"
#include "vkskin/instance.h"

/* Clip k of the host's list, bound; 0 where it is past the list or not loaded. */
static int clip_ok(const vks_clip *const *clips, uint32_t clip_count, uint32_t k)
{
    return k < clip_count && clips[k];
}

static vks_result bad(vks_error *err, const char *what)
{
    return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "instance", "%s", what);
}

/* Instance layer y as a CPU layer. */
static vks_result put_layer(const vks_instance_layer *y, const vks_clip *const *clips,
                            const vks_clip_binding *bindings, uint32_t clip_count, vks_clip_layer *o, vks_error *err)
{
    if (!clip_ok(clips, clip_count, y->clip) || (y->reference && !clip_ok(clips, clip_count, y->reference - 1)))
        return bad(err, "a layer's clip or reference clip is past the clips given or not loaded");
    memset(o, 0, sizeof *o);
    o->play.clip = clips[y->clip], o->play.binding = &bindings[y->clip];
    o->play.start = y->start, o->play.speed = y->speed, o->play.cycle = (int)y->cycle;
    o->weight = y->weight, o->mode = (int)y->mode, o->fade = (int)y->fade;
    o->mask = y->mask;
    o->ref_time = y->ref_time;
    if (y->reference)
        o->ref_clip = clips[y->reference - 1], o->ref_binding = &bindings[y->reference - 1];
    return VKS_OK;
}

vks_result vks_instance_clip_play(const vks_instance *in, const vks_clip *const *clips,
                                  const vks_clip_binding *bindings, uint32_t clip_count, vks_clip_play *play,
                                  vks_clip_layers *layers, vks_error *err)
{
    if (!in || !play || (clip_count && (!clips || !bindings)))
        return bad(err, "expected an instance, its clips and bindings, and a play to fill");
    memset(play, 0, sizeof *play);
    if (layers)
        memset(layers, 0, sizeof *layers);
    switch (in->pose) {
    case VKS_POSE_BIND:
        return VKS_OK; /* no clip: the bind pose */
    case VKS_POSE_CLIP:
        if (!clip_ok(clips, clip_count, in->clip))
            return bad(err, "its clip is past the clips given or not loaded");
        play->clip = clips[in->clip], play->binding = &bindings[in->clip];
        play->start = in->clip_start, play->speed = in->clip_speed, play->cycle = (int)in->clip_cycle;
        return VKS_OK;
    case VKS_POSE_LAYERS:
        if (!layers || in->layer_count < 1 || in->layer_count > VKS_MAX_LAYERS)
            return bad(err, "a layered instance needs layers to fill and 1 to VKS_MAX_LAYERS layers");
        for (uint32_t k = 0; k < in->layer_count; k++) {
            vks_result r = put_layer(&in->layers[k], clips, bindings, clip_count, &layers->layer[k], err);
            if (r != VKS_OK)
                return r;
        }
        layers->count = in->layer_count;
        layers->fade_start = in->fade_start, layers->fade_duration = in->fade_duration;
        layers->root_motion = in->root_motion;
        *play = layers->layer[0].play; /* what a reader of the plays alone sees: the first layer */
        return VKS_OK;
    default:
        return bad(err, "not a clip instance (VKS_POSE_BIND, _CLIP or _LAYERS): its locals come from elsewhere");
    }
}
