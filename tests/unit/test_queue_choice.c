/* The queue family a context of vkskin's own submits to (src/gpu/queue_choice.h), against the
 * family tables real devices report in vulkaninfo, and the rules on made-up tables. No device
 * is needed: the choice is a pure function of the table.
 *   - batch work takes a compute family without graphics where there is one (the H100's family
 *     2, RADV's family 1), else one with graphics (lavapipe, ANV);
 *   - a context that renders takes a family with graphics and compute (family 0 everywhere);
 *   - families without queues never count; timestamps break ties; then the lowest index;
 *   - readback goes to a copy engine's family (transfer, no graphics, no compute) beside the
 *     compute family where there is one (the H100's family 1), else to the compute family. */
#include "gpu/queue_choice.h"
#include "testutil.h"

#include <string.h>

enum {
    G = VK_QUEUE_GRAPHICS_BIT,
    C = VK_QUEUE_COMPUTE_BIT,
    T = VK_QUEUE_TRANSFER_BIT,
    S = VK_QUEUE_SPARSE_BINDING_BIT,
    DECODE = VK_QUEUE_VIDEO_DECODE_BIT_KHR,
    OPTICAL_FLOW = VK_QUEUE_OPTICAL_FLOW_BIT_NV
};

#define FAMILY(flags, count, ts) {(VkQueueFlags)(flags), (count), (ts), {1, 1, 1}}
#define COUNT(table) ((uint32_t)(sizeof(table) / sizeof(table)[0]))

typedef struct device {
    const char *name;
    const VkQueueFamilyProperties *families;
    uint32_t count;
    uint32_t batch, render;
    uint32_t readback; /* beside the batch family */
} device;

/* NVIDIA H100 80GB HBM3, driver 580.159.04, Vulkan 1.4.312: its vulkaninfo's queueProperties[0..4]. */
static const VkQueueFamilyProperties h100[] = {
    FAMILY(G | C | T | S, 16, 64),
    FAMILY(T | S, 2, 64),
    FAMILY(C | T | S, 8, 64),
    FAMILY(T | S | DECODE, 7, 32),
    FAMILY(T | S | OPTICAL_FLOW, 1, 64),
};
/* llvmpipe (lavapipe, Mesa 22.3, LLVM 15): one family that does everything. */
static const VkQueueFamilyProperties lavapipe[] = {
    FAMILY(G | C | T, 1, 64),
};
/* AMD Radeon RX 6800 (RADV NAVI21, Mesa 23.x), as RADV on RDNA2 reports it in vulkaninfo: the
 * graphics ring, the compute rings (asynchronous compute) and, from Mesa 23.1, a family for
 * sparse binding alone. */
static const VkQueueFamilyProperties radv_rdna2[] = {
    FAMILY(G | C | T | S, 1, 64),
    FAMILY(C | T | S, 4, 64),
    FAMILY(S, 1, 64),
};
/* Intel UHD Graphics 620 (ANV, Kaby Lake GT2, Mesa 22), as ANV on Gen9 reports it in vulkaninfo:
 * one family, one queue, 36 timestamp bits. */
static const VkQueueFamilyProperties anv_gen9[] = {
    FAMILY(G | C | T, 1, 36),
};

static const device devices[] = {
    {"NVIDIA H100", h100, COUNT(h100), 2, 0, 1},
    {"lavapipe", lavapipe, COUNT(lavapipe), 0, 0, 0},
    {"RADV RDNA2", radv_rdna2, COUNT(radv_rdna2), 1, 0, 1}, /* its sparse-only family copies nothing */
    {"ANV Gen9", anv_gen9, COUNT(anv_gen9), 0, 0, 0},
};

static void real_devices(void)
{
    for (size_t d = 0; d < sizeof devices / sizeof devices[0]; d++) {
        const device *dv = &devices[d];
        uint32_t batch = vks__choose_queue_family(dv->families, dv->count, 0);
        uint32_t render = vks__choose_queue_family(dv->families, dv->count, 1);
        if (batch != dv->batch || render != dv->render)
            fprintf(stderr, "%s: batch family %u (want %u), render family %u (want %u)\n", dv->name, batch, dv->batch,
                    render, dv->render);
        CHECK_EQ_INT(batch, dv->batch);
        CHECK_EQ_INT(render, dv->render);
        /* whatever is chosen can do the job */
        CHECK(dv->families[batch].queueFlags & C);
        CHECK((dv->families[render].queueFlags & (G | C)) == (G | C));
        CHECK(dv->families[batch].queueCount > 0 && dv->families[render].queueCount > 0);
        uint32_t readback = vks__choose_readback_family(dv->families, dv->count, batch);
        if (readback != dv->readback)
            fprintf(stderr, "%s: readback family %u (want %u)\n", dv->name, readback, dv->readback);
        CHECK_EQ_INT(readback, dv->readback);
        CHECK(dv->families[readback].queueCount > 0);
        /* a context that renders (compute on family 0) reads back beside it just the same */
        CHECK_EQ_INT(vks__choose_readback_family(dv->families, dv->count, render),
                     dv->readback == batch ? render : dv->readback);
    }
}

