/* vkskin validate's host half of a chunk, on every core (--threads N): the CPU reference of the
 * chunk's poses and their comparison with the GPU's vertices. It runs inside the batch's (or
 * the crowd's) delivery, while the GPU already deforms the next chunk.
 *
 * The report must not depend on the thread count, bit for bit: each thread takes a contiguous
 * share of the chunk into accumulators and error maps of its own (counts and extremes, which
 * do not depend on order), merged in the shares' order so that a tie keeps the earlier pose as
 * one pass would; the sums of squares behind NMSE, which do depend on order, are then taken
 * over the whole chunk in the order of its components (vks_diff_add_sums): the first share
 * takes them as it goes, the rest follow after the join, positions and normals on two threads.
 * The reference itself is per instance, double, no contraction; a share takes each instance
 * through reference, scale, comparison (and sums) before the next, while it is in the cache.
 *
 * The threads are the caller's (vctx.parallel): vkskin validate starts a pool once, at the first
 * chunk with work for two, and keeps it for the run (a run delivers a chunk per model of each
 * GPU chunk, and on a machine of 16 cores starting and ending 15 threads for every one of them
 * cost more than the sums); without one every share runs on the calling thread, with the same
 * result. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <stdarg.h>
#include <stdio.h>

#include "check/validate_engine.h"
#include "check/compare.h" /* vks__diff_add_sums_pair */
#include "cpu/reference_internal.h" /* vks__cpu_reference_instance */

/* The largest singular value of a root's 3x3 (power iteration on its Gram matrix): how much
 * it can stretch the error scale. */
static double root_stretch(const vks_affine *r)
{
    double v[3] = {1, 0.7, 0.3}, len = 0;
    for (int it = 0; it < 64; it++) {
        double a[3], g[3];
        for (int i = 0; i < 3; i++)
            a[i] = r->m[i] * v[0] + r->m[3 + i] * v[1] + r->m[6 + i] * v[2];
        for (int j = 0; j < 3; j++)
            g[j] = r->m[3 * j] * a[0] + r->m[3 * j + 1] * a[1] + r->m[3 * j + 2] * a[2];
        len = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
        if (!(len > 0))
            return 1;
        for (int i = 0; i < 3; i++)
            v[i] = g[i] / len;
    }
    return sqrt(len);
}

/* One thread's share [a, b) of a chunk, into buffers and accumulators of its own. */
typedef struct share {
    const vref_chunk *ch;
    uint32_t a, b;
    vks_affine *locals;  /* the chunk's, from item a */
    vks_affine_d *world; /* this thread's: one instance's, or with lc the lanes instances' */
    vks_affine_d *K;     /* this thread's: its skin matrices */
    vks__ref_cols *cols; /* and them in columns for the AVX2 form (NULL: the scalar loop) */
    vks__ref_lanes *lc;  /* lanes instances' matrices by element for the crowd loop (NULL: none);
                            K then holds lanes instances' skin matrices (vks__cpu_reference_lanes_run) */
    uint32_t lanes;      /* the instances it takes at once (vks__cpu_reference_lanes), 0: none */
    float *weights;      /* this thread's: lanes (at least one) instances' morph weights (the GPU's batch
                            gets the same) */
    float *rp, *rn;      /* the chunk's reference, from item a */
    double *scales;      /* the chunk's, from item a */
    vks_diff_acc pos, nrm;
    vks_error_map *pmap, *nmap;
    int check;            /* c->reduce: the readback check's figures of the share's GPU words */
    vks_gpu_figures figs;
    vks_diff_acc *sums_p, *sums_n; /* the file's accumulators where this share takes NMSE's sums
                                      as it goes (the chunk's first share), else NULL */
    const vposes_ahead *ahead;     /* the GPU's poses still held (validate_poses.c): not made twice */
    int sampled;                   /* --sample: a bound of every instance, a reference of some */
    double bound[6];
} share;

/* Item i of the chunk: the pose it is numbered as in the reports, and its locals. */
static uint32_t pose_of(const vref_chunk *ch, uint32_t i)
{
    return ch->crowd ? (ch->first + i) * ch->f->frames + ch->frame : ch->first + i;
}

/* A batch's pose the GPU was given is copied from the block computed for it where that block
   is still held: nothing computes a new one while the chunk is compared (the batch waits in its
   delivery), and a run of one model keeps its block over its chunks (with several models the
   block held is the last model's). Any other pose is computed: the same locals either way. */
