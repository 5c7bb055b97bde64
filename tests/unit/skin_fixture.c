#include "skin_fixture.h"

#include <string.h>

vks_skin *vks_fixture_two_bones(const float root_offset[3], int space_node_root, int renormalize)
{
    vks_skin *s = vks_skin_create(NULL);
    s->format = "test";
    s->node_count = 3;
    s->nodes = vks_skin_alloc_array(s, 3, sizeof *s->nodes);
    const char *names[3] = {"root", "A", "B"};
    for (int i = 0; i < 3; i++) {
        s->nodes[i].name = names[i];
        s->nodes[i].parent = i - 1;
        s->nodes[i].bind_local = vks_affine_identity();
    }
    s->nodes[0].bind_local.m[9] = root_offset[0];
    s->nodes[0].bind_local.m[10] = root_offset[1];
    s->nodes[0].bind_local.m[11] = root_offset[2];
    s->nodes[2].bind_local.m[9] = 1.0f; /* B one unit along x from A */

    enum { N = 5 };
    static float pos[N][3], nrm[N][3], w[N][4];
    static uint16_t bone[N][4];
    static uint32_t tris[3][3] = {{0, 1, 2}, {1, 2, 3}, {2, 3, 4}};
    const float xs[N] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f};
    for (int v = 0; v < N; v++) {
        /* in skin space: when the skin space follows the root, vertices are root-relative */
        pos[v][0] = xs[v], pos[v][1] = 0.25f, pos[v][2] = 0;
        nrm[v][0] = 0, nrm[v][1] = 1, nrm[v][2] = 0;
        float t = xs[v] <= 0.5f ? 0.0f : xs[v] >= 1.5f ? 1.0f : xs[v] - 0.5f;
        memset(w[v], 0, sizeof w[v]);
        memset(bone[v], 0, sizeof bone[v]);
        if (t <= 0.0f) {
            w[v][0] = 1, bone[v][0] = 0;
        } else if (t >= 1.0f) {
            w[v][0] = 1, bone[v][0] = 1;
        } else {
            w[v][0] = 1 - t, bone[v][0] = 0;
            w[v][1] = t, bone[v][1] = 1;
        }
    }
    /* inverse binds: skin space -> bone space at bind */
    vks_bone bones[2];
    vks_affine world_a = s->nodes[0].bind_local; /* A = root * identity */
    vks_affine world_b = vks_affine_mul(&world_a, &s->nodes[2].bind_local);
    vks_affine skin_space = space_node_root ? s->nodes[0].bind_local : vks_affine_identity();
    vks_affine inv_a, inv_b;
    vks_affine_inverse(&world_a, &inv_a);
    vks_affine_inverse(&world_b, &inv_b);
    bones[0].node = 1, bones[0].inverse_bind = vks_affine_mul(&inv_a, &skin_space);
    bones[1].node = 2, bones[1].inverse_bind = vks_affine_mul(&inv_b, &skin_space);
    if (!space_node_root) /* model-space vertices: offset them by the root */
        for (int v = 0; v < N; v++)
            for (int k = 0; k < 3; k++)
                pos[v][k] += root_offset[k];

    vks_skin_builder *b = vks_builder_create(s);
    vks_mesh_source m = {0};
    m.name = "strip";
    m.vertex_count = N;
    m.positions = (const float(*)[3])pos;
    m.normals = (const float(*)[3])nrm;
    m.bone = (const uint16_t(*)[4])bone;
    m.weight = (const float(*)[4])w;
    m.triangle_count = 3;
    m.triangles = (const uint32_t(*)[3])tris;
    m.bone_count = 2;
    m.bones = bones;
    m.space_node = space_node_root ? 0 : -1;
    m.flags = renormalize ? VKS_MESH_RENORMALIZE : 0;
    vks_error err = {0};
    if (vks_builder_add_mesh(b, &m, &err) != VKS_OK || vks_builder_finish(b, &err) != VKS_OK) {
        vks_skin_free(s);
        return NULL;
    }
    return s;
}
