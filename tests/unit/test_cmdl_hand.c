/* .cmdl reader against small hand-written documents, one rule each, with posed results
 * computed by hand (see the comment above each case):
 *   Euler order and radians of the bone Transform, parents by name in any order,
 *   smooth weights (percent x Scale), rigid bone-local vertices, None sets (rigid to
 *   table[0] inside a SkeletalModel, static in a Model), palette-relative BoneIndex with
 *   vertices duplicated between conflicting palettes, quantized streams with PositionOffset,
 *   strips and fans, Maya segment scale compensation; then one malformed document per error
 *   rule, each failing with a single-line message that says where. */
#include "testutil.h"

#include <math.h>
#include <string.h>

#define HEAD "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<NintendoWareIntermediateFile>\n" \
             "<GraphicsContentCtr Version=\"1.3.0\" Namespace=\"\"><Models>\n"
#define TAIL "</Models></GraphicsContentCtr>\n</NintendoWareIntermediateFile>\n"
#define XF(sx, sy, sz, rx, ry, rz, tx, ty, tz)                                                           \
    "<Transform><Scale X=\"" #sx "\" Y=\"" #sy "\" Z=\"" #sz "\"/><Rotate X=\"" #rx "\" Y=\"" #ry "\" Z=\"" #rz \
    "\"/><Translate X=\"" #tx "\" Y=\"" #ty "\" Z=\"" #tz "\"/></Transform>"
/* root at the origin, arm one unit along x */
#define SKEL2                                                                                         \
    "<Skeleton ScalingRule=\"Standard\"><Bones>"                                                      \
    "<Bone Name=\"root\" ParentBoneName=\"\">" XF(1, 1, 1, 0, 0, 0, 0, 0, 0) "</Bone>"                \
    "<Bone Name=\"arm\" ParentBoneName=\"root\" BillboardMode=\"Off\">" XF(1, 1, 1, 0, 0, 0, 1, 0, 0) \
    "</Bone></Bones></Skeleton>\n"
#define STREAM(n, usage, q, scale, count, text)                                                              \
    "<Vector" #n "VertexStreamCtr Usage=\"" usage "\" QuantizedMode=\"" q "\" Scale=\"" scale "\" VertexSize=\"" \
    #count "\">" text "</Vector" #n "VertexStreamCtr>"
#define SET(mode, table, indices)                                                                            \
    "<PrimitiveSetCtr SkinningMode=\"" mode "\"><BoneIndexTable>" table "</BoneIndexTable><Primitives>"     \
    "<PrimitiveCtr><IndexStreams>" indices "</IndexStreams></PrimitiveCtr></Primitives></PrimitiveSetCtr>"
#define TRIS(n, text) "<UbyteIndexStreamCtr PrimitiveMode=\"Triangles\" Size=\"" #n "\">" text "</UbyteIndexStreamCtr>"

static vks_skin *read_doc(const char *doc, vks_error *err)
{
    vks_skin *s = NULL;
    vks_error local = {0};
    vks_result r = vks_cmdl_read(NULL, doc, strlen(doc), &s, err ? err : &local);
    if (r != VKS_OK) {
        fprintf(stderr, "read failed: %s: %s\n", (err ? err : &local)->path, (err ? err : &local)->msg);
        return NULL;
    }
    vks_error e2 = {0};
    if (vks_skin_validate(s, &e2) != VKS_OK) {
        fprintf(stderr, "validate failed: %s: %s\n", e2.path, e2.msg);
        vks_test_failures++;
    }
    return s;
}

/* Deformed position of vertex v with the given locals (double, through the CPU reference's
   world and skin matrices). */
