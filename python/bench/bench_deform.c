/* The C API's side of compare.py: one deform job timed the way vkskin.deform runs it, so the
 * Python package's overhead is measured against the library alone.
 * Usage: bench_deform MODEL cpu|cpu-fast|gpu INSTANCES FRAMES REPEATS [CLIP]
 * Each repeat: fresh output buffers (NumPy's arrays are fresh too; VKSKIN_BENCH_REUSE=1 keeps
 * one set, written before the first repeat: the C side's best case), every pose's locals filled
 * on the calling thread (procedural, seed 1, or the clip's first clip from 0 s, 30 fps), one
 * job over every pose (the GPU: the model uploaded, vks_gpu_run_job). Prints one line per
 * repeat: "c SECONDS". Exit 77 without a Vulkan device for gpu. */
#include <vkskin.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int fail(const vks_error *err)
{
    fprintf(stderr, "bench_deform: %s\n", err->msg);
    return 1;
}

static float *kept_pos, *kept_nrm; /* VKSKIN_BENCH_REUSE=1 */

static vks_result run(const vks_skin *s, const vks_pose_source *src, const char *engine, vks_gpu *gpu,
                      uint32_t instances, uint32_t frames, vks_error *err)
{
    size_t poses = (size_t)instances * frames, floats = poses * s->vertex_count * 3;
    vks_affine *locals = malloc(poses * s->node_count * sizeof *locals);
    float *pos = kept_pos ? kept_pos : malloc(floats * sizeof *pos);
    float *nrm = kept_nrm ? kept_nrm : malloc(floats * sizeof *nrm);
    for (size_t p = 0; p < poses; p++)
        vks_pose_source_locals(src, s, (uint32_t)(p / frames), (uint32_t)(p % frames), locals + p * s->node_count);
    vks_deform_job job = {s, locals, (uint32_t)poses, pos, nrm, NULL};
    vks_result r;
    if (!strcmp(engine, "cpu")) {
        r = vks_cpu_reference_run(&job, err);
    } else if (!strcmp(engine, "cpu-fast")) {
        r = vks_cpu_fast_run(&job, 0, err);
    } else {
        vks_gpu_models *models = NULL;
        r = vks_gpu_upload(gpu, &s, 1, &models, err);
        if (r == VKS_OK)
            r = vks_gpu_run_job(gpu, models, 0, &job, NULL, err);
        vks_gpu_models_free(models);
    }
    free(locals);
    if (!kept_pos)
        free(pos), free(nrm);
    return r;
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: bench_deform MODEL cpu|cpu-fast|gpu INSTANCES FRAMES REPEATS [CLIP]\n");
        return 2;
    }
    vks_error err = {0};
    vks_skin *s = NULL;
    vks_clip_set *set = NULL;
    vks_clip_binding b;
    if (vks_read_file(NULL, argv[1], &s, &err) != VKS_OK || vks_skin_validate(s, &err) != VKS_OK)
        return fail(&err);
    uint32_t instances = (uint32_t)atoi(argv[3]), frames = (uint32_t)atoi(argv[4]), repeats = (uint32_t)atoi(argv[5]);
    vks_pose_source src = {0};
    src.kind = VKS_POSE_PROCEDURAL, src.seed = 1, src.fps = 30;
    vks_clip_play play = {0};
    if (argc > 6) {
        if (vks_read_clips(NULL, argv[6], &set, &err) != VKS_OK || vks_clip_bind(&set->clips[0], s, &b, &err) != VKS_OK)
            return fail(&err);
        play.clip = &set->clips[0], play.binding = &b, play.speed = 1, play.cycle = set->clips[0].cycle;
        src.kind = VKS_POSE_CLIP, src.plays = &play, src.play_count = 1;
        src.fast_sampling = !strcmp(argv[2], "cpu-fast");
    }
    vks_gpu *gpu = NULL;
    if (!strcmp(argv[2], "gpu")) {
        vks_result r = vks_gpu_create(NULL, &gpu, &err);
        if (r != VKS_OK)
            return r == VKS_ERR_NO_DEVICE ? 77 : fail(&err);
    }
    const char *reuse = getenv("VKSKIN_BENCH_REUSE");
    if (reuse && *reuse == '1') {
        size_t floats = (size_t)instances * frames * s->vertex_count * 3;
        kept_pos = calloc(floats, sizeof *kept_pos), kept_nrm = calloc(floats, sizeof *kept_nrm);
        memset(kept_pos, 1, floats * sizeof *kept_pos), memset(kept_nrm, 1, floats * sizeof *kept_nrm);
    }
    for (uint32_t k = 0; k < repeats; k++) {
        double t0 = now();
        if (run(s, &src, argv[2], gpu, instances, frames, &err) != VKS_OK)
            return fail(&err);
        printf("c %.6f\n", now() - t0);
    }
    free(kept_pos), free(kept_nrm);
    vks_gpu_destroy(gpu);
    if (set) {
        vks_clip_binding_free(&b);
        vks_clip_set_free(set);
    }
    vks_skin_free(s);
    return 0;
}
