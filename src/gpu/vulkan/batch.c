/* The batch scheduler, a client of the pass core (passes.c): cuts a heterogeneous batch into
 * chunks of whole instances, records one command buffer per chunk (the core's pose pass and
 * deform pass per influence variant, then readback copies),
 * and keeps a ring of buffer sets in flight so the GPU deforms chunk k+1 while the host
 * consumes chunk k. The ring (buffers, descriptor sets, command buffers, fences, query pool)
 * stays in the context between runs and is reused whenever it is big enough, replaced by a
 * bigger one otherwise (grow-only), its host-visible pages written once when made: a steady
 * stream of runs allocates nothing and faults no page in. Chunk size: one output stream under maxStorageBufferRange, all slots
 * under a share of device memory and a host-memory budget, and under the caller's cap;
 * VK_ERROR_OUT_OF_DEVICE_MEMORY (or _HOST_MEMORY) while allocating halves the bytes the
 * capacities actually use and tries again, down to one instance of the largest model, then with
 * one buffer set; past that the run fails with VKS_ERR_NOMEM. The testing hooks of
 * gpu_testing.h (fail_allocations_over, fail_allocation_nth) are armed around these
 * allocations only. */
#include "gpu_internal.h"

#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <time.h>

enum {
    MAX_RING = 4,
    QUERIES_PER_SLOT = 5 /* before the pose pass, after it, after the deform pass, after the readback copy;
                            on a readback queue apart, the copy's start and end there (3 and 4) */
};

typedef struct segment {
    uint32_t entry, first, count; /* instances [first, first+count) of entry */
    uint32_t out_off;             /* first output vertex in the chunk */
} segment;

typedef struct slot {
    vks__passes p;               /* the pass core's buffers and sets, refilled per chunk */
    vks__buf stage_pos, stage_nrm;
    vks__oneshot run;            /* its command buffer and fence */
    /* readback apart (gpu->readback_apart, with staging): the copies are a submission of their
     * own on the readback queue, waiting on `computed`, which the passes' submission signals */
    vks__oneshot copy;
    VkSemaphore computed;
    int copy_busy;               /* copy submitted, not yet waited for */
    segment *segs;
    uint32_t nseg, busy;
    uint64_t out_vertices;
    uint64_t copied;             /* bytes the chunk's readback copies moved (0: read in place) */
    vks__reduce red;             /* the verdict's reduction of the chunk (vks_gpu_batch.reduce) */
} slot;

typedef vks__caps caps;

/* What a buffer set can serve: chunk capacities, ring length, and the optional parts. */
typedef struct cache_need {
    caps cap;
    uint32_t ring;
    int readback; /* outputs the host can read (in place on unified memory) */
    int staging;  /* staging copies for readback */
    int normals;  /* a full-size normal stream */
    int reduce;   /* the reduction pass's result words and set per slot */
} cache_need;

/* The buffer sets of the ring, their descriptor sets, command buffers, fences and query pool,
 * kept by the context between runs (gpu->batch_cache; include/vkskin/gpu.h, BUFFER LIFETIME). */
struct vks__batch_cache {
    cache_need has;
    slot slots[MAX_RING];
    VkDescriptorPool dpool;
    VkQueryPool qpool;
    vks__gpu_work *wl[VKS__DEFORM_VARIANTS]; /* per-variant work lists while filling a chunk */
};
typedef struct vks__batch_cache cache;

