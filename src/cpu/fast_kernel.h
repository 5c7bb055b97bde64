/* The fast CPU deformer's portable vertex loop (fast_baseline.c; fast_avx2.c has its own
 * eight-lane loop). The includer defines
 *   FAST_MADD(a, b, c)  a * b + c on vks__f4 (fused where the target has FMA)
 *   FAST_KERNEL, FAST_NAME  the kernel it exports and its name
 *   FAST_CROWD_LANES, FAST_CROWD  its crowd loop (fast_crowd.h) and the instances it takes
 * Like ozz-animation's SkinningJob it blends the matrices first, then transforms the position
 * and the normal with the one blend. It reads the prepared records of fast_internal.h (weights,
 * palette offsets already checked, position and normal side by side), so the loop has no
 * clamp and no branch per vertex; the influence count and the normal mode are constants per
 * instantiation, so each loop is unrolled for them. Runs whose weights sum to 1 (fast_runs.h)
 * take a second set of loops that blend the affine combination M_0 + sum_{i>0} w_i (M_i - M_0),
 * one influence's multiplies fewer (fast_blend_affine). */
#include <math.h>
#include <string.h>
#if defined(__SSE__)
#include <xmmintrin.h>
#endif

#include "fast_internal.h"

/* Lane i of v in every lane, and (a[i], a[j], b[k], b[l]). The splat shuffles an integer view:
 * on x86 that is one pshufd, which reads its source and writes another register. */
typedef int fast_i4 __attribute__((vector_size(16)));
#if defined(__clang__)
#define FAST_LANE(v, i) ((vks__f4)__builtin_shufflevector((fast_i4)(v), (fast_i4)(v), (i), (i), (i), (i)))
#define FAST_MIX(a, b, i, j, k, l) __builtin_shufflevector((a), (b), (i), (j), (k) + 4, (l) + 4)
#else
#define FAST_LANE(v, i) ((vks__f4)__builtin_shuffle((fast_i4)(v), (fast_i4){(i), (i), (i), (i)}))
#define FAST_MIX(a, b, i, j, k, l) __builtin_shuffle((a), (b), (fast_i4){(i), (j), (k) + 4, (l) + 4})
#endif

/* The palette matrix of slot k of r: its byte offset was made at preparation. */
#define FAST_MAT(pal, r, k) ((const vks__pal_mat *)((const char *)(pal) + (r)->off[k]))

/* Lanes 0..2 to dst. whole: one 16-byte store whose fourth lane the next vertex overwrites;
 * else exactly 12 bytes (the range's last vertex). */
static inline void fast_store3(float *dst, vks__f4 v, int whole)
{
    if (whole)
        memcpy(dst, &v, sizeof v);
    else
        dst[0] = v[0], dst[1] = v[1], dst[2] = v[2];
}

/* The blend's three columns for affine runs (fast_runs.h): M_0 + sum_{i>0} w_i (M_i - M_0),
 * 3 (k - 1) multiplies where the plain blend has 3 k, at the price of 3 (k - 1) subtractions
 * (worth it at 1 and 2 slots only: FAST_AFFINE_MAX_K). Slot 0's weight is never read: it is
 * 1 - sum_{i>0} w_i within the run's bound. */
#define FAST_AFFINE_TERM(k)                                                                                         \
    K = FAST_MAT(pal, r, k), w = FAST_LANE(wv, k);                                                                 \
    c0 = FAST_MADD(w, K->c[0] - b0, c0), c1 = FAST_MADD(w, K->c[1] - b1, c1), c2 = FAST_MADD(w, K->c[2] - b2, c2)

static inline void fast_blend_affine(const vks__fast_vertex *restrict r, const vks__pal_mat *restrict pal, int k_inf,
                                     vks__f4 *o0, vks__f4 *o1, vks__f4 *o2)
{
    const vks__f4 wv = *(const vks__f4 *)r->w;
    const vks__pal_mat *K = FAST_MAT(pal, r, 0);
    const vks__f4 b0 = K->c[0], b1 = K->c[1], b2 = K->c[2];
    vks__f4 c0 = b0, c1 = b1, c2 = b2, w;
    if (k_inf > 1) {
        FAST_AFFINE_TERM(1);
    }
    if (k_inf > 2) {
        FAST_AFFINE_TERM(2);
    }
    if (k_inf > 3) {
        FAST_AFFINE_TERM(3);
    }
    *o0 = c0, *o1 = c1, *o2 = c2;
}

