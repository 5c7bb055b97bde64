/* NIF clip test helpers (test_nif_kf_util.h). The builder follows nif.xml's header and block
 * order on its own; the expected values are worked out here from the fixture's raw numbers,
 * not through the reader's conversions (per-unit Hermite segments instead of per-second
 * tangents, Kochanek-Bartels in its textbook form, the B-spline basis by recursion). */
#include "test_nif_kf_util.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "vkskin/clip.h"

#include "vkskin/clip_sample.h"
#include "vkskin/clip_formats.h"
#define V(a, b, c, d) (((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) | ((uint32_t)(c) << 8) | (uint32_t)(d))

void kfx_init(kfx *x, uint32_t ver, uint32_t user, uint32_t bsver)
{
    memset(x, 0, sizeof *x);
    x->ver = ver, x->user = user, x->bsver = bsver;
}

int32_t kfx_block(kfx *x, const char *type)
{
    if (x->count >= KFX_MAX_BLOCKS)
        abort();
    x->type[x->count] = type;
    return (int32_t)x->count++;
}

vks_bytebuf *kfx_body(kfx *x, int32_t block) { return &x->body[block]; }

void kfx_sized(vks_bytebuf *b, const char *s)
{
    vks_buf_u32(b, (uint32_t)strlen(s));
    vks_buf_put(b, s, strlen(s));
}

void kfx_string(kfx *x, vks_bytebuf *b, const char *s)
{
    if (x->ver <= V(20, 0, 0, 5)) {
        kfx_sized(b, s ? s : "");
        return;
    }
    if (!s || !*s) {
        vks_buf_u32(b, UINT32_MAX);
        return;
    }
    uint32_t i = 0;
    while (i < x->string_count && strcmp(x->strings[i], s))
        i++;
    if (i == x->string_count)
        x->strings[x->string_count++] = s;
    vks_buf_u32(b, i);
}

void kfx_floats(vks_bytebuf *b, const float *v, int n)
{
    for (int i = 0; i < n; i++)
        vks_buf_f32(b, v[i]);
}

uint8_t *kfx_finish(kfx *x, const int32_t *roots, uint32_t root_count, size_t *size)
{
    vks_bytebuf o = {0};
    uint32_t v = x->ver;
    vks_buf_printf(&o, "%s File Format, Version %u.%u.%u.%u\n", v <= V(10, 0, 1, 2) ? "NetImmerse" : "Gamebryo", v >> 24,
                   (v >> 16) & 255, (v >> 8) & 255, v & 255);
    vks_buf_u32(&o, v);
    if (v >= V(20, 0, 0, 3))
        vks_buf_u8(&o, 1);
    if (v >= V(10, 0, 1, 8))
        vks_buf_u32(&o, x->user);
    vks_buf_u32(&o, x->count);
    int bs = x->user >= 3 && (v == V(20, 2, 0, 7) || v == V(20, 0, 0, 5) || (v >= V(10, 1, 0, 0) && v <= V(20, 0, 0, 4)));
    if (bs) {
        vks_buf_u32(&o, x->bsver);
        for (int i = 0; i < 3; i++) /* author, process script, export script: empty */
            vks_buf_u8(&o, 1), vks_buf_u8(&o, 0);
    }
    if (v >= V(5, 0, 0, 1)) {
        const char *types[KFX_MAX_BLOCKS];
        uint16_t nt = 0, index[KFX_MAX_BLOCKS];
        for (uint32_t b = 0; b < x->count; b++) {
            uint16_t t = 0;
            while (t < nt && strcmp(types[t], x->type[b]))
                t++;
            if (t == nt)
                types[nt++] = x->type[b];
            index[b] = t;
        }
        vks_buf_u16(&o, nt);
        for (uint16_t t = 0; t < nt; t++)
            kfx_sized(&o, types[t]);
        for (uint32_t b = 0; b < x->count; b++)
            vks_buf_u16(&o, index[b]);
    }
    if (v >= V(20, 2, 0, 5))
        for (uint32_t b = 0; b < x->count; b++)
            vks_buf_u32(&o, (uint32_t)x->body[b].size);
    if (v >= V(20, 1, 0, 1)) {
        uint32_t maxlen = 0;
        for (uint32_t i = 0; i < x->string_count; i++)
            maxlen = strlen(x->strings[i]) > maxlen ? (uint32_t)strlen(x->strings[i]) : maxlen;
        vks_buf_u32(&o, x->string_count);
        vks_buf_u32(&o, maxlen);
        for (uint32_t i = 0; i < x->string_count; i++)
            kfx_sized(&o, x->strings[i]);
    }
    if (v >= V(5, 0, 0, 6))
        vks_buf_u32(&o, 0); /* groups */
    for (uint32_t b = 0; b < x->count; b++) {
        if (v < V(5, 0, 0, 1))
            kfx_sized(&o, x->type[b]);
        if (v >= V(10, 0, 0, 0) && v < V(10, 2, 0, 0))
            vks_buf_u32(&o, 0);
        vks_buf_put(&o, x->body[b].data, x->body[b].size);
        vks_buf_free(&x->body[b]);
    }
    vks_buf_u32(&o, root_count);
    for (uint32_t r = 0; r < root_count; r++)
        vks_buf_i32(&o, roots[r]);
    if (o.failed)
        abort();
    *size = o.size;
    return o.data;
}

