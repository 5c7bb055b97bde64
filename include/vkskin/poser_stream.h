/* vkskin poser stream: the posers of a plan (poser.h) played on the GPU, the way `vkskin deform
 * --gpu --clip/--crowd`, validate and render play them: the clips the posers play uploaded once
 * (vks_gpu_upload_clips), each poser's instance made into a crowd instance (VKS_POSE_CLIP, its
 * layers and root, or the bind pose), and the instances streamed through the library's engine
 * (stream.h): one GPU crowd per chunk, reused for every frame, read back through its ring, so
 * memory stays bounded whatever the instance count; across several contexts by the split
 * (SPLIT), with the results of one device, bit for bit. Since 0.8.
 *
 * STEP BY STEP
 *   vks_poser ps; vks_poser_init(&ps, skin, &plan, 0, &err);          (poser.h)
 *   vks_gpu_upload(gpu, &skin, 1, &models, &err);                     (gpu.h)
 *   vks_poser_clips clips; vks_poser_clips_upload(gpu, models, posers, 1, &clips, &err);
 *   vks_poser_job job = {0}; job.gpu = gpu; job.ms = models; job.clips = &clips;
 *   job.posers = posers; job.model_count = 1; job.frames = ps.frames;
 *   job.consume = my_consume; job.user = me;   // instances [first, first + count) at a frame
 *   vks_poser_run(&job, &stats, &err);         // or vks_poser_run_to_bake(&job, bake, 0, &err)
 *   vks_poser_clips_free(&clips);
 */
#ifndef VKSKIN_POSER_STREAM_H
#define VKSKIN_POSER_STREAM_H

#include "bake.h"
#include "deform_run.h"
#include "gpu.h"
#include "poser.h"
#include "stream.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The clips a run's posers play, uploaded once for every model. Since 0.8. */
typedef struct vks_poser_clips {
    const vks_clip **clips; /* the distinct clips, as uploaded */
    uint32_t count;
    int32_t **index;        /* per uploaded model, per clip source of its poser: index into clips */
    uint32_t model_count;
    vks_gpu_clips *gc;      /* NULL when no instance plays a clip */
} vks_poser_clips;

/* The distinct clips the posers play and each poser's index into them, uploaded nowhere (gc
 * NULL): what the split gives every context to upload (stream.h, SPLIT). Since 0.8. */
VKS_API vks_result vks_poser_clips_plan(const vks_poser *const *posers, uint32_t model_count, vks_poser_clips *out,
                                  vks_error *err);
/* The plan uploaded on gpu (vks_gpu_upload_clips); posers[m]: the poser of uploaded model m (its
 * skin is the one uploaded as m). Since 0.8. */
VKS_API vks_result vks_poser_clips_upload(vks_gpu *gpu, const vks_gpu_models *ms, const vks_poser *const *posers,
                                    uint32_t model_count, vks_poser_clips *out, vks_error *err);
/* Releases the clips (uploaded or planned). Since 0.8. */
VKS_API void vks_poser_clips_free(vks_poser_clips *c);

/* Instance j of uploaded model m as the crowd plays it: its clip, start, speed, cycle and
 * (with_root) root; an instance without a clip holds the bind pose (VKS_POSE_BIND). Since 0.8. */
VKS_API void vks_poser_crowd_instance(const vks_poser_clips *c, const vks_poser *ps, uint32_t m, uint32_t j,
                            int with_root, vks_instance *out);

