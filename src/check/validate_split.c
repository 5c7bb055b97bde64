/* vks_validate_run's batch across several contexts (vks_validate_options.more_contexts; vkskin
 * validate --device all or a list, without --each): each input's poses are cut into one
 * contiguous span per context, every context deforms its spans on a thread of its own, and the
 * chunks are compared in pose order.
 *
 * One verdict must equal one device's, bit for bit. The counts, extremes and error maps would
 * merge in any order that keeps the earlier pose on a tie, but the sums of squares behind NMSE
 * are sequential over the components, so a file's chunks must reach its accumulators in pose
 * order: a context compares its span of file f only once the contexts before it finished
 * theirs (a turn per file). Files are independent, so while context 1 waits for file 0,
 * context 0 goes on to file 1: the contexts take turns like a pipeline, and a context's GPU
 * keeps a chunk in flight while it waits. Each context's batch checks its readback as one
 * device's does (--readback-check's rule on its own device); its chunks are numbered per
 * context, so a mismatch names the context too. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check/validate_state.h"
#include "core/thread_start.h"
#include "core/work_pool.h"

typedef struct vturns {
    pthread_mutex_t lock;
    pthread_cond_t moved;
    int *turn;  /* per file: the context whose span is compared now */
    int abort;  /* a context failed: every waiter stops */
} vturns;

typedef struct vpart {
    vrun *r;
    int k, n;
    vks_gpu *gpu;
    vks_gpu_models *ms;
    vctx c;                      /* this context's scratch; the files' accumulators are shared */
    uint32_t *first, *count;     /* per file: this context's span */
    uint32_t *done;              /* per file: poses compared */
    int *entry_file;             /* per batch entry: the file */
    vks_gpu_batch_entry *entries;
    uint32_t nentries;
    vks_gpu_batch b;             /* this context's batch as its stream runs it (its readback
                                    check decided before) */
    uint32_t chunk;              /* its GPU chunks checked so far */
    vturns *t;
    struct vpart *parts;
    vks_gpu_stats st;
    double t0, seconds;          /* the split's start; from it to this context's end */
    vks_result run;
    vks_error err;
} vpart;

/* The context after k with poses of file f (n: none). */
static int next_owner(const vpart *parts, int k, int f)
{
    for (k++; k < parts[0].n; k++)
        if (parts[k].count[f])
            break;
    return k;
}

static void split_locals(void *user, uint32_t entry, uint32_t instance, vks_affine *out)
{
    vpart *p = user;
    int f = p->entry_file[entry];
    vfile *vf = &p->r->o->inputs[f];
    vks__validate_pose_locals(&p->c, vf, p->first[f] + instance, out);
}

static void split_weights(void *user, uint32_t entry, uint32_t instance, float *out)
{
    vpart *p = user;
    int f = p->entry_file[entry];
    const vfile *vf = &p->r->o->inputs[f];
    uint32_t pose = p->first[f] + instance;
    vks_pose_source_weights(vf->ps.source, vf->skin, pose / vf->frames, pose % vf->frames, out);
}

static int split_deliver(void *user, uint32_t entry, uint32_t first, uint32_t count, const float *pp,
                         const float *nn)
{
    vpart *p = user;
    int f = p->entry_file[entry];
    vturns *t = p->t;
    pthread_mutex_lock(&t->lock);
    while (t->turn[f] != p->k && !t->abort)
        pthread_cond_wait(&t->moved, &t->lock);
    int stop = t->abort;
    pthread_mutex_unlock(&t->lock);
    if (stop)
        return 1;
    vref_chunk ch = {&p->r->o->inputs[f], p->first[f] + first, count, 0, 0, pp, nn};
    vks__validate_note_chunk(&p->c, ch.f, ch.first, count); /* what the readback check names */
    stop = vks__validate_ref_chunk(&p->c, &ch);
    pthread_mutex_lock(&t->lock);
    vks__validate_progress(p->r, count); /* one call at a time, from the contexts' threads */
    if (stop)
        t->abort = 1;
    p->done[f] += count;
    if (p->done[f] == p->count[f])
        t->turn[f] = next_owner(p->parts, p->k, f);
    pthread_cond_broadcast(&t->moved);
    pthread_mutex_unlock(&t->lock);
    return stop;
}