/* ---- the fixture ---- */

#define C45 0.70710678118654752
static const float Q_ROT[3][4] = {{1, 0, 0, 0}, {(float)C45, 0, 0, (float)C45}, {0, 0, 0, 1}}; /* w,x,y,z */
static const float T_KEYS[3][10] = {/* time, value, forward, backward */
                                    {0.5f, 0, 0, 0, 1, 0, 0, 2, 0, 0},
                                    {1.5f, 1, 2, 0, 0.5f, 0, 0, 0, 1, 0},
                                    {2.5f, 3, 0, 1, 1, 1, 1, 0, 0, 0}};
static const float S_KEYS[3][5] = {{0.5f, 1, 0, 0, 0}, {1.0f, 2, 0.5f, -0.3f, 0.2f}, {2.5f, 1.5f, 0, 0, 0}};
static const float X_KEYS[2][2] = {{0.5f, 0.0f}, {2.5f, 1.0f}};
static const float Y_KEYS[3][4] = {{0.5f, 0, 0, 0.4f}, {1.5f, 0.5f, 0.2f, -0.1f}, {2.5f, -0.2f, 0.3f, 0}};
static const float Z_KEYS[3][5] = {{0.5f, 0.3f, 0, 0, 0}, {1.5f, -0.2f, 0.1f, 0.2f, -0.4f}, {2.5f, 0.6f, 0, 0, 0}};
static const int16_t BS_ROT[5][4] = {{32767, 0, 0, 0},
                                     {30000, 8000, 0, 0},
                                     {20000, 20000, 5000, 0},
                                     {10000, 25000, 10000, -3000},
                                     {0, 32767, 0, 0}};
static const int16_t BS_TRANS[5][3] = {{0, 0, 0}, {16384, -16384, 0}, {32767, 0, -32767}, {-8000, 8000, 4000}, {0, 32767, 0}};
static const float BS_FLOATS[4][3] = {{0, 0, 0}, {1, 2, 0}, {2, -1, 1}, {3, 0, 0}};
#define DEG (3.14159265358979323846 / 180)

static void unset_pose(vks_bytebuf *b)
{
    for (int i = 0; i < 8; i++)
        vks_buf_f32(b, -FLT_MAX);
}

static void tinterp(kfx *x, int32_t blk, int32_t data)
{
    unset_pose(kfx_body(x, blk));
    vks_buf_i32(kfx_body(x, blk), data);
}

