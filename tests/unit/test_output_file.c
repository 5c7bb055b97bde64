/* The library's output files (include/vkskin/output.h) and the bake writer's checks before it
 * creates anything: every rule of "what is written how", one case each, in a private folder;
 * the reserved writes of large outputs byte for byte, into a file, a FIFO and a full device. */
#define _XOPEN_SOURCE 700 /* mknod, makedev */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "character.h"
#include "testutil.h"
#include "vkskin/output.h"

static char dir[64];

static const char *at(const char *name)
{
    static char buf[4][256];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static int holds(const char *path, const char *text)
{
    char buf[256] = {0};
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    return n == strlen(text) && !memcmp(buf, text, n);
}

static vks_result write_text(const char *path, const char *text, int commit)
{
    vks_output *o = NULL;
    vks_error err = {0};
    vks_result r = vks_output_open(&o, path, &err);
    if (r != VKS_OK)
        return r;
    fputs(text, vks_output_stream(o));
    return vks_output_close(o, commit, &err);
}

static int temporaries_left(void)
{
    char cmd[160];
    snprintf(cmd, sizeof cmd, "ls %s | grep -q '\\.tmp\\.'", dir);
    return system(cmd) == 0;
}

static void regular_files(void)
{
    CHECK_EQ_INT(write_text(at("new.txt"), "one", 1), VKS_OK);
    CHECK(holds(at("new.txt"), "one"));
    CHECK_EQ_INT(write_text(at("new.txt"), "two", 0), VKS_OK); /* discarded: the old content stays */
    CHECK(holds(at("new.txt"), "one"));
    chmod(at("new.txt"), 0604);
    CHECK_EQ_INT(write_text(at("new.txt"), "three", 1), VKS_OK);
    struct stat st;
    CHECK(stat(at("new.txt"), &st) == 0 && (st.st_mode & 0777) == 0604);
    CHECK(holds(at("new.txt"), "three"));
    CHECK(!temporaries_left());
}

static void refusals(void)
{
    vks_error err = {0};
    put(at("ro.txt"), "keep");
    chmod(at("ro.txt"), 0444);
    CHECK_EQ_INT(write_text(at("ro.txt"), "lost", 1), VKS_ERR_IO);
    CHECK(holds(at("ro.txt"), "keep"));
    CHECK_EQ_INT(vks_output_check(at("ro.txt"), 0, &err), VKS_ERR_IO);
    CHECK(strstr(err.msg, "read-only") != NULL);
    CHECK_EQ_INT(vks_output_check(dir, 0, NULL), VKS_ERR_IO);              /* a folder */
    CHECK_EQ_INT(vks_output_check(at("no/such.txt"), 0, NULL), VKS_ERR_IO); /* a missing folder */
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(vks_output_check(at("big.raw"), UINT64_MAX, &err), VKS_ERR_IO);
    CHECK(strstr(err.msg, "free") != NULL);
    CHECK_EQ_INT(vks_output_check(at("small.raw"), 1, NULL), VKS_OK);
    CHECK(!temporaries_left());
}

static void streams_and_links(void)
{
    /* a FIFO with a reader of our own: streamed into, still a FIFO afterwards */
    CHECK(mkfifo(at("fifo"), 0600) == 0);
    int rd = open(at("fifo"), O_RDONLY | O_NONBLOCK);
    CHECK(rd >= 0);
    CHECK_EQ_INT(write_text(at("fifo"), "streamed", 1), VKS_OK);
    char buf[32] = {0};
    CHECK_EQ_INT(read(rd, buf, sizeof buf - 1), 8);
    CHECK(!strcmp(buf, "streamed"));
    close(rd);
    struct stat st;
    CHECK(lstat(at("fifo"), &st) == 0 && S_ISFIFO(st.st_mode));
    /* character devices stay devices. As root, private nodes: a regression must not replace
     * the system's /dev/null or /dev/full; other users cannot replace those anyway. */
    int root = geteuid() == 0;
    const char *null_dev = root ? at("null") : "/dev/null", *full_dev = root ? at("full") : "/dev/full";
    if (root && (mknod(null_dev, S_IFCHR | 0600, makedev(1, 3)) != 0 ||
                 mknod(full_dev, S_IFCHR | 0600, makedev(1, 7)) != 0)) {
        fprintf(stderr, "mknod refused (%s): device cases skipped\n", strerror(errno));
        null_dev = full_dev = NULL;
    }
    if (null_dev) {
        CHECK_EQ_INT(write_text(null_dev, "x", 1), VKS_OK);
        CHECK(stat(null_dev, &st) == 0 && S_ISCHR(st.st_mode));
        /* a write failure reports the errno of the call that failed */
        vks_output *o = NULL;
        vks_error err = {0};
        CHECK_EQ_INT(vks_output_open(&o, full_dev, &err), VKS_OK);
        if (o) {
            for (int i = 0; i < 1 << 16; i++)
                fputs("filling /dev/full ", vks_output_stream(o));
            CHECK_EQ_INT(vks_output_close(o, 1, &err), VKS_ERR_IO);
            CHECK(strstr(err.msg, strerror(ENOSPC)) != NULL);
        }
        CHECK(stat(full_dev, &st) == 0 && S_ISCHR(st.st_mode));
    }
    /* symlinks: the target is written, the link stays; a dangling one creates its target */
    put(at("target.txt"), "old");
    CHECK(symlink("target.txt", at("link.txt")) == 0);
    CHECK_EQ_INT(write_text(at("link.txt"), "new", 1), VKS_OK);
    CHECK(lstat(at("link.txt"), &st) == 0 && S_ISLNK(st.st_mode));
    CHECK(holds(at("target.txt"), "new"));
    CHECK(symlink("later.txt", at("dangling.txt")) == 0);
    CHECK_EQ_INT(write_text(at("dangling.txt"), "made", 1), VKS_OK);
    CHECK(holds(at("later.txt"), "made"));
    CHECK(lstat(at("dangling.txt"), &st) == 0 && S_ISLNK(st.st_mode));
    CHECK(vks_output_same_file(at("link.txt"), at("target.txt")));
    CHECK(vks_output_same_file(at("./target.txt"), at("target.txt")));
    CHECK(vks_output_same_file(at("dangling2.txt"), at("dangling2.txt"))); /* neither exists yet */
    CHECK(!vks_output_same_file(at("link.txt"), at("later.txt")));
    CHECK(!vks_output_same_file("-", at("target.txt")));
}

/* Byte k of the reserved-writes outputs: a pattern in which every offset is told apart. */
static uint8_t pattern(uint64_t k)
{
    return (uint8_t)((k * 2654435761u) >> 11 ^ k >> 17);
}

/* Writes through vks_output_reserve/commit and vks_output_write after a header of
 * header_bytes through the stream: rooms of every size from 1 byte to the largest, one
 * committed only in part, and a block larger than a room, about 30 MB in all so the writer
 * thread takes many buffers. Returns the bytes the output must hold (0 when a call failed). */
static uint64_t write_reserved(vks_output *o, size_t header_bytes, int stream)
{
    uint64_t k = 0;
    for (; k < header_bytes; k++)
        fputc(pattern(k), vks_output_stream(o));
    static const size_t sizes[] = {1, 7, 4096, 240000, VKS_OUTPUT_RESERVE_MAX, 100003, 12, 1 << 20};
    for (int i = 0; i < 48; i++) {
        size_t n = sizes[i % 8];
        uint8_t *room = vks_output_reserve(o, n);
        if (!room)
            return 0;
        /* aligned as the file offset is (floats after a 32-byte header are aligned), in a
         * stream as the offset from the first reserved byte */
        CHECK_EQ_INT((uintptr_t)room % 4096, (stream ? k - header_bytes : k) % 4096);
        size_t keep = i == 5 ? n / 2 : n; /* a room committed in part */
        for (size_t j = 0; j < n; j++)
            room[j] = j < keep ? pattern(k + j) : 0xEE;
        vks_output_commit(o, keep);
        k += keep;
    }
    size_t big = 9u << 20;
    uint8_t *block = malloc(big);
    if (!block)
        return 0;
    for (size_t j = 0; j < big; j++)
        block[j] = pattern(k + j);
    int e = vks_output_write(o, block, big);
    free(block);
    CHECK_EQ_INT(e, 0);
    CHECK(vks_output_reserve(o, VKS_OUTPUT_RESERVE_MAX + 1) == NULL && errno == EINVAL);
    return e ? 0 : k + big;
}

/* 1 when fd gives exactly the pattern's first `bytes` bytes, then its end. */
static int reads_pattern(int fd, uint64_t bytes)
{
    static uint8_t buf[1 << 16];
    uint64_t k = 0;
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n == 0 && k == bytes;
        for (ssize_t j = 0; j < n; j++, k++)
            if (k >= bytes || buf[j] != pattern(k))
                return 0;
    }
}