typedef struct sched {
    vks_gpu *gpu;
    const vks_gpu_models *ms;
    const vks_gpu_batch *b;
    caps cap;      /* this run's chunk capacities (the kept set holds at least these) */
    uint32_t ring; /* slots this run uses (the kept set has at least these) */
    int reduce;    /* the batch asks for the reduction and the device can run it */
    int fused;     /* ... folded into the deform pass (compute/reduce_fold.glsl), not a pass of its own */
    cache *c;
    const vks__shape_set *set;      /* the small-model class's shape where it runs the batch */
    const vks__launch_shape *shape; /* set's, else the context's: the work items' wg and run */
    /* cursor */
    uint32_t entry, next;
    uint32_t wn[VKS__DEFORM_VARIANTS];
} sched;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void cache_free(vks_gpu *gpu, cache *c)
{
    if (!c)
        return;
    for (uint32_t i = 0; i < MAX_RING; i++) {
        slot *sl = &c->slots[i];
        vks__passes_destroy(gpu, &sl->p);
        vks__buf_destroy(gpu, &sl->stage_pos);
        vks__buf_destroy(gpu, &sl->stage_nrm);
        vks__oneshot_destroy(gpu, &sl->run);
        vks__oneshot_destroy(gpu, &sl->copy);
        vks__reduce_destroy(gpu, &sl->red);
        if (sl->computed)
            gpu->vk.vkDestroySemaphore(gpu->device, sl->computed, VKS_VK_ALLOC(gpu));
        free(sl->segs);
    }
    if (c->dpool)
        gpu->vk.vkDestroyDescriptorPool(gpu->device, c->dpool, VKS_VK_ALLOC(gpu));
    if (c->qpool)
        gpu->vk.vkDestroyQueryPool(gpu->device, c->qpool, VKS_VK_ALLOC(gpu));
    for (int k = 0; k < VKS__DEFORM_VARIANTS; k++)
        free(c->wl[k]);
    free(c);
}

void vks__batch_cache_free(vks_gpu *gpu)
{
    cache_free(gpu, gpu->batch_cache);
    gpu->batch_cache = NULL;
}

void vks_gpu_trim(vks_gpu *gpu)
{
    if (gpu)
        vks__batch_cache_free(gpu);
}

static int cache_fits(const cache *c, const cache_need *n)
{
    return c && c->has.ring >= n->ring && c->has.cap.vertices >= n->cap.vertices &&
           c->has.cap.matrices >= n->cap.matrices && c->has.cap.instances >= n->cap.instances &&
           c->has.cap.works >= n->cap.works && (c->has.readback || !n->readback) &&
           (c->has.staging || !n->staging) && (c->has.normals || !n->normals) && (c->has.reduce || !n->reduce);
}

/* A set that serves both a and b (grow-only: what the kept set did, it still does). */
static cache_need need_union(const cache_need *a, const cache_need *b)
{
    cache_need u = *a;
#define VKS_MAX_INTO(f) u.f = b->f > u.f ? b->f : u.f
    VKS_MAX_INTO(cap.vertices);
    VKS_MAX_INTO(cap.matrices);
    VKS_MAX_INTO(cap.instances);
    VKS_MAX_INTO(cap.works);
    VKS_MAX_INTO(ring);
    VKS_MAX_INTO(readback);
    VKS_MAX_INTO(staging);
    VKS_MAX_INTO(normals);
    VKS_MAX_INTO(reduce);
#undef VKS_MAX_INTO
    return u;
}

/* Makes a buffer set for n; its host-visible memory is written once here, so no chunk ever
 * writes to a fresh page. On failure nothing is left. */
