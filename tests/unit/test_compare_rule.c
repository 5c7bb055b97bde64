/* The comparison's one pass (vks_diff_and_map_add, and vks_diff_add_scaled / _extremes and
 * vks_error_map_add, which share it) against the rule as written before it was made fast: the
 * per-component loops below, copied from the diff and the error map as they were. Every
 * field of the report and of the map must be the same bits, on noise and on what a fast form
 * gets wrong first: non-finite values on either side (first, last, several), ties of the worst
 * difference, errors exactly on the histogram's edges, an odd vertex count (the vector loop's
 * tail), per-instance scales, and tolerances whose limit can be zero or negative (the rule's
 * own branch), for each form the pass takes (AVX2 where the CPU has it, SSE2, scalar).
 * vkskin validate's JSON metrics rest on this. */
#include <math.h>
#include <string.h>

#include "check/compare.h"
#include "testutil.h"
#include "vkskin/report.h"

/* ---- the rule, as it was: diff.c's add_scaled and report_errors.c's map ---- */

static void rule_diff(vks_diff_acc *acc, const float *a, const float *b, uint32_t first_instance,
                      uint32_t instances, uint32_t vertices, const double *instance_scale, int with_sums)
{
    vks_diff_report *r = &acc->r;
    double rel = r->tolerance.rel;
    double worst = r->max_abs;
    for (uint32_t i = 0; i < instances; i++) {
        double scale = r->tolerance.scale > 0 ? r->tolerance.scale : r->radius, rel_to = r->radius;
        if (instance_scale && instance_scale[i] > scale)
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

static const double bin_edges[VKS_REPORT_BINS - 2] = {1e-4, 1e-3, 1e-2, 0.1, 0.5, 1.0, 10.0, 100.0};

static int bin_of(double e)
{
    if (!isfinite(e))
        return VKS_REPORT_BINS - 1;
    int k = 0;
    while (k < VKS_REPORT_BINS - 2 && (bin_edges[k] <= 1.0 ? e >= bin_edges[k] : e > bin_edges[k]))
        k++;
    return k;
}

static double vertex_error(const float *a, const float *b, double abs_tol, double rel)
{
    double worst = 0;
    for (int k = 0; k < 3; k++) {
        double x = a[k], y = b[k];
        if (!isfinite(x) || !isfinite(y))
            return INFINITY;
        double d = fabs(x - y), lim = abs_tol + rel * fabs(y);
        double e = lim > 0 ? d / lim : (d > 0 ? INFINITY : 0);
        if (e > worst)
            worst = e;
    }
    return worst;
}

static void rule_map(vks_error_map *m, const vks_diff_tolerance *tol, double radius, const float *a, const float *b,
                     uint32_t first_instance, uint32_t instances, const double *instance_scale,
                     const float *draw_positions, const float *draw_normals)
{
    uint32_t nv = m->vertices;
    radius = radius > 0 ? radius : 1e-6;
    for (uint32_t i = 0; i < instances; i++) {
        double scale = tol->scale > 0 ? tol->scale : radius;
        if (instance_scale && instance_scale[i] > scale)
            scale = instance_scale[i];
        double abs_tol = tol->abs_radius * scale, inst_worst = 0;
        size_t at = (size_t)i * nv * 3;
        for (uint32_t v = 0; v < nv; v++) {
            double e = vertex_error(a + at + (size_t)v * 3, b + at + (size_t)v * 3, abs_tol, tol->rel);
            m->hist[bin_of(e)]++;
            if (e > m->max_error[v])
                m->max_error[v] = (float)e;
            if (e > inst_worst)
                inst_worst = e;
        }
        if (inst_worst <= m->worst)
            continue;
        m->worst = inst_worst, m->worst_instance = first_instance + i;
        for (uint32_t v = 0; v < nv; v++)
            m->error[v] = (float)vertex_error(a + at + (size_t)v * 3, b + at + (size_t)v * 3, abs_tol, tol->rel);
        if (draw_positions)
            memcpy(m->positions, draw_positions + at, (size_t)nv * 3 * sizeof(float));
        if (draw_normals)
            memcpy(m->normals, draw_normals + at, (size_t)nv * 3 * sizeof(float));
    }
}

/* ---- the comparison ---- */

enum { I = 9, MAXV = 33 };

static uint32_t rng = 777;
static float noise(void)
{
    rng = rng * 1664525u + 1013904223u;
    return (float)((rng >> 8) & 0xffff) / 65536.0f - 0.5f;
}

static int same_bits(double x, double y) { return memcmp(&x, &y, sizeof x) == 0; }

static int same_acc(const vks_diff_acc *x, const vks_diff_acc *y)
{
    const vks_diff_report *a = &x->r, *b = &y->r;
    return same_bits(a->max_abs, b->max_abs) && same_bits(a->max_rel, b->max_rel) &&
           same_bits(a->max_scale, b->max_scale) && a->over == b->over && a->compared == b->compared &&
           a->worst_vertex == b->worst_vertex && a->worst_instance == b->worst_instance &&
           same_bits(x->sum_sq_diff, y->sum_sq_diff) && same_bits(x->sum_sq_ref, y->sum_sq_ref);
}

static int same_map(const vks_error_map *a, const vks_error_map *b, uint32_t nv)
{
    return !memcmp(a->hist, b->hist, sizeof a->hist) && same_bits(a->worst, b->worst) &&
           a->worst_instance == b->worst_instance && !memcmp(a->error, b->error, nv * sizeof(float)) &&
           !memcmp(a->max_error, b->max_error, nv * sizeof(float)) &&
           !memcmp(a->positions, b->positions, nv * 3 * sizeof(float)) &&
           !memcmp(a->normals, b->normals, nv * 3 * sizeof(float));
}

static int cases;

/* got against ref, I instances of nv vertices, in two calls (the second continues the first's
 * accumulators, as chunks do), by the rule and by each fast entry point. */
static void compare(const float *got, const float *ref, uint32_t nv, const double *scales,
                    const vks_diff_tolerance *dtol, const vks_diff_tolerance *mtol, const char *what)
{
    vks_diff_acc r_ext, r_sum, f_ext, f_sum, f_both;
    vks_diff_begin(&r_ext, 0.8, dtol), vks_diff_begin(&r_sum, 0.8, dtol);
    vks_diff_begin(&f_ext, 0.8, dtol), vks_diff_begin(&f_sum, 0.8, dtol), vks_diff_begin(&f_both, 0.8, dtol);
    vks_error_map rm, fm, bm;
    CHECK(vks_error_map_init(&rm, nv) == VKS_OK && vks_error_map_init(&fm, nv) == VKS_OK &&
          vks_error_map_init(&bm, nv) == VKS_OK);
    uint32_t cut = I / 3;
    for (int part = 0; part < 2; part++) {
        uint32_t a = part ? cut : 0, n = part ? I - cut : cut;
        size_t at = (size_t)a * nv * 3;
        const double *s = scales ? scales + a : NULL;
        rule_diff(&r_ext, got + at, ref + at, 40 + a, n, nv, s, 0);
        rule_diff(&r_sum, got + at, ref + at, 40 + a, n, nv, s, 1);
        rule_map(&rm, mtol, 0.8, got + at, ref + at, 40 + a, n, s, ref + at, got + at);
        vks_diff_add_extremes(&f_ext, got + at, ref + at, 40 + a, n, nv, s);
        vks_diff_add_scaled(&f_sum, got + at, ref + at, 40 + a, n, nv, s);
        vks_error_map_add(&fm, mtol, 0.8, got + at, ref + at, 40 + a, n, s, ref + at, got + at);
        vks_diff_and_map_add(&f_both, &bm, mtol, 0.8, got + at, ref + at, 40 + a, n, nv, s, ref + at, got + at);
    }
    int ok = same_acc(&r_ext, &f_ext) && same_acc(&r_sum, &f_sum) && same_acc(&r_ext, &f_both) &&
             same_map(&rm, &fm, nv) && same_map(&rm, &bm, nv);
    if (!ok) {
        fprintf(stderr,
                "%s (%u vertices): rule max %.17g rel %.17g over %llu at %u.%u worst %.17g; fast max %.17g rel %.17g "
                "over %llu at %u.%u worst %.17g / %.17g\n",
                what, nv, r_ext.r.max_abs, r_ext.r.max_rel, (unsigned long long)r_ext.r.over, r_ext.r.worst_instance,
                r_ext.r.worst_vertex, rm.worst, f_both.r.max_abs, f_both.r.max_rel,
                (unsigned long long)f_both.r.over, f_both.r.worst_instance, f_both.r.worst_vertex, fm.worst,
                bm.worst);
        CHECK(0);
    }
    cases++;
    vks_error_map_free(&rm), vks_error_map_free(&fm), vks_error_map_free(&bm);
}

/* Every tolerance below against the same data. */
static void all_tolerances(const float *got, const float *ref, uint32_t nv, const double *scales, const char *what)
{
    vks_diff_tolerance pos = vks_diff_default_tolerance(), nrm = vks_diff_default_normal_tolerance();
    vks_diff_tolerance zero = {0, 0, 0, 1e-9};          /* limit 0: only exact matches pass */
    vks_diff_tolerance rel_only = {0, 0, 1e-3, 1e-9};   /* limit 0 where b is 0 */
    vks_diff_tolerance negative = {-1e-4, 1, 0, 1e-9};  /* a limit below zero: the rule's branch */
    vks_diff_tolerance wide = {0.05, 0, 0.02, 1e-9};     /* errors across the histogram */
    vks_diff_tolerance halves = {1.0, 0.5, 0, 1e-9};     /* a limit of 0.5: edges hit exactly */
    vks_diff_tolerance thirds = {0.3, 1.0 / 3, 0, 1e-9}; /* an absolute limit whose reciprocal is
                                                            inexact: one division, not a product */
    const vks_diff_tolerance *tols[] = {&pos, &nrm, &zero, &rel_only, &negative, &wide, &halves, &thirds};
    for (size_t t = 0; t < sizeof tols / sizeof *tols; t++)
        for (size_t u = 0; u < sizeof tols / sizeof *tols; u++)
            compare(got, ref, nv, scales, tols[t], tols[u], what);
}

static void all_cases(void);

int main(void)
{
    /* every form of the pass: AVX2 (where the CPU has it), SSE2, scalar */
    static const int widths[] = {4, 2, 1};
    for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {
        vks__compare_vector_width(widths[w]);
        all_cases();
    }
    CHECK(cases == 3 * 6 * 8 * 64);
    return vks_test_finish("test_compare_rule");
}

static void all_cases(void)
{
    static float ref[I * MAXV * 3], got[I * MAXV * 3];
    double scales[I];
    for (int i = 0; i < I; i++)
        scales[i] = i % 3 ? 0.5 + i * 0.4 : 0.1; /* some below the radius: never below it */
    uint32_t counts[] = {1, 2, 3, 16, 17, MAXV};
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
        uint32_t nv = counts[c];
        size_t n = (size_t)I * nv * 3;
        for (size_t j = 0; j < n; j++) {
            ref[j] = noise() * 4.0f;
            /* differences over many decades: every histogram bin gets some */
            got[j] = ref[j] + noise() * powf(10.0f, (float)(j % 9) - 7.0f);
        }
        ref[1] = 0.0f; /* b = 0: a relative-only limit of 0 */
        all_tolerances(got, ref, nv, scales, "noise");
        all_tolerances(got, ref, nv, NULL, "noise, no scales");
        /* errors on the edges of the histogram for the limit 0.5 (exactly on those a float holds) */
        for (uint32_t v = 0; v < nv && v < 8; v++) {
            static const double edge[8] = {1e-4, 1e-3, 1e-2, 0.1, 0.5, 1.0, 10.0, 100.0};
            size_t j = ((size_t)2 * nv + v) * 3;
            ref[j] = 0.0f, ref[j + 1] = 0.0f, ref[j + 2] = 0.0f;
            got[j] = (float)(edge[v] * 0.5), got[j + 1] = (float)edge[v];
        }
        all_tolerances(got, ref, nv, NULL, "edges");
        /* ties: the same largest difference in several instances and vertices */
        for (int i = 0; i < I; i++)
            for (uint32_t v = nv / 2; v < nv; v += 2)
                ref[((size_t)i * nv + v) * 3 + 1] = 1.0f, got[((size_t)i * nv + v) * 3 + 1] = 9.0f;
        all_tolerances(got, ref, nv, scales, "ties");
        /* non-finite: on the engine's side late, on the reference's side early, both at once */
        got[((size_t)(I - 1) * nv + nv - 1) * 3 + 2] = NAN;
        all_tolerances(got, ref, nv, scales, "NaN last");
        ref[((size_t)1 * nv) * 3 + (nv > 1 ? 4 : 1)] = INFINITY;
        all_tolerances(got, ref, nv, scales, "infinite reference");
        got[((size_t)4 * nv + nv / 2) * 3] = -INFINITY, ref[((size_t)4 * nv + nv / 2) * 3] = -INFINITY;
        got[0] = NAN;
        all_tolerances(got, ref, nv, scales, "non-finite first and both");
        /* a difference past float's range once doubled: exact in double, infinite error nowhere */
        got[((size_t)6 * nv) * 3 + 1] = 3e38f, ref[((size_t)6 * nv) * 3 + 1] = -3e38f;
        all_tolerances(got, ref, nv, scales, "huge");
    }
}
