/* UV sets and materials through the glTF reader and writer (issue 26, item 1).
 *
 * Hand-made (gltf_fixture.h), every value written here: a 4-vertex strip with TEXCOORD_0 as
 * normalized u16 (0, 65535 -> 0, 1) and TEXCOORD_1 as floats, two materials (one with a base
 * colour only, one with a PNG in a bufferView read through TEXCOORD_1 and a sampler), the
 * primitive using the second; then one broken file per rule (material, texture, image and
 * sampler indices, a TEXCOORD count, an image in a bufferView without a mimeType), each naming
 * its JSON path. The writer: the model read back from vkskin's own .glb keeps UV sets,
 * materials, image bytes and sampler; a texture glTF core cannot hold (a .tga name) is kept in
 * the material's extras.vkskin.base_texture.
 *
 * Fox.glb (../shared/datasets/gltf, skipped where absent), numbers from its JSON and BIN chunk
 * read by a short Python walk: TEXCOORD_0 = accessor 1 (float VEC2, bufferView 1 at byte
 * 20736, stride 8), file vertex 0 at (0.5287119746208191, 0.678551971912384), vertex 1727 at
 * (0.6141380071640015, 0.48559099435806274); materials[0] "fox_material" with
 * baseColorTexture 0 -> textures[0] {sampler 0, source 0}; images[0] image/png in bufferView
 * 7 (26764 bytes); samplers[0] magFilter 9729, minFilter 9987. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "gltf_fixture.h"
#include "testutil.h"

enum { UBYTE = 5121, USHORT = 5123, FLOAT = 5126 };

static const uint8_t png[16] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'};

static uint8_t *textured_model(size_t *n)
{
    gltf_fixture *g = calloc(1, sizeof *g);
    static const float pos[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 2, 0}, {1, 2, 0}};
    static const uint16_t uv0[4][2] = {{0, 0}, {65535, 0}, {0, 65535}, {65535, 65535}};
    static const float uv1[4][2] = {{0.25f, 0.5f}, {0.75f, 0.5f}, {0.25f, 1.5f}, {0.75f, 1.5f}};
    static const uint8_t joints[4][4] = {{0}, {0}, {0}, {0}};
    static const uint8_t weights[4][4] = {{255}, {255}, {255}, {255}};
    static const float ibm[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    int p = gltf_fx_accessor(g, gltf_fx_view(g, pos, sizeof pos, 0), 0, FLOAT, 4, "VEC3", NULL);
    int t0 = gltf_fx_accessor(g, gltf_fx_view(g, uv0, sizeof uv0, 0), 0, USHORT, 4, "VEC2", ",\"normalized\":true");
    int t1 = gltf_fx_accessor(g, gltf_fx_view(g, uv1, sizeof uv1, 0), 0, FLOAT, 4, "VEC2", NULL);
    int j = gltf_fx_accessor(g, gltf_fx_view(g, joints, sizeof joints, 0), 0, UBYTE, 4, "VEC4", NULL);
    int w = gltf_fx_accessor(g, gltf_fx_view(g, weights, sizeof weights, 0), 0, UBYTE, 4, "VEC4",
                             ",\"normalized\":true");
    int ib = gltf_fx_accessor(g, gltf_fx_view(g, ibm, sizeof ibm, 0), 0, FLOAT, 1, "MAT4", NULL);
    int img = gltf_fx_view(g, png, sizeof png, 0);
    char body[2048];
    snprintf(body, sizeof body,
             "\"nodes\":[{\"mesh\":0,\"skin\":0},{\"name\":\"root\"}],"
             "\"meshes\":[{\"name\":\"strip\",\"primitives\":[{\"mode\":5,\"material\":1,\"attributes\":{"
             "\"POSITION\":%d,\"TEXCOORD_0\":%d,\"TEXCOORD_1\":%d,\"JOINTS_0\":%d,\"WEIGHTS_0\":%d}}]}],"
             "\"skins\":[{\"joints\":[1],\"inverseBindMatrices\":%d}],"
             "\"materials\":[{\"name\":\"plain\",\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.5,0.25,1,1]}},"
             "{\"name\":\"skin\",\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0,\"texCoord\":1}}}],"
             "\"textures\":[{\"source\":0,\"sampler\":0}],"
             "\"images\":[{\"name\":\"body\",\"bufferView\":%d,\"mimeType\":\"image/png\"}],"
             "\"samplers\":[{\"magFilter\":9728,\"wrapS\":33071}]",
             p, t0, t1, j, w, ib, img);
    uint8_t *b = gltf_fx_build(g, body, 0, n);
    free(g);
    return b;
}

static uint32_t model_vertex(const vks_skin *s, uint32_t f)
{
    for (uint32_t v = 0; v < s->vertex_count; v++)
        if (s->source_vertex[v] == f)
            return v;
    return 0;
}

static void check_textured(const vks_skin *s)
{
    CHECK_EQ_INT(s->uv_set_count, 2);
    CHECK_EQ_INT(s->meshes[0].uv_set_count, 2);
    uint32_t v3 = model_vertex(s, 3), v0 = model_vertex(s, 0);
    CHECK(s->uv[0][v3][0] == 1.0f && s->uv[0][v3][1] == 1.0f && s->uv[0][v0][0] == 0.0f);
    CHECK(s->uv[1][v3][0] == 0.75f && s->uv[1][v3][1] == 1.5f);
    CHECK_EQ_INT(s->material_count, 2);
    CHECK_EQ_INT(s->meshes[0].first_material, 1);
    CHECK_EQ_INT(s->meshes[0].material_count, 1);
    const vks_material *m0 = &s->materials[0], *m1 = vks_skin_triangle_material(s, 0, 0);
    CHECK(m1 == &s->materials[1]);
    CHECK(!strcmp(m0->name, "plain") && m0->base_color[1] == 0.25f && m0->base_image == -1);
    CHECK(!strcmp(m1->name, "skin") && m1->base_image == 0 && m1->base_sampler == 0 && m1->base_uv_set == 1);
    CHECK(m1->base_color[0] == 1 && m1->base_color[3] == 1);
    CHECK_EQ_INT(s->image_count, 1);
    CHECK(s->images[0].size == sizeof png && !memcmp(s->images[0].data, png, sizeof png));
    CHECK(!strcmp(s->images[0].mime_type, "image/png") && !strcmp(s->images[0].name, "body"));
    CHECK_EQ_INT(s->sampler_count, 1);
    CHECK(s->samplers[0].mag_filter == 9728 && s->samplers[0].wrap_s == 33071 && s->samplers[0].min_filter == 0);
}

static char *replace_once(const uint8_t *doc, size_t n, const char *find, const char *repl)
{
    const char *at = strstr((const char *)doc, find);
    if (!at)
        return NULL;
    size_t pre = (size_t)(at - (const char *)doc), fl = strlen(find), rl = strlen(repl);
    char *out = malloc(n - fl + rl + 1);
    memcpy(out, doc, pre);
    memcpy(out + pre, repl, rl);
    memcpy(out + pre + rl, doc + pre + fl, n - pre - fl);
    out[n - fl + rl] = 0;
    return out;
}

static const struct {
    const char *what, *find, *replace, *path, *msg;
} broken[] = {
    {"material index", "\"material\":1", "\"material\":2", "meshes[0].primitives[0]", "material 2 is out of range"},
    {"texture index", "{\"index\":0,", "{\"index\":1,", "materials[1].pbrMetallicRoughness.baseColorTexture",
     "index 1 is out of range"},
    {"texCoord", "\"texCoord\":1", "\"texCoord\":9", "materials[1].pbrMetallicRoughness.baseColorTexture",
     "texCoord must be an integer in 0..3"},
    {"image index", "{\"source\":0,", "{\"source\":3,", "textures[0]", "source 3 is out of range"},
    {"sampler index", "\"sampler\":0}", "\"sampler\":1}", "textures[0]", "sampler 1 is out of range"},
    {"image mimeType", ",\"mimeType\":\"image/png\"", "", "images[0]", "needs a mimeType"},
    {"image both", "\"name\":\"body\",", "\"name\":\"body\",\"uri\":\"a.png\",", "images[0]", "either a uri or"},
    {"texcoord count", "\"count\":4,\"type\":\"VEC2\",\"normalized\"", "\"count\":3,\"type\":\"VEC2\",\"normalized\"",
     "meshes[0].primitives[0].attributes.TEXCOORD_0", "3 elements, POSITION 4"},
    {"base colour", "[0.5,0.25,1,1]", "[0.5,0.25,1]", "materials[0].pbrMetallicRoughness",
     "baseColorFactor must be an array of 4"},
};

static void test_hand(void)
{
    size_t n = 0;
    uint8_t *doc = textured_model(&n);
    vks_skin *s = NULL;
    vks_error err = {0};
    CHECK(vks_gltf_read(NULL, doc, n, &s, &err) == VKS_OK);
    if (!s) {
        fprintf(stderr, "textured model: [%s] %s\n", err.path, err.msg);
        free(doc);
        return;
    }
    check_textured(s);

    /* through the writer and back: the same surface */
    char path[512];
    char dir[] = "/tmp/vks_gltf_surface_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/textured.glb", dir);
    vks_gltf_report rep;
    CHECK(vks_gltf_write_skin(path, s, NULL, 0, NULL, &rep, &err) == VKS_OK);
    CHECK_EQ_INT(rep.uv_sets, 2);
    CHECK_EQ_INT(rep.materials, 2);
    CHECK_EQ_INT(rep.images, 1);
    vks_skin *back = NULL;
    CHECK(vks_read_file(NULL, path, &back, &err) == VKS_OK);
    if (back)
        check_textured(back);
    vks_skin_free(back);

    /* a texture glTF core cannot hold: named in extras, no image written */
    s->materials[1].base_image = -1;
    s->materials[1].base_texture = "textures\\body.tga";
    char name[64];
    CHECK(vks_gltf_material_texture(s, 1, name, sizeof name) == VKS_GLTF_TEXTURE_BY_NAME);
    CHECK(!strcmp(name, "textures\\body.tga"));
    CHECK(vks_gltf_material_texture(s, 0, name, sizeof name) == VKS_GLTF_TEXTURE_NONE);
    CHECK(vks_gltf_write_skin(path, s, NULL, 0, NULL, &rep, &err) == VKS_OK);
    CHECK_EQ_INT(rep.images, 0);
    back = NULL;
    CHECK(vks_read_file(NULL, path, &back, &err) == VKS_OK);
    if (back) {
        CHECK_EQ_INT(back->material_count, 2);
        CHECK(back->materials[1].base_image == -1);
    }
    vks_skin_free(back);
    size_t jn = 0;
    uint8_t *glb = vks_test_read_file(path, &jn);
    uint32_t json_len = glb && jn > 20 ? (uint32_t)glb[12] | (uint32_t)glb[13] << 8 | (uint32_t)glb[14] << 16 : 0;
    cJSON *j = json_len && json_len <= jn - 20 ? cJSON_ParseWithLength((const char *)glb + 20, json_len) : NULL;
    cJSON *m1 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "materials"), 1);
    cJSON *vk = cJSON_GetObjectItem(cJSON_GetObjectItem(m1, "extras"), "vkskin");
    cJSON *bt = cJSON_GetObjectItem(vk, "base_texture");
    CHECK(cJSON_IsString(bt) && !strcmp(bt->valuestring, "textures\\body.tga"));
    CHECK(!cJSON_GetObjectItem(cJSON_GetObjectItem(m1, "pbrMetallicRoughness"), "baseColorTexture"));
    cJSON_Delete(j);
    free(glb);
    vks_skin_free(s);
    remove(path);
    rmdir(dir);

    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
        char *bad = replace_once(doc, n, broken[i].find, broken[i].replace);
        if (!bad) {
            fprintf(stderr, "%s: pattern not in the fixture\n", broken[i].what);
            CHECK(0);
            continue;
        }
        vks_skin *b = NULL;
        vks_error e = {0};
        vks_result r = vks_gltf_read(NULL, bad, strlen(bad), &b, &e);
        int ok = r == VKS_ERR_FORMAT && !b && !strcmp(e.path, broken[i].path) && strstr(e.msg, broken[i].msg);
        if (!ok)
            fprintf(stderr, "%s: got %s [%s] %s\n", broken[i].what, vks_result_str(r), e.path, e.msg);
        CHECK(ok);
        vks_skin_free(b);
        free(bad);
    }
    /* two primitives over the same attributes, materials 1 then 0 (a mesh with two materials,
       as the writer writes it): one skin mesh, material range 0..1, the strip's 2 triangles
       with material 1 (local 1), a fan's 2 with material 0 (local 0) */
    const char *prim = strstr((const char *)doc, "{\"mode\":5,\"material\":1,\"attributes\":");
    const char *end = prim ? strstr(prim, "}}]") : NULL;
    CHECK(prim && end);
    if (prim && end) {
        size_t pre = (size_t)(prim - (const char *)doc), len = (size_t)(end + 2 - prim);
        const char *attrs = prim + strlen("{\"mode\":5,\"material\":1,");
        char *two = malloc(n + len + 64);
        int w = snprintf(two, n + len + 64, "%.*s%.*s,{\"mode\":6,\"material\":0,%.*s%s", (int)pre, (const char *)doc,
                         (int)len, prim, (int)(end + 2 - attrs), attrs, end + 2);
        vks_skin *t = NULL;
        vks_error e = {0};
        CHECK(w > 0 && vks_gltf_read(NULL, two, (size_t)w, &t, &e) == VKS_OK);
        if (t) {
            CHECK_EQ_INT(t->mesh_count, 1);
            CHECK_EQ_INT(t->triangle_count, 4);
            CHECK_EQ_INT(t->meshes[0].first_material, 0);
            CHECK_EQ_INT(t->meshes[0].material_count, 2);
            CHECK(!strcmp(t->meshes[0].name, "strip"));
            int skin = 0, plain = 0;
            for (uint32_t k = 0; k < 4; k++) {
                const vks_material *m = vks_skin_triangle_material(t, 0, k);
                skin += m == &t->materials[1], plain += m == &t->materials[0];
            }
            CHECK(skin == 2 && plain == 2);
        } else {
            fprintf(stderr, "two primitives: [%s] %s\n", e.path, e.msg);
        }
        vks_skin_free(t);
        free(two);
    }
    CHECK_EQ_INT(vks_test_truncations(vks_gltf_read, NULL, doc, n, 1u << 16, NULL, 0, 0), 0);
    free(doc);
}

