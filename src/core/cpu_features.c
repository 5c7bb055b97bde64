/* One place that asks cpuid, for the five vector forms that used to ask it each on its own. */
#include "cpu_features.h"

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
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
#endif
