/* NIF keys -> vks_curve (nif_kf_internal.h). The model's curve kinds take NIF's key types:
 *
 *   LINEAR (1)     lerp; quaternions slerp (shorter arc)                  -> LINEAR
 *   CONST (5)      hold                                                   -> STEP
 *   QUADRATIC (2)  cubic Hermite whose tangents are per segment (the curve's derivative in
 *                  the segment's unit parameter): the first stored tangent enters the key, the
 *                  second leaves it (NifSkope), each divided by its segment's duration -> HERMITE
 *                  with tangents per second. Quaternion keys store none: their tangents are
 *                  the TBC ones with t = b = c = 0 (Catmull-Rom), componentwise on keys turned
 *                  into one hemisphere. Uncertain: Gamebryo interpolates those with squad.
 *   TBC (3)        Kochanek-Bartels tangents computed here (kf_tbc_tangents)  -> HERMITE
 *   XYZ (4)        rotation as three angle groups, each its own type        -> euler[0..2]
 *   NiBSpline*     clamped uniform cubic B-spline control points            -> BSPLINE
 *
 * Times map through the clip's clock; keys outside [0, duration] are replaced by a key at
 * the boundary that holds the curve's value (and slope) there, so the clip plays what the
 * sequence plays between its start and stop. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nif_kf_internal.h"

static vks_result fail(kf_ctx *k, int32_t block, vks_result code, const char *fmt, const char *detail)
{
    const nif_block *b = block >= 0 && (uint32_t)block < k->f->block_count ? &k->f->blocks[block] : NULL;
    char path[96];
    if (b)
        snprintf(path, sizeof path, "nif/block[%d] %s", (int)block, b->type);
    else
        snprintf(path, sizeof path, "nif/block[%d]", (int)block);
    return vks_error_set(k->err, code, b ? b->offset : VKS_NO_OFFSET, path, fmt, detail);
}

static float *floats(kf_ctx *k, size_t n)
{
    float *f = vks_clip_set_alloc(k->set, n ? n : 1, sizeof *f);
    if (!f)
        vks_error_set(k->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "nif/clip", "out of memory");
    return f;
}

static double clip_time(const kf_clock *clk, float t) { return ((double)t - clk->start) / clk->frequency; }

void kf_tbc_tangents(const float *times, const float *values, const float *tbc, uint32_t n, uint32_t dim,
                     float *in, float *out)
{
    for (uint32_t k = 0; k < n; k++) {
        if (n < 2) {
            for (uint32_t i = 0; i < dim; i++)
                in[i] = out[i] = 0;
            break;
        }
        /* the segments before (ap, bp) and after (an, bn) the key; an end key uses its one
           segment on both sides */
        uint32_t ap = k ? k - 1 : 0, bp = k ? k : 1;
        uint32_t an = k + 1 < n ? k : k - 1, bn = k + 1 < n ? k + 1 : k;
        double dtp = (double)times[bp] - times[ap], dtn = (double)times[bn] - times[an];
        double T = tbc ? tbc[3 * k] : 0, B = tbc ? tbc[3 * k + 1] : 0, C = tbc ? tbc[3 * k + 2] : 0;
        double a_in = (1 - T) * (1 - C) * (1 + B) / 2, b_in = (1 - T) * (1 + C) * (1 - B) / 2;
        double a_out = (1 - T) * (1 + C) * (1 + B) / 2, b_out = (1 - T) * (1 - C) * (1 - B) / 2;
        /* per unit parameter TS, TD corrected for uneven spacing (x 2 dt / (dtp + dtn)), then per
           second (/ dt): both become x 2 / (dtp + dtn) */
        double scale = dtp + dtn > 0 ? 2 / (dtp + dtn) : 0;
        for (uint32_t i = 0; i < dim; i++) {
            double dp = (double)values[(size_t)bp * dim + i] - values[(size_t)ap * dim + i];
            double dn = (double)values[(size_t)bn * dim + i] - values[(size_t)an * dim + i];
            in[(size_t)k * dim + i] = (float)((a_in * dp + b_in * dn) * scale);
            out[(size_t)k * dim + i] = (float)((a_out * dp + b_out * dn) * scale);
        }
    }
}

