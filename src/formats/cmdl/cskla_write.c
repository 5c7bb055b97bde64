/* vks_cskla_write: a clip set bound to a skin as a NintendoWare .cskla document, in the schema
 * cskla_read.c reads (the project's own fixtures: no public sample exists).
 *
 * One SkeletalAnimationData per clip (LOCAL clips only), FrameSize = duration x rate, where
 * the rate is the first clip's fps (0: 30) and key Frames are time x rate, so the file reads
 * back with opt->clip.fps at that rate. LoopMode: LOOP -> Loop, CLAMP and RESET -> OneTime;
 * MIRROR leaves LoopMode out and gives every curve Pre/PostRepeatMethod Mirror over
 * [0, FrameSize], which the reader maps back to the cycle. One MemberAnimationData per skin
 * node a track drives, in node order, Path Bones["<node>"], with one curve per component:
 *   - step, linear and Hermite translation, scale and Euler curves keep their keys, as
 *     StepFloatSegment, LinearFloatSegment and HermiteFloatSegment (slopes = tangent / rate);
 *   - a track's Euler channel is written whole: an angle without keys is a one-key 0 curve
 *     (the clip model's meaning; the reader would otherwise take the Skeleton's base);
 *   - quaternion rotations become three Euler angle curves (R = Rz Ry Rx, radians; each angle
 *     unwrapped to the nearest turn of the key before): stepped keys key by key, the others
 *     (slerp, Hermite, B-spline) as Hermite keys at every frame (opt->frames samples over the
 *     clip when given) and at their own keys (a B-spline's knots), with one-sided slopes from
 *     the double sampler (a slerp's kink at a key stays a kink). B-spline translations, scales
 *     and Euler angles likewise (exact up to the slopes: one cubic between knots).
 *   - curves that resampling finds still (an angle of a turn about one axis) are one key.
 * The <Skeleton> holds every node's bind local (Scale, Euler Rotate, Translate, as the .cmdl
 * writer decomposes it), which the reader uses as the base of components without a curve.
 * Names are the skin's; a name used twice, or holding '"', cannot be a Path and is refused.
 * Numbers are printed under the C locale. */
#include "cskla_internal.h"
#include "core/c_numeric.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CSKLA_WRITE_MAX_SAMPLES (1u << 24) /* resampled keys in one curve */
#define TURN 6.283185307179586476925

typedef struct writer {
    vks_bytebuf b;
    const vks_skin *skin;
    double rate;
    uint32_t frames; /* opt->frames */
    const char *repeat; /* Pre/PostRepeatMethod of every curve */
    float duration;     /* of the clip being written */
    vks_error *err;
} writer;

/* The shortest decimal that reads back as the float want: v itself (scale 0), or v / rate
   (frames to seconds, scale -1) or v * rate (slopes per frame to tangents per second, +1) as
   the reader computes them. */
static void put_number(writer *w, double v, float want, int scale)
{
    char buf[40];
    v += 0.0; /* no "-0" */
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, sizeof buf, "%.*g", digits, v);
        double back = strtod(buf, NULL);
        double got = scale < 0 ? back / w->rate : scale > 0 ? back * w->rate : back;
        if ((float)got == want || digits == 17)
            break;
    }
    vks_buf_printf(&w->b, "%s", buf);
}

/* A key at time t (seconds), value v, tangents per second (Hermite). */
static void put_key(writer *w, int kind, float t, float v, float in, float out)
{
    static const char *const names[3] = {"StepFloatKey", "LinearFloatKey", "HermiteFloatKey"};
    vks_buf_printf(&w->b, "                      <%s Frame=\"", names[kind]);
    put_number(w, (double)t * w->rate, t, -1);
    vks_buf_printf(&w->b, "\" Value=\"");
    put_number(w, v, v, 0);
    if (kind == CSKLA_HERMITE) {
        vks_buf_printf(&w->b, "\" InSlope=\"");
        put_number(w, in / w->rate, in, 1);
        vks_buf_printf(&w->b, "\" OutSlope=\"");
        put_number(w, out / w->rate, out, 1);
    }
    vks_buf_printf(&w->b, "\" />\n");
}

