/* bench --crowd's clip workload (bench_clips.c): clips sampled in the GPU pose pass against
 * locals sampled on the host and uploaded every frame. */
#ifndef VKSKIN_BENCH_CLIPS_H
#define VKSKIN_BENCH_CLIPS_H

#include "vkskin.h"

typedef struct vks_bench_clip_result {
    double gpu_sampled_ms, gpu_sampled_gpu_ms;               /* per frame: wall, device timestamps */
    double uploaded_ms, uploaded_gpu_ms, uploaded_host_ms;   /* per frame; uploaded_ms includes the host's
                                                                sampling and upload (uploaded_host_ms) */
    double uploaded_bytes_per_frame;                          /* the locals the host writes each frame */
    uint64_t clip_keys;                                       /* keys uploaded once for the GPU path */
    /* layers (issue 27): the same instances playing 1, 2 and 4 normal layers of walk and wave,
       each layer its own start, speed and weight; per frame: wall, device timestamps, and the
       pose pass alone (timestamps around it; 0 where the crowd is cut into parts). Also the
       plain clip crowd's pose pass (gpu_sampled_pose_gpu_ms), the same clips unlayered. */
    double layers_ms[3], layers_gpu_ms[3], layers_pose_gpu_ms[3], gpu_sampled_pose_gpu_ms;
} vks_bench_clip_result;

/* Runs both over `frames` frames after a warm-up frame each, on `instances` instances of s
 * (uploaded as model 0 of ms), playing the generator's walk and wave. */
vks_result vks_bench_clips(vks_gpu *gpu, const vks_gpu_models *ms, const vks_skin *s, uint32_t instances,
                           uint32_t frames, vks_bench_clip_result *out, vks_error *err);

#endif
