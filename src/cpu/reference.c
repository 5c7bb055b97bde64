/* The CPU reference deformer: the ground truth every other engine is judged against.
 *
 * Double arithmetic from the same float32 inputs, in the order the model defines
 * (skin.h): world = parent world * local; K_b = S_mesh * W(node) * IB; p' = sum w K p;
 * n' = sum w K3x3 n (renormalised where the mesh says its engine does), p and n first moved by
 * the mesh's morph targets where a weight is non-zero (reference_morph.c). Compiled with
 * -ffp-contract=off (CMakeLists.txt) so it rounds exactly where the source says. Simple on
 * purpose: the scalar loop below is the definition; where the CPU has AVX2 the same operations
 * run with a vertex's three components as vector lanes (reference_avx2.c), the same bits,
 * because vkskin validate runs the reference for every instance it checks; and a job of four
 * instances or more runs them four at a time (AVX2) or eight (AVX-512), an instance in each
 * lane (reference_lanes.c), the same bits again. */
#include "reference_internal.h"
#include "core/cpu_features.h"
#include "core/skin_morph.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

void vks_cpu_world_d(const vks_skin *skin, const vks_affine *locals, vks_affine_d *out)
{
    for (uint32_t i = 0; i < skin->node_count; i++) {
        vks_affine_d local = vks_affine_d_from(&locals[i]);
        int32_t p = skin->nodes[i].parent;
        out[i] = p < 0 ? local : vks_affine_d_mul(&out[p], &local);
    }
}

void vks_cpu_skin_matrices_d(const vks_skin *skin, const vks_affine_d *world, vks_affine_d *out)
{
    for (uint32_t m = 0; m < skin->mesh_count; m++) {
        const vks_mesh *me = &skin->meshes[m];
        vks_affine_d pre = vks_affine_d_from(&me->space_pre), space = pre;
        if (me->space_node >= 0) {
            vks_affine_d inv;
            vks_affine_d_inverse(&world[me->space_node], &inv);
            space = vks_affine_d_mul(&pre, &inv);
        }
        for (uint32_t b = me->first_bone; b < me->first_bone + me->bone_count; b++) {
            vks_affine_d ib = vks_affine_d_from(&skin->bones[b].inverse_bind);
            vks_affine_d wb = vks_affine_d_mul(&world[skin->bones[b].node], &ib);
            out[b] = vks_affine_d_mul(&space, &wb);
        }
    }
}

/* Deforms one group of one instance given the instance's skin matrices: the definition of the
 * reference's arithmetic (reference_avx2.c does the same operations per lane). */
void vks__ref_group_scalar(const vks_skin *s, const vks_group *gr, const vks_affine_d *K, float *pos, float *nrm)
{
    const vks_mesh *me = &s->meshes[gr->mesh];
    for (uint32_t v = gr->first_vertex; v < gr->first_vertex + gr->vertex_count; v++) {
        double pv[3], nv[3];
        vks__ref_load(s, me, v, pv, nv);
        vks__ref_vertex(s, gr, K, v, pv, nv, pos, nrm);
    }
}

/* K in columns for the vector form: lanes 0..2 of a column are the matrix's, lane 3 zero. */
void vks__ref_columns(const vks_affine_d *K, uint32_t count, vks__ref_cols *out)
{
    for (uint32_t b = 0; b < count; b++)
        for (int c = 0; c < 4; c++) {
            out[b].c[c][0] = K[b].m[3 * c], out[b].c[c][1] = K[b].m[3 * c + 1];
            out[b].c[c][2] = K[b].m[3 * c + 2], out[b].c[c][3] = 0;
        }
}

size_t vks__ref_compact_count(const vks_skin *s)
{
    size_t n = 0;
    for (uint32_t g = 0; g < s->group_count; g++)
        if (vks__ref_slots(&s->groups[g]) <= 4)
            n += s->groups[g].vertex_count;
    return n;
}

/* Records a group, not a vertex: a group's slots past its max_influences are zeroed, which
 * another group over the same vertices (in a model not validated) may not want. */
void vks__ref_compact(const vks_skin *s, vks__ref_infl4 *out)
{
    for (uint32_t g = 0; g < s->group_count; g++) {
        const vks_group *gr = &s->groups[g];
        int slots = vks__ref_slots(gr);
        if (slots > 4)
            continue;
        for (uint32_t v = gr->first_vertex; v < gr->first_vertex + gr->vertex_count; v++, out++)
            for (int k = 0; k < 4; k++) {
                out->index[k] = s->influences[v].index[k];
                out->weight[k] = k < slots ? s->influences[v].weight[k] : 0.0f;
            }
    }
}

