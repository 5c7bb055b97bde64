/* Clips on the GPU (crowd.h): every clip's keys and times, and every (model, clip) binding, in
 * one table of 32-bit words the pose pass reads (compute/clip.glsl has the layout). Built once
 * on the host, uploaded once; a frame adds nothing. */
#include "crowd_internal.h"

#include "core/clip_morph_internal.h"
#include "core/vec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CURVE_WORDS = 8, TRACK_WORDS = 48, NODE_WORDS = 34 };

typedef struct words {
    uint32_t *w;
    size_t n, cap;
    int failed;
} words;

static size_t reserve(words *b, size_t n)
{
    if (b->failed || n > ((size_t)1 << 30) - b->n) {
        b->failed = 1;
        return 0;
    }
    if (b->n + n > b->cap) {
        uint32_t *w = vks__grow_array(NULL, b->w, b->n, &b->cap, n, sizeof *w, 1024);
        if (!w) {
            b->failed = 1;
            return 0;
        }
        b->w = w;
    }
    size_t at = b->n;
    memset(b->w + at, 0, n * sizeof *b->w);
    b->n += n;
    return at;
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static uint32_t put_floats(words *b, const float *v, size_t n)
{
    size_t at = reserve(b, n ? n : 1);
    if (!b->failed && v)
        memcpy(b->w + at, v, n * sizeof *v);
    return (uint32_t)at;
}

static void put_curve(words *b, size_t at, const vks_curve *c)
{
    if (!c->key_count)
        return; /* zeros: no keys */
    size_t n = (size_t)c->key_count * c->components;
    uint32_t times = c->interp == VKS_INTERP_BSPLINE ? 0 : put_floats(b, c->times, c->key_count);
    uint32_t vals = put_floats(b, c->values, n);
    uint32_t tin = c->interp == VKS_INTERP_HERMITE ? put_floats(b, c->in_tangents, n) : 0;
    uint32_t tout = c->interp == VKS_INTERP_HERMITE ? put_floats(b, c->out_tangents, n) : 0;
    if (b->failed)
        return;
    uint32_t *w = b->w + at;
    w[0] = c->key_count, w[1] = c->components | (uint32_t)c->interp << 8;
    w[2] = times, w[3] = vals, w[4] = tin, w[5] = tout, w[6] = fbits(c->start), w[7] = fbits(c->stop);
}

static uint32_t put_clip(words *b, const vks_clip *clip)
{
    size_t at = reserve(b, 4), tracks = reserve(b, (size_t)clip->track_count * TRACK_WORDS);
    for (uint32_t t = 0; t < clip->track_count && !b->failed; t++) {
        const vks_track *tr = &clip->tracks[t];
        const vks_curve *cs[6] = {&tr->translation, &tr->rotation, &tr->euler[0], &tr->euler[1], &tr->euler[2],
                                  &tr->scale};
        for (int k = 0; k < 6; k++)
            put_curve(b, tracks + (size_t)t * TRACK_WORDS + (size_t)k * CURVE_WORDS, cs[k]);
    }
    if (!b->failed) {
        uint32_t *w = b->w + at;
        w[0] = fbits(clip->duration), w[1] = (uint32_t)clip->space, w[2] = clip->track_count, w[3] = (uint32_t)tracks;
    }
    return (uint32_t)at;
}

/* The clip's morph weights curves, CURVE_WORDS each, in the order of its morph tracks. */
static uint32_t put_morph_curves(words *b, const vks_clip *clip)
{
    size_t at = reserve(b, (size_t)clip->morph_track_count * CURVE_WORDS);
    for (uint32_t t = 0; t < clip->morph_track_count && !b->failed; t++)
        put_curve(b, at + (size_t)t * CURVE_WORDS, &clip->morph_tracks[t].weights);
    return (uint32_t)at;
}

/* An entry's words after its nodes': per mesh of the skin, ~0u when the clip does not drive its
 * morph weights (they stay at the defaults), else a block: the curve's word offset, then the
 * mesh's default weights (compute/clip_morph.glsl samples w - default). */
static void put_entry_morph(words *b, size_t e, const vks_clip *clip, uint32_t curves, const vks_skin *s, int *any)
{
    for (uint32_t m = 0; m < s->mesh_count && !b->failed; m++) {
        const vks_mesh *me = &s->meshes[m];
        int32_t tr = vks__clip_morph_track_of_mesh(clip, me);
        b->w[e + m] = UINT32_MAX;
        if (tr < 0 || clip->morph_tracks[tr].weights.components != me->target_count)
            continue;
        size_t at = reserve(b, 1 + (size_t)me->target_count);
        if (b->failed)
            return;
        b->w[at] = curves + (uint32_t)tr * CURVE_WORDS;
        for (uint32_t k = 0; k < me->target_count; k++)
            b->w[at + 1 + k] = fbits(s->targets[me->first_target + k].default_weight);
        b->w[e + m] = (uint32_t)at;
        *any = 1;
    }
}

/* The skin space's inverse (12 floats), then per node the binding's bind t, q, s and bind world
 * with its inverse, in float. */
static uint32_t put_model(words *b, const vks_clip_binding *bd)
{
    size_t at = reserve(b, 12 + (size_t)bd->node_count * NODE_WORDS);
    for (int k = 0; k < 12 && !b->failed; k++) {
        float f = (float)bd->skin_space_inv.m[k];
        memcpy(b->w + at + k, &f, sizeof f);
    }
    at += 12;
    for (uint32_t n = 0; n < bd->node_count && !b->failed; n++) {
        float f[NODE_WORDS];
        memcpy(f, bd->bind_trs[n], 10 * sizeof *f);
        for (int k = 0; k < 12; k++)
            f[10 + k] = (float)bd->bind_world[n].m[k], f[22 + k] = (float)bd->bind_world_inv[n].m[k];
        memcpy(b->w + at + (size_t)n * NODE_WORDS, f, sizeof f);
    }
    return (uint32_t)at;
}

/* The key searches' iterations when every bound track samples every curve it has: a binary
 * search over n keys runs at most ceil(log2(n)) times (compute/clip.glsl, sample_curve). */
static uint64_t search_loops(const vks_clip *clip, const vks_clip_binding *bd)
{
    uint64_t loops = 0;
    for (uint32_t n = 0; n < bd->node_count; n++) {
        if (bd->track_of_node[n] < 0)
            continue;
        const vks_track *t = &clip->tracks[bd->track_of_node[n]];
        const vks_curve *cv[6] = {&t->translation, &t->rotation, &t->euler[0], &t->euler[1], &t->euler[2], &t->scale};
        loops += 7; /* compute/clip.glsl's loop over the track's six curves, and its exit */
        for (int k = 0; k < 6; k++) {
            uint32_t keys = cv[k]->key_count, steps = 1; /* + the loop's exit */
            while (keys > 2 && ((uint64_t)1 << (steps - 1)) < keys - 1)
                steps++;
            loops += keys > 1 ? steps : 0;
        }
    }
    return loops;
}

vks_result vks_gpu_upload_clips(vks_gpu *gpu, const vks_gpu_models *ms, const vks_skin *const *skins,
                                const vks_clip *const *clips, uint32_t clip_count, vks_gpu_clips **out,
                                vks_error *err)
{
    *out = NULL;
    if (!gpu || !ms || ms->gpu != gpu || !skins || (clip_count && !clips))
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/clips",
                             "clips need a context, models uploaded to it and their skins");
    for (uint32_t m = 0; m < ms->count; m++)
        if (!skins[m] || skins[m]->node_count != ms->models[m].node_count)
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/clips",
                                 "skin %u is not the one uploaded as model %u", m, m);
    vks_gpu_clips *gc = calloc(1, sizeof *gc);
    if (!gc)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/clips", "out of memory");
    gc->gpu = gpu, gc->ms = ms, gc->clip_count = clip_count;
    gc->entry = calloc((size_t)ms->count * (clip_count ? clip_count : 1), sizeof *gc->entry);
    gc->motion = calloc((size_t)ms->count * (clip_count ? clip_count : 1), sizeof *gc->motion);
    gc->loops = calloc((size_t)ms->count * (clip_count ? clip_count : 1), sizeof *gc->loops);
    words b = {0};
    reserve(&b, 4); /* word 0..3: a valid empty entry for crowds without clips */
    vks_result res = gc->entry && gc->motion && gc->loops
                         ? VKS_OK
                         : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/clips", "out of memory");
    uint32_t *clip_at = calloc(clip_count ? clip_count : 1, sizeof *clip_at);
    uint32_t *morph_at = calloc(clip_count ? clip_count : 1, sizeof *morph_at);
    if ((!clip_at || !morph_at) && res == VKS_OK)
        res = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/clips", "out of memory");
    for (uint32_t c = 0; c < clip_count && res == VKS_OK; c++) {
        vks_clip_set probe = {.clips = (vks_clip *)clips[c], .clip_count = 1};
        res = vks_clip_set_validate(&probe, err);
        if (res == VKS_OK)
            clip_at[c] = put_clip(&b, clips[c]), morph_at[c] = put_morph_curves(&b, clips[c]);
    }
    for (uint32_t m = 0; m < ms->count && res == VKS_OK; m++) {
        uint32_t model_at = 0;
        for (uint32_t c = 0; c < clip_count && res == VKS_OK; c++) {
            vks_clip_binding bd;
            res = vks_clip_bind(clips[c], skins[m], &bd, err);
            if (res != VKS_OK)
                break;
            char what[48];
            snprintf(what, sizeof what, "model %u playing clip %u", m, c);
            size_t mc = (size_t)m * clip_count + c;
            /* a layered instance samples a model-delta clip's parent too (compute/layers.glsl) */
            gc->loops[mc] = search_loops(clips[c], &bd) * (clips[c]->space == VKS_CLIP_MODEL_DELTA ? 2 : 1);
            gc->motion[mc] = -1;
            for (uint32_t n = 0; n < bd.node_count && gc->motion[mc] < 0; n++)
                if (bd.track_of_node[n] >= 0)
                    gc->motion[mc] = (int32_t)n;
            res = vks__check_pose_loops(gpu, what, skins[m]->node_count, skins[m]->bone_count, skins[m]->mesh_count,
                                        ms->models[m].levels, search_loops(clips[c], &bd), err);
            if (res != VKS_OK) {
                vks_clip_binding_free(&bd);
                break;
            }
            if (c == 0)
                model_at = put_model(&b, &bd);
            size_t e = reserve(&b, 2 + (size_t)bd.node_count + skins[m]->mesh_count);
            if (!b.failed) {
                b.w[e] = clip_at[c], b.w[e + 1] = model_at;
                for (uint32_t n = 0; n < bd.node_count; n++)
                    b.w[e + 2 + n] = bd.track_of_node[n] < 0 ? UINT32_MAX : (uint32_t)bd.track_of_node[n];
                gc->entry[(size_t)m * clip_count + c] = (uint32_t)e;
                put_entry_morph(&b, e + 2 + bd.node_count, clips[c], morph_at[c], skins[m], &gc->morph);
            }
            vks_clip_binding_free(&bd);
        }
    }
    if (res == VKS_OK && b.failed)
        res = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/clips", "out of memory for the clip table");
    vks__oneshot once = {0};
    if (res == VKS_OK)
        res = vks__upload_table(gpu, &once, "clip", b.w, b.n * sizeof *b.w, &gc->words, err);
    vks__oneshot_destroy(gpu, &once);
    free(b.w), free(clip_at), free(morph_at);
    if (res != VKS_OK) {
        vks_gpu_clips_free(gc);
        return res;
    }
    *out = gc;
    return VKS_OK;
}

void vks_gpu_clips_free(vks_gpu_clips *gc)
{
    if (!gc)
        return;
    vks__buf_destroy(gc->gpu, &gc->words);
    free(gc->entry), free(gc->motion), free(gc->loops);
    free(gc);
}
