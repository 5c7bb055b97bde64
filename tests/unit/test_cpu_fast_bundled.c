/* The fast CPU engine on the bundled characters (datasets/: skinned, rigid parts, strips,
 * palette-limited groups, in every format the project reads), on every kernel this CPU has,
 * against the double-precision reference: procedural poses, positions and normals, within the
 * validation tolerances, and not a float written past the outputs. The generated characters of test_cpu_fast.c cover the influence counts;
 * these are the files users open. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

static const char *const models[] = {
    "datasets/char_b24_pl8.nif",          "datasets/char_b32_rigid.cmdl", "datasets/char_b48_pl20_strips.dff",
    "datasets/char_b64_i4.p3d",           "datasets/char_b24_pl8.cmdl",   "datasets/char_b32_rigid.nif",
};

/* Floats after each fast output that no kernel may write (a wide store past a range's end). */
enum { GUARD = 16 };

static int guards_intact(const float *out, size_t nf)
{
    for (size_t i = nf; i < nf + GUARD; i++)
        if (out[i] != -7.0f)
            return 0;
    return 1;
}

static void compare(const vks_skin *s, const char *name, uint32_t instances)
{
    size_t nl = (size_t)instances * s->node_count, nf = (size_t)instances * s->vertex_count * 3;
    vks_affine *locals = malloc(nl * sizeof *locals);
    float *fp = malloc((nf + GUARD) * sizeof *fp), *fn = malloc((nf + GUARD) * sizeof *fn);
    float *rp = malloc(nf * sizeof *rp), *rn = malloc(nf * sizeof *rn);
    CHECK(locals && fp && fn && rp && rn);
    if (!(locals && fp && fn && rp && rn))
        goto out;
    for (size_t i = nf; i < nf + GUARD; i++)
        fp[i] = fn[i] = -7.0f;
    for (uint32_t i = 0; i < instances; i++)
        vks_pose_procedural(s, 9, i, 0.1f * (float)i, 0.0f, locals + (size_t)i * s->node_count);
    vks_deform_job ref = {s, locals, instances, rp, rn, NULL}, fast = {s, locals, instances, fp, fn, NULL};
    vks_error err = {0};
    CHECK(vks_cpu_reference_run(&ref, &err) == VKS_OK);
    CHECK(vks_cpu_fast_run(&fast, 2, &err) == VKS_OK);
    vks_diff_tolerance tp = vks_diff_default_tolerance(), tn = vks_diff_default_normal_tolerance();
    vks_diff_report dp, dn;
    vks_diff(fp, rp, instances, s->vertex_count, vks_skin_error_scale(s), &tp, &dp);
    vks_diff(fn, rn, instances, s->vertex_count, 1.0, &tn, &dn);
    fprintf(stderr, "  %s (%u vertices, %u groups): pos max %.3g over %llu, nrm max %.3g over %llu\n", name,
            s->vertex_count, s->group_count, dp.max_abs, (unsigned long long)dp.over, dn.max_abs,
            (unsigned long long)dn.over);
    CHECK(dp.pass && dn.pass);
    CHECK(guards_intact(fp, nf) && guards_intact(fn, nf));
    CHECK_EQ_INT(dp.compared, (uint64_t)nf);
out:
    free(locals), free(fp), free(fn), free(rp), free(rn);
}

int main(void)
{
    vks_skin *skins[sizeof models / sizeof models[0]] = {0};
    for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
        vks_read_options o = {0};
        vks_error err = {0};
        CHECK_EQ_INT(vks_read_file(&o, vks_test_source_path(models[m]), &skins[m], &err), VKS_OK);
    }
    static const char *paths[] = {"baseline", "avx2", "avx512"};
    for (int pi = 0; pi < 3; pi++) {
        if (!vks_cpu_fast_set_path(paths[pi])) {
            fprintf(stderr, "kernel %s: not on this CPU or build, skipped\n", paths[pi]);
            continue;
        }
        fprintf(stderr, "kernel %s\n", paths[pi]);
        for (size_t m = 0; m < sizeof models / sizeof models[0]; m++)
            if (skins[m]) {
                compare(skins[m], models[m], 1); /* vertex slices, each thread its own records */
                compare(skins[m], models[m], 7); /* instances split, records shared */
            }
    }
    for (size_t m = 0; m < sizeof models / sizeof models[0]; m++)
        vks_skin_free(skins[m]);
    return vks_test_finish("test_cpu_fast_bundled");
}
