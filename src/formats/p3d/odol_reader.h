/* The ODOL reader's cursor and its primitive reads, shared by the file's header and model info
 * (p3d_odol.c) and its LODs (p3d_odol_lod.c). Each read returns 1, or 0 with r->err set and
 * naming what was being read. */
#ifndef VKS_P3D_ODOL_READER_H
#define VKS_P3D_ODOL_READER_H

#include <stdio.h>

#include "p3d_internal.h"

#define ODOL_MIN 28u
#define ODOL_MAX 75u
#define ODOL_MAX_COUNT (1u << 26)
#define ODOL_MIN_VERTEX_BYTES 4u /* a LOD's bytes per vertex, at least */

typedef struct odol_rd {
    vks_cursor c;
    uint32_t v;
    p3d_pool *pool;
    vks_error *err;
    char path[96];
    uint32_t max_count; /* largest array count accepted; 0: ODOL_MAX_COUNT */
} odol_rd;

/* Every array of a LOD holds one element per point, vertex, face or selected one: more than
   the vertex and triangle limits allow is refused before its block is decompressed. */
/* Whether count n (read from the 4 bytes that end `back` bytes before the cursor) is over
   the limit; sets the error when it is. */
static inline int over_count_at(odol_rd *r, uint32_t n, size_t back, const char *what)
{
    uint32_t max = r->max_count ? r->max_count : ODOL_MAX_COUNT;
    if (n <= max)
        return 0;
    vks_error_set(r->err, VKS_ERR_LIMIT, vks_cur_offset(&r->c) - 4 - back, r->path,
                  "%s: %u elements, over the limit %u", what, n, max);
    return 1;
}

static inline int over_count(odol_rd *r, uint32_t n, const char *what) { return over_count_at(r, n, 0, what); }

static inline int rfail(odol_rd *r, vks_result code, const char *what)
{
    vks_error_set(r->err, code, vks_cur_offset(&r->c), r->path, "%s", what);
    return 0;
}

static inline int rd_u8(odol_rd *r, uint8_t *x, const char *what)
{
    return vks_cur_u8(&r->c, x) ? 1 : rfail(r, VKS_ERR_TRUNCATED, what);
}
static inline int rd_u32(odol_rd *r, uint32_t *x, const char *what)
{
    return vks_cur_u32(&r->c, x) ? 1 : rfail(r, VKS_ERR_TRUNCATED, what);
}
static inline int rd_i32(odol_rd *r, int32_t *x, const char *what)
{
    return vks_cur_i32(&r->c, x) ? 1 : rfail(r, VKS_ERR_TRUNCATED, what);
}
static inline int rd_f32(odol_rd *r, float *x, const char *what)
{
    return vks_cur_f32(&r->c, x) ? 1 : rfail(r, VKS_ERR_TRUNCATED, what);
}
static inline int rd_skip(odol_rd *r, size_t n, const char *what)
{
    return vks_cur_skip(&r->c, n) ? 1 : rfail(r, VKS_ERR_TRUNCATED, what);
}
static inline int rd_str(odol_rd *r, const char **s, const char *what)
{
    size_t len;
    const char *tmp;
    if (!p3d_cur_asciiz(&r->c, &tmp, &len, P3D_MAX_NAME))
        return rfail(r, VKS_ERR_TRUNCATED, what);
    if (s)
        *s = tmp;
    return 1;
}
/* u32 count, then count elements of elem bytes, skipped. */
static inline int rd_array_skip(odol_rd *r, size_t elem, uint32_t *count, const char *what)
{
    uint32_t n;
    if (!rd_u32(r, &n, what))
        return 0;
    if (!vks_cur_fits(&r->c, n, elem))
        return rfail(r, VKS_ERR_TRUNCATED, what);
    vks_cur_skip(&r->c, (size_t)n * elem);
    if (count)
        *count = n;
    return 1;
}
static inline int rd_compressed(odol_rd *r, size_t elem, uint32_t *count, const uint8_t **data, const char *what)
{
    uint32_t n;
    if (!rd_u32(r, &n, what))
        return 0;
    if (over_count(r, n, what))
        return 0;
    *count = n;
    return p3d_read_compressed(r->pool, &r->c, r->v, (size_t)n * elem, data, r->path, r->err) == VKS_OK;
}
/* Condensed array: u32 count, u8 default fill (then one element), else a compressed block. */
static inline int rd_condensed(odol_rd *r, size_t elem, uint32_t *count, const uint8_t **data, int *fill, const char *what)
{
    uint32_t n;
    uint8_t f;
    if (!rd_u32(r, &n, what) || over_count(r, n, what) || !rd_u8(r, &f, what))
        return 0;
    *count = n;
    *fill = f != 0;
    if (f) {
        *data = r->c.p;
        return rd_skip(r, elem, what);
    }
    return p3d_read_compressed(r->pool, &r->c, r->v, (size_t)n * elem, data, r->path, r->err) == VKS_OK;
}

#endif
