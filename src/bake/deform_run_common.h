/* The deform run's parts (include/vkskin/deform_run.h), from the top down: the run and the CPU
 * engines' chunks and writer (deform_run.c), the GPU's run on one context (deform_run_gpu.c),
 * the split over several contexts (deform_run_split.c), the stream both deliver through and its
 * converter (deform_run_stream.c), and what all of them share (deform_run_common.c): each part
 * calls only those below it. */
#ifndef VKS_BAKE_DEFORM_RUN_COMMON_H
#define VKS_BAKE_DEFORM_RUN_COMMON_H

#include "vkskin/deform_run.h"
#include "vkskin/stream.h"

#include <pthread.h>

/* A run: the desc's fields, and what it measures. */
typedef struct vks__chunks {
    const vks_skin *skin;
    vks_bake *bake;
    uint32_t frames;
    uint64_t total;
    void (*locals)(void *user, uint64_t first, uint32_t n, vks_affine *out);
    uint32_t (*weights)(void *user, uint64_t first, uint32_t n, float *out);
    void (*finish)(void *user, uint64_t pose, float *positions, float *normals);
    void (*progress)(void *user, uint64_t poses_done);
    void *user;
    vks_deform_engine engine;
    int threads;
    uint64_t max_chunk_bytes;
    int direct;
    double engine_s;              /* out */
    vks_context_shares *shares;   /* out (may be NULL): a split's */
} vks__chunks;

double vks__deform_now_seconds(void);
void vks__chunks_progress(const vks__chunks *c, uint64_t done);

/* The readback memory a chunk is delivered in is the ring's, valid only during the delivery,
 * and the thread that delivers is the one that feeds the GPU its next chunk. So a delivery
 * only copies the poses into blocks (at memory speed) and a converter thread puts them into
 * the file's layout (CSV text, file vertex order, glTF's kept frames) and hands them to the
 * output, whose own writer thread writes them: feeding, conversion and writing overlap. A
 * block holds about BLOCK_BYTES of positions and as much of normals (whole poses, one at
 * least), and BLOCKS of them go round, so the copy stays in the caches and memory is bounded
 * whatever the chunk size. */
#define VKS__BLOCK_BYTES ((size_t)2 << 20)
enum { VKS__BLOCKS = 4 };

typedef struct vks__pose_block {
    float *pos, *nrm;
    uint64_t first; /* its first pose */
    uint32_t count;
} vks__pose_block;

typedef struct vks__gpu_stream {
    vks__chunks *c;
    vks_gpu *const *gpus; /* the contexts the poses are split across (count > 1) */
    const vks_gpu_models *const *models;
    int count;
    size_t per;       /* floats of one pose's positions */
    uint32_t block_poses;
    vks__pose_block blocks[VKS__BLOCKS];
    /* the ring of blocks: [head, head + filled) hold poses to convert, in pose order */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint32_t head, filled;
    int quit;
    pthread_t thread;
    int threaded;
    double write_s;
    vks_result result; /* of the output; set by the converter, read under mu */
    vks_error err;
} vks__gpu_stream;

/* Poses [pose_first, pose_first + count) to the output, the next ones in pose order; nonzero
 * once the output failed (deform_run_stream.c, as the three below). */
int vks__gpu_stream_put(vks__gpu_stream *g, uint64_t pose_first, uint32_t count, const float *p, const float *n);

/* The one-frame stream of host-posed poses (count of them), each asked of get_locals and
 * get_weights by its number and delivered to deliver. */
vks_stream_desc vks__pose_stream(const vks__chunks *c, const vks_gpu_models *models, uint64_t count,
                                 void (*get_locals)(void *, uint32_t, uint32_t, vks_affine *),
                                 void (*get_weights)(void *, uint32_t, uint32_t, float *),
                                 vks_stream_deliver_fn deliver, void *user, uint64_t max_chunk_bytes);

/* The poses across g->count contexts (deform_run_split.c); the first failure in context order.
 * *single set (and nothing written): the threads could not be had, run on the first context. */
/* The converter thread's main (arg: the vks__gpu_stream): converts and writes each filled block
 * in order until quit, keeping the output's first failure. */
void *vks__gpu_stream_converter(void *arg);
/* The one-frame stream of every pose of g's chunks on g->models[0], delivered through
 * vks__gpu_stream_put. */
vks_stream_desc vks__gpu_stream_desc(vks__gpu_stream *g, uint64_t max_chunk_bytes);

vks_result vks__deform_split(vks__gpu_stream *g, uint64_t max_chunk_bytes, int *single, vks_error *err);

/* Every pose on the GPU: one context, or split over count (deform_run_gpu.c). */
vks_result vks__deform_gpu(vks__chunks *c, vks_gpu *const *gpus, const vks_gpu_models *const *models, int count,
                           vks_error *err);

#endif
