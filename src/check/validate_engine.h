/* vkskin validate's engine of a chunk, library-internal: the CPU reference of the poses the
 * GPU delivered and their comparison on the caller's threads (validate_ref.c), the GPU's poses
 * a block ahead (validate_poses.c), the readback check (validate_readback.c), a sampled run's
 * bound (validate_bound.c) and a golden's store or comparison (validate_golden_chunk.c).
 * vks_validate_run (validate_run.c) and vkskin validate's devices, splits and crowds drive it
 * alike, so both give the same numbers. Nothing here prints: lines go to vctx.say. */
#ifndef VKS_CHECK_VALIDATE_ENGINE_H
#define VKS_CHECK_VALIDATE_ENGINE_H

#include <stdint.h>

#include "vkskin/check.h"
#include "vkskin/cpu.h"
#include "vkskin/gpu.h"
#include "vkskin/pose.h"
#include "vkskin/report.h"

struct vks_output;
struct vks_validate_golden;

/* A model's poses as the engine takes them: pose p is instance p / frames, frame p % frames. */
typedef struct vposer {
    const vks_pose_source *source; /* the locals and morph weights (pose.h) */
    const vks_affine *roots;       /* a crowd's: per instance, applied to the reference's
                                      vertices after skinning (NULL: none) */
    uint32_t morph_meshes;         /* meshes whose morph weights the poses drive (0: defaults) */
} vposer;

/* What a device's checks found, chunk by chunk. */
typedef struct vcounts {
    uint32_t reduced_chunks, readback_mismatches;
    uint32_t crowd_deliveries;              /* the crowd path's chunk frames delivered */
    vks_gpu_figures gpu_figures;            /* the GPU's per-chunk reductions summed up */
    uint32_t readback_compared;             /* chunks whose figures the host recomputed */
    uint32_t bound_checked, bound_failures; /* sampled: chunks held to the host's bound, failed */
    char reduction_said[160];               /* the first failure */
} vcounts;

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
    vposer ps;            /* its poses (the caller's poser owns what they point at) */
    uint32_t frames;
    uint32_t poses;
    vks_diff_tolerance tp, tn; /* the tolerances as this run applies them */
    vks_diff_acc pos, nrm;
    double model_scale; /* vks_skin_error_scale: the floor of every instance's scale */
    uint32_t delivered;
    vks_bind_check bind;
    int bind_exit; /* VKS_EXIT_OK or VKS_EXIT_BIND */
    int bind_promised; /* the format promises rest = bind (vks_bind_promised) */
    uint64_t hash; /* FNV-1a 64 of the file's bytes: the golden's model hash */
    /* the current device's error maps (owned by its vdevice) and golden comparison */
    vks_error_map *pmap, *nmap, *gmap;
    vks_diff_acc gpos, gnrm;
    vgold gold;
    /* where the time went, for the JUnit cases: the bind-pose check, and on the current
       device the reference and comparison of this file's chunks and their golden work */
    double bind_ms, check_ms, golden_ms;
    /* --sample (validate_bound.c): the instances the reference compares, and what bounds the
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
    /* the caller's threads: runs fn(args[t]) for t in [0, parts) and returns when all are done
       (NULL: all on the calling thread); pool and pool_tried are its own, kept with the
       context (a split's contexts copy them) */
    void (*parallel)(struct vctx *c, int parts, void *(*fn)(void *), void *const *args);
    void *pool;
    int pool_tried;
    vposes_ahead ahead;     /* the batch's poses, computed on those threads a block at a time */
    void *progress;      /* the caller's progress of the poses compared (NULL: none) */
    void (*say)(void *user, const char *line); /* a finding's or a failure's line, newline
                                      ended (NULL: kept silent); the CLI prints it on stderr */
    void *say_user;
    /* The readback check (the batch asks the GPU to reduce each chunk): the figures the host
       recomputes from the chunk's bytes as the reference's threads pass over them, compared
       with the GPU's when the chunk is done (validate_ref.c) */
    int reduce;
    vks_gpu_figures chunk_host;
    vfile *chunk_file;        /* the chunk's first file, its first pose (crowd: instance) and
                                 count there, */
    uint32_t chunk_first, chunk_poses, chunk_more_files; /* and how many other files it holds */
    vcounts *counts;        /* where the checks' findings go (the device's) */
    int context, contexts;  /* a split batch: this context (1-based) of how many, named with a
                               mismatch since its chunks are numbered per context (0: one device) */
    /* --sample: the instances not sampled get no reference; every chunk's GPU figures are held
       to the bound of its instances' vertices (validate_bound.c) */
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
int vks__validate_ref_chunk(vctx *c, const vref_chunk *ch);
/* The threads --threads N asks for (0: every core), at most MAX_REF_THREADS. */
int vks__validate_threads(int asked);
/* Frees what the chunks of a context made: scratch, thread maps (not the caller's threads). */
void vks__validate_ctx_free(vctx *c);
/* fn(args[t]) for t in [0, parts) on the context's reference threads and the caller
 * (vks_work_pool_share; all on the caller where there are none), returning when all are done. */
