/* The CPU reference's crowd loop in AVX2: four instances at once, one in each double lane, and in
 * AVX-512 eight (reference.c runs a job's instances four or eight at a time where the CPU has
 * AVX2 or AVX-512). Each lane
 * does the scalar loop's double operations in its order, component after component,
 *   op[i] += w * (m[i] * px + m[3 + i] * py + m[6 + i] * pz + m[9 + i])
 * with m the lane's instance's skin matrix, so every float is the same bits as the scalar
 * loop's and the AVX2 vertex loop's (test_cpu_reference_simd). Where reference_avx2.c gives a
 * vertex's three components the lanes (the fourth idle), here each matrix element of the four
 * instances is one vector (vks__ref_lanes), so every lane works and a vertex's weights, position
 * and normal are read and widened once for four instances. No FMA, the same `w > 0` skip, the
 * same renormalisation and rounding to float; the stores are exact (twelve bytes an instance). */
#include "ref_kernel.h"

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

/* Four lanes' (x, y, z) floats: lane l's into out + l * stride, twelve bytes each. */
AVX2 static inline void store4f(float *out, size_t stride, __m128 fx, __m128 fy, __m128 fz)
{
    __m128 lo = _mm_unpacklo_ps(fx, fy), hi = _mm_unpackhi_ps(fx, fy); /* x0 y0 x1 y1, x2 y2 x3 y3 */
    __m128 z01 = _mm_unpacklo_ps(fz, fz), z23 = _mm_unpackhi_ps(fz, fz); /* z0 z0 z1 z1, z2 z2 z3 z3 */
    float *o1 = out + stride, *o2 = out + 2 * stride, *o3 = out + 3 * stride;
    _mm_storel_pi((__m64 *)out, lo), _mm_store_ss(out + 2, fz);
    _mm_storeh_pi((__m64 *)o1, lo), _mm_store_ss(o1 + 2, _mm_movehl_ps(z01, z01));
    _mm_storel_pi((__m64 *)o2, hi), _mm_store_ss(o2 + 2, z23);
    _mm_storeh_pi((__m64 *)o3, hi), _mm_store_ss(o3 + 2, _mm_movehl_ps(z23, z23));
}

/* The four lanes' (x, y, z) rounded to float (cvtpd2ps: to nearest, as the scalar cast). */
AVX2 static inline void store4(float *out, size_t stride, __m256d x, __m256d y, __m256d z)
{
    store4f(out, stride, _mm256_cvtpd_ps(x), _mm256_cvtpd_ps(y), _mm256_cvtpd_ps(z));
}

/* compact, has_n, renorm, want_n: constants of each instantiation (lanes_loop). */
AVX2 static inline void group(const vks_skin *s, const vks_group *gr, const vks__ref_lanes *lc,
                              const vks__ref_infl4 *in4, float *pos, float *nrm, size_t stride, int compact, int has_n,
                              int renorm, int want_n)
{
    const uint16_t *palette = s->palette + gr->first_palette;
    const int slots = compact ? 4 : vks__ref_slots(gr);
    const vks__ref_infl4 *r = in4;
    for (uint32_t v = gr->first_vertex; v < gr->first_vertex + gr->vertex_count; v++, r = compact ? r + 1 : r) {
        const uint16_t *index = compact ? r->index : s->influences[v].index;
        const float *weight = compact ? r->weight : s->influences[v].weight;
        const float *p = s->positions[v];
        const __m256d px = _mm256_set1_pd(p[0]), py = _mm256_set1_pd(p[1]), pz = _mm256_set1_pd(p[2]);
        __m256d nx = _mm256_setzero_pd(), ny = nx, nz = nx;
        if (has_n) {
            const float *n = s->normals[v];
            nx = _mm256_set1_pd(n[0]), ny = _mm256_set1_pd(n[1]), nz = _mm256_set1_pd(n[2]);
        }
        __m256d op[3] = {_mm256_setzero_pd(), _mm256_setzero_pd(), _mm256_setzero_pd()};
        __m256d on[3] = {op[0], op[0], op[0]};
        for (int k = 0; k < slots; k++) {
            double w = weight[k];
            if (!(w > 0))
                continue; /* empty slots may carry any index: never read through them */
            const vks__ref_lanes *m = &lc[palette[index[k]]];
            const __m256d wv = _mm256_set1_pd(w);
            for (int i = 0; i < 3; i++) {
                const __m256d a = _mm256_loadu_pd(m->e[i]), b = _mm256_loadu_pd(m->e[3 + i]);
                const __m256d c = _mm256_loadu_pd(m->e[6 + i]);
                __m256d t = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(a, px), _mm256_mul_pd(b, py)), _mm256_mul_pd(c, pz));
                t = _mm256_add_pd(t, _mm256_loadu_pd(m->e[9 + i]));
                op[i] = _mm256_add_pd(op[i], _mm256_mul_pd(wv, t));
                if (want_n) {
                    __m256d u =
                        _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(a, nx), _mm256_mul_pd(b, ny)), _mm256_mul_pd(c, nz));
                    on[i] = _mm256_add_pd(on[i], _mm256_mul_pd(wv, u));
                }
            }
        }
        store4(pos + (size_t)v * 3, stride, op[0], op[1], op[2]);
        if (!want_n)
            continue;
        if (renorm) { /* the scalar loop's length, (x x + y y) + z z, and its division where above 0 */
            __m256d len = _mm256_sqrt_pd(_mm256_add_pd(
                _mm256_add_pd(_mm256_mul_pd(on[0], on[0]), _mm256_mul_pd(on[1], on[1])), _mm256_mul_pd(on[2], on[2])));
            __m256d above = _mm256_cmp_pd(len, _mm256_setzero_pd(), _CMP_GT_OQ);
            for (int i = 0; i < 3; i++)
                on[i] = _mm256_blendv_pd(on[i], _mm256_div_pd(on[i], len), above);
        }
        store4(nrm + (size_t)v * 3, stride, on[0], on[1], on[2]);
    }
}

