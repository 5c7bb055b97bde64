/* The fast CPU kernel for x86-64 CPUs with AVX2 and FMA, chosen at run time by fast.c (cpuid).
 * Its functions carry a target attribute (GCC and clang alike), so the rest of the library keeps
 * the baseline instruction set.
 *
 * Eight lanes hold two matrix columns: a = (x axis | y axis), b = (z axis | translation), so
 * blending an influence is two fused multiply-adds with the matrix read from memory, and a
 * transform is a multiply and a multiply-add:
 *   a * (p.x x4 | p.y x4) + b * (p.z x4 | 1 x4) = (x p.x + z p.z | y p.y + t),
 * whose halves summed are the position. The operand vectors come from the prepared record
 * (position, 1, normal, 0) by one lane permute each, and the position's and the normal's halves
 * are summed in one eight-lane add: (pos lo | nrm lo) + (pos hi | nrm hi). Lane 3 of each sum
 * is not a result (the palette keeps the translation there for the baseline kernel): it is
 * stored only where the next vertex overwrites it. Same results as the baseline within float
 * rounding (the tests run both against the reference). */
#include "fast_internal.h"

#include <math.h>

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2,fma")))

/* lanes 0..2 of v to dst: 16 bytes where the next vertex overwrites the fourth lane, else 12 */
AVX2 static inline void store3(float *dst, __m128 v, int whole)
{
    if (whole) {
        _mm_storeu_ps(dst, v);
    } else {
        _mm_storel_pi((__m64 *)dst, v);
        _mm_store_ss(dst + 2, _mm_movehl_ps(v, v));
    }
}

AVX2 static inline void vertex(const vks__fast_vertex *r, const vks__fast_more *more, const char *pal, int k_inf,
                               int nmode, float *pos, float *nrm, int whole, __m256i ixy, __m256i izw, __m256i inxy,
                               __m256i inz)
{
    const float *m = (const float *)(pal + r->off[0]);
    __m256 w = _mm256_broadcast_ss(&r->w[0]);
    __m256 a = _mm256_mul_ps(w, _mm256_load_ps(m)), b = _mm256_mul_ps(w, _mm256_load_ps(m + 8));
    for (int k = 1; k < k_inf && k < 4; k++) {
        m = (const float *)(pal + r->off[k]);
        w = _mm256_broadcast_ss(&r->w[k]);
        a = _mm256_fmadd_ps(w, _mm256_load_ps(m), a);
        b = _mm256_fmadd_ps(w, _mm256_load_ps(m + 8), b);
    }
    for (int k = 4; k < k_inf; k++) { /* slots 4..7 (k_inf 8), after the first four */
        m = (const float *)(pal + more->off[k - 4]);
        w = _mm256_broadcast_ss(&more->w[k - 4]);
        a = _mm256_fmadd_ps(w, _mm256_load_ps(m), a);
        b = _mm256_fmadd_ps(w, _mm256_load_ps(m + 8), b);
    }
    __m256 pn = _mm256_loadu_ps(r->pn);
    __m256 tp = _mm256_fmadd_ps(a, _mm256_permutevar8x32_ps(pn, ixy),
                                _mm256_mul_ps(b, _mm256_permutevar8x32_ps(pn, izw)));
    if (nmode == VKS__FAST_NRM_NONE) {
        store3(pos, _mm_add_ps(_mm256_castps256_ps128(tp), _mm256_extractf128_ps(tp, 1)), whole);
        return;
    }
    __m256 tn = _mm256_fmadd_ps(a, _mm256_permutevar8x32_ps(pn, inxy),
                                _mm256_mul_ps(b, _mm256_permutevar8x32_ps(pn, inz)));
    /* (pos lo | nrm lo) + (pos hi | nrm hi) */
    __m256 s = _mm256_add_ps(_mm256_insertf128_ps(tp, _mm256_castps256_ps128(tn), 1),
                             _mm256_permute2f128_ps(tp, tn, 0x31));
    store3(pos, _mm256_castps256_ps128(s), whole);
    store3(nrm, _mm256_extractf128_ps(s, 1), whole);
}

AVX2 static inline void range(const vks__fast_vertex *rec, const vks__fast_more *more, const vks__pal_mat *pal,
                              uint32_t count, int k_inf, int nmode, float *pos, float *nrm)
{
    const __m256i ixy = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1), izw = _mm256_setr_epi32(2, 2, 2, 2, 3, 3, 3, 3);
    const __m256i inxy = _mm256_setr_epi32(4, 4, 4, 4, 5, 5, 5, 5), inz = _mm256_setr_epi32(6, 6, 6, 6, 7, 7, 7, 7);
    const char *pb = (const char *)pal;
    if (count == 0)
        return;
    uint32_t i = 0;
    /* more is only read (and only given) for k_inf 8; rec keeps it a valid pointer otherwise */
    const vks__fast_more *mo = k_inf > 4 ? more : (const vks__fast_more *)(const void *)rec;
    for (; i + 1 < count; i++)
        vertex(rec + i, mo + (k_inf > 4 ? i : 0), pb, k_inf, nmode, pos + (size_t)i * 3, nrm + (size_t)i * 3, 1, ixy,
               izw, inxy, inz);
    vertex(rec + i, mo + (k_inf > 4 ? i : 0), pb, k_inf, nmode, pos + (size_t)i * 3, nrm + (size_t)i * 3, 0, ixy,
           izw, inxy, inz);
}

