/* vkskin bench [--json] [--vertices V --bones B --instances N --influences K] [FILE]
 *              [--device D] [--ref-instances R] [--repeats R] [--end-to-end FILE]
 * One workload through every engine in one process: the CPU reference (double), the fast CPU
 * deformer (float, all cores), and the GPU engines of bench_gpu.c: the context's creation, the
 * project's kernel and the plain baseline kernel (timestamp queries around the pose and deform
 * passes, no readback; first run apart from the steady state, their ratio from interleaved
 * pairs), the end to end into host memory, and with --end-to-end FILE the deform path into a
 * raw file against a plain write to the same disk. Prints vertex-instances per second for
 * each and the ratios between them, the device and the sizes (DESIGN.md section 11).
 * Default workload: a generated 10k-vertex, 32-bone, 4-influence character, 100 instances,
 * procedural poses. */
#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { BENCH_REPEATS = 3 };
#include <unistd.h>

#include "bench_crowd.h"
#include "bench_gpu.h"
#include "character.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
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

/* The error's message on stderr and its exit code. */
static int bench_fail(const vks_error *err)
{
    char msg[512];
    fprintf(stderr, "vkskin bench: %s\n", vks_error_format(err, NULL, msg, sizeof msg));
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
        bench_fail(&err);
    return s;
}

/* The workload every engine runs: the poses of every instance, computed once so all engines
   start from the same locals, and output buffers for one chunk of instances. */
typedef struct bench_work {
    const vks_skin *s;
    uint32_t V, instances;
    vks_affine *locals;
    float *pos, *nrm;
    uint32_t chunk; /* instances per CPU run: outputs of about 64 MiB */
} bench_work;

static int prepare_work(bench_work *w, const vks_skin *s, uint32_t instances)
{
    w->s = s, w->V = s->vertex_count, w->instances = instances;
    w->locals = malloc((size_t)instances * (s->node_count ? s->node_count : 1) * sizeof *w->locals);
    w->chunk = (uint32_t)((64ull << 20) / ((uint64_t)(w->V ? w->V : 1) * 12));
    if (w->chunk < 1)
        w->chunk = 1;
    if (w->chunk > instances)
        w->chunk = instances;
    size_t bytes = (size_t)w->chunk * w->V * 12 + 16;
    w->pos = malloc(bytes), w->nrm = malloc(bytes);
    if (!w->locals || !w->pos || !w->nrm)
        return 0;
    for (uint32_t i = 0; i < instances; i++)
        vks_pose_procedural(s, 1, i, 0.5f, 0.0f, w->locals + (size_t)i * s->node_count);
    /* Touch every output page once, so no engine's time includes the kernel's first-touch
     * page faults (tens of milliseconds for a 64 MiB chunk). */
    memset(w->pos, 0, bytes);
    memset(w->nrm, 0, bytes);
    return 1;
}

/* A CPU engine with its thread count (the reference runs on one). */
typedef vks_result (*cpu_engine)(const vks_deform_job *j, int threads, vks_error *err);
static vks_result reference_engine(const vks_deform_job *j, int threads, vks_error *err)
{
    (void)threads;
    return vks_cpu_reference_run(j, err);
}
static vks_result fast_engine(const vks_deform_job *j, int threads, vks_error *err)
{
    return vks_cpu_fast_run(j, threads, err);
}

/* Vertex-instances per second of a CPU engine over the first `count` instances, chunk by
   chunk: the best of BENCH_REPEATS runs (the least disturbed by the rest of the machine). */
static vks_result time_cpu(const bench_work *w, uint32_t count, cpu_engine engine, int threads, double *rate,
                           vks_error *err)
{
    const vks_skin *s = w->s;
    double best = 1e300;
    for (int rep = 0; rep < BENCH_REPEATS; rep++) {
        double t0 = now_s();
        for (uint32_t f = 0; f < count; f += w->chunk) {
            uint32_t n = count - f < w->chunk ? count - f : w->chunk;
            vks_deform_job j = {s, w->locals + (size_t)f * s->node_count, n, w->pos, w->nrm, NULL};
            vks_result r = engine(&j, threads, err);
            if (r != VKS_OK)
                return r;
        }
        if (now_s() - t0 < best)
            best = now_s() - t0;
    }
    *rate = (double)count * w->V / best;
    return VKS_OK;
}

/* The fast engine's kernels, each timed on one core where this CPU has it. */
static const char *const bench_kernels[3] = {"baseline", "avx2", "avx512"};

