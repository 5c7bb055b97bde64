/* The bind-pose check and the weights in words (findings.c): one wording for vkskin inspect
 * (the library's vks_inspect_*), vkskin validate and bake's JSON. Library-internal; the public
 * verdict words are inspect.h's vks_bind_promised and vks_bind_status. */
#ifndef VKS_INSPECT_FINDINGS_H
#define VKS_INSPECT_FINDINGS_H

#include <stdio.h>

#include "vkskin/core.h"
#include "vkskin/cpu.h"
#include "vkskin/skin.h"

struct cJSON;

/* The finding of a bind pose that does not reproduce the stored vertices: vkskin's exit 6. */
#define VKS__INSPECT_BIND 6

/* Runs the bind-pose check (vks_cpu_bind_check) and says what it found through log, one line
 * naming path: a failure ("PATH: bind-pose check failed: max error ... over the tolerance
 * ...", VKS_LOG_WARNING), a note where it passes only placed or where the format does not
 * promise the bind pose (VKS_LOG_INFO). *finding is VKS__INSPECT_BIND for a failure the
 * caller does not allow (allow_mismatch: files known not to be stored in their bind pose),
 * else 0. An error is a check that could not run. */
vks_result vks__bind_check_say(const char *path, const vks_skin *skin, int allow_mismatch, const vks_logger *log,
                               vks_bind_check *out, int *finding, vks_error *err);
/* The stored weights and their repairs (skin->weights): one text line, or JSON fields. */
void vks__weights_text(FILE *f, const vks_weight_report *w);
void vks__weights_json(struct cJSON *o, const vks_weight_report *w);
/* Influences a model or an output lost (DESIGN.md 4 keeps up to 8 per vertex), in JSON:
 * {"kept", "vertices", "largest_weight_dropped"}. */
void vks__influences_json(struct cJSON *o, uint32_t kept, uint32_t vertices, double largest);

#endif
