/* Shared by the fast CPU deformer's driver (fast.c) and its kernels (fast_baseline.c,
 * fast_avx2.c): the palette layout and the signature every kernel has. */
#ifndef VKS_FAST_INTERNAL_H
#define VKS_FAST_INTERNAL_H

#include "vkskin/skin.h"

/* Four lanes of float (GCC and clang vector extensions): one matrix column per vector, so
 * the blend and the transform are whole-vector multiply-adds with no shuffles. */
typedef float vks__f4 __attribute__((vector_size(16)));

/* A palette matrix as four columns (x axis, y axis, z axis, translation), lane 3 unused. */
typedef struct vks__pal_mat {
    vks__f4 c[4];
} vks__pal_mat;

/* Deforms model vertices [v0, v1) of one group whose palette is pal[0..pal_last] with k_inf
 * influences: positions into pos, normals into nrm (NULL: none), both indexed by model vertex. */
typedef void (*vks__fast_group_fn)(const vks_skin *s, const vks__pal_mat *pal, uint32_t pal_last, uint32_t v0,
                                   uint32_t v1, int k_inf, int has_n, int renorm, float *pos, float *nrm);

void vks__fast_group_baseline(const vks_skin *s, const vks__pal_mat *pal, uint32_t pal_last, uint32_t v0, uint32_t v1,
                              int k_inf, int has_n, int renorm, float *pos, float *nrm);
/* NULL where the build has no AVX2 kernel (not x86-64, or a compiler without target pragmas). */
extern const vks__fast_group_fn vks__fast_group_avx2;

#endif
