/* The glTF reader on hand-made files (gltf_fixture.h), each value worked out by hand:
 * strips and fans, normalized u8 / u16 weights, interleaved attributes (byteStride), sparse
 * accessors with and without a bufferView, JOINTS_1/WEIGHTS_1 kept whole (8 slots), the
 * ignored transform of a skinned mesh node, external buffers through the file callback,
 * .gltf and .glb giving the same model, and clips: LINEAR slerp from normalized byte
 * rotations, CUBICSPLINE against the specification's formula, STEP, a weights channel as a
 * morph track, unnamed animations named by index. Then the errors, each naming its JSON
 * path (or .glb byte offset), and every prefix and corrupted byte of a small .glb.
 * `test_gltf_hand --write-seeds DIR` writes the files as fuzz seeds. */
#include <math.h>
#include <string.h>

#include "gltf_fixture.h"
#include "testutil.h"

enum { BYTE = 5120, UBYTE = 5121, SHORT = 5122, USHORT = 5123, UINT = 5125, FLOAT = 5126 };

static const char *seed_dir;

static void seed(const char *name, const uint8_t *b, size_t n)
{
    if (!seed_dir)
        return;
    char path[512];
    snprintf(path, sizeof path, "%s/%s", seed_dir, name);
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(b, 1, n, f);
        fclose(f);
    }
}

static gltf_fixture *fx(void)
{
    gltf_fixture *g = calloc(1, sizeof *g);
    if (!g)
        abort();
    return g;
}

static vks_skin *read_ok(const uint8_t *b, size_t n, const vks_read_options *opt)
{
    vks_skin *s = NULL;
    vks_error err = {0};
    if (vks_gltf_read(opt, b, n, &s, &err) != VKS_OK) {
        fprintf(stderr, "unexpected failure: %s: %s (offset %llu)\n", err.path, err.msg, (unsigned long long)err.offset);
        CHECK(0);
        return NULL;
    }
    CHECK(vks_skin_validate(s, &err) == VKS_OK);
    return s;
}

/* The bone (node name) of slot k of vertex v. */
static const char *slot_node(const vks_skin *s, uint32_t v, int k)
{
    const vks_group *g = &s->groups[0];
    for (uint32_t i = 0; i < s->group_count; i++)
        if (v >= s->groups[i].first_vertex && v < s->groups[i].first_vertex + s->groups[i].vertex_count)
            g = &s->groups[i];
    uint16_t bone = s->palette[g->first_palette + s->influences[v].index[k]];
    return s->nodes[s->bones[bone].node].name;
}

/* The file vertex f of mesh 0 in the model's order. */
static uint32_t model_vertex(const vks_skin *s, uint32_t f)
{
    for (uint32_t v = 0; v < s->meshes[0].vertex_count; v++)
        if (s->source_vertex[v] == f)
            return v;
    return UINT32_MAX;
}

/* Two joints: "root" at the origin, "tip" at (0, 1, 0) under it; the skinned mesh node sits at
 * (5, 5, 5), which the specification says to ignore. Inverse binds: identity and T(0, -1, 0). */
static const char *two_joint_scene =
    "\"scene\":0,\"scenes\":[{\"nodes\":[0,1]}],"
    "\"nodes\":[{\"mesh\":0,\"skin\":0,\"translation\":[5,5,5]},{\"name\":\"root\",\"children\":[2]},"
    "{\"name\":\"tip\",\"translation\":[0,1,0]}],";

static int two_joint_ibm(gltf_fixture *g)
{
    static const float ibm[32] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
                                  1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1};
    return gltf_fx_accessor(g, gltf_fx_view(g, ibm, sizeof ibm, 0), 0, FLOAT, 2, "MAT4", NULL);
}

/* A strip of 4 vertices, u8 joints, normalized u8 weights, interleaved POSITION + NORMAL. */
static uint8_t *strip_model(int glb, size_t *n)
{
    gltf_fixture *g = fx();
    static const float pn[4][6] = {{0, 0, 0, 0, 0, 1}, {1, 0, 0, 0, 0, 1}, {0, 2, 0, 0, 0, 1}, {1, 2, 0, 0, 0, 1}};
    static const uint8_t joints[4][4] = {{0, 1, 0, 0}, {0, 1, 0, 0}, {0, 1, 0, 0}, {0, 1, 0, 0}};
    static const uint8_t weights[4][4] = {{255, 0, 0, 0}, {255, 0, 0, 0}, {128, 127, 0, 0}, {0, 255, 0, 0}};
    int v = gltf_fx_view(g, pn, sizeof pn, 24);
    int pos = gltf_fx_accessor(g, v, 0, FLOAT, 4, "VEC3", NULL);
    int nrm = gltf_fx_accessor(g, v, 12, FLOAT, 4, "VEC3", NULL);
    int j = gltf_fx_accessor(g, gltf_fx_view(g, joints, sizeof joints, 0), 0, UBYTE, 4, "VEC4", NULL);
    int w = gltf_fx_accessor(g, gltf_fx_view(g, weights, sizeof weights, 0), 0, UBYTE, 4, "VEC4",
                             ",\"normalized\":true");
    int ibm = two_joint_ibm(g);
    char body[1024];
    snprintf(body, sizeof body,
             "%s\"meshes\":[{\"name\":\"strip\",\"primitives\":[{\"mode\":5,\"attributes\":{\"POSITION\":%d,"
             "\"NORMAL\":%d,\"JOINTS_0\":%d,\"WEIGHTS_0\":%d}}]}],\"skins\":[{\"joints\":[1,2],"
             "\"inverseBindMatrices\":%d}]",
             two_joint_scene, pos, nrm, j, w, ibm);
    uint8_t *b = gltf_fx_build(g, body, glb, n);
    free(g);
    return b;
}

