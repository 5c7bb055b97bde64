/* See cli_crowd.h. */
#include "cli_crowd.h"
#include "cli_progress.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

void vks_cli_gpu_clips_free(vks_cli_gpu_clips *c)
{
    vks_gpu_clips_free(c->gc);
    for (uint32_t m = 0; c->index && m < c->model_count; m++)
        free(c->index[m]);
    free(c->index);
    free(c->clips);
    memset(c, 0, sizeof *c);
}

vks_result vks_cli_gpu_clips_upload(vks_gpu *gpu, const vks_gpu_models *ms, const vks_cli_poser *const *posers,
                                    uint32_t model_count, vks_cli_gpu_clips *out, vks_error *err)
{
    memset(out, 0, sizeof *out);
    uint32_t cap = 0;
    for (uint32_t m = 0; m < model_count; m++)
        cap += posers[m]->ref_count;
    out->model_count = model_count;
    out->index = calloc(model_count ? model_count : 1, sizeof *out->index);
    out->clips = malloc((cap ? cap : 1) * sizeof *out->clips);
    const vks_skin **skins = malloc((model_count ? model_count : 1) * sizeof *skins);
    vks_result r = out->index && out->clips && skins ? VKS_OK
                                                     : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "clips",
                                                                     "out of memory");
    for (uint32_t m = 0; r == VKS_OK && m < model_count; m++) {
        const vks_cli_poser *ps = posers[m];
        skins[m] = ps->skin;
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
    if (r == VKS_OK && out->count)
        r = vks_gpu_upload_clips(gpu, ms, skins, out->clips, out->count, &out->gc, err);
    free(skins);
    if (r != VKS_OK)
        vks_cli_gpu_clips_free(out);
    return r;
}

void vks_cli_crowd_instance(const vks_cli_gpu_clips *c, const vks_cli_poser *ps, uint32_t m, uint32_t j,
                            int with_root, vks_crowd_instance *out)
{
    memset(out, 0, sizeof *out);
    out->model = m;
    out->pose = VKS_CROWD_POSE_LOCALS; /* no clip: the bind locals the crowd starts from */
    const vks_clip_play *pl = ps->source.play_count ? &ps->plays[j % ps->source.play_count] : NULL;
    int32_t ref = ps->refs ? ps->refs[j] : 0;
    if (pl && pl->clip && ref >= 0 && c->index[m][ref] >= 0) {
        out->pose = VKS_CROWD_POSE_CLIP;
        out->clip = (uint32_t)c->index[m][ref];
        out->clip_start = pl->start;
        out->clip_speed = pl->speed;
        out->clip_cycle = (vks_cycle)pl->cycle;
    }
    const vks_clip_layers *ly = ps->layers && j < ps->instances ? &ps->layers[j] : NULL;
    if (ly && ly->count) { /* every layer's clip is uploaded: the poser bound them all */
        out->pose = VKS_CROWD_POSE_LAYERS;
        out->layer_count = ly->count;
        out->fade_start = ly->fade_start, out->fade_duration = ly->fade_duration;
        out->root_motion = ly->root_motion;
        for (uint32_t k = 0; k < ly->count; k++) {
            const vks_clip_layer *y = &ly->layer[k];
            vks_crowd_layer *o = &out->layers[k];
            o->clip = (uint32_t)c->index[m][ps->layer_refs[(size_t)j * VKS_MAX_LAYERS + k]];
            o->start = y->play.start, o->speed = y->play.speed, o->cycle = (vks_cycle)y->play.cycle;
            o->weight = y->weight, o->mode = (vks_layer_mode)y->mode, o->fade = (vks_layer_fade)y->fade;
            o->mask = y->mask;
        }
    }
    if (with_root && ps->roots)
        out->root = ps->roots[j];
}

/* The instances of one chunk, from global instance g0 on (models one after the other). */
static void chunk_instances(const vks_cli_crowd_job *job, uint64_t g0, uint32_t n, vks_crowd_instance *in)
{
    uint32_t m = 0;
    uint64_t base = 0;
    while (g0 >= base + job->posers[m]->instances)
        base += job->posers[m]->instances, m++;
    for (uint32_t k = 0; k < n; k++) {
        uint64_t g = g0 + k;
        while (g >= base + job->posers[m]->instances)
            base += job->posers[m]->instances, m++;
        vks_cli_crowd_instance(job->clips, job->posers[m], m, (uint32_t)(g - base), 1, &in[k]);
    }
}

/* Hands a frame of the chunk to the consumer, model by model. */
static int consume_chunk(const vks_cli_crowd_job *job, uint64_t g0, uint32_t n, uint32_t f, const float *pos,
                         const float *nrm)
{
    uint32_t m = 0;
    uint64_t base = 0;
    size_t at = 0;
    while (n) {
        const vks_cli_poser *ps = job->posers[m];
        if (g0 >= base + ps->instances) {
            base += ps->instances, m++;
            continue;
        }
        uint32_t first = (uint32_t)(g0 - base), count = ps->instances - first < n ? ps->instances - first : n;
        if (job->consume(job->user, m, first, count, f, pos + at, nrm ? nrm + at : NULL))
            return 1;
        at += (size_t)count * ps->skin->vertex_count * 3;
        g0 += count, n -= count;
    }
    return 0;
}