static vks_result cache_create(vks_gpu *gpu, const vks_gpu_models *ms, const cache_need *n, cache **out,
                               vks_error *err)
{
    cache *c = calloc(1, sizeof *c);
    if (!c)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/batch", "out of memory");
    c->has = *n;
    vks_result res = vks__passes_pool(gpu, n->ring, &c->dpool, err);
    if (res == VKS_OK && gpu->timestamps) {
        VkQueryPoolCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
        qi.queryCount = QUERIES_PER_SLOT * n->ring;
        VkResult r = gpu->vk.vkCreateQueryPool(gpu->device, &qi, VKS_VK_ALLOC(gpu), &c->qpool);
        if (r != VK_SUCCESS)
            res = vks__vk_fail(err, r, "vkCreateQueryPool");
    }
    for (int k = 0; k < VKS__DEFORM_VARIANTS && res == VKS_OK; k++)
        if (!(c->wl[k] = malloc(n->cap.works * sizeof *c->wl[k])))
            res = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/batch", "out of memory for work lists");
    vks__passes_desc pd = {0};
    pd.cap = n->cap;
    pd.out_kind = gpu->unified && n->readback ? VKS__MEM_READBACK : VKS__MEM_DEVICE;
    pd.normals = n->normals;
    int apart = gpu->readback_apart && n->staging;
    pd.shared_outputs = apart; /* the readback queue copies them */
    uint64_t out_bytes = n->cap.vertices * 12;
    for (uint32_t i = 0; i < n->ring && res == VKS_OK; i++) {
        slot *sl = &c->slots[i];
        if (!(sl->segs = malloc(n->cap.instances * sizeof *sl->segs)))
            res = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/batch", "out of memory");
        if (res == VKS_OK)
            res = vks__passes_create(gpu, ms, &pd, c->dpool, &sl->p, err);
        if (res == VKS_OK && n->staging)
            res = vks__buf_create(gpu, out_bytes, VKS__MEM_READBACK, &sl->stage_pos, err);
        if (res == VKS_OK && n->staging && n->normals)
            res = vks__buf_create(gpu, out_bytes, VKS__MEM_READBACK, &sl->stage_nrm, err);
        if (res == VKS_OK)
            res = vks__oneshot_create(gpu, &sl->run, err);
        if (res == VKS_OK && apart)
            res = vks__oneshot_create_readback(gpu, &sl->copy, err);
        if (res == VKS_OK && n->reduce)
            res = vks__reduce_create(gpu, &sl->p.out_pos, &sl->p.out_nrm, &sl->red, err);
        if (res == VKS_OK && apart) {
            VkSemaphoreCreateInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
            VkResult r = gpu->vk.vkCreateSemaphore(gpu->device, &si, VKS_VK_ALLOC(gpu), &sl->computed);
            if (r != VK_SUCCESS)
                res = vks__vk_fail(err, r, "vkCreateSemaphore");
        }
        if (res == VKS_OK) {
            vks__buf *touch[] = {&sl->p.insts, &sl->p.locals, &sl->p.world,   &sl->p.skin,    &sl->p.works,
                                 &sl->p.out_pos, &sl->p.out_nrm, &sl->stage_pos, &sl->stage_nrm};
            for (size_t k = 0; k < sizeof touch / sizeof *touch; k++)
                vks__buf_touch(gpu, touch[k]);
        }
    }
    if (res != VKS_OK) {
        cache_free(gpu, c);
        return res;
    }
    *out = c;
    return VKS_OK;
}

/* Testing (gpu_testing.h, fault_instance): the instance's first node, a root, scaled or NaN. */
static void fault_instance(const vks_gpu_testing *t, vks_affine *locals)
{
    for (int k = 0; k < 12; k++)
        locals->m[k] = t->fault_instance_scale != 0 ? locals->m[k] * t->fault_instance_scale : NAN;
}

uint32_t vks__batch_class_vertices(const vks_gpu *gpu, const vks_gpu_models *ms, const vks_gpu_batch *b)
{
    /* the plain kernel has no shape to tune; the reduction is folded into the context's
       pipelines (a pass of its own only when testing): both keep the context's shape */
    if (b->kernel == VKS_GPU_KERNEL_PLAIN || vks_gpu_batch_reduces(gpu, b))
        return 0;
    uint64_t largest = 0;
    uint32_t vertices = 0;
    for (uint32_t i = 0; i < b->entry_count; i++) {
        uint32_t v = ms->models[b->entries[i].model].vertex_count;
        uint64_t vi = (uint64_t)b->entries[i].instance_count * v;
        if (vi > largest)
            largest = vi, vertices = v;
    }
    return vertices;
}

