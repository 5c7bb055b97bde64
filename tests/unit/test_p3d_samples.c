/* P3D reader on the real samples (../shared/datasets/p3d, counts from its README): LOD,
 * point, face and selection counts of the MLOD and ODOL files, the gunbag as a rigid skin to
 * Spine2, the synthetic tube's 1-, 2- and 3-bone weights (bytes 1/128/192) with its
 * model.cfg skeleton and memory-LOD pivots, a posed result computed by hand, bind-pose
 * checks, and the conventions (outward normals, right-handed winding after the reader). */
#include <math.h>
#include <string.h>

#include "formats/p3d/p3d_internal.h"
#include "testutil.h"
#include "vkskin/cpu.h"

static uint8_t *load(const char *rel, size_t *n)
{
    uint8_t *b = vks_test_read_file(vks_test_dataset(rel), n);
    if (!b) {
        fprintf(stderr, "cannot read %s\n", rel);
        exit(1);
    }
    return b;
}

/* Structure counts through the internal scan (every LOD decoded). */
typedef struct lod_expect {
    double res;
    int points, faces, sels; /* -1: not checked */
} lod_expect;

static void check_lods(const char *rel, uint32_t nlods, const lod_expect *ex, size_t nex)
{
    size_t n;
    uint8_t *b = load(rel, &n);
    p3d_pool pool = {0};
    p3d_file f;
    memset(&f, 0, sizeof f);
    vks_error err = {0};
    vks_read_options o = vks_read_options_defaults(NULL);
    int odol = !memcmp(b, "ODOL", 4);
    vks_result r = odol ? p3d_odol_scan(&pool, b, n, &o, &f, &err) : p3d_mlod_scan(&pool, b, n, &o, &f, &err);
    CHECK_EQ_INT(r, VKS_OK);
    CHECK_EQ_INT(f.lod_count, nlods);
    for (size_t i = 0; i < nex && r == VKS_OK; i++) {
        uint32_t li = UINT32_MAX;
        for (uint32_t k = 0; k < f.lod_count && li == UINT32_MAX; k++)
            if (fabs(f.lods[k].resolution - ex[i].res) <= 1e-5 * fmax(1, ex[i].res))
                li = k;
        CHECK(li != UINT32_MAX);
        if (li == UINT32_MAX)
            continue;
        p3d_lod lod;
        r = odol ? p3d_odol_lod(&pool, &f, li, &o, &lod, &err) : p3d_mlod_lod(&pool, &f, li, &o, &lod, &err);
        CHECK_EQ_INT(r, VKS_OK);
        if (ex[i].points >= 0)
            CHECK_EQ_INT(lod.point_count, ex[i].points);
        if (ex[i].faces >= 0)
            CHECK_EQ_INT(lod.face_count, ex[i].faces);
        if (ex[i].sels >= 0)
            CHECK_EQ_INT(lod.sel_count, ex[i].sels);
    }
    if (r)
        fprintf(stderr, "%s: %s: %s\n", rel, err.path, err.msg);
    p3d_pool_free(&pool);
    free(b);
}

static vks_skin *read_p3d(const char *rel, const char *cfg_rel, const char *model, const char *bones,
                          const char *lod)
{
    size_t n, cn = 0;
    uint8_t *b = load(rel, &n);
    uint8_t *cfg = cfg_rel ? load(cfg_rel, &cn) : NULL;
    vks_read_options o = {0};
    o.p3d.model_cfg = (const char *)cfg;
    o.p3d.model_cfg_size = cn;
    o.p3d.model_name = model;
    o.p3d.bones = bones;
    o.p3d.lod = lod;
    vks_skin *s = NULL;
    vks_error err = {0};
    if (vks_p3d_read(&o, b, n, &s, &err) != VKS_OK) {
        fprintf(stderr, "%s: %s: %s\n", rel, err.path, err.msg);
        vks_test_failures++;
    }
    free(b);
    free(cfg);
    return s;
}

