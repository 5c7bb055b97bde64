/* vkskin validate's parts: the run on one device (validate_run.c), golden results
 * (validate_golden.c) and the reports written from the results (validate_report.c);
 * cmd_validate.c parses the options and runs every device. */
#ifndef VKSKIN_CLI_VALIDATE_H
#define VKSKIN_CLI_VALIDATE_H

#include "cli_crowd.h"
#include "cli_crowd_split.h"
#include "cli_gpu.h"
#include "vkskin/report.h"

#include "check/validate_engine.h"

/* What the run of one device found, kept for the reports written at the end. */
typedef struct vdevice {
    char name[256], type[32];
    uint32_t queue_family, queue_index; /* the queue the device's run submitted to */
    char error[512];       /* the device could not run ("": it ran) */
    int exit_code;
    int ran;               /* the GPU run completed and the files below are filled */
    int validation_layer;
    uint32_t validation_messages;
    vks_report_file *files; /* one per vfile */
    vks_error_map *maps;    /* 3 per vfile: positions, normals, golden positions */
    char **heatmaps;        /* per vfile: the heat map's file name in the report folder, or NULL */
    char **heatmap_missing; /* per vfile: why it has none (--report only), or NULL */
    char **run_errors;      /* per vfile: why its run failed, or NULL */
    char **golden_errors;
    /* what the text and JSON output print */
    vks_gpu_stats st;
    int crowd_path;
    vks_cli_crowd_split_stats split; /* clips across several contexts: what each did */
    /* the GPU's per-chunk reductions, summed up for the report (reduced: the run had them),
       and the checks' findings (the library's engine counts them: check/validate_engine.h) */
    int reduced;
    vcounts chk;
    char reduction_text[320];               /* their JUnit case's message */
} vdevice;

typedef struct vrun {
    vfile *files;
    vks_cli_poser *posers;   /* per file: what its vfile.ps points into */
    int nfiles;
    const vks_cli_pose *pose;
    vks_cli_gpu_opts gopt;   /* with the device of this run */
    int json, allow_mismatch;
    int threads;             /* --threads N for the reference (0: every core) */
    int readback_check;      /* --readback-check: 0 auto (where chunks come through a copy), 1 on, -1 off */
    const char *report_dir;  /* --report: heat maps are drawn into it per device */
    int device_number;       /* for heat map names */
    /* --device all or a list without --each: the contexts the batch's poses are split across
       (split[0] is gopt.device); nsplit <= 1: the one device of gopt */
    const char (*split)[16];
    int nsplit;
    uint32_t validation_messages; /* the other contexts' validation messages */
    vks_cli_shares *shares;       /* out (may be NULL): how a split batch shared its poses */
    vctx c;
    int sampled;                  /* --sample: the batch reduces every chunk whatever --readback-check */
} vrun;

/* ---- sampled validation (validate_sample.c) ---- */

/* --sample N|P% and --sample-seed S */
typedef struct vsample {
    int on;
    uint32_t count;   /* N instances of each file (count) or P percent of them (percent > 0) */
    double percent;
    uint64_t seed;
} vsample;

enum { VKS_SAMPLE_DEFAULT_SEED = 41 };

/* The setter of --sample and --sample-seed (cli_options.h; field: the vsample). */
int vks_validate_sample_set(void *field, const vks_cli_option *opt, const char *v);
/* Chooses each file's sampled instances (the same for the same seed, file order and counts)
 * and its bone boxes; 0 when memory ran out (printed). */
int vks_validate_sample_prepare(const vsample *o, vfile *files, int nfiles);
void vks_validate_sample_free(vfile *files, int nfiles);
/* "N of M instances of each file (seed S)" style text, JSON and the JUnit property. */
void vks_validate_sample_said(const vsample *o, const vfile *files, int nfiles, char *out, size_t size);
/* The device's reduction check in a sentence (the JUnit case's message). */
void vks_validate_reduction_said(const vdevice *d, char *out, size_t size);
/* What was sampled and the reduction check's outcome: printed, or as "sample" into root. */
void vks_validate_sample_report(const vsample *o, const vfile *files, int nfiles, const vdevice *d, struct cJSON *root);

/* The CLI's side of a context (validate_pool.c): the reference's threads, a pool started at
 * the first chunk that has work for two and kept for the run (vctx.parallel), and the engine's
 * lines on stderr (vctx.say). */
void vks_validate_ctx_init(vctx *c);
/* Ends the context's threads and frees its scratch (vks__validate_ctx_free). */
void vks_validate_ctx_free(vctx *c);

