/* vkskin validate: the GPU against the CPU reference as one library call, and its report as
 * JSON (the same document `vkskin validate --json` prints; JUnit and HTML are in report.h).
 *
 * STEP BY STEP
 *   1. read and validate the models (formats.h, skin.h), open a context (gpu.h):
 *        vks_gpu_create(&gopt, &gpu, &err)
 *   2. one input per model: the skin, a name for the report, how many instances and frames,
 *      and where their poses come from (pose.h; zeroed: procedural, seed 0):
 *        vks_validate_input in = {.skin = skin, .name = "hero.dff", .instances = 1000, .frames = 1};
 *      clips or a crowd the GPU samples itself (vkskin validate --clip / --crowd): in.poses a
 *      VKS_POSE_CLIP source for the reference, in.gpu_instance the same instances as the
 *      stream plays them (instance.h), opt.clips what they play:
 *        in.gpu_instance = my_instance; in.gpu_instance_user = me;
 *   3. options (vks_validate_options_init: the derived tolerances, 32 MiB chunks, the
 *      readback check where chunks come through a copy; a zeroed struct means the same):
 *        vks_validate_options opt; vks_validate_options_init(&opt);
 *        opt.progress = on_progress, opt.progress_user = me;       optional
 *        opt.more_contexts = others, opt.more_context_count = n;    a batch split over contexts
 *        vks_validate_golden_save(dir, ...) or _against(dir, ...) -> opt.golden   a golden
 *   4. vks_validate_run(gpu, &in, 1, &opt, &result, &err)
 *      the GPU deforms every input's instances in one batch (with gpu_instance: streams them,
 *      stream.h, frame by frame); as each chunk comes back the CPU reference (double)
 *      deforms the same poses and the chunk is compared (check.h) and
 *      mapped per vertex (report.h); each model's bind pose is checked too (cpu.h). Only a
 *      chunk is held in memory. VKS_OK means the run completed: the verdict is
 *      result.pass / result.exit_code, the numbers are in result.devices[0].reports[i].
 *   5. vks_validate_write_json(&result, stdout, &err)   or vks_validate_json(&result) (malloc'd)
 *      or as text: vks_validate_write_text(&result, NULL, stdout, stderr, &err)
 *      JUnit or the report folder: vks_validate_write_junit(&result, NULL, "validate.xml", &err),
 *      vks_validate_write_report(&result, NULL, "report", &err) (its heat maps first, per file:
 *      vks_validate_draw_heatmap on a context that renders); or a vks_report of
 *      vks_validate_report_device(&result.devices[0], &dev) for report.h's writers
 *   6. vks_validate_result_free(&result) (a saved golden: vks_validate_golden_finish first,
 *      then vks_validate_golden_free), then the models and the context.
 *
 * VERDICT
 *   Per file: positions and normals within tolerance (check.h: 3e-5 x the error scale per
 *   component, NMSE <= 1e-9; normals 1e-4 absolute + 1e-5 relative; tolerance_scale and nmse
 *   change them), every pose delivered, a golden (if any) matched, and the bind pose
 *   reproducing the stored vertices where the format promises it (unless allow_bind_mismatch).
 *   exit_code is vkskin validate's: VKS_VALIDATE_PASS, _FAILED, _RUNTIME (the data read back is
 *   not what the GPU wrote), _BIND; the worst of them.
 *
 * THREADS
 *   vks_validate_run uses its context from the calling thread, where progress and say are
 *   called (with more_contexts: from the contexts' threads, one call at a time); each chunk's
 *   reference is shared with a pool of threads (options.threads) started at the first chunk
 *   and kept for the run, while the GPU deforms the next. Results are independent: writers
 *   only read them. A golden is used by one run at a time.
 */
#ifndef VKSKIN_VALIDATE_H
#define VKSKIN_VALIDATE_H

#include <stdio.h>

