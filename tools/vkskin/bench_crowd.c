/* vkskin bench --crowd [--json] [--vertices V] [--bones B] [--instances N] [--frames F]
 *                      [--device N|NAME] [--validation]
 * A crowd frame with persistent resources against today's per-call path, in one run, on one
 * workload (DESIGN.md section 11): a generated character (default 10k vertices, 32 bones,
 * 4 influences), N instances (1000) posed procedurally, F frames (100).
 *   crowd, frame by frame:  vks_crowd_run_frame once per frame: the pose evaluated on the GPU,
 *                           every buffer and set made once; the first frame is reported apart
 *                           (pipeline warm-up), the F after it are the steady state;
 *   per call:               vks_gpu_run in kernel_only mode once per frame, the way every batch
 *                           runs: locals uploaded from the host (computed beforehand, not
 *                           timed), the buffer set the context keeps between runs reused (made
 *                           by the warm-up call);
 *   crowd, one submission:  vks_crowd_run_frames with F frames in one command buffer.
 * The first two alternate frame by frame, so both see the same machine. Prints ms per frame
 * (host wall time; timestamps where the device has them) and the ratio. Then the clip workload
 * (bench_clips.c): the crowd playing clips sampled in the pose pass against the same crowd posed
 * by the host (clips sampled on the CPU, locals uploaded every frame). */
#include "bench_crowd.h"
#include "bench_clips.h"

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "character.h"
#include "cli_gpu.h"

typedef struct crowd_bench {
    uint32_t frames, instances, vertices;
    double first_ms, steady_ms, steady_gpu_ms, batched_ms, batched_gpu_ms; /* per frame */
    double percall_ms, percall_kernel_ms, percall_first_ms;                /* per frame */
    uint32_t percall_chunks, parts;
    vks_bench_clip_result clips;
} crowd_bench;

static float frame_time(uint32_t f)
{
    return (float)f / 30.0f;
}

/* The per-call path's batch: every instance with its locals, computed once on the host (their
 * values do not change the cost), kernel only. */
static vks_gpu_batch percall_batch(const vks_skin *s, uint32_t instances, vks_affine *locals,
                                   vks_gpu_batch_entry *e)
{
    for (uint32_t i = 0; i < instances; i++)
        vks_pose_procedural(s, 1, i, frame_time(0), 0.0f, locals + (size_t)i * s->node_count);
    *e = (vks_gpu_batch_entry){0, instances, locals};
    vks_gpu_batch b = {0};
    b.entries = e, b.entry_count = 1, b.want_normals = 1, b.kernel_only = 1;
    return b;
}

/* Frame f of both paths, one after the other, so that both see the same machine: the crowd's
 * frame (record, submit, wait) and one vks_gpu_run. Frame 0 of each is its warm-up. */
static vks_result run_interleaved(vks_gpu *gpu, const vks_gpu_models *ms, vks_crowd *crowd,
                                  const vks_gpu_batch *batch, crowd_bench *b, vks_error *err)
{
    double sum = 0, sum_gpu = 0, sum_call = 0, sum_kernel = 0;
    vks_crowd_stats cs;
    vks_gpu_stats gs;
    vks_result r = VKS_OK;
    for (uint32_t f = 0; r == VKS_OK && f <= b->frames; f++) {
        r = vks_crowd_run_frame(crowd, frame_time(f), &cs, err);
        if (r == VKS_OK)
            r = vks_gpu_run(gpu, ms, batch, &gs, err);
        if (f == 0) {
            b->first_ms = cs.wall_ms, b->percall_first_ms = gs.total_ms;
            continue;
        }
        sum += cs.wall_ms, sum_gpu += cs.gpu_ms;
        sum_call += gs.total_ms, sum_kernel += gs.pose_ms + gs.deform_ms;
    }
    b->steady_ms = sum / b->frames, b->steady_gpu_ms = sum_gpu / b->frames;
    b->percall_ms = sum_call / b->frames, b->percall_kernel_ms = sum_kernel / b->frames;
    b->percall_chunks = gs.chunks;
    return r;
}

