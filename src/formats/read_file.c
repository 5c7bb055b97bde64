/* vks_read_file: a model read by path through the read options' file callbacks, so that a
 * host (or the CLI) needs no format knowledge: the P3D step finds its skeleton config here,
 * not in the caller. */
#include "file_internal.h"

#include <string.h>

vks_result vks__file_read(const vks_read_options *o, const char *path, void **bytes, size_t *size, vks_error *err)
{
    *bytes = NULL;
    *size = 0;
    if (o->file.read)
        return o->file.read(o->file.user, path, o->file.max_size, bytes, size, err);
    return vks_file_read_default((void *)&o->allocator, path, o->file.max_size, bytes, size, err);
}

void vks__file_release(const vks_read_options *o, void *bytes)
{
    if (!bytes)
        return;
    if (o->file.read) {
        if (o->file.release)
            o->file.release(o->file.user, bytes);
    } else {
        vks_file_release_default((void *)&o->allocator, bytes);
    }
}

vks_result vks_read_file(const vks_read_options *opt, const char *path, vks_skin **out, vks_error *err)
{
    if (!path || !out)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "file", "path and out must not be NULL");
    vks_read_options o = vks_read_options_defaults(opt);
    void *bytes = NULL;
    size_t size = 0;
    vks_result r = vks__file_read(&o, path, &bytes, &size, err);
    if (r != VKS_OK) {
        /* a callback that failed without saying why still gives the caller a cause */
        return vks_error_set(err, r, VKS_NO_OFFSET, "file", "cannot read the file");
    }
    const char *fmt = NULL;
    vks_detect_format(bytes, size, path, &fmt);
    vks__p3d_files keep;
    memset(&keep, 0, sizeof keep);
    if (fmt && !strcmp(fmt, "p3d"))
        r = vks__p3d_prepare(&o, path, &keep, err);
    if (fmt && !strcmp(fmt, "gltf") && !o.gltf.path)
        o.gltf.path = path; /* external buffers beside the .gltf */
    if (r == VKS_OK)
        r = vks_read_any(&o, bytes, size, path, out, err);
    vks__p3d_files_release(&o, &keep);
    vks__file_release(&o, bytes);
    return r;
}
