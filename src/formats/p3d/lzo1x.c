/* LZO1X, decoded by hand (animation.md section 4; p3d.md section 4.4): BMTR and ODOL store no
 * compressed sizes, so their readers must learn from the decoder where a stream ended, which
 * liblzo2's lzo1x_decompress_safe does not say. The encoder writes literal runs only: a valid stream
 * that any LZO1X decoder reads, enough for the writer's fixtures.
 *
 * The stream is a sequence of instructions, each a first byte x and its operands. What x < 16
 * means depends on how many literals the previous instruction copied (the state):
 *   state 0 (start, or a match without trailing literals): a literal run of x + 3 bytes
 *     (x = 0: 18 + 255 per zero byte + the next non-zero byte);
 *   state 1..3 (a match copied that many trailing literals): a 2-byte match at distance
 *     1 + (x >> 2) + (next << 2);
 *   state 4 (a literal run of four or more): a 3-byte match at distance
 *     2049 + (x >> 2) + (next << 2).
 * x >= 64: a match of (x >> 5) + 1 bytes at 1 + ((x >> 2) & 7) + (next << 3);
 * x 32..63: a match of 2 + (x & 31) bytes (0: 33 + extension), distance 1 + (le16 >> 2);
 * x 16..31: a match of 2 + (x & 7) bytes (0: 9 + extension), distance
 *   16384 + ((x & 8) << 11) + (le16 >> 2); distance exactly 16384 is the end marker
 *   (0x11 0x00 0x00 in practice: its length must be 3).
 * Each match is followed by (x or le16's low two bits) 0..3 literals, which set the state.
 * A first byte above 17 is a literal run of x - 17 bytes. Matches may overlap their output
 * (distance < length repeats a pattern), so they copy byte by byte. */
#include <string.h>

#include "lzo1x.h"

const char *vks__lzo1x_error_str(int code)
{
    switch (code) {
    case VKS__LZO_OK:
        return "no error";
    case VKS__LZO_INPUT_OVERRUN:
        return "the stream is cut short";
    case VKS__LZO_OUTPUT_OVERRUN:
        return "the stream decodes to more bytes than the array holds";
    case VKS__LZO_LOOKBEHIND:
        return "a match reaches before the start of the output";
    case VKS__LZO_BAD_END:
        return "an end marker with a length other than 3";
    case VKS__LZO_OUTPUT_SHORT:
        return "the stream ends before the array is complete";
    default:
        return "unknown LZO error";
    }
}

/* The zero bytes of a length extension (255 each) and the byte that ends them. The sum is
 * checked against the output's size as it grows, so it cannot overflow. */
static int ext_length(const uint8_t *in, size_t n, size_t *ip, size_t base, size_t limit, size_t *len)
{
    size_t v = base;
    for (;;) {
        if (*ip >= n)
            return VKS__LZO_INPUT_OVERRUN;
        uint8_t b = in[(*ip)++];
        if (b) {
            v += b;
            break;
        }
        v += 255;
        if (v > limit)
            return VKS__LZO_OUTPUT_OVERRUN;
    }
    *len = v;
    return VKS__LZO_OK;
}

static int copy_literals(const uint8_t *in, size_t n, size_t *ip, uint8_t *out, size_t cap, size_t *op, size_t len)
{
    if (cap - *op < len)
        return VKS__LZO_OUTPUT_OVERRUN;
    if (n - *ip < len)
        return VKS__LZO_INPUT_OVERRUN;
    if (len)
        memcpy(out + *op, in + *ip, len);
    *ip += len;
    *op += len;
    return VKS__LZO_OK;
}

static int copy_match(uint8_t *out, size_t cap, size_t *op, size_t dist, size_t len)
{
    if (dist > *op)
        return VKS__LZO_LOOKBEHIND;
    if (cap - *op < len)
        return VKS__LZO_OUTPUT_OVERRUN;
    uint8_t *d = out + *op;
    const uint8_t *s = d - dist;
    for (size_t i = 0; i < len; i++) /* forwards, one byte at a time: overlaps repeat */
        d[i] = s[i];
    *op += len;
    return VKS__LZO_OK;
}

