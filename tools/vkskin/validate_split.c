/* vkskin validate's batch across several contexts (--device all or a list, without --each):
 * each file's poses are cut into one contiguous span per context, every context deforms its
 * spans on a thread of its own, and the chunks are compared in pose order. With clips the
 * crowd's instances are split likewise, by cli_crowd_split.c, on the contexts opened here.
 *
 * One verdict must equal one device's, bit for bit. The counts, extremes and error maps would
 * merge in any order that keeps the earlier pose on a tie, but the sums of squares behind NMSE
 * are sequential over the components, so a file's chunks must reach its accumulators in pose
 * order: a context compares its span of file f only once the contexts before it finished
 * theirs (a turn per file). Files are independent, so while context 1 waits for file 0,
 * context 0 goes on to file 1: the contexts take turns like a pipeline, and a context's GPU
 * keeps a chunk in flight while it waits. Each context's batch checks its readback as one
 * device's does (--readback-check's rule on its own device); its chunks are numbered per
 * context, so a mismatch names the context too. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cli_crowd_split.h"
#include "cli_progress.h"
#include "cli_thread.h"
#include "validate.h"

typedef struct vturns {
    pthread_mutex_t lock;
    pthread_cond_t moved;
    int *turn;  /* per file: the context whose span is compared now */
    int abort;  /* a context failed: every waiter stops */
} vturns;

typedef struct vpart {
    vrun *r;
    int k, n;
    vks_gpu *gpu;
    vks_gpu_models *ms;
    vctx c;                      /* this context's scratch; the files' accumulators are shared */
    uint32_t *first, *count;     /* per file: this context's span */
    uint32_t *done;              /* per file: poses compared */
    int *entry_file;             /* per batch entry: the file */
    vks_gpu_batch_entry *entries;
    uint32_t nentries;
    vks_gpu_batch b;             /* this context's batch (its readback check decided before) */
    vturns *t;
    struct vpart *parts;
    vks_gpu_stats st;
    double t0, seconds;          /* the split's start; from it to this context's end */
    vks_result run;
    vks_error err;
} vpart;

/* The context after k with poses of file f (n: none). */
static int next_owner(const vpart *parts, int k, int f)
{
    for (k++; k < parts[0].n; k++)
        if (parts[k].count[f])
            break;
    return k;
}

static void split_locals(void *user, uint32_t entry, uint32_t instance, vks_affine *out)
{
    vpart *p = user;
    int f = p->entry_file[entry];
    vfile *vf = &p->r->files[f];
    vks__validate_pose_locals(&p->c, vf, p->first[f] + instance, out);
}

static void split_weights(void *user, uint32_t entry, uint32_t instance, float *out)
{
    vpart *p = user;
    int f = p->entry_file[entry];
    const vfile *vf = &p->r->files[f];
    uint32_t pose = p->first[f] + instance;
    vks_pose_source_weights(vf->ps.source, vf->skin, pose / vf->frames, pose % vf->frames, out);
}

static int split_deliver(void *user, uint32_t entry, uint32_t first, uint32_t count, const float *pp,
                         const float *nn)
{
    vpart *p = user;
    int f = p->entry_file[entry];
    vturns *t = p->t;
    pthread_mutex_lock(&t->lock);
    while (t->turn[f] != p->k && !t->abort)
        pthread_cond_wait(&t->moved, &t->lock);
    int stop = t->abort;
    pthread_mutex_unlock(&t->lock);
    if (stop)
        return 1;
    vref_chunk ch = {&p->r->files[f], p->first[f] + first, count, 0, 0, pp, nn};
    vks__validate_note_chunk(&p->c, ch.f, ch.first, count); /* what the readback check names */
    stop = vks__validate_ref_chunk(&p->c, &ch);
    if (p->c.progress)
        vks_cli_progress_add(p->c.progress, count);
    pthread_mutex_lock(&t->lock);
    if (stop)
        t->abort = 1;
    p->done[f] += count;
    if (p->done[f] == p->count[f])
        t->turn[f] = next_owner(p->parts, p->k, f);
    pthread_cond_broadcast(&t->moved);
    pthread_mutex_unlock(&t->lock);
    return stop;
}

/* A chunk of this context delivered: its readback check as one device's (validate_run.c),
 * under the lock since the device's figures and counts are every context's. */
static int split_chunk_done(void *user, uint32_t chunk, const vks_gpu_figures *g)
{
    vpart *p = user;
    pthread_mutex_lock(&p->t->lock);
    vks__validate_check_readback(&p->c, chunk, "poses", g);
    pthread_mutex_unlock(&p->t->lock);
    vks__validate_next_chunk(&p->c);
    return 0;
}

/* The context's batch, and whether it reduces: --readback-check's rule on its own device
 * (auto: a context that reads its outputs in place does not), decided on the calling thread
 * before any run, as the one-device batch does. */
