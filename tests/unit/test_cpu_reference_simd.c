/* The CPU reference's AVX2 form against its scalar loop, the definition (reference.c): the same
 * floats bit for bit. On the bundled datasets (every format, their meshes and groups; the
 * P3D's 595 vertices an odd count) and on generated skins (1..4 influences, one group and
 * several, several meshes; and one with a group of 8 beside groups of 4), in the bind pose and
 * procedural poses; with normals as they come, renormalised, without normals, and positions
 * only; with empty slots (weight 0, -0, negative or NaN, in any slot) whose index points outside
 * the palette, and positive weights past a group's max_influences (never read: the compact
 * records of a run of several instances zero them); and the group loops, on the skin's records
 * and on the compact ones, on matrices, positions and normals whose sums cancel, where one
 * operation out of order in one lane changes a float and fails. Skipped (77) where the CPU or
 * the build has no AVX2 form. */
#include "testutil.h"

#include "character.h"
#include "core/cpu_features.h"
#include "cpu/reference_internal.h"
#include "morph_fixture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t checked; /* components compared, for the log */
static const float *job_weights; /* the jobs' morph weights (deform.h; NULL: the defaults) */

/* Both forms on the same poses; with_n: normals wanted. */
static void same_bits(const char *what, const vks_skin *s, uint32_t instances, int bind, int with_n)
{
    size_t nl = (size_t)instances * s->node_count, nf = (size_t)instances * s->vertex_count * 3;
    vks_affine *locals = malloc((nl ? nl : 1) * sizeof *locals);
    float *sp = malloc(nf * sizeof *sp + 1), *sn = malloc(nf * sizeof *sn + 1);
    float *vp = malloc(nf * sizeof *vp + 1), *vn = malloc(nf * sizeof *vn + 1);
    CHECK(locals && sp && sn && vp && vn);
    for (uint32_t i = 0; i < instances; i++) {
        if (bind)
            vks_pose_bind(s, locals + (size_t)i * s->node_count);
        else
            vks_pose_procedural(s, 7, i, 0.37f * (float)i + 0.1f, 0.0f, locals + (size_t)i * s->node_count);
    }
    memset(sp, 0xA5, nf * sizeof *sp), memset(vp, 0x5A, nf * sizeof *vp); /* every float written */
    memset(sn, 0xA5, nf * sizeof *sn), memset(vn, 0x5A, nf * sizeof *vn);
    vks_deform_job scalar = {s, locals, instances, sp, with_n ? sn : NULL, job_weights};
    vks_deform_job simd = {s, locals, instances, vp, with_n ? vn : NULL, job_weights};
    vks_error err = {0};
    CHECK(vks__cpu_reference_run_path(&scalar, NULL, 0, &err) == VKS_OK);
    CHECK(vks__cpu_reference_run_path(&simd, NULL, 1, &err) == VKS_OK);
    size_t bad = nf;
    for (size_t i = 0; i < nf && bad == nf; i++)
        if (memcmp(&sp[i], &vp[i], sizeof(float)) || (with_n && memcmp(&sn[i], &vn[i], sizeof(float))))
            bad = i;
    if (bad < nf)
        fprintf(stderr, "FAIL %s: component %zu (vertex %zu, lane %zu): position %a vs %a, normal %a vs %a\n", what,
                bad, bad / 3 % s->vertex_count, bad % 3, sp[bad], vp[bad], sn[bad], vn[bad]);
    CHECK(bad == nf);
    checked += nf * (with_n ? 2 : 1);
    free(locals), free(sp), free(sn), free(vp), free(vn);
}

/* Values whose sums cancel: a sign, a mantissa of 1, 1.25 or 1.5 and a scale of 2^-24, 1 or
 * 2^24, so that products of the same magnitude and opposite signs are frequent and cancel
 * exactly, and whatever was added before or after them shows which order the adds ran in. */
static uint64_t rng = 0x9E3779B97F4A7C15ull;
static double wide(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    static const double mant[3] = {1.0, 1.25, 1.5};
    return (rng >> 63 ? -1 : 1) * ldexp(mant[(rng >> 40) % 3], 24 * ((int)((rng >> 20) % 3) - 1));
}

