/* Floats to IEEE half for the VAT's half EXR, a texture at a time (vat_encode.h). x86's F16C
 * conversion (VCVTPS2PH with round to nearest even) gives the bits vks_half_from_float gives
 * for every one of the 2^32 floats (checked exhaustively when this was written; test_vat_half
 * checks a sample and every special): NaNs keep their top mantissa bits and become quiet,
 * overflow goes to infinity, float subnormals to zero, half subnormals round to nearest even.
 * It was a per-component call costing as much as a half EXR's whole encoding. */
#include "vat_encode.h"

#include "vkskin/vat.h"

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <cpuid.h>
#include <immintrin.h>
#define VKS_HAVE_F16C_PATH 1

/* F16C by CPUID (leaf 1, ECX bit 29), with AVX for the 256-bit registers it converts from
   (__builtin_cpu_supports("avx") also asks the OS for their state): clang before 15 does not
   know "f16c" as a __builtin_cpu_supports feature, so it is read here the same for both. */
static int have_f16c(void)
{
    unsigned a, b, c, d;
    return __builtin_cpu_supports("avx") && __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 29));
}

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
    if (have_f16c()) {
        half_f16c(in, out, n);
        return;
    }
#endif
    for (size_t i = 0; i < n; i++)
        out[i] = vks_half_from_float(in[i]);
}
