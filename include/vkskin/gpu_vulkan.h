/* vkskin on the host's Vulkan device: the half of the GPU engine that names Vulkan types
 * (crowd.h and gpu.h name none). A host adopts its instance, device and queue into a context,
 * records crowd frames into its own command buffers and draws from the crowd's buffers.
 *
 * STEP BY STEP
 *   1. the host makes its VkInstance (apiVersion >= 1.1) and VkDevice with a queue whose family
 *      has VK_QUEUE_COMPUTE_BIT; no device extension or feature is needed
 *   2. vks_gpu_host h = {instance, physical_device, device, family, queue_index,
 *                        vkGetInstanceProcAddr, VK_API_VERSION_1_1};
 *      vks_gpu_options o = {0}; o.host = &h;
 *      vks_gpu_create(&o, &gpu, &err)
 *   3. vks_gpu_upload, vks_crowd_create (crowd.h)
 *   4. every frame: vkBeginCommandBuffer(cmd); vks_crowd_record(crowd, cmd, time);
 *      ... vkCmdBindVertexBuffers with vks_crowd_get_output(crowd, i, &out) ...; submit
 *   5. teardown after vkQueueWaitIdle (or the frames' fences): vks_crowd_destroy,
 *      vks_gpu_models_free, vks_gpu_destroy; then the host destroys its device and instance
 *
 * Include volk.h (or vulkan.h) before this header when you use volk: it includes
 * <vulkan/vulkan_core.h> only where no Vulkan header came first.
 *
 * ADOPTED DEVICES. vkskin loads every function through the host's vkGetInstanceProcAddr into
 * tables of its own (no volk global is set for an adopted context), and never destroys,
 * waits idle on or otherwise owns the host's instance, physical device, device or queue. It
 * creates only its own objects on that device (buffers and memory, shader modules, pipelines,
 * descriptor and command pools, fences, query pools) and destroys them in vks_crowd_destroy,
 * vks_gpu_models_free and vks_gpu_destroy. Requirements: Vulkan 1.1 instance and device, a
 * queue family with compute (and graphics for render.h); timestamps are used where the
 * family has timestampValidBits. vks_gpu_create checks what the physical device
 * can tell: the API version, that the family exists and has those capabilities, and that
 * queue_index is below the family's queueCount. That the device was created with that queue
 * (VkDeviceQueueCreateInfo.queueCount above queue_index) is the host's promise: Vulkan offers
 * no call to check it, and a queue the device lacks is undefined behaviour in
 * vkGetDeviceQueue (the validation layer reports it).
 * vkskin submits to the given queue in vks_gpu_upload, vks_gpu_run, vks_gpu_run_job,
 * vks_crowd_run_frame(s) and vks_crowd_read, and waits on its own fences only: the host must
 * not use that queue from another thread during those calls (Vulkan's external
 * synchronisation of vkQueueSubmit). The validation layer, debug messengers and allocation
 * callbacks are the host's: vks_gpu_options.validation applies to vkskin's own instances only.
 *
 * THE BARRIER CONTRACT of vks_crowd_record. The command buffer must belong to a pool of the
 * context's queue family (vks_gpu_vulkan), outside a render pass. vks_crowd_record records:
 *   1. an acquire barrier: src = COMPUTE_SHADER | consumer_stages, SHADER_WRITE;
 *                          dst = COMPUTE_SHADER, SHADER_READ | SHADER_WRITE
 *      so the previous frame (its compute writes, and the consumers' reads of the outputs,
 *      earlier in this command buffer or in earlier submissions to the same queue) is over
 *      before the passes overwrite the outputs and their scratch tables;
 *   2. the pose pass, a compute -> compute barrier, the deform pass (compute dispatches);
 *   3. a release barrier:  src = COMPUTE_SHADER, SHADER_WRITE;
 *                          dst = consumer_stages, consumer_access
 *      so the outputs can be drawn (vertex input), read by shaders or copied right after.
 * consumer_stages / consumer_access come from vks_crowd_desc; by default VERTEX_INPUT |
 * VERTEX_SHADER | COMPUTE_SHADER | TRANSFER with VERTEX_ATTRIBUTE_READ | SHADER_READ |
 * TRANSFER_READ on a queue family with graphics, COMPUTE_SHADER | TRANSFER with SHADER_READ |
 * TRANSFER_READ on a compute-only one. The caller therefore records nothing before or after on
 * that queue. What stays the caller's: semaphores when the outputs are used on another queue,
 * a queue-family ownership transfer when that queue is of another family (the buffers are
 * VK_SHARING_MODE_EXCLUSIVE), and a HOST-stage barrier if it maps memory it copied them into.
 * Host writes (vks_crowd_set_instance, vks_crowd_set_locals) reach the GPU through the next
 * vkQueueSubmit: make them while no submitted frame of the crowd is still executing (after its
 * fence), before submitting the frame that must see them. Procedural instances need no host
 * write per frame (the time is a push constant), so several frames may be recorded into one
 * command buffer or be in flight at once.
 */
