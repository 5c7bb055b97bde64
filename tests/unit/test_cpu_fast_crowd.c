/* The fast engine's crowd loops (src/cpu/fast_crowd.h): with enough instances each kernel
 * deforms a unit of 4 (baseline) or 8 (AVX2, AVX-512) instances at a time, an instance in
 * each vector lane, and the rest one at a time. Each lane computes what the kernel's vertex loop
 * computes for its instance, so a run must give the same bits with the crowd loop as without it
 * (VKSKIN_CPU_CROWD=off), on:
 *   - generated characters of 1..4 influences, in one group and in groups of 12 bones,
 *   - the tube of 5..8 influences beside a mesh of 4 (slots 4..7 in their own table),
 *   - renormalised normals, a mesh without normals (zeros), positions only,
 *   - empty slots whose index points past the palette (never read),
 *   - morph targets at non-zero default weights (the records made from the moved rest),
 * with instance counts that leave a tail of single instances, on 1, 2 and 3 threads, on every
 * kernel this CPU has; vks__cpu_fast_crowd_lanes says the crowd loop ran (and did not, with it
 * off). One run per model is also held against the reference. A lane's outputs stored to the
 * wrong instance, a row or a slot mixed up, or a vertex's last bytes past its range all change
 * the bits. */
#include "testutil.h"

#include "character.h"
#include "cpu/fast_internal.h"
#include "eight_tube.h"
#include "morph_fixture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A run of the fast engine into fresh outputs (filled with a marker first: every float must be
 * written); NULL normals for positions only. */
static int run(const vks_skin *s, const vks_affine *locals, uint32_t n, int threads, float *pos, float *nrm,
               int crowd, uint32_t *lanes)
{
    size_t nf = (size_t)n * s->vertex_count * 3;
    for (size_t i = 0; i < nf; i++) {
        pos[i] = 12345.0f;
        if (nrm)
            nrm[i] = 12345.0f;
    }
    if (crowd)
        unsetenv("VKSKIN_CPU_CROWD");
    else
        setenv("VKSKIN_CPU_CROWD", "off", 1);
    vks_deform_job job = {s, locals, n, pos, nrm, NULL};
    *lanes = vks__cpu_fast_crowd_lanes(&job, threads);
    vks_error err = {0};
    int ok = vks_cpu_fast_run(&job, threads, &err) == VKS_OK;
    unsetenv("VKSKIN_CPU_CROWD");
    return ok;
}

/* n instances on threads threads: the crowd loop's bits against the vertex loop's, and (ref)
 * both against the reference. */
static void same_bits(const vks_skin *s, uint32_t n, int threads, int with_n, int ref, const char *what)
{
    size_t nl = (size_t)n * s->node_count, nf = (size_t)n * s->vertex_count * 3;
    vks_affine *locals = malloc(nl * sizeof *locals);
    float *cp = malloc(nf * sizeof *cp), *cn = malloc(nf * sizeof *cn);
    float *op = malloc(nf * sizeof *op), *on = malloc(nf * sizeof *on);
    CHECK(locals && cp && cn && op && on);
    if (!(locals && cp && cn && op && on))
        goto out;
    for (uint32_t i = 0; i < n; i++)
        vks_pose_procedural(s, 7, i, 0.13f * (float)i, 0.0f, locals + (size_t)i * s->node_count);
    uint32_t lanes_on = 0, lanes_off = 0;
    CHECK(run(s, locals, n, threads, cp, with_n ? cn : NULL, 1, &lanes_on));
    CHECK(run(s, locals, n, threads, op, with_n ? on : NULL, 0, &lanes_off));
    CHECK(lanes_on > 0);
    CHECK_EQ_INT(lanes_off, 0);
    CHECK(!memcmp(cp, op, nf * sizeof *cp));
    if (with_n)
        CHECK(!memcmp(cn, on, nf * sizeof *cn));
    uint64_t differ = 0;
    for (size_t i = 0; i < nf; i++)
        differ += memcmp(&cp[i], &op[i], sizeof *cp) != 0 || (with_n && memcmp(&cn[i], &on[i], sizeof *cn) != 0);
    fprintf(stderr, "  %s: %u instances (units of %u), %d threads%s: %llu floats differ\n", what, n, lanes_on, threads,
            with_n ? "" : ", positions only", (unsigned long long)differ);
    if (ref) {
        vks_error err = {0};
        vks_deform_job job = {s, locals, n, op, on, NULL};
        CHECK(vks_cpu_reference_run(&job, &err) == VKS_OK);
        vks_diff_tolerance tp = vks_diff_default_tolerance(), tn = vks_diff_default_normal_tolerance();
        vks_diff_report dp, dn;
        vks_diff(cp, op, n, s->vertex_count, vks_skin_error_scale(s), &tp, &dp);
        vks_diff(cn, on, n, s->vertex_count, 1.0, &tn, &dn);
        fprintf(stderr, "    against the reference: pos max %.3g, nrm max %.3g\n", dp.max_abs, dn.max_abs);
        CHECK(dp.pass && (!with_n || dn.pass));
    }
out:
    free(locals), free(cp), free(cn), free(op), free(on);
}

