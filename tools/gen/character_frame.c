/* The finished character turned or mirrored into a format's axes (vks_gen_frame). The map L is
 * a signed permutation of the axes, so every number is moved or negated, never rounded: the
 * bind pose stays exact and the clips made for the figure (character_clips.c finds its axes
 * from the joints) turn the same joints about the same body axes. Positions and normals become
 * L p, every transform L A L^-1 (nodes' bind locals, inverse binds, the meshes' space_pre), so
 * every skin matrix becomes L K L^-1 and every posed vertex L times the figure's. A mirror
 * (det L = -1) keeps node transforms rotations (L R L^-1 is one) and reverses the triangles so
 * that (v1 - v0) x (v2 - v0) still follows the outward normals. */
#include "character_internal.h"

/* Column c of L is the image of axis c: image[c] = sign[c] * e(axis[c]). */
typedef struct axis_map {
    int axis[3];
    float sign[3];
} axis_map;

static axis_map map_of(vks_gen_frame f)
{
    switch (f) {
    case VKS_GEN_FRAME_Z_UP: /* x -> x, y -> z, z -> -y */
        return (axis_map){{0, 2, 1}, {1, 1, -1}};
    case VKS_GEN_FRAME_LEFT_Y_UP: /* z -> -z */
        return (axis_map){{0, 1, 2}, {1, 1, -1}};
    default:
        return (axis_map){{0, 1, 2}, {1, 1, 1}};
    }
}

static void map_vec(const axis_map *L, const float in[3], float out[3])
{
    float v[3];
    for (int c = 0; c < 3; c++)
        v[L->axis[c]] = L->sign[c] * in[c];
    for (int c = 0; c < 3; c++)
        out[c] = v[c];
}

/* L A L^-1 of a column-major 3x4 affine: entry (r, c) moves to (axis[r], axis[c]) with the
 * product of both signs (L^-1 = L^T), the translation to L t. */
static void map_affine(const axis_map *L, vks_affine *a)
{
    vks_affine out;
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++)
            out.m[3 * L->axis[c] + L->axis[r]] = L->sign[r] * L->sign[c] * a->m[3 * c + r];
    map_vec(L, a->m + 9, out.m + 9);
    *a = out;
}

void vks__gen_apply_frame(vks_skin *s, vks_gen_frame f)
{
    if (f == VKS_GEN_FRAME_Y_UP)
        return;
    const axis_map L = map_of(f);
    /* det L: the signs' product, negated for an odd permutation (one swap of two axes) */
    const int odd = (L.axis[0] != 0) + (L.axis[1] != 1) + (L.axis[2] != 2) == 2;
    const int mirror = (L.sign[0] * L.sign[1] * L.sign[2] < 0) != odd;
    for (uint32_t v = 0; v < s->vertex_count; v++) {
        map_vec(&L, s->positions[v], s->positions[v]);
        if (s->normals)
            map_vec(&L, s->normals[v], s->normals[v]);
    }
    for (uint32_t n = 0; n < s->node_count; n++)
        map_affine(&L, &s->nodes[n].bind_local);
    for (uint32_t b = 0; b < s->bone_count; b++)
        map_affine(&L, &s->bones[b].inverse_bind);
    for (uint32_t m = 0; m < s->mesh_count; m++)
        map_affine(&L, &s->meshes[m].space_pre);
    for (uint32_t t = 0; mirror && t < s->triangle_count; t++) {
        uint32_t k = s->triangles[t][1];
        s->triangles[t][1] = s->triangles[t][2];
        s->triangles[t][2] = k;
    }
}
