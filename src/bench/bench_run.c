/* vks_bench_run (bench.h): the workload, the CPU engines, then the GPU's where a context is
 * given. The order is vkskin bench's: the reference, the fast engine, its kernels per core,
 * then the GPU, so the CPU figures do not share the machine with the GPU's threads at work. */
#include "bench/bench_internal.h"

#include <string.h>
#include <unistd.h>

void vks_bench_options_init(vks_bench_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->instances = 100;
    opt->repeats = 5;
}

/* The options with their defaults filled in. */
static vks_bench_options resolved(const vks_bench_options *opt, const vks_skin *s)
{
    vks_bench_options o;
    if (opt)
        o = *opt;
    else
        vks_bench_options_init(&o);
    if (!o.instances)
        o.instances = 100;
    if (!o.repeats)
        o.repeats = 5;
    if (!o.threads) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        o.threads = n > 0 ? (uint32_t)n : 1;
    }
    if (!o.ref_instances) { /* enough for ~2M vertex-instances, at most N */
        uint64_t n = 2000000ull / (s->vertex_count ? s->vertex_count : 1);
        o.ref_instances = n < 1 ? 1 : n > o.instances ? o.instances : (uint32_t)n;
    }
    return o;
}

vks_result vks_bench_run(vks_gpu *gpu, const vks_skin *skin, const vks_bench_options *opt, vks_bench_result *out,
                         vks_error *err)
{
    if (!out || !skin)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "bench", "no %s given", out ? "model" : "result");
    memset(out, 0, sizeof *out);
    vks_bench_options o = resolved(opt, skin);
    out->vertices = skin->vertex_count, out->bones = skin->bone_count, out->groups = skin->group_count;
    out->instances = o.instances, out->ref_instances = o.ref_instances;
    vks__bench_work w;
    vks_result r = vks__bench_work_make(&w, skin, o.instances, err);
    if (r == VKS_OK)
        r = vks__bench_cpu(&w, o.threads, out, err);
    if (r == VKS_OK && gpu) {
        vks__bench_engines b = {gpu, NULL, skin, w.locals, o.instances, o.repeats, o.threads, o.max_chunk_bytes, &o,
                            &out->gpu};
        out->gpu_ran = 1;
        r = vks__bench_gpu(&b, out->failed_step, sizeof out->failed_step, err);
        vks_gpu_models_free(b.models);
    }
    vks__bench_work_free(&w);
    return r;
}
