/* An instance of vkskin's own through the loader: for a context (with the validation layer
 * and its messenger on request) and for vks_gpu_list_devices' throwaway one. */
#include "gpu_internal.h"

#include "core/log.h"

#include <stdlib.h>
#include <string.h>

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT type,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                 void *user)
{
    vks_gpu *gpu = user;
    (void)type;
    if (severity & (VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)) {
        gpu->validation_messages++;
        int error = (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) != 0;
        if (!gpu->opt.quiet)
            vks__log(&gpu->opt.logger, error ? VKS_LOG_ERROR : VKS_LOG_WARNING, "validation %s: %s",
                     error ? "error" : "warning", data && data->pMessage ? data->pMessage : "(no message)");
    }
    return VK_FALSE;
}

static int has_layer(PFN_vkEnumerateInstanceLayerProperties enumerate, const char *name)
{
    uint32_t n = 0;
    if (!enumerate || enumerate(&n, NULL) != VK_SUCCESS || n == 0)
        return 0;
    VkLayerProperties *l = calloc(n, sizeof *l);
    int found = 0;
    if (l && enumerate(&n, l) == VK_SUCCESS)
        for (uint32_t i = 0; i < n; i++)
            found |= !strcmp(l[i].layerName, name);
    free(l);
    return found;
}

vks_result vks__make_instance(vks_gpu *gpu, int validation, vks__instance_fns *f, VkInstance *out, vks_error *err)
{
    PFN_vkGetInstanceProcAddr gipa = vks__loader();
    if (!gipa)
        return vks_error_set(err, VKS_ERR_NO_DEVICE, VKS_NO_OFFSET, "vulkan",
                             "no Vulkan loader (libvulkan.so.1) on this machine");
    PFN_vkCreateInstance create = (PFN_vkCreateInstance)gipa(NULL, "vkCreateInstance");
    PFN_vkEnumerateInstanceVersion version = (PFN_vkEnumerateInstanceVersion)gipa(NULL, "vkEnumerateInstanceVersion");
    PFN_vkEnumerateInstanceLayerProperties layers_of =
        (PFN_vkEnumerateInstanceLayerProperties)gipa(NULL, "vkEnumerateInstanceLayerProperties");
    uint32_t api = VK_API_VERSION_1_0;
    if (!create || !version || version(&api) != VK_SUCCESS || api < VK_API_VERSION_1_1)
        return vks_error_set(err, VKS_ERR_NO_DEVICE, VKS_NO_OFFSET, "vulkan",
                             "the Vulkan loader is older than 1.1");
    const char *layers[1] = {"VK_LAYER_KHRONOS_validation"};
    const char *exts[1] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
    if (validation && !has_layer(layers_of, layers[0]))
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
    VkResult r = create(&ci, VKS_VK_ALLOC(gpu), out);
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
        return vks_error_set(err, VKS_ERR_NO_DEVICE, VKS_NO_OFFSET, "vulkan", "no Vulkan driver (ICD) found");
    if (r != VK_SUCCESS)
        return vks__vk_fail(err, r, "vkCreateInstance");
    vks__keep_drivers_loaded();
    const char *missing = vks__load_instance_fns(f, gipa, *out);
    if (!missing && validation && gpu) {
        if (!f->vkCreateDebugUtilsMessengerEXT)
            missing = "vkCreateDebugUtilsMessengerEXT";
        else if ((r = f->vkCreateDebugUtilsMessengerEXT(*out, &dm, VKS_VK_ALLOC(gpu), &gpu->messenger)) != VK_SUCCESS) {
            f->vkDestroyInstance(*out, VKS_VK_ALLOC(gpu));
            *out = VK_NULL_HANDLE;
            return vks__vk_fail(err, r, "vkCreateDebugUtilsMessengerEXT");
        }
    }
    if (missing) {
        PFN_vkDestroyInstance destroy = (PFN_vkDestroyInstance)gipa(*out, "vkDestroyInstance");
        if (destroy)
            destroy(*out, NULL);
        *out = VK_NULL_HANDLE;
        return vks_error_set(err, VKS_ERR_VULKAN, VKS_NO_OFFSET, "vulkan", "the loader has no %s", missing);
    }
    return VKS_OK;
}
