/* libFuzzer harness for golden.json's reader (src/check/golden_json.c, validate --against):
 * every input reads into entries whose raw names stay inside the golden's folder, or fails
 * with a message; nothing is left allocated either way.
 * Build: cmake -DVKSKIN_FUZZ=ON -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++; run: fuzz_golden tests/fuzz/golden */
#include <stdlib.h>
#include <string.h>

#include "check/golden_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vgold_doc d;
    char why[256] = "";
    if (!vks__golden_parse((const char *)data, size, &d, why, sizeof why)) {
        if (!why[0] || d.files || d.pose_spec)
            abort(); /* a failure says why and leaves nothing behind */
        return 0;
    }
    if (!d.pose_spec || d.count < 0 || (d.count && !d.files))
        abort();
    for (int k = 0; k < d.count; k++)
        if (!d.files[k].raw[0] || strchr(d.files[k].raw, '/') || !strcmp(d.files[k].raw, ".."))
            abort();
    vks__golden_doc_free(&d);
    return 0;
}
