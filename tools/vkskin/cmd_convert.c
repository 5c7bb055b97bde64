/* vkskin convert IN OUT.glb|OUT.gltf [--clip FILE[#name] ...]: the model (any format vkskin
 * reads) and its clips as glTF 2.0 (include/vkskin/gltf.h), for Blender, three.js and any
 * glTF viewer. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "core/vec.h"

typedef struct convert_clips {
    vks_clip_set **sets;
    vks_gltf_clip *list;
    vks_clip_binding *bindings;
    char **names; /* per entry: the animation's name when the clip has none (owned), or NULL */
    uint32_t set_count, count, cap;
    size_t set_cap;
} convert_clips;

/* name: the animation's name for a clip without one (taken over), or NULL. */
static int add_clip(convert_clips *cc, const vks_clip *clip, const vks_skin *skin, const char *label, char *name)
{
    if (cc->count == cc->cap) {
        /* three arrays in step: each grows from the same capacity, which counts once all have */
        size_t cap_l = cc->cap, cap_b = cc->cap, cap_n = cc->cap;
        vks_gltf_clip *l = vks__grow_array(NULL, cc->list, cc->count, &cap_l, 1, sizeof *l, 8);
        if (l)
            cc->list = l;
        vks_clip_binding *b = vks__grow_array(NULL, cc->bindings, cc->count, &cap_b, 1, sizeof *b, 8);
        if (b)
            cc->bindings = b;
        char **nm = vks__grow_array(NULL, cc->names, cc->count, &cap_n, 1, sizeof *nm, 8);
        if (nm)
            cc->names = nm;
        if (!l || !b || !nm) {
            free(name);
            fprintf(stderr, "vkskin: out of memory\n");
            return 0;
        }
        /* the list points into the bindings, which may have moved: a file of more than 8
           clips (RobotExpressive's 14) left the first 8 pointing at freed memory */
        for (uint32_t i = 0; i < cc->count; i++)
            cc->list[i].binding = &cc->bindings[i];
        cc->cap = (uint32_t)cap_l;
    }
    vks_error err = {0};
    char msg[512];
    vks_clip_binding *b = &cc->bindings[cc->count];
    if (vks_clip_bind(clip, skin, b, &err) != VKS_OK) {
        fprintf(stderr, "vkskin: %s: %s\n", label, vks_error_format(&err, NULL, msg, sizeof msg));
        free(name);
        return 0;
    }
    uint32_t morph_meshes = 0; /* a clip of morph weights only is a clip too */
    if (vks_clip_morph_meshes(clip, skin, &morph_meshes, &err) != VKS_OK) {
        fprintf(stderr, "vkskin: %s: %s\n", label, vks_error_format(&err, NULL, msg, sizeof msg));
        vks_clip_binding_free(b);
        free(name);
        return 0;
    }
    if (b->bound_tracks == 0 && morph_meshes == 0) {
        fprintf(stderr, "vkskin: %s: the clip drives none of the model's nodes nor morph weights\n", label);
        vks_clip_binding_free(b);
        free(name);
        return 0;
    }
    if (b->unmatched_tracks)
        fprintf(stderr, "vkskin: %s: note: %u of the %u tracks drive no node of this model and are left out\n", label,
                b->unmatched_tracks, clip->track_count);
    cc->names[cc->count] = name;
    cc->list[cc->count++] = (vks_gltf_clip){clip, b, name};
    return 1;
}