#define CASE(k, m)                                                                                                 \
    case (k) * 4 + (m): range(rec, more, pal, count, (k), (m), pos, nrm); break

/* Eight packed (x, y, z) normals at n divided by their lengths, a length that is not above zero
 * left as it is. Renormalising each vertex in its own loop put a square root and a division
 * at the end of every vertex's chain of dependent operations (blend, transform, length), which
 * kept fewer vertices in flight: 0.65x the speed without it (12,800-vertex glTF tube). After the
 * range, eight at a time, the chains are short and the square root and division are shared.
 * The lanes of the three loads hold each axis in distinct lanes (x: a 0 3 6, b 1 4 7, c 2 5),
 * so two blends and a permute gather an axis. */
AVX2 static inline void renormalise8(float *n)
{
    __m256 a = _mm256_loadu_ps(n), b = _mm256_loadu_ps(n + 8), c = _mm256_loadu_ps(n + 16);
    __m256 x = _mm256_permutevar8x32_ps(_mm256_blend_ps(_mm256_blend_ps(a, b, 0x92), c, 0x24),
                                        _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5));
    __m256 y = _mm256_permutevar8x32_ps(_mm256_blend_ps(_mm256_blend_ps(a, b, 0x24), c, 0x49),
                                        _mm256_setr_epi32(1, 4, 7, 2, 5, 0, 3, 6));
    __m256 z = _mm256_permutevar8x32_ps(_mm256_blend_ps(_mm256_blend_ps(a, b, 0x49), c, 0x92),
                                        _mm256_setr_epi32(2, 5, 0, 3, 6, 1, 4, 7));
    __m256 len = _mm256_sqrt_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(x, x), _mm256_mul_ps(y, y)),
                                              _mm256_mul_ps(z, z)));
    /* a length not above zero (or NaN) divides by 1: the normal stays as it is */
    len = _mm256_blendv_ps(_mm256_set1_ps(1.0f), len, _mm256_cmp_ps(len, _mm256_setzero_ps(), _CMP_GT_OQ));
    a = _mm256_div_ps(a, _mm256_permutevar8x32_ps(len, _mm256_setr_epi32(0, 0, 0, 1, 1, 1, 2, 2)));
    b = _mm256_div_ps(b, _mm256_permutevar8x32_ps(len, _mm256_setr_epi32(2, 3, 3, 3, 4, 4, 4, 5)));
    c = _mm256_div_ps(c, _mm256_permutevar8x32_ps(len, _mm256_setr_epi32(5, 5, 6, 6, 6, 7, 7, 7)));
    _mm256_storeu_ps(n, a), _mm256_storeu_ps(n + 8, b), _mm256_storeu_ps(n + 16, c);
}

/* count packed normals at n renormalised: eight at a time, then one at a time (the same rule) */
AVX2 static void renormalise(float *n, uint32_t count)
{
    uint32_t i = 0;
    for (; i + 8 <= count; i += 8)
        renormalise8(n + (size_t)i * 3);
    for (; i < count; i++) {
        float *v = n + (size_t)i * 3;
        float len = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        if (len > 0)
            v[0] /= len, v[1] /= len, v[2] /= len;
    }
}

AVX2 static void fast_group_avx2(const vks__fast_vertex *rec, const vks__fast_more *more, const vks__pal_mat *pal,
                                 uint32_t count, int k_inf, int nmode, float *pos, float *nrm)
{
    if (nmode == VKS__FAST_NRM_NONE)
        nrm = pos; /* never written through */
    if (nmode == VKS__FAST_NRM_RENORM) { /* blended, then renormalised eight at a time */
        fast_group_avx2(rec, more, pal, count, k_inf, VKS__FAST_NRM, pos, nrm);
        renormalise(nrm, count);
        return;
    }
    /* the influence count and the normal mode as constants: each loop unrolled for them */
    switch ((k_inf < 1 ? 1 : k_inf > 4 ? (more ? 8 : 4) : k_inf) * 4 + nmode) {
        CASE(1, VKS__FAST_NRM_NONE);
        CASE(1, VKS__FAST_NRM);
        CASE(2, VKS__FAST_NRM_NONE);
        CASE(2, VKS__FAST_NRM);
        CASE(3, VKS__FAST_NRM_NONE);
        CASE(3, VKS__FAST_NRM);
        CASE(4, VKS__FAST_NRM_NONE);
        CASE(4, VKS__FAST_NRM);
        CASE(8, VKS__FAST_NRM_NONE);
        CASE(8, VKS__FAST_NRM);
    default: break;
    }
}

/* The records (fast_internal.h) in a dozen instructions a vertex: 16-byte reads with the fourth
 * lane blended, the slots' checks as lane masks, the index widened, clamped and scaled in lanes. */
