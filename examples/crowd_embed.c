/* crowd_embed: a host application that embeds vkskin in its own Vulkan device.
 *
 * It makes its own instance and device (linking the system's libvulkan), hands them to vkskin,
 * uploads a character, records one crowd frame into its own command buffer, copies one deformed
 * vertex into a buffer of its own, prints it, and checks it against the CPU reference for the
 * same procedural pose. Usage: crowd_embed MODEL [TIME]
 * Exit: 0 the vertex matches, 1 it does not (or an error), 77 no Vulkan device. */
#include <vulkan/vulkan.h> /* the host's Vulkan, before vkskin's headers */

#include <vkskin.h>
#include <vkskin/gpu_vulkan.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { INSTANCES = 8, SHOWN = 5 }; /* a crowd of 8; instance 5's middle vertex is shown */

#define TRY(ok, what) do { if (!(ok)) { fprintf(stderr, "crowd_embed: %s %s\n", what, err.msg); return 1; } } while (0)

static uint8_t *read_file(const char *path, size_t *size) /* vkskin's readers take bytes, never files */
{
    FILE *f = fopen(path, "rb");
    uint8_t *bytes = NULL;
    if (f && !fseek(f, 0, SEEK_END) && (*size = (size_t)ftell(f)) > 0 && !fseek(f, 0, SEEK_SET) &&
        (bytes = malloc(*size)) && fread(bytes, 1, *size, f) != *size)
        free(bytes), bytes = NULL;
    return f && fclose(f) == 0 ? bytes : NULL;
}

