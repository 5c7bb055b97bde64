/* glTF 2.0 reader internals: the document (JSON from a .gltf or a .glb's JSON chunk), its
 * buffers (a .glb's BIN chunk, base64 data: URIs, external files through the read options'
 * file callback), typed accessor decoding, and the node forest. The model reader
 * (gltf_read.c) and the clip reader (gltf_clips.c) both start from a gltf_doc.
 *
 * Errors name the JSON path ("meshes[2].primitives[0].attributes.JOINTS_0") and, for bytes of
 * a .glb's header and chunks, the byte offset; numbers from the file are never trusted: every
 * index, count, offset and stride is checked against what it refers to before it is used.
 * Every temporary goes through the read options' allocator and is listed in the document, so
 * one vks__gltfr_doc_free releases it all, on success or failure. Internal functions are
 * vks__gltfr_* (the reader's; the writer in src/bake has vks__gltf_*). */
#ifndef VKS_FORMATS_GLTF_INTERNAL_H
#define VKS_FORMATS_GLTF_INTERNAL_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "core/vec.h"
#include "formats/file_internal.h"
#include "vkskin/clip_formats.h"
#include "vkskin/formats.h"

/* componentType values of the specification */
enum {
    GLTF_BYTE = 5120,
    GLTF_UNSIGNED_BYTE = 5121,
    GLTF_SHORT = 5122,
    GLTF_UNSIGNED_SHORT = 5123,
    GLTF_UNSIGNED_INT = 5125,
    GLTF_FLOAT = 5126
};

typedef struct gltf_buffer {
    const uint8_t *data; /* NULL until loaded */
    size_t size;         /* bytes available (>= the buffer's byteLength once loaded) */
    uint64_t byte_length;
    void *file_bytes;    /* an external file's bytes, released through the file callback */
    char *file;          /* that file's resolved path (the allocator's), NULL for the others */
} gltf_buffer;

typedef struct gltf_doc {
    vks_read_options opt; /* defaults applied */
    vks_error *err;
    cJSON *json;
    const cJSON *nodes, *meshes, *skins, *accessors, *views, *animations;
    uint32_t node_count, mesh_count, skin_count, accessor_count, view_count;
    /* the arrays' elements by index (cJSON lists are linked: walking one per lookup would make
       a file of n nodes cost n^2) */
    const cJSON **node_at, **mesh_at, **skin_at, **accessor_at, **view_at, **buffer_at;
    int32_t *parent;       /* per node: its parent, -1 for a root */
    const char **names;    /* per node: the name tracks and skin nodes share (see gltf_doc.c) */
    gltf_buffer *buffers;
    uint32_t buffer_count;
    const uint8_t *bin;    /* a .glb's BIN chunk */
    size_t bin_size;
    const uint8_t *input;  /* the bytes read (a .glb's BIN chunk lies in them), input_size long */
    size_t input_size;
    int glb;
    uint64_t files_bytes;  /* the document's bytes and every external file read: one budget */
    int quantized;         /* KHR_mesh_quantization: integer POSITION / NORMAL allowed */
    int draco;             /* KHR_draco_mesh_compression is used: primitives may hold Draco data */
    /* Compressed geometry, decoded on first use (gltf_meshopt.c, gltf_draco.c): per bufferView
       its meshopt-decoded bytes, per accessor the bytes its Draco primitive decoded for it, and
       per accessor the Draco primitive that owns it (index into draco_prims, -1: none). Every
       decoded byte counts against opt.file.max_size (decoded_bytes so far). */
    const uint8_t **view_decoded, **accessor_decoded;
    int32_t *draco_owner;
    struct gltf_draco_prim *draco_prims;
    uint32_t draco_prim_count;
    uint64_t decoded_bytes;
    char detail[112];      /* "glTF 2.0 (.glb, generator ...; geometry extensions)" */
    vks_vec temps;         /* every temporary block, freed by gltf_doc_free */
} gltf_doc;

/* Parses bytes as a .glb or a .gltf (opt->gltf.path: where external buffers are found),
 * checks the top-level arrays and the node forest (indices, one parent each, no cycle). */
vks_result vks__gltfr_doc_open(gltf_doc *d, const vks_read_options *opt, const void *bytes, size_t size, vks_error *err);
void vks__gltfr_doc_free(gltf_doc *d);

