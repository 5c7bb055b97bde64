/* Private to the Vulkan backend (src/gpu/vulkan): the context, its function tables, the
 * uploaded model set, the pipelines, and the pass core that both the batch scheduler and the
 * crowd record through. What the renderer may use of it is in vk_shared.h; the tables the
 * shaders read and the planning are backend-neutral (gpu/tables.h, gpu/plan.h). */
#ifndef VKS_GPU_INTERNAL_H
#define VKS_GPU_INTERNAL_H

#include <volk.h> /* before any Vulkan header: volk declares the entry points as pointers */

#include <stddef.h>

#include "vkskin/gpu.h"
#include "vkskin/gpu_testing.h"
#include "vkskin/gpu_vulkan.h"
#include "vk_shared.h"
#include "gpu/backend.h"
#include "gpu/plan.h"
#include "gpu/tuning.h"
#include "gpu/tuning_cache.h"
#include "gpu/tuning_start.h"

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
/* vks__buf_create_usage; with shared, a buffer that both the compute and the readback family
 * use: concurrent sharing across the two when they differ, exclusive when they are one. */
vks_result vks__buf_create_shared(vks_gpu *gpu, VkDeviceSize size, int kind, VkBufferUsageFlags usage, int shared,
                                  vks__buf *out, vks_error *err);
/* Chooses gpu->physical, gpu->queue_family and gpu->readback_family by gpu->opt (index, name,
 * or best by type). */
vks_result vks__pick_device(vks_gpu *gpu, vks_error *err);
/* family UINT32_MAX: the family vkskin would choose. */
void vks__describe(const vks__instance_fns *f, VkPhysicalDevice pd, uint32_t family, vks_gpu_device_info *d);
/* The queue count of a family (0 when there is no such family), its timestamp bits and flags. */
uint32_t vks__queue_family_info(const vks__instance_fns *f, VkPhysicalDevice pd, uint32_t family,
                                uint32_t *ts_bits, VkQueueFlags *flags);


/* The pAllocator of every Vulkan create/destroy of a context (vks_gpu_options.vk_allocator);
 * gpu may be NULL (vks_gpu_list_devices' own instance): the driver's. */
#define VKS_VK_ALLOC(gpu) ((gpu) ? (gpu)->opt.vk_allocator : NULL)

/* A launch shape beside the context's, for the crowds of one size class (tuning.h: the
 * small-model class): the shape, and its deform pipelines where they differ from the
 * context's (own 1; made by vks__small_set for the variants uploaded so far). Its pose pass is
 * the context's (tuning_start.h). */
