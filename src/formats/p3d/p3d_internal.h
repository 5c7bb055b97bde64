/* Bohemia P3D reader, private pieces shared by its files (see ../shared/formats/p3d.md).
 *
 *   p3d_util.c      allocation pool (one per read, freed by one call; also the allocator of
 *                   its growable arrays), names, weight bytes
 *   p3d_cfg.c       model.cfg text: class tree, CfgSkeletons / CfgModels resolution
 *   p3d_mlod.c      MLOD (P3DM / SP3X LODs) into a p3d_lod
 *   p3d_compress.c  ODOL arrays: BI LZSS and LZO1X (lzo1x.c, shared with the RTM reader)
 *   p3d_odol.c      ODOL (binarised) into a p3d_lod plus the skeleton of its model info
 *   p3d_skin.c      a p3d_lod plus a skeleton into the canonical model through the builder
 *   p3d_read.c      vks_p3d_read: format dispatch, LOD choice
 *   p3d_write.c     MLOD writer (and model.cfg writer) for generated characters
 *
 * The intermediate p3d_lod is the same for both forms, so everything after parsing is
 * shared: render vertices (MLOD: one per unique point/normal/uv corner; ODOL: its vertices),
 * triangles already in the model's winding, and named selections with decoded weights.
 *
 * Conventions of the built model (documented for downstream users): positions stay in P3D's
 * own left-handed model space (x right, y up, z forward). The files store inward normals and
 * a winding whose right-handed cross product points inward; the reader negates the normals
 * and reverses every triangle, so normals point outward and (v1-v0)x(v2-v0) follows them,
 * the same rule as the other formats' models. The writer undoes both. A model vertex's
 * source vertex (the file's vertex number in outputs) is its point: MLOD, the point index in
 * the LOD (source_vertex_count = the LOD's point count; corners of one point share its
 * position and weights, their normals may differ); ODOL, the LOD vertex index.
 */
#ifndef VKS_P3D_INTERNAL_H
#define VKS_P3D_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "core/cursor.h"
#include "core/vec.h"
#include "vkskin/formats.h"

/* ---- allocation pool ---- */
typedef struct p3d_block p3d_block;
typedef struct p3d_pool {
    p3d_block *head;
    int failed;
    const vks_allocator *allocator; /* NULL: calloc and free */
} p3d_pool;

/* A pool over the read options' allocator; over calloc (whose zeroing of large blocks costs
 * nothing until they are touched) when that is the default one or allocator is NULL. */
p3d_pool p3d_pool_make(const vks_allocator *allocator);

/* Zeroed count*elem bytes (at least 1), NULL on overflow or exhaustion (sets failed). */
void *p3d_alloc(p3d_pool *pool, size_t count, size_t elem);
char *p3d_strndup(p3d_pool *pool, const char *s, size_t n);
void p3d_pool_free(p3d_pool *pool);
/* The pool as an allocator for growable arrays (core/vec.h): blocks come from p3d_alloc, and
 * its free does nothing, so an outgrown block stays in the pool until p3d_pool_free. */
vks_allocator p3d_pool_allocator(p3d_pool *pool);

/* ---- common helpers ---- */
int p3d_stricmp(const char *a, const char *b);

/* Names found in O(1) under p3d_stricmp (bone and selection names: files may hold 65k of
 * them, where a scan per lookup is quadratic). The first index added for a name wins; the
 * table grows from the pool. Zero-initialise before use. */
typedef struct p3d_name_map {
    const char **name;
    uint32_t *index;
    uint32_t mask, count;
} p3d_name_map;
/* The index name maps to (index itself when it was new); -1 when out of memory. */
int32_t p3d_map_add(p3d_pool *pool, p3d_name_map *m, const char *name, uint32_t index);
/* The index of name, or -1. */
int32_t p3d_map_find(const p3d_name_map *m, const char *name);
/* MLOD selection byte -> weight (0 not selected, 1 full, 2..255 decreasing; wiki rule). */
float p3d_weight_from_byte(uint8_t b);
/* Inverse of p3d_weight_from_byte for w in (0, 1]; 0 for w <= 0. */
uint8_t p3d_byte_from_weight(float w);

/* Reads a NUL-terminated string of at most max bytes (without the NUL). */
int p3d_cur_asciiz(vks_cursor *c, const char **s, size_t *len, size_t max);

/* ---- the intermediate LOD ---- */
typedef struct p3d_sel {
    const char *name;
    /* MLOD (dense, as stored): */
    float *weight;  /* per point: 0 = not selected, else the decoded weight; NULL: sparse */
    uint8_t *faces; /* per face: non-zero when selected; NULL when not known or sparse */
    /* ODOL (sparse, as stored: a few bytes may select one point of a huge LOD, so the
       selection is never spread over every point): ascending, each point or face once */
    uint32_t sparse_points, sparse_faces;
    const uint32_t *point; /* [sparse_points] */
    const float *point_weight;
    const uint32_t *face;  /* [sparse_faces] */
} p3d_sel;

