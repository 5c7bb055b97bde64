/* The glTF document builder and its two containers (gltf_internal.h): typed arrays appended to
 * one binary buffer as views and accessors, the JSON tree, and the GLB or data-URI output. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"
#include "vkskin/output.h"
#include "vkskin/version.h"

static cJSON *add_array(vks__gltf *g, const char *name)
{
    cJSON *a = cJSON_AddArrayToObject(g->root, name);
    if (!a)
        g->failed = 1;
    return a;
}

int vks__gltf_init(vks__gltf *g, const char *generator)
{
    memset(g, 0, sizeof *g);
    g->root = cJSON_CreateObject();
    if (!g->root)
        return 0;
    cJSON *asset = cJSON_AddObjectToObject(g->root, "asset");
    char gen[64];
    snprintf(gen, sizeof gen, "vkskin %s", vks_version_string());
    if (!asset || !cJSON_AddStringToObject(asset, "version", "2.0") ||
        !cJSON_AddStringToObject(asset, "generator", generator ? generator : gen) ||
        !cJSON_AddNumberToObject(g->root, "scene", 0))
        g->failed = 1;
    cJSON *scenes = add_array(g, "scenes"), *scene = cJSON_CreateObject();
    if (!scenes || !scene || !cJSON_AddItemToArray(scenes, scene)) {
        cJSON_Delete(scenes ? NULL : scene);
        g->failed = 1;
        return 0;
    }
    g->scene_nodes = cJSON_AddArrayToObject(scene, "nodes");
    g->nodes = add_array(g, "nodes");
    g->meshes = add_array(g, "meshes");
    g->skins = add_array(g, "skins");
    g->animations = add_array(g, "animations");
    g->accessors = add_array(g, "accessors");
    g->views = add_array(g, "bufferViews");
    g->materials = add_array(g, "materials");
    g->textures = add_array(g, "textures");
    g->images = add_array(g, "images");
    g->samplers = add_array(g, "samplers");
    return !g->failed && g->scene_nodes;
}

void vks__gltf_free(vks__gltf *g)
{
    cJSON_Delete(g->root);
    vks_buf_free(&g->bin);
    memset(g, 0, sizeof *g);
}

/* cJSON counts an array by walking it, so an index per push would make a document of n
 * accessors (a morph bake: a few per frame) cost n^2/2 steps: 68 % of a 4000-frame glb.
 * The last few arrays pushed to keep their count and last item. A count goes on only when the
 * new item follows that item (nothing else was appended); a first item counts 1, so an array
 * freed and another allocated at its address starts afresh; anything else is counted anew.
 * Only pointers are compared: the item remembered may have been freed since. */
uint32_t vks__gltf_push(vks__gltf *g, cJSON *array, cJSON *item)
{
    if (!item || !array || !cJSON_AddItemToArray(array, item)) {
        cJSON_Delete(item);
        g->failed = 1;
        return 0;
    }
    vks__gltf_count *c = NULL;
    for (int i = 0; i < VKS__GLTF_COUNTS && !c; i++)
        if (g->counts[i].array == array)
            c = &g->counts[i];
    if (!c)
        c = &g->counts[g->counts_next++ % VKS__GLTF_COUNTS];
    if (array->child == item)
        c->count = 1;
    else if (c->array == array && item->prev == c->last)
        c->count++;
    else
        c->count = (uint32_t)cJSON_GetArraySize(array);
    c->array = array;
    c->last = item;
    return c->count - 1;
}

cJSON *vks__gltf_numbers(const float *v, int n)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; a && i < n; i++)
        if (!cJSON_AddItemToArray(a, cJSON_CreateNumber((double)v[i]))) {
            cJSON_Delete(a);
            return NULL;
        }
    return a;
}

/* A view over the bytes appended since start (4-byte aligned, as accessors need). */
static uint32_t add_view(vks__gltf *g, size_t start, int target)
{
    cJSON *v = cJSON_CreateObject();
    if (v) {
        cJSON_AddNumberToObject(v, "buffer", 0);
        cJSON_AddNumberToObject(v, "byteOffset", (double)start);
        cJSON_AddNumberToObject(v, "byteLength", (double)(g->bin.size - start));
        if (target)
            cJSON_AddNumberToObject(v, "target", target);
    }
    while (g->bin.size % 4)
        vks_buf_u8(&g->bin, 0);
    return vks__gltf_push(g, g->views, v);
}