static void reserved_writes(void)
{
    /* a regular file, with headers that leave the rooms at every kind of offset */
    const size_t headers[] = {0, 13, 32, 4095};
    for (int h = 0; h < 4; h++) {
        vks_output *o = NULL;
        vks_error err = {0};
        CHECK_EQ_INT(vks_output_open(&o, at("reserved.raw"), &err), VKS_OK);
        if (!o)
            return;
        uint64_t bytes = write_reserved(o, headers[h], 0);
        CHECK(bytes > 30000000);
        CHECK_EQ_INT(vks_output_close(o, 1, &err), VKS_OK);
        int fd = open(at("reserved.raw"), O_RDONLY);
        CHECK(fd >= 0 && reads_pattern(fd, bytes));
        if (fd >= 0)
            close(fd);
    }
    /* discarded: nothing of it appears, the file before stays */
    vks_output *o = NULL;
    CHECK_EQ_INT(vks_output_open(&o, at("reserved.raw"), NULL), VKS_OK);
    struct stat before, after;
    CHECK(stat(at("reserved.raw"), &before) == 0);
    if (o)
        write_reserved(o, 5, 0);
    CHECK_EQ_INT(vks_output_close(o, 0, NULL), VKS_OK);
    CHECK(stat(at("reserved.raw"), &after) == 0 && after.st_ino == before.st_ino);
    CHECK(!temporaries_left());
    /* committing more than was reserved fails the output instead of writing past the room */
    o = NULL;
    CHECK_EQ_INT(vks_output_open(&o, at("overcommit.raw"), NULL), VKS_OK);
    if (o) {
        vks_error err = {0};
        CHECK(vks_output_reserve(o, 16) != NULL);
        vks_output_commit(o, 17);
        CHECK(vks_output_reserve(o, 16) == NULL && errno == EINVAL);
        CHECK_EQ_INT(vks_output_close(o, 1, &err), VKS_ERR_IO);
        CHECK(strstr(err.msg, strerror(EINVAL)) != NULL);
        CHECK(access(at("overcommit.raw"), F_OK) != 0 && !temporaries_left());
    }
    /* a FIFO: streamed in order by the writer thread, read by another process that knows
     * how many bytes come (the same calls as the file with the 13-byte header) */
    CHECK(mkfifo(at("reserved.fifo"), 0600) == 0);
    vks_output *probe = NULL;
    uint64_t expect = 0;
    if (vks_output_open(&probe, at("probe.raw"), NULL) == VKS_OK) {
        expect = write_reserved(probe, 13, 0);
        vks_output_close(probe, 0, NULL);
    }
    fflush(NULL);
    pid_t reader = fork();
    if (reader == 0) {
        int fd = open(at("reserved.fifo"), O_RDONLY);
        _exit(fd >= 0 && reads_pattern(fd, expect) ? 0 : 1);
    }
    o = NULL;
    CHECK_EQ_INT(vks_output_open(&o, at("reserved.fifo"), NULL), VKS_OK);
    if (o) {
        CHECK_EQ_INT(write_reserved(o, 13, 1), expect);
        CHECK_EQ_INT(vks_output_close(o, 1, NULL), VKS_OK);
    }
    int status = -1;
    while (waitpid(reader, &status, 0) < 0 && errno == EINTR) {
    }
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    /* a write failure in the writer thread: the next reserve or the close names its errno */
    if (geteuid() != 0 || mknod(at("full2"), S_IFCHR | 0600, makedev(1, 7)) != 0) {
        fprintf(stderr, "no private /dev/full: its reserved-write case skipped\n");
        return;
    }
    vks_error err = {0};
    o = NULL;
    CHECK_EQ_INT(vks_output_open(&o, at("full2"), &err), VKS_OK);
    if (o) {
        void *room = NULL;
        for (int i = 0; i < 16 && (room = vks_output_reserve(o, 1 << 20)) != NULL; i++)
            memset(room, 1, 1 << 20), vks_output_commit(o, 1 << 20);
        CHECK(room == NULL && errno == ENOSPC); /* 16 MiB is past a buffer or two */
        CHECK_EQ_INT(vks_output_close(o, 1, &err), VKS_ERR_IO);
        CHECK(strstr(err.msg, strerror(ENOSPC)) != NULL);
    }
}

