/* The persistent crowd (crowd.h) against the CPU reference, with the validation layer on (any
 * message fails; ctest also fails on any "vkskin: validation" line):
 *   - procedural instances posed on the GPU match vks_pose_procedural + the reference, for
 *     three models interleaved in runs, several seeds, pose instances and angles, with root
 *     transforms, at times from negative to a thousand seconds (where float32 cycle counts
 *     would drift);
 *   - LOCALS instances follow vks_crowd_set_locals; vks_crowd_set_instance switches sources;
 *   - N frames recorded into one command buffer end at the last frame's time;
 *   - a second frame at another time allocates nothing (vks_gpu_get_counters);
 *   - vks_crowd_read is one submission, or two where the context reads back apart (the
 *     readback queue's copies after the compute queue's semaphore), with the same bits;
 *   - a crowd cut into several parts (a lowered maxStorageBufferRange) matches as well;
 *   - bad descs and calls are refused with a message.
 * Exits 77 where there is no Vulkan device. */
#include "crowd_check.h"
#include "gpu_check.h"
#include "testutil.h"

#include "vkskin/gpu_vulkan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 64 };

static vks_skin *dataset(const char *name)
{
    size_t size = 0;
    uint8_t *bytes = vks_test_read_file(vks_test_source_path(name), &size);
    vks_skin *s = NULL;
    vks_error err = {0};
    CHECK(bytes && vks_read_any(NULL, bytes, size, name, &s, &err) == VKS_OK && vks_skin_validate(s, &err) == VKS_OK);
    free(bytes);
    return s;
}

/* A turn of `angle` about z and a shift, rigid, so normals keep their length. */
static vks_affine root(float angle, float x, float y, float z)
{
    float t[3] = {x, y, z}, q[4] = {0, 0, sinf(angle / 2), cosf(angle / 2)}, s[3] = {1, 1, 1};
    return vks_affine_from_trs(t, q, s);
}

/* Runs of one model (40 of model 0: longer than an instance tile), then the three models
 * interleaved; procedural with varied seeds, pose instances and angles; every 7th posed by the
 * host; some placed by a root. */
static void instances(vks_instance *in, uint32_t n)
{
    memset(in, 0, n * sizeof *in);
    for (uint32_t i = 0; i < n; i++) {
        in[i].model = i < 40 ? 0 : i % 3;
        in[i].pose = i % 7 == 3 ? VKS_POSE_LOCALS : VKS_POSE_PROCEDURAL;
        in[i].seed = 1 + i % 4 + (i % 5 == 0 ? 0x123456789ull << 20 : 0);
        in[i].pose_instance = i * 7 + 3;
        in[i].max_angle = i % 4 == 1 ? 1.2f : 0.0f;
        if (i % 5 == 2)
            in[i].root = root(0.3f * (float)i, 0.1f * (float)i, -0.2f, 0.05f);
    }
}

/* Where the context reads back on a queue apart (a copy engine's, as a discrete GPU's context
 * does without being asked; VKSKIN_TEST_SEPARATE_READBACK takes that path on lavapipe's one
 * queue), vks_crowd_read's copies go there: a submission on the compute queue signalling the
 * semaphore they wait for, and theirs; one submission where it is not. The bits are the same
 * either way (crowd_check against the reference). */
static void read_queue(vks_gpu *gpu, vks_crowd *crowd, const vks_skin *const *skins, const vks_instance *in,
                       const vks_affine *const *locals)
{
    int apart_here = gpu_check_reads_back_apart(gpu);
    fprintf(stderr, "vks_crowd_read %s\n", apart_here ? "on the readback queue, apart" : "in one submission");
    vks_gpu_counters before, after;
    vks_gpu_get_counters(gpu, &before);
    CHECK(crowd_check(crowd, skins, in, N, 33.3f, locals, "read again"));
    vks_gpu_get_counters(gpu, &after);
    CHECK_EQ_INT(after.submissions - before.submissions, apart_here ? 2 : 1);
    CHECK(crowd_check(crowd, skins, in, N, 33.3f, locals, "and once more (the semaphore signalled anew)"));
}

