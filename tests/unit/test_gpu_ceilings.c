/* The device's ceilings (vks_gpu_measure_ceilings) and the readback's own timing
 * (vks_gpu_stats.readback_ms / readback_bytes), with the validation layer on: every ceiling
 * measured and positive, the size clipped to what the device allows; a run that reads back
 * through staging copies times them and counts every byte (positions and normals of every
 * vertex-instance); one that reads in place reports no copy. Exits 77 without a device. */
#include "gpu_check.h"
#include "testutil.h"

int main(void)
{
    vks_gpu *gpu = gpu_check_context(VKS_GPU_FAULT_NONE, 0);
    vks_gpu_ceilings c;
    vks_error err = {0};
    CHECK(vks_gpu_measure_ceilings(gpu, 8u << 20, 2, &c, &err) == VKS_OK);
    fprintf(stderr, "fill %.2f GB/s, copy %.2f GB/s, device to host %.2f GB/s on %.1f MB\n",
            c.fill_bytes_per_second / 1e9, c.copy_bytes_per_second / 1e9, c.readback_bytes_per_second / 1e9,
            c.bytes / 1e6);
    CHECK(c.fill_bytes_per_second > 0 && c.copy_bytes_per_second > 0 && c.readback_bytes_per_second > 0);
    CHECK_EQ_INT(c.bytes, 8u << 20);
    CHECK(vks_gpu_measure_ceilings(gpu, 100, 1, &c, &err) == VKS_OK);
    CHECK_EQ_INT(c.bytes, 4096); /* the least it measures */
    CHECK(vks_gpu_measure_ceilings(NULL, 100, 1, &c, &err) == VKS_ERR_INVALID);

    vks_skin *a = gpu_check_character(1200, 24, 4, 12, 9);
    if (!a)
        return vks_test_finish("test_gpu_ceilings");
    const vks_skin *one[1] = {a};
    for (int staging = 0; staging < 2; staging++) {
        vks_gpu *g = staging ? gpu_check_context(VKS_GPU_FAULT_NONE, 1) : gpu;
        vks_gpu_models *ms = NULL;
        CHECK(vks_gpu_upload(g, one, 1, &ms, &err) == VKS_OK);
        gpu_check_result r;
        gpu_check_entry e[1] = {{a, 0, 13, 0, 4}};
        CHECK(ms && gpu_check_run(g, ms, e, 1, (uint64_t)a->vertex_count * 12 * 5, &r) == VKS_OK && r.pass);
        fprintf(stderr, "staging %d: %u chunks, readback %llu bytes in %.3f ms\n", staging, r.stats.chunks,
                (unsigned long long)r.stats.readback_bytes, r.stats.readback_ms);
        if (staging || r.stats.readback_bytes) { /* a discrete GPU copies by default too */
            CHECK_EQ_INT(r.stats.readback_bytes, 13ull * a->vertex_count * 12 * 2);
            CHECK(r.stats.readback_ms > 0);
        } else {
            CHECK(r.stats.readback_ms == 0); /* read in place: nothing copied, nothing timed */
        }
        CHECK_EQ_INT(vks_gpu_validation_messages(g), 0);
        vks_gpu_models_free(ms);
        if (staging)
            vks_gpu_destroy(g);
    }
    vks_skin_free(a);
    vks_gpu_destroy(gpu);
    return vks_test_finish("test_gpu_ceilings");
}
