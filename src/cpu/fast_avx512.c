/* The fast CPU kernel for x86-64 CPUs with AVX-512 (F, VL, DQ, BW) and FMA, chosen at run time
 * by fast.c where the CPU has them and the OS saves the ZMM registers (cpu_features.c). Its
 * functions carry a target attribute, so the rest of the library keeps the baseline set.
 *
 * One palette matrix is one 64-byte line and one sixteen-lane register: (x axis | y axis |
 * z axis | translation). Blending an influence is one broadcast and one fused multiply-add with
 * the matrix read from memory (the AVX2 kernel needs two of each). The transform multiplies the
 * blend by (p.x x4 | p.y x4 | p.z x4 | 1 x4), whose four 128-bit blocks summed are the
 * position; the normal likewise with (n.x | n.y | n.z | 0). Those block sums are what costs a
 * vertex-at-a-time loop its shuffles and its narrow stores, so this kernel takes four vertices
 * at a time: their sixteen-lane products transposed block-wise in six shuffles and three adds
 * give (pos0 | pos1 | pos2 | pos3), one permute packs the twelve floats, and one masked store
 * writes exactly them. The sum order is the AVX2 kernel's, (x p.x + z p.z) + (y p.y + t);
 * results stay within float rounding of the other kernels (the tests run all against the
 * reference). The records are the AVX2 kernel's (fast_internal.h), made by its prepare. */
#include "fast_internal.h"

#include <string.h>

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define AVX512 __attribute__((target("avx512f,avx512vl,avx512dq,avx512bw,avx2,fma")))
/* every helper inlined into the fifteen specialised loops: GCC otherwise keeps range() as one
 * clone per influence count that tests the normal mode per vertex */
#define INLINE static inline __attribute__((always_inline))

_Static_assert(sizeof(vks__pal_mat) == 64, "a palette matrix is one 64-byte register");

/* The blended matrix of one vertex: slots 0..3 from its record, 4..7 (k_inf 8) from more, in
 * slot order (the reference's). */
AVX512 INLINE __m512 blend(const vks__fast_vertex *r, const vks__fast_more *more, const char *pal, int k_inf)
{
    /* the offsets two to a load, split by shifts: the loads are the loop's tightest port */
    uint64_t o[4];
    memcpy(o, r->off, sizeof r->off);
    if (k_inf > 4)
        memcpy(o + 2, more->off, sizeof more->off);
    __m512 m = _mm512_mul_ps(_mm512_set1_ps(r->w[0]), _mm512_load_ps(pal + (uint32_t)o[0]));
    for (int k = 1; k < k_inf && k < 4; k++)
        m = _mm512_fmadd_ps(_mm512_set1_ps(r->w[k]),
                            _mm512_load_ps(pal + (k & 1 ? o[k / 2] >> 32 : (uint32_t)o[k / 2])), m);
    for (int k = 4; k < k_inf; k++)
        m = _mm512_fmadd_ps(_mm512_set1_ps(more->w[k - 4]),
                            _mm512_load_ps(pal + (k & 1 ? o[k / 2] >> 32 : (uint32_t)o[k / 2])), m);
    return m;
}

/* The 4 x 4 transpose of 128-bit blocks: a..d = (x axis | y axis | z axis | t) of four
 * vertices' blends become the x axes of all four, their y axes, z axes and translations. */
AVX512 INLINE void transpose_blocks(__m512 *a, __m512 *b, __m512 *c, __m512 *d)
{
    __m512 ab01 = _mm512_shuffle_f32x4(*a, *b, _MM_SHUFFLE(1, 0, 1, 0));
    __m512 ab23 = _mm512_shuffle_f32x4(*a, *b, _MM_SHUFFLE(3, 2, 3, 2));
    __m512 cd01 = _mm512_shuffle_f32x4(*c, *d, _MM_SHUFFLE(1, 0, 1, 0));
    __m512 cd23 = _mm512_shuffle_f32x4(*c, *d, _MM_SHUFFLE(3, 2, 3, 2));
    *a = _mm512_shuffle_f32x4(ab01, cd01, _MM_SHUFFLE(2, 0, 2, 0));
    *b = _mm512_shuffle_f32x4(ab01, cd01, _MM_SHUFFLE(3, 1, 3, 1));
    *c = _mm512_shuffle_f32x4(ab23, cd23, _MM_SHUFFLE(2, 0, 2, 0));
    *d = _mm512_shuffle_f32x4(ab23, cd23, _MM_SHUFFLE(3, 1, 3, 1));
}

/* Each block's x, y, z divided by their length where it is above zero (a zero-length normal
 * stays zero, as in the other kernels); lane 3 of a block is not a result and is left out. */
