/* The scale float32 errors grow with (see tolerance.c): the larger of the bounding radius
 * and the magnitudes of the bind-pose world translations and skin-space transforms, since
 * the skin matrices cancel those large translations against each other; for one posed
 * instance, also the posed world translations and deformed positions. */
#include "vkskin/check.h"
#include "vkskin/skin.h"

#include <math.h>
#include <stdlib.h>

double vks_skin_error_scale(const vks_skin *s)
{
    double scale = vks_skin_bounding_radius(s);
    vks_affine_d *world = malloc((s->node_count ? s->node_count : 1) * sizeof *world);
    if (!world)
        return scale;
    for (uint32_t i = 0; i < s->node_count; i++) {
        vks_affine_d l = vks_affine_d_from(&s->nodes[i].bind_local);
        world[i] = s->nodes[i].parent < 0 ? l : vks_affine_d_mul(&world[s->nodes[i].parent], &l);
        double t = sqrt(world[i].m[9] * world[i].m[9] + world[i].m[10] * world[i].m[10] +
                        world[i].m[11] * world[i].m[11]);
        if (t > scale)
            scale = t;
    }
    for (uint32_t b = 0; b < s->bone_count; b++) {
        const float *m = s->bones[b].inverse_bind.m;
        double t = sqrt((double)m[9] * m[9] + (double)m[10] * m[10] + (double)m[11] * m[11]);
        if (t > scale)
            scale = t;
    }
    free(world);
    return scale;
}

/* Length of a translation; 0 when not finite (such values fail the diff on their own and must
   not widen its tolerance). */
static double length3(const double *t)
{
    double d = sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
    return isfinite(d) ? d : 0.0;
}

double vks_posed_error_scale(const vks_skin *s, double model_scale, const vks_affine_d *world, const float *positions)
{
    double scale = model_scale;
    for (uint32_t b = 0; b < s->bone_count; b++) {
        double t = length3(&world[s->bones[b].node].m[9]);
        if (t > scale)
            scale = t;
    }
    for (uint32_t m = 0; m < s->mesh_count; m++)
        if (s->meshes[m].space_node >= 0) {
            double t = length3(&world[s->meshes[m].space_node].m[9]);
            if (t > scale)
                scale = t;
        }
    /* the longest vertex by its square, one square root after: sqrt is monotonic and rounds
       correctly, so the root of the largest square is the largest root (a square root per
       vertex was a visible part of validate's host time) */
    double longest_sq = 0;
    for (uint32_t v = 0; v < s->vertex_count; v++) {
        const float *p = positions + (size_t)v * 3;
        double x = p[0], y = p[1], z = p[2], sq = x * x + y * y + z * z;
        longest_sq = isfinite(sq) && sq > longest_sq ? sq : longest_sq;
    }
    double d = sqrt(longest_sq);
    return d > scale ? d : scale;
}
