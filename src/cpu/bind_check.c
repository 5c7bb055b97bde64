/* Bind-pose check: deforming with the bind pose must reproduce the stored vertices. A cheap,
 * strong test that a reader got the matrix conventions and the bone mapping right. */
#include "vkskin/check.h"
#include "vkskin/cpu.h"
#include "vkskin/pose.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

vks_result vks_cpu_bind_check(const vks_skin *skin, vks_bind_check *out, vks_error *err)
{
    memset(out, 0, sizeof *out);
    out->pass = 1;
    if (skin->vertex_count == 0)
        return VKS_OK;
    vks_affine *locals = malloc((skin->node_count ? skin->node_count : 1) * sizeof *locals);
    float *pos = malloc((size_t)skin->vertex_count * 3 * sizeof *pos);
    float *nrm = malloc((size_t)skin->vertex_count * 3 * sizeof *nrm);
    vks_result r = VKS_OK;
    if (!locals || !pos || !nrm) {
        r = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "bind check", "out of memory");
        goto done;
    }
    vks_pose_bind(skin, locals);
    vks_deform_job j = {skin, locals, 1, pos, nrm};
    r = vks_cpu_reference_run(&j, err);
    if (r != VKS_OK)
        goto done;
    for (uint32_t g = 0; g < skin->group_count; g++) {
        const vks_group *gr = &skin->groups[g];
        uint32_t m = gr->mesh;
        const vks_mesh *me = &skin->meshes[m];
        if (gr->flags & VKS_GROUP_RIGID) {
            out->rigid_skipped += gr->vertex_count;
            continue;
        }
        for (uint32_t v = gr->first_vertex; v < gr->first_vertex + gr->vertex_count; v++) {
            double e = 0;
            for (int i = 0; i < 3; i++) {
                double d = fabs((double)pos[v * 3 + i] - skin->positions[v][i]);
                if (d > e || d != d)
                    e = d;
            }
            if (e > out->max_error || e != e) {
                out->max_error = e;
                out->worst_vertex = v;
                out->worst_mesh = m;
            }
            if (m < 64 && (e > out->per_mesh_max[m] || e != e))
                out->per_mesh_max[m] = e;
            if (me->flags & VKS_MESH_HAS_NORMALS) {
                const float *n = skin->normals[v];
                double len = sqrt((double)n[0] * n[0] + (double)n[1] * n[1] + (double)n[2] * n[2]);
                double dn = 0;
                for (int i = 0; i < 3; i++) {
                    double d = fabs((double)nrm[v * 3 + i] - n[i]);
                    if (d > dn)
                        dn = d;
                }
                /* zero-length stored normals carry no direction to compare */
                if (len > 0 && dn > out->max_normal_error)
                    out->max_normal_error = dn;
            }
        }
    }
    out->max_error_relative = out->max_error / vks_skin_bounding_radius(skin);
    /* The stored vertices and inverse binds are float32 roundings of a consistent bind, the
       reference deforms them in double: what separates them is the same float32 noise the
       diff's tolerance bounds (tolerance.c), so the same bound judges them. */
    out->error_scale = vks_skin_error_scale(skin);
    out->tolerance = vks_diff_default_tolerance().abs_radius * out->error_scale;
    out->pass = out->max_error <= out->tolerance;
done:
    free(locals);
    free(pos);
    free(nrm);
    return r;
}
