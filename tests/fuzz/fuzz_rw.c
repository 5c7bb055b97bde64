/* libFuzzer harness for the RenderWare DFF reader: read -> validate -> bind check -> free.
 * Build: cmake -S . -B build-fuzz -DVKSKIN_FUZZ=ON -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ && ninja -C build-fuzz fuzz_rw
 * Run:   build-fuzz/tests/fuzz_rw -max_total_time=60 <corpus dir> ../shared/datasets/renderware */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vks_read_options opt = vks_fuzz_options();
    vks_fuzz_check(vks_rw_read, &opt, data, size);
    return 0;
}
