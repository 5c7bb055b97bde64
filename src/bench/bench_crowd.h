/* The crowd bench's files (crowd.c, crowd_clips.c, crowd_json.c). */
#ifndef VKS_BENCH_CROWD_H
#define VKS_BENCH_CROWD_H

#include "bench/bench_internal.h"
#include "vkskin/clip_sample.h"
#include "vkskin/crowd.h"

/* The clip workload: the crowd playing clips[0] and clips[1] sampled in the pose pass against
 * sampled on the host, and 1, 2 and 4 layers of them, over out->frames frames after a warm-up
 * each, on out->instances instances of s (model 0 of ms); the clip and layer figures of out. */
vks_result vks__bench_crowd_clips(vks_gpu *gpu, const vks_gpu_models *ms, const vks_skin *s,
                                  const vks_clip *const clips[2], vks_bench_crowd_result *out, vks_error *err);

#endif
