/* Which queue family a context of vkskin's own submits to: a pure function of the table
 * vkGetPhysicalDeviceQueueFamilyProperties gives (no Vulkan call), so it is tested against the
 * tables real devices report (tests/unit/test_queue_choice.c). */
#ifndef VKS_GPU_QUEUE_CHOICE_H
#define VKS_GPU_QUEUE_CHOICE_H

#include <stdint.h>

#ifndef VULKAN_CORE_H_
#include <vulkan/vulkan_core.h>
#endif

/* The family for a context's work, UINT32_MAX when the device has none that fits (families
 * with no queue never fit):
 *   needs_graphics 0 (batch work: compute only) - a family with compute; one without graphics
 *     when the device has one (a compute-only family is the asynchronous compute engine on
 *     AMD and NVIDIA: it does not queue behind a desktop's or a game's drawing);
 *   needs_graphics 1 (the context will render: render.h, validate --report's heat maps) - a
 *     family with graphics and compute (the renderer records the crowd's compute passes and
 *     the draws into one command buffer).
 * Then a family with timestamps (the passes are timed with timestamp queries), then the
 * lowest index. */
uint32_t vks__choose_queue_family(const VkQueueFamilyProperties *families, uint32_t count, int needs_graphics);

/* The family the readback copies are submitted to, beside compute_family (the one above chose):
 * a copy engine's family when the device has one - transfer, and neither graphics nor compute
 * (a family that draws or computes is an engine with work of its own; the DMA engines copy over
 * the bus while compute_family deforms the next frame) - preferring one with no video or
 * optical-flow engine behind it, then one with timestamps, then the lowest index. Else
 * compute_family itself: the copies stay on the context's queue. Families with no queue never
 * fit; graphics and compute families need not report VK_QUEUE_TRANSFER_BIT, but a copy engine
 * must. */
uint32_t vks__choose_readback_family(const VkQueueFamilyProperties *families, uint32_t count,
                                     uint32_t compute_family);

#endif