int main(int argc, char **argv)
{
    vks_error err = {0};
    TRY(argc >= 2, "usage: crowd_embed MODEL [TIME]");
    float time = argc > 2 ? strtof(argv[2], NULL) : 0.5f;

    /* 1. The host's own Vulkan 1.1 instance and device, with a queue that can compute. */
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_1};
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
    VkInstance instance;
    VkPhysicalDevice pd;
    uint32_t n = 1, family = 0, families = 16;
    if (vkCreateInstance(&ici, NULL, &instance) != VK_SUCCESS ||
        vkEnumeratePhysicalDevices(instance, &n, &pd) < 0 || n == 0) {
        fprintf(stderr, "crowd_embed: no Vulkan device (skipped)\n");
        return 77;
    }
    VkQueueFamilyProperties qf[16];
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &families, qf);
    while (family < families && !(qf[family].queueFlags & VK_QUEUE_COMPUTE_BIT))
        family++;
    float priority = 1.0f;
    VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = family,
                                   .queueCount = 1, .pQueuePriorities = &priority};
    VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .queueCreateInfoCount = 1,
                              .pQueueCreateInfos = &qci};
    VkDevice device;
    VkQueue queue;
    TRY(vkCreateDevice(pd, &dci, NULL, &device) == VK_SUCCESS, "vkCreateDevice failed");
    vkGetDeviceQueue(device, family, 0, &queue);
    /* 2. vkskin adopts them, loading everything through the host's vkGetInstanceProcAddr. */
    vks_gpu_host host = {instance, pd, device, family, 0, vkGetInstanceProcAddr, VK_API_VERSION_1_1};
    vks_gpu_options opt = {0};
    opt.host = &host;
    vks_gpu *gpu = NULL;
    TRY(vks_gpu_create(&opt, &gpu, &err) == VKS_OK, "vks_gpu_create:");
    /* 3. The model, read, checked and uploaded once; a crowd of procedural instances on it. */
    size_t size = 0;
    uint8_t *bytes = read_file(argv[1], &size);
    vks_skin *skin = NULL;
    TRY(bytes && vks_read_any(NULL, bytes, size, argv[1], &skin, &err) == VKS_OK &&
            vks_skin_validate(skin, &err) == VKS_OK, "reading the model:");
    vks_gpu_models *models = NULL;
    TRY(vks_gpu_upload(gpu, (const vks_skin *const *)&skin, 1, &models, &err) == VKS_OK, "vks_gpu_upload:");
    vks_instance crowd_of[INSTANCES] = {{0}};
    for (uint32_t i = 0; i < INSTANCES; i++)
        crowd_of[i].seed = 7, crowd_of[i].pose_instance = i; /* model 0, procedural, no root */
    vks_crowd_desc desc = {.models = models, .instances = crowd_of, .instance_count = INSTANCES};
    vks_crowd *crowd = NULL;
    TRY(vks_crowd_create(gpu, &desc, &crowd, &err) == VKS_OK, "vks_crowd_create:");
    /* 4. One frame recorded into the host's command buffer; the host copies one vertex out. */
    vks_crowd_output out;
    vks_crowd_get_output(crowd, SHOWN, &out, &err);
    uint32_t v = out.vertex_count / 2;
    VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = 12,
                              .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT};
    VkBuffer mine;
    VkMemoryRequirements req;
    VkPhysicalDeviceMemoryProperties mp;
    VkDeviceMemory memory;
    float *gpu_vertex;
    vkCreateBuffer(device, &bci, NULL, &mine);
    vkGetBufferMemoryRequirements(device, mine, &req);
    vkGetPhysicalDeviceMemoryProperties(pd, &mp);
    const VkMemoryPropertyFlags visible = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = 0;
    while (!(req.memoryTypeBits >> type & 1) || (mp.memoryTypes[type].propertyFlags & visible) != visible)
        type++;
    VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size,
                                .memoryTypeIndex = type};
    vkAllocateMemory(device, &mai, NULL, &memory);
    vkBindBufferMemory(device, mine, memory, 0);
    vkMapMemory(device, memory, 0, VK_WHOLE_SIZE, 0, (void **)&gpu_vertex);
    VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .queueFamilyIndex = family};
    VkCommandPool pool;
    VkCommandBuffer cmd;
    vkCreateCommandPool(device, &pci, NULL, &pool);
    VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1};
    vkAllocateCommandBuffers(device, &cai, &cmd);
    VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    vkBeginCommandBuffer(cmd, &begin);
    vks_crowd_record(crowd, cmd, time); /* ends with a barrier to vertex input, shaders and transfer */
    VkBufferCopy copy = {out.position.offset + v * out.position.stride, 0, 12};
    vkCmdCopyBuffer(cmd, out.position.buffer, mine, 1, &copy);
    VkMemoryBarrier to_host = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                               .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, 0, 0, 0);
    vkEndCommandBuffer(cmd);
    VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd};
    TRY(!vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE) && !vkQueueWaitIdle(queue), "the host's submission failed");
    /* 5. The same vertex from the CPU reference, posed by the same procedural source. */
    vks_affine *locals = malloc(skin->node_count * sizeof *locals);
    float *ref = malloc((size_t)skin->vertex_count * 12);
    vks_pose_procedural(skin, 7, SHOWN, time, 0.0f, locals);
    vks_deform_job job = {skin, locals, 1, ref, NULL, NULL};
    TRY(vks_cpu_reference_run(&job, &err) == VKS_OK, "vks_cpu_reference_run:");
    double diff = 0, tol = vks_diff_default_tolerance().abs_radius * vks_skin_error_scale(skin);
    for (int k = 0; k < 3; k++)
        diff = fmax(diff, fabs((double)gpu_vertex[k] - ref[3 * v + k]));
    printf("%s on %s, instance %d, vertex %u at t=%g:\n  gpu       (%.6f, %.6f, %.6f)\n"
           "  reference (%.6f, %.6f, %.6f)\n  max difference %.3g (tolerance %.3g): %s\n",
           argv[1], vks_gpu_device(gpu)->name, SHOWN, v, (double)time, gpu_vertex[0], gpu_vertex[1], gpu_vertex[2],
           ref[3 * v], ref[3 * v + 1], ref[3 * v + 2], diff, tol, diff <= tol ? "match" : "MISMATCH");

    /* vkskin's objects first (the queue is idle), then the host's own. */
    vks_crowd_destroy(crowd);
    vks_gpu_models_free(models);
    vks_gpu_destroy(gpu);
    vkDestroyCommandPool(device, pool, NULL);
    vkDestroyBuffer(device, mine, NULL);
    vkFreeMemory(device, memory, NULL);
    vkDestroyDevice(device, NULL);
    vkDestroyInstance(instance, NULL);
    free(locals), free(ref), free(bytes);
    vks_skin_free(skin);
    return diff <= tol ? 0 : 1;
}
