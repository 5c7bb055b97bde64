/* The bake job engine behind bake_job.h (public): the manifest's jobs (job_manifest.c), the
 * frames a job bakes (job_engine.c: GPU crowd or CPU engines), the files it writes with their
 * sidecars (job_write.c), sharding (job_shard.c), the check and merge of a sharded bake
 * (job_merge.c) and the run that schedules them over threads and devices (job_run.c).
 * Messages (errors and notes of a job) go through the run's logger, never to stderr. */
#ifndef VKS_BAKE_JOB_INTERNAL_H
#define VKS_BAKE_JOB_INTERNAL_H

#include <stdio.h>

#include "core/log.h"
#include "core/work_pool.h"
#include "vkskin.h"
#include "vkskin/bake_job.h"
#include "vkskin/clip.h"
#include "vkskin/formats.h"
#include "vkskin/gpu.h"

struct cJSON;
struct vks_crowd_spec;

/* What a failed job or step ends the program with (the CLI's exit codes, which the sidecars and
 * reports never see): an input could not be read or is refused; deforming or writing failed. */
enum { VKS__BAKE_EXIT_OK = 0, VKS__BAKE_EXIT_INPUT = 1, VKS__BAKE_EXIT_RUNTIME = 5 };

/* Where the engine's messages go and how large an input it reads (the run's options). */
typedef struct vks__bake_host {
    vks_logger logger;
    uint64_t max_input_bytes;
} vks__bake_host;

typedef struct vks_bake_clip_spec {
    char *file;     /* resolved against the manifest's folder */
    char *file_given;
    char *name;     /* NULL: every clip of the file */
    float duration; /* read option for formats that store none (RTM); 0: the reader's default */
    float fps;      /* read option for frame formats that store no rate (.cskla); 0: default */
    char where[40]; /* "jobs[3].clips[1]" */
    const vks__bake_host *host; /* the manifest's */
} vks_bake_clip_spec;

typedef struct vks_bake_job {
    uint32_t index;
    char where[24];         /* "jobs[3]" */
    char *name;             /* output base name (default: the model's file name) */
    char *model;            /* resolved path */
    char *model_given;      /* as the manifest writes it (sidecars name this) */
    vks_read_options ropt;  /* P3D options from "read" (strings owned here) */
    char *ropt_strings[4];
    vks_bake_clip_spec *clips;
    uint32_t clip_count;
    float fps;              /* frames per second sampled (default 30) */
    int has_range;
    float range[2];         /* seconds of each clip's local time; default [0, duration] */
    uint32_t outputs;       /* VKS_BAKE_OUT_* bits */
    int normals;            /* bake normals too (default 1) */
    uint32_t max_width;     /* VAT row width (default VKS_VAT_DEFAULT_MAX_WIDTH) */
    uint32_t max_height;    /* rows a texture may have (default VKS_BAKE_DEFAULT_MAX_HEIGHT) */
    int pow2;               /* VAT width and height padded to powers of two ("pow2") */
    int split;              /* a VAT over max_height spread over several textures ("split",
                               --split); not in the entry's hash: it changes only jobs that are
                               refused without it, which leave nothing behind */
    int contact_sheet;      /* a PNG per clip (--contact-sheet or "contact_sheet": true) */
    struct vks_crowd_spec *layers; /* "layers" (and "transition"): one crowd entry, parsed by the
                               crowd file's parser (crowd_file.h), whose clip sources are then
                               clips[] (read whole, one clip each); NULL: a job of "clips" */
    char *layers_json;      /* those keys as given, canonical, for the hash */
    char hash[17];          /* FNV-1a 64 of the entry as baked (defaults applied), hex */
    uint64_t work;          /* estimated vertices x frames (job_shard.c) */
    const vks__bake_host *host; /* the manifest's: messages, input limit */
} vks_bake_job;

