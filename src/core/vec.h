/* Growable arrays for the library's temporaries: one growth rule (doubling from a first
 * capacity, overflow checked before any multiplication), every block through a vks_allocator,
 * and failure reported as NULL so each caller turns it into its own error, never an abort.
 *
 * STEP BY STEP
 *   vks_vec v = VKS_VEC_INIT(sizeof(uint32_t), 16);   (or {.elem = sizeof(T)}: first 16)
 *   uint32_t *x = vks__vec_push(&v, a, 1);            n zeroed elements, NULL on failure
 *   if (!x) return nomem();                           v is unchanged then
 *   ... ((uint32_t *)v.data)[i] for i < v.count ...
 *   vks__vec_free(&v, a);                             the same allocator (a may be NULL)
 *
 * Arrays that keep their own typed pointer and count (a struct field other code reads) grow
 * with vks__grow_array, the same rule without the struct.
 *
 * The allocator may be NULL (malloc/free). Its free may do nothing: a pool that releases
 * everything at once then simply keeps the outgrown blocks until then.
 */
#ifndef VKS_CORE_VEC_H
#define VKS_CORE_VEC_H

#include <stddef.h>

#include "vkskin/core.h"

typedef struct vks_vec {
    void *data;
    size_t count, cap; /* elements in use, elements allocated */
    size_t elem;       /* bytes per element: set before the first push */
    size_t first;      /* capacity of the first block (0: 16) */
} vks_vec;

#define VKS_VEC_INIT(elem_size, first_cap) {NULL, 0, 0, (elem_size), (first_cap)}

/* Returns a block with room for count + more elements of elem bytes: data itself when it has
 * room, else a new block (capacity doubled from *cap, or from first_cap (0: 16) when nothing
 * is allocated yet, until it fits) holding data's first count elements, data then freed
 * through a. NULL when the size would pass SIZE_MAX / 4 or the allocator fails; data and *cap
 * are then untouched. New space is not zeroed. */
void *vks__grow_array(const vks_allocator *a, void *data, size_t count, size_t *cap, size_t more, size_t elem,
                      size_t first_cap);

/* Appends n zeroed elements and returns the first; NULL on overflow or exhaustion. */
void *vks__vec_push(vks_vec *v, const vks_allocator *a, size_t n);
/* Room for n more elements without adding any; 0 on overflow or exhaustion. */
int vks__vec_reserve(vks_vec *v, const vks_allocator *a, size_t n);
/* Frees the block and empties v (elem and first are kept, so v can be reused). */
void vks__vec_free(vks_vec *v, const vks_allocator *a);

#endif
