/* PNG files for vkskin render: RGBA8 pixels written by the library's PNG writer
 * (vks_png_write, vat_write.h) through the output module (output.h), so a PNG to "-",
 * /dev/null, a FIFO or a symlink behaves like every other output and a failed write leaves
 * the old file in place. */
#ifndef VKSKIN_CLI_PNG_H
#define VKSKIN_CLI_PNG_H

#include "cli.h"
#include "vkskin/vat_write.h"

/* Writes width x height RGBA8 pixels (rows top to bottom, width * 4 bytes apart) to path.
 * VKS_ERR_IO (with the output's message) when it cannot be written. */
vks_result vks_cli_write_png(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height, vks_error *err);

#endif
