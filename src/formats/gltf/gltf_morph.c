/* glTF morph targets (specification 3.7.2.2): a primitive's `targets`, each with POSITION and
 * optionally NORMAL deltas (dense or sparse accessors, or no bufferView: zeros), read per file
 * vertex while the primitive is read; once the builder has laid the vertices out, each delta
 * goes to every model vertex made from its file vertex (skin->source_vertex), dense over the
 * mesh, as skin.h's MORPH TARGETS keeps them. Default weights: the node's `weights`, else the
 * mesh's, else 0 (the specification's order). Target names: the mesh's extras.targetNames,
 * the exporters' convention (Blender's shape keys), where given. TANGENT deltas are not read:
 * the model has no tangents. */
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "gltf_morph.h"

static const cJSON *member(const cJSON *o, const char *name)
{
    return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, name) : NULL;
}

/* weights (a number array of n entries, or absent: zeros) into w. */
static vks_result read_weights(gltf_doc *d, const cJSON *arr, const char *path, uint32_t n, float *w)
{
    if (!arr)
        return VKS_OK;
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) != (int)n)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "weights must be an array of %u numbers, one per morph target",
                               n);
    uint32_t t = 0;
    for (const cJSON *e = arr->child; e; e = e->next, t++) {
        if (!cJSON_IsNumber(e) || !(e->valuedouble == e->valuedouble) || e->valuedouble > 3.4e38 ||
            e->valuedouble < -3.4e38)
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "weights[%u] is not a finite number", t);
        w[t] = (float)e->valuedouble;
    }
    return VKS_OK;
}

/* One target's attribute (POSITION or NORMAL) as floats over vcount file vertices. */
static vks_result target_attribute(gltf_doc *d, const cJSON *target, const char *tpath, const char *name,
                                   uint32_t vcount, float **out)
{
    *out = NULL;
    int32_t acc = -1;
    vks_result r = vks__gltfr_get_index(d, target, tpath, name, 0, d->accessor_count, "accessors", &acc);
    if (r != VKS_OK || acc < 0)
        return r;
    uint32_t types = GLTF_BIT(GLTF_FLOAT);
    if (d->quantized) /* KHR_mesh_quantization: integer deltas, normalized or not */
        types |= GLTF_BIT(GLTF_BYTE) | GLTF_BIT(GLTF_SHORT);
    gltf_accessor_want want = {"VEC3", types, -1, 0, 1};
    gltf_values info;
    char path[160];
    snprintf(path, sizeof path, "%s.%s", tpath, name);
    if ((r = vks__gltfr_accessor_floats(d, acc, path, &want, &info, out)) != VKS_OK)
        return r;
    if (info.count != vcount)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "accessor %d has %u elements, POSITION %u", acc, info.count,
                               vcount);
    return VKS_OK;
}

vks_result vks__gltfr_morph_read(gltf_doc *d, const cJSON *prim, const char *ppath, const cJSON *mesh,
                                 uint32_t node, uint32_t vcount, int has_normals, gltf_morph_prim *out)
{
    memset(out, 0, sizeof *out);
    const cJSON *targets = member(prim, "targets");
    if (!targets)
        return VKS_OK;
    char path[160];
    snprintf(path, sizeof path, "%s.targets", ppath);
    int n = cJSON_IsArray(targets) ? cJSON_GetArraySize(targets) : 0;
    if (n < 1)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "must be a non-empty array");
    out->target_count = (uint32_t)n, out->vertex_count = vcount;
    out->pos = vks__gltfr_alloc(d, (size_t)n, sizeof *out->pos);
    out->nrm = vks__gltfr_alloc(d, (size_t)n, sizeof *out->nrm);
    out->weights = vks__gltfr_alloc(d, (size_t)n, sizeof *out->weights);
    if (!out->pos || !out->nrm || !out->weights)
        return vks__gltfr_nomem(d, path);
    uint32_t t = 0;
    for (const cJSON *tg = targets->child; tg; tg = tg->next, t++) {
        char tpath[160];
        snprintf(tpath, sizeof tpath, "%s.targets[%u]", ppath, t);
        if (!cJSON_IsObject(tg))
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, tpath, "must be an object");
        vks_result r = target_attribute(d, tg, tpath, "POSITION", vcount, &out->pos[t]);
        if (r == VKS_OK && has_normals)
            r = target_attribute(d, tg, tpath, "NORMAL", vcount, &out->nrm[t]);
        if (r != VKS_OK)
            return r;
        if (out->nrm[t])
            out->normal_targets++;
    }
    /* the node's weights override the mesh's (the specification: "node.weights ... when
       defined, mesh.weights MUST be ignored") */
    out->node_name = d->names[node];
    const cJSON *nw = member(d->node_at[node], "weights");
    vks_result r = nw ? read_weights(d, nw, "node.weights", out->target_count, out->weights)
                      : read_weights(d, member(mesh, "weights"), "mesh.weights", out->target_count, out->weights);
    if (r != VKS_OK)
        return r;
    out->names = member(member(mesh, "extras"), "targetNames");
    return VKS_OK;
}

