/* Every glTF sample in ../shared/datasets/gltf reads with the counts of its JSON, validates,
 * and passes the bind-pose check (deforming with the bind pose gives the stored vertices).
 *
 * Where the numbers come from: the files' own JSON, read independently of this reader (a
 * short Python walk of accessors, skins and the node tree): vertices = the POSITION
 * accessor's count, triangles = the indices accessor's count / 3 (Fox has no indices: its
 * 1728 vertices / 3), bones = skins[0].joints, nodes = the joints and their ancestors, first
 * node names the preorder from the roots; normals = whether the primitive has NORMAL.
 *
 * Bind pose. SimpleSkin and Fox reproduce their vertices at bind. The three COLLADA2GLTF
 * exports (RiggedSimple, RiggedFigure, CesiumMan) do not: under the specification's rule (the
 * mesh node's transform ignored, K = W(joint) * IB) every bone's K at bind is the same matrix,
 * a quarter turn (their inverse binds leave out the Z_UP root's rotation), so the stored
 * vertices come out turned as a whole. The test requires exactly that: the bind check fails,
 * and K at bind agrees across bones to float precision (a wrong bone or matrix would not). */
#include <math.h>
#include <string.h>

#include "testutil.h"

typedef struct expect {
    const char *file;
    uint32_t nodes, vertices, triangles, bones;
    int normals;
    const char *first_node, *mesh;
    int bind_consistent;
} expect;

static const expect samples[] = {
    {"gltf/SimpleSkin/SimpleSkin.gltf", 2, 10, 8, 2, 0, "nodes[1]", "meshes[0]", 1},
    {"gltf/RiggedSimple/RiggedSimple.gltf", 4, 160, 188, 2, 1, "Z_UP", "Cylinder", 0},
    {"gltf/RiggedFigure/RiggedFigure.gltf", 21, 370, 256, 19, 1, "Z_UP", "Proxy", 0},
    {"gltf/CesiumMan/CesiumMan.glb", 21, 3273, 4672, 19, 1, "Z_UP", "Cesium_Man", 0},
    {"gltf/Fox/Fox.glb", 25, 1728, 576, 24, 0, "root", "fox1", 1},
};

int main(void)
{
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        const expect *e = &samples[i];
        const char *path = vks_test_dataset(e->file);
        vks_skin *s = NULL;
        vks_error err = {0};
        vks_result r = vks_read_file(NULL, path, &s, &err);
        if (r != VKS_OK) {
            char buf[512];
            fprintf(stderr, "%s\n", vks_error_format(&err, path, buf, sizeof buf));
            CHECK(0);
            continue;
        }
        CHECK(vks_skin_validate(s, &err) == VKS_OK);
        CHECK(!strcmp(s->format, "gltf"));
        CHECK_EQ_INT(s->node_count, e->nodes);
        CHECK_EQ_INT(s->mesh_count, 1);
        CHECK_EQ_INT(s->meshes[0].source_vertex_count, e->vertices);
        CHECK_EQ_INT(s->triangle_count, e->triangles);
        CHECK_EQ_INT(s->bone_count, e->bones);
        CHECK_EQ_INT(!!(s->meshes[0].flags & VKS_MESH_HAS_NORMALS), e->normals);
        CHECK(!strcmp(s->nodes[0].name, e->first_node));
        CHECK(!strcmp(s->meshes[0].name, e->mesh));
        CHECK_EQ_INT(s->meshes[0].space_node, -1);
        vks_bind_check bc;
        CHECK(vks_cpu_bind_check(s, &bc, &err) == VKS_OK);
        printf("%s: %s, %u nodes, %u vertices, bind check max error %.3g (%s)\n", e->file, s->format_detail,
               s->node_count, s->vertex_count, bc.max_error, bc.pass ? "pass" : "FAIL");
        /* K = W * IB at bind: identity for a consistent file; for the COLLADA2GLTF samples one
           common matrix for every bone (their inverse binds leave out the Z_UP root's turn) */
        vks_affine *locals = calloc(s->node_count, sizeof *locals);
        vks_affine_d *world = calloc(s->node_count, sizeof *world), *K = calloc(s->bone_count, sizeof *K);
        for (uint32_t n = 0; n < s->node_count; n++)
            locals[n] = s->nodes[n].bind_local;
        vks_cpu_world_d(s, locals, world);
        vks_cpu_skin_matrices_d(s, world, K);
        double spread = 0, off_identity = 0;
        vks_affine_d I = vks_affine_d_identity();
        for (uint32_t b = 0; b < s->bone_count; b++)
            for (int k = 0; k < 12; k++) {
                spread = fmax(spread, fabs(K[b].m[k] - K[0].m[k]));
                off_identity = fmax(off_identity, fabs(K[b].m[k] - I.m[k]));
            }
        printf("  K at bind: spread over bones %.3g, off identity %.3g; K[0] x axis %.4f %.4f %.4f\n", spread,
               off_identity, K[0].m[0], K[0].m[1], K[0].m[2]);
        free(locals), free(world), free(K);
        CHECK_EQ_INT(bc.pass, e->bind_consistent);
        CHECK(spread < 1e-5);
        if (e->bind_consistent)
            CHECK(off_identity < 1e-4);
        vks_skin_free(s);
    }
    return vks_test_finish("test_gltf_samples");
}
