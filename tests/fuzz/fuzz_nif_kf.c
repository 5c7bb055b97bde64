/* libFuzzer harness for the NIF clip reader and the .kf writer: read under small limits ->
 * validate -> bind to a small skeleton (the sample and fixture node names) and sample in float
 * and double -> write back as 20.2.0.7, with compact B-splines and as 10.1.0.0 -> read those
 * -> free. A failure must carry a message and leave *out alone; a set the reader returns must
 * validate (fuzz_clip_check.h). The writer may refuse what the fuzzer made (a non-uniform
 * scale, B-splines in 10.1.0.0), but only with a message and no bytes.
 * Build: cmake -S . -B build-fuzz -DVKSKIN_FUZZ=ON -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ && cmake --build build-fuzz --target fuzz_nif_kf
 * Run:   build-fuzz/tests/fuzz_nif_kf -max_total_time=60 <corpus dir> tests/fuzz/nif_kf
 * Seeds: `test_nif_kf_robust --write-seeds tests/fuzz/nif_kf` (the hand fixture and its written
 * forms); the replay in CTest adds the real samples. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_clip_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static vks_skin *skeleton(void)
{
    static const char *const names[] = {"Bip01", "Bip01 Pelvis", "Bip01 Spine", "A", "B", "C", "D",
                                        "E",     "F",            "G",           "Box01", "Test", "Test NonAccum"};
    enum { N = sizeof names / sizeof names[0] };
    vks_skin *s = vks_skin_create(NULL);
    if (!s || !(s->nodes = vks_skin_alloc_array(s, N, sizeof *s->nodes)))
        abort();
    s->node_count = N;
    for (int i = 0; i < N; i++) {
        s->nodes[i].name = vks_skin_strndup(s, names[i], strlen(names[i]));
        s->nodes[i].parent = i ? 0 : -1;
        s->nodes[i].bind_local = vks_affine_identity();
        s->nodes[i].bind_local.m[9] = 0.1f * (float)i;
    }
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static vks_skin *skin;
    if (!skin)
        skin = skeleton();
    vks_clip_set *set = vks_fuzz_clip_read(vks_nif_kf_read, data, size);
    if (!set)
        return 0;
    vks_affine locals[16];
    for (uint32_t c = 0; c < set->clip_count; c++) {
        const vks_clip *clip = &set->clips[c];
        vks_clip_binding b;
        vks_error err = {0};
        if (vks_clip_bind(clip, skin, &b, &err) != VKS_OK) {
            if (!err.msg[0])
                abort();
            continue;
        }
        for (int k = -1; k <= 5; k++) {
            double t = clip->duration * k / 4.0;
            vks_clip_sample_locals(clip, &b, skin, (float)t, locals);
            vks_clip_sample_locals_d(clip, &b, skin, t, locals);
        }
        vks_clip_binding_free(&b);
    }
    static const vks_clip_write_options forms[3] = {{0x14020007u, 0, 0}, {0x14020007u, 1, 0}, {0x0A010000u, 0, 0}};
    for (int f = 0; f < 3; f++) {
        uint8_t *bytes = NULL;
        size_t n = 0;
        vks_error we = {0};
        if (vks_nif_kf_write(set, skin, &forms[f], &bytes, &n, &we) != VKS_OK) {
            if (!we.msg[0] || bytes)
                abort();
            continue;
        }
        vks_clip_set_free(vks_fuzz_clip_read(vks_nif_kf_read, bytes, n));
        free(bytes);
    }
    vks_clip_set_free(set);
    return 0;
}
