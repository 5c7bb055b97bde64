/* The host's side of the verdict's reduction (compute/reduce.comp): the same figures from the
 * same words, so validate can tell whether the bytes it was handed are the bytes the GPU
 * reduced. Integer work on the words as stored (no float compare: a NaN or a denormal is
 * just bits here), hence exact and independent of order and of the split into shares. */
#include "vkskin/gpu.h"

#include <math.h>
#include <string.h>

/* A float's order key: the sign bit set for positives, every bit flipped for negatives
 * (branch-free: the sign smeared over the word). */
static inline uint32_t order_key(uint32_t u)
{
    return u ^ ((uint32_t)((int32_t)u >> 31) | 0x80000000u);
}

static inline uint32_t finite_bits(uint32_t u)
{
    return (u & 0x7f800000u) != 0x7f800000u;
}

void vks_gpu_figures_reset(vks_gpu_figures *f)
{
    memset(f, 0, sizeof *f);
    for (int k = 0; k < 3; k++)
        f->min_key[k] = 0xffffffffu;
}

/* Branch-free over the words (a non-finite one's key is made neutral: all ones for the
 * minimum, zero for the maximum), so a chunk's pass runs at memory speed on the reference's
 * threads. */
void vks_gpu_figures_add(vks_gpu_figures *f, const float *positions, const float *normals, size_t vertices)
{
    uint32_t sum = f->sum, x = f->xor_words, nonfinite = f->nonfinite;
    uint32_t mn0 = f->min_key[0], mn1 = f->min_key[1], mn2 = f->min_key[2];
    uint32_t mx0 = f->max_key[0], mx1 = f->max_key[1], mx2 = f->max_key[2];
    const uint32_t *w = (const uint32_t *)(const void *)positions; /* the words as stored */
#define VKS_FIG_AXIS(u, mn, mx)                                                                                       \
    do {                                                                                                               \
        uint32_t fin = finite_bits(u), key = order_key(u);                                                            \
        uint32_t lo = key | (fin - 1u), hi = key & (0u - fin);                                                         \
        mn = lo < mn ? lo : mn, mx = hi > mx ? hi : mx;                                                                \
        sum += u, x ^= u, nonfinite += 1u - fin;                                                                       \
    } while (0)
    for (size_t v = 0; v < vertices; v++) {
        uint32_t a = w[v * 3], b = w[v * 3 + 1], c = w[v * 3 + 2];
        VKS_FIG_AXIS(a, mn0, mx0);
        VKS_FIG_AXIS(b, mn1, mx1);
        VKS_FIG_AXIS(c, mn2, mx2);
    }
#undef VKS_FIG_AXIS
    const uint32_t *n = (const uint32_t *)(const void *)normals;
    for (size_t i = 0; n && i < vertices * 3; i++) {
        sum += n[i], x ^= n[i];
        nonfinite += 1u - finite_bits(n[i]);
    }
    f->sum = sum, f->xor_words = x, f->nonfinite = nonfinite;
    f->min_key[0] = mn0, f->min_key[1] = mn1, f->min_key[2] = mn2;
    f->max_key[0] = mx0, f->max_key[1] = mx1, f->max_key[2] = mx2;
}

float vks_gpu_figures_normal_deviation(const float *normals, size_t vertices)
{
    float dev = 0.0f;
    for (size_t v = 0; normals && v < vertices; v++) {
        const float *q = &normals[v * 3];
        uint32_t u[3];
        memcpy(u, q, 12);
        if (finite_bits(u[0]) && finite_bits(u[1]) && finite_bits(u[2])) {
            float d = fabsf(sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]) - 1.0f);
            dev = d > dev ? d : dev;
        }
    }
    return dev;
}

void vks_gpu_figures_merge(vks_gpu_figures *f, const vks_gpu_figures *o)
{
    f->sum += o->sum, f->xor_words ^= o->xor_words, f->nonfinite += o->nonfinite;
    for (int k = 0; k < 3; k++) {
        f->min_key[k] = o->min_key[k] < f->min_key[k] ? o->min_key[k] : f->min_key[k];
        f->max_key[k] = o->max_key[k] > f->max_key[k] ? o->max_key[k] : f->max_key[k];
    }
    f->normal_deviation = o->normal_deviation > f->normal_deviation ? o->normal_deviation : f->normal_deviation;
}

float vks_gpu_figures_float(uint32_t key)
{
    uint32_t u = (key & 0x80000000u) ? (key & 0x7fffffffu) : ~key;
    float out;
    memcpy(&out, &u, 4);
    return out;
}