/* The blend's three columns: sum_i w_i M_i over k_inf slots, in slot order (the reference's). */
static inline void fast_blend(const vks__fast_vertex *restrict r, const vks__fast_more *restrict more,
                              const vks__pal_mat *restrict pal, int k_inf, vks__f4 *o0, vks__f4 *o1, vks__f4 *o2)
{
    const vks__f4 wv = *(const vks__f4 *)r->w;
    const vks__pal_mat *K = FAST_MAT(pal, r, 0);
    vks__f4 w = FAST_LANE(wv, 0);
    vks__f4 c0 = w * K->c[0], c1 = w * K->c[1], c2 = w * K->c[2];
    if (k_inf > 1) {
        K = FAST_MAT(pal, r, 1), w = FAST_LANE(wv, 1);
        c0 = FAST_MADD(w, K->c[0], c0), c1 = FAST_MADD(w, K->c[1], c1), c2 = FAST_MADD(w, K->c[2], c2);
    }
    if (k_inf > 2) {
        K = FAST_MAT(pal, r, 2), w = FAST_LANE(wv, 2);
        c0 = FAST_MADD(w, K->c[0], c0), c1 = FAST_MADD(w, K->c[1], c1), c2 = FAST_MADD(w, K->c[2], c2);
    }
    if (k_inf > 3) {
        K = FAST_MAT(pal, r, 3), w = FAST_LANE(wv, 3);
        c0 = FAST_MADD(w, K->c[0], c0), c1 = FAST_MADD(w, K->c[1], c1), c2 = FAST_MADD(w, K->c[2], c2);
    }
    if (k_inf > 4) { /* slots 4..7, in slot order after the first four (the reference's order) */
        const vks__f4 wm = *(const vks__f4 *)more->w;
        /* written out: a lane is a shuffle index, which clang wants constant (no loop variable) */
        K = FAST_MAT(pal, more, 0), w = FAST_LANE(wm, 0);
        c0 = FAST_MADD(w, K->c[0], c0), c1 = FAST_MADD(w, K->c[1], c1), c2 = FAST_MADD(w, K->c[2], c2);
        K = FAST_MAT(pal, more, 1), w = FAST_LANE(wm, 1);
        c0 = FAST_MADD(w, K->c[0], c0), c1 = FAST_MADD(w, K->c[1], c1), c2 = FAST_MADD(w, K->c[2], c2);
        K = FAST_MAT(pal, more, 2), w = FAST_LANE(wm, 2);
        c0 = FAST_MADD(w, K->c[0], c0), c1 = FAST_MADD(w, K->c[1], c1), c2 = FAST_MADD(w, K->c[2], c2);
        K = FAST_MAT(pal, more, 3), w = FAST_LANE(wm, 3);
        c0 = FAST_MADD(w, K->c[0], c0), c1 = FAST_MADD(w, K->c[1], c1), c2 = FAST_MADD(w, K->c[2], c2);
    }
    *o0 = c0, *o1 = c1, *o2 = c2;
}

/* The palette's columns carry the translation in lane 3 (fast_internal.h), so this loop blends
 * three vectors per influence, twelve useful floats, and takes the translation back out of
 * their fourth lanes with two shuffles. affine: the run's weights sum to 1 (fast_blend_affine). */
