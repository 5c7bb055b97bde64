/* Chunk-tree walker shared by the RenderWare tests (see test_rw_util.c). */
#ifndef VKS_TEST_RW_UTIL_H
#define VKS_TEST_RW_UTIL_H

#include <stddef.h>
#include <stdint.h>

typedef struct rw_test_chunk {
    size_t offset; /* of the 12-byte header */
    uint32_t type, size;
    int parent; /* index in the walk's array, -1 at the top */
} rw_test_chunk;

/* Every chunk in file order (containers are entered); returns the count (<= cap). */
size_t vks_test_rw_chunks(const uint8_t *bytes, size_t size, rw_test_chunk *out, size_t cap);
/* Index of the nth chunk of `type` whose parent has parent_type (0: any), or (size_t)-1. */
size_t vks_test_rw_find(const rw_test_chunk *c, size_t n, uint32_t type, uint32_t parent_type, size_t nth);
uint32_t vks_test_le32(const uint8_t *p);
void vks_test_put32(uint8_t *p, uint32_t v);

#endif
