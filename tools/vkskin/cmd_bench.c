/* vkskin bench [--json] [--vertices V --bones B --instances N --influences K] [FILE]
 *              [--device D] [--ref-instances R]
 * One workload through every engine in one process: the CPU reference (double), the fast CPU
 * deformer (float, all cores), the GPU kernel alone (timestamp queries around the pose and
 * deform passes, no readback) and the GPU end to end (locals upload, dispatch, readback of
 * positions and normals into host memory). Prints vertex-instances per second for each and
 * the ratios between them, the device and the sizes (DESIGN.md section 11).
 * Default workload: a generated 10k-vertex, 32-bone, 4-influence character, 100 instances,
 * procedural poses. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { BENCH_REPEATS = 3 };
#include <unistd.h>

#include "bench_crowd.h"
#include "character.h"
#include "cli_gpu.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void help(FILE *f)
{
    fprintf(f, "usage: vkskin bench [--json] [--vertices V] [--bones B] [--influences K] [--instances N]\n"
               "                    [--ref-instances R] [--device N|NAME] [--no-gpu] [FILE]\n\n"
               "Measures vertex-instances per second (position + normal) of the CPU reference, the fast\n"
               "CPU deformer, the GPU kernel alone and the GPU end to end, on one workload: FILE, or a\n"
               "generated character (default 10000 vertices, 32 bones, 4 influences), N instances\n"
               "(default 100) with procedural poses. The CPU reference runs R instances (default: enough\n"
               "for ~2M vertex-instances, at most N). Each engine runs 3 times after a warm-up; the best\n"
               "run counts. The GPU kernel figure comes from timestamp queries around the pose and deform\n"
               "passes; on lavapipe those include the driver's per-pass synchronisation, so end to end can\n"
               "come out faster than the kernel there. FILE takes the read options of inspect (P3D\n"
               "options, --max-input-mb N). V, B, K, N and R must be at least 1. --crowd: a persistent crowd\n"
               "against the per-call path instead (vkskin bench --crowd --help).\n"
               "exit codes: 0 ok, 1 bad input, 2 usage, 5 runtime\n");
}

typedef struct sink {
    float *buf;
    size_t cap;
    uint32_t vertices;
} sink;

/* End to end means the outputs reach memory the caller owns: copy each delivered range. */
static int consume(void *user, uint32_t entry, uint32_t first, uint32_t count, const float *p, const float *n)
{
    sink *s = user;
    (void)entry, (void)first;
    size_t bytes = (size_t)count * s->vertices * 12;
    if (bytes > s->cap) {
        float *b = realloc(s->buf, bytes);
        if (!b)
            return 1;
        s->buf = b, s->cap = bytes;
    }
    memcpy(s->buf, p, bytes);
    if (n)
        memcpy(s->buf, n, bytes);
    return 0;
}