static void curve_open(writer *w, int component, int kind)
{
    static const char *const segs[3] = {"StepFloatSegment", "LinearFloatSegment", "HermiteFloatSegment"};
    vks_buf_printf(&w->b, "              <%cSegmentsFloatCurve StartFrame=\"0\" EndFrame=\"", 'X' + component);
    put_number(w, (double)w->duration * w->rate, w->duration, -1);
    vks_buf_printf(&w->b,
                   "\" PreRepeatMethod=\"%s\" PostRepeatMethod=\"%s\">\n                <Segments>\n"
                   "                  <%s>\n                    <Keys>\n",
                   w->repeat, w->repeat, segs[kind]);
}

static void curve_close(writer *w, int component, int kind)
{
    static const char *const segs[3] = {"StepFloatSegment", "LinearFloatSegment", "HermiteFloatSegment"};
    vks_buf_printf(&w->b, "                    </Keys>\n                  </%s>\n                </Segments>\n"
                          "              </%cSegmentsFloatCurve>\n",
                   segs[kind], 'X' + component);
}

/* Component c of a step, linear or Hermite curve, key by key, as the label's curve (X, Y, Z). */
static void put_keyed(writer *w, const vks_curve *cv, int c, int label)
{
    int kind = (int)cv->interp;
    uint32_t dim = cv->components;
    curve_open(w, label, kind);
    for (uint32_t k = 0; k < cv->key_count; k++) {
        size_t at = (size_t)k * dim + (size_t)c;
        float in = kind == CSKLA_HERMITE ? cv->in_tangents[at] : 0;
        float out = kind == CSKLA_HERMITE ? cv->out_tangents[at] : 0;
        put_key(w, kind, cv->times[k], cv->values[at], in, out);
    }
    curve_close(w, label, kind);
}

/* ---- resampling (quaternions, B-splines) ---- */

/* Euler XYZ angles of a quaternion (x, y, z, w), through the rotation's columns. */
static void quat_euler(const double *q, double e[3])
{
    double x = q[0], y = q[1], z = q[2], s = q[3];
    double l = sqrt(x * x + y * y + z * z + s * s);
    if (l > 0)
        x /= l, y /= l, z /= l, s /= l;
    double c[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y + z * s), 2 * (x * z - y * s)},
                      {2 * (x * y - z * s), 1 - 2 * (x * x + z * z), 2 * (y * z + x * s)},
                      {2 * (x * z + y * s), 2 * (y * z - x * s), 1 - 2 * (x * x + y * y)}};
    vks__cmdl_euler_xyz(c, e);
}

/* The curve's written components at time t: Euler angles for a quaternion curve, each
   unwrapped to the turn nearest near[] when given; else its values. */
static void value_at(const vks_curve *cv, double t, const double *near, double *out)
{
    double v[4];
    vks_curve_sample_d(cv, t, v);
    if (cv->components != 4) {
        memcpy(out, v, sizeof(double) * cv->components);
        return;
    }
    quat_euler(v, out);
    for (int i = 0; near && i < 3; i++)
        out[i] += TURN * nearbyint((near[i] - out[i]) / TURN);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The curve's own key times, or a B-spline's knots (where its cubic pieces meet: between
   them a 1- or 3-component B-spline is one cubic, which Hermite keys at the knots hold). */
static double own_time(const vks_curve *cv, size_t k)
{
    if (cv->interp != VKS_INTERP_BSPLINE)
        return cv->times[k];
    return cv->start + ((double)cv->stop - cv->start) * (double)k / (double)(cv->key_count - 3);
}

/* Sample times: the grid (frames, or opt->frames over the clip) and the curve's own. */
static double *sample_times(const writer *w, const vks_curve *cv, double duration, size_t *count)
{
    size_t grid = w->frames >= 2 ? w->frames : (size_t)floor(duration * w->rate + 0.5) + 1;
    if (grid < 2)
        grid = 2;
    size_t own = cv->interp == VKS_INTERP_BSPLINE ? cv->key_count - 2 : cv->key_count;
    if (grid + own > CSKLA_WRITE_MAX_SAMPLES)
        return NULL;
    double *t = malloc((grid + own) * sizeof *t);
    if (!t)
        return NULL;
    size_t n = 0;
    for (size_t j = 0; j < grid; j++)
        t[n++] = duration * (double)j / (double)(grid - 1);
    for (size_t k = 0; k < own; k++)
        t[n++] = own_time(cv, k);
    qsort(t, n, sizeof *t, cmp_double);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (t[i] < 0 || t[i] > duration) /* a B-spline's span may pass the clip's ends */
            continue;
        if (m && t[i] - t[m - 1] <= 1e-9 * fmax(1.0, duration)) {
            for (size_t k = 0; k < own; k++) /* a key's own time wins over a grid point beside it */
                if (own_time(cv, k) == t[i])
                    t[m - 1] = t[i];
            continue;
        }
        t[m++] = t[i];
    }
    *count = m;
    return t;
}

