/* Layered playback on the CPU reference (pose.h's rule, src/core/clip_layers.c) against hand-
 * computed values: weight 0 / 1 of a two-layer blend is each clip alone, a 50 % blend of two
 * single-bone clips is the documented rule's value, an additive layer of its own first frame
 * changes nothing, nor one held at its reference pose's time, an additive layer's delta from
 * another clip's pose is that delta by hand, weights at their bounds (float's ends, an additive
 * weight above 1, a faded weight under FLT_MIN, a collapsed reference scale) follow pose.h's
 * rule, a mask keeps a layer off the nodes outside it, a crossfade is continuous
 * at its start and end, and root motion adds up to the clip's own root displacement; with yaw
 * (clip.h's swing-twist rule) the yaw track is the clip's own turn, the pose in place keeps no
 * turn, the yaw adds up to the clip's turn over a cycle, and translation and yaw put back on the
 * in-place pose give the original one; within 3.58 degrees of upside down there is no yaw. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "skin_fixture.h"
#include "testutil.h"

static float times2[2] = {0, 2};

static vks_curve curve(uint32_t n, uint32_t comps, vks_interp interp, const float *times, const float *values)
{
    vks_curve c = {0};
    c.key_count = n, c.components = comps, c.interp = interp, c.times = times, c.values = values;
    return c;
}

static double max_diff(const vks_affine *a, const vks_affine *b, uint32_t n)
{
    double d = 0;
    for (uint32_t k = 0; k < n; k++)
        for (int i = 0; i < 12; i++)
            d = fmax(d, fabs((double)a[k].m[i] - b[k].m[i]));
    return d;
}

/* clip A: node B turns 0 -> 90 degrees about z and moves along x; clip B: node B turns about
 * x and scales; both also rotate node A a little (for the mask). */
static float rot_a[8], rot_b[8], tra_a[6] = {1, 0, 0, 2, 0, 0}, sca_b[6] = {1, 1, 1, 2, 1.5f, 1}, rot_n[8];
static vks_track tr_a[2], tr_b[2];
static vks_clip clip_a, clip_b;

static void make_clips(const vks_skin *skin)
{
    double s = sin(M_PI / 4), c = cos(M_PI / 4);
    float ra[8] = {0, 0, 0, 1, 0, 0, (float)s, (float)c}, rb[8] = {0, 0, 0, 1, (float)sin(0.4), 0, 0, (float)cos(0.4)};
    float rn[8] = {0, 0, 0, 1, 0, (float)sin(0.2), 0, (float)cos(0.2)};
    memcpy(rot_a, ra, sizeof ra), memcpy(rot_b, rb, sizeof rb), memcpy(rot_n, rn, sizeof rn);
    tr_a[0].node_name = skin->nodes[2].name;
    tr_a[0].rotation = curve(2, 4, VKS_INTERP_LINEAR, times2, rot_a);
    tr_a[0].translation = curve(2, 3, VKS_INTERP_LINEAR, times2, tra_a);
    tr_a[1].node_name = skin->nodes[1].name;
    tr_a[1].rotation = curve(2, 4, VKS_INTERP_LINEAR, times2, rot_n);
    tr_b[0].node_name = skin->nodes[2].name;
    tr_b[0].rotation = curve(2, 4, VKS_INTERP_LINEAR, times2, rot_b);
    tr_b[0].scale = curve(2, 3, VKS_INTERP_LINEAR, times2, sca_b);
    tr_b[1] = tr_a[1];
    clip_a = (vks_clip){.name = "a", .duration = 2, .tracks = tr_a, .track_count = 2, .root_track = -1};
    clip_b = (vks_clip){.name = "b", .duration = 2, .tracks = tr_b, .track_count = 2, .root_track = -1};
}

static void hamilton(const double a[4], const double b[4], double out[4]);

