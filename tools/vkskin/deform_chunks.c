/* The pipeline of vkskin deform (deform_chunks.h).
 * CPU engines: locals, engine, writer thread. The buffers are made once per run, small (a
 * fresh page costs ~11 us on a VM: 64 MiB chunks spent 0.4 s of a 0.6 s run faulting theirs
 * in), the second set only when there is a second chunk, and written once before the first
 * chunk, so no chunk's engine or writer pays for fresh pages.
 * GPU: one stream of host-posed instances (stream.h, HOST POSES: every pose an instance, one
 * frame, the bits of one vks_gpu_run); deliver copies each chunk out of the readback memory of its ring
 * slot (valid only during the delivery) into a ring of small blocks, and a converter thread
 * puts them into the file's layout and hands them to the output (whose writer thread writes
 * them), so the thread that feeds the GPU neither converts nor writes. (Per chunk
 * vks_gpu_run_job calls with a copy into 16 MiB buffers and a writer thread once took 335 ms
 * for 1000 poses of 10k vertices on lavapipe against 183 ms for one run writing from the
 * ring: the per-call submissions and the fresh pages cost that, not the copy.) */
#include "deform_chunks.h"
#include "cli_progress.h"
#include "cli_thread.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Output bytes (positions and normals) of one CPU chunk: small enough that its pages cost
 * little to fault in. */
#define CHUNK_BYTES ((uint64_t)16 << 20)

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One chunk's results on their way to the output, written by a thread of its own while the
 * engine deforms the next chunk into the other buffer. */
typedef struct chunk_write {
    vks_bake *bake;
    const vks_skin *skin;
    uint32_t frames;
    const float *pos, *nrm;
    uint64_t first; /* pose index of the chunk's first pose (instance * frames + frame) */
    uint32_t count;
    vks_result result;
    vks_error err;
} chunk_write;

static void *write_chunk(void *arg)
{
    chunk_write *w = arg;
    w->result = VKS_OK;
    for (uint32_t k = 0; k < w->count && w->result == VKS_OK; k++) {
        uint64_t p = w->first + k;
        size_t at = vks_deform_index(w->skin, k, 0) * 3;
        w->result = vks_bake_write(w->bake, (uint32_t)(p / w->frames), (uint32_t)(p % w->frames), w->pos + at,
                                   w->nrm + at, &w->err);
    }
    return NULL;
}

/* The writer of the previous chunk, if one runs: waits for it and takes its result. */
typedef struct writer {
    pthread_t thread;
    int running, threaded;
    chunk_write job;
} writer;

static vks_result writer_finish(writer *w, vks_error *err)
{
    if (!w->running)
        return VKS_OK;
    if (w->threaded)
        pthread_join(w->thread, NULL);
    w->running = 0;
    if (w->job.result != VKS_OK && err && err->code == VKS_OK)
        *err = w->job.err;
    return w->job.result;
}

static void writer_start(writer *w, const chunk_write *job)
{
    w->job = *job;
    w->running = 1;
    w->threaded = vks_cli_thread_start(&w->thread, write_chunk, &w->job, "deform: each chunk written on the engine's thread");
    if (!w->threaded)
        write_chunk(&w->job); /* no thread to be had: write it here */
}

static void progress(const vks_cli_chunks *c, uint64_t done)
{
    if (c->progress)
        vks_cli_progress_set(c->progress, done, NULL);
}

/* ---- the GPU: one run, chunks converted and written by a thread of their own ---- */

static const float ONE_FRAME[1] = {0.0f}; /* every pose is an instance of a one-frame stream */

/* Every pose is an instance of model 0 that the host poses (the chunks' locals and weights). */
static void pose_instance(void *user, uint32_t i, vks_instance *out)
{
    (void)user, (void)i;
    memset(out, 0, sizeof *out);
    out->pose = VKS_POSE_HOST;
}

