/* Bounded byte cursor: the only code that touches untrusted file bytes in the binary readers.
 * Explicit little-endian reads through memcpy (never a cast to a struct pointer); every length
 * check subtracts from the bytes left, so nothing can overflow.
 *
 *   vks_cursor c = vks_cur_make(bytes, size);
 *   uint32_t n;
 *   if (!vks_cur_u32(&c, &n) || !vks_cur_fits(&c, n, 12)) return fail(...);
 */
#ifndef VKS_CORE_CURSOR_H
#define VKS_CORE_CURSOR_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct vks_cursor {
    const uint8_t *base, *p, *end;
} vks_cursor;

static inline vks_cursor vks_cur_make(const void *bytes, size_t size)
{
    vks_cursor c;
    c.base = (const uint8_t *)bytes;
    c.p = c.base;
    c.end = c.base + size;
    return c;
}

/* A sub-cursor over the next n bytes (shares base, so offsets stay file offsets). */
static inline int vks_cur_sub(const vks_cursor *c, size_t n, vks_cursor *out)
{
    if ((size_t)(c->end - c->p) < n)
        return 0;
    out->base = c->base;
    out->p = c->p;
    out->end = c->p + n;
    return 1;
}

static inline size_t vks_cur_left(const vks_cursor *c) { return (size_t)(c->end - c->p); }
static inline uint64_t vks_cur_offset(const vks_cursor *c) { return (uint64_t)(c->p - c->base); }

/* True when count elements of elem bytes each are left (divide, never multiply). */
static inline int vks_cur_fits(const vks_cursor *c, uint64_t count, size_t elem)
{
    if (elem == 0)
        return 1;
    return count <= (uint64_t)(vks_cur_left(c) / elem);
}

static inline int vks_cur_skip(vks_cursor *c, size_t n)
{
    if (vks_cur_left(c) < n)
        return 0;
    c->p += n;
    return 1;
}

static inline int vks_cur_bytes(vks_cursor *c, void *dst, size_t n)
{
    if (vks_cur_left(c) < n)
        return 0;
    if (n)
        memcpy(dst, c->p, n);
    c->p += n;
    return 1;
}

static inline int vks_cur_u8(vks_cursor *c, uint8_t *v) { return vks_cur_bytes(c, v, 1); }

static inline int vks_cur_u16(vks_cursor *c, uint16_t *v)
{
    uint8_t b[2];
    if (!vks_cur_bytes(c, b, 2))
        return 0;
    *v = (uint16_t)(b[0] | (b[1] << 8));
    return 1;
}

static inline int vks_cur_u32(vks_cursor *c, uint32_t *v)
{
    uint8_t b[4];
    if (!vks_cur_bytes(c, b, 4))
        return 0;
    *v = (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) | ((uint32_t)b[3] << 24);
    return 1;
}

static inline int vks_cur_i32(vks_cursor *c, int32_t *v)
{
    uint32_t u;
    if (!vks_cur_u32(c, &u))
        return 0;
    memcpy(v, &u, 4);
    return 1;
}

static inline int vks_cur_u64(vks_cursor *c, uint64_t *v)
{
    uint32_t lo, hi;
    if (!vks_cur_u32(c, &lo) || !vks_cur_u32(c, &hi))
        return 0;
    *v = (uint64_t)lo | ((uint64_t)hi << 32);
    return 1;
}

static inline int vks_cur_f32(vks_cursor *c, float *v)
{
    uint32_t u;
    if (!vks_cur_u32(c, &u))
        return 0;
    memcpy(v, &u, 4);
    return 1;
}

static inline int vks_cur_f32n(vks_cursor *c, float *v, size_t n)
{
    if (!vks_cur_fits(c, n, 4))
        return 0;
    for (size_t i = 0; i < n; i++)
        vks_cur_f32(c, &v[i]);
    return 1;
}

/* Little-endian loads from a byte pointer already bounds-checked by the caller. */
static inline uint32_t vks_le32(const uint8_t *b)
{
    return (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) | ((uint32_t)b[3] << 24);
}
static inline uint16_t vks_le16(const uint8_t *b) { return (uint16_t)(b[0] | (b[1] << 8)); }
static inline float vks_lef32(const uint8_t *b)
{
    uint32_t u = vks_le32(b);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

#endif