/* An accessor over view; with lo and hi (comps values each), its min and max. */
static uint32_t add_accessor(vks__gltf *g, uint32_t view, int component, uint32_t count, const char *type,
                             const float *lo, const float *hi, int comps)
{
    cJSON *a = cJSON_CreateObject();
    if (a) {
        cJSON_AddNumberToObject(a, "bufferView", view);
        cJSON_AddNumberToObject(a, "componentType", component);
        cJSON_AddNumberToObject(a, "count", count);
        cJSON_AddStringToObject(a, "type", type);
        if (lo && hi) {
            cJSON *jl = vks__gltf_numbers(lo, comps), *jh = vks__gltf_numbers(hi, comps);
            int ok = jl && jh && cJSON_AddItemToObject(a, "min", jl);
            if (!ok)
                cJSON_Delete(jl);
            if (!ok || !cJSON_AddItemToObject(a, "max", jh)) {
                cJSON_Delete(jh);
                g->failed = 1;
            }
        }
    }
    return vks__gltf_push(g, g->accessors, a);
}

/* glTF's buffers are little-endian: on such a host an array's bytes are already the file's. */
static int host_little_endian(void)
{
    const uint16_t one = 1;
    return *(const uint8_t *)&one == 1;
}

static const char *type_of(int comps)
{
    return comps == 1 ? "SCALAR" : comps == 2 ? "VEC2" : comps == 3 ? "VEC3" : comps == 4 ? "VEC4" : "MAT4";
}

float *vks__gltf_floats_room(vks__gltf *g, uint32_t count, int comps)
{
    size_t n = (size_t)count * (size_t)comps;
    vks_buf_reserve(&g->bin, n * 4 + 4);
    /* the buffer's size is a multiple of 4 between arrays (add_view pads), so the room is
       aligned for floats */
    return g->bin.failed ? NULL : (float *)(void *)(g->bin.data + g->bin.size);
}

uint32_t vks__gltf_floats_placed(vks__gltf *g, uint32_t count, int comps, int target, int minmax)
{
    if (g->bin.failed) {
        g->failed = 1;
        return 0;
    }
    size_t start = g->bin.size, n = (size_t)count * (size_t)comps;
    const float *v = (const float *)(const void *)(g->bin.data + start);
    float lo[16], hi[16];
    if (minmax && count) { /* each component in order, without a division per value */
        for (int c = 0; c < comps; c++)
            lo[c] = hi[c] = v[c];
        for (size_t i = 0; i < count; i++)
            for (int c = 0; c < comps; c++) {
                float x = v[i * (size_t)comps + (size_t)c];
                lo[c] = x < lo[c] ? x : lo[c];
                hi[c] = x > hi[c] ? x : hi[c];
            }
    }
    if (!host_little_endian()) /* the bytes vks_buf_f32 writes */
        for (size_t i = 0; i < n; i++) {
            uint8_t *q = g->bin.data + start + i * 4, t0 = q[0], t1 = q[1];
            q[0] = q[3], q[1] = q[2], q[2] = t1, q[3] = t0;
        }
    g->bin.size += n * sizeof(float);
    uint32_t view = add_view(g, start, target);
    int bounds = minmax && count;
    return add_accessor(g, view, 5126, count, type_of(comps), bounds ? lo : NULL, bounds ? hi : NULL, comps);
}

uint32_t vks__gltf_floats(vks__gltf *g, const float *v, uint32_t count, int comps, int target, int minmax)
{
    float *room = vks__gltf_floats_room(g, count, comps);
    if (room && count)
        memcpy(room, v, (size_t)count * (size_t)comps * sizeof *v);
    return vks__gltf_floats_placed(g, count, comps, target, minmax);
}

uint32_t vks__gltf_joints(vks__gltf *g, const uint16_t (*j)[4], uint32_t count)
{
    int wide = 0;
    for (uint32_t i = 0; i < count; i++)
        for (int k = 0; k < 4; k++)
            wide |= j[i][k] > 255;
    size_t start = g->bin.size;
    vks_buf_reserve(&g->bin, (size_t)count * (wide ? 8 : 4) + 4);
    for (uint32_t i = 0; i < count; i++)
        for (int k = 0; k < 4; k++) {
            if (wide)
                vks_buf_u16(&g->bin, j[i][k]);
            else
                vks_buf_u8(&g->bin, (uint8_t)j[i][k]);
        }
    uint32_t view = add_view(g, start, VKS__GL_ARRAY_BUFFER);
    return add_accessor(g, view, wide ? 5123 : 5121, count, "VEC4", NULL, NULL, 0);
}