/* The readback memory a chunk is delivered in is the ring's, valid only during the delivery,
 * and the thread that delivers is the one that feeds the GPU its next chunk. So a delivery
 * only copies the poses into blocks (at memory speed) and a converter thread puts them into
 * the file's layout (CSV text, file vertex order, glTF's kept frames) and hands them to the
 * output, whose own writer thread writes them: feeding, conversion and writing overlap. A
 * block holds about BLOCK_BYTES of positions and as much of normals (whole poses, one at
 * least), and BLOCKS of them go round, so the copy stays in the caches and memory is bounded
 * whatever the chunk size. */
#define BLOCK_BYTES ((size_t)2 << 20)
enum { BLOCKS = 4 };

typedef struct pose_block {
    float *pos, *nrm;
    uint64_t first; /* its first pose */
    uint32_t count;
} pose_block;

typedef struct gpu_stream {
    vks_cli_chunks *c;
    vks_gpu *const *gpus; /* the contexts the poses are split across (count > 1) */
    const vks_gpu_models *const *models;
    int count;
    size_t per;       /* floats of one pose's positions */
    uint32_t block_poses;
    pose_block blocks[BLOCKS];
    /* the ring of blocks: [head, head + filled) hold poses to convert, in pose order */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint32_t head, filled;
    int quit;
    pthread_t thread;
    int threaded;
    double write_s;
    vks_result result; /* of the output; set by the converter, read under mu */
    vks_error err;
} gpu_stream;

static void stream_locals(void *user, uint32_t pose, uint32_t frame, vks_affine *out)
{
    (void)frame;
    gpu_stream *g = user;
    g->c->locals(g->c->user, pose, 1, out);
}

/* A pose's morph weights (the chunks' weights callback, one pose at a time). */
static void stream_weights(void *user, uint32_t pose, uint32_t frame, float *out)
{
    (void)frame;
    gpu_stream *g = user;
    g->c->weights(g->c->user, pose, 1, out);
}

/* Converts and writes one block's poses, in order; the output's result. */
static vks_result convert_block(gpu_stream *g, const pose_block *b, vks_error *err)
{
    vks_cli_chunks *c = g->c;
    vks_result r = VKS_OK;
    for (uint32_t k = 0; k < b->count && r == VKS_OK; k++) {
        uint64_t pose = b->first + k;
        r = vks_bake_write(c->bake, (uint32_t)(pose / c->frames), (uint32_t)(pose % c->frames), b->pos + k * g->per,
                           b->nrm + k * g->per, err);
    }
    return r;
}

static void *converter_main(void *arg)
{
    gpu_stream *g = arg;
    pthread_mutex_lock(&g->mu);
    for (;;) {
        while (!g->filled && !g->quit)
            pthread_cond_wait(&g->cv, &g->mu);
        if (!g->filled)
            break;
        pose_block *b = &g->blocks[g->head];
        int failed = g->result != VKS_OK;
        pthread_mutex_unlock(&g->mu);
        vks_error e = {0};
        vks_result r = failed ? VKS_OK : convert_block(g, b, &e);
        pthread_mutex_lock(&g->mu);
        if (r != VKS_OK && g->result == VKS_OK)
            g->result = r, g->err = e;
        g->head = (g->head + 1) % BLOCKS;
        g->filled--;
        pthread_cond_broadcast(&g->cv);
    }
    pthread_mutex_unlock(&g->mu);
    return NULL;
}

/* A free block (waiting for the converter while all are full); NULL once the output failed. */
static pose_block *block_take(gpu_stream *g)
{
    pthread_mutex_lock(&g->mu);
    while (g->filled == BLOCKS && g->result == VKS_OK)
        pthread_cond_wait(&g->cv, &g->mu);
    pose_block *b = g->result == VKS_OK ? &g->blocks[(g->head + g->filled) % BLOCKS] : NULL;
    pthread_mutex_unlock(&g->mu);
    return b;
}

static void block_give(gpu_stream *g)
{
    pthread_mutex_lock(&g->mu);
    g->filled++;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
}

