/* vks_cmdl_write: a vks_skin as a NintendoWare CTR intermediate model (.cmdl XML), the
 * project's own fixtures for the format (no public sample exists; notes §11).
 *
 * Layout (notes §3): one SkeletalModel; the skin's nodes become <Bone>s in order (bind
 * local decomposed into Scale / Rotate (radians, X then Y then Z) / Translate); each mesh
 * becomes one SeparateDataShapeCtr and each of its groups one PrimitiveSetCtr whose
 * BoneIndexTable is the group's palette (node indices, at most 20: the PICA200 limit).
 * A group whose every vertex follows exactly one bone is written as RigidSkinning with
 * bone-local vertices (Vector1 BoneIndex), the others as SmoothSkinning.
 *
 * NW4C stores no inverse bind: the reader derives it from the bones, so vertices are written
 * in model space (the mesh's skin space at bind: inverse(space_pre * inverse(W(space_node))))
 * and the skin is assumed to be bind-consistent (K_b = identity at bind).
 * Options: quantize writes Short positions (Scale + PositionOffset), Byte normals (1/127),
 * Ubyte weights in percent (0.01) and Ubyte bone indices; triangle_strips writes each group
 * as greedy TriangleStrip index streams. UV sets: TextureCoordinate0..2 (v flipped).
 * Materials: the model's names where they are distinct (else "material<i>"); a shape's Mesh
 * references the material of its first triangle (NW4C has one material per mesh). */
#include "cmdl_internal.h"
#include "core/bytebuf.h"
#include "vkskin/formats.h"
#include "core/c_numeric.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CMDL_PALETTE_LIMIT 20u

void vks__cmdl_put_escaped(vks_bytebuf *b, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': vks_buf_printf(b, "&amp;"); break;
        case '<': vks_buf_printf(b, "&lt;"); break;
        case '>': vks_buf_printf(b, "&gt;"); break;
        case '"': vks_buf_printf(b, "&quot;"); break;
        default:
            if ((unsigned char)*s < 0x20)
                vks_buf_printf(b, "&#%d;", (int)(unsigned char)*s);
            else
                vks_buf_put(b, s, 1);
        }
    }
}

/* The node's name when it is non-empty and unique, else name#index (parents are by name). */
typedef struct wname {
    const char *name;
    uint32_t index;
} wname;

static int cmp_wname(const void *a, const void *b)
{
    const wname *x = a, *y = b;
    int r = strcmp(x->name, y->name);
    return r ? r : (x->index > y->index) - (x->index < y->index);
}

static void put_bone_name(vks_bytebuf *b, const vks_skin *s, const uint8_t *renamed, uint32_t n)
{
    vks__cmdl_put_escaped(b, s->nodes[n].name);
    if (renamed[n])
        vks_buf_printf(b, "#%u", n);
}

void vks__cmdl_euler_xyz(const double c[3][3], double r[3])
{
    /* R[row][col] = c[col][row] */
    double r20 = c[0][2], sb = -r20;
    if (sb > 1)
        sb = 1;
    if (sb < -1)
        sb = -1;
    double bb = asin(sb), aa, cc;
    if (fabs(cos(bb)) > 1e-6) {
        aa = atan2(c[1][2], c[2][2]); /* R21, R22 */
        cc = atan2(c[0][1], c[0][0]); /* R10, R00 */
    } else {
        aa = 0;
        cc = atan2(-c[1][0], c[1][1]); /* -R01, R11 */
    }
    r[0] = aa, r[1] = bb, r[2] = cc;
}

void vks__cmdl_decompose(const vks_affine *a, float s[3], float r[3], float t[3])
{
    double c[3][3], e[3];
    vks_affine_split_scale(a, c, s);
    vks__cmdl_euler_xyz(c, e);
    r[0] = (float)e[0], r[1] = (float)e[1], r[2] = (float)e[2];
    t[0] = a->m[9], t[1] = a->m[10], t[2] = a->m[11];
}

static void apply_d(const vks_affine_d *m, const float p[3], double out[3], int with_translation)
{
    for (int i = 0; i < 3; i++)
        out[i] = m->m[i] * p[0] + m->m[3 + i] * p[1] + m->m[6 + i] * p[2] + (with_translation ? m->m[9 + i] : 0.0);
}

