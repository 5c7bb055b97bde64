/* vks_gpu_measure_ceilings (gpu.h): what the device itself does at its best, measured in the
 * same process as the passes it is held against, with timestamps from the queue that does the
 * work: a fill (the deform pass writes 24 B a vertex-instance and reads little: its ceiling),
 * a device-to-device copy, and a copy into the host memory the readback stages into, on the
 * queue the stream reads back on (a copy engine's where the device has one and times there). */
#include "gpu_internal.h"

#include <string.h>


enum { OP_FILL, OP_COPY, OP_READBACK };

/* Median time of one operation in ms over `repeats` submissions after a first one, recorded
 * on `on` (the context's queue or its readback queue, whose timestamps have ts_bits valid). A
 * transfer-only family may not reset queries, so `once` (the context's queue) resets them
 * first when `on` is another. */
static vks_result time_op(vks_gpu *gpu, vks__oneshot *once, vks__oneshot *on, uint32_t ts_bits, VkQueryPool qp,
                          int op, const vks__buf *src, const vks__buf *dst, VkDeviceSize bytes, uint32_t repeats,
                          double *ms, vks_error *err)
{
    double t[64];
    uint64_t mask = ts_bits >= 64 ? ~0ull : ((1ull << ts_bits) - 1);
    for (uint32_t i = 0; i <= repeats; i++) {
        if (on != once) {
            vks__oneshot_begin(gpu, once);
            gpu->vk.vkCmdResetQueryPool(once->cmd, qp, 0, 2);
            vks_result res = vks__oneshot_submit(gpu, once, err);
            if (res != VKS_OK)
                return res;
        }
        vks__oneshot_begin(gpu, on);
        VkCommandBuffer cmd = on->cmd;
        if (on == once)
            gpu->vk.vkCmdResetQueryPool(cmd, qp, 0, 2);
        gpu->vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, qp, 0);
        if (op == OP_FILL) {
            gpu->vk.vkCmdFillBuffer(cmd, dst->buffer, 0, bytes, 0x3f800000u + i);
        } else {
            VkBufferCopy c = {0, 0, bytes};
            gpu->vk.vkCmdCopyBuffer(cmd, src->buffer, dst->buffer, 1, &c);
        }
        gpu->vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, qp, 1);
        vks_result res = vks__oneshot_submit(gpu, on, err);
        if (res != VKS_OK)
            return res;
        uint64_t q[2];
        VkResult r = gpu->vk.vkGetQueryPoolResults(gpu->device, qp, 0, 2, sizeof q, q, sizeof q[0],
                                                   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
        if (r != VK_SUCCESS)
            return vks__vk_fail(err, r, "vkGetQueryPoolResults");
        if (i > 0) /* the first run touches the pages and warms the clocks */
            t[i - 1] = (double)((q[1] - q[0]) & mask) * gpu->props.limits.timestampPeriod / 1e6;
    }
    *ms = vks__median(t, repeats);
    return VKS_OK;
}

vks_result vks_gpu_measure_ceilings(vks_gpu *gpu, uint64_t bytes, uint32_t repeats, vks_gpu_ceilings *out,
                                    vks_error *err)
{
    if (!gpu || !out)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/ceilings", "NULL context or result");
    memset(out, 0, sizeof *out);
    if (!gpu->timestamps)
        return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "gpu/ceilings",
                             "the context's queue has no timestamps");
    repeats = repeats ? (repeats > 63 ? 63 : repeats) : 5;
    /* vkCmdFillBuffer takes multiples of 4; one allocation must stay under the device's limit
     * and three buffers together a small share of its smallest heap. */
    bytes &= ~(uint64_t)255;
    uint64_t heap = UINT64_MAX;
    for (uint32_t h = 0; h < gpu->mem.memoryHeapCount; h++)
        if (gpu->mem.memoryHeaps[h].size / 8 < heap)
            heap = gpu->mem.memoryHeaps[h].size / 8;
    if (bytes > heap)
        bytes = heap & ~(uint64_t)255;
    if (bytes > ((uint64_t)1 << 30))
        bytes = (uint64_t)1 << 30;
    if (bytes < 4096)
        bytes = 4096;
    out->bytes = bytes;
    vks__buf a = {0}, b = {0}, host = {0};
    vks__oneshot once = {0}, copy = {0};
    VkQueryPool qp = VK_NULL_HANDLE;
    /* the readback's own queue where it is another family and times there: the ceiling the
     * stream's readback is held against is that engine's */
    int apart = gpu->readback_apart && gpu->readback_timestamp_bits;
    vks_result res = vks__buf_create_shared(gpu, bytes, VKS__MEM_DEVICE, 0, apart, &a, err);
    if (res == VKS_OK)
        res = vks__buf_create(gpu, bytes, VKS__MEM_DEVICE, &b, err);
    if (res == VKS_OK)
        res = vks__buf_create(gpu, bytes, VKS__MEM_READBACK, &host, err);
    if (res == VKS_OK)
        res = vks__oneshot_create(gpu, &once, err);
    if (res == VKS_OK && apart)
        res = vks__oneshot_create_readback(gpu, &copy, err);
    if (res == VKS_OK) {
        VkQueryPoolCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
        qi.queryCount = 2;
        VkResult r = gpu->vk.vkCreateQueryPool(gpu->device, &qi, VKS_VK_ALLOC(gpu), &qp);
        if (r != VK_SUCCESS)
            res = vks__vk_fail(err, r, "vkCreateQueryPool");
    }
    double fill = 0, d2d = 0, readback = 0;
    if (res == VKS_OK)
        res = time_op(gpu, &once, &once, gpu->timestamp_valid_bits, qp, OP_FILL, NULL, &a, bytes, repeats, &fill, err);
    if (res == VKS_OK)
        res = time_op(gpu, &once, &once, gpu->timestamp_valid_bits, qp, OP_COPY, &a, &b, bytes, repeats, &d2d, err);
    if (res == VKS_OK)
        res = time_op(gpu, &once, apart ? &copy : &once, apart ? gpu->readback_timestamp_bits : gpu->timestamp_valid_bits,
                      qp, OP_READBACK, &a, &host, bytes, repeats, &readback, err);
    if (res == VKS_OK) {
        out->fill_bytes_per_second = fill > 0 ? bytes / (fill * 1e-3) : 0;
        out->copy_bytes_per_second = d2d > 0 ? 2.0 * bytes / (d2d * 1e-3) : 0;
        out->readback_bytes_per_second = readback > 0 ? bytes / (readback * 1e-3) : 0;
    }
    if (qp)
        gpu->vk.vkDestroyQueryPool(gpu->device, qp, VKS_VK_ALLOC(gpu));
    vks__oneshot_destroy(gpu, &copy);
    vks__oneshot_destroy(gpu, &once);
    vks__buf_destroy(gpu, &a);
    vks__buf_destroy(gpu, &b);
    vks__buf_destroy(gpu, &host);
    return res;
}
