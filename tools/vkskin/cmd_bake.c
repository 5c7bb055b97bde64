/* vkskin bake MANIFEST.json: bakes every job of a manifest (docs/baking.md "Batch baking") into VAT
 * textures, bone-matrix atlases and caches, each with a sidecar. Jobs whose sidecars say they
 * are up to date are skipped, so a bake killed halfway finishes where it stopped; --shard I/N
 * takes one share of the jobs for a job array (tools/slurm/bake.sbatch).
 * The engine is the library's (bake_job.h): this parses the command line into the run's options
 * (their defaults the library's), opens the devices it names, calls vks_bake_run, has the library
 * write the summary and the report, and turns the jobs' failures into the exit code. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

#include "bake_cli.h"
#include "cli_gpu.h"
#include "cli_shares.h"


#define SHARD_MAX 100000u

/* Digits only: strtoul alone would take " 0", "+0" and "-0" (which it wraps to 0) too. */
static int parse_shard_number(const char *text, const char **end, unsigned long *out)
{
    if (*text < '0' || *text > '9')
        return 0;
    char *e = NULL;
    errno = 0;
    *out = strtoul(text, &e, 10);
    *end = e;
    return errno == 0;
}

static int parse_shard(const char *text, uint32_t *i, uint32_t *n)
{
    const char *end = NULL;
    unsigned long a, b;
    if (!parse_shard_number(text, &end, &a) || *end != '/')
        return 0;
    if (!parse_shard_number(end + 1, &end, &b) || *end || b < 1 || b > SHARD_MAX || a >= b)
        return 0;
    *i = (uint32_t)a;
    *n = (uint32_t)b;
    return 1;
}

/* What vkskin bake's command line says: most of it the library's run options themselves, their
 * defaults the library's (vks_bake_options_init). */
typedef struct bake_args {
    const char *manifest, *report, *merge;
    int check;
    vks_bake_options o;
    vks_cli_gpu_opts gopt;
} bake_args;

static int set_shard(void *field, const vks_cli_option *o, const char *v)
{
    (void)o;
    bake_args *b = field;
    if (!parse_shard(v, &b->o.shard_index, &b->o.shard_count)) {
        fprintf(stderr, "vkskin: --shard %s: expected I/N in digits with 0 <= I < N <= %u\n", v, SHARD_MAX);
        return 0;
    }
    return 1;
}

static int set_max_memory(void *field, const vks_cli_option *o, const char *v)
{
    uint32_t mb = 0;
    if (!vks_cli_store_u32(&mb, o, v))
        return 0;
    *(uint64_t *)field = (uint64_t)mb << 20;
    return 1;
}

static int set_engine(void *field, const vks_cli_option *o, const char *v)
{
    (void)v;
    *(vks_bake_engine *)field = o->lo ? VKS_BAKE_CPU_FAST : VKS_BAKE_CPU;
    return 1;
}

#define AT(field) offsetof(bake_args, field)
static const vks_cli_option bake_options[] = {
    {"--out", 0, "DIR", vks_cli_store_string, AT(o.out_dir), 0, 0,
     "where outputs go (default: the manifest's \"out\", else \"bake\" beside it)", NULL},
    {"--shard", 0, "I/N", set_shard, 0, 0, 0, "bake only share I (0-based) of N, balanced by vertices x frames", NULL},
    {"--force", 0, NULL, vks_cli_store_flag, AT(o.force), 0, 0,
     "redo outputs even when their sidecar says they are up to date", NULL},
    {"--jobs", 0, "N", vks_cli_store_u32, AT(o.jobs_in_flight), 1, 256,
     "jobs in flight at once (default 1, and at least one per device)",
     "each reads its jobs and deforms them (GPU: in groups), then hands them to the threads below and reads the "
     "next group while they are written"},
    {"--threads", 0, "N", vks_cli_store_u32, AT(o.threads), 1, 256,
     "threads that encode and write outputs, shared by every job in flight (default: one per core)",
     "each takes one output kind of one job at a time, the costliest first, and idle ones help write a VAT kind's "
     "textures and read the next group's jobs. The same bytes whatever N"},
    {"--cpu", 0, NULL, set_engine, AT(o.engine), 0, 0, "the CPU reference engine (double)", NULL},
    {"--cpu-fast", 0, NULL, set_engine, AT(o.engine), 1, 0, "the fast CPU engine", NULL},
    {"--report", 0, "FILE", vks_cli_store_string, AT(report), 0, 0, "a JSON report: per job its outputs, times and bytes",
     NULL},
    {"--contact-sheet", 0, NULL, vks_cli_store_flag, AT(o.contact_sheet), 0, 0,
     "a PNG per baked clip, its frames in a grid (GPU renderer)", NULL},
    {"--split", 0, NULL, vks_cli_store_flag, AT(o.split), 0, 0,
     "a VAT taller than its job's max_height is spread over several textures instead of refused",
     "NAME.vat.pos.f32_part0.exr, _part1, ...; the sidecar says which frames each holds; as \"split\": true"},
    {"--max-memory-mb", 0, "N", set_max_memory, AT(o.max_memory_bytes), 1, 1u << 24,
     "a job that would need more than N MB is refused before it is deformed (exit 5; default 4096)",
     "a job holds all its frames in memory; each job in flight holds a group being written, jobs whose frames fit "
     "64 MB or one larger job, while it deforms the next. Split its clips or lower its fps or range"},
    {"--check", 0, NULL, vks_cli_store_flag, AT(check), 0, 0,
     "bake nothing: exit 1 unless every output of every job is up to date",
     "the merge step after a sharded bake"},
    {"--merge", 0, "DIR", vks_cli_store_string, AT(merge), 0, 0,
     "with --check: the shards' reports in DIR become one --report", NULL},
    VKS_CLI_QUIET_OPTION,
};
#undef AT
static const vks_cli_group bake_group = VKS_CLI_GROUP("options", bake_options);
static const vks_cli_group *const bake_groups[] = {&bake_group, &vks_cli_gpu_options, NULL};

