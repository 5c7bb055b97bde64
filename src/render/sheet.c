/* Drawing the contact sheet: one indexed draw per cell with its own viewport and its model's
 * camera, from the crowd's output buffers (vks_render_crowd) or from host vertices uploaded
 * into a plain vertex buffer (vks_render_host); then the image is copied where the host can
 * read it. Both paths share vks__sheet_record, so their pictures differ only by the vertices. */
#include "render_internal.h"

#include "vkskin/gpu_vulkan.h" /* a crowd's output buffers and its recording */

#include <stdlib.h>
#include <string.h>

static vks_result fail(vks_error *err, vks_result code, const char *msg)
{
    return vks_error_set(err, code, VKS_NO_OFFSET, "render", msg);
}


void vks__sheet_record(vks_render *r, VkCommandBuffer cmd, const vks__cell *cells, uint32_t first, uint32_t count,
                       uint32_t total)
{
    const struct VolkDeviceTable *vk = r->dev.vk;
    uint32_t w = r->desc.width, h = r->desc.height, cols = r->desc.columns, rows;
    if (cols)
        rows = (total + cols - 1) / cols;
    else
        vks_render_grid(total, w, h, &cols, &rows);
    if (rows == 0)
        rows = 1;
    uint32_t bg = r->desc.background;
    VkClearValue clear[2];
    for (int k = 0; k < 4; k++)
        clear[0].color.float32[k] = (float)(bg >> (24 - 8 * k) & 0xffu) / 255.0f;
    clear[1].depthStencil = (VkClearDepthStencilValue){1.0f, 0};
    VkRenderPassBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    bi.renderPass = first ? r->pass_keep : r->pass;
    bi.framebuffer = r->framebuffer;
    bi.renderArea.extent = (VkExtent2D){w, h};
    bi.clearValueCount = 2;
    bi.pClearValues = clear;
    vk->vkCmdBeginRenderPass(cmd, &bi, VK_SUBPASS_CONTENTS_INLINE);
    vk->vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, r->pipeline);
    vk->vkCmdBindIndexBuffer(cmd, r->indices.buffer, 0, VK_INDEX_TYPE_UINT32);
    for (uint32_t i = 0; i < count; i++) {
        /* integer cell edges, so neighbouring cells share no pixel and leave no gap (and a
           sheet drawn in parts is the sheet drawn at once) */
        uint32_t c = (first + i) % cols, rw = (first + i) / cols;
        int32_t x0 = (int32_t)((uint64_t)c * w / cols), x1 = (int32_t)((uint64_t)(c + 1) * w / cols);
        int32_t y0 = (int32_t)((uint64_t)rw * h / rows), y1 = (int32_t)((uint64_t)(rw + 1) * h / rows);
        if (x1 <= x0 || y1 <= y0)
            continue; /* more cells than pixels */
        VkViewport vp = {(float)x0, (float)y0, (float)(x1 - x0), (float)(y1 - y0), 0.0f, 1.0f};
        VkRect2D sc = {{x0, y0}, {(uint32_t)(x1 - x0), (uint32_t)(y1 - y0)}};
        vk->vkCmdSetViewport(cmd, 0, 1, &vp);
        vk->vkCmdSetScissor(cmd, 0, 1, &sc);
        const vks__render_model *m = &r->models[cells[i].model];
        float push[32];
        vks__camera_matrices(&m->camera, vp.width / vp.height, push, push + 16);
        vk->vkCmdPushConstants(cmd, r->layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof push, push);
        VkBuffer bufs[3] = {cells[i].pos, cells[i].nrm, cells[i].col ? cells[i].col : r->zeros.buffer};
        VkDeviceSize offs[3] = {cells[i].pos_offset, cells[i].nrm_offset, cells[i].col ? cells[i].col_offset : 0};
        vk->vkCmdBindVertexBuffers(cmd, 0, 3, bufs, offs);
        vk->vkCmdDrawIndexed(cmd, m->index_count, 1, m->first_index, 0, 0);
    }
    vk->vkCmdEndRenderPass(cmd);
    /* the render pass left the image in TRANSFER_SRC_OPTIMAL after its color writes */
    VkBufferImageCopy copy = {0};
    copy.imageSubresource = (VkImageSubresourceLayers){VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    copy.imageExtent = (VkExtent3D){w, h, 1};
    vk->vkCmdCopyImageToBuffer(cmd, r->color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, r->readback.buffer, 1, &copy);
    vks__barrier(r->gpu, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                 VK_ACCESS_HOST_READ_BIT);
}

/* Submits what was recorded into r->own, waits, and makes the image visible to the host. */
static vks_result finish(vks_render *r, vks_error *err)
{
    vks_result res = vks__oneshot_submit(r->gpu, &r->own, err);
    if (res != VKS_OK)
        return res;
    vks__buf_invalidate(r->gpu, &r->readback);
    r->drawn = 1;
    return VKS_OK;
}

vks_result vks_render_crowd(vks_render *r, vks_crowd *crowd, float time, vks_error *err)
{
    return vks_render_crowd_part(r, crowd, time, 0, crowd ? vks_crowd_instance_count(crowd) : 0, err);
}

