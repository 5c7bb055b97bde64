/* vkskin GPU engine: batch deformation on Vulkan compute (DESIGN.md section 7).
 *
 * STEP BY STEP (each call says when it may be made, the way volk.h does)
 *   1. vks_gpu_list_devices(devs, 8, &n, &err)     any time; creates and drops its own instance
 *   2. vks_gpu_create(&opt, &gpu, &err)            opt may be zeroed: best device, no validation.
 *                                                  VKS_ERR_NO_DEVICE when there is no Vulkan device
 *   3. vks_gpu_upload(gpu, skins, m, &models, &err)  after create; the skins must be validated
 *                                                  (vks_skin_validate) and may be freed afterwards
 *   4. vks_gpu_run(gpu, &batch, &stats, &err)      as often as needed; outputs reach batch.deliver
 *                                                  chunk by chunk, on the calling thread
 *      vks_gpu_trim(gpu)                           any time between runs: frees the buffers
 *                                                  vks_gpu_run keeps (see BUFFER LIFETIME)
 *   5. vks_gpu_models_free(models)                 before destroy
 *   6. vks_gpu_validation_messages(gpu)            validation-layer warnings/errors seen so far
 *   7. vks_gpu_destroy(gpu)                        last; NULL is fine
 *
 * The context can also adopt the host application's instance, device and queue
 * (vks_gpu_options.host: gpu_vulkan.h, with everything else that names a Vulkan type), and a
 * persistent crowd (crowd.h) records its passes into the host's command buffers every frame;
 * vks_gpu_run is the batch client of the same pass core. Deliberate faults and failures, for
 * tests that prove a check can fail, are in gpu_testing.h, not in these options.
 *
 * Vulkan is loaded through volk; the instance's and the device's functions live in tables
 * inside the context, loaded through its own vkGetInstanceProcAddr (the loader's, or the
 * host's), so two contexts may coexist. The only volk global vkskin sets is the loader, opened
 * once per process (thread-safe).
 *
 * THREADS
 *   A context, its models and crowds are used from one thread at a time; separate contexts
 *   may be used from separate threads. vks_gpu_create and vks_gpu_list_devices may run on
 *   several threads at once: the loader is opened once under pthread_once (volk_impl.c) and
 *   nothing else global is written (test_gpu_adopt creates contexts from two threads). The
 *   logger may be called from the driver's thread; the VkAllocationCallbacks from any thread
 *   that calls into the context.
 *
 * Work split. A batch is many instances of several models. It is cut into chunks of whole
 * instances sized under maxStorageBufferRange, a device-memory budget, a host-memory budget and
 * an optional cap; each chunk is one command buffer: a pose pass (one thread per instance:
 * locals -> world through the parents -> skin matrices K_b = S_mesh W IB) and a deform pass
 * (one workgroup per block of a group's vertices, looping over instances with the group's
 * palette gathered through its remap into shared memory; one dispatch per influence-count
 * variant, never per instance). Chunks go through a ring of buffer sets, so the GPU deforms
 * chunk k+1 while the host consumes chunk k. VK_ERROR_OUT_OF_DEVICE_MEMORY (or _HOST_MEMORY)
 * while allocating makes the scheduler retry with chunks half as big, down to chunks of one
 * instance of the batch's largest model, then with a single buffer set; when even that cannot
 * be allocated vks_gpu_run fails with VKS_ERR_NOMEM ("smallest chunk ... still out of memory").
 * A model one instance of which needs more than maxStorageBufferRange in any per-chunk table
 * is refused up front with VKS_ERR_LIMIT.
 *
 * BUFFER LIFETIME
 *   The buffer sets of the ring (per-chunk tables, outputs, staging), their descriptor sets,
 *   command buffers, fences and timestamp query pool belong to the context, not to one call:
 *   the first vks_gpu_run makes them, and later runs reuse them whenever they are big enough
 *   (chunk capacities, ring length, readback and normals), so a steady stream of batches of
 *   one shape allocates nothing and never writes to a fresh page (the first write to a fresh
 *   page costs a page fault on the host, and on CPU devices inside the kernel). A run that
 *   needs more replaces them once with a set big enough for both shapes (grow-only). Their
 *   host-visible memory is written once when they are made. They stay until vks_gpu_trim or
 *   vks_gpu_destroy: up to a ring of chunks (by default 2 x (2 output streams of at most
 *   maxStorageBufferRange + tables)) of device and host memory between runs. The descriptor
 *   sets are rewritten at the start of each run, so each run may use other models.
 */