struct vks_bake_result;
struct vks_bake_manifest {
    char *path;
    char *dir;              /* the manifest's folder: relative paths start here */
    char *out;              /* "out" (resolved), NULL: none given */
    vks_bake_job *jobs;
    uint32_t job_count;
    vks__bake_host *host;   /* allocated: jobs keep pointing at it when the manifest is moved */
    /* the last run's (vks_bake_run): which jobs were this shard's, and what each did */
    uint8_t *mine;
    struct vks_bake_result *res;
    char *inputs_checked; /* the output folder vks_bake_refuse_inputs last passed, so that
                             vks_bake_run does not list the inputs again (NULL: none) */
};

/* Parses and checks a manifest's bytes (path: for messages and as the folder relative paths
 * start in; nothing is read here). Errors name the file and the entry ("bake.json:
 * jobs[3].clips[1]: ..."); returns an exit code (1 bad manifest), *out zeroed on failure.
 * contact_sheet: the command line's --contact-sheet, applied to every job. */
int vks__bake_manifest_parse(const char *path, const void *bytes, size_t size, int contact_sheet,
                            const vks__bake_host *host, vks_bake_manifest *out);
void vks__bake_manifest_free(vks_bake_manifest *m);

/* The outputs rule over a bake (job_refuse.c; vks_bake_refuse_inputs says what): report (may be
 * NULL) and, unless check, every job's outputs in dir, against the manifest's inputs and the
 * shard reports in merge_dir (may be NULL). */
vks_result vks__bake_refuse(const vks_bake_manifest *m, const vks_bake_options *o, const char *dir, const char *report,
                            const char *merge_dir, int check, vks_error *err);

/* One clip of a job as baked. */
typedef struct vks_bake_clip {
    const vks_clip *clip;
    char *file;           /* as given */
    uint32_t index;       /* its place among the file's clips */
    char *label;          /* "walk", or when it has none its file's name as convert gives it */
    uint32_t first_frame; /* among the job's frames, clips stacked */
    uint32_t frames;
    float t0;             /* local time of frame 0; frame f at t0 + f / fps, the last held at t1 */
    float t1;
} vks_bake_clip;

/* A job loaded: its model, clips and frames. */
typedef struct vks_bake_loaded {
    vks_skin *skin;
    vks_clip_set **sets;  /* per clip spec */
    uint32_t set_count;
    vks_bake_clip *clips;
    uint32_t clip_count;
    uint32_t frames;      /* all clips' */
    /* a layered job (job->layers): its one baked clip is the layered pose at frame time T
       (job_layers.c); the layers' plays point into sets and bindings (one per clips[] spec) */
    vks_clip_layers *layers;
    vks_clip_binding *bindings;
} vks_bake_loaded;

/* Reads the model and clip files, picks the clips and counts their frames. One line said
 * (the host's logger) naming the entry and 0 on failure. */
int vks__bake_load(const vks_bake_job *job, vks_bake_loaded *out);
void vks__bake_loaded_free(vks_bake_loaded *l);
/* One clip file of a job read against the job's model; NULL with a line said. */
vks_clip_set *vks__bake_read_clips(const vks_bake_clip_spec *spec, const vks_skin *skin);
/* vks__bake_load for a layered job (l->skin read): each layer clip read, bound and found, the
 * masks found by node name, and one baked clip labelled "layers" whose frames are [0, layer 1's
 * clip duration] of frame time (or "range", not clamped: layers loop on their own). */
int vks__bake_load_layers(const vks_bake_job *job, vks_bake_loaded *l);
/* Root motion of a layered job ("root_motion", job_root_motion.c): its VKS_ROOT_MOTION_*
 * value (0: none; jobs of "clips" have none); NAME.root_motion.csv in dir (NULL: the name a
 * sidecar records; malloc'ed); the role sidecars give it; and the file written (temporary name,
 * renamed when complete), one row per frame: frame, time, x, y, z (and yaw, radians, when asked
 * for), the CPU reference's in double. 0 with a line said on failure. */
