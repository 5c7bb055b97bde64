/* libFuzzer harness for the .cmdl reader: read -> validate -> bind check and one procedural
 * pose through the CPU reference (models capped in size) -> free. Every failure must carry a
 * message; an accepted model must validate.
 * Build: cmake -DVKSKIN_FUZZ=ON -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++; run:
 *   fuzz_cmdl -dict=tests/fuzz/cmdl.dict tests/fuzz/cmdl tests/data/cmdl */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vks_read_options opt = vks_fuzz_options();
    vks_fuzz_check(vks_cmdl_read, &opt, data, size);
    return 0;
}