/* QUADRATIC: per-segment tangents to per-second ones (a key without the segment: its other one). */
static void quadratic_tangents(const float *times, const float *fwd, const float *bwd, uint32_t n, uint32_t dim,
                               float *in, float *out)
{
    for (uint32_t k = 0; k < n; k++) {
        double dtp = n < 2 ? 0 : k ? (double)times[k] - times[k - 1] : (double)times[1] - times[0];
        double dtn = n < 2 ? 0 : k + 1 < n ? (double)times[k + 1] - times[k] : (double)times[k] - times[k - 1];
        for (uint32_t i = 0; i < dim; i++) {
            size_t j = (size_t)k * dim + i;
            in[j] = dtp > 0 ? (float)(fwd[j] / dtp) : 0;
            out[j] = dtn > 0 ? (float)(bwd[j] / dtn) : 0;
        }
    }
}

/* Value (and derivative per second) of a keyed curve at s, without normalising. */
static void eval(const vks_curve *c, double s, double *v, double *d)
{
    uint32_t n = c->key_count, dim = c->components, j = 0;
    for (uint32_t i = 0; i < dim; i++)
        d[i] = 0;
    if (s <= c->times[0] || n == 1) {
        for (uint32_t i = 0; i < dim; i++)
            v[i] = c->values[i];
        return;
    }
    if (s >= c->times[n - 1]) {
        for (uint32_t i = 0; i < dim; i++)
            v[i] = c->values[(size_t)(n - 1) * dim + i];
        return;
    }
    while (j + 2 < n && c->times[j + 1] <= s)
        j++;
    const float *a = c->values + (size_t)j * dim, *b = a + dim;
    double dt = (double)c->times[j + 1] - c->times[j], u = dt > 0 ? (s - c->times[j]) / dt : 1;
    if (c->interp == VKS_INTERP_LINEAR && dim == 4) {
        vks_curve_sample_d(c, s, v); /* slerp; a sub-arc of a slerp is the slerp of its ends */
        return;
    }
    for (uint32_t i = 0; i < dim; i++) {
        if (c->interp == VKS_INTERP_STEP) {
            v[i] = a[i];
        } else if (c->interp == VKS_INTERP_LINEAR) {
            v[i] = a[i] + (b[i] - a[i]) * u;
            d[i] = dt > 0 ? (b[i] - a[i]) / dt : 0;
        } else {
            double mo = c->out_tangents[(size_t)j * dim + i], mi = c->in_tangents[(size_t)(j + 1) * dim + i];
            double u2 = u * u, u3 = u2 * u;
            v[i] = (2 * u3 - 3 * u2 + 1) * a[i] + (u3 - 2 * u2 + u) * dt * mo + (-2 * u3 + 3 * u2) * b[i] +
                   (u3 - u2) * dt * mi;
            d[i] = dt > 0 ? ((6 * u2 - 6 * u) * a[i] + (3 * u2 - 4 * u + 1) * dt * mo + (-6 * u2 + 6 * u) * b[i] +
                             (3 * u2 - 2 * u) * dt * mi) / dt
                          : 0;
        }
    }
}

