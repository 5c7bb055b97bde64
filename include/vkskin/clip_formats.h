/* vkskin clip files: the readers of every clip format vkskin reads (into clip.h's model), the
 * writers the tests and the generator use, and detection. Which formats there are: the
 * registry (formats.h, vks_format_at).
 *
 * THREADS: readers and writers keep no state; separate calls may run on separate threads.
 */
#ifndef VKSKIN_CLIP_FORMATS_H
#define VKSKIN_CLIP_FORMATS_H

#include "clip.h"
#include "formats.h"
#include "skin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- readers ---- */

/* Every clip reader has this shape. opt: allocator, logger and limits (max_nodes bounds the
 * tracks of a clip). Errors name the offset and the structure, as the model readers' do. */
typedef vks_result (*vks_clip_reader_fn)(const vks_read_options *opt, const void *bytes, size_t size,
                                         vks_clip_set **out, vks_error *err);

/* Arma RTM, plain (RTM_0101, with RTM_MDAT events: MODEL_DELTA) and binarised (BMTR 3-5,
 * LZO arrays: PARENT_DELTA, composed through the P3D skin's model.cfg skeleton when bound).
 * RTM stores no duration: opt->clip.duration (<= 0: 1 s); phases become times. */
VKS_API vks_result vks_rtm_read(const vks_read_options *opt, const void *bytes, size_t size,
                                vks_clip_set **out, vks_error *err);
/* RenderWare .anm (chunk 0x1B, standard and compressed keys) and legacy .ska. */
VKS_API vks_result vks_rw_anm_read(const vks_read_options *opt, const void *bytes, size_t size,
                                   vks_clip_set **out, vks_error *err);
VKS_API vks_result vks_rw_ska_read(const vks_read_options *opt, const void *bytes, size_t size,
                                   vks_clip_set **out, vks_error *err);
/* GTA .ifp: ANPK (III/VC), ANP2, ANP3 (San Andreas). */
VKS_API vks_result vks_ifp_read(const vks_read_options *opt, const void *bytes, size_t size,
                                vks_clip_set **out, vks_error *err);
/* Gamebryo / NetImmerse animation (formats/animation.md section 2): .kf files (one clip per
 * NiControllerSequence root, 10.1.0.0 .. 20.2.0.7; a Morrowind NiSequenceStreamHelper file as
 * one clip) and the animation inside a .nif (the sequences of an NiControllerManager, or one
 * clip of the NiKeyframeControllers on its nodes, as in Morrowind models). LOCAL tracks named
 * by node; linear, quadratic, TBC, XYZ Euler, constant and B-spline keys; text keys as events. */
VKS_API vks_result vks_nif_kf_read(const vks_read_options *opt, const void *bytes, size_t size,
                                   vks_clip_set **out, vks_error *err);
/* NintendoWare CTR skeletal animation XML (.cskla): one clip per SkeletalAnimationData,
 * frames at opt->clip.fps (<= 0: 30; the file stores no rate). The schema is probable (no
 * public sample); the variants read and the rules are listed in src/formats/cmdl/cskla_read.c.
 * Errors name the line and column. */
VKS_API vks_result vks_cskla_read(const vks_read_options *opt, const void *bytes, size_t size,
                                  vks_clip_set **out, vks_error *err);
/* glTF 2.0 animations (.gltf or .glb; external buffers through opt->gltf.path and opt->file):
 * one LOCAL clip per animation, named by the animation (its index when unnamed), tracks named
 * as vks_gltf_read names nodes (unnamed: "nodes[3]"); LINEAR, STEP and CUBICSPLINE (Hermite)
 * translation / rotation / scale; `weights` channels counted in format_detail, not played. */
VKS_API vks_result vks_gltf_clip_read(const vks_read_options *opt, const void *bytes, size_t size,
                                      vks_clip_set **out, vks_error *err);
/* Reads the clip file at path through opt->file (zeroed: the file system, max_size applied),
 * detects its clip format (vks_detect_clip_format) and reads it: what vks_read_file is for
 * models. A .gltf's external buffers are read beside it through opt->file (opt->gltf.path
 * NULL: path). A failure to read the file has err->path "file"; bytes no clip reader takes are
 * VKS_ERR_FORMAT. Pose JSON needs a skin: vks_pose_json_clip_read. */
VKS_API vks_result vks_read_clips(const vks_read_options *opt, const char *path, vks_clip_set **out,
                                  vks_error *err);
/* A clip file's bytes, already read (path names them: messages, the reader chosen by its
 * extension where the bytes have no magic, a .gltf's external buffers beside it: opt->gltf.path
 * is taken as path): by the reader vks_detect_clip_format picks, or with json_skin given and a
 * path ending in .json as pose JSON against json_skin (vks_pose_json_clip_read; its node names
 * are that model's). Bytes no reader takes: VKS_ERR_FORMAT with err->path "file" and the
 * message "not a clip file vkskin reads (FORMATS, or pose JSON named .json)", FORMATS being
 * vks_clip_format_list's (vks_load_error_format says it as "PATH: MSG"). What the vkskin
 * program and the bake job engine read clip files with. Since 0.7. */
VKS_API vks_result vks_read_clip_bytes(const vks_read_options *opt, const char *path, const void *bytes, size_t size,
                                       const vks_skin *json_skin, vks_clip_set **out, vks_error *err);
/* The clip files of every format of the registry (vks_format_at), for messages: "RenderWare
 * .anm .ska .ifp, Gamebryo .kf, ..." into out (cap bytes, cut short if it must). Returns out.
 * Since 0.7. */