/* One-sided derivative at t from the side dir (+1 right, -1 left), second order, with a step
   inside the gap to the neighbouring sample. */
static void slope_at(const vks_curve *cv, double t, double dir, double gap, const double *at_t, uint32_t dim,
                     double *out)
{
    double h = fmin(1e-4, gap / 4);
    double a[4], b[4];
    value_at(cv, t + dir * h, at_t, a);
    value_at(cv, t + dir * 2 * h, at_t, b);
    for (uint32_t i = 0; i < dim; i++)
        out[i] = dir * (-3 * at_t[i] + 4 * a[i] - b[i]) / (2 * h);
}

/* A quaternion or B-spline curve as Hermite keys (or, for stepped quaternions, step keys);
   its components written as the curves label, label + 1, ... */
static vks_result put_resampled(writer *w, const vks_curve *cv, double duration, int label)
{
    uint32_t dim = cv->components == 4 ? 3 : cv->components;
    int step = cv->interp == VKS_INTERP_STEP;
    size_t n = 0;
    double *t;
    if (step || cv->key_count == 1) {
        n = cv->key_count;
        t = malloc(n * sizeof *t);
        for (size_t k = 0; t && k < n; k++)
            t[k] = cv->times[k];
    } else {
        t = sample_times(w, cv, duration, &n);
    }
    double *v = t ? malloc(n * 3 * 3 * sizeof *v) : NULL; /* value, in slope, out slope */
    if (!v) {
        free(t);
        return vks_error_set(w->err, t ? VKS_ERR_NOMEM : VKS_ERR_LIMIT, VKS_NO_OFFSET, "cskla",
                             "no room for the resampled keys of a %s curve", dim == 3 ? "rotation" : "B-spline");
    }
    for (size_t i = 0; i < n; i++) {
        double *val = v + 9 * i, *in = val + 3, *out = val + 6;
        value_at(cv, t[i], i ? v + 9 * (i - 1) : NULL, val);
        if (step || n == 1) {
            memset(in, 0, 6 * sizeof *in);
            continue;
        }
        double left = i ? t[i] - t[i - 1] : 0, right = i + 1 < n ? t[i + 1] - t[i] : 0;
        if (right > 0)
            slope_at(cv, t[i], 1, right, val, dim, out);
        if (left > 0)
            slope_at(cv, t[i], -1, left, val, dim, in);
        if (!(right > 0))
            memcpy(out, in, 3 * sizeof *in);
        if (!(left > 0))
            memcpy(in, out, 3 * sizeof *in);
    }
    for (uint32_t c = 0; c < dim; c++) {
        /* an angle or coordinate that never moves: one key */
        int still = 1;
        for (size_t i = 0; i < n && still; i++)
            still = (float)v[9 * i + c] == (float)v[c] && (float)v[9 * i + 3 + c] == 0 && (float)v[9 * i + 6 + c] == 0;
        size_t keys = still ? 1 : n;
        int kind = step || keys == 1 ? CSKLA_STEP : CSKLA_HERMITE;
        curve_open(w, label + (int)c, kind);
        for (size_t i = 0; i < keys; i++) {
            const double *val = v + 9 * i;
            put_key(w, kind, (float)t[i], (float)val[c], (float)val[3 + c], (float)val[6 + c]);
        }
        curve_close(w, label + (int)c, kind);
    }
    free(t);
    free(v);
    return VKS_OK;
}

static vks_result put_channel(writer *w, const char *element, const vks_curve *cv, double duration)
{
    vks_buf_printf(&w->b, "            <%s>\n", element);
    vks_result r = VKS_OK;
    if (cv->interp == VKS_INTERP_BSPLINE || cv->components == 4)
        r = put_resampled(w, cv, duration, 0);
    else
        for (int c = 0; c < 3; c++)
            put_keyed(w, cv, c, c);
    vks_buf_printf(&w->b, "            </%s>\n", element);
    return r;
}

