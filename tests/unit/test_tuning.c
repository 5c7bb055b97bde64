/* The launch-shape table and its overrides (src/gpu/tuning.c) against real device tables:
 * the H100 the project's GPU figures were measured on (its facts checked against
 * ../shared/gpu/h100-vulkaninfo.txt when that file is there), lavapipe as Mesa 22.3 reports
 * it, SwiftShader as Chromium 156 ships it (its facts checked against
 * tests/data/swiftshader-vulkaninfo.txt: VK_DRIVER_FILES=<chromium's folder>/vk_swiftshader_icd.json
 * vulkaninfo, the second implementation CI runs the GPU tests on), an AMD GPU on RADV and an
 * Intel GPU on ANV as their public vulkaninfo reports give them, and the smallest device Vulkan
 * allows. Pure functions: no device needed. */
#define _POSIX_C_SOURCE 200809L /* opendir */
#include "gpu/tuning.h"
#include "planted_shapes.h"
#include "testutil.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

/* H100 80GB HBM3, driver 580.159 (vulkaninfo: vendorID, deviceID, deviceType, subgroupSize,
 * maxComputeSharedMemorySize, maxComputeWorkGroupInvocations, maxComputeWorkGroupSize[0],
 * maxTexelBufferElements, maxStorageBufferRange). */
static const vks__device_facts h100 = {0x10de, 0x2330, 2, 32, 49152, 1024, 1024, 134217728ull, 4294967295ull};
/* lavapipe, Mesa 22.3.6 (LLVM 15, 256 bits) */
static const vks__device_facts lavapipe = {0x10005, 0, 4, 8, 32768, 1024, 1024, 134217728ull, 134217728ull};
/* SwiftShader 5.0.0 (Subzero), Chromium 156: 4-wide subgroups, 256 invocations, 32 KiB shared,
 * 65536 texel elements, a 1 GiB storage range */
static const vks__device_facts swiftshader = {0x1ae0, 0xc0de, 4, 4, 32768, 256, 256, 65536ull, 1073741824ull};
/* AMD Radeon RX 6800 (RDNA2) on RADV: wave64 by default, 64 KiB LDS */
static const vks__device_facts radv = {0x1002, 0x73bf, 2, 64, 65536, 1024, 1024, 4294967295ull, 4294967295ull};
/* Intel UHD 630 on ANV: SIMD32 subgroups, 64 KiB shared, 1 GiB storage range */
static const vks__device_facts anv = {0x8086, 0x3e92, 1, 32, 65536, 1024, 1024, 134217728ull, 1073741824ull};
/* The least Vulkan 1.0 requires: 16 KiB shared memory, 128 invocations */
static const vks__device_facts minimal = {0x1234, 1, 1, 4, 16384, 128, 128, 65536ull, 134217728ull};

/* The value of "name = value" in vulkaninfo's text (the first occurrence), or -1. */
static long long vulkaninfo_value(const char *text, const char *name)
{
    for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
        const char *q = p + strlen(name);
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q != '=')
            continue;
        return strtoll(q + 1, NULL, 0);
    }
    return -1;
}

/* The first number after "name: count = N" (vulkaninfo's arrays, e.g. the workgroup size's x), or -1. */
static long long vulkaninfo_first_of(const char *text, const char *name)
{
    const char *p = strstr(text, name);
    if (!p || !(p = strchr(p, '\n')))
        return -1;
    return strtoll(p + 1, NULL, 0);
}

/* Checks facts f against the vulkaninfo text at path (relative to the source tree), whose
 * device type line is type. An absent file is a note where it lives outside the project
 * (the H100's), a failure where the project keeps it (required). */