/* the mesh's flags, whether normals are wanted and where the slots come from as constants */
AVX2 __attribute__((always_inline)) static inline void lanes_loop(const vks_skin *s, const vks_group *gr,
                                                                  const vks__ref_lanes *lc, const vks__ref_infl4 *in4,
                                                                  float *pos, float *nrm, size_t stride, int compact)
{
    const vks_mesh *me = &s->meshes[gr->mesh];
    int has_n = (me->flags & VKS_MESH_HAS_NORMALS) != 0, renorm = has_n && (me->flags & VKS_MESH_RENORMALIZE);
    if (!nrm)
        group(s, gr, lc, in4, pos, NULL, stride, compact, 0, 0, 0);
    else if (renorm)
        group(s, gr, lc, in4, pos, nrm, stride, compact, 1, 1, 1);
    else if (has_n)
        group(s, gr, lc, in4, pos, nrm, stride, compact, 1, 0, 1);
    else
        group(s, gr, lc, in4, pos, nrm, stride, compact, 0, 0, 1);
}

AVX2 static void group_lanes(const vks_skin *s, const vks_group *gr, const vks__ref_lanes *lc,
                             const vks__ref_infl4 *in4, float *pos, float *nrm, size_t stride)
{
    if (in4)
        lanes_loop(s, gr, lc, in4, pos, nrm, stride, 1);
    else
        lanes_loop(s, gr, lc, NULL, pos, nrm, stride, 0);
}

/* ---- eight instances in the eight lanes of AVX-512 (F): the same loop, the same operations ---- */

#define AVX512 __attribute__((target("avx512f,avx2")))

/* The eight lanes' (x, y, z) rounded to float, each half of four as store4f. */
AVX512 static inline void store8(float *out, size_t stride, __m512d x, __m512d y, __m512d z)
{
    __m256 fx = _mm512_cvtpd_ps(x), fy = _mm512_cvtpd_ps(y), fz = _mm512_cvtpd_ps(z);
    store4f(out, stride, _mm256_castps256_ps128(fx), _mm256_castps256_ps128(fy), _mm256_castps256_ps128(fz));
    store4f(out + 4 * stride, stride, _mm256_extractf128_ps(fx, 1), _mm256_extractf128_ps(fy, 1),
            _mm256_extractf128_ps(fz, 1));
}

