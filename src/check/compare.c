/* The comparison of an engine's vertices with the reference in one pass (compare.h): the
 * diff's counts and extremes (check.h) and the error map's per-vertex errors and histogram
 * (report.h) from one read of each component and one difference.
 *
 * Why it is shaped as it is: vkskin validate compares every component of every instance, and
 * the separate loops it had (the diff, then the map) cost a quarter of the run. The loop body
 * here has no branch that depends on the data, so the compiler can vectorise it; what a
 * branch decided per component is now decided once per instance from what the loop
 * gathered, by rules that give the same bits:
 *   - the largest relative error is the largest difference times 1 / the scale (a positive
 *     factor: rounding is monotonic, so the product of the maximum is the maximum product);
 *   - the worst vertex is the first component holding the instance's largest difference (or
 *     its first non-finite one), looked up again only when it beats the running worst;
 *   - a histogram bin is the number of edges an error passes (the edges are sorted, so that
 *     count is the bin the old edge-by-edge search stopped at): eight counters, no search;
 *   - the error of a component, |a - b| / (abs + rel * |b|), is the same division as before
 *     wherever that limit is positive for every finite b (abs > 0, 0 <= rel, both finite:
 *     every default tolerance); other tolerances take the old loop, kept below as the rule.
 * The loop runs four vertices at a time in AVX2 where the CPU has it, else two in SSE2, else
 * one; every form does the same IEEE operations per lane.
 * The sums of squares behind NMSE depend on order and stay in the components' order. */
#include "compare.h"
#include "core/cpu_features.h"

#include <float.h>
#include <math.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#if defined(__GNUC__)
#define VKS_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define VKS_ALWAYS_INLINE inline
#endif

static const double bin_edges[VKS_REPORT_BINS - 2] = {1e-4, 1e-3, 1e-2, 0.1, 0.5, 1.0, 10.0, 100.0};

/* The rule, for any tolerance: a histogram bin by searching the edges... */
static int bin_of(double e)
{
    if (!isfinite(e))
        return VKS_REPORT_BINS - 1;
    int k = 0;
    /* up to 1 the upper edge is open, from 1 on closed: exactly the tolerance passes */
    while (k < VKS_REPORT_BINS - 2 && (bin_edges[k] <= 1.0 ? e >= bin_edges[k] : e > bin_edges[k]))
        k++;
    return k;
}

/* ...and the worst component's error of a vertex: |a - b| over abs_tol + rel * |b|; a
 * non-finite value is infinitely wrong. */
static double vertex_error(const float *a, const float *b, double abs_tol, double rel)
{
    double worst = 0;
    for (int k = 0; k < 3; k++) {
        double x = a[k], y = b[k];
        if (!isfinite(x) || !isfinite(y))
            return INFINITY;
        double d = fabs(x - y), lim = abs_tol + rel * fabs(y);
        double e = lim > 0 ? d / lim : (d > 0 ? INFINITY : 0);
        if (e > worst)
            worst = e;
    }
    return worst;
}

/* The fast form of one component's error, for a limit positive at every finite b: then the
 * division is vertex_error's, and the select stands for its early return. */
static VKS_ALWAYS_INLINE double component_error(float x, float y, double abs_tol, double rel)
{
    double q = fabs((double)x - (double)y) / (abs_tol + rel * fabs((double)y));
    return (isfinite(x) & isfinite(y)) ? q : INFINITY;
}

static VKS_ALWAYS_INLINE double vertex_error_fast(const float *a, const float *b, double abs_tol, double rel)
{
    double e0 = component_error(a[0], b[0], abs_tol, rel), e1 = component_error(a[1], b[1], abs_tol, rel);
    double e2 = component_error(a[2], b[2], abs_tol, rel), e = e0 > e1 ? e0 : e1;
    return e2 > e ? e2 : e;
}

/* The widest form the pass may take (vks__compare_vector_width): 4 AVX2 where the CPU has it,
 * 2 SSE2, 1 the scalar loop; the tests run each, since they must all give the same bits. */
