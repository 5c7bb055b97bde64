/* Poses deformed and written to a bake output (deform_chunks.c): the path of vkskin deform,
 * and of vkskin bench --end-to-end, which times it. */
#ifndef VKSKIN_DEFORM_CHUNKS_H
#define VKSKIN_DEFORM_CHUNKS_H

#include "cli.h"
#include "cli_shares.h"

enum { VKS_CLI_CHUNKS_MAX_GPUS = 16 };

typedef struct vks_cli_chunks {
    const vks_skin *skin;
    vks_bake *bake;
    uint32_t frames; /* pose p is instance p / frames, frame p % frames */
    uint64_t total;  /* poses */
    /* Fills the node_count locals of each pose of [first, first + n) into out. */
    void (*locals)(void *user, uint64_t first, uint32_t n, vks_affine *out);
    /* CPU engines: deforms the chunk whose first pose is first into the job's outputs. */
    vks_result (*deform)(void *user, uint64_t first, const vks_deform_job *job, vks_error *err);
    /* Optional: changes one pose's deformed vertices before they are written (roots). */
    void (*finish)(void *user, uint64_t pose, float *positions, float *normals);
    void *user;
    /* The GPU engine instead of deform: the skin uploaded as model 0 of models. */
    vks_gpu *gpu;
    const vks_gpu_models *models;
    uint64_t max_chunk_bytes; /* the GPU's chunks (0: automatic, at most 64 MiB a stream) */
    struct vks_cli_progress *progress; /* poses written so far (cli_progress.h); NULL: none */
    double engine_s;      /* out: seconds spent deforming (not writing) */
    /* GPU: the output's conversion is a copy into its own buffers (raw, PC2), which its writer
     * thread writes: chunks go to it straight from the readback memory, as a copy into a
     * converter thread's blocks would cost as much as the conversion it moves. */
    int direct;
    vks_cli_shares *shares; /* out (may be NULL): how a split across contexts shared the poses */
    /* Optional: fills the skin's target_count morph weights of each pose of [first, first + n)
       into out; returns how many differ from the defaults (CPU engines: 0, the job goes
       without, at the defaults; the GPU takes them pose by pose into its batch). */
    uint32_t (*weights)(void *user, uint64_t first, uint32_t n, float *out);
} vks_cli_chunks;

/* Deforms every pose and writes it, in order, to the bake (which it does not close).
 * CPU engines: chunks of poses whose outputs fit in about 16 MiB, two buffer sets made (and
 * their pages touched) once; the engine deforms chunk k + 1 into one while a thread of its
 * own writes chunk k from the other, so the engine and the disk overlap.
 * GPU: one vks_gpu_run over every pose; each chunk is copied out of the memory it was read
 * back into, and a converter thread of its own puts it into the file's layout and hands it to
 * the output, while the thread that feeds the GPU goes on to the next chunk. */
vks_result vks_cli_chunks_run(vks_cli_chunks *c, vks_error *err);

/* The same on several contexts (--device all or a list): the poses are split across gpus[k],
 * each with the skin uploaded as model 0 of models[k] (c->gpu and c->models are ignored), and
 * the file is the bytes one context writes. count 1: vks_cli_chunks_run on gpus[0]. */
vks_result vks_cli_chunks_run_split(vks_cli_chunks *c, vks_gpu *const *gpus, const vks_gpu_models *const *models,
                                    int count, vks_error *err);

#endif
