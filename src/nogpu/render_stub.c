/* The renderer (render.h) of a library built with -DVKSKIN_GPU=OFF: every function exists and
 * fails as on a machine without a Vulkan device (no context, so no renderer). */
#include "vkskin/render.h"

#include <stddef.h>

vks_result vks_render_create(vks_gpu *gpu, const vks_render_desc *desc, vks_render **out, vks_error *err)
{
    if (out)
        *out = NULL;
    return vks_error_set(err, VKS_ERR_NO_DEVICE, VKS_NO_OFFSET, "vulkan",
                         "vkskin was built without GPU support (VKSKIN_GPU=OFF)");
}

void vks_render_destroy(vks_render *r)
{
}

vks_result vks_render_crowd(vks_render *r, vks_crowd *crowd, float time, vks_error *err)
{
    return vks_render_create(NULL, NULL, NULL, err);
}

vks_result vks_render_host(vks_render *r, const uint32_t *models, uint32_t count, const float *positions,
                           const float *normals, vks_error *err)
{
    return vks_render_create(NULL, NULL, NULL, err);
}

const uint8_t *vks_render_pixels(const vks_render *r, uint32_t *width, uint32_t *height)
{
    return NULL;
}

/* Pure arithmetic, the same as the GPU build's (src/render/sheet.c). */
void vks_render_grid(uint32_t count, uint32_t width, uint32_t height, uint32_t *columns, uint32_t *rows)
{
    uint32_t best = 1;
    double best_side = -1;
    for (uint32_t c = 1; c <= (count ? count : 1); c++) {
        uint32_t rw = (count + c - 1) / c;
        double w = (double)width / c, h = (double)height / (rw ? rw : 1);
        double side = w < h ? w : h;
        if (side > best_side)
            best_side = side, best = c;
    }
    *columns = best;
    *rows = count ? (count + best - 1) / best : 1;
}
