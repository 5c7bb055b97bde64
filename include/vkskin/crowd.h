/* vkskin crowd: a persistent batch of posed instances on the GPU, made once and run every
 * frame (DESIGN.md sections 2, 7). This header names no Vulkan type; gpu_vulkan.h adds what
 * does: adopting the host's device, recording a frame into the host's command buffer (with
 * the barrier contract), and the output buffers to draw from.
 *
 * STEP BY STEP (each call says when it may be made, the way volk.h does)
 *   1. vks_gpu_create(&opt, &gpu, &err)           its own device, or the host's (gpu_vulkan.h)
 *   2. vks_gpu_upload(gpu, skins, m, &models, &err)
 *   3. vks_instance inst[n] (instance.h); vks_crowd_desc d = {0}; d.models = models;
 *      d.instances = inst; d.instance_count = n;
 *      vks_crowd_create(gpu, &d, &crowd, &err)   every buffer, descriptor set and table, once
 *   4. every frame:  vks_crowd_record(crowd, cmd, time) into the host's command buffer and
 *                    draw from vks_crowd_get_output (gpu_vulkan.h),
 *      or, without a command buffer of one's own: vks_crowd_run_frame(crowd, time, NULL, &err)
 *      and vks_crowd_read(crowd, first, n, positions, normals, &err) for the vertices
 *   5. between frames, when the host moves or re-poses instances: vks_crowd_set_instance,
 *      vks_crowd_set_locals (host writes: see the barrier contract in gpu_vulkan.h)
 *   6. vks_crowd_destroy(crowd); vks_gpu_models_free(models); vks_gpu_destroy(gpu)
 *      after every submission that used them has completed
 *
 * A frame costs the host nothing per instance: procedural instances are posed on the GPU from
 * (seed, instance, node, time) exactly as vks_pose_procedural poses them on the CPU, the time
 * being a push constant; host-posed instances read the locals last written. Pose sources are
 * per instance (clips will be one more kind, sampled in the same pose pass).
 *
 * THREADS. A context, its models and its crowds are used from one thread at a time; separate
 * contexts may be used from separate threads.
 */
#ifndef VKSKIN_CROWD_H
#define VKSKIN_CROWD_H

#include "clip.h"
#include "gpu.h"
#include "instance.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vks_crowd vks_crowd;

/* Clips on the GPU: keys and times, uploaded once (never pre-baked frames), each bound to every
 * uploaded model by node (vks_clip_bind), so that an instance can play any clip on its model.
 * skins[m] must be the skin uploaded as model m. The crowd samples them in its pose pass
 * exactly as vks_clip_sample_locals does on the CPU (float). VKS_ERR_LIMIT when the keys of
 * all clips together exceed maxStorageBufferRange. Free after every crowd using them. */
typedef struct vks_gpu_clips vks_gpu_clips;
VKS_API vks_result vks_gpu_upload_clips(vks_gpu *gpu, const vks_gpu_models *models, const vks_skin *const *skins,
                                        const vks_clip *const *clips, uint32_t clip_count, vks_gpu_clips **out,
                                        vks_error *err);
VKS_API void vks_gpu_clips_free(vks_gpu_clips *clips);

typedef struct vks_crowd_desc {
    const vks_gpu_models *models;          /* uploaded to the same context */
    const vks_instance *instances;         /* instance_count entries, copied (instance.h; a
                                              LOCALS one's locals are written, not kept) */
    const vks_gpu_clips *clips;            /* what VKS_POSE_CLIP and _LAYERS instances play (uploaded to
                                              the same context for the same models); may be NULL */
    uint32_t instance_count;               /* >= 1 */
    int no_normals;                        /* nonzero: positions only */
    uint32_t consumer_stages;              /* VkPipelineStageFlags: who reads the outputs after a
                                              frame (0: see the barrier contract, gpu_vulkan.h) */
    uint32_t consumer_access;              /* VkAccessFlags: how (0: the reads those stages make) */
    int layers;                            /* nonzero: instances may be made layered later by
                                              vks_crowd_set_instance (a crowd with a layered
                                              instance at creation allows it anyway). Layered
                                              crowds use a larger parameter table and pose
                                              pipeline; the others are unchanged */
    uint32_t frames;                       /* the frames the host expects to run (0: unknown, 60
                                              assumed): only sizes the crowd's work for calibration
                                              at first use (docs/performance.md, "Launch shapes"); limits nothing */
} vks_crowd_desc;

