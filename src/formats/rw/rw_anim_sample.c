/* What the RenderWare and GTA clip writers share: the checks on the clip they are given and
 * the keys of one skin node, sampled from its bound track (rw_anim_internal.h). */
#include "rw_anim_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

vks_result vks__rwa_writer_bind(const vks_clip *clip, const vks_skin *skin, const char *what, vks_clip_binding *b,
                                vks_error *err)
{
    memset(b, 0, sizeof *b);
    if (!clip || !skin)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, what, "a clip and a skin are required");
    if (!isfinite(clip->duration) || clip->duration <= 0)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, what, "clip \"%.40s\": duration %g s, expected > 0",
                             clip->name ? clip->name : "", (double)clip->duration);
    if (clip->space != VKS_CLIP_LOCAL)
        return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, what,
                             "clip \"%.40s\" holds deltas from the bind pose; the format holds local transforms "
                             "(LOCAL clips only)",
                             clip->name ? clip->name : "");
    vks_result r = vks_clip_bind(clip, skin, b, err);
    if (r != VKS_OK)
        return r;
    if (clip->track_count > 0 && b->bound_tracks == 0) {
        vks_clip_binding_free(b);
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, what,
                             "clip \"%.40s\": none of its %u tracks drives a node of the skin",
                             clip->name ? clip->name : "", clip->track_count);
    }
    return VKS_OK;
}

