/* The pose file's morph weights (pose_file_weights.c), for its parser (pose_file.c). */
#ifndef VKS_POSE_FILE_INTERNAL_H
#define VKS_POSE_FILE_INTERNAL_H

#include <cjson/cJSON.h>

#include "vkskin/pose.h"

/* A frame's "weights" object into out (skin->target_count, already at the defaults); prefix
 * ("frames[2]." or "") names the frame in errors. */
vks_result vks__pose_file_weights(const vks_skin *skin, const cJSON *weights, const char *prefix, float *out,
                                  vks_error *err);
/* Whether any frame of the file (or the file's one frame) gives weights. */
int vks__pose_file_has_weights(const cJSON *root);

#endif
