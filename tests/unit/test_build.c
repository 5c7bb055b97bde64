/* The model builder (src/core/skin_build.c): grouping under palette limits, explicit file
 * groups and palettes, vertex duplication and the source map, leftover vertices, and the
 * errors for bad input. Every built model is checked against its source by an independent
 * walk: each model vertex resolves (through its group's palette) to the same bones and
 * weights as the file vertex it came from, and the triangles are the source's triangles. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "vkskin/build.h"
#include "vkskin/formats.h"

/* ---- a small hand-made mesh: a strip of 6 quads along a chain of 6 bones ----
 * ring i (i = 0..6) has vertices 2i (y = 0) and 2i+1 (y = 1) at x = i; ring 0 follows bone 0,
 * ring 6 bone 5, ring i between follows bones i (0.75) and i-1 (0.25). Quad i uses bones
 * i-1..i+1, so a palette limit of 3 forces a new group at almost every quad. Vertex 14 is in
 * no triangle (bones 2 and 4), vertex 15 in no triangle and has no weight at all. */
#define NV 16
#define NT 12
#define NB 6
static float pos[NV][3], nrm[NV][3];
static uint16_t bone[NV][4];
static float weight[NV][4];
static uint32_t tris[NT][3];
static uint16_t mats[NT];
static vks_bone bones[NB];

static void make_strip(void)
{
    memset(bone, 0, sizeof bone);
    memset(weight, 0, sizeof weight);
    for (int i = 0; i <= 6; i++)
        for (int k = 0; k < 2; k++) {
            int v = 2 * i + k;
            pos[v][0] = (float)i, pos[v][1] = (float)k, pos[v][2] = 0.5f * (float)k;
            nrm[v][0] = 0, nrm[v][1] = 0, nrm[v][2] = 1;
            if (i == 0 || i == 6) {
                bone[v][0] = (uint16_t)(i == 0 ? 0 : 5);
                weight[v][0] = 1;
            } else {
                bone[v][0] = (uint16_t)i, weight[v][0] = 0.75f;
                bone[v][1] = (uint16_t)(i - 1), weight[v][1] = 0.25f;
            }
        }
    pos[14][0] = 2.5f, pos[14][1] = 3;
    bone[14][0] = 2, bone[14][1] = 4, weight[14][0] = weight[14][1] = 0.5f;
    pos[15][0] = -1, pos[15][1] = -1; /* no weights */
    for (int q = 0; q < 6; q++) {
        uint32_t a = 2 * q, b = a + 1, c = a + 2, d = a + 3;
        tris[2 * q][0] = a, tris[2 * q][1] = c, tris[2 * q][2] = b;
        tris[2 * q + 1][0] = b, tris[2 * q + 1][1] = c, tris[2 * q + 1][2] = d;
        mats[2 * q] = mats[2 * q + 1] = (uint16_t)(q % 2);
    }
    for (int b = 0; b < NB; b++) {
        bones[b].node = (uint32_t)b;
        bones[b].inverse_bind = vks_affine_identity();
        bones[b].inverse_bind.m[9] = (float)-b;
    }
}

static vks_skin *chain_skin(uint32_t nodes)
{
    vks_skin *s = vks_skin_create(NULL);
    s->node_count = nodes;
    s->nodes = vks_skin_alloc_array(s, nodes, sizeof *s->nodes);
    for (uint32_t i = 0; i < nodes; i++) {
        s->nodes[i].name = "";
        s->nodes[i].parent = (int32_t)i - 1;
        s->nodes[i].bind_local = vks_affine_identity();
        s->nodes[i].bind_local.m[9] = i ? 1.0f : 0.0f;
    }
    return s;
}

static vks_mesh_source strip_source(uint32_t limit)
{
    vks_mesh_source m = {0};
    m.name = "strip";
    m.vertex_count = NV;
    m.positions = (const float(*)[3])pos;
    m.normals = (const float(*)[3])nrm;
    m.bone = (const uint16_t(*)[4])bone;
    m.weight = (const float(*)[4])weight;
    m.triangle_count = NT;
    m.triangles = (const uint32_t(*)[3])tris;
    m.triangle_material = mats;
    m.bone_count = NB;
    m.bones = bones;
    m.space_node = -1;
    m.palette_limit = limit;
    return m;
}

