/* Crowd-vs-reference comparison shared by the crowd tests: what one crowd instance must look
 * like (the CPU reference deforming the same locals, then its root transform), and the diff
 * of every instance of a crowd, read back, against it. */
#ifndef VKS_TEST_CROWD_CHECK_H
#define VKS_TEST_CROWD_CHECK_H

#include "vkskin.h"
#include "vkskin/crowd.h"

/* The reference of one instance at `time`: procedural locals as vks_pose_procedural makes
 * them, or `locals` (NULL: the bind pose) for a LOCALS instance; then root applied.
 * pos/nrm: vertex_count * 3 floats. */
vks_result crowd_reference(const vks_skin *skin, const vks_instance *in, float time, const vks_affine *locals,
                           float *pos, float *nrm);

/* Diffs one instance's GPU vertices against its reference (default tolerances, scale =
 * the model's error scale plus the root's translation). Returns nonzero on a pass; *worst
 * gets the largest position error relative to the scale. */
int crowd_check_instance(const vks_skin *skin, const vks_instance *in, float time, const vks_affine *locals,
                         const float *gpu_pos, const float *gpu_nrm, double *worst);

/* Reads every instance of the crowd back and checks each (skins by model index; locals[i]
 * for LOCALS instances, NULL entries or a NULL array: bind). Prints one line. */
int crowd_check(vks_crowd *crowd, const vks_skin *const *skins, const vks_instance *inst, uint32_t n, float time,
                const vks_affine *const *locals, const char *label);

#endif
