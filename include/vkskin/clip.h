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
 * THREADS: sets and bindings are immutable once made; any number of threads may sample one.
 */
#ifndef VKSKIN_CLIP_H
#define VKSKIN_CLIP_H

#include "formats.h"
#include "pose.h"

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

/* ---- binding a clip to a skin ---- */

typedef struct vks_clip_binding {
    uint32_t node_count;       /* the skin's */
    int32_t *track_of_node;    /* per skin node: track index, -1 none */
    uint32_t bound_tracks;     /* tracks that drive a node */
    uint32_t unmatched_tracks; /* tracks naming no node of the skin */
    int32_t *unmatched;        /* their indices, unmatched_tracks entries */
    uint32_t untouched_nodes;  /* skin nodes no track drives (they keep the bind local, or for
                                  delta clips D = identity) */
    float (*bind_trs)[10];     /* per node: its bind local as t[3], q[4] (x,y,z,w), s[3]
                                  (vks_affine_to_trs): what a track's missing channels keep */
    vks_affine_d *bind_world;  /* per node: bind world in the skin space of the skin's first mesh
                                  (S_b Wb: where a delta clip's matrices act) and its inverse */
    vks_affine_d *bind_world_inv;
    vks_affine_d skin_space_inv; /* S_b^-1: from that skin space back to the skeleton's */
    vks_allocator allocator;
} vks_clip_binding;

/* Each track binds to the skin node with the same tag when both have one, else to the node
 * with its animation index when both have one, else by name: exact first, then
 * case-insensitive (RTM and RenderWare names differ in case between files).
 * Two tracks on one node: the first wins and the second counts as unmatched. */
VKS_API vks_result vks_clip_bind(const vks_clip *clip, const vks_skin *skin, vks_clip_binding *out,
                                 vks_error *err);
VKS_API vks_result vks_clip_bind_with(const vks_clip *clip, const vks_skin *skin, const vks_allocator *a,
                                      vks_clip_binding *out, vks_error *err);
VKS_API void vks_clip_binding_free(vks_clip_binding *b);

/* ---- sampling ---- */

/* Time t (seconds, any value) mapped into [0, duration] by cycle. */
VKS_API double vks_clip_local_time(const vks_clip *clip, vks_cycle cycle, double t);

/* The clip time an instance playing clip from start at speed shows at source time T:
 * start + speed * T mapped into [0, duration] by cycle, as vks_clip_local_time does, but
 * computed in float, operation for operation as the GPU's pose pass computes it (the crowd,
 * crowd.h). It is the one definition of a playing clip's time: the CPU reference samples
 * and poses in double at this float time, so both sides sample the same keys (a time
 * computed in double can fall on the other side of a STEP key). Loop and mirror take the
 * largest whole number of periods k with t - period * k >= 0 in float; beyond 2^24 periods
 * from 0 the time is 0. */
VKS_API float vks_clip_play_time_f(const vks_clip *clip, vks_cycle cycle, float start, float speed, float T);
/* The same for a playback (pose.h's vks_clip_play) at source time T (taken as a float). */
VKS_API double vks_clip_play_time(const struct vks_clip_play *play, double T);

/* One curve at local time t (already cycled), components floats into out; quaternions come
 * out normalised. Float math (the fast path) and double math (the reference). */
VKS_API void vks_curve_sample(const vks_curve *c, float t, float *out);
VKS_API void vks_curve_sample_d(const vks_curve *c, double t, double *out);

/* The skin's node_count locals at local time t: every bound track's channels replacing the
 * bind local's components (MODEL_DELTA: converted to locals through the bind worlds).
 * The float version is the fast engines'; the _d version samples and composes in double and
 * rounds once, and is what the CPU reference poses with. O(nodes + tracks * log keys);
 * allocates nothing. */
VKS_API void vks_clip_sample_locals(const vks_clip *clip, const vks_clip_binding *b, const vks_skin *skin,
                                    float t, vks_affine *out);
VKS_API void vks_clip_sample_locals_d(const vks_clip *clip, const vks_clip_binding *b, const vks_skin *skin,
                                      double t, vks_affine *out);

/* Morph weights (skin.h, MORPH TARGETS). How many of the skin's meshes with targets a morph
 * track of the clip reaches (0: the clip plays no weights on this skin); VKS_ERR_INVALID when a
 * track reaches a mesh whose target count is not its component count (the error names both).
 * O(meshes * morph tracks) name comparisons. */
VKS_API vks_result vks_clip_morph_meshes(const vks_clip *clip, const vks_skin *skin, uint32_t *meshes,
                                         vks_error *err);
