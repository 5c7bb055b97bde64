/* The GPU engine on a model with groups of 5..8 influences beside a group of 4 (eight_tube.h)
 * against the CPU reference, on every path the deform kernel has (shared palette and per-lane
 * gathers, texels, weight-0 slots skipped or blended) and on the plain kernel; and the rule
 * that keeps four-influence models at today's speed: uploading them compiles no 8-influence
 * pipeline, uploading a model that needs one compiles exactly one more, once. Exits 77 where
 * there is no Vulkan device. */
#define _POSIX_C_SOURCE 200809L
#include "eight_tube.h"
#include "gpu_check.h"
#include "testutil.h"

#include <stdlib.h>

static uint64_t pipelines(const vks_gpu *gpu)
{
    vks_gpu_counters c;
    vks_gpu_get_counters(gpu, &c);
    return c.pipelines;
}

static vks_gpu_models *upload(vks_gpu *gpu, const vks_skin *skin)
{
    vks_gpu_models *ms = NULL;
    vks_error err = {0};
    CHECK_EQ_INT(vks_gpu_upload(gpu, &skin, 1, &ms, &err), VKS_OK);
    return ms;
}

/* Bind and procedural instances of the model against the reference, on the kernel given. */
static void check_runs(vks_gpu *gpu, const vks_gpu_models *ms, const vks_skin *skin, vks_gpu_kernel kernel,
                       const char *what)
{
    gpu_check_entry e[2] = {{skin, 0, 1, 1, 0}, {skin, 0, 9, 0, 5}};
    gpu_check_result r;
    CHECK_EQ_INT(gpu_check_run_kernel(gpu, ms, e, 2, 0, kernel, &r), VKS_OK);
    fprintf(stderr, "  %s: positions max %.3g, normals max %.3g: %s\n", what, r.pos[1].max_abs, r.nrm[1].max_abs,
            r.pass ? "pass" : "FAIL");
    CHECK(r.pass);
}

/* Under one launch shape: 4-influence uploads make no wide pipeline, the wide model one. */
static void under_shape(const char *shape, vks_skin *four, vks_skin *eight)
{
    fprintf(stderr, "launch shape %s\n", shape ? shape : "(the device's)");
    vks_gpu_options o = {0};
    o.launch_shape = shape;
    o.calibrate = -1; /* no measuring runs: the pipeline counts are the uploads' own */
    vks_gpu *gpu = gpu_check_context_opt(&o);
    uint64_t p0 = pipelines(gpu);
    vks_gpu_models *m4 = upload(gpu, four);
    uint64_t p4 = pipelines(gpu);
    check_runs(gpu, m4, four, VKS_GPU_KERNEL_DEFAULT, "4 influences");
    vks_gpu_models *m8 = upload(gpu, eight);
    uint64_t p8 = pipelines(gpu);
    /* the tube's 4-influence group was compiled with the character; its 5..8 groups add one */
    CHECK_EQ_INT(p8 - p4, 1);
    CHECK(p4 >= p0);
    check_runs(gpu, m8, eight, VKS_GPU_KERNEL_DEFAULT, "5..8 influences");
    vks_gpu_models *again = upload(gpu, eight);
    CHECK_EQ_INT(pipelines(gpu), p8); /* made once */
    check_runs(gpu, m8, eight, VKS_GPU_KERNEL_PLAIN, "5..8 influences, plain kernel");
    vks_gpu_models_free(again);
    vks_gpu_models_free(m8);
    vks_gpu_models_free(m4);
    vks_gpu_destroy(gpu);
}

/* 1 where the table's shape for the device reads matrices through a texel buffer: then a
 * texel view spans the storage range and texels=on can be forced. */
static int texels_span_here(void)
{
    vks_gpu_options o = {0};
    o.cache_dir = "";
    vks_gpu *gpu = gpu_check_context_opt(&o);
    vks_gpu_shape_info info;
    vks_gpu_launch_shape(gpu, &info);
    vks_gpu_destroy(gpu);
    return info.skin_texels;
}

int main(void)
{
    setenv("VKSKIN_NO_CALIBRATE", "1", 1);
    vks_skin *four = gpu_check_character(3000, 24, 4, 12, 3);
    vks_skin *eight = eight_tube(60, 16);
    CHECK(eight != NULL);
    if (four && eight) {
        under_shape(NULL, four, eight);
        under_shape("palette=on,texels=off,zeros=blend", four, eight);
        /* texels=on only where the device's texel buffers span its storage range (not on
         * SwiftShader's 65536 elements: refused there, as test_gpu_shapes skips it) */
        if (texels_span_here())
            under_shape("palette=off,texels=on,zeros=skip", four, eight);
        else
            fprintf(stderr, "launch shape palette=off,texels=on,zeros=skip: this device's texel buffers cannot "
                            "span its storage range, skipped\n");
    }
    vks_skin_free(four);
    vks_skin_free(eight);
    return vks_test_finish("test_gpu_eight_influences");
}
