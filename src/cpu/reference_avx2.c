/* The CPU reference's vertex loop in AVX2 (chosen at run time by reference.c, cpuid): the same
 * double arithmetic as the scalar loop, component for component, so the same floats bit for
 * bit. The three components of a vertex are lanes 0..2 of a four-double vector (lane 3 is
 * carried along and never stored): the scalar
 *   op[i] += w * (m[i] * px + m[3 + i] * py + m[6 + i] * pz + m[9 + i])
 * is, in every lane i, one multiply per column, the adds left to right, then the weight's
 * multiply and the add into op: the same operations in the same order. No FMA (the target is
 * avx2 alone, and the file is built with -ffp-contract=off as reference*.c are), the same
 * `w > 0` skip (so an empty slot's index is never read), the same renormalisation, done in
 * scalar from the lanes, and the same double-to-float rounding (cvtpd2ps, round to nearest as
 * cvtsd2ss). Why lanes over components and not over vertices: each influence's matrix is then
 * four contiguous loads, where four vertices a vector would need twelve gathers of scattered
 * matrices and a lane mask per slot. */
#include "ref_kernel.h"

#include <math.h>

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

/* lanes 0..2 as floats into out[0..2]: twelve bytes, never the next vertex's (another thread
 * may be writing the instance next to this one) */
AVX2 static inline void store3(float *out, __m256d v)
{
    __m128 f = _mm256_cvtpd_ps(v);
    _mm_storel_pi((__m64 *)out, f);
    _mm_store_ss(out + 2, _mm_movehl_ps(f, f));
}

/* compact (a constant): the slots from the run's 24-byte records in4, a loop of 4 that unrolls;
   else from the skin's records, a loop over the group's slots */
AVX2 static inline void group(const vks_skin *s, const vks_group *gr, const vks__ref_cols *cols,
                              const vks__ref_infl4 *in4, float *pos, float *nrm, int compact, int has_n, int renorm,
                              int want_n)
{
    const uint16_t *palette = s->palette + gr->first_palette;
    const int slots = compact ? 4 : vks__ref_slots(gr);
    const vks__ref_infl4 *r = in4; /* vertex v's compact record: one step a vertex */
    for (uint32_t v = gr->first_vertex; v < gr->first_vertex + gr->vertex_count; v++, r = compact ? r + 1 : r) {
        const uint16_t *index = compact ? r->index : s->influences[v].index;
        const float *weight = compact ? r->weight : s->influences[v].weight;
        const float *p = s->positions[v];
        __m256d px = _mm256_set1_pd(p[0]), py = _mm256_set1_pd(p[1]), pz = _mm256_set1_pd(p[2]);
        __m256d nx = _mm256_setzero_pd(), ny = nx, nz = nx;
        if (has_n) {
            const float *n = s->normals[v];
            nx = _mm256_set1_pd(n[0]), ny = _mm256_set1_pd(n[1]), nz = _mm256_set1_pd(n[2]);
        }
        __m256d op = _mm256_setzero_pd(), on = op;
        for (int k = 0; k < slots; k++) {
            double w = weight[k];
            if (!(w > 0))
                continue;
            const vks__ref_cols *m = &cols[palette[index[k]]];
            __m256d c0 = _mm256_loadu_pd(m->c[0]), c1 = _mm256_loadu_pd(m->c[1]);
            __m256d c2 = _mm256_loadu_pd(m->c[2]), c3 = _mm256_loadu_pd(m->c[3]);
            __m256d wv = _mm256_set1_pd(w);
            __m256d tp = _mm256_add_pd(
                _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(c0, px), _mm256_mul_pd(c1, py)), _mm256_mul_pd(c2, pz)),
                c3);
            op = _mm256_add_pd(op, _mm256_mul_pd(wv, tp));
            if (want_n) {
                __m256d tn =
                    _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(c0, nx), _mm256_mul_pd(c1, ny)), _mm256_mul_pd(c2, nz));
                on = _mm256_add_pd(on, _mm256_mul_pd(wv, tn));
            }
        }
        store3(pos + (size_t)v * 3, op);
        if (!want_n)
            continue;
        if (renorm) { /* the length in scalar, in the scalar loop's order */
            double l[4];
            _mm256_storeu_pd(l, on);
            double len = sqrt(l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
            if (len > 0)
                on = _mm256_div_pd(on, _mm256_set1_pd(len));
        }
        store3(nrm + (size_t)v * 3, on);
    }
}

/* the mesh's flags, whether normals are wanted and where the slots come from as constants: each
   loop compiled for them (inlined by force: a copy of this function kept whole would test
   compact at run time, slot after slot) */
AVX2 __attribute__((always_inline)) static inline void flags_loop(const vks_skin *s, const vks_group *gr, const vks__ref_cols *cols,
                            const vks__ref_infl4 *in4, float *pos, float *nrm, int compact)
{
    const vks_mesh *me = &s->meshes[gr->mesh];
    int has_n = (me->flags & VKS_MESH_HAS_NORMALS) != 0, renorm = has_n && (me->flags & VKS_MESH_RENORMALIZE);
    if (!nrm)
        group(s, gr, cols, in4, pos, NULL, compact, 0, 0, 0);
    else if (renorm)
        group(s, gr, cols, in4, pos, nrm, compact, 1, 1, 1);
    else if (has_n)
        group(s, gr, cols, in4, pos, nrm, compact, 1, 0, 1);
    else
        group(s, gr, cols, in4, pos, nrm, compact, 0, 0, 1);
}

AVX2 static void group_avx2(const vks_skin *s, const vks_group *gr, const vks__ref_cols *cols,
                            const vks__ref_infl4 *in4, float *pos, float *nrm)
{
    if (in4)
        flags_loop(s, gr, cols, in4, pos, nrm, 1);
    else
        flags_loop(s, gr, cols, NULL, pos, nrm, 0);
}

const vks__ref_group_fn vks__ref_group_avx2 = group_avx2;
#else
const vks__ref_group_fn vks__ref_group_avx2 = 0;
#endif
