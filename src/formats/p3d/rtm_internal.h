/* Bohemia Arma RTM reader and writer, private pieces shared by its files (animation.md
 * section 4).
 *
 *   (lzo1x.h      the LZO1X decoder the ODOL reader uses too; literal-only encoder)
 *   rtm_clip.c    the clip under construction: one clip, one track per bone, shared key
 *                 times; half floats
 *   rtm_read.c    vks_rtm_read: dispatch by magic, plain RTM_0101 (with RTM_MDAT events)
 *   rtm_bmtr.c    binarised BMTR versions 3, 4 and 5
 *   rtm_write.c   vks_rtm_write: a clip sampled on a skin into either form
 *
 * Conventions (checked against armaio's sample pair, see tests/unit/test_rtm.c):
 *   plain: each bone's 12 floats are the images of the x, y and z axes and the translation,
 *     which is vks_affine's column-major layout as is (the file's row-vector v' = v * M with
 *     rows x, y, z, t is the same numbers as the column-vector M' * v with those columns).
 *     The matrix is the model-space deformation from the bind pose, D (MODEL_DELTA).
 *   BMTR: per bone s16 q[4] / 16384 and f16 t[3], parent-relative (PARENT_DELTA). armaio's
 *     rot_loc_to_matrix turns them into row-vector rows (m00,-m01,m02), (-m10,m11,-m12),
 *     (m20,-m21,m22) and translation (-x,y,-z), m = R(q); as a column-vector transform that
 *     is R(qx,-qy,qz,qw) with translation (-tx,ty,-tz), which is what the tracks hold.
 */
#ifndef VKS_RTM_INTERNAL_H
#define VKS_RTM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "core/bytebuf.h"
#include "core/cursor.h"
#include "lzo1x.h"
#include "vkskin/clip.h"

#include "vkskin/clip_formats.h"
#include "vkskin/clip_sample.h"
#define RTM_NAME_FIELD 32     /* plain RTM bone names: char[32], NUL-terminated */
#define RTM_LZO_THRESHOLD 1024 /* BMTR 3/4: arrays of this many bytes or more are LZO1X */
#define RTM_BMTR_BONE_BYTES 14 /* s16 q[4], f16 t[3] */
#define RTM_LZO_MAX_RATIO 300u /* output bytes per input byte an LZO1X stream can reach */

/* ---- half floats ---- */
float rtm_half_to_float(uint16_t h);
/* Round to nearest even; 0 when v is not finite or its magnitude passes 65504. */
int rtm_float_to_half(float v, uint16_t *out);

/* ---- the clip under construction (rtm_clip.c) ---- */
typedef struct rtm_build {
    vks_read_options opt; /* with defaults applied */
    vks_clip_set *set;
    vks_clip *clip;
    uint32_t frame_count, bone_count;
    float *times;       /* frame_count seconds, shared by every curve */
    float *translation; /* bone-major: bone * frame_count * 3 */
    float *rotation;    /* bone * frame_count * 4 */
    float *scale;       /* plain only: bone * frame_count * 3, NULL for BMTR */
} rtm_build;

/* A set with one empty clip (name "", loop, no root track) over opt's allocator. */
vks_result rtm_begin(const vks_read_options *opt, rtm_build *b, vks_error *err);
/* The tracks, one per bone, with their key arrays (bone_count * frame_count keys, checked
 * against max_keys by the caller). with_scale: a scale array too. at: the offset errors name. */
vks_result rtm_alloc_tracks(rtm_build *b, uint32_t frame_count, uint32_t bone_count, int with_scale, uint64_t at,
                            vks_error *err);
/* Frame order by phase (stable): slot[i] = sorted place of file frame i. phases are already
 * checked to lie in [0, 1]. Also fills b->times. */
vks_result rtm_sort_frames(rtm_build *b, const float *phases, uint32_t *slot, uint64_t at, vks_error *err);
/* Makes each rotation curve's quaternions take the shorter way from key to key, attaches
 * scale curves that are not all 1, validates the set and hands it over (*out). Frees the set
 * on failure. */
vks_result rtm_finish(rtm_build *b, vks_clip_set **out, vks_error *err);
void rtm_abort(rtm_build *b);

/* A phase in [0, 1] (rounding past 1 clamped) as seconds into *time; 0 when it is not
 * finite or lies outside. */
int rtm_phase_time(const rtm_build *b, float phase, float *time);

/* VKS_ERR_TRUNCATED: "<what> cut short (<left> bytes left)" at offset at. */
vks_result rtm_truncated(vks_error *err, uint64_t at, const char *path, const char *what, size_t left);
/* The events' header both forms share, u32 (0), u32 count, at the cursor; each event at
 * least min_bytes in the file. The count is checked against the bytes left and the key limit,
 * then the clip's events are allocated (times, names and values still to fill). */
vks_result rtm_event_header(rtm_build *b, vks_cursor *c, size_t min_bytes, const char *path, vks_error *err);
/* An event's f32 phase at the cursor into its time; errors name path. */
vks_result rtm_read_event_phase(rtm_build *b, vks_cursor *c, vks_clip_event *ev, const char *path, vks_error *err);

/* Case-insensitive name equality (bone names change case through binarisation). */
int rtm_same_name(const char *a, const char *b);

/* BMTR (rtm_bmtr.c), called by vks_rtm_read for a "BMTR" magic. */
vks_result rtm_bmtr_read(const vks_read_options *opt, const uint8_t *bytes, size_t size, vks_clip_set **out,
                         vks_error *err);

#endif
