/* The fast CPU deformer: float arithmetic, all cores, loops the compiler vectorises, the
 * vertex kernel chosen by CPU features at run time (fast_kernel.h: baseline SSE2, AVX2+FMA).
 *
 * The kernels read one 64-byte record per vertex (fast_internal.h), made from the skin by the
 * kernel's own prepare: position and normal with their homogeneous lanes, the weights, and
 * each slot's palette offset, checked there once, so the vertex loops clamp nothing. With more
 * instances than threads the records are made once per run into one table, block by block, by
 * the first thread to reach each block (block_ready); with at most one instance per thread,
 * where each record would be read about once, each thread makes the records of its slice in
 * small chunks into its own scratch, just before the kernel reads them from L1.
 *
 * The batch is cut into items of (instance, vertex slice); each thread takes a contiguous
 * run of items, computes the instance's pose in float (world through the parents, then
 * K_b = S_mesh W IB, as skin.h defines) when the instance changes, then walks the groups
 * overlapping its slice: the group's palette is gathered through the remap into a local
 * table of column vectors, and the kernel's vertex loop, specialised by the group's influence
 * count (1..4, or 8 for groups of 5..8 whose slots 4..7 sit in a second table beside the
 * records) and what it does with normals, blends and transforms its vertices.
 *
 * Crowds: with enough instances (crowd_lanes_for) the first instance_count / lanes units of the
 * batch are lanes consecutive instances each (4 or 8: the kernel's crowd lanes), deformed
 * together by the kernel's crowd loop (fast_crowd.h) from a palette laid out by element, so a
 * vertex's record, splats and addresses are paid once for all the lanes; the instances left
 * over are units of one. Items are (unit, vertex slice), and the threads share them by weight
 * (a unit weighs its instances). */
#include "vkskin/cpu.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cpu_features.h"
#include "core/skin_morph.h"
#include "core/thread_start.h"
#include "fast_internal.h"
#include "fast_morph.h"
#include "fast_runs.h"

/* Vertices per block of the shared records: each block is made once per run, by the first
 * thread that needs it, so the records are made in parallel. */
#define PREP_BLOCK 1024u
/* Vertices per chunk of a thread's own records when each vertex is deformed about once per
 * thread (few instances): made and read while in L1 (16 KiB). */
#define STREAM_CHUNK 256u

typedef struct fast_shared {
    const vks_deform_job *job;
    uint32_t slices;        /* vertex slices per instance */
    uint64_t items;         /* instance_count * slices */
    uint32_t threads;
    uint32_t max_palette;
    const vks__fast_kernel *kernel;
    int stream;             /* 1: each thread makes records chunk by chunk in its scratch, every
                               time (instance_count <= threads); 0: shared records, once */
    vks__fast_vertex *rec;  /* shared: vertex_count records */
    vks__fast_more *more;   /* shared: vertex_count slots 4..7, made for groups of more than 4
                               influences only; NULL when no group has them (or stream) */
    int any_more;           /* some group has more than 4 influences */
    _Atomic int *state;     /* shared: per block of PREP_BLOCK records: 0 to make, 1 being made,
                               2 ready */
    uint32_t blocks;
    /* the rest the kernels read: the stored vertices, or those moved by the morph targets'
       default weights (core/skin_morph.h) */
    const float (*rest_pos)[3], (*rest_nrm)[3];
    int per_instance;       /* the job's morph weights differ from the defaults: each thread
                               moves its chunks by its instance's weights (stream mode) */
    vks__fast_runs runs;    /* runs of vertices by the slots they use (fast_runs.h); NULL
                               tables: every group's loop at its group's count */
    uint32_t lanes;         /* crowd units: instances deformed at once by the kernel's crowd loop
                               (crowd_lanes_for); 0: one instance at a time */
    uint32_t units;         /* instance_count / lanes crowd units, then the rest one by one */
} fast_shared;

typedef struct fast_thread {
    const fast_shared *sh;
    uint32_t index;
    vks_affine *world, *skin;   /* node_count, bone_count */
    vks__pal_mat *pal;          /* max_palette, 64-byte aligned inside block */
    vks__fast_vertex *scratch;  /* stream: STREAM_CHUNK records after the palette */
    vks__fast_more *scratch_more; /* stream, any_more: STREAM_CHUNK slots 4..7 after them */
    float (*mpos)[3], (*mnrm)[3]; /* per_instance: a chunk's morphed vertices (STREAM_CHUNK + 1) */
    void *block;
    vks_affine *crowd_skin;     /* lanes: each lane's skin matrices, bone_count apart */
    float *crowd_pal;           /* lanes: the group's palette by element (crowd_palette) */
    void *crowd_block;
} fast_thread;