static int vector_width = 4;

void vks__compare_vector_width(int lanes)
{
    vector_width = lanes;
}

/* What one instance's pass gathers. */
typedef struct gathered {
    uint64_t over;           /* diff: components over the limit or not finite */
    int non_finite;          /* diff: any component not finite */
    double max_diff;         /* diff: the largest finite |a - b| */
    uint64_t passed[VKS_REPORT_BINS - 2], infinite; /* map: vertices past each edge; infinite */
    double worst;            /* map: the instance's largest vertex error */
} gathered;

/* One instance's vertices [v0, nv): diff with its limit (d_abs, d_rel) when do_diff, map with
 * (m_abs, m_rel, the fast form) into max_error when do_map, added to g. Constant flags:
 * inlined into one loop per use. */
static VKS_ALWAYS_INLINE void pass_scalar(const float *a, const float *b, uint32_t v0, uint32_t nv, int do_diff,
                                          double d_abs, double d_rel, int do_map, double m_abs, double m_rel,
                                          float *max_error, gathered *g)
{
    uint64_t over = 0, p0 = 0, p1 = 0, p2 = 0, p3 = 0, p4 = 0, p5 = 0, p6 = 0, p7 = 0, inf = 0;
    int non_finite = 0;
    double max_diff = g->max_diff, worst = g->worst;
    for (uint32_t v = v0; v < nv; v++) {
        const float *x = a + (size_t)v * 3, *y = b + (size_t)v * 3;
        if (do_diff)
            for (int k = 0; k < 3; k++) {
                int fin = isfinite(x[k]) & isfinite(y[k]);
                double d = fabs((double)x[k] - (double)y[k]);
                over += !fin | (d > d_abs + d_rel * fabs((double)y[k]));
                non_finite |= !fin;
                double f = fin ? d : 0.0;
                max_diff = f > max_diff ? f : max_diff;
            }
        if (do_map) {
            double e = vertex_error_fast(x, y, m_abs, m_rel);
            p0 += e >= 1e-4, p1 += e >= 1e-3, p2 += e >= 1e-2, p3 += e >= 0.1, p4 += e >= 0.5, p5 += e >= 1.0;
            p6 += e > 10.0, p7 += e > 100.0, inf += e == INFINITY;
            float had = max_error[v];
            max_error[v] = e > had ? (float)e : had;
            worst = e > worst ? e : worst;
        }
    }
    g->over += over, g->non_finite |= non_finite, g->max_diff = max_diff, g->worst = worst, g->infinite += inf;
    g->passed[0] += p0, g->passed[1] += p1, g->passed[2] += p2, g->passed[3] += p3;
    g->passed[4] += p4, g->passed[5] += p5, g->passed[6] += p6, g->passed[7] += p7;
}

#if defined(__SSE2__)
/* The same pass two vertices at a time in SSE2 (every x86-64): the same IEEE operations per
 * lane (conversion, difference, product, sum, division, comparison), so the same bits; the
 * selects are masks. Returns the vertices it took (an even count); pass_scalar takes the rest. */
