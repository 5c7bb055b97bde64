/* The generator's command line, shared by `vkskin generate` and the `vkskin-gen` program,
 * and the standard dataset set written by `--datasets DIR`.
 *
 *   vks_gen_cli("vkskin generate", argc, argv)   // argv[0] is the command name; returns an exit code
 *
 * Exit codes are those of tools/vkskin/cli.h: 0 ok, 1 generation failed (for example a
 * palette limit below what one triangle needs), 2 usage, 5 runtime (writer unavailable,
 * output not writable, out of memory).
 */
#ifndef VKSKIN_GEN_CHARACTER_CLI_H
#define VKSKIN_GEN_CHARACTER_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "character.h"
#include "vkskin/formats.h"

typedef vks_result (*vks_gen_writer_fn)(const vks_skin *skin, const vks_write_options *opt, uint8_t **out_bytes,
                                        size_t *out_size, vks_error *err);

typedef struct vks_gen_format {
    const char *name;      /* "dff", "nif", "cmdl", "p3d" */
    const char *extension; /* without the dot */
    vks_gen_writer_fn write;
    /* For the standard set only: the format's palette limit (0: none; NW4C hardware: 20) and
       a vertex budget that keeps its files under 300 KB (0: the set's own counts). */
    uint32_t dataset_palette_limit, dataset_max_vertices;
    /* The format's axes (RenderWare and NIF Z up, P3D left-handed Y up, NW4C Y up): every
       character is written in them, so that it stands upright where the format is opened. */
    vks_gen_frame frame;
} vks_gen_format;

/* The format named name (or NULL); the table has VKS_GEN_FORMAT_COUNT entries, DFF first. */
#define VKS_GEN_FORMAT_COUNT 4
const vks_gen_format *vks_gen_format_find(const char *name);
const vks_gen_format *vks_gen_format_at(int i);

/* One entry of the standard dataset set. */
typedef struct vks_gen_dataset {
    const char *stem; /* file name without extension */
    vks_gen_params params;
    int strips;
    const char *why; /* what the file exercises */
} vks_gen_dataset;
#define VKS_GEN_DATASET_COUNT 4
const vks_gen_dataset *vks_gen_dataset_at(int i);

/* Writes bytes to path through a temporary name in the same folder and a rename. */
vks_result vks_gen_write_file(const char *path, const void *bytes, size_t size, vks_error *err);

/* The params and command line of one file of the standard set in one format (the set's
 * params under the format's dataset palette limit and vertex budget). cmd may be NULL. */
vks_gen_params vks_gen_dataset_params(const vks_gen_dataset *d, const vks_gen_format *f, char *cmd, size_t cmd_size);

/* Writes the standard set into dir (created when missing) in every format whose writer
 * exists (only_formats: a comma-separated list such as "dff,p3d"; NULL: all), plus
 * dir/MANIFEST.md. A file whose writer answers VKS_ERR_UNSUPPORTED is skipped with a line on
 * log (may be NULL) and in the manifest; *written gets the number of model files written. */
vks_result vks_gen_write_datasets(const char *dir, const char *only_formats, FILE *log, int *written,
                                  vks_error *err);

/* Where the clip files the generator writes are reported (path, size, what it holds). */
typedef struct vks_gen_clip_log {
    void (*on_file)(void *user, const char *path, size_t size, const char *what);
    void *user;
} vks_gen_clip_log;

/* Writes the walk and wave clips beside the model at model_path (character_clip_files.c):
 * <model file>.walk.anm, .wave.anm, .walk.ska and .ifp beside a .dff; .walk.rtm (plain) and
 * .wave.rtm (binarised) beside a .p3d; <model file>.<clip>.json pose frames at json_fps beside
 * a .nif or .cmdl. model_bytes: the model as written (read back to bind the clips);
 * model_name: the P3D's CfgModels class. */
vks_result vks_gen_write_clip_files(const char *model_path, const vks_gen_format *fmt, const vks_skin *authored,
                                    const uint8_t *model_bytes, size_t model_size, const char *model_name,
                                    float json_fps, vks_gen_clip_log *log, vks_error *err);

/* The whole command line: argv[0] is the command's name as the user typed it. */
int vks_gen_cli(const char *prog, int argc, char **argv);

#endif
