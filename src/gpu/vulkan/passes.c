/* The pass core shared by the batch scheduler (batch.c) and the crowd (crowd.c): the buffers
 * and descriptor sets of one set of instances, its deform work list, and the recording of the
 * pose pass and the deform pass into a command buffer. What differs between the two clients
 * is only who fills the tables and when: per chunk for a batch, once for a crowd part. */
#include "gpu_internal.h"

#include <string.h>

vks_result vks__passes_pool(vks_gpu *gpu, uint32_t sets, VkDescriptorPool *out, vks_error *err)
{
    VkDescriptorPoolSize ps[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, (VKS__POSE_BINDINGS + VKS__DEFORM_BINDINGS) * sets},
                                  {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, sets}};
    VkDescriptorPoolCreateInfo di = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    di.maxSets = 2 * sets;
    di.poolSizeCount = 2;
    di.pPoolSizes = ps;
    VkResult r = gpu->vk.vkCreateDescriptorPool(gpu->device, &di, VKS_VK_ALLOC(gpu), out);
    return r == VK_SUCCESS ? VKS_OK : vks__vk_fail(err, r, "vkCreateDescriptorPool");
}

static void write_set(vks_gpu *gpu, VkDescriptorSet set, const vks__buf *const *bufs, uint32_t n)
{
    VkDescriptorBufferInfo bi[16];
    VkWriteDescriptorSet w[16];
    memset(w, 0, sizeof w);
    for (uint32_t i = 0; i < n; i++) {
        bi[i] = (VkDescriptorBufferInfo){bufs[i]->buffer, 0, VK_WHOLE_SIZE};
        w[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        w[i].dstSet = set;
        w[i].dstBinding = i;
        w[i].descriptorCount = 1;
        w[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        w[i].pBufferInfo = &bi[i];
    }
    gpu->vk.vkUpdateDescriptorSets(gpu->device, n, w, 0, NULL);
}

vks_result vks__passes_create(vks_gpu *gpu, const vks_gpu_models *ms, const vks__passes_desc *d,
                              VkDescriptorPool pool, vks__passes *p, vks_error *err)
{
    memset(p, 0, sizeof *p);
    p->normals = d->normals != 0;
    p->use_params = d->params == 2 ? 2u : d->params != 0;
    p->clip_words = d->clip_words && d->clip_words->buffer ? d->clip_words : NULL;
    if (d->params) {
        vks_result pr = vks__pose_params_pipeline(gpu, p->use_params, err);
        if (pr != VKS_OK)
            return pr;
    }
    uint64_t out_bytes = d->cap.vertices * 12, mats = d->cap.matrices * 48;
    vks_result res = VKS_OK;
#define TRY(x)                                                                                            \
    if (res == VKS_OK)                                                                                    \
    res = (x)
    TRY(vks__buf_create(gpu, d->cap.instances * sizeof(vks__gpu_inst), VKS__MEM_UPLOAD, &p->insts, err));
    TRY(vks__buf_create(gpu, mats, VKS__MEM_UPLOAD, &p->locals, err));
    TRY(vks__buf_create(gpu, mats, VKS__MEM_DEVICE, &p->world, err));
    TRY(vks__buf_create_usage(gpu, mats, VKS__MEM_DEVICE, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT, &p->skin, err));
    if (res == VKS_OK) {
        /* binding 12: the same matrices as texels (the view spans the buffer whenever
         * gpu->skin_texels, the only case in which the kernel reads it) */
        VkBufferViewCreateInfo vi = {.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
        uint64_t texels = p->skin.size / 16, cap = gpu->props.limits.maxTexelBufferElements;
        vi.buffer = p->skin.buffer;
        vi.format = VK_FORMAT_R32G32B32A32_SFLOAT;
        vi.range = (texels < cap ? texels : cap) * 16;
        VkResult vr = gpu->vk.vkCreateBufferView(gpu->device, &vi, VKS_VK_ALLOC(gpu), &p->skin_view);
        if (vr != VK_SUCCESS)
            res = vks__vk_fail(err, vr, "vkCreateBufferView");
    }
    TRY(vks__buf_create(gpu, d->cap.works * sizeof(vks__gpu_work), VKS__MEM_UPLOAD, &p->works, err));
    TRY(vks__buf_create_shared(gpu, out_bytes, d->out_kind, d->out_usage, d->shared_outputs, &p->out_pos, err));
    TRY(vks__buf_create_shared(gpu, d->normals ? out_bytes : 16, d->out_kind, d->out_usage, d->shared_outputs,
                               &p->out_nrm, err));
    if (d->params)
        TRY(vks__buf_create(gpu,
                            d->cap.instances * (p->use_params == 2 ? sizeof(vks__gpu_layered_param)
                                                                   : sizeof(vks__gpu_pose_param)),
                            VKS__MEM_UPLOAD, &p->params, err));
#undef TRY
    if (res != VKS_OK)
        return res;
    VkDescriptorSetLayout layouts[2] = {gpu->pose_dsl, gpu->deform_dsl};
    VkDescriptorSet sets[2];
    VkDescriptorSetAllocateInfo dai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, NULL, pool, 2, layouts};
    VkResult r = gpu->vk.vkAllocateDescriptorSets(gpu->device, &dai, sets);
    gpu->counters.descriptor_sets += 2;
    if (r != VK_SUCCESS)
        return vks__vk_fail(err, r, "vkAllocateDescriptorSets");
    p->pose_set = sets[0], p->deform_set = sets[1];
    vks__passes_bind(gpu, ms, p);
    return VKS_OK;
}

void vks__passes_bind(vks_gpu *gpu, const vks_gpu_models *ms, vks__passes *p)
{
    /* Without pose parameters (a batch) the shader never reads bindings 8 and 9 (use_params 0),
     * but a statically used binding must hold a valid buffer: the instance table stands in for
     * the parameters, the parents for bind locals a large model set has none of and for the
     * clip table of a pass without clips (binding 10, read only by clip instances), and for the
     * levels of a set without nodes (binding 11, read by the nodes variant only). */
    const vks__buf *pose_bufs[VKS__POSE_BINDINGS] = {&ms->models_buf, &ms->parents, &ms->bones, &ms->meshes,
                                                     &p->insts,       &p->locals,   &p->world,  &p->skin,
                                                     p->use_params ? &p->params : &p->insts,
                                                     ms->binds.buffer ? &ms->binds : &ms->parents,
                                                     p->clip_words ? p->clip_words : &ms->parents,
                                                     ms->levels.buffer ? &ms->levels : &ms->parents};
    write_set(gpu, p->pose_set, pose_bufs, VKS__POSE_BINDINGS);
    const vks__buf *deform_bufs[VKS__DEFORM_BINDINGS] = {&ms->groups_buf, &ms->palette, &ms->pos,     &ms->nrm,
                                                         &ms->infl,       &p->insts,    &p->skin,     &p->out_pos,
                                                         &p->out_nrm,     &p->works,    &ms->morph,
                                                         p->use_params ? &p->world : &p->locals};
    /* binding 11, the morph weights: a batch's host writes them before its locals, a crowd's
       pose pass before the instance's worlds (compute/clip_morph.glsl) */
    write_set(gpu, p->deform_set, deform_bufs, VKS__DEFORM_BINDINGS);
    VkWriteDescriptorSet tw = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    tw.dstSet = p->deform_set;
    tw.dstBinding = VKS__DEFORM_SKIN_TEXELS;
    tw.descriptorCount = 1;
    tw.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
    tw.pTexelBufferView = &p->skin_view;
    gpu->vk.vkUpdateDescriptorSets(gpu->device, 1, &tw, 0, NULL);
}

void vks__passes_destroy(vks_gpu *gpu, vks__passes *p)
{
    vks__buf *bufs[] = {&p->insts, &p->params, &p->locals, &p->world, &p->skin, &p->works, &p->out_pos, &p->out_nrm};
    if (p->skin_view)
        gpu->vk.vkDestroyBufferView(gpu->device, p->skin_view, VKS_VK_ALLOC(gpu));
    for (size_t k = 0; k < sizeof bufs / sizeof *bufs; k++)
        vks__buf_destroy(gpu, bufs[k]);
    memset(p, 0, sizeof *p);
}

void vks__works_commit(vks_gpu *gpu, vks__passes *p, vks__gpu_work *const wl[VKS__DEFORM_VARIANTS],
                       const uint32_t wn[VKS__DEFORM_VARIANTS])
{
    uint32_t at = 0;
    for (int k = 0; k < VKS__DEFORM_VARIANTS; k++) {
        p->work_base[k] = at, p->work_count[k] = wn[k];
        memcpy((vks__gpu_work *)p->works.mapped + at, wl[k], wn[k] * sizeof(vks__gpu_work));
        at += wn[k];
    }
    vks__buf_flush(gpu, &p->works);
}

/* The deform pipeline of influence variant k for p: the plain kernel's, or with the reduction
 * folded in (p->reduce_set), each with or without the morph stage. */
static VkPipeline deform_pipeline(const vks_gpu *gpu, const vks__passes *p, int k)
{
    if (p->plain)
        return p->morph ? gpu->plain_morph_pipeline[k] : gpu->plain_pipeline[k];
    if (p->reduce_set)
        return p->morph ? gpu->deform_reduce_morph_pipeline[k] : gpu->deform_reduce_pipeline[k];
    if (p->set && p->set->own) /* a crowd of the small-model class with a shape of its own */
        return p->morph ? p->set->deform_morph[k] : p->set->deform[k];
    return p->morph ? gpu->deform_morph_pipeline[k] : gpu->deform_pipeline[k];
}

/* The pose pass over instances [first, end) of p. */
static void record_pose(vks_gpu *gpu, VkCommandBuffer cmd, const vks__passes *p, float time, uint32_t first,
                        uint32_t end)
{
    vks__pose_push pp = {end, p->use_params, time, first};
    gpu->vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, gpu->pose_pipeline[p->use_params]);
    gpu->vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, gpu->pose_layout, 0, 1, &p->pose_set, 0, NULL);
    gpu->vk.vkCmdPushConstants(cmd, gpu->pose_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pp, &pp);
    /* serial: an invocation per instance; nodes: a subgroup per instance (compute/pose.comp) */
    uint32_t per_group = gpu->pose_wg;
    if (gpu->shape.pose_nodes)
        per_group = gpu->pose_wg / gpu->info.subgroup_size;
    if (end > first)
        gpu->vk.vkCmdDispatch(cmd, (end - first + per_group - 1) / per_group, 1, 1);
}

