/* PNG files for vkskin render: RGBA8 pixels written with libpng through the output module
 * (output.h), so a PNG to "-", /dev/null, a FIFO or a symlink behaves like every other output
 * and a failed write leaves the old file in place. */
#ifndef VKSKIN_CLI_PNG_H
#define VKSKIN_CLI_PNG_H

#include "cli.h"

/* Writes width x height RGBA8 pixels (rows top to bottom, width * 4 bytes apart) to path.
 * VKS_ERR_IO (with the output's message) when it cannot be written. */
vks_result vks_cli_write_png(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height, vks_error *err);

/* Any PNG the program writes: width x height pixels of `channels` (3: RGB, 4: RGBA) samples of
 * depth bits (8 or 16, 16-bit samples in the host's byte order), rows top to bottom and
 * contiguous. fast: zlib's fastest level with the UP filter alone (textures whose rows are the
 * next frame of the same vertices). linear: a gAMA chunk of 1.0 says the samples are linear
 * (data such as vertex positions), so tools do not take them for sRGB. */
typedef struct vks_cli_png_image {
    const void *pixels;
    uint32_t width, height;
    int depth, channels, fast, linear;
} vks_cli_png_image;
vks_result vks_cli_png_write(const char *path, const vks_cli_png_image *img, vks_error *err);

#endif