static void test_strip(void)
{
    size_t n = 0, m = 0;
    uint8_t *text = strip_model(0, &n), *bin = strip_model(1, &m);
    seed("strip.gltf", text, n);
    seed("strip.glb", bin, m);
    vks_skin *s = read_ok(text, n, NULL), *b = read_ok(bin, m, NULL);
    if (s && b) {
        CHECK_EQ_INT(s->node_count, 2);
        CHECK(!strcmp(s->nodes[0].name, "root") && !strcmp(s->nodes[1].name, "tip"));
        CHECK_EQ_INT(s->nodes[1].parent, 0);
        CHECK_EQ_INT(s->triangle_count, 2);
        /* strip winding (specification 3.7.2.1): (0 1 2), (1 3 2) */
        uint32_t t0[3], t1[3];
        for (int k = 0; k < 3; k++)
            t0[k] = s->source_vertex[s->triangles[0][k]], t1[k] = s->source_vertex[s->triangles[1][k]];
        CHECK(t0[0] == 0 && t0[1] == 1 && t0[2] == 2);
        CHECK(t1[0] == 1 && t1[1] == 3 && t1[2] == 2);
        CHECK(s->meshes[0].flags & VKS_MESH_HAS_NORMALS);
        CHECK_EQ_INT(s->meshes[0].space_node, -1);
        uint32_t v2 = model_vertex(s, 2), v3 = model_vertex(s, 3);
        /* interleaved: vertex 3 is (1, 2, 0) with normal (0, 0, 1) */
        CHECK(s->positions[v3][0] == 1 && s->positions[v3][1] == 2 && s->normals[v3][2] == 1);
        /* normalized u8: 128 / 255 and 127 / 255 (sum 1, kept) */
        CHECK_NEAR(s->influences[v2].weight[0], 128.0 / 255.0, 1e-7);
        CHECK_NEAR(s->influences[v2].weight[1], 127.0 / 255.0, 1e-7);
        CHECK(!strcmp(slot_node(s, v2, 0), "root") && !strcmp(slot_node(s, v2, 1), "tip"));
        CHECK(!strcmp(slot_node(s, v3, 0), "tip") && s->influences[v3].weight[0] == 1.0f);
        /* the mesh node's (5, 5, 5) is ignored: the bind pose gives the stored vertices */
        vks_bind_check bc;
        vks_error err = {0};
        CHECK(vks_cpu_bind_check(s, &bc, &err) == VKS_OK && bc.pass && bc.max_error == 0);
        /* .glb and .gltf: the same model */
        CHECK(b->vertex_count == s->vertex_count && b->triangle_count == s->triangle_count);
        CHECK(!memcmp(b->positions, s->positions, s->vertex_count * sizeof *s->positions));
        CHECK(!memcmp(b->influences, s->influences, s->vertex_count * sizeof *s->influences));
        CHECK(!strncmp(b->format_detail, "glTF 2.0 (.glb", 14) && !strncmp(s->format_detail, "glTF 2.0 (.gltf", 15));
    }
    vks_skin_free(s), vks_skin_free(b);
    free(text), free(bin);
}

/* A fan of 5 vertices through u16 indices, u16 normalized weights, positions from a sparse
 * accessor over a bufferView, and no NORMAL (the mesh then has no normals). */
static void test_fan_sparse(void)
{
    gltf_fixture *g = fx();
    static const float pos[5][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {-1, 1, 0}};
    static const uint16_t idx[6] = {0, 1, 2, 3, 4, 0}; /* 5 used, padded */
    static const uint8_t joints[5][4] = {{0}, {0}, {0, 1}, {1}, {1}};
    static const uint16_t weights[5][4] = {{65535}, {65535}, {32768, 32767}, {65535}, {65535}};
    static const uint8_t sparse_idx[4] = {2, 4};
    static const float sparse_val[2][3] = {{9, 9, 9}, {-2, 2, 0}};
    int si = gltf_fx_view(g, sparse_idx, sizeof sparse_idx, 0), sv = gltf_fx_view(g, sparse_val, sizeof sparse_val, 0);
    char extra[256];
    snprintf(extra, sizeof extra,
             ",\"sparse\":{\"count\":2,\"indices\":{\"bufferView\":%d,\"componentType\":5121},"
             "\"values\":{\"bufferView\":%d}}", si, sv);
    /* the positions used: the dense view plus the sparse substitution */
    int pp = gltf_fx_accessor(g, gltf_fx_view(g, pos, sizeof pos, 0), 0, FLOAT, 5, "VEC3", extra);
    int i = gltf_fx_accessor(g, gltf_fx_view(g, idx, sizeof idx, 0), 0, USHORT, 5, "SCALAR", NULL);
    int j = gltf_fx_accessor(g, gltf_fx_view(g, joints, sizeof joints, 0), 0, UBYTE, 5, "VEC4", NULL);
    int w = gltf_fx_accessor(g, gltf_fx_view(g, weights, sizeof weights, 0), 0, USHORT, 5, "VEC4",
                             ",\"normalized\":true");
    int ibm = two_joint_ibm(g);
    char body[1024];
    snprintf(body, sizeof body,
             "%s\"meshes\":[{\"primitives\":[{\"mode\":6,\"indices\":%d,\"attributes\":{\"POSITION\":%d,"
             "\"JOINTS_0\":%d,\"WEIGHTS_0\":%d}}]}],\"skins\":[{\"joints\":[1,2],\"inverseBindMatrices\":%d}]",
             two_joint_scene, i, pp, j, w, ibm);
    size_t n = 0;
    uint8_t *b = gltf_fx_build(g, body, 1, &n);
    seed("fan_sparse.glb", b, n);
    vks_skin *s = read_ok(b, n, NULL);
    if (s) {
        /* fan (specification 3.7.2.1): (1 2 0), (2 3 0), (3 4 0) */
        CHECK_EQ_INT(s->triangle_count, 3);
        static const uint32_t want[3][3] = {{1, 2, 0}, {2, 3, 0}, {3, 4, 0}};
        for (int t = 0; t < 3 && t < (int)s->triangle_count; t++)
            for (int k = 0; k < 3; k++)
                CHECK_EQ_INT(s->source_vertex[s->triangles[t][k]], want[t][k]);
        CHECK(!(s->meshes[0].flags & VKS_MESH_HAS_NORMALS));
        CHECK(!strcmp(s->meshes[0].name, "meshes[0]"));
        uint32_t v2 = model_vertex(s, 2), v4 = model_vertex(s, 4), v1 = model_vertex(s, 1);
        CHECK(s->positions[v2][0] == 9 && s->positions[v2][1] == 9 && s->positions[v2][2] == 9);
        CHECK(s->positions[v4][0] == -2 && s->positions[v4][1] == 2);
        CHECK(s->positions[v1][0] == 1 && s->positions[v1][1] == 0);
        /* normalized u16: 32768 / 65535 and 32767 / 65535 */
        CHECK_NEAR(s->influences[v2].weight[0], 32768.0 / 65535.0, 1e-7);
        CHECK_NEAR(s->influences[v2].weight[1], 32767.0 / 65535.0, 1e-7);
    }
    vks_skin_free(s);
    free(b);
    free(g);
}