/* The context's stream instance g: its entry (a file's span) and the instance in it. */
static uint32_t entry_of(const vpart *p, uint32_t g, uint32_t *instance)
{
    uint32_t e = 0, base = 0;
    while (e + 1 < p->nentries && g >= base + p->entries[e].instance_count)
        base += p->entries[e].instance_count, e++;
    *instance = g - base;
    return e;
}

static void stream_instance(void *user, uint32_t g, vks_instance *out)
{
    const vpart *p = user;
    uint32_t i;
    memset(out, 0, sizeof *out);
    out->pose = VKS_POSE_HOST;
    out->model = (uint32_t)p->entry_file[entry_of(p, g, &i)];
}

static void stream_locals(void *user, uint32_t g, uint32_t frame, vks_affine *out)
{
    uint32_t i, e = entry_of(user, g, &i);
    (void)frame;
    split_locals(user, e, i, out);
}

static void stream_weights(void *user, uint32_t g, uint32_t frame, float *out)
{
    uint32_t i, e = entry_of(user, g, &i);
    (void)frame;
    split_weights(user, e, i, out);
}

/* Instances [first, first + count) of this context's stream: each file's span of them compared
 * in its turn, then (a whole GPU chunk, reduced) the chunk's readback check as one device's,
 * under the lock since the device's figures and counts are every context's. */
static int stream_deliver(void *user, const vks_stream_delivery *d)
{
    vpart *p = user;
    uint32_t n = d->count, i, e = entry_of(p, d->first, &i);
    size_t at = 0;
    while (n) {
        int f = p->entry_file[e];
        uint32_t count = p->entries[e].instance_count - i < n ? p->entries[e].instance_count - i : n;
        if (split_deliver(p, e, i, count, d->positions + at, d->normals ? d->normals + at : NULL))
            return 1;
        at += (size_t)count * p->r->o->inputs[f].skin->vertex_count * 3;
        n -= count, e++, i = 0;
    }
    if (d->gpu_figures) {
        pthread_mutex_lock(&p->t->lock);
        vks__validate_check_readback(&p->c, p->chunk++, "poses", d->gpu_figures);
        pthread_mutex_unlock(&p->t->lock);
        vks__validate_next_chunk(&p->c);
    }
    return 0;
}

/* The context's batch, and whether it reduces: --readback-check's rule on its own device
 * (auto: a context that reads its outputs in place does not), decided on the calling thread
 * before any run, as the one-device batch does. */
static void make_batch(vpart *p)
{
    vks_gpu_batch *b = &p->b;
    b->entries = p->entries, b->entry_count = p->nentries;
    b->get_locals = split_locals, b->deliver = split_deliver, b->user = p;
    for (uint32_t k = 0; k < p->r->count; k++)
        if (p->r->o->inputs[k].ps.morph_meshes) /* the poses drive morph weights */
            b->get_weights = split_weights;
    b->want_normals = 1;
    b->max_chunk_bytes = p->r->opt->max_chunk_bytes;
    int check = p->r->opt->readback_check;
    b->reduce = check > 0 ? 1 : check == 0 ? VKS_GPU_REDUCE_COPIED : 0;
    p->c.reduce = p->nentries && vks_gpu_batch_reduces(p->gpu, b);
    if (!p->c.reduce)
        b->reduce = 0;
    p->c.context = p->k + 1, p->c.contexts = p->n;
    vks__validate_next_chunk(&p->c);
}

/* The context's poses through the stream as host-posed instances of one frame (stream.h, HOST
 * POSES: one GPU batch, vks_gpu_run's very bits, calibrated before it runs). */
static vks_result run_part_stream(vpart *p)
{
    vks_stream_desc d = {0};
    float time0 = 0;
    uint32_t total = 0;
    for (uint32_t e = 0; e < p->nentries; e++)
        total += p->entries[e].instance_count;
    d.models = p->ms, d.skins = p->r->skins, d.model_count = p->r->count;
    d.get_instance = stream_instance, d.instance_count = total, d.user = p;
    d.times = &time0, d.frame_count = 1;
    d.chunk_bytes = p->b.max_chunk_bytes;
    d.reduce = p->c.reduce;
    d.get_locals = stream_locals, d.get_weights = p->b.get_weights ? stream_weights : NULL;
    d.deliver = stream_deliver;
    vks_stream_stats ss = {0};
    vks_result rc = vks_stream_run(p->gpu, &d, &ss, &p->err);
    p->st.chunks = ss.chunks, p->st.vertex_instances = ss.vertex_instances;
    p->st.pose_ms = ss.pose_ms, p->st.deform_ms = ss.deform_ms, p->st.readback_ms = ss.readback_ms; /* one batch's */
    return rc;
}

