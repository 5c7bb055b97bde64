/* vkskin bake jobs: a manifest of jobs (docs/baking.md "Batch baking" has the schema) baked into VAT
 * textures with their rest mesh, bone-matrix atlases, PC2 and raw vertex caches and glTF morph
 * files, each output kind with a JSON sidecar, as `vkskin bake MANIFEST.json` does (the program
 * is this call's shell: the same files, byte for byte).
 *
 * STEP BY STEP
 *   1. options:  vks_bake_options o; vks_bake_options_init(&o);
 *                o.engine = VKS_BAKE_CPU; o.out_dir = "baked"; o.logger.func = vks_log_stderr;
 *   2. jobs:     vks_bake_manifest *m; vks_bake_manifest_read(&m, "bake.json", &o, &err);
 *                (or vks_bake_manifest_parse from bytes in memory)
 *   3. bake:     vks_bake_run(m, &o, &summary, &err);   progress through o.progress
 *                vks_bake_summary_print(stderr, m, &summary);   the table `vkskin bake` prints
 *                vks_bake_report_write("report.json", m, &o, &summary, &err)   its --report
 *   4. results:  for j < vks_bake_manifest_job_count(m):
 *                    vks_bake_job_get(m, j, &info)            what job j did, its failure
 *                    vks_bake_job_file(m, j, i, &file)         its files (i < info.file_count)
 *   5. free:     vks_bake_manifest_free(m)
 *
 * Every output goes to a temporary name and is renamed when complete; a sidecar is written
 * after its files, so a run again skips what is complete (same manifest entry and vkskin
 * version; o.force redoes it) and redoes the rest. A job that fails does not stop the others:
 * vks_bake_run returns VKS_OK when the run itself could be made, and each job says its own
 * failure (info.status, info.failure; the messages went through o.logger).
 *
 * THREADS
 *   vks_bake_run starts its own threads (o.threads encode and write, o.jobs_in_flight read and
 *   deform); a manifest belongs to one run at a time. o.progress and o.logger are called from
 *   those threads, one call at a time for progress.
 */
#ifndef VKSKIN_BAKE_JOB_H
#define VKSKIN_BAKE_JOB_H

#include <stdint.h>
#include <stdio.h>

#include "core.h"
#include "gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which engine deforms: the GPU (one crowd instance per frame, all of a group of jobs in one
 * submission), the CPU reference (double) or the fast CPU engine. */
typedef enum vks_bake_engine { VKS_BAKE_GPU, VKS_BAKE_CPU, VKS_BAKE_CPU_FAST } vks_bake_engine;
/* "gpu", "cpu", "cpu-fast". */
VKS_API const char *vks_bake_engine_name(vks_bake_engine e);

/* Output kinds a job may ask for (manifest "outputs"), as bits. */
enum {
    VKS_BAKE_OUT_VAT_EXR_FLOAT = 1u << 0, /* "vat-exr-float" */
    VKS_BAKE_OUT_VAT_EXR_HALF = 1u << 1,  /* "vat-exr-half" */
    VKS_BAKE_OUT_VAT_PNG16 = 1u << 2,     /* "vat-png16" */
    VKS_BAKE_OUT_ATLAS = 1u << 3,         /* "atlas" */
    VKS_BAKE_OUT_PC2 = 1u << 4,           /* "pc2" */
    VKS_BAKE_OUT_RAW = 1u << 5,           /* "raw" */
    VKS_BAKE_OUT_GLTF_MORPH = 1u << 6,    /* "gltf-morph" */
    VKS_BAKE_OUT_KINDS = 7
};
/* "vat-exr-float", ... for bit k; NULL past the last. */
VKS_API const char *vks_bake_out_name(int k);

/* Where a run is (o.progress): jobs of this shard, done so far (baked, skipped or failed), the
 * frames baked, the job being read (may be ""), final = 1 on the last call, and the seconds
 * since the run began (a rate, a time left; since 0.8). */
typedef struct vks_bake_progress_info {
    uint32_t jobs, jobs_done;
    uint64_t frames_done;
    const char *current;
    int final;
    double seconds;
} vks_bake_progress_info;

typedef struct vks_bake_options {
    vks_bake_engine engine;    /* default VKS_BAKE_GPU */
    const char *out_dir;       /* NULL: the manifest's "out", else "bake" beside the manifest */
    int force;                 /* redo outputs even when their sidecars say they are up to date */
    int contact_sheet;         /* a PNG per baked clip for every job (GPU renderer; at parse) */
    int split;                 /* a VAT over max_height spread over textures, every job (at parse) */
    uint32_t shard_index, shard_count; /* bake share shard_index of shard_count (default 0 of 1) */
    uint32_t jobs_in_flight;   /* jobs read and deformed at once (default 1; at least one a device,
                                  at most 256) */
    uint32_t threads;          /* threads that encode and write (default: one per core, at most 64) */
    uint64_t max_memory_bytes; /* a job that would take more is refused (default 4096 MiB) */
    uint64_t max_input_bytes;  /* a model or clip file larger is refused (default 2 GiB) */
    vks_logger logger;         /* errors and notes, one line each (vks_log_stderr: the program's) */
    void (*progress)(void *user, const vks_bake_progress_info *p);
    void *progress_user;
    /* The GPU engine's contexts: device_count of them (default 1), each opened by open_device
     * on a thread of the run while the first jobs are read (render: a queue that can draw the
     * contact sheets is needed). open_device returns 0, or a host's nonzero code that ends the
     * run (said by the host), which vks_bake_run reports as VKS_ERR_NO_DEVICE and
     * summary.open_failure. NULL: vks_gpu_create with the best device and o.logger. The run
     * destroys the contexts it was given when it ends. */
    uint32_t device_count;
    int (*open_device)(void *user, uint32_t d, int render, vks_gpu **gpu);
    void *device_user;
} vks_bake_options;

