/* Growable output buffer for the writers: little-endian appends, one sticky failure flag, so
 * a writer appends freely and checks once at the end. */
#ifndef VKS_CORE_BYTEBUF_H
#define VKS_CORE_BYTEBUF_H

#include <stddef.h>
#include <stdint.h>

typedef struct vks_bytebuf {
    uint8_t *data;
    size_t size, cap;
    int failed;
} vks_bytebuf;

void vks_buf_reserve(vks_bytebuf *b, size_t more);
void vks_buf_put(vks_bytebuf *b, const void *src, size_t n);
void vks_buf_u8(vks_bytebuf *b, uint8_t v);
void vks_buf_u16(vks_bytebuf *b, uint16_t v);
void vks_buf_u32(vks_bytebuf *b, uint32_t v);
void vks_buf_i32(vks_bytebuf *b, int32_t v);
void vks_buf_f32(vks_bytebuf *b, float v);
/* printf-style text append (for the XML and config writers). */
void vks_buf_printf(vks_bytebuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Overwrites 4 bytes at offset (to patch a size written before its contents). */
void vks_buf_patch_u32(vks_bytebuf *b, size_t offset, uint32_t v);
void vks_buf_free(vks_bytebuf *b);

#endif
