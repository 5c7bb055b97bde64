/* What the compressed-glTF harnesses share (fuzz_gltf_meshopt.c, fuzz_gltf_draco.c): the
 * fuzzer's bytes become the compressed payload (the BIN chunk) of a small fixed .glb whose JSON
 * the harness writes, so that every input reaches a decoder; the document is opened through
 * the reader's own internals and the accessors read, each failure checked to carry a message.
 * Decoded sizes are bounded by a 1 MiB max input size, so the budget checks are exercised
 * and no input allocates much. */
#ifndef VKS_FUZZ_GLTF_COMPRESSED_H
#define VKS_FUZZ_GLTF_COMPRESSED_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/gltf/gltf_internal.h"

/* The .glb of json (NUL-terminated) and bin (n bytes), in malloc'd memory; *size its length. */
static inline uint8_t *vks_fuzz_glb(const char *json, const uint8_t *bin, size_t n, size_t *size)
{
    size_t jl = strlen(json), jp = (jl + 3) / 4 * 4, bp = (n + 3) / 4 * 4;
    *size = 12 + 8 + jp + 8 + bp;
    uint8_t *g = calloc(1, *size);
    if (!g)
        abort();
    uint32_t head[] = {0x46546C67u, 2, (uint32_t)*size, (uint32_t)jp, 0x4E4F534Au};
    memcpy(g, head, sizeof head);
    memcpy(g + 20, json, jl);
    memset(g + 20 + jl, ' ', jp - jl);
    uint32_t bin_head[] = {(uint32_t)bp, 0x004E4942u};
    memcpy(g + 20 + jp, bin_head, sizeof bin_head);
    if (n)
        memcpy(g + 28 + jp, bin, n);
    return g;
}

static inline vks_read_options vks_fuzz_compressed_options(void)
{
    vks_read_options opt = {0};
    opt.file.max_size = 1u << 20;
    return opt;
}

/* A reader call's verdict: VKS_OK, or a failure that says why. With VKSKIN_FUZZ_SEEDS_DECODE
 * set (the seeds' own test), any failure aborts: the seeds are real encoder output, so each
 * must decode, which shows that the harness reaches the decoder rather than stopping short. */
static inline int vks_fuzz_ok(vks_result r, const vks_error *err)
{
    if (r != VKS_OK && (!err->msg[0] || getenv("VKSKIN_FUZZ_SEEDS_DECODE")))
        abort();
    return r == VKS_OK;
}

#endif
