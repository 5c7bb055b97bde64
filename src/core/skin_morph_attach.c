/* Morph targets a seed format reader (RenderWare, NIF) read per file vertex, placed on the
 * built model's meshes (skin_morph.h, vks__skin_attach_morphs). */
#include "skin_morph.h"

#include <stdio.h>
#include <string.h>

static vks_result attach_one(vks_skin *skin, const vks__morph_source *src, uint32_t t, uint32_t slot, vks_error *err)
{
    const vks_mesh *me = &skin->meshes[src->mesh];
    vks_morph_target *mt = &skin->targets[slot];
    size_t n = me->vertex_count ? me->vertex_count : 1;
    const char *name = src->names && src->names[t] ? src->names[t] : "";
    mt->mesh = src->mesh, mt->index = t, mt->default_weight = src->weights ? src->weights[t] : 0.0f;
    mt->name = vks_skin_strndup(skin, name, strlen(name));
    mt->position = vks_skin_alloc_array(skin, n, sizeof *mt->position);
    int normals = src->nrm && src->nrm[t] && (me->flags & VKS_MESH_HAS_NORMALS);
    mt->normal = normals ? vks_skin_alloc_array(skin, n, sizeof *mt->normal) : NULL;
    if (!mt->name || !mt->position || (normals && !mt->normal))
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "targets", "out of memory for morph target %u", t);
    for (uint32_t v = 0; v < me->vertex_count; v++) {
        uint32_t f = skin->source_vertex[me->first_vertex + v];
        if (f >= src->file_vertex_count)
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, me->name,
                                 "model vertex %u comes from file vertex %u of %u", v, f, src->file_vertex_count);
        if (src->pos[t]) /* a target may move normals only: its positions stay */
            memcpy(mt->position[v], src->pos[t] + (size_t)f * 3, sizeof mt->position[v]);
        else
            memset(mt->position[v], 0, sizeof mt->position[v]);
        if (normals)
            memcpy(mt->normal[v], src->nrm[t] + (size_t)f * 3, sizeof mt->normal[v]);
    }
    return VKS_OK;
}

vks_result vks__skin_attach_morphs(vks_skin *skin, const vks__morph_source *src, uint32_t count, vks_error *err)
{
    uint64_t total = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (src[i].mesh >= skin->mesh_count || (i && src[i].mesh <= src[i - 1].mesh))
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "targets",
                                 "morphed mesh %u of %u is not after the one before", src[i].mesh, skin->mesh_count);
        total += src[i].target_count;
    }
    if (!total)
        return VKS_OK;
    if (total > UINT32_MAX / 2)
        return vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "targets", "%llu morph targets",
                             (unsigned long long)total);
    skin->targets = vks_skin_alloc_array(skin, total, sizeof *skin->targets);
    if (!skin->targets)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "targets", "out of memory for %llu morph targets",
                             (unsigned long long)total);
    skin->target_count = (uint32_t)total;
    uint32_t slot = 0;
    for (uint32_t i = 0; i < count; i++) {
        vks_mesh *me = &skin->meshes[src[i].mesh];
        me->first_target = slot, me->target_count = src[i].target_count;
        if (src[i].node_name && !(me->node_name = vks_skin_strndup(skin, src[i].node_name, strlen(src[i].node_name))))
            return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "targets", "out of memory");
        for (uint32_t t = 0; t < src[i].target_count; t++) {
            vks_result r = attach_one(skin, &src[i], t, slot++, err);
            if (r != VKS_OK)
                return r;
        }
    }
    return VKS_OK;
}