static inline void fast_vertex(const vks__fast_vertex *restrict r, const vks__fast_more *restrict more,
                               const vks__pal_mat *restrict pal, int k_inf, int affine, int nmode,
                               float *restrict pos, float *restrict nrm, int whole)
{
    vks__f4 c0, c1, c2;
    if (affine)
        fast_blend_affine(r, pal, k_inf, &c0, &c1, &c2);
    else
        fast_blend(r, more, pal, k_inf, &c0, &c1, &c2);
    /* (t.x, t.y, t.z, t.z) from the fourth lanes; a rigid affine vertex's blend is its matrix,
     * whose translation column (t.x, t.y, t.z, 0) is one load instead of two shuffles */
    const vks__f4 t = affine && k_inf == 1 ? FAST_MAT(pal, r, 0)->c[3]
                                           : FAST_MIX(FAST_MIX(c0, c1, 3, 3, 3, 3), c2, 0, 2, 3, 3);
    const vks__f4 p = *(const vks__f4 *)r->pn;
    /* ((x p.x + y p.y) + z p.z) + t: the order the reference sums in; lane 3 is never kept */
    vks__f4 pp = FAST_MADD(c2, FAST_LANE(p, 2), FAST_MADD(c1, FAST_LANE(p, 1), c0 * FAST_LANE(p, 0))) + t;
    fast_store3(pos, pp, whole);
    if (nmode != VKS__FAST_NRM_NONE) { /* renormalised after the range (fast_renormalise) */
        const vks__f4 n = *(const vks__f4 *)(r->pn + 4);
        vks__f4 nn = FAST_MADD(c2, FAST_LANE(n, 2), FAST_MADD(c1, FAST_LANE(n, 1), c0 * FAST_LANE(n, 0)));
        fast_store3(nrm, nn, whole);
    }
}

static inline void fast_range(const vks__fast_vertex *restrict rec, const vks__fast_more *restrict more,
                              const vks__pal_mat *restrict pal, uint32_t count, int k_inf, int affine, int nmode,
                              float *restrict pos, float *restrict nrm)
{
    if (count == 0)
        return;
    uint32_t i = 0;
    /* more is only read (and only given) for k_inf 8; rec keeps it a valid pointer otherwise */
    const vks__fast_more *mo = k_inf > 4 ? more : (const vks__fast_more *)(const void *)rec;
    for (; i + 1 < count; i++)
        fast_vertex(rec + i, k_inf > 4 ? mo + i : mo, pal, k_inf, affine, nmode, pos + (size_t)i * 3,
                    nrm + (size_t)i * 3, 1);
    fast_vertex(rec + i, k_inf > 4 ? mo + i : mo, pal, k_inf, affine, nmode, pos + (size_t)i * 3, nrm + (size_t)i * 3,
                0);
}

/* Two-source shuffles: lanes 0..3 of a, then 4..7 of b. */
#if defined(__clang__)
#define FAST_SHUF(a, b, i, j, k, l) __builtin_shufflevector((a), (b), (i), (j), (k), (l))
#else
#define FAST_SHUF(a, b, i, j, k, l) __builtin_shuffle((a), (b), (fast_i4){(i), (j), (k), (l)})
#endif

/* Four packed (x, y, z) normals at n over their lengths; a length not above zero (or NaN)
 * divides by 1, leaving the normal as it is. The three vectors a = (x0 y0 z0 x1), b, c give
 * each axis of the four in two shuffles. */
static inline void fast_renormalise4(float *n)
{
    vks__f4 a, b, c;
    memcpy(&a, n, sizeof a), memcpy(&b, n + 4, sizeof b), memcpy(&c, n + 8, sizeof c);
    vks__f4 x = FAST_SHUF(FAST_SHUF(a, b, 0, 3, 6, 6), c, 0, 1, 2, 5);
    vks__f4 y = FAST_SHUF(FAST_SHUF(a, b, 1, 4, 7, 7), c, 0, 1, 2, 6);
    vks__f4 z = FAST_SHUF(FAST_SHUF(a, b, 2, 5, 5, 5), c, 0, 1, 4, 7);
    vks__f4 len2 = (x * x + y * y) + z * z, len;
#if defined(__SSE__)
    len = (vks__f4)_mm_sqrt_ps((__m128)len2); /* one instruction, not four calls that test errno */
#else
    for (int i = 0; i < 4; i++)
        len[i] = sqrtf(len2[i]);
#endif
    const vks__f4 one = {1.0f, 1.0f, 1.0f, 1.0f};
    fast_i4 pos = len > (vks__f4){0, 0, 0, 0};
    len = (vks__f4)(((fast_i4)len & pos) | ((fast_i4)one & ~pos));
    a /= FAST_SHUF(len, len, 0, 0, 0, 1), b /= FAST_SHUF(len, len, 1, 1, 2, 2), c /= FAST_SHUF(len, len, 2, 3, 3, 3);
    memcpy(n, &a, sizeof a), memcpy(n + 4, &b, sizeof b), memcpy(n + 8, &c, sizeof c);
}

