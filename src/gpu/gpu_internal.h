/* Private to src/gpu: the context, its function tables, buffer helpers, the uploaded model
 * set, the tables the shaders read (with their C twins tied to compute/tables.glsl), and the
 * pass core that both the batch scheduler and the crowd record through. */
#ifndef VKS_GPU_INTERNAL_H
#define VKS_GPU_INTERNAL_H

#include <volk.h> /* before any Vulkan header: volk declares the entry points as pointers */

#include <stddef.h>

#include "vkskin/gpu.h"
#include "vkskin/gpu_testing.h"
#include "vkskin/gpu_vulkan.h"
#include "tuning.h"
#include "tuning_cache.h"

/* ---- loading: nothing below mutates volk's globals except the one-time loader open ---- */

/* The loader's vkGetInstanceProcAddr: opens libvulkan once per process (volkInitialize under
 * pthread_once, so contexts made on several threads do not race); NULL when there is none. */
PFN_vkGetInstanceProcAddr vks__loader(void);

/* The instance-level functions a context calls, loaded from its own vkGetInstanceProcAddr
 * (the loader's, or the host's when the context adopts the host's device). */
typedef struct vks__instance_fns {
    PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr;
    PFN_vkDestroyInstance vkDestroyInstance;
    PFN_vkEnumeratePhysicalDevices vkEnumeratePhysicalDevices;
    PFN_vkGetPhysicalDeviceProperties vkGetPhysicalDeviceProperties;
    PFN_vkGetPhysicalDeviceProperties2 vkGetPhysicalDeviceProperties2;
    PFN_vkGetPhysicalDeviceMemoryProperties vkGetPhysicalDeviceMemoryProperties;
    PFN_vkGetPhysicalDeviceQueueFamilyProperties vkGetPhysicalDeviceQueueFamilyProperties;
    PFN_vkCreateDevice vkCreateDevice;
    PFN_vkGetDeviceProcAddr vkGetDeviceProcAddr;
    PFN_vkCreateDebugUtilsMessengerEXT vkCreateDebugUtilsMessengerEXT;   /* NULL without the extension */
    PFN_vkDestroyDebugUtilsMessengerEXT vkDestroyDebugUtilsMessengerEXT; /* NULL without the extension */
} vks__instance_fns;

/* Loads f from gipa for instance; returns the name of the first required function missing
 * (an instance made for Vulkan 1.0 has no vkGetPhysicalDeviceProperties2), NULL when complete. */
const char *vks__load_instance_fns(vks__instance_fns *f, PFN_vkGetInstanceProcAddr gipa, VkInstance instance);
/* Fills a VolkDeviceTable through gdpa (never through volk's global vkGetDeviceProcAddr). */
void vks__load_device_table(struct VolkDeviceTable *table, VkDevice device, PFN_vkGetDeviceProcAddr gdpa);

/* ---- instances and devices (context.c, devices.c) ---- */

/* An instance of vkskin's own through the loader (validation layer and messenger on request;
 * gpu may be NULL when nobody receives messages); fills f for it. */
vks_result vks__make_instance(vks_gpu *gpu, int validation, vks__instance_fns *f, VkInstance *out, vks_error *err);
/* Chooses gpu->physical and gpu->queue_family by gpu->opt (index, name, or best by type). */
vks_result vks__pick_device(vks_gpu *gpu, vks_error *err);
/* family UINT32_MAX: the family vkskin would choose. */
void vks__describe(const vks__instance_fns *f, VkPhysicalDevice pd, uint32_t family, vks_gpu_device_info *d);
/* The queue count of a family (0 when there is no such family), its timestamp bits and flags. */
uint32_t vks__queue_family_info(const vks__instance_fns *f, VkPhysicalDevice pd, uint32_t family,
                                uint32_t *ts_bits, VkQueueFlags *flags);

/* ---- buffers ---- */

/* A buffer with its own memory (a handful of big buffers per batch or crowd, well under
 * maxMemoryAllocationCount, so no sub-allocator). mapped is non-NULL for host-visible ones. */
