/* A model whose bytes the caller read already (formats.h, vks_load_model_bytes): the file
 * callback hands the reader these bytes for the model's own path and reads any other file it
 * asks for (a P3D's model.cfg, a .gltf's buffers) as the caller's options say. */
#include <string.h>

#include "vkskin/formats.h"

typedef struct held_file {
    const char *path;
    const uint8_t *bytes;
    size_t size;
    vks_file_options file; /* the caller's, for the other files */
} held_file;

static vks_result held_read(void *user, const char *path, uint64_t max_size, void **bytes, size_t *size,
                            vks_error *err)
{
    const held_file *h = user;
    if (!strcmp(path, h->path)) {
        *bytes = (void *)h->bytes, *size = h->size;
        return VKS_OK;
    }
    return h->file.read ? h->file.read(h->file.user, path, max_size, bytes, size, err)
                        : vks_file_read_default(NULL, path, max_size, bytes, size, err);
}

static void held_release(void *user, void *bytes)
{
    const held_file *h = user;
    if (bytes == (const void *)h->bytes)
        return;
    if (h->file.read && h->file.release)
        h->file.release(h->file.user, bytes);
    else if (!h->file.read)
        vks_file_release_default(NULL, bytes);
}

vks_result vks_load_model_bytes(const vks_read_options *opt, const char *path, const uint8_t *bytes, size_t size,
                                vks_skin **out, vks_error *err)
{
    vks_read_options ro = opt ? *opt : (vks_read_options){0};
    held_file held = {path, bytes, size, ro.file};
    ro.file.read = held_read, ro.file.release = held_release, ro.file.user = &held;
    return vks_load_model(&ro, path, out, err);
}
