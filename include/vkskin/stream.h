/* vkskin stream: the application engine (DESIGN.md sections 2, 7). Instances of uploaded models,
 * each with its own pose source (bind, host locals, procedural, clip; a crowd file's entry
 * becomes one), posed and deformed on the GPU at a list of frame times, and handed back to a
 * callback frame by frame through a ring of readback slots, so that the host consumes frame N
 * while the GPU deforms frame N + 1. What the vkskin program's deform, validate and bake run on.
 *
 * STEP BY STEP
 *   1. vks_gpu_create(&opt, &gpu, &err); vks_gpu_upload(gpu, skins, m, &models, &err)
 *   2. vks_instance in[n] = {{0}};                 instance.h; zeroed: model 0, procedural
 *      in[i].pose = VKS_POSE_CLIP; in[i].clip = 0; in[i].clip_speed = 1;  (or bind, locals, ...)
 *      or, from a crowd file: vks_crowd_spec_instance(spec, i, &binding, &in[i], &err)
 *   3. vks_stream_desc d = {0}; d.models = models; d.skins = skins; d.model_count = m;
 *      d.clips = clips; d.clip_count = c; d.instances = in; d.instance_count = n;
 *      d.times = times; d.frame_count = f; d.deliver = my_callback; d.user = me;
 *      vks_stream_run(gpu, &d, &stats, &err)       or vks_stream_to_bake(gpu, &d, bake, ...)
 *      (several contexts: vks_stream_run_split(gpus, models, n, &d, ...), see SPLIT)
 *   4. vks_gpu_models_free(models); vks_gpu_destroy(gpu)
 *
 * ORDER. Instances go in chunks (consecutive instances whose outputs for one frame fit
 * chunk_bytes, at least one); each chunk runs every frame before the next chunk starts. The
 * callback sees chunk by chunk, frame by frame within a chunk (frames in the order of times),
 * exactly once each; it runs on the calling thread. Every chunk's crowd (crowd.h) is made
 * once and re-aimed for the next chunk when it holds the same models.
 *
 * THE RING. Each frame is recorded (pose pass, deform pass, a copy of the chunk's outputs into
 * a readback slot) into the slot's own command buffer and submitted with its own fence; the
 * callback for frame N reads slot N % ring while frames N + 1 .. N + ring - 1 are already
 * submitted. Host locals that change per frame (VKS_POSE_LOCALS with locals_frames > 1) are
 * written between frames, so such a chunk keeps one frame in flight (still overlapping the
 * callback of the frame before). The numbers do not depend on the ring or the chunks: frame N
 * is what vks_crowd_run_frame at times[N] and vks_crowd_read give.
 *
 * HOST POSES. Instances whose pose is VKS_POSE_HOST take their locals (and morph weights) from
 * desc.get_locals (get_weights) frame by frame; the stream uploads them as vks_gpu_run does a
 * batch's and deforms them on its ring of buffer sets (no crowd, no pose parameters, no root:
 * the very bits vks_gpu_run gives for the same locals). A stream's instances are then all
 * HOST (mixed: VKS_ERR_INVALID). chunk_bytes is then also the batch's max_chunk_bytes (gpu.h;
 * 0: the tuning table's chunk_bytes for the device, vks_gpu_shape_info); a frame of a chunk may come in several deliveries (one
 * per model, or where the GPU's chunks cut it), in order; with reduce, gpu_figures comes with
 * a delivery that is a whole GPU chunk (NULL otherwise). The engine of vkskin deform --gpu.
 *
 * THREADS. One stream at a time per context (it submits to the context's queue, see
 * gpu_vulkan.h); separate contexts may stream from separate threads.
 */
#ifndef VKSKIN_STREAM_H
#define VKSKIN_STREAM_H

#include "bake.h"
#include "crowd.h"
#include "crowd_file.h"
#include "deform_run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One frame of one chunk of instances. */
typedef struct vks_stream_delivery {
    uint32_t first, count;  /* instances [first, first + count) of the stream */
    uint32_t frame;         /* index into times */
    float time;             /* times[frame] */
    const float *positions; /* each instance's vertex_count * 3 floats, one after the other,
                               valid during the call */
    const float *normals;   /* the same for normals; NULL with no_normals */
    /* desc.reduce: what the GPU's reduction pass (compute/reduce.comp, as vks_gpu_batch.reduce)
       made of these outputs after their deform, before their copy into the readback slot:
       vks_gpu_figures_add over positions and normals must give the same exact figures, or
       the bytes handed here are not the ones the GPU wrote. NULL when not asked, or on a
       device that cannot run the pass (no subgroup arithmetic in compute). Valid during the
       call. Since 0.4. */
    const vks_gpu_figures *gpu_figures;
} vks_stream_delivery;

/* Nonzero stops the stream: vks_stream_run returns VKS_ERR_INVALID, "stopped by the consumer". */
typedef int (*vks_stream_deliver_fn)(void *user, const vks_stream_delivery *d);