/* Fills the next chunk into sl from the cursor: whole instances while every capacity holds. */
static int fill_chunk(sched *s, slot *sl)
{
    const vks_gpu_batch *b = s->b;
    const vks_gpu_models *ms = s->ms;
    vks__gpu_inst *insts = sl->p.insts.mapped;
    float *locals = sl->p.locals.mapped;
    uint64_t nv = 0, nm = 0, ni = 0, nw = 0;
    uint32_t wg = s->shape->deform_wg, tile = s->shape->instance_run;
    memset(s->wn, 0, sizeof s->wn);
    sl->nseg = 0;
    sl->p.morph = b->get_weights && ms->morph_any;
    while (s->entry < b->entry_count) {
        const vks_gpu_batch_entry *e = &b->entries[s->entry];
        const vks__gpu_model *m = &ms->models[e->model];
        if (s->next >= e->instance_count) {
            s->entry++, s->next = 0;
            continue;
        }
        uint64_t mats = vks__mats_of(m); /* morph weight slots, then the nodes' or bones' */
        uint32_t blocks = vks__blocks_of(vks__plan_of(ms), e->model, wg);
        uint32_t count = 0;
        /* Grow the segment one instance at a time while everything fits (work items are
         * counted per started run of gpu->instance_tile instances). */
        while (s->next + count < e->instance_count) {
            uint64_t tiles = (uint64_t)(count + 1 + tile - 1) / tile;
            if (nv + (uint64_t)(count + 1) * m->vertex_count > s->cap.vertices ||
                nm + (uint64_t)(count + 1) * (mats ? mats : 1) > s->cap.matrices || ni + count + 1 > s->cap.instances ||
                nw + tiles * blocks > s->cap.works)
                break;
            count++;
        }
        if (count == 0)
            break; /* the chunk is full */
        segment *sg = &sl->segs[sl->nseg++];
        *sg = (segment){s->entry, s->next, count, (uint32_t)nv};
        for (uint32_t i = 0; i < count; i++) {
            uint32_t inst = s->next + i, at = (uint32_t)(nm + (uint64_t)i * mats + m->morph_slots);
            vks_affine *dst = (vks_affine *)(locals + (uint64_t)at * 12);
            if (e->locals)
                memcpy(dst, e->locals + (size_t)inst * m->node_count, (size_t)m->node_count * sizeof *dst);
            else if (m->node_count)
                b->get_locals(b->user, s->entry, inst, dst);
            if (s->gpu->test.fault_instance == inst + 1) /* testing: one instance posed wrong */
                fault_instance(&s->gpu->test, dst);
            if (sl->p.morph) /* the weights in the slots before the locals (compute/morph.glsl) */
                vks__morph_weights_put(ms, b, s->entry, e->model, inst, locals + (uint64_t)(at - m->morph_slots) * 12);
            insts[ni + i] = (vks__gpu_inst){e->model, at, at, (uint32_t)(nv + (uint64_t)i * m->vertex_count)};
        }
        nw += vks__works_append(vks__plan_of(ms), wg, tile, e->model, (uint32_t)ni, count, s->c->wl, s->wn);
        nv += (uint64_t)count * m->vertex_count;
        nm += (uint64_t)count * (mats ? mats : 1);
        ni += count;
        s->next += count;
    }
    sl->out_vertices = nv;
    return sl->nseg > 0;
}

/* The end of submit_chunk on a readback queue apart: the passes' submission signals the slot's
 * semaphore (its signal makes the shader writes available to the other queue: no barrier), the
 * copies wait on it there and signal the slot's copy fence; the copy is timed on its own queue
 * when that family has timestamps (it is not comparable with the compute queue's). */
static vks_result submit_apart(sched *s, slot *sl, uint32_t q0, vks_error *err)
{
    vks_gpu *gpu = s->gpu;
    const vks_gpu_batch *b = s->b;
    int timed = s->c->qpool && gpu->readback_timestamp_bits;
    if (timed) /* reset here: the copy queue's family may not reset queries (transfer-only) */
        gpu->vk.vkCmdResetQueryPool(sl->run.cmd, s->c->qpool, q0 + 3, 2);
    vks_result res = vks__oneshot_send_linked(gpu, &sl->run, VK_NULL_HANDLE, 0, sl->computed, err);
    sl->busy = res == VKS_OK;
    if (res != VKS_OK)
        return res;
    VkCommandBuffer cmd = sl->copy.cmd;
    vks__oneshot_begin(gpu, &sl->copy);
    if (timed)
        gpu->vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, s->c->qpool, q0 + 3);
    VkBufferCopy c = {0, 0, sl->out_vertices > 0 ? sl->out_vertices * 12 : 16};
    gpu->vk.vkCmdCopyBuffer(cmd, sl->p.out_pos.buffer, sl->stage_pos.buffer, 1, &c);
    if (b->want_normals)
        gpu->vk.vkCmdCopyBuffer(cmd, sl->p.out_nrm.buffer, sl->stage_nrm.buffer, 1, &c);
    sl->copied = c.size * (b->want_normals ? 2 : 1);
    vks__barrier(gpu, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                 VK_ACCESS_HOST_READ_BIT);
    if (timed)
        gpu->vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, s->c->qpool, q0 + 4);
    /* every command waits (ALL_COMMANDS), so the start timestamp is the copy's, not the wait's */
    res = vks__oneshot_send_linked(gpu, &sl->copy, sl->computed, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_NULL_HANDLE,
                                   err);
    sl->copy_busy = res == VKS_OK;
    return res;
}