static void *run_part(void *arg)
{
    vpart *p = arg;
    p->run = p->nentries ? run_part_stream(p) : VKS_OK;
    p->seconds = (vks__validate_now_ms() - p->t0) / 1e3;
    if (p->run != VKS_OK) { /* the contexts after this one would wait for its spans forever */
        pthread_mutex_lock(&p->t->lock);
        p->t->abort = 1;
        pthread_cond_broadcast(&p->t->moved);
        pthread_mutex_unlock(&p->t->lock);
    }
    return NULL;
}

/* What each context took (the device's shares): its poses, chunks and time. */
static void say_shares(vrun *r, const vpart *parts, int n)
{
    vks_validate_device *d = &r->o->device;
    d->share_unit = "poses", d->share_count = (uint32_t)n;
    for (int k = 0; k < n; k++) {
        const vpart *p = &parts[k];
        uint64_t poses = 0;
        for (uint32_t f = 0; f < r->count; f++)
            poses += p->count[f];
        const vks_gpu_device_info *info = vks_gpu_device(p->gpu);
        snprintf(d->shares[k].device, sizeof d->shares[k].device, "%s", info ? info->name : "");
        d->shares[k].count = poses, d->shares[k].chunks = p->st.chunks, d->shares[k].seconds = p->seconds;
    }
}

/* The contexts: the run's (its models uploaded) and the host's others, every skin uploaded to
 * each here. gpus and ms come zeroed; close_contexts after. */
static vks_result open_contexts(vrun *r, vks_gpu *gpu0, vks_gpu **gpus, vks_gpu_models **ms, vks_error *err)
{
    gpus[0] = gpu0, ms[0] = r->ms;
    for (uint32_t k = 1; k <= r->opt->more_context_count; k++) {
        gpus[k] = r->opt->more_contexts[k - 1];
        vks_result rc = vks_gpu_upload(gpus[k], r->skins, r->count, &ms[k], err);
        if (rc != VKS_OK)
            return rc;
    }
    return VKS_OK;
}

/* The models uploaded to the host's other contexts, freed (the contexts stay the host's). */
static void close_contexts(vrun *r, vks_gpu_models **ms)
{
    for (uint32_t k = 1; k <= r->opt->more_context_count; k++)
        vks_gpu_models_free(ms[k]);
}

/* Context k's share of every input's poses: one contiguous span each, its batch made. 0
 * without memory. */
static int make_part(vrun *r, vpart *parts, int k, int n, vturns *t, vks_gpu *gpu, vks_gpu_models *ms)
{
    vpart *p = &parts[k];
    uint32_t nf = r->count;
    p->r = r, p->k = k, p->n = n, p->t = t, p->parts = parts;
    p->c = r->c; /* the options; the scratch (and the pool) is this context's own */
    p->c.locals = NULL, p->c.rp = p->c.rn = NULL, p->c.world = NULL, p->c.scales = NULL;
    p->c.locals_cap = p->c.out_cap = p->c.world_cap = p->c.scales_cap = 0;
    p->c.pool = NULL, p->c.pool_tried = 0, memset(&p->c.ahead, 0, sizeof p->c.ahead);
    memset(p->c.thread_maps, 0, sizeof p->c.thread_maps);
    p->first = calloc(nf, sizeof *p->first);
    p->count = calloc(nf, sizeof *p->count);
    p->done = calloc(nf, sizeof *p->done);
    p->entry_file = calloc(nf, sizeof *p->entry_file);
    p->entries = calloc(nf, sizeof *p->entries);
    if (!p->first || !p->count || !p->done || !p->entry_file || !p->entries)
        return 0;
    for (uint32_t f = 0; f < nf; f++) {
        uint64_t poses = r->o->inputs[f].poses;
        p->first[f] = (uint32_t)(poses * (uint64_t)k / (uint64_t)n);
        p->count[f] = (uint32_t)(poses * (uint64_t)(k + 1) / (uint64_t)n) - p->first[f];
        if (p->count[f]) {
            p->entry_file[p->nentries] = (int)f;
            p->entries[p->nentries++] = (vks_gpu_batch_entry){f, p->count[f], NULL};
        }
    }
    p->gpu = gpu, p->ms = ms;
    make_batch(p);
    return 1;
}

