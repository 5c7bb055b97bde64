/* Legacy RenderWare .ska reader (librw Animation::streamReadLegacy; animation.md 1): no chunk
 * header, version or interpolator; i32 key count, i32 flags, f32 duration, then 36-byte keys
 * q(4f) t(3f) time prev, the quaternion stored conjugated. Same key stream as a .anm's
 * standard keys otherwise, rebuilt by rw_keys.c. Bytes after the keys are ignored. */
#include "rw_anim_internal.h"

#include <math.h>
#include <string.h>

#define SKA "ska"

vks_result vks_rw_ska_read(const vks_read_options *opt, const void *bytes, size_t size, vks_clip_set **out,
                           vks_error *err)
{
    rwa_entry e;
    if (vks__rwa_enter(&e, opt, bytes, size, out, err, SKA) != VKS_OK)
        return e.err->code;
    err = e.err;
    vks_cursor c = vks_cur_make(bytes, size);
    int32_t count, flags;
    float duration;
    if (!vks_cur_i32(&c, &count) || !vks_cur_i32(&c, &flags) || !vks_cur_f32(&c, &duration))
        return vks_error_set(err, VKS_ERR_TRUNCATED, size & ~(size_t)3, SKA "/header",
                             "a .ska starts with key count, flags and duration (12 bytes), the input has %zu",
                             size);
    vks_result r = vks__rwa_check_header(&e, count, 0, duration, 8, SKA "/header");
    if (r != VKS_OK)
        return r;
    if (!vks_cur_fits(&c, (uint64_t)count, RWA_STD_KEY))
        return vks_error_set(err, VKS_ERR_TRUNCATED, 0, SKA "/keys",
                             "%d keys of 36 bytes need %llu bytes, %zu left", count,
                             (unsigned long long)count * RWA_STD_KEY, vks_cur_left(&c));
    (void)flags;
    rwa_key *keys = vks__rwa_tmp(&e.opt.allocator, (uint32_t)count, sizeof *keys);
    if (!keys)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, SKA, "out of memory for %d keys", count);
    for (int32_t k = 0; k < count; k++) { /* all fit: checked above */
        rwa_key *key = &keys[k];
        key->offset = vks_cur_offset(&c);
        vks_cur_f32n(&c, key->q, 4);
        for (int i = 0; i < 3; i++)
            key->q[i] = -key->q[i]; /* stored conjugated */
        vks_cur_f32n(&c, key->t, 3);
        vks_cur_f32(&c, &key->time);
        vks_cur_i32(&c, &key->prev);
    }
    rwa_stream s;
    memset(&s, 0, sizeof s);
    s.keys = keys;
    s.count = (uint32_t)count;
    s.duration = duration;
    s.path = SKA;
    s.prev_unit = RWA_STD_KEY;
    s.q_field = 0, s.t_field = 16, s.time_field = 28, s.prev_field = 32;
    r = vks__rwa_stream_set(&s, &e.opt, "renderware-ska", "legacy keys", out, err);
    vks__rwa_tmp_free(&e.opt.allocator, keys);
    return r;
}