#ifndef VKSKIN_GPU_H
#define VKSKIN_GPU_H

#include "skin.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vks_gpu vks_gpu;
struct vks_gpu_host; /* gpu_vulkan.h */
typedef struct vks_gpu_models vks_gpu_models;

typedef struct vks_gpu_options {
    int device_index;        /* >= 0: that device of vks_gpu_list_devices; default (-1 or 0 with
                                device_name NULL and use_device_index 0): best by type */
    int use_device_index;    /* nonzero: device_index is meaningful */
    const char *device_name; /* case-insensitive substring of the device name (wins over index) */
    int validation;          /* enable VK_LAYER_KHRONOS_validation and count its messages */
    int force_staging;       /* read back through staging copies even on unified memory */
    int quiet;               /* do not pass validation messages to the logger (still counted) */
    int shared_palette;      /* 0: by device (shared memory on GPUs, none on CPU devices, where
                                barriers are slow); 1: always; -1: never */
    /* Non-NULL: adopt the host's instance, physical device, device and queue (gpu_vulkan.h) instead
     * of creating them; device_index, use_device_index, device_name and validation are then
     * ignored. NULL (default): vkskin makes its own. */
    const struct vks_gpu_host *host;
    /* Validation-layer warnings (VKS_LOG_WARNING) and errors (VKS_LOG_ERROR), as "validation
     * warning: <text>". Called from the thread the driver reports on. Default: silent (the
     * messages are still counted: vks_gpu_validation_messages). */
    vks_logger logger;
    /* Host-memory callbacks passed to every vkCreate*, vkAllocateMemory, vkDestroy* and vkFree*
     * the context makes (its own instance and device included; not the throwaway instance of
     * vks_gpu_list_devices). Must outlive the context. Default NULL: the driver's. */
    const struct VkAllocationCallbacks *vk_allocator;
    /* Nonzero: this context will render (render.h; vkskin render, validate --report's heat maps,
     * bake's sheets): its queue is of a family with graphics and compute (a device without one
     * still gets a context for batch work, and vks_render_create says why it cannot draw).
     * 0 (default): batch work only, for which vkskin prefers a compute-only family where the
     * device has one (the asynchronous compute queue of AMD and NVIDIA GPUs); vks_render_create
     * then fails with VKS_ERR_UNSUPPORTED on such a device. Ignored with host (the host chose
     * the queue). */
    int will_render;
    /* Launch-shape override of the compute passes, comma-separated key=value pairs:
     * "wg=256,run=8,palette=off,texels=on" (wg, pose_wg: workgroup sizes, powers of two;
     * run: instances a deform work item loops over, 1..256; palette: on, off or a slot count
     * of the shared skin-matrix palette; texels: skin matrices through a texel buffer; the
     * other keys: docs/performance.md). A key written small.KEY sets the small-model class's
     * shape alone. Applied after shared_palette. NULL or "": the tuning table's shape for the device
     * (src/gpu/tuning.c). A shape the device cannot run fails vks_gpu_create with
     * VKS_ERR_INVALID, saying why. Results are the same for every shape (tested). */
    const char *launch_shape;
    /* Folder of the measured launch shapes (vks_gpu_tune) and of the compiled pipelines, keyed
     * by device, driver and vkskin version. NULL: $XDG_CACHE_HOME/vkskin, else
     * $HOME/.cache/vkskin; "": no cache. Never required: an absent, unwritable or damaged cache
     * only costs the measurement and the compile (a damaged entry is ignored with a warning). */
    const char *cache_dir;
    /* Calibration at first use (docs/performance.md: Launch shapes): on a device the tuning table does not
     * know, with no measured shape in the cache, the first vks_crowd_create, vks_stream_run or
     * vks_gpu_calibrate_for_batch (the explicit step before vks_gpu_run, which never calibrates)
     * large enough to repay it (at least 16 times the calibration's own vertex-instances and
     * at least 2^26; a crowd's work is its vertex-instances per frame times
     * vks_crowd_desc.frames, 60 where that is 0) first runs vks_gpu_tune's calibration on its
     * largest model, stores the winner in the cache and runs with it (source "calibration");
     * not while a crowd of the context lives (its work lists fit the shape it was made with). 0 (default): so; < 0: never (also the environment
     * variable VKSKIN_NO_CALIBRATE=1). Never on an adopted device (host): the calibration
     * waits for the queue to idle; call vks_gpu_tune there. A launch_shape or shared_palette
     * override turns it off too. The small-model class (work whose largest share is a model
     * of at most 4,096 vertices) is calibrated apart, the same way, and on a GPU even where the
     * table knows the device (docs/performance.md, "Small models"). */
    int calibrate;
} vks_gpu_options;

