/* vkskin check: diff metrics between an engine's output and the reference (DESIGN.md 8).
 *
 * STEP BY STEP
 *   vks_diff_tolerance tol = vks_diff_default_tolerance();
 *   vks_diff_report r;
 *   vks_diff(gpu_pos, ref_pos, instances, skin->vertex_count, radius, &tol, &r);
 *   if (!r.pass) ...
 *
 * THREADS
 *   Pure functions over the caller's arrays: safe on several threads at once, each with its
 *   own report.
 */
#ifndef VKSKIN_CHECK_H
#define VKSKIN_CHECK_H

#include "core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vks_diff_tolerance {
    double abs_radius; /* |a-b| allowed per component, as a fraction of scale (or of the radius) */
    double scale;      /* what abs_radius multiplies; 0: the radius given to the diff. Set it to
                          vks_skin_error_scale(skin) for models far from their origin */
    double rel;        /* plus this fraction of |b| */
    double nmse;       /* global NMSE allowed */
} vks_diff_tolerance;

typedef struct vks_skin vks_skin;
/* The scale a model's float32 errors grow with: max(bounding radius, bind world translations,
 * inverse-bind translations). Pass it as `radius` to the diff for the default tolerances. */
VKS_API double vks_skin_error_scale(const vks_skin *skin);

/* The scale of one posed instance: model_scale (vks_skin_error_scale), or more when the pose
 * takes the skeleton or the vertices farther out: the largest world translation of a bone's
 * node or a mesh's skin-space node (the skin matrices cancel those against each other) and
 * the largest deformed position. A pose that moves a node by 1e38 makes the engines handle
 * numbers of 1e38, whose float32 spacing is 1e31: measured against the model alone, a correct
 * engine would fail. Judge by the reference, never by the engine under test (a wrong engine
 * must not widen its own tolerance): world from vks_cpu_world_d, positions the reference's
 * (skin->vertex_count vec3). O(nodes + vertices). */
VKS_API double vks_posed_error_scale(const vks_skin *skin, double model_scale, const vks_affine_d *world,
                             const float *positions);

/* Defaults derived from float32 error bounds; the reasoning is in src/check/tolerance.c.
 * scale is left 0 (the radius); callers set it from vks_skin_error_scale. */
VKS_API vks_diff_tolerance vks_diff_default_tolerance(void);
VKS_API vks_diff_tolerance vks_diff_default_normal_tolerance(void);

typedef struct vks_diff_report {
    double max_abs;       /* largest |a-b| over components */
    double max_rel;       /* largest |a-b| / scale of its instance (max_abs / radius when
                             every instance uses the radius) */
    double nmse;          /* sum (a-b)^2 / sum b^2 (0 when both are 0) */
    uint64_t over;        /* components over tolerance (including non-finite ones) */
    uint64_t compared;    /* components compared */
    uint32_t worst_instance, worst_vertex;
    double radius;
    double max_scale;     /* largest scale a tolerance was taken of (per-instance scales can
                             exceed the radius) */
    vks_diff_tolerance tolerance;
    int pass;
} vks_diff_report;

/* Streaming form: a batch compared chunk by chunk gives the same report as one call.
 * a: the engine under test, b: the reference; instance-major vec3 arrays of
 * instances * vertices entries, the first being instance first_instance. */
typedef struct vks_diff_acc {
    vks_diff_report r;
    double sum_sq_diff, sum_sq_ref;
} vks_diff_acc;
VKS_API void vks_diff_begin(vks_diff_acc *acc, double radius, const vks_diff_tolerance *tol);
VKS_API void vks_diff_add(vks_diff_acc *acc, const float *a, const float *b, uint32_t first_instance,
                  uint32_t instances, uint32_t vertices);
/* The same with a scale per instance (instance_scale[i] for a's i-th instance, e.g. from
 * vks_posed_error_scale) in place of the tolerance's; NULL: vks_diff_add. */
VKS_API void vks_diff_add_scaled(vks_diff_acc *acc, const float *a, const float *b, uint32_t first_instance,
                         uint32_t instances, uint32_t vertices, const double *instance_scale);
VKS_API void vks_diff_end(const vks_diff_acc *acc, vks_diff_report *out);

/* The same comparison split for threads. The counts and extremes of vks_diff_add_scaled do not
 * depend on the order they are taken in, the two sums of squares (NMSE) do: so a range cut in
 * parts can be compared part by part on several threads (vks_diff_add_extremes into an
 * accumulator of each part's own, begun with the same radius and tolerance) and merged in the
 * parts' order (vks_diff_merge: later parts win only a strictly larger extreme, as one pass
 * would), while the sums are taken on one thread in the order of the components
 * (vks_diff_add_sums). Together they give the report one vks_diff_add_scaled over the range
 * gives, bit for bit, whatever the cut. */
VKS_API void vks_diff_add_extremes(vks_diff_acc *acc, const float *a, const float *b, uint32_t first_instance,
                                   uint32_t instances, uint32_t vertices, const double *instance_scale);
/* Adds the squares of components [0, components) of a - b and of b, in order (non-finite
 * components skipped, as vks_diff_add_scaled does). */
VKS_API void vks_diff_add_sums(vks_diff_acc *acc, const float *a, const float *b, size_t components);
/* Adds part, a range compared after acc's, into acc: counts and sums add, extremes as above. */
VKS_API void vks_diff_merge(vks_diff_acc *acc, const vks_diff_acc *part);

/* One-shot form of the three calls above. */
VKS_API void vks_diff(const float *a, const float *b, uint32_t instances, uint32_t vertices, double radius,
              const vks_diff_tolerance *tol, vks_diff_report *out);

#ifdef __cplusplus
}
#endif
#endif
