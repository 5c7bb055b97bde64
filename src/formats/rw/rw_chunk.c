/* RenderWare chunk walk: 12-byte headers, both library-ID stamp forms, and librw's
 * findChunk (skip siblings of other types). renderware.md 2.1-2.2. Also the writers' side of
 * the same headers (vks__rw_begin, vks__rw_end), shared by every part of the .dff writer. */
#include "rw_internal.h"

#include <stdio.h>

uint32_t vks__rw_decode_version(uint32_t stamp)
{
    /* New form (RW >= 3.1.0.1): VVJJJJNNNNBBBBBB then a 16-bit build. Old form: version >> 8. */
    if (stamp & 0xFFFF0000u)
        return (((stamp >> 14) & 0x3FF00u) + 0x30000u) | ((stamp >> 16) & 0x3Fu);
    return stamp << 8;
}

vks_result vks__rw_truncated(rw_ctx *ctx, const vks_cursor *c, const char *path, const char *what)
{
    return vks_error_set(ctx->err, VKS_ERR_TRUNCATED, vks_cur_offset(c), path, "%s: only %zu byte(s) left", what,
                         vks_cur_left(c));
}

vks_result vks__rw_chunk_next(rw_ctx *ctx, vks_cursor *c, rw_chunk *out, const char *path)
{
    out->offset = vks_cur_offset(c);
    if (!vks_cur_u32(c, &out->type) || !vks_cur_u32(c, &out->size) || !vks_cur_u32(c, &out->stamp))
        return vks_error_set(ctx->err, VKS_ERR_TRUNCATED, out->offset, path,
                             "expected a 12-byte chunk header, only %zu byte(s) left",
                             (size_t)(c->end - c->base) - (size_t)out->offset);
    if (!vks_cur_sub(c, out->size, &out->body))
        return vks_error_set(ctx->err, VKS_ERR_TRUNCATED, out->offset + 4, path,
                             "chunk 0x%x declares %u payload bytes, only %zu left", out->type, out->size,
                             vks_cur_left(c));
    vks_cur_skip(c, out->size);
    out->version = vks__rw_decode_version(out->stamp);
    return VKS_OK;
}

int vks__rw_find_child(rw_ctx *ctx, vks_cursor *c, uint32_t type, rw_chunk *out, const char *path)
{
    while (vks_cur_left(c) > 0) {
        if (vks__rw_chunk_next(ctx, c, out, path) != VKS_OK)
            return -1;
        if (out->type == type)
            return 1;
    }
    return 0;
}

void *vks__rw_tmp(rw_ctx *ctx, uint64_t count, size_t elem)
{
    if (count > SIZE_MAX / 8)
        return NULL;
    return vks_skin_alloc_array(ctx->scratch, count ? (size_t)count : 1, elem);
}

size_t vks__rw_begin(vks_bytebuf *b, uint32_t type, uint32_t stamp)
{
    size_t at = b->size;
    vks_buf_u32(b, type);
    vks_buf_u32(b, 0);
    vks_buf_u32(b, stamp);
    return at;
}

void vks__rw_end(vks_bytebuf *b, size_t at)
{
    if (!b->failed && b->size >= at + 12)
        vks_buf_patch_u32(b, at + 4, (uint32_t)(b->size - at - 12));
}
