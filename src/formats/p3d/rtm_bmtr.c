/* Binarised RTM ("BMTR", versions 3, 4 and 5; animation.md section 4, the BI wiki page
 * "Rtm Binarised File Format", armaio's src/armaio/rtm/_bmtr.py):
 *
 *   "BMTR" u32 version, u8 1, f32 motion[3], u32 frames, u32 0, u32 bones, u32 bones,
 *   asciiz name[bones],
 *   version >= 4: u32 0, u32 props, props x {u32 -1, asciiz name, f32 phase, asciiz value},
 *   u32 frames, array(f32 phase[frames]),
 *   frames x {u32 bones, array(bones x {s16 q[4], f16 t[3]})}
 *
 * array(): the bytes as they are or one LZO1X stream of them (no stored size: the decoder
 * says where it ended). Version 5 puts a flag byte before each array (0 plain, 2 LZO in
 * armaio's LZO sample; any non-zero is taken as LZO, as the ODOL reader does); versions 3 and
 * 4 compress an array when it holds 1024 bytes or more. The sources disagree about version 4:
 * the wiki gives it the properties and the size rule (the flag came with version 5, "1024
 * byte compression rule changed to prefixed flag"); armaio's code asks for a flag from
 * version 4 on, but its reader never stores the version it reads (the default, 5, stays), so
 * it in fact reads flags in every version, and all of its samples are version 5; Arma 3
 * Object Builder reads neither properties nor flags before version 5. The reader tries the
 * wiki's layout first and armaio's when that one does not read to the end of the file; the
 * two cannot both fit one file in practice (the flag bytes shift everything after them). The
 * writer follows the wiki.
 *
 * Transforms are parent-relative, converted as rtm_internal.h says: quaternion
 * (qx, -qy, qz, qw) and translation (-tx, ty, -tz) of a column-vector transform L, with
 * D(n) = D(parent) * L(n) done by the sampler through the bound skin's hierarchy. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "rtm_internal.h"

/* A NUL-terminated string at the cursor (its NUL skipped); 0 when the bytes end first. */
static int cur_asciiz(vks_cursor *c, const char **s, size_t *len)
{
    const uint8_t *z = memchr(c->p, 0, vks_cur_left(c));
    if (!z)
        return 0;
    *s = (const char *)c->p;
    *len = (size_t)(z - c->p);
    c->p = z + 1;
    return 1;
}

typedef struct bmtr_arrays {
    uint32_t version, frames, bones;
    int flagged;      /* a compression flag byte before each array */
    uint8_t *phase_buf, *frame_buf; /* decode space: frames * 4 and bones * 14 bytes */
    float *phases;
    uint32_t *slot;
} bmtr_arrays;

/* One array of n bytes at the cursor: *data points at its bytes (in the file, or decoded into
 * buf). *data_at: the file offset of its first byte when stored plainly, else UINT64_MAX
 * (*stream_at then names the stream, for errors about decoded values). */
static vks_result read_array(vks_cursor *c, const bmtr_arrays *a, size_t n, uint8_t *buf, const uint8_t **data,
                             uint64_t *data_at, uint64_t *stream_at, const char *path, vks_error *err)
{
    int compressed = n >= RTM_LZO_THRESHOLD;
    if (a->flagged) {
        uint8_t flag;
        if (!vks_cur_u8(c, &flag))
            return rtm_truncated(err, vks_cur_offset(c), path, "compression flag", 0);
        compressed = flag != 0;
    }
    *stream_at = vks_cur_offset(c);
    if (!compressed) {
        if (vks_cur_left(c) < n)
            return vks_error_set(err, VKS_ERR_TRUNCATED, vks_cur_offset(c), path, "%zu bytes stored, %zu left", n,
                                 vks_cur_left(c));
        *data = c->p;
        *data_at = vks_cur_offset(c);
        c->p += n;
        return VKS_OK;
    }
    size_t used = 0;
    int r = vks__lzo1x_decode(c->p, vks_cur_left(c), buf, n, &used);
    if (r != VKS__LZO_OK)
        return vks_error_set(err, r == VKS__LZO_INPUT_OVERRUN ? VKS_ERR_TRUNCATED : VKS_ERR_FORMAT,
                             vks_cur_offset(c) + used, path, "LZO1X stream of %zu bytes: %s", n,
                             vks__lzo1x_error_str(r));
    *data = buf;
    *data_at = UINT64_MAX;
    c->p += used;
    return VKS_OK;
}

