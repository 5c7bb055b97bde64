/* Vulkan context: volk loader, instance (with the validation layer on request), device
 * choice (discrete, integrated, virtual, then CPU such as lavapipe; or by index or name) and
 * a compute queue. The device's functions go into the context's VolkDeviceTable. */
#include "gpu_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

vks_result vks__vk_fail(vks_error *err, VkResult r, const char *what)
{
    vks_result code = VKS_ERR_VULKAN;
    const char *name = "error";
    switch (r) {
    case VK_ERROR_OUT_OF_HOST_MEMORY: name = "VK_ERROR_OUT_OF_HOST_MEMORY"; code = VKS_ERR_NOMEM; break;
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: name = "VK_ERROR_OUT_OF_DEVICE_MEMORY"; code = VKS_ERR_NOMEM; break;
    case VK_ERROR_DEVICE_LOST: name = "VK_ERROR_DEVICE_LOST"; break;
    case VK_ERROR_INITIALIZATION_FAILED: name = "VK_ERROR_INITIALIZATION_FAILED"; break;
    case VK_ERROR_LAYER_NOT_PRESENT: name = "VK_ERROR_LAYER_NOT_PRESENT"; break;
    case VK_ERROR_EXTENSION_NOT_PRESENT: name = "VK_ERROR_EXTENSION_NOT_PRESENT"; break;
    case VK_ERROR_INCOMPATIBLE_DRIVER: name = "VK_ERROR_INCOMPATIBLE_DRIVER"; code = VKS_ERR_NO_DEVICE; break;
    default: break;
    }
    return vks_error_set(err, code, VKS_NO_OFFSET, "vulkan", "%s failed: %s (%d)", what, name, (int)r);
}

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT type,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                 void *user)
{
    vks_gpu *gpu = user;
    (void)type;
    if (severity & (VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)) {
        gpu->validation_messages++;
        if (!gpu->opt.quiet)
            fprintf(stderr, "vkskin: validation %s: %s\n",
                    severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "error" : "warning",
                    data && data->pMessage ? data->pMessage : "(no message)");
    }
    return VK_FALSE;
}

static int has_layer(const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateInstanceLayerProperties(&n, NULL) != VK_SUCCESS || n == 0)
        return 0;
    VkLayerProperties *l = calloc(n, sizeof *l);
    int found = 0;
    if (l && vkEnumerateInstanceLayerProperties(&n, l) == VK_SUCCESS)
        for (uint32_t i = 0; i < n; i++)
            found |= !strcmp(l[i].layerName, name);
    free(l);
    return found;
}

static vks_result make_instance(vks_gpu *gpu, int validation, VkInstance *out, vks_error *err)
{
    if (volkInitialize() != VK_SUCCESS)
        return vks_error_set(err, VKS_ERR_NO_DEVICE, VKS_NO_OFFSET, "vulkan",
                             "no Vulkan loader (libvulkan.so.1) on this machine");
    if (volkGetInstanceVersion() < VK_API_VERSION_1_1)
        return vks_error_set(err, VKS_ERR_NO_DEVICE, VKS_NO_OFFSET, "vulkan",
                             "the Vulkan loader is older than 1.1");
    const char *layers[1] = {"VK_LAYER_KHRONOS_validation"};
    const char *exts[1] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
    if (validation && !has_layer(layers[0]))
        return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "vulkan",
                             "validation requested but VK_LAYER_KHRONOS_validation is not installed");
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vkskin";
    app.apiVersion = VK_API_VERSION_1_1;
    VkDebugUtilsMessengerCreateInfoEXT dm = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    dm.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    dm.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    dm.pfnUserCallback = on_message;
    dm.pUserData = gpu;
    VkInstanceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ci.pApplicationInfo = &app;
    if (validation) {
        ci.enabledLayerCount = 1, ci.ppEnabledLayerNames = layers;
        ci.enabledExtensionCount = 1, ci.ppEnabledExtensionNames = exts;
        ci.pNext = &dm; /* messages from instance creation too */
    }
    VkResult r = vkCreateInstance(&ci, NULL, out);
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
        return vks_error_set(err, VKS_ERR_NO_DEVICE, VKS_NO_OFFSET, "vulkan", "no Vulkan driver (ICD) found");
    if (r != VK_SUCCESS)
        return vks__vk_fail(err, r, "vkCreateInstance");
    volkLoadInstanceOnly(*out);
    if (validation && gpu) {
        r = vkCreateDebugUtilsMessengerEXT(*out, &dm, NULL, &gpu->messenger);
        if (r != VK_SUCCESS) {
            vkDestroyInstance(*out, NULL);
            *out = VK_NULL_HANDLE;
            return vks__vk_fail(err, r, "vkCreateDebugUtilsMessengerEXT");
        }
    }
    return VKS_OK;
}

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

/* Compute queue family: a compute-only one if there is one (less contention), else any with
 * compute. Returns UINT32_MAX when none. */
static uint32_t compute_family(VkPhysicalDevice pd, uint32_t *ts_bits)
{
    uint32_t n = 0, best = UINT32_MAX;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, NULL);
    VkQueueFamilyProperties *q = calloc(n ? n : 1, sizeof *q);
    if (!q)
        return UINT32_MAX;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, q);
    for (uint32_t i = 0; i < n; i++) {
        if (!(q[i].queueFlags & VK_QUEUE_COMPUTE_BIT) || q[i].queueCount == 0)
            continue;
        if (best == UINT32_MAX || !(q[i].queueFlags & VK_QUEUE_GRAPHICS_BIT))
            best = i;
    }
    if (ts_bits)
        *ts_bits = best == UINT32_MAX ? 0 : q[best].timestampValidBits;
    free(q);
    return best;
}

