/* The bind-pose check as JSON (bind_json.c): one writer for `vkskin validate --json`'s
 * files[].bind_check (validate_json.c) and `vkskin inspect --json`'s bind_check.
 * Library-internal. */
#ifndef VKS_CHECK_BIND_JSON_H
#define VKS_CHECK_BIND_JSON_H

#include "vkskin/cpu.h"

struct cJSON;

/* Adds max_error, max_error_relative, tolerance, error_scale, pass, placed (and placement),
 * promised and status to o: "passed", "differs (noted)" where the format does not promise the
 * bind pose, "FAILED (allowed)" where the caller accepts the failure, else "FAILED". */
void vks__bind_check_json(struct cJSON *o, const vks_bind_check *bc, int promised, int allowed);

#endif
