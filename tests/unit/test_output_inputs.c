/* The outputs-are-not-inputs rule (the library's output_plan.h, docs/safety.md): an output
 * that is an input by any name (itself, a symlink, a hard link) is refused with the line the
 * program prints, a new name is not; and what each check costs: one stat of the output, not a
 * few per input (a bake checks hundreds of outputs against every model and clip of its
 * manifest). stat and lstat are counted through the linker's --wrap (tests/bake.cmake). Then
 * the per-model plan: two models of one output name, several models without a folder. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "vkskin.h"

/* the last line said through the logger */
static char said[2048];
static void keep_line(void *user, vks_log_level level, const char *msg)
{
    (void)user, (void)level;
    snprintf(said, sizeof said, "%s", msg);
}
static const vks_logger keep = {keep_line, NULL};

#define CHECK_EQ_STR(a, b)                                                                 \
    do {                                                                                   \
        if (strcmp((a), (b))) {                                                            \
            fprintf(stderr, "%s:%d: said\n  %s\nnot\n  %s\n", __FILE__, __LINE__, (a), (b)); \
            vks_test_failures++;                                                           \
        }                                                                                  \
    } while (0)

static long stats; /* stat and lstat calls while counting */
int __real_stat(const char *path, struct stat *st);
int __real_lstat(const char *path, struct stat *st);
int __wrap_stat(const char *path, struct stat *st)
{
    stats++;
    return __real_stat(path, st);
}
int __wrap_lstat(const char *path, struct stat *st)
{
    stats++;
    return __real_lstat(path, st);
}

enum { INPUTS = 40, OUTPUTS = 10 };

static void touch(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0)
        close(fd);
}

