/* vkskin convert: a model and its clip files as one glTF 2.0 file, the whole job of `vkskin
 * convert` (its notes, warnings and refusals) for a host: an engine's importer, a Python script.
 * The writing itself is gltf.h's (vks_gltf_write_skin); this reads the clip files, binds them
 * to the model, checks that each drives something, and says what the glTF shows differently.
 *
 * STEP BY STEP
 *   1. read the model (vks_load_model, formats.h)
 *   2. vks_convert_options o = {0};  o.logger = (vks_logger){vks_log_stderr, NULL};
 *      const char *sources[] = {"walk.anm", "moves.glb#Run"};   // FILE, or FILE#name (or #index)
 *      vks_convert_clips *clips = NULL;
 *      if (vks_convert_clips_read(skin, sources, 2, &o, &clips, &err) != VKS_OK) ... bad input
 *   3. vks_gltf_options g = {0};      // zeroed: GLB or .gltf from the path, 30 fps resampling
 *      vks_gltf_report rep;
 *      vks_convert_write("hero.glb", "hero.dff", skin, clips, &g, &o, &rep, &err);
 *   4. vks_convert_clips_free(clips); before the skin is freed
 *
 * Words. Everything either call has to say goes to o.logger, as the vkskin program prints it
 * after "vkskin: ": notes (INFO: tracks left out, a clip moving a mesh's skin space, the
 * summary line, weights normalised, zero normals), warnings (WARNING: a texture kept only by
 * name) and each failure (ERROR: the words, naming the clip file or source, the vkskin program
 * prints), before the call returns its code and err. A zeroed logger is silent; err still says
 * what failed.
 *
 * THREADS: reentrant; the skin is only read. Since 0.8.
 */
#ifndef VKSKIN_CONVERT_H
#define VKSKIN_CONVERT_H

#include "formats.h"
#include "gltf.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vks_convert_options { /* Since 0.8; zeroed: defaults, silent */
    vks_read_options read;  /* the clip files' readers: clip.fps, clip.duration (formats that store
                               none), file access (file.read; file.max_size: the largest clip
                               file, default 2 GiB), glTF's gltf.root */
    vks_logger logger;      /* notes, warnings and the failures' words (see Words); zeroed: silent */
    const char *limit_hint; /* said after the words for a clip file over file.max_size (the
                               vkskin program: "(--max-input-mb N)"); NULL: none */
} vks_convert_options;

/* The clips of a conversion: the clip files read, each clip bound to the skin. Since 0.8. */
typedef struct vks_convert_clips vks_convert_clips;

/* Reads the clip sources in order: "FILE" takes every clip of the file (pose JSON, a .json,
 * read against skin's node names), "FILE#name" the clip of that name or index (the last '#'
 * splits). Each clip is bound to skin (vks_clip_bind): one that drives none of its nodes nor
 * morph weights is refused; one some of whose tracks drive no node is kept without them (a
 * note). Clips without a name get vks_clip_unnamed_name's. Then a note per clip that moves a
 * mesh's skin-space node (glTF players show that motion; vkskin's deformation takes it out).
 * VKS_ERR_IO / VKS_ERR_LIMIT for a file that cannot be read, VKS_ERR_FORMAT for one no reader
 * takes, VKS_ERR_INVALID for a name the file lacks or a clip that cannot be bound; *out NULL
 * then. count 0 is fine (a model without clips). Since 0.8. */
VKS_API vks_result vks_convert_clips_read(const vks_skin *skin, const char *const *sources, uint32_t count,
                                          const vks_convert_options *opt, vks_convert_clips **out, vks_error *err);
/* How many clips (animations to write) c holds; 0 for NULL. Since 0.8. */
VKS_API uint32_t vks_convert_clips_count(const vks_convert_clips *c);
/* NULL is fine. Since 0.8. */
VKS_API void vks_convert_clips_free(vks_convert_clips *c);

/* Writes skin and the clips (NULL: none) to path through vks_gltf_write_skin (gopt: its options;
 * container from the path when zeroed), then says the summary (model_name -> path: meshes,
 * joints, animations, bytes ...) and the report's notes, and warns once per texture glTF keeps
 * only by name. model_name names the model in the words (its path; NULL: "model"); a failure's
 * words name it too, except a file that cannot be written (its own path). Since 0.8. */
VKS_API vks_result vks_convert_write(const char *path, const char *model_name, const vks_skin *skin,
                                     const vks_convert_clips *clips, const vks_gltf_options *gopt,
                                     const vks_convert_options *opt, vks_gltf_report *report, vks_error *err);

#ifdef __cplusplus
}
#endif
#endif