uint8_t *kfx_keys_fixture(const char *const names[KFX_TRACKS], size_t *size)
{
    kfx x;
    kfx_init(&x, V(20, 2, 0, 7), 0, 0);
    int32_t seq = kfx_block(&x, "NiControllerSequence"), text = kfx_block(&x, "NiTextKeyExtraData");
    int32_t interp[KFX_TRACKS];
    vks_bytebuf *b;

    /* 0: LINEAR quaternions, QUADRATIC translation, TBC scale */
    interp[0] = kfx_block(&x, "NiTransformInterpolator");
    int32_t d0 = kfx_block(&x, "NiTransformData");
    tinterp(&x, interp[0], d0);
    b = kfx_body(&x, d0);
    vks_buf_u32(b, 3), vks_buf_u32(b, 1);
    for (int k = 0; k < 3; k++)
        vks_buf_f32(b, T_KEYS[k][0]), kfx_floats(b, Q_ROT[k], 4);
    vks_buf_u32(b, 3), vks_buf_u32(b, 2);
    for (int k = 0; k < 3; k++)
        kfx_floats(b, T_KEYS[k], 10);
    vks_buf_u32(b, 3), vks_buf_u32(b, 3);
    for (int k = 0; k < 3; k++)
        kfx_floats(b, S_KEYS[k], 5);

    /* 1: XYZ rotation, CONST translation */
    interp[1] = kfx_block(&x, "NiTransformInterpolator");
    int32_t d1 = kfx_block(&x, "NiTransformData");
    tinterp(&x, interp[1], d1);
    b = kfx_body(&x, d1);
    vks_buf_u32(b, 1), vks_buf_u32(b, 4);
    vks_buf_u32(b, 2), vks_buf_u32(b, 1);
    for (int k = 0; k < 2; k++)
        kfx_floats(b, X_KEYS[k], 2);
    vks_buf_u32(b, 3), vks_buf_u32(b, 2);
    for (int k = 0; k < 3; k++)
        kfx_floats(b, Y_KEYS[k], 4);
    vks_buf_u32(b, 3), vks_buf_u32(b, 3);
    for (int k = 0; k < 3; k++)
        kfx_floats(b, Z_KEYS[k], 5);
    vks_buf_u32(b, 3), vks_buf_u32(b, 5);
    for (int k = 0; k < 3; k++) {
        float key[4] = {0.5f + (float)k, 1.0f + (float)k, 1.0f + (float)k, 1.0f + (float)k};
        kfx_floats(b, key, 4);
    }
    vks_buf_u32(b, 0);

    /* 2: a pose only, translation and scale unset */
    interp[2] = kfx_block(&x, "NiTransformInterpolator");
    b = kfx_body(&x, interp[2]);
    for (int i = 0; i < 3; i++)
        vks_buf_f32(b, -FLT_MAX);
    float q30[4] = {(float)cos(15 * DEG), (float)sin(15 * DEG), 0, 0};
    kfx_floats(b, q30, 4);
    vks_buf_f32(b, -FLT_MAX);
    vks_buf_i32(b, -1);

    /* 3: compact B-spline, rotation (shorts 0..19) and translation (20..34) */
    interp[3] = kfx_block(&x, "NiBSplineCompTransformInterpolator");
    int32_t sd3 = kfx_block(&x, "NiBSplineData"), bb3 = kfx_block(&x, "NiBSplineBasisData");
    b = kfx_body(&x, interp[3]);
    vks_buf_f32(b, 0.5f), vks_buf_f32(b, 2.5f), vks_buf_i32(b, sd3), vks_buf_i32(b, bb3);
    unset_pose(b);
    vks_buf_u32(b, 20), vks_buf_u32(b, 0), vks_buf_u32(b, 0xFFFF);
    float ranges[6] = {1.0f, 2.0f, 0.0f, 1.0f, 0.0f, 0.0f}; /* offset, half range: T, R, S */
    kfx_floats(b, ranges, 6);
    b = kfx_body(&x, sd3);
    vks_buf_u32(b, 0), vks_buf_u32(b, 35);
    for (int k = 0; k < 5; k++)
        for (int i = 0; i < 4; i++)
            vks_buf_u16(b, (uint16_t)BS_ROT[k][i]);
    for (int k = 0; k < 5; k++)
        for (int i = 0; i < 3; i++)
            vks_buf_u16(b, (uint16_t)BS_TRANS[k][i]);
    vks_buf_u32(kfx_body(&x, bb3), 5);

    /* 4: float B-spline, translation only */
    interp[4] = kfx_block(&x, "NiBSplineTransformInterpolator");
    int32_t sd4 = kfx_block(&x, "NiBSplineData"), bb4 = kfx_block(&x, "NiBSplineBasisData");
    b = kfx_body(&x, interp[4]);
    vks_buf_f32(b, 0.5f), vks_buf_f32(b, 2.5f), vks_buf_i32(b, sd4), vks_buf_i32(b, bb4);
    unset_pose(b);
    vks_buf_u32(b, 0), vks_buf_u32(b, 0xFFFF), vks_buf_u32(b, 0xFFFF);
    b = kfx_body(&x, sd4);
    vks_buf_u32(b, 12);
    kfx_floats(b, &BS_FLOATS[0][0], 12);
    vks_buf_u32(b, 0);
    vks_buf_u32(kfx_body(&x, bb4), 4);

    /* 5: CONST quaternions; 6: QUADRATIC quaternions */
    for (int t = 5; t <= 6; t++) {
        interp[t] = kfx_block(&x, "NiTransformInterpolator");
        int32_t d = kfx_block(&x, "NiTransformData");
        tinterp(&x, interp[t], d);
        b = kfx_body(&x, d);
        uint32_t n = t == 5 ? 2 : 3;
        vks_buf_u32(b, n), vks_buf_u32(b, t == 5 ? 5 : 2);
        for (uint32_t k = 0; k < n; k++) {
            double half = t == 5 ? 20 * DEG * k : 30 * DEG * k; /* 40 degrees about y; 0, 60, 120 about x */
            float key[5] = {0.5f + (float)k, (float)cos(half), t == 6 ? (float)sin(half) : 0,
                            t == 5 ? (float)sin(half) : 0, 0};
            kfx_floats(b, key, 5);
        }
        vks_buf_u32(b, 0), vks_buf_u32(b, 0);
    }

    b = kfx_body(&x, text);
    kfx_string(&x, b, NULL);
    vks_buf_u32(b, 3);
    vks_buf_f32(b, 0.5f), kfx_string(&x, b, "start");
    vks_buf_f32(b, 1.5f), kfx_string(&x, b, "Sound: Step\r\nmid");
    vks_buf_f32(b, 2.5f), kfx_string(&x, b, "end");

    b = kfx_body(&x, seq);
    kfx_string(&x, b, "keys");
    vks_buf_u32(b, KFX_TRACKS), vks_buf_u32(b, 1);
    for (int t = 0; t < KFX_TRACKS; t++) {
        vks_buf_i32(b, interp[t]), vks_buf_i32(b, -1);
        kfx_string(&x, b, names[t]), kfx_string(&x, b, NULL), kfx_string(&x, b, "NiTransformController");
        kfx_string(&x, b, NULL), kfx_string(&x, b, NULL);
    }
    vks_buf_f32(b, 1.0f), vks_buf_i32(b, text), vks_buf_u32(b, 0), vks_buf_f32(b, 2.0f);
    vks_buf_f32(b, 0.5f), vks_buf_f32(b, 2.5f), vks_buf_i32(b, -1);
    kfx_string(&x, b, names[0]);
    return kfx_finish(&x, &seq, 1, size);
}