static void check_bind(const vks_skin *s, const char *what)
{
    vks_bind_check bc;
    vks_error err = {0};
    CHECK_EQ_INT(vks_skin_validate(s, &err), VKS_OK);
    CHECK_EQ_INT(vks_cpu_bind_check(s, &bc, &err), VKS_OK);
    if (bc.max_error > 1e-6)
        fprintf(stderr, "%s: bind error %g\n", what, bc.max_error);
    CHECK(bc.max_error <= 1e-6);
}

/* Share of triangles whose right-handed face normal agrees with the mean vertex normal. */
static double outward_share(const vks_skin *s)
{
    uint32_t agree = 0;
    for (uint32_t t = 0; t < s->triangle_count; t++) {
        const uint32_t *tri = s->triangles[t];
        const float *a = s->positions[tri[0]], *b = s->positions[tri[1]], *c = s->positions[tri[2]];
        double e1[3], e2[3], nrm[3], vn[3] = {0, 0, 0};
        for (int k = 0; k < 3; k++)
            e1[k] = b[k] - a[k], e2[k] = c[k] - a[k];
        nrm[0] = e1[1] * e2[2] - e1[2] * e2[1];
        nrm[1] = e1[2] * e2[0] - e1[0] * e2[2];
        nrm[2] = e1[0] * e2[1] - e1[1] * e2[0];
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++)
                vn[k] += s->normals[tri[j]][k];
        agree += nrm[0] * vn[0] + nrm[1] * vn[1] + nrm[2] * vn[2] > 0;
    }
    return (double)agree / s->triangle_count;
}

static float node_weight(const vks_skin *s, uint32_t v, const char *node)
{
    uint32_t g = 0;
    while (!(v >= s->groups[g].first_vertex && v < s->groups[g].first_vertex + s->groups[g].vertex_count))
        g++;
    float w = 0;
    for (int k = 0; k < 4; k++) {
        if (!(s->influences[v].weight[k] > 0))
            continue;
        uint32_t bone = s->palette[s->groups[g].first_palette + s->influences[v].index[k]];
        if (!p3d_stricmp(s->nodes[s->bones[bone].node].name, node))
            w += s->influences[v].weight[k];
    }
    return w;
}

static void test_crate(void)
{
    static const lod_expect ex[] = {{1, 96, 168, 2},  {2, -1, -1, 2}, {10000, -1, -1, 1}, {1e13, -1, -1, 3},
                                    {2e13, -1, -1, 1}, {1e15, 4, 0, 2}, {3e15, -1, -1, 0}};
    check_lods("p3d/a3ob_sample_2_crate.p3d", 7, ex, sizeof ex / sizeof *ex);
    vks_skin *s = read_p3d("p3d/a3ob_sample_2_crate.p3d", NULL, NULL, NULL, NULL);
    if (!s)
        return;
    CHECK_EQ_INT(s->triangle_count, 168); /* triangles only */
    CHECK_EQ_INT(s->node_count, 1);       /* no skeleton: the static model node */
    CHECK(outward_share(s) == 1.0);       /* 168/168 after the reader's reversal (notes 6) */
    check_bind(s, "crate");
    vks_skin_free(s);
}

static void test_gunbag(void)
{
    static const lod_expect ex[] = {{1, 4508, 4367, 4}};
    check_lods("p3d/hemtt_ace_gunbag.p3d", 12, ex, 1);
    vks_skin *s = read_p3d("p3d/hemtt_ace_gunbag.p3d", NULL, NULL, "Spine2", NULL);
    if (!s)
        return;
    CHECK_EQ_INT(s->node_count, 1);
    CHECK(!strcmp(s->nodes[0].name, "Spine2"));
    uint32_t rigid = 0;
    for (uint32_t v = 0; v < s->vertex_count; v++)
        rigid += node_weight(s, v, "Spine2") == 1.0f && s->influences[v].weight[1] == 0;
    CHECK_EQ_INT(rigid, s->vertex_count);
    CHECK(s->triangle_count > 4367); /* quads were split */
    CHECK(outward_share(s) > 0.9);   /* 4198/4367 faces in the notes */
    check_bind(s, "gunbag");
    vks_skin_free(s);
}

