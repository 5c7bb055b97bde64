/* Layered playback on the CPU (pose.h's vks_clip_layers; the rule is written there): every
 * layer's local split into T, R, S, normal layers blended with renormalised weights, additive
 * deltas from each one's reference pose on top, in double. compute/layers.glsl takes the same
 * steps in float. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "clip_layers_internal.h"
#include "vkskin/clip.h"

#include "vkskin/clip_sample.h"
#include "vkskin/clip_layers.h"
#include "vkskin/clip_root_motion.h"
float vks_clip_fade_ramp(float fade_start, float fade_duration, float T)
{
    if (!(fade_duration > 0.0f) || !isfinite(fade_duration))
        return T >= fade_start ? 1.0f : 0.0f;
    float x = (T - fade_start) / fade_duration;
    x = x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
    return x * x * (3.0f - 2.0f * x);
}

float vks_clip_layer_weight(const vks_clip_layers *l, uint32_t k, float T)
{
    const vks_clip_layer *y = &l->layer[k];
    float w = y->weight;
    if (y->mode == VKS_LAYER_ADDITIVE && w > VKS_MAX_ADDITIVE_WEIGHT)
        w = VKS_MAX_ADDITIVE_WEIGHT;
    if (y->fade != VKS_FADE_NONE) {
        float s = vks_clip_fade_ramp(l->fade_start, l->fade_duration, T);
        w *= y->fade == VKS_FADE_IN ? s : 1.0f - s;
    }
    /* a subnormal weight is one a GPU may flush to 0: 0 here too, so the engines agree on
       whether the layer takes part */
    return w < FLT_MIN ? 0.0f : w;
}

/* Whether node n is inside the mask (pose.h): the mask's node or below it. */
static int in_mask(const vks_skin *skin, uint32_t mask, uint32_t n)
{
    if (mask == 0 || mask > skin->node_count)
        return 1;
    int32_t mask_node = (int32_t)mask - 1;
    for (int32_t k = (int32_t)n; k >= 0; k = skin->nodes[k].parent)
        if (k == mask_node)
            return 1;
    return 0;
}

/* a as translation, unit quaternion (x, y, z, w) and scale: vks_affine_to_trs's rule in double
 * (a reflection carried by a negative x scale; Shepperd's method). */
static void split_trs(const vks_affine_d *a, double t[3], double q[4], double s[3])
{
    double c[3][3];
    for (int k = 0; k < 3; k++) {
        const double *col = a->m + 3 * k;
        double len = sqrt(col[0] * col[0] + col[1] * col[1] + col[2] * col[2]);
        s[k] = len;
        for (int i = 0; i < 3; i++)
            c[k][i] = len > 0 ? col[i] / len : (i == k);
    }
    double det = c[0][0] * (c[1][1] * c[2][2] - c[2][1] * c[1][2]) - c[1][0] * (c[0][1] * c[2][2] - c[2][1] * c[0][2]) +
                 c[2][0] * (c[0][1] * c[1][2] - c[1][1] * c[0][2]);
    if (det < 0) {
        s[0] = -s[0];
        for (int i = 0; i < 3; i++)
            c[0][i] = -c[0][i];
    }
    double m00 = c[0][0], m11 = c[1][1], m22 = c[2][2], tr = m00 + m11 + m22, S;
    if (tr > 0) {
        S = sqrt(tr + 1.0) * 2;
        q[3] = 0.25 * S, q[0] = (c[1][2] - c[2][1]) / S, q[1] = (c[2][0] - c[0][2]) / S, q[2] = (c[0][1] - c[1][0]) / S;
    } else if (m00 > m11 && m00 > m22) {
        S = sqrt(1.0 + m00 - m11 - m22) * 2;
        q[3] = (c[1][2] - c[2][1]) / S, q[0] = 0.25 * S, q[1] = (c[1][0] + c[0][1]) / S, q[2] = (c[2][0] + c[0][2]) / S;
    } else if (m11 > m22) {
        S = sqrt(1.0 + m11 - m00 - m22) * 2;
        q[3] = (c[2][0] - c[0][2]) / S, q[0] = (c[1][0] + c[0][1]) / S, q[1] = 0.25 * S, q[2] = (c[2][1] + c[1][2]) / S;
    } else {
        S = sqrt(1.0 + m22 - m00 - m11) * 2;
        q[3] = (c[0][1] - c[1][0]) / S, q[0] = (c[2][0] + c[0][2]) / S, q[1] = (c[2][1] + c[1][2]) / S, q[2] = 0.25 * S;
    }
    t[0] = a->m[9], t[1] = a->m[10], t[2] = a->m[11];
}

