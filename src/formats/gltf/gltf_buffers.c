/* glTF buffers: a .glb's BIN chunk (buffers[0] without a uri), base64 data: URIs, and
 * external files resolved against the .gltf's folder and read through the read options' file
 * callback (vks_read_file sets opt->gltf.path). Each buffer is loaded once, when an accessor
 * first needs it, and must hold at least its byteLength. */
#include <stdio.h>
#include <string.h>

#include "gltf_internal.h"

static int b64_value(unsigned char ch)
{
    if (ch >= 'A' && ch <= 'Z')
        return ch - 'A';
    if (ch >= 'a' && ch <= 'z')
        return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9')
        return ch - '0' + 52;
    if (ch == '+' || ch == '-')
        return 62;
    if (ch == '/' || ch == '_')
        return 63;
    return -1;
}

int64_t vks__gltfr_base64_decode(const char *text, size_t len, uint8_t *out, size_t cap)
{
    while (len && text[len - 1] == '=' && len % 4 != 1) /* padding only at the end */
        len--;
    if (len % 4 == 1)
        return -1;
    size_t o = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < len; i++) {
        int v = b64_value((unsigned char)text[i]);
        if (v < 0)
            return -1;
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            if (o >= cap)
                return -1;
            out[o++] = (uint8_t)(acc >> bits);
        }
    }
    return (int64_t)o;
}

/* "%41" escapes of a relative URI; returns 0 on a malformed one. */
static int percent_decode(const char *s, char *out, size_t cap)
{
    size_t o = 0;
    for (; *s; s++) {
        char c = *s;
        if (c == '%') {
            int hi = s[1] ? (s[1] >= 'a' ? s[1] - 'a' + 10 : s[1] >= 'A' ? s[1] - 'A' + 10 : s[1] - '0') : -1;
            int lo = hi >= 0 && s[2] ? (s[2] >= 'a' ? s[2] - 'a' + 10 : s[2] >= 'A' ? s[2] - 'A' + 10 : s[2] - '0') : -1;
            if (hi < 0 || hi > 15 || lo < 0 || lo > 15)
                return 0;
            c = (char)(hi * 16 + lo);
            s += 2;
        }
        if (c == 0 || o + 1 >= cap)
            return 0;
        out[o++] = c;
    }
    out[o] = 0;
    return 1;
}

static vks_result load_data_uri(gltf_doc *d, gltf_buffer *b, const char *uri, const char *path)
{
    const char *comma = strchr(uri, ',');
    if (!comma || comma - uri < 7 || memcmp(comma - 7, ";base64", 7))
        return vks__gltfr_fail(d, VKS_ERR_UNSUPPORTED, path, "data URI is not base64 (\"%.40s\")", uri);
    const char *text = comma + 1;
    size_t len = strlen(text);
    size_t cap = len / 4 * 3 + 3;
    uint8_t *bytes = vks__gltfr_alloc(d, cap, 1);
    if (!bytes)
        return vks__gltfr_nomem(d, path);
    int64_t n = vks__gltfr_base64_decode(text, len, bytes, cap);
    if (n < 0)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "data URI: malformed base64");
    b->data = bytes;
    b->size = (size_t)n;
    return VKS_OK;
}

static vks_result load_file(gltf_doc *d, gltf_buffer *b, const char *uri, const char *path)
{
    if (strchr(uri, ':') || uri[0] == '/' || uri[0] == '\\')
        return vks__gltfr_fail(d, VKS_ERR_UNSUPPORTED, path, "\"%.60s\": only relative file URIs and data: URIs are read",
                         uri);
    if (!d->opt.gltf.path)
        return vks__gltfr_fail(d, VKS_ERR_INVALID, path,
                         "external buffer \"%.60s\" needs the .gltf's own path (read_options.gltf.path)", uri);
    const char *base = d->opt.gltf.path;
    const char *slash = strrchr(base, '/');
    size_t dir = slash ? (size_t)(slash - base) + 1 : 0;
    size_t cap = dir + strlen(uri) + 1;
    char *file = vks__gltfr_alloc(d, cap, 1);
    if (!file)
        return vks__gltfr_nomem(d, path);
    memcpy(file, base, dir);
    if (!percent_decode(uri, file + dir, cap - dir))
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "malformed URI \"%.60s\"", uri);
    void *bytes = NULL;
    size_t size = 0;
    vks_error e = {0};
    vks_result r = vks__file_read(&d->opt, file, &bytes, &size, &e);
    if (r != VKS_OK) {
        vks_error_set(d->err, r, VKS_NO_OFFSET, path, "cannot read \"%.60s\": %.100s", uri,
                      e.msg[0] ? e.msg : "read failed");
        snprintf(d->err->file, sizeof d->err->file, "%s", file);
        return r;
    }
    b->file_bytes = bytes;
    b->data = bytes;
    b->size = size;
    return VKS_OK;
}

/* Buffer i loaded, holding at least its byteLength. */
vks_result vks__gltfr_buffer_get(gltf_doc *d, uint32_t i, const gltf_buffer **out)
{
    gltf_buffer *b = &d->buffers[i];
    *out = b;
    if (b->data)
        return VKS_OK;
    char path[40];
    snprintf(path, sizeof path, "buffers[%u]", i);
    const cJSON *o = d->buffer_at[i];
    uint64_t len = 0;
    vks_result r = vks__gltfr_get_uint(d, o, path, "byteLength", 1, UINT64_MAX / 2, &len);
    if (r != VKS_OK)
        return r;
    if (len == 0)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "byteLength must be at least 1");
    b->byte_length = len;
    const cJSON *uri = cJSON_GetObjectItemCaseSensitive(o, "uri");
    if (uri && !cJSON_IsString(uri))
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "uri must be a string");
    if (!uri) {
        if (i != 0 || !d->glb)
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "has no uri (only a .glb's first buffer may use the BIN chunk)");
        if (!d->bin)
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "refers to the BIN chunk, but the .glb has none");
        b->data = d->bin;
        b->size = d->bin_size;
        if (b->size < len || b->size - len > 3)
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "byteLength %llu, but the BIN chunk has %zu bytes",
                             (unsigned long long)len, b->size);
        return VKS_OK;
    }
    if (!strncmp(uri->valuestring, "data:", 5))
        r = load_data_uri(d, b, uri->valuestring, path);
    else
        r = load_file(d, b, uri->valuestring, path);
    if (r != VKS_OK)
        return r;
    if (b->size < len)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "byteLength %llu, but the buffer holds only %zu bytes",
                         (unsigned long long)len, b->size);
    return VKS_OK;
}