int main(void)
{
    /* a folder of the build's (CTest sets VKSKIN_BINARY_DIR), else the current one */
    const char *bin = getenv("VKSKIN_BINARY_DIR");
    char dir[1024], path[1100], other[1100];
    snprintf(dir, sizeof dir, "%s/output_inputs_XXXXXX", bin && *bin ? bin : ".");
    CHECK(mkdtemp(dir) != NULL);
    vks_output_inputs in = {0};
    for (int i = 0; i < INPUTS; i++) {
        char label[32];
        snprintf(path, sizeof path, "%s/input%d.dff", dir, i);
        touch(path);
        snprintf(label, sizeof label, "input %d", i);
        vks_output_inputs_add(&in, path, label);
    }
    snprintf(path, sizeof path, "%s/missing.anm", dir);
    vks_output_inputs_add(&in, path, "a missing input"); /* not listed: it cannot be overwritten */
    CHECK_EQ_INT(in.count, INPUTS);

    /* existing outputs that are no input: allowed, one stat each */
    stats = 0;
    for (int o = 0; o < OUTPUTS; o++) {
        snprintf(path, sizeof path, "%s/out%d.exr", dir, o);
        touch(path);
        CHECK_EQ_INT(vks_output_refuse_input(&in, "--out", path, &keep, NULL), VKS_OK);
    }
    CHECK(stats <= 2 * OUTPUTS); /* was 3 per input per output: 1200 */
    CHECK(stats >= OUTPUTS);     /* the wrap sees the library's own calls: the count means something */
    /* new names: allowed, as cheaply */
    stats = 0;
    for (int o = 0; o < OUTPUTS; o++) {
        snprintf(path, sizeof path, "%s/new%d.exr", dir, o);
        CHECK_EQ_INT(vks_output_refuse_input(&in, "--out", path, &keep, NULL), VKS_OK);
    }
    CHECK(stats <= 2 * OUTPUTS);

    /* an input by any name is refused: itself, another spelling, a symlink, a hard link */
    snprintf(path, sizeof path, "%s/input7.dff", dir);
    CHECK_EQ_INT(vks_output_refuse_input(&in, "--out", path, &keep, NULL), VKS_ERR_INVALID);
    char want[4096];
    snprintf(want, sizeof want, "--out %s: the output is %s (input 7), one of the inputs; refusing to overwrite it",
             path, path);
    CHECK_EQ_STR(said, want);
    vks_error err = {0};
    CHECK_EQ_INT(vks_output_refuse_input(&in, NULL, path, NULL, &err), VKS_ERR_INVALID); /* silent: err says it */
    CHECK(strstr(err.msg, "one of the inputs") != NULL);
    snprintf(other, sizeof other, "%s/./input7.dff", dir);
    CHECK_EQ_INT(vks_output_refuse_input(&in, "--out", other, &keep, NULL), VKS_ERR_INVALID);
    snprintf(other, sizeof other, "%s/link.dff", dir);
    CHECK(symlink(path, other) == 0);
    CHECK_EQ_INT(vks_output_refuse_input(&in, "--out", other, &keep, NULL), VKS_ERR_INVALID);
    snprintf(other, sizeof other, "%s/hard.dff", dir);
    CHECK(link(path, other) == 0);
    CHECK_EQ_INT(vks_output_refuse_input(&in, "--out", other, &keep, NULL), VKS_ERR_INVALID);
    /* a symlink to a file that does not exist makes a new file: allowed; standard output too */
    snprintf(path, sizeof path, "%s/nowhere.dff", dir);
    snprintf(other, sizeof other, "%s/dangling.dff", dir);
    CHECK(symlink(path, other) == 0);
    CHECK_EQ_INT(vks_output_refuse_input(&in, "--out", other, &keep, NULL), VKS_OK);
    CHECK_EQ_INT(vks_output_refuse_input(&in, "--out", "-", &keep, NULL), VKS_OK);

    /* a model lists the files its reader reads beside it: a .gltf's buffer is an input too */
    vks_output_inputs gltf = {0};
    snprintf(path, sizeof path, "%s/m.gltf", dir);
    snprintf(other, sizeof other, "%s/m.bin", dir);
    touch(other);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs("{\"asset\": {\"version\": \"2.0\"}, \"buffers\": [{\"uri\": \"m.bin\", \"byteLength\": 4}]}", f);
        fclose(f);
    }
    vks_output_inputs_add_model(&gltf, path, NULL, "the model");
    CHECK_EQ_INT(gltf.count, 2);
    CHECK_EQ_INT(vks_output_refuse_input(&gltf, "--out", other, &keep, NULL), VKS_ERR_INVALID);
    snprintf(want, sizeof want, "--out %s: the output is %s (buffers[0] of %s), one of the inputs; refusing to "
             "overwrite it", other, other, path);
    CHECK_EQ_STR(said, want);
    /* every *.json of a folder (a merge's shard reports), not a name that is ".json" alone */
    snprintf(other, sizeof other, "%s/a.json", dir);
    touch(other);
    snprintf(other, sizeof other, "%s/.json", dir);
    touch(other);
    vks_output_inputs_add_like(&gltf, dir, "", ".json", "a shard report");
    CHECK_EQ_INT(gltf.count, 3);
    vks_output_inputs_free(&gltf);

    /* names known only during the run: a matching file that is an input is refused */
    CHECK_EQ_INT(vks_output_refuse_input_like(&in, "--report", dir, "input1", ".dff", &keep, NULL), VKS_ERR_INVALID);
    CHECK_EQ_INT(vks_output_refuse_input_like(&in, "--report", dir, "out", ".exr", &keep, NULL), VKS_OK);

    /* one output per model: in a folder, by the models' file names; one name twice is refused */
    vks_output_plan plan;
    const char *models[3];
    char m0[1100], m1[1100];
    snprintf(m0, sizeof m0, "%s/input1.dff", dir);
    snprintf(m1, sizeof m1, "%s/input2.dff", dir);
    models[0] = m0, models[1] = m1, models[2] = m0;
    CHECK_EQ_INT(vks_output_plan_models(&plan, dir, "--out", "csv", models, 2, &in, &keep, NULL), VKS_OK);
    snprintf(want, sizeof want, "%s/input2.dff.csv", dir);
    CHECK_EQ_INT((int)plan.count, 2);
    CHECK_EQ_STR(plan.paths[1], want);
    /* a side output on a main output's name is refused, naming both */
    vks_output_plan side = {calloc(2, sizeof(char *)), 2};
    side.paths[0] = strdup(plan.paths[1]);
    vks_output_side what = {"vertex output", "root-motion CSV", "--root-motion", NULL};
    CHECK_EQ_INT(vks_output_plan_side(&plan, &side, &what, models, &in, &keep, NULL), VKS_ERR_INVALID);
    snprintf(want, sizeof want, "the vertex output of %s and the root-motion CSV of %s would both be written to "
             "%s/input2.dff.csv; give them different file names", m1, m0, dir);
    CHECK_EQ_STR(said, want);
    free(side.paths[0]);
    snprintf(path, sizeof path, "%s/input1.dff.csv.root_motion.csv", dir);
    side.paths[0] = strdup(path);
    CHECK_EQ_INT(vks_output_plan_side(&plan, &side, &what, models, &in, &keep, NULL), VKS_OK);
    vks_output_plan_free(&side);
    vks_output_plan_free(&plan);
    CHECK_EQ_INT(vks_output_plan_models(&plan, dir, "--out", "csv", models, 3, &in, &keep, NULL), VKS_ERR_INVALID);
    snprintf(want, sizeof want, "inputs %s and %s would both be written to %s/input1.dff.csv; give them different "
             "file names", m0, m0, dir);
    CHECK_EQ_STR(said, want);
    vks_output_plan_free(&plan);
    CHECK_EQ_INT(vks_output_plan_models(&plan, "-", "--out", "csv", models, 2, &in, &keep, NULL), VKS_ERR_INVALID);
    CHECK_EQ_STR(said, "--out - (standard output) takes one input; give a folder for 2");
    vks_output_plan_free(&plan);
    /* one model whose output is an input */
    CHECK_EQ_INT(vks_output_plan_models(&plan, m1, "--out", "csv", models, 1, &in, &keep, NULL), VKS_ERR_INVALID);
    vks_output_plan_free(&plan);

    vks_output_inputs_free(&in);
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
    return vks_test_finish("test_output_inputs");
}
