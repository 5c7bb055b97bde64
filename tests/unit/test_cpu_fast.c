/* The fast CPU deformer against the reference: bind and procedural poses, 1..4 influences,
 * one and several groups, few instances (vertex slices) and many (instance split), 1 and 3
 * threads, on every kernel this CPU has (baseline always; AVX2+FMA where present, so both
 * paths are covered on any AVX2 machine); and a zeroed job is refused. */
#include "testutil.h"

#include "character.h"

#include <stdlib.h>
#include <string.h>

static void compare(const vks_skin *s, uint32_t instances, int bind, int threads)
{
    size_t nl = (size_t)instances * s->node_count, nf = (size_t)instances * s->vertex_count * 3;
    vks_affine *locals = malloc(nl * sizeof *locals);
    float *fp = malloc(nf * sizeof *fp), *fn = malloc(nf * sizeof *fn);
    float *rp = malloc(nf * sizeof *rp), *rn = malloc(nf * sizeof *rn);
    CHECK(locals && fp && fn && rp && rn);
    for (uint32_t i = 0; i < instances; i++) {
        if (bind)
            vks_pose_bind(s, locals + (size_t)i * s->node_count);
        else
            vks_pose_procedural(s, 9, i, 0.1f * (float)i, 0.0f, locals + (size_t)i * s->node_count);
    }
    vks_deform_job ref = {s, locals, instances, rp, rn}, fast = {s, locals, instances, fp, fn};
    vks_error err = {0};
    CHECK(vks_cpu_reference_run(&ref, &err) == VKS_OK);
    CHECK(vks_cpu_fast_run(&fast, threads, &err) == VKS_OK);
    vks_diff_tolerance tp = vks_diff_default_tolerance(), tn = vks_diff_default_normal_tolerance();
    vks_diff_report dp, dn;
    vks_diff(fp, rp, instances, s->vertex_count, vks_skin_error_scale(s), &tp, &dp);
    vks_diff(fn, rn, instances, s->vertex_count, 1.0, &tn, &dn);
    fprintf(stderr, "  %u instances, %s, %d threads: pos max %.3g nmse %.3g over %llu, nrm max %.3g\n", instances,
            bind ? "bind" : "procedural", threads, dp.max_abs, dp.nmse, (unsigned long long)dp.over, dn.max_abs);
    CHECK(dp.pass && dn.pass);
    CHECK_EQ_INT(dp.compared, (uint64_t)nf);
    free(locals), free(fp), free(fn), free(rp), free(rn);
}

int main(void)
{
    vks_deform_job zero = {0};
    vks_error err = {0};
    CHECK(vks_cpu_fast_run(&zero, 1, &err) != VKS_OK);
    CHECK(!vks_cpu_fast_set_path("no such kernel"));
    static const char *paths[] = {"baseline", "avx2"};
    for (int pi = 0; pi < 2; pi++) {
        if (!vks_cpu_fast_set_path(paths[pi])) {
            fprintf(stderr, "kernel %s: not on this CPU or build, skipped\n", paths[pi]);
            continue;
        }
        CHECK(!strcmp(vks_cpu_fast_path(), paths[pi]));
        fprintf(stderr, "kernel %s\n", paths[pi]);
    for (uint32_t k = 1; k <= 4; k++) {
        vks_gen_params p = {0};
        p.vertices = 3000, p.max_influences = k, p.palette_limit = k % 2 ? 0 : 12, p.seed = k;
        vks_skin *s = vks_gen_character(&p, &err);
        CHECK(s != NULL);
        if (!s)
            continue;
        fprintf(stderr, "%u influences, %u groups\n", k, s->group_count);
        compare(s, 1, 1, 3);
        compare(s, 2, 0, 3);
        compare(s, 13, 0, 1);
        compare(s, 13, 0, 0);
        vks_skin_free(s);
    }
    }
    return vks_test_finish("test_cpu_fast");
}
