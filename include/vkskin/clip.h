/* vkskin clips: animation in one format-free model, bound to a skin by node and sampled at
 * any time (DESIGN.md section 6; shared/formats/animation.md).
 *
 * STEP BY STEP
 *   vks_clip_set *set = NULL; vks_error err = {0};
 *   if (vks_clip_read_any(&opt, bytes, size, "walk.rtm", &set, &err) != VKS_OK) ... report err
 *   vks_clip_binding b;                              // which track drives which skin node
 *   vks_clip_bind(&set->clips[0], skin, &b, &err);
 *   float t = vks_clip_local_time(&set->clips[0], set->clips[0].cycle, seconds);
 *   vks_clip_sample_locals(&set->clips[0], &b, skin, t, locals);     // float, the fast path
 *   vks_clip_sample_locals_d(&set->clips[0], &b, skin, t, locals);   // double math, the reference
 *   vks_clip_binding_free(&b); vks_clip_set_free(set);
 *
 * The model. A clip is a set of tracks, each driving one node by name (and, where the format
 * has one, a numeric tag: RenderWare HAnim node ID / GTA bone tag). A track has up to three
 * channels, translation (3), rotation (quaternion x,y,z,w, or three Euler angle curves) and
 * scale (3); each channel is a curve of keys with its own interpolation. A channel without
 * keys keeps the bind local's component; a node without a track keeps its bind local. Times
 * are seconds from the clip's start. Frame-based formats are converted at load (their frame
 * rate kept in fps). Everything a reader makes lives in the set's arena: one
 * vks_clip_set_free releases it.
 *
 * Space. VKS_CLIP_LOCAL tracks hold absolute local transforms (what the bind locals are).
 * VKS_CLIP_MODEL_DELTA tracks (plain Arma RTM) hold each node's model-space deformation D
 * relative to the bind pose, the skinning matrix itself, acting in the skin space of the skin's
 * first mesh (S_b, at bind): W(n) = S_b^-1 D(n) S_b W_bind(n), so that K = D; nodes without a
 * track get D = identity. VKS_CLIP_PARENT_DELTA tracks (binarised RTM) hold L(n),
 * composed down the bound skin's hierarchy into D(n) = D(parent) * L(n) (no track: L = I).
 * Sampling turns every space into locals, so every engine consumes the same thing.
 *
 * The rest of the clip API has a header each: binding and sampling (clip_sample.h), layers
 * (clip_layers.h), root motion (clip_root_motion.h), the readers and writers (clip_formats.h);
 * vkskin.h includes them all.
 *
 * THREADS: sets and bindings are immutable once made; any number of threads may sample one.
 */
#ifndef VKSKIN_CLIP_H
#define VKSKIN_CLIP_H

#include "core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vks_interp {
    VKS_INTERP_STEP = 0, /* hold a key's value until the next key */
    VKS_INTERP_LINEAR,   /* lerp; rotations: slerp along the shorter arc */
    VKS_INTERP_HERMITE,  /* cubic Hermite from in/out tangents in value per second (TCB keys
                            are turned into these at load); rotations normalised after */
    VKS_INTERP_BSPLINE   /* clamped uniform cubic B-spline: values are key_count control points
                            spread over [start, stop] (Gamebryo NiBSpline*); times unused */
} vks_interp;

typedef enum vks_cycle {
    VKS_CYCLE_LOOP = 0, /* t mod duration */
    VKS_CYCLE_CLAMP,    /* held at 0 before and at duration after */
    VKS_CYCLE_MIRROR,   /* forward, then backward (Gamebryo "reverse") */
    VKS_CYCLE_RESET     /* librw: past the end plays as t = 0 (overshoot dropped) */
} vks_cycle;

typedef enum vks_clip_space {
    VKS_CLIP_LOCAL = 0,   /* tracks are absolute local transforms */
    VKS_CLIP_MODEL_DELTA, /* tracks are model-space deformations D from the bind pose (plain RTM) */
    VKS_CLIP_PARENT_DELTA /* tracks are parent-relative deformations L (binarised RTM):
                             D(n) = D(parent(n)) * L(n) through the bound skin's hierarchy */
} vks_clip_space;

typedef struct vks_curve {
    uint32_t key_count;       /* 0: not animated (the bind component is kept) */
    uint32_t components;      /* 3 translation/scale, 4 quaternion, 1 Euler angle */
    vks_interp interp;
    const float *times;       /* key_count seconds, non-decreasing (BSPLINE: NULL) */
    const float *values;      /* key_count * components */
    const float *in_tangents; /* HERMITE: key_count * components, per second; else NULL */
    const float *out_tangents;
    float start, stop;        /* BSPLINE: the span of the control points (start < stop) */
} vks_curve;

