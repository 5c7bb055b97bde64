/* Layered crowd instances (pose.h's rule) in the GPU pose pass against the CPU reference
 * (vks_clip_layers_locals_d, double), with the validation layer on: one to four layers of
 * clips of every space, normal and additive (deltas from the clip's first frame, or from a
 * reference pose: another clip or a time), masks, a crossfade before, during and after, root
 * motion with and without yaw, mixed with plain clip and procedural instances in the same crowd; times from
 * negative to past the clips' ends. Also: a crowd made without layers refuses a layered
 * instance, bad layers are refused, and weight 0 / 1 of a two-layer blend matches the clip
 * alone; the same crowd with its frames staggered over three slices (the launch shape's
 * slices) gives the very same bits as in turn. Exits 77 where there is no Vulkan device. */
#include "crowd_check.h"
#include "gpu_check.h"
#include "testutil.h"

#include "vkskin/gpu_vulkan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 40, CLIPS = 4, TRACKS = 6 };

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

/* Instance i: its layers (or a plain clip / procedural pose every seventh). */
static void make_instance(uint32_t i, const vks_skin *const *skins, vks_instance *in)
{
    memset(in, 0, sizeof *in);
    in->model = i % 2;
    if (i % 7 == 6) { /* plain ones among the layered */
        in->pose = i % 14 == 6 ? VKS_POSE_CLIP : VKS_POSE_PROCEDURAL;
        in->clip = i % CLIPS, in->clip_start = 0.2f, in->clip_speed = 1, in->seed = i, in->pose_instance = i;
        return;
    }
    in->pose = VKS_POSE_LAYERS;
    in->layer_count = 1 + i % 4;
    for (uint32_t k = 0; k < in->layer_count; k++) {
        vks_instance_layer *y = &in->layers[k];
        y->clip = (i + k) % CLIPS;
        y->start = 0.11f * (float)(i + 3 * k);
        y->speed = k == 2 ? -0.5f : 0.6f + 0.2f * (float)k;
        y->cycle = (vks_cycle)((i / 4 + k) % 4);
        y->weight = 0.25f + 0.5f * (float)((i + k) % 3);
        y->mode = k >= 1 && (i + k) % 3 == 0 ? VKS_LAYER_ADDITIVE : VKS_LAYER_NORMAL;
        if ((i + k) % 5 == 2)
            y->mask = 1 + (3 + i) % skins[in->model]->node_count;
        if (y->mode == VKS_LAYER_ADDITIVE && i % 4 != 0) { /* a reference pose: a clip, a time, both */
            y->reference = i % 4 == 2 ? 0 : 1 + (i + k + 1) % CLIPS;
            y->ref_time = i % 4 == 3 ? 0 : 0.77f * (float)(1 + i % 5); /* past the clips' ends too */
        }
    }
    if (i % 3 == 1 && in->layer_count >= 2) { /* a crossfade from layer 0 to the last */
        in->layers[0].fade = VKS_FADE_OUT;
        in->layers[in->layer_count - 1].fade = VKS_FADE_IN;
        in->fade_start = 0.2f + 0.1f * (float)(i % 5);
        in->fade_duration = i % 6 == 1 ? 0.0f : 0.8f;
    }
    in->root_motion = i % 5 == 3 ? VKS_ROOT_MOTION_Y_UP : i % 5 == 4 ? VKS_ROOT_MOTION_Z_UP : 0;
    if (in->root_motion && i % 10 >= 5) /* every other one takes the turn out too */
        in->root_motion |= VKS_ROOT_MOTION_YAW;
    if (i % 6 == 1) {
        float t[3] = {0.3f * (float)i, 0, -1}, q[4], s[3] = {1, 1, 1};
        quat(q, 0, 1, 0, 0.2f * (float)i);
        in->root = vks_affine_from_trs(t, q, s);
    }
}

/* Crowd layer y as the reference's layer on model m's bindings. */
static vks_clip_layer clip_layer_of(const vks_instance_layer *y, vks_clip_binding bind[2][CLIPS], uint32_t m)
{
    vks_clip_layer o = {0};
    o.play = (vks_clip_play){&clips[y->clip], &bind[m][y->clip], y->start, y->speed, (int)y->cycle};
    o.weight = y->weight, o.mode = y->mode, o.fade = y->fade, o.mask = y->mask;
    if (y->reference)
        o.ref_clip = &clips[y->reference - 1], o.ref_binding = &bind[m][y->reference - 1];
    o.ref_time = y->ref_time;
    return o;
}

