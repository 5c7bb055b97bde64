/* The first key given twice in a JSON object (json_keys.c). */
#ifndef VKSKIN_CORE_JSON_KEYS_H
#define VKSKIN_CORE_JSON_KEYS_H

struct cJSON;

/* The first key of o that another of its keys repeats, or NULL; n log n in o's keys. */
const char *vks__json_duplicate_key(const struct cJSON *o);

#endif
