/* The clip table the pose pass reads (compute/clip.glsl has the layout): every clip's keys and
 * times, and every (model, clip) binding, in one array of 32-bit words, built on the host once.
 * Backend-neutral: the backend uploads the words (src/gpu/vulkan/clips.c) and checks the key
 * searches' loops against its device through the callback. */
#include "gpu/clip_table.h"

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

/* Entry (model m, clip c): the clip's words, the model's, then per node its track (~0u: none)
 * and per mesh its morph block; its loops and root-motion node recorded. */
static vks_result put_entry(vks__clip_table *t, words *b, const vks_skin *skin, uint32_t m, uint32_t c,
                           const vks_clip *clip, const uint32_t *at, uint32_t *model_at,
                           const vks__clip_table_check *check, vks_error *err)
{
    vks_clip_binding bd;
    vks_result res = vks_clip_bind(clip, skin, &bd, err);
    if (res != VKS_OK)
        return res;
    size_t mc = (size_t)m * t->clip_count + c;
    /* a layered instance samples a model-delta clip's parent too (compute/layers.glsl) */
    t->loops[mc] = search_loops(clip, &bd) * (clip->space == VKS_CLIP_MODEL_DELTA ? 2 : 1);
    t->motion[mc] = -1;
    for (uint32_t n = 0; n < bd.node_count && t->motion[mc] < 0; n++)
        if (bd.track_of_node[n] >= 0)
            t->motion[mc] = (int32_t)n;
    res = check ? check->fn(check->user, m, c, search_loops(clip, &bd), err) : VKS_OK;
    if (res == VKS_OK) {
        if (c == 0)
            *model_at = put_model(b, &bd);
        size_t e = reserve(b, 2 + (size_t)bd.node_count + skin->mesh_count);
        if (!b->failed) {
            b->w[e] = at[2 * c], b->w[e + 1] = *model_at;
            for (uint32_t n = 0; n < bd.node_count; n++)
                b->w[e + 2 + n] = bd.track_of_node[n] < 0 ? UINT32_MAX : (uint32_t)bd.track_of_node[n];
            t->entry[mc] = (uint32_t)e;
            put_entry_morph(b, e + 2 + bd.node_count, clip, at[2 * c + 1], skin, &t->morph);
        }
    }
    vks_clip_binding_free(&bd);
    return res;
}

vks_result vks__clip_table_build(const vks_skin *const *skins, uint32_t model_count, const vks_clip *const *clips,
                                 uint32_t clip_count, const vks__clip_table_check *check, vks__clip_table *t,
                                 vks_error *err)
{
    memset(t, 0, sizeof *t);
    t->clip_count = clip_count;
    size_t pairs = (size_t)model_count * (clip_count ? clip_count : 1);
    t->entry = calloc(pairs, sizeof *t->entry);
    t->motion = calloc(pairs, sizeof *t->motion);
    t->loops = calloc(pairs, sizeof *t->loops);
    uint32_t *at = calloc(2 * (size_t)(clip_count ? clip_count : 1), sizeof *at); /* per clip: keys, morph */
    words b = {0};
    reserve(&b, 4); /* word 0..3: a valid empty entry for crowds without clips */
    vks_result res = t->entry && t->motion && t->loops && at
                         ? VKS_OK
                         : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/clips", "out of memory");
    for (uint32_t c = 0; c < clip_count && res == VKS_OK; c++) {
        vks_clip_set probe = {.clips = (vks_clip *)clips[c], .clip_count = 1};
        res = vks_clip_set_validate(&probe, err);
        if (res == VKS_OK)
            at[2 * c] = put_clip(&b, clips[c]), at[2 * c + 1] = put_morph_curves(&b, clips[c]);
    }
    for (uint32_t m = 0; m < model_count && res == VKS_OK; m++) {
        uint32_t model_at = 0;
        for (uint32_t c = 0; c < clip_count && res == VKS_OK; c++)
            res = put_entry(t, &b, skins[m], m, c, clips[c], at, &model_at, check, err);
    }
    if (res == VKS_OK && b.failed)
        res = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/clips", "out of memory for the clip table");
    free(at);
    t->words = b.w, t->word_count = b.n;
    if (res != VKS_OK)
        vks__clip_table_free(t);
    return res;
}

void vks__clip_table_free(vks__clip_table *t)
{
    free(t->words), free(t->entry), free(t->motion), free(t->loops);
    memset(t, 0, sizeof *t);
}
