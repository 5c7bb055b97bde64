/* The crowd (crowd.h) of a library built with -DVKSKIN_GPU=OFF: every function exists and
 * fails as on a machine without a Vulkan device (no crowd can be made, since no context can).
 * gpu_vulkan.h, which names Vulkan types, is not part of such a build. */
#include "vkskin/crowd.h"

#include <stddef.h>
#include <string.h>

static vks_result no_gpu(vks_error *err)
{
    return vks_error_set(err, VKS_ERR_NO_DEVICE, VKS_NO_OFFSET, "vulkan",
                         "vkskin was built without GPU support (VKSKIN_GPU=OFF)");
}

vks_result vks_crowd_create(vks_gpu *gpu, const vks_crowd_desc *desc, vks_crowd **out, vks_error *err)
{
    if (out)
        *out = NULL;
    return no_gpu(err);
}

void vks_crowd_destroy(vks_crowd *crowd)
{
}

uint32_t vks_crowd_instance_count(const vks_crowd *crowd)
{
    return 0;
}

vks_result vks_crowd_set_instance(vks_crowd *crowd, uint32_t i, const vks_instance *inst, vks_error *err)
{
    return no_gpu(err);
}

vks_result vks_crowd_set_locals(vks_crowd *crowd, uint32_t i, const vks_affine *locals, vks_error *err)
{
    return no_gpu(err);
}

vks_result vks_crowd_run_frames(vks_crowd *crowd, const float *times, uint32_t count, vks_crowd_stats *stats,
                                vks_error *err)
{
    if (stats)
        memset(stats, 0, sizeof *stats);
    return no_gpu(err);
}

vks_result vks_crowd_run_frame(vks_crowd *crowd, float time, vks_crowd_stats *stats, vks_error *err)
{
    return vks_crowd_run_frames(crowd, &time, 1, stats, err);
}

vks_result vks_crowd_read(vks_crowd *crowd, uint32_t first, uint32_t count, float *positions, float *normals,
                          vks_error *err)
{
    return no_gpu(err);
}

vks_result vks_crowd_read_root_motion(vks_crowd *crowd, uint32_t first, uint32_t count, float *out, vks_error *err)
{
    return no_gpu(err);
}

vks_result vks_crowd_read_root_motion_yaw(vks_crowd *crowd, uint32_t first, uint32_t count, float *out,
                                          vks_error *err)
{
    return no_gpu(err);
}

vks_result vks_gpu_upload_clips(vks_gpu *gpu, const vks_gpu_models *models, const vks_skin *const *skins,
                                const vks_clip *const *clips, uint32_t clip_count, vks_gpu_clips **out,
                                vks_error *err)
{
    if (out)
        *out = NULL;
    return no_gpu(err);
}

void vks_gpu_clips_free(vks_gpu_clips *clips)
{
}