#define VKS_BAKE_ROOT_MOTION_SUFFIX ".root_motion.csv"
int vks__bake_root_motion_of(const vks_bake_job *job);
char *vks__bake_root_motion_name(const vks_bake_job *job, const char *dir);
const char *vks__bake_root_motion_role(const vks_bake_job *job);
int vks__bake_write_root_motion(const vks_bake_job *job, const vks_bake_loaded *l, const char *dir);
/* A layered job's sidecar clip object gains "layers" (each layer's file, index, start, speed,
 * cycle, weight, blend, fade and mask) and, with a crossfade, "transition". */
void vks__bake_layers_sidecar(struct cJSON *clip, const vks_bake_job *job, const vks_bake_loaded *l);
/* Time (clip seconds) of the job's frame f of clip c. */
double vks__bake_frame_time(const vks_bake_job *job, const vks_bake_clip *c, uint32_t f);

/* Most rows a texture may have unless the manifest says otherwise ("max_height"): the
 * 16384 x 16384 that engines and most GPUs take at most. */
#define VKS_BAKE_DEFAULT_MAX_HEIGHT 16384u
#define VKS_BAKE_MAX_TEXTURE_SIDE 16384u

/* The job's VAT layout (job_write.c): vks_vat_layout_make with its max_width; with pow2 the
 * widest power of two within max_width, and width and height rounded up to powers of two
 * (rows past the last frame's stay 0). With split, a VAT over max_height gets the layout of
 * one part: as many whole frames (out->frames) as max_height holds, every part as tall (the
 * last one's rows past its frames 0); the job's frames go to ceil(frames / out->frames)
 * textures. VKS_ERR_LIMIT as vks_vat_layout_make. */
struct vks_vat_layout;
vks_result vks__bake_vat_layout(const vks_bake_job *job, uint32_t vertices, uint32_t frames,
                               struct vks_vat_layout *out, vks_error *err);
/* Before any work: 1 when every texture the job writes (VATs, the atlas) fits max_width x
 * max_height; else 0 with one line said naming the texture, its size, the limit and the
 * manifest keys that help. */
int vks__bake_limits_check(const vks_bake_job *job, const vks_bake_loaded *l, const char *manifest);


/* Deformed frames of a loaded job: frames x vertex_count vec3, frame-major (clips stacked). */
typedef struct vks_bake_frames {
    float *positions;
    float *normals;       /* NULL without normals */
    float *matrices;      /* atlas: frames x bone_count x 12 (3 rows of 4) from the reference pose */
    /* the positions' bounds (vks_vat_bounds), once has_bounds: every VAT kind's sidecar and
       the PNG's quantisation use them, so they are taken once a job, not once a kind */
    float bounds_min[3], bounds_max[3];
    int has_bounds;
} vks_bake_frames;

/* gpu: the run's context (VKS_BAKE_GPU). Returns 0 with a line said on failure. */
int vks__bake_deform(const vks_bake_job *job, const vks_bake_loaded *l, vks_bake_engine e, vks_gpu *gpu,
                    vks_bake_frames *out);
void vks__bake_frames_free(vks_bake_frames *f);

/* A model without normals (no NORMAL in the file): every frame's normals computed from its
 * deformed triangles, smooth and area-weighted (job_normals.c); nothing for a model with them.
 * 0 when out of memory. The deform calls below do it. */
int vks__bake_fill_normals(const vks_bake_loaded *l, vks_bake_frames *fr);
/* What the sidecars say of the normals ("normals"). */
const char *vks__bake_normals_note(const vks_skin *s);

/* The parts of vks__bake_deform, for the GPU's groups of jobs (job_run.c): the frames' arrays
 * made and the atlas's matrices computed; whether the job needs deformed vertices at all; and
 * every frame of `count` loaded jobs deformed by one crowd in one submission (the readback
 * copied into the jobs' frames on pool's idle threads too; NULL: on this one). A group's
 * outputs (frames x vertices x 24 bytes) must stay under VKS_BAKE_GROUP_BYTES unless it is
 * one job, which then goes in chunks. */
