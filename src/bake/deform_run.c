/* The deform run (deform_run.h): the CPU engines' chunks (locals, engine, writer thread) and
 * the entry. The buffers are made once per run, small (a fresh page costs ~11 us on a VM:
 * 64 MiB chunks spent 0.4 s of a 0.6 s run faulting theirs in), the second set only when there
 * is a second chunk, and written once before the first chunk, so no chunk's engine or writer
 * pays for fresh pages. The GPU is deform_run_gpu.c's. Moved from the vkskin program's
 * deform_chunks.c. */
#include "bake/deform_run_common.h"
#include "core/thread_start.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Output bytes (positions and normals) of one CPU chunk: small enough that its pages cost
 * little to fault in. */
#define CHUNK_BYTES ((uint64_t)16 << 20)

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
    w->threaded = !vks__thread_start(&w->thread, write_chunk, &w->job, "deform: each chunk written on the engine's thread");
    if (!w->threaded)
        write_chunk(&w->job); /* no thread to be had: write it here */
}


/* The CPU engine on one chunk's job. */
static vks_result engine_run(const vks__chunks *c, const vks_deform_job *job, vks_error *err)
{
    if (c->engine == VKS_DEFORM_CPU_FAST)
        return vks_cpu_fast_run(job, c->threads, err);
    return vks_cpu_reference_run(job, err);
}

/* ---- the CPU engines: chunks and a writer thread ---- */

static vks_result run_cpu(vks__chunks *c, vks_error *err)
{
    const vks_skin *s = c->skin;
    uint64_t per_pose = (uint64_t)(s->vertex_count ? s->vertex_count : 1) * 24;
    uint64_t chunk = CHUNK_BYTES / per_pose;
    if (chunk < 1)
        chunk = 1;
    if (chunk > c->total)
        chunk = c->total;
    size_t stream = (size_t)(chunk * per_pose / 2); /* bytes of one output stream of a chunk */
    vks_affine *locals = malloc(chunk * (s->node_count ? s->node_count : 1) * sizeof *locals);
    float *weights = c->weights && s->target_count ? malloc(chunk * s->target_count * sizeof *weights) : NULL;
    /* two buffer sets: the engine fills one while the writer drains the other */
    int sets = c->total > chunk ? 2 : 1;
    float *pos[2] = {NULL, NULL}, *nrm[2] = {NULL, NULL};
    vks_result r = locals && (weights || !c->weights || !s->target_count) ? VKS_OK : VKS_ERR_NOMEM;
    for (int k = 0; k < sets && r == VKS_OK; k++) {
        pos[k] = malloc(stream), nrm[k] = malloc(stream);
        if (!pos[k] || !nrm[k])
            r = VKS_ERR_NOMEM;
        else /* every page faulted in here, once */
            memset(pos[k], 0, stream), memset(nrm[k], 0, stream);
    }
    if (r != VKS_OK)
        r = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "deform", "out of memory for a chunk of %llu poses",
                          (unsigned long long)chunk);
    writer wr = {0};
    for (uint64_t first = 0, n_c = 0; r == VKS_OK && first < c->total; first += chunk, n_c++) {
        uint32_t n = (uint32_t)(c->total - first < chunk ? c->total - first : chunk);
        c->locals(c->user, first, n, locals);
        vks_deform_job job = {s, locals, n, pos[n_c % sets], nrm[n_c % sets], NULL};
        if (weights && c->weights(c->user, first, n, weights)) /* morph weights off their defaults */
            job.morph_weights = weights;
        double te = vks__deform_now_seconds();
        r = engine_run(c, &job, err);
        c->engine_s += vks__deform_now_seconds() - te;
        for (uint32_t k = 0; r == VKS_OK && c->finish && k < n; k++) {
            size_t at = vks_deform_index(s, k, 0) * 3;
            c->finish(c->user, first + k, job.positions + at, job.normals + at);
        }
        vks_result rw = writer_finish(&wr, err); /* the previous chunk is on its way out */
        if (r == VKS_OK)
            r = rw;
        if (r != VKS_OK)
            break;
        writer_start(&wr, &(chunk_write){c->bake, s, c->frames, pos[n_c % sets], nrm[n_c % sets], first, n, VKS_OK,
                                         {0}});
        vks__chunks_progress(c, first + n);
    }
    vks_result rw = writer_finish(&wr, r == VKS_OK ? err : NULL);
    if (r == VKS_OK)
        r = rw;
    free(locals);
    free(weights);
    for (int k = 0; k < 2; k++)
        free(pos[k]), free(nrm[k]);
    return r;
}



static vks_result check(const vks_deform_run_desc *d, vks_error *err)
{
    const char *bad = !d || !d->skin || !d->bake || !d->locals ? "no skin, bake or locals"
                      : !d->frames                              ? "no frames"
                      : d->engine > VKS_DEFORM_GPU              ? "unknown engine"
                      : d->engine == VKS_DEFORM_GPU && (!d->gpus || !d->models || d->gpu_count < 1)
                          ? "the GPU engine with no context"
                          : NULL;
    for (int k = 0; !bad && d->engine == VKS_DEFORM_GPU && k < d->gpu_count && k < VKS_SHARES_MAX; k++)
        if (!d->gpus[k] || !d->models[k])
            bad = "a NULL context or models";
    return bad ? vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "deform", "%s", bad) : VKS_OK;
}

vks_result vks_deform_run(const vks_deform_run_desc *d, vks_deform_run_stats *stats, vks_error *err)
{
    vks_deform_run_stats local;
    vks_deform_run_stats *st = stats ? stats : &local;
    memset(st, 0, sizeof *st);
    vks_result r = check(d, err);
    if (r != VKS_OK || d->total == 0)
        return r;
    vks__chunks c = {d->skin, d->bake, d->frames, d->total, d->locals, d->weights, d->finish, d->progress, d->user,
                     d->engine, d->threads, d->max_chunk_bytes, d->direct, 0, &st->shares};
    if (d->engine != VKS_DEFORM_GPU)
        r = run_cpu(&c, err);
    else /* one context, or the poses split across several (deform_run_split.c) */
        r = vks__deform_gpu(&c, d->gpus, d->models, d->gpu_count < VKS_SHARES_MAX ? d->gpu_count : VKS_SHARES_MAX,
                            err);
    st->engine_s = c.engine_s;
    return r;
}
