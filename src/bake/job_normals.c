/* Normals for a model that has none (job_internal.h, vks__bake_fill_normals): without them every
 * normal texel would be zero, which engines draw black, flat white or grey. Each frame's
 * normals come from its deformed triangles, smooth and area-weighted: a vertex's normal is the
 * sum of the cross products (b - a) x (c - a) of the triangles around it, normalised, and
 * vertices at one rest position (a seam split for UVs, or a file of unshared triangles such as
 * Fox.glb) share the sum, so the surface shades smooth across them. The sidecars say so. */
#include "bake/job_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct keyed {
    float p[3];
    uint32_t v;
} keyed;

static int by_position(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    for (int k = 0; k < 3; k++)
        if (x->p[k] != y->p[k])
            return x->p[k] < y->p[k] ? -1 : 1;
    return x->v < y->v ? -1 : x->v > y->v;
}

/* rep[v]: the first vertex at v's rest position (exactly equal coordinates) */
static uint32_t *welded(const vks_skin *s)
{
    uint32_t n = s->vertex_count;
    keyed *k = malloc(sizeof *k * (n ? n : 1));
    uint32_t *rep = malloc(sizeof *rep * (n ? n : 1));
    if (!k || !rep) {
        free(k);
        free(rep);
        return NULL;
    }
    for (uint32_t v = 0; v < n; v++) {
        memcpy(k[v].p, s->positions[v], sizeof k[v].p);
        k[v].v = v;
    }
    qsort(k, n, sizeof *k, by_position);
    for (uint32_t i = 0; i < n; i++)
        rep[k[i].v] = i > 0 && !memcmp(k[i].p, k[i - 1].p, sizeof k[i].p) ? rep[k[i - 1].v] : k[i].v;
    free(k);
    return rep;
}

/* One frame: pos and nrm are vertex_count vec3; sum is vertex_count dvec3 of scratch. */
static void frame_normals(const vks_skin *s, const uint32_t *rep, const float *pos, float *nrm, double *sum)
{
    uint32_t n = s->vertex_count;
    memset(sum, 0, sizeof *sum * 3 * (size_t)n);
    for (uint32_t m = 0; m < s->mesh_count; m++) {
        const vks_mesh *mesh = &s->meshes[m];
        for (uint32_t t = mesh->first_triangle; t < mesh->first_triangle + mesh->triangle_count; t++) {
            uint32_t i[3];
            for (int c = 0; c < 3; c++)
                i[c] = mesh->first_vertex + s->triangles[t][c];
            const float *a = pos + 3 * (size_t)i[0], *b = pos + 3 * (size_t)i[1], *c = pos + 3 * (size_t)i[2];
            double e[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, f[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
            double x[3] = {e[1] * f[2] - e[2] * f[1], e[2] * f[0] - e[0] * f[2], e[0] * f[1] - e[1] * f[0]};
            for (int v = 0; v < 3; v++)
                for (int k = 0; k < 3; k++)
                    sum[3 * (size_t)rep[i[v]] + k] += x[k]; /* twice the area along the normal */
        }
    }
    for (uint32_t v = 0; v < n; v++) {
        const double *d = sum + 3 * (size_t)rep[v];
        double l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        for (int k = 0; k < 3; k++) /* a vertex on no triangle of any area keeps a zero normal */
            nrm[3 * (size_t)v + k] = l > 0 ? (float)(d[k] / l) : 0.0f;
    }
}

int vks__bake_fill_normals(const vks_bake_loaded *l, vks_bake_frames *fr)
{
    const vks_skin *s = l->skin;
    if (s->normals || !fr->normals || !fr->positions)
        return 1;
    uint32_t *rep = welded(s);
    double *sum = malloc(sizeof *sum * 3 * (size_t)(s->vertex_count ? s->vertex_count : 1));
    int ok = rep && sum;
    size_t per = 3 * (size_t)s->vertex_count;
    for (uint32_t f = 0; ok && f < l->frames; f++)
        frame_normals(s, rep, fr->positions + f * per, fr->normals + f * per, sum);
    free(rep);
    free(sum);
    return ok;
}

const char *vks__bake_normals_note(const vks_skin *s)
{
    return s->normals ? "the model's, skinned"
                      : "computed per frame: smooth, area-weighted over the deformed triangles, vertices at one rest "
                        "position sharing one (the model has none)";
}
