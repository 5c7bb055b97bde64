// The procedural pose of src/pose/procedural.c on the GPU: each non-root node is its bind local
// times a rotation about a node-specific axis by range * sin(2 pi (freq * time + phase)).
//
// Same numbers as the CPU: the hashes are splitmix64 in exact 32-bit halves (x = low word,
// y = high word), so every random choice is bit for bit the CPU's. The angle needs care in
// float32: freq * time reaches hundreds of cycles, whose float rounding alone would move the
// angle by 1e-4 rad. So the cycle count is built modulo 1 in 32-bit fixed point from exact
// pieces: freq is split into 12-bit parts and time into two 12-bit halves (their products are
// exact in float), each product's fraction is exact (x - floor(x)), and the fixed-point sum
// wraps exactly; what is left is 2^-32 per piece. Then sin and cos come from the same
// quarter-turn Taylor polynomials as det_sin, in float (GLSL's sin() only promises 2^-11):
// sin_poly and cos_poly of trig.glsl.

#include "trig.glsl"

uvec2 add64(uvec2 a, uvec2 b)
{
    uint carry;
    uint lo = uaddCarry(a.x, b.x, carry);
    return uvec2(lo, a.y + b.y + carry);
}

uvec2 mul64(uvec2 a, uvec2 b) // the low 64 bits of a * b
{
    uint hi, lo;
    umulExtended(a.x, b.x, hi, lo);
    return uvec2(lo, hi + a.x * b.y + a.y * b.x);
}

uvec2 xorshift(uvec2 a, uint s) // a ^ (a >> s), 0 < s < 32
{
    return a ^ uvec2((a.x >> s) | (a.y << (32u - s)), a.y >> s);
}

uvec2 splitmix64(uvec2 x)
{
    x = add64(x, uvec2(0x7F4A7C15u, 0x9E3779B9u));
    x = mul64(xorshift(x, 30u), uvec2(0x1CE4E5B9u, 0xBF58476Du));
    x = mul64(xorshift(x, 27u), uvec2(0x133111EBu, 0x94D049BBu));
    return xorshift(x, 31u);
}

const float TWO_M23 = 1.1920928955078125e-7;   // 2^-23
const float TWO_M11 = 4.8828125e-4;            // 2^-11
const float TWO_M53 = 1.1102230246251565e-16;  // 2^-53
const float TWO_M32 = 2.3283064365386963e-10;  // 2^-32
const float TWO_32 = 4294967296.0;
const float TWO_PI = 6.2831853071795865;

// unit(h) = (h >> 11) * 2^-53 of the CPU: its top 23 bits exactly, plus the other 30.
float unit_low30(uvec2 h) { return float(((h.y & 0x1FFu) << 21) | (h.x >> 11)) * TWO_M53; }
float unit_of(uvec2 h) { return float(h.y >> 9) * TWO_M23 + unit_low30(h); }

// x mod 1 as a 32-bit fixed-point fraction; exact for x exact, up to the 2^-32 truncation.
uint turns32(float x)
{
    precise float a = abs(x);
    precise float f = a - floor(a);
    uint u = uint(f * TWO_32);
    return x < 0.0 ? 0u - u : u;
}

// sin and cos of 2 pi t for a number of turns t, folded to a quarter turn.
float sin_turns(float t)
{
    t -= floor(t + 0.5); // [-0.5, 0.5)
    if (t > 0.25)
        t = 0.5 - t;
    else if (t < -0.25)
        t = -0.5 - t;
    return sin_poly(TWO_PI * t);
}

float cos_turns(float t)
{
    t = abs(t - floor(t + 0.5)); // [0, 0.5]
    return t > 0.25 ? -cos_poly(TWO_PI * (0.5 - t)) : cos_poly(TWO_PI * t);
}

// Local transform of node n (model-local index) of a procedural instance; bind is its bind
// local (columns x, y, z, translation).
void procedural_local(uvec2 seed, uint instance, float max_angle, uint n, float time, inout vec3 c[4])
{
    float range = max_angle > 0.0 ? max_angle : 0.6;
    uvec2 hn = splitmix64(seed ^ splitmix64(add64(uvec2(0x6E6F6465u, 0u), uvec2(n, 0u))));
    vec3 axis = vec3(unit_of(splitmix64(add64(hn, uvec2(1u, 0u)))), unit_of(splitmix64(add64(hn, uvec2(2u, 0u)))),
                     unit_of(splitmix64(add64(hn, uvec2(3u, 0u))))) * 2.0 - 1.0;
    float len = length(axis);
    axis = len < 1e-3 ? vec3(1.0, 0.0, 0.0) : axis / len;
    // freq = 0.5 + unit(h4) = f1 + f2 + f3: 11, 12 and 30 bits of the 53
    uvec2 h4 = splitmix64(add64(hn, uvec2(4u, 0u)));
    float f1 = 0.5 + float(h4.y >> 21) * TWO_M11, f2 = float((h4.y >> 9) & 0xFFFu) * TWO_M23, f3 = unit_low30(h4);
    // time = t1 + t2, 12 significant bits each
    float t1 = uintBitsToFloat(floatBitsToUint(time) & 0xFFFFF000u);
    precise float t2 = time - t1;
    precise float p11 = f1 * t1, p12 = f1 * t2, p21 = f2 * t1, p22 = f2 * t2, p3 = f3 * time;
    // phase = unit(hash(instance)): its top 32 bits are the high word
    uint phase = splitmix64(hn ^ splitmix64(add64(uvec2(0x696E7374u, 0u), uvec2(instance, 0u)))).y;
    uint turns = turns32(p11) + turns32(p12) + turns32(p21) + turns32(p22) + turns32(p3) + phase;
    float angle = range * sin_turns(float(int(turns)) * TWO_M32);
    float co = cos_turns(angle * (1.0 / TWO_PI)), si = sin_turns(angle * (1.0 / TWO_PI)), t = 1.0 - co;
    float ax = axis.x, ay = axis.y, az = axis.z;
    mat3 r = mat3(t * ax * ax + co, t * ax * ay + si * az, t * ax * az - si * ay,
                  t * ax * ay - si * az, t * ay * ay + co, t * ay * az + si * ax,
                  t * ax * az + si * ay, t * ay * az - si * ax, t * az * az + co);
    mat3 b = mat3(c[0], c[1], c[2]);
    mat3 o = b * r; // the node turns about its own origin, in its own frame
    c[0] = o[0]; c[1] = o[1]; c[2] = o[2];
}
