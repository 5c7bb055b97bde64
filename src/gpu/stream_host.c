/* A stream of host-posed instances (stream.h, HOST POSES): the instances cut into chunks as the
 * stream cuts them (one chunk when there is one frame), each chunk's frames one after the other
 * as entries of a single GPU batch (vks_gpu_run), whose pose pass composes the host's locals as
 * it does for any batch. So the bits are vks_gpu_run's (no crowd: its pose parameters and roots
 * are other arithmetic) and so is the speed: one run, its ring of buffer sets in flight while
 * the consumer takes the chunk before. Why not a crowd with VKS_POSE_LOCALS: a crowd writes
 * host locals between frames with no frame in flight, and its pose pipeline (pose parameters,
 * roots) rounds differently from the batch's; vkskin deform --gpu promised the batch's bytes. */
#include "gpu/stream_host.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* Where a batch entry's instances come from: stream instances [g0, g0 + count) at frame. */
typedef struct host_entry {
    uint32_t g0, frame;
} host_entry;

/* A run of consecutive instances of one model within a chunk. */
typedef struct model_run {
    uint32_t model, g0, count;
} model_run;

typedef struct host_run {
    vks_gpu *gpu;
    const vks_stream_desc *d;
    vks_gpu_batch_entry *entries;
    host_entry *at;
    uint32_t count, cap;
    model_run *runs;
    uint32_t nruns, runs_cap;
    vks_stream_stats *st;
    /* reduce: a GPU chunk's segments gathered into one delivery, which its figures describe */
    int merge, has_pend, cut, stopped;
    vks_stream_delivery pend;
    size_t pend_floats;
} host_run;

static vks_result no_memory(vks_error *err)
{
    return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/stream", "out of memory for the host-posed batch");
}

/* Instance g's model, checked: every instance of the stream is host-posed. */
static vks_result host_model(const vks_stream_desc *d, uint32_t g, uint32_t *model, vks_error *err)
{
    vks_instance in;
    if (d->instances)
        in = d->instances[g];
    else
        d->get_instance(d->user, g, &in);
    if (in.pose != VKS_POSE_HOST)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/stream",
                             "instance %u: pose source %d in a stream of host-posed instances (every one "
                             "VKS_POSE_HOST, or none)", g, (int)in.pose);
    if (in.model >= d->model_count)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/stream", "instance %u: model %u of %u", g,
                             in.model, d->model_count);
    *model = in.model;
    return VKS_OK;
}

static int grow(void **p, uint32_t *cap, uint32_t need, size_t size)
{
    if (need <= *cap)
        return 1;
    uint32_t c = *cap ? *cap : 16;
    while (c < need)
        c = c > UINT32_MAX / 2 ? UINT32_MAX : c * 2;
    void *q = realloc(*p, (size_t)c * size);
    if (!q)
        return 0;
    *p = q, *cap = c;
    return 1;
}

/* One entry a frame for each run of the chunk (entries and at grow together, to cap). */
static vks_result add_chunk(host_run *h, vks_error *err)
{
    for (uint32_t f = 0; f < h->d->frame_count; f++)
        for (uint32_t k = 0; k < h->nruns; k++) {
            uint32_t entries_cap = h->cap; /* the same growth as at's below */
            if (!grow((void **)&h->entries, &entries_cap, h->count + 1, sizeof *h->entries) ||
                !grow((void **)&h->at, &h->cap, h->count + 1, sizeof *h->at))
                return no_memory(err);
            h->entries[h->count] = (vks_gpu_batch_entry){h->runs[k].model, h->runs[k].count, NULL};
            h->at[h->count++] = (host_entry){h->runs[k].g0, f};
        }
    return VKS_OK;
}

/* The batch's entries: chunks of instances whose outputs for one frame fit chunk_bytes (the
 * stream's ORDER; the whole stream when there is one frame), each chunk's frames in turn. */
static vks_result plan_entries(host_run *h, vks_error *err)
{
    const vks_stream_desc *d = h->d;
    uint64_t budget = d->frame_count == 1 ? UINT64_MAX : d->chunk_bytes ? d->chunk_bytes : 64ull << 20;
    for (uint32_t g0 = 0, g = 0; g0 < d->instance_count; g0 = g) {
        uint64_t bytes = 0;
        h->nruns = 0;
        for (g = g0; g < d->instance_count; g++) {
            uint32_t m = 0;
            vks_result r = host_model(d, g, &m, err);
            if (r != VKS_OK)
                return r;
            uint64_t b = (uint64_t)d->skins[m]->vertex_count * (d->no_normals ? 12 : 24);
            if (g > g0 && bytes + b > budget)
                break;
            bytes += b;
            if (h->nruns && h->runs[h->nruns - 1].model == m) {
                h->runs[h->nruns - 1].count++;
                continue;
            }
            if (!grow((void **)&h->runs, &h->runs_cap, h->nruns + 1, sizeof *h->runs))
                return no_memory(err);
            h->runs[h->nruns++] = (model_run){m, g, 1};
        }
        vks_result r = add_chunk(h, err);
        if (r != VKS_OK)
            return r;
    }
    return VKS_OK;
}