uint32_t vks__gltf_indices(vks__gltf *g, const uint32_t *idx, uint32_t count)
{
    size_t start = g->bin.size;
    vks_buf_reserve(&g->bin, (size_t)count * 4 + 4);
    if (host_little_endian())
        vks_buf_put(&g->bin, idx, (size_t)count * sizeof *idx);
    else
        for (uint32_t i = 0; i < count; i++)
            vks_buf_u32(&g->bin, idx[i]);
    uint32_t view = add_view(g, start, VKS__GL_ELEMENT_ARRAY_BUFFER);
    return add_accessor(g, view, 5125, count, "SCALAR", NULL, NULL, 0);
}

uint32_t vks__gltf_mesh_indices(vks__gltf *g, const vks_skin *s, uint32_t m)
{
    return vks__gltf_mesh_indices_of(g, s, m, -1);
}

uint32_t vks__gltf_mesh_indices_of(vks__gltf *g, const vks_skin *s, uint32_t m, int32_t material)
{
    const vks_mesh *me = &s->meshes[m];
    uint32_t *idx = malloc(((size_t)me->triangle_count * 3 + 1) * sizeof *idx), n = 0;
    if (!idx) {
        g->failed = 1;
        return 0;
    }
    for (uint32_t t = 0; t < me->triangle_count; t++) {
        uint32_t gt = me->first_triangle + t;
        if (material >= 0 && (s->triangle_material ? s->triangle_material[gt] : 0) != (uint32_t)material)
            continue;
        for (int k = 0; k < 3; k++)
            idx[n++] = s->source_vertex[me->first_vertex + s->triangles[gt][k]];
    }
    uint32_t acc = vks__gltf_indices(g, idx, n);
    free(idx);
    return acc;
}

uint32_t vks__gltf_bytes(vks__gltf *g, const uint8_t *bytes, size_t size)
{
    size_t start = g->bin.size;
    vks_buf_put(&g->bin, bytes, size);
    return add_view(g, start, 0);
}

int vks__gltf_unit(double x, double y, double z, float out[3])
{
    double l = sqrt(x * x + y * y + z * z);
    if (!(l > 1e-12) || !isfinite(l)) {
        out[0] = 0, out[1] = 1, out[2] = 0;
        return 0;
    }
    out[0] = (float)(x / l), out[1] = (float)(y / l), out[2] = (float)(z / l);
    return 1;
}

void vks__gltf_mat4(const vks_affine *a, float o[16])
{
    for (int col = 0; col < 4; col++) {
        for (int r = 0; r < 3; r++)
            o[col * 4 + r] = a->m[col * 3 + r];
        o[col * 4 + 3] = col == 3 ? 1.0f : 0.0f;
    }
}

cJSON *vks__gltf_extras(vks__gltf *g, const vks_affine *correction)
{
    float c16[16];
    vks__gltf_mat4(correction, c16);
    cJSON *extras = cJSON_AddObjectToObject(cJSON_GetObjectItemCaseSensitive(g->root, "asset"), "extras");
    cJSON *vk = extras ? cJSON_AddObjectToObject(extras, "vkskin") : NULL;
    if (!vk || !cJSON_AddItemToObject(vk, "correction", vks__gltf_numbers(c16, 16))) {
        g->failed = 1;
        return NULL;
    }
    return vk;
}

void vks__gltf_node_trs(cJSON *node, const vks_affine *a)
{
    float t[3], q[4], s[3];
    vks_affine_to_trs(a, t, q, s);
    double l = sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3]);
    for (int k = 0; k < 4 && l > 0; k++)
        q[k] = (float)(q[k] / l);
    if (t[0] != 0 || t[1] != 0 || t[2] != 0)
        cJSON_AddItemToObject(node, "translation", vks__gltf_numbers(t, 3));
    if (q[0] != 0 || q[1] != 0 || q[2] != 0 || q[3] != 1)
        cJSON_AddItemToObject(node, "rotation", vks__gltf_numbers(q, 4));
    if (s[0] != 1 || s[1] != 1 || s[2] != 1)
        cJSON_AddItemToObject(node, "scale", vks__gltf_numbers(s, 3));
}

/* Drops the arrays nothing was added to (the schema wants them absent rather than empty). */
static void drop_empty(cJSON *root)
{
    static const char *names[] = {"meshes",   "skins",    "animations", "nodes",   "accessors",
                                  "bufferViews", "materials", "textures",  "images", "samplers"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        cJSON *a = cJSON_GetObjectItemCaseSensitive(root, names[i]);
        if (a && cJSON_GetArraySize(a) == 0)
            cJSON_DeleteItemFromObjectCaseSensitive(root, names[i]);
    }
}