static vks_result submit_chunk(sched *s, uint32_t slot_index, vks_error *err)
{
    vks_gpu *gpu = s->gpu;
    slot *sl = &s->c->slots[slot_index];
    const vks_gpu_batch *b = s->b;
    uint32_t ninst = 0;
    for (uint32_t i = 0; i < sl->nseg; i++)
        ninst += sl->segs[i].count;
    sl->p.instance_count = ninst;
    vks__works_commit(gpu, &sl->p, s->c->wl, s->wn);
    vks__buf_flush(gpu, &sl->p.insts), vks__buf_flush(gpu, &sl->p.locals);

    VkCommandBuffer cmd = sl->run.cmd;
    vks__oneshot_begin(gpu, &sl->run);
    /* host writes of the tables are visible to the shaders through the submission itself */
    uint32_t q0 = slot_index * QUERIES_PER_SLOT;
    if (s->c->qpool)
        gpu->vk.vkCmdResetQueryPool(cmd, s->c->qpool, q0 + 3, 1);
    /* the fused reduction folds the normals the pass writes: those the batch wants */
    int fused = s->fused && sl->p.normals == (b->want_normals != 0);
    sl->p.reduce_set = fused ? sl->red.set : VK_NULL_HANDLE;
    if (fused)
        vks__reduce_reset(gpu, cmd, &sl->red);
    vks__passes_record(gpu, cmd, &sl->p, 0.0f, s->c->qpool, q0);
    if (fused)
        vks__reduce_to_host(gpu, cmd);
    else if (s->reduce) /* on the compute queue before the copies (in the readback_ms of a one-queue run) */
        vks__reduce_record(gpu, cmd, &sl->red, sl->out_vertices, b->want_normals);
    sl->copied = 0;
    if (!b->kernel_only && sl->copy.cmd)
        return submit_apart(s, sl, q0, err);
    if (!b->kernel_only) {
        if (sl->stage_pos.buffer) {
            vks__barrier(gpu, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
            VkBufferCopy c = {0, 0, sl->out_vertices > 0 ? sl->out_vertices * 12 : 16};
            gpu->vk.vkCmdCopyBuffer(cmd, sl->p.out_pos.buffer, sl->stage_pos.buffer, 1, &c);
            if (b->want_normals)
                gpu->vk.vkCmdCopyBuffer(cmd, sl->p.out_nrm.buffer, sl->stage_nrm.buffer, 1, &c);
            sl->copied = c.size * (b->want_normals ? 2 : 1);
            vks__barrier(gpu, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                         VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
        } else {
            vks__barrier(gpu, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                         VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
        }
    }
    /* the readback copy's end, timed on the queue that did it (stats.readback_ms) */
    if (s->c->qpool)
        gpu->vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, s->c->qpool, q0 + 3);
    vks_result res = vks__oneshot_send(gpu, &sl->run, err);
    sl->busy = res == VKS_OK;
    return res;
}

/* Waits for the slot's chunk, adds its pass times, hands its outputs to the caller. */
static vks_result finish_chunk(sched *s, uint32_t slot_index, vks_gpu_stats *st, vks_error *err)
{
    vks_gpu *gpu = s->gpu;
    slot *sl = &s->c->slots[slot_index];
    const vks_gpu_batch *b = s->b;
    vks_result res = vks__oneshot_wait(gpu, &sl->run, err);
    sl->busy = 0;
    int apart = sl->copy_busy;
    if (res == VKS_OK && apart)
        res = vks__oneshot_wait(gpu, &sl->copy, err);
    sl->copy_busy = 0;
    if (res != VKS_OK)
        return res;
    if (s->c->qpool) {
        /* apart: queries 3 and 4 are the copy's on its own queue, written only where that
         * family has timestamps; else 3 follows the copy on the compute queue */
        uint32_t nq = !apart ? 4 : gpu->readback_timestamp_bits ? 5 : 3;
        uint64_t t[QUERIES_PER_SLOT];
        VkResult r = gpu->vk.vkGetQueryPoolResults(gpu->device, s->c->qpool, slot_index * QUERIES_PER_SLOT, nq,
                                          sizeof t, t, sizeof t[0], VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
        if (r == VK_SUCCESS) {
            uint64_t mask = gpu->timestamp_valid_bits >= 64 ? ~0ull : ((1ull << gpu->timestamp_valid_bits) - 1);
            uint64_t copy_mask = gpu->readback_timestamp_bits >= 64 ? ~0ull
                                                                    : ((1ull << gpu->readback_timestamp_bits) - 1);
            double period = gpu->props.limits.timestampPeriod;
            st->pose_ms += (double)((t[1] - t[0]) & mask) * period / 1e6;
            st->deform_ms += (double)((t[2] - t[1]) & mask) * period / 1e6;
            if (sl->copied && nq == 4)
                st->readback_ms += (double)((t[3] - t[2]) & mask) * period / 1e6;
            else if (sl->copied && nq == 5)
                st->readback_ms += (double)((t[4] - t[3]) & copy_mask) * period / 1e6;
        }
    }
    st->chunks++;
    st->vertex_instances += sl->out_vertices;
    st->readback_bytes += sl->copied;
    if (b->kernel_only || !b->deliver)
        return VKS_OK;
    vks__buf *pb = sl->stage_pos.buffer ? &sl->stage_pos : &sl->p.out_pos;
    vks__buf *nb = sl->stage_nrm.buffer ? &sl->stage_nrm : &sl->p.out_nrm;
    vks__buf_invalidate(gpu, pb);
    if (b->want_normals)
        vks__buf_invalidate(gpu, nb);
    if (gpu->test.flip_readback_chunk == st->chunks && sl->out_vertices) {
        /* testing: a word of the chunk changed between the GPU and the host (its lowest bit:
         * far inside every tolerance, so only the reduction's check can see it) */
        uint32_t *w = (uint32_t *)pb->mapped + sl->out_vertices * 3 / 2;
        *w ^= 1u;
    }
    for (uint32_t i = 0; i < sl->nseg; i++) {
        const segment *sg = &sl->segs[i];
        const float *p = (const float *)pb->mapped + (size_t)sg->out_off * 3;
        const float *n = b->want_normals ? (const float *)nb->mapped + (size_t)sg->out_off * 3 : NULL;
        if (b->deliver(b->user, sg->entry, sg->first, sg->count, p, n))
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/batch", "stopped by the caller");
    }
    if (s->reduce && b->chunk_done) {
        vks_gpu_figures f;
        vks__reduce_read(gpu, &sl->red, &f);
        if (b->chunk_done(b->user, st->chunks - 1, &f))
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/batch", "stopped by the caller");
    }
    return VKS_OK;
}

/* Points s->c at a buffer set for this run's capacities (s->cap from the budget): the kept
 * one when it is big enough, else a new one big enough for it and the kept one's shapes.
 * VK_ERROR_OUT_OF_*_MEMORY while making it: the kept shapes are dropped first, then the
 * capacities halve down to one instance of the largest model, then the ring drops to one set;
 * past that VKS_ERR_NOMEM. The testing hooks are armed around these allocations only. */
static vks_result keep_buffers(sched *s, uint64_t budget, vks_gpu_stats *st, vks_error *err)
{
    vks_gpu *gpu = s->gpu;
    const vks_gpu_batch *b = s->b;
    uint32_t wg = s->shape->deform_wg, tile = s->shape->instance_run;
    const vks__plan_models pm = vks__plan_of(s->ms);
    const caps least = vks__batch_caps(pm, b->entries, b->entry_count, 0, wg, tile); /* one instance of the largest model */
    const caps whole = vks__batch_caps(pm, b->entries, b->entry_count, UINT64_MAX / 2, wg, tile); /* the batch in one chunk */
    s->cap = vks__batch_caps(pm, b->entries, b->entry_count, budget, wg, tile);
    if (vks__caps_equal(&s->cap, &whole))
        s->ring = 1; /* one chunk: a second buffer set would only cost memory and page faults */
    /* Outputs the host can read in place (unified memory) serve kernel-only runs as well, so
     * the two kinds of run share one set instead of each replacing the other's. */
    cache_need need = {s->cap, s->ring, !b->kernel_only || gpu->unified, !b->kernel_only && !gpu->unified,
                       b->want_normals != 0, s->reduce};
    gpu->run_allocations = 0;
    if (cache_fits(gpu->batch_cache, &need)) {
        s->c = gpu->batch_cache;
        return VKS_OK;
    }
    cache_need want = gpu->batch_cache ? need_union(&gpu->batch_cache->has, &need) : need;
    vks__batch_cache_free(gpu);
    for (;;) {
        gpu->hooks_armed = 1;
        vks_result res = cache_create(gpu, s->ms, &want, &gpu->batch_cache, err);
        gpu->hooks_armed = 0;
        if (res == VKS_OK)
            break;
        if (res != VKS_ERR_NOMEM)
            return res;
        if (memcmp(&want, &need, sizeof want) != 0) {
            /* the union with the kept shapes did not fit: this run's own */
        } else if (vks__caps_equal(&s->cap, &least)) {
            if (s->ring > 1) {
                s->ring = 1; /* the smallest chunks: one buffer set instead of a ring */
            } else {
                vks_error cause = err ? *err : (vks_error){0};
                if (err)
                    memset(err, 0, sizeof *err);
                return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/batch",
                                     "smallest chunk (%llu output bytes) still out of memory after %u retries: %s",
                                     (unsigned long long)(s->cap.vertices * 12), st->oom_retries, cause.msg);
            }
        } else {
            /* Out of memory: half the bytes the capacities actually use (the budget may be far
             * above a small batch), skipping budgets that would give the same capacities. */
            uint64_t used = vks__caps_bytes(&s->cap);
            caps prev = s->cap;
            if (used < budget)
                budget = used;
            do { /* at budget 0 the capacities are `least`, which prev is not */
                budget /= 2;
                s->cap = vks__batch_caps(pm, b->entries, b->entry_count, budget, wg, tile);
            } while (budget && vks__caps_equal(&s->cap, &prev));
            if (s->ring == 1 && b->ring != 1) /* several chunks now: the ring again */
                s->ring = b->ring ? (b->ring > MAX_RING ? MAX_RING : b->ring) : 2;
        }
        need.cap = s->cap, need.ring = s->ring;
        want = need;
        st->oom_retries++;
        if (err)
            memset(err, 0, sizeof *err);
    }
    s->c = gpu->batch_cache;
    return VKS_OK;
}

int vks_gpu_batch_reduces(const vks_gpu *gpu, const vks_gpu_batch *b)
{
    /* VKS_GPU_REDUCE_COPIED: no pass where the host reads the outputs in place (nothing copied
       to check); a device without subgroup arithmetic runs the batch unreduced */
    return gpu && b && b->reduce && (b->reduce != VKS_GPU_REDUCE_COPIED || !gpu->unified) && !b->kernel_only &&
           vks__reduce_pipeline((vks_gpu *)gpu, NULL) == VKS_OK;
}

vks_result vks_gpu_run(vks_gpu *gpu, const vks_gpu_models *ms, const vks_gpu_batch *b, vks_gpu_stats *stats,
                       vks_error *err)
{
    vks_gpu_stats st_local, *st = stats ? stats : &st_local;
    memset(st, 0, sizeof *st);
    double t0 = now_ms();
    if (!gpu || !ms || !b || (b->entry_count && !b->entries))
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/batch", "NULL context, models or batch");
    for (uint32_t i = 0; i < b->entry_count; i++) {
        const vks_gpu_batch_entry *e = &b->entries[i];
        if (e->model >= ms->count)
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/batch", "entry %u: model %u of %u", i,
                                 e->model, ms->count);
        if (!e->locals && !b->get_locals && e->instance_count)
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/batch",
                                 "entry %u: no locals and no get_locals", i);
        /* One instance must fit every per-chunk table, each bound whole as one storage buffer. */
        const vks__gpu_model *m = &ms->models[e->model];
        uint64_t mats = vks__mats_of(m);
        uint64_t need[3] = {(uint64_t)m->vertex_count * 12, mats * 48,
                            (uint64_t)vks__blocks_of(vks__plan_of(ms), e->model, gpu->deform_wg) * sizeof(vks__gpu_work)};
        const char *what[3] = {"output vertices", "node/bone matrices", "work items"};
        for (int k = 0; k < 3; k++)
            if (need[k] > gpu->props.limits.maxStorageBufferRange)
                return vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "gpu/batch",
                                     "entry %u: one instance of model %u needs %llu bytes of %s, over "
                                     "maxStorageBufferRange %u",
                                     i, e->model, (unsigned long long)need[k], what[k],
                                     gpu->props.limits.maxStorageBufferRange);
    }
    sched s;
    memset(&s, 0, sizeof s);
    s.gpu = gpu, s.ms = ms, s.b = b;
    s.ring = b->ring ? (b->ring > MAX_RING ? MAX_RING : b->ring) : 2;
    uint64_t heap = 0;
    for (uint32_t h = 0; h < gpu->mem.memoryHeapCount; h++)
        if ((gpu->mem.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) && gpu->mem.memoryHeaps[h].size > heap)
            heap = gpu->mem.memoryHeaps[h].size;
    uint64_t budget = vks__chunk_budget(gpu->props.limits.maxStorageBufferRange, heap, s.ring, b->max_chunk_bytes);
    uint64_t buffers0 = gpu->counters.buffers;
    vks_result res = b->kernel == VKS_GPU_KERNEL_PLAIN ? vks__plain_pipelines(gpu, err) : VKS_OK;
    /* a device without subgroup arithmetic runs the batch unreduced: chunk_done never comes */
    s.reduce = vks_gpu_batch_reduces(gpu, b);
    /* in the deform pass where its variant can be made: the outputs are then read once, by the
       host (the plain kernel, and a testing run, keep the pass of its own) */
    s.fused = s.reduce && b->kernel != VKS_GPU_KERNEL_PLAIN && !gpu->reduce_apart &&
              vks__deform_reduce_pipelines(gpu, NULL) == VKS_OK;
    s.shape = &gpu->shape;
    uint32_t vertices = vks__batch_class_vertices(gpu, ms, b);
    if (res == VKS_OK && vertices) /* the small-model class's shape, where it is one apart */
        res = vks__shape_set_for(gpu, vertices, &s.set, err);
    s.shape = vks__shape_of_set(gpu, s.set);
    if (res == VKS_OK)
        res = keep_buffers(&s, budget, st, err);
    st->buffers_made = (uint32_t)(gpu->counters.buffers - buffers0);
    if (res != VKS_OK)
        return res;
    st->chunk_output_bytes = s.cap.vertices * 12;
    /* the kept sets may have served other models: point them at this run's */
    for (uint32_t j = 0; j < s.ring; j++) {
        vks__passes_bind(gpu, ms, &s.c->slots[j].p);
        s.c->slots[j].p.plain = b->kernel == VKS_GPU_KERNEL_PLAIN;
        s.c->slots[j].p.set = s.set;
    }
    for (uint32_t k = 0; res == VKS_OK; k++) {
        uint32_t i = k % s.ring;
        if (s.c->slots[i].busy)
            res = finish_chunk(&s, i, st, err);
        if (res != VKS_OK)
            break;
        if (fill_chunk(&s, &s.c->slots[i])) {
            res = submit_chunk(&s, i, err);
            continue;
        }
        int busy = 0;
        for (uint32_t j = 0; j < s.ring; j++)
            busy |= s.c->slots[j].busy;
        if (!busy)
            break;
    }
    if (res == VKS_OK && s.entry < b->entry_count) /* an instance that fits no chunk: never silently short */
        res = vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "gpu/batch",
                            "entry %u: instance %u does not fit an empty chunk", s.entry, s.next);
    /* a failed run may leave chunks in flight: wait for them by their own fences (the device
     * and queue may be the host's, busy with its own work); the set stays for the next run */
    for (uint32_t j = 0; j < s.ring; j++)
        if (s.c->slots[j].busy) {
            vks__oneshot_wait(gpu, &s.c->slots[j].run, NULL);
            if (s.c->slots[j].copy_busy)
                vks__oneshot_wait(gpu, &s.c->slots[j].copy, NULL);
            s.c->slots[j].busy = s.c->slots[j].copy_busy = 0;
        }
    st->total_ms = now_ms() - t0;
    return res;
}