/* Queue family capabilities, the values of Vulkan's VkQueueFlagBits (gpu.h names no Vulkan
 * type). */
enum {
    VKS_QUEUE_GRAPHICS = 0x1,
    VKS_QUEUE_COMPUTE = 0x2,
    VKS_QUEUE_TRANSFER = 0x4,
    VKS_QUEUE_SPARSE_BINDING = 0x8,
    VKS_QUEUE_PROTECTED = 0x10,
    VKS_QUEUE_VIDEO_DECODE = 0x20,
    VKS_QUEUE_VIDEO_ENCODE = 0x40,
    VKS_QUEUE_OPTICAL_FLOW = 0x100
};

/* One queue family as vkGetPhysicalDeviceQueueFamilyProperties reports it. */
typedef struct vks_gpu_queue_family {
    uint32_t flags;          /* VKS_QUEUE_* */
    uint32_t count;          /* queues in the family */
    uint32_t timestamp_bits; /* timestampValidBits (0: no timestamps) */
} vks_gpu_queue_family;

enum { VKS_GPU_MAX_QUEUE_FAMILIES = 16 };

/* The launch shape a context runs its passes with, and where it came from. */
typedef struct vks_gpu_shape_info {
    uint32_t deform_workgroup;     /* vertices of a group per deform work item */
    uint32_t pose_workgroup;       /* instances per pose workgroup */
    uint32_t instance_run;         /* instances a deform work item loops over */
    uint32_t shared_palette_slots; /* 0: skin matrices read from global memory */
    int skin_texels;               /* skin matrices through a texel buffer view */
    char text[96];                 /* "wg=256,pose_wg=64,run=8,palette=off,texels=on" */
    const char *source;            /* "table", "cache" (measured on this device and driver
                                      before), "calibration" (measured in this context: by
                                      vks_gpu_tune, or at first use) or "forced" */
    const char *reason;            /* the table row or override that gave it */
    double pipeline_ms;            /* wall time the context spent creating compute pipelines so
                                      far (the driver's compile, or its cache's hit) */
    char cache_path[512];          /* the launch-shape cache entry looked at for this device and
                                      driver, whether there or not ("": no cache) */
    int calibrates_at_first_use;   /* 1: source "table" on a device the table does not know: a
                                      large enough first run calibrates (vks_gpu_options.calibrate);
                                      0 while a crowd of the context lives (none calibrates then) */
    uint64_t chunk_bytes;          /* output bytes (positions and normals) of one chunk the tuning
                                      table gives a one-shot run on this device (a
                                      vks_gpu_batch.max_chunk_bytes for a run whose buffers are
                                      made for it). Since 0.5 */
} vks_gpu_shape_info;
/* Fills *out (zeroes it for a NULL context). */
VKS_API void vks_gpu_launch_shape(const vks_gpu *gpu, vks_gpu_shape_info *out);
/* The launch shape a context of vkskin's own with options opt (NULL: defaults; its cache_dir,
 * launch_shape, shared_palette and calibrate count) would start with on each device, in
 * vks_gpu_list_devices' order, without making a device: up to cap into out, the total in
 * *count. pipeline_ms is 0. A launch_shape a device cannot run leaves that device's source
 * "forced" with the table's shape and the reason saying why. VKS_ERR_NO_DEVICE as
 * vks_gpu_list_devices. Warnings (a damaged cache entry) go to opt's logger. */
