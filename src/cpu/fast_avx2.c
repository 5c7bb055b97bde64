/* The fast CPU kernel for x86-64 CPUs with AVX2 and FMA, chosen at run time by fast.c (cpuid):
 * the same loop as fast_baseline.c with fused multiply-adds and VEX encoding. Built with a
 * target pragma, so the rest of the library keeps the baseline instruction set. */
#include "fast_internal.h"

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#include <immintrin.h>

#define FAST_MADD(a, b, c) ((vks__f4)_mm_fmadd_ps((__m128)(a), (__m128)(b), (__m128)(c)))
#define FAST_GROUP fast_group_avx2
static void fast_group_avx2(const vks_skin *s, const vks__pal_mat *pal, uint32_t pal_last, uint32_t v0, uint32_t v1,
                            int k_inf, int has_n, int renorm, float *pos, float *nrm);
#include "fast_kernel.h"
#pragma GCC pop_options

const vks__fast_group_fn vks__fast_group_avx2 = fast_group_avx2;
#else
const vks__fast_group_fn vks__fast_group_avx2 = 0;
#endif
