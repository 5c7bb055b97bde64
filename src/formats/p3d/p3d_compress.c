/* ODOL compressed blocks (notes section 4.4). From v64 a flag byte says whether a block is
 * compressed; before v64 a block is compressed when it holds 1024 bytes or more. v44 and
 * later use LZO1X, earlier files BI's LZSS, both decoded here by hand: ODOL does not store a
 * compressed size, and the LZO1X decoder the RTM reader shares (lzo1x.h) says where a stream
 * ended, in one pass. Output sizes are bounded by the largest ratio each codec can reach
 * before anything is allocated. */
#include <stdio.h>
#include <string.h>

#include "lzo1x.h"
#include "p3d_internal.h"

#define LZO_MAX_RATIO 300u  /* an M4 run adds 255 bytes per input byte */
#define LZSS_MAX_RATIO 9u   /* 17 input bytes give at most 8 * 18 output bytes */

int p3d_lzss_decode(vks_cursor *c, uint8_t *out, size_t out_size)
{
    uint8_t ring[4096];
    memset(ring, 0x20, sizeof ring);
    size_t r = 4078, n = 0;
    uint32_t sum = 0;
    while (n < out_size) {
        uint8_t flags;
        if (!vks_cur_u8(c, &flags))
            return 0;
        for (int bit = 0; bit < 8 && n < out_size; bit++) {
            if (flags & (1u << bit)) {
                uint8_t v;
                if (!vks_cur_u8(c, &v))
                    return 0;
                out[n++] = v;
                sum += v;
                ring[r] = v;
                r = (r + 1) & 4095;
            } else {
                uint8_t b0, b1;
                if (!vks_cur_u8(c, &b0) || !vks_cur_u8(c, &b1))
                    return 0;
                size_t off = (size_t)b0 | ((size_t)(b1 & 0xF0) << 4);
                size_t len = (size_t)(b1 & 0x0F) + 3;
                size_t from = (r - off) & 4095;
                for (size_t k = 0; k < len && n < out_size; k++) {
                    uint8_t v = ring[(from + k) & 4095];
                    out[n++] = v;
                    sum += v;
                    ring[r] = v;
                    r = (r + 1) & 4095;
                }
            }
        }
    }
    uint32_t check;
    if (!vks_cur_u32(c, &check))
        return 0;
    return check == sum;
}

int p3d_lzo_decode(vks_cursor *c, uint8_t *out, size_t out_size)
{
    size_t used = 0;
    if (vks__lzo1x_decode(c->p, vks_cur_left(c), out, out_size, &used) != VKS__LZO_OK)
        return 0;
    c->p += used;
    return 1;
}

vks_result p3d_read_compressed(p3d_pool *pool, vks_cursor *c, uint32_t version, size_t out_size, const uint8_t **out,
                               const char *path, vks_error *err)
{
    *out = NULL;
    if (out_size == 0)
        return VKS_OK;
    uint64_t at = vks_cur_offset(c);
    int compressed = out_size >= 1024;
    if (version >= 64) {
        uint8_t flag;
        if (!vks_cur_u8(c, &flag))
            return vks_error_set(err, VKS_ERR_TRUNCATED, at, path, "compression flag cut short");
        compressed = flag != 0;
    }
    if (!compressed) {
        if (vks_cur_left(c) < out_size)
            return vks_error_set(err, VKS_ERR_TRUNCATED, vks_cur_offset(c), path,
                                 "%zu stored bytes, %zu bytes left", out_size, vks_cur_left(c));
        *out = c->p;
        c->p += out_size;
        return VKS_OK;
    }
    int lzo = version >= 44;
    size_t left = vks_cur_left(c);
    size_t ratio = lzo ? LZO_MAX_RATIO : LZSS_MAX_RATIO;
    if (out_size / ratio > left + 16)
        return vks_error_set(err, VKS_ERR_TRUNCATED, vks_cur_offset(c), path,
                             "%zu bytes cannot come from the %zu compressed bytes left", out_size, left);
    uint8_t *buf = p3d_alloc(pool, out_size, 1);
    if (!buf)
        return vks_error_set(err, VKS_ERR_NOMEM, at, path, "out of memory for %zu bytes", out_size);
    int ok = lzo ? p3d_lzo_decode(c, buf, out_size) : p3d_lzss_decode(c, buf, out_size);
    if (!ok)
        return vks_error_set(err, VKS_ERR_FORMAT, vks_cur_offset(c), path, "%s block of %zu bytes does not decode",
                             lzo ? "LZO" : "LZSS", out_size);
    *out = buf;
    return VKS_OK;
}
