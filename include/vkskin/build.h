/* vkskin model builder: turns a mesh as a file stores it (file vertices, per-vertex influences
 * over the mesh's bones, triangles, and either the file's own bone groups or a palette limit)
 * into the canonical layout of skin.h: contiguous groups, palette-local influences, vertices
 * duplicated where groups with different palettes share them, and the map back to file
 * vertices. Every reader and the generator use it, so the grouping rules live in one place.
 *
 * STEP BY STEP
 *   vks_skin *s = vks_skin_create(NULL); ... fill s->nodes, s->node_count ...
 *   vks_skin_builder *b = vks_builder_create(s);
 *   vks_mesh_source m = {0}; ... fill ...; vks_builder_add_mesh(b, &m, &err);
 *   vks_builder_finish(b, &err);        // writes the arrays into s and frees b (also on error)
 *
 * THREADS
 *   A builder and the skin it makes belong to one thread until the build is finished; separate
 *   builds may run on separate threads.
 */
#ifndef VKSKIN_BUILD_H
#define VKSKIN_BUILD_H

#include "skin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One group as the file defines it (RW split data, NIF partition, NW4C primitive set). */
typedef struct vks_group_source {
    const uint32_t (*triangles)[3]; /* file vertex indices of the mesh */
    const uint16_t *triangle_material; /* optional, parallel to triangles */
    uint32_t triangle_count;
    const uint32_t *vertices;       /* optional: extra file vertices that belong to the group
                                       even when no triangle uses them */
    uint32_t vertex_count;
    /* optional per-file-vertex influences for this group (mesh bone indices); NULL: the
       mesh's. Lets a file vertex mean different bones in different groups (NW4C palettes). */
    const uint16_t (*bone)[4];
    const float (*weight)[4];
    /* optional: the file's palette (mesh bone indices, in the file's order); NULL: the sorted
       bones the group's vertices use. A used bone missing from a given palette is an error. */
    const uint16_t *palette;
    uint32_t palette_count;
    uint32_t flags; /* VKS_GROUP_* */
} vks_group_source;

typedef struct vks_mesh_source {
    const char *name;
    uint32_t vertex_count;          /* file vertices */
    const float (*positions)[3];
    const float (*normals)[3];      /* NULL: no normals */
    const uint16_t (*bone)[4];      /* per file vertex: mesh bone index per slot */
    const float (*weight)[4];       /* per file vertex: weight per slot; 0 means unused, a
                                       negative weight is dropped (and counted in
                                       skin->weights), a non-finite one is refused */
    /* optional, per file vertex: slots 4..7 (a second set of four, glTF JOINTS_1/WEIGHTS_1),
       the same rules as bone and weight; NULL: none. Groups of the file with their own
       influences (vks_group_source.bone) use only their four. */
    const uint16_t (*bone_more)[4];
    const float (*weight_more)[4];
    const float *stored_weight_sum; /* optional, per file vertex: the sum of the weights as the
                                       file stores them, when the reader has already applied
                                       its format's rule (NIF's top 4, .cmdl's renormalisation)
                                       to `weight`; NULL: `weight` is as stored. Feeds only
                                       skin->weights (inspect's report) */
    uint32_t triangle_count;
    const uint32_t (*triangles)[3]; /* file vertex indices; used when group_count == 0 */
    const uint16_t *triangle_material; /* optional, parallel to triangles */
    uint32_t bone_count;
    const vks_bone *bones;          /* the mesh's bones (node, inverse bind) */
    int32_t space_node;             /* see vks_mesh */
    vks_affine space_pre;           /* zeroed: identity */
    uint32_t flags;                 /* VKS_MESH_*; HAS_NORMALS is set from normals != NULL */
    /* optional: UV sets per file vertex (skin.h's convention, v from the top), sets
       0..uv_set_count-1 non-NULL; copied with the vertices the groups duplicate */
    const float (*uv[VKS_MAX_UV_SETS])[2];
    uint32_t uv_set_count;
    /* the mesh's range in skin->materials (filled by the reader before or after the build;
       checked by vks_skin_validate); triangle_material indexes it */
    uint32_t first_material, material_count;

    /* Grouping: the file's groups when group_count > 0; otherwise groups are built from the
       triangles under palette_limit bones each (0: one group with all the mesh's bones).
       File vertices that no group reaches are placed in groups under the same limit. */
    const vks_group_source *groups;
    uint32_t group_count;
    uint32_t palette_limit;
} vks_mesh_source;

typedef struct vks_skin_builder vks_skin_builder;

/* A builder that adds meshes to skin (whose nodes are already filled); NULL without memory. */
VKS_API vks_skin_builder *vks_builder_create(vks_skin *skin);
/* Checks every index of the source (bone slots, triangle indices) and weight (finite) and
 * reports bad ones with the mesh's name; the source's arrays are copied, so they may be freed
 * after the call. Counts stored weight sums and repairs into the skin's weight report. */
VKS_API vks_result vks_builder_add_mesh(vks_skin_builder *b, const vks_mesh_source *m, vks_error *err);
/* Moves the built arrays into the skin (replacing its mesh, group, bone, palette, vertex and
   triangle arrays) and frees the builder, also when it fails. */
VKS_API vks_result vks_builder_finish(vks_skin_builder *b, vks_error *err);
/* Frees the builder without touching the skin. NULL is fine. */
VKS_API void vks_builder_destroy(vks_skin_builder *b);

#ifdef __cplusplus
}
#endif
#endif
