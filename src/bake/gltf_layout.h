/* Where the skin writer put things, for the clip writer (gltf_skin.c -> gltf_anim.c): one
 * skeleton copy per distinct skin space, each a root node (C * S) followed by the skin's
 * nodes in order. Private to src/bake. */
#ifndef VKS_BAKE_GLTF_LAYOUT_H
#define VKS_BAKE_GLTF_LAYOUT_H

#include "gltf_internal.h"

typedef struct vks__gltf_layout {
    uint32_t node_count;       /* the skin's */
    uint32_t copies;
    uint32_t *copy_of_mesh;    /* per mesh */
    vks_affine_d *copy_space;  /* per copy: S at bind */
    uint32_t *copy_root;       /* per copy: the root's glTF node */
    uint32_t *mesh_node;       /* per mesh: its glTF node (morph weights channels target it) */
} vks__gltf_layout;

/* The glTF node of skin node n in copy c. */
static inline uint32_t vks__gltf_node(const vks__gltf_layout *L, uint32_t c, uint32_t n)
{
    return L->copy_root[c] + 1 + n;
}

/* Curve c's keys as glTF stores them, plus a held key at duration when the curve ends before
 * it (gltf_curve_keys.c): *t (keys), *v (keys x (3 for HERMITE: in-tangent, value, out-tangent) x components;
 * quaternions made unit when unit is 1), both malloc'ed; the key count, 0 without memory. */
uint32_t vks__gltf_curve_keys(const vks_curve *c, float duration, int unit, float **t, float **v);
/* The clip's morph tracks as `weights` channels on the meshes' nodes (gltf_anim_morph.c). */
int vks__gltf_morph_channels(vks__gltf *g, const vks__gltf_layout *L, const vks_skin *skin, const vks_clip *clip,
                             cJSON *samplers, cJSON *channels, vks_gltf_report *rep);

/* One animation per clip (gltf_anim.c). */
vks_result vks__gltf_animations(vks__gltf *g, const vks__gltf_layout *L, const vks_skin *skin,
                                const vks_gltf_clip *clips, uint32_t clip_count, float fps, vks_gltf_report *rep,
                                vks_error *err);

#endif
