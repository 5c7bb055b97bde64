/* P3D reader helpers: the allocation pool every temporary of one read comes from (so any
 * failure path frees everything with one call), case-insensitive names, and the selection
 * weight byte rule of the notes (section 5). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "p3d_internal.h"

struct p3d_block {
    p3d_block *next;
    /* payload follows, aligned for any type */
    union {
        long double ld;
        void *p;
        uint64_t u;
    } align[];
};

p3d_pool p3d_pool_make(const vks_allocator *allocator)
{
    p3d_pool pool = {NULL, 0, NULL};
    vks_allocator d = vks_allocator_or_default(NULL);
    if (allocator && allocator->alloc && allocator->free && allocator->alloc != d.alloc)
        pool.allocator = allocator;
    return pool;
}

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
    p3d_block *b;
    if (pool->allocator) {
        b = pool->allocator->alloc(pool->allocator->user, sizeof *b + n);
        if (b)
            memset(b, 0, sizeof *b + n);
    } else {
        b = calloc(1, sizeof *b + n);
    }
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

static void *pool_alloc(void *user, size_t size) { return p3d_alloc(user, size, 1); }
static void pool_keep(void *user, void *ptr)
{
    (void)user;
    (void)ptr; /* p3d_pool_free releases it with the rest */
}

vks_allocator p3d_pool_allocator(p3d_pool *pool)
{
    vks_allocator a = {pool_alloc, pool_keep, pool};
    return a;
}

void p3d_pool_free(p3d_pool *pool)
{
    p3d_block *b = pool->head;
    while (b) {
        p3d_block *n = b->next;
        if (pool->allocator)
            pool->allocator->free(pool->allocator->user, b);
        else
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

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a over the lower-cased bytes */
    for (; *s; s++) {
        h ^= (uint32_t)tolower((unsigned char)*s);
        h *= 16777619u;
    }
    return h;
}

static int32_t map_probe(const p3d_name_map *m, const char *name, uint32_t *slot)
{
    uint32_t i = name_hash(name) & m->mask;
    while (m->name[i]) {
        if (!p3d_stricmp(m->name[i], name)) {
            *slot = i;
            return (int32_t)m->index[i];
        }
        i = (i + 1) & m->mask;
    }
    *slot = i;
    return -1;
}

int32_t p3d_map_find(const p3d_name_map *m, const char *name)
{
    uint32_t slot;
    if (!m->name)
        return -1;
    return map_probe(m, name, &slot);
}

int32_t p3d_map_add(p3d_pool *pool, p3d_name_map *m, const char *name, uint32_t index)
{
    if (!m->name || (m->count + 1) * 2 > m->mask + 1) {
        /* grow (or start) at a load of at most one half */
        uint32_t cap = m->name ? (m->mask + 1) * 2 : 64;
        if (cap == 0 || cap > (1u << 30))
            return -1;
        p3d_name_map g = {p3d_alloc(pool, cap, sizeof *g.name), p3d_alloc(pool, cap, sizeof *g.index), cap - 1, 0};
        if (!g.name || !g.index)
            return -1;
        for (uint32_t i = 0; m->name && i <= m->mask; i++) {
            uint32_t slot;
            if (m->name[i] && map_probe(&g, m->name[i], &slot) < 0) {
                g.name[slot] = m->name[i];
                g.index[slot] = m->index[i];
                g.count++;
            }
        }
        *m = g;
    }
    uint32_t slot;
    int32_t have = map_probe(m, name, &slot);
    if (have >= 0)
        return have;
    m->name[slot] = name;
    m->index[slot] = index;
    m->count++;
    return (int32_t)index;
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
