/* Test helper for the RenderWare tests: walks a DFF's chunk tree (independently of the
 * reader) so the tests can find header fields, struct counts and specific chunks. */
#include "test_rw_util.h"

static size_t walk(const uint8_t *b, size_t begin, size_t end, int parent, rw_test_chunk *out, size_t n,
                   size_t cap)
{
    size_t at = begin;
    while (end - at >= 12 && at < end) {
        uint32_t type = vks_test_le32(b + at), size = vks_test_le32(b + at + 4);
        if (size > end - at - 12)
            break;
        int me = (int)n;
        if (n < cap)
            out[n] = (rw_test_chunk){at, type, size, parent};
        n++;
        /* containers: clump, frame list, geometry list, geometry, material list, material,
           texture, atomic, extension */
        if (type == 0x10 || type == 0x0E || type == 0x1A || type == 0x0F || type == 0x08 || type == 0x07 ||
            type == 0x06 || type == 0x14 || type == 0x03)
            n = walk(b, at + 12, at + 12 + size, me, out, n, cap);
        at += 12 + (size_t)size;
    }
    return n;
}

size_t vks_test_rw_chunks(const uint8_t *bytes, size_t size, rw_test_chunk *out, size_t cap)
{
    size_t n = walk(bytes, 0, size, -1, out, 0, cap);
    return n < cap ? n : cap;
}

uint32_t vks_test_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

void vks_test_put32(uint8_t *p, uint32_t v)
{
    for (int k = 0; k < 4; k++)
        p[k] = (uint8_t)(v >> (8 * k));
}

size_t vks_test_rw_find(const rw_test_chunk *c, size_t n, uint32_t type, uint32_t parent_type, size_t nth)
{
    for (size_t i = 0; i < n; i++)
        if (c[i].type == type && (parent_type == 0 || (c[i].parent >= 0 && c[c[i].parent].type == parent_type)))
            if (nth-- == 0)
                return i;
    return (size_t)-1;
}