static void locals_of(const vref_chunk *ch, const vposes_ahead *ahead, uint32_t i, vks_affine *out)
{
    const vfile *f = ch->f;
    uint32_t pose = ch->first + i;
    if (ch->crowd)
        vks_pose_source_locals(f->ps.source, f->skin, pose, ch->frame, out);
    else if (ahead->file == f && pose >= ahead->first && pose - ahead->first < ahead->count)
        memcpy(out, ahead->locals + (size_t)(pose - ahead->first) * f->skin->node_count,
               f->skin->node_count * sizeof *out);
    else
        vks_pose_source_locals(f->ps.source, f->skin, pose / f->frames, pose % f->frames, out);
}

/* An instance --sample leaves out of the comparison: its skin matrices' bound (what the chunk's
 * GPU reduction is held to), and the readback check's figures of its words where asked. */
static void bound_only(share *sh, uint32_t i, const float *w)
{
    const vref_chunk *ch = sh->ch;
    const vfile *f = ch->f;
    vks_cpu_skin_matrices_d(f->skin, sh->world, sh->K);
    vks__validate_sample_bound(f, sh->K, w, sh->bound);
    size_t at = ((size_t)sh->a + i) * f->skin->vertex_count * 3;
    if (sh->check)
        vks_gpu_figures_add(&sh->figs, ch->gp + at, ch->gn ? ch->gn + at : NULL, f->skin->vertex_count);
}

/* Instance i's morph weights into out (NULL where its model has no morph targets in use): the
 * poser's, as the GPU's batch got them or its crowd sampled them from the clips. */
static const float *weights_of(const share *sh, uint32_t i, float *out)
{
    const vref_chunk *ch = sh->ch;
    const vfile *f = ch->f;
    if (!f->ps.morph_meshes)
        return NULL;
    uint32_t pose = ch->first + sh->a + i;
    if (ch->crowd)
        vks_pose_source_weights(f->ps.source, f->skin, pose, ch->frame, out);
    else
        vks_pose_source_weights(f->ps.source, f->skin, pose / f->frames, pose % f->frames, out);
    return out;
}

/* Instance i after its reference (rp, rn) was made from its world transforms world and skin
 * matrices K at weights w: its sample bound, error scale, root, comparison and (on the share
 * that starts the chunk) its sums, while its reference is still in the cache. */
static void compare_instance(share *sh, uint32_t i, const vks_affine_d *world, const vks_affine_d *K,
                             const float *w)
{
    const vref_chunk *ch = sh->ch;
    const vfile *f = ch->f;
    const vks_skin *s = f->skin;
    size_t per = (size_t)s->vertex_count * 3, at = (size_t)i * per;
    float *rp = sh->rp + at, *rn = sh->rn + at;
    if (sh->sampled)
        vks__validate_sample_bound(f, K, w, sh->bound);
    sh->scales[i] = vks_posed_error_scale(s, f->model_scale, world, rp);
    if (ch->crowd && f->ps.roots) { /* float errors grow with what the root makes of that scale */
        const vks_affine *root = &f->ps.roots[ch->first + sh->a + i];
        const float *t = root->m + 9;
        sh->scales[i] = sh->scales[i] * root_stretch(root) +
                        sqrt((double)t[0] * t[0] + (double)t[1] * t[1] + (double)t[2] * t[2]);
        vks_apply_root(s, root, rp, rn);
    }
    const float *gp = ch->gp + (size_t)sh->a * per + at, *gn = ch->gn + (size_t)sh->a * per + at;
    if (sh->check) /* integer work on the words, beside the comparison (which it leaves alone) */
        vks_gpu_figures_add(&sh->figs, gp, ch->gn ? gn : NULL, s->vertex_count);
    uint32_t pose = pose_of(ch, sh->a + i);
    vks_diff_and_map_add(&sh->pos, sh->pmap, &f->tp, f->pos.r.radius, gp, rp, pose, 1, s->vertex_count,
                         &sh->scales[i], rp, rn);
    vks_diff_and_map_add(&sh->nrm, sh->nmap, &f->tn, f->nrm.r.radius, gn, rn, pose, 1, s->vertex_count, NULL, NULL,
                         NULL);
    if (sh->sums_p) { /* the chunk's first share: the file's sums go on here, in order */
        vks__diff_add_sums_pair(sh->sums_p, gp, rp, sh->sums_n, gn, rn, per);
    }
}

