/* A failed Vulkan call as a vks_error: its VkResult by name, out-of-memory as VKS_ERR_NOMEM (the
 * batch scheduler retries smaller on it), an incompatible driver as VKS_ERR_NO_DEVICE. Every
 * file of the backend (and the renderer) reports through it, so it depends on nothing. */
#include "gpu_internal.h"

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
