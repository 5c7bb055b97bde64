/* Private to the NIF reader (src/formats/nif/): the parsed file (header, string table,
 * blocks), the bounded block reader with error paths, and the per-block structures the
 * model builder needs. Layouts follow ../shared/formats/nif.md and nif_blocks.md; versions
 * are compared as integers (NIF_V). Matrices are kept as the file stores them (9 floats,
 * row-major for column vectors, nif.md section 5) until nif_model.c converts them. */
#ifndef VKS_NIF_INTERNAL_H
#define VKS_NIF_INTERNAL_H

#include <stdint.h>

#include "core/bytebuf.h"
#include "core/cursor.h"
#include "vkskin/formats.h"

#define NIF_V(a, b, c, d) (((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) | ((uint32_t)(c) << 8) | (uint32_t)(d))
#define NIF_NONE (-1)

/* A NIF transform as stored: p_parent = s * (R p) + t, R[row][col] = r[3*row + col]. */
typedef struct nif_xform {
    float t[3];
    float r[9];
    float s;
} nif_xform;

typedef enum nif_kind {
    NIF_K_OTHER = 0, /* parsed or skipped, not needed by the model */
    NIF_K_NODE,
    NIF_K_SHAPE,     /* NiTriShape / NiTriStrips */
    NIF_K_BSTRISHAPE,
    NIF_K_GEOMDATA,  /* NiTriShapeData / NiTriStripsData */
    NIF_K_SKININST,  /* NiSkinInstance / BSDismemberSkinInstance */
    NIF_K_SKINDATA,
    NIF_K_SKINPART,
    NIF_K_ANIM,      /* an animation block, parsed by nif_kf_*.c (u.anim) */
    NIF_K_TEXPROP,   /* NiTexturingProperty: its base texture (u.texprop) */
    NIF_K_SOURCETEX, /* NiSourceTexture: its file name (u.srctex) */
    NIF_K_MATPROP,   /* NiMaterialProperty: name, diffuse colour, alpha (u.matprop) */
    NIF_K_BSSHADER,  /* BSLightingShaderProperty (Skyrim): texture set, alpha (u.bsshader) */
    NIF_K_TEXSET     /* BSShaderTextureSet: its first (diffuse) texture (u.texset) */
} nif_kind;

typedef struct nif_node {
    const char *name;
    nif_xform xf;
    uint32_t child_count;
    const int32_t *children;
} nif_node;

typedef struct nif_shape {
    const char *name;
    nif_xform xf;
    int32_t data, skin;
    int strips;
    uint32_t prop_count;   /* NiAVObject properties (bsver <= 34) */
    const int32_t *props;
    int32_t shader;        /* Shader Property ref (bsver > 34); NIF_NONE otherwise */
    /* BSTriShape (SSE) only: its own vertex data when DataSize > 0 */
    uint32_t vertex_count, triangle_count;
    const float (*positions)[3];
    const float (*normals)[3];
    const uint32_t (*triangles)[3];
    const float (*uv)[2]; /* NULL without the VertexDesc UV attribute */
} nif_shape;

typedef struct nif_geomdata {
    uint32_t vertex_count;
    const float (*positions)[3]; /* NULL when the file has none */
    const float (*normals)[3];   /* NULL when absent */
    uint32_t triangle_count;     /* real triangles (strips converted, degenerates dropped) */
    const uint32_t (*triangles)[3];
    uint32_t stored_triangles;   /* NumTriangles as stored */
    uint32_t uv_sets;            /* the first VKS_MAX_UV_SETS of the file's */
    const float (*uv[VKS_MAX_UV_SETS])[2];
} nif_geomdata;

typedef struct nif_skininst {
    int32_t data, partition, root;
    uint32_t bone_count;
    const int32_t *bones;
} nif_skininst;

typedef struct nif_bonedata {
    nif_xform s2b;
    uint32_t weight_count; /* 0 when the file omits the weights */
    const uint16_t *vertex;
    const float *weight;
} nif_bonedata;

typedef struct nif_skindata {
    nif_xform overall;
    int32_t partition; /* 4.0.0.2 .. 10.1.0.0 */
    int has_weights;
    uint32_t bone_count;
    const nif_bonedata *bones;
} nif_skindata;