static void deform(const vks_skin *s, const vks_affine *locals, uint32_t v, double out[3])
{
    vks_affine_d world[16], K[16];
    vks_cpu_world_d(s, locals, world);
    vks_cpu_skin_matrices_d(s, world, K);
    uint32_t g = 0;
    while (g + 1 < s->group_count && !(v >= s->groups[g].first_vertex && v < s->groups[g].first_vertex + s->groups[g].vertex_count))
        g++;
    const vks_group *gr = &s->groups[g];
    const float *p = s->positions[v];
    out[0] = out[1] = out[2] = 0;
    for (int k = 0; k < VKS_MAX_INFLUENCES; k++) {
        float w = s->influences[v].weight[k];
        if (!(w > 0))
            continue;
        const vks_affine_d *m = &K[s->palette[gr->first_palette + s->influences[v].index[k]]];
        for (int i = 0; i < 3; i++)
            out[i] += w * (m->m[i] * p[0] + m->m[3 + i] * p[1] + m->m[6 + i] * p[2] + m->m[9 + i]);
    }
}

/* The bind pose with the arm (node 1) turned 90 degrees about z at its origin. */
static void arm_pose(const vks_skin *s, vks_affine *locals)
{
    vks_pose_bind(s, locals);
    float t[3] = {1, 0, 0}, q[4] = {0, 0, (float)sin(M_PI / 4), (float)cos(M_PI / 4)}, one[3] = {1, 1, 1};
    locals[1] = vks_affine_from_trs(t, q, one);
}

static uint32_t vertex_of(const vks_skin *s, uint32_t group, uint32_t source)
{
    const vks_group *g = &s->groups[group];
    for (uint32_t v = g->first_vertex; v < g->first_vertex + g->vertex_count; v++)
        if (s->source_vertex[v] == source)
            return v;
    fprintf(stderr, "source vertex %u not in group %u\n", source, group);
    vks_test_failures++;
    return g->first_vertex;
}

/* Bone Transform: local = T * Rz * Ry * Rx * S. Rotate (pi/2, 0, pi/2), Scale (2, 1, 1):
   Rx(90) sends y->z, z->-y; Rz(90) sends x->y, y->-x. So R e_x = e_y, R e_y = e_z,
   R e_z = e_x, and with the x scale: columns (0,2,0), (0,0,1), (1,0,0), translation (3,4,5).
   Parents by name in any order: the child comes first in the document. */
static void test_euler_and_order(void)
{
    const char *doc = HEAD "<SkeletalModel Name=\"m\"><Shapes><SeparateDataShapeCtr><PrimitiveSets>" SET(
        "SmoothSkinning", "0", TRIS(3, "0 1 2")) "</PrimitiveSets><VertexAttributes>" STREAM(3, "Position", "Float", "1", 3,
                                                                                         "0 0 0 1 0 0 0 1 0")
        "</VertexAttributes></SeparateDataShapeCtr></Shapes>"
        "<Skeleton><Bones><Bone Name=\"child\" ParentBoneName=\"root\">" XF(2, 1, 1, 1.5707963267948966, 0, 1.5707963267948966, 3, 4, 5)
        "</Bone><Bone Name=\"root\" ParentBoneName=\"\">" XF(1, 1, 1, 0, 0, 0, 0, 0, 0) "</Bone></Bones></Skeleton>"
        "</SkeletalModel>" TAIL;
    vks_skin *s = read_doc(doc, NULL);
    CHECK(s != NULL);
    if (!s)
        return;
    CHECK_EQ_INT(s->node_count, 2);
    CHECK(strcmp(s->nodes[0].name, "root") == 0);
    CHECK(strcmp(s->nodes[1].name, "child") == 0);
    CHECK_EQ_INT(s->nodes[1].parent, 0);
    const float want[12] = {0, 2, 0, 0, 0, 1, 1, 0, 0, 3, 4, 5};
    for (int k = 0; k < 12; k++)
        CHECK_NEAR(s->nodes[1].bind_local.m[k], want[k], 1e-6);
    /* BoneIndexTable entry 0 is the first <Bone> in the document: "child", node 1 */
    CHECK_EQ_INT(s->bones[s->palette[s->groups[0].first_palette]].node, 1);
    CHECK(strcmp(s->format, "nw4c") == 0);
    CHECK(strstr(s->format_detail, "1.3.0") != NULL);
    vks_skin_free(s);
}

