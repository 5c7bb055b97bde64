/* See poser_stream.h: the posers and their clips made into stream instances; the runs
 * themselves are the stream's (stream.h, SPLIT included). */
#include <stdlib.h>
#include <string.h>

#include "vkskin/poser_stream.h"

/* Poses done so far, to the job's progress when it has one. */
static void progress(const vks_poser_job *job, uint64_t poses)
{
    if (job->progress_func)
        job->progress_func(job->progress, poses, 0);
}

void vks_poser_clips_free(vks_poser_clips *c)
{
    vks_gpu_clips_free(c->gc);
    for (uint32_t m = 0; c->index && m < c->model_count; m++)
        free(c->index[m]);
    free(c->index);
    free(c->clips);
    memset(c, 0, sizeof *c);
}

vks_result vks_poser_clips_plan(const vks_poser *const *posers, uint32_t model_count, vks_poser_clips *out,
                                  vks_error *err)
{
    memset(out, 0, sizeof *out);
    uint32_t cap = 0;
    for (uint32_t m = 0; m < model_count; m++)
        cap += posers[m]->ref_count;
    out->model_count = model_count;
    out->index = calloc(model_count ? model_count : 1, sizeof *out->index);
    out->clips = malloc((cap ? cap : 1) * sizeof *out->clips);
    vks_result r = out->index && out->clips ? VKS_OK
                                            : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "clips", "out of memory");
    for (uint32_t m = 0; r == VKS_OK && m < model_count; m++) {
        const vks_poser *ps = posers[m];
        if (!(out->index[m] = malloc((ps->ref_count ? ps->ref_count : 1) * sizeof **out->index))) {
            r = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "clips", "out of memory");
            break;
        }
        for (uint32_t k = 0; k < ps->ref_count; k++) { /* one upload per distinct clip */
            int32_t at = -1;
            for (uint32_t c = 0; ps->clips[k] && c < out->count && at < 0; c++)
                if (out->clips[c] == ps->clips[k])
                    at = (int32_t)c;
            if (ps->clips[k] && at < 0)
                at = (int32_t)out->count, out->clips[out->count++] = ps->clips[k];
            out->index[m][k] = at;
        }
    }
    if (r != VKS_OK)
        vks_poser_clips_free(out);
    return r;
}

vks_result vks_poser_clips_upload(vks_gpu *gpu, const vks_gpu_models *ms, const vks_poser *const *posers,
                                    uint32_t model_count, vks_poser_clips *out, vks_error *err)
{
    vks_result r = vks_poser_clips_plan(posers, model_count, out, err);
    const vks_skin **skins = r == VKS_OK ? malloc((model_count ? model_count : 1) * sizeof *skins) : NULL;
    if (r == VKS_OK && !skins)
        r = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "clips", "out of memory");
    for (uint32_t m = 0; r == VKS_OK && m < model_count; m++)
        skins[m] = posers[m]->skin;
    if (r == VKS_OK && out->count)
        r = vks_gpu_upload_clips(gpu, ms, skins, out->clips, out->count, &out->gc, err);
    free(skins);
    if (r != VKS_OK)
        vks_poser_clips_free(out);
    return r;
}

/* Crowd entry ps->entries[j] as the library makes it (the poser checked it could), its clip
 * numbers turned from the run's clip sources into the uploaded clips. */
static void crowd_entry(const vks_poser_clips *c, const vks_poser *ps, uint32_t m, uint32_t j,
                        vks_instance *out)
{
    const int32_t *at = c->index[m]; /* every clip source the poser bound is uploaded */
    vks_crowd_spec_instance(ps->spec, ps->entries[j], &ps->binding, out, NULL);
    if (out->pose == VKS_POSE_CLIP)
        out->clip = (uint32_t)at[out->clip];
    for (uint32_t k = 0; k < out->layer_count; k++) {
        vks_instance_layer *y = &out->layers[k];
        y->clip = (uint32_t)at[y->clip];
        if (y->reference)
            y->reference = (uint32_t)at[y->reference - 1] + 1;
    }
}

void vks_poser_crowd_instance(const vks_poser_clips *c, const vks_poser *ps, uint32_t m, uint32_t j,
                            int with_root, vks_instance *out)
{
    if (ps->spec) {
        crowd_entry(c, ps, m, j, out);
    } else { /* --clip: source 0 at the instance's start */
        memset(out, 0, sizeof *out);
        out->pose = VKS_POSE_BIND;
        const vks_clip_play *pl = ps->source.play_count ? &ps->plays[j % ps->source.play_count] : NULL;
        if (pl && pl->clip && c->index[m][0] >= 0) {
            out->pose = VKS_POSE_CLIP;
            out->clip = (uint32_t)c->index[m][0];
            out->clip_start = pl->start, out->clip_speed = pl->speed, out->clip_cycle = (vks_cycle)pl->cycle;
        }
    }
    out->model = m;
    if (!with_root || !ps->roots) /* zeroed: the identity, as the crowd had it before roots */
        memset(&out->root, 0, sizeof out->root);
}

