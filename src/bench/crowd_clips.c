/* The crowd bench's clip workload (bench_crowd.h): the same crowd playing two clips (each
 * instance its own clip, start and speed), posed two ways in one run, frame by frame:
 *   clips on the GPU:  the pose pass samples each instance's clip from keys uploaded once; a
 *                      frame uploads nothing (vks_crowd_run_frame at the frame's time);
 *   locals uploaded:   the host samples every instance's clip (the fast engine's float
 *                      sampler) and uploads its locals (vks_crowd_set_locals), then the frame.
 * Both alternate after a warm-up frame each, so they see the same machine. The deform pass is
 * the same in both: the difference is the pose pass with clip sampling against the pose pass
 * with uploaded locals, plus the host's sampling and upload. The same instances also play 1, 2
 * and 4 layers (issue 27), each its own crowd, frame by frame beside the two.
 * The five crowds live together where the device's memory holds them; where it does not (a
 * million instances of a 1k-vertex character are 24 GB of outputs a crowd: five do not fit an
 * H100's 80 GB), they run in groups, in that order, each group made, run frame by frame and
 * freed before the next: the headline crowd first, beside the host-sampled one where both fit. */
#include "bench/bench_crowd.h"

#include <stdlib.h>
#include <string.h>

static void play_of(uint32_t i, vks_instance *in)
{
    in->pose = VKS_POSE_CLIP;
    in->clip = i % 2;
    in->clip_start = 0.37f * (float)(i % 97);
    in->clip_speed = 0.8f + 0.2f * (float)(i % 3);
    in->clip_cycle = VKS_CYCLE_LOOP;
}

static const uint32_t layer_counts[3] = {1, 2, 4};

/* Instance i with n normal layers of the two clips. */
static void layers_of(uint32_t i, uint32_t n, vks_instance *in)
{
    memset(in, 0, sizeof *in);
    in->pose = VKS_POSE_LAYERS;
    in->layer_count = n;
    for (uint32_t k = 0; k < n; k++) {
        vks_instance_layer *y = &in->layers[k];
        y->clip = (i + k) % 2;
        y->start = 0.37f * (float)(i % 97) + 0.21f * (float)k;
        y->speed = 0.8f + 0.2f * (float)((i + k) % 3);
        y->cycle = VKS_CYCLE_LOOP;
        y->weight = 1.0f / (float)(k + 1);
    }
}

/* The workload's crowds and what the host samples with. */
typedef struct clip_run {
    const vks_skin *s;
    const vks_clip *const *clips;
    uint32_t instances, frames;
    vks_gpu_clips *gc;
    vks_crowd *on_gpu, *uploaded, *layered[3];
    vks_clip_binding bind[2];
    vks_instance *in, *lin;
    vks_affine *locals;
    /* sums over the steady frames */
    double sum[2], sum_gpu[2], sum_host, sum_pose, lsum[3], lsum_gpu[3], lsum_pose[3];
} clip_run;

/* What every crowd shares: the clips on the GPU and bound on the host, the instance tables. */
static vks_result prepare(vks_gpu *gpu, const vks_gpu_models *ms, clip_run *c, vks_error *err)
{
    c->in = calloc(c->instances, sizeof *c->in);
    c->lin = calloc(c->instances, sizeof *c->lin);
    c->locals = malloc((c->s->node_count ? c->s->node_count : 1) * sizeof *c->locals);
    if (!c->in || !c->lin || !c->locals)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "bench", "out of memory");
    vks_result r = vks_gpu_upload_clips(gpu, ms, &c->s, c->clips, 2, &c->gc, err);
    for (int k = 0; k < 2 && r == VKS_OK; k++)
        r = vks_clip_bind(c->clips[k], c->s, &c->bind[k], err);
    return r;
}

/* The crowds in the order they run: 0 clips on the GPU, 1 locals uploaded, 2..4 layered. */
enum { CROWDS = 5 };
static vks_crowd **crowd_at(clip_run *c, int which)
{
    return which == 0 ? &c->on_gpu : which == 1 ? &c->uploaded : &c->layered[which - 2];
}

/* Makes crowd `which` of the workload. */
static vks_result make_crowd(vks_gpu *gpu, const vks_gpu_models *ms, clip_run *c, int which, vks_error *err)
{
    for (uint32_t i = 0; i < c->instances; i++) {
        if (which < 2) {
            play_of(i, &c->in[i]);
            c->in[i].pose = which == 0 ? VKS_POSE_CLIP : VKS_POSE_LOCALS;
        } else {
            layers_of(i, layer_counts[which - 2], &c->lin[i]);
        }
    }
    vks_crowd_desc d = {0};
    d.models = ms, d.instance_count = c->instances, d.clips = c->gc;
    d.instances = which < 2 ? c->in : c->lin;
    d.frames = c->frames + 1; /* the warm-up and the frames it runs: what calibration weighs */
    return vks_crowd_create(gpu, &d, crowd_at(c, which), err);
}

/* About the device memory one crowd of the workload takes: both output streams, and each
 * instance's locals, worlds and skin matrices and its parameters. */
static uint64_t crowd_bytes(const clip_run *c)
{
    uint64_t mats = (c->s->node_count > c->s->bone_count ? c->s->node_count : c->s->bone_count) + 1;
    return (uint64_t)c->instances * ((uint64_t)c->s->vertex_count * 24 + mats * 48 * 3 + 512);
}

/* The crowds that may live together: three quarters of the device's largest device-local heap
 * (the rest for the models, clips and the driver), at least one. */
