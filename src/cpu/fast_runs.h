/* Runs of vertices that use the same number of influence slots (fast_runs.c): the fast
 * engine's vertex loops are specialised by influence count, and a group's count is its most
 * influenced vertex's, so a group whose vertices mostly use 1-3 of 4 slots blended matrices of
 * weight 0 for every empty slot (the bench's 10k character: 2.54 live slots a vertex of 3.32
 * loaded). Each group of at most 4 slots is cut into runs, in vertex order, of at least
 * VKS__FAST_RUN_MIN vertices, each run's loop the count its vertices need: its last live slot
 * + 1, the largest in the run. Skipping a trailing slot of weight 0 leaves every sum as it was
 * (x + 0 * K is x, but for the sign of a zero), as the reference skips it.
 *
 * A run of at most the kernel's affine_max_k slots can also be marked affine: each of its
 * vertices' weights (those the loop blends: slots under k_max, weight > 0) sum to 1 within
 * VKS__FAST_AFFINE_SUM_BOUND, so the kernel may blend sum_i w_i M_i as the affine combination
 * M_0 + sum_{i>0} w_i (M_i - M_0), which multiplies nothing for the first influence
 * (fast_kernel.h). Such runs are cut by that mark too. */
#ifndef VKSKIN_FAST_RUNS_H
#define VKSKIN_FAST_RUNS_H

#include <stdint.h>

#include "vkskin/skin.h"

/* Runs shorter than this are merged into their neighbour: a loop call per few vertices would
 * cost more than the slots it saves. */
#define VKS__FAST_RUN_MIN 32u

/* How far from 1 an affine run's weight sums may be. The affine form computes
 *   M_0 + sum_{i>0} w_i (M_i - M_0) = sum_i w_i M_i + (1 - s) M_0,   s = sum_i w_i,
 * so it adds (1 - s) times the vertex as bone 0 alone would move it. Bounded by 8 units of
 * float roundoff (u = 2^-24), that is no more than the blend's own float error (about 8u of the
 * magnitudes, src/check/tolerance.c) and some 60 times below the comparison's 3e-5 of the
 * scale. Weights normalised in float sit well inside it: k <= 4 weights each rounded once
 * (w_i = x_i / S in float, or 8- and 16-bit fractions read as float) sum to 1 within k u / 2
 * = 2u. A model whose weights sum to anything else (a writer's 254/255, weights a file never
 * normalised) keeps the loop of sum_i w_i M_i. */
#define VKS__FAST_AFFINE_SUM_BOUND (8.0 / 16777216.0)

typedef struct vks__fast_run {
    uint32_t first;  /* the run's first vertex */
    uint16_t k;      /* influence slots its loop blends (1..4) */
    uint16_t affine; /* 1: every vertex's weights sum to 1 (above); 0: they may not */
} vks__fast_run;

typedef struct vks__fast_runs {
    vks__fast_run *runs;  /* every group's runs, group after group, each group's by vertex */
    uint32_t *group_first; /* group_count + 1: group g's runs are [group_first[g], group_first[g+1]) */
} vks__fast_runs;

/* Entries the tables need: runs (at most one per vertex, and one per group) and group_first. */
uint64_t vks__fast_runs_capacity(const vks_skin *s);
/* Fills r (its two tables of vks__fast_runs_capacity entries and group_count + 1) for s; groups
 * of more than 4 slots (the 8 loop) or without a palette get no runs. slots(g): the slots the
 * kernels read for group g. affine_max_k: mark (and cut) runs of at most that many slots whose
 * weights sum to 1 (the kernel's affine loops); 0 leaves every run unmarked, cut by slots alone. */
void vks__fast_runs_make(const vks_skin *s, uint32_t (*slots)(const vks_group *), uint32_t affine_max_k,
                         vks__fast_runs *r);
/* 1 when the weights of in's first k_max slots that a kernel blends (weight > 0) sum to 1
 * within VKS__FAST_AFFINE_SUM_BOUND (the sum taken in double, whose rounding is far below the bound). */
int vks__fast_weights_normalised(const vks_influence *in, uint32_t k_max);
/* The index of the run of group g that holds vertex v (v inside the group and the group has runs). */
uint32_t vks__fast_run_at(const vks__fast_runs *r, uint32_t g, uint32_t v);

#endif
