/* The GPU context as a library a host embeds (issue 10): validation-layer messages reach the
 * host's logger (and nothing is printed without one), and every host allocation the context's
 * Vulkan objects make goes through the host's VkAllocationCallbacks, all freed by
 * vks_gpu_destroy. Exits 77 without a device or the validation layer. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "vkskin.h"
#include "vkskin/gpu_vulkan.h"

typedef struct log_capture {
    int errors, warnings;
    char first[256];
} log_capture;

static void capture(void *user, vks_log_level level, const char *msg)
{
    log_capture *c = user;
    if (level == VKS_LOG_ERROR)
        c->errors++;
    else if (level == VKS_LOG_WARNING)
        c->warnings++;
    if (!c->first[0])
        snprintf(c->first, sizeof c->first, "%s", msg);
}

#include "vk_counting_alloc.h"

int main(void)
{
    log_capture log = {0};
    VkAllocationCallbacks cb = {NULL, cb_alloc, cb_realloc, cb_free, NULL, NULL};
    vks_gpu_options o = {0};
    o.validation = 1;
    o.logger.func = capture;
    o.logger.user = &log;
    o.vk_allocator = &cb;
    vks_gpu *gpu = NULL;
    vks_error err = {0};
    vks_result r = vks_gpu_create(&o, &gpu, &err);
    if (r == VKS_ERR_NO_DEVICE || r == VKS_ERR_UNSUPPORTED) {
        fprintf(stderr, "skipped: %s\n", err.msg);
        return 77;
    }
    CHECK_EQ_INT(r, VKS_OK);
    if (r != VKS_OK)
        return vks_test_finish("test_gpu_library");
    CHECK(calls > 0); /* instance, device, pipelines: the layer and driver use the callbacks */

    /* a buffer of size 0 breaks a valid-usage rule: the layer reports it to our logger */
    vks_gpu_host h;
    VkQueue q;
    vks_gpu_vulkan(gpu, &h, &q);
    PFN_vkGetDeviceProcAddr gdpa = (PFN_vkGetDeviceProcAddr)h.get_instance_proc_addr(h.instance, "vkGetDeviceProcAddr");
    PFN_vkCreateBuffer create = (PFN_vkCreateBuffer)gdpa(h.device, "vkCreateBuffer");
    PFN_vkDestroyBuffer destroy = (PFN_vkDestroyBuffer)gdpa(h.device, "vkDestroyBuffer");
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bi.size = 0;
    bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    VkBuffer b = VK_NULL_HANDLE;
    if (create(h.device, &bi, NULL, &b) == VK_SUCCESS && b)
        destroy(h.device, b, NULL);
    CHECK(vks_gpu_validation_messages(gpu) >= 1);
    CHECK_EQ_INT((long)(log.errors + log.warnings), (long)vks_gpu_validation_messages(gpu));
    CHECK(!strncmp(log.first, "validation error: ", 18));
    fprintf(stderr, "captured %d error(s): %.120s...\n", log.errors, log.first);

    vks_gpu_destroy(gpu);
    CHECK_EQ_INT((long)live, 0); /* everything the context allocated was freed through us */
    return vks_test_finish("test_gpu_library");
}
