/* glTF morph targets into the skin model (gltf_morph.c). */
#ifndef VKS_GLTF_MORPH_H
#define VKS_GLTF_MORPH_H

#include "gltf_internal.h"

/* One primitive's targets as the file gives them, per file vertex (document temporaries). */
typedef struct gltf_morph_prim {
    uint32_t mesh;           /* the model mesh the primitive became */
    uint32_t target_count;   /* 0: the primitive has no targets */
    uint32_t vertex_count;   /* file vertices */
    uint32_t normal_targets; /* targets with NORMAL deltas kept (the primitive has normals) */
    float **pos, **nrm;      /* per target: vertex_count * 3 deltas; nrm[t] NULL without NORMAL */
    float *weights;          /* per target: the default weight */
    const cJSON *names;      /* the mesh's extras.targetNames, or NULL */
    const char *node_name;   /* the node's, as clips name it (its `weights` channels) */
} gltf_morph_prim;

/* The targets of primitive prim (ppath names it) of mesh, placed by glTF node `node`, over vcount file
 * vertices; NORMAL deltas only when the primitive has normals. target_count 0 when it has none. */
vks_result vks__gltfr_morph_read(gltf_doc *d, const cJSON *prim, const char *ppath, const cJSON *mesh,
                                 uint32_t node, uint32_t vcount, int has_normals, gltf_morph_prim *out);

/* The read primitives' targets into the built skin (count primitives, in mesh order). */
vks_result vks__gltfr_morph_attach(gltf_doc *d, vks_skin *skin, const gltf_morph_prim *prims, uint32_t count);

#endif