VKS_API vks_result vks_gpu_list_launch_shapes(const vks_gpu_options *opt, vks_gpu_shape_info *out, uint32_t cap,
                                              uint32_t *count, vks_error *err);

/* Calibration: times candidate launch shapes on this context's device with one model (the
 * deform pass's timestamps, median of repeats after a first run) and switches the context to
 * the fastest, whose source is then "calibration"; with store, the winner goes into the cache
 * so later contexts on this device and driver start with it (source "cache"). */
typedef struct vks_gpu_tune_options {
    const char *const *candidates; /* override strings (vks_gpu_options.launch_shape); NULL: the
                                      built-in list (the table's shape and the GPU shapes) */
    uint32_t candidate_count;
    uint32_t instances;            /* 0: 64 */
    uint32_t repeats;              /* timed runs per candidate after a first one; 0: 3 */
    int store;                     /* write the winner into the cache */
} vks_gpu_tune_options;

#define VKS_GPU_TUNE_MAX 32
typedef struct vks_gpu_tune_result {
    uint32_t count;                /* candidates measured */
    uint32_t best;                 /* index of the fastest */
    struct {
        char shape[96];            /* the shape as run (vks_gpu_shape_info.text) */
        double deform_ms;          /* median deform-pass time */
        double vertex_instances_per_second;
    } candidate[VKS_GPU_TUNE_MAX];
    int stored;                    /* the winner was written to the cache */
    char cache_path[512];          /* where (empty: no cache) */
} vks_gpu_tune_result;
/* A candidate the device cannot run fails the call (VKS_ERR_INVALID, naming it) before any
 * timing; the context keeps its shape then. Needs timestamps on the context's queue
 * (VKS_ERR_UNSUPPORTED otherwise), and no crowd of the context alive (VKS_ERR_INVALID: a
 * crowd's work lists fit the shape it was made with; tune before making crowds).
 * A skin of at most 4,096 vertices is measured for the small-model class (docs/performance.md,
 * "Small models"): the built-in list then adds shapes for small models, instances 0 means
 * about 4 M vertex-instances of it (64 would time the launch), and the winner becomes the shape
 * crowds and runs of small models take (stored as the class's entry, launch-shape-small.txt),
 * the context's own shape left as it was. */
VKS_API vks_result vks_gpu_tune(vks_gpu *gpu, const vks_skin *skin, const vks_gpu_tune_options *opt,
                                vks_gpu_tune_result *out, vks_error *err);

typedef struct vks_gpu_device_info {
    char name[256];
    const char *type;              /* "discrete", "integrated", "virtual", "cpu", "other" */
    uint32_t vendor_id, device_id;
    uint32_t api_version, driver_version;
    uint64_t max_storage_buffer_range;
    uint32_t max_shared_memory;
    uint32_t subgroup_size;
    uint32_t max_workgroup_invocations;
    uint32_t heap_count;
    uint64_t heap_size[8];
    int heap_device_local[8];
    int has_compute;
    float timestamp_period_ns;     /* 0: no timestamps on the compute queue */
    /* Every queue family (the first VKS_GPU_MAX_QUEUE_FAMILIES), as vulkaninfo lists them. */
    uint32_t queue_family_count;
    vks_gpu_queue_family queue_families[VKS_GPU_MAX_QUEUE_FAMILIES];
    /* The family a context of vkskin's own uses (its queue 0) for batch work (will_render 0)
     * and for rendering (will_render 1); UINT32_MAX where the device has none that fits. */
    uint32_t batch_family, render_family;
    /* vks_gpu_device: the family and queue this context submits to. vks_gpu_list_devices:
     * batch_family and 0, what a default context would use. */
    uint32_t queue_family, queue_index;
    /* The family and queue the readback copies (vks_stream_run's, and vks_gpu_run's through
     * staging) go to, and vks_gpu_measure_ceilings times device-to-host on: a copy engine's
     * (transfer, no graphics, no compute) beside queue_family where the device has one and the
     * context's device is its own, else queue_family and queue_index. vks_gpu_list_devices:
     * beside batch_family. */
    uint32_t readback_family, readback_queue_index;
} vks_gpu_device_info;