typedef struct vks__buf {
    VkBuffer buffer;
    VkDeviceMemory memory;
    VkDeviceSize size;
    void *mapped;
    int host_coherent;
} vks__buf;

enum { VKS__MEM_DEVICE = 0, VKS__MEM_UPLOAD = 1, VKS__MEM_READBACK = 2 };

/* The pAllocator of every Vulkan create/destroy of a context (vks_gpu_options.vk_allocator);
 * gpu may be NULL (vks_gpu_list_devices' own instance): the driver's. */
#define VKS_VK_ALLOC(gpu) ((gpu) ? (gpu)->opt.vk_allocator : NULL)

struct vks_gpu {
    vks_gpu_options opt;
    int adopted;               /* instance and device belong to the host: never destroyed here */
    vks__instance_fns inst;    /* instance-level functions of this context */
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice physical;
    VkDevice device;
    struct VolkDeviceTable vk; /* device-level functions of this context */
    VkQueue queue;
    uint32_t queue_family, queue_index;
    VkQueueFlags queue_flags;
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceMemoryProperties mem;
    vks_gpu_device_info info;
    uint32_t validation_messages;
    int unified;      /* a memory type is device-local and host-visible: read outputs in place */
    int timestamps;   /* the queue family has timestamp bits */
    uint32_t timestamp_valid_bits;
    vks_gpu_counters counters;
    /* pipelines */
    VkShaderModule pose_module, deform_module;
    VkDescriptorSetLayout pose_dsl, deform_dsl;
    VkPipelineLayout pose_layout, deform_layout;
    VkPipeline pose_pipeline[2];   /* [0] a batch's (locals only), [1] a crowd's (made on first use) */
    VkPipeline deform_pipeline[4]; /* by influence count - 1 */
    VkShaderModule plain_module;
    VkPipeline plain_pipeline[4];  /* the plain baseline kernel (VKS_GPU_KERNEL_PLAIN) */
    uint32_t deform_wg, pose_wg, palette_cap; /* palette_cap 0: no shared palette */
    uint32_t instance_tile; /* instances per deform work item */
    uint32_t deform_variants; /* bit k: deform (and plain) pipeline k is made: some uploaded group
                                 has k + 1 influences (only those are compiled, on upload) */
    uint32_t skin_texels;   /* the deform kernel reads skin matrices through binding 10 */
    vks__launch_shape shape; /* where the five fields above came from (tuning.c) */
    char cache_dir[512];     /* the tuning and pipeline cache ("" none: tuning_cache.h) */
    vks__cache_key cache_key;
    VkPipelineCache pipeline_cache; /* VK_NULL_HANDLE: compile without one */
    size_t pipeline_cache_loaded;   /* bytes read from the cache: written back only if it grew */
    double pipeline_ms;             /* wall time in vkCreateComputePipelines so far */
    uint32_t loop_limit;    /* llvmpipe: loop iterations one invocation may run in all, 0: none */
    /* testing hooks (gpu_testing.h; zero unless made by vks_gpu_create_testing); its allocation
     * failures are armed by vks_gpu_run around its own allocations only, run_allocations counts
     * them */
    vks_gpu_testing test;
    int hooks_armed;
    uint32_t run_allocations;
    /* the batch scheduler's buffer set, kept between runs (batch.c; NULL until the first run) */
    struct vks__batch_cache *batch_cache;
};

/* ---- the tables the shaders read: std430 twins of compute/tables.glsl ---- */

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

typedef struct vks__gpu_mesh { int32_t space_node; uint32_t pad0, pad1, pad2; float pre[12]; } vks__gpu_mesh;
VKS__TWIN(vks__gpu_mesh, 64);
VKS__AT(vks__gpu_mesh, pre, 16);

typedef struct vks__gpu_group {
    uint32_t first_vertex, vertex_count, first_palette, palette_count, flags, vert_base, pad0, pad1;
} vks__gpu_group;
VKS__TWIN(vks__gpu_group, 32);
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
    uint32_t clip_entry;    /* clips: word offset of the (model, clip) entry (src/gpu/clips.c) */
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

