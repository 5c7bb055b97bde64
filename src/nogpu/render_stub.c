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

vks_result vks_render_crowd_part(vks_render *r, vks_crowd *crowd, float time, uint32_t first_cell,
                                 uint32_t cell_count, vks_error *err)
{
    return vks_render_create(NULL, NULL, NULL, err);
}

vks_result vks_render_host(vks_render *r, const uint32_t *models, uint32_t count, const float *positions,
                           const float *normals, vks_error *err)
{
    return vks_render_create(NULL, NULL, NULL, err);
}

vks_result vks_render_host_colored(vks_render *r, const uint32_t *models, uint32_t count, const float *positions,
                                   const float *normals, const uint8_t *colors, vks_error *err)
{
    return vks_render_create(NULL, NULL, NULL, err);
}

const uint8_t *vks_render_pixels(const vks_render *r, uint32_t *width, uint32_t *height)
{
    return NULL;
}

