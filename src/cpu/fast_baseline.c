/* The fast CPU kernel for any target (SSE2 on x86-64): separate multiply and add, since the
 * build is -std=c11 (no contraction) and the baseline has no FMA. */
#define FAST_MADD(a, b, c) ((a) * (b) + (c))
#define FAST_KERNEL vks__fast_baseline
#define FAST_NAME "baseline"
#include "fast_kernel.h"
