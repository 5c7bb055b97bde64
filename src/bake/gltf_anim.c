/* Clips as glTF animations (include/vkskin/gltf.h): a LOCAL track whose curves glTF can play
 * keeps its keys (STEP, LINEAR, HERMITE -> CUBICSPLINE, whose tangents are vkskin's: value per
 * second); any other track, and every node of a delta-space clip, is sampled at fps through
 * the reference sampler (vks_clip_sample_locals_d) and written as LINEAR TRS. Every channel
 * ends at the clip's duration so that players loop over the clip's own length. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_layout.h"

static const char *const paths[3] = {"translation", "rotation", "scale"};

/* A channel's sampler in every skeleton copy (one sampler each; the accessors are shared). */
static void add_channels(vks__gltf *g, const vks__gltf_layout *L, cJSON *samplers, cJSON *channels, uint32_t node,
                         int path, uint32_t input, uint32_t output, const char *interp)
{
    for (uint32_t c = 0; c < L->copies; c++) {
        cJSON *s = cJSON_CreateObject();
        if (s) {
            cJSON_AddNumberToObject(s, "input", input);
            cJSON_AddNumberToObject(s, "output", output);
            cJSON_AddStringToObject(s, "interpolation", interp);
        }
        uint32_t si = vks__gltf_push(g, samplers, s);
        cJSON *ch = cJSON_CreateObject(), *t = ch ? cJSON_AddObjectToObject(ch, "target") : NULL;
        if (t) {
            cJSON_AddNumberToObject(ch, "sampler", si);
            cJSON_AddNumberToObject(t, "node", vks__gltf_node(L, c, node));
            cJSON_AddStringToObject(t, "path", paths[path]);
        }
        vks__gltf_push(g, channels, ch);
    }
}

/* Whether glTF plays curve c as vkskin does, keys unchanged. */
static int keepable(const vks_curve *c)
{
    if (c->key_count == 0)
        return 1;
    if (c->interp != VKS_INTERP_STEP && c->interp != VKS_INTERP_LINEAR && c->interp != VKS_INTERP_HERMITE)
        return 0;
    for (uint32_t k = 0; k < c->key_count; k++) {
        if (k && !(c->times[k] > c->times[k - 1])) /* glTF inputs strictly increase */
            return 0;
        if (c->components == 4 && c->interp == VKS_INTERP_HERMITE) {
            /* vkskin normalises after the cubic, glTF's values must be unit already */
            const float *q = c->values + (size_t)k * 4;
            double l = sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3]);
            if (fabs(l - 1) > 1e-6)
                return 0;
        }
    }
    return 1;
}

static int track_keepable(const vks_track *tr)
{
    if (!tr->rotation.key_count && (tr->euler[0].key_count || tr->euler[1].key_count || tr->euler[2].key_count))
        return 0;
    return keepable(&tr->translation) && keepable(&tr->rotation) && keepable(&tr->scale);
}

/* One curve with its own keys, plus a held key at the clip's end. */
static int write_curve(vks__gltf *g, const vks__gltf_layout *L, cJSON *samplers, cJSON *channels, uint32_t node,
                       int path, const vks_curve *c, float duration)
{
    uint32_t dim = c->components;
    int cubic = c->interp == VKS_INTERP_HERMITE, per = cubic ? 3 : 1;
    float *t, *v;
    uint32_t keys = vks__gltf_curve_keys(c, duration, dim == 4, &t, &v);
    if (!keys) {
        free(t), free(v);
        return 0;
    }
    uint32_t in = vks__gltf_floats(g, t, keys, 1, 0, 1);
    uint32_t out = vks__gltf_floats(g, v, keys * (uint32_t)per, (int)dim, 0, 0);
    add_channels(g, L, samplers, channels, node, path, in, out,
                 cubic ? "CUBICSPLINE" : c->interp == VKS_INTERP_STEP ? "STEP" : "LINEAR");
    free(t), free(v);
    return 1;
}

/* The resampling grid: k / fps below the duration, then the duration itself. */
static uint32_t grid(float duration, float fps, float *t)
{
    uint32_t n = 0;
    for (uint32_t k = 0;; k++) {
        double tk = (double)k / fps;
        if (!(tk < (double)duration - 0.25 / fps))
            break;
        if (t)
            t[n] = (float)tk;
        n++;
    }
    if (t)
        t[n] = duration;
    return n + 1;
}

