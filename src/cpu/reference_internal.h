/* The CPU reference's entry points (reference.c), over its vertex kernel (ref_kernel.h): one
 * group of one instance deformed from that instance's skin matrices. The scalar loop in
 * reference.c is the definition; the AVX2 form does the same IEEE double operations in the
 * same order for every component (the three components of a vertex are its lanes), so its
 * floats are the same bits, which test_cpu_reference_simd checks; so does the crowd loop
 * (reference_lanes.c), four instances at once, an instance in each lane. */
#ifndef VKS_REFERENCE_INTERNAL_H
#define VKS_REFERENCE_INTERNAL_H

#include "ref_kernel.h"

/* The definition: the scalar loop over the group's vertices with K as the skin matrices. */
void vks__ref_group_scalar(const vks_skin *s, const vks_group *g, const vks_affine_d *K, float *pos, float *nrm);

/* K[0..count) in columns. */
void vks__ref_columns(const vks_affine_d *K, uint32_t count, vks__ref_cols *out);

/* How many compact records a run of the vector form makes for s: the vertices of its groups of
 * at most 4 slots (0: none has so few), and those records, group after group in the skin's
 * order, into out (vks__ref_infl4 in ref_kernel.h). */
size_t vks__ref_compact_count(const vks_skin *s);
void vks__ref_compact(const vks_skin *s, vks__ref_infl4 *out);

/* The reference with its vector form allowed (simd != 0, the default where the CPU has AVX2)
 * or not: the tests run both and compare the bits. */
vks_result vks__cpu_reference_run_path(const vks_deform_job *job, const vks_cpu_options *opt, int simd,
                                       vks_error *err);

/* One instance from its world transforms (vks_cpu_world_d), into its outputs pos and nrm (nrm
 * may be NULL) at morph weights weights (skin->target_count; NULL: the defaults): K (bone_count) and cols (bone_count; NULL: the scalar loop) are the caller's
 * room. vkskin validate keeps each instance's world for its error scale, and its rooms for the
 * whole run, so that neither is made again per instance. */
void vks__cpu_reference_instance(const vks_skin *s, const vks_affine_d *world, vks_affine_d *K, vks__ref_cols *cols,
                                 const float *weights, float *pos, float *nrm);

/* The instances the crowd loop takes at once (reference_lanes.c): 8 where the CPU has AVX-512,
 * else 4 where it has AVX2; 0: none (no such CPU or build, or VKSKIN_CPU_CROWD=off). */
uint32_t vks__cpu_reference_lanes(void);
/* Testing: the loop of 4 or 8 lanes where this CPU has it, 1 none, 0 the CPU's choice
 * (process-wide, for the runs that start afterwards). */
void vks__cpu_reference_force_lanes(uint32_t lanes);
/* `lanes` instances at once (vks__cpu_reference_lanes): their locals at locals (node_count
 * each); worlds (lanes x node_count), K (lanes x bone_count) and lc (bone_count) the caller's room,
 * in4 the compact records or NULL, weights[l] lane l's morph weights (NULL, or a NULL entry:
 * the defaults); lane l's outputs at pos + l stride and nrm + l stride (nrm may be NULL). A
 * group some lane's weights move takes the morph loop, lane by lane. worlds and K keep each
 * lane's world transforms (worlds + l node_count) and skin matrices (K + l bone_count) for the
 * caller. The same floats as one
 * vks__cpu_reference_instance per lane. */
void vks__cpu_reference_lanes_run(const vks_skin *s, uint32_t lanes, const vks_affine *locals, vks_affine_d *worlds,
                                  vks_affine_d *K, vks__ref_lanes *lc, const vks__ref_infl4 *in4,
                                  const float *const *weights, float *pos, float *nrm, size_t stride);

/* Whether this build and CPU run the AVX2 form (core/cpu_features.h). */
int vks__cpu_reference_has_simd(void);

#endif
