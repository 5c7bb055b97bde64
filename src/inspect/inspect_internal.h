/* What one inspection holds (inspect.h's opaque vks_inspect) and the writers of each kind of
 * file: a model (model_report.c) and a clip file (clip_report.c). Library-internal. */
#ifndef VKS_INSPECT_INTERNAL_H
#define VKS_INSPECT_INTERNAL_H

#include <stdio.h>

#include "vkskin/clip_sample.h"
#include "vkskin/inspect.h"

struct cJSON;

struct vks_inspect {
    char *path;
    int allow_mismatch;
    int exit_code; /* vks_inspect_exit_code */
    /* a model: the skin (owned when the inspection read it), its stats and bind-pose check */
    const vks_skin *skin;
    vks_skin *owned_skin;
    vks_bind_check bc;
    vks_skin_stats st;
    /* a clip file: its clips and, with a model, how each binds (bound[c] 0: it could not,
       and it is left out of the report) */
    vks_clip_set *set;
    vks_clip_binding *bindings;
    unsigned char *bound;
    const vks_skin *model;
    char *model_name;
};

/* A new inspection of path, zeroed; NULL when out of memory (said in err). */
vks_inspect *vks__inspect_new(const char *path, vks_error *err);

/* The model's report as text to f, and as one JSON object. */
void vks__model_text(FILE *f, const vks_inspect *in);
struct cJSON *vks__model_json(const vks_inspect *in);
/* The clip file's report as text to f, and as one JSON object. */
void vks__clips_text(FILE *f, const vks_inspect *in);
struct cJSON *vks__clips_json(const vks_inspect *in);

#endif
