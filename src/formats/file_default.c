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

/* A stream (a pipe, a device) is read into a chain of blocks, each twice the last up to
 * BLOCK_MAX, and joined once it has ended: growing one block by allocate-and-copy held the old
 * and the new block at once, so refusing an endless stream peaked at about twice the limit,
 * where the chain peaks at the limit and one block. */
enum { BLOCK_MIN = 1 << 16, BLOCK_MAX = 1 << 24 };

typedef struct block {
    struct block *next;
    size_t used, cap;
    uint8_t bytes[];
} block;

/* The stream on fd into *bytes, at most limit bytes (limit is max_size + 1: one byte past it
   tells a stream that goes on from one that ends at it). */
static vks_result read_stream(const vks_allocator *a, int fd, size_t limit, uint64_t max_size, void **bytes,
                              size_t *size, vks_error *err)
{
    block *first = NULL, *last = NULL;
    size_t total = 0, next_cap = BLOCK_MIN;
    vks_result r = VKS_OK;
    for (;;) {
        if (!last || last->used == last->cap) {
            if (total >= limit) {
                r = too_large(err, "it goes on past the limit", max_size);
                break;
            }
            size_t cap = next_cap < limit - total ? next_cap : limit - total;
            block *b = a->alloc(a->user, sizeof *b + cap);
            if (!b) {
                r = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "file", "out of memory reading the file");
                break;
            }
            b->next = NULL, b->used = 0, b->cap = cap;
            *(last ? &last->next : &first) = b;
            last = b;
            next_cap = next_cap < BLOCK_MAX ? next_cap * 2 : BLOCK_MAX;
        }
        ssize_t got = read(fd, last->bytes + last->used, last->cap - last->used);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            r = vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, "file", "read error: %s", strerror(errno));
            break;
        }
        if (got == 0)
            break;
        last->used += (size_t)got;
        total += (size_t)got;
    }
    uint8_t *all = r == VKS_OK ? a->alloc(a->user, total ? total : 1) : NULL;
    if (r == VKS_OK && !all)
        r = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "file", "out of memory reading the file");
    size_t at = 0;
    while (first) { /* each block freed as soon as it is copied */
        block *next = first->next;
        if (all)
            memcpy(all + at, first->bytes, first->used);
        at += first->used;
        a->free(a->user, first);
        first = next;
    }
    if (r == VKS_OK)
        *bytes = all, *size = total;
    return r;
}

/* A regular file of known size: one block, read until it ends (it may have grown or shrunk
   since its size was taken; one byte past the size tells which). */
static vks_result read_regular(const vks_allocator *a, int fd, size_t limit, uint64_t max_size, size_t known,
                               void **bytes, size_t *size, vks_error *err)
{
    size_t cap = known + 1 < limit ? known + 1 : limit, n = 0;
    uint8_t *buf = a->alloc(a->user, cap ? cap : 1);
    if (!buf)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "file", "out of memory reading the file");
    for (;;) {
        if (n == cap) { /* grown past its size: read the rest as a stream would be */
            a->free(a->user, buf);
            if (lseek(fd, 0, SEEK_SET) != 0)
                return vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, "file", "the file grew while it was read");
            return read_stream(a, fd, limit, max_size, bytes, size, err);
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            a->free(a->user, buf);
            return vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, "file", "read error: %s", strerror(errno));
        }
        if (got == 0) {
            *bytes = buf;
            *size = n;
            return VKS_OK;
        }
        n += (size_t)got;
    }
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
    size_t limit = max_size < SIZE_MAX ? (size_t)max_size + 1 : SIZE_MAX;
    vks_result r = regular ? read_regular(&a, fd, limit, max_size, (size_t)st.st_size, bytes, size, err)
                           : read_stream(&a, fd, limit, max_size, bytes, size, err);
    close(fd);
    return r;
}

void vks_file_release_default(void *user, void *bytes)
{
    vks_allocator a = vks_allocator_or_default(user);
    if (bytes)
        a.free(a.user, bytes);
}
