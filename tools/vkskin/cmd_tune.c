/* vkskin tune [FILE] [--vertices V --bones B --influences K --instances N --repeats P]
 *             [--candidate SPEC ...] [--no-store] [--json] [--device N|NAME] [--validation]
 * The calibration of launch shapes (vks_gpu_tune): times each candidate's deform pass on the
 * device at hand, prints the table of candidates with their rates, and stores the fastest in
 * the cache so later contexts on this device and driver start with it (docs/performance.md: Launch shapes).
 * The run and its report are the library's (vks_gpu_tune, vks_gpu_tune_write_text); this file is
 * the options, the model and the exit codes. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "character.h"
#include "cli.h"
#include "cli_gpu.h"

#define MAX_CANDIDATES VKS_GPU_TUNE_MAX

typedef struct tune_opts {
    vks_gen_params gp;
    uint32_t instances, repeats;
    const char *candidate_specs[MAX_CANDIDATES];
    vks_cli_list candidates; /* --candidate SPEC, into candidate_specs */
    int json, no_store;
    const char *file;
    vks_cli_gpu_opts gopt;
    vks_read_options ropt;
} tune_opts;

_Static_assert(MAX_CANDIDATES == 32, "--candidate's description says how many it takes");
#define AT(field) offsetof(tune_opts, field)
static const vks_cli_option tune_options[] = {
    {"--vertices", 0, "V", vks_cli_store_u32, AT(gp.vertices), 1, 0,
     "the generated character's vertices (default 10000)", NULL},
    {"--bones", 0, "B", vks_cli_store_u32, AT(gp.bones), 1, 0, "its bones (default 32)", NULL},
    {"--influences", 0, "K", vks_cli_store_u32, AT(gp.max_influences), 1, 0, "its influences per vertex (default 4)",
     NULL},
    {"--instances", 0, "N", vks_cli_store_u32, AT(instances), 1, 0,
     "instances deformed per run (default 256; a character of at most 4096 vertices: about 4 M vertex-instances)",
     NULL},
    {"--repeats", 0, "P", vks_cli_store_u32, AT(repeats), 1, 0,
     "timed runs of each candidate after a first one; the median counts (default 3)", NULL},
    {"--candidate", 0, "SPEC", vks_cli_store_list, AT(candidates), 0, 0,
     "a launch shape to time instead of the built-in list (repeatable; up to 32)",
     "SPEC as --launch-shape (docs/performance.md: Launch shapes); the built-in list: the table's shapes and the GPU shapes"},
    {"--no-store", 0, NULL, vks_cli_store_flag, AT(no_store), 0, 0, "only print: keep the cache as it is", NULL},
    {"--json", 0, NULL, vks_cli_store_flag, AT(json), 0, 0, "machine-readable output on stdout", NULL},
};
#undef AT
static const vks_cli_group tune_group = VKS_CLI_GROUP("options", tune_options);
static const vks_cli_group *const tune_groups[] = {&tune_group, &vks_cli_gpu_options, &vks_cli_read_options, NULL};

const vks_cli_command vks_cli_cmd_tune = {
    .name = "tune",
    .summary = "time the launch shapes on this device and keep the fastest",
    .synopsis = "[FILE] [--vertices V] [--bones B] [--influences K] [--instances N] [--repeats P]\n"
                "[--candidate SPEC]... [--no-store] [--json] [--device N|NAME] [--validation]",
    .description =
        "Times the deform pass of each candidate launch shape on the device (timestamp queries, median of P runs "
        "after a first one) on FILE or a generated character with N instances, prints the candidates with their "
        "rates, and stores the fastest in the cache ($XDG_CACHE_HOME/vkskin, else ~/.cache/vkskin), keyed by "
        "device, driver and vkskin version: later runs on this device and driver start with it (bench and devices "
        "--json say so: source \"cache\").\n\nA character of at most 4096 vertices is measured for small models: "
        "more candidates (workgroups that hold its groups whole), about 4 M vertex-instances of it unless --instances "
        "says, and the winner is the shape crowds and runs of small models take, stored apart "
        "(launch-shape-small.txt); the shape of larger ones stays as it was.\n\nOn a device the tuning table does "
        "not know, deform, validate and bench run the same calibration by themselves before a first batch large "
        "enough to repay it (at least 16x the calibration's own vertex-instances and 2^26) and store the winner the "
        "same way; on a GPU, small models are calibrated so even where the table knows the device (its rows were "
        "measured on larger ones). VKSKIN_NO_CALIBRATE=1 turns that off. vkskin devices says which shape a run "
        "starts with.",
    .epilogue = "exit codes: 0 ok, 1 bad input, 2 usage, 4 no Vulkan device, 5 runtime",
    .groups = tune_groups,
    .run = vks_cmd_tune,
};

