/* Shared pieces of the NIF clip tests: a NIF file builder written here from nif.xml (not
 * from the library's writer), the hand-encoded "every key type" fixture with the values its
 * keys must sample to, computed by hand (tests/unit/test_nif_kf_keys.c and
 * test_gpu_clip_nif.c), and the truncation / corruption sweeps. */
#ifndef VKS_TEST_NIF_KF_UTIL_H
#define VKS_TEST_NIF_KF_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "core/bytebuf.h"
#include "vkskin.h"

#define KFX_MAX_BLOCKS 64

/* A NIF under construction: blocks appended in order, each with its own body. */
typedef struct kfx {
    uint32_t ver, user, bsver;
    uint32_t count;
    const char *type[KFX_MAX_BLOCKS];
    vks_bytebuf body[KFX_MAX_BLOCKS];
    const char *strings[256];
    uint32_t string_count;
} kfx;

void kfx_init(kfx *x, uint32_t ver, uint32_t user, uint32_t bsver);
/* A new block of that type; its index. */
int32_t kfx_block(kfx *x, const char *type);
vks_bytebuf *kfx_body(kfx *x, int32_t block);
/* A "string" field: a SizedString up to 20.0.0.5, a string-table index after (NULL / "": -1). */
void kfx_string(kfx *x, vks_bytebuf *b, const char *s);
void kfx_sized(vks_bytebuf *b, const char *s);
void kfx_floats(vks_bytebuf *b, const float *v, int n);
/* Header, blocks (type names before 5.0.0.1, separators in 10.0 .. 10.1, sizes from 20.2.0.5),
 * footer with the roots. Frees the bodies; the caller frees the result. */
uint8_t *kfx_finish(kfx *x, const int32_t *roots, uint32_t root_count, size_t *size);

/* ---- the "every key type" fixture ----
 * 20.2.0.7 (user 0: no Bethesda fields), one NiControllerSequence "keys": cycle loop,
 * frequency 2, start 0.5, stop 2.5, so the clip lasts 1 s and file time f plays at
 * (f - 0.5) / 2. Seven tracks, node names given by the caller:
 *   0 NiTransformData: LINEAR quaternions (w,x,y,z in the file), QUADRATIC translation, TBC
 *     scale on uneven times
 *   1 XYZ rotation (x LINEAR, y QUADRATIC, z TBC), CONST translation
 *   2 a pose only: unset translation and scale (the -FLT_MAX marker), a 30 degree rotation
 *   3 NiBSplineCompTransformInterpolator: 5 control points of rotation and translation
 *   4 NiBSplineTransformInterpolator: 4 float control points of translation (a Bezier)
 *   5 CONST quaternions
 *   6 QUADRATIC quaternions (no tangents stored: Catmull-Rom)
 * and text keys "start" (0), "Sound: Step\r\nmid" (file 1.5: two events at 0.5), "end" (1). */
#define KFX_TRACKS 7
uint8_t *kfx_keys_fixture(const char *const names[KFX_TRACKS], size_t *size);

/* What track `track`'s channels must sample to at clip time t, worked out from the fixture's
 * raw numbers by the formulas of formats/animation.md: per-unit Hermite segments, the
 * Kochanek-Bartels tangents with the uneven-time correction, R = Rz Ry Rx, the B-spline basis
 * by the Cox-de Boor recursion. t[3], q[4] (x,y,z,w, sign free), s[3]; has_* 0 for a channel
 * the track leaves to the bind pose. */
typedef struct kfx_expect {
    double t[3], q[4], s[3];
    int has_t, has_q, has_s;
} kfx_expect;
void kfx_keys_expected(int track, double t, kfx_expect *e);

/* ---- sweeps ---- */
/* Every prefix, each in its own exact-size allocation, must fail with a message and an
 * offset inside the prefix, and leave *out NULL. step > 1: every step-th prefix and the last
 * 64. Returns the violations (printed). */
int kfx_truncations(const uint8_t *bytes, size_t size, size_t step, const char *label);
/* Each stride-th byte overwritten with several values: fail with a message, or read into a set
 * that validates and samples finitely. Returns the violations. */
int kfx_corruptions(const uint8_t *bytes, size_t size, size_t stride, const char *label);

#endif
