/* The deform run split over several contexts (deform_run.h, SPLIT). Moved from the vkskin
 * program's deform_chunks.c. */
#include "bake/deform_run_common.h"
#include "core/thread_start.h"

#include <stdlib.h>
#include <string.h>

/* Several contexts (--device all or a list): the poses are cut into pieces of about a chunk,
 * dealt round-robin (piece i to context i mod n), and every context deforms its pieces on a
 * thread of its own. A piece goes to the output only in its turn, after the pieces before it,
 * so the file is the bytes one context writes; while a context waits for its turn its GPU keeps
 * its ring of chunks in flight, and all of them deform at once. */
typedef struct split_turns {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint64_t turn;      /* the piece being written */
    uint32_t turn_done; /* its poses written so far */
    int abort;          /* a context or the output failed: every waiter stops */
} split_turns;

typedef struct split_part {
    vks__gpu_stream *g;
    split_turns *t;
    int k, n;
    uint64_t piece_poses, pieces;
    vks_gpu *gpu;
    const vks_gpu_models *models;
    uint32_t npieces;    /* its pieces: k, k + n, k + 2n, ... */
    uint64_t poses;      /* their poses, the instances of its stream (the pieces one after the other) */
    uint64_t max_chunk_bytes;
    vks_stream_stats st;
    double t0, seconds;  /* the split's start; from it to this context's end */
    vks_result r;
    vks_error err;
} split_part;

static uint64_t piece_of(const split_part *p, uint32_t entry)
{
    return (uint64_t)entry * p->n + p->k;
}

static uint32_t piece_size(const split_part *p, uint64_t piece)
{
    uint64_t left = p->g->c->total - piece * p->piece_poses;
    return (uint32_t)(left < p->piece_poses ? left : p->piece_poses);
}

/* The pose that instance i of this context's stream is: its pieces are whole but the last. */
static uint64_t pose_of(const split_part *p, uint32_t i)
{
    return piece_of(p, i / p->piece_poses) * p->piece_poses + i % p->piece_poses;
}

static void split_locals(void *user, uint32_t i, uint32_t frame, vks_affine *out)
{
    (void)frame;
    split_part *p = user;
    p->g->c->locals(p->g->c->user, pose_of(p, i), 1, out);
}

static void split_weights(void *user, uint32_t i, uint32_t frame, float *out)
{
    (void)frame;
    split_part *p = user;
    p->g->c->weights(p->g->c->user, pose_of(p, i), 1, out);
}

/* Poses [first, first + count) of one piece (entry: its number among this context's), in its turn. */
static int split_piece(split_part *p, uint32_t entry, uint32_t first, uint32_t count, const float *pp,
                       const float *nn)
{
    split_turns *t = p->t;
    uint64_t piece = piece_of(p, entry);
    pthread_mutex_lock(&t->mu);
    while (t->turn != piece && !t->abort)
        pthread_cond_wait(&t->cv, &t->mu);
    int stop = t->abort;
    pthread_mutex_unlock(&t->mu);
    if (stop)
        return 1;
    stop = vks__gpu_stream_put(p->g, piece * p->piece_poses + first, count, pp, nn);
    pthread_mutex_lock(&t->mu);
    t->abort |= stop;
    t->turn_done += count;
    if (t->turn_done == piece_size(p, piece))
        t->turn++, t->turn_done = 0;
    pthread_cond_broadcast(&t->cv);
    pthread_mutex_unlock(&t->mu);
    return stop;
}

/* A delivery of this context's stream, cut at its pieces' ends. */
static int split_deliver(void *user, const vks_stream_delivery *d)
{
    split_part *p = user;
    int stop = 0;
    for (uint32_t i = d->first, end = d->first + d->count; i < end && !stop;) {
        uint32_t in_piece = (uint32_t)(i % p->piece_poses), m = (uint32_t)(p->piece_poses - in_piece);
        if (m > end - i)
            m = end - i;
        size_t at = (size_t)(i - d->first) * p->g->per;
        stop = split_piece(p, (uint32_t)(i / p->piece_poses), in_piece, m, d->positions + at, d->normals + at);
        i += m;
    }
    return stop;
}

static void *split_main(void *arg)
{
    split_part *p = arg;
    vks_stream_desc d = vks__pose_stream(p->g->c, p->models, p->poses, split_locals, split_weights, split_deliver, p,
                                    p->max_chunk_bytes);
    p->r = p->poses ? vks_stream_run(p->gpu, &d, &p->st, &p->err) : VKS_OK;
    p->seconds = vks__deform_now_seconds() - p->t0;
    if (p->r != VKS_OK) { /* the contexts after this one would wait for its pieces forever */
        pthread_mutex_lock(&p->t->mu);
        p->t->abort = 1;
        pthread_cond_broadcast(&p->t->cv);
        pthread_mutex_unlock(&p->t->mu);
    }
    return NULL;
}

