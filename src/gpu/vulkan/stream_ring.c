/* See stream_ring.h. */
#include "stream_ring.h"

#include <stdlib.h>
#include <string.h>

vks_result vks__ring_create(vks_gpu *gpu, uint32_t count, uint64_t slot_bytes, int reduce, vks__ring **out,
                            vks_error *err)
{
    vks__ring *ring = calloc(1, sizeof *ring);
    *out = ring;
    if (!ring)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/stream", "out of memory for the readback ring");
    ring->gpu = gpu;
    /* a device without subgroup arithmetic streams unreduced: deliveries carry no figures */
    ring->reduce = reduce && vks__reduce_pipeline(gpu, NULL) == VKS_OK;
    ring->count = count < 2 ? 2 : count > VKS__RING_MAX ? VKS__RING_MAX : count;
    ring->slot_bytes = slot_bytes;
    vks_result r = VKS_OK;
    for (uint32_t s = 0; r == VKS_OK && s < ring->count; s++) {
        vks__ring_slot *sl = &ring->slot[s];
        r = vks__oneshot_create(gpu, &sl->os, err);
        if (r == VKS_OK)
            r = vks__buf_create(gpu, slot_bytes, VKS__MEM_READBACK, &sl->stage, err);
        if (r == VKS_OK && gpu->timestamps) {
            VkQueryPoolCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
            qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
            qi.queryCount = 2;
            VkResult vr = gpu->vk.vkCreateQueryPool(gpu->device, &qi, VKS_VK_ALLOC(gpu), &sl->qpool);
            if (vr != VK_SUCCESS)
                r = vks__vk_fail(err, vr, "vkCreateQueryPool");
        }
        if (r == VKS_OK && gpu->readback_apart) {
            r = vks__oneshot_create_readback(gpu, &sl->copy, err);
            if (r == VKS_OK)
                r = vks__buf_create_shared(gpu, slot_bytes, VKS__MEM_DEVICE, 0, 1, &sl->snapshot, err);
            VkSemaphoreCreateInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
            VkResult vr = r == VKS_OK ? gpu->vk.vkCreateSemaphore(gpu->device, &si, VKS_VK_ALLOC(gpu), &sl->computed)
                                      : VK_SUCCESS;
            if (vr != VK_SUCCESS)
                r = vks__vk_fail(err, vr, "vkCreateSemaphore");
        }
    }
    if (r != VKS_OK)
        vks__ring_destroy(ring), *out = NULL;
    return r;
}

uint32_t vks__ring_depth(const vks__ring *ring)
{
    return ring->count;
}

uint64_t vks__ring_slot_bytes(const vks__ring *ring)
{
    return ring->slot_bytes;
}

int vks__ring_reduces(const vks__ring *ring)
{
    return ring->reduce;
}

int vks__ring_flip_wanted(const vks__ring *ring, uint64_t delivery)
{
    return ring->gpu->test.flip_readback_chunk == delivery;
}

/* Copies [src_at, +size) of src to [dst_at, +size) of dst, merged with the pending copy *run
 * when both ends follow on from it (a crowd part's instances lie one after the other in its
 * outputs, so a chunk's copies collapse into one per part and stream: the bus and the copy
 * engines want few large copies, not one per instance). size 0 flushes *run. */
static void copy_merged(vks_gpu *gpu, VkCommandBuffer cmd, VkBuffer dst, VkBuffer *run_src, VkBufferCopy *run,
                        VkBuffer src, VkDeviceSize src_at, VkDeviceSize dst_at, VkDeviceSize size)
{
    if (size && *run_src == src && run->size && run->srcOffset + run->size == src_at &&
        run->dstOffset + run->size == dst_at) {
        run->size += size;
        return;
    }
    if (run->size)
        gpu->vk.vkCmdCopyBuffer(cmd, *run_src, dst, 1, run);
    *run_src = src;
    *run = (VkBufferCopy){src_at, dst_at, size};
}

/* The copies of instances [0, count) into dst: positions from 0, then normals at positions' end. */
static void record_copies(vks_gpu *gpu, VkCommandBuffer cmd, vks_crowd *crowd, uint32_t count, int normals,
                          VkBuffer dst)
{
    VkDeviceSize pos_bytes = 0;
    for (uint32_t k = 0; k < count; k++) {
        vks_crowd_output o;
        vks_crowd_get_output(crowd, k, &o, NULL);
        pos_bytes += (VkDeviceSize)o.vertex_count * 12;
    }
    for (int stream = 0; stream < (normals ? 2 : 1); stream++) {
        VkBuffer run_src = VK_NULL_HANDLE;
        VkBufferCopy run = {0};
        VkDeviceSize at = stream ? pos_bytes : 0;
        for (uint32_t k = 0; k < count; k++) {
            vks_crowd_output o;
            vks_crowd_get_output(crowd, k, &o, NULL);
            const vks_crowd_stream *from = stream ? &o.normal : &o.position;
            VkDeviceSize size = (VkDeviceSize)o.vertex_count * 12;
            if (size && from->buffer)
                copy_merged(gpu, cmd, dst, &run_src, &run, from->buffer, from->offset, at, size);
            at += size;
        }
        copy_merged(gpu, cmd, dst, &run_src, &run, VK_NULL_HANDLE, 0, 0, 0);
    }
}