#include "check.h"
#include "cpu.h"
#include "gpu.h"
#include "pose.h"
#include "report.h"
#include "stream.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Verdicts, the numbers vkskin validate exits with (the JSON's "exit_code"). */
enum {
    VKS_VALIDATE_PASS = 0,
    VKS_VALIDATE_FAILED = 3,  /* a stream over tolerance, a pose missing, a golden moved,
                                 validation-layer messages */
    VKS_VALIDATE_RUNTIME = 5, /* the run could not complete, or read back other than the GPU wrote */
    VKS_VALIDATE_BIND = 6     /* a model's bind pose does not reproduce its stored vertices */
};

/* Called after each chunk is compared: poses done of the run's total. */
typedef void (*vks_validate_progress_fn)(void *user, uint64_t poses_done, uint64_t poses_total);
/* A finding's or a failure's line as it comes (a readback mismatch, a golden that cannot be
 * read, a sampled chunk outside its bound), newline ended; vkskin validate prints it on stderr. */
typedef void (*vks_validate_say_fn)(void *user, const char *line);

/* A golden (vkskin validate --save-golden DIR / --against DIR): each input's GPU results stored
 * as DIR/<k>.raw (per pose its positions then its normals, float32) with DIR/golden.json saying
 * what made them, or read back and compared by the same metrics and tolerances. Made by
 * vks_validate_golden_save or _against below, used by runs through vks_validate_options.golden. */
typedef struct vks_validate_golden vks_validate_golden;

typedef struct vks_validate_options {
    double tolerance_scale;    /* multiplies the position and normal tolerances (0: 1; below
                                  0: zero, every difference a finding. Since 0.7) */
    double nmse;               /* every stream's NMSE bound (0: 1e-9, check.h's default; below
                                  0: zero. Since 0.7) */
    int allow_bind_mismatch;   /* a failed bind-pose check is reported, not a finding */
    int readback_check;        /* 0 auto: the GPU reduces each chunk and the host checks the
                                  bytes it read where chunks come through a copy; 1 always;
                                  -1 never */
    uint64_t max_chunk_bytes;  /* one chunk's output (0: 32 MiB) */
    /* sampled validation: the reference compares sample_count instances of each input (or
       sample_percent of them, rounded up; both 0: every instance), chosen by sample_seed (0: 41,
       vkskin validate's default), and the GPU reduces every chunk, each held to a bound the host
       computes for all its instances (no NaN or Inf, positions inside their bones' boxes, unit
       normals where renormalised). Needs a device with subgroup arithmetic (else the run fails,
       VKS_ERR_UNSUPPORTED). */
    uint32_t sample_count;
    double sample_percent;
    uint64_t sample_seed;
    int threads;               /* the reference's threads (0: every core, at most 64); the
                                  numbers are the same, bit for bit, for any count */
    int validation_layer;      /* the context runs the Khronos validation layer
                                  (vks_gpu_options.validation): said in the reports, and any
                                  message it counted fails the run */
    vks_validate_progress_fn progress; /* may be NULL */
    void *progress_user;
    /* Since 0.7: */
    vks_validate_say_fn say;   /* may be NULL (silent) */
    void *say_user;
    vks_validate_golden *golden; /* store into or compare with a golden (NULL: none) */
    /* the batch split across several contexts (vkskin validate --device all or a list): the
       run's gpu and these others each deform one contiguous span of every input's poses, on a
       thread each, compared in pose order, so the verdict is one device's bit for bit. Every
       skin is uploaded to each. NULL: the run's gpu alone. The GPU-clip route (inputs with
       gpu_instance) splits only through run_stream below; the contexts' validation-layer
       messages count either way. */
    vks_gpu *const *more_contexts;
    uint32_t more_context_count; /* at most VKS_VALIDATE_MAX_CONTEXTS - 1 */
    /* what the inputs' GPU instances play (stream.h: clips, or gpu_clips already uploaded for
       the inputs' skins as models 0..count-1) */
    const vks_clip *const *clips;
    uint32_t clip_count;
    const vks_gpu_clips *gpu_clips;
    /* how the GPU-clip route's stream runs (NULL: vks_stream_run(gpu, desc, stats, err)): a host
       that splits a stream across several contexts (vkskin validate --device all does) gives a
       function that delivers desc's frames as one context's vks_stream_run would, in the same
       order, each delivery a whole chunk's frame of consecutive instances; desc->layers is
       then the host's to set, and the instances are asked for only by the host's streams */
    vks_result (*run_stream)(void *user, vks_gpu *gpu, const vks_stream_desc *desc, vks_stream_stats *stats,
                             vks_error *err);
    void *run_stream_user;
} vks_validate_options;

