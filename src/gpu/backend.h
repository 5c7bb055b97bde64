/* The GPU backend's internal surface: what the backend-neutral engine code of src/gpu (the
 * stream, the deform job, the stream's bake) asks of the backend, beside the public calls of
 * gpu.h and crowd.h. Nothing here names a Vulkan type; src/gpu/vulkan implements it today
 * (stream_ring.c, models.c, tune.c), and a second backend would implement the same. Code that
 * needs more of the device than this belongs in the backend's folder, code that needs no more
 * belongs here (tests/package/check_layering.sh holds both ways). */
#ifndef VKSKIN_GPU_BACKEND_H
#define VKSKIN_GPU_BACKEND_H

#include "vkskin/crowd.h"
#include "vkskin/gpu.h"

/* ---- uploaded models ---- */

/* Model `model` of ms: its vertex and node counts. 0 when ms is NULL or has no such model. */
int vks__model_counts(const vks_gpu_models *ms, uint32_t model, uint32_t *vertex_count, uint32_t *node_count);

/* ---- calibration at first use, the explicit step (tuning_start.h says when) ---- */

/* 1 while calibration at first use may still come in this context (for its shape or for the
 * small-model class's), whatever the work: whether a stream fetches its instances to size its
 * work. */
int vks__first_use_open(const vks_gpu *gpu);
/* Calibrates (or not) for `work` vertex-instances whose largest share is model `model` of ms
 * (the one timed); what names the work in the log ("a crowd ...", "a stream ..."). Called by
 * crowd and stream creation and vks_gpu_calibrate_for_batch; never from inside a run. Never
 * fails: a failed calibration keeps the shape, with a warning. */
void vks__calibrate_work_at_first_use(vks_gpu *gpu, const vks_gpu_models *ms, uint32_t model, uint64_t work,
                                      const char *what);
/* The same for work that runs with its size class's shape (a crowd's, a stream's, a run's
 * with the project's kernel and no reduction: vks__batch_class_vertices): where
 * model `model` is small (tuning.h: VKS__SMALL_MODEL_VERTICES) the small-model class calibrates
 * (tuning_start.h: on a GPU, whose table rows were measured on larger models, even a device the
 * table knows), on more instances of it (VKS__SMALL_CALIBRATION_WORK), and the context's shape
 * is left as it was; else as vks__calibrate_work_at_first_use. */
void vks__calibrate_class_at_first_use(vks_gpu *gpu, const vks_gpu_models *ms, uint32_t model, uint64_t work,
                                       const char *what);

/* The launch shape crowds whose largest share of work is a model of `vertices` vertices run
 * with, as vks_gpu_launch_shape says it: the small-model class's for a small model (tuning.h),
 * else the context's. */
void vks__launch_shape_for_model(const vks_gpu *gpu, uint32_t vertices, vks_gpu_shape_info *out);

/* ---- the stream's readback ring (stream_ring.h has the Vulkan side) ---- */

enum { VKS__RING_MAX = 8 };
typedef struct vks__ring vks__ring;

/* count slots (2..VKS__RING_MAX) of slot_bytes each; reduce: each frame's outputs are also
 * reduced after its deform (compute/reduce.comp), when the device can (vks__ring_reduces). */
vks_result vks__ring_create(vks_gpu *gpu, uint32_t count, uint64_t slot_bytes, int reduce, vks__ring **out,
                            vks_error *err);
uint32_t vks__ring_depth(const vks__ring *ring);
uint64_t vks__ring_slot_bytes(const vks__ring *ring);
int vks__ring_reduces(const vks__ring *ring);
/* Records the crowd's frame at time and the copy of instances [0, count) (positions at 0, then
 * normals at positions' end when the crowd has them) into slot s, and submits it. */
vks_result vks__ring_submit(vks__ring *ring, uint32_t s, vks_crowd *crowd, float time, uint32_t count,
                            int normals, vks_error *err);
/* Waits for slot s and makes its staging memory visible; *gpu_ms gets its passes' time. */
vks_result vks__ring_wait(vks__ring *ring, uint32_t s, const void **data, double *gpu_ms, vks_error *err);
/* Waits for every busy slot (errors ignored: the stream is being torn down or moving on). */
void vks__ring_drain(vks__ring *ring);
/* After vks__ring_wait of slot s of a reducing ring: the figures of its frame's outputs. */
void vks__ring_figures(vks__ring *ring, uint32_t s, vks_gpu_figures *out);
/* Testing (gpu_testing.h, flip_readback_chunk): 1 when delivery number `delivery` (1-based)
 * is the one whose bytes a test wants changed between the GPU and the host. */
int vks__ring_flip_wanted(const vks__ring *ring, uint64_t delivery);
/* NULL is fine. */
void vks__ring_destroy(vks__ring *ring);

#endif