#define VKS_BAKE_GROUP_BYTES (64ull << 20)
int vks__bake_frames_alloc(const vks_bake_job *job, const vks_bake_loaded *l, vks_bake_frames *out);
int vks__bake_needs_vertices(const vks_bake_job *job);
int vks__bake_deform_cpu(const vks_bake_job *job, const vks_bake_loaded *l, int fast, vks_bake_frames *fr);
int vks__bake_deform_gpu_group(const vks_bake_job *const *jobs, const vks_bake_loaded *const *ls, uint32_t count,
                              vks_gpu *gpu, vks__work_pool *pool, vks_bake_frames *const *frs);

/* The host memory (bytes) baking a loaded job takes at its peak with engine e: its frames,
 * the atlas's matrices, and the largest of the engine's and the writers' buffers
 * (job_memory.c). A job over the run's budget, --max-memory-mb (default
 * VKS_BAKE_DEFAULT_MAX_MEMORY_MB), is refused before its frames are made. */
#define VKS_BAKE_DEFAULT_MAX_MEMORY_MB 4096ull
uint64_t vks__bake_job_memory(const vks_bake_job *job, const vks_bake_loaded *l, vks_bake_engine e);

/* Per job, what was written or skipped (report and summary). */
typedef struct vks_bake_result {
    int done;             /* 1 baked, 2 skipped (up to date), -1 failed */
    int exit_code;        /* when failed: 1 an input could not be read, 5 deforming or writing failed */
    uint32_t outputs_written, outputs_skipped;
    uint64_t bytes;       /* written by this run */
    uint32_t frames, vertices;
    double seconds;       /* load + deform + write */
    double read_seconds;  /* its inputs read and its frames' arrays made */
    double deform_seconds;
    struct cJSON *files;  /* array of {"path", "bytes", "kind"}: every output of the job */
    char error[320];      /* why a part could not be made, for the report ("": nothing said;
                             today the contact sheet's reason) */
    /* influences lost (said through the logger too): [0] the model's vertices with more than 8, [1] the
       bone atlas mesh's with more than 4 (the engine kits' shaders read JOINTS_0 only) */
    uint32_t lost_vertices[2];
    float lost_largest[2];
} vks_bake_result;

/* The files output kind k writes, as suffixes of the job's name ("NAME.vat.pos.png"), its
 * sidecar last: what vks__bake_write_kind writes for it at most. Returns how many. */
int vks__bake_out_files(int k, const char *suffixes[6]);

/* Output kinds of the job whose sidecar is up to date (same hash and tool version, files
 * present with their recorded sizes), as VKS_BAKE_OUT_* bits. */
uint32_t vks__bake_up_to_date(const vks_bake_job *job, const char *dir, struct cJSON *files);

/* A job's outputs, in parts that threads of a pool may run at once for the kinds of one job
 * (each kind's files are its own, and res one per kind): the rest mesh (.vat.obj, .vat.glb)
 * that every VAT kind lists, written before any of them; and output kind k with its sidecar
 * (written last, so a sidecar means its files are complete). A VAT kind's textures are
 * written at once on pool's idle threads (vks__work_pool_share; NULL: on this thread). Each
 * returns 0 with a line said on failure; nothing in them depends on what else runs. */
#define VKS_BAKE_OUT_VAT_KINDS (VKS_BAKE_OUT_VAT_EXR_FLOAT | VKS_BAKE_OUT_VAT_EXR_HALF | VKS_BAKE_OUT_VAT_PNG16)
/* 1 when no frame the outputs of kinds are made of holds an inf or a NaN; else 0, the frame
 * named in a line said (a clip's bounded keys can still compose past float32 in a hierarchy). */
