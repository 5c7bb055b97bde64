/* The renderer's objects, made once: the offscreen color and depth images with their render
 * pass and framebuffer, the graphics pipeline (src/render/sheet.vert and sheet.frag, compiled
 * by glslc at build time into spv/sheet_vert.spv.inc and spv/sheet_frag.spv.inc), one index
 * buffer holding every model's triangles, and the readback buffer of the image. */
#include "render_internal.h"

#include <stdlib.h>
#include <string.h>

static const uint32_t vert_spv[] =
#include "sheet_vert.spv.inc"
    ;
static const uint32_t frag_spv[] =
#include "sheet_frag.spv.inc"
    ;

enum { DEFAULT_WIDTH = 640, DEFAULT_HEIGHT = 360, MAX_SIDE = 8192 };
#define DEPTH_FORMAT VK_FORMAT_D16_UNORM /* a depth attachment every device supports */
#define COLOR_FORMAT VK_FORMAT_R8G8B8A8_UNORM

static vks_result fail(vks_error *err, vks_result code, const char *msg)
{
    return vks_error_set(err, code, VKS_NO_OFFSET, "render", msg);
}

/* A device-local memory type for an image (any type the image accepts when none is). */
static vks_result image_memory(const vks__vk_device *dev, VkImage image, VkDeviceMemory *out, vks_error *err)
{
    VkMemoryRequirements req;
    dev->vk->vkGetImageMemoryRequirements(dev->device, image, &req);
    int type = -1;
    for (uint32_t i = 0; i < dev->mem->memoryTypeCount && type < 0; i++)
        if ((req.memoryTypeBits >> i & 1) &&
            (dev->mem->memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT))
            type = (int)i;
    for (uint32_t i = 0; i < dev->mem->memoryTypeCount && type < 0; i++)
        if (req.memoryTypeBits >> i & 1)
            type = (int)i;
    if (type < 0)
        return fail(err, VKS_ERR_VULKAN, "no memory type for the render target");
    VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = (uint32_t)type;
    VkResult vr = dev->vk->vkAllocateMemory(dev->device, &ai, dev->alloc, out);
    if (vr != VK_SUCCESS)
        return vks__vk_fail(err, vr, "vkAllocateMemory (render target)");
    vr = dev->vk->vkBindImageMemory(dev->device, image, *out, 0);
    return vr == VK_SUCCESS ? VKS_OK : vks__vk_fail(err, vr, "vkBindImageMemory");
}

static vks_result target(vks_render *r, VkFormat format, VkImageUsageFlags usage, VkImageAspectFlags aspect,
                         VkImage *image, VkDeviceMemory *mem, VkImageView *view, vks_error *err)
{
    const vks__vk_device *dev = &r->dev;
    VkImageCreateInfo ii = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ii.imageType = VK_IMAGE_TYPE_2D;
    ii.format = format;
    ii.extent = (VkExtent3D){r->desc.width, r->desc.height, 1};
    ii.mipLevels = ii.arrayLayers = 1;
    ii.samples = VK_SAMPLE_COUNT_1_BIT;
    ii.tiling = VK_IMAGE_TILING_OPTIMAL;
    ii.usage = usage;
    ii.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    VkResult vr = dev->vk->vkCreateImage(dev->device, &ii, dev->alloc, image);
    if (vr != VK_SUCCESS)
        return vks__vk_fail(err, vr, "vkCreateImage");
    vks_result res = image_memory(dev, *image, mem, err);
    if (res != VKS_OK)
        return res;
    VkImageViewCreateInfo vi = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vi.image = *image;
    vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vi.format = format;
    vi.subresourceRange = (VkImageSubresourceRange){aspect, 0, 1, 0, 1};
    vr = dev->vk->vkCreateImageView(dev->device, &vi, dev->alloc, view);
    return vr == VK_SUCCESS ? VKS_OK : vks__vk_fail(err, vr, "vkCreateImageView");
}

