/* vkskin bake MANIFEST.json: bakes every job of a manifest (README "Batch baking") into VAT
 * textures, bone-matrix atlases and caches, each with a sidecar. Jobs whose sidecars say they
 * are up to date are skipped, so a bake killed halfway finishes where it stopped; --shard I/N
 * takes one share of the jobs for a job array (tools/slurm/bake.sbatch). */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "bake_job.h"
#include "cli_gpu.h"
#include "cli_shares.h"
#include "cli_thread.h"
#include "vkskin/vat.h"
#include "work_pool.h"

/* A Vulkan context of the run and the lock that gives it to one thread at a time. */
typedef struct bake_device {
    vks_gpu *gpu;
    pthread_mutex_t lock;
    uint32_t jobs, groups; /* what it deformed (under lock), for the split's shares */
    double busy_s;         /* its groups' time on it: deform and contact sheets */
} bake_device;

typedef struct bake_run {
    vks_bake_manifest *m;
    const uint8_t *mine;
    vks_bake_result *res;
    const char *out;
    int force;
    uint64_t max_memory;  /* bytes a job may take (--max-memory-mb) */
    vks_bake_engine engine;
    bake_device *devs;    /* --device: one context per device (GPU engine) */
    uint32_t dev_count;   /* asked for: opened on their own thread while the first jobs are read */
    int devs_open;        /* under lock: 0 opening, 1 open, -1 one could not be (open_rc says why) */
    int open_rc;
    pthread_cond_t opened;
    vks_work_pool *pool;  /* encodes and writes the outputs (--threads) */
    pthread_mutex_t lock; /* the next job, progress, the exit code and the workers' pending counts */
    pthread_cond_t written; /* a job's outputs are all written */
    uint32_t next;
    /* a split (several devices) deals each device its first job, so that no device idles while
       another's job in flight takes every job into its groups: dealt[d] is device d's until it
       takes it (UINT32_MAX: taken, or none); undealt[d]: no job in flight runs on device d (its
       threads could not be had), so any job in flight may take its job */
    uint32_t dealt[VKS_CLI_MAX_DEVICES];
    uint8_t undealt[VKS_CLI_MAX_DEVICES];
    uint32_t group_max;   /* jobs in a GPU group: at most the jobs over the devices (rounded up) */
    uint32_t in_flight;   /* jobs in flight (--jobs, at least one per device) */
    vks_bake_progress progress;
    int exit_code;
    vks_cli_shares shares; /* what each device took (--device all or a list), once done */
    vks_bake_stages stages; /* under lock */
} bake_run;

/* One job in flight (--jobs): it reads jobs, deforms them on its device and hands them to the
 * pool; pending counts its jobs the pool has not finished writing, pending_bytes their frames. */
typedef struct bake_worker {
    bake_run *run;
    bake_device *dev;
    uint32_t pending;
    uint64_t pending_bytes; /* their frames (job_bytes) */
} bake_worker;

struct job_slot;
typedef struct kind_task {
    struct job_slot *s;
    int k;
} kind_task;

/* A job between its steps: read, deformed, written (one pool task per output kind). */
typedef struct job_slot {
    uint32_t j;
    vks_bake_job only;  /* the job with the outputs to redo only */
    vks_bake_loaded l;
    vks_bake_frames fr;
    double t0;
    bake_worker *w;
    int ok;             /* deformed (and contact sheets drawn) */
    pthread_mutex_t mu; /* tasks_left, mesh and motion */
    uint32_t tasks_left;
    int mesh;           /* the rest mesh: 0 not yet, 1 written, -1 failed */
    int motion;         /* the root motion CSV (a job with root_motion): the same */
    kind_task tasks[VKS_BAKE_OUT_KINDS];
    vks_bake_result parts[VKS_BAKE_OUT_KINDS]; /* each kind's files and bytes, merged in order */
    int part_ok[VKS_BAKE_OUT_KINDS];
} job_slot;

#define GROUP_MAX_JOBS 16u

/* A read job's frames in memory (positions and normals), as the GPU's groups count them. */
static uint64_t job_bytes(const vks_bake_result *r)
{
    return (uint64_t)r->frames * r->vertices * 24;
}

/* Progress, and the run's exit code, after job j; w (may be NULL): the worker whose job the
 * pool has finished writing. */
static void account(bake_run *run, uint32_t j, bake_worker *w)
{
    pthread_mutex_lock(&run->lock);
    run->progress.jobs_done++;
    if (run->res[j].done == 1)
        run->progress.frames_done += run->res[j].frames;
    if (run->res[j].done < 0)
        run->exit_code = vks_cli_worse_exit(run->exit_code, run->res[j].exit_code);
    vks_bake_progress_update(&run->progress, "", 0);
    if (w) {
        w->pending--;
        w->pending_bytes -= job_bytes(&run->res[j]);
        pthread_cond_broadcast(&run->written);
    }
    pthread_mutex_unlock(&run->lock);
}

/* A slot's memory: the job's frames, its inputs, its lock and itself. */
static void slot_free(job_slot *s)
{
    vks_bake_frames_free(&s->fr);
    vks_bake_loaded_free(&s->l);
    pthread_mutex_destroy(&s->mu);
    free(s);
}

/* Decides what job j must redo, reads it and makes its frames' arrays. Returns the slot when
 * it is to be deformed and written; NULL when it is finished already (up to date, or failed). */
