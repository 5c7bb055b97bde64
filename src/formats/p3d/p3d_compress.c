/* ODOL compressed blocks (notes section 4.4). From v64 a flag byte says whether a block is
 * compressed; before v64 a block is compressed when it holds 1024 bytes or more. v44 and
 * later use LZO1X (liblzo2); earlier files use BI's LZSS, decoded here by hand.
 *
 * liblzo2 does not report how many input bytes a stream used, and ODOL does not store it, so
 * the end is found from the stream's end marker (0x11 0x00 0x00): one decode of all the input
 * left says whether the block decodes, then the shortest prefix that decodes the same ends it. Output sizes are
 * bounded by the largest ratio each codec can reach before anything is allocated. */
#include <lzo/lzo1x.h>
#include <stdio.h>
#include <string.h>

#include "p3d_internal.h"

#define LZO_MAX_RATIO 300u  /* an M4 run adds 255 bytes per input byte */
#define LZSS_MAX_RATIO 9u   /* 17 input bytes give at most 8 * 18 output bytes */
#define LZO_QUICK_CANDIDATES 4 /* end-marker candidates tried in turn before bisecting */

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

/* Decodes the first `len` input bytes; 1 when that reaches the end marker with exactly
 * out_size bytes of output (whether or not input is left after the marker). */
static int lzo_ends_within(const uint8_t *in, size_t len, uint8_t *out, size_t out_size, int *exact)
{
    lzo_uint dst_len = (lzo_uint)out_size;
    int rc = lzo1x_decompress_safe(in, (lzo_uint)len, out, &dst_len, NULL);
    *exact = rc == LZO_E_OK;
    return (rc == LZO_E_OK || rc == LZO_E_INPUT_NOT_CONSUMED) && dst_len == out_size;
}

int p3d_lzo_decode(vks_cursor *c, uint8_t *out, size_t out_size)
{
    static int initialised;
    if (!initialised) {
        if (lzo_init() != LZO_E_OK)
            return 0;
        initialised = 1;
    }
    const uint8_t *start = c->p;
    size_t left = vks_cur_left(c);
    int exact;
    /* One decode of everything left: the decoder stops at the stream's end marker, so this
       says whether the block decodes at all (trying each 0x11 0 0 in turn would redo the
       whole output once per candidate: a crafted block with hundreds of them took a minute). */
    if (!lzo_ends_within(start, left, out, out_size, &exact))
        return 0;
    if (exact) {
        c->p = start + left;
        return 1;
    }
    /* The end is the shortest prefix that still reaches the marker (a shorter one runs out of
       input, a longer one stops at the same marker). Usually the first candidate or so: try
       a few, then bisect, so the work stays a bounded number of decodes. */
    size_t lo = 0, hi = left; /* prefix lo does not reach the end, prefix hi does */
    int tries = 0;
    for (size_t i = 0; i + 3 <= left && tries < LZO_QUICK_CANDIDATES; i++) {
        const uint8_t *q = memchr(start + i, 0x11, left - i - 2);
        if (!q)
            break;
        i = (size_t)(q - start);
        if (q[1] != 0 || q[2] != 0)
            continue;
        tries++;
        if (lzo_ends_within(start, i + 3, out, out_size, &exact)) {
            hi = i + 3;
            break;
        }
        lo = i + 3;
    }
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (lzo_ends_within(start, mid, out, out_size, &exact))
            hi = mid;
        else
            lo = mid;
    }
    c->p = start + hi;
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