enum { TUNE_GO_ON = -1 };

static int parse(int argc, char **argv, tune_opts *o)
{
    memset(o, 0, sizeof *o);
    o->gp.vertices = 10000, o->gp.bones = 32, o->gp.max_influences = 4;
    o->instances = 0, o->repeats = 3; /* 0: 256, or vks_gpu_tune's regime for a small model */
    o->candidates = (vks_cli_list){o->candidate_specs, 0, MAX_CANDIDATES};
    int operands = 0;
    int parsed = vks_cli_parse(&vks_cli_cmd_tune, (void *[]){o, &o->gopt, &o->ropt}, argc, argv, &operands, NULL, NULL);
    if (parsed != VKS_CLI_GO_ON)
        return parsed;
    if (operands > 1) {
        fprintf(stderr, "vkskin tune: one model at most ('%s' and '%s')\n", argv[1], argv[2]);
        return VKS_EXIT_USAGE;
    }
    o->file = operands ? argv[1] : NULL;
    if (o->gopt.launch_shape) {
        fprintf(stderr, "vkskin tune: --launch-shape forces one shape; give candidates with --candidate\n");
        return VKS_EXIT_USAGE;
    }
    return TUNE_GO_ON;
}

int vks_cmd_tune(int argc, char **argv)
{
    tune_opts o;
    int rc = parse(argc, argv, &o);
    if (rc != TUNE_GO_ON)
        return rc;
    vks_error err = {0};
    vks_skin *s = o.file ? vks_cli_load_skin(o.file, &o.ropt) : vks_gen_character(&o.gp, &err);
    if (!s) {
        if (!o.file) {
            char msg[512];
            fprintf(stderr, "vkskin tune: %s\n", vks_error_format(&err, NULL, msg, sizeof msg));
            return vks_cli_exit_code(err.code);
        }
        return VKS_EXIT_INPUT;
    }
    vks_gpu *gpu = NULL;
    rc = vks_cli_gpu_open(&o.gopt, &gpu);
    if (rc != VKS_EXIT_OK) {
        vks_skin_free(s);
        return rc;
    }
    /* a small model's default is the library's (about 4 M vertex-instances: gpu.h, vks_gpu_tune) */
    uint32_t instances = o.instances ? o.instances : s->vertex_count <= 4096 ? 0 : 256;
    vks_gpu_tune_options t = {o.candidates.count ? o.candidate_specs : NULL, o.candidates.count, instances, o.repeats,
                              !o.no_store};
    vks_gpu_tune_result r;
    vks_result res = vks_gpu_tune(gpu, s, &t, &r, &err);
    if (res == VKS_OK) /* the report is the library's (devices.h) */
        res = o.json ? vks_gpu_tune_write_json(gpu, s, &t, &r, stdout, &err)
                     : vks_gpu_tune_write_text(gpu, s, &t, &r, stdout, &err);
    if (res == VKS_OK) {
        rc = VKS_EXIT_OK;
    } else {
        char msg[512];
        fprintf(stderr, "vkskin tune: %s\n", vks_error_format(&err, NULL, msg, sizeof msg));
        rc = res == VKS_ERR_INVALID ? VKS_EXIT_USAGE : vks_cli_exit_code(res);
    }
    if (rc == VKS_EXIT_OK && vks_gpu_validation_messages(gpu))
        rc = VKS_EXIT_RUNTIME;
    vks_gpu_destroy(gpu);
    vks_skin_free(s);
    return rc;
}