/* The slots the kernels read for a group: its max_influences, where a model not validated says 0
 * or more than 8, all eight. */
static uint32_t group_slots(const vks_group *gr)
{
    return gr->max_influences - 1u < VKS_MAX_INFLUENCES ? gr->max_influences : VKS_MAX_INFLUENCES;
}

static uint32_t group_slots_fn(const vks_group *gr)
{
    return group_slots(gr);
}

/* The records of group gr's vertices [a, b) into rec[0 .. b - a), and for a group of more than
 * four influences their slots 4..7 into more[0 .. b - a) (fast_internal.h): the one place that
 * reads the skin's influences, so the one place that checks them. */
static void prepare_group(const fast_shared *sh, const vks_group *gr, vks__fast_vertex *rec, vks__fast_more *more,
                          uint32_t a, uint32_t b)
{
    const vks_skin *s = sh->job->skin;
    const vks_mesh *me = &s->meshes[gr->mesh];
    sh->kernel->prepare(rec, group_slots(gr) > 4 ? more : NULL, sh->rest_pos,
                        (me->flags & VKS_MESH_HAS_NORMALS) ? sh->rest_nrm : NULL, s->influences, a, b,
                        s->vertex_count - 1, group_slots(gr), gr->palette_count - 1);
}

/* A chunk [c0, c0 + n) of group gr moved by the instance's morph weights w into the thread's
 * scratch records: the kernel's preparation reads the moved vertices from index 0 (one spare
 * entry after them, so its 16-byte loads stay inside). */
static void prepare_morphed(const fast_shared *sh, const fast_thread *t, const vks_group *gr, const float *w,
                            uint32_t c0, uint32_t n)
{
    const vks_skin *s = sh->job->skin;
    const vks_mesh *me = &s->meshes[gr->mesh];
    int has_n = (me->flags & VKS_MESH_HAS_NORMALS) && s->normals;
    vks__fast_morph_chunk(s, me, w, c0, n, t->mpos, has_n ? t->mnrm : NULL);
    sh->kernel->prepare(t->scratch, group_slots(gr) > 4 ? t->scratch_more : NULL, (const float(*)[3])t->mpos,
                        has_n ? (const float(*)[3])t->mnrm : NULL, s->influences + c0, 0, n, n, group_slots(gr),
                        gr->palette_count - 1);
}

/* Group gr's vertices inside [v0, v1) as [*a, *b): 1 when there are some and the group has a
 * palette (a group without one is never deformed). */
static int group_span(const vks_group *gr, uint32_t v0, uint32_t v1, uint32_t *a, uint32_t *b)
{
    *a = gr->first_vertex > v0 ? gr->first_vertex : v0;
    *b = gr->first_vertex + gr->vertex_count < v1 ? gr->first_vertex + gr->vertex_count : v1;
    return *a < *b && gr->palette_count != 0;
}

/* The shared records of vertices [v0, v1), group by group. */
static void prepare(const fast_shared *sh, uint32_t v0, uint32_t v1)
{
    const vks_skin *s = sh->job->skin;
    for (uint32_t g = 0, a, b; g < s->group_count; g++)
        if (group_span(&s->groups[g], v0, v1, &a, &b))
            prepare_group(sh, &s->groups[g], sh->rec + a, sh->more ? sh->more + a : NULL, a, b);
}

/* Makes block blk's records when nobody has started them; 1 when they are ready (made here or
 * before), 0 while another thread is making them. */
static int block_try(const fast_shared *sh, uint32_t blk)
{
    if (atomic_load_explicit(&sh->state[blk], memory_order_acquire) == 2)
        return 1;
    int expect = 0;
    if (!atomic_compare_exchange_strong_explicit(&sh->state[blk], &expect, 1, memory_order_acquire,
                                                 memory_order_acquire))
        return 0;
    uint32_t v0 = blk * PREP_BLOCK, V = sh->job->skin->vertex_count;
    prepare(sh, v0, V - v0 < PREP_BLOCK ? V : v0 + PREP_BLOCK);
    atomic_store_explicit(&sh->state[blk], 2, memory_order_release);
    return 1;
}

/* Block blk's records are ready once this returns. Each block is made by the first thread that
 * needs it, just before its kernel reads it (still in cache); a thread that finds it being made
 * makes the next blocks nobody has started meanwhile, then waits (the thread making blk runs:
 * it never waits itself). */