/* Keys outside [0, duration] -> boundary keys (nif_kf_keys.c's header). */
static vks_result trim(kf_ctx *k, vks_curve *c, double duration)
{
    uint32_t n = c->key_count, dim = c->components;
    float *t = (float *)c->times;
    double eps = 1e-6 * (duration > 1 ? duration : 1);
    for (uint32_t i = 0; i < n; i++) { /* rounding at the ends */
        if (t[i] < 0 && t[i] >= -eps)
            t[i] = 0;
        if (t[i] > duration && t[i] <= duration + eps)
            t[i] = (float)duration;
    }
    int front = t[0] < 0, back = t[n - 1] > duration;
    if (!front && !back)
        return VKS_OK;
    uint32_t i0 = 0, inside = 0;
    while (i0 < n && t[i0] < 0)
        i0++;
    for (uint32_t i = i0; i < n && t[i] <= duration; i++)
        inside++;
    uint32_t m = inside + (uint32_t)front + (uint32_t)back;
    int herm = c->interp == VKS_INTERP_HERMITE;
    float *nt = floats(k, m), *nv = floats(k, (size_t)m * dim);
    float *ni = herm ? floats(k, (size_t)m * dim) : NULL, *no = herm ? floats(k, (size_t)m * dim) : NULL;
    if (!nt || !nv || (herm && (!ni || !no)))
        return VKS_ERR_NOMEM;
    uint32_t w = 0;
    for (int end = 0; end < 2; end++) {
        if (end == 1)
            for (uint32_t i = i0; i < i0 + inside; i++, w++) {
                nt[w] = t[i];
                memcpy(nv + (size_t)w * dim, c->values + (size_t)i * dim, dim * sizeof(float));
                if (herm) {
                    memcpy(ni + (size_t)w * dim, c->in_tangents + (size_t)i * dim, dim * sizeof(float));
                    memcpy(no + (size_t)w * dim, c->out_tangents + (size_t)i * dim, dim * sizeof(float));
                }
            }
        if ((end == 0 && !front) || (end == 1 && !back))
            continue;
        double s = end == 0 ? 0 : duration, v[4], d[4];
        eval(c, s, v, d);
        nt[w] = (float)s;
        for (uint32_t i = 0; i < dim; i++) {
            nv[(size_t)w * dim + i] = (float)v[i];
            if (herm)
                ni[(size_t)w * dim + i] = no[(size_t)w * dim + i] = (float)d[i];
        }
        w++;
    }
    c->key_count = m;
    c->times = nt;
    c->values = nv;
    c->in_tangents = ni;
    c->out_tangents = no;
    return VKS_OK;
}

/* Quaternions into one hemisphere, each key after the one before (for componentwise cubics). */
static void one_hemisphere(float *q, uint32_t n)
{
    for (uint32_t k = 1; k < n; k++) {
        float *a = q + 4 * (size_t)(k - 1), *b = q + 4 * (size_t)k;
        if (a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] < 0)
            for (int i = 0; i < 4; i++)
                b[i] = -b[i];
    }
}

/* One key group as a curve of out_dim components (a 1-float scale becomes 3 equal ones). */
static vks_result group_curve(kf_ctx *k, int32_t block, const nif_keygroup *g, uint32_t out_dim, const kf_clock *clk,
                              vks_curve *c)
{
    memset(c, 0, sizeof *c);
    uint32_t n = g->count, dim = g->dim, rep = out_dim / dim;
    if (n == 0)
        return VKS_OK;
    float *t = floats(k, n), *v = floats(k, (size_t)n * out_dim);
    if (!t || !v)
        return VKS_ERR_NOMEM;
    for (uint32_t i = 0; i < n; i++) {
        t[i] = (float)clip_time(clk, g->times[i]);
        if (!isfinite(t[i]))
            return fail(k, block, VKS_ERR_FORMAT, "%s", "a key whose time on the clip's clock overflows a float");
        for (uint32_t j = 0; j < out_dim; j++)
            v[(size_t)i * out_dim + j] = g->values[(size_t)i * dim + j / rep];
    }
    c->key_count = n;
    c->components = out_dim;
    c->times = t;
    c->values = v;
    switch (g->type) {
    case NIF_KEY_CONST:
        c->interp = VKS_INTERP_STEP;
        break;
    case NIF_KEY_LINEAR:
        c->interp = VKS_INTERP_LINEAR;
        break;
    case NIF_KEY_QUADRATIC:
    case NIF_KEY_TBC: {
        c->interp = VKS_INTERP_HERMITE;
        float *in = floats(k, (size_t)n * dim), *out = floats(k, (size_t)n * dim);
        float *ti = floats(k, (size_t)n * out_dim), *to = floats(k, (size_t)n * out_dim);
        if (!in || !out || !ti || !to)
            return VKS_ERR_NOMEM;
        if (dim == 4)
            one_hemisphere(v, n);
        if (g->type == NIF_KEY_TBC || dim == 4)
            kf_tbc_tangents(t, dim == out_dim ? v : g->values, g->tbc, n, dim, in, out);
        else
            quadratic_tangents(t, g->fwd, g->bwd, n, dim, in, out);
        for (size_t j = 0; j < (size_t)n * out_dim; j++)
            ti[j] = in[j / rep], to[j] = out[j / rep];
        c->in_tangents = ti;
        c->out_tangents = to;
        break;
    }
    default:
        return fail(k, block, VKS_ERR_FORMAT, "key type %s in a key group", "4 (XYZ)");
    }
    vks_result r = trim(k, c, clk->duration); /* boundary keys: values and slopes computed here */
    if (r != VKS_OK)
        return r;
    for (size_t i = 0; i < (size_t)c->key_count * out_dim; i++)
        if (!isfinite(c->values[i]) || (c->in_tangents && (!isfinite(c->in_tangents[i]) || !isfinite(c->out_tangents[i]))))
            return fail(k, block, VKS_ERR_FORMAT, "%s", "keys whose values or tangents overflow a float");
    return VKS_OK;
}