typedef struct nif_partition {
    uint32_t vertex_count, bone_count, weights_per_vertex;
    const uint16_t *bones;        /* palette: partition slot -> skin bone */
    const uint16_t *vertex_map;   /* partition vertex -> shape vertex; NULL: identity */
    const float *weights;         /* [vertex_count][weights_per_vertex] or NULL */
    const uint8_t *bone_indices;  /* [vertex_count][weights_per_vertex] or NULL */
    uint32_t triangle_count;      /* real triangles, partition-local indices */
    const uint32_t (*triangles)[3];
} nif_partition;

typedef struct nif_skinpart {
    uint32_t part_count;
    const nif_partition *parts;
    /* SSE (bsver 100): the shared vertex buffer */
    uint32_t vertex_count;
    const float (*positions)[3];
    const float (*normals)[3];
    const uint8_t (*sse_bones)[4];
    const float (*sse_weights)[4];
    const float (*uv)[2]; /* NULL without the VertexDesc UV attribute */
} nif_skinpart;

typedef struct nif_block {
    const char *type;
    uint64_t offset; /* file offset of the block body */
    nif_kind kind;
    union {
        nif_node node;
        nif_shape shape;
        nif_geomdata geom;
        nif_skininst inst;
        nif_skindata data;
        nif_skinpart part;
        struct {
            int32_t base_source; /* NiSourceTexture of the base texture slot; -1 none */
            uint32_t uv_set;
        } texprop;
        struct {
            const char *file; /* "" for an internal texture */
        } srctex;
        struct {
            const char *name;
            float diffuse[3], alpha;
        } matprop;
        struct {
            const char *name;
            int32_t texture_set; /* BSShaderTextureSet ref; -1 none */
            float alpha;
        } bsshader;
        struct {
            const char *diffuse; /* textures[0]; "" when the set has none */
        } texset;
        struct {
            uint32_t tag;     /* which of the animation module's structures data is */
            const void *data; /* in the scratch arena */
        } anim;
    } u;
} nif_block;

typedef struct nif_file {
    vks_skin *scratch; /* arena for everything parsed (freed with the read) */
    vks_read_options opt;
    uint32_t ver, user, bsver;
    uint32_t block_count;
    uint32_t type_count;
    const char **types;        /* block type table (>= 5.0.0.1) */
    const uint16_t *type_index;
    const uint32_t *block_size; /* >= 20.2.0.5, else NULL */
    uint32_t string_count;
    const char **strings;      /* header string table (>= 20.1.0.1) */
    nif_block *blocks;
    uint32_t root_count;
    const int32_t *roots;
    int want_anim;      /* parse animation blocks even where block sizes let the walk skip
                           them (the clip reader); without sizes they are always parsed */
    uint64_t key_total; /* animation keys read so far, against opt.clip.max_keys */
} nif_file;

/* Reads one block's fields; the error path names the block, its type and the field. */
typedef struct nif_rd {
    vks_cursor c;
    nif_file *f;
    vks_error *err;
    uint32_t block;
    const char *type;
} nif_rd;