/* Sampled TRS of the marked nodes at every grid time, written as LINEAR channels. */
static int write_resampled(vks__gltf *g, const vks__gltf_layout *L, cJSON *samplers, cJSON *channels,
                           const vks_skin *skin, const vks_clip *clip, const vks_clip_binding *b,
                           const uint8_t *marked, float fps, vks_gltf_report *rep)
{
    uint32_t nt = grid(clip->duration, fps, NULL), nn = skin->node_count;
    float *t = malloc((size_t)nt * sizeof *t), *trs = malloc((size_t)nt * nn * 10 * sizeof *trs);
    vks_affine *locals = malloc(((size_t)nn + 1) * sizeof *locals);
    float *ch = malloc((size_t)nt * 4 * sizeof *ch);
    int ok = t && trs && locals && ch;
    if (ok) {
        grid(clip->duration, fps, t);
        for (uint32_t k = 0; k < nt; k++) {
            vks_clip_sample_locals_d(clip, b, skin, (double)t[k], locals);
            for (uint32_t n = 0; n < nn; n++) {
                float *o = trs + ((size_t)k * nn + n) * 10;
                if (!marked[n])
                    continue;
                vks_affine_to_trs(&locals[n], o, o + 3, o + 7);
                double l = sqrt((double)o[3] * o[3] + (double)o[4] * o[4] + (double)o[5] * o[5] + (double)o[6] * o[6]);
                for (int i = 3; i < 7 && l > 0; i++)
                    o[i] = (float)(o[i] / l);
                if (k) { /* the same hemisphere as the previous key, so LINEAR turns the short way */
                    const float *p = o - (size_t)nn * 10;
                    if (p[3] * o[3] + p[4] * o[4] + p[5] * o[5] + p[6] * o[6] < 0)
                        for (int i = 3; i < 7; i++)
                            o[i] = -o[i];
                }
            }
        }
        uint32_t in = vks__gltf_floats(g, t, nt, 1, 0, 1);
        static const int off[3] = {0, 3, 7}, dim[3] = {3, 4, 3};
        for (uint32_t n = 0; n < nn; n++)
            for (int p = 0; marked[n] && p < 3; p++) {
                for (uint32_t k = 0; k < nt; k++)
                    memcpy(ch + (size_t)k * dim[p], trs + ((size_t)k * nn + n) * 10 + off[p], (size_t)dim[p] * sizeof *ch);
                uint32_t out = vks__gltf_floats(g, ch, nt, dim[p], 0, 0);
                add_channels(g, L, samplers, channels, n, p, in, out, "LINEAR");
                rep->channels_resampled++;
            }
    }
    free(t), free(trs), free(locals), free(ch);
    return ok;
}

static vks_result write_clip(vks__gltf *g, const vks__gltf_layout *L, const vks_skin *skin, const vks_gltf_clip *gc,
                             uint32_t index, float fps, vks_gltf_report *rep, vks_error *err)
{
    const vks_clip *clip = gc->clip;
    const vks_clip_binding *b = gc->binding;
    char label[32];
    snprintf(label, sizeof label, "clip %u", index);
    const char *name = gc->name ? gc->name : clip->name[0] ? clip->name : label;
    if (!b || b->node_count != skin->node_count || !(clip->duration > 0))
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "animations", "%s: not bound to this skin", name);
    cJSON *anim = cJSON_CreateObject();
    cJSON *samplers = anim ? cJSON_AddArrayToObject(anim, "samplers") : NULL;
    cJSON *channels = anim ? cJSON_AddArrayToObject(anim, "channels") : NULL;
    uint8_t *marked = calloc((size_t)skin->node_count + 1, 1);
    int ok = samplers && channels && marked, any_marked = 0;
    if (ok)
        cJSON_AddStringToObject(anim, "name", name);
    for (uint32_t n = 0; ok && n < skin->node_count; n++) {
        int32_t ti = b->track_of_node[n];
        if (clip->space != VKS_CLIP_LOCAL) { /* a delta moves nodes without tracks too */
            marked[n] = 1, any_marked = 1;
            continue;
        }
        if (ti < 0)
            continue;
        const vks_track *tr = &clip->tracks[ti];
        if (!track_keepable(tr)) {
            marked[n] = 1, any_marked = 1;
            continue;
        }
        const vks_curve *cv[3] = {&tr->translation, &tr->rotation, &tr->scale};
        for (int p = 0; ok && p < 3; p++)
            if (cv[p]->key_count) {
                ok = write_curve(g, L, samplers, channels, n, p, cv[p], clip->duration);
                rep->channels_kept++;
            }
    }
    if (ok && any_marked)
        ok = write_resampled(g, L, samplers, channels, skin, clip, b, marked, fps, rep);
    if (ok)
        ok = vks__gltf_morph_channels(g, L, skin, clip, samplers, channels, rep);
    free(marked);
    if (!ok) {
        cJSON_Delete(anim);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "animations", "%s: out of memory", name);
    }
    if (cJSON_GetArraySize(channels) == 0) { /* glTF animations need a channel: a clip that moves nothing */
        cJSON_Delete(anim);
        return VKS_OK;
    }
    vks__gltf_push(g, g->animations, anim);
    return VKS_OK;
}

vks_result vks__gltf_animations(vks__gltf *g, const vks__gltf_layout *L, const vks_skin *skin,
                                const vks_gltf_clip *clips, uint32_t clip_count, float fps, vks_gltf_report *rep,
                                vks_error *err)
{
    for (uint32_t i = 0; i < clip_count; i++) {
        vks_result r = write_clip(g, L, skin, &clips[i], i, fps, rep, err);
        if (r != VKS_OK)
            return r;
    }
    return VKS_OK;
}