/* Builds one mesh into a fresh skin; NULL (and err) on failure. */
static vks_skin *build(const vks_mesh_source *m, uint32_t nodes, vks_error *err)
{
    vks_skin *s = chain_skin(nodes);
    vks_skin_builder *b = vks_builder_create(s);
    if (vks_builder_add_mesh(b, m, err) != VKS_OK) {
        vks_builder_destroy(b);
        vks_skin_free(s);
        return NULL;
    }
    if (vks_builder_finish(b, err) != VKS_OK) {
        vks_skin_free(s);
        return NULL;
    }
    return s;
}

static int group_of(const vks_skin *s, uint32_t v)
{
    for (uint32_t g = 0; g < s->group_count; g++)
        if (v >= s->groups[g].first_vertex && v - s->groups[g].first_vertex < s->groups[g].vertex_count)
            return (int)g;
    return -1;
}

static int cmp_tri(const void *a, const void *b)
{
    const uint32_t *x = a, *y = b;
    for (int k = 0; k < 3; k++)
        if (x[k] != y[k])
            return x[k] < y[k] ? -1 : 1;
    return 0;
}

/* The independent walk. src_tris / src_mats: the source's triangles (all groups together). */
static void check_against_source(const vks_skin *s, uint32_t mesh, const vks_mesh_source *m,
                                 const uint32_t (*src_tris)[3], const uint16_t *src_mats, uint32_t nt,
                                 uint32_t limit)
{
    vks_error err = {0};
    CHECK_EQ_INT(vks_skin_validate(s, &err), VKS_OK);
    if (err.code)
        fprintf(stderr, "  validate: %s: %s\n", err.path, err.msg);
    const vks_mesh *me = &s->meshes[mesh];
    CHECK_EQ_INT(me->source_vertex_count, m->vertex_count);
    CHECK_EQ_INT(me->bone_count, m->bone_count);
    for (uint32_t b = 0; b < m->bone_count; b++) {
        CHECK_EQ_INT(s->bones[me->first_bone + b].node, m->bones[b].node);
        CHECK(!memcmp(&s->bones[me->first_bone + b].inverse_bind, &m->bones[b].inverse_bind, sizeof(vks_affine)));
    }
    /* groups: palettes under the limit, palette entries inside the mesh's bones */
    for (uint32_t g = me->first_group; g < me->first_group + me->group_count; g++) {
        const vks_group *gr = &s->groups[g];
        if (limit)
            CHECK(gr->palette_count <= limit);
        for (uint32_t i = 0; i < gr->palette_count; i++) {
            uint16_t pb = s->palette[gr->first_palette + i];
            CHECK(pb >= me->first_bone && pb < me->first_bone + me->bone_count);
        }
    }
    /* vertices: the source map and the influences resolved to bones */
    uint8_t *seen = calloc(m->vertex_count, 1);
    for (uint32_t v = me->first_vertex; v < me->first_vertex + me->vertex_count; v++) {
        uint32_t sv = s->source_vertex[v];
        CHECK(sv < m->vertex_count);
        if (sv >= m->vertex_count)
            continue;
        seen[sv] = 1;
        CHECK(!memcmp(s->positions[v], m->positions[sv], 12));
        if (m->normals)
            CHECK(!memcmp(s->normals[v], m->normals[sv], 12));
        int g = group_of(s, v);
        CHECK(g >= 0);
        if (g < 0)
            continue;
        const vks_group *gr = &s->groups[g];
        const vks_influence *in = &s->influences[v];
        /* positive source slots, in order, must reappear slot by slot */
        uint32_t u = 0;
        for (int k = 0; k < 4; k++) {
            if (!(m->weight[sv][k] > 0))
                continue;
            CHECK(in->index[u] < gr->palette_count);
            uint32_t b = s->palette[gr->first_palette + in->index[u]] - me->first_bone;
            CHECK_EQ_INT(b, m->bone[sv][k]);
            CHECK(in->weight[u] == m->weight[sv][k]);
            u++;
        }
        if (u == 0) { /* no weight in the file: follows slot 0 with weight 1 */
            CHECK_EQ_INT(in->index[0], 0);
            CHECK(in->weight[0] == 1.0f);
            u = 1;
        }
        for (uint32_t k = u; k < 4; k++)
            CHECK(in->weight[k] == 0.0f);
        CHECK(gr->max_influences >= u);
    }
    for (uint32_t v = 0; v < m->vertex_count; v++)
        CHECK(seen[v]);
    free(seen);
    /* triangles: each inside one group's vertex range, and mapped back they are the source's */
    CHECK_EQ_INT(me->triangle_count, nt);
    uint32_t(*a)[3] = calloc(nt + 1, sizeof *a), (*b)[3] = calloc(nt + 1, sizeof *b);
    uint32_t mat_sum_src = 0, mat_sum = 0;
    for (uint32_t t = 0; t < nt && t < me->triangle_count; t++) {
        uint32_t gt = me->first_triangle + t;
        int g = -1;
        for (uint32_t gi = me->first_group; gi < me->first_group + me->group_count; gi++)
            if (gt >= s->groups[gi].first_triangle && gt - s->groups[gi].first_triangle < s->groups[gi].triangle_count)
                g = (int)gi;
        CHECK(g >= 0);
        for (int k = 0; k < 3; k++) {
            uint32_t v = me->first_vertex + s->triangles[gt][k];
            CHECK(g >= 0 && group_of(s, v) == g);
            /* materials travel with the triangle: encode them into the compared key */
            a[t][k] = s->source_vertex[v];
            b[t][k] = src_tris[t][k];
        }
        if (s->triangle_material) {
            mat_sum += s->triangle_material[gt] * (a[t][0] + 1);
            mat_sum_src += src_mats[t] * (b[t][0] + 1);
        }
    }
    qsort(a, nt, sizeof *a, cmp_tri);
    qsort(b, nt, sizeof *b, cmp_tri);
    CHECK(!memcmp(a, b, nt * sizeof *a));
    if (src_mats)
        CHECK_EQ_INT(mat_sum, mat_sum_src);
    free(a);
    free(b);
}

