/* Calibration at first use for crowds (vks_crowd_create; tuning_start.h), on lavapipe told it is
 * unknown to the tuning table (VKSKIN_TEST_UNKNOWN_DEVICE), the threshold lowered to 10,000
 * vertex-instances (VKSKIN_TEST_CALIBRATE_OVER), a private XDG_CACHE_HOME (the default cache
 * folder), the validation layer on. For a character of argv[1] vertices (default 300): a
 * small model's crowds calibrate the small-model class (its own cache entry; the context's
 * shape stays the table's), a larger one's the context's shape:
 *   - a small crowd (its desc names one frame: under the threshold) does not calibrate;
 *   - while it lives, a large vks_gpu_run does not calibrate either (the crowd's work lists fit
 *     the shape it was made with), and the crowd still matches the CPU reference after it;
 *     vks_gpu_tune refuses to run under it, and vks_gpu_launch_shape says no first run
 *     calibrates (calibrates_at_first_use 0, 1 again once it is destroyed);
 *   - a crowd whose desc names no frames is taken to run 60: one under the threshold per frame
 *     but over it in 60 calibrates once, stores the winner, and matches the reference; a
 *     second crowd does not calibrate again;
 *   - the next context starts from the cache and its large crowd does not calibrate;
 *   - a stream's crowds are sized by the stream's frame count (checked through the CLI,
 *     test_first_use_cli.sh).
 * Exits 77 where there is no Vulkan device. */
#define _POSIX_C_SOURCE 200809L
#include "crowd_check.h"
#include "gpu_check.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int warnings, calibrations, small_class;

/* The library's view of the small-model class's shape (gpu/vulkan/gpu_internal.h). */
void vks__small_launch_shape(const vks_gpu *gpu, vks_gpu_shape_info *out);

/* The shape of the class this test's crowds run with. */
static void class_shape(vks_gpu *gpu, vks_gpu_shape_info *s)
{
    if (small_class)
        vks__small_launch_shape(gpu, s);
    else
        vks_gpu_launch_shape(gpu, s);
}

static void count(void *user, vks_log_level level, const char *msg)
{
    (void)user;
    if (strstr(msg, "validation")) {
        vks_log_stderr(NULL, level, msg); /* ctest fails the layer's lines */
        return;
    }
    if (level == VKS_LOG_WARNING)
        warnings++;
    if (strstr(msg, "calibrating at first use")) {
        fprintf(stderr, "  (%s)\n", msg);
        calibrations++;
    }
}

static vks_gpu *context(void)
{
    vks_gpu_options o = {0}; /* cache_dir NULL: $XDG_CACHE_HOME/vkskin */
    o.logger.func = count;
    return gpu_check_context_opt(&o);
}

static const char *source_of(vks_gpu *gpu)
{
    static vks_gpu_shape_info s;
    class_shape(gpu, &s);
    return s.source;
}

/* The context's own shape: the table's all along where the crowds are of the small class. */
static int context_untouched(vks_gpu *gpu)
{
    vks_gpu_shape_info s;
    vks_gpu_launch_shape(gpu, &s);
    return !small_class || strcmp(s.source, "table") == 0;
}

static int exists(const char *path)
{
    struct stat st;
    return path[0] && stat(path, &st) == 0;
}

enum { MAX = 64 };
static vks_instance in[MAX];

/* A crowd of n procedural instances whose desc names `frames`, run one frame and checked
 * against the CPU reference; destroyed unless keep. */
static vks_crowd *crowd_of(vks_gpu *gpu, const vks_gpu_models *ms, const vks_skin *skin, uint32_t n, uint32_t frames,
                           int keep)
{
    memset(in, 0, sizeof in);
    for (uint32_t i = 0; i < n; i++)
        in[i].pose = VKS_POSE_PROCEDURAL, in[i].seed = 1 + i % 3, in[i].pose_instance = i;
    vks_crowd_desc d = {0};
    d.models = ms, d.instances = in, d.instance_count = n, d.frames = frames;
    vks_crowd *c = NULL;
    vks_error err = {0};
    CHECK_EQ_INT(vks_crowd_create(gpu, &d, &c, &err), VKS_OK);
    if (!c)
        return NULL;
    const vks_skin *skins[1] = {skin};
    CHECK_EQ_INT(vks_crowd_run_frame(c, 0.75f, NULL, &err), VKS_OK);
    CHECK(crowd_check(c, skins, in, n, 0.75f, NULL, "crowd"));
    if (!keep) {
        vks_crowd_destroy(c);
        c = NULL;
    }
    return c;
}