/* The phase array and the frames, from the cursor to the end of the file. */
static vks_result read_arrays(rtm_build *b, vks_cursor *c, bmtr_arrays *a, vks_error *err)
{
    const uint8_t *data;
    uint64_t data_at, stream_at;
    vks_result r = read_array(c, a, (size_t)a->frames * 4, a->phase_buf, &data, &data_at, &stream_at, "BMTR/phases", err);
    if (r != VKS_OK)
        return r;
    for (uint32_t f = 0; f < a->frames; f++) {
        float t;
        a->phases[f] = vks_lef32(data + (size_t)f * 4);
        if (!rtm_phase_time(b, a->phases[f], &t)) {
            char path[48];
            snprintf(path, sizeof path, "BMTR/phases[%u]", f);
            return vks_error_set(err, VKS_ERR_FORMAT, data_at != UINT64_MAX ? data_at + (uint64_t)f * 4 : stream_at,
                                 path, "phase %g outside 0..1", (double)a->phases[f]);
        }
    }
    if ((r = rtm_sort_frames(b, a->phases, a->slot, stream_at, err)) != VKS_OK)
        return r;
    for (uint32_t f = 0; f < a->frames; f++) {
        char path[64];
        snprintf(path, sizeof path, "BMTR/frame[%u]", f);
        uint64_t at = vks_cur_offset(c);
        uint32_t count;
        if (!vks_cur_u32(c, &count))
            return rtm_truncated(err, at, path, "bone count", vks_cur_left(c));
        if (count != a->bones)
            return vks_error_set(err, VKS_ERR_FORMAT, at, path, "%u bones, the header has %u", count, a->bones);
        r = read_array(c, a, (size_t)a->bones * RTM_BMTR_BONE_BYTES, a->frame_buf, &data, &data_at, &stream_at, path,
                       err);
        if (r != VKS_OK)
            return r;
        for (uint32_t i = 0; i < a->bones; i++) {
            const uint8_t *p = data + (size_t)i * RTM_BMTR_BONE_BYTES;
            uint64_t bat = data_at != UINT64_MAX ? data_at + (uint64_t)i * RTM_BMTR_BONE_BYTES : stream_at;
            float q[4], t[3];
            for (int k = 0; k < 4; k++)
                q[k] = (float)(int16_t)vks_le16(p + 2 * k) / 16384.0f;
            for (int k = 0; k < 3; k++)
                t[k] = rtm_half_to_float(vks_le16(p + 8 + 2 * k));
            double len = sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3]);
            if (len == 0 || !isfinite(t[0]) || !isfinite(t[1]) || !isfinite(t[2])) {
                snprintf(path, sizeof path, "BMTR/frame[%u]/bone[%u]", f, i);
                return vks_error_set(err, VKS_ERR_FORMAT, bat, path, "%s",
                                     len == 0 ? "zero quaternion" : "translation not finite (half infinity or NaN)");
            }
            size_t key = (size_t)i * a->frames + a->slot[f];
            float *kt = b->translation + key * 3, *kq = b->rotation + key * 4;
            kq[0] = (float)(q[0] / len), kq[1] = (float)(-q[1] / len), kq[2] = (float)(q[2] / len),
            kq[3] = (float)(q[3] / len);
            kt[0] = -t[0], kt[1] = t[1], kt[2] = -t[2];
        }
    }
    if (vks_cur_left(c))
        return vks_error_set(err, VKS_ERR_FORMAT, vks_cur_offset(c), "BMTR", "%zu bytes after the last frame",
                             vks_cur_left(c));
    return VKS_OK;
}

