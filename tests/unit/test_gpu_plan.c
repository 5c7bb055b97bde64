/* The GPU engine's planning (src/gpu/plan.h) without a device: deform work items per group
 * block and instance tile, a batch's chunk capacities (one instance of the largest model, the
 * whole batch), the parts a crowd is cut into under a storage budget (runs of one model share
 * work items per tile), the refusal of an instance over budget, and the median of timings.
 * Includes no Vulkan header: the planning must stay apart from the backend. */
#include "gpu/plan.h"
#include "testutil.h"

#include <string.h>

#ifdef VULKAN_CORE_H_
#error "gpu/plan.h must not pull in Vulkan: the planning is backend-neutral"
#endif

/* Model 0: 100 vertices in groups of 70 (4 influences) and 30 (1 influence), 3 nodes, 2 bones;
 * model 1: 10 vertices in one group (2 influences), 10 nodes, 12 bones. */
static const vks__gpu_model models[2] = {
    {.node_count = 3, .bone_count = 2, .vertex_count = 100, .first_group = 0, .group_count = 2},
    {.node_count = 10, .bone_count = 12, .vertex_count = 10, .first_group = 2, .group_count = 1},
};
static const vks__gpu_group groups[3] = {{.vertex_count = 70}, {.vertex_count = 30}, {.vertex_count = 10}};
static const uint32_t influences[3] = {4, 1, 2};

static void works(vks__plan_models pm)
{
    CHECK_EQ_INT(vks__blocks_of(pm, 0, 32), 4); /* 70 -> 3 blocks, 30 -> 1 */
    CHECK_EQ_INT(vks__blocks_of(pm, 1, 32), 1);
    CHECK_EQ_INT(vks__blocks_of(pm, 0, 128), 2);
    vks__gpu_work a[16], b[16], c[16], d[16], e[16];
    vks__gpu_work *const wl[VKS__DEFORM_VARIANTS] = {a, b, c, d, e};
    uint32_t wn[VKS__DEFORM_VARIANTS] = {0, 0, 0, 0, 0};
    /* 6 instances from instance 5, tiles of 4: every block twice */
    CHECK_EQ_INT(vks__works_append(pm, 32, 4, 0, 5, 6, wl, wn), 8);
    CHECK_EQ_INT(wn[3], 6); /* the 4-influence group */
    CHECK_EQ_INT(wn[0], 2); /* the 1-influence group */
    CHECK_EQ_INT(wn[1] + wn[2] + wn[4], 0);
    CHECK(d[0].group == 0 && d[0].vstart == 0 && d[0].vcount == 32 && d[0].inst_first == 5 && d[0].inst_count == 4);
    CHECK(d[5].group == 0 && d[5].vstart == 64 && d[5].vcount == 6 && d[5].inst_first == 9 && d[5].inst_count == 2);
    CHECK(a[1].group == 1 && a[1].vstart == 0 && a[1].vcount == 30 && a[1].inst_first == 9);
}

/* Groups of 5..8 influences share the 8-influence variant; 1..4 keep their own, so a model
 * without wider groups never runs the wider kernel. */
static void eight_influences(void)
{
    static const uint32_t want_variant[9] = {0, 0, 1, 2, 3, 4, 4, 4, 4};
    for (uint32_t k = 1; k <= 8; k++) {
        CHECK_EQ_INT(vks__deform_variant(k), want_variant[k]);
        CHECK(vks__variant_slots(vks__deform_variant(k)) >= k);
    }
    CHECK_EQ_INT(vks__variant_slots(3), 4);
    CHECK_EQ_INT(vks__variant_slots(4), 8);
    static const vks__gpu_model m = {.node_count = 2, .bone_count = 8, .vertex_count = 40, .group_count = 2};
    static const vks__gpu_group g[2] = {{.vertex_count = 30}, {.vertex_count = 10}};
    static const uint32_t inf[2] = {6, 4};
    vks__gpu_work a[4][8], e[8];
    vks__gpu_work *const wl[VKS__DEFORM_VARIANTS] = {a[0], a[1], a[2], a[3], e};
    uint32_t wn[VKS__DEFORM_VARIANTS] = {0, 0, 0, 0, 0};
    CHECK_EQ_INT(vks__works_append((vks__plan_models){1, &m, g, inf}, 32, 4, 0, 0, 1, wl, wn), 2);
    CHECK_EQ_INT(wn[4], 1); /* the 6-influence group: the 8 variant */
    CHECK_EQ_INT(wn[3], 1); /* the 4-influence group: its own */
    CHECK(e[0].group == 0 && a[3][0].group == 1);
}