/* The first float where positions a, b or normals c, d differ in their bits; n where none. */
static size_t first_unequal(const float *a, const float *b, const float *c, const float *d, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (memcmp(&a[i], &b[i], sizeof(float)) || memcmp(&c[i], &d[i], sizeof(float)))
            return i;
    return n;
}

/* The group loops themselves on cancelling matrices, positions and normals (poses alone give
 * sums whose roundings rarely reach the float): one lane's operations in another order fail
 * here. The skin's positions and normals are overwritten. */
static void cancelling(const char *what, vks_skin *s)
{
    vks_affine_d *K = malloc((s->bone_count ? s->bone_count : 1) * sizeof *K);
    vks__ref_cols *cols = malloc((s->bone_count ? s->bone_count : 1) * sizeof *cols);
    size_t nf = (size_t)s->vertex_count * 3;
    float *sp = malloc(nf * sizeof *sp + 1), *sn = malloc(nf * sizeof *sn + 1);
    float *vp = malloc(nf * sizeof *vp + 1), *vn = malloc(nf * sizeof *vn + 1);
    float *cp = malloc(nf * sizeof *cp + 1), *cn = malloc(nf * sizeof *cn + 1);
    vks__ref_infl4 *in4 = malloc((vks__ref_compact_count(s) + 1) * sizeof *in4);
    CHECK(K && cols && sp && sn && vp && vn && cp && cn && in4);
    vks__ref_compact(s, in4);
    for (uint32_t b = 0; b < s->bone_count; b++)
        for (int i = 0; i < 12; i++)
            K[b].m[i] = wide();
    for (uint32_t v = 0; v < s->vertex_count; v++)
        for (int i = 0; i < 3; i++) {
            s->positions[v][i] = (float)wide();
            if (s->normals)
                s->normals[v][i] = (float)wide();
        }
    vks__ref_columns(K, s->bone_count, cols);
    for (int renorm = 0; renorm < 2; renorm++) {
        for (uint32_t m = 0; m < s->mesh_count; m++)
            s->meshes[m].flags = renorm ? s->meshes[m].flags | VKS_MESH_RENORMALIZE
                                        : s->meshes[m].flags & ~(uint32_t)VKS_MESH_RENORMALIZE;
        memset(sp, 0xA5, nf * sizeof *sp), memset(vp, 0x5A, nf * sizeof *vp);
        memset(sn, 0xA5, nf * sizeof *sn), memset(vn, 0x5A, nf * sizeof *vn);
        memset(cp, 0x3C, nf * sizeof *cp), memset(cn, 0x3C, nf * sizeof *cn);
        const vks__ref_infl4 *own = in4;
        for (uint32_t g = 0; g < s->group_count; g++) {
            const vks_group *gr = &s->groups[g];
            vks__ref_group_scalar(s, gr, K, sp, sn);
            vks__ref_group_avx2(s, gr, cols, NULL, vp, vn);
            int compact = vks__ref_slots(gr) <= 4; /* the compact records where a run would take them */
            vks__ref_group_avx2(s, gr, cols, compact ? own : NULL, cp, cn);
            own += compact ? gr->vertex_count : 0;
        }
        for (int form = 0; form < 2; form++) {
            const float *fp = form ? cp : vp, *fn = form ? cn : vn;
            size_t bad = first_unequal(sp, fp, sn, fn, nf);
            if (bad < nf)
                fprintf(stderr, "FAIL %s, cancelling sums%s, %s records: vertex %zu lane %zu: position %a vs %a, "
                        "normal %a vs %a\n", what, renorm ? ", renormalised" : "", form ? "compact" : "the skin's",
                        bad / 3, bad % 3, sp[bad], fp[bad], sn[bad], fn[bad]);
            CHECK(bad == nf);
            checked += 2 * nf;
        }
    }
    free(K), free(cols), free(sp), free(sn), free(vp), free(vn), free(cp), free(cn), free(in4);
}

/* The crowd loops (reference_lanes.c) on cancelling values, as cancelling() the vertex loop:
 * four (AVX2) or eight (AVX-512) instances of their own cancelling matrices, each lane against
 * the scalar loop on its instance, with and without renormalisation, on the skin's records and
 * the compact ones. */
