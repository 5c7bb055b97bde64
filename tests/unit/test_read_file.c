/* The library as a host embeds it (issue 10, "Library, not CLI"): vks_read_file reads a P3D
 * and finds its model.cfg through a file callback serving memory (no file system), notes come
 * through the logger, the default callback refuses an over-limit file, and the allocator of
 * the options carries every allocation of the XML parser and the CPU engines, each of which
 * can fail cleanly (VKS_ERR_NOMEM, nothing leaked). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "character.h"
#include "testutil.h"
#include "vkskin/cpu.h"

/* ---- a file system in memory ---- */
typedef struct mem_file {
    const char *path;
    const void *bytes;
    size_t size;
} mem_file;
typedef struct mem_fs {
    mem_file files[4];
    int count, reads, releases;
    char asked[8][64];
} mem_fs;

static vks_result mem_read(void *user, const char *path, uint64_t max_size, void **bytes, size_t *size,
                           vks_error *err)
{
    mem_fs *fs = user;
    if (fs->reads < 8)
        snprintf(fs->asked[fs->reads], sizeof fs->asked[0], "%s", path);
    fs->reads++;
    for (int i = 0; i < fs->count; i++)
        if (!strcmp(fs->files[i].path, path)) {
            if (fs->files[i].size > max_size)
                return vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "file", "over the limit");
            *bytes = (void *)fs->files[i].bytes;
            *size = fs->files[i].size;
            return VKS_OK;
        }
    return vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, "file", "not in memory");
}

static void mem_release(void *user, void *bytes)
{
    (void)bytes;
    ((mem_fs *)user)->releases++;
}

typedef struct log_capture {
    int count;
    vks_log_level level;
    char last[256];
} log_capture;

static void capture(void *user, vks_log_level level, const char *msg)
{
    log_capture *c = user;
    c->count++;
    c->level = level;
    snprintf(c->last, sizeof c->last, "%s", msg);
}

static void test_p3d_from_memory(const vks_skin *src)
{
    uint8_t *p3d = NULL, *cfg = NULL;
    size_t np = 0, nc = 0;
    vks_error err = {0};
    CHECK_EQ_INT(vks_p3d_write(src, NULL, &p3d, &np, &err), VKS_OK);
    CHECK_EQ_INT(vks_p3d_write_model_cfg(src, "hero", &cfg, &nc, &err), VKS_OK);

    /* the config two folders up: the search walks chars/hero.model.cfg, chars/model.cfg, model.cfg */
    mem_fs fs = {{{"chars/hero.p3d", p3d, np}, {"model.cfg", cfg, nc}}, 2, 0, 0, {{0}}};
    log_capture log = {0};
    vks_read_options o = {0};
    o.file.read = mem_read;
    o.file.release = mem_release;
    o.file.user = &fs;
    o.logger.func = capture;
    o.logger.user = &log;
    vks_skin *s = NULL;
    CHECK_EQ_INT(vks_read_file(&o, "chars/hero.p3d", &s, &err), VKS_OK);
    CHECK(s && s->node_count == src->node_count); /* the skeleton came from the config */
    CHECK_EQ_INT(fs.reads, 4);
    CHECK_EQ_INT(fs.releases, 2); /* the model and the config, each released once */
    CHECK(!strcmp(fs.asked[1], "chars/hero.model.cfg") && !strcmp(fs.asked[2], "chars/model.cfg"));
    CHECK_EQ_INT(log.count, 1);
    CHECK_EQ_INT(log.level, VKS_LOG_INFO);
    CHECK(!strcmp(log.last, "chars/hero.p3d: using skeleton config model.cfg"));
    vks_skin_free(s);

    char found[64];
    CHECK_EQ_INT(vks_p3d_find_model_cfg(&o, "chars/hero.p3d", found, sizeof found), 1);
    CHECK(!strcmp(found, "model.cfg"));
    CHECK_EQ_INT(vks_p3d_find_model_cfg(&o, "chars/hero.p3d", found, 8), 0); /* cap too small */

    /* a broken config beside the model: the error names it and its line */
    static const char bad[] = "class CfgSkeletons\n{\n  class X {\n    skeletonBones[] = { \"a\" \n";
    fs.files[2] = (mem_file){"chars/hero.model.cfg", bad, sizeof bad - 1};
    fs.count = 3;
    memset(&err, 0, sizeof err);
    s = NULL;
    CHECK(vks_read_file(&o, "chars/hero.p3d", &s, &err) != VKS_OK);
    CHECK(!s);
    CHECK(!strcmp(err.file, "chars/hero.model.cfg"));
    CHECK(err.line > 0);

    /* an explicit config that is not there is an error naming it, not a reason to search */
    o.p3d.model_cfg_name = "missing.cfg";
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(vks_read_file(&o, "chars/hero.p3d", &s, &err), VKS_ERR_IO);
    CHECK(!strcmp(err.file, "missing.cfg"));
    free(p3d);
    free(cfg);
}

