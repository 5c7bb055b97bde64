/* The host's side of the verdict's reduction (compute/reduce.comp): the same figures from the
 * same words, so validate can tell whether the bytes it was handed are the bytes the GPU
 * reduced. Integer work on the words as stored (no float compare: a NaN or a denormal is
 * just bits here), hence exact and independent of order and of the split into shares. */
#include "vkskin/gpu.h"

#include <math.h>
#include <string.h>

static uint32_t order_key(uint32_t u)
{
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

static int finite_bits(uint32_t u)
{
    return (u & 0x7f800000u) != 0x7f800000u;
}

void vks_gpu_figures_reset(vks_gpu_figures *f)
{
    memset(f, 0, sizeof *f);
    for (int k = 0; k < 3; k++)
        f->min_key[k] = 0xffffffffu;
}

void vks_gpu_figures_add(vks_gpu_figures *f, const float *positions, const float *normals, size_t vertices)
{
    uint32_t sum = f->sum, x = f->xor_words, nonfinite = f->nonfinite;
    uint32_t mn[3] = {f->min_key[0], f->min_key[1], f->min_key[2]};
    uint32_t mx[3] = {f->max_key[0], f->max_key[1], f->max_key[2]};
    for (size_t v = 0; v < vertices; v++)
        for (int k = 0; k < 3; k++) {
            uint32_t u;
            memcpy(&u, &positions[v * 3 + k], 4);
            sum += u, x ^= u;
            if (finite_bits(u)) {
                uint32_t key = order_key(u);
                mn[k] = key < mn[k] ? key : mn[k];
                mx[k] = key > mx[k] ? key : mx[k];
            } else {
                nonfinite++;
            }
        }
    float dev = f->normal_deviation;
    for (size_t v = 0; normals && v < vertices; v++) {
        uint32_t u[3];
        memcpy(u, &normals[v * 3], 12);
        int bad = 0;
        for (int k = 0; k < 3; k++) {
            sum += u[k], x ^= u[k];
            bad += !finite_bits(u[k]);
        }
        nonfinite += (uint32_t)bad;
        if (!bad) {
            const float *n = &normals[v * 3];
            float d = fabsf(sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) - 1.0f);
            dev = d > dev ? d : dev;
        }
    }
    f->sum = sum, f->xor_words = x, f->nonfinite = nonfinite, f->normal_deviation = dev;
    memcpy(f->min_key, mn, sizeof mn), memcpy(f->max_key, mx, sizeof mx);
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
