/* vkskin clip layers sampled (pose.h's vks_clip_layers holds the layers and writes the blend
 * rule): fades, layer weights, a layered instance's locals and morph weights, as the CPU
 * reference computes them.
 *
 * THREADS: nothing here writes shared state; any number of threads may sample one set of layers.
 */
#ifndef VKSKIN_CLIP_LAYERS_H
#define VKSKIN_CLIP_LAYERS_H

#include "clip_sample.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- layers (pose.h's vks_clip_layers: the blend rule is written there) ---- */

/* The transition ramp at source time T: smoothstep of clamp((T - start) / duration, 0, 1),
 * in float, operation for operation as the GPU pose pass computes it; duration <= 0 (or not
 * finite): 0 before start, 1 from start on. */
VKS_API float vks_clip_fade_ramp(float fade_start, float fade_duration, float T);
/* Layer k's weight at source time T: its weight times its fade (1, 1 - s or s), in float. */
VKS_API float vks_clip_layer_weight(const vks_clip_layers *l, uint32_t k, float T);
/* The skin's node_count locals of a layered instance at source time T: each layer's clip time
 * by vks_clip_play_time_f (float, as the GPU), then sampled, split, blended and composed in
 * double and rounded once: the CPU reference's rule. Every layer's binding must be for skin.
 * With root_motion, the motion node's translation is taken out (vks_clip_layers_root_motion).
 * Allocates nothing. */
VKS_API void vks_clip_layers_locals_d(const vks_clip_layers *l, const vks_skin *skin, float T, vks_affine *out);
/* The skin's target_count morph weights of a layered instance at source time T, in double
 * rounded once, by the rule of src/core/clip_layers_morph.c: unmasked NORMAL layers blend the
 * weights by weighted sum (renormalised; none: the defaults), unmasked ADDITIVE layers add
 * weight * (w(t) - w(reference)); masked layers drive no weights. Allocates nothing. */
VKS_API void vks_clip_layers_weights_d(const vks_clip_layers *l, const vks_skin *skin, float T, float *out);

#ifdef __cplusplus
}
#endif
#endif
