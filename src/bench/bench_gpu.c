/* The GPU engines of the bench (bench.h). Order of a run:
 *   1. the model's upload, timed (the context's creation the caller timed);
 *   2. the device's ceilings, on buffers as large as the deform output;
 *   3. the project's kernel, then the plain kernel, each once: their first runs (the context
 *      makes and touches the buffer set it keeps, lavapipe compiles the shaders);
 *   4. R pairs of steady runs, project and plain alternating (the order flips every pair),
 *      kernel only: the ratio of each pair's deform-pass times, and its median;
 *   5. the end to end into host memory: vks_gpu_run delivering every chunk, which the bench's
 *      threads consume in place where the library hands it over (host-visible memory: the
 *      staging slot, or the output itself on unified memory), each reading its share of every
 *      word, as a host that uploads, encodes or checks the vertices would: first run (the kept
 *      set grows for readback) and R steady runs;
 *   6. with end_to_end_file, the deform path against a plain write (bench_file.c). */
#include "bench/bench_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/work_pool.h"

/* End to end means every output word reaches the host's threads: each delivered range is read
 * where the library hands it over, in shares of SHARE_BYTES on the bench's threads (a copy on one
 * thread, as before, moved 10 GB/s of an H100 host's 51 GB/s bus). Each share folds its words
 * into a sum, kept so the reads cannot be dropped. */
#define SHARE_BYTES (1u << 20)
typedef struct sink {
    vks__work_pool *pool;
    const float *p, *n;           /* the range being consumed */
    size_t floats;                /* its floats per stream */
    uint32_t floats_per_instance; /* per stream */
    uint64_t sum[64];             /* per share slot (share % 64), folded by the caller */
    uint64_t total;               /* every word of every run, summed */
} sink;

static uint64_t fold(const float *f, size_t count)
{
    const uint32_t *w = (const uint32_t *)f;
    uint64_t a = 0, b = 0;
    size_t i = 0;
    for (; i + 1 < count; i += 2)
        a += w[i], b += w[i + 1];
    if (i < count)
        a += w[i];
    return a ^ (b << 1);
}

static void consume_share(void *arg, uint32_t i)
{
    sink *s = arg;
    size_t per = SHARE_BYTES / sizeof(float), at = (size_t)i * per;
    size_t count = at + per <= s->floats ? per : s->floats - at;
    uint64_t v = fold(s->p + at, count);
    if (s->n)
        v += fold(s->n + at, count);
    __atomic_fetch_add(&s->sum[i % 64], v, __ATOMIC_RELAXED);
}

static int consume(void *user, uint32_t entry, uint32_t first, uint32_t count, const float *p, const float *n)
{
    sink *s = user;
    (void)entry, (void)first;
    s->p = p, s->n = n;
    s->floats = (size_t)count * s->floats_per_instance;
    uint32_t shares = (uint32_t)((s->floats * sizeof(float) + SHARE_BYTES - 1) / SHARE_BYTES);
    memset(s->sum, 0, sizeof s->sum);
    vks__work_pool_share(s->pool, shares, consume_share, s);
    for (int i = 0; i < 64; i++)
        s->total += s->sum[i];
    return 0;
}

static void first_run(vks_bench_engine *g, const vks_gpu_stats *st)
{
    g->first_ms = st->pose_ms + st->deform_ms;
    g->first_wall_ms = st->total_ms;
    g->first_buffers = st->buffers_made;
}

/* Steps 3 and 4: both kernels' first runs, then R interleaved pairs. */
static vks_result time_kernels(vks__bench_engines *b, vks_error *err)
{
    uint32_t R = b->repeats;
    vks_gpu_stats st;
    vks_bench_engine *eng[2] = {&b->out->kernel, &b->out->plain};
    for (int k = 0; k < 2; k++) {
        vks_result r = vks__bench_run_once(b, (vks_gpu_kernel)k, NULL, NULL, &st, err);
        if (r != VKS_OK)
            return r;
        first_run(eng[k], &st);
    }
    double *v = calloc((size_t)R * 9, sizeof *v);
    if (!v)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "bench", "out of memory");
    double *ms[2] = {v, v + R}, *wall[2] = {v + 2 * R, v + 3 * R}, *pose[2] = {v + 4 * R, v + 5 * R};
    double *deform[2] = {v + 6 * R, v + 7 * R}, *ratio = v + 8 * R;
    vks_result r = VKS_OK;
    for (uint32_t i = 0; i < R && r == VKS_OK; i++) {
        for (int q = 0; q < 2 && r == VKS_OK; q++) {
            int k = (i & 1) ? 1 - q : q; /* project first, then plain first, ... */
            r = vks__bench_run_once(b, (vks_gpu_kernel)k, NULL, NULL, &st, err);
            ms[k][i] = st.pose_ms + st.deform_ms, wall[k][i] = st.total_ms;
            pose[k][i] = st.pose_ms, deform[k][i] = st.deform_ms;
            eng[k]->steady_buffers += st.buffers_made;
        }
        ratio[i] = deform[0][i] > 0 ? deform[1][i] / deform[0][i] : 0;
    }
    if (r == VKS_OK) {
        for (int k = 0; k < 2; k++) {
            eng[k]->steady_ms = vks__bench_median(ms[k], R), eng[k]->steady_wall_ms = vks__bench_median(wall[k], R);
            eng[k]->pose_ms = vks__bench_median(pose[k], R), eng[k]->deform_ms = vks__bench_median(deform[k], R);
        }
        b->out->ratio = vks__bench_median(ratio, R); /* sorted: */
        b->out->ratio_min = ratio[0], b->out->ratio_max = ratio[R - 1];
    }
    free(v);
    return r;
}

