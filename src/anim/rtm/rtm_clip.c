/* The RTM clip under construction, shared by the plain and binarised readers: one clip, one
 * track per bone, every curve LINEAR over the same key times (the frames' phases times the
 * duration the caller gives: RTM stores none). Also the half floats BMTR translations use. */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rtm_internal.h"

float rtm_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 31u, man = h & 0x3FFu, bits;
    if (exp == 0) {
        float v = ldexpf((float)man, -24); /* zero and subnormals */
        return sign ? -v : v;
    }
    if (exp == 31)
        bits = sign | 0x7F800000u | (man << 13); /* infinity, NaN */
    else
        bits = sign | ((exp + 112) << 23) | (man << 13);
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

int rtm_float_to_half(float v, uint16_t *out)
{
    if (!isfinite(v))
        return 0;
    uint16_t sign = signbit(v) ? 0x8000u : 0;
    double a = fabs((double)v);
    if (a == 0) {
        *out = sign;
        return 1;
    }
    int e;
    frexp(a, &e); /* a = m * 2^e, m in [0.5, 1) */
    /* the spacing of halves around a: 2^(e-11) for normals, 2^-24 below 2^-14 */
    int q = e - 11 < -24 ? -24 : e - 11;
    double steps = nearbyint(ldexp(a, -q)); /* current rounding mode: to nearest even */
    double r = ldexp(steps, q);
    if (r > 65504.0)
        return 0;
    if (r < ldexp(1.0, -14)) {
        *out = (uint16_t)(sign | (uint16_t)steps); /* subnormal (or rounded up to the smallest normal) */
        return 1;
    }
    int re;
    double rm = frexp(r, &re); /* r = rm * 2^re, rm in [0.5, 1) */
    uint32_t man = (uint32_t)ldexp(rm, 11) - 1024u;
    *out = (uint16_t)(sign | (uint16_t)((uint32_t)(re - 1 + 15) << 10) | man);
    return 1;
}

int rtm_same_name(const char *a, const char *b)
{
    while (*a && *b && tolower((unsigned char)*a) == tolower((unsigned char)*b))
        a++, b++;
    return *a == 0 && *b == 0;
}

int rtm_phase_time(const rtm_build *b, float phase, float *time)
{
    if (!isfinite(phase) || phase < 0 || phase > 1.0f + 1e-5f)
        return 0;
    *time = (phase > 1 ? 1.0f : phase) * b->clip->duration;
    if (*time > b->clip->duration)
        *time = b->clip->duration;
    return 1;
}

vks_result rtm_truncated(vks_error *err, uint64_t at, const char *path, const char *what, size_t left)
{
    return vks_error_set(err, VKS_ERR_TRUNCATED, at, path, "%s cut short (%zu bytes left)", what, left);
}

vks_result rtm_event_header(rtm_build *b, vks_cursor *c, size_t min_bytes, const char *path, vks_error *err)
{
    uint64_t at = vks_cur_offset(c);
    uint32_t zero, n;
    if (!vks_cur_u32(c, &zero) || !vks_cur_u32(c, &n))
        return rtm_truncated(err, at, path, "event header", vks_cur_left(c));
    if (!vks_cur_fits(c, n, min_bytes))
        return vks_error_set(err, VKS_ERR_TRUNCATED, vks_cur_offset(c), path,
                             "%u events need at least %llu bytes, %zu left", n, (unsigned long long)n * min_bytes,
                             vks_cur_left(c));
    if (n > b->opt.clip.max_keys)
        return vks_error_set(err, VKS_ERR_LIMIT, at + 4, path, "%u events, over the key limit %u", n,
                             b->opt.clip.max_keys);
    b->clip->events = vks_clip_set_alloc(b->set, n ? n : 1, sizeof *b->clip->events);
    if (!b->clip->events)
        return vks_error_set(err, VKS_ERR_NOMEM, at + 4, path, "out of memory for %u events", n);
    b->clip->event_count = n;
    for (uint32_t i = 0; i < n; i++)
        b->clip->events[i].name = b->clip->events[i].value = "";
    return VKS_OK;
}

vks_result rtm_read_event_phase(rtm_build *b, vks_cursor *c, vks_clip_event *ev, const char *path, vks_error *err)
{
    uint64_t at = vks_cur_offset(c);
    float phase;
    if (!vks_cur_f32(c, &phase))
        return rtm_truncated(err, at, path, "phase", vks_cur_left(c));
    if (!rtm_phase_time(b, phase, &ev->time))
        return vks_error_set(err, VKS_ERR_FORMAT, at, path, "phase %g outside 0..1", (double)phase);
    return VKS_OK;
}

vks_result rtm_begin(const vks_read_options *opt, rtm_build *b, vks_error *err)
{
    memset(b, 0, sizeof *b);
    b->opt = vks_read_options_defaults(opt);
    b->set = vks_clip_set_create(&b->opt.allocator);
    if (!b->set)
        return vks_error_set(err, VKS_ERR_NOMEM, 0, "rtm", "out of memory for the clip set");
    b->clip = vks_clip_set_alloc(b->set, 1, sizeof *b->clip);
    if (!b->clip) {
        rtm_abort(b);
        return vks_error_set(err, VKS_ERR_NOMEM, 0, "rtm", "out of memory for the clip");
    }
    b->set->clips = b->clip;
    b->set->clip_count = 1;
    b->set->format = "rtm";
    b->clip->name = "";
    b->clip->duration = b->opt.clip.duration;
    b->clip->fps = 0; /* keys sit at the file's phases, not on a frame grid */
    b->clip->cycle = VKS_CYCLE_LOOP;
    b->clip->root_track = -1;
    return VKS_OK;
}

