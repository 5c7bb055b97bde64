/* Morph targets on every CPU path (skin.h, MORPH TARGETS), on a generated character given three
 * targets here (a smooth dense one with normal deltas, one of positions only, one that moves
 * only some vertices):
 *   - the reference at the bind pose moves each vertex by exactly p + sum w dp (the morph
 *     stage alone, worked out here in double), with 3 targets and with 100 (75 active, more
 *     than it gathers at once), and weights NULL and an array of the defaults give the same
 *     bits;
 *   - the fast engine against the reference with weights per instance (zero, negative, above
 *     one; 2 and 13 instances, 1 and 3 threads, every kernel this CPU has), and with default
 *     weights only (the rest moved once per run);
 *   - vks_skin_validate refuses a target range that does not cover the meshes and a delta that
 *     is not finite. */
#include "testutil.h"

#include "character.h"
#include "morph_fixture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* At the bind pose the skinning gives the rest back, so the reference's output is the morph
 * stage: p + sum w dp, within float rounding of the skinning. Weights 0.5, -1.25, 2, 0, ...
 * (every fourth target off, so that a mesh with many has more than the 64 the reference
 * gathers at once active). */
static void reference_morph_stage(const vks_skin *s)
{
    vks_affine *locals = malloc(s->node_count * sizeof *locals);
    float *pos = malloc((size_t)s->vertex_count * 3 * sizeof *pos), *w = malloc(s->target_count * sizeof *w);
    CHECK(locals && pos && w);
    static const float cycle[4] = {0.5f, -1.25f, 2.0f, 0.0f};
    for (uint32_t t = 0; t < s->target_count; t++)
        w[t] = cycle[t % 4] / (s->target_count > 3 ? 16.0f : 1.0f);
    vks_pose_bind(s, locals);
    vks_deform_job j = {s, locals, 1, pos, NULL, w};
    vks_error err = {0};
    CHECK(vks_cpu_reference_run(&j, &err) == VKS_OK);
    double worst = 0, tol = 1e-5 * vks_skin_bounding_radius(s);
    const vks_mesh *me = &s->meshes[0];
    for (uint32_t v = me->first_vertex; v < me->first_vertex + me->vertex_count; v++)
        for (int k = 0; k < 3; k++) {
            double want = s->positions[v][k];
            for (uint32_t t = 0; t < s->target_count; t++)
                want += w[t] * (double)s->targets[t].position[v - me->first_vertex][k];
            double e = fabs(pos[v * 3 + k] - want);
            worst = e > worst ? e : worst;
        }
    fprintf(stderr, "  reference at bind, %u targets: morph stage within %.3g (tolerance %.3g)\n", s->target_count,
            worst, tol);
    CHECK(worst <= tol);
    free(locals), free(pos), free(w);
}

/* Fast against reference over instances with weights per instance (per_instance) or the
 * defaults; with the defaults, NULL weights and an array of them give the reference's same bits. */