#ifndef VKSKIN_GPU_VULKAN_H
#define VKSKIN_GPU_VULKAN_H

#include "crowd.h"

#ifndef VULKAN_CORE_H_
#include <vulkan/vulkan_core.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The host's Vulkan objects, adopted by vks_gpu_create when vks_gpu_options.host points here
 * (the role of sokol_gfx's environment struct, or VkFFT's configuration). Copied by
 * vks_gpu_create; the objects must outlive the context. */
typedef struct vks_gpu_host {
    VkInstance instance;              /* created with apiVersion >= 1.1 */
    VkPhysicalDevice physical_device;
    VkDevice device;                  /* created from physical_device */
    uint32_t queue_family;            /* a family with VK_QUEUE_COMPUTE_BIT (and
                                         VK_QUEUE_GRAPHICS_BIT to render: render.h) */
    uint32_t queue_index;             /* < the queue count the device was created with there:
                                         the host's promise (no Vulkan call tells how many
                                         queues a device was created with); vks_gpu_create
                                         checks only that the family offers that many
                                         (VkQueueFamilyProperties.queueCount) */
    PFN_vkGetInstanceProcAddr get_instance_proc_addr; /* the host's: the loader's, volk's, or a
                                                         wrapper (everything is loaded through it) */
    uint32_t api_version;             /* the instance's apiVersion (0: taken to be 1.1) */
} vks_gpu_host;

/* The Vulkan objects of a context (adopted or its own) and its queue, e.g. to record into
 * command buffers of the right family. */
VKS_API void vks_gpu_vulkan(const vks_gpu *gpu, vks_gpu_host *out, VkQueue *queue);

/* Records one frame at `time` (seconds) into cmd: the barriers, the pose pass and the
 * deform pass of every part. cmd must be recording, outside a render pass, from a pool of the
 * context's queue family. */
VKS_API void vks_crowd_record(vks_crowd *crowd, VkCommandBuffer cmd, float time);

/* One vertex stream of one instance: vertex v is at buffer + offset + v * stride, format
 * format (VK_FORMAT_R32G32B32_SFLOAT today). Usable as a vertex buffer binding as is. */
typedef struct vks_crowd_stream {
    VkBuffer buffer;      /* VK_NULL_HANDLE when the stream is off (no_normals) */
    VkDeviceSize offset;
    VkDeviceSize stride;
    VkFormat format;
} vks_crowd_stream;

typedef struct vks_crowd_output {
    vks_crowd_stream position, normal;
    uint32_t vertex_count;  /* the model's vertices, in vks_skin order */
} vks_crowd_output;

/* Where instance i's deformed vertices are. The buffers were created with
 * VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | STORAGE_BUFFER_BIT | TRANSFER_SRC_BIT (and TRANSFER_DST)
 * and live as long as the crowd; they are written by the compute shader stage. */
VKS_API vks_result vks_crowd_get_output(const vks_crowd *crowd, uint32_t i, vks_crowd_output *out,
                                       vks_error *err);

#ifdef __cplusplus
}
#endif
#endif
