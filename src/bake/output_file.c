/* Output files that destroy nothing (include/vkskin/output.h): special files are streamed
 * into, symlinks followed, regular files replaced by rename from a temporary, read-only files
 * and missing folders refused before any byte is written, and temporaries recorded so that a
 * signal handler can remove them. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "output_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif


/* ---- the temporaries table: what a signal handler may unlink ---- */

enum { SLOT_FREE, SLOT_BUSY, SLOT_LIVE };
#define TEMP_SLOTS 32
static struct {
    atomic_int state;
    char path[PATH_MAX];
} temp_slots[TEMP_SLOTS];

static int temp_record(const char *path)
{
    if (strlen(path) >= PATH_MAX)
        return -1;
    for (int i = 0; i < TEMP_SLOTS; i++) {
        int expect = SLOT_FREE;
        if (atomic_compare_exchange_strong(&temp_slots[i].state, &expect, SLOT_BUSY)) {
            strcpy(temp_slots[i].path, path);
            atomic_store(&temp_slots[i].state, SLOT_LIVE);
            return i;
        }
    }
    return -1; /* more than TEMP_SLOTS outputs open at once: still written, not swept on a signal */
}

static void temp_forget(int slot)
{
    if (slot < 0)
        return;
    atomic_store(&temp_slots[slot].state, SLOT_BUSY); /* a handler running now skips it */
    atomic_store(&temp_slots[slot].state, SLOT_FREE);
}

void vks_output_discard_temporaries(void)
{
    for (int i = 0; i < TEMP_SLOTS; i++)
        if (atomic_load(&temp_slots[i].state) == SLOT_LIVE)
            unlink(temp_slots[i].path);
}

/* ---- paths ---- */

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* The folder part of path ("." when it has none). */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return dup_str(".");
    if (slash == path)
        return dup_str("/");
    size_t n = (size_t)(slash - path);
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = 0;
    }
    return d;
}

static vks_result nomem(vks_error *err, const char *path)
{
    return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory");
}

/* Follows symlinks to the final target, which need not exist yet. */
static vks_result follow_links(const char *path, char **out, vks_error *err)
{
    char *cur = dup_str(path);
    for (int depth = 0; cur && depth < 40; depth++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) {
            *out = cur;
            return VKS_OK;
        }
        char link[PATH_MAX];
        ssize_t n = readlink(cur, link, sizeof link - 1);
        if (n < 0) {
            vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, path, "cannot read the symlink %s: %s", cur,
                          strerror(errno));
            free(cur);
            return VKS_ERR_IO;
        }
        link[n] = 0;
        char *next;
        if (link[0] == '/' || !strchr(cur, '/')) {
            next = dup_str(link);
        } else {
            char *dir = dir_of(cur);
            size_t len = dir ? strlen(dir) + 1 + (size_t)n + 1 : 0;
            next = dir ? malloc(len) : NULL;
            if (next)
                snprintf(next, len, "%s/%s", dir, link);
            free(dir);
        }
        free(cur);
        cur = next;
    }
    if (!cur)
        return nomem(err, path);
    free(cur);
    return vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, path, "too many levels of symbolic links");
}

static void human_bytes(double b, char *buf, size_t size)
{
    static const char *unit[] = {"B", "KB", "MB", "GB", "TB", "PB", "EB"};
    int u = 0;
    while (b >= 1000 && u < 6)
        b /= 1000, u++;
    snprintf(buf, size, "%.3g %s", b, unit[u]);
}