static void matches_vulkaninfo(const char *what, const char *path_in_source, const vks__device_facts *f,
                               const char *type, int required)
{
    const char *path = vks_test_source_path(path_in_source);
    size_t n = 0;
    char *text = (char *)vks_test_read_file(path, &n);
    if (!text) {
        fprintf(stderr, "%s: %s absent; the %s's facts are checked as transcribed\n", required ? "FAIL" : "note", path,
                what);
        CHECK(!required);
        return;
    }
    char *z = realloc(text, n + 1);
    CHECK(z != NULL);
    if (!z) {
        free(text);
        return;
    }
    z[n] = '\0';
    CHECK_EQ_INT(vulkaninfo_value(z, "vendorID"), f->vendor_id);
    CHECK_EQ_INT(vulkaninfo_value(z, "deviceID"), f->device_id);
    CHECK(strstr(z, type) != NULL);
    CHECK_EQ_INT(vulkaninfo_value(z, "subgroupSize"), f->subgroup_size);
    CHECK_EQ_INT(vulkaninfo_value(z, "maxComputeSharedMemorySize"), f->max_shared_memory);
    CHECK_EQ_INT(vulkaninfo_value(z, "maxComputeWorkGroupInvocations"), f->max_workgroup_invocations);
    CHECK_EQ_INT(vulkaninfo_first_of(z, "maxComputeWorkGroupSize: count"), f->max_workgroup_size_x);
    CHECK_EQ_INT(vulkaninfo_value(z, "maxTexelBufferElements"), (long long)f->max_texel_buffer_elements);
    CHECK_EQ_INT(vulkaninfo_value(z, "maxStorageBufferRange"), (long long)f->max_storage_range);
    free(z);
}

static void check_pick(const char *what, const vks__device_facts *f, uint32_t wg, uint32_t run, uint32_t palette,
                       uint32_t texels)
{
    vks__launch_shape s = vks__tuning_pick(f);
    char text[96];
    vks__launch_shape_format(&s, text, sizeof text);
    fprintf(stderr, "%-9s %s (%s: %s)\n", what, text, s.source, s.reason);
    CHECK_EQ_INT(s.deform_wg, wg);
    CHECK_EQ_INT(s.instance_run, run);
    CHECK_EQ_INT(s.palette_cap, palette);
    CHECK_EQ_INT(s.skin_texels, texels);
    CHECK(s.pose_wg >= 1 && s.pose_wg <= 128);
    /* the pose pass: serial on CPU devices (faster there), by nodes on GPUs, whole subgroups */
    CHECK_EQ_INT(s.pose_nodes, f->device_type != 4);
    CHECK(!s.pose_nodes || (f->subgroup_size && s.pose_wg % f->subgroup_size == 0));
    CHECK(strcmp(s.source, "table") == 0);
    CHECK(s.reason && *s.reason);
}

static int applies(const vks__device_facts *f, const char *spec, vks__launch_shape *out)
{
    *out = vks__tuning_pick(f);
    char why[256] = "";
    int ok = vks__launch_shape_apply(spec, f, out, why, sizeof why);
    if (!ok)
        fprintf(stderr, "  refused '%s': %s\n", spec, why);
    CHECK(ok || strstr(why, "launch shape") != NULL); /* a refusal says why */
    return ok;
}


/* The GPU devices' rows, and lavapipe's and SwiftShader's, where the GPU tests run. */
static const vks__device_facts *const test_devices[] = {&h100, &lavapipe, &swiftshader, &radv, &anv};
static const char *const test_device_names[] = {"h100", "lavapipe", "swiftshader", "radv", "anv"};

/* A shape a test plants must mean the same on every device the tests run on: accepted over
 * each table row, or refused over each (the tests that plant a bad shape expect exit 2
 * everywhere). A shape that leans on lavapipe's row (pose=serial) and is refused over the
 * H100's (pose=nodes) passes CI and fails only on the GPU machine. Returns 1 when it does. */
static int same_verdict_everywhere(const char *spec, const char *where)
{
    int verdict[sizeof test_devices / sizeof *test_devices];
    int all_same = 1;
    for (size_t d = 0; d < sizeof test_devices / sizeof *test_devices; d++) {
        vks__launch_shape s;
        verdict[d] = applies(test_devices[d], spec, &s);
        all_same &= verdict[d] == verdict[0];
    }
    if (!all_same) {
        fprintf(stderr, "%s: launch shape '%s' is", where, spec);
        for (size_t d = 0; d < sizeof test_devices / sizeof *test_devices; d++)
            fprintf(stderr, " %s over %s's row%s", verdict[d] ? "accepted" : "refused", test_device_names[d],
                    d + 1 < sizeof test_devices / sizeof *test_devices ? "," : "\n");
    }
    return all_same;
}

/* Every shape the shell tests of one folder plant (after --candidate, --launch-shape,
 * VKSKIN_LAUNCH_SHAPE= and VKS_TEST_LAUNCH_SHAPE=; one spelled through a shell variable is not
 * seen) checked by same_verdict_everywhere; returns how many were found. */
