/* vkskin inspect FILE [--json] [--allow-bind-mismatch]: the skin model as read (counts,
 * skeleton, meshes, groups with their palettes, influence histogram), the weights as stored
 * with what was repaired, and the bind-pose check. A failed check is a finding, not just a
 * number: FAILED in text and JSON and exit 6 (unless --allow-bind-mismatch), so that scripts
 * notice a model that does not reproduce its own vertices. */
#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "check/bind_json.h"
#include "cli.h"
#include "cli_text.h"
#include "inspect_clip.h"
#include "inspect_morph.h"
#include "inspect_surface.h"

/* What inspect's command line says (its table below). */
typedef struct inspect_opts {
    int json, allow_mismatch, clips;
    const char *model;
} inspect_opts;

static int set_clip_duration(void *field, const vks_cli_option *o, const char *v)
{
    (void)o;
    char *end = NULL;
    float *duration = field;
    *duration = vks_cli_decimal_text(v) ? strtof(v, &end) : 0.0f;
    if (!end || *end || !(*duration > 0)) {
        fprintf(stderr, "vkskin inspect: --clip-duration wants seconds > 0, not '%s'\n", v);
        return 0;
    }
    return 1;
}

static const vks_cli_option inspect_options[] = {
    {"--json", 0, NULL, vks_cli_store_flag, offsetof(inspect_opts, json), 0, 0,
     "machine-readable output on stdout (one object per file; an array when several files are given)", NULL},
    {"--allow-bind-mismatch", 0, NULL, vks_cli_store_flag, offsetof(inspect_opts, allow_mismatch), 0, 0,
     "a failed bind-pose check is still reported but does not fail",
     "files known not to be stored in their bind pose"},
    {"--model", 0, "MODEL", vks_cli_store_string, offsetof(inspect_opts, model), 0, 0,
     "the model clip files are bound to", NULL},
    {"--clips", 0, NULL, vks_cli_store_flag, offsetof(inspect_opts, clips), 0, 0,
     "show the clips of files that are models too (.nif)", NULL},
};
/* stored in the read options (vks_read_options.clip), which the second group fills */
static const vks_cli_option inspect_clip_options[] = {
    {"--clip-duration", 0, "S", set_clip_duration, offsetof(vks_read_options, clip.duration), 0, 0,
     "RTM: the clip's length in seconds (the file stores none; default 1)", NULL},
};
static const vks_cli_group inspect_group = VKS_CLI_GROUP("options", inspect_options);
static const vks_cli_group inspect_clip_group = VKS_CLI_GROUP("clip options", inspect_clip_options);
static const vks_cli_group *const inspect_groups[] = {&inspect_group, &inspect_clip_group, &vks_cli_read_options,
                                                      NULL};

const vks_cli_command vks_cli_cmd_inspect = {
    .name = "inspect",
    .summary = "print a file's skin model and its bind-pose check",
    .synopsis = "FILE... [--json] [--allow-bind-mismatch] [--model MODEL] [--clips] [read options]",
    .description =
        "Prints each file's skin model: format and version, counts, the skeleton (index, name, parent), every "
        "skinned mesh with its groups and their palettes (palette slot -> bone -> node), the UV sets (with the range "
        "each covers) and the materials (name, base colour, base-colour texture), images and samplers, the "
        "influence histogram, the weights as stored (sums, and how many vertices were repaired and how), and the "
        "bind-pose check: the largest error of deforming with the bind pose against the stored vertices (absolute "
        "and relative to the bounding radius), passed or FAILED against the tolerance of src/check/tolerance.c."
        "\n\nA clip file (a clip format of vkskin --help's list; a pose JSON with --model) prints its "
        "clips instead: duration, frame rate, cycle, space, events, and each track's node with its channels' key "
        "counts and interpolation; with --model, which tracks bind to that model, which name no node, and which "
        "nodes keep their bind pose. A .nif is a model and may hold clips too (keyframe controllers, sequences): "
        "--clips shows them, and so does --model for a .nif that holds any (vkskin inspect --model dance.nif "
        "dance.nif).",
    .epilogue = "exit codes: 0 ok, 1 a file could not be read (one error line each), 2 usage, 5 runtime, 6 bind-pose "
                "check failed; with several files, the most severe",
    .groups = inspect_groups,
    .run = vks_cmd_inspect,
};

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