/* An asciiz string at the cursor into the set; path and what name it in errors. */
static vks_result read_string(rtm_build *b, vks_cursor *c, const char **out, const char *path, const char *what,
                              vks_error *err)
{
    uint64_t at = vks_cur_offset(c);
    const char *s;
    size_t len;
    if (!cur_asciiz(c, &s, &len))
        return vks_error_set(err, VKS_ERR_TRUNCATED, at, path, "%s: no NUL before the end of the file", what);
    if (!(*out = vks_clip_set_strndup(b->set, s, len)))
        return vks_error_set(err, VKS_ERR_NOMEM, at, path, "out of memory");
    return VKS_OK;
}

static vks_result read_props(rtm_build *b, vks_cursor *c, vks_error *err)
{
    vks_result r = rtm_event_header(b, c, 10, "BMTR/props", err); /* marker, phase, two NULs */
    if (r != VKS_OK)
        return r;
    for (uint32_t i = 0; i < b->clip->event_count; i++) {
        vks_clip_event *ev = &b->clip->events[i];
        char path[48];
        snprintf(path, sizeof path, "BMTR/prop[%u]", i);
        uint32_t marker;
        if (!vks_cur_u32(c, &marker))
            return rtm_truncated(err, vks_cur_offset(c), path, "property", vks_cur_left(c));
        if ((r = read_string(b, c, &ev->name, path, "name", err)) != VKS_OK ||
            (r = rtm_read_event_phase(b, c, ev, path, err)) != VKS_OK ||
            (r = read_string(b, c, &ev->value, path, "value", err)) != VKS_OK)
            return r;
    }
    return VKS_OK;
}

