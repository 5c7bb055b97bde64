/* MLOD writer for generated characters (and its model.cfg): one P3DM visual LOD per mesh
 * (resolutions 1, 2, ...), then a memory LOD holding one pivot point per skeleton node, so
 * the reader's bind pivots come back. The skeleton itself lives in model.cfg.
 *
 * Per mesh: one point per file vertex (source_vertex), one normal per point (negated: MLOD
 * stores inward normals), triangles written reversed (the reader reverses them back), the
 * bone weights as named selections named after the nodes, encoded with the wiki rule
 * (b = 256 - 255 w, 1 for full weight); materials as "vkskin_material_<n>.rvmat" names.
 * Node names that are empty, duplicated (case-insensitively, as the engine matches them) or
 * unusable in a config string become "node<i>". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bytebuf.h"
#include "p3d_internal.h"

/* Unique, config-safe names for every node (malloc'ed array of malloc'ed strings). */
static char **node_names(const vks_skin *s)
{
    char **names = calloc(s->node_count ? s->node_count : 1, sizeof *names);
    if (!names)
        return NULL;
    for (uint32_t i = 0; i < s->node_count; i++) {
        const char *n = s->nodes[i].name ? s->nodes[i].name : "";
        size_t len = strlen(n);
        int ok = len > 0 && len < 200 && !(n[0] == '#' && n[len - 1] == '#');
        for (size_t k = 0; k < len && ok; k++)
            ok = n[k] != '"' && n[k] != '\\' && (unsigned char)n[k] >= 32 && n[k] != ',';
        for (uint32_t j = 0; j < i && ok; j++)
            ok = p3d_stricmp(names[j], n) != 0;
        char buf[32];
        if (!ok) {
            snprintf(buf, sizeof buf, "node%u", i);
            n = buf;
            len = strlen(buf);
        }
        names[i] = malloc(len + 1);
        if (!names[i]) {
            for (uint32_t j = 0; j < i; j++)
                free(names[j]);
            free(names);
            return NULL;
        }
        memcpy(names[i], n, len + 1);
    }
    return names;
}

