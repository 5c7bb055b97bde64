/* The glTF document: a .glb's header and chunks, the JSON, the top-level arrays, the node
 * forest (every child index valid, one parent per node, no cycle) and the node names that the
 * model and the clips share. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_keys.h"
#include "gltf_internal.h"

void *vks__gltfr_alloc(gltf_doc *d, size_t count, size_t elem)
{
    const vks_allocator *a = &d->opt.allocator;
    if (count == 0)
        count = 1;
    if (elem && count > SIZE_MAX / 4 / elem)
        return NULL;
    void **slot = vks__vec_push(&d->temps, a, 1);
    if (!slot)
        return NULL;
    void *p = a->alloc(a->user, count * elem);
    if (!p) {
        d->temps.count--;
        return NULL;
    }
    memset(p, 0, count * elem);
    *slot = p;
    return p;
}

vks_result vks__gltfr_fail(gltf_doc *d, vks_result code, const char *path, const char *fmt, ...)
{
    char msg[192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return vks_error_set(d->err, code, VKS_NO_OFFSET, path, "%s", msg);
}

vks_result vks__gltfr_fail_at(gltf_doc *d, vks_result code, const uint8_t *p, const char *path, const char *fmt, ...)
{
    char msg[192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* compared as addresses: p may point into another block (an external .bin) */
    uintptr_t at = (uintptr_t)p, base = (uintptr_t)d->input;
    uint64_t offset = at >= base && at - base < d->input_size ? (uint64_t)(at - base) : VKS_NO_OFFSET;
    return vks_error_set(d->err, code, offset, path, "%s", msg);
}

vks_result vks__gltfr_nomem(gltf_doc *d, const char *path)
{
    return vks__gltfr_fail(d, VKS_ERR_NOMEM, path, "out of memory");
}

const cJSON *vks__gltfr_item(const cJSON *arr, uint32_t i)
{
    const cJSON *it = arr ? arr->child : NULL;
    for (uint32_t k = 0; it && k < i; k++)
        it = it->next;
    return it;
}

vks_result vks__gltfr_get_uint(gltf_doc *d, const cJSON *obj, const char *path, const char *name, int required,
                         uint64_t max, uint64_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (!v) {
        if (required)
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "required member \"%s\" is missing", name);
        return VKS_OK;
    }
    double x = v->valuedouble;
    /* range before the cast: a double past uint64_t does not convert */
    if (!cJSON_IsNumber(v) || !(x >= 0) || x > (double)max || x != (double)(uint64_t)x)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "%s must be an integer in 0..%llu (found %s%s%.17g)", name,
                         (unsigned long long)max, vks__json_kind(v), cJSON_IsNumber(v) ? " " : "", cJSON_IsNumber(v) ? x : 0.0);
    *out = (uint64_t)x;
    return VKS_OK;
}

vks_result vks__gltfr_get_index(gltf_doc *d, const cJSON *obj, const char *path, const char *name, int required,
                          uint32_t limit, const char *what, int32_t *out)
{
    uint64_t v = UINT64_MAX;
    vks_result r = vks__gltfr_get_uint(d, obj, path, name, required, UINT32_MAX, &v);
    if (r != VKS_OK || v == UINT64_MAX)
        return r;
    if (v >= limit)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "%s %llu is out of range (the file has %u %s)", name,
                         (unsigned long long)v, limit, what);
    *out = (int32_t)v;
    return VKS_OK;
}

vks_result vks__gltfr_get_floats(gltf_doc *d, const cJSON *obj, const char *path, const char *name, uint32_t n, float *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (!v)
        return VKS_OK;
    if (!cJSON_IsArray(v) || (uint32_t)cJSON_GetArraySize(v) != n)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "%s must be an array of %u numbers", name, n);
    uint32_t i = 0;
    for (const cJSON *e = v->child; e; e = e->next, i++) {
        float f = (float)e->valuedouble;
        if (!cJSON_IsNumber(e) || f - f != 0)
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "%s[%u] must be a finite number", name, i);
        out[i] = f;
    }
    return VKS_OK;
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static vks_result glb_fail(gltf_doc *d, uint64_t offset, const char *what, const char *fmt, uint64_t a, uint64_t b)
{
    char msg[160];
    snprintf(msg, sizeof msg, fmt, (unsigned long long)a, (unsigned long long)b);
    return vks_error_set(d->err, VKS_ERR_FORMAT, offset, what, "%s", msg);
}