static void make_batch(vpart *p)
{
    vks_gpu_batch *b = &p->b;
    b->entries = p->entries, b->entry_count = p->nentries;
    b->get_locals = split_locals, b->deliver = split_deliver, b->user = p;
    for (int k = 0; k < p->r->nfiles; k++)
        if (p->r->files[k].ps.morph_meshes) /* the poses drive morph weights */
            b->get_weights = split_weights;
    b->want_normals = 1;
    b->max_chunk_bytes = p->r->gopt.max_chunk_bytes;
    b->reduce = vks_validate_reduce_mode(p->r);
    b->chunk_done = split_chunk_done;
    p->c.reduce = p->nentries && vks_gpu_batch_reduces(p->gpu, b);
    if (!p->c.reduce)
        b->reduce = 0;
    p->c.context = p->k + 1, p->c.contexts = p->n;
    vks__validate_next_chunk(&p->c);
}

static void *run_part(void *arg)
{
    vpart *p = arg;
    if (p->nentries) /* a run never calibrates from inside */
        vks_gpu_calibrate_for_batch(p->gpu, p->ms, &p->b);
    p->run = p->nentries ? vks_gpu_run(p->gpu, p->ms, &p->b, &p->st, &p->err) : VKS_OK;
    p->seconds = (vks__validate_now_ms() - p->t0) / 1e3;
    if (p->run != VKS_OK) { /* the contexts after this one would wait for its spans forever */
        pthread_mutex_lock(&p->t->lock);
        p->t->abort = 1;
        pthread_cond_broadcast(&p->t->moved);
        pthread_mutex_unlock(&p->t->lock);
    }
    return NULL;
}

/* What each context took (r->shares): its poses, chunks and time. */
static void say_shares(vrun *r, const vpart *parts, int n)
{
    vks_cli_shares *sh = r->shares;
    if (!sh)
        return;
    vks_cli_shares_begin(sh, n, "poses", NULL);
    for (int k = 0; k < sh->contexts; k++) {
        const vpart *p = &parts[k];
        uint64_t poses = 0;
        for (int f = 0; f < r->nfiles; f++)
            poses += p->count[f];
        vks_cli_shares_set(sh, k, vks_gpu_device(p->gpu)->name, poses, p->st.chunks, p->seconds);
    }
}

/* The list's contexts: gpus[0] and ms[0] the first's (given), the others opened here, each with
 * every file uploaded. VKS_EXIT_OK, or the exit code of one that could not be opened (printed)
 * or uploaded to (printed, *err_out set). gpus and ms come zeroed; close_contexts after. */
static int open_contexts(vrun *r, vks_gpu *gpu0, vks_gpu_models *ms0, const vks_skin *const *skins, vks_gpu **gpus,
                         vks_gpu_models **ms, vks_error *err_out)
{
    char msg[512];
    gpus[0] = gpu0, ms[0] = ms0;
    for (int k = 1; k < r->nsplit; k++) {
        vks_cli_gpu_opts g = r->gopt;
        g.device = r->split[k];
        int rc = vks_cli_gpu_open(&g, &gpus[k]);
        if (rc != VKS_EXIT_OK)
            return rc;
        vks_error err = {0};
        if (vks_gpu_upload(gpus[k], skins, (uint32_t)r->nfiles, &ms[k], &err) != VKS_OK) {
            fprintf(stderr, "vkskin: %s\n", vks_error_format(&err, NULL, msg, sizeof msg));
            *err_out = err;
            return vks_cli_exit_code(err.code);
        }
    }
    return VKS_EXIT_OK;
}

/* The contexts after the first: their validation messages counted, then closed. */
static void close_contexts(vrun *r, vks_gpu **gpus, vks_gpu_models **ms)
{
    for (int k = 1; k < r->nsplit; k++) {
        r->validation_messages += gpus[k] ? vks_gpu_validation_messages(gpus[k]) : 0;
        vks_gpu_models_free(ms[k]);
        vks_gpu_destroy(gpus[k]);
    }
}

int vks_validate_split_crowd(vrun *r, vks_gpu *gpu0, vks_gpu_models *ms0, const vks_skin *const *skins,
                             const vks_cli_crowd_job *job, vks_cli_crowd_stats *st, vks_cli_crowd_split_stats *split,
                             vks_error *err_out)
{
    vks_gpu *gpus[VKS_CLI_MAX_DEVICES] = {0};
    vks_gpu_models *ms[VKS_CLI_MAX_DEVICES] = {0};
    int rc = open_contexts(r, gpu0, ms0, skins, gpus, ms, err_out);
    if (rc == VKS_EXIT_OK && vks_cli_crowd_run_split(job, gpus, (const vks_gpu_models *const *)ms, r->nsplit, st, split,
                                                     err_out) != VKS_OK)
        rc = -1; /* the caller prints the error */
    close_contexts(r, gpus, ms);
    return rc;
}

