/* Where a launch shape starts and when calibration at first use replaces it
 * (src/gpu/tuning_start.c), against the tables of real devices: only the table's fallback row
 * (a GPU of a vendor not measured yet: RADV here) lets a first run calibrate, and only while
 * nothing measured is in the cache and nothing forces a shape or turns calibration off
 * (vks_gpu_options.calibrate < 0, VKSKIN_NO_CALIBRATE); VKSKIN_TEST_UNKNOWN_DEVICE makes a
 * known device (lavapipe) count as unknown, so CI can prove the rest on it; the threshold is
 * 16 times the calibration's own vertex-instances and at least 2^26; a crowd's work is its
 * vertex-instances per frame times the frames its desc names, or 60 where it names none; the
 * small-model class apart (small_class). No device. */
#define _POSIX_C_SOURCE 200809L
#include "gpu/tuning_start.h"
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

static const vks__device_facts h100 = {0x10de, 0x2330, 2, 32, 49152, 1024, 1024, 134217728ull, 4294967295ull};
static const vks__device_facts lavapipe = {0x10005, 0, 4, 8, 32768, 1024, 1024, 134217728ull, 134217728ull};
static const vks__device_facts radv = {0x1002, 0x73bf, 2, 64, 65536, 1024, 1024, 4294967295ull, 4294967295ull};

static vks__cache_key key_of(const vks__device_facts *f)
{
    vks__cache_key k = {f->vendor_id, f->device_id, 0x1234u, {0}, "9.9.9", 0};
    k.uuid[0] = 7;
    return k;
}

/* Whether a device with facts f, cache dir and options would calibrate at first use. */
static int calibrates(const vks__device_facts *f, const char *dir, int palette, const char *override, int option,
                      const char **source)
{
    vks__cache_key k = key_of(f);
    vks__shape_choice c;
    CHECK(vks__shape_choose(f, dir, &k, palette, override, &c));
    CHECK_EQ_INT(c.warning[0], 0);
    *source = c.shape.source;
    return vks__calibration_wanted(&c.shape, option);
}

/* The small-model class (tuning_start.h: vks__small_shape_choose): a GPU's calibrates at first
 * use, its table row measured on larger models, even on a device the table knows; a CPU
 * device's does not; a forced context forces it too; small.KEY keys force it alone; a shape
 * measured for it (its own cache entry) is started with; the pose fields are the context's. */
