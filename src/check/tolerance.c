/* Default diff tolerances, derived from float32 error bounds.
 *
 * An engine under test computes in float32 (unit roundoff u = 2^-24 ~ 6.0e-8) what the
 * reference computes in double. Its error on a deformed position is bounded by:
 *   - the pose pass: world(n) = world(parent) * local(n) down a chain of depth d; each 3x4
 *     product adds about 3u relative to the magnitudes involved, so d*3u of the model's scale
 *     (the larger of the bounding radius and the bind translations, because K = S*W*IB
 *     cancels large world translations against each other);
 *   - the skin matrix (2 more products): 6u; the blend of up to 4 influences (4 fused or
 *     unfused multiply-adds per component): about 8u;
 *   - reordering and FMA contraction on a real GPU change rounding, not the bound.
 * For a skeleton of depth d <= 64 that is (3*64 + 14)u ~ 206u ~ 1.2e-5 of the scale. We allow
 * 3e-5 of the scale per component: above the worst-case float noise for any realistic
 * skeleton, and far below the smallest visible fault (a wrong bone, remap entry, weight or
 * matrix moves vertices by a few percent of the radius: >= 1e-3, 30x over the tolerance).
 * NMSE of float noise is ~1e-13; a single wrong bone in a 10k-vertex model gives >= 1e-8, so
 * the global NMSE bound is 1e-9.
 * Normals are blends of 3x3 parts only (no translation), close to unit length: 1e-4 absolute
 * plus 1e-5 relative covers float noise with the same margin and catches wrong bones.
 * The scale is the model's, or a posed instance's when its pose takes nodes or vertices
 * farther out (vks_posed_error_scale): the spacing of float32 grows with the numbers handled.
 * The bind-pose check (src/cpu/bind_check.c) judges a file's stored vertices against the
 * reference's bind pose with the same position bound: float32 inverse binds and vertices of a
 * consistent bind differ from it by the same noise. The real samples in bind pose stay below
 * 6e-7 of their radius; the two NIF samples stored in another pose are off by 0.4 and 1.7. */
#include "vkskin/check.h"

vks_diff_tolerance vks_diff_default_tolerance(void)
{
    vks_diff_tolerance t = {3e-5, 0.0, 0.0, 1e-9};
    return t;
}

vks_diff_tolerance vks_diff_default_normal_tolerance(void)
{
    vks_diff_tolerance t = {1e-4, 1.0, 1e-5, 1e-9}; /* scale 1: absolute, normals are unit-ish */
    return t;
}
