// Clip sampling in the pose pass: the float sampler of src/anim/clip_sample_impl.h, step for
// step, over the clip words uploaded once by src/gpu/vulkan/clips.c (layout there, and below). Each
// instance samples its own clip at its own time: a frame uploads nothing per instance.
//
// Words (uint, floats as bits), offsets in words:
//   entry (model x clip) at E: clip offset, model offset, then per node its track or ~0u
//   clip at C: duration, space, track count, tracks offset
//   track: 6 curves (translation, rotation, euler x, y, z, scale) of 8 words:
//          key count, components | interp << 8, times, values, in tangents, out tangents,
//          start, stop
//   model at M: per node 34 floats: bind t, q, s (10), bind world in skin space (12), its
//          inverse (12); the 12 words before M: the skin space's inverse (roots of delta clips)

#include "trig.glsl"

layout(std430, binding = 10) readonly buffer ClipWords { uint cw[]; };

const uint INTERP_STEP = 0u;
const uint INTERP_LINEAR = 1u;
const uint INTERP_HERMITE = 2u;
const uint INTERP_BSPLINE = 3u;
const uint CYCLE_LOOP = 0u;
const uint CYCLE_CLAMP = 1u;
const uint CYCLE_MIRROR = 2u;
const uint CYCLE_RESET = 3u;
const uint SPACE_LOCAL = 0u;
const uint SPACE_MODEL_DELTA = 1u;
const uint SPACE_PARENT_DELTA = 2u;
const uint CURVE_WORDS = 8u;
const uint TRACK_WORDS = 48u;
const uint NODE_WORDS = 34u;

float cf(uint at) { return uintBitsToFloat(cw[at]); }

// The clip time of an instance at frame time T, operation for operation as
// src/anim/clip_time.c computes it for the CPU reference (vks_clip_play_time_f): both sides
// must sample the same keys, and a STEP key turns an ulp of time into a whole key. Add,
// subtract and multiply are correctly rounded in Vulkan and `precise` keeps them unfused;
// division is not, so it only guesses the whole periods, which the steps then settle.
float clip_wrap(float t, float period, float k)
{
    if (!(abs(k) < 16777216.0))
        return 0.0;
    for (int i = 0; i < 4; i++) { // VKS__CLIP_WRAP_STEPS
        precise float p = t - period * k;
        if (p >= 0.0)
            break;
        k -= 1.0;
    }
    for (int i = 0; i < 4; i++) {
        precise float q = t - period * (k + 1.0);
        if (q < 0.0)
            break;
        k += 1.0;
    }
    precise float r = t - period * k;
    return r;
}

float clip_play_time(float d, uint cycle, float start, float speed, float T)
{
    precise float t = start + speed * T;
    if (!(d > 0.0) || isnan(t) || isinf(t))
        return 0.0;
    if (cycle == CYCLE_CLAMP)
        return t < 0.0 ? 0.0 : t > d ? d : t;
    if (cycle == CYCLE_RESET)
        return (t < 0.0 || t > d) ? 0.0 : t;
    if (cycle == CYCLE_MIRROR) {
        float d2 = 2.0 * d;
        float p = clip_wrap(t, d2, floor(t / d2));
        if (p >= d2)
            p = 0.0;
        precise float back = d2 - p;
        return p > d ? back : p;
    }
    float p = clip_wrap(t, d, floor(t / d));
    return p >= d ? 0.0 : p;
}

vec4 normalize4(vec4 q)
{
    float l = length(q);
    return l > 0.0 ? q / l : q;
}

vec4 load_n(uint at, uint dim)
{
    vec4 v = vec4(0.0);
    [[unroll]] for (uint i = 0u; i < 4u; i++)
        if (i < dim)
            v[i] = cf(at + i);
    return v;
}

