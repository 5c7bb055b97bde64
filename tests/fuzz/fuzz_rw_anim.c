/* libFuzzer harness for the RenderWare / GTA clip readers and writers (.anm, .ska, .ifp): every
 * input goes through all three readers (the .ska reader has no magic, so it sees everything
 * anyway). A failure must carry a message and return no set; a set must validate, bind to a
 * small skeleton and sample (float and double, every cycle), then be written back by its
 * format's writers and read again; any refusal along the way must carry a message.
 * Build: cmake -S . -B build-fuzz -DVKSKIN_FUZZ=ON -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++
 *        cmake --build build-fuzz --target fuzz_rw_anim
 * Run:   build-fuzz/tests/fuzz_rw_anim -max_total_time=60 <corpus dir> tests/fuzz/rw_anim */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_clip_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NODES 8

/* Eight nodes carrying names, tags 0..7 and animation indices 0..7, so tracks of every
   reader bind: .anm by index, .ifp by tag or name. */
static vks_skin *skeleton(void)
{
    static const char *const names[NODES] = {"Root",    " Pelvis", " Spine",  " L Thigh",
                                             " L Calf", " R Thigh", " R Calf", "Arm"};
    static const int32_t parents[NODES] = {-1, 0, 1, 1, 3, 1, 5, 2};
    vks_skin *s = vks_skin_create(NULL);
    if (!s || !(s->nodes = vks_skin_alloc_array(s, NODES, sizeof *s->nodes)))
        abort();
    s->node_count = NODES;
    for (int i = 0; i < NODES; i++) {
        vks_node *n = &s->nodes[i];
        n->name = vks_skin_strndup(s, names[i], strlen(names[i]));
        n->parent = parents[i];
        n->bind_local = vks_affine_identity();
        n->bind_local.m[10] = 0.25f * (float)(i > 0);
        n->tag = i, n->has_tag = 1;
        n->anim_index = i, n->has_anim_index = 1;
    }
    return s;
}

static void sample(const vks_clip *clip, const vks_skin *skin)
{
    vks_clip_binding b;
    vks_error err = {0};
    if (vks_clip_bind(clip, skin, &b, &err) != VKS_OK) {
        if (!err.msg[0])
            abort();
        return;
    }
    vks_affine locals[NODES];
    static const double at[] = {-1.0, 0.0, 0.3, 1.0, 2.5};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++)
        for (int cycle = VKS_CYCLE_LOOP; cycle <= VKS_CYCLE_RESET; cycle++) {
            double t = vks_clip_local_time(clip, (vks_cycle)cycle, at[i] * clip->duration);
            vks_clip_sample_locals(clip, &b, skin, (float)t, locals);
            vks_clip_sample_locals_d(clip, &b, skin, t, locals);
        }
    vks_clip_binding_free(&b);
}

/* A writer's result: a refusal says why; written bytes read back (or are refused with a message). */
static void reread(vks_result r, const vks_error *err, uint8_t *bytes, size_t n, vks_clip_reader_fn read)
{
    if (r != VKS_OK) {
        if (!err->msg[0] || bytes)
            abort();
        return;
    }
    vks_clip_set_free(vks_fuzz_clip_read(read, bytes, n));
    free(bytes);
}

static void check(vks_clip_reader_fn read, const vks_skin *skin, const uint8_t *data, size_t size)
{
    vks_clip_set *set = vks_fuzz_clip_read(read, data, size);
    if (!set)
        return;
    for (uint32_t c = 0; c < set->clip_count; c++)
        sample(&set->clips[c], skin);
    for (int form = 0; form < 4 && set->clip_count; form++) {
        vks_clip_write_options o = {0};
        uint8_t *bytes = NULL;
        size_t n = 0;
        vks_error err = {0};
        vks_result r;
        if (read == vks_ifp_read) {
            o.version = (uint32_t)form % 3 + 1, o.compressed = form == 3;
            r = vks_ifp_write(set, skin, &o, &bytes, &n, &err);
            reread(r, &err, bytes, n, vks_ifp_read);
        } else if (form < 3) {
            o.compressed = form == 1;
            r = form == 2 ? vks_rw_ska_write(&set->clips[0], skin, &o, &bytes, &n, &err)
                          : vks_rw_anm_write(&set->clips[0], skin, &o, &bytes, &n, &err);
            reread(r, &err, bytes, n, form == 2 ? vks_rw_ska_read : vks_rw_anm_read);
        }
    }
    vks_clip_set_free(set);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static vks_skin *skin;
    if (!skin)
        skin = skeleton();
    check(vks_rw_anm_read, skin, data, size);
    check(vks_rw_ska_read, skin, data, size);
    check(vks_ifp_read, skin, data, size);
    return 0;
}