/* The defaults above. */
VKS_API void vks_bake_options_init(vks_bake_options *o);

/* Makes this process's allocator (glibc's; elsewhere nothing) reuse a bake's freed blocks of
 * megabytes rather than map fresh pages for each: one malloc arena, no mmap under 32 MiB, the
 * heap's top kept. A bake then faults each page of its memory in about once (about a sixth of
 * the all-characters bake's CPU went to page faults without); its peak is the same. Process-wide
 * and the host's choice (it changes every allocation of the process): call it once, before any
 * thread starts, as `vkskin bake` does; vks_bake_run does not. Since 0.8. */
VKS_API void vks_bake_reuse_memory(void);

/* A manifest's jobs, and after vks_bake_run what each did. */
typedef struct vks_bake_manifest vks_bake_manifest;

/* Reads and checks a manifest (o: contact_sheet, split, logger and max_input_bytes are used).
 * A bad manifest: VKS_ERR_FORMAT (VKS_ERR_IO when unreadable), the file and the entry said
 * through o->logger ("bake.json: jobs[3].clips[1]: ...") and in err. */
VKS_API vks_result vks_bake_manifest_read(vks_bake_manifest **out, const char *path, const vks_bake_options *o,
                                          vks_error *err);
/* The same from bytes in memory; path names it in messages and is the folder that relative
 * paths start in (nothing is read here). */
VKS_API vks_result vks_bake_manifest_parse(vks_bake_manifest **out, const char *path, const void *bytes,
                                           size_t size, const vks_bake_options *o, vks_error *err);
VKS_API void vks_bake_manifest_free(vks_bake_manifest *m);
VKS_API uint32_t vks_bake_manifest_job_count(const vks_bake_manifest *m);
/* Where a run with out_dir puts its outputs: out_dir, else the manifest's "out" (resolved),
 * else "bake" in the manifest's folder; malloc'ed (free it), NULL without memory. */
VKS_API char *vks_bake_output_dir(const vks_bake_manifest *m, const char *out_dir);

/* Where the summary's times are, in seconds from the run's start (negative: did not happen). */
typedef struct vks_bake_stages {
    double devices_open;    /* the GPU's contexts made (opened while the first jobs are read) */
    double first_deform;    /* the first group (or CPU job) began deforming */
    double last_deform_end; /* the last one finished: writing went on after it */
} vks_bake_stages;

enum { VKS_BAKE_MAX_DEVICES = 16 };

/* What one device of the run took (GPU engine). */
typedef struct vks_bake_device_share {
    char device[256];   /* its name */
    uint32_t jobs, groups;
    double busy_seconds; /* its groups' time on it: deform and contact sheets */
} vks_bake_device_share;

typedef struct vks_bake_summary {
    double seconds;            /* the run, from its start to the last output written */
    vks_bake_stages stages;
    uint32_t device_count;
    vks_bake_device_share devices[VKS_BAKE_MAX_DEVICES];
    uint32_t validation_messages; /* the validation layer's, over every device */
    int open_failure;          /* open_device's code when a device could not be opened, else 0 */
} vks_bake_summary;

/* Bakes the manifest's jobs (this shard's) into o->out_dir (made when missing). VKS_OK when
 * the run could be made, whatever its jobs did; VKS_ERR_NO_DEVICE when a device could not be
 * opened (nothing was written); VKS_ERR_NOMEM, VKS_ERR_IO (the output folder), VKS_ERR_INVALID
 * (contact sheets without the GPU engine, or an output that is one of the inputs:
 * vks_bake_refuse_inputs, applied first unless it passed for this folder already). summary may
 * be NULL. */
VKS_API vks_result vks_bake_run(vks_bake_manifest *m, const vks_bake_options *o, vks_bake_summary *summary,
                                vks_error *err);

