/* The CPU reference's morph stage (skin.h, MORPH TARGETS): glTF's p_m = p + sum_t w_t dp_t and
 * n_m = n + sum_t w_t dn_t in double, targets in order, then the reference's skinning sum
 * (vks__ref_vertex) on p_m and n_m. Groups of meshes that no weight moves keep the plain loops
 * (and their AVX2 form), so a model without targets runs as before. */
#include "reference_internal.h"
#include "core/skin_morph.h"

int vks__ref_mesh_morphed(const vks_skin *s, uint32_t m, const float *weights)
{
    const vks_mesh *me = &s->meshes[m];
    for (uint32_t t = me->first_target; t < me->first_target + me->target_count; t++)
        if (vks__morph_weight(s, weights, t) != 0.0f)
            return 1;
    return 0;
}

void vks__ref_group_morph(const vks_skin *s, const vks_group *gr, const vks_affine_d *K, const float *weights,
                          float *pos, float *nrm)
{
    const vks_mesh *me = &s->meshes[gr->mesh];
    int has_n = (me->flags & VKS_MESH_HAS_NORMALS) != 0;
    for (uint32_t v = gr->first_vertex; v < gr->first_vertex + gr->vertex_count; v++) {
        double pv[3], nv[3];
        vks__ref_load(s, me, v, pv, nv);
        uint32_t local = v - me->first_vertex;
        for (uint32_t t = me->first_target; t < me->first_target + me->target_count; t++) {
            const vks_morph_target *mt = &s->targets[t];
            double w = vks__morph_weight(s, weights, t);
            if (w == 0)
                continue;
            for (int k = 0; k < 3; k++) {
                pv[k] += w * mt->position[local][k];
                if (has_n && mt->normal)
                    nv[k] += w * mt->normal[local][k];
            }
        }
        vks__ref_vertex(s, gr, K, v, pv, nv, pos, nrm);
    }
}
