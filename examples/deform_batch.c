/* deform_batch: a host program that deforms a batch of posed instances into an output file
 * through the library alone (deform_run.h), as `vkskin deform` does.
 *
 * It reads a model (vks_read_file), poses N instances over F frames procedurally
 * (vks_pose_source_locals: seed 1, 30 fps, as `vkskin deform --procedural` poses them), and
 * writes every pose to OUTDIR/cpu.raw on the CPU reference engine and to OUTDIR/gpu.raw on the
 * GPU (vks_deform_run: chunks, a writer thread overlapping the engine, the GPU through the
 * stream), each a raw bake (bake.h); a context with the validation layer on, its messages
 * counted. The test compares both files byte for byte with `vkskin deform --cpu` and `--gpu`.
 * Usage: deform_batch MODEL OUTDIR INSTANCES FRAMES
 * Exit: 0 written (and the GPU's output close to the CPU's), 1 an error or a mismatch, 77 no
 * Vulkan device (cpu.raw is written first, the GPU's part skipped). */
#include <vkskin.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define TRY(ok, what)                                                                                  \
    do {                                                                                               \
        if (!(ok)) {                                                                                   \
            fprintf(stderr, "deform_batch: %s %s\n", what, err.msg);                                   \
            return 1;                                                                                  \
        }                                                                                              \
    } while (0)

/* The poses: pose p is instance p / frames at frame p % frames. */
typedef struct poses {
    const vks_skin *skin;
    vks_pose_source src;
    uint32_t frames;
    uint64_t written;
} poses;

static void locals(void *user, uint64_t first, uint32_t n, vks_affine *out)
{
    const poses *p = user;
    for (uint32_t k = 0; k < n; k++) {
        uint64_t pose = first + k;
        vks_pose_source_locals(&p->src, p->skin, (uint32_t)(pose / p->frames), (uint32_t)(pose % p->frames),
                               out + (size_t)k * p->skin->node_count);
    }
}

static void progress(void *user, uint64_t done)
{
    poses *p = user;
    p->written = done;
}

static void log_line(void *user, vks_log_level level, const char *msg)
{
    (void)user;
    if (level <= VKS_LOG_WARNING)
        fprintf(stderr, "deform_batch: %s\n", msg);
}

/* Every pose into path as a raw bake, on the engine d names (d's skin, poses and engine set). */
static vks_result deform_to(const char *path, vks_deform_run_desc *d, uint32_t instances, vks_deform_run_stats *st,
                            vks_error *err)
{
    vks_bake *bake = NULL;
    vks_result r = vks_bake_open(&bake, path, VKS_BAKE_RAW, d->skin, instances, d->frames, err);
    if (r != VKS_OK)
        return r;
    d->bake = bake;
    r = vks_deform_run(d, st, err);
    vks_result rc = vks_bake_close(bake, r == VKS_OK, r == VKS_OK ? err : NULL); /* 0: the temporary goes */
    return r != VKS_OK ? r : rc;
}

/* The largest difference between two raw files of the same size (floats); -1 when they differ
 * in size or cannot be read. */
static double max_difference(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    double worst = fa && fb ? 0 : -1;
    float x, y;
    while (worst >= 0) {
        size_t na = fa ? fread(&x, sizeof x, 1, fa) : 0, nb = fb ? fread(&y, sizeof y, 1, fb) : 0;
        if (na != nb)
            worst = -1;
        if (!na || !nb)
            break;
        worst = fmax(worst, fabs((double)x - y));
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return worst;
}

int main(int argc, char **argv)
{
    vks_error err = {0};
    TRY(argc == 5, "usage: deform_batch MODEL OUTDIR INSTANCES FRAMES");
    uint32_t instances = (uint32_t)strtoul(argv[3], NULL, 10), frames = (uint32_t)strtoul(argv[4], NULL, 10);
    TRY(instances >= 1 && frames >= 1, "INSTANCES and FRAMES must be at least 1");
    TRY(mkdir(argv[2], 0777) == 0 || errno == EEXIST, "OUTDIR cannot be made");
    char cpu_path[1024], gpu_path[1024];
    snprintf(cpu_path, sizeof cpu_path, "%s/cpu.raw", argv[2]);
    snprintf(gpu_path, sizeof gpu_path, "%s/gpu.raw", argv[2]);

    /* 1. The model, and the poses `vkskin deform --procedural` gives (seed 1, 30 fps). */
    vks_skin *skin = NULL;
    TRY(vks_read_file(NULL, argv[1], &skin, &err) == VKS_OK && vks_skin_validate(skin, &err) == VKS_OK,
        "reading the model:");
    poses p = {skin, {0}, frames, 0};
    p.src.kind = VKS_POSE_PROCEDURAL, p.src.seed = 1, p.src.fps = 30.0f;

    /* 2. Every pose on the CPU reference engine, written chunk by chunk. */
    vks_deform_run_desc d = {0};
    d.skin = skin, d.frames = frames, d.total = (uint64_t)instances * frames;
    d.locals = locals, d.progress = progress, d.user = &p;
    d.engine = VKS_DEFORM_CPU_REFERENCE;
    vks_deform_run_stats st;
    TRY(deform_to(cpu_path, &d, instances, &st, &err) == VKS_OK && p.written == d.total, "the CPU reference:");
    printf("deform_batch: %u x %u poses of %u vertices on the CPU reference in %.3f s -> %s\n", instances, frames,
           skin->vertex_count, st.engine_s, cpu_path);

    /* 3. The same on the GPU: a context (the validation layer on) and the model as its model 0. */
    vks_gpu_options opt = {0};
    opt.validation = 1;
    opt.logger.func = log_line;
    vks_gpu *gpu = NULL;
    vks_result r = vks_gpu_create(&opt, &gpu, &err);
    if (r == VKS_ERR_NO_DEVICE) {
        fprintf(stderr, "deform_batch: no Vulkan device (the GPU skipped): %s\n", err.msg);
        vks_skin_free(skin);
        return 77;
    }
    TRY(r == VKS_OK, "vks_gpu_create:");
    const vks_skin *skins[1] = {skin};
    vks_gpu_models *models = NULL;
    TRY(vks_gpu_upload(gpu, skins, 1, &models, &err) == VKS_OK, "vks_gpu_upload:");
    const vks_gpu_models *ms[1] = {models};
    d.engine = VKS_DEFORM_GPU, d.gpus = &gpu, d.models = ms, d.gpu_count = 1;
    d.direct = 1; /* raw: written straight from the readback memory */
    p.written = 0;
    TRY(deform_to(gpu_path, &d, instances, &st, &err) == VKS_OK && p.written == d.total, "the GPU:");
    printf("deform_batch: the same on %s in %.3f s -> %s\n", vks_gpu_device(gpu)->name, st.engine_s, gpu_path);

    /* 4. The GPU's floats against the reference's (the test compares the bytes with the CLI's). */
    double worst = max_difference(cpu_path, gpu_path);
    uint32_t messages = vks_gpu_validation_messages(gpu);
    int ok = worst >= 0 && worst < 1e-3 && !messages;
    printf("deform_batch: GPU against CPU reference: worst %.3g, %u validation message(s): %s\n", worst, messages,
           ok ? "match" : "MISMATCH");
    vks_gpu_models_free(models);
    vks_gpu_destroy(gpu);
    vks_skin_free(skin);
    return ok ? 0 : 1;
}
