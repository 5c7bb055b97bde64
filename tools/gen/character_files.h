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

/* A format the generator writes: a registry record (vks_format_at) with a model writer, plus
 * what the generator's own datasets ask of it. */
typedef struct vks_gen_format {
    const vks_format_info *info; /* its registry record */
    const char *name;            /* its first model extension without the dot: "dff", "nif", ... */
    const char *extension;       /* the same: the generated files' extension */
    vks_gen_writer_fn write;     /* info->write */
    /* For the standard set only: the format's palette limit (0: none; NW4C hardware: 20) and
       a vertex budget that keeps its files under 300 KB (0: the set's own counts). */
    uint32_t dataset_palette_limit, dataset_max_vertices;
    /* --max-mesh-vertices' default: formats that index vertices with 16 bits split a
       benchmark-sized character into meshes (NIF also counts triangles in 16 bits); 0: none */
    uint32_t max_mesh_vertices;
    /* The format's axes (info->axes): every character is written in them, so that it stands
       upright where the format is opened. */
    vks_gen_frame frame;
    /* The materials' texture name as the format's own files name one (its readers keep it):
       a RenderWare dictionary name has no extension, NIF and NW4C name image files, P3D a .paa */
    const char *texture;
    const char *material_suffix; /* P3D's materials are .rvmat files; "" elsewhere */
} vks_gen_format;

/* The formats of the registry that have a model writer, in the registry's order (DFF first):
 * vks_gen_format_count of them. vks_gen_format_find takes a generator name ("dff"); NULL when
 * none. */
int vks_gen_format_count(void);
const vks_gen_format *vks_gen_format_find(const char *name);
const vks_gen_format *vks_gen_format_at(int i);
/* The generator names joined by sep ("dff, nif, cmdl, p3d" for ", "), for help and messages;
 * a static buffer. */
const char *vks_gen_format_names(const char *sep);

/* Writes bytes to path through a temporary name in the same folder and a rename. */
vks_result vks_gen_write_file(const char *path, const void *bytes, size_t size, vks_error *err);

/* Writes <stem>.model.cfg beside the .p3d at p3d_path (P3D keeps its skeleton outside the
 * model), its CfgModels class named after the stem (what readers look up by default). */
vks_result vks_gen_write_p3d_cfg(const char *p3d_path, const vks_skin *model, vks_error *err);

#endif