/* The stream's view of the job: instance g of the models one after the other. */
typedef struct crowd_stream {
    const vks_poser_job *job;
    uint64_t *base;          /* per model: its first instance of the job */
    const vks_skin **skins;
    float *times;            /* the job's frame times */
} crowd_stream;

static uint32_t model_of(const crowd_stream *cs, uint64_t g)
{
    uint32_t m = 0;
    while (m + 1 < cs->job->model_count && g >= cs->base[m + 1])
        m++;
    return m;
}

/* Instance g as the crowd plays it, straight into the stream's slot. */
static void stream_instance(void *user, uint32_t g, vks_instance *out)
{
    const crowd_stream *cs = user;
    uint32_t m = model_of(cs, g);
    vks_poser_crowd_instance(cs->job->clips, cs->job->posers[m], m, (uint32_t)(g - cs->base[m]), 1, out);
}

/* Hands a frame of a chunk to the consumer, model by model. */
static int consume_chunk(void *user, const vks_stream_delivery *d)
{
    const crowd_stream *cs = user;
    const vks_poser_job *job = cs->job;
    uint64_t g0 = d->first;
    uint32_t n = d->count, m = model_of(cs, g0);
    size_t at = 0;
    while (n) {
        const vks_poser *ps = job->posers[m];
        uint32_t first = (uint32_t)(g0 - cs->base[m]), count = ps->instances - first < n ? ps->instances - first : n;
        if (job->consume(job->user, m, first, count, d->frame, d->positions + at, d->normals ? d->normals + at : NULL))
            return 1;
        at += (size_t)count * ps->skin->vertex_count * 3;
        g0 += count, n -= count, m++;
    }
    if (job->delivered && job->delivered(job->user, d->first, d->count, d->frame, d->gpu_figures))
        return 1;
    progress(job, (uint64_t)d->first * job->frames + (uint64_t)d->count * (d->frame + 1));
    return 0;
}

/* Progress only: the bake takes the vertices (vks_stream_to_bake). */
static int progress_only(void *user, const vks_stream_delivery *d)
{
    const crowd_stream *cs = user;
    progress(cs->job, (uint64_t)d->first * cs->job->frames + (uint64_t)d->count * (d->frame + 1));
    return 0;
}

/* The job as a stream: its instances (by callback, d->get_instance, so memory stays bounded), frame times and chunk budget. The three arrays are allocated; free them with
 * stream_end. */
static vks_result stream_begin(const vks_poser_job *job, crowd_stream *cs, vks_stream_desc *d, vks_error *err)
{
    memset(d, 0, sizeof *d);
    cs->job = job;
    cs->base = calloc(job->model_count + 1, sizeof *cs->base);
    cs->skins = calloc(job->model_count + 1, sizeof *cs->skins);
    cs->times = malloc(sizeof *cs->times * (job->frames ? job->frames : 1));
    if (!cs->base || !cs->skins || !cs->times)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "crowd", "out of memory");
    uint64_t total = 0;
    int layers = 0; /* any layered instance: every chunk's crowd takes them (one crowd reused) */
    for (uint32_t m = 0; m < job->model_count; m++) {
        cs->base[m] = total, total += job->posers[m]->instances, cs->skins[m] = job->posers[m]->skin;
        layers |= job->posers[m]->layers != NULL;
    }
    if (total > UINT32_MAX)
        return vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "crowd", "%llu instances (at most %u)",
                             (unsigned long long)total, UINT32_MAX);
    for (uint32_t f = 0; f < job->frames; f++)
        cs->times[f] = vks_pose_source_time(&job->posers[0]->source, f); /* as the CPU reference times it */
    d->models = job->ms, d->skins = cs->skins, d->model_count = job->model_count;
    d->gpu_clips = job->clips ? job->clips->gc : NULL;
    d->get_instance = stream_instance, d->instance_count = (uint32_t)total;
    d->times = cs->times, d->frame_count = job->frames;
    d->no_normals = job->no_normals;
    d->chunk_bytes = job->chunk_bytes;
    d->layers = layers;
    d->reduce = job->reduce;
    d->deliver = consume_chunk, d->user = cs;
    return VKS_OK;
}

static void stream_end(crowd_stream *cs)
{
    free(cs->base), free(cs->skins), free(cs->times);
}

