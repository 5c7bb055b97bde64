/* vkskin poses: local transforms for every skeleton node, per instance (DESIGN.md section 6).
 *
 * STEP BY STEP
 *   vks_pose_source src = {0};                  // zeroed: procedural, seed 0, 30 fps
 *   src.kind = VKS_POSE_PROCEDURAL; src.seed = 7;
 *   // or: vks_pose_file_parse(skin, json, len, &set, &err); src.kind = VKS_POSE_FRAMES;
 *   //     src.frames = &set;
 *   for (i = 0; i < n; i++)
 *       vks_pose_source_locals(&src, skin, i, frame, locals + (size_t)i * skin->node_count);
 *
 * A pose source is what every engine consumes: the CPU engines get the locals it fills, the
 * GPU crowd evaluates the procedural source and clips itself from (seed, instance, time) and
 * (clip, start, speed, cycle, time).
 *
 * Every source produces float32 absolute local transforms (bind locals replaced), so the
 * CPU reference and the GPU start from the same numbers.
 *
 * THREADS
 *   Every function here is reentrant; vks_pose_source_locals and vks_pose_procedural only read
 *   their source, set and skin, so many threads may fill locals from one source at once. A pose
 *   set is freed by one thread when no other reads it.
 */
#ifndef VKSKIN_POSE_H
#define VKSKIN_POSE_H

#include "skin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The skeleton's bind locals. out: skin->node_count entries. */
VKS_API void vks_pose_bind(const vks_skin *skin, vks_affine *out);

/* Deterministic procedural pose: each node is its bind local followed by a rotation about a
 * node-specific axis (through the node's origin) whose angle swings with time, within
 * +-max_angle radians (<= 0: the default 0.6). Roots are not moved. Same numbers on every
 * machine for the same (seed, instance, time). out: skin->node_count entries. */
VKS_API void vks_pose_procedural(const vks_skin *skin, uint64_t seed, uint32_t instance, float time,
                         float max_angle, vks_affine *out);

/* Frames of locals parsed from a pose file (JSON contract of DESIGN.md section 6). */
typedef struct vks_pose_set {
    uint32_t node_count;
    uint32_t frame_count;
    vks_affine *locals; /* frame_count * node_count, frame-major; free with vks_pose_set_free */
    vks_allocator allocator; /* the one locals came from, used by vks_pose_set_free */
    /* added in 0.5: morph weights (skin.h, MORPH TARGETS), frame_count * target_count,
       frame-major, from the file's "weights" (targets it does not name at their defaults);
       NULL when no frame gives weights */
    float *weights;
    uint32_t target_count;
} vks_pose_set;

/* Parses {"nodes": [...]} or {"frames": [{"nodes": [...]}, ...]}; beside "nodes" a frame may
 * give morph weights, "weights": {"MESH": [w0, w1, ...]} with MESH a mesh's name (inspect) or
 * its node's, every target of it in order. Errors name the entry
 * ("frames[2].nodes[5]: unknown node name \"Bip01 Foo\""). */
VKS_API vks_result vks_pose_file_parse(const vks_skin *skin, const char *json, size_t size,
                               vks_pose_set *out, vks_error *err);
/* The same, with the set's locals and the parse's temporaries through allocator (NULL:
 * malloc/free). The JSON tree itself is cJSON's: cJSON has only process-wide hooks
 * (cJSON_InitHooks), which one call cannot set without racing other threads, so the tree
 * lives in cJSON's default malloc for the length of the call and nothing of it outlives it. */
VKS_API vks_result vks_pose_file_parse_with(const vks_skin *skin, const char *json, size_t size,
                                            const vks_allocator *allocator, vks_pose_set *out, vks_error *err);
VKS_API void vks_pose_set_free(vks_pose_set *set);

/* ---- pose sources: (instance, frame) -> locals, whatever made them ---- */

/* Where locals come from: the one pose enum of the library, for the CPU's pose sources
 * (vks_pose_source, below) and for the GPU's instances (vks_instance, instance.h: the crowd,
 * the stream, the bake). Zero is procedural for both. A source takes PROCEDURAL, BIND, FRAMES
 * and CLIP (its layers ride on CLIP); an instance takes PROCEDURAL, BIND, LOCALS, CLIP and
 * LAYERS (a pose set goes to the GPU as LOCALS frames), a stream's also HOST. Since 0.5
 * LOCALS and LAYERS are here (before, vks_pose_kind and vks_pose_kind said them, with other numbers). */
