/* libFuzzer harness for the NintendoWare .cskla reader and writer: read (small limits, so
 * hostile sizes stop early) -> validate -> bind every clip to a small skeleton and sample it
 * (float and double) -> write the set back on that skeleton -> read that. A failure must
 * carry a message and leave *out alone; a set the reader returns must validate; the writer
 * may refuse a set (tracks that bind nothing) only with a message.
 * Build: cmake -S . -B build-fuzz -DVKSKIN_FUZZ=ON -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ && cmake --build build-fuzz --target fuzz_cskla
 * Run:   build-fuzz/tests/fuzz_cskla -dict=tests/fuzz/cskla.dict -max_total_time=60 <corpus dir> tests/fuzz/cskla */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vkskin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The seeds' bones: a chain with a side branch. */
static vks_skin *skeleton(void)
{
    static const char *const names[4] = {"root", "arm", "hand", "head"};
    static const int32_t parents[4] = {-1, 0, 1, 0};
    vks_skin *s = vks_skin_create(NULL);
    if (!s || !(s->nodes = vks_skin_alloc_array(s, 4, sizeof *s->nodes)))
        abort();
    s->node_count = 4;
    for (int i = 0; i < 4; i++) {
        s->nodes[i].name = vks_skin_strndup(s, names[i], strlen(names[i]));
        s->nodes[i].parent = parents[i];
        s->nodes[i].bind_local = vks_affine_identity();
        s->nodes[i].bind_local.m[9 + i % 3] = 0.5f;
    }
    return s;
}

static void read_checked(const uint8_t *data, size_t size, vks_clip_set **out)
{
    vks_read_options opt = {0};
    opt.max_nodes = 256;
    opt.clip.max_keys = 1u << 14;
    opt.clip.max_clips = 16;
    vks_error err = {0};
    vks_clip_set *set = NULL;
    *out = NULL;
    if (vks_cskla_read(&opt, data, size, &set, &err) != VKS_OK) {
        if (!err.msg[0] || set)
            abort(); /* every failure says why, and returns nothing */
        return;
    }
    vks_error e2 = {0};
    if (!set || vks_clip_set_validate(set, &e2) != VKS_OK)
        abort(); /* a set the reader returns must validate */
    *out = set;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static vks_skin *skin;
    if (!skin)
        skin = skeleton();
    vks_clip_set *set;
    read_checked(data, size, &set);
    if (!set)
        return 0;
    for (uint32_t c = 0; c < set->clip_count; c++) {
        const vks_clip *clip = &set->clips[c];
        vks_clip_binding b;
        vks_error err = {0};
        if (vks_clip_bind(clip, skin, &b, &err) != VKS_OK) {
            if (!err.msg[0])
                abort();
            continue;
        }
        vks_affine locals[4];
        for (int k = 0; k <= 4; k++) {
            double t = clip->duration * k / 4.0;
            vks_clip_sample_locals(clip, &b, skin, (float)t, locals);
            vks_clip_sample_locals_d(clip, &b, skin, t, locals);
        }
        vks_clip_binding_free(&b);
    }
    uint8_t *bytes = NULL;
    size_t n = 0;
    vks_error we = {0};
    vks_clip_write_options wo = {0};
    wo.frames = 9; /* resampled curves stay small */
    if (vks_cskla_write(set, skin, &wo, &bytes, &n, &we) != VKS_OK) {
        if (!we.msg[0] || bytes)
            abort();
    } else {
        vks_clip_set *again;
        read_checked(bytes, n, &again);
        vks_clip_set_free(again);
        free(bytes);
    }
    vks_clip_set_free(set);
    return 0;
}