static void normalize4(double q[4])
{
    double l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (l > 0)
        for (int i = 0; i < 4; i++)
            q[i] /= l;
    else
        q[0] = q[1] = q[2] = 0, q[3] = 1;
}

/* a * b (Hamilton; R(a b) = R(a) R(b)) */
static void qmul(const double a[4], const double b[4], double out[4])
{
    double r[4] = {a[3] * b[0] + b[3] * a[0] + a[1] * b[2] - a[2] * b[1],
                   a[3] * b[1] + b[3] * a[1] + a[2] * b[0] - a[0] * b[2],
                   a[3] * b[2] + b[3] * a[2] + a[0] * b[1] - a[1] * b[0],
                   a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
    memcpy(out, r, sizeof r);
}

static vks_affine compose_round(const double t[3], const double q[4], const double s[3])
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
                   2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                   2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)};
    vks_affine a;
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < 3; i++)
            a.m[3 * c + i] = (float)(r[3 * c + i] * s[c]);
    a.m[9] = (float)t[0], a.m[10] = (float)t[1], a.m[11] = (float)t[2];
    return a;
}

int32_t vks_clip_layers_motion_node(const vks_clip_layers *l, const vks_skin *skin)
{
    if (!l || !l->count || !l->layer[0].play.binding)
        return -1;
    const vks_clip_binding *b = l->layer[0].play.binding;
    for (uint32_t n = 0; n < skin->node_count && n < b->node_count; n++)
        if (b->track_of_node[n] >= 0)
            return (int32_t)n;
    return -1;
}

/* Node n's T, R (unit), S under clip (bound by binding) at clip time t: a LOCAL clip's sampled
 * channels over the bind's, directly; a delta clip's local split (the GPU does the same). */
static void clip_trs(const vks_clip *clip, const vks_clip_binding *binding, const vks_skin *skin, uint32_t n,
                     double t, double lt[3], double lq[4], double ls[3])
{
    if (clip->space == VKS_CLIP_LOCAL) {
        double trs[10];
        vks__clip_node_trs_d(clip, binding, n, t, trs);
        memcpy(lt, trs, 3 * sizeof *lt), memcpy(lq, trs + 3, 4 * sizeof *lq), memcpy(ls, trs + 7, 3 * sizeof *ls);
        normalize4(lq);
        return;
    }
    vks_affine_d a = vks__clip_node_local_d(clip, binding, skin, n, t);
    split_trs(&a, lt, lq, ls);
}

static void node_trs(const vks_clip_layer *y, const vks_skin *skin, uint32_t n, double t, double lt[3], double lq[4],
                     double ls[3])
{
    clip_trs(y->play.clip, y->play.binding, skin, n, t, lt, lq, ls);
}

/* Node n's T, R, S in additive layer y's reference pose (pose.h: its own clip's first frame
 * unless the layer names another clip or time). */
static void reference_trs(const vks_clip_layer *y, const vks_skin *skin, uint32_t n, double lt[3], double lq[4],
                          double ls[3])
{
    if (y->ref_clip)
        clip_trs(y->ref_clip, y->ref_binding, skin, n, (double)y->ref_time, lt, lq, ls);
    else
        clip_trs(y->play.clip, y->play.binding, skin, n, (double)y->ref_time, lt, lq, ls);
}