/* The figures, for the report. */
typedef struct bench_result {
    uint32_t ref_instances;
    int threads;
    double ref_rate, fast_rate;
    const char *fast_kernel;   /* the fast engine's kernel in use ("avx512", "avx2", "baseline") */
    double per_core[3];        /* fast engine on one thread, per kernel of bench_kernels (0: absent) */
} bench_result;

static void print_json(const bench_work *w, const bench_result *r, const vks_bench_gpu *g)
{
    const vks_skin *s = w->s;
    double kernel = g ? vks_bench_gpu_rate(g, g->kernel.steady_ms) : 0;
    double e2e = g ? vks_bench_gpu_rate(g, g->e2e.steady_ms) : 0;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "device", g ? g->device : "none");
    cJSON_AddStringToObject(o, "device_type", g ? g->device_type : "");
    if (g) {
        vks_cli_queue_json(o, g->queue_family, g->queue_index);
        /* where the readback copies run (the stream's and the staged batch's timed below) and
         * the device-to-host ceiling is measured: a copy engine's queue where there is one */
        cJSON *rq = cJSON_AddObjectToObject(o, "readback_queue");
        cJSON_AddNumberToObject(rq, "family", g->readback_family);
        cJSON_AddNumberToObject(rq, "queue", g->readback_index);
    }
    cJSON_AddNumberToObject(o, "vertices", w->V);
    cJSON_AddNumberToObject(o, "bones", s->bone_count);
    cJSON_AddNumberToObject(o, "groups", s->group_count);
    cJSON_AddNumberToObject(o, "instances", w->instances);
    cJSON_AddNumberToObject(o, "reference_instances", r->ref_instances);
    cJSON_AddNumberToObject(o, "cpu_threads", r->threads);
    cJSON_AddNumberToObject(o, "bytes_written_per_vertex_instance", 24);
    cJSON *v = cJSON_AddObjectToObject(o, "vertex_instances_per_second");
    cJSON_AddNumberToObject(v, "cpu_reference", r->ref_rate);
    cJSON_AddNumberToObject(v, "cpu_fast", r->fast_rate);
    cJSON_AddNumberToObject(v, "gpu_kernel", kernel); /* steady state */
    cJSON_AddNumberToObject(v, "gpu_end_to_end", e2e);
    cJSON_AddStringToObject(o, "cpu_fast_kernel", r->fast_kernel);
    cJSON *pc = cJSON_AddObjectToObject(o, "cpu_fast_per_core");
    for (int k = 0; k < 3; k++)
        if (r->per_core[k] > 0)
            cJSON_AddNumberToObject(pc, bench_kernels[k], r->per_core[k]);
    cJSON *q = cJSON_AddObjectToObject(o, "ratios");
    cJSON_AddNumberToObject(q, "cpu_fast_over_reference", r->fast_rate / r->ref_rate);
    cJSON_AddNumberToObject(q, "gpu_kernel_over_cpu_fast", kernel / r->fast_rate);
    cJSON_AddNumberToObject(q, "gpu_end_to_end_over_cpu_fast", e2e / r->fast_rate);
    cJSON_AddNumberToObject(q, "gpu_end_to_end_over_kernel", kernel > 0 ? e2e / kernel : 0);
    cJSON_AddNumberToObject(q, "gpu_kernel_over_plain_kernel", g ? g->ratio : 0);
    cJSON_AddNumberToObject(o, "gpu_kernel_ms", g ? g->kernel.steady_ms : 0);
    cJSON_AddNumberToObject(o, "gpu_end_to_end_ms", g ? g->e2e.steady_ms : 0);
    cJSON_AddNumberToObject(o, "gpu_chunks", g ? g->chunks : 0);
    if (g)
        vks_bench_gpu_json(o, g);
    char *txt = cJSON_Print(o);
    if (txt)
        printf("%s\n", txt);
    free(txt);
    cJSON_Delete(o);
}