vks_result vks_poser_run(const vks_poser_job *job, vks_poser_stats *st, vks_error *err)
{
    vks_poser_stats local = {0};
    if (!st)
        st = &local;
    memset(st, 0, sizeof *st);
    crowd_stream cs = {0};
    vks_stream_desc d;
    vks_stream_stats ss = {0};
    vks_result r = stream_begin(job, &cs, &d, err);
    if (r == VKS_OK)
        r = vks_stream_run(job->gpu, &d, &ss, err);
    st->chunks = ss.chunks, st->vertex_instances = ss.vertex_instances, st->gpu_ms = ss.gpu_ms;
    st->read_ms = ss.wait_ms, st->create_ms = ss.create_ms;
    stream_end(&cs);
    return r;
}

vks_result vks_poser_run_to_bake(const vks_poser_job *job, vks_bake *bake, uint64_t memory_bytes, vks_error *err)
{
    crowd_stream cs = {0};
    vks_stream_desc d;
    vks_result r = stream_begin(job, &cs, &d, err);
    d.deliver = progress_only;
    d.reduce = 0; /* the bake writes what it gets: no readback check to pay for */
    if (r == VKS_OK)
        r = vks_stream_to_bake(job->gpu, &d, bake, memory_bytes, NULL, err);
    stream_end(&cs);
    return r;
}

/* ---- across several contexts: the library's split behind the stream (stream.h, SPLIT) ---- */

/* The job as a stream for the split: its clips planned (each context uploads them itself). */
static vks_result split_begin(const vks_poser_job *job, vks_gpu *const *gpus, const vks_gpu_models *const *models,
                              vks_poser_clips *plan, vks_poser_job *j, crowd_stream *cs, vks_stream_desc *d,
                              vks_error *err)
{
    memset(cs, 0, sizeof *cs);
    vks_result r = vks_poser_clips_plan(job->posers, job->model_count, plan, err);
    *j = *job;
    j->gpu = gpus[0], j->ms = models[0], j->clips = plan;
    if (r == VKS_OK)
        r = stream_begin(j, cs, d, err);
    d->gpu_clips = NULL, d->clips = plan->clips, d->clip_count = plan->count;
    return r;
}

static void split_said(const vks_context_shares *sh, vks_poser_split_stats *out)
{
    if (!out)
        return;
    memset(out, 0, sizeof *out);
    out->contexts = sh->contexts;
    out->shares = *sh;
    for (int k = 0; k < sh->contexts && k < VKS_POSER_MAX_CONTEXTS; k++)
        out->instances[k] = sh->s[k].count;
}

vks_result vks_poser_run_split(const vks_poser_job *job, vks_gpu *const *gpus,
                                   const vks_gpu_models *const *models, int count, vks_poser_stats *st,
                                   vks_poser_split_stats *split, vks_error *err)
{
    vks_poser_stats local;
    if (!st)
        st = &local;
    memset(st, 0, sizeof *st);
    vks_poser_clips plan;
    vks_poser_job j;
    crowd_stream cs;
    vks_stream_desc d;
    vks_stream_stats ss = {0};
    vks_context_shares sh = {0};
    vks_result r = split_begin(job, gpus, models, &plan, &j, &cs, &d, err);
    j.progress_func = NULL; /* the contexts' deliveries come in one device's order, not its progress */
    if (r == VKS_OK)
        r = vks_stream_run_split(gpus, models, count, &d, &ss, &sh, err);
    st->chunks = ss.chunks, st->vertex_instances = ss.vertex_instances, st->gpu_ms = ss.gpu_ms;
    st->read_ms = ss.wait_ms, st->create_ms = ss.create_ms;
    split_said(&sh, split);
    stream_end(&cs);
    vks_poser_clips_free(&plan);
    return r;
}

/* The split bake's progress: every context's poses as they are taken (any thread). */
static int progress_add(void *user, const vks_stream_delivery *d)
{
    const crowd_stream *cs = user;
    if (cs->job->progress_func)
        cs->job->progress_func(cs->job->progress, d->count, 1);
    return 0;
}

vks_result vks_poser_run_to_bake_split(const vks_poser_job *job, vks_gpu *const *gpus,
                                       const vks_gpu_models *const *models, int count, vks_bake *bake,
                                       uint64_t memory_bytes, vks_poser_split_stats *split, vks_error *err)
{
    if (job->model_count != 1)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "crowd", "a bake takes the instances of one model");
    vks_poser_clips plan;
    vks_poser_job j;
    crowd_stream cs;
    vks_stream_desc d;
    vks_context_shares sh = {0};
    vks_result r = split_begin(job, gpus, models, &plan, &j, &cs, &d, err);
    d.deliver = progress_add;
    d.reduce = 0; /* the bake writes what it gets: no readback check to pay for */
    if (r == VKS_OK)
        r = vks_stream_to_bake_split(gpus, models, count, &d, bake, memory_bytes, NULL, &sh, err);
    split_said(&sh, split);
    stream_end(&cs);
    vks_poser_clips_free(&plan);
    return r;
}