/* The defaults spelled out (what a zeroed struct means too). */
VKS_API void vks_validate_options_init(vks_validate_options *opt);

typedef struct vks_validate_input {
    const vks_skin *skin;      /* validated (vks_skin_validate); not owned */
    const char *name;          /* how the report names it (its file's path); not copied */
    uint32_t instances;        /* >= 1 */
    uint32_t frames;           /* per instance (0: 1); pose p is instance p / frames, frame p % frames */
    vks_pose_source poses;     /* pose.h; zeroed: procedural, seed 0. What the CPU reference
                                  deforms, and with no gpu_instance what the GPU gets too */
    /* Since 0.7, the GPU-clip route (vkskin validate --clip / --crowd): the GPU samples the
       clips itself through the stream (stream.h), instance j as gpu_instance gives it (its
       model is set here; clip numbers index options.clips / gpu_clips), at frame f's time
       vks_pose_source_time(&inputs[0].poses, f); the reference samples poses (which must play
       the same clips) in double. Every input of a run takes the same route. NULL: the host
       poses the GPU's instances (poses). */
    void (*gpu_instance)(void *user, uint32_t instance, vks_instance *out);
    void *gpu_instance_user;
    const vks_affine *roots;   /* per instance, the root the GPU applies after skinning
                                  (columns x, y, z, translation), applied to the reference's
                                  vertices too; NULL: none */
} vks_validate_input;

/* One file's findings on one device beside its vks_report_file (report.h: the metrics, error
 * maps, bind summary, golden and heat map that the JUnit and HTML writers take). */
typedef struct vks_validate_file {
    vks_bind_check bind;       /* the bind-pose check in full */
    int bind_promised;         /* the format promises that its mesh is stored at the bind pose
                                  (else a difference is a note, never a finding) */
    int bind_failed;           /* the check failed where promised and not allowed: a finding */
    /* what the reader dropped (skin.h's weight report): vertices that lost influences beyond
       VKS_MAX_INFLUENCES, and beyond the format's own rule (4), with the largest weight dropped */
    uint32_t influences_lost;
    double influences_lost_max;
    uint32_t rule_dropped;
    double rule_dropped_max;
    /* a sampled run (vkskin validate --sample): per instance 1 where compared (NULL: every one) */
    uint32_t instances;
    const uint8_t *sampled;
    uint32_t delivered;        /* poses the GPU delivered (of instances x frames). Since 0.7 */
} vks_validate_file;

/* How a run split across several contexts shared its work, one entry a context. */
typedef struct vks_validate_share {
    char device[256];
    uint64_t count;            /* in the device's share_unit ("poses", "instances") */
    uint64_t chunks;
    double seconds;
} vks_validate_share;

enum { VKS_VALIDATE_MAX_CONTEXTS = 16 };

