/* Growable arrays (see vec.h). */
#include "vec.h"

#include <stdint.h>
#include <string.h>

void *vks__grow_array(const vks_allocator *a, void *data, size_t count, size_t *cap, size_t more, size_t elem,
                      size_t first_cap)
{
    /* a quarter of the address space: far past any real input, and cap * 2 * elem cannot wrap */
    if (elem == 0 || count > SIZE_MAX / 4 / elem || more > SIZE_MAX / 4 / elem - count)
        return NULL;
    if (count + more <= *cap && data)
        return data;
    size_t n = *cap ? *cap : first_cap ? first_cap : 16;
    while (n < count + more)
        n *= 2;
    if (n > SIZE_MAX / elem)
        return NULL;
    vks_allocator al = vks_allocator_or_default(a);
    void *p = al.alloc(al.user, n * elem);
    if (!p)
        return NULL;
    /* the allocator interface has no realloc: copy, then give the old block back */
    if (count)
        memcpy(p, data, count * elem);
    if (data)
        al.free(al.user, data);
    *cap = n;
    return p;
}

int vks__vec_reserve(vks_vec *v, const vks_allocator *a, size_t n)
{
    void *p = vks__grow_array(a, v->data, v->count, &v->cap, n, v->elem, v->first);
    if (!p)
        return 0;
    v->data = p;
    return 1;
}

void *vks__vec_push(vks_vec *v, const vks_allocator *a, size_t n)
{
    if (!vks__vec_reserve(v, a, n))
        return NULL;
    void *r = (char *)v->data + v->count * v->elem;
    memset(r, 0, n * v->elem);
    v->count += n;
    return r;
}

void vks__vec_free(vks_vec *v, const vks_allocator *a)
{
    if (v->data) {
        vks_allocator al = vks_allocator_or_default(a);
        al.free(al.user, v->data);
    }
    v->data = NULL;
    v->count = v->cap = 0;
}
