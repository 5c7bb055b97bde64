/* volk's loader, compiled once into the library (Debian's libvulkan-volk-dev ships volk.c).
 * Nothing links libvulkan: the loader is opened at run time, so a machine without Vulkan
 * still runs every CPU command.
 *
 * volk keeps its entry points in globals. vkskin sets only the loader's (volkInitialize, once
 * per process, under pthread_once) and loads everything else into tables of each context,
 * through that context's vkGetInstanceProcAddr: a host that adopts its own device into
 * vkskin, or uses volk itself, never sees its globals changed by a context. */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wunused-parameter"
#endif
#include <volk.c>

#include "gpu_internal.h"

#include <pthread.h>
#include <stddef.h>
#include <string.h>

static pthread_once_t loader_once = PTHREAD_ONCE_INIT;
static PFN_vkGetInstanceProcAddr loader_gipa;

static void open_loader(void)
{
    if (volkInitialize() == VK_SUCCESS)
        loader_gipa = vkGetInstanceProcAddr;
}

PFN_vkGetInstanceProcAddr vks__loader(void)
{
    pthread_once(&loader_once, open_loader);
    return loader_gipa;
}

/* The instance-level functions of vks__instance_fns, by name and place; required ones first,
 * so the first missing is the one to name. */
#define FN(name, required) {#name, offsetof(vks__instance_fns, name), required}
static const struct {
    const char *name;
    size_t at;
    int required;
} instance_fns[] = {
    FN(vkDestroyInstance, 1),
    FN(vkEnumeratePhysicalDevices, 1),
    FN(vkGetPhysicalDeviceProperties, 1),
    FN(vkGetPhysicalDeviceProperties2, 1), /* Vulkan 1.1 */
    FN(vkGetPhysicalDeviceMemoryProperties, 1),
    FN(vkGetPhysicalDeviceQueueFamilyProperties, 1),
    FN(vkCreateDevice, 1),
    FN(vkGetDeviceProcAddr, 1),
    FN(vkCreateDebugUtilsMessengerEXT, 0), /* where the instance enabled VK_EXT_debug_utils */
    FN(vkDestroyDebugUtilsMessengerEXT, 0),
};
#undef FN

const char *vks__load_instance_fns(vks__instance_fns *f, PFN_vkGetInstanceProcAddr gipa, VkInstance instance)
{
    memset(f, 0, sizeof *f);
    f->vkGetInstanceProcAddr = gipa;
    for (size_t i = 0; i < sizeof instance_fns / sizeof *instance_fns; i++) {
        PFN_vkVoidFunction fn = gipa(instance, instance_fns[i].name);
        if (!fn && instance_fns[i].required)
            return instance_fns[i].name;
        memcpy((char *)f + instance_fns[i].at, &fn, sizeof fn); /* every member is a function pointer */
    }
    return NULL;
}

typedef struct device_loader {
    PFN_vkGetDeviceProcAddr gdpa;
    VkDevice device;
} device_loader;

static PFN_vkVoidFunction load_device_fn(void *context, const char *name)
{
    const device_loader *l = context;
    return l->gdpa(l->device, name);
}

void vks__load_device_table(struct VolkDeviceTable *table, VkDevice device, PFN_vkGetDeviceProcAddr gdpa)
{
    device_loader l = {gdpa, device};
    /* volk's own generator, with our loader in place of its global vkGetDeviceProcAddr */
    volkGenLoadDeviceTable(table, &l, load_device_fn);
}
