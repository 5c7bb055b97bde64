/* golden.json's reader (golden_json.h). Every field is checked for its type and range before
 * it is used, and a failure names its JSON path, as the format readers name byte offsets:
 * a golden can come from another machine, another vkskin, or a hand that edited it. */
#include "check/golden_json.h"
#include "core/json_keys.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int whole(const cJSON *n, double max)
{
    return cJSON_IsNumber(n) && isfinite(n->valuedouble) && n->valuedouble >= 0 && n->valuedouble <= max &&
           n->valuedouble == floor(n->valuedouble);
}

static int entry(const cJSON *o, int k, vgold_entry *e, char *why, size_t why_size)
{
    const cJSON *file = cJSON_GetObjectItemCaseSensitive(o, "file");
    const cJSON *hash = cJSON_GetObjectItemCaseSensitive(o, "model_hash");
    const cJSON *verts = cJSON_GetObjectItemCaseSensitive(o, "vertices");
    const cJSON *poses = cJSON_GetObjectItemCaseSensitive(o, "poses");
    const cJSON *raw = cJSON_GetObjectItemCaseSensitive(o, "raw");
    const char *bad = NULL;
    char *end = NULL;
    if (!cJSON_IsObject(o))
        bad = "expected an object";
    else if (!cJSON_IsString(file))
        bad = ".file: expected a string";
    else if (!cJSON_IsString(hash) || strlen(hash->valuestring) != 16 ||
             (strtoull(hash->valuestring, &end, 16), *end != 0) || hash->valuestring[0] == '-' ||
             hash->valuestring[0] == '+' || hash->valuestring[0] == ' ')
        bad = ".model_hash: expected 16 hexadecimal digits";
    else if (!whole(verts, UINT32_MAX))
        bad = ".vertices: expected a whole number of vertices";
    else if (!whole(poses, UINT32_MAX))
        bad = ".poses: expected a whole number of poses";
    else if (!cJSON_IsString(raw) || !raw->valuestring[0] || strlen(raw->valuestring) >= sizeof e->raw ||
             strchr(raw->valuestring, '/') || !strcmp(raw->valuestring, ".") || !strcmp(raw->valuestring, ".."))
        bad = ".raw: expected a file name inside the golden's folder";
    if (bad) {
        snprintf(why, why_size, "files[%d]%s", k, bad);
        return 0;
    }
    if ((bad = vks__json_duplicate_key(o)) != NULL) { /* cJSON would read the first */
        snprintf(why, why_size, "files[%d]: the key \"%.40s\" is given twice", k, bad);
        return 0;
    }
    snprintf(e->path, sizeof e->path, "%s", file->valuestring);
    e->hash = strtoull(hash->valuestring, NULL, 16);
    e->vertices = (uint32_t)verts->valuedouble, e->poses = (uint32_t)poses->valuedouble;
    snprintf(e->raw, sizeof e->raw, "%s", raw->valuestring);
    return 1;
}

int vks__golden_parse(const char *bytes, size_t size, vgold_doc *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    cJSON *root = cJSON_ParseWithLength(bytes, size);
    if (!root) {
        const char *at = cJSON_GetErrorPtr();
        size_t off = at && at >= bytes && at <= bytes + size ? (size_t)(at - bytes) : 0;
        snprintf(why, why_size, "not JSON (at byte %zu)", off);
        return 0;
    }
    const cJSON *files = cJSON_GetObjectItemCaseSensitive(root, "files");
    const cJSON *spec = cJSON_GetObjectItemCaseSensitive(root, "pose_spec");
    int ok = 0;
    const char *dup = NULL;
    if (!cJSON_IsObject(root))
        snprintf(why, why_size, "expected an object with \"files\" and \"pose_spec\"");
    else if ((dup = vks__json_duplicate_key(root)) != NULL)
        snprintf(why, why_size, "the key \"%.40s\" is given twice", dup);
    else if (!cJSON_IsString(spec))
        snprintf(why, why_size, "pose_spec: expected a string");
    else if (!cJSON_IsArray(files) || cJSON_GetArraySize(files) > 65536)
        snprintf(why, why_size, "files: expected an array (of at most 65536 files)");
    else if (!(out->pose_spec = strdup(spec->valuestring)) ||
             !(out->files = calloc((size_t)cJSON_GetArraySize(files) + 1, sizeof *out->files)))
        snprintf(why, why_size, "out of memory");
    else {
        ok = 1;
        for (const cJSON *e = files->child; e && ok; e = e->next, out->count++)
            ok = entry(e, out->count, &out->files[out->count], why, why_size);
    }
    cJSON_Delete(root);
    if (!ok)
        vks__golden_doc_free(out);
    return ok;
}

void vks__golden_doc_free(vgold_doc *d)
{
    free(d->pose_spec);
    free(d->files);
    memset(d, 0, sizeof *d);
}
