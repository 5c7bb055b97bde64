/* The fast CPU engine's crowd loops: one vertex of CROWD_LANES instances at a time, an instance
 * in each lane. A crowd plays one character many times, and everything a vertex-at-a-time
 * loop pays per vertex and per instance but that depends only on the vertex (its weights and
 * position splatted across lanes, its record read, its palette offsets turned into addresses)
 * is paid here once for all the lanes. The palette is laid out by element (fast_internal.h,
 * fast.c's crowd_palette): element e of slot j is one vector of the lanes' instances' values, so
 * blending an element is a multiply (or fused multiply-add) per influence with no shuffle, and
 * the transform is three multiply-adds per output component, again with no shuffle. Only the
 * stores shuffle: the lanes' x, y and z vectors are transposed, within 128-bit blocks, to one
 * (x, y, z, -) vector per instance, or (CROWD_QUADS) four vertices' to three whole vectors per
 * instance.
 *
 * Each lane computes exactly what the vertex-at-a-time kernel of the same instruction set
 * computes for its instance (same operations, same order, fused where that kernel fuses), so
 * the outputs are bit for bit those of the kernel (test_cpu_fast_crowd checks it on every
 * kernel this CPU has). The includer defines
 *   CROWD_LANES             4, 8 or 16 (the kernels take 4 and 8: fast_avx512.c says why)
 *   CROWD_TARGET            the target attribute (or nothing)
 *   CROWD_SPLAT(f)          f in every lane (a cv)
 *   CROWD_MADD(a, b, c)     a * b + c, fused where the kernel fuses
 *   CROWD_POS(X, Y, Z, T, x, y, z), CROWD_NRM(X, Y, Z, T, x, y, z)
 *                           one component of the position and the normal from the blend's row
 *                           (X, Y, Z its axes' elements, T the translation's) in the kernel's order
 *   CROWD_UNPACKLO/HI(a, b), CROWD_SHUFFLE(a, b, i, j, k, l)
 *                           the in-block shuffles (unpcklps, unpckhps, shufps: lanes i, j of a's
 *                           block and k, l of b's)
 *   CROWD_SQRT(v)           the lanes' square roots
 *   CROWD_SPLAT_AT(p, i)    (optional) lane i of the aligned vector at p in every lane
 *   CROWD_FN                the name of the loop it exports (a vks__fast_crowd_fn)
 *   CROWD_QUADS             1: store four vertices at a time (crowd_store_quad), 0: one at a time
 *                           (crowd_store; SSE2's sixteen registers do not hold four vertices) */
#include <string.h>

#include "fast_internal.h"

typedef float cv __attribute__((vector_size(CROWD_LANES * 4)));
typedef int ci __attribute__((vector_size(CROWD_LANES * 4)));

/* Lane i of the 16-byte aligned four floats at p in every lane: the includer's CROWD_SPLAT_AT, or
 * a broadcast of the float. */
#ifndef CROWD_SPLAT_AT
#define CROWD_SPLAT_AT(p, i) CROWD_SPLAT((p)[i])
#endif

/* every helper inlined into the specialised loops, as the kernels' own (fast_avx512.c), and
 * every loop over slots, rows, blocks and lanes unrolled, so the slots' addresses, weights and
 * rows stay in registers (rolled, GCC kept them in arrays on the stack) */
#define CROWD_ATTR CROWD_TARGET static inline __attribute__((always_inline))
#define CROWD_UNROLL _Pragma("GCC unroll 16")

/* A record's byte offset of slot j (j * sizeof(vks__pal_mat)) to the element-wise palette's:
 * 12 elements of CROWD_LANES floats a slot. */
#define CROWD_OFF(off) ((size_t)(off) * (12u * CROWD_LANES * 4u / sizeof(vks__pal_mat)))

/* Element e of the slot at s. */
#define CROWD_EL(s, e) (*(const cv *)((s) + (size_t)(e) * sizeof(cv)))

/* Element e of the blend of k_inf slots: sum_i w_i M_i in slot order (the reference's), or for
 * an affine run M_0 + sum_{i>0} w_i (M_i - M_0) (fast_kernel.h; w[0] is not read). */
CROWD_ATTR cv crowd_blend(const char *const s[8], const cv w[8], int k_inf, int affine, int e)
{
    if (affine) {
        const cv b = CROWD_EL(s[0], e);
        cv c = b;
        CROWD_UNROLL
        for (int k = 1; k < k_inf; k++)
            c = CROWD_MADD(w[k], CROWD_EL(s[k], e) - b, c);
        return c;
    }
    cv c = w[0] * CROWD_EL(s[0], e);
    CROWD_UNROLL
    for (int k = 1; k < k_inf; k++)
        c = CROWD_MADD(w[k], CROWD_EL(s[k], e), c);
    return c;
}

/* Lanes 0..2 of v to dst: 16 bytes where the next vertex overwrites the fourth, else 12. */
CROWD_ATTR void crowd_store3(float *dst, vks__f4 v, int whole)
{
    if (whole)
        memcpy(dst, &v, sizeof v);
    else
        dst[0] = v[0], dst[1] = v[1], dst[2] = v[2];
}

