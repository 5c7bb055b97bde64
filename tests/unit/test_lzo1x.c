/* The P3D folder's LZO1X decoder (src/formats/p3d/lzo1x.c: BMTR and ODOL arrays): streams
 * written by hand for each instruction kind and
 * each failure (a literal run, matches near and far, an overlapping match, a cut stream, a
 * match before the start, a bad end marker, too much or too little output), then liblzo2's
 * compressors as the reference: whatever lzo1x_1 and lzo1x_999 write must decode to the
 * input and report the stream's exact length, and the literal-only encoder's streams must
 * decode through liblzo2. Each stream sits in an allocation of its own size, so ASan sees a
 * read past it. */
#include <lzo/lzo1x.h>
#include <string.h>

#include "formats/p3d/lzo1x.h"
#include "testutil.h"

static int decode(const uint8_t *stream, size_t n, size_t out_size, uint8_t *out, size_t *used)
{
    uint8_t *in = malloc(n ? n : 1);
    memcpy(in, stream, n);
    uint8_t *o = malloc(out_size ? out_size : 1);
    int r = vks__lzo1x_decode(in, n, o, out_size, used);
    if (r == VKS__LZO_OK && out)
        memcpy(out, o, out_size);
    free(in);
    free(o);
    return r;
}

static void expect_ok(const char *what, const uint8_t *stream, size_t n, const char *want)
{
    uint8_t out[512];
    size_t used = 0, len = strlen(want);
    int r = decode(stream, n, len, out, &used);
    if (r != VKS__LZO_OK || used != n || memcmp(out, want, len)) {
        fprintf(stderr, "%s: code %d (%s), used %zu of %zu\n", what, r, vks__lzo1x_error_str(r), used, n);
        vks_test_failures++;
    }
}

static void expect_fail(const char *what, const uint8_t *stream, size_t n, size_t out_size, int code)
{
    size_t used = 0;
    int r = decode(stream, n, out_size, NULL, &used);
    if (r != code || used > n) {
        fprintf(stderr, "%s: code %d (%s), expected %d\n", what, r, vks__lzo1x_error_str(r), code);
        vks_test_failures++;
    }
}

