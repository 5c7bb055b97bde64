/* vkskin clips bound to a skin and sampled (clip.h has the model): which track drives which
 * node, a clip's time as a player computes it, curves, locals and morph weights at a time.
 *
 * THREADS: bindings are immutable once made; any number of threads may sample one.
 */
#ifndef VKSKIN_CLIP_SAMPLE_H
#define VKSKIN_CLIP_SAMPLE_H

#include "clip.h"
#include "pose.h"
#include "skin.h"

#ifdef __cplusplus
extern "C" {
#endif

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
/* What a host says of a binding that leaves nodes of the skin undriven (b->untouched_nodes):
 * "note: the clip LABEL animates N of the model's M nodes; the other K keep their bind pose"
 * into buf (size bytes), for the host to prefix with the model's name. Returns buf, or NULL
 * (buf untouched) when the clip drives every node. Since 0.7 (before: a copy in the vkskin
 * program and one in the bake job engine). */
VKS_API const char *vks_clip_binding_note(const vks_clip_binding *b, const char *label, char *buf, size_t size);

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

#ifdef __cplusplus
}
#endif
#endif
