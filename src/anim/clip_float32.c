/* Clip keys the float32 engines can use (clip_float32.h).
 *
 * The CPU reference samples clips in double; --cpu-fast and the GPU sample the same keys in
 * float32. A key float32 cannot carry makes them disagree, or overflow, though every value is
 * finite (issue 21): quaternion keys of (1e30, 1e30, 1e30, 1e30) overflow float32's squares and
 * (1e-40, 0, 0, 0) underflow them, so the fast engines normalise garbage while double
 * normalises fine; an Euler angle of 1e30 is reduced exactly by the reference's cos() in
 * double and by no float32 one; a translation of 3e38 overflows the first sum it enters.
 *
 * So, where a reader's keys allow it, conditioning fixes them in double at load:
 *   - quaternion keys with a norm outside 2^-8..2^8 (keys inside are kept as stored: a 16-bit
 *     key reads back as written): step and linear ones normalised, each key (the sampler
 *     normalises what it interpolates anyway); Hermite and B-spline ones are normalised after
 *     interpolation, so a factor common to every key and tangent leaves the curve's
 *     rotations as they are: the curve is scaled by the power of two that brings its largest
 *     key to 1..2 (exact);
 *   - Euler curves with an angle beyond +-128 rad: the first key, and any key whose step from
 *     the one before would leave that range, is reduced to -pi..pi through sin and cos in
 *     double (exact for any float); the other keys keep their step from the one before, so
 *     the turns between keys are kept until the range is left. Within +-128 float32's
 *     spacing is 2^-16 rad, well inside the diff's tolerance; beyond it the engines drift
 *     apart, and a curve that far out cannot be carried by any float32 engine anyway.
 * and what remains out of bounds is refused by vks_clip_set_validate, naming the key:
 *   - quaternion keys with a norm outside 2^-60..2^60 (zero and denormal ones included);
 *   - translations, scales, tangents and root motion beyond +-2^48: the magnitude bound the
 *     model's bones have (vks_float32_scale_ok, math.c), which leaves float32 2^80 of room
 *     to compose a hierarchy in (the deform commands still refuse a non-finite output).
 * Bounds and conditioning touch nothing a real clip holds: unit quaternions, angles of a few
 * turns and translations of a few thousand units are left bit for bit. */
#include "clip_float32.h"

#include <math.h>
#include <stdint.h>

static int all_finite(const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return 0;
    return 1;
}

static double norm4(const float *q)
{
    return sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3]);
}

/* The set's arena owns the arrays a reader made: conditioning them in place is the owner's
 * right (vks_curve keeps them const for everyone who only samples). */
static float *writable(const float *p)
{
    return (float *)(uintptr_t)p;
}

static void scale_exactly(const float *v, size_t n, int e)
{
    float *w = writable(v);
    for (size_t i = 0; w && i < n; i++)
        w[i] = ldexpf(w[i], e);
}

/* Norms float32 squares, sums and divides by without harm: such keys are kept as stored. */
static int kept(double norm)
{
    return norm >= 0x1p-8 && norm <= 0x1p8;
}

static void condition_rotation(vks_curve *c)
{
    size_t n = (size_t)c->key_count * 4;
    if (!c->key_count || c->components != 4 || !c->values || !all_finite(c->values, n))
        return; /* vks_clip_set_validate names what is wrong */
    if (c->interp == VKS_INTERP_HERMITE || c->interp == VKS_INTERP_BSPLINE) {
        int tangents = c->interp == VKS_INTERP_HERMITE;
        if (tangents && (!c->in_tangents || !c->out_tangents || !all_finite(c->in_tangents, n) ||
                         !all_finite(c->out_tangents, n)))
            return;
        double top = 0;
        for (uint32_t k = 0; k < c->key_count; k++) {
            double q = norm4(c->values + (size_t)k * 4);
            top = q > top ? q : top;
        }
        if (top < VKS_CLIP_MIN_QUAT_NORM || kept(top))
            return;
        int e = ilogb(top);
        scale_exactly(c->values, n, -e);
        if (tangents) {
            scale_exactly(c->in_tangents, n, -e);
            scale_exactly(c->out_tangents, n, -e);
        }
        return;
    }
    float *v = writable(c->values);
    for (uint32_t k = 0; k < c->key_count; k++) {
        float *q = v + (size_t)k * 4;
        double l = norm4(q);
        if (l >= VKS_CLIP_MIN_QUAT_NORM && !kept(l))
            for (int i = 0; i < 4; i++)
                q[i] = (float)(q[i] / l);
    }
}