static void test_one_group(void)
{
    vks_error err = {0};
    vks_mesh_source m = strip_source(0);
    vks_skin *s = build(&m, NB, &err);
    CHECK(s != NULL);
    if (!s)
        return;
    check_against_source(s, 0, &m, (const uint32_t(*)[3])tris, mats, NT, 0);
    CHECK_EQ_INT(s->group_count, 1);
    CHECK_EQ_INT(s->vertex_count, NV); /* nothing duplicated */
    CHECK_EQ_INT(s->groups[0].palette_count, NB);
    for (uint32_t i = 0; i < NB; i++)
        CHECK_EQ_INT(s->palette[i], i); /* all bones in order */
    for (uint32_t v = 0; v < NV; v++)
        CHECK_EQ_INT(s->source_vertex[v], v);
    CHECK_EQ_INT(s->groups[0].max_influences, 2);
    CHECK(s->meshes[0].flags & VKS_MESH_HAS_NORMALS);
    CHECK(s->triangle_material && s->triangle_material[2] == 1);
    /* the identity space_pre default */
    vks_affine id = vks_affine_identity();
    CHECK(!memcmp(&s->meshes[0].space_pre, &id, sizeof id));
    vks_skin_free(s);
}

static void test_palette_limit(uint32_t limit)
{
    vks_error err = {0};
    vks_mesh_source m = strip_source(limit);
    vks_skin *s = build(&m, NB, &err);
    CHECK(s != NULL);
    if (!s) {
        fprintf(stderr, "  limit %u: %s: %s\n", limit, err.path, err.msg);
        return;
    }
    check_against_source(s, 0, &m, (const uint32_t(*)[3])tris, mats, NT, limit);
    if (limit == 3) {
        /* quads 0..5 need bones {0,1} {0,1,2} {1,2,3} {2,3,4} {3,4,5} {4,5}: at least 4 groups,
           and rings shared by two groups are duplicated */
        CHECK(s->group_count >= 4);
        CHECK(s->vertex_count > NV);
    }
    printf("palette limit %u: %u groups, %u vertices from %u\n", limit, s->group_count, s->vertex_count, NV);
    vks_skin_free(s);
}

