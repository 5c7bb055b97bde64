/* The uploaded models' morph targets (include/vkskin/skin.h, MORPH TARGETS; compute/morph.glsl):
 * every group of a mesh with targets gets its deltas in the set's morph table, 6 floats
 * (dp, dn) per target and group vertex, target-major, and its fields (src/gpu/tables.h,
 * vks__gpu_group): the table offset, the mesh's target count and where its first weight sits
 * before an instance's locals. Each model reserves ceil(target_count / 12) matrix slots
 * before every instance's locals for the weights (vks__gpu_model.morph_slots). */
#include "gpu_internal.h"

#include <stdlib.h>
#include <string.h>

/* Deltas of group gr of skin s into d (6 floats per target and vertex). */
static void group_deltas(const vks_skin *s, const vks_group *gr, float *d)
{
    const vks_mesh *me = &s->meshes[gr->mesh];
    int has_n = (me->flags & VKS_MESH_HAS_NORMALS) != 0;
    for (uint32_t t = 0; t < me->target_count; t++) {
        const vks_morph_target *mt = &s->targets[me->first_target + t];
        for (uint32_t i = 0; i < gr->vertex_count; i++, d += 6) {
            uint32_t lv = gr->first_vertex + i - me->first_vertex;
            memcpy(d, mt->position[lv], 12);
            if (has_n && mt->normal)
                memcpy(d + 3, mt->normal[lv], 12);
            else
                d[3] = d[4] = d[5] = 0;
        }
    }
}

/* Every model's default weights on the host (the batch writes weights less them). */
static int keep_defaults(vks_gpu_models *ms, const vks_skin *const *skins, uint32_t count)
{
    ms->morph_first = malloc(((size_t)count + 1) * sizeof *ms->morph_first);
    uint64_t targets = 0;
    for (uint32_t i = 0; ms->morph_first && i < count; i++)
        ms->morph_first[i] = (uint32_t)targets, targets += skins[i]->target_count;
    ms->morph_defaults = malloc((targets + 1) * sizeof *ms->morph_defaults);
    if (!ms->morph_first || !ms->morph_defaults)
        return 0;
    ms->morph_first[count] = (uint32_t)targets;
    for (uint32_t i = 0; i < count; i++)
        for (uint32_t t = 0; t < skins[i]->target_count; t++)
            ms->morph_defaults[ms->morph_first[i] + t] = skins[i]->targets[t].default_weight;
    return 1;
}

vks_result vks__upload_morph(vks_gpu *gpu, vks_gpu_models *ms, const vks_skin *const *skins, uint32_t count,
                             vks_error *err)
{
    uint64_t entries = 0; /* (target, vertex) pairs over every model */
    for (uint32_t i = 0; i < count; i++) {
        const vks_skin *s = skins[i];
        ms->models[i].morph_slots = (s->target_count + 11) / 12;
        if (s->target_count > 65535 || ms->models[i].morph_slots * 12ull > 65535)
            return vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "gpu/upload",
                                 "model %u has %u morph targets: the GPU takes at most 65532", i, s->target_count);
        for (uint32_t g = 0; g < s->group_count; g++)
            entries += (uint64_t)s->meshes[s->groups[g].mesh].target_count * s->groups[g].vertex_count;
    }
    if (entries > UINT32_MAX / 6)
        return vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "gpu/upload", "morph table too large for 32-bit indices");
    float *table = calloc(entries * 6 + 4, sizeof *table);
    if (!table || !keep_defaults(ms, skins, count)) {
        free(table);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/upload", "out of memory for the morph table");
    }
    uint32_t at = 0;
    for (uint32_t i = 0; i < count; i++) {
        const vks_skin *s = skins[i];
        for (uint32_t g = 0; g < s->group_count; g++) {
            const vks_group *gr = &s->groups[g];
            const vks_mesh *me = &s->meshes[gr->mesh];
            vks__gpu_group *o = &ms->groups[ms->models[i].first_group + g];
            o->morph_base = at;
            o->morph = me->target_count ? me->target_count | (ms->models[i].morph_slots * 12u - me->first_target) << 16 : 0;
            group_deltas(s, gr, table + (size_t)at * 6);
            at += me->target_count * gr->vertex_count;
        }
    }
    vks__oneshot once = {0};
    vks_result res = vks__upload_table(gpu, &once, "morph target", table, (entries ? entries * 6 : 4) * sizeof *table,
                                       &ms->morph, err);
    vks__oneshot_destroy(gpu, &once);
    free(table);
    return res;
}

void vks__morph_weights_put(const vks_gpu_models *ms, const vks_gpu_batch *b, uint32_t entry, uint32_t model,
                            uint32_t inst, float *dst)
{
    uint32_t first = ms->morph_first[model], n = ms->morph_first[model + 1] - first;
    if (!n)
        return;
    float w[64];
    float *tmp = n <= 64 ? w : malloc(n * sizeof *tmp); /* not read back from mapped memory */
    if (!tmp) {
        memset(dst, 0, n * sizeof *dst); /* no memory: the defaults */
        return;
    }
    b->get_weights(b->user, entry, inst, tmp);
    for (uint32_t t = 0; t < n; t++)
        dst[t] = tmp[t] - ms->morph_defaults[first + t];
    if (tmp != w)
        free(tmp);
}
