/* NMSE's sums of squares (vks_diff_add_sums, and two streams at once for validate): apart from
 * the rest of the diff so that the comparison's pass (compare.c), which takes them where it
 * compares, and the diff, which calls that pass, do not call each other. */
#include "vkskin/check.h"

#include "compare.h"
#include "core/cpu_features.h"

#include <float.h>
#include <math.h>
#include <stddef.h>

/* The sums of squares behind NMSE depend on the order of their adds, so they are taken one
 * component after the other, as they always were: that serial chain of adds is all that must
 * stay serial. The squares themselves (conversion, difference, products, the finiteness test)
 * do not depend on order: they are made ahead in blocks, four components a vector where the CPU
 * has AVX2, with 0 in place of a skipped (non-finite) component. Adding +0 to a sum that is
 * never negative, never -0 and never NaN (it starts at +0 and only grows by squares) leaves it
 * unchanged, so the sums are the bits the skipping loop gave. */
enum { SUMS_BLOCK = 512 };

static void squares_scalar(const float *a, const float *b, size_t n, double *dd, double *rr)
{
    for (size_t i = 0; i < n; i++) {
        double x = a[i], y = b[i], d = fabs(x - y);
        int ok = isfinite(x) && isfinite(y);
        dd[i] = ok ? d * d : 0.0;
        rr[i] = ok ? y * y : 0.0;
    }
}

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define SUMS_AVX2 __attribute__((target("avx2")))

SUMS_AVX2 static void squares_avx2(const float *a, const float *b, size_t n, double *dd, double *rr)
{
    const __m128 fmax = _mm_set1_ps(FLT_MAX), sign = _mm_set1_ps(-0.0f);
    const __m256d dsign = _mm256_set1_pd(-0.0);
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m128 fa = _mm_loadu_ps(a + i), fb = _mm_loadu_ps(b + i);
        /* finite: |v| <= FLT_MAX (false for infinities and NaN) */
        __m128 ok = _mm_and_ps(_mm_cmp_ps(_mm_andnot_ps(sign, fa), fmax, _CMP_LE_OQ),
                               _mm_cmp_ps(_mm_andnot_ps(sign, fb), fmax, _CMP_LE_OQ));
        __m256d keep = _mm256_castsi256_pd(_mm256_cvtepi32_epi64(_mm_castps_si128(ok)));
        __m256d x = _mm256_cvtps_pd(fa), y = _mm256_cvtps_pd(fb);
        __m256d d = _mm256_andnot_pd(dsign, _mm256_sub_pd(x, y));
        _mm256_storeu_pd(dd + i, _mm256_and_pd(keep, _mm256_mul_pd(d, d)));
        _mm256_storeu_pd(rr + i, _mm256_and_pd(keep, _mm256_mul_pd(y, y)));
    }
    squares_scalar(a + i, b + i, n - i, dd + i, rr + i);
}

static int sums_have_avx2(void)
{
    return vks__cpu_has_avx2();
}
#else
static void squares_avx2(const float *a, const float *b, size_t n, double *dd, double *rr)
{
    squares_scalar(a, b, n, dd, rr);
}

static int sums_have_avx2(void)
{
    return 0;
}
#endif

void vks_diff_add_sums(vks_diff_acc *acc, const float *a, const float *b, size_t components)
{
    double sd = acc->sum_sq_diff, sr = acc->sum_sq_ref;
    double dd[SUMS_BLOCK], rr[SUMS_BLOCK];
    int avx2 = sums_have_avx2();
    for (size_t at = 0; at < components; at += SUMS_BLOCK) {
        size_t n = components - at < SUMS_BLOCK ? components - at : SUMS_BLOCK;
        if (avx2)
            squares_avx2(a + at, b + at, n, dd, rr);
        else
            squares_scalar(a + at, b + at, n, dd, rr);
        for (size_t i = 0; i < n; i++) /* the serial chain: one add after the other */
            sd += dd[i], sr += rr[i];
    }
    acc->sum_sq_diff = sd, acc->sum_sq_ref = sr;
}

/* Two streams at once: each stream's adds in its own order, as vks_diff_add_sums takes them,
 * but four chains of adds interleaved, so that each add's latency is hidden behind the others'
 * (two chains wait on one add each). */
void vks__diff_add_sums_pair(vks_diff_acc *acc0, const float *a0, const float *b0, vks_diff_acc *acc1,
                             const float *a1, const float *b1, size_t components)
{
    double sd0 = acc0->sum_sq_diff, sr0 = acc0->sum_sq_ref, sd1 = acc1->sum_sq_diff, sr1 = acc1->sum_sq_ref;
    double dd0[SUMS_BLOCK], rr0[SUMS_BLOCK], dd1[SUMS_BLOCK], rr1[SUMS_BLOCK];
    int avx2 = sums_have_avx2();
    for (size_t at = 0; at < components; at += SUMS_BLOCK) {
        size_t n = components - at < SUMS_BLOCK ? components - at : SUMS_BLOCK;
        if (avx2) {
            squares_avx2(a0 + at, b0 + at, n, dd0, rr0);
            squares_avx2(a1 + at, b1 + at, n, dd1, rr1);
        } else {
            squares_scalar(a0 + at, b0 + at, n, dd0, rr0);
            squares_scalar(a1 + at, b1 + at, n, dd1, rr1);
        }
        for (size_t i = 0; i < n; i++)
            sd0 += dd0[i], sr0 += rr0[i], sd1 += dd1[i], sr1 += rr1[i];
    }
    acc0->sum_sq_diff = sd0, acc0->sum_sq_ref = sr0, acc1->sum_sq_diff = sd1, acc1->sum_sq_ref = sr1;
}
