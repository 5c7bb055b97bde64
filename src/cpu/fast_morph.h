/* The fast CPU engine's morph stage for weights per instance (fast_morph.c). */
#ifndef VKS_FAST_MORPH_H
#define VKS_FAST_MORPH_H

#include "vkskin/skin.h"

/* Whether the weights w (skin->target_count) move mesh m. */
int vks__fast_morph_active(const vks_skin *s, const float *w, uint32_t m);

/* Vertices [c0, c0 + n) of mesh me moved by weights w, in float: positions into pos[0..n),
 * normals into nrm[0..n) where the mesh has them (nrm may be NULL). */
void vks__fast_morph_chunk(const vks_skin *s, const vks_mesh *me, const float *w, uint32_t c0, uint32_t n,
                           float (*pos)[3], float (*nrm)[3]);

#endif
