/* The GPU side of the deform run (deform_run.h, CHUNKS): one stream of host-posed instances
 * (stream.h, HOST POSES: every pose an instance of a one-frame stream, the bits of one
 * vks_gpu_run); deliver copies each chunk out of the readback memory of its ring slot (valid
 * only during the delivery) into a ring of small blocks, and a converter thread puts them into
 * the file's layout and hands them to the output (whose writer thread writes them), so the
 * thread that feeds the GPU neither converts nor writes. (Per chunk vks_gpu_run_job calls with
 * a copy into 16 MiB buffers and a writer thread once took 335 ms for 1000 poses of 10k
 * vertices on lavapipe against 183 ms for one run writing from the ring: the per-call
 * submissions and the fresh pages cost that, not the copy.) Moved from the vkskin program's
 * deform_chunks.c. */
#include "bake/deform_run_internal.h"
#include "core/thread_start.h"

#include <stdlib.h>
#include <string.h>

static const float ONE_FRAME[1] = {0.0f}; /* every pose is an instance of a one-frame stream */

/* Every pose is an instance of model 0 that the host poses (the chunks' locals and weights). */
static void pose_instance(void *user, uint32_t i, vks_instance *out)
{
    (void)user, (void)i;
    memset(out, 0, sizeof *out);
    out->pose = VKS_POSE_HOST;
}

static void stream_locals(void *user, uint32_t pose, uint32_t frame, vks_affine *out)
{
    (void)frame;
    vks__gpu_stream *g = user;
    g->c->locals(g->c->user, pose, 1, out);
}

/* A pose's morph weights (the chunks' weights callback, one pose at a time). */
static void stream_weights(void *user, uint32_t pose, uint32_t frame, float *out)
{
    (void)frame;
    vks__gpu_stream *g = user;
    g->c->weights(g->c->user, pose, 1, out);
}

/* Converts and writes one block's poses, in order; the output's result. */
static vks_result convert_block(vks__gpu_stream *g, const vks__pose_block *b, vks_error *err)
{
    vks__chunks *c = g->c;
    vks_result r = VKS_OK;
    for (uint32_t k = 0; k < b->count && r == VKS_OK; k++) {
        uint64_t pose = b->first + k;
        r = vks_bake_write(c->bake, (uint32_t)(pose / c->frames), (uint32_t)(pose % c->frames), b->pos + k * g->per,
                           b->nrm + k * g->per, err);
    }
    return r;
}

static void *converter_main(void *arg)
{
    vks__gpu_stream *g = arg;
    pthread_mutex_lock(&g->mu);
    for (;;) {
        while (!g->filled && !g->quit)
            pthread_cond_wait(&g->cv, &g->mu);
        if (!g->filled)
            break;
        vks__pose_block *b = &g->blocks[g->head];
        int failed = g->result != VKS_OK;
        pthread_mutex_unlock(&g->mu);
        vks_error e = {0};
        vks_result r = failed ? VKS_OK : convert_block(g, b, &e);
        pthread_mutex_lock(&g->mu);
        if (r != VKS_OK && g->result == VKS_OK)
            g->result = r, g->err = e;
        g->head = (g->head + 1) % VKS__BLOCKS;
        g->filled--;
        pthread_cond_broadcast(&g->cv);
    }
    pthread_mutex_unlock(&g->mu);
    return NULL;
}

/* A free block (waiting for the converter while all are full); NULL once the output failed. */
static vks__pose_block *block_take(vks__gpu_stream *g)
{
    pthread_mutex_lock(&g->mu);
    while (g->filled == VKS__BLOCKS && g->result == VKS_OK)
        pthread_cond_wait(&g->cv, &g->mu);
    vks__pose_block *b = g->result == VKS_OK ? &g->blocks[(g->head + g->filled) % VKS__BLOCKS] : NULL;
    pthread_mutex_unlock(&g->mu);
    return b;
}

static void block_give(vks__gpu_stream *g)
{
    pthread_mutex_lock(&g->mu);
    g->filled++;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
}

/* Poses [pose_first, pose_first + count) to the output, the next ones in pose order. */
int vks__gpu_stream_put(vks__gpu_stream *g, uint64_t pose_first, uint32_t count, const float *p, const float *n)
{
    vks__chunks *c = g->c;
    double t0 = vks__deform_now_seconds();
    int stop = 0;
    for (uint32_t k = 0; !g->threaded && k < count && !stop; k++) { /* direct, or no thread to be had */
        uint64_t pose = pose_first + k;
        const float *pp = p + k * g->per, *nn = n + k * g->per;
        if (c->finish) { /* the readback memory is the ring's: change a copy */
            memcpy(g->blocks[0].pos, pp, g->per * sizeof *pp);
            memcpy(g->blocks[0].nrm, nn, g->per * sizeof *nn);
            c->finish(c->user, pose, g->blocks[0].pos, g->blocks[0].nrm);
            pp = g->blocks[0].pos, nn = g->blocks[0].nrm;
        }
        g->result = vks_bake_write(c->bake, (uint32_t)(pose / c->frames), (uint32_t)(pose % c->frames), pp, nn, &g->err);
        stop = g->result != VKS_OK;
    }
    for (uint32_t k0 = 0; g->threaded && k0 < count && !stop; k0 += g->block_poses) {
        uint32_t m = count - k0 < g->block_poses ? count - k0 : g->block_poses;
        uint64_t pose0 = pose_first + k0;
        vks__pose_block *b = block_take(g);
        if (!b) {
            stop = 1;
            break;
        }
        memcpy(b->pos, p + (size_t)k0 * g->per, (size_t)m * g->per * sizeof *p);
        memcpy(b->nrm, n + (size_t)k0 * g->per, (size_t)m * g->per * sizeof *n);
        for (uint32_t k = 0; c->finish && k < m; k++) /* the roots, on the copy */
            c->finish(c->user, pose0 + k, b->pos + k * g->per, b->nrm + k * g->per);
        b->first = pose0, b->count = m;
        block_give(g);
    }
    vks__chunks_progress(c, pose_first + count);
    g->write_s += vks__deform_now_seconds() - t0;
    return stop;
}