const vks_cli_command vks_cli_cmd_bake = {
    .name = "bake",
    .summary = "bake a manifest of characters and clips into VAT textures, bone atlases and caches",
    .synopsis = "MANIFEST.json [--out DIR] [--shard I/N] [--force] [--jobs N] [--threads N]\n"
                "[--cpu | --cpu-fast] [--report FILE.json] [--contact-sheet]\n"
                "[--max-memory-mb N] [--split] [--quiet]\n\n"
                "MANIFEST.json --check [--merge DIR] [--out DIR] [--report FILE.json]",
    .description =
        "Bakes every job of the manifest (docs/baking.md \"Batch baking\" has the schema): each clip's frames deformed on "
        "the GPU (one crowd instance per frame, all frames of a job in one submission) or on a CPU engine, written as "
        "VAT textures (OpenEXR float or half, 16-bit PNG) with the rest mesh, bone-matrix atlases (OpenEXR), PC2 and "
        "raw caches; each output kind with a JSON sidecar naming its clips, frames, rows, bounds and encoding. "
        "--device all or N,M,... uses several devices, one context each: the jobs are split between them (a job in "
        "flight per device at least, each device dealt one of the first jobs, groups of at most jobs/devices); the "
        "same bytes as one device.",
    .epilogue = "Outputs are written to a temporary name and renamed; a sidecar is written after its files, so a re-run "
                "skips what is complete (same manifest entry and vkskin version) and redoes the rest. Over a long bake "
                "a progress line on stderr every 2 s (a bar on a terminal; --quiet: none), then the summary.\n\nexit "
                "codes: 0 ok, 1 bad manifest or input, 2 usage, 4 no Vulkan device, 5 runtime failure",
    .groups = bake_groups,
    .run = vks_cmd_bake,
};

/* Fills b from argv; returns -1 to go on, else the exit code (--help, a usage error). */
static int parse_args(bake_args *b, int argc, char **argv)
{
    int operands = 0;
    int parsed = vks_cli_parse(&vks_cli_cmd_bake, (void *[]){b, &b->gopt}, argc, argv, &operands, NULL, NULL);
    if (parsed != VKS_CLI_GO_ON)
        return parsed;
    if (operands > 1) {
        fprintf(stderr, "vkskin: bake takes one manifest (%s and %s given)\n", argv[1], argv[2]);
        return VKS_EXIT_USAGE;
    }
    b->manifest = operands ? argv[1] : NULL;
    if (!b->manifest) {
        vks_cli_help(stderr, &vks_cli_cmd_bake);
        return VKS_EXIT_USAGE;
    }
    if (b->merge && !b->check) {
        fprintf(stderr, "vkskin: --merge goes with --check (the merge step after a sharded bake)\n");
        return VKS_EXIT_USAGE;
    }
    if (b->o.contact_sheet && b->o.engine != VKS_BAKE_GPU) {
        fprintf(stderr, "vkskin: --contact-sheet draws with the GPU renderer: not with --cpu or --cpu-fast\n");
        return VKS_EXIT_USAGE;
    }
    vks_bake_reuse_memory(); /* a bake to run: before any thread (the GPU's, the pool's) starts */
    return -1;
}

/* The devices of --device, opened by the library's run on a thread of its own while the first
 * jobs are read (vks_bake_options.open_device). */
typedef struct device_list {
    vks_cli_gpu_opts gopt;
    char ids[VKS_CLI_MAX_DEVICES][16];
    const char *single;
    int count;
} device_list;

static int open_listed_device(void *user, uint32_t d, int render, vks_gpu **gpu)
{
    device_list *dl = user;
    vks_cli_gpu_opts g = dl->gopt;
    g.render |= render;
    g.device = dl->count > 1 ? dl->ids[d] : dl->single;
    return vks_cli_gpu_open(&g, gpu);
}

/* The program's part of the run's options: its input limit, its logger, its progress line and
 * the devices of --device. */
static void host_options(vks_bake_options *o, device_list *dl, vks_cli_bake_progress *pr)
{
    o->max_input_bytes = vks_cli_max_input_bytes;
    o->logger.func = vks_log_stderr;
    o->progress = vks_cli_bake_progress_update;
    o->progress_user = pr;
    o->open_device = open_listed_device;
    o->device_user = dl;
}