typedef struct vks__shape_set {
    vks__launch_shape shape;
    uint32_t own;
    VkPipeline deform[VKS__DEFORM_VARIANTS], deform_morph[VKS__DEFORM_VARIANTS];
} vks__shape_set;

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
    /* Where the readback copies go (stream_ring.c, batch.c, ceilings.c; queue_choice.h): a
     * copy engine's queue of its own family on a device of vkskin's own that has one, else the
     * context's queue. readback_apart: the copies are a submission of their own, linked to the
     * compute one by a semaphore (a separate family, or VKSKIN_TEST_SEPARATE_READBACK on one
     * queue); 0: recorded after the passes in the compute submission, as on a single-family
     * device. */
    VkQueue readback_queue;
    uint32_t readback_family, readback_index;
    int readback_apart;
    uint32_t readback_timestamp_bits; /* of the readback family: 0, the copies there go untimed */
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
    VkPipeline pose_pipeline[3];   /* [0] a batch's (locals only), [1] a crowd's, [2] a crowd's with
                                      layered instances (both made on first use) */
    VkPipeline deform_pipeline[VKS__DEFORM_VARIANTS]; /* by variant (plan.h: 1..4 influences, 8) */
    VkShaderModule plain_module;
    VkPipeline plain_pipeline[VKS__DEFORM_VARIANTS]; /* the plain baseline kernel (VKS_GPU_KERNEL_PLAIN) */
    /* the same kernels with the morph stage compiled in (MORPH 1), made once a model set with
       morph targets is uploaded (deform_variants' VKS__MORPH_KERNELS bit): the others stay as
       they were */
    VkPipeline deform_morph_pipeline[VKS__DEFORM_VARIANTS], plain_morph_pipeline[VKS__DEFORM_VARIANTS];
    VkShaderModule reduce_module;  /* the verdict's reduction (reduce.c), made on first use */
    VkDescriptorSetLayout reduce_dsl;
    VkPipelineLayout reduce_layout;
    VkPipeline reduce_pipeline;
    /* validate's deform pass with the reduction folded in (compute/reduce_fold.glsl): a module
       of its own, set 1 the reduction's (reduce_dsl); pipelines made on first use, for the
       variants and shape of the plain deform ones and dropped with them */
    VkShaderModule deform_reduce_module;
    VkPipelineLayout deform_reduce_layout;
    VkPipeline deform_reduce_pipeline[VKS__DEFORM_VARIANTS], deform_reduce_morph_pipeline[VKS__DEFORM_VARIANTS];
    int reduce_apart; /* testing (VKSKIN_TEST_SEPARATE_REDUCE): batches reduce in a pass of their own */
    uint32_t deform_wg, pose_wg, palette_cap; /* palette_cap 0: no shared palette */
    uint32_t instance_tile; /* instances per deform work item */
    uint32_t deform_variants; /* bit k: deform (and plain) pipeline k is made: some uploaded group
                                 needs variant k (only those are compiled, on upload); bit
                                 VKS__MORPH_KERNELS: their morph variants too (morph targets) */
    uint32_t skin_texels;   /* the deform kernel reads skin matrices through binding 12 */
    vks__launch_shape shape; /* where the five fields above came from (tuning.c) */
    vks__shape_set small;     /* the small-model class's shape (tuning_start.h) and, where its
                                 deform fields differ from shape's, its own deform pipelines */
    int small_calibrated;     /* its calibration at first use was tried (tune.c): once a context */
    int calibrating;          /* vks_gpu_tune's runs are under way (no calibration inside them) */
    int first_use_calibrated; /* calibration at first use was tried (tune.c): once a context */
    uint32_t live_crowds;     /* crowds made and not destroyed: no calibration at first use
                                 while one lives (its work lists fit the shape it was made with) */
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

struct vks_gpu_models {
    vks_gpu *gpu;
    uint32_t count;
    vks__gpu_model *models;
    vks__gpu_group *groups; /* host copy of the group table (work items refer to it) */
    uint32_t *group_influences; /* 1..8 per group: the slots its vertices use */
    uint32_t group_count;
    vks_affine *bind_locals;   /* host copy of every node's bind local (a crowd starts from it) */
    vks__buf models_buf, parents, bones, meshes, groups_buf, palette, pos, nrm, infl, binds;
    vks__buf morph;  /* the groups' morph deltas (models_morph.c; 16 bytes when none) */
    int morph_any;   /* some model has morph targets */
    float *morph_defaults;  /* every model's targets' default weights, model by model */
    uint32_t *morph_first;  /* per model: its first in morph_defaults (count + 1 entries) */
    vks__buf levels; /* per model its nodes sorted by depth, with level starts (compute/pose.comp) */
};

/* The planning's view of a model set (plan.h): its host tables, no device buffer. */
static inline vks__plan_models vks__plan_of(const vks_gpu_models *ms)
{
    return (vks__plan_models){ms->count, ms->models, ms->groups, ms->group_influences};
}


/* vks_gpu.deform_variants' bit for the kernels with the morph stage (apart from the variants'). */
#define VKS__MORPH_KERNELS (1u << 8)

/* The morph table and the groups' and models' morph fields (models_morph.c): after the groups
 * are filled, before they are uploaded. */
vks_result vks__upload_morph(vks_gpu *gpu, vks_gpu_models *ms, const vks_skin *const *skins, uint32_t count,
                             vks_error *err);

/* Instance inst of batch entry `entry` (model `model`): its weights from b->get_weights, less
 * the targets' defaults (the uploaded rest is at the defaults), into dst. */
void vks__morph_weights_put(const vks_gpu_models *ms, const vks_gpu_batch *b, uint32_t entry, uint32_t model,
                            uint32_t inst, float *dst);