/* count packed normals at n renormalised, after the range rather than in each vertex's loop:
 * there the square root and the division ended every vertex's chain of dependent operations,
 * so fewer vertices were in flight; here the normals are independent (and still in L1). */
static void fast_renormalise(float *n, uint32_t count)
{
    uint32_t i = 0;
    for (; i + 4 <= count; i += 4)
        fast_renormalise4(n + (size_t)i * 3);
    for (; i < count; i++) {
        float *v = n + (size_t)i * 3;
        float len = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        if (len > 0)
            v[0] /= len, v[1] /= len, v[2] /= len;
    }
}

#define FAST_CASE(k, m, a)                                                                                         \
    case (k) * 4 + (m): fast_range(rec, more, pal, count, (k), (a), (m), pos, nrm); break

/* The slots up to which affine runs take the affine loops (the kernel's affine_max_k): with
 * separate multiplies and adds this loop is bound by all its vector operations together, and
 * the affine blend's 3 (k - 1) subtractions for the first influence's 3 multiplies and its
 * weight's shuffle are a gain at 1 and 2 slots (4 and 1 operations fewer; at 1 slot the
 * translation's two shuffles go too), a loss at 3 and 4 (2 and 5 more: measured x0.96 and
 * x0.93 on the baseline kernel, BENCHMARKS.md). */
#define FAST_AFFINE_MAX_K 2

/* The vertex loop for k_inf and nmode; affine (fast_runs.h) only for k_inf up to
 * FAST_AFFINE_MAX_K (runs_make marks no longer run), else the plain blend. */
static void fast_deform_as(const vks__fast_vertex *rec, const vks__fast_more *more, const vks__pal_mat *pal,
                           uint32_t count, int k_inf, int affine, int nmode, float *pos, float *nrm)
{
    if (nmode == VKS__FAST_NRM_NONE)
        nrm = pos; /* never written through; keeps the pointer arithmetic defined */
    if (nmode == VKS__FAST_NRM_RENORM) { /* blended, then renormalised four at a time */
        fast_deform_as(rec, more, pal, count, k_inf, affine, VKS__FAST_NRM, pos, nrm);
        fast_renormalise(nrm, count);
        return;
    }
    int k = k_inf < 1 ? 1 : k_inf > 4 ? (more ? 8 : 4) : k_inf;
    if (affine && k <= FAST_AFFINE_MAX_K) {
        switch (k * 4 + nmode) {
            FAST_CASE(1, VKS__FAST_NRM_NONE, 1);
            FAST_CASE(1, VKS__FAST_NRM, 1);
            FAST_CASE(2, VKS__FAST_NRM_NONE, 1);
            FAST_CASE(2, VKS__FAST_NRM, 1);
        default: break;
        }
        return;
    }
    switch (k * 4 + nmode) {
        FAST_CASE(1, VKS__FAST_NRM_NONE, 0);
        FAST_CASE(1, VKS__FAST_NRM, 0);
        FAST_CASE(2, VKS__FAST_NRM_NONE, 0);
        FAST_CASE(2, VKS__FAST_NRM, 0);
        FAST_CASE(3, VKS__FAST_NRM_NONE, 0);
        FAST_CASE(3, VKS__FAST_NRM, 0);
        FAST_CASE(4, VKS__FAST_NRM_NONE, 0);
        FAST_CASE(4, VKS__FAST_NRM, 0);
        FAST_CASE(8, VKS__FAST_NRM_NONE, 0);
        FAST_CASE(8, VKS__FAST_NRM, 0);
    default: break;
    }
}

