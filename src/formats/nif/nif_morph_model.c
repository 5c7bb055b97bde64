/* NIF geometry morphing into the model's morph targets (skin.h, MORPH TARGETS): for each mesh
 * made from a shape that an NiGeomMorpherController targets, morphs 1..n-1 of its NiMorphData
 * (morph 0 is the base) become targets named by the morphs' frame names: relative targets as
 * stored, absolute ones minus morph 0. A target's default weight is its weight at time 0:
 * the morph's own keys (until 10.1.0.0) or its NiFloatInterpolator's (NiFloatData keys, else
 * the pose value), 0 where there is none. What is not applied is said with a warning naming
 * the block and its offset: weights that change over time (the keys are not played),
 * interpolator weights other than 1, a controller whose target is not a mesh of the model. */
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "core/skin_morph.h"
#include "nif_kf_internal.h"

/* The group's value at time 0 (keys linear between, constant keys held; exact at keys);
   *animated set where its values change. 0 without keys. */
static float value_at_zero(const nif_keygroup *g, int *animated)
{
    if (!g || g->count == 0)
        return 0.0f;
    for (uint32_t k = 1; k < g->count; k++)
        if (g->values[k] != g->values[0])
            *animated = 1;
    uint32_t k = 0;
    while (k + 1 < g->count && g->times[k + 1] <= 0.0f)
        k++;
    if (g->times[k] >= 0.0f || k + 1 == g->count || g->type == NIF_KEY_CONST)
        return g->values[k];
    float t0 = g->times[k], t1 = g->times[k + 1], u = t1 > t0 ? (0.0f - t0) / (t1 - t0) : 0.0f;
    return g->values[k] + u * (g->values[k + 1] - g->values[k]);
}

/* Morph i's default weight; *animated, *weighted set where its keys change or its
   interpolator weight is not 1. */
static float default_weight(const nif_file *f, const nif_morpher *mc, const nif_morphdata *d, uint32_t i,
                            int *animated, int *weighted)
{
    if (f->ver <= NIF_V(10, 1, 0, 0))
        return value_at_zero(&d->morphs[i].keys, animated);
    if (!mc->interps || i >= mc->interp_count)
        return 0.0f;
    if (mc->interp_weights && mc->interp_weights[i] != 1.0f)
        *weighted = 1;
    const nif_finterp *fi = nif_anim_get(f, mc->interps[i], NIF_A_FINTERP);
    if (!fi)
        return 0.0f;
    const nif_keygroup *g = nif_anim_get(f, fi->data, NIF_A_FDATA);
    if (g && g->count)
        return value_at_zero(g, animated);
    return fi->value == -FLT_MAX || fi->value == FLT_MAX || fi->value != fi->value ? 0.0f : fi->value;
}

/* The NiGeomMorpherController block on block target, or -1. */
static int32_t morpher_of(const nif_file *f, uint32_t target)
{
    for (uint32_t j = 0; j < f->block_count; j++) {
        const nif_morpher *mc = nif_anim_get(f, (int32_t)j, NIF_A_MORPHER);
        if (mc && mc->ctrl.target == (int32_t)target)
            return (int32_t)j;
    }
    return -1;
}

static vks_result nomem(vks_error *err)
{
    return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "nif/morphs", "out of memory");
}

