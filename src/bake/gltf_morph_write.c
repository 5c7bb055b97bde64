/* Morph targets into a written glTF mesh (skin.h, MORPH TARGETS): each target of a model mesh
 * as a primitive target (POSITION deltas, with min and max as the specification requires, and
 * NORMAL deltas where the target has them and the mesh is written with normals), in the file
 * vertex order the mesh is written in; the targets' default weights as the mesh's `weights`
 * and their names as extras.targetNames (the exporters' convention, which readers take back). */
#include <stdlib.h>

#include "gltf_internal.h"

/* Target t's deltas (position or normal) in file vertex order: a file vertex no model vertex
 * came from has none. */
static uint32_t deltas(vks__gltf *g, const vks_skin *s, const vks_mesh *me, float (*d)[3],
                       const uint32_t *file_to_model, int minmax)
{
    uint32_t nv = me->source_vertex_count;
    float(*out)[3] = malloc(((size_t)nv + 1) * sizeof *out);
    if (!out) {
        g->failed = 1;
        return 0;
    }
    for (uint32_t j = 0; j < nv; j++)
        for (int k = 0; k < 3; k++)
            out[j][k] = file_to_model[j] == UINT32_MAX ? 0.0f : d[file_to_model[j] - me->first_vertex][k];
    (void)s;
    uint32_t a = vks__gltf_floats(g, &out[0][0], nv, 3, VKS__GL_ARRAY_BUFFER, minmax);
    free(out);
    return a;
}

cJSON *vks__gltf_morph_targets(vks__gltf *g, const vks_skin *s, uint32_t m, const uint32_t *file_to_model,
                               int with_normals)
{
    const vks_mesh *me = &s->meshes[m];
    if (!me->target_count)
        return NULL;
    cJSON *arr = cJSON_CreateArray();
    for (uint32_t t = me->first_target; arr && t < me->first_target + me->target_count; t++) {
        const vks_morph_target *mt = &s->targets[t];
        cJSON *o = cJSON_CreateObject();
        if (!o || !cJSON_AddItemToArray(arr, o)) {
            cJSON_Delete(o);
            g->failed = 1;
            break;
        }
        cJSON_AddNumberToObject(o, "POSITION", deltas(g, s, me, mt->position, file_to_model, 1));
        if (with_normals && mt->normal)
            cJSON_AddNumberToObject(o, "NORMAL", deltas(g, s, me, mt->normal, file_to_model, 0));
    }
    if (!arr)
        g->failed = 1;
    return arr;
}

void vks__gltf_morph_mesh(vks__gltf *g, cJSON *mesh, const vks_skin *s, uint32_t m)
{
    const vks_mesh *me = &s->meshes[m];
    if (!me->target_count || !mesh)
        return;
    cJSON *w = cJSON_AddArrayToObject(mesh, "weights");
    cJSON *extras = cJSON_AddObjectToObject(mesh, "extras");
    cJSON *names = extras ? cJSON_AddArrayToObject(extras, "targetNames") : NULL;
    if (!w || !names) {
        g->failed = 1;
        return;
    }
    for (uint32_t t = me->first_target; t < me->first_target + me->target_count; t++) {
        cJSON_AddItemToArray(w, cJSON_CreateNumber(s->targets[t].default_weight));
        cJSON_AddItemToArray(names, cJSON_CreateString(s->targets[t].name));
    }
}
