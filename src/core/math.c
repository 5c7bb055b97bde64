/* Affine 3x4 math in float (storage) and double (the CPU reference). Column-major, column
 * vectors: p' = X*x + Y*y + Z*z + T. */
#include "vkskin/skin.h"

#include <math.h>
#include <string.h>

vks_affine vks_affine_identity(void)
{
    vks_affine a = {{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}};
    return a;
}

vks_affine vks_affine_mul(const vks_affine *a, const vks_affine *b)
{
    vks_affine r;
    for (int c = 0; c < 4; c++)
        for (int i = 0; i < 3; i++) {
            float v = a->m[0 + i] * b->m[c * 3 + 0] + a->m[3 + i] * b->m[c * 3 + 1] +
                      a->m[6 + i] * b->m[c * 3 + 2];
            r.m[c * 3 + i] = v + (c == 3 ? a->m[9 + i] : 0.0f);
        }
    return r;
}

int vks_affine_inverse(const vks_affine *a, vks_affine *out)
{
    vks_affine_d d = vks_affine_d_from(a), inv;
    int ok = vks_affine_d_inverse(&d, &inv);
    for (int i = 0; i < 12; i++)
        out->m[i] = (float)inv.m[i];
    return ok;
}

void vks_affine_apply(const vks_affine *a, const float p[3], float out[3])
{
    float r[3];
    for (int i = 0; i < 3; i++)
        r[i] = a->m[i] * p[0] + a->m[3 + i] * p[1] + a->m[6 + i] * p[2] + a->m[9 + i];
    memcpy(out, r, sizeof r);
}

vks_affine vks_affine_from_trs(const float t[3], const float q[4], const float s[3])
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double n = sqrt(x * x + y * y + z * z + w * w);
    if (!(n > 0)) {
        x = y = z = 0;
        w = n = 1;
    }
    x /= n, y /= n, z /= n, w /= n;
    double r[9] = {/* column-major rotation */
                   1 - 2 * (y * y + z * z), 2 * (x * y + w * z),     2 * (x * z - w * y),
                   2 * (x * y - w * z),     1 - 2 * (x * x + z * z), 2 * (y * z + w * x),
                   2 * (x * z + w * y),     2 * (y * z - w * x),     1 - 2 * (x * x + y * y)};
    vks_affine a;
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < 3; i++)
            a.m[c * 3 + i] = (float)(r[c * 3 + i] * s[c]);
    a.m[9] = t[0], a.m[10] = t[1], a.m[11] = t[2];
    return a;
}

void vks_affine_split_scale(const vks_affine *a, double c[3][3], float s[3])
{
    for (int k = 0; k < 3; k++) {
        double len = sqrt((double)a->m[k * 3] * a->m[k * 3] + (double)a->m[k * 3 + 1] * a->m[k * 3 + 1] +
                          (double)a->m[k * 3 + 2] * a->m[k * 3 + 2]);
        s[k] = (float)len;
        for (int i = 0; i < 3; i++)
            c[k][i] = len > 0 ? a->m[k * 3 + i] / len : (i == k);
    }
    /* A reflection (negative determinant) is carried by a negative x scale. */
    double det = c[0][0] * (c[1][1] * c[2][2] - c[2][1] * c[1][2]) -
                 c[1][0] * (c[0][1] * c[2][2] - c[2][1] * c[0][2]) +
                 c[2][0] * (c[0][1] * c[1][2] - c[1][1] * c[0][2]);
    if (det < 0) {
        s[0] = -s[0];
        for (int i = 0; i < 3; i++)
            c[0][i] = -c[0][i];
    }
}

void vks_affine_to_trs(const vks_affine *a, float t[3], float q[4], float s[3])
{
    double c[3][3];
    vks_affine_split_scale(a, c, s);
    /* Rotation matrix R[row][col] = c[col][row] to quaternion (Shepperd's method). */
    double m00 = c[0][0], m11 = c[1][1], m22 = c[2][2];
    double tr = m00 + m11 + m22, x, y, z, w;
    if (tr > 0) {
        double S = sqrt(tr + 1.0) * 2;
        w = 0.25 * S, x = (c[1][2] - c[2][1]) / S, y = (c[2][0] - c[0][2]) / S, z = (c[0][1] - c[1][0]) / S;
    } else if (m00 > m11 && m00 > m22) {
        double S = sqrt(1.0 + m00 - m11 - m22) * 2;
        w = (c[1][2] - c[2][1]) / S, x = 0.25 * S, y = (c[1][0] + c[0][1]) / S, z = (c[2][0] + c[0][2]) / S;
    } else if (m11 > m22) {
        double S = sqrt(1.0 + m11 - m00 - m22) * 2;
        w = (c[2][0] - c[0][2]) / S, x = (c[1][0] + c[0][1]) / S, y = 0.25 * S, z = (c[2][1] + c[1][2]) / S;
    } else {
        double S = sqrt(1.0 + m22 - m00 - m11) * 2;
        w = (c[0][1] - c[1][0]) / S, x = (c[2][0] + c[0][2]) / S, y = (c[2][1] + c[1][2]) / S, z = 0.25 * S;
    }
    q[0] = (float)x, q[1] = (float)y, q[2] = (float)z, q[3] = (float)w;
    t[0] = a->m[9], t[1] = a->m[10], t[2] = a->m[11];
}

int vks_affine_is_finite(const vks_affine *a)
{
    for (int i = 0; i < 12; i++)
        if (!isfinite(a->m[i]))
            return 0;
    return 1;
}