/* A one-key curve holding v (dim components). */
static vks_result constant(kf_ctx *k, const float *v, uint32_t dim, vks_curve *c)
{
    float *t = floats(k, 1), *cv = floats(k, dim);
    if (!t || !cv)
        return VKS_ERR_NOMEM;
    memcpy(cv, v, dim * sizeof *cv);
    *c = (vks_curve){.key_count = 1, .components = dim, .interp = VKS_INTERP_LINEAR, .times = t, .values = cv};
    return VKS_OK;
}

/* Channels the keys left empty take the pose's valid parts. */
static vks_result pose_fallback(kf_ctx *k, const nif_quat_xform *pose, vks_track *tr)
{
    vks_result r = VKS_OK;
    int euler = tr->euler[0].key_count || tr->euler[1].key_count || tr->euler[2].key_count;
    if (!pose)
        return VKS_OK;
    if (r == VKS_OK && pose->has_t && !tr->translation.key_count)
        r = constant(k, pose->t, 3, &tr->translation);
    if (r == VKS_OK && pose->has_q && !tr->rotation.key_count && !euler)
        r = constant(k, pose->q, 4, &tr->rotation);
    float s3[3] = {pose->s, pose->s, pose->s};
    if (r == VKS_OK && pose->has_s && !tr->scale.key_count)
        r = constant(k, s3, 3, &tr->scale);
    return r;
}

vks_result kf_track_from_data(kf_ctx *k, int32_t data, const nif_quat_xform *pose, const kf_clock *clk,
                              vks_track *tr)
{
    const nif_kfdata *d = nif_anim_get(k->f, data, NIF_A_KFDATA);
    if (!d)
        return fail(k, data, VKS_ERR_FORMAT, "%s", "a key data link names no NiKeyframeData / NiTransformData");
    vks_result r = VKS_OK;
    if (d->rot_type == NIF_KEY_XYZ)
        for (int a = 0; r == VKS_OK && a < 3; a++)
            r = group_curve(k, data, &d->xyz[a], 1, clk, &tr->euler[a]);
    else
        r = group_curve(k, data, &d->rot, 4, clk, &tr->rotation);
    if (r == VKS_OK)
        r = group_curve(k, data, &d->trans, 3, clk, &tr->translation);
    if (r == VKS_OK)
        r = group_curve(k, data, &d->scale, 3, clk, &tr->scale);
    if (r == VKS_OK)
        r = pose_fallback(k, pose, tr);
    return r;
}