/* Is every vertex of the group on exactly one bone? */
static int group_is_rigid(const vks_skin *s, const vks_group *g)
{
    for (uint32_t v = g->first_vertex; v < g->first_vertex + g->vertex_count; v++) {
        const vks_influence *in = &s->influences[v];
        int used = 0;
        for (int k = 0; k < VKS_MAX_INFLUENCES; k++)
            used += in->weight[k] > 0;
        if (used != 1 || !(in->weight[0] > 0.999f))
            return 0;
    }
    return 1;
}

static void put_triangles_list(vks_bytebuf *b, const uint32_t (*tri)[3], uint32_t n, int ushort)
{
    vks_buf_printf(b, "                    <%sIndexStreamCtr PrimitiveMode=\"Triangles\" Size=\"%u\">",
                   ushort ? "Ushort" : "Ubyte", n * 3);
    for (uint32_t t = 0; t < n; t++)
        vks_buf_printf(b, "%s%u %u %u", t ? " " : "", tri[t][0], tri[t][1], tri[t][2]);
    vks_buf_printf(b, "</%sIndexStreamCtr>\n", ushort ? "Ushort" : "Ubyte");
}

/* Greedy strips in triangle order: a triangle joins the strip when it shares the strip's last
   edge with the winding the strip rule gives it (notes §5); otherwise a new stream starts. */
static int put_triangles_strips(vks_bytebuf *b, const uint32_t (*tri)[3], uint32_t n, int ushort)
{
    uint32_t *strip = malloc(((size_t)n + 2) * sizeof *strip);
    if (!strip)
        return 0;
    uint32_t t = 0;
    while (t < n) {
        size_t len = 0;
        /* start with the rotation of this triangle (same winding) that the next one joins:
           the strip's second triangle is (s2, s1, x) */
        int rot = 0;
        for (int r = 0; r < 3 && t + 1 < n && !rot; r++) {
            uint32_t s1 = tri[t][(r + 1) % 3], s2 = tri[t][(r + 2) % 3];
            for (int q = 0; q < 3; q++)
                if (tri[t + 1][q] == s2 && tri[t + 1][(q + 1) % 3] == s1)
                    rot = r + 1;
        }
        rot = rot ? rot - 1 : 0;
        for (int k = 0; k < 3; k++)
            strip[len++] = tri[t][(rot + k) % 3];
        t++;
        while (t < n) {
            size_t i = len - 2; /* index of the triangle the next vertex would make */
            uint32_t e0 = (i & 1) ? strip[i + 1] : strip[i], e1 = (i & 1) ? strip[i] : strip[i + 1];
            int joined = 0;
            for (int r = 0; r < 3 && !joined; r++) {
                uint32_t x = tri[t][r], y = tri[t][(r + 1) % 3], z = tri[t][(r + 2) % 3];
                if (x == e0 && y == e1 && z != x && z != y) {
                    strip[len++] = z;
                    joined = 1;
                }
            }
            if (!joined)
                break;
            t++;
        }
        vks_buf_printf(b, "                    <%sIndexStreamCtr PrimitiveMode=\"TriangleStrip\" Size=\"%zu\">",
                       ushort ? "Ushort" : "Ubyte", len);
        for (size_t k = 0; k < len; k++)
            vks_buf_printf(b, "%s%u", k ? " " : "", strip[k]);
        vks_buf_printf(b, "</%sIndexStreamCtr>\n", ushort ? "Ushort" : "Ubyte");
    }
    free(strip);
    return 1;
}

void vks__cmdl_put_xyz(vks_bytebuf *b, const char *el, const float v[3])
{
    vks_buf_printf(b, "<%s X=\"%.9g\" Y=\"%.9g\" Z=\"%.9g\" />", el, (double)v[0], (double)v[1], (double)v[2]);
}

/* The mesh's vertices in model space (pos, nrm), or in their bone's space for the groups that
   NW4C skins rigidly (rigid[gi]), and the most influences of a smooth group (*comps). */