/* Runs every file on the device of r->gopt into d: the GPU in one batch (or crowds for clips),
 * the reference chunk by chunk, diffs, error maps, golden writes or comparisons, and with a
 * report folder the heat maps. Returns the device's exit code (0 when everything passed). */
int vks_validate_on_device(vrun *r, vdevice *d);
void vks_validate_device_free(vdevice *d, int nfiles);

/* vks_gpu_batch.reduce for --readback-check (auto: only where the chunks come through a copy). */
int vks_validate_reduce_mode(const vrun *r);

/* The batch of every file across r->nsplit contexts (validate_split.c): gpu0 and ms0 the first
 * context's, the others opened here. The verdict is bit-identical to one context's. Each
 * context's batch reduces by --readback-check's rule on its own device and checks its chunks'
 * readback into r->c.device (*reduced: some context did). Returns
 * VKS_EXIT_OK, an exit code (a context could not be opened: printed), or -1 with *err set when
 * a run failed; st gets the contexts' summed stats (total_ms left to the caller). */
int vks_validate_split_batch(vrun *r, vks_gpu *gpu0, vks_gpu_models *ms0, const vks_skin *const *skins,
                             vks_gpu_stats *st, int *reduced, vks_error *err);
/* The crowd job (clips) across r->nsplit contexts likewise (cli_crowd_split.h): the job's gpu,
 * models and clips are ignored, every context uploads its own; the consumer sees one context's
 * order, so the verdict is one device's. Same returns; st the contexts' summed stats, split
 * what each did. */
int vks_validate_split_crowd(vrun *r, vks_gpu *gpu0, vks_gpu_models *ms0, const vks_skin *const *skins,
                             const vks_cli_crowd_job *job, vks_cli_crowd_stats *st, vks_cli_crowd_split_stats *split,
                             vks_error *err);

/* ---- golden results (validate_golden.c) ---- */

/* Opens DIR/<k>.raw of every file for writing; 0 on success (else prints why, exit code). */
int vks_golden_begin_save(const char *dir, vfile *files, int nfiles);
/* Before any work: refuses (vks_cli_refuse_input, exit 2) a file --save-golden DIR would write
 * for nfiles files that is one of the inputs. */
int vks_golden_refuse_inputs(const char *dir, int nfiles, const vks_cli_inputs *in);
/* The files of a golden folder (--against DIR reads golden.json and the raws it names, all in
 * DIR) as inputs. */
void vks_golden_add_inputs(const char *dir, vks_cli_inputs *in);
/* Commits the raws and writes DIR/golden.json: each file's name, model hash, format, vertex
 * and pose counts, the pose spec, the engine, the device and vkskin's version. */
int vks_golden_finish_save(const char *dir, vfile *files, int nfiles, const char *pose_spec, const char *engine,
                           const char *device, int commit);
/* Reads DIR/golden.json and opens each file's raw for the comparison; a file the golden does
 * not hold (other model hash, pose count or spec) gets gold.mismatch. Exit code (1: the golden
 * cannot be read at all). */
int vks_golden_begin_against(const char *dir, vfile *files, int nfiles, const char *pose_spec);
void vks_golden_close(vfile *files, int nfiles);

/* ---- reports (validate_report.c) ---- */

typedef struct vreport_opts {
    const char *junit;       /* --junit FILE */
    const char *report_dir;  /* --report DIR */
    const char *against;
    const char *command;
    double tolerance_scale, nmse;
    int exit_code;
    const char *sample;      /* --sample: what was compared (NULL: every instance) */
} vreport_opts;

/* Writes the JUnit file and the HTML report from every device's results; a failure to write
 * is printed and returned as VKS_EXIT_RUNTIME. */
int vks_validate_reports(const vreport_opts *o, vdevice *devs, int ndev, vfile *files, int nfiles);
/* Before any work: refuses (vks_cli_refuse_input, exit 2) a report file that is one of the
 * inputs: the JUnit file, and in the report folder index.html, three.min.js and the heat maps. */
int vks_validate_reports_refuse_inputs(const vreport_opts *o, const vks_cli_inputs *in);
/* Makes the folder an option names unless it exists; prints why not (exit 5). */
int vks_validate_make_dir(const char *option, const char *dir);
/* Draws the heat map of file f's worst instance into the report folder (name in d->heatmaps);
 * prints why not when it cannot. */
void vks_validate_heatmap(vrun *r, vks_gpu *gpu, vdevice *d, int f);

#endif