static vks_clip_layer layer(const vks_clip *c, const vks_clip_binding *b, float start, float weight)
{
    vks_clip_layer y = {0};
    y.play = (vks_clip_play){c, b, start, 1.0f, VKS_CYCLE_LOOP};
    y.weight = weight;
    return y;
}

/* One layer playing clip (bound to skin into *b, clamped at its ends) from clip time 0. */
static vks_clip_layers one_layer(const vks_clip *clip, const vks_skin *skin, vks_clip_binding *b)
{
    vks_error err = {0};
    CHECK(vks_clip_bind(clip, skin, b, &err) == VKS_OK);
    vks_clip_layers l = {0};
    l.count = 1;
    l.layer[0] = layer(clip, b, 0, 1);
    l.layer[0].play.cycle = VKS_CYCLE_CLAMP;
    return l;
}

static void test_weights_and_rule(const vks_skin *skin, const vks_clip_binding *ba, const vks_clip_binding *bb)
{
    vks_affine got[3], want[3];
    vks_clip_layers l = {0};
    l.count = 2;
    l.layer[0] = layer(&clip_a, ba, 0.3f, 1), l.layer[1] = layer(&clip_b, bb, 0.9f, 0);
    for (float T = 0; T < 3; T += 0.7f) {
        vks_clip_layers_locals_d(&l, skin, T, got);
        vks_clip_sample_locals_d(&clip_a, ba, skin, vks_clip_play_time_f(&clip_a, VKS_CYCLE_LOOP, 0.3f, 1, T), want);
        CHECK(max_diff(got, want, 3) < 1e-6);
    }
    l.layer[0].weight = 0, l.layer[1].weight = 2.5f; /* renormalised: 2.5 alone is 1 */
    for (float T = 0; T < 3; T += 0.7f) {
        vks_clip_layers_locals_d(&l, skin, T, got);
        vks_clip_sample_locals_d(&clip_b, bb, skin, vks_clip_play_time_f(&clip_b, VKS_CYCLE_LOOP, 0.9f, 1, T), want);
        CHECK(max_diff(got, want, 3) < 1e-6);
    }
    /* 50 %: at clip time 2, A is 90 degrees about z with t = (2, 0, 0) and B 0.8 rad about x
       with scale (2, 1.5, 1) over B's bind translation (1, 0, 0): the rule gives
       q = normalise(qa + qb), t = (1.5, 0, 0), s = (1.5, 1.25, 1) */
    l.layer[0] = layer(&clip_a, ba, 2, 1), l.layer[1] = layer(&clip_b, bb, 2, 1);
    l.layer[0].play.speed = l.layer[1].play.speed = 0;
    l.layer[0].play.cycle = l.layer[1].play.cycle = VKS_CYCLE_CLAMP;
    vks_clip_layers_locals_d(&l, skin, 0, got);
    double qa[4] = {0, 0, sin(M_PI / 4), cos(M_PI / 4)}, qb[4] = {sin(0.4), 0, 0, cos(0.4)}, q[4], len = 0;
    for (int i = 0; i < 4; i++)
        q[i] = qa[i] + qb[i], len += q[i] * q[i];
    for (int i = 0; i < 4; i++)
        q[i] /= sqrt(len);
    float t[3] = {1.5f, 0, 0}, qf[4] = {(float)q[0], (float)q[1], (float)q[2], (float)q[3]}, s[3] = {1.5f, 1.25f, 1};
    vks_affine w = vks_affine_from_trs(t, qf, s);
    CHECK(max_diff(&got[2], &w, 1) < 1e-6);
    /* the same with B's quaternion stored negated: hemisphere alignment gives the same value */
    float neg[8];
    for (int i = 0; i < 8; i++)
        neg[i] = -rot_b[i];
    tr_b[0].rotation.values = neg;
    vks_affine again[3];
    vks_clip_layers_locals_d(&l, skin, 0, again);
    CHECK(max_diff(&again[2], &w, 1) < 1e-6);
    tr_b[0].rotation.values = rot_b;
}

