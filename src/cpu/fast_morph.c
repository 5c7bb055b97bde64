/* The fast CPU engine's morph stage (skin.h, MORPH TARGETS) for weights given per instance:
 * a chunk of a mesh's vertices moved by that instance's weights, in float, into a thread's
 * scratch, which the kernel's preparation then reads as it reads the rest (fast.c). Targets
 * whose weight is 0 are skipped, so a mesh no weight moves costs one pass over its weights. */
#include "fast_morph.h"

#include <string.h>

int vks__fast_morph_active(const vks_skin *s, const float *w, uint32_t m)
{
    const vks_mesh *me = &s->meshes[m];
    for (uint32_t t = me->first_target; t < me->first_target + me->target_count; t++)
        if (w[t] != 0.0f)
            return 1;
    return 0;
}

void vks__fast_morph_chunk(const vks_skin *s, const vks_mesh *me, const float *w, uint32_t c0, uint32_t n,
                           float (*pos)[3], float (*nrm)[3])
{
    int has_n = nrm && (me->flags & VKS_MESH_HAS_NORMALS) && s->normals;
    memcpy(pos, s->positions[c0], (size_t)n * sizeof *pos);
    if (has_n)
        memcpy(nrm, s->normals[c0], (size_t)n * sizeof *nrm);
    uint32_t local = c0 - me->first_vertex;
    float *P = pos[0], *N = has_n ? nrm[0] : NULL; /* flat: one vectorisable loop per array */
    for (uint32_t t = me->first_target; t < me->first_target + me->target_count; t++) {
        const vks_morph_target *mt = &s->targets[t];
        float wt = w[t];
        if (wt == 0.0f)
            continue;
        const float *dp = mt->position[local];
        for (uint32_t i = 0; i < 3 * n; i++)
            P[i] += wt * dp[i];
        if (N && mt->normal) {
            const float *dn = mt->normal[local];
            for (uint32_t i = 0; i < 3 * n; i++)
                N[i] += wt * dn[i];
        }
    }
}
