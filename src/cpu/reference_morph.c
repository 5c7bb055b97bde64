/* The CPU reference's morph stage (skin.h, MORPH TARGETS): glTF's p_m = p + sum_t w_t dp_t and
 * n_m = n + sum_t w_t dn_t in double, targets in order, then the reference's skinning sum
 * (vks__ref_vertex) on p_m and n_m. Groups of meshes that no weight moves keep the plain loops
 * (and their AVX2 form), so a model without targets runs as before. */
#include "ref_kernel.h"
#include "core/skin_morph.h"

int vks__ref_mesh_morphed(const vks_skin *s, uint32_t m, const float *weights)
{
    const vks_mesh *me = &s->meshes[m];
    for (uint32_t t = me->first_target; t < me->first_target + me->target_count; t++)
        if (vks__morph_weight(s, weights, t) != 0.0f)
            return 1;
    return 0;
}

/* The targets with a weight are gathered once per group, up to this many (a mesh with more
 * active targets gathers them per vertex): the sum runs over them in the targets' order. */
#define ACTIVE_CAP 64

/* The active targets of mesh me at weights from t on, up to ACTIVE_CAP: their count; *next is
 * where the gathering stopped (the mesh's end when all fit). */
static uint32_t gather(const vks_skin *s, const vks_mesh *me, const float *weights, uint32_t t,
                       const vks_morph_target **act, double *w, uint32_t *next)
{
    uint32_t n = 0, end = me->first_target + me->target_count;
    for (; t < end && n < ACTIVE_CAP; t++)
        if ((w[n] = vks__morph_weight(s, weights, t)) != 0)
            act[n++] = &s->targets[t];
    *next = t;
    return n;
}

void vks__ref_group_morph(const vks_skin *s, const vks_group *gr, const vks_affine_d *K, const float *weights,
                          float *pos, float *nrm)
{
    const vks_mesh *me = &s->meshes[gr->mesh];
    int has_n = (me->flags & VKS_MESH_HAS_NORMALS) != 0;
    const vks_morph_target *act[ACTIVE_CAP];
    double w[ACTIVE_CAP];
    uint32_t end = me->first_target + me->target_count, next;
    uint32_t n = gather(s, me, weights, me->first_target, act, w, &next);
    int all = next == end; /* every active target gathered: no per-vertex gathering */
    for (uint32_t v = gr->first_vertex; v < gr->first_vertex + gr->vertex_count; v++) {
        double pv[3], nv[3];
        vks__ref_load(s, me, v, pv, nv);
        uint32_t local = v - me->first_vertex, t = me->first_target;
        do {
            if (!all)
                n = gather(s, me, weights, t, act, w, &t);
            for (uint32_t i = 0; i < n; i++)
                for (int k = 0; k < 3; k++) {
                    pv[k] += w[i] * act[i]->position[local][k];
                    if (has_n && act[i]->normal)
                        nv[k] += w[i] * act[i]->normal[local][k];
                }
        } while (!all && t < end);
        vks__ref_vertex(s, gr, K, v, pv, nv, pos, nrm);
    }
}
