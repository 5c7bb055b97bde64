/* The deform job (deform.h) on the GPU: one model, its locals and output arrays, run through
 * the batch scheduler, which delivers chunk by chunk into the job's outputs. The same job
 * struct runs on the CPU reference and the fast CPU deformer. */
#include "gpu/backend.h"
#include "core/skin_morph.h"

#include "vkskin/deform.h"
#include "vkskin/gpu.h"

#include <string.h>

typedef struct job_ctx {
    const vks_deform_job *job;
} job_ctx;

static int deliver(void *user, uint32_t entry, uint32_t first, uint32_t count, const float *p, const float *n)
{
    const vks_deform_job *job = ((job_ctx *)user)->job;
    size_t at = vks_deform_index(job->skin, first, 0) * 3, floats = (size_t)count * job->skin->vertex_count * 3;
    (void)entry;
    memcpy(job->positions + at, p, floats * sizeof *p);
    if (job->normals && n)
        memcpy(job->normals + at, n, floats * sizeof *n);
    return 0;
}

/* The job's morph weights of an instance (compute/morph.glsl applies them). */
static void weights(void *user, uint32_t entry, uint32_t inst, float *out)
{
    const vks_deform_job *job = ((job_ctx *)user)->job;
    (void)entry;
    memcpy(out, job->morph_weights + (size_t)inst * job->skin->target_count, job->skin->target_count * sizeof *out);
}

vks_result vks_gpu_run_job(vks_gpu *gpu, const vks_gpu_models *models, uint32_t model, const vks_deform_job *job,
                           vks_gpu_stats *stats, vks_error *err)
{
    vks_result r = vks_deform_validate(job, err);
    if (r != VKS_OK)
        return r;
    uint32_t vertices = 0, nodes = 0;
    if (!vks__model_counts(models, model, &vertices, &nodes) || vertices != job->skin->vertex_count ||
        nodes != job->skin->node_count)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/job",
                             "model %u of the uploaded set is not the job's skin", model);
    job_ctx c = {job};
    vks_gpu_batch_entry e = {model, job->instance_count, job->locals};
    vks_gpu_batch b = {0};
    b.entries = &e, b.entry_count = 1;
    b.deliver = deliver, b.user = &c;
    b.want_normals = job->normals != NULL;
    if (vks__morph_weights_off_default(job)) /* weights per instance: the deform pass's morph stage */
        b.get_weights = weights;
    vks_gpu_calibrate_for_batch(gpu, models, &b); /* the explicit step vks_gpu_run once took itself */
    return vks_gpu_run(gpu, models, &b, stats, err);
}
