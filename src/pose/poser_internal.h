/* The poser's own parts (poser.h): the clip files a plan reads once, the clip sources its
 * instances name ("walk.anm#walk"), and with a crowd which model each instance poses. */
#ifndef VKS_POSE_POSER_INTERNAL_H
#define VKS_POSE_POSER_INTERNAL_H

#include "vkskin/poser.h"

/* A clip file, read once. */
typedef struct vks__pose_clip_file {
    char *path;
    uint8_t *bytes;     /* pose JSON: kept, read for each model (its node names are the model's) */
    size_t size;
    vks_clip_set *set;  /* every other format: read here, once */
} vks__pose_clip_file;

/* A clip source: one clip of one file ("walk.anm#walk"). */
typedef struct vks__pose_clip_ref {
    uint32_t file;
    int32_t clip;       /* index into the file's set (pose JSON: 0, its only clip) */
    char *label;        /* as the user wrote it, for messages */
    char *where;        /* who named it first: "--clip" or "street.csv:12: clip" */
} vks__pose_clip_ref;

struct vks__pose_clips {
    vks_crowd_spec *spec;       /* with a crowd */
    vks__pose_clip_file *files;
    uint32_t file_count;
    vks__pose_clip_ref *refs;   /* clip: one; crowd: spec->clips' order */
    uint32_t ref_count;
    const char **models;        /* crowd: the run's models (the strings belong to the caller or spec) */
    uint32_t *order;            /* crowd: instance indices grouped by model, crowd order within */
    uint32_t *first, *count;    /* crowd: per model, its range in order */
};

/* Says a problem once: the whole line through l at VKS_LOG_ERROR, and code with the line (cut
 * to fit) into err. Returns code. */
vks_result vks__poser_fail(const vks_logger *l, vks_error *err, vks_result code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* The clip part of vks_poser_init (poser_clips.c): the clips this model's instances play, bound
 * to its skin, and their plays. */
vks_result vks__poser_clips(vks_poser *ps, const vks_pose_plan *plan, vks_error *err);

#endif
