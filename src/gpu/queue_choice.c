/* See queue_choice.h. */
#include "queue_choice.h"

uint32_t vks__choose_queue_family(const VkQueueFamilyProperties *families, uint32_t count, int needs_graphics)
{
    uint32_t best = UINT32_MAX;
    int best_rank = 0;
    for (uint32_t i = 0; i < count; i++) {
        VkQueueFlags f = families[i].queueFlags;
        if (families[i].queueCount == 0 || !(f & VK_QUEUE_COMPUTE_BIT))
            continue;
        if (needs_graphics && !(f & VK_QUEUE_GRAPHICS_BIT))
            continue;
        /* lower is better: graphics that batch work does not need weighs more than timestamps */
        int rank = (!needs_graphics && (f & VK_QUEUE_GRAPHICS_BIT) ? 2 : 0) + (families[i].timestampValidBits ? 0 : 1);
        if (best == UINT32_MAX || rank < best_rank)
            best = i, best_rank = rank;
    }
    return best;
}

uint32_t vks__choose_readback_family(const VkQueueFamilyProperties *families, uint32_t count,
                                     uint32_t compute_family)
{
    /* what a copy engine's family may list besides transfer: sparse binding and protected
     * memory change nothing about copying; a video or optical-flow bit means the queue feeds
     * that engine (NVIDIA lists them with transfer), a worse home for bulk copies */
    const VkQueueFlags neutral = VK_QUEUE_TRANSFER_BIT | VK_QUEUE_SPARSE_BINDING_BIT | VK_QUEUE_PROTECTED_BIT;
    uint32_t best = compute_family;
    int best_rank = 0;
    for (uint32_t i = 0; compute_family < count && i < count; i++) {
        VkQueueFlags f = families[i].queueFlags;
        if (i == compute_family || families[i].queueCount == 0 || !(f & VK_QUEUE_TRANSFER_BIT) ||
            (f & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)))
            continue;
        /* lower is better: another engine behind the queue weighs more than timestamps */
        int rank = ((f & ~neutral) ? 2 : 0) + (families[i].timestampValidBits ? 0 : 1);
        if (best == compute_family || rank < best_rank)
            best = i, best_rank = rank;
    }
    return best;
}