/* Every context's batch on a thread of its own (the first on the caller's). */
static void run_parts(vpart *parts, int n)
{
    pthread_t th[VKS_VALIDATE_MAX_CONTEXTS];
    int started[VKS_VALIDATE_MAX_CONTEXTS] = {0};
    double t0 = vks__validate_now_ms();
    for (int k = 0; k < n; k++)
        parts[k].t0 = t0;
    for (int k = 1; k < n; k++)
        started[k] = vks__thread_start(&th[k], run_part, &parts[k], "validate --device: a context's poses on the "
                                                                    "calling thread, after the others'") == 0;
    run_part(&parts[0]);
    for (int k = 1; k < n; k++)
        if (!started[k])
            run_part(&parts[k]); /* a context no thread could take: after the others' turns */
    for (int k = 1; k < n; k++)
        if (started[k])
            pthread_join(th[k], NULL);
}

/* The first failure in context order, and the stats summed into st (the wall time is the
 * caller's). */
static vks_result sum_parts(const vpart *parts, int n, vks_gpu_stats *st, vks_error *err)
{
    for (int k = 0; k < n; k++) {
        const vpart *p = &parts[k];
        if (p->run != VKS_OK && p->err.code != VKS_OK) {
            *err = p->err;
            return p->err.code;
        }
        st->chunks += p->st.chunks, st->oom_retries += p->st.oom_retries;
        st->pose_ms += p->st.pose_ms, st->deform_ms += p->st.deform_ms;
        st->vertex_instances += p->st.vertex_instances, st->buffers_made += p->st.buffers_made;
        st->readback_ms += p->st.readback_ms, st->readback_bytes += p->st.readback_bytes;
        if (p->st.chunk_output_bytes > st->chunk_output_bytes)
            st->chunk_output_bytes = p->st.chunk_output_bytes;
    }
    return VKS_OK;
}

vks_result vks__validate_split_batch(vrun *r, vks_gpu *gpu, vks_error *err)
{
    int n = (int)r->opt->more_context_count + 1;
    uint32_t nf = r->count;
    vpart *parts = calloc((size_t)n, sizeof *parts);
    vturns t = {.turn = calloc(nf, sizeof(int))};
    vks_gpu *gpus[VKS_VALIDATE_MAX_CONTEXTS] = {0};
    vks_gpu_models *ms[VKS_VALIDATE_MAX_CONTEXTS] = {0};
    if (!parts || !t.turn) {
        free(parts), free(t.turn);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "validate", "out of memory for the contexts");
    }
    pthread_mutex_init(&t.lock, NULL);
    pthread_cond_init(&t.moved, NULL);
    vks__validate_next_chunk(&r->c);
    vks_gpu_figures_reset(&r->counts.gpu_figures);
    vks_result rc = open_contexts(r, gpu, gpus, ms, err);
    for (int k = 0; k < n && rc == VKS_OK; k++) {
        if (!make_part(r, parts, k, n, &t, gpus[k], ms[k]))
            rc = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "validate", "out of memory for the contexts");
        r->o->device.reduced |= parts[k].c.reduce;
    }
    for (uint32_t f = 0; rc == VKS_OK && f < nf; f++)
        t.turn[f] = parts[0].count[f] ? 0 : next_owner(parts, 0, (int)f);
    if (rc == VKS_OK) {
        run_parts(parts, n);
        rc = sum_parts(parts, n, &r->o->device.stats, err);
    }
    if (rc == VKS_OK)
        say_shares(r, parts, n);
    close_contexts(r, ms);
    for (int k = 0; k < n; k++) {
        vpart *p = &parts[k];
        vks__work_pool_finish(p->c.pool);
        vks__validate_ctx_free(&p->c);
        free(p->first), free(p->count), free(p->done), free(p->entry_file), free(p->entries);
    }
    pthread_mutex_destroy(&t.lock);
    pthread_cond_destroy(&t.moved);
    free(parts), free(t.turn);
    return rc;
}
