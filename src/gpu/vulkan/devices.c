/* Physical devices: what each offers (vks_gpu_device_info: limits, heaps, every queue family and
 * the one batch work and rendering would use, queue_choice.h), and the choice of one for a
 * context of vkskin's own (discrete, integrated, virtual, then CPU such as
 * lavapipe; or by index or name). Every call goes through the context's instance table. */
#include "gpu_internal.h"
#include "gpu/queue_choice.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *type_name(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
    }
}

static int type_rank(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
    default: return 4;
    }
}

uint32_t vks__queue_family_info(const vks__instance_fns *f, VkPhysicalDevice pd, uint32_t family, uint32_t *ts_bits,
                                VkQueueFlags *flags)
{
    uint32_t n = 0;
    f->vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, NULL);
    VkQueueFamilyProperties *q = calloc(n ? n : 1, sizeof *q);
    if (!q)
        return 0;
    f->vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, q);
    uint32_t count = 0;
    if (family < n) {
        count = q[family].queueCount;
        if (ts_bits)
            *ts_bits = q[family].timestampValidBits;
        if (flags)
            *flags = q[family].queueFlags;
    }
    free(q);
    return count;
}

/* The device's queue family table (calloc'd; *n families), NULL when out of memory. */
static VkQueueFamilyProperties *family_table(const vks__instance_fns *f, VkPhysicalDevice pd, uint32_t *n)
{
    *n = 0;
    f->vkGetPhysicalDeviceQueueFamilyProperties(pd, n, NULL);
    VkQueueFamilyProperties *q = calloc(*n ? *n : 1, sizeof *q);
    if (q)
        f->vkGetPhysicalDeviceQueueFamilyProperties(pd, n, q);
    else
        *n = 0;
    return q;
}

/* The family a context of vkskin's own would use (queue_choice.h); UINT32_MAX when none. */
static uint32_t choose_family(const vks__instance_fns *f, VkPhysicalDevice pd, int needs_graphics)
{
    uint32_t n = 0;
    VkQueueFamilyProperties *q = family_table(f, pd, &n);
    uint32_t family = q ? vks__choose_queue_family(q, n, needs_graphics) : UINT32_MAX;
    free(q);
    return family;
}

void vks__describe(const vks__instance_fns *f, VkPhysicalDevice pd, uint32_t family, vks_gpu_device_info *d)
{
    memset(d, 0, sizeof *d);
    VkPhysicalDeviceSubgroupProperties sg = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    p2.pNext = &sg;
    f->vkGetPhysicalDeviceProperties2(pd, &p2);
    const VkPhysicalDeviceProperties *p = &p2.properties;
    snprintf(d->name, sizeof d->name, "%s", p->deviceName);
    d->type = type_name(p->deviceType);
    d->vendor_id = p->vendorID, d->device_id = p->deviceID;
    d->api_version = p->apiVersion, d->driver_version = p->driverVersion;
    d->max_storage_buffer_range = p->limits.maxStorageBufferRange;
    d->max_shared_memory = p->limits.maxComputeSharedMemorySize;
    d->max_workgroup_invocations = p->limits.maxComputeWorkGroupInvocations;
    d->subgroup_size = sg.subgroupSize;
    VkPhysicalDeviceMemoryProperties mp;
    f->vkGetPhysicalDeviceMemoryProperties(pd, &mp);
    d->heap_count = mp.memoryHeapCount < 8 ? mp.memoryHeapCount : 8;
    for (uint32_t h = 0; h < d->heap_count; h++) {
        d->heap_size[h] = mp.memoryHeaps[h].size;
        d->heap_device_local[h] = (mp.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) != 0;
    }
    uint32_t nq = 0;
    VkQueueFamilyProperties *q = family_table(f, pd, &nq);
    d->batch_family = q ? vks__choose_queue_family(q, nq, 0) : UINT32_MAX;
    d->render_family = q ? vks__choose_queue_family(q, nq, 1) : UINT32_MAX;
    d->readback_family = q ? vks__choose_readback_family(q, nq, d->batch_family) : UINT32_MAX;
    d->queue_family_count = nq < VKS_GPU_MAX_QUEUE_FAMILIES ? nq : VKS_GPU_MAX_QUEUE_FAMILIES;
    for (uint32_t i = 0; i < d->queue_family_count; i++)
        d->queue_families[i] = (vks_gpu_queue_family){q[i].queueFlags, q[i].queueCount, q[i].timestampValidBits};
    free(q);
    if (family == UINT32_MAX)
        family = d->batch_family;
    d->queue_family = family, d->queue_index = 0, d->readback_queue_index = 0;
    uint32_t ts = 0;
    d->has_compute = family != UINT32_MAX;
    if (d->has_compute)
        vks__queue_family_info(f, pd, family, &ts, NULL);
    d->timestamp_period_ns = ts ? p->limits.timestampPeriod : 0.0f;
}