_Static_assert(sizeof(vks__pal_mat) == 64, "palette offsets are slot << 6");

/* Slots k0..k0+3 of in as weights and palette offsets, the lanes past the group's k_max (live)
 * empty: empty slots (weight <= 0 or NaN) may carry any index, so weight 0 at slot 0; an index
 * past the palette (a model not validated) goes to the last slot. */
AVX2 static inline void slots(const vks_influence *in, int k0, __m128i live, __m128i last, float *w_out,
                              uint32_t *off_out)
{
    __m128 w = _mm_loadu_ps(in->weight + k0);
    __m128i keep = _mm_and_si128(_mm_castps_si128(_mm_cmp_ps(w, _mm_setzero_ps(), _CMP_GT_OQ)), live);
    __m128i idx = _mm_min_epu32(_mm_cvtepu16_epi32(_mm_loadl_epi64((const __m128i *)(in->index + k0))), last);
    _mm_storeu_ps(w_out, _mm_and_ps(w, _mm_castsi128_ps(keep)));
    _mm_storeu_si128((__m128i *)off_out, _mm_and_si128(_mm_slli_epi32(idx, 6), keep));
}

AVX2 static void prepare_avx2(vks__fast_vertex *rec, vks__fast_more *more, const float (*positions)[3],
                              const float (*normals)[3], const vks_influence *influences, uint32_t a, uint32_t b,
                              uint32_t wide, uint32_t k_max, uint32_t last_slot)
{
    const __m128 zero = _mm_setzero_ps(), w1 = _mm_setr_ps(0, 0, 0, 1.0f);
    const __m128i live = _mm_cmpgt_epi32(_mm_set1_epi32((int)k_max), _mm_setr_epi32(0, 1, 2, 3));
    const __m128i live_more = _mm_cmpgt_epi32(_mm_set1_epi32((int)k_max), _mm_setr_epi32(4, 5, 6, 7));
    const __m128i last = _mm_set1_epi32((int)last_slot);
    for (uint32_t v = a; v < b; v++) {
        vks__fast_vertex *r = &rec[v - a];
        __m128 p, n = zero;
        if (v < wide) { /* 12 bytes and 4 of the next vertex, the fourth lane replaced */
            p = _mm_blend_ps(_mm_loadu_ps(positions[v]), w1, 8);
            if (normals)
                n = _mm_blend_ps(_mm_loadu_ps(normals[v]), zero, 8);
        } else {
            p = _mm_setr_ps(positions[v][0], positions[v][1], positions[v][2], 1.0f);
            if (normals)
                n = _mm_setr_ps(normals[v][0], normals[v][1], normals[v][2], 0.0f);
        }
        _mm_store_ps(r->pn, p);
        _mm_store_ps(r->pn + 4, n);
        slots(&influences[v], 0, live, last, r->w, r->off);
        if (more)
            slots(&influences[v], 4, live_more, last, more[v - a].w, more[v - a].off);
    }
}

/* The crowd loop (fast_crowd.h), eight instances in the eight lanes, in this kernel's order:
 * (x p.x + z p.z) + (y p.y + t) from the fused multiply-adds above, (x n.x + z n.z) + (y n.y +
 * t 0) for the normal (the record's fourth normal lane is 0). */
#define CROWD_LANES 8
#define CROWD_TARGET AVX2
#define CROWD_SPLAT(f) ((cv)_mm256_set1_ps(f))
#define CROWD_FMA(a, b, c) ((cv)_mm256_fmadd_ps((__m256)(a), (__m256)(b), (__m256)(c)))
#define CROWD_MADD(a, b, c) CROWD_FMA(a, b, c)
#define CROWD_POS(X, Y, Z, T, x, y, z) (CROWD_FMA(X, x, (Z) * (z)) + CROWD_FMA(Y, y, T))
#define CROWD_NRM(X, Y, Z, T, x, y, z) (CROWD_FMA(X, x, (Z) * (z)) + CROWD_FMA(Y, y, (T) * CROWD_SPLAT(0.0f)))
#define CROWD_SHUFFLE(a, b, i, j, k, l) ((cv)_mm256_shuffle_ps((__m256)(a), (__m256)(b), _MM_SHUFFLE(l, k, j, i)))
#define CROWD_UNPACKLO(a, b) ((cv)_mm256_unpacklo_ps((__m256)(a), (__m256)(b)))
#define CROWD_UNPACKHI(a, b) ((cv)_mm256_unpackhi_ps((__m256)(a), (__m256)(b)))
#define CROWD_SQRT(v) ((cv)_mm256_sqrt_ps((__m256)(v)))
#define CROWD_FN crowd_avx2
#define CROWD_QUADS 1
#include "fast_crowd.h"

/* no affine loop: with FMA it would trade one influence's multiplies for more subtractions */
static const vks__fast_kernel avx2_kernel = {"avx2", prepare_avx2, fast_group_avx2, NULL, 0, 8, crowd_avx2};
const vks__fast_kernel *const vks__fast_avx2 = &avx2_kernel;
#else
const vks__fast_kernel *const vks__fast_avx2 = 0;
#endif
