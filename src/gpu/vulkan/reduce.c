/* The verdict's reduction pass (compute/reduce.comp): after a chunk's deform pass, a few words
 * that sum its outputs up, in host-visible memory of their own, read with the chunk. Only a
 * consumer that asks (vks_gpu_batch.reduce: validate) records it, so deform and bake keep
 * their cost and their bytes. A batch folds the same words in its deform pass instead
 * (compute/reduce_fold.glsl: vks__reduce_reset before the passes, vks__reduce_to_host after),
 * where its variant exists; the streams (crowds) and a testing run keep the pass. */
#include "gpu_internal.h"

#include <string.h>

enum {
    RESULT_WORDS = 10,        /* reduce.comp's r[0..9] */
    VERTICES_PER_INVOCATION = 16, /* a few each: few workgroups and atomics, short loops */
    WORKGROUP = 256,
    MAX_GROUPS = 65535
};

vks_result vks__reduce_create(vks_gpu *gpu, const vks__buf *pos, const vks__buf *nrm, vks__reduce *r, vks_error *err)
{
    memset(r, 0, sizeof *r);
    vks_result res = vks__reduce_pipeline(gpu, err);
    if (res == VKS_OK)
        res = vks__buf_create(gpu, 64, VKS__MEM_READBACK, &r->result, err);
    if (res != VKS_OK)
        return res;
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3};
    VkDescriptorPoolCreateInfo di = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    di.maxSets = 1;
    di.poolSizeCount = 1;
    di.pPoolSizes = &ps;
    VkResult vr = gpu->vk.vkCreateDescriptorPool(gpu->device, &di, VKS_VK_ALLOC(gpu), &r->pool);
    if (vr != VK_SUCCESS)
        return vks__vk_fail(err, vr, "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    ai.descriptorPool = r->pool;
    ai.descriptorSetCount = 1;
    ai.pSetLayouts = &gpu->reduce_dsl;
    vr = gpu->vk.vkAllocateDescriptorSets(gpu->device, &ai, &r->set);
    if (vr != VK_SUCCESS)
        return vks__vk_fail(err, vr, "vkAllocateDescriptorSets");
    gpu->counters.descriptor_sets++;
    vks__reduce_bind(gpu, r, pos, nrm);
    return VKS_OK;
}