/* One device's run. */
typedef struct vks_validate_device {
    char name[256], type[32];
    uint32_t queue_family, queue_index;
    int ran;                   /* the run completed: the figures below are filled */
    char error[512];           /* why it did not ("" when it ran) */
    int exit_code;             /* this device's verdict (VKS_VALIDATE_*) */
    double tolerance_scale, nmse;
    const vks_report_file *reports; /* file_count each: reports[i] and files[i] are file i's */
    const vks_validate_file *files;
    uint32_t file_count;
    uint32_t inputs_not_read;  /* inputs the caller could not read (counted against the verdict) */
    vks_gpu_stats stats;
    int crowd_path;            /* clips sampled on the GPU by crowds (the CLI's --clip / --crowd);
                                  stats.pose_ms is then the frames' time */
    uint32_t contexts;         /* a crowd split over contexts: how many, and each one's instances */
    uint64_t context_instances[VKS_VALIDATE_MAX_CONTEXTS];
    int readback_check;        /* as asked (vks_validate_options) */
    int reduced;               /* the GPU reduced the chunks: the figures below hold */
    uint32_t reduced_chunks, readback_mismatches;
    int readback_checked;      /* the host recomputed every chunk's figures */
    vks_gpu_figures gpu_figures; /* every chunk's summed */
    int validation_layer;
    uint32_t validation_messages;
    /* a sampled run: what it asked (percent > 0, else count), and the chunks held to the host's bound */
    int sampled;
    double sample_percent;
    uint32_t sample_count;
    uint64_t sample_seed;
    uint32_t bound_checked, bound_failures;
    char reduction_check[320];
    /* a split run: each context's share (share_count < 2: none) */
    const char *share_unit;
    uint32_t share_count;
    vks_validate_share shares[VKS_VALIDATE_MAX_CONTEXTS];
} vks_validate_device;

typedef struct vks_validate_result {
    vks_validate_device *devices;
    uint32_t device_count;
    double tolerance_scale, nmse;
    int exit_code;             /* the worst of the devices' */
    int pass;
    void *owned;               /* what vks_validate_run allocated (freed by vks_validate_result_free) */
} vks_validate_result;

/* Validates every input on gpu (see STEP BY STEP); *out is filled whether or not the run
 * completes (a device that did not run has ran 0 and error set), and must be freed.
 * VKS_ERR_INVALID for a bad argument (named in err), VKS_ERR_NOMEM, or the GPU's error. */
VKS_API vks_result vks_validate_run(vks_gpu *gpu, const vks_validate_input *inputs, uint32_t count,
                                    const vks_validate_options *opt, vks_validate_result *out, vks_error *err);
/* Frees what vks_validate_run made; a zeroed result is fine. */
VKS_API void vks_validate_result_free(vks_validate_result *r);

/* A device's pass: every file's streams and golden, no validation-layer message, no readback
 * mismatch or sampled chunk outside its bound, no bind-pose finding, every input read. */
VKS_API int vks_validate_device_pass(const vks_validate_device *d);

/* The device as report.h's writers take it (vks_report_junit, vks_report_html): out->files
 * points into d. */
VKS_API void vks_validate_report_device(const vks_validate_device *d, vks_report_device *out);

/* ---- goldens ---- */

/* FNV-1a 64 of a model file's bytes: a golden's model hash (a changed model is never compared). */
VKS_API uint64_t vks_validate_model_hash(const void *bytes, size_t size);
/* Opens DIR/<k>.raw of every input for writing (DIR exists; temp names until finish): the run
 * that takes it stores each input's GPU results there. hashes[k]: input k's model hash. */
VKS_API vks_result vks_validate_golden_save(const char *dir, const vks_validate_input *inputs, uint32_t count,
                                            const uint64_t *hashes, vks_validate_golden **out, vks_error *err);
/* Reads DIR/golden.json and opens the raw of each input it holds; an input it does not (another
 * model hash, pose count, vertex count or pose_spec, the words that made the poses) gets a
 * mismatch, said by the run's reports and never compared. VKS_ERR_IO or VKS_ERR_FORMAT (naming the
 * JSON path) when golden.json cannot be read at all. */
VKS_API vks_result vks_validate_golden_against(const char *dir, const char *pose_spec,
                                               const vks_validate_input *inputs, uint32_t count,
                                               const uint64_t *hashes, vks_validate_golden **out, vks_error *err);
/* Why input k is not compared with the golden (NULL: it is). */
VKS_API const char *vks_validate_golden_mismatch(const vks_validate_golden *g, uint32_t input);
/* A saved golden after its run: commit (the run completed) renames the raws in place and writes
 * golden.json (pose_spec, engine and device said in it); else they are removed. VKS_ERR_IO when
 * a raw could not be written or closed. */
VKS_API vks_result vks_validate_golden_finish(vks_validate_golden *g, const char *pose_spec, const char *engine,
                                             const char *device, int commit, vks_error *err);