/* The skin's target_count weights at local time t, in double rounded once: each mesh a morph
 * track reaches takes the track's sample, the others their targets' default weights. For a
 * clip vks_clip_morph_meshes accepted; allocates nothing. */
VKS_API void vks_clip_sample_weights_d(const vks_clip *clip, const vks_skin *skin, double t, float *out);

/* ---- layers (pose.h's vks_clip_layers: the blend rule is written there) ---- */

/* The transition ramp at source time T: smoothstep of clamp((T - start) / duration, 0, 1),
 * in float, operation for operation as the GPU pose pass computes it; duration <= 0 (or not
 * finite): 0 before start, 1 from start on. */
VKS_API float vks_clip_fade_ramp(float fade_start, float fade_duration, float T);
/* Layer k's weight at source time T: its weight times its fade (1, 1 - s or s), in float. */
VKS_API float vks_clip_layer_weight(const vks_clip_layers *l, uint32_t k, float T);
/* The skin's node_count locals of a layered instance at source time T: each layer's clip time
 * by vks_clip_play_time_f (float, as the GPU), then sampled, split, blended and composed in
 * double and rounded once: the CPU reference's rule. Every layer's binding must be for skin.
 * With root_motion, the motion node's translation is taken out (vks_clip_layers_root_motion).
 * Allocates nothing. */
VKS_API void vks_clip_layers_locals_d(const vks_clip_layers *l, const vks_skin *skin, float T, vks_affine *out);
/* The skin's target_count morph weights of a layered instance at source time T, in double
 * rounded once, by the rule of src/core/clip_layers_morph.c: unmasked NORMAL layers blend the
 * weights by weighted sum (renormalised; none: the defaults), unmasked ADDITIVE layers add
 * weight * (w(t) - w(reference)); masked layers drive no weights. Allocates nothing. */
VKS_API void vks_clip_layers_weights_d(const vks_clip_layers *l, const vks_skin *skin, float T, float *out);

/* Root motion (in-place playback). The motion node is the first skin node (parents come
 * first) that the first layer's clip drives; root_motion names the up axis
 * (VKS_ROOT_MOTION_Y_UP or _Z_UP), or'ed with VKS_ROOT_MOTION_YAW to take the turn out too.
 * The motion at T is the node's blended local translation
 * minus its bind local translation, with the up component zeroed (a walk's bob stays in the
 * pose), in the node's parent space; in-place playback subtracts it from the node's
 * translation. Over a loop the motion at the end minus the motion at the start is the clip's
 * own root displacement.
 * Yaw (VKS_ROOT_MOTION_YAW): the node's blended local rotation q against its bind local
 * rotation b, d = q b^-1 (the turn in the parent space), split by swing-twist about the up axis
 * u: the twist is d's (u-component, w) normalised, taken with w >= 0, and the yaw its angle,
 * 2 atan2(d.u, d.w) in radians within [-pi, pi], counter-clockwise seen from +u. That pair's
 * length is cos(s / 2), s the swing: the angle between u and d u. Near a half swing (the node
 * upside down: flips, cartwheels) the twist is ill-conditioned, its angle moving by the pose's
 * rounding over that length, so float and double engines would take out different turns.
 * There is no yaw (0, the rotation kept as it is) where the pair is shorter than
 * VKS_ROOT_YAW_MIN_TWIST = 1/32, i.e. d u within 2 asin(1/32) = 3.58 degrees of -u; past that
 * bound the engines' yaws agree to within 64 times their rounding. In-place playback
 * pre-multiplies the node's rotation by the twist's inverse; its in-place translation is the
 * same as without yaw. So the original local is L = T(g + m) R_u(yaw) T(-g) L', with L' the
 * in-place local, m the motion and g the bind local translation with its up component zeroed:
 * the agent turns about the node's bind ground point. Translation alone keeps every number of
 * before yaw. The float GPU pose pass (compute/layers.glsl) takes the same steps. */
enum { VKS_ROOT_MOTION_OFF = 0, VKS_ROOT_MOTION_Y_UP = 1, VKS_ROOT_MOTION_Z_UP = 2, VKS_ROOT_MOTION_YAW = 4 };
/* The shortest twist pair (d.u, d.w) a yaw is taken from (above); a power of two, so float
   and double compare against the same number. */
#define VKS_ROOT_YAW_MIN_TWIST 0.03125
/* The up axis bits of a root_motion value (VKS_ROOT_MOTION_Y_UP, _Z_UP or 0). */
#define VKS_ROOT_MOTION_UP(root_motion) ((root_motion) & 3)
/* Whether a root_motion value is one of: 0, Y_UP, Z_UP, either of those | YAW. */
#define VKS_ROOT_MOTION_VALID(root_motion)                                                                   \
    ((root_motion) == 0 ||                                                                                   \
     (((root_motion) & ~7) == 0 && (VKS_ROOT_MOTION_UP(root_motion) == 1 || VKS_ROOT_MOTION_UP(root_motion) == 2)))
