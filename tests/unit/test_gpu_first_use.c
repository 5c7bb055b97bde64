/* Calibration at first use on the device at hand (lavapipe in CI, which the tuning table knows:
 * VKSKIN_TEST_UNKNOWN_DEVICE makes it count as unknown), with the validation layer on and the
 * threshold lowered to 10,000 vertex-instances (VKSKIN_TEST_CALIBRATE_OVER; the real one is
 * tested in test_tuning_start): a small run does not calibrate (source "table", nothing in the
 * cache), nor does a large vks_gpu_run without the explicit vks_gpu_calibrate_for_batch; a large
 * one after it calibrates once, writes the cache, and its results still match the CPU
 * reference; a second context starts from the cache; a later context whose cache cannot be
 * written takes the process's winner without measuring again (one calibration per process and
 * device); vks_gpu_options.calibrate < 0, VKSKIN_NO_CALIBRATE=1 and a forced shape turn it
 * off. Exits 77 where there is no Vulkan device. */
#define _POSIX_C_SOURCE 200809L
#include "gpu_check.h"
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int warnings, calibrations;

static void count(void *user, vks_log_level level, const char *msg)
{
    (void)user;
    if (strstr(msg, "validation")) {
        vks_log_stderr(NULL, level, msg); /* ctest fails the layer's lines */
        return;
    }
    if (level == VKS_LOG_WARNING)
        warnings++;
    if (strstr(msg, "calibrating at first use"))
        calibrations++;
}

static vks_gpu *context(const char *dir, int calibrate, const char *shape)
{
    vks_gpu_options o = {0};
    o.cache_dir = dir;
    o.calibrate = calibrate;
    o.launch_shape = shape;
    o.logger.func = count;
    return gpu_check_context_opt(&o);
}

static vks_gpu_shape_info shape_of(vks_gpu *gpu)
{
    vks_gpu_shape_info s;
    vks_gpu_launch_shape(gpu, &s);
    return s;
}

static int exists(const char *path)
{
    struct stat st;
    return path[0] && stat(path, &st) == 0;
}

/* Runs `instances` instances of the skin against the CPU reference. */
static void run(vks_gpu *gpu, const vks_skin *skin, uint32_t instances)
{
    const vks_skin *one[1] = {skin};
    vks_gpu_models *ms = NULL;
    vks_error err = {0};
    CHECK_EQ_INT(vks_gpu_upload(gpu, one, 1, &ms, &err), VKS_OK);
    gpu_check_entry e = {skin, 0, instances, 0, 7};
    gpu_check_result r;
    CHECK_EQ_INT(gpu_check_run(gpu, ms, &e, 1, 0, &r), VKS_OK);
    CHECK(r.pass);
    vks_gpu_models_free(ms);
}