/* The reference locals of instance in at time T. */
static void reference_locals(const vks_instance *in, const vks_skin *s, vks_clip_binding bind[2][CLIPS],
                             float T, vks_affine *out)
{
    if (in->pose == VKS_POSE_CLIP) {
        vks_clip_play play = {&clips[in->clip], &bind[in->model][in->clip], in->clip_start, in->clip_speed,
                              (int)in->clip_cycle};
        vks_clip_sample_locals_d(play.clip, play.binding, s, vks_clip_play_time(&play, T), out);
        return;
    }
    vks_clip_layers l = {0};
    l.count = in->layer_count;
    l.fade_start = in->fade_start, l.fade_duration = in->fade_duration, l.root_motion = in->root_motion;
    for (uint32_t k = 0; k < in->layer_count; k++)
        l.layer[k] = clip_layer_of(&in->layers[k], bind, in->model);
    vks_clip_layers_locals_d(&l, s, T, out);
}

/* Reference poses the crowd refuses: on a normal layer, past the clips, at a negative time. */
static void check_bad_references(vks_crowd *crowd, const vks_instance *good)
{
    vks_error err = {0};
    vks_instance bad = *good;
    bad.layers[0].mode = VKS_LAYER_NORMAL, bad.layers[0].reference = 1; /* a reference on a normal layer */
    CHECK_EQ_INT(vks_crowd_set_instance(crowd, 0, &bad, &err), VKS_ERR_INVALID);
    bad = *good;
    bad.layers[0].mode = VKS_LAYER_ADDITIVE, bad.layers[0].reference = CLIPS + 1; /* past the clips */
    CHECK_EQ_INT(vks_crowd_set_instance(crowd, 0, &bad, &err), VKS_ERR_INVALID);
    bad.layers[0].reference = 1, bad.layers[0].ref_time = -0.5f;
    CHECK_EQ_INT(vks_crowd_set_instance(crowd, 0, &bad, &err), VKS_ERR_INVALID);
    bad.layers[0].ref_time = 0.5f; /* and one that is fine */
    CHECK_EQ_INT(vks_crowd_set_instance(crowd, 0, &bad, &err), VKS_OK);
    CHECK_EQ_INT(vks_crowd_set_instance(crowd, 0, good, &err), VKS_OK);
}

/* How many instances of in name a reference pose that changes their pose (the reference
 * poses matter); locals: room for two instances' locals. */
static int count_referenced(const vks_instance *in, const vks_skin *const *skins,
                            vks_clip_binding bind[2][CLIPS], vks_affine *locals)
{
    int referenced = 0;
    for (uint32_t i = 0; i < N; i++) {
        int any = 0;
        vks_instance plain_ref = in[i];
        for (uint32_t k = 0; k < plain_ref.layer_count; k++) {
            any |= plain_ref.layers[k].reference || plain_ref.layers[k].ref_time != 0;
            plain_ref.layers[k].reference = 0, plain_ref.layers[k].ref_time = 0;
        }
        if (!any || in[i].pose != VKS_POSE_LAYERS)
            continue;
        reference_locals(&in[i], skins[in[i].model], bind, 0.6f, locals);
        reference_locals(&plain_ref, skins[in[i].model], bind, 0.6f, locals + 64);
        double moved = 0;
        for (uint32_t n = 0; n < skins[in[i].model]->node_count; n++)
            for (int e = 0; e < 12; e++)
                moved = fmax(moved, fabs((double)locals[n].m[e] - locals[64 + n].m[e]));
        referenced += moved > 1e-3;
    }
    fprintf(stderr, "%d instances with a reference pose that changes it\n", referenced);
    return referenced;
}

/* The library's count of a crowd's stagger (gpu/vulkan/vk_shared.h). */
uint32_t vks__crowd_slice_count(const vks_crowd *c);

/* A context under the test's launch shape (VKS_TEST_LAUNCH_SHAPE, tests/crowd.cmake) with the
 * stagger set to `slices` (slice_min 2: a 40-instance crowd is cut on lavapipe too). */
static vks_gpu *staggered_context(const char *slices, char *spec, size_t n)
{
    const char *base = getenv("VKS_TEST_LAUNCH_SHAPE");
    int has = base && strstr(base, "slice") != NULL; /* a variant that staggers already: its own */
    snprintf(spec, n, "%s%s%s", base && !has ? base : "", base && !has ? "," : "", slices);
    return gpu_check_context_opt(&(vks_gpu_options){.launch_shape = spec});
}