/* Poses [pose_first, pose_first + count) to the output, the next ones in pose order. */
static int stream_put(gpu_stream *g, uint64_t pose_first, uint32_t count, const float *p, const float *n)
{
    vks_cli_chunks *c = g->c;
    double t0 = now_seconds();
    int stop = 0;
    for (uint32_t k = 0; !g->threaded && k < count && !stop; k++) { /* direct, or no thread to be had */
        uint64_t pose = pose_first + k;
        const float *pp = p + k * g->per, *nn = n + k * g->per;
        if (c->finish) { /* the readback memory is the ring's: change a copy */
            memcpy(g->blocks[0].pos, pp, g->per * sizeof *pp);
            memcpy(g->blocks[0].nrm, nn, g->per * sizeof *nn);
            c->finish(c->user, pose, g->blocks[0].pos, g->blocks[0].nrm);
            pp = g->blocks[0].pos, nn = g->blocks[0].nrm;
        }
        g->result = vks_bake_write(c->bake, (uint32_t)(pose / c->frames), (uint32_t)(pose % c->frames), pp, nn, &g->err);
        stop = g->result != VKS_OK;
    }
    for (uint32_t k0 = 0; g->threaded && k0 < count && !stop; k0 += g->block_poses) {
        uint32_t m = count - k0 < g->block_poses ? count - k0 : g->block_poses;
        uint64_t pose0 = pose_first + k0;
        pose_block *b = block_take(g);
        if (!b) {
            stop = 1;
            break;
        }
        memcpy(b->pos, p + (size_t)k0 * g->per, (size_t)m * g->per * sizeof *p);
        memcpy(b->nrm, n + (size_t)k0 * g->per, (size_t)m * g->per * sizeof *n);
        for (uint32_t k = 0; c->finish && k < m; k++) /* the roots, on the copy */
            c->finish(c->user, pose0 + k, b->pos + k * g->per, b->nrm + k * g->per);
        b->first = pose0, b->count = m;
        block_give(g);
    }
    progress(c, pose_first + count);
    g->write_s += now_seconds() - t0;
    return stop;
}

static int stream_deliver(void *user, const vks_stream_delivery *d)
{
    return stream_put(user, d->first, d->count, d->positions, d->normals);
}

/* The one-frame stream of host-posed poses (count of them) on gpu, each asked of get_locals
 * and get_weights by its number and delivered to deliver. */
static vks_stream_desc pose_stream(const vks_cli_chunks *c, const vks_gpu_models *models, uint64_t count,
                                   void (*get_locals)(void *, uint32_t, uint32_t, vks_affine *),
                                   void (*get_weights)(void *, uint32_t, uint32_t, float *),
                                   vks_stream_deliver_fn deliver, void *user, uint64_t max_chunk_bytes)
{
    vks_stream_desc d = {0};
    d.models = models, d.skins = &c->skin, d.model_count = 1;
    d.get_instance = pose_instance, d.instance_count = (uint32_t)count;
    d.times = ONE_FRAME, d.frame_count = 1;
    d.get_locals = get_locals, d.get_weights = c->weights ? get_weights : NULL; /* morph weights per pose */
    d.deliver = deliver, d.user = user;
    d.chunk_bytes = max_chunk_bytes;
    return d;
}

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
    gpu_stream *g;
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
    stop = stream_put(p->g, piece * p->piece_poses + first, count, pp, nn);
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
    vks_stream_desc d = pose_stream(p->g->c, p->models, p->poses, split_locals, split_weights, split_deliver, p,
                                    p->max_chunk_bytes);
    p->r = p->poses ? vks_stream_run(p->gpu, &d, &p->st, &p->err) : VKS_OK;
    p->seconds = now_seconds() - p->t0;
    if (p->r != VKS_OK) { /* the contexts after this one would wait for its pieces forever */
        pthread_mutex_lock(&p->t->mu);
        p->t->abort = 1;
        pthread_cond_broadcast(&p->t->cv);
        pthread_mutex_unlock(&p->t->mu);
    }
    return NULL;
}

/* What each context took (sh, when asked): its poses, chunks and time. */
static void say_shares(vks_cli_shares *sh, const split_part *parts, int n)
{
    if (!sh)
        return;
    vks_cli_shares_begin(sh, n, "poses", NULL);
    for (int k = 0; k < sh->contexts; k++) {
        const split_part *p = &parts[k];
        vks_cli_shares_set(sh, k, vks_gpu_device(p->gpu)->name, p->poses, p->st.chunks, p->seconds);
    }
}