/* Weights at their bounds (issue 37, pose.h): normal weights blend alike at any finite scale,
 * an additive weight above VKS_MAX_ADDITIVE_WEIGHT counts as it, a faded weight under FLT_MIN
 * is 0, and a reference scale under VKS_MIN_REFERENCE_SCALE (a collapsed reference) adds no
 * scale on its axis. */
static void test_weight_bounds(const vks_skin *skin, const vks_clip_binding *ba, const vks_clip_binding *bb)
{
    vks_affine got[3], want[3];
    vks_clip_layers l = {0};
    l.count = 2;
    l.layer[0] = layer(&clip_a, ba, 0.7f, 1), l.layer[1] = layer(&clip_b, bb, 1.1f, 1);
    vks_clip_layers_locals_d(&l, skin, 0.4f, want);
    const float ends[2] = {1e-25f, 3e38f};
    for (int e = 0; e < 2; e++) {
        l.layer[0].weight = l.layer[1].weight = ends[e];
        vks_clip_layers_locals_d(&l, skin, 0.4f, got);
        CHECK(max_diff(got, want, 3) < 1e-6);
    }
    l.layer[0].weight = 1, l.layer[1].weight = 1, l.layer[1].mode = VKS_LAYER_ADDITIVE;
    vks_clip_layers_locals_d(&l, skin, 0.4f, want);
    l.layer[1].weight = 7;
    vks_clip_layers_locals_d(&l, skin, 0.4f, got);
    CHECK(max_diff(got, want, 3) < 1e-6);
    CHECK(vks_clip_layer_weight(&l, 1, 0) == VKS_MAX_ADDITIVE_WEIGHT);
    l.layer[0].weight = FLT_MIN / 4; /* subnormal: a GPU may flush it, so every engine does */
    CHECK(vks_clip_layer_weight(&l, 0, 0) == 0);
    l.layer[0].weight = 1e-25f, l.layer[0].fade = VKS_FADE_IN, l.fade_start = 0, l.fade_duration = 1;
    CHECK(vks_clip_layer_weight(&l, 0, 5.8e-8f) == 0); /* 1e-25 x a ramp of about 1e-14 */
    CHECK(vks_clip_layer_weight(&l, 0, 0.5f) == 0.5e-25f);

    /* clip C: node B's x scale from 1e-30 to 1; additive over the bind pose at clip time 2,
       from its first frame: a collapsed reference, so no scale is added (not 1e30) */
    static float sca_c[6] = {1e-30f, 1, 1, 1, 1, 1};
    vks_track tc = {.node_name = skin->nodes[2].name, .scale = curve(2, 3, VKS_INTERP_LINEAR, times2, sca_c)};
    vks_clip clip_c = {.name = "c", .duration = 2, .tracks = &tc, .track_count = 1, .root_track = -1};
    vks_clip_binding bc;
    vks_error err = {0};
    CHECK(vks_clip_bind(&clip_c, skin, &bc, &err) == VKS_OK);
    vks_clip_layers a = {0};
    a.count = 1;
    a.layer[0] = layer(&clip_c, &bc, 2, 1);
    a.layer[0].mode = VKS_LAYER_ADDITIVE, a.layer[0].play.speed = 0, a.layer[0].play.cycle = VKS_CYCLE_CLAMP;
    vks_clip_layers_locals_d(&a, skin, 0, got);
    for (uint32_t n = 0; n < 3; n++)
        want[n] = skin->nodes[n].bind_local;
    CHECK(max_diff(got, want, 3) < 1e-6);
    vks_clip_binding_free(&bc);
}

