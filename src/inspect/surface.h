/* vkskin inspect: a model's UV sets, materials, images and samplers (surface.c). */
#ifndef VKS_INSPECT_SURFACE_H
#define VKS_INSPECT_SURFACE_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "vkskin/skin.h"

/* One line under a mesh: its UV sets and material range (nothing when it has neither). */
void vks__mesh_surface_text(FILE *f, const vks_skin *s, uint32_t m);
/* The model's UV sets (with their ranges), materials, images and samplers as text. */
void vks__surface_text(FILE *f, const vks_skin *s);
/* The same as members of a mesh object (uv_sets, materials) ... */
void vks__mesh_surface_json(cJSON *jm, const vks_skin *s, uint32_t m);
/* ... and of the model's object (uv_sets, materials, images, samplers). */
void vks__surface_json(cJSON *o, const vks_skin *s);

#endif
