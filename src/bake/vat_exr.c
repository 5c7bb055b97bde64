/* OpenEXR textures through the OpenEXR C API (Debian's libopenexr-dev, openexr.h): see
 * vat_write.h. The C API writes through a callback, which here writes into the output
 * module's stream, so an EXR is renamed into place like every other output. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vkskin/output.h"
#include "vkskin/vat_write.h"

#include "vat_encode.h"
#include "vat_exr_channels.h"

#ifdef VKSKIN_HAVE_OPENEXR
#include <openexr.h>

int vks_vat_exr_available(void) { return 1; }

typedef struct exr_sink {
    FILE *f;
    int errnum;
    uint64_t at; /* where the stream is: the bytes written since the start, or the last seek */
} exr_sink;

/* The library hands chunks with their file offsets; it writes in order, but seek when not.
 * The position is kept here: ftello asked the kernel (an lseek) at every chunk, a row. */
static int64_t sink_write(exr_const_context_t ctxt, void *user, const void *buf, uint64_t size, uint64_t offset,
                          exr_stream_error_func_ptr_t error_cb)
{
    exr_sink *s = user;
    if (s->at != offset && fseeko(s->f, (off_t)offset, SEEK_SET) != 0) {
        s->errnum = errno;
        return -1;
    }
    s->at = offset;
    if (fwrite(buf, 1, size, s->f) != size) {
        s->errnum = errno ? errno : EIO;
        return -1;
    }
    s->at += size;
    return (int64_t)size;
}

static void quiet_errors(exr_const_context_t ctxt, exr_result_t code, const char *msg) {}

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
            int k = vks__exr_channel_of(ch->channel_name);
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

vks_result vks_vat_exr_write(const char *path, const float *texels, uint32_t width, uint32_t height, int channels,
                             vks_vat_texel type, vks_error *err)
{
    size_t n = (size_t)width * height * (size_t)channels;
    uint16_t *halfs = NULL;
    const void *data = texels;
    int elem = 4;
    if (type == VKS_VAT_TEXEL_HALF) {
        halfs = malloc(n * sizeof *halfs + 1);
        if (!halfs)
            return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "no memory for a %ux%u half image",
                                 width, height);
        vks__half_from_floats(texels, halfs, n);
        data = halfs;
        elem = 2;
    }
    vks_output *o = NULL;
    vks_result r = vks_output_open(&o, path, err);
    if (r != VKS_OK) {
        free(halfs);
        return r;
    }
    exr_sink sink = {vks_output_stream(o), 0, 0};
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
    exr_pixel_type_t pt = type == VKS_VAT_TEXEL_HALF ? EXR_PIXEL_HALF : EXR_PIXEL_FLOAT;
    for (int c = 0; c < channels && rv == EXR_ERR_SUCCESS; c++)
        rv = exr_add_channel(ctx, part, vks__exr_channel_names[c], pt, EXR_PERCEPTUALLY_LINEAR, 1, 1);
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

#else /* built without libopenexr-dev */

int vks_vat_exr_available(void) { return 0; }

vks_result vks_vat_exr_write(const char *path, const float *texels, uint32_t width, uint32_t height, int channels,
                             vks_vat_texel type, vks_error *err)
{
    return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, path,
                         "this vkskin was built without OpenEXR (install libopenexr-dev and rebuild)");
}
#endif