/* Both paths, then the crowd's frames all in one command buffer. */
static vks_result run_bench(vks_gpu *gpu, const vks_gpu_models *ms, const vks_skin *s, crowd_bench *b,
                            vks_error *err)
{
    vks_instance *in = calloc(b->instances, sizeof *in);
    float *times = malloc(b->frames * sizeof *times);
    vks_affine *locals = malloc((size_t)b->instances * (s->node_count ? s->node_count : 1) * sizeof *locals);
    vks_crowd *crowd = NULL;
    vks_result r = in && times && locals ? VKS_OK
                                         : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "bench", "out of memory");
    for (uint32_t i = 0; r == VKS_OK && i < b->instances; i++)
        in[i].seed = 1, in[i].pose_instance = i;
    vks_crowd_desc d = {0};
    d.models = ms, d.instances = in, d.instance_count = b->instances;
    d.frames = 2 * b->frames + 1; /* the warm-up, the interleaved frames and the one submission's */
    if (r == VKS_OK)
        r = vks_crowd_create(gpu, &d, &crowd, err);
    vks_gpu_batch_entry e;
    vks_gpu_batch batch = r == VKS_OK ? percall_batch(s, b->instances, locals, &e) : (vks_gpu_batch){0};
    if (r == VKS_OK)
        r = run_interleaved(gpu, ms, crowd, &batch, b, err);
    for (uint32_t f = 0; r == VKS_OK && f < b->frames; f++)
        times[f] = frame_time(f + 1);
    vks_crowd_stats st = {0};
    if (r == VKS_OK)
        r = vks_crowd_run_frames(crowd, times, b->frames, &st, err);
    b->batched_ms = st.wall_ms / b->frames, b->batched_gpu_ms = st.gpu_ms / b->frames;
    vks_crowd_destroy(crowd);
    crowd = NULL;
    if (r == VKS_OK)
        r = vks_bench_clips(gpu, ms, s, b->instances, b->frames, &b->clips, err);
    free(in), free(times), free(locals);
    return r;
}

