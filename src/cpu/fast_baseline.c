/* The fast CPU kernel for any target (SSE2 on x86-64): separate multiply and add, since the
 * build is -std=c11 (no contraction) and the baseline has no FMA. */
#if defined(__SSE__)
#include <xmmintrin.h>
#endif

/* The crowd loop (fast_crowd.h), four instances in the four lanes, in the vertex loop's order
 * (fast_kernel.h): ((x p.x + y p.y) + z p.z) + t. */
#define CROWD_LANES 4
#define CROWD_TARGET
#define CROWD_SPLAT(f) ((cv){(f), (f), (f), (f)})
/* lane i of a record's aligned vector (weights, position, normal): one pshufd from the vector
 * loaded once, where a broadcast of the float is a load and a shufps each */
#define CROWD_SPLAT_AT(p, i) crowd_lane(*(const cv *)(const void *)(p), (i))
#define CROWD_MADD(a, b, c) ((a) * (b) + (c))
#define CROWD_POS(X, Y, Z, T, x, y, z) ((((X) * (x) + (Y) * (y)) + (Z) * (z)) + (T))
#define CROWD_NRM(X, Y, Z, T, x, y, z) (((X) * (x) + (Y) * (y)) + (Z) * (z))
#if defined(__clang__)
#define CROWD_SHUFFLE(a, b, i, j, k, l) __builtin_shufflevector((a), (b), (i), (j), (k) + 4, (l) + 4)
#define crowd_lane(v, i) ((cv)__builtin_shufflevector((ci)(v), (ci)(v), (i), (i), (i), (i)))
#define CROWD_UNPACKLO(a, b) __builtin_shufflevector((a), (b), 0, 4, 1, 5)
#define CROWD_UNPACKHI(a, b) __builtin_shufflevector((a), (b), 2, 6, 3, 7)
#else
#define CROWD_SHUFFLE(a, b, i, j, k, l) __builtin_shuffle((a), (b), (ci){(i), (j), (k) + 4, (l) + 4})
#define crowd_lane(v, i) ((cv)__builtin_shuffle((ci)(v), (ci){(i), (i), (i), (i)}))
#define CROWD_UNPACKLO(a, b) __builtin_shuffle((a), (b), (ci){0, 4, 1, 5})
#define CROWD_UNPACKHI(a, b) __builtin_shuffle((a), (b), (ci){2, 6, 3, 7})
#endif
#if defined(__SSE__)
#define CROWD_SQRT(v) ((cv)_mm_sqrt_ps((__m128)(v)))
#else
#define CROWD_SQRT(v) ((cv){sqrtf((v)[0]), sqrtf((v)[1]), sqrtf((v)[2]), sqrtf((v)[3])})
#endif
#define CROWD_FN fast_crowd_baseline
#define CROWD_QUADS 0
#include <math.h>

#include "fast_crowd.h"

#define FAST_MADD(a, b, c) ((a) * (b) + (c))
#define FAST_KERNEL vks__fast_baseline
#define FAST_NAME "baseline"
#define FAST_CROWD_LANES CROWD_LANES
#define FAST_CROWD fast_crowd_baseline
#include "fast_kernel.h"
