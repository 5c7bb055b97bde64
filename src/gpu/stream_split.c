/* A stream split over several contexts (stream.h, SPLIT). Every context uploads the desc's clips
 * and runs a stream of its own over its share of the instances, on a thread of its
 * own; what the streams deliver goes to the consumer or the bake in turns, so that it arrives in
 * the order one context's stream gives. The GPU's numbers for an instance do not depend on the
 * chunk it is in (stream.h, THE RING), so only that order matters. The share differs with what
 * the order is bound by:
 *
 * vks_stream_run_split (validate): the NMSE sums are sequential, so the consumer must see the
 * instances and frames in the very order one stream gives: chunk by chunk, frame by frame within
 * each. Those chunks are planned here by the rule stream.h states (ORDER: consecutive instances
 * whose outputs for one frame fit chunk_bytes, at least one). Each context takes an even share
 * of the instances, one contiguous run (plan_runs); a run's ends cut the chunks they fall in
 * into pieces, each of which a context's stream takes as one chunk, so a frame of such a chunk
 * reaches the consumer as its pieces one after the other, the same instances in the same order,
 * and the sums are the same. Every delivery has its turn (chunk, frame, piece); a context's GPU
 * keeps its ring of frames in flight while it waits. Interleaving whole chunks would buy
 * nothing: the comparison, which is what takes the time, runs in order anyway, and chunks of
 * several models differ in size, so a context's interleaved chunks would not be cut again the
 * same way by its stream.
 *
 * vks_stream_to_bake_split (deform): one model, so every instance has the same size. The
 * instances go in pieces whose frames fit a context's share of the memory, dealt round-robin
 * (piece i to context i mod n), at most total / n instances a piece so that every context gets
 * one when there are as many instances; each context's stream cuts exactly its pieces
 * (chunk_bytes is a piece), so all the contexts deform and copy out their pieces at once, and a
 * piece is written, instance by instance, in its turn after the pieces before it: the bake gets
 * the writes vks_stream_to_bake makes on one context (a piece whose instance's frames do not fit
 * is one instance, written frame by frame as they come, also in its turn).
 *
 * No context's work reaches the consumer before every thread started (the gate); if one cannot
 * start, the others stop and the whole job runs on the first context, on this thread. */
#include "core/thread_start.h"
#include "vkskin/stream.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_CONTEXTS = VKS_SHARES_MAX };

typedef struct split split;

typedef struct part {
    split *s;
    int k;
    vks_gpu *gpu;
    vks_gpu_clips *gc;      /* the desc's clips uploaded on this context */
    vks_stream_desc whole;  /* the desc as this context runs it (the desc's numbering) */
    vks_stream_desc d;      /* the stream over this context's instances */
    uint32_t first;         /* validate: the first instance of this context's run, */
    uint32_t head;          /* its instances before the next chunk boundary when it starts
                               inside a chunk (streamed apart: one piece), else 0, */
    uint32_t at;            /* and the first instance of the stream running now */
    uint64_t instances;     /* delivered at frame 0: what this context did */
    float *pos, *nrm;       /* deform: one piece's frames, [instance][frame][vertex * 3] */
    vks_stream_stats st;
    double seconds;         /* from the split's start to this context's end */
    vks_result r;
    vks_error err;
    int caused;             /* this context stopped the others: its error is the run's */
} part;

struct split {
    int n;                  /* contexts sharing the work */
    int made;               /* parts set up (n may drop to 1 afterwards) */
    uint32_t frames;
    uint64_t total;         /* the desc's instances */
    double t0;              /* the split's start (seconds, monotonic) */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint64_t turn;          /* the delivery (validate: chunk, frame, piece) or piece (deform) due now */
    int open;               /* every thread started: deliveries may go out */
    int abort;              /* a context or the output failed: every waiter stops */
    /* validate: one device's chunks (plan_runs) */
    uint64_t chunks;
    uint64_t *bounds;       /* [chunks + 1]: each chunk's first instance, then the total */
    uint64_t *base;         /* the turn of each chunk's first piece at frame 0 */
    uint64_t *pieces;       /* the contexts' pieces a chunk is cut into (a whole chunk: 1) */
    /* deform */
    vks_bake *bake;
    uint32_t piece;         /* instances of a piece (the last may have fewer) */
    size_t per;             /* floats of one instance's positions at one frame */
    int direct;             /* one instance's frames do not fit: written as they come */
    vks_result out_r;       /* the bake's write failure */
    vks_error out_err;
    part parts[MAX_CONTEXTS];
};