typedef struct vks_track {
    const char *node_name; /* never NULL */
    int32_t node_tag;      /* HAnim node ID / bone tag; meaningful when has_tag */
    int32_t has_tag;
    int32_t node_index;    /* place in the skin's animation order (vks_node.anim_index: a .anm
                              track has no name, only its place); meaningful when has_index */
    int32_t has_index;
    vks_curve translation; /* 3 components */
    vks_curve rotation;    /* 4: x, y, z, w (Hamilton) */
    vks_curve euler[3];    /* 1 each, radians about x, y, z, used where rotation has no keys
                              and any of them has: R = Rz * Ry * Rx (x applied first); a missing
                              angle curve is 0 */
    vks_curve scale;       /* 3 (uniform scales stored as three equal components) */
} vks_track;

typedef struct vks_clip_event {
    float time;        /* seconds */
    const char *name;  /* never NULL */
    const char *value; /* never NULL; may be "" */
} vks_clip_event;

/* A morph weights channel (glTF `weights`; skin.h, MORPH TARGETS): the weights of the mesh(es)
 * a node places, every target at once. Bound by name to the skin's meshes whose node_name is
 * node_name (exact, then case-insensitive); a mesh it reaches must have as many targets as the
 * curve has components. Sampled component by component: STEP holds, LINEAR lerps (never
 * slerps, whatever the count), HERMITE is glTF's CUBICSPLINE. */
typedef struct vks_morph_track {
    const char *node_name; /* never NULL */
    vks_curve weights;     /* components: the target count; key_count >= 1 */
} vks_morph_track;

typedef struct vks_clip {
    const char *name;        /* never NULL; may be "" */
    float duration;          /* seconds, > 0 */
    float fps;               /* frame rate of a frame-based source, 0 when times are native */
    vks_cycle cycle;         /* what the file asks for (a player may override it) */
    vks_clip_space space;
    vks_track *tracks;
    uint32_t track_count;
    vks_clip_event *events;  /* text keys, footsteps: kept and shown, not played */
    uint32_t event_count;
    int32_t root_track;      /* the track whose translation is root motion, -1: none */
    float motion[3];         /* whole-cycle displacement the format stores (RTM), else 0 */
    /* added in 0.5 (at the end: the library allocates clips) */
    vks_morph_track *morph_tracks; /* morph weights channels (vks_morph_track) */
    uint32_t morph_track_count;
} vks_clip;

typedef struct vks_skin_arena vks_skin_arena;

typedef struct vks_clip_set {
    const char *format;        /* "rtm", "renderware-anm", "ifp", "pose-json", ... */
    const char *format_detail; /* "RTM_0101", "BMTR v4", "ANP3", ... */
    vks_clip *clips;
    uint32_t clip_count;
    vks_allocator allocator;
    vks_skin_arena *arena;
} vks_clip_set;

/* An empty set whose arrays come from an arena over allocator (NULL: malloc). */
VKS_API vks_clip_set *vks_clip_set_create(const vks_allocator *allocator);
VKS_API void vks_clip_set_free(vks_clip_set *set);
/* Zeroed memory owned by the set; NULL on overflow or exhaustion. */
VKS_API void *vks_clip_set_alloc(vks_clip_set *set, size_t count, size_t elem);
VKS_API const char *vks_clip_set_strndup(vks_clip_set *set, const char *s, size_t len);

/* Checks every clip: duration > 0 and finite, curve components right for their channel,
 * times finite and non-decreasing within [0, duration] (BSPLINE: start < stop, at least 4
 * control points), values and tangents finite, events inside the clip, root_track in range;
 * and what the float32 engines need to agree with the double reference: quaternion keys
 * with a norm in 2^-60..2^60 (not zero), Euler angles within +-128 rad, translations, scales,
 * tangents and motion within +-2^48 (src/core/clip_float32.c has the reasoning). Errors name
 * the clip, track, channel and key. */
VKS_API vks_result vks_clip_set_validate(const vks_clip_set *set, vks_error *err);
/* What readers call on the set they made, its arrays in its arena: conditions the keys in
 * double where float32 needs it, then vks_clip_set_validate. Quaternion keys with a norm
 * outside 2^-8..2^8 are normalised (step, linear) or their curve scaled by a common power of
 * two (Hermite, B-spline: the same rotations); an Euler curve that leaves +-128 rad is reduced
 * to -pi..pi, keeping the turns between keys where it can. Other keys are left bit for bit. */
VKS_API vks_result vks_clip_set_finish(vks_clip_set *set, vks_error *err);

/* Index of the clip named name (exact, then case-insensitive), or of the number name is
 * ("2"), or -1. NULL or "": clip 0. */
VKS_API int32_t vks_clip_set_find(const vks_clip_set *set, const char *name);

#ifdef __cplusplus
}
#endif
#endif