int main(void)
{
    setenv("VKSKIN_TEST_UNKNOWN_DEVICE", "1", 1);
    setenv("VKSKIN_TEST_CALIBRATE_OVER", "10000", 1);
    unsetenv("VKSKIN_NO_CALIBRATE");
    unsetenv("VKS_TEST_LAUNCH_SHAPE"); /* this test is about the shape not being forced */
    char tmpl[] = "/tmp/vks_gpu_first_use_XXXXXX";
    char *dir = mkdtemp(tmpl);
    CHECK(dir != NULL);
    if (!dir)
        return vks_test_finish("test_gpu_first_use");
    /* 5,000 vertices: past the small-model class (gpu/tuning.h), whose runs calibrate a shape
       of their own (test_first_use_cli, test_gpu_crowd_first_use); these the context's */
    vks_skin *skin = gpu_check_character(5000, 24, 4, 12, 3);
    if (!skin)
        return vks_test_finish("test_gpu_first_use");
    uint32_t small = 1, large = 10000 / skin->vertex_count + 1; /* one vertex-instance under / over */
    CHECK((uint64_t)skin->vertex_count * small < 10000);

    /* Small work: the table's shape, nothing measured or stored. */
    vks_gpu *gpu = context(dir, 0, NULL);
    vks_gpu_shape_info s = shape_of(gpu);
    CHECK(strcmp(s.source, "table") == 0);
    CHECK_EQ_INT(s.calibrates_at_first_use, 1);
    CHECK(strncmp(s.cache_path, dir, strlen(dir)) == 0);
    char entry[512];
    snprintf(entry, sizeof entry, "%s", s.cache_path);
    run(gpu, skin, small);
    CHECK(strcmp(shape_of(gpu).source, "table") == 0);
    CHECK_EQ_INT(calibrations, 0);
    CHECK(!exists(entry));

    /* Large work run without the explicit step: vks_gpu_run never calibrates from inside. */
    gpu_check_skip_calibration = 1;
    run(gpu, skin, large);
    gpu_check_skip_calibration = 0;
    CHECK(strcmp(shape_of(gpu).source, "table") == 0);
    CHECK_EQ_INT(calibrations, 0);

    /* Large work after vks_gpu_calibrate_for_batch: calibrates once, stores, and the results
       still match the reference. */
    run(gpu, skin, large);
    s = shape_of(gpu);
    CHECK(strcmp(s.source, "calibration") == 0);
    CHECK_EQ_INT(s.calibrates_at_first_use, 0);
    CHECK_EQ_INT(calibrations, 1);
    CHECK(exists(entry));
    run(gpu, skin, large);
    CHECK_EQ_INT(calibrations, 1);
    CHECK_EQ_INT(warnings, 0);
    vks_gpu_destroy(gpu);

    /* The next context starts from the cache and never calibrates. */
    gpu = context(dir, 0, NULL);
    s = shape_of(gpu);
    CHECK(strcmp(s.source, "cache") == 0);
    CHECK_EQ_INT(s.calibrates_at_first_use, 0);
    run(gpu, skin, large);
    CHECK_EQ_INT(calibrations, 1);
    vks_gpu_destroy(gpu);

    /* A later context of this process on this device, whose cache cannot be written (its folder
     * would be under a file): one calibration per process and device, so it does not time the
     * candidates again but takes the process's winner, and stores nothing (no warning). The
     * unwritable cache's own warning is test_first_use_cli's, in a process of its own. */
    char blocker[600], unwritable[700];
    snprintf(blocker, sizeof blocker, "%s/blocker", dir);
    snprintf(unwritable, sizeof unwritable, "%s/vkskin", blocker);
    FILE *f = fopen(blocker, "w");
    CHECK(f != NULL);
    if (f)
        fclose(f);
    gpu = context(unwritable, 0, NULL);
    CHECK(strcmp(shape_of(gpu).source, "table") == 0);
    run(gpu, skin, large);
    s = shape_of(gpu);
    CHECK(strcmp(s.source, "calibration") == 0);
    CHECK(strstr(s.reason, "another context of this process") != NULL);
    CHECK_EQ_INT(calibrations, 1);
    CHECK_EQ_INT(warnings, 0);
    run(gpu, skin, large);
    CHECK_EQ_INT(calibrations, 1);
    CHECK_EQ_INT(warnings, 0);
    vks_gpu_destroy(gpu);
    remove(blocker);

    /* Turned off: the option, the environment variable, a forced shape. */
    char fresh[600];
    snprintf(fresh, sizeof fresh, "%s/fresh", dir);
    for (int way = 0; way < 3; way++) {
        if (way == 1)
            setenv("VKSKIN_NO_CALIBRATE", "1", 1);
        gpu = context(fresh, way == 0 ? -1 : 0, way == 2 ? "wg=64,run=32,palette=off" : NULL);
        s = shape_of(gpu);
        CHECK(strcmp(s.source, way == 2 ? "forced" : "table") == 0);
        CHECK_EQ_INT(s.calibrates_at_first_use, 0);
        run(gpu, skin, large);
        CHECK(strcmp(shape_of(gpu).source, way == 2 ? "forced" : "table") == 0);
        CHECK_EQ_INT(calibrations, 1);
        vks_gpu_destroy(gpu);
        unsetenv("VKSKIN_NO_CALIBRATE");
    }
    CHECK_EQ_INT(warnings, 0);
    vks_skin_free(skin);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
    return vks_test_finish("test_gpu_first_use");
}