typedef enum vks_pose_kind {
    VKS_POSE_PROCEDURAL = 0, /* vks_pose_procedural at time frame / fps, per instance */
    VKS_POSE_BIND,           /* the bind locals, every instance and frame */
    VKS_POSE_FRAMES,         /* a pose set: frame f is the set's frame f % frame_count, the same
                                for every instance */
    VKS_POSE_CLIP,           /* clips (clip.h): instance i plays plays[i % play_count]; an
                                instance: one clip of the crowd's or stream's clips */
    VKS_POSE_LOCALS,         /* instances: locals the host gives (vks_instance.locals, and
                                vks_crowd_set_locals) */
    VKS_POSE_LAYERS,         /* instances: up to VKS_MAX_LAYERS clips blended (the rule below) */
    VKS_POSE_HOST            /* stream instances posed by the host frame by frame (stream.h,
                                get_locals): deformed as vks_gpu_run deforms a batch, to its
                                very bits. Since 0.7 */
} vks_pose_kind;

struct vks_clip;
struct vks_clip_binding;

/* One instance's playback of a clip: at source time T (frame / fps + start_time) the
 * instance shows the clip at vks_clip_play_time_f(clip, cycle, start, speed, T) (clip_sample.h:
 * start + speed * T under the cycle, in float as the GPU computes it). */
typedef struct vks_clip_play {
    const struct vks_clip *clip;            /* NULL: the bind pose */
    const struct vks_clip_binding *binding; /* clip bound to the skin being posed */
    float start;                            /* clip seconds at T = 0 */
    float speed;                            /* clip seconds per second (1: as authored) */
    int cycle;                              /* vks_cycle */
} vks_clip_play;

/* Layers (issue 27): an instance may play up to VKS_MAX_LAYERS clips at once, blended per node
 * in local transform space (src/core/clip_layers.c; the GPU pose pass does the same in float):
 *   1. each layer's translation, rotation quaternion and scale of the node at the layer's own
 *      clip time (its play): a LOCAL clip's sampled channels over the bind local's; a delta
 *      clip's local split by vks_affine_to_trs's rule (quaternion signs do not matter: step 2
 *      aligns them and step 3 takes the shorter arc);
 *   2. NORMAL layers that reach the node (weight > 0, the node inside the mask) are blended
 *      with their weights renormalised over those layers: translations and scales by weighted
 *      sum, rotations by the normalised weighted quaternion sum, each quaternion first flipped
 *      into the hemisphere of the first such layer's (dot >= 0). No such layer: the bind local.
 *      Every engine divides the weights by the largest among them as it goes, so any finite
 *      weights blend alike (1e-25 alone is 1; two of 3e38 are 0.5 each) in float too;
 *   3. ADDITIVE layers, in order, then add their delta from their reference pose r (by default
 *      their own clip's first frame, clip time 0; else the layer's reference clip at its
 *      reference time, sampled as in step 1) scaled by their weight w (at most
 *      VKS_MAX_ADDITIVE_WEIGHT: a larger one counts as that): rotation
 *      q = nlerp(identity, q(t) q(r)^-1, w) * q (the delta pre-multiplied, taken on the shorter
 *      arc), translation t += w (t(t) - t(r)), scale s *= 1 + w (s(t) / s(r) - 1) (an s(r)
 *      under VKS_MIN_REFERENCE_SCALE in magnitude, a collapsed reference, adds nothing on that
 *      axis, as a zero one);
 *   4. the result is composed back as T R S.
 * A transition crossfades between two layer sets over [fade_start, fade_start + fade_duration]
 * of source time T: with x = clamp((T - fade_start) / fade_duration, 0, 1) and the smoothstep
 * ramp s = x x (3 - 2 x) (computed in float on every engine), a FADE_OUT layer's weight is
 * multiplied by 1 - s and a FADE_IN layer's by s; both sets share the instance's layers. A
 * weight that comes out below FLT_MIN (float's smallest normal number, which a GPU may flush
 * to 0) is 0 on every engine. */
#define VKS_MAX_LAYERS 4
#define VKS_MAX_ADDITIVE_WEIGHT 1.0f  /* an additive layer's whole delta: crowd files refuse more */
#define VKS_MIN_REFERENCE_SCALE 1e-6f /* a reference scale below it in magnitude adds no scale */

typedef enum vks_layer_mode {
    VKS_LAYER_NORMAL = 0,   /* blended with the other normal layers */
    VKS_LAYER_ADDITIVE = 1  /* its delta from its reference pose (its clip's first frame by
                               default) added on top */
} vks_layer_mode;

typedef enum vks_layer_fade {
    VKS_FADE_NONE = 0, /* full weight at every time */
    VKS_FADE_OUT = 1,  /* the set a transition leaves: weight * (1 - s) */
    VKS_FADE_IN = 2    /* the set a transition enters: weight * s */
} vks_layer_fade;

