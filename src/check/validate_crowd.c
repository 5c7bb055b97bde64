/* vks_validate_run's GPU-clip route (vkskin validate --clip / --crowd): the GPU samples the
 * clips itself, every input's instances streamed (stream.h) at every frame's time, one chunk
 * of instances after the other; as each frame of a chunk comes back the CPU reference samples
 * the same keys in double for the same instances (their roots applied) and the frame is
 * compared, and its readback checked against the GPU's reduction of it. Only a chunk's frame is
 * held in memory. */
#include <stdlib.h>
#include <string.h>

#include "check/validate_state.h"

typedef struct vcrowd {
    vrun *r;
    uint64_t *base; /* per input: its first instance of the stream */
} vcrowd;

static uint32_t input_of(const vcrowd *v, uint64_t g)
{
    return vks__validate_input_of(v->r, v->base, g);
}

/* Instance g of the stream: the input's instance, as its host plays it, of model m. */
static void stream_instance(void *user, uint32_t g, vks_instance *out)
{
    const vcrowd *v = user;
    uint32_t m = input_of(v, g);
    const vks_validate_input *in = &v->r->in[m];
    in->gpu_instance(in->gpu_instance_user, (uint32_t)(g - v->base[m]), out);
    out->model = m;
}

/* A frame of a chunk: each input's run of it compared, then the frame's readback check,
 * numbered in the order the frames came (a device that cannot reduce gives no figures: left
 * unchecked). */
static int deliver(void *user, const vks_stream_delivery *d)
{
    const vcrowd *v = user;
    vrun *r = v->r;
    if (vks__validate_compare_delivery(r, v->base, d, 1))
        return 1;
    uint32_t chunk = r->counts.crowd_deliveries++;
    if (d->gpu_figures) {
        char poses[48];
        snprintf(poses, sizeof poses, "frame %u, instances", d->frame);
        vks__validate_check_readback(&r->c, chunk, poses, d->gpu_figures);
    }
    vks__validate_next_chunk(&r->c);
    return 0;
}

/* Whether some instance is layered (the stream's crowds then take the layered tables). */
static int any_layers(const vcrowd *v, uint32_t total)
{
    for (uint32_t g = 0; g < total; g++) {
        vks_instance in;
        stream_instance((void *)v, g, &in);
        if (in.pose == VKS_POSE_LAYERS)
            return 1;
    }
    return 0;
}

vks_result vks__validate_crowd(vrun *r, vks_gpu *gpu, vks_error *err)
{
    const vks_validate_options *opt = r->opt;
    vks_validate_device *dev = &r->o->device;
    uint32_t frames = r->o->inputs[0].frames;
    vcrowd v = {r, calloc(r->count + 1, sizeof *v.base)};
    float *times = malloc(sizeof *times * frames);
    if (!v.base || !times) {
        free(v.base), free(times);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "validate", "out of memory");
    }
    uint64_t total = 0;
    for (uint32_t m = 0; m < r->count; m++)
        v.base[m] = total, total += r->o->inputs[m].poses / r->o->inputs[m].frames;
    for (uint32_t f = 0; f < frames; f++)
        times[f] = vks_pose_source_time(&r->in[0].poses, f); /* as the CPU reference times it */
    vks_stream_desc d = {0};
    d.models = r->ms, d.skins = r->skins, d.model_count = r->count;
    d.clips = opt->clips, d.clip_count = opt->clip_count, d.gpu_clips = opt->gpu_clips;
    d.get_instance = stream_instance, d.instance_count = (uint32_t)total, d.user = &v;
    d.times = times, d.frame_count = frames;
    d.chunk_bytes = opt->max_chunk_bytes;
    d.layers = !opt->run_stream && any_layers(&v, (uint32_t)total); /* run_stream: the host's to say */
    d.reduce = opt->readback_check >= 0; /* the readback check, frame by frame: the stream always copies */
    d.deliver = deliver;
    dev->reduced = d.reduce, dev->crowd_path = 1;
    r->c.reduce = d.reduce;
    vks__validate_next_chunk(&r->c);
    vks_gpu_figures_reset(&r->counts.gpu_figures);
    vks_stream_stats ss = {0};
    vks_result rc = total > UINT32_MAX ? vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "validate",
                                                        "%llu instances (at most %u)", (unsigned long long)total,
                                                        UINT32_MAX)
                                        : opt->run_stream ? opt->run_stream(opt->run_stream_user, gpu, &d, &ss, err)
                                                           : vks_stream_run(gpu, &d, &ss, err);
    dev->stats.chunks = ss.chunks, dev->stats.vertex_instances = ss.vertex_instances;
    dev->stats.pose_ms = ss.gpu_ms; /* the frames' time */
    r->c.reduce = 0;
    free(v.base), free(times);
    return rc;
}