/* The blended T, R, S of node n (steps 1-3 of pose.h's rule); times[k] each layer's clip time. */
static void blend_node(const vks_clip_layers *l, const vks_skin *skin, uint32_t n, const double *times,
                       const float *weights, double t[3], double q[4], double s[3])
{
    double at[3] = {0, 0, 0}, aq[4] = {0, 0, 0, 0}, as[3] = {0, 0, 0}, ref[4] = {0, 0, 0, 0}, wsum = 0, wmax = 0;
    int have_ref = 0;
    for (uint32_t k = 0; k < l->count; k++) {
        const vks_clip_layer *y = &l->layer[k];
        if (y->mode != VKS_LAYER_NORMAL || !(weights[k] > 0) || !in_mask(skin, y->mask, n))
            continue;
        double lt[3], lq[4], ls[3], w = weights[k];
        node_trs(y, skin, n, times[k], lt, lq, ls);
        if (!have_ref)
            memcpy(ref, lq, sizeof ref), have_ref = 1;
        else if (lq[0] * ref[0] + lq[1] * ref[1] + lq[2] * ref[2] + lq[3] * ref[3] < 0)
            for (int i = 0; i < 4; i++)
                lq[i] = -lq[i];
        if (w > wmax) { /* the sums so far in units of the new largest weight (pose.h step 2) */
            double r = wmax / w;
            for (int i = 0; i < 3; i++)
                at[i] *= r, as[i] *= r;
            for (int i = 0; i < 4; i++)
                aq[i] *= r;
            wsum *= r, wmax = w;
        }
        w /= wmax;
        for (int i = 0; i < 3; i++)
            at[i] += w * lt[i], as[i] += w * ls[i];
        for (int i = 0; i < 4; i++)
            aq[i] += w * lq[i];
        wsum += w;
    }
    if (wsum > 0) {
        for (int i = 0; i < 3; i++)
            t[i] = at[i] / wsum, s[i] = as[i] / wsum;
        memcpy(q, aq, 4 * sizeof *q);
        normalize4(q);
    } else {
        vks_affine_d b = vks_affine_d_from(&skin->nodes[n].bind_local);
        split_trs(&b, t, q, s);
    }
    for (uint32_t k = 0; k < l->count; k++) {
        const vks_clip_layer *y = &l->layer[k];
        if (y->mode != VKS_LAYER_ADDITIVE || !(weights[k] > 0) || !in_mask(skin, y->mask, n))
            continue;
        double kt[3], kq[4], ks[3], ft[3], fq[4], fs[3], w = weights[k];
        node_trs(y, skin, n, times[k], kt, kq, ks);
        reference_trs(y, skin, n, ft, fq, fs);
        double inv[4] = {-fq[0], -fq[1], -fq[2], fq[3]}, dq[4];
        qmul(kq, inv, dq);
        if (dq[3] < 0)
            for (int i = 0; i < 4; i++)
                dq[i] = -dq[i];
        for (int i = 0; i < 3; i++)
            dq[i] *= w;
        dq[3] = 1 + w * (dq[3] - 1);
        normalize4(dq);
        qmul(dq, q, q);
        normalize4(q);
        for (int i = 0; i < 3; i++) {
            t[i] += w * (kt[i] - ft[i]);
            if (fabs(fs[i]) >= VKS_MIN_REFERENCE_SCALE) /* a collapsed reference adds nothing */
                s[i] *= 1 + w * (ks[i] / fs[i] - 1);
        }
    }
}

static void layer_times(const vks_clip_layers *l, float T, double *times, float *weights)
{
    for (uint32_t k = 0; k < l->count; k++) {
        const vks_clip_play *p = &l->layer[k].play;
        times[k] = vks_clip_play_time_f(p->clip, (vks_cycle)p->cycle, p->start, p->speed, T);
        weights[k] = vks_clip_layer_weight(l, k, T);
    }
}

/* The up axis's index, or -1. */
static int up_axis(const vks_clip_layers *l)
{
    int up = VKS_ROOT_MOTION_UP(l->root_motion);
    return up == VKS_ROOT_MOTION_Y_UP ? 1 : up == VKS_ROOT_MOTION_Z_UP ? 2 : -1;
}

/* The yaw of rotation q from bind rotation bq about axis up (clip.h's rule: the twist of
 * q bq^-1 about up), in radians; twist gets that turn as a unit quaternion. layers.glsl's
 * root_yaw takes the same steps in float. */