/* 128-bit block b of v (lanes 4 b .. 4 b + 3). */
CROWD_ATTR vks__f4 crowd_block(cv v, int b)
{
    vks__f4 q;
    memcpy(&q, (const float *)&v + 4 * b, sizeof q);
    return q;
}

/* The lanes' (x, y, z) = (a, b, c) to each lane's instance: lane l's to out + l * stride. Within
 * each 128-bit block, (x0 y0 x1 y1), (x2 y2 x3 y3), then (x y z z) per lane in four shuffles. */
CROWD_ATTR void crowd_store(cv a, cv b, cv c, float *out, size_t stride, int whole)
{
    const cv lo = CROWD_UNPACKLO(a, b), hi = CROWD_UNPACKHI(a, b);
    const cv q[4] = {CROWD_SHUFFLE(lo, c, 0, 1, 0, 0), CROWD_SHUFFLE(lo, c, 2, 3, 1, 1),
                     CROWD_SHUFFLE(hi, c, 0, 1, 2, 2), CROWD_SHUFFLE(hi, c, 2, 3, 3, 3)};
    CROWD_UNROLL
    for (int blk = 0; blk < CROWD_LANES / 4; blk++)
        CROWD_UNROLL
        for (int l = 0; l < 4; l++)
            crowd_store3(out + (size_t)(blk * 4 + l) * stride, crowd_block(q[l], blk), whole);
}

/* One vertex of every lane's instance: its position p and normal n (nmode), x, y, z a vector
 * each, renormalised where nmode says. */
CROWD_ATTR void crowd_compute(const vks__fast_vertex *r, const vks__fast_more *mo, const char *pal, int k_inf,
                              int affine, int nmode, cv p[3], cv n[3])
{
    const char *s[8];
    cv w[8];
    CROWD_UNROLL
    for (int k = 0; k < k_inf && k < 4; k++)
        s[k] = pal + CROWD_OFF(r->off[k]), w[k] = CROWD_SPLAT_AT(r->w, k);
    CROWD_UNROLL
    for (int k = 4; k < k_inf; k++)
        s[k] = pal + CROWD_OFF(mo->off[k - 4]), w[k] = CROWD_SPLAT_AT(mo->w, k - 4);
    const cv px = CROWD_SPLAT_AT(r->pn, 0), py = CROWD_SPLAT_AT(r->pn, 1), pz = CROWD_SPLAT_AT(r->pn, 2);
    const cv nx = CROWD_SPLAT_AT(r->pn + 4, 0), ny = CROWD_SPLAT_AT(r->pn + 4, 1), nz = CROWD_SPLAT_AT(r->pn + 4, 2);
    CROWD_UNROLL
    for (int row = 0; row < 3; row++) { /* the blend's row: its axes' elements and the translation's */
        const cv X = crowd_blend(s, w, k_inf, affine, row), Y = crowd_blend(s, w, k_inf, affine, 3 + row);
        const cv Z = crowd_blend(s, w, k_inf, affine, 6 + row), T = crowd_blend(s, w, k_inf, affine, 9 + row);
        p[row] = CROWD_POS(X, Y, Z, T, px, py, pz);
        if (nmode != VKS__FAST_NRM_NONE)
            n[row] = CROWD_NRM(X, Y, Z, T, nx, ny, nz);
    }
    if (nmode == VKS__FAST_NRM_RENORM) {
        /* (x x + y y) + z z, as every kernel's renormalisation; a length not above zero (or
         * NaN) divides by 1 */
        cv len = CROWD_SQRT((n[0] * n[0] + n[1] * n[1]) + n[2] * n[2]);
        const ci above = len > CROWD_SPLAT(0.0f);
        len = (cv)(((ci)len & above) | ((ci)CROWD_SPLAT(1.0f) & ~above));
        n[0] = n[0] / len, n[1] = n[1] / len, n[2] = n[2] / len;
    }
}

/* Within each 128-bit block, the 4 x 4 transpose of (a, b, c, d): q[l] = (a_l, b_l, c_l, d_l). */
CROWD_ATTR void crowd_transpose(cv a, cv b, cv c, cv d, cv q[4])
{
    const cv ab01 = CROWD_UNPACKLO(a, b), cd01 = CROWD_UNPACKLO(c, d);
    const cv ab23 = CROWD_UNPACKHI(a, b), cd23 = CROWD_UNPACKHI(c, d);
    q[0] = CROWD_SHUFFLE(ab01, cd01, 0, 1, 0, 1), q[1] = CROWD_SHUFFLE(ab01, cd01, 2, 3, 2, 3);
    q[2] = CROWD_SHUFFLE(ab23, cd23, 0, 1, 0, 1), q[3] = CROWD_SHUFFLE(ab23, cd23, 2, 3, 2, 3);
}

