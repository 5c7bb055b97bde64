/* What the bench's files share (include/vkskin/bench.h): the clock, medians, the workload. */
#ifndef VKS_BENCH_INTERNAL_H
#define VKS_BENCH_INTERNAL_H

#include "vkskin/bench.h"
#include "vkskin/pose.h"

/* Monotonic wall time in milliseconds. */
double vks__bench_now_ms(void);
/* The median of n values (sorted in place; 0 for none). */
double vks__bench_median(double *v, uint32_t n);
/* The shape the context runs with, its strings copied. */
/* The launch shape crowds and runs of a model of `vertices` vertices run with (the small-model
 * class's where it is small: gpu/tuning.h; 0: the context's). */
void vks__bench_shape_for(const vks_gpu *gpu, uint32_t vertices, vks_bench_shape *out);

/* The workload every engine runs: every instance's locals, computed once so all engines start
 * from the same poses, and output buffers for one CPU chunk of instances. */
typedef struct vks__bench_work {
    const vks_skin *skin;
    uint32_t vertices, instances;
    vks_affine *locals;        /* instances * node_count */
    float *pos, *nrm;
    uint32_t chunk;            /* instances per CPU run: outputs of about 64 MiB */
} vks__bench_work;

vks_result vks__bench_work_make(vks__bench_work *w, const vks_skin *skin, uint32_t instances, vks_error *err);
void vks__bench_work_free(vks__bench_work *w);
/* The CPU engines' figures into out (bench_cpu.c). */
vks_result vks__bench_cpu(const vks__bench_work *w, uint32_t threads, vks_bench_result *out, vks_error *err);

/* The GPU engines' state (bench_gpu.c, bench_file.c). */
typedef struct vks__bench_engines {
    vks_gpu *gpu;
    vks_gpu_models *models;
    const vks_skin *skin;
    const vks_affine *locals;
    uint32_t instances, repeats, consumer_threads;
    uint64_t max_chunk_bytes;
    const vks_bench_options *opt;
    vks_bench_gpu_result *out;
} vks__bench_engines;

/* Every GPU engine; step names where it failed. */
vks_result vks__bench_gpu(vks__bench_engines *b, char *failed_step, size_t cap, vks_error *err);
/* One vks_gpu_run of the whole workload (bench_run_once.c): deliver NULL, kernel only
 * (timestamps, no readback); else every chunk delivered to it. */
vks_result vks__bench_run_once(vks__bench_engines *b, vks_gpu_kernel kernel,
                               int (*deliver)(void *user, uint32_t entry, uint32_t first, uint32_t count,
                                              const float *p, const float *n),
                               void *user, vks_gpu_stats *st, vks_error *err);
/* end_to_end_file (bench_file.c). */
vks_result vks__bench_file(vks__bench_engines *b, vks_error *err);

/* Writes text (malloc'd; freed here) and a newline to f (bench_json.c). */
vks_result vks__bench_write_text(char *text, FILE *f, const char *what, vks_error *err);

#endif
