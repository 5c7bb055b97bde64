/* vkskin skin model: the canonical, format-free skinned model (DESIGN.md section 4).
 *
 * STEP BY STEP
 *   vks_skin *s = vks_skin_create(NULL);          // an empty model with its own arena
 *   s->nodes = vks_skin_alloc_array(s, n, sizeof *s->nodes); s->node_count = n; ...
 *   if (vks_skin_validate(s, &err) != VKS_OK) ...  // O(vertices); always run before deforming
 *   vks_skin_free(s);                              // frees every array of the model at once
 *
 * Layout. Everything is stored in flat arrays over the whole file, so the CPU and the GPU
 * walk the same tables:
 *   nodes[]      the skeleton, parents before children
 *   meshes[]     the file's skinned meshes in file order (RW atomics, NIF shapes, ...)
 *   bones[]      per mesh, a contiguous range: (node, inverse bind). The same node may appear
 *                twice in one mesh with different inverse binds (NW4C rigid vs smooth sets).
 *   groups[]     per mesh, a contiguous range; each group owns a contiguous vertex range, a
 *                triangle range and a palette range
 *   palette[]    group-local slot -> bone index (global index into bones[]): the remap
 *   vertices     positions[], normals[], influences[], source_vertex[] over all meshes
 *   triangles[]  3 indices each, relative to the mesh's first vertex
 *   uv[k][]      per vertex, UV set k (k < uv_set_count <= VKS_MAX_UV_SETS), glTF's convention:
 *                u to the right, v from the top of the image (readers of formats that count v
 *                from the bottom flip it)
 *   materials[]  per mesh, a range (first_material, material_count; meshes may share one):
 *                triangle t of mesh m has materials[m.first_material + triangle_material[t]]
 *                (triangle_material NULL: local index 0); images[] and samplers[] are what
 *                glTF materials point to, and what other formats name stays a texture name
 *
 * Skin matrix of bone b for one posed instance, with W(n) the world transform of node n:
 *   K_b = S_mesh * W(bones[b].node) * bones[b].inverse_bind
 *   S_mesh = mesh.space_pre * inverse(W(mesh.space_node))   (space_node < 0: identity)
 * Deformed vertex in group g: p' = sum_k w_k K_{palette[g.first_palette + idx_k]} p, with p
 * first moved by the mesh's morph targets (MORPH TARGETS below) where it has any.
 *
 * THREADS
 *   A vks_skin is immutable once read or built: any number of threads may read one skin at
 *   once (deform, validate, diff, upload). vks_skin_free, and building through build.h, need
 *   the skin to themselves.
 */
#ifndef VKSKIN_SKIN_H
#define VKSKIN_SKIN_H

#include "core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Influences kept per vertex: glTF's JOINTS_0/1 and WEIGHTS_0/1, as stored. A format that stores
 * more keeps the 8 largest (counted in vks_weight_report.truncated). Groups say how many slots
 * their vertices use (max_influences), so 4-influence models are deformed as before. */
#define VKS_MAX_INFLUENCES 8
#define VKS_MAX_UV_SETS 4 /* UV sets kept per vertex (glTF TEXCOORD_0..3, RW's 8 sets cut to 4) */

typedef struct vks_node {
    const char *name;     /* never NULL; may be "" */
    int32_t parent;       /* -1 for a root; always < own index */
    vks_affine bind_local;
    int32_t tag;          /* the format's numeric node ID (RenderWare HAnim node ID, which GTA
                             clips call the bone tag), clips bind by it; valid when has_tag */
    int32_t has_tag;
    int32_t anim_index;   /* the node's place in the format's animation order (RenderWare: the
                             HAnim hierarchy's node list, which .anm keys follow); valid when
                             has_anim_index */
    int32_t has_anim_index;
} vks_node;

typedef struct vks_bone {
    uint32_t node;
    vks_affine inverse_bind; /* skin space -> bone space at bind */
} vks_bone;

typedef struct vks_influence {
    uint16_t index[VKS_MAX_INFLUENCES]; /* palette-local slot; unused slots 0 */
    float weight[VKS_MAX_INFLUENCES];   /* unused slots 0; used slots first */
} vks_influence;