/* a's rotation as an angle in -pi..pi; libm's sin and cos reduce any double exactly. */
static double reduce_angle(double a)
{
    const double pi = 3.14159265358979323846;
    return fabs(a) <= pi ? a : atan2(sin(a), cos(a));
}

static void condition_euler(vks_curve *c)
{
    if (!c->key_count || c->components != 1 || !c->values || !all_finite(c->values, c->key_count))
        return;
    int far = 0;
    for (uint32_t k = 0; k < c->key_count; k++)
        far |= fabs(c->values[k]) > VKS_CLIP_MAX_EULER;
    if (!far)
        return;
    float *v = writable(c->values);
    double before = 0; /* key k-1 as stored */
    for (uint32_t k = 0; k < c->key_count; k++) {
        double x = v[k], step = x - before, y;
        if (k && fabs(step) <= VKS_CLIP_MAX_EULER && fabs(v[k - 1] + step) <= VKS_CLIP_MAX_EULER)
            y = v[k - 1] + step; /* the turn from the key before, kept */
        else
            y = reduce_angle(x);
        before = x;
        v[k] = (float)y;
    }
}

void vks__clip_condition(vks_clip *clip)
{
    for (uint32_t t = 0; clip->tracks && t < clip->track_count; t++) {
        vks_track *tr = &clip->tracks[t];
        condition_rotation(&tr->rotation);
        for (int k = 0; k < 3; k++)
            condition_euler(&tr->euler[k]);
    }
}

vks_result vks__clip_curve_float32(const vks_curve *c, vks_channel ch, const char *path, vks_error *err)
{
    for (uint32_t k = 0; k < c->key_count; k++) {
        const float *v = c->values + (size_t)k * c->components;
        if (ch == VKS_CHANNEL_ROTATION) {
            double l = norm4(v);
            if (!(l >= VKS_CLIP_MIN_QUAT_NORM && l <= VKS_CLIP_MAX_QUAT_NORM))
                return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path,
                                     "key %u: quaternion (%g, %g, %g, %g) has norm %g, outside the 2^-60..2^60 "
                                     "float32 engines can normalise",
                                     (unsigned)k, (double)v[0], (double)v[1], (double)v[2], (double)v[3], l);
        } else if (ch == VKS_CHANNEL_EULER) {
            if (fabs(v[0]) > VKS_CLIP_MAX_EULER)
                return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path,
                                     "key %u: angle %g rad, beyond the +-128 rad float32 engines agree on", (unsigned)k,
                                     (double)v[0]);
        } else {
            for (uint32_t i = 0; i < c->components; i++)
                if (fabs(v[i]) > VKS_CLIP_MAX_MAGNITUDE)
                    return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path,
                                         "key %u: %g, beyond the +-2^48 float32 engines can compose", (unsigned)k,
                                         (double)v[i]);
        }
    }
    if (c->interp != VKS_INTERP_HERMITE)
        return VKS_OK;
    size_t n = (size_t)c->key_count * c->components;
    for (size_t i = 0; i < n; i++)
        if (fabs(c->in_tangents[i]) > VKS_CLIP_MAX_MAGNITUDE || fabs(c->out_tangents[i]) > VKS_CLIP_MAX_MAGNITUDE)
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path,
                                 "key %u: tangent %g per second, beyond the +-2^48 float32 engines can compose",
                                 (unsigned)(i / c->components),
                                 fabs(c->in_tangents[i]) > fabs(c->out_tangents[i]) ? (double)c->in_tangents[i]
                                                                                    : (double)c->out_tangents[i]);
    return VKS_OK;
}