/* The same crowd (clips of every space, layers, root motion, procedural instances; two models
 * in runs that cross the slices' bounds) recorded with the pose and deform passes staggered
 * over three slices and in turn: the very same bits, positions, normals and root motion,
 * frame after frame (the stagger changes which dispatch computes an instance, never how). */
static void staggered_same_bits(vks_gpu *main_gpu, vks_gpu_models *main_ms, vks_gpu_clips *main_gc,
                                const vks_skin *const *skins, const vks_clip *const *cp, const vks_instance *in)
{
    /* once with each pose pass (serial on lavapipe, and its nodes variant): the test's other
       registrations (tests/crowd.cmake) would only repeat it, at a context more each */
    const char *shape = getenv("VKS_TEST_LAUNCH_SHAPE"), *apart = getenv("VKSKIN_TEST_SEPARATE_READBACK");
    if ((shape && strcmp(shape, "pose=nodes") != 0) || (apart && *apart && strcmp(apart, "0") != 0))
        return;
    /* in turn: the test's own context (its 40 instances are under any table row's slice_min);
       staggered: one more, over three slices */
    char spec[256];
    vks_gpu *gpu[2] = {main_gpu, staggered_context("slices=3,slice_min=2", spec, sizeof spec)};
    vks_gpu_models *ms[2] = {main_ms, NULL};
    vks_gpu_clips *gc[2] = {main_gc, NULL};
    vks_crowd *crowd[2] = {0};
    vks_error err = {0};
    CHECK(vks_gpu_upload(gpu[1], skins, 2, &ms[1], &err) == VKS_OK);
    CHECK(vks_gpu_upload_clips(gpu[1], ms[1], skins, cp, CLIPS, &gc[1], &err) == VKS_OK);
    for (int w = 0; w < 2; w++) {
        vks_crowd_desc d = {.models = ms[w], .instances = in, .instance_count = N, .clips = gc[w]};
        CHECK(vks_crowd_create(gpu[w], &d, &crowd[w], &err) == VKS_OK);
    }
    float *pos[2] = {0}, *nrm[2] = {0}, motion[2][N * 4];
    size_t floats = 0;
    for (uint32_t i = 0; i < N; i++)
        floats += (size_t)skins[in[i].model]->vertex_count * 3;
    if (crowd[0] && crowd[1]) {
        fprintf(stderr, "the stagger: '%s' in %u slice(s) against the test's context in %u\n", spec,
                vks__crowd_slice_count(crowd[1]), vks__crowd_slice_count(crowd[0]));
        CHECK_EQ_INT(vks__crowd_slice_count(crowd[0]), 1);
        CHECK_EQ_INT(vks__crowd_slice_count(crowd[1]), 3);
        for (int w = 0; w < 2; w++)
            pos[w] = malloc(floats * sizeof(float)), nrm[w] = malloc(floats * sizeof(float));
    }
    const float times[3] = {0.37f, 1.9f, 41.0f};
    for (int k = 0; k < 3 && pos[0] && pos[1] && nrm[0] && nrm[1]; k++) {
        for (int w = 0; w < 2; w++) {
            if (k < 2)
                CHECK(vks_crowd_run_frame(crowd[w], times[k], NULL, &err) == VKS_OK);
            else /* two frames in one command buffer: the stagger across the frames' barriers */
                CHECK(vks_crowd_run_frames(crowd[w], times + 1, 2, NULL, &err) == VKS_OK);
            CHECK(vks_crowd_read(crowd[w], 0, N, pos[w], nrm[w], &err) == VKS_OK);
            CHECK(vks_crowd_read_root_motion_yaw(crowd[w], 0, N, motion[w], &err) == VKS_OK);
        }
        CHECK(memcmp(pos[0], pos[1], floats * sizeof(float)) == 0);
        CHECK(memcmp(nrm[0], nrm[1], floats * sizeof(float)) == 0);
        CHECK(memcmp(motion[0], motion[1], sizeof motion[0]) == 0);
    }
    for (int w = 0; w < 2; w++) {
        free(pos[w]), free(nrm[w]);
        vks_crowd_destroy(crowd[w]);
    }
    vks_gpu_clips_free(gc[1]);
    vks_gpu_models_free(ms[1]);
    CHECK_EQ_INT(vks_gpu_validation_messages(gpu[1]), 0);
    vks_gpu_destroy(gpu[1]);
}