static cJSON *json_model(const char *path, const vks_skin *s, const vks_bind_check *bc, const vks_skin_stats *st,
                         int allow_mismatch)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", path);
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
        vks_cli_mesh_surface_json(jm, s, m);
        vks_cli_mesh_morph_json(jm, s, m);
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
    vks_cli_surface_json(o, s);
    cJSON *h = cJSON_AddArrayToObject(o, "influence_histogram");
    for (int k = 0; k <= VKS_MAX_INFLUENCES; k++)
        cJSON_AddItemToArray(h, cJSON_CreateNumber(st->influence_histogram[k]));
    cJSON *w = cJSON_AddObjectToObject(o, "weight_sums"); /* as deformed, after any repair */
    cJSON_AddNumberToObject(w, "min", st->min_weight_sum);
    cJSON_AddNumberToObject(w, "max", st->max_weight_sum);
    cJSON_AddNumberToObject(w, "vertices_off_by_more_than_1e-3", st->weight_sum_off);
    if (s->weights.vertices)
        vks_cli_weights_json(cJSON_AddObjectToObject(o, "weights_as_stored"), &s->weights);
    cJSON *b = cJSON_AddObjectToObject(o, "bind_check");
    vks__bind_check_json(b, bc, vks_cli_bind_promised(s), allow_mismatch);
    cJSON_AddNumberToObject(b, "max_normal_error", bc->max_normal_error);
    cJSON_AddNumberToObject(b, "bounding_radius", vks_skin_bounding_radius(s));
    cJSON_AddNumberToObject(b, "worst_vertex", bc->worst_vertex);
    cJSON_AddNumberToObject(b, "worst_mesh", bc->worst_mesh);
    cJSON_AddNumberToObject(b, "rigid_vertices_not_compared", bc->rigid_skipped);
    return o;
}

static void print_text(const char *path, const vks_skin *s, const vks_bind_check *bc, const vks_skin_stats *st,
                       int allow_mismatch)
{
    printf("%s: %s %s\n", path, s->format, s->format_detail);
    uint32_t rigid = rigid_meshes(s);
    char parts[48] = "";
    if (rigid) /* props and body parts on nodes (issue 38); a skinned-only model prints as before */
        snprintf(parts, sizeof parts, ", %u rigid mesh(es)", rigid);
    printf("  %u nodes, %u skinned mesh(es)%s, %u bones, %u groups, %u vertices, %u triangles\n", s->node_count,
           s->mesh_count - rigid, parts, s->bone_count, s->group_count, s->vertex_count, s->triangle_count);
    printf("  skeleton:\n");
    char a[VKS_CLI_NAME_MAX], b[VKS_CLI_NAME_MAX]; /* names as data: escaped (cli_text.h) */
    for (uint32_t i = 0; i < s->node_count; i++)
        printf("    [%u] %-28s parent %d%s%s\n", i,
               s->nodes[i].name[0] ? vks_cli_name(s->nodes[i].name, a, sizeof a) : "(unnamed)", s->nodes[i].parent,
               s->nodes[i].parent >= 0 ? " " : "",
               s->nodes[i].parent >= 0 ? vks_cli_name(node_name(s, (uint32_t)s->nodes[i].parent), b, sizeof b) : "");
    for (uint32_t m = 0; m < s->mesh_count; m++) {
        const vks_mesh *me = &s->meshes[m];
        printf("  mesh %u \"%s\": %u file vertices (%u after group duplication), %u triangles, %u bones, "
               "%u groups%s%s, skin space: %s\n",
               m, vks_cli_name(me->name, a, sizeof a), me->source_vertex_count, me->vertex_count, me->triangle_count,
               me->bone_count, me->group_count, (me->flags & VKS_MESH_HAS_NORMALS) ? ", normals" : ", no normals",
               (me->flags & VKS_MESH_RENORMALIZE) ? " (renormalised)" : "",
               me->space_node >= 0 ? vks_cli_name(node_name(s, (uint32_t)me->space_node), b, sizeof b) : "model");
        for (uint32_t g = me->first_group; g < me->first_group + me->group_count; g++) {
            const vks_group *gr = &s->groups[g];
            printf("    group %u: %u vertices, %u triangles, up to %u influences%s, palette [", g - me->first_group,
                   gr->vertex_count, gr->triangle_count, gr->max_influences,
                   (gr->flags & VKS_GROUP_RIGID) ? ", rigid" : "");
            for (uint32_t p = 0; p < gr->palette_count; p++) {
                uint32_t bone = s->palette[gr->first_palette + p];
                printf("%s%u:%s", p ? " " : "", bone - me->first_bone,
                       vks_cli_name(node_name(s, s->bones[bone].node), a, sizeof a));
            }
            printf("]\n");
        }
        vks_cli_mesh_surface_text(stdout, s, m);
        vks_cli_mesh_morph_text(stdout, s, m);
        if (m < 64)
            printf("    bind-pose max error %.3g\n", bc->per_mesh_max[m]);
    }
    vks_cli_surface_text(stdout, s);
    printf("  influences per vertex:");
    for (int k = 1; k <= VKS_MAX_INFLUENCES; k++)
        printf(" %d:%u", k, st->influence_histogram[k]);
    printf("  (weight sums %.6g..%.6g, %u off by > 1e-3)\n", st->min_weight_sum, st->max_weight_sum,
           st->weight_sum_off);
    vks_cli_weights_text(stdout, &s->weights);
    printf("  bind-pose check: %s, max error %.3g (%.3g of the bounding radius %.4g; tolerance %.3g), normals %.3g\n",
           vks_cli_bind_status(bc, vks_cli_bind_promised(s), allow_mismatch),
           bc->max_error, bc->max_error_relative, vks_skin_bounding_radius(s), bc->tolerance, bc->max_normal_error);
    if (bc->rigid_skipped)
        printf("  (%u vertices of rigid groups are stored bone-local and not compared)\n", bc->rigid_skipped);
}