vks_result vks__pipelines_create(vks_gpu *gpu, vks_error *err);
/* The deform pipelines of the influence variants in mask (bit k: k + 1 influences) that are
 * not made yet: vks_gpu_upload asks for its groups' variants, so a context compiles only the
 * deform kernels its models use (each is an LLVM compile on lavapipe's cold cache). */
vks_result vks__deform_pipelines(vks_gpu *gpu, uint32_t mask, vks_error *err);
/* The plain kernel's pipelines, made on first use (VKS_GPU_KERNEL_PLAIN), for the same variants. */
vks_result vks__plain_pipelines(vks_gpu *gpu, vks_error *err);
void vks__pipelines_destroy(vks_gpu *gpu);
/* The reduction pass's pipeline (compute/reduce.comp), made on first use. */
vks_result vks__reduce_pipeline(vks_gpu *gpu, vks_error *err);
/* The deform pipelines with the reduction fused in, for the variants made so far (those not
 * made yet); VKS_ERR_UNSUPPORTED without subgroup arithmetic, as vks__reduce_pipeline. */
vks_result vks__deform_reduce_pipelines(vks_gpu *gpu, vks_error *err);
/* The facts of the context's device that the tuning table reads (tuning.h). */
vks__device_facts vks__gpu_facts(const vks_gpu *gpu);
vks__device_facts vks__facts_of(const VkPhysicalDeviceProperties *p, uint32_t subgroup_size);
vks__cache_key vks__cache_key_of(const VkPhysicalDeviceProperties *p);
/* Rebuilds the shape-dependent pipelines for shape s (waits for the queue to idle first):
 * vks_gpu_tune's switch between candidates, which drops the kept batch buffers beforehand
 * (their work tables are sized for the old workgroup and run). */
vks_result vks__pipelines_reshape(vks_gpu *gpu, const vks__launch_shape *s, vks_error *err);
/* The shape set a crowd whose largest share of work is a model of `vertices` vertices runs
 * with, into *out: the small-model class's (its pipelines made for the variants uploaded so
 * far) where the model is small and the class's shape differs from the context's; NULL (the
 * context's shape and pipelines) otherwise. Fails only where its pipelines cannot be made. */
vks_result vks__shape_set_for(vks_gpu *gpu, uint32_t vertices, const vks__shape_set **out, vks_error *err);
/* The small-model class's shape replaced by s (its calibration, or following the context's):
 * its pipelines dropped, made again by the next vks__shape_set_for. */
void vks__small_set_replace(vks_gpu *gpu, const vks__launch_shape *s);
/* What vks_gpu_launch_shape says, of the small-model class's shape (its cache entry, and
 * whether a large enough crowd of a small model would calibrate it). */
void vks__small_launch_shape(const vks_gpu *gpu, vks_gpu_shape_info *out);
/* The vertex count of the model with the largest share of batch b's work, which names its size
 * class (vks__shape_set_for); 0 where the batch keeps the context's shape whatever its models
 * (the plain kernel, or the reduction: validate's runs). */
uint32_t vks__batch_class_vertices(const vks_gpu *gpu, const vks_gpu_models *ms, const vks_gpu_batch *b);
/* The launch shape a pass set runs with: its set's, else the context's. */
static inline const vks__launch_shape *vks__shape_of_set(const vks_gpu *gpu, const vks__shape_set *set)
{
    return set ? &set->shape : &gpu->shape;
}
/* The public view of a launch shape (gpu.h's vks_gpu_shape_info: the fields a shape decides). */
void vks__shape_info_of(const vks__launch_shape *s, vks_gpu_shape_info *out);
/* 1 while calibration at first use may still come in this context, whatever the work (tuning
 * start.h's conditions but the size): what vks_gpu_launch_shape says, and whether a stream
 * fetches its instances to size its work. Here, not in tune.c, so that the pipelines that
 * report it need not reach up to the calibration. */