AVX512 INLINE __m512 renormalise(__m512 n)
{
    __m512 q = _mm512_maskz_mul_ps(0x7777, n, n);
    q = _mm512_add_ps(q, _mm512_permute_ps(q, _MM_SHUFFLE(2, 3, 0, 1)));
    q = _mm512_add_ps(q, _mm512_permute_ps(q, _MM_SHUFFLE(1, 0, 3, 2)));
    __m512 len = _mm512_sqrt_ps(q);
    return _mm512_mask_div_ps(n, _mm512_cmp_ps_mask(len, _mm512_setzero_ps(), _CMP_GT_OQ), n, len);
}

/* Lane permutes of two records' (position, 1, normal, 0) pairs, (pn0 | pn1) and (pn2 | pn3), to
 * the transform's operands: each vertex's p.x in its block, p.y, p.z, and the normal's; and the
 * pack of each block's x, y, z to lanes 0..11. */
typedef struct operands {
    __m512i px, py, pz, nx, ny, nz, pack;
} operands;

/* Vertices j[0..3] of rec to positions pos[0 .. 3n) and normals, n (1..4) of them: the caller
 * repeats the last vertex in the unused places. whole: sixteen lanes stored, whose last four
 * the next quad overwrites (the caller keeps two more vertices after the quad); else masked
 * stores of exactly 3n floats, so a thread's slice next to this one is never touched. The
 * blends transposed to (x axes | ...), the position is
 * ((t + x p.x) + y p.y) + z p.z in four lanes of each block, all four vertices at once. */
AVX512 INLINE void quad(const vks__fast_vertex *rec, const vks__fast_more *more, const char *pal, int k_inf,
                        int nmode, const uint32_t j[4], unsigned n, int whole, float *pos, float *nrm,
                        const operands *op)
{
    __m512 x = blend(rec + j[0], k_inf > 4 ? more + j[0] : NULL, pal, k_inf);
    __m512 y = blend(rec + j[1], k_inf > 4 ? more + j[1] : NULL, pal, k_inf);
    __m512 z = blend(rec + j[2], k_inf > 4 ? more + j[2] : NULL, pal, k_inf);
    __m512 t = blend(rec + j[3], k_inf > 4 ? more + j[3] : NULL, pal, k_inf);
    transpose_blocks(&x, &y, &z, &t);
    __m512 pn01 = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(rec[j[0]].pn)),
                                     _mm256_loadu_ps(rec[j[1]].pn), 1);
    __m512 pn23 = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(rec[j[2]].pn)),
                                     _mm256_loadu_ps(rec[j[3]].pn), 1);
    __m512 p = _mm512_fmadd_ps(x, _mm512_permutex2var_ps(pn01, op->px, pn23), t);
    p = _mm512_fmadd_ps(y, _mm512_permutex2var_ps(pn01, op->py, pn23), p);
    p = _mm512_fmadd_ps(z, _mm512_permutex2var_ps(pn01, op->pz, pn23), p);
    const __mmask16 keep = (__mmask16)((1u << (3 * n)) - 1);
    if (whole)
        _mm512_storeu_ps(pos, _mm512_permutexvar_ps(op->pack, p));
    else
        _mm512_mask_storeu_ps(pos, keep, _mm512_permutexvar_ps(op->pack, p));
    if (nmode == VKS__FAST_NRM_NONE)
        return;
    __m512 q = _mm512_mul_ps(x, _mm512_permutex2var_ps(pn01, op->nx, pn23));
    q = _mm512_fmadd_ps(y, _mm512_permutex2var_ps(pn01, op->ny, pn23), q);
    q = _mm512_fmadd_ps(z, _mm512_permutex2var_ps(pn01, op->nz, pn23), q);
    if (nmode == VKS__FAST_NRM_RENORM)
        q = renormalise(q);
    if (whole)
        _mm512_storeu_ps(nrm, _mm512_permutexvar_ps(op->pack, q));
    else
        _mm512_mask_storeu_ps(nrm, keep, _mm512_permutexvar_ps(op->pack, q));
}

/* lane l of (pn0 | pn1) and of (pn2 | pn3) broadcast to the four blocks' lanes */
#define OPERAND(l)                                                                                                 \
    _mm512_setr_epi32((l), (l), (l), (l), (l) + 8, (l) + 8, (l) + 8, (l) + 8, (l) + 16, (l) + 16, (l) + 16,        \
                      (l) + 16, (l) + 24, (l) + 24, (l) + 24, (l) + 24)