static vks_result physical_devices(const vks__instance_fns *f, VkInstance inst, VkPhysicalDevice **out,
                                   uint32_t *count, vks_error *err)
{
    uint32_t n = 0;
    VkResult r = f->vkEnumeratePhysicalDevices(inst, &n, NULL);
    if (r != VK_SUCCESS)
        return vks__vk_fail(err, r, "vkEnumeratePhysicalDevices");
    if (n == 0)
        return vks_error_set(err, VKS_ERR_NO_DEVICE, VKS_NO_OFFSET, "vulkan", "no Vulkan device found");
    *out = calloc(n, sizeof **out);
    if (!*out)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "vulkan", "out of memory");
    r = f->vkEnumeratePhysicalDevices(inst, &n, *out);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
        free(*out);
        return vks__vk_fail(err, r, "vkEnumeratePhysicalDevices");
    }
    *count = n;
    return VKS_OK;
}

vks_result vks_gpu_list_devices(vks_gpu_device_info *out, uint32_t cap, uint32_t *count, vks_error *err)
{
    VkInstance inst = VK_NULL_HANDLE;
    vks__instance_fns f;
    *count = 0;
    vks_result res = vks__make_instance(NULL, 0, &f, &inst, err);
    if (res != VKS_OK)
        return res;
    VkPhysicalDevice *pds = NULL;
    uint32_t n = 0;
    res = physical_devices(&f, inst, &pds, &n, err);
    if (res == VKS_OK) {
        for (uint32_t i = 0; i < n && i < cap; i++)
            vks__describe(&f, pds[i], UINT32_MAX, &out[i]);
        *count = n;
        free(pds);
    }
    f.vkDestroyInstance(inst, NULL);
    return res;
}

static int name_matches(const char *name, const char *want)
{
    size_t n = strlen(name), w = strlen(want);
    for (size_t i = 0; i + w <= n; i++) {
        size_t k = 0;
        while (k < w && tolower((unsigned char)name[i + k]) == tolower((unsigned char)want[k]))
            k++;
        if (k == w)
            return 1;
    }
    return 0;
}

vks_result vks__pick_device(vks_gpu *gpu, vks_error *err)
{
    const vks__instance_fns *f = &gpu->inst;
    VkPhysicalDevice *pds = NULL;
    uint32_t n = 0;
    vks_result res = physical_devices(f, gpu->instance, &pds, &n, err);
    if (res != VKS_OK)
        return res;
    int chosen = -1;
    for (uint32_t i = 0; i < n; i++) {
        VkPhysicalDeviceProperties p;
        f->vkGetPhysicalDeviceProperties(pds[i], &p);
        if (choose_family(f, pds[i], 0) == UINT32_MAX || p.apiVersion < VK_API_VERSION_1_1)
            continue;
        if (gpu->opt.device_name) {
            if (name_matches(p.deviceName, gpu->opt.device_name)) {
                chosen = (int)i;
                break;
            }
        } else if (gpu->opt.use_device_index) {
            if ((int)i == gpu->opt.device_index)
                chosen = (int)i;
        } else {
            VkPhysicalDeviceProperties best;
            if (chosen >= 0)
                f->vkGetPhysicalDeviceProperties(pds[chosen], &best);
            if (chosen < 0 || type_rank(p.deviceType) < type_rank(best.deviceType))
                chosen = (int)i;
        }
    }
    if (chosen < 0) {
        free(pds);
        if (gpu->opt.device_name)
            return vks_error_set(err, VKS_ERR_NO_DEVICE, VKS_NO_OFFSET, "vulkan",
                                 "no Vulkan 1.1 compute device whose name contains \"%s\"", gpu->opt.device_name);
        if (gpu->opt.use_device_index)
            return vks_error_set(err, VKS_ERR_NO_DEVICE, VKS_NO_OFFSET, "vulkan",
                                 "no usable Vulkan device %d (there are %u; see vkskin devices)",
                                 gpu->opt.device_index, n);
        return vks_error_set(err, VKS_ERR_NO_DEVICE, VKS_NO_OFFSET, "vulkan", "no Vulkan 1.1 device with a compute queue");
    }
    gpu->physical = pds[chosen];
    /* A context that will render takes a family with graphics; on a device without one it
     * still runs batches, and vks_render_create says why it cannot draw. */
    uint32_t render = gpu->opt.will_render ? choose_family(f, gpu->physical, 1) : UINT32_MAX;
    gpu->queue_family = render != UINT32_MAX ? render : choose_family(f, gpu->physical, 0);
    uint32_t nq = 0;
    VkQueueFamilyProperties *q = family_table(f, gpu->physical, &nq);
    gpu->readback_family = q ? vks__choose_readback_family(q, nq, gpu->queue_family) : gpu->queue_family;
    free(q);
    free(pds);
    return VKS_OK;
}
