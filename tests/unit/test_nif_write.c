/* NIF writer round trips: generated characters (several palette limits, 1..4 influences) and
 * a hand-built two-root skin, written as 20.2.0.7 and 10.1.0.0, with triangle lists and
 * strips, read back and compared field by field with the model that was written; writing
 * the read-back model again gives the same bytes. Real samples round-trip too. UV sets
 * round-trip exactly (one set in Skyrim's 20.2.0.7 layout, all in 10.1.0.0). */
#include <math.h>
#include <string.h>

#include "character.h"
#include "vkskin/build.h"
#include "testutil.h"

static int same_affine(const vks_affine *a, const vks_affine *b)
{
    return memcmp(a->m, b->m, sizeof a->m) == 0;
}

/* b was read back from a's file; node_shift = 1 when the writer added a root node. */
static void compare(const vks_skin *a, const vks_skin *b, uint32_t node_shift)
{
    CHECK_EQ_INT(b->node_count, a->node_count + node_shift);
    for (uint32_t i = 0; i < a->node_count && i + node_shift < b->node_count; i++) {
        const vks_node *x = &a->nodes[i], *y = &b->nodes[i + node_shift];
        CHECK(strcmp(x->name, y->name) == 0);
        CHECK_EQ_INT(y->parent, x->parent < 0 ? (node_shift ? 0 : -1) : x->parent + (int32_t)node_shift);
        CHECK(same_affine(&x->bind_local, &y->bind_local));
    }
    CHECK_EQ_INT(b->mesh_count, a->mesh_count);
    CHECK_EQ_INT(b->vertex_count, a->vertex_count);
    CHECK_EQ_INT(b->triangle_count, a->triangle_count);
    CHECK_EQ_INT(b->group_count, a->group_count);
    CHECK_EQ_INT(b->bone_count, a->bone_count);
    CHECK_EQ_INT(b->palette_count, a->palette_count);
    if (b->vertex_count != a->vertex_count || b->group_count != a->group_count || b->bone_count != a->bone_count ||
        b->triangle_count != a->triangle_count || b->palette_count != a->palette_count)
        return;
    for (uint32_t m = 0; m < a->mesh_count; m++) {
        const vks_mesh *x = &a->meshes[m], *y = &b->meshes[m];
        CHECK(strcmp(x->name, y->name) == 0);
        CHECK_EQ_INT(y->source_vertex_count, x->source_vertex_count);
        CHECK_EQ_INT(y->space_node, x->space_node < 0 ? 0 : x->space_node + (int32_t)node_shift);
        CHECK(same_affine(&x->space_pre, &y->space_pre));
    }
    for (uint32_t i = 0; i < a->bone_count; i++) {
        CHECK_EQ_INT(b->bones[i].node, a->bones[i].node + node_shift);
        CHECK(same_affine(&a->bones[i].inverse_bind, &b->bones[i].inverse_bind));
    }
    for (uint32_t g = 0; g < a->group_count; g++) {
        CHECK_EQ_INT(b->groups[g].first_vertex, a->groups[g].first_vertex);
        CHECK_EQ_INT(b->groups[g].vertex_count, a->groups[g].vertex_count);
        CHECK_EQ_INT(b->groups[g].triangle_count, a->groups[g].triangle_count);
        CHECK_EQ_INT(b->groups[g].palette_count, a->groups[g].palette_count);
    }
    CHECK(memcmp(a->palette, b->palette, a->palette_count * sizeof *a->palette) == 0);
    CHECK(memcmp(a->triangles, b->triangles, a->triangle_count * sizeof *a->triangles) == 0);
    CHECK(memcmp(a->source_vertex, b->source_vertex, a->vertex_count * sizeof *a->source_vertex) == 0);
    CHECK(memcmp(a->positions, b->positions, a->vertex_count * sizeof *a->positions) == 0);
    if (a->normals)
        CHECK(b->normals && memcmp(a->normals, b->normals, a->vertex_count * sizeof *a->normals) == 0);
    /* UV sets (issue 26): NiGeometryData's, exact; Skyrim's layout (20.2.0.7) holds one set */
    uint32_t sets = a->uv_set_count;
    if (b->uv_set_count < sets && sets > 1 && b->uv_set_count == 1)
        sets = 1;
    CHECK_EQ_INT(b->uv_set_count, sets);
    for (uint32_t k = 0; k < sets && k < b->uv_set_count; k++)
        CHECK(b->uv[k] && memcmp(a->uv[k], b->uv[k], a->vertex_count * sizeof *a->uv[k]) == 0);
    uint32_t bad = 0;
    for (uint32_t v = 0; v < a->vertex_count; v++)
        for (int k = 0; k < 4; k++) {
            /* weights pass through the reader's normalisation: equal to float rounding */
            bad += a->influences[v].weight[k] > 0 && a->influences[v].index[k] != b->influences[v].index[k];
            bad += fabsf(a->influences[v].weight[k] - b->influences[v].weight[k]) > 1e-6f;
        }
    CHECK_EQ_INT(bad, 0);
}