/* uri (a buffer's) resolved against base (the .gltf's path) by the one rule of gltf_uri.c:
 * *out gets the file's path through o's allocator; a refusal returns its code with the reason
 * in why. */
vks_result vks__gltfr_resolve_uri(const vks_read_options *o, const char *base, const char *uri, char **out,
                                  char *why, size_t why_cap);

/* registry.h's side_files of glTF (gltf_side_files.c). */
vks_result vks__gltfr_side_files(const vks_read_options *o, const char *path, vks_side_file_fn visit, void *user,
                                 vks_error *err);
/* EXT_ / KHR_meshopt_compression (gltf_meshopt.c): the view's extension object (and its name)
 * or NULL; the view's bytes decoded from it, view_length (its byteLength) bytes, on first use. */
const cJSON *vks__gltfr_meshopt_ext(const cJSON *view, const char **name);
vks_result vks__gltfr_meshopt_view(gltf_doc *d, int32_t v, const cJSON *ext, const char *ext_name, uint64_t view_length,
                                   const uint8_t **bytes);
/* Counts bytes more of decompressed data, refused (VKS_ERR_LIMIT naming path) where the total
 * would pass the read options' max input size. Called before the bytes are allocated. */
vks_result vks__gltfr_decoded_budget(gltf_doc *d, const char *path, uint64_t bytes);
/* KHR_draco_mesh_compression (gltf_draco.c): the bytes of accessor index when a Draco
 * primitive supplies them (the primitive decoded on first use: the accessor's count of
 * tightly packed elements of its own type), *bytes NULL when none does. */
vks_result vks__gltfr_draco_accessor(gltf_doc *d, int32_t index, const uint8_t **bytes);

/* What a Draco mesh's header claims (gltf_draco_header.c), read before libdraco allocates for
 * it: method 0 (sequential: points is the point count) or 1 (edgebreaker: points is the
 * encoded vertex count, at most the point count); faces. Bitstream 2.2 only; errors name path. */
typedef struct gltf_draco_claims {
    uint32_t method, faces, points;
} gltf_draco_claims;
vks_result vks__gltfr_draco_claims(gltf_doc *d, const char *path, const uint8_t *bytes, size_t size,
                                   gltf_draco_claims *out);

