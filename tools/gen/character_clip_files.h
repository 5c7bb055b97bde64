/* The clip files the generator writes beside a model (character_clip_files.c). */
#ifndef VKSKIN_GEN_CHARACTER_CLIP_FILES_H
#define VKSKIN_GEN_CHARACTER_CLIP_FILES_H

#include "character_files.h"

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

#endif
