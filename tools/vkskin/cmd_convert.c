/* vkskin convert IN OUT.glb|OUT.gltf [--clip FILE[#name] ...]: the model (any format vkskin
 * reads) and its clips as glTF 2.0 (include/vkskin/convert.h, gltf.h), for Blender, three.js and any
 * glTF viewer. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "vkskin/convert.h"

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

int vks_cmd_convert(int argc, char **argv)
{
    vks_read_options ropt = {0};
    convert_opts co = {0};
    int nfiles = 0, rc = VKS_EXIT_OK;
    vks_convert_clips *cc = NULL;
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
    for (uint32_t k = 0; k < nclips; k++) { /* FILE of FILE#name: a path the system can open */
        const char *hash = strrchr(clip_args[k], '#');
        if ((hash ? (size_t)(hash - clip_args[k]) : strlen(clip_args[k])) >= 4096) {
            fprintf(stderr, "vkskin convert: clip path too long\n");
            rc = VKS_EXIT_INPUT;
            goto out;
        }
    }
    /* the library reads, binds and writes; its notes, warnings and failures are printed as said */
    vks_convert_options copt = {.read = ropt, .logger = {vks_log_stderr, NULL}, .limit_hint = "(--max-input-mb N)"};
    copt.read.file.max_size = vks_cli_max_input_bytes;
    if (vks_convert_clips_read(skin, clip_args, nclips, &copt, &cc, &err) != VKS_OK) {
        rc = VKS_EXIT_INPUT;
        goto out;
    }
    vks_result r = vks_convert_write(outp, in, skin, cc, &gopt, &copt, NULL, &err);
    if (r != VKS_OK)
        rc = vks_cli_exit_code(r);
out:
    vks_convert_clips_free(cc);
    vks_skin_free(skin);
    free(co.clips.items);
    return rc;
}
