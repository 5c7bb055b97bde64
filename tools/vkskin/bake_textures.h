/* Texture files for vkskin bake (bake_exr.c, bake_png16.c): images of float texels written
 * through the output module (output.h: a temporary renamed into place when complete), and
 * read back for the decode test. Texels are interleaved, channels per texel (3: RGB, 4: RGBA),
 * rows top to bottom. */
#ifndef VKSKIN_BAKE_TEXTURES_H
#define VKSKIN_BAKE_TEXTURES_H

#include <stdint.h>

#include "vkskin.h"

typedef enum vks_texel_type { VKS_TEXEL_FLOAT, VKS_TEXEL_HALF } vks_texel_type;

/* 1 when this build writes OpenEXR (libopenexr-dev was found). */
int vks_exr_available(void);

/* Writes width x height texels of `channels` floats as an OpenEXR scanline image (channels R,
 * G, B[, A]; no compression, so the same texels give the same bytes), each stored as type.
 * HALF rounds to nearest even (vks_half_from_float). VKS_ERR_IO naming path on failure. */
vks_result vks_exr_write(const char *path, const float *texels, uint32_t width, uint32_t height, int channels,
                         vks_texel_type type, vks_error *err);
/* Reads an OpenEXR image's R, G, B[, A] channels as floats: *texels (malloc'ed, free it) of
 * *width x *height x channels. VKS_ERR_FORMAT when it is not one or lacks a channel. */
vks_result vks_exr_read(const char *path, int channels, float **texels, uint32_t *width, uint32_t *height,
                        vks_error *err);

/* A 16-bit RGB PNG of width x height texels of 3 codes each (big-endian in the file, as PNG
 * wants). */
vks_result vks_png16_write(const char *path, const uint16_t *rgb, uint32_t width, uint32_t height, vks_error *err);
/* Reads back a 16-bit RGB PNG: *rgb malloc'ed, width x height x 3 codes. */
vks_result vks_png16_read(const char *path, uint16_t **rgb, uint32_t *width, uint32_t *height, vks_error *err);

#endif
