/* The generator's clips for the characters it makes, and a pose JSON writer for clips.
 *
 *   vks_clip_set *set = NULL;
 *   vks_gen_clips(skin, &set, &err);      // "walk" and "wave", in the skin's local space
 *   vks_gen_pose_json(&set->clips[0], skin, 30, &text, &size, &err);   // free(text)
 */
#ifndef VKSKIN_GEN_CHARACTER_CLIPS_H
#define VKSKIN_GEN_CHARACTER_CLIPS_H

#include "vkskin/clip.h"
#include "vkskin/clip_formats.h"
#include "vkskin/clip_sample.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "walk" (1 s loop: legs, arms and spine swing on slerped quaternion keys, the pelvis bobs on
 * Hermite keys) and "wave" (2 s loop: the right arm raised on linear keys, the forearm waving on
 * Euler angle curves with Hermite keys, the hand on stepped keys, the head nodding on a
 * B-spline). Joints turn about the figure's axes through their heads (found from the joints:
 * Y up, facing +Z as built, or the axes a vks_gen_frame turned it into), so they look the same
 * whatever roll the bind locals have and whatever axes the file uses. Nodes the skin lacks are
 * skipped; a skin
 * with none of the humanoid's joints gets VKS_ERR_INVALID. Deterministic. */
vks_result vks_gen_clips(const vks_skin *skin, vks_clip_set **out, vks_error *err);

/* A clip as pose JSON frames ({"frames": [{"nodes": [{"name", "matrix"}]}]}) at fps over its
 * duration (both ends included), the tracks' nodes only, sampled in double. *out: malloc'ed
 * text of *size bytes (NUL-terminated). */
vks_result vks_gen_pose_json(const vks_clip *clip, const vks_skin *skin, float fps, char **out, size_t *size,
                             vks_error *err);

#ifdef __cplusplus
}
#endif
#endif