/* Reads one --clip FILE[#name] and binds its clips (or the one named) to skin. */
static int load_clip_file(convert_clips *cc, const char *arg, const vks_skin *skin, const vks_read_options *ropt)
{
    char path[4096];
    const char *hash = strrchr(arg, '#'), *name = NULL;
    size_t n = hash ? (size_t)(hash - arg) : strlen(arg);
    if (n >= sizeof path) {
        fprintf(stderr, "vkskin convert: clip path too long\n");
        return 0;
    }
    memcpy(path, arg, n);
    path[n] = 0;
    if (hash)
        name = hash + 1;
    size_t size = 0;
    uint8_t *bytes = vks_cli_read_file(path, &size);
    if (!bytes)
        return 0;
    vks_clip_set *set = vks_cli_read_clips(NULL, path, bytes, size, skin, ropt);
    free(bytes);
    if (!set)
        return 0;
    vks_clip_set **sets = vks__grow_array(NULL, cc->sets, cc->set_count, &cc->set_cap, 1, sizeof *sets, 4);
    if (!sets) {
        vks_clip_set_free(set);
        return 0;
    }
    cc->sets = sets;
    cc->sets[cc->set_count++] = set;
    if (name) {
        int32_t k = vks_clip_set_find(set, name);
        if (k < 0) {
            fprintf(stderr, "vkskin: %s: no clip named '%s' (the file has %u)\n", path, name, set->clip_count);
            return 0;
        }
        return add_clip(cc, &set->clips[k], skin, arg,
                        set->clips[k].name[0] ? NULL : vks_clip_unnamed_name(path, (uint32_t)k, set->clip_count));
    }
    for (uint32_t k = 0; k < set->clip_count; k++) {
        char label[4200];
        snprintf(label, sizeof label, "%s#%s", path, set->clips[k].name[0] ? set->clips[k].name : "0");
        if (!add_clip(cc, &set->clips[k], skin, label,
                      set->clips[k].name[0] ? NULL : vks_clip_unnamed_name(path, k, set->clip_count)))
            return 0;
    }
    return 1;
}

/* A clip that moves a mesh's skin-space node (RenderWare's atomic frame) or one of its
 * ancestors: vkskin's deformation takes that motion out (the skin space follows the node), the
 * glTF, whose skin space is fixed at bind, shows it (gltf.h). Said once per clip. */
static void note_space_motion(const vks_skin *skin, const convert_clips *cc)
{
    for (uint32_t i = 0; i < cc->count; i++)
        for (uint32_t m = 0; m < skin->mesh_count; m++) {
            int32_t n = skin->meshes[m].space_node;
            while (n >= 0 && cc->bindings[i].track_of_node[n] < 0 && cc->list[i].clip->space == VKS_CLIP_LOCAL)
                n = skin->nodes[n].parent;
            if (n >= 0) {
                fprintf(stderr, "vkskin: note: the clip \"%s\" moves node \"%s\", which carries the skin space of mesh "
                                "%u: glTF players show that motion, vkskin's deform takes it out\n",
                        cc->list[i].name ? cc->list[i].name : cc->list[i].clip->name, skin->nodes[n].name, m);
                break;
            }
        }
}

static void free_clips(convert_clips *cc)
{
    for (uint32_t i = 0; i < cc->count; i++)
        vks_clip_binding_free(&cc->bindings[i]), free(cc->names[i]);
    for (uint32_t i = 0; i < cc->set_count; i++)
        vks_clip_set_free(cc->sets[i]);
    free(cc->sets), free(cc->list), free(cc->bindings), free(cc->names);
}

/* --fps, --clip-duration, --clip-fps: a number > 0 (and at most 1e6). */
static int set_positive(void *field, const vks_cli_option *o, const char *text)
{
    char *end = NULL;
    double v = vks_cli_decimal_text(text) ? strtod(text, &end) : 0.0; /* 0: refused below */
    if (!end || *end || !(v > 0) || v > 1e6) {
        fprintf(stderr, "vkskin convert: %s wants a number > 0, not '%s'\n", o->name, text);
        return 0;
    }
    *(float *)field = (float)v;
    return 1;
}

/* What convert's command line says besides the read options. */
typedef struct convert_opts {
    vks_cli_list clips; /* --clip FILE[#name], in order */
    vks_gltf_options gltf;
} convert_opts;

