/* libFuzzer harness for the Arma RTM reader and writer: read -> validate -> bind to a small
 * skeleton and sample (float and double) -> write back as plain RTM and as BMTR 5 with LZO
 * arrays -> read those -> free. A failure must carry a message and leave *out alone; a set the
 * reader returns must validate. The written files may be refused again (a matrix the fuzzer
 * made too wild for a rotation), but only with a message.
 * Build: cmake -S . -B build-fuzz -DVKSKIN_FUZZ=ON -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ && cmake --build build-fuzz --target fuzz_rtm
 * Run:   build-fuzz/tests/fuzz_rtm -dict=tests/fuzz/rtm.dict -max_total_time=60 <corpus dir> tests/fuzz/rtm */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_clip_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The armaio samples' skeleton under a P3D-style "(model)" root, with the files' names. */
static vks_skin *skeleton(void)
{
    static const char *const names[5] = {"(model)", "Pelvis", "Torso", "RightArm", "LeftArm"};
    static const int32_t parents[5] = {-1, -1, 1, 2, 2};
    static const float at[5][3] = {{0, 0, 0}, {0, 1, 0}, {0, 0.3f, 0}, {-0.2f, 0.25f, 0}, {0.2f, 0.25f, 0}};
    vks_skin *s = vks_skin_create(NULL);
    if (!s || !(s->nodes = vks_skin_alloc_array(s, 5, sizeof *s->nodes)))
        abort();
    s->node_count = 5;
    for (int i = 0; i < 5; i++) {
        s->nodes[i].name = vks_skin_strndup(s, names[i], strlen(names[i]));
        s->nodes[i].parent = parents[i];
        s->nodes[i].bind_local = vks_affine_identity();
        memcpy(s->nodes[i].bind_local.m + 9, at[i], sizeof at[i]);
    }
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static vks_skin *skin;
    if (!skin)
        skin = skeleton();
    vks_clip_set *set = vks_fuzz_clip_read(vks_rtm_read, data, size);
    if (!set)
        return 0;
    const vks_clip *clip = &set->clips[0];
    vks_clip_binding b;
    vks_error err = {0};
    if (vks_clip_bind(clip, skin, &b, &err) == VKS_OK) {
        vks_affine locals[5];
        for (int k = 0; k <= 4; k++) {
            double t = clip->duration * k / 4.0;
            vks_clip_sample_locals(clip, &b, skin, (float)t, locals);
            vks_clip_sample_locals_d(clip, &b, skin, t, locals);
        }
        vks_clip_binding_free(&b);
    } else if (!err.msg[0]) {
        abort();
    }
    static const vks_clip_write_options forms[2] = {{0, 0, 3}, {5, 1, 3}};
    for (int f = 0; f < 2; f++) {
        uint8_t *bytes = NULL;
        size_t n = 0;
        vks_error we = {0};
        if (vks_rtm_write(clip, skin, &forms[f], &bytes, &n, &we) != VKS_OK) {
            if (!we.msg[0] || bytes)
                abort();
            continue;
        }
        vks_clip_set_free(vks_fuzz_clip_read(vks_rtm_read, bytes, n));
        free(bytes);
    }
    vks_clip_set_free(set);
    return 0;
}