static vks_result model_space_vertices(const vks_skin *s, const vks_mesh *me, const vks_affine_d *world,
                                       const vks_affine_d *to_model, int has_normals, const char *path, float (*pos)[3],
                                       float (*nrm)[3], uint8_t *rigid, uint32_t *comps, vks_error *err)
{
    for (uint32_t gi = 0; gi < me->group_count; gi++) {
        const vks_group *g = &s->groups[me->first_group + gi];
        if (g->palette_count > CMDL_PALETTE_LIMIT) {
            return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, path,
                                 "group %u has a palette of %u bones; NW4C allows %u", gi, g->palette_count,
                                 CMDL_PALETTE_LIMIT);
        }
        rigid[gi] = (uint8_t)group_is_rigid(s, g);
        if (!rigid[gi] && g->max_influences > *comps)
            *comps = g->max_influences;
        for (uint32_t v = g->first_vertex; v < g->first_vertex + g->vertex_count; v++) {
            double pm[3], nm[3] = {0, 0, 0};
            apply_d(to_model, s->positions[v], pm, 1);
            if (has_normals)
                apply_d(to_model, s->normals[v], nm, 0);
            if (rigid[gi]) {
                /* bone-local: inverse of the bone's bind world */
                uint32_t node = s->bones[s->palette[g->first_palette + s->influences[v].index[0]]].node;
                vks_affine_d inv;
                if (!vks_affine_d_inverse(&world[node], &inv))
                    return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path, "node %u has a singular bind world",
                                         node);
                float pf[3] = {(float)pm[0], (float)pm[1], (float)pm[2]}, nf[3] = {(float)nm[0], (float)nm[1], (float)nm[2]};
                apply_d(&inv, pf, pm, 1);
                apply_d(&inv, nf, nm, 0);
            }
            double len = sqrt(nm[0] * nm[0] + nm[1] * nm[1] + nm[2] * nm[2]);
            for (int k = 0; k < 3; k++) {
                pos[v - me->first_vertex][k] = (float)pm[k];
                nrm[v - me->first_vertex][k] = len > 0 ? (float)(nm[k] / len) : 0.0f;
            }
        }
    }

    return VKS_OK;
}

/* Quantized positions are Shorts around the bounding-box centre (offset), scaled so that the
   largest extent fits (scale). */
static void quantize_box(const float (*pos)[3], uint32_t V, float offset[3], double *scale)
{
    float lo[3], hi[3];
    for (int k = 0; k < 3; k++)
        lo[k] = hi[k] = pos[0][k];
    for (uint32_t v = 1; v < V; v++)
        for (int k = 0; k < 3; k++) {
            if (pos[v][k] < lo[k])
                lo[k] = pos[v][k];
            if (pos[v][k] > hi[k])
                hi[k] = pos[v][k];
        }
    double ext = 0;
    for (int k = 0; k < 3; k++) {
        offset[k] = 0.5f * (lo[k] + hi[k]);
        double e = fmax(fabs((double)hi[k] - offset[k]), fabs((double)lo[k] - offset[k]));
        ext = fmax(ext, e);
    }
    *scale = ext > 0 ? ext / 32760.0 : 1.0;
}

/* One PrimitiveSetCtr per group: its skinning mode, its palette as node numbers, its triangles
   as a list or strips of Ubyte or Ushort indices. */
static vks_result put_primitive_sets(vks_bytebuf *b, const vks_skin *s, const vks_mesh *me, const uint8_t *rigid,
                                     const vks_write_options *o, const char *path, vks_error *err)
{
    for (uint32_t gi = 0; gi < me->group_count; gi++) {
        const vks_group *g = &s->groups[me->first_group + gi];
        vks_buf_printf(b, "              <PrimitiveSetCtr SkinningMode=\"%s\">\n                <BoneIndexTable>",
                       rigid[gi] ? "RigidSkinning" : "SmoothSkinning");
        for (uint32_t i = 0; i < g->palette_count; i++)
            vks_buf_printf(b, "%s%u", i ? " " : "", s->bones[s->palette[g->first_palette + i]].node);
        vks_buf_printf(b, "</BoneIndexTable>\n                <Primitives>\n                  <PrimitiveCtr>\n"
                          "                    <IndexStreams>\n");
        const uint32_t(*tri)[3] = (const uint32_t(*)[3])s->triangles[g->first_triangle];
        uint32_t maxi = 0;
        for (uint32_t t = 0; t < g->triangle_count; t++)
            for (int k = 0; k < 3; k++)
                if (tri[t][k] > maxi)
                    maxi = tri[t][k];
        int ushort = maxi > 255;
        if (g->triangle_count) {
            if (o->triangle_strips) {
                if (!put_triangles_strips(b, tri, g->triangle_count, ushort))
                    return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory");
            } else
                put_triangles_list(b, tri, g->triangle_count, ushort);
        }
        vks_buf_printf(b, "                    </IndexStreams>\n                  </PrimitiveCtr>\n"
                          "                </Primitives>\n              </PrimitiveSetCtr>\n");
    }
    return VKS_OK;
}

