// Sine, cosine and arc cosine from add, subtract and multiply (and one sqrt), for the shaders
// whose results are checked against the CPU reference. The Vulkan specification's precision
// table promises GLSL's sin and cos only an absolute error of 2^-11 inside [-pi, pi] (nothing
// outside), and acos only what it inherits from atan2's 4096 ulp: lavapipe and SwiftShader
// give different numbers inside that room (clip poses 1-2.4e-5 of the scale apart on
// SwiftShader), and a real GPU may use all of it. Add, subtract and multiply are correctly
// rounded there, and sqrt is bounded by its inherited 1/inversesqrt (a few ulp, as every
// length() the passes normalise with). So each function here is a Taylor polynomial whose
// truncation is bounded beside it; what is left is float rounding, a few ulp.
#ifndef VKS_TRIG_GLSL
#define VKS_TRIG_GLSL

// sin to x^13: for |x| <= pi/2 the terms left out sum below (pi/2)^15 / 15! < 7e-10.
float sin_poly(float x)
{
    float x2 = x * x;
    return x * (1.0 + x2 * (-1.0 / 6.0 + x2 * (1.0 / 120.0 + x2 * (-1.0 / 5040.0 + x2 * (1.0 / 362880.0 +
           x2 * (-1.0 / 39916800.0 + x2 * (1.0 / 6227020800.0)))))));
}

// cos to x^16: for |x| <= pi/2 the terms left out sum below (pi/2)^18 / 18! < 1e-12.
float cos_poly(float x)
{
    float x2 = x * x;
    return 1.0 + x2 * (-0.5 + x2 * (1.0 / 24.0 + x2 * (-1.0 / 720.0 + x2 * (1.0 / 40320.0 + x2 * (-1.0 / 3628800.0 +
           x2 * (1.0 / 479001600.0 + x2 * (-1.0 / 87178291200.0)))))));
}

// (sin x, cos x) for |x| <= 8192: x less its nearest multiple k of pi/2, taken off in three
// parts whose products with k are exact (Cody and Waite's split, as Cephes' sinf), leaves
// |r| <= pi/4 (+ an ulp) for the polynomials above; the quadrant k mod 4 picks signs and order.
// Conditioned Euler keys stay within +-128 rad (src/core/clip_float32.c), k within +-82.
vec2 sin_cos(float x)
{
    const float PIO2_1 = 1.5703125, PIO2_2 = 4.837512969970703125e-4, PIO2_3 = 7.54978995489188216e-8;
    float k = floor(x * 0.63661977236758134 + 0.5);
    precise float r = ((x - k * PIO2_1) - k * PIO2_2) - k * PIO2_3;
    float s = sin_poly(r), c = cos_poly(r);
    int q = int(k) & 3;
    return q == 0 ? vec2(s, c) : q == 1 ? vec2(c, -s) : q == 2 ? vec2(-s, -c) : vec2(-c, s);
}

// asin to x^21: for 0 <= x <= 1/2 the terms left out sum below c_11 x^23 / (1 - x^2) < 1.2e-9
// (c_n = (2n)! / (4^n n!^2 (2n + 1)), each below the one before).
float asin_poly(float x)
{
    float x2 = x * x;
    return x + x * x2 * (1.0 / 6.0 + x2 * (3.0 / 40.0 + x2 * (5.0 / 112.0 + x2 * (35.0 / 1152.0 +
           x2 * (63.0 / 2816.0 + x2 * (231.0 / 13312.0 + x2 * (143.0 / 10240.0 + x2 * (6435.0 / 557056.0 +
           x2 * (12155.0 / 1245184.0 + x2 * (46189.0 / 5505024.0))))))))));
}

// acos d for 0 <= d < 1: pi/2 - asin d up to 1/2 (pi/2 in two parts), 2 asin sqrt((1 - d) / 2)
// above (1 - d exact there), so asin_poly only ever sees 0..1/2. Within about 2e-7 rad.
float acos_poly(float d)
{
    const float PIO2_HI = 1.57079637050628662109375, PIO2_LO = -4.37113900018624283e-8;
    if (d <= 0.5) {
        precise float a = (PIO2_HI - asin_poly(d)) + PIO2_LO;
        return a;
    }
    return 2.0 * asin_poly(sqrt((1.0 - d) * 0.5));
}

#endif