/* Mesh k's source from controller block j (ms->target_count 0: nothing to attach). */
static vks_result mesh_morphs(const nif_file *f, const vks_skin *skin, uint32_t k, uint32_t shape, uint32_t j,
                              vks__morph_source *ms, uint32_t *unplayed, vks_error *err)
{
    const nif_morpher *mc = nif_anim_get(f, (int32_t)j, NIF_A_MORPHER);
    const nif_morphdata *d = nif_anim_get(f, mc->data, NIF_A_MORPHDATA);
    const vks_mesh *me = &skin->meshes[k];
    memset(ms, 0, sizeof *ms);
    if (!d) {
        ++*unplayed;
        vks__log(&f->opt.logger, VKS_LOG_WARNING,
                 "nif block %u NiGeomMorpherController at offset %llu (on block %u \"%s\"): data ref %d is not an "
                 "NiMorphData block: no morph targets read",
                 j, (unsigned long long)f->blocks[j].offset, shape, me->name, mc->data);
        return VKS_OK;
    }
    if (d->morph_count < 2)
        return VKS_OK;
    if (d->vertex_count != me->source_vertex_count)
        return vks_error_set(err, VKS_ERR_FORMAT, f->blocks[mc->data].offset + 4, "nif/NiMorphData/num_vertices",
                             "block %d: %u vertices, the shape (block %u \"%s\") it morphs has %u", mc->data,
                             d->vertex_count, shape, me->name, me->source_vertex_count);
    uint32_t n = d->morph_count - 1, nv = d->vertex_count;
    const float **pos = vks_skin_alloc_array(f->scratch, n, sizeof *pos);
    const char **names = vks_skin_alloc_array(f->scratch, n, sizeof *names);
    float *weights = vks_skin_alloc_array(f->scratch, n, sizeof *weights);
    if (!pos || !names || !weights)
        return nomem(err);
    int animated = 0, weighted = 0;
    for (uint32_t t = 0; t < n; t++) {
        const nif_morph *mo = &d->morphs[t + 1];
        names[t] = mo->name ? mo->name : "";
        weights[t] = default_weight(f, mc, d, t + 1, &animated, &weighted);
        if (d->relative) {
            pos[t] = mo->vectors[0];
            continue;
        }
        float *delta = vks_skin_alloc_array(f->scratch, (size_t)nv * 3 + 1, sizeof *delta);
        if (!delta)
            return nomem(err);
        for (size_t c = 0; c < (size_t)nv * 3; c++) /* absolute: the target minus the base, morph 0 */
            delta[c] = mo->vectors[0][c] - d->morphs[0].vectors[0][c];
        pos[t] = delta;
    }
    *unplayed += animated || weighted;
    if (animated || weighted)
        vks__log(&f->opt.logger, VKS_LOG_WARNING,
                 "nif block %u NiGeomMorpherController at offset %llu (on block %u \"%s\"): %u morph targets read from "
                 "NiMorphData block %d at their weights at time 0; not applied:%s%s",
                 j, (unsigned long long)f->blocks[j].offset, shape, me->name, n, mc->data,
                 animated ? " the weights' animation (their keys are not played)" : "",
                 weighted ? " interpolator weights other than 1" : "");
    ms->mesh = k, ms->file_vertex_count = nv, ms->target_count = n;
    ms->pos = pos, ms->weights = weights, ms->names = names, ms->node_name = me->name;
    return VKS_OK;
}

vks_result nif_morph_attach(const nif_file *f, vks_skin *skin, const uint32_t *mesh_block, uint32_t mesh_count,
                            uint32_t *unplayed, vks_error *err)
{
    *unplayed = 0;
    vks__morph_source *src = vks_skin_alloc_array(f->scratch, mesh_count ? mesh_count : 1, sizeof *src);
    if (!src)
        return nomem(err);
    uint32_t count = 0;
    for (uint32_t k = 0; k < mesh_count; k++) {
        int32_t j = morpher_of(f, mesh_block[k]);
        if (j < 0)
            continue;
        vks_result r = mesh_morphs(f, skin, k, mesh_block[k], (uint32_t)j, &src[count], unplayed, err);
        if (r != VKS_OK)
            return r;
        count += src[count].target_count > 0;
    }
    /* a controller on anything else (a shape not in the model, a node) moves nothing here */
    for (uint32_t j = 0; j < f->block_count; j++) {
        const nif_morpher *mc = nif_anim_get(f, (int32_t)j, NIF_A_MORPHER);
        uint32_t k = 0;
        while (mc && k < mesh_count && mesh_block[k] != (uint32_t)mc->ctrl.target)
            k++;
        if (mc && (k == mesh_count || morpher_of(f, mesh_block[k]) != (int32_t)j) && ++*unplayed)
            vks__log(&f->opt.logger, VKS_LOG_WARNING,
                     "nif block %u NiGeomMorpherController at offset %llu: its target (block %d) is not a mesh of the "
                     "model, or another controller morphs it: not applied",
                     j, (unsigned long long)f->blocks[j].offset, mc->ctrl.target);
    }
    return vks__skin_attach_morphs(skin, src, count, err);
}