/* Smooth weights: vertex 0 at (2,0,0) is 50/50 root/arm (Ubyte percent, Scale 0.01).
   Arm turned 90 degrees about z at (1,0,0): K_arm = T(1,0,0) Rz(90) T(-1,0,0), which takes
   (2,0,0) to (1,1,0); root stays: (2,0,0). Blend: (1.5, 0.5, 0). Vertex 1 (1,0,0), all arm:
   stays (1,0,0). Vertex 2 (1,2,0) all root: stays. Weights 49+49 renormalise to 0.5/0.5. */
static void test_smooth(void)
{
    const char *doc = HEAD "<SkeletalModel Name=\"m\"><Shapes><SeparateDataShapeCtr><PrimitiveSets>" SET(
        "SmoothSkinning", "0 1", TRIS(3, "0 1 2")) "</PrimitiveSets><VertexAttributes>"
        STREAM(3, "Position", "Float", "1", 3, "2 0 0  1 0 0  1 2 0")
        STREAM(3, "Normal", "Float", "1", 3, "0 0 2  0 0 1  0 0 1")
        STREAM(2, "BoneIndex", "Ubyte", "1", 3, "0 1  1 0  0 1")
        STREAM(2, "BoneWeight", "Ubyte", "0.01", 3, "49 49  100 0  100 0")
        "</VertexAttributes></SeparateDataShapeCtr></Shapes>" SKEL2 "</SkeletalModel>" TAIL;
    vks_skin *s = read_doc(doc, NULL);
    CHECK(s != NULL);
    if (!s)
        return;
    CHECK_EQ_INT(s->vertex_count, 3);
    CHECK_EQ_INT(s->group_count, 1);
    CHECK(s->meshes[0].flags & VKS_MESH_RENORMALIZE);
    CHECK_NEAR(s->normals[0][2], 1.0, 1e-6); /* renormalised */
    vks_affine locals[2];
    arm_pose(s, locals);
    double p[3];
    uint32_t v0 = vertex_of(s, 0, 0), v1 = vertex_of(s, 0, 1), v2 = vertex_of(s, 0, 2);
    CHECK_NEAR(s->influences[v0].weight[0], 0.5, 1e-6);
    deform(s, locals, v0, p);
    CHECK_NEAR(p[0], 1.5, 1e-6);
    CHECK_NEAR(p[1], 0.5, 1e-6);
    CHECK_NEAR(p[2], 0.0, 1e-6);
    deform(s, locals, v1, p);
    CHECK_NEAR(p[0], 1.0, 1e-6);
    CHECK_NEAR(p[1], 0.0, 1e-6);
    deform(s, locals, v2, p);
    CHECK_NEAR(p[0], 1.0, 1e-6);
    CHECK_NEAR(p[1], 2.0, 1e-6);
    vks_bind_check bc;
    vks_error err = {0};
    CHECK(vks_cpu_bind_check(s, &bc, &err) == VKS_OK);
    CHECK(bc.max_error < 1e-5);
    vks_skin_free(s);
}

/* Rigid: vertices are arm-local, K = World(arm) with no inverse bind. At bind World(arm) =
   T(1,0,0): (0,1,0) -> (1,1,0). Arm turned 90 degrees about z: T(1,0,0) Rz(90) (0,1,0) =
   (1,0,0) + (-1,0,0) = (0,0,0). The Vector1 BoneIndex 0 names table entry 0 = bone 1. */
