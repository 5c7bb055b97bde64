/* The GPU engines of vkskin bench (bench_gpu.c): the context's creation, the project's
 * kernel and the plain baseline kernel (interleaved, so their ratio is measured on the same
 * machine state), the end to end into host memory, and with --end-to-end FILE the deform
 * path into a raw file against a plain write of the same bytes. Each engine's first run
 * (buffers made, pages touched, shaders compiled) is reported apart from its steady state
 * (the median of the repeats). */
#ifndef VKSKIN_BENCH_GPU_H
#define VKSKIN_BENCH_GPU_H

#include "cli_gpu.h"

struct cJSON;

/* One engine's figures: its first run and the median of its steady runs. ms are the passes'
 * timestamps for the kernels, host wall time for the end to end. */
typedef struct vks_bench_gpu_engine {
    double first_ms, first_wall_ms; /* the first run: timestamps (kernels) and wall time */
    uint32_t first_buffers;         /* buffers the first run made */
    double steady_ms, steady_wall_ms;
    double pose_ms, deform_ms;      /* kernels: the steady runs' passes (medians) */
    uint32_t steady_buffers;        /* buffers made by all the steady runs together (0) */
} vks_bench_gpu_engine;

/* --end-to-end FILE: the deform path (vks_deform_run, as deform --gpu --format raw) into FILE,
 * as deform runs it and then fdatasync'd, against a plain write of as many bytes to FILE with
 * fdatasync (the disk) and the kernel, in rounds; each the median of its rounds. */
typedef struct vks_bench_gpu_file {
    uint64_t bytes;
    double deform_ms;   /* deform path: output opened to renamed into place */
    double sync_ms;     /* then fdatasync of the file: both figures are durable writes */
    double disk_ms;     /* plain write(2) of the same bytes, then fdatasync */
    double engine_ms;   /* of deform_ms: in the engine (vks_gpu_run_job) */
    double kernel_ms;   /* the project's kernel, kernel only, in the same rounds */
    double first_ms;    /* the deform path's first run, before the rounds */
    double ratio;                       /* max(kernel, disk) / deform, of the medians */
    double ratio_min, ratio_max;        /* the same of each round alone: the spread */
    double durable_ratio;               /* ratio with the deform path's fdatasync */
    uint32_t runs;
} vks_bench_gpu_file;

typedef struct vks_bench_gpu {
    /* in */
    const vks_skin *skin;
    const vks_affine *locals; /* instances * node_count */
    uint32_t instances, repeats;
    const vks_cli_gpu_opts *gopt;
    const char *file; /* --end-to-end FILE, or NULL */
    uint32_t consumer_threads; /* the end to end: threads that consume the outputs (0: 1) */
    /* out */
    vks_gpu *gpu;
    vks_gpu_models *models;
    const char *device, *device_type;
    uint32_t queue_family, queue_index; /* the queue the context submits to */
    uint32_t readback_family, readback_index; /* the queue the readback copies go to */
    double context_ms, upload_ms;
    vks_bench_gpu_engine kernel, plain, e2e;
    double ratio, ratio_min, ratio_max; /* plain / project deform-pass time, median of the pairs */
    uint32_t chunks;
    vks_bench_gpu_file disk;
    /* the device's own ceilings, measured in the same run (0 where it has no timestamps) */
    vks_gpu_ceilings ceilings;
    double readback_ms;       /* end to end: the readback copies' timestamps (median run) */
    uint64_t readback_bytes;  /* and the bytes they moved (0: outputs read in place) */
    uint32_t consumer_threads_used; /* the end to end's consuming threads, the caller's included */
    uint64_t consumed_sum;          /* the words they read, summed (the reads are not dead) */
} vks_bench_gpu;

/* Runs every GPU engine on b's workload; an exit code (messages printed here). */
int vks_bench_gpu_run(vks_bench_gpu *b);
/* Vertex-instances per second at ms. */
double vks_bench_gpu_rate(const vks_bench_gpu *b, double ms);
void vks_bench_gpu_text(FILE *f, const vks_bench_gpu *b);
void vks_bench_gpu_json(struct cJSON *o, const vks_bench_gpu *b);
void vks_bench_gpu_free(vks_bench_gpu *b);

#endif
