/* The glTF 2.0 document the writers fill (gltf_doc.c): a JSON tree (cJSON) and one binary
 * buffer, with helpers that append a typed array as a buffer view plus an accessor (with the
 * exact min/max the validator checks), and a writer for .glb or .gltf with the buffer
 * embedded as a base64 data URI. Private to src/bake. */
#ifndef VKS_BAKE_GLTF_INTERNAL_H
#define VKS_BAKE_GLTF_INTERNAL_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "core/bytebuf.h"
#include "vkskin/gltf.h"

enum { VKS__GL_ARRAY_BUFFER = 34962, VKS__GL_ELEMENT_ARRAY_BUFFER = 34963 };

/* An array's length as vks__gltf_push last left it (gltf_doc.c says why). */
typedef struct vks__gltf_count {
    const cJSON *array, *last;
    uint32_t count;
} vks__gltf_count;
enum { VKS__GLTF_COUNTS = 8 };

typedef struct vks__gltf {
    cJSON *root;
    cJSON *nodes, *meshes, *skins, *animations, *accessors, *views, *scene_nodes;
    cJSON *materials, *textures, *images, *samplers;
    vks_bytebuf bin;
    vks__gltf_count counts[VKS__GLTF_COUNTS];
    unsigned counts_next;
    int failed; /* sticky: an allocation failed somewhere */
} vks__gltf;

/* An empty document (asset, one scene). Returns 0 without memory. */
int vks__gltf_init(vks__gltf *g, const char *generator);
void vks__gltf_free(vks__gltf *g);

/* Appends count elements of comps float32 each (comps 1, 2, 3, 4 or 16) as a view and an
 * accessor; minmax adds the per-component min and max. Returns the accessor index. */
/* Mesh m's morph targets as a primitive's `targets` array in file vertex order (NULL when it
 * has none; normals only with with_normals), and the mesh's default weights and target names
 * (gltf_morph_write.c). */
cJSON *vks__gltf_morph_targets(vks__gltf *g, const vks_skin *s, uint32_t m, const uint32_t *file_to_model,
                               int with_normals);
void vks__gltf_morph_mesh(vks__gltf *g, cJSON *mesh, const vks_skin *s, uint32_t m);
uint32_t vks__gltf_floats(vks__gltf *g, const float *v, uint32_t count, int comps, int target, int minmax);
/* The same in two steps, for an array computed straight into the buffer (a morph bake's
 * frames: no copy of its own first): room for count x comps floats at the buffer's end (NULL
 * without memory), then, once they are written there in host order, the view and accessor
 * over them. Nothing may be appended between the two. */
float *vks__gltf_floats_room(vks__gltf *g, uint32_t count, int comps);
uint32_t vks__gltf_floats_placed(vks__gltf *g, uint32_t count, int comps, int target, int minmax);
/* Joint indices (VEC4): unsigned byte when every index < 256, else unsigned short. */
uint32_t vks__gltf_joints(vks__gltf *g, const uint16_t (*j)[4], uint32_t count);
/* Triangle indices (SCALAR unsigned int). */
uint32_t vks__gltf_indices(vks__gltf *g, const uint32_t *idx, uint32_t count);

/* Adds an object to an array and returns its index. */
uint32_t vks__gltf_push(vks__gltf *g, cJSON *array, cJSON *item);
/* Number arrays as JSON, float values exactly as stored in float32. */
cJSON *vks__gltf_numbers(const float *v, int n);

/* Serialises the document to f: GLB (JSON and BIN chunks, 4-byte aligned) or .gltf with the
 * buffer as a data URI. Returns 0 on a write failure or without memory. */
int vks__gltf_emit(vks__gltf *g, FILE *f, vks_gltf_container container);

/* Writes the document to path through vks_output (temporary, renamed when complete). */
vks_result vks__gltf_save(vks__gltf *g, const char *path, vks_gltf_container container, uint64_t *bytes,
                          vks_error *err);

/* Mesh m's triangles as an index accessor in file vertex numbers (as the bake writers number
 * vertices); returns 0 and sets g->failed without memory. */
uint32_t vks__gltf_mesh_indices(vks__gltf *g, const vks_skin *s, uint32_t m);
/* The same, only the triangles of mesh-local material `material` (-1: all). */
uint32_t vks__gltf_mesh_indices_of(vks__gltf *g, const vks_skin *s, uint32_t m, int32_t material);
/* Raw bytes (an image) as a bufferView without a target; returns its index. */
uint32_t vks__gltf_bytes(vks__gltf *g, const uint8_t *bytes, size_t size);
/* The skin's materials as glTF materials (glTF material i = skin material i), with the
 * textures, images and samplers they use (gltf_material.c); what glTF core cannot hold stays
 * named in the material's extras.vkskin. Marks g failed without memory. */
void vks__gltf_materials(vks__gltf *g, const vks_skin *s);
/* The same where the primitives' TEXCOORD_n are the skin's sets with one inserted at
 * shift_from (the bind mesh's VAT lookup): a texture on set k >= shift_from reads k + 1. */
void vks__gltf_materials_shifted(vks__gltf *g, const vks_skin *s, uint32_t shift_from);
/* TEXCOORD_0.. of one primitive's attributes: per file vertex (file_to_model, UINT32_MAX: none)
 * sets first..first+count-1 of the skin written as TEXCOORD_(at + k). */
void vks__gltf_texcoords(vks__gltf *g, cJSON *attr, const vks_skin *s, const uint32_t *file_to_model, uint32_t nv,
                         uint32_t first, uint32_t count, uint32_t at);
/* (x, y, z) made unit into out; 0 when it has no direction (out is then +Y). */
int vks__gltf_unit(double x, double y, double z, float out[3]);
/* An affine as a glTF 4x4 (column-major, last row 0 0 0 1). */
void vks__gltf_mat4(const vks_affine *a, float o[16]);
/* asset.extras.vkskin with the axis correction (16 numbers): what every vkskin glTF records so
 * that a checker maps vkskin's mesh-space results into the glTF's frame. NULL without memory. */
cJSON *vks__gltf_extras(vks__gltf *g, const vks_affine *correction);
/* Node TRS properties from an affine (decomposed; identity parts left out). */
void vks__gltf_node_trs(cJSON *node, const vks_affine *a);

#endif