enum {
    VKS_GROUP_RIGID = 1u << 0 /* informational: vertices were bone-local in the file */
};

typedef struct vks_group {
    uint32_t mesh;
    uint32_t first_vertex, vertex_count;     /* global vertex range */
    uint32_t first_triangle, triangle_count; /* global triangle range */
    uint32_t first_palette, palette_count;   /* range in palette[] */
    uint32_t max_influences;                 /* 1..8: most used slots of any vertex in the group */
    uint32_t flags;
} vks_group;

enum {
    VKS_MESH_HAS_NORMALS = 1u << 0,
    VKS_MESH_RENORMALIZE = 1u << 1 /* the format's engine renormalises skinned normals */
};

typedef struct vks_mesh {
    const char *name; /* never NULL */
    uint32_t first_vertex, vertex_count;
    uint32_t first_triangle, triangle_count;
    uint32_t first_group, group_count;
    uint32_t first_bone, bone_count;
    uint32_t source_vertex_count; /* vertices in the file (before duplication) */
    int32_t space_node;           /* node whose inverse world maps to skin space; -1 none */
    vks_affine space_pre;         /* applied after inverse(W(space_node)) */
    uint32_t flags;
    uint32_t first_material, material_count; /* range in materials[]; 0 count: none known */
    uint32_t uv_set_count;                   /* UV sets the file gives this mesh (the model's
                                                other sets hold 0 for its vertices) */
    /* added in 0.5: morph targets (skin.h, MORPH TARGETS) */
    uint32_t first_target, target_count;     /* range in targets[]; 0 count: none */
    const char *node_name;                   /* the file's node that places the mesh, named as
                                                clips name nodes (glTF: the node a `weights`
                                                channel targets); NULL: not known */
} vks_mesh;

/* MORPH TARGETS (DESIGN.md 4, glTF's rule). A target moves its mesh's vertices by deltas before
 * skinning: with w_t the target's weight for one instance,
 *   p_m = p + sum_t w_t dp_t,   n_m = n + sum_t w_t dn_t   (targets in order, t ascending)
 * and p_m, n_m are then skinned as p, n are. Weights come per instance from the deform job
 * (deform.h) or, where it gives none, from default_weight. Deltas are dense over the mesh's
 * vertices (the file's sparse targets are expanded), indexed by vertex - mesh.first_vertex, so
 * that a vertex duplicated by the groups carries its file vertex's deltas. */
typedef struct vks_morph_target {
    uint32_t mesh;          /* the mesh it moves */
    uint32_t index;         /* its place among the mesh's targets (the file's weights order) */
    float default_weight;   /* the node's weights in the file, else the mesh's, else 0 */
    const char *name;       /* never NULL; may be "" (glTF: the mesh's extras.targetNames) */
    float (*position)[3];   /* mesh.vertex_count position deltas */
    float (*normal)[3];     /* mesh.vertex_count normal deltas; NULL: the target moves no normal */
} vks_morph_target;

/* A texture sampler as glTF states it (the GL enums glTF uses); 0: not given (the viewer's
 * default: repeat, filtering its choice). */
typedef struct vks_sampler {
    uint32_t mag_filter, min_filter, wrap_s, wrap_t;
} vks_sampler;

/* An image a material points to: the bytes when the file embeds them (a .glb's buffer view, a
 * data: URI), else the reference as the file gives it (a relative URI or a path). */
typedef struct vks_image {
    const char *name;      /* never NULL; may be "" */
    const char *uri;       /* never NULL; "" when embedded */
    const char *mime_type; /* never NULL; "image/png", "image/jpeg", ... or "" when unknown */
    const uint8_t *data;   /* embedded bytes, owned by the skin; NULL when referenced */
    size_t size;
} vks_image;

/* A material as far as playing a character back needs it: its name, base colour and
 * base-colour texture. RenderWare, NIF, NW4C and P3D name their textures (a file name without
 * path, a path, a .tga or .dds, an .paa): that name is base_texture and base_image is -1;
 * glTF's textures are images[] (base_texture then repeats the image's URI or name). */