/* GLB: a 12-byte header (magic, version 2, total length) and chunks of (length, type, data),
 * the JSON chunk first, then an optional BIN chunk; chunks of other types are skipped as the
 * specification asks. Every length is checked against the bytes left. */
static vks_result glb_split(gltf_doc *d, const uint8_t *b, size_t size, const char **json, size_t *json_size)
{
    if (size < 12)
        return glb_fail(d, 0, "glb/header", "file of %llu bytes is shorter than the 12-byte header%.0llu", size, 0);
    uint32_t version = rd32(b + 4), length = rd32(b + 8);
    if (version != 2)
        return glb_fail(d, 4, "glb/header", "version %llu, expected 2%.0llu", version, 0);
    if (length != size)
        return glb_fail(d, 8, "glb/header", "length %llu, but the file has %llu bytes", length, size);
    size_t at = 12;
    for (uint32_t chunk = 0; at < size; chunk++) {
        char where[32];
        snprintf(where, sizeof where, "glb/chunk[%u]", chunk);
        if (size - at < 8)
            return glb_fail(d, at, where, "%llu bytes left, a chunk header needs 8%.0llu", size - at, 0);
        uint32_t n = rd32(b + at), type = rd32(b + at + 4);
        if (n > size - at - 8)
            return glb_fail(d, at, where, "chunk length %llu, but only %llu bytes follow", n, size - at - 8);
        if (n % 4)
            return glb_fail(d, at, where, "chunk length %llu is not a multiple of 4%.0llu", n, 0);
        if (chunk == 0 && type != 0x4E4F534Au)
            return glb_fail(d, at + 4, where, "first chunk has type 0x%08llx, expected JSON (0x4e4f534a)%.0llu", type, 0);
        if (chunk == 0) {
            *json = (const char *)b + at + 8;
            *json_size = n;
        } else if (chunk == 1 && type == 0x004E4942u) {
            d->bin = b + at + 8;
            d->bin_size = n;
        } else if (type == 0x4E4F534Au || type == 0x004E4942u) {
            return glb_fail(d, at + 4, where, "a second JSON or BIN chunk (type 0x%08llx)%.0llu", type, 0);
        }
        at += 8 + (size_t)n;
    }
    if (!*json)
        return glb_fail(d, 12, "glb/chunk[0]", "no JSON chunk%.0llu%.0llu", 0, 0);
    return VKS_OK;
}

static vks_result check_array(gltf_doc *d, const char *name, const cJSON **out, uint32_t *count, const cJSON ***at)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(d->json, name);
    *out = NULL;
    if (count)
        *count = 0;
    if (at)
        *at = NULL;
    if (!v)
        return VKS_OK;
    if (!cJSON_IsArray(v))
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, name, "must be an array (found %s)", vks__json_kind(v));
    int i = 0;
    for (const cJSON *e = v->child; e; e = e->next, i++)
        if (!cJSON_IsObject(e))
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, name, "element %d must be an object (found %s)", i, vks__json_kind(e));
    *out = v;
    if (count)
        *count = (uint32_t)i;
    if (at) {
        if (!(*at = vks__gltfr_alloc(d, (size_t)i, sizeof **at)))
            return vks__gltfr_nomem(d, name);
        i = 0;
        for (const cJSON *e = v->child; e; e = e->next)
            (*at)[i++] = e;
    }
    return VKS_OK;
}

/* extensionsRequired: quantization is read, and geometry compression is decoded (meshopt per
 * bufferView, Draco per primitive); extensions about materials, textures and lights do not
 * touch skinning and are allowed; any other is refused, naming it. */
static int is_geometry_extension(const char *s)
{
    return !strcmp(s, "KHR_mesh_quantization") || !strcmp(s, "EXT_meshopt_compression") ||
           !strcmp(s, "KHR_meshopt_compression") || !strcmp(s, "KHR_draco_mesh_compression");
}

