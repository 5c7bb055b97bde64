/* The GPU engine of a library built with -DVKSKIN_GPU=OFF (no Vulkan, volk or glslc needed):
 * every function of gpu.h exists and behaves as on a machine without a Vulkan device, so a
 * host compiles and links the same code against either build and handles VKS_ERR_NO_DEVICE
 * once (vks_has_gpu() tells the two cases apart). Only one of src/gpu and src/nogpu is built.
 * A function added to gpu.h needs its stub here: the package_symbols test fails on a public
 * declaration the library does not define. */
#include "gpu/backend.h"
#include "vkskin/gpu.h"
#include "vkskin/gpu_testing.h"

#include <stddef.h>
#include <string.h>

static vks_result no_gpu(vks_error *err)
{
    return vks_error_set(err, VKS_ERR_NO_DEVICE, VKS_NO_OFFSET, "vulkan",
                         "vkskin was built without GPU support (VKSKIN_GPU=OFF)");
}

vks_result vks_gpu_list_devices(vks_gpu_device_info *out, uint32_t cap, uint32_t *count,
                                vks_error *err)
{
    if (count)
        *count = 0;
    return no_gpu(err);
}

vks_result vks_gpu_create(const vks_gpu_options *opt, vks_gpu **out, vks_error *err)
{
    if (out)
        *out = NULL;
    return no_gpu(err);
}

vks_result vks_gpu_create_testing(const vks_gpu_options *opt, const vks_gpu_testing *t, vks_gpu **out,
                                  vks_error *err)
{
    return vks_gpu_create(opt, out, err);
}

vks_result vks_gpu_reduce_testing(vks_gpu *gpu, const float *positions, const float *normals, uint64_t vertices,
                                  vks_gpu_figures *out, vks_error *err)
{
    return no_gpu(err);
}

void vks_gpu_destroy(vks_gpu *gpu)
{
}

void vks_gpu_get_counters(const vks_gpu *gpu, vks_gpu_counters *out)
{
    if (out)
        memset(out, 0, sizeof *out);
}

uint32_t vks_gpu_validation_messages(const vks_gpu *gpu)
{
    return 0;
}

const vks_gpu_device_info *vks_gpu_device(const vks_gpu *gpu)
{
    return NULL;
}

void vks_gpu_trim(vks_gpu *gpu)
{
}

vks_result vks_gpu_list_launch_shapes(const vks_gpu_options *opt, vks_gpu_shape_info *out, uint32_t cap,
                                      uint32_t *count, vks_error *err)
{
    (void)opt, (void)out, (void)cap;
    if (count)
        *count = 0;
    return no_gpu(err);
}

void vks_gpu_launch_shape(const vks_gpu *gpu, vks_gpu_shape_info *out)
{
    if (out)
        memset(out, 0, sizeof *out);
}

void vks__launch_shape_for_model(const vks_gpu *gpu, uint32_t vertices, vks_gpu_shape_info *out)
{
    (void)gpu, (void)vertices;
    if (out)
        memset(out, 0, sizeof *out);
}

vks_result vks_gpu_measure_ceilings(vks_gpu *gpu, uint64_t bytes, uint32_t repeats, vks_gpu_ceilings *out,
                                    vks_error *err)
{
    if (out)
        memset(out, 0, sizeof *out);
    return no_gpu(err);
}

vks_result vks_gpu_tune(vks_gpu *gpu, const vks_skin *skin, const vks_gpu_tune_options *opt,
                        vks_gpu_tune_result *out, vks_error *err)
{
    if (out)
        memset(out, 0, sizeof *out);
    return no_gpu(err);
}

vks_result vks_gpu_upload(vks_gpu *gpu, const vks_skin *const *skins, uint32_t count,
                          vks_gpu_models **out, vks_error *err)
{
    if (out)
        *out = NULL;
    return no_gpu(err);
}

void vks_gpu_models_free(vks_gpu_models *models)
{
}

int vks_gpu_batch_reduces(const vks_gpu *gpu, const vks_gpu_batch *batch)
{
    (void)gpu, (void)batch;
    return 0;
}

void vks_gpu_calibrate_for_batch(vks_gpu *gpu, const vks_gpu_models *models, const vks_gpu_batch *batch)
{
    (void)gpu, (void)models, (void)batch;
}

vks_result vks_gpu_run(vks_gpu *gpu, const vks_gpu_models *models, const vks_gpu_batch *batch,
                       vks_gpu_stats *stats, vks_error *err)
{
    return no_gpu(err);
}

vks_result vks_gpu_run_job(vks_gpu *gpu, const vks_gpu_models *models, uint32_t model,
                           const struct vks_deform_job *job, vks_gpu_stats *stats, vks_error *err)
{
    return no_gpu(err);
}
