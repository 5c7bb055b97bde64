/* libFuzzer harness for the crowd file parser (JSON and CSV): every input parses into a
 * spec whose indices all stay inside its tables, or fails with a message.
 * Build: cmake -DVKSKIN_FUZZ=ON -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++; run: fuzz_crowd_file tests/fuzz/crowd */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vkskin/crowd_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vks_crowd_spec *s = NULL;
    vks_error err = {0};
    if (vks_crowd_file_parse((const char *)data, size, "fuzz/crowd.csv", &s, &err) != VKS_OK) {
        if (s || !err.msg[0] || !err.file[0])
            abort(); /* every failure must say why and where, and leave nothing behind */
        return 0;
    }
    if (!s || s->instance_count == 0 || s->instance_count > VKS_CROWD_MAX_INSTANCES)
        abort();
    for (uint32_t i = 0; i < s->instance_count; i++) {
        const vks_crowd_entry *e = &s->instances[i];
        if (e->model < -1 || e->model >= (int32_t)s->model_count || e->clip < -1 || e->clip >= (int32_t)s->clip_count ||
            e->cycle < -1 || e->cycle > 3 || !isfinite(e->start) || !isfinite(e->speed) || !vks_affine_is_finite(&e->root))
            abort();
    }
    for (uint32_t c = 0; c < s->clip_count; c++)
        if (!s->clips[c].path[0] || !s->clips[c].name || s->clips[c].first_instance >= s->instance_count)
            abort();
    char where[256];
    vks_crowd_spec_where(s, s->instance_count - 1, where, sizeof where);
    vks_crowd_spec_free(s);
    return 0;
}
