/* vks_bake_run (bake_job.h): a manifest's jobs read, deformed and written by a pipeline of
 * threads. Each job in flight (o.jobs_in_flight, a worker) reads its jobs, deforms them on its
 * device (the GPU in groups of jobs, one crowd submission each; or a CPU engine, one job at a
 * time) and hands each job's output kinds to the pool of writers (o.threads), the costliest
 * first, while it reads and deforms the next. The same bytes whatever the threads and devices:
 * each output kind's files are its own, and a job's report merges its kinds in order. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "bake/job_internal.h"
#include "core/thread_start.h"
#include "vkskin/vat.h"

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
    vks__work_pool *pool;  /* encodes and writes the outputs (--threads) */
    pthread_mutex_t lock; /* the next job, progress, the exit code and the workers' pending counts */
    pthread_cond_t written; /* a job's outputs are all written */
    uint32_t next;
    /* a split (several devices) deals each device its first job, so that no device idles while
       another's job in flight takes every job into its groups: dealt[d] is device d's until it
       takes it (UINT32_MAX: taken, or none); undealt[d]: no job in flight runs on device d (its
       threads could not be had), so any job in flight may take its job */
    uint32_t dealt[VKS_BAKE_MAX_DEVICES];
    uint8_t undealt[VKS_BAKE_MAX_DEVICES];
    uint32_t group_max;   /* jobs in a GPU group: at most the jobs over the devices (rounded up) */
    uint32_t in_flight;   /* jobs in flight (--jobs, at least one per device) */
    vks_bake_progress_info progress; /* under lock; handed to on_progress */
    double start;           /* vks__bake_now() at the run's start */
    const vks_bake_options *opt;
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
#define MAX_IN_FLIGHT 256u /* jobs in flight at most (o.jobs_in_flight; the program's --jobs limit) */

/* A read job's frames in memory (positions and normals), as the GPU's groups count them. */
static uint64_t job_bytes(const vks_bake_result *r)
{
    return (uint64_t)r->frames * r->vertices * 24;
}

/* The host's progress callback (under run->lock, so one call at a time). */
static void say_progress(bake_run *run, const char *current, int final)
{
    if (!run->opt->progress)
        return;
    run->progress.current = current;
    run->progress.final = final;
    run->progress.seconds = vks__bake_now() - run->start;
    run->opt->progress(run->opt->progress_user, &run->progress);
}

/* Progress after job j; w (may be NULL): the worker whose job the
 * pool has finished writing. */
static void account(bake_run *run, uint32_t j, bake_worker *w)
{
    pthread_mutex_lock(&run->lock);
    run->progress.jobs_done++;
    if (run->res[j].done == 1)
        run->progress.frames_done += run->res[j].frames;
    say_progress(run, "", 0);
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
    vks__bake_frames_free(&s->fr);
    vks__bake_loaded_free(&s->l);
    pthread_mutex_destroy(&s->mu);
    free(s);
}

/* Decides what job j must redo, reads it and makes its frames' arrays. Returns the slot when
 * it is to be deformed and written; NULL when it is finished already (up to date, or failed). */