/* Sparse over no bufferView: zeros, three of four vertices replaced (u16 indices). Eight
 * joints in a chain and two weight sets: vertex 0 has 8 weights, 4 kept and renormalised. */
static void test_two_sets(void)
{
    gltf_fixture *g = fx();
    static const uint16_t sidx[3] = {1, 2, 3};
    static const float sval[3][3] = {{1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
    static const uint16_t j0[4][4] = {{0, 1, 2, 3}, {0}, {0}, {7}};
    static const uint16_t j1[4][4] = {{4, 5, 6, 7}, {0}, {0}, {0}};
    static const float w0[4][4] = {{0.3f, 0.2f, 0.1f, 0.05f}, {1}, {1}, {1}};
    static const float w1[4][4] = {{0.25f, 0.05f, 0.03f, 0.02f}, {0}, {0}, {0}};
    static const uint32_t idx[6] = {0, 1, 2, 2, 1, 3};
    int si = gltf_fx_view(g, sidx, sizeof sidx, 0), sv = gltf_fx_view(g, sval, sizeof sval, 0);
    char extra[256];
    snprintf(extra, sizeof extra,
             ",\"sparse\":{\"count\":3,\"indices\":{\"bufferView\":%d,\"componentType\":5123},"
             "\"values\":{\"bufferView\":%d}}", si, sv);
    int p = gltf_fx_accessor(g, -1, 0, FLOAT, 4, "VEC3", extra);
    int a = gltf_fx_accessor(g, gltf_fx_view(g, j0, sizeof j0, 0), 0, USHORT, 4, "VEC4", NULL);
    int b = gltf_fx_accessor(g, gltf_fx_view(g, j1, sizeof j1, 0), 0, USHORT, 4, "VEC4", NULL);
    int c = gltf_fx_accessor(g, gltf_fx_view(g, w0, sizeof w0, 0), 0, FLOAT, 4, "VEC4", NULL);
    int d = gltf_fx_accessor(g, gltf_fx_view(g, w1, sizeof w1, 0), 0, FLOAT, 4, "VEC4", NULL);
    int i = gltf_fx_accessor(g, gltf_fx_view(g, idx, sizeof idx, 0), 0, UINT, 6, "SCALAR", NULL);
    char body[2048];
    snprintf(body, sizeof body,
             "\"nodes\":[{\"name\":\"j0\",\"children\":[1]},{\"name\":\"j1\",\"children\":[2]},{\"name\":\"j2\","
             "\"children\":[3]},{\"name\":\"j3\",\"children\":[4]},{\"name\":\"j4\",\"children\":[5]},"
             "{\"name\":\"j5\",\"children\":[6]},{\"name\":\"j6\",\"children\":[7]},{\"name\":\"j7\"},"
             "{\"mesh\":0,\"skin\":0}],"
             "\"meshes\":[{\"primitives\":[{\"indices\":%d,\"attributes\":{\"POSITION\":%d,\"JOINTS_0\":%d,"
             "\"WEIGHTS_0\":%d,\"JOINTS_1\":%d,\"WEIGHTS_1\":%d}}]}],"
             "\"skins\":[{\"joints\":[0,1,2,3,4,5,6,7]}]",
             i, p, a, c, b, d);
    size_t n = 0;
    uint8_t *bytes = gltf_fx_build(g, body, 0, &n);
    seed("two_sets.gltf", bytes, n);
    vks_skin *s = read_ok(bytes, n, NULL);
    if (s) {
        CHECK_EQ_INT(s->node_count, 8);
        CHECK_EQ_INT(s->weights.over_four, 1);
        uint32_t v0 = model_vertex(s, 0), v3 = model_vertex(s, 3);
        CHECK(s->positions[v0][0] == 0 && s->positions[v0][1] == 0); /* no bufferView: zero */
        CHECK(s->positions[v3][0] == 1 && s->positions[v3][1] == 1); /* sparse */
        /* all 8 of 0.3 0.2 0.1 0.05 | 0.25 0.05 0.03 0.02, largest first (ties: the earlier
           set and slot), as stored: they sum to 1 already */
        static const char *names[8] = {"j0", "j4", "j1", "j2", "j3", "j5", "j6", "j7"};
        static const double w[8] = {0.3, 0.25, 0.2, 0.1, 0.05, 0.05, 0.03, 0.02};
        for (int k = 0; k < 8; k++) {
            CHECK(!strcmp(slot_node(s, v0, k), names[k]));
            CHECK_NEAR(s->influences[v0].weight[k], w[k], 1e-6);
        }
        CHECK_EQ_INT(s->groups[0].max_influences, 8);
        CHECK_EQ_INT(s->weights.truncated, 0);
        CHECK(!strcmp(slot_node(s, v3, 0), "j7"));
        CHECK_NEAR(s->weights.stored_max_sum, 1.0, 1e-6);
    }
    vks_skin_free(s);
    free(bytes);
    free(g);
}

/* A .gltf whose buffer is a separate file, found through the file callback. */
typedef struct served {
    const uint8_t *bytes;
    size_t size;
    char asked[256];
    int reads, releases;
} served;

static vks_result serve(void *user, const char *path, uint64_t max_size, void **bytes, size_t *size, vks_error *err)
{
    served *s = user;
    (void)max_size;
    snprintf(s->asked, sizeof s->asked, "%s", path);
    s->reads++;
    if (strcmp(path, "assets/sub dir/mesh data.bin"))
        return vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, "file", "no such file");
    *bytes = malloc(s->size);
    memcpy(*bytes, s->bytes, s->size);
    *size = s->size;
    return VKS_OK;
}

static void release(void *user, void *bytes)
{
    ((served *)user)->releases++;
    free(bytes);
}

static void test_external(void)
{
    size_t n = 0;
    uint8_t *glb = strip_model(1, &n);
    /* the .glb's JSON with the BIN chunk moved into a file named by a percent-encoded URI */
    uint32_t jlen = (uint32_t)glb[12] | (uint32_t)glb[13] << 8;
    char *json = calloc(1, jlen + 128);
    memcpy(json, glb + 20, jlen);
    char *at = strstr(json, "\"buffers\":[{");
    CHECK(at != NULL);
    if (!at) {
        free(json), free(glb);
        return;
    }
    at += strlen("\"buffers\":[{");
    static const char uri[] = "\"uri\":\"sub%20dir/mesh%20data.bin\",";
    memmove(at + strlen(uri), at, strlen(at) + 1);
    memcpy(at, uri, strlen(uri));
    served sv = {glb + 28 + jlen, n - 28 - jlen, "", 0, 0};
    vks_read_options opt = {0};
    opt.file.read = serve;
    opt.file.release = release;
    opt.file.user = &sv;
    opt.gltf.path = "assets/model.gltf";
    vks_skin *s = read_ok((const uint8_t *)json, strlen(json), &opt);
    CHECK(!strcmp(sv.asked, "assets/sub dir/mesh data.bin"));
    CHECK(sv.reads == 1 && sv.releases == 1);
    CHECK(s && s->vertex_count == 4);
    vks_skin_free(s);
    /* without the .gltf's path the buffer cannot be found: said, not guessed */
    vks_error err = {0};
    s = NULL;
    CHECK(vks_gltf_read(NULL, json, strlen(json), &s, &err) == VKS_ERR_INVALID && !s);
    CHECK(!strcmp(err.path, "buffers[0]") && strstr(err.msg, "read_options.gltf.path"));
    /* a missing file names the file */
    opt.gltf.path = "elsewhere/model.gltf";
    memset(&err, 0, sizeof err);
    CHECK(vks_gltf_read(&opt, json, strlen(json), &s, &err) == VKS_ERR_IO && !s);
    if (strcmp(err.file, "elsewhere/sub dir/mesh data.bin") || !strstr(err.msg, "cannot read"))
    {
        fprintf(stderr, "missing buffer: [%s] [%s] %s\n", err.file, err.path, err.msg);
        CHECK(0);
    }
    free(json);
    free(glb);
}

/* Clips: rotation of "tip" from normalized bytes (LINEAR: slerp), translation of "root" as
 * CUBICSPLINE, scale of "tip" as STEP, a weights channel, and a second, unnamed animation. */
static uint8_t *clip_file(int glb, size_t *n)
{
    gltf_fixture *g = fx();
    int base_model_view;
    static const float pos[3][3] = {{0, 0, 0}, {1, 2, 0}, {0, 2, 0}};
    static const uint8_t joints[3][4] = {{0}, {1}, {1}};
    static const float weights[3][4] = {{1}, {1}, {1}};
    base_model_view = gltf_fx_view(g, pos, sizeof pos, 0);
    int p = gltf_fx_accessor(g, base_model_view, 0, FLOAT, 3, "VEC3", NULL);
    int j = gltf_fx_accessor(g, gltf_fx_view(g, joints, sizeof joints, 0), 0, UBYTE, 3, "VEC4", NULL);
    int w = gltf_fx_accessor(g, gltf_fx_view(g, weights, sizeof weights, 0), 0, FLOAT, 3, "VEC4", NULL);
    int ibm = two_joint_ibm(g);
    static const float t3[3] = {0, 1, 2}, t2[2] = {0, 2}, t2s[2] = {0, 1};
    /* rotations (x, y, z, w) as normalized bytes: identity; z 127, w 127 (90 degrees about z);
       z -128 (-1 after the clamp), w 127 (-90 degrees) */
    static const int8_t rot[3][4] = {{0, 0, 0, 127}, {0, 0, 127, 127}, {0, 0, -128, 127}};
    /* CUBICSPLINE translation, per key (in-tangent, value, out-tangent): key 0 value 0, out
       (3, 0, 0); key 1 value (1, 0, 0), in 0 */
    static const float cubic[6][3] = {{0, 0, 0}, {0, 0, 0}, {3, 0, 0}, {0, 0, 0}, {1, 0, 0}, {0, 0, 0}};
    static const float scale[2][3] = {{1, 1, 1}, {2, 2, 2}};
    static const float morph[2] = {0, 1};
    int in3 = gltf_fx_accessor(g, gltf_fx_view(g, t3, sizeof t3, 0), 0, FLOAT, 3, "SCALAR", NULL);
    int in2 = gltf_fx_accessor(g, gltf_fx_view(g, t2, sizeof t2, 0), 0, FLOAT, 2, "SCALAR", NULL);
    int in2s = gltf_fx_accessor(g, gltf_fx_view(g, t2s, sizeof t2s, 0), 0, FLOAT, 2, "SCALAR", NULL);
    int r = gltf_fx_accessor(g, gltf_fx_view(g, rot, sizeof rot, 0), 0, BYTE, 3, "VEC4", ",\"normalized\":true");
    int c = gltf_fx_accessor(g, gltf_fx_view(g, cubic, sizeof cubic, 0), 0, FLOAT, 6, "VEC3", NULL);
    int sc = gltf_fx_accessor(g, gltf_fx_view(g, scale, sizeof scale, 0), 0, FLOAT, 2, "VEC3", NULL);
    int mw = gltf_fx_accessor(g, gltf_fx_view(g, morph, sizeof morph, 0), 0, FLOAT, 2, "SCALAR", NULL);
    char body[2048];
    snprintf(body, sizeof body,
             "%s\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":%d,\"JOINTS_0\":%d,\"WEIGHTS_0\":%d}}]}],"
             "\"skins\":[{\"joints\":[1,2],\"inverseBindMatrices\":%d}],"
             "\"animations\":[{\"name\":\"act\",\"samplers\":[{\"input\":%d,\"output\":%d},"
             "{\"input\":%d,\"output\":%d,\"interpolation\":\"CUBICSPLINE\"},"
             "{\"input\":%d,\"output\":%d,\"interpolation\":\"STEP\"},{\"input\":%d,\"output\":%d}],"
             "\"channels\":[{\"sampler\":0,\"target\":{\"node\":2,\"path\":\"rotation\"}},"
             "{\"sampler\":1,\"target\":{\"node\":1,\"path\":\"translation\"}},"
             "{\"sampler\":2,\"target\":{\"node\":2,\"path\":\"scale\"}},"
             "{\"sampler\":3,\"target\":{\"node\":0,\"path\":\"weights\"}}]},"
             "{\"samplers\":[{\"input\":%d,\"output\":%d,\"interpolation\":\"STEP\"}],"
             "\"channels\":[{\"sampler\":0,\"target\":{\"node\":2,\"path\":\"scale\"}}]}]",
             two_joint_scene, p, j, w, ibm, in3, r, in2, c, in2s, sc, in2s, mw, in2s, sc);
    uint8_t *b = gltf_fx_build(g, body, glb, n);
    free(g);
    return b;
}

static void test_clips(void)
{
    size_t n = 0;
    uint8_t *b = clip_file(1, &n);
    seed("clips.glb", b, n);
    vks_clip_set *set = NULL;
    vks_error err = {0};
    vks_result r = vks_gltf_clip_read(NULL, b, n, &set, &err);
    if (r != VKS_OK)
        fprintf(stderr, "clip read: %s: %s\n", err.path, err.msg);
    CHECK(r == VKS_OK);
    vks_skin *s = read_ok(b, n, NULL);
    if (r == VKS_OK && s) {
        CHECK_EQ_INT(set->clip_count, 2);
        CHECK(!strcmp(set->format, "gltf") && strstr(set->format_detail, "1 morph weights channel(s)"));
        const vks_clip *c = &set->clips[0];
        /* node 0's weights channel: one target (2 values over 2 keys), LINEAR */
        CHECK(c->morph_track_count == 1 && c->morph_tracks[0].weights.components == 1 &&
              c->morph_tracks[0].weights.key_count == 2 && c->morph_tracks[0].weights.values[1] == 1 &&
              c->morph_tracks[0].weights.interp == VKS_INTERP_LINEAR && set->clips[1].morph_track_count == 0);
        CHECK(!strcmp(c->name, "act") && !strcmp(set->clips[1].name, "1"));
        CHECK(vks_clip_set_find(set, "1") == 1);
        CHECK_NEAR(c->duration, 2.0, 0);
        CHECK_NEAR(set->clips[1].duration, 1.0, 0);
        CHECK_EQ_INT(c->track_count, 2);
        const vks_track *tip = !strcmp(c->tracks[0].node_name, "tip") ? &c->tracks[0] : &c->tracks[1];
        const vks_track *root = tip == &c->tracks[0] ? &c->tracks[1] : &c->tracks[0];
        CHECK(!strcmp(root->node_name, "root"));
        CHECK(tip->rotation.interp == VKS_INTERP_LINEAR && tip->scale.interp == VKS_INTERP_STEP);
        CHECK(root->translation.interp == VKS_INTERP_HERMITE);
        /* -128 decodes to -1 (max(c / 127, -1)), like 127 to 1: key 2 is (0, 0, -1, 1) before
           normalising, so z = -w after (-128 / 127 would make them differ) */
        CHECK_NEAR(tip->rotation.values[10], -tip->rotation.values[11], 1e-7);
        CHECK_NEAR(tip->rotation.values[11], sqrt(0.5), 1e-7);
        double q[4], t[3], sc[3];
        /* slerp halfway between identity and 90 degrees about z ((0, 0, 1, 1) decoded, unit after
           normalising): 45 degrees */
        vks_curve_sample_d(&tip->rotation, 0.5, q);
        CHECK_NEAR(q[2], sin(M_PI / 8), 1e-6);
        CHECK_NEAR(q[3], cos(M_PI / 8), 1e-6);
        vks_curve_sample_d(&tip->rotation, 1.5, q); /* 90 -> -90: through 0 (the shorter arc) */
        CHECK_NEAR(q[2], 0, 1e-6);
        CHECK_NEAR(fabs(q[3]), 1, 1e-6);
        /* CUBICSPLINE at t = 1 (s = 0.5, td = 2): h00 v0 + td h10 b0 + h01 v1 + td h11 a1 =
           0 + 2 * 0.125 * 3 + 0.5 * 1 + 0 = 1.25; at t = 0.5 (s = 0.25): 2 * 0.140625 * 3 +
           0.15625 = 1.0 */
        vks_curve_sample_d(&root->translation, 1.0, t);
        CHECK_NEAR(t[0], 1.25, 1e-6);
        vks_curve_sample_d(&root->translation, 0.5, t);
        CHECK_NEAR(t[0], 1.0, 1e-6);
        /* STEP holds key 0 until key 1 */
        vks_curve_sample_d(&tip->scale, 0.999, sc);
        CHECK_NEAR(sc[0], 1, 0);
        vks_curve_sample_d(&tip->scale, 1.0, sc);
        CHECK_NEAR(sc[0], 2, 0);
        /* deformation at t = 1: root moved by (1.25, 0, 0); tip turned 90 degrees about z and
           scaled 2: vertex 1 (1, 2, 0) on tip -> T(1.25,0,0) T(0,1,0) Rz90 S2 T(0,-1,0) (1,2,0)
           = (1.25, 1, 0) + Rz90 (2, 2, 0) = (1.25 - 2, 1 + 2, 0) = (-0.75, 3, 0) */
        vks_clip_binding bind = {0};
        CHECK(vks_clip_bind(c, s, &bind, &err) == VKS_OK && bind.bound_tracks == 2);
        vks_affine locals[2];
        vks_affine_d world[2], K[2];
        vks_clip_sample_locals_d(c, &bind, s, 1.0, locals);
        vks_cpu_world_d(s, locals, world);
        vks_cpu_skin_matrices_d(s, world, K);
        uint32_t v1 = model_vertex(s, 1);
        const vks_group *gr = &s->groups[0];
        const vks_affine_d *k = &K[s->palette[gr->first_palette + s->influences[v1].index[0]]];
        const float *p = s->positions[v1];
        double x = k->m[0] * p[0] + k->m[3] * p[1] + k->m[6] * p[2] + k->m[9];
        double y = k->m[1] * p[0] + k->m[4] * p[1] + k->m[7] * p[2] + k->m[10];
        CHECK_NEAR(x, -0.75, 1e-5);
        CHECK_NEAR(y, 3.0, 1e-5);
        vks_clip_binding_free(&bind);
    }
    vks_clip_set_free(set);
    vks_skin_free(s);
    /* the same clips from the .gltf form; a model file without animations is no clip file */
    uint8_t *t = clip_file(0, &n);
    set = NULL;
    CHECK(vks_gltf_clip_read(NULL, t, n, &set, &err) == VKS_OK && set && set->clip_count == 2);
    vks_clip_set_free(set);
    free(t);
    uint8_t *m = strip_model(0, &n);
    set = NULL;
    CHECK(vks_gltf_clip_read(NULL, m, n, &set, &err) == VKS_ERR_FORMAT && !set);
    CHECK(!strcmp(err.path, "animations"));
    free(m);
    /* detection: .glb by its magic, .gltf by name, for models and clips */
    const char *fmt = NULL;
    CHECK(vks_detect_format(b, n, NULL, &fmt) == vks_gltf_read && !strcmp(fmt, "gltf"));
    CHECK(vks_detect_clip_format(b, n, NULL, &fmt) == vks_gltf_clip_read);
    CHECK(vks_detect_format("{}", 2, "a.GLTF", &fmt) == vks_gltf_read);
    CHECK(vks_detect_clip_format("{}", 2, "a.gltf", &fmt) == vks_gltf_clip_read);
    /* every prefix of the clip file is refused with a message */
    int bad = 0;
    for (size_t k = 0; k < n; k++) {
        uint8_t *copy = malloc(k ? k : 1);
        memcpy(copy, b, k);
        vks_clip_set *cs = NULL;
        vks_error e = {0};
        if (vks_gltf_clip_read(NULL, copy, k, &cs, &e) == VKS_OK || !e.msg[0] || cs)
            bad++;
        vks_clip_set_free(cs);
        free(copy);
    }
    CHECK_EQ_INT(bad, 0);
    /* and every prefix / corrupted byte of it as a model */
    CHECK_EQ_INT(vks_test_truncations(vks_gltf_read, NULL, b, n, 1u << 16, NULL, 0, 0), 0);
    CHECK_EQ_INT(vks_test_corruptions(vks_gltf_read, NULL, b, n, NULL, 0, 1), 0);
    free(b);
}

/* doc (n bytes) with its first `find` replaced by `repl`, NUL-terminated; NULL when absent. */
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

/* One broken file per rule: the error's code, JSON path (or offset) and a word of the message. */
typedef struct broken {
    const char *what;
    const char *find, *replace; /* in the strip model's JSON (.gltf form) */
    vks_result code;
    const char *path, *msg;
} broken;

static const broken cases[] = {
    {"float joints", "\"componentType\":5121,\"count\":4,\"type\":\"VEC4\"}",
     "\"componentType\":5126,\"count\":4,\"type\":\"VEC4\"}", VKS_ERR_FORMAT,
     "meshes[0].primitives[0].attributes.JOINTS_0", "has componentType 5126, expected unsigned byte, unsigned short"},
    {"weights not normalized", ",\"normalized\":true", "", VKS_ERR_FORMAT,
     "meshes[0].primitives[0].attributes.WEIGHTS_0", "must be normalized"},
    {"joint out of range", "\"joints\":[1,2]", "\"joints\":[1]", VKS_ERR_FORMAT,
     "meshes[0].primitives[0].attributes.JOINTS_0", "joint 1, but the skin has 1 joints"},
    {"too few inverse binds", "\"count\":2,\"type\":\"MAT4\"", "\"count\":1,\"type\":\"MAT4\"", VKS_ERR_FORMAT,
     "skins[0].inverseBindMatrices", "has 1 matrices for 2 joints"},
    {"cycle", "{\"name\":\"tip\",", "{\"name\":\"tip\",\"children\":[1],", VKS_ERR_FORMAT, "nodes[1]", "cycle"},
    {"two parents", "{\"mesh\":0,", "{\"mesh\":0,\"children\":[2],", VKS_ERR_FORMAT, "nodes[1].children",
     "already has parent"},
    {"matrix and TRS", "\"translation\":[0,1,0]", "\"translation\":[0,1,0],\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]",
     VKS_ERR_FORMAT, "nodes[2]", "both a matrix"},
    {"past the view", "\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"}",
     "\"componentType\":5126,\"count\":5,\"type\":\"VEC3\"}", VKS_ERR_FORMAT, "accessors[0]",
     "pass the end of bufferViews[0]"},
    {"misaligned", "\"byteOffset\":12,\"componentType\":5126", "\"byteOffset\":2,\"componentType\":5126",
     VKS_ERR_FORMAT, "accessors[1]", "not a multiple of the component size"},
    {"stride too small", "\"byteStride\":24", "\"byteStride\":8", VKS_ERR_FORMAT, "accessors[0]",
     "less than an element"},
    {"view past buffer", "\"byteOffset\":0,\"byteLength\":96", "\"byteOffset\":0,\"byteLength\":960",
     VKS_ERR_FORMAT, "bufferViews[0]", "pass the end of buffers[0]"},
    {"unknown required extension", "\"asset\":{\"version\":\"2.0\"}",
     "\"asset\":{\"version\":\"2.0\"},\"extensionsRequired\":[\"EXT_mesh_from_the_future\"]", VKS_ERR_UNSUPPORTED,
     "extensionsRequired[0]", "\"EXT_mesh_from_the_future\" is not supported"},
    {"version 1", "\"version\":\"2.0\"", "\"version\":\"1.0\"", VKS_ERR_UNSUPPORTED, "asset.version", "glTF 2.x"},
    {"skin without mesh", "{\"mesh\":0,\"skin\":0,", "{\"skin\":0,", VKS_ERR_FORMAT, "nodes[0]", "no mesh"},
    {"no JOINTS_0", "\"JOINTS_0\"", "\"TEXCOORD_0\"", VKS_ERR_FORMAT,
     "meshes[0].primitives[0].attributes.JOINTS_0", "is missing while WEIGHTS_0 is present"},
    {"bad base64", "base64,", "base64,*", VKS_ERR_FORMAT, "buffers[0]", "malformed base64"},
    {"index not integer", "\"mesh\":0", "\"mesh\":0.5", VKS_ERR_FORMAT, "nodes[0]", "mesh must be an integer"},
    {"not JSON", "\"asset\"", "asset", VKS_ERR_FORMAT, "json", "not valid JSON"},
    {"attribute off 4 bytes", "\"bufferView\":1,\"byteOffset\":0,\"componentType\":5121,\"count\":4",
     "\"bufferView\":1,\"byteOffset\":1,\"componentType\":5121,\"count\":3", VKS_ERR_FORMAT,
     "meshes[0].primitives[0].attributes.JOINTS_0", "not a multiple of 4, as vertex attributes must be"},
    {"list of 4 vertices", "\"mode\":5,", "", VKS_ERR_FORMAT, "meshes[0].primitives[0]",
     "4 vertices (no indices) do not make whole triangles"},
};