typedef struct vks_stream_desc {
    const vks_gpu_models *models;        /* uploaded to the context */
    const vks_skin *const *skins;        /* skins[m]: the skin uploaded as model m */
    uint32_t model_count;
    const vks_clip *const *clips;        /* what VKS_POSE_CLIP and _LAYERS instances play, uploaded by the
                                            stream (vks_gpu_upload_clips); may be NULL */
    uint32_t clip_count;
    const vks_gpu_clips *gpu_clips;      /* or clips already uploaded for these models (then
                                            clips is ignored) */
    const vks_instance *instances;       /* instance_count entries (instance.h: every pose but
                                            FRAMES; a LOCALS one needs locals), or: */
    /* instance i, asked for chunk by chunk (for crowds too large to list at once), and may be
       asked more than once (every instance once more before the first chunk where calibration
       at first use may come: the stream's work is all its instances'); used when instances is
       NULL */
    void (*get_instance)(void *user, uint32_t i, vks_instance *out);
    uint32_t instance_count;             /* >= 1 */
    const float *times;                  /* frame_count frame times, seconds */
    uint32_t frame_count;                /* >= 1 */
    int no_normals;                      /* nonzero: positions only */
    uint64_t chunk_bytes;                /* one chunk's outputs for one frame (0: 64 MiB) */
    uint32_t ring;                       /* readback slots, 2..8 (0: 2) */
    int layers;                          /* nonzero: instances may be VKS_POSE_LAYERS (the
                                            crowds take the larger layered tables) */
    vks_stream_deliver_fn deliver;       /* required by vks_stream_run */
    void *user;                          /* for deliver and get_instance */
    int reduce;                          /* nonzero: each delivery carries gpu_figures (the
                                            readback check: validate asks; deform and bake do
                                            not, and pay nothing for it). Since 0.4. */
    /* VKS_POSE_HOST instances (see HOST POSES): instance i's node_count locals at frame f
       (f indexes times), and optionally its target_count morph weights (NULL: the defaults).
       Asked on the calling thread as the GPU's chunks are filled. Since 0.7. */
    void (*get_locals)(void *user, uint32_t i, uint32_t frame, vks_affine *out);
    void (*get_weights)(void *user, uint32_t i, uint32_t frame, float *out);
} vks_stream_desc;

typedef struct vks_stream_stats {
    uint32_t chunks;
    uint64_t frames;           /* chunk frames delivered */
    uint64_t vertex_instances; /* vertices delivered, over all frames */
    double create_ms;          /* making and re-aiming the chunks' crowds */
    double gpu_ms;             /* timestamps around the frames' passes (0 without timestamps) */
    double wait_ms;            /* host time waiting for slots to complete */
    double deliver_ms;         /* host time in the callback */
    /* Since 0.7: a stream of VKS_POSE_HOST instances (one GPU batch) gives its passes apart,
       as vks_gpu_stats does (gpu_ms is their sum); 0 for other streams, whose gpu_ms covers
       every frame's passes together. */
    double pose_ms, deform_ms, readback_ms;
} vks_stream_stats;

/* Streams every instance through every frame (see ORDER and THE RING). VKS_ERR_INVALID for a
 * bad desc (naming the field), what vks_crowd_create or the submission report, or the
 * consumer's stop. stats may be NULL. */
VKS_API vks_result vks_stream_run(vks_gpu *gpu, const vks_stream_desc *desc, vks_stream_stats *stats,
                                  vks_error *err);

/* SPLIT. The stream over several contexts, gpus[k] with the desc's models uploaded as
 * models[k] (desc->models is ignored; desc->clips are uploaded on every context, so a split
 * takes clips, not gpu_clips), each context streaming its share of the instances on a thread of
 * its own, for the same results as one context, bit for bit. vks_stream_run_split: each context
 * a contiguous run of the instances, and desc->deliver sees the very deliveries, in the very
 * order, one context's stream gives (a chunk that two runs share comes as its pieces, one after
 * the other), one call at a time but on whichever context's thread delivered it. So get_instance
 * is called from every context's thread at once: it must be safe to. shares (may be NULL) says
 * what each context took (instances), stats (may be NULL) the contexts' sums. count 1: one
 * context, on this thread. Where a thread cannot be had, everything runs on gpus[0]. Since 0.7. */
VKS_API vks_result vks_stream_run_split(vks_gpu *const *gpus, const vks_gpu_models *const *models, int count,
                                        const vks_stream_desc *desc, vks_stream_stats *stats,
                                        vks_context_shares *shares, vks_error *err);

/* vks_stream_to_bake across the contexts (SPLIT): the instances in pieces whose frames fit a
 * context's share of memory_bytes (0: 64 MiB), dealt round-robin, each written in its turn, so the
 * bake gets the writes one context makes. desc->deliver, when set, observes each delivery after it
 * is taken (progress), in the desc's numbering, on the contexts' threads, possibly at once.
 * Since 0.7. */
VKS_API vks_result vks_stream_to_bake_split(vks_gpu *const *gpus, const vks_gpu_models *const *models, int count,
                                            const vks_stream_desc *desc, vks_bake *bake, uint64_t memory_bytes,
                                            vks_stream_stats *stats, vks_context_shares *shares, vks_error *err);

/* The stream written to a bake (bake.h) opened for instance_count instances and frame_count
 * frames of one model (every instance's model must have the bake's vertex count): instance
 * by instance as vks_bake_write wants them. The frames of as many instances as fit
 * memory_bytes (0: 64 MiB) are held and written when their last frame arrives; an instance
 * whose frames do not fit goes alone, written frame by frame. desc->deliver, when set, is
 * called after each delivery is taken (progress); desc->chunk_bytes is set here. The bake is
 * not closed. */
VKS_API vks_result vks_stream_to_bake(vks_gpu *gpu, const vks_stream_desc *desc, vks_bake *bake,
                                      uint64_t memory_bytes, vks_stream_stats *stats, vks_error *err);

#ifdef __cplusplus
}
#endif
#endif
