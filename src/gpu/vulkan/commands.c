/* Synchronous work on the context's queue (uploads, readback, the crowd's own frames): a
 * command buffer and a fence of vkskin's own, waited on by fence, never by vkQueueWaitIdle or
 * vkDeviceWaitIdle, since the queue and device may be the host's with its own work in flight.
 * And the one memory barrier the passes use. */
#include "gpu_internal.h"

#include <stdlib.h>
#include <string.h>

static vks_result create_on(vks_gpu *gpu, uint32_t family, VkQueue queue, vks__oneshot *o, vks_error *err)
{
    memset(o, 0, sizeof *o);
    o->queue = queue;
    VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pi.queueFamilyIndex = family;
    pi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    VkResult r = gpu->vk.vkCreateCommandPool(gpu->device, &pi, VKS_VK_ALLOC(gpu), &o->pool);
    if (r != VK_SUCCESS)
        return vks__vk_fail(err, r, "vkCreateCommandPool");
    VkCommandBufferAllocateInfo ai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL, o->pool,
                                      VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    r = gpu->vk.vkAllocateCommandBuffers(gpu->device, &ai, &o->cmd);
    gpu->counters.command_buffers++;
    if (r != VK_SUCCESS)
        return vks__vk_fail(err, r, "vkAllocateCommandBuffers");
    VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    r = gpu->vk.vkCreateFence(gpu->device, &fi, VKS_VK_ALLOC(gpu), &o->fence);
    return r == VK_SUCCESS ? VKS_OK : vks__vk_fail(err, r, "vkCreateFence");
}

vks_result vks__oneshot_create(vks_gpu *gpu, vks__oneshot *o, vks_error *err)
{
    return create_on(gpu, gpu->queue_family, gpu->queue, o, err);
}

vks_result vks__oneshot_create_readback(vks_gpu *gpu, vks__oneshot *o, vks_error *err)
{
    return create_on(gpu, gpu->readback_family, gpu->readback_queue, o, err);
}

void vks__oneshot_begin(vks_gpu *gpu, vks__oneshot *o)
{
    gpu->vk.vkResetCommandBuffer(o->cmd, 0);
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    gpu->vk.vkBeginCommandBuffer(o->cmd, &bi);
}

vks_result vks__oneshot_send(vks_gpu *gpu, vks__oneshot *o, vks_error *err)
{
    return vks__oneshot_send_linked(gpu, o, VK_NULL_HANDLE, 0, VK_NULL_HANDLE, err);
}

vks_result vks__oneshot_send_linked(vks_gpu *gpu, vks__oneshot *o, VkSemaphore wait, VkPipelineStageFlags wait_stage,
                                    VkSemaphore signal, vks_error *err)
{
    VkResult r = gpu->vk.vkEndCommandBuffer(o->cmd);
    if (r != VK_SUCCESS)
        return vks__vk_fail(err, r, "vkEndCommandBuffer");
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &o->cmd;
    si.waitSemaphoreCount = wait ? 1 : 0;
    si.pWaitSemaphores = &wait;
    si.pWaitDstStageMask = &wait_stage;
    si.signalSemaphoreCount = signal ? 1 : 0;
    si.pSignalSemaphores = &signal;
    r = gpu->vk.vkQueueSubmit(o->queue, 1, &si, o->fence);
    gpu->counters.submissions++;
    return r == VK_SUCCESS ? VKS_OK : vks__vk_fail(err, r, "vkQueueSubmit");
}

vks_result vks__oneshot_wait(vks_gpu *gpu, vks__oneshot *o, vks_error *err)
{
    /* our own fence: the queue may be the host's, with its own work in flight */
    VkResult r = gpu->vk.vkWaitForFences(gpu->device, 1, &o->fence, VK_TRUE, UINT64_MAX);
    gpu->vk.vkResetFences(gpu->device, 1, &o->fence);
    return r == VK_SUCCESS ? VKS_OK : vks__vk_fail(err, r, "vkWaitForFences");
}

vks_result vks__oneshot_submit(vks_gpu *gpu, vks__oneshot *o, vks_error *err)
{
    vks_result res = vks__oneshot_send(gpu, o, err);
    return res == VKS_OK ? vks__oneshot_wait(gpu, o, err) : res;
}

void vks__oneshot_destroy(vks_gpu *gpu, vks__oneshot *o)
{
    if (o->fence)
        gpu->vk.vkDestroyFence(gpu->device, o->fence, VKS_VK_ALLOC(gpu));
    if (o->pool) /* frees its command buffer */
        gpu->vk.vkDestroyCommandPool(gpu->device, o->pool, VKS_VK_ALLOC(gpu));
    memset(o, 0, sizeof *o);
}

void vks__barrier(vks_gpu *gpu, VkCommandBuffer cmd, VkPipelineStageFlags src, VkAccessFlags sa,
                  VkPipelineStageFlags dst, VkAccessFlags da)
{
    VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, sa, da};
    gpu->vk.vkCmdPipelineBarrier(cmd, src, dst, 0, 1, &mb, 0, NULL, 0, NULL);
}
