/* EXT_meshopt_compression and KHR_meshopt_compression: a bufferView whose bytes are stored
 * compressed elsewhere (the extension's buffer, byteOffset, byteLength) and decoded by
 * libmeshoptimizer into count elements of byteStride bytes (mode ATTRIBUTES, TRIANGLES or
 * INDICES, then a filter: OCTAHEDRAL, QUATERNION, EXPONENTIAL). The view's own buffer is
 * usually a "fallback" without data, so it is never loaded for a compressed view.
 *
 * The decoder asserts its preconditions rather than reporting them, so every one (stride,
 * count, mode and filter pairs) is checked here first. The decoded size (count x byteStride,
 * or the view's byteLength where larger) is checked against the read options' max input size,
 * over every view and primitive decoded so far, before anything is allocated. Each view is
 * decoded once and kept for the document's life. Errors about the compressed bytes give their
 * offset in the file where they lie in it (a .glb's BIN chunk). */
#include <meshoptimizer.h>
#include <stdio.h>
#include <string.h>

#include "gltf_internal.h"

enum { MODE_ATTRIBUTES, MODE_TRIANGLES, MODE_INDICES };
enum { FILTER_NONE, FILTER_OCTAHEDRAL, FILTER_QUATERNION, FILTER_EXPONENTIAL };

/* The view's meshopt extension object and its name, or NULL. */
const cJSON *vks__gltfr_meshopt_ext(const cJSON *view, const char **name)
{
    const cJSON *ext = cJSON_GetObjectItemCaseSensitive(view, "extensions");
    static const char *const names[] = {"EXT_meshopt_compression", "KHR_meshopt_compression"};
    for (int i = 0; i < 2; i++) {
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(ext, names[i]);
        if (o) {
            *name = names[i];
            return o;
        }
    }
    return NULL;
}

static int pick(const cJSON *v, const char *const *names, int n, int absent)
{
    if (!v)
        return absent;
    for (int i = 0; cJSON_IsString(v) && i < n; i++)
        if (!strcmp(v->valuestring, names[i]))
            return i;
    return -1;
}

/* What the decoder and its filters accept, checked before either runs. */
static vks_result check_shape(gltf_doc *d, const char *path, int mode, int filter, uint64_t count, uint64_t stride)
{
    if (mode == MODE_ATTRIBUTES && (stride == 0 || stride > 256 || stride % 4))
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "ATTRIBUTES: byteStride %llu must be 4..256 and a multiple of 4",
                               (unsigned long long)stride);
    if (mode != MODE_ATTRIBUTES && stride != 2 && stride != 4)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "%s: byteStride %llu must be 2 or 4",
                               mode == MODE_TRIANGLES ? "TRIANGLES" : "INDICES", (unsigned long long)stride);
    if (mode == MODE_TRIANGLES && count % 3)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "TRIANGLES: count %llu is not a multiple of 3",
                               (unsigned long long)count);
    if (filter != FILTER_NONE && mode != MODE_ATTRIBUTES)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "a filter is only for mode ATTRIBUTES");
    if (filter == FILTER_OCTAHEDRAL && stride != 4 && stride != 8)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "OCTAHEDRAL: byteStride %llu must be 4 or 8",
                               (unsigned long long)stride);
    if (filter == FILTER_QUATERNION && stride != 8)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "QUATERNION: byteStride %llu must be 8", (unsigned long long)stride);
    return VKS_OK;
}

/* Checks the decoded size against what is left of the max input size and counts it. */
vks_result vks__gltfr_decoded_budget(gltf_doc *d, const char *path, uint64_t bytes)
{
    uint64_t limit = d->opt.file.max_size;
    if (bytes > limit || d->decoded_bytes > limit - bytes)
        return vks__gltfr_fail(d, VKS_ERR_LIMIT, path,
                               "decompressed data of %llu bytes (after %llu already decompressed) passes the max input "
                               "size of %llu MiB",
                               (unsigned long long)bytes, (unsigned long long)d->decoded_bytes,
                               (unsigned long long)(limit >> 20));
    d->decoded_bytes += bytes;
    return VKS_OK;
}