int main(void)
{
    vks_gpu_options o = {0};
    vks_gpu *gpu = gpu_check_context_opt(&o);
    fprintf(stderr, "device: %s (%s)\n", vks_gpu_device(gpu)->name, vks_gpu_device(gpu)->type);
    vks_skin *a = gpu_check_character(2000, 32, 4, 12, 1); /* several groups, 4 influences */
    vks_skin *b = dataset("datasets/char_b24_pl8.dff");
    vks_skin *c = gpu_check_character(900, 40, 2, 20, 3);  /* 2 influences */
    if (!a || !b || !c)
        return vks_test_finish("test_gpu_crowd");
    const vks_skin *skins[3] = {a, b, c};
    vks_gpu_models *ms = NULL;
    vks_error err = {0};
    CHECK(vks_gpu_upload(gpu, skins, 3, &ms, &err) == VKS_OK);

    fprintf(stderr, "refused: a zeroed desc, a bad model, a bad source\n");
    vks_crowd *crowd = NULL;
    vks_crowd_desc d = {0};
    CHECK_EQ_INT(vks_crowd_create(gpu, &d, &crowd, &err), VKS_ERR_INVALID);
    CHECK(crowd == NULL && err.msg[0]);
    static vks_instance in[N];
    instances(in, N);
    d.models = ms, d.instances = in, d.instance_count = N;
    in[5].model = 3;
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(vks_crowd_create(gpu, &d, &crowd, &err), VKS_ERR_INVALID);
    CHECK(strstr(err.msg, "instance 5") != NULL);
    instances(in, N);
    in[6].pose = (vks_pose_kind)9;
    CHECK_EQ_INT(vks_crowd_create(gpu, &d, &crowd, NULL), VKS_ERR_INVALID);
    instances(in, N);

    fprintf(stderr, "a crowd of %u: procedural on the GPU, host locals, roots\n", N);
    CHECK(vks_crowd_create(gpu, &d, &crowd, &err) == VKS_OK);
    CHECK_EQ_INT(vks_crowd_instance_count(crowd), N);
    const vks_affine *locals[N] = {0}; /* LOCALS instances start at the bind pose */
    float *zeros = calloc((size_t)a->vertex_count * 3, sizeof *zeros);
    zeros[7] = 1.0f;
    CHECK(vks_crowd_read(crowd, 0, 1, zeros, NULL, &err) == VKS_OK);
    int all_zero = 1;
    for (uint32_t k = 0; k < a->vertex_count * 3; k++)
        all_zero &= zeros[k] == 0.0f;
    CHECK(all_zero); /* outputs are cleared at creation */
    free(zeros);
    const float times[5] = {0.0f, 0.37f, 12.5f, -3.1f, 1000.25f};
    for (int k = 0; k < 5; k++) {
        CHECK(vks_crowd_run_frame(crowd, times[k], NULL, &err) == VKS_OK);
        CHECK(crowd_check(crowd, skins, in, N, times[k], locals, "one frame"));
    }

    fprintf(stderr, "host locals, and an instance switched to them\n");
    static vks_affine host[N][64];
    for (uint32_t i = 0; i < N; i++) {
        const vks_skin *s = skins[in[i].model];
        CHECK(s->node_count <= 64);
        if (i % 7 == 3 || i == 10) {
            vks_pose_procedural(s, 99, i, 2.0f + (float)i, 0.8f, host[i]);
            CHECK(vks_crowd_set_locals(crowd, i, host[i], &err) == VKS_OK);
            locals[i] = host[i];
        }
    }
    in[10].pose = VKS_POSE_LOCALS;
    in[10].root = root(1.0f, 0.5f, 0.5f, 0.0f);
    CHECK(vks_crowd_set_instance(crowd, 10, &in[10], &err) == VKS_OK);
    CHECK(vks_crowd_run_frame(crowd, 4.5f, NULL, &err) == VKS_OK);
    CHECK(crowd_check(crowd, skins, in, N, 4.5f, locals, "after set_locals"));

    fprintf(stderr, "three frames recorded into one command buffer\n");
    const float three[3] = {7.0f, 0.25f, 33.3f};
    vks_crowd_stats st;
    CHECK(vks_crowd_run_frames(crowd, three, 3, &st, &err) == VKS_OK);
    CHECK_EQ_INT(st.frames, 3);
    CHECK(st.wall_ms > 0);
    CHECK(crowd_check(crowd, skins, in, N, 33.3f, locals, "last of three"));

    fprintf(stderr, "the steady state allocates nothing\n");
    vks_gpu_counters before, after;
    vks_gpu_get_counters(gpu, &before);
    CHECK(vks_crowd_run_frame(crowd, 5.0f, NULL, &err) == VKS_OK);
    CHECK(vks_crowd_run_frames(crowd, three, 3, NULL, &err) == VKS_OK);
    vks_gpu_get_counters(gpu, &after);
    CHECK_EQ_INT(after.memory_allocations, before.memory_allocations);
    CHECK_EQ_INT(after.buffers, before.buffers);
    CHECK_EQ_INT(after.descriptor_sets, before.descriptor_sets);
    CHECK_EQ_INT(after.command_buffers, before.command_buffers);
    CHECK_EQ_INT(after.pipelines, before.pipelines);
    CHECK_EQ_INT(after.submissions, before.submissions + 2);
    /* the pose pipelines of a batch and of a crowd, and one deform pipeline per influence count
     * the uploaded groups have (the models span 1 to 4): made at creation, upload and the
     * crowd's creation, never by a frame */
    CHECK(before.memory_allocations > 0 && before.pipelines >= 3 && before.pipelines <= 6);

    read_queue(gpu, crowd, skins, in, locals);

    fprintf(stderr, "refused: another model for an instance, bad indices, non-finite locals\n");
    vks_instance moved = in[0];
    moved.model = 1;
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(vks_crowd_set_instance(crowd, 0, &moved, &err), VKS_ERR_INVALID);
    CHECK(strstr(err.msg, "fixed") != NULL);
    CHECK_EQ_INT(vks_crowd_set_instance(crowd, N, &in[0], NULL), VKS_ERR_INVALID);
    CHECK_EQ_INT(vks_crowd_set_locals(crowd, N, host[0], NULL), VKS_ERR_INVALID);
    static vks_affine bad[64];
    memcpy(bad, host[3], sizeof bad);
    bad[2].m[4] = 1.0f / 0.0f;
    CHECK_EQ_INT(vks_crowd_set_locals(crowd, 3, bad, NULL), VKS_ERR_INVALID);
    vks_crowd_output out;
    CHECK_EQ_INT(vks_crowd_get_output(crowd, N, &out, NULL), VKS_ERR_INVALID);
    CHECK(vks_crowd_get_output(crowd, 1, &out, &err) == VKS_OK);
    CHECK(out.position.buffer && out.normal.buffer && out.position.stride == 12 && out.vertex_count == a->vertex_count);
    CHECK(out.position.offset == (VkDeviceSize)a->vertex_count * 12 && out.position.format == VK_FORMAT_R32G32B32_SFLOAT);
    CHECK_EQ_INT(vks_crowd_read(crowd, N - 1, 2, NULL, NULL, NULL), VKS_ERR_INVALID);
    vks_crowd_destroy(crowd);
    CHECK_EQ_INT(vks_gpu_validation_messages(gpu), 0);
    vks_gpu_models_free(ms);
    vks_gpu_destroy(gpu);

    fprintf(stderr, "a crowd in several parts (maxStorageBufferRange lowered to 256 KiB)\n");
    gpu = gpu_check_context_testing(&o, &(vks_gpu_testing){.limit_storage_range = 256 << 10});
    CHECK(vks_gpu_upload(gpu, skins, 3, &ms, &err) == VKS_OK);
    d.models = ms;
    in[10].pose = VKS_POSE_PROCEDURAL;
    locals[10] = NULL;
    CHECK(vks_crowd_create(gpu, &d, &crowd, &err) == VKS_OK);
    for (uint32_t i = 0; i < N; i++)
        if (locals[i])
            CHECK(vks_crowd_set_locals(crowd, i, locals[i], &err) == VKS_OK);
    vks_crowd_get_output(crowd, N - 1, &out, NULL);
    vks_crowd_output first;
    vks_crowd_get_output(crowd, 0, &first, NULL);
    CHECK(out.position.buffer != first.position.buffer); /* not one part */
    CHECK(vks_crowd_run_frame(crowd, 2.75f, NULL, &err) == VKS_OK);
    CHECK(crowd_check(crowd, skins, in, N, 2.75f, locals, "in parts"));
    vks_crowd_destroy(crowd);
    CHECK_EQ_INT(vks_gpu_validation_messages(gpu), 0);
    vks_gpu_models_free(ms);
    vks_gpu_destroy(gpu);
    vks_skin_free(a), vks_skin_free(b), vks_skin_free(c);
    return vks_test_finish("test_gpu_crowd");
}
