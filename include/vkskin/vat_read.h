/* vkskin VAT readers: the texture files a bake writes (vat_write.h), read back into memory for a
 * host that plays them without a GPU importer of its own (an engine's loader, a tool, a test):
 * OpenEXR images as floats, 16-bit PNGs as their codes. The sidecar (NAME.vat.json) says what
 * the texels mean: vat.h has the layout's arithmetic (vks_vat_row, vks_vat_column) and the
 * encodings' (vks_vat_dequantize16 with the sidecar's bounds). Since 0.8.
 *
 * STEP BY STEP
 *   int channels = 3; float *tex; uint32_t w, h;
 *   vks_vat_exr_read("hero.vat.pos.f32.exr", &channels, &tex, &w, &h, &err);
 *   texel of vertex v in frame g: tex[((size_t)vks_vat_row(&lay, g, v) * w + vks_vat_column(&lay, v)) * 3 + k]
 *   free(tex);
 *     or 16-bit PNG: uint16_t *codes; vks_vat_png16_read("hero.vat.pos.png", &codes, &w, &h, &err);
 *                    x = vks_vat_dequantize16(codes[i], bounds_min[k], bounds_max[k]); free(codes);
 *
 * A file cut short fails with VKS_ERR_TRUNCATED at the offset where it ends
 * (vks_error_format: "hero.vat.pos.png:0x2f1: the file ends here, inside the PNG"), one that is
 * not what it should be with VKS_ERR_FORMAT (with the offset where it can be told), one that
 * cannot be opened with VKS_ERR_IO.
 *
 * THREADS: reentrant; separate files from separate threads.
 */
#ifndef VKSKIN_VAT_READ_H
#define VKSKIN_VAT_READ_H

#include <stdint.h>

#include "core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An OpenEXR image's R, G, B (and A) channels as floats, half channels converted: *texels
 * (malloc'ed, free it) of *width x *height texels of *channels floats, interleaved, rows top to
 * bottom, as vks_vat_exr_write takes them. *channels in: 3 (R, G, B) or 4 (R, G, B, A) wanted,
 * or 0 for what the image has (4 with an A channel, else 3); out: the count read.
 * VKS_ERR_FORMAT when it is not a readable OpenEXR image or lacks a channel wanted,
 * VKS_ERR_TRUNCATED when the file ends before its header or its chunks do,
 * VKS_ERR_UNSUPPORTED in a library built without OpenEXR (vks_vat_exr_available). Since 0.8. */
VKS_API vks_result vks_vat_exr_read(const char *path, int *channels, float **texels, uint32_t *width,
                                    uint32_t *height, vks_error *err);

/* A 16-bit RGB PNG (vks_vat_png16_write's): *rgb (malloc'ed, free it) of *width x *height
 * texels of 3 codes, rows top to bottom. VKS_ERR_FORMAT when it is not a PNG or not 16-bit RGB
 * (at offset 24, the header's bit depth), VKS_ERR_TRUNCATED when it ends before its IEND chunk.
 * Since 0.8. */
VKS_API vks_result vks_vat_png16_read(const char *path, uint16_t **rgb, uint32_t *width, uint32_t *height,
                                      vks_error *err);

#ifdef __cplusplus
}
#endif
#endif