/* One instance of a share, whole before the next: its reference, then compare_instance. The
 * results are those of the passes over the whole share: every step is per instance, and the
 * accumulators take instances in the same order. */
static void run_instance(share *sh, uint32_t i)
{
    const vks_skin *s = sh->ch->f->skin;
    size_t per = (size_t)s->vertex_count * 3, at = (size_t)i * per;
    vks_cpu_world_d(s, sh->locals + (size_t)i * s->node_count, sh->world); /* for both: */
    const float *w = weights_of(sh, i, sh->weights);
    if (sh->sampled && !vks__validate_sampled(sh->ch->f, pose_of(sh->ch, sh->a + i))) {
        bound_only(sh, i, w);
        return;
    }
    vks__cpu_reference_instance(s, sh->world, sh->K, sh->cols, w, sh->rp + at, sh->rn + at);
    compare_instance(sh, i, sh->world, sh->K, w);
}

/* Instances i .. i + lanes - 1 when the crowd loop takes them: each compared (none left out by
 * --sample). Their references at once (vks__cpu_reference_lanes_run, the same floats, which
 * keeps each one's world and skin matrices), then each one's comparison, in order. 0: not taken. */
static int run_lanes(share *sh, uint32_t i, uint32_t n)
{
    const vks_skin *s = sh->ch->f->skin;
    if (!sh->lc || i + sh->lanes > n)
        return 0;
    for (uint32_t l = 0; sh->sampled && l < sh->lanes; l++)
        if (!vks__validate_sampled(sh->ch->f, pose_of(sh->ch, sh->a + i + l)))
            return 0;
    size_t per = (size_t)s->vertex_count * 3, bones = s->bone_count ? s->bone_count : 1;
    const float *w[VKS__REF_LANES_MAX];
    for (uint32_t l = 0; l < sh->lanes; l++)
        w[l] = weights_of(sh, i + l, sh->weights + (size_t)l * s->target_count);
    vks__cpu_reference_lanes_run(s, sh->lanes, sh->locals + (size_t)i * s->node_count, sh->world, sh->K, sh->lc,
                                 NULL, w, sh->rp + (size_t)i * per, sh->rn + (size_t)i * per, per);
    for (uint32_t l = 0; l < sh->lanes; l++)
        compare_instance(sh, i + l, sh->world + (size_t)l * s->node_count, sh->K + l * bones, w[l]);
    return 1;
}

static void *run_share(void *arg)
{
    share *sh = arg;
    const vref_chunk *ch = sh->ch;
    const vks_skin *s = ch->f->skin;
    uint32_t n = sh->b - sh->a;
    for (uint32_t i = 0; i < n; i++)
        locals_of(ch, sh->ahead, sh->a + i, sh->locals + (size_t)i * s->node_count);
    for (uint32_t i = 0; i < n;)
        if (run_lanes(sh, i, n))
            i += sh->lanes;
        else
            run_instance(sh, i++);
    return NULL;
}

/* A stream's sums, positions' and normals' on two threads. */
typedef struct sums {
    vks_diff_acc *acc;
    const float *a, *b;
    size_t n;
} sums;

static void *run_sums(void *arg)
{
    sums *s = arg;
    vks_diff_add_sums(s->acc, s->a, s->b, s->n);
    return NULL;
}

void vks__validate_parallel(vctx *c, int parts, void *(*fn)(void *), void *const *args)
{
    if (parts > MAX_REF_THREADS)
        parts = MAX_REF_THREADS;
    if (parts < 1)
        return;
    if (parts > 1 && c->parallel) {
        c->parallel(c, parts, fn, args);
        return;
    }
    for (int t = 0; t < parts; t++) /* in order, as a pool's caller takes every part */
        fn(args[t]);
}

void vks__validate_ctx_free(vctx *c)
{
    free(c->ahead.locals);
    c->ahead = (vposes_ahead){0};
    free(c->locals), free(c->rp), free(c->rn), free(c->world), free(c->scales);
    c->locals = NULL, c->rp = c->rn = NULL, c->world = NULL, c->scales = NULL;
    c->locals_cap = c->out_cap = c->world_cap = c->scales_cap = 0;
    for (int t = 0; t < 2 * MAX_REF_THREADS; t++)
        vks_error_map_free(&c->thread_maps[t]);
}

int vks__validate_threads(int asked)
{
    long n = asked > 0 ? asked : sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > MAX_REF_THREADS ? MAX_REF_THREADS : (int)n;
}

