/* Texture files of vkskin bake read back for the decode test (bake_exr.c, bake_png16_read.c);
 * the library writes them (vat_write.h). Texels are interleaved, channels per texel (3: RGB,
 * 4: RGBA), rows top to bottom. */
#ifndef VKSKIN_BAKE_TEXTURES_H
#define VKSKIN_BAKE_TEXTURES_H

#include <stdint.h>

#include "vkskin.h"
#include "vkskin/vat_write.h"

/* Reads an OpenEXR image's R, G, B[, A] channels as floats: *texels (malloc'ed, free it) of
 * *width x *height x channels. VKS_ERR_FORMAT when it is not one or lacks a channel. */
vks_result vks_exr_read(const char *path, int channels, float **texels, uint32_t *width, uint32_t *height,
                        vks_error *err);

/* Reads back a 16-bit RGB PNG: *rgb malloc'ed, width x height x 3 codes. */
vks_result vks_png16_read(const char *path, uint16_t **rgb, uint32_t *width, uint32_t *height, vks_error *err);

#endif
