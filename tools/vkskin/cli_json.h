/* Checks shared by the program's JSON readers (cli_json.c); needs only cJSON, so the fuzz
 * targets and tests that build one reader from source add just this file. */
#ifndef VKSKIN_CLI_JSON_H
#define VKSKIN_CLI_JSON_H

struct cJSON;

/* A key that object o holds more than once (the first in sorted order), or NULL when each is
 * there once. cJSON keeps both and its lookups find the first, so the second would be ignored. */
const char *vks_cli_json_duplicate_key(const struct cJSON *o);

#endif
