/* Private to check/: the one pass over an engine's vertices against the reference that the
 * diff (diff.c) and the error maps (report_errors.c) share, so that each component is read
 * and its difference taken once whichever of the two a caller asks for. */
#ifndef VKS_CHECK_COMPARE_H
#define VKS_CHECK_COMPARE_H

#include "vkskin/report.h"

/* Instances [first_instance, first_instance + instances) of a against b (instance-major vec3,
 * `vertices` per instance) into the diff accumulator acc (extremes and counts, as
 * vks_diff_add_extremes; with_sums also the sums of squares, in the components' order, as
 * vks_diff_add_scaled) and into the error map m with its tolerance and radius (as
 * vks_error_map_add). acc or m may be NULL. Results are bit for bit those of the separate
 * per-component loops these functions had. */
void vks__compare(vks_diff_acc *acc, int with_sums, vks_error_map *m, const vks_diff_tolerance *map_tol,
                  double map_radius, const float *a, const float *b, uint32_t first_instance, uint32_t instances,
                  uint32_t vertices, const double *instance_scale, const float *draw_positions,
                  const float *draw_normals);

/* vks_diff_add_sums of two streams of the same length in one pass (validate's positions and
 * normals): the same sums, bit for bit, in less time on one thread. */
void vks__diff_add_sums_pair(vks_diff_acc *acc0, const float *a0, const float *b0, vks_diff_acc *acc1,
                             const float *a1, const float *b1, size_t components);

/* Testing: the widest vector form the pass may use (4: AVX2 where the CPU has it, the default;
 * 2: SSE2; 1: scalar). Not thread-safe: set it before any comparison runs. */
void vks__compare_vector_width(int lanes);

#endif
