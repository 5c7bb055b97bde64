/* vkskin inspect: a mesh's morph targets (morph.c). */
#ifndef VKS_INSPECT_MORPH_H
#define VKS_INSPECT_MORPH_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "vkskin/skin.h"

/* One line under a mesh: its targets with their default weights (nothing when it has none). */
void vks__mesh_morph_text(FILE *f, const vks_skin *s, uint32_t m);
/* The same as a mesh object's "morph_targets" array: name, default_weight, normals. */
void vks__mesh_morph_json(cJSON *jm, const vks_skin *s, uint32_t m);

#endif
