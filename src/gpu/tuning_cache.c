/* See tuning_cache.h. The launch-shape entry is a few lines of text, so a person can read what
 * was measured and delete it:
 *   vkskin launch-shape cache 1
 *   vkskin 0.9.0
 *   device 0x10de 0x2330 driver 0x91158300 uuid 00112233445566778899aabbccddeeff
 *   shape wg=256,pose_wg=64,run=8,palette=off,texels=off
 *   rate 1.2e+11 */
#define _POSIX_C_SOURCE 200809L
#include "tuning_cache.h"
#include "core/c_numeric.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SHAPE_MAGIC "vkskin launch-shape cache 1"

int vks__cache_dir(const char *option, char *out, size_t n)
{
    if (option)
        return *option ? snprintf(out, n, "%s", option) < (int)n : 0;
    const char *xdg = getenv("XDG_CACHE_HOME");
    if (xdg && *xdg == '/') /* the XDG spec ignores relative values */
        return snprintf(out, n, "%s/vkskin", xdg) < (int)n;
    const char *home = getenv("HOME");
    if (home && *home)
        return snprintf(out, n, "%s/.cache/vkskin", home) < (int)n;
    return 0;
}

static void uuid_hex(const uint8_t uuid[16], char out[33])
{
    for (int i = 0; i < 16; i++)
        snprintf(out + 2 * i, 3, "%02x", uuid[i]);
}

void vks__cache_path(const char *dir, const vks__cache_key *key, const char *kind, char *out, size_t n)
{
    char u[33];
    uuid_hex(key->uuid, u);
    snprintf(out, n, "%s/%04x-%04x-%08x-%.8s-%s", dir, key->vendor_id, key->device_id, key->driver_version, u, kind);
}

/* The folder's owner and mode (see tuning_cache.h): the cache decides which shape and which
 * compiled pipelines every later run uses, so only its user may write there. */
int vks__cache_dir_trusted(const char *dir, char *why, size_t wn)
{
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return 1; /* absent: made 0700 when first written; not a folder: nothing is read or written */
    if (st.st_uid != geteuid())
        snprintf(why, wn, "%s: the cache folder belongs to user %ld, not to this process's user %ld; it is not used",
                 dir, (long)st.st_uid, (long)geteuid());
    else if (st.st_mode & (S_IWGRP | S_IWOTH))
        snprintf(why, wn, "%s: the cache folder can be written by %s (mode %04o); it is not used (chmod go-w it)",
                 dir, (st.st_mode & S_IWOTH) ? "every user" : "its group", (unsigned)(st.st_mode & 07777));
    else
        return 1;
    return 0;
}

int vks__cache_dir_usable(const char *option, char *out, size_t n, char *why, size_t wn)
{
    static atomic_flag said = ATOMIC_FLAG_INIT;
    char reason[600] = "";
    if (!vks__cache_dir(option, out, n)) {
        out[0] = '\0';
        return 0;
    }
    if (vks__cache_dir_trusted(out, reason, sizeof reason))
        return 1;
    out[0] = '\0';
    if (!atomic_flag_test_and_set(&said)) /* every context of the process would say it again */
        snprintf(why, wn, "%s", reason);
    return 0;
}

/* An entry's name opened without following a link and without waiting on a FIFO's writer;
 * anything but a regular file is skipped, with why[wn] saying what stood there. */
static int open_entry(const char *path, char *why, size_t wn)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ELOOP || errno == EMLINK)
            snprintf(why, wn, "%s: a symbolic link, not a cache entry (skipped)", path);
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(why, wn, "%s: not a regular file, not a cache entry (skipped)", path);
        close(fd);
        return -1;
    }
    return fd;
}

