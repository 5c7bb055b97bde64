/* bench --crowd's clip workload: the same crowd playing the generator's walk and wave (each
 * instance its own clip, start and speed), posed two ways in one run, frame by frame:
 *   clips on the GPU:  the pose pass samples each instance's clip from keys uploaded once; a
 *                      frame uploads nothing (vks_crowd_run_frame at the frame's time);
 *   locals uploaded:   the host samples every instance's clip (the fast engine's float
 *                      sampler) and uploads its locals (vks_crowd_set_locals), then the frame.
 * Both alternate after a warm-up frame each, so they see the same machine. The deform pass is
 * the same in both: the difference is the pose pass with clip sampling against the pose pass
 * with uploaded locals, plus the host's sampling and upload. The same instances also play 1, 2
 * and 4 layers (issue 27), each its own crowd, frame by frame beside the two. */
#include "bench_clips.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "character_clips.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void play_of(uint32_t i, vks_instance *in)
{
    in->pose = VKS_POSE_CLIP;
    in->clip = i % 2;
    in->clip_start = 0.37f * (float)(i % 97);
    in->clip_speed = 0.8f + 0.2f * (float)(i % 3);
    in->clip_cycle = VKS_CYCLE_LOOP;
}

static const uint32_t layer_counts[3] = {1, 2, 4};

/* Instance i with n normal layers of walk and wave. */
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

vks_result vks_bench_clips(vks_gpu *gpu, const vks_gpu_models *ms, const vks_skin *s, uint32_t instances,
                           uint32_t frames, vks_bench_clip_result *out, vks_error *err)
{
    memset(out, 0, sizeof *out);
    vks_clip_set *set = NULL;
    vks_gpu_clips *gc = NULL;
    vks_crowd *on_gpu = NULL, *uploaded = NULL;
    vks_clip_binding bind[2] = {{0}, {0}};
    vks_instance *in = calloc(instances, sizeof *in);
    vks_affine *locals = malloc((s->node_count ? s->node_count : 1) * sizeof *locals);
    vks_result r = in && locals ? vks_gen_clips(s, &set, err)
                                : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "bench", "out of memory");
    const vks_clip *clips[2] = {set ? &set->clips[0] : NULL, set ? &set->clips[1] : NULL};
    if (r == VKS_OK)
        r = vks_gpu_upload_clips(gpu, ms, &s, clips, 2, &gc, err);
    for (int c = 0; c < 2 && r == VKS_OK; c++)
        r = vks_clip_bind(clips[c], s, &bind[c], err);
    for (uint32_t i = 0; r == VKS_OK && i < instances; i++)
        play_of(i, &in[i]);
    vks_crowd_desc d = {0};
    d.models = ms, d.instances = in, d.instance_count = instances, d.clips = gc;
    if (r == VKS_OK)
        r = vks_crowd_create(gpu, &d, &on_gpu, err);
    for (uint32_t i = 0; r == VKS_OK && i < instances; i++)
        in[i].pose = VKS_POSE_LOCALS;
    if (r == VKS_OK)
        r = vks_crowd_create(gpu, &d, &uploaded, err);
    vks_crowd *layered[3] = {NULL, NULL, NULL};
    vks_instance *lin = calloc(instances, sizeof *lin);
    if (r == VKS_OK && !lin)
        r = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "bench", "out of memory");
    for (int c = 0; c < 3 && r == VKS_OK; c++) {
        for (uint32_t i = 0; i < instances; i++)
            layers_of(i, layer_counts[c], &lin[i]);
        vks_crowd_desc ld = d;
        ld.instances = lin;
        r = vks_crowd_create(gpu, &ld, &layered[c], err);
    }
    double sum[2] = {0, 0}, sum_gpu[2] = {0, 0}, sum_host = 0, lsum[3] = {0, 0, 0}, lsum_gpu[3] = {0, 0, 0};
    double lsum_pose[3] = {0, 0, 0}, sum_pose = 0;
    for (uint32_t f = 0; r == VKS_OK && f <= frames; f++) {
        float t = (float)f / 30.0f;
        vks_crowd_stats a, b;
        r = vks_crowd_run_frame(on_gpu, t, &a, err);
        double h0 = now_ms();
        for (uint32_t i = 0; r == VKS_OK && i < instances; i++) {
            vks_instance p;
            play_of(i, &p);
            vks_clip_play play = {clips[p.clip], &bind[p.clip], p.clip_start, p.clip_speed, (int)p.clip_cycle};
            vks_clip_sample_locals(play.clip, play.binding, s, (float)vks_clip_play_time(&play, t), locals);
            r = vks_crowd_set_locals(uploaded, i, locals, err);
        }
        double host = now_ms() - h0;
        if (r == VKS_OK)
            r = vks_crowd_run_frame(uploaded, t, &b, err);
        vks_crowd_stats ls[3];
        for (int c = 0; c < 3 && r == VKS_OK; c++)
            r = vks_crowd_run_frame(layered[c], t, &ls[c], err);
        if (f == 0 || r != VKS_OK)
            continue; /* warm-up */
        for (int c = 0; c < 3; c++)
            lsum[c] += ls[c].wall_ms, lsum_gpu[c] += ls[c].gpu_ms, lsum_pose[c] += ls[c].pose_gpu_ms;
        sum_pose += a.pose_gpu_ms;
        sum[0] += a.wall_ms, sum_gpu[0] += a.gpu_ms;
        sum[1] += host + b.wall_ms, sum_gpu[1] += b.gpu_ms, sum_host += host;
    }
    if (r == VKS_OK && frames) {
        out->gpu_sampled_ms = sum[0] / frames, out->gpu_sampled_gpu_ms = sum_gpu[0] / frames;
        out->uploaded_ms = sum[1] / frames, out->uploaded_gpu_ms = sum_gpu[1] / frames;
        out->uploaded_host_ms = sum_host / frames;
        out->uploaded_bytes_per_frame = (double)instances * s->node_count * sizeof(vks_affine);
        uint64_t keys = 0;
        for (int c = 0; c < 2; c++)
            for (uint32_t k = 0; k < clips[c]->track_count; k++) {
                const vks_track *tr = &clips[c]->tracks[k];
                keys += tr->translation.key_count + tr->rotation.key_count + tr->scale.key_count +
                        tr->euler[0].key_count + tr->euler[1].key_count + tr->euler[2].key_count;
            }
        out->clip_keys = keys;
        for (int c = 0; c < 3; c++)
            out->layers_ms[c] = lsum[c] / frames, out->layers_gpu_ms[c] = lsum_gpu[c] / frames,
            out->layers_pose_gpu_ms[c] = lsum_pose[c] / frames;
        out->gpu_sampled_pose_gpu_ms = sum_pose / frames;
    }
    for (int c = 0; c < 3; c++)
        vks_crowd_destroy(layered[c]);
    free(lin);
    vks_crowd_destroy(on_gpu), vks_crowd_destroy(uploaded);
    vks_gpu_clips_free(gc);
    for (int c = 0; c < 2; c++)
        vks_clip_binding_free(&bind[c]);
    vks_clip_set_free(set);
    free(in), free(locals);
    return r;
}
