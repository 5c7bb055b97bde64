/* Keys given twice in one JSON object: cJSON keeps both and its lookups find the first, so a
 * manifest or golden that says "fps" twice would be read as if the second were not there. The
 * readers of vkskin's JSON (bake manifests, validate's golden.json) refuse such a file instead:
 * one rule for all of them, here. */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/json_keys.h"

static int by_key(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

const char *vks__json_duplicate_key(const struct cJSON *o)
{
    size_t n = 0;
    for (const cJSON *it = o->child; it; it = it->next)
        n++;
    if (n < 2)
        return NULL;
    /* sorted, so that an object of a million keys costs n log n, not n^2 */
    const char **keys = malloc(n * sizeof *keys);
    const char *dup = NULL;
    if (!keys) { /* no memory for the sort: pair by pair */
        for (const cJSON *a = o->child; a && !dup; a = a->next)
            for (const cJSON *b = a->next; b && !dup; b = b->next)
                if (a->string && b->string && !strcmp(a->string, b->string))
                    dup = a->string;
        return dup;
    }
    size_t k = 0;
    for (const cJSON *it = o->child; it; it = it->next)
        keys[k++] = it->string ? it->string : "";
    qsort(keys, n, sizeof *keys, by_key);
    for (size_t i = 1; i < n && !dup; i++)
        if (!strcmp(keys[i - 1], keys[i]))
            dup = keys[i];
    free(keys);
    return dup;
}

const char *vks__json_kind(const struct cJSON *v)
{
    return cJSON_IsNumber(v)   ? "a number"
           : cJSON_IsString(v) ? "a string"
           : cJSON_IsArray(v)  ? "an array"
           : cJSON_IsObject(v) ? "an object"
           : cJSON_IsBool(v)   ? "a boolean"
           : cJSON_IsNull(v)   ? "null"
                               : "something else";
}