static void test_errors(void)
{
    size_t n = 0;
    uint8_t *base = strip_model(0, &n);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const broken *c = &cases[i];
        char *doc = replace_once(base, n, c->find, c->replace);
        if (!doc) {
            fprintf(stderr, "%s: pattern not in the fixture\n", c->what);
            CHECK(0);
            continue;
        }
        vks_skin *s = NULL;
        vks_error err = {0};
        vks_result r = vks_gltf_read(NULL, doc, strlen(doc), &s, &err);
        int ok = r == c->code && !s && !strcmp(err.path, c->path) && strstr(err.msg, c->msg);
        if (!ok)
            fprintf(stderr, "%s: got %s [%s] %s\n", c->what, vks_result_str(r), err.path, err.msg);
        CHECK(ok);
        if (i < 4) {
            char name[32];
            snprintf(name, sizeof name, "broken%zu.gltf", i);
            seed(name, (const uint8_t *)doc, strlen(doc));
        }
        vks_skin_free(s);
        free(doc);
    }
    free(base);
    /* .glb framing: errors name the byte offset */
    uint8_t *glb = strip_model(1, &n);
    struct {
        size_t at;
        uint8_t value;
        uint64_t offset;
        const char *msg;
    } g[] = {{4, 1, 4, "version 1, expected 2"},
             {8, 0, 8, "but the file has"},
             {12, 0xFF, 12, "chunk length"},
             {16, 'X', 16, "expected JSON"}};
    for (size_t i = 0; i < sizeof g / sizeof g[0]; i++) {
        uint8_t *copy = malloc(n);
        memcpy(copy, glb, n);
        copy[g[i].at] = g[i].value;
        vks_skin *s = NULL;
        vks_error err = {0};
        vks_result r = vks_gltf_read(NULL, copy, n, &s, &err);
        int ok = r == VKS_ERR_FORMAT && err.offset == g[i].offset && strstr(err.msg, g[i].msg);
        if (!ok)
            fprintf(stderr, "glb %zu: got %s at %llu [%s] %s\n", i, vks_result_str(r), (unsigned long long)err.offset,
                    err.path, err.msg);
        CHECK(ok);
        free(copy);
    }
    /* every prefix and every byte of the small .glb, corrupted */
    CHECK_EQ_INT(vks_test_truncations(vks_gltf_read, NULL, glb, n, 1u << 16, NULL, 0, 0), 0);
    CHECK_EQ_INT(vks_test_corruptions(vks_gltf_read, NULL, glb, n, NULL, 0, 1), 0);
    free(glb);
}

