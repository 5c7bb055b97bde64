#include "bytebuf.h"
#include "vec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void vks_buf_reserve(vks_bytebuf *b, size_t more)
{
    if (b->failed)
        return;
    /* malloc/free (no allocator): the writers hand b->data to callers who free() it */
    uint8_t *p = vks__grow_array(NULL, b->data, b->size, &b->cap, more, 1, 4096);
    if (!p) {
        b->failed = 1;
        return;
    }
    b->data = p;
}

void vks_buf_put(vks_bytebuf *b, const void *src, size_t n)
{
    vks_buf_reserve(b, n);
    if (b->failed || n == 0)
        return;
    memcpy(b->data + b->size, src, n);
    b->size += n;
}

void vks_buf_u8(vks_bytebuf *b, uint8_t v) { vks_buf_put(b, &v, 1); }
void vks_buf_u16(vks_bytebuf *b, uint16_t v)
{
    uint8_t x[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    vks_buf_put(b, x, 2);
}
void vks_buf_u32(vks_bytebuf *b, uint32_t v)
{
    uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    vks_buf_put(b, x, 4);
}
void vks_buf_i32(vks_bytebuf *b, int32_t v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    vks_buf_u32(b, u);
}
void vks_buf_f32(vks_bytebuf *b, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    vks_buf_u32(b, u);
}

void vks_buf_printf(vks_bytebuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = 1;
        return;
    }
    vks_buf_reserve(b, (size_t)n + 1);
    if (b->failed)
        return;
    va_start(ap, fmt);
    vsnprintf((char *)b->data + b->size, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->size += (size_t)n;
}

void vks_buf_patch_u32(vks_bytebuf *b, size_t offset, uint32_t v)
{
    if (b->failed || offset > b->size || b->size - offset < 4)
        return;
    uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    memcpy(b->data + offset, x, 4);
}

void vks_buf_free(vks_bytebuf *b)
{
    free(b->data);
    b->data = NULL;
    b->size = b->cap = 0;
}
