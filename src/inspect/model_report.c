/* Inspecting a model (vkskin inspect on a model file): the skin model as read (counts,
 * skeleton, meshes, groups with their palettes, influence histogram), the weights as stored
 * with what was repaired, and the bind-pose check. A failed check is a finding, not just a
 * number: FAILED in text and JSON and exit 6 (unless allow_bind_mismatch), so that scripts
 * notice a model that does not reproduce its own vertices. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "check/bind_json.h"
#include "core/text_name.h"
#include "inspect/findings.h"
#include "inspect/inspect_internal.h"
#include "inspect/morph.h"
#include "inspect/surface.h"

/* Meshes whose every group is rigid: parts that follow one node (a prop on a bone). */
static uint32_t rigid_meshes(const vks_skin *s)
{
    uint32_t n = 0;
    for (uint32_t m = 0; m < s->mesh_count; m++) {
        const vks_mesh *mesh = &s->meshes[m];
        uint32_t g = 0;
        while (g < mesh->group_count && (s->groups[mesh->first_group + g].flags & VKS_GROUP_RIGID))
            g++;
        n += mesh->group_count > 0 && g == mesh->group_count;
    }
    return n;
}

static const char *node_name(const vks_skin *s, uint32_t node)
{
    return node < s->node_count ? s->nodes[node].name : "?";
}

cJSON *vks__model_json(const vks_inspect *in)
{
    const vks_skin *s = in->skin;
    const vks_bind_check *bc = &in->bc;
    const vks_skin_stats *st = &in->st;
    int allow_mismatch = in->allow_mismatch;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", in->path);
    cJSON_AddStringToObject(o, "format", s->format);
    cJSON_AddStringToObject(o, "version", s->format_detail);
    cJSON *c = cJSON_AddObjectToObject(o, "counts");
    cJSON_AddNumberToObject(c, "nodes", s->node_count);
    cJSON_AddNumberToObject(c, "meshes", s->mesh_count);
    cJSON_AddNumberToObject(c, "rigid_meshes", rigid_meshes(s));
    cJSON_AddNumberToObject(c, "bones", s->bone_count);
    cJSON_AddNumberToObject(c, "groups", s->group_count);
    cJSON_AddNumberToObject(c, "vertices", s->vertex_count);
    cJSON_AddNumberToObject(c, "triangles", s->triangle_count);
    cJSON *sk = cJSON_AddArrayToObject(o, "skeleton");
    for (uint32_t i = 0; i < s->node_count; i++) {
        cJSON *n = cJSON_CreateObject();
        cJSON_AddNumberToObject(n, "index", i);
        cJSON_AddStringToObject(n, "name", s->nodes[i].name);
        cJSON_AddNumberToObject(n, "parent", s->nodes[i].parent);
        cJSON_AddItemToArray(sk, n);
    }
    cJSON *ms = cJSON_AddArrayToObject(o, "meshes");
    for (uint32_t m = 0; m < s->mesh_count; m++) {
        const vks_mesh *me = &s->meshes[m];
        cJSON *jm = cJSON_CreateObject();
        cJSON_AddNumberToObject(jm, "index", m);
        cJSON_AddStringToObject(jm, "name", me->name);
        cJSON_AddNumberToObject(jm, "file_vertices", me->source_vertex_count);
        cJSON_AddNumberToObject(jm, "vertices", me->vertex_count);
        cJSON_AddNumberToObject(jm, "triangles", me->triangle_count);
        cJSON_AddBoolToObject(jm, "normals", (me->flags & VKS_MESH_HAS_NORMALS) != 0);
        cJSON_AddBoolToObject(jm, "renormalize_normals", (me->flags & VKS_MESH_RENORMALIZE) != 0);
        cJSON_AddNumberToObject(jm, "skin_space_node", me->space_node);
        vks__mesh_surface_json(jm, s, m);
        vks__mesh_morph_json(jm, s, m);
        if (m < 64)
            cJSON_AddNumberToObject(jm, "bind_max_error", bc->per_mesh_max[m]);
        cJSON *bones = cJSON_AddArrayToObject(jm, "bones");
        for (uint32_t b = me->first_bone; b < me->first_bone + me->bone_count; b++) {
            cJSON *jb = cJSON_CreateObject();
            cJSON_AddNumberToObject(jb, "node", s->bones[b].node);
            cJSON_AddStringToObject(jb, "name", node_name(s, s->bones[b].node));
            cJSON_AddItemToArray(bones, jb);
        }
        cJSON *gs = cJSON_AddArrayToObject(jm, "groups");
        for (uint32_t g = me->first_group; g < me->first_group + me->group_count; g++) {
            const vks_group *gr = &s->groups[g];
            cJSON *jg = cJSON_CreateObject();
            cJSON_AddNumberToObject(jg, "vertices", gr->vertex_count);
            cJSON_AddNumberToObject(jg, "triangles", gr->triangle_count);
            cJSON_AddNumberToObject(jg, "max_influences", gr->max_influences);
            cJSON_AddBoolToObject(jg, "rigid", (gr->flags & VKS_GROUP_RIGID) != 0);
            cJSON *pal = cJSON_AddArrayToObject(jg, "palette");
            for (uint32_t p = 0; p < gr->palette_count; p++)
                cJSON_AddItemToArray(pal, cJSON_CreateNumber(s->palette[gr->first_palette + p] - me->first_bone));
            cJSON_AddItemToArray(gs, jg);
        }
        cJSON_AddItemToArray(ms, jm);
    }
    vks__surface_json(o, s);
    cJSON *h = cJSON_AddArrayToObject(o, "influence_histogram");
    for (int k = 0; k <= VKS_MAX_INFLUENCES; k++)
        cJSON_AddItemToArray(h, cJSON_CreateNumber(st->influence_histogram[k]));
    cJSON *w = cJSON_AddObjectToObject(o, "weight_sums"); /* as deformed, after any repair */
    cJSON_AddNumberToObject(w, "min", st->min_weight_sum);
    cJSON_AddNumberToObject(w, "max", st->max_weight_sum);
    cJSON_AddNumberToObject(w, "vertices_off_by_more_than_1e-3", st->weight_sum_off);
    if (s->weights.vertices)
        vks__weights_json(cJSON_AddObjectToObject(o, "weights_as_stored"), &s->weights);
    cJSON *b = cJSON_AddObjectToObject(o, "bind_check");
    vks__bind_check_json(b, bc, vks_bind_promised(s), allow_mismatch);
    cJSON_AddNumberToObject(b, "max_normal_error", bc->max_normal_error);
    cJSON_AddNumberToObject(b, "bounding_radius", vks_skin_bounding_radius(s));
    cJSON_AddNumberToObject(b, "worst_vertex", bc->worst_vertex);
    cJSON_AddNumberToObject(b, "worst_mesh", bc->worst_mesh);
    cJSON_AddNumberToObject(b, "rigid_vertices_not_compared", bc->rigid_skipped);
    return o;
}