static job_slot *prepare(bake_run *run, uint32_t j)
{
    const vks_bake_job *job = &run->m->jobs[j];
    vks_bake_result *res = &run->res[j];
    double t0 = vks_bake_now();
    res->files = cJSON_CreateArray();
    uint32_t todo = job->outputs;
    if (!run->force) {
        uint32_t fresh = vks_bake_up_to_date(job, run->out, res->files);
        todo &= ~fresh;
        for (int k = 0; k < VKS_BAKE_OUT_KINDS; k++)
            res->outputs_skipped += (fresh >> k) & 1u;
    }
    if (!todo && !job->contact_sheet) {
        res->done = 2;
        res->seconds = vks_bake_now() - t0;
        return NULL;
    }
    job_slot *s = calloc(1, sizeof *s);
    if (!s) {
        fprintf(stderr, "vkskin: %s: out of memory\n", job->where);
        res->exit_code = VKS_EXIT_RUNTIME;
        res->done = -1;
        return NULL;
    }
    pthread_mutex_init(&s->mu, NULL);
    s->j = j;
    s->t0 = t0;
    s->only = *job;
    s->only.outputs = todo;
    int ok = vks_bake_load(job, &s->l);
    if (ok && job->contact_sheet) /* refused before any work, not found while writing */
        ok = vks_bake_sheet_names_check(job, &s->l);
    res->exit_code = ok ? VKS_EXIT_RUNTIME : VKS_EXIT_INPUT; /* past the inputs, a failure is the run's */
    if (ok) {
        res->frames = s->l.frames;
        res->vertices = s->l.skin->vertex_count;
        res->lost_vertices[0] = s->l.skin->weights.truncated;
        res->lost_largest[0] = s->l.skin->weights.truncated_max_weight;
        /* refused before its frames are made: the whole job is held in memory at once */
        uint64_t need = vks_bake_job_memory(&s->only, &s->l, run->engine);
        if (need > run->max_memory) {
            fprintf(stderr,
                    "vkskin: %s: %s: baking %u frames of %u vertices takes about %llu MB of memory, over the "
                    "budget of %llu MB (--max-memory-mb N; or split its clips, lower its fps or range)\n",
                    run->m->path, job->where, s->l.frames, s->l.skin->vertex_count,
                    (unsigned long long)((need + (1u << 20) - 1) >> 20), (unsigned long long)(run->max_memory >> 20));
            ok = 0;
        }
        /* and so is a texture the engine could not load: the manifest names the way out */
        if (ok && !vks_bake_limits_check(&s->only, &s->l, run->m->path)) {
            res->exit_code = VKS_EXIT_INPUT;
            ok = 0;
        }
    }
    if (ok)
        ok = vks_bake_frames_alloc(&s->only, &s->l, &s->fr);
    res->read_seconds = vks_bake_now() - t0;
    if (!ok) {
        slot_free(s);
        res->done = -1;
        res->seconds = vks_bake_now() - t0;
        return NULL;
    }
    return s;
}

/* The job's last output is written (or it had none to write): its kinds' files and bytes
 * merged in kind order, so the report reads as when one thread wrote them; its memory freed. */
static void job_written(job_slot *s)
{
    bake_run *run = s->w->run;
    vks_bake_result *res = &run->res[s->j];
    int ok = s->ok;
    for (int k = 0; k < VKS_BAKE_OUT_KINDS; k++) {
        if (!(s->only.outputs & (1u << k)) || !s->ok)
            continue;
        ok = ok && s->part_ok[k];
        vks_bake_result *p = &s->parts[k];
        for (cJSON *it = p->files ? p->files->child : NULL; it;) {
            cJSON *next = it->next;
            cJSON_AddItemToArray(res->files, cJSON_DetachItemViaPointer(p->files, it));
            it = next;
        }
        cJSON_Delete(p->files);
        res->bytes += p->bytes;
        res->outputs_written += p->outputs_written;
        if (p->lost_vertices[1]) { /* the bone atlas's mesh (write_atlas) */
            res->lost_vertices[1] = p->lost_vertices[1];
            res->lost_largest[1] = p->lost_largest[1];
        }
    }
    int done = ok ? (s->only.outputs ? 1 : 2) : -1;
    bake_worker *w = s->w;
    uint32_t j = s->j;
    double t0 = s->t0;
    slot_free(s);
    res->done = done;
    res->seconds = vks_bake_now() - t0;
    account(run, j, w);
}

/* A pool task: one output kind of a job, the VAT kinds after the job's rest mesh (the first
 * of them to run writes it; the others wait on the slot's lock, held by a running task), and
 * every kind after a layered job's root motion CSV (the same way). */
static void write_kind_task(void *arg)
{
    kind_task *t = arg;
    job_slot *s = t->s;
    bake_run *run = s->w->run;
    const vks_bake_job *job = &run->m->jobs[s->j];
    int ok = 1;
    s->parts[t->k].files = cJSON_CreateArray();
    if ((1u << t->k) & VKS_BAKE_OUT_VAT_KINDS) {
        pthread_mutex_lock(&s->mu);
        if (!s->mesh)
            s->mesh = vks_bake_write_rest_mesh(job, &s->l, run->out) ? 1 : -1;
        ok = s->mesh > 0;
        pthread_mutex_unlock(&s->mu);
    }
    if (ok && vks_bake_root_motion_of(job)) { /* every kind's sidecar lists it: the first task writes it */
        pthread_mutex_lock(&s->mu);
        if (!s->motion)
            s->motion = vks_bake_write_root_motion(job, &s->l, run->out) ? 1 : -1;
        ok = s->motion > 0;
        pthread_mutex_unlock(&s->mu);
    }
    s->part_ok[t->k] =
        ok && vks_bake_write_kind(job, &s->l, &s->fr, run->out, t->k, run->engine, run->pool, &s->parts[t->k]);
    pthread_mutex_lock(&s->mu);
    int last = --s->tasks_left == 0;
    pthread_mutex_unlock(&s->mu);
    if (last)
        job_written(s);
}

