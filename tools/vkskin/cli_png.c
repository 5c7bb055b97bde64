/* See cli_png.h: the library's PNG writer (vks_png_write, vat_write.h). */
#include "cli_png.h"

vks_result vks_cli_write_png(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height, vks_error *err)
{
    vks_png_image im = {rgba, width, height, 8, 4, 0, 0};
    return vks_png_write(path, &im, err);
}
