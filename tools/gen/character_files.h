/* The model formats the generator writes, and how it writes a file: the layer under the
 * standard dataset set (character_datasets.c), the clip files (character_clip_files.c) and
 * the command line (character_cli.c). */
#ifndef VKSKIN_GEN_CHARACTER_FILES_H
#define VKSKIN_GEN_CHARACTER_FILES_H

#include <stdint.h>

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
    /* The materials' texture name as the format's own files name one (its readers keep it):
       a RenderWare dictionary name has no extension, NIF and NW4C name image files, P3D a .paa */
    const char *texture;
    const char *material_suffix; /* P3D's materials are .rvmat files; "" elsewhere */
} vks_gen_format;

/* The format named name (or NULL); the table has VKS_GEN_FORMAT_COUNT entries, DFF first. */
#define VKS_GEN_FORMAT_COUNT 4
const vks_gen_format *vks_gen_format_find(const char *name);
const vks_gen_format *vks_gen_format_at(int i);

/* Writes bytes to path through a temporary name in the same folder and a rename. */
vks_result vks_gen_write_file(const char *path, const void *bytes, size_t size, vks_error *err);

/* Writes <stem>.model.cfg beside the .p3d at p3d_path (P3D keeps its skeleton outside the
 * model), its CfgModels class named after the stem (what readers look up by default). */
vks_result vks_gen_write_p3d_cfg(const char *p3d_path, const vks_skin *model, vks_error *err);

#endif
