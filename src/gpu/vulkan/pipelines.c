/* Compute pipelines from the SPIR-V that glslc compiled at build time (compute/NAME.comp ->
 * spv/<name>.spv.inc). Variants by specialization constants: workgroup size, the influence
 * count of the deform pass (1..4, and 8 for groups of 5..8: src/gpu/plan.h) and the palette slots that fit in shared memory. The plain
 * baseline kernel takes the first two and the deform pass's layout; its pipelines are made
 * by the first run that asks for it (most contexts never do). The launch shape (workgroup
 * sizes, instance run, shared palette, matrix path) comes from src/gpu/tuning.c. */
#include "gpu_internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/log.h"
#include "gpu/tuning_start.h"
#include "vkskin/version.h"

static const uint32_t pose_spv[] =
#include "pose.spv.inc"
    ;
static const uint32_t deform_spv[] =
#include "deform.spv.inc"
    ;
static const uint32_t plain_spv[] =
#include "plain.spv.inc"
    ;
static const uint32_t reduce_spv[] =
#include "reduce.spv.inc"
    ;
static const uint32_t deform_reduce_spv[] = /* deform.comp with FUSED_REDUCE (validate's) */
#include "deform_reduce.spv.inc"
    ;

static vks_result module(vks_gpu *gpu, const uint32_t *code, size_t size, VkShaderModule *out, vks_error *err)
{
    VkShaderModuleCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    ci.codeSize = size;
    ci.pCode = code;
    VkResult r = gpu->vk.vkCreateShaderModule(gpu->device, &ci, VKS_VK_ALLOC(gpu), out);
    return r == VK_SUCCESS ? VKS_OK : vks__vk_fail(err, r, "vkCreateShaderModule");
}