static void temporaries(void)
{
    /* discard: what a signal handler calls; the temporary goes, the target never appears */
    vks_output *o = NULL;
    CHECK_EQ_INT(vks_output_open(&o, at("interrupted.raw"), NULL), VKS_OK);
    CHECK(temporaries_left());
    vks_output_discard_temporaries();
    CHECK(!temporaries_left());
    CHECK(access(at("interrupted.raw"), F_OK) != 0);
    vks_output_close(o, 0, NULL);
    /* a temporary of a process that no longer exists is swept when its target is written
       again; our parent's is kept, and so is a dead one of another target until that target
       is written. A folder is read for them once, at its first output in the process: the
       case is set up in a folder this process has not written to yet */
    pid_t child = fork();
    if (child == 0)
        _exit(0);
    int status;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    CHECK(mkdir(at("sweep"), 0777) == 0);
    char stale[64], stale2[64], other[64], live[64];
    snprintf(stale, sizeof stale, "sweep/swept.raw.tmp.%ld", (long)child);
    snprintf(stale2, sizeof stale2, "sweep/swept.raw.tmp.%ld.3", (long)child);
    snprintf(other, sizeof other, "sweep/other.raw.tmp.%ld", (long)child);
    snprintf(live, sizeof live, "sweep/swept.raw.tmp.%ld", (long)getppid());
    put(at(stale), "stale");
    put(at(stale2), "stale");
    put(at(other), "stale");
    put(at(live), "live");
    CHECK_EQ_INT(write_text(at("sweep/swept.raw"), "done", 1), VKS_OK);
    CHECK(access(at(stale), F_OK) != 0);
    CHECK(access(at(stale2), F_OK) != 0);
    CHECK(access(at(live), F_OK) == 0);
    CHECK(access(at(other), F_OK) == 0);
    CHECK_EQ_INT(write_text(at("sweep/other.raw"), "done", 1), VKS_OK);
    CHECK(access(at(other), F_OK) != 0);
    unlink(at(live));
    unlink(at("sweep/swept.raw"));
    unlink(at("sweep/other.raw"));
    rmdir(at("sweep"));
}