/* A zeroed temporary block listed in the document; NULL (with the error set) on failure. */
void *vks__gltfr_alloc(gltf_doc *d, size_t count, size_t elem);
/* err with the JSON path built from fmt (printf), the message from msg_fmt. Returns code. */
vks_result vks__gltfr_fail(gltf_doc *d, vks_result code, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
vks_result vks__gltfr_nomem(gltf_doc *d, const char *path);
/* vks__gltfr_fail with the byte offset in the file of p, where p lies in the bytes read (a
 * .glb's BIN chunk); else none. For errors about binary data: compressed geometry. */
vks_result vks__gltfr_fail_at(gltf_doc *d, vks_result code, const uint8_t *p, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Members with the specification's types. Each returns VKS_OK with *out set (or left at its
 * default when the member is absent and not required), or an error naming path.name. */
vks_result vks__gltfr_get_index(gltf_doc *d, const cJSON *obj, const char *path, const char *name, int required,
                          uint32_t limit, const char *what, int32_t *out);
vks_result vks__gltfr_get_uint(gltf_doc *d, const cJSON *obj, const char *path, const char *name, int required,
                         uint64_t max, uint64_t *out);
vks_result vks__gltfr_get_floats(gltf_doc *d, const cJSON *obj, const char *path, const char *name, uint32_t n,
                           float *out);
/* The element at index i of array arr (an object), or NULL. */
const cJSON *vks__gltfr_item(const cJSON *arr, uint32_t i);

/* A decoded accessor: count elements of comps components each. */
typedef struct gltf_values {
    uint32_t count, comps;
    int type;       /* componentType */
    int normalized;
} gltf_values;

/* Accessor rules the caller asks for: which component types, which element sizes. */
typedef struct gltf_accessor_want {
    const char *type;      /* "SCALAR", "VEC3", ... (NULL: any) */
    uint32_t types;        /* bit (componentType - 5120) per allowed type */
    int normalized;        /* 1: integer types must be normalized; 0: must not be; -1: either */
    int no_stride;         /* index accessors: the bufferView must have no byteStride */
    int attribute;         /* vertex attributes: every element starts on a 4-byte boundary */
} gltf_accessor_want;
#define GLTF_BIT(t) (1u << ((t) - GLTF_BYTE))

/* Decodes accessor index as where asks (path names the referring member, e.g.
 * "meshes[0].primitives[1].attributes.POSITION"): floats (normalized integers by the
 * specification's formulas) or integers. Sparse substitution applied; min/max ignored. */
vks_result vks__gltfr_accessor_floats(gltf_doc *d, int32_t index, const char *path, const gltf_accessor_want *want,
                                gltf_values *info, float **out);
vks_result vks__gltfr_accessor_uints(gltf_doc *d, int32_t index, const char *path, const gltf_accessor_want *want,
                               gltf_values *info, uint32_t **out);

/* bufferView v's bytes (gltf_views.c; its byteOffset applied), byteLength, byteStride and byteOffset, checked
 * against its buffer (loaded on first use). */
vks_result vks__gltfr_view_bytes(gltf_doc *d, int32_t v, const uint8_t **bytes, uint64_t *length, uint64_t *stride,
                                 uint64_t *offset);

/* The document's materials, textures, images and samplers into the skin's arrays
 * (gltf_materials.c): images embedded (bufferView, data: URI) are copied, others keep their
 * URI. Every index checked; a texture without a source (an extension's image) has none. */
vks_result vks__gltfr_materials(gltf_doc *d, vks_skin *skin);
/* A primitive's TEXCOORD_0..3 (while present), each with vcount elements; *sets gets how many. */
vks_result vks__gltfr_texcoords(gltf_doc *d, const char *ppath, const cJSON *attrs, uint32_t vcount,
                                float (*uv[VKS_MAX_UV_SETS])[2], uint32_t *sets);

/* A primitive's weight sets (gltf_influences.c). */
typedef struct gltf_influence_sets {
    uint32_t sets;
    uint32_t *joints[8];
    float *weights[8];
} gltf_influence_sets;
/* JOINTS_n / WEIGHTS_n pairs, n = 0.. while present (both or neither; JOINTS_0 required), each
 * with vcount elements and every joint < joint_count; ppath names the primitive. */
vks_result vks__gltfr_influences(gltf_doc *d, const char *ppath, const cJSON *attrs, uint32_t vcount,
                                 uint32_t joint_count, gltf_influence_sets *is);
/* Where the merged influences go: slots 0..3 and 4..7 (bone_more and weight_more NULL when the
 * primitive has one set, which fills at most four), and each vertex's stored sum. */
typedef struct gltf_influence_out {
    uint16_t (*bone)[4];
    float (*weight)[4];
    uint16_t (*bone_more)[4];
    float (*weight_more)[4];
    float *stored;
} gltf_influence_out;
/* What the merge found, added up over primitives: vertices with more than 4 positive weights
 * (all kept), with more than 8 (kept to the 8 largest) and the largest weight so dropped. */
typedef struct gltf_influence_counts {
    uint32_t over_four, truncated;
    float truncated_max;
} gltf_influence_counts;
/* Per vertex: the 8 largest weights of all sets (ties: earlier sets and slots first), scaled to
 * sum 1, into *out's arrays (allocated from the document; ppath names the primitive when out of
 * memory); stored gets the sum of the positive weights as stored. */
vks_result vks__gltfr_largest_eight(gltf_doc *d, const char *ppath, const gltf_influence_sets *is, uint32_t vcount,
                                    gltf_influence_out *out, gltf_influence_counts *c);

/* A column-major 4x4 as an affine; 0 when its last row is not (0, 0, 0, 1) within 1e-5. */
int vks__gltfr_matrix_affine(const float m[16], vks_affine *out);
/* Local transform of node n (TRS or matrix), checked. */
vks_result vks__gltfr_node_local(gltf_doc *d, uint32_t n, vks_affine *out);

/* Buffer i (< buffer_count) loaded on first use; holds at least its byteLength. */
vks_result vks__gltfr_buffer_get(gltf_doc *d, uint32_t i, const gltf_buffer **out);

/* Base64 (RFC 4648, padding optional) into out (cap bytes); returns bytes written, or -1 on a
 * character outside the alphabet or misplaced padding. */
int64_t vks__gltfr_base64_decode(const char *text, size_t len, uint8_t *out, size_t cap);

#endif
