/* The check can fail: a wrong remap entry, weight or skin matrix on the GPU side must make the
 * comparison with the reference fail, while the same batch without the fault passes. */
#include "gpu_check.h"
#include "testutil.h"

#include "character.h"

int main(void)
{
    vks_gen_params p = {0};
    p.vertices = 1500, p.palette_limit = 12;
    vks_error err = {0};
    vks_skin *s = vks_gen_character(&p, &err);
    CHECK(s != NULL);
    if (!s)
        return vks_test_finish("test_gpu_faults");
    const vks_skin *skins[1] = {s};
    const char *names[4] = {"none", "remap", "weight", "matrix"};
    for (int f = VKS_GPU_FAULT_NONE; f <= VKS_GPU_FAULT_MATRIX; f++) {
        vks_gpu *gpu = gpu_check_context((vks_gpu_fault)f, 0);
        vks_gpu_models *ms = NULL;
        CHECK(vks_gpu_upload(gpu, skins, 1, &ms, &err) == VKS_OK);
        gpu_check_entry e[1] = {{s, 0, 3, 0, 5}};
        gpu_check_result r;
        fprintf(stderr, "fault %s\n", names[f]);
        CHECK(gpu_check_run(gpu, ms, e, 1, 0, &r) == VKS_OK);
        if (f == VKS_GPU_FAULT_NONE)
            CHECK(r.pass);
        else
            CHECK(!r.pass && r.pos[0].over > 0);
        CHECK_EQ_INT(vks_gpu_validation_messages(gpu), 0);
        vks_gpu_models_free(ms);
        vks_gpu_destroy(gpu);
    }
    vks_skin_free(s);
    return vks_test_finish("test_gpu_faults");
}
