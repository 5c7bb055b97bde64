/* vkskin poses: local transforms for every skeleton node, per instance (DESIGN.md section 6).
 *
 * STEP BY STEP
 *   vks_affine *locals = malloc(n * skin->node_count * sizeof *locals);
 *   for (i = 0; i < n; i++)
 *       vks_pose_procedural(skin, seed, i, time, locals + (size_t)i * skin->node_count);
 *   // or: vks_pose_file_parse(skin, json, len, &set, &err); set.locals + frame * node_count
 *
 * Every source produces float32 absolute local transforms (bind locals replaced), so the
 * CPU reference and the GPU start from the same numbers.
 */
#ifndef VKSKIN_POSE_H
#define VKSKIN_POSE_H

#include "skin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The skeleton's bind locals. out: skin->node_count entries. */
VKS_API void vks_pose_bind(const vks_skin *skin, vks_affine *out);

/* Deterministic procedural pose: each node is its bind local followed by a rotation about a
 * node-specific axis (through the node's origin) whose angle swings with time, within
 * +-max_angle radians (<= 0: the default 0.6). Roots are not moved. Same numbers on every
 * machine for the same (seed, instance, time). out: skin->node_count entries. */
VKS_API void vks_pose_procedural(const vks_skin *skin, uint64_t seed, uint32_t instance, float time,
                         float max_angle, vks_affine *out);

/* Frames of locals parsed from a pose file (JSON contract of DESIGN.md section 6). */
typedef struct vks_pose_set {
    uint32_t node_count;
    uint32_t frame_count;
    vks_affine *locals; /* frame_count * node_count, frame-major; free with vks_pose_set_free */
} vks_pose_set;

/* Parses {"nodes": [...]} or {"frames": [{"nodes": [...]}, ...]}. Errors name the entry
 * ("frames[2].nodes[5]: unknown node name \"Bip01 Foo\""). */
VKS_API vks_result vks_pose_file_parse(const vks_skin *skin, const char *json, size_t size,
                               vks_pose_set *out, vks_error *err);
VKS_API void vks_pose_set_free(vks_pose_set *set);

#ifdef __cplusplus
}
#endif
#endif