AVX512 INLINE void range(const vks__fast_vertex *rec, const vks__fast_more *more, const vks__pal_mat *pal,
                         uint32_t count, int k_inf, int nmode, float *pos, float *nrm)
{
    const operands op = {OPERAND(0), OPERAND(1), OPERAND(2), OPERAND(4), OPERAND(5), OPERAND(6),
                         _mm512_setr_epi32(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 0, 0, 0, 0)};
    const char *pb = (const char *)pal;
    uint32_t i = 0;
    /* whole: sixteen lanes reach 16 bytes past the quad, into the range's next two vertices */
    for (; i + 6 <= count; i += 4) {
        const uint32_t j[4] = {i, i + 1, i + 2, i + 3};
        quad(rec, more, pb, k_inf, nmode, j, 4, 1, pos + (size_t)i * 3, nrm + (size_t)i * 3, &op);
    }
    for (; i < count; i += 4) { /* the last two to five vertices masked, the last repeated in empty places */
        const uint32_t last = count - 1, n = count - i < 4 ? count - i : 4;
        const uint32_t j[4] = {i, i + 1 < last ? i + 1 : last, i + 2 < last ? i + 2 : last,
                               i + 3 < last ? i + 3 : last};
        quad(rec, more, pb, k_inf, nmode, j, n, 0, pos + (size_t)i * 3, nrm + (size_t)i * 3, &op);
    }
}

/* Sixteen packed (x, y, z) normals at n over their lengths, a length not above zero (or NaN)
 * dividing by 1. Axis lane l of the three loads sits in lane (3 l + axis) mod 16 of one of them,
 * each lane in exactly one (x: a 0 3 .. 15, b 2 5 .. 14, c 1 4 .. 13), so two masked blends and a
 * permute gather an axis. */
AVX512 INLINE void renormalise16(float *n)
{
    __m512 a = _mm512_loadu_ps(n), b = _mm512_loadu_ps(n + 16), c = _mm512_loadu_ps(n + 32);
    const __m512i step = _mm512_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45);
    const __m512i m15 = _mm512_set1_epi32(15);
    __m512 x = _mm512_permutexvar_ps(_mm512_and_si512(step, m15),
                                     _mm512_mask_blend_ps(0x2492, _mm512_mask_blend_ps(0x4924, a, b), c));
    __m512 y = _mm512_permutexvar_ps(_mm512_and_si512(_mm512_add_epi32(step, _mm512_set1_epi32(1)), m15),
                                     _mm512_mask_blend_ps(0x4924, _mm512_mask_blend_ps(0x9249, a, b), c));
    __m512 z = _mm512_permutexvar_ps(_mm512_and_si512(_mm512_add_epi32(step, _mm512_set1_epi32(2)), m15),
                                     _mm512_mask_blend_ps(0x9249, _mm512_mask_blend_ps(0x2492, a, b), c));
    __m512 len = _mm512_sqrt_ps(_mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(x, x), _mm512_mul_ps(y, y)),
                                              _mm512_mul_ps(z, z)));
    __mmask16 above = _mm512_cmp_ps_mask(len, _mm512_setzero_ps(), _CMP_GT_OQ);
    len = _mm512_mask_blend_ps(above, _mm512_set1_ps(1.0f), len);
    const __m512i third = _mm512_setr_epi32(0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5);
    a = _mm512_div_ps(a, _mm512_permutexvar_ps(third, len));
    const __m512i third_b = _mm512_setr_epi32(5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 9, 10, 10);
    const __m512i third_c = _mm512_setr_epi32(10, 11, 11, 11, 12, 12, 12, 13, 13, 13, 14, 14, 14, 15, 15, 15);
    b = _mm512_div_ps(b, _mm512_permutexvar_ps(third_b, len));
    c = _mm512_div_ps(c, _mm512_permutexvar_ps(third_c, len));
    _mm512_storeu_ps(n, a), _mm512_storeu_ps(n + 16, b), _mm512_storeu_ps(n + 32, c);
}

#define CASE(k, m)                                                                                                 \
    case (k) * 4 + (m): range(rec, more, pal, count, (k), (m), pos, nrm); break

