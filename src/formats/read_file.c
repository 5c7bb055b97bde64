/* vks_read_file and vks_read_clips: a model or a clip file read by path through the read
 * options' file callbacks, so that a host (or the CLI) needs no format knowledge: the
 * format's record (registry.h) says which side files its reader needs (a P3D's skeleton
 * config, a .gltf's buffers beside it), not the caller. */
#include <string.h>

#include "registry.h"

/* The file at path, read through o's callbacks; a callback that failed without saying why
   still gives the caller a cause. */
static vks_result read_whole(const vks_read_options *o, const char *path, void **bytes, size_t *size, vks_error *err)
{
    vks_result r = vks__file_read(o, path, bytes, size, err);
    if (r != VKS_OK)
        return vks_error_set(err, r, VKS_NO_OFFSET, "file", "cannot read the file");
    return VKS_OK;
}

vks_result vks_read_file(const vks_read_options *opt, const char *path, vks_skin **out, vks_error *err)
{
    if (!path || !out)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "file", "path and out must not be NULL");
    vks_read_options o = vks_read_options_defaults(opt);
    void *bytes = NULL;
    size_t size = 0;
    vks_result r = read_whole(&o, path, &bytes, &size, err);
    if (r != VKS_OK)
        return r;
    const vks__format *f = vks__format_of_model(bytes, size, path);
    vks__side_files keep;
    memset(&keep, 0, sizeof keep);
    if (f && f->prepare)
        r = f->prepare(&o, path, &keep, err);
    if (r == VKS_OK)
        r = vks_read_any(&o, bytes, size, path, out, err);
    vks__side_files_release(&o, &keep);
    vks__file_release(&o, bytes);
    return r;
}

vks_result vks_read_clips(const vks_read_options *opt, const char *path, vks_clip_set **out, vks_error *err)
{
    if (!path || !out)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "file", "path and out must not be NULL");
    vks_read_options o = vks_read_options_defaults(opt);
    void *bytes = NULL;
    size_t size = 0;
    vks_result r = read_whole(&o, path, &bytes, &size, err);
    if (r != VKS_OK)
        return r;
    const vks__format *f = NULL;
    const vks__clip_kind *k = vks__clip_kind_of(bytes, size, path, &f);
    vks__side_files keep;
    memset(&keep, 0, sizeof keep);
    if (!k) {
        const uint8_t *b = bytes;
        r = vks_error_set(err, VKS_ERR_FORMAT, 0, "file",
                          "not a clip file vkskin reads (first bytes %02x %02x %02x %02x)", size > 0 ? b[0] : 0,
                          size > 1 ? b[1] : 0, size > 2 ? b[2] : 0, size > 3 ? b[3] : 0);
    } else if (f->prepare_clips) {
        r = f->prepare_clips(&o, path, &keep, err);
    }
    if (r == VKS_OK)
        r = k->read(&o, bytes, size, out, err);
    vks__side_files_release(&o, &keep);
    vks__file_release(&o, bytes);
    return r;
}
