#ifndef VKS_BAKE_INTERNAL_H
#define VKS_BAKE_INTERNAL_H

#include <stdio.h>

#include "vkskin/bake.h"
#include "vkskin/output.h"

struct vks_bake {
    FILE *f;         /* vks_output_stream(out) */
    vks_output *out;
    char *path;
    vks_bake_format format;
    const vks_skin *skin;
    uint32_t instances, frames;
    uint32_t *file_to_model; /* file vertex order (meshes in order) -> model vertex */
    uint32_t *mesh_of_file;  /* file vertex -> mesh */
    uint32_t file_vertex_count;
    int in_file_order;       /* file_to_model[j] == j for every j */
    uint64_t written; /* (instance, frame) pairs written */
    char *iobuf;
    float *kept;      /* GLB/GLTF: every frame, file vertex order, xyz then normal xyz, written
                         at close (gltf_bake.c) */
    double start, fps; /* GLB/GLTF: frame f shows at start + f / fps */
};

/* Encoders (bake_formats.c). Each returns 0 on a write error. */
int vks__bake_header(vks_bake *b);
int vks__bake_frame(vks_bake *b, uint32_t instance, uint32_t frame, const float *pos, const float *nrm);
/* glTF (gltf_bake.c): the frames kept so far written as one document to b->f. Returns 0 on a
 * write failure or without memory. */
int vks__bake_gltf_finish(vks_bake *b);

#endif
