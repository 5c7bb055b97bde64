/* The lossless meshopt packer of meshopt_pack.h. */
#include "meshopt_pack.h"

#include <cjson/cJSON.h>
#include <meshoptimizer.h>
#include <stdlib.h>
#include <string.h>

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int num(const cJSON *o, const char *name, int dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsNumber(v) ? v->valueint : dflt;
}

/* Per view: the index size (1, 2, 4) when a primitive's indices use it, else 0. */
static int *index_views(const cJSON *json, int views)
{
    int *isz = calloc((size_t)views + 1, sizeof *isz);
    const cJSON *acc = cJSON_GetObjectItemCaseSensitive(json, "accessors"), *m;
    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(json, "meshes"))
    {
        const cJSON *p;
        cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(m, "primitives"))
        {
            const cJSON *a = cJSON_GetArrayItem(acc, num(p, "indices", -1));
            int v = num(a, "bufferView", -1), t = num(a, "componentType", 0);
            if (a && v >= 0 && v < views)
                isz[v] = t == 5121 ? 1 : t == 5123 ? 2 : 4;
        }
    }
    return isz;
}

/* Encodes len bytes as indices of size isz: the data (malloc), *n its size, *count, or NULL. */
static uint8_t *encode_indices(const uint8_t *b, size_t len, int isz, int triangles, size_t *n, int *count,
                               const char **mode)
{
    if (isz == 1 || len % (size_t)isz)
        return NULL;
    size_t c = len / (size_t)isz;
    uint32_t *ix = malloc(c * sizeof *ix + 4), top = 0;
    for (size_t i = 0; i < c; i++) {
        ix[i] = isz == 2 ? (uint32_t)(b[2 * i] | b[2 * i + 1] << 8) : rd32(b + 4 * i);
        top = ix[i] > top ? ix[i] : top;
    }
    int tri = triangles && c % 3 == 0;
    size_t cap = tri ? meshopt_encodeIndexBufferBound(c, top + 1) : meshopt_encodeIndexSequenceBound(c, top + 1);
    uint8_t *out = malloc(cap);
    *n = tri ? meshopt_encodeIndexBuffer(out, cap, ix, c) : meshopt_encodeIndexSequence(out, cap, ix, c);
    *count = (int)c;
    *mode = tri ? "TRIANGLES" : "INDICES";
    free(ix);
    return out;
}

/* Encodes len bytes as vertices of stride bytes (zero-padded to whole elements). */
static uint8_t *encode_vertices(const uint8_t *b, size_t len, int stride, size_t *n, int *count)
{
    if (stride % 4 || stride > 256 || stride == 0)
        return NULL;
    size_t c = (len + (size_t)stride - 1) / (size_t)stride;
    uint8_t *padded = calloc(c, (size_t)stride);
    memcpy(padded, b, len);
    size_t cap = meshopt_encodeVertexBufferBound(c, (size_t)stride);
    uint8_t *out = malloc(cap);
    *n = meshopt_encodeVertexBuffer(out, cap, padded, c, (size_t)stride);
    *count = (int)c;
    free(padded);
    return out;
}

static void append(uint8_t **bin, size_t *size, const uint8_t *data, size_t n)
{
    *bin = realloc(*bin, *size + n + 4);
    memcpy(*bin + *size, data, n);
    *size += n;
    while (*size % 4)
        (*bin)[(*size)++] = 0;
}

static uint8_t *write_glb(const cJSON *json, const uint8_t *bin, size_t bin_size, size_t *out_size)
{
    char *text = cJSON_PrintUnformatted(json);
    size_t jl = strlen(text), jp = (jl + 3) / 4 * 4;
    *out_size = 12 + 8 + jp + 8 + bin_size;
    uint8_t *g = calloc(1, *out_size);
    uint32_t head[] = {0x46546C67u, 2, (uint32_t)*out_size, (uint32_t)jp, 0x4E4F534Au};
    memcpy(g, head, sizeof head);
    memcpy(g + 20, text, jl);
    memset(g + 20 + jl, ' ', jp - jl);
    uint32_t bh[] = {(uint32_t)bin_size, 0x004E4942u};
    memcpy(g + 20 + jp, bh, sizeof bh);
    memcpy(g + 28 + jp, bin, bin_size);
    free(text);
    return g;
}