/* What an output kind costs per vertex-frame, relative: each kind of the largest job baked
 * alone (BENCHMARKS.md "Per job, per stage": OpenEXR float and half 38 and 39 ms, PNG 150,
 * atlas under 5, PC2 and raw 22, glTF morph 64). Only the order of the tasks follows it. */
static const uint16_t kind_cost[VKS_BAKE_OUT_KINDS] = {38, 39, 150, 5, 22, 22, 64};

/* A deformed job (ok: its deformation succeeded) made ready for the pool: its tasks, one per
 * output kind, appended to out (n: how many are there); a job with nothing to write is
 * finished here. The slot is the pool's once its tasks are queued (queue_tasks). */
static void ready_tasks(job_slot *s, int ok, kind_task **out, uint64_t *cost, uint32_t *n)
{
    bake_run *run = s->w->run;
    /* no output of an inf or a NaN: checked once, before any kind is written */
    s->ok = ok = ok && vks_bake_frames_finite(&run->m->jobs[s->j], &s->l, &s->fr, s->only.outputs);
    if (ok && (s->only.outputs & VKS_BAKE_OUT_VAT_KINDS)) { /* once for the job's VAT kinds */
        vks_vat_bounds(s->fr.positions, (size_t)s->l.frames * s->l.skin->vertex_count, s->fr.bounds_min,
                       s->fr.bounds_max);
        s->fr.has_bounds = 1;
    }
    uint32_t kinds = ok ? s->only.outputs : 0, count = 0;
    for (int k = 0; k < VKS_BAKE_OUT_KINDS; k++)
        count += (kinds >> k) & 1u;
    s->tasks_left = count; /* all counted before the first task can finish */
    pthread_mutex_lock(&run->lock);
    s->w->pending++;
    s->w->pending_bytes += job_bytes(&run->res[s->j]);
    pthread_mutex_unlock(&run->lock);
    if (!count) {
        job_written(s);
        return;
    }
    uint64_t vertex_frames = (uint64_t)s->l.frames * s->l.skin->vertex_count;
    for (int k = 0; k < VKS_BAKE_OUT_KINDS; k++)
        if (kinds & (1u << k)) {
            s->tasks[k] = (kind_task){s, k};
            out[*n] = &s->tasks[k];
            cost[(*n)++] = vertex_frames * kind_cost[k];
        }
}

/* The tasks to the pool, the costliest first (longest processing time first: the tasks that
 * start last, when threads fall idle, are short ones, and a group ends soon after its last
 * start). Equal costs keep their order. A slot may be freed once its last task is queued:
 * only the pointers are passed on. */
static void queue_tasks(bake_run *run, kind_task **t, uint64_t *cost, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) /* insertion sort, stable: a few tasks per job */
        for (uint32_t j = i; j > 0 && cost[j] > cost[j - 1]; j--) {
            uint64_t c = cost[j];
            cost[j] = cost[j - 1], cost[j - 1] = c;
            kind_task *x = t[j];
            t[j] = t[j - 1], t[j - 1] = x;
        }
    for (uint32_t i = 0; i < n; i++)
        vks_work_pool_run(run->pool, write_kind_task, t[i]);
}

/* One job, deformed on the CPU or needing no vertices, to the pool. */
static void hand_to_pool(job_slot *s, int ok)
{
    kind_task *t[VKS_BAKE_OUT_KINDS];
    uint64_t cost[VKS_BAKE_OUT_KINDS];
    uint32_t n = 0;
    bake_run *run = s->w->run; /* s is gone once ready_tasks finishes a job with nothing to write */
    ready_tasks(s, ok, t, cost, &n);
    queue_tasks(run, t, cost, n);
}

/* Waits until the worker's jobs still being written are at most `most`, or their frames at
 * most `bytes`: the group it has just handed over may be written while it reads and deforms
 * the next, no more (memory). */
static void wait_written(bake_worker *w, uint32_t most, uint64_t bytes)
{
    bake_run *run = w->run;
    pthread_mutex_lock(&run->lock);
    while (w->pending > most && w->pending_bytes > bytes)
        pthread_cond_wait(&run->written, &run->lock);
    pthread_mutex_unlock(&run->lock);
}

/* A deformation of the run ran from d0 to d1 (vks_bake_now): the stages' first and last. */
static void stage_deform(bake_run *run, double d0, double d1)
{
    pthread_mutex_lock(&run->lock);
    d0 -= run->progress.start, d1 -= run->progress.start;
    if (run->stages.first_deform < 0 || d0 < run->stages.first_deform)
        run->stages.first_deform = d0;
    if (d1 > run->stages.last_deform_end)
        run->stages.last_deform_end = d1;
    pthread_mutex_unlock(&run->lock);
}

/* Waits until the run's devices are open; 1 when they are, 0 when one could not be. */
static int devices_ready(bake_run *run)
{
    pthread_mutex_lock(&run->lock);
    while (!run->devs_open)
        pthread_cond_wait(&run->opened, &run->lock);
    int ok = run->devs_open > 0;
    pthread_mutex_unlock(&run->lock);
    return ok;
}