static void small_class(const char *dir)
{
    char warning[1024], context[512], small[512];
    vks__cache_key hk = key_of(&h100), lk = key_of(&lavapipe);
    vks__shape_choice c;
    CHECK(vks__shape_choose(&h100, dir, &hk, 0, NULL, &c));
    vks__launch_shape s = vks__small_shape_choose(&h100, dir, &hk, &c.shape, NULL, warning, sizeof warning);
    CHECK(strcmp(s.source, "table") == 0 && s.known == 0 && vks__calibration_wanted(&s, 0));
    CHECK(s.deform_wg == c.shape.deform_wg && s.instance_run == c.shape.instance_run);
    CHECK_EQ_INT(warning[0], 0);
    CHECK(vks__shape_choose(&lavapipe, dir, &lk, 0, NULL, &c));
    s = vks__small_shape_choose(&lavapipe, dir, &lk, &c.shape, NULL, warning, sizeof warning);
    CHECK(s.known == 1 && !vks__calibration_wanted(&s, 0));
    setenv("VKSKIN_TEST_UNKNOWN_DEVICE", "1", 1); /* how CI calibrates it on lavapipe */
    s = vks__small_shape_choose(&lavapipe, dir, &lk, &c.shape, NULL, warning, sizeof warning);
    CHECK(vks__calibration_wanted(&s, 0));
    unsetenv("VKSKIN_TEST_UNKNOWN_DEVICE");

    /* overrides: the context's keys force both; small.KEY keys the class alone */
    const char *o1 = "wg=128,run=16";
    CHECK(vks__shape_choose(&h100, dir, &hk, 0, o1, &c));
    s = vks__small_shape_choose(&h100, dir, &hk, &c.shape, o1, warning, sizeof warning);
    CHECK(strcmp(s.source, "forced") == 0 && s.deform_wg == 128 && s.instance_run == 16);
    const char *o2 = "small.wg=1024,small.palette=on,small.run=4";
    CHECK(vks__shape_choose(&h100, dir, &hk, 0, o2, &c));
    CHECK(strcmp(c.shape.source, "table") == 0 && c.shape.deform_wg == 256); /* the context untouched */
    s = vks__small_shape_choose(&h100, dir, &hk, &c.shape, o2, warning, sizeof warning);
    CHECK(strcmp(s.source, "forced") == 0 && s.deform_wg == 1024 && s.palette_cap == 512 && s.instance_run == 4);
    CHECK(!vks__calibration_wanted(&s, 0));
    CHECK(s.pose_wg == c.shape.pose_wg && s.pose_nodes == c.shape.pose_nodes);
    CHECK(!vks__shape_choose(&h100, dir, &hk, 0, "small.wg=100", &c)); /* refused with the context */
    CHECK(strstr(c.refused, "wg=100") != NULL);
    CHECK(!vks__shape_choose(&h100, dir, &hk, 0, "small.bogus=1", &c));
    CHECK(vks__override_split("wg=64,small.run=8,pose=nodes,small.zeros=skip", context, small, sizeof small));
    CHECK(strcmp(context, "wg=64,pose=nodes") == 0 && strcmp(small, "run=8,zeros=skip") == 0);
    CHECK(vks__override_split("wg=64,", context, small, sizeof small) && strcmp(context, "wg=64,") == 0);
    CHECK(!vks__shape_choose(&h100, dir, &hk, 0, "small.wg=64,", &c)); /* a trailing comma, as ever */
    CHECK(!vks__shape_choose(&h100, dir, &hk, 0, "small.wg=64,,wg=64", &c));

    /* measured for small models before: its own entry, started with; the context's entry apart */
    vks__cache_key sk = hk;
    sk.size_class = 1;
    char why[512];
    CHECK(strcmp(vks__cache_shape_entry(&sk), "launch-shape-small.txt") == 0);
    CHECK(strcmp(vks__cache_shape_entry(&hk), "launch-shape.txt") == 0);
    CHECK(vks__cache_write_shape(dir, &sk, "wg=1024,run=8,palette=on,zeros=skip", 2e11, why, sizeof why));
    CHECK(vks__shape_choose(&h100, dir, &hk, 0, NULL, &c));
    CHECK(strcmp(c.shape.source, "table") == 0); /* the context's entry is not the class's */
    s = vks__small_shape_choose(&h100, dir, &hk, &c.shape, NULL, warning, sizeof warning);
    CHECK(strcmp(s.source, "cache") == 0 && s.deform_wg == 1024 && s.palette_cap == 512);
    CHECK(!vks__calibration_wanted(&s, 0));
    char path[4200];
    vks__cache_path(dir, &sk, vks__cache_shape_entry(&sk), path, sizeof path);
    remove(path);

    /* its calibration: ~2^22 vertex-instances a candidate run (4,096 instances of 1,024
     * vertices), at least 64 instances, at most 65,536 */
    CHECK_EQ_INT(vks__small_calibration_instances(1024), 4096);
    CHECK_EQ_INT(vks__small_calibration_instances(4096), 1024);
    CHECK_EQ_INT(vks__small_calibration_instances(10), 65536);
    CHECK_EQ_INT(vks__small_calibration_instances(1u << 20), 64);
    CHECK(vks__small_calibration_cost(18, 1024) == 18ull * 4 * 4096 * 1024);
    /* a million instances of a 1k-vertex character over the assumed 60 frames repay it, and so
       do 100,000; 1,000 do not */
    uint64_t t = vks__calibration_threshold(vks__small_calibration_cost(18, 1000));
    CHECK(vks__crowd_work(1000000ull * 1000, 0) >= t && vks__crowd_work(100000ull * 1000, 0) >= t);
    CHECK(vks__crowd_work(1000ull * 1000, 0) < t);
    /* the candidates: the built-in ones and those for small models, as the device can run */
    const char *cand[64], *builtin[64];
    uint32_t left = 0, n = vks__tuning_small_candidates(&h100, cand, 64, &left);
    uint32_t nb = vks__tuning_candidates(&h100, builtin, 64, NULL);
    CHECK(n == nb + 6 && left == 0);
    CHECK(strcmp(cand[n - 1], "wg=256,run=32,palette=off,zeros=skip") == 0);
}

