/* OpenEXR textures through the OpenEXR C API (Debian's libopenexr-dev, openexr.h): see
 * bake_textures.h. The C API writes through a callback, which here writes into the output
 * module's stream, so an EXR is renamed into place like every other output. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake_textures.h"
#include "vkskin/vat.h"

#ifdef VKSKIN_HAVE_OPENEXR
#include <openexr.h>

int vks_exr_available(void) { return 1; }

typedef struct exr_sink {
    FILE *f;
    int errnum;
} exr_sink;

/* The library hands chunks with their file offsets; it writes in order, but seek when not. */
static int64_t sink_write(exr_const_context_t ctxt, void *user, const void *buf, uint64_t size, uint64_t offset,
                          exr_stream_error_func_ptr_t error_cb)
{
    exr_sink *s = user;
    if ((uint64_t)ftello(s->f) != offset && fseeko(s->f, (off_t)offset, SEEK_SET) != 0) {
        s->errnum = errno;
        return -1;
    }
    if (fwrite(buf, 1, size, s->f) != size) {
        s->errnum = errno ? errno : EIO;
        return -1;
    }
    return (int64_t)size;
}

static void quiet_errors(exr_const_context_t ctxt, exr_result_t code, const char *msg) {}

static const char *const channel_names[4] = {"R", "G", "B", "A"};

static int channel_of(const char *name)
{
    for (int c = 0; c < 4; c++)
        if (!strcmp(name, channel_names[c]))
            return c;
    return -1;
}

/* Writes every scanline; returns the first failing exr_result_t. */
static exr_result_t encode_image(exr_context_t ctx, int part, const void *data, uint32_t width, uint32_t height,
                                 int channels, int elem)
{
    exr_encode_pipeline_t enc;
    memset(&enc, 0, sizeof enc);
    int started = 0;
    exr_result_t rv = EXR_ERR_SUCCESS;
    for (uint32_t y = 0; y < height && rv == EXR_ERR_SUCCESS; y++) {
        exr_chunk_info_t ci;
        rv = exr_write_scanline_chunk_info(ctx, part, (int)y, &ci);
        if (rv != EXR_ERR_SUCCESS)
            break;
        rv = started ? exr_encoding_update(ctx, part, &ci, &enc) : exr_encoding_initialize(ctx, part, &ci, &enc);
        if (rv != EXR_ERR_SUCCESS)
            break;
        for (int16_t c = 0; c < enc.channel_count; c++) {
            exr_coding_channel_info_t *ch = &enc.channels[c];
            int k = channel_of(ch->channel_name);
            ch->user_bytes_per_element = (int16_t)elem;
            ch->user_data_type = ch->data_type;
            ch->user_pixel_stride = channels * elem;
            ch->user_line_stride = (int32_t)width * channels * elem;
            ch->encode_from_ptr = (const uint8_t *)data + ((size_t)ci.start_y * width * channels + (size_t)k) * elem;
        }
        if (!started) {
            rv = exr_encoding_choose_default_routines(ctx, part, &enc);
            started = 1;
        }
        if (rv == EXR_ERR_SUCCESS)
            rv = exr_encoding_run(ctx, part, &enc);
    }
    if (started)
        exr_encoding_destroy(ctx, &enc);
    return rv;
}

vks_result vks_exr_write(const char *path, const float *texels, uint32_t width, uint32_t height, int channels,
                         vks_texel_type type, vks_error *err)
{
    size_t n = (size_t)width * height * (size_t)channels;
    uint16_t *halfs = NULL;
    const void *data = texels;
    int elem = 4;
    if (type == VKS_TEXEL_HALF) {
        halfs = malloc(n * sizeof *halfs + 1);
        if (!halfs)
            return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "no memory for a %ux%u half image",
                                 width, height);
        for (size_t i = 0; i < n; i++)
            halfs[i] = vks_half_from_float(texels[i]);
        data = halfs;
        elem = 2;
    }
    vks_output *o = NULL;
    vks_result r = vks_output_open(&o, path, err);
    if (r != VKS_OK) {
        free(halfs);
        return r;
    }
    exr_sink sink = {vks_output_stream(o), 0};
    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    init.user_data = &sink;
    init.write_fn = sink_write;
    init.error_handler_fn = quiet_errors;
    exr_context_t ctx = NULL;
    int part = 0;
    exr_result_t rv = exr_start_write(&ctx, path, EXR_WRITE_FILE_DIRECTLY, &init);
    if (rv == EXR_ERR_SUCCESS)
        rv = exr_add_part(ctx, "", EXR_STORAGE_SCANLINE, &part);
    if (rv == EXR_ERR_SUCCESS)
        rv = exr_initialize_required_attr_simple(ctx, part, (int32_t)width, (int32_t)height, EXR_COMPRESSION_NONE);
    exr_pixel_type_t pt = type == VKS_TEXEL_HALF ? EXR_PIXEL_HALF : EXR_PIXEL_FLOAT;
    for (int c = 0; c < channels && rv == EXR_ERR_SUCCESS; c++)
        rv = exr_add_channel(ctx, part, channel_names[c], pt, EXR_PERCEPTUALLY_LINEAR, 1, 1);
    if (rv == EXR_ERR_SUCCESS)
        rv = exr_write_header(ctx);
    if (rv == EXR_ERR_SUCCESS)
        rv = encode_image(ctx, part, data, width, height, channels, elem);
    exr_result_t fin = ctx ? exr_finish(&ctx) : EXR_ERR_SUCCESS; /* writes the offset table */
    if (rv == EXR_ERR_SUCCESS)
        rv = fin;
    free(halfs);
    int ok = rv == EXR_ERR_SUCCESS && !sink.errnum;
    if (sink.errnum) {
        /* a failed write: OpenEXR only says "Error writing to stream"; the output names the
           call's error (No space left on device) and removes the temporary */
        vks_output_note_error(o, sink.errnum);
        return vks_output_close(o, 1, err);
    }
    r = vks_output_close(o, ok, err);
    if (r == VKS_OK && !ok)
        r = vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, path, "OpenEXR could not write the image: %s",
                          exr_get_default_error_message(rv));
    return r;
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

int vks_exr_available(void) { return 0; }

vks_result vks_exr_write(const char *path, const float *texels, uint32_t width, uint32_t height, int channels,
                         vks_texel_type type, vks_error *err)
{
    return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, path,
                         "this vkskin was built without OpenEXR (install libopenexr-dev and rebuild)");
}

vks_result vks_exr_read(const char *path, int channels, float **texels, uint32_t *width, uint32_t *height,
                        vks_error *err)
{
    return vks_exr_write(path, NULL, 0, 0, channels, VKS_TEXEL_FLOAT, err);
}
#endif
