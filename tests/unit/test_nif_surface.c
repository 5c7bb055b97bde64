/* UV sets and materials of real NIF samples (issue 26), read in place from
 * ../shared/datasets/nif (skipped where absent). Ground truth:
 *   - pyffi_10.1.0.0_test_skincenterradius.nif: one NiTriShapeData with 1 UV set (DataFlags),
 *     its NiTexturingProperty's base texture an NiSourceTexture whose file name is the sized
 *     string "body.dds" (length 8 at byte 2605, the text at 2609: found by a byte search of the
 *     file), on UV set 0; NiMaterialProperty "Material", diffuse (1, 1, 1), alpha 1.
 *   - niftools_bna_4.0.0.2_dance.nif: "no normals or UVs" (datasets/README.md); its
 *     NiMaterialProperty is named "shadow".
 *   - niftools_bna_10.1.0.0_lodtest-skinned.nif: two shapes, NiMaterialProperty "Material" each,
 *     diffuse (0, 0, 1) and (1, 0, 0) (the float triples at bytes 248 and 256 of the file).
 *   - Skyrim (bsver 83 LE, 100 SE), by a struct parse of the files written for this test:
 *     nifly_skyrimle_cylinders_TestNifFile_Optimize_LE_to_SE.nif (LE: NiTriShapeData with
 *     BSDataFlags 0x1001, one UV set, f32) and nifly_sse_cylinders_TestNifFile_Skinned_SE.nif
 *     (SE: the UVs as half floats in NiSkinPartition's vertex data, VertexDesc attributes 0x5b,
 *     40-byte vertices from byte 1801) hold the same two cylinders of 136 vertices each, the
 *     same positions and the same UVs exactly (every LE value is a half float): vertex 0 of
 *     cylinder_1 has UV (1, 0.5) (LE: 2 f32 at byte 7304; SE: halves 0x3c00 0x3800 at byte
 *     1817), vertex 135 (0.88330078125, 0.55029296875) (SE: halves 0x3b11 0x3867). Each shape's
 *     BSLightingShaderProperty (alpha 1) points to a BSShaderTextureSet whose textures[0] is
 *     the sized string "textures\white.dds" (cylinder_1) or "textures\gray.dds" (cylinder_2),
 *     the other 8 empty (`strings` shows both names). pynifly_skyrimle_tetra_reference.nif's
 *     texture set holds 9 empty names: a material without texture.
 * Every UV of a mesh that has them lies in [0, 1] for these files (their textures do not tile). */
#include <math.h>
#include <string.h>

#include "testutil.h"

static vks_skin *load(const char *rel)
{
    const char *path = vks_test_dataset(rel);
    vks_skin *s = NULL;
    vks_error err = {0};
    if (vks_read_file(NULL, path, &s, &err) != VKS_OK) {
        fprintf(stderr, "%s: %s\n", rel, err.msg);
        CHECK(0);
        return NULL;
    }
    CHECK_EQ_INT(vks_skin_validate(s, &err), VKS_OK);
    return s;
}

/* The two Skyrim cylinders (see the top): 2 meshes of 136 vertices, one UV set, a material
   each with its diffuse texture. */
static void check_skyrim_cylinders(const vks_skin *s)
{
    static const char *const tex[2] = {"textures\\white.dds", "textures\\gray.dds"};
    CHECK_EQ_INT(s->mesh_count, 2);
    CHECK_EQ_INT(s->uv_set_count, 1);
    CHECK_EQ_INT(s->material_count, 2);
    if (s->mesh_count != 2 || !s->uv[0])
        return;
    for (uint32_t m = 0; m < 2; m++) {
        const vks_mesh *mesh = &s->meshes[m];
        CHECK_EQ_INT(mesh->vertex_count, 136);
        CHECK_EQ_INT(mesh->uv_set_count, 1);
        const vks_material *mt = vks_skin_triangle_material(s, m, mesh->first_triangle);
        CHECK(mt != NULL);
        if (mt) {
            CHECK(!strcmp(mt->base_texture, tex[m]));
            CHECK(mt->base_color[0] == 1 && mt->base_color[3] == 1 && mt->base_uv_set == 0 && mt->base_image == -1);
        }
        for (uint32_t v = 0; v < mesh->vertex_count; v++) {
            const float *uv = s->uv[0][mesh->first_vertex + v];
            CHECK(uv[0] >= 0 && uv[0] <= 1 && uv[1] >= 0 && uv[1] <= 1);
        }
    }
    const vks_mesh *c1 = &s->meshes[0];
    CHECK_EQ_INT(s->source_vertex[c1->first_vertex], 0);
    CHECK(s->uv[0][c1->first_vertex][0] == 1.0f && s->uv[0][c1->first_vertex][1] == 0.5f);
    CHECK_EQ_INT(s->source_vertex[c1->first_vertex + 135], 135);
    CHECK(s->uv[0][c1->first_vertex + 135][0] == 0.88330078125f && s->uv[0][c1->first_vertex + 135][1] == 0.55029296875f);
}