void *vks__cache_read_blob(const char *path, size_t max, size_t *size, char *why, size_t wn)
{
    int fd = open_entry(path, why, wn);
    if (fd < 0)
        return NULL;
    char *buf = malloc(max + 1);
    size_t got = 0;
    while (buf && got <= max) {
        ssize_t k = read(fd, buf + got, max + 1 - got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    close(fd);
    if (!buf || got > max) { /* larger than any entry we write: not ours */
        free(buf);
        return NULL;
    }
    buf[got] = '\0';
    *size = got;
    return buf;
}

/* mkdir -p of dir (the cache's parents may not exist yet on a fresh machine). */
static int make_dirs(const char *dir)
{
    char p[4096];
    if (snprintf(p, sizeof p, "%s", dir) >= (int)sizeof p)
        return 0;
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            if (mkdir(p, 0700) != 0 && errno != EEXIST)
                return 0;
            *s = '/';
        }
    return mkdir(p, 0700) == 0 || errno == EEXIST;
}

/* The temporary, made new (O_EXCL) and never through a link (O_NOFOLLOW): a name that exists is
 * a leftover of a process of the same pid, or something planted; in a folder only its user
 * writes (vks__cache_dir_trusted) it is unlinked, which removes a link and never its target,
 * and made again once. Its name is "<entry>.tmp.<pid>", then ".<n>" for the process's later
 * ones (two contexts of one process store at once). */
static int open_temporary(const char *path, char *tmp, size_t n)
{
    static atomic_uint serial;
    unsigned k = atomic_fetch_add(&serial, 1);
    if (k == 0)
        snprintf(tmp, n, "%s.tmp.%ld", path, (long)getpid());
    else
        snprintf(tmp, n, "%s.tmp.%ld.%u", path, (long)getpid(), k);
    const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
    int fd = open(tmp, flags, 0644);
    if (fd < 0 && errno == EEXIST && unlink(tmp) == 0)
        fd = open(tmp, flags, 0644);
    return fd;
}

int vks__cache_write_blob(const char *dir, const char *path, const void *data, size_t size)
{
    char why[600];
    if (!make_dirs(dir))
        return 0;
    if (!vks__cache_dir_trusted(dir, why, sizeof why)) { /* made by another user in between */
        errno = EPERM;
        return 0;
    }
    char tmp[4200];
    int fd = open_temporary(path, tmp, sizeof tmp);
    if (fd < 0)
        return 0;
    const char *p = data;
    size_t left = size;
    while (left) {
        ssize_t k = write(fd, p, left);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        p += k, left -= (size_t)k;
    }
    int ok = left == 0;
    int e = ok ? 0 : errno;
    ok = close(fd) == 0 && ok;
    if (ok)
        ok = rename(tmp, path) == 0;
    if (!ok) {
        e = e ? e : errno;
        unlink(tmp);
        errno = e;
    }
    return ok;
}

static void key_line(const vks__cache_key *key, char *out, size_t n)
{
    char u[33];
    uuid_hex(key->uuid, u);
    snprintf(out, n, "device 0x%x 0x%x driver 0x%x uuid %s", key->vendor_id, key->device_id, key->driver_version,
             u);
}

/* The next line of *p (its newline replaced by '\0'), or NULL at the end. */
static char *next_line(char **p)
{
    if (!*p || !**p)
        return NULL;
    char *line = *p, *nl = strchr(line, '\n');
    if (nl) {
        *nl = '\0';
        *p = nl + 1;
    } else {
        *p = line + strlen(line);
    }
    return line;
}

const char *vks__cache_shape_entry(const vks__cache_key *key)
{
    return key->size_class ? "launch-shape-small.txt" : "launch-shape.txt";
}

static int cache_read_shape_body(const char *dir, const vks__cache_key *key, char *shape, size_t n, double *rate,
                                 char *why, size_t wn)
{
    char path[4200];
    vks__cache_path(dir, key, vks__cache_shape_entry(key), path, sizeof path);
    size_t size = 0;
    why[0] = '\0';
    char *text = vks__cache_read_blob(path, 4096, &size, why, wn);
    if (!text)
        return why[0] ? -1 : 0; /* something that is not an entry stands at its name */
    int complete = size > 0 && text[size - 1] == '\n'; /* a file cut short is damaged */
    char *p = text, *line[5];
    int lines = 0;
    while (lines < 5 && (line[lines] = next_line(&p)) != NULL)
        lines++;
    char want_key[128], want_version[128];
    key_line(key, want_key, sizeof want_key);
    snprintf(want_version, sizeof want_version, "vkskin %s", key->vkskin_version);
    int res = -1;
    char *end = NULL;
    double r = 0;
    if (lines < 5 || strcmp(line[0], SHAPE_MAGIC) != 0 || !complete)
        snprintf(why, wn, "%s: not a launch-shape cache entry (ignored)", path);
    else if (strcmp(line[1], want_version) != 0 || strcmp(line[2], want_key) != 0)
        res = 0; /* measured by another vkskin or driver: measure again */
    else if (strncmp(line[3], "shape ", 6) != 0 || strlen(line[3] + 6) >= n || strncmp(line[4], "rate ", 5) != 0 ||
             !((r = strtod(line[4] + 5, &end)) > 0) || *end != '\0')
        snprintf(why, wn, "%s: a damaged launch-shape entry (ignored)", path);
    else {
        snprintf(shape, n, "%s", line[3] + 6);
        if (rate)
            *rate = r;
        res = 1;
    }
    free(text);
    return res;
}

/* The body above, under the C locale's numbers whatever the host's setlocale() (c_numeric.h). */
int vks__cache_read_shape(const char *dir, const vks__cache_key *key, char *shape, size_t n, double *rate,
                          char *why, size_t wn)
{
    VKS_RETURN_IN_C_NUMERIC(int, cache_read_shape_body(dir, key, shape, n, rate, why, wn));
}

static int cache_write_shape_body(const char *dir, const vks__cache_key *key, const char *shape, double rate, char *why,
                                  size_t wn)
{
    char path[4200], k[128], text[1024];
    vks__cache_path(dir, key, vks__cache_shape_entry(key), path, sizeof path);
    key_line(key, k, sizeof k);
    int len = snprintf(text, sizeof text, "%s\nvkskin %s\n%s\nshape %s\nrate %.6g\n", SHAPE_MAGIC,
                       key->vkskin_version, k, shape, rate);
    if (len <= 0 || len >= (int)sizeof text || !vks__cache_write_blob(dir, path, text, (size_t)len)) {
        snprintf(why, wn, "%s: cannot write the launch-shape cache: %s", path, strerror(errno));
        return 0;
    }
    return 1;
}

/* The body above, under the C locale's numbers whatever the host's setlocale() (c_numeric.h). */
int vks__cache_write_shape(const char *dir, const vks__cache_key *key, const char *shape, double rate, char *why,
                           size_t wn)
{
    VKS_RETURN_IN_C_NUMERIC(int, cache_write_shape_body(dir, key, shape, rate, why, wn));
}