/* TextureCoordinate0..2: the mesh's UV sets (NW4C holds 3), float, Scale 1. NW4C counts v
   from the bottom of the image (OpenGL's convention), the model from the top: written 1 - v,
   as the reader flips it back. */
static void put_uv_streams(vks_bytebuf *b, const vks_skin *s, const vks_mesh *me)
{
    uint32_t sets = me->uv_set_count < s->uv_set_count ? me->uv_set_count : s->uv_set_count;
    for (uint32_t k = 0; k < sets && k < 3; k++) {
        vks_buf_printf(b, "              <Vector2VertexStreamCtr Usage=\"TextureCoordinate%u\" VertexSize=\"%u\" "
                          "Scale=\"1\" QuantizedMode=\"Float\">", k, me->vertex_count);
        for (uint32_t v = 0; v < me->vertex_count; v++) {
            const float *uv = s->uv[k][me->first_vertex + v];
            vks_buf_printf(b, "%s%.9g %.9g", v ? " " : "", (double)uv[0], (double)(1.0f - uv[1]));
        }
        vks_buf_printf(b, "</Vector2VertexStreamCtr>\n");
    }
}

/* Whether the materials can keep the model's names: every mesh's range starts at 0 (so local
   index i is materials[i]) and covers nmat, each name given and unlike the others (the reader
   finds a Mesh's MaterialReference by name). Else they are "material<i>". */
static int model_material_names(const vks_skin *s, uint32_t nmat)
{
    if (s->material_count < nmat)
        return 0;
    for (uint32_t mi = 0; mi < s->mesh_count; mi++)
        if (s->meshes[mi].first_material != 0)
            return 0;
    for (uint32_t i = 0; i < nmat; i++) {
        if (!s->materials[i].name[0])
            return 0;
        for (uint32_t j = 0; j < i; j++)
            if (!strcmp(s->materials[i].name, s->materials[j].name))
                return 0;
    }
    return 1;
}

static void put_material_name(vks_bytebuf *b, const vks_skin *s, int named, uint32_t m)
{
    if (named)
        vks__cmdl_put_escaped(b, s->materials[m].name);
    else
        vks_buf_printf(b, "material%u", m);
}

/* The BoneWeight stream: quantized as percentages that add up to 100 (the largest weight takes
 * the rounding), else floats. */
static void put_bone_weights(vks_bytebuf *b, const vks_skin *s, const vks_mesh *me, uint32_t comps,
                             const vks_write_options *o)
{
    uint32_t V = me->vertex_count;
    vks_buf_printf(b, "              <Vector%uVertexStreamCtr Usage=\"BoneWeight\" VertexSize=\"%u\" Scale=\"%s\" QuantizedMode=\"%s\">",
                   comps, V, o->quantize ? "0.01" : "1", o->quantize ? "Ubyte" : "Float");
    for (uint32_t v = 0; v < V; v++) {
        const vks_influence *in = &s->influences[me->first_vertex + v];
        long pct[4] = {0, 0, 0, 0}, sum = 0;
        uint32_t big = 0;
        for (uint32_t k = 0; k < comps && k < 4; k++) {
            pct[k] = in->weight[k] > 0 ? lrint(in->weight[k] * 100.0f) : 0;
            sum += pct[k];
            if (in->weight[k] > in->weight[big])
                big = k;
        }
        pct[big] += 100 - sum; /* percentages that add up to 100 */
        if (pct[big] < 0)
            pct[big] = 0;
        for (uint32_t k = 0; k < comps; k++) {
            if (o->quantize)
                vks_buf_printf(b, "%s%ld", v || k ? " " : "", pct[k]);
            else
                vks_buf_printf(b, "%s%.9g", v || k ? " " : "", in->weight[k] > 0 ? (double)in->weight[k] : 0.0);
        }
    }
    vks_buf_printf(b, "</Vector%uVertexStreamCtr>\n", comps);
}