static inline int vks__gpu_first_use_open_for(const vks_gpu *gpu, const vks__launch_shape *shape, int tried)
{
    /* a live crowd's work lists are cut for the shape it was made with (crowd.c) */
    return !gpu->calibrating && !tried && !gpu->adopted && gpu->timestamps && !gpu->live_crowds &&
           vks__calibration_wanted(shape, gpu->opt.calibrate);
}
/* ... for the context's shape (the small-model class's: vks__small_launch_shape). */
static inline int vks__gpu_first_use_open(const vks_gpu *gpu)
{
    return vks__gpu_first_use_open_for(gpu, &gpu->shape, gpu->first_use_calibrated);
}
/* vks__calibrate_work_at_first_use and vks__first_use_open: gpu/backend.h. */

/* Sanitizer builds: pins the Vulkan drivers loaded now so the loader cannot unload them
 * (keep_drivers.c); nothing otherwise. Called once an instance exists. */
void vks__keep_drivers_loaded(void);
/* The pose pass's loop iterations for one instance of a model with these counts, plus extra
 * (clip sampling), checked against gpu->loop_limit: VKS_ERR_LIMIT naming what when over.
 * meshes: the bone loop runs once per mesh; levels: the skeleton's depth levels, which the
 * nodes variant loops over (vks__gpu_model). */
vks_result vks__check_pose_loops(const vks_gpu *gpu, const char *what, uint32_t nodes, uint32_t bones,
                                 uint32_t meshes, uint32_t levels, uint64_t extra, vks_error *err);
/* The pose pipeline for a pass set with pose parameters (a crowd), made on first use. */
/* The crowd pose pipeline of variant use_params (1 plain, 2 with layers), made on first use. */
vks_result vks__pose_params_pipeline(vks_gpu *gpu, uint32_t use_params, vks_error *err);
/* A device buffer holding size bytes of data (buffer.c): written in place where the memory is
 * host-visible, else through a staging buffer and a copy on once (made when needed). what names
 * the table in a VKS_ERR_LIMIT over maxStorageBufferRange. */
vks_result vks__upload_table(vks_gpu *gpu, vks__oneshot *once, const char *what, const void *data, size_t size,
                             vks__buf *out, vks_error *err);


/* ---- the verdict's reduction (reduce.c): a chunk's outputs summed up into a few words ---- */

/* Its result words (compute/reduce.comp says what each is), the descriptor set that binds a
 * chunk's outputs to it, and its pool. */
typedef struct vks__reduce {
    vks__buf result; /* host-visible: the host reads it after the chunk's fence */
    VkDescriptorPool pool;
    VkDescriptorSet set;
} vks__reduce;
/* Makes r for the outputs pos and nrm (nrm: the stream the pass reads when normals are on;
 * any valid buffer otherwise); makes the pipeline on first use. */
vks_result vks__reduce_create(vks_gpu *gpu, const vks__buf *pos, const vks__buf *nrm, vks__reduce *r, vks_error *err);
void vks__reduce_destroy(vks_gpu *gpu, vks__reduce *r);
/* Binds r to other outputs (r not in use by a pending submission). */
void vks__reduce_bind(vks_gpu *gpu, vks__reduce *r, const vks__buf *pos, const vks__buf *nrm);
/* Records after the pass that wrote the outputs: a barrier (its shader writes before these
 * reads), the result's reset, the dispatch, and a barrier to the host's read. */
void vks__reduce_record(vks_gpu *gpu, VkCommandBuffer cmd, const vks__reduce *r, uint64_t vertices, int normals);
/* The same over vertices [first, first + vertices) of the bound buffers (the stream's chunk in
 * a crowd part's outputs, stream_ring.c). */
void vks__reduce_record_range(vks_gpu *gpu, VkCommandBuffer cmd, const vks__reduce *r, uint64_t first,
                              uint64_t vertices, int normals);
/* The fused form (a batch's; compute/reduce_fold.glsl): the result words reset, before the
 * passes whose deform pass folds into them (vks__passes.reduce_set = r->set), and after those
 * passes a barrier from their atomics to the host's read. */
void vks__reduce_reset(vks_gpu *gpu, VkCommandBuffer cmd, const vks__reduce *r);
void vks__reduce_to_host(vks_gpu *gpu, VkCommandBuffer cmd);
/* The figures of the last recorded reduction (after its fence). */
void vks__reduce_read(vks_gpu *gpu, vks__reduce *r, vks_gpu_figures *out);

