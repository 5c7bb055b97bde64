/* Every launch shape a GPU takes, forced on the device at hand (lavapipe in CI) through
 * vks_gpu_options.launch_shape and checked against the CPU reference with the validation
 * layer on, so no GPU path runs first on a GPU: the shared palette on (whole, and smaller than
 * some groups' palettes so both paths meet in one pass), workgroups from 32 to 1024, instance
 * runs of 1, 3, 8, 32 and 256, matrices through the texel buffer or the storage buffer, batches
 * in one chunk and forced into many, both deform kernels, both pose-pass variants (serial, and
 * nodes: a subgroup per instance, worlds by depth level; one subgroup a workgroup and many).
 * The nodes variant gives the serial one's bits: the same batch under both differs from the
 * reference by the very same amounts. A shape the device cannot run is refused by
 * vks_gpu_create with a message. Exits 77 where there is no Vulkan device. */
#include "gpu_check.h"
#include "planted_shapes.h"
#include "testutil.h"

#include <string.h>

/* VKS_TEST_FORCED_SHAPES (planted_shapes.h, where test_tuning checks them over every device's
 * table row), then one subgroup a workgroup of the nodes variant: pose_wg the device's subgroup
 * size (8 on lavapipe, 32 on the H100), filled in by main. */
static const char *shapes[] = {VKS_TEST_FORCED_SHAPES, NULL};

static int skipped_over_limit;

/* The batch mix under one shape: its reports against the reference. */
static void run_mix(const char *shape, const vks_skin *const *skins, const gpu_check_entry *mix, gpu_check_result *r)
{
    vks_gpu_options opt = {0};
    opt.launch_shape = shape;
    vks_gpu *gpu = gpu_check_context_opt(&opt);
    vks_gpu_models *ms = NULL;
    vks_error err = {0};
    memset(r, 0, sizeof *r);
    CHECK(vks_gpu_upload(gpu, skins, 3, &ms, &err) == VKS_OK);
    if (ms)
        CHECK(gpu_check_run(gpu, ms, mix, 4, 0, r) == VKS_OK && r->pass);
    CHECK_EQ_INT(vks_gpu_validation_messages(gpu), 0);
    vks_gpu_models_free(ms);
    vks_gpu_destroy(gpu);
}