static void cancelling_lanes_of(const char *what, vks_skin *s, vks__ref_lanes_fn group, uint32_t lanes)
{
    size_t bones = s->bone_count ? s->bone_count : 1, nf = (size_t)s->vertex_count * 3;
    vks_affine_d *K = malloc(lanes * bones * sizeof *K);
    vks__ref_lanes *lc = malloc(bones * sizeof *lc);
    float *sp = malloc(lanes * nf * sizeof *sp + 1), *sn = malloc(lanes * nf * sizeof *sn + 1);
    float *lp = malloc(lanes * nf * sizeof *lp + 1), *ln = malloc(lanes * nf * sizeof *ln + 1);
    vks__ref_infl4 *in4 = malloc((vks__ref_compact_count(s) + 1) * sizeof *in4);
    CHECK(K && lc && sp && sn && lp && ln && in4);
    if (!(K && lc && sp && sn && lp && ln && in4))
        goto out;
    vks__ref_compact(s, in4);
    for (uint32_t b = 0; b < s->bone_count; b++)
        for (int e = 0; e < 12; e++)
            for (uint32_t l = 0; l < lanes; l++)
                lc[b].e[e][l] = K[l * bones + b].m[e] = wide();
    size_t all = lanes * nf;
    for (int run = 0; run < 4; run++) { /* renormalised or not, the skin's records or compact */
        int renorm = run & 1, compact_ok = run >> 1;
        for (uint32_t m = 0; m < s->mesh_count; m++)
            s->meshes[m].flags = renorm ? s->meshes[m].flags | VKS_MESH_RENORMALIZE
                                        : s->meshes[m].flags & ~(uint32_t)VKS_MESH_RENORMALIZE;
        memset(sp, 0xA5, all * sizeof *sp), memset(lp, 0x5A, all * sizeof *lp);
        memset(sn, 0xA5, all * sizeof *sn), memset(ln, 0x5A, all * sizeof *ln);
        const vks__ref_infl4 *own = in4;
        for (uint32_t g = 0; g < s->group_count; g++) {
            const vks_group *gr = &s->groups[g];
            int compact = compact_ok && vks__ref_slots(gr) <= 4;
            for (uint32_t l = 0; l < lanes; l++)
                vks__ref_group_scalar(s, gr, K + l * bones, sp + l * nf, sn + l * nf);
            group(s, gr, lc, compact ? own : NULL, lp, ln, nf);
            own += vks__ref_slots(gr) <= 4 ? gr->vertex_count : 0;
        }
        size_t bad = first_unequal(sp, lp, sn, ln, all);
        if (bad < all)
            fprintf(stderr, "FAIL %s, crowd loop of %u on cancelling sums%s, %s records: lane %zu vertex %zu: position "
                    "%a vs %a, normal %a vs %a\n", what, lanes, renorm ? ", renormalised" : "",
                    compact_ok ? "compact" : "the skin's", bad / nf, bad % nf / 3, sp[bad], lp[bad], sn[bad], ln[bad]);
        CHECK(bad == all);
        checked += 2 * all;
    }
out:
    free(K), free(lc), free(sp), free(sn), free(lp), free(ln), free(in4);
}

static void cancelling_lanes(const char *what, vks_skin *s)
{
    if (vks__ref_group_lanes)
        cancelling_lanes_of(what, s, vks__ref_group_lanes, 4);
    if (vks__ref_group_lanes8 && vks__cpu_has_avx512())
        cancelling_lanes_of(what, s, vks__ref_group_lanes8, 8);
}

