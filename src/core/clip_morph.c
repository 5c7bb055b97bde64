/* Morph weights channels (clip.h, vks_morph_track): bound to the skin's meshes by their node's
 * name, sampled component by component in double, as glTF defines `weights` interpolation:
 * STEP holds the key, LINEAR lerps, CUBICSPLINE is the Hermite of the clip model (tangents in
 * value per second, scaled by the key interval). Compiled without FMA contraction, as the
 * rest of the CPU reference's sampling. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "clip_morph_internal.h"

static int same_nocase(const char *a, const char *b)
{
    while (*a && *b && tolower((unsigned char)*a) == tolower((unsigned char)*b))
        a++, b++;
    return *a == 0 && *b == 0;
}

int32_t vks__clip_morph_track_of_mesh(const vks_clip *clip, const vks_mesh *me)
{
    if (!me->target_count || !me->node_name)
        return -1;
    for (uint32_t t = 0; t < clip->morph_track_count; t++)
        if (!strcmp(clip->morph_tracks[t].node_name, me->node_name))
            return (int32_t)t;
    for (uint32_t t = 0; t < clip->morph_track_count; t++)
        if (same_nocase(clip->morph_tracks[t].node_name, me->node_name))
            return (int32_t)t;
    return -1;
}

vks_result vks_clip_morph_meshes(const vks_clip *clip, const vks_skin *skin, uint32_t *meshes, vks_error *err)
{
    *meshes = 0;
    for (uint32_t m = 0; m < skin->mesh_count; m++) {
        const vks_mesh *me = &skin->meshes[m];
        int32_t t = vks__clip_morph_track_of_mesh(clip, me);
        if (t < 0)
            continue;
        uint32_t comps = clip->morph_tracks[t].weights.components;
        if (comps != me->target_count)
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "clip",
                                 "the clip \"%s\" drives %u morph weights of node \"%s\", whose mesh \"%s\" has %u "
                                 "targets", clip->name, comps, me->node_name, me->name, me->target_count);
        (*meshes)++;
    }
    return VKS_OK;
}

/* Component i of curve c at local time t, in double. */
static double component(const vks_curve *c, double t, uint32_t i)
{
    uint32_t n = c->key_count, dim = c->components;
    const float *v = c->values;
    if (n == 1 || t <= c->times[0]) /* before the first key, after the last: hold */
        return v[i];
    if (t >= c->times[n - 1])
        return v[(size_t)(n - 1) * dim + i];
    uint32_t k = 0, hi = n - 1; /* times[k] <= t < times[hi] */
    while (hi - k > 1) {
        uint32_t mid = k + (hi - k) / 2;
        if (c->times[mid] <= t)
            k = mid;
        else
            hi = mid;
    }
    double a = v[(size_t)k * dim + i], b = v[(size_t)(k + 1) * dim + i];
    double dt = (double)c->times[k + 1] - c->times[k], u = dt > 0 ? (t - c->times[k]) / dt : 1;
    if (c->interp == VKS_INTERP_STEP)
        return a;
    if (c->interp == VKS_INTERP_HERMITE) {
        double mo = c->out_tangents[(size_t)k * dim + i], mi = c->in_tangents[(size_t)(k + 1) * dim + i];
        double u2 = u * u, u3 = u2 * u;
        double h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2;
        return h00 * a + h10 * dt * mo + h01 * b + h11 * dt * mi;
    }
    return a + (b - a) * u;
}

double vks__clip_target_weight_d(const vks_clip *clip, const vks_skin *skin, uint32_t target, double t)
{
    const vks_morph_target *mt = &skin->targets[target];
    int32_t tr = vks__clip_morph_track_of_mesh(clip, &skin->meshes[mt->mesh]);
    if (tr < 0 || clip->morph_tracks[tr].weights.components != skin->meshes[mt->mesh].target_count)
        return mt->default_weight;
    return component(&clip->morph_tracks[tr].weights, t, mt->index);
}

void vks_clip_sample_weights_d(const vks_clip *clip, const vks_skin *skin, double t, float *out)
{
    for (uint32_t m = 0; m < skin->mesh_count; m++) { /* the track looked up once per mesh */
        const vks_mesh *me = &skin->meshes[m];
        int32_t tr = me->target_count ? vks__clip_morph_track_of_mesh(clip, me) : -1;
        int driven = tr >= 0 && clip->morph_tracks[tr].weights.components == me->target_count;
        for (uint32_t k = 0; k < me->target_count; k++)
            out[me->first_target + k] = driven ? (float)component(&clip->morph_tracks[tr].weights, t, k)
                                               : skin->targets[me->first_target + k].default_weight;
    }
}