static void block_ready(const fast_shared *sh, uint32_t blk)
{
    if (block_try(sh, blk))
        return;
    for (uint32_t b = blk + 1; b < sh->blocks && atomic_load_explicit(&sh->state[blk], memory_order_acquire) != 2; b++)
        block_try(sh, b);
    while (atomic_load_explicit(&sh->state[blk], memory_order_acquire) != 2)
        sched_yield();
}

static void pose(const vks_skin *s, const vks_affine *locals, vks_affine *world, vks_affine *K)
{
    for (uint32_t n = 0; n < s->node_count; n++) {
        int32_t p = s->nodes[n].parent;
        world[n] = p < 0 ? locals[n] : vks_affine_mul(&world[p], &locals[n]);
    }
    for (uint32_t m = 0; m < s->mesh_count; m++) {
        const vks_mesh *me = &s->meshes[m];
        vks_affine space = me->space_pre;
        if (me->space_node >= 0) {
            vks_affine inv;
            vks_affine_inverse(&world[me->space_node], &inv);
            space = vks_affine_mul(&me->space_pre, &inv);
        }
        for (uint32_t b = me->first_bone; b < me->first_bone + me->bone_count; b++) {
            vks_affine wb = vks_affine_mul(&world[s->bones[b].node], &s->bones[b].inverse_bind);
            K[b] = vks_affine_mul(&space, &wb);
        }
    }
}

/* ---- the kernel for this CPU: chosen once by cpuid, or forced (tests, benchmarks) ---- */

static _Atomic(const vks__fast_kernel *) kernel;

static int cpu_has_avx2_fma(void)
{
    return vks__cpu_has_avx2_fma();
}

static const vks__fast_kernel *pick_kernel(void)
{
    const vks__fast_kernel *k = atomic_load(&kernel);
    if (k)
        return k;
    /* "baseline" or "avx2" forces a lower kernel than this CPU's best (tests, comparisons) */
    const char *env = getenv("VKSKIN_CPU_PATH");
    if (!(env && (!strcmp(env, "baseline") || !strcmp(env, "avx2")) && vks_cpu_fast_set_path(env)))
        vks_cpu_fast_set_path("auto");
    return atomic_load(&kernel);
}

int vks_cpu_fast_set_path(const char *path)
{
    int avx2 = vks__fast_avx2 && cpu_has_avx2_fma();
    int avx512 = avx2 && vks__fast_avx512 && vks__cpu_has_avx512();
    const vks__fast_kernel *k;
    if (!path || !strcmp(path, "auto"))
        k = avx512 ? vks__fast_avx512 : avx2 ? vks__fast_avx2 : &vks__fast_baseline;
    else if (!strcmp(path, "baseline"))
        k = &vks__fast_baseline;
    else if (!strcmp(path, "avx2") && avx2)
        k = vks__fast_avx2;
    else if (!strcmp(path, "avx512") && avx512)
        k = vks__fast_avx512;
    else
        return 0;
    atomic_store(&kernel, k);
    return 1;
}

const char *vks_cpu_fast_path(void)
{
    return pick_kernel()->name;
}

/* The kernel over group g's vertices [c0, c1) (records rec[0 ..), outputs pos/nrm from c0), run
 * by run where the group has runs: each run's loop blends only the slots its vertices use. */
static void deform_span(const fast_shared *sh, uint32_t g, const vks__fast_vertex *rec, const vks__fast_more *more,
                        const vks__pal_mat *pal, uint32_t c0, uint32_t c1, int nmode, float *pos, float *nrm)
{
    const vks_group *gr = &sh->job->skin->groups[g];
    int k_group = vks__fast_loop_influences(group_slots(gr));
    if (!sh->runs.runs || sh->runs.group_first[g] == sh->runs.group_first[g + 1]) {
        sh->kernel->deform(rec, more, pal, c1 - c0, k_group, nmode, pos, nrm);
        return;
    }
    uint32_t r = vks__fast_run_at(&sh->runs, g, c0), last = sh->runs.group_first[g + 1];
    for (uint32_t v = c0; v < c1; r++) {
        uint32_t end = r + 1 < last && sh->runs.runs[r + 1].first < c1 ? sh->runs.runs[r + 1].first : c1;
        size_t at = v - c0;
        /* a run marked affine only where the kernel has the affine loop (runs_make) */
        vks__fast_group_fn loop = sh->runs.runs[r].affine ? sh->kernel->deform_affine : sh->kernel->deform;
        loop(rec + at, more ? more + at : NULL, pal, end - v, (int)sh->runs.runs[r].k, nmode, pos + at * 3,
             nrm ? nrm + at * 3 : NULL);
        v = end;
    }
}

/* What a group's loops do with normals, the group's span [a, b) of normals zeroed in each of
 * lanes instances (stride floats apart) where its mesh has none. */