/* ---- the pass core (passes.c): one pose pass and one deform pass over a set of instances ---- */


/* The buffers and descriptor sets of the passes over one set of instances: a chunk of
 * vks_gpu_run (refilled per chunk) or a part of a crowd (filled once, reused every frame).
 * Instance i of the set has insts[i] (and params[i] when the set has pose parameters);
 * locals and world share the instance's matrix offset (locals_off == skin_off). */
typedef struct vks__passes {
    vks__buf insts, params, locals, world, skin, works, out_pos, out_nrm;
    VkDescriptorSet pose_set, deform_set;
    VkBufferView skin_view;              /* skin as RGBA32F texels (binding 12 of deform_set) */
    uint32_t instance_count;             /* instances the pose pass runs over */
    uint32_t work_base[VKS__DEFORM_VARIANTS], work_count[VKS__DEFORM_VARIANTS]; /* per influence
                                            variant, in the works buffer */
    uint32_t normals;                    /* 1: the deform pass writes normals */
    uint32_t use_params;                 /* 1: pose sources and roots from params; 2: the same
                                            with layered instances (vks__gpu_layered_param) */
    const vks__buf *clip_words;          /* the crowd's clips (binding 10), not owned; NULL: none */
    uint32_t plain;                      /* 1: the plain baseline kernel (batch only) */
    uint32_t morph;                      /* 1: the instances' morph weights are in the slots before
                                            their locals (a batch's, written by the host) or
                                            worlds (a crowd's, by the pose pass): compute/morph.glsl */
    VkDescriptorSet reduce_set;          /* a vks__reduce's set: the deform pass folds its outputs
                                            into its result words (validate's variant, set 1);
                                            VK_NULL_HANDLE: the plain deform pass */
    const vks__shape_set *set;           /* a crowd's shape apart from the context's (its deform
                                            pipelines; the works were cut for its wg and run);
                                            NULL: the context's */
    /* A crowd part's stagger (vks__crowd_slices; 0 or 1: none): slice s holds instances
       [slice_first[s], slice_first[s + 1]) and, of influence variant k, the work items
       [work_base[k] + slice_work[s][k], work_base[k] + slice_work[s + 1][k]) */
    uint32_t slices;
    uint32_t slice_first[VKS__MAX_SLICES + 1];
    uint32_t slice_work[VKS__MAX_SLICES + 1][VKS__DEFORM_VARIANTS];
} vks__passes;

typedef struct vks__passes_desc {
    vks__caps cap;
    int out_kind;                 /* VKS__MEM_DEVICE or VKS__MEM_READBACK */
    VkBufferUsageFlags out_usage; /* added to the outputs' storage | transfer usage */
    int shared_outputs;           /* the readback queue copies the outputs (vks__buf_create_shared) */
    int params;                   /* a pose-parameter table, one entry per instance (crowds);
                                     2: layered entries (vks__gpu_layered_param) */
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
/* Frees the batch scheduler's kept buffer set (vks_gpu_trim; vks_gpu_destroy). */
void vks__batch_cache_free(vks_gpu *gpu);
/* Lays the variants out one after the other in p->works and records where each starts. */
void vks__works_commit(vks_gpu *gpu, vks__passes *p, vks__gpu_work *const wl[VKS__DEFORM_VARIANTS],
                       const uint32_t wn[VKS__DEFORM_VARIANTS]);
/* Records the pose pass, a compute -> compute barrier and the deform pass (one dispatch per
 * influence variant). time is the procedural sources' frame time. With a query pool, resets
 * queries q0..q0+2 and writes timestamps before the pose pass, after it and after the deform
 * pass. Host writes to the tables are made visible by the submission, not here.
 * A sliced set (p->slices > 1) is recorded staggered: the pose of slice 0, a barrier, then for
 * each slice its deform and the next slice's pose with no barrier between them (they touch
 * other instances' matrices and outputs), and a barrier before the next deform. Its q0 + 1
 * then follows slice 0's pose alone. */
void vks__passes_record(vks_gpu *gpu, VkCommandBuffer cmd, const vks__passes *p, float time, VkQueryPool qpool,
                        uint32_t q0);

#endif