int vks_cmd_inspect(int argc, char **argv)
{
    int rc = VKS_EXIT_OK, nfiles = 0;
    inspect_opts io = {0};
    vks_read_options opt = {0};
    int parsed = vks_cli_parse(&vks_cli_cmd_inspect, (void *[]){&io, &opt, &opt}, argc, argv, &nfiles, NULL, NULL);
    if (parsed != VKS_CLI_GO_ON)
        return parsed;
    if (!nfiles) {
        vks_cli_help(stderr, &vks_cli_cmd_inspect);
        return VKS_EXIT_USAGE;
    }
    char **files = argv + 1;
    int json = io.json, allow_mismatch = io.allow_mismatch, clips = io.clips;
    const char *model = io.model;
    cJSON *all = json ? cJSON_CreateArray() : NULL;
    vks_skin *bound_to = model ? vks_cli_load_skin(model, &opt) : NULL;
    if (model && !bound_to) {
        cJSON_Delete(all);
        return VKS_EXIT_INPUT;
    }
    for (int f = 0; f < nfiles; f++) {
        /* read once, within --max-input-mb: a pipe cannot be read twice */
        size_t size = 0;
        uint8_t *bytes = vks_cli_read_file(files[f], &size);
        if (!bytes) {
            rc = vks_cli_worse_exit(rc, VKS_EXIT_INPUT);
            continue;
        }
        if (vks_cli_is_clip_file(files[f], bytes, size, &opt, bound_to != NULL, clips)) {
            rc = vks_cli_worse_exit(rc, vks_cli_inspect_clips(files[f], bytes, size, &opt, bound_to, model, all));
            free(bytes);
            continue;
        }
        vks_skin *s = vks_cli_load_skin_bytes(files[f], bytes, size, &opt);
        free(bytes);
        if (!s) {
            rc = vks_cli_worse_exit(rc, VKS_EXIT_INPUT);
            continue;
        }
        vks_bind_check bc;
        vks_skin_stats st;
        int found = vks_cli_bind_check(files[f], s, allow_mismatch, &bc);
        rc = vks_cli_worse_exit(rc, found);
        if (found == VKS_EXIT_RUNTIME) {
            vks_skin_free(s);
            continue;
        }
        vks_skin_stats_compute(s, &st);
        if (json)
            cJSON_AddItemToArray(all, json_model(files[f], s, &bc, &st, allow_mismatch));
        else
            print_text(files[f], s, &bc, &st, allow_mismatch);
        vks_skin_free(s);
    }
    if (json) {
        cJSON *out = nfiles == 1 && cJSON_GetArraySize(all) == 1 ? cJSON_DetachItemFromArray(all, 0) : all;
        char *text = cJSON_Print(out), *utf8 = text ? vks_cli_json_utf8(text) : NULL; /* names of any encoding */
        if (utf8)
            printf("%s\n", utf8);
        free(utf8);
        free(text);
        if (out != all)
            cJSON_Delete(out);
        cJSON_Delete(all);
    }
    vks_skin_free(bound_to);
    return rc;
}