int main(void)
{
    vks_gpu *gpu = gpu_check_context_opt(&(vks_gpu_options){0});
    vks_skin *a = gpu_check_character(2000, 32, 4, 12, 1);
    vks_skin *b = gpu_check_character(900, 40, 2, 20, 3);
    if (!a || !b)
        return vks_test_finish("test_gpu_layers");
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
        return vks_test_finish("test_gpu_layers");
    }
    static vks_instance in[N];
    for (uint32_t i = 0; i < N; i++)
        make_instance(i, skins, &in[i]);
    vks_clip_binding bind[2][CLIPS];
    for (int m = 0; m < 2; m++)
        for (int c = 0; c < CLIPS; c++)
            CHECK(vks_clip_bind(&clips[c], skins[m], &bind[m][c], &err) == VKS_OK);

    vks_crowd *crowd = NULL;
    vks_crowd_desc d = {.models = ms, .instances = in, .instance_count = N, .clips = gc};
    CHECK(vks_crowd_create(gpu, &d, &crowd, &err) == VKS_OK);
    if (!crowd)
        fprintf(stderr, "%s\n", err.msg);
    vks_affine *locals = malloc((size_t)N * 64 * sizeof *locals);
    const vks_affine *lp[N];
    const float times[] = {0, 0.37f, 0.6f, 1.9f, 2.0f, 7.3f, -2.1f, 41.0f};
    CHECK(locals && count_referenced(in, skins, bind, locals) >= 3);
    for (size_t k = 0; crowd && locals && k < sizeof times / sizeof times[0]; k++) {
        for (uint32_t i = 0; i < N; i++) {
            lp[i] = in[i].pose == VKS_POSE_PROCEDURAL ? NULL : locals + (size_t)i * 64;
            if (lp[i])
                reference_locals(&in[i], skins[in[i].model], bind, times[k], locals + (size_t)i * 64);
        }
        CHECK(vks_crowd_run_frame(crowd, times[k], NULL, &err) == VKS_OK);
        CHECK(crowd_check(crowd, skins, in, N, times[k], lp, "layers"));
        /* root motion, read back, against the reference's (zeros where there is none): the
           translation alone, and with the yaw */
        float motion[N * 3], motion_yaw[N * 4];
        CHECK(vks_crowd_read_root_motion(crowd, 0, N, motion, &err) == VKS_OK);
        CHECK(vks_crowd_read_root_motion_yaw(crowd, 0, N, motion_yaw, &err) == VKS_OK);
        int moving = 0, turning = 0;
        for (uint32_t i = 0; i < N; i++) {
            double want[3] = {0, 0, 0}, want_yaw = 0;
            if (in[i].pose == VKS_POSE_LAYERS) {
                vks_clip_layers l = {0};
                l.count = in[i].layer_count, l.root_motion = in[i].root_motion;
                l.fade_start = in[i].fade_start, l.fade_duration = in[i].fade_duration;
                for (uint32_t y = 0; y < l.count; y++)
                    l.layer[y] = clip_layer_of(&in[i].layers[y], bind, in[i].model);
                vks_clip_layers_root_motion(&l, skins[in[i].model], times[k], want);
                want_yaw = vks_clip_layers_root_yaw(&l, skins[in[i].model], times[k]);
            }
            for (int c = 0; c < 3; c++) {
                CHECK(fabs(motion[3 * i + c] - want[c]) < 1e-4);
                CHECK(motion_yaw[4 * i + c] == motion[3 * i + c]);
                moving += want[c] != 0;
            }
            /* the same angle (a yaw near a half turn may round to the other side) */
            double dy = remainder((double)motion_yaw[4 * i + 3] - want_yaw, 2 * M_PI);
            if (!(fabs(dy) < 1e-4))
                fprintf(stderr, "instance %u at %g: yaw %.9g, reference %.9g\n", i, (double)times[k],
                        (double)motion_yaw[4 * i + 3], want_yaw);
            CHECK(fabs(dy) < 1e-4);
            CHECK(!(in[i].root_motion & VKS_ROOT_MOTION_YAW) ? motion_yaw[4 * i + 3] == 0.0f : 1);
            turning += fabs(want_yaw) > 1e-3;
        }
        CHECK(turning > 0);
        CHECK(moving > 0);
    }

    /* weight 1 / 0 of a two-layer blend is the clip alone: the layered instance against a plain
       clip instance of the same crowd */
    vks_instance two = in[1], plain = {0};
    two.pose = VKS_POSE_LAYERS, two.layer_count = 2, two.root_motion = 0;
    memset(two.layers, 0, sizeof two.layers);
    two.root = (vks_affine){{0}};
    two.fade_start = two.fade_duration = 0;
    two.layers[0] = (vks_instance_layer){.clip = 0, .start = 0.3f, .speed = 1, .cycle = VKS_CYCLE_LOOP, .weight = 1};
    two.layers[1] = (vks_instance_layer){.clip = 1, .start = 0.9f, .speed = 1, .cycle = VKS_CYCLE_LOOP, .weight = 0};
    plain.model = two.model, plain.pose = VKS_POSE_CLIP, plain.clip = 0, plain.clip_start = 0.3f;
    plain.clip_speed = 1;
    for (int w = 0; crowd && w < 2; w++) {
        if (w == 1) {
            two.layers[0].weight = 0, two.layers[1].weight = 1;
            plain.clip = 1, plain.clip_start = 0.9f;
        }
        CHECK(vks_crowd_set_instance(crowd, 1, &two, &err) == VKS_OK);
        CHECK(vks_crowd_set_instance(crowd, 3, &plain, &err) == VKS_OK);
        CHECK(vks_crowd_run_frame(crowd, 0.77f, NULL, &err) == VKS_OK);
        uint32_t v = skins[two.model]->vertex_count;
        float *p1 = malloc((size_t)v * 12), *p3 = malloc((size_t)v * 12);
        CHECK(vks_crowd_read(crowd, 1, 1, p1, NULL, &err) == VKS_OK);
        CHECK(vks_crowd_read(crowd, 3, 1, p3, NULL, &err) == VKS_OK);
        double worst = 0;
        for (size_t k = 0; p1 && p3 && k < (size_t)v * 3; k++)
            worst = fmax(worst, fabs((double)p1[k] - p3[k]));
        fprintf(stderr, "weight %d of two layers against the clip alone: max %.3g\n", 1 - w, worst);
        CHECK(worst < 1e-4);
        free(p1), free(p3);
    }

    fprintf(stderr, "refused: five layers, a negative weight, a mask past the nodes, a bad reference pose, yaw "
                    "without an up axis, a layered instance in a crowd made without layers\n");
    vks_instance bad = in[0];
    bad.layer_count = 5;
    CHECK_EQ_INT(vks_crowd_set_instance(crowd, 0, &bad, &err), VKS_ERR_INVALID);
    bad = in[0];
    bad.layers[0].weight = -1;
    CHECK_EQ_INT(vks_crowd_set_instance(crowd, 0, &bad, &err), VKS_ERR_INVALID);
    bad = in[0];
    bad.layers[0].mask = 1000;
    CHECK_EQ_INT(vks_crowd_set_instance(crowd, 0, &bad, &err), VKS_ERR_INVALID);
    check_bad_references(crowd, &in[0]);
    bad = in[0];
    bad.root_motion = VKS_ROOT_MOTION_YAW; /* yaw about no up axis */
    CHECK_EQ_INT(vks_crowd_set_instance(crowd, 0, &bad, &err), VKS_ERR_INVALID);
    vks_crowd *flat = NULL;
    vks_crowd_desc fd = {.models = ms, .instances = &plain, .instance_count = 1, .clips = gc};
    CHECK(vks_crowd_create(gpu, &fd, &flat, &err) == VKS_OK);
    if (flat)
        CHECK_EQ_INT(vks_crowd_set_instance(flat, 0, &in[0], &err), VKS_ERR_INVALID);
    vks_crowd_destroy(flat);
    CHECK_EQ_INT(vks_gpu_validation_messages(gpu), 0);

    free(locals);
    for (int m = 0; m < 2; m++)
        for (int c = 0; c < CLIPS; c++)
            vks_clip_binding_free(&bind[m][c]);
    staggered_same_bits(gpu, ms, gc, skins, cp, in);
    vks_crowd_destroy(crowd);
    vks_gpu_clips_free(gc);
    vks_gpu_models_free(ms);
    vks_gpu_destroy(gpu);
    vks_skin_free(a), vks_skin_free(b);
    return vks_test_finish("test_gpu_layers");
}
