/* vks_apply_root (cpu.h): where an instance stands, applied to vertices the CPU engines
 * deformed at the origin. Named reference_* so it is compiled as the reference is (no FMA
 * contraction): its double arithmetic rounds where the source says, on every machine. */
#include <math.h>

#include "vkskin/cpu.h"

void vks_apply_root(const vks_skin *s, const vks_affine *root, float *pos, float *nrm)
{
    const float *m = root->m; /* columns x, y, z, translation */
    for (uint32_t me = 0; me < s->mesh_count; me++) {
        const vks_mesh *mesh = &s->meshes[me];
        int renorm = (mesh->flags & VKS_MESH_HAS_NORMALS) && (mesh->flags & VKS_MESH_RENORMALIZE);
        for (uint32_t v = mesh->first_vertex; v < mesh->first_vertex + mesh->vertex_count; v++) {
            float *p = pos + (size_t)v * 3;
            double x = p[0], y = p[1], z = p[2];
            for (int k = 0; k < 3; k++)
                p[k] = (float)(m[k] * x + m[3 + k] * y + m[6 + k] * z + m[9 + k]);
            if (!nrm)
                continue;
            float *n = nrm + (size_t)v * 3;
            double o[3], nx = n[0], ny = n[1], nz = n[2];
            for (int k = 0; k < 3; k++)
                o[k] = m[k] * nx + m[3 + k] * ny + m[6 + k] * nz;
            double len = renorm ? sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2]) : 1.0;
            for (int k = 0; k < 3; k++)
                n[k] = (float)(len > 0 ? o[k] / len : o[k]);
        }
    }
}