static VKS_ALWAYS_INLINE uint32_t pass_sse2(const float *a, const float *b, uint32_t nv, int do_diff, double d_abs,
                                            double d_rel, int do_map, double m_abs, double m_rel,
                                            float *max_error, gathered *g)
{
    const __m128d ones = _mm_castsi128_pd(_mm_set1_epi32(-1));
    const __m128d sign = _mm_set1_pd(-0.0), big = _mm_set1_pd(DBL_MAX), inf = _mm_set1_pd(INFINITY);
    const __m128d dabs = _mm_set1_pd(d_abs), drel = _mm_set1_pd(d_rel);
    const __m128d mabs = _mm_set1_pd(m_abs), mrel = _mm_set1_pd(m_rel);
    const __m128d e0 = _mm_set1_pd(1e-4), e1 = _mm_set1_pd(1e-3), e2 = _mm_set1_pd(1e-2), e3 = _mm_set1_pd(0.1);
    const __m128d e4 = _mm_set1_pd(0.5), e5 = _mm_set1_pd(1.0), e6 = _mm_set1_pd(10.0), e7 = _mm_set1_pd(100.0);
    __m128i over = _mm_setzero_si128(), p0 = over, p1 = over, p2 = over, p3 = over, p4 = over, p5 = over;
    __m128i p6 = over, p7 = over, infs = over;
    __m128d non_finite = _mm_setzero_pd(), max_diff = _mm_set1_pd(g->max_diff), worst = _mm_set1_pd(g->worst);
    uint32_t pairs = nv / 2;
    for (uint32_t p = 0; p < pairs; p++) {
        const float *pa = a + (size_t)p * 6, *pb = b + (size_t)p * 6;
        /* x0 y0 z0 x1 | y1 z1 as doubles, regrouped into {x0 x1} {y0 y1} {z0 z1}; the 64-bit
           loads and stores are the unaligned kind (floats are only 4-byte aligned) */
        __m128 la = _mm_loadu_ps(pa), lb = _mm_loadu_ps(pb);
        __m128 ta = _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(const void *)(pa + 4)));
        __m128 tb = _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(const void *)(pb + 4)));
        __m128d a01 = _mm_cvtps_pd(la), a23 = _mm_cvtps_pd(_mm_movehl_ps(la, la)), a45 = _mm_cvtps_pd(ta);
        __m128d b01 = _mm_cvtps_pd(lb), b23 = _mm_cvtps_pd(_mm_movehl_ps(lb, lb)), b45 = _mm_cvtps_pd(tb);
        __m128d xs[3] = {_mm_shuffle_pd(a01, a23, 2), _mm_shuffle_pd(a01, a45, 1), _mm_shuffle_pd(a23, a45, 2)};
        __m128d ys[3] = {_mm_shuffle_pd(b01, b23, 2), _mm_shuffle_pd(b01, b45, 1), _mm_shuffle_pd(b23, b45, 2)};
        __m128d e = _mm_setzero_pd();
        for (int k = 0; k < 3; k++) {
            __m128d d = _mm_andnot_pd(sign, _mm_sub_pd(xs[k], ys[k])), ay = _mm_andnot_pd(sign, ys[k]);
            __m128d fin = _mm_and_pd(_mm_cmple_pd(_mm_andnot_pd(sign, xs[k]), big), _mm_cmple_pd(ay, big));
            if (do_diff) {
                __m128d out = _mm_cmpgt_pd(d, _mm_add_pd(dabs, _mm_mul_pd(drel, ay)));
                __m128d not_fin = _mm_andnot_pd(fin, ones);
                over = _mm_sub_epi64(over, _mm_castpd_si128(_mm_or_pd(out, not_fin)));
                non_finite = _mm_or_pd(non_finite, not_fin);
                max_diff = _mm_max_pd(max_diff, _mm_and_pd(fin, d));
            }
            if (do_map) {
                __m128d q = _mm_div_pd(d, _mm_add_pd(mabs, _mm_mul_pd(mrel, ay)));
                q = _mm_or_pd(_mm_and_pd(fin, q), _mm_andnot_pd(fin, inf));
                e = _mm_max_pd(e, q);
            }
        }
        /* errors under the first edge (a passing run's nearly every vertex) pass no edge: the
           counts are taken only when a lane reaches it (a branch that is nearly always taken
           alike, so cheap) */
        __m128d past0 = _mm_cmpge_pd(e, e0);
        if (do_map && _mm_movemask_pd(past0)) {
            p0 = _mm_sub_epi64(p0, _mm_castpd_si128(past0));
            p1 = _mm_sub_epi64(p1, _mm_castpd_si128(_mm_cmpge_pd(e, e1)));
            p2 = _mm_sub_epi64(p2, _mm_castpd_si128(_mm_cmpge_pd(e, e2)));
            p3 = _mm_sub_epi64(p3, _mm_castpd_si128(_mm_cmpge_pd(e, e3)));
            p4 = _mm_sub_epi64(p4, _mm_castpd_si128(_mm_cmpge_pd(e, e4)));
            p5 = _mm_sub_epi64(p5, _mm_castpd_si128(_mm_cmpge_pd(e, e5)));
            p6 = _mm_sub_epi64(p6, _mm_castpd_si128(_mm_cmpgt_pd(e, e6)));
            p7 = _mm_sub_epi64(p7, _mm_castpd_si128(_mm_cmpgt_pd(e, e7)));
            infs = _mm_sub_epi64(infs, _mm_castpd_si128(_mm_cmpeq_pd(e, inf)));
        }
        if (do_map) {
            float *mx = max_error + (size_t)p * 2;
            __m128d had = _mm_cvtps_pd(_mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(const void *)mx)));
            __m128d up = _mm_cmpgt_pd(e, had), keep = _mm_or_pd(_mm_and_pd(up, e), _mm_andnot_pd(up, had));
            _mm_storel_epi64((__m128i *)(void *)mx, _mm_castps_si128(_mm_cvtpd_ps(keep)));
            worst = _mm_max_pd(worst, e);
        }
    }
    uint64_t lanes[2];