/* A target name from extras.targetNames, or "". */
static const char *target_name(vks_skin *skin, const cJSON *names, uint32_t t)
{
    const cJSON *e = cJSON_IsArray(names) ? cJSON_GetArrayItem(names, (int)t) : NULL;
    const char *s = cJSON_IsString(e) ? e->valuestring : "";
    return vks_skin_strndup(skin, s, strlen(s));
}

/* Target t of one primitive, dense over its model mesh's vertices. */
static vks_result attach_target(gltf_doc *d, vks_skin *skin, const gltf_morph_prim *mp, uint32_t t, uint32_t slot)
{
    const vks_mesh *me = &skin->meshes[mp->mesh];
    vks_morph_target *mt = &skin->targets[slot];
    mt->mesh = mp->mesh, mt->index = t, mt->default_weight = mp->weights[t];
    mt->name = target_name(skin, mp->names, t);
    mt->position = vks_skin_alloc_array(skin, me->vertex_count ? me->vertex_count : 1, sizeof *mt->position);
    int normals = mp->nrm[t] && (me->flags & VKS_MESH_HAS_NORMALS);
    if (normals)
        mt->normal = vks_skin_alloc_array(skin, me->vertex_count ? me->vertex_count : 1, sizeof *mt->normal);
    if (!mt->name || !mt->position || (normals && !mt->normal))
        return vks__gltfr_nomem(d, "targets");
    for (uint32_t v = 0; v < me->vertex_count; v++) {
        uint32_t f = skin->source_vertex[me->first_vertex + v];
        if (f >= mp->vertex_count)
            return vks__gltfr_fail(d, VKS_ERR_INVALID, me->name, "model vertex %u comes from file vertex %u of %u", v,
                                   f, mp->vertex_count);
        if (mp->pos[t]) /* a target may move normals only (no POSITION): its positions stay */
            memcpy(mt->position[v], mp->pos[t] + (size_t)f * 3, sizeof mt->position[v]);
        else
            memset(mt->position[v], 0, sizeof mt->position[v]);
        if (normals)
            memcpy(mt->normal[v], mp->nrm[t] + (size_t)f * 3, sizeof mt->normal[v]);
    }
    return VKS_OK;
}

vks_result vks__gltfr_morph_attach(gltf_doc *d, vks_skin *skin, const gltf_morph_prim *prims, uint32_t count)
{
    uint32_t total = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (prims[i].mesh >= skin->mesh_count || (i && prims[i].mesh <= prims[i - 1].mesh))
            return vks__gltfr_fail(d, VKS_ERR_INVALID, "targets", "morphed primitive %u names mesh %u of %u", i,
                                   prims[i].mesh, skin->mesh_count);
        total += prims[i].target_count;
    }
    if (!total)
        return VKS_OK;
    skin->targets = vks_skin_alloc_array(skin, total, sizeof *skin->targets);
    if (!skin->targets)
        return vks__gltfr_nomem(d, "targets");
    skin->target_count = total;
    /* targets mesh by mesh: the morphed primitives come in mesh order */
    uint32_t slot = 0;
    for (uint32_t i = 0; i < count; i++) {
        vks_mesh *me = &skin->meshes[prims[i].mesh];
        me->first_target = slot, me->target_count = prims[i].target_count;
        me->node_name = vks_skin_strndup(skin, prims[i].node_name, strlen(prims[i].node_name));
        if (!me->node_name)
            return vks__gltfr_nomem(d, "targets");
        for (uint32_t t = 0; t < prims[i].target_count; t++) {
            vks_result r = attach_target(d, skin, &prims[i], t, slot++);
            if (r != VKS_OK)
                return r;
        }
    }
    return VKS_OK;
}