static void test_rigid(void)
{
    const char *doc = HEAD "<SkeletalModel Name=\"m\"><Shapes><SeparateDataShapeCtr><PrimitiveSets>" SET(
        "RigidSkinning", "1", TRIS(3, "0 1 2")) "</PrimitiveSets><VertexAttributes>"
        STREAM(3, "Position", "Float", "1", 3, "0 1 0  1 0 0  0 0 1")
        STREAM(1, "BoneIndex", "Ubyte", "1", 3, "0 0 0")
        "</VertexAttributes></SeparateDataShapeCtr></Shapes>" SKEL2 "</SkeletalModel>" TAIL;
    vks_skin *s = read_doc(doc, NULL);
    CHECK(s != NULL);
    if (!s)
        return;
    CHECK(s->groups[0].flags & VKS_GROUP_RIGID);
    const vks_bone *b = &s->bones[s->palette[s->groups[0].first_palette]];
    CHECK_EQ_INT(b->node, 1);
    for (int k = 0; k < 12; k++)
        CHECK_NEAR(b->inverse_bind.m[k], (k == 0 || k == 4 || k == 8) ? 1.0 : 0.0, 0);
    vks_affine locals[2];
    double p[3];
    uint32_t v0 = vertex_of(s, 0, 0);
    vks_pose_bind(s, locals);
    deform(s, locals, v0, p);
    CHECK_NEAR(p[0], 1.0, 1e-6);
    CHECK_NEAR(p[1], 1.0, 1e-6);
    arm_pose(s, locals);
    deform(s, locals, v0, p);
    CHECK_NEAR(p[0], 0.0, 1e-6);
    CHECK_NEAR(p[1], 0.0, 1e-6);
    CHECK_NEAR(p[2], 0.0, 1e-6);
    vks_skin_free(s);
}

/* Palette-relative BoneIndex: two smooth sets share vertices 1 and 2 with BoneIndex 0, which
   means root in set 0 (table "0") and arm in set 1 (table "1"). The shared vertices are
   duplicated: 4 file vertices -> 6 model vertices. Vertex 2 = (2,0,0): in set 0 it stays,
   in set 1 it turns with the arm to (1,1,0). */
static void test_palettes(void)
{
    const char *doc = HEAD "<SkeletalModel Name=\"m\"><Shapes><SeparateDataShapeCtr><PrimitiveSets>"
        SET("SmoothSkinning", "0", TRIS(3, "0 1 2")) SET("SmoothSkinning", "1", TRIS(3, "1 3 2"))
        "</PrimitiveSets><VertexAttributes>"
        STREAM(3, "Position", "Float", "1", 4, "0 0 0  0 1 0  2 0 0  2 1 0")
        STREAM(1, "BoneIndex", "Ubyte", "1", 4, "0 0 0 0")
        "</VertexAttributes></SeparateDataShapeCtr></Shapes>" SKEL2 "</SkeletalModel>" TAIL;
    vks_skin *s = read_doc(doc, NULL);
    CHECK(s != NULL);
    if (!s)
        return;
    CHECK_EQ_INT(s->group_count, 2);
    CHECK_EQ_INT(s->vertex_count, 6);
    CHECK_EQ_INT(s->meshes[0].source_vertex_count, 4);
    vks_affine locals[2];
    arm_pose(s, locals);
    double p[3];
    deform(s, locals, vertex_of(s, 0, 2), p);
    CHECK_NEAR(p[0], 2.0, 1e-6);
    CHECK_NEAR(p[1], 0.0, 1e-6);
    deform(s, locals, vertex_of(s, 1, 2), p);
    CHECK_NEAR(p[0], 1.0, 1e-6);
    CHECK_NEAR(p[1], 1.0, 1e-6);
    vks_skin_free(s);
}

/* None sets: inside a SkeletalModel with a table they are rigid to table[0] (arm-local
   (0,1,0) -> (1,1,0) at bind); with an empty table they stay in model space through an
   extra static root. A plain Model (no skeleton) is static geometry. */