/* Two nodes named alike: the second is called "root (nodes[2])" by the model and the clip
 * reader both, so the file's clip still drives the node it targets. */
static void test_duplicate_names(void)
{
    size_t n = 0;
    uint8_t *b = clip_file(0, &n);
    char *doc = replace_once(b, n, "{\"name\":\"tip\"", "{\"name\":\"root\"");
    CHECK(doc != NULL);
    if (doc) {
        vks_skin *s = read_ok((const uint8_t *)doc, strlen(doc), NULL);
        vks_clip_set *set = NULL;
        vks_error err = {0};
        CHECK(vks_gltf_clip_read(NULL, doc, strlen(doc), &set, &err) == VKS_OK);
        if (s && set) {
            CHECK(!strcmp(s->nodes[0].name, "root") && !strcmp(s->nodes[1].name, "root (nodes[2])"));
            vks_clip_binding bind = {0};
            CHECK(vks_clip_bind(&set->clips[0], s, &bind, &err) == VKS_OK);
            CHECK(bind.bound_tracks == 2 && bind.track_of_node[0] >= 0 && bind.track_of_node[1] >= 0);
            CHECK(bind.track_of_node[1] >= 0 &&
                  !strcmp(set->clips[0].tracks[bind.track_of_node[1]].node_name, "root (nodes[2])"));
            vks_clip_binding_free(&bind);
        }
        vks_clip_set_free(set);
        vks_skin_free(s);
    }
    free(doc);
    free(b);
}