/* The deform pass over slice s of p (the whole work list where p is not sliced). */
static void record_deform(vks_gpu *gpu, VkCommandBuffer cmd, const vks__passes *p, uint32_t s)
{
    /* validate's variant binds the reduction's set as set 1 (compute/reduce_fold.glsl) */
    VkPipelineLayout layout = p->reduce_set && !p->plain ? gpu->deform_reduce_layout : gpu->deform_layout;
    VkDescriptorSet sets[2] = {p->deform_set, p->reduce_set};
    gpu->vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0,
                                    layout == gpu->deform_layout ? 1 : 2, sets, 0, NULL);
    /* work items beyond one grid row go to further rows (maxComputeWorkGroupCount[0] may be
     * as low as 65535) */
    uint32_t max_x = gpu->props.limits.maxComputeWorkGroupCount[0];
    if (max_x > 65535)
        max_x = 65535;
    for (int k = 0; k < VKS__DEFORM_VARIANTS; k++) {
        uint32_t base = p->work_base[k], n = p->work_count[k];
        if (p->slices > 1)
            base += p->slice_work[s][k], n = p->slice_work[s + 1][k] - p->slice_work[s][k];
        if (!n)
            continue;
        uint32_t gx = n < max_x ? n : max_x, gy = (n + gx - 1) / gx;
        vks__deform_push dp = {base, n, gx, p->normals, p->morph, {0, 0, 0}};
        gpu->vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, deform_pipeline(gpu, p, k));
        gpu->vk.vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof dp, &dp);
        /* the plain kernel: one workgroup per work item and instance of its run (z; a run has
         * at most instance_tile instances, and no more than the set) */
        uint32_t gz = gpu->instance_tile < p->instance_count ? gpu->instance_tile : p->instance_count;
        gpu->vk.vkCmdDispatch(cmd, gx, gy, p->plain && gz ? gz : 1);
    }
}