/* ---- turns ---- */

/* Waits until the deliveries of `turn` may go out; 0 once the run stops. */
static int wait_turn(split *s, uint64_t turn)
{
    pthread_mutex_lock(&s->mu);
    while ((!s->open || s->turn != turn) && !s->abort)
        pthread_cond_wait(&s->cv, &s->mu);
    int go = !s->abort;
    pthread_mutex_unlock(&s->mu);
    return go;
}

static void pass_turn(split *s)
{
    pthread_mutex_lock(&s->mu);
    s->turn++;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

/* The contexts after a failed one would wait for its turns forever: every one stops. */
static void stop_all(part *p)
{
    split *s = p->s;
    pthread_mutex_lock(&s->mu);
    if (!s->abort)
        s->abort = 1, p->caused = 1;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

/* ---- validate: contiguous runs of one stream's chunks ---- */

/* Instance g of the desc (a list or a callback). */
static void desc_instance(const vks_stream_desc *d, uint32_t g, vks_instance *out)
{
    if (d->instances)
        *out = d->instances[g];
    else
        d->get_instance(d->user, g, out);
}

static void run_instance(void *user, uint32_t i, vks_instance *out)
{
    part *p = user;
    desc_instance(&p->whole, p->at + i, out);
}

/* The one-device chunk that holds instance g (the desc's numbering). */
static uint64_t chunk_of(const split *s, uint64_t g)
{
    uint64_t lo = 0, hi = s->chunks; /* bounds[lo] <= g < bounds[hi] */
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (s->bounds[mid] <= g)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The place of the piece starting at instance g among the pieces of chunk c: how many contexts'
 * runs start inside the chunk up to g (a piece always starts a run or the chunk). */
static uint64_t piece_in_chunk(const split *s, uint64_t c, uint64_t g)
{
    uint64_t sub = 0;
    for (int k = 0; k < s->n; k++) {
        const part *p = &s->parts[k];
        sub += p->d.instance_count && p->first > s->bounds[c] && p->first <= g;
    }
    return sub;
}

/* A frame of one of this context's chunks: a one-device chunk, or this context's piece of one;
 * it goes out in the turn one device's order gives it (chunk, then frame, then piece). */
static int run_deliver(void *user, const vks_stream_delivery *dv)
{
    part *p = user;
    split *s = p->s;
    vks_stream_delivery g = *dv;
    g.first += p->at; /* the desc's numbering */
    uint64_t c = chunk_of(s, g.first);
    uint64_t turn = s->base[c] + (uint64_t)dv->frame * s->pieces[c] + piece_in_chunk(s, c, g.first);
    if (s->n > 1 && !wait_turn(s, turn))
        return 1;
    if (p->whole.deliver(p->whole.user, &g)) {
        stop_all(p);
        return 1;
    }
    p->instances += dv->frame == 0 ? dv->count : 0;
    if (s->n > 1)
        pass_turn(s);
    return 0;
}

static uint64_t instance_bytes(const vks_stream_desc *d, uint32_t m)
{
    return (uint64_t)d->skins[m < d->model_count ? m : 0]->vertex_count * (d->no_normals ? 12 : 24);
}

/* The chunks one stream of the desc cuts (stream.h, ORDER); returns how many, and, with at,
 * their first instances (at[chunks] = the total). */
static uint64_t plan_chunks(const vks_stream_desc *d, uint64_t *at)
{
    uint64_t budget = d->chunk_bytes ? d->chunk_bytes : 64ull << 20, bytes = 0, chunks = 0, g = 0;
    for (; g < d->instance_count; g++) {
        vks_instance in;
        desc_instance(d, (uint32_t)g, &in);
        uint64_t b = instance_bytes(d, in.model);
        if (g == 0 || bytes + b > budget) { /* instance g starts a chunk */
            if (at)
                at[chunks] = g;
            chunks++, bytes = 0;
        }
        bytes += b;
    }
    if (at)
        at[chunks] = g;
    return chunks;
}

/* Which instances each context takes: context k of n the run [k T / n, (k + 1) T / n) of the
 * T instances, so each takes an even share of them whatever the chunks hold (dealing whole
 * chunks by their count gave 2 contexts over 3 chunks 14 + 44 instances), and every context
 * takes some when there are as many instances as contexts. The runs' ends cut the one-device
 * chunks they fall inside into pieces. A run that starts on a chunk boundary is one stream, which
 * cuts the same chunks (the rule is greedy from the boundary) and ends with its last chunk, or a
 * first piece of it, as one chunk; a run that starts inside a chunk first streams its piece of
 * that chunk apart (one stream chunk: it fits, the whole chunk did), then the rest from the
 * boundary. So a context's stream chunk is always a one-device chunk or a piece of one, and the
 * consumer gets them in one device's order: chunk by chunk, frame by frame within it, and
 * within a frame the chunk's pieces in order. */
static vks_result plan_runs(split *s, const vks_stream_desc *desc, vks_error *err)
{
    uint64_t m = plan_chunks(desc, NULL);
    s->bounds = malloc((m + 1) * sizeof *s->bounds);
    s->base = malloc((m + 1) * sizeof *s->base);
    s->pieces = calloc(m + 1, sizeof *s->pieces);
    if (!s->bounds || !s->base || !s->pieces)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/stream", "out of memory for the chunks");
    s->chunks = plan_chunks(desc, s->bounds);
    for (int k = 0; k < s->n; k++) {
        part *p = &s->parts[k];
        uint64_t a = s->total * (uint64_t)k / (uint64_t)s->n, b = s->total * (uint64_t)(k + 1) / (uint64_t)s->n;
        p->first = p->at = (uint32_t)a;
        p->d.instance_count = (uint32_t)(b - a);
        p->head = 0;
        p->d.get_instance = run_instance, p->d.deliver = run_deliver;
        if (b > a) {
            uint64_t c = chunk_of(s, a);
            if (a > s->bounds[c]) /* starts inside chunk c: one more piece of it */
                p->head = (uint32_t)((b < s->bounds[c + 1] ? b : s->bounds[c + 1]) - a), s->pieces[c]++;
        }
    }
    uint64_t turn = 0;
    for (uint64_t c = 0; c < m; c++) {
        s->pieces[c]++; /* the piece (or whole chunk) from its boundary, and those inside it */
        s->base[c] = turn;
        turn += s->pieces[c] * s->frames;
    }
    return VKS_OK;
}

/* ---- deform: pieces dealt round-robin, written in turns ---- */

static uint64_t piece_of(const part *p, uint32_t i)
{
    return (uint64_t)p->k + (uint64_t)(i / p->s->piece) * (uint64_t)p->s->n;
}

static void bake_instance(void *user, uint32_t i, vks_instance *out)
{
    part *p = user;
    uint64_t g = piece_of(p, i) * p->s->piece + i % p->s->piece;
    desc_instance(&p->whole, (uint32_t)g, out);
}

static int write_failed(part *p, vks_result r, const vks_error *e)
{
    split *s = p->s;
    pthread_mutex_lock(&s->mu);
    if (s->out_r == VKS_OK)
        s->out_r = r, s->out_err = *e;
    pthread_mutex_unlock(&s->mu);
    stop_all(p);
    return 1;
}

/* A frame of a piece (the stream's chunk is the piece): held, and at its last frame the piece
 * written instance by instance in its turn; direct, written in its turn as it comes. */
static int bake_deliver(void *user, const vks_stream_delivery *dv)
{
    part *p = user;
    split *s = p->s;
    uint64_t piece = piece_of(p, dv->first);
    uint32_t g0 = (uint32_t)(piece * s->piece);
    int last = dv->frame + 1 == s->frames;
    size_t per = s->per;
    vks_result r = VKS_OK;
    vks_error e = {0};
    if (s->direct) {
        if (!wait_turn(s, piece))
            return 1;
        for (uint32_t i = 0; i < dv->count && r == VKS_OK; i++)
            r = vks_bake_write(s->bake, g0 + i, dv->frame, dv->positions + i * per,
                               dv->normals ? dv->normals + i * per : NULL, &e);
    } else {
        for (uint32_t i = 0; i < dv->count; i++) {
            size_t at = ((size_t)i * s->frames + dv->frame) * per;
            memcpy(p->pos + at, dv->positions + i * per, per * sizeof *p->pos);
            if (p->nrm)
                memcpy(p->nrm + at, dv->normals + i * per, per * sizeof *p->nrm);
        }
        if (last && !wait_turn(s, piece))
            return 1;
        for (uint32_t i = 0; last && i < dv->count && r == VKS_OK; i++)
            for (uint32_t f = 0; f < s->frames && r == VKS_OK; f++) {
                size_t at = ((size_t)i * s->frames + f) * per;
                r = vks_bake_write(s->bake, g0 + i, f, p->pos + at, p->nrm ? p->nrm + at : NULL, &e);
            }
    }
    if (r != VKS_OK)
        return write_failed(p, r, &e);
    if (p->whole.deliver) { /* the desc's observer (progress), in the desc's numbering */
        vks_stream_delivery g = *dv;
        g.first = g0;
        if (p->whole.deliver(p->whole.user, &g)) {
            vks_error stop = {0};
            vks_error_set(&stop, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/stream", "stopped by the consumer");
            return write_failed(p, VKS_ERR_INVALID, &stop);
        }
    }
    p->instances += dv->frame == 0 ? dv->count : 0;
    if (last)
        pass_turn(s);
    return 0;
}

/* Pieces of as many instances as fit a context's share of the memory, and each context's. */
static vks_result plan_pieces(split *s, const vks_stream_desc *desc, uint64_t memory_bytes, vks_error *err)
{
    uint32_t vc = desc->skins[0]->vertex_count ? desc->skins[0]->vertex_count : 1;
    uint64_t share = (memory_bytes ? memory_bytes : 64ull << 20) / (uint64_t)s->n;
    uint64_t piece = share / ((uint64_t)s->frames * vc * 24); /* as vks_stream_to_bake holds them */
    s->direct = piece < 1;
    if (piece < 1)
        piece = 1;
    /* every context gets a piece when there are as many instances as contexts: a piece of at
       most total / n instances makes at least n of them */
    if (s->total >= (uint64_t)s->n && piece > s->total / (uint64_t)s->n)
        piece = s->total / (uint64_t)s->n;
    if (piece > s->total)
        piece = s->total;
    s->piece = (uint32_t)piece;
    s->per = (size_t)desc->skins[0]->vertex_count * 3;
    uint64_t pieces = (s->total + piece - 1) / piece;
    for (int k = 0; k < s->n; k++) {
        part *p = &s->parts[k];
        uint64_t mine = pieces > (uint64_t)k ? (pieces - (uint64_t)k + s->n - 1) / s->n : 0;
        uint64_t count = mine * piece;
        if (mine && (pieces - 1) % (uint64_t)s->n == (uint64_t)k) /* the last piece may be short */
            count -= pieces * piece - s->total;
        p->d.instance_count = (uint32_t)count;
        p->d.chunk_bytes = piece * instance_bytes(desc, 0); /* the stream's chunks are the pieces */
        p->d.get_instance = bake_instance, p->d.deliver = bake_deliver;
        if (s->direct || !count)
            continue;
        size_t floats = (size_t)piece * s->frames * s->per + 3;
        p->pos = malloc(floats * sizeof *p->pos);
        p->nrm = desc->no_normals ? NULL : malloc(floats * sizeof *p->nrm);
        if (!p->pos || (!desc->no_normals && !p->nrm))
            return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/stream", "out of memory for a chunk");
    }
    return VKS_OK;
}

/* ---- both ---- */

/* Every context: the clips uploaded, the desc as that context runs it. */
static vks_result begin(split *s, const vks_stream_desc *desc, vks_gpu *const *gpus,
                        const vks_gpu_models *const *models, int count, vks_error *err)
{
    s->n = count < 1 ? 1 : count > MAX_CONTEXTS ? MAX_CONTEXTS : count;
    s->frames = desc->frame_count ? desc->frame_count : 1;
    s->total = desc->instance_count;
    s->out_r = VKS_OK;
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    vks_result r = VKS_OK;
    for (int k = 0; k < s->n && r == VKS_OK; k++) {
        part *p = &s->parts[k];
        s->made = k + 1;
        p->s = s, p->k = k, p->r = VKS_OK;
        p->gpu = gpus[k];
        p->whole = *desc;
        p->whole.models = models[k];
        if (desc->clips && desc->clip_count) /* uploaded once on every context */
            r = vks_gpu_upload_clips(gpus[k], models[k], desc->skins, desc->clips, desc->clip_count, &p->gc, err);
        p->whole.gpu_clips = p->gc ? p->gc : k == 0 ? desc->gpu_clips : NULL;
        p->whole.clips = NULL, p->whole.clip_count = 0;
        p->d = p->whole;
        p->d.user = p;
    }
    return r;
}

static void end(split *s)
{
    for (int k = 0; k < s->made; k++) {
        part *p = &s->parts[k];
        vks_gpu_clips_free(p->gc);
        free(p->pos), free(p->nrm);
    }
    free(s->bounds), free(s->base), free(s->pieces);
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The context's stream; validate's run that starts inside a chunk as two (plan_runs). */
static void *part_main(void *arg)
{
    part *p = arg;
    vks_stream_desc d = p->d;
    uint32_t head = p->head, total = d.instance_count;
    if (head) {
        d.instance_count = head;
        p->r = vks_stream_run(p->gpu, &d, &p->st, &p->err);
    }
    if (total > head && (!head || p->r == VKS_OK)) {
        vks_stream_stats st;
        p->at = p->first + head, d.instance_count = total - head;
        p->r = vks_stream_run(p->gpu, &d, &st, &p->err);
        p->st.chunks += st.chunks, p->st.frames += st.frames, p->st.vertex_instances += st.vertex_instances;
        p->st.create_ms += st.create_ms, p->st.gpu_ms += st.gpu_ms, p->st.wait_ms += st.wait_ms;
        p->st.deliver_ms += st.deliver_ms;
    }
    p->seconds = now_s() - p->s->t0;
    if (p->r != VKS_OK)
        stop_all(p);
    return NULL;
}

/* Runs every context's stream; 0 when a thread could not be had (nothing went out: the gate
 * was never opened, and those started have stopped). */
static int run_parts(split *s)
{
    pthread_t th[MAX_CONTEXTS];
    int started[MAX_CONTEXTS] = {0}, all = 1;
    s->t0 = now_s();
    for (int k = 1; k < s->n && all; k++)
        if (s->parts[k].d.instance_count)
            all = started[k] = !vks__thread_start(&th[k], part_main, &s->parts[k],
                                                  "--device (clips, crowds): every instance on the first device");
    pthread_mutex_lock(&s->mu);
    if (all)
        s->open = 1;
    else
        s->abort = 1;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    if (all && s->parts[0].d.instance_count)
        part_main(&s->parts[0]);
    for (int k = 1; k < s->n; k++)
        if (started[k])
            pthread_join(th[k], NULL);
    return all;
}

/* No threads for the others: every part forgotten, the first context takes the whole job. */
static void reset_to_one(split *s)
{
    for (int k = 0; k < s->made; k++) {
        part *p = &s->parts[k];
        p->r = VKS_OK, p->caused = 0, p->instances = 0;
        memset(&p->st, 0, sizeof p->st);
        memset(&p->err, 0, sizeof p->err);
    }
    s->n = 1, s->turn = 0, s->abort = 0, s->open = 1;
    s->parts[0].first = s->parts[0].at = 0, s->parts[0].head = 0;
    s->parts[0].d.instance_count = (uint32_t)s->total;
}

/* The run's error: the output's, else the context's that stopped the others, else the first. */
static vks_result result(split *s, vks_error *err)
{
    if (s->out_r != VKS_OK) {
        if (err)
            *err = s->out_err;
        return s->out_r;
    }
    const part *pick = NULL;
    for (int k = 0; k < s->n && !pick; k++)
        if (s->parts[k].r != VKS_OK && s->parts[k].caused)
            pick = &s->parts[k];
    for (int k = 0; k < s->n && !pick; k++)
        if (s->parts[k].r != VKS_OK)
            pick = &s->parts[k];
    if (pick && err)
        *err = pick->err;
    return pick ? pick->r : VKS_OK;
}

static void report(const split *s, vks_context_shares *out)
{
    if (!out)
        return;
    vks_context_shares_begin(out, s->n, "instances", NULL);
    for (int k = 0; k < s->n; k++) {
        const part *p = &s->parts[k];
        vks_context_shares_set(out, k, vks_gpu_device(p->gpu)->name, p->instances, p->st.chunks, p->seconds);
    }
}

/* The contexts' stats, summed. */
static void sum_stats(const split *s, vks_stream_stats *st)
{
    if (!st)
        return;
    memset(st, 0, sizeof *st);
    for (int k = 0; k < s->n; k++) {
        const vks_stream_stats *ps = &s->parts[k].st;
        st->chunks += ps->chunks, st->frames += ps->frames, st->vertex_instances += ps->vertex_instances;
        st->create_ms += ps->create_ms, st->gpu_ms += ps->gpu_ms, st->wait_ms += ps->wait_ms;
        st->deliver_ms += ps->deliver_ms;
    }
}

static vks_result check(vks_gpu *const *gpus, const vks_gpu_models *const *models, int count,
                        const vks_stream_desc *d, vks_error *err)
{
    const char *bad = !gpus || !models || count < 1 ? "no contexts"
                      : !d || !d->skins || !d->model_count || !d->times || !d->frame_count ? "no skins or frame times"
                      : !d->instances && !d->get_instance                               ? "no instances"
                      : count > 1 && d->gpu_clips && !d->clips ? "uploaded clips belong to one context: give clips"
                                                                : NULL;
    for (int k = 0; !bad && k < count && k < MAX_CONTEXTS; k++)
        if (!gpus[k] || !models[k])
            bad = "a NULL context or models";
    return bad ? vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/stream", "%s", bad) : VKS_OK;
}

/* Every part on its context's thread, or, where the threads cannot be had, the first context
 * alone (its runs or pieces are then every one, in order); the first failure. */
static vks_result run_all(split *s, vks_error *err)
{
    if (!run_parts(s)) {
        reset_to_one(s);
        part_main(&s->parts[0]);
    }
    return result(s, err);
}

/* The split's sums and shares said, its state ended; r passed through. */
static vks_result finish(split *s, vks_stream_stats *stats, vks_context_shares *shares, vks_result r)
{
    sum_stats(s, stats);
    report(s, shares);
    end(s);
    free(s);
    return r;
}

vks_result vks_stream_run_split(vks_gpu *const *gpus, const vks_gpu_models *const *models, int count,
                                const vks_stream_desc *desc, vks_stream_stats *stats, vks_context_shares *shares,
                                vks_error *err)
{
    if (stats)
        memset(stats, 0, sizeof *stats);
    vks_result r = check(gpus, models, count, desc, err);
    if (r == VKS_OK && !desc->deliver)
        r = vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/stream", "no deliver callback");
    split *s = r == VKS_OK ? calloc(1, sizeof *s) : NULL;
    if (!s)
        return r != VKS_OK ? r : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/stream", "out of memory");
    r = begin(s, desc, gpus, models, count, err);
    if (r == VKS_OK) {
        r = plan_runs(s, desc, err);
        if (r == VKS_OK)
            r = run_all(s, err);
    }
    return finish(s, stats, shares, r);
}

vks_result vks_stream_to_bake_split(vks_gpu *const *gpus, const vks_gpu_models *const *models, int count,
                                    const vks_stream_desc *desc, vks_bake *bake, uint64_t memory_bytes,
                                    vks_stream_stats *stats, vks_context_shares *shares, vks_error *err)
{
    if (stats)
        memset(stats, 0, sizeof *stats);
    vks_result r = check(gpus, models, count, desc, err);
    if (r == VKS_OK && (desc->model_count != 1 || !bake))
        r = vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/stream", "a bake takes the instances of one model");
    split *s = r == VKS_OK ? calloc(1, sizeof *s) : NULL;
    if (!s)
        return r != VKS_OK ? r : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/stream", "out of memory");
    s->bake = bake;
    r = begin(s, desc, gpus, models, count, err);
    if (r == VKS_OK && s->total)
        r = plan_pieces(s, desc, memory_bytes, err);
    if (r == VKS_OK && s->total)
        r = run_all(s, err);
    return finish(s, stats, shares, r);
}
