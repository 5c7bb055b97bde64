/* Morph weights in a pose file (skin.h, MORPH TARGETS), beside a frame's "nodes":
 *   "weights": {"Body": [0.5, 1], "Face": [0, 0, 0.25]}
 * Each member names a mesh, by the name inspect prints for it or by the name of the node
 * that places it (glTF), and gives every one of its targets' weights in order; every mesh of
 * that name takes them. Meshes not named keep their targets' default weights. A name that no
 * mesh with targets has, or a count that is not the mesh's target count, is an error naming
 * the member. */
#include "pose_file_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Whether mesh me answers to name. */
static int named(const vks_mesh *me, const char *name)
{
    return !strcmp(me->name, name) || (me->node_name && !strcmp(me->node_name, name));
}

static vks_result member_weights(const vks_skin *skin, const cJSON *m, const char *path, float *out, vks_error *err)
{
    uint32_t found = 0;
    for (uint32_t k = 0; k < skin->mesh_count; k++) {
        const vks_mesh *me = &skin->meshes[k];
        if (!me->target_count || !named(me, m->string))
            continue;
        found++;
        if (!cJSON_IsArray(m) || cJSON_GetArraySize(m) != (int)me->target_count)
            return vks_error_set(err, VKS_ERR_FORMAT, VKS_NO_OFFSET, path,
                                 "mesh \"%s\" has %u morph targets: give an array of %u weights", m->string,
                                 me->target_count, me->target_count);
        uint32_t t = 0;
        for (const cJSON *e = m->child; e; e = e->next, t++) {
            if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble) || fabs(e->valuedouble) > 3.4e38)
                return vks_error_set(err, VKS_ERR_FORMAT, VKS_NO_OFFSET, path, "weight %u is not a finite number", t);
            out[me->first_target + t] = (float)e->valuedouble;
        }
    }
    if (!found)
        return vks_error_set(err, VKS_ERR_FORMAT, VKS_NO_OFFSET, path, "no mesh with morph targets is named \"%s\"",
                             m->string);
    return VKS_OK;
}

vks_result vks__pose_file_weights(const vks_skin *skin, const cJSON *weights, const char *prefix, float *out,
                                  vks_error *err)
{
    char path[96];
    snprintf(path, sizeof path, "%sweights", prefix);
    if (!cJSON_IsObject(weights))
        return vks_error_set(err, VKS_ERR_FORMAT, VKS_NO_OFFSET, path, "must be an object: mesh name -> weights");
    for (const cJSON *m = weights->child; m; m = m->next) {
        char mpath[160];
        snprintf(mpath, sizeof mpath, "%s.%.60s", path, m->string);
        vks_result r = member_weights(skin, m, mpath, out, err);
        if (r != VKS_OK)
            return r;
    }
    return VKS_OK;
}

int vks__pose_file_has_weights(const cJSON *root)
{
    const cJSON *frames = cJSON_GetObjectItemCaseSensitive(root, "frames"), *fr;
    if (cJSON_GetObjectItemCaseSensitive(root, "weights"))
        return 1;
    cJSON_ArrayForEach(fr, frames)
    if (cJSON_IsObject(fr) && cJSON_GetObjectItemCaseSensitive(fr, "weights"))
        return 1;
    return 0;
}
