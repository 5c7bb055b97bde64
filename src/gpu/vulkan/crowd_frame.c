/* A crowd frame: recording into any command buffer with the barriers of crowd.h's contract,
 * the crowd's own submission for programs without one (vks_crowd_run_frames), and readback
 * for tests and tools. Nothing here allocates, except vks_crowd_read's staging buffer once. */
#include "crowd_internal.h"

#include <math.h>
#include <string.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* A frame; with pose_queries, part 0's passes write timestamps 2..4 of the crowd's pool. */
static void record_frame(vks_crowd *c, VkCommandBuffer cmd, float time, int pose_queries)
{
    vks_gpu *gpu = c->gpu;
    /* 1. acquire: the previous frame's writes and its consumers' reads are over */
    vks__barrier(gpu, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | c->consumer_stages, VK_ACCESS_SHADER_WRITE_BIT,
                 VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    /* 2. the passes of every part (parts share no buffer, so no barrier between them) */
    for (uint32_t p = 0; p < c->part_count; p++)
        vks__passes_record(gpu, cmd, &c->parts[p], time, pose_queries && p == 0 ? c->qpool : VK_NULL_HANDLE, 2);
    /* 3. release: the outputs to whoever reads them next */
    vks__barrier(gpu, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, c->consumer_stages,
                 c->consumer_access);
}

void vks_crowd_record(vks_crowd *c, VkCommandBuffer cmd, float time)
{
    record_frame(c, cmd, time, 0);
}

vks_result vks_crowd_run_frames(vks_crowd *c, const float *times, uint32_t count, vks_crowd_stats *stats,
                                vks_error *err)
{
    if (stats)
        memset(stats, 0, sizeof *stats);
    if (!c || (count && !times))
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/crowd", "no crowd, or no frame times");
    vks_gpu *gpu = c->gpu;
    double t0 = now_ms();
    vks__oneshot_begin(gpu, &c->own);
    if (c->qpool) {
        gpu->vk.vkCmdResetQueryPool(c->own.cmd, c->qpool, 0, 2);
        gpu->vk.vkCmdWriteTimestamp(c->own.cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, c->qpool, 0);
    }
    /* the pose pass alone: one part, not staggered (a sliced pose runs beside the deform) */
    int pose_queries = c->qpool && c->part_count == 1 && c->parts[0].slices <= 1;
    for (uint32_t k = 0; k < count; k++)
        record_frame(c, c->own.cmd, times[k], pose_queries && k + 1 == count);
    if (c->qpool)
        gpu->vk.vkCmdWriteTimestamp(c->own.cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, c->qpool, 1);
    vks_result res = vks__oneshot_submit(gpu, &c->own, err);
    if (res != VKS_OK || !stats)
        return res;
    stats->frames = count;
    stats->wall_ms = now_ms() - t0;
    uint64_t t[5];
    uint32_t nq = pose_queries && count ? 5 : 2;
    if (c->qpool && gpu->vk.vkGetQueryPoolResults(gpu->device, c->qpool, 0, nq, sizeof t, t, sizeof t[0],
                                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS) {
        uint64_t mask = gpu->timestamp_valid_bits >= 64 ? ~0ull : ((1ull << gpu->timestamp_valid_bits) - 1);
        stats->gpu_ms = (double)((t[1] - t[0]) & mask) * gpu->props.limits.timestampPeriod / 1e6;
        if (nq == 5)
            stats->pose_gpu_ms = (double)((t[3] - t[2]) & mask) * gpu->props.limits.timestampPeriod / 1e6;
    }
    return VKS_OK;
}

vks_result vks_crowd_run_frame(vks_crowd *c, float time, vks_crowd_stats *stats, vks_error *err)
{
    return vks_crowd_run_frames(c, &time, 1, stats, err);
}

/* Bytes of instance i's outputs (both streams). */
static uint64_t instance_bytes(const vks_crowd *c, uint32_t i)
{
    return (uint64_t)c->ms->models[c->inst[i].model].vertex_count * 12 * (c->normals ? 2 : 1);
}

/* The staging buffer: a few tens of MiB at most, and at least the largest instance; where the
 * context reads back apart, the readback queue's command buffer and the semaphore that hands
 * the outputs over to it. */
static vks_result make_stage(vks_crowd *c, vks_error *err)
{
    uint64_t total = 0, largest = 16;
    for (uint32_t i = 0; i < c->count; i++) {
        uint64_t b = instance_bytes(c, i);
        total += b;
        largest = b > largest ? b : largest;
    }
    uint64_t size = total < (32ull << 20) ? total : (32ull << 20);
    vks_gpu *gpu = c->gpu;
    vks_result r = vks__buf_create(gpu, size > largest ? size : largest, VKS__MEM_READBACK, &c->stage, err);
    if (r == VKS_OK && gpu->readback_apart) {
        r = vks__oneshot_create_readback(gpu, &c->copy, err);
        VkSemaphoreCreateInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        VkResult vr = r == VKS_OK ? gpu->vk.vkCreateSemaphore(gpu->device, &si, VKS_VK_ALLOC(gpu), &c->handed)
                                  : VK_SUCCESS;
        if (vr != VK_SUCCESS)
            r = vks__vk_fail(err, vr, "vkCreateSemaphore");
    }
    if (r != VKS_OK) { /* made again whole by the next call */
        vks__oneshot_destroy(gpu, &c->copy);
        vks__buf_destroy(gpu, &c->stage);
    }
    return r;
}

/* Records the copies of instances [i, end) into the staging buffer: positions from 0, normals
 * from half. */
static void record_read(vks_crowd *c, VkCommandBuffer cmd, uint32_t i, uint32_t end, uint64_t half)
{
    uint64_t at = 0;
    for (uint32_t k = i; k < end; k++) {
        vks_crowd_output o;
        vks_crowd_get_output(c, k, &o, NULL);
        VkBufferCopy cp = {o.position.offset, at, (VkDeviceSize)o.vertex_count * 12};
        c->gpu->vk.vkCmdCopyBuffer(cmd, o.position.buffer, c->stage.buffer, 1, &cp);
        if (c->normals) {
            cp.dstOffset = half + at;
            c->gpu->vk.vkCmdCopyBuffer(cmd, o.normal.buffer, c->stage.buffer, 1, &cp);
        }
        at += cp.size;
    }
    vks__barrier(c->gpu, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                 VK_ACCESS_HOST_READ_BIT);
}

/* One staging buffer's worth, instances [i, end), copied and waited for. In one submission on
 * the compute queue, after a barrier from the frames' writes. Apart (gpu->readback_apart: a
 * copy engine's queue, or the testing switch), on the readback queue, as the stream ring does
 * (stream_ring.h), but straight from the outputs (made with concurrent sharing across the two
 * families, crowd.c) rather than through a snapshot: a one-off read is waited for before it
 * returns, so no later frame can overwrite what it copies. The first chunk of a call waits for
 * `handed`, signalled by an empty submission on the compute queue: a signal's scope is every
 * command submitted there before it (the crowd's own frames and the host's recorded ones
 * alike), and it makes their writes visible to the copies; the later chunks follow it in the
 * readback queue's order. */
static vks_result read_chunk(vks_crowd *c, uint32_t i, uint32_t end, uint64_t half, int first, vks_error *err)
{
    vks_gpu *gpu = c->gpu;
    if (!gpu->readback_apart) {
        vks__oneshot_begin(gpu, &c->own);
        vks__barrier(gpu, c->own.cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | c->consumer_stages,
                     VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
        record_read(c, c->own.cmd, i, end, half);
        return vks__oneshot_submit(gpu, &c->own, err);
    }
    vks_result r = VKS_OK;
    int signalled = 0, sent = 0;
    if (first) {
        vks__oneshot_begin(gpu, &c->own);
        r = vks__oneshot_send_linked(gpu, &c->own, VK_NULL_HANDLE, 0, c->handed, err);
        signalled = r == VKS_OK;
    }
    if (r == VKS_OK) {
        vks__oneshot_begin(gpu, &c->copy);
        record_read(c, c->copy.cmd, i, end, half);
        r = vks__oneshot_send_linked(gpu, &c->copy, first ? c->handed : VK_NULL_HANDLE, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                     VK_NULL_HANDLE, err);
        sent = r == VKS_OK;
    }
    if (sent)
        r = vks__oneshot_wait(gpu, &c->copy, err);
    if (signalled) {
        vks_result w = vks__oneshot_wait(gpu, &c->own, r == VKS_OK ? err : NULL);
        r = r == VKS_OK ? w : r;
    }
    if (signalled && !sent) { /* a semaphore left signalled cannot be signalled again: made anew */
        vks__oneshot_destroy(gpu, &c->copy);
        gpu->vk.vkDestroySemaphore(gpu->device, c->handed, VKS_VK_ALLOC(gpu));
        c->handed = VK_NULL_HANDLE;
        vks__buf_destroy(gpu, &c->stage); /* the next call makes the three again (make_stage) */
    }
    return r;
}

vks_result vks_crowd_read(vks_crowd *c, uint32_t first, uint32_t count, float *positions, float *normals,
                          vks_error *err)
{
    if (!c || !positions || first > c->count || count > c->count - first)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/crowd", "instances [%u, +%u) of %u", first,
                             count, c ? c->count : 0);
    vks_gpu *gpu = c->gpu;
    vks_result res = c->stage.buffer ? VKS_OK : make_stage(c, err);
    uint64_t out_at = 0; /* floats written to each out array so far */
    for (uint32_t i = first; res == VKS_OK && i < first + count;) {
        /* as many whole instances as the staging buffer holds: positions, then normals */
        uint32_t end = i;
        uint64_t bytes = 0;
        while (end < first + count && bytes + instance_bytes(c, end) <= c->stage.size)
            bytes += instance_bytes(c, end++);
        uint64_t half = c->normals ? bytes / 2 : bytes;
        res = read_chunk(c, i, end, half, i == first, err);
        if (res != VKS_OK)
            break;
        vks__buf_invalidate(gpu, &c->stage);
        memcpy(positions + out_at, c->stage.mapped, half);
        if (normals && c->normals)
            memcpy(normals + out_at, (const char *)c->stage.mapped + half, half);
        out_at += half / sizeof(float);
        i = end;
    }
    return res;
}

/* The root motion of instances [first, first + count): stride floats each (3: x, y, z; 4: and
 * the yaw). No copy: the pose pass writes it into the host-visible parameter tables, so a
 * barrier to the host on the compute queue is all it takes, whether readback is apart or not. */
static vks_result read_motion(vks_crowd *c, uint32_t first, uint32_t count, float *out, uint32_t stride,
                              vks_error *err)
{
    if (!c || !out || first > c->count || count > c->count - first)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/crowd", "instances [%u, +%u) of %u", first,
                             count, c ? c->count : 0);
    memset(out, 0, (size_t)count * stride * sizeof *out);
    if (!c->layered)
        return VKS_OK;
    /* the pose passes' writes to the parameter tables, made visible to the host */
    vks_gpu *gpu = c->gpu;
    vks__oneshot_begin(gpu, &c->own);
    vks__barrier(gpu, c->own.cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                 VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    vks_result r = vks__oneshot_submit(gpu, &c->own, err);
    if (r != VKS_OK)
        return r;
    for (uint32_t p = 0; p < c->part_count; p++)
        vks__buf_invalidate(gpu, &c->parts[p].params);
    for (uint32_t k = 0; k < count; k++) {
        uint32_t i = first + k;
        if (c->inst[i].pose != VKS_POSE_LAYERS || !c->inst[i].root_motion)
            continue;
        const vks__gpu_layered_param *lp =
            (const vks__gpu_layered_param *)c->parts[c->part_of[i]].params.mapped + c->slot_of[i];
        if (!isnan(lp->motion[3])) /* written by a frame */
            memcpy(out + stride * (size_t)k, lp->motion, stride * sizeof *out);
    }
    return VKS_OK;
}

vks_result vks_crowd_read_root_motion(vks_crowd *c, uint32_t first, uint32_t count, float *out, vks_error *err)
{
    return read_motion(c, first, count, out, 3, err);
}

vks_result vks_crowd_read_root_motion_yaw(vks_crowd *c, uint32_t first, uint32_t count, float *out, vks_error *err)
{
    return read_motion(c, first, count, out, 4, err);
}
