/* The scale float32 errors grow with (see tolerance.c): the larger of the bounding radius
 * and the magnitudes of the bind-pose world translations and skin-space transforms, since
 * the skin matrices cancel those large translations against each other. */
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
