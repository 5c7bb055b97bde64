/* The contract every reader's fuzz harness checks, in one place: read the bytes; a failure
 * must carry a message and leave *out alone; a success must validate, survive the bind-pose
 * check and a procedural deform on the CPU reference, and free cleanly. A violation aborts,
 * which libFuzzer reports as a finding. */
#ifndef VKS_FUZZ_CHECK_H
#define VKS_FUZZ_CHECK_H

#include <stdint.h>
#include <stdlib.h>

#include "vkskin.h"

/* Limits small enough that every input stays cheap; the checks against them are exercised. */
static inline vks_read_options vks_fuzz_options(void)
{
    vks_read_options opt = {0};
    opt.max_vertices = 1u << 16;
    opt.max_triangles = 1u << 17;
    opt.max_nodes = 1024;
    opt.max_meshes = 64;
    return opt;
}

static inline void vks_fuzz_check(vks_reader_fn read, const vks_read_options *opt, const uint8_t *data,
                                  size_t size)
{
    vks_skin *s = NULL;
    vks_error err = {0};
    if (read(opt, data, size, &s, &err) != VKS_OK) {
        if (!err.msg[0] || s)
            abort(); /* every failure says why, and returns nothing */
        return;
    }
    vks_error e2 = {0};
    if (vks_skin_validate(s, &e2) != VKS_OK)
        abort(); /* a model the reader returns must validate */
    vks_bind_check bc;
    vks_cpu_bind_check(s, &bc, &e2);
    vks_affine *locals = malloc((s->node_count ? s->node_count : 1) * sizeof *locals);
    float *pos = malloc(((size_t)s->vertex_count * 3 + 1) * sizeof *pos);
    float *nrm = malloc(((size_t)s->vertex_count * 3 + 1) * sizeof *nrm);
    if (locals && pos && nrm) {
        vks_pose_procedural(s, 1, 0, 0.5f, 0.0f, locals);
        vks_deform_job j = {s, locals, 1, pos, nrm, NULL};
        vks_cpu_reference_run(&j, &e2);
    }
    free(locals), free(pos), free(nrm);
    vks_skin_free(s);
}

#endif
