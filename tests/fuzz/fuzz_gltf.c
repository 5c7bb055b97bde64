/* libFuzzer harness for the glTF reader, model and clips from the same bytes: the model read
 * -> validate -> bind check and one procedural pose through the CPU reference -> free
 * (fuzz_check.h), then the clip read -> validate -> bind to that model when there is one and
 * sample every clip at a few times -> free. Only data: URIs and a .glb's BIN chunk are
 * reachable (no path is given, so no file is opened). A failure must carry a message.
 * Build: cmake -S . -B build-fuzz -DVKSKIN_FUZZ=ON -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ && cmake --build build-fuzz --target fuzz_gltf
 * Run:   build-fuzz/tests/fuzz_gltf -dict=tests/fuzz/gltf.dict -max_total_time=60 <corpus dir> tests/fuzz/gltf
 * Seeds: `test_gltf_hand --write-seeds tests/fuzz/gltf` (the hand-made files of the tests);
 * the replay in CTest adds the real samples. */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_check.h"
#include "fuzz_clip_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vks_read_options opt = vks_fuzz_options();
    vks_fuzz_check(vks_gltf_read, &opt, data, size);
    vks_clip_set *set = vks_fuzz_clip_read(vks_gltf_clip_read, data, size);
    if (!set)
        return 0;
    vks_skin *skin = NULL;
    vks_error err = {0};
    if (vks_gltf_read(&opt, data, size, &skin, &err) == VKS_OK) {
        vks_affine *locals = malloc((skin->node_count + 1) * sizeof *locals);
        for (uint32_t c = 0; locals && c < set->clip_count; c++) {
            vks_clip_binding b = {0};
            if (vks_clip_bind(&set->clips[c], skin, &b, &err) != VKS_OK)
                abort(); /* a validated clip binds to any skin */
            for (int k = 0; k <= 4; k++) {
                double t = vks_clip_local_time(&set->clips[c], VKS_CYCLE_LOOP, set->clips[c].duration * k / 3.0);
                vks_clip_sample_locals(&set->clips[c], &b, skin, (float)t, locals);
                vks_clip_sample_locals_d(&set->clips[c], &b, skin, t, locals);
            }
            vks_clip_binding_free(&b);
        }
        free(locals);
        vks_skin_free(skin);
    }
    vks_clip_set_free(set);
    return 0;
}
