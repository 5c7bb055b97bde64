/* The counts a Draco mesh declares, read from its header before libdraco runs. libdraco
 * allocates for the faces and points its data claims, from its own heap: a few mutated bytes
 * can claim a billion faces and have it allocate gigabytes before it finds the data short. So
 * the claims are read here first (Draco bitstream 2.2, the version KHR_draco_mesh_compression
 * files carry: header, optional metadata, the connectivity's first counts) and the caller holds
 * them against the primitive's accessors, which the max input size already bounds.
 * Layout (Draco bitstream specification): "DRACO", version major and minor, encoder type
 * (1: triangular mesh), method (0: sequential, 1: edgebreaker), flags (u16; 0x8000: metadata);
 * metadata: per attribute (id, metadata) then the geometry's metadata, each a tree of
 * (key, value) entries and named children; then sequential: faces, points; edgebreaker:
 * traversal type (u8), encoded vertices, faces. Counts are LEB128 varints. */
#include <stdio.h>
#include <string.h>

#include "gltf_internal.h"

typedef struct cursor {
    const uint8_t *p;
    size_t n, at;
} cursor;

static int u8(cursor *c, uint32_t *v)
{
    if (c->at >= c->n)
        return 0;
    *v = c->p[c->at++];
    return 1;
}

static int varint(cursor *c, uint32_t *v)
{
    uint64_t x = 0;
    for (int shift = 0; shift < 35; shift += 7) {
        uint32_t b;
        if (!u8(c, &b))
            return 0;
        x |= (uint64_t)(b & 0x7F) << shift;
        if (!(b & 0x80)) {
            *v = (uint32_t)x;
            return x <= UINT32_MAX;
        }
    }
    return 0;
}

static int skip(cursor *c, uint32_t n)
{
    if (n > c->n - c->at)
        return 0;
    c->at += n;
    return 1;
}

/* One metadata tree: entries (key, value: each a u8 length and bytes), then named children. */
static int metadata(cursor *c, int depth)
{
    uint32_t entries, children, len;
    if (depth > 32 || !varint(c, &entries))
        return 0;
    for (uint32_t i = 0; i < entries; i++)
        if (!u8(c, &len) || !skip(c, len) || !u8(c, &len) || !skip(c, len))
            return 0;
    if (!varint(c, &children))
        return 0;
    for (uint32_t i = 0; i < children; i++)
        if (!u8(c, &len) || !skip(c, len) || !metadata(c, depth + 1))
            return 0;
    return 1;
}

static int all_metadata(cursor *c)
{
    uint32_t atts, id;
    if (!varint(c, &atts))
        return 0;
    for (uint32_t i = 0; i < atts; i++)
        if (!varint(c, &id) || !metadata(c, 0))
            return 0;
    return metadata(c, 0);
}

vks_result vks__gltfr_draco_claims(gltf_doc *d, const char *path, const uint8_t *bytes, size_t size,
                                   gltf_draco_claims *out)
{
    cursor c = {bytes, size, 0};
    uint32_t major = 0, minor = 0, type = 0, flags_lo = 0, flags_hi = 0, traversal = 0;
    memset(out, 0, sizeof *out);
    if (size < 11 || memcmp(bytes, "DRACO", 5))
        return vks__gltfr_fail_at(d, VKS_ERR_FORMAT, bytes, path,
                                  "the data does not start with a Draco header (\"DRACO\")");
    c.at = 5;
    u8(&c, &major), u8(&c, &minor), u8(&c, &type), u8(&c, &out->method), u8(&c, &flags_lo), u8(&c, &flags_hi);
    if (major != 2 || minor != 2)
        return vks__gltfr_fail_at(d, VKS_ERR_UNSUPPORTED, bytes + 5, path,
                                  "Draco bitstream %u.%u (vkskin reads 2.2, the version of KHR_draco_mesh_compression "
                                  "files)", major, minor);
    if (type != 1)
        return vks__gltfr_fail_at(d, VKS_ERR_FORMAT, bytes + 7, path,
                                  "Draco encoder type %u, expected 1 (a triangle mesh)", type);
    if (out->method > 1)
        return vks__gltfr_fail_at(d, VKS_ERR_FORMAT, bytes + 8, path,
                                  "Draco encoding method %u is neither sequential nor edgebreaker", out->method);
    if ((flags_hi & 0x80) && !all_metadata(&c))
        return vks__gltfr_fail_at(d, VKS_ERR_FORMAT, bytes, path, "Draco metadata runs past the data (%zu bytes)",
                                  size);
    int ok = out->method == 0 ? varint(&c, &out->faces) && varint(&c, &out->points)
                              : u8(&c, &traversal) && varint(&c, &out->points) && varint(&c, &out->faces);
    if (!ok)
        return vks__gltfr_fail_at(d, VKS_ERR_FORMAT, bytes, path,
                                  "Draco connectivity header runs past the data (%zu bytes)", size);
    return VKS_OK;
}