/* Instance counts for the kernel's units: enough units for threads (each slice of a unit an
 * item, four items a thread), plus a tail of single instances. */
static void counts(const vks_skin *s, const char *what, int with_n, int ref)
{
    static const int threads[] = {1, 2, 3};
    for (int t = 0; t < 3; t++) {
        /* the kernel's lanes: ask with plenty of instances, then size the run from them */
        vks_deform_job probe = {s, NULL, 4096, NULL, NULL, NULL};
        uint32_t lanes = vks__cpu_fast_crowd_lanes(&probe, threads[t]);
        CHECK(lanes == 4 || lanes == 8 || lanes == 16);
        if (!lanes)
            return;
        uint32_t slices = s->vertex_count > 2048 ? s->vertex_count / 1024 : 1;
        uint32_t units = ((uint32_t)threads[t] * 4 + slices - 1) / slices;
        same_bits(s, units * lanes + 3 + (uint32_t)t, threads[t], with_n, ref && t == 1, what);
    }
}

/* The model as it comes, then its variants (test_cpu_fast's): renormalised normals, no normals,
 * positions only, empty slots pointing past the palette. */
static void variants(vks_skin *s, const char *what)
{
    counts(s, what, 1, 1);
    counts(s, "  positions only", 0, 0);
    uint32_t flags = s->meshes[0].flags;
    s->meshes[0].flags |= VKS_MESH_RENORMALIZE;
    counts(s, "  renormalised normals", 1, 1);
    s->meshes[0].flags = flags & ~(uint32_t)VKS_MESH_HAS_NORMALS;
    counts(s, "  a mesh without normals", 1, 0);
    s->meshes[0].flags = flags;
    for (uint32_t v = 0; v < s->vertex_count; v++)
        for (int k = 0; k < VKS_MAX_INFLUENCES; k++)
            if (!(s->influences[v].weight[k] > 0)) {
                s->influences[v].index[k] = 0xFFFF;
                s->influences[v].weight[k] = v % 3 == 0 ? (float)NAN : v % 3 == 1 ? -0.0f : -1.0f;
            }
    counts(s, "  empty slots past the palette", 1, 0);
}

static void one_kernel(void)
{
    vks_error err = {0};
    for (uint32_t k = 1; k <= 4; k++) {
        vks_gen_params p = {0};
        p.vertices = k == 2 ? 1500 : 3000, p.max_influences = k, p.palette_limit = k % 2 ? 0 : 12, p.seed = 40 + k;
        vks_skin *s = vks_gen_character(&p, &err);
        CHECK(s != NULL);
        if (!s)
            continue;
        char what[64];
        snprintf(what, sizeof what, "%u influences, %u groups, %u vertices", k, s->group_count, s->vertex_count);
        variants(s, what);
        vks_skin_free(s);
    }
    vks_skin *t = eight_tube(100, 24);
    CHECK(t != NULL);
    if (t) {
        variants(t, "5..8 influences beside 4");
        vks_skin_free(t);
    }
    vks_gen_params p = {0};
    p.vertices = 2500, p.seed = 7;
    vks_skin *m = vks_gen_character(&p, &err);
    CHECK(m && morph_fixture_targets(m, 3));
    if (m && m->target_count) {
        for (uint32_t i = 0; i < m->target_count; i++)
            m->targets[i].default_weight = 0.25f + 0.25f * (float)i;
        counts(m, "morph targets at default weights", 1, 1);
    }
    vks_skin_free(m);
}

int main(void)
{
    static const char *paths[] = {"baseline", "avx2", "avx512"};
    for (int pi = 0; pi < 3; pi++) {
        if (!vks_cpu_fast_set_path(paths[pi])) {
            fprintf(stderr, "kernel %s: not on this CPU or build, skipped\n", paths[pi]);
            continue;
        }
        fprintf(stderr, "kernel %s\n", paths[pi]);
        one_kernel();
    }
    return vks_test_finish("test_cpu_fast_crowd");
}