static const vks_cli_option convert_options[] = {
    {"--clip", 0, "FILE[#name]", vks_cli_store_list, offsetof(convert_opts, clips), 0, 0,
     "a clip file bound to IN as deform binds it",
     "{clip formats}, or pose JSON (.json); every clip of the file, or the one named (or numbered); repeat for "
     "more files"},
    {"--fps", 0, "R", set_positive, offsetof(convert_opts, gltf.fps), 0, 0,
     "rate at which tracks glTF cannot play as stored are sampled (Euler angles, B-splines, RTM deltas; default "
     "30)",
     "Step, linear and Hermite tracks keep their keys (STEP, LINEAR, CUBICSPLINE)"},
};
/* stored in the read options (vks_read_options.clip) */
static const vks_cli_option convert_clip_options[] = {
    {"--clip-duration", 0, "S", set_positive, offsetof(vks_read_options, clip.duration), 0, 0,
     "RTM: the clip's length in seconds (the file stores none; default 1)", NULL},
    {"--clip-fps", 0, "R", set_positive, offsetof(vks_read_options, clip.fps), 0, 0,
     "frame rate of clips that store none (pose JSON, .cskla; default 30)", NULL},
};
static const vks_cli_group convert_group = VKS_CLI_GROUP("options", convert_options);
static const vks_cli_group convert_clip_group = VKS_CLI_GROUP("clip options", convert_clip_options);
static const vks_cli_group *const convert_groups[] = {&convert_group, &convert_clip_group, &vks_cli_read_options,
                                                      NULL};

const vks_cli_command vks_cli_cmd_convert = {
    .name = "convert",
    .summary = "write a model and its clips as glTF 2.0 (.glb or .gltf)",
    .synopsis = "IN OUT.glb|OUT.gltf [--clip FILE[#name] ...] [--fps R]",
    .description =
        "Writes the skinned model IN (any model format of vkskin --help's list) and the clips given as glTF "
        "2.0: meshes with POSITION, NORMAL, JOINTS_0, WEIGHTS_0 (and JOINTS_1, WEIGHTS_1 where a vertex has more "
        "than 4 influences) and indices in the file's own vertex order, one skin per mesh (the groups' palettes "
        "resolved to the mesh's bones), the skeleton under a root node that carries the axis correction to glTF's "
        "Y-up right-handed frame (from the axes the format registry gives the model's format; vertex data stay as the source "
        "stores them), and one animation per clip.",
    .epilogue = "OUT.glb is binary glTF; OUT.gltf is JSON with the buffer embedded (base64). The output is written "
                "to a temporary name and renamed when complete.\nexit codes: 0 ok, 1 bad input, 2 usage, 5 the "
                "output cannot be written",
    .groups = convert_groups,
    .run = vks_cmd_convert,
};

/* One warning per texture name the glTF keeps only by name (a .tga, .dds, a dictionary entry):
 * the file is valid, but a viewer shows the base colour until someone converts the texture. */
static void warn_textures_by_name(const char *in, const vks_skin *skin)
{
    for (uint32_t i = 0; i < skin->material_count; i++) {
        char name[512], other[512];
        if (vks_gltf_material_texture(skin, i, name, sizeof name) != VKS_GLTF_TEXTURE_BY_NAME)
            continue;
        uint32_t j = 0;
        while (j < i && !(vks_gltf_material_texture(skin, j, other, sizeof other) == VKS_GLTF_TEXTURE_BY_NAME &&
                          !strcmp(name, other)))
            j++;
        if (j < i)
            continue;
        fprintf(stderr,
                "vkskin: warning: %s: texture \"%s\" (material %u \"%s\") is not a PNG or JPEG image glTF can hold or "
                "reference: kept by name in the material's extras.vkskin.base_texture\n",
                in, name, i, skin->materials[i].name);
    }
}

