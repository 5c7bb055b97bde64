/* Shared by the CPU reference (reference.c) and its AVX2 form (reference_avx2.c): one group of
 * one instance deformed from that instance's skin matrices. The scalar loop in reference.c is
 * the definition; the AVX2 form does the same IEEE double operations in the same order for
 * every component (the three components of a vertex are its lanes), so its floats are the same
 * bits, which test_cpu_reference_simd checks. */
#ifndef VKS_REFERENCE_INTERNAL_H
#define VKS_REFERENCE_INTERNAL_H

#include "vkskin/cpu.h"

/* A skin matrix as four columns of four doubles (x axis, y axis, z axis, translation; lane 3
 * zero), so that a column is one vector load. */
typedef struct vks__ref_cols {
    double c[4][4];
} vks__ref_cols;

/* Deforms group g's vertices of one instance: pos and nrm (nrm may be NULL) are the instance's
 * outputs, indexed by the skin's vertex; cols[b] is K[b] in columns. */
typedef void (*vks__ref_group_fn)(const vks_skin *s, const vks_group *g, const vks__ref_cols *cols, float *pos,
                                  float *nrm);

/* The definition: the scalar loop over the group's vertices with K as the skin matrices. */
void vks__ref_group_scalar(const vks_skin *s, const vks_group *g, const vks_affine_d *K, float *pos, float *nrm);

/* K[0..count) in columns. */
void vks__ref_columns(const vks_affine_d *K, uint32_t count, vks__ref_cols *out);

/* NULL where the build has no AVX2 form (not x86-64, or a compiler without target attributes). */
extern const vks__ref_group_fn vks__ref_group_avx2;

/* The reference with its vector form allowed (simd != 0, the default where the CPU has AVX2)
 * or not: the tests run both and compare the bits. */
vks_result vks__cpu_reference_run_path(const vks_deform_job *job, const vks_cpu_options *opt, int simd,
                                       vks_error *err);

/* One instance from its world transforms (vks_cpu_world_d), into its outputs pos and nrm (nrm
 * may be NULL): K (bone_count) and cols (bone_count; NULL: the scalar loop) are the caller's
 * room. vkskin validate keeps each instance's world for its error scale, and its rooms for the
 * whole run, so that neither is made again per instance. */
void vks__cpu_reference_instance(const vks_skin *s, const vks_affine_d *world, vks_affine_d *K, vks__ref_cols *cols,
                                 float *pos, float *nrm);

/* The slots a group's vertices may use: its max_influences (a validated model keeps every
 * positive weight below it), all eight where a model not validated says 0 or more. Both loops
 * stop there, so a 4-influence model never looks at slots 4..7. */
static inline int vks__ref_slots(const vks_group *gr)
{
    return gr->max_influences - 1u < VKS_MAX_INFLUENCES ? (int)gr->max_influences : VKS_MAX_INFLUENCES;
}

/* Whether this build and CPU run the AVX2 form (core/cpu_features.h). */
int vks__cpu_reference_has_simd(void);

#endif
