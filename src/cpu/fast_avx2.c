/* The fast CPU kernel for x86-64 CPUs with AVX2 and FMA, chosen at run time by fast.c (cpuid).
 * Its functions carry a target attribute (GCC and clang alike), so the rest of the library keeps
 * the baseline instruction set.
 *
 * Eight lanes hold two matrix columns: a = (x axis | y axis), b = (z axis | translation), so
 * blending an influence is two fused multiply-adds instead of four, and a transform is one
 * multiply, one multiply-add and one add of the two halves:
 *   a * (p.x x4 | p.y x4) + b * (p.z x4 | 1 x4) = (x p.x + z p.z | y p.y + t), halves summed.
 * Same results as the baseline within float rounding (the tests run both against the
 * reference). */
#include "fast_internal.h"

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#include <math.h>
#include <string.h>

#define AVX2 __attribute__((target("avx2,fma")))

/* (v[0] x4 | v[1] x4), reading exactly 8 bytes */
AVX2 static inline __m256 splat_xy(const float *v)
{
    __m128 xy = _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)v));
    return _mm256_permutevar8x32_ps(_mm256_castps128_ps256(xy), _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1));
}

/* a * xy + b * zw, halves summed: the 3-vector in lanes 0..2 */
AVX2 static inline __m128 apply(__m256 a, __m256 b, __m256 xy, __m256 zw)
{
    __m256 t = _mm256_fmadd_ps(a, xy, _mm256_mul_ps(b, zw));
    return _mm_add_ps(_mm256_castps256_ps128(t), _mm256_extractf128_ps(t, 1));
}

/* lanes 0..2; a 16-byte store where a later vertex of the range overwrites the fourth lane
 * (the range's last vertex writes 12 bytes: nothing outside the range is touched) */
AVX2 static inline void store3(float *dst, __m128 v, int whole)
{
    if (whole) {
        _mm_storeu_ps(dst, v);
    } else {
        float tmp[4];
        _mm_storeu_ps(tmp, v);
        memcpy(dst, tmp, 3 * sizeof *tmp);
    }
}

AVX2 static inline void range(const vks_skin *s, const vks__pal_mat *pal, uint32_t pal_last, uint32_t v0, uint32_t v1,
                         int k_inf, int has_n, int renorm, float *restrict pos, float *restrict nrm)
{
    const float *palf = (const float *)pal; /* 16 floats per matrix: columns 0..3 */
    const __m256 ones_hi = _mm256_setr_ps(0, 0, 0, 0, 1, 1, 1, 1);
    for (uint32_t v = v0; v < v1; v++) {
        const vks_influence *in = &s->influences[v];
        __m256 a = _mm256_setzero_ps(), b = a;
        for (int k = 0; k < k_inf; k++) {
            uint32_t idx = in->index[k] < pal_last ? in->index[k] : pal_last;
            __m256 w = _mm256_set1_ps(in->weight[k] > 0 ? in->weight[k] : 0.0f);
            const float *m = palf + (size_t)idx * 16;
            a = _mm256_fmadd_ps(w, _mm256_loadu_ps(m), a);
            b = _mm256_fmadd_ps(w, _mm256_loadu_ps(m + 8), b);
        }
        const float *p = s->positions[v];
        __m256 pz1 = _mm256_blend_ps(_mm256_set1_ps(p[2]), ones_hi, 0xF0);
        int whole = v + 1 < v1;
        store3(pos + (size_t)v * 3, apply(a, b, splat_xy(p), pz1), whole);
        if (nrm) {
            __m128 nn = _mm_setzero_ps();
            if (has_n) {
                const float *n = s->normals[v];
                __m256 nz0 = _mm256_blend_ps(_mm256_set1_ps(n[2]), _mm256_setzero_ps(), 0xF0);
                nn = apply(a, b, splat_xy(n), nz0);
                if (renorm) {
                    float len = sqrtf(_mm_cvtss_f32(_mm_dp_ps(nn, nn, 0x71)));
                    if (len > 0)
                        nn = _mm_div_ps(nn, _mm_set1_ps(len));
                }
            }
            store3(nrm + (size_t)v * 3, nn, whole);
        }
    }
}

AVX2 static void fast_group_avx2(const vks_skin *s, const vks__pal_mat *pal, uint32_t pal_last, uint32_t v0, uint32_t v1,
                            int k_inf, int has_n, int renorm, float *pos, float *nrm)
{
    switch (k_inf) { /* the influence count as a constant: each loop unrolled for it */
    case 1: range(s, pal, pal_last, v0, v1, 1, has_n, renorm, pos, nrm); break;
    case 2: range(s, pal, pal_last, v0, v1, 2, has_n, renorm, pos, nrm); break;
    case 3: range(s, pal, pal_last, v0, v1, 3, has_n, renorm, pos, nrm); break;
    default: range(s, pal, pal_last, v0, v1, 4, has_n, renorm, pos, nrm); break;
    }
}

const vks__fast_group_fn vks__fast_group_avx2 = fast_group_avx2;
#else
const vks__fast_group_fn vks__fast_group_avx2 = 0;
#endif