/* ---- expected values ---- */

/* Hermite on the unit segment with per-unit tangents. */
static double herm(double p0, double m0, double p1, double m1, double u)
{
    double u2 = u * u, u3 = u2 * u;
    return (2 * u3 - 3 * u2 + 1) * p0 + (u3 - 2 * u2 + u) * m0 + (-2 * u3 + 3 * u2) * p1 + (u3 - u2) * m1;
}

/* Kochanek-Bartels per-unit tangents of key i of three keys (times f, values p), TS into it
   and TD out of it, with the uneven-time factors; an end key sees its one segment twice. */
static void kb(const double *f, const double *p, const double (*tbc)[3], int i, double *ts, double *td)
{
    int a = i ? i - 1 : 0, bb = i ? i : 1, c = i < 2 ? i : 1, d = i < 2 ? i + 1 : 2;
    double dp = p[bb] - p[a], dn = p[d] - p[c], fp = f[bb] - f[a], fn = f[d] - f[c];
    double T = tbc[i][0], B = tbc[i][1], C = tbc[i][2];
    *ts = ((1 - T) * (1 - C) * (1 + B) / 2 * dp + (1 - T) * (1 + C) * (1 - B) / 2 * dn) * 2 * fp / (fp + fn);
    *td = ((1 - T) * (1 + C) * (1 + B) / 2 * dp + (1 - T) * (1 - C) * (1 - B) / 2 * dn) * 2 * fn / (fp + fn);
}

