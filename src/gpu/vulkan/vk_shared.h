/* What the Vulkan backend lends to the renderer (src/render), which draws with a context's
 * device but owns no part of it: a view of that device, buffers with their own memory, one-shot
 * command buffers, barriers, failed calls as errors, and what a crowd is to draw. Everything
 * else of the backend (the context's pipelines, tuning, the batch's ring, the pass core) stays
 * in gpu_internal.h, private to src/gpu/vulkan. */
#ifndef VKS_GPU_VK_SHARED_H
#define VKS_GPU_VK_SHARED_H

#include <volk.h> /* before any Vulkan header: volk declares the entry points as pointers */

#include <stddef.h>

#include "vkskin/crowd.h"
#include "vkskin/gpu.h"

/* The context's device as a client sees it (vks__device_of): valid while the context lives. */
typedef struct vks__vk_device {
    VkDevice device;
    const struct VolkDeviceTable *vk;           /* its device-level functions */
    const VkPhysicalDeviceMemoryProperties *mem;
    const vks_gpu_device_info *info;
    uint32_t queue_family;                      /* the family of the context's queue */
    VkQueueFlags queue_flags;                   /* what that queue can do */
    int adopted;                                /* the device is the host's (gpu_vulkan.h) */
    const VkAllocationCallbacks *alloc;         /* the host's callbacks (vks_gpu_options.vk_allocator)
                                                   for every object made on the device, or NULL */
} vks__vk_device;
vks__vk_device vks__device_of(const vks_gpu *gpu);

/* A buffer with its own memory (a handful of big buffers per batch or crowd, well under
 * maxMemoryAllocationCount, so no sub-allocator). mapped is non-NULL for host-visible ones. */
typedef struct vks__buf {
    VkBuffer buffer;
    VkDeviceMemory memory;
    VkDeviceSize size;
    void *mapped;
    int host_coherent;
} vks__buf;

enum { VKS__MEM_DEVICE = 0, VKS__MEM_UPLOAD = 1, VKS__MEM_READBACK = 2 };

vks_result vks__buf_create(vks_gpu *gpu, VkDeviceSize size, int kind, vks__buf *out, vks_error *err);
/* The same with usage flags added to storage | transfer src | transfer dst (e.g. vertex). */
vks_result vks__buf_create_usage(vks_gpu *gpu, VkDeviceSize size, int kind, VkBufferUsageFlags usage,
                                 vks__buf *out, vks_error *err);
void vks__buf_destroy(vks_gpu *gpu, vks__buf *b);
/* Copies bytes into a host-visible buffer (flushing when not coherent). */
void vks__buf_write(vks_gpu *gpu, vks__buf *b, VkDeviceSize at, const void *src, size_t size);
void vks__buf_flush(vks_gpu *gpu, vks__buf *b);
void vks__buf_invalidate(vks_gpu *gpu, vks__buf *b);
/* Writes zeros over a host-visible buffer once, so no later write finds a fresh page. */
void vks__buf_touch(vks_gpu *gpu, vks__buf *b);
vks_result vks__vk_fail(vks_error *err, VkResult r, const char *what);

/* One command buffer and fence of the context's own, with their pool, for work on its queue
 * (uploads, readback, a crowd's frames, a batch's chunks): waited for by its fence, never by
 * the queue or the device, which may be the host's. */
typedef struct vks__oneshot {
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
    VkQueue queue; /* where it is submitted: the context's queue, or its readback queue */
} vks__oneshot;
vks_result vks__oneshot_create(vks_gpu *gpu, vks__oneshot *o, vks_error *err);
/* The same on the context's readback queue (its own family where the device has a copy engine:
 * gpu_internal.h), for copies only. */
vks_result vks__oneshot_create_readback(vks_gpu *gpu, vks__oneshot *o, vks_error *err);
/* Resets and begins o->cmd. */
void vks__oneshot_begin(vks_gpu *gpu, vks__oneshot *o);
/* Ends and submits o->cmd, signalling o->fence (send); waits for that fence and resets it
 * (wait); both (submit). */
vks_result vks__oneshot_send(vks_gpu *gpu, vks__oneshot *o, vks_error *err);
vks_result vks__oneshot_wait(vks_gpu *gpu, vks__oneshot *o, vks_error *err);
vks_result vks__oneshot_submit(vks_gpu *gpu, vks__oneshot *o, vks_error *err);
/* send, with a semaphore to wait for first (at wait_stage) and one to signal when done
 * (either VK_NULL_HANDLE): the two submissions of a readback on its own queue. */
vks_result vks__oneshot_send_linked(vks_gpu *gpu, vks__oneshot *o, VkSemaphore wait, VkPipelineStageFlags wait_stage,
                                    VkSemaphore signal, vks_error *err);
void vks__oneshot_destroy(vks_gpu *gpu, vks__oneshot *o);

void vks__barrier(vks_gpu *gpu, VkCommandBuffer cmd, VkPipelineStageFlags src, VkAccessFlags sa,
                  VkPipelineStageFlags dst, VkAccessFlags da);

/* A crowd as the renderer draws it: its context, the model of instance i, and the stages that
 * read its outputs after a frame (crowd.h: vks_crowd_desc.consumer_stages). */
vks_gpu *vks__crowd_gpu(const vks_crowd *c);
uint32_t vks__crowd_model_of(const vks_crowd *c, uint32_t i);
/* 1 when the crowd runs deform pipelines of its own (the small-model class's shape, apart from
 * the context's: gpu/tuning.h). */
int vks__crowd_own_shape(const vks_crowd *c);
/* The most slices a part of the crowd's frames is staggered over (1: none; gpu/tuning.h). */
uint32_t vks__crowd_slice_count(const vks_crowd *c);
VkPipelineStageFlags vks__crowd_consumer_stages(const vks_crowd *c);

#endif
