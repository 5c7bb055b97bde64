/* Crowds of two size classes alive in one context (gpu/tuning.h: the small-model class), with
 * the validation layer on: the small class's shape forced apart from the context's through
 * the override's small.KEY keys (wg 32, runs of 4, the shared palette: the path a GPU's
 * calibration may choose for small models, here on lavapipe), so that
 *   - a crowd whose largest share of work is a small model runs deform pipelines of its own
 *     (vks__crowd_own_shape), and one of a larger model the context's;
 *   - both, made one after the other and run frame after frame in turn, match the CPU
 *     reference, each with a few instances of the other model among its own;
 *   - with no small.KEY key the small class is the context's shape: no pipelines of its own;
 *   - a bad small.KEY is refused when the context is made, naming it.
 * Exits 77 where there is no Vulkan device. */
#include "crowd_check.h"
#include "gpu_check.h"
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

/* The library's view of a crowd's shape (gpu/vulkan/vk_shared.h). */
int vks__crowd_own_shape(const vks_crowd *c);

enum { N = 24 };

/* n procedural instances of model `mostly`, every twelfth of the other model (the most work
 * stays with `mostly`: it names the crowd's size class). */
static void instances(vks_instance *in, uint32_t n, uint32_t mostly)
{
    memset(in, 0, n * sizeof *in);
    for (uint32_t i = 0; i < n; i++) {
        in[i].model = i % 12 == 11 ? 1 - mostly : mostly;
        in[i].pose = VKS_POSE_PROCEDURAL;
        in[i].seed = 3 + i % 4;
        in[i].pose_instance = i * 5 + 1;
        in[i].max_angle = i % 3 == 1 ? 0.9f : 0.0f;
    }
}

static vks_crowd *crowd_of(vks_gpu *gpu, const vks_gpu_models *ms, const vks_instance *in)
{
    vks_crowd_desc d = {0};
    d.models = ms, d.instances = in, d.instance_count = N;
    vks_crowd *c = NULL;
    vks_error err = {0};
    CHECK_EQ_INT(vks_crowd_create(gpu, &d, &c, &err), VKS_OK);
    if (!c)
        fprintf(stderr, "%s\n", err.msg);
    return c;
}

int main(void)
{
    unsetenv("VKS_TEST_LAUNCH_SHAPE"); /* this test forces its own */
    vks_skin *large = gpu_check_character(6000, 32, 4, 12, 1); /* past VKS__SMALL_MODEL_VERTICES */
    vks_skin *small = gpu_check_character(700, 24, 3, 10, 3);
    if (!large || !small)
        return vks_test_finish("test_gpu_crowd_classes");
    const vks_skin *skins[2] = {large, small};

    fprintf(stderr, "a bad small.KEY is refused with the context\n");
    vks_gpu *gpu = NULL;
    vks_error err = {0};
    vks_gpu_options bad = {.launch_shape = "small.wg=100"};
    CHECK(vks_gpu_create(&bad, &gpu, &err) != VKS_OK || !gpu);
    if (gpu)
        vks_gpu_destroy(gpu);
    else if (err.code != VKS_ERR_NO_DEVICE)
        CHECK(strstr(err.msg, "wg=100") != NULL);

    const char *shapes[2] = {"small.wg=32,small.run=4,small.palette=on", ""};
    for (int k = 0; k < 2; k++) {
        fprintf(stderr, "launch shape '%s'\n", shapes[k]);
        gpu = gpu_check_context_opt(&(vks_gpu_options){.launch_shape = shapes[k][0] ? shapes[k] : NULL});
        vks_gpu_models *ms = NULL;
        CHECK_EQ_INT(vks_gpu_upload(gpu, skins, 2, &ms, &err), VKS_OK);
        static vks_instance a[N], b[N];
        instances(a, N, 1); /* mostly the small model */
        instances(b, N, 0); /* mostly the large one */
        vks_crowd *cs = crowd_of(gpu, ms, a), *cl = crowd_of(gpu, ms, b);
        if (cs && cl) {
            CHECK_EQ_INT(vks__crowd_own_shape(cs), (k == 0));
            CHECK_EQ_INT(vks__crowd_own_shape(cl), 0);
            const float times[3] = {0.0f, 1.25f, 7.5f};
            for (int f = 0; f < 3; f++) {
                CHECK_EQ_INT(vks_crowd_run_frame(cs, times[f], NULL, &err), VKS_OK);
                CHECK_EQ_INT(vks_crowd_run_frame(cl, times[f], NULL, &err), VKS_OK);
                CHECK(crowd_check(cs, skins, a, N, times[f], NULL, "the small model's crowd"));
                CHECK(crowd_check(cl, skins, b, N, times[f], NULL, "the large model's crowd"));
            }
        }
        vks_crowd_destroy(cs), vks_crowd_destroy(cl);
        vks_gpu_models_free(ms);
        CHECK_EQ_INT(vks_gpu_validation_messages(gpu), 0);
        vks_gpu_destroy(gpu);
    }
    vks_skin_free(large), vks_skin_free(small);
    return vks_test_finish("test_gpu_crowd_classes");
}