static void compare(const vks_skin *s, uint32_t instances, int threads, int per_instance)
{
    size_t nf = (size_t)instances * s->vertex_count * 3;
    vks_affine *locals = malloc((size_t)instances * s->node_count * sizeof *locals);
    float *w = malloc((size_t)instances * 3 * sizeof *w);
    float *fp = malloc(nf * sizeof *fp), *fn = malloc(nf * sizeof *fn), *rp = malloc(nf * sizeof *rp);
    float *rn = malloc(nf * sizeof *rn), *dp = malloc(nf * sizeof *dp);
    CHECK(locals && w && fp && fn && rp && rn && dp);
    for (uint32_t i = 0; i < instances; i++) {
        vks_pose_procedural(s, 5, i, 0.1f * (float)i, 0.0f, locals + (size_t)i * s->node_count);
        for (uint32_t t = 0; t < 3; t++)
            w[i * 3 + t] = per_instance ? (float)((int)((i * 3 + t) % 5) - 1) * 0.75f : s->targets[t].default_weight;
    }
    vks_deform_job ref = {s, locals, instances, rp, rn, w}, fast = {s, locals, instances, fp, fn, w};
    vks_error err = {0};
    CHECK(vks_cpu_reference_run(&ref, &err) == VKS_OK);
    CHECK(vks_cpu_fast_run(&fast, threads, &err) == VKS_OK);
    if (!per_instance) { /* NULL: the defaults, the same bits */
        vks_deform_job dflt = {s, locals, instances, dp, NULL, NULL};
        CHECK(vks_cpu_reference_run(&dflt, &err) == VKS_OK);
        for (size_t i = 0; i < nf && !per_instance; i++)
            if (dp[i] != rp[i]) {
                CHECK(!"default weights: NULL and the defaults differ");
                break;
            }
    }
    vks_diff_tolerance tp = vks_diff_default_tolerance(), tn = vks_diff_default_normal_tolerance();
    vks_diff_report rpos, rnrm;
    vks_diff(fp, rp, instances, s->vertex_count, vks_skin_error_scale(s), &tp, &rpos);
    vks_diff(fn, rn, instances, s->vertex_count, 1.0, &tn, &rnrm);
    fprintf(stderr, "  %u instances, %d threads, %s: pos max %.3g, nrm max %.3g\n", instances, threads,
            per_instance ? "weights per instance" : "default weights", rpos.max_abs, rnrm.max_abs);
    CHECK(rpos.pass && rnrm.pass);
    free(locals), free(w), free(fp), free(fn), free(rp), free(rn), free(dp);
}

static void refusals(vks_skin *s)
{
    vks_error err = {0};
    CHECK(vks_skin_validate(s, &err) == VKS_OK);
    s->meshes[0].target_count = 2; /* the third target belongs to no mesh */
    CHECK(vks_skin_validate(s, &err) != VKS_OK && strstr(err.msg, "targets"));
    s->meshes[0].target_count = 3;
    err = (vks_error){0}; /* a set error is kept: the first one is the cause */
    float keep = s->targets[1].position[3][1];
    s->targets[1].position[3][1] = NAN;
    CHECK(vks_skin_validate(s, &err) != VKS_OK);
    fprintf(stderr, "  a NaN delta: %s: %s\n", err.path, err.msg);
    CHECK(strstr(err.msg, "not finite") != NULL);
    s->targets[1].position[3][1] = keep;
    err = (vks_error){0};
    CHECK(vks_skin_validate(s, &err) == VKS_OK);
}

int main(void)
{
    vks_error err = {0};
    vks_gen_params p = {0};
    p.vertices = 3000, p.palette_limit = 12, p.seed = 3;
    vks_skin *s = vks_gen_character(&p, &err);
    CHECK(s && morph_fixture_targets(s, 3));
    if (!s)
        return vks_test_finish("test_morph_engines");
    fprintf(stderr, "%u vertices, %u groups, mesh 0 has %u\n", s->vertex_count, s->group_count,
            s->meshes[0].vertex_count);
    refusals(s);
    reference_morph_stage(s);
    static const char *paths[] = {"baseline", "avx2"};
    for (int pi = 0; pi < 2; pi++) {
        if (!vks_cpu_fast_set_path(paths[pi]))
            continue;
        fprintf(stderr, "kernel %s\n", paths[pi]);
        compare(s, 2, 3, 1);
        compare(s, 13, 1, 1);
        compare(s, 13, 3, 1);
        s->targets[0].default_weight = 0.75f, s->targets[2].default_weight = -0.5f;
        compare(s, 2, 3, 0);
        compare(s, 13, 3, 0);
        s->targets[0].default_weight = s->targets[2].default_weight = 0;
    }
    vks_skin_free(s);
    /* 100 targets, 75 of them active: more than the reference gathers at once */
    s = vks_gen_character(&p, &err);
    CHECK(s && morph_fixture_targets(s, 100));
    if (s) {
        CHECK(vks_skin_validate(s, &err) == VKS_OK);
        reference_morph_stage(s);
        vks_skin_free(s);
    }
    return vks_test_finish("test_morph_engines");
}