/* The bytes record_copies writes. */
static VkDeviceSize copied_bytes(vks_crowd *crowd, uint32_t count, int normals)
{
    VkDeviceSize bytes = 0;
    for (uint32_t k = 0; k < count; k++) {
        vks_crowd_output o;
        vks_crowd_get_output(crowd, k, &o, NULL);
        bytes += (VkDeviceSize)o.vertex_count * 12 * (normals && o.normal.buffer ? 2 : 1);
    }
    return bytes;
}

/* Reduction i of slot sl, bound to the part buffers pos and nrm (nrm VK_NULL_HANDLE without
 * normals). Bound anew at every frame: the slot is idle (waited for), and a chunk's crowd may
 * be another one than the last, whose buffers could even reuse the old handles. */
static vks_result reduction_for(vks_gpu *gpu, vks__ring_slot *sl, uint32_t i, VkBuffer pos, VkBuffer nrm,
                                vks_error *err)
{
    if (i >= sl->red_cap) {
        uint32_t cap = sl->red_cap ? sl->red_cap * 2 : 4;
        vks__reduce *red = realloc(sl->red, sizeof *red * cap);
        if (!red)
            return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/stream", "out of memory");
        sl->red = red;
        memset(sl->red + sl->red_cap, 0, sizeof *red * (cap - sl->red_cap));
        sl->red_cap = cap;
    }
    vks__buf p = {0}, n = {0};
    p.buffer = pos, n.buffer = nrm;
    if (sl->red[i].set) {
        vks__reduce_bind(gpu, &sl->red[i], &p, &n);
        return VKS_OK;
    }
    vks_result r = vks__reduce_create(gpu, &p, &n, &sl->red[i], err);
    if (r != VKS_OK)
        vks__reduce_destroy(gpu, &sl->red[i]);
    return r;
}

/* The reduction of instances [0, count)'s outputs after the frame's deform: one dispatch per run
 * of outputs that follow on in one part's buffers (few: a part holds its instances one after
 * the other), into results of their own that the host merges. */
static vks_result record_reductions(vks_gpu *gpu, VkCommandBuffer cmd, vks__ring_slot *sl, vks_crowd *crowd,
                                    uint32_t count, int normals, vks_error *err)
{
    sl->red_used = 0;
    for (uint32_t k = 0; k < count;) {
        vks_crowd_output o;
        vks_crowd_get_output(crowd, k, &o, NULL);
        VkBuffer pos = o.position.buffer, nrm = normals ? o.normal.buffer : VK_NULL_HANDLE;
        VkDeviceSize first = o.position.offset / 12, vertices = o.vertex_count;
        for (k++; k < count; k++) { /* the run: the next instances right after, in the same part */
            vks_crowd_output q;
            vks_crowd_get_output(crowd, k, &q, NULL);
            if (q.position.buffer != pos || q.position.offset / 12 != first + vertices)
                break;
            vertices += q.vertex_count;
        }
        if (!vertices || !pos)
            continue;
        vks_result r = reduction_for(gpu, sl, sl->red_used, pos, nrm, err);
        if (r != VKS_OK)
            return r;
        vks__reduce_record_range(gpu, cmd, &sl->red[sl->red_used++], first, vertices, nrm != VK_NULL_HANDLE);
    }
    /* the next frame's deform writes what these dispatches read (a write after a read: the
       order of the two suffices) */
    vks__barrier(gpu, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0);
    return VKS_OK;
}

void vks__ring_figures(vks__ring *ring, uint32_t s, vks_gpu_figures *out)
{
    vks__ring_slot *sl = &ring->slot[s];
    vks_gpu_figures_reset(out);
    for (uint32_t i = 0; i < sl->red_used; i++) {
        vks_gpu_figures f;
        vks__reduce_read(ring->gpu, &sl->red[i], &f);
        vks_gpu_figures_merge(out, &f);
    }
}