/* A read job not to be deformed (no device): its memory freed, nothing written. */
static void drop(job_slot *s)
{
    s->w->run->res[s->j].done = -1;
    slot_free(s);
}

/* The GPU's group: every job's frames deformed by one crowd in one submission (the worker's
 * context is taken for it, and for the contact sheets), then each job handed to the pool. */
static void flush_group(bake_worker *w, job_slot **g, uint32_t n)
{
    if (!n)
        return;
    bake_run *run = w->run;
    if (!devices_ready(run)) { /* the run ends with the device's exit code: nothing written */
        for (uint32_t i = 0; i < n; i++)
            drop(g[i]);
        return;
    }
    const vks_bake_job *jobs[GROUP_MAX_JOBS];
    const vks_bake_loaded *ls[GROUP_MAX_JOBS];
    vks_bake_frames *frs[GROUP_MAX_JOBS];
    for (uint32_t i = 0; i < n; i++)
        jobs[i] = &g[i]->only, ls[i] = &g[i]->l, frs[i] = &g[i]->fr;
    double d0 = vks_bake_now();
    pthread_mutex_lock(&w->dev->lock);
    int ok = vks_bake_deform_gpu_group(jobs, ls, n, w->dev->gpu, run->pool, frs);
    int sheet_ok[GROUP_MAX_JOBS];
    for (uint32_t i = 0; i < n; i++)
        sheet_ok[i] = !ok || !jobs[i]->contact_sheet ||
                      vks_bake_contact_sheets(&run->m->jobs[g[i]->j], ls[i], frs[i], w->dev->gpu, run->out,
                                              &run->res[g[i]->j]);
    double busy = vks_bake_now() - d0;
    w->dev->jobs += n, w->dev->groups++, w->dev->busy_s += busy;
    pthread_mutex_unlock(&w->dev->lock);
    stage_deform(run, d0, d0 + busy);
    double share = busy / n;
    kind_task *t[GROUP_MAX_JOBS * VKS_BAKE_OUT_KINDS];
    uint64_t cost[GROUP_MAX_JOBS * VKS_BAKE_OUT_KINDS];
    uint32_t tasks = 0;
    for (uint32_t i = 0; i < n; i++) {
        run->res[g[i]->j].deform_seconds = share;
        ready_tasks(g[i], ok && sheet_ok[i], t, cost, &tasks);
    }
    queue_tasks(run, t, cost, tasks); /* the group's tasks together: its costliest first */
    wait_written(w, n, 0);
}

/* The job a worker takes next (under run->lock): its device's dealt job, else the queue's next,
 * else a dealt job no worker of its device will take; run->m->job_count when none is left. */
static uint32_t take_job(bake_run *run, const bake_worker *w)
{
    uint32_t d = w->dev ? (uint32_t)(w->dev - run->devs) : 0, j = run->m->job_count;
    if (w->dev && run->dealt[d] != UINT32_MAX) {
        j = run->dealt[d];
        run->dealt[d] = UINT32_MAX;
        return j;
    }
    j = run->next;
    while (j < run->m->job_count && !run->mine[j])
        j++;
    run->next = j + 1;
    for (uint32_t e = 0; j >= run->m->job_count && e < run->dev_count; e++)
        if (run->undealt[e] && run->dealt[e] != UINT32_MAX)
            j = run->dealt[e], run->dealt[e] = UINT32_MAX;
    return j;
}

/* Deals device d its first job (the d-th of the run's, while there are jobs) in a split; the
 * queue then starts after them. */
static void deal_first_jobs(bake_run *run)
{
    uint32_t d = 0, j = 0;
    for (uint32_t e = 0; e < VKS_CLI_MAX_DEVICES; e++)
        run->dealt[e] = UINT32_MAX;
    run->group_max = GROUP_MAX_JOBS;
    if (run->dev_count < 2)
        return;
    uint32_t share = (run->progress.jobs + run->dev_count - 1) / run->dev_count;
    run->group_max = share < GROUP_MAX_JOBS ? share : GROUP_MAX_JOBS;
    for (; j < run->m->job_count && d < run->dev_count; j++)
        if (run->mine[j])
            run->dealt[d++] = j;
    run->next = j;
}

/* One read of a wave (vks_work_pool_share): job js[i] prepared into slots[i]. */
typedef struct wave {
    bake_run *run;
    const uint32_t *js;
    job_slot **slots;
} wave;

static void prepare_one(void *arg, uint32_t i)
{
    wave *v = arg;
    v->slots[i] = prepare(v->run, v->js[i]);
}

/* Jobs a GPU worker reads at once, on the pool's idle threads too (a group's jobs are read in
 * the time of one, while the device opens): at most a group, and at most its share of the
 * run's jobs, so that every job in flight (--jobs) gets some; the CPU engines read one ahead
 * of the ones written. */
static uint32_t wave_size(const bake_run *run)
{
    if (run->engine != VKS_BAKE_GPU)
        return 1;
    uint32_t n = vks_work_pool_threads(run->pool) + 1;
    uint32_t share = (run->progress.jobs + run->in_flight - 1) / (run->in_flight ? run->in_flight : 1);
    n = n < run->group_max ? n : run->group_max;
    n = n < share ? n : share;
    return n ? n : 1;
}