/* NMSE's sums in the components' order, one stream per thread, after the first share's (taken
 * as it went up to item `from`), then the golden on this thread (file offsets, in pose order).
 * Returns when the golden's work began. */
static double sums_and_golden(vctx *c, const vref_chunk *ch, uint32_t first_share_end)
{
    vfile *f = ch->f;
    size_t per = (size_t)f->skin->vertex_count * 3;
    size_t from = (size_t)first_share_end * per, rest = (size_t)ch->count * per - from;
    sums ss[2] = {{&f->pos, ch->gp + from, c->rp + from, rest}, {&f->nrm, ch->gn + from, c->rn + from, rest}};
    vks__validate_parallel(c, rest ? 2 : 0, run_sums, (void *[]){&ss[0], &ss[1]});
    double t1 = vks__validate_now_ms();
    for (uint32_t i = 0; i < ch->count && (c->save_golden || c->against); i++) {
        if (!ch->crowd) {
            vks__golden_chunk(c, f, ch->first, ch->count, ch->gp, ch->gn, c->scales);
            break;
        }
        size_t at = (size_t)i * per;
        vks__golden_chunk(c, f, pose_of(ch, i), 1, ch->gp + at, ch->gn + at, &c->scales[i]);
    }
    return t1;
}

/* --sample: NMSE's sums over the sampled instances in pose order on this thread (a few: the
 * result does not depend on the thread count), and the golden compared at them. */
static double sampled_sums_and_golden(vctx *c, const vref_chunk *ch)
{
    vfile *f = ch->f;
    size_t per = (size_t)f->skin->vertex_count * 3;
    c->chunk_unit_normals &= f->unit_normals;
    for (uint32_t i = 0; i < ch->count; i++) {
        uint32_t pose = pose_of(ch, i);
        if (!vks__validate_sampled(f, pose))
            continue;
        size_t at = (size_t)i * per;
        vks__diff_add_sums_pair(&f->pos, ch->gp + at, c->rp + at, &f->nrm, ch->gn + at, c->rn + at, per);
        if (c->against)
            vks__golden_chunk(c, f, pose, 1, ch->gp + at, ch->gn + at, &c->scales[i]);
    }
    return vks__validate_now_ms(); /* its golden work is in the loop: counted as the check's */
}

static int grow(void **p, size_t *cap, size_t need)
{
    if (need <= *cap)
        return 1;
    void *q = realloc(*p, need);
    if (!q)
        return 0;
    *p = q, *cap = need;
    return 1;
}

/* Below this many vertex-instances a chunk runs on one thread: a thread start would cost more
   than its share (the result is the same either way). */
enum { MIN_SHARE_VERTICES = 16384 };