static void test_file_groups(void)
{
    /* G0: quads 0..2 with the file palette {3,2,1,0} (reverse order); G1: quads 3..5 with no
       palette (the builder uses its sorted bones). Ring 3 is shared: duplicated. */
    static const uint16_t pal0[4] = {3, 2, 1, 0};
    vks_group_source gsrc[2] = {{0}};
    gsrc[0].triangles = (const uint32_t(*)[3])tris;
    gsrc[0].triangle_material = mats;
    gsrc[0].triangle_count = 6;
    gsrc[0].palette = pal0;
    gsrc[0].palette_count = 4;
    gsrc[1].triangles = (const uint32_t(*)[3])tris + 6;
    gsrc[1].triangle_material = mats + 6;
    gsrc[1].triangle_count = 6;
    gsrc[1].flags = VKS_GROUP_RIGID;
    vks_mesh_source m = strip_source(0);
    m.groups = gsrc;
    m.group_count = 2;
    m.triangles = NULL; /* ignored when the file gives groups */
    m.triangle_count = 0;
    vks_error err = {0};
    vks_skin *s = build(&m, NB, &err);
    CHECK(s != NULL);
    if (!s) {
        fprintf(stderr, "  file groups: %s: %s\n", err.path, err.msg);
        return;
    }
    check_against_source(s, 0, &m, (const uint32_t(*)[3])tris, mats, NT, 0);
    /* vertex 14 (bones 2, 4) fits neither file group: a third group; vertex 15 (no weight)
       joins the first group with a fixed palette */
    CHECK_EQ_INT(s->group_count, 3);
    CHECK_EQ_INT(s->groups[0].palette_count, 4);
    for (int i = 0; i < 4; i++)
        CHECK_EQ_INT(s->palette[s->groups[0].first_palette + i], pal0[i]);
    CHECK_EQ_INT(s->groups[1].palette_count, 4); /* bones 2..5 */
    for (int i = 0; i < 4; i++)
        CHECK_EQ_INT(s->palette[s->groups[1].first_palette + i], 2 + i);
    CHECK_EQ_INT(s->groups[1].flags, VKS_GROUP_RIGID);
    CHECK_EQ_INT(s->groups[0].triangle_count, 6);
    CHECK_EQ_INT(s->groups[1].triangle_count, 6);
    CHECK_EQ_INT(s->groups[2].triangle_count, 0);
    CHECK_EQ_INT(s->vertex_count, NV + 2); /* ring 3 twice */
    /* vertex 2 (ring 1: bone 1 at 0.75, bone 0 at 0.25) in G0: slots 2 and 3 of {3,2,1,0} */
    for (uint32_t v = s->groups[0].first_vertex; v < s->groups[0].first_vertex + s->groups[0].vertex_count; v++)
        if (s->source_vertex[v] == 2) {
            CHECK_EQ_INT(s->influences[v].index[0], 2);
            CHECK_EQ_INT(s->influences[v].index[1], 3);
        }
    int found15 = 0;
    for (uint32_t v = s->groups[0].first_vertex; v < s->groups[0].first_vertex + s->groups[0].vertex_count; v++)
        found15 |= s->source_vertex[v] == 15;
    CHECK(found15);
    vks_skin_free(s);

    /* a used bone missing from a file palette */
    static const uint16_t pal_short[2] = {0, 1};
    gsrc[0].palette = pal_short;
    gsrc[0].palette_count = 2;
    err = (vks_error){0};
    CHECK(build(&m, NB, &err) == NULL);
    CHECK_EQ_INT(err.code, VKS_ERR_FORMAT);
    /* a file palette naming a bone the mesh does not have */
    static const uint16_t pal_bad[2] = {0, 9};
    gsrc[0].palette = pal_bad;
    err = (vks_error){0};
    CHECK(build(&m, NB, &err) == NULL);
    CHECK_EQ_INT(err.code, VKS_ERR_FORMAT);
}

