/* The default allocator (malloc and free) that every allocator argument left NULL or half
 * filled falls back to: apart from the skin and its arena, which both use it, so that neither
 * needs the other for it. */
#include "vkskin/core.h"

#include <stdlib.h>

static void *default_alloc(void *user, size_t size)
{
    (void)user;
    return malloc(size);
}
static void default_free(void *user, void *ptr)
{
    (void)user;
    free(ptr);
}

vks_allocator vks_allocator_or_default(const vks_allocator *allocator)
{
    vks_allocator a = allocator ? *allocator : (vks_allocator){0};
    if (!a.alloc || !a.free) {
        a.alloc = default_alloc;
        a.free = default_free;
        a.user = NULL;
    }
    return a;
}