int vks__lzo1x_decode(const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size, size_t *in_used)
{
    size_t ip = 0, op = 0;
    unsigned state = 0;
    int r = VKS__LZO_OK;
    uint8_t x;

#define NEXT(v)                                                                                                  \
    do {                                                                                                         \
        if (ip >= in_size) {                                                                                     \
            r = VKS__LZO_INPUT_OVERRUN;                                                                          \
            goto done;                                                                                           \
        }                                                                                                        \
        (v) = in[ip++];                                                                                          \
    } while (0)
#define TRY(call)                                                                                                \
    do {                                                                                                         \
        if ((r = (call)) != VKS__LZO_OK)                                                                         \
            goto done;                                                                                           \
    } while (0)

    NEXT(x);
    if (x > 17) {
        size_t len = (size_t)x - 17;
        TRY(copy_literals(in, in_size, &ip, out, out_size, &op, len));
        state = len < 4 ? (unsigned)len : 4;
        NEXT(x);
    }
    for (;;) {
        size_t len, dist;
        unsigned trail;
        if (x < 16) {
            if (state == 0) {
                if (x)
                    len = (size_t)x + 3;
                else
                    TRY(ext_length(in, in_size, &ip, 18, out_size, &len));
                TRY(copy_literals(in, in_size, &ip, out, out_size, &op, len));
                state = 4;
                NEXT(x);
                continue;
            }
            uint8_t hi;
            NEXT(hi);
            if (state < 4) {
                len = 2;
                dist = 1 + (x >> 2) + ((size_t)hi << 2);
            } else {
                len = 3;
                dist = 2049 + (x >> 2) + ((size_t)hi << 2);
            }
            trail = x & 3u;
        } else if (x >= 64) {
            uint8_t hi;
            NEXT(hi);
            len = ((size_t)x >> 5) + 1;
            dist = 1 + ((x >> 2) & 7u) + ((size_t)hi << 3);
            trail = x & 3u;
        } else {
            int far = x < 32;
            size_t mask = far ? 7 : 31;
            if (x & mask)
                len = 2 + (x & mask);
            else
                TRY(ext_length(in, in_size, &ip, 2 + mask, out_size, &len));
            uint8_t lo, hi;
            NEXT(lo);
            NEXT(hi);
            size_t le16 = (size_t)lo | ((size_t)hi << 8);
            trail = lo & 3u;
            if (far) {
                dist = 16384 + ((size_t)(x & 8) << 11) + (le16 >> 2);
                if (dist == 16384) {
                    if (len != 3) {
                        r = VKS__LZO_BAD_END;
                        goto done;
                    }
                    break; /* the end marker */
                }
            } else {
                dist = 1 + (le16 >> 2);
            }
        }
        TRY(copy_match(out, out_size, &op, dist, len));
        TRY(copy_literals(in, in_size, &ip, out, out_size, &op, trail));
        state = trail;
        NEXT(x);
    }
    if (op != out_size)
        r = VKS__LZO_OUTPUT_SHORT;
done:
#undef NEXT
#undef TRY
    if (in_used)
        *in_used = ip;
    return r;
}

void vks__lzo1x_encode_literals(vks_bytebuf *b, const uint8_t *src, size_t n)
{
    if (n > 0 && n <= 238) {
        vks_buf_u8(b, (uint8_t)(17 + n)); /* the first instruction's short literal run */
    } else if (n > 0) {
        /* a literal run of 18 + 255 * zeros + last bytes, last 1..255 */
        size_t rest = n - 18;
        vks_buf_u8(b, 0);
        while (rest > 255) {
            vks_buf_u8(b, 0);
            rest -= 255;
        }
        vks_buf_u8(b, (uint8_t)rest);
    }
    vks_buf_put(b, src, n);
    static const uint8_t end[3] = {0x11, 0x00, 0x00};
    vks_buf_put(b, end, 3);
}
