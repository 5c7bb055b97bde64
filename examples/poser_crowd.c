/* poser_crowd: a host that plays a crowd file the way `vkskin deform --crowd FILE --gpu` does,
 * through the public poser (poser.h, poser_stream.h) alone.
 *
 * The plan (vks_pose_plan_load) reads the crowd file and its clip files once and decides the
 * models; each model read (vks_load_model) gets its poser (vks_poser_init: each instance's clip,
 * layers, transition and root, bound to the model); the posers' instances run on the GPU
 * (vks_poser_clips_upload, vks_poser_run: clips sampled and layers blended in the crowd's pose
 * pass), and every instance and frame the GPU gives is checked at three vertices against the
 * CPU reference of the same poser (vks_poser_locals, vks_cpu_reference_run,
 * vks_poser_apply_root). Usage: poser_crowd CROWD.json|CROWD.csv [FRAMES]
 * Exit: 0 played and matching, 1 a mismatch or an error, 77 no Vulkan device. */
#include <vkskin.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct check {
    vks_poser *posers;
    uint32_t checked, mismatches;
    double worst;
} check;

/* The GPU's vertices of instances [first, first + count) of model m at frame, against the
 * reference of the same poser. */
static int consume(void *user, uint32_t m, uint32_t first, uint32_t count, uint32_t frame, const float *pos,
                   const float *nrm)
{
    (void)nrm;
    check *c = user;
    const vks_poser *ps = &c->posers[m];
    const vks_skin *skin = ps->skin;
    size_t n = (size_t)skin->vertex_count * 3;
    vks_affine *locals = malloc(sizeof *locals * skin->node_count);
    float *ref = malloc(sizeof *ref * n);
    double tolerance = 1e-5 * fmax(1.0, vks_skin_bounding_radius(skin)); /* float against double */
    for (uint32_t j = first; locals && ref && j < first + count; j++) {
        vks_error err = {0};
        vks_poser_locals(ps, j, frame, locals);
        vks_deform_job job = {skin, locals, 1, ref, NULL, NULL};
        if (vks_cpu_reference_run(&job, &err) != VKS_OK) {
            fprintf(stderr, "poser_crowd: reference: %s\n", err.msg);
            c->mismatches++;
            continue;
        }
        vks_poser_apply_root(ps, j, ref, NULL);
        uint32_t shown[3] = {0, skin->vertex_count / 2, skin->vertex_count - 1};
        for (int k = 0; k < 3; k++) {
            const float *g = pos + (size_t)(j - first) * n + (size_t)shown[k] * 3, *r = ref + (size_t)shown[k] * 3;
            double d = fmax(fabs((double)g[0] - r[0]), fmax(fabs((double)g[1] - r[1]), fabs((double)g[2] - r[2])));
            c->worst = fmax(c->worst, d);
            c->checked++;
            if (d > tolerance) {
                printf("model %u instance %u frame %u vertex %u: GPU (%.6f %.6f %.6f), reference (%.6f %.6f %.6f)  "
                       "MISMATCH\n", m, j, frame, shown[k], g[0], g[1], g[2], r[0], r[1], r[2]);
                c->mismatches++;
            }
        }
    }
    int oom = !locals || !ref;
    free(locals), free(ref);
    return oom;
}

/* The posers' instances on the GPU, every frame checked; 77 without a device. */
static int play(vks_poser *posers, uint32_t count, check *c)
{
    vks_error err = {0};
    vks_gpu_options opt = {0};
    opt.validation = 1;
    vks_gpu *gpu = NULL;
    vks_result r = vks_gpu_create(&opt, &gpu, &err);
    if (r == VKS_ERR_NO_DEVICE) {
        fprintf(stderr, "poser_crowd: no Vulkan device (skipped): %s\n", err.msg);
        return 77;
    }
    if (r != VKS_OK) {
        fprintf(stderr, "poser_crowd: vks_gpu_create: %s\n", err.msg);
        return 1;
    }
    const vks_skin **skins = malloc(sizeof *skins * count);
    const vks_poser **one = malloc(sizeof *one * count);
    vks_gpu_models *models = NULL;
    vks_poser_clips clips = {0};
    r = skins && one ? VKS_OK : vks_error_set(&err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "poser_crowd", "out of memory");
    for (uint32_t m = 0; r == VKS_OK && m < count; m++)
        skins[m] = posers[m].skin, one[m] = &posers[m];
    if (r == VKS_OK)
        r = vks_gpu_upload(gpu, skins, count, &models, &err);
    if (r == VKS_OK)
        r = vks_poser_clips_upload(gpu, models, one, count, &clips, &err);
    if (r == VKS_OK) {
        vks_poser_job job = {0};
        job.gpu = gpu, job.ms = models, job.clips = &clips, job.posers = one, job.model_count = count;
        job.frames = posers[0].frames, job.no_normals = 1;
        job.consume = consume, job.user = c;
        r = vks_poser_run(&job, NULL, &err);
    }
    uint32_t messages = vks_gpu_validation_messages(gpu);
    vks_poser_clips_free(&clips);
    vks_gpu_models_free(models);
    vks_gpu_destroy(gpu);
    free(skins), free(one);
    if (r != VKS_OK)
        fprintf(stderr, "poser_crowd: %s\n", err.msg);
    c->mismatches += messages; /* a validation message fails the example too */
    return r == VKS_OK ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: poser_crowd CROWD.json|CROWD.csv [FRAMES]\n");
        return 1;
    }
    vks_pose_options o;
    vks_pose_options_defaults(&o);
    o.crowd = argv[1];
    o.frames = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 4;
    o.fps = 5; /* 0.2 s a frame: past the transitions and around the clips' loops */
    o.plays_morph_weights = 1;
    vks_read_options ro = {0};
    ro.logger.func = vks_log_stderr; /* the plan's and posers' notes and problems */
    vks_pose_plan plan;
    vks_error err = {0};
    int rc = vks_pose_plan_load(&plan, &o, NULL, 0, &ro, NULL, &err) == VKS_OK ? 0 : 1;
    vks_skin **skins = calloc(plan.model_count + 1, sizeof *skins);
    vks_poser *posers = calloc(plan.model_count + 1, sizeof *posers);
    uint32_t made = 0;
    for (; rc == 0 && made < plan.model_count; made++) {
        vks_read_options mo = {0};
        if (vks_load_model(&mo, plan.models[made], &skins[made], &err) != VKS_OK ||
            vks_poser_init(&posers[made], skins[made], &plan, made, &err) != VKS_OK) {
            fprintf(stderr, "poser_crowd: %s: %s\n", plan.models[made], err.msg);
            rc = 1;
        }
    }
    check c = {posers, 0, 0, 0};
    if (rc == 0)
        rc = play(posers, plan.model_count, &c);
    if (rc == 0) {
        rc = c.mismatches || !c.checked;
        printf("poser_crowd: %s: %u model(s), %u vertices checked over %u frame(s), worst difference %.3g: %s\n",
               argv[1], plan.model_count, c.checked, o.frames, c.worst, rc ? "MISMATCH" : "match");
    }
    for (uint32_t m = 0; m < made && posers && skins; m++)
        vks_poser_free(&posers[m]), vks_skin_free(skins[m]);
    free(posers), free(skins);
    vks_pose_plan_free(&plan);
    return rc;
}
