/* vkskin inspect on clip files (inspect_clip.c). */
#ifndef VKS_CLI_INSPECT_CLIP_H
#define VKS_CLI_INSPECT_CLIP_H

#include <cjson/cJSON.h>

#include "vkskin.h"

/* Whether the file at path, whose bytes the caller read, holds a clip rather than a model: no
 * model reader takes it and a clip reader does (or, with a model to bind to, it is JSON: pose
 * frames). A file both take (a NIF: a .kf, or a .nif with keyframes; NW4C XML) is a clip file
 * when want_clips is set; with a model, when the clip reader takes it, or neither reader does
 * and its name is a clip format's (.kf, .cskla: the clip error is the one to show); without,
 * when the model reader refuses it (read with opt). */
int vks_cli_is_clip_file(const char *path, const uint8_t *bytes, size_t size, const vks_read_options *opt,
                         int have_model, int want_clips);

/* Prints (or, with json_out, appends one object to that array) the clips of path, whose bytes
 * the caller read; with skin, how each binds to it (model: its file name). Returns an exit
 * code (cli.h). */
int vks_cli_inspect_clips(const char *path, const uint8_t *bytes, size_t size, const vks_read_options *opt,
                          const vks_skin *skin, const char *model, cJSON *json_out);

#endif