/* Lists up to cap devices into out (may be NULL with cap 0) and the total in *count.
 * VKS_ERR_NO_DEVICE when there is no loader or no device. */
VKS_API vks_result vks_gpu_list_devices(vks_gpu_device_info *out, uint32_t cap, uint32_t *count,
                                vks_error *err);

/* A context on the device opt names (zeroed: the best device), its pipelines made (step 2). */
VKS_API vks_result vks_gpu_create(const vks_gpu_options *opt, vks_gpu **out, vks_error *err);
/* Waits for the context's work and frees it with everything it made (NULL: nothing). */
VKS_API void vks_gpu_destroy(vks_gpu *gpu);
/* Vulkan objects this context has made since vks_gpu_create (its pipelines, uploads, batches
 * and crowds): what "no allocation in the steady state" is checked against. */
typedef struct vks_gpu_counters {
    uint64_t memory_allocations; /* vkAllocateMemory */
    uint64_t buffers;            /* vkCreateBuffer */
    uint64_t descriptor_sets;    /* sets allocated */
    uint64_t command_buffers;    /* vkAllocateCommandBuffers (buffers) */
    uint64_t pipelines;          /* compute pipelines */
    uint64_t submissions;        /* vkQueueSubmit */
} vks_gpu_counters;
VKS_API void vks_gpu_get_counters(const vks_gpu *gpu, vks_gpu_counters *out);

/* Warnings and errors the validation layer reported (0 when validation is off). */
VKS_API uint32_t vks_gpu_validation_messages(const vks_gpu *gpu);
VKS_API const vks_gpu_device_info *vks_gpu_device(const vks_gpu *gpu);

/* Uploads count validated skins as static buffers (bind vertices, packed influences, group
 * table, palettes, inverse binds, mesh spaces, parents). */
VKS_API vks_result vks_gpu_upload(vks_gpu *gpu, const vks_skin *const *skins, uint32_t count,
                          vks_gpu_models **out, vks_error *err);
VKS_API void vks_gpu_models_free(vks_gpu_models *models);

typedef struct vks_gpu_batch_entry {
    uint32_t model;          /* index into the uploaded set */
    uint32_t instance_count;
    const vks_affine *locals; /* instance_count * node_count, instance-major; NULL: get_locals */
} vks_gpu_batch_entry;

/* The deform pass's kernel. The plain one is the baseline that `vkskin bench` measures the
 * project's kernel against on the device at hand; it is checked against the CPU reference
 * like any engine (a wrong baseline proves nothing). */
typedef enum vks_gpu_kernel {
    VKS_GPU_KERNEL_DEFAULT = 0, /* compute/deform.comp: a vertex's loads and remap shared by a
                                   run of instances (BENCHMARKS.md has the ratio) */
    VKS_GPU_KERNEL_PLAIN = 1    /* compute/plain.comp: one invocation per vertex-instance,
                                   everything (remap, matrices) read from global memory */
} vks_gpu_kernel;

/* A chunk's figures, as the GPU's reduction pass gives them and as vks_gpu_figures_add
 * recomputes them on the host from the same bytes. All but normal_deviation are integer work
 * on the 32-bit words as stored, so both sides agree bit for bit in any order and merge exactly:
 * a difference means the bytes differ. */
