/* The bind-pose check as JSON (bind_json.h). */
#include "check/bind_json.h"

#include <cjson/cJSON.h>

void vks__bind_check_json(struct cJSON *o, const vks_bind_check *bc, int promised, int allowed)
{
    cJSON_AddNumberToObject(o, "max_error", bc->max_error);
    cJSON_AddNumberToObject(o, "max_error_relative", bc->max_error_relative);
    cJSON_AddNumberToObject(o, "tolerance", bc->tolerance);
    cJSON_AddNumberToObject(o, "error_scale", bc->error_scale);
    cJSON_AddBoolToObject(o, "pass", bc->pass);
    cJSON_AddBoolToObject(o, "placed", bc->placed);
    if (bc->placed)
        cJSON_AddItemToObject(o, "placement", cJSON_CreateFloatArray(bc->placement.m, 12));
    cJSON_AddBoolToObject(o, "promised", promised);
    cJSON_AddStringToObject(o, "status", bc->pass     ? "passed"
                                         : !promised ? "differs (noted)"
                                         : allowed   ? "FAILED (allowed)"
                                                     : "FAILED");
}