/* A three-key TBC curve at file time ft. */
static double tbc3(const double *f, const double *p, const double (*tbc)[3], double ft)
{
    if (ft <= f[0])
        return p[0];
    if (ft >= f[2])
        return p[2];
    int s = ft < f[1] ? 0 : 1;
    double ts, td, ts1, td1;
    kb(f, p, tbc, s, &ts, &td);
    kb(f, p, tbc, s + 1, &ts1, &td1);
    return herm(p[s], td, p[s + 1], ts1, (ft - f[s]) / (f[s + 1] - f[s]));
}

static void qmul(const double *a, const double *b, double *o) /* x,y,z,w */
{
    double r[4] = {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1], a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
                   a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3], a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
    memcpy(o, r, sizeof r);
}

static void qnorm(double *q)
{
    double l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int i = 0; i < 4; i++)
        q[i] /= l;
}

/* N_{i,3}(u) over the clamped uniform knots of n control points, by the Cox-de Boor recursion. */
static double basis(int i, int p, double u, int n)
{
    double knot[32];
    for (int j = 0; j < n + 4; j++)
        knot[j] = j < 4 ? 0 : j >= n ? n - 3 : j - 3;
    if (p == 0) {
        int last = i + 1 == n && u >= knot[n]; /* the end of the span belongs to the last piece */
        return (knot[i] <= u && u < knot[i + 1]) || last ? 1 : 0;
    }
    double a = knot[i + p] > knot[i] ? (u - knot[i]) / (knot[i + p] - knot[i]) * basis(i, p - 1, u, n) : 0;
    double b = knot[i + p + 1] > knot[i + 1] ? (knot[i + p + 1] - u) / (knot[i + p + 1] - knot[i + 1]) * basis(i + 1, p - 1, u, n) : 0;
    return a + b;
}

