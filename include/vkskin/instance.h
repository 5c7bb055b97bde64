/* vkskin instances: one posed copy of an uploaded model on the GPU, the one type the crowd
 * (crowd.h), the stream (stream.h), the bake and the vkskin program share. Its pose source is a
 * vks_pose_kind (pose.h), the library's one pose enum.
 *
 * ZERO. A zeroed vks_instance is model 0, posed procedurally (seed 0, instance number 0, the
 * default angle) at the identity root: zero means procedural here as it does for a
 * vks_pose_source. Say VKS_POSE_BIND for the bind pose.
 *
 * From a crowd file (crowd_file.h): vks_crowd_spec_instance fills one from an entry, layers,
 * masks, references and cycles resolved. Since 0.5 (before: vks_instance and
 * vks_instance, two structs whose zero meant procedural in one and the bind pose in
 * the other). */
#ifndef VKSKIN_INSTANCE_H
#define VKSKIN_INSTANCE_H

#include "clip.h"
#include "pose.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One layer of a VKS_POSE_LAYERS instance (pose.h's vks_clip_layer, by clip index). */
typedef struct vks_instance_layer {
    uint32_t clip;           /* index into the crowd's (stream's) clips */
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
} vks_instance_layer;

typedef struct vks_instance { /* zeroed: model 0, procedural, identity root (see ZERO) */
    uint32_t model;           /* index into the uploaded models; a crowd's stays for its life */
    vks_pose_kind pose;       /* PROCEDURAL, BIND, LOCALS, CLIP or LAYERS */
    vks_affine root;          /* where the instance stands: its skin matrices become root * K,
                                 so positions and normals come out as root applied to the
                                 deformed ones (normals by root's 3x3, renormalised where the
                                 format does; for weights summing to 1). Zeroed: identity */
    /* VKS_POSE_PROCEDURAL: vks_pose_procedural(skin, seed, pose_instance, time, max_angle),
       evaluated on the GPU in the pose pass */
    uint64_t seed;
    uint32_t pose_instance;   /* the instance number vks_pose_procedural hashes */
    float max_angle;          /* <= 0: 0.6 rad */
    /* VKS_POSE_LOCALS: locals_frames * node_count locals, finite, not owned. The stream's
       frame k uses locals + (k % locals_frames) * node_count, read while it runs; a crowd
       takes the first node_count when the instance is given to it (NULL: it keeps what it
       holds, the bind pose at first) and then what vks_crowd_set_locals writes */
    const vks_affine *locals;
    uint32_t locals_frames;   /* 0 is taken as 1 */
    /* VKS_POSE_CLIP: clip `clip` of the crowd's (stream's) clips, sampled on the GPU at local
       time clip_start + clip_speed * frame time under clip_cycle, in float
       (vks_clip_play_time_f) */
    uint32_t clip;
    float clip_start;         /* clip seconds at time 0 */
    float clip_speed;         /* clip seconds per second */
    vks_cycle clip_cycle;
    /* VKS_POSE_LAYERS (zeroed otherwise): layers[0..layer_count) of the clips, each at its own
       time, blended in the pose pass by pose.h's rule (layers, additive deltas, masks, a
       transition, root motion) */
    uint32_t layer_count;     /* 1..VKS_MAX_LAYERS */
    vks_instance_layer layers[VKS_MAX_LAYERS];
    float fade_start;         /* the transition's start, frame time in seconds */
    float fade_duration;      /* its length (<= 0: a cut) */
    int root_motion;          /* VKS_ROOT_MOTION_* (clip.h): in-place playback, the motion node
                                 being the first node the first layer's clip drives: Y_UP or
                                 Z_UP, | YAW to take its turn about up out too */
} vks_instance;

/* What the CPU engines play for a clip instance (pose.h: a vks_pose_source of kind
 * VKS_POSE_CLIP poses instance i by plays[i] and layers[i]), its clips as pointers: clips[k]
 * is the clip the instance numbers k (in->clip, its layers' clip, a layer's reference - 1: the
 * numbering of the crowd's or stream's clips, or the host's own list) and bindings[k] that clip
 * bound to the skin being posed (vks_clip_bind), clip_count of each. VKS_POSE_BIND: play->clip
 * NULL (the bind pose); VKS_POSE_CLIP: *play; VKS_POSE_LAYERS: *layers (every layer's play,
 * weight, blend, fade, mask, reference, the transition and root motion) and *play its first
 * layer's. layers (may be NULL for an instance without them) has count 0 unless layered. Other
 * pose kinds, a clip number at or past clip_count or whose clips[k] is NULL: VKS_ERR_INVALID.
 * Allocates nothing; the outputs point into clips and bindings. Since 0.7.
 *   vks_crowd_spec_instance(spec, i, &b, &in, &err);      // clip numbers: the host's list
 *   vks_instance_clip_play(&in, clips, bindings, n, &plays[j], &layers[j], &err);
 *   src.kind = VKS_POSE_CLIP, src.plays = plays, src.layers = layers, src.play_count = count; */
VKS_API vks_result vks_instance_clip_play(const vks_instance *in, const vks_clip *const *clips,
                                          const struct vks_clip_binding *bindings, uint32_t clip_count,
                                          vks_clip_play *play, vks_clip_layers *layers, vks_error *err);

#ifdef __cplusplus
}
#endif
#endif
