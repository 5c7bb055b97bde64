/* libFuzzer harness for the NIF reader: read -> validate -> bind check and a small CPU
 * reference deform -> free. Any crash, hang, over-read or unbounded allocation is a bug.
 *   cmake -S . -B build-fuzz -G Ninja -DVKSKIN_FUZZ=ON -DCMAKE_C_COMPILER=clang
 *   ninja -C build-fuzz fuzz_nif && ./build-fuzz/fuzz_nif tests/fuzz/nif ../shared/datasets/nif
 * Seeds: tests/fuzz/nif (small written files) and the real samples. */
#include <stdlib.h>

#include "vkskin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vks_read_options opt = {0};
    opt.max_vertices = 1u << 18;
    opt.max_triangles = 1u << 19;
    opt.max_nodes = 4096;
    vks_skin *s = NULL;
    vks_error err = {0};
    if (vks_nif_read(&opt, data, size, &s, &err) != VKS_OK) {
        if (!err.msg[0])
            abort(); /* every failure explains itself */
        return 0;
    }
    if (vks_skin_validate(s, &err) != VKS_OK)
        abort(); /* the reader must only return valid models */
    vks_bind_check bc;
    vks_cpu_bind_check(s, &bc, &err);
    if (s->vertex_count <= 65536 && s->node_count <= 4096) {
        vks_affine *locals = malloc(sizeof *locals * (s->node_count ? s->node_count : 1));
        float *out = malloc(sizeof(float) * 3 * (s->vertex_count ? s->vertex_count : 1));
        if (locals && out) {
            vks_pose_procedural(s, 1, 0, 0.5f, 0, locals);
            vks_deform_job j = {s, locals, 1, out, NULL};
            vks_cpu_reference_run(&j, &err);
        }
        free(locals);
        free(out);
    }
    vks_skin_free(s);
    return 0;
}