/* The rule of every output (output_plan.h, docs/safety.md) over a bake, before any work: no
 * file the run would write in the output folder (o->out_dir as vks_bake_run resolves it: every
 * job's files, sidecars, root-motion CSV, split parts and contact sheets; none with check) and
 * no report (report, may be NULL: a file the host writes) is one of the inputs: the manifest,
 * each job's model with its model.cfg or glTF buffers, its clip files, and the shard reports
 * (*.json) in merge_dir (may be NULL). A refusal is said through o->logger ("jobs[0]:
 * bake/hero.pc2: the output is hero.dff (the model of jobs[1]), one of the inputs; refusing to
 * overwrite it") and returns VKS_ERR_INVALID; VKS_ERR_NOMEM. vks_bake_run and
 * vks_bake_check_outputs apply it themselves; a host calls it to refuse before opening devices,
 * or for a report of its own. Since 0.8. */
VKS_API vks_result vks_bake_refuse_inputs(vks_bake_manifest *m, const vks_bake_options *o, const char *report,
                                          const char *merge_dir, int check, vks_error *err);

/* What the run did, as `vkskin bake` says it after a run: a table of this shard's jobs (entry,
 * name, state, frames, vertices, outputs written and skipped, bytes, seconds) and a total line
 * ("bake: 3 baked, 0 up to date, 0 failed; ..."), written to f. Since 0.8. */
VKS_API void vks_bake_summary_print(FILE *f, const vks_bake_manifest *m, const vks_bake_summary *summary);

/* The run's JSON report (`vkskin bake --report`, docs/baking.md): the manifest, the engine and
 * the shard of o, per job of this shard its state, outputs, times and bytes, the totals, the
 * stages' times and, over several devices, what each took ("context_shares"). Written through
 * the output module (a temporary renamed into place); VKS_ERR_IO naming path when it cannot be,
 * VKS_ERR_INVALID without a path, manifest, options or summary. Since 0.8. */
VKS_API vks_result vks_bake_report_write(const char *path, const vks_bake_manifest *m, const vks_bake_options *o,
                                         const vks_bake_summary *summary, vks_error *err);

/* The merge step after a sharded bake (`vkskin bake --check [--merge DIR]`): whether every
 * output of every job is up to date in o->out_dir (its sidecar records the entry's hash and this
 * vkskin's version, its files the sizes recorded; one line said through o->logger per missing
 * one, *missing counts them), and, with report_path, the shard reports (JSON, "tool": "vkskin
 * bake") in merge_dir (may be NULL) merged into one report, each job's entry taken from the
 * shard that baked it. Bakes nothing. VKS_ERR_IO when the folder cannot be made (said through
 * o->logger; *missing is then UINT32_MAX: nothing was checked) or the report cannot be written
 * (err says why, nothing is said; *missing is the count). A report that is one of the inputs
 * is refused first (vks_bake_refuse_inputs, VKS_ERR_INVALID). */
VKS_API vks_result vks_bake_check_outputs(const vks_bake_manifest *m, const vks_bake_options *o, const char *merge_dir,
                                          const char *report_path, uint32_t *missing, vks_error *err);

/* What a job did in the last run. */
typedef enum vks_bake_job_status {
    VKS_BAKE_JOB_FAILED = -1,
    VKS_BAKE_JOB_NOT_RUN = 0, /* not run yet, or another shard's */
    VKS_BAKE_JOB_BAKED = 1,
    VKS_BAKE_JOB_UP_TO_DATE = 2
} vks_bake_job_status;

typedef struct vks_bake_job_info {
    const char *where;         /* "jobs[3]" */
    const char *name;          /* the outputs' base name */
    const char *model;         /* as the manifest writes it */
    uint32_t outputs;          /* VKS_BAKE_OUT_* bits asked for */
    int mine;                  /* this shard's job */
    vks_bake_job_status status;
    vks_result failure;        /* when failed: VKS_ERR_FORMAT an input could not be read or was
                                  refused, VKS_ERR_IO deforming or writing failed */
    uint32_t outputs_written, outputs_skipped;
    uint64_t bytes;            /* written by the run */
    uint32_t frames, vertices;
    double seconds, read_seconds, deform_seconds;
    uint32_t file_count;       /* its outputs (vks_bake_job_file) */
    const char *note;          /* why a part could not be made ("" when nothing was said) */
    uint32_t lost_vertices[2]; /* vertices that lost influences: the model's (over 8), the atlas
                                  mesh's (over 4) */
    float lost_largest[2];     /* the largest weight each dropped */
} vks_bake_job_info;

/* VKS_ERR_INVALID when j is past the last job. */
VKS_API vks_result vks_bake_job_get(const vks_bake_manifest *m, uint32_t j, vks_bake_job_info *out);

/* One output file of a job, as the sidecars list them: its path in the output folder, its size
 * and the output kind it belongs to ("vat-exr-half", "atlas", "pc2", ...; a contact sheet's
 * is "contact-sheet" with no size). Sidecars themselves are NAME.KIND.json beside them. */
typedef struct vks_bake_file {
    const char *path;
    uint64_t bytes;
    const char *kind;
} vks_bake_file;

/* VKS_ERR_INVALID when j or i is past the last. */
VKS_API vks_result vks_bake_job_file(const vks_bake_manifest *m, uint32_t j, uint32_t i, vks_bake_file *out);

#ifdef __cplusplus
}
#endif
#endif