int main(int argc, char **argv)
{
    uint32_t vertices = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 300;
    small_class = vertices <= 4096; /* tuning.h: VKS__SMALL_MODEL_VERTICES */
    const char *subset = getenv("VKSKIN_TEST_SANITIZER_SUBSET");
    if (!small_class && subset && *subset) { /* tools/scripts/test.sh --sanitize */
        fprintf(stderr, "skipped under the sanitizers: the context's class runs the same calibration code as the "
                        "small class's run of this test, which they check; the plain build checks both\n");
        return 77;
    }
    fprintf(stderr, "a %u-vertex character: the %s\n", vertices, small_class ? "small-model class" : "context's shape");
    setenv("VKSKIN_TEST_UNKNOWN_DEVICE", "1", 1);
    setenv("VKSKIN_TEST_CALIBRATE_OVER", "10000", 1);
    unsetenv("VKSKIN_NO_CALIBRATE");
    unsetenv("VKS_TEST_LAUNCH_SHAPE"); /* this test is about the shape not being forced */
    char tmpl[] = "/tmp/vks_gpu_crowd_first_use_XXXXXX";
    char *dir = mkdtemp(tmpl);
    CHECK(dir != NULL);
    if (!dir)
        return vks_test_finish("test_gpu_crowd_first_use");
    /* Mesa's shader cache stays where it was (only vkskin's cache is private here): a cold
     * driver cache would compile every candidate's pipelines again, most of the test's time */
    char mesa[4096];
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (!getenv("MESA_SHADER_CACHE_DIR") && (xdg || home)) {
        snprintf(mesa, sizeof mesa, "%s%s/mesa_shader_cache", xdg ? xdg : home, xdg ? "" : "/.cache");
        setenv("MESA_SHADER_CACHE_DIR", mesa, 1);
    }
    setenv("XDG_CACHE_HOME", dir, 1);
    vks_skin *skin = gpu_check_character(vertices, 24, 4, 12, 3);
    if (!skin)
        return vks_test_finish("test_gpu_crowd_first_use");
    uint32_t v = skin->vertex_count;
    uint32_t per_frame = 9999 / v; /* instances under the threshold in one frame, over it in 60 */
    CHECK(per_frame >= 1 && (uint64_t)per_frame * v < 10000 && (uint64_t)per_frame * v * 60 >= 10000);
    uint32_t large_batch = 10000 / v + 1;

    vks_gpu *gpu = context();
    const vks_skin *one[1] = {skin};
    vks_gpu_models *ms = NULL;
    vks_error err = {0};
    CHECK_EQ_INT(vks_gpu_upload(gpu, one, 1, &ms, &err), VKS_OK);
    vks_gpu_shape_info s;
    class_shape(gpu, &s);
    CHECK(strcmp(s.source, "table") == 0);
    CHECK_EQ_INT(s.calibrates_at_first_use, 1);
    CHECK(strncmp(s.cache_path, dir, strlen(dir)) == 0); /* the private XDG_CACHE_HOME */
    char entry[512];
    snprintf(entry, sizeof entry, "%s", s.cache_path);

    fprintf(stderr, "a small crowd (one frame named): the table's shape\n");
    vks_crowd *small = crowd_of(gpu, ms, skin, per_frame, 1, 1);
    CHECK(strcmp(source_of(gpu), "table") == 0);
    CHECK_EQ_INT(calibrations, 0);
    /* what vkskin devices says of a first run: none calibrates while the crowd lives */
    class_shape(gpu, &s);
    CHECK_EQ_INT(s.calibrates_at_first_use, 0);

    fprintf(stderr, "a large run while the crowd lives: no calibration, the crowd still right\n");
    gpu_check_entry e = {skin, 0, large_batch, 0, 7};
    gpu_check_result r;
    CHECK_EQ_INT(gpu_check_run(gpu, ms, &e, 1, 0, &r), VKS_OK);
    CHECK(r.pass);
    CHECK_EQ_INT(calibrations, 0);
    CHECK(strcmp(source_of(gpu), "table") == 0);
    const vks_skin *skins[1] = {skin};
    CHECK_EQ_INT(vks_crowd_run_frame(small, 2.5f, NULL, &err), VKS_OK);
    CHECK(crowd_check(small, skins, in, per_frame, 2.5f, NULL, "the small crowd after the run"));
    fprintf(stderr, "vks_gpu_tune refuses to reshape under a live crowd\n");
    vks_gpu_tune_result tr;
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(vks_gpu_tune(gpu, skin, NULL, &tr, &err), VKS_ERR_INVALID);
    CHECK(strstr(err.msg, "crowd") != NULL);
    CHECK(strcmp(source_of(gpu), "table") == 0);
    vks_crowd_destroy(small);
    CHECK(!exists(entry));
    class_shape(gpu, &s); /* the crowd gone, a large first run would calibrate again */
    CHECK_EQ_INT(s.calibrates_at_first_use, 1);

    fprintf(stderr, "a crowd that names no frames (60 assumed): calibrates once, stores, matches\n");
    crowd_of(gpu, ms, skin, per_frame, 0, 0);
    CHECK_EQ_INT(calibrations, 1);
    class_shape(gpu, &s);
    CHECK(strcmp(s.source, "calibration") == 0);
    CHECK(context_untouched(gpu));
    CHECK_EQ_INT(s.calibrates_at_first_use, 0);
    CHECK(exists(entry));
    crowd_of(gpu, ms, skin, MAX, 5, 0);
    CHECK_EQ_INT(calibrations, 1);
    vks_gpu_models_free(ms);
    CHECK_EQ_INT(vks_gpu_validation_messages(gpu), 0);
    vks_gpu_destroy(gpu);

    fprintf(stderr, "the next context: the cache's shape, no calibration\n");
    gpu = context();
    ms = NULL;
    CHECK_EQ_INT(vks_gpu_upload(gpu, one, 1, &ms, &err), VKS_OK);
    CHECK(strcmp(source_of(gpu), "cache") == 0);
    crowd_of(gpu, ms, skin, MAX, 0, 0);
    CHECK_EQ_INT(calibrations, 1);
    CHECK(strcmp(source_of(gpu), "cache") == 0);
    CHECK(context_untouched(gpu));
    vks_gpu_models_free(ms);
    CHECK_EQ_INT(vks_gpu_validation_messages(gpu), 0);
    vks_gpu_destroy(gpu);
    CHECK_EQ_INT(warnings, 0);

    vks_skin_free(skin);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
    return vks_test_finish("test_gpu_crowd_first_use");
}
