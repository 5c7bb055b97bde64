/* The fast CPU deformer: float arithmetic, all cores, loops the compiler vectorises, the
 * vertex kernel chosen by CPU features at run time (fast_kernel.h: baseline SSE2, AVX2+FMA).
 *
 * The batch is cut into items of (instance, vertex slice); each thread takes a contiguous
 * run of items, computes the instance's pose in float (world through the parents, then
 * K_b = S_mesh W IB, as skin.h defines) when the instance changes, then walks the groups
 * overlapping its slice: the group's palette is gathered through the remap into a local
 * table of column vectors, and the kernel's vertex loop, specialised by the group's influence
 * count (1..4), blends and transforms its vertices. */
#include "vkskin/cpu.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fast_internal.h"

typedef struct fast_shared {
    const vks_deform_job *job;
    uint32_t slices;        /* vertex slices per instance */
    uint64_t items;         /* instance_count * slices */
    uint32_t threads;
    uint32_t max_palette;
    vks__fast_group_fn kernel;
} fast_shared;

typedef struct fast_thread {
    const fast_shared *sh;
    uint32_t index;
    vks_affine *world, *skin; /* node_count, bone_count */
    vks__pal_mat *pal;        /* max_palette */
    int failed;
} fast_thread;

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

static _Atomic(vks__fast_group_fn) kernel;

static int cpu_has_avx2_fma(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return 0;
#endif
}

static vks__fast_group_fn pick_kernel(void)
{
    vks__fast_group_fn k = atomic_load(&kernel);
    if (k)
        return k;
    const char *env = getenv("VKSKIN_CPU_PATH"); /* "baseline" forces the SSE2 loop */
    if (!(env && !strcmp(env, "baseline") && vks_cpu_fast_set_path("baseline")))
        vks_cpu_fast_set_path("auto");
    return atomic_load(&kernel);
}

int vks_cpu_fast_set_path(const char *path)
{
    int avx2 = vks__fast_group_avx2 && cpu_has_avx2_fma();
    vks__fast_group_fn k;
    if (!path || !strcmp(path, "auto"))
        k = avx2 ? vks__fast_group_avx2 : vks__fast_group_baseline;
    else if (!strcmp(path, "baseline"))
        k = vks__fast_group_baseline;
    else if (!strcmp(path, "avx2") && avx2)
        k = vks__fast_group_avx2;
    else
        return 0;
    atomic_store(&kernel, k);
    return 1;
}

const char *vks_cpu_fast_path(void)
{
    return pick_kernel() == vks__fast_group_avx2 ? "avx2" : "baseline";
}

static void *worker(void *arg)
{
    fast_thread *t = arg;
    const fast_shared *sh = t->sh;
    const vks_deform_job *job = sh->job;
    const vks_skin *s = job->skin;
    uint64_t first = sh->items * t->index / sh->threads, last = sh->items * (t->index + 1) / sh->threads;
    uint32_t posed = UINT32_MAX;
    for (uint64_t it = first; it < last; it++) {
        uint32_t inst = (uint32_t)(it / sh->slices), slice = (uint32_t)(it % sh->slices);
        if (inst != posed) {
            pose(s, job->locals + (size_t)inst * s->node_count, t->world, t->skin);
            posed = inst;
        }
        uint32_t v0 = (uint32_t)((uint64_t)s->vertex_count * slice / sh->slices);
        uint32_t v1 = (uint32_t)((uint64_t)s->vertex_count * (slice + 1) / sh->slices);
        size_t at = vks_deform_index(s, inst, 0) * 3;
        float *pos = job->positions + at, *nrm = job->normals ? job->normals + at : NULL;
        for (uint32_t g = 0; g < s->group_count; g++) {
            const vks_group *gr = &s->groups[g];
            uint32_t a = gr->first_vertex > v0 ? gr->first_vertex : v0;
            uint32_t b = gr->first_vertex + gr->vertex_count < v1 ? gr->first_vertex + gr->vertex_count : v1;
            if (a >= b || gr->palette_count == 0)
                continue;
            for (uint32_t j = 0; j < gr->palette_count; j++) {
                const float *m = t->skin[s->palette[gr->first_palette + j]].m;
                for (int c = 0; c < 4; c++)
                    t->pal[j].c[c] = (vks__f4){m[c * 3], m[c * 3 + 1], m[c * 3 + 2], 0.0f};
            }
            const vks_mesh *me = &s->meshes[gr->mesh];
            sh->kernel(s, t->pal, gr->palette_count - 1, a, b, (int)gr->max_influences,
                         (me->flags & VKS_MESH_HAS_NORMALS) != 0, (me->flags & VKS_MESH_RENORMALIZE) != 0, pos, nrm);
        }
    }
    return NULL;
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
    if (threads <= 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (int)n : 1;
    }
    if (threads > 256)
        threads = 256;
    fast_shared sh = {job, 1, 0, (uint32_t)threads, 1, pick_kernel()};
    for (uint32_t g = 0; g < s->group_count; g++)
        if (s->groups[g].palette_count > sh.max_palette)
            sh.max_palette = s->groups[g].palette_count;
    /* Enough items for every thread: slice vertices when instances are few, keeping slices
     * of at least 1024 vertices so the pose per item stays cheap. */
    if (job->instance_count < (uint32_t)threads * 4 && s->vertex_count > 2048) {
        uint32_t want = ((uint32_t)threads * 4 + job->instance_count - 1) / (job->instance_count ? job->instance_count : 1);
        uint32_t most = s->vertex_count / 1024;
        sh.slices = want < most ? want : most;
        if (sh.slices < 1)
            sh.slices = 1;
    }
    sh.items = (uint64_t)job->instance_count * sh.slices;
    if (sh.items < (uint64_t)threads)
        sh.threads = sh.items ? (uint32_t)sh.items : 1;
    /* every temporary through the job's allocator (all allocated here, before the threads) */
    vks_allocator a = vks_allocator_or_default(opt ? &opt->allocator : NULL);
    fast_thread *t = a.alloc(a.user, sh.threads * sizeof *t);
    pthread_t *ids = a.alloc(a.user, sh.threads * sizeof *ids);
    int ok = t && ids;
    if (t)
        memset(t, 0, sh.threads * sizeof *t);
    for (uint32_t i = 0; ok && i < sh.threads; i++) {
        t[i].sh = &sh, t[i].index = i;
        t[i].world = a.alloc(a.user, (s->node_count ? s->node_count : 1) * sizeof *t[i].world);
        t[i].skin = a.alloc(a.user, (s->bone_count ? s->bone_count : 1) * sizeof *t[i].skin);
        /* malloc's alignment (16 on x86-64) is what the SSE/AVX2 kernels' aligned loads need */
        t[i].pal = a.alloc(a.user, (sh.max_palette ? sh.max_palette : 1) * sizeof *t[i].pal);
        ok = t[i].world && t[i].skin && t[i].pal;
    }
    uint32_t started = 0;
    for (uint32_t i = 1; ok && i < sh.threads; i++, started++)
        if (pthread_create(&ids[i], NULL, worker, &t[i]) != 0)
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
        if (t[i].pal)
            a.free(a.user, t[i].pal);
    }
    if (t)
        a.free(a.user, t);
    if (ids)
        a.free(a.user, ids);
    if (!ok)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "cpu fast", "out of memory for %u threads", sh.threads);
    return VKS_OK;
}