/* `bindings` storage buffers, then `texels` uniform texel buffers. */
static vks_result layout(vks_gpu *gpu, uint32_t bindings, uint32_t texels, uint32_t push_bytes,
                         VkDescriptorSetLayout *dsl, VkPipelineLayout *pl, vks_error *err)
{
    VkDescriptorSetLayoutBinding b[16];
    memset(b, 0, sizeof b);
    for (uint32_t i = 0; i < bindings + texels; i++) {
        b[i].binding = i;
        b[i].descriptorType = i < bindings ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER : VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
        b[i].descriptorCount = 1;
        b[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    VkDescriptorSetLayoutCreateInfo di = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    di.bindingCount = bindings + texels;
    di.pBindings = b;
    VkResult r = gpu->vk.vkCreateDescriptorSetLayout(gpu->device, &di, VKS_VK_ALLOC(gpu), dsl);
    if (r != VK_SUCCESS)
        return vks__vk_fail(err, r, "vkCreateDescriptorSetLayout");
    VkPushConstantRange pr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
    VkPipelineLayoutCreateInfo li = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    li.setLayoutCount = 1;
    li.pSetLayouts = dsl;
    li.pushConstantRangeCount = 1;
    li.pPushConstantRanges = &pr;
    r = gpu->vk.vkCreatePipelineLayout(gpu->device, &li, VKS_VK_ALLOC(gpu), pl);
    return r == VK_SUCCESS ? VKS_OK : vks__vk_fail(err, r, "vkCreatePipelineLayout");
}

static vks_result pipeline(vks_gpu *gpu, VkShaderModule m, VkPipelineLayout pl, const uint32_t *consts,
                           uint32_t count, VkPipeline *out, vks_error *err)
{
    VkSpecializationMapEntry e[6];
    for (uint32_t i = 0; i < count; i++)
        e[i] = (VkSpecializationMapEntry){i, i * 4, 4};
    VkSpecializationInfo si = {count, e, count * 4, consts};
    VkComputePipelineCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    ci.stage.module = m;
    ci.stage.pName = "main";
    ci.stage.pSpecializationInfo = &si;
    ci.layout = pl;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    VkResult r = gpu->vk.vkCreateComputePipelines(gpu->device, gpu->pipeline_cache, 1, &ci, VKS_VK_ALLOC(gpu), out);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    gpu->pipeline_ms += (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-6;
    gpu->counters.pipelines++;
    return r == VK_SUCCESS ? VKS_OK : vks__vk_fail(err, r, "vkCreateComputePipelines");
}

/* The facts of a device that the tuning table reads. */
vks__device_facts vks__facts_of(const VkPhysicalDeviceProperties *p, uint32_t subgroup_size)
{
    const VkPhysicalDeviceLimits *l = &p->limits;
    return (vks__device_facts){
        .vendor_id = p->vendorID,
        .device_id = p->deviceID,
        .device_type = (uint32_t)p->deviceType,
        .subgroup_size = subgroup_size,
        .max_shared_memory = l->maxComputeSharedMemorySize,
        .max_workgroup_invocations = l->maxComputeWorkGroupInvocations,
        .max_workgroup_size_x = l->maxComputeWorkGroupSize[0],
        .max_texel_buffer_elements = l->maxTexelBufferElements,
        .max_storage_range = l->maxStorageBufferRange,
    };
}

vks__device_facts vks__gpu_facts(const vks_gpu *gpu)
{
    return vks__facts_of(&gpu->props, gpu->info.subgroup_size);
}

/* The launch-shape cache's key of a device: vendor, device, driver, the driver's pipeline-cache
 * UUID and this vkskin's version. */
vks__cache_key vks__cache_key_of(const VkPhysicalDeviceProperties *p)
{
    vks__cache_key k = {p->vendorID, p->deviceID, p->driverVersion, {0}, vks_version_string(), 0};
    memcpy(k.uuid, p->pipelineCacheUUID, 16);
    return k;
}

static void set_shape(vks_gpu *gpu, const vks__launch_shape *s)
{
    gpu->shape = *s;
    gpu->deform_wg = s->deform_wg;
    gpu->pose_wg = s->pose_wg;
    gpu->instance_tile = s->instance_run;
    gpu->palette_cap = s->palette_cap;
    gpu->skin_texels = s->skin_texels;
}

/* The launch shape: the tuning table's, then a shape measured on this device and driver (the
 * cache; tuning_start.h), then vks_gpu_options.shared_palette, then the launch_shape override
 * (src/gpu/tuning.c says why each device gets what it gets). */
static vks_result choose_shape(vks_gpu *gpu, vks_error *err)
{
    vks__device_facts f = vks__gpu_facts(gpu);
    vks__shape_choice c;
    int ok = vks__shape_choose(&f, gpu->cache_dir, &gpu->cache_key, gpu->opt.shared_palette, gpu->opt.launch_shape, &c);
    if (c.warning[0])
        vks__log(&gpu->opt.logger, VKS_LOG_WARNING, "%s", c.warning);
    if (!ok)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/launch_shape", "%s", c.refused);
    set_shape(gpu, &c.shape);
    return VKS_OK;
}

/* A pose pipeline: the shape's workgroup and variant; use_params 0 (a batch) compiles every pose
 * source but the locals table out (compute/pose.comp). */
static vks_result pose_pipeline(vks_gpu *gpu, uint32_t use_params, vks_error *err)
{
    uint32_t pc[3] = {gpu->pose_wg, gpu->shape.pose_nodes, use_params};
    return pipeline(gpu, gpu->pose_module, gpu->pose_layout, pc, 3, &gpu->pose_pipeline[use_params], err);
}

vks_result vks__pose_params_pipeline(vks_gpu *gpu, uint32_t use_params, vks_error *err)
{
    return gpu->pose_pipeline[use_params] ? VKS_OK : pose_pipeline(gpu, use_params, err);
}

/* The pipelines that depend on the launch shape: the batch's pose pass (its workgroup and
 * variant) and deform (workgroup, palette slots, matrix path); the crowds' pose pass and the
 * plain kernel's are made again on demand. */
static vks_result shaped_pipelines(vks_gpu *gpu, vks_error *err)
{
    vks_result res = pose_pipeline(gpu, 0, err);
    return res == VKS_OK ? vks__deform_pipelines(gpu, gpu->deform_variants, err) : res;
}

/* The deform kernel's pipelines (module m, layout pl) that the variants made so far need and
 * that are not made yet, at shape s's constants. */
static vks_result deform_set(vks_gpu *gpu, VkShaderModule m, VkPipelineLayout pl, VkPipeline *plain,
                             VkPipeline *morphing, const vks__launch_shape *s, vks_error *err)
{
    vks_result res = VKS_OK;
    for (uint32_t k = 0; k < VKS__DEFORM_VARIANTS && res == VKS_OK; k++)
        for (uint32_t morph = 0; morph < 2 && res == VKS_OK; morph++) {
            VkPipeline *p = morph ? &morphing[k] : &plain[k];
            if (!(gpu->deform_variants >> k & 1u) || *p || (morph && !(gpu->deform_variants & VKS__MORPH_KERNELS)))
                continue;
            uint32_t c[6] = {s->deform_wg, vks__variant_slots(k), s->palette_cap, s->skin_texels, s->skip_zeros,
                             morph};
            res = pipeline(gpu, m, pl, c, 6, p, err);
        }
    return res;
}

vks_result vks__deform_pipelines(vks_gpu *gpu, uint32_t mask, vks_error *err)
{
    gpu->deform_variants |= mask & (((1u << VKS__DEFORM_VARIANTS) - 1u) | VKS__MORPH_KERNELS);
    return deform_set(gpu, gpu->deform_module, gpu->deform_layout, gpu->deform_pipeline, gpu->deform_morph_pipeline,
                      &gpu->shape, err);
}

/* 1 when shapes a and b compile the same deform pipelines (the specialization constants). */
static int same_pipelines(const vks__launch_shape *a, const vks__launch_shape *b)
{
    return a->deform_wg == b->deform_wg && a->palette_cap == b->palette_cap && a->skin_texels == b->skin_texels &&
           a->skip_zeros == b->skip_zeros;
}

static void destroy_set(vks_gpu *gpu, vks__shape_set *set)
{
    for (int k = 0; k < VKS__DEFORM_VARIANTS; k++) {
        if (set->deform[k])
            gpu->vk.vkDestroyPipeline(gpu->device, set->deform[k], VKS_VK_ALLOC(gpu));
        if (set->deform_morph[k])
            gpu->vk.vkDestroyPipeline(gpu->device, set->deform_morph[k], VKS_VK_ALLOC(gpu));
        set->deform[k] = set->deform_morph[k] = VK_NULL_HANDLE;
    }
    set->own = 0;
}

void vks__small_set_replace(vks_gpu *gpu, const vks__launch_shape *s)
{
    destroy_set(gpu, &gpu->small);
    gpu->small.shape = *s;
}

vks_result vks__shape_set_for(vks_gpu *gpu, uint32_t vertices, const vks__shape_set **out, vks_error *err)
{
    vks__shape_set *set = &gpu->small;
    const vks__launch_shape *s = &set->shape;
    *out = NULL;
    if (!vks__small_model(vertices) || (same_pipelines(s, &gpu->shape) && s->instance_run == gpu->shape.instance_run &&
                                        s->slices == gpu->shape.slices && s->slice_min == gpu->shape.slice_min))
        return VKS_OK;
    set->own = !same_pipelines(s, &gpu->shape);
    vks_result r = VKS_OK; /* own 0: the context's pipelines, the class's work cut */
    if (set->own)
        r = deform_set(gpu, gpu->deform_module, gpu->deform_layout, set->deform, set->deform_morph, s, err);
    *out = r == VKS_OK ? set : NULL;
    return r;
}

/* Set 0 the deform pass's, set 1 the reduction's (its result words at binding 2), the deform
 * pass's push constants: so a deform set bound for the plain kernels stays bound. */
static vks_result deform_reduce_layout(vks_gpu *gpu, vks_error *err)
{
    VkDescriptorSetLayout sets[2] = {gpu->deform_dsl, gpu->reduce_dsl};
    VkPushConstantRange pr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(vks__deform_push)};
    VkPipelineLayoutCreateInfo li = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    li.setLayoutCount = 2;
    li.pSetLayouts = sets;
    li.pushConstantRangeCount = 1;
    li.pPushConstantRanges = &pr;
    VkResult r = gpu->vk.vkCreatePipelineLayout(gpu->device, &li, VKS_VK_ALLOC(gpu), &gpu->deform_reduce_layout);
    return r == VK_SUCCESS ? VKS_OK : vks__vk_fail(err, r, "vkCreatePipelineLayout");
}

vks_result vks__deform_reduce_pipelines(vks_gpu *gpu, vks_error *err)
{
    vks_result res = vks__reduce_pipeline(gpu, err); /* subgroup arithmetic, and reduce_dsl */
    if (res == VKS_OK && !gpu->deform_reduce_module)
        res = module(gpu, deform_reduce_spv, sizeof deform_reduce_spv, &gpu->deform_reduce_module, err);
    if (res == VKS_OK && !gpu->deform_reduce_layout)
        res = deform_reduce_layout(gpu, err);
    if (res == VKS_OK)
        res = deform_set(gpu, gpu->deform_reduce_module, gpu->deform_reduce_layout, gpu->deform_reduce_pipeline,
                         gpu->deform_reduce_morph_pipeline, &gpu->shape, err);
    return res;
}

static void destroy_shaped(vks_gpu *gpu)
{
    VkDevice d = gpu->device;
    for (int k = 0; k < VKS__DEFORM_VARIANTS; k++) {
        if (gpu->deform_pipeline[k])
            gpu->vk.vkDestroyPipeline(d, gpu->deform_pipeline[k], VKS_VK_ALLOC(gpu));
        if (gpu->plain_pipeline[k])
            gpu->vk.vkDestroyPipeline(d, gpu->plain_pipeline[k], VKS_VK_ALLOC(gpu));
        if (gpu->deform_morph_pipeline[k])
            gpu->vk.vkDestroyPipeline(d, gpu->deform_morph_pipeline[k], VKS_VK_ALLOC(gpu));
        if (gpu->plain_morph_pipeline[k])
            gpu->vk.vkDestroyPipeline(d, gpu->plain_morph_pipeline[k], VKS_VK_ALLOC(gpu));
        if (gpu->deform_reduce_pipeline[k])
            gpu->vk.vkDestroyPipeline(d, gpu->deform_reduce_pipeline[k], VKS_VK_ALLOC(gpu));
        if (gpu->deform_reduce_morph_pipeline[k])
            gpu->vk.vkDestroyPipeline(d, gpu->deform_reduce_morph_pipeline[k], VKS_VK_ALLOC(gpu));
        gpu->deform_pipeline[k] = gpu->plain_pipeline[k] = VK_NULL_HANDLE;
        gpu->deform_morph_pipeline[k] = gpu->plain_morph_pipeline[k] = VK_NULL_HANDLE;
        gpu->deform_reduce_pipeline[k] = gpu->deform_reduce_morph_pipeline[k] = VK_NULL_HANDLE; /* remade at the
                                                                                     next validate run */
    }
    for (int k = 0; k < 3; k++) {
        if (gpu->pose_pipeline[k])
            gpu->vk.vkDestroyPipeline(d, gpu->pose_pipeline[k], VKS_VK_ALLOC(gpu));
        gpu->pose_pipeline[k] = VK_NULL_HANDLE;
    }
}

vks_result vks__pipelines_reshape(vks_gpu *gpu, const vks__launch_shape *s, vks_error *err)
{
    gpu->vk.vkQueueWaitIdle(gpu->queue);
    /* a crowd may record with them again */
    int crowds = gpu->pose_pipeline[1] != VK_NULL_HANDLE, layered = gpu->pose_pipeline[2] != VK_NULL_HANDLE;
    destroy_shaped(gpu);
    set_shape(gpu, s);
    if (gpu->small.shape.source && strcmp(gpu->small.shape.source, "table") == 0) {
        /* not measured for small models: the class follows the context's deform fields */
        vks__launch_shape follow = gpu->small.shape;
        follow.deform_wg = s->deform_wg, follow.instance_run = s->instance_run, follow.palette_cap = s->palette_cap;
        follow.skin_texels = s->skin_texels, follow.skip_zeros = s->skip_zeros;
        follow.pose_wg = s->pose_wg, follow.pose_nodes = s->pose_nodes;
        vks__small_set_replace(gpu, &follow);
    }
    vks_result res = shaped_pipelines(gpu, err);
    if (res == VKS_OK && crowds)
        res = vks__pose_params_pipeline(gpu, 1, err);
    return res == VKS_OK && layered ? vks__pose_params_pipeline(gpu, 2, err) : res;
}

/* The driver's compiled pipelines from an earlier process (never required: a missing or
 * foreign blob only costs the compile; the driver checks the header it wrote). */
static void pipeline_cache_open(vks_gpu *gpu)
{
    VkPipelineCacheCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    void *blob = NULL;
    size_t size = 0;
    if (gpu->cache_dir[0]) {
        char path[4200], why[4400] = "";
        vks__cache_path(gpu->cache_dir, &gpu->cache_key, "pipelines.bin", path, sizeof path);
        blob = vks__cache_read_blob(path, (size_t)256 << 20, &size, why, sizeof why);
        if (why[0])
            vks__log(&gpu->opt.logger, VKS_LOG_WARNING, "%s", why);
        /* Vulkan's header: its length, version 1, then vendor, device and the cache UUID. */
        if (blob && (size < 32 || memcmp((const char *)blob + 16, gpu->props.pipelineCacheUUID, 16) != 0)) {
            vks__log(&gpu->opt.logger, VKS_LOG_WARNING, "%s: not this driver's pipeline cache (ignored)", path);
            free(blob);
            blob = NULL, size = 0;
        }
    }
    ci.initialDataSize = size;
    ci.pInitialData = blob;
    if (gpu->vk.vkCreatePipelineCache(gpu->device, &ci, VKS_VK_ALLOC(gpu), &gpu->pipeline_cache) != VK_SUCCESS)
        gpu->pipeline_cache = VK_NULL_HANDLE; /* compile without one */
    gpu->pipeline_cache_loaded = size;
    free(blob);
}

/* Writes the pipeline cache back when the driver's copy grew (temporary and rename). */
static void pipeline_cache_close(vks_gpu *gpu)
{
    if (!gpu->pipeline_cache)
        return;
    size_t size = 0;
    if (gpu->cache_dir[0] && gpu->vk.vkGetPipelineCacheData(gpu->device, gpu->pipeline_cache, &size, NULL) ==
                                 VK_SUCCESS &&
        size > gpu->pipeline_cache_loaded) {
        void *data = malloc(size);
        if (data && gpu->vk.vkGetPipelineCacheData(gpu->device, gpu->pipeline_cache, &size, data) == VK_SUCCESS) {
            char path[4200];
            vks__cache_path(gpu->cache_dir, &gpu->cache_key, "pipelines.bin", path, sizeof path);
            vks__cache_write_blob(gpu->cache_dir, path, data, size);
        }
        free(data);
    }
    gpu->vk.vkDestroyPipelineCache(gpu->device, gpu->pipeline_cache, VKS_VK_ALLOC(gpu));
    gpu->pipeline_cache = VK_NULL_HANDLE;
}

void vks__shape_info_of(const vks__launch_shape *s, vks_gpu_shape_info *out)
{
    out->deform_workgroup = s->deform_wg;
    out->pose_workgroup = s->pose_wg;
    out->instance_run = s->instance_run;
    out->shared_palette_slots = s->palette_cap;
    out->skin_texels = (int)s->skin_texels;
    vks__launch_shape_format(s, out->text, sizeof out->text);
    out->source = s->source;
    out->reason = s->reason;
    out->chunk_bytes = s->chunk_bytes;
}

void vks_gpu_launch_shape(const vks_gpu *gpu, vks_gpu_shape_info *out)
{
    if (!out)
        return;
    memset(out, 0, sizeof *out);
    if (!gpu)
        return;
    const vks__launch_shape *s = &gpu->shape;
    vks__shape_info_of(s, out);
    out->pipeline_ms = gpu->pipeline_ms;
    if (gpu->cache_dir[0])
        vks__cache_path(gpu->cache_dir, &gpu->cache_key, "launch-shape.txt", out->cache_path, sizeof out->cache_path);
    /* as the calibration itself decides (tune.c): so nothing calibrates while a crowd of the
       context lives, its work lists being cut for the shape it was made with */
    out->calibrates_at_first_use = vks__gpu_first_use_open(gpu);
}

void vks__small_launch_shape(const vks_gpu *gpu, vks_gpu_shape_info *out)
{
    memset(out, 0, sizeof *out);
    vks__shape_info_of(&gpu->small.shape, out);
    out->pipeline_ms = gpu->pipeline_ms;
    vks__cache_key key = gpu->cache_key;
    key.size_class = 1;
    if (gpu->cache_dir[0])
        vks__cache_path(gpu->cache_dir, &key, vks__cache_shape_entry(&key), out->cache_path, sizeof out->cache_path);
    out->calibrates_at_first_use = vks__gpu_first_use_open_for(gpu, &gpu->small.shape, gpu->small_calibrated);
}

void vks__launch_shape_for_model(const vks_gpu *gpu, uint32_t vertices, vks_gpu_shape_info *out)
{
    if (vks__small_model(vertices))
        vks__small_launch_shape(gpu, out);
    else
        vks_gpu_launch_shape(gpu, out);
}

vks_result vks__pipelines_create(vks_gpu *gpu, vks_error *err)
{
    /* llvmpipe counts the iterations of every loop of an invocation together and leaves all of
     * them once 65535 have run (LP_MAX_TGSI_LOOP_ITERATIONS), so a pose pass over a longer
     * skeleton would silently stop early. The shaders unroll their fixed loops; the node, bone
     * and key-search loops are bounded per model (vks__check_pose_loops). */
    gpu->loop_limit = gpu->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU && gpu->props.vendorID == 0x10005u ? 65535u : 0u;
    char why[800] = "";
    if (!vks__cache_dir_usable(gpu->opt.cache_dir, gpu->cache_dir, sizeof gpu->cache_dir, why, sizeof why) && why[0])
        vks__log(&gpu->opt.logger, VKS_LOG_WARNING, "%s", why);
    gpu->cache_key = vks__cache_key_of(&gpu->props);
    vks_result res = choose_shape(gpu, err);
    if (res != VKS_OK)
        return res;
    vks__device_facts f = vks__gpu_facts(gpu);
    char warning[1024];
    gpu->small.shape = vks__small_shape_choose(&f, gpu->cache_dir, &gpu->cache_key, &gpu->shape,
                                               gpu->opt.launch_shape, warning, sizeof warning);
    if (warning[0])
        vks__log(&gpu->opt.logger, VKS_LOG_WARNING, "%s", warning);
    pipeline_cache_open(gpu);
    res = module(gpu, pose_spv, sizeof pose_spv, &gpu->pose_module, err);
    if (res == VKS_OK)
        res = module(gpu, deform_spv, sizeof deform_spv, &gpu->deform_module, err);
    if (res == VKS_OK)
        res = layout(gpu, VKS__POSE_BINDINGS, 0, sizeof(vks__pose_push), &gpu->pose_dsl, &gpu->pose_layout, err);
    if (res == VKS_OK)
        res = layout(gpu, VKS__DEFORM_BINDINGS, 1, sizeof(vks__deform_push), &gpu->deform_dsl, &gpu->deform_layout,
                     err);
    if (res == VKS_OK)
        res = shaped_pipelines(gpu, err);
    return res;
}

vks_result vks__plain_pipelines(vks_gpu *gpu, vks_error *err)
{
    vks_result res = VKS_OK;
    if (!gpu->plain_module)
        res = module(gpu, plain_spv, sizeof plain_spv, &gpu->plain_module, err);
    for (uint32_t k = 0; k < VKS__DEFORM_VARIANTS && res == VKS_OK; k++)
        for (uint32_t morph = 0; morph < 2 && res == VKS_OK; morph++) {
            VkPipeline *p = morph ? &gpu->plain_morph_pipeline[k] : &gpu->plain_pipeline[k];
            if (!(gpu->deform_variants >> k & 1u) || *p || (morph && !(gpu->deform_variants & VKS__MORPH_KERNELS)))
                continue;
            uint32_t c[3] = {gpu->deform_wg, vks__variant_slots(k), morph};
            res = pipeline(gpu, gpu->plain_module, gpu->deform_layout, c, 3, p, err);
        }
    return res;
}

/* The verdict's reduction (compute/reduce.comp): three storage buffers, made by the first run
 * that asks for it (validate); no shape of its own to tune, it moves a chunk's bytes once. */
vks_result vks__reduce_pipeline(vks_gpu *gpu, vks_error *err)
{
    if (gpu->reduce_pipeline)
        return VKS_OK;
    /* subgroup arithmetic in compute: every desktop driver and lavapipe; Vulkan 1.1 promises
     * only the basic subgroup operations */
    VkPhysicalDeviceSubgroupProperties sg = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    p2.pNext = &sg;
    gpu->inst.vkGetPhysicalDeviceProperties2(gpu->physical, &p2);
    if (!(sg.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) || !(sg.supportedOperations & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT))
        return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "gpu/reduce",
                             "the device has no subgroup arithmetic in compute shaders");
    vks_result res = VKS_OK;
    if (!gpu->reduce_module)
        res = module(gpu, reduce_spv, sizeof reduce_spv, &gpu->reduce_module, err);
    if (res == VKS_OK && !gpu->reduce_layout)
        res = layout(gpu, 3, 0, 3 * sizeof(uint32_t), &gpu->reduce_dsl, &gpu->reduce_layout, err);
    if (res == VKS_OK)
        res = pipeline(gpu, gpu->reduce_module, gpu->reduce_layout, NULL, 0, &gpu->reduce_pipeline, err);
    return res;
}

void vks__pipelines_destroy(vks_gpu *gpu)
{
    VkDevice d = gpu->device;
    destroy_shaped(gpu);
    destroy_set(gpu, &gpu->small);
    if (gpu->deform_reduce_layout)
        gpu->vk.vkDestroyPipelineLayout(d, gpu->deform_reduce_layout, VKS_VK_ALLOC(gpu));
    if (gpu->deform_reduce_module)
        gpu->vk.vkDestroyShaderModule(d, gpu->deform_reduce_module, VKS_VK_ALLOC(gpu));
    if (gpu->reduce_pipeline)
        gpu->vk.vkDestroyPipeline(d, gpu->reduce_pipeline, VKS_VK_ALLOC(gpu));
    if (gpu->reduce_layout)
        gpu->vk.vkDestroyPipelineLayout(d, gpu->reduce_layout, VKS_VK_ALLOC(gpu));
    if (gpu->reduce_dsl)
        gpu->vk.vkDestroyDescriptorSetLayout(d, gpu->reduce_dsl, VKS_VK_ALLOC(gpu));
    if (gpu->reduce_module)
        gpu->vk.vkDestroyShaderModule(d, gpu->reduce_module, VKS_VK_ALLOC(gpu));
    pipeline_cache_close(gpu);
    if (gpu->pose_layout)
        gpu->vk.vkDestroyPipelineLayout(d, gpu->pose_layout, VKS_VK_ALLOC(gpu));
    if (gpu->deform_layout)
        gpu->vk.vkDestroyPipelineLayout(d, gpu->deform_layout, VKS_VK_ALLOC(gpu));
    if (gpu->pose_dsl)
        gpu->vk.vkDestroyDescriptorSetLayout(d, gpu->pose_dsl, VKS_VK_ALLOC(gpu));
    if (gpu->deform_dsl)
        gpu->vk.vkDestroyDescriptorSetLayout(d, gpu->deform_dsl, VKS_VK_ALLOC(gpu));
    if (gpu->pose_module)
        gpu->vk.vkDestroyShaderModule(d, gpu->pose_module, VKS_VK_ALLOC(gpu));
    if (gpu->deform_module)
        gpu->vk.vkDestroyShaderModule(d, gpu->deform_module, VKS_VK_ALLOC(gpu));
    if (gpu->plain_module)
        gpu->vk.vkDestroyShaderModule(d, gpu->plain_module, VKS_VK_ALLOC(gpu));
}