// The reference's slerp (src/core/clip_sample_impl.h) without GLSL's acos and sin, whose
// precision the specification leaves loose (trig.glsl): theta = acos d and the weights
// sin((1 - u) theta), sin(u theta) from trig.glsl's polynomials (theta <= pi/2 after the sign
// flip, so no reduction). The reference's common factor 1 / sin(theta) is left out: the
// normalisation after takes any common factor away, for keys of any length as for unit ones.
vec4 slerp4(vec4 a, vec4 b, float u)
{
    float d = dot(a, b);
    float sgn = 1.0;
    if (d < 0.0) {
        d = -d;
        sgn = -1.0;
    }
    float wa = 1.0 - u, wb = u;
    if (d < 0.9995) {
        float theta = acos_poly(d);
        wa = sin_poly((1.0 - u) * theta);
        wb = sin_poly(u * theta);
    }
    return normalize4(wa * a + sgn * wb * b);
}

float knot(int j, int n) { return float(clamp(j - 3, 0, n - 3)); }

vec4 bspline(uint c, float t, uint dim)
{
    int n = int(cw[c]);
    uint vals = cw[c + 3u];
    float start = cf(c + 6u), stop = cf(c + 7u);
    float u = (t - start) / (stop - start) * float(n - 3);
    if (!(u > 0.0))
        u = 0.0;
    if (u >= float(n - 3))
        return load_n(vals + uint(n - 1) * dim, dim);
    int i = int(u) + 3;
    vec4 d[4];
    [[unroll]] for (int j = 0; j < 4; j++)
        d[j] = load_n(vals + uint(j + i - 3) * dim, dim);
    [[unroll]] for (int r = 1; r <= 3; r++)
        [[unroll]] for (int j = 3; j >= r; j--) {
            float k0 = knot(j + i - 3, n), k1 = knot(j + 1 + i - r, n);
            float alpha = k1 > k0 ? (u - k0) / (k1 - k0) : 0.0;
            d[j] = (1.0 - alpha) * d[j - 1] + alpha * d[j];
        }
    return d[3];
}

// One curve at local time t; the caller checked it has keys.
vec4 sample_curve(uint c, float t)
{
    uint n = cw[c], dim = cw[c + 1u] & 255u, interp = cw[c + 1u] >> 8;
    if (interp == INTERP_BSPLINE) {
        vec4 v = bspline(c, t, dim);
        return dim == 4u ? normalize4(v) : v;
    }
    uint times = cw[c + 2u], vals = cw[c + 3u];
    uint k = 0xFFFFFFFFu;
    if (n == 1u || t <= cf(times))
        k = 0u;
    else if (t >= cf(times + n - 1u))
        k = n - 1u;
    if (k != 0xFFFFFFFFu) {
        vec4 v = load_n(vals + k * dim, dim);
        return dim == 4u ? normalize4(v) : v;
    }
    uint lo = 0u, hi = n - 1u;
    while (hi - lo > 1u) {
        uint mid = lo + (hi - lo) / 2u;
        if (cf(times + mid) <= t)
            lo = mid;
        else
            hi = mid;
    }
    k = lo;
    vec4 a = load_n(vals + k * dim, dim), b = load_n(vals + (k + 1u) * dim, dim), v;
    float t0 = cf(times + k), dt = cf(times + k + 1u) - t0;
    float u = dt > 0.0 ? (t - t0) / dt : 1.0;
    if (interp == INTERP_STEP)
        v = a;
    else if (interp == INTERP_HERMITE) {
        vec4 mo = load_n(cw[c + 5u] + k * dim, dim), mi = load_n(cw[c + 4u] + (k + 1u) * dim, dim);
        float u2 = u * u, u3 = u2 * u;
        float h00 = 2.0 * u3 - 3.0 * u2 + 1.0, h10 = u3 - 2.0 * u2 + u, h01 = -2.0 * u3 + 3.0 * u2, h11 = u3 - u2;
        v = h00 * a + h10 * dt * mo + h01 * b + h11 * dt * mi;
    } else {
        if (dim == 4u)
            return slerp4(a, b, u);
        v = a + (b - a) * u;
    }
    return dim == 4u ? normalize4(v) : v;
}