/* A run of posers' instances on the GPU, frame by frame. Since 0.8. */
typedef struct vks_poser_job {
    vks_gpu *gpu;
    const vks_gpu_models *ms;
    const vks_poser_clips *clips;
    const vks_poser *const *posers; /* per uploaded model */
    uint32_t model_count;
    uint32_t frames;                    /* at vks_pose_source_time(&posers[0]->source, f) */
    uint64_t chunk_bytes;               /* one chunk's outputs for one frame (0: 64 MiB; at
                                           least one instance) */
    int no_normals;
    void *progress;                     /* progress_func's first argument */
    /* Instances [first, first + count) of model m at frame f, their vertices one instance
       after the other (nrm NULL with no_normals). Called chunk by chunk, frame by frame within
       a chunk, model by model within a frame. Nonzero stops the run (VKS_ERR_INVALID). */
    int (*consume)(void *user, uint32_t m, uint32_t first, uint32_t count, uint32_t frame, const float *pos,
                   const float *nrm);
    void *user;
    /* validate's readback check: reduce asks the stream for each delivery's GPU figures
       (stream.h, desc.reduce); delivered, when set, is called after the consume calls of each
       delivery (instances [first, first + count) of the job at frame) with them, NULL when the
       device could not reduce. Nonzero stops the run. The split across contexts passes both on. */
    int reduce;
    int (*delivered)(void *user, uint32_t first, uint32_t count, uint32_t frame, const vks_gpu_figures *g);
    /* poses done so far (add 0: the count of them; add 1: more done, on any thread of a split
       bake); NULL: none */
    void (*progress_func)(void *progress, uint64_t poses, int add);
} vks_poser_job;

/* What a run took. Since 0.8. */
typedef struct vks_poser_stats {
    uint32_t chunks;
    uint64_t vertex_instances;
    double gpu_ms;    /* timestamps around the frames' passes */
    double read_ms;   /* vks_crowd_read */
    double create_ms; /* vks_crowd_create and destroy */
} vks_poser_stats;

/* The job through the stream (vks_stream_run): one GPU crowd per chunk, its frames read back
 * into job->consume. Since 0.8. */
VKS_API vks_result vks_poser_run(const vks_poser_job *job, vks_poser_stats *stats, vks_error *err);

/* The job (one model: the bake's) written to bake by vks_stream_to_bake: the frames of as many
 * instances as fit memory_bytes held and written instance by instance; consume is not called,
 * progress is. Since 0.8. */
VKS_API vks_result vks_poser_run_to_bake(const vks_poser_job *job, vks_bake *bake, uint64_t memory_bytes, vks_error *err);

/* What each context of a split did: its instances (delivered, every frame of them). Since 0.8. */
enum { VKS_POSER_MAX_CONTEXTS = 16 };
typedef struct vks_poser_split_stats {
    int contexts; /* the contexts the instances were split across (1: the first alone) */
    uint64_t instances[VKS_POSER_MAX_CONTEXTS];
    vks_context_shares shares; /* the same with each context's device, chunks and time */
} vks_poser_split_stats;

/* vks_poser_run across gpus[k] (models[k] the job's models uploaded there; the job's gpu, ms
 * and clips are ignored: the clips are uploaded on every context here). job->consume is called
 * with the very instances and frames, in the very order, one context's run gives (validate's
 * sums are bound to that order), though a chunk that contexts' runs end inside comes as consecutive pieces, on the thread of whichever context delivered them, one call at a
 * time. st gets the contexts' summed stats, split (may be NULL) what each did. count 1: one context, still on this thread. Since 0.8. */
VKS_API vks_result vks_poser_run_split(const vks_poser_job *job, vks_gpu *const *gpus,
                                   const vks_gpu_models *const *models, int count, vks_poser_stats *st,
                                   vks_poser_split_stats *split, vks_error *err);

/* vks_poser_run_to_bake across the contexts: the bake gets the writes one context makes, so its
 * bytes are the same; memory_bytes (0: 64 MiB) is shared by the contexts' held frames; progress
 * (job->progress_func) counts every context's poses. Since 0.8. */
VKS_API vks_result vks_poser_run_to_bake_split(const vks_poser_job *job, vks_gpu *const *gpus,
                                       const vks_gpu_models *const *models, int count, vks_bake *bake,
                                       uint64_t memory_bytes, vks_poser_split_stats *split, vks_error *err);

#ifdef __cplusplus
}
#endif
#endif