vks_result vks_render_crowd_part(vks_render *r, vks_crowd *crowd, float time, uint32_t first_cell,
                                 uint32_t cell_count, vks_error *err)
{
    if (!r || !crowd)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "render", "no renderer or no crowd");
    if (vks__crowd_gpu(crowd) != r->gpu)
        return fail(err, VKS_ERR_INVALID, "the crowd belongs to another context");
    const uint32_t count = vks_crowd_instance_count(crowd);
    if (first_cell > cell_count || count > cell_count - first_cell)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "render",
                             "cells %u to %u of a sheet of %u cells", first_cell, first_cell + count,
                             cell_count);
    if (first_cell && (!r->drawn || r->sheet_cells != cell_count))
        return fail(err, VKS_ERR_INVALID,
                    "a part of a sheet past its first cell continues a sheet of that many cells drawn last");
    if (!(vks__crowd_consumer_stages(crowd) & VK_PIPELINE_STAGE_VERTEX_INPUT_BIT))
        return fail(err, VKS_ERR_INVALID, "the crowd's consumer stages do not include vertex input");
    vks__cell *cells = malloc((size_t)(count ? count : 1) * sizeof *cells);
    if (!cells)
        return fail(err, VKS_ERR_NOMEM, "out of memory for the cells");
    vks_result res = VKS_OK;
    for (uint32_t i = 0; i < count && res == VKS_OK; i++) {
        vks_crowd_output o;
        uint32_t model = vks__crowd_model_of(crowd, i);
        if ((res = vks_crowd_get_output(crowd, i, &o, err)) != VKS_OK)
            break;
        if (model >= r->model_count || r->models[model].vertex_count != o.vertex_count)
            res = fail(err, VKS_ERR_INVALID, "a crowd instance's model is not the renderer's model of that number");
        else if (o.position.stride != 12 || o.position.format != VK_FORMAT_R32G32B32_SFLOAT ||
                 (o.normal.buffer && o.normal.stride != 12))
            res = fail(err, VKS_ERR_UNSUPPORTED, "the crowd's vertex streams are not packed float3");
        cells[i] = (vks__cell){model, o.position.buffer, o.normal.buffer ? o.normal.buffer : r->zeros.buffer,
                               o.position.offset, o.normal.buffer ? o.normal.offset : 0, VK_NULL_HANDLE, 0};
    }
    if (res == VKS_OK) {
        /* the crowd's frame ends with its release barrier to vertex input: drawn right after */
        vks__oneshot_begin(r->gpu, &r->own);
        vks_crowd_record(crowd, r->own.cmd, time);
        vks__sheet_record(r, r->own.cmd, cells, first_cell, count, cell_count);
        res = finish(r, err);
        r->sheet_cells = res == VKS_OK ? cell_count : 0;
    }
    free(cells);
    return res;
}

/* Grows a host-visible vertex buffer to hold bytes. */
static vks_result host_buffer(vks_render *r, vks__buf *b, VkDeviceSize bytes, vks_error *err)
{
    if (b->buffer && b->size >= bytes)
        return VKS_OK;
    vks__buf_destroy(r->gpu, b);
    return vks__buf_create_usage(r->gpu, bytes, VKS__MEM_UPLOAD, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, b, err);
}

vks_result vks_render_host(vks_render *r, const uint32_t *models, uint32_t count, const float *positions,
                           const float *normals, vks_error *err)
{
    return vks_render_host_colored(r, models, count, positions, normals, NULL, err);
}

vks_result vks_render_host_colored(vks_render *r, const uint32_t *models, uint32_t count, const float *positions,
                                   const float *normals, const uint8_t *colors, vks_error *err)
{
    if (count && (!models || !positions))
        return fail(err, VKS_ERR_INVALID, "vks_render_host needs models and positions");
    uint64_t floats = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (models[i] >= r->model_count)
            return fail(err, VKS_ERR_INVALID, "a model number is not one of the renderer's");
        floats += (uint64_t)r->models[models[i]].vertex_count * 3;
    }
    vks__cell *cells = malloc((size_t)(count ? count : 1) * sizeof *cells);
    if (!cells)
        return fail(err, VKS_ERR_NOMEM, "out of memory for the cells");
    VkDeviceSize bytes = floats * sizeof(float);
    vks_result res = host_buffer(r, &r->host_pos, bytes, err);
    if (res == VKS_OK && normals)
        res = host_buffer(r, &r->host_nrm, bytes, err);
    if (res == VKS_OK && colors)
        res = host_buffer(r, &r->host_col, bytes / 3, err);
    if (res == VKS_OK) {
        if (colors)
            vks__buf_write(r->gpu, &r->host_col, 0, colors, (size_t)(bytes / 3));
        vks__buf_write(r->gpu, &r->host_pos, 0, positions, (size_t)bytes);
        if (normals)
            vks__buf_write(r->gpu, &r->host_nrm, 0, normals, (size_t)bytes);
        VkDeviceSize at = 0;
        for (uint32_t i = 0; i < count; i++) {
            cells[i] = (vks__cell){models[i], r->host_pos.buffer, normals ? r->host_nrm.buffer : r->zeros.buffer, at,
                                   normals ? at : 0, colors ? r->host_col.buffer : VK_NULL_HANDLE, at / 3};
            at += (VkDeviceSize)r->models[models[i]].vertex_count * 12;
        }
        vks__oneshot_begin(r->gpu, &r->own);
        vks__sheet_record(r, r->own.cmd, cells, 0, count, count);
        res = finish(r, err);
        r->sheet_cells = res == VKS_OK ? count : 0;
    }
    free(cells);
    return res;
}

const uint8_t *vks_render_pixels(const vks_render *r, uint32_t *width, uint32_t *height)
{
    if (width)
        *width = r->desc.width;
    if (height)
        *height = r->desc.height;
    return r->drawn ? r->readback.mapped : NULL;
}
