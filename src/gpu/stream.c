/* The streaming engine (stream.h): instances cut into chunks whose outputs for one frame fit
 * the budget, each chunk's crowd made once (or re-aimed when the previous chunk's holds the
 * same models), and every frame of the chunk run through the readback ring (backend.h; stream_ring.c in the backend)
 * with the callback of frame N overlapping the GPU work of the frames after it. Instances go
 * to the crowd as they are (one type, instance.h): the crowd writes a LOCALS instance's first
 * locals and puts the bind pose back where host locals were; the stream writes the later
 * frames' host locals. */
#include "gpu/backend.h"
#include "gpu/stream_host.h"
#include "gpu/tuning_start.h"
#include "vkskin/pose.h"
#include "vkskin/stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* A VKS_POSE_LOCALS instance's locals: frame k uses locals + (k % frames) * node_count. */
typedef struct host_locals {
    const vks_affine *locals; /* NULL: the slot holds no host locals */
    uint32_t frames;          /* >= 1 */
} host_locals;

typedef struct stream_run {
    vks_gpu *gpu;
    const vks_stream_desc *d;
    const vks_gpu_clips *clips; /* the desc's, or own_clips */
    vks_gpu_clips *own_clips;
    vks_instance *ci;           /* the chunk's instances */
    host_locals *host;          /* per slot: its host locals (none but VKS_POSE_LOCALS) */
    uint32_t *slot_model;       /* per slot of the crowd: its model (a crowd's buffers fit them) */
    uint32_t cap;               /* entries of the three arrays */
    vks_crowd *crowd;
    uint32_t crowd_n;
    vks__ring *ring;            /* NULL until the first chunk */
    vks_stream_stats *st;
} stream_run;

static vks_result invalid(vks_error *err, const char *what)
{
    return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/stream", "%s", what);
}

static vks_result check_desc(const vks_gpu *gpu, const vks_stream_desc *d, vks_error *err)
{
    if (!gpu || !d || !d->models || !d->skins || !d->model_count)
        return invalid(err, "no context, models or skins");
    if (!d->instance_count || (!d->instances && !d->get_instance))
        return invalid(err, "no instances");
    if (!d->frame_count || !d->times)
        return invalid(err, "no frame times");
    if (d->ring > VKS__RING_MAX)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/stream", "ring of %u slots (at most %u)",
                             d->ring, (unsigned)VKS__RING_MAX);
    for (uint32_t m = 0; m < d->model_count; m++)
        if (!d->skins[m])
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/stream", "skins[%u] is NULL", m);
    return VKS_OK;
}

/* Instance i as the crowd takes it, named by its number in the stream (the crowd would name
 * its slot in the chunk). */
static vks_result check_instance(const stream_run *r, uint32_t i, const vks_instance *in, vks_error *err)
{
    const vks_stream_desc *d = r->d;
    if (in->model >= d->model_count)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/stream", "instance %u: model %u of %u", i,
                             in->model, d->model_count);
    if (in->pose == VKS_POSE_LAYERS && (!d->layers || !r->clips || !in->layer_count ||
                                              in->layer_count > VKS_MAX_LAYERS))
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/stream",
                             "instance %u: %u layers (1..%u, with clips and a desc that says layers)", i,
                             in->layer_count, VKS_MAX_LAYERS);
    if (in->pose == VKS_POSE_CLIP && !r->clips)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/stream", "instance %u plays a clip, the stream has none", i);
    if (in->pose == VKS_POSE_CLIP && !d->gpu_clips && in->clip >= d->clip_count)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/stream", "instance %u: clip %u of %u", i,
                             in->clip, d->clip_count);
    if (in->pose == VKS_POSE_HOST)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/stream",
                             "instance %u: host-posed (VKS_POSE_HOST) in a stream whose first instance is not "
                             "(every one, or none)", i);
    if ((unsigned)in->pose > VKS_POSE_LAYERS || in->pose == VKS_POSE_FRAMES)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/stream", "instance %u: pose source %d", i,
                             (int)in->pose);
    if (in->pose == VKS_POSE_LOCALS && !in->locals)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/stream", "instance %u: no locals", i);
    return VKS_OK;
}