static vks_result put_euler(writer *w, const vks_track *tr, double duration)
{
    vks_buf_printf(&w->b, "            <RotateVector3Animation>\n");
    for (int c = 0; c < 3; c++) {
        const vks_curve *cv = &tr->euler[c];
        if (cv->key_count == 0) { /* the clip model's missing angle: 0 */
            curve_open(w, c, CSKLA_STEP);
            put_key(w, CSKLA_STEP, 0.0f, 0.0f, 0.0f, 0.0f);
            curve_close(w, c, CSKLA_STEP);
        } else if (cv->interp == VKS_INTERP_BSPLINE) {
            vks_result r = put_resampled(w, cv, duration, c);
            if (r != VKS_OK)
                return r;
        } else {
            put_keyed(w, cv, 0, c);
        }
    }
    vks_buf_printf(&w->b, "            </RotateVector3Animation>\n");
    return VKS_OK;
}

static vks_result put_track(writer *w, const vks_track *tr, const char *node, double duration)
{
    vks_buf_printf(&w->b, "        <MemberAnimationData>\n          <Path>Bones[\"");
    vks__cmdl_put_escaped(&w->b, node);
    vks_buf_printf(&w->b, "\"]</Path>\n          <TransformAnimation>\n");
    vks_result r = VKS_OK;
    if (tr->scale.key_count)
        r = put_channel(w, "ScaleVector3Animation", &tr->scale, duration);
    if (r == VKS_OK && tr->rotation.key_count)
        r = put_channel(w, "RotateVector3Animation", &tr->rotation, duration);
    else if (r == VKS_OK && (tr->euler[0].key_count || tr->euler[1].key_count || tr->euler[2].key_count))
        r = put_euler(w, tr, duration);
    if (r == VKS_OK && tr->translation.key_count)
        r = put_channel(w, "TranslateVector3Animation", &tr->translation, duration);
    vks_buf_printf(&w->b, "          </TransformAnimation>\n        </MemberAnimationData>\n");
    return r;
}

static void put_skeleton(writer *w)
{
    const vks_skin *s = w->skin;
    uint32_t root = 0;
    while (root + 1 < s->node_count && s->nodes[root].parent >= 0)
        root++;
    vks_buf_printf(&w->b, "      <Skeleton RootBoneName=\"");
    vks__cmdl_put_escaped(&w->b, s->node_count ? s->nodes[root].name : "");
    vks_buf_printf(&w->b, "\">\n        <Bones>\n");
    for (uint32_t n = 0; n < s->node_count; n++) {
        float sc[3], r[3], t[3];
        vks__cmdl_decompose(&s->nodes[n].bind_local, sc, r, t);
        vks_buf_printf(&w->b, "          <Bone Name=\"");
        vks__cmdl_put_escaped(&w->b, s->nodes[n].name);
        vks_buf_printf(&w->b, "\" ParentBoneName=\"");
        if (s->nodes[n].parent >= 0)
            vks__cmdl_put_escaped(&w->b, s->nodes[s->nodes[n].parent].name);
        vks_buf_printf(&w->b, "\"><Transform>");
        vks__cmdl_put_xyz(&w->b, "Scale", sc);
        vks__cmdl_put_xyz(&w->b, "Rotate", r);
        vks__cmdl_put_xyz(&w->b, "Translate", t);
        vks_buf_printf(&w->b, "</Transform></Bone>\n");
    }
    vks_buf_printf(&w->b, "        </Bones>\n      </Skeleton>\n");
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every node name must make a Path the reader takes back: non-empty, no '"', unique. */
static vks_result check_names(const vks_skin *s, vks_error *err)
{
    const char **names = malloc((s->node_count ? s->node_count : 1) * sizeof *names);
    if (!names)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "cskla", "out of memory");
    vks_result r = VKS_OK;
    for (uint32_t n = 0; n < s->node_count && r == VKS_OK; n++) {
        names[n] = s->nodes[n].name ? s->nodes[n].name : "";
        if (!names[n][0] || strchr(names[n], '"'))
            r = vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "cskla",
                              "node %u's name \"%.60s\" cannot be a Path Bones[\"...\"]", n, names[n]);
    }
    if (r == VKS_OK) {
        qsort(names, s->node_count, sizeof *names, cmp_name);
        for (uint32_t n = 1; n < s->node_count && r == VKS_OK; n++)
            if (!strcmp(names[n - 1], names[n]))
                r = vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "cskla",
                                  "node name \"%.60s\" is used twice: a .cskla binds by name", names[n]);
    }
    free(names);
    return r;
}

