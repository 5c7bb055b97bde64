/* vkskin inspect: a mesh's morph targets (inspect_morph.c). */
#ifndef VKS_CLI_INSPECT_MORPH_H
#define VKS_CLI_INSPECT_MORPH_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "vkskin.h"

/* One line under a mesh: its targets with their default weights (nothing when it has none). */
void vks_cli_mesh_morph_text(FILE *f, const vks_skin *s, uint32_t m);
/* The same as a mesh object's "morph_targets" array: name, default_weight, normals. */
void vks_cli_mesh_morph_json(cJSON *jm, const vks_skin *s, uint32_t m);

#endif