int main(void)
{
    unsetenv("VKSKIN_NO_CALIBRATE");
    unsetenv("VKSKIN_TEST_UNKNOWN_DEVICE");
    unsetenv("VKSKIN_TEST_CALIBRATE_OVER");
    char tmpl[] = "/tmp/vks_tuning_start_XXXXXX";
    char *dir = mkdtemp(tmpl);
    CHECK(dir != NULL);
    if (!dir)
        return vks_test_finish("test_tuning_start");
    const char *src = NULL;

    /* The rows that rest on a measurement know their device; the fallback does not. */
    CHECK_EQ_INT(vks__tuning_pick(&h100).known, 1);
    CHECK_EQ_INT(vks__tuning_pick(&lavapipe).known, 1);
    CHECK_EQ_INT(vks__tuning_pick(&radv).known, 0);
    CHECK_EQ_INT(calibrates(&h100, dir, 0, NULL, 0, &src), 0);
    CHECK(strcmp(src, "table") == 0);
    CHECK_EQ_INT(calibrates(&lavapipe, dir, 0, NULL, 0, &src), 0);
    CHECK_EQ_INT(calibrates(&radv, dir, 0, NULL, 0, &src), 1);
    CHECK(strcmp(src, "table") == 0);
    CHECK_EQ_INT(calibrates(&radv, "", 0, NULL, 0, &src), 1); /* no cache: it only costs the calibration */

    /* Turned off: the option, the environment, a forced shape or palette. */
    CHECK_EQ_INT(calibrates(&radv, dir, 0, NULL, -1, &src), 0);
    CHECK_EQ_INT(calibrates(&radv, dir, 0, "wg=128", 0, &src), 0);
    CHECK(strcmp(src, "forced") == 0);
    CHECK_EQ_INT(calibrates(&radv, dir, 0, "", 0, &src), 1); /* an empty override forces nothing */
    CHECK_EQ_INT(calibrates(&radv, dir, -1, NULL, 0, &src), 0);
    setenv("VKSKIN_NO_CALIBRATE", "1", 1);
    CHECK_EQ_INT(calibrates(&radv, dir, 0, NULL, 0, &src), 0);
    setenv("VKSKIN_NO_CALIBRATE", "0", 1); /* "0" and "" leave it on */
    CHECK_EQ_INT(calibrates(&radv, dir, 0, NULL, 0, &src), 1);
    unsetenv("VKSKIN_NO_CALIBRATE");

    /* A shape measured before (the cache): started with, no calibration. */
    vks__cache_key k = key_of(&radv);
    char why[512];
    CHECK(vks__cache_write_shape(dir, &k, "wg=128,run=8,palette=off", 1e10, why, sizeof why));
    CHECK_EQ_INT(calibrates(&radv, dir, 0, NULL, 0, &src), 0);
    CHECK(strcmp(src, "cache") == 0);
    vks__shape_choice c;
    CHECK(vks__shape_choose(&radv, dir, &k, 0, NULL, &c));
    CHECK_EQ_INT(c.shape.deform_wg, 128);

    /* Testing: lavapipe counts as unknown. */
    setenv("VKSKIN_TEST_UNKNOWN_DEVICE", "1", 1);
    CHECK_EQ_INT(calibrates(&lavapipe, dir, 0, NULL, 0, &src), 1);
    vks__cache_key lk = key_of(&lavapipe);
    CHECK(vks__shape_choose(&lavapipe, dir, &lk, 0, NULL, &c));
    CHECK(strstr(c.shape.reason, "VKSKIN_TEST_UNKNOWN_DEVICE") != NULL);
    CHECK_EQ_INT(c.shape.deform_wg, vks__tuning_pick(&lavapipe).deform_wg); /* the same row's shape */
    unsetenv("VKSKIN_TEST_UNKNOWN_DEVICE");

    /* The threshold: 16x the calibration's vertex-instances (9 candidates x 4 runs x 64
     * instances of the model), at least 2^26. */
    CHECK(vks__calibration_cost(9, 10000) == 9ull * 4 * 64 * 10000);
    CHECK(vks__calibration_threshold(vks__calibration_cost(9, 10000)) == 16ull * 9 * 4 * 64 * 10000);
    CHECK(vks__calibration_threshold(vks__calibration_cost(9, 100)) == (1ull << 26));
    CHECK(vks__calibration_threshold(UINT64_MAX / 4) == UINT64_MAX); /* no wrap */
    /* one character x one instance (validate's cold start) never reaches it */
    CHECK(vks__calibration_threshold(vks__calibration_cost(9, 1)) > 100000ull);
    setenv("VKSKIN_TEST_CALIBRATE_OVER", "5000", 1);
    CHECK(vks__calibration_threshold(vks__calibration_cost(9, 10000)) == 5000);
    unsetenv("VKSKIN_TEST_CALIBRATE_OVER");

    /* A crowd's work: per frame times its frames, 60 assumed where the desc names none (1,000
     * instances of a 10k-vertex model over the assumed frames repay it, 10 instances do not). */
    CHECK(vks__crowd_work(1000, 3) == 3000);
    CHECK(vks__crowd_work(1000, 0) == 60000);
    CHECK(vks__crowd_work(UINT64_MAX / 2, 0) == UINT64_MAX); /* no wrap */
    CHECK(vks__crowd_work(1000ull * 10000, 0) >= vks__calibration_threshold(vks__calibration_cost(9, 10000)));
    CHECK(vks__crowd_work(10ull * 10000, 0) < vks__calibration_threshold(vks__calibration_cost(9, 10000)));

    small_class(dir);

    char path[4200];
    vks__cache_path(dir, &k, "launch-shape.txt", path, sizeof path);
    remove(path);
    remove(dir);
    return vks_test_finish("test_tuning_start");
}
