/* What the JSON readers share (json_keys.c): the first key given twice in an object, and a
 * value's kind in words for their messages. */
#ifndef VKSKIN_CORE_JSON_KEYS_H
#define VKSKIN_CORE_JSON_KEYS_H

struct cJSON;

/* The first key of o that another of its keys repeats, or NULL; n log n in o's keys. */
const char *vks__json_duplicate_key(const struct cJSON *o);

/* "a number", "a string", "an array", "an object", "a boolean" or "null", for "expected ...,
 * got KIND" messages; "something else" for what parsed text never holds (raw items). */
const char *vks__json_kind(const struct cJSON *v);

#endif