static void test_hand_streams(void)
{
    /* first byte 17 + 5: five literals; then the end marker 0x11 0 0 */
    static const uint8_t literal[] = {22, 'h', 'e', 'l', 'l', 'o', 0x11, 0, 0};
    expect_ok("literal run", literal, sizeof literal, "hello");
    /* a literal run after the start: 0 then 0 (255) then 2 -> 18 + 255 + 2 = 275 bytes */
    uint8_t longrun[3 + 275 + 3] = {0, 0, 2};
    char want[276];
    for (int i = 0; i < 275; i++)
        longrun[3 + i] = want[i] = (char)('a' + i % 26);
    want[275] = 0;
    longrun[278] = 0x11;
    expect_ok("extended literal run", longrun, sizeof longrun, want);
    /* "abcd", then x = 0x6C: a match of (0x6C >> 5) + 1 = 4 bytes at 1 + ((0x6C >> 2) & 7) = 4 back */
    static const uint8_t match[] = {21, 'a', 'b', 'c', 'd', 0x6C, 0x00, 0x11, 0, 0};
    expect_ok("match", match, sizeof match, "abcdabcd");
    /* "ab", then 0xA4: 6 bytes from 2 back, overlapping its own output */
    static const uint8_t overlap[] = {19, 'a', 'b', 0xA4, 0x00, 0x11, 0, 0};
    expect_ok("overlapping match", overlap, sizeof overlap, "abababab");
    /* "a", then 0x20 (length 33 + extension 7 = 40), le16 0: distance 1 */
    static const uint8_t m3[] = {18, 'a', 0x20, 0x07, 0x00, 0x00, 0x11, 0, 0};
    expect_ok("long match", m3, sizeof m3, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    /* a match with two trailing literals, then x < 16 in state 2: a 2-byte match 1 + (4 >> 2) = 2 back */
    static const uint8_t m1[] = {21, 'a', 'b', 'c', 'd', 0x6E, 0x00, 'x', 'y', 0x04, 0x00, 0x11, 0, 0};
    expect_ok("short match after trailing literals", m1, sizeof m1, "abcdabcdxyxy");
    /* the empty stream */
    static const uint8_t empty[] = {0x11, 0, 0};
    expect_ok("empty", empty, sizeof empty, "");
    /* input after the end marker is not the stream's */
    static const uint8_t trailing[] = {22, 'h', 'e', 'l', 'l', 'o', 0x11, 0, 0, 0xAA, 0xBB};
    size_t used = 0;
    CHECK_EQ_INT(decode(trailing, sizeof trailing, 5, NULL, &used), VKS__LZO_OK);
    CHECK_EQ_INT(used, 9);

    for (size_t n = 0; n < sizeof match; n++)
        expect_fail("cut stream", match, n, 8, VKS__LZO_INPUT_OVERRUN);
    static const uint8_t before_start[] = {18, 'a', 0x44, 0x00, 0x11, 0, 0}; /* 3 bytes from 2 back */
    expect_fail("match before the start", before_start, sizeof before_start, 4, VKS__LZO_LOOKBEHIND);
    static const uint8_t far_before[] = {21, 'a', 'b', 'c', 'd', 0x00, 0x00, 0x11, 0, 0}; /* 2049 back */
    expect_fail("far match before the start", far_before, sizeof far_before, 7, VKS__LZO_LOOKBEHIND);
    static const uint8_t bad_end[] = {22, 'h', 'e', 'l', 'l', 'o', 0x12, 0, 0};
    expect_fail("end marker of length 4", bad_end, sizeof bad_end, 5, VKS__LZO_BAD_END);
    expect_fail("more output than room", literal, sizeof literal, 4, VKS__LZO_OUTPUT_OVERRUN);
    expect_fail("less output than asked", literal, sizeof literal, 6, VKS__LZO_OUTPUT_SHORT);
    static const uint8_t huge_ext[] = {0, 0, 0, 0, 0, 0, 0, 0};
    expect_fail("length extension past the output", huge_ext, sizeof huge_ext, 100, VKS__LZO_OUTPUT_OVERRUN);
}

/* Inputs with every kind of redundancy: runs, near and far repeats, noise. */
static void fill_input(uint8_t *buf, size_t n, unsigned kind)
{
    uint32_t x = 12345u + kind;
    for (size_t i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        switch (kind % 4) {
        case 0: buf[i] = (uint8_t)(x >> 24); break;                              /* noise */
        case 1: buf[i] = (uint8_t)(i / 300);                                     /* long runs */ break;
        case 2: buf[i] = i > 5000 && (x >> 28) < 12 ? buf[i - 5000] : (uint8_t)(x >> 24); break; /* far */
        default: buf[i] = (x >> 29) < 6 && i > 3 ? buf[i - 1 - (x >> 30)] : (uint8_t)"RTM_bones"[i % 9]; break;
        }
    }
}

static void test_against_liblzo(void)
{
    CHECK_EQ_INT(lzo_init(), LZO_E_OK);
    static const size_t sizes[] = {0, 1, 3, 4, 17, 238, 239, 1024, 3000, 70000};
    lzo_voidp wrk = malloc(LZO1X_999_MEM_COMPRESS > LZO1X_1_MEM_COMPRESS ? LZO1X_999_MEM_COMPRESS : LZO1X_1_MEM_COMPRESS);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (unsigned kind = 0; kind < 4; kind++)
            for (int level = 0; level < 2; level++) {
                size_t n = sizes[s];
                uint8_t *src = malloc(n + 1), *packed = malloc(n + n / 16 + 64 + 3), *back = malloc(n + 1);
                fill_input(src, n, kind);
                lzo_uint plen = 0;
                int rc = level ? lzo1x_999_compress(src, n, packed, &plen, wrk)
                               : lzo1x_1_compress(src, n, packed, &plen, wrk);
                CHECK_EQ_INT(rc, LZO_E_OK);
                size_t used = 0;
                /* three more bytes after the stream: the decoder must stop at its end marker */
                memset(packed + plen, 0x11, 3);
                int r = decode(packed, plen + 3, n, back, &used);
                if (r != VKS__LZO_OK || used != plen || memcmp(back, src, n)) {
                    fprintf(stderr, "liblzo2 %s, %zu bytes, kind %u: code %d (%s), used %zu of %zu\n",
                            level ? "999" : "1", n, kind, r, vks__lzo1x_error_str(r), used, (size_t)plen);
                    vks_test_failures++;
                }
                /* every cut of the stream fails (sampled on the large ones) */
                for (size_t cut = 0; cut < plen; cut += plen > 400 ? 97 : 1)
                    CHECK(decode(packed, cut, n, NULL, NULL) != VKS__LZO_OK);

                vks_bytebuf b = {0};
                vks__lzo1x_encode_literals(&b, src, n);
                lzo_uint dlen = n;
                CHECK(!b.failed);
                CHECK_EQ_INT(lzo1x_decompress_safe(b.data, b.size, back, &dlen, NULL), LZO_E_OK);
                CHECK(dlen == n && !memcmp(back, src, n));
                CHECK_EQ_INT(decode(b.data, b.size, n, NULL, &used), VKS__LZO_OK);
                CHECK_EQ_INT(used, b.size);
                vks_buf_free(&b);
                free(src), free(packed), free(back);
            }
    free(wrk);
}

int main(void)
{
    test_hand_streams();
    test_against_liblzo();
    return vks_test_finish("test_lzo1x");
}
