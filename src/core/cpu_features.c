/* One place that asks cpuid, for the five vector forms that used to ask it each on its own. */
#include "cpu_features.h"

#include <stdlib.h>
#include <string.h>

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>

/* XCR0 bits the OS sets when it saves them on a context switch: SSE, AVX (YMM upper halves),
 * opmask, ZMM upper halves of 0..15, ZMM 16..31. */
#define XCR0_AVX512_STATE 0xE6u

/* XCR0, or 0 where the OS has not enabled XGETBV (OSXSAVE clear). Asked directly rather than
 * through libgcc, whose checks of the OS state have varied between compiler versions. */
static unsigned os_saved_state(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE))
        return 0;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    (void)hi;
    return lo;
}

int vks__cpu_has_avx512(void)
{
    if (!vks__cpu_has_avx2_fma() || (os_saved_state() & XCR0_AVX512_STATE) != XCR0_AVX512_STATE)
        return 0;
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw");
}

int vks__cpu_has_avx2(void)
{
    __builtin_cpu_init(); /* idempotent; the checks may run before libgcc's constructor did */
    return __builtin_cpu_supports("avx2");
}

int vks__cpu_has_avx2_fma(void)
{
    return vks__cpu_has_avx2() && __builtin_cpu_supports("fma");
}
#else
int vks__cpu_has_avx2(void)
{
    return 0;
}

int vks__cpu_has_avx2_fma(void)
{
    return 0;
}

int vks__cpu_has_avx512(void)
{
    return 0;
}
#endif

int vks__cpu_crowd_off(void)
{
    const char *env = getenv("VKSKIN_CPU_CROWD");
    return env && !strcmp(env, "off");
}