static void note_extension(gltf_doc *d, const cJSON *e)
{
    if (cJSON_IsString(e) && !strcmp(e->valuestring, "KHR_mesh_quantization"))
        d->quantized = 1;
    if (cJSON_IsString(e) && !strcmp(e->valuestring, "KHR_draco_mesh_compression"))
        d->draco = 1;
}

/* "; EXT_meshopt_compression, KHR_mesh_quantization": the geometry extensions the file uses,
 * which inspect shows after the generator (empty when none). */
static void geometry_extensions(const gltf_doc *d, char *out, size_t cap)
{
    const cJSON *used = cJSON_GetObjectItemCaseSensitive(d->json, "extensionsUsed");
    size_t at = 0;
    out[0] = 0;
    for (const cJSON *e = used ? used->child : NULL; e; e = e->next)
        if (cJSON_IsString(e) && is_geometry_extension(e->valuestring) && at < cap)
            at += (size_t)snprintf(out + at, cap - at, "%s%s", at ? ", " : "; ", e->valuestring);
}

static vks_result check_extensions(gltf_doc *d)
{
    const cJSON *req = cJSON_GetObjectItemCaseSensitive(d->json, "extensionsRequired");
    const cJSON *used = cJSON_GetObjectItemCaseSensitive(d->json, "extensionsUsed");
    for (const cJSON *e = used ? used->child : NULL; e; e = e->next)
        note_extension(d, e);
    int i = 0;
    for (const cJSON *e = req ? req->child : NULL; e; e = e->next, i++) {
        const char *s = cJSON_IsString(e) ? e->valuestring : "";
        note_extension(d, e);
        if (is_geometry_extension(s) || !strncmp(s, "KHR_materials_", 14) ||
            !strncmp(s, "KHR_texture_", 12) || !strncmp(s, "EXT_texture_", 12) || !strcmp(s, "KHR_lights_punctual"))
            continue;
        char path[48];
        snprintf(path, sizeof path, "extensionsRequired[%d]", i);
        return vks__gltfr_fail(d, VKS_ERR_UNSUPPORTED, path, "required extension \"%.60s\" is not supported", s);
    }
    return VKS_OK;
}

/* Parents from the children lists: each child index in range, not the node itself, and no
 * node a child twice; then no cycle (one parent each, so a cycle is a way up that never
 * reaches a root). */
static vks_result node_forest(gltf_doc *d)
{
    uint32_t n = d->node_count;
    d->parent = vks__gltfr_alloc(d, n, sizeof *d->parent);
    if (!d->parent)
        return vks__gltfr_nomem(d, "nodes");
    for (uint32_t i = 0; i < n; i++)
        d->parent[i] = -1;
    char path[48];
    for (uint32_t i = 0; i < n; i++) {
        const cJSON *ch = cJSON_GetObjectItemCaseSensitive(d->node_at[i], "children");
        if (!ch)
            continue;
        snprintf(path, sizeof path, "nodes[%u].children", i);
        if (!cJSON_IsArray(ch))
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "must be an array");
        uint32_t k = 0;
        for (const cJSON *c = ch->child; c; c = c->next, k++) {
            double x = c->valuedouble;
            if (!cJSON_IsNumber(c) || !(x >= 0) || x >= n || x != (double)(uint32_t)x)
                return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "[%u] is not a node index (the file has %u nodes)", k, n);
            uint32_t child = (uint32_t)x;
            if (child == i)
                return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "[%u]: node %u is its own child", k, i);
            if (d->parent[child] >= 0)
                return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "[%u]: node %u already has parent %d (the nodes must form a forest)",
                                 k, child, d->parent[child]);
            d->parent[child] = (int32_t)i;
        }
    }
    /* each node's way up, marked as walked (1) until it meets a root or a node already known
       to reach one (2): meeting a 1 again is a cycle. O(nodes) in all. */
    uint8_t *state = vks__gltfr_alloc(d, n, 1);
    if (!state)
        return vks__gltfr_nomem(d, "nodes");
    for (uint32_t s = 0; s < n; s++) {
        int32_t p = (int32_t)s;
        while (p >= 0 && state[p] == 0) {
            state[p] = 1;
            p = d->parent[p];
        }
        if (p >= 0 && state[p] == 1) {
            snprintf(path, sizeof path, "nodes[%d]", p);
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "is in a cycle of children (the nodes must form a forest)");
        }
        for (p = (int32_t)s; p >= 0 && state[p] == 1; p = d->parent[p])
            state[p] = 2;
    }
    return VKS_OK;
}