static void free_names(char **names, uint32_t n)
{
    if (!names)
        return;
    for (uint32_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

static void put_lod_header(vks_bytebuf *b, uint32_t points, uint32_t normals, uint32_t faces)
{
    vks_buf_put(b, "P3DM", 4);
    vks_buf_u32(b, 0x1C);
    vks_buf_u32(b, 0x100);
    vks_buf_u32(b, points);
    vks_buf_u32(b, normals);
    vks_buf_u32(b, faces);
    vks_buf_u32(b, 0);
}

static void put_tagg_head(vks_bytebuf *b, const char *name, uint32_t len)
{
    vks_buf_u8(b, 1);
    vks_buf_put(b, name, strlen(name) + 1);
    vks_buf_u32(b, len);
}

static void put_end(vks_bytebuf *b, float resolution)
{
    put_tagg_head(b, "#EndOfFile#", 0);
    vks_buf_f32(b, resolution);
}

/* World transforms of the bind pose (parents come first). */
static vks_affine *bind_worlds(const vks_skin *s)
{
    vks_affine *w = calloc(s->node_count ? s->node_count : 1, sizeof *w);
    if (!w)
        return NULL;
    for (uint32_t i = 0; i < s->node_count; i++) {
        int32_t p = s->nodes[i].parent;
        w[i] = p >= 0 ? vks_affine_mul(&w[p], &s->nodes[i].bind_local) : s->nodes[i].bind_local;
    }
    return w;
}

static vks_affine mesh_space(const vks_skin *s, const vks_mesh *m, const vks_affine *world)
{
    vks_affine inv = vks_affine_identity();
    if (m->space_node >= 0 && (uint32_t)m->space_node < s->node_count)
        vks_affine_inverse(&world[m->space_node], &inv);
    return vks_affine_mul(&m->space_pre, &inv);
}

/* A point's nodes and weights: all the model's (up to 8): an MLOD's selections hold any number,
   and Arma's toolchain, like the reader, keeps the 4 largest (formats/p3d.md). */
typedef struct point_inf {
    uint32_t node[VKS_MAX_INFLUENCES];
    float w[VKS_MAX_INFLUENCES];
    uint8_t n;
} point_inf;

/* The weights per point by node (a point's duplicates counted once), and which nodes any
 * point uses. */
static void point_weights(const vks_skin *s, const vks_mesh *m, const int32_t *vert_of_point, point_inf *inf,
                          uint8_t *used)
{
    for (uint32_t g = m->first_group; g < m->first_group + m->group_count; g++) {
        const vks_group *gr = &s->groups[g];
        for (uint32_t v = gr->first_vertex; v < gr->first_vertex + gr->vertex_count; v++) {
            uint32_t p = s->source_vertex[v];
            if (vert_of_point[p] != (int32_t)v)
                continue; /* a duplicate of a point already counted */
            for (int k = 0; k < VKS_MAX_INFLUENCES; k++) {
                float w = s->influences[v].weight[k];
                if (!(w > 0))
                    continue;
                uint32_t node = s->bones[s->palette[gr->first_palette + s->influences[v].index[k]]].node;
                point_inf *pi = &inf[p];
                int j = 0;
                while (j < pi->n && pi->node[j] != node)
                    j++;
                if (j == pi->n) {
                    if (pi->n == VKS_MAX_INFLUENCES)
                        continue;
                    pi->node[j] = node;
                    pi->w[j] = 0;
                    pi->n++;
                }
                pi->w[j] += w;
                used[node] = 1;
            }
        }
    }
}

static vks_result write_mesh(vks_bytebuf *b, const vks_skin *s, uint32_t mi, vks_error *err)
{
    const vks_mesh *m = &s->meshes[mi];
    uint32_t np = m->source_vertex_count;
    for (uint32_t v = 0; v < m->vertex_count; v++)
        if (s->source_vertex[m->first_vertex + v] >= np)
            np = s->source_vertex[m->first_vertex + v] + 1;
    int32_t *vert_of_point = malloc((size_t)(np ? np : 1) * sizeof *vert_of_point);
    point_inf *inf = calloc(np ? np : 1, sizeof *inf);
    uint8_t *sel = malloc((size_t)np + (size_t)m->triangle_count + 1);
    uint8_t *used = calloc(s->node_count ? s->node_count : 1, 1);
    vks_result r = VKS_OK;
    if (!vert_of_point || !inf || !sel || !used) {
        r = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "p3d/write", "out of memory");
        goto done;
    }
    for (uint32_t p = 0; p < np; p++)
        vert_of_point[p] = -1;
    for (uint32_t v = 0; v < m->vertex_count; v++) {
        uint32_t p = s->source_vertex[m->first_vertex + v];
        if (vert_of_point[p] < 0)
            vert_of_point[p] = (int32_t)(m->first_vertex + v);
    }
    point_weights(s, m, vert_of_point, inf, used);

    put_lod_header(b, np, np, m->triangle_count);
    for (uint32_t p = 0; p < np; p++) {
        int32_t v = vert_of_point[p];
        for (int k = 0; k < 3; k++)
            vks_buf_f32(b, v >= 0 ? s->positions[v][k] : 0.0f);
        vks_buf_u32(b, 0);
    }
    for (uint32_t p = 0; p < np; p++) {
        int32_t v = vert_of_point[p];
        for (int k = 0; k < 3; k++)
            vks_buf_f32(b, v >= 0 && s->normals ? -s->normals[v][k] : (k == 1 ? -1.0f : 0.0f));
    }
    for (uint32_t t = m->first_triangle; t < m->first_triangle + m->triangle_count; t++) {
        uint32_t c[3];
        for (int k = 0; k < 3; k++)
            c[k] = s->source_vertex[m->first_vertex + s->triangles[t][k]];
        uint32_t order[4] = {c[0], c[2], c[1], 0};
        uint32_t corner_vertex[3] = {s->triangles[t][0], s->triangles[t][2], s->triangles[t][1]};
        vks_buf_u32(b, 3);
        for (int k = 0; k < 4; k++) {
            vks_buf_u32(b, k < 3 ? order[k] : 0);
            vks_buf_u32(b, k < 3 ? order[k] : 0);
            /* the corner's UV (set 0; P3D's origin is the top left, as the model's) */
            const float *uv = k < 3 && s->uv_set_count ? s->uv[0][m->first_vertex + corner_vertex[k]] : NULL;
            vks_buf_f32(b, uv ? uv[0] : 0.0f);
            vks_buf_f32(b, uv ? uv[1] : 0.0f);
        }
        vks_buf_u32(b, 0);
        const vks_material *mat = vks_skin_triangle_material(s, mi, t);
        if (mat) /* the model's texture and material names, as the face records hold them */
            vks_buf_put(b, mat->base_texture, strlen(mat->base_texture));
        vks_buf_u8(b, 0);
        if (mat && mat->name[0])
            vks_buf_put(b, mat->name, strlen(mat->name));
        else if (s->triangle_material)
            vks_buf_printf(b, "vkskin_material_%u.rvmat", (unsigned)s->triangle_material[t]);
        vks_buf_u8(b, 0);
    }
    vks_buf_put(b, "TAGG", 4);
    char **names = node_names(s);
    if (!names) {
        r = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "p3d/write", "out of memory");
        goto done;
    }
    for (uint32_t n = 0; n < s->node_count; n++) {
        if (!used[n])
            continue;
        memset(sel, 0, (size_t)np + m->triangle_count);
        for (uint32_t p = 0; p < np; p++)
            for (int j = 0; j < inf[p].n; j++)
                if (inf[p].node[j] == n)
                    sel[p] = p3d_byte_from_weight(inf[p].w[j]);
        put_tagg_head(b, names[n], np + m->triangle_count);
        vks_buf_put(b, sel, (size_t)np + m->triangle_count);
    }
    free_names(names, s->node_count);
    put_end(b, (float)(mi + 1));
done:
    free(vert_of_point);
    free(inf);
    free(sel);
    free(used);
    return r;
}

