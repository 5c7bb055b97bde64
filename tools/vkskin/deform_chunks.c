/* The chunk pipeline of vkskin deform (deform_chunks.h): locals, engine, writer thread. The
 * buffers are made once per run and written once before the first chunk, so no chunk's
 * engine or writer pays for fresh pages; the GPU engine keeps its own buffers in the context
 * (gpu.h, BUFFER LIFETIME). */
#include "deform_chunks.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One chunk's results on their way to the output, written by a thread of its own while the
 * engine deforms the next chunk into the other buffer. */
typedef struct chunk_write {
    vks_bake *bake;
    const vks_skin *skin;
    uint32_t frames;
    const float *pos, *nrm;
    uint64_t first; /* pose index of the chunk's first pose (instance * frames + frame) */
    uint32_t count;
    vks_result result;
    vks_error err;
} chunk_write;

static void *write_chunk(void *arg)
{
    chunk_write *w = arg;
    w->result = VKS_OK;
    for (uint32_t k = 0; k < w->count && w->result == VKS_OK; k++) {
        uint64_t p = w->first + k;
        size_t at = vks_deform_index(w->skin, k, 0) * 3;
        w->result = vks_bake_write(w->bake, (uint32_t)(p / w->frames), (uint32_t)(p % w->frames), w->pos + at,
                                   w->nrm + at, &w->err);
    }
    return NULL;
}

/* The writer of the previous chunk, if one runs: waits for it and takes its result. */
typedef struct writer {
    pthread_t thread;
    int running, threaded;
    chunk_write job;
} writer;

static vks_result writer_finish(writer *w, vks_error *err)
{
    if (!w->running)
        return VKS_OK;
    if (w->threaded)
        pthread_join(w->thread, NULL);
    w->running = 0;
    if (w->job.result != VKS_OK && err && err->code == VKS_OK)
        *err = w->job.err;
    return w->job.result;
}

static void writer_start(writer *w, const chunk_write *job)
{
    w->job = *job;
    w->running = 1;
    w->threaded = pthread_create(&w->thread, NULL, write_chunk, &w->job) == 0;
    if (!w->threaded)
        write_chunk(&w->job); /* no thread to be had: write it here */
}

vks_result vks_cli_chunks_run(vks_cli_chunks *c, vks_error *err)
{
    const vks_skin *s = c->skin;
    c->engine_s = 0;
    if (c->total == 0)
        return VKS_OK;
    uint64_t per_pose = (uint64_t)(s->vertex_count ? s->vertex_count : 1) * 24;
    uint64_t chunk = (64ull << 20) / per_pose;
    if (chunk < 1)
        chunk = 1;
    if (chunk > c->total)
        chunk = c->total;
    size_t stream = (size_t)(chunk * per_pose / 2); /* bytes of one output stream of a chunk */
    vks_affine *locals = malloc(chunk * (s->node_count ? s->node_count : 1) * sizeof *locals);
    /* two buffer sets: the engine fills one while the writer drains the other */
    float *pos[2] = {malloc(stream), malloc(stream)}, *nrm[2] = {malloc(stream), malloc(stream)};
    vks_result r = VKS_OK;
    if (!locals || !pos[0] || !nrm[0] || !pos[1] || !nrm[1])
        r = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "deform", "out of memory for a chunk of %llu poses",
                          (unsigned long long)chunk);
    for (int k = 0; k < 2 && r == VKS_OK; k++) /* every page faulted in here, once */
        memset(pos[k], 0, stream), memset(nrm[k], 0, stream);
    writer wr = {0};
    double last_report = now_seconds();
    for (uint64_t first = 0, n_c = 0; r == VKS_OK && first < c->total; first += chunk, n_c++) {
        uint32_t n = (uint32_t)(c->total - first < chunk ? c->total - first : chunk);
        c->locals(c->user, first, n, locals);
        vks_deform_job job = {s, locals, n, pos[n_c & 1], nrm[n_c & 1]};
        double te = now_seconds();
        r = c->deform(c->user, first, &job, err);
        c->engine_s += now_seconds() - te;
        vks_result rw = writer_finish(&wr, err); /* the previous chunk is on its way out */
        if (r == VKS_OK)
            r = rw;
        if (r != VKS_OK)
            break;
        writer_start(&wr, &(chunk_write){c->bake, s, c->frames, pos[n_c & 1], nrm[n_c & 1], first, n, VKS_OK, {0}});
        double t = now_seconds();
        if (c->progress && t - last_report > 2.0) {
            fprintf(stderr, "vkskin: %s: %llu of %llu poses\n", c->progress, (unsigned long long)(first + n),
                    (unsigned long long)c->total);
            last_report = t;
        }
    }
    vks_result rw = writer_finish(&wr, r == VKS_OK ? err : NULL);
    if (r == VKS_OK)
        r = rw;
    free(locals);
    for (int k = 0; k < 2; k++)
        free(pos[k]), free(nrm[k]);
    return r;
}
