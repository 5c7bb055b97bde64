/* Block arena (arena.h): small requests share 64 KiB blocks, large ones get a block each. */
#include "arena.h"

#include <string.h>

typedef struct vks_arena_block {
    struct vks_arena_block *next;
    size_t size, used;
    max_align_t data[]; /* keeps every allocation aligned for any type */
} vks_arena_block;

struct vks_skin_arena {
    vks_arena_block *head;
};

vks_skin_arena *vks__arena_create(const vks_allocator *a)
{
    vks_skin_arena *arena = a->alloc(a->user, sizeof *arena);
    if (arena)
        arena->head = NULL;
    return arena;
}

void vks__arena_destroy(vks_skin_arena *arena, const vks_allocator *a)
{
    if (!arena)
        return;
    vks_arena_block *b = arena->head;
    while (b) {
        vks_arena_block *next = b->next;
        a->free(a->user, b);
        b = next;
    }
    a->free(a->user, arena);
}

void *vks__arena_owner_create(const vks_allocator *allocator, size_t size, vks_allocator *a_out,
                              vks_skin_arena **arena_out)
{
    vks_allocator a = vks_allocator_or_default(allocator);
    void *owner = a.alloc(a.user, size);
    if (!owner)
        return NULL;
    memset(owner, 0, size);
    *arena_out = vks__arena_create(&a);
    if (!*arena_out) {
        a.free(a.user, owner);
        return NULL;
    }
    *a_out = a;
    return owner;
}

void vks__arena_owner_free(void *owner, const vks_allocator *a, vks_skin_arena *arena)
{
    if (!owner)
        return;
    vks_allocator copy = *a; /* a may live inside owner */
    vks__arena_destroy(arena, &copy);
    copy.free(copy.user, owner);
}

void *vks__arena_alloc(vks_skin_arena *arena, const vks_allocator *a, size_t size)
{
    const size_t align = sizeof(max_align_t);
    if (!arena || size > SIZE_MAX / 2)
        return NULL;
    size_t need = (size + align - 1) / align * align;
    if (need == 0)
        need = align;
    vks_arena_block *b = arena->head;
    if (!b || b->size - b->used < need) {
        size_t cap = need > 65536 ? need : 65536;
        if (cap > SIZE_MAX - sizeof *b)
            return NULL;
        vks_arena_block *nb = a->alloc(a->user, sizeof *nb + cap);
        if (!nb)
            return NULL;
        nb->size = cap;
        nb->used = 0;
        if (b && need > 65536) {
            /* keep the partly used block at the head for later small requests */
            nb->next = b->next;
            b->next = nb;
        } else {
            nb->next = b;
            arena->head = nb;
        }
        b = nb;
    }
    void *p = (char *)b->data + b->used;
    b->used += need;
    memset(p, 0, size);
    return p;
}

void *vks__arena_alloc_array(vks_skin_arena *arena, const vks_allocator *a, size_t count, size_t elem)
{
    if (elem && count > SIZE_MAX / 2 / elem)
        return NULL;
    return vks__arena_alloc(arena, a, count * elem);
}

const char *vks__arena_strndup(vks_skin_arena *arena, const vks_allocator *a, const char *s, size_t len)
{
    char *p = vks__arena_alloc(arena, a, len + 1);
    if (!p)
        return NULL;
    if (len)
        memcpy(p, s, len);
    p[len] = 0;
    return p;
}
