/* The GPU side of the deform run's stream (deform_run_common.h): every pose an instance of a
 * one-frame stream of host-posed instances, each delivery copied into a ring of small blocks
 * (vks__gpu_stream_put) that a converter thread (vks__gpu_stream_converter) puts into the file's
 * layout and hands to the output; one context's run (deform_run_gpu.c) and a split's
 * (deform_run_split.c) both deliver through it. */
#include "bake/deform_run_common.h"

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

void *vks__gpu_stream_converter(void *arg)
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

/* The one-frame stream of every pose of g's chunks on models[0], delivered to the output
 * through vks__gpu_stream_put. */
vks_stream_desc vks__gpu_stream_desc(vks__gpu_stream *g, uint64_t max_chunk_bytes)
{
    return vks__pose_stream(g->c, g->models[0], g->c->total, stream_locals, stream_weights, stream_deliver, g,
                            max_chunk_bytes);
}
