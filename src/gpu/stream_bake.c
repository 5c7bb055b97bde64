/* vks_stream_to_bake (stream.h): a stream written to a bake, whose writes come instance by
 * instance while the stream delivers chunk by chunk, frame by frame. A chunk's frames are held
 * until its last one arrives, then written instance-major; an instance whose frames alone
 * exceed the memory goes in a chunk of its own and is written as it comes. */
#include "vkskin/stream.h"

#include <stdlib.h>
#include <string.h>

typedef struct bake_sink {
    vks_bake *bake;
    const vks_stream_desc *outer; /* the caller's desc: its deliver observes */
    uint32_t frames;
    size_t per;                   /* floats per instance and frame */
    int direct;                   /* one instance a chunk: written as delivered */
    float *pos, *nrm;             /* held frames: [instance in chunk][frame][per] */
    vks_result result;
    vks_error err;
} bake_sink;

static int take(void *user, const vks_stream_delivery *dv)
{
    bake_sink *k = user;
    for (uint32_t i = 0; k->direct && i < dv->count && k->result == VKS_OK; i++)
        k->result = vks_bake_write(k->bake, dv->first + i, dv->frame, dv->positions + (size_t)i * k->per,
                                   dv->normals ? dv->normals + (size_t)i * k->per : NULL, &k->err);
    for (uint32_t i = 0; !k->direct && i < dv->count; i++) {
        size_t at = ((size_t)i * k->frames + dv->frame) * k->per;
        memcpy(k->pos + at, dv->positions + (size_t)i * k->per, k->per * sizeof *k->pos);
        if (k->nrm)
            memcpy(k->nrm + at, dv->normals + (size_t)i * k->per, k->per * sizeof *k->nrm);
    }
    for (uint32_t i = 0; !k->direct && dv->frame + 1 == k->frames && i < dv->count && k->result == VKS_OK; i++)
        for (uint32_t g = 0; g < k->frames && k->result == VKS_OK; g++) {
            size_t at = ((size_t)i * k->frames + g) * k->per;
            k->result = vks_bake_write(k->bake, dv->first + i, g, k->pos + at, k->nrm ? k->nrm + at : NULL, &k->err);
        }
    if (k->result != VKS_OK)
        return 1;
    return k->outer->deliver ? k->outer->deliver(k->outer->user, dv) : 0;
}

static void pass_instance(void *user, uint32_t i, vks_instance *out)
{
    const bake_sink *k = user;
    k->outer->get_instance(k->outer->user, i, out);
}

/* The model of instance 0, which sizes the held frames; UINT32_MAX when there is none. */
static uint32_t first_model(const vks_stream_desc *desc)
{
    if (!desc->instances && !desc->get_instance)
        return UINT32_MAX;
    vks_instance first = {0};
    if (desc->instances)
        first = desc->instances[0];
    else
        desc->get_instance(desc->user, 0, &first);
    return first.model;
}

vks_result vks_stream_to_bake(vks_gpu *gpu, const vks_stream_desc *desc, vks_bake *bake, uint64_t memory_bytes,
                              vks_stream_stats *stats, vks_error *err)
{
    uint32_t model = desc && desc->instance_count ? first_model(desc) : UINT32_MAX;
    if (!desc || !bake || !desc->skins || !desc->model_count || !desc->instance_count || model == UINT32_MAX)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/stream", "no desc, bake, skins or instances");
    if (model >= desc->model_count || !desc->skins[model])
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/stream", "instance 0: model %u of %u",
                             model, desc->model_count);
    const vks_skin *s = desc->skins[model];
    bake_sink k = {bake, desc, desc->frame_count ? desc->frame_count : 1, (size_t)s->vertex_count * 3, 0, NULL,
                   NULL, VKS_OK, {0}};
    uint64_t budget = memory_bytes ? memory_bytes : 64ull << 20;
    uint64_t per_frame = (uint64_t)(s->vertex_count ? s->vertex_count : 1) * 24;
    uint64_t chunk = budget / ((uint64_t)k.frames * per_frame); /* instances whose frames fit */
    k.direct = chunk < 1;
    if (!k.direct) {
        size_t floats = (size_t)(chunk < desc->instance_count ? chunk : desc->instance_count) * k.frames * k.per;
        k.pos = malloc((floats + 3) * sizeof *k.pos);
        k.nrm = desc->no_normals ? NULL : malloc((floats + 3) * sizeof *k.nrm);
        if (!k.pos || (!desc->no_normals && !k.nrm)) {
            free(k.pos), free(k.nrm);
            return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/stream", "out of memory for a chunk");
        }
    }
    vks_stream_desc d = *desc;
    d.chunk_bytes = k.direct ? per_frame : chunk * per_frame;
    d.deliver = take;
    d.user = &k;
    /* the caller's instances, a callback given the caller's user */
    if (!desc->instances)
        d.get_instance = pass_instance;
    vks_result r = vks_stream_run(gpu, &d, stats, err);
    if (k.result != VKS_OK) { /* the output failed: its error, not the stop it caused */
        if (err)
            *err = k.err;
        r = k.result;
    }
    free(k.pos), free(k.nrm);
    return r;
}