// q = qz qy qx: R = Rz Ry Rx, x applied first.
// (sin, cos) of the half angles from trig.glsl's sin_cos, not GLSL's sin and cos (trig.glsl).
vec4 euler_quat(vec3 e)
{
    vec2 x = sin_cos(e.x / 2.0), y = sin_cos(e.y / 2.0), z = sin_cos(e.z / 2.0);
    float sx = x.x, cx = x.y, sy = y.x, cy = y.y, sz = z.x, cz = z.y;
    return vec4(sx * cy * cz - cx * sy * sz, cx * sy * cz + sx * cy * sz, cx * cy * sz - sx * sy * cz,
                cx * cy * cz + sx * sy * sz);
}

Aff compose_trs(vec3 tt, vec4 q, vec3 ss);
void track_trs(uint tr, float t, inout vec3 tt, inout vec4 q, inout vec3 ss);

// The track's T * R * S; channels without keys take base (the bind local's, or identity).
// The six curves are sampled by one call site in a loop that is not unrolled: LLVM (lavapipe)
// inlines sample_curve at every call site, and six of them made the pose shader's compile on a
// cold shader cache take seconds. The loop's iterations count against llvmpipe's loop budget
// (search_loops in src/gpu/vulkan/clips.c counts them).
Aff track_transform(uint tr, float t, vec3 bt, vec4 bq, vec3 bs)
{
    track_trs(tr, t, bt, bq, bs);
    return compose_trs(bt, bq, bs);
}

// The track's T, R, S over the base's (tt, q, ss in: the base; out: the sample), q as sampled
// (compose_trs normalises it).
void track_trs(uint tr, float t, inout vec3 tt, inout vec4 q, inout vec3 ss)
{
    vec4 got[6];
    [[dont_unroll]] for (uint k = 0u; k < 6u; k++) {
        uint c = tr + k * CURVE_WORDS;
        got[k] = vec4(0.0);
        if (cw[c] != 0u)
            got[k] = sample_curve(c, t);
    }
    if (cw[tr] != 0u)
        tt = got[0].xyz;
    uint rc = tr + CURVE_WORDS;
    if (cw[rc] != 0u)
        q = got[1];
    else if (cw[rc + CURVE_WORDS] != 0u || cw[rc + 2u * CURVE_WORDS] != 0u || cw[rc + 3u * CURVE_WORDS] != 0u)
        q = euler_quat(vec3(got[2].x, got[3].x, got[4].x));
    uint sc = tr + 5u * CURVE_WORDS;
    if (cw[sc] != 0u)
        ss = got[5].xyz;
}

// T * R(q) * S, q normalised here (identity when zero), as src/core/clip_sample_impl.h's compose.
Aff compose_trs(vec3 tt, vec4 q, vec3 ss)
{
    float l = length(q);
    q = l > 0.0 ? q / l : vec4(0, 0, 0, 1);
    float x = q.x, y = q.y, z = q.z, w = q.w;
    Aff a;
    a.c[0] = vec3(1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + z * w), 2.0 * (x * z - y * w)) * ss.x;
    a.c[1] = vec3(2.0 * (x * y - z * w), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z + x * w)) * ss.y;
    a.c[2] = vec3(2.0 * (x * z + y * w), 2.0 * (y * z - x * w), 1.0 - 2.0 * (x * x + y * y)) * ss.z;
    a.c[3] = tt;
    return a;
}

Aff load_aff_words(uint at)
{
    Aff r;
    [[unroll]] for (int j = 0; j < 4; j++)
        r.c[j] = vec3(cf(at + 3u * uint(j)), cf(at + 3u * uint(j) + 1u), cf(at + 3u * uint(j) + 2u));
    return r;
}

Aff identity_aff()
{
    Aff r;
    r.c[0] = vec3(1, 0, 0); r.c[1] = vec3(0, 1, 0); r.c[2] = vec3(0, 0, 1); r.c[3] = vec3(0);
    return r;
}
