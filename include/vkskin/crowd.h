/* vkskin crowd: a persistent batch of posed instances on the GPU, made once and run every
 * frame (DESIGN.md sections 2, 7). This header names no Vulkan type; gpu_vulkan.h adds what
 * does: adopting the host's device, recording a frame into the host's command buffer (with
 * the barrier contract), and the output buffers to draw from.
 *
 * STEP BY STEP (each call says when it may be made, the way volk.h does)
 *   1. vks_gpu_create(&opt, &gpu, &err)           its own device, or the host's (gpu_vulkan.h)
 *   2. vks_gpu_upload(gpu, skins, m, &models, &err)
 *   3. vks_crowd_desc d = {0}; d.models = models; d.instances = inst; d.instance_count = n;
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
#include "clip_sample.h"
#include "clip_root_motion.h"
#include "skin.h"
#include "gpu.h"
#include "pose.h"

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

/* Where an instance's locals come from each frame. */
typedef enum vks_crowd_pose {
    VKS_CROWD_POSE_PROCEDURAL = 0, /* vks_pose_procedural(skin, seed, pose_instance, frame time,
                                      max_angle), evaluated on the GPU in the pose pass */
    VKS_CROWD_POSE_LOCALS,         /* the locals last given by vks_crowd_set_locals (at first the
                                      bind pose) */
    VKS_CROWD_POSE_CLIP,           /* clip `clip` of the crowd's vks_gpu_clips, sampled on the GPU at
                                      local time of clip_start + clip_speed * frame time under
                                      clip_cycle, in float (vks_clip_play_time_f) */
    VKS_CROWD_POSE_LAYERS          /* layers[0..layer_count) of the crowd's clips, each at its own
                                      time, blended in the pose pass by pose.h's rule (layers,
                                      additive deltas, masks, a transition, root motion) */
} vks_crowd_pose;

/* One layer of a VKS_CROWD_POSE_LAYERS instance (pose.h's vks_clip_layer, by clip index). */
typedef struct vks_crowd_layer {
    uint32_t clip;           /* index into the crowd's clips */
    float start;             /* clip seconds at time 0 */
    float speed;             /* clip seconds per second */
    vks_cycle cycle;
    float weight;            /* >= 0; additive: more than VKS_MAX_ADDITIVE_WEIGHT counts as it */
    vks_layer_mode mode;     /* normal (zeroed) or additive */
    vks_layer_fade fade;     /* none (zeroed), out or in: the transition's sets */
    uint32_t mask;           /* 0: every node; n + 1: only node n of the model and its descendants */
    uint32_t reference;      /* additive: the reference pose's clip: 0 (zeroed) the layer's own,
                                n + 1 the crowd's clip n */
    float ref_time;          /* additive: ... sampled at this clip time (seconds, >= 0; zeroed: its
                                first frame) */
} vks_crowd_layer;

typedef struct vks_crowd_instance {
    uint32_t model;          /* index into the uploaded set; fixed for the crowd's life */
    vks_crowd_pose pose;
    uint64_t seed;           /* procedural */
    uint32_t pose_instance;  /* procedural: the instance number vks_pose_procedural hashes */
    float max_angle;         /* procedural: <= 0: 0.6 rad */
    vks_affine root;         /* where the instance stands: its skin matrices become root * K,
                                so positions and normals come out as root applied to the
                                deformed ones (normals by root's 3x3, renormalised where the
                                format does; for weights summing to 1). Zeroed: identity */
    uint32_t clip;           /* VKS_CROWD_POSE_CLIP: index into the crowd's clips */
    float clip_start;        /* clip seconds at time 0 */
    float clip_speed;        /* clip seconds per second */
    vks_cycle clip_cycle;
    /* VKS_CROWD_POSE_LAYERS (zeroed otherwise): */
    uint32_t layer_count;    /* 1..VKS_MAX_LAYERS */
    vks_crowd_layer layers[VKS_MAX_LAYERS];
    float fade_start;        /* the transition's start, frame time in seconds */
    float fade_duration;     /* its length (<= 0: a cut) */
    int root_motion;         /* VKS_ROOT_MOTION_* (clip_root_motion.h): in-place playback, the motion node
                                being the first node the first layer's clip drives: Y_UP or
                                Z_UP, | YAW to take its turn about up out too */
} vks_crowd_instance;

typedef struct vks_crowd_desc {
    const vks_gpu_models *models;          /* uploaded to the same context */
    const vks_crowd_instance *instances;   /* instance_count entries, copied */
    const vks_gpu_clips *clips;            /* what VKS_CROWD_POSE_CLIP instances play (uploaded to
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
                                              at first use (README, "Tuning"); limits nothing */
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

/* Replaces instance i's pose source, seed, pose_instance, max_angle and root (its model must
 * stay the same: VKS_ERR_INVALID otherwise). A host write: make it while no submitted frame of
 * the crowd is executing, before submitting the frame that must see it. O(1). */
VKS_API vks_result vks_crowd_set_instance(vks_crowd *crowd, uint32_t i, const vks_crowd_instance *inst,
                                         vks_error *err);
/* The locals (node_count of the instance's model, finite) a VKS_CROWD_POSE_LOCALS instance
 * uses from the next submitted frame on. A host write, as vks_crowd_set_instance's. */
VKS_API vks_result vks_crowd_set_locals(vks_crowd *crowd, uint32_t i, const vks_affine *locals,
                                       vks_error *err);

typedef struct vks_crowd_stats {
    uint32_t frames;
    double wall_ms;  /* host time of the call: record, submit, wait */
    double gpu_ms;   /* timestamps around the recorded frames (0 without timestamps) */
    double pose_gpu_ms; /* the last frame's pose pass alone, where the crowd is one part (its
                           tables fit one binding) and the device has timestamps; else 0 */
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
 * run, 3 floats (x, y, z) each into out: for a VKS_CROWD_POSE_LAYERS instance with
 * root_motion, its motion node's ground-plane translation from its bind local, taken out of
 * the pose (clip_root_motion.h's vks_clip_layers_root_motion, computed in the pose pass in float); zeros
 * for the others and before the first frame. A crowd system moves its agents by the change
 * from frame to frame. Call after the frame's submission (on the context's queue, or
 * completed); it submits a barrier to the host and waits for it. */
VKS_API vks_result vks_crowd_read_root_motion(vks_crowd *crowd, uint32_t first, uint32_t count, float *out,
                                             vks_error *err);
/* The same with the yaw: 4 floats (x, y, z, yaw) an instance into out, the yaw in radians
 * (clip_root_motion.h's vks_clip_layers_root_yaw, computed in the pose pass in float; zero for instances
 * whose root_motion has no VKS_ROOT_MOTION_YAW). */
VKS_API vks_result vks_crowd_read_root_motion_yaw(vks_crowd *crowd, uint32_t first, uint32_t count, float *out,
                                                  vks_error *err);

#ifdef __cplusplus
}
#endif
#endif
