/* Where a launch shape starts and when calibration at first use replaces it
 * (src/gpu/tuning_start.c), against the tables of real devices: only the table's fallback row
 * (a GPU of a vendor not measured yet: RADV here) lets a first run calibrate, and only while
 * nothing measured is in the cache and nothing forces a shape or turns calibration off
 * (vks_gpu_options.calibrate < 0, VKSKIN_NO_CALIBRATE); VKSKIN_TEST_UNKNOWN_DEVICE makes a
 * known device (lavapipe) count as unknown, so CI can prove the rest on it; the threshold is
 * 16 times the calibration's own vertex-instances and at least 2^26; a crowd's work is its
 * vertex-instances per frame times the frames its desc names, or 60 where it names none. No
 * device. */
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
    vks__cache_key k = {f->vendor_id, f->device_id, 0x1234u, {0}, "9.9.9"};
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

    char path[4200];
    vks__cache_path(dir, &k, "launch-shape.txt", path, sizeof path);
    remove(path);
    remove(dir);
    return vks_test_finish("test_tuning_start");
}
