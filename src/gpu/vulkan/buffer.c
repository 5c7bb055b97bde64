/* Buffers with their own memory: device-local for the passes, host-visible for uploads and
 * readback. Memory types are chosen by required and preferred property flags. */
#include "gpu_internal.h"

#include <string.h>

static int find_type(const vks_gpu *gpu, uint32_t bits, VkMemoryPropertyFlags need, VkMemoryPropertyFlags want)
{
    int fallback = -1;
    for (uint32_t i = 0; i < gpu->mem.memoryTypeCount; i++) {
        VkMemoryPropertyFlags f = gpu->mem.memoryTypes[i].propertyFlags;
        if (!(bits & (1u << i)) || (f & need) != need)
            continue;
        if ((f & want) == want)
            return (int)i;
        if (fallback < 0)
            fallback = (int)i;
    }
    return fallback;
}

static vks_result create(vks_gpu *gpu, VkDeviceSize size, int kind, VkBufferUsageFlags usage, int shared,
                         vks__buf *out, vks_error *err);

/* The testing hooks of vks_gpu_options: does this allocation fail on purpose? */
static int allocation_fails(vks_gpu *gpu, VkDeviceSize size)
{
    gpu->run_allocations++;
    return (gpu->test.fail_allocations_over && size > gpu->test.fail_allocations_over) ||
           gpu->run_allocations == gpu->test.fail_allocation_nth;
}

vks_result vks__buf_create(vks_gpu *gpu, VkDeviceSize size, int kind, vks__buf *out, vks_error *err)
{
    return create(gpu, size, kind, 0, 0, out, err);
}

vks_result vks__buf_create_usage(vks_gpu *gpu, VkDeviceSize size, int kind, VkBufferUsageFlags usage,
                                 vks__buf *out, vks_error *err)
{
    return create(gpu, size, kind, usage, 0, out, err);
}

vks_result vks__buf_create_shared(vks_gpu *gpu, VkDeviceSize size, int kind, VkBufferUsageFlags usage, int shared,
                                  vks__buf *out, vks_error *err)
{
    return create(gpu, size, kind, usage, shared, out, err);
}

