/* vks_rtm_read: Arma RTM by magic. "BMTR" is the binarised form (rtm_bmtr.c); "RTM_MDAT"
 * (events) or "RTM_0101" the plain one, read here (animation.md section 4):
 *
 *   ["RTM_MDAT" u32 0, u32 n, n x {f32 phase, u8 len, name[len], u8 len, value[len]}]
 *   "RTM_0101" f32 motion[3], u32 frames, u32 bones, char[32] bone[bones],
 *   frames x {f32 phase, bones x {char[32] name, f32 m[12]}}
 *
 * Every frame has the same size, so the frame count is checked against the bytes left before
 * anything is allocated, and the phases are read first to put the frames in phase order.
 * Each matrix becomes a translation, a rotation and (where it is not 1) a scale key; shear,
 * which none of the engine's matrices should have, is noted through the logger and dropped. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "rtm_internal.h"

#define PLAIN_BONE_BYTES (RTM_NAME_FIELD + 48)
#define EVENT_MIN_BYTES 6 /* phase, two length bytes */

/* A char[32] field's name: NUL-terminated inside the field. */
static int field_name(const uint8_t *field, size_t *len)
{
    const uint8_t *z = memchr(field, 0, RTM_NAME_FIELD);
    if (!z)
        return 0;
    *len = (size_t)(z - field);
    return 1;
}

static vks_result read_events(rtm_build *b, vks_cursor *c, vks_error *err)
{
    vks_result r = rtm_event_header(b, c, EVENT_MIN_BYTES, "RTM_MDAT", err);
    if (r != VKS_OK)
        return r;
    for (uint32_t i = 0; i < b->clip->event_count; i++) {
        vks_clip_event *ev = &b->clip->events[i];
        char path[64];
        snprintf(path, sizeof path, "RTM_MDAT/event[%u]", i);
        if ((r = rtm_read_event_phase(b, c, ev, path, err)) != VKS_OK)
            return r;
        const char **dst[2] = {&ev->name, &ev->value};
        for (int s = 0; s < 2; s++) {
            uint64_t sat = vks_cur_offset(c);
            uint8_t len;
            if (!vks_cur_u8(c, &len) || vks_cur_left(c) < len)
                return rtm_truncated(err, sat, path, s ? "value" : "name", vks_cur_left(c));
            *dst[s] = vks_clip_set_strndup(b->set, (const char *)c->p, len);
            if (!*dst[s])
                return vks_error_set(err, VKS_ERR_NOMEM, sat, path, "out of memory");
            c->p += len;
        }
    }
    return VKS_OK;
}

/* Largest |M - T R S| over the 12 entries: how much a decomposition lost (shear). */
static float decomposition_error(const vks_affine *m, const float t[3], const float q[4], const float s[3])
{
    vks_affine back = vks_affine_from_trs(t, q, s);
    float e = 0;
    for (int i = 0; i < 12; i++)
        e = fmaxf(e, fabsf(back.m[i] - m->m[i]));
    return e;
}

/* Bone i of frame f of a plain RTM: its name (the header's), its matrix (finite) as the
 * translation, rotation and scale of key; *shear the matrix's change through that
 * decomposition. */
static vks_result plain_bone(rtm_build *b, vks_cursor *c, uint32_t f, uint32_t i, size_t key, float *shear,
                             vks_error *err)
{
    char path[64];
    uint64_t bat = vks_cur_offset(c);
    size_t len;
    snprintf(path, sizeof path, "RTM_0101/frame[%u]/bone[%u]", f, i);
    if (!field_name(c->p, &len))
        return vks_error_set(err, VKS_ERR_FORMAT, bat, path, "name not NUL-terminated within its %d bytes",
                             RTM_NAME_FIELD);
    char name[RTM_NAME_FIELD];
    memcpy(name, c->p, len + 1);
    if (!rtm_same_name(name, b->clip->tracks[i].node_name))
        return vks_error_set(err, VKS_ERR_FORMAT, bat, path, "\"%s\" where the header names \"%.31s\"", name,
                             b->clip->tracks[i].node_name);
    c->p += RTM_NAME_FIELD;
    vks_affine m;
    for (int k = 0; k < 12; k++) {
        vks_cur_f32(c, &m.m[k]); /* read_plain's frame count check covers every byte */
        if (!isfinite(m.m[k]))
            return vks_error_set(err, VKS_ERR_FORMAT, vks_cur_offset(c) - 4, path,
                                 "matrix value %d is not finite", k);
    }
    float *t = b->translation + key * 3, *q = b->rotation + key * 4, *s = b->scale + key * 3;
    vks_affine_to_trs(&m, t, q, s);
    if (!(isfinite(q[0]) && isfinite(q[1]) && isfinite(q[2]) && isfinite(q[3])) ||
        q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] < 1e-12f)
        return vks_error_set(err, VKS_ERR_FORMAT, bat + RTM_NAME_FIELD, path,
                             "matrix has no rotation part that can be recovered");
    if (!(isfinite(s[0]) && isfinite(s[1]) && isfinite(s[2])))
        return vks_error_set(err, VKS_ERR_FORMAT, bat + RTM_NAME_FIELD, path,
                             "matrix axes too long for a float scale");
    *shear = decomposition_error(&m, t, q, s);
    return VKS_OK;
}

