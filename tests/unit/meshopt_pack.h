/* A lossless meshopt packer for tests: rewrites a .glb so that its bufferViews are stored
 * EXT_meshopt_compression (or KHR_meshopt_compression) compressed, with libmeshoptimizer's own
 * encoders and no quantisation or filter, so that the decoded file must read back bit for
 * bit. gltfpack always quantises weights, so it cannot give that exact ground truth. */
#ifndef VKS_TEST_MESHOPT_PACK_H
#define VKS_TEST_MESHOPT_PACK_H

#include <stddef.h>
#include <stdint.h>

/* The views holding a primitive's indices are encoded as TRIANGLES (triangles != 0, where
 * their count allows) or INDICES; every other view whose length is a multiple of 4 as
 * ATTRIBUTES, with its byteStride or 4; views that fit neither stay plain. The result (malloc)
 * and its size, or NULL on a file that is not a .glb with a BIN chunk. */
uint8_t *meshopt_pack_glb(const uint8_t *glb, size_t size, const char *ext_name, int triangles, size_t *out_size);

#endif