static int group_nmode(const vks_skin *s, const vks_group *gr, float *nrm, uint32_t a, uint32_t b, uint32_t lanes,
                       size_t stride)
{
    const vks_mesh *me = &s->meshes[gr->mesh];
    if (!nrm)
        return VKS__FAST_NRM_NONE;
    if (!((me->flags & VKS_MESH_HAS_NORMALS) && s->normals)) {
        for (uint32_t l = 0; l < lanes; l++) /* no normals: zeros */
            memset(nrm + l * stride + (size_t)a * 3, 0, (size_t)(b - a) * 3 * sizeof *nrm);
        return VKS__FAST_NRM_NONE;
    }
    return me->flags & VKS_MESH_RENORMALIZE ? VKS__FAST_NRM_RENORM : VKS__FAST_NRM;
}

/* Vertices [v0, v1) of one instance, group by group (its skin matrices in t->skin). */
static void instance_item(fast_thread *t, uint32_t inst, uint32_t v0, uint32_t v1)
{
    const fast_shared *sh = t->sh;
    const vks_deform_job *job = sh->job;
    const vks_skin *s = job->skin;
    size_t at = vks_deform_index(s, inst, 0) * 3;
    float *pos = job->positions + at, *nrm = job->normals ? job->normals + at : NULL;
    for (uint32_t g = 0, a, b; g < s->group_count; g++) {
        const vks_group *gr = &s->groups[g];
        if (!group_span(gr, v0, v1, &a, &b))
            continue;
        for (uint32_t j = 0; j < gr->palette_count; j++) {
            const float *m = t->skin[s->palette[gr->first_palette + j]].m;
            for (int c = 0; c < 4; c++)
                t->pal[j].c[c] = (vks__f4){m[c * 3], m[c * 3 + 1], m[c * 3 + 2], c < 3 ? m[9 + c] : 0.0f};
        }
        int nmode = group_nmode(s, gr, nrm, a, b, 1, 0);
        float *pa = pos + (size_t)a * 3, *na = nmode ? nrm + (size_t)a * 3 : NULL;
        if (sh->stream) {
            /* chunk by chunk: this thread's records, made and read while in L1 */
            const float *mw = sh->per_instance ? job->morph_weights + (size_t)inst * s->target_count : NULL;
            int morph = mw && vks__fast_morph_active(s, mw, gr->mesh);
            for (uint32_t c0 = a, n; c0 < b; c0 += n) {
                n = b - c0 < STREAM_CHUNK ? b - c0 : STREAM_CHUNK;
                if (morph)
                    prepare_morphed(sh, t, gr, mw, c0, n);
                else
                    prepare_group(sh, gr, t->scratch, t->scratch_more, c0, c0 + n);
                deform_span(sh, g, t->scratch, t->scratch_more, t->pal, c0, c0 + n, nmode,
                            pa + (size_t)(c0 - a) * 3, na ? na + (size_t)(c0 - a) * 3 : NULL);
            }
            continue;
        }
        /* block by block: the first pass over a block makes its records, and the kernel
         * reads them while they are still in cache */
        for (uint32_t c0 = a, c1; c0 < b; c0 = c1) {
            uint32_t blk = c0 / PREP_BLOCK;
            c1 = (blk + 1) * PREP_BLOCK < b ? (blk + 1) * PREP_BLOCK : b;
            block_ready(sh, blk);
            deform_span(sh, g, sh->rec + c0, sh->more ? sh->more + c0 : NULL, t->pal, c0, c1, nmode,
                        pa + (size_t)(c0 - a) * 3, na ? na + (size_t)(c0 - a) * 3 : NULL);
        }
    }
}

/* The kernel's crowd loop over group g's vertices [c0, c1) of the unit's lanes, run by run as
 * deform_span (the shared records, lane 0's outputs pos/nrm from c0, stride floats apart). */
static void crowd_span(const fast_shared *sh, uint32_t g, const float *pal, uint32_t c0, uint32_t c1, int nmode,
                       float *pos, float *nrm, size_t stride)
{
    const vks_group *gr = &sh->job->skin->groups[g];
    const vks__fast_vertex *rec = sh->rec + c0;
    const vks__fast_more *more = sh->more ? sh->more + c0 : NULL;
    if (!sh->runs.runs || sh->runs.group_first[g] == sh->runs.group_first[g + 1]) {
        sh->kernel->crowd(rec, more, pal, c1 - c0, vks__fast_loop_influences(group_slots(gr)), 0, nmode, pos,
                          nrm, stride);
        return;
    }
    uint32_t r = vks__fast_run_at(&sh->runs, g, c0), last = sh->runs.group_first[g + 1];
    for (uint32_t v = c0; v < c1; r++) {
        uint32_t end = r + 1 < last && sh->runs.runs[r + 1].first < c1 ? sh->runs.runs[r + 1].first : c1;
        size_t at = v - c0;
        sh->kernel->crowd(rec + at, more ? more + at : NULL, pal, end - v,
                          (int)sh->runs.runs[r].k, sh->runs.runs[r].affine, nmode, pos + at * 3,
                          nrm ? nrm + at * 3 : NULL, stride);
        v = end;
    }
}

