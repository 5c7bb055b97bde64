/* The fast CPU deformer against the reference: bind and procedural poses, 1..4 influences and
 * a model with groups of 5..8 beside a group of 4 (eight_tube.h: slots 4..7 in their own table),
 * one and several groups, few instances (vertex slices, each thread making its own records)
 * and many (instance split, records shared by the threads), 1 and 3 threads, on every kernel
 * this CPU has (baseline always; AVX2+FMA where present, so both paths are covered on any AVX2
 * machine); positions only, renormalised normals, a mesh without normals (zeros), and empty
 * slots whose index points outside the palette (never read); and a zeroed job is refused. */
#include "testutil.h"

#include "character.h"
#include "eight_tube.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Output with normals (with_n) or positions only. */
static void compare_out(const vks_skin *s, uint32_t instances, int bind, int threads, int with_n)
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
    for (size_t i = 0; i < nf; i++)
        fn[i] = 12345.0f; /* every normal written, none left over */
    vks_deform_job ref = {s, locals, instances, rp, rn, NULL}, fast = {s, locals, instances, fp, with_n ? fn : NULL, NULL};
    vks_error err = {0};
    CHECK(vks_cpu_reference_run(&ref, &err) == VKS_OK);
    CHECK(vks_cpu_fast_run(&fast, threads, &err) == VKS_OK);
    vks_diff_tolerance tp = vks_diff_default_tolerance(), tn = vks_diff_default_normal_tolerance();
    vks_diff_report dp, dn = {0};
    vks_diff(fp, rp, instances, s->vertex_count, vks_skin_error_scale(s), &tp, &dp);
    if (with_n)
        vks_diff(fn, rn, instances, s->vertex_count, 1.0, &tn, &dn);
    else
        dn.pass = 1;
    fprintf(stderr, "  %u instances, %s, %d threads%s: pos max %.3g nmse %.3g over %llu, nrm max %.3g\n", instances,
            bind ? "bind" : "procedural", threads, with_n ? "" : ", positions only", dp.max_abs, dp.nmse,
            (unsigned long long)dp.over, dn.max_abs);
    CHECK(dp.pass && dn.pass);
    CHECK_EQ_INT(dp.compared, (uint64_t)nf);
    if (!with_n)
        for (size_t i = 0; i < nf; i++)
            if (fn[i] != 12345.0f) {
                CHECK(!"positions only: a normal was written");
                break;
            }
    free(locals), free(fp), free(fn), free(rp), free(rn);
}

static void compare(const vks_skin *s, uint32_t instances, int bind, int threads)
{
    compare_out(s, instances, bind, threads, 1);
}

/* The model as it comes, and with its mesh flags and empty slots changed: renormalised
 * normals, no normals (both engines write zeros), empty slots (weight 0, or NaN or negative in
 * a model not validated) carrying an index past the palette, which neither engine may read. */
static void variants(vks_skin *s)
{
    compare_out(s, 2, 0, 1, 0);
    compare_out(s, 13, 0, 2, 0);
    uint32_t flags = s->meshes[0].flags;
    s->meshes[0].flags |= VKS_MESH_RENORMALIZE;
    fprintf(stderr, " renormalised normals\n");
    compare(s, 1, 0, 2);
    compare(s, 13, 0, 2);
    s->meshes[0].flags = flags & ~(uint32_t)VKS_MESH_HAS_NORMALS;
    fprintf(stderr, " mesh without normals\n");
    compare(s, 1, 0, 2);
    compare(s, 13, 0, 2);
    s->meshes[0].flags = flags;
    uint32_t empty = 0;
    for (uint32_t v = 0; v < s->vertex_count; v++)
        for (int k = 0; k < VKS_MAX_INFLUENCES; k++)
            if (!(s->influences[v].weight[k] > 0)) {
                static const float odd[3] = {0.0f, -0.0f, -1.0f};
                s->influences[v].index[k] = 0xFFFF;
                s->influences[v].weight[k] = empty % 4 == 3 ? (float)NAN : odd[empty % 4 % 3];
                empty++;
            }
    fprintf(stderr, " %u empty slots pointing outside the palette\n", empty);
    compare(s, 1, 0, 2);
    compare(s, 13, 0, 2);
}

/* Bind and procedural poses; few instances (vertex slices) and many (shared records) on 1, 3
 * and every thread; then the model's variants. */
static void every_run(vks_skin *s)
{
    compare(s, 1, 1, 3);
    compare(s, 2, 0, 3);
    compare(s, 13, 0, 1);
    compare(s, 13, 0, 0);
    variants(s);
}

/* The tube of 5..8 influences a vertex: the builder's slots and group counts, then the same
 * comparisons as the generated characters (few and many instances, the empty slots). */
static void eight_influences(void)
{
    vks_skin *s = eight_tube(100, 24);
    CHECK(s != NULL);
    if (!s)
        return;
    CHECK_EQ_INT(s->mesh_count, 2);
    CHECK_EQ_INT(s->groups[s->meshes[0].first_group].max_influences, 8);
    CHECK_EQ_INT(s->groups[s->meshes[1].first_group].max_influences, 4);
    uint32_t ring0 = s->meshes[0].first_vertex; /* ring 0: 5 influences, largest first */
    CHECK(s->influences[ring0].weight[4] > 0 && s->influences[ring0].weight[5] == 0);
    CHECK(s->influences[ring0].weight[3] >= s->influences[ring0].weight[4]);
    CHECK_EQ_INT(vks_skin_vertices_over(s, 4), s->meshes[0].vertex_count);
    CHECK_EQ_INT(vks_skin_vertices_over(s, 8), 0);
    fprintf(stderr, "5..8 influences, %u groups, %u vertices\n", s->group_count, s->vertex_count);
    every_run(s);
    vks_skin_free(s);
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
        every_run(s);
        vks_skin_free(s);
    }
    eight_influences();
    }
    return vks_test_finish("test_cpu_fast");
}