#define VKS_ADD_LANES(into, v) (_mm_storeu_si128((__m128i *)(void *)lanes, v), (into) += lanes[0] + lanes[1])
    VKS_ADD_LANES(g->over, over);
    VKS_ADD_LANES(g->passed[0], p0), VKS_ADD_LANES(g->passed[1], p1), VKS_ADD_LANES(g->passed[2], p2);
    VKS_ADD_LANES(g->passed[3], p3), VKS_ADD_LANES(g->passed[4], p4), VKS_ADD_LANES(g->passed[5], p5);
    VKS_ADD_LANES(g->passed[6], p6), VKS_ADD_LANES(g->passed[7], p7), VKS_ADD_LANES(g->infinite, infs);
#undef VKS_ADD_LANES
    g->non_finite |= _mm_movemask_pd(non_finite) != 0;
    double m2[2];
    _mm_storeu_pd(m2, max_diff);
    g->max_diff = m2[0] > m2[1] ? m2[0] : m2[1];
    _mm_storeu_pd(m2, worst);
    g->worst = m2[0] > m2[1] ? m2[0] : m2[1];
    return pairs * 2;
}
#endif

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define VKS_HAVE_AVX2_PASS 1
/* The same pass four vertices at a time where the CPU has AVX2 (checked at run time): three
 * loads of four floats hold x0 y0 z0 x1 | y1 z1 x2 y2 | z2 x3 y3 z3, blended and permuted into
 * {x0..x3} {y0..y3} {z0..z3}. Same IEEE operations per lane, no FMA (the target is avx2 alone
 * and contraction is off), so the same bits as pass_scalar. */
#define VKS_AVX2 __attribute__((target("avx2")))
static VKS_ALWAYS_INLINE VKS_AVX2 void xyz4(const float *p, __m256d out[3])
{
    __m256d d0 = _mm256_cvtps_pd(_mm_loadu_ps(p)), d1 = _mm256_cvtps_pd(_mm_loadu_ps(p + 4));
    __m256d d2 = _mm256_cvtps_pd(_mm_loadu_ps(p + 8));
    out[0] = _mm256_permute4x64_pd(_mm256_blend_pd(_mm256_blend_pd(d0, d1, 4), d2, 2), _MM_SHUFFLE(1, 2, 3, 0));
    out[1] = _mm256_permute4x64_pd(_mm256_blend_pd(_mm256_blend_pd(d0, d1, 9), d2, 4), _MM_SHUFFLE(2, 3, 0, 1));
    out[2] = _mm256_permute4x64_pd(_mm256_blend_pd(_mm256_blend_pd(d0, d1, 2), d2, 9), _MM_SHUFFLE(3, 0, 1, 2));
}