static void test_none(void)
{
    const char *doc = HEAD "<SkeletalModel Name=\"m\"><Shapes><SeparateDataShapeCtr><PrimitiveSets>"
        SET("None", "1", TRIS(3, "0 1 2")) SET("None", "", TRIS(3, "0 2 1"))
        "</PrimitiveSets><VertexAttributes>"
        STREAM(3, "Position", "Float", "1", 3, "0 1 0  1 0 0  0 0 1")
        "</VertexAttributes></SeparateDataShapeCtr></Shapes>" SKEL2 "</SkeletalModel>" TAIL;
    vks_skin *s = read_doc(doc, NULL);
    CHECK(s != NULL);
    if (s) {
        CHECK_EQ_INT(s->node_count, 3); /* root, arm, static */
        CHECK_EQ_INT(s->group_count, 2);
        vks_affine locals[3];
        double p[3];
        arm_pose(s, locals);
        locals[1] = s->nodes[1].bind_local;
        deform(s, locals, vertex_of(s, 0, 0), p);
        CHECK_NEAR(p[0], 1.0, 1e-6);
        CHECK_NEAR(p[1], 1.0, 1e-6);
        deform(s, locals, vertex_of(s, 1, 0), p);
        CHECK_NEAR(p[0], 0.0, 1e-6);
        CHECK_NEAR(p[1], 1.0, 1e-6);
        vks_skin_free(s);
    }
    const char *plain = HEAD "<Model Name=\"crate\"><Shapes><SeparateDataShapeCtr><PrimitiveSets>"
        SET("None", "", TRIS(3, "0 1 2")) "</PrimitiveSets><VertexAttributes>"
        STREAM(3, "Position", "Float", "1", 3, "0 1 0  1 0 0  0 0 1")
        "</VertexAttributes></SeparateDataShapeCtr></Shapes></Model>" TAIL;
    s = read_doc(plain, NULL);
    CHECK(s != NULL);
    if (s) {
        CHECK_EQ_INT(s->node_count, 1);
        CHECK(strcmp(s->nodes[0].name, "crate") == 0);
        vks_bind_check bc;
        vks_error err = {0};
        CHECK(vks_cpu_bind_check(s, &bc, &err) == VKS_OK);
        CHECK(bc.max_error == 0);
        vks_skin_free(s);
    }
}

/* Quantized streams: Short positions x 0.5 + PositionOffset (10, 0, 0): stored (2, 4, -6)
   -> (11, 2, -3). Byte normals x 1/127: (0, 100, 0) renormalises to (0, 1, 0). Strips:
   0 1 2 3 -> (0,1,2), (2,1,3); the degenerate 3 3 4 pair adds nothing. Fan 0 1 2 3 ->
   (0,1,2), (0,2,3). */
static void test_quantized_strips(void)
{
    const char *doc = HEAD "<SkeletalModel Name=\"m\"><Shapes><SeparateDataShapeCtr>"
        "<PositionOffset X=\"10\" Y=\"0\" Z=\"0\"/><PrimitiveSets>"
        SET("SmoothSkinning", "0",
            "<UbyteIndexStreamCtr PrimitiveMode=\"TriangleStrip\" Size=\"6\">0 1 2 3 3 3</UbyteIndexStreamCtr>"
            "<UshortIndexStreamCtr PrimitiveMode=\"TriangleFan\" Size=\"4\">0 1 2 3</UshortIndexStreamCtr>")
        "</PrimitiveSets><VertexAttributes>"
        STREAM(3, "Position", "Short", "0.5", 4, "2 4 -6  0 0 0  2 0 0  0 2 0")
        STREAM(3, "Normal", "Byte", "0.007874015748", 4, "0 100 0  0 127 0  0 127 0  0 127 0")
        STREAM(2, "TextureCoordinate0", "Float", "1", 4, "0 0 1 0 1 1 0 1")
        "</VertexAttributes></SeparateDataShapeCtr></Shapes>" SKEL2 "</SkeletalModel>" TAIL;
    vks_skin *s = read_doc(doc, NULL);
    CHECK(s != NULL);
    if (!s)
        return;
    uint32_t v0 = vertex_of(s, 0, 0);
    CHECK_NEAR(s->positions[v0][0], 11.0, 1e-6);
    CHECK_NEAR(s->positions[v0][1], 2.0, 1e-6);
    CHECK_NEAR(s->positions[v0][2], -3.0, 1e-6);
    CHECK_NEAR(s->normals[v0][1], 1.0, 1e-6);
    CHECK_EQ_INT(s->triangle_count, 4);
    const uint32_t want[4][3] = {{0, 1, 2}, {2, 1, 3}, {0, 1, 2}, {0, 2, 3}};
    for (int t = 0; t < 4 && t < (int)s->triangle_count; t++)
        for (int k = 0; k < 3; k++)
            CHECK_EQ_INT(s->source_vertex[s->meshes[0].first_vertex + s->triangles[t][k]], want[t][k]);
    vks_skin_free(s);
}