void vks__rwa_node_keys_free(rwa_node_keys *k)
{
    free(k->time);
    free(k->q);
    free(k->t);
    memset(k, 0, sizeof *k);
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

/* Hamilton product a * b (x, y, z, w). */
static void quat_mul(const float a[4], const float b[4], float out[4])
{
    float r[4];
    r[0] = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    r[1] = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    r[2] = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    r[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    memcpy(out, r, sizeof r);
}

static int curve_has_keys(const vks_curve *c) { return c->key_count > 0; }

/* The times at which linear keys reproduce a curve: a LINEAR curve's keys; a STEP curve's keys
 * and an instant before each (the held value, so the ramp lasts RWA_STEP_EDGE); a Hermite or
 * B-spline curve, or any Euler angle curve (angles are not slerped), a grid of rate per
 * second over the clip plus its keys. grid_only: the grid alone (a format whose times are
 * quantised to it). out NULL: only the count. */
#define RWA_STEP_EDGE 1e-4f
static size_t curve_times(const vks_curve *c, int euler, int grid_only, float duration, float rate, float *out)
{
    if (!c->key_count)
        return 0;
    size_t n = 0;
    int grid = grid_only || euler || c->interp == VKS_INTERP_HERMITE || c->interp == VKS_INTERP_BSPLINE;
    if (grid) {
        double want = ceil((double)duration * rate) + 1;
        size_t g = want < (double)(1u << 20) ? (size_t)want : (size_t)1 << 20;
        for (size_t i = 0; i < g; i++, n++)
            if (out) /* i / rate as a float division: k / 120 lands on k / 8, k / 30, ... exactly */
                out[n] = i + 1 == g ? duration : (float)i / rate;
    }
    if (grid_only || c->interp == VKS_INTERP_BSPLINE)
        return n; /* times on the grid only, or no key times */
    for (uint32_t i = 0; i < c->key_count; i++) {
        float t = c->times[i] < 0 ? 0 : c->times[i] > duration ? duration : c->times[i];
        if (out)
            out[n] = t;
        n++;
        if (c->interp == VKS_INTERP_STEP && i > 0) {
            if (out)
                out[n] = t - RWA_STEP_EDGE > c->times[i - 1] ? t - RWA_STEP_EDGE : c->times[i - 1];
            n++;
        }
    }
    return n;
}

static vks_result check_scale(const vks_track *tr, vks_error *err)
{
    const vks_curve *s = &tr->scale;
    if (!s->key_count || !s->values)
        return VKS_OK;
    for (size_t i = 0; i < (size_t)s->key_count * 3; i++)
        if (fabsf(s->values[i] - 1.0f) > 1e-4f)
            return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, tr->node_name,
                                 "the track scales (by %g); RenderWare and GTA clips hold rotation and "
                                 "translation only",
                                 (double)s->values[i]);
    return VKS_OK;
}

vks_result vks__rwa_sample_node(const vks_clip *clip, const vks_track *tr, const float bind_trs[10], float rate,
                                int grid_only, rwa_node_keys *out, vks_error *err)
{
    memset(out, 0, sizeof *out);
    float duration = clip->duration;
    const vks_curve *curves[5] = {NULL};
    if (tr) {
        vks_result r = check_scale(tr, err);
        if (r != VKS_OK)
            return r;
        curves[0] = &tr->translation, curves[1] = &tr->rotation;
        if (!tr->rotation.key_count) /* Euler angles count only without quaternion keys */
            curves[2] = &tr->euler[0], curves[3] = &tr->euler[1], curves[4] = &tr->euler[2];
    }
    size_t n = 2;
    for (int i = 0; i < 5; i++)
        if (curves[i])
            n += curve_times(curves[i], i >= 2, grid_only, duration, rate, NULL);
    float *time = malloc(n * sizeof *time);
    if (!time)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "clip writer", "out of memory for %zu keys", n);
    time[0] = 0, time[1] = duration;
    size_t at = 2;
    for (int i = 0; i < 5; i++)
        if (curves[i])
            at += curve_times(curves[i], i >= 2, grid_only, duration, rate, time + at);
    qsort(time, n, sizeof *time, cmp_float);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || time[i] != time[m - 1])
            time[m++] = time[i];
    out->count = (uint32_t)m;
    out->time = time;
    out->q = malloc(m * sizeof *out->q);
    out->t = malloc(m * sizeof *out->t);
    if (!out->q || !out->t) {
        vks__rwa_node_keys_free(out);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "clip writer", "out of memory for %zu keys", m);
    }
    int has_rot = tr && curve_has_keys(&tr->rotation);
    int has_euler = tr && !has_rot &&
                    (curve_has_keys(&tr->euler[0]) || curve_has_keys(&tr->euler[1]) || curve_has_keys(&tr->euler[2]));
    out->translated = tr && curve_has_keys(&tr->translation);
    for (size_t k = 0; k < m; k++) {
        float *q = out->q[k], *t = out->t[k];
        if (has_rot) {
            vks_curve_sample(&tr->rotation, time[k], q);
        } else if (has_euler) {
            /* R = Rz * Ry * Rx: q = qz * qy * qx (clip.h) */
            float a[3] = {0, 0, 0}, qa[3][4];
            for (int i = 0; i < 3; i++) {
                vks_curve_sample(&tr->euler[i], time[k], &a[i]);
                memset(qa[i], 0, sizeof qa[i]);
                qa[i][i] = sinf(a[i] * 0.5f);
                qa[i][3] = cosf(a[i] * 0.5f);
            }
            float zy[4];
            quat_mul(qa[2], qa[1], zy);
            quat_mul(zy, qa[0], q);
        } else {
            memcpy(q, bind_trs + 3, 4 * sizeof(float));
        }
        float len = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        if (!(len > 0)) {
            q[0] = q[1] = q[2] = 0, q[3] = 1, len = 1;
        }
        for (int i = 0; i < 4; i++)
            q[i] /= len;
        /* keep neighbours in one hemisphere: the same rotation, and slerp takes that arc */
        if (k > 0 && q[0] * out->q[k - 1][0] + q[1] * out->q[k - 1][1] + q[2] * out->q[k - 1][2] +
                             q[3] * out->q[k - 1][3] < 0)
            for (int i = 0; i < 4; i++)
                q[i] = -q[i];
        if (out->translated)
            vks_curve_sample(&tr->translation, time[k], t);
        else
            memcpy(t, bind_trs, 3 * sizeof(float));
        for (int i = 0; i < 3; i++)
            if (!isfinite(t[i]) || !isfinite(q[i]) || !isfinite(q[3])) {
                vks__rwa_node_keys_free(out);
                return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, tr ? tr->node_name : "bind pose",
                                     "a sampled value at %g s is not finite", (double)time[k]);
            }
    }
    return VKS_OK;
}