VKS_API int32_t vks_clip_layers_motion_node(const vks_clip_layers *l, const vks_skin *skin);
/* The motion at T in double (zero without root_motion or a motion node). */
VKS_API void vks_clip_layers_root_motion(const vks_clip_layers *l, const vks_skin *skin, float T, double out[3]);
/* The yaw at T in radians, in double (zero without VKS_ROOT_MOTION_YAW or a motion node). */
VKS_API double vks_clip_layers_root_yaw(const vks_clip_layers *l, const vks_skin *skin, float T);
/* Both from one sampling of the layers (a root-motion track writes them per frame): out[0..2]
 * the motion as vks_clip_layers_root_motion, out[3] the yaw as vks_clip_layers_root_yaw. */
VKS_API void vks_clip_layers_root_track(const vks_clip_layers *l, const vks_skin *skin, float T, double out[4]);

/* ---- readers ---- */

/* Every clip reader has this shape. opt: allocator, logger and limits (max_nodes bounds the
 * tracks of a clip). Errors name the offset and the structure, as the model readers' do. */
typedef vks_result (*vks_clip_reader_fn)(const vks_read_options *opt, const void *bytes, size_t size,
                                         vks_clip_set **out, vks_error *err);

/* Arma RTM, plain (RTM_0101, with RTM_MDAT events: MODEL_DELTA) and binarised (BMTR 3-5,
 * LZO arrays: PARENT_DELTA, composed through the P3D skin's model.cfg skeleton when bound).
 * RTM stores no duration: opt->clip.duration (<= 0: 1 s); phases become times. */
VKS_API vks_result vks_rtm_read(const vks_read_options *opt, const void *bytes, size_t size,
                                vks_clip_set **out, vks_error *err);
/* RenderWare .anm (chunk 0x1B, standard and compressed keys) and legacy .ska. */
VKS_API vks_result vks_rw_anm_read(const vks_read_options *opt, const void *bytes, size_t size,
                                   vks_clip_set **out, vks_error *err);
VKS_API vks_result vks_rw_ska_read(const vks_read_options *opt, const void *bytes, size_t size,
                                   vks_clip_set **out, vks_error *err);
/* GTA .ifp: ANPK (III/VC), ANP2, ANP3 (San Andreas). */
VKS_API vks_result vks_ifp_read(const vks_read_options *opt, const void *bytes, size_t size,
                                vks_clip_set **out, vks_error *err);
/* Gamebryo / NetImmerse animation (formats/animation.md section 2): .kf files (one clip per
 * NiControllerSequence root, 10.1.0.0 .. 20.2.0.7; a Morrowind NiSequenceStreamHelper file as
 * one clip) and the animation inside a .nif (the sequences of an NiControllerManager, or one
 * clip of the NiKeyframeControllers on its nodes, as in Morrowind models). LOCAL tracks named
 * by node; linear, quadratic, TBC, XYZ Euler, constant and B-spline keys; text keys as events. */
VKS_API vks_result vks_nif_kf_read(const vks_read_options *opt, const void *bytes, size_t size,
                                   vks_clip_set **out, vks_error *err);
/* NintendoWare CTR skeletal animation XML (.cskla): one clip per SkeletalAnimationData,
 * frames at opt->clip.fps (<= 0: 30; the file stores no rate). The schema is probable (no
 * public sample); the variants read and the rules are listed in src/formats/cmdl/cskla_read.c.
 * Errors name the line and column. */
VKS_API vks_result vks_cskla_read(const vks_read_options *opt, const void *bytes, size_t size,
                                  vks_clip_set **out, vks_error *err);
/* glTF 2.0 animations (.gltf or .glb; external buffers through opt->gltf.path and opt->file):
 * one LOCAL clip per animation, named by the animation (its index when unnamed), tracks named
 * as vks_gltf_read names nodes (unnamed: "nodes[3]"); LINEAR, STEP and CUBICSPLINE (Hermite)
 * translation / rotation / scale; `weights` channels counted in format_detail, not played. */
VKS_API vks_result vks_gltf_clip_read(const vks_read_options *opt, const void *bytes, size_t size,
                                      vks_clip_set **out, vks_error *err);
/* Reads the clip file at path through opt->file (zeroed: the file system, max_size applied),
 * detects its clip format (vks_detect_clip_format) and reads it: what vks_read_file is for
 * models. A .gltf's external buffers are read beside it through opt->file (opt->gltf.path
 * NULL: path). A failure to read the file has err->path "file"; bytes no clip reader takes are
 * VKS_ERR_FORMAT. Pose JSON needs a skin: vks_pose_json_clip_read. */