vks_result vks__ring_submit(vks__ring *ring, uint32_t s, vks_crowd *crowd, float time, uint32_t count,
                            int normals, vks_error *err)
{
    vks_gpu *gpu = ring->gpu;
    vks__ring_slot *sl = &ring->slot[s];
    VkCommandBuffer cmd = sl->os.cmd;
    vks__oneshot_begin(gpu, &sl->os);
    if (sl->qpool) {
        gpu->vk.vkCmdResetQueryPool(cmd, sl->qpool, 0, 2);
        gpu->vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, sl->qpool, 0);
    }
    /* the crowd's acquire barrier waits for the previous frame's copies (TRANSFER is one of
       its consumer stages), so frames in flight share its outputs safely; apart, those copies
       are the gathers into the snapshots, on this same queue */
    vks_crowd_record(crowd, cmd, time);
    if (sl->qpool)
        gpu->vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, sl->qpool, 1);
    if (ring->reduce) { /* the outputs as the deform left them, before any copy of them */
        vks_result r = record_reductions(gpu, cmd, sl, crowd, count, normals, err);
        if (r != VKS_OK) {
            gpu->vk.vkEndCommandBuffer(cmd);
            return r;
        }
    }
    vks__barrier(gpu, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                 VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    if (!gpu->readback_apart) {
        record_copies(gpu, cmd, crowd, count, normals, sl->stage.buffer);
        vks__barrier(gpu, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                     VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
        vks_result r = vks__oneshot_send(gpu, &sl->os, err);
        sl->busy = r == VKS_OK;
        return r;
    }
    /* apart: the gather into the snapshot ends the compute submission, whose semaphore signal
     * makes its writes available to the readback queue's copy (no barrier needed past it) */
    record_copies(gpu, cmd, crowd, count, normals, sl->snapshot.buffer);
    vks_result r = vks__oneshot_send_linked(gpu, &sl->os, VK_NULL_HANDLE, 0, sl->computed, err);
    sl->busy = r == VKS_OK;
    if (r != VKS_OK)
        return r;
    VkCommandBuffer copy = sl->copy.cmd;
    vks__oneshot_begin(gpu, &sl->copy);
    VkBufferCopy all = {0, 0, copied_bytes(crowd, count, normals)};
    if (all.size)
        gpu->vk.vkCmdCopyBuffer(copy, sl->snapshot.buffer, sl->stage.buffer, 1, &all);
    vks__barrier(gpu, copy, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                 VK_ACCESS_HOST_READ_BIT);
    r = vks__oneshot_send_linked(gpu, &sl->copy, sl->computed, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_NULL_HANDLE, err);
    sl->copy_busy = r == VKS_OK;
    return r;
}

vks_result vks__ring_wait(vks__ring *ring, uint32_t s, const void **data, double *gpu_ms, vks_error *err)
{
    vks_gpu *gpu = ring->gpu;
    vks__ring_slot *sl = &ring->slot[s];
    *gpu_ms = 0;
    if (!sl->busy || (gpu->readback_apart && !sl->copy_busy))
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/stream", "slot %u was not submitted", s);
    sl->busy = 0;
    vks_result r = vks__oneshot_wait(gpu, &sl->os, err);
    if (r == VKS_OK && sl->copy_busy) {
        sl->copy_busy = 0;
        r = vks__oneshot_wait(gpu, &sl->copy, err);
    }
    if (r != VKS_OK)
        return r;
    vks__buf_invalidate(gpu, &sl->stage);
    *data = sl->stage.mapped;
    uint64_t t[2];
    if (sl->qpool && gpu->vk.vkGetQueryPoolResults(gpu->device, sl->qpool, 0, 2, sizeof t, t, sizeof t[0],
                                                   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS) {
        uint64_t mask = gpu->timestamp_valid_bits >= 64 ? ~0ull : ((1ull << gpu->timestamp_valid_bits) - 1);
        *gpu_ms = (double)((t[1] - t[0]) & mask) * gpu->props.limits.timestampPeriod / 1e6;
    }
    return VKS_OK;
}

void vks__ring_drain(vks__ring *ring)
{
    for (uint32_t s = 0; s < ring->count; s++) {
        vks__ring_slot *sl = &ring->slot[s];
        vks_error ignored = {0};
        if (sl->busy)
            vks__oneshot_wait(ring->gpu, &sl->os, &ignored);
        if (sl->copy_busy)
            vks__oneshot_wait(ring->gpu, &sl->copy, &ignored);
        sl->busy = sl->copy_busy = 0;
    }
}

void vks__ring_destroy(vks__ring *ring)
{
    if (!ring)
        return;
    vks__ring_drain(ring);
    for (uint32_t s = 0; s < ring->count; s++) {
        vks__ring_slot *sl = &ring->slot[s];
        vks_gpu *gpu = ring->gpu;
        if (sl->qpool)
            gpu->vk.vkDestroyQueryPool(gpu->device, sl->qpool, VKS_VK_ALLOC(gpu));
        /* a semaphore left signalled (a copy that failed to submit) may go: its signal is done */
        if (sl->computed)
            gpu->vk.vkDestroySemaphore(gpu->device, sl->computed, VKS_VK_ALLOC(gpu));
        vks__buf_destroy(gpu, &sl->snapshot);
        vks__buf_destroy(gpu, &sl->stage);
        for (uint32_t i = 0; i < sl->red_cap; i++)
            vks__reduce_destroy(gpu, &sl->red[i]);
        free(sl->red);
        vks__oneshot_destroy(gpu, &sl->copy);
        vks__oneshot_destroy(gpu, &sl->os);
    }
    free(ring);
}