void vks__validate_parallel(vctx *c, int parts, void *(*fn)(void *), void *const *args);
/* The locals of pose `pose` of file f for the GPU (the batch's get_locals), as
 * vks_pose_source_locals gives them: served from a block of the file's next poses that the
 * context's reference threads compute at once when the pose is not in the last one. */
void vks__validate_pose_locals(vctx *c, const vfile *f, uint32_t pose, vks_affine *out);

/* The readback check of a chunk (validate_readback.c; crowd: of a chunk's frame; `poses` names
 * what the chunk holds): the GPU's figures against the host's from the same bytes
 * (c->chunk_host), a mismatch said on stderr naming the chunk (and its context in a split) and
 * counted in c->counts, whose summed figures take g. A split batch calls it under its lock (the
 * device is shared). */
void vks__validate_check_readback(vctx *c, uint32_t chunk, const char *poses, const vks_gpu_figures *g);
/* What a chunk names on a mismatch: its first file, that file's first pose (crowd: instance)
 * and count in it, and how many other files it holds. */
void vks__validate_note_chunk(vctx *c, vfile *f, uint32_t first, uint32_t count);
/* The next chunk's host figures start empty, and its poses unnamed. */
void vks__validate_next_chunk(vctx *c);

/* ---- a sampled run's bound (validate_bound.c) ---- */

/* Chooses each file's sampled instances, count of each (percent > 0: that percentage, rounded
 * up) by seed (the same for the same seed, file order and counts), and its bone boxes. Returns
 * -1, or the index of the file memory ran out for. */
int vks__validate_sample_prepare(uint32_t count, double percent, uint64_t seed, vfile *files, int nfiles);
void vks__validate_sample_free(vfile *files, int nfiles);
/* Whether pose `pose` of f is compared with the reference. */
static inline int vks__validate_sampled(const vfile *f, uint32_t pose)
{
    return !f->sampled || f->sampled[pose / (f->frames ? f->frames : 1)];
}
/* Widens box (lo xyz, hi xyz) by the bound of every vertex of one instance of f posed with
 * skin matrices K and morph weights w (NULL: the targets' defaults): each bone's bind box,
 * moved by the weighted targets' delta boxes, through its K, joined, scaled by the weight sums. */
void vks__validate_sample_bound(const vfile *f, const vks_affine_d *K, const float *w, double box[6]);
/* A sampled run's check of one chunk's GPU figures against c->bound (said, counted in
 * c->counts); the chunk's bound starts empty again. */
void vks__validate_check_bound(vctx *c, uint32_t chunk, const vks_gpu_figures *g);

/* The reduction check of a sampled run in a sentence (the JUnit case's message). */
void vks__validate_reduction_said(const vcounts *d, char *out, size_t size);

/* ---- goldens (validate_golden_chunk.c) ---- */

/* Stores or compares poses [first, first + count) of file f: p and n the GPU's vertices,
 * scales the per-pose scales (as the reference diff used). */
void vks__golden_chunk(vctx *c, vfile *f, uint32_t first, uint32_t count, const float *p, const float *n,
                       const double *scales);

/* A golden's state of input k (validate_golden.c; NULL: none), and whether it stores one. */
vgold *vks__validate_golden_of(struct vks_validate_golden *g, uint32_t input);
int vks__validate_golden_saves(const struct vks_validate_golden *g);

/* A monotonic clock in milliseconds, for the JUnit cases' times. */
double vks__validate_now_ms(void);
/* Says a line through c->say (printf's format; the line ends with a newline). */
void vks__validate_say(const vctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