static void test_additive_and_mask(const vks_skin *skin, const vks_clip_binding *ba, const vks_clip_binding *bb)
{
    vks_affine got[3], want[3];
    vks_clip_layers l = {0};
    l.count = 2;
    l.layer[0] = layer(&clip_a, ba, 0.3f, 1);
    l.layer[1] = layer(&clip_b, bb, 0, 0.8f); /* clip B's first frame, held: adds nothing */
    l.layer[1].mode = VKS_LAYER_ADDITIVE;
    l.layer[1].play.speed = 0;
    for (float T = 0; T < 3; T += 0.7f) {
        vks_clip_layers_locals_d(&l, skin, T, got);
        vks_clip_sample_locals_d(&clip_a, ba, skin, vks_clip_play_time_f(&clip_a, VKS_CYCLE_LOOP, 0.3f, 1, T), want);
        CHECK(max_diff(got, want, 3) < 1e-6);
    }
    /* additive at clip time 2 over the bind pose (no normal layer): B's delta, weight 1 */
    l.count = 1;
    l.layer[0] = l.layer[1];
    l.layer[0].weight = 1, l.layer[0].play.start = 2, l.layer[0].play.cycle = VKS_CYCLE_CLAMP;
    vks_clip_layers_locals_d(&l, skin, 0, got);
    vks_clip_sample_locals_d(&clip_b, bb, skin, 2, want);
    CHECK(max_diff(got, want, 3) < 1e-6); /* B's first frame is the bind rotation and scale */
    /* a mask on node B: node A keeps layer 0 alone, node B is the 50 % blend */
    l.count = 2;
    l.layer[0] = layer(&clip_a, ba, 1, 1), l.layer[1] = layer(&clip_b, bb, 1, 1);
    l.layer[1].mask = 2 + 1;
    vks_clip_layers_locals_d(&l, skin, 0, got);
    vks_clip_sample_locals_d(&clip_a, ba, skin, 1, want);
    CHECK(max_diff(&got[1], &want[1], 1) < 1e-6);
    CHECK(max_diff(&got[2], &want[2], 1) > 1e-3);
    l.layer[1].mask = 1 + 1; /* node A and its child B */
    vks_clip_layers_locals_d(&l, skin, 0, got);
    CHECK(max_diff(&got[1], &want[1], 1) < 1e-6); /* both clips turn A alike */
    CHECK(max_diff(&got[2], &want[2], 1) > 1e-3);
}

/* An additive layer's reference pose (pose.h, step 3): its own clip held at its reference time
 * adds nothing; with clip A at 1 s as the reference (node B: 45 degrees about z, t = (1.5, 0,
 * 0), unit scale) clip B at 2 s (0.8 rad about x, scale (2, 1.5, 1), bind t = (1, 0, 0)) over
 * clip A at 2 s (90 degrees about z, t = (2, 0, 0)) gives q = R_x(0.8) R_z(-45) R_z(90),
 * t = (2, 0, 0) + (1, 0, 0) - (1.5, 0, 0), s = (2, 1.5, 1). */
static void test_additive_reference(const vks_skin *skin, const vks_clip_binding *ba, const vks_clip_binding *bb)
{
    vks_affine got[3], want[3];
    vks_clip_layers l = {0};
    l.count = 2;
    l.layer[0] = layer(&clip_a, ba, 0.3f, 1);
    l.layer[1] = layer(&clip_b, bb, 1.3f, 0.8f); /* clip B held at 1.3 s, its reference time */
    l.layer[1].mode = VKS_LAYER_ADDITIVE;
    l.layer[1].play.speed = 0;
    l.layer[1].ref_time = 1.3f;
    for (float T = 0; T < 3; T += 0.7f) {
        vks_clip_layers_locals_d(&l, skin, T, got);
        vks_clip_sample_locals_d(&clip_a, ba, skin, vks_clip_play_time_f(&clip_a, VKS_CYCLE_LOOP, 0.3f, 1, T), want);
        CHECK(max_diff(got, want, 3) < 1e-6);
    }
    l.layer[0] = layer(&clip_a, ba, 2, 1), l.layer[1] = layer(&clip_b, bb, 2, 1);
    l.layer[0].play.speed = l.layer[1].play.speed = 0;
    l.layer[0].play.cycle = l.layer[1].play.cycle = VKS_CYCLE_CLAMP;
    l.layer[1].mode = VKS_LAYER_ADDITIVE;
    l.layer[1].ref_clip = &clip_a, l.layer[1].ref_binding = ba, l.layer[1].ref_time = 1;
    vks_clip_layers_locals_d(&l, skin, 0, got);
    double qx[4] = {sin(0.4), 0, 0, cos(0.4)}, qz[4] = {0, 0, sin(M_PI / 8), cos(M_PI / 8)}, q[4];
    hamilton(qx, qz, q); /* R_z(-45) R_z(90) = R_z(45) */
    float t[3] = {1.5f, 0, 0}, qf[4] = {(float)q[0], (float)q[1], (float)q[2], (float)q[3]}, s[3] = {2, 1.5f, 1};
    vks_affine w = vks_affine_from_trs(t, qf, s);
    CHECK(max_diff(&got[2], &w, 1) < 1e-6);
}