static void test_fox(void)
{
    const char *path = vks_test_dataset("gltf/Fox/Fox.glb");
    vks_skin *s = NULL;
    vks_error err = {0};
    if (vks_read_file(NULL, path, &s, &err) != VKS_OK) {
        printf("Fox.glb not read (%s): skipped\n", err.msg);
        return;
    }
    CHECK_EQ_INT(s->uv_set_count, 1);
    uint32_t v0 = model_vertex(s, 0), vl = model_vertex(s, 1727);
    CHECK(s->uv[0][v0][0] == 0.5287119746208191f && s->uv[0][v0][1] == 0.678551971912384f);
    CHECK(s->uv[0][vl][0] == 0.6141380071640015f && s->uv[0][vl][1] == 0.48559099435806274f);
    CHECK_EQ_INT(s->material_count, 1);
    CHECK(!strcmp(s->materials[0].name, "fox_material"));
    CHECK(s->materials[0].base_image == 0 && s->materials[0].base_sampler == 0);
    CHECK_EQ_INT(s->image_count, 1);
    CHECK(s->images[0].size == 26764 && !memcmp(s->images[0].data, png, 8));
    CHECK(!strcmp(s->images[0].mime_type, "image/png"));
    CHECK(s->samplers[0].mag_filter == 9729 && s->samplers[0].min_filter == 9987);
    vks_skin_free(s);
}

int main(void)
{
    test_hand();
    if (vks_test_failures) /* before the sample, whose absence exits 77 */
        return vks_test_finish("test_gltf_surface");
    test_fox();
    return vks_test_finish("test_gltf_surface");
}
