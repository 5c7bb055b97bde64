/* See morph_fixture.h. */
#include "morph_fixture.h"

#include <math.h>

int morph_fixture_targets(vks_skin *s, uint32_t count)
{
    vks_mesh *me = &s->meshes[0];
    s->targets = vks_skin_alloc_array(s, count, sizeof *s->targets);
    if (!s->targets)
        return 0;
    s->target_count = me->target_count = count;
    me->first_target = 0;
    double r = vks_skin_bounding_radius(s);
    for (uint32_t t = 0; t < count; t++) {
        vks_morph_target *mt = &s->targets[t];
        mt->mesh = 0, mt->index = t, mt->name = "";
        mt->position = vks_skin_alloc_array(s, me->vertex_count, sizeof *mt->position);
        mt->normal = t % 3 == 0 ? vks_skin_alloc_array(s, me->vertex_count, sizeof *mt->normal) : NULL;
        if (!mt->position || (t % 3 == 0 && !mt->normal))
            return 0;
        for (uint32_t v = 0; v < me->vertex_count; v++) {
            const float *p = s->positions[me->first_vertex + v];
            if (t % 3 == 0) {
                mt->position[v][0] = (float)(0.05 * r * sin(p[1] * 3 + t)), mt->position[v][2] = (float)(0.03 * r);
                mt->normal[v][1] = 0.25f;
            } else if (t % 3 == 1) {
                mt->position[v][1] = (float)(0.1 * p[0]);
            } else if (v % 7 == 0) {
                mt->position[v][0] = mt->position[v][1] = (float)(0.02 * r);
            }
        }
    }
    return 1;
}

