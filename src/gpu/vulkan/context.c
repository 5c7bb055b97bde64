/* The context: an instance and device of vkskin's own (the CLI's case), or the host's adopted
 * ones (an engine's case: vks_gpu_options.host). Either way the functions live in the
 * context's tables, loaded through its own vkGetInstanceProcAddr, and what follows (limits,
 * memory types, timestamps, pipelines) is the same. An adopted instance, device and queue are
 * never destroyed or waited idle on here. */
#include "gpu_internal.h"

#include "core/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* vkskin's own instance and device, on the device gpu->opt chooses. */
static vks_result create_own(vks_gpu *gpu, vks_error *err)
{
    vks_result res = vks__make_instance(gpu, gpu->opt.validation, &gpu->inst, &gpu->instance, err);
    if (res == VKS_OK)
        res = vks__pick_device(gpu, err);
    if (res != VKS_OK)
        return res;
    float prio = 1.0f;
    /* queue 0 of the compute family, and queue 0 of the readback family when it is another
     * (a copy engine: vks__pick_device chose it) */
    VkDeviceQueueCreateInfo qi[2] = {{.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO},
                                     {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO}};
    qi[0].queueFamilyIndex = gpu->queue_family;
    qi[1].queueFamilyIndex = gpu->readback_family;
    qi[0].queueCount = qi[1].queueCount = 1;
    qi[0].pQueuePriorities = qi[1].pQueuePriorities = &prio;
    VkDeviceCreateInfo di = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    di.queueCreateInfoCount = gpu->readback_family != gpu->queue_family ? 2 : 1;
    di.pQueueCreateInfos = qi;
    VkResult r = gpu->inst.vkCreateDevice(gpu->physical, &di, VKS_VK_ALLOC(gpu), &gpu->device);
    if (r != VK_SUCCESS)
        return vks__vk_fail(err, r, "vkCreateDevice");
    gpu->queue_index = 0, gpu->readback_index = 0;
    return VKS_OK;
}

/* The host's objects, checked for what vkskin needs (crowd.h lists it). */
static vks_result adopt(vks_gpu *gpu, const vks_gpu_host *h, vks_error *err)
{
    const char *null_field = !h->instance ? "instance"
                             : !h->physical_device ? "physical_device"
                             : !h->device ? "device"
                             : !h->get_instance_proc_addr ? "get_instance_proc_addr"
                             : NULL;
    if (null_field)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/host", "vks_gpu_host.%s is NULL", null_field);
    if (h->api_version && h->api_version < VK_API_VERSION_1_1)
        return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "gpu/host",
                             "the host's instance targets Vulkan %u.%u; vkskin needs 1.1",
                             VK_API_VERSION_MAJOR(h->api_version), VK_API_VERSION_MINOR(h->api_version));
    gpu->adopted = 1;
    gpu->instance = h->instance, gpu->physical = h->physical_device, gpu->device = h->device;
    vks__keep_drivers_loaded(); /* the host's instance outlives this context, not the process */
    const char *missing = vks__load_instance_fns(&gpu->inst, h->get_instance_proc_addr, h->instance);
    if (missing)
        return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "gpu/host",
                             "the host's vkGetInstanceProcAddr gives no %s (is the instance made for Vulkan "
                             "1.1?)", missing);
    VkPhysicalDeviceProperties p;
    gpu->inst.vkGetPhysicalDeviceProperties(h->physical_device, &p);
    if (p.apiVersion < VK_API_VERSION_1_1)
        return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "gpu/host",
                             "the host's device \"%s\" supports Vulkan %u.%u; vkskin needs 1.1", p.deviceName,
                             VK_API_VERSION_MAJOR(p.apiVersion), VK_API_VERSION_MINOR(p.apiVersion));
    VkQueueFlags flags = 0;
    uint32_t queues = vks__queue_family_info(&gpu->inst, h->physical_device, h->queue_family, NULL, &flags);
    if (queues == 0 || !(flags & VK_QUEUE_COMPUTE_BIT))
        return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "gpu/host",
                             "queue family %u of \"%s\" %s", h->queue_family, p.deviceName,
                             queues == 0 ? "does not exist" : "has no VK_QUEUE_COMPUTE_BIT");
    /* What can be checked: the family offers that many queues. How many the host created there
     * (VkDeviceQueueCreateInfo.queueCount) no Vulkan call tells; that is the host's promise. */
    if (h->queue_index >= queues)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/host",
                             "queue_index %u: family %u has %u queue(s)", h->queue_index, h->queue_family, queues);
    gpu->queue_family = h->queue_family, gpu->queue_index = h->queue_index;
    /* the host made the device with the queues it wanted: the copies go to the host's queue */
    gpu->readback_family = h->queue_family, gpu->readback_index = h->queue_index;
    return VKS_OK;
}

