/* libFuzzer harness for the NIF reader: read -> validate -> bind check and a small CPU
 * reference deform -> free. Any crash, hang, over-read or unbounded allocation is a bug.
 *   cmake -S . -B build-fuzz -G Ninja -DVKSKIN_FUZZ=ON -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++
 *   ninja -C build-fuzz fuzz_nif && ./build-fuzz/fuzz_nif tests/fuzz/nif ../shared/datasets/nif
 * Seeds: tests/fuzz/nif (small written files) and the real samples. */
#include <stdlib.h>

#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vks_read_options opt = vks_fuzz_options();
    opt.max_vertices = 1u << 18; /* NIF files share data blocks between shapes */
    opt.max_triangles = 1u << 19;
    opt.max_nodes = 4096;
    vks_fuzz_check(vks_nif_read, &opt, data, size);
    return 0;
}
