/* Diff metrics between an engine's output and the reference: pure functions over flat
 * float arrays. A component fails when |a - b| > abs_radius * scale + rel * |b| or when
 * either value is not finite; scale is the tolerance's, else the radius, else (larger) the
 * instance's own (vks_diff_add_scaled). */
#include "vkskin/check.h"

#include "compare.h"

#include <math.h>
#include <string.h>

void vks_diff_begin(vks_diff_acc *acc, double radius, const vks_diff_tolerance *tol)
{
    memset(acc, 0, sizeof *acc);
    acc->r.radius = radius > 0 ? radius : 1e-6;
    acc->r.tolerance = tol ? *tol : vks_diff_default_tolerance();
    acc->r.max_scale = acc->r.tolerance.scale > 0 ? acc->r.tolerance.scale : acc->r.radius;
}

void vks_diff_add(vks_diff_acc *acc, const float *a, const float *b, uint32_t first_instance, uint32_t instances,
                  uint32_t vertices)
{
    vks_diff_add_scaled(acc, a, b, first_instance, instances, vertices, NULL);
}

/* The pass itself is compare.c's, shared with the error maps. */
void vks_diff_add_scaled(vks_diff_acc *acc, const float *a, const float *b, uint32_t first_instance,
                         uint32_t instances, uint32_t vertices, const double *instance_scale)
{
    vks__compare(acc, 1, NULL, NULL, 0, a, b, first_instance, instances, vertices, instance_scale, NULL, NULL);
}

void vks_diff_add_extremes(vks_diff_acc *acc, const float *a, const float *b, uint32_t first_instance,
                           uint32_t instances, uint32_t vertices, const double *instance_scale)
{
    vks__compare(acc, 0, NULL, NULL, 0, a, b, first_instance, instances, vertices, instance_scale, NULL, NULL);
}

void vks_diff_merge(vks_diff_acc *acc, const vks_diff_acc *part)
{
    vks_diff_report *a = &acc->r;
    const vks_diff_report *b = &part->r;
    acc->sum_sq_diff += part->sum_sq_diff, acc->sum_sq_ref += part->sum_sq_ref;
    a->compared += b->compared, a->over += b->over;
    /* strictly larger: on a tie the earlier range keeps the worst, as a single pass does */
    if (b->max_abs > a->max_abs)
        a->max_abs = b->max_abs, a->worst_vertex = b->worst_vertex, a->worst_instance = b->worst_instance;
    if (b->max_rel > a->max_rel)
        a->max_rel = b->max_rel;
    if (b->max_scale > a->max_scale)
        a->max_scale = b->max_scale;
}

void vks_diff_end(const vks_diff_acc *acc, vks_diff_report *out)
{
    *out = acc->r;
    out->nmse = acc->sum_sq_ref > 0 ? acc->sum_sq_diff / acc->sum_sq_ref : (acc->sum_sq_diff > 0 ? INFINITY : 0);
    out->pass = out->over == 0 && out->nmse <= out->tolerance.nmse;
}

void vks_diff(const float *a, const float *b, uint32_t instances, uint32_t vertices, double radius,
              const vks_diff_tolerance *tol, vks_diff_report *out)
{
    vks_diff_acc acc;
    vks_diff_begin(&acc, radius, tol);
    vks_diff_add(&acc, a, b, 0, instances, vertices);
    vks_diff_end(&acc, out);
}