static vks_result create(vks_gpu *gpu, VkDeviceSize size, int kind, VkBufferUsageFlags usage, int shared,
                         vks__buf *out, vks_error *err)
{
    memset(out, 0, sizeof *out);
    if (size < 16)
        size = 16;
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bi.size = size;
    bi.usage = usage | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    uint32_t families[2] = {gpu->queue_family, gpu->readback_family};
    if (shared && families[0] != families[1]) {
        /* Concurrent across the compute and readback families: with exclusive sharing each
         * hand-over would need a release barrier on one queue and a matching acquire on the
         * other, per frame, in the right submissions; concurrent needs none, and on buffers
         * (no compressed layouts) it costs nothing measurable. */
        bi.sharingMode = VK_SHARING_MODE_CONCURRENT;
        bi.queueFamilyIndexCount = 2;
        bi.pQueueFamilyIndices = families;
    }
    VkResult r = gpu->vk.vkCreateBuffer(gpu->device, &bi, VKS_VK_ALLOC(gpu), &out->buffer);
    gpu->counters.buffers++;
    if (r != VK_SUCCESS)
        return vks__vk_fail(err, r, "vkCreateBuffer");
    VkMemoryRequirements req;
    gpu->vk.vkGetBufferMemoryRequirements(gpu->device, out->buffer, &req);
    VkMemoryPropertyFlags need = 0, want = 0;
    if (kind == VKS__MEM_DEVICE)
        want = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    else if (kind == VKS__MEM_UPLOAD)
        need = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, want = VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    else
        need = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, want = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
    int type = find_type(gpu, req.memoryTypeBits, need, want);
    if (type < 0) {
        vks__buf_destroy(gpu, out);
        return vks_error_set(err, VKS_ERR_VULKAN, VKS_NO_OFFSET, "vulkan", "no memory type for a %s buffer",
                             kind == VKS__MEM_DEVICE ? "device" : "host-visible");
    }
    VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = (uint32_t)type;
    r = VK_ERROR_OUT_OF_DEVICE_MEMORY;
    if (!gpu->hooks_armed || !allocation_fails(gpu, ai.allocationSize)) {
        r = gpu->vk.vkAllocateMemory(gpu->device, &ai, VKS_VK_ALLOC(gpu), &out->memory);
        gpu->counters.memory_allocations++;
    }
    if (r != VK_SUCCESS) {
        vks__buf_destroy(gpu, out);
        return vks__vk_fail(err, r, "vkAllocateMemory");
    }
    r = gpu->vk.vkBindBufferMemory(gpu->device, out->buffer, out->memory, 0);
    VkMemoryPropertyFlags f = gpu->mem.memoryTypes[type].propertyFlags;
    if (r == VK_SUCCESS && (f & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
        r = gpu->vk.vkMapMemory(gpu->device, out->memory, 0, VK_WHOLE_SIZE, 0, &out->mapped);
    if (r != VK_SUCCESS) {
        vks__buf_destroy(gpu, out);
        return vks__vk_fail(err, r, "vkBindBufferMemory/vkMapMemory");
    }
    out->size = size;
    out->host_coherent = (f & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0;
    return VKS_OK;
}

void vks__buf_destroy(vks_gpu *gpu, vks__buf *b)
{
    if (b->buffer)
        gpu->vk.vkDestroyBuffer(gpu->device, b->buffer, VKS_VK_ALLOC(gpu));
    if (b->memory)
        gpu->vk.vkFreeMemory(gpu->device, b->memory, VKS_VK_ALLOC(gpu)); /* unmaps too */
    memset(b, 0, sizeof *b);
}

void vks__buf_flush(vks_gpu *gpu, vks__buf *b)
{
    if (b->mapped && !b->host_coherent) {
        VkMappedMemoryRange mr = {VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, NULL, b->memory, 0, VK_WHOLE_SIZE};
        gpu->vk.vkFlushMappedMemoryRanges(gpu->device, 1, &mr);
    }
}

void vks__buf_invalidate(vks_gpu *gpu, vks__buf *b)
{
    if (b->mapped && !b->host_coherent) {
        VkMappedMemoryRange mr = {VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, NULL, b->memory, 0, VK_WHOLE_SIZE};
        gpu->vk.vkInvalidateMappedMemoryRanges(gpu->device, 1, &mr);
    }
}

void vks__buf_touch(vks_gpu *gpu, vks__buf *b)
{
    if (!b->mapped)
        return;
    memset(b->mapped, 0, b->size);
    vks__buf_flush(gpu, b);
}

void vks__buf_write(vks_gpu *gpu, vks__buf *b, VkDeviceSize at, const void *src, size_t size)
{
    memcpy((char *)b->mapped + at, src, size);
    (void)gpu;
}

vks_result vks__upload_table(vks_gpu *gpu, vks__oneshot *once, const char *what, const void *data, size_t size,
                              vks__buf *out, vks_error *err)
{
    if (size > gpu->props.limits.maxStorageBufferRange)
        return vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "gpu/upload",
                             "the %s table (%zu bytes, all models together) exceeds maxStorageBufferRange %u", what,
                             size, gpu->props.limits.maxStorageBufferRange);
    vks_result res = vks__buf_create(gpu, size, VKS__MEM_DEVICE, out, err);
    if (res != VKS_OK || size == 0)
        return res;
    if (out->mapped) {
        memcpy(out->mapped, data, size);
        vks__buf_flush(gpu, out);
        return VKS_OK;
    }
    vks__buf stage;
    res = vks__buf_create(gpu, size, VKS__MEM_UPLOAD, &stage, err);
    if (res == VKS_OK && !once->cmd)
        res = vks__oneshot_create(gpu, once, err);
    if (res == VKS_OK) {
        memcpy(stage.mapped, data, size);
        vks__buf_flush(gpu, &stage);
        vks__oneshot_begin(gpu, once);
        VkBufferCopy c = {0, 0, size};
        gpu->vk.vkCmdCopyBuffer(once->cmd, stage.buffer, out->buffer, 1, &c);
        res = vks__oneshot_submit(gpu, once, err);
    }
    vks__buf_destroy(gpu, &stage);
    return res;
}
