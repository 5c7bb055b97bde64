/* VkAllocationCallbacks that count (calls made, blocks live), for the tests that check a host's
 * allocator sees the library's Vulkan objects (test_gpu_library, test_gpu_render_allocator).
 * Each block keeps its size before it, for realloc. One copy per test program (static). */
#ifndef VKS_TEST_VK_COUNTING_ALLOC_H
#define VKS_TEST_VK_COUNTING_ALLOC_H

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "vkskin/gpu_vulkan.h"

static atomic_long calls, live;
#define VKS_TEST_ALLOC_HDR 64

static void *VKAPI_PTR cb_alloc(void *user, size_t size, size_t align, VkSystemAllocationScope scope)
{
    (void)user, (void)scope;
    if (align > VKS_TEST_ALLOC_HDR)
        return NULL;
    char *p = aligned_alloc(VKS_TEST_ALLOC_HDR,
                            (size + 2 * VKS_TEST_ALLOC_HDR - 1) / VKS_TEST_ALLOC_HDR * VKS_TEST_ALLOC_HDR);
    if (!p)
        return NULL;
    memcpy(p, &size, sizeof size);
    calls++;
    live++;
    return p + VKS_TEST_ALLOC_HDR;
}

static void VKAPI_PTR cb_free(void *user, void *mem)
{
    (void)user;
    if (!mem)
        return;
    live--;
    free((char *)mem - VKS_TEST_ALLOC_HDR);
}

static void *VKAPI_PTR cb_realloc(void *user, void *old, size_t size, size_t align, VkSystemAllocationScope scope)
{
    if (!old)
        return cb_alloc(user, size, align, scope);
    if (size == 0) {
        cb_free(user, old);
        return NULL;
    }
    size_t was;
    memcpy(&was, (char *)old - VKS_TEST_ALLOC_HDR, sizeof was);
    void *p = cb_alloc(user, size, align, scope);
    if (p) {
        memcpy(p, old, was < size ? was : size);
        cb_free(user, old);
    }
    return p;
}

#endif