/* --check [--merge DIR]: exit 1 unless every output is up to date; the shards' reports merged. */
static int check_outputs(const vks_bake_manifest *m, const vks_bake_options *o, const char *merge, const char *report)
{
    uint32_t missing = 0;
    vks_error err = {0};
    vks_result r = vks_bake_check_outputs(m, o, merge, report, &missing, &err);
    if (missing == UINT32_MAX) /* the folder could not be made (said) */
        return VKS_EXIT_RUNTIME;
    fprintf(stderr, "bake --check: %u jobs, %u outputs missing or out of date\n", m->job_count, missing);
    int rc = missing ? VKS_EXIT_INPUT : VKS_EXIT_OK;
    if (r != VKS_OK) { /* the report could not be written */
        char msg[512];
        fprintf(stderr, "vkskin: --report: %s\n", vks_error_format(&err, err.path[0] ? NULL : report, msg, sizeof msg));
        rc = vks_cli_worse_exit(rc, VKS_EXIT_RUNTIME);
    }
    return rc;
}

/* What the run's jobs end the program with: the worst of their failures, 5 when the validation
 * layer said anything; the summary and the devices' shares printed; the report written. */
static int after_run(const bake_args *a, const vks_bake_manifest *m, const vks_bake_options *o,
                     const vks_bake_summary *sum)
{
    int rc = VKS_EXIT_OK;
    for (uint32_t j = 0; j < vks_bake_manifest_job_count(m); j++) {
        vks_bake_job_info info;
        vks_bake_job_get(m, j, &info);
        if (info.mine && info.status == VKS_BAKE_JOB_FAILED)
            rc = vks_cli_worse_exit(rc, vks_cli_exit_code(info.failure));
    }
    vks_cli_shares shares;
    vks_cli_shares_begin(&shares, (int)sum->device_count, "jobs", "groups");
    for (int d = 0; d < shares.contexts; d++)
        vks_cli_shares_set(&shares, d, sum->devices[d].device, sum->devices[d].jobs, sum->devices[d].groups,
                           sum->devices[d].busy_seconds);
    if (sum->validation_messages) {
        fprintf(stderr, "vkskin: the validation layer reported %u messages\n", sum->validation_messages);
        rc = VKS_EXIT_RUNTIME;
    }
    vks_bake_summary_print(stderr, m, sum);
    vks_cli_shares_print(&shares, "bake"); /* what each device of a split took */
    vks_error err = {0};
    if (a->report && vks_bake_report_write(a->report, m, o, sum, &err) != VKS_OK) {
        char msg[512];
        fprintf(stderr, "vkskin: --report: %s\n", vks_error_format(&err, err.path[0] ? NULL : a->report, msg, sizeof msg));
        rc = vks_cli_worse_exit(rc, VKS_EXIT_RUNTIME);
    }
    return rc;
}

/* The manifest's jobs baked (or checked) into dir. */
static int bake(const bake_args *a, vks_bake_manifest *m, const char *dir)
{
    const vks_bake_options *o = &a->o;
    if (a->check)
        return check_outputs(m, o, a->merge, a->report);
    vks_bake_summary sum;
    vks_error err = {0};
    vks_result r = vks_bake_run(m, o, &sum, &err);
    if (r == VKS_ERR_NO_DEVICE && sum.open_failure) /* said by the opener; nothing was written */
        return sum.open_failure;
    if (r != VKS_OK)
        return vks_cli_exit_code(r);
    return after_run(a, m, o, &sum);
}

int vks_cmd_bake(int argc, char **argv)
{
    bake_args args = {0};
    vks_bake_options *o = &args.o;
    vks_bake_options_init(o);
    int parsed = parse_args(&args, argc, argv);
    if (parsed >= 0)
        return parsed;
    device_list dl = {.gopt = args.gopt};
    vks_cli_bake_progress progress = {0};
    host_options(o, &dl, &progress);
    vks_bake_manifest *m = NULL;
    vks_error err = {0};
    vks_result r = vks_bake_manifest_read(&m, args.manifest, o, &err);
    if (r != VKS_OK) /* said; a contact sheet with a CPU engine is a usage error */
        return r == VKS_ERR_INVALID ? VKS_EXIT_USAGE : VKS_EXIT_INPUT;
    char *dir = vks_bake_output_dir(m, o->out_dir);
    int rc = vks_cli_output_exit(vks_bake_refuse_inputs(m, o, args.report, args.merge, args.check, &err));
    if (rc == VKS_EXIT_OK && !args.check && o->engine == VKS_BAKE_GPU)
        rc = vks_cli_gpu_devices(args.gopt.device, dl.ids, &dl.single, &dl.count);
    if (rc == VKS_EXIT_OK) {
        o->device_count = (uint32_t)(dl.count > 0 ? dl.count : 1);
        o->out_dir = dir;
        rc = bake(&args, m, dir ? dir : "bake");
    }
    free(dir);
    vks_bake_manifest_free(m);
    return rc;
}
