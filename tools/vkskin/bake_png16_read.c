/* 16-bit RGB PNG textures (bake_textures.h) read back with libpng for the decode test (the
 * library writes them: vks_vat_png16_write, vat_write.h). libpng reports errors by longjmp: what must
 * survive it lives in a struct outside the function that calls setjmp. */
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>

#include "bake_textures.h"
#include <stdio.h>

typedef struct png16_read_job {
    FILE *f;
    uint16_t *rgb;
    uint8_t *row;
    png_uint_32 width, height;
} png16_read_job;

static int decode(png16_read_job *j)
{
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_read_struct(&png, NULL, NULL);
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        return -1;
    }
    png_init_io(png, j->f);
    png_read_info(png, info);
    int depth, color;
    png_get_IHDR(png, info, &j->width, &j->height, &depth, &color, NULL, NULL, NULL);
    if (depth != 16 || color != PNG_COLOR_TYPE_RGB || j->width > (1u << 24) || j->height > (1u << 24)) {
        png_destroy_read_struct(&png, &info, NULL);
        return -2;
    }
    size_t n = (size_t)j->width * 3;
    j->rgb = malloc(n * j->height * 2 + 2);
    j->row = malloc(n * 2 + 2);
    if (!j->rgb || !j->row) {
        png_destroy_read_struct(&png, &info, NULL);
        return -1;
    }
    for (png_uint_32 y = 0; y < j->height; y++) {
        png_read_row(png, j->row, NULL);
        for (size_t i = 0; i < n; i++)
            j->rgb[(size_t)y * n + i] = (uint16_t)(j->row[2 * i] << 8 | j->row[2 * i + 1]);
    }
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}

vks_result vks_png16_read(const char *path, uint16_t **rgb, uint32_t *width, uint32_t *height, vks_error *err)
{
    png16_read_job j = {fopen(path, "rb"), NULL, NULL, 0, 0};
    if (!j.f)
        return vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, path, "cannot open");
    int rc = decode(&j);
    fclose(j.f);
    free(j.row);
    if (rc != 0) {
        free(j.rgb);
        return vks_error_set(err, VKS_ERR_FORMAT, VKS_NO_OFFSET, path,
                             rc == -2 ? "not a 16-bit RGB PNG" : "libpng could not read the image");
    }
    *rgb = j.rgb;
    *width = (uint32_t)j.width;
    *height = (uint32_t)j.height;
    return VKS_OK;
}