static void batch_caps(vks__plan_models pm)
{
    vks_gpu_batch_entry e[2] = {{0, 10, NULL}, {1, 3, NULL}};
    vks__caps least = vks__batch_caps(pm, e, 2, 0, 32, 4);
    CHECK_EQ_INT(least.vertices, 100); /* one instance of the largest model */
    CHECK_EQ_INT(least.matrices, 12);
    CHECK_EQ_INT(least.instances, 1);
    CHECK_EQ_INT(least.works, 4);
    vks__caps whole = vks__batch_caps(pm, e, 2, UINT64_MAX / 2, 32, 4);
    CHECK_EQ_INT(whole.vertices, 10 * 100 + 3 * 10);
    CHECK_EQ_INT(whole.matrices, 10 * 3 + 3 * 12);
    CHECK_EQ_INT(whole.instances, 13);
    CHECK_EQ_INT(whole.works, 3 * 4 + 1 * 1); /* started tiles of 4 times blocks */
    CHECK(!vks__caps_equal(&least, &whole));
    CHECK(vks__caps_equal(&whole, &whole));
    CHECK_EQ_INT(vks__caps_bytes(&whole), 1030 * 12);
    vks__caps mid = vks__batch_caps(pm, e, 2, 240 * 12, 32, 4); /* 240 vertices' worth */
    CHECK_EQ_INT(mid.vertices, 240);
    CHECK_EQ_INT(mid.instances, 13);
}

static void crowd_layout(vks__plan_models pm)
{
    vks_instance in[5] = {{0}};
    const uint32_t model[5] = {0, 0, 0, 1, 1};
    for (int i = 0; i < 5; i++)
        in[i].model = model[i];
    uint32_t starts[5], parts = 0;
    vks__caps caps[5];
    vks_error err = {0};
    /* 200 vertices a part: instances 0-1, then 2-4 */
    CHECK(vks__crowd_layout(pm, in, 5, 200 * 12, sizeof(vks__gpu_pose_param), 32, 4, starts, caps, &parts, &err) == VKS_OK);
    CHECK_EQ_INT(parts, 2);
    CHECK_EQ_INT(starts[0], 0);
    CHECK_EQ_INT(starts[1], 2);
    CHECK(caps[0].vertices == 200 && caps[0].matrices == 6 && caps[0].instances == 2 && caps[0].works == 4);
    CHECK(caps[1].vertices == 120 && caps[1].matrices == 27 && caps[1].instances == 3 && caps[1].works == 5);
    /* tiles of one instance: every instance has work items of its own */
    CHECK(vks__crowd_layout(pm, in, 5, 1 << 20, sizeof(vks__gpu_pose_param), 32, 1, starts, caps, &parts, &err) == VKS_OK);
    CHECK_EQ_INT(parts, 1);
    CHECK_EQ_INT(caps[0].works, 3 * 4 + 2 * 1);
    /* one instance of model 0 alone is over 50 vertices' worth */
    CHECK_EQ_INT(vks__crowd_layout(pm, in, 5, 50 * 12, sizeof(vks__gpu_pose_param), 32, 4, starts, caps, &parts, &err), VKS_ERR_LIMIT);
    CHECK(strstr(err.msg, "instance 0") != NULL);
}

int main(void)
{
    vks__plan_models pm = {2, models, groups, influences};
    works(pm);
    eight_influences();
    batch_caps(pm);
    crowd_layout(pm);
    double t[5] = {5, 1, 4, 2, 3};
    CHECK_NEAR(vks__median(t, 5), 3.0, 0);
    return vks_test_finish("test_gpu_plan");
}