static int planted_in_scripts(const char *folder)
{
    static const char *const marks[] = {"--candidate ", "--launch-shape ", "VKSKIN_LAUNCH_SHAPE=",
                                        "VKS_TEST_LAUNCH_SHAPE="};
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", vks_test_source_path(folder));
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    if (!d) {
        fprintf(stderr, "cannot list %s\n", dir);
        return 0;
    }
    int found = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 3, ".sh") != 0)
            continue;
        char path[4096 + 256];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t n = 0;
        char *raw = (char *)vks_test_read_file(path, &n);
        char *text = raw ? realloc(raw, n + 1) : NULL;
        CHECK(text != NULL);
        if (!text) {
            free(raw);
            continue;
        }
        text[n] = 0;
        for (size_t m = 0; m < sizeof marks / sizeof *marks; m++) {
            for (const char *p = strstr(text, marks[m]); p; p = strstr(p + 1, marks[m])) {
                const char *v = p + strlen(marks[m]);
                size_t vlen = strcspn(v, " \t\n\"';)|&\\");
                if (vlen == 0 || *v == '$' || *v == '-' || vlen >= 128)
                    continue; /* a variable, the next option, or no value */
                char spec[128];
                memcpy(spec, v, vlen), spec[vlen] = 0;
                char where[512];
                snprintf(where, sizeof where, "%s/%s", folder, e->d_name);
                CHECK(same_verdict_everywhere(spec, where));
                found++;
            }
        }
        free(text);
    }
    closedir(d);
    return found;
}

/* SwiftShader's row, and the built-in candidates each device keeps. */
/* The stagger of crowd frames (tuning.h: slices, slice_min; vks__crowd_slices): GPUs up to 8
 * slices of at least VKS__SLICE_MIN_DEFAULT instances (the pose beside the deform), lavapipe 4
 * of at least 1,024 (measured: a slice's matrices still in the caches), SwiftShader none (not
 * measured); overrides print and read back. */
static void crowd_slices(void)
{
    vks__launch_shape h = vks__tuning_pick(&h100), l = vks__tuning_pick(&lavapipe);
    CHECK_EQ_INT(h.slices, 8);
    CHECK_EQ_INT(vks__tuning_pick(&radv).slices, 8);
    CHECK_EQ_INT(vks__tuning_pick(&anv).slices, 8);
    CHECK_EQ_INT(l.slices, 4);
    CHECK_EQ_INT(l.slice_min, 1024);
    CHECK_EQ_INT(vks__tuning_pick(&swiftshader).slices, 1);
    CHECK_EQ_INT(h.slice_min, VKS__SLICE_MIN_DEFAULT);
    /* the crowds on an H100: a million instances staggered 8 ways, 100,000 6 ways
     * (16,384 and more each); 32,768 (two slices' worth) in 2; below two slices' worth, none */
    CHECK_EQ_INT(vks__crowd_slices(&h, 1000000), 8);
    CHECK_EQ_INT(vks__crowd_slices(&h, 100000), 6);
    CHECK_EQ_INT(vks__crowd_slices(&h, 2 * VKS__SLICE_MIN_DEFAULT), 2);
    CHECK_EQ_INT(vks__crowd_slices(&h, 2 * VKS__SLICE_MIN_DEFAULT - 1), 1);
    CHECK_EQ_INT(vks__crowd_slices(&h, 1), 1);
    CHECK_EQ_INT(vks__crowd_slices(&h, 0), 1);
    CHECK_EQ_INT(vks__crowd_slices(&l, 1000000), 4);
    CHECK_EQ_INT(vks__crowd_slices(&l, 2047), 1); /* the crowds of CI's tests: in turn */
    vks__launch_shape s;
    char text[96];
    /* forced on a CPU device with small slices (how CI runs the stagger on lavapipe) */
    CHECK(applies(&lavapipe, "slices=3,slice_min=2", &s) && s.slices == 3 && s.slice_min == 2);
    CHECK_EQ_INT(vks__crowd_slices(&s, 7), 3);
    CHECK_EQ_INT(vks__crowd_slices(&s, 5), 2);
    CHECK_EQ_INT(vks__crowd_slices(&s, 3), 1);
    vks__launch_shape_format(&s, text, sizeof text);
    CHECK(strstr(text, ",slices=3,slice_min=2") != NULL);
    vks__launch_shape back;
    CHECK(applies(&lavapipe, text, &back) && back.slices == 3 && back.slice_min == 2);
    /* off on a GPU: no key printed, as every shape before the stagger */
    CHECK(applies(&h100, "slices=1", &s) && vks__crowd_slices(&s, 1000000) == 1);
    vks__launch_shape_format(&s, text, sizeof text);
    CHECK(strstr(text, "slice") == NULL);
    CHECK(applies(&h100, "slices=8", &s) && vks__crowd_slices(&s, 1000000) == 8);
    /* a shape asking more than the most is clamped, not trusted */
    s.slices = 100;
    CHECK_EQ_INT(vks__crowd_slices(&s, 1000000), VKS__MAX_SLICES);
}