VKS_API vks_result vks_read_clips(const vks_read_options *opt, const char *path, vks_clip_set **out,
                                  vks_error *err);
/* A pose JSON's frames as one linear clip at opt->clip.fps (<= 0: 30) frames per second:
 * the skin's nodes named in it become tracks (names resolved against skin, as the pose
 * file parser does). */
VKS_API vks_result vks_pose_json_clip_read(const vks_skin *skin, const vks_read_options *opt, const void *bytes,
                                           size_t size, vks_clip_set **out, vks_error *err);

/* ---- writers (fixtures, the generator's clips) ----
 * Each writes a whole file into a growable buffer; the caller frees *out_bytes with free().
 * The skin gives the node order, names and tags the format wants, and the bind pose where
 * the format's space differs from the clip's (a LOCAL clip written as RTM deltas). */
typedef struct vks_clip_write_options {
    uint32_t version;  /* RTM: 0 plain RTM_0101, 3..5 binarised BMTR; IFP: 1 ANPK, 2 ANP2,
                          3 ANP3 (0: ANP3); .anm: 0 standard */
    int compressed;    /* .anm: compressed keys; BMTR: LZO arrays; IFP ANP3: int16 keys */
    uint32_t frames;   /* formats that store frames (RTM): frames over the clip, 0: 30 per
                          second of duration plus one */
} vks_clip_write_options;

VKS_API vks_result vks_rtm_write(const vks_clip *clip, const vks_skin *skin, const vks_clip_write_options *opt,
                                 uint8_t **out_bytes, size_t *out_size, vks_error *err);
VKS_API vks_result vks_rw_anm_write(const vks_clip *clip, const vks_skin *skin, const vks_clip_write_options *opt,
                                    uint8_t **out_bytes, size_t *out_size, vks_error *err);
VKS_API vks_result vks_rw_ska_write(const vks_clip *clip, const vks_skin *skin, const vks_clip_write_options *opt,
                                    uint8_t **out_bytes, size_t *out_size, vks_error *err);
VKS_API vks_result vks_ifp_write(const vks_clip_set *set, const vks_skin *skin, const vks_clip_write_options *opt,
                                 uint8_t **out_bytes, size_t *out_size, vks_error *err);
/* NintendoWare .cskla: every LOCAL clip of the set, its tracks on the skin's nodes, with the
 * skin's bind pose as the file's <Skeleton>. Frames at the first clip's fps (0: 30), which the
 * reader must be given as opt->clip.fps. Step, linear and Hermite curves keep their keys;
 * quaternion rotations and B-splines become Hermite Euler keys at every frame (opt->frames
 * samples over the clip when given) and at their own keys. */
VKS_API vks_result vks_cskla_write(const vks_clip_set *set, const vks_skin *skin, const vks_clip_write_options *opt,
                                   uint8_t **out_bytes, size_t *out_size, vks_error *err);

/* Every clip of set as one .kf: an NiControllerSequence root per clip, NiTransformData keys
 * (LINEAR, STEP -> constant, HERMITE -> quadratic with per-segment tangents; Euler curves as
 * XYZ rotation keys) and text keys from the events ("name: value" where a value is set).
 * opt->version: 0 or 0x14020007 writes 20.2.0.7 (string table, NiTransformInterpolators;
 * B-spline tracks as NiBSplineTransformInterpolator, or with opt->compressed the compact
 * NiBSplineCompTransformInterpolator), 0x0A010000 writes 10.1.0.0 (inline names,
 * NiKeyframeController + NiKeyframeData per track, timing on the controllers; no B-splines).
 * Hermite quaternions are written as quadratic quaternion keys, which carry no tangents (read
 * back with Catmull-Rom ones). LOCAL clips only; skin (may be NULL) names each track after the
 * node it binds to. */
VKS_API vks_result vks_nif_kf_write(const vks_clip_set *set, const vks_skin *skin, const vks_clip_write_options *opt,
                                    uint8_t **out_bytes, size_t *out_size, vks_error *err);

/* The clip reader for these bytes (by magic, then by extension), or NULL. A NIF (the header
 * text "NetImmerse File Format" / "Gamebryo File Format") and a ".kf" name give
 * vks_nif_kf_read: a .nif is a model file to vks_detect_format and a clip file here, for a
 * caller that asks for clips (a .nif with keyframe controllers is both). */
VKS_API vks_clip_reader_fn vks_detect_clip_format(const void *bytes, size_t size, const char *name,
                                                  const char **format_name);

#ifdef __cplusplus
}
#endif
#endif
