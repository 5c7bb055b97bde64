/* Diff metrics between an engine's output and the reference: pure functions over flat
 * float arrays. A component fails when |a - b| > abs_radius * scale + rel * |b| or when
 * either value is not finite; scale is the tolerance's, else the radius, else (larger) the
 * instance's own (vks_diff_add_scaled). */
#include "vkskin/check.h"

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

/* One pass over the components; with_sums 0 leaves the order-bound sums to vks_diff_add_sums.
 * Inlined into both callers, so the one with sums is the loop it always was. */
static inline void add_scaled(vks_diff_acc *acc, const float *a, const float *b, uint32_t first_instance,
                              uint32_t instances, uint32_t vertices, const double *instance_scale, int with_sums)
{
    vks_diff_report *r = &acc->r;
    double rel = r->tolerance.rel;
    double worst = r->max_abs;
    for (uint32_t i = 0; i < instances; i++) {
        double scale = r->tolerance.scale > 0 ? r->tolerance.scale : r->radius, rel_to = r->radius;
        if (instance_scale && instance_scale[i] > scale) /* never below the model's own */
            scale = rel_to = instance_scale[i];
        if (scale > r->max_scale)
            r->max_scale = scale;
        double abs_tol = r->tolerance.abs_radius * scale, per_scale = 1.0 / rel_to;
        for (uint32_t v = 0; v < vertices; v++) {
            size_t at = ((size_t)i * vertices + v) * 3;
            for (int k = 0; k < 3; k++) {
                double x = a[at + k], y = b[at + k], d = fabs(x - y);
                r->compared++;
                if (!isfinite(x) || !isfinite(y)) {
                    r->over++;
                    r->max_rel = INFINITY;
                    if (worst < INFINITY) {
                        worst = INFINITY;
                        r->worst_instance = first_instance + i;
                        r->worst_vertex = v;
                    }
                    continue;
                }
                if (with_sums) {
                    acc->sum_sq_diff += d * d;
                    acc->sum_sq_ref += y * y;
                }
                if (d > abs_tol + rel * fabs(y))
                    r->over++;
                if (d * per_scale > r->max_rel)
                    r->max_rel = d * per_scale;
                if (d > worst) {
                    worst = d;
                    r->worst_instance = first_instance + i;
                    r->worst_vertex = v;
                }
            }
        }
    }
    r->max_abs = worst;
}

void vks_diff_add_scaled(vks_diff_acc *acc, const float *a, const float *b, uint32_t first_instance,
                         uint32_t instances, uint32_t vertices, const double *instance_scale)
{
    add_scaled(acc, a, b, first_instance, instances, vertices, instance_scale, 1);
}

void vks_diff_add_extremes(vks_diff_acc *acc, const float *a, const float *b, uint32_t first_instance,
                           uint32_t instances, uint32_t vertices, const double *instance_scale)
{
    add_scaled(acc, a, b, first_instance, instances, vertices, instance_scale, 0);
}

void vks_diff_add_sums(vks_diff_acc *acc, const float *a, const float *b, size_t components)
{
    double sd = acc->sum_sq_diff, sr = acc->sum_sq_ref;
    for (size_t i = 0; i < components; i++) {
        double x = a[i], y = b[i], d = fabs(x - y);
        if (!isfinite(x) || !isfinite(y))
            continue;
        sd += d * d;
        sr += y * y;
    }
    acc->sum_sq_diff = sd, acc->sum_sq_ref = sr;
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
