/* libFuzzer harness for the P3D MLOD reader (with a small model.cfg, so selection weights reach the skinning code): read -> validate -> bind check -> free.
 * Build: cmake -S . -B build-fuzz -DVKSKIN_FUZZ=ON -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ && ninja -C build-fuzz fuzz_p3d_mlod
 * Run:   build-fuzz/tests/fuzz_p3d_mlod -max_total_time=60 tests/fuzz/p3d ../shared/datasets/p3d ../shared/datasets/p3d/odol */
#include <stdint.h>

#include "fuzz_p3d.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vks_fuzz_p3d(data, size, "MLOD");
    return 0;
}