/* Push constants of the two passes. */
typedef struct vks__pose_push { uint32_t instance_count, use_params; float time; uint32_t pad; } vks__pose_push;
VKS__TWIN(vks__pose_push, 16);
VKS__AT(vks__pose_push, time, 8);
typedef struct vks__deform_push { uint32_t work_base, work_count, grid_x, write_normals; } vks__deform_push;
VKS__TWIN(vks__deform_push, 16);

enum { VKS__GROUP_RENORMALIZE = 1u, VKS__GROUP_HAS_NORMALS = 2u };
/* Pose sources of vks__gpu_pose_param.source (the numbers are compute/tables.glsl's). */
enum { VKS__SOURCE_LOCALS = 0u, VKS__SOURCE_PROCEDURAL = 1u, VKS__SOURCE_CLIP = 2u };
/* The deform set's binding after its storage buffers: the skin matrices as a uniform texel
 * buffer (an RGBA32F view of vks__passes.skin, read by compute/deform.comp on CPU devices). */
enum { VKS__DEFORM_SKIN_TEXELS = 10 };
enum { VKS__POSE_BINDINGS = 12, VKS__DEFORM_BINDINGS = 10 };

/* A model as the scheduler needs it on the host. */
typedef struct vks__gpu_model {
    uint32_t node_count, bone_count, vertex_count;
    uint32_t first_group, group_count; /* in the set's group table */
    uint32_t node_base;                /* in the set's node tables (bind_locals) */
    uint32_t levels;                   /* depth levels of its skeleton (the pose pass's nodes variant) */
} vks__gpu_model;

struct vks_gpu_models {
    vks_gpu *gpu;
    uint32_t count;
    vks__gpu_model *models;
    vks__gpu_group *groups; /* host copy of the group table (work items refer to it) */
    uint32_t *group_influences; /* 1..4 per group */
    uint32_t group_count;
    vks_affine *bind_locals;   /* host copy of every node's bind local (a crowd starts from it) */
    vks__buf models_buf, parents, bones, meshes, groups_buf, palette, pos, nrm, infl, binds;
    vks__buf levels; /* per model its nodes sorted by depth, with level starts (compute/pose.comp) */
};

vks_result vks__buf_create(vks_gpu *gpu, VkDeviceSize size, int kind, vks__buf *out, vks_error *err);
/* The same with usage flags added to storage | transfer src | transfer dst (e.g. vertex). */
vks_result vks__buf_create_usage(vks_gpu *gpu, VkDeviceSize size, int kind, VkBufferUsageFlags usage,
                                 vks__buf *out, vks_error *err);
void vks__buf_destroy(vks_gpu *gpu, vks__buf *b);
/* Copies bytes into a host-visible buffer (flushing when not coherent). */
void vks__buf_write(vks_gpu *gpu, vks__buf *b, VkDeviceSize at, const void *src, size_t size);
void vks__buf_flush(vks_gpu *gpu, vks__buf *b);
void vks__buf_invalidate(vks_gpu *gpu, vks__buf *b);
/* Writes zeros over a host-visible buffer once, so no later write finds a fresh page. */
void vks__buf_touch(vks_gpu *gpu, vks__buf *b);
vks_result vks__vk_fail(vks_error *err, VkResult r, const char *what);

vks_result vks__pipelines_create(vks_gpu *gpu, vks_error *err);
/* The deform pipelines of the influence variants in mask (bit k: k + 1 influences) that are
 * not made yet: vks_gpu_upload asks for its groups' variants, so a context compiles only the
 * deform kernels its models use (each is an LLVM compile on lavapipe's cold cache). */