uint8_t *meshopt_pack_glb(const uint8_t *glb, size_t size, const char *ext_name, int triangles, size_t *out_size)
{
    if (size < 28 || memcmp(glb, "glTF", 4))
        return NULL;
    uint32_t jl = rd32(glb + 12);
    if (20 + (size_t)jl + 8 > size)
        return NULL;
    const uint8_t *bin = glb + 20 + jl + 8;
    cJSON *json = cJSON_ParseWithLength((const char *)glb + 20, jl);
    cJSON *views = cJSON_GetObjectItemCaseSensitive(json, "bufferViews");
    int nv = cJSON_GetArraySize(views), *isz = index_views(json, nv), i = 0;
    uint8_t *nbin = NULL;
    size_t nbin_size = 0, fallback = 4;
    cJSON *v;
    cJSON_ArrayForEach(v, views)
    {
        int off = num(v, "byteOffset", 0), len = num(v, "byteLength", 0), st = num(v, "byteStride", 0), count = 0;
        size_t n = 0;
        const char *mode = "ATTRIBUTES";
        uint8_t *enc = isz[i] ? encode_indices(bin + off, (size_t)len, isz[i], triangles, &n, &count, &mode)
                              : len % 4 == 0 || st ? encode_vertices(bin + off, (size_t)len, st ? st : 4, &n, &count)
                                                   : NULL;
        int stride = isz[i] ? isz[i] : st ? st : 4;
        if (!enc) { /* stays plain, in the new BIN */
            cJSON_ReplaceItemInObject(v, "byteOffset", cJSON_CreateNumber((double)nbin_size));
            append(&nbin, &nbin_size, bin + off, (size_t)len);
        } else {
            cJSON *e = cJSON_CreateObject(), *exts = cJSON_CreateObject();
            cJSON_AddNumberToObject(e, "buffer", 0);
            cJSON_AddNumberToObject(e, "byteOffset", (double)nbin_size);
            cJSON_AddNumberToObject(e, "byteLength", (double)n);
            cJSON_AddNumberToObject(e, "byteStride", stride);
            cJSON_AddNumberToObject(e, "count", count);
            cJSON_AddStringToObject(e, "mode", mode);
            cJSON_AddItemToObject(exts, ext_name, e);
            cJSON_AddItemToObject(v, "extensions", exts);
            cJSON_ReplaceItemInObject(v, "buffer", cJSON_CreateNumber(1));
            cJSON_ReplaceItemInObject(v, "byteLength", cJSON_CreateNumber((double)count * stride));
            fallback = (size_t)off + (size_t)count * (size_t)stride > fallback ? (size_t)off + (size_t)count * (size_t)stride
                                                                                  : fallback;
            append(&nbin, &nbin_size, enc, n);
            free(enc);
        }
        i++;
    }
    cJSON *buffers = cJSON_CreateArray(), *fb = cJSON_CreateObject(), *fe = cJSON_CreateObject(), *ff = cJSON_CreateObject();
    cJSON *b0 = cJSON_CreateObject();
    cJSON_AddNumberToObject(b0, "byteLength", (double)nbin_size);
    cJSON_AddNumberToObject(fb, "byteLength", (double)fallback);
    cJSON_AddBoolToObject(ff, "fallback", 1);
    cJSON_AddItemToObject(fe, ext_name, ff);
    cJSON_AddItemToObject(fb, "extensions", fe);
    cJSON_AddItemToArray(buffers, b0);
    cJSON_AddItemToArray(buffers, fb);
    cJSON_ReplaceItemInObject(json, "buffers", buffers);
    const char *lists[] = {"extensionsUsed", "extensionsRequired"};
    for (int k = 0; k < 2; k++) {
        cJSON *l = cJSON_GetObjectItemCaseSensitive(json, lists[k]);
        if (!l)
            cJSON_AddItemToObject(json, lists[k], l = cJSON_CreateArray());
        cJSON_AddItemToArray(l, cJSON_CreateString(ext_name));
    }
    uint8_t *out = write_glb(json, nbin, nbin_size, out_size);
    cJSON_Delete(json);
    free(isz);
    free(nbin);
    return out;
}
