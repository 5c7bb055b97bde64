/* Morph targets shared by every engine (skin.h, MORPH TARGETS): their checks, the weight a
 * target has for an instance, and the rest vertices at the default weights, which the engines
 * that cannot take weights per instance yet deform instead of the stored ones. */
#ifndef VKS_SKIN_MORPH_H
#define VKS_SKIN_MORPH_H

#include "vkskin/deform.h"

/* Target ranges contiguous and mesh by mesh, deltas present and finite, weights finite.
 * O(targets * vertices of their meshes). */
vks_result vks__skin_validate_morphs(const vks_skin *s, vks_error *err);

/* Target t's weight for an instance whose weights are w (skin->target_count of them; NULL:
 * the defaults). */
static inline float vks__morph_weight(const vks_skin *s, const float *w, uint32_t t)
{
    return w ? w[t] : s->targets[t].default_weight;
}

/* The job's weights for instance i (NULL: the defaults). */
static inline const float *vks__morph_instance_weights(const vks_deform_job *job, uint32_t i)
{
    return job->morph_weights && job->skin->target_count
               ? job->morph_weights + (size_t)i * job->skin->target_count
               : NULL;
}

/* Whether any target of the model has a non-zero default weight. */
int vks__morph_defaults_active(const vks_skin *s);

/* How many targets of the job have a weight other than their default for some instance: the
 * engines that move vertices by the defaults only refuse such jobs, naming the count. */
uint32_t vks__morph_weights_off_default(const vks_deform_job *job);

/* The model's rest positions and normals moved by the default weights, in float (*pos, *nrm: vertex_count each, one block from the allocator, *nrm NULL without
 * normals; free *pos). VKS_OK with *pos NULL when no default weight is non-zero: the stored
 * vertices are the rest. */
vks_result vks__morph_rest(const vks_skin *s, const vks_allocator *a, float (**pos)[3], float (**nrm)[3],
                           vks_error *err);

/* The same into the caller's pos and nrm (vertex_count * 3 floats each; nrm NULL: positions
 * only), whatever the weights. */
void vks__morph_rest_into(const vks_skin *s, float *pos, float *nrm);

/* One mesh's morph targets as a seed format reader (RenderWare, NIF) reads them: deltas per
 * file vertex (the mesh's skin->source_vertex numbers), in the file's target order. */
typedef struct vks__morph_source {
    uint32_t mesh;                /* the model mesh they move */
    uint32_t file_vertex_count;   /* vertices each delta array holds */
    uint32_t target_count;
    const float *const *pos;      /* per target: file_vertex_count * 3 deltas; NULL: none */
    const float *const *nrm;      /* per target (NULL: none), or NULL; kept on meshes with normals */
    const float *weights;         /* per target: the default weight; NULL: 0 */
    const char *const *names;     /* per target, or NULL: "" */
    const char *node_name;        /* the mesh's node as clips name it; NULL: not known */
} vks__morph_source;

/* The targets of count meshes (in increasing mesh order) into the built skin: skin->targets,
 * the meshes' ranges, deltas dense over each mesh's model vertices (skin.h, MORPH TARGETS).
 * The skin must have none yet; vks__skin_validate_morphs checks the result. */
vks_result vks__skin_attach_morphs(vks_skin *skin, const vks__morph_source *src, uint32_t count, vks_error *err);

#endif
