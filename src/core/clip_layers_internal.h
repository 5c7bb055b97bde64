/* Between the clip sampler (clip_sample.c) and the layer blend (clip_layers.c). */
#ifndef VKS_CLIP_LAYERS_INTERNAL_H
#define VKS_CLIP_LAYERS_INTERNAL_H

#include "vkskin/clip.h"

#include "vkskin/clip_sample.h"
/* Node n's local at clip time t in double, unrounded (every clip space), as
 * vks_clip_sample_locals_d computes it before rounding. */
vks_affine_d vks__clip_node_local_d(const vks_clip *clip, const vks_clip_binding *b, const vks_skin *skin,
                                    uint32_t n, double t);

/* A LOCAL clip's T (3), R (x, y, z, w; as sampled, not normalised) and S (3) of node n at clip
 * time t in double: its channels over the bind local's (binding->bind_trs). */
void vks__clip_node_trs_d(const vks_clip *clip, const vks_clip_binding *b, uint32_t n, double t, double trs[10]);

#endif