typedef struct p3d_lod {
    float resolution;
    uint32_t point_count;
    float (*points)[3];
    uint32_t face_count;

    uint32_t vertex_count; /* render vertices */
    uint32_t *vertex_point;
    float (*vertex_normal)[3]; /* outward */

    uint32_t tri_count;
    uint32_t (*tris)[3];       /* render vertex indices, outward winding */
    uint32_t *tri_face;        /* the file face each triangle comes from */
    uint16_t *tri_material;    /* per triangle: distinct texture/material pair */
    uint32_t material_count;
    /* MLOD only (NULL for ODOL): per render vertex its corner's UV (set 0, the face records';
       origin top left, as the skin model's), per material its face texture and material file */
    float (*vertex_uv)[2];
    const char **mat_texture, **mat_name;

    uint32_t sel_count;
    p3d_sel *sels;

    /* ODOL only: per point, influences as model-skeleton bone indices (-1 unused). */
    int32_t (*inf_bone)[4];
    float (*inf_weight)[4];
} p3d_lod;

/* ---- skeleton (from model.cfg or from an ODOL model info) ---- */
typedef struct p3d_skeleton {
    uint32_t bone_count;
    const char **names;
    int32_t *parents; /* parents first; -1 root */
    int is_discrete;
    uint32_t section_count;
    const char **sections;
    const char *name;
} p3d_skeleton;

/* ---- model.cfg (p3d_cfg.c) ---- */
/* Parses text and fills skel for CfgModels class model_name (NULL: the only model class).
 * *found is 0 (skel empty) when no model class matched. Strings live in pool. Errors name
 * the config (cfg_name, NULL: "model.cfg") and its line in err->file / err->line. */
vks_result p3d_cfg_skeleton(p3d_pool *pool, const char *text, size_t size, const char *cfg_name,
                            const char *model_name, p3d_skeleton *skel, const char **model_class, int *found,
                            vks_error *err);

/* Bone/parent name pairs into a skeleton ordered parents first; order (optional, n entries)
 * gets each input bone's new index. Unknown parents and cycles are errors. */
vks_result p3d_skeleton_from_pairs(p3d_pool *pool, const char *path, const char **names, const char **parents,
                                   uint32_t n, p3d_skeleton *skel, int32_t *order, vks_error *err);

/* ---- MLOD (p3d_mlod.c) ---- */
typedef struct p3d_lod_info {
    float resolution;
    uint64_t offset;  /* MLOD: of the LOD's magic; ODOL: of the LOD body */
    uint64_t end;     /* ODOL: where the LOD body must end */
    uint32_t points, faces;
} p3d_lod_info;

typedef struct p3d_file {
    int odol;
    uint32_t version;
    uint32_t lod_count;
    p3d_lod_info *lods;
    /* ODOL: the skeleton of the model info (bone_count 0 when none) */
    p3d_skeleton skeleton;
    int32_t *bone_order; /* stored bone index -> skeleton index */
    uint32_t stored_bones;
    float bounding_center[3];
    const uint8_t *bytes;
    size_t size;
} p3d_file;

#define P3D_MAX_NAME 1024
#define P3D_MAX_LODS 4096

vks_result p3d_mlod_scan(p3d_pool *pool, const uint8_t *bytes, size_t size,
                         const vks_read_options *opt, p3d_file *file, vks_error *err);
vks_result p3d_mlod_lod(p3d_pool *pool, const p3d_file *file, uint32_t index,
                        const vks_read_options *opt, p3d_lod *lod, vks_error *err);

/* ---- ODOL (p3d_odol.c, p3d_compress.c) ---- */
vks_result p3d_odol_scan(p3d_pool *pool, const uint8_t *bytes, size_t size,
                         const vks_read_options *opt, p3d_file *file, vks_error *err);
vks_result p3d_odol_lod(p3d_pool *pool, const p3d_file *file, uint32_t index,
                        const vks_read_options *opt, p3d_lod *lod, vks_error *err);

/* An ODOL compressed block of out_size bytes at c (flag byte from v64, LZO from v44, LZSS
 * before); out_size 0 reads nothing. *out points into pool or into the file. */
vks_result p3d_read_compressed(p3d_pool *pool, vks_cursor *c, uint32_t version, size_t out_size,
                               const uint8_t **out, const char *path, vks_error *err);
/* BI LZSS: decodes exactly out_size bytes plus the u32 checksum; advances c. */
int p3d_lzss_decode(vks_cursor *c, uint8_t *out, size_t out_size);
/* LZO1X (lzo1x.h) into exactly out_size bytes; advances c past the stream's end marker. */
int p3d_lzo_decode(vks_cursor *c, uint8_t *out, size_t out_size);

/* ---- model building (p3d_skin.c) ---- */
typedef struct p3d_build_in {
    const p3d_lod *lod;
    const p3d_lod *memory;      /* memory LOD for pivots, may be NULL */
    const p3d_skeleton *skel;   /* may have bone_count 0 */
    const char *mesh_name;
    uint32_t bone_limit;
} p3d_build_in;

vks_result p3d_build_skin(vks_skin *skin, const p3d_build_in *in, vks_error *err);
/* The --bones option ("a,b,c") as a flat skeleton. */
vks_result p3d_bones_option(p3d_pool *pool, const char *list, p3d_skeleton *skel, vks_error *err);

#endif
