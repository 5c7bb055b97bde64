/* Clips and crowds in the vkskin program (cli_anim.c): the clip files a run reads once, the
 * clip sources its instances name, and with --crowd the crowd file and which model each of
 * its instances poses. Private to the program; cli.h has what the commands call. */
#ifndef VKSKIN_CLI_ANIM_H
#define VKSKIN_CLI_ANIM_H

#include "cli.h"

/* A clip file, read once. */
typedef struct vks_cli_clip_file {
    char *path;
    uint8_t *bytes;     /* pose JSON: kept, read for each model (its node names are the model's) */
    size_t size;
    vks_clip_set *set;  /* every other format: read here, once */
} vks_cli_clip_file;

/* A clip source: one clip of one file ("walk.anm#walk"). */
typedef struct vks_cli_clip_ref {
    uint32_t file;
    int32_t clip;       /* index into the file's set (pose JSON: 0, its only clip) */
    char *label;        /* as the user wrote it, for messages */
    char *where;        /* who named it first: "--clip" or "street.csv:12" */
} vks_cli_clip_ref;

typedef struct vks_cli_anim {
    vks_read_options ropt;      /* clip.duration, clip.fps, the input limit: for pose JSON per model */
    vks_crowd_spec *spec;       /* --crowd */
    vks_cli_clip_file *files;
    uint32_t file_count;
    vks_cli_clip_ref *refs;     /* --clip: one; --crowd: spec->clips' order */
    uint32_t ref_count;
    const char **models;        /* the run's models (the strings belong to argv or spec) */
    uint32_t *order;            /* --crowd: crowd instance indices grouped by model, crowd order within */
    uint32_t *first, *count;    /* --crowd: per model, its range in order */
} vks_cli_anim;

/* The clip part of vks_cli_poser_init (cli_pose.c): the clips this model's instances play,
 * bound to its skin (a note for tracks naming no node of it; an error when none does), and
 * their plays. Returns 1, or 0 with one line printed (a bad input). */
int vks__cli_poser_clips(vks_cli_poser *ps, const vks_cli_pose *opt);

#endif