/* Closes what is open (an unfinished save is removed); NULL is fine. */
VKS_API void vks_validate_golden_free(vks_validate_golden *g);

/* The JSON report, as vkskin validate --json prints it: one device's object, or with several
 * devices {"tolerance_scale", "nmse", "devices": [...], "exit_code", "pass"}. Indented, no
 * trailing newline; malloc'd (free()), NULL when memory ran out. */
VKS_API char *vks_validate_json(const vks_validate_result *r);
/* The same followed by a newline into f; VKS_ERR_IO when f reports a write error. */
VKS_API vks_result vks_validate_write_json(const vks_validate_result *r, FILE *f, vks_error *err);

/* ---- the text report and the report files (Since 0.8) ---- */

/* The text report, as vkskin validate prints it: per device the tolerances, per file its
 * streams, bind pose and golden (against: the golden's folder as the lines name it, or NULL),
 * a sampled run's instances and the device's verdict line; with several devices a last line,
 * the verdict over all (r->exit_code). out gets the report (vkskin validate's stdout), why one
 * line per reason a device failed ("vkskin: FILE: validation failed: ...", its stderr); either
 * may be NULL. VKS_ERR_IO when a stream reports a write error. Since 0.8 */
VKS_API vks_result vks_validate_write_text(const vks_validate_result *r, const char *against, FILE *out, FILE *why,
                                           vks_error *err);
/* The same for one device, without the last line (a host printing each device as it ends).
 * Since 0.8 */
VKS_API vks_result vks_validate_write_device_text(const vks_validate_device *d, const char *against, FILE *out,
                                                  FILE *why, vks_error *err);

/* What the report files say beside the result (zeroed or NULL: nothing). Since 0.8 */
typedef struct vks_validate_report_options {
    const char *command;       /* what was run, for the reader (vkskin validate: its command line) */
    const char *against;       /* the golden compared with, or NULL */
    const char *three_js;      /* the page's 3D view copies this three.min.js beside it; NULL:
                                  $VKSKIN_THREE_JS, else the copy the build fetched from npm;
                                  "": no 3D view (the page says why) */
} vks_validate_report_options;

/* JUnit XML of the result at path (vkskin validate --junit FILE; report.h's vks_report_junit),
 * written to a temporary and renamed (output.h). o may be NULL. VKS_ERR_IO (the output's
 * words) when it cannot be written. Since 0.8 */
VKS_API vks_result vks_validate_write_junit(const vks_validate_result *r, const vks_validate_report_options *o,
                                            const char *path, vks_error *err);
/* The report folder (vkskin validate --report DIR): DIR/index.html (report.h's vks_report_html)
 * and three.min.js beside it; DIR exists, the heat maps the files name (reports[i].heatmap) are
 * drawn into it beforehand (vks_validate_draw_heatmap). A three.js that cannot be found or
 * copied is said on the page, not an error. VKS_ERR_IO when the page cannot be written. Since 0.8 */
VKS_API vks_result vks_validate_write_report(const vks_validate_result *r, const vks_validate_report_options *o,
                                             const char *dir, vks_error *err);
/* Why a file has no heat map to draw ("the model has no vertices", "no instance of it was
 * compared"), or NULL when it has one. Since 0.8 */
VKS_API const char *vks_validate_heatmap_missing(const vks_report_file *file);
/* Draws the file's worst instance coloured by error (report.h's position_errors, on its skin)
 * on gpu, a context that can render (vks_gpu_options.will_render), 480 x 360, into
 * DIR/heatmap_d<device>_f<index>.png, that name into name (for reports[index].heatmap; "" on
 * failure). VKS_ERR_INVALID when there is nothing to draw (vks_validate_heatmap_missing's words),
 * else the renderer's or the PNG writer's error. Since 0.8 */
VKS_API vks_result vks_validate_draw_heatmap(vks_gpu *gpu, const vks_report_file *file, const char *dir,
                                             uint32_t device, uint32_t index, char *name, size_t name_size,
                                             vks_error *err);

#ifdef __cplusplus
}
#endif
#endif