static void readback_rules(void)
{
    /* one family that does everything: the copies stay on it */
    const VkQueueFamilyProperties one[] = {FAMILY(G | C | T, 1, 64)};
    CHECK_EQ_INT(vks__choose_readback_family(one, 1, 0), 0);
    /* a copy engine that lists no queue is no choice */
    const VkQueueFamilyProperties zero[] = {FAMILY(C | T, 2, 64), FAMILY(T, 0, 64)};
    CHECK_EQ_INT(vks__choose_readback_family(zero, COUNT(zero), 0), 0);
    /* another compute or graphics family is an engine with work of its own, not a copy engine */
    const VkQueueFamilyProperties engines[] = {FAMILY(G | C | T, 1, 64), FAMILY(C | T, 4, 64), FAMILY(G | T, 1, 64)};
    CHECK_EQ_INT(vks__choose_readback_family(engines, COUNT(engines), 1), 1);
    /* transfer must be listed (sparse binding alone copies nothing) */
    const VkQueueFamilyProperties sparse[] = {FAMILY(C | T, 1, 64), FAMILY(S, 1, 64), FAMILY(T | S, 1, 64)};
    CHECK_EQ_INT(vks__choose_readback_family(sparse, COUNT(sparse), 0), 2);
    /* a plain copy engine beats one behind a video engine even without timestamps; timestamps
     * next; then the lowest index */
    const VkQueueFamilyProperties video[] = {FAMILY(C | T, 1, 64), FAMILY(T | DECODE, 4, 64), FAMILY(T, 1, 0),
                                             FAMILY(T | S | VK_QUEUE_PROTECTED_BIT, 2, 64), FAMILY(T, 2, 64)};
    CHECK_EQ_INT(vks__choose_readback_family(video, COUNT(video), 0), 3);
    const VkQueueFamilyProperties only_video[] = {FAMILY(C | T, 1, 64), FAMILY(T | DECODE, 4, 64)};
    CHECK_EQ_INT(vks__choose_readback_family(only_video, COUNT(only_video), 0), 1);
    /* no compute family chosen, no readback family either */
    const VkQueueFamilyProperties dma[] = {FAMILY(T, 2, 64)};
    CHECK_EQ_INT(vks__choose_readback_family(dma, COUNT(dma), UINT32_MAX), UINT32_MAX);
}

static void rules(void)
{
    /* no compute anywhere (a video or transfer engine alone): nothing fits */
    const VkQueueFamilyProperties none[] = {FAMILY(T, 2, 64), FAMILY(T | DECODE, 1, 64)};
    CHECK_EQ_INT(vks__choose_queue_family(none, COUNT(none), 0), UINT32_MAX);
    CHECK_EQ_INT(vks__choose_queue_family(none, COUNT(none), 1), UINT32_MAX);
    CHECK_EQ_INT(vks__choose_queue_family(none, 0, 0), UINT32_MAX);

    /* a compute-only device (an accelerator): batches yes, rendering no */
    const VkQueueFamilyProperties compute_only[] = {FAMILY(C | T, 4, 64)};
    CHECK_EQ_INT(vks__choose_queue_family(compute_only, 1, 0), 0);
    CHECK_EQ_INT(vks__choose_queue_family(compute_only, 1, 1), UINT32_MAX);

    /* a family that lists no queue is no choice, whatever its flags */
    const VkQueueFamilyProperties empty[] = {FAMILY(C | T, 0, 64), FAMILY(G | C | T, 0, 64), FAMILY(G | C | T, 1, 64)};
    CHECK_EQ_INT(vks__choose_queue_family(empty, COUNT(empty), 0), 2);
    CHECK_EQ_INT(vks__choose_queue_family(empty, COUNT(empty), 1), 2);

    /* graphics without compute cannot render here (the crowd's passes share the command buffer) */
    const VkQueueFamilyProperties split[] = {FAMILY(G | T, 1, 64), FAMILY(G | C | T, 1, 64)};
    CHECK_EQ_INT(vks__choose_queue_family(split, COUNT(split), 1), 1);

    /* batch work: compute-only beats graphics even without timestamps; among compute-only
     * families the one with timestamps wins, then the lowest index */
    const VkQueueFamilyProperties no_ts[] = {FAMILY(G | C | T, 1, 64), FAMILY(C | T, 2, 0)};
    CHECK_EQ_INT(vks__choose_queue_family(no_ts, COUNT(no_ts), 0), 1);
    const VkQueueFamilyProperties two[] = {FAMILY(G | C | T, 1, 64), FAMILY(C | T, 2, 0), FAMILY(C, 1, 48),
                                           FAMILY(C | T, 8, 64)};
    CHECK_EQ_INT(vks__choose_queue_family(two, COUNT(two), 0), 2);
    /* rendering: among graphics families, timestamps first */
    const VkQueueFamilyProperties gfx[] = {FAMILY(G | C | T, 1, 0), FAMILY(G | C, 1, 64), FAMILY(G | C | T, 1, 64)};
    CHECK_EQ_INT(vks__choose_queue_family(gfx, COUNT(gfx), 1), 1);
    /* the flags beyond graphics and compute (sparse, video, optical flow, protected) change nothing */
    const VkQueueFamilyProperties extra[] = {FAMILY(C | T | S | VK_QUEUE_PROTECTED_BIT, 1, 64), FAMILY(C, 1, 64)};
    CHECK_EQ_INT(vks__choose_queue_family(extra, COUNT(extra), 0), 0);
}

int main(void)
{
    real_devices();
    rules();
    readback_rules();
    return vks_test_finish("test_queue_choice");
}
