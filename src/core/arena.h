/* Block arena over a vks_allocator: what a skin and a clip set own. A reader allocates as it
 * parses and one vks__arena_destroy releases everything, on success or failure. Internal. */
#ifndef VKS_CORE_ARENA_H
#define VKS_CORE_ARENA_H

#include "vkskin/core.h"

typedef struct vks_skin_arena vks_skin_arena;

/* NULL when the allocator fails. */
vks_skin_arena *vks__arena_create(const vks_allocator *a);
void vks__arena_destroy(vks_skin_arena *arena, const vks_allocator *a);
/* An owner of an arena (a skin, a clip set): a zeroed object of size bytes from allocator
 * (NULL: malloc) with a new arena; *a_out gets the allocator filled in. NULL on failure. */
void *vks__arena_owner_create(const vks_allocator *allocator, size_t size, vks_allocator *a_out,
                              vks_skin_arena **arena_out);
void vks__arena_owner_free(void *owner, const vks_allocator *a, vks_skin_arena *arena);
/* Zeroed, aligned for any type; NULL on overflow or exhaustion. */
void *vks__arena_alloc(vks_skin_arena *arena, const vks_allocator *a, size_t size);
void *vks__arena_alloc_array(vks_skin_arena *arena, const vks_allocator *a, size_t count, size_t elem);
const char *vks__arena_strndup(vks_skin_arena *arena, const vks_allocator *a, const char *s, size_t len);

#endif