static int stream_deliver(void *user, const vks_stream_delivery *d)
{
    return vks__gpu_stream_put(user, d->first, d->count, d->positions, d->normals);
}

/* The one-frame stream of host-posed poses (count of them) on gpu, each asked of get_locals
 * and get_weights by its number and delivered to deliver. */
vks_stream_desc vks__pose_stream(const vks__chunks *c, const vks_gpu_models *models, uint64_t count,
                                   void (*get_locals)(void *, uint32_t, uint32_t, vks_affine *),
                                   void (*get_weights)(void *, uint32_t, uint32_t, float *),
                                   vks_stream_deliver_fn deliver, void *user, uint64_t max_chunk_bytes)
{
    vks_stream_desc d = {0};
    d.models = models, d.skins = &c->skin, d.model_count = 1;
    d.get_instance = pose_instance, d.instance_count = (uint32_t)count;
    d.times = ONE_FRAME, d.frame_count = 1;
    d.get_locals = get_locals, d.get_weights = c->weights ? get_weights : NULL; /* morph weights per pose */
    d.deliver = deliver, d.user = user;
    d.chunk_bytes = max_chunk_bytes;
    return d;
}

vks_result vks__deform_gpu(vks__chunks *c, vks_gpu *const *gpus, const vks_gpu_models *const *models, int count,
                          vks_error *err)
{
    vks__gpu_stream g = {0};
    g.c = c, g.result = VKS_OK;
    g.gpus = gpus, g.models = models, g.count = count;
    g.per = (size_t)c->skin->vertex_count * 3;
    size_t pose_bytes = g.per * sizeof(float) + 16;
    g.block_poses = (uint32_t)(VKS__BLOCK_BYTES / pose_bytes < 1 ? 1 : VKS__BLOCK_BYTES / pose_bytes);
    if (g.block_poses > c->total)
        g.block_poses = (uint32_t)c->total;
    if (c->total > UINT32_MAX) /* a stream's instances are counted in 32 bits */
        return vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "deform", "%llu poses: at most %u on the GPU",
                             (unsigned long long)c->total, UINT32_MAX);
    int ok = 1;
    for (int k = 0; k < (c->direct ? 1 : VKS__BLOCKS) && ok; k++) {
        g.blocks[k].pos = malloc((size_t)g.block_poses * g.per * sizeof(float) + 16);
        g.blocks[k].nrm = malloc((size_t)g.block_poses * g.per * sizeof(float) + 16);
        ok = g.blocks[k].pos && g.blocks[k].nrm;
    }
    if (!ok) {
        for (int k = 0; k < VKS__BLOCKS; k++)
            free(g.blocks[k].pos), free(g.blocks[k].nrm);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "deform", "out of memory");
    }
    pthread_mutex_init(&g.mu, NULL);
    pthread_cond_init(&g.cv, NULL);
    g.threaded = !c->direct && !vks__thread_start(&g.thread, converter_main, &g,
                                                   "deform --gpu: poses converted and written on the thread that feeds the GPU");
    vks_gpu_shape_info shape; /* the GPU's chunks: the tuning table's size for this device */
    vks_gpu_launch_shape(gpus[0], &shape);
    uint64_t max_chunk_bytes = c->max_chunk_bytes ? c->max_chunk_bytes : shape.chunk_bytes;
    double t0 = vks__deform_now_seconds();
    vks_error local = {0};
    int single = count <= 1;
    vks_result r = single ? VKS_OK : vks__deform_split(&g, max_chunk_bytes, &single, err ? err : &local);
    if (single) { /* one context, or no threads to be had for the others */
        vks_stream_desc d = vks__pose_stream(c, models[0], c->total, stream_locals, stream_weights, stream_deliver, &g,
                                        max_chunk_bytes);
        r = vks_stream_run(gpus[0], &d, NULL, err);
    }
    c->engine_s = vks__deform_now_seconds() - t0 - g.write_s;
    if (g.threaded) { /* the converter drains what is left, then ends */
        pthread_mutex_lock(&g.mu);
        g.quit = 1;
        pthread_cond_broadcast(&g.cv);
        pthread_mutex_unlock(&g.mu);
        pthread_join(g.thread, NULL);
    }
    if (g.result != VKS_OK) { /* the output failed: its error, not the batch's "stopped" */
        if (err)
            *err = g.err;
        r = g.result;
    }
    pthread_mutex_destroy(&g.mu);
    pthread_cond_destroy(&g.cv);
    for (int k = 0; k < VKS__BLOCKS; k++)
        free(g.blocks[k].pos), free(g.blocks[k].nrm);
    return r;
}