static void host_locals(void *user, uint32_t entry, uint32_t instance, vks_affine *out)
{
    host_run *h = user;
    h->d->get_locals(h->d->user, h->at[entry].g0 + instance, h->at[entry].frame, out);
}

static void host_weights(void *user, uint32_t entry, uint32_t instance, float *out)
{
    host_run *h = user;
    h->d->get_weights(h->d->user, h->at[entry].g0 + instance, h->at[entry].frame, out);
}

static int emit(host_run *h, const vks_stream_delivery *dv, size_t floats)
{
    double t0 = now_ms();
    int stop = h->d->deliver(h->d->user, dv);
    h->st->deliver_ms += now_ms() - t0;
    h->st->frames++;
    h->st->vertex_instances += floats / 3;
    h->stopped |= stop != 0;
    return stop;
}

static int host_deliver(void *user, uint32_t entry, uint32_t first, uint32_t count, const float *p, const float *n)
{
    host_run *h = user;
    const vks_stream_desc *d = h->d;
    const host_entry *e = &h->at[entry];
    size_t floats = (size_t)count * d->skins[h->entries[entry].model]->vertex_count * 3;
    vks_stream_delivery dv = {e->g0 + first, count, e->frame, d->times[e->frame], p, d->no_normals ? NULL : n, NULL};
    if (!h->merge)
        return emit(h, &dv, floats);
    if (h->has_pend && h->pend.frame == dv.frame && h->pend.first + h->pend.count == dv.first &&
        p == h->pend.positions + h->pend_floats) { /* the next instances of the same frame, right after */
        h->pend.count += count, h->pend_floats += floats;
        return 0;
    }
    int stop = 0;
    if (h->has_pend) { /* a part of the chunk: the chunk's figures are not its own */
        h->cut = 1;
        stop = emit(h, &h->pend, h->pend_floats);
    }
    h->pend = dv, h->pend_floats = floats, h->has_pend = 1;
    return stop;
}

static int host_chunk_done(void *user, uint32_t chunk, const vks_gpu_figures *figures)
{
    (void)chunk;
    host_run *h = user;
    if (!h->has_pend)
        return 0;
    h->pend.gpu_figures = h->cut ? NULL : figures;
    h->has_pend = 0, h->cut = 0;
    return emit(h, &h->pend, h->pend_floats);
}

vks_result vks__stream_host_run(vks_gpu *gpu, const vks_stream_desc *d, vks_stream_stats *st, vks_error *err)
{
    if (!d->get_locals)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/stream",
                             "host-posed instances (VKS_POSE_HOST) and no get_locals");
    host_run h = {0};
    h.gpu = gpu, h.d = d, h.st = st;
    vks_result res = plan_entries(&h, err);
    vks_gpu_batch b = {0};
    b.entries = h.entries, b.entry_count = h.count;
    b.get_locals = host_locals, b.deliver = host_deliver, b.user = &h;
    b.get_weights = d->get_weights ? host_weights : NULL;
    b.want_normals = !d->no_normals;
    b.ring = d->ring;
    b.reduce = d->reduce, b.chunk_done = d->reduce ? host_chunk_done : NULL;
    vks_gpu_shape_info shape; /* the GPU's chunks: the tuning table's size for this device */
    vks_gpu_launch_shape(gpu, &shape);
    b.max_chunk_bytes = d->chunk_bytes ? d->chunk_bytes : shape.chunk_bytes;
    h.merge = d->reduce && vks_gpu_batch_reduces(gpu, &b);
    vks_gpu_stats gs = {0};
    if (res == VKS_OK) {
        vks_gpu_calibrate_for_batch(gpu, d->models, &b); /* the explicit step before the run */
        res = vks_gpu_run(gpu, d->models, &b, &gs, err);
    }
    if (res != VKS_OK && h.stopped) { /* the consumer's stop, in the stream's words */
        if (err)
            memset(err, 0, sizeof *err);
        res = vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/stream", "stopped by the consumer");
    }
    st->chunks = gs.chunks;
    st->gpu_ms = gs.pose_ms + gs.deform_ms + gs.readback_ms;
    st->pose_ms = gs.pose_ms, st->deform_ms = gs.deform_ms, st->readback_ms = gs.readback_ms; /* validate tells them apart */
    free(h.entries), free(h.at), free(h.runs);
    return res;
}