static vks_result put_clip(writer *w, const vks_clip *clip, uint32_t ci)
{
    if (clip->space != VKS_CLIP_LOCAL)
        return vks_error_set(w->err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "cskla",
                             "clip %u \"%.40s\" holds deltas from the bind pose; a .cskla holds local transforms", ci,
                             clip->name);
    vks_clip_binding b;
    vks_result r = vks_clip_bind(clip, w->skin, &b, w->err);
    if (r != VKS_OK)
        return r;
    if (clip->track_count && !b.bound_tracks) {
        vks_clip_binding_free(&b);
        return vks_error_set(w->err, VKS_ERR_INVALID, VKS_NO_OFFSET, "cskla",
                             "clip %u \"%.40s\": none of its %u tracks drives a node of the skin", ci, clip->name,
                             clip->track_count);
    }
    double duration = clip->duration;
    w->duration = clip->duration;
    w->repeat = clip->cycle == VKS_CYCLE_MIRROR ? "Mirror" : "None";
    vks_buf_printf(&w->b, "      <SkeletalAnimationData Name=\"");
    vks__cmdl_put_escaped(&w->b, clip->name);
    vks_buf_printf(&w->b, "\" FrameSize=\"");
    put_number(w, duration * w->rate, clip->duration, -1);
    vks_buf_printf(&w->b, "\"");
    if (clip->cycle != VKS_CYCLE_MIRROR)
        vks_buf_printf(&w->b, " LoopMode=\"%s\"", clip->cycle == VKS_CYCLE_LOOP ? "Loop" : "OneTime");
    vks_buf_printf(&w->b, ">\n      <MemberAnimationDataSet>\n");
    for (uint32_t n = 0; n < w->skin->node_count && r == VKS_OK; n++)
        if (b.track_of_node[n] >= 0)
            r = put_track(w, &clip->tracks[b.track_of_node[n]], w->skin->nodes[n].name, duration);
    vks_clip_binding_free(&b);
    vks_buf_printf(&w->b, "      </MemberAnimationDataSet>\n");
    put_skeleton(w);
    vks_buf_printf(&w->b, "      </SkeletalAnimationData>\n");
    return r;
}

static vks_result cskla_write_body(const vks_clip_set *set, const vks_skin *skin, const vks_clip_write_options *opt,
                                   uint8_t **out_bytes, size_t *out_size, vks_error *err)
{
    if (!set || !skin || !out_bytes || !out_size || !set->clip_count)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "cskla", "a clip set, a skin and an output are required");
    vks_result r = vks_clip_set_validate(set, err);
    if (r == VKS_OK)
        r = check_names(skin, err);
    if (r != VKS_OK)
        return r;
    writer w = {0};
    w.skin = skin;
    w.err = err;
    float fps = set->clips[0].fps;
    w.rate = fps > 0 && fps <= 1e6f ? fps : 30.0;
    w.frames = opt ? opt->frames : 0;
    locale_t c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    locale_t old = c_locale ? uselocale(c_locale) : (locale_t)0;
    vks_buf_printf(&w.b, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<NintendoWareIntermediateFile>\n"
                         "  <GraphicsContentCtr Version=\"1.3.0\" Namespace=\"\">\n"
                         "    <EditData>\n      <MetaData>\n        <Key>MetaData</Key>\n"
                         "        <Create Author=\"vkskin\" Source=\"vkskin\"><ToolDescription Name=\"vkskin\" /></Create>\n"
                         "      </MetaData>\n    </EditData>\n    <Animations>\n");
    for (uint32_t c = 0; c < set->clip_count && r == VKS_OK; c++)
        r = put_clip(&w, &set->clips[c], c);
    vks_buf_printf(&w.b, "    </Animations>\n  </GraphicsContentCtr>\n</NintendoWareIntermediateFile>\n");
    if (c_locale) {
        uselocale(old);
        freelocale(c_locale);
    }
    if (r == VKS_OK && w.b.failed)
        r = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "cskla", "out of memory writing %zu bytes", w.b.size);
    if (r != VKS_OK) {
        vks_buf_free(&w.b);
        return r;
    }
    *out_bytes = w.b.data;
    *out_size = w.b.size;
    return VKS_OK;
}

/* The body above, under the C locale's numbers whatever the host's setlocale() (c_numeric.h). */
vks_result vks_cskla_write(const vks_clip_set *set, const vks_skin *skin, const vks_clip_write_options *opt,
                           uint8_t **out_bytes, size_t *out_size, vks_error *err)
{
    VKS_RETURN_IN_C_NUMERIC(vks_result, cskla_write_body(set, skin, opt, out_bytes, out_size, err));
}