int main(void)
{
    vks_gpu_options po = {0};
    po.cache_dir = ""; /* the table, whatever vkskin tune stored on this machine */
    vks_gpu *probe = gpu_check_context_opt(&po);
    fprintf(stderr, "device: %s (%s)\n", vks_gpu_device(probe)->name, vks_gpu_device(probe)->type);
    vks_gpu_shape_info info;
    vks_gpu_launch_shape(probe, &info);
    fprintf(stderr, "the table's shape here: %s (%s: %s)\n", info.text, info.source, info.reason);
    CHECK(strcmp(info.source, "table") == 0);
    CHECK(info.deform_workgroup > 0 && info.instance_run > 0);
    int texels_here = info.skin_texels;
    uint32_t subgroup = vks_gpu_device(probe)->subgroup_size;
    uint32_t max_wg = vks_gpu_device(probe)->max_workgroup_invocations;
    vks_gpu_destroy(probe);
    char one_subgroup[96];
    snprintf(one_subgroup, sizeof one_subgroup, "wg=64,run=32,palette=off,pose=nodes,pose_wg=%u",
             subgroup ? subgroup : 32);
    shapes[sizeof shapes / sizeof *shapes - 1] = one_subgroup;

    vks_skin *a = gpu_check_character(2000, 32, 4, 12, 1); /* several groups of 12 slots */
    vks_skin *b = gpu_check_character(600, 24, 1, 0, 2);   /* one group, rigid */
    vks_skin *c = gpu_check_character(900, 40, 2, 20, 3);  /* groups of 20 slots */
    if (!a || !b || !c)
        return vks_test_finish("test_gpu_shapes");
    const vks_skin *skins[3] = {a, b, c};

    /* Only the deform kernels the uploaded groups need are compiled: a context that uploads
     * a rigid model (one influence) makes the pose pipeline and one deform pipeline. */
    {
        vks_gpu_options o = {0};
        o.cache_dir = "";
        vks_gpu *g = gpu_check_context_opt(&o);
        vks_gpu_counters k;
        vks_gpu_get_counters(g, &k);
        CHECK_EQ_INT(k.pipelines, 1);
        vks_gpu_models *rigid = NULL;
        vks_error e = {0};
        CHECK(vks_gpu_upload(g, &skins[1], 1, &rigid, &e) == VKS_OK);
        vks_gpu_get_counters(g, &k);
        CHECK_EQ_INT(k.pipelines, 2);
        vks_gpu_models_free(rigid);
        vks_gpu_destroy(g);
    }

    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        if (strstr(shapes[i], "texels=on") && !texels_here) {
            fprintf(stderr, "%s: this device's texel buffers cannot span its storage range, skipped\n", shapes[i]);
            continue;
        }
        if (vks_test_shape_over_limit(shapes[i], max_wg)) { /* wg=1024 where SwiftShader takes 256 */
            fprintf(stderr, "%s: a workgroup over this device's %u invocations, skipped\n", shapes[i], max_wg);
            skipped_over_limit++;
            continue;
        }
        vks_gpu_options opt = {0};
        opt.launch_shape = shapes[i];
        vks_gpu *gpu = gpu_check_context_opt(&opt);
        vks_gpu_launch_shape(gpu, &info);
        fprintf(stderr, "%s -> %s\n", shapes[i], info.text);
        CHECK(strcmp(info.source, "forced") == 0);
        vks_gpu_models *ms = NULL;
        vks_error err = {0};
        CHECK(vks_gpu_upload(gpu, skins, 3, &ms, &err) == VKS_OK);
        if (!ms) {
            vks_gpu_destroy(gpu);
            continue;
        }
        gpu_check_result r;
        gpu_check_entry mix[4] = {{a, 0, 1, 1, 0}, {a, 0, 37, 0, 8}, {b, 1, 9, 0, 12}, {c, 2, 5, 0, 13}};
        CHECK(gpu_check_run(gpu, ms, mix, 4, 0, &r) == VKS_OK && r.pass);
        CHECK_EQ_INT(r.pos[1].compared, 37ull * a->vertex_count * 3);
        gpu_check_entry many[2] = {{a, 0, 20, 0, 21}, {c, 2, 7, 0, 22}};
        CHECK(gpu_check_run(gpu, ms, many, 2, (uint64_t)a->vertex_count * 12 * 3, &r) == VKS_OK && r.pass);
        CHECK(r.stats.chunks >= 8);
        CHECK(gpu_check_run_kernel(gpu, ms, mix, 4, 0, VKS_GPU_KERNEL_PLAIN, &r) == VKS_OK && r.pass);
        CHECK_EQ_INT(vks_gpu_validation_messages(gpu), 0);
        vks_gpu_models_free(ms);
        vks_gpu_destroy(gpu);
    }

    /* The pose pass's variants agree to the bit: the same outputs give the same errors. */
    gpu_check_entry mix[4] = {{a, 0, 1, 1, 0}, {a, 0, 37, 0, 8}, {b, 1, 9, 0, 12}, {c, 2, 5, 0, 13}};
    gpu_check_result serial, nodes;
    run_mix("wg=64,run=8,palette=off,pose=serial", skins, mix, &serial);
    run_mix("wg=64,run=8,palette=off,pose=nodes", skins, mix, &nodes);
    for (int k = 0; k < 4; k++) {
        fprintf(stderr, "entry %d: serial max %.9g nmse %.9g, nodes max %.9g nmse %.9g\n", k, serial.pos[k].max_abs,
                serial.pos[k].nmse, nodes.pos[k].max_abs, nodes.pos[k].nmse);
        CHECK(serial.pos[k].compared > 0 && serial.pos[k].compared == nodes.pos[k].compared);
        CHECK(serial.pos[k].max_abs == nodes.pos[k].max_abs && serial.pos[k].nmse == nodes.pos[k].nmse);
        CHECK(serial.nrm[k].max_abs == nodes.nrm[k].max_abs && serial.nrm[k].nmse == nodes.nrm[k].nmse);
    }

    /* Shapes the device cannot run are refused before any pipeline is made. */
    const char *bad[] = {"wg=4096", "palette=100000", "run=0", "colour=blue", "pose=parallel", "pose=nodes,pose_wg=1"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        vks_gpu_options opt = {0};
        opt.launch_shape = bad[i];
        vks_gpu *gpu = NULL;
        vks_error err = {0};
        vks_result res = vks_gpu_create(&opt, &gpu, &err);
        fprintf(stderr, "%s -> %s: %s\n", bad[i], vks_result_str(res), err.msg);
        CHECK(res == VKS_ERR_INVALID);
        CHECK(gpu == NULL);
        CHECK(strstr(err.msg, "launch shape") != NULL);
        if (gpu)
            vks_gpu_destroy(gpu);
    }
    vks_skin_free(a);
    vks_skin_free(b);
    vks_skin_free(c);
    /* every forced shape within 1024 invocations ran where the device takes 1024 (lavapipe, the
     * GPUs), and the skip above is what a smaller device sees (wg=1024 over SwiftShader's 256) */
    fprintf(stderr, "%d shape(s) skipped over this device's %u invocations a workgroup\n", skipped_over_limit, max_wg);
    CHECK((max_wg >= 1024) == (skipped_over_limit == 0));
    return vks_test_finish("test_gpu_shapes");
}