static void test_tube(void)
{
    static const lod_expect ex[] = {{1, 58, 64, 4}, {1e15, 4, 0, 2}};
    check_lods("p3d/synthetic_skinned_tube.p3d", 2, ex, 2);
    vks_skin *s = read_p3d("p3d/synthetic_skinned_tube.p3d", "p3d/synthetic_skinned_tube.model.cfg",
                           "synthetic_skinned_tube", NULL, NULL);
    if (!s)
        return;
    CHECK_EQ_INT(s->triangle_count, 48 * 2 + 16);
    CHECK_EQ_INT(s->node_count, 3);
    CHECK(!strcmp(s->nodes[0].name, "root") && s->nodes[0].parent == -1);
    CHECK(!strcmp(s->nodes[1].name, "mid") && s->nodes[1].parent == 0);
    CHECK(!strcmp(s->nodes[2].name, "tip") && s->nodes[2].parent == 1);
    /* pivots: mid_axis at y = 0.5, tip_axis at y = 1.0 (memory LOD) */
    CHECK_NEAR(s->nodes[1].bind_local.m[10], 0.5, 1e-6);
    CHECK_NEAR(s->nodes[2].bind_local.m[10], 0.5, 1e-6);
    /* weights: bytes 1 -> 1.0, 128 -> 128/255, 192 -> 64/255, then normalised per point */
    double w128 = 128.0 / 255, w192 = 64.0 / 255;
    uint32_t one = 0, two = 0, three = 0;
    for (uint32_t v = 0; v < s->vertex_count; v++) {
        float r = node_weight(s, v, "root"), m = node_weight(s, v, "mid"), t = node_weight(s, v, "tip");
        int used = (r > 0) + (m > 0) + (t > 0);
        CHECK_NEAR(r + m + t, 1.0, 1e-6);
        if (used == 1) {
            one++;
            CHECK(r == 1.0f || t == 1.0f);
        } else if (used == 2) {
            two++;
            CHECK_NEAR(r > 0 ? r : m, w128 / (w128 + w128), 1e-6); /* 128 and 128 */
        } else {
            three++;
            CHECK_NEAR(r, w192 / (w192 + w128 + w192), 1e-6);
            CHECK_NEAR(m, w128 / (w192 + w128 + w192), 1e-6);
        }
    }
    CHECK(one > 0 && two > 0 && three > 0);
    vks_skin_stats st;
    vks_skin_stats_compute(s, &st);
    CHECK_EQ_INT(st.influence_histogram[1], one);
    CHECK_EQ_INT(st.influence_histogram[2], two);
    CHECK_EQ_INT(st.influence_histogram[3], three);
    CHECK(outward_share(s) == 1.0);
    check_bind(s, "tube");

    /* posed by hand: mid turned 90 degrees about z at its pivot; tip follows. With weights
     * (a root, 1 - a on mid/tip): p' = a p + (1 - a) (R (p - pm) + pm), pm = (0, 0.5, 0). */
    vks_affine *locals = calloc(s->node_count, sizeof *locals);
    vks_affine_d *world = calloc(s->node_count, sizeof *world);
    vks_affine_d *km = calloc(s->bone_count, sizeof *km);
    for (uint32_t i = 0; i < s->node_count; i++)
        locals[i] = s->nodes[i].bind_local;
    float zero[3] = {0, 0, 0}, one3[3] = {1, 1, 1}, q[4] = {0, 0, (float)sqrt(0.5), (float)sqrt(0.5)};
    vks_affine rot = vks_affine_from_trs(zero, q, one3);
    locals[1] = vks_affine_mul(&s->nodes[1].bind_local, &rot);
    vks_cpu_world_d(s, locals, world);
    vks_cpu_skin_matrices_d(s, world, km);
    double worst = 0;
    for (uint32_t v = 0; v < s->vertex_count; v++) {
        uint32_t g = 0;
        while (!(v >= s->groups[g].first_vertex && v < s->groups[g].first_vertex + s->groups[g].vertex_count))
            g++;
        double p[3] = {0, 0, 0};
        for (int k = 0; k < 4; k++) {
            double w = s->influences[v].weight[k];
            if (!(w > 0))
                continue;
            const double *m = km[s->palette[s->groups[g].first_palette + s->influences[v].index[k]]].m;
            const float *x = s->positions[v];
            for (int c = 0; c < 3; c++)
                p[c] += w * (m[c] * x[0] + m[3 + c] * x[1] + m[6 + c] * x[2] + m[9 + c]);
        }
        double a = node_weight(s, v, "root");
        const float *x = s->positions[v];
        double rx = -(x[1] - 0.5), ry = x[0]; /* R_z(90) (x, y - 0.5) */
        double e[3] = {a * x[0] + (1 - a) * rx, a * x[1] + (1 - a) * (ry + 0.5), x[2]};
        for (int c = 0; c < 3; c++)
            worst = fmax(worst, fabs(p[c] - e[c]));
    }
    CHECK(worst < 1e-6);
    free(locals);
    free(world);
    free(km);
    vks_skin_free(s);

    /* isDiscrete = 1: one bone per vertex (the largest) */
    size_t cn;
    uint8_t *cfg = load("p3d/synthetic_skinned_tube.model.cfg", &cn);
    char *text = malloc(cn + 1);
    memcpy(text, cfg, cn);
    text[cn] = 0;
    char *d = strstr(text, "isDiscrete = 0");
    CHECK(d != NULL);
    if (d)
        d[13] = '1';
    size_t n;
    uint8_t *b = load("p3d/synthetic_skinned_tube.p3d", &n);
    vks_read_options o = {0};
    o.p3d.model_cfg = text;
    o.p3d.model_cfg_size = cn;
    o.p3d.model_name = "synthetic_skinned_tube";
    vks_error err = {0};
    s = NULL;
    CHECK_EQ_INT(vks_p3d_read(&o, b, n, &s, &err), VKS_OK);
    if (s) {
        vks_skin_stats_compute(s, &st);
        CHECK_EQ_INT(st.influence_histogram[1], s->vertex_count);
        vks_skin_free(s);
    }
    /* a bone limit of 2 cannot hold the triangles of 3-bone vertices: one clear error */
    o.p3d.model_cfg = (const char *)cfg;
    o.p3d.bone_limit = 2;
    s = NULL;
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(vks_p3d_read(&o, b, n, &s, &err), VKS_ERR_LIMIT);
    CHECK(s == NULL && strstr(err.msg, "bone limit 2") != NULL);
    o.p3d.bone_limit = 3;
    CHECK_EQ_INT(vks_p3d_read(&o, b, n, &s, &err), VKS_OK);
    if (s) {
        for (uint32_t g = 0; g < s->group_count; g++)
            CHECK(s->groups[g].palette_count <= 3);
        check_bind(s, "tube limit 3");
        vks_skin_free(s);
    }
    free(b);
    free(cfg);
    free(text);
}