vks_result vks__deform_pipelines(vks_gpu *gpu, uint32_t mask, vks_error *err);
/* The plain kernel's pipelines, made on first use (VKS_GPU_KERNEL_PLAIN), for the same variants. */
vks_result vks__plain_pipelines(vks_gpu *gpu, vks_error *err);
void vks__pipelines_destroy(vks_gpu *gpu);
/* The facts of the context's device that the tuning table reads (tuning.h). */
vks__device_facts vks__gpu_facts(const vks_gpu *gpu);
/* Rebuilds the shape-dependent pipelines for shape s (waits for the queue to idle first):
 * vks_gpu_tune's switch between candidates, which drops the kept batch buffers beforehand
 * (their work tables are sized for the old workgroup and run). */
vks_result vks__pipelines_reshape(vks_gpu *gpu, const vks__launch_shape *s, vks_error *err);

/* One command buffer and fence of the context's own, with their pool, for work on its queue
 * (uploads, readback, a crowd's frames, a batch's chunks): waited for by its fence, never by
 * the queue or the device, which may be the host's. */
typedef struct vks__oneshot {
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
} vks__oneshot;
vks_result vks__oneshot_create(vks_gpu *gpu, vks__oneshot *o, vks_error *err);
/* Resets and begins o->cmd. */
void vks__oneshot_begin(vks_gpu *gpu, vks__oneshot *o);
/* Ends and submits o->cmd, signalling o->fence (send); waits for that fence and resets it
 * (wait); both (submit). */
vks_result vks__oneshot_send(vks_gpu *gpu, vks__oneshot *o, vks_error *err);
vks_result vks__oneshot_wait(vks_gpu *gpu, vks__oneshot *o, vks_error *err);
vks_result vks__oneshot_submit(vks_gpu *gpu, vks__oneshot *o, vks_error *err);
void vks__oneshot_destroy(vks_gpu *gpu, vks__oneshot *o);
/* A device buffer holding size bytes of data (models.c): written in place where the memory is
 * host-visible, else through a staging buffer and a copy on once (made when needed). what names
 * the table in a VKS_ERR_LIMIT over maxStorageBufferRange. */
/* The pose pass's loop iterations for one instance of a model with these counts, plus extra
 * (clip sampling), checked against gpu->loop_limit: VKS_ERR_LIMIT naming what when over.
 * meshes: the bone loop runs once per mesh; levels: the skeleton's depth levels, which the
 * nodes variant loops over (vks__gpu_model). */
/* Sanitizer builds: pins the Vulkan drivers loaded now so the loader cannot unload them
 * (keep_drivers.c); nothing otherwise. Called once an instance exists. */
void vks__keep_drivers_loaded(void);
vks_result vks__check_pose_loops(const vks_gpu *gpu, const char *what, uint32_t nodes, uint32_t bones,
                                 uint32_t meshes, uint32_t levels, uint64_t extra, vks_error *err);
/* The pose pipeline for a pass set with pose parameters (a crowd), made on first use. */
vks_result vks__pose_params_pipeline(vks_gpu *gpu, vks_error *err);
vks_result vks__upload_table(vks_gpu *gpu, vks__oneshot *once, const char *what, const void *data, size_t size,
                             vks__buf *out, vks_error *err);

/* The median of v[0..n) (n > 0; v is sorted in place): timings of repeated runs (tune, ceilings). */
double vks__median(double *v, uint32_t n);

void vks__barrier(vks_gpu *gpu, VkCommandBuffer cmd, VkPipelineStageFlags src, VkAccessFlags sa,
                  VkPipelineStageFlags dst, VkAccessFlags da);

/* ---- the pass core (passes.c): one pose pass and one deform pass over a set of instances ---- */

/* Capacities of one pass set: output vertices, node/bone matrices, instances, work items. */
typedef struct vks__caps {
    uint64_t vertices, matrices, instances, works;
} vks__caps;

/* The buffers and descriptor sets of the passes over one set of instances: a chunk of
 * vks_gpu_run (refilled per chunk) or a part of a crowd (filled once, reused every frame).
 * Instance i of the set has insts[i] (and params[i] when the set has pose parameters);
 * locals and world share the instance's matrix offset (locals_off == skin_off). */