int vks_validate_split_batch(vrun *r, vks_gpu *gpu0, vks_gpu_models *ms0, const vks_skin *const *skins,
                             vks_gpu_stats *st, int *reduced, vks_error *err_out)
{
    int n = r->nsplit, nf = r->nfiles, rc = VKS_EXIT_OK;
    *reduced = 0;
    vpart *parts = calloc((size_t)n, sizeof *parts);
    vturns t = {.turn = calloc((size_t)nf, sizeof(int))};
    pthread_t th[VKS_CLI_MAX_DEVICES];
    int started[VKS_CLI_MAX_DEVICES] = {0};
    vks_gpu *gpus[VKS_CLI_MAX_DEVICES] = {0};
    vks_gpu_models *ms[VKS_CLI_MAX_DEVICES] = {0};
    if (!parts || !t.turn) {
        free(parts), free(t.turn);
        err_out->code = VKS_ERR_NOMEM;
        snprintf(err_out->msg, sizeof err_out->msg, "out of memory for the contexts");
        return VKS_EXIT_RUNTIME;
    }
    pthread_mutex_init(&t.lock, NULL);
    pthread_cond_init(&t.moved, NULL);
    rc = open_contexts(r, gpu0, ms0, skins, gpus, ms, err_out);
    for (int k = 0; k < n && rc == VKS_EXIT_OK; k++) {
        vpart *p = &parts[k];
        p->r = r, p->k = k, p->n = n, p->t = &t, p->parts = parts;
        p->c = r->c; /* the options; the scratch is this context's own */
        p->c.locals = NULL, p->c.rp = p->c.rn = NULL, p->c.world = NULL, p->c.scales = NULL;
        p->c.locals_cap = p->c.out_cap = p->c.world_cap = p->c.scales_cap = 0;
        memset(p->c.thread_maps, 0, sizeof p->c.thread_maps);
        p->first = calloc((size_t)nf, sizeof *p->first);
        p->count = calloc((size_t)nf, sizeof *p->count);
        p->done = calloc((size_t)nf, sizeof *p->done);
        p->entry_file = calloc((size_t)nf, sizeof *p->entry_file);
        p->entries = calloc((size_t)nf, sizeof *p->entries);
        if (!p->first || !p->count || !p->done || !p->entry_file || !p->entries) {
            rc = VKS_EXIT_RUNTIME;
            break;
        }
        for (int f = 0; f < nf; f++) {
            uint64_t poses = r->files[f].poses;
            p->first[f] = (uint32_t)(poses * k / n);
            p->count[f] = (uint32_t)(poses * (k + 1) / n) - p->first[f];
            if (p->count[f]) {
                p->entry_file[p->nentries] = f;
                p->entries[p->nentries++] = (vks_gpu_batch_entry){(uint32_t)f, p->count[f], NULL};
            }
        }
        p->gpu = gpus[k], p->ms = ms[k];
        make_batch(p);
        *reduced |= p->c.reduce;
    }
    for (int f = 0; rc == VKS_EXIT_OK && f < nf; f++)
        t.turn[f] = parts[0].count[f] ? 0 : next_owner(parts, 0, f);
    double t0 = vks__validate_now_ms();
    for (int k = 0; k < n; k++)
        parts[k].t0 = t0;
    for (int k = 1; rc == VKS_EXIT_OK && k < n; k++)
        started[k] = vks_cli_thread_start(&th[k], run_part, &parts[k],
                                           "validate --device: a context's poses on the calling thread, after the others'");
    if (rc == VKS_EXIT_OK) {
        run_part(&parts[0]);
        for (int k = 1; k < n; k++)
            if (!started[k])
                run_part(&parts[k]); /* a context no thread could take: after the others' turns */
    }
    for (int k = 1; k < n; k++)
        if (started[k])
            pthread_join(th[k], NULL);
    /* the first failure in context order, and the stats summed (the wall time is the caller's) */
    for (int k = 0; rc == VKS_EXIT_OK && k < n; k++) {
        vpart *p = &parts[k];
        if (p->run != VKS_OK && p->err.code != VKS_OK) {
            *err_out = p->err;
            rc = -1; /* the caller prints the error */
        }
        st->chunks += p->st.chunks, st->oom_retries += p->st.oom_retries;
        st->pose_ms += p->st.pose_ms, st->deform_ms += p->st.deform_ms;
        st->vertex_instances += p->st.vertex_instances, st->buffers_made += p->st.buffers_made;
        st->readback_ms += p->st.readback_ms, st->readback_bytes += p->st.readback_bytes;
        if (p->st.chunk_output_bytes > st->chunk_output_bytes)
            st->chunk_output_bytes = p->st.chunk_output_bytes;
    }
    if (rc == VKS_EXIT_OK)
        say_shares(r, parts, n);
    close_contexts(r, gpus, ms);
    for (int k = 0; k < n; k++) {
        vpart *p = &parts[k];
        vks_validate_ctx_free(&p->c);
        free(p->first), free(p->count), free(p->done), free(p->entry_file), free(p->entries);
    }
    pthread_mutex_destroy(&t.lock);
    pthread_cond_destroy(&t.moved);
    free(parts), free(t.turn);
    return rc;
}
