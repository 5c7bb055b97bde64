/* GPU batch deformer against the CPU reference on generated characters, with the Khronos
 * validation layer on (any message fails): bind pose, procedural poses, 1 and many
 * instances, several models in one batch, a batch forced into many chunks, readback through
 * staging copies; the plain baseline kernel on the same batches; the buffer set kept between
 * runs (a run of a shape already served makes no Vulkan object, a bigger one grows the set
 * once, vks_gpu_trim lets it go); the staged readback in a submission of its own (a copy
 * engine's queue) gives the same bits. Exits 77 where there is no Vulkan device. */
#include "gpu_check.h"
#include "testutil.h"

#include "vkskin/pose.h"

#include <stdlib.h>
#include <string.h>


/* What a staged batch delivered: every float, in delivery order. */
typedef struct sink {
    float *v;
    size_t n, cap;
    uint32_t vertices; /* of the one model */
} sink;

static int keep(void *user, uint32_t entry, uint32_t first, uint32_t count, const float *p, const float *nrm)
{
    (void)entry, (void)first;
    sink *k = user;
    size_t add = (size_t)count * k->vertices * 3;
    if (k->n + 2 * add > k->cap)
        return 1;
    memcpy(k->v + k->n, p, add * sizeof *p), k->n += add;
    memcpy(k->v + k->n, nrm, add * sizeof *nrm), k->n += add;
    return 0;
}

/* A staged batch in several chunks with the readback in one submission and in one of its own
 * (a copy engine's queue where the device has one; VKSKIN_TEST_SEPARATE_READBACK takes that
 * path on lavapipe's one queue): the same bits, one submission more a chunk on a context that
 * reads back apart, the copies timed either way. A device with a copy engine reads back apart
 * in both settings, so there the two runs make as many submissions. */
static void readback_apart(const vks_skin *a)
{
    float *bits[2] = {NULL, NULL};
    uint64_t submissions[2] = {0, 0};
    uint32_t chunks[2] = {0, 0};
    int reads_apart[2] = {0, 0};
    const char *was = getenv("VKSKIN_TEST_SEPARATE_READBACK");
    for (int apart = 0; apart < 2; apart++) {
        setenv("VKSKIN_TEST_SEPARATE_READBACK", apart ? "1" : "0", 1);
        vks_gpu *gpu = gpu_check_context(VKS_GPU_FAULT_NONE, 1);
        reads_apart[apart] = gpu_check_reads_back_apart(gpu);
        vks_error err = {0};
        vks_gpu_models *ms = NULL;
        const vks_skin *one[1] = {a};
        CHECK(vks_gpu_upload(gpu, one, 1, &ms, &err) == VKS_OK);
        enum { I = 7 };
        vks_affine *locals = calloc((size_t)I * a->node_count, sizeof *locals);
        for (uint32_t i = 0; locals && i < I; i++)
            vks_pose_procedural(a, 7, i, 0.5f, 0, locals + (size_t)i * a->node_count);
        sink k = {calloc((size_t)I * a->vertex_count * 6, sizeof(float)), 0, (size_t)I * a->vertex_count * 6,
                  a->vertex_count};
        vks_gpu_batch_entry e = {0, I, locals};
        vks_gpu_batch b = {0};
        b.entries = &e, b.entry_count = 1, b.deliver = keep, b.user = &k, b.want_normals = 1;
        b.max_chunk_bytes = (uint64_t)a->vertex_count * 12 * 2; /* two instances a chunk */
        vks_gpu_stats st = {0};
        vks_gpu_counters c0, c1;
        vks_gpu_get_counters(gpu, &c0);
        CHECK(locals && k.v && vks_gpu_run(gpu, ms, &b, &st, &err) == VKS_OK);
        vks_gpu_get_counters(gpu, &c1);
        CHECK_EQ_INT(k.n, (size_t)I * a->vertex_count * 6);
        CHECK(st.readback_bytes == (uint64_t)I * a->vertex_count * 24 && st.readback_ms > 0);
        CHECK_EQ_INT(vks_gpu_validation_messages(gpu), 0);
        fprintf(stderr, "readback %s: %u chunks, %llu submissions, %.3f ms copying%s\n", apart ? "apart" : "in one",
                st.chunks, (unsigned long long)(c1.submissions - c0.submissions), st.readback_ms,
                !apart && reads_apart[0] ? " (this device reads back apart without being asked)" : "");
        bits[apart] = k.v, submissions[apart] = c1.submissions - c0.submissions, chunks[apart] = st.chunks;
        free(locals);
        vks_gpu_models_free(ms);
        vks_gpu_destroy(gpu);
    }
    if (was)
        setenv("VKSKIN_TEST_SEPARATE_READBACK", was, 1);
    else
        unsetenv("VKSKIN_TEST_SEPARATE_READBACK");
    CHECK(chunks[0] >= 3 && chunks[0] == chunks[1]);
    CHECK(reads_apart[1]); /* the variable always takes the path apart */
    CHECK_EQ_INT(submissions[1] - submissions[0], (uint64_t)chunks[1] * (uint64_t)(reads_apart[1] - reads_apart[0]));
    CHECK(bits[0] && bits[1] && !memcmp(bits[0], bits[1], (size_t)7 * a->vertex_count * 24));
    free(bits[0]), free(bits[1]);
}

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

    fprintf(stderr, "staging readback in one submission and apart\n");
    readback_apart(a);

    vks_skin_free(a), vks_skin_free(b), vks_skin_free(c);
    return vks_test_finish("test_gpu_batch");
}