/* Four vertices' (x, y, z) of every lane, v[vertex][axis], to each lane's instance: its twelve
 * floats in three 16-byte stores, (x0 y0 z0 x1) (y1 z1 x2 y2) (z2 x3 y3 z3), each a transpose of
 * four vectors. Every byte is written once, and nothing past the four vertices. */
CROWD_ATTR void crowd_store_quad(cv v[4][3], float *out, size_t stride)
{
    cv q[3][4];
    crowd_transpose(v[0][0], v[0][1], v[0][2], v[1][0], q[0]);
    crowd_transpose(v[1][1], v[1][2], v[2][0], v[2][1], q[1]);
    crowd_transpose(v[2][2], v[3][0], v[3][1], v[3][2], q[2]);
    CROWD_UNROLL
    for (int blk = 0; blk < CROWD_LANES / 4; blk++)
        CROWD_UNROLL
        for (int l = 0; l < 4; l++) {
            float *o = out + (size_t)(blk * 4 + l) * stride;
            const vks__f4 a = crowd_block(q[0][l], blk), b = crowd_block(q[1][l], blk), c = crowd_block(q[2][l], blk);
            memcpy(o, &a, sizeof a), memcpy(o + 4, &b, sizeof b), memcpy(o + 8, &c, sizeof c);
        }
}

/* One vertex's positions p and normals n (nmode) to every lane's instance (crowd_store). */
CROWD_ATTR void crowd_emit(const cv p[3], const cv n[3], int nmode, float *pos, float *nrm, size_t stride, int whole)
{
    crowd_store(p[0], p[1], p[2], pos, stride, whole);
    if (nmode != VKS__FAST_NRM_NONE)
        crowd_store(n[0], n[1], n[2], nrm, stride, whole);
}

CROWD_ATTR void crowd_range(const vks__fast_vertex *rec, const vks__fast_more *more, const char *pal,
                            uint32_t count, int k_inf, int affine, int nmode, float *pos, float *nrm, size_t stride)
{
    const vks__fast_more *mo = k_inf > 4 ? more : (const vks__fast_more *)(const void *)rec;
    uint32_t i = 0;
    for (; CROWD_QUADS && i + 4 <= count; i += 4) { /* four vertices at a time: whole stores, no overlap */
        cv p[4][3], n[4][3];
        CROWD_UNROLL
        for (int j = 0; j < 4; j++)
            crowd_compute(rec + i + j, mo + (k_inf > 4 ? i + j : 0), pal, k_inf, affine, nmode, p[j], n[j]);
        crowd_store_quad(p, pos + (size_t)i * 3, stride);
        if (nmode != VKS__FAST_NRM_NONE)
            crowd_store_quad(n, nrm + (size_t)i * 3, stride);
    }
    for (; i < count; i++) { /* one at a time (the last with exact stores), or the last 0..3 */
        cv p[3], n[3];
        crowd_compute(rec + i, mo + (k_inf > 4 ? i : 0), pal, k_inf, affine, nmode, p, n);
        if (i + 1 < count) /* whole a constant in each call: the stores' branch leaves the loop */
            crowd_emit(p, n, nmode, pos + (size_t)i * 3, nrm + (size_t)i * 3, stride, 1);
        else
            crowd_emit(p, n, nmode, pos + (size_t)i * 3, nrm + (size_t)i * 3, stride, 0);
    }
}

/* The loop of k slots, the blend's form a and the normal mode m, all constants; and the three
 * normal modes' loops of k slots */
#define CROWD_CASE(k, a, m)                                                                                        \
    case (k) * 4 + (m): crowd_range(rec, more, pal, count, (k), (a), (m), pos, nrm, stride); break
#define CROWD_CASES(k, a)                                                                                          \
    CROWD_CASE(k, a, VKS__FAST_NRM_NONE);                                                                          \
    CROWD_CASE(k, a, VKS__FAST_NRM);                                                                               \
    CROWD_CASE(k, a, VKS__FAST_NRM_RENORM)

/* The crowd loop (vks__fast_crowd_fn): the influence count, the normal mode and the blend's
 * form as constants, each loop unrolled for them (affine only at 1 and 2 slots: fast_kernel.h). */
CROWD_TARGET static void CROWD_FN(const vks__fast_vertex *rec, const vks__fast_more *more, const float *palette,
                                  uint32_t count, int k_inf, int affine, int nmode, float *pos, float *nrm,
                                  size_t stride)
{
    const char *pal = (const char *)palette;
    if (nmode == VKS__FAST_NRM_NONE)
        nrm = pos; /* never written through */
    int k = k_inf < 1 ? 1 : k_inf > 4 ? (more ? 8 : 4) : k_inf;
    if (affine && k <= 2) {
        switch (k * 4 + nmode) {
            CROWD_CASES(1, 1);
            CROWD_CASES(2, 1);
        default: break;
        }
        return;
    }
    switch (k * 4 + nmode) {
        CROWD_CASES(1, 0);
        CROWD_CASES(2, 0);
        CROWD_CASES(3, 0);
        CROWD_CASES(4, 0);
        CROWD_CASES(8, 0);
    default: break;
    }
}
