/* The clip table of the pose pass (clip_table.c; compute/clip.glsl has the layout): built on
 * the host from clips and the skins they play on, with nothing of the device but the loop
 * check the backend gives. */
#ifndef VKSKIN_GPU_CLIP_TABLE_H
#define VKSKIN_GPU_CLIP_TABLE_H

#include "vkskin/clip.h"
#include "vkskin/skin.h"

#include <stddef.h>
#include <stdint.h>

typedef struct vks__clip_table {
    uint32_t *words;    /* the table, word_count 32-bit words */
    size_t word_count;
    uint32_t clip_count;
    uint32_t *entry;    /* [model * clip_count + clip]: word offset of that pair's entry */
    int32_t *motion;    /* [model * clip_count + clip]: the first node the clip drives, -1 none
                           (root motion's node, vks_clip_layers_motion_node) */
    uint64_t *loops;    /* [model * clip_count + clip]: its key searches' loop count as a layer
                           (a model-delta clip's twice, for its parent's delta) */
    int morph;          /* some clip drives morph weights of some model */
} vks__clip_table;

/* The backend's check of model m playing clip c: its key searches' loops (one sampling) fit
 * what the device runs; an error stops the build. */
typedef struct vks__clip_table_check {
    vks_result (*fn)(void *user, uint32_t model, uint32_t clip, uint64_t loops, vks_error *err);
    void *user;
} vks__clip_table_check;

/* Validates and binds every clip to every skin and lays the table out. check may be NULL. */
vks_result vks__clip_table_build(const vks_skin *const *skins, uint32_t model_count, const vks_clip *const *clips,
                                 uint32_t clip_count, const vks__clip_table_check *check, vks__clip_table *t,
                                 vks_error *err);
void vks__clip_table_free(vks__clip_table *t);

#endif
