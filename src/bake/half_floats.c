/* Floats to IEEE half for the VAT's half EXR, a texture at a time (vat_encode.h). x86's F16C
 * conversion (VCVTPS2PH with round to nearest even) gives the bits vks_half_from_float gives
 * for every one of the 2^32 floats (checked exhaustively when this was written; test_vat_half
 * checks a sample and every special): NaNs keep their top mantissa bits and become quiet,
 * overflow goes to infinity, float subnormals to zero, half subnormals round to nearest even.
 * It was a per-component call costing as much as a half EXR's whole encoding. */
#include "vat_encode.h"

#include "vkskin/vat.h"

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define VKS_HAVE_F16C_PATH 1

__attribute__((target("f16c"))) static void half_f16c(const float *in, uint16_t *out, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT);
        _mm_storeu_si128((__m128i *)(void *)(out + i), h);
    }
    for (; i < n; i++)
        out[i] = vks_half_from_float(in[i]);
}
#endif

void vks__half_from_floats(const float *in, uint16_t *out, size_t n)
{
#ifdef VKS_HAVE_F16C_PATH
    if (__builtin_cpu_supports("f16c")) {
        half_f16c(in, out, n);
        return;
    }
#endif
    for (size_t i = 0; i < n; i++)
        out[i] = vks_half_from_float(in[i]);
}
