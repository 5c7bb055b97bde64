/* libFuzzer harness for EXT_/KHR_meshopt_compression (src/formats/gltf/gltf_meshopt.c): input
 * byte 0 picks the mode (bits 0-1: ATTRIBUTES, TRIANGLES, INDICES, and an invalid one), the
 * filter (bits 2-3: NONE, OCTAHEDRAL, QUATERNION, EXPONENTIAL) and the extension's name (bit
 * 4: KHR_ instead of EXT_); byte 1 is byteStride, bytes 2-3 count (little-endian); the rest is
 * the compressed data. The view is decoded and read as bytes through an accessor; a success
 * must hold count x byteStride bytes.
 * Build and run: see fuzz_gltf.c (target fuzz_gltf_meshopt).
 * Seeds: tests/fuzz/gltf_meshopt, from gltfpack -cc of a generated character
 * (tests/fuzz/make_compressed_seeds.py). */
#include <stdio.h>

#include "fuzz_gltf_compressed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4)
        return 0;
    static const char *const modes[] = {"ATTRIBUTES", "TRIANGLES", "INDICES", "POINTS"};
    static const char *const filters[] = {"NONE", "OCTAHEDRAL", "QUATERNION", "EXPONENTIAL"};
    const char *ext = data[0] & 16 ? "KHR_meshopt_compression" : "EXT_meshopt_compression";
    unsigned stride = data[1], count = data[2] | (unsigned)data[3] << 8;
    size_t n = size - 4, view = (size_t)count * stride;
    view = view ? view : 1;
    char json[1024];
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[\"%s\"],\"extensionsRequired\":[\"%s\"],"
             "\"buffers\":[{\"byteLength\":%zu},{\"byteLength\":%zu,\"extensions\":{\"%s\":{\"fallback\":true}}}],"
             "\"bufferViews\":[{\"buffer\":1,\"byteLength\":%zu,\"extensions\":{\"%s\":{\"buffer\":0,\"byteLength\":%zu,"
             "\"byteStride\":%u,\"count\":%u,\"mode\":\"%s\",\"filter\":\"%s\"}}}],"
             "\"accessors\":[{\"bufferView\":0,\"componentType\":5121,\"count\":%zu,\"type\":\"SCALAR\"}]}",
             ext, ext, n ? n : 1, view, ext, view, ext, n, stride, count, modes[data[0] & 3],
             filters[(data[0] >> 2) & 3], view);
    size_t glb_size = 0;
    uint8_t *glb = vks_fuzz_glb(json, data + 4, n, &glb_size);
    vks_read_options opt = vks_fuzz_compressed_options();
    vks_error err = {0};
    gltf_doc d;
    if (vks_fuzz_ok(vks__gltfr_doc_open(&d, &opt, glb, glb_size, &err), &err)) {
        const uint8_t *bytes = NULL;
        uint64_t len = 0, st = 0, off = 0;
        if (vks_fuzz_ok(vks__gltfr_view_bytes(&d, 0, &bytes, &len, &st, &off), &err)) {
            if (!bytes || len != view)
                abort();
            gltf_accessor_want w = {"SCALAR", GLTF_BIT(GLTF_UNSIGNED_BYTE), 0, 0, 0};
            gltf_values info;
            uint32_t *u = NULL;
            if (vks_fuzz_ok(vks__gltfr_accessor_uints(&d, 0, "fuzz", &w, &info, &u), &err) && info.count != view)
                abort();
        }
    }
    vks__gltfr_doc_free(&d);
    free(glb);
    return 0;
}