/* Color cleared (or, keep: loaded as the previous draw left it for its copy) then kept and
 * left ready for the copy; depth cleared and dropped. The two passes differ only in load
 * operations and the color's initial layout, so they are compatible: one framebuffer and one
 * pipeline serve both. */
static vks_result make_pass(vks_render *r, int keep, VkRenderPass *out, vks_error *err)
{
    VkAttachmentDescription at[2] = {{0}, {0}};
    at[0].format = COLOR_FORMAT;
    at[0].samples = VK_SAMPLE_COUNT_1_BIT;
    at[0].loadOp = keep ? VK_ATTACHMENT_LOAD_OP_LOAD : VK_ATTACHMENT_LOAD_OP_CLEAR;
    at[0].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    at[0].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    at[0].stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    at[0].initialLayout = keep ? VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL : VK_IMAGE_LAYOUT_UNDEFINED;
    at[0].finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    at[1] = at[0];
    at[1].format = DEPTH_FORMAT;
    at[1].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    at[1].storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    at[1].initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    at[1].finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
    VkAttachmentReference color = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkAttachmentReference depth = {1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
    VkSubpassDescription sub = {0};
    sub.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    sub.colorAttachmentCount = 1;
    sub.pColorAttachments = &color;
    sub.pDepthStencilAttachment = &depth;
    /* in: the previous draw's color writes and copy (transfer read) and depth tests are over
     * before the clears or the load; out: the color writes are done before the copy. The same
     * in both passes: the validation layer counts dependencies in the passes' compatibility */
    VkSubpassDependency dep[2] = {{0}, {0}};
    dep[0].srcSubpass = VK_SUBPASS_EXTERNAL;
    dep[0].dstSubpass = 0;
    dep[0].srcStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
                          VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
    dep[0].dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT;
    dep[0].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
    dep[0].dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT |
                           VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT;
    dep[1].srcSubpass = 0;
    dep[1].dstSubpass = VK_SUBPASS_EXTERNAL;
    dep[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    dep[1].dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
    dep[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    dep[1].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    VkRenderPassCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
    ci.attachmentCount = 2;
    ci.pAttachments = at;
    ci.subpassCount = 1;
    ci.pSubpasses = &sub;
    ci.dependencyCount = 2;
    ci.pDependencies = dep;
    VkResult vr = r->dev.vk->vkCreateRenderPass(r->dev.device, &ci, r->dev.alloc, out);
    return vr == VK_SUCCESS ? VKS_OK : vks__vk_fail(err, vr, "vkCreateRenderPass");
}

static vks_result render_pass(vks_render *r, vks_error *err)
{
    vks_result res = make_pass(r, 0, &r->pass, err);
    if (res == VKS_OK)
        res = make_pass(r, 1, &r->pass_keep, err);
    if (res != VKS_OK)
        return res;
    VkImageView views[2] = {r->color_view, r->depth_view};
    VkFramebufferCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    fi.renderPass = r->pass;
    fi.attachmentCount = 2;
    fi.pAttachments = views;
    fi.width = r->desc.width;
    fi.height = r->desc.height;
    fi.layers = 1;
    VkResult vr = r->dev.vk->vkCreateFramebuffer(r->dev.device, &fi, r->dev.alloc, &r->framebuffer);
    return vr == VK_SUCCESS ? VKS_OK : vks__vk_fail(err, vr, "vkCreateFramebuffer");
}

static vks_result shader(const vks__vk_device *dev, const uint32_t *code, size_t size, VkShaderModule *out, vks_error *err)
{
    VkShaderModuleCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    ci.codeSize = size;
    ci.pCode = code;
    VkResult vr = dev->vk->vkCreateShaderModule(dev->device, &ci, dev->alloc, out);
    return vr == VK_SUCCESS ? VKS_OK : vks__vk_fail(err, vr, "vkCreateShaderModule (render)");
}

/* Positions at binding 0 and normals at binding 1, tightly packed float3 (the crowd's
 * streams and the host buffers alike); viewport and scissor set per cell. */
static vks_result pipeline(vks_render *r, vks_error *err)
{
    const vks__vk_device *dev = &r->dev;
    vks_result res = shader(dev, vert_spv, sizeof vert_spv, &r->vert, err);
    if (res == VKS_OK)
        res = shader(dev, frag_spv, sizeof frag_spv, &r->frag, err);
    if (res != VKS_OK)
        return res;
    VkPushConstantRange push = {VK_SHADER_STAGE_VERTEX_BIT, 0, 32 * sizeof(float)};
    VkPipelineLayoutCreateInfo li = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    li.pushConstantRangeCount = 1;
    li.pPushConstantRanges = &push;
    VkResult vr = dev->vk->vkCreatePipelineLayout(dev->device, &li, dev->alloc, &r->layout);
    if (vr != VK_SUCCESS)
        return vks__vk_fail(err, vr, "vkCreatePipelineLayout (render)");
    VkPipelineShaderStageCreateInfo st[2] = {{.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO},
                                             {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO}};
    st[0].stage = VK_SHADER_STAGE_VERTEX_BIT, st[0].module = r->vert, st[0].pName = "main";
    st[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT, st[1].module = r->frag, st[1].pName = "main";
    /* binding 2: a colour per vertex (RGBA8, heat maps); alpha 0 (the zeros buffer) keeps the base */
    VkVertexInputBindingDescription vb[3] = {{0, 12, VK_VERTEX_INPUT_RATE_VERTEX}, {1, 12, VK_VERTEX_INPUT_RATE_VERTEX},
                                             {2, 4, VK_VERTEX_INPUT_RATE_VERTEX}};
    VkVertexInputAttributeDescription va[3] = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},
                                               {1, 1, VK_FORMAT_R32G32B32_SFLOAT, 0},
                                               {2, 2, VK_FORMAT_R8G8B8A8_UNORM, 0}};
    VkPipelineVertexInputStateCreateInfo vi = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    vi.vertexBindingDescriptionCount = 3, vi.pVertexBindingDescriptions = vb;
    vi.vertexAttributeDescriptionCount = 3, vi.pVertexAttributeDescriptions = va;
    VkPipelineInputAssemblyStateCreateInfo ia = {.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkPipelineViewportStateCreateInfo vp = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    vp.viewportCount = vp.scissorCount = 1;
    VkPipelineRasterizationStateCreateInfo rs = {.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    rs.polygonMode = VK_POLYGON_MODE_FILL;
    rs.cullMode = VK_CULL_MODE_NONE; /* windings differ between formats; the shader lights both sides */
    rs.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
    rs.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo ms = {.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineDepthStencilStateCreateInfo ds = {.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
    ds.depthTestEnable = ds.depthWriteEnable = VK_TRUE;
    ds.depthCompareOp = VK_COMPARE_OP_LESS;
    VkPipelineColorBlendAttachmentState ba = {0};
    ba.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT |
                        VK_COLOR_COMPONENT_A_BIT;
    VkPipelineColorBlendStateCreateInfo cb = {.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    cb.attachmentCount = 1, cb.pAttachments = &ba;
    VkDynamicState dyn[2] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo dy = {.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
    dy.dynamicStateCount = 2, dy.pDynamicStates = dyn;
    VkGraphicsPipelineCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
    ci.stageCount = 2, ci.pStages = st;
    ci.pVertexInputState = &vi, ci.pInputAssemblyState = &ia, ci.pViewportState = &vp;
    ci.pRasterizationState = &rs, ci.pMultisampleState = &ms, ci.pDepthStencilState = &ds;
    ci.pColorBlendState = &cb, ci.pDynamicState = &dy;
    ci.layout = r->layout, ci.renderPass = r->pass, ci.subpass = 0;
    vr = dev->vk->vkCreateGraphicsPipelines(dev->device, VK_NULL_HANDLE, 1, &ci, dev->alloc, &r->pipeline);
    return vr == VK_SUCCESS ? VKS_OK : vks__vk_fail(err, vr, "vkCreateGraphicsPipelines");
}

/* Every model's triangles, as global vertex numbers, into one device-local index buffer
 * through a staging buffer: uploaded once, bound per cell with the model's offset. */
static vks_result index_buffer(vks_render *r, vks_error *err)
{
    uint64_t total = 0;
    for (uint32_t m = 0; m < r->model_count; m++) {
        const vks_skin *s = r->desc.skins[m];
        r->models[m].first_index = (uint32_t)total;
        r->models[m].index_count = s->triangle_count * 3;
        r->models[m].vertex_count = s->vertex_count;
        vks__camera_fit(s, &r->models[m].camera);
        total += (uint64_t)s->triangle_count * 3;
    }
    if (total > UINT32_MAX / 4)
        return fail(err, VKS_ERR_LIMIT, "too many triangles for one index buffer");
    VkDeviceSize bytes = total * 4;
    vks__buf stage;
    vks_result res = vks__buf_create(r->gpu, bytes, VKS__MEM_UPLOAD, &stage, err);
    if (res != VKS_OK)
        return res;
    uint32_t *dst = stage.mapped;
    for (uint32_t m = 0; m < r->model_count; m++) {
        const vks_skin *s = r->desc.skins[m];
        for (uint32_t me = 0; me < s->mesh_count; me++) {
            const vks_mesh *mesh = &s->meshes[me];
            for (uint32_t t = mesh->first_triangle; t < mesh->first_triangle + mesh->triangle_count; t++)
                for (int k = 0; k < 3; k++)
                    dst[(size_t)r->models[m].first_index + 3 * t + k] = mesh->first_vertex + s->triangles[t][k];
        }
    }
    vks__buf_flush(r->gpu, &stage);
    res = vks__buf_create_usage(r->gpu, bytes, VKS__MEM_DEVICE, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, &r->indices, err);
    if (res == VKS_OK) {
        vks__oneshot_begin(r->gpu, &r->own);
        VkBufferCopy copy = {0, 0, bytes};
        r->dev.vk->vkCmdCopyBuffer(r->own.cmd, stage.buffer, r->indices.buffer, 1, &copy);
        vks__barrier(r->gpu, r->own.cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                     VK_PIPELINE_STAGE_VERTEX_INPUT_BIT, VK_ACCESS_INDEX_READ_BIT);
        res = vks__oneshot_submit(r->gpu, &r->own, err);
    }
    vks__buf_destroy(r->gpu, &stage);
    return res;
}

static vks_result check_desc(const vks__vk_device *dev, const vks_render_desc *d, vks_error *err)
{
    if (!(dev->queue_flags & VK_QUEUE_GRAPHICS_BIT)) {
        if (dev->adopted)
            return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "render",
                                 "the host's queue family %u of \"%s\" has no graphics", dev->queue_family,
                                 dev->info->name);
        if (dev->info->render_family == UINT32_MAX)
            return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "render",
                                 "\"%s\" has no queue family with graphics (the context's, %u, computes only)",
                                 dev->info->name, dev->queue_family);
        return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "render",
                             "the context's queue family %u of \"%s\" has no graphics (family %u has: create the "
                             "context with vks_gpu_options.will_render)", dev->queue_family, dev->info->name,
                             dev->info->render_family);
    }
    if (!d->skins || d->skin_count == 0)
        return fail(err, VKS_ERR_INVALID, "vks_render_desc.skins must name at least one model");
    for (uint32_t m = 0; m < d->skin_count; m++)
        if (!d->skins[m])
            return fail(err, VKS_ERR_INVALID, "vks_render_desc.skins has a NULL model");
    if (d->width > MAX_SIDE || d->height > MAX_SIDE)
        return fail(err, VKS_ERR_LIMIT, "vks_render_desc.width and height must be at most 8192");
    return VKS_OK;
}

vks_result vks_render_create(vks_gpu *gpu, const vks_render_desc *desc, vks_render **out, vks_error *err)
{
    *out = NULL;
    const vks__vk_device dev = vks__device_of(gpu);
    vks_result res = check_desc(&dev, desc, err);
    if (res != VKS_OK)
        return res;
    vks_render *r = calloc(1, sizeof *r);
    if (!r || !(r->models = calloc(desc->skin_count, sizeof *r->models))) {
        free(r);
        return fail(err, VKS_ERR_NOMEM, "out of memory for the renderer");
    }
    r->gpu = gpu;
    r->dev = dev;
    r->desc = *desc;
    r->desc.width = desc->width ? desc->width : DEFAULT_WIDTH;
    r->desc.height = desc->height ? desc->height : DEFAULT_HEIGHT;
    r->desc.background = desc->background ? desc->background : 0x262a30ffu;
    r->model_count = desc->skin_count;
    uint32_t most = 1;
    for (uint32_t m = 0; m < r->model_count; m++)
        most = desc->skins[m]->vertex_count > most ? desc->skins[m]->vertex_count : most;
    VkDeviceSize image_bytes = (VkDeviceSize)r->desc.width * r->desc.height * 4;
    if ((res = vks__oneshot_create(gpu, &r->own, err)) != VKS_OK ||
        (res = target(r, COLOR_FORMAT, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                      VK_IMAGE_ASPECT_COLOR_BIT, &r->color, &r->color_mem, &r->color_view, err)) != VKS_OK ||
        (res = target(r, DEPTH_FORMAT, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_IMAGE_ASPECT_DEPTH_BIT,
                      &r->depth, &r->depth_mem, &r->depth_view, err)) != VKS_OK ||
        (res = render_pass(r, err)) != VKS_OK || (res = pipeline(r, err)) != VKS_OK ||
        (res = vks__buf_create(gpu, image_bytes, VKS__MEM_READBACK, &r->readback, err)) != VKS_OK ||
        (res = vks__buf_create_usage(gpu, (VkDeviceSize)most * 12, VKS__MEM_UPLOAD, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                                     &r->zeros, err)) != VKS_OK ||
        (res = index_buffer(r, err)) != VKS_OK) {
        vks_render_destroy(r);
        return res;
    }
    memset(r->zeros.mapped, 0, (size_t)most * 12);
    vks__buf_flush(gpu, &r->zeros);
    *out = r;
    return VKS_OK;
}

void vks_render_destroy(vks_render *r)
{
    if (!r)
        return;
    vks_gpu *gpu = r->gpu;
    const vks__vk_device *dev = &r->dev;
    const struct VolkDeviceTable *vk = dev->vk;
    vk->vkDestroyPipeline(dev->device, r->pipeline, dev->alloc);
    vk->vkDestroyPipelineLayout(dev->device, r->layout, dev->alloc);
    vk->vkDestroyShaderModule(dev->device, r->vert, dev->alloc);
    vk->vkDestroyShaderModule(dev->device, r->frag, dev->alloc);
    vk->vkDestroyFramebuffer(dev->device, r->framebuffer, dev->alloc);
    vk->vkDestroyRenderPass(dev->device, r->pass, dev->alloc);
    vk->vkDestroyRenderPass(dev->device, r->pass_keep, dev->alloc);
    vk->vkDestroyImageView(dev->device, r->color_view, dev->alloc);
    vk->vkDestroyImageView(dev->device, r->depth_view, dev->alloc);
    vk->vkDestroyImage(dev->device, r->color, dev->alloc);
    vk->vkDestroyImage(dev->device, r->depth, dev->alloc);
    vk->vkFreeMemory(dev->device, r->color_mem, dev->alloc);
    vk->vkFreeMemory(dev->device, r->depth_mem, dev->alloc);
    vks__buf_destroy(gpu, &r->indices);
    vks__buf_destroy(gpu, &r->zeros);
    vks__buf_destroy(gpu, &r->host_pos);
    vks__buf_destroy(gpu, &r->host_nrm);
    vks__buf_destroy(gpu, &r->host_col);
    vks__buf_destroy(gpu, &r->readback);
    vks__oneshot_destroy(gpu, &r->own);
    free(r->models);
    free(r);
}
