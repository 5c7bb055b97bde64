// libdraco's decoder behind the C interface of gltf_draco_shim.h. C++ stays in this file:
// every entry point catches what the decoder may throw (std::bad_alloc), so no exception
// crosses into the C library. Point and value indices are checked against the decoded sizes
// before each read, as libdraco's accessors do not check them.
#include "gltf_draco_shim.h"

#include <cstdio>
#include <memory>
#include <new>

#include <draco/compression/decode.h>
#include <draco/mesh/mesh.h>

struct vks_draco_mesh {
    std::unique_ptr<draco::Mesh> mesh;
};

static int say(char *msg, size_t cap, const char *text)
{
    std::snprintf(msg, cap, "%s", text);
    return 1;
}

extern "C" int vks__draco_decode(const uint8_t *bytes, size_t size, vks_draco_mesh **out, char *msg, size_t cap)
{
    *out = nullptr;
    try {
        draco::DecoderBuffer buffer;
        buffer.Init(reinterpret_cast<const char *>(bytes), size);
        auto type = draco::Decoder::GetEncodedGeometryType(&buffer);
        if (!type.ok())
            return say(msg, cap, type.status().error_msg());
        if (type.value() != draco::TRIANGULAR_MESH)
            return say(msg, cap, "the Draco data is a point cloud, not a triangle mesh");
        draco::Decoder decoder;
        auto decoded = decoder.DecodeMeshFromBuffer(&buffer);
        if (!decoded.ok())
            return say(msg, cap, decoded.status().error_msg());
        std::unique_ptr<vks_draco_mesh> m(new vks_draco_mesh);
        m->mesh = std::move(decoded).value();
        if (!m->mesh)
            return say(msg, cap, "the Draco decoder returned no mesh");
        *out = m.release();
        return 0;
    } catch (const std::bad_alloc &) {
        return say(msg, cap, "out of memory in the Draco decoder");
    } catch (...) {
        return say(msg, cap, "the Draco decoder failed");
    }
}

extern "C" uint32_t vks__draco_point_count(const vks_draco_mesh *m)
{
    return m->mesh->num_points();
}

extern "C" uint32_t vks__draco_face_count(const vks_draco_mesh *m)
{
    return m->mesh->num_faces();
}

extern "C" void vks__draco_faces(const vks_draco_mesh *m, uint32_t *out)
{
    uint32_t n = m->mesh->num_faces();
    for (uint32_t f = 0; f < n; f++) {
        const draco::Mesh::Face &face = m->mesh->face(draco::FaceIndex(f));
        for (int k = 0; k < 3; k++)
            out[3 * (size_t)f + k] = face[k].value();
    }
}

// Every point's value converted to T, comps per point.
template <typename T>
static int convert(const draco::PointAttribute *att, uint32_t points, uint32_t comps, T *out, char *msg, size_t cap)
{
    if (!att->is_mapping_identity() && att->indices_map_size() < points)
        return say(msg, cap, "the attribute maps fewer points than the mesh has");
    for (uint32_t p = 0; p < points; p++) {
        draco::AttributeValueIndex v = att->mapped_index(draco::PointIndex(p));
        if (v.value() >= att->size()) {
            std::snprintf(msg, cap, "point %u refers to value %u of %zu", p, v.value(), att->size());
            return 1;
        }
        if (!att->ConvertValue<T>(v, (int8_t)comps, out + (size_t)p * comps)) {
            std::snprintf(msg, cap, "point %u: a value does not convert to the accessor's component type", p);
            return 1;
        }
    }
    return 0;
}

extern "C" int vks__draco_attribute(const vks_draco_mesh *m, uint32_t unique_id, int component_type, uint32_t comps,
                                    void *out, char *msg, size_t cap)
{
    try {
        const draco::PointAttribute *att = m->mesh->GetAttributeByUniqueId(unique_id);
        if (!att)
            return say(msg, cap, "the Draco data has no attribute of this id");
        if (att->num_components() != comps) {
            std::snprintf(msg, cap, "the Draco attribute has %d components, the accessor %u", att->num_components(),
                          comps);
            return 1;
        }
        uint32_t points = m->mesh->num_points();
        switch (component_type) {
        case 5120: return convert(att, points, comps, static_cast<int8_t *>(out), msg, cap);
        case 5121: return convert(att, points, comps, static_cast<uint8_t *>(out), msg, cap);
        case 5122: return convert(att, points, comps, static_cast<int16_t *>(out), msg, cap);
        case 5123: return convert(att, points, comps, static_cast<uint16_t *>(out), msg, cap);
        case 5125: return convert(att, points, comps, static_cast<uint32_t *>(out), msg, cap);
        case 5126: return convert(att, points, comps, static_cast<float *>(out), msg, cap);
        default: return say(msg, cap, "unknown componentType");
        }
    } catch (...) {
        return say(msg, cap, "the Draco attribute could not be read");
    }
}

extern "C" void vks__draco_free(vks_draco_mesh *m)
{
    delete m;
}
