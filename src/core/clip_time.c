/* The clip time a playing instance shows (clip_sample.h's vks_clip_play_time_f): the one definition
 * both sides of a validation use. The GPU's pose pass computes it in float
 * (compute/clip.glsl, clip_play_time), so the CPU reference takes the same float time and
 * only then samples and poses in double: a time computed in double can land on the other
 * side of a STEP key than the GPU's (start 0.839 + speed 0.69 x 7/30 is 0.99999998609 in
 * double, 1.0 in float), and the two poses then differ by a whole key.
 *
 * Every operation is one the Vulkan spec makes correctly rounded (add, subtract, multiply,
 * compare, floor), in the same order as the shader's, none fused (this file is built with
 * -ffp-contract=off; the shader's are `precise`). Division is not correctly rounded on GPUs,
 * so it only guesses the number of whole periods; the steps after it make the result that
 * of one rule, whatever the guess (clip_time_internal.h). */
#include <math.h>

#include "clip_time_internal.h"

float vks__clip_wrap_f(float t, float period, float k)
{
    /* Beyond 2^24 periods k + 1 == k and the rule has no answer; the time means nothing there */
    if (!(fabsf(k) < 16777216.0f))
        return 0.0f;
    /* t - period * k falls as k grows (rounding is monotonic), so the largest k that leaves it
       non-negative is one number; a guess up to VKS__CLIP_WRAP_STEPS off reaches it below */
    for (int i = 0; i < VKS__CLIP_WRAP_STEPS; i++) {
        float p = t - period * k;
        if (p >= 0.0f)
            break;
        k -= 1.0f;
    }
    for (int i = 0; i < VKS__CLIP_WRAP_STEPS; i++) {
        float q = t - period * (k + 1.0f);
        if (q < 0.0f)
            break;
        k += 1.0f;
    }
    return t - period * k;
}

float vks_clip_play_time_f(const vks_clip *clip, vks_cycle cycle, float start, float speed, float T)
{
    float d = clip ? clip->duration : 0.0f;
    float t = start + speed * T;
    if (!(d > 0.0f) || !isfinite(t))
        return 0.0f;
    switch (cycle) {
    case VKS_CYCLE_CLAMP:
        return t < 0.0f ? 0.0f : t > d ? d : t;
    case VKS_CYCLE_RESET:
        return t < 0.0f || t > d ? 0.0f : t;
    case VKS_CYCLE_MIRROR: {
        float d2 = 2.0f * d;
        float p = vks__clip_wrap_f(t, d2, floorf(t / d2));
        if (p >= d2)
            p = 0.0f;
        return p > d ? d2 - p : p;
    }
    default: {
        float p = vks__clip_wrap_f(t, d, floorf(t / d));
        return p >= d ? 0.0f : p;
    }
    }
}
