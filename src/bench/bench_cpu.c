/* The bench's workload and its CPU engines (bench.h): the reference (double) on one thread, the
 * fast engine on every core, then on one core with each kernel this CPU has. Each figure is the
 * best of BENCH_CPU_REPEATS runs, the least disturbed by the rest of the machine. */
#include "bench/bench_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BENCH_CPU_REPEATS = 3 };

vks_result vks__bench_work_make(vks__bench_work *w, const vks_skin *s, uint32_t instances, vks_error *err)
{
    memset(w, 0, sizeof *w);
    w->skin = s, w->vertices = s->vertex_count, w->instances = instances;
    w->locals = malloc((size_t)instances * (s->node_count ? s->node_count : 1) * sizeof *w->locals);
    w->chunk = (uint32_t)((64ull << 20) / ((uint64_t)(w->vertices ? w->vertices : 1) * 12));
    if (w->chunk < 1)
        w->chunk = 1;
    if (w->chunk > instances)
        w->chunk = instances;
    size_t bytes = (size_t)w->chunk * w->vertices * 12 + 16;
    w->pos = malloc(bytes), w->nrm = malloc(bytes);
    if (!w->locals || !w->pos || !w->nrm)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "bench", "out of memory");
    for (uint32_t i = 0; i < instances; i++)
        vks_pose_procedural(s, 1, i, 0.5f, 0.0f, w->locals + (size_t)i * s->node_count);
    /* Touch every output page once, so no engine's time includes the kernel's first-touch
     * page faults (tens of milliseconds for a 64 MiB chunk). */
    memset(w->pos, 0, bytes);
    memset(w->nrm, 0, bytes);
    return VKS_OK;
}

void vks__bench_work_free(vks__bench_work *w)
{
    free(w->locals), free(w->pos), free(w->nrm);
    memset(w, 0, sizeof *w);
}

/* A CPU engine with its thread count (the reference runs on one). */
typedef vks_result (*cpu_engine)(const vks_deform_job *j, int threads, vks_error *err);
static vks_result reference_engine(const vks_deform_job *j, int threads, vks_error *err)
{
    (void)threads;
    return vks_cpu_reference_run(j, err);
}
static vks_result fast_engine(const vks_deform_job *j, int threads, vks_error *err)
{
    return vks_cpu_fast_run(j, threads, err);
}

/* Vertex-instances per second of an engine over the first `count` instances, chunk by chunk. */
static vks_result time_cpu(const vks__bench_work *w, uint32_t count, cpu_engine engine, int threads, double *rate,
                           vks_error *err)
{
    const vks_skin *s = w->skin;
    double best = 1e300;
    for (int rep = 0; rep < BENCH_CPU_REPEATS; rep++) {
        double t0 = vks__bench_now_ms();
        for (uint32_t f = 0; f < count; f += w->chunk) {
            uint32_t n = count - f < w->chunk ? count - f : w->chunk;
            vks_deform_job j = {s, w->locals + (size_t)f * s->node_count, n, w->pos, w->nrm, NULL};
            vks_result r = engine(&j, threads, err);
            if (r != VKS_OK)
                return r;
        }
        double t = (vks__bench_now_ms() - t0) / 1e3;
        if (t < best)
            best = t;
    }
    *rate = (double)count * w->vertices / best;
    return VKS_OK;
}

vks_result vks__bench_cpu(const vks__bench_work *w, uint32_t threads, vks_bench_result *out, vks_error *err)
{
    vks_result r = time_cpu(w, out->ref_instances, reference_engine, 1, &out->ref_rate, err);
    if (r != VKS_OK)
        return r;
    out->threads = (int)threads;
    const char *automatic = vks_cpu_fast_path();
    snprintf(out->fast_kernel, sizeof out->fast_kernel, "%s", automatic);
    vks_deform_job warm = {w->skin, w->locals, 1, w->pos, w->nrm, NULL};
    vks_cpu_fast_run(&warm, out->threads, err);
    if ((r = time_cpu(w, w->instances, fast_engine, out->threads, &out->fast_rate, err)) != VKS_OK)
        return r;
    /* per core, on every kernel this CPU has, then back to the automatic choice */
    for (int k = 0; k < VKS_BENCH_KERNELS && r == VKS_OK; k++)
        if (vks_cpu_fast_set_path(vks_bench_kernel_name(k)))
            r = time_cpu(w, out->ref_instances, fast_engine, 1, &out->per_core[k], err);
    vks_cpu_fast_set_path(automatic);
    return r;
}