static vks_result run_decoder(gltf_doc *d, const char *path, int mode, int filter, uint8_t *out, uint64_t count,
                              uint64_t stride, const uint8_t *src, uint64_t len)
{
    int rc;
    if (mode == MODE_ATTRIBUTES)
        rc = meshopt_decodeVertexBuffer(out, (size_t)count, (size_t)stride, src, (size_t)len);
    else if (mode == MODE_TRIANGLES)
        rc = meshopt_decodeIndexBuffer(out, (size_t)count, (size_t)stride, src, (size_t)len);
    else
        rc = meshopt_decodeIndexSequence(out, (size_t)count, (size_t)stride, src, (size_t)len);
    if (rc == -1)
        return vks__gltfr_fail_at(d, VKS_ERR_UNSUPPORTED, src, path, "compressed data of an encoding version that "
                                  "meshoptimizer %d.%d cannot decode (header byte 0x%02x)",
                                  MESHOPTIMIZER_VERSION / 1000, MESHOPTIMIZER_VERSION % 1000 / 10, len ? src[0] : 0);
    if (rc != 0)
        return vks__gltfr_fail_at(d, VKS_ERR_FORMAT, src, path, "malformed compressed data (%llu bytes for %llu elements "
                                  "of %llu bytes; meshoptimizer error %d)", (unsigned long long)len,
                                  (unsigned long long)count, (unsigned long long)stride, rc);
    if (filter == FILTER_OCTAHEDRAL)
        meshopt_decodeFilterOct(out, (size_t)count, (size_t)stride);
    else if (filter == FILTER_QUATERNION)
        meshopt_decodeFilterQuat(out, (size_t)count, (size_t)stride);
    else if (filter == FILTER_EXPONENTIAL)
        meshopt_decodeFilterExp(out, (size_t)count, (size_t)stride);
    return VKS_OK;
}

vks_result vks__gltfr_meshopt_view(gltf_doc *d, int32_t v, const cJSON *ext, const char *ext_name, uint64_t view_length,
                                   const uint8_t **bytes)
{
    char path[96];
    snprintf(path, sizeof path, "bufferViews[%d].extensions.%s", v, ext_name);
    if (!d->view_decoded && !(d->view_decoded = vks__gltfr_alloc(d, d->view_count, sizeof *d->view_decoded)))
        return vks__gltfr_nomem(d, path);
    if (d->view_decoded[v]) {
        *bytes = d->view_decoded[v];
        return VKS_OK;
    }
    static const char *const modes[] = {"ATTRIBUTES", "TRIANGLES", "INDICES"};
    static const char *const filters[] = {"NONE", "OCTAHEDRAL", "QUATERNION", "EXPONENTIAL"};
    int32_t buf = -1;
    uint64_t off = 0, len = 0, stride = 0, count = 0;
    if (!cJSON_IsObject(ext))
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "must be an object");
    vks_result r = vks__gltfr_get_index(d, ext, path, "buffer", 1, d->buffer_count, "buffers", &buf);
    if (r == VKS_OK)
        r = vks__gltfr_get_uint(d, ext, path, "byteOffset", 0, UINT64_MAX / 4, &off);
    if (r == VKS_OK)
        r = vks__gltfr_get_uint(d, ext, path, "byteLength", 1, UINT64_MAX / 4, &len);
    if (r == VKS_OK)
        r = vks__gltfr_get_uint(d, ext, path, "byteStride", 1, 256, &stride);
    if (r == VKS_OK)
        r = vks__gltfr_get_uint(d, ext, path, "count", 1, UINT32_MAX, &count);
    if (r != VKS_OK)
        return r;
    int mode = pick(cJSON_GetObjectItemCaseSensitive(ext, "mode"), modes, 3, -1);
    int filter = pick(cJSON_GetObjectItemCaseSensitive(ext, "filter"), filters, 4, FILTER_NONE);
    if (mode < 0)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "mode must be ATTRIBUTES, TRIANGLES or INDICES");
    if (filter < 0)
        return vks__gltfr_fail(d, VKS_ERR_UNSUPPORTED, path, "filter must be NONE, OCTAHEDRAL, QUATERNION or EXPONENTIAL");
    if ((r = check_shape(d, path, mode, filter, count, stride)) != VKS_OK)
        return r;
    if (count * stride > view_length)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "count %llu x byteStride %llu passes the bufferView's byteLength %llu",
                               (unsigned long long)count, (unsigned long long)stride, (unsigned long long)view_length);
    const gltf_buffer *b = NULL;
    if ((r = vks__gltfr_buffer_get(d, (uint32_t)buf, &b)) != VKS_OK)
        return r;
    if (off > b->byte_length || len > b->byte_length - off)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "byteOffset %llu + byteLength %llu pass the end of buffers[%d] "
                               "(byteLength %llu)", (unsigned long long)off, (unsigned long long)len, buf,
                               (unsigned long long)b->byte_length);
    /* the bound first: the view's length is the file's word, so it is what is checked */
    if ((r = vks__gltfr_decoded_budget(d, path, view_length)) != VKS_OK)
        return r;
    uint8_t *out = vks__gltfr_alloc(d, (size_t)view_length, 1);
    if (!out)
        return vks__gltfr_nomem(d, path);
    if ((r = run_decoder(d, path, mode, filter, out, count, stride, b->data + off, len)) != VKS_OK)
        return r;
    d->view_decoded[v] = out;
    *bytes = out;
    return VKS_OK;
}