/* What each context took (sh, when asked): its poses, chunks and time. */
static void say_shares(vks_context_shares *sh, const split_part *parts, int n)
{
    if (!sh)
        return;
    vks_context_shares_begin(sh, n, "poses", NULL);
    for (int k = 0; k < sh->contexts; k++) {
        const split_part *p = &parts[k];
        vks_context_shares_set(sh, k, vks_gpu_device(p->gpu)->name, p->poses, p->st.chunks, p->seconds);
    }
}

/* The batch across g->count contexts; the first failure in context order. *single set (and
 * nothing written): the threads could not be had, the caller runs on the first context. */
vks_result vks__deform_split(vks__gpu_stream *g, uint64_t max_chunk_bytes, int *single, vks_error *err)
{
    vks__chunks *c = g->c;
    int n = g->count;
    split_turns t = {.turn = 0};
    split_part parts[VKS_SHARES_MAX];
    pthread_t th[VKS_SHARES_MAX];
    int started[VKS_SHARES_MAX] = {0};
    /* a piece of about a chunk: fewer would make chunks smaller, more would make turns longer */
    uint64_t per = (g->per ? g->per : 1) * sizeof(float);
    uint64_t piece = max_chunk_bytes / per;
    if (piece < 1)
        piece = 1;
    /* every context gets a piece when there are as many poses as contexts: a piece of at most
       total / n poses makes at least n of them (one chunk's poses would go to one context) */
    if (c->total >= (uint64_t)n && piece > c->total / (uint64_t)n)
        piece = c->total / (uint64_t)n;
    /* as many pieces for every context: the poses cut into whole rounds of n equal pieces, so
       the deal's last round does not leave one context a whole piece ahead (4000 poses in
       pieces of 559 went 2236 and 1764 to two contexts; now 2000 each) */
    if (c->total >= (uint64_t)n) {
        uint64_t rounds = (c->total + piece * (uint64_t)n - 1) / (piece * (uint64_t)n);
        piece = (c->total + rounds * (uint64_t)n - 1) / (rounds * (uint64_t)n);
    }
    uint64_t pieces = (c->total + piece - 1) / piece;
    if (pieces / n + 1 > UINT32_MAX)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "deform", "too many chunks for the devices");
    vks_result r = VKS_OK;
    pthread_mutex_init(&t.mu, NULL);
    pthread_cond_init(&t.cv, NULL);
    for (int k = 0; k < n; k++) {
        split_part *p = &parts[k];
        *p = (split_part){.g = g, .t = &t, .k = k, .n = n, .piece_poses = piece, .pieces = pieces,
                          .gpu = g->gpus[k], .models = g->models[k], .max_chunk_bytes = max_chunk_bytes,
                          .r = VKS_OK};
        p->npieces = (uint32_t)(pieces > (uint64_t)k ? (pieces - k + n - 1) / n : 0);
        for (uint32_t e = 0; e < p->npieces; e++)
            p->poses += piece_size(p, piece_of(p, e));
    }
    double t0 = vks__deform_now_seconds();
    for (int k = 0; k < n; k++)
        parts[k].t0 = t0;
    int all_started = 1;
    for (int k = 1; r == VKS_OK && k < n; k++)
        all_started &= started[k] = !vks__thread_start(&th[k], split_main, &parts[k],
                                                         "deform --device: every pose on the first device");
    if (r == VKS_OK && !all_started) {
        /* the pieces are interleaved, so one context without its thread would hold back all the
           others: those started stop before writing anything (piece 0 is this thread's) and
           the caller runs on the first context alone */
        pthread_mutex_lock(&t.mu);
        t.abort = 1;
        pthread_cond_broadcast(&t.cv);
        pthread_mutex_unlock(&t.mu);
        *single = 1;
    } else if (r == VKS_OK) {
        split_main(&parts[0]);
    }
    for (int k = 1; k < n; k++)
        if (started[k])
            pthread_join(th[k], NULL);
    for (int k = 0; r == VKS_OK && !*single && k < n; k++)
        if (parts[k].r != VKS_OK)
            r = parts[k].r, *err = parts[k].err;
    if (r == VKS_OK && !*single)
        say_shares(c->shares, parts, n);
    pthread_mutex_destroy(&t.mu);
    pthread_cond_destroy(&t.cv);
    return r;
}

