/* vkskin bench: the engines measured on one workload as library calls, with the JSON report
 * `vkskin bench --json` and `vkskin bench --crowd --json` print. A host or a CI job that has the
 * device (and the Python package, vkskin.bench) measures it as the command does.
 *
 * STEP BY STEP
 *   1. read and validate a model (formats.h, skin.h); for the GPU engines open a context
 *      (gpu.h), timing its creation if the report should say it:
 *        vks_gpu_create(&gopt, &gpu, &err)          or gpu = NULL: the CPU engines only
 *   2. options (vks_bench_options_init: 100 instances, 5 steady runs of each GPU engine, the
 *      fast CPU engine on every core; a zeroed struct means the same):
 *        vks_bench_options opt; vks_bench_options_init(&opt);
 *        opt.instances = 1000; opt.context_ms = ms_to_create_gpu;   optional
 *   3. vks_bench_run(gpu, skin, &opt, &result, &err)
 *      every instance is posed procedurally once (the same locals for every engine); the CPU
 *      reference (double) runs ref_instances of them, the fast CPU engine every one on
 *      `threads` threads, then on one thread with each kernel this CPU has (baseline, AVX2,
 *      AVX-512); with a context: the model's upload, the device's ceilings (fill, copy,
 *      device to host), the project's kernel and the plain kernel (first runs, then `repeats`
 *      interleaved pairs, kernel only), the end to end into host memory (outputs consumed in
 *      place on `threads` threads), and with end_to_end_file the host's deform path into a
 *      raw file against a plain write of the same bytes.
 *   4. vks_bench_write_json(&result, stdout, &err)   or vks_bench_json(&result) (malloc'd);
 *      vks_bench_write_text(&result, stdout, &err)   the lines `vkskin bench` prints
 *      the figures are in result (vertex-instances per second, milliseconds, fractions of the
 *      device's ceilings); nothing to free.
 *   5. the crowd: vks_bench_crowd_run(gpu, skin, &copt, &crowd, &err) times a persistent crowd's
 *      frames against the per-call path (vks_gpu_run), then clips sampled on the GPU against
 *      clips sampled on the host, and 1, 2 and 4 layers; vks_bench_crowd_write_json, or
 *      vks_bench_crowd_write_text for the lines `vkskin bench --crowd` prints.
 *
 * THREADS
 *   A run uses its context from the calling thread and starts threads of its own (the fast
 *   engine's, the end to end's consumers) that end before it returns. It sets the fast CPU
 *   engine's kernel (vks_cpu_fast_set_path, process-wide) for its per-core figures and restores
 *   the automatic choice: run no other fast-engine work meanwhile if its figures matter. Results
 *   are plain data: writers only read them.
 */
#ifndef VKSKIN_BENCH_H
#define VKSKIN_BENCH_H

#include <stdio.h>

#include "clip.h"
#include "cpu.h"
#include "gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A deform path into a raw file other than the library's, for end_to_end_file to time (NULL:
 * vks_deform_run with the GPU, as `vkskin deform --gpu --format raw` runs it). Writes the raw
 * output (bake.h, VKS_BAKE_RAW, one frame) of `instances` instances, instance i posed by the
 * node_count locals at locals + i * node_count, to path through a temporary name and a rename,
 * deforming on gpu (skin uploaded as model 0 of models) in chunks of at most max_chunk_bytes
 * (0: automatic); *engine_ms: the part of its time spent deforming. The bench times the call. */
typedef vks_result (*vks_bench_deform_file_fn)(void *user, vks_gpu *gpu, const vks_gpu_models *models,
                                               const vks_skin *skin, const vks_affine *locals, uint32_t instances,
                                               uint64_t max_chunk_bytes, const char *path, double *engine_ms,
                                               vks_error *err);

typedef struct vks_bench_options {
    uint32_t instances;        /* posed procedurally (seed 1, time 0.5; 0: 100) */
    uint32_t ref_instances;    /* the CPU reference's (0: enough for ~2M vertex-instances, at most
                                  instances) */
    uint32_t threads;          /* the fast CPU engine's and the end to end's consumers (0: every
                                  core) */
    uint32_t repeats;          /* steady runs of each GPU engine (0: 5) */
    uint64_t max_chunk_bytes;  /* the GPU runs' chunks (0: the tuning table's) */
    double context_ms;         /* reported as the context's creation (the caller timed it; 0:
                                  not timed) */
    /* the deform path into a file (NULL: not measured), left holding the raw output;
       deform_file: another deform path than the library's (NULL: vks_deform_run) */
    const char *end_to_end_file;
    vks_bench_deform_file_fn deform_file;
    void *deform_file_user;
} vks_bench_options;

