/* A C interface over libdraco's C++ decoder (gltf_draco_shim.cc), for the glTF reader's
 * KHR_draco_mesh_compression (gltf_draco.c). Nothing here throws or aborts: every failure is a
 * nonzero return with a message in msg (cap bytes). The decoded mesh lives in memory that
 * libdraco allocates itself (operator new), released by vks__draco_free. */
#ifndef VKS_FORMATS_GLTF_DRACO_SHIM_H
#define VKS_FORMATS_GLTF_DRACO_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vks_draco_mesh vks_draco_mesh;

/* Decodes size bytes of a Draco triangle mesh. 0 with *out set, or nonzero (a point cloud, or
 * data the decoder refuses) with msg saying why. */
int vks__draco_decode(const uint8_t *bytes, size_t size, vks_draco_mesh **out, char *msg, size_t cap);
uint32_t vks__draco_point_count(const vks_draco_mesh *m);
uint32_t vks__draco_face_count(const vks_draco_mesh *m);
/* The faces' point indices, 3 per face (out holds 3 x face count). */
void vks__draco_faces(const vks_draco_mesh *m, uint32_t *out);
/* The attribute of unique id, comps components per point, converted to the glTF componentType
 * (5120..5126) into out (point count x comps elements of that type). Nonzero, with msg, when
 * there is no such attribute, its component count differs, or a value does not convert (out of
 * the type's range, not finite). */
int vks__draco_attribute(const vks_draco_mesh *m, uint32_t unique_id, int component_type, uint32_t comps, void *out,
                         char *msg, size_t cap);
void vks__draco_free(vks_draco_mesh *m);

#ifdef __cplusplus
}
#endif

#endif
