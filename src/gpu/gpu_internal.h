/* Private to src/gpu: the context, buffer helpers and the uploaded model set. */
#ifndef VKS_GPU_INTERNAL_H
#define VKS_GPU_INTERNAL_H

#include <volk.h>

#include "vkskin/gpu.h"

/* A buffer with its own memory (the batch tool needs a handful of big buffers, well under
 * maxMemoryAllocationCount, so no sub-allocator). mapped is non-NULL for host-visible ones. */
typedef struct vks__buf {
    VkBuffer buffer;
    VkDeviceMemory memory;
    VkDeviceSize size;
    void *mapped;
    int host_coherent;
} vks__buf;

enum { VKS__MEM_DEVICE = 0, VKS__MEM_UPLOAD = 1, VKS__MEM_READBACK = 2 };

struct vks_gpu {
    vks_gpu_options opt;
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice physical;
    VkDevice device;
    struct VolkDeviceTable vk;
    VkQueue queue;
    uint32_t queue_family;
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceMemoryProperties mem;
    vks_gpu_device_info info;
    uint32_t validation_messages;
    int unified;      /* a memory type is device-local and host-visible: read outputs in place */
    int timestamps;   /* the queue family has timestamp bits */
    uint32_t timestamp_valid_bits;
    /* pipelines */
    VkShaderModule pose_module, deform_module;
    VkDescriptorSetLayout pose_dsl, deform_dsl;
    VkPipelineLayout pose_layout, deform_layout;
    VkPipeline pose_pipeline;
    VkPipeline deform_pipeline[4]; /* by influence count - 1 */
    uint32_t deform_wg, pose_wg, palette_cap; /* palette_cap 0: no shared palette */
    uint32_t instance_tile; /* instances per deform work item */
    /* testing hooks of vks_gpu_options (fail_allocations_over, fail_allocation_nth): armed by
     * vks_gpu_run around its own allocations only; run_allocations counts them */
    int hooks_armed;
    uint32_t run_allocations;
};

/* Per-model tables as the shaders read them (std430 layouts of compute/pose.comp and
 * compute/deform.comp). */
typedef struct vks__gpu_model_info {
    uint32_t node_base, node_count, bone_base, bone_count, mesh_base, mesh_count, vert_base, vert_count;
} vks__gpu_model_info;
typedef struct vks__gpu_bone { uint32_t node, mesh, pad0, pad1; float ib[12]; } vks__gpu_bone;
typedef struct vks__gpu_mesh { int32_t space_node; uint32_t pad0, pad1, pad2; float pre[12]; } vks__gpu_mesh;
typedef struct vks__gpu_group {
    uint32_t first_vertex, vertex_count, first_palette, palette_count, flags, vert_base, pad0, pad1;
} vks__gpu_group;
typedef struct vks__gpu_infl { uint32_t idx01, idx23; float w[4]; } vks__gpu_infl;
typedef struct vks__gpu_inst { uint32_t model, locals_off, skin_off, out_off; } vks__gpu_inst;
typedef struct vks__gpu_work {
    uint32_t group, vstart, vcount, inst_first, inst_count, pad0, pad1, pad2;
} vks__gpu_work;

enum { VKS__GROUP_RENORMALIZE = 1u, VKS__GROUP_HAS_NORMALS = 2u };

/* A model as the scheduler needs it on the host. */
typedef struct vks__gpu_model {
    uint32_t node_count, bone_count, vertex_count;
    uint32_t first_group, group_count; /* in the set's group table */
    uint32_t influences_of_group_max;  /* informational */
} vks__gpu_model;

struct vks_gpu_models {
    vks_gpu *gpu;
    uint32_t count;
    vks__gpu_model *models;
    vks__gpu_group *groups; /* host copy of the group table (work items refer to it) */
    uint32_t *group_influences; /* 1..4 per group */
    uint32_t group_count;
    vks__buf models_buf, parents, bones, meshes, groups_buf, palette, pos, nrm, infl;
};

vks_result vks__buf_create(vks_gpu *gpu, VkDeviceSize size, int kind, vks__buf *out, vks_error *err);
void vks__buf_destroy(vks_gpu *gpu, vks__buf *b);
/* Copies bytes into a host-visible buffer (flushing when not coherent). */
void vks__buf_write(vks_gpu *gpu, vks__buf *b, VkDeviceSize at, const void *src, size_t size);
void vks__buf_flush(vks_gpu *gpu, vks__buf *b);
void vks__buf_invalidate(vks_gpu *gpu, vks__buf *b);
vks_result vks__vk_fail(vks_error *err, VkResult r, const char *what);

vks_result vks__pipelines_create(vks_gpu *gpu, vks_error *err);
void vks__pipelines_destroy(vks_gpu *gpu);

#endif