AVX512 static void fast_group_avx512(const vks__fast_vertex *rec, const vks__fast_more *more,
                                     const vks__pal_mat *pal, uint32_t count, int k_inf, int nmode, float *pos,
                                     float *nrm)
{
    if (nmode == VKS__FAST_NRM_NONE)
        nrm = pos; /* never written through */
    /* renormalised normals: sixteen at a time after the blend where a range has them (fewer
     * shuffles and divisions than four per quad), the last 0..15 in the quads */
    const uint32_t body = count & ~15u;
    if (nmode == VKS__FAST_NRM_RENORM && body) {
        fast_group_avx512(rec, more, pal, body, k_inf, VKS__FAST_NRM, pos, nrm);
        for (uint32_t i = 0; i < body; i += 16)
            renormalise16(nrm + (size_t)i * 3);
        if (body < count)
            fast_group_avx512(rec + body, more ? more + body : NULL, pal, count - body, k_inf, nmode,
                              pos + (size_t)body * 3, nrm + (size_t)body * 3);
        return;
    }
    /* the influence count and the normal mode as constants: each loop unrolled for them */
    switch ((k_inf < 1 ? 1 : k_inf > 4 ? (more ? 8 : 4) : k_inf) * 4 + nmode) {
        CASE(1, VKS__FAST_NRM_NONE);
        CASE(1, VKS__FAST_NRM);
        CASE(1, VKS__FAST_NRM_RENORM);
        CASE(2, VKS__FAST_NRM_NONE);
        CASE(2, VKS__FAST_NRM);
        CASE(2, VKS__FAST_NRM_RENORM);
        CASE(3, VKS__FAST_NRM_NONE);
        CASE(3, VKS__FAST_NRM);
        CASE(3, VKS__FAST_NRM_RENORM);
        CASE(4, VKS__FAST_NRM_NONE);
        CASE(4, VKS__FAST_NRM);
        CASE(4, VKS__FAST_NRM_RENORM);
        CASE(8, VKS__FAST_NRM_NONE);
        CASE(8, VKS__FAST_NRM);
        CASE(8, VKS__FAST_NRM_RENORM);
    default: break;
    }
}

/* The records are the AVX2 kernel's: every CPU this kernel runs on has AVX2 and FMA. */
static void prepare_avx512(vks__fast_vertex *rec, vks__fast_more *more, const float (*positions)[3],
                           const float (*normals)[3], const vks_influence *influences, uint32_t a, uint32_t b,
                           uint32_t wide, uint32_t k_max, uint32_t last_slot)
{
    vks__fast_avx2->prepare(rec, more, positions, normals, influences, a, b, wide, k_max, last_slot);
}

/* The crowd loop (fast_crowd.h), eight instances in eight lanes, in this kernel's order:
 * ((t + x p.x) + y p.y) + z p.z, fused; ((x n.x) + y n.y) + z n.z. Eight, not sixteen: a unit
 * writes two output streams per lane, and at sixteen lanes the two threads' 64 streams ran at
 * 0.65x the vertex loop's speed once the outputs left the caches (100k vertices x 64
 * instances), where eight lanes (as AVX2's) ran 1.0-1.3x; in cache, sixteen lanes were only
 * 5-10 % ahead (BENCHMARKS.md). The 256-bit operations still have AVX-512's 32 registers. */
#define CROWD_LANES 8
#define CROWD_TARGET AVX512
#define CROWD_SPLAT(f) ((cv)_mm256_set1_ps(f))
#define CROWD_FMA(a, b, c) ((cv)_mm256_fmadd_ps((__m256)(a), (__m256)(b), (__m256)(c)))
#define CROWD_MADD(a, b, c) CROWD_FMA(a, b, c)
#define CROWD_POS(X, Y, Z, T, x, y, z) CROWD_FMA(Z, z, CROWD_FMA(Y, y, CROWD_FMA(X, x, T)))
#define CROWD_NRM(X, Y, Z, T, x, y, z) CROWD_FMA(Z, z, CROWD_FMA(Y, y, (X) * (x)))
#define CROWD_SHUFFLE(a, b, i, j, k, l) ((cv)_mm256_shuffle_ps((__m256)(a), (__m256)(b), _MM_SHUFFLE(l, k, j, i)))
#define CROWD_UNPACKLO(a, b) ((cv)_mm256_unpacklo_ps((__m256)(a), (__m256)(b)))
#define CROWD_UNPACKHI(a, b) ((cv)_mm256_unpackhi_ps((__m256)(a), (__m256)(b)))
#define CROWD_SQRT(v) ((cv)_mm256_sqrt_ps((__m256)(v)))
#define CROWD_FN crowd_avx512
#define CROWD_QUADS 1
#include "fast_crowd.h"

/* no affine loop, as the AVX2 kernel (fast_avx2.c) */
static const vks__fast_kernel avx512_kernel = {"avx512", prepare_avx512, fast_group_avx512, NULL, 0, 8,
                                               crowd_avx512};
const vks__fast_kernel *const vks__fast_avx512 = &avx512_kernel;
#else
const vks__fast_kernel *const vks__fast_avx512 = 0;
#endif