int vks_cmd_bench(int argc, char **argv)
{
    if (vks_bench_crowd_wanted(argc, argv)) /* the crowd against the per-call path: bench_crowd.c */
        return vks_cmd_bench_crowd(argc, argv);
    vks_gen_params gp = {0};
    gp.vertices = 10000, gp.bones = 32, gp.max_influences = 4;
    uint32_t instances = 100, ref_instances = 0;
    int json = 0, no_gpu = 0, rc = VKS_EXIT_OK;
    const char *file = NULL;
    vks_cli_gpu_opts gopt = {0};
    vks_read_options ropt = {0};
    char *cfg = NULL; /* stays NULL: vks_cli_load_skin reads --model-cfg itself */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int t;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            help(stdout);
            return VKS_EXIT_OK;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (!strcmp(a, "--no-gpu")) {
            no_gpu = 1;
        } else if (i + 1 < argc && (!strcmp(a, "--vertices") || !strcmp(a, "--bones") || !strcmp(a, "--instances") ||
                                    !strcmp(a, "--influences") || !strcmp(a, "--ref-instances"))) {
            uint32_t v;
            if (!vks_cli_parse_u32(a, argv[++i], &v))
                return VKS_EXIT_USAGE;
            if (v == 0) { /* zero would silently mean the generator's default */
                fprintf(stderr, "vkskin bench: %s must be at least 1\n", a);
                return VKS_EXIT_USAGE;
            }
            if (!strcmp(a, "--vertices"))
                gp.vertices = v;
            else if (!strcmp(a, "--bones"))
                gp.bones = v;
            else if (!strcmp(a, "--instances"))
                instances = v;
            else if (!strcmp(a, "--influences"))
                gp.max_influences = v;
            else
                ref_instances = v;
        } else if ((t = vks_cli_gpu_option(&gopt, argc, argv, &i)) != 0 ||
                   (t = vks_cli_read_option(&ropt, &cfg, argc, argv, &i)) != 0) {
            if (t < 0)
                return VKS_EXIT_USAGE;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "vkskin bench: unknown option or missing value '%s'\n", a);
            return VKS_EXIT_USAGE;
        } else {
            file = a;
        }
    }
    if (instances == 0) {
        fprintf(stderr, "vkskin bench: --instances must be > 0\n");
        return VKS_EXIT_USAGE;
    }
    vks_error err = {0};
    char msg[512];
    vks_skin *s = NULL;
    if (file) {
        s = vks_cli_load_skin(file, &ropt);
    } else {
        s = vks_gen_character(&gp, &err);
        if (!s)
            fprintf(stderr, "vkskin bench: %s\n", vks_error_format(&err, NULL, msg, sizeof msg));
    }
    if (!s)
        return VKS_EXIT_INPUT;
    uint32_t V = s->vertex_count;
    if (!ref_instances) {
        uint64_t r = 2000000ull / (V ? V : 1);
        ref_instances = r < 1 ? 1 : r > instances ? instances : (uint32_t)r;
    }
    /* Poses for every instance, computed once: every engine starts from the same locals. */
    vks_affine *locals = malloc((size_t)instances * (s->node_count ? s->node_count : 1) * sizeof *locals);
    /* CPU engines run in chunks whose outputs fit in about 64 MiB each. */
    uint32_t chunk = (uint32_t)((64ull << 20) / ((uint64_t)(V ? V : 1) * 12));
    if (chunk < 1)
        chunk = 1;
    if (chunk > instances)
        chunk = instances;
    float *pos = malloc((size_t)chunk * V * 12 + 16), *nrm = malloc((size_t)chunk * V * 12 + 16);
    vks_gpu *gpu = NULL;
    vks_gpu_models *ms = NULL;
    sink sk = {0};
    if (!locals || !pos || !nrm) {
        fprintf(stderr, "vkskin bench: out of memory\n");
        rc = VKS_EXIT_RUNTIME;
        goto out;
    }
    for (uint32_t i = 0; i < instances; i++)
        vks_pose_procedural(s, 1, i, 0.5f, 0.0f, locals + (size_t)i * s->node_count);
    /* Touch every output page once, so no engine's time includes the kernel's first-touch
     * page faults (tens of milliseconds for a 64 MiB chunk). */
    memset(pos, 0, (size_t)chunk * V * 12 + 16);
    memset(nrm, 0, (size_t)chunk * V * 12 + 16);

    /* Each engine runs BENCH_REPEATS times; the best run counts (the least disturbed by the
       rest of the machine). */
    double t0, best;
    /* CPU reference */
    best = 1e300;
    for (int rep = 0; rep < BENCH_REPEATS; rep++) {
        t0 = now_s();
        for (uint32_t f = 0; f < ref_instances; f += chunk) {
            uint32_t n = ref_instances - f < chunk ? ref_instances - f : chunk;
            vks_deform_job j = {s, locals + (size_t)f * s->node_count, n, pos, nrm};
            if (vks_cpu_reference_run(&j, &err) != VKS_OK)
                goto fail;
        }
        if (now_s() - t0 < best)
            best = now_s() - t0;
    }
    double ref_rate = (double)ref_instances * V / best;
    /* fast CPU: one warm-up chunk, then the whole batch */
    int threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
    vks_deform_job warm = {s, locals, 1, pos, nrm};
    vks_cpu_fast_run(&warm, 0, &err);
    best = 1e300;
    for (int rep = 0; rep < BENCH_REPEATS; rep++) {
        t0 = now_s();
        for (uint32_t f = 0; f < instances; f += chunk) {
            uint32_t n = instances - f < chunk ? instances - f : chunk;
            vks_deform_job j = {s, locals + (size_t)f * s->node_count, n, pos, nrm};
            if (vks_cpu_fast_run(&j, 0, &err) != VKS_OK)
                goto fail;
        }
        if (now_s() - t0 < best)
            best = now_s() - t0;
    }
    double fast_rate = (double)instances * V / best;

    double kernel_rate = 0, e2e_rate = 0, kernel_ms = 0, e2e_ms = 0;
    uint32_t chunks = 0;
    const char *device = "none", *device_type = "";
    if (!no_gpu) {
        if ((rc = vks_cli_gpu_open(&gopt, &gpu)) != VKS_EXIT_OK)
            goto out;
        device = vks_gpu_device(gpu)->name, device_type = vks_gpu_device(gpu)->type;
        const vks_skin *one[1] = {s};
        if (vks_gpu_upload(gpu, one, 1, &ms, &err) != VKS_OK)
            goto fail;
        vks_gpu_batch_entry e = {0, instances, locals};
        vks_gpu_batch b = {0};
        b.entries = &e, b.entry_count = 1;
        b.want_normals = 1;
        b.max_chunk_bytes = gopt.max_chunk_bytes;
        vks_gpu_stats st;
        /* warm-up: the first dispatch pays the shader JIT on lavapipe */
        vks_gpu_batch_entry we = {0, 1, locals};
        vks_gpu_batch wb = b;
        wb.entries = &we, wb.kernel_only = 1;
        if (vks_gpu_run(gpu, ms, &wb, &st, &err) != VKS_OK)
            goto fail;
        b.kernel_only = 1;
        kernel_ms = 1e300;
        for (int rep = 0; rep < BENCH_REPEATS; rep++) {
            if (vks_gpu_run(gpu, ms, &b, &st, &err) != VKS_OK)
                goto fail;
            if (st.pose_ms + st.deform_ms < kernel_ms)
                kernel_ms = st.pose_ms + st.deform_ms;
        }
        kernel_rate = kernel_ms > 0 ? (double)instances * V / (kernel_ms / 1e3) : 0;
        b.kernel_only = 0;
        sk.vertices = V;
        b.deliver = consume, b.user = &sk;
        e2e_ms = 1e300;
        for (int rep = 0; rep < BENCH_REPEATS; rep++) {
            if (vks_gpu_run(gpu, ms, &b, &st, &err) != VKS_OK)
                goto fail;
            if (st.total_ms < e2e_ms)
                e2e_ms = st.total_ms;
        }
        chunks = st.chunks;
        e2e_rate = (double)instances * V / (e2e_ms / 1e3);
    }
    if (json) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "device", device);
        cJSON_AddStringToObject(o, "device_type", device_type);
        cJSON_AddNumberToObject(o, "vertices", V);
        cJSON_AddNumberToObject(o, "bones", s->bone_count);
        cJSON_AddNumberToObject(o, "groups", s->group_count);
        cJSON_AddNumberToObject(o, "instances", instances);
        cJSON_AddNumberToObject(o, "reference_instances", ref_instances);
        cJSON_AddNumberToObject(o, "cpu_threads", threads);
        cJSON_AddNumberToObject(o, "bytes_written_per_vertex_instance", 24);
        cJSON *r = cJSON_AddObjectToObject(o, "vertex_instances_per_second");
        cJSON_AddNumberToObject(r, "cpu_reference", ref_rate);
        cJSON_AddNumberToObject(r, "cpu_fast", fast_rate);
        cJSON_AddNumberToObject(r, "gpu_kernel", kernel_rate);
        cJSON_AddNumberToObject(r, "gpu_end_to_end", e2e_rate);
        cJSON *q = cJSON_AddObjectToObject(o, "ratios");
        cJSON_AddNumberToObject(q, "cpu_fast_over_reference", fast_rate / ref_rate);
        cJSON_AddNumberToObject(q, "gpu_kernel_over_cpu_fast", kernel_rate / fast_rate);
        cJSON_AddNumberToObject(q, "gpu_end_to_end_over_cpu_fast", e2e_rate / fast_rate);
        cJSON_AddNumberToObject(q, "gpu_end_to_end_over_kernel", kernel_rate > 0 ? e2e_rate / kernel_rate : 0);
        cJSON_AddNumberToObject(o, "gpu_kernel_ms", kernel_ms);
        cJSON_AddNumberToObject(o, "gpu_end_to_end_ms", e2e_ms);
        cJSON_AddNumberToObject(o, "gpu_chunks", chunks);
        char *txt = cJSON_Print(o);
        if (txt)
            printf("%s\n", txt);
        free(txt);
        cJSON_Delete(o);
    } else {
        printf("workload: %u vertices, %u bones, %u group(s), %u instances (reference: %u), pos+normal, "
               "24 B written per vertex-instance\n",
               V, s->bone_count, s->group_count, instances, ref_instances);
        printf("device:   %s (%s); CPU threads %d\n", device, device_type, threads);
        printf("  cpu reference   %10.3f M vertex-instances/s\n", ref_rate / 1e6);
        printf("  cpu fast        %10.3f M vertex-instances/s   x%.2f reference\n", fast_rate / 1e6, fast_rate / ref_rate);
        if (!no_gpu) {
            printf("  gpu kernel      %10.3f M vertex-instances/s   x%.2f cpu fast   (%.2f ms, timestamps)\n",
                   kernel_rate / 1e6, kernel_rate / fast_rate, kernel_ms);
            printf("  gpu end to end  %10.3f M vertex-instances/s   x%.2f cpu fast   x%.2f kernel (%.2f ms, %u chunk(s))\n",
                   e2e_rate / 1e6, e2e_rate / fast_rate, kernel_rate > 0 ? e2e_rate / kernel_rate : 0, e2e_ms, chunks);
        }
    }
    goto out;
fail:
    fprintf(stderr, "vkskin bench: %s\n", vks_error_format(&err, NULL, msg, sizeof msg));
    rc = vks_cli_exit_code(err.code);
out:
    vks_gpu_models_free(ms);
    vks_gpu_destroy(gpu);
    free(sk.buf);
    free(locals), free(pos), free(nrm);
    vks_skin_free(s);
    return rc;
}