/* Deforms one instance given its skin matrices (cols: NULL for the scalar loop), its morph
 * weights (NULL: the defaults) and, for the vector form, the run's compact records (in4: NULL
 * for none); groups whose mesh a target moves take the morph loop. */
static void deform_instance(const vks_skin *s, const vks_affine_d *K, vks__ref_cols *cols, const vks__ref_infl4 *in4,
                            const float *weights, float *pos, float *nrm)
{
    if (cols)
        vks__ref_columns(K, s->bone_count, cols);
    for (uint32_t g = 0; g < s->group_count; g++) {
        const vks_group *gr = &s->groups[g];
        const vks__ref_infl4 *own = in4 && vks__ref_slots(gr) <= 4 ? in4 : NULL;
        if (vks__ref_mesh_morphed(s, gr->mesh, weights))
            vks__ref_group_morph(s, gr, K, weights, pos, nrm);
        else if (cols)
            vks__ref_group_avx2(s, gr, cols, own, pos, nrm);
        else
            vks__ref_group_scalar(s, gr, K, pos, nrm);
        if (own)
            in4 += gr->vertex_count;
    }
}

static _Atomic uint32_t forced_lanes; /* vks__cpu_reference_force_lanes: 0 the CPU's choice */

void vks__cpu_reference_force_lanes(uint32_t lanes)
{
    atomic_store(&forced_lanes, lanes);
}

/* The crowd loop of `lanes` instances (reference_lanes.c), NULL where this build or CPU has none. */
static vks__ref_lanes_fn lanes_fn(uint32_t lanes)
{
    if (lanes == 8)
        return vks__ref_group_lanes8 && vks__cpu_has_avx512() ? vks__ref_group_lanes8 : NULL;
    if (lanes == 4)
        return vks__ref_group_lanes && vks__cpu_has_avx2() ? vks__ref_group_lanes : NULL;
    return NULL;
}

uint32_t vks__cpu_reference_lanes(void)
{
    uint32_t forced = atomic_load(&forced_lanes);
    if (vks__cpu_crowd_off() || forced == 1)
        return 0;
    if (forced)
        return lanes_fn(forced) ? forced : 0;
    return lanes_fn(8) ? 8 : lanes_fn(4) ? 4 : 0;
}

void vks__cpu_reference_lanes_run(const vks_skin *s, uint32_t lanes, const vks_affine *locals, vks_affine_d *worlds,
                                  vks_affine_d *K, vks__ref_lanes *lc, const vks__ref_infl4 *in4,
                                  const float *const *weights, float *pos, float *nrm, size_t stride)
{
    size_t bones = s->bone_count ? s->bone_count : 1;
    vks__ref_lanes_fn group = lanes_fn(lanes);
    for (uint32_t l = 0; l < lanes; l++) {
        vks_affine_d *world = worlds + (size_t)l * s->node_count;
        vks_cpu_world_d(s, locals + (size_t)l * s->node_count, world);
        vks_cpu_skin_matrices_d(s, world, K + l * bones);
    }
    for (uint32_t b = 0; b < s->bone_count; b++)
        for (int e = 0; e < 12; e++)
            for (uint32_t l = 0; l < lanes; l++)
                lc[b].e[e][l] = K[l * bones + b].m[e];
    for (uint32_t g = 0; g < s->group_count; g++) {
        const vks_group *gr = &s->groups[g];
        const vks__ref_infl4 *own = in4 && vks__ref_slots(gr) <= 4 ? in4 : NULL;
        int morphed = 0;
        for (uint32_t l = 0; l < lanes; l++)
            morphed |= vks__ref_mesh_morphed(s, gr->mesh, weights ? weights[l] : NULL);
        if (!morphed)
            group(s, gr, lc, own, pos, nrm, stride);
        for (uint32_t l = 0; morphed && l < lanes; l++)
            vks__ref_group_morph(s, gr, K + l * bones, weights ? weights[l] : NULL, pos + l * stride,
                                 nrm ? nrm + l * stride : NULL);
        if (own)
            in4 += gr->vertex_count;
    }
}