vks_result vks_cli_crowd_run(const vks_cli_crowd_job *job, vks_cli_crowd_stats *st, vks_error *err)
{
    vks_cli_crowd_stats local = {0};
    if (!st)
        st = &local;
    memset(st, 0, sizeof *st);
    uint64_t budget = job->chunk_bytes ? job->chunk_bytes : 64ull << 20, total = 0;
    int layers = 0; /* any layered instance: every chunk's crowd takes them (one crowd reused) */
    for (uint32_t m = 0; m < job->model_count; m++)
        total += job->posers[m]->instances, layers |= job->posers[m]->layers != NULL;
    size_t floats_cap = 0;
    float *pos = NULL, *nrm = NULL;
    vks_crowd_instance *inst = NULL;
    uint32_t inst_cap = 0, *models = NULL, crowd_n = 0;
    vks_crowd *crowd = NULL; /* kept from chunk to chunk while the chunks have the same models */
    vks_result r = VKS_OK;
    uint64_t g0 = 0;
    uint32_t m = 0;
    uint64_t base = 0;
    while (g0 < total && r == VKS_OK) {
        /* the chunk: instances while their outputs fit the budget (at least one) */
        uint32_t n = 0;
        uint64_t bytes = 0;
        size_t floats = 0;
        uint32_t mm = m;
        uint64_t bb = base;
        for (uint64_t g = g0; g < total; g++) {
            while (g >= bb + job->posers[mm]->instances)
                bb += job->posers[mm]->instances, mm++;
            uint64_t v = job->posers[mm]->skin->vertex_count, b = v * (job->no_normals ? 12 : 24);
            if (n && (bytes + b > budget || n == UINT32_MAX))
                break;
            bytes += b, floats += (size_t)v * 3, n++;
        }
        if (floats + 3 > floats_cap) {
            free(pos), free(nrm);
            floats_cap = floats + 3;
            pos = malloc(floats_cap * sizeof *pos);
            nrm = job->no_normals ? NULL : malloc(floats_cap * sizeof *nrm);
        }
        if (n > inst_cap) {
            free(inst), free(models);
            inst = malloc((size_t)n * sizeof *inst);
            models = malloc((size_t)n * sizeof *models);
            inst_cap = inst && models ? n : 0;
        }
        if (!pos || (!job->no_normals && !nrm) || !inst || !models) {
            r = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "crowd", "out of memory for a chunk of %u instances", n);
            break;
        }
        chunk_instances(job, g0, n, inst);
        /* the previous chunk's crowd takes these instances when its slots hold the same models
           (a crowd's buffers are sized for its models): no new buffers, no new pages */
        int reuse = crowd && crowd_n == n;
        for (uint32_t k = 0; reuse && k < n; k++)
            reuse = models[k] == inst[k].model;
        double t0 = now_ms();
        for (uint32_t k = 0; reuse && r == VKS_OK && k < n; k++)
            r = vks_crowd_set_instance(crowd, k, &inst[k], err);
        if (!reuse && r == VKS_OK) {
            vks_crowd_destroy(crowd);
            crowd = NULL;
            vks_crowd_desc d = {0};
            d.models = job->ms;
            d.instances = inst;
            d.instance_count = n;
            d.clips = job->clips ? job->clips->gc : NULL;
            d.no_normals = job->no_normals;
            d.layers = layers;
            r = vks_crowd_create(job->gpu, &d, &crowd, err);
            crowd_n = n;
            for (uint32_t k = 0; k < n; k++)
                models[k] = inst[k].model;
        }
        st->create_ms += now_ms() - t0;
        for (uint32_t f = 0; r == VKS_OK && f < job->frames; f++) {
            vks_crowd_stats cs = {0};
            float time = vks_pose_source_time(&job->posers[0]->source, f); /* as the CPU reference times it */
            r = vks_crowd_run_frame(crowd, time, &cs, err);
            double t1 = now_ms();
            if (r == VKS_OK)
                r = vks_crowd_read(crowd, 0, n, pos, nrm, err);
            st->read_ms += now_ms() - t1;
            st->gpu_ms += cs.gpu_ms;
            if (r == VKS_OK && consume_chunk(job, g0, n, f, pos, nrm))
                r = vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "crowd", "stopped by the consumer");
            st->vertex_instances += floats / 3;
            if (job->progress && r == VKS_OK)
                vks_cli_progress_set(job->progress, g0 * job->frames + (uint64_t)n * (f + 1), NULL);
        }
        st->chunks++;
        g0 += n, m = mm, base = bb;
        while (m < job->model_count && g0 >= base + job->posers[m]->instances)
            base += job->posers[m]->instances, m++;
    }
    vks_crowd_destroy(crowd);
    free(pos), free(nrm), free(inst), free(models);
    return r;
}
