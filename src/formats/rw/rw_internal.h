/* RenderWare DFF reader internals shared by the rw_*.c files (formats/renderware.md).
 *
 * The reader parses in two stages: the chunk tree into the plain structs below (rw_frames,
 * rw_geometry with its Bin Mesh and Skin), then rw_read.c assembles the canonical model
 * through the builder. Every temporary array comes from a scratch vks_skin used as an
 * arena, so one vks_skin_free releases all of it on success and on every failure path.
 */
#ifndef VKS_FORMATS_RW_INTERNAL_H
#define VKS_FORMATS_RW_INTERNAL_H

#include "core/bytebuf.h"
#include "core/cursor.h"
#include "core/vec.h"
#include "vkskin/formats.h"

/* Chunk type IDs (renderware.md 2.4). */
enum {
    RW_STRUCT = 0x01,
    RW_STRING = 0x02,
    RW_EXTENSION = 0x03,
    RW_TEXTURE = 0x06,
    RW_MATERIAL = 0x07,
    RW_MATERIAL_LIST = 0x08,
    RW_FRAME_LIST = 0x0E,
    RW_GEOMETRY = 0x0F,
    RW_CLUMP = 0x10,
    RW_ATOMIC = 0x14,
    RW_GEOMETRY_LIST = 0x1A,
    RW_RIGHT_TO_RENDER = 0x1F,
    RW_MORPH_PLG = 0x105,
    RW_SKIN = 0x116,
    RW_HANIM = 0x11E,
    RW_BIN_MESH = 0x50E,
    RW_NODE_NAME = 0x253F2FE
};

/* Geometry flags (renderware.md 5.1). */
enum {
    RW_GEO_TRISTRIP = 0x01,
    RW_GEO_POSITIONS = 0x02,
    RW_GEO_TEXTURED = 0x04,
    RW_GEO_PRELIT = 0x08,
    RW_GEO_NORMALS = 0x10,
    RW_GEO_LIGHT = 0x20,
    RW_GEO_MODULATE = 0x40,
    RW_GEO_TEXTURED2 = 0x80,
    RW_GEO_NATIVE = 0x01000000
};

/* HAnim node flags and hierarchy flags (renderware.md 4.3). */
enum { RW_HANIM_POP = 0x1, RW_HANIM_PUSH = 0x2, RW_HANIM_LOCAL_SPACE = 0x4000 };

#define RW_PATH_MAX 128

/* One chunk: header fields and a cursor over exactly its payload (file offsets kept). */
typedef struct rw_chunk {
    uint32_t type, size, stamp;
    uint32_t version; /* decoded 0xVJNBB */
    uint64_t offset;  /* of the 12-byte header */
    vks_cursor body;
} rw_chunk;

/* Shared state of one read. */
typedef struct rw_ctx {
    vks_read_options opt;
    vks_skin *skin;    /* the result */
    vks_skin *scratch; /* arena for temporaries, freed at the end of the read */
    vks_error *err;
    uint64_t total_vertices, total_triangles;
    /* over skinned atomics, a geometry counted at each use: what the model will hold */
    uint64_t mesh_vertices, mesh_triangles;
    uint64_t total_bin_meshes; /* Bin Mesh meshes over all geometries read */
    uint64_t file_triangles;   /* triangles the geometries read hold (list or Bin Mesh), each once */
    vks_vec materials;         /* vks_material of every geometry read, strings in skin; moved
                                  into skin->materials when the read succeeds */
    uint64_t target_vertices;  /* morph target vertices read, against max_vertices */
    uint64_t mesh_target_vertices; /* the same over the meshes (a shared geometry's, each use) */
    uint32_t morph_plugins;    /* Morph PLGs (RpMorph animation) seen and not read */
} rw_ctx;

/* Frame List with the per-frame HAnim data and the clump's hierarchy. */
typedef struct rw_frames {
    uint32_t count;
    vks_affine *local; /* column-major (right, up, at, pos) */
    int32_t *parent;
    const char **name;  /* in ctx->skin; "" when the frame has no node-name chunk */
    int32_t *hanim_id;  /* -1: no HAnim PLG */
    uint8_t *has_hanim;
    /* hierarchy: the first frame whose HAnim PLG has numNodes > 0 (-1: none) */
    int32_t hier_frame;
    uint32_t node_count;
    uint32_t hier_flags, key_frame_size;
    int32_t *node_id, *node_index, *node_flags;
    int32_t *node_frame;  /* frame attached to each node */
    int32_t *node_parent; /* from PUSH/POP */
} rw_frames;

/* One Bin Mesh mesh, its indices already turned into triangles. */
typedef struct rw_bin_mesh {
    int32_t material;
    uint32_t index_count;
    uint32_t (*triangles)[3];
    uint32_t triangle_count;
} rw_bin_mesh;

