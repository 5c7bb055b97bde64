/* The P3D model's files beside the model: which model.cfg holds its skeleton, found the way
 * the engine's tools find it, and read through the read options' file callbacks (so a host
 * serving files from an archive or memory gets the same search). */
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "p3d_format.h"

/* Tries one candidate: 1 and the bytes kept when it reads; 0 when it is not there (VKS_ERR_IO);
 * -1 on any other failure (over the size limit, out of memory), recorded in err. */
static int try_read(const vks_read_options *o, const char *path, void **bytes, size_t *size, vks_error *err)
{
    vks_error e = {0};
    vks_result r = vks__file_read(o, path, bytes, size, &e);
    if (r == VKS_OK)
        return 1;
    if (r == VKS_ERR_IO)
        return 0;
    if (err && err->code == VKS_OK) {
        *err = e;
        err->code = r;
        snprintf(err->file, sizeof err->file, "%s", path);
        err->line = 0;
    }
    return -1;
}

/* The search of vks_p3d_find_model_cfg into buf (cap >= strlen(model_path) + 16). Returns 1
 * with the found config's bytes in *bytes (NULL bytes: released at once), 0 when none, -1 on a
 * failure other than a missing file. dir is scratch of strlen(model_path) + 1. */
static int search(const vks_read_options *o, const char *model_path, char *buf, size_t cap, char *dir, void **bytes,
                  size_t *size, vks_error *err)
{
    size_t n = strlen(model_path);
    void *got = NULL;
    int found;
    memcpy(buf, model_path, n + 1);
    char *dot = strrchr(buf, '.'), *slash = strrchr(buf, '/');
    if (dot && (!slash || dot > slash)) {
        strcpy(dot, ".model.cfg");
        if ((found = try_read(o, buf, &got, size, err)) != 0)
            goto done;
    }
    memcpy(dir, model_path, n + 1);
    for (;;) {
        slash = strrchr(dir, '/');
        if (!slash) {
            snprintf(buf, cap, "model.cfg");
            found = try_read(o, buf, &got, size, err);
            goto done;
        }
        *slash = 0; /* dir now names the folder above what it named */
        snprintf(buf, cap, "%s/model.cfg", dir);
        if ((found = try_read(o, buf, &got, size, err)) != 0)
            goto done;
        if (dir[0] == 0) { /* reached the root of an absolute path */
            found = 0;
            goto done;
        }
    }
done:
    if (found == 1 && bytes)
        *bytes = got;
    else
        vks__file_release(o, got);
    return found;
}

static char *alloc_str(const vks_allocator *a, size_t n)
{
    return a->alloc(a->user, n);
}

int vks_p3d_find_model_cfg(const vks_read_options *opt, const char *model_path, char *out, size_t cap)
{
    if (!model_path || !out || cap < strlen(model_path) + 16)
        return 0;
    vks_read_options o = vks_read_options_defaults(opt);
    char *dir = alloc_str(&o.allocator, strlen(model_path) + 1);
    if (!dir)
        return 0;
    size_t size = 0;
    int found = search(&o, model_path, out, cap, dir, NULL, &size, NULL);
    o.allocator.free(o.allocator.user, dir);
    return found == 1;
}

vks_result vks__p3d_prepare(vks_read_options *o, const char *path, vks__side_files *keep, vks_error *err)
{
    const vks_allocator *a = &o->allocator;
    size_t n = strlen(path);
    if (!o->p3d.model_name) {
        const char *base = strrchr(path, '/');
        base = base ? base + 1 : path;
        size_t len = strlen(base);
        if (!(keep->name = alloc_str(a, len + 1)))
            return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "p3d", "out of memory");
        memcpy(keep->name, base, len + 1);
        char *dot = strrchr(keep->name, '.');
        if (dot)
            *dot = 0;
        o->p3d.model_name = keep->name;
    }
    if (o->p3d.model_cfg)
        return VKS_OK; /* the host gave the text itself */
    size_t size = 0;
    if (o->p3d.model_cfg_name) {
        /* named explicitly: a missing one is an error, not a reason to search */
        vks_error e = {0};
        vks_result r = vks__file_read(o, o->p3d.model_cfg_name, &keep->bytes, &size, &e);
        if (r != VKS_OK) {
            if (err && err->code == VKS_OK) {
                *err = e;
                err->code = r;
                if (!err->msg[0])
                    snprintf(err->msg, sizeof err->msg, "cannot read the skeleton config");
                snprintf(err->file, sizeof err->file, "%s", o->p3d.model_cfg_name);
                err->line = 0;
            }
            return r;
        }
    } else {
        size_t cap = n + 32;
        char *dir = alloc_str(a, n + 1);
        keep->path = alloc_str(a, cap);
        if (!dir || !keep->path) {
            if (dir)
                a->free(a->user, dir);
            return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "p3d", "out of memory");
        }
        int found = search(o, path, keep->path, cap, dir, &keep->bytes, &size, err);
        a->free(a->user, dir);
        if (found < 0)
            return err && err->code ? err->code : VKS_ERR_IO;
        if (!found)
            return VKS_OK; /* no config: the reader uses the ODOL skeleton or the bones option */
        o->p3d.model_cfg_name = keep->path;
        vks__log(&o->logger, VKS_LOG_INFO, "%s: using skeleton config %s", path, keep->path);
    }
    o->p3d.model_cfg = keep->bytes;
    o->p3d.model_cfg_size = size;
    return VKS_OK;
}

vks_result vks__p3d_side_files(const vks_read_options *o, const char *path, vks_side_file_fn visit, void *user,
                               vks_error *err)
{
    (void)err;
    if (o->p3d.model_cfg)
        return VKS_OK; /* the host gave the text: no file is read */
    if (o->p3d.model_cfg_name) {
        visit(user, o->p3d.model_cfg_name, "model.cfg");
        return VKS_OK;
    }
    size_t cap = strlen(path) + 32;
    char *cfg = alloc_str(&o->allocator, cap);
    if (!cfg)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "p3d", "out of memory");
    if (vks_p3d_find_model_cfg(o, path, cfg, cap) == 1)
        visit(user, cfg, "model.cfg");
    o->allocator.free(o->allocator.user, cfg);
    return VKS_OK;
}