static job_slot *prepare(bake_run *run, uint32_t j)
{
    const vks_bake_job *job = &run->m->jobs[j];
    vks_bake_result *res = &run->res[j];
    double t0 = vks__bake_now();
    res->files = cJSON_CreateArray();
    uint32_t todo = job->outputs;
    if (!run->force) {
        uint32_t fresh = vks__bake_up_to_date(job, run->out, res->files);
        todo &= ~fresh;
        for (int k = 0; k < VKS_BAKE_OUT_KINDS; k++)
            res->outputs_skipped += (fresh >> k) & 1u;
    }
    if (!todo && !job->contact_sheet) {
        res->done = 2;
        res->seconds = vks__bake_now() - t0;
        return NULL;
    }
    job_slot *s = calloc(1, sizeof *s);
    if (!s) {
        vks__log(vks__bake_log(job->host), VKS_LOG_ERROR, "%s: out of memory", job->where);
        res->exit_code = VKS__BAKE_EXIT_RUNTIME;
        res->done = -1;
        return NULL;
    }
    pthread_mutex_init(&s->mu, NULL);
    s->j = j;
    s->t0 = t0;
    s->only = *job;
    s->only.outputs = todo;
    int ok = vks__bake_load(job, &s->l);
    if (ok && job->contact_sheet) /* refused before any work, not found while writing */
        ok = vks__bake_sheet_names_check(job, &s->l);
    res->exit_code = ok ? VKS__BAKE_EXIT_RUNTIME : VKS__BAKE_EXIT_INPUT; /* past the inputs, a failure is the run's */
    if (ok) {
        res->frames = s->l.frames;
        res->vertices = s->l.skin->vertex_count;
        res->lost_vertices[0] = s->l.skin->weights.truncated;
        res->lost_largest[0] = s->l.skin->weights.truncated_max_weight;
        /* refused before its frames are made: the whole job is held in memory at once */
        uint64_t need = vks__bake_job_memory(&s->only, &s->l, run->engine);
        if (need > run->max_memory) {
            vks__log(vks__bake_log(job->host), VKS_LOG_ERROR,
                     "%s: %s: baking %u frames of %u vertices takes about %llu MB of memory, over the "
                     "budget of %llu MB (--max-memory-mb N; or split its clips, lower its fps or range)",
                    run->m->path, job->where, s->l.frames, s->l.skin->vertex_count,
                    (unsigned long long)((need + (1u << 20) - 1) >> 20), (unsigned long long)(run->max_memory >> 20));
            ok = 0;
        }
        /* and so is a texture the engine could not load: the manifest names the way out */
        if (ok && !vks__bake_limits_check(&s->only, &s->l, run->m->path)) {
            res->exit_code = VKS__BAKE_EXIT_INPUT;
            ok = 0;
        }
    }
    if (ok)
        ok = vks__bake_frames_alloc(&s->only, &s->l, &s->fr);
    res->read_seconds = vks__bake_now() - t0;
    if (!ok) {
        slot_free(s);
        res->done = -1;
        res->seconds = vks__bake_now() - t0;
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
    res->seconds = vks__bake_now() - t0;
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
            s->mesh = vks__bake_write_rest_mesh(job, &s->l, run->out) ? 1 : -1;
        ok = s->mesh > 0;
        pthread_mutex_unlock(&s->mu);
    }
    if (ok && vks__bake_root_motion_of(job)) { /* every kind's sidecar lists it: the first task writes it */
        pthread_mutex_lock(&s->mu);
        if (!s->motion)
            s->motion = vks__bake_write_root_motion(job, &s->l, run->out) ? 1 : -1;
        ok = s->motion > 0;
        pthread_mutex_unlock(&s->mu);
    }
    s->part_ok[t->k] =
        ok && vks__bake_write_kind(job, &s->l, &s->fr, run->out, t->k, run->engine, run->pool, &s->parts[t->k]);
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
    s->ok = ok = ok && vks__bake_frames_finite(&run->m->jobs[s->j], &s->l, &s->fr, s->only.outputs);
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
        vks__work_pool_run(run->pool, write_kind_task, t[i]);
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
    d0 -= run->start, d1 -= run->start;
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
    double d0 = vks__bake_now();
    pthread_mutex_lock(&w->dev->lock);
    int ok = vks__bake_deform_gpu_group(jobs, ls, n, w->dev->gpu, run->pool, frs);
    int sheet_ok[GROUP_MAX_JOBS];
    for (uint32_t i = 0; i < n; i++)
        sheet_ok[i] = !ok || !jobs[i]->contact_sheet ||
                      vks__bake_contact_sheets(&run->m->jobs[g[i]->j], ls[i], frs[i], w->dev->gpu, run->out,
                                              &run->res[g[i]->j]);
    double busy = vks__bake_now() - d0;
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
    for (uint32_t e = 0; e < VKS_BAKE_MAX_DEVICES; e++)
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

/* One read of a wave (vks__work_pool_share): job js[i] prepared into slots[i]. */
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
    uint32_t n = vks__work_pool_threads(run->pool) + 1;
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
                say_progress(run, run->m->jobs[j].name, 0);
            js[count++] = j;
        }
        pthread_mutex_unlock(&run->lock);
        if (!count) {
            flush_group(w, group, n);
            return NULL;
        }
        wave v = {run, js, slots};
        vks__work_pool_share(run->pool, count, prepare_one, &v);
        for (uint32_t i = 0; i < count; i++) {
            job_slot *s = slots[i];
            uint32_t j = js[i];
            if (!s) {
                account(run, j, NULL);
                continue;
            }
            s->w = w;
            if (run->engine != VKS_BAKE_GPU || !vks__bake_needs_vertices(&s->only)) {
                if (run->engine == VKS_BAKE_GPU && !devices_ready(run)) { /* written only with the device */
                    drop(s);
                    continue;
                }
                double d0 = vks__bake_now();
                int ok = run->engine == VKS_BAKE_GPU || !vks__bake_needs_vertices(&s->only) ||
                         vks__bake_deform_cpu(&s->only, &s->l, run->engine == VKS_BAKE_CPU_FAST, &s->fr);
                double d1 = vks__bake_now();
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
/* The devices' work is done, before they are closed: what each took (its jobs, in how many
 * groups, their time on it) and the validation layer's messages, into the summary. */
static void devices_done(bake_run *run, vks_bake_summary *sum)
{
    sum->device_count = run->dev_count;
    for (uint32_t d = 0; d < run->dev_count; d++) {
        const bake_device *dev = &run->devs[d];
        vks_bake_device_share *sh = &sum->devices[d];
        snprintf(sh->device, sizeof sh->device, "%s", vks_gpu_device(dev->gpu)->name);
        sh->jobs = dev->jobs, sh->groups = dev->groups, sh->busy_seconds = dev->busy_s;
        sum->validation_messages += vks_gpu_validation_messages(dev->gpu);
    }
}

/* The run's devices, opened on a thread of their own (each its context, one after the other). */
typedef struct device_opener {
    bake_run *run;
    int render; /* a queue family that can draw the contact sheets */
    pthread_t tid;
    int started; /* on tid (else it ran on the caller) */
} device_opener;

/* One context: the host's opener, or the best device with the run's logger. */
static int open_device(const vks_bake_options *o, uint32_t d, int render, vks_gpu **gpu)
{
    if (o->open_device)
        return o->open_device(o->device_user, d, render, gpu);
    vks_gpu_options go = {0};
    go.will_render = render;
    go.logger = o->logger;
    vks_error err = {0};
    vks_result r = vks_gpu_create(&go, gpu, &err);
    if (r != VKS_OK)
        vks__log(&o->logger, VKS_LOG_ERROR, "no Vulkan device: %s", err.msg);
    return r == VKS_OK ? 0 : (int)r;
}

static void *open_devices(void *arg)
{
    device_opener *o = arg;
    bake_run *run = o->run;
    int rc = 0;
    for (uint32_t d = 0; rc == 0 && d < run->dev_count; d++)
        rc = open_device(run->opt, d, o->render, &run->devs[d].gpu);
    pthread_mutex_lock(&run->lock);
    run->open_rc = rc;
    run->devs_open = rc == 0 ? 1 : -1;
    run->stages.devices_open = vks__bake_now() - run->start;
    pthread_cond_broadcast(&run->opened);
    pthread_mutex_unlock(&run->lock);
    return NULL;
}

/* The GPU engine's devices (a run with jobs), their opening started: the contexts are made
 * (their pipelines compiled, 0.05-0.2 s) while the first jobs are read, and the first group
 * waits for them (devices_ready). */
static void start_devices(device_opener *o)
{
    bake_run *run = o->run;
    run->devs_open = 1;
    pthread_cond_init(&run->opened, NULL);
    if (run->engine != VKS_BAKE_GPU || !run->progress.jobs)
        return;
    for (uint32_t j = 0; j < run->m->job_count; j++)
        o->render |= run->mine[j] && run->m->jobs[j].contact_sheet;
    uint32_t count = run->opt->device_count ? run->opt->device_count : 1;
    if (count > VKS_BAKE_MAX_DEVICES)
        count = VKS_BAKE_MAX_DEVICES;
    for (uint32_t d = 0; d < count; d++) {
        run->devs[d] = (bake_device){0};
        pthread_mutex_init(&run->devs[d].lock, NULL);
        run->dev_count++;
    }
    run->devs_open = 0;
    o->started = vks__thread_start(&o->tid, open_devices, o,
                                   "bake: the devices opened on this thread, before any job is read") == 0;
    if (!o->started)
        open_devices(o);
}

/* What bake does when the pool gets fewer threads than asked (said once). */
static const char pool_fallback[] =
    "bake's encoding pool: fewer threads (none: each job encodes and writes its outputs itself)";

/* The workers (jobs in flight, at least one per device, each on device its number mod the
 * devices) run until every job is taken, the first on this thread; then the pool finishes
 * writing. */
static void run_workers(bake_run *run, uint32_t jobs, uint32_t threads)
{
    if (jobs > run->progress.jobs)
        jobs = run->progress.jobs ? run->progress.jobs : 1;
    if (jobs > MAX_IN_FLIGHT)
        jobs = MAX_IN_FLIGHT;
    if (jobs < run->dev_count)
        jobs = run->dev_count;
    run->in_flight = jobs;
    run->pool = vks__work_pool_start(threads, pool_fallback);
    bake_worker workers[MAX_IN_FLIGHT];
    pthread_t tids[MAX_IN_FLIGHT];
    uint32_t started = 0;
    for (uint32_t t = 0; t < jobs; t++)
        workers[t] = (bake_worker){.run = run, .dev = run->dev_count ? &run->devs[t % run->dev_count] : NULL};
    deal_first_jobs(run);
    uint8_t live[VKS_BAKE_MAX_DEVICES] = {1}; /* the first worker runs on this thread, device 0 */
    for (uint32_t t = 1; t < jobs; t++)
        if (vks__thread_start(&tids[started], worker, &workers[t],
                              "bake --jobs: fewer jobs in flight (none: one at a time)") == 0)
            started++, live[run->dev_count ? t % run->dev_count : 0] = 1;
    pthread_mutex_lock(&run->lock); /* a device without a job in flight: its dealt job goes to any */
    for (uint32_t d = 0; d < run->dev_count; d++)
        run->undealt[d] = !live[d];
    pthread_mutex_unlock(&run->lock);
    worker(&workers[0]);
    for (uint32_t t = 0; t < started; t++)
        pthread_join(tids[t], NULL);
    vks__work_pool_finish(run->pool); /* every job's outputs written */
}

vks_result vks__bake_run_jobs(vks_bake_manifest *m, const vks_bake_options *o, const char *dir,
                              vks_bake_summary *sum, vks_error *err)
{
    bake_run run = {0};
    run.m = m;
    run.mine = m->mine;
    run.res = m->res;
    run.out = dir;
    run.force = o->force;
    run.max_memory = o->max_memory_bytes ? o->max_memory_bytes : VKS_BAKE_DEFAULT_MAX_MEMORY_MB << 20;
    run.engine = o->engine;
    run.opt = o;
    pthread_mutex_init(&run.lock, NULL);
    pthread_cond_init(&run.written, NULL);
    run.start = vks__bake_now();
    run.stages = (vks_bake_stages){-1, -1, -1};
    for (uint32_t j = 0; j < m->job_count; j++)
        run.progress.jobs += m->mine[j];
    bake_device devs[VKS_BAKE_MAX_DEVICES];
    device_opener opener = {.run = &run};
    run.devs = devs;
    start_devices(&opener);
    run_workers(&run, o->jobs_in_flight ? o->jobs_in_flight : 1, o->threads ? o->threads : 1);
    if (opener.started)
        pthread_join(opener.tid, NULL);
    vks_result r = VKS_OK;
    if (run.devs_open < 0) { /* said by the opener; nothing was written */
        sum->open_failure = run.open_rc;
        r = vks_error_set(err, VKS_ERR_NO_DEVICE, VKS_NO_OFFSET, NULL, "a device could not be opened (said)");
    } else {
        sum->seconds = vks__bake_now() - run.start;
        pthread_mutex_lock(&run.lock);
        say_progress(&run, "", 1);
        pthread_mutex_unlock(&run.lock);
        devices_done(&run, sum);
        sum->stages = run.stages;
    }
    for (uint32_t d = 0; d < run.dev_count; d++) {
        vks_gpu_destroy(run.devs[d].gpu);
        pthread_mutex_destroy(&run.devs[d].lock);
    }
    pthread_cond_destroy(&run.written);
    pthread_cond_destroy(&run.opened);
    pthread_mutex_destroy(&run.lock);
    return r;
}