static vks_result read_plain(rtm_build *b, vks_cursor *c, vks_error *err)
{
    uint64_t at = vks_cur_offset(c);
    float *motion = b->clip->motion;
    uint32_t frames, bones;
    if (!vks_cur_f32n(c, motion, 3))
        return rtm_truncated(err, at, "RTM_0101", "motion vector", vks_cur_left(c));
    if (!isfinite(motion[0]) || !isfinite(motion[1]) || !isfinite(motion[2]))
        return vks_error_set(err, VKS_ERR_FORMAT, at, "RTM_0101", "motion vector not finite");
    at = vks_cur_offset(c);
    if (!vks_cur_u32(c, &frames) || !vks_cur_u32(c, &bones))
        return rtm_truncated(err, at, "RTM_0101", "frame and bone counts", vks_cur_left(c));
    if (bones > b->opt.max_nodes)
        return vks_error_set(err, VKS_ERR_LIMIT, at + 4, "RTM_0101", "%u bones, over the limit %u (max_nodes)", bones,
                             b->opt.max_nodes);
    if (!vks_cur_fits(c, bones, RTM_NAME_FIELD))
        return vks_error_set(err, VKS_ERR_TRUNCATED, vks_cur_offset(c), "RTM_0101",
                             "%u bone names need %llu bytes, %zu left", bones,
                             (unsigned long long)bones * RTM_NAME_FIELD, vks_cur_left(c));
    if (frames == 0)
        return vks_error_set(err, VKS_ERR_FORMAT, at, "RTM_0101", "no frames");
    if ((uint64_t)frames * bones > b->opt.clip.max_keys)
        return vks_error_set(err, VKS_ERR_LIMIT, at, "RTM_0101", "%u frames x %u bones, over the key limit %u",
                             frames, bones, b->opt.clip.max_keys);
    const uint8_t *names = c->p;
    uint64_t names_at = vks_cur_offset(c);
    c->p += (size_t)bones * RTM_NAME_FIELD;
    uint64_t frame_bytes = 4 + (uint64_t)bones * PLAIN_BONE_BYTES;
    uint64_t whole = vks_cur_left(c) / frame_bytes;
    if (whole < frames)
        return vks_error_set(err, VKS_ERR_TRUNCATED, vks_cur_offset(c) + whole * frame_bytes, "RTM_0101",
                             "frame[%llu] cut short: %u frames of %llu bytes, %zu bytes left for them",
                             (unsigned long long)whole, frames, (unsigned long long)frame_bytes, vks_cur_left(c));
    vks_result r = rtm_alloc_tracks(b, frames, bones, 1, at, err);
    if (r != VKS_OK)
        return r;
    for (uint32_t i = 0; i < bones; i++) {
        size_t len;
        if (!field_name(names + (size_t)i * RTM_NAME_FIELD, &len)) {
            char path[48];
            snprintf(path, sizeof path, "RTM_0101/bone[%u]", i);
            return vks_error_set(err, VKS_ERR_FORMAT, names_at + (uint64_t)i * RTM_NAME_FIELD, path,
                                 "name not NUL-terminated within its %d bytes", RTM_NAME_FIELD);
        }
        b->clip->tracks[i].node_name = vks_clip_set_strndup(b->set, (const char *)names + (size_t)i * RTM_NAME_FIELD, len);
        if (!b->clip->tracks[i].node_name)
            return vks_error_set(err, VKS_ERR_NOMEM, names_at, "RTM_0101", "out of memory for bone names");
    }

    /* phases first (each frame starts with one), then the frames into their sorted slots */
    const uint8_t *frame0 = c->p;
    uint64_t frame0_at = vks_cur_offset(c);
    float *phases = vks_clip_set_alloc(b->set, frames, sizeof *phases);
    uint32_t *slot = vks_clip_set_alloc(b->set, frames, sizeof *slot);
    if (!phases || !slot)
        return vks_error_set(err, VKS_ERR_NOMEM, frame0_at, "RTM_0101", "out of memory for %u frames", frames);
    for (uint32_t f = 0; f < frames; f++) {
        phases[f] = vks_lef32(frame0 + f * frame_bytes);
        float t;
        if (!rtm_phase_time(b, phases[f], &t)) {
            char path[48];
            snprintf(path, sizeof path, "RTM_0101/frame[%u]", f);
            return vks_error_set(err, VKS_ERR_FORMAT, frame0_at + f * frame_bytes, path, "phase %g outside 0..1",
                                 (double)phases[f]);
        }
    }
    if ((r = rtm_sort_frames(b, phases, slot, frame0_at, err)) != VKS_OK)
        return r;

    float worst_shear = 0;
    uint32_t shear_frame = 0, shear_bone = 0;
    for (uint32_t f = 0; f < frames; f++) {
        c->p += 4;
        for (uint32_t i = 0; i < bones; i++) {
            float e = 0;
            if ((r = plain_bone(b, c, f, i, (size_t)i * frames + slot[f], &e, err)) != VKS_OK)
                return r;
            if (e > worst_shear)
                worst_shear = e, shear_frame = f, shear_bone = i;
        }
    }
    if (worst_shear > 1e-3f)
        vks__log(&b->opt.logger, VKS_LOG_WARNING,
                 "RTM: matrices with shear, kept as rotation and scale (largest change %g, frame %u bone \"%s\")",
                 (double)worst_shear, shear_frame, b->clip->tracks[shear_bone].node_name);
    if (vks_cur_left(c))
        vks__log(&b->opt.logger, VKS_LOG_WARNING, "RTM: %zu bytes after the last frame ignored", vks_cur_left(c));
    b->set->format_detail = "RTM_0101";
    b->clip->space = VKS_CLIP_MODEL_DELTA;
    return VKS_OK;
}