static void pose_to_deform(vks_gpu *gpu, VkCommandBuffer cmd)
{
    vks__barrier(gpu, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                 VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
}

void vks__passes_record(vks_gpu *gpu, VkCommandBuffer cmd, const vks__passes *p, float time, VkQueryPool qpool,
                        uint32_t q0)
{
    if (qpool) {
        gpu->vk.vkCmdResetQueryPool(cmd, qpool, q0, 3);
        gpu->vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, qpool, q0);
    }
    uint32_t slices = p->slices > 1 ? p->slices : 1;
    record_pose(gpu, cmd, p, time, 0, slices > 1 ? p->slice_first[1] : p->instance_count);
    pose_to_deform(gpu, cmd);
    if (qpool)
        gpu->vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, qpool, q0 + 1);
    for (uint32_t s = 0; s < slices; s++) {
        record_deform(gpu, cmd, p, s);
        if (s + 1 == slices)
            break;
        /* the next slice's pose beside this deform: other instances' worlds, skins and morph
         * weights than this deform reads; the barrier after it also ends this deform, whose
         * outputs the next one does not touch */
        record_pose(gpu, cmd, p, time, p->slice_first[s + 1], p->slice_first[s + 2]);
        pose_to_deform(gpu, cmd);
    }
    if (qpool)
        gpu->vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, qpool, q0 + 2);
}
