/* The tables the shaders read: the std430 twins of compute/tables.glsl (each size and offset
 * checked at compile time), and the numbers the shaders and the host agree on. Backend-neutral:
 * plain C, what any backend uploads and the planning (plan.h) fills. */
#ifndef VKS_GPU_TABLES_H
#define VKS_GPU_TABLES_H

#include <stddef.h>
#include <stdint.h>

#define VKS__TWIN(type, size) _Static_assert(sizeof(type) == (size), #type " must match compute/tables.glsl")
#define VKS__AT(type, field, off)                                                                          \
    _Static_assert(offsetof(type, field) == (off), #type "." #field " must match compute/tables.glsl")

typedef struct vks__gpu_model_info {
    uint32_t node_base, node_count, bone_base, bone_count, mesh_base, mesh_count, vert_base, vert_count;
} vks__gpu_model_info;
VKS__TWIN(vks__gpu_model_info, 32);
VKS__AT(vks__gpu_model_info, node_base, 0);
VKS__AT(vks__gpu_model_info, vert_count, 28);

typedef struct vks__gpu_bone { uint32_t node, mesh, pad0, pad1; float ib[12]; } vks__gpu_bone;
VKS__TWIN(vks__gpu_bone, 64);
VKS__AT(vks__gpu_bone, mesh, 4);
VKS__AT(vks__gpu_bone, ib, 16);

/* morph_count: the mesh's morph targets; morph_back: how many floats before the instance's
 * locals its first weight is (as vks__gpu_group.morph's high bits): the crowd's pose pass writes
 * the weights it samples there (compute/clip_morph.glsl). */
typedef struct vks__gpu_mesh { int32_t space_node; uint32_t morph_count, morph_back, pad2; float pre[12]; } vks__gpu_mesh;
VKS__TWIN(vks__gpu_mesh, 64);
VKS__AT(vks__gpu_mesh, pre, 16);

/* morph_base: the group's first morph delta (6 floats: dp, dn) in the set's morph table, its
 * target t's delta of group vertex i at morph_base + t * vertex_count + i; morph: the mesh's
 * target count (low 16 bits) and, high 16 bits, how many floats before the instance's locals
 * its first weight is (its weights sit in the matrix slots before them, vks__gpu_model). */
typedef struct vks__gpu_group {
    uint32_t first_vertex, vertex_count, first_palette, palette_count, flags, vert_base;
    uint32_t infl_more; /* groups of more than 4 influences: where slots 4..7 of the group's first
                           vertex sit in the influence table (after every vertex's slots 0..3) */
    uint32_t pad1;
    uint32_t morph_base, morph, pad2, pad3; /* morph targets (above) */
} vks__gpu_group;
VKS__TWIN(vks__gpu_group, 48);
VKS__AT(vks__gpu_group, flags, 16);
VKS__AT(vks__gpu_group, vert_base, 20);

typedef struct vks__gpu_infl { uint32_t idx01, idx23; float w[4]; } vks__gpu_infl;
VKS__TWIN(vks__gpu_infl, 24);
VKS__AT(vks__gpu_infl, w, 8);

typedef struct vks__gpu_inst { uint32_t model, locals_off, skin_off, out_off; } vks__gpu_inst;
VKS__TWIN(vks__gpu_inst, 16);
VKS__AT(vks__gpu_inst, out_off, 12);

typedef struct vks__gpu_work {
    uint32_t group, vstart, vcount, inst_first, inst_count, pad0, pad1, pad2;
} vks__gpu_work;
VKS__TWIN(vks__gpu_work, 32);
VKS__AT(vks__gpu_work, inst_count, 16);

/* Per instance of a crowd: where its pose comes from, and where it stands. */
typedef struct vks__gpu_pose_param {
    uint32_t source;        /* VKS__SOURCE_* | cycle << 8 (clips) */
    uint32_t seed_lo, seed_hi, pose_instance;
    float max_angle;
    uint32_t clip_entry;    /* clips: word offset of the (model, clip) entry (src/gpu/vulkan/clips.c) */
    float clip_start, clip_speed;
    float root[12];         /* applied to the skin matrices: K' = root K */
} vks__gpu_pose_param;
VKS__TWIN(vks__gpu_pose_param, 80);
VKS__AT(vks__gpu_pose_param, seed_lo, 4);
VKS__AT(vks__gpu_pose_param, pose_instance, 12);
VKS__AT(vks__gpu_pose_param, max_angle, 16);
VKS__AT(vks__gpu_pose_param, clip_entry, 20);
VKS__AT(vks__gpu_pose_param, clip_speed, 28);
VKS__AT(vks__gpu_pose_param, root, 32);

/* A layered crowd instance (VKS__SOURCE_LAYERS, compute/layers.glsl): the same parameters,
 * then its layers. A crowd with layered instances gives every instance this stride (its pose
 * pipeline is the USE_PARAMS 2 variant), so the plain ones pay nothing in other crowds. */
typedef struct vks__gpu_layer_param {
    uint32_t entry;         /* word offset of the (model, clip) entry */
    uint32_t flags;         /* cycle | mode << 8 | fade << 10 */
    float start, speed, weight;
    int32_t mask_node;      /* -1: every node */
    uint32_t ref_entry;     /* additive: the reference pose's (model, clip) entry (entry by default) */
    float ref_time;         /* additive: ... sampled at this clip time (0: the first frame) */
} vks__gpu_layer_param;
VKS__TWIN(vks__gpu_layer_param, 32);
VKS__AT(vks__gpu_layer_param, ref_entry, 24);
VKS__AT(vks__gpu_layer_param, ref_time, 28);
VKS__AT(vks__gpu_layer_param, weight, 16);
VKS__AT(vks__gpu_layer_param, mask_node, 20);
typedef struct vks__gpu_layered_param {
    vks__gpu_pose_param base;   /* source VKS__SOURCE_LAYERS; root, seed, ... as for any */
    uint32_t count;             /* layers | up axis << 8 (root motion: 0 off, 1 y, 2 z) | yaw << 10 */
    float fade_start, fade_duration;
    int32_t motion_node;        /* root motion's node, -1: none */
    vks__gpu_layer_param layer[4];
    float motion[4];            /* written by the pose pass: the root motion (x, y, z, yaw) at
                                   the last frame; the host's NaN yaw: none yet */
} vks__gpu_layered_param;
VKS__TWIN(vks__gpu_layered_param, 240);
VKS__AT(vks__gpu_layered_param, motion, 224);
VKS__AT(vks__gpu_layered_param, count, 80);
VKS__AT(vks__gpu_layered_param, motion_node, 92);
VKS__AT(vks__gpu_layered_param, layer, 96);

/* Push constants of the two passes. */
/* instances [instance_first, instance_end) of the pass's table (compute/pose.comp) */
typedef struct vks__pose_push { uint32_t instance_end, use_params; float time; uint32_t instance_first; } vks__pose_push;
VKS__TWIN(vks__pose_push, 16);
VKS__AT(vks__pose_push, time, 8);
/* morph: 1 when the chunk's instances carry morph weights (the batch's get_weights) */
typedef struct vks__deform_push { uint32_t work_base, work_count, grid_x, write_normals, morph, pad[3]; } vks__deform_push;
VKS__TWIN(vks__deform_push, 32);

enum { VKS__GROUP_RENORMALIZE = 1u, VKS__GROUP_HAS_NORMALS = 2u };
/* Pose sources of vks__gpu_pose_param.source (the numbers are compute/tables.glsl's). */
enum { VKS__SOURCE_LOCALS = 0u, VKS__SOURCE_PROCEDURAL = 1u, VKS__SOURCE_CLIP = 2u, VKS__SOURCE_LAYERS = 3u };
/* The deform set's binding after its storage buffers: the skin matrices as a uniform texel
 * buffer (an RGBA32F view of vks__passes.skin, read by compute/deform.comp on CPU devices). */
enum { VKS__DEFORM_SKIN_TEXELS = 12 };
enum { VKS__POSE_BINDINGS = 12, VKS__DEFORM_BINDINGS = 12 };

#endif
