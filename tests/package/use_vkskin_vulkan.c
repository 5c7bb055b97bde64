/* The CMake consumer (find_package(vkskin) or add_subdirectory): links the system libvulkan as
 * well and calls Vulkan itself around vkskin's own use of it. vkskin loads Vulkan through volk,
 * whose vk* function pointers share the names of libvulkan's functions: were they visible
 * outside libvkskin, this program's vkEnumerateInstanceVersion would bind to a pointer variable
 * and crash, or vkskin would call into the wrong symbol. Both must see the same devices. */
#include <stdio.h>

#include <vulkan/vulkan.h>
#include <vkskin.h>

#include "consumer_common.h"

#ifndef EXPECTED_VERSION
#define EXPECTED_VERSION ""
#endif

static uint32_t host_device_count(void)
{
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo ci = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ci.pApplicationInfo = &app;
    VkInstance instance = VK_NULL_HANDLE;
    if (vkCreateInstance(&ci, NULL, &instance) != VK_SUCCESS)
        return 0; /* no driver: no device */
    uint32_t n = 0;
    if (vkEnumeratePhysicalDevices(instance, &n, NULL) != VK_SUCCESS)
        n = 0;
    vkDestroyInstance(instance, NULL);
    return n;
}

int main(int argc, char **argv)
{
    uint32_t before = 0, after = 0;
    if (vkEnumerateInstanceVersion(&before) != VK_SUCCESS) {
        fprintf(stderr, "consumer: vkEnumerateInstanceVersion failed\n");
        return 1;
    }
    uint32_t host = host_device_count();

    uint32_t count = 0;
    vks_error err = {0};
    vks_result r = vks_gpu_list_devices(NULL, 0, &count, &err);
    printf("consumer: Vulkan %u.%u.%u; the host sees %u device(s), vkskin: %s, %u device(s)\n",
           VK_API_VERSION_MAJOR(before), VK_API_VERSION_MINOR(before), VK_API_VERSION_PATCH(before),
           host, vks_result_str(r), count);
    int fail = 0;
    if (!vks_has_gpu()) {
        if (r != VKS_ERR_NO_DEVICE) {
            fprintf(stderr, "consumer: a library without GPU support answered %s\n", vks_result_str(r));
            fail = 1;
        }
    } else if (r == VKS_OK ? count != host : (r != VKS_ERR_NO_DEVICE || host != 0)) {
        fprintf(stderr, "consumer: vkskin (%s, %u devices) and the host (%u devices) disagree: %s\n",
                vks_result_str(r), count, host, err.msg);
        fail = 1;
    }
    /* The host's Vulkan still works after vkskin loaded its own. */
    if (vkEnumerateInstanceVersion(&after) != VK_SUCCESS || after != before || host_device_count() != host) {
        fprintf(stderr, "consumer: the host's Vulkan changed after vkskin used its own\n");
        fail = 1;
    }
    return consumer_run(argc, argv, EXPECTED_VERSION) | fail;
}
