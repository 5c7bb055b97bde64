/* LZO1X for the P3D folder's two readers of it: ODOL's compressed arrays (p3d_compress.c) and
 * BMTR's (rtm_bmtr.c). Neither format stores a compressed size, so each reader learns from
 * the decoder where a stream ended; liblzo2 does not say that, hence one decoder by hand
 * (lzo1x.c), checked against liblzo2's compressors by tests/unit/test_lzo1x.c. */
#ifndef VKS_P3D_LZO1X_H
#define VKS_P3D_LZO1X_H

#include <stddef.h>
#include <stdint.h>

#include "core/bytebuf.h"

enum {
    VKS__LZO_OK = 0,
    VKS__LZO_INPUT_OVERRUN = -1,  /* the input ends before the end marker */
    VKS__LZO_OUTPUT_OVERRUN = -2, /* the stream makes more than out_size bytes */
    VKS__LZO_LOOKBEHIND = -3,     /* a match reaches before the output's start */
    VKS__LZO_BAD_END = -4,        /* an end marker whose length is not 3 */
    VKS__LZO_OUTPUT_SHORT = -5    /* the end marker comes before out_size bytes */
};

/* Decodes one LZO1X stream at in (in_size bytes available, more than the stream may follow)
 * into exactly out_size bytes of out. Returns VKS__LZO_OK or a negative code; *in_used (may
 * be NULL) gets the stream's length, end marker included, or where decoding stopped on a
 * failure. Reads nothing past in + in_size, writes nothing past out + out_size. */
int vks__lzo1x_decode(const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size, size_t *in_used);
const char *vks__lzo1x_error_str(int code);
/* Appends a stream of n literal bytes and the end marker (about n + 4 bytes). */
void vks__lzo1x_encode_literals(vks_bytebuf *b, const uint8_t *src, size_t n);

#endif
