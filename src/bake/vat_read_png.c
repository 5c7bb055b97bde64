/* 16-bit RGB PNG textures read back with libpng (vat_read.h; vks_vat_png16_write writes them).
 * The bytes come through a read callback that counts them, so an error names the offset where
 * it was found: the file's end for one cut short. libpng reports errors by longjmp: what must
 * survive it lives in a struct outside the function that calls setjmp. */
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

#include "vkskin/vat_read.h"

typedef struct png16_read_job {
    FILE *f;
    uint64_t at;    /* bytes read so far */
    int ended;      /* a read ran past the file's end */
    int not_rgb16;  /* a PNG, but not 16-bit RGB */
    char said[160]; /* libpng's error */
    uint16_t *rgb;
    uint8_t *row;
    png_uint_32 width, height;
    int depth, color;
} png16_read_job;

static void read_bytes(png_structp png, png_bytep out, size_t n)
{
    png16_read_job *j = png_get_io_ptr(png);
    size_t got = fread(out, 1, n, j->f);
    j->at += got;
    if (got != n) {
        j->ended = 1;
        png_error(png, "the file ends here");
    }
}

static void on_error(png_structp png, png_const_charp msg)
{
    png16_read_job *j = png_get_error_ptr(png);
    snprintf(j->said, sizeof j->said, "%s", msg);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg)
{
    (void)png, (void)msg; /* a warning is not a failure; the library never prints */
}

/* The texels as host-order codes, row after row. */
static void read_rows(png_structp png, png16_read_job *j)
{
    size_t n = (size_t)j->width * 3;
    for (png_uint_32 y = 0; y < j->height; y++) {
        png_read_row(png, j->row, NULL);
        for (size_t i = 0; i < n; i++)
            j->rgb[(size_t)y * n + i] = (uint16_t)(j->row[2 * i] << 8 | j->row[2 * i + 1]);
    }
}

/* 0, -1 libpng's error (j->said), -2 not 16-bit RGB, -3 no memory. */
static int decode(png16_read_job *j)
{
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, j, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_read_struct(&png, NULL, NULL);
        return -3;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        return -1;
    }
    png_set_read_fn(png, j, read_bytes);
    png_read_info(png, info);
    png_get_IHDR(png, info, &j->width, &j->height, &j->depth, &j->color, NULL, NULL, NULL);
    if (j->depth != 16 || j->color != PNG_COLOR_TYPE_RGB || j->width > (1u << 24) || j->height > (1u << 24)) {
        png_destroy_read_struct(&png, &info, NULL);
        return -2;
    }
    size_t n = (size_t)j->width * 3;
    j->rgb = malloc(n * j->height * 2 + 2);
    j->row = malloc(n * 2 + 2);
    if (!j->rgb || !j->row) {
        png_destroy_read_struct(&png, &info, NULL);
        return -3;
    }
    read_rows(png, j);
    png_read_end(png, NULL); /* to IEND: a file cut after its rows is cut all the same */
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}

vks_result vks_vat_png16_read(const char *path, uint16_t **rgb, uint32_t *width, uint32_t *height, vks_error *err)
{
    *rgb = NULL;
    png16_read_job j = {.f = fopen(path, "rb")};
    if (!j.f)
        return vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, NULL, "cannot open it");
    int rc = decode(&j);
    fclose(j.f);
    free(j.row);
    if (rc != 0)
        free(j.rgb);
    if (rc == -3)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, NULL, "no memory for the image");
    if (rc == -2) /* IHDR's bit depth is byte 24 of the file */
        return vks_error_set(err, VKS_ERR_FORMAT, 24, "IHDR", "not a 16-bit RGB PNG (depth %d, colour type %d)",
                             j.depth, j.color);
    if (rc == -1 && j.ended)
        return vks_error_set(err, VKS_ERR_TRUNCATED, j.at, NULL, "the file ends here, inside the PNG");
    if (rc == -1)
        return vks_error_set(err, VKS_ERR_FORMAT, j.at, NULL, "not a readable PNG: %s", j.said);
    *rgb = j.rgb;
    *width = (uint32_t)j.width;
    *height = (uint32_t)j.height;
    return VKS_OK;
}
