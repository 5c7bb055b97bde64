/* vks_gpu_tune on the device at hand (lavapipe in CI), with the validation layer on: it picks
 * the fastest of planted candidates whichever comes first (one of them is made slow for real:
 * workgroups of one invocation that loop over one instance), switches the context to it (the
 * results still match the CPU reference), stores it in the cache, and the next context on this
 * device and driver starts with it; a damaged entry is ignored with a warning; an entry for
 * another driver is not used; a candidate the device cannot run is refused before any timing
 * and leaves the context as it was. Exits 77 where there is no Vulkan device. */
#define _POSIX_C_SOURCE 200809L
#include "gpu_check.h"
#include "planted_shapes.h"
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

static int warnings;
static char last_warning[1024];

static void count_warnings(void *user, vks_log_level level, const char *msg)
{
    (void)user;
    if (level == VKS_LOG_WARNING && !strstr(msg, "validation")) {
        warnings++;
        snprintf(last_warning, sizeof last_warning, "%s", msg);
    }
    if (strstr(msg, "validation"))
        vks_log_stderr(NULL, level, msg); /* ctest fails the layer's lines */
}

static vks_gpu *context(const char *cache_dir)
{
    vks_gpu_options o = {0};
    o.cache_dir = cache_dir;
    o.logger.func = count_warnings;
    return gpu_check_context_opt(&o);
}

static const char *source_of(vks_gpu *gpu, char *text, size_t n)
{
    vks_gpu_shape_info info;
    vks_gpu_launch_shape(gpu, &info);
    snprintf(text, n, "%s", info.text);
    return info.source;
}

int main(void)
{
    char tmpl[] = "/tmp/vks_gpu_tune_XXXXXX";
    char *dir = mkdtemp(tmpl);
    CHECK(dir != NULL);
    if (!dir)
        return vks_test_finish("test_gpu_tune");
    vks_gpu *gpu = context(dir);
    vks_skin *a = gpu_check_character(5000, 32, 4, 12, 5); /* past the small-model class: the context's shape */
    if (!a)
        return vks_test_finish("test_gpu_tune");
    char text[128], fast_text[128];
    CHECK(strcmp(source_of(gpu, text, sizeof text), "table") == 0);

    /* The planted slow candidate loses whether it comes first or last. */
    const char *fast = VKS_TEST_FAST_CANDIDATE, *slow = VKS_TEST_SLOW_CANDIDATE;
    const char *orders[2][2] = {{slow, fast}, {fast, slow}};
    vks_gpu_tune_result r;
    vks_error err = {0};
    for (int o = 0; o < 2; o++) {
        vks_gpu_tune_options t = {orders[o], 2, 8, 2, o == 1}; /* 8 x 5,000: the work 24 x 1,500 was */
        CHECK(vks_gpu_tune(gpu, a, &t, &r, &err) == VKS_OK);
        CHECK_EQ_INT(r.count, 2);
        fprintf(stderr, "order %d: %s %.3g/s, %s %.3g/s -> %u\n", o, r.candidate[0].shape,
                r.candidate[0].vertex_instances_per_second, r.candidate[1].shape,
                r.candidate[1].vertex_instances_per_second, r.best);
        CHECK_EQ_INT(r.best, o == 0 ? 1 : 0);
        CHECK(strncmp(r.candidate[r.best].shape, "wg=64,", 6) == 0);
        CHECK(r.candidate[1 - r.best].deform_ms > r.candidate[r.best].deform_ms);
        CHECK(strcmp(source_of(gpu, text, sizeof text), "calibration") == 0);
        CHECK(strcmp(text, r.candidate[r.best].shape) == 0);
    }
    snprintf(fast_text, sizeof fast_text, "%s", text);
    CHECK(r.stored);
    CHECK(strstr(r.cache_path, dir) == r.cache_path);
    char path[1024];
    snprintf(path, sizeof path, "%s", r.cache_path);

    /* The context runs the winner correctly. */
    const vks_skin *skins[1] = {a};
    vks_gpu_models *ms = NULL;
    CHECK(vks_gpu_upload(gpu, skins, 1, &ms, &err) == VKS_OK);
    gpu_check_result cr;
    gpu_check_entry e[1] = {{a, 0, 19, 0, 3}};
    CHECK(ms && gpu_check_run(gpu, ms, e, 1, 0, &cr) == VKS_OK && cr.pass);
    vks_gpu_models_free(ms);

    /* A candidate the device cannot run: refused, naming it, and the shape kept. */
    const char *bad[2] = {fast, "wg=65536"};
    vks_gpu_tune_options t = {bad, 2, 8, 1, 1};
    CHECK(vks_gpu_tune(gpu, a, &t, &r, &err) == VKS_ERR_INVALID);
    CHECK(strstr(err.msg, "candidate 1") != NULL);
    CHECK(strcmp(source_of(gpu, text, sizeof text), "calibration") == 0 && strcmp(text, fast_text) == 0);
    CHECK_EQ_INT(vks_gpu_validation_messages(gpu), 0);
    vks_gpu_destroy(gpu);

    /* The next context on this device and driver starts with the stored winner. */
    gpu = context(dir);
    CHECK(strcmp(source_of(gpu, text, sizeof text), "cache") == 0);
    CHECK(strcmp(text, fast_text) == 0);
    vks_gpu_destroy(gpu);

    /* A damaged entry: ignored with a warning naming the file. */
    FILE *f = fopen(path, "r+b");
    CHECK(f != NULL);
    if (f) {
        fputs("garbage", f);
        fclose(f);
    }
    warnings = 0;
    gpu = context(dir);
    CHECK(strcmp(source_of(gpu, text, sizeof text), "table") == 0);
    CHECK_EQ_INT(warnings, 1);
    CHECK(strstr(last_warning, path) != NULL);
    vks_gpu_destroy(gpu);

    /* An entry another driver wrote (its key line differs): not used, nothing said. */
    f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f) {
        fputs("vkskin launch-shape cache 1\nvkskin 0.0.0\ndevice 0x1 0x2 driver 0x3 uuid "
              "00000000000000000000000000000000\nshape wg=1\nrate 1\n",
              f);
        fclose(f);
    }
    warnings = 0;
    gpu = context(dir);
    CHECK(strcmp(source_of(gpu, text, sizeof text), "table") == 0);
    CHECK_EQ_INT(warnings, 0);
    vks_gpu_destroy(gpu);

    /* No cache: "" */
    gpu = context("");
    CHECK(strcmp(source_of(gpu, text, sizeof text), "table") == 0);
    vks_gpu_destroy(gpu);

    vks_skin_free(a);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
    return vks_test_finish("test_gpu_tune");
}