/* The batch across g->count contexts; the first failure in context order. *single set (and
 * nothing written): the threads could not be had, the caller runs on the first context. */
static vks_result run_split(gpu_stream *g, uint64_t max_chunk_bytes, int *single, vks_error *err)
{
    vks_cli_chunks *c = g->c;
    int n = g->count;
    split_turns t = {.turn = 0};
    split_part parts[VKS_CLI_CHUNKS_MAX_GPUS];
    pthread_t th[VKS_CLI_CHUNKS_MAX_GPUS];
    int started[VKS_CLI_CHUNKS_MAX_GPUS] = {0};
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
    double t0 = now_seconds();
    for (int k = 0; k < n; k++)
        parts[k].t0 = t0;
    int all_started = 1;
    for (int k = 1; r == VKS_OK && k < n; k++)
        all_started &= started[k] = vks_cli_thread_start(&th[k], split_main, &parts[k],
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

static vks_result run_gpu(vks_cli_chunks *c, vks_gpu *const *gpus, const vks_gpu_models *const *models, int count,
                          vks_error *err)
{
    gpu_stream g = {0};
    g.c = c, g.result = VKS_OK;
    g.gpus = gpus, g.models = models, g.count = count;
    g.per = (size_t)c->skin->vertex_count * 3;
    size_t pose_bytes = g.per * sizeof(float) + 16;
    g.block_poses = (uint32_t)(BLOCK_BYTES / pose_bytes < 1 ? 1 : BLOCK_BYTES / pose_bytes);
    if (g.block_poses > c->total)
        g.block_poses = (uint32_t)c->total;
    if (c->total > UINT32_MAX) /* a stream's instances are counted in 32 bits */
        return vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "deform", "%llu poses: at most %u on the GPU",
                             (unsigned long long)c->total, UINT32_MAX);
    int ok = 1;
    for (int k = 0; k < (c->direct ? 1 : BLOCKS) && ok; k++) {
        g.blocks[k].pos = malloc((size_t)g.block_poses * g.per * sizeof(float) + 16);
        g.blocks[k].nrm = malloc((size_t)g.block_poses * g.per * sizeof(float) + 16);
        ok = g.blocks[k].pos && g.blocks[k].nrm;
    }
    if (!ok) {
        for (int k = 0; k < BLOCKS; k++)
            free(g.blocks[k].pos), free(g.blocks[k].nrm);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "deform", "out of memory");
    }
    pthread_mutex_init(&g.mu, NULL);
    pthread_cond_init(&g.cv, NULL);
    g.threaded = !c->direct && vks_cli_thread_start(&g.thread, converter_main, &g,
                                                   "deform --gpu: poses converted and written on the thread that feeds the GPU");
    vks_gpu_shape_info shape; /* the GPU's chunks: the tuning table's size for this device */
    vks_gpu_launch_shape(gpus[0], &shape);
    uint64_t max_chunk_bytes = c->max_chunk_bytes ? c->max_chunk_bytes : shape.chunk_bytes;
    double t0 = now_seconds();
    vks_error local = {0};
    int single = count <= 1;
    vks_result r = single ? VKS_OK : run_split(&g, max_chunk_bytes, &single, err ? err : &local);
    if (single) { /* one context, or no threads to be had for the others */
        vks_stream_desc d = pose_stream(c, models[0], c->total, stream_locals, stream_weights, stream_deliver, &g,
                                        max_chunk_bytes);
        r = vks_stream_run(gpus[0], &d, NULL, err);
    }
    c->engine_s = now_seconds() - t0 - g.write_s;
    if (g.threaded) { /* the converter drains what is left, then ends */
        pthread_mutex_lock(&g.mu);
        g.quit = 1;
        pthread_cond_broadcast(&g.cv);
        pthread_mutex_unlock(&g.mu);
        pthread_join(g.thread, NULL);
    }
    if (g.result != VKS_OK) { /* the output failed: its error, not the batch's "stopped" */
        if (err)
            *err = g.err;
        r = g.result;
    }
    pthread_mutex_destroy(&g.mu);
    pthread_cond_destroy(&g.cv);
    for (int k = 0; k < BLOCKS; k++)
        free(g.blocks[k].pos), free(g.blocks[k].nrm);
    return r;
}