int vks__validate_ref_chunk(vctx *c, const vref_chunk *ch)
{
    vfile *f = ch->f;
    const vks_skin *s = f->skin;
    uint32_t count = ch->count;
    double t0 = vks__validate_now_ms(); /* the file's check and golden times (its JUnit cases') */
    int threads = vks__validate_threads(c->threads);
    uint64_t work = (uint64_t)count * (s->vertex_count ? s->vertex_count : 1);
    if ((uint64_t)threads * MIN_SHARE_VERTICES > work)
        threads = (int)(work / MIN_SHARE_VERTICES) + 1;
    if ((uint32_t)threads > count)
        threads = count ? (int)count : 1;
    size_t nodes = s->node_count ? s->node_count : 1, per = (size_t)s->vertex_count * 3;
    size_t nl = (size_t)count * nodes * sizeof *c->locals, nf = (size_t)count * per * sizeof(float) + 1;
    /* each thread's room in c->world: an instance's world, its skin matrices and (AVX2) them in
       columns, counted in vks_affine_d */
    size_t bones = s->bone_count ? s->bone_count : 1, simd = vks__cpu_reference_has_simd();
    /* the crowd loop: lanes instances' K and their matrices by element, and their weights */
    uint32_t lanes = simd ? vks__cpu_reference_lanes() : 0;
    size_t col_units = simd ? (bones * sizeof(vks__ref_cols) + sizeof(vks_affine_d) - 1) / sizeof(vks_affine_d) : 0;
    size_t lane_units = lanes ? (bones * sizeof(vks__ref_lanes) + sizeof(vks_affine_d) - 1) / sizeof(vks_affine_d) : 0;
    size_t k_units = lanes ? lanes * bones : bones;
    size_t weight_units = ((lanes ? lanes : 1) * (size_t)s->target_count * sizeof(float) + sizeof(vks_affine_d) - 1) /
                          sizeof(vks_affine_d);
    size_t world_units = lanes ? lanes * nodes : nodes;
    size_t room = world_units + k_units + col_units + lane_units + weight_units;
    size_t nw = (size_t)threads * room * sizeof *c->world, oc = c->out_cap;
    if (!grow((void **)&c->locals, &c->locals_cap, nl) || !grow((void **)&c->rp, &oc, nf) ||
        !grow((void **)&c->rn, &c->out_cap, nf) || !grow((void **)&c->world, &c->world_cap, nw) ||
        !grow((void **)&c->scales, &c->scales_cap, (size_t)count * sizeof *c->scales + 1)) {
        vks__validate_say(c, "vkskin validate: out of memory for the reference of a chunk\n");
        return 1;
    }
    for (int t = 0; t < threads * 2; t++) { /* each thread's maps, sized for this model */
        vks_error_map *tm = &c->thread_maps[t];
        if (tm->vertices == s->vertex_count && tm->error) {
            vks_error_map_reset(tm);
            continue;
        }
        vks_error_map_free(tm);
        if (vks_error_map_init(tm, s->vertex_count) != VKS_OK) {
            vks__validate_say(c, "vkskin validate: out of memory for the error maps of a chunk\n");
            return 1;
        }
    }
    share sh[MAX_REF_THREADS];
    void *args[MAX_REF_THREADS];
    for (int t = 0; t < threads; t++) {
        uint32_t a = (uint32_t)((uint64_t)count * t / threads), b = (uint32_t)((uint64_t)count * (t + 1) / threads);
        sh[t] = (share){.ch = ch, .a = a, .b = b, .locals = c->locals + (size_t)a * nodes,
                        .world = c->world + (size_t)t * room, .K = c->world + (size_t)t * room + world_units,
                        .cols = simd ? (vks__ref_cols *)(void *)(c->world + (size_t)t * room + world_units + k_units)
                                     : NULL,
                        .lc = lanes ? (vks__ref_lanes *)(void *)(c->world + (size_t)t * room + world_units + k_units +
                                                                  col_units)
                                    : NULL,
                        .lanes = lanes,
                        .weights = (float *)(void *)(c->world + (size_t)t * room + world_units + k_units + col_units +
                                                     lane_units),
                        .rp = c->rp + (size_t)a * per,
                        .rn = c->rn + (size_t)a * per, .scales = c->scales + a, .pmap = &c->thread_maps[2 * t],
                        .nmap = &c->thread_maps[2 * t + 1], .ahead = &c->ahead};
        vks_diff_begin(&sh[t].pos, f->pos.r.radius, &f->pos.r.tolerance);
        vks_diff_begin(&sh[t].nrm, f->nrm.r.radius, &f->nrm.r.tolerance);
        sh[t].check = c->reduce;
        sh[t].sampled = c->sampled;
        for (int k = 0; k < 3; k++)
            sh[t].bound[k] = INFINITY, sh[t].bound[3 + k] = -INFINITY;
        if (t == 0 && !c->sampled) /* first in the components' order: its sums need not wait */
            sh[t].sums_p = &f->pos, sh[t].sums_n = &f->nrm;
        vks_gpu_figures_reset(&sh[t].figs);
        args[t] = &sh[t];
    }
    vks__validate_parallel(c, threads, run_share, args); /* the caller takes shares too */
    for (int t = 0; t < threads; t++) { /* in the shares' order: ties keep the earlier pose */
        vks_diff_merge(&f->pos, &sh[t].pos);
        vks_diff_merge(&f->nrm, &sh[t].nrm);
        vks_error_map_merge(f->pmap, sh[t].pmap);
        vks_error_map_merge(f->nmap, sh[t].nmap);
        if (c->reduce)
            vks_gpu_figures_merge(&c->chunk_host, &sh[t].figs);
        for (int k = 0; k < 3; k++)
            c->bound[k] = fmin(c->bound[k], sh[t].bound[k]), c->bound[3 + k] = fmax(c->bound[3 + k], sh[t].bound[3 + k]);
    }
    double t1 = c->sampled ? sampled_sums_and_golden(c, ch) : sums_and_golden(c, ch, sh[0].b);
    f->check_ms += t1 - t0, f->golden_ms += vks__validate_now_ms() - t1;
    f->delivered += count;
    return 0;
}