static void test_crossfade(const vks_skin *skin, const vks_clip_binding *ba, const vks_clip_binding *bb)
{
    vks_clip_layers l = {0};
    l.count = 2;
    l.layer[0] = layer(&clip_a, ba, 0, 1), l.layer[1] = layer(&clip_b, bb, 0, 1);
    l.layer[0].fade = VKS_FADE_OUT, l.layer[1].fade = VKS_FADE_IN;
    l.fade_start = 1.0f, l.fade_duration = 0.5f;
    CHECK_NEAR(vks_clip_fade_ramp(1, 0.5f, 1.25f), 0.5, 1e-7);
    CHECK_NEAR(vks_clip_fade_ramp(1, 0.5f, 0.9f), 0, 0);
    CHECK_NEAR(vks_clip_fade_ramp(1, 0.5f, 2), 1, 0);
    CHECK_NEAR(vks_clip_fade_ramp(1, 0, 1), 1, 0); /* a cut */
    vks_affine before[3], after[3], want[3];
    /* before the start: set A alone; from the end on: set B alone */
    vks_clip_layers_locals_d(&l, skin, 0.5f, before);
    vks_clip_sample_locals_d(&clip_a, ba, skin, 0.5, want);
    CHECK(max_diff(before, want, 3) < 1e-6);
    vks_clip_layers_locals_d(&l, skin, 1.75f, after);
    vks_clip_sample_locals_d(&clip_b, bb, skin, 1.75, want);
    CHECK(max_diff(after, want, 3) < 1e-6);
    /* continuous at both ends: a step of 1e-4 s moves the pose by about that much */
    const float ends[2] = {1.0f, 1.5f};
    for (int e = 0; e < 2; e++) {
        vks_clip_layers_locals_d(&l, skin, ends[e] - 1e-4f, before);
        vks_clip_layers_locals_d(&l, skin, ends[e] + 1e-4f, after);
        double d = max_diff(before, after, 3);
        fprintf(stderr, "crossfade end %d: step of 2e-4 s moves the locals %.3g\n", e, d);
        CHECK(d < 2e-3);
    }
}

