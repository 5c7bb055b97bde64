/* Error maps: where on the mesh an engine is off the reference, relative to the tolerance.
 * The diff (diff.c) says how far and whether it passes; a map keeps per vertex the error of
 * the worst instance and the largest error over all instances, and a histogram, so a report
 * can colour the mesh and name the vertices that moved. Same tolerance rule as the diff. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vkskin/report.h"

#include "compare.h"

const char *vks_report_bin_label(int bin)
{
    static const char *labels[VKS_REPORT_BINS] = {"<1e-4", "1e-4..1e-3", "1e-3..0.01", "0.01..0.1", "0.1..0.5",
                                                  "0.5..1",  "1..10",      "10..100",    ">100",      "not finite"};
    return bin >= 0 && bin < VKS_REPORT_BINS ? labels[bin] : "?";
}

vks_result vks_error_map_init(vks_error_map *m, uint32_t vertices)
{
    memset(m, 0, sizeof *m);
    m->worst = -1;
    size_t n = vertices ? vertices : 1;
    m->error = calloc(n, sizeof *m->error);
    m->max_error = calloc(n, sizeof *m->max_error);
    m->positions = calloc(n * 3, sizeof *m->positions);
    m->normals = calloc(n * 3, sizeof *m->normals);
    if (!m->error || !m->max_error || !m->positions || !m->normals) {
        vks_error_map_free(m);
        return VKS_ERR_NOMEM;
    }
    m->vertices = vertices;
    return VKS_OK;
}

void vks_error_map_reset(vks_error_map *m)
{
    size_t n = m->vertices;
    memset(m->hist, 0, sizeof m->hist);
    m->worst = -1, m->worst_instance = 0;
    if (m->error) {
        memset(m->error, 0, n * sizeof *m->error);
        memset(m->max_error, 0, n * sizeof *m->max_error);
        memset(m->positions, 0, n * 3 * sizeof *m->positions);
        memset(m->normals, 0, n * 3 * sizeof *m->normals);
    }
}

void vks_error_map_free(vks_error_map *m)
{
    free(m->error), free(m->max_error), free(m->positions), free(m->normals);
    memset(m, 0, sizeof *m);
}

/* The pass is compare.c's, shared with the diff (the same tolerance rule). */
void vks_error_map_add(vks_error_map *m, const vks_diff_tolerance *tol, double radius, const float *a,
                       const float *b, uint32_t first_instance, uint32_t instances, const double *instance_scale,
                       const float *draw_positions, const float *draw_normals)
{
    if (!m->error)
        return;
    vks__compare(NULL, 0, m, tol, radius, a, b, first_instance, instances, m->vertices, instance_scale,
                 draw_positions, draw_normals);
}

void vks_diff_and_map_add(vks_diff_acc *acc, vks_error_map *m, const vks_diff_tolerance *map_tol,
                          double map_radius, const float *a, const float *b, uint32_t first_instance,
                          uint32_t instances, uint32_t vertices, const double *instance_scale,
                          const float *draw_positions, const float *draw_normals)
{
    vks__compare(acc, 0, m, map_tol, map_radius, a, b, first_instance, instances, vertices, instance_scale,
                 draw_positions, draw_normals);
}

void vks_error_map_merge(vks_error_map *into, const vks_error_map *part)
{
    uint32_t nv = into->vertices;
    if (!into->error || !part->error || part->vertices != nv)
        return;
    for (int k = 0; k < VKS_REPORT_BINS; k++)
        into->hist[k] += part->hist[k];
    for (uint32_t v = 0; v < nv; v++)
        if (part->max_error[v] > into->max_error[v])
            into->max_error[v] = part->max_error[v];
    if (part->worst > into->worst) {
        into->worst = part->worst, into->worst_instance = part->worst_instance;
        memcpy(into->error, part->error, (size_t)nv * sizeof(float));
        memcpy(into->positions, part->positions, (size_t)nv * 3 * sizeof(float));
        memcpy(into->normals, part->normals, (size_t)nv * 3 * sizeof(float));
    }
}

/* The vertices whose error e[v] is over 1, largest first, up to cap; returns how many. */
static uint32_t over(const float *e, uint32_t vertices, uint32_t *out, uint32_t cap)
{
    uint32_t total = 0, kept = 0;
    if (!e)
        return 0;
    for (uint32_t v = 0; v < vertices; v++) {
        if (!(e[v] > 1.0f))
            continue;
        total++;
        /* insertion into the kept list, largest first (cap is small: a report's list) */
        uint32_t at = kept < cap ? kept++ : cap;
        while (at > 0 && e[out[at - 1]] < e[v]) {
            if (at < cap)
                out[at] = out[at - 1];
            at--;
        }
        if (at < cap)
            out[at] = v;
    }
    return total;
}

uint32_t vks_error_map_over(const vks_error_map *m, uint32_t *out, uint32_t cap)
{
    return over(m->max_error, m->vertices, out, cap);
}

uint32_t vks_error_map_worst_over(const vks_error_map *m, uint32_t *out, uint32_t cap)
{
    return over(m->error, m->vertices, out, cap);
}

void vks_report_error_color(double e, uint8_t rgb[3])
{
    /* up to the tolerance on a log scale from 1e-4 (blue) through cyan, green, yellow to red;
       past it, toward magenta by 100x over */
    static const float stops[5][3] = {{0.15f, 0.25f, 0.85f}, {0.1f, 0.75f, 0.9f}, {0.2f, 0.8f, 0.3f},
                                      {0.95f, 0.85f, 0.15f}, {0.9f, 0.1f, 0.1f}};
    float c[3];
    if (!(e <= 1.0)) { /* over, or not finite */
        double t = isfinite(e) ? log10(e) / 2.0 : 1.0;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        c[0] = (float)(0.9 + 0.1 * t), c[1] = (float)(0.1 * (1 - t)), c[2] = (float)(0.1 + 0.8 * t);
    } else {
        double t = e > 1e-4 ? (log10(e) + 4.0) / 4.0 : 0.0;
        double x = t * 4.0;
        int k = x >= 4.0 ? 3 : (int)x;
        float f = (float)(x - k);
        for (int i = 0; i < 3; i++)
            c[i] = stops[k][i] + (stops[k + 1][i] - stops[k][i]) * f;
    }
    for (int i = 0; i < 3; i++)
        rgb[i] = (uint8_t)lrintf(c[i] * 255.0f);
}
