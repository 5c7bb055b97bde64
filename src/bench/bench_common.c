/* The bench's clock, medians and the launch shape as its reports give it (bench_internal.h). */
#include "bench/bench_internal.h"
#include "gpu/backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double vks__bench_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double vks__bench_median(double *v, uint32_t n)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, cmp_double);
    return n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The shape's strings point into the context: copied, so a result outlives it. */
void vks__bench_shape_for(const vks_gpu *gpu, uint32_t vertices, vks_bench_shape *out)
{
    vks_gpu_shape_info s;
    vks__launch_shape_for_model(gpu, vertices, &s);
    memset(out, 0, sizeof *out);
    snprintf(out->text, sizeof out->text, "%s", s.text);
    snprintf(out->source, sizeof out->source, "%s", s.source ? s.source : "");
    snprintf(out->reason, sizeof out->reason, "%s", s.reason ? s.reason : "");
    out->deform_workgroup = s.deform_workgroup, out->pose_workgroup = s.pose_workgroup;
    out->instance_run = s.instance_run, out->shared_palette_slots = s.shared_palette_slots;
    out->skin_texels = s.skin_texels;
    out->pipeline_ms = s.pipeline_ms;
}

static const char *const kernel_names[VKS_BENCH_KERNELS] = {"baseline", "avx2", "avx512"};

const char *vks_bench_kernel_name(int k)
{
    return k >= 0 && k < VKS_BENCH_KERNELS ? kernel_names[k] : NULL;
}

double vks_bench_rate(const vks_bench_result *r, double ms)
{
    return ms > 0 ? (double)r->instances * r->vertices / (ms / 1e3) : 0;
}