/* ---- the CPU engines: chunks and a writer thread ---- */

vks_result vks_cli_chunks_run(vks_cli_chunks *c, vks_error *err)
{
    const vks_skin *s = c->skin;
    c->engine_s = 0;
    if (c->total == 0)
        return VKS_OK;
    if (c->gpu)
        return run_gpu(c, &c->gpu, &c->models, 1, err);
    uint64_t per_pose = (uint64_t)(s->vertex_count ? s->vertex_count : 1) * 24;
    uint64_t chunk = CHUNK_BYTES / per_pose;
    if (chunk < 1)
        chunk = 1;
    if (chunk > c->total)
        chunk = c->total;
    size_t stream = (size_t)(chunk * per_pose / 2); /* bytes of one output stream of a chunk */
    vks_affine *locals = malloc(chunk * (s->node_count ? s->node_count : 1) * sizeof *locals);
    float *weights = c->weights && s->target_count ? malloc(chunk * s->target_count * sizeof *weights) : NULL;
    /* two buffer sets: the engine fills one while the writer drains the other */
    int sets = c->total > chunk ? 2 : 1;
    float *pos[2] = {NULL, NULL}, *nrm[2] = {NULL, NULL};
    vks_result r = locals && (weights || !c->weights || !s->target_count) ? VKS_OK : VKS_ERR_NOMEM;
    for (int k = 0; k < sets && r == VKS_OK; k++) {
        pos[k] = malloc(stream), nrm[k] = malloc(stream);
        if (!pos[k] || !nrm[k])
            r = VKS_ERR_NOMEM;
        else /* every page faulted in here, once */
            memset(pos[k], 0, stream), memset(nrm[k], 0, stream);
    }
    if (r != VKS_OK)
        r = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "deform", "out of memory for a chunk of %llu poses",
                          (unsigned long long)chunk);
    writer wr = {0};
    for (uint64_t first = 0, n_c = 0; r == VKS_OK && first < c->total; first += chunk, n_c++) {
        uint32_t n = (uint32_t)(c->total - first < chunk ? c->total - first : chunk);
        c->locals(c->user, first, n, locals);
        vks_deform_job job = {s, locals, n, pos[n_c % sets], nrm[n_c % sets], NULL};
        if (weights && c->weights(c->user, first, n, weights)) /* morph weights off their defaults */
            job.morph_weights = weights;
        double te = now_seconds();
        r = c->deform(c->user, first, &job, err);
        c->engine_s += now_seconds() - te;
        for (uint32_t k = 0; r == VKS_OK && c->finish && k < n; k++) {
            size_t at = vks_deform_index(s, k, 0) * 3;
            c->finish(c->user, first + k, job.positions + at, job.normals + at);
        }
        vks_result rw = writer_finish(&wr, err); /* the previous chunk is on its way out */
        if (r == VKS_OK)
            r = rw;
        if (r != VKS_OK)
            break;
        writer_start(&wr, &(chunk_write){c->bake, s, c->frames, pos[n_c % sets], nrm[n_c % sets], first, n, VKS_OK,
                                         {0}});
        progress(c, first + n);
    }
    vks_result rw = writer_finish(&wr, r == VKS_OK ? err : NULL);
    if (r == VKS_OK)
        r = rw;
    free(locals);
    free(weights);
    for (int k = 0; k < 2; k++)
        free(pos[k]), free(nrm[k]);
    return r;
}

vks_result vks_cli_chunks_run_split(vks_cli_chunks *c, vks_gpu *const *gpus, const vks_gpu_models *const *models,
                                    int count, vks_error *err)
{
    c->engine_s = 0;
    if (c->total == 0)
        return VKS_OK;
    if (count > VKS_CLI_CHUNKS_MAX_GPUS)
        count = VKS_CLI_CHUNKS_MAX_GPUS;
    return run_gpu(c, gpus, models, count, err);
}