void vks__model_text(FILE *f, const vks_inspect *in)
{
    const vks_skin *s = in->skin;
    const vks_bind_check *bc = &in->bc;
    const vks_skin_stats *st = &in->st;
    int allow_mismatch = in->allow_mismatch;
    const char *path = in->path;
    fprintf(f, "%s: %s %s\n", path, s->format, s->format_detail);
    uint32_t rigid = rigid_meshes(s);
    char parts[48] = "";
    if (rigid) /* props and body parts on nodes (issue 38); a skinned-only model prints as before */
        snprintf(parts, sizeof parts, ", %u rigid mesh(es)", rigid);
    fprintf(f, "  %u nodes, %u skinned mesh(es)%s, %u bones, %u groups, %u vertices, %u triangles\n", s->node_count,
           s->mesh_count - rigid, parts, s->bone_count, s->group_count, s->vertex_count, s->triangle_count);
    fprintf(f, "  skeleton:\n");
    char a[VKS__NAME_MAX], b[VKS__NAME_MAX]; /* names as data: escaped (cli_text.h) */
    for (uint32_t i = 0; i < s->node_count; i++)
        fprintf(f, "    [%u] %-28s parent %d%s%s\n", i,
               s->nodes[i].name[0] ? vks__text_name(s->nodes[i].name, a, sizeof a) : "(unnamed)", s->nodes[i].parent,
               s->nodes[i].parent >= 0 ? " " : "",
               s->nodes[i].parent >= 0 ? vks__text_name(node_name(s, (uint32_t)s->nodes[i].parent), b, sizeof b) : "");
    for (uint32_t m = 0; m < s->mesh_count; m++) {
        const vks_mesh *me = &s->meshes[m];
        fprintf(f, "  mesh %u \"%s\": %u file vertices (%u after group duplication), %u triangles, %u bones, "
               "%u groups%s%s, skin space: %s\n",
               m, vks__text_name(me->name, a, sizeof a), me->source_vertex_count, me->vertex_count, me->triangle_count,
               me->bone_count, me->group_count, (me->flags & VKS_MESH_HAS_NORMALS) ? ", normals" : ", no normals",
               (me->flags & VKS_MESH_RENORMALIZE) ? " (renormalised)" : "",
               me->space_node >= 0 ? vks__text_name(node_name(s, (uint32_t)me->space_node), b, sizeof b) : "model");
        for (uint32_t g = me->first_group; g < me->first_group + me->group_count; g++) {
            const vks_group *gr = &s->groups[g];
            fprintf(f, "    group %u: %u vertices, %u triangles, up to %u influences%s, palette [", g - me->first_group,
                   gr->vertex_count, gr->triangle_count, gr->max_influences,
                   (gr->flags & VKS_GROUP_RIGID) ? ", rigid" : "");
            for (uint32_t p = 0; p < gr->palette_count; p++) {
                uint32_t bone = s->palette[gr->first_palette + p];
                fprintf(f, "%s%u:%s", p ? " " : "", bone - me->first_bone,
                       vks__text_name(node_name(s, s->bones[bone].node), a, sizeof a));
            }
            fprintf(f, "]\n");
        }
        vks__mesh_surface_text(f, s, m);
        vks__mesh_morph_text(f, s, m);
        if (m < 64)
            fprintf(f, "    bind-pose max error %.3g\n", bc->per_mesh_max[m]);
    }
    vks__surface_text(f, s);
    fprintf(f, "  influences per vertex:");
    for (int k = 1; k <= VKS_MAX_INFLUENCES; k++)
        fprintf(f, " %d:%u", k, st->influence_histogram[k]);
    fprintf(f, "  (weight sums %.6g..%.6g, %u off by > 1e-3)\n", st->min_weight_sum, st->max_weight_sum,
           st->weight_sum_off);
    vks__weights_text(f, &s->weights);
    fprintf(f, "  bind-pose check: %s, max error %.3g (%.3g of the bounding radius %.4g; tolerance %.3g), normals %.3g\n",
           vks_bind_status(bc, vks_bind_promised(s), allow_mismatch),
           bc->max_error, bc->max_error_relative, vks_skin_bounding_radius(s), bc->tolerance, bc->max_normal_error);
    if (bc->rigid_skipped)
        fprintf(f, "  (%u vertices of rigid groups are stored bone-local and not compared)\n", bc->rigid_skipped);
}
