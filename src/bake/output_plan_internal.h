/* What the inputs list (output_inputs.c) and the output plans (output_plan.c) share. */
#ifndef VKS_OUTPUT_PLAN_INTERNAL_H
#define VKS_OUTPUT_PLAN_INTERNAL_H

#include "vkskin/output_plan.h"

/* Says one line through log at any length (a refusal names two paths, each up to PATH_MAX:
 * the logger's usual stack buffer could cut it) and returns code recorded in err with the
 * line as its message (cut there). */
vks_result vks__output_say(const vks_logger *log, vks_error *err, vks_result code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
