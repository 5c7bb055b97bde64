/* vkskin validate's parts: the run on one device (validate_run.c), golden results
 * (validate_golden.c) and the reports written from the results (validate_report.c);
 * cmd_validate.c parses the options and runs every device. */
#ifndef VKSKIN_CLI_VALIDATE_H
#define VKSKIN_CLI_VALIDATE_H

#include "cli_crowd.h"
#include "cli_crowd_split.h"
#include "cli_gpu.h"
#include "vkskin/report.h"

/* A golden's raw file of one model: per pose (numbered instance * frames + frame), its
 * positions then its normals, vertex_count * 3 float32 each, little-endian as the host. */
typedef struct vgold {
    int fd;               /* the raw file being written (--save-golden) or read (--against); -1: none */
    struct vks_output *out; /* --save-golden: the output the raw goes through */
    int io_failed;        /* a read or write of the raw failed (errno kept in io_errno) */
    int io_errno;
    const char *mismatch; /* --against: why this file cannot be compared (NULL: it can) */
    float *buf;           /* one chunk of stored poses */
    size_t buf_cap;
} vgold;

typedef struct vfile {
    const char *path;
    vks_skin *skin;
    vks_cli_poser ps;
    uint32_t frames;
    uint32_t poses;
    vks_diff_tolerance tp, tn; /* the tolerances as this run applies them */
    vks_diff_acc pos, nrm;
    double model_scale; /* vks_skin_error_scale: the floor of every instance's scale */
    uint32_t delivered;
    vks_bind_check bind;
    int bind_exit; /* VKS_EXIT_OK or VKS_EXIT_BIND */
    int bind_promised; /* the format promises rest = bind (vks_cli_bind_promised) */
    uint64_t hash; /* FNV-1a 64 of the file's bytes: the golden's model hash */
    /* the current device's error maps (owned by its vdevice) and golden comparison */
    vks_error_map *pmap, *nmap, *gmap;
    vks_diff_acc gpos, gnrm;
    vgold gold;
    /* where the time went, for the JUnit cases: the bind-pose check, and on the current
       device the reference and comparison of this file's chunks and their golden work */
    double bind_ms, check_ms, golden_ms;
    /* --sample (validate_sample.c): the instances the reference compares, and what bounds the
       others' vertices */
    uint8_t *sampled;          /* per instance: 1 compared (NULL: every instance is) */
    uint32_t sampled_count;
    double (*bone_box)[6];     /* per bone: the bind-space box (lo xyz, hi xyz) of the vertices
                                  it moves; lo > hi where it moves none */
    double (*target_box)[6];   /* per bone and morph target (bone * target_count + t): the box
                                  of that target's position deltas over the bone's vertices */
    double wsum_lo, wsum_hi;   /* the range of a vertex's weight sum (1 where normalised) */
    int unit_normals;          /* every mesh has normals and renormalises them: length 1 */
} vfile;

enum { MAX_REF_THREADS = 64 }; /* the reference's threads (--threads N, default every core) */

/* The GPU's poses of one file, computed a block ahead of the batch's asking (validate_poses.c) */
typedef struct vposes_ahead {
    const vfile *file;     /* whose poses [first, first + count) locals holds (NULL: none) */
    uint32_t first, count;
    vks_affine *locals;    /* count * the model's node_count */
    size_t cap;            /* in vks_affine */
} vposes_ahead;

typedef struct vctx {
    vfile *files;
    vks_affine *locals; /* scratch for the reference */
    float *rp, *rn;
    vks_affine_d *world; /* one instance's world transforms, for its error scale */
    double *scales;      /* per instance of a chunk */
    size_t locals_cap, out_cap, world_cap, scales_cap;
    int save_golden, against;
    int threads;         /* --threads: the reference's (0: every core) */
    vks_error_map thread_maps[2 * MAX_REF_THREADS]; /* per reference thread: positions, normals */
    struct vks_work_pool *pool; /* the reference's threads, started at the first chunk that
                                   has work for two (validate_ref.c; pool_tried: asked for,
                                   NULL when none could be); vks_validate_ctx_free ends them */
    int pool_tried;
    vposes_ahead ahead;     /* the batch's poses, computed on those threads a block at a time */
    struct vks_cli_progress *progress; /* poses compared so far (NULL: none) */
    /* The readback check (the batch asks the GPU to reduce each chunk): the figures the host
       recomputes from the chunk's bytes as the reference's threads pass over them, compared
       with the GPU's when the chunk is done (validate_run.c) */
    int reduce;
    vks_gpu_figures chunk_host;
    vfile *chunk_file;        /* the chunk's first file, its first pose (crowd: instance) and
                                 count there, */
    uint32_t chunk_first, chunk_poses, chunk_more_files; /* and how many other files it holds */
    struct vdevice *device; /* where the check's findings go */
    int context, contexts;  /* a split batch: this context (1-based) of how many, named with a
                               mismatch since its chunks are numbered per context (0: one device) */
    /* --sample: the instances not sampled get no reference; every chunk's GPU figures are held
       to the bound of its instances' vertices (validate_sample.c) */
    int sampled;
    double bound[6];        /* the chunk's: lo xyz, hi xyz (empty: lo > hi) */
    int chunk_unit_normals; /* every file of the chunk has unit normals (so far) */
} vctx;