static void test_odol(void)
{
    static const lod_expect ladder[] = {{1, 2524, 1116, 13}, {2e15, 16, -1, 3}};
    check_lods("p3d/odol/ace_tacticalladder_pack.p3d", 3, ladder, 2);
    static const lod_expect wire[] = {{1, 2808, 2268, -1}, {1e15, 22, 0, 21}};
    check_lods("p3d/odol/ACE_ConcertinaWireNoGeo.p3d", 3, wire, 2);
    static const lod_expect tracer[] = {{1, 72, 18, -1}};
    check_lods("p3d/odol/ace_TracerRed2.p3d", 3, tracer, 1);
    static const lod_expect head[] = {{1e15, 2, 0, 2}};
    check_lods("p3d/odol/ace_headbanger.p3d", 7, head, 1);
    check_lods("p3d/odol/sniper_tripod.p3d", 10, NULL, 0);

    static const struct {
        const char *file;
        uint32_t bones;
        const char *skel;
    } sk[] = {{"p3d/odol/ace_tacticalladder_pack.p3d", 103, "OFP2_ManSkeleton"},
              {"p3d/odol/ACE_ConcertinaWireNoGeo.p3d", 22, "ACE_ConcertinaSkeleton"},
              {"p3d/odol/sniper_tripod.p3d", 8, "ace_snipertripod_skeleton"},
              {"p3d/odol/ace_TracerRed2.p3d", 3, NULL},
              {"p3d/odol/ace_headbanger.p3d", 0, NULL}};
    for (size_t i = 0; i < sizeof sk / sizeof *sk; i++) {
        vks_skin *s = read_p3d(sk[i].file, NULL, NULL, NULL, NULL);
        if (!s)
            continue;
        CHECK(strstr(s->format_detail, "ODOL v73") != NULL);
        if (sk[i].skel)
            CHECK(strstr(s->format_detail, sk[i].skel) != NULL);
        /* skeleton bones, plus the static node where some vertex has no bone */
        CHECK(s->node_count == sk[i].bones || s->node_count == sk[i].bones + 1);
        check_bind(s, sk[i].file);
        vks_skin_free(s);
    }
    /* the backpack: every vertex weighted, to the man skeleton, Pelvis is the root */
    vks_skin *s = read_p3d("p3d/odol/ace_tacticalladder_pack.p3d", NULL, NULL, NULL, NULL);
    if (s) {
        CHECK_EQ_INT(s->node_count, 103);
        CHECK(!p3d_stricmp(s->nodes[0].name, "Pelvis"));
        CHECK_EQ_INT(s->vertex_count, 2524);
        CHECK_EQ_INT(s->triangle_count, 2208);
        CHECK(outward_share(s) > 0.9);
        vks_skin_free(s);
    }
    s = read_p3d("p3d/odol/ACE_ConcertinaWireNoGeo.p3d", NULL, NULL, NULL, NULL);
    if (s) {
        vks_skin_stats st;
        vks_skin_stats_compute(s, &st);
        CHECK_EQ_INT(st.max_palette, 18); /* weighted over 18 bones */
        vks_skin_free(s);
    }
}