static int cmp_names(const void *a, const void *b, void *names)
{
    const char **nm = names;
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    int c = strcmp(nm[x], nm[y]);
    return c ? c : (x > y) - (x < y);
}

/* Sorts idx by (name, index): a small insertion-merge sort, since qsort has no user pointer. */
static void sort_by_name(uint32_t *idx, uint32_t *tmp, uint32_t n, const char **names)
{
    for (uint32_t w = 1; w < n; w *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * w) {
            uint32_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            uint32_t a = lo, b = mid, o = lo;
            while (a < mid && b < hi)
                tmp[o++] = cmp_names(&idx[a], &idx[b], names) <= 0 ? idx[a++] : idx[b++];
            while (a < mid)
                tmp[o++] = idx[a++];
            while (b < hi)
                tmp[o++] = idx[b++];
        }
        memcpy(idx, tmp, n * sizeof *idx);
    }
}

/* Clips bind to skin nodes by name, so every node needs one that is its own: an unnamed node
 * is called by its JSON path ("nodes[2]"), and a name that several nodes share keeps its
 * first holder and becomes "name (nodes[7])" for the others. The model and the clip reader
 * both name nodes here, so a file's own clips always find their nodes. */
static vks_result node_names(gltf_doc *d)
{
    uint32_t n = d->node_count;
    d->names = vks__gltfr_alloc(d, n, sizeof *d->names);
    uint32_t *idx = vks__gltfr_alloc(d, n, sizeof *idx), *tmp = vks__gltfr_alloc(d, n, sizeof *tmp);
    if (!d->names || !idx || !tmp)
        return vks__gltfr_nomem(d, "nodes");
    uint32_t i = 0;
    for (const cJSON *node = d->nodes ? d->nodes->child : NULL; node; node = node->next, i++) {
        const cJSON *nm = cJSON_GetObjectItemCaseSensitive(node, "name");
        if (nm && cJSON_IsString(nm) && nm->valuestring[0]) {
            d->names[i] = nm->valuestring;
        } else {
            char *s = vks__gltfr_alloc(d, 24, 1);
            if (!s)
                return vks__gltfr_nomem(d, "nodes");
            snprintf(s, 24, "nodes[%u]", i);
            d->names[i] = s;
        }
        idx[i] = i;
    }
    sort_by_name(idx, tmp, n, d->names);
    for (uint32_t k = 1; k < n; k++) {
        if (strcmp(d->names[idx[k]], d->names[idx[k - 1]]))
            continue;
        size_t len = strlen(d->names[idx[k]]) + 24;
        char *s = vks__gltfr_alloc(d, len, 1);
        if (!s)
            return vks__gltfr_nomem(d, "nodes");
        snprintf(s, len, "%s (nodes[%u])", d->names[idx[k]], idx[k]);
        d->names[idx[k]] = s;
    }
    return VKS_OK;
}

