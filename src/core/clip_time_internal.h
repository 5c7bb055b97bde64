/* The clip time's cycle step, shared with its test (clip_time.c). Internal. */
#ifndef VKSKIN_CLIP_TIME_INTERNAL_H
#define VKSKIN_CLIP_TIME_INTERNAL_H

#include "vkskin/clip_sample.h"

/* How far the guess of whole periods may be off (a GPU's division by one, and the rule's k can
 * be one from the exact quotient's floor: 2 needed); compute/clip.glsl loops as many times */
enum { VKS__CLIP_WRAP_STEPS = 4 };

/* t - period * k for the largest whole k that leaves it >= 0, computed in float as written
 * (no fused operations); k is a guess (floor of t / period; within VKS__CLIP_WRAP_STEPS of
 * the rule's k). 0 when the guess is 2^24 periods or more from 0, or not finite. */
float vks__clip_wrap_f(float t, float period, float k);

#endif
