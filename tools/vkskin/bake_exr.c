/* OpenEXR textures read back for the decode test (bake_textures.h), through the OpenEXR C API
 * (libopenexr-dev); the library writes them (vks_vat_exr_write, vat_write.h). */
#include <stdlib.h>
#include <string.h>

#include "bake_textures.h"

#ifdef VKSKIN_HAVE_OPENEXR
#include <openexr.h>

static void quiet_errors(exr_const_context_t ctxt, exr_result_t code, const char *msg) {}

static const char *const channel_names[4] = {"R", "G", "B", "A"};

static int channel_of(const char *name)
{
    for (int c = 0; c < 4; c++)
        if (!strcmp(name, channel_names[c]))
            return c;
    return -1;
}

vks_result vks_exr_read(const char *path, int channels, float **texels, uint32_t *width, uint32_t *height,
                        vks_error *err)
{
    *texels = NULL;
    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    init.error_handler_fn = quiet_errors;
    exr_context_t ctx = NULL;
    exr_result_t rv = exr_start_read(&ctx, path, &init);
    exr_attr_box2i_t dw;
    memset(&dw, 0, sizeof dw);
    if (rv == EXR_ERR_SUCCESS)
        rv = exr_get_data_window(ctx, 0, &dw);
    if (rv != EXR_ERR_SUCCESS) {
        if (ctx)
            exr_finish(&ctx);
        return vks_error_set(err, VKS_ERR_FORMAT, VKS_NO_OFFSET, path, "not a readable OpenEXR image: %s",
                             exr_get_default_error_message(rv));
    }
    uint32_t w = (uint32_t)(dw.max.x - dw.min.x + 1), h = (uint32_t)(dw.max.y - dw.min.y + 1);
    float *px = calloc((size_t)w * h * (size_t)channels + 1, sizeof *px);
    exr_decode_pipeline_t dec;
    memset(&dec, 0, sizeof dec);
    int started = 0, found = 0;
    for (uint32_t y = 0; px && y < h && rv == EXR_ERR_SUCCESS;) {
        exr_chunk_info_t ci;
        rv = exr_read_scanline_chunk_info(ctx, 0, dw.min.y + (int)y, &ci);
        if (rv != EXR_ERR_SUCCESS)
            break;
        rv = started ? exr_decoding_update(ctx, 0, &ci, &dec) : exr_decoding_initialize(ctx, 0, &ci, &dec);
        if (rv != EXR_ERR_SUCCESS)
            break;
        found = 0;
        for (int16_t c = 0; c < dec.channel_count; c++) {
            exr_coding_channel_info_t *ch = &dec.channels[c];
            int k = channel_of(ch->channel_name);
            if (k < 0 || k >= channels) {
                ch->decode_to_ptr = NULL; /* a channel we do not want: skipped */
                continue;
            }
            found++;
            ch->user_bytes_per_element = 4;
            ch->user_data_type = EXR_PIXEL_FLOAT; /* halves converted by the library */
            ch->user_pixel_stride = channels * 4;
            ch->user_line_stride = (int32_t)w * channels * 4;
            ch->decode_to_ptr = (uint8_t *)(px + ((size_t)(ci.start_y - dw.min.y) * w * channels + (size_t)k));
        }
        if (found != channels) {
            rv = EXR_ERR_INVALID_ATTR;
            break;
        }
        if (!started) {
            rv = exr_decoding_choose_default_routines(ctx, 0, &dec);
            started = 1;
        }
        if (rv == EXR_ERR_SUCCESS)
            rv = exr_decoding_run(ctx, 0, &dec);
        y += (uint32_t)ci.height;
    }
    if (started)
        exr_decoding_destroy(ctx, &dec);
    exr_finish(&ctx);
    if (!px)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "no memory for a %ux%u image", w, h);
    if (rv != EXR_ERR_SUCCESS) {
        free(px);
        if (found != channels)
            return vks_error_set(err, VKS_ERR_FORMAT, VKS_NO_OFFSET, path, "the image has %d of the %d channels wanted",
                                 found, channels);
        return vks_error_set(err, VKS_ERR_FORMAT, VKS_NO_OFFSET, path, "OpenEXR could not read the image: %s",
                             exr_get_default_error_message(rv));
    }
    *texels = px;
    *width = w;
    *height = h;
    return VKS_OK;
}

#else /* built without libopenexr-dev */

vks_result vks_exr_read(const char *path, int channels, float **texels, uint32_t *width, uint32_t *height,
                        vks_error *err)
{
    return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, path,
                         "this vkskin was built without OpenEXR (install libopenexr-dev and rebuild)");
}
#endif
