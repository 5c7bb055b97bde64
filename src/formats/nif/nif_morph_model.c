/* NIF geometry morphing into the model's morph targets (skin.h, MORPH TARGETS): for each mesh
 * made from a shape that an NiGeomMorpherController targets, morphs 1..n-1 of its NiMorphData
 * (morph 0 is the base) become targets named by the morphs' frame names: relative targets as
 * stored, absolute ones minus morph 0. A target's default weight is its weight at time 0:
 * the morph's own keys (until 10.1.0.0) or its NiFloatInterpolator's (NiFloatData keys, else
 * the pose value), 0 where there is none. What is not applied is said with a warning naming
 * the block and its offset: weights that change over time (played as weights channels of the
 * file's own clip only, nif_kf_morph.c),
 * interpolator weights other than 1, a controller whose target is not a mesh of the model.
 * Costs stay linear in the file: one pass finds each block's controller, a key group's value
 * at time 0 is computed once however many morphs share it, and the targets' vertices over all
 * meshes count against max_vertices. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "core/skin_morph.h"
#include "nif_kf_internal.h"

typedef struct morph_ctx {
    const nif_file *f;
    vks_skin *skin;
    vks_error *err;
    int32_t *morpher;   /* per block: the first NiGeomMorpherController targeting it, or -1 */
    int32_t *mesh;      /* per block: the mesh made from it, or -1 */
    uint8_t *memo;      /* per key group block: 0 not computed, 1 constant, 2 animated */
    float *memo_value;  /* its value at time 0 */
    uint64_t target_vertices;
    uint32_t unplayed;
} morph_ctx;

/* The group's value at time 0 (keys linear between, constant keys held; exact at keys);
   *animated set where its values change. 0 without keys. */
static float value_at_zero(const nif_keygroup *g, int *animated)
{
    if (!g || g->count == 0)
        return 0.0f;
    for (uint32_t k = 1; k < g->count && !*animated; k++)
        *animated = g->values[k] != g->values[0];
    uint32_t k = 0;
    while (k + 1 < g->count && g->times[k + 1] <= 0.0f)
        k++;
    if (g->times[k] >= 0.0f || k + 1 == g->count || g->type == NIF_KEY_CONST)
        return g->values[k];
    float t0 = g->times[k], t1 = g->times[k + 1], u = t1 > t0 ? (0.0f - t0) / (t1 - t0) : 0.0f;
    return g->values[k] + u * (g->values[k + 1] - g->values[k]);
}

/* NiFloatData block i's value at time 0, once per block. */
static float data_at_zero(morph_ctx *c, int32_t i, const nif_keygroup *g, int *animated)
{
    if (!c->memo[i]) {
        int a = 0;
        c->memo_value[i] = value_at_zero(g, &a);
        c->memo[i] = (uint8_t)(1 + a);
    }
    *animated |= c->memo[i] == 2;
    return c->memo_value[i];
}

/* Morph i's default weight; *animated, *weighted set where its keys change or its
   interpolator weight is not 1. */
static float default_weight(morph_ctx *c, const nif_morpher *mc, const nif_morphdata *d, uint32_t i, int *animated,
                            int *weighted)
{
    const nif_file *f = c->f;
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
        return data_at_zero(c, fi->data, g, animated);
    return fi->value == -FLT_MAX || fi->value == FLT_MAX ? 0.0f : fi->value;
}

static vks_result nomem(vks_error *err)
{
    return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "nif/morphs", "out of memory");
}

/* The targets' names, weights and deltas of NiMorphData d for mesh k (controller block j). */
static vks_result read_targets(morph_ctx *c, const nif_morpher *mc, const nif_morphdata *d, uint32_t j,
                               vks__morph_source *ms, int *animated, int *weighted)
{
    const nif_file *f = c->f;
    uint32_t n = d->morph_count - 1, nv = d->vertex_count;
    const float **pos = vks_skin_alloc_array(f->scratch, n, sizeof *pos);
    const char **names = vks_skin_alloc_array(f->scratch, n, sizeof *names);
    float *weights = vks_skin_alloc_array(f->scratch, n, sizeof *weights);
    if (!pos || !names || !weights)
        return nomem(c->err);
    for (uint32_t t = 0; t < n; t++) {
        const nif_morph *mo = &d->morphs[t + 1];
        names[t] = mo->name ? mo->name : "";
        weights[t] = default_weight(c, mc, d, t + 1, animated, weighted);
        if (!isfinite(weights[t]))
            return vks_error_set(c->err, VKS_ERR_FORMAT, f->blocks[j].offset, "nif/NiGeomMorpherController",
                                 "block %u: morph %u's weight at time 0 is %g, not finite", j, t + 1, weights[t]);
        if (d->relative) {
            pos[t] = mo->vectors[0];
            continue;
        }
        float *delta = vks_skin_alloc_array(f->scratch, (size_t)nv * 3 + 1, sizeof *delta);
        if (!delta)
            return nomem(c->err);
        /* absolute: the target minus the base, morph 0; the vec3 arrays read as one run of floats */
        const float *to = (const float *)mo->vectors, *base = (const float *)d->morphs[0].vectors;
        for (size_t i = 0; i < (size_t)nv * 3; i++)
            delta[i] = to[i] - base[i];
        pos[t] = delta;
    }
    ms->pos = pos, ms->weights = weights, ms->names = names;
    return VKS_OK;
}

