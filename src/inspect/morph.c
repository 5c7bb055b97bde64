/* vkskin inspect: each mesh's morph targets (skin.h, MORPH TARGETS) with the weight every
 * engine applies when the pose gives none, and whether a target moves normals too. */
#include "inspect/morph.h"

void vks__mesh_morph_text(FILE *f, const vks_skin *s, uint32_t m)
{
    const vks_mesh *me = &s->meshes[m];
    if (!me->target_count)
        return;
    fprintf(f, "    %u morph target%s (default weights):", me->target_count, me->target_count == 1 ? "" : "s");
    for (uint32_t t = me->first_target; t < me->first_target + me->target_count; t++) {
        const vks_morph_target *mt = &s->targets[t];
        fprintf(f, " [%u] %s%s%.4g%s", mt->index, mt->name, mt->name[0] ? " " : "", mt->default_weight,
                mt->normal ? "" : " (positions only)");
    }
    fputc('\n', f);
}

void vks__mesh_morph_json(cJSON *jm, const vks_skin *s, uint32_t m)
{
    const vks_mesh *me = &s->meshes[m];
    cJSON *arr = cJSON_AddArrayToObject(jm, "morph_targets");
    for (uint32_t t = me->first_target; t < me->first_target + me->target_count; t++) {
        const vks_morph_target *mt = &s->targets[t];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "name", mt->name);
        cJSON_AddNumberToObject(j, "default_weight", mt->default_weight);
        cJSON_AddBoolToObject(j, "normals", mt->normal != NULL);
        cJSON_AddItemToArray(arr, j);
    }
}