/* The defaults spelled out (what a zeroed struct means too). */
VKS_API void vks_bench_options_init(vks_bench_options *opt);

/* The fast CPU engine's kernels, in the order of vks_bench_result.per_core. */
enum { VKS_BENCH_KERNELS = 3 };
VKS_API const char *vks_bench_kernel_name(int k); /* "baseline", "avx2", "avx512"; NULL past them */

/* A launch shape as the report gives it (vks_gpu_shape_info, its strings copied). */
typedef struct vks_bench_shape {
    char text[96], source[32], reason[512];
    uint32_t deform_workgroup, pose_workgroup, instance_run, shared_palette_slots;
    int skin_texels;
    double pipeline_ms;
} vks_bench_shape;

/* One GPU engine: its first run apart (buffers made, pages touched, shaders compiled) and the
 * median of its steady runs. ms are the passes' timestamps for the kernels, host wall time for
 * the end to end. */
typedef struct vks_bench_engine {
    double first_ms, first_wall_ms;
    uint32_t first_buffers;    /* buffers the first run made */
    double steady_ms, steady_wall_ms;
    double pose_ms, deform_ms; /* kernels: the steady runs' passes (medians) */
    uint32_t steady_buffers;   /* buffers all the steady runs made together (0 expected) */
} vks_bench_engine;

/* end_to_end_file: the deform path against a plain write(2) of as many bytes with fdatasync
 * (the disk) and the kernel, in `runs` rounds; each the median of its rounds. */
typedef struct vks_bench_file {
    const char *path;          /* the option's string, not copied */
    uint64_t bytes;
    double deform_ms;          /* the deform path: output opened to renamed into place */
    double sync_ms;            /* then fdatasync of the file */
    double disk_ms;            /* the plain write, with fdatasync */
    double engine_ms;          /* of deform_ms: deforming */
    double kernel_ms;          /* the project's kernel, kernel only, in the same rounds */
    double first_ms;           /* the deform path's first run, before the rounds */
    double ratio;              /* max(kernel, disk) / deform, of the medians */
    double ratio_min, ratio_max; /* the same of each round alone: the spread */
    double durable_ratio;      /* with the deform path's fdatasync */
    uint32_t runs;
} vks_bench_file;

typedef struct vks_bench_gpu_result {
    char device[256], device_type[32];
    uint32_t queue_family, queue_index;       /* the queue the context submits to */
    uint32_t readback_family, readback_index; /* the queue the readback copies go to */
    double context_ms, upload_ms;
    vks_bench_shape shape;                    /* as the context ran, after the runs */
    vks_bench_engine kernel, plain, end_to_end;
    uint32_t repeats;
    double ratio, ratio_min, ratio_max;       /* plain / project deform-pass time: median of the
                                                 interleaved pairs, their least and most */
    uint32_t chunks;
    vks_gpu_ceilings ceilings;                /* fill_bytes_per_second 0: the device has no
                                                 timestamps (no fractions then) */
    double readback_ms;                       /* end to end: the readback copies (median run) */
    uint64_t readback_bytes;                  /* and the bytes they moved (0: read in place) */
    uint32_t consumer_threads;                /* the end to end's consuming threads */
    uint64_t consumed_sum;                    /* the words they read, summed (the reads count) */
    int has_file;                             /* end_to_end_file was measured: file holds */
    vks_bench_file file;
} vks_bench_gpu_result;

typedef struct vks_bench_result {
    uint32_t vertices, bones, groups, instances, ref_instances;
    int threads;                               /* the fast engine's */
    double ref_rate, fast_rate;                /* vertex-instances per second (position + normal) */
    char fast_kernel[16];                      /* the fast engine's kernel in use */
    double per_core[VKS_BENCH_KERNELS];        /* on one thread, per kernel (0: this CPU has none) */
    int gpu_ran;                               /* a context was given: gpu holds */
    vks_bench_gpu_result gpu;
    char failed_step[32];                      /* where a failed run stopped ("upload",
                                                  "ceilings", "gpu kernel", "gpu end to end",
                                                  "end to end file"; "" otherwise) */
} vks_bench_result;