/* Creates every buffer (device-local outputs; host-visible instance, pose-parameter and
 * locals tables, written here), descriptor set, command buffer and query the crowd will use,
 * cut into parts under maxStorageBufferRange. Nothing is allocated after this call (except
 * vks_crowd_read's staging buffer, once). VKS_ERR_INVALID for a bad desc, VKS_ERR_LIMIT when
 * one instance exceeds maxStorageBufferRange, VKS_ERR_NOMEM when the device is full. */
VKS_API vks_result vks_crowd_create(vks_gpu *gpu, const vks_crowd_desc *desc, vks_crowd **out,
                                   vks_error *err);
/* Frees everything the crowd made; NULL is fine. Its own submissions are complete when
 * vks_crowd_run_frames returns; frames recorded into the host's command buffers must have
 * completed before this call. */
VKS_API void vks_crowd_destroy(vks_crowd *crowd);
VKS_API uint32_t vks_crowd_instance_count(const vks_crowd *crowd);

/* Replaces instance i's pose source and root (its model must stay the same: VKS_ERR_INVALID
 * otherwise). VKS_POSE_BIND writes the model's bind locals back where the instance held host
 * locals; VKS_POSE_LOCALS with locals writes them. A host write: make it while no submitted
 * frame of the crowd is executing, before submitting the frame that must see it. O(1) (O(nodes)
 * where locals are written). */
VKS_API vks_result vks_crowd_set_instance(vks_crowd *crowd, uint32_t i, const vks_instance *inst,
                                         vks_error *err);
/* The locals (node_count of the instance's model, finite) a VKS_POSE_LOCALS instance uses
 * from the next submitted frame on. A host write, as vks_crowd_set_instance's. */
VKS_API vks_result vks_crowd_set_locals(vks_crowd *crowd, uint32_t i, const vks_affine *locals,
                                       vks_error *err);

typedef struct vks_crowd_stats {
    uint32_t frames;
    double wall_ms;  /* host time of the call: record, submit, wait */
    double gpu_ms;   /* timestamps around the recorded frames (0 without timestamps) */
    double pose_gpu_ms; /* the last frame's pose pass alone, where the crowd is one part (its
                           tables fit one binding), its frames are not staggered (a large crowd
                           on a GPU records the pose of one slice of its instances beside the
                           deform of the one before: docs/performance.md, "Crowds") and the
                           device has timestamps; else 0 */
} vks_crowd_stats;

/* Convenience for programs without a command buffer of their own (the CLI): records `count`
 * frames, at times[0..count), one after the other into the crowd's own command buffer,
 * submits it on the context's queue and waits for it. Allocates nothing. stats may be NULL. */
VKS_API vks_result vks_crowd_run_frames(vks_crowd *crowd, const float *times, uint32_t count,
                                       vks_crowd_stats *stats, vks_error *err);
VKS_API vks_result vks_crowd_run_frame(vks_crowd *crowd, float time, vks_crowd_stats *stats,
                                      vks_error *err);

/* Copies the outputs of instances [first, first + count) into host arrays: positions (and
 * normals: may be NULL, untouched when the crowd has none) receive each instance's
 * vertex_count * 3 floats, one instance after the other. Call after the frame's submission
 * (on the context's queue, or completed). Goes through a staging buffer made on the first
 * call and kept; for tests and tools. */
VKS_API vks_result vks_crowd_read(vks_crowd *crowd, uint32_t first, uint32_t count, float *positions,
                                 float *normals, vks_error *err);

/* Root motion (issue 27): the motion of instances [first, first + count) at the last frame
 * run, 3 floats (x, y, z) each into out: for a VKS_POSE_LAYERS instance with
 * root_motion, its motion node's ground-plane translation from its bind local, taken out of
 * the pose (clip.h's vks_clip_layers_root_motion, computed in the pose pass in float); zeros
 * for the others and before the first frame. A crowd system moves its agents by the change
 * from frame to frame. Call after the frame's submission (on the context's queue, or
 * completed); it submits a barrier to the host and waits for it. */
VKS_API vks_result vks_crowd_read_root_motion(vks_crowd *crowd, uint32_t first, uint32_t count, float *out,
                                             vks_error *err);
/* The same with the yaw: 4 floats (x, y, z, yaw) an instance into out, the yaw in radians
 * (clip.h's vks_clip_layers_root_yaw, computed in the pose pass in float; zero for instances
 * whose root_motion has no VKS_ROOT_MOTION_YAW). */
VKS_API vks_result vks_crowd_read_root_motion_yaw(vks_crowd *crowd, uint32_t first, uint32_t count, float *out,
                                                  vks_error *err);

#ifdef __cplusplus
}
#endif
#endif