/* What the target is and whether it may be written; the shared half of check and open. */
static vks_result classify(const char *path, uint64_t min_bytes, char **target_out, target_kind *kind,
                           mode_t *mode, vks_error *err)
{
    *target_out = NULL;
    if (!strcmp(path, "-")) {
        *kind = TARGET_STDOUT;
        return VKS_OK;
    }
    char *target = NULL;
    vks_result r = follow_links(path, &target, err);
    if (r != VKS_OK)
        return r;
    struct stat st;
    *kind = TARGET_NEW;
    if (stat(target, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            r = vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, path,
                              "is a folder, not a file");
        } else if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
            *kind = TARGET_STREAM;
            if (access(target, W_OK) != 0)
                r = vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, path, "cannot be opened for writing: %s",
                                  strerror(errno));
        } else if (!S_ISREG(st.st_mode)) {
            r = vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, path,
                              "is a block device or a socket; vkskin writes files, character devices and FIFOs");
        } else if ((st.st_mode & 0222) == 0) {
            r = vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, path,
                              "is read-only; it is not replaced (make it writable or remove it first)");
        } else if (access(target, W_OK) != 0) {
            r = vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, path,
                              "cannot be opened for writing (%s); it is not replaced", strerror(errno));
        } else {
            *kind = TARGET_REGULAR;
            *mode = st.st_mode & 07777;
        }
    } else if (errno != ENOENT) {
        r = vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, path, "cannot look at the output: %s", strerror(errno));
    }
    if (r == VKS_OK && (*kind == TARGET_NEW || *kind == TARGET_REGULAR)) {
        char *dir = dir_of(target);
        struct stat ds;
        struct statvfs fs;
        if (!dir)
            r = nomem(err, path);
        else if (stat(dir, &ds) != 0)
            r = vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, path, "the folder %s does not exist", dir);
        else if (!S_ISDIR(ds.st_mode))
            r = vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, path, "%s is not a folder", dir);
        else if (access(dir, W_OK | X_OK) != 0)
            r = vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, path, "cannot create files in the folder %s: %s", dir,
                              strerror(errno));
        else if (min_bytes && statvfs(dir, &fs) == 0 && (double)min_bytes > (double)fs.f_bavail * fs.f_frsize) {
            char need[32], have[32];
            human_bytes((double)min_bytes, need, sizeof need);
            human_bytes((double)fs.f_bavail * fs.f_frsize, have, sizeof have);
            r = vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, path,
                              "needs at least %s, its file system has %s free", need, have);
        }
        free(dir);
    }
    if (r != VKS_OK) {
        free(target);
        return r;
    }
    *target_out = target;
    return VKS_OK;
}

vks_result vks_output_check(const char *path, uint64_t min_bytes, vks_error *err)
{
    char *target = NULL;
    target_kind kind;
    mode_t mode = 0;
    vks_result r = classify(path, min_bytes, &target, &kind, &mode, err);
    free(target);
    return r;
}

/* Temporaries left by dead processes ("<base>.tmp.<pid>[.<n>]", what a run killed with -9
 * left behind), found by reading each folder once per process, the first time an output goes
 * there: a bake of N files in one folder read the folder at every open, N times N entries,
 * and held the folder's lock against the other threads' creates and renames while it did.
 * A folder's list keeps the names not yet removed; each is removed when its target is written
 * again (a temporary of a process that dies after the first read is left to the next run). */
typedef struct stale_dir {
    char *dir;
    char **names;
    size_t count;
    struct stale_dir *next;
} stale_dir;

static pthread_mutex_t stale_lock = PTHREAD_MUTEX_INITIALIZER;
static stale_dir *stale_dirs;

/* Where the "<pid>[.<n>]" of a temporary's name starts (after its last ".tmp."), NULL when
 * the name is not a temporary of a process that no longer exists. */
static const char *dead_temporary(const char *name)
{
    const char *tail = NULL;
    for (const char *at = strstr(name, ".tmp."); at; at = strstr(at + 1, ".tmp."))
        tail = at + 5;
    if (!tail || tail == name + 5)
        return NULL;
    char *end;
    errno = 0;
    long pid = strtol(tail, &end, 10);
    if (errno || end == tail || pid <= 0 || pid == (long)getpid() || (*end && *end != '.'))
        return NULL;
    return kill((pid_t)pid, 0) == -1 && errno == ESRCH ? tail : NULL;
}