static void test_root_motion(const vks_skin *skin)
{
    /* node A walks 3 units along x over the clip, and bobs in y */
    static float walk[9] = {0, 0, 0, 1.5f, 0.2f, 0, 3, 0, 0}, t3[3] = {0, 1, 2};
    static vks_track tr;
    tr.node_name = skin->nodes[1].name;
    tr.translation = curve(3, 3, VKS_INTERP_LINEAR, t3, walk);
    vks_clip clip = {.name = "walk", .duration = 2, .tracks = &tr, .track_count = 1, .root_track = 0};
    vks_clip_binding b;
    vks_clip_layers l = one_layer(&clip, skin, &b);
    l.root_motion = VKS_ROOT_MOTION_Y_UP;
    CHECK_EQ_INT(vks_clip_layers_motion_node(&l, skin), 1);
    /* the per-frame steps add up to the clip's own displacement over the cycle */
    double prev[3], sum[3] = {0, 0, 0}, m[3];
    vks_clip_layers_root_motion(&l, skin, 0, prev);
    for (int f = 1; f <= 60; f++) {
        vks_clip_layers_root_motion(&l, skin, (float)f / 30.0f, m);
        for (int i = 0; i < 3; i++)
            sum[i] += m[i] - prev[i], prev[i] = m[i];
    }
    CHECK_NEAR(sum[0], 3.0, 1e-6);
    CHECK_NEAR(sum[1], 0.0, 0); /* up: stays in the pose */
    CHECK_NEAR(sum[2], 0.0, 1e-9);
    /* in place: node A keeps its bind x and z, the bob stays */
    vks_affine got[3];
    vks_clip_layers_locals_d(&l, skin, 1.0f, got);
    CHECK_NEAR(got[1].m[9], skin->nodes[1].bind_local.m[9], 0);
    CHECK_NEAR(got[1].m[11], skin->nodes[1].bind_local.m[11], 0);
    CHECK_NEAR(got[1].m[10], 0.2, 1e-6);
    vks_clip_binding_free(&b);
}

/* q as a float[4] of a rotation by angle about axis (0 x, 1 y, 2 z) */
static void axis_q(int axis, double angle, double q[4])
{
    q[0] = q[1] = q[2] = 0, q[axis] = sin(angle / 2), q[3] = cos(angle / 2);
}

