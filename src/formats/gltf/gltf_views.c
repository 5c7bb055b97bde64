/* glTF bufferViews: the bytes a view names, checked against its buffer (or decoded from its
 * meshopt extension). Its own unit because accessors (gltf_accessor.c), Draco primitives
 * (gltf_draco.c) and images (gltf_materials.c) all read views, and none of them owns the
 * others. */
#include <stdio.h>

#include "gltf_internal.h"

/* bufferView v's bytes (its byteOffset applied) and its byteLength and byteStride. */
vks_result vks__gltfr_view_bytes(gltf_doc *d, int32_t v, const uint8_t **bytes, uint64_t *length, uint64_t *stride,
                                 uint64_t *offset)
{
    char path[40];
    snprintf(path, sizeof path, "bufferViews[%d]", v);
    const cJSON *o = d->view_at[v];
    int32_t buf = -1;
    uint64_t off = 0, len = 0, st = 0;
    vks_result r = vks__gltfr_get_index(d, o, path, "buffer", 1, d->buffer_count, "buffers", &buf);
    if (r == VKS_OK)
        r = vks__gltfr_get_uint(d, o, path, "byteOffset", 0, UINT64_MAX / 4, &off);
    if (r == VKS_OK)
        r = vks__gltfr_get_uint(d, o, path, "byteLength", 1, UINT64_MAX / 4, &len);
    if (r == VKS_OK)
        r = vks__gltfr_get_uint(d, o, path, "byteStride", 0, 252, &st);
    if (r != VKS_OK)
        return r;
    if (len == 0)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "byteLength must be at least 1");
    if (st && (st < 4 || st % 4))
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "byteStride %llu must be 4..252 and a multiple of 4",
                         (unsigned long long)st);
    *offset = off;
    *length = len;
    *stride = st;
    /* meshopt: the bytes are decoded from the extension's buffer; the view's own is a fallback */
    const char *ext_name = NULL;
    const cJSON *ext = vks__gltfr_meshopt_ext(o, &ext_name);
    if (ext)
        return vks__gltfr_meshopt_view(d, v, ext, ext_name, len, bytes);
    const gltf_buffer *b = NULL;
    if ((r = vks__gltfr_buffer_get(d, (uint32_t)buf, &b)) != VKS_OK)
        return r;
    if (off > b->byte_length || len > b->byte_length - off)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path,
                         "byteOffset %llu + byteLength %llu pass the end of buffers[%d] (byteLength %llu)",
                         (unsigned long long)off, (unsigned long long)len, buf, (unsigned long long)b->byte_length);
    *bytes = b->data + off;
    return VKS_OK;
}
