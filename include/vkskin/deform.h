/* vkskin deform job: the one description of a batch that every engine runs (CPU reference,
 * fast CPU, GPU). Modelled on ozz-animation's SkinningJob: spans in, spans out, owns nothing.
 *
 * STEP BY STEP
 *   vks_deform_job j = {0};
 *   j.skin = skin; j.locals = locals; j.instance_count = n;
 *   j.positions = pos; j.normals = nrm;          // n * skin->vertex_count * 3 floats each
 *   if (vks_deform_validate(&j, &err) == VKS_OK) vks_cpu_reference_run(&j, &err);
 *
 * THREADS
 *   A job owns nothing and is only read by the engines: one job may be validated and run on
 *   several threads at once as long as their outputs do not overlap.
 */
#ifndef VKSKIN_DEFORM_H
#define VKSKIN_DEFORM_H

#include "skin.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vks_deform_job {
    const vks_skin *skin;     /* validated with vks_skin_validate */
    const vks_affine *locals; /* instance_count * skin->node_count local transforms, instance-major */
    uint32_t instance_count;
    float *positions;         /* out: instance_count * skin->vertex_count * 3, instance-major */
    float *normals;           /* out, optional (NULL: positions only) */
    /* optional morph weights (skin.h, MORPH TARGETS): instance_count * skin->target_count,
       instance-major; NULL: every instance at the targets' default weights */
    const float *morph_weights;
} vks_deform_job;

/* O(1): non-NULL spans, counts that fit size_t. */
VKS_API vks_result vks_deform_validate(const vks_deform_job *job, vks_error *err);

/* Output element index of (instance, vertex). */
static inline size_t vks_deform_index(const vks_skin *s, uint32_t instance, uint32_t vertex)
{
    return (size_t)instance * s->vertex_count + vertex;
}

#ifdef __cplusplus
}
#endif
#endif