/* Skyrim LE (NiTriShapeData, BSDataFlags bit 0) and SE (half-float UVs in NiSkinPartition's
   vertex buffer, BSLightingShaderProperty -> BSShaderTextureSet); see the top. */
static void check_skyrim(void)
{
    vks_skin *le = load("nif/nifly_skyrimle_cylinders_TestNifFile_Optimize_LE_to_SE.nif");
    vks_skin *se = load("nif/nifly_sse_cylinders_TestNifFile_Skinned_SE.nif");
    if (le)
        check_skyrim_cylinders(le);
    if (se)
        check_skyrim_cylinders(se);
    if (le && se && le->vertex_count == se->vertex_count && le->uv[0] && se->uv[0])
        for (uint32_t v = 0; v < le->vertex_count; v++) /* the same UVs, one read as f32, one as f16 */
            CHECK(le->uv[0][v][0] == se->uv[0][v][0] && le->uv[0][v][1] == se->uv[0][v][1]);
    vks_skin_free(le);
    vks_skin_free(se);
    vks_skin *t = load("nif/pynifly_skyrimle_tetra_reference.nif");
    if (t) {
        CHECK_EQ_INT(t->uv_set_count, 1);
        CHECK_EQ_INT(t->material_count, 1);
        CHECK(t->material_count && !t->materials[0].base_texture[0] && t->materials[0].base_color[3] == 1);
        vks_skin_free(t);
    }
}

int main(void)
{
    check_skyrim();
    vks_skin *s = load("nif/pyffi_10.1.0.0_test_skincenterradius.nif");
    if (s) {
        CHECK_EQ_INT(s->uv_set_count, 1);
        CHECK_EQ_INT(s->meshes[0].uv_set_count, 1);
        for (uint32_t v = 0; v < s->vertex_count && s->uv[0]; v++)
            CHECK(s->uv[0][v][0] >= 0 && s->uv[0][v][0] <= 1 && s->uv[0][v][1] >= 0 && s->uv[0][v][1] <= 1);
        CHECK_EQ_INT(s->material_count, 1);
        const vks_material *m = vks_skin_triangle_material(s, 0, 0);
        CHECK(m != NULL);
        if (m) {
            CHECK(!strcmp(m->base_texture, "body.dds") && m->base_uv_set == 0 && m->base_image == -1);
            CHECK(!strcmp(m->name, "Material"));
            CHECK(m->base_color[0] == 1 && m->base_color[1] == 1 && m->base_color[2] == 1 && m->base_color[3] == 1);
        }
        char name[64];
        CHECK(vks_gltf_material_texture(s, 0, name, sizeof name) == VKS_GLTF_TEXTURE_BY_NAME);
        vks_skin_free(s);
    }
    s = load("nif/niftools_bna_4.0.0.2_dance.nif");
    if (s) {
        CHECK_EQ_INT(s->uv_set_count, 0);
        CHECK_EQ_INT(s->material_count, 1);
        CHECK(s->material_count && !strcmp(s->materials[0].name, "shadow") && !s->materials[0].base_texture[0]);
        vks_skin_free(s);
    }
    s = load("nif/niftools_bna_10.1.0.0_lodtest-skinned.nif");
    if (s) {
        CHECK_EQ_INT(s->material_count, 2);
        int blue = 0, red = 0;
        for (uint32_t m = 0; m < s->mesh_count; m++) {
            const vks_material *mt = vks_skin_triangle_material(s, m, s->meshes[m].first_triangle);
            CHECK(mt != NULL);
            blue += mt && mt->base_color[0] == 0 && mt->base_color[1] == 0 && mt->base_color[2] == 1;
            red += mt && mt->base_color[0] == 1 && mt->base_color[1] == 0 && mt->base_color[2] == 0;
        }
        CHECK(blue >= 1 && red >= 1);
        vks_skin_free(s);
    }
    return vks_test_finish("test_nif_surface");
}