static void print_text(const bench_work *w, const bench_result *r, const vks_bench_gpu *g)
{
    const vks_skin *s = w->s;
    printf("workload: %u vertices, %u bones, %u group(s), %u instances (reference: %u), pos+normal, "
           "24 B written per vertex-instance\n",
           w->V, s->bone_count, s->group_count, w->instances, r->ref_instances);
    printf("device:   %s (%s); CPU threads %d\n", g ? g->device : "none", g ? g->device_type : "", r->threads);
    printf("  cpu reference   %10.3f M vertex-instances/s\n", r->ref_rate / 1e6);
    printf("  cpu fast        %10.3f M vertex-instances/s   x%.2f reference (%s kernel, %d threads)\n",
           r->fast_rate / 1e6, r->fast_rate / r->ref_rate, r->fast_kernel, r->threads);
    for (int k = 0; k < 3; k++)
        if (r->per_core[k] > 0)
            printf("  cpu fast, 1 core%9.3f M vertex-instances/s   (%s kernel)\n", r->per_core[k] / 1e6,
                   bench_kernels[k]);
    if (g) {
        printf("  gpu kernel / cpu fast x%.2f (steady)\n", vks_bench_gpu_rate(g, g->kernel.steady_ms) / r->fast_rate);
        vks_bench_gpu_text(stdout, g);
    }
}

/* Every engine on one workload: the CPU reference on ref_instances (default: enough for
   ~2M vertex-instances, at most N), the fast CPU deformer after a warm-up chunk, then the GPU
   unless --no-gpu; then the report. */
int vks_cmd_bench(int argc, char **argv)
{
    if (vks_cli_mode(argc, argv, "--crowd")) /* the crowd against the per-call path: bench_crowd.c */
        return vks_cmd_bench_crowd(argc, argv);
    bench_opts o;
    int rc = parse_options(argc, argv, &o);
    if (rc != BENCH_GO_ON)
        return rc;
    if (o.e2e_file) { /* the deform output may not be the model it reads (checked before any work) */
        vks_cli_inputs in = {0};
        vks_cli_inputs_add_model(&in, o.file, &o.ropt, "the model");
        rc = vks_cli_refuse_input(&in, "--end-to-end", o.e2e_file);
        vks_cli_inputs_free(&in);
        if (rc != VKS_EXIT_OK)
            return rc;
    }
    vks_skin *s = load_model(&o);
    if (!s)
        return VKS_EXIT_INPUT;
    bench_result r = {0};
    r.ref_instances = o.ref_instances;
    if (!r.ref_instances) {
        uint64_t n = 2000000ull / (s->vertex_count ? s->vertex_count : 1);
        r.ref_instances = n < 1 ? 1 : n > o.instances ? o.instances : (uint32_t)n;
    }
    bench_work w = {0};
    vks_bench_gpu g = {0};
    vks_cli_gpu_opts gopt = o.gopt;
    vks_error err = {0};
    rc = VKS_EXIT_OK;
    if (!prepare_work(&w, s, o.instances)) {
        fprintf(stderr, "vkskin bench: out of memory\n");
        rc = VKS_EXIT_RUNTIME;
        goto out;
    }
    if (time_cpu(&w, r.ref_instances, reference_engine, 1, &r.ref_rate, &err) != VKS_OK) {
        rc = bench_fail(&err);
        goto out;
    }
    r.threads = o.threads ? (int)o.threads : (int)sysconf(_SC_NPROCESSORS_ONLN);
    r.fast_kernel = vks_cpu_fast_path();
    vks_deform_job warm = {s, w.locals, 1, w.pos, w.nrm, NULL};
    vks_cpu_fast_run(&warm, r.threads, &err);
    if (time_cpu(&w, o.instances, fast_engine, r.threads, &r.fast_rate, &err) != VKS_OK) {
        rc = bench_fail(&err);
        goto out;
    }
    /* per core, on every kernel this CPU has, then back to the automatic choice */
    for (int k = 0; k < 3; k++)
        if (vks_cpu_fast_set_path(bench_kernels[k]) &&
            time_cpu(&w, r.ref_instances, fast_engine, 1, &r.per_core[k], &err) != VKS_OK) {
            rc = bench_fail(&err);
            goto out;
        }
    vks_cpu_fast_set_path(r.fast_kernel);
    g.skin = s, g.locals = w.locals, g.instances = o.instances, g.repeats = o.repeats;
    g.consumer_threads = (uint32_t)r.threads;
    g.gopt = &gopt, g.file = o.e2e_file;
    if (!o.no_gpu && (rc = vks_bench_gpu_run(&g)) != VKS_EXIT_OK)
        goto out;
    if (o.json)
        print_json(&w, &r, o.no_gpu ? NULL : &g);
    else
        print_text(&w, &r, o.no_gpu ? NULL : &g);
out:
    vks_bench_gpu_free(&g);
    free(w.locals), free(w.pos), free(w.nrm);
    vks_skin_free(s);
    return rc;
}
