/* libFuzzer harness for the RenderWare DFF reader: read -> validate -> bind check -> free.
 * Build: cmake -S . -B build-fuzz -DVKSKIN_FUZZ=ON -DCMAKE_C_COMPILER=clang && ninja -C build-fuzz fuzz_rw
 * Run:   build-fuzz/tests/fuzz_rw -max_total_time=60 <corpus dir> ../shared/datasets/renderware */
#include <stdint.h>
#include <stdlib.h>

#include "vkskin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vks_read_options opt = {0};
    /* small limits keep each input cheap; the checks against them are what is exercised */
    opt.max_vertices = 1u << 16;
    opt.max_triangles = 1u << 17;
    opt.max_nodes = 1024;
    opt.max_meshes = 64;
    vks_skin *skin = NULL;
    vks_error err = {0};
    if (vks_rw_read(&opt, data, size, &skin, &err) == VKS_OK) {
        vks_error e2 = {0};
        if (vks_skin_validate(skin, &e2) != VKS_OK)
            abort(); /* a model the reader returns must validate */
        vks_bind_check bc;
        vks_cpu_bind_check(skin, &bc, &e2);
        vks_skin_free(skin);
    } else if (!err.msg[0]) {
        abort(); /* every failure must say why */
    }
    return 0;
}