static vks_result grow(stream_run *r, uint32_t n, vks_error *err)
{
    if (n <= r->cap)
        return VKS_OK;
    uint32_t cap = r->cap ? r->cap : 64;
    while (cap < n)
        cap = cap > UINT32_MAX / 2 ? UINT32_MAX : cap * 2;
    void *a = realloc(r->host, (size_t)cap * sizeof *r->host), *b = a ? realloc(r->ci, (size_t)cap * sizeof *r->ci) : NULL;
    if (a)
        r->host = a;
    if (b)
        r->ci = b;
    void *c = b ? realloc(r->slot_model, (size_t)cap * sizeof *r->slot_model) : NULL;
    if (c)
        r->slot_model = c;
    if (!c)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/stream", "out of memory for %u instances", cap);
    r->cap = cap;
    return VKS_OK;
}

static uint64_t instance_bytes(const stream_run *r, const vks_instance *in)
{
    return (uint64_t)r->d->skins[in->model]->vertex_count * (r->d->no_normals ? 12 : 24);
}

/* Instance g into the chunk's slot, checked, with its host locals. */
static vks_result fetch_instance(const stream_run *r, uint32_t g, vks_instance *out, host_locals *host,
                                 vks_error *err)
{
    const vks_stream_desc *d = r->d;
    host->locals = NULL, host->frames = 1;
    if (d->instances)
        *out = d->instances[g];
    else
        d->get_instance(d->user, g, out);
    vks_result res = check_instance(r, g, out, err);
    if (res == VKS_OK && out->pose == VKS_POSE_LOCALS)
        host->locals = out->locals, host->frames = out->locals_frames ? out->locals_frames : 1;
    return res;
}

/* The chunk from instance g0 on: instances while their outputs fit the budget (at least one).
 * *full: it ended because the next one would not fit. */
static vks_result plan_chunk(stream_run *r, uint32_t g0, uint32_t *n_out, uint64_t *bytes_out, int *full,
                             vks_error *err)
{
    const vks_stream_desc *d = r->d;
    uint64_t budget = d->chunk_bytes ? d->chunk_bytes : 64ull << 20, bytes = 0;
    uint32_t n = 0;
    *full = 0;
    for (uint32_t g = g0; g < d->instance_count; g++) {
        vks_result res = grow(r, n + 1, err);
        if (res != VKS_OK)
            return res;
        vks_instance *in = &r->ci[n];
        if ((res = fetch_instance(r, g, in, &r->host[n], err)) != VKS_OK)
            return res;
        uint64_t b = instance_bytes(r, in);
        if (n && bytes + b > budget) {
            *full = 1;
            break;
        }
        bytes += b, n++;
    }
    *n_out = n, *bytes_out = bytes;
    return VKS_OK;
}

/* Calibration at first use sized by the whole stream (tuning_start.h): every instance's
 * vertices times the frames, the largest model's share timed, asked before the first chunk's
 * crowd is made, which would count only its own work (a long stream of small chunks never
 * repaid one). The instances are fetched for it only where a calibration may still come; one
 * that does not check out leaves it to the chunks, which say why. */
static void calibrate_for_stream(stream_run *r)
{
    const vks_stream_desc *d = r->d;
    if (!vks__first_use_open(r->gpu))
        return;
    uint64_t *per_model = calloc(d->model_count, sizeof *per_model), per_frame = 0;
    uint32_t model = 0;
    vks_error e = {0};
    for (uint32_t g = 0; per_model && g < d->instance_count; g++) {
        vks_instance in;
        host_locals h;
        if (fetch_instance(r, g, &in, &h, &e) != VKS_OK) {
            free(per_model);
            return;
        }
        uint32_t v = 0, nodes = 0;
        vks__model_counts(d->models, in.model, &v, &nodes);
        per_model[in.model] += v, per_frame += v;
        if (per_model[in.model] > per_model[model])
            model = in.model;
    }
    if (!per_model)
        return; /* the table's shape: calibration is never required */
    free(per_model);
    char what[128];
    snprintf(what, sizeof what, "a stream (%u instances over %u frames)", d->instance_count, d->frame_count);
    vks__calibrate_class_at_first_use(r->gpu, d->models, model, vks__crowd_work(per_frame, d->frame_count), what);
}