static void *worker(void *arg)
{
    bake_worker *w = arg;
    bake_run *run = w->run;
    job_slot *group[GROUP_MAX_JOBS];
    uint32_t n = 0, js[GROUP_MAX_JOBS];
    uint64_t bytes = 0;
    job_slot *slots[GROUP_MAX_JOBS];
    const uint32_t most = wave_size(run);
    for (;;) {
        uint32_t count = 0;
        pthread_mutex_lock(&run->lock);
        int failed = run->devs_open < 0; /* no device: nothing more is read */
        while (!failed && count < most) {
            uint32_t j = take_job(run, w);
            if (j >= run->m->job_count)
                break;
            if (!count)
                vks_bake_progress_update(&run->progress, run->m->jobs[j].name, 0);
            js[count++] = j;
        }
        pthread_mutex_unlock(&run->lock);
        if (!count) {
            flush_group(w, group, n);
            return NULL;
        }
        wave v = {run, js, slots};
        vks_work_pool_share(run->pool, count, prepare_one, &v);
        for (uint32_t i = 0; i < count; i++) {
            job_slot *s = slots[i];
            uint32_t j = js[i];
            if (!s) {
                account(run, j, NULL);
                continue;
            }
            s->w = w;
            if (run->engine != VKS_BAKE_GPU || !vks_bake_needs_vertices(&s->only)) {
                if (run->engine == VKS_BAKE_GPU && !devices_ready(run)) { /* written only with the device */
                    drop(s);
                    continue;
                }
                double d0 = vks_bake_now();
                int ok = run->engine == VKS_BAKE_GPU || !vks_bake_needs_vertices(&s->only) ||
                         vks_bake_deform_cpu(&s->only, &s->l, run->engine == VKS_BAKE_CPU_FAST, &s->fr);
                double d1 = vks_bake_now();
                run->res[j].deform_seconds = d1 - d0;
                stage_deform(run, d0, d1);
                hand_to_pool(s, ok);
                /* the CPU engines' group: the jobs handed over whose frames fit a GPU group
                   (or the last one alone), written while the next is read and deformed */
                wait_written(w, 1, VKS_BAKE_GROUP_BYTES);
                continue;
            }
            /* the GPU takes jobs in groups whose outputs fit one crowd under the chunk size */
            uint64_t b = (uint64_t)s->l.frames * s->l.skin->vertex_count * 24;
            if (n && (bytes + b > VKS_BAKE_GROUP_BYTES || n == run->group_max)) {
                flush_group(w, group, n);
                n = 0, bytes = 0;
            }
            group[n++] = s;
            bytes += b;
        }
    }
}

/* The devices' work is done, before they are closed: what each of a split (--device all or a
 * list) took (its jobs, in how many groups, their time on it) into run->shares, and the
 * validation layer's messages counted (any: exit 5). */
static void devices_done(bake_run *run)
{
    vks_cli_shares *sh = &run->shares;
    vks_cli_shares_begin(sh, (int)run->dev_count, "jobs", "groups");
    for (int d = 0; d < sh->contexts; d++) {
        const bake_device *dev = &run->devs[d];
        vks_cli_shares_set(sh, d, vks_gpu_device(dev->gpu)->name, dev->jobs, dev->groups, dev->busy_s);
    }
    uint32_t messages = 0;
    for (uint32_t d = 0; d < run->dev_count; d++)
        messages += vks_gpu_validation_messages(run->devs[d].gpu);
    if (messages) {
        fprintf(stderr, "vkskin: the validation layer reported %u messages\n", messages);
        run->exit_code = VKS_EXIT_RUNTIME;
    }
}

/* mkdir -p */
static int make_dirs(const char *path)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n >= sizeof buf)
        return 0;
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] != '/' && buf[i] != 0)
            continue;
        char c = buf[i];
        buf[i] = 0;
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return 0;
        buf[i] = c;
    }
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int read_manifest(const char *path, int contact_sheet, vks_bake_manifest *m)
{
    memset(m, 0, sizeof *m);
    size_t size = 0;
    uint8_t *bytes = vks_cli_read_file(path, &size);
    if (!bytes)
        return VKS_EXIT_INPUT;
    int rc = vks_bake_manifest_parse(path, bytes, size, contact_sheet, m);
    free(bytes);
    return rc;
}

#define SHARD_MAX 100000u

/* Digits only: strtoul alone would take " 0", "+0" and "-0" (which it wraps to 0) too. */
static int parse_shard_number(const char *text, const char **end, unsigned long *out)
{
    if (*text < '0' || *text > '9')
        return 0;
    char *e = NULL;
    errno = 0;
    *out = strtoul(text, &e, 10);
    *end = e;
    return errno == 0;
}

static int parse_shard(const char *text, uint32_t *i, uint32_t *n)
{
    const char *end = NULL;
    unsigned long a, b;
    if (!parse_shard_number(text, &end, &a) || *end != '/')
        return 0;
    if (!parse_shard_number(end + 1, &end, &b) || *end || b < 1 || b > SHARD_MAX || a >= b)
        return 0;
    *i = (uint32_t)a;
    *n = (uint32_t)b;
    return 1;
}

/* What vkskin bake's command line says. */
typedef struct bake_args {
    const char *manifest, *out, *report, *shard, *merge;
    uint32_t shard_i, shard_n, jobs, threads;
    uint64_t max_memory_mb;
    int force, sheet, check, split;
    vks_bake_engine engine;
    vks_cli_gpu_opts gopt;
} bake_args;

static int set_shard(void *field, const vks_cli_option *o, const char *v)
{
    (void)o;
    bake_args *b = field;
    if (!parse_shard(v, &b->shard_i, &b->shard_n)) {
        fprintf(stderr, "vkskin: --shard %s: expected I/N in digits with 0 <= I < N <= %u\n", v, SHARD_MAX);
        return 0;
    }
    b->shard = v;
    return 1;
}