typedef struct vks_material {
    const char *name;         /* never NULL; may be "" */
    float base_color[4];      /* RGBA, linear, 0..1; (1, 1, 1, 1) when the file gives none */
    const char *base_texture; /* never NULL; the base-colour texture as the file names it, "" none */
    int32_t base_image;       /* index into images[]; -1 none */
    int32_t base_sampler;     /* index into samplers[]; -1 the default */
    uint32_t base_uv_set;     /* the UV set the base-colour texture reads */
} vks_material;

typedef struct vks_skin_arena vks_skin_arena;

/* What became of the weights as the file stores them. DESIGN.md 4: weights are kept as the
 * format gives them and normalised only by the format's own rule; anything else the builder
 * does to make a vertex deformable is a repair, counted here so that inspect can say so.
 * Filled by the builder over each mesh's file vertices (a vertex that groups duplicate
 * counts once); zero when the model was not made by the builder. */
typedef struct vks_weight_report {
    uint32_t vertices;               /* file vertices counted */
    double stored_min_sum;           /* smallest sum of a vertex's positive stored weights,
                                        before any rule or repair */
    double stored_max_sum;           /* largest such sum */
    uint32_t stored_sum_off;         /* vertices whose stored sum is off 1 by more than 1e-3 */
    uint32_t all_zero;               /* repaired: no positive weight, so the vertex follows its
                                        group's first bone with weight 1 */
    uint32_t negative;               /* repaired: a negative weight, dropped (formats whose
                                        rule ignores them, NIF and .cmdl, drop them unseen) */
    uint32_t renormalised;           /* stored sum off 1 by more than 1e-3, scaled to 1 by the
                                        format's rule (NIF top 4, .cmdl); formats that keep
                                        weights as stored (RW) are not renormalised */
    uint32_t over_four;              /* more than 4 positive weights (glTF JOINTS_1/WEIGHTS_1):
                                        kept as stored, up to 8 (informational) */
    uint32_t truncated;              /* more than 8 positive weights (glTF JOINTS_2 and on): kept
                                        to the 8 largest, renormalised; set by the reader */
    float truncated_max_weight;      /* the largest weight so dropped, as stored (0: none) */
    uint32_t rule_dropped;           /* file vertices (P3D: points) storing more positive weights
                                        than the format's toolchain and engine skin with (P3D:
                                        4, or 1 for a discrete skeleton), kept to the largest by
                                        that rule, as the engine does; set by the reader */
    float rule_dropped_max;          /* the largest weight so dropped, as stored (0: none) */
} vks_weight_report;

typedef struct vks_skin {
    const char *format;        /* "renderware", "nif", "nw4c", "p3d", "gltf" */
    const char *format_detail; /* "RW 3.6.0.3", "NIF 20.2.0.7 (user 12, bs 83)", ... */

    vks_node *nodes;
    uint32_t node_count;
    vks_mesh *meshes;
    uint32_t mesh_count;
    vks_bone *bones;
    uint32_t bone_count;
    vks_group *groups;
    uint32_t group_count;
    uint16_t *palette;
    uint32_t palette_count;

    float (*positions)[3];
    float (*normals)[3]; /* may be NULL when no mesh has normals */
    vks_influence *influences;
    uint32_t *source_vertex; /* file's vertex number within its mesh */
    uint32_t vertex_count;

    uint32_t (*triangles)[3];
    uint16_t *triangle_material; /* per triangle, the mesh-local material (see materials[]);
                                    NULL when the file has no materials */
    uint32_t triangle_count;

    float (*uv[VKS_MAX_UV_SETS])[2]; /* per vertex; sets past uv_set_count are NULL */
    uint32_t uv_set_count;
    vks_material *materials;
    uint32_t material_count;
    vks_image *images;
    uint32_t image_count;
    vks_sampler *samplers;
    uint32_t sampler_count;

    vks_weight_report weights; /* stored sums and repairs (inspect reports them) */

    vks_allocator allocator;
    vks_skin_arena *arena;

    /* added in 0.5 (at the end: the library allocates vks_skin) */
    vks_morph_target *targets; /* morph targets of every mesh, mesh by mesh (see vks_mesh) */
    uint32_t target_count;
} vks_skin;

