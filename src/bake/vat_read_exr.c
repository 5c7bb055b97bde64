/* OpenEXR textures read back through the OpenEXR C API (libopenexr-dev; vat_read.h): the
 * library writes them (vks_vat_exr_write, vat_exr.c). The bytes come through a read callback
 * that notes a read the file's end cut short, so that a file cut short says where it ends. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vkskin/vat_read.h"
#include "vat_exr_channels.h"

#ifdef VKSKIN_HAVE_OPENEXR
#include <openexr.h>

static void quiet_errors(exr_const_context_t ctxt, exr_result_t code, const char *msg)
{
    (void)ctxt, (void)code, (void)msg; /* said through vks_error; the library never prints */
}

/* The file, read at the offsets the C API asks for. */
typedef struct exr_source {
    int fd;
    uint64_t size;
    int cut_short; /* a read asked for bytes past the file's end */
} exr_source;

static int64_t source_read(exr_const_context_t ctxt, void *user, void *buf, uint64_t sz, uint64_t offset,
                           exr_stream_error_func_ptr_t error_cb)
{
    (void)ctxt, (void)error_cb;
    exr_source *s = user;
    ssize_t n = pread(s->fd, buf, (size_t)sz, (off_t)offset);
    if (n >= 0 && (uint64_t)n < sz)
        s->cut_short = 1;
    return n;
}

static int64_t source_size(exr_const_context_t ctxt, void *user)
{
    (void)ctxt;
    return (int64_t)((exr_source *)user)->size;
}

/* 4 when the image has an A channel, else 3. */
static int channels_of(exr_context_t ctx)
{
    const exr_attr_chlist_t *list = NULL;
    if (exr_get_channels(ctx, 0, &list) != EXR_ERR_SUCCESS || !list)
        return 3;
    for (int c = 0; c < list->num_channels; c++)
        if (!strcmp(list->entries[c].name.str, "A"))
            return 4;
    return 3;
}

/* One read of an image into px (w x h texels of channels floats). Each chunk is decoded into
 * planes, one a channel, then interleaved: OpenEXR 3.1's interleaving of four half channels into
 * floats writes them in the file's channel order (A, B, G, R) whatever the pointers say. */
typedef struct exr_rows {
    exr_context_t ctx;
    exr_attr_box2i_t dw;
    float *px, *planes; /* planes: a chunk's rows, channel after channel */
    uint32_t w, h, chunk_rows;
    int channels, found;
} exr_rows;

/* Points the decoder's channels wanted at their planes, the others at nothing. */
static void aim_channels(exr_rows *r, exr_decode_pipeline_t *dec)
{
    r->found = 0;
    for (int16_t c = 0; c < dec->channel_count; c++) {
        exr_coding_channel_info_t *ch = &dec->channels[c];
        int k = vks__exr_channel_of(ch->channel_name);
        if (k < 0 || k >= r->channels) {
            ch->decode_to_ptr = NULL; /* a channel we do not want: skipped */
            continue;
        }
        r->found++;
        ch->user_bytes_per_element = 4;
        ch->user_data_type = EXR_PIXEL_FLOAT; /* halves converted by the library */
        ch->user_pixel_stride = 4;
        ch->user_line_stride = (int32_t)r->w * 4;
        ch->decode_to_ptr = (uint8_t *)(r->planes + (size_t)k * r->w * r->chunk_rows);
    }
}

/* A decoded chunk's planes into its rows of px. */
static void interleave(exr_rows *r, const exr_chunk_info_t *ci)
{
    const size_t plane = (size_t)r->w * r->chunk_rows, n = (size_t)r->w * (size_t)ci->height;
    float *out = r->px + (size_t)(ci->start_y - r->dw.min.y) * r->w * (size_t)r->channels;
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < r->channels; k++)
            out[i * (size_t)r->channels + (size_t)k] = r->planes[(size_t)k * plane + i];
}

/* Every scanline chunk decoded into r->px; the C API's result. */
static exr_result_t decode_rows(exr_rows *r)
{
    exr_decode_pipeline_t dec;
    memset(&dec, 0, sizeof dec);
    exr_result_t rv = EXR_ERR_SUCCESS;
    int started = 0;
    for (uint32_t y = 0; y < r->h && rv == EXR_ERR_SUCCESS;) {
        exr_chunk_info_t ci;
        rv = exr_read_scanline_chunk_info(r->ctx, 0, r->dw.min.y + (int)y, &ci);
        if (rv != EXR_ERR_SUCCESS)
            break;
        if ((uint32_t)ci.height > r->chunk_rows) {
            rv = EXR_ERR_CORRUPT_CHUNK;
            break;
        }
        rv = started ? exr_decoding_update(r->ctx, 0, &ci, &dec) : exr_decoding_initialize(r->ctx, 0, &ci, &dec);
        if (rv != EXR_ERR_SUCCESS)
            break;
        aim_channels(r, &dec);
        if (r->found != r->channels) {
            rv = EXR_ERR_INVALID_ATTR;
            break;
        }
        if (!started) {
            rv = exr_decoding_choose_default_routines(r->ctx, 0, &dec);
            started = 1;
        }
        if (rv == EXR_ERR_SUCCESS)
            rv = exr_decoding_run(r->ctx, 0, &dec);
        if (rv == EXR_ERR_SUCCESS)
            interleave(r, &ci);
        y += (uint32_t)ci.height;
    }
    if (started)
        exr_decoding_destroy(r->ctx, &dec);
    return rv;
}

/* A little-endian field of the file. */
static uint64_t le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* Whether the file ends before its chunks do: the C API refuses a chunk whose offset lies past
 * the file's end without reading it, so the table of chunk offsets after the header (a single
 * part scanline image: magic, version, attributes name\0 type\0 size value, a \0) is read
 * here and its last chunk's leader (y, size) checked against the file's size. */
