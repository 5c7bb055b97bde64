/* The JSON report of vks_bench_crowd_run (bench.h): the document `vkskin bench --crowd --json`
 * prints, key for key and in the same order, numbers in the C locale. */
#include <cjson/cJSON.h>

#include "bench/bench_crowd.h"
#include "core/c_numeric.h"

/* The crowd frame by frame and in one submission, against the per-call path. */
static void paths_json(cJSON *o, const vks_bench_crowd_result *b)
{
    double vi = (double)b->instances * b->vertices;
    cJSON *c = cJSON_GetObjectItem(o, "crowd");
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
    cJSON_AddNumberToObject(o, "per_call_over_crowd", b->steady_ms > 0 ? b->percall_ms / b->steady_ms : 0);
}

static void clips_json(cJSON *o, const vks_bench_crowd_result *k)
{
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
    cJSON_AddNumberToObject(cl, "uploaded_over_gpu_sampled",
                            k->gpu_sampled_ms > 0 ? k->uploaded_ms / k->gpu_sampled_ms : 0);
    cJSON *ly = cJSON_AddObjectToObject(o, "layers");
    static const char *const names[3] = {"1", "2", "4"};
    for (int n = 0; n < 3; n++) {
        cJSON *e = cJSON_AddObjectToObject(ly, names[n]);
        double pose = k->layers_pose_gpu_ms[n];
        cJSON_AddNumberToObject(e, "ms_per_frame", k->layers_ms[n]);
        cJSON_AddNumberToObject(e, "gpu_ms_per_frame", k->layers_gpu_ms[n]);
        cJSON_AddNumberToObject(e, "pose_pass_gpu_ms_per_frame", pose);
        cJSON_AddNumberToObject(e, "pose_pass_gpu_us_per_instance", k->instances ? pose * 1e3 / k->instances : 0);
    }
    cJSON_AddNumberToObject(ly, "plain_clip_pose_pass_gpu_ms_per_frame", k->gpu_sampled_pose_gpu_ms);
    /* false where the frames were staggered (the launch shape's slices): the pose pass ran
       beside the deform, not alone, and its figures above are 0 (slices=1 times it) */
    cJSON_AddBoolToObject(ly, "pose_pass_timed_alone", k->gpu_sampled_pose_gpu_ms > 0);
    double p1 = k->layers_pose_gpu_ms[0], p4 = k->layers_pose_gpu_ms[2];
    cJSON_AddNumberToObject(ly, "pose_pass_4_over_1", p1 > 0 ? p4 / p1 : 0);
}

static char *crowd_json(const vks_bench_crowd_result *b)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddObjectToObject(o, "crowd");
    cJSON_AddStringToObject(o, "device", b->device);
    cJSON_AddStringToObject(o, "device_type", b->device_type);
    cJSON_AddNumberToObject(o, "queue_family", b->queue_family);
    cJSON_AddNumberToObject(o, "queue_index", b->queue_index);
    cJSON_AddNumberToObject(o, "vertices", b->vertices);
    cJSON_AddNumberToObject(o, "bones", b->bones);
    cJSON_AddNumberToObject(o, "instances", b->instances);
    cJSON_AddNumberToObject(o, "frames", b->frames);
    cJSON *ls = cJSON_AddObjectToObject(o, "launch_shape");
    cJSON_AddStringToObject(ls, "shape", b->shape.text);
    cJSON_AddStringToObject(ls, "source", b->shape.source);
    cJSON_AddStringToObject(ls, "reason", b->shape.reason);
    paths_json(o, b);
    clips_json(o, b);
    char *s = cJSON_Print(o);
    cJSON_Delete(o);
    return s;
}

char *vks_bench_crowd_json(const vks_bench_crowd_result *r)
{
    VKS_RETURN_IN_C_NUMERIC(char *, crowd_json(r));
}

vks_result vks_bench_crowd_write_json(const vks_bench_crowd_result *r, FILE *f, vks_error *err)
{
    return vks__bench_write_text(vks_bench_crowd_json(r), f, "bench/crowd json", err);
}
