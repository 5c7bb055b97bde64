/* The contact sheet (render.h) drawn twice, with the validation layer on: once from a crowd's
 * output buffers (deformed by the compute passes, never read back) and once from the CPU
 * reference's vertices for the same procedural poses uploaded as a plain vertex buffer. The
 * pictures may differ only where float rounding moves a triangle edge over a pixel centre or
 * tips a shade by one step: at most 0.1 % of the covered pixels, and no validation message.
 * The context is made with will_render, so its family has graphics on every device; one whose
 * family cannot draw (simulated) is refused with a message naming the cause.
 * The crowd's sheet drawn again in two parts (vks_render_crowd_part, a crowd per part, as
 * vkskin render draws large sheets) must be the very same picture.
 * Exit 77 without a Vulkan device. */
#include "gpu_check.h"
#include "testutil.h"

#include "vkskin/render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { INSTANCES = 12, W = 480, H = 270 };
static const uint64_t SEED = 3;
static const float TIME = 0.4f;

static int differs(const uint8_t *a, const uint8_t *b, int tolerance)
{
    for (int k = 0; k < 4; k++)
        if (abs((int)a[k] - (int)b[k]) > tolerance)
            return 1;
    return 0;
}

int main(void)
{
    vks_gpu_options o = {0};
    o.will_render = 1; /* a queue family with graphics, also where a compute-only one exists */
    vks_gpu *gpu = gpu_check_context_opt(&o);
    const vks_gpu_device_info *info = vks_gpu_device(gpu);
    CHECK(info->queue_family == info->render_family && info->queue_family < info->queue_family_count);
    CHECK(info->queue_families[info->queue_family].flags & VKS_QUEUE_GRAPHICS);
    vks_skin *skin = gpu_check_character(3000, 32, 4, 0, 11);
    if (!skin)
        return 1;
    vks_error err = {0};
    vks_gpu_models *models = NULL;
    CHECK(vks_gpu_upload(gpu, (const vks_skin *const *)&skin, 1, &models, &err) == VKS_OK);
    vks_instance inst[INSTANCES];
    memset(inst, 0, sizeof inst);
    for (uint32_t i = 0; i < INSTANCES; i++)
        inst[i].seed = SEED, inst[i].pose_instance = i;
    vks_crowd_desc cd = {.models = models, .instances = inst, .instance_count = INSTANCES};
    vks_crowd *crowd = NULL;
    CHECK(vks_crowd_create(gpu, &cd, &crowd, &err) == VKS_OK);
    vks_render_desc rd = {.skins = (const vks_skin *const *)&skin, .skin_count = 1, .width = W, .height = H};
    vks_render *r = NULL;
    vks_result res = vks_render_create(gpu, &rd, &r, &err);
    if (res != VKS_OK) /* a context made to render must be able to (no skip: issue 22) */
        fprintf(stderr, "vks_render_create: %s\n", err.msg);
    CHECK(res == VKS_OK);
    if (!r)
        return 1;

    /* 1. from the crowd's buffers */
    CHECK(vks_render_crowd(r, crowd, TIME, &err) == VKS_OK);
    uint32_t w = 0, h = 0;
    const uint8_t *px = vks_render_pixels(r, &w, &h);
    CHECK(px && w == W && h == H);
    uint8_t *from_crowd = malloc((size_t)W * H * 4);
    memcpy(from_crowd, px, (size_t)W * H * 4);

    /* 1b. the same sheet in two parts, each from a crowd of its own cells */
    {
        enum { FIRST = 5 };
        vks_crowd *a = NULL, *b = NULL;
        vks_crowd_desc da = {.models = models, .instances = inst, .instance_count = FIRST};
        vks_crowd_desc db = {.models = models, .instances = inst + FIRST, .instance_count = INSTANCES - FIRST};
        CHECK(vks_crowd_create(gpu, &da, &a, &err) == VKS_OK);
        CHECK(vks_crowd_create(gpu, &db, &b, &err) == VKS_OK);
        /* a part past cell 0 continues the last sheet drawn (12 cells), and stays inside it */
        CHECK(vks_render_crowd_part(r, b, TIME, FIRST, INSTANCES + 1, &err) == VKS_ERR_INVALID);
        CHECK(vks_render_crowd_part(r, b, TIME, FIRST + 1, INSTANCES, &err) == VKS_ERR_INVALID); /* past the end */
        CHECK(vks_render_crowd_part(r, a, TIME, 0, INSTANCES, &err) == VKS_OK);
        CHECK(vks_render_crowd_part(r, b, TIME, FIRST, INSTANCES, &err) == VKS_OK);
        px = vks_render_pixels(r, &w, &h);
        CHECK(px && memcmp(px, from_crowd, (size_t)W * H * 4) == 0);
        vks_crowd_destroy(a);
        vks_crowd_destroy(b);
    }

    /* 2. from the CPU reference's vertices, same poses */
    size_t floats = (size_t)INSTANCES * skin->vertex_count * 3;
    float *pos = malloc(floats * sizeof *pos), *nrm = malloc(floats * sizeof *nrm);
    vks_affine *locals = malloc((size_t)INSTANCES * skin->node_count * sizeof *locals);
    uint32_t cells[INSTANCES] = {0};
    for (uint32_t i = 0; i < INSTANCES; i++)
        vks_pose_procedural(skin, SEED, i, TIME, 0.0f, locals + (size_t)i * skin->node_count);
    vks_deform_job job = {0};
    job.skin = skin, job.locals = locals, job.instance_count = INSTANCES, job.positions = pos, job.normals = nrm;
    CHECK(vks_cpu_reference_run(&job, &err) == VKS_OK);
    CHECK(vks_render_host(r, cells, INSTANCES, pos, nrm, &err) == VKS_OK);
    px = vks_render_pixels(r, &w, &h);

    /* 3. compare: covered = not the background in either picture */
    const uint8_t *bg = from_crowd; /* the top-left corner is background in both */
    uint64_t covered = 0, diff = 0, diff_exact = 0;
    for (size_t p = 0; p < (size_t)W * H; p++) {
        const uint8_t *a = from_crowd + 4 * p, *b = px + 4 * p;
        if (differs(a, bg, 0) || differs(b, bg, 0))
            covered++;
        diff_exact += differs(a, b, 0);
        diff += differs(a, b, 2); /* a shade step or two is rounding in the normals, not an edge */
    }
    CHECK(!differs(px, bg, 0));
    printf("render: %ux%u, %d instances: %llu covered pixels, %llu differ (%llu differ at all), "
           "%u validation messages\n",
           W, H, INSTANCES, (unsigned long long)covered, (unsigned long long)diff, (unsigned long long)diff_exact,
           vks_gpu_validation_messages(gpu));
    CHECK(covered > (uint64_t)W * H / 50); /* the characters are there */
    CHECK(diff * 1000 <= covered);          /* at most 0.1 % of the covered pixels */
    CHECK(vks_gpu_validation_messages(gpu) == 0);

    free(from_crowd), free(pos), free(nrm), free(locals);
    vks_render_destroy(r);
    vks_crowd_destroy(crowd);
    vks_gpu_models_free(models);
    vks_gpu_destroy(gpu);

    /* A context whose queue family cannot draw (a compute-only family, as NVIDIA's and AMD's
     * asynchronous compute queues are; simulated here) is refused with the cause named. */
    setenv("VKSKIN_TEST_NO_GRAPHICS_QUEUE", "1", 1);
    gpu = gpu_check_context_opt(&o);
    r = NULL;
    err = (vks_error){0}; /* the error of the refused part above stays in err otherwise */
    CHECK_EQ_INT(vks_render_create(gpu, &rd, &r, &err), VKS_ERR_UNSUPPORTED);
    CHECK(r == NULL && strstr(err.msg, "has no queue family with graphics") != NULL);
    fprintf(stderr, "refused as expected: %s\n", err.msg);
    vks_gpu_destroy(gpu);
    unsetenv("VKSKIN_TEST_NO_GRAPHICS_QUEUE");
    vks_skin_free(skin);
    return vks_test_finish("test_gpu_render");
}