static int set_max_memory(void *field, const vks_cli_option *o, const char *v)
{
    uint32_t mb = 0;
    if (!vks_cli_store_u32(&mb, o, v))
        return 0;
    *(uint64_t *)field = mb;
    return 1;
}

static int set_engine(void *field, const vks_cli_option *o, const char *v)
{
    (void)v;
    *(vks_bake_engine *)field = o->lo ? VKS_BAKE_CPU_FAST : VKS_BAKE_CPU;
    return 1;
}

#define AT(field) offsetof(bake_args, field)
static const vks_cli_option bake_options[] = {
    {"--out", 0, "DIR", vks_cli_store_string, AT(out), 0, 0,
     "where outputs go (default: the manifest's \"out\", else \"bake\" beside it)", NULL},
    {"--shard", 0, "I/N", set_shard, 0, 0, 0, "bake only share I (0-based) of N, balanced by vertices x frames", NULL},
    {"--force", 0, NULL, vks_cli_store_flag, AT(force), 0, 0,
     "redo outputs even when their sidecar says they are up to date", NULL},
    {"--jobs", 0, "N", vks_cli_store_u32, AT(jobs), 1, 256,
     "jobs in flight at once (default 1, and at least one per device)",
     "each reads its jobs and deforms them (GPU: in groups), then hands them to the threads below and reads the "
     "next group while they are written"},
    {"--threads", 0, "N", vks_cli_store_u32, AT(threads), 1, 256,
     "threads that encode and write outputs, shared by every job in flight (default: one per core)",
     "each takes one output kind of one job at a time, the costliest first, and idle ones help write a VAT kind's "
     "textures and read the next group's jobs. The same bytes whatever N"},
    {"--cpu", 0, NULL, set_engine, AT(engine), 0, 0, "the CPU reference engine (double)", NULL},
    {"--cpu-fast", 0, NULL, set_engine, AT(engine), 1, 0, "the fast CPU engine", NULL},
    {"--report", 0, "FILE", vks_cli_store_string, AT(report), 0, 0, "a JSON report: per job its outputs, times and bytes",
     NULL},
    {"--contact-sheet", 0, NULL, vks_cli_store_flag, AT(sheet), 0, 0,
     "a PNG per baked clip, its frames in a grid (GPU renderer)", NULL},
    {"--split", 0, NULL, vks_cli_store_flag, AT(split), 0, 0,
     "a VAT taller than its job's max_height is spread over several textures instead of refused",
     "NAME.vat.pos.f32_part0.exr, _part1, ...; the sidecar says which frames each holds; as \"split\": true"},
    {"--max-memory-mb", 0, "N", set_max_memory, AT(max_memory_mb), 1, 1u << 24,
     "a job that would need more than N MB is refused before it is deformed (exit 5; default 4096)",
     "a job holds all its frames in memory; each job in flight holds a group being written, jobs whose frames fit "
     "64 MB or one larger job, while it deforms the next. Split its clips or lower its fps or range"},
    {"--check", 0, NULL, vks_cli_store_flag, AT(check), 0, 0,
     "bake nothing: exit 1 unless every output of every job is up to date",
     "the merge step after a sharded bake"},
    {"--merge", 0, "DIR", vks_cli_store_string, AT(merge), 0, 0,
     "with --check: the shards' reports in DIR become one --report", NULL},
    VKS_CLI_QUIET_OPTION,
};
#undef AT
static const vks_cli_group bake_group = VKS_CLI_GROUP("options", bake_options);
static const vks_cli_group *const bake_groups[] = {&bake_group, &vks_cli_gpu_options, NULL};

const vks_cli_command vks_cli_cmd_bake = {
    .name = "bake",
    .summary = "bake a manifest of characters and clips into VAT textures, bone atlases and caches",
    .synopsis = "MANIFEST.json [--out DIR] [--shard I/N] [--force] [--jobs N] [--threads N]\n"
                "[--cpu | --cpu-fast] [--report FILE.json] [--contact-sheet]\n"
                "[--max-memory-mb N] [--split] [--quiet]\n\n"
                "MANIFEST.json --check [--merge DIR] [--out DIR] [--report FILE.json]",
    .description =
        "Bakes every job of the manifest (README \"Batch baking\" has the schema): each clip's frames deformed on "
        "the GPU (one crowd instance per frame, all frames of a job in one submission) or on a CPU engine, written as "
        "VAT textures (OpenEXR float or half, 16-bit PNG) with the rest mesh, bone-matrix atlases (OpenEXR), PC2 and "
        "raw caches; each output kind with a JSON sidecar naming its clips, frames, rows, bounds and encoding. "
        "--device all or N,M,... uses several devices, one context each: the jobs are split between them (a job in "
        "flight per device at least, each device dealt one of the first jobs, groups of at most jobs/devices); the "
        "same bytes as one device.",
    .epilogue = "Outputs are written to a temporary name and renamed; a sidecar is written after its files, so a re-run "
                "skips what is complete (same manifest entry and vkskin version) and redoes the rest. Over a long bake "
                "a progress line on stderr every 2 s (a bar on a terminal; --quiet: none), then the summary.\n\nexit "
                "codes: 0 ok, 1 bad manifest or input, 2 usage, 4 no Vulkan device, 5 runtime failure",
    .groups = bake_groups,
    .run = vks_cmd_bake,
};

