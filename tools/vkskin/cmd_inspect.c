/* vkskin inspect FILE [--json] [--allow-bind-mismatch]: the skin model as read (counts,
 * skeleton, meshes, groups with their palettes, influence histogram), the weights as stored
 * with what was repaired, and the bind-pose check. A failed check is a finding, not just a
 * number: FAILED in text and JSON and exit 6 (unless --allow-bind-mismatch), so that scripts
 * notice a model that does not reproduce its own vertices. The report is the library's
 * (inspect.h): this file reads the files, as every command does, and prints what it returns. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

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

/* One file: a clip file's clips, or a model and its checks; its exit code, and *out the
 * inspection (NULL when there is nothing to report). Errors are printed as every command's. */
static int inspect_one(const char *path, const vks_read_options *opt, const vks_inspect_options *io,
                       vks_inspect **out)
{
    /* read once, within --max-input-mb: a pipe cannot be read twice */
    size_t size = 0;
    uint8_t *bytes = vks_cli_read_file(path, &size);
    if (!bytes)
        return VKS_EXIT_INPUT;
    vks_error err = {0};
    vks_result r;
    vks_skin *s = NULL;
    if (vks_inspect_is_clip_file(path, bytes, size, opt, io->model != NULL, io->clips)) {
        r = vks_inspect_clip_bytes(path, bytes, size, io, out, &err);
    } else {
        s = vks_cli_load_skin_bytes(path, bytes, size, opt);
        free(bytes);
        if (!s)
            return VKS_EXIT_INPUT;
        bytes = NULL;
        r = vks_inspect_model(path, s, io, out, &err);
    }
    free(bytes);
    if (r != VKS_OK) {
        char msg[512];
        fprintf(stderr, "vkskin: %s\n", vks_error_format(&err, path, msg, sizeof msg));
        int code = s ? VKS_EXIT_RUNTIME : vks_cli_exit_code(r); /* a model's check that could not run */
        vks_skin_free(s);
        *out = NULL;
        return code;
    }
    return vks_inspect_exit_code(*out);
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
    const char *model = io.model;
    vks_skin *bound_to = model ? vks_cli_load_skin(model, &opt) : NULL;
    if (model && !bound_to)
        return VKS_EXIT_INPUT;
    vks_inspect_options iopt = {.read = opt, .logger = {vks_log_stderr, NULL}, .model = bound_to,
                                .model_name = model, .allow_bind_mismatch = io.allow_mismatch, .clips = io.clips};
    vks_inspect **done = calloc((size_t)nfiles, sizeof *done);
    vks_skin **skins = calloc((size_t)nfiles, sizeof *skins); /* the models read, freed after the report */
    uint32_t n = 0;
    if (!done || !skins) {
        fprintf(stderr, "vkskin: out of memory\n");
        rc = VKS_EXIT_RUNTIME;
        nfiles = 0;
    }
    for (int f = 0; f < nfiles; f++) {
        vks_inspect *in = NULL;
        rc = vks_cli_worse_exit(rc, inspect_one(files[f], &opt, &iopt, &in));
        if (!in)
            continue;
        skins[n] = (vks_skin *)vks_inspect_skin(in); /* read by inspect_one, for the CLI's notes */
        done[n++] = in;
        if (!io.json) { /* printed as it comes, then let go */
            vks_inspect_write_text(in, stdout, NULL);
            vks_inspect_free(done[--n]);
            vks_skin_free(skins[n]);
        }
    }
    if (io.json && done)
        vks_inspect_write_json((const vks_inspect *const *)done, n, nfiles != 1 || n != 1, stdout, NULL);
    for (uint32_t k = 0; k < n; k++) {
        vks_inspect_free(done[k]);
        vks_skin_free(skins[k]);
    }
    free(done);
    free(skins);
    vks_skin_free(bound_to);
    return rc;
}
