/* Clips sampled on the GPU in the crowd's pose pass against the CPU reference posed by the
 * double sampler (vks_clip_sample_locals_d), with the validation layer on: every interpolation
 * kind (step, linear and slerp, Hermite, B-spline, Euler angles), every cycle type, the three
 * clip spaces, per-instance start, speed and root, two models binding the same clips, times
 * from negative to well past the clips' ends. Also: a second frame allocates nothing, bad
 * clip instances are refused, and the pose pass's two variants (serial, by nodes) give the
 * same bits for clips of every space, procedural poses and roots. Exits 77 where there is no
 * Vulkan device. */
#include "crowd_check.h"
#include "gpu_check.h"
#include "testutil.h"

#include "vkskin/gpu_vulkan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 48, CLIPS = 4, TRACKS = 6 };

static float T3[3] = {0, 0.8f, 2}, T4[4] = {0, 0.5f, 1.2f, 2};
static float ROT[3][4], TRANS[4][3], TIN[4][3], TOUT[4][3], SCALE[3][3], EUL[3], BSP[6][4];
static vks_track tracks[CLIPS][TRACKS];
static vks_clip clips[CLIPS];

static vks_curve curve(uint32_t n, uint32_t comps, vks_interp interp, const float *times, const float *values)
{
    vks_curve c = {0};
    c.key_count = n, c.components = comps, c.interp = interp, c.times = times, c.values = values;
    return c;
}

static void quat(float *q, float ax, float ay, float az, float angle)
{
    float l = sqrtf(ax * ax + ay * ay + az * az), s = sinf(angle / 2) / l;
    q[0] = ax * s, q[1] = ay * s, q[2] = az * s, q[3] = cosf(angle / 2);
}

/* Four clips over the nodes of skin a (names), every kind of key among them. */
static void make_clips(const vks_skin *a)
{
    quat(ROT[0], 0, 0, 1, 0.0f), quat(ROT[1], 0.3f, 0.2f, 1, 0.9f), quat(ROT[2], 1, 0, 0.2f, -0.7f);
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < 3; i++)
            TRANS[k][i] = 0.05f * (float)(k * 3 + i) - 0.2f, TIN[k][i] = 0.3f * (float)(i - k),
            TOUT[k][i] = -0.2f * (float)(k + i);
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 3; i++)
            SCALE[k][i] = 1.0f + 0.1f * (float)(k - i);
    EUL[0] = -0.4f, EUL[1] = 0.2f, EUL[2] = 0.8f;
    for (int k = 0; k < 6; k++)
        quat(BSP[k], 0.2f * (float)k - 0.5f, 1, 0.3f, 0.25f * (float)k - 0.6f);
    uint32_t nodes = a->node_count;
    for (int c = 0; c < CLIPS; c++) {
        for (int t = 0; t < TRACKS; t++) {
            vks_track *tr = &tracks[c][t];
            tr->node_name = a->nodes[(1 + t * 5 + c * 3) % nodes].name;
            switch ((t + c) % 4) {
            case 0: /* slerp rotation, Hermite translation */
                tr->rotation = curve(3, 4, VKS_INTERP_LINEAR, T3, ROT[0]);
                tr->translation = curve(4, 3, VKS_INTERP_HERMITE, T4, TRANS[0]);
                tr->translation.in_tangents = TIN[0], tr->translation.out_tangents = TOUT[0];
                break;
            case 1: /* Euler angles, step scale */
                tr->euler[0] = curve(3, 1, VKS_INTERP_LINEAR, T3, EUL);
                tr->euler[2] = curve(3, 1, VKS_INTERP_HERMITE, T3, EUL);
                tr->euler[2].in_tangents = EUL, tr->euler[2].out_tangents = EUL;
                tr->scale = curve(3, 3, VKS_INTERP_STEP, T3, SCALE[0]);
                break;
            case 2: /* B-spline rotation, linear translation */
                tr->rotation = curve(6, 4, VKS_INTERP_BSPLINE, NULL, BSP[0]);
                tr->rotation.start = 0.1f, tr->rotation.stop = 1.9f;
                tr->translation = curve(4, 3, VKS_INTERP_LINEAR, T4, TRANS[0]);
                break;
            default: /* a single key: constant */
                tr->rotation = curve(1, 4, VKS_INTERP_LINEAR, T3, ROT[1]);
                break;
            }
        }
        clips[c] = (vks_clip){.name = "c", .duration = 2, .tracks = tracks[c], .track_count = TRACKS, .root_track = -1};
    }
    clips[2].space = VKS_CLIP_MODEL_DELTA;
    clips[3].space = VKS_CLIP_PARENT_DELTA;
    clips[3].tracks[0].translation = (vks_curve){0}; /* deltas that stay small */
}