/* The element-wise palette of lanes instances for a group: slot j's element e (the index into
 * vks_affine.m: x axis 0..2, y axis 3..5, z axis 6..8, translation 9..11) of instance l at
 * out[(j * 12 + e) * lanes + l]; skin[l] is instance l's skin matrices, slot j's bone
 * palette[j]. */
static void crowd_palette(const vks_affine *const *skin, uint32_t lanes, const uint16_t *palette,
                          uint32_t count, float *out)
{
    for (uint32_t j = 0; j < count; j++)
        for (uint32_t l = 0; l < lanes; l++) {
            const float *m = skin[l][palette[j]].m;
            for (uint32_t e = 0; e < 12; e++)
                out[((size_t)j * 12 + e) * lanes + l] = m[e];
        }
}

/* Vertices [v0, v1) of crowd unit u's lanes instances (their skin matrices in t->crowd_skin),
 * group by group, from the shared records. */
static void crowd_item(fast_thread *t, uint32_t u, uint32_t v0, uint32_t v1)
{
    const fast_shared *sh = t->sh;
    const vks_deform_job *job = sh->job;
    const vks_skin *s = job->skin;
    const size_t stride = (size_t)s->vertex_count * 3, at = vks_deform_index(s, u * sh->lanes, 0) * 3;
    float *pos = job->positions + at, *nrm = job->normals ? job->normals + at : NULL;
    const vks_affine *skins[16];
    for (uint32_t l = 0; l < sh->lanes; l++)
        skins[l] = t->crowd_skin + (size_t)l * s->bone_count;
    for (uint32_t g = 0, a, b; g < s->group_count; g++) {
        const vks_group *gr = &s->groups[g];
        if (!group_span(gr, v0, v1, &a, &b))
            continue;
        crowd_palette(skins, sh->lanes, s->palette + gr->first_palette, gr->palette_count, t->crowd_pal);
        int nmode = group_nmode(s, gr, nrm, a, b, sh->lanes, stride);
        float *pa = pos + (size_t)a * 3, *na = nmode ? nrm + (size_t)a * 3 : NULL;
        for (uint32_t c0 = a, c1; c0 < b; c0 = c1) {
            uint32_t blk = c0 / PREP_BLOCK;
            c1 = (blk + 1) * PREP_BLOCK < b ? (blk + 1) * PREP_BLOCK : b;
            block_ready(sh, blk);
            crowd_span(sh, g, t->crowd_pal, c0, c1, nmode, pa + (size_t)(c0 - a) * 3,
                       na ? na + (size_t)(c0 - a) * 3 : NULL, stride);
        }
    }
}

/* The first item of thread i's share (i = threads: the end). Items weigh their instances
 * (a crowd unit's lanes, else 1), and each thread takes the items that start in its equal part
 * of the total weight. */
static uint64_t share_start(const fast_shared *sh, uint32_t i)
{
    const uint64_t crowd_items = (uint64_t)(sh->lanes ? sh->job->instance_count / sh->lanes : 0) * sh->slices;
    const uint64_t crowd_weight = crowd_items * (sh->lanes ? sh->lanes : 1);
    const uint64_t weight = crowd_weight + (sh->items - crowd_items);
    const uint64_t target = weight * i / sh->threads;
    if (target <= crowd_weight) /* the crowd item nearest the target */
        return (target + (sh->lanes ? sh->lanes : 1) / 2) / (sh->lanes ? sh->lanes : 1);
    return crowd_items + (target - crowd_weight);
}

/* A thread's contiguous share of the items (unit, vertex slice): units below instance_count /
 * lanes are crowd units of lanes instances, the rest one instance each. Each instance is posed
 * once per item where the unit changes. */