AVX512 static inline void group8(const vks_skin *s, const vks_group *gr, const vks__ref_lanes *lc,
                                 const vks__ref_infl4 *in4, float *pos, float *nrm, size_t stride, int compact,
                                 int has_n, int renorm, int want_n)
{
    const uint16_t *palette = s->palette + gr->first_palette;
    const int slots = compact ? 4 : vks__ref_slots(gr);
    const vks__ref_infl4 *r = in4;
    for (uint32_t v = gr->first_vertex; v < gr->first_vertex + gr->vertex_count; v++, r = compact ? r + 1 : r) {
        const uint16_t *index = compact ? r->index : s->influences[v].index;
        const float *weight = compact ? r->weight : s->influences[v].weight;
        const float *p = s->positions[v];
        const __m512d px = _mm512_set1_pd(p[0]), py = _mm512_set1_pd(p[1]), pz = _mm512_set1_pd(p[2]);
        __m512d nx = _mm512_setzero_pd(), ny = nx, nz = nx;
        if (has_n) {
            const float *n = s->normals[v];
            nx = _mm512_set1_pd(n[0]), ny = _mm512_set1_pd(n[1]), nz = _mm512_set1_pd(n[2]);
        }
        __m512d op[3] = {_mm512_setzero_pd(), _mm512_setzero_pd(), _mm512_setzero_pd()};
        __m512d on[3] = {op[0], op[0], op[0]};
        for (int k = 0; k < slots; k++) {
            double w = weight[k];
            if (!(w > 0))
                continue; /* empty slots may carry any index: never read through them */
            const vks__ref_lanes *m = &lc[palette[index[k]]];
            const __m512d wv = _mm512_set1_pd(w);
            for (int i = 0; i < 3; i++) {
                const __m512d a = _mm512_loadu_pd(m->e[i]), b = _mm512_loadu_pd(m->e[3 + i]);
                const __m512d c = _mm512_loadu_pd(m->e[6 + i]);
                __m512d t = _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(a, px), _mm512_mul_pd(b, py)), _mm512_mul_pd(c, pz));
                t = _mm512_add_pd(t, _mm512_loadu_pd(m->e[9 + i]));
                op[i] = _mm512_add_pd(op[i], _mm512_mul_pd(wv, t));
                if (want_n) {
                    __m512d u =
                        _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(a, nx), _mm512_mul_pd(b, ny)), _mm512_mul_pd(c, nz));
                    on[i] = _mm512_add_pd(on[i], _mm512_mul_pd(wv, u));
                }
            }
        }
        store8(pos + (size_t)v * 3, stride, op[0], op[1], op[2]);
        if (!want_n)
            continue;
        if (renorm) { /* the scalar loop's length, (x x + y y) + z z, and its division where above 0 */
            __m512d len = _mm512_sqrt_pd(_mm512_add_pd(
                _mm512_add_pd(_mm512_mul_pd(on[0], on[0]), _mm512_mul_pd(on[1], on[1])), _mm512_mul_pd(on[2], on[2])));
            __mmask8 above = _mm512_cmp_pd_mask(len, _mm512_setzero_pd(), _CMP_GT_OQ);
            for (int i = 0; i < 3; i++)
                on[i] = _mm512_mask_div_pd(on[i], above, on[i], len);
        }
        store8(nrm + (size_t)v * 3, stride, on[0], on[1], on[2]);
    }
}

AVX512 __attribute__((always_inline)) static inline void lanes8_loop(const vks_skin *s, const vks_group *gr,
                                                                     const vks__ref_lanes *lc,
                                                                     const vks__ref_infl4 *in4, float *pos, float *nrm,
                                                                     size_t stride, int compact)
{
    const vks_mesh *me = &s->meshes[gr->mesh];
    int has_n = (me->flags & VKS_MESH_HAS_NORMALS) != 0, renorm = has_n && (me->flags & VKS_MESH_RENORMALIZE);
    if (!nrm)
        group8(s, gr, lc, in4, pos, NULL, stride, compact, 0, 0, 0);
    else if (renorm)
        group8(s, gr, lc, in4, pos, nrm, stride, compact, 1, 1, 1);
    else if (has_n)
        group8(s, gr, lc, in4, pos, nrm, stride, compact, 1, 0, 1);
    else
        group8(s, gr, lc, in4, pos, nrm, stride, compact, 0, 0, 1);
}

AVX512 static void group_lanes8(const vks_skin *s, const vks_group *gr, const vks__ref_lanes *lc,
                                const vks__ref_infl4 *in4, float *pos, float *nrm, size_t stride)
{
    if (in4)
        lanes8_loop(s, gr, lc, in4, pos, nrm, stride, 1);
    else
        lanes8_loop(s, gr, lc, NULL, pos, nrm, stride, 0);
}

const vks__ref_lanes_fn vks__ref_group_lanes = group_lanes;
const vks__ref_lanes_fn vks__ref_group_lanes8 = group_lanes8;
#else
const vks__ref_lanes_fn vks__ref_group_lanes = 0;
const vks__ref_lanes_fn vks__ref_group_lanes8 = 0;
#endif