typedef struct vks__passes {
    vks__buf insts, params, locals, world, skin, works, out_pos, out_nrm;
    VkDescriptorSet pose_set, deform_set;
    VkBufferView skin_view;              /* skin as RGBA32F texels (binding 10 of deform_set) */
    uint32_t instance_count;             /* instances the pose pass runs over */
    uint32_t work_base[4], work_count[4];/* per influence variant, in the works buffer */
    uint32_t normals;                    /* 1: the deform pass writes normals */
    uint32_t use_params;                 /* 1: pose sources and roots from params */
    const vks__buf *clip_words;          /* the crowd's clips (binding 10), not owned; NULL: none */
    uint32_t plain;                      /* 1: the plain baseline kernel (batch only) */
} vks__passes;

typedef struct vks__passes_desc {
    vks__caps cap;
    int out_kind;                 /* VKS__MEM_DEVICE or VKS__MEM_READBACK */
    VkBufferUsageFlags out_usage; /* added to the outputs' storage | transfer usage */
    int params;                   /* a pose-parameter table, one entry per instance (crowds) */
    int normals;
    const vks__buf *clip_words;   /* the crowd's clips (vks_gpu_clips), not owned; may be NULL */
} vks__passes_desc;

/* A descriptor pool for `sets` pass sets (a pose and a deform set each). */
vks_result vks__passes_pool(vks_gpu *gpu, uint32_t sets, VkDescriptorPool *out, vks_error *err);
/* Creates the buffers of p for d and writes its descriptor sets, allocated from pool. On
 * failure what was made stays in p for vks__passes_destroy. */
vks_result vks__passes_create(vks_gpu *gpu, const vks_gpu_models *ms, const vks__passes_desc *d,
                              VkDescriptorPool pool, vks__passes *p, vks_error *err);
/* (Re)writes p's descriptor sets for the model set ms (sets not in use by the device). */
void vks__passes_bind(vks_gpu *gpu, const vks_gpu_models *ms, vks__passes *p);
/* Frees the buffers (the sets go with their pool). */
void vks__passes_destroy(vks_gpu *gpu, vks__passes *p);
/* The output bytes of one stream in one chunk of vks_gpu_run: under the storage-binding range
 * (each table is bound whole), an eighth of the device-local heap per ring slot (two output
 * streams and tables of similar size: half the heap left free), half the host budget per slot
 * (1 GiB in all), and the caller's cap (0: none). Pure: tested against real devices' limits
 * (tests/unit/test_chunk_budget.c). */
uint64_t vks__chunk_budget(uint64_t storage_range, uint64_t device_heap, uint32_t ring, uint64_t cap);
/* Frees the batch scheduler's kept buffer set (vks_gpu_trim; vks_gpu_destroy). */
void vks__batch_cache_free(vks_gpu *gpu);
/* Deform work items of one instance of a model: a block of up to wg vertices per group. */
uint32_t vks__blocks_of(const vks_gpu_models *ms, uint32_t model, uint32_t wg);
/* Appends the work items of `count` instances of model, the first being instance inst_first
 * of the set, to the per-variant lists (wl[k] must have room); returns the items added. */
uint32_t vks__works_append(const vks_gpu *gpu, const vks_gpu_models *ms, uint32_t model, uint32_t inst_first,
                           uint32_t count, vks__gpu_work *const wl[4], uint32_t wn[4]);
/* Lays the variants out one after the other in p->works and records where each starts. */
void vks__works_commit(vks_gpu *gpu, vks__passes *p, vks__gpu_work *const wl[4], const uint32_t wn[4]);
/* Records the pose pass, a compute -> compute barrier and the deform pass (one dispatch per
 * influence variant). time is the procedural sources' frame time. With a query pool, resets
 * queries q0..q0+2 and writes timestamps before the pose pass, after it and after the deform
 * pass. Host writes to the tables are made visible by the submission, not here. */
void vks__passes_record(vks_gpu *gpu, VkCommandBuffer cmd, const vks__passes *p, float time, VkQueryPool qpool,
                        uint32_t q0);

#endif