static void bake_checks(void)
{
    vks_gen_params p = {0};
    p.bones = 20, p.vertices = 300;
    vks_error err = {0};
    vks_skin *s = vks_gen_character(&p, &err);
    CHECK(s != NULL);
    if (!s)
        return;
    uint64_t v = 0;
    for (uint32_t m = 0; m < s->mesh_count; m++)
        v += s->meshes[m].source_vertex_count;
    CHECK_EQ_INT(vks_bake_size_bound(VKS_BAKE_RAW, s, 3, 5), 3 * 5 * v * 24);
    CHECK_EQ_INT(vks_bake_size_bound(VKS_BAKE_PC2, s, 3, 5), 32 + 3 * 5 * v * 12);
    CHECK(vks_bake_size_bound(VKS_BAKE_RAW, s, UINT32_MAX, UINT32_MAX) == UINT64_MAX); /* saturates */
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(vks_bake_check(at("c.pc2"), VKS_BAKE_PC2, s, 70000, 70000, &err), VKS_ERR_LIMIT);
    CHECK(strstr(err.msg, "32 bits") != NULL);
    CHECK_EQ_INT(vks_bake_check(at("c.obj"), VKS_BAKE_OBJ, s, 2, 1, NULL), VKS_ERR_INVALID);
    CHECK_EQ_INT(vks_bake_check(at("c.raw"), VKS_BAKE_RAW, s, UINT32_MAX, UINT32_MAX, NULL), VKS_ERR_IO);
    CHECK_EQ_INT(vks_bake_check(at("c.raw"), VKS_BAKE_RAW, s, 2, 2, NULL), VKS_OK);
    vks_bake *b = NULL;
    CHECK_EQ_INT(vks_bake_open(&b, at("ro.txt"), VKS_BAKE_CSV, s, 1, 1, NULL), VKS_ERR_IO);
    CHECK(b == NULL && holds(at("ro.txt"), "keep"));
    CHECK_EQ_INT(vks_bake_open(&b, at("c.raw"), VKS_BAKE_RAW, s, 1, 1, NULL), VKS_OK);
    CHECK(b && vks_bake_temp_path(b) && strstr(vks_bake_temp_path(b), "c.raw.tmp."));
    vks_bake_close(b, 0, NULL);
    CHECK(!temporaries_left() && access(at("c.raw"), F_OK) != 0);
    vks_skin_free(s);
}

