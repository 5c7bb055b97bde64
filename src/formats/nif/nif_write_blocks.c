/* Block bodies of the NIF writer, for the two layouts it writes: 20.2.0.7 (Skyrim LE profile,
 * user 12, bsver 83: string-table names, u32 flags, no property lists, shader/alpha refs,
 * partition LOD fields) and 10.1.0.0 (inline names, u16 flags, property lists, the skin
 * partition ref in NiSkinData). Field order follows nif_blocks.md Part A for each profile. */
#include "nif_internal.h"

#include <math.h>
#include <string.h>

static int is_20(const nif_writer *w) { return w->ver >= NIF_V(20, 1, 0, 1); }

void nif_w_name(nif_writer *w, uint32_t string_index, const char *s)
{
    if (is_20(w)) {
        vks_buf_u32(w->out, s && s[0] ? string_index : UINT32_MAX);
        return;
    }
    uint32_t n = s ? (uint32_t)strlen(s) : 0;
    vks_buf_u32(w->out, n);
    vks_buf_put(w->out, s, n);
}

static void floats(nif_writer *w, const float *v, int n)
{
    for (int i = 0; i < n; i++)
        vks_buf_f32(w->out, v[i]);
}

/* An affine as NIF stores it: the full 3x3 (scale folded in, so any matrix round-trips) with
   scale 1. R[row][col] = a.m[col*3 + row], written row by row. */
static void rotation(nif_writer *w, const vks_affine *a)
{
    for (int row = 0; row < 3; row++)
        for (int col = 0; col < 3; col++)
            vks_buf_f32(w->out, a->m[col * 3 + row]);
}

static void xform_trs(nif_writer *w, const vks_affine *a)
{
    floats(w, &a->m[9], 3);
    rotation(w, a);
    vks_buf_f32(w->out, 1.0f);
}

static void xform_rts(nif_writer *w, const vks_affine *a)
{
    rotation(w, a);
    floats(w, &a->m[9], 3);
    vks_buf_f32(w->out, 1.0f);
}

/* NiObjectNET + NiAVObject for both layouts. */
static void avobject(nif_writer *w, uint32_t block, const char *name, const vks_affine *local)
{
    nif_w_name(w, block, name);
    vks_buf_u32(w->out, 0);  /* extra data list */
    vks_buf_i32(w->out, -1); /* controller */
    if (w->bsver > 26)
        vks_buf_u32(w->out, 14); /* flags as Bethesda tools write them: not hidden */
    else
        vks_buf_u16(w->out, 8);
    xform_trs(w, local);
    if (w->bsver <= 34)
        vks_buf_u32(w->out, 0); /* properties */
    vks_buf_i32(w->out, -1);    /* collision object */
}

void nif_w_node(nif_writer *w, uint32_t block)
{
    const vks_skin *s = w->skin;
    if (w->synthetic_root && block == 0) {
        vks_affine id = vks_affine_identity();
        avobject(w, block, "Scene Root", &id);
    } else {
        const vks_node *n = &s->nodes[block - w->node_base];
        avobject(w, block, n->name, &n->bind_local);
    }
    vks_buf_u32(w->out, w->child_count[block]);
    for (uint32_t i = 0; i < w->child_count[block]; i++)
        vks_buf_u32(w->out, w->children[block][i]);
    vks_buf_u32(w->out, 0); /* effects */
}

uint32_t nif_w_skeleton_root(const nif_writer *w, uint32_t m)
{
    int32_t sn = w->skin->meshes[w->meshes[m].mesh].space_node;
    return sn >= 0 ? w->node_base + (uint32_t)sn : 0;
}