/* NW4C style: no mesh influences, each group brings its own (the same file vertex means
   different bones in different groups). */
static void test_group_influences(void)
{
    static uint16_t gb[2][NV][4];
    static float gw[2][NV][4];
    memset(gb, 0, sizeof gb);
    memset(gw, 0, sizeof gw);
    for (int v = 0; v < NV; v++) {
        gb[0][v][0] = 1, gw[0][v][0] = 1;
        gb[1][v][0] = 4, gw[1][v][0] = 1;
    }
    vks_group_source gsrc[2] = {{0}};
    gsrc[0].triangles = (const uint32_t(*)[3])tris;
    gsrc[0].triangle_count = 6;
    gsrc[0].bone = (const uint16_t(*)[4])gb[0];
    gsrc[0].weight = (const float(*)[4])gw[0];
    gsrc[1].triangles = (const uint32_t(*)[3])tris + 6;
    gsrc[1].triangle_count = 6;
    gsrc[1].bone = (const uint16_t(*)[4])gb[1];
    gsrc[1].weight = (const float(*)[4])gw[1];
    vks_mesh_source m = strip_source(0);
    m.bone = NULL;
    m.weight = NULL;
    m.vertex_count = 14; /* every vertex in a group */
    m.groups = gsrc;
    m.group_count = 2;
    vks_error err = {0};
    vks_skin *s = build(&m, NB, &err);
    CHECK(s != NULL);
    if (s) {
        CHECK_EQ_INT(vks_skin_validate(s, &err), VKS_OK);
        CHECK_EQ_INT(s->group_count, 2);
        CHECK_EQ_INT(s->groups[0].palette_count, 1);
        CHECK_EQ_INT(s->palette[s->groups[0].first_palette], 1);
        CHECK_EQ_INT(s->palette[s->groups[1].first_palette], 4);
        CHECK_EQ_INT(s->vertex_count, 16); /* ring 3 in both */
    }
    vks_skin_free(s);
    /* a vertex outside every group, and no mesh influences to place it with */
    m.vertex_count = NV;
    err = (vks_error){0};
    CHECK(build(&m, NB, &err) == NULL);
    CHECK_EQ_INT(err.code, VKS_ERR_INVALID);
    /* no influences anywhere */
    m.groups = NULL;
    m.group_count = 0;
    err = (vks_error){0};
    CHECK(build(&m, NB, &err) == NULL);
    CHECK_EQ_INT(err.code, VKS_ERR_INVALID);
}

static void test_errors(void)
{
    vks_error err = {0};
    /* a triangle whose vertices need 4 bones under a limit of 3 */
    vks_mesh_source m = strip_source(3);
    weight[2][2] = 0.1f, bone[2][2] = 5; /* ring 1 vertex: bones 1, 0, 5; its triangle adds 2 */
    CHECK(build(&m, NB, &err) == NULL);
    CHECK_EQ_INT(err.code, VKS_ERR_LIMIT);
    CHECK(strstr(err.msg, "palette limit") != NULL);
    make_strip();
    /* a bone index outside the mesh's bones */
    bone[5][1] = NB;
    err = (vks_error){0};
    CHECK(build(&m, NB, &err) == NULL);
    CHECK_EQ_INT(err.code, VKS_ERR_FORMAT);
    CHECK(strstr(err.path, "strip") != NULL);
    make_strip();
    /* ...but an unused slot (weight 0) may hold anything */
    bone[5][3] = 999;
    vks_skin *s = build(&m, NB, &err);
    CHECK(s != NULL);
    vks_skin_free(s);
    make_strip();
    /* a triangle index outside the vertices */
    tris[7][1] = NV;
    err = (vks_error){0};
    CHECK(build(&m, NB, &err) == NULL);
    CHECK_EQ_INT(err.code, VKS_ERR_FORMAT);
    make_strip();
    /* a bone naming a node the skeleton does not have */
    err = (vks_error){0};
    CHECK(build(&m, NB - 1, &err) == NULL);
    CHECK_EQ_INT(err.code, VKS_ERR_FORMAT);
    /* a skin-space node outside the skeleton */
    m.space_node = NB;
    err = (vks_error){0};
    CHECK(build(&m, NB, &err) == NULL);
    CHECK_EQ_INT(err.code, VKS_ERR_FORMAT);
    m.space_node = -1;
    /* no bones */
    m.bone_count = 0;
    err = (vks_error){0};
    CHECK(build(&m, NB, &err) == NULL);
    CHECK_EQ_INT(err.code, VKS_ERR_LIMIT);
    CHECK(!strcmp(err.msg, "bone count 0 outside 1..65535")); /* no stray filler digits */
    m.bone_count = NB;
    /* bone indices without weights */
    m.weight = NULL;
    err = (vks_error){0};
    CHECK(build(&m, NB, &err) == NULL);
    CHECK_EQ_INT(err.code, VKS_ERR_INVALID);
}