/* Measures every engine on skin (validated) with opt (NULL: defaults); gpu NULL: the CPU engines
 * only. VKS_OK with *out filled; else the error (and out->failed_step). */
VKS_API vks_result vks_bench_run(vks_gpu *gpu, const vks_skin *skin, const vks_bench_options *opt,
                                 vks_bench_result *out, vks_error *err);
/* Vertex-instances per second of the result's workload done in ms (0 for ms <= 0). */
VKS_API double vks_bench_rate(const vks_bench_result *r, double ms);

/* The report `vkskin bench --json` prints: malloc'd text (NULL: out of memory), or written to f
 * with a newline. Numbers in the C locale whatever the host's. */
VKS_API char *vks_bench_json(const vks_bench_result *r);
VKS_API vks_result vks_bench_write_json(const vks_bench_result *r, FILE *f, vks_error *err);
/* The text `vkskin bench` prints: the workload, each engine's rate, and with a GPU its launch
 * shape, kernels, end to end, the device's ceilings and the end_to_end_file's rounds. Since 0.8 */
VKS_API vks_result vks_bench_write_text(const vks_bench_result *r, FILE *f, vks_error *err);

/* ---- the crowd (vkskin bench --crowd) ---- */

typedef struct vks_bench_crowd_options {
    uint32_t instances;        /* 0: 1000, posed procedurally */
    uint32_t frames;           /* frames timed after a warm-up frame (0: 100) */
    /* the clip workload's two clips, bound to the skin (the generator's walk and wave for the
       CLI); NULL: the clip and layer figures are not measured (left 0) */
    const vks_clip *clips[2];
} vks_bench_crowd_options;

typedef struct vks_bench_crowd_result {
    char device[256], device_type[32];
    uint32_t queue_family, queue_index;
    uint32_t vertices, bones, instances, frames;
    vks_bench_shape shape;     /* the crowd's: calibrated at its creation where large enough */
    /* per frame, host wall time (gpu: timestamps) */
    double first_ms, steady_ms, steady_gpu_ms; /* the crowd frame by frame */
    double batched_ms, batched_gpu_ms;         /* the crowd's frames in one submission */
    double percall_first_ms, percall_ms, percall_kernel_ms; /* vks_gpu_run, kernel only */
    uint32_t percall_chunks;
    /* clips (each instance its own clip, start and speed): sampled in the pose pass against
       sampled on the host and uploaded (uploaded_ms includes uploaded_host_ms) */
    double gpu_sampled_ms, gpu_sampled_gpu_ms, gpu_sampled_pose_gpu_ms;
    double uploaded_ms, uploaded_gpu_ms, uploaded_host_ms, uploaded_bytes_per_frame;
    uint64_t clip_keys;        /* keys uploaded once for the GPU path */
    /* 1, 2 and 4 layers of the two clips: wall, timestamps, the pose pass alone */
    double layers_ms[3], layers_gpu_ms[3], layers_pose_gpu_ms[3];
} vks_bench_crowd_result;

/* Uploads skin (validated) to gpu and times the crowd against the per-call path, then the clip
 * workload; opt NULL: defaults. */
VKS_API vks_result vks_bench_crowd_run(vks_gpu *gpu, const vks_skin *skin, const vks_bench_crowd_options *opt,
                                       vks_bench_crowd_result *out, vks_error *err);
/* The report `vkskin bench --crowd --json` prints, as vks_bench_json. */
VKS_API char *vks_bench_crowd_json(const vks_bench_crowd_result *r);
VKS_API vks_result vks_bench_crowd_write_json(const vks_bench_crowd_result *r, FILE *f, vks_error *err);
/* The text `vkskin bench --crowd` prints: the crowd against the per-call path, the clips and the
 * layers. Since 0.8 */
VKS_API vks_result vks_bench_crowd_write_text(const vks_bench_crowd_result *r, FILE *f, vks_error *err);

#ifdef __cplusplus
}
#endif

#endif