static vks_result read_bmtr(rtm_build *b, vks_cursor *c, vks_error *err)
{
    static const char *const details[] = {"BMTR v3", "BMTR v4", "BMTR v5"};
    bmtr_arrays a = {0};
    uint32_t unknown, bones2;
    uint8_t one;
    c->p += 4;
    if (!vks_cur_u32(c, &a.version))
        return rtm_truncated(err, 4, "BMTR", "version", vks_cur_left(c));
    if (a.version < 3 || a.version > 5)
        return vks_error_set(err, VKS_ERR_UNSUPPORTED, 4, "BMTR", "version %u, vkskin reads 3, 4 and 5", a.version);
    float *motion = b->clip->motion;
    if (!vks_cur_u8(c, &one) || !vks_cur_f32n(c, motion, 3))
        return rtm_truncated(err, 8, "BMTR", "motion vector", vks_cur_left(c));
    if (!isfinite(motion[0]) || !isfinite(motion[1]) || !isfinite(motion[2]))
        return vks_error_set(err, VKS_ERR_FORMAT, 9, "BMTR", "motion vector not finite");
    uint64_t at = vks_cur_offset(c);
    if (!vks_cur_u32(c, &a.frames) || !vks_cur_u32(c, &unknown) || !vks_cur_u32(c, &a.bones) ||
        !vks_cur_u32(c, &bones2))
        return rtm_truncated(err, at, "BMTR", "frame and bone counts", vks_cur_left(c));
    if (a.bones != bones2)
        return vks_error_set(err, VKS_ERR_FORMAT, at + 12, "BMTR", "bone counts %u and %u differ", a.bones, bones2);
    if (a.bones > b->opt.max_nodes)
        return vks_error_set(err, VKS_ERR_LIMIT, at + 8, "BMTR", "%u bones, over the limit %u (max_nodes)", a.bones,
                             b->opt.max_nodes);
    if (!vks_cur_fits(c, a.bones, 1))
        return vks_error_set(err, VKS_ERR_TRUNCATED, vks_cur_offset(c), "BMTR", "%u bone names, %zu bytes left",
                             a.bones, vks_cur_left(c));
    if (a.frames == 0)
        return vks_error_set(err, VKS_ERR_FORMAT, at, "BMTR", "no frames");
    if ((uint64_t)a.frames * a.bones > b->opt.clip.max_keys)
        return vks_error_set(err, VKS_ERR_LIMIT, at, "BMTR", "%u frames x %u bones, over the key limit %u", a.frames,
                             a.bones, b->opt.clip.max_keys);
    /* each frame holds at least its u32 bone count: bounds every allocation below by the file */
    if (!vks_cur_fits(c, a.frames, 4))
        return vks_error_set(err, VKS_ERR_TRUNCATED, vks_cur_offset(c), "BMTR", "%u frames, %zu bytes left", a.frames,
                             vks_cur_left(c));
    vks_result r = rtm_alloc_tracks(b, a.frames, a.bones, 0, at, err);
    if (r != VKS_OK)
        return r;
    for (uint32_t i = 0; i < a.bones; i++) {
        char path[48];
        snprintf(path, sizeof path, "BMTR/bone[%u]", i);
        if ((r = read_string(b, c, &b->clip->tracks[i].node_name, path, "name", err)) != VKS_OK)
            return r;
    }
    if (a.version >= 4 && (r = read_props(b, c, err)) != VKS_OK)
        return r;
    at = vks_cur_offset(c);
    uint32_t frames2;
    if (!vks_cur_u32(c, &frames2))
        return rtm_truncated(err, at, "BMTR/phases", "phase count", vks_cur_left(c));
    if (frames2 != a.frames)
        return vks_error_set(err, VKS_ERR_FORMAT, at, "BMTR/phases", "%u phases for %u frames", frames2, a.frames);

    a.phase_buf = vks_clip_set_alloc(b->set, a.frames, 4);
    a.frame_buf = vks_clip_set_alloc(b->set, a.bones ? a.bones : 1, RTM_BMTR_BONE_BYTES);
    a.phases = vks_clip_set_alloc(b->set, a.frames, sizeof *a.phases);
    a.slot = vks_clip_set_alloc(b->set, a.frames, sizeof *a.slot);
    if (!a.phase_buf || !a.frame_buf || !a.phases || !a.slot)
        return vks_error_set(err, VKS_ERR_NOMEM, at, "BMTR", "out of memory for %u frames", a.frames);
    vks_cursor arrays = *c;
    a.flagged = a.version >= 5;
    if (a.version != 4)
        r = read_arrays(b, c, &a, err);
    else {
        /* the wiki's layout, then armaio's (see the top of this file) */
        vks_error first = {0}, second = {0};
        r = read_arrays(b, c, &a, &first);
        if (r != VKS_OK && r != VKS_ERR_NOMEM && r != VKS_ERR_LIMIT) {
            *c = arrays;
            a.flagged = 1;
            if (read_arrays(b, c, &a, &second) == VKS_OK) {
                r = VKS_OK;
                vks__log(&b->opt.logger, VKS_LOG_INFO,
                         "BMTR v4 read with a compression flag before each array (armaio's layout)");
            }
        }
        if (r != VKS_OK) {
            if (err && err->code == VKS_OK)
                *err = first;
            return r;
        }
    }
    if (r != VKS_OK)
        return r;
    b->set->format_detail = details[a.version - 3];
    b->clip->space = VKS_CLIP_PARENT_DELTA;
    return VKS_OK;
}

vks_result rtm_bmtr_read(const vks_read_options *opt, const uint8_t *bytes, size_t size, vks_clip_set **out,
                         vks_error *err)
{
    rtm_build b;
    vks_result r = rtm_begin(opt, &b, err);
    if (r != VKS_OK)
        return r;
    vks_cursor c = vks_cur_make(bytes, size);
    if ((r = read_bmtr(&b, &c, err)) != VKS_OK) {
        rtm_abort(&b);
        return r;
    }
    return rtm_finish(&b, out, err);
}