typedef struct vks_clip_layer {
    vks_clip_play play;   /* clip (not NULL), binding, start, speed, cycle */
    float weight;         /* >= 0, finite; ADDITIVE: at most VKS_MAX_ADDITIVE_WEIGHT (more counts as it) */
    int mode;             /* vks_layer_mode */
    int fade;             /* vks_layer_fade */
    uint32_t mask;        /* 0: every node; n + 1: only skin node n and its descendants */
    /* ADDITIVE layers' reference pose (zeroed: the layer's own clip at time 0, its first frame):
       ref_clip (NULL: play.clip) bound by ref_binding (play.binding with a NULL ref_clip),
       sampled at clip time ref_time (seconds, finite, >= 0; no cycle applied: past the clip's
       end its last keys hold) */
    const struct vks_clip *ref_clip;
    const struct vks_clip_binding *ref_binding;
    float ref_time;
} vks_clip_layer;

/* A vks_clip_layers' root_motion (clip_root_motion.h says what each takes out): the up axis,
 * or'ed with VKS_ROOT_MOTION_YAW to take the turn about it out too. */
enum { VKS_ROOT_MOTION_OFF = 0, VKS_ROOT_MOTION_Y_UP = 1, VKS_ROOT_MOTION_Z_UP = 2, VKS_ROOT_MOTION_YAW = 4 };
/* The up axis bits of a root_motion value (VKS_ROOT_MOTION_Y_UP, _Z_UP or 0). */
#define VKS_ROOT_MOTION_UP(root_motion) ((root_motion) & 3)
/* Whether a root_motion value is one of: 0, Y_UP, Z_UP, either of those | YAW. */
#define VKS_ROOT_MOTION_VALID(root_motion)                                                                   \
    ((root_motion) == 0 ||                                                                                   \
     (((root_motion) & ~7) == 0 && (VKS_ROOT_MOTION_UP(root_motion) == 1 || VKS_ROOT_MOTION_UP(root_motion) == 2)))

typedef struct vks_clip_layers {
    vks_clip_layer layer[VKS_MAX_LAYERS];
    uint32_t count;       /* 1..VKS_MAX_LAYERS; 0: not layered (the plain play is used) */
    float fade_start;     /* source seconds where a transition starts */
    float fade_duration;  /* seconds (<= 0: a cut at fade_start) */
    int root_motion;      /* nonzero: in-place playback: VKS_ROOT_MOTION_Y_UP or _Z_UP, | _YAW to
                             take the turn out too (vks_clip_layers_root_motion, clip_root_motion.h) */
} vks_clip_layers;

typedef struct vks_pose_source { /* zeroed = procedural, seed 0, 30 fps, default angle */
    vks_pose_kind kind;
    uint64_t seed;              /* procedural */
    float fps;                  /* procedural: time of frame f is f / fps (<= 0: 30) */
    float max_angle;            /* procedural: see vks_pose_procedural (<= 0: 0.6 rad) */
    const vks_pose_set *frames; /* VKS_POSE_FRAMES: not owned; its node_count must be the skin's */
    const vks_clip_play *plays; /* VKS_POSE_CLIP: not owned; play_count >= 1 */
    uint32_t play_count;
    float start_time;           /* added to every frame's time (procedural and clips) */
    int fast_sampling;          /* clips: the float sampler (the fast engine's) instead of the
                                   double one the CPU reference poses with */
    const vks_clip_layers *layers; /* VKS_POSE_CLIP (may be NULL): instance i plays
                                   layers[i % play_count] instead of its play when that has
                                   count >= 1 (always sampled in double) */
} vks_pose_source;

/* The time of a frame for a source: start_time + frame / fps. */
VKS_API float vks_pose_source_time(const vks_pose_source *src, uint32_t frame);
/* Fills skin->node_count locals for (instance, frame). Thread-safe: reads src and skin only. */
VKS_API void vks_pose_source_locals(const vks_pose_source *src, const vks_skin *skin, uint32_t instance,
                                    uint32_t frame, vks_affine *out);
/* Fills skin->target_count morph weights for (instance, frame) (skin.h, MORPH TARGETS): a
 * clip's morph tracks sampled in double at the instance's clip time (layers blended by
 * vks_clip_layers_weights_d), a pose set's weights of the frame; every other source, and
 * targets nothing drives, give the targets' default weights. Returns how many weights differ from the defaults (0: the job may
 * pass NULL). Thread-safe: reads src and skin only. */
VKS_API uint32_t vks_pose_source_weights(const vks_pose_source *src, const vks_skin *skin, uint32_t instance,
                                         uint32_t frame, float *out);

#ifdef __cplusplus
}
#endif
#endif
