/* The renderer (render.h) as part of a library a host embeds: every Vulkan object it makes
 * (images, views, render passes, framebuffer, shaders, pipeline, memory) is made and destroyed
 * with the host's VkAllocationCallbacks (vks_gpu_options.vk_allocator), like the context's own.
 * What this can see: vks_render_create makes at least one callback allocation per object, every
 * one is given back by the time the context is destroyed, and the validation layer (on; any
 * message fails the test) finds no object destroyed with other callbacks than it was made with.
 * What it cannot: lavapipe falls back to the device's callbacks (the same ones) for an object
 * made with none, so an object made with NULL counts the same here; on drivers that do not,
 * such an object would bypass the host's allocator. Exits 77 without a device, or where the
 * driver makes no allocation through the callbacks. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_check.h"
#include "testutil.h"
#include "vkskin/gpu_vulkan.h"
#include "vkskin/render.h"

#include "vk_counting_alloc.h"

/* What vks_render_create makes besides the buffers it shares with the backend (whose objects
 * are counted by test_gpu_library): 2 images, 2 memories, 2 views, 2 render passes, a
 * framebuffer, 2 shader modules, a pipeline layout and a pipeline. */
enum { RENDER_OBJECTS = 13 };

int main(void)
{
    VkAllocationCallbacks cb = {NULL, cb_alloc, cb_realloc, cb_free, NULL, NULL};
    vks_gpu_options o = {0};
    o.will_render = 1;
    o.vk_allocator = &cb;
    vks_gpu *gpu = gpu_check_context_opt(&o);
    if (calls == 0) {
        fprintf(stderr, "skipped: the driver makes no host allocation through the callbacks\n");
        return 77;
    }
    vks_skin *skin = gpu_check_character(600, 24, 4, 0, 5);
    if (!skin)
        return 1;

    vks_error err = {0};
    vks_render_desc rd = {.skins = (const vks_skin *const *)&skin, .skin_count = 1, .width = 64, .height = 48};
    long before_calls = calls;
    vks_render *r = NULL;
    CHECK(vks_render_create(gpu, &rd, &r, &err) == VKS_OK);
    long made = calls - before_calls;
    fprintf(stderr, "vks_render_create: %ld callback allocations\n", made);
    CHECK(made >= RENDER_OBJECTS);
    vks_render_destroy(r);
    vks_skin_free(skin);
    vks_gpu_destroy(gpu);
    CHECK_EQ_INT((long)live, 0); /* the renderer's objects too (the device keeps a few caches) */
    return vks_test_finish("test_gpu_render_allocator");
}
