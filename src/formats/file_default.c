/* The default file callback of vks_read_file: the file system, bounded by max_size. It is
 * the logic the CLI had (refuse a large regular file by its size before reading a byte; read
 * a pipe or device until it ends or passes the limit), moved here so every host of the
 * library gets the same protection from a hostile path. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vkskin/formats.h"

static vks_result too_large(vks_error *err, const char *what, uint64_t max_size)
{
    return vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "file", "%s, over the input limit of %llu MB", what,
                         (unsigned long long)(max_size >> 20));
}

/* A block of cap bytes holding buf's first n, buf freed (also when that fails: NULL). */
static uint8_t *grow_to(const vks_allocator *a, uint8_t *buf, size_t n, size_t cap)
{
    uint8_t *more = a->alloc(a->user, cap);
    if (more)
        memcpy(more, buf, n);
    a->free(a->user, buf);
    return more;
}

vks_result vks_file_read_default(void *user, const char *path, uint64_t max_size, void **bytes, size_t *size,
                                 vks_error *err)
{
    vks_allocator a = vks_allocator_or_default(user);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        vks_result r = vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, "file", "cannot open: %s", strerror(errno));
        if (fd >= 0)
            close(fd);
        return r;
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, "file", "is a folder, not a file");
    }
    int regular = S_ISREG(st.st_mode);
    if (regular && (uint64_t)st.st_size > max_size) {
        char what[64];
        snprintf(what, sizeof what, "%.1f MB", (double)st.st_size / (1 << 20));
        close(fd);
        return too_large(err, what, max_size);
    }
    /* One byte past the limit tells a stream that goes on past it from one that ends at it,
     * so neither the buffer nor the reads ever go further than that. */
    size_t limit = max_size < SIZE_MAX ? (size_t)max_size + 1 : SIZE_MAX;
    size_t cap = regular ? (size_t)st.st_size + 1 : 1 << 16, n = 0;
    if (cap > limit)
        cap = limit;
    uint8_t *buf = a.alloc(a.user, cap);
    vks_result r = VKS_OK;
    for (;;) {
        if (buf && n == cap) {
            if (n >= limit) {
                r = too_large(err, "it goes on past the limit", max_size);
                break;
            }
            cap = cap > limit / 2 ? limit : cap * 2;
            buf = grow_to(&a, buf, n, cap);
        }
        if (!buf) {
            r = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "file", "out of memory reading the file");
            break;
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            r = vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, "file", "read error: %s", strerror(errno));
            break;
        }
        if (got == 0) {
            close(fd);
            *bytes = buf;
            *size = n;
            return VKS_OK;
        }
        n += (size_t)got;
    }
    if (buf)
        a.free(a.user, buf);
    close(fd);
    return r;
}

void vks_file_release_default(void *user, void *bytes)
{
    vks_allocator a = vks_allocator_or_default(user);
    if (bytes)
        a.free(a.user, bytes);
}