/* One crowd of the instances under a launch shape: every vertex at each time, read back. */
static float *crowd_outputs(const char *shape, const vks_skin *const *skins, const vks_instance *in, uint32_t n,
                            const float *times, int nt, size_t floats)
{
    vks_gpu_options opt = {0};
    opt.launch_shape = shape;
    vks_gpu *gpu = gpu_check_context_opt(&opt);
    vks_error err = {0};
    vks_gpu_models *ms = NULL;
    vks_gpu_clips *gc = NULL;
    vks_crowd *crowd = NULL;
    const vks_clip *cp[CLIPS] = {&clips[0], &clips[1], &clips[2], &clips[3]};
    float *out = calloc((size_t)nt * floats * 2 + 1, sizeof *out);
    CHECK(vks_gpu_upload(gpu, skins, 2, &ms, &err) == VKS_OK);
    if (ms)
        CHECK(vks_gpu_upload_clips(gpu, ms, skins, cp, CLIPS, &gc, &err) == VKS_OK);
    vks_crowd_desc d = {.models = ms, .instances = in, .instance_count = n, .clips = gc};
    if (gc)
        CHECK(vks_crowd_create(gpu, &d, &crowd, &err) == VKS_OK);
    for (int k = 0; crowd && out && k < nt; k++) {
        float *pos = out + (size_t)k * floats * 2;
        CHECK(vks_crowd_run_frame(crowd, times[k], NULL, &err) == VKS_OK);
        CHECK(vks_crowd_read(crowd, 0, n, pos, pos + floats, &err) == VKS_OK);
    }
    CHECK_EQ_INT(vks_gpu_validation_messages(gpu), 0);
    vks_crowd_destroy(crowd);
    vks_gpu_clips_free(gc);
    vks_gpu_models_free(ms);
    vks_gpu_destroy(gpu);
    return out;
}

/* The nodes variant composes the same W(p) L(n) of the same floats as the serial one. */
static void variants_agree(const vks_skin *const *skins, const vks_instance *clip_in)
{
    static vks_instance in[N];
    memcpy(in, clip_in, sizeof in);
    for (uint32_t i = 0; i < N; i += 5) { /* procedural ones among the clips */
        in[i].pose = VKS_POSE_PROCEDURAL;
        in[i].seed = 7 + i, in[i].pose_instance = i, in[i].max_angle = i % 2 ? 0.9f : 0.0f;
    }
    size_t floats = 0;
    for (uint32_t i = 0; i < N; i++)
        floats += (size_t)skins[in[i].model]->vertex_count * 3;
    const float times[] = {0.37f, 2.0f, -2.1f, 41.0f};
    float *serial = crowd_outputs("pose=serial", skins, in, N, times, 4, floats);
    float *nodes = crowd_outputs("pose=nodes", skins, in, N, times, 4, floats);
    size_t differ = 0;
    for (size_t k = 0; serial && nodes && k < 4 * floats * 2; k++)
        differ += memcmp(&serial[k], &nodes[k], sizeof *serial) != 0;
    fprintf(stderr, "pose=serial against pose=nodes: %zu of %zu floats differ\n", differ, 4 * floats * 2);
    CHECK(serial && nodes && differ == 0);
    free(serial), free(nodes);
}