/* ---- nif_stream.c: primitive reads; each returns 1, or 0 with err set ---- */
int nif_fail(nif_rd *r, vks_result code, const char *field, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
int nif_u8(nif_rd *r, uint8_t *v, const char *field);
int nif_u16(nif_rd *r, uint16_t *v, const char *field);
int nif_u32(nif_rd *r, uint32_t *v, const char *field);
int nif_i32(nif_rd *r, int32_t *v, const char *field);
int nif_f32(nif_rd *r, float *v, const char *field);
int nif_skip(nif_rd *r, uint64_t count, size_t elem, const char *field);
int nif_bool(nif_rd *r, int *v, const char *field); /* u32 up to 4.0.0.2, u8 after */
/* A count of elements of elem bytes each that must fit in the bytes left. */
int nif_count32(nif_rd *r, uint32_t *n, size_t elem, const char *field);
int nif_count16(nif_rd *r, uint32_t *n, size_t elem, const char *field);
int nif_sized_string(nif_rd *r, const char **out, const char *field);
/* "string": a SizedString up to 20.0.0.5, a string-table index after. out may be NULL. */
int nif_string(nif_rd *r, const char **out, const char *field);
int nif_refs(nif_rd *r, uint32_t *n, const int32_t **out, const char *field); /* u32 n + n refs */
int nif_xform_trs(nif_rd *r, nif_xform *x, const char *field);  /* T, R, S (NiAVObject) */
int nif_xform_rts(nif_rd *r, nif_xform *x, const char *field); /* R, T, S (NiTransform) */
void *nif_alloc(nif_rd *r, uint64_t count, size_t elem, const char *field);
/* nt triangles of three u16 indices, checked against the bytes left; NULL on failure. */
uint32_t (*nif_triangles_u16(nif_rd *r, uint32_t nt))[3];
/* Converts strips to a triangle list (even i: a,b,c; odd: a,c,b; degenerates dropped). */
int nif_strips_to_triangles(nif_rd *r, uint32_t strip_count, const uint16_t *lengths,
                            const uint16_t *points, uint32_t (**out)[3], uint32_t *out_count);
float nif_half(uint16_t h);

/* ---- nif_header.c ---- */
vks_result nif_read_header(nif_file *f, vks_cursor *c, vks_error *err);
/* "NIF 20.2.0.7 (user 12, bs 83)", or without the brackets where both are 0. */
void nif_version_detail(const nif_file *f, char *buf, size_t cap);

/* ---- block parsers (nif_avobject.c, nif_geomdata.c, nif_skinblocks.c, nif_aux.c) ----
 * Each reads the block body at r->c into b; returns 1 or 0 with err set. */
typedef int (*nif_block_fn)(nif_rd *r, nif_block *b);
int nif_read_node(nif_rd *r, nif_block *b);        /* NiNode and field-less subclasses */
int nif_read_switch_node(nif_rd *r, nif_block *b);
int nif_read_lod_node(nif_rd *r, nif_block *b);
int nif_read_billboard_node(nif_rd *r, nif_block *b);
int nif_read_tri_geometry(nif_rd *r, nif_block *b); /* NiTriShape / NiTriStrips */
int nif_read_bstrishape(nif_rd *r, nif_block *b);
int nif_read_trishape_data(nif_rd *r, nif_block *b);
int nif_read_tristrips_data(nif_rd *r, nif_block *b);
int nif_read_skin_instance(nif_rd *r, nif_block *b);
int nif_read_dismember_instance(nif_rd *r, nif_block *b);
int nif_read_skin_data(nif_rd *r, nif_block *b);
int nif_read_skin_partition(nif_rd *r, nif_block *b);
/* Auxiliary blocks a file without sizes forces us to walk (nif_aux.c); NULL if unknown. */
nif_block_fn nif_aux_reader(const char *type);
/* Animation blocks (nif_kf_blocks.c: sequences, controllers, interpolators, key
 * data, text keys, palettes), kept as NIF_K_ANIM; NULL if the type is not one of them. */
nif_block_fn nif_anim_reader(const char *type);
/* Readers of the model's own blocks (nif_walk.c); NULL if the type is not one of them. */
nif_block_fn nif_model_reader(const char *type);

/* Reads an NiAVObject prefix (name, transform, refs) — nif_avobject.c. */
/* props (may be NULL): the property refs (bsver <= 34) */
int nif_read_avobject(nif_rd *r, const char **name, nif_xform *xf, uint32_t *prop_count, const int32_t **props);
int nif_read_objectnet(nif_rd *r, const char **name);
/* NiObjectNET with its links: the first extra data (the 4.x chain's head, or the first of the
 * 10.0.1.0+ list; NIF_NONE without one) and the first controller. */
int nif_read_objectnet_links(nif_rd *r, const char **name, int32_t *extra, int32_t *controller);
/* SSE packed vertices (BSVertexDataSSE): positions, optional normals, skin bones/weights. */
int nif_read_sse_vertices(nif_rd *r, uint64_t desc, uint32_t count, uint32_t stride, float (**pos)[3],
                          float (**nrm)[3], uint8_t (**bones)[4], float (**weights)[4]);

/* ---- nif_bsshader.c: Skyrim's surface (bsver 83 LE, 100 SE) ----
 * BSLightingShaderProperty up to its alpha (the shader-type tail is left to the block size),
 * BSShaderTextureSet, and the half-float UVs of SSE packed vertices: at is the cursor where
 * the vertices start, already checked by nif_read_sse_vertices; *uv NULL without the UV flag. */
int nif_read_lighting_shader(nif_rd *r, nif_block *b);
int nif_read_texture_set(nif_rd *r, nif_block *b);
int nif_read_sse_uvs(nif_rd *r, vks_cursor at, uint64_t desc, uint32_t count, uint32_t stride, float (**uv)[2]);

/* ---- nif_walk.c: the header, every block, the footer ---- */
vks_result nif_parse(nif_file *f, const void *bytes, size_t size, vks_error *err);

/* ---- nif_read.c: a parse in its own scratch arena, for the model and the clip readers ----
 * nif_open applies opt's defaults, makes the arena and parses (want_anim: see nif_file);
 * nif_close frees the arena (also after a failed open). */
vks_result nif_open(nif_file *f, const vks_read_options *opt, int want_anim, const void *bytes, size_t size,
                    vks_error *err);
void nif_close(nif_file *f);

/* ---- nif_model.c: blocks -> vks_skin through the builder ---- */
/* *morph_unplayed: the NiGeomMorpherControllers whose morphs were not all applied as the file
   animates them (nif_morph_model.c warns about each). */
vks_result nif_build_model(const nif_file *f, vks_skin *skin, uint32_t *morph_unplayed, vks_error *err);
/* ---- nif_morph_model.c: geometry morphing -> the model's morph targets ----
 * mesh_block[k]: the shape block mesh k was made from; *unplayed as above. */
vks_result nif_morph_attach(const nif_file *f, vks_skin *skin, const uint32_t *mesh_block, uint32_t mesh_count,
                            uint32_t *unplayed, vks_error *err);

/* ---- the writer (nif_write.c: layout, header, footer; nif_write_blocks.c: block bodies) ---- */

/* Shared with the .kf writer (nif_kf_*.c): the header from its first line through the
 * block type index (20.x: endian byte and a BS stream header with bsver; the caller writes
 * sizes, strings and groups after it), and a SizedString. */
void nif_w_file_header(vks_bytebuf *o, uint32_t ver, uint32_t user, uint32_t bsver, const char *const *types,
                       uint16_t type_count, const uint16_t *block_types, uint32_t block_count);
void nif_w_sized(vks_bytebuf *o, const char *s);

typedef struct nif_wmesh {
    uint32_t mesh;               /* index in skin->meshes */
    uint32_t vertex_count;       /* file (source) vertices */
    const float (*positions)[3]; /* per source vertex */
    const float (*normals)[3];   /* per source vertex, or NULL */
    float (*uv[VKS_MAX_UV_SETS])[2]; /* per source vertex, sets 0..uv_sets-1 */
    uint32_t uv_sets;            /* as written: the mesh's sets, 1 at most in the Skyrim profile */
    uint32_t *weight_count;      /* per mesh bone: NiSkinData weights */
    uint16_t **weight_vertex;
    float **weight_value;
} nif_wmesh;

typedef struct nif_writer {
    const vks_skin *skin;
    vks_bytebuf *out;
    uint32_t ver, user, bsver;
    int strips;
    int synthetic_root;          /* block 0 is an extra root NiNode */
    uint32_t node_base;          /* block of skin node 0 */
    uint32_t mesh_base;          /* block of mesh 0's shape; each mesh takes 5 blocks */
    uint32_t block_count;
    uint32_t **children;         /* per node block: child blocks */
    uint32_t *child_count;
    nif_wmesh *meshes;
} nif_writer;

void nif_w_node(nif_writer *w, uint32_t block);
void nif_w_shape(nif_writer *w, uint32_t m);
void nif_w_geomdata(nif_writer *w, uint32_t m);
void nif_w_skin_instance(nif_writer *w, uint32_t m);
void nif_w_skin_data(nif_writer *w, uint32_t m);
void nif_w_skin_partition(nif_writer *w, uint32_t m);
/* A name: SizedString before 20.1.0.1, else the string-table index the writer assigned. */
void nif_w_name(nif_writer *w, uint32_t string_index, const char *s);
uint32_t nif_w_skeleton_root(const nif_writer *w, uint32_t m);

#endif
