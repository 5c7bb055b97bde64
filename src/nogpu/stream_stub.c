/* The stream (stream.h) of a library built with -DVKSKIN_GPU=OFF: it fails as on a machine
 * without a Vulkan device. */
#include "vkskin/stream.h"

#include <string.h>

static vks_result no_gpu(vks_error *err)
{
    return vks_error_set(err, VKS_ERR_NO_DEVICE, VKS_NO_OFFSET, "vulkan",
                         "vkskin was built without GPU support (VKSKIN_GPU=OFF)");
}

vks_result vks_stream_run(vks_gpu *gpu, const vks_stream_desc *desc, vks_stream_stats *stats, vks_error *err)
{
    if (stats)
        memset(stats, 0, sizeof *stats);
    return no_gpu(err);
}

vks_result vks_stream_to_bake(vks_gpu *gpu, const vks_stream_desc *desc, vks_bake *bake, uint64_t memory_bytes,
                              vks_stream_stats *stats, vks_error *err)
{
    if (stats)
        memset(stats, 0, sizeof *stats);
    return no_gpu(err);
}

vks_result vks_stream_run_split(vks_gpu *const *gpus, const vks_gpu_models *const *models, int count,
                                const vks_stream_desc *desc, vks_stream_stats *stats, vks_context_shares *shares,
                                vks_error *err)
{
    if (stats)
        memset(stats, 0, sizeof *stats);
    if (shares)
        memset(shares, 0, sizeof *shares);
    return no_gpu(err);
}

vks_result vks_stream_to_bake_split(vks_gpu *const *gpus, const vks_gpu_models *const *models, int count,
                                    const vks_stream_desc *desc, vks_bake *bake, uint64_t memory_bytes,
                                    vks_stream_stats *stats, vks_context_shares *shares, vks_error *err)
{
    if (stats)
        memset(stats, 0, sizeof *stats);
    if (shares)
        memset(shares, 0, sizeof *shares);
    return no_gpu(err);
}