/* The skin as it comes, then with its meshes' flags changed and empty slots made hostile. */
static void variants(const char *what, vks_skin *s)
{
    same_bits(what, s, 1, 1, 1);
    same_bits(what, s, 5, 0, 1);
    same_bits(what, s, 3, 0, 0);
    same_bits(what, s, 9, 0, 0); /* passes of the crowd loop (four or eight instances), the rest alone */
    same_bits(what, s, 19, 0, 1);
    uint32_t *flags = malloc((s->mesh_count ? s->mesh_count : 1) * sizeof *flags);
    CHECK(flags != NULL);
    for (uint32_t m = 0; m < s->mesh_count; m++)
        flags[m] = s->meshes[m].flags;
    for (uint32_t m = 0; m < s->mesh_count; m++) /* renormalised normals: every mesh, then every other one */
        s->meshes[m].flags |= VKS_MESH_RENORMALIZE;
    same_bits(what, s, 6, 0, 1);
    for (uint32_t m = 0; m < s->mesh_count; m++)
        s->meshes[m].flags = m % 2 ? flags[m] & ~(uint32_t)VKS_MESH_HAS_NORMALS : flags[m] | VKS_MESH_RENORMALIZE;
    same_bits(what, s, 6, 0, 1);
    for (uint32_t m = 0; m < s->mesh_count; m++) /* no normals anywhere: both write what the sums give */
        s->meshes[m].flags = flags[m] & ~(uint32_t)VKS_MESH_HAS_NORMALS;
    same_bits(what, s, 6, 0, 1);
    for (uint32_t m = 0; m < s->mesh_count; m++)
        s->meshes[m].flags = flags[m];
    free(flags);
    /* empty slots in every position, their index past the palette: never read by either */
    uint32_t empty = 0;
    for (uint32_t v = 0; v < s->vertex_count; v++) {
        int k = (int)(v % VKS_MAX_INFLUENCES);
        if (v % 3 == 0 && s->influences[v].weight[k] > 0 && k > 0)
            s->influences[v].weight[k] = 0.0f; /* a live slot emptied: the sums change, the same in both */
        for (k = 0; k < VKS_MAX_INFLUENCES; k++)
            if (!(s->influences[v].weight[k] > 0)) {
                static const float odd[3] = {0.0f, -0.0f, -1.0f};
                s->influences[v].index[k] = 0xFFFF;
                s->influences[v].weight[k] = empty % 4 == 3 ? (float)NAN : odd[empty % 4 % 3];
                empty++;
            }
    }
    /* positive weights past the group's slots, on bones of its palette: read by neither (one
       read moves the vertex, and the forms differ) */
    uint32_t past = 0;
    for (uint32_t g = 0; g < s->group_count; g++) {
        const vks_group *gr = &s->groups[g];
        for (uint32_t v = gr->first_vertex; v < gr->first_vertex + gr->vertex_count; v++)
            for (int k = vks__ref_slots(gr); k < VKS_MAX_INFLUENCES; k++, past++)
                s->influences[v].index[k] = (uint16_t)((v + (uint32_t)k) % gr->palette_count),
                s->influences[v].weight[k] = 0.5f;
    }
    fprintf(stderr, "  %s: %u empty slots pointing outside the palette, %u past the slots\n", what, empty, past);
    same_bits(what, s, 6, 0, 1);
    cancelling(what, s);
    cancelling_lanes(what, s);
}

/* A generated skin whose first group is widened to 8 slots (slots 4..7 take half of slots
 * 0..3's weights on the next palette entries), beside groups of at most 4: a run takes the
 * skin's records for the one and the compact ones for the others. */
static void eight_beside_four(vks_error *err)
{
    vks_gen_params p = {0};
    p.vertices = 1203, p.max_influences = 4, p.palette_limit = 12, p.seed = 8;
    vks_skin *s = vks_gen_character(&p, err);
    CHECK(s != NULL && s->group_count > 1);
    if (!s || s->group_count < 2) {
        vks_skin_free(s);
        return;
    }
    vks_group *gr = &s->groups[0];
    for (uint32_t v = gr->first_vertex; v < gr->first_vertex + gr->vertex_count; v++) {
        vks_influence *in = &s->influences[v];
        for (int k = 0; k < 4; k++) {
            in->index[k + 4] = (uint16_t)((in->index[k] + 1u) % gr->palette_count);
            in->weight[k + 4] = in->weight[k] > 0 ? in->weight[k] * 0.5f : 0.0f;
            in->weight[k] -= in->weight[k + 4];
        }
    }
    gr->max_influences = 8;
    fprintf(stderr, "generated, a group of 8 beside %u of at most 4: %u vertices\n", s->group_count - 1,
            s->vertex_count);
    variants("generated, 8 beside 4", s);
    vks_skin_free(s);
}

static const char *const bundled[] = {"char_b24_pl8.dff", "char_b24_pl8.nif", "char_b24_pl8.cmdl",
                                      "char_b24_pl8.p3d", "char_b32_rigid.dff", "char_b32_rigid.p3d"};