typedef struct vks_gpu_figures {
    uint32_t sum;          /* wrapping sum of every word: positions, then normals if any */
    uint32_t xor_words;    /* xor of every word */
    uint32_t nonfinite;    /* components (positions and normals) that are NaN or +-Inf */
    uint32_t min_key[3];   /* per axis the least finite position as an order key (below); */
    uint32_t max_key[3];   /* the greatest; 0xffffffff / 0: no finite position */
    float normal_deviation; /* max |length(n) - 1| over normals with three finite components:
                               float arithmetic, so for the report only (never compared) */
} vks_gpu_figures;
/* The empty figures (min keys 0xffffffff, the rest 0). */
VKS_API void vks_gpu_figures_reset(vks_gpu_figures *f);
/* Adds `vertices` vec3 positions (and as many normals, NULL: none) to f, as the GPU does:
 * the exact figures only (normal_deviation is left as it is). */
VKS_API void vks_gpu_figures_add(vks_gpu_figures *f, const float *positions, const float *normals, size_t vertices);
/* The normals' max |length(n) - 1| in float, as the GPU reports it (close, not bit-exact). */
VKS_API float vks_gpu_figures_normal_deviation(const float *normals, size_t vertices);
/* Adds the figures of other words (another share, another chunk) to f. */
VKS_API void vks_gpu_figures_merge(vks_gpu_figures *f, const vks_gpu_figures *other);
/* The float of an order key: a float's bits with the sign bit set when it is positive, all
 * bits flipped when negative, so that unsigned order is float order (-0.0 before +0.0). */
VKS_API float vks_gpu_figures_float(uint32_t order_key);

typedef struct vks_gpu_batch {
    const vks_gpu_batch_entry *entries;
    uint32_t entry_count;
    /* Fills node_count locals for (entry, instance) when the entry has no locals array. */
    void (*get_locals)(void *user, uint32_t entry, uint32_t instance, vks_affine *out);
    /* Receives count instances of entry starting at first_instance: instance-major vec3 arrays
     * (count * vertex_count * 3 floats) valid only during the call. normals is NULL when
     * want_normals is 0. Return nonzero to stop the batch (vks_gpu_run then fails with
     * VKS_ERR_INVALID). Not called in kernel_only mode. */
    int (*deliver)(void *user, uint32_t entry, uint32_t first_instance, uint32_t count,
                   const float *positions, const float *normals);
    void *user;
    int want_normals;
    uint64_t max_chunk_bytes; /* cap on one chunk's output bytes (0: automatic) */
    uint32_t ring;            /* buffer sets in flight (0: 2) */
    int kernel_only;          /* no readback: for timing the passes alone */
    vks_gpu_kernel kernel;    /* the deform kernel (default: the project's) */
    /* Nonzero: after each chunk's deform pass a reduction pass (compute/reduce.comp) sums up
     * its outputs on the GPU (vks_gpu_figures); once the chunk's segments have reached
     * deliver, chunk_done receives the GPU's figures of chunk `chunk` (0, 1, ... in the
     * order of delivery), so the host can recompute them from what it was handed and compare
     * (validate does). Return nonzero to stop the batch as deliver does. A device without
     * subgroup arithmetic in compute shaders runs the batch without it (chunk_done never
     * comes). Off (0) the run costs and reads back exactly what it did before: deform and
     * bake leave it off. VKS_GPU_REDUCE_COPIED: only where chunks reach the host through a
     * copy; a context that reads its outputs in place (unified memory: CPU devices, integrated
     * GPUs) then runs unreduced, since there is no copy to check and the pass would be one more
     * read of every output on the same memory (validate's default: --readback-check auto). */
    int reduce;
    int (*chunk_done)(void *user, uint32_t chunk, const vks_gpu_figures *gpu_figures);
    /* added in 0.5. Optional: fills the model's target_count morph weights of (entry, instance)
       (skin.h, MORPH TARGETS), sampled on the host and applied by the deform pass before
       skinning; NULL: every instance at the targets' default weights. */
    void (*get_weights)(void *user, uint32_t entry, uint32_t instance, float *out);
} vks_gpu_batch;

