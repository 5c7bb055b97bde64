/* vkskin inspect as a library call: what a model or clip file holds, as `vkskin inspect`
 * prints it (text or JSON), for a host's own tools, its asset checks, or a Python script.
 *
 * STEP BY STEP
 *   1. options (zeroed: defaults; read options as formats.h's, the logger for notes):
 *        vks_inspect_options io = {0};
 *        io.read.clip.duration = 2.0f;                  optional (an RTM's length)
 *        io.logger.func = my_log, io.logger.user = me;  notes and findings, one line each
 *        io.model = skin, io.model_name = "hero.dff";   optional: how a clip file binds to it
 *   2. vks_inspect *in; vks_inspect_file("dance.kf", &io, &in, &err)
 *      (or vks_inspect_bytes with the bytes you hold, vks_inspect_model with a skin you read)
 *      a model is read (vks_load_model), its weights summed and its bind pose checked
 *      (vks_cpu_bind_check); a clip file is read and, with io.model, bound to it. An error is
 *      a file that cannot be read as either (vks_load_error_format says it in one line).
 *   3. vks_inspect_write_text(in, stdout, &err)        what `vkskin inspect FILE` prints
 *      vks_inspect_json(&in, 1, 0)                     what `vkskin inspect --json FILE` prints
 *      (malloc'ed; several inspections as one JSON array: count > 1 or as_array set)
 *   4. vks_inspect_exit_code(in): 0, 5 a clip that could not bind, 6 a bind pose that does not
 *      reproduce the stored vertices (a finding: the report is complete all the same)
 *   5. vks_inspect_free(in)
 *
 * FINDINGS
 *   A failed bind-pose check is said through io.logger (VKS_LOG_WARNING, "PATH: bind-pose
 *   check failed: max error ..."), as are the notes of a check that passes only placed or that
 *   the format does not promise (VKS_LOG_INFO, "PATH: note: ..."), and a clip that cannot
 *   bind ("PATH: clip N: ..."). The vkskin program prints each line after "vkskin: ".
 *
 * THREADS
 *   Inspections are independent: one per thread at a time, each with its own options.
 */
#ifndef VKSKIN_INSPECT_H
#define VKSKIN_INSPECT_H

#include <stdint.h>
#include <stdio.h>

#include "clip.h"
#include "core.h"
#include "cpu.h"
#include "formats.h"
#include "skin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How to inspect (zeroed: defaults). Since 0.8. */
typedef struct vks_inspect_options {
    vks_read_options read;   /* how files are read (formats.h); its logger is used when logger is not set */
    vks_logger logger;       /* findings and notes, one line each naming the file */
    const vks_skin *model;   /* clip files are bound to this model (the caller keeps it) */
    const char *model_name;  /* the model's name in the report (a file name); NULL: "model" */
    int allow_bind_mismatch; /* a failed bind-pose check is reported, not a finding (exit 0) */
    int clips;               /* a file that is a model and holds clips too (a .nif): its clips */
} vks_inspect_options;

/* One inspected file (opaque). */
typedef struct vks_inspect vks_inspect;

/* Inspects the file at path (read through opt->read.file within its max_size): a model, or
 * a clip file (a clip format of vks_detect_clip_format; a pose JSON when opt->model is set).
 * On success *out is the inspection (vks_inspect_free). Since 0.8. */
VKS_API vks_result vks_inspect_file(const char *path, const vks_inspect_options *opt, vks_inspect **out,
                                    vks_error *err);
/* The same for a file's bytes the caller holds (path names it, and is where a .gltf's
 * external buffers and a P3D's model.cfg are looked for). Since 0.8. */
VKS_API vks_result vks_inspect_bytes(const char *path, const uint8_t *bytes, size_t size,
                                     const vks_inspect_options *opt, vks_inspect **out, vks_error *err);
/* Inspects a model the caller read (borrowed: keep it until vks_inspect_free): weights and
 * the bind-pose check. An error is a check that could not run. Since 0.8. */
VKS_API vks_result vks_inspect_model(const char *path, const vks_skin *skin, const vks_inspect_options *opt,
                                     vks_inspect **out, vks_error *err);
/* Inspects the clips of a file whose bytes the caller holds, bound to opt->model when set.
 * Since 0.8. */
VKS_API vks_result vks_inspect_clip_bytes(const char *path, const uint8_t *bytes, size_t size,
                                          const vks_inspect_options *opt, vks_inspect **out, vks_error *err);
/* Whether a file whose bytes the caller read holds clips rather than a model (how
 * vks_inspect_bytes chooses): no model reader takes it and a clip reader does, or with a
 * model to bind to (have_model) it is JSON (pose frames). A file both take (a .nif, NW4C
 * XML) is a clip file when want_clips; with a model, when the clip reader takes it; without,
 * when the model reader refuses it. Since 0.8. */
VKS_API int vks_inspect_is_clip_file(const char *path, const uint8_t *bytes, size_t size,
                                     const vks_read_options *opt, int have_model, int want_clips);

/* 0; 5 when a clip could not be bound to the model (left out of the report); 6 when the bind
 * pose does not reproduce the stored vertices where the format promises it (and
 * allow_bind_mismatch is not set). Since 0.8. */
VKS_API int vks_inspect_exit_code(const vks_inspect *in);
/* The inspected model (NULL for a clip file) and the bind-pose check's numbers. Since 0.8. */
VKS_API const vks_skin *vks_inspect_skin(const vks_inspect *in);
VKS_API const vks_bind_check *vks_inspect_bind_check(const vks_inspect *in);
/* The clips read (NULL for a model). Since 0.8. */
VKS_API const vks_clip_set *vks_inspect_clips(const vks_inspect *in);

/* The report as `vkskin inspect` prints it, to f. Since 0.8. */
VKS_API vks_result vks_inspect_write_text(const vks_inspect *in, FILE *f, vks_error *err);
/* The report as `vkskin inspect --json` prints it: one object when count is 1 and as_array is
 * 0, else an array of count objects. Malloc'ed (free()); NULL when out of memory. Bytes that
 * are not UTF-8 in names are written as \ufffd. Since 0.8. */
VKS_API char *vks_inspect_json(const vks_inspect *const *in, uint32_t count, int as_array);
/* The same written to f, newline ended. Since 0.8. */
VKS_API vks_result vks_inspect_write_json(const vks_inspect *const *in, uint32_t count, int as_array, FILE *f,
                                          vks_error *err);
/* Frees an inspection (and the model it read; not a model given to it). Since 0.8. */
VKS_API void vks_inspect_free(vks_inspect *in);

/* Whether the model's format promises that its meshes are stored at the pose their inverse
 * binds imply (glTF does not): where it does not, a check that differs is a note. Since 0.8. */
VKS_API int vks_bind_promised(const vks_skin *skin);
/* The bind-pose verdict in words: "passed", "FAILED", "FAILED (allowed by
 * --allow-bind-mismatch)" or "differs (a note: ...)". Since 0.8. */
VKS_API const char *vks_bind_status(const vks_bind_check *bc, int promised, int allow_mismatch);

#ifdef __cplusplus
}
#endif

#endif
