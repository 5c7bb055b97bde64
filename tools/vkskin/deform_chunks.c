/* The pipeline of vkskin deform (deform_chunks.h).
 * CPU engines: locals, engine, writer thread. The buffers are made once per run, small (a
 * fresh page costs ~11 us on a VM: 64 MiB chunks spent 0.4 s of a 0.6 s run faulting theirs
 * in), the second set only when there is a second chunk, and written once before the first
 * chunk, so no chunk's engine or writer pays for fresh pages.
 * GPU: one vks_gpu_run; deliver writes each chunk from the readback memory of its ring slot,
 * which the context keeps (gpu.h, BUFFER LIFETIME), while the next chunk is deformed. Per
 * chunk vks_gpu_run_job calls with a copy into the buffers above and a writer thread took 335
 * ms for 1000 poses of 10k vertices on lavapipe, this 183 ms (2 vCPUs shared by the device's
 * threads and the writer: less work is what overlaps best). */
#include "deform_chunks.h"
#include "cli_progress.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Output bytes (positions and normals) of one CPU chunk: small enough that its pages cost
 * little to fault in. */
#define CHUNK_BYTES ((uint64_t)16 << 20)
/* The GPU's chunks: at most this many bytes a stream, so a large run has several chunks
 * and deforms one while the previous one is written. On a CPU device (lavapipe) the ring's
 * buffers are fresh host pages a one-shot deform faults in, and the kernel shares the cores
 * with the writer: 16 MiB chunks took a 1000-instance, 240 MB deform from 1.6 s to 0.7 s and
 * the bench's deform path from x0.30-0.53 to x0.56-0.59 of the kernel (BENCHMARKS.md). */
#define GPU_CHUNK_BYTES ((uint64_t)64 << 20)
#define CPU_DEVICE_CHUNK_BYTES ((uint64_t)16 << 20)

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

static void progress(const vks_cli_chunks *c, uint64_t done)
{
    if (c->progress)
        vks_cli_progress_set(c->progress, done, NULL);
}

/* ---- the GPU: one run, chunks written as they are read back ---- */

enum { ENTRY_POSES = 1u << 30 }; /* poses per batch entry (instance counts are 32-bit) */

typedef struct gpu_stream {
    vks_cli_chunks *c;
    float *scratch; /* a pose's positions and normals, when finish changes them */
    double write_s;
    vks_result result; /* of the output */
    vks_error err;
} gpu_stream;

static void stream_locals(void *user, uint32_t entry, uint32_t instance, vks_affine *out)
{
    gpu_stream *g = user;
    g->c->locals(g->c->user, (uint64_t)entry * ENTRY_POSES + instance, 1, out);
}

static int stream_deliver(void *user, uint32_t entry, uint32_t first, uint32_t count, const float *p, const float *n)
{
    gpu_stream *g = user;
    vks_cli_chunks *c = g->c;
    double t0 = now_seconds();
    size_t per = (size_t)c->skin->vertex_count * 3;
    for (uint32_t k = 0; k < count && g->result == VKS_OK; k++) {
        uint64_t pose = (uint64_t)entry * ENTRY_POSES + first + k;
        const float *pp = p + k * per, *nn = n + k * per;
        if (c->finish) { /* the readback memory is the ring's: change a copy */
            memcpy(g->scratch, pp, per * sizeof *pp);
            memcpy(g->scratch + per, nn, per * sizeof *nn);
            c->finish(c->user, pose, g->scratch, g->scratch + per);
            pp = g->scratch, nn = g->scratch + per;
        }
        g->result = vks_bake_write(c->bake, (uint32_t)(pose / c->frames), (uint32_t)(pose % c->frames), pp, nn,
                                   &g->err);
    }
    progress(c, (uint64_t)entry * ENTRY_POSES + first + count);
    g->write_s += now_seconds() - t0;
    return g->result != VKS_OK;
}

static vks_result run_gpu(vks_cli_chunks *c, vks_error *err)
{
    gpu_stream g = {c, NULL, 0, VKS_OK, {0}};
    uint32_t entries = (uint32_t)((c->total + ENTRY_POSES - 1) / ENTRY_POSES);
    vks_gpu_batch_entry *e = calloc(entries, sizeof *e);
    if (c->finish)
        g.scratch = malloc((size_t)c->skin->vertex_count * 6 * sizeof *g.scratch + 16);
    if (!e || (c->finish && !g.scratch)) {
        free(e), free(g.scratch);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "deform", "out of memory");
    }
    for (uint32_t i = 0; i < entries; i++) {
        uint64_t left = c->total - (uint64_t)i * ENTRY_POSES;
        e[i] = (vks_gpu_batch_entry){0, (uint32_t)(left < ENTRY_POSES ? left : ENTRY_POSES), NULL};
    }
    vks_gpu_batch b = {0};
    b.entries = e, b.entry_count = entries;
    b.get_locals = stream_locals, b.deliver = stream_deliver, b.user = &g;
    b.want_normals = 1;
    b.max_chunk_bytes = c->max_chunk_bytes ? c->max_chunk_bytes
                        : strcmp(vks_gpu_device(c->gpu)->type, "cpu") ? GPU_CHUNK_BYTES
                                                                      : CPU_DEVICE_CHUNK_BYTES;
    double t0 = now_seconds();
    vks_result r = vks_gpu_run(c->gpu, c->models, &b, NULL, err);
    c->engine_s = now_seconds() - t0 - g.write_s;
    if (g.result != VKS_OK) { /* the output failed: its error, not the batch's "stopped" */
        if (err)
            *err = g.err;
        r = g.result;
    }
    free(e), free(g.scratch);
    return r;
}

/* ---- the CPU engines: chunks and a writer thread ---- */

vks_result vks_cli_chunks_run(vks_cli_chunks *c, vks_error *err)
{
    const vks_skin *s = c->skin;
    c->engine_s = 0;
    if (c->total == 0)
        return VKS_OK;
    if (c->gpu)
        return run_gpu(c, err);
    uint64_t per_pose = (uint64_t)(s->vertex_count ? s->vertex_count : 1) * 24;
    uint64_t chunk = CHUNK_BYTES / per_pose;
    if (chunk < 1)
        chunk = 1;
    if (chunk > c->total)
        chunk = c->total;
    size_t stream = (size_t)(chunk * per_pose / 2); /* bytes of one output stream of a chunk */
    vks_affine *locals = malloc(chunk * (s->node_count ? s->node_count : 1) * sizeof *locals);
    /* two buffer sets: the engine fills one while the writer drains the other */
    int sets = c->total > chunk ? 2 : 1;
    float *pos[2] = {NULL, NULL}, *nrm[2] = {NULL, NULL};
    vks_result r = locals ? VKS_OK : VKS_ERR_NOMEM;
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
        vks_deform_job job = {s, locals, n, pos[n_c % sets], nrm[n_c % sets]};
        double te = now_seconds();
        r = c->deform(c->user, first, &job, err);
        c->engine_s += now_seconds() - te;
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
        progress(c, first + n);
    }
    vks_result rw = writer_finish(&wr, r == VKS_OK ? err : NULL);
    if (r == VKS_OK)
        r = rw;
    free(locals);
    for (int k = 0; k < 2; k++)
        free(pos[k]), free(nrm[k]);
    return r;
}