/* ScalingRule="Maya" with IsSegmentScaleCompensate: parent scale 2, child translate (1,0,0):
   World(child) = S(2) T(1,0,0) S(1/2) = translation (2,0,0), unit axes; so the smooth
   inverse bind is a pure translation by (-2,0,0). */
static void test_maya_ssc(void)
{
    const char *doc = HEAD "<SkeletalModel Name=\"m\"><Shapes><SeparateDataShapeCtr><PrimitiveSets>"
        SET("SmoothSkinning", "1", TRIS(3, "0 1 2")) "</PrimitiveSets><VertexAttributes>"
        STREAM(3, "Position", "Float", "1", 3, "0 1 0  1 0 0  0 0 1")
        "</VertexAttributes></SeparateDataShapeCtr></Shapes>"
        "<Skeleton ScalingRule=\"Maya\"><Bones><Bone Name=\"p\" ParentBoneName=\"\">" XF(2, 2, 2, 0, 0, 0, 0, 0, 0)
        "</Bone><Bone Name=\"c\" ParentBoneName=\"p\" IsSegmentScaleCompensate=\"true\">" XF(1, 1, 1, 0, 0, 0, 1, 0, 0)
        "</Bone></Bones></Skeleton></SkeletalModel>" TAIL;
    vks_skin *s = read_doc(doc, NULL);
    CHECK(s != NULL);
    if (!s)
        return;
    const vks_bone *b = &s->bones[s->palette[s->groups[0].first_palette]];
    const float want[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, -2, 0, 0};
    for (int k = 0; k < 12; k++)
        CHECK_NEAR(b->inverse_bind.m[k], want[k], 1e-6);
    vks_skin_free(s);
}

/* Each malformed document fails with the expected code, a one-line message containing the
   expected words, and leaves *out alone. */
/* UV sets and materials (issue 26): TextureCoordinate0 as Short x Scale 1/1024 (0, 1024, 512
   -> u 0, 1, 0.5; v 0, 0, 1024 -> 0, 0, 1), TextureCoordinate1 as floats. NW4C counts v from the
   bottom, the skin model from the top: v' = 1 - v. The mesh names Materials["skin"], the
   second of two MaterialCtr, so its triangles have material 1 of the model's two. */