/* Fills b from argv; returns -1 to go on, else the exit code (--help, a usage error). */
static int parse_args(bake_args *b, int argc, char **argv)
{
    int operands = 0;
    int parsed = vks_cli_parse(&vks_cli_cmd_bake, (void *[]){b, &b->gopt}, argc, argv, &operands, NULL, NULL);
    if (parsed != VKS_CLI_GO_ON)
        return parsed;
    if (operands > 1) {
        fprintf(stderr, "vkskin: bake takes one manifest (%s and %s given)\n", argv[1], argv[2]);
        return VKS_EXIT_USAGE;
    }
    b->manifest = operands ? argv[1] : NULL;
    if (!b->manifest) {
        vks_cli_help(stderr, &vks_cli_cmd_bake);
        return VKS_EXIT_USAGE;
    }
    if (b->merge && !b->check) {
        fprintf(stderr, "vkskin: --merge goes with --check (the merge step after a sharded bake)\n");
        return VKS_EXIT_USAGE;
    }
    if (b->sheet && b->engine != VKS_BAKE_GPU) {
        fprintf(stderr, "vkskin: --contact-sheet draws with the GPU renderer: not with --cpu or --cpu-fast\n");
        return VKS_EXIT_USAGE;
    }
    vks_bake_malloc_reuse(); /* a bake to run: before any thread (the GPU's, the pool's) starts */
    return -1;
}

/* The run's devices, opened on a thread of their own (each its context, one after the other). */
typedef struct device_opener {
    bake_run *run;
    vks_cli_gpu_opts gopt;
    char ids[VKS_CLI_MAX_DEVICES][16];
    const char *single;
    pthread_t tid;
    int started; /* on tid (else it ran on the caller) */
} device_opener;

static void *open_devices(void *arg)
{
    device_opener *o = arg;
    bake_run *run = o->run;
    int rc = VKS_EXIT_OK;
    for (uint32_t d = 0; rc == VKS_EXIT_OK && d < run->dev_count; d++) {
        vks_cli_gpu_opts g = o->gopt;
        g.device = run->dev_count > 1 ? o->ids[d] : o->single;
        rc = vks_cli_gpu_open(&g, &run->devs[d].gpu);
    }
    pthread_mutex_lock(&run->lock);
    run->open_rc = rc;
    run->devs_open = rc == VKS_EXIT_OK ? 1 : -1;
    run->stages.devices_open = vks_bake_now() - run->progress.start;
    pthread_cond_broadcast(&run->opened);
    pthread_mutex_unlock(&run->lock);
    return NULL;
}

/* The GPU engine's devices (a run with jobs), their opening started: the contexts are made
 * (their pipelines compiled, 0.05-0.2 s) while the first jobs are read, and the first group
 * waits for them (devices_ready). VKS_EXIT_OK, or why the device list cannot be made. */
static int start_devices(device_opener *o)
{
    bake_run *run = o->run;
    run->devs_open = 1;
    pthread_cond_init(&run->opened, NULL);
    if (run->engine != VKS_BAKE_GPU || !run->progress.jobs)
        return VKS_EXIT_OK;
    for (uint32_t j = 0; j < run->m->job_count; j++) /* a queue family that can draw the sheets */
        o->gopt.render |= run->mine[j] && run->m->jobs[j].contact_sheet;
    int count = 0;
    int rc = vks_cli_gpu_devices(o->gopt.device, o->ids, &o->single, &count);
    for (int d = 0; rc == VKS_EXIT_OK && d < count; d++) {
        run->devs[d] = (bake_device){0};
        pthread_mutex_init(&run->devs[d].lock, NULL);
        run->dev_count++;
    }
    if (rc != VKS_EXIT_OK)
        return rc;
    run->devs_open = 0;
    o->started = vks_cli_thread_start(&o->tid, open_devices, o,
                                      "bake: the devices opened on this thread, before any job is read");
    if (!o->started)
        open_devices(o);
    return VKS_EXIT_OK;
}

/* What bake does when the pool gets fewer threads than asked (said once). */
static const char pool_fallback[] =
    "bake's encoding pool: fewer threads (none: each job encodes and writes its outputs itself)";

