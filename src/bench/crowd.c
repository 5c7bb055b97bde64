/* vks_bench_crowd_run (bench.h): a crowd frame with persistent resources against the per-call
 * path, in one run, on one workload: N instances posed procedurally, F frames.
 *   crowd, frame by frame:  vks_crowd_run_frame once per frame: the pose evaluated on the GPU,
 *                           every buffer and set made once; the first frame is reported apart
 *                           (pipeline warm-up), the F after it are the steady state;
 *   per call:               vks_gpu_run in kernel_only mode once per frame, the way every batch
 *                           runs: locals uploaded from the host (computed beforehand, not
 *                           timed), the buffer set the context keeps between runs reused (made
 *                           by the warm-up call);
 *   crowd, one submission:  vks_crowd_run_frames with F frames in one command buffer.
 * The first two alternate frame by frame, so both see the same machine. Then the clip workload
 * (crowd_clips.c). */
#include "bench/bench_crowd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static float frame_time(uint32_t f)
{
    return (float)f / 30.0f;
}

/* The per-call path's batch: every instance with its locals, computed once on the host (their
 * values do not change the cost), kernel only. */
static vks_gpu_batch percall_batch(const vks_skin *s, uint32_t instances, vks_affine *locals,
                                   vks_gpu_batch_entry *e)
{
    for (uint32_t i = 0; i < instances; i++)
        vks_pose_procedural(s, 1, i, frame_time(0), 0.0f, locals + (size_t)i * s->node_count);
    *e = (vks_gpu_batch_entry){0, instances, locals};
    vks_gpu_batch b = {0};
    b.entries = e, b.entry_count = 1, b.want_normals = 1, b.kernel_only = 1;
    return b;
}

/* Frame f of both paths, one after the other, so that both see the same machine: the crowd's
 * frame (record, submit, wait) and one vks_gpu_run. Frame 0 of each is its warm-up. */
static vks_result run_interleaved(vks_gpu *gpu, const vks_gpu_models *ms, vks_crowd *crowd,
                                  const vks_gpu_batch *batch, vks_bench_crowd_result *b, vks_error *err)
{
    double sum = 0, sum_gpu = 0, sum_call = 0, sum_kernel = 0;
    vks_crowd_stats cs;
    vks_gpu_stats gs = {0};
    vks_result r = VKS_OK;
    for (uint32_t f = 0; r == VKS_OK && f <= b->frames; f++) {
        r = vks_crowd_run_frame(crowd, frame_time(f), &cs, err);
        if (r == VKS_OK)
            r = vks_gpu_run(gpu, ms, batch, &gs, err);
        if (f == 0) {
            b->first_ms = cs.wall_ms, b->percall_first_ms = gs.total_ms;
            continue;
        }
        sum += cs.wall_ms, sum_gpu += cs.gpu_ms;
        sum_call += gs.total_ms, sum_kernel += gs.pose_ms + gs.deform_ms;
    }
    b->steady_ms = sum / b->frames, b->steady_gpu_ms = sum_gpu / b->frames;
    b->percall_ms = sum_call / b->frames, b->percall_kernel_ms = sum_kernel / b->frames;
    b->percall_chunks = gs.chunks;
    return r;
}

/* Both paths, then the crowd's frames all in one command buffer. */
static vks_result run_paths(vks_gpu *gpu, const vks_gpu_models *ms, const vks_skin *s, vks_bench_crowd_result *b,
                            vks_error *err)
{
    vks_instance *in = calloc(b->instances, sizeof *in);
    float *times = malloc(b->frames * sizeof *times);
    vks_affine *locals = malloc((size_t)b->instances * (s->node_count ? s->node_count : 1) * sizeof *locals);
    vks_crowd *crowd = NULL;
    vks_result r = in && times && locals ? VKS_OK
                                         : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "bench", "out of memory");
    for (uint32_t i = 0; r == VKS_OK && i < b->instances; i++)
        in[i].seed = 1, in[i].pose_instance = i;
    vks_crowd_desc d = {0};
    d.models = ms, d.instances = in, d.instance_count = b->instances;
    d.frames = 2 * b->frames + 1; /* the warm-up, the interleaved frames and the one submission's */
    if (r == VKS_OK)
        r = vks_crowd_create(gpu, &d, &crowd, err);
    vks_gpu_batch_entry e;
    vks_gpu_batch batch = r == VKS_OK ? percall_batch(s, b->instances, locals, &e) : (vks_gpu_batch){0};
    if (r == VKS_OK)
        r = run_interleaved(gpu, ms, crowd, &batch, b, err);
    for (uint32_t f = 0; r == VKS_OK && f < b->frames; f++)
        times[f] = frame_time(f + 1);
    vks_crowd_stats st = {0};
    if (r == VKS_OK)
        r = vks_crowd_run_frames(crowd, times, b->frames, &st, err);
    b->batched_ms = st.wall_ms / b->frames, b->batched_gpu_ms = st.gpu_ms / b->frames;
    vks_crowd_destroy(crowd);
    free(in), free(times), free(locals);
    return r;
}

/* The device's names and the workload into out. */
static void describe(const vks_gpu *gpu, const vks_skin *s, const vks_bench_crowd_options *opt,
                     vks_bench_crowd_result *out)
{
    memset(out, 0, sizeof *out);
    const vks_gpu_device_info *dev = vks_gpu_device(gpu);
    snprintf(out->device, sizeof out->device, "%s", dev->name);
    snprintf(out->device_type, sizeof out->device_type, "%s", dev->type);
    out->queue_family = dev->queue_family, out->queue_index = dev->queue_index;
    out->vertices = s->vertex_count, out->bones = s->bone_count;
    out->instances = opt && opt->instances ? opt->instances : 1000;
    out->frames = opt && opt->frames ? opt->frames : 100;
}

vks_result vks_bench_crowd_run(vks_gpu *gpu, const vks_skin *skin, const vks_bench_crowd_options *opt,
                               vks_bench_crowd_result *out, vks_error *err)
{
    if (!gpu || !skin || !out)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "bench", "the crowd bench needs a context, a model "
                             "and a result");
    describe(gpu, skin, opt, out);
    vks_gpu_models *ms = NULL;
    const vks_skin *one[1] = {skin};
    vks_result r = vks_gpu_upload(gpu, one, 1, &ms, err);
    if (r == VKS_OK)
        r = run_paths(gpu, ms, skin, out, err);
    if (r == VKS_OK && opt && opt->clips[0] && opt->clips[1])
        r = vks__bench_crowd_clips(gpu, ms, skin, opt->clips, out, err);
    /* the crowd's shape: its size class's (a small model's apart from the context's),
       calibrated at its creation where it was large enough */
    vks__bench_shape_for(gpu, skin->vertex_count, &out->shape);
    vks_gpu_models_free(ms);
    return r;
}