static const vks_affine *locals_at(const stream_run *r, uint32_t k, uint32_t frame)
{
    const host_locals *h = &r->host[k];
    return h->locals + (size_t)(frame % h->frames) * r->d->skins[r->ci[k].model]->node_count;
}

/* The crowd for the chunk's n instances: the previous one re-aimed when its slots hold the same
 * models, else a new one (either way the crowd writes the first frame's host locals, and the
 * bind pose back where a slot held host locals). */
static vks_result aim_crowd(stream_run *r, uint32_t n, vks_error *err)
{
    const vks_stream_desc *d = r->d;
    int reuse = r->crowd && r->crowd_n == n;
    for (uint32_t k = 0; reuse && k < n; k++)
        reuse = r->slot_model[k] == r->ci[k].model;
    vks_result res = VKS_OK;
    for (uint32_t k = 0; reuse && res == VKS_OK && k < n; k++)
        res = vks_crowd_set_instance(r->crowd, k, &r->ci[k], err);
    if (!reuse) {
        vks_crowd_destroy(r->crowd);
        r->crowd = NULL;
        vks_crowd_desc cd = {0};
        cd.models = d->models;
        cd.instances = r->ci;
        cd.instance_count = n;
        cd.clips = r->clips;
        cd.no_normals = d->no_normals;
        cd.layers = d->layers;
        cd.frames = d->frame_count; /* sizes calibration at first use (tuning_start.h) */
        res = vks_crowd_create(r->gpu, &cd, &r->crowd, err);
        r->crowd_n = res == VKS_OK ? n : 0;
        for (uint32_t k = 0; k < n; k++)
            r->slot_model[k] = r->ci[k].model;
    }
    return res;
}

/* Host locals that change per frame: written between frames, with no frame in flight. */
static vks_result frame_locals(stream_run *r, uint32_t n, uint32_t frame, vks_error *err)
{
    vks_result res = VKS_OK;
    for (uint32_t k = 0; res == VKS_OK && k < n; k++)
        if (r->host[k].locals && r->host[k].frames > 1)
            res = vks_crowd_set_locals(r->crowd, k, locals_at(r, k, frame), err);
    return res;
}

static vks_result ensure_ring(stream_run *r, uint64_t bytes, vks_error *err)
{
    if (r->ring && vks__ring_slot_bytes(r->ring) >= bytes)
        return VKS_OK;
    vks__ring_destroy(r->ring), r->ring = NULL;
    return vks__ring_create(r->gpu, r->d->ring ? r->d->ring : 2, bytes, r->d->reduce, &r->ring, err);
}

/* Every frame of the chunk [g0, g0 + n): submitted up to the ring's depth ahead (one frame when
 * host locals change per frame), each delivered once its slot's fence has signalled. */