static int put_u32(FILE *f, uint32_t v)
{
    uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    return fwrite(x, 1, 4, f) == 4;
}

static char *base64(const uint8_t *p, size_t n)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc((n + 2) / 3 * 4 + 1), *o = out;
    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);
        *o++ = tab[v >> 18 & 63];
        *o++ = tab[v >> 12 & 63];
        *o++ = i + 1 < n ? tab[v >> 6 & 63] : '=';
        *o++ = i + 2 < n ? tab[v & 63] : '=';
    }
    *o = 0;
    return out;
}

int vks__gltf_emit(vks__gltf *g, FILE *f, vks_gltf_container container)
{
    if (g->failed || g->bin.failed)
        return 0;
    drop_empty(g->root);
    cJSON *buffers = cJSON_AddArrayToObject(g->root, "buffers"), *buf = cJSON_CreateObject();
    if (!buffers || !buf || !cJSON_AddItemToArray(buffers, buf)) {
        cJSON_Delete(buffers ? NULL : buf);
        return 0;
    }
    cJSON_AddNumberToObject(buf, "byteLength", (double)g->bin.size);
    if (container == VKS_GLTF_EMBEDDED) {
        char *b64 = base64(g->bin.data, g->bin.size);
        size_t n = b64 ? strlen(b64) : 0;
        char *uri = b64 ? malloc(n + 64) : NULL;
        if (uri) {
            memcpy(uri, "data:application/octet-stream;base64,", 37);
            memcpy(uri + 37, b64, n + 1);
        }
        free(b64);
        if (!uri || !cJSON_AddStringToObject(buf, "uri", uri)) {
            free(uri);
            return 0;
        }
        free(uri);
        char *text = cJSON_PrintUnformatted(g->root);
        int ok = text && fputs(text, f) >= 0 && fputc('\n', f) != EOF;
        free(text);
        return ok;
    }
    if (g->bin.size == 0) /* a GLB buffer without a BIN chunk would need a uri */
        cJSON_DeleteItemFromObjectCaseSensitive(g->root, "buffers");
    char *text = cJSON_PrintUnformatted(g->root);
    if (!text)
        return 0;
    size_t jn = strlen(text), jpad = (4 - jn % 4) % 4, bpad = (4 - g->bin.size % 4) % 4;
    uint64_t total = 12 + 8 + jn + jpad + (g->bin.size ? 8 + g->bin.size + bpad : 0);
    if (total > UINT32_MAX) {
        free(text);
        errno = EFBIG;
        return 0;
    }
    int ok = fwrite("glTF", 1, 4, f) == 4 && put_u32(f, 2) && put_u32(f, (uint32_t)total) &&
             put_u32(f, (uint32_t)(jn + jpad)) && fwrite("JSON", 1, 4, f) == 4 && fwrite(text, 1, jn, f) == jn &&
             fwrite("    ", 1, jpad, f) == jpad; /* the JSON chunk pads with spaces */
    free(text);
    if (ok && g->bin.size)
        ok = put_u32(f, (uint32_t)(g->bin.size + bpad)) && fwrite("BIN\0", 1, 4, f) == 4 &&
             fwrite(g->bin.data, 1, g->bin.size, f) == g->bin.size && fwrite("\0\0\0", 1, bpad, f) == bpad;
    return ok && !ferror(f);
}

vks_result vks__gltf_save(vks__gltf *g, const char *path, vks_gltf_container container, uint64_t *bytes,
                          vks_error *err)
{
    if (g->failed || g->bin.failed)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory building the glTF document");
    vks_output *o = NULL;
    vks_result r = vks_output_open(&o, path, err);
    if (r != VKS_OK)
        return r;
    FILE *f = vks_output_stream(o);
    errno = 0;
    if (!vks__gltf_emit(g, f, container)) {
        int e = errno ? errno : ENOMEM;
        vks_output_note_error(o, e);
        vks_output_close(o, 0, NULL);
        return vks_error_set(err, e == ENOMEM ? VKS_ERR_NOMEM : VKS_ERR_IO, VKS_NO_OFFSET, path,
                             "cannot write the glTF: %s", strerror(e));
    }
    long end = ftell(f);
    if (bytes)
        *bytes = end > 0 ? (uint64_t)end : 0;
    return vks_output_close(o, 1, err);
}
