/* vkskin bench --crowd [--json] [--vertices V] [--bones B] [--instances N] [--frames F]
 *                      [--device N|NAME] [--validation]
 * A crowd frame with persistent resources against the per-call path, then the clip and layer
 * workloads, measured by the library (bench.h: vks_bench_crowd_run, src/bench/crowd.c) on a
 * generated character (default 10k vertices, 32 bones, 4 influences) playing the generator's
 * walk and wave, N instances (1000), F frames (100). This file parses the options, makes the
 * character and its clips, opens the context and makes the one call; the text
 * (vks_bench_crowd_write_text) and the JSON are the library's (DESIGN.md section 11). */
#include "bench_crowd.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "character.h"
#include "character_clips.h"
#include "cli_gpu.h"
#include "vkskin/bench.h"

/* What bench --crowd's command line says. */
typedef struct crowd_opts {
    vks_gen_params gp;
    uint32_t instances, frames;
    int json, crowd;
} crowd_opts;

#define AT(field) offsetof(crowd_opts, field)
static const vks_cli_option crowd_options[] = {
    {"--crowd", 0, NULL, vks_cli_store_flag, AT(crowd), 0, 0,
     "this benchmark: a persistent crowd against the per-call path", NULL},
    {"--json", 0, NULL, vks_cli_store_flag, AT(json), 0, 0, "machine-readable output on stdout", NULL},
    {"--vertices", 0, "V", vks_cli_store_u32, AT(gp.vertices), 1, 0,
     "the generated character's vertices (default 10000)", NULL},
    {"--bones", 0, "B", vks_cli_store_u32, AT(gp.bones), 1, 0, "its bones (default 32)", NULL},
    {"--instances", 0, "N", vks_cli_store_u32, AT(instances), 1, 0, "the crowd's instances (default 1000)", NULL},
    {"--frames", 0, "F", vks_cli_store_u32, AT(frames), 1, 0, "frames timed (default 100)", NULL},
};
#undef AT
static const vks_cli_group crowd_group = VKS_CLI_GROUP("options", crowd_options);
static const vks_cli_group *const crowd_groups[] = {&crowd_group, &vks_cli_gpu_options, NULL};

const vks_cli_command vks_cli_cmd_bench_crowd = {
    .name = "bench --crowd",
    .summary = "time a persistent crowd's frames against the per-call path",
    .synopsis = "[--json] [--vertices V] [--bones B] [--instances N] [--frames F] [--device N|NAME] [--validation]",
    .description =
        "Time per frame of a persistent crowd (buffers, descriptor sets and command buffer made once, procedural "
        "poses evaluated on the GPU) against the per-call path (vks_gpu_run, kernel only, the context's kept "
        "buffers, locals uploaded), on N instances of a generated character (4 influences) over F frames. The two "
        "paths alternate frame by frame after one warm-up frame each; the steady state is the mean over F frames. "
        "Then the clip workload: the crowd playing clips sampled in the pose pass against the same crowd posed by "
        "the host.",
    .epilogue = "exit codes: 0 ok, 2 usage, 4 no Vulkan device, 5 runtime",
    .groups = crowd_groups,
};

/* The character and its walk and wave, the context, the library's run, the report. */
static int run_crowd(const crowd_opts *co, const vks_cli_gpu_opts *gopt)
{
    vks_error err = {0};
    char msg[512];
    vks_gen_params gp = co->gp;
    vks_skin *s = vks_gen_character(&gp, &err);
    if (!s) {
        fprintf(stderr, "vkskin bench: %s\n", vks_error_format(&err, NULL, msg, sizeof msg));
        return VKS_EXIT_INPUT;
    }
    vks_clip_set *set = NULL;
    vks_gpu *gpu = NULL;
    vks_bench_crowd_result *b = malloc(sizeof *b);
    int rc = b ? vks_cli_gpu_open(gopt, &gpu) : VKS_EXIT_RUNTIME;
    vks_bench_crowd_options opt = {co->instances, co->frames, {NULL, NULL}};
    vks_result r = rc != VKS_EXIT_OK ? VKS_OK : vks_gen_clips(s, &set, &err);
    if (rc == VKS_EXIT_OK && r == VKS_OK) {
        opt.clips[0] = &set->clips[0], opt.clips[1] = &set->clips[1];
        r = vks_bench_crowd_run(gpu, s, &opt, b, &err);
    }
    if (rc == VKS_EXIT_OK && r == VKS_OK) /* the report, text or JSON, is the library's */
        r = co->json ? vks_bench_crowd_write_json(b, stdout, &err) : vks_bench_crowd_write_text(b, stdout, &err);
    if (!b)
        fprintf(stderr, "vkskin bench: out of memory\n");
    if (r != VKS_OK) {
        fprintf(stderr, "vkskin bench: %s\n", vks_error_format(&err, NULL, msg, sizeof msg));
        rc = vks_cli_exit_code(err.code);
    }
    vks_clip_set_free(set);
    vks_gpu_destroy(gpu);
    vks_skin_free(s);
    free(b);
    return rc;
}

int vks_cmd_bench_crowd(int argc, char **argv)
{
    crowd_opts co = {0};
    co.gp.vertices = 10000, co.gp.bones = 32, co.gp.max_influences = 4;
    co.frames = 100, co.instances = 1000;
    vks_cli_gpu_opts gopt = {0};
    int operands = 0;
    int parsed = vks_cli_parse(&vks_cli_cmd_bench_crowd, (void *[]){&co, &gopt}, argc, argv, &operands, NULL, NULL);
    if (parsed != VKS_CLI_GO_ON)
        return parsed;
    if (operands) {
        fprintf(stderr, "vkskin bench --crowd: generates its character: no FILE ('%s')\n", argv[1]);
        return VKS_EXIT_USAGE;
    }
    return run_crowd(&co, &gopt);
}