static int chunks_past_end(const exr_source *s, int32_t chunks)
{
    uint8_t head[1 << 14];
    ssize_t n = pread(s->fd, head, sizeof head, 0);
    size_t at = 8;
    while (n > 0 && at < (size_t)n && head[at]) { /* name\0 type\0 size value */
        for (int field = 0; field < 2 && at < (size_t)n; field++)
            at += strnlen((const char *)head + at, (size_t)n - at) + 1;
        if (at + 4 > (size_t)n)
            return 0; /* a header longer than we look at: not said */
        at += 4 + (size_t)le(head + at, 4);
    }
    uint64_t table = at + 1, last = 0;
    if (n <= 0 || at >= (size_t)n || chunks <= 0 || table + 8ull * (uint64_t)chunks > s->size)
        return n > 0 && at < (size_t)n; /* the table itself is cut */
    for (int32_t c = 0; c < chunks; c++) {
        uint8_t e[8];
        if (pread(s->fd, e, 8, (off_t)(table + 8ull * (uint64_t)c)) != 8)
            return 1;
        last = le(e, 8) > last ? le(e, 8) : last;
    }
    uint8_t leader[8];
    if (last + 8 > s->size || pread(s->fd, leader, 8, (off_t)last) != 8)
        return 1;
    return last + 8 + le(leader + 4, 4) > s->size;
}

/* Why the read failed, at the file's end when it ends too soon. */
static vks_result failed(vks_error *err, const exr_source *src, exr_result_t rv, const char *what)
{
    if (src->cut_short)
        return vks_error_set(err, VKS_ERR_TRUNCATED, src->size, NULL, "the file ends here, inside the %s (%s)", what,
                             exr_get_default_error_message(rv));
    return vks_error_set(err, VKS_ERR_FORMAT, VKS_NO_OFFSET, NULL, "not a readable OpenEXR %s: %s", what,
                         exr_get_default_error_message(rv));
}

/* The image's texels, once the header is read. */
static vks_result read_image(exr_rows *r, exr_source *src, int *channels, vks_error *err)
{
    exr_result_t rv = exr_get_data_window(r->ctx, 0, &r->dw);
    if (rv != EXR_ERR_SUCCESS)
        return failed(err, src, rv, "header");
    r->w = (uint32_t)(r->dw.max.x - r->dw.min.x + 1), r->h = (uint32_t)(r->dw.max.y - r->dw.min.y + 1);
    r->channels = *channels ? *channels : channels_of(r->ctx);
    int32_t lines = 1;
    exr_get_scanlines_per_chunk(r->ctx, 0, &lines);
    r->chunk_rows = lines > 0 ? (uint32_t)lines : 1;
    r->px = calloc((size_t)r->w * r->h * (size_t)r->channels + 1, sizeof *r->px);
    r->planes = calloc((size_t)r->w * r->chunk_rows * (size_t)r->channels + 1, sizeof *r->planes);
    if (!r->px || !r->planes)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, NULL, "no memory for a %ux%u image", r->w, r->h);
    src->cut_short = 0; /* the header's reads may ask past a small file's end: only the rows' count */
    rv = decode_rows(r);
    if (rv == EXR_ERR_SUCCESS) {
        *channels = r->channels;
        return VKS_OK;
    }
    int32_t chunks = 0;
    if (!src->cut_short && exr_get_chunk_count(r->ctx, 0, &chunks) == EXR_ERR_SUCCESS)
        src->cut_short = chunks_past_end(src, chunks);
    if (r->found != r->channels && !src->cut_short)
        return vks_error_set(err, VKS_ERR_FORMAT, VKS_NO_OFFSET, NULL, "the image has %d of the %d channels wanted",
                             r->found, r->channels);
    return failed(err, src, rv, "image's chunks");
}

vks_result vks_vat_exr_read(const char *path, int *channels, float **texels, uint32_t *width, uint32_t *height,
                            vks_error *err)
{
    *texels = NULL;
    if (*channels != 0 && *channels != 3 && *channels != 4)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, NULL, "channels %d: 3, 4 or 0", *channels);
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st) != 0) {
        if (f)
            fclose(f);
        return vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, NULL, "cannot open it");
    }
    unsigned char magic[4] = {0};
    if (fread(magic, 1, 4, f) != 4 || memcmp(magic, "\x76\x2f\x31\x01", 4)) {
        fclose(f);
        return vks_error_set(err, VKS_ERR_FORMAT, 0, NULL, "not an OpenEXR image (no 76 2f 31 01 magic number)");
    }
    exr_source src = {fileno(f), (uint64_t)st.st_size, 0};
    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    init.error_handler_fn = quiet_errors;
    init.user_data = &src;
    init.read_fn = source_read;
    init.size_fn = source_size;
    exr_rows r = {0};
    exr_result_t rv = exr_start_read(&r.ctx, path, &init);
    vks_result res = rv == EXR_ERR_SUCCESS ? read_image(&r, &src, channels, err) : failed(err, &src, rv, "header");
    if (r.ctx)
        exr_finish(&r.ctx);
    free(r.planes);
    fclose(f);
    if (res != VKS_OK) {
        free(r.px);
        return res;
    }
    *texels = r.px;
    *width = r.w;
    *height = r.h;
    return VKS_OK;
}

#else /* built without libopenexr-dev */

vks_result vks_vat_exr_read(const char *path, int *channels, float **texels, uint32_t *width, uint32_t *height,
                            vks_error *err)
{
    (void)path, (void)channels, (void)width, (void)height;
    *texels = NULL;
    return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, NULL,
                         "this vkskin was built without OpenEXR (install libopenexr-dev and rebuild)");
}
#endif