static vks_result write_shape(vks_bytebuf *b, const vks_skin *s, uint32_t mi, const vks_affine_d *world,
                              const vks_write_options *o, vks_error *err)
{
    const vks_mesh *me = &s->meshes[mi];
    char path[64];
    snprintf(path, sizeof path, "meshes[%u]", mi);
    if (me->vertex_count > 65536)
        return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, path,
                             "%u vertices: Ushort index streams address at most 65536", me->vertex_count);
    /* model space = inverse of the skin-space transform at bind */
    vks_affine_d S = vks_affine_d_from(&me->space_pre), to_model;
    if (me->space_node >= 0) {
        vks_affine_d inv;
        if (!vks_affine_d_inverse(&world[me->space_node], &inv))
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path, "skin-space node has a singular bind world");
        S = vks_affine_d_mul(&S, &inv);
    }
    if (!vks_affine_d_inverse(&S, &to_model))
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path, "singular skin-space transform");

    uint32_t V = me->vertex_count;
    float(*pos)[3] = calloc(V ? V : 1, sizeof *pos);
    float(*nrm)[3] = calloc(V ? V : 1, sizeof *nrm);
    uint8_t *rigid = calloc(me->group_count ? me->group_count : 1, 1);
    if (!pos || !nrm || !rigid) {
        free(pos), free(nrm), free(rigid);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory");
    }
    int has_normals = (me->flags & VKS_MESH_HAS_NORMALS) && s->normals;
    uint32_t comps = 1;
    vks_result rc = VKS_OK;
    if ((rc = model_space_vertices(s, me, world, &to_model, has_normals, path, pos, nrm, rigid, &comps, err)) != VKS_OK)
        goto out;

    vks_buf_printf(b, "          <SeparateDataShapeCtr>\n");
    /* quantized positions: Short around the bounding-box centre */
    float offset[3] = {0, 0, 0};
    double scale = 1.0;
    if (o->quantize && V)
        quantize_box((const float(*)[3])pos, V, offset, &scale);
    vks_buf_printf(b, "            ");
    vks__cmdl_put_xyz(b, "PositionOffset", offset);
    vks_buf_printf(b, "\n            <PrimitiveSets>\n");
    if ((rc = put_primitive_sets(b, s, me, rigid, o, path, err)) != VKS_OK)
        goto out;
    vks_buf_printf(b, "            </PrimitiveSets>\n            <VertexAttributes>\n");

    /* Position */
    vks_buf_printf(b, "              <Vector3VertexStreamCtr Usage=\"Position\" VertexSize=\"%u\" Scale=\"%.9g\" QuantizedMode=\"%s\">",
                   V, scale, o->quantize ? "Short" : "Float");
    for (uint32_t v = 0; v < V; v++)
        for (int k = 0; k < 3; k++) {
            if (o->quantize)
                vks_buf_printf(b, "%s%ld", v || k ? " " : "", lrint((pos[v][k] - offset[k]) / scale));
            else
                vks_buf_printf(b, "%s%.9g", v || k ? " " : "", (double)pos[v][k]);
        }
    vks_buf_printf(b, "</Vector3VertexStreamCtr>\n");
    /* Normal */
    if (has_normals) {
        vks_buf_printf(b, "              <Vector3VertexStreamCtr Usage=\"Normal\" VertexSize=\"%u\" Scale=\"%.9g\" QuantizedMode=\"%s\">",
                       V, o->quantize ? 1.0 / 127.0 : 1.0, o->quantize ? "Byte" : "Float");
        for (uint32_t v = 0; v < V; v++)
            for (int k = 0; k < 3; k++) {
                if (o->quantize)
                    vks_buf_printf(b, "%s%ld", v || k ? " " : "", lrint(nrm[v][k] * 127.0f));
                else
                    vks_buf_printf(b, "%s%.9g", v || k ? " " : "", (double)nrm[v][k]);
            }
        vks_buf_printf(b, "</Vector3VertexStreamCtr>\n");
    }
    put_uv_streams(b, s, me);
    /* BoneIndex: palette slots; rigid groups use slot 0 of the stream */
    vks_buf_printf(b, "              <Vector%uVertexStreamCtr Usage=\"BoneIndex\" VertexSize=\"%u\" Scale=\"1\" QuantizedMode=\"Ubyte\">",
                   comps, V);
    for (uint32_t v = 0; v < V; v++)
        for (uint32_t k = 0; k < comps; k++) {
            const vks_influence *in = &s->influences[me->first_vertex + v];
            vks_buf_printf(b, "%s%u", v || k ? " " : "", in->weight[k] > 0 ? in->index[k] : 0u);
        }
    vks_buf_printf(b, "</Vector%uVertexStreamCtr>\n", comps);
    if (comps > 1) /* BoneWeight: only when a vertex can have several bones */
        put_bone_weights(b, s, me, comps, o);
    vks_buf_printf(b, "            </VertexAttributes>\n          </SeparateDataShapeCtr>\n");