void kfx_keys_expected(int track, double t, kfx_expect *e)
{
    memset(e, 0, sizeof *e);
    double ft = 0.5 + 2 * (t < 0 ? 0 : t > 1 ? 1 : t); /* file time; the clip holds outside */
    switch (track) {
    case 0: {
        double a = 90 * DEG * (ft - 0.5); /* slerp of 0, 90, 180 degrees about z */
        e->q[2] = sin(a / 2), e->q[3] = cos(a / 2);
        int s = ft < 1.5 ? 0 : 1;
        double u = ft - T_KEYS[s][0];
        for (int i = 0; i < 3; i++) /* the backward (second) tangent leaves key s, the forward enters s+1 */
            e->t[i] = herm(T_KEYS[s][1 + i], T_KEYS[s][7 + i], T_KEYS[s + 1][1 + i], T_KEYS[s + 1][4 + i], u);
        double f[3], p[3], tbc[3][3];
        for (int k = 0; k < 3; k++) {
            f[k] = S_KEYS[k][0], p[k] = S_KEYS[k][1];
            for (int i = 0; i < 3; i++)
                tbc[k][i] = S_KEYS[k][2 + i];
        }
        e->s[0] = e->s[1] = e->s[2] = tbc3(f, p, (const double(*)[3])tbc, ft);
        e->has_q = e->has_t = e->has_s = 1;
        break;
    }
    case 1: {
        double ex = X_KEYS[0][1] + (X_KEYS[1][1] - X_KEYS[0][1]) * (ft - 0.5) / 2;
        int s = ft < 1.5 ? 0 : 1;
        double ey = herm(Y_KEYS[s][1], Y_KEYS[s][3], Y_KEYS[s + 1][1], Y_KEYS[s + 1][2], ft - Y_KEYS[s][0]);
        double f[3], p[3], tbc[3][3];
        for (int k = 0; k < 3; k++) {
            f[k] = Z_KEYS[k][0], p[k] = Z_KEYS[k][1];
            for (int i = 0; i < 3; i++)
                tbc[k][i] = Z_KEYS[k][2 + i];
        }
        double ez = tbc3(f, p, (const double(*)[3])tbc, ft);
        double qx[4] = {sin(ex / 2), 0, 0, cos(ex / 2)}, qy[4] = {0, sin(ey / 2), 0, cos(ey / 2)};
        double qz[4] = {0, 0, sin(ez / 2), cos(ez / 2)}, zy[4];
        qmul(qz, qy, zy);
        qmul(zy, qx, e->q); /* R = Rz Ry Rx */
        double step = ft < 1.5 ? 1 : ft < 2.5 ? 2 : 3;
        e->t[0] = e->t[1] = e->t[2] = step;
        e->has_q = e->has_t = 1;
        break;
    }
    case 2:
        e->q[0] = sin(15 * DEG), e->q[3] = cos(15 * DEG);
        e->has_q = 1;
        break;
    case 3: {
        double u = 2 * (ft - 0.5) / 2; /* clip time over [0, 1] x (5 - 3) spans */
        for (int k = 0; k < 5; k++) {
            double w = basis(k, 3, u, 5);
            double q[4] = {BS_ROT[k][1] / 32767.0, BS_ROT[k][2] / 32767.0, BS_ROT[k][3] / 32767.0, BS_ROT[k][0] / 32767.0};
            for (int i = 0; i < 4; i++)
                e->q[i] += w * q[i];
            for (int i = 0; i < 3; i++)
                e->t[i] += w * (BS_TRANS[k][i] / 32767.0 * 2.0 + 1.0);
        }
        qnorm(e->q);
        e->has_q = e->has_t = 1;
        break;
    }
    case 4: {
        double u = (ft - 0.5) / 2, b[4] = {(1 - u) * (1 - u) * (1 - u), 3 * u * (1 - u) * (1 - u), 3 * u * u * (1 - u), u * u * u};
        for (int k = 0; k < 4; k++)
            for (int i = 0; i < 3; i++)
                e->t[i] += b[k] * BS_FLOATS[k][i];
        e->has_t = 1;
        break;
    }
    case 5:
        if (ft >= 1.5)
            e->q[1] = sin(20 * DEG);
        e->q[3] = ft >= 1.5 ? cos(20 * DEG) : 1;
        e->has_q = 1;
        break;
    default: {
        /* quadratic quaternions: Catmull-Rom per unit (keys 1 s apart in file time), an end key
           with its one difference; componentwise, then normalised */
        double k3[3][4];
        for (int k = 0; k < 3; k++) {
            double half = 30 * DEG * k;
            double q[4] = {sin(half), 0, 0, cos(half)};
            memcpy(k3[k], q, sizeof q);
        }
        int s = ft < 1.5 ? 0 : 1;
        double u = ft - 0.5 - s;
        for (int i = 0; i < 4; i++) {
            double m[3] = {k3[1][i] - k3[0][i], (k3[2][i] - k3[0][i]) / 2, k3[2][i] - k3[1][i]};
            e->q[i] = herm(k3[s][i], m[s], k3[s + 1][i], m[s + 1], u);
        }
        qnorm(e->q);
        e->has_q = 1;
        break;
    }
    }
}

