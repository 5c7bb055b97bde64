/* The outputs-are-not-inputs rule (tools/vkskin/cli_inputs.c, docs/safety.md): an output that
 * is an input by any name (itself, a symlink, a hard link) is refused, a new name is not; and
 * what each check costs: one stat of the output, not a few per input (a bake checks hundreds
 * of outputs against every model and clip of its manifest). stat and lstat are counted through
 * the linker's --wrap (tests/bake.cmake). */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "testutil.h"

/* what cli_inputs.c needs from the rest of the program, none of it used here */
uint64_t vks_cli_max_input_bytes = 1u << 30;
const char **vks_cli_anim_inputs(const vks_cli_pose *p, int *count)
{
    (void)p;
    *count = 0;
    return NULL;
}

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
    snprintf(dir, sizeof dir, "%s/cli_inputs_XXXXXX", bin && *bin ? bin : ".");
    CHECK(mkdtemp(dir) != NULL);
    vks_cli_inputs in = {0};
    for (int i = 0; i < INPUTS; i++) {
        snprintf(path, sizeof path, "%s/input%d.dff", dir, i);
        touch(path);
        vks_cli_inputs_add(&in, path, "input %d", i);
    }
    snprintf(path, sizeof path, "%s/missing.anm", dir);
    vks_cli_inputs_add(&in, path, "a missing input"); /* not listed: it cannot be overwritten */
    CHECK_EQ_INT(in.count, INPUTS);

    /* existing outputs that are no input: allowed, one stat each */
    stats = 0;
    for (int o = 0; o < OUTPUTS; o++) {
        snprintf(path, sizeof path, "%s/out%d.exr", dir, o);
        touch(path);
        CHECK_EQ_INT(vks_cli_refuse_input(&in, "--out", path), VKS_EXIT_OK);
    }
    CHECK(stats <= 2 * OUTPUTS); /* was 3 per input per output: 1200 */
    /* new names: allowed, as cheaply */
    stats = 0;
    for (int o = 0; o < OUTPUTS; o++) {
        snprintf(path, sizeof path, "%s/new%d.exr", dir, o);
        CHECK_EQ_INT(vks_cli_refuse_input(&in, "--out", path), VKS_EXIT_OK);
    }
    CHECK(stats <= 2 * OUTPUTS);

    /* an input by any name is refused: itself, another spelling, a symlink, a hard link */
    snprintf(path, sizeof path, "%s/input7.dff", dir);
    CHECK_EQ_INT(vks_cli_refuse_input(&in, "--out", path), VKS_EXIT_USAGE);
    snprintf(other, sizeof other, "%s/./input7.dff", dir);
    CHECK_EQ_INT(vks_cli_refuse_input(&in, "--out", other), VKS_EXIT_USAGE);
    snprintf(other, sizeof other, "%s/link.dff", dir);
    CHECK(symlink(path, other) == 0);
    CHECK_EQ_INT(vks_cli_refuse_input(&in, "--out", other), VKS_EXIT_USAGE);
    snprintf(other, sizeof other, "%s/hard.dff", dir);
    CHECK(link(path, other) == 0);
    CHECK_EQ_INT(vks_cli_refuse_input(&in, "--out", other), VKS_EXIT_USAGE);
    /* a symlink to a file that does not exist makes a new file: allowed; standard output too */
    snprintf(path, sizeof path, "%s/nowhere.dff", dir);
    snprintf(other, sizeof other, "%s/dangling.dff", dir);
    CHECK(symlink(path, other) == 0);
    CHECK_EQ_INT(vks_cli_refuse_input(&in, "--out", other), VKS_EXIT_OK);
    CHECK_EQ_INT(vks_cli_refuse_input(&in, "--out", "-"), VKS_EXIT_OK);

    vks_cli_inputs_free(&in);
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
    return vks_test_finish("test_cli_inputs");
}