static VKS_ALWAYS_INLINE VKS_AVX2 double max4(__m256d v)
{
    double l[4];
    _mm256_storeu_pd(l, v);
    double m = l[0] > l[1] ? l[0] : l[1], n = l[2] > l[3] ? l[2] : l[3];
    return m > n ? m : n;
}

static VKS_ALWAYS_INLINE VKS_AVX2 uint64_t sum4(__m256i v)
{
    uint64_t l[4];
    _mm256_storeu_si256((__m256i *)(void *)l, v);
    return l[0] + l[1] + l[2] + l[3];
}

/* abs_only: the map's limit is m_abs alone (m_rel is 0), the same for every component, and
 * division by a positive constant is monotonic under rounding, so the largest of a vertex's
 * three quotients is its largest difference divided once (a non-finite component's infinity
 * divides to infinity): the same bits for a third of the divisions, which were most of the
 * pass's time on positions. */
static VKS_ALWAYS_INLINE VKS_AVX2 uint32_t pass_avx2(const float *a, const float *b, uint32_t nv, int do_diff,
                                                     double d_abs, double d_rel, int do_map, double m_abs,
                                                     double m_rel, float *max_error, gathered *g, int abs_only)
{
    const __m256d ones = _mm256_castsi256_pd(_mm256_set1_epi32(-1)), sign = _mm256_set1_pd(-0.0);
    const __m256d big = _mm256_set1_pd(DBL_MAX), inf = _mm256_set1_pd(INFINITY);
    const __m256d dabs = _mm256_set1_pd(d_abs), drel = _mm256_set1_pd(d_rel);
    const __m256d mabs = _mm256_set1_pd(m_abs), mrel = _mm256_set1_pd(m_rel);
    static const double edge[VKS_REPORT_BINS - 2] = {1e-4, 1e-3, 1e-2, 0.1, 0.5, 1.0, 10.0, 100.0};
    __m256i over = _mm256_setzero_si256(), passed[VKS_REPORT_BINS - 2], infs = over;
    for (int k = 0; k < VKS_REPORT_BINS - 2; k++)
        passed[k] = over;
    __m256d non_finite = _mm256_setzero_pd(), max_diff = _mm256_set1_pd(g->max_diff), worst = _mm256_set1_pd(g->worst);
    uint32_t quads = nv / 4;
    for (uint32_t p = 0; p < quads; p++) {
        __m256d xs[3], ys[3], e = _mm256_setzero_pd();
        xyz4(a + (size_t)p * 12, xs);
        xyz4(b + (size_t)p * 12, ys);
        for (int k = 0; k < 3; k++) {
            __m256d d = _mm256_andnot_pd(sign, _mm256_sub_pd(xs[k], ys[k])), ay = _mm256_andnot_pd(sign, ys[k]);
            __m256d fin = _mm256_and_pd(_mm256_cmp_pd(_mm256_andnot_pd(sign, xs[k]), big, _CMP_LE_OQ),
                                        _mm256_cmp_pd(ay, big, _CMP_LE_OQ));
            if (do_diff) {
                __m256d out = _mm256_cmp_pd(d, _mm256_add_pd(dabs, _mm256_mul_pd(drel, ay)), _CMP_GT_OQ);
                __m256d not_fin = _mm256_andnot_pd(fin, ones);
                over = _mm256_sub_epi64(over, _mm256_castpd_si256(_mm256_or_pd(out, not_fin)));
                non_finite = _mm256_or_pd(non_finite, not_fin);
                max_diff = _mm256_max_pd(max_diff, _mm256_and_pd(fin, d));
            }
            if (do_map && abs_only) {
                e = _mm256_max_pd(e, _mm256_blendv_pd(inf, d, fin));
            } else if (do_map) {
                __m256d q = _mm256_div_pd(d, _mm256_add_pd(mabs, _mm256_mul_pd(mrel, ay)));
                e = _mm256_max_pd(e, _mm256_blendv_pd(inf, q, fin));
            }
        }
        if (!do_map)
            continue;
        if (abs_only)
            e = _mm256_div_pd(e, mabs);
        __m256d past0 = _mm256_cmp_pd(e, _mm256_set1_pd(edge[0]), _CMP_GE_OQ);
        if (_mm256_movemask_pd(past0)) { /* as in pass_sse2: nearly never in a passing run */
#define VKS_PASSED(k, pred)                                                                                   \
    passed[k] = _mm256_sub_epi64(passed[k], _mm256_castpd_si256(_mm256_cmp_pd(e, _mm256_set1_pd(edge[k]), pred)))
            VKS_PASSED(0, _CMP_GE_OQ), VKS_PASSED(1, _CMP_GE_OQ), VKS_PASSED(2, _CMP_GE_OQ), VKS_PASSED(3, _CMP_GE_OQ);
            VKS_PASSED(4, _CMP_GE_OQ), VKS_PASSED(5, _CMP_GE_OQ), VKS_PASSED(6, _CMP_GT_OQ), VKS_PASSED(7, _CMP_GT_OQ);
#undef VKS_PASSED
            infs = _mm256_sub_epi64(infs, _mm256_castpd_si256(_mm256_cmp_pd(e, inf, _CMP_EQ_OQ)));
        }
        float *mx = max_error + (size_t)p * 4;
        __m256d had = _mm256_cvtps_pd(_mm_loadu_ps(mx));
        __m256d keep = _mm256_blendv_pd(had, e, _mm256_cmp_pd(e, had, _CMP_GT_OQ));
        _mm_storeu_ps(mx, _mm256_cvtpd_ps(keep));
        worst = _mm256_max_pd(worst, e);
    }
    g->over += sum4(over), g->infinite += sum4(infs);
    for (int k = 0; k < VKS_REPORT_BINS - 2; k++)
        g->passed[k] += sum4(passed[k]);
    g->non_finite |= _mm256_movemask_pd(non_finite) != 0;
    g->max_diff = max4(max_diff), g->worst = max4(worst);
    return quads * 4;
}