/* The folder's list, read now when this is its first output (stale_lock held). */
static stale_dir *stale_dir_of(const char *dir)
{
    for (stale_dir *s = stale_dirs; s; s = s->next)
        if (!strcmp(s->dir, dir))
            return s;
    stale_dir *s = calloc(1, sizeof *s);
    char *copy = s ? dup_str(dir) : NULL;
    if (!copy) {
        free(s);
        return NULL;
    }
    s->dir = copy;
    DIR *d = opendir(dir);
    struct dirent *e;
    size_t cap = 0;
    while (d && (e = readdir(d)) != NULL) {
        if (!dead_temporary(e->d_name))
            continue;
        char *name = dup_str(e->d_name);
        if (name && s->count == cap) {
            size_t n = cap ? 2 * cap : 8;
            char **grown = realloc(s->names, n * sizeof *grown);
            if (grown)
                s->names = grown, cap = n;
        }
        if (name && s->count < cap)
            s->names[s->count++] = name;
        else
            free(name);
    }
    if (d)
        closedir(d);
    s->next = stale_dirs;
    stale_dirs = s;
    return s;
}

/* Removes the temporaries of dead processes beside target that are target's own. */
static void sweep_stale(const char *target)
{
    char *dir = dir_of(target);
    const char *base = strrchr(target, '/');
    base = base ? base + 1 : target;
    size_t bn = strlen(base);
    pthread_mutex_lock(&stale_lock);
    stale_dir *s = dir ? stale_dir_of(dir) : NULL;
    for (size_t i = 0; s && i < s->count;) {
        const char *name = s->names[i];
        if (strncmp(name, base, bn) || strncmp(name + bn, ".tmp.", 5) || dead_temporary(name) != name + bn + 5) {
            i++;
            continue;
        }
        size_t n = strlen(s->dir) + strlen(name) + 2;
        char *path = malloc(n);
        if (path) {
            snprintf(path, n, "%s/%s", s->dir, name);
            unlink(path);
            free(path);
        }
        free(s->names[i]);
        s->names[i] = s->names[--s->count];
    }
    pthread_mutex_unlock(&stale_lock);
    free(dir);
}

/* The stream's buffer: stdio's own is a block (4 KiB), so an encoder's rows (OpenEXR, libpng,
 * the OBJ rest meshes) went out in a write(2) each, 15,000 of them over the all-characters
 * bake; 64 KiB makes them a sixteenth as many, and stays under malloc's mmap threshold, so
 * the next output reuses the same pages instead of faulting in fresh ones. */
#define OUTPUT_STDIO_BUFFER ((size_t)64 << 10)

static void output_free(vks_output *o)
{
    free(o->iobuf);
    free(o->tmp);
    free(o->target);
    free(o);
}