static vks_result run_frames(stream_run *r, uint32_t g0, uint32_t n, uint64_t pos_bytes, int host_writes,
                             vks_error *err)
{
    const vks_stream_desc *d = r->d;
    uint32_t frames = d->frame_count, depth = vks__ring_depth(r->ring), s = 0;
    vks_result res = VKS_OK;
    while (res == VKS_OK && s < frames && s < depth && (!host_writes || s == 0)) {
        res = vks__ring_submit(r->ring, s % depth, r->crowd, d->times[s], n, !d->no_normals, err);
        s++;
    }
    for (uint32_t f = 0; res == VKS_OK && f < frames; f++) {
        const void *data = NULL;
        double gpu_ms = 0, t0 = now_ms();
        res = vks__ring_wait(r->ring, f % depth, &data, &gpu_ms, err);
        r->st->wait_ms += now_ms() - t0;
        r->st->gpu_ms += gpu_ms;
        while (res == VKS_OK && s < frames && s - f < depth && (!host_writes || s == f + 1)) {
            if (host_writes)
                res = frame_locals(r, n, s, err);
            if (res == VKS_OK)
                res = vks__ring_submit(r->ring, s % depth, r->crowd, d->times[s], n, !d->no_normals, err);
            s++;
        }
        if (res != VKS_OK)
            break;
        vks_gpu_figures figs;
        if (vks__ring_reduces(r->ring))
            vks__ring_figures(r->ring, f % depth, &figs);
        if (vks__ring_flip_wanted(r->ring, r->st->frames + 1) && pos_bytes) {
            /* testing: a word of this delivery changed between the GPU and the host (its lowest
             * bit: far inside every tolerance, so only the reduction's check can see it) */
            uint32_t *w = (uint32_t *)(uintptr_t)data + pos_bytes / 4 / 2;
            *w ^= 1u;
        }
        vks_stream_delivery dv = {g0, n, f, d->times[f], data,
                                  d->no_normals ? NULL : (const float *)((const char *)data + pos_bytes),
                                  vks__ring_reduces(r->ring) ? &figs : NULL};
        t0 = now_ms();
        int stop = d->deliver(d->user, &dv);
        r->st->deliver_ms += now_ms() - t0;
        r->st->frames++;
        r->st->vertex_instances += pos_bytes / 12;
        if (stop)
            res = vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/stream", "stopped by the consumer");
    }
    vks__ring_drain(r->ring);
    return res;
}

vks_result vks_stream_run(vks_gpu *gpu, const vks_stream_desc *d, vks_stream_stats *stats, vks_error *err)
{
    vks_stream_stats local;
    stream_run r = {0};
    r.st = stats ? stats : &local;
    memset(r.st, 0, sizeof *r.st);
    vks_result res = check_desc(gpu, d, err);
    if (res == VKS_OK && !d->deliver)
        res = invalid(err, "no deliver callback");
    if (res != VKS_OK)
        return res;
    vks_instance first;
    if (d->instances)
        first = d->instances[0];
    else
        d->get_instance(d->user, 0, &first);
    if (first.pose == VKS_POSE_HOST) /* posed by the host: one GPU batch (stream_host.c) */
        return vks__stream_host_run(gpu, d, r.st, err);
    r.gpu = gpu, r.d = d, r.clips = d->gpu_clips;
    if (!r.clips && d->clips && d->clip_count) {
        res = vks_gpu_upload_clips(gpu, d->models, d->skins, d->clips, d->clip_count, &r.own_clips, err);
        r.clips = r.own_clips;
    }
    if (res == VKS_OK)
        calibrate_for_stream(&r);
    for (uint32_t g0 = 0; res == VKS_OK && g0 < d->instance_count;) {
        uint32_t n = 0;
        uint64_t bytes = 0;
        int full = 0;
        if ((res = plan_chunk(&r, g0, &n, &bytes, &full, err)) != VKS_OK)
            break;
        double t0 = now_ms();
        res = aim_crowd(&r, n, err);
        r.st->create_ms += now_ms() - t0;
        /* a full chunk's slot fits any later chunk of several instances: sized once */
        uint64_t budget = d->chunk_bytes ? d->chunk_bytes : 64ull << 20;
        if (res == VKS_OK)
            res = ensure_ring(&r, full && budget > bytes ? budget : bytes, err);
        int host_writes = 0;
        for (uint32_t k = 0; k < n; k++)
            host_writes |= r.host[k].locals && r.host[k].frames > 1;
        if (res == VKS_OK)
            res = run_frames(&r, g0, n, d->no_normals ? bytes : bytes / 2, host_writes, err);
        r.st->chunks++;
        g0 += n;
    }
    vks__ring_destroy(r.ring);
    vks_crowd_destroy(r.crowd);
    vks_gpu_clips_free(r.own_clips);
    free(r.host), free(r.ci), free(r.slot_model);
    return res;
}
