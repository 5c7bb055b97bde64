/* Shared by the fast CPU deformer's driver (fast.c) and its kernels (fast_baseline.c,
 * fast_avx2.c): the palette layout, the prepared vertex record and what every kernel provides. */
#ifndef VKS_FAST_INTERNAL_H
#define VKS_FAST_INTERNAL_H

#include "vkskin/deform.h"
#include "vkskin/skin.h"

/* Four lanes of float (GCC and clang vector extensions): one matrix column per vector, so
 * the blend and the transform are whole-vector multiply-adds. */
typedef float vks__f4 __attribute__((vector_size(16)));

/* A palette matrix as four columns (x axis, y axis, z axis, translation t) whose lane 3 holds
 * t.x, t.y, t.z and 0: the AVX2 kernel reads all four columns, the baseline kernel the first
 * three (the twelve floats of the matrix) and takes t from their fourth lanes. */
typedef struct vks__pal_mat {
    vks__f4 c[4];
} vks__pal_mat;

/* One vertex as the kernels read it, made once per run from the skin's positions, normals and
 * influences (fast.c, prepare): one 64-byte cache line, 16-byte aligned at least.
 *   pn   position, 1, normal, 0: the transform's operands with their homogeneous lane (the
 *        normal is zero where the mesh has none)
 *   w    the weights of slots 0..3; 0 for an empty slot (weight <= 0 or NaN) and for slots past
 *        the group's max_influences
 *   off  byte offset of each slot's matrix in the group's palette (slot x sizeof(vks__pal_mat)),
 *        always inside the palette: an empty slot points at slot 0, an index past the palette
 *        (a model that was not validated) at the last one, so the kernels read no index twice
 *        and clamp nothing. */
typedef struct vks__fast_vertex {
    float pn[8];
    float w[4];
    uint32_t off[4];
} vks__fast_vertex;

/* Slots 4..7 of a vertex, the same rules as w and off above, in a table beside the records:
 * made and read only for groups with more than four influences, so four-influence models keep
 * their one cache line per vertex. */
typedef struct vks__fast_more {
    float w[4];
    uint32_t off[4];
} vks__fast_more;

/* The influence counts the vertex loops are specialised for: 1..4 and 8 (a group of 5..7
 * influences runs the 8 loop, its empty slots weight 0 at slot 0). */
static inline int vks__fast_loop_influences(uint32_t max_influences)
{
    return max_influences < 1 ? 1 : max_influences <= 4 ? (int)max_influences : 8;
}

/* What a kernel does with normals. */
enum {
    VKS__FAST_NRM_NONE = 0,  /* no normal output */
    VKS__FAST_NRM = 1,       /* blended 3x3 times the normal */
    VKS__FAST_NRM_RENORM = 2 /* the same, renormalised (a zero-length result stays zero) */
};

/* Makes the records rec[a..b) of one group's vertices from the skin's arrays: normals NULL
 * where the mesh has none (zeros), k_max the group's max_influences, last its last palette
 * slot; with more (k_max > 4), slots 4..7 into more[0 .. b - a). Vertices below wide may be
 * read 16 bytes at a time (a position's or normal's 12 and 4 past them: every vertex but the
 * skin's last). */
typedef void (*vks__fast_prep_fn)(vks__fast_vertex *rec, vks__fast_more *more, const float (*positions)[3],
                                  const float (*normals)[3], const vks_influence *influences, uint32_t a, uint32_t b,
                                  uint32_t wide, uint32_t k_max, uint32_t last);

/* Deforms count consecutive prepared vertices rec[0..count) with the group palette pal (64-byte
 * aligned) and k_inf influences (1..4, or 8 reading slots 4..7 from more[0..count)): positions
 * to pos[0 .. 3 count), normals to nrm (nmode one of the above; nrm unused for
 * VKS__FAST_NRM_NONE). Writes exactly those floats: the last vertex of the range stores 12
 * bytes, so another thread's slice next to it is never touched. */
typedef void (*vks__fast_group_fn)(const vks__fast_vertex *rec, const vks__fast_more *more, const vks__pal_mat *pal,
                                   uint32_t count, int k_inf, int nmode, float *pos, float *nrm);

/* Deforms count consecutive prepared vertices rec[0..count) of crowd_lanes consecutive instances at
 * once (fast_crowd.h): palette is the group's palette of those instances by element
 * (fast.c's crowd_palette), lane l's outputs at pos + l stride and nrm + l stride (stride floats
 * between instances). affine: the run's weights sum to 1 (fast_runs.h), taken at 1 and 2 slots
 * by the kernels whose vertex loops take it (affine_max_k). Otherwise as vks__fast_group_fn;
 * each lane's outputs are bit for bit the kernel's vertex loop's for its instance. */
typedef void (*vks__fast_crowd_fn)(const vks__fast_vertex *rec, const vks__fast_more *more, const float *palette,
                                   uint32_t count, int k_inf, int affine, int nmode, float *pos, float *nrm,
                                   size_t stride);

/* A kernel: its records and its vertex loops. deform_affine is the loop for runs of at most
 * affine_max_k slots whose weights sum to 1 (fast_runs.h: affine), blending
 * M_0 + sum_{i>0} w_i (M_i - M_0): it saves the first influence's three multiplies and costs
 * 3 (k - 1) subtractions, a gain only at 1 and 2 slots where the loop is bound by all its
 * vector operations (multiplies, adds and shuffles; BENCHMARKS.md, twelfth session). NULL
 * (and 0) for the FMA kernels, whose first influence is their only plain multiply. */
typedef struct vks__fast_kernel {
    const char *name; /* "baseline", "avx2", "avx512" */
    vks__fast_prep_fn prepare;
    vks__fast_group_fn deform;
    vks__fast_group_fn deform_affine;
    uint32_t affine_max_k;
    uint32_t crowd_lanes;    /* instances its crowd loop takes at once (4 or 8; 16 at most) */
    vks__fast_crowd_fn crowd;
} vks__fast_kernel;

/* The instances the fast engine's kernel in use would deform at once (its crowd loop) in a run
 * of job on threads threads (<= 0: all cores); 0: one at a time. For the tests: the crowd
 * loop's outputs are the vertex loop's bits, so only this tells which ran. */
uint32_t vks__cpu_fast_crowd_lanes(const vks_deform_job *job, int threads);

extern const vks__fast_kernel vks__fast_baseline;
/* NULL where the build has no AVX2 kernel (not x86-64, or a compiler without target pragmas). */
extern const vks__fast_kernel *const vks__fast_avx2;
/* NULL where the build has no AVX-512 kernel (the same conditions). */
extern const vks__fast_kernel *const vks__fast_avx512;

#endif
