/* The files a glTF names beside itself (registry.h's side_files, vks_list_side_files): its
 * external buffers, which the reader reads, and the images it names by URI, which outputs
 * keep by name. Each URI is resolved by the reader's own rule (gltf_uri.c), so the list is
 * what a read touches: a URI the reader would refuse is not listed. Only the JSON is read: a
 * .glb's header and JSON chunk on the file system, not its BIN chunk. */
#include <stdio.h>
#include <string.h>

#include "formats/registry.h"
#include "gltf_internal.h"

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The document's JSON text (through o's allocator, NUL-terminated), or NULL. */
static char *json_text(const vks_read_options *o, const char *path)
{
    const vks_allocator *a = &o->allocator;
    unsigned char head[20];
    long n = vks__file_read_prefix(o, path, head, sizeof head);
    if (n == (long)sizeof head && !memcmp(head, "glTF", 4)) {
        uint32_t len = le32(head + 12);
        if (memcmp(head + 16, "JSON", 4) || len > o->file.max_size)
            return NULL;
        char *all = a->alloc(a->user, (size_t)len + 21);
        if (!all)
            return NULL;
        long got = vks__file_read_prefix(o, path, all, (size_t)len + 20);
        if (got != (long)len + 20) {
            a->free(a->user, all);
            return NULL;
        }
        memmove(all, all + 20, len);
        all[len] = 0;
        return all;
    }
    void *bytes = NULL;
    size_t size = 0;
    if (n < 0 || vks__file_read(o, path, &bytes, &size, NULL) != VKS_OK)
        return NULL;
    char *text = a->alloc(a->user, size + 1);
    if (text) {
        memcpy(text, bytes, size);
        text[size] = 0;
    }
    vks__file_release(o, bytes);
    return text;
}

static void visit_uris(const vks_read_options *o, const char *path, const cJSON *list, const char *what,
                       vks_side_file_fn visit, void *user)
{
    uint32_t i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, list) {
        const cJSON *uri = cJSON_GetObjectItemCaseSensitive(item, "uri");
        if (cJSON_IsString(uri) && strncmp(uri->valuestring, "data:", 5)) {
            char *file = NULL, why[160], name[48];
            if (vks__gltfr_resolve_uri(o, path, uri->valuestring, &file, why, sizeof why) == VKS_OK) {
                snprintf(name, sizeof name, "%s[%u]", what, i);
                visit(user, file, name);
                o->allocator.free(o->allocator.user, file);
            }
        }
        i++;
    }
}

vks_result vks__gltfr_side_files(const vks_read_options *o, const char *path, vks_side_file_fn visit, void *user,
                                 vks_error *err)
{
    (void)err;
    char *text = json_text(o, path);
    if (!text)
        return VKS_OK;
    cJSON *doc = cJSON_Parse(text);
    o->allocator.free(o->allocator.user, text);
    if (!cJSON_IsObject(doc)) {
        cJSON_Delete(doc);
        return VKS_OK;
    }
    visit_uris(o, path, cJSON_GetObjectItemCaseSensitive(doc, "buffers"), "buffers", visit, user);
    visit_uris(o, path, cJSON_GetObjectItemCaseSensitive(doc, "images"), "images", visit, user);
    cJSON_Delete(doc);
    return VKS_OK;
}