VKS_API const char *vks_clip_format_list(char *out, size_t cap);
/* A name for clip k of a file's clip_count clips that has none (glTF's unnamed animations,
 * RTM): the file name's stem ("walk" for "anims/walk.rtm"), and " k" after it when the file
 * has several ("moves 2"), so that exports and listings name each one. malloc'ed (free());
 * NULL when out of memory. Since 0.7 (before: a copy in the vkskin program and one in the bake
 * job engine). */
VKS_API char *vks_clip_unnamed_name(const char *path, uint32_t k, uint32_t clip_count);
/* A pose JSON's frames as one linear clip at opt->clip.fps (<= 0: 30) frames per second:
 * the skin's nodes named in it become tracks (names resolved against skin, as the pose
 * file parser does). */
VKS_API vks_result vks_pose_json_clip_read(const vks_skin *skin, const vks_read_options *opt, const void *bytes,
                                           size_t size, vks_clip_set **out, vks_error *err);

/* ---- writers (fixtures, the generator's clips) ----
 * Each writes a whole file into a growable buffer; the caller frees *out_bytes with free().
 * The skin gives the node order, names and tags the format wants, and the bind pose where
 * the format's space differs from the clip's (a LOCAL clip written as RTM deltas). */
typedef struct vks_clip_write_options {
    uint32_t version;  /* RTM: 0 plain RTM_0101, 3..5 binarised BMTR; IFP: 1 ANPK, 2 ANP2,
                          3 ANP3 (0: ANP3); .anm: 0 standard */
    int compressed;    /* .anm: compressed keys; BMTR: LZO arrays; IFP ANP3: int16 keys */
    uint32_t frames;   /* formats that store frames (RTM): frames over the clip, 0: 30 per
                          second of duration plus one */
} vks_clip_write_options;

/* Arma RTM: plain RTM_0101 (opt->version 0) or binarised BMTR 3..5, the clip's tracks on the
 * skin's nodes as the format's deltas. */
VKS_API vks_result vks_rtm_write(const vks_clip *clip, const vks_skin *skin, const vks_clip_write_options *opt,
                                 uint8_t **out_bytes, size_t *out_size, vks_error *err);
/* RenderWare .anm (chunk 0x1B): standard keys, or compressed with opt->compressed. */
VKS_API vks_result vks_rw_anm_write(const vks_clip *clip, const vks_skin *skin, const vks_clip_write_options *opt,
                                    uint8_t **out_bytes, size_t *out_size, vks_error *err);
/* RenderWare legacy .ska, the file vks_rw_ska_read reads. */
VKS_API vks_result vks_rw_ska_write(const vks_clip *clip, const vks_skin *skin, const vks_clip_write_options *opt,
                                    uint8_t **out_bytes, size_t *out_size, vks_error *err);
/* GTA .ifp: every clip of the set, ANPK, ANP2 or ANP3 by opt->version (0: ANP3). */
VKS_API vks_result vks_ifp_write(const vks_clip_set *set, const vks_skin *skin, const vks_clip_write_options *opt,
                                 uint8_t **out_bytes, size_t *out_size, vks_error *err);
/* NintendoWare .cskla: every LOCAL clip of the set, its tracks on the skin's nodes, with the
 * skin's bind pose as the file's <Skeleton>. Frames at the first clip's fps (0: 30), which the
 * reader must be given as opt->clip.fps. Step, linear and Hermite curves keep their keys;
 * quaternion rotations and B-splines become Hermite Euler keys at every frame (opt->frames
 * samples over the clip when given) and at their own keys. */
VKS_API vks_result vks_cskla_write(const vks_clip_set *set, const vks_skin *skin, const vks_clip_write_options *opt,
                                   uint8_t **out_bytes, size_t *out_size, vks_error *err);

/* Every clip of set as one .kf: an NiControllerSequence root per clip, NiTransformData keys
 * (LINEAR, STEP -> constant, HERMITE -> quadratic with per-segment tangents; Euler curves as
 * XYZ rotation keys) and text keys from the events ("name: value" where a value is set).
 * opt->version: 0 or 0x14020007 writes 20.2.0.7 (string table, NiTransformInterpolators;
 * B-spline tracks as NiBSplineTransformInterpolator, or with opt->compressed the compact
 * NiBSplineCompTransformInterpolator), 0x0A010000 writes 10.1.0.0 (inline names,
 * NiKeyframeController + NiKeyframeData per track, timing on the controllers; no B-splines).
 * Hermite quaternions are written as quadratic quaternion keys, which carry no tangents (read
 * back with Catmull-Rom ones). LOCAL clips only; skin (may be NULL) names each track after the
 * node it binds to. */
VKS_API vks_result vks_nif_kf_write(const vks_clip_set *set, const vks_skin *skin, const vks_clip_write_options *opt,
                                    uint8_t **out_bytes, size_t *out_size, vks_error *err);

/* The clip reader for these bytes (by magic, then by extension), or NULL. A NIF (the header
 * text "NetImmerse File Format" / "Gamebryo File Format") and a ".kf" name give
 * vks_nif_kf_read: a .nif is a model file to vks_detect_format and a clip file here, for a
 * caller that asks for clips (a .nif with keyframe controllers is both). */
VKS_API vks_clip_reader_fn vks_detect_clip_format(const void *bytes, size_t size, const char *name,
                                                  const char **format_name);

#ifdef __cplusplus
}
#endif
#endif
