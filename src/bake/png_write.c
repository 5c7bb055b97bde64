/* PNG files (vat_write.h): the VAT's 16-bit textures and the vkskin program's images, written
 * with libpng through the output module. libpng reports errors by longjmp: everything that
 * must survive it lives outside the function that calls setjmp. */
#include "vkskin/output.h"
#include "vkskin/vat_write.h"

#include <png.h>
#include <setjmp.h>

typedef struct png_job {
    const vks_png_image *img;
    FILE *f;
} png_job;

/* 0 on success, -1 when libpng failed (its message went to its error handler). */
static int encode(const png_job *j)
{
    const vks_png_image *im = j->img;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return -1;
    }
    png_init_io(png, j->f);
    if (im->fast) {
        png_set_compression_level(png, 1);
        png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_UP);
    }
    png_set_IHDR(png, info, im->width, im->height, im->depth, im->channels == 4 ? PNG_COLOR_TYPE_RGBA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (im->linear) /* gAMA 1.0 and no sRGB chunk: the samples are data, not sRGB colour */
        png_set_gAMA_fixed(png, info, PNG_GAMMA_LINEAR);
    png_write_info(png, info);
    const uint16_t one = 1;
    if (im->depth == 16 && *(const uint8_t *)&one == 1)
        png_set_swap(png); /* PNG stores 16-bit samples big-endian; the pixels are the host's */
    size_t stride = (size_t)im->width * (size_t)im->channels * (size_t)(im->depth / 8);
    for (uint32_t y = 0; y < im->height; y++)
        png_write_row(png, (png_const_bytep)im->pixels + (size_t)y * stride);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return 0;
}

vks_result vks_png_write(const char *path, const vks_png_image *img, vks_error *err)
{
    vks_output *o = NULL;
    vks_result r = vks_output_open(&o, path, err);
    if (r != VKS_OK)
        return r;
    png_job j = {img, vks_output_stream(o)};
    int ok = encode(&j) == 0 && !ferror(j.f);
    r = vks_output_close(o, ok, err); /* not ok: the temporary goes, the target stays as it was */
    if (r == VKS_OK && !ok)
        r = vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, path, "libpng could not write the image");
    return r;
}

vks_result vks_vat_png16_write(const char *path, const uint16_t *rgb, uint32_t width, uint32_t height,
                               vks_error *err)
{
    /* zlib's fastest level and the UP filter alone (a texture's rows are the next frame of the
       same vertices, so UP is the filter that pays): at the default level the PNG took 60% of a
       bake's time for files 4% smaller (measured over the all-characters manifest); linear:
       the codes are positions and normals, not sRGB colour */
    vks_png_image im = {rgb, width, height, 16, 3, 1, 1};
    return vks_png_write(path, &im, err);
}