int vks_cmd_bake(int argc, char **argv)
{
    bake_args args = {0};
    args.shard_n = 1, args.jobs = 1;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    args.threads = cores < 1 ? 1 : cores > 64 ? 64 : (uint32_t)cores; /* --threads */
    args.max_memory_mb = VKS_BAKE_DEFAULT_MAX_MEMORY_MB;
    args.engine = VKS_BAKE_GPU;
    int parsed = parse_args(&args, argc, argv);
    if (parsed >= 0)
        return parsed;
    const char *manifest = args.manifest, *out = args.out, *report = args.report, *shard = args.shard;
    const char *merge = args.merge;
    uint32_t shard_i = args.shard_i, shard_n = args.shard_n, jobs = args.jobs, threads = args.threads;
    uint64_t max_memory_mb = args.max_memory_mb;
    int force = args.force, sheet = args.sheet, check = args.check, split = args.split;
    vks_bake_engine engine = args.engine;
    vks_cli_gpu_opts gopt = args.gopt;
    vks_bake_manifest m;
    int rc = read_manifest(manifest, sheet, &m);
    if (rc != VKS_EXIT_OK)
        return rc;
    for (uint32_t j = 0; j < m.job_count && split; j++)
        m.jobs[j].split = 1;
    for (uint32_t j = 0; j < m.job_count && engine != VKS_BAKE_GPU; j++)
        if (m.jobs[j].contact_sheet) {
            fprintf(stderr, "vkskin: %s: %s: \"contact_sheet\" needs the GPU renderer: not with --cpu or --cpu-fast\n",
                    manifest, m.jobs[j].where);
            vks_bake_manifest_free(&m);
            return VKS_EXIT_USAGE;
        }
    char *dflt = NULL;
    if (!out && !m.out) {
        size_t n = strlen(m.dir) + 8;
        dflt = malloc(n);
        if (dflt)
            snprintf(dflt, n, "%s%sbake", m.dir, m.dir[0] ? "/" : "");
    }
    const char *dir = out ? out : m.out ? m.out : dflt ? dflt : "bake";
    if ((rc = vks_bake_refuse_inputs(&m, dir, report, merge, check)) != VKS_EXIT_OK) {
        free(dflt);
        vks_bake_manifest_free(&m);
        return rc;
    }
    uint8_t *mine = calloc(m.job_count, 1);
    vks_bake_result *res = calloc(m.job_count, sizeof *res);
    if (!mine || !res || !make_dirs(dir)) {
        fprintf(stderr, "vkskin: %s: %s\n", dir, mine && res ? "cannot make the output folder" : "out of memory");
        rc = VKS_EXIT_RUNTIME;
        goto done;
    }
    if (check) {
        rc = vks_bake_check_outputs(&m, dir, merge, report);
        goto done;
    }
    if (shard_n > 1)
        vks_bake_shard(&m, shard_i, shard_n, mine);
    else
        memset(mine, 1, m.job_count);

    bake_run run = {0};
    double seconds = 0;
    run.m = &m;
    run.mine = mine;
    run.res = res;
    run.out = dir;
    run.force = force;
    run.max_memory = max_memory_mb << 20;
    run.engine = engine;
    pthread_mutex_init(&run.lock, NULL);
    pthread_cond_init(&run.written, NULL);
    run.progress.tty = isatty(2);
    run.progress.start = vks_bake_now();
    run.stages = (vks_bake_stages){-1, -1, -1};
    for (uint32_t j = 0; j < m.job_count; j++)
        run.progress.jobs += mine[j];
    bake_device devs[VKS_CLI_MAX_DEVICES];
    device_opener opener = {.run = &run, .gopt = gopt};
    run.devs = devs;
    rc = start_devices(&opener);
    if (rc != VKS_EXIT_OK)
        goto close_run;
    /* at least one job in flight per device, each worker on device (its number mod devices) */
    if (jobs > run.progress.jobs)
        jobs = run.progress.jobs ? run.progress.jobs : 1;
    if (jobs < run.dev_count)
        jobs = run.dev_count;
    run.in_flight = jobs;
    run.pool = vks_work_pool_start(threads, pool_fallback);
    bake_worker workers[256];
    pthread_t tids[256];
    uint32_t started = 0;
    for (uint32_t t = 0; t < jobs; t++)
        workers[t] = (bake_worker){.run = &run, .dev = run.dev_count ? &run.devs[t % run.dev_count] : NULL};
    deal_first_jobs(&run);
    uint8_t live[VKS_CLI_MAX_DEVICES] = {1}; /* the first worker runs on this thread, device 0 */
    for (uint32_t t = 1; t < jobs; t++)
        if (vks_cli_thread_start(&tids[started], worker, &workers[t], "bake --jobs: fewer jobs in flight (none: one at a time)"))
            started++, live[run.dev_count ? t % run.dev_count : 0] = 1;
    pthread_mutex_lock(&run.lock); /* a device without a job in flight: its dealt job goes to any */
    for (uint32_t d = 0; d < run.dev_count; d++)
        run.undealt[d] = !live[d];
    pthread_mutex_unlock(&run.lock);
    worker(&workers[0]);
    for (uint32_t t = 0; t < started; t++)
        pthread_join(tids[t], NULL);
    vks_work_pool_finish(run.pool); /* every job's outputs written */
    if (opener.started)
        pthread_join(opener.tid, NULL);
    if (run.devs_open < 0) { /* said by the opener; nothing was written */
        rc = run.open_rc;
        goto close_run;
    }
    seconds = vks_bake_now() - run.progress.start;
    vks_bake_progress_update(&run.progress, "", 1);
    devices_done(&run);
close_run:
    for (uint32_t d = 0; d < run.dev_count; d++) {
        vks_gpu_destroy(run.devs[d].gpu);
        pthread_mutex_destroy(&run.devs[d].lock);
    }
    pthread_cond_destroy(&run.written);
    pthread_cond_destroy(&run.opened);
    pthread_mutex_destroy(&run.lock);
    if (rc != VKS_EXIT_OK)
        goto done;
    vks_bake_summary(stderr, &m, mine, res, seconds);
    vks_cli_shares_print(&run.shares, "bake"); /* what each device of a split took */
    rc = run.exit_code;
    if (report) {
        char sh[32];
        snprintf(sh, sizeof sh, "%u/%u", shard_i, shard_n);
        rc = vks_cli_worse_exit(rc, vks_bake_report(report, &m, mine, res, vks_bake_engine_name(engine),
                                                    shard ? sh : "0/1", seconds, &run.shares, &run.stages));
    }
done:
    for (uint32_t j = 0; res && j < m.job_count; j++)
        cJSON_Delete(res[j].files);
    free(res);
    free(mine);
    free(dflt);
    vks_bake_manifest_free(&m);
    return rc;
}
