/* The CPU reference's crowd loop in AVX2: four instances at once, one in each double lane, and in
 * AVX-512 eight (reference.c runs a job's instances four or eight at a time where the CPU has
 * AVX2 or AVX-512). The loop is written once (reference_lanes_loop.h) for both widths. Each lane
 * does the scalar loop's double operations in its order, component after component,
 *   op[i] += w * (m[i] * px + m[3 + i] * py + m[6 + i] * pz + m[9 + i])
 * with m the lane's instance's skin matrix, so every float is the same bits as the scalar
 * loop's and the AVX2 vertex loop's (test_cpu_reference_simd). Where reference_avx2.c gives a
 * vertex's three components the lanes (the fourth idle), here each matrix element of the four
 * instances is one vector (vks__ref_lanes), so every lane works and a vertex's weights, position
 * and normal are read and widened once for four instances. No FMA, the same `w > 0` skip, the
 * same renormalisation and rounding to float; the stores are exact (twelve bytes an instance). */
#include "ref_kernel.h"

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

/* Four lanes' (x, y, z) floats: lane l's into out + l * stride, twelve bytes each. */
AVX2 static inline void store4f(float *out, size_t stride, __m128 fx, __m128 fy, __m128 fz)
{
    __m128 lo = _mm_unpacklo_ps(fx, fy), hi = _mm_unpackhi_ps(fx, fy); /* x0 y0 x1 y1, x2 y2 x3 y3 */
    __m128 z01 = _mm_unpacklo_ps(fz, fz), z23 = _mm_unpackhi_ps(fz, fz); /* z0 z0 z1 z1, z2 z2 z3 z3 */
    float *o1 = out + stride, *o2 = out + 2 * stride, *o3 = out + 3 * stride;
    _mm_storel_pi((__m64 *)out, lo), _mm_store_ss(out + 2, fz);
    _mm_storeh_pi((__m64 *)o1, lo), _mm_store_ss(o1 + 2, _mm_movehl_ps(z01, z01));
    _mm_storel_pi((__m64 *)o2, hi), _mm_store_ss(o2 + 2, z23);
    _mm_storeh_pi((__m64 *)o3, hi), _mm_store_ss(o3 + 2, _mm_movehl_ps(z23, z23));
}

/* The four lanes' (x, y, z) rounded to float (cvtpd2ps: to nearest, as the scalar cast). */
AVX2 static inline void store4(float *out, size_t stride, __m256d x, __m256d y, __m256d z)
{
    store4f(out, stride, _mm256_cvtpd_ps(x), _mm256_cvtpd_ps(y), _mm256_cvtpd_ps(z));
}

/* four instances in the four lanes of AVX2 */
#define RL_ATTR AVX2
#define RL_VEC __m256d
#define RL_SET1 _mm256_set1_pd
#define RL_ZERO _mm256_setzero_pd
#define RL_LOADU _mm256_loadu_pd
#define RL_ADD _mm256_add_pd
#define RL_MUL _mm256_mul_pd
#define RL_SQRT _mm256_sqrt_pd
#define RL_DIV_ABOVE(v, len)                                                                                       \
    _mm256_blendv_pd((v), _mm256_div_pd((v), (len)), _mm256_cmp_pd((len), _mm256_setzero_pd(), _CMP_GT_OQ))
#define RL_STORE store4
#define RL_GROUP group4
#define RL_LOOP lanes4_loop
#define RL_FN group_lanes4
#include "reference_lanes_loop.h"
#undef RL_ATTR
#undef RL_VEC
#undef RL_SET1
#undef RL_ZERO
#undef RL_LOADU
#undef RL_ADD
#undef RL_MUL
#undef RL_SQRT
#undef RL_DIV_ABOVE
#undef RL_STORE
#undef RL_GROUP
#undef RL_LOOP
#undef RL_FN

/* ---- eight instances in the eight lanes of AVX-512 (F): the same loop, the same operations ---- */

#define AVX512 __attribute__((target("avx512f,avx2")))

/* The eight lanes' (x, y, z) rounded to float, each half of four as store4f. */
AVX512 static inline void store8(float *out, size_t stride, __m512d x, __m512d y, __m512d z)
{
    __m256 fx = _mm512_cvtpd_ps(x), fy = _mm512_cvtpd_ps(y), fz = _mm512_cvtpd_ps(z);
    store4f(out, stride, _mm256_castps256_ps128(fx), _mm256_castps256_ps128(fy), _mm256_castps256_ps128(fz));
    store4f(out + 4 * stride, stride, _mm256_extractf128_ps(fx, 1), _mm256_extractf128_ps(fy, 1),
            _mm256_extractf128_ps(fz, 1));
}

#define RL_ATTR AVX512
#define RL_VEC __m512d
#define RL_SET1 _mm512_set1_pd
#define RL_ZERO _mm512_setzero_pd
#define RL_LOADU _mm512_loadu_pd
#define RL_ADD _mm512_add_pd
#define RL_MUL _mm512_mul_pd
#define RL_SQRT _mm512_sqrt_pd
#define RL_DIV_ABOVE(v, len) _mm512_mask_div_pd((v), _mm512_cmp_pd_mask((len), _mm512_setzero_pd(), _CMP_GT_OQ), (v), (len))
#define RL_STORE store8
#define RL_GROUP group8
#define RL_LOOP lanes8_loop
#define RL_FN group_lanes8
#include "reference_lanes_loop.h"

const vks__ref_lanes_fn vks__ref_group_lanes = group_lanes4;
const vks__ref_lanes_fn vks__ref_group_lanes8 = group_lanes8;
#else
const vks__ref_lanes_fn vks__ref_group_lanes = 0;
const vks__ref_lanes_fn vks__ref_group_lanes8 = 0;
#endif
