/* libFuzzer harness for the model.cfg parser (vks_p3d_parse_model_cfg): any text parses or
 * fails with a message, with and without a model class to resolve.
 * Build: cmake -S . -B build-fuzz -DVKSKIN_FUZZ=ON -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ && ninja -C build-fuzz fuzz_p3d_cfg
 * Run:   build-fuzz/tests/fuzz_p3d_cfg -max_total_time=60 tests/fuzz/p3d */
#include <stdint.h>
#include <stdlib.h>

#include "vkskin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *models[] = {NULL, "m", "synthetic_skinned_tube", "sample_1_character"};
    for (size_t i = 0; i < sizeof models / sizeof *models; i++) {
        vks_error err = {0};
        uint32_t bones = 0;
        if (vks_p3d_parse_model_cfg((const char *)data, size, models[i], &bones, &err) != VKS_OK && !err.msg[0])
            abort(); /* every failure must say why */
    }
    return 0;
}
