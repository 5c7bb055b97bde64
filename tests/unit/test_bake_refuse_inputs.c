/* A host's bake obeys the rule of every output (docs/safety.md) as `vkskin bake` does, because
 * the library applies it, not the program: a job whose output is its own model (out_dir/NAME.pc2
 * is the model) is refused by vks_bake_run before any work, the line said through the host's
 * logger, the model left byte for byte; vks_bake_refuse_inputs passes the same job baked
 * elsewhere, and vks_bake_check_outputs refuses a merged report written over the manifest. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "vkskin.h"

static char said[4096];
static void keep_line(void *user, vks_log_level level, const char *msg)
{
    (void)user;
    if (level == VKS_LOG_ERROR && !said[0])
        snprintf(said, sizeof said, "%s", msg);
}

static void write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
        close(fd);
    }
}

static int same_text(const char *path, const char *text)
{
    char buf[256] = {0};
    int fd = open(path, O_RDONLY);
    ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
    if (fd >= 0)
        close(fd);
    return n == (ssize_t)strlen(text) && !memcmp(buf, text, (size_t)n);
}

int main(void)
{
    const char *bin = getenv("VKSKIN_BINARY_DIR");
    char dir[1024], model[1100], manifest[1100], want[4096], job[4096];
    char cwd[512];
    /* absolute: the manifest's relative paths would start in its own folder */
    snprintf(dir, sizeof dir, "%s/bake_refuse_XXXXXX", bin && *bin ? bin : getcwd(cwd, sizeof cwd) ? cwd : ".");
    CHECK(mkdtemp(dir) != NULL);
    snprintf(model, sizeof model, "%s/hero.pc2", dir);
    write_file(model, "not baked over");
    snprintf(manifest, sizeof manifest, "%s/bake.json", dir);
    snprintf(job, sizeof job,
             "{\"version\": 1, \"jobs\": [{\"name\": \"hero\", \"model\": \"%s\", \"clips\": [\"walk.anm\"], "
             "\"fps\": 30, \"outputs\": [\"pc2\"]}]}", model);
    write_file(manifest, job);

    vks_bake_options o;
    vks_bake_options_init(&o);
    o.engine = VKS_BAKE_CPU;
    o.out_dir = dir;
    o.logger.func = keep_line;
    vks_bake_manifest *m = NULL;
    vks_error err = {0};
    CHECK_EQ_INT(vks_bake_manifest_read(&m, manifest, &o, &err), VKS_OK);
    if (!m)
        return vks_test_finish("test_bake_refuse_inputs");

    /* the run itself refuses: a host that never asked is protected */
    CHECK_EQ_INT(vks_bake_run(m, &o, NULL, &err), VKS_ERR_INVALID);
    snprintf(want, sizeof want, "jobs[0]: %s/hero.pc2: the output is %s (the model of jobs[0]), one of the inputs; "
             "refusing to overwrite it", dir, model);
    if (strcmp(said, want))
        fprintf(stderr, "said\n  %s\nnot\n  %s\n", said, want);
    CHECK(!strcmp(said, want));
    CHECK(same_text(model, "not baked over"));
    vks_bake_job_info info;
    CHECK_EQ_INT(vks_bake_job_get(m, 0, &info), VKS_OK);
    CHECK(info.status != VKS_BAKE_JOB_BAKED);

    /* the same job into another folder is no input: passed */
    char elsewhere[1100];
    snprintf(elsewhere, sizeof elsewhere, "%s/baked", dir);
    o.out_dir = elsewhere;
    said[0] = 0;
    CHECK_EQ_INT(vks_bake_refuse_inputs(m, &o, NULL, NULL, 0, &err), VKS_OK);
    CHECK(!said[0]);
    /* a report of the host's over the manifest: refused, as --report is */
    CHECK_EQ_INT(vks_bake_refuse_inputs(m, &o, manifest, NULL, 0, &err), VKS_ERR_INVALID);
    snprintf(want, sizeof want, "--report %s: the output is %s (the manifest), one of the inputs; refusing to "
             "overwrite it", manifest, manifest);
    CHECK(!strcmp(said, want));
    /* the merge's report over the manifest */
    said[0] = 0;
    uint32_t missing = 0;
    CHECK_EQ_INT(vks_bake_check_outputs(m, &o, NULL, manifest, &missing, &err), VKS_ERR_INVALID);
    CHECK(!strcmp(said, want));
    CHECK(same_text(manifest, job));

    vks_bake_manifest_free(m);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
    return vks_test_finish("test_bake_refuse_inputs");
}
