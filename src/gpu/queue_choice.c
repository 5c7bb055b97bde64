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