#define VKS_GPU_REDUCE_COPIED 2 /* vks_gpu_batch.reduce: where the outputs come through a copy */

typedef struct vks_gpu_stats {
    uint32_t chunks;
    uint32_t oom_retries;
    uint64_t chunk_output_bytes; /* the chunk budget actually used */
    double pose_ms, deform_ms;   /* summed timestamp-query times of the passes */
    double total_ms;             /* wall time of vks_gpu_run */
    uint64_t vertex_instances;
    uint32_t buffers_made;       /* buffers this run created (the kept set made or grown);
                                    0 in the steady state */
    double readback_ms;          /* summed timestamp-query times of the readback copies into
                                    host memory (0 where outputs are read in place) */
    uint64_t readback_bytes;     /* bytes those copies moved */
} vks_gpu_stats;

/* The device's own ceilings, measured on the context's queue with timestamp queries (median
 * of repeats after a first run), on buffers of `bytes` each: what bench holds each pass
 * against. Rates are bytes per second. */
typedef struct vks_gpu_ceilings {
    uint64_t bytes;                   /* the size measured (clipped to what the device allows) */
    double fill_bytes_per_second;     /* vkCmdFillBuffer over a device-local buffer: bytes written */
    double copy_bytes_per_second;     /* vkCmdCopyBuffer device-local to device-local: bytes read
                                         + bytes written, as CUDA's bandwidth tests count them */
    double readback_bytes_per_second; /* vkCmdCopyBuffer device-local to the host memory the
                                         readback stages into: bytes moved */
} vks_gpu_ceilings;
/* VKS_ERR_UNSUPPORTED without timestamps on the context's queue. repeats 0: 5. */
VKS_API vks_result vks_gpu_measure_ceilings(vks_gpu *gpu, uint64_t bytes, uint32_t repeats, vks_gpu_ceilings *out,
                                            vks_error *err);

/* Whether vks_gpu_run(gpu, ..., batch) would run the reduction pass (batch->reduce, the context,
 * the device's subgroup arithmetic): 1 or 0. A host that recomputes the figures asks first, so
 * it does not do so for a run that will hand it none. Since 0.4. */
VKS_API int vks_gpu_batch_reduces(const vks_gpu *gpu, const vks_gpu_batch *batch);

/* Calibration at first use (vks_gpu_options.calibrate) for the work of a batch, as an explicit
 * step before vks_gpu_run: on a device the tuning table does not know, the first batch large
 * enough times the launch shapes on its largest model and switches the context to the
 * fastest; otherwise nothing. A run never calibrates from inside: call this before the runs
 * that should profit. Never fails (a failed calibration keeps the shape, with a warning);
 * not during a run. Since 0.5 (before, vks_gpu_run did it itself). */
VKS_API void vks_gpu_calibrate_for_batch(vks_gpu *gpu, const vks_gpu_models *models, const vks_gpu_batch *batch);

/* Runs a batch (step 4): poses, deforms and delivers every chunk, as batch says; stats may be NULL. */
VKS_API vks_result vks_gpu_run(vks_gpu *gpu, const vks_gpu_models *models, const vks_gpu_batch *batch,
                       vks_gpu_stats *stats, vks_error *err);
/* Frees the buffer set vks_gpu_run keeps between runs (BUFFER LIFETIME above); the next run
 * makes a new one. Not during a run. NULL is fine. */
VKS_API void vks_gpu_trim(vks_gpu *gpu);

/* Runs a deform job (deform.h) whose skin was uploaded as `model` of models: the job's outputs
 * are filled exactly as vks_cpu_reference_run fills them. stats may be NULL. */
struct vks_deform_job;
VKS_API vks_result vks_gpu_run_job(vks_gpu *gpu, const vks_gpu_models *models, uint32_t model,
                           const struct vks_deform_job *job, vks_gpu_stats *stats, vks_error *err);

#ifdef __cplusplus
}
#endif
#endif