/* Morph targets (morph_fixture.h) at per-instance weights where some instances of a crowd pass
 * move the mesh and some do not, and at non-zero defaults: the crowd loop's passes take the
 * morph loop for every lane where one lane's weights move a group's mesh. */
static void morph_lanes(vks_error *err)
{
    vks_gen_params p = {0};
    p.vertices = 800, p.seed = 11, p.max_mesh_vertices = 300;
    vks_skin *s = vks_gen_character(&p, err);
    CHECK(s && morph_fixture_targets(s, 3));
    if (!s || !s->target_count) {
        vks_skin_free(s);
        return;
    }
    enum { N = 11 };
    float *w = calloc((size_t)N * s->target_count, sizeof *w);
    CHECK(w != NULL);
    for (uint32_t i = 0; w && i < N; i++) /* instances 0..3 unmoved, 4..7 two of them moved, the rest all */
        for (uint32_t t = 0; t < s->target_count; t++)
            w[(size_t)i * s->target_count + t] = i < 4 || (i < 8 && i % 2) ? 0.0f : 0.3f + 0.2f * (float)t;
    job_weights = w;
    same_bits("morph weights per instance", s, N, 0, 1);
    job_weights = NULL;
    for (uint32_t t = 0; t < s->target_count; t++)
        s->targets[t].default_weight = 0.5f;
    same_bits("morph targets at default weights", s, 6, 0, 1);
    free(w);
    vks_skin_free(s);
}

/* Every skin of the test: the bundled datasets, generated characters, 8 beside 4, morph weights. */
static void all_skins(vks_error *err)
{
    for (size_t i = 0; i < sizeof bundled / sizeof *bundled; i++) {
        char rel[256];
        snprintf(rel, sizeof rel, "datasets/%s", bundled[i]);
        vks_skin *s = NULL;
        CHECK(vks_read_file(NULL, vks_test_source_path(rel), &s, err) == VKS_OK);
        if (!s) {
            fprintf(stderr, "%s: %s\n", bundled[i], err->msg);
            continue;
        }
        fprintf(stderr, "%s: %u vertices, %u meshes, %u groups\n", bundled[i], s->vertex_count, s->mesh_count,
                s->group_count);
        variants(bundled[i], s);
        vks_skin_free(s);
    }
    for (uint32_t k = 1; k <= 4; k++) {
        vks_gen_params p = {0};
        p.vertices = 1001 + 2 * k, p.max_influences = k, p.palette_limit = k % 2 ? 0 : 12, p.seed = k;
        p.max_mesh_vertices = k >= 3 ? 300 : 0;
        vks_skin *s = vks_gen_character(&p, err);
        CHECK(s != NULL);
        if (!s)
            continue;
        char what[64];
        snprintf(what, sizeof what, "generated, %u influences", k);
        fprintf(stderr, "%s: %u vertices, %u meshes, %u groups\n", what, s->vertex_count, s->mesh_count,
                s->group_count);
        variants(what, s);
        vks_skin_free(s);
    }
    eight_beside_four(err);
    morph_lanes(err);
}

int main(void)
{
    if (!vks__cpu_reference_has_simd()) {
        fprintf(stderr, "no AVX2 form of the reference on this CPU or build: skipped\n");
        return 77;
    }
    vks_error err = {0};
    /* the runs' crowd loop: four lanes (AVX2), then eight where the CPU has AVX-512 */
    static const uint32_t lane_counts[] = {4, 8};
    for (int lc = 0; lc < 2; lc++) {
        vks__cpu_reference_force_lanes(lane_counts[lc]);
        if (vks__cpu_reference_lanes() != lane_counts[lc]) {
            fprintf(stderr, "the crowd loop of %u lanes: not on this CPU or build, skipped\n", lane_counts[lc]);
            continue;
        }
        fprintf(stderr, "runs with the crowd loop of %u lanes\n", lane_counts[lc]);
        all_skins(&err);
    }
    vks__cpu_reference_force_lanes(0);
    fprintf(stderr, "%llu components the same bits\n", (unsigned long long)checked);
    return vks_test_finish("test_cpu_reference_simd");
}