out:
    free(pos), free(nrm), free(rigid);
    return rc;
}

/* The skeleton's bones, each with its bind local as scale, Euler rotation and translation. */
static void put_bones(vks_bytebuf *b, const vks_skin *s, const uint8_t *renamed)
{
    for (uint32_t n = 0; n < s->node_count; n++) {
        float sc[3], r[3], t[3];
        vks__cmdl_decompose(&s->nodes[n].bind_local, sc, r, t);
        vks_buf_printf(b, "            <Bone Name=\"");
        put_bone_name(b, s, renamed, n);
        vks_buf_printf(b, "\" ParentBoneName=\"");
        if (s->nodes[n].parent >= 0)
            put_bone_name(b, s, renamed, (uint32_t)s->nodes[n].parent);
        vks_buf_printf(b, "\" IsSegmentScaleCompensate=\"false\" IsCompressible=\"false\" IsNeededRendering=\"true\""
                           " HasSkinningMatrix=\"true\" BillboardMode=\"Off\">\n              <Transform>");
        vks__cmdl_put_xyz(b, "Scale", sc);
        vks__cmdl_put_xyz(b, "Rotate", r);
        vks__cmdl_put_xyz(b, "Translate", t);
        vks_buf_printf(b, "</Transform>\n            </Bone>\n");
    }
}

