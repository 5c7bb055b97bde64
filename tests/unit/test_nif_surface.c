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

int main(void)
{
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