static void count_notes(void *user, vks_log_level level, const char *msg)
{
    (void)level;
    if (strstr(msg, "not read") || strstr(msg, "skipped") || strstr(msg, "morph"))
        (*(int *)user)++;
}

/* One mesh of four primitives on a skinned node: triangles, points (skipped), a strip, and
 * triangles with morph targets (read, targets noted); an unskinned mesh node (a rigid part:
 * read after the skinned node's meshes, its node in the skeleton);
 * a joint given by a matrix; and a second scene, not the file's, with another skinned node that
 * must not be read. */
static void test_primitives_scenes(void)
{
    gltf_fixture *g = fx();
    static const float pos[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
    static const uint8_t joints[4][4] = {{0}, {0}, {0}, {0}};
    static const float weights[4][4] = {{1}, {1}, {1}, {1}};
    static const float ibm[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -2, -3, -4, 1};
    int p = gltf_fx_accessor(g, gltf_fx_view(g, pos, sizeof pos, 0), 0, FLOAT, 4, "VEC3", NULL);
    int j = gltf_fx_accessor(g, gltf_fx_view(g, joints, sizeof joints, 0), 0, UBYTE, 4, "VEC4", NULL);
    int w = gltf_fx_accessor(g, gltf_fx_view(g, weights, sizeof weights, 0), 0, FLOAT, 4, "VEC4", NULL);
    int m = gltf_fx_accessor(g, gltf_fx_view(g, ibm, sizeof ibm, 0), 0, FLOAT, 1, "MAT4", NULL);
    static const uint8_t tri[4] = {0, 1, 2, 0};
    int t = gltf_fx_accessor(g, gltf_fx_view(g, tri, sizeof tri, 0), 0, UBYTE, 3, "SCALAR", NULL);
    char attrs[128], body[2048];
    snprintf(attrs, sizeof attrs, "\"attributes\":{\"POSITION\":%d,\"JOINTS_0\":%d,\"WEIGHTS_0\":%d}", p, j, w);
    snprintf(body, sizeof body,
             "\"scenes\":[{\"nodes\":[0,1,2]},{\"nodes\":[3]}],"
             "\"nodes\":[{\"mesh\":0,\"skin\":0},{\"mesh\":1},"
             "{\"name\":\"bone\",\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,2,3,4,1]},{\"mesh\":0,\"skin\":0}],"
             "\"meshes\":[{\"name\":\"m\",\"primitives\":[{\"indices\":%d,%s},{\"mode\":0,%s},{\"mode\":5,%s},"
             "{\"indices\":%d,%s,\"targets\":[{\"POSITION\":%d}]}]},{\"primitives\":[{\"indices\":%d,\"attributes\":{\"POSITION\":%d}}]}],"
             "\"skins\":[{\"joints\":[2],\"inverseBindMatrices\":%d}]",
             t, attrs, attrs, attrs, t, attrs, p, t, p, m);
    size_t n = 0;
    uint8_t *b = gltf_fx_build(g, body, 0, &n);
    seed("primitives.gltf", b, n);
    int notes = 0;
    vks_read_options opt = {0};
    opt.logger.func = count_notes;
    opt.logger.user = &notes;
    vks_skin *s = read_ok(b, n, &opt);
    if (s) {
        CHECK_EQ_INT(s->mesh_count, 4); /* node 3 is in scenes[1] only: not read */
        CHECK(!strcmp(s->meshes[0].name, "m/primitives[0]") && !strcmp(s->meshes[1].name, "m/primitives[2]") &&
              !strcmp(s->meshes[2].name, "m/primitives[3]"));
        CHECK_EQ_INT(s->meshes[0].triangle_count, 1); /* 3 indices: 1 triangle, vertex 3 unused */
        CHECK_EQ_INT(s->meshes[1].triangle_count, 2);
        CHECK(strstr(s->format_detail, "1 rigid mesh node(s)") &&
              strstr(s->format_detail, "1 primitive(s) without triangles skipped"));
        CHECK_EQ_INT(notes, 1); /* the points (morph targets are read) */
        /* primitives[3]'s target, whose POSITION deltas are the positions' accessor: each
           model vertex carries its file vertex's delta */
        CHECK(s->target_count == 1 && s->meshes[2].first_target == 0 && s->meshes[2].target_count == 1 &&
              s->targets[0].mesh == 2 && !s->targets[0].normal && s->targets[0].default_weight == 0);
        for (uint32_t v = 0; s->target_count == 1 && v < s->meshes[2].vertex_count; v++)
            CHECK(!memcmp(s->targets[0].position[v], s->positions[s->meshes[2].first_vertex + v], 12));
        /* the rigid part: one group on its own node (nodes[1] of the file, a root before the
           bone), weight 1, inverse bind identity, flagged rigid */
        CHECK_EQ_INT(s->node_count, 2);
        CHECK(!strcmp(s->meshes[3].name, "meshes[1]") && s->meshes[3].triangle_count == 1);
        const vks_group *rg = &s->groups[s->meshes[3].first_group];
        CHECK((rg->flags & VKS_GROUP_RIGID) && rg->palette_count == 1 && s->bones[s->palette[rg->first_palette]].node == 0);
        int32_t bone = vks_skin_find_node(s, "bone");
        CHECK(bone == 1 && s->nodes[bone].bind_local.m[9] == 2 && s->nodes[bone].bind_local.m[10] == 3 &&
              s->nodes[bone].bind_local.m[11] == 4);
        vks_bind_check bc;
        vks_error err = {0};
        CHECK(vks_cpu_bind_check(s, &bc, &err) == VKS_OK && bc.pass);
    }
    vks_skin_free(s);
    /* three skinned primitives over a limit of two meshes */
    opt.max_meshes = 2;
    vks_error err = {0};
    s = NULL;
    CHECK(vks_gltf_read(&opt, b, n, &s, &err) == VKS_ERR_LIMIT && !s);
    CHECK(!strcmp(err.path, "meshes[0].primitives[3]") && strstr(err.msg, "mesh limit"));
    free(b);
    free(g);
}

/* A chain of 60000 nodes with the skin on the last: read in linear time (lookups by index, the
 * cycle check walking each node's way up once); closed into a ring, it is refused. */
static void test_long_chain(void)
{
    enum { N = 60000 };
    gltf_fixture *g = fx();
    static const float pos[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    static const uint8_t joints[3][4] = {{0}, {0}, {0}};
    static const float weights[3][4] = {{1}, {1}, {1}};
    int p = gltf_fx_accessor(g, gltf_fx_view(g, pos, sizeof pos, 0), 0, FLOAT, 3, "VEC3", NULL);
    int j = gltf_fx_accessor(g, gltf_fx_view(g, joints, sizeof joints, 0), 0, UBYTE, 3, "VEC4", NULL);
    int w = gltf_fx_accessor(g, gltf_fx_view(g, weights, sizeof weights, 0), 0, FLOAT, 3, "VEC4", NULL);
    size_t cap = (size_t)N * 40 + 1024, at = 0;
    char *body = malloc(cap);
    at += (size_t)snprintf(body + at, cap - at, "\"nodes\":[");
    for (int i = 0; i < N - 1; i++)
        at += (size_t)snprintf(body + at, cap - at, "{\"name\":\"n%d\",\"children\":[%d]},", i, i + 1);
    at += (size_t)snprintf(body + at, cap - at,
                           "{\"name\":\"last\"},{\"mesh\":0,\"skin\":0}],\"meshes\":[{\"primitives\":[{\"attributes\":"
                           "{\"POSITION\":%d,\"JOINTS_0\":%d,\"WEIGHTS_0\":%d}}]}],\"skins\":[{\"joints\":[%d]}]",
                           p, j, w, N - 1);
    size_t n = 0;
    uint8_t *b = gltf_fx_build(g, body, 0, &n);
    vks_skin *s = read_ok(b, n, NULL);
    CHECK(s && s->node_count == N && s->nodes[N - 1].parent == N - 2);
    vks_skin_free(s);
    /* the last node's children: [0] closes the ring */
    char *ring = malloc(n + 16);
    char *last = strstr((char *)b, "{\"name\":\"last\"}");
    CHECK(last != NULL);
    if (last) {
        size_t pre = (size_t)(last - (char *)b);
        memcpy(ring, b, pre);
        int k = sprintf(ring + pre, "{\"name\":\"last\",\"children\":[0]}");
        strcpy(ring + pre + k, last + strlen("{\"name\":\"last\"}"));
        vks_error err = {0};
        s = NULL;
        CHECK(vks_gltf_read(NULL, ring, strlen(ring), &s, &err) == VKS_ERR_FORMAT && !s);
        CHECK(strstr(err.msg, "cycle") != NULL);
    }
    free(ring);
    free(b);
    free(body);
    free(g);
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--write-seeds"))
        seed_dir = argv[2];
    test_strip();
    test_fan_sparse();
    test_two_sets();
    test_external();
    test_clips();
    test_errors();
    test_long_chain();
    test_primitives_scenes();
    test_duplicate_names();
    return vks_test_finish("test_gltf_hand");
}