static void set_curve(vks_curve *c, uint32_t keys, uint32_t components, const float *times, const float *values)
{
    c->key_count = keys;
    c->components = components;
    c->interp = VKS_INTERP_LINEAR;
    c->times = times;
    c->values = values;
}

vks_result rtm_alloc_tracks(rtm_build *b, uint32_t frame_count, uint32_t bone_count, int with_scale, uint64_t at,
                            vks_error *err)
{
    uint64_t keys = (uint64_t)frame_count * bone_count;
    if (keys > SIZE_MAX / 16)
        return vks_error_set(err, VKS_ERR_LIMIT, at, "rtm", "%llu keys do not fit in memory", (unsigned long long)keys);
    b->frame_count = frame_count;
    b->bone_count = bone_count;
    b->clip->tracks = vks_clip_set_alloc(b->set, bone_count ? bone_count : 1, sizeof *b->clip->tracks);
    b->times = vks_clip_set_alloc(b->set, frame_count ? frame_count : 1, sizeof *b->times);
    b->translation = vks_clip_set_alloc(b->set, keys ? (size_t)keys : 1, 3 * sizeof(float));
    b->rotation = vks_clip_set_alloc(b->set, keys ? (size_t)keys : 1, 4 * sizeof(float));
    if (with_scale)
        b->scale = vks_clip_set_alloc(b->set, keys ? (size_t)keys : 1, 3 * sizeof(float));
    if (!b->clip->tracks || !b->times || !b->translation || !b->rotation || (with_scale && !b->scale))
        return vks_error_set(err, VKS_ERR_NOMEM, at, "rtm", "out of memory for %u bones x %u frames", bone_count,
                             frame_count);
    b->clip->track_count = bone_count;
    for (uint32_t t = 0; t < bone_count; t++) {
        vks_track *tr = &b->clip->tracks[t];
        size_t k0 = (size_t)t * frame_count;
        tr->node_name = "";
        set_curve(&tr->translation, frame_count, 3, b->times, b->translation + k0 * 3);
        set_curve(&tr->rotation, frame_count, 4, b->times, b->rotation + k0 * 4);
        if (with_scale)
            set_curve(&tr->scale, 0, 3, b->times, b->scale + k0 * 3); /* attached by rtm_finish */
    }
    return VKS_OK;
}

typedef struct phase_slot {
    float phase;
    uint32_t index;
} phase_slot;

static int by_phase(const void *pa, const void *pb)
{
    const phase_slot *a = pa, *b = pb;
    if (a->phase != b->phase)
        return a->phase < b->phase ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index; /* equal phases keep file order */
}

vks_result rtm_sort_frames(rtm_build *b, const float *phases, uint32_t *slot, uint64_t at, vks_error *err)
{
    uint32_t n = b->frame_count;
    int sorted = 1;
    for (uint32_t i = 1; i < n && sorted; i++)
        sorted = phases[i - 1] <= phases[i];
    if (sorted) {
        for (uint32_t i = 0; i < n; i++)
            slot[i] = i;
    } else {
        /* armaio sorts frames by phase too; a temporary of the set's arena (8 bytes a frame) */
        phase_slot *ps = vks_clip_set_alloc(b->set, n, sizeof *ps);
        if (!ps)
            return vks_error_set(err, VKS_ERR_NOMEM, at, "rtm", "out of memory sorting %u frames", n);
        for (uint32_t i = 0; i < n; i++)
            ps[i].phase = phases[i], ps[i].index = i;
        qsort(ps, n, sizeof *ps, by_phase);
        for (uint32_t k = 0; k < n; k++)
            slot[ps[k].index] = k;
    }
    for (uint32_t i = 0; i < n; i++)
        rtm_phase_time(b, phases[i], &b->times[slot[i]]);
    return VKS_OK;
}

vks_result rtm_finish(rtm_build *b, vks_clip_set **out, vks_error *err)
{
    uint32_t n = b->frame_count;
    for (uint32_t t = 0; t < b->clip->track_count; t++) {
        vks_track *tr = &b->clip->tracks[t];
        float *q = (float *)tr->rotation.values;
        for (uint32_t k = 1; k < n; k++) {
            float *p = q + (size_t)(k - 1) * 4, *c = q + (size_t)k * 4;
            if (p[0] * c[0] + p[1] * c[1] + p[2] * c[2] + p[3] * c[3] < 0)
                for (int i = 0; i < 4; i++)
                    c[i] = -c[i];
        }
        if (b->scale) {
            const float *s = tr->scale.values;
            for (size_t i = 0; i < (size_t)n * 3; i++)
                if (fabsf(s[i] - 1.0f) > 1e-5f) {
                    tr->scale.key_count = n;
                    break;
                }
        }
    }
    vks_result r = vks_clip_set_finish(b->set, err);
    if (r != VKS_OK) {
        rtm_abort(b);
        return r;
    }
    *out = b->set;
    b->set = NULL;
    return VKS_OK;
}

void rtm_abort(rtm_build *b)
{
    vks_clip_set_free(b->set);
    b->set = NULL;
    b->clip = NULL;
}