static void *worker(void *arg)
{
    fast_thread *t = arg;
    const fast_shared *sh = t->sh;
    const vks_deform_job *job = sh->job;
    const vks_skin *s = job->skin;
    const uint32_t crowd_units = sh->lanes ? job->instance_count / sh->lanes : 0;
    uint64_t first = share_start(sh, t->index), last = share_start(sh, t->index + 1);
    uint32_t posed = UINT32_MAX;
    for (uint64_t it = first; it < last; it++) {
        uint32_t unit = (uint32_t)(it / sh->slices), slice = (uint32_t)(it % sh->slices);
        uint32_t v0 = (uint32_t)((uint64_t)s->vertex_count * slice / sh->slices);
        uint32_t v1 = (uint32_t)((uint64_t)s->vertex_count * (slice + 1) / sh->slices);
        if (unit < crowd_units) {
            for (uint32_t l = 0; unit != posed && l < sh->lanes; l++)
                pose(s, job->locals + ((size_t)unit * sh->lanes + l) * s->node_count, t->world,
                     t->crowd_skin + (size_t)l * s->bone_count);
            posed = unit;
            crowd_item(t, unit, v0, v1);
            continue;
        }
        uint32_t inst = crowd_units * sh->lanes + (unit - crowd_units);
        if (unit != posed)
            pose(s, job->locals + (size_t)inst * s->node_count, t->world, t->skin);
        posed = unit;
        instance_item(t, inst, v0, v1);
    }
    return NULL;
}

/* p rounded up to a multiple of 64 (blocks are allocated 63 bytes longer) */
static void *align64(void *p)
{
    return (void *)(((uintptr_t)p + 63) & ~(uintptr_t)63);
}

/* The runs by slots used (fast_runs.h), marked affine for a kernel with an affine loop, through
 * the job's allocator like every temporary: 0 without memory for them (the run is then
 * VKS_ERR_NOMEM, as the options promise). */
static int runs_make(const vks_skin *s, const vks__fast_kernel *k, const vks_allocator *a, vks__fast_runs *r)
{
    uint64_t cap = vks__fast_runs_capacity(s);
    if (cap < SIZE_MAX / sizeof *r->runs) {
        r->runs = a->alloc(a->user, cap * sizeof *r->runs);
        r->group_first = a->alloc(a->user, ((size_t)s->group_count + 1) * sizeof *r->group_first);
    }
    if (r->runs && r->group_first) {
        vks__fast_runs_make(s, group_slots_fn, k->deform_affine ? k->affine_max_k : 0, r);
        return 1;
    }
    return 0;
}

static void runs_free(const vks_allocator *a, vks__fast_runs *r)
{
    if (r->runs)
        a->free(a->user, r->runs);
    if (r->group_first)
        a->free(a->user, r->group_first);
}

/* The rest the run deforms: the morph targets at their default weights (NULL: none moves a
 * vertex, or the job gives weights per instance, which the threads apply chunk by chunk). */
static vks_result morph_rest(const vks_deform_job *job, const vks_cpu_options *opt, float (**pos)[3],
                             float (**nrm)[3], vks_error *err)
{
    *pos = NULL, *nrm = NULL;
    if (vks__morph_weights_off_default(job))
        return VKS_OK;
    return vks__morph_rest(job->skin, opt ? &opt->allocator : NULL, pos, nrm, err);
}

/* Each thread's rooms, through the job's allocator before any thread starts: its worlds, skin
 * matrices, and one 64-byte aligned block (a matrix is one cache line, its halves the AVX2
 * kernel's aligned loads) with the palette, then the scratch records and morph rows. */