/* What every context derives from its physical device and queue family. */
static void describe_context(vks_gpu *gpu)
{
    vks__describe(&gpu->inst, gpu->physical, gpu->queue_family, &gpu->info);
    gpu->info.queue_index = gpu->queue_index;
    gpu->inst.vkGetPhysicalDeviceProperties(gpu->physical, &gpu->props);
    if (gpu->test.limit_storage_range && gpu->test.limit_storage_range < gpu->props.limits.maxStorageBufferRange)
        gpu->props.limits.maxStorageBufferRange = gpu->info.max_storage_buffer_range = gpu->test.limit_storage_range;
    gpu->inst.vkGetPhysicalDeviceMemoryProperties(gpu->physical, &gpu->mem);
    vks__queue_family_info(&gpu->inst, gpu->physical, gpu->queue_family, &gpu->timestamp_valid_bits,
                           &gpu->queue_flags);
    /* Testing: lavapipe's one family does everything; this makes a context behave as one on a
     * compute-only family does (the renderer refuses, crowds release to compute and transfer
     * only), so the messages of a device that cannot draw are tested where there is none. */
    const char *no_graphics = getenv("VKSKIN_TEST_NO_GRAPHICS_QUEUE");
    if (no_graphics && *no_graphics && strcmp(no_graphics, "0") != 0) {
        gpu->queue_flags &= ~(VkQueueFlags)VK_QUEUE_GRAPHICS_BIT;
        for (uint32_t i = 0; i < gpu->info.queue_family_count; i++)
            gpu->info.queue_families[i].flags &= ~(uint32_t)VKS_QUEUE_GRAPHICS;
        gpu->info.render_family = UINT32_MAX;
    }
    gpu->info.readback_family = gpu->readback_family, gpu->info.readback_queue_index = gpu->readback_index;
    vks__queue_family_info(&gpu->inst, gpu->physical, gpu->readback_family, &gpu->readback_timestamp_bits, NULL);
    /* Testing: lavapipe has one family with one queue, so the readback of a copy engine's queue
     * (a submission of its own, waiting on the compute submission's semaphore) would never run
     * where the tests do; this takes that path on the context's one queue. */
    const char *apart = getenv("VKSKIN_TEST_SEPARATE_READBACK");
    gpu->readback_apart = gpu->readback_family != gpu->queue_family ||
                          (apart && *apart && strcmp(apart, "0") != 0);
    /* Testing: a batch's reduction in a pass of its own, as the streams run it, instead of
     * folded into the deform pass (batch.c): both ways run where the tests do. */
    const char *reduce_apart = getenv("VKSKIN_TEST_SEPARATE_REDUCE");
    gpu->reduce_apart = reduce_apart && *reduce_apart && strcmp(reduce_apart, "0") != 0;
    gpu->timestamps = gpu->timestamp_valid_bits != 0 && gpu->props.limits.timestampPeriod > 0;
    for (uint32_t i = 0; i < gpu->mem.memoryTypeCount; i++) {
        VkMemoryPropertyFlags f = gpu->mem.memoryTypes[i].propertyFlags;
        if ((f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) && (f & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) &&
            gpu->props.deviceType != VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU)
            gpu->unified = 1; /* discrete GPUs' small BAR window is not for bulk output */
    }
    if (gpu->opt.force_staging)
        gpu->unified = 0;
}