static int crowds_at_once(vks_gpu *gpu, const clip_run *c)
{
    const vks_gpu_device_info *dev = vks_gpu_device(gpu);
    uint64_t heap = 0;
    for (uint32_t h = 0; h < dev->heap_count && h < 8; h++)
        if (dev->heap_device_local[h] && dev->heap_size[h] > heap)
            heap = dev->heap_size[h];
    uint64_t each = crowd_bytes(c), fit = heap && each ? heap / 4 * 3 / each : CROWDS;
    return fit < 1 ? 1 : fit > CROWDS ? CROWDS : (int)fit;
}

/* The host's half of the uploaded path: every instance's clip sampled and its locals set. */
static vks_result sample_on_host(clip_run *c, float t, vks_error *err)
{
    vks_result r = VKS_OK;
    for (uint32_t i = 0; r == VKS_OK && i < c->instances; i++) {
        vks_instance p;
        play_of(i, &p);
        vks_clip_play play = {c->clips[p.clip], &c->bind[p.clip], p.clip_start, p.clip_speed, (int)p.clip_cycle};
        vks_clip_sample_locals(play.clip, play.binding, c->s, (float)vks_clip_play_time(&play, t), c->locals);
        r = vks_crowd_set_locals(c->uploaded, i, c->locals, err);
    }
    return r;
}

/* Frame f of every crowd; summed from frame 1 (frame 0 is the warm-up). */
static vks_result run_frame(clip_run *c, uint32_t f, vks_error *err)
{
    float t = (float)f / 30.0f;
    vks_crowd_stats a = {0}, b = {0}, ls[3] = {{0}};
    double host = 0;
    vks_result r = c->on_gpu ? vks_crowd_run_frame(c->on_gpu, t, &a, err) : VKS_OK;
    if (r == VKS_OK && c->uploaded) {
        double h0 = vks__bench_now_ms();
        r = sample_on_host(c, t, err);
        host = vks__bench_now_ms() - h0;
        if (r == VKS_OK)
            r = vks_crowd_run_frame(c->uploaded, t, &b, err);
    }
    for (int k = 0; k < 3 && r == VKS_OK; k++)
        if (c->layered[k])
            r = vks_crowd_run_frame(c->layered[k], t, &ls[k], err);
    if (f == 0 || r != VKS_OK) /* the crowds absent from this group add zeros */
        return r;
    for (int k = 0; k < 3; k++)
        c->lsum[k] += ls[k].wall_ms, c->lsum_gpu[k] += ls[k].gpu_ms, c->lsum_pose[k] += ls[k].pose_gpu_ms;
    c->sum_pose += a.pose_gpu_ms;
    c->sum[0] += a.wall_ms, c->sum_gpu[0] += a.gpu_ms;
    c->sum[1] += host + b.wall_ms, c->sum_gpu[1] += b.gpu_ms, c->sum_host += host;
    return r;
}

/* Per-frame means and the keys the GPU path uploaded once. */
static void summarise(const clip_run *c, vks_bench_crowd_result *out)
{
    double F = c->frames;
    out->gpu_sampled_ms = c->sum[0] / F, out->gpu_sampled_gpu_ms = c->sum_gpu[0] / F;
    out->uploaded_ms = c->sum[1] / F, out->uploaded_gpu_ms = c->sum_gpu[1] / F;
    out->uploaded_host_ms = c->sum_host / F;
    out->uploaded_bytes_per_frame = (double)c->instances * c->s->node_count * sizeof(vks_affine);
    uint64_t keys = 0;
    for (int k = 0; k < 2; k++)
        for (uint32_t t = 0; t < c->clips[k]->track_count; t++) {
            const vks_track *tr = &c->clips[k]->tracks[t];
            keys += tr->translation.key_count + tr->rotation.key_count + tr->scale.key_count +
                    tr->euler[0].key_count + tr->euler[1].key_count + tr->euler[2].key_count;
        }
    out->clip_keys = keys;
    for (int k = 0; k < 3; k++)
        out->layers_ms[k] = c->lsum[k] / F, out->layers_gpu_ms[k] = c->lsum_gpu[k] / F,
        out->layers_pose_gpu_ms[k] = c->lsum_pose[k] / F;
    out->gpu_sampled_pose_gpu_ms = c->sum_pose / F;
}

vks_result vks__bench_crowd_clips(vks_gpu *gpu, const vks_gpu_models *ms, const vks_skin *s,
                                  const vks_clip *const clips[2], vks_bench_crowd_result *out, vks_error *err)
{
    clip_run c = {0};
    c.s = s, c.clips = clips, c.instances = out->instances, c.frames = out->frames;
    vks_result r = prepare(gpu, ms, &c, err);
    int group = r == VKS_OK ? crowds_at_once(gpu, &c) : CROWDS;
    for (int first = 0; r == VKS_OK && first < CROWDS; first += group) {
        int end = first + group < CROWDS ? first + group : CROWDS;
        for (int k = first; k < end && r == VKS_OK; k++)
            r = make_crowd(gpu, ms, &c, k, err);
        for (uint32_t f = 0; r == VKS_OK && f <= c.frames; f++)
            r = run_frame(&c, f, err);
        for (int k = first; k < end; k++) {
            vks_crowd_destroy(*crowd_at(&c, k));
            *crowd_at(&c, k) = NULL;
        }
    }
    if (r == VKS_OK && c.frames)
        summarise(&c, out);
    vks_gpu_clips_free(c.gc);
    for (int k = 0; k < 2; k++)
        vks_clip_binding_free(&c.bind[k]);
    free(c.in), free(c.lin), free(c.locals);
    return r;
}