static void test_default_limit(void)
{
    char path[] = "/tmp/vks_read_file_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    static char block[1 << 16];
    for (int i = 0; i < 17; i++) /* 1.06 MB */
        CHECK(write(fd, block, sizeof block) == (ssize_t)sizeof block);
    close(fd);
    vks_read_options o = {0};
    o.file.max_size = 1 << 20;
    vks_skin *s = NULL;
    vks_error err = {0};
    CHECK_EQ_INT(vks_read_file(&o, path, &s, &err), VKS_ERR_LIMIT);
    CHECK(!strcmp(err.path, "file") && strstr(err.msg, "input limit of 1 MB"));
    /* a device that never ends is cut at the limit */
    void *bytes = NULL;
    size_t size = 0;
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(vks_file_read_default(NULL, "/dev/zero", 1 << 20, &bytes, &size, &err), VKS_ERR_LIMIT);
    CHECK(!bytes);
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(vks_file_read_default(NULL, "/tmp", 1 << 20, &bytes, &size, &err), VKS_ERR_IO);
    unlink(path);
}

/* ---- a counting allocator that can fail its nth call ---- */
typedef struct counter {
    long calls, live, fail_at; /* fail_at: 1-based call that fails; 0: never */
} counter;

static void *count_alloc(void *user, size_t size)
{
    counter *c = user;
    if (++c->calls == c->fail_at)
        return NULL;
    void *p = malloc(size);
    if (p)
        __atomic_add_fetch(&c->live, 1, __ATOMIC_RELAXED);
    return p;
}

static void count_free(void *user, void *p)
{
    counter *c = user;
    if (p)
        __atomic_sub_fetch(&c->live, 1, __ATOMIC_RELAXED);
    free(p);
}

/* A stream is read up to one byte past the limit, never further (issue 21): no block larger
 * than limit + 1 is asked for, and a pipe that ends between the limit and twice it is refused
 * (reading on by doubling took it whole). */
static void *largest_alloc(void *user, size_t size)
{
    size_t *largest = user;
    if (size > *largest)
        *largest = size;
    return malloc(size);
}

static void largest_free(void *user, void *p)
{
    (void)user;
    free(p);
}

static void test_stream_limit(void)
{
    const uint64_t limit = 1 << 20;
    size_t largest = 0;
    vks_allocator a = {largest_alloc, largest_free, &largest};
    void *bytes = NULL;
    size_t size = 0;
    vks_error err = {0};
    CHECK_EQ_INT(vks_file_read_default(&a, "/dev/zero", limit, &bytes, &size, &err), VKS_ERR_LIMIT);
    CHECK(largest <= limit + 1);
    int fds[2];
    CHECK(pipe(fds) == 0);
    pid_t child = fork();
    if (child == 0) { /* 1.5 MB, then the end of the stream */
        close(fds[0]);
        static char block[1 << 16];
        for (int i = 0; i < 24; i++)
            if (write(fds[1], block, sizeof block) != (ssize_t)sizeof block)
                _exit(1);
        _exit(0);
    }
    close(fds[1]);
    char path[32];
    snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
    memset(&err, 0, sizeof err);
    largest = 0;
    CHECK_EQ_INT(vks_file_read_default(&a, path, limit, &bytes, &size, &err), VKS_ERR_LIMIT);
    CHECK(strstr(err.msg, "goes on past the limit") != NULL);
    CHECK(largest <= limit + 1);
    if (bytes)
        free(bytes), bytes = NULL;
    close(fds[0]);
    int status = 0;
    waitpid(child, &status, 0); /* killed by SIGPIPE once the reader stopped: expected */
}

