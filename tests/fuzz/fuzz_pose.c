/* libFuzzer harness for the JSON pose-file parser, against a fixed two-bone skin.
 * Build: cmake -DVKSKIN_FUZZ=ON -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++; run: fuzz_pose tests/fuzz/pose */
#include <stdint.h>
#include <stdlib.h>

#include "skin_fixture.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static vks_skin *skin;
    if (!skin) {
        const float zero[3] = {0, 0, 0};
        skin = vks_fixture_two_bones(zero, 1, 0);
    }
    vks_pose_set set;
    vks_error err = {0};
    if (vks_pose_file_parse(skin, (const char *)data, size, &set, &err) == VKS_OK) {
        float pos[5 * 3], nrm[5 * 3];
        vks_deform_job j = {skin, set.locals, 1, pos, nrm, NULL};
        vks_cpu_reference_run(&j, &err);
        vks_pose_set_free(&set);
    } else if (!err.msg[0]) {
        abort(); /* every failure must say why */
    }
    return 0;
}