int vks__bake_frames_finite(const vks_bake_job *job, const vks_bake_loaded *l, const vks_bake_frames *fr,
                           uint32_t kinds);
int vks__bake_write_rest_mesh(const vks_bake_job *job, const vks_bake_loaded *l, const char *dir);
int vks__bake_write_kind(const vks_bake_job *job, const vks_bake_loaded *l, const vks_bake_frames *fr,
                        const char *dir, int k, vks_bake_engine e, vks__work_pool *pool, vks_bake_result *res);

/* A JSON document written through the output module (temporary, then renamed). */
vks_result vks__bake_write_json(const char *path, const struct cJSON *o, vks_error *err);

/* --check [--merge DIR]: whether every job's outputs are up to date in out (one line said per
 * missing one, *missing counts them) and the shard reports in merge_dir (may be NULL) merged:
 * the report to write (cJSON_Delete it). */
struct cJSON *vks__bake_check_outputs(const vks_bake_manifest *m, const char *out, const char *merge_dir,
                                      uint32_t *missing);

/* Contact sheets: one PNG per clip (job_sheet.c); 0 with a line said on failure. */
int vks__bake_contact_sheets(const vks_bake_job *job, const vks_bake_loaded *l, const vks_bake_frames *fr,
                            vks_gpu *gpu, const char *dir, vks_bake_result *res);
/* 1 when every clip of the loaded job has a sheet name of its own, else 0 with a line said
 * naming two clips and their sheet (checked before the job is baked). */
int vks__bake_sheet_names_check(const vks_bake_job *job, const vks_bake_loaded *l);

/* Which jobs shard i of n takes: jobs sorted by estimated work (largest first, then by index)
 * go one by one to the shard with the least work so far (lowest number on ties). mine[j] = 1
 * for shard i's. Loads every job's model and clips to estimate (vertices x frames); an
 * unreadable job gets work 1 so every shard agrees. */
void vks__bake_shard(vks_bake_manifest *m, uint32_t i, uint32_t n, uint8_t *mine);

/* mkdir -p: 1 when path is a folder after it. */
int vks__bake_make_dirs(const char *path);
/* The run proper (job_run.c), once vks_bake_run has made the folder and the results: every
 * job of m->mine baked into dir, the summary filled. */
vks_result vks__bake_run_jobs(vks_bake_manifest *m, const vks_bake_options *o, const char *dir,
                              vks_bake_summary *sum, vks_error *err);

/* A monotonic clock in seconds. */
double vks__bake_now(void);

/* The host's logger (NULL: none); its input limit (default VKS_BAKE_DEFAULT_MAX_INPUT_BYTES). */
#define VKS_BAKE_DEFAULT_MAX_INPUT_BYTES (2048ull << 20)
const vks_logger *vks__bake_log(const vks__bake_host *h);
uint64_t vks__bake_max_input(const vks__bake_host *h);
/* A note for a clip that leaves some of the model's nodes in bind pose. */
void vks__bake_note_untouched(const vks__bake_host *h, const char *where, const char *model, const char *label,
                              const vks_clip_binding *b);

/* What the job reads through the host: the file's bytes (malloc'ed, free them), or NULL with a
 * line said (the limit named); the model read and validated (notes and lost influences said),
 * or NULL with a line said. (job_inputs.c) */
uint8_t *vks__bake_read_file(const vks__bake_host *h, const char *path, size_t *size);
vks_skin *vks__bake_load_skin(const vks__bake_host *h, const char *path, const vks_read_options *opt);
/* {"kept", "vertices", "largest_weight_dropped"} into o; the warning line for vertices that lost
 * influences (none when vertices is 0). */
void vks__bake_influences_json(struct cJSON *o, uint32_t kept, uint32_t vertices, double largest);
void vks__bake_influences_warning(const vks__bake_host *h, const char *where, const char *what, uint32_t kept,
                                  uint32_t vertices, double largest);

#endif
