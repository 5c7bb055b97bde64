/* vkskin bench [--json] [--vertices V --bones B --instances N --influences K] [FILE]
 *              [--device D] [--ref-instances R] [--repeats R] [--end-to-end FILE]
 * One workload through every engine in one process, measured by the library (bench.h,
 * src/bench): the CPU reference (double), the fast CPU deformer (all cores, then each kernel on
 * one core), the GPU's context, kernels, end to end and with --end-to-end FILE the deform path
 * into a raw file against a plain write to the same disk. This file parses the options, opens
 * the context (timed: the report's context creation) and makes the one call; the text
 * (vks_bench_write_text) and the JSON are the library's (DESIGN.md section 11).
 * Default workload: a generated 10k-vertex, 32-bone, 4-influence character, 100 instances,
 * procedural poses. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_crowd.h"
#include "character.h"
#include "cli_gpu.h"
#include "vkskin/bench.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* What the command line asked for. */
typedef struct bench_opts {
    vks_gen_params gp;
    uint32_t instances, ref_instances; /* ref_instances 0: chosen from the workload */
    uint32_t threads;                  /* --threads: the fast CPU engine's threads (0: all cores) */
    uint32_t repeats;                  /* --repeats: steady runs of each GPU engine */
    int json, no_gpu;
    const char *file, *e2e_file;
    vks_cli_gpu_opts gopt;
    vks_read_options ropt;
} bench_opts;

#define AT(field) offsetof(bench_opts, field)
static const vks_cli_option bench_options[] = {
    {"--json", 0, NULL, vks_cli_store_flag, AT(json), 0, 0, "machine-readable output on stdout", NULL},
    {"--vertices", 0, "V", vks_cli_store_u32, AT(gp.vertices), 1, 0,
     "the generated character's vertices (default 10000)", NULL},
    {"--bones", 0, "B", vks_cli_store_u32, AT(gp.bones), 1, 0, "its bones (default 32)", NULL},
    {"--influences", 0, "K", vks_cli_store_u32, AT(gp.max_influences), 1, 0, "its influences per vertex (default 4)",
     NULL},
    {"--instances", 0, "N", vks_cli_store_u32, AT(instances), 1, 0, "instances, posed procedurally (default 100)",
     NULL},
    {"--ref-instances", 0, "R", vks_cli_store_u32, AT(ref_instances), 1, 0,
     "instances the CPU reference runs (default: enough for ~2M vertex-instances, at most N)", NULL},
    {"--threads", 0, "T", vks_cli_store_u32, AT(threads), 1, 0,
     "threads of the fast CPU deformer (default: every core)", NULL},
    {"--repeats", 0, "P", vks_cli_store_u32, AT(repeats), 1, 0, "steady runs of each GPU engine (default 5)", NULL},
    {"--no-gpu", 0, NULL, vks_cli_store_flag, AT(no_gpu), 0, 0, "the CPU engines only", NULL},
    {"--end-to-end", 0, "OUT", vks_cli_store_string, AT(e2e_file), 0, 0,
     "also write the deform output to OUT as deform --gpu --format raw does, against a plain write to OUT",
     "temporary and rename, fdatasync'd, against a plain write of as many bytes with fdatasync (the disk) and the "
     "kernel, in P rounds of the three (the ratio to the slower of kernel and disk is taken of their medians); OUT "
     "is left holding the raw output"},
    {"--crowd", 0, NULL, vks_cli_store_flag, 0, 0, 0,
     "a persistent crowd against the per-call path instead (vkskin bench --crowd --help)", NULL},
};
#undef AT
static const vks_cli_group bench_group = VKS_CLI_GROUP("options", bench_options);
static const vks_cli_group *const bench_groups[] = {&bench_group, &vks_cli_gpu_options, &vks_cli_read_options, NULL};

const vks_cli_command vks_cli_cmd_bench = {
    .name = "bench",
    .summary = "measure vertex-instances per second for every engine",
    .synopsis = "[--json] [--vertices V] [--bones B] [--influences K] [--instances N] [--ref-instances R]\n"
                "[--threads T] [--repeats P] [--device N|NAME] [--no-gpu] [--end-to-end OUT] [--launch-shape SPEC]\n"
                "[FILE]",
    .description =
        "Measures vertex-instances per second (position + normal) of the CPU reference, the fast CPU deformer and "
        "the GPU engines, on one workload: FILE, or a generated character, N instances with procedural poses. The "
        "CPU reference runs R instances. The CPU engines run 3 times after a warm-up; the best run counts. The fast "
        "CPU deformer runs on T threads, then on one thread with each kernel this CPU has (baseline; AVX2+FMA; "
        "AVX-512): the per-core figures.\n\nGPU: the launch shape that ran is printed with why (the device's table "
        "row, a shape measured before (cache), calibrated at first use in this run (its first run's time includes "
        "it), or forced by --launch-shape SPEC / VKSKIN_LAUNCH_SHAPE; docs/performance.md: Launch shapes). The context's "
        "creation and the model's upload are timed; the project's kernel and the plain baseline kernel (one "
        "invocation per vertex-instance) run once each (the first run: buffers made and touched, shaders "
        "compiled), then P times each, alternating, and the kernel / plain ratio is the median of the pairs' "
        "deform-pass times; the steady figures are medians. Kernel figures come from timestamp queries around the "
        "pose and deform passes (on lavapipe they include the driver's per-pass synchronisation). The end to end "
        "reads every chunk back to the host, where T threads consume it in place.\n\nFILE takes the read options of inspect (P3D options, "
        "--max-input-mb N). V, B, K, N, R, T and P must be at least 1.",
    .epilogue = "exit codes: 0 ok, 1 bad input, 2 usage, 4 no Vulkan device, 5 runtime",
    .groups = bench_groups,
    .run = vks_cmd_bench,
};