vks_affine_d vks_affine_d_from(const vks_affine *a)
{
    vks_affine_d d;
    for (int i = 0; i < 12; i++)
        d.m[i] = a->m[i];
    return d;
}

vks_affine_d vks_affine_d_identity(void)
{
    vks_affine_d a = {{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}};
    return a;
}

vks_affine_d vks_affine_d_mul(const vks_affine_d *a, const vks_affine_d *b)
{
    vks_affine_d r;
    for (int c = 0; c < 4; c++)
        for (int i = 0; i < 3; i++) {
            double v = a->m[0 + i] * b->m[c * 3 + 0] + a->m[3 + i] * b->m[c * 3 + 1] +
                       a->m[6 + i] * b->m[c * 3 + 2];
            r.m[c * 3 + i] = v + (c == 3 ? a->m[9 + i] : 0.0);
        }
    return r;
}

int vks_affine_d_inverse(const vks_affine_d *a, vks_affine_d *out)
{
    const double *m = a->m;
    /* Rows of the 3x3 as M[r][c] = m[c*3+r]. Inverse by the adjugate. */
    double a00 = m[0], a01 = m[3], a02 = m[6];
    double a10 = m[1], a11 = m[4], a12 = m[7];
    double a20 = m[2], a21 = m[5], a22 = m[8];
    double c00 = a11 * a22 - a12 * a21, c01 = a02 * a21 - a01 * a22, c02 = a01 * a12 - a02 * a11;
    double c10 = a12 * a20 - a10 * a22, c11 = a00 * a22 - a02 * a20, c12 = a02 * a10 - a00 * a12;
    double c20 = a10 * a21 - a11 * a20, c21 = a01 * a20 - a00 * a21, c22 = a00 * a11 - a01 * a10;
    double det = a00 * c00 + a01 * c10 + a02 * c20;
    double scale = fabs(a00) + fabs(a01) + fabs(a02) + fabs(a10) + fabs(a11) + fabs(a12) +
                   fabs(a20) + fabs(a21) + fabs(a22);
    if (!isfinite(det) || fabs(det) <= 1e-30 * (scale * scale * scale + 1e-300) || det == 0) {
        *out = vks_affine_d_identity();
        return 0;
    }
    double k = 1.0 / det;
    double r[9] = {c00 * k, c10 * k, c20 * k, c01 * k, c11 * k, c21 * k, c02 * k, c12 * k, c22 * k};
    for (int i = 0; i < 9; i++)
        out->m[i] = r[i];
    for (int i = 0; i < 3; i++)
        out->m[9 + i] = -(r[i] * m[9] + r[3 + i] * m[10] + r[6 + i] * m[11]);
    return 1;
}

/* Float32 conditioning of a bone's matrices (used by vks_skin_validate).
 *
 * vks_affine_d_inverse's singularity test is relative (|det| against the cube of the entries)
 * and made for double: a uniform scale of 1e-30 passes it, since its determinant is tiny only
 * because its entries are. Such a matrix is perfectly conditioned, yet the float32 engines
 * cannot use it: its inverse bind scales by 1e30, and skinned normals, renormalised through
 * the square of their length, underflow (a .cmdl bone with scale 1e-30 gave GPU normals off
 * by 0.99). So the test here is on the scale itself, lo..hi (RMS brackets of the singular
 * values, see skin.h), in two parts, both from float32's unit roundoff u = 2^-24:
 *   - spread: rounding W and IB to float32 and multiplying them back (K = S*W*IB ~ I at bind)
 *     costs about u * hi/lo of the positions they move. validate allows 3e-5 of the scale
 *     (tolerance.c), which is 503u: hi/lo <= 2^9 keeps a correct engine inside it for any
 *     bone this check accepts. Rotations have 1; a bind scale of (1, 1, 1/500) is the limit.
 *   - magnitude: lo >= u^2 = 2^-48 and hi <= 2^48. A normal's squared length scales by lo^2 >=
 *     2^-96, which leaves 2^30 (room for short normals and small weights) above 2^-126, where
 *     GPUs may flush to zero (Vulkan allows it); the bound above mirrors it against overflow.
 *     Unit conversions (0.01, 2.54, 100) are far inside. */
int vks_affine_scale_range(const vks_affine *a, double *lo, double *hi)
{
    vks_affine_d d = vks_affine_d_from(a), inv;
    double n = 0, ni = 0;
    for (int i = 0; i < 9; i++)
        n += d.m[i] * d.m[i];
    *hi = sqrt(n / 3.0);
    *lo = 0.0;
    if (!isfinite(n) || !vks_affine_d_inverse(&d, &inv))
        return 0;
    for (int i = 0; i < 9; i++)
        ni += inv.m[i] * inv.m[i];
    if (!(ni > 0) || !isfinite(ni))
        return 0;
    *lo = sqrt(3.0 / ni);
    return 1;
}

int vks_float32_scale_ok(double lo, double hi)
{
    const double min_scale = 0x1p-48, max_scale = 0x1p48, max_spread = 0x1p9;
    return lo >= min_scale && hi <= max_scale && hi <= lo * max_spread;
}

double vks_affine_d_max_diff(const vks_affine_d *a, const vks_affine_d *b)
{
    double d = 0;
    for (int i = 0; i < 12; i++) {
        double e = fabs(a->m[i] - b->m[i]);
        if (e > d || e != e)
            d = e;
    }
    return d;
}