static void hamilton(const double a[4], const double b[4], double out[4])
{
    double r[4] = {a[3] * b[0] + b[3] * a[0] + a[1] * b[2] - a[2] * b[1],
                   a[3] * b[1] + b[3] * a[1] + a[2] * b[0] - a[0] * b[2],
                   a[3] * b[2] + b[3] * a[2] + a[0] * b[1] - a[1] * b[0],
                   a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
    memcpy(out, r, sizeof r);
}

/* The affine of translation t and rotation q (unit scale). */
static vks_affine tr_affine(const double t[3], const double q[4])
{
    float tf[3] = {(float)t[0], (float)t[1], (float)t[2]}, qf[4] = {(float)q[0], (float)q[1], (float)q[2], (float)q[3]};
    return vks_affine_from_trs(tf, qf, (const float[3]){1, 1, 1});
}

static void test_root_yaw(void)
{
    /* node B (bind: one unit along x, turned 0.5 rad about y) turns 0, 45, 90 degrees about y
       on top of a tilt about x, and walks along x and z: keys R_y(theta) R_x(0.3) R_y(0.5), so
       the turn from the bind, q b^-1 = R_y(theta) R_x(0.3), has the twist theta about y */
    vks_skin *skin = vks_fixture_two_bones((const float[3]){0, 0, 0}, 0, 0);
    CHECK(skin != NULL);
    if (!skin)
        return;
    double bq[4], tilt[4], keyq[3][4];
    axis_q(1, 0.5, bq);
    axis_q(0, 0.3, tilt);
    float bt[3] = {1, 0, 0}, bqf[4] = {(float)bq[0], (float)bq[1], (float)bq[2], (float)bq[3]};
    skin->nodes[2].bind_local = vks_affine_from_trs(bt, bqf, (const float[3]){1, 1, 1});
    static float turn[12], walk[9] = {1, 0, 0, 2, 0.1f, 0.5f, 3, 0, 1}, t3[3] = {0, 1, 2};
    for (int k = 0; k < 3; k++) {
        double y[4], yt[4];
        axis_q(1, k * M_PI / 4, y);
        hamilton(y, tilt, yt);
        hamilton(yt, bq, keyq[k]);
        for (int i = 0; i < 4; i++)
            turn[4 * k + i] = (float)keyq[k][i];
    }
    static vks_track tr;
    tr.node_name = skin->nodes[2].name;
    tr.rotation = curve(3, 4, VKS_INTERP_LINEAR, t3, turn);
    tr.translation = curve(3, 3, VKS_INTERP_LINEAR, t3, walk);
    vks_clip clip = {.name = "turn", .duration = 2, .tracks = &tr, .track_count = 1, .root_track = 0};
    vks_clip_binding b;
    vks_clip_layers l = one_layer(&clip, skin, &b);
    l.root_motion = VKS_ROOT_MOTION_Y_UP;
    CHECK_EQ_INT(vks_clip_layers_motion_node(&l, skin), 2);
    CHECK_NEAR(vks_clip_layers_root_yaw(&l, skin, 2.0f), 0.0, 0); /* translation only: no yaw */
    vks_affine plain[3], got[3];
    vks_clip_layers_locals_d(&l, skin, 2.0f, got);
    l.root_motion = VKS_ROOT_MOTION_Y_UP | VKS_ROOT_MOTION_YAW;
    /* at the keys: the yaw is the clip's own turn, and the pose in place keeps the tilt and the
       bind turn only, at the bind's ground point */
    for (int k = 0; k < 3; k++) {
        CHECK_NEAR(vks_clip_layers_root_yaw(&l, skin, (float)k), k * M_PI / 4, 1e-6);
        vks_clip_layers_locals_d(&l, skin, (float)k, got);
        double in_place[4], t[3] = {1, walk[3 * k + 1], 0};
        hamilton(tilt, bq, in_place);
        vks_affine want = tr_affine(t, in_place);
        CHECK(max_diff(&got[2], &want, 1) < 1e-6);
        double m[3];
        vks_clip_layers_root_motion(&l, skin, (float)k, m); /* the translation as without yaw */
        CHECK_NEAR(m[0], walk[3 * k] - 1.0, 1e-6);
        CHECK_NEAR(m[1], 0.0, 0);
        CHECK_NEAR(m[2], walk[3 * k + 2], 1e-6);
    }
    /* the per-frame steps of the yaw add up to the clip's own turn over the cycle */
    double prev = vks_clip_layers_root_yaw(&l, skin, 0), sum = 0;
    for (int f = 1; f <= 60; f++) {
        double y = vks_clip_layers_root_yaw(&l, skin, (float)f / 30.0f);
        sum += y - prev, prev = y;
    }
    CHECK_NEAR(sum, M_PI / 2, 1e-6);
    /* between the keys and for either up axis: (translation, yaw) put back on the in-place
       pose, L = T(g + m) R_up(yaw) T(-g) L', give the pose played without root motion */
    for (int up = 1; up <= 2; up++)
        for (float T = 0.1f; T < 2; T += 0.37f) {
            l.root_motion = 0;
            vks_clip_layers_locals_d(&l, skin, T, plain);
            l.root_motion = up | VKS_ROOT_MOTION_YAW;
            vks_clip_layers_locals_d(&l, skin, T, got);
            double m[3], yq[4], g[3] = {1, 0, 0}, zero[3] = {0, 0, 0}, none[4] = {0, 0, 0, 1}, neg_g[3] = {-1, 0, 0};
            vks_clip_layers_root_motion(&l, skin, T, m);
            double yaw = vks_clip_layers_root_yaw(&l, skin, T);
            CHECK(fabs(yaw) > 0.01 || T < 0.2f); /* it turns */
            axis_q(up, yaw, yq);
            double gm[3] = {g[0] + m[0], g[1] + m[1], g[2] + m[2]};
            vks_affine to = tr_affine(gm, none), turn_up = tr_affine(zero, yq), from = tr_affine(neg_g, none);
            vks_affine a = vks_affine_mul(&to, &turn_up);
            a = vks_affine_mul(&a, &from);
            vks_affine back = vks_affine_mul(&a, &got[2]);
            CHECK(max_diff(&back, &plain[2], 1) < 1e-5);
            CHECK(max_diff(&got[2], &plain[2], 1) > 1e-3); /* and in place differs */
            CHECK(max_diff(got, plain, 2) == 0);          /* the other nodes are untouched */
        }
    vks_clip_binding_free(&b);
    vks_skin_free(skin);
}

/* Yaw near upside down (issue 37, clip.h): a node flipped about a ground axis to within
 * delta of a half turn, with a heading psi, R_y(psi) R_x(pi - delta) b. Outside the band
 * (delta > 2 asin(1/32), 0.0625 rad) the yaw is psi; inside it there is none, and the pose in
 * place keeps the node's rotation as it is, whatever the heading and tilt. */
static void test_root_yaw_upside_down(void)
{
    vks_skin *skin = vks_fixture_two_bones((const float[3]){0, 0, 0}, 0, 0);
    CHECK(skin != NULL);
    if (!skin)
        return;
    double bq[4];
    axis_q(1, 0.5, bq);
    float bt[3] = {1, 0, 0}, bqf[4] = {(float)bq[0], (float)bq[1], (float)bq[2], (float)bq[3]};
    skin->nodes[2].bind_local = vks_affine_from_trs(bt, bqf, (const float[3]){1, 1, 1});
    static float key[4], t1[1] = {0};
    static vks_track tr;
    tr.node_name = skin->nodes[2].name;
    tr.rotation = curve(1, 4, VKS_INTERP_LINEAR, t1, key);
    vks_clip clip = {.name = "flip", .duration = 1, .tracks = &tr, .track_count = 1, .root_track = 0};
    vks_clip_binding b;
    vks_clip_layers l = one_layer(&clip, skin, &b);
    const double deltas[] = {0.2, 0.07, 0.06, 1e-2, 1e-4, 1e-6, 0}, psi = 0.8;
    for (size_t k = 0; k < sizeof deltas / sizeof *deltas; k++) {
        double y[4], x[4], yx[4], q[4];
        axis_q(1, psi, y);
        axis_q(0, M_PI - deltas[k], x);
        hamilton(y, x, yx);
        hamilton(yx, bq, q);
        for (int i = 0; i < 4; i++)
            key[i] = (float)q[i];
        l.root_motion = VKS_ROOT_MOTION_Y_UP | VKS_ROOT_MOTION_YAW;
        double yaw = vks_clip_layers_root_yaw(&l, skin, 0);
        vks_affine in_place[3], plain[3];
        vks_clip_layers_locals_d(&l, skin, 0, in_place);
        l.root_motion = VKS_ROOT_MOTION_Y_UP;
        vks_clip_layers_locals_d(&l, skin, 0, plain);
        if (deltas[k] > 0.0625) {
            CHECK_NEAR(yaw, psi, 1e-5);
        } else {
            CHECK_NEAR(yaw, 0.0, 0);
            CHECK(max_diff(&in_place[2], &plain[2], 1) < 1e-6);
        }
    }
    vks_clip_binding_free(&b);
    vks_skin_free(skin);
}

int main(void)
{
    vks_skin *skin = vks_fixture_two_bones((const float[3]){0, 0, 0}, 0, 0);
    CHECK(skin && skin->node_count == 3);
    if (!skin || skin->node_count != 3)
        return vks_test_finish("test_clip_layers");
    make_clips(skin);
    vks_clip_binding ba, bb;
    vks_error err = {0};
    CHECK(vks_clip_bind(&clip_a, skin, &ba, &err) == VKS_OK);
    CHECK(vks_clip_bind(&clip_b, skin, &bb, &err) == VKS_OK);
    test_weights_and_rule(skin, &ba, &bb);
    test_weight_bounds(skin, &ba, &bb);
    test_additive_and_mask(skin, &ba, &bb);
    test_additive_reference(skin, &ba, &bb);
    test_crossfade(skin, &ba, &bb);
    test_root_motion(skin);
    test_root_yaw();
    test_root_yaw_upside_down();
    vks_clip_binding_free(&ba), vks_clip_binding_free(&bb);
    vks_skin_free(skin);
    return vks_test_finish("test_clip_layers");
}