int vks_cmd_convert(int argc, char **argv)
{
    vks_read_options ropt = {0};
    convert_opts co = {0};
    int nfiles = 0, rc = VKS_EXIT_OK;
    convert_clips cc = {0};
    vks_skin *skin = NULL;
    co.clips.items = calloc((size_t)argc + 1, sizeof *co.clips.items);
    if (!co.clips.items)
        return VKS_EXIT_RUNTIME;
    rc = vks_cli_parse(&vks_cli_cmd_convert, (void *[]){&co, &ropt, &ropt}, argc, argv, &nfiles, NULL, NULL);
    if (rc != VKS_CLI_GO_ON)
        goto out;
    rc = VKS_EXIT_OK;
    if (nfiles > 2) {
        fprintf(stderr, "vkskin convert: one input and one output, not '%s' too\n", argv[3]);
        rc = VKS_EXIT_USAGE;
        goto out;
    }
    if (nfiles != 2) {
        fprintf(stderr, "vkskin convert: needs IN and OUT.glb or OUT.gltf\n");
        vks_cli_help(stderr, &vks_cli_cmd_convert);
        rc = VKS_EXIT_USAGE;
        goto out;
    }
    const char **files = (const char **)argv + 1, **clip_args = co.clips.items;
    uint32_t nclips = co.clips.count;
    vks_gltf_options gopt = co.gltf;
    const char *in = files[0], *outp = files[1];
    size_t on = strlen(outp);
    if (!(on >= 4 && !strcasecmp(outp + on - 4, ".glb")) && !(on >= 5 && !strcasecmp(outp + on - 5, ".gltf")) &&
        strcmp(outp, "-")) {
        fprintf(stderr, "vkskin convert: the output's name must end in .glb or .gltf: %s\n", outp);
        rc = VKS_EXIT_USAGE;
        goto out;
    }
    if (!strcasecmp(outp + (on >= 5 ? on - 5 : 0), ".gltf"))
        gopt.container = VKS_GLTF_EMBEDDED;
    else
        gopt.container = VKS_GLTF_GLB;
    /* refuse to write over what the run reads, before any work */
    vks_output_inputs ins = {0};
    vks_cli_inputs_add_model(&ins, in, &ropt, "the model");
    for (uint32_t k = 0; k < nclips; k++) { /* FILE#name reads FILE */
        const char *hash = strrchr(clip_args[k], '#');
        vks_cli_inputs_add_model(&ins, clip_args[k], &ropt, "the clip file");
        char *file = hash ? strndup(clip_args[k], (size_t)(hash - clip_args[k])) : NULL;
        if (hash && !file)
            ins.nomem = 1;
        vks_cli_inputs_add_model(&ins, file, &ropt, "the clip file");
        free(file);
    }
    rc = vks_cli_refuse_input(&ins, NULL, outp);
    vks_output_inputs_free(&ins);
    if (rc != VKS_EXIT_OK)
        goto out;
    vks_error err = {0};
    char msg[512];
    if (vks_output_check(outp, 0, &err) != VKS_OK) {
        fprintf(stderr, "vkskin: %s\n", vks_error_format(&err, NULL, msg, sizeof msg));
        rc = VKS_EXIT_RUNTIME;
        goto out;
    }
    if (!(skin = vks_cli_load_skin(in, &ropt))) {
        rc = VKS_EXIT_INPUT;
        goto out;
    }
    for (uint32_t k = 0; k < nclips; k++)
        if (!load_clip_file(&cc, clip_args[k], skin, &ropt)) {
            rc = VKS_EXIT_INPUT;
            goto out;
        }
    note_space_motion(skin, &cc);
    vks_gltf_report rep;
    vks_result r = vks_gltf_write_skin(outp, skin, cc.list, cc.count, &gopt, &rep, &err);
    if (r != VKS_OK) {
        fprintf(stderr, "vkskin: %s\n", vks_error_format(&err, r == VKS_ERR_IO ? NULL : in, msg, sizeof msg));
        rc = vks_cli_exit_code(r);
        goto out;
    }
    fprintf(stderr,
            "vkskin: %s -> %s: %u mesh(es), %u joint(s), %u node(s), %u animation(s) (%u channel(s) with their own "
            "keys, %u sampled at %g fps)%s, %u UV set(s), %u material(s), %u image(s), %llu bytes\n",
            in, outp, rep.meshes, rep.joints, rep.nodes, rep.animations, rep.channels_kept, rep.channels_resampled,
            gopt.fps > 0 ? gopt.fps : 30.0, rep.skeleton_copies > 1 ? ", one skeleton per skin space" : "",
            rep.uv_sets, rep.materials, rep.images, (unsigned long long)rep.bytes);
    if (rep.weights_normalised)
        fprintf(stderr, "vkskin: note: %u vertices' stored weights did not sum to 1; glTF's are normalised\n",
                rep.weights_normalised);
    if (rep.normals_replaced)
        fprintf(stderr, "vkskin: note: %u zero normals written as +Y (glTF normals are unit)\n", rep.normals_replaced);
    warn_textures_by_name(in, skin);
out:
    free_clips(&cc);
    vks_skin_free(skin);
    free(co.clips.items);
    return rc;
}
