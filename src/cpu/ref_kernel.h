/* The CPU reference's vertex kernel, shared by its three loops: the scalar definition
 * (reference.c), its AVX2 form (reference_avx2.c) and its morph stage (reference_morph.c).
 * It lives apart from reference_internal.h (the reference's entry points) so that the AVX2 and
 * morph units use the kernel without reaching back into reference.c, which calls them. */
#ifndef VKS_REF_KERNEL_H
#define VKS_REF_KERNEL_H

#include "vkskin/cpu.h"

#include <math.h>

/* A skin matrix as four columns of four doubles (x axis, y axis, z axis, translation; lane 3
 * zero), so that a column is one vector load. */
typedef struct vks__ref_cols {
    double c[4][4];
} vks__ref_cols;

/* Slots 0..3 of a vertex in 24 bytes, the record the reference read before 8 influences came
 * (vks_influence is 48): a run's copy for the groups of at most 4 slots (vks__ref_compact), so
 * that a small character's influences stay in L1 beside its positions and normals as they did,
 * and the slot loop is the fixed 4 it was. Slots past the group's max_influences hold weight 0:
 * the loop over 4 skips them as the loop over the group's slots never reaches them, so the
 * floats are the same bits. */
typedef struct vks__ref_infl4 {
    uint16_t index[4];
    float weight[4];
} vks__ref_infl4;

/* Deforms group g's vertices of one instance: pos and nrm (nrm may be NULL) are the instance's
 * outputs, indexed by the skin's vertex; cols[b] is K[b] in columns. in4: the group's compact
 * records, in4[v - g->first_vertex] for vertex v (only for a group of at most 4 slots), or NULL
 * to read the skin's influences. */
typedef void (*vks__ref_group_fn)(const vks_skin *s, const vks_group *g, const vks__ref_cols *cols,
                                  const vks__ref_infl4 *in4, float *pos, float *nrm);

/* The slots a group's vertices may use: its max_influences (a validated model keeps every
 * positive weight below it), all eight where a model not validated says 0 or more. Both loops
 * stop there, so a 4-influence model never looks at slots 4..7. */
static inline int vks__ref_slots(const vks_group *gr)
{
    return gr->max_influences - 1u < VKS_MAX_INFLUENCES ? (int)gr->max_influences : VKS_MAX_INFLUENCES;
}

/* Vertex v's stored position p and normal n (zero where its mesh has none) in double. */
static inline void vks__ref_load(const vks_skin *s, const vks_mesh *me, uint32_t v, double p[3], double n[3])
{
    for (int k = 0; k < 3; k++) {
        p[k] = s->positions[v][k];
        n[k] = (me->flags & VKS_MESH_HAS_NORMALS) ? s->normals[v][k] : 0.0;
    }
}

/* Vertex v of group gr from its (morphed) position p and normal n in double: the skinning sum
 * of the definition, written to pos and nrm (nrm may be NULL). */
static inline void vks__ref_vertex(const vks_skin *s, const vks_group *gr, const vks_affine_d *K, uint32_t v,
                                   const double p[3], const double n[3], float *pos, float *nrm)
{
    const vks_mesh *me = &s->meshes[gr->mesh];
    const vks_influence *in = &s->influences[v];
    double op[3] = {0, 0, 0}, on[3] = {0, 0, 0};
    for (int k = 0, slots = vks__ref_slots(gr); k < slots; k++) {
        double w = in->weight[k];
        if (!(w > 0))
            continue; /* empty slots may carry any index: never read through them */
        const double *m = K[s->palette[gr->first_palette + in->index[k]]].m;
        for (int i = 0; i < 3; i++) {
            op[i] += w * (m[i] * p[0] + m[3 + i] * p[1] + m[6 + i] * p[2] + m[9 + i]);
            on[i] += w * (m[i] * n[0] + m[3 + i] * n[1] + m[6 + i] * n[2]);
        }
    }
    float *po = pos + (size_t)v * 3;
    po[0] = (float)op[0], po[1] = (float)op[1], po[2] = (float)op[2];
    if (nrm) {
        float *no = nrm + (size_t)v * 3;
        if ((me->flags & VKS_MESH_HAS_NORMALS) && (me->flags & VKS_MESH_RENORMALIZE)) {
            double len = sqrt(on[0] * on[0] + on[1] * on[1] + on[2] * on[2]);
            if (len > 0)
                on[0] /= len, on[1] /= len, on[2] /= len;
        }
        no[0] = (float)on[0], no[1] = (float)on[1], no[2] = (float)on[2];
    }
}

/* Four or eight instances' skin matrices by element, for the crowd loops (reference_lanes.c): e[i][l] is
 * element i of vks_affine_d.m (x axis 0..2, y axis 3..5, z axis 6..8, translation 9..11) of
 * lane l's instance, so that an element of the four is one vector load. */
#define VKS__REF_LANES_MAX 8
typedef struct vks__ref_lanes {
    double e[12][VKS__REF_LANES_MAX]; /* lanes past the loop's (4 for AVX2) unused */
} vks__ref_lanes;

/* Deforms group g's vertices of four (eight) instances at once: lane l's outputs at pos + l stride and
 * nrm + l stride (nrm may be NULL), each indexed by the skin's vertex; lc[b] is bone b's matrices
 * of the four. in4 as vks__ref_group_fn. The same floats as the scalar loop, lane by lane. */
typedef void (*vks__ref_lanes_fn)(const vks_skin *s, const vks_group *g, const vks__ref_lanes *lc,
                                  const vks__ref_infl4 *in4, float *pos, float *nrm, size_t stride);

/* NULL where the build has no AVX2 form: four instances (vks__ref_group_lanes) and, with
 * AVX-512 F, eight (vks__ref_group_lanes8), lane l's outputs at pos + l stride. */
extern const vks__ref_lanes_fn vks__ref_group_lanes;
extern const vks__ref_lanes_fn vks__ref_group_lanes8;

/* Whether a weight of the instance (weights: NULL the defaults) moves mesh m. */
int vks__ref_mesh_morphed(const vks_skin *s, uint32_t m, const float *weights);

/* The scalar loop with the mesh's morph targets applied first (reference_morph.c). */
void vks__ref_group_morph(const vks_skin *s, const vks_group *gr, const vks_affine_d *K, const float *weights,
                          float *pos, float *nrm);

/* NULL where the build has no AVX2 form (not x86-64, or a compiler without target attributes). */
extern const vks__ref_group_fn vks__ref_group_avx2;

#endif
