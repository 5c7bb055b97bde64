/* Clip keys the float32 engines can use (clip_float32.c): the bounds vks_clip_set_validate
 * checks, and the conditioning vks_clip_set_finish applies first so that a reader's keys meet
 * them where they can (rotations normalised, Euler angles reduced, in double). */
#ifndef VKS_ANIM_CLIP_FLOAT32_H
#define VKS_ANIM_CLIP_FLOAT32_H

#include "vkskin/clip.h"

/* What a curve drives: its bounds differ. */
typedef enum vks_channel {
    VKS_CHANNEL_TRANSLATION,
    VKS_CHANNEL_ROTATION,
    VKS_CHANNEL_EULER,
    VKS_CHANNEL_SCALE
} vks_channel;

/* Translations, scales, tangents (per second) and root motion: |component| <= 2^48. */
#define VKS_CLIP_MAX_MAGNITUDE 0x1p48
/* Quaternion keys: 2^-60 <= |q| <= 2^60 (float32 squares them). */
#define VKS_CLIP_MIN_QUAT_NORM 0x1p-60
#define VKS_CLIP_MAX_QUAT_NORM 0x1p60
/* Euler keys: |angle| <= 128 radians. */
#define VKS_CLIP_MAX_EULER 128.0

/* The float32 bounds of one curve already checked for structure (components, values present,
 * finite): the error names the key (path: the curve). */
vks_result vks__clip_curve_float32(const vks_curve *c, vks_channel ch, const char *path, vks_error *err);

/* Rotations normalised and Euler angles reduced in place, on a clip whose arrays its set owns. */
void vks__clip_condition(vks_clip *clip);

#endif