vks_result vks__gltfr_doc_open(gltf_doc *d, const vks_read_options *opt, const void *bytes, size_t size, vks_error *err)
{
    memset(d, 0, sizeof *d);
    d->opt = vks_read_options_defaults(opt);
    d->err = err;
    d->temps.elem = sizeof(void *);
    d->files_bytes = size; /* the model's own bytes open the budget its external files share */
    const uint8_t *b = bytes ? bytes : (const uint8_t *)"";
    d->input = b;
    d->input_size = size;
    const char *json = (const char *)b;
    size_t json_size = size;
    uint64_t json_at = 0;
    if (size >= 4 && !memcmp(b, "glTF", 4)) {
        d->glb = 1;
        json = NULL;
        vks_result r = glb_split(d, b, size, &json, &json_size);
        if (r != VKS_OK)
            return r;
        json_at = (uint64_t)(json - (const char *)b);
    }
    if (json_size >= 3 && !memcmp(json, "\xEF\xBB\xBF", 3)) /* a BOM the specification forbids, harmless */
        json += 3, json_size -= 3, json_at += 3;
    /* parsed from a NUL-terminated copy, so that no parser path can look past the chunk */
    char *text = vks__gltfr_alloc(d, json_size + 1, 1);
    if (!text)
        return vks__gltfr_nomem(d, "json");
    memcpy(text, json, json_size);
    const char *end = NULL;
    d->json = cJSON_ParseWithLengthOpts(text, json_size, &end, 0);
    if (!d->json) {
        uint64_t at = end && end >= text ? (uint64_t)(end - text) : 0;
        return vks_error_set(err, VKS_ERR_FORMAT, end ? json_at + at : VKS_NO_OFFSET, d->glb ? "glb/json" : "json",
                             "not valid JSON%s", end ? " (parse stopped here)" : "");
    }
    if (!cJSON_IsObject(d->json))
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, "json", "the document must be a JSON object");
    const cJSON *asset = cJSON_GetObjectItemCaseSensitive(d->json, "asset");
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(asset, "version");
    if (!cJSON_IsObject(asset) || !cJSON_IsString(ver))
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, "asset", "required asset.version is missing");
    if (strncmp(ver->valuestring, "2.", 2))
        return vks__gltfr_fail(d, VKS_ERR_UNSUPPORTED, "asset.version", "\"%.20s\", vkskin reads glTF 2.x",
                         ver->valuestring);
    const cJSON *gen = cJSON_GetObjectItemCaseSensitive(asset, "generator");
    char geometry[64];
    geometry_extensions(d, geometry, sizeof geometry);
    snprintf(d->detail, sizeof d->detail, "glTF %.8s%s%s%.48s%s)", ver->valuestring, d->glb ? " (.glb" : " (.gltf",
             cJSON_IsString(gen) ? ", " : "", cJSON_IsString(gen) ? gen->valuestring : "", geometry);
    vks_result r = check_extensions(d);
    const cJSON *buffers = NULL;
    if (r == VKS_OK)
        r = check_array(d, "nodes", &d->nodes, &d->node_count, &d->node_at);
    if (r == VKS_OK)
        r = check_array(d, "meshes", &d->meshes, &d->mesh_count, &d->mesh_at);
    if (r == VKS_OK)
        r = check_array(d, "skins", &d->skins, &d->skin_count, &d->skin_at);
    if (r == VKS_OK)
        r = check_array(d, "accessors", &d->accessors, &d->accessor_count, &d->accessor_at);
    if (r == VKS_OK)
        r = check_array(d, "bufferViews", &d->views, &d->view_count, &d->view_at);
    if (r == VKS_OK)
        r = check_array(d, "animations", &d->animations, NULL, NULL);
    if (r == VKS_OK)
        r = check_array(d, "buffers", &buffers, &d->buffer_count, &d->buffer_at);
    if (r != VKS_OK)
        return r;
    if (d->node_count > d->opt.max_nodes)
        return vks__gltfr_fail(d, VKS_ERR_LIMIT, "nodes", "%u nodes exceed the limit %u", d->node_count, d->opt.max_nodes);
    d->buffers = vks__gltfr_alloc(d, d->buffer_count, sizeof *d->buffers);
    if (!d->buffers)
        return vks__gltfr_nomem(d, "buffers");
    if ((r = node_forest(d)) != VKS_OK)
        return r;
    return node_names(d);
}

void vks__gltfr_doc_free(gltf_doc *d)
{
    const vks_allocator *a = &d->opt.allocator;
    for (uint32_t i = 0; d->buffers && i < d->buffer_count; i++)
        if (d->buffers[i].file_bytes)
            vks__file_release(&d->opt, d->buffers[i].file_bytes);
    for (uint32_t i = 0; d->buffers && i < d->buffer_count; i++)
        if (d->buffers[i].file)
            a->free(a->user, d->buffers[i].file);
    void **t = d->temps.data;
    for (size_t i = 0; i < d->temps.count; i++)
        a->free(a->user, t[i]);
    vks__vec_free(&d->temps, a);
    cJSON_Delete(d->json);
    memset(d, 0, sizeof *d);
}
