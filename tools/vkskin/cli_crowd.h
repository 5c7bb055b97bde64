/* Clips sampled on the GPU for validate, render and deform --gpu (cli_crowd.c): the clips the
 * models' posers play, uploaded once (vks_gpu_upload_clips); each instance made into a crowd
 * instance (VKS_POSE_CLIP, or the bind pose); and instances streamed through the
 * library's engine (vks_stream_run, stream.h): one GPU crowd per chunk, reused for every frame,
 * read back through its ring, so memory stays bounded whatever the instance count. */
#ifndef VKSKIN_CLI_CROWD_H
#define VKSKIN_CLI_CROWD_H

#include "cli.h"

typedef struct vks_cli_gpu_clips {
    const vks_clip **clips; /* the distinct clips, as uploaded */
    uint32_t count;
    int32_t **index;        /* per uploaded model, per clip source of its poser: index into clips */
    uint32_t model_count;
    vks_gpu_clips *gc;      /* NULL when no instance plays a clip */
} vks_cli_gpu_clips;

/* The distinct clips the posers play and each poser's index into them, uploaded nowhere (gc
 * NULL): what the split gives every context to upload (stream.h, SPLIT). */
vks_result vks_cli_gpu_clips_plan(const vks_poser *const *posers, uint32_t model_count, vks_cli_gpu_clips *out,
                                  vks_error *err);
/* posers[m]: the poser of uploaded model m (its skin is the one uploaded as m). */
vks_result vks_cli_gpu_clips_upload(vks_gpu *gpu, const vks_gpu_models *ms, const vks_poser *const *posers,
                                    uint32_t model_count, vks_cli_gpu_clips *out, vks_error *err);
void vks_cli_gpu_clips_free(vks_cli_gpu_clips *c);

/* Instance j of uploaded model m as the crowd plays it: its clip, start, speed, cycle and
 * (with_root) root; an instance without a clip holds the bind pose (VKS_POSE_BIND). */
void vks_cli_crowd_instance(const vks_cli_gpu_clips *c, const vks_poser *ps, uint32_t m, uint32_t j,
                            int with_root, vks_instance *out);

typedef struct vks_cli_crowd_job {
    vks_gpu *gpu;
    const vks_gpu_models *ms;
    const vks_cli_gpu_clips *clips;
    const vks_poser *const *posers; /* per uploaded model */
    uint32_t model_count;
    uint32_t frames;                    /* at vks_pose_source_time(&posers[0]->source, f) */
    uint64_t chunk_bytes;               /* one chunk's outputs for one frame (0: 64 MiB; at
                                           least one instance) */
    int no_normals;
    struct vks_cli_progress *progress;  /* poses consumed so far (cli_progress.h); NULL: none */
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
} vks_cli_crowd_job;

typedef struct vks_cli_crowd_stats {
    uint32_t chunks;
    uint64_t vertex_instances;
    double gpu_ms;    /* timestamps around the frames' passes */
    double read_ms;   /* vks_crowd_read */
    double create_ms; /* vks_crowd_create and destroy */
} vks_cli_crowd_stats;

vks_result vks_cli_crowd_run(const vks_cli_crowd_job *job, vks_cli_crowd_stats *stats, vks_error *err);

/* The job (one model: the bake's) written to bake by vks_stream_to_bake: the frames of as many
 * instances as fit memory_bytes held and written instance by instance; consume is not called,
 * progress is. */
vks_result vks_cli_crowd_to_bake(const vks_cli_crowd_job *job, vks_bake *bake, uint64_t memory_bytes, vks_error *err);

#endif
