/* gltf_fixture.h: hand-made glTF documents for the reader's tests. */
#include "gltf_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gltf_fx_view(gltf_fixture *g, const void *data, size_t len, int stride)
{
    while (g->n % 4)
        g->bin[g->n++] = 0;
    size_t off = g->n;
    if (off + len > sizeof g->bin)
        abort();
    memcpy(g->bin + off, data, len);
    g->n += len;
    size_t at = strlen(g->views);
    snprintf(g->views + at, sizeof g->views - at, "%s{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu", g->nv ? "," : "",
             off, len);
    at = strlen(g->views);
    if (stride)
        snprintf(g->views + at, sizeof g->views - at, ",\"byteStride\":%d", stride);
    strcat(g->views, "}");
    return g->nv++;
}

int gltf_fx_accessor(gltf_fixture *g, int view, int off, int ctype, int count, const char *type, const char *extra)
{
    size_t at = strlen(g->accessors);
    char v[48] = "";
    if (view >= 0)
        snprintf(v, sizeof v, "\"bufferView\":%d,\"byteOffset\":%d,", view, off);
    snprintf(g->accessors + at, sizeof g->accessors - at,
             "%s{%s\"componentType\":%d,\"count\":%d,\"type\":\"%s\"%s}", g->na ? "," : "", v, ctype, count, type,
             extra ? extra : "");
    return g->na++;
}

static size_t base64(const uint8_t *in, size_t n, char *out)
{
    static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t x = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0) | (i + 2 < n ? in[i + 2] : 0);
        out[o++] = a[x >> 18 & 63];
        out[o++] = a[x >> 12 & 63];
        out[o++] = i + 1 < n ? a[x >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? a[x & 63] : '=';
    }
    out[o] = 0;
    return o;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

uint8_t *gltf_fx_build(const gltf_fixture *g, const char *body, int glb, size_t *size)
{
    size_t cap = strlen(body) + strlen(g->views) + strlen(g->accessors) + g->n * 2 + 512;
    char *json = malloc(cap), *b64 = malloc(g->n * 2 + 8);
    if (!json || !b64)
        abort();
    size_t blen = (g->n + 3) / 4 * 4;
    if (glb) {
        snprintf(json, cap, "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":%zu}],", blen);
    } else {
        base64(g->bin, blen, b64);
        snprintf(json, cap, "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":%zu,"
                 "\"uri\":\"data:application/octet-stream;base64,%s\"}],", blen, b64);
    }
    size_t at = strlen(json);
    snprintf(json + at, cap - at, "\"bufferViews\":[%s],\"accessors\":[%s],%s}", g->views, g->accessors, body);
    free(b64);
    size_t jlen = strlen(json);
    if (!glb) {
        *size = jlen;
        return (uint8_t *)json;
    }
    size_t jpad = (jlen + 3) / 4 * 4;
    size_t total = 12 + 8 + jpad + 8 + blen;
    uint8_t *out = calloc(1, total);
    if (!out)
        abort();
    memcpy(out, "glTF", 4);
    put32(out + 4, 2);
    put32(out + 8, (uint32_t)total);
    put32(out + 12, (uint32_t)jpad);
    put32(out + 16, 0x4E4F534Au);
    memset(out + 20, ' ', jpad);
    memcpy(out + 20, json, jlen);
    put32(out + 20 + jpad, (uint32_t)blen);
    put32(out + 24 + jpad, 0x004E4942u);
    memcpy(out + 28 + jpad, g->bin, g->n);
    free(json);
    *size = total;
    return out;
}