static void test_lod_option(void)
{
    vks_skin *s = read_p3d("p3d/hemtt_ace_gunbag.p3d", NULL, NULL, "Spine2", "3");
    if (s) {
        CHECK(strstr(s->format_detail, "visual 3") != NULL);
        vks_skin_free(s);
    }
    s = read_p3d("p3d/hemtt_ace_gunbag.p3d", NULL, NULL, "Spine2", "geometry");
    if (s) {
        CHECK_EQ_INT(s->triangle_count, 12);
        vks_skin_free(s);
    }
    s = read_p3d("p3d/hemtt_ace_gunbag.p3d", NULL, NULL, "Spine2", "#5");
    if (s) {
        CHECK(strstr(s->format_detail, "shadow 10001") != NULL);
        vks_skin_free(s);
    }
    size_t n;
    uint8_t *b = load("p3d/hemtt_ace_gunbag.p3d", &n);
    static const char *bad[] = {"1234", "memory", "#12", "nonsense"};
    for (size_t i = 0; i < 4; i++) {
        vks_read_options o = {0};
        o.p3d.lod = bad[i];
        vks_skin *t = NULL;
        vks_error err = {0};
        CHECK(vks_p3d_read(&o, b, n, &t, &err) != VKS_OK);
        CHECK(t == NULL && err.msg[0]);
    }
    free(b);
}

int main(void)
{
    test_crate();
    test_gunbag();
    test_tube();
    test_odol();
    test_lod_option();
    return vks_test_finish("test_p3d_samples");
}