static void test_texcoords(void)
{
    const char *doc = HEAD "<SkeletalModel Name=\"m\"><Shapes><SeparateDataShapeCtr><PrimitiveSets>" SET(
        "SmoothSkinning", "0", TRIS(3, "0 1 2")) "</PrimitiveSets><VertexAttributes>"
        STREAM(3, "Position", "Float", "1", 3, "0 0 0  1 0 0  0 1 0")
        STREAM(2, "TextureCoordinate0", "Short", "0.0009765625", 3, "0 0  1024 0  512 1024")
        STREAM(2, "TextureCoordinate1", "Float", "1", 3, "0.25 0.75  0.5 0.5  1 0")
        STREAM(1, "BoneIndex", "Ubyte", "1", 3, "0 0 0")
        STREAM(1, "BoneWeight", "Ubyte", "0.01", 3, "100 100 100")
        "</VertexAttributes></SeparateDataShapeCtr></Shapes>"
        "<Materials><MaterialCtr Name=\"cloth\"/><MaterialCtr Name=\"skin\"/></Materials>"
        "<Meshes><Mesh><SeparateShapeReference>Shapes[0]</SeparateShapeReference>"
        "<MaterialReference>Materials[\"skin\"]</MaterialReference></Mesh></Meshes>" SKEL2 "</SkeletalModel>" TAIL;
    vks_skin *s = read_doc(doc, NULL);
    CHECK(s != NULL);
    if (!s)
        return;
    CHECK_EQ_INT(s->uv_set_count, 2);
    static const float want0[3][2] = {{0, 1}, {1, 1}, {0.5f, 0}}, want1[3][2] = {{0.25f, 0.25f}, {0.5f, 0.5f}, {1, 1}};
    for (uint32_t f = 0; f < 3 && s->uv_set_count == 2; f++) {
        uint32_t v = vertex_of(s, 0, f);
        CHECK(s->uv[0][v][0] == want0[f][0] && s->uv[0][v][1] == want0[f][1]);
        CHECK(s->uv[1][v][0] == want1[f][0] && s->uv[1][v][1] == want1[f][1]);
    }
    CHECK_EQ_INT(s->material_count, 2);
    const vks_material *m = vks_skin_triangle_material(s, 0, 0);
    CHECK(m && !strcmp(m->name, "skin"));
    vks_skin_free(s);
}

static void expect_error(const char *doc, vks_result code, const char *words, const char *path_words)
{
    vks_skin *s = (vks_skin *)(uintptr_t)1;
    vks_error err = {0};
    vks_result r = vks_cmdl_read(NULL, doc, strlen(doc), &s, &err);
    CHECK(r != VKS_OK);
    CHECK_EQ_INT(err.code, code);
    CHECK(s == (vks_skin *)(uintptr_t)1);
    CHECK(strchr(err.msg, '\n') == NULL);
    if (!strstr(err.msg, words) || (path_words && !strstr(err.path, path_words))) {
        fprintf(stderr, "expected \"%s\" in \"%s\" and \"%s\" in \"%s\"\n", words, err.msg,
                path_words ? path_words : "", err.path);
        vks_test_failures++;
    }
    char line[512];
    printf("  %s\n", vks_error_format(&err, "case.cmdl", line, sizeof line));
}