/* Slots 4..7 (vks_mesh_source.bone_more / weight_more): a vertex of six influences keeps them
 * all, in slot order, through its group's palette; the group counts 6 slots; the RenderWare,
 * NIF and NW4C writers refuse the model; a bone of the second set outside the mesh, a
 * non-finite weight there and one half of the pair are refused. */
static void test_second_set(void)
{
    make_strip();
    static uint16_t more_b[NV][4];
    static float more_w[NV][4];
    memset(more_b, 0, sizeof more_b);
    memset(more_w, 0, sizeof more_w);
    /* vertex 6 (ring 3): bones 3 0.75, 2 0.25, then 4 bones more, the weights summing to 1 */
    static const uint16_t b6[6] = {3, 2, 0, 1, 4, 5};
    static const float w6[6] = {0.3f, 0.2f, 0.15f, 0.15f, 0.1f, 0.1f};
    for (int k = 0; k < 6; k++) {
        if (k < 4)
            bone[6][k] = b6[k], weight[6][k] = w6[k];
        else
            more_b[6][k - 4] = b6[k], more_w[6][k - 4] = w6[k];
    }
    vks_mesh_source m = strip_source(0);
    m.bone_more = (const uint16_t(*)[4])more_b;
    m.weight_more = (const float(*)[4])more_w;
    vks_error err = {0};
    vks_skin *s = build(&m, NB, &err);
    CHECK(s != NULL);
    if (s) {
        uint32_t v = 0;
        while (v < s->vertex_count && s->source_vertex[v] != 6)
            v++;
        int g = group_of(s, v);
        CHECK(g >= 0);
        if (g >= 0) {
            CHECK_EQ_INT(s->groups[g].max_influences, 6);
            for (int k = 0; k < 6; k++) {
                uint32_t b = s->palette[s->groups[g].first_palette + s->influences[v].index[k]];
                CHECK_EQ_INT(b, b6[k]);
                CHECK(s->influences[v].weight[k] == w6[k]);
            }
            CHECK(s->influences[v].weight[6] == 0 && s->influences[v].weight[7] == 0);
        }
        CHECK_EQ_INT(vks_skin_vertices_over(s, 4), 1);
        CHECK_EQ_INT(vks_skin_validate(s, &err), VKS_OK);
        /* the writers whose formats store 4 a vertex refuse it rather than drop two unsaid */
        vks_writer_fn four[3] = {vks_rw_write, vks_nif_write, vks_cmdl_write};
        for (int w = 0; w < 3; w++) {
            uint8_t *out = NULL;
            size_t n = 0;
            err = (vks_error){0};
            CHECK_EQ_INT(four[w](s, NULL, &out, &n, &err), VKS_ERR_UNSUPPORTED);
            CHECK(strstr(err.msg, "1 vertices have more than 4 influences") != NULL);
            free(out);
        }
    }
    vks_skin_free(s);
    more_b[6][1] = NB; /* slot 5 names a bone the mesh does not have */
    err = (vks_error){0};
    CHECK(build(&m, NB, &err) == NULL);
    CHECK_EQ_INT(err.code, VKS_ERR_FORMAT);
    CHECK(strstr(err.msg, "vertex 6 names bone 6") != NULL);
    more_b[6][1] = 5, more_w[6][0] = (float)NAN;
    err = (vks_error){0};
    CHECK(build(&m, NB, &err) == NULL);
    CHECK(strstr(err.msg, "vertex 6 slot 4: weight is not finite") != NULL);
    more_w[6][0] = 0.1f;
    m.weight_more = NULL; /* bone indices of the second set without its weights */
    err = (vks_error){0};
    CHECK(build(&m, NB, &err) == NULL);
    CHECK_EQ_INT(err.code, VKS_ERR_INVALID);
    make_strip();
}

