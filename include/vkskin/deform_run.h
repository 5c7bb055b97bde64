/* vkskin deform run: a batch of poses deformed into a bake output (bake.h) chunk by chunk, on
 * a CPU engine (cpu.h) or on the GPU through the stream (stream.h, HOST POSES), optionally
 * split over several GPU contexts; the engine and the output's writing overlap. What vkskin
 * deform and vkskin bench --end-to-end run.
 *
 * STEP BY STEP
 *   1. vks_bake_open(&bake, "out.raw", VKS_BAKE_RAW, skin, instances, frames, &err)
 *   2. vks_deform_run_desc d = {0};
 *      d.skin = skin; d.bake = bake; d.frames = frames; d.total = (uint64_t)instances * frames;
 *      d.locals = my_locals; d.user = me;          pose p: instance p / frames, frame p % frames
 *      d.engine = VKS_DEFORM_CPU_FAST;              or _CPU_REFERENCE, or:
 *      d.engine = VKS_DEFORM_GPU; d.gpus = &gpu; d.models = &models; d.gpu_count = 1;
 *                                                   (the skin uploaded as model 0 of models)
 *   3. vks_deform_run_stats st; vks_deform_run(&d, &st, &err)
 *   4. vks_bake_close(bake, 1, &err)
 *
 * CHUNKS. CPU engines: chunks of poses whose outputs fit about 16 MiB, two buffer sets made
 * (and their pages touched) once; the engine deforms chunk k + 1 into one while a thread of its
 * own writes chunk k from the other. GPU: one stream over every pose (each pose an instance of
 * a one-frame stream, posed by the host: vks_gpu_run's bits); each chunk is copied out of the
 * readback memory into a ring of small blocks that a converter thread puts into the file's
 * layout and hands to the output, while the thread that feeds the GPU goes on (direct: the
 * output is a copy into its own buffers, raw or PC2, written straight from the readback
 * memory). Where a thread cannot be had, the work runs on the calling thread: the same bytes.
 *
 * SPLIT. gpu_count > 1: the poses are cut into pieces of about a chunk, dealt round-robin to
 * the contexts, each deforming its pieces through a stream on a thread of its own; a piece is
 * written in its turn, so the output is the bytes one context writes. stats.shares says what
 * each context took.
 *
 * THREADS. The callbacks run on the calling thread, locals and weights of a split on the
 * contexts' threads (one at a time per context: they must be safe to call concurrently for
 * different poses), finish and progress on whichever thread writes. Since 0.7.
 */
#ifndef VKSKIN_DEFORM_RUN_H
#define VKSKIN_DEFORM_RUN_H

#include "bake.h"
#include "cpu.h"
#include "gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { VKS_SHARES_MAX = 16 }; /* contexts a split reports */

/* What one context of a split took: its device, its share (in the shares' unit), in how many
 * chunks (or groups), and the seconds from the split's start to its end. */
typedef struct vks_context_share {
    char device[256];
    uint64_t count;
    uint64_t chunks;
    double seconds;
} vks_context_share;

/* How a split over several contexts shared its work. contexts below 2: no split. */
typedef struct vks_context_shares {
    int contexts;
    const char *unit;  /* "poses", "instances", "jobs" (a string literal) */
    const char *parts; /* what chunks counts: "chunks" (NULL), "groups" */
    vks_context_share s[VKS_SHARES_MAX];
} vks_context_shares;

/* Starts *sh for n contexts (at most VKS_SHARES_MAX), then one vks_context_shares_set each. */
VKS_API void vks_context_shares_begin(vks_context_shares *sh, int n, const char *unit, const char *parts);
VKS_API void vks_context_shares_set(vks_context_shares *sh, int k, const char *device, uint64_t count,
                                    uint64_t chunks, double seconds);

typedef enum vks_deform_engine {
    VKS_DEFORM_CPU_REFERENCE = 0, /* vks_cpu_reference_run (double) */
    VKS_DEFORM_CPU_FAST,          /* vks_cpu_fast_run on threads threads */
    VKS_DEFORM_GPU                /* the stream on gpus[0 .. gpu_count) */
} vks_deform_engine;

typedef struct vks_deform_run_desc {
    const vks_skin *skin;
    vks_bake *bake;  /* opened for total / frames instances and frames frames; not closed */
    uint32_t frames; /* pose p is instance p / frames, frame p % frames */
    uint64_t total;  /* poses (GPU: at most UINT32_MAX) */
    /* Fills the node_count locals of each pose of [first, first + n) into out. Required. */
    void (*locals)(void *user, uint64_t first, uint32_t n, vks_affine *out);
    /* Optional: the skin's target_count morph weights of each pose of [first, first + n) into
       out; returns how many poses differ from the defaults (0: the CPU job goes without). */
    uint32_t (*weights)(void *user, uint64_t first, uint32_t n, float *out);
    /* Optional: changes one pose's deformed vertices before they are written (a root). */
    void (*finish)(void *user, uint64_t pose, float *positions, float *normals);
    /* Optional: poses written so far, after each chunk. */
    void (*progress)(void *user, uint64_t poses_done);
    void *user;
    vks_deform_engine engine;
    int threads;                       /* VKS_DEFORM_CPU_FAST: 0 every core */
    vks_gpu *const *gpus;              /* VKS_DEFORM_GPU: the contexts, each with */
    const vks_gpu_models *const *models; /* the skin uploaded as model 0 of models[k] */
    int gpu_count;                     /* 1, or a split over up to VKS_SHARES_MAX */
    uint64_t max_chunk_bytes;          /* GPU chunks (0: the tuning table's for gpus[0]) */
    int direct;                        /* GPU: write from the readback memory (see CHUNKS) */
} vks_deform_run_desc;

typedef struct vks_deform_run_stats {
    double engine_s;           /* seconds spent deforming (not writing) */
    vks_context_shares shares; /* a split's shares (contexts 0 without one) */
} vks_deform_run_stats;

/* Deforms every pose and writes it, in pose order, to d->bake (see CHUNKS, SPLIT).
 * VKS_ERR_INVALID for a bad desc, the engine's, the output's (its error, not a stop) errors.
 * stats may be NULL. */
VKS_API vks_result vks_deform_run(const vks_deform_run_desc *d, vks_deform_run_stats *stats, vks_error *err);

#ifdef __cplusplus
}
#endif
#endif
