/* libFuzzer harness for KHR_draco_mesh_compression (src/formats/gltf/gltf_draco.c and its C++
 * shim over libdraco): input bytes 0-1 are the primitive's point count, bytes 2-3 its triangle
 * count (little-endian), the rest the Draco data; the primitive names the Draco attribute ids
 * draco_transcoder writes (JOINTS_0 0, NORMAL 1, POSITION 2, TEXCOORD_0 3, WEIGHTS_0 4). Every
 * accessor of the primitive is read (the first read decodes); a success must give each its
 * count.
 * Build and run: see fuzz_gltf.c (target fuzz_gltf_draco).
 * Seeds: tests/fuzz/gltf_draco, from draco_transcoder of a generated character
 * (tests/fuzz/make_compressed_seeds.py). */
#include <stdio.h>

#include "fuzz_gltf_compressed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4)
        return 0;
    unsigned points = data[0] | (unsigned)data[1] << 8, faces = data[2] | (unsigned)data[3] << 8;
    points = points ? points : 1, faces = faces ? faces : 1;
    size_t n = size - 4;
    char json[2048];
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[\"KHR_draco_mesh_compression\"],"
             "\"extensionsRequired\":[\"KHR_draco_mesh_compression\"],\"buffers\":[{\"byteLength\":%zu}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteLength\":%zu}],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1,\"JOINTS_0\":2,"
             "\"WEIGHTS_0\":3,\"TEXCOORD_0\":4},\"indices\":5,\"extensions\":{\"KHR_draco_mesh_compression\":"
             "{\"bufferView\":0,\"attributes\":{\"JOINTS_0\":0,\"NORMAL\":1,\"POSITION\":2,\"TEXCOORD_0\":3,"
             "\"WEIGHTS_0\":4}}}}]}],"
             "\"accessors\":[{\"componentType\":5126,\"count\":%u,\"type\":\"VEC3\"},"
             "{\"componentType\":5126,\"count\":%u,\"type\":\"VEC3\"},"
             "{\"componentType\":5123,\"count\":%u,\"type\":\"VEC4\"},"
             "{\"componentType\":5126,\"count\":%u,\"type\":\"VEC4\"},"
             "{\"componentType\":5126,\"count\":%u,\"type\":\"VEC2\"},"
             "{\"componentType\":5125,\"count\":%u,\"type\":\"SCALAR\"}]}",
             n ? n : 1, n ? n : 1, points, points, points, points, points, 3 * faces);
    size_t glb_size = 0;
    uint8_t *glb = vks_fuzz_glb(json, data + 4, n, &glb_size);
    vks_read_options opt = vks_fuzz_compressed_options();
    vks_error err = {0};
    gltf_doc d;
    if (vks_fuzz_ok(vks__gltfr_doc_open(&d, &opt, glb, glb_size, &err), &err)) {
        gltf_accessor_want any = {NULL, 0x7F, -1, 0, 0};
        for (int32_t a = 0; a < 6; a++) {
            gltf_values info;
            float *f = NULL;
            if (!vks_fuzz_ok(vks__gltfr_accessor_floats(&d, a, "fuzz", &any, &info, &f), &err))
                break;
            if (info.count != (a == 5 ? 3 * faces : points))
                abort();
        }
    }
    vks__gltfr_doc_free(&d);
    free(glb);
    return 0;
}