static void test_allocator_xml(void)
{
    size_t n = 0;
    vks_error err = {0};
    uint8_t *xml = vks_test_read_file(vks_test_source_path("tests/data/cmdl/smooth_rigid_none.cmdl"), &n);
    CHECK(xml != NULL);
    if (!xml)
        return;
    counter c = {0};
    vks_read_options o = {0};
    o.allocator = (vks_allocator){count_alloc, count_free, &c};
    vks_skin *s = NULL;
    CHECK_EQ_INT(vks_cmdl_read(&o, xml, n, &s, &err), VKS_OK);
    vks_skin_free(s);
    long total = c.calls;
    CHECK(total > 10); /* expat's own blocks among them */
    CHECK_EQ_INT(c.live, 0);
    for (long k = 1; k <= total; k++) {
        c = (counter){0, 0, k};
        memset(&err, 0, sizeof err);
        s = NULL;
        vks_result r = vks_cmdl_read(&o, xml, n, &s, &err);
        /* expat reports its own exhaustion as a parse error it names; the reader, NOMEM */
        CHECK(r == VKS_ERR_NOMEM || (r == VKS_ERR_FORMAT && strstr(err.msg, "memory")));
        CHECK(!s);
        CHECK_EQ_INT(c.live, 0);
    }
    free(xml);
}

static void test_allocator_cpu(const vks_skin *s)
{
    uint32_t inst = 3;
    vks_affine *locals = malloc((size_t)inst * s->node_count * sizeof *locals);
    float *pos = malloc((size_t)inst * s->vertex_count * 3 * sizeof *pos);
    for (uint32_t i = 0; i < inst; i++)
        for (uint32_t k = 0; k < s->node_count; k++)
            locals[(size_t)i * s->node_count + k] = s->nodes[k].bind_local;
    vks_deform_job j = {0};
    j.skin = s, j.locals = locals, j.instance_count = inst, j.positions = pos;
    counter c = {0};
    vks_cpu_options o = {0};
    o.threads = 2;
    o.allocator = (vks_allocator){count_alloc, count_free, &c};
    vks_error err = {0};
    CHECK_EQ_INT(vks_cpu_fast_run_opt(&j, &o, &err), VKS_OK);
    long total = c.calls;
    CHECK(total >= 2 + 3 * 2);
    CHECK_EQ_INT(c.live, 0);
    for (long k = 1; k <= total; k++) {
        c = (counter){0, 0, k};
        memset(&err, 0, sizeof err);
        CHECK_EQ_INT(vks_cpu_fast_run_opt(&j, &o, &err), VKS_ERR_NOMEM);
        CHECK_EQ_INT(c.live, 0);
    }
    c = (counter){0};
    CHECK_EQ_INT(vks_cpu_reference_run_opt(&j, &o, &err), VKS_OK);
    CHECK_EQ_INT(c.calls, 2);
    c = (counter){0, 0, 2};
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(vks_cpu_reference_run_opt(&j, &o, &err), VKS_ERR_NOMEM);
    CHECK_EQ_INT(c.live, 0);
    free(locals);
    free(pos);
}

/* pose files: the set and the parse's temporaries through the allocator (cJSON's tree stays
 * in cJSON's own malloc: it has only process-wide hooks) */
static void test_allocator_pose(const vks_skin *s)
{
    static const char json[] = "{\"frames\": [{\"nodes\": [{\"index\": 0, \"translation\": [1, 2, 3]}]},"
                               " {\"nodes\": []}]}";
    counter c = {0};
    vks_allocator a = {count_alloc, count_free, &c};
    vks_pose_set set;
    vks_error err = {0};
    CHECK_EQ_INT(vks_pose_file_parse_with(s, json, sizeof json - 1, &a, &set, &err), VKS_OK);
    CHECK_EQ_INT(set.frame_count, 2);
    CHECK_EQ_INT(c.calls, 2);
    CHECK_EQ_INT(c.live, 1); /* the set's locals, until it is freed */
    vks_pose_set_free(&set);
    CHECK_EQ_INT(c.live, 0);
    for (long k = 1; k <= 2; k++) {
        c = (counter){0, 0, k};
        memset(&err, 0, sizeof err);
        CHECK_EQ_INT(vks_pose_file_parse_with(s, json, sizeof json - 1, &a, &set, &err), VKS_ERR_NOMEM);
        CHECK_EQ_INT(c.live, 0);
        vks_pose_set_free(&set); /* harmless after a failure */
    }
}

int main(void)
{
    vks_gen_params p = {0};
    vks_error err = {0};
    vks_skin *c = vks_gen_character(&p, &err);
    CHECK(c != NULL);
    if (!c)
        return vks_test_finish("test_read_file");
    test_p3d_from_memory(c);
    test_default_limit();
    test_stream_limit();
    test_allocator_xml();
    test_allocator_cpu(c);
    test_allocator_pose(c);
    vks_skin_free(c);
    return vks_test_finish("test_read_file");
}