static VKS_AVX2 uint32_t pass_avx2_diff(const float *a, const float *b, uint32_t nv, double d_abs, double d_rel,
                                        gathered *g)
{
    return pass_avx2(a, b, nv, 1, d_abs, d_rel, 0, 0, 0, NULL, g, 0);
}

static VKS_AVX2 uint32_t pass_avx2_map(const float *a, const float *b, uint32_t nv, double m_abs, double m_rel,
                                       float *max_error, gathered *g)
{
    return m_rel == 0 ? pass_avx2(a, b, nv, 0, 0, 0, 1, m_abs, m_rel, max_error, g, 1)
                      : pass_avx2(a, b, nv, 0, 0, 0, 1, m_abs, m_rel, max_error, g, 0);
}

static VKS_AVX2 uint32_t pass_avx2_both(const float *a, const float *b, uint32_t nv, double d_abs, double d_rel,
                                        double m_abs, double m_rel, float *max_error, gathered *g)
{
    return m_rel == 0 ? pass_avx2(a, b, nv, 1, d_abs, d_rel, 1, m_abs, m_rel, max_error, g, 1)
                      : pass_avx2(a, b, nv, 1, d_abs, d_rel, 1, m_abs, m_rel, max_error, g, 0);
}
#endif

static VKS_ALWAYS_INLINE void pass(const float *a, const float *b, uint32_t nv, int do_diff, double d_abs,
                                   double d_rel, int do_map, double m_abs, double m_rel, float *max_error,
                                   gathered *g)
{
    memset(g, 0, sizeof *g);
    uint32_t done = 0;
#if defined(VKS_HAVE_AVX2_PASS)
    if (vector_width >= 4 && vks__cpu_has_avx2()) {
        done = do_diff && do_map ? pass_avx2_both(a, b, nv, d_abs, d_rel, m_abs, m_rel, max_error, g)
               : do_diff         ? pass_avx2_diff(a, b, nv, d_abs, d_rel, g)
                                 : pass_avx2_map(a, b, nv, m_abs, m_rel, max_error, g);
        pass_scalar(a, b, done, nv, do_diff, d_abs, d_rel, do_map, m_abs, m_rel, max_error, g);
        return;
    }
#endif
#if defined(__SSE2__)
    if (vector_width >= 2)
        done = pass_sse2(a, b, nv, do_diff, d_abs, d_rel, do_map, m_abs, m_rel, max_error, g);
#endif
    pass_scalar(a, b, done, nv, do_diff, d_abs, d_rel, do_map, m_abs, m_rel, max_error, g);
}