/* Instances first .. first + lanes - 1 of job at once (vks__cpu_reference_lanes_run). */
static void deform_lanes(const vks_deform_job *job, uint32_t lanes, uint32_t first, vks_affine_d *world,
                         vks_affine_d *K, vks__ref_lanes *lc, const vks__ref_infl4 *in4)
{
    const vks_skin *s = job->skin;
    const float *w[VKS__REF_LANES_MAX];
    for (uint32_t l = 0; l < lanes; l++)
        w[l] = vks__morph_instance_weights(job, first + l);
    const size_t stride = (size_t)s->vertex_count * 3, at = vks_deform_index(s, first, 0) * 3;
    vks__cpu_reference_lanes_run(s, lanes, job->locals + (size_t)first * s->node_count, world, K, lc, in4, w,
                                 job->positions + at, job->normals ? job->normals + at : NULL, stride);
}

void vks__cpu_reference_instance(const vks_skin *s, const vks_affine_d *world, vks_affine_d *K, vks__ref_cols *cols,
                                 const float *weights, float *pos, float *nrm)
{
    vks_cpu_skin_matrices_d(s, world, K);
    deform_instance(s, K, cols, NULL, weights, pos, nrm);
}

int vks__cpu_reference_has_simd(void)
{
    return vks__ref_group_avx2 && vks__cpu_has_avx2();
}

vks_result vks_cpu_reference_run(const vks_deform_job *job, vks_error *err)
{
    return vks_cpu_reference_run_opt(job, NULL, err);
}

vks_result vks_cpu_reference_run_opt(const vks_deform_job *job, const vks_cpu_options *opt, vks_error *err)
{
    return vks__cpu_reference_run_path(job, opt, vks__cpu_reference_has_simd(), err);
}

vks_result vks__cpu_reference_run_path(const vks_deform_job *job, const vks_cpu_options *opt, int simd,
                                       vks_error *err)
{
    vks_result r = vks_deform_validate(job, err);
    if (r != VKS_OK)
        return r;
    const vks_skin *s = job->skin;
    vks_allocator a = vks_allocator_or_default(opt ? &opt->allocator : NULL);
    size_t bones = s->bone_count ? s->bone_count : 1;
    simd = simd && vks__ref_group_avx2;
    /* with enough instances, the crowd loop (reference_lanes.c): a world, K for each lane and
       their matrices by element after the columns */
    uint32_t lanes = simd ? vks__cpu_reference_lanes() : 0;
    lanes = job->instance_count >= lanes ? lanes : 0;
    vks_affine_d *world = a.alloc(a.user, (lanes ? lanes : 1) * (s->node_count ? s->node_count : 1) * sizeof *world);
    /* K and, for the vector form, K in columns and the compact records in one block: the
       reference's allocations are two whatever the form (the allocator's callers count on it).
       The copy is made where records are read again, from the second instance on. */
    size_t compact = simd && job->instance_count > 1 ? vks__ref_compact_count(s) : 0;
    size_t k_count = lanes ? lanes * bones : bones;
    vks_affine_d *K = a.alloc(a.user, k_count * sizeof *K + (simd ? bones * sizeof(vks__ref_cols) : 0) +
                                          (lanes ? bones * sizeof(vks__ref_lanes) : 0) +
                                          compact * sizeof(vks__ref_infl4));
    vks__ref_cols *cols = simd && K ? (vks__ref_cols *)(void *)(K + k_count) : NULL;
    vks__ref_lanes *lc = lanes && K ? (vks__ref_lanes *)(void *)(cols + bones) : NULL;
    vks__ref_infl4 *in4 = compact && K ? (vks__ref_infl4 *)(void *)(lc ? (void *)(lc + bones) : (void *)(cols + bones))
                                       : NULL;
    if (!world || !K) {
        if (world)
            a.free(a.user, world);
        if (K)
            a.free(a.user, K);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "cpu reference", "out of memory for %u nodes",
                             s->node_count);
    }
    if (in4)
        vks__ref_compact(s, in4);
    uint32_t i = 0;
    for (; lc && i + lanes <= job->instance_count; i += lanes)
        deform_lanes(job, lanes, i, world, K, lc, in4);
    for (; i < job->instance_count; i++) {
        vks_cpu_world_d(s, job->locals + (size_t)i * s->node_count, world);
        vks_cpu_skin_matrices_d(s, world, K);
        size_t at = vks_deform_index(s, i, 0) * 3;
        deform_instance(s, K, cols, in4, vks__morph_instance_weights(job, i), job->positions + at,
                        job->normals ? job->normals + at : NULL);
    }
    a.free(a.user, world);
    a.free(a.user, K);
    return VKS_OK;
}
