/* libFuzzer harness for the P3D MLOD reader (with a small model.cfg, so selection weights reach the skinning code): read -> validate -> bind check -> free.
 * Build: cmake -S . -B build-fuzz -DVKSKIN_FUZZ=ON -DCMAKE_C_COMPILER=clang && ninja -C build-fuzz fuzz_p3d_mlod
 * Run:   build-fuzz/tests/fuzz_p3d_mlod -max_total_time=60 tests/fuzz/p3d ../shared/datasets/p3d ../shared/datasets/p3d/odol */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char cfg[] =
    "class CfgSkeletons { class S { isDiscrete = 0; skeletonBones[] = {\"root\",\"\",\"mid\",\"root\",\"tip\",\"mid\","
    "\"Spine2\",\"\",\"1\",\"\",\"2\",\"1\"}; }; };\n"
    "class CfgModels { class m { skeletonName = \"S\"; sections[] = {\"camo\"}; }; };\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* the magic is fixed so every input reaches the MLOD reader */
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        return 0;
    if (size)
        memcpy(copy, data, size);
    if (size >= 4)
        memcpy(copy, "MLOD", 4);
    vks_read_options opt = vks_fuzz_options();
    opt.p3d.model_cfg = cfg;
    opt.p3d.model_cfg_size = sizeof cfg - 1;
    opt.p3d.model_name = "m";
    opt.p3d.bone_limit = 8;
    vks_fuzz_check(vks_p3d_read, &opt, copy, size);
    free(copy);
    return 0;
}