int main(void)
{
    vks_gpu *gpu = gpu_check_context_opt(&(vks_gpu_options){0});
    vks_skin *a = gpu_check_character(2000, 32, 4, 12, 1);
    vks_skin *b = gpu_check_character(900, 40, 2, 20, 3);
    if (!a || !b)
        return vks_test_finish("test_gpu_clip");
    const vks_skin *skins[2] = {a, b};
    make_clips(a);
    vks_clip_set set = {.clips = clips, .clip_count = CLIPS};
    vks_error err = {0};
    CHECK(vks_clip_set_validate(&set, &err) == VKS_OK);
    vks_gpu_models *ms = NULL;
    CHECK(vks_gpu_upload(gpu, skins, 2, &ms, &err) == VKS_OK);
    const vks_clip *cp[CLIPS] = {&clips[0], &clips[1], &clips[2], &clips[3]};
    vks_gpu_clips *gc = NULL;
    CHECK(vks_gpu_upload_clips(gpu, ms, skins, cp, CLIPS, &gc, &err) == VKS_OK);
    if (!gc) {
        fprintf(stderr, "%s\n", err.msg);
        return vks_test_finish("test_gpu_clip");
    }

    static vks_instance in[N];
    for (uint32_t i = 0; i < N; i++) {
        in[i].model = i % 2;
        in[i].pose = VKS_POSE_CLIP;
        in[i].clip = (i / 2) % CLIPS;
        in[i].clip_start = 0.13f * (float)i;
        in[i].clip_speed = i % 5 == 4 ? -0.75f : 0.5f + 0.25f * (float)(i % 3);
        in[i].clip_cycle = (vks_cycle)((i / 8) % 4);
        if (i % 6 == 1) {
            float t[3] = {0.3f * (float)i, 0, -1}, q[4], s[3] = {1, 1, 1};
            quat(q, 0, 1, 0, 0.2f * (float)i);
            in[i].root = vks_affine_from_trs(t, q, s);
        }
    }
    /* the per-model bindings the reference poses through */
    vks_clip_binding bind[2][CLIPS];
    for (int m = 0; m < 2; m++)
        for (int c = 0; c < CLIPS; c++)
            CHECK(vks_clip_bind(&clips[c], skins[m], &bind[m][c], &err) == VKS_OK);
    CHECK(bind[0][0].bound_tracks == TRACKS);

    vks_crowd *crowd = NULL;
    vks_crowd_desc d = {.models = ms, .instances = in, .instance_count = N, .clips = gc};
    CHECK(vks_crowd_create(gpu, &d, &crowd, &err) == VKS_OK);
    vks_affine *locals = malloc((size_t)N * 64 * sizeof *locals);
    const vks_affine *lp[N];
    const float times[] = {0, 0.37f, 1.9f, 2.0f, 7.3f, -2.1f, 41.0f};
    vks_gpu_counters before = {0}, after = {0};
    for (size_t k = 0; crowd && locals && k < sizeof times / sizeof times[0]; k++) {
        for (uint32_t i = 0; i < N; i++) {
            const vks_skin *s = skins[in[i].model];
            vks_clip_play play = {&clips[in[i].clip], &bind[in[i].model][in[i].clip], in[i].clip_start,
                                  in[i].clip_speed, (int)in[i].clip_cycle};
            vks_clip_sample_locals_d(play.clip, play.binding, s, vks_clip_play_time(&play, times[k]),
                                     locals + (size_t)i * 64);
            lp[i] = locals + (size_t)i * 64;
        }
        if (k == 1)
            vks_gpu_get_counters(gpu, &before);
        CHECK(vks_crowd_run_frame(crowd, times[k], NULL, &err) == VKS_OK);
        if (k == 1)
            vks_gpu_get_counters(gpu, &after);
        CHECK(crowd_check(crowd, skins, in, N, times[k], lp, "clips"));
    }
    /* a frame allocates nothing (it submits, which is counted too) */
    CHECK_EQ_INT(after.memory_allocations, before.memory_allocations);
    CHECK_EQ_INT(after.buffers, before.buffers);
    CHECK_EQ_INT(after.descriptor_sets, before.descriptor_sets);
    CHECK_EQ_INT(after.command_buffers, before.command_buffers);

    fprintf(stderr, "refused: a clip index past the set, a clip instance without clips, a NaN speed\n");
    vks_instance bad = in[0];
    bad.clip = CLIPS;
    CHECK_EQ_INT(vks_crowd_set_instance(crowd, 0, &bad, &err), VKS_ERR_INVALID);
    bad = in[0];
    bad.clip_speed = NAN;
    CHECK_EQ_INT(vks_crowd_set_instance(crowd, 0, &bad, &err), VKS_ERR_INVALID);
    vks_crowd *none = NULL;
    vks_crowd_desc nd = {.models = ms, .instances = in, .instance_count = 1};
    CHECK_EQ_INT(vks_crowd_create(gpu, &nd, &none, &err), VKS_ERR_INVALID);
    CHECK(none == NULL && strstr(err.msg, "clip") != NULL);

    variants_agree(skins, in);

    free(locals);
    for (int m = 0; m < 2; m++)
        for (int c = 0; c < CLIPS; c++)
            vks_clip_binding_free(&bind[m][c]);
    vks_crowd_destroy(crowd);
    vks_gpu_clips_free(gc);
    vks_gpu_models_free(ms);
    vks_gpu_destroy(gpu);
    vks_skin_free(a), vks_skin_free(b);
    return vks_test_finish("test_gpu_clip");
}