static void pass_diff(const float *a, const float *b, uint32_t nv, double d_abs, double d_rel, gathered *g)
{
    pass(a, b, nv, 1, d_abs, d_rel, 0, 0, 0, NULL, g);
}

static void pass_map(const float *a, const float *b, uint32_t nv, double m_abs, double m_rel, float *max_error,
                     gathered *g)
{
    pass(a, b, nv, 0, 0, 0, 1, m_abs, m_rel, max_error, g);
}

static void pass_both(const float *a, const float *b, uint32_t nv, double d_abs, double d_rel, double m_abs,
                      double m_rel, float *max_error, gathered *g)
{
    pass(a, b, nv, 1, d_abs, d_rel, 1, m_abs, m_rel, max_error, g);
}

/* The first component that is not finite (non_finite) or holds the largest difference. */
static uint32_t first_worst(const float *a, const float *b, uint32_t nv, int non_finite, double max_diff)
{
    for (size_t j = 0; j < (size_t)nv * 3; j++) {
        int fin = isfinite(a[j]) && isfinite(b[j]);
        if (non_finite ? !fin : fin && fabs((double)a[j] - (double)b[j]) == max_diff)
            return (uint32_t)(j / 3);
    }
    return 0;
}

/* The diff's share of an instance's pass, as the per-component loop left it. */
static void diff_take(vks_diff_report *r, const gathered *g, const float *a, const float *b, uint32_t nv,
                      uint32_t instance, double per_scale)
{
    r->compared += (uint64_t)nv * 3;
    r->over += g->over;
    if (g->non_finite) {
        r->max_rel = INFINITY;
        if (r->max_abs < INFINITY) {
            r->max_abs = INFINITY;
            r->worst_instance = instance, r->worst_vertex = first_worst(a, b, nv, 1, 0);
        }
        return;
    }
    double rel = g->max_diff * per_scale;
    if (rel > r->max_rel)
        r->max_rel = rel;
    if (g->max_diff > r->max_abs) {
        r->max_abs = g->max_diff;
        r->worst_instance = instance, r->worst_vertex = first_worst(a, b, nv, 0, g->max_diff);
    }
}

/* The map's share: the histogram from the edge counts, and a new worst instance's errors. */
static void map_take(vks_error_map *m, const gathered *g, const float *a, const float *b, uint32_t instance,
                     double abs_tol, double rel, const float *draw_positions, const float *draw_normals)
{
    uint32_t nv = m->vertices;
    m->hist[0] += nv - g->passed[0];
    for (int k = 1; k < VKS_REPORT_BINS - 2; k++)
        m->hist[k] += g->passed[k - 1] - g->passed[k];
    m->hist[VKS_REPORT_BINS - 2] += g->passed[VKS_REPORT_BINS - 3] - g->infinite;
    m->hist[VKS_REPORT_BINS - 1] += g->infinite;
    if (g->worst <= m->worst)
        return;
    m->worst = g->worst, m->worst_instance = instance;
    for (uint32_t v = 0; v < nv; v++)
        m->error[v] = (float)vertex_error_fast(a + (size_t)v * 3, b + (size_t)v * 3, abs_tol, rel);
    if (draw_positions)
        memcpy(m->positions, draw_positions, (size_t)nv * 3 * sizeof(float));
    if (draw_normals)
        memcpy(m->normals, draw_normals, (size_t)nv * 3 * sizeof(float));
}