/* A chunk the GPU delivered, for the reference and the comparison (validate_ref.c). */
typedef struct vref_chunk {
    vfile *f;
    uint32_t first, count; /* batch: poses [first, first + count); crowd: instances at frame */
    uint32_t frame;
    int crowd;             /* instances of a crowd at one frame: roots applied, poses numbered
                              instance * frames + frame */
    const float *gp, *gn;  /* the GPU's vertices, count * vertex_count * 3 each */
} vref_chunk;

/* The reference of the chunk's poses and their comparison, diffs and error maps into the
 * file's, golden stored or compared, on c->threads threads; the result is bit-identical for
 * every thread count. Nonzero (printed) when memory runs out. */
int vks_validate_ref_chunk(vctx *c, const vref_chunk *ch);
/* The threads --threads N asks for (0: every core), at most MAX_REF_THREADS. */
int vks_validate_threads(int asked);
/* Frees what the chunks of a context made: scratch, thread maps, the reference's threads. */
void vks_validate_ctx_free(vctx *c);
/* fn(args[t]) for t in [0, parts) on the context's reference threads and the caller
 * (vks_work_pool_share; all on the caller where there are none), returning when all are done. */
void vks_validate_parallel(vctx *c, int parts, void *(*fn)(void *), void *const *args);
/* The locals of pose `pose` of file f for the GPU (the batch's get_locals), as
 * vks_cli_poser_locals gives them: served from a block of the file's next poses that the
 * context's reference threads compute at once when the pose is not in the last one. */
void vks_validate_pose_locals(vctx *c, const vfile *f, uint32_t pose, vks_affine *out);

/* The readback check of a chunk (validate_readback.c; crowd: of a chunk's frame; `poses` names
 * what the chunk holds): the GPU's figures against the host's from the same bytes
 * (c->chunk_host), a mismatch said on stderr naming the chunk (and its context in a split) and
 * counted in c->device, whose summed figures take g. A split batch calls it under its lock (the
 * device is shared). */
void vks_validate_check_readback(vctx *c, uint32_t chunk, const char *poses, const vks_gpu_figures *g);
/* What a chunk names on a mismatch: its first file, that file's first pose (crowd: instance)
 * and count in it, and how many other files it holds. */
void vks_validate_note_chunk(vctx *c, vfile *f, uint32_t first, uint32_t count);
/* The next chunk's host figures start empty, and its poses unnamed. */
void vks_validate_next_chunk(vctx *c);

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
    /* the GPU's per-chunk reductions, summed up for the report (reduced: the run had them) */
    int reduced;
    uint32_t reduced_chunks, readback_mismatches;
    uint32_t crowd_deliveries; /* the crowd path's chunk frames delivered: what it checks */
    vks_gpu_figures gpu_figures;
    uint32_t readback_compared;             /* chunks whose figures the host recomputed */
    uint32_t bound_checked, bound_failures; /* --sample: chunks held to the host's bound, failed */
    char reduction_said[160];               /* the first failure */
    char reduction_text[320];               /* their JUnit case's message */
} vdevice;

typedef struct vrun {
    vfile *files;
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

/* Takes --sample or --sample-seed at argv[*i]: 1 taken, 0 not one, -1 bad value (printed). */
int vks_validate_sample_option(vsample *o, int argc, char **argv, int *i);
/* Chooses each file's sampled instances (the same for the same seed, file order and counts)
 * and its bone boxes; 0 when memory ran out (printed). */
int vks_validate_sample_prepare(const vsample *o, vfile *files, int nfiles);
void vks_validate_sample_free(vfile *files, int nfiles);
/* Whether pose `pose` of f is compared with the reference. */
static inline int vks_validate_sampled(const vfile *f, uint32_t pose)
{
    return !f->sampled || f->sampled[pose / (f->frames ? f->frames : 1)];
}
/* Widens box (lo xyz, hi xyz) by the bound of every vertex of one instance of f posed with
 * skin matrices K and morph weights w (NULL: the targets' defaults): each bone's bind box,
 * moved by the weighted targets' delta boxes, through its K, joined, scaled by the weight sums. */
void vks_validate_sample_bound(const vfile *f, const vks_affine_d *K, const float *w, double box[6]);
/* A sampled run's check of one chunk's GPU figures against c->bound (said on stderr, counted
 * in c->device); the chunk's bound starts empty again. */
void vks_validate_check_bound(vctx *c, uint32_t chunk, const vks_gpu_figures *g);
/* "N of M instances of each file (seed S)" style text, JSON and the JUnit property. */
void vks_validate_sample_said(const vsample *o, const vfile *files, int nfiles, char *out, size_t size);
/* The device's reduction check in a sentence (the JUnit case's message). */
void vks_validate_reduction_said(const vdevice *d, char *out, size_t size);
/* What was sampled and the reduction check's outcome: printed, or as "sample" into root. */
void vks_validate_sample_report(const vsample *o, const vfile *files, int nfiles, const vdevice *d, struct cJSON *root);

/* A monotonic clock in milliseconds, for the JUnit cases' times. */
double vks_validate_now_ms(void);

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
/* Stores or compares poses [first, first + count) of file f: p and n the GPU's vertices,
 * scales the per-pose scales (as the reference diff used). */
void vks_golden_chunk(vctx *c, vfile *f, uint32_t first, uint32_t count, const float *p, const float *n,
                      const double *scales);
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
