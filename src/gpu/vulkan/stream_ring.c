/* See stream_ring.h. */
#include "stream_ring.h"

#include <string.h>

vks_result vks__ring_create(vks_gpu *gpu, uint32_t count, uint64_t slot_bytes, vks__ring *ring, vks_error *err)
{
    memset(ring, 0, sizeof *ring);
    ring->gpu = gpu;
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
    }
    if (r != VKS_OK)
        vks__ring_destroy(ring);
    return r;
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
       its consumer stages), so frames in flight share its outputs safely */
    vks_crowd_record(crowd, cmd, time);
    if (sl->qpool)
        gpu->vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, sl->qpool, 1);
    vks__barrier(gpu, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                 VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    VkDeviceSize pos_bytes = 0;
    for (uint32_t k = 0; k < count; k++) {
        vks_crowd_output o;
        vks_crowd_get_output(crowd, k, &o, NULL);
        pos_bytes += (VkDeviceSize)o.vertex_count * 12;
    }
    VkDeviceSize at = 0;
    for (uint32_t k = 0; k < count; k++) {
        vks_crowd_output o;
        vks_crowd_get_output(crowd, k, &o, NULL);
        VkBufferCopy cp = {o.position.offset, at, (VkDeviceSize)o.vertex_count * 12};
        if (cp.size)
            gpu->vk.vkCmdCopyBuffer(cmd, o.position.buffer, sl->stage.buffer, 1, &cp);
        if (normals && o.normal.buffer && cp.size) {
            cp.srcOffset = o.normal.offset;
            cp.dstOffset = pos_bytes + at;
            gpu->vk.vkCmdCopyBuffer(cmd, o.normal.buffer, sl->stage.buffer, 1, &cp);
        }
        at += cp.size;
    }
    vks__barrier(gpu, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                 VK_ACCESS_HOST_READ_BIT);
    vks_result r = vks__oneshot_send(gpu, &sl->os, err);
    sl->busy = r == VKS_OK;
    return r;
}

vks_result vks__ring_wait(vks__ring *ring, uint32_t s, const void **data, double *gpu_ms, vks_error *err)
{
    vks_gpu *gpu = ring->gpu;
    vks__ring_slot *sl = &ring->slot[s];
    *gpu_ms = 0;
    if (!sl->busy)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/stream", "slot %u was not submitted", s);
    sl->busy = 0;
    vks_result r = vks__oneshot_wait(gpu, &sl->os, err);
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
    for (uint32_t s = 0; s < ring->count; s++)
        if (ring->slot[s].busy) {
            vks_error ignored = {0};
            ring->slot[s].busy = 0;
            vks__oneshot_wait(ring->gpu, &ring->slot[s].os, &ignored);
        }
}

void vks__ring_destroy(vks__ring *ring)
{
    if (!ring->gpu)
        return;
    vks__ring_drain(ring);
    for (uint32_t s = 0; s < ring->count; s++) {
        vks__ring_slot *sl = &ring->slot[s];
        if (sl->qpool)
            ring->gpu->vk.vkDestroyQueryPool(ring->gpu->device, sl->qpool, VKS_VK_ALLOC(ring->gpu));
        vks__buf_destroy(ring->gpu, &sl->stage);
        vks__oneshot_destroy(ring->gpu, &sl->os);
    }
    memset(ring, 0, sizeof *ring);
}
