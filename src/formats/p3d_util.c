/* P3D reader helpers: the allocation pool every temporary of one read comes from (so any
 * failure path frees everything with one call), case-insensitive names, and the selection
 * weight byte rule of the notes (section 5). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "formats/p3d_internal.h"

struct p3d_block {
    p3d_block *next;
    /* payload follows, aligned for any type */
    union {
        long double ld;
        void *p;
        uint64_t u;
    } align[];
};

void *p3d_alloc(p3d_pool *pool, size_t count, size_t elem)
{
    if (pool->failed)
        return NULL;
    if (elem && count > (SIZE_MAX / 4 - sizeof(p3d_block) - 64) / elem) {
        pool->failed = 1;
        return NULL;
    }
    size_t n = count * elem;
    if (!n)
        n = 1;
    p3d_block *b = calloc(1, sizeof *b + n);
    if (!b) {
        pool->failed = 1;
        return NULL;
    }
    b->next = pool->head;
    pool->head = b;
    return b->align;
}

char *p3d_strndup(p3d_pool *pool, const char *s, size_t n)
{
    char *d = p3d_alloc(pool, n + 1, 1);
    if (d && n)
        memcpy(d, s, n);
    return d;
}

void p3d_pool_free(p3d_pool *pool)
{
    p3d_block *b = pool->head;
    while (b) {
        p3d_block *n = b->next;
        free(b);
        b = n;
    }
    pool->head = NULL;
}

int p3d_stricmp(const char *a, const char *b)
{
    for (;; a++, b++) {
        int ca = tolower((unsigned char)*a), cb = tolower((unsigned char)*b);
        if (ca != cb || !ca)
            return ca - cb;
    }
}

/* BI wiki rule: w = (256 - b) / 255 for b >= 1, so b = 1 is exactly 1.0 and 255 is ~0.4 %. */
float p3d_weight_from_byte(uint8_t b)
{
    if (b == 0)
        return 0.0f;
    return (float)(256 - (int)b) / 255.0f;
}

uint8_t p3d_byte_from_weight(float w)
{
    if (!(w > 0.0f))
        return 0;
    if (w >= 1.0f)
        return 1;
    float b = 256.0f - 255.0f * w;
    int r = (int)(b + 0.5f);
    if (r < 2)
        r = 2; /* 1 is reserved for exactly 1.0 */
    if (r > 255)
        r = 255;
    return (uint8_t)r;
}

int p3d_cur_asciiz(vks_cursor *c, const char **s, size_t *len, size_t max)
{
    size_t left = vks_cur_left(c);
    size_t lim = left < max + 1 ? left : max + 1;
    const uint8_t *z = memchr(c->p, 0, lim);
    if (!z)
        return 0;
    *s = (const char *)c->p;
    *len = (size_t)(z - c->p);
    c->p = z + 1;
    return 1;
}