static void round_trip(const vks_skin *a, uint32_t version, int strips, uint32_t node_shift, const char *what)
{
    vks_write_options wo = {version, strips, 0};
    uint8_t *bytes = NULL, *bytes2 = NULL;
    size_t size = 0, size2 = 0;
    vks_error e = {0};
    char line[512];
    vks_result rc = vks_nif_write(a, &wo, &bytes, &size, &e);
    if (rc != VKS_OK)
        fprintf(stderr, "%s: %s\n", what, vks_error_format(&e, NULL, line, sizeof line));
    CHECK_EQ_INT(rc, VKS_OK);
    if (rc != VKS_OK)
        return;
    vks_skin *b = NULL;
    const char *fmt = NULL;
    CHECK(vks_detect_format(bytes, size, NULL, &fmt) == vks_nif_read);
    rc = vks_nif_read(NULL, bytes, size, &b, &e);
    if (rc != VKS_OK)
        fprintf(stderr, "%s: %s\n", what, vks_error_format(&e, NULL, line, sizeof line));
    CHECK_EQ_INT(rc, VKS_OK);
    if (rc == VKS_OK) {
        CHECK_EQ_INT(vks_skin_validate(b, &e), VKS_OK);
        compare(a, b, node_shift);
        vks_bind_check bc;
        CHECK_EQ_INT(vks_cpu_bind_check(b, &bc, &e), VKS_OK);
        CHECK(bc.max_error_relative < 1e-5);
        printf("%-44s %8zu bytes, %u vertices, %u groups, bind error %.3g\n", what, size, b->vertex_count,
               b->group_count, bc.max_error);
        /* idempotent: the read-back model writes the same bytes (no extra root the 2nd time) */
        if (node_shift == 0) {
            CHECK_EQ_INT(vks_nif_write(b, &wo, &bytes2, &size2, &e), VKS_OK);
            CHECK(size2 == size && bytes2 && memcmp(bytes, bytes2, size) == 0);
            free(bytes2);
        }
        /* every prefix of a small written file fails cleanly */
        if (size < 20000)
            CHECK_EQ_INT(vks_test_truncations(vks_nif_read, NULL, bytes, size, 20000, NULL, 0, 0), 0);
    }
    vks_skin_free(b);
    free(bytes);
}

/* Two roots, a mesh with no skin-space node and a non-identity space_pre: the writer adds a
   root node and the reader maps the skin space back to the same matrices. */