static void fast_deform(const vks__fast_vertex *rec, const vks__fast_more *more, const vks__pal_mat *pal,
                        uint32_t count, int k_inf, int nmode, float *pos, float *nrm)
{
    fast_deform_as(rec, more, pal, count, k_inf, 0, nmode, pos, nrm);
}

/* Runs whose weights sum to 1 (fast_runs.h): M_0 + sum_{i>0} w_i (M_i - M_0). */
static void fast_deform_affine(const vks__fast_vertex *rec, const vks__fast_more *more, const vks__pal_mat *pal,
                               uint32_t count, int k_inf, int nmode, float *pos, float *nrm)
{
    fast_deform_as(rec, more, pal, count, k_inf, 1, nmode, pos, nrm);
}

/* The records (fast_internal.h): four slots at a time in vector lanes, no branch per vertex, as
 * it runs once per vertex per run (as often as the loop above for one instance). */
typedef uint16_t fast_h4 __attribute__((vector_size(8)));

/* Slots k0..k0+3 of in: weights (empty ones 0) and palette offsets (empty ones slot 0, past the
 * palette the last slot), live the lanes under the group's k_max. */
static inline void fast_slots(const vks_influence *in, int k0, fast_i4 live, fast_i4 last, float *w_out,
                              uint32_t *off_out)
{
    vks__f4 w;
    fast_h4 ih;
    memcpy(&w, in->weight + k0, sizeof w);
    memcpy(&ih, in->index + k0, sizeof ih);
    fast_i4 idx = __builtin_convertvector(ih, fast_i4);
    /* empty slots (weight <= 0 or NaN, or past k_max) may carry any index: weight 0 at
     * slot 0; an index past the palette (a model not validated) to the last slot */
    fast_i4 keep = (w > 0) & live, over = idx > last;
    idx = (idx & ~over) | (last & over);
    fast_i4 wk = (fast_i4)w & keep, off = (idx * (int32_t)sizeof(vks__pal_mat)) & keep;
    memcpy(w_out, &wk, sizeof wk);
    memcpy(off_out, &off, sizeof off);
}

static void fast_prepare(vks__fast_vertex *rec, vks__fast_more *more, const float (*positions)[3],
                         const float (*normals)[3], const vks_influence *influences, uint32_t a, uint32_t b,
                         uint32_t wide, uint32_t k_max, uint32_t last_slot)
{
    /* slots past k_max are empty; indices are below 65536, so signed lanes compare them */
    const fast_i4 slot = {0, 1, 2, 3}, zero = {0, 0, 0, 0};
    const fast_i4 live = slot < zero + (int32_t)k_max, last = zero + (int32_t)last_slot;
    const fast_i4 live_more = slot + 4 < zero + (int32_t)k_max;
    const fast_i4 xyz = {-1, -1, -1, 0};
    const vks__f4 w1 = {0, 0, 0, 1.0f};
    for (uint32_t v = a; v < b; v++) {
        vks__fast_vertex *r = &rec[v - a];
        vks__f4 pv, nv = {0, 0, 0, 0};
        if (v < wide) { /* 16 bytes, the fourth lane masked off */
            memcpy(&pv, positions[v], sizeof pv);
            pv = (vks__f4)((fast_i4)pv & xyz) + w1;
            if (normals) {
                memcpy(&nv, normals[v], sizeof nv);
                nv = (vks__f4)((fast_i4)nv & xyz);
            }
        } else {
            pv = (vks__f4){positions[v][0], positions[v][1], positions[v][2], 1.0f};
            if (normals)
                nv = (vks__f4){normals[v][0], normals[v][1], normals[v][2], 0.0f};
        }
        memcpy(r->pn, &pv, sizeof pv);
        memcpy(r->pn + 4, &nv, sizeof nv);
        fast_slots(&influences[v], 0, live, last, r->w, r->off);
        if (more)
            fast_slots(&influences[v], 4, live_more, last, more[v - a].w, more[v - a].off);
    }
}

const vks__fast_kernel FAST_KERNEL = {FAST_NAME,         fast_prepare, fast_deform, fast_deform_affine, FAST_AFFINE_MAX_K,
                                      FAST_CROWD_LANES,  FAST_CROWD};