static void test_errors(void)
{
    /* malformed XML: expat's line and column */
    expect_error(HEAD "<SkeletalModel><Shapes></SkeletalModel>" TAIL, VKS_ERR_FORMAT, "line 4, column", NULL);
    expect_error(HEAD "<SkeletalModel>", VKS_ERR_TRUNCATED, "malformed XML", NULL);
    /* BoneIndex 2 with a table of two entries */
    expect_error(HEAD "<SkeletalModel><Shapes><SeparateDataShapeCtr><PrimitiveSets>" SET(
                     "SmoothSkinning", "0 1", TRIS(3, "0 1 2")) "</PrimitiveSets><VertexAttributes>"
                     STREAM(3, "Position", "Float", "1", 3, "0 0 0 1 0 0 0 1 0")
                     STREAM(1, "BoneIndex", "Ubyte", "1", 3, "0 2 0")
                     "</VertexAttributes></SeparateDataShapeCtr></Shapes>" SKEL2 "</SkeletalModel>" TAIL,
                 VKS_ERR_FORMAT, "BoneIndex 2 (slot 0) is beyond the BoneIndexTable of 2 entries",
                 "SeparateDataShapeCtr[0]/PrimitiveSets/PrimitiveSetCtr[0]");
    /* a parent that does not exist */
    expect_error(HEAD "<SkeletalModel><Skeleton><Bones><Bone Name=\"a\" ParentBoneName=\"ghost\"/></Bones></Skeleton>"
                      "</SkeletalModel>" TAIL,
                 VKS_ERR_FORMAT, "ParentBoneName \"ghost\" names no bone", "Bones/Bone[0]");
    /* a cycle: a -> b -> a, under a real root */
    expect_error(HEAD "<SkeletalModel><Skeleton><Bones><Bone Name=\"r\" ParentBoneName=\"\"/>"
                      "<Bone Name=\"a\" ParentBoneName=\"b\"/><Bone Name=\"b\" ParentBoneName=\"a\"/></Bones></Skeleton>"
                      "</SkeletalModel>" TAIL,
                 VKS_ERR_FORMAT, "cycle", "Bone[1]");
    /* a stream whose count disagrees with VertexSize */
    expect_error(HEAD "<SkeletalModel><Shapes><SeparateDataShapeCtr><VertexAttributes>"
                      STREAM(3, "Position", "Float", "1", 3, "0 0 0 1 0 0 0 1")
                      "</VertexAttributes></SeparateDataShapeCtr></Shapes></SkeletalModel>" TAIL,
                 VKS_ERR_FORMAT, "stream has 8 values, VertexSize 3 x 3 components needs 9",
                 "Shapes/SeparateDataShapeCtr[0]/VertexAttributes/Vector3VertexStreamCtr[0]");
    /* an unknown QuantizedMode */
    expect_error(HEAD "<SkeletalModel><Shapes><SeparateDataShapeCtr><VertexAttributes>"
                      STREAM(3, "Position", "Half", "1", 1, "0 0 0")
                      "</VertexAttributes></SeparateDataShapeCtr></Shapes></SkeletalModel>" TAIL,
                 VKS_ERR_FORMAT, "unknown QuantizedMode \"Half\"", "Vector3VertexStreamCtr[0]");
    /* a quantized value out of its range, a non-number, a wrong root, an index past the shape */
    expect_error(HEAD "<SkeletalModel><Shapes><SeparateDataShapeCtr><VertexAttributes>"
                      STREAM(3, "Position", "Byte", "1", 1, "0 300 0")
                      "</VertexAttributes></SeparateDataShapeCtr></Shapes></SkeletalModel>" TAIL,
                 VKS_ERR_FORMAT, "does not fit QuantizedMode Byte", NULL);
    expect_error(HEAD "<SkeletalModel><Shapes><SeparateDataShapeCtr><VertexAttributes>"
                      STREAM(3, "Position", "Float", "1", 1, "0 nan 0")
                      "</VertexAttributes></SeparateDataShapeCtr></Shapes></SkeletalModel>" TAIL,
                 VKS_ERR_FORMAT, "\"nan\" is not a number", NULL);
    expect_error("<?xml version=\"1.0\"?><Model/>", VKS_ERR_FORMAT, "root element is <Model>", NULL);
    expect_error(HEAD "<SkeletalModel><Shapes><SeparateDataShapeCtr><PrimitiveSets>" SET(
                     "SmoothSkinning", "0", TRIS(3, "0 1 7")) "</PrimitiveSets><VertexAttributes>"
                     STREAM(3, "Position", "Float", "1", 3, "0 0 0 1 0 0 0 1 0")
                     "</VertexAttributes></SeparateDataShapeCtr></Shapes>" SKEL2 "</SkeletalModel>" TAIL,
                 VKS_ERR_FORMAT, "index 7 is beyond the shape's 3 vertices", NULL);
    expect_error("<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY a \"b\">]><NintendoWareIntermediateFile/>",
                 VKS_ERR_UNSUPPORTED, "entity declaration", NULL);
}

int main(void)
{
    test_texcoords();
    test_euler_and_order();
    test_smooth();
    test_rigid();
    test_palettes();
    test_none();
    test_quantized_strips();
    test_maya_ssc();
    test_errors();
    return vks_test_finish("test_cmdl_hand");
}
