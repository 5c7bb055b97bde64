/* Clip sets (clip.h): ownership, validation and lookup. Format knowledge ends in the readers;
 * everything here holds for a clip from any of them. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clip_float32.h"
#include "core/arena.h"
#include "vkskin/clip.h"

vks_clip_set *vks_clip_set_create(const vks_allocator *allocator)
{
    vks_allocator a;
    vks_skin_arena *arena;
    vks_clip_set *s = vks__arena_owner_create(allocator, sizeof *s, &a, &arena);
    if (!s)
        return NULL;
    s->allocator = a;
    s->arena = arena;
    s->format = "";
    s->format_detail = "";
    return s;
}

void vks_clip_set_free(vks_clip_set *set)
{
    if (set)
        vks__arena_owner_free(set, &set->allocator, set->arena);
}

void *vks_clip_set_alloc(vks_clip_set *set, size_t count, size_t elem)
{
    return set ? vks__arena_alloc_array(set->arena, &set->allocator, count, elem) : NULL;
}

const char *vks_clip_set_strndup(vks_clip_set *set, const char *s, size_t len)
{
    return set ? vks__arena_strndup(set->arena, &set->allocator, s, len) : NULL;
}

static int all_finite(const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return 0;
    return 1;
}

static vks_result check_curve(const vks_clip *clip, const vks_curve *c, uint32_t want_components,
                              vks_channel channel, const char *path, vks_error *err)
{
    if (c->key_count == 0)
        return VKS_OK;
    if (c->components != want_components)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path, "%u components, expected %u",
                             (unsigned)c->components, (unsigned)want_components);
    if (c->interp > VKS_INTERP_BSPLINE)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path, "unknown interpolation %d", (int)c->interp);
    if (!c->values)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path, "keys without values");
    size_t n = (size_t)c->key_count * c->components;
    if (!all_finite(c->values, n))
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path, "a value is not finite");
    if (c->interp == VKS_INTERP_BSPLINE) {
        if (c->key_count < 4)
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path,
                                 "B-spline with %u control points, at least 4 needed", (unsigned)c->key_count);
        if (!(isfinite(c->start) && isfinite(c->stop) && c->start < c->stop))
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path, "B-spline span %g..%g is empty",
                                 (double)c->start, (double)c->stop);
    } else {
        if (!c->times)
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path, "keys without times");
        for (uint32_t k = 0; k < c->key_count; k++) {
            float t = c->times[k];
            if (!isfinite(t) || t < 0 || t > clip->duration * (1.0f + 1e-5f) + 1e-6f)
                return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path,
                                     "key %u at %g s, outside the clip's 0..%g s", (unsigned)k, (double)t,
                                     (double)clip->duration);
            if (k && t < c->times[k - 1])
                return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path,
                                     "key %u at %g s comes before key %u at %g s", (unsigned)k, (double)t,
                                     (unsigned)(k - 1), (double)c->times[k - 1]);
        }
        if (c->interp == VKS_INTERP_HERMITE &&
            (!c->in_tangents || !c->out_tangents || !all_finite(c->in_tangents, n) ||
             !all_finite(c->out_tangents, n)))
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path, "Hermite tangents missing or not finite");
    }
    if (want_components == 4)
        for (uint32_t k = 0; k < c->key_count; k++) {
            const float *q = c->values + (size_t)k * 4;
            if (q[0] == 0 && q[1] == 0 && q[2] == 0 && q[3] == 0)
                return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path, "key %u: zero quaternion", (unsigned)k);
        }
    return vks__clip_curve_float32(c, channel, path, err);
}

static vks_result check_clip(const vks_clip *clip, uint32_t ci, vks_error *err)
{
    char path[128];
    snprintf(path, sizeof path, "clip[%u] \"%.40s\"", (unsigned)ci, clip->name ? clip->name : "");
    if (!clip->name)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path, "no name");
    if (!(isfinite(clip->duration) && clip->duration > 0))
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path, "duration %g s, expected > 0",
                             (double)clip->duration);
    if (clip->cycle > VKS_CYCLE_RESET || clip->space > VKS_CLIP_PARENT_DELTA)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path, "unknown cycle or space");
    if (clip->track_count && !clip->tracks)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path, "tracks missing");
    if (clip->root_track >= 0 && (uint32_t)clip->root_track >= clip->track_count)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path, "root track %d of %u",
                             (int)clip->root_track, (unsigned)clip->track_count);
    if (!all_finite(clip->motion, 3))
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path, "motion not finite");
    for (int i = 0; i < 3; i++)
        if (fabs(clip->motion[i]) > VKS_CLIP_MAX_MAGNITUDE)
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path,
                                 "motion %g, beyond the +-2^48 float32 engines can compose", (double)clip->motion[i]);
    for (uint32_t t = 0; t < clip->track_count; t++) {
        const vks_track *tr = &clip->tracks[t];
        static const char *const names[] = {"translation", "rotation", "euler x", "euler y", "euler z", "scale"};
        const vks_curve *curves[] = {&tr->translation, &tr->rotation, &tr->euler[0], &tr->euler[1], &tr->euler[2],
                                     &tr->scale};
        static const uint32_t comps[] = {3, 4, 1, 1, 1, 3};
        static const vks_channel channels[] = {VKS_CHANNEL_TRANSLATION, VKS_CHANNEL_ROTATION, VKS_CHANNEL_EULER,
                                               VKS_CHANNEL_EULER,       VKS_CHANNEL_EULER,    VKS_CHANNEL_SCALE};
        if (!tr->node_name)
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path, "track %u has no node name", (unsigned)t);
        for (int k = 0; k < 6; k++) {
            char cpath[128];
            snprintf(cpath, sizeof cpath, "%.60s/track[%u] \"%.24s\"/%s", path, (unsigned)t, tr->node_name, names[k]);
            vks_result r = check_curve(clip, curves[k], comps[k], channels[k], cpath, err);
            if (r != VKS_OK)
                return r;
        }
    }
    if (clip->morph_track_count && !clip->morph_tracks)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path, "morph tracks missing");
    for (uint32_t t = 0; t < clip->morph_track_count; t++) {
        const vks_morph_track *mt = &clip->morph_tracks[t];
        char cpath[128];
        snprintf(cpath, sizeof cpath, "%.60s/morph track[%u] \"%.24s\"/weights", path, (unsigned)t,
                 mt->node_name ? mt->node_name : "");
        if (!mt->node_name || mt->weights.key_count == 0 || mt->weights.components == 0 ||
            mt->weights.interp == VKS_INTERP_BSPLINE)
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, cpath,
                                 "a morph track needs a node name, keys, components and no B-spline");
        vks_result r = check_curve(clip, &mt->weights, mt->weights.components, VKS_CHANNEL_TRANSLATION, cpath, err);
        if (r != VKS_OK)
            return r;
    }
    for (uint32_t e = 0; e < clip->event_count; e++) {
        const vks_clip_event *ev = &clip->events[e];
        if (!ev->name || !ev->value || !isfinite(ev->time) || ev->time < 0 ||
            ev->time > clip->duration * (1.0f + 1e-5f) + 1e-6f)
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path, "event %u outside the clip or unnamed",
                                 (unsigned)e);
    }
    return VKS_OK;
}

vks_result vks_clip_set_validate(const vks_clip_set *set, vks_error *err)
{
    if (!set || (set->clip_count && !set->clips))
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "clips", "no clip set");
    for (uint32_t c = 0; c < set->clip_count; c++) {
        vks_result r = check_clip(&set->clips[c], c, err);
        if (r != VKS_OK)
            return r;
    }
    return VKS_OK;
}

vks_result vks_clip_set_finish(vks_clip_set *set, vks_error *err)
{
    for (uint32_t c = 0; set && set->clips && c < set->clip_count; c++)
        vks__clip_condition(&set->clips[c]);
    return vks_clip_set_validate(set, err);
}

static int same_nocase(const char *a, const char *b)
{
    while (*a && *b && tolower((unsigned char)*a) == tolower((unsigned char)*b))
        a++, b++;
    return *a == 0 && *b == 0;
}

int32_t vks_clip_set_find(const vks_clip_set *set, const char *name)
{
    if (!set || set->clip_count == 0)
        return -1;
    if (!name || !*name)
        return 0;
    for (uint32_t c = 0; c < set->clip_count; c++)
        if (strcmp(set->clips[c].name, name) == 0)
            return (int32_t)c;
    for (uint32_t c = 0; c < set->clip_count; c++)
        if (same_nocase(set->clips[c].name, name))
            return (int32_t)c;
    char *end = NULL;
    unsigned long v = strtoul(name, &end, 10);
    if (end && *end == 0 && isdigit((unsigned char)name[0]) && v < set->clip_count)
        return (int32_t)v;
    return -1;
}