static vks_result cmdl_write_body(const vks_skin *s, const vks_write_options *opt, uint8_t **out_bytes,
                                  size_t *out_size, vks_error *err)
{
    vks_write_options o = opt ? *opt : (vks_write_options){0};
    if (!s || !out_bytes || !out_size)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "cmdl", "no model or no output");
    if (s->node_count == 0 || s->mesh_count == 0)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "cmdl", "model has %u nodes and %u meshes",
                             s->node_count, s->mesh_count);
    vks_result rc = vks_skin_validate(s, err);
    if (rc != VKS_OK)
        return rc;
    uint32_t over = vks_skin_vertices_over(s, 4);
    if (over)
        return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "cmdl",
                             "%u vertices have more than 4 influences; BoneIndex and BoneWeight streams are Vector4 "
                             "(glTF keeps up to 8: vkskin convert)", over);
    vks_bytebuf b = {0};
    vks_affine_d *world = calloc(s->node_count, sizeof *world);
    wname *names = calloc(s->node_count, sizeof *names);
    uint8_t *renamed = calloc(s->node_count, 1);
    if (!world || !names || !renamed) {
        rc = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "cmdl", "out of memory");
        goto out;
    }
    for (uint32_t n = 0; n < s->node_count; n++) {
        vks_affine_d l = vks_affine_d_from(&s->nodes[n].bind_local);
        world[n] = s->nodes[n].parent >= 0 ? vks_affine_d_mul(&world[s->nodes[n].parent], &l) : l;
        names[n].name = s->nodes[n].name, names[n].index = n;
        renamed[n] = s->nodes[n].name[0] == 0;
    }
    qsort(names, s->node_count, sizeof *names, cmp_wname);
    for (uint32_t i = 1; i < s->node_count; i++)
        if (strcmp(names[i - 1].name, names[i].name) == 0)
            renamed[names[i].index] = 1;

    vks_buf_printf(&b, "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
                       "<NintendoWareIntermediateFile>\n"
                       "  <GraphicsContentCtr Version=\"1.3.0\" Namespace=\"\">\n"
                       "    <Models>\n"
                       "      <SkeletalModel Name=\"vkskin\" IsBranchVisible=\"true\" IsVisible=\"true\" CullingMode=\"Dynamic\""
                       " IsNonuniformScalable=\"false\" LayerId=\"0\" NeededBoneCapacity=\"%u\">\n"
                       "        <Transform><Scale X=\"1\" Y=\"1\" Z=\"1\" /><Rotate X=\"0\" Y=\"0\" Z=\"0\" />"
                       "<Translate X=\"0\" Y=\"0\" Z=\"0\" /></Transform>\n"
                       "        <Shapes>\n",
                   CMDL_PALETTE_LIMIT);
    for (uint32_t mi = 0; mi < s->mesh_count; mi++)
        if ((rc = write_shape(&b, s, mi, world, &o, err)) != VKS_OK)
            goto out;
    vks_buf_printf(&b, "        </Shapes>\n        <Materials>\n");
    uint32_t nmat = 1;
    if (s->triangle_material)
        for (uint32_t t = 0; t < s->triangle_count; t++)
            if (s->triangle_material[t] + 1u > nmat)
                nmat = s->triangle_material[t] + 1u;
    const int named = model_material_names(s, nmat);
    for (uint32_t m = 0; m < nmat; m++) {
        vks_buf_printf(&b, "          <MaterialCtr Name=\"");
        put_material_name(&b, s, named, m);
        vks_buf_printf(&b, "\" />\n");
    }
    vks_buf_printf(&b, "        </Materials>\n        <Meshes>\n");
    for (uint32_t mi = 0; mi < s->mesh_count; mi++) {
        const vks_mesh *me = &s->meshes[mi];
        uint32_t mat = s->triangle_material && me->triangle_count ? s->triangle_material[me->first_triangle] : 0;
        vks_buf_printf(&b, "          <Mesh IsVisible=\"true\" RenderPriority=\"0\" MeshNodeName=\"\">"
                           "<SeparateShapeReference>Shapes[%u]</SeparateShapeReference>"
                           "<MaterialReference>Materials[\"",
                       mi);
        put_material_name(&b, s, named, mat);
        vks_buf_printf(&b, "\"]</MaterialReference></Mesh>\n");
    }
    vks_buf_printf(&b, "        </Meshes>\n        <Skeleton RootBoneName=\"");
    put_bone_name(&b, s, renamed, 0);
    vks_buf_printf(&b, "\" ScalingRule=\"Standard\" IsTranslateAnimationEnabled=\"true\">\n          <Bones>\n");
    put_bones(&b, s, renamed);
    vks_buf_printf(&b, "          </Bones>\n        </Skeleton>\n      </SkeletalModel>\n    </Models>\n"
                       "  </GraphicsContentCtr>\n</NintendoWareIntermediateFile>\n");
    if (b.failed)
        rc = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "cmdl", "out of memory writing %zu bytes", b.size);
out:
    free(world), free(names), free(renamed);
    if (rc != VKS_OK) {
        vks_buf_free(&b);
        return rc;
    }
    *out_bytes = b.data;
    *out_size = b.size;
    return VKS_OK;
}

/* The body above, under the C locale's numbers whatever the host's setlocale() (c_numeric.h). */
vks_result vks_cmdl_write(const vks_skin *s, const vks_write_options *opt, uint8_t **out_bytes, size_t *out_size,
                          vks_error *err)
{
    VKS_RETURN_IN_C_NUMERIC(vks_result, cmdl_write_body(s, opt, out_bytes, out_size, err));
}