static int thread_rooms(fast_thread *t, fast_shared *sh, const vks_allocator *a, const vks_skin *s)
{
    int ok = 1;
    size_t pal_bytes = (sh->max_palette ? sh->max_palette : 1) * sizeof *t->pal;
    for (uint32_t i = 0; ok && i < sh->threads; i++) {
        t[i].sh = sh, t[i].index = i;
        t[i].world = a->alloc(a->user, (s->node_count ? s->node_count : 1) * sizeof *t[i].world);
        t[i].skin = a->alloc(a->user, (s->bone_count ? s->bone_count : 1) * sizeof *t[i].skin);
        /* 64-byte aligned: a matrix is one cache line, its halves the AVX2 kernel's aligned
         * loads; the scratch records after the palette */
        size_t scratch_bytes = sh->stream ? STREAM_CHUNK * sizeof *t->scratch : 0;
        size_t more_bytes = sh->stream && sh->any_more ? STREAM_CHUNK * sizeof *t->scratch_more : 0;
        size_t morph_bytes = sh->per_instance ? 2 * (STREAM_CHUNK + 1) * sizeof *t->mpos : 0;
        t[i].block = a->alloc(a->user, pal_bytes + scratch_bytes + more_bytes + morph_bytes + 63);
        t[i].pal = t[i].block ? align64(t[i].block) : NULL;
        t[i].scratch = t[i].pal && sh->stream ? (vks__fast_vertex *)((char *)t[i].pal + pal_bytes) : NULL;
        t[i].scratch_more =
            t[i].pal && more_bytes ? (vks__fast_more *)((char *)t[i].pal + pal_bytes + scratch_bytes) : NULL;
        if (t[i].pal && morph_bytes) /* the chunk's moved positions, then its normals */
            t[i].mpos = (float(*)[3])((char *)t[i].pal + pal_bytes + scratch_bytes + more_bytes),
            t[i].mnrm = t[i].mpos + STREAM_CHUNK + 1;
        if (sh->lanes) { /* each lane's skin matrices, then the palette by element (64-byte aligned) */
            size_t skin_bytes = (size_t)sh->lanes * (s->bone_count ? s->bone_count : 1) * sizeof(vks_affine);
            size_t cpal_bytes = (size_t)(sh->max_palette ? sh->max_palette : 1) * 12 * sh->lanes * sizeof(float);
            skin_bytes = (skin_bytes + 63) & ~(size_t)63;
            t[i].crowd_block = a->alloc(a->user, skin_bytes + cpal_bytes + 63);
            t[i].crowd_skin = t[i].crowd_block ? align64(t[i].crowd_block) : NULL;
            t[i].crowd_pal = t[i].crowd_skin ? (float *)((char *)t[i].crowd_skin + skin_bytes) : NULL;
            ok = t[i].crowd_block != NULL;
        }
        ok = ok && t[i].world && t[i].skin && t[i].pal;
    }
    return ok;
}

/* The threads a run asks for: all cores for threads <= 0, at most 256. */
static uint32_t run_threads(int threads)
{
    if (threads <= 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (int)n : 1;
    }
    return threads > 256 ? 256u : (uint32_t)threads;
}

/* 1 where each thread makes its own records as it goes (fast_shared.stream): at most one
 * instance per thread, or morph weights per instance (records per instance). */
static int run_stream(const vks_deform_job *job, uint32_t threads)
{
    return job->instance_count <= threads || vks__morph_weights_off_default(job) != 0;
}

/* The instances kernel k's crowd loop takes at once for this run, or 0: one at a time. The
 * crowd loop reads the shared records (not each thread's own: stream) and needs enough units
 * to share among the threads (four items a thread, counting the vertex slices a unit may be
 * cut into), or a few threads would do most of the work. VKSKIN_CPU_CROWD=off in the
 * environment turns it off (comparisons, tests): the outputs are the same bits either way. */
static uint32_t crowd_lanes_for(const vks__fast_kernel *k, const vks_deform_job *job, uint32_t threads, int stream)
{
    uint32_t lanes = k->crowd ? k->crowd_lanes : 0, vertices = job->skin->vertex_count;
    if (!lanes || stream || vks__cpu_crowd_off())
        return 0;
    uint64_t slices = vertices > 2048 ? vertices / 1024 : 1;
    return (uint64_t)(job->instance_count / lanes) * slices >= (uint64_t)threads * 4 ? lanes : 0;
}

/* Vertex slices per unit, enough items for every thread: slices when units are few (crowd
 * units, weighing lanes instances each, counted alone), of at least 1024 vertices so the pose
 * per item stays cheap. */
static uint32_t vertex_slices(const fast_shared *sh, uint32_t threads)
{
    uint32_t few = sh->lanes ? sh->job->instance_count / sh->lanes : sh->units, vertices = sh->job->skin->vertex_count;
    if (few >= threads * 4 || vertices <= 2048)
        return 1;
    uint32_t want = (threads * 4 + few - 1) / (few ? few : 1), most = vertices / 1024;
    return want < most ? want : most;
}

uint32_t vks__cpu_fast_crowd_lanes(const vks_deform_job *job, int threads)
{
    uint32_t t = run_threads(threads);
    return crowd_lanes_for(pick_kernel(), job, t, run_stream(job, t));
}

vks_result vks_cpu_fast_run(const vks_deform_job *job, int threads, vks_error *err)
{
    vks_cpu_options o = {0};
    o.threads = threads;
    return vks_cpu_fast_run_opt(job, &o, err);
}