/* Frames larger than one room of the output (raw over VKS_OUTPUT_RESERVE_MAX bytes) are
 * written a room's worth of vertices at a time; smaller PC2 frames of the same model in one
 * room. Both byte for byte, on a model whose vertices are the file's. */
static void large_frames(void)
{
    vks_gen_params p = {0};
    p.bones = 20, p.vertices = 180000;
    vks_error err = {0};
    vks_skin *s = vks_gen_character(&p, &err);
    CHECK(s != NULL);
    if (!s)
        return;
    uint32_t V = s->vertex_count;
    int in_order = s->mesh_count == 1 && s->meshes[0].source_vertex_count == V;
    for (uint32_t v = 0; in_order && v < V; v++)
        in_order = s->source_vertex[v] == v;
    CHECK(in_order); /* what the expected bytes below assume */
    CHECK((size_t)V * 24 > VKS_OUTPUT_RESERVE_MAX && (size_t)V * 12 <= VKS_OUTPUT_RESERVE_MAX);
    float *pos = malloc((size_t)V * 12), *nrm = malloc((size_t)V * 12);
    if (!in_order || !pos || !nrm) {
        free(pos), free(nrm), vks_skin_free(s);
        return;
    }
    const vks_bake_format formats[2] = {VKS_BAKE_RAW, VKS_BAKE_PC2};
    const char *names[2] = {"large.raw", "large.pc2"};
    for (int k = 0; k < 2; k++) {
        vks_bake *b = NULL;
        CHECK_EQ_INT(vks_bake_open(&b, at(names[k]), formats[k], s, 1, 2, &err), VKS_OK);
        for (uint32_t f = 0; b && f < 2; f++) {
            for (uint32_t i = 0; i < V * 3; i++)
                pos[i] = (float)i + 0.25f * (float)f, nrm[i] = -(float)i - 0.5f * (float)f;
            CHECK_EQ_INT(vks_bake_write(b, 0, f, pos, nrm, &err), VKS_OK);
        }
        CHECK_EQ_INT(vks_bake_close(b, 1, &err), VKS_OK);
        int fd = open(at(names[k]), O_RDONLY);
        size_t head = k ? 32 : 0, per = k ? 3 : 6, bad = 0, got = 0;
        float buf[6];
        CHECK(fd >= 0 && lseek(fd, (off_t)head, SEEK_SET) == (off_t)head);
        for (uint32_t f = 0; fd >= 0 && f < 2; f++)
            for (uint32_t v = 0; v < V; v++) {
                got += read(fd, buf, per * 4) == (ssize_t)(per * 4);
                for (uint32_t c = 0; c < 3; c++) {
                    bad += buf[c] != (float)(v * 3 + c) + 0.25f * (float)f;
                    bad += per == 6 && buf[3 + c] != -(float)(v * 3 + c) - 0.5f * (float)f;
                }
            }
        CHECK_EQ_INT(got, 2 * (size_t)V);
        CHECK_EQ_INT(bad, 0);
        CHECK(fd >= 0 && read(fd, buf, 1) == 0); /* and nothing after */
        if (fd >= 0)
            close(fd);
    }
    free(pos), free(nrm);
    vks_skin_free(s);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/vks_output_XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    regular_files();
    refusals();
    streams_and_links();
    reserved_writes();
    temporaries();
    bake_checks();
    large_frames();
    char cmd[192];
    snprintf(cmd, sizeof cmd, "chmod -R u+w %s; rm -rf %s", dir, dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return vks_test_finish("test_output_file");
}
