/* GPU batch deformer against the CPU reference on generated characters, with the Khronos
 * validation layer on (any message fails): bind pose, procedural poses, 1 and many
 * instances, several models in one batch, a batch forced into many chunks, readback through
 * staging copies; the plain baseline kernel on the same batches; the buffer set kept between
 * runs (a run of a shape already served makes no Vulkan object, a bigger one grows the set
 * once, vks_gpu_trim lets it go). Exits 77 where there is no Vulkan device. */
#include "gpu_check.h"
#include "testutil.h"


int main(void)
{
    vks_gpu *gpu = gpu_check_context(VKS_GPU_FAULT_NONE, 0);
    fprintf(stderr, "device: %s (%s)\n", vks_gpu_device(gpu)->name, vks_gpu_device(gpu)->type);
    vks_skin *a = gpu_check_character(2000, 32, 4, 12, 1); /* several groups, 4 influences */
    vks_skin *b = gpu_check_character(600, 24, 1, 0, 2);   /* one group, rigid */
    vks_skin *c = gpu_check_character(900, 40, 2, 20, 3);  /* 2 influences */
    if (!a || !b || !c)
        return vks_test_finish("test_gpu_batch");
    CHECK(a->group_count > 1);
    const vks_skin *skins[3] = {a, b, c};
    vks_gpu_models *ms = NULL;
    vks_error err = {0};
    CHECK(vks_gpu_upload(gpu, skins, 3, &ms, &err) == VKS_OK);
    gpu_check_result r;

    fprintf(stderr, "bind pose, 1 instance\n");
    gpu_check_entry bind1[1] = {{a, 0, 1, 1, 0}};
    CHECK(gpu_check_run(gpu, ms, bind1, 1, 0, &r) == VKS_OK && r.pass);
    CHECK(r.pos[0].max_rel < 1e-5);
    CHECK_EQ_INT(r.stats.chunks, 1);

    fprintf(stderr, "procedural, 1 and 37 instances\n");
    gpu_check_entry proc[2] = {{a, 0, 1, 0, 7}, {a, 0, 37, 0, 8}};
    CHECK(gpu_check_run(gpu, ms, proc, 2, 0, &r) == VKS_OK && r.pass);
    CHECK(r.pos[1].max_abs > 0 || r.pos[1].nmse >= 0); /* compared something */
    CHECK_EQ_INT(r.pos[1].compared, 37ull * a->vertex_count * 3);

    fprintf(stderr, "three models in one batch\n");
    gpu_check_entry mix[3] = {{a, 0, 5, 0, 11}, {b, 1, 9, 0, 12}, {c, 2, 4, 0, 13}};
    CHECK(gpu_check_run(gpu, ms, mix, 3, 0, &r) == VKS_OK && r.pass);

    fprintf(stderr, "forced into chunks of 3 instances\n");
    gpu_check_entry many[2] = {{a, 0, 20, 0, 21}, {c, 2, 7, 0, 22}};
    CHECK(gpu_check_run(gpu, ms, many, 2, (uint64_t)a->vertex_count * 12 * 3, &r) == VKS_OK && r.pass);
    CHECK(r.stats.chunks >= 8);
    fprintf(stderr, "  %u chunks\n", r.stats.chunks);
    CHECK_EQ_INT(vks_gpu_validation_messages(gpu), 0);

    fprintf(stderr, "the plain baseline kernel: three models, then chunked\n");
    CHECK(gpu_check_run_kernel(gpu, ms, mix, 3, 0, VKS_GPU_KERNEL_PLAIN, &r) == VKS_OK && r.pass);
    CHECK(gpu_check_run_kernel(gpu, ms, many, 2, (uint64_t)a->vertex_count * 12 * 3, VKS_GPU_KERNEL_PLAIN, &r) ==
              VKS_OK &&
          r.pass);
    CHECK(r.stats.chunks >= 8);

    fprintf(stderr, "the steady state: a run of a shape already served makes nothing\n");
    vks_gpu_counters before, after;
    vks_gpu_get_counters(gpu, &before);
    for (int k = 0; k < 2; k++) {
        CHECK(gpu_check_run_kernel(gpu, ms, many, 2, (uint64_t)a->vertex_count * 12 * 3, (vks_gpu_kernel)k, &r) ==
                  VKS_OK &&
              r.pass);
        CHECK_EQ_INT(r.stats.buffers_made, 0);
    }
    CHECK(gpu_check_run(gpu, ms, proc, 2, 0, &r) == VKS_OK && r.pass); /* smaller than the kept set */
    CHECK_EQ_INT(r.stats.buffers_made, 0);
    vks_gpu_get_counters(gpu, &after);
    CHECK(gpu_check_made_nothing(&before, &after));
    CHECK(after.submissions > before.submissions);
    fprintf(stderr, "  a bigger batch grows the kept set once; vks_gpu_trim lets it go\n");
    gpu_check_entry big[1] = {{a, 0, 60, 0, 23}};
    CHECK(gpu_check_run(gpu, ms, big, 1, 0, &r) == VKS_OK && r.pass);
    CHECK(r.stats.buffers_made > 0);
    CHECK(gpu_check_run(gpu, ms, big, 1, 0, &r) == VKS_OK && r.pass);
    CHECK_EQ_INT(r.stats.buffers_made, 0);
    CHECK(gpu_check_run(gpu, ms, many, 2, (uint64_t)a->vertex_count * 12 * 3, &r) == VKS_OK && r.pass);
    CHECK_EQ_INT(r.stats.buffers_made, 0); /* grow-only: the earlier shape still fits */
    vks_gpu_trim(gpu);
    vks_gpu_trim(gpu); /* twice is fine */
    CHECK(gpu_check_run(gpu, ms, mix, 3, 0, &r) == VKS_OK && r.pass);
    CHECK(r.stats.buffers_made > 0);
    CHECK_EQ_INT(r.stats.chunks, 1);
    uint32_t one_set = r.stats.buffers_made; /* a batch in one chunk: one buffer set, no ring */
    vks_gpu_trim(gpu);
    CHECK(gpu_check_run(gpu, ms, many, 2, (uint64_t)a->vertex_count * 12 * 3, &r) == VKS_OK && r.pass);
    CHECK_EQ_INT(r.stats.buffers_made, 2 * one_set);
    CHECK_EQ_INT(vks_gpu_validation_messages(gpu), 0);
    vks_gpu_models_free(ms);
    vks_gpu_destroy(gpu);

    fprintf(stderr, "staging readback, shared-memory palette, chunked\n");
    gpu = gpu_check_context(VKS_GPU_FAULT_NONE, 1);
    CHECK(vks_gpu_upload(gpu, skins, 3, &ms, &err) == VKS_OK);
    gpu_check_entry st[2] = {{b, 1, 10, 0, 31}, {a, 0, 6, 0, 32}};
    CHECK(gpu_check_run(gpu, ms, st, 2, (uint64_t)a->vertex_count * 12 * 2, &r) == VKS_OK && r.pass);
    CHECK(r.stats.chunks >= 3);
    CHECK(gpu_check_run_kernel(gpu, ms, st, 2, (uint64_t)a->vertex_count * 12 * 2, VKS_GPU_KERNEL_PLAIN, &r) ==
              VKS_OK &&
          r.pass);
    gpu_check_entry mix2[3] = {{a, 0, 5, 0, 33}, {b, 1, 9, 0, 34}, {c, 2, 4, 0, 35}}; /* one chunk, blocks staged */
    CHECK(gpu_check_run(gpu, ms, mix2, 3, 0, &r) == VKS_OK && r.pass);
    CHECK_EQ_INT(vks_gpu_validation_messages(gpu), 0);
    vks_gpu_models_free(ms);
    vks_gpu_destroy(gpu);

    vks_skin_free(a), vks_skin_free(b), vks_skin_free(c);
    return vks_test_finish("test_gpu_batch");
}