static void describe(VkPhysicalDevice pd, vks_gpu_device_info *d)
{
    memset(d, 0, sizeof *d);
    VkPhysicalDeviceSubgroupProperties sg = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    p2.pNext = &sg;
    vkGetPhysicalDeviceProperties2(pd, &p2);
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
    vkGetPhysicalDeviceMemoryProperties(pd, &mp);
    d->heap_count = mp.memoryHeapCount < 8 ? mp.memoryHeapCount : 8;
    for (uint32_t h = 0; h < d->heap_count; h++) {
        d->heap_size[h] = mp.memoryHeaps[h].size;
        d->heap_device_local[h] = (mp.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) != 0;
    }
    uint32_t ts = 0;
    d->has_compute = compute_family(pd, &ts) != UINT32_MAX;
    d->timestamp_period_ns = ts ? p->limits.timestampPeriod : 0.0f;
}

static vks_result physical_devices(VkInstance inst, VkPhysicalDevice **out, uint32_t *count, vks_error *err)
{
    uint32_t n = 0;
    VkResult r = vkEnumeratePhysicalDevices(inst, &n, NULL);
    if (r != VK_SUCCESS)
        return vks__vk_fail(err, r, "vkEnumeratePhysicalDevices");
    if (n == 0)
        return vks_error_set(err, VKS_ERR_NO_DEVICE, VKS_NO_OFFSET, "vulkan", "no Vulkan device found");
    *out = calloc(n, sizeof **out);
    if (!*out)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "vulkan", "out of memory");
    r = vkEnumeratePhysicalDevices(inst, &n, *out);
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
    *count = 0;
    vks_result res = make_instance(NULL, 0, &inst, err);
    if (res != VKS_OK)
        return res;
    VkPhysicalDevice *pds = NULL;
    uint32_t n = 0;
    res = physical_devices(inst, &pds, &n, err);
    if (res == VKS_OK) {
        for (uint32_t i = 0; i < n && i < cap; i++)
            describe(pds[i], &out[i]);
        *count = n;
        free(pds);
    }
    vkDestroyInstance(inst, NULL);
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

static vks_result pick_device(vks_gpu *gpu, vks_error *err)
{
    VkPhysicalDevice *pds = NULL;
    uint32_t n = 0;
    vks_result res = physical_devices(gpu->instance, &pds, &n, err);
    if (res != VKS_OK)
        return res;
    int chosen = -1;
    for (uint32_t i = 0; i < n; i++) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(pds[i], &p);
        if (compute_family(pds[i], NULL) == UINT32_MAX || p.apiVersion < VK_API_VERSION_1_1)
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
                vkGetPhysicalDeviceProperties(pds[chosen], &best);
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
    free(pds);
    return VKS_OK;
}

vks_result vks_gpu_create(const vks_gpu_options *opt, vks_gpu **out, vks_error *err)
{
    vks_gpu *gpu = calloc(1, sizeof *gpu);
    if (!gpu)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu", "out of memory");
    if (opt)
        gpu->opt = *opt;
    vks_result res = make_instance(gpu, gpu->opt.validation, &gpu->instance, err);
    if (res == VKS_OK)
        res = pick_device(gpu, err);
    if (res != VKS_OK) {
        vks_gpu_destroy(gpu);
        return res;
    }
    describe(gpu->physical, &gpu->info);
    vkGetPhysicalDeviceProperties(gpu->physical, &gpu->props);
    if (gpu->opt.limit_storage_range && gpu->opt.limit_storage_range < gpu->props.limits.maxStorageBufferRange)
        gpu->props.limits.maxStorageBufferRange = gpu->info.max_storage_buffer_range = gpu->opt.limit_storage_range;
    vkGetPhysicalDeviceMemoryProperties(gpu->physical, &gpu->mem);
    gpu->queue_family = compute_family(gpu->physical, &gpu->timestamp_valid_bits);
    gpu->timestamps = gpu->timestamp_valid_bits != 0 && gpu->props.limits.timestampPeriod > 0;
    for (uint32_t i = 0; i < gpu->mem.memoryTypeCount; i++) {
        VkMemoryPropertyFlags f = gpu->mem.memoryTypes[i].propertyFlags;
        if ((f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) && (f & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) &&
            gpu->props.deviceType != VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU)
            gpu->unified = 1; /* discrete GPUs' small BAR window is not for bulk output */
    }
    if (gpu->opt.force_staging)
        gpu->unified = 0;

    float prio = 1.0f;
    VkDeviceQueueCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qi.queueFamilyIndex = gpu->queue_family;
    qi.queueCount = 1;
    qi.pQueuePriorities = &prio;
    VkDeviceCreateInfo di = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    di.queueCreateInfoCount = 1;
    di.pQueueCreateInfos = &qi;
    VkResult r = vkCreateDevice(gpu->physical, &di, NULL, &gpu->device);
    if (r != VK_SUCCESS) {
        res = vks__vk_fail(err, r, "vkCreateDevice");
        vks_gpu_destroy(gpu);
        return res;
    }
    volkLoadDeviceTable(&gpu->vk, gpu->device);
    gpu->vk.vkGetDeviceQueue(gpu->device, gpu->queue_family, 0, &gpu->queue);
    res = vks__pipelines_create(gpu, err);
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
    if (gpu->device) {
        gpu->vk.vkDeviceWaitIdle(gpu->device);
        vks__pipelines_destroy(gpu);
        gpu->vk.vkDestroyDevice(gpu->device, NULL);
    }
    if (gpu->messenger)
        vkDestroyDebugUtilsMessengerEXT(gpu->instance, gpu->messenger, NULL);
    if (gpu->instance)
        vkDestroyInstance(gpu->instance, NULL);
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
