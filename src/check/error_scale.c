/* The scale float32 errors grow with (see tolerance.c): the larger of the bounding radius
 * and the magnitudes of the bind-pose world translations and skin-space transforms, since
 * the skin matrices cancel those large translations against each other; for one posed
 * instance, also the posed world translations and deformed positions. */
#include "vkskin/check.h"
#include "vkskin/skin.h"
#include "core/cpu_features.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

double vks_skin_error_scale(const vks_skin *s)
{
    double scale = vks_skin_bounding_radius(s);
    vks_affine_d *world = malloc((s->node_count ? s->node_count : 1) * sizeof *world);
    if (!world)
        return scale;
    for (uint32_t i = 0; i < s->node_count; i++) {
        vks_affine_d l = vks_affine_d_from(&s->nodes[i].bind_local);
        world[i] = s->nodes[i].parent < 0 ? l : vks_affine_d_mul(&world[s->nodes[i].parent], &l);
        double t = sqrt(world[i].m[9] * world[i].m[9] + world[i].m[10] * world[i].m[10] +
                        world[i].m[11] * world[i].m[11]);
        if (t > scale)
            scale = t;
    }
    for (uint32_t b = 0; b < s->bone_count; b++) {
        const float *m = s->bones[b].inverse_bind.m;
        double t = sqrt((double)m[9] * m[9] + (double)m[10] * m[10] + (double)m[11] * m[11]);
        if (t > scale)
            scale = t;
    }
    free(world);
    return scale;
}

/* Length of a translation; 0 when not finite (such values fail the diff on their own and must
   not widen its tolerance). */
static double length3(const double *t)
{
    double d = sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
    return isfinite(d) ? d : 0.0;
}

/* The largest finite x^2 + y^2 + z^2 of n vertices (0 if none). The rule: */
static double longest_square_scalar(const float *positions, uint32_t from, uint32_t n, double longest_sq)
{
    for (uint32_t v = from; v < n; v++) {
        const float *p = positions + (size_t)v * 3;
        double x = p[0], y = p[1], z = p[2], sq = x * x + y * y + z * z;
        longest_sq = isfinite(sq) && sq > longest_sq ? sq : longest_sq;
    }
    return longest_sq;
}

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
/* ...and four vertices a vector where the CPU has AVX2: each square made in the rule's order
   (no FMA: the target is avx2 alone), a lane's running largest, the lanes' largest at the end.
   The largest of a set does not depend on the order it is taken in: the same bits. */
__attribute__((target("avx2"))) static double longest_square_avx2(const float *positions, uint32_t n)
{
    const __m256d big = _mm256_set1_pd(DBL_MAX);
    __m256d best = _mm256_setzero_pd();
    uint32_t v = 0;
    for (; v + 4 <= n; v += 4) {
        const float *p = positions + (size_t)v * 3;
        __m128 fx = _mm_setr_ps(p[0], p[3], p[6], p[9]), fy = _mm_setr_ps(p[1], p[4], p[7], p[10]);
        __m128 fz = _mm_setr_ps(p[2], p[5], p[8], p[11]);
        __m256d x = _mm256_cvtps_pd(fx), y = _mm256_cvtps_pd(fy), z = _mm256_cvtps_pd(fz);
        __m256d sq = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(x, x), _mm256_mul_pd(y, y)), _mm256_mul_pd(z, z));
        /* finite and larger: sq <= DBL_MAX is false for infinity and NaN */
        __m256d take = _mm256_and_pd(_mm256_cmp_pd(sq, big, _CMP_LE_OQ), _mm256_cmp_pd(sq, best, _CMP_GT_OQ));
        best = _mm256_blendv_pd(best, sq, take);
    }
    double l[4], longest_sq = 0;
    _mm256_storeu_pd(l, best);
    for (int k = 0; k < 4; k++)
        longest_sq = l[k] > longest_sq ? l[k] : longest_sq;
    return longest_square_scalar(positions, v, n, longest_sq);
}

static double longest_square(const float *positions, uint32_t n)
{
    return vks__cpu_has_avx2() ? longest_square_avx2(positions, n) : longest_square_scalar(positions, 0, n, 0);
}
#else
static double longest_square(const float *positions, uint32_t n)
{
    return longest_square_scalar(positions, 0, n, 0);
}
#endif

double vks_posed_error_scale(const vks_skin *s, double model_scale, const vks_affine_d *world, const float *positions)
{
    double scale = model_scale;
    for (uint32_t b = 0; b < s->bone_count; b++) {
        double t = length3(&world[s->bones[b].node].m[9]);
        if (t > scale)
            scale = t;
    }
    for (uint32_t m = 0; m < s->mesh_count; m++)
        if (s->meshes[m].space_node >= 0) {
            double t = length3(&world[s->meshes[m].space_node].m[9]);
            if (t > scale)
                scale = t;
        }
    /* the longest vertex by its square, one square root after: sqrt is monotonic and rounds
       correctly, so the root of the largest square is the largest root (a square root per
       vertex was a visible part of validate's host time) */
    double d = sqrt(longest_square(positions, s->vertex_count));
    return d > scale ? d : scale;
}