/* Mesh k's source from controller block j (ms->target_count 0: nothing to attach). */
static vks_result mesh_morphs(morph_ctx *c, uint32_t k, uint32_t shape, uint32_t j, vks__morph_source *ms)
{
    const nif_file *f = c->f;
    const nif_morpher *mc = nif_anim_get(f, (int32_t)j, NIF_A_MORPHER);
    const nif_morphdata *d = nif_anim_get(f, mc->data, NIF_A_MORPHDATA);
    const vks_mesh *me = &c->skin->meshes[k];
    memset(ms, 0, sizeof *ms);
    if (!d) {
        c->unplayed++;
        vks__log(&f->opt.logger, VKS_LOG_WARNING,
                 "warning: nif block %u NiGeomMorpherController at offset %llu (on block %u \"%s\"): data ref %d is not an "
                 "NiMorphData block: no morph targets read",
                 j, (unsigned long long)f->blocks[j].offset, shape, me->name, mc->data);
        return VKS_OK;
    }
    if (d->morph_count < 2)
        return VKS_OK;
    if (d->vertex_count != me->source_vertex_count)
        return vks_error_set(c->err, VKS_ERR_FORMAT, f->blocks[mc->data].offset + 4, "nif/NiMorphData/num_vertices",
                             "block %d: %u vertices, the shape (block %u \"%s\") it morphs has %u", mc->data,
                             d->vertex_count, shape, me->name, me->source_vertex_count);
    /* every target becomes the mesh's vertex count of deltas: bounded like vertices */
    c->target_vertices += (uint64_t)(d->morph_count - 1) * me->vertex_count;
    if (c->target_vertices > f->opt.max_vertices)
        return vks_error_set(c->err, VKS_ERR_LIMIT, f->blocks[mc->data].offset, "nif/NiMorphData/num_morphs",
                             "block %d: %u morphs of %u vertices: %llu morph target vertices over the model, limit %u",
                             mc->data, d->morph_count, me->vertex_count, (unsigned long long)c->target_vertices,
                             f->opt.max_vertices);
    int animated = 0, weighted = 0;
    vks_result r = read_targets(c, mc, d, j, ms, &animated, &weighted);
    if (r != VKS_OK)
        return r;
    c->unplayed += animated || weighted;
    if (animated || weighted)
        vks__log(&f->opt.logger, VKS_LOG_WARNING,
                 "warning: nif block %u NiGeomMorpherController at offset %llu (on block %u \"%s\"): %u morph targets read from "
                 "NiMorphData block %d at their weights at time 0; not applied:%s%s",
                 j, (unsigned long long)f->blocks[j].offset, shape, me->name, d->morph_count - 1, mc->data,
                 animated ? " the weights' animation (it plays in the file's own clip only: --clip with this file)" : "",
                 weighted ? " interpolator weights other than 1" : "");
    ms->mesh = k, ms->file_vertex_count = d->vertex_count, ms->target_count = d->morph_count - 1;
    ms->node_name = me->name;
    return VKS_OK;
}

/* The per-block maps: each block's first controller and mesh; the controllers that move
   nothing of the model (on another block, or a second one on a shape) warned about. */
static void map_blocks(morph_ctx *c, const uint32_t *mesh_block, uint32_t mesh_count)
{
    const nif_file *f = c->f;
    for (uint32_t i = 0; i < f->block_count; i++)
        c->morpher[i] = c->mesh[i] = -1;
    for (uint32_t k = 0; k < mesh_count; k++)
        c->mesh[mesh_block[k]] = (int32_t)k;
    for (uint32_t j = 0; j < f->block_count; j++) {
        const nif_morpher *mc = nif_anim_get(f, (int32_t)j, NIF_A_MORPHER);
        if (!mc)
            continue;
        int32_t t = mc->ctrl.target;
        int on_mesh = t >= 0 && (uint32_t)t < f->block_count && c->mesh[t] >= 0;
        if (on_mesh && c->morpher[t] < 0) {
            c->morpher[t] = (int32_t)j;
            continue;
        }
        c->unplayed++;
        vks__log(&f->opt.logger, VKS_LOG_WARNING,
                 "warning: nif block %u NiGeomMorpherController at offset %llu: its target (block %d) is not a mesh of the "
                 "model, or another controller morphs it: not applied",
                 j, (unsigned long long)f->blocks[j].offset, t);
    }
}

vks_result nif_morph_attach(const nif_file *f, vks_skin *skin, const uint32_t *mesh_block, uint32_t mesh_count,
                            uint32_t *unplayed, vks_error *err)
{
    *unplayed = 0;
    size_t nb = f->block_count ? f->block_count : 1;
    morph_ctx c = {f, skin, err, NULL, NULL, NULL, NULL, 0, 0};
    c.morpher = vks_skin_alloc_array(f->scratch, nb, sizeof *c.morpher);
    c.mesh = vks_skin_alloc_array(f->scratch, nb, sizeof *c.mesh);
    c.memo = vks_skin_alloc_array(f->scratch, nb, sizeof *c.memo);
    c.memo_value = vks_skin_alloc_array(f->scratch, nb, sizeof *c.memo_value);
    vks__morph_source *src = vks_skin_alloc_array(f->scratch, mesh_count ? mesh_count : 1, sizeof *src);
    if (!c.morpher || !c.mesh || !c.memo || !c.memo_value || !src)
        return nomem(err);
    memset(c.memo, 0, nb);
    map_blocks(&c, mesh_block, mesh_count);
    uint32_t count = 0;
    for (uint32_t k = 0; k < mesh_count; k++) {
        int32_t j = c.morpher[mesh_block[k]];
        if (j < 0)
            continue;
        vks_result r = mesh_morphs(&c, k, mesh_block[k], (uint32_t)j, &src[count]);
        if (r != VKS_OK)
            return r;
        count += src[count].target_count > 0;
    }
    *unplayed = c.unplayed;
    return vks__skin_attach_morphs(skin, src, count, err);
}