/* Step 5: into the host's threads. */
static vks_result time_e2e(vks__bench_engines *b, vks_error *err)
{
    uint32_t R = b->repeats;
    vks_bench_gpu_result *o = b->out;
    sink sk = {0};
    sk.floats_per_instance = b->skin->vertex_count * 3;
    uint32_t threads = b->consumer_threads ? b->consumer_threads : 1;
    /* the caller takes shares too: the pool adds the other threads */
    sk.pool = threads > 1 ? vks__work_pool_start(threads - 1, "bench: the end to end consumed on fewer threads") : NULL;
    o->consumer_threads = 1 + vks__work_pool_threads(sk.pool);
    double *wall = calloc(R, sizeof *wall), *copy = calloc(R, sizeof *copy);
    vks_result r = wall && copy ? VKS_OK : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "bench", "out of memory");
    vks_gpu_stats st;
    if (r == VKS_OK && (r = vks__bench_run_once(b, VKS_GPU_KERNEL_DEFAULT, consume, &sk, &st, err)) == VKS_OK) {
        first_run(&o->end_to_end, &st);
        o->end_to_end.first_ms = st.total_ms;
    }
    for (uint32_t i = 0; i < R && r == VKS_OK; i++) {
        r = vks__bench_run_once(b, VKS_GPU_KERNEL_DEFAULT, consume, &sk, &st, err);
        wall[i] = st.total_ms;
        copy[i] = st.readback_ms;
        o->readback_bytes = st.readback_bytes;
        o->end_to_end.steady_buffers += st.buffers_made;
    }
    if (r == VKS_OK) {
        o->end_to_end.steady_ms = o->end_to_end.steady_wall_ms = vks__bench_median(wall, R);
        o->readback_ms = vks__bench_median(copy, R);
        o->consumed_sum = sk.total;
    }
    vks__work_pool_finish(sk.pool);
    free(copy), free(wall);
    return r;
}

/* Steps 1 and 2: the device's names, the upload, the ceilings. */
static vks_result prepare(vks__bench_engines *b, char *failed_step, size_t cap, vks_error *err)
{
    vks_bench_gpu_result *o = b->out;
    const vks_gpu_device_info *dev = vks_gpu_device(b->gpu);
    snprintf(o->device, sizeof o->device, "%s", dev->name);
    snprintf(o->device_type, sizeof o->device_type, "%s", dev->type);
    o->queue_family = dev->queue_family, o->queue_index = dev->queue_index;
    o->readback_family = dev->readback_family, o->readback_index = dev->readback_queue_index;
    o->context_ms = b->opt->context_ms;
    o->repeats = b->repeats;
    const vks_skin *one[1] = {b->skin};
    double t0 = vks__bench_now_ms();
    if (vks_gpu_upload(b->gpu, one, 1, &b->models, err) != VKS_OK) {
        snprintf(failed_step, cap, "upload");
        return err->code;
    }
    o->upload_ms = vks__bench_now_ms() - t0;
    /* The device's ceilings first, on buffers as large as the deform output (24 B a
     * vertex-instance; clipped to the device's limits), so every pass has its fraction. */
    vks_result cr = vks_gpu_measure_ceilings(b->gpu, (uint64_t)b->instances * b->skin->vertex_count * 24, b->repeats,
                                             &o->ceilings, err);
    if (cr != VKS_OK && cr != VKS_ERR_UNSUPPORTED) {
        snprintf(failed_step, cap, "ceilings");
        return cr;
    }
    if (cr == VKS_ERR_UNSUPPORTED)
        memset(&o->ceilings, 0, sizeof o->ceilings), memset(err, 0, sizeof *err);
    return VKS_OK;
}

vks_result vks__bench_gpu(vks__bench_engines *b, char *failed_step, size_t cap, vks_error *err)
{
    vks_result r = prepare(b, failed_step, cap, err);
    if (r != VKS_OK)
        return r;
    const char *step = "gpu kernel";
    r = time_kernels(b, err);
    if (r == VKS_OK)
        step = "gpu end to end", r = time_e2e(b, err);
    if (r == VKS_OK && b->opt->end_to_end_file)
        step = "end to end file", r = vks__bench_file(b, err);
    /* the shape the kernel ran with: the small-model class's for a small model */
    vks__bench_shape_for(b->gpu, b->skin->vertex_count, &b->out->shape);
    if (r != VKS_OK)
        snprintf(failed_step, cap, "%s", step);
    return r;
}