enum { BENCH_GO_ON = -1 };

/* Parses the options into o; BENCH_GO_ON, or the exit code to stop with (--help, usage). */
static int parse_options(int argc, char **argv, bench_opts *o)
{
    memset(o, 0, sizeof *o);
    o->gp.vertices = 10000, o->gp.bones = 32, o->gp.max_influences = 4;
    o->instances = 100;
    o->repeats = 5;
    int operands = 0;
    int parsed = vks_cli_parse(&vks_cli_cmd_bench, (void *[]){o, &o->gopt, &o->ropt}, argc, argv, &operands, NULL, NULL);
    if (parsed != VKS_CLI_GO_ON)
        return parsed;
    if (operands > 1) {
        fprintf(stderr, "vkskin bench: one model at most ('%s' and '%s')\n", argv[1], argv[2]);
        return VKS_EXIT_USAGE;
    }
    o->file = operands ? argv[1] : NULL;
    return BENCH_GO_ON;
}

/* The error's message on stderr (after what failed, where a step did) and its exit code. */
static int bench_fail(const char *step, const vks_error *err)
{
    char msg[512];
    if (strcmp(step, "end to end file") == 0)
        step = "--end-to-end"; /* the option that asked for it */
    fprintf(stderr, "vkskin bench: %s%s%s\n", step, *step ? ": " : "", vks_error_format(err, NULL, msg, sizeof msg));
    return vks_cli_exit_code(err->code);
}

/* The model: FILE, or a generated character. NULL after a message. */
static vks_skin *load_model(const bench_opts *o)
{
    if (o->file)
        return vks_cli_load_skin(o->file, &o->ropt);
    vks_error err = {0};
    vks_skin *s = vks_gen_character(&o->gp, &err);
    if (!s)
        bench_fail("", &err);
    return s;
}

/* The deform output may not be the model it reads (checked before any work). */
static int refuse_e2e_input(const bench_opts *o)
{
    vks_output_inputs in = {0};
    vks_cli_inputs_add_model(&in, o->file, &o->ropt, "the model");
    int rc = vks_cli_refuse_input(&in, "--end-to-end", o->e2e_file);
    vks_output_inputs_free(&in);
    return rc;
}

/* Every engine on one workload through the library (bench.h): the context opened here (its
 * creation timed for the report) unless --no-gpu, then one vks_bench_run, then the report. */
int vks_cmd_bench(int argc, char **argv)
{
    if (vks_cli_mode(argc, argv, "--crowd")) /* the crowd against the per-call path: bench_crowd.c */
        return vks_cmd_bench_crowd(argc, argv);
    bench_opts o;
    int rc = parse_options(argc, argv, &o);
    if (rc != BENCH_GO_ON)
        return rc;
    if (o.e2e_file && (rc = refuse_e2e_input(&o)) != VKS_EXIT_OK)
        return rc;
    vks_skin *s = load_model(&o);
    if (!s)
        return VKS_EXIT_INPUT;
    vks_bench_options opt;
    vks_bench_options_init(&opt);
    opt.instances = o.instances, opt.ref_instances = o.ref_instances, opt.threads = o.threads;
    opt.repeats = o.repeats, opt.max_chunk_bytes = o.gopt.max_chunk_bytes;
    opt.end_to_end_file = o.e2e_file; /* the deform path: the library's, as deform --gpu runs it */
    vks_gpu *gpu = NULL;
    double t0 = now_ms();
    rc = VKS_EXIT_OK;
    if (!o.no_gpu && (rc = vks_cli_gpu_open(&o.gopt, &gpu)) != VKS_EXIT_OK) {
        vks_skin_free(s);
        return rc;
    }
    opt.context_ms = now_ms() - t0;
    vks_bench_result *res = malloc(sizeof *res); /* large: the device's strings */
    vks_error err = {0};
    if (!res)
        rc = (fprintf(stderr, "vkskin bench: out of memory\n"), VKS_EXIT_RUNTIME);
    else if (vks_bench_run(gpu, s, &opt, res, &err) != VKS_OK)
        rc = bench_fail(res->failed_step, &err);
    else if (o.json)
        rc = vks_bench_write_json(res, stdout, &err) == VKS_OK ? VKS_EXIT_OK : bench_fail("", &err);
    else /* the text is the library's too */
        rc = vks_bench_write_text(res, stdout, &err) == VKS_OK ? VKS_EXIT_OK : bench_fail("", &err);
    free(res);
    vks_gpu_destroy(gpu);
    vks_skin_free(s);
    return rc;
}