vks_result vks_rtm_read(const vks_read_options *opt, const void *bytes, size_t size, vks_clip_set **out,
                        vks_error *err)
{
    if (!out || (!bytes && size))
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "rtm", "no output or no bytes");
    if (size >= 4 && !memcmp(bytes, "BMTR", 4))
        return rtm_bmtr_read(opt, bytes, size, out, err);
    vks_cursor c = vks_cur_make(bytes, size);
    uint8_t magic[8];
    if (!vks_cur_bytes(&c, magic, 8))
        return vks_error_set(err, VKS_ERR_TRUNCATED, 0, "rtm", "%zu bytes: too short for an RTM (8-byte magic)", size);
    rtm_build b;
    vks_result r = rtm_begin(opt, &b, err);
    if (r != VKS_OK)
        return r;
    if (!memcmp(magic, "RTM_MDAT", 8)) {
        if ((r = read_events(&b, &c, err)) != VKS_OK)
            goto fail;
        uint64_t at = vks_cur_offset(&c);
        if (!vks_cur_bytes(&c, magic, 8)) {
            r = rtm_truncated(err, at, "rtm", "RTM_0101 magic", vks_cur_left(&c));
            goto fail;
        }
    }
    if (memcmp(magic, "RTM_0101", 8)) {
        char shown[9];
        for (int i = 0; i < 8; i++)
            shown[i] = magic[i] >= 0x20 && magic[i] < 0x7F ? (char)magic[i] : '?';
        shown[8] = 0;
        r = vks_error_set(err, VKS_ERR_FORMAT, vks_cur_offset(&c) - 8, "rtm",
                          "magic \"%s\", expected RTM_0101, RTM_MDAT or BMTR", shown);
        goto fail;
    }
    if ((r = read_plain(&b, &c, err)) != VKS_OK)
        goto fail;
    return rtm_finish(&b, out, err);
fail:
    rtm_abort(&b);
    return r;
}
