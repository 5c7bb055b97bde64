/* Bind-pose check: deforming with the bind pose must reproduce the stored vertices. A cheap,
 * strong test that a reader got the matrix conventions and the bone mapping right. */
#include "vkskin/check.h"
#include "vkskin/cpu.h"
#include "vkskin/pose.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The largest errors of the bind-posed vertices pos/nrm against the stored ones, each stored
 * vertex first moved by place (NULL: as stored). */
static void measure(const vks_skin *skin, const float *pos, const float *nrm, const vks_affine *place,
                    vks_bind_check *out)
{
    for (uint32_t g = 0; g < skin->group_count; g++) {
        const vks_group *gr = &skin->groups[g];
        uint32_t m = gr->mesh;
        const vks_mesh *me = &skin->meshes[m];
        if (gr->flags & VKS_GROUP_RIGID) {
            out->rigid_skipped += gr->vertex_count;
            continue;
        }
        for (uint32_t v = gr->first_vertex; v < gr->first_vertex + gr->vertex_count; v++) {
            float want[3];
            memcpy(want, skin->positions[v], sizeof want);
            if (place) {
                const float *a = place->m, *p = skin->positions[v];
                for (int i = 0; i < 3; i++)
                    want[i] = a[i] * p[0] + a[3 + i] * p[1] + a[6 + i] * p[2] + a[9 + i];
            }
            double e = 0;
            for (int i = 0; i < 3; i++) {
                double d = fabs((double)pos[v * 3 + i] - want[i]);
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
                float wn[3] = {n[0], n[1], n[2]};
                for (int i = 0; place && i < 3; i++)
                    wn[i] = place->m[i] * n[0] + place->m[3 + i] * n[1] + place->m[6 + i] * n[2];
                double len = sqrt((double)n[0] * n[0] + (double)n[1] * n[1] + (double)n[2] * n[2]);
                double dn = 0;
                for (int i = 0; i < 3; i++) {
                    double d = fabs((double)nrm[v * 3 + i] - wn[i]);
                    if (d > dn)
                        dn = d;
                }
                /* zero-length stored normals carry no direction to compare */
                if (len > 0 && dn > out->max_normal_error)
                    out->max_normal_error = dn;
            }
        }
    }
}

/* 1 and *p when the bind skin matrix of every bone that a skinned group uses is one rigid
 * transform times a uniform scale *scale (columns orthogonal and of one length, a mirror
 * allowed), within tol at the model's radius. This is a placement above the skeleton that the
 * inverse binds leave out (a glTF root correction), or one they carry for the stored vertices
 * (KHR_mesh_quantization's dequantization, which gltfpack folds into the inverse binds of a
 * skinned mesh's integer positions): every vertex moves with it alike, which is not a reader's
 * error. */
static int common_placement(const vks_skin *skin, const vks_affine *locals, double radius, double tol,
                            vks_affine *p, double *scale)
{
    vks_affine *world = malloc((skin->node_count ? skin->node_count : 1) * sizeof *world);
    if (!world)
        return 0;
    for (uint32_t n = 0; n < skin->node_count; n++) {
        int32_t parent = skin->nodes[n].parent;
        world[n] = parent < 0 ? locals[n] : vks_affine_mul(&world[parent], &locals[n]);
    }
    int found = 0, same = 1;
    for (uint32_t g = 0; g < skin->group_count && same; g++) {
        const vks_group *gr = &skin->groups[g];
        if ((gr->flags & VKS_GROUP_RIGID) || gr->vertex_count == 0)
            continue;
        const vks_mesh *me = &skin->meshes[gr->mesh];
        vks_affine space = me->space_pre, inv;
        if (me->space_node >= 0 && vks_affine_inverse(&world[me->space_node], &inv))
            space = vks_affine_mul(&space, &inv);
        for (uint32_t k = 0; k < gr->palette_count && same; k++) {
            const vks_bone *b = &skin->bones[skin->palette[gr->first_palette + k]];
            vks_affine wb = vks_affine_mul(&world[b->node], &b->inverse_bind), km = vks_affine_mul(&space, &wb);
            if (!found) {
                *p = km, found = 1;
                continue;
            }
            for (int i = 0; i < 12 && same; i++)
                same = fabs((double)km.m[i] - p->m[i]) * (i < 9 ? radius : 1.0) <= tol;
        }
    }
    free(world);
    if (!found || !same)
        return 0;
    const float *m = p->m;
    double s2 = (double)m[0] * m[0] + (double)m[1] * m[1] + (double)m[2] * m[2];
    for (int a = 0; a < 3; a++)
        for (int b = a; b < 3; b++) {
            double d = (double)m[3 * a] * m[3 * b] + (double)m[3 * a + 1] * m[3 * b + 1] + (double)m[3 * a + 2] * m[3 * b + 2];
            if (!(fabs(d - (a == b) * s2) <= 1e-4 * s2))
                return 0;
        }
    *scale = sqrt(s2);
    vks_affine id = vks_affine_identity();
    return memcmp(&id, p, sizeof id) != 0;
}

vks_result vks_cpu_bind_check(const vks_skin *skin, vks_bind_check *out, vks_error *err)
{
    memset(out, 0, sizeof *out);
    out->pass = 1;
    out->placement = vks_affine_identity();
    if (skin->vertex_count == 0)
        return VKS_OK;
    vks_affine *locals = malloc((skin->node_count ? skin->node_count : 1) * sizeof *locals);
    float *pos = malloc((size_t)skin->vertex_count * 3 * sizeof *pos);
    float *nrm = malloc((size_t)skin->vertex_count * 3 * sizeof *nrm);
    /* the stored vertices are the mesh without its morph targets: every weight 0 here */
    float *no_morph = calloc(skin->target_count ? skin->target_count : 1, sizeof *no_morph);
    vks_result r = VKS_OK;
    if (!locals || !pos || !nrm || !no_morph) {
        r = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "bind check", "out of memory");
        goto done;
    }
    vks_pose_bind(skin, locals);
    vks_deform_job j = {skin, locals, 1, pos, nrm, no_morph};
    r = vks_cpu_reference_run(&j, err);
    if (r != VKS_OK)
        goto done;
    measure(skin, pos, nrm, NULL, out);
    double radius = vks_skin_bounding_radius(skin);
    out->max_error_relative = out->max_error / radius;
    /* The stored vertices and inverse binds are float32 roundings of a consistent bind, the
       reference deforms them in double: what separates them is the same float32 noise the
       diff's tolerance bounds (tolerance.c), so the same bound judges them. */
    out->error_scale = vks_skin_error_scale(skin);
    out->tolerance = vks_diff_default_tolerance().abs_radius * out->error_scale;
    out->pass = out->max_error <= out->tolerance;
    vks_affine place;
    double scale = 1;
    if (!out->pass && common_placement(skin, locals, radius, out->tolerance, &place, &scale) && scale > 0) {
        /* placed vertices are in the placement's units: the stored units' bounds times scale */
        vks_bind_check placed = *out;
        placed.max_error = placed.max_normal_error = 0, placed.rigid_skipped = 0;
        memset(placed.per_mesh_max, 0, sizeof placed.per_mesh_max);
        measure(skin, pos, nrm, &place, &placed);
        if (placed.max_error <= out->tolerance * scale) {
            *out = placed;
            out->max_error_relative = out->max_error / (radius * scale);
            out->tolerance *= scale, out->error_scale *= scale;
            out->pass = 1, out->placed = 1, out->placement = place;
        }
    }
done:
    free(locals);
    free(pos);
    free(nrm);
    free(no_morph);
    return r;
}