static void swiftshader_row_and_candidates(void)
{
    /* SwiftShader has its own row, known: no calibration at first use compiles the candidates */
    CHECK(strstr(vks__tuning_pick(&swiftshader).reason, "SwiftShader") != NULL);
    CHECK(vks__tuning_pick(&swiftshader).known == 1);
    vks__device_facts other_cpu = swiftshader;
    other_cpu.vendor_id = 0x10005; /* Mesa's: lavapipe's row, whatever else it shares */
    CHECK(strstr(vks__tuning_pick(&other_cpu).reason, "SwiftShader") == NULL);
    /* one-shot chunks: 16 MiB on a CPU device (fresh host pages, cores shared with the writer),
       64 MiB on a GPU: the table's, not the CLI's guess from the device type's name */
    CHECK(vks__tuning_pick(&lavapipe).chunk_bytes == (uint64_t)16 << 20);
    CHECK(vks__tuning_pick(&swiftshader).chunk_bytes == (uint64_t)16 << 20);
    CHECK(vks__tuning_pick(&h100).chunk_bytes == (uint64_t)64 << 20);
    CHECK(vks__tuning_pick(&radv).chunk_bytes == (uint64_t)64 << 20);

    /* The built-in candidates: every one where the device takes wg=512, wg=512 left out on
     * SwiftShader (256 invocations: refused, it failed the whole calibration), more on the
     * smallest device; each one kept applies over the device's row. */
    const char *cand[32];
    uint32_t left = 99, all = vks__tuning_candidates(&lavapipe, cand, 32, &left);
    CHECK(all >= 10 && left == 0);
    CHECK_EQ_INT(vks__tuning_candidates(&h100, cand, 32, &left), all);
    CHECK_EQ_INT(left, 0);
    CHECK_EQ_INT(vks__tuning_candidates(&swiftshader, cand, 32, &left), all - 1);
    CHECK_EQ_INT(left, 1);
    const vks__device_facts *const small[] = {&swiftshader, &minimal};
    for (size_t d = 0; d < 2; d++) {
        uint32_t kept = vks__tuning_candidates(small[d], cand, 32, &left);
        CHECK(kept > 0 && kept + left == all);
        for (uint32_t i = 0; i < kept; i++) {
            vks__launch_shape t;
            CHECK(applies(small[d], cand[i], &t));
            CHECK(strstr(cand[i], "wg=512") == NULL);
        }
    }
    CHECK_EQ_INT(vks__tuning_candidates(&lavapipe, cand, 3, NULL), 3); /* cap kept */
}