/* An empty model whose arrays come from an arena over the allocator (NULL: malloc). */
VKS_API vks_skin *vks_skin_create(const vks_allocator *allocator);
/* Frees the model and everything allocated through it. NULL is fine. */
VKS_API void vks_skin_free(vks_skin *skin);
/* Zeroed memory owned by the skin; NULL on overflow or exhaustion. */
VKS_API void *vks_skin_alloc(vks_skin *skin, size_t size);
VKS_API void *vks_skin_alloc_array(vks_skin *skin, size_t count, size_t elem);
/* A NUL-terminated copy of len bytes (len may be 0; s may be NULL when len is 0). */
VKS_API const char *vks_skin_strndup(vks_skin *skin, const char *s, size_t len);

/* Checks every cross-reference and value: parents in order, bone nodes, group ranges
 * contiguous and covering each mesh, palette entries inside the mesh's bones, influence
 * slots inside the palette, weights finite and >= 0 with at least one > 0, triangle indices
 * inside the mesh, finite positions/normals/matrices, UV sets, material ranges and their image
 * and sampler indices present and inside, and that every bone can be deformed in
 * float32: its inverse bind (and, for rigid groups, its node's bind world) neither singular
 * nor scaling outside vks_float32_scale_ok's range (the error names the bone and its node).
 * O(vertices + triangles + nodes); allocates O(nodes) only when the model has rigid groups. */
VKS_API vks_result vks_skin_validate(const vks_skin *skin, vks_error *err);

/* The float32 part of vks_skin_validate, on a model whose indices are already known good
 * (the builder runs it when it finishes, so every reader refuses such bones). */
VKS_API vks_result vks_skin_check_float32(const vks_skin *skin, vks_error *err);

/* How the 3x3 part of a scales, in double: *lo and *hi bracket its singular values by
 * root-mean-square (lo = sqrt(3) / |inverse|_F, hi = |a|_F / sqrt(3): both 1 for a rotation,
 * s for a uniform scale s; lo >= the smallest singular value, hi <= the largest). Returns 0
 * (lo = 0) when the 3x3 is singular or not finite. O(1). */
VKS_API int vks_affine_scale_range(const vks_affine *a, double *lo, double *hi);
/* Whether float32 deformers can use a matrix that scales by lo..hi (see math.c for the
 * derivation): lo and hi within [2^-48, 2^48] and hi / lo <= 2^9. */
VKS_API int vks_float32_scale_ok(double lo, double hi);

/* The material of triangle t (global index) of mesh m, or NULL when the mesh has none. */
VKS_API const vks_material *vks_skin_triangle_material(const vks_skin *skin, uint32_t m, uint32_t t);
/* A material with the defaults (name "", white, no texture, UV set 0), for readers. */
VKS_API vks_material vks_material_default(void);

/* Index of the node named name (exact match first, then case-insensitive), or -1. */
VKS_API int32_t vks_skin_find_node(const vks_skin *skin, const char *name);

/* Largest distance of any bind position from the origin of its mesh's space (>= 1e-6);
 * the scale that relative errors are measured against. */
VKS_API double vks_skin_bounding_radius(const vks_skin *skin);

/* Vertices with more than k positive weights: what a writer whose format stores k a vertex
 * would lose (the RenderWare, NIF and NW4C writers store 4 and refuse such a model rather than
 * drop influences unsaid; P3D's MLOD selections hold them all). O(vertices). */
VKS_API uint32_t vks_skin_vertices_over(const vks_skin *skin, uint32_t k);

/* Summary statistics for inspect. */
typedef struct vks_skin_stats {
    uint32_t influence_histogram[VKS_MAX_INFLUENCES + 1]; /* vertices by count of non-zero weights */
    uint32_t weight_sum_off;                              /* vertices whose weights sum off 1 by > 1e-3 */
    double min_weight_sum, max_weight_sum;
    uint32_t max_palette;
} vks_skin_stats;
VKS_API void vks_skin_stats_compute(const vks_skin *skin, vks_skin_stats *out);

#ifdef __cplusplus
}
#endif
#endif