vks_result vks_output_open(vks_output **out, const char *path, vks_error *err)
{
    *out = NULL;
    vks_output *o = calloc(1, sizeof *o);
    if (!o)
        return nomem(err, path);
    o->slot = -1;
    mode_t mode = 0;
    vks_result r = classify(path, 0, &o->target, &o->kind, &mode, err);
    if (r != VKS_OK) {
        free(o);
        return r;
    }
    int fd = -1;
    if (o->kind == TARGET_STDOUT) {
        fd = dup(STDOUT_FILENO);
    } else if (o->kind == TARGET_STREAM) {
        fd = open(o->target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    } else {
        static atomic_uint serial;
        unsigned k = atomic_fetch_add(&serial, 1);
        size_t n = strlen(o->target) + 48;
        o->tmp = malloc(n);
        if (!o->tmp) {
            free(o->target);
            free(o);
            return nomem(err, path);
        }
        if (k == 0)
            snprintf(o->tmp, n, "%s.tmp.%ld", o->target, (long)getpid());
        else
            snprintf(o->tmp, n, "%s.tmp.%ld.%u", o->target, (long)getpid(), k);
        sweep_stale(o->target);
        /* recorded before it exists: a signal between the open and the record would leave
         * the temporary behind (cli_outputs kills a run as soon as its temporary appears) */
        o->slot = temp_record(o->tmp);
        fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            if (o->kind == TARGET_REGULAR)
                fchmod(fd, mode); /* the replaced file's permissions, not the umask's */
        }
    }
    if (fd >= 0 && !(o->f = fdopen(fd, "wb")))
        close(fd);
    /* files only: a stream (a terminal, a pipe) keeps stdio's buffering and its pace */
    if (o->f && o->tmp && (o->iobuf = malloc(OUTPUT_STDIO_BUFFER)) != NULL)
        setvbuf(o->f, o->iobuf, _IOFBF, OUTPUT_STDIO_BUFFER); /* without memory: stdio's own */
    if (!o->f) {
        int e = errno;
        r = vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, o->tmp ? o->tmp : path, "cannot create the output: %s",
                          strerror(e));
        if (o->tmp && fd >= 0)
            unlink(o->tmp);
        temp_forget(o->slot);
        output_free(o);
        return r;
    }
    *out = o;
    return VKS_OK;
}

FILE *vks_output_stream(vks_output *o)
{
    return o->f;
}

const char *vks_output_write_path(const vks_output *o)
{
    return o->tmp ? o->tmp : o->kind == TARGET_STDOUT ? "-" : o->target;
}

int vks_output_is_stream(const vks_output *o)
{
    return o->tmp == NULL;
}

void vks_output_note_error(vks_output *o, int errnum)
{
    vks__output_note_error(o, errnum);
}

vks_result vks_output_close(vks_output *o, int commit, vks_error *err)
{
    if (!o)
        return VKS_OK;
    vks_result r = VKS_OK;
    const char *where = vks_output_write_path(o);
    int spans_errno = vks__spans_finish(o, commit);
    if (spans_errno)
        vks_output_note_error(o, spans_errno);
    if (fflush(o->f) != 0)
        vks_output_note_error(o, errno);
    if (ferror(o->f))
        vks_output_note_error(o, 0);
    if (fclose(o->f) != 0)
        vks_output_note_error(o, errno);
    if (commit && o->write_errno)
        r = vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, where, "cannot write the output: %s",
                          strerror(o->write_errno));
    if (o->tmp) {
        if (commit && r == VKS_OK && rename(o->tmp, o->target) != 0)
            r = vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, o->target, "cannot rename the output into place: %s",
                              strerror(errno));
        if (!commit || r != VKS_OK)
            unlink(o->tmp);
        temp_forget(o->slot);
    }
    output_free(o);
    return r;
}

/* An absolute spelling of path that exists as far as its folder does. */
static char *canonical(const char *path)
{
    char buf[PATH_MAX];
    if (realpath(path, buf))
        return dup_str(buf);
    char *dir = dir_of(path);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char *out = NULL;
    if (dir && realpath(dir, buf)) {
        size_t n = strlen(buf) + strlen(base) + 2;
        if ((out = malloc(n)) != NULL)
            snprintf(out, n, "%s/%s", buf, base);
    }
    free(dir);
    return out ? out : dup_str(path);
}

int vks_output_same_file(const char *path, const char *other)
{
    if (!path || !other || !strcmp(path, "-") || !strcmp(other, "-"))
        return 0;
    char *target = NULL;
    if (follow_links(path, &target, NULL) != VKS_OK)
        return 0;
    struct stat a, b;
    int same;
    if (stat(target, &a) == 0 && stat(other, &b) == 0) {
        same = a.st_dev == b.st_dev && a.st_ino == b.st_ino;
    } else {
        char *ca = canonical(target), *cb = canonical(other);
        same = ca && cb && !strcmp(ca, cb);
        free(ca);
        free(cb);
    }
    free(target);
    return same;
}