typedef struct rw_skin_plg {
    int present;
    int old_layout;
    uint32_t chunk_size;
    uint32_t bone_count, used_count, max_weights;
    uint8_t *used;
    uint16_t (*bone)[4];
    float (*weight)[4];
    vks_affine *inverse; /* G(S_i), 4th column dropped */
    uint32_t bone_limit, split_meshes, split_rle;
    uint8_t *remap;     /* bone_count entries */
    uint8_t *rle_count; /* split_meshes x (first, count) */
    uint8_t *rle;       /* split_rle x (start bone, count) */
    /* legacy atomic-level skin only: the bones' HAnim triples */
    int legacy;
    int32_t *legacy_id, *legacy_flags;
} rw_skin_plg;

typedef struct rw_geometry {
    uint32_t version;
    uint32_t flags;
    uint32_t vertex_count, triangle_count, tex_sets;
    float (*positions)[3];
    float (*normals)[3]; /* NULL when morph target 0 has no normals */
    uint32_t (*triangles)[3];
    uint16_t *triangle_material;
    uint32_t material_count;
    uint32_t first_material;            /* its materials' place in ctx->materials */
    float (*uv[VKS_MAX_UV_SETS])[2];    /* the first VKS_MAX_UV_SETS of tex_sets */
    uint32_t uv_sets;
    int has_bin_mesh;
    uint32_t bin_flags, bin_mesh_count, bin_total;
    rw_bin_mesh *bin_meshes;
    rw_skin_plg skin;
    /* morph targets 1..morph_count-1 as deltas from target 0 (renderware.md 5.1); [0] unused */
    uint32_t morph_count;
    float (**morph_pos)[3]; /* NULL where the target has no positions */
    float (**morph_nrm)[3]; /* NULL where it or target 0 has no normals */
} rw_geometry;

/* ---- rw_chunk.c ---- */
uint32_t vks__rw_decode_version(uint32_t stamp);
/* Reads the next chunk header from c and makes out->body span its payload; a payload that
 * runs past the end of c is VKS_ERR_TRUNCATED. c is moved past the whole chunk. */
vks_result vks__rw_chunk_next(rw_ctx *ctx, vks_cursor *c, rw_chunk *out, const char *path);
/* Finds the next child of type `type` in c, skipping any other chunks (librw findChunk).
 * Returns 1 found, 0 absent (c at end), -1 failed (error set). */
int vks__rw_find_child(rw_ctx *ctx, vks_cursor *c, uint32_t type, rw_chunk *out, const char *path);
/* "what failed" at the cursor's offset with code TRUNCATED. */
vks_result vks__rw_truncated(rw_ctx *ctx, const vks_cursor *c, const char *path, const char *what);
void *vks__rw_tmp(rw_ctx *ctx, uint64_t count, size_t elem);

/* ---- rw_frames.c ---- */
vks_result vks__rw_read_frame_list(rw_ctx *ctx, const rw_chunk *ch, rw_frames *out);
/* Attaches the hierarchy's nodes to frames by ID and rebuilds/cross-checks their parents. */
vks_result vks__rw_attach_hierarchy(rw_ctx *ctx, rw_frames *f, uint64_t offset);

/* ---- rw_geometry.c ---- */
vks_result vks__rw_read_geometry(rw_ctx *ctx, const rw_chunk *ch, rw_geometry *out, const char *path);

/* ---- rw_morph.c ---- */
/* Morph targets 1..count-1 at c (after target 0), each kept as deltas from g's target 0. */
vks_result vks__rw_read_morph_targets(rw_ctx *ctx, vks_cursor *c, rw_geometry *g, uint32_t count, const char *path);
/* A Morph PLG in the geometry's extension: the targets' animation, not read; said once. */
void vks__rw_morph_plugin(rw_ctx *ctx, const rw_chunk *x, const rw_geometry *g, const char *gpath);

/* ---- rw_skin.c ---- */
vks_result vks__rw_read_skin(rw_ctx *ctx, const rw_chunk *ch, uint32_t vertex_count, rw_skin_plg *out,
                             const char *path);
vks_result vks__rw_read_skin_legacy(rw_ctx *ctx, const rw_chunk *ch, uint32_t vertex_count,
                                    rw_skin_plg *out, const char *path);

/* ---- writer (rw_write.c, rw_write_geometry.c) ---- */
/* The writer's view of the model: one HAnim hierarchy over the frames (= nodes) that all
 * meshes' bones use, rooted at their lowest common ancestor frame. */
typedef struct rw_wctx {
    const vks_skin *skin;
    const vks_write_options *opt;
    vks_bytebuf *b;
    vks_error *err;
    uint32_t version, stamp;
    vks_affine *world;     /* bind world of every node */
    uint32_t hier_count;   /* HAnim nodes */
    int32_t *hier_frame;   /* node -> frame */
    int32_t *node_of_frame; /* frame -> node or -1 */
    int32_t *hier_flags;   /* PUSH/POP */
} rw_wctx;

uint32_t vks__rw_encode_stamp(uint32_t version);
/* Writes a chunk header with size 0 and returns its offset; vks__rw_end patches the size. */
size_t vks__rw_begin(vks_bytebuf *b, uint32_t type, uint32_t stamp);
void vks__rw_end(vks_bytebuf *b, size_t at);
/* The Geometry chunk of mesh m (struct, material list, Bin Mesh, Skin PLG). */
vks_result vks__rw_write_geometry(rw_wctx *w, uint32_t m);

#endif