void vks__reduce_bind(vks_gpu *gpu, vks__reduce *r, const vks__buf *pos, const vks__buf *nrm)
{
    const vks__buf *bufs[3] = {pos, nrm && nrm->buffer ? nrm : pos, &r->result};
    VkDescriptorBufferInfo bi[3];
    VkWriteDescriptorSet w[3];
    memset(w, 0, sizeof w);
    for (uint32_t i = 0; i < 3; i++) {
        bi[i] = (VkDescriptorBufferInfo){bufs[i]->buffer, 0, VK_WHOLE_SIZE};
        w[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        w[i].dstSet = r->set;
        w[i].dstBinding = i;
        w[i].descriptorCount = 1;
        w[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        w[i].pBufferInfo = &bi[i];
    }
    gpu->vk.vkUpdateDescriptorSets(gpu->device, 3, w, 0, NULL);
}

void vks__reduce_destroy(vks_gpu *gpu, vks__reduce *r)
{
    vks__buf_destroy(gpu, &r->result);
    if (r->pool)
        gpu->vk.vkDestroyDescriptorPool(gpu->device, r->pool, VKS_VK_ALLOC(gpu));
    memset(r, 0, sizeof *r);
}

void vks__reduce_record(vks_gpu *gpu, VkCommandBuffer cmd, const vks__reduce *r, uint64_t vertices, int normals)
{
    vks__reduce_record_range(gpu, cmd, r, 0, vertices, normals);
}

/* The result words' neutral values, and a barrier from the fill to the atomics. */
void vks__reduce_reset(vks_gpu *gpu, VkCommandBuffer cmd, const vks__reduce *r)
{
    gpu->vk.vkCmdFillBuffer(cmd, r->result.buffer, 0, 16, 0);            /* sum, xor, nonfinite, deviation */
    gpu->vk.vkCmdFillBuffer(cmd, r->result.buffer, 16, 12, 0xffffffffu); /* minima */
    gpu->vk.vkCmdFillBuffer(cmd, r->result.buffer, 28, 12, 0);           /* maxima */
    vks__barrier(gpu, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                 VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}

void vks__reduce_to_host(vks_gpu *gpu, VkCommandBuffer cmd)
{
    vks__barrier(gpu, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                 VK_ACCESS_HOST_READ_BIT);
}

void vks__reduce_record_range(vks_gpu *gpu, VkCommandBuffer cmd, const vks__reduce *r, uint64_t first,
                              uint64_t vertices, int normals)
{
    /* the deform pass's writes before these reads; the reset's before the atomics */
    vks__barrier(gpu, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                 VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
    vks__reduce_reset(gpu, cmd, r);
    uint64_t per_group = (uint64_t)WORKGROUP * VERTICES_PER_INVOCATION;
    uint64_t groups = (vertices + per_group - 1) / per_group;
    if (groups > MAX_GROUPS)
        groups = MAX_GROUPS; /* the shader strides over the rest */
    uint32_t push[3] = {(uint32_t)vertices, normals ? 1u : 0u, (uint32_t)first};
    gpu->vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, gpu->reduce_pipeline);
    gpu->vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, gpu->reduce_layout, 0, 1, &r->set, 0, NULL);
    gpu->vk.vkCmdPushConstants(cmd, gpu->reduce_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, push);
    if (groups)
        gpu->vk.vkCmdDispatch(cmd, (uint32_t)groups, 1, 1);
    vks__reduce_to_host(gpu, cmd);
}

void vks__reduce_read(vks_gpu *gpu, vks__reduce *r, vks_gpu_figures *out)
{
    vks__buf_invalidate(gpu, &r->result);
    uint32_t w[RESULT_WORDS];
    memcpy(w, r->result.mapped, sizeof w);
    out->sum = w[0], out->xor_words = w[1], out->nonfinite = w[2];
    memcpy(&out->normal_deviation, &w[3], 4);
    for (int k = 0; k < 3; k++)
        out->min_key[k] = w[4 + k], out->max_key[k] = w[7 + k];
}

vks_result vks_gpu_reduce_testing(vks_gpu *gpu, const float *positions, const float *normals, uint64_t vertices,
                                  vks_gpu_figures *out, vks_error *err)
{
    if (!gpu || !positions || !out || vertices > 0xffffffffu)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/reduce", "NULL or too many vertices");
    size_t bytes = (size_t)(vertices ? vertices : 1) * 12;
    vks__buf pos = {0}, nrm = {0};
    vks__reduce red = {0};
    vks__oneshot once = {0};
    vks_result res = vks__buf_create(gpu, bytes, VKS__MEM_READBACK, &pos, err);
    if (res == VKS_OK && normals)
        res = vks__buf_create(gpu, bytes, VKS__MEM_READBACK, &nrm, err);
    if (res == VKS_OK)
        res = vks__reduce_create(gpu, &pos, &nrm, &red, err);
    if (res == VKS_OK)
        res = vks__oneshot_create(gpu, &once, err);
    if (res == VKS_OK) {
        vks__buf_write(gpu, &pos, 0, positions, (size_t)vertices * 12);
        if (normals)
            vks__buf_write(gpu, &nrm, 0, normals, (size_t)vertices * 12);
        vks__oneshot_begin(gpu, &once);
        vks__reduce_record(gpu, once.cmd, &red, vertices, normals != NULL);
        res = vks__oneshot_submit(gpu, &once, err);
    }
    if (res == VKS_OK)
        vks__reduce_read(gpu, &red, out);
    vks__oneshot_destroy(gpu, &once);
    vks__reduce_destroy(gpu, &red);
    vks__buf_destroy(gpu, &pos);
    vks__buf_destroy(gpu, &nrm);
    return res;
}