/* ---- sweeps ---- */

static int read_bytes(const uint8_t *src, size_t n, int expect_fail, size_t limit, const char *label)
{
    uint8_t *copy = malloc(n ? n : 1);
    memcpy(copy, src, n);
    vks_read_options opt = {0};
    opt.max_nodes = 1024;
    opt.clip.max_keys = 1u << 16;
    opt.clip.max_clips = 64;
    vks_clip_set *set = NULL;
    vks_error err = {0};
    vks_result r = vks_nif_kf_read(&opt, copy, n, &set, &err);
    free(copy);
    int bad = 0;
    if (r != VKS_OK) {
        if (!err.msg[0] || set || (expect_fail && (err.offset == VKS_NO_OFFSET || err.offset > limit)))
            bad = 1;
    } else if (expect_fail) {
        bad = 1;
    } else {
        vks_error e2 = {0};
        bad = vks_clip_set_validate(set, &e2) != VKS_OK;
        for (uint32_t c = 0; !bad && c < set->clip_count; c++)
            for (uint32_t t = 0; t < set->clips[c].track_count; t++) {
                const vks_track *tr = &set->clips[c].tracks[t];
                const vks_curve *cv[6] = {&tr->translation, &tr->rotation, &tr->euler[0], &tr->euler[1], &tr->euler[2], &tr->scale};
                for (int k = 0; k < 6; k++)
                    for (int s = -1; s <= 5; s++) {
                        double v[4] = {0, 0, 0, 0};
                        vks_curve_sample_d(cv[k], set->clips[c].duration * s / 4.0, v);
                        for (int i = 0; i < 4; i++)
                            bad |= !isfinite(v[i]);
                    }
            }
    }
    if (bad)
        fprintf(stderr, "%s: %zu bytes: %s (code %d, offset %lld, %s: %s)\n", label, n,
                r == VKS_OK ? "accepted wrongly" : "refused without a proper message", (int)r, (long long)err.offset,
                err.path, err.msg);
    vks_clip_set_free(set);
    return bad;
}

int kfx_truncations(const uint8_t *bytes, size_t size, size_t step, const char *label)
{
    int bad = 0;
    size_t tried = 0;
    if (step == 0)
        step = 1;
    for (size_t n = 0; n < size; n++)
        if (n % step == 0 || n + 64 >= size)
            bad += read_bytes(bytes, n, 1, n, label), tried++;
    printf("%s: %zu prefixes of %zu bytes, %d wrongly handled\n", label, tried, size, bad);
    return bad;
}

int kfx_corruptions(const uint8_t *bytes, size_t size, size_t stride, const char *label)
{
    int bad = 0, tried = 0;
    uint8_t *copy = malloc(size ? size : 1);
    if (stride == 0)
        stride = 1;
    for (size_t i = 0; i < size; i += stride) {
        const uint8_t vals[5] = {0x00, 0xFF, (uint8_t)(bytes[i] ^ 0x80), (uint8_t)(bytes[i] + 1), (uint8_t)(bytes[i] ^ 0x01)};
        for (int v = 0; v < 5; v++) {
            memcpy(copy, bytes, size);
            copy[i] = vals[v];
            bad += read_bytes(copy, size, 0, size, label);
            tried++;
        }
    }
    printf("%s: %d corrupted copies, %d wrongly handled\n", label, tried, bad);
    free(copy);
    return bad;
}
