/* RenderWare HAnim .anm reader (animation.md 1): one Animation chunk (0x1B), version 0x100,
 * interpolator 1 (standard 36-byte keys) or 2 (compressed 22-byte keys with the custom data's
 * offset and scalar after them). Any other interpolator is VKS_ERR_UNSUPPORTED. The keys
 * become one clip through rw_keys.c; bytes after the chunk are ignored. */
#include "rw_anim_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define ANM "anm"

static vks_result decode_std(vks_cursor *c, rwa_key *keys, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++) { /* all n keys fit: checked by the caller */
        rwa_key *key = &keys[k];
        key->offset = vks_cur_offset(c);
        vks_cur_f32(c, &key->time);
        vks_cur_f32n(c, key->q, 4);
        vks_cur_f32n(c, key->t, 3);
        vks_cur_i32(c, &key->prev);
    }
    return VKS_OK;
}

static vks_result decode_compressed(vks_cursor *c, rwa_key *keys, uint32_t n, vks_error *err)
{
    /* the custom data (offset, scalar) follows the keys: read it first */
    vks_cursor custom = *c;
    vks_cur_skip(&custom, (size_t)n * RWA_COMPRESSED_KEY);
    uint64_t at = vks_cur_offset(&custom);
    float offset[3], scalar[3];
    if (!vks_cur_f32n(&custom, offset, 3) || !vks_cur_f32n(&custom, scalar, 3))
        return vks_error_set(err, VKS_ERR_TRUNCATED, at, ANM "/custom_data",
                             "the compressed keys' offset and scalar need 24 bytes, %zu left", vks_cur_left(c));
    for (int i = 0; i < 3; i++)
        if (!isfinite(offset[i]) || !isfinite(scalar[i]))
            return vks_error_set(err, VKS_ERR_FORMAT, at + 4 * (uint64_t)(isfinite(offset[i]) ? 3 + i : i),
                                 ANM "/custom_data", "translation offset or scalar %d is not finite", i);
    for (uint32_t k = 0; k < n; k++) {
        rwa_key *key = &keys[k];
        uint16_t h[7];
        key->offset = vks_cur_offset(c);
        vks_cur_f32(c, &key->time);
        for (int i = 0; i < 7; i++)
            vks_cur_u16(c, &h[i]);
        vks_cur_i32(c, &key->prev);
        for (int i = 0; i < 4; i++)
            key->q[i] = vks__rwa_decompress(h[i]);
        /* a zero scalar (the encoder divided by it) leaves the offset alone */
        for (int i = 0; i < 3; i++)
            key->t[i] = vks__rwa_decompress(h[4 + i]) * scalar[i] + offset[i];
    }
    return VKS_OK;
}

vks_result vks_rw_anm_read(const vks_read_options *opt, const void *bytes, size_t size, vks_clip_set **out,
                           vks_error *err)
{
    rwa_entry e;
    if (vks__rwa_enter(&e, opt, bytes, size, out, err, ANM) != VKS_OK)
        return e.err->code;
    err = e.err;
    if (size < 12)
        return vks_error_set(err, VKS_ERR_TRUNCATED, 0, ANM,
                             "a .anm starts with a 12-byte chunk header, the input has %zu byte(s)", size);
    vks_cursor file = vks_cur_make(bytes, size);
    uint32_t type, csize, stamp;
    vks_cur_u32(&file, &type);
    vks_cur_u32(&file, &csize);
    vks_cur_u32(&file, &stamp); /* any RW version: the layout did not change */
    if (type != RWA_CHUNK_ANIMATION)
        return vks_error_set(err, VKS_ERR_FORMAT, 0, ANM,
                             "chunk type 0x%x, expected an Animation chunk (0x1b): not a RenderWare .anm", type);
    vks_cursor c;
    if (!vks_cur_sub(&file, csize, &c))
        return vks_error_set(err, VKS_ERR_TRUNCATED, 4, ANM, "the chunk declares %u payload bytes, only %zu left",
                             csize, vks_cur_left(&file));
    int32_t version, interp, count, flags;
    float duration;
    size_t body = vks_cur_left(&c);
    if (!vks_cur_i32(&c, &version) || !vks_cur_i32(&c, &interp) || !vks_cur_i32(&c, &count) ||
        !vks_cur_i32(&c, &flags) || !vks_cur_f32(&c, &duration))
        return vks_error_set(err, VKS_ERR_TRUNCATED, 12 + (body & ~(size_t)3), ANM "/header",
                             "expected version, interpolator, key count, flags and duration (20 bytes), the "
                             "chunk holds %zu",
                             body);
    if (version != RWA_ANIM_VERSION)
        return vks_error_set(err, VKS_ERR_FORMAT, 12, ANM "/header/version", "version 0x%x, expected 0x100",
                             (unsigned)version);
    if (interp != RWA_INTERP_STD && interp != RWA_INTERP_COMPRESSED)
        return vks_error_set(err, VKS_ERR_UNSUPPORTED, 16, ANM "/header/interpolator",
                             "interpolator type %d (0x%x): only HAnim keys are read, 1 (standard) and 2 "
                             "(compressed); 0x1c0/0x1c1 are UV animations, others game-specific",
                             interp, (unsigned)interp);
    vks_result r = vks__rwa_check_header(&e, count, 20, duration, 28, ANM "/header");
    if (r != VKS_OK)
        return r;
    size_t key_size = interp == RWA_INTERP_STD ? RWA_STD_KEY : RWA_COMPRESSED_KEY;
    if (!vks_cur_fits(&c, (uint64_t)count, key_size))
        return vks_error_set(err, VKS_ERR_TRUNCATED, 20, ANM "/keys",
                             "%d keys of %zu bytes need %llu bytes, the chunk has %zu left", count, key_size,
                             (unsigned long long)count * key_size, vks_cur_left(&c));
    (void)flags; /* 0 in every file; librw keeps it and nothing reads it */

    rwa_key *keys = vks__rwa_tmp(&e.opt.allocator, (uint32_t)count, sizeof *keys);
    if (!keys)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, ANM, "out of memory for %d keys", count);
    rwa_stream s;
    memset(&s, 0, sizeof s);
    s.keys = keys;
    s.count = (uint32_t)count;
    s.duration = duration;
    s.path = ANM;
    if (interp == RWA_INTERP_STD) {
        s.prev_unit = RWA_STD_KEY;
        s.time_field = 0, s.q_field = 4, s.t_field = 20, s.prev_field = 32;
        r = decode_std(&c, keys, (uint32_t)count);
    } else {
        s.prev_unit = RWA_COMPRESSED_UNIT;
        s.time_field = 0, s.q_field = 4, s.t_field = 12, s.prev_field = 18;
        r = decode_compressed(&c, keys, (uint32_t)count, err);
    }
    if (r == VKS_OK)
        r = vks__rwa_stream_set(&s, &e.opt, "renderware-anm",
                                interp == RWA_INTERP_STD ? "standard keys" : "compressed keys", out, err);
    vks__rwa_tmp_free(&e.opt.allocator, keys);
    return r;
}