static void report(const crowd_bench *b, const vks_gpu *gpu, const vks_skin *s, int json)
{
    double vi = (double)b->instances * b->vertices;
    double ratio = b->steady_ms > 0 ? b->percall_ms / b->steady_ms : 0;
    if (json) {
        cJSON *o = cJSON_CreateObject(), *c = cJSON_AddObjectToObject(o, "crowd");
        cJSON_AddStringToObject(o, "device", vks_gpu_device(gpu)->name);
        cJSON_AddStringToObject(o, "device_type", vks_gpu_device(gpu)->type);
        vks_cli_queue_json(o, vks_gpu_device(gpu)->queue_family, vks_gpu_device(gpu)->queue_index);
        cJSON_AddNumberToObject(o, "vertices", b->vertices);
        cJSON_AddNumberToObject(o, "bones", s->bone_count);
        cJSON_AddNumberToObject(o, "instances", b->instances);
        cJSON_AddNumberToObject(o, "frames", b->frames);
        vks_gpu_shape_info shape; /* the crowd's: calibrated at its creation where it was large enough */
        vks_gpu_launch_shape(gpu, &shape);
        cJSON *ls = cJSON_AddObjectToObject(o, "launch_shape");
        cJSON_AddStringToObject(ls, "shape", shape.text);
        cJSON_AddStringToObject(ls, "source", shape.source ? shape.source : "");
        cJSON_AddStringToObject(ls, "reason", shape.reason ? shape.reason : "");
        cJSON_AddNumberToObject(c, "first_frame_ms", b->first_ms);
        cJSON_AddNumberToObject(c, "steady_ms_per_frame", b->steady_ms);
        cJSON_AddNumberToObject(c, "steady_gpu_ms_per_frame", b->steady_gpu_ms);
        cJSON_AddNumberToObject(c, "one_submission_ms_per_frame", b->batched_ms);
        cJSON_AddNumberToObject(c, "one_submission_gpu_ms_per_frame", b->batched_gpu_ms);
        cJSON_AddNumberToObject(c, "steady_vertex_instances_per_second", b->steady_ms > 0 ? vi / (b->steady_ms / 1e3) : 0);
        cJSON *p = cJSON_AddObjectToObject(o, "per_call");
        cJSON_AddNumberToObject(p, "first_call_ms", b->percall_first_ms);
        cJSON_AddNumberToObject(p, "ms_per_frame", b->percall_ms);
        cJSON_AddNumberToObject(p, "kernel_ms_per_frame", b->percall_kernel_ms);
        cJSON_AddNumberToObject(p, "chunks_per_frame", b->percall_chunks);
        cJSON_AddNumberToObject(o, "per_call_over_crowd", ratio);
        const vks_bench_clip_result *k = &b->clips;
        cJSON *cl = cJSON_AddObjectToObject(o, "clips");
        cJSON_AddNumberToObject(cl, "gpu_sampled_ms_per_frame", k->gpu_sampled_ms);
        cJSON_AddNumberToObject(cl, "gpu_sampled_gpu_ms_per_frame", k->gpu_sampled_gpu_ms);
        /* the headline a crowd user asks for: frames a second of the crowd playing clips */
        cJSON_AddNumberToObject(cl, "gpu_sampled_frames_per_second", k->gpu_sampled_ms > 0 ? 1e3 / k->gpu_sampled_ms : 0);
        cJSON_AddNumberToObject(cl, "uploaded_ms_per_frame", k->uploaded_ms);
        cJSON_AddNumberToObject(cl, "uploaded_gpu_ms_per_frame", k->uploaded_gpu_ms);
        cJSON_AddNumberToObject(cl, "uploaded_host_ms_per_frame", k->uploaded_host_ms);
        cJSON_AddNumberToObject(cl, "uploaded_bytes_per_frame", k->uploaded_bytes_per_frame);
        cJSON_AddNumberToObject(cl, "clip_keys_uploaded_once", (double)k->clip_keys);
        cJSON_AddNumberToObject(cl, "uploaded_over_gpu_sampled", k->gpu_sampled_ms > 0 ? k->uploaded_ms / k->gpu_sampled_ms : 0);
        cJSON *ly = cJSON_AddObjectToObject(o, "layers");
        static const char *const names[3] = {"1", "2", "4"};
        for (int n = 0; n < 3; n++) {
            cJSON *e = cJSON_AddObjectToObject(ly, names[n]);
            double pose = k->layers_pose_gpu_ms[n];
            cJSON_AddNumberToObject(e, "ms_per_frame", k->layers_ms[n]);
            cJSON_AddNumberToObject(e, "gpu_ms_per_frame", k->layers_gpu_ms[n]);
            cJSON_AddNumberToObject(e, "pose_pass_gpu_ms_per_frame", pose);
            cJSON_AddNumberToObject(e, "pose_pass_gpu_us_per_instance", b->instances ? pose * 1e3 / b->instances : 0);
        }
        cJSON_AddNumberToObject(ly, "plain_clip_pose_pass_gpu_ms_per_frame", k->gpu_sampled_pose_gpu_ms);
        double p1 = k->layers_pose_gpu_ms[0], p4 = k->layers_pose_gpu_ms[2];
        cJSON_AddNumberToObject(ly, "pose_pass_4_over_1", p1 > 0 ? p4 / p1 : 0);
        char *txt = cJSON_Print(o);
        if (txt)
            printf("%s\n", txt);
        free(txt);
        cJSON_Delete(o);
        return;
    }
    printf("workload: %u instances of %u vertices, %u bones, procedural poses, %u frames\n", b->instances, b->vertices,
           s->bone_count, b->frames);
    printf("device:   %s (%s)\n", vks_gpu_device(gpu)->name, vks_gpu_device(gpu)->type);
    vks_gpu_shape_info shape;
    vks_gpu_launch_shape(gpu, &shape);
    printf("launch shape: %s (%s: %s)\n", shape.text, shape.source, shape.reason);
    printf("  crowd, first frame        %10.2f ms\n", b->first_ms);
    printf("  crowd, steady state       %10.2f ms/frame   (gpu %.2f ms)   %.2f M vertex-instances/s\n", b->steady_ms,
           b->steady_gpu_ms, b->steady_ms > 0 ? vi / (b->steady_ms / 1e3) / 1e6 : 0);
    printf("  crowd, one submission     %10.2f ms/frame   (gpu %.2f ms)\n", b->batched_ms, b->batched_gpu_ms);
    printf("  per call (vks_gpu_run)    %10.2f ms/frame   (kernel %.2f ms, %u chunk(s))\n", b->percall_ms,
           b->percall_kernel_ms, b->percall_chunks);
    printf("  per call / crowd steady   x%.2f\n", ratio);
    const vks_bench_clip_result *k = &b->clips;
    printf("clips (walk and wave, each instance its own clip, start and speed):\n");
    printf("  sampled in the pose pass  %10.2f ms/frame   (gpu %.2f ms)   %llu keys uploaded once; %.1f frames/s\n",
           k->gpu_sampled_ms, k->gpu_sampled_gpu_ms, (unsigned long long)k->clip_keys,
           k->gpu_sampled_ms > 0 ? 1e3 / k->gpu_sampled_ms : 0);
    printf("  sampled on the host       %10.2f ms/frame   (gpu %.2f ms, host sampling + upload %.2f ms, %.1f MB)\n",
           k->uploaded_ms, k->uploaded_gpu_ms, k->uploaded_host_ms, k->uploaded_bytes_per_frame / 1e6);
    printf("  host-sampled / GPU-sampled x%.2f\n", k->gpu_sampled_ms > 0 ? k->uploaded_ms / k->gpu_sampled_ms : 0);
    printf("layers (walk and wave blended, each layer its own start, speed and weight):\n");
    printf("  plain clip (no layers)    pose pass %.3f ms/frame, %.3f us/instance\n", k->gpu_sampled_pose_gpu_ms,
           b->instances ? k->gpu_sampled_pose_gpu_ms * 1e3 / b->instances : 0);
    static const int counts[3] = {1, 2, 4};
    for (int c = 0; c < 3; c++) {
        double pose = k->layers_pose_gpu_ms[c];
        printf("  %d layer(s)                %10.2f ms/frame   (gpu %.2f ms, pose pass %.3f ms, %.3f us/instance)\n",
               counts[c], k->layers_ms[c], k->layers_gpu_ms[c], pose, b->instances ? pose * 1e3 / b->instances : 0);
    }
    double p1 = k->layers_pose_gpu_ms[0], p4 = k->layers_pose_gpu_ms[2];
    printf("  pose pass, 4 layers / 1   x%.2f\n", p1 > 0 ? p4 / p1 : 0);
}

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
    vks_gen_params gp = co.gp;
    int json = co.json;
    crowd_bench b = {0};
    b.frames = co.frames, b.instances = co.instances;
    vks_error err = {0};
    char msg[512];
    vks_skin *s = vks_gen_character(&gp, &err);
    if (!s) {
        fprintf(stderr, "vkskin bench: %s\n", vks_error_format(&err, NULL, msg, sizeof msg));
        return VKS_EXIT_INPUT;
    }
    b.vertices = s->vertex_count;
    vks_gpu *gpu = NULL;
    vks_gpu_models *ms = NULL;
    int rc = vks_cli_gpu_open(&gopt, &gpu);
    const vks_skin *one[1] = {s};
    if (rc == VKS_EXIT_OK && (vks_gpu_upload(gpu, one, 1, &ms, &err) != VKS_OK || run_bench(gpu, ms, s, &b, &err) != VKS_OK)) {
        fprintf(stderr, "vkskin bench: %s\n", vks_error_format(&err, NULL, msg, sizeof msg));
        rc = vks_cli_exit_code(err.code);
    } else if (rc == VKS_EXIT_OK) {
        report(&b, gpu, s, json);
    }
    vks_gpu_models_free(ms);
    vks_gpu_destroy(gpu);
    vks_skin_free(s);
    return rc;
}
