/* Shared pieces of the RTM tests: the armaio sample pair, small skeletons to write clips
 * against, and the sweeps every clip reader must survive (every prefix, corrupted bytes). */
#ifndef VKS_RTM_FIXTURE_H
#define VKS_RTM_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "vkskin.h"
#include "vkskin/clip.h"

/* The armaio samples' skeleton (armaio tests/test_rtm.py, test_bmtr_to_rtm, gives it as
 * {"pelvis": {"torso": {"rightarm": {}, "leftarm": {}}}}). */
#define RTM_ARMAIO_BONES 4
extern const char *const rtm_armaio_names[RTM_ARMAIO_BONES]; /* plain file's case */
extern const int32_t rtm_armaio_parents[RTM_ARMAIO_BONES];

/* A skin of nodes only (no meshes): names, parents (parents first), bind translations. */
vks_skin *rtm_fixture_skin(const char *const *names, const int32_t *parents, const float (*offsets)[3], uint32_t n);
/* The armaio skeleton with pivots in made-up but plausible places; model_root: a P3D-style
 * "(model)" node first. */
vks_skin *rtm_fixture_armaio_skin(int model_root);

/* A sample from ../shared/datasets/anim/rtm (exits 77 when absent). */
uint8_t *rtm_fixture_sample(const char *file, size_t *size);

/* Reads bytes as a clip of duration seconds (0: the reader's default, 1 s); exits the test
 * on failure (printing the error). */
vks_clip_set *rtm_fixture_read(const uint8_t *bytes, size_t size, float duration, const char *label);

/* Every prefix shorter than size in its own exact allocation: each must fail with a message
 * naming an offset within the prefix, and leave *out NULL. step > 1 samples every step-th
 * prefix (plus the last 64). Returns violations. */
int rtm_fixture_truncations(const uint8_t *bytes, size_t size, size_t step, const char *label);
/* Each position (every stride-th byte) overwritten with several values: a read must fail with a
 * message or give a set that validates. Returns violations. */
int rtm_fixture_corruptions(const uint8_t *bytes, size_t size, size_t stride, const char *label);

/* Largest difference of the skin's node worlds posed by clips a and b at time t (seconds). */
double rtm_fixture_world_diff(const vks_clip *a, const vks_clip *b, const vks_skin *skin, double t);

#endif