void nif_w_shape(nif_writer *w, uint32_t m)
{
    const vks_mesh *me = &w->skin->meshes[w->meshes[m].mesh];
    uint32_t block = w->mesh_base + 5 * m;
    /* placed under the skeleton root with local = Overall^-1, so that the file is bind-
       consistent: W(shape)^-1 * W(root) = Overall (nif.md 6.3) */
    vks_affine local;
    if (!vks_affine_inverse(&me->space_pre, &local))
        local = vks_affine_identity();
    avobject(w, block, me->name, &local);
    vks_buf_i32(w->out, (int32_t)block + 1); /* data */
    vks_buf_i32(w->out, (int32_t)block + 2); /* skin instance */
    if (is_20(w)) {
        vks_buf_u32(w->out, 0);  /* materials */
        vks_buf_i32(w->out, -1); /* active material */
        vks_buf_u8(w->out, 0);   /* material needs update */
        if (w->bsver > 34) {
            vks_buf_i32(w->out, -1); /* shader property */
            vks_buf_i32(w->out, -1); /* alpha property */
        }
    } else {
        vks_buf_u8(w->out, 0); /* has shader */
    }
}

void nif_w_geomdata(nif_writer *w, uint32_t m)
{
    const vks_skin *s = w->skin;
    const nif_wmesh *wm = &w->meshes[m];
    const vks_mesh *me = &s->meshes[wm->mesh];
    uint32_t nv = wm->vertex_count;
    if (is_20(w))
        vks_buf_i32(w->out, 0); /* group id */
    vks_buf_u16(w->out, (uint16_t)nv);
    vks_buf_u8(w->out, 0); /* keep flags */
    vks_buf_u8(w->out, 0); /* compress flags */
    vks_buf_u8(w->out, 1); /* has vertices */
    floats(w, &wm->positions[0][0], (int)(3 * nv));
    vks_buf_u16(w->out, (uint16_t)wm->uv_sets); /* data flags: the UV set count, no tangents */
    if (is_20(w) && w->bsver > 34)
        vks_buf_u32(w->out, 0); /* material CRC */
    vks_buf_u8(w->out, wm->normals ? 1 : 0);
    if (wm->normals)
        floats(w, &wm->normals[0][0], (int)(3 * nv));
    double r2 = 0;
    for (uint32_t v = 0; v < nv; v++) {
        const float *p = wm->positions[v];
        double d = (double)p[0] * p[0] + (double)p[1] * p[1] + (double)p[2] * p[2];
        r2 = d > r2 ? d : r2;
    }
    float bound[4] = {0, 0, 0, (float)sqrt(r2)};
    floats(w, bound, 4);
    vks_buf_u8(w->out, 0);  /* has vertex colors */
    for (uint32_t k = 0; k < wm->uv_sets; k++) /* Gamebryo's v runs from the top, as the model's */
        floats(w, &wm->uv[k][0][0], (int)(2 * nv));
    vks_buf_u16(w->out, 0); /* consistency: mutable */
    if (is_20(w))
        vks_buf_i32(w->out, -1); /* additional data */
    const uint32_t *src = s->source_vertex + me->first_vertex;
    uint32_t nt = me->triangle_count;
    vks_buf_u16(w->out, (uint16_t)nt);
    if (w->strips) { /* one 3-point strip per triangle: even position keeps the winding */
        vks_buf_u16(w->out, (uint16_t)nt);
        for (uint32_t t = 0; t < nt; t++)
            vks_buf_u16(w->out, 3);
        vks_buf_u8(w->out, 1); /* has points */
    } else {
        vks_buf_u32(w->out, 3 * nt);
        vks_buf_u8(w->out, 1); /* has triangles */
    }
    for (uint32_t t = 0; t < nt; t++)
        for (int k = 0; k < 3; k++)
            vks_buf_u16(w->out, (uint16_t)src[s->triangles[me->first_triangle + t][k]]);
    if (!w->strips)
        vks_buf_u16(w->out, 0); /* match groups */
}

