/* File access through the read options' callbacks (file_internal.h), used by the reads by
 * path (read_file.c) and by the formats' side-file steps (a P3D's model.cfg search). It
 * names no format, so a format's folder may use it without a loop back into the reads. */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "file_internal.h"

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

void vks__side_files_release(const vks_read_options *o, vks__side_files *keep)
{
    const vks_allocator *a = &o->allocator;
    vks__file_release(o, keep->bytes);
    if (keep->path)
        a->free(a->user, keep->path);
    if (keep->name)
        a->free(a->user, keep->name);
    keep->bytes = NULL, keep->path = NULL, keep->name = NULL;
}

long vks__file_read_prefix(const vks_read_options *o, const char *path, void *buf, size_t n)
{
    if (o->file.read) {
        void *bytes = NULL;
        size_t size = 0;
        if (vks__file_read(o, path, &bytes, &size, NULL) != VKS_OK)
            return -1;
        size_t k = size < n ? size : n;
        memcpy(buf, bytes, k);
        vks__file_release(o, bytes);
        return (long)k;
    }
    /* O_NONBLOCK: a FIFO named as an input answers "nothing" instead of waiting for a writer */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return -1;
    size_t got = 0;
    while (got < n) {
        ssize_t k = read(fd, (char *)buf + got, n - got);
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    close(fd);
    return (long)got;
}
