/* libFuzzer harness for the .cmdl reader: read -> validate -> bind check and one procedural
 * pose through the CPU reference (models capped in size) -> free. Every failure must carry a
 * message; an accepted model must validate.
 * Build: cmake -DVKSKIN_FUZZ=ON -DCMAKE_C_COMPILER=clang; run:
 *   fuzz_cmdl -dict=tests/fuzz/cmdl.dict tests/fuzz/cmdl tests/data/cmdl */
#include <stdint.h>
#include <stdlib.h>

#include "vkskin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vks_read_options opt = {0};
    opt.max_vertices = 1u << 16;
    opt.max_triangles = 1u << 17;
    opt.max_nodes = 1024;
    opt.max_meshes = 64;
    vks_skin *s = NULL;
    vks_error err = {0};
    if (vks_cmdl_read(&opt, data, size, &s, &err) != VKS_OK) {
        if (!err.msg[0] || s)
            abort();
        return 0;
    }
    vks_error e2 = {0};
    if (vks_skin_validate(s, &e2) != VKS_OK)
        abort();
    if (s->vertex_count <= 4096 && s->node_count <= 256) {
        vks_bind_check bc;
        vks_cpu_bind_check(s, &bc, &e2);
        vks_affine *locals = malloc(s->node_count * sizeof *locals);
        float *pos = malloc((size_t)s->vertex_count * 3 * sizeof *pos + 1);
        float *nrm = malloc((size_t)s->vertex_count * 3 * sizeof *nrm + 1);
        if (locals && pos && nrm) {
            vks_pose_procedural(s, 1, 0, 0.5f, 0.0f, locals);
            vks_deform_job j = {s, locals, 1, pos, nrm};
            vks_cpu_reference_run(&j, &e2);
        }
        free(locals), free(pos), free(nrm);
    }
    vks_skin_free(s);
    return 0;
}