/* The map by the rule itself, for tolerances the fast form does not cover. */
static void map_by_rule(vks_error_map *m, const float *a, const float *b, uint32_t instance, double abs_tol,
                        double rel, const float *draw_positions, const float *draw_normals)
{
    uint32_t nv = m->vertices;
    double inst_worst = 0;
    for (uint32_t v = 0; v < nv; v++) {
        double e = vertex_error(a + (size_t)v * 3, b + (size_t)v * 3, abs_tol, rel);
        m->hist[bin_of(e)]++;
        if (e > m->max_error[v])
            m->max_error[v] = (float)e;
        if (e > inst_worst)
            inst_worst = e;
    }
    if (inst_worst <= m->worst)
        return;
    m->worst = inst_worst, m->worst_instance = instance;
    for (uint32_t v = 0; v < nv; v++)
        m->error[v] = (float)vertex_error(a + (size_t)v * 3, b + (size_t)v * 3, abs_tol, rel);
    if (draw_positions)
        memcpy(m->positions, draw_positions, (size_t)nv * 3 * sizeof(float));
    if (draw_normals)
        memcpy(m->normals, draw_normals, (size_t)nv * 3 * sizeof(float));
}

void vks__compare(vks_diff_acc *acc, int with_sums, vks_error_map *m, const vks_diff_tolerance *map_tol,
                  double map_radius, const float *a, const float *b, uint32_t first_instance, uint32_t instances,
                  uint32_t vertices, const double *instance_scale, const float *draw_positions,
                  const float *draw_normals)
{
    if (m && (!m->error || m->vertices != vertices))
        m = NULL; /* a map of another model, or one that could not be made: as vks_error_map_add */
    map_radius = map_radius > 0 ? map_radius : 1e-6; /* as vks_diff_begin */
    size_t per = (size_t)vertices * 3;
    for (uint32_t i = 0; i < instances; i++) {
        const float *ai = a + i * per, *bi = b + i * per;
        double d_abs = 0, d_rel = 0, per_scale = 0, m_abs = 0, m_rel = 0;
        if (acc) {
            vks_diff_report *r = &acc->r;
            double scale = r->tolerance.scale > 0 ? r->tolerance.scale : r->radius, rel_to = r->radius;
            if (instance_scale && instance_scale[i] > scale) /* never below the model's own */
                scale = rel_to = instance_scale[i];
            if (scale > r->max_scale)
                r->max_scale = scale;
            d_abs = r->tolerance.abs_radius * scale, d_rel = r->tolerance.rel, per_scale = 1.0 / rel_to;
        }
        int fast = 0;
        if (m) {
            double scale = map_tol->scale > 0 ? map_tol->scale : map_radius;
            if (instance_scale && instance_scale[i] > scale)
                scale = instance_scale[i];
            m_abs = map_tol->abs_radius * scale, m_rel = map_tol->rel;
            fast = m_abs > 0 && isfinite(m_abs) && m_rel >= 0 && isfinite(m_rel);
        }
        gathered g;
        const float *dp = draw_positions ? draw_positions + i * per : NULL;
        const float *dn = draw_normals ? draw_normals + i * per : NULL;
        if (acc && m && fast) {
            pass_both(ai, bi, vertices, d_abs, d_rel, m_abs, m_rel, m->max_error, &g);
            diff_take(&acc->r, &g, ai, bi, vertices, first_instance + i, per_scale);
            map_take(m, &g, ai, bi, first_instance + i, m_abs, m_rel, dp, dn);
        } else {
            if (acc) {
                pass_diff(ai, bi, vertices, d_abs, d_rel, &g);
                diff_take(&acc->r, &g, ai, bi, vertices, first_instance + i, per_scale);
            }
            if (m && fast) {
                pass_map(ai, bi, vertices, m_abs, m_rel, m->max_error, &g);
                map_take(m, &g, ai, bi, first_instance + i, m_abs, m_rel, dp, dn);
            } else if (m) {
                map_by_rule(m, ai, bi, first_instance + i, m_abs, m_rel, dp, dn);
            }
        }
        if (acc && with_sums)
            vks_diff_add_sums(acc, ai, bi, per);
    }
}