static vks_result write_memory(vks_bytebuf *b, const vks_skin *s, vks_error *err)
{
    vks_affine *world = bind_worlds(s);
    char **names = node_names(s);
    uint8_t *sel = malloc(s->node_count ? s->node_count : 1);
    vks_result r = VKS_OK;
    if (!world || !names || !sel) {
        r = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "p3d/write", "out of memory");
        goto done;
    }
    vks_affine space = s->mesh_count ? mesh_space(s, &s->meshes[0], world) : vks_affine_identity();
    put_lod_header(b, s->node_count, 0, 0);
    for (uint32_t n = 0; n < s->node_count; n++) {
        vks_affine p = vks_affine_mul(&space, &world[n]);
        for (int k = 0; k < 3; k++)
            vks_buf_f32(b, p.m[9 + k]);
        vks_buf_u32(b, 0);
    }
    vks_buf_put(b, "TAGG", 4);
    for (uint32_t n = 0; n < s->node_count; n++) {
        memset(sel, 0, s->node_count);
        sel[n] = 1;
        put_tagg_head(b, names[n], s->node_count);
        vks_buf_put(b, sel, s->node_count);
    }
    put_end(b, 1e15f);
done:
    free(world);
    free_names(names, s->node_count);
    free(sel);
    return r;
}

vks_result vks_p3d_write(const vks_skin *skin, const vks_write_options *opt, uint8_t **out_bytes,
                         size_t *out_size, vks_error *err)
{
    (void)opt;
    if (!skin || !out_bytes || !out_size)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "p3d/write", "skin and outputs are required");
    if (!skin->mesh_count)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "p3d/write", "the skin has no mesh");
    vks_bytebuf b = {0};
    vks_buf_put(&b, "MLOD", 4);
    vks_buf_u32(&b, 0x101);
    vks_buf_u32(&b, skin->mesh_count + 1);
    vks_result r = VKS_OK;
    for (uint32_t mi = 0; mi < skin->mesh_count && !r; mi++)
        r = write_mesh(&b, skin, mi, err);
    if (!r)
        r = write_memory(&b, skin, err);
    if (!r && b.failed)
        r = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "p3d/write", "out of memory");
    if (r) {
        vks_buf_free(&b);
        return r;
    }
    *out_bytes = b.data;
    *out_size = b.size;
    return VKS_OK;
}

vks_result vks_p3d_write_model_cfg(const vks_skin *skin, const char *model_name, uint8_t **out_bytes,
                                   size_t *out_size, vks_error *err)
{
    if (!skin || !out_bytes || !out_size)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "p3d/model.cfg", "skin and outputs are required");
    char model[128];
    const char *src = model_name && model_name[0] ? model_name : "model";
    size_t n = 0;
    for (; src[n] && n < sizeof model - 1; n++) {
        char ch = src[n];
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
        model[n] = ok ? ch : '_';
    }
    model[n] = 0;
    char **names = node_names(skin);
    if (!names)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "p3d/model.cfg", "out of memory");
    vks_bytebuf b = {0};
    vks_buf_printf(&b, "// written by vkskin: the skeleton of %s.p3d\n", model);
    vks_buf_printf(&b, "class CfgSkeletons\n{\n\tclass %s_Skeleton\n\t{\n\t\tisDiscrete = 0;\n", model);
    vks_buf_printf(&b, "\t\tskeletonInherit = \"\";\n\t\tskeletonBones[] =\n\t\t{\n");
    for (uint32_t i = 0; i < skin->node_count; i++) {
        int32_t p = skin->nodes[i].parent;
        vks_buf_printf(&b, "\t\t\t\"%s\", \"%s\"%s\n", names[i], p >= 0 ? names[p] : "",
                       i + 1 < skin->node_count ? "," : "");
    }
    vks_buf_printf(&b, "\t\t};\n\t};\n};\nclass CfgModels\n{\n\tclass %s\n\t{\n", model);
    vks_buf_printf(&b, "\t\tskeletonName = \"%s_Skeleton\";\n\t\tsectionsInherit = \"\";\n\t\tsections[] = {};\n"
                       "\t};\n};\n", model);
    free_names(names, skin->node_count);
    if (b.failed) {
        vks_buf_free(&b);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "p3d/model.cfg", "out of memory");
    }
    *out_bytes = b.data;
    *out_size = b.size;
    return VKS_OK;
}