vks_result vks_gpu_create(const vks_gpu_options *opt, vks_gpu **out, vks_error *err)
{
    return vks_gpu_create_testing(opt, NULL, out, err);
}

vks_result vks_gpu_create_testing(const vks_gpu_options *opt, const vks_gpu_testing *t, vks_gpu **out,
                                  vks_error *err)
{
    *out = NULL;
    vks_gpu *gpu = calloc(1, sizeof *gpu);
    if (!gpu)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu", "out of memory");
    if (opt)
        gpu->opt = *opt;
    if (t)
        gpu->test = *t;
    gpu->opt.host = NULL; /* the caller's struct need not outlive this call */
    vks_result res = opt && opt->host ? adopt(gpu, opt->host, err) : create_own(gpu, err);
    if (res == VKS_OK) {
        describe_context(gpu);
        vks__load_device_table(&gpu->vk, gpu->device, gpu->inst.vkGetDeviceProcAddr);
        gpu->vk.vkGetDeviceQueue(gpu->device, gpu->queue_family, gpu->queue_index, &gpu->queue);
        gpu->vk.vkGetDeviceQueue(gpu->device, gpu->readback_family, gpu->readback_index, &gpu->readback_queue);
        res = vks__pipelines_create(gpu, err);
    }
    if (res != VKS_OK) {
        vks_gpu_destroy(gpu);
        return res;
    }
    *out = gpu;
    return VKS_OK;
}

void vks_gpu_destroy(vks_gpu *gpu)
{
    if (!gpu)
        return;
    if (gpu->device && gpu->vk.vkDestroyPipeline) {
        /* An own device may still run a batch that failed half-way; an adopted one is the
         * host's to wait for (its other work must not stall here). */
        if (!gpu->adopted)
            gpu->vk.vkDeviceWaitIdle(gpu->device);
        vks__batch_cache_free(gpu); /* every chunk of every run was waited for by its fence */
        vks__pipelines_destroy(gpu);
    }
    if (!gpu->adopted) {
        if (gpu->device) /* its table is loaded as soon as it exists */
            gpu->vk.vkDestroyDevice(gpu->device, VKS_VK_ALLOC(gpu));
        if (gpu->messenger && gpu->inst.vkDestroyDebugUtilsMessengerEXT)
            gpu->inst.vkDestroyDebugUtilsMessengerEXT(gpu->instance, gpu->messenger, VKS_VK_ALLOC(gpu));
        if (gpu->instance)
            gpu->inst.vkDestroyInstance(gpu->instance, VKS_VK_ALLOC(gpu));
    }
    free(gpu);
}

uint32_t vks_gpu_validation_messages(const vks_gpu *gpu)
{
    return gpu ? gpu->validation_messages : 0;
}

const vks_gpu_device_info *vks_gpu_device(const vks_gpu *gpu)
{
    return &gpu->info;
}

void vks_gpu_get_counters(const vks_gpu *gpu, vks_gpu_counters *out)
{
    *out = gpu->counters;
}

void vks_gpu_vulkan(const vks_gpu *gpu, vks_gpu_host *out, VkQueue *queue)
{
    out->instance = gpu->instance, out->physical_device = gpu->physical, out->device = gpu->device;
    out->queue_family = gpu->queue_family, out->queue_index = gpu->queue_index;
    out->get_instance_proc_addr = gpu->inst.vkGetInstanceProcAddr;
    out->api_version = VK_API_VERSION_1_1;
    if (queue)
        *queue = gpu->queue;
}

vks__vk_device vks__device_of(const vks_gpu *gpu)
{
    return (vks__vk_device){gpu->device, &gpu->vk, &gpu->mem, &gpu->info, gpu->queue_family, gpu->queue_flags,
                            gpu->adopted, VKS_VK_ALLOC(gpu)};
}