int main(void)
{
    matches_vulkaninfo("H100", "../shared/gpu/h100-vulkaninfo.txt", &h100, "PHYSICAL_DEVICE_TYPE_DISCRETE_GPU", 0);
    matches_vulkaninfo("SwiftShader", "tests/data/swiftshader-vulkaninfo.txt", &swiftshader,
                       "PHYSICAL_DEVICE_TYPE_CPU", 1);

    /* The table: the H100's measured best (wg 256, runs of 8, no shared palette); its texel
     * buffers span 2 GiB of a 4 GiB storage range, so matrices come from the storage buffer. */
    check_pick("h100", &h100, 256, 8, 0, 0);
    check_pick("lavapipe", &lavapipe, 64, 32, 0, 1);
    check_pick("swiftshader", &swiftshader, 64, 32, 0, 0); /* 65536 texel elements span 1 MiB */
    check_pick("radv", &radv, 256, 8, 0, 1);
    check_pick("anv", &anv, 256, 8, 0, 1);
    check_pick("minimal", &minimal, 128, 8, 0, 0);
    CHECK(strstr(vks__tuning_pick(&h100).reason, "NVIDIA") != NULL);

    CHECK(strstr(vks__tuning_pick(&lavapipe).reason, "CPU") != NULL);
    swiftshader_row_and_candidates();
    crowd_slices();

    /* Shared-palette room: 24 B of output staging an invocation, 48 B a slot, at most 512. */
    CHECK_EQ_INT(vks__tuning_palette_slots(&h100, 64), 512);
    CHECK_EQ_INT(vks__tuning_palette_slots(&h100, 1024), 512); /* (49152 - 24576) / 48 */
    CHECK_EQ_INT(vks__tuning_palette_slots(&lavapipe, 1024), 170);
    CHECK_EQ_INT(vks__tuning_palette_slots(&minimal, 128), 277);
    vks__device_facts tiny = minimal;
    tiny.max_shared_memory = 1024;
    CHECK_EQ_INT(vks__tuning_palette_slots(&tiny, 64), 0);

    /* Overrides: what a GPU takes, forced anywhere it fits. */
    vks__launch_shape s;
    char text[96];
    CHECK(applies(&h100, "", &s) && strcmp(s.source, "table") == 0);
    CHECK(applies(&h100, "wg=64,run=8,palette=on", &s));
    CHECK_EQ_INT(s.deform_wg, 64);
    CHECK_EQ_INT(s.palette_cap, 512);
    CHECK(strcmp(s.source, "forced") == 0);
    vks__launch_shape_format(&s, text, sizeof text);
    /* what the override does not name stays the row's: NVIDIA's skips empty slots */
    CHECK(strcmp(text, "wg=64,pose_wg=64,run=8,palette=512,texels=off,pose=nodes,zeros=skip,slices=8") == 0);
    CHECK(applies(&lavapipe, "wg=1024,palette=on,run=3,texels=off,pose_wg=32", &s));
    CHECK_EQ_INT(s.palette_cap, 170);
    CHECK_EQ_INT(s.instance_run, 3);
    CHECK_EQ_INT(s.pose_wg, 32);
    CHECK_EQ_INT(s.skin_texels, 0);
    CHECK(applies(&lavapipe, "palette=16", &s) && s.palette_cap == 16);
    { /* palette=off over a shape that has one (one key once per spec: a second spec over the first) */
        char why[256] = "";
        CHECK(vks__launch_shape_apply("palette=off", &lavapipe, &s, why, sizeof why) && s.palette_cap == 0);
    }
    /* the printed form reads back as the same shape */
    CHECK(applies(&h100, "wg=128,run=32,palette=100", &s));
    vks__launch_shape_format(&s, text, sizeof text);
    vks__launch_shape back;
    CHECK(applies(&h100, text, &back));
    CHECK(back.deform_wg == 128 && back.instance_run == 32 && back.palette_cap == 100 && back.skin_texels == 0);
    CHECK(back.pose_nodes == 1 && back.pose_wg == s.pose_wg);
    /* the pose pass's variant: nodes needs a workgroup of whole subgroups */
    CHECK(applies(&lavapipe, "pose=nodes,pose_wg=8", &s) && s.pose_nodes == 1 && s.pose_wg == 8);
    CHECK(applies(&h100, "pose=serial,pose_wg=1", &s) && s.pose_nodes == 0 && s.pose_wg == 1);
    vks__launch_shape_format(&s, text, sizeof text);
    CHECK(strstr(text, ",pose=serial") != NULL);
    /* zeros: NVIDIA's row skips (the H100's tune: its fastest candidate, the pass gather-bound);
     * lavapipe's blends (a branch a slot, which its SIMD lanes run on both sides: slower), as
     * does the row of a vendor not measured, which calibrates; a shape that blends prints no
     * zeros key, so every older shape keeps its text; a skipping shape prints and reads back */
    CHECK(vks__tuning_pick(&h100).skip_zeros == 1 && vks__tuning_pick(&lavapipe).skip_zeros == 0);
    CHECK(vks__tuning_pick(&radv).skip_zeros == 0);
    CHECK(applies(&h100, "wg=256,run=8,palette=off,zeros=skip", &s) && s.skip_zeros == 1);
    vks__launch_shape_format(&s, text, sizeof text);
    CHECK(strcmp(text, "wg=256,pose_wg=64,run=8,palette=off,texels=off,pose=nodes,zeros=skip,slices=8") == 0);
    CHECK(applies(&h100, text, &back) && back.skip_zeros == 1 && back.deform_wg == 256);
    CHECK(applies(&h100, "zeros=blend", &s) && s.skip_zeros == 0);
    vks__launch_shape_format(&s, text, sizeof text);
    CHECK(strstr(text, "zeros") == NULL);

    /* Refused, saying why, and the shape left as it was. */
    const char *bad[] = {"wg=100",        "wg=2048",     "wg=0",        "wg=",         "run=0",
                         "run=257",       "run=-1",      "palette=yes", "palette=600", "texels=on",
                         "bogus=1",       "wg",          "wg=64,",      ",wg=64",      "wg=64 ",
                         "wg=+64",        "wg=64,run=x", "pose_wg=3",   "palette=0",   "pose=",
                         "pose=parallel", "pose=nodes,pose_wg=16", "zeros=", "zeros=on",
                         "zeros=skip,",
                         /* a key given twice: the second silently won (issue 37) */
                         "zeros=skip,zeros=blend", "wg=64,wg=128", "run=8,palette=off,run=8",
                         "pose_wg=64,wg=64,pose_wg=32",
                         /* the crowd frame's stagger: 1..8 slices of at least one instance */
                         "slices=0", "slices=9", "slices=", "slice_min=0", "slice_min=x", "slices=2,slices=4"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        vks__launch_shape keep = vks__tuning_pick(&h100), t = keep;
        char why[256] = "";
        int ok = vks__launch_shape_apply(bad[i], &h100, &t, why, sizeof why);
        if (ok)
            fprintf(stderr, "accepted '%s'\n", bad[i]);
        CHECK(!ok);
        CHECK(strstr(why, "launch shape") != NULL);
        CHECK(memcmp(&t, &keep, sizeof t) == 0);
    }
    {
        vks__launch_shape t = vks__tuning_pick(&h100);
        char why[256] = "";
        CHECK(!vks__launch_shape_apply("wg=64,run=8,wg=128", &h100, &t, why, sizeof why));
        CHECK(strstr(why, "the key wg is given twice") != NULL);
    }
    /* The shapes the GPU tests plant hold on every device they run on: test_gpu_tune's
     * candidates are accepted over each row (its slow one names pose=serial), and every shape
     * the shell tests plant is accepted over each row or refused over each. */
    for (size_t d = 0; d < sizeof test_devices / sizeof *test_devices; d++) {
        CHECK(applies(test_devices[d], VKS_TEST_SLOW_CANDIDATE, &s) && s.pose_wg == 1 && s.deform_wg == 1);
        CHECK(applies(test_devices[d], VKS_TEST_FAST_CANDIDATE, &s) && s.deform_wg == 64);
    }
    static const char *const forced[] = {VKS_TEST_FORCED_SHAPES};
    for (size_t i = 0; i < sizeof forced / sizeof *forced; i++)
        for (size_t d = 0; d < sizeof test_devices / sizeof *test_devices; d++) {
            /* test_gpu_shapes skips texels=on where the row's texel buffers cannot span */
            if (strstr(forced[i], "texels=on") && !vks__tuning_pick(test_devices[d]).skin_texels)
                continue;
            /* ... and skips a workgroup over the device's invocations (wg=1024 on SwiftShader) */
            if (vks_test_shape_over_limit(forced[i], test_devices[d]->max_workgroup_invocations))
                continue;
            if (!applies(test_devices[d], forced[i], &s))
                fprintf(stderr, "test_gpu_shapes would be refused '%s' on %s\n", forced[i], test_device_names[d]);
            CHECK(applies(test_devices[d], forced[i], &s));
        }
    for (size_t d = 0; d < sizeof test_devices / sizeof *test_devices; d++) {
        char one[96]; /* test_gpu_shapes' one subgroup a workgroup */
        snprintf(one, sizeof one, "wg=64,run=32,palette=off,pose=nodes,pose_wg=%u", test_devices[d]->subgroup_size);
        CHECK(applies(test_devices[d], one, &s) && s.pose_nodes == 1 && s.pose_wg == test_devices[d]->subgroup_size);
    }
    int planted = planted_in_scripts("tests/unit") + planted_in_scripts("tests/cli");
    fprintf(stderr, "%d launch shapes planted by the shell tests, each meaning the same on every device\n", planted);
    CHECK(planted >= 5); /* test_tune_cli.sh alone plants five */

    /* a palette that does not fit beside a large workgroup on a small device */
    CHECK(!applies(&tiny, "palette=on", &s));
    return vks_test_finish("test_tuning");
}
