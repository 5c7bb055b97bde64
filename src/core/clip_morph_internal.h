/* Morph weights of one target from a clip (clip_morph.c), for the layer blend
 * (clip_layers_morph.c). */
#ifndef VKS_CLIP_MORPH_INTERNAL_H
#define VKS_CLIP_MORPH_INTERNAL_H

#include "vkskin/clip.h"
#include "vkskin/clip_layers.h"

/* Target `target`'s weight at clip time t in double: its mesh's morph track, else its default. */
double vks__clip_target_weight_d(const vks_clip *clip, const vks_skin *skin, uint32_t target, double t);

/* The clip's morph track that drives mesh me (by its node's name, exact then case-insensitive),
 * or -1. */
int32_t vks__clip_morph_track_of_mesh(const vks_clip *clip, const vks_mesh *me);

#endif
