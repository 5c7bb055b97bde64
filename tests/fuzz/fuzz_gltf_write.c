/* libFuzzer harness for the glTF writer: whatever model the readers accept (any format, by
 * magic) and whatever clips the same bytes hold (a glTF's animations, a .nif's keyframes) are
 * written as glTF, .glb and .gltf, and as a two-frame glTF bake, all into /dev/null. A writer
 * failure on a model that validated is a finding (abort); out of memory is not.
 * Build: cmake -S . -B build-fuzz -DVKSKIN_FUZZ=ON -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ && ninja -C build-fuzz fuzz_gltf_write
 * Run:   build-fuzz/tests/fuzz_gltf_write -max_total_time=60 <corpus dir> tests/fuzz/gltf datasets */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void must(vks_result r)
{
    if (r != VKS_OK && r != VKS_ERR_NOMEM)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vks_read_options opt = vks_fuzz_options();
    vks_skin *s = NULL;
    vks_error err = {0};
    if (vks_read_any(&opt, data, size, NULL, &s, &err) != VKS_OK)
        return 0;
    if (vks_skin_validate(s, &err) != VKS_OK) {
        vks_skin_free(s);
        return 0;
    }
    /* the same bytes' clips, where they hold any, bound to the model */
    vks_clip_set *set = NULL;
    vks_clip_reader_fn read = vks_detect_clip_format(data, size, NULL, NULL);
    if (read && read(&opt, data, size, &set, &err) != VKS_OK)
        set = NULL;
    uint32_t n = set ? set->clip_count : 0, used = 0;
    vks_gltf_clip *clips = calloc(n + 1, sizeof *clips);
    vks_clip_binding *b = calloc(n + 1, sizeof *b);
    for (uint32_t i = 0; clips && b && i < n; i++)
        if (vks_clip_bind(&set->clips[i], s, &b[used], &err) == VKS_OK)
            clips[used] = (vks_gltf_clip){&set->clips[i], &b[used], NULL}, used++;
    vks_gltf_options o = {0};
    o.fps = 10;
    o.container = VKS_GLTF_GLB;
    must(vks_gltf_write_skin("/dev/null", s, clips, used, &o, NULL, &err));
    o.container = VKS_GLTF_EMBEDDED;
    must(vks_gltf_write_skin("/dev/null", s, clips, used, &o, NULL, &err));
    /* a bake of two frames: the bind pose twice */
    vks_bake *bake = NULL;
    if (vks_bake_open(&bake, "/dev/null", VKS_BAKE_GLB, s, 1, 2, &err) == VKS_OK) {
        for (uint32_t f = 0; f < 2; f++)
            must(vks_bake_write(bake, 0, f, &s->positions[0][0], s->normals ? &s->normals[0][0] : NULL, &err));
        must(vks_bake_close(bake, 1, &err));
    }
    for (uint32_t i = 0; b && i < used; i++)
        vks_clip_binding_free(&b[i]);
    free(clips), free(b);
    vks_clip_set_free(set);
    vks_skin_free(s);
    return 0;
}