/* One B-spline channel: n control points of file_dim floats at the handle. */
static vks_result bspline_channel(kf_ctx *k, int32_t block, const nif_bsinterp *s, const nif_bsdata *d, uint32_t n,
                                  int ch, const kf_clock *clk, vks_curve *c)
{
    static const uint32_t dims[3] = {3, 4, 1};
    uint32_t fd = dims[ch], od = ch == 2 ? 3 : fd, h = s->handle[ch];
    uint64_t need = (uint64_t)h + (uint64_t)n * fd, have = s->compact ? d->short_count : d->float_count;
    if (need > have) {
        char msg[128];
        snprintf(msg, sizeof msg, "handle %u + %u control points x %u pass the %llu %s control points", h, n, fd,
                 (unsigned long long)have, s->compact ? "compact" : "float");
        return fail(k, block, VKS_ERR_FORMAT, "%s", msg);
    }
    float *v = floats(k, (size_t)n * od);
    if (!v)
        return VKS_ERR_NOMEM;
    for (uint32_t i = 0; i < n; i++) {
        float p[4];
        for (uint32_t j = 0; j < fd; j++) {
            size_t at = (size_t)h + (size_t)i * fd + j;
            p[j] = s->compact ? (float)((double)d->shorts[at] / 32767.0 * s->half_range[ch] + s->offset[ch])
                              : d->floats[at];
        }
        float *o = v + (size_t)i * od;
        if (ch == 1) {
            o[0] = p[1], o[1] = p[2], o[2] = p[3], o[3] = p[0]; /* w,x,y,z -> x,y,z,w */
            if (o[0] == 0 && o[1] == 0 && o[2] == 0 && o[3] == 0)
                return fail(k, block, VKS_ERR_FORMAT, "%s", "a zero quaternion control point");
        } else {
            for (uint32_t j = 0; j < od; j++)
                o[j] = p[j % fd];
        }
        for (uint32_t j = 0; j < od; j++)
            if (!isfinite(o[j]))
                return fail(k, block, VKS_ERR_FORMAT, "%s", "a control point that is not finite");
    }
    *c = (vks_curve){.key_count = n, .components = od, .interp = VKS_INTERP_BSPLINE, .values = v,
                     .start = (float)clip_time(clk, s->start), .stop = (float)clip_time(clk, s->stop)};
    return VKS_OK;
}

static vks_result bspline_track(kf_ctx *k, int32_t interp, const nif_bsinterp *s, const kf_clock *clk, vks_track *tr)
{
    vks_curve *ch[3] = {&tr->translation, &tr->rotation, &tr->scale};
    const nif_bsdata *d = NULL;
    const nif_bsbasis *basis = NULL;
    int any = 0;
    for (int i = 0; i < 3; i++)
        any |= s->handle[i] != 0xFFFF;
    if (any) {
        d = nif_anim_get(k->f, s->spline_data, NIF_A_BSDATA);
        basis = nif_anim_get(k->f, s->basis_data, NIF_A_BSBASIS);
        if (!d || !basis)
            return fail(k, interp, VKS_ERR_FORMAT, "%s", "a B-spline without its NiBSplineData and NiBSplineBasisData");
        if (basis->control_points < 4)
            return fail(k, interp, VKS_ERR_FORMAT, "%s", "a cubic B-spline needs at least 4 control points");
        double a = clip_time(clk, s->start), b = clip_time(clk, s->stop);
        if (!(isfinite(a) && isfinite(b) && a < b && fabs(a) < 1e30 && fabs(b) < 1e30))
            return fail(k, interp, VKS_ERR_FORMAT, "%s", "a B-spline whose start time is not before its stop time");
    }
    for (int i = 0; i < 3; i++)
        if (s->handle[i] != 0xFFFF) {
            vks_result r = bspline_channel(k, interp, s, d, basis->control_points, i, clk, ch[i]);
            if (r != VKS_OK)
                return r;
        }
    return pose_fallback(k, &s->pose, tr);
}

vks_result kf_track_from_interp(kf_ctx *k, int32_t interp, const kf_clock *clk, vks_track *tr)
{
    const nif_tinterp *t = nif_anim_get(k->f, interp, NIF_A_TINTERP);
    if (t)
        return t->data < 0 ? pose_fallback(k, &t->pose, tr) : kf_track_from_data(k, t->data, &t->pose, clk, tr);
    const nif_bsinterp *s = nif_anim_get(k->f, interp, NIF_A_BSINTERP);
    if (s)
        return bspline_track(k, interp, s, clk, tr);
    return fail(k, interp, VKS_ERR_FORMAT, "%s", "an interpolator link names no transform interpolator");
}
