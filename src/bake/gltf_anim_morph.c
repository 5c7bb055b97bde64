/* A clip's morph tracks as glTF `weights` channels (clip.h, vks_morph_track): each mesh the
 * clip's track reaches gets a channel on its node, the track's keys kept (STEP, LINEAR,
 * HERMITE -> CUBICSPLINE), every target's weight a value per key, plus a held key at the
 * clip's end as the other channels have. Two meshes of one node each get the channel. */
#include <stdlib.h>

#include "core/clip_morph_internal.h"
#include "gltf_layout.h"

static int write_weights(vks__gltf *g, cJSON *samplers, cJSON *channels, uint32_t node, const vks_curve *c,
                         float duration)
{
    int cubic = c->interp == VKS_INTERP_HERMITE, per = cubic ? 3 : 1;
    float *t, *v;
    uint32_t keys = vks__gltf_curve_keys(c, duration, 0, &t, &v);
    if (!keys) {
        free(t), free(v);
        return 0;
    }
    cJSON *s = cJSON_CreateObject(), *ch = cJSON_CreateObject(), *tg = ch ? cJSON_AddObjectToObject(ch, "target") : NULL;
    if (s) {
        cJSON_AddNumberToObject(s, "input", vks__gltf_floats(g, t, keys, 1, 0, 1));
        cJSON_AddNumberToObject(s, "output", vks__gltf_floats(g, v, keys * (uint32_t)per * c->components, 1, 0, 0));
        cJSON_AddStringToObject(s, "interpolation", cubic ? "CUBICSPLINE" : c->interp == VKS_INTERP_STEP ? "STEP" : "LINEAR");
    }
    uint32_t si = vks__gltf_push(g, samplers, s);
    if (tg) {
        cJSON_AddNumberToObject(ch, "sampler", si);
        cJSON_AddNumberToObject(tg, "node", node);
        cJSON_AddStringToObject(tg, "path", "weights");
    }
    vks__gltf_push(g, channels, ch);
    free(t), free(v);
    return 1;
}

int vks__gltf_morph_channels(vks__gltf *g, const vks__gltf_layout *L, const vks_skin *skin, const vks_clip *clip,
                             cJSON *samplers, cJSON *channels, vks_gltf_report *rep)
{
    for (uint32_t m = 0; m < skin->mesh_count; m++) {
        const vks_mesh *me = &skin->meshes[m];
        int32_t tr = vks__clip_morph_track_of_mesh(clip, me);
        if (tr < 0 || clip->morph_tracks[tr].weights.components != me->target_count)
            continue;
        if (!write_weights(g, samplers, channels, L->mesh_node[m], &clip->morph_tracks[tr].weights, clip->duration))
            return 0;
        rep->channels_kept++;
    }
    return 1;
}