/* Leftover vertices under a limit; a group that only holds weightless vertices. */
static void test_leftovers(void)
{
    vks_error err = {0};
    vks_mesh_source m = strip_source(3);
    m.triangle_count = 0; /* every vertex is a leftover */
    vks_skin *s = build(&m, NB, &err);
    CHECK(s != NULL);
    if (s) {
        check_against_source(s, 0, &m, NULL, NULL, 0, 3);
        CHECK_EQ_INT(s->vertex_count, NV); /* no triangles: nothing shared, nothing duplicated */
    }
    vks_skin_free(s);
    /* only the weightless vertex */
    m.vertex_count = 16;
    for (int v = 0; v < 15; v++)
        memset(weight[v], 0, sizeof weight[v]);
    err = (vks_error){0};
    s = build(&m, NB, &err);
    CHECK(s != NULL);
    if (s) {
        CHECK_EQ_INT(vks_skin_validate(s, &err), VKS_OK);
        CHECK(s->groups[0].palette_count >= 1);
    } else {
        fprintf(stderr, "  weightless: %s: %s\n", err.path, err.msg);
    }
    vks_skin_free(s);
    make_strip();
}

/* Two meshes: the second's bones, palettes and vertices follow the first's. */
static void test_two_meshes(void)
{
    vks_skin *s = chain_skin(NB);
    vks_skin_builder *b = vks_builder_create(s);
    vks_error err = {0};
    vks_mesh_source m1 = strip_source(0), m2 = strip_source(3);
    m2.name = "second";
    CHECK_EQ_INT(vks_builder_add_mesh(b, &m1, &err), VKS_OK);
    CHECK_EQ_INT(vks_builder_add_mesh(b, &m2, &err), VKS_OK);
    CHECK_EQ_INT(vks_builder_finish(b, &err), VKS_OK);
    CHECK_EQ_INT(s->mesh_count, 2);
    CHECK_EQ_INT(s->bone_count, 2 * NB);
    CHECK_EQ_INT(s->meshes[1].first_bone, NB);
    check_against_source(s, 0, &m1, (const uint32_t(*)[3])tris, mats, NT, 0);
    check_against_source(s, 1, &m2, (const uint32_t(*)[3])tris, mats, NT, 3);
    vks_skin_free(s);

    /* palette entries are uint16 bone indices over the whole model: at most 65536 bones */
    static vks_bone many[40000];
    for (int i = 0; i < 40000; i++)
        many[i].node = 0, many[i].inverse_bind = vks_affine_identity();
    vks_mesh_source big = {0};
    big.name = "big";
    big.bone_count = 40000;
    big.bones = many;
    big.space_node = -1;
    s = chain_skin(1);
    b = vks_builder_create(s);
    err = (vks_error){0};
    CHECK_EQ_INT(vks_builder_add_mesh(b, &big, &err), VKS_OK);
    CHECK_EQ_INT(vks_builder_add_mesh(b, &big, &err), VKS_ERR_LIMIT);
    CHECK(vks_builder_finish(b, &err) != VKS_OK);
    vks_skin_free(s);
}

int main(void)
{
    make_strip();
    test_one_group();
    test_palette_limit(3);
    test_palette_limit(4);
    test_palette_limit(6);
    test_file_groups();
    make_strip();
    test_group_influences();
    test_errors();
    test_second_set();
    test_leftovers();
    test_two_meshes();
    return vks_test_finish("test_build");
}