void nif_w_skin_instance(nif_writer *w, uint32_t m)
{
    const vks_skin *s = w->skin;
    const vks_mesh *me = &s->meshes[w->meshes[m].mesh];
    uint32_t block = w->mesh_base + 5 * m;
    vks_buf_i32(w->out, (int32_t)block + 3); /* data */
    if (w->ver >= NIF_V(10, 1, 0, 101))
        vks_buf_i32(w->out, (int32_t)block + 4); /* partition */
    vks_buf_i32(w->out, (int32_t)nif_w_skeleton_root(w, m));
    vks_buf_u32(w->out, me->bone_count);
    for (uint32_t b = 0; b < me->bone_count; b++)
        vks_buf_u32(w->out, w->node_base + s->bones[me->first_bone + b].node);
}

void nif_w_skin_data(nif_writer *w, uint32_t m)
{
    const vks_skin *s = w->skin;
    const nif_wmesh *wm = &w->meshes[m];
    const vks_mesh *me = &s->meshes[wm->mesh];
    static const float sphere[4] = {0, 0, 0, 0};
    xform_rts(w, &me->space_pre);
    vks_buf_u32(w->out, me->bone_count);
    if (w->ver <= NIF_V(10, 1, 0, 0))
        vks_buf_i32(w->out, (int32_t)(w->mesh_base + 5 * m + 4)); /* partition */
    vks_buf_u8(w->out, 1); /* has vertex weights */
    for (uint32_t b = 0; b < me->bone_count; b++) {
        xform_rts(w, &s->bones[me->first_bone + b].inverse_bind);
        floats(w, sphere, 4);
        vks_buf_u16(w->out, (uint16_t)wm->weight_count[b]);
        for (uint32_t i = 0; i < wm->weight_count[b]; i++) {
            vks_buf_u16(w->out, wm->weight_vertex[b][i]);
            vks_buf_f32(w->out, wm->weight_value[b][i]);
        }
    }
}

void nif_w_skin_partition(nif_writer *w, uint32_t m)
{
    const vks_skin *s = w->skin;
    const vks_mesh *me = &s->meshes[w->meshes[m].mesh];
    vks_buf_u32(w->out, me->group_count);
    for (uint32_t gi = 0; gi < me->group_count; gi++) {
        const vks_group *g = &s->groups[me->first_group + gi];
        uint32_t nv = g->vertex_count, nt = g->triangle_count, local0 = g->first_vertex - me->first_vertex;
        vks_buf_u16(w->out, (uint16_t)nv);
        vks_buf_u16(w->out, (uint16_t)nt);
        vks_buf_u16(w->out, (uint16_t)g->palette_count);
        vks_buf_u16(w->out, (uint16_t)(w->strips ? nt : 0));
        vks_buf_u16(w->out, 4); /* weights per vertex */
        for (uint32_t k = 0; k < g->palette_count; k++)
            vks_buf_u16(w->out, (uint16_t)(s->palette[g->first_palette + k] - me->first_bone));
        vks_buf_u8(w->out, 1); /* has vertex map */
        for (uint32_t v = 0; v < nv; v++)
            vks_buf_u16(w->out, (uint16_t)s->source_vertex[g->first_vertex + v]);
        vks_buf_u8(w->out, 1); /* has vertex weights */
        for (uint32_t v = 0; v < nv; v++)
            floats(w, s->influences[g->first_vertex + v].weight, 4);
        if (w->strips)
            for (uint32_t t = 0; t < nt; t++)
                vks_buf_u16(w->out, 3);
        vks_buf_u8(w->out, 1); /* has faces */
        for (uint32_t t = 0; t < nt; t++)
            for (int k = 0; k < 3; k++)
                vks_buf_u16(w->out, (uint16_t)(s->triangles[g->first_triangle + t][k] - local0));
        vks_buf_u8(w->out, 1); /* has bone indices */
        for (uint32_t v = 0; v < nv; v++)
            for (int k = 0; k < 4; k++)
                vks_buf_u8(w->out, (uint8_t)s->influences[g->first_vertex + v].index[k]);
        if (is_20(w) && w->bsver > 34) {
            vks_buf_u8(w->out, 0); /* LOD level */
            vks_buf_u8(w->out, 0); /* global VB */
        }
    }
}
