/* The text `vkskin bench --crowd` prints of a vks_bench_crowd_run (bench.h:
 * vks_bench_crowd_write_text): the crowd against the per-call path, then the clips sampled on
 * the GPU against on the host, and the layers. Numbers in the C locale whatever the host's. */
#include <errno.h>
#include <string.h>

#include "core/c_numeric.h"
#include "vkskin/bench.h"

/* The crowd against the per-call path. */
static void print_paths(FILE *f, const vks_bench_crowd_result *b)
{
    double vi = (double)b->instances * b->vertices;
    fprintf(f, "workload: %u instances of %u vertices, %u bones, procedural poses, %u frames\n", b->instances,
            b->vertices, b->bones, b->frames);
    fprintf(f, "device:   %s (%s)\n", b->device, b->device_type);
    fprintf(f, "launch shape: %s (%s: %s)\n", b->shape.text, b->shape.source, b->shape.reason);
    fprintf(f, "  crowd, first frame        %10.2f ms\n", b->first_ms);
    fprintf(f, "  crowd, steady state       %10.2f ms/frame   (gpu %.2f ms)   %.2f M vertex-instances/s\n",
            b->steady_ms, b->steady_gpu_ms, b->steady_ms > 0 ? vi / (b->steady_ms / 1e3) / 1e6 : 0);
    fprintf(f, "  crowd, one submission     %10.2f ms/frame   (gpu %.2f ms)\n", b->batched_ms, b->batched_gpu_ms);
    fprintf(f, "  per call (vks_gpu_run)    %10.2f ms/frame   (kernel %.2f ms, %u chunk(s))\n", b->percall_ms,
            b->percall_kernel_ms, b->percall_chunks);
    fprintf(f, "  per call / crowd steady   x%.2f\n", b->steady_ms > 0 ? b->percall_ms / b->steady_ms : 0);
}

/* Clips sampled on the GPU against on the host, then the layers. */
static void print_clips(FILE *f, const vks_bench_crowd_result *k)
{
    fprintf(f, "clips (walk and wave, each instance its own clip, start and speed):\n");
    fprintf(f, "  sampled in the pose pass  %10.2f ms/frame   (gpu %.2f ms)   %llu keys uploaded once; %.1f frames/s\n",
            k->gpu_sampled_ms, k->gpu_sampled_gpu_ms, (unsigned long long)k->clip_keys,
            k->gpu_sampled_ms > 0 ? 1e3 / k->gpu_sampled_ms : 0);
    fprintf(f, "  sampled on the host       %10.2f ms/frame   (gpu %.2f ms, host sampling + upload %.2f ms, %.1f MB)\n",
            k->uploaded_ms, k->uploaded_gpu_ms, k->uploaded_host_ms, k->uploaded_bytes_per_frame / 1e6);
    fprintf(f, "  host-sampled / GPU-sampled x%.2f\n", k->gpu_sampled_ms > 0 ? k->uploaded_ms / k->gpu_sampled_ms : 0);
    fprintf(f, "layers (walk and wave blended, each layer its own start, speed and weight):\n");
    fprintf(f, "  plain clip (no layers)    pose pass %.3f ms/frame, %.3f us/instance\n", k->gpu_sampled_pose_gpu_ms,
            k->instances ? k->gpu_sampled_pose_gpu_ms * 1e3 / k->instances : 0);
    static const int counts[3] = {1, 2, 4};
    for (int c = 0; c < 3; c++) {
        double pose = k->layers_pose_gpu_ms[c];
        fprintf(f, "  %d layer(s)                %10.2f ms/frame   (gpu %.2f ms, pose pass %.3f ms, %.3f "
                   "us/instance)\n",
                counts[c], k->layers_ms[c], k->layers_gpu_ms[c], pose, k->instances ? pose * 1e3 / k->instances : 0);
    }
    double p1 = k->layers_pose_gpu_ms[0], p4 = k->layers_pose_gpu_ms[2];
    fprintf(f, "  pose pass, 4 layers / 1   x%.2f\n", p1 > 0 ? p4 / p1 : 0);
    if (k->gpu_sampled_gpu_ms > 0 && k->gpu_sampled_pose_gpu_ms == 0)
        fprintf(f, "  (the pose pass ran beside the deform, its frames staggered by the launch shape's slices: "
                   "not timed alone; --launch-shape slices=1 times it)\n");
}

static vks_result write_text(const vks_bench_crowd_result *r, FILE *f, vks_error *err)
{
    print_paths(f, r);
    print_clips(f, r);
    if (ferror(f))
        return vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, "bench/crowd/text", "write failed: %s", strerror(errno));
    return VKS_OK;
}

vks_result vks_bench_crowd_write_text(const vks_bench_crowd_result *r, FILE *f, vks_error *err)
{
    if (!r || !f)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "bench/crowd/text", "no result or no file");
    VKS_RETURN_IN_C_NUMERIC(vks_result, write_text(r, f, err));
}
