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

/* The buffer before i that read the same file, or NULL: one read per distinct file, however
   many buffers name it (twenty buffers naming one large file are one read and one budget). */
static const gltf_buffer *same_file(const gltf_doc *d, const char *file)
{
    for (uint32_t k = 0; k < d->buffer_count; k++)
        if (d->buffers[k].file && !strcmp(d->buffers[k].file, file))
            return &d->buffers[k];
    return NULL;
}

static vks_result load_file(gltf_doc *d, gltf_buffer *b, const char *uri, const char *path)
{
    if (!d->opt.gltf.path)
        return vks__gltfr_fail(d, VKS_ERR_INVALID, path,
                         "external buffer \"%.60s\" needs the .gltf's own path (read_options.gltf.path)", uri);
    char *file = NULL, why[160];
    vks_result r = vks__gltfr_resolve_uri(&d->opt, d->opt.gltf.path, uri, &file, why, sizeof why);
    if (r != VKS_OK)
        return vks__gltfr_fail(d, r, path, "\"%.60s\": %s", uri, why);
    const gltf_buffer *same = same_file(d, file);
    if (same) {
        d->opt.allocator.free(d->opt.allocator.user, file);
        b->data = same->data;
        b->size = same->size;
        return VKS_OK;
    }
    /* One budget for the whole model: the .gltf and every file it names together stay
       within the input limit, so a small .gltf cannot ask for many large files. */
    uint64_t max = d->opt.file.max_size, left = d->files_bytes < max ? max - d->files_bytes : 0;
    void *bytes = NULL;
    size_t size = 0;
    vks_error e = {0};
    vks_read_options bounded = d->opt;
    bounded.file.max_size = left;
    r = left ? vks__file_read(&bounded, file, &bytes, &size, &e) : VKS_ERR_LIMIT;
    if (r == VKS_OK && size > left) { /* a callback that ignored the limit it was given */
        vks__file_release(&d->opt, bytes);
        r = VKS_ERR_LIMIT;
    }
    if (r != VKS_OK) {
        if (r == VKS_ERR_LIMIT)
            vks_error_set(d->err, r, VKS_NO_OFFSET, path,
                          "\"%.60s\": the model and its files together pass the input limit of %llu MB", uri,
                          (unsigned long long)(max >> 20));
        else
            vks_error_set(d->err, r, VKS_NO_OFFSET, path, "cannot read \"%.60s\": %.100s", uri,
                          e.msg[0] ? e.msg : "read failed");
        snprintf(d->err->file, sizeof d->err->file, "%s", file);
        d->opt.allocator.free(d->opt.allocator.user, file);
        return r;
    }
    d->files_bytes += size;
    b->file = file;
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