static double root_yaw(const double q[4], const double bq[4], int up, double twist[4])
{
    double inv[4] = {-bq[0], -bq[1], -bq[2], bq[3]}, d[4];
    qmul(q, inv, d);
    double a = d[up], w = d[3], len = sqrt(a * a + w * w);
    twist[0] = twist[1] = twist[2] = 0, twist[3] = 1;
    if (!(len >= VKS_ROOT_YAW_MIN_TWIST)) /* near upside down: the twist is ill-conditioned */
        return 0;
    if (w < 0) /* q and -q are one rotation: the shorter way round */
        a = -a, w = -w;
    twist[up] = a / len, twist[3] = w / len;
    return 2 * atan2(a, w);
}

/* The motion node's bind rotation (what the yaw is measured from). */
static void bind_rotation(const vks_skin *skin, uint32_t n, double bq[4])
{
    double bt[3], bs[3];
    vks_affine_d b = vks_affine_d_from(&skin->nodes[n].bind_local);
    split_trs(&b, bt, bq, bs);
}

void vks_clip_layers_locals_d(const vks_clip_layers *l, const vks_skin *skin, float T, vks_affine *out)
{
    double times[VKS_MAX_LAYERS];
    float weights[VKS_MAX_LAYERS];
    layer_times(l, T, times, weights);
    int32_t motion = up_axis(l) >= 0 ? vks_clip_layers_motion_node(l, skin) : -1;
    for (uint32_t n = 0; n < skin->node_count; n++) {
        double t[3], q[4], s[3];
        blend_node(l, skin, n, times, weights, t, q, s);
        if ((int32_t)n == motion) { /* in place: the ground-plane translation back to the bind's */
            for (int i = 0; i < 3; i++)
                if (i != up_axis(l))
                    t[i] = skin->nodes[n].bind_local.m[9 + i];
            if (l->root_motion & VKS_ROOT_MOTION_YAW) { /* ... and the turn about up taken off */
                double bq[4], tw[4];
                bind_rotation(skin, n, bq);
                root_yaw(q, bq, up_axis(l), tw);
                double inv[4] = {-tw[0], -tw[1], -tw[2], tw[3]};
                qmul(inv, q, q);
                normalize4(q);
            }
        }
        out[n] = compose_round(t, q, s);
    }
}

/* The motion node's blended T, R, S at T; the node, or -1 (nothing filled). */
static int32_t motion_trs(const vks_clip_layers *l, const vks_skin *skin, float T, double t[3], double q[4],
                          double s[3])
{
    int32_t motion = l && up_axis(l) >= 0 ? vks_clip_layers_motion_node(l, skin) : -1;
    if (motion < 0)
        return -1;
    double times[VKS_MAX_LAYERS];
    float weights[VKS_MAX_LAYERS];
    layer_times(l, T, times, weights);
    blend_node(l, skin, (uint32_t)motion, times, weights, t, q, s);
    return motion;
}

void vks_clip_layers_root_track(const vks_clip_layers *l, const vks_skin *skin, float T, double out[4])
{
    out[0] = out[1] = out[2] = out[3] = 0;
    double t[3], q[4], s[3];
    int32_t motion = motion_trs(l, skin, T, t, q, s);
    if (motion < 0)
        return;
    for (int i = 0; i < 3; i++)
        out[i] = i == up_axis(l) ? 0 : t[i] - skin->nodes[motion].bind_local.m[9 + i];
    if (l->root_motion & VKS_ROOT_MOTION_YAW) {
        double bq[4], tw[4];
        bind_rotation(skin, (uint32_t)motion, bq);
        out[3] = root_yaw(q, bq, up_axis(l), tw);
    }
}

void vks_clip_layers_root_motion(const vks_clip_layers *l, const vks_skin *skin, float T, double out[3])
{
    double track[4];
    vks_clip_layers_root_track(l, skin, T, track);
    out[0] = track[0], out[1] = track[1], out[2] = track[2];
}

double vks_clip_layers_root_yaw(const vks_clip_layers *l, const vks_skin *skin, float T)
{
    if (!l || !(l->root_motion & VKS_ROOT_MOTION_YAW))
        return 0; /* without sampling the layers */
    double track[4];
    vks_clip_layers_root_track(l, skin, T, track);
    return track[3];
}