vks_result vks_cpu_fast_run_opt(const vks_deform_job *job, const vks_cpu_options *opt, vks_error *err)
{
    int threads = opt ? opt->threads : 0;
    vks_result r = vks_deform_validate(job, err);
    if (r != VKS_OK)
        return r;
    const vks_skin *s = job->skin;
    threads = (int)run_threads(threads);
    float(*morph_pos)[3] = NULL, (*morph_nrm)[3] = NULL;
    if ((r = morph_rest(job, opt, &morph_pos, &morph_nrm, err)) != VKS_OK)
        return r;
    fast_shared sh = {job, 1, 0, (uint32_t)threads, 1, pick_kernel(), 0, NULL, NULL, 0, NULL, 0,
                      morph_pos ? (const float(*)[3])morph_pos : (const float(*)[3])s->positions,
                      morph_pos ? (const float(*)[3])morph_nrm : (const float(*)[3])s->normals,
                      vks__morph_weights_off_default(job) != 0, {NULL, NULL}, 0, 0};
    for (uint32_t g = 0; g < s->group_count; g++) {
        if (s->groups[g].palette_count > sh.max_palette)
            sh.max_palette = s->groups[g].palette_count;
        sh.any_more |= group_slots(&s->groups[g]) > 4;
    }
    /* The records: with at most one instance per thread each thread makes its own, chunk by
     * chunk, as it goes (a shared table would be made and read once, from further away); with
     * more, one table for the run, one cache line per vertex, and its blocks' states. */
    sh.stream = run_stream(job, (uint32_t)threads);
    sh.lanes = crowd_lanes_for(sh.kernel, job, (uint32_t)threads, sh.stream);
    sh.units = sh.lanes ? job->instance_count / sh.lanes + job->instance_count % sh.lanes : job->instance_count;
    sh.slices = vertex_slices(&sh, (uint32_t)threads);
    sh.items = (uint64_t)sh.units * sh.slices;
    if (sh.items < (uint64_t)threads)
        sh.threads = sh.items ? (uint32_t)sh.items : 1;
    /* every temporary through the job's allocator (all allocated here, before the threads) */
    vks_allocator a = vks_allocator_or_default(opt ? &opt->allocator : NULL);
    fast_thread *t = a.alloc(a.user, sh.threads * sizeof *t);
    pthread_t *ids = a.alloc(a.user, sh.threads * sizeof *ids);
    int runs_ok = runs_make(s, sh.kernel, &a, &sh.runs);
    void *rec_block = NULL, *more_block = NULL;
    int ok = t && ids && runs_ok;
    if (!sh.stream) {
        sh.blocks = (s->vertex_count + PREP_BLOCK - 1) / PREP_BLOCK;
        if ((uint64_t)s->vertex_count * sizeof *sh.rec < SIZE_MAX - 64) {
            rec_block = a.alloc(a.user, (s->vertex_count ? s->vertex_count : 1) * sizeof *sh.rec + 63);
            if (sh.any_more)
                more_block = a.alloc(a.user, (s->vertex_count ? s->vertex_count : 1) * sizeof *sh.more + 63);
        }
        sh.rec = rec_block ? align64(rec_block) : NULL;
        sh.more = more_block ? align64(more_block) : NULL;
        sh.state = a.alloc(a.user, (sh.blocks ? sh.blocks : 1) * sizeof *sh.state);
        ok = ok && rec_block && sh.state && (more_block || !sh.any_more);
        for (uint32_t b = 0; sh.state && b < sh.blocks; b++)
            atomic_init(&sh.state[b], 0);
    }
    if (t)
        memset(t, 0, sh.threads * sizeof *t);
    ok = ok && thread_rooms(t, &sh, &a, s);
    uint32_t started = 0;
    for (uint32_t i = 1; ok && i < sh.threads; i++, started++)
        if (vks__thread_start(&ids[i], worker, &t[i], "the fast CPU engine: a thread's share on the calling thread") != 0)
            break;
    if (ok)
        worker(&t[0]);
    for (uint32_t i = 1; i <= started; i++)
        pthread_join(ids[i], NULL);
    for (uint32_t i = 1 + started; ok && i < sh.threads; i++)
        worker(&t[i]); /* threads that could not start: run their share here */
    for (uint32_t i = 0; t && i < sh.threads; i++) {
        if (t[i].world)
            a.free(a.user, t[i].world);
        if (t[i].skin)
            a.free(a.user, t[i].skin);
        if (t[i].block)
            a.free(a.user, t[i].block);
        if (t[i].crowd_block)
            a.free(a.user, t[i].crowd_block);
    }
    if (t)
        a.free(a.user, t);
    if (ids)
        a.free(a.user, ids);
    runs_free(&a, &sh.runs);
    if (rec_block)
        a.free(a.user, rec_block);
    if (more_block)
        a.free(a.user, more_block);
    if (sh.state)
        a.free(a.user, sh.state);
    if (morph_pos)
        a.free(a.user, morph_pos);
    if (!ok)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "cpu fast", "out of memory for %u threads", sh.threads);
    return VKS_OK;
}
