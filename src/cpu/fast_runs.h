/* Runs of vertices that use the same number of influence slots (fast_runs.c): the fast
 * engine's vertex loops are specialised by influence count, and a group's count is its most
 * influenced vertex's, so a group whose vertices mostly use 1-3 of 4 slots blended matrices of
 * weight 0 for every empty slot (the bench's 10k character: 2.54 live slots a vertex of 3.32
 * loaded). Each group of at most 4 slots is cut into runs, in vertex order, of at least
 * VKS__FAST_RUN_MIN vertices, each run's loop the count its vertices need: its last live slot
 * + 1, the largest in the run. Skipping a trailing slot of weight 0 leaves every sum as it was
 * (x + 0 * K is x, but for the sign of a zero), as the reference skips it. */
#ifndef VKSKIN_FAST_RUNS_H
#define VKSKIN_FAST_RUNS_H

#include <stdint.h>

#include "vkskin/skin.h"

/* Runs shorter than this are merged into their neighbour: a loop call per few vertices would
 * cost more than the slots it saves. */
#define VKS__FAST_RUN_MIN 32u

typedef struct vks__fast_run {
    uint32_t first; /* the run's first vertex */
    uint32_t k;     /* influence slots its loop blends (1..4) */
} vks__fast_run;

typedef struct vks__fast_runs {
    vks__fast_run *runs;  /* every group's runs, group after group, each group's by vertex */
    uint32_t *group_first; /* group_count + 1: group g's runs are [group_first[g], group_first[g+1]) */
} vks__fast_runs;

/* Entries the tables need: runs (at most one per vertex, and one per group) and group_first. */
uint64_t vks__fast_runs_capacity(const vks_skin *s);
/* Fills r (its two tables of vks__fast_runs_capacity entries and group_count + 1) for s; groups
 * of more than 4 slots (the 8 loop) or without a palette get no runs. slots(g): the slots the
 * kernels read for group g. */
void vks__fast_runs_make(const vks_skin *s, uint32_t (*slots)(const vks_group *), vks__fast_runs *r);
/* The index of the run of group g that holds vertex v (v inside the group and the group has runs). */
uint32_t vks__fast_run_at(const vks__fast_runs *r, uint32_t g, uint32_t v);

#endif
