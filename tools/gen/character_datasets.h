/* The standard dataset set written by `vkskin generate --datasets DIR` (character_datasets.c),
 * with its MANIFEST.md. */
#ifndef VKSKIN_GEN_CHARACTER_DATASETS_H
#define VKSKIN_GEN_CHARACTER_DATASETS_H

#include <stdio.h>

#include "character_files.h"

/* One entry of the standard dataset set. */
typedef struct vks_gen_dataset {
    const char *stem; /* file name without extension */
    vks_gen_params params;
    int strips;
    const char *why; /* what the file exercises */
} vks_gen_dataset;
#define VKS_GEN_DATASET_COUNT 4
const vks_gen_dataset *vks_gen_dataset_at(int i);

/* The params and command line of one file of the standard set in one format (the set's
 * params under the format's dataset palette limit and vertex budget). cmd may be NULL. */
vks_gen_params vks_gen_dataset_params(const vks_gen_dataset *d, const vks_gen_format *f, char *cmd, size_t cmd_size);

/* Writes the standard set into dir (created when missing) in every format whose writer
 * exists (only_formats: a comma-separated list such as "dff,p3d"; NULL: all), plus
 * dir/MANIFEST.md. A file whose writer answers VKS_ERR_UNSUPPORTED is skipped with a line on
 * log (may be NULL) and in the manifest; *written gets the number of model files written. */
vks_result vks_gen_write_datasets(const char *dir, const char *only_formats, FILE *log, int *written,
                                  vks_error *err);

/* Model facts for the manifest and the generator's summary line. */
typedef struct vks_gen_model_facts {
    uint32_t bones, source_vertices, vertices, triangles, groups, max_palette, influences;
} vks_gen_model_facts;
vks_gen_model_facts vks_gen_facts_of(const vks_skin *s);

#endif