static vks_skin *two_root_skin(void)
{
    vks_skin *s = vks_skin_create(NULL);
    s->node_count = 3;
    s->nodes = vks_skin_alloc_array(s, 3, sizeof *s->nodes);
    const char *names[3] = {"A", "B", "B.child"};
    int32_t parents[3] = {-1, -1, 1};
    for (int i = 0; i < 3; i++) {
        s->nodes[i].name = names[i];
        s->nodes[i].parent = parents[i];
        s->nodes[i].bind_local = vks_affine_identity();
        s->nodes[i].bind_local.m[9] = (float)i;
    }
    static const float pos[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    static const uint16_t bone[4][4] = {{0}, {1}, {0, 1}, {1, 0}};
    static const float weight[4][4] = {{1}, {1}, {0.5f, 0.5f}, {0.75f, 0.25f}};
    static const uint32_t tris[2][3] = {{0, 1, 2}, {0, 2, 3}};
    /* bind-consistent: IB = (space_pre * W(node))^-1; W(A) = identity, W(B.child) = x + 3,
       space_pre = z + 2 */
    vks_bone bones[2];
    for (int i = 0; i < 2; i++) {
        bones[i].node = (uint32_t)(i * 2);
        bones[i].inverse_bind = vks_affine_identity();
        bones[i].inverse_bind.m[9] = i ? -3.0f : 0.0f;
        bones[i].inverse_bind.m[11] = -2.0f;
    }
    vks_mesh_source m = {0};
    m.name = "quad";
    m.vertex_count = 4;
    m.positions = pos;
    m.bone = bone;
    m.weight = weight;
    m.triangle_count = 2;
    m.triangles = tris;
    m.bone_count = 2;
    m.bones = bones;
    m.space_node = -1;
    m.space_pre = vks_affine_identity();
    m.space_pre.m[11] = 2.0f;
    vks_error e = {0};
    vks_skin_builder *b = vks_builder_create(s);
    CHECK_EQ_INT(vks_builder_add_mesh(b, &m, &e), VKS_OK);
    CHECK_EQ_INT(vks_builder_finish(b, &e), VKS_OK);
    s->format = "test";
    vks_bind_check bc;
    CHECK_EQ_INT(vks_cpu_bind_check(s, &bc, &e), VKS_OK);
    CHECK(bc.max_error == 0);
    return s;
}

int main(void)
{
    static const struct {
        uint32_t bones, vertices, influences, palette;
    } cases[] = {{32, 2000, 4, 16}, {20, 600, 1, 0}, {64, 3000, 3, 24}, {24, 800, 2, 8}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        vks_gen_params p = {0};
        p.seed = 11 + c;
        p.bones = cases[c].bones;
        p.vertices = cases[c].vertices;
        p.max_influences = cases[c].influences;
        p.palette_limit = cases[c].palette;
        vks_error e = {0};
        vks_skin *a = vks_gen_character(&p, &e);
        CHECK(a != NULL);
        if (!a)
            continue;
        char what[96];
        snprintf(what, sizeof what, "generated %u bones, limit %u, 20.2.0.7", p.bones, p.palette_limit);
        round_trip(a, 0, 0, 0, what);
        snprintf(what, sizeof what, "generated %u bones, limit %u, 10.1.0.0", p.bones, p.palette_limit);
        round_trip(a, 0x0A010000u, 0, 0, what);
        snprintf(what, sizeof what, "generated %u bones, limit %u, strips", p.bones, p.palette_limit);
        round_trip(a, 0x14020007u, 1, 0, what);
        vks_skin_free(a);
    }

    /* two UV sets: both round-trip at 10.1.0.0, the first at 20.2.0.7 (compare's rule) */
    {
        vks_gen_params p = {0};
        p.bones = 24, p.vertices = 600;
        vks_error e = {0};
        vks_skin *a = vks_gen_character(&p, &e);
        CHECK(a != NULL && a->uv_set_count == 1);
        if (a) {
            a->uv[1] = vks_skin_alloc_array(a, a->vertex_count, sizeof *a->uv[1]);
            for (uint32_t v = 0; a->uv[1] && v < a->vertex_count; v++)
                a->uv[1][v][0] = a->uv[0][v][1], a->uv[1][v][1] = 1.0f - a->uv[0][v][0];
            a->uv_set_count = 2;
            for (uint32_t m = 0; m < a->mesh_count; m++)
                a->meshes[m].uv_set_count = 2;
            round_trip(a, 0x0A010000u, 0, 0, "generated, two UV sets, 10.1.0.0");
            round_trip(a, 0, 0, 0, "generated, two UV sets, 20.2.0.7");
            vks_skin_free(a);
        }
    }

    vks_skin *t = two_root_skin();
    round_trip(t, 0, 0, 1, "two roots, no skin-space node");
    round_trip(t, 0x0A010000u, 1, 1, "two roots, 10.1.0.0 strips");
    /* unsupported target version: one clear error */
    uint8_t *bytes = NULL;
    size_t size = 0;
    vks_write_options bad = {0x04000002u, 0, 0};
    vks_error e = {0};
    CHECK_EQ_INT(vks_nif_write(t, &bad, &bytes, &size, &e), VKS_ERR_UNSUPPORTED);
    CHECK(bytes == NULL && e.msg[0]);
    vks_skin_free(t);
    return vks_test_finish("test_nif_write");
}
