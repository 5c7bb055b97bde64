/* The fast CPU deformer's portable vertex loop (fast_baseline.c; fast_avx2.c has its own
 * eight-lane loop). The includer defines
 *   FAST_MADD(a, b, c)  a * b + c on vks__f4 (fused where the target has FMA)
 *   FAST_GROUP          the name of the kernel it exports
 * Like ozz-animation's SkinningJob it blends the matrices first, then transforms the position
 * and the normal; the influence count is a constant per instantiation, so each loop is
 * unrolled for it. Empty slots are clamped into the palette with weight 0: no branch per slot. */
#include <math.h>
#include <string.h>

#include "fast_internal.h"

static inline vks__f4 fast_splat(float x)
{
    return (vks__f4){x, x, x, x};
}

/* Stores lanes 0..2. Where a later vertex of the same range follows, one 16-byte store whose
 * fourth lane that vertex overwrites; the range's last vertex stores exactly 12 bytes, so no
 * byte outside the range (another thread's slice) is touched. */
static inline void fast_store3(float *dst, vks__f4 v, int whole)
{
    if (whole)
        memcpy(dst, &v, sizeof v);
    else
        dst[0] = v[0], dst[1] = v[1], dst[2] = v[2];
}

static inline void fast_range(const vks_skin *s, const vks__pal_mat *pal, uint32_t pal_last, uint32_t v0,
                              uint32_t v1, int k_inf, int has_n, int renorm, float *restrict pos,
                              float *restrict nrm)
{
    for (uint32_t v = v0; v < v1; v++) {
        const vks_influence *in = &s->influences[v];
        vks__f4 c0 = fast_splat(0), c1 = c0, c2 = c0, c3 = c0;
        for (int k = 0; k < k_inf; k++) {
            uint32_t idx = in->index[k] < pal_last ? in->index[k] : pal_last;
            vks__f4 w = fast_splat(in->weight[k] > 0 ? in->weight[k] : 0.0f);
            const vks__pal_mat *K = &pal[idx];
            c0 = FAST_MADD(w, K->c[0], c0);
            c1 = FAST_MADD(w, K->c[1], c1);
            c2 = FAST_MADD(w, K->c[2], c2);
            c3 = FAST_MADD(w, K->c[3], c3);
        }
        const float *p = s->positions[v];
        /* ((x p.x + y p.y) + z p.z) + t: the order the reference sums in */
        vks__f4 pp = FAST_MADD(c2, fast_splat(p[2]), FAST_MADD(c1, fast_splat(p[1]), c0 * fast_splat(p[0]))) + c3;
        int whole = v + 1 < v1;
        fast_store3(pos + (size_t)v * 3, pp, whole);
        if (nrm) {
            vks__f4 nn = fast_splat(0);
            if (has_n) {
                const float *n = s->normals[v];
                nn = FAST_MADD(c2, fast_splat(n[2]), FAST_MADD(c1, fast_splat(n[1]), c0 * fast_splat(n[0])));
                if (renorm) {
                    float len = sqrtf(nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2]);
                    if (len > 0)
                        nn /= fast_splat(len);
                }
            }
            fast_store3(nrm + (size_t)v * 3, nn, whole);
        }
    }
}

void FAST_GROUP(const vks_skin *s, const vks__pal_mat *pal, uint32_t pal_last, uint32_t v0, uint32_t v1, int k_inf,
                int has_n, int renorm, float *pos, float *nrm)
{
    switch (k_inf) {
    case 1: fast_range(s, pal, pal_last, v0, v1, 1, has_n, renorm, pos, nrm); break;
    case 2: fast_range(s, pal, pal_last, v0, v1, 2, has_n, renorm, pos, nrm); break;
    case 3: fast_range(s, pal, pal_last, v0, v1, 3, has_n, renorm, pos, nrm); break;
    default: fast_range(s, pal, pal_last, v0, v1, 4, has_n, renorm, pos, nrm); break;
    }
}
