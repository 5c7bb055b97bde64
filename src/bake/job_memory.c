/* How much host memory a bake job takes (docs/safety.md): a job holds all its frames at once
 * (the VAT textures need every frame's bounds and rows before a byte is written), so a job
 * over the run's budget (--max-memory-mb) is refused before its frames are made, naming the
 * job, what it needs and the budget. The estimate follows what the writers allocate; what it
 * leaves out (the model, the clips, buffers of a megabyte or less) is small next to it. */
#include "bake/job_internal.h"
#include "vkskin/vat.h"

static uint64_t file_vertices(const vks_skin *s)
{
    uint64_t n = 0;
    for (uint32_t m = 0; m < s->mesh_count; m++)
        n += s->meshes[m].source_vertex_count;
    return n;
}

static uint64_t max64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

uint64_t vks__bake_job_memory(const vks_bake_job *job, const vks_bake_loaded *l, vks_bake_engine e)
{
    const vks_skin *s = l->skin;
    uint64_t F = l->frames, V = s->vertex_count;
    /* held from deforming to the last output: every frame's positions (and normals), and the
       atlas's matrices (vks_bake_frames_alloc) */
    uint64_t held = F * V * 12 * (job->normals ? 2 : 1);
    if (job->outputs & VKS_BAKE_OUT_ATLAS)
        held += F * ((uint64_t)s->bone_count + 1) * 48;
    /* the largest of what comes and goes beside them: the engine's buffers while it deforms,
       then the writers', which the run's pool of threads may run all at once (one output kind
       each), so theirs add up */
    uint64_t peak = 0, writers = 0;
    if (vks__bake_needs_vertices(job))
        peak = e == VKS_BAKE_GPU ? F * 8                         /* the group's instance map */
                                 : F * (uint64_t)s->node_count * 48; /* every frame's locals */
    if (job->outputs & VKS_BAKE_OUT_VAT_KINDS) {
        /* per VAT kind, one stream's texels as floats at a time (write_vat) */
        vks_vat_layout lay;
        vks_error err = {0};
        uint64_t texels = vks__bake_vat_layout(job, s->vertex_count, l->frames, &lay, &err) == VKS_OK
                              ? (uint64_t)lay.width * lay.height
                              : F * V;
        for (int k = 0; k < 3; k++) /* float: the texels; half and PNG: and their 16-bit copy */
            if (job->outputs & (1u << k))
                writers += texels * (12 + (k ? 6 : 0));
    }
    if (job->outputs & VKS_BAKE_OUT_GLTF_MORPH) {
        /* the writer keeps every frame (file vertex order); the document's buffer holds them
           again as morph targets with the weights, frames x frames floats, and grows by
           doubling, so up to twice that */
        uint64_t FV = F * file_vertices(s);
        writers += FV * 24 + 2 * (FV * 24 + (F + 1) * F * 4);
    }
    return held + max64(peak, writers);
}
