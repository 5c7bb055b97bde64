/* RenderWare Geometry: the Struct (flags, prelit, UV sets, triangles in v1,v0,mat,v2 order,
 * morph targets: rw_morph.c), the Material List (its entries, reuse resolved: colour and texture name of
 * each Material) and the Extension's Bin Mesh PLG (lists and strips) and Skin PLG.
 * renderware.md 5. UV sets are kept up to VKS_MAX_UV_SETS (RW allows 8); RenderWare's v runs
 * from the top of the image, as glTF's and the skin model's do. */
#include "rw_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static vks_result read_struct(rw_ctx *ctx, const rw_chunk *st, rw_geometry *g, const char *gpath)
{
    char path[RW_PATH_MAX];
    snprintf(path, sizeof path, "%s/struct", gpath);
    vks_cursor c = st->body;
    uint32_t flags, nt, nv, nmorph;
    if (!vks_cur_u32(&c, &flags) || !vks_cur_u32(&c, &nt) || !vks_cur_u32(&c, &nv) || !vks_cur_u32(&c, &nmorph))
        return vks__rw_truncated(ctx, &c, path, "geometry header (flags, triangles, vertices, morph targets)");
    g->version = st->version;
    g->flags = flags;
    if (flags & RW_GEO_NATIVE)
        return vks_error_set(ctx->err, VKS_ERR_UNSUPPORTED, st->body.p - st->body.base, path,
                             "native (platform-specific) geometry, flags 0x%08x: vkskin reads only PC/non-native "
                             "DFF geometry", flags);
    if (ctx->total_vertices + nv > ctx->opt.max_vertices)
        return vks_error_set(ctx->err, VKS_ERR_LIMIT, st->body.p - st->body.base + 8, path,
                             "%u vertices, limit %u over the file", nv, ctx->opt.max_vertices);
    if (ctx->total_triangles + nt > ctx->opt.max_triangles)
        return vks_error_set(ctx->err, VKS_ERR_LIMIT, st->body.p - st->body.base + 4, path,
                             "%u triangles, limit %u over the file", nt, ctx->opt.max_triangles);
    if (nmorph == 0)
        return vks_error_set(ctx->err, VKS_ERR_FORMAT, st->body.p - st->body.base + 12, path,
                             "geometry has no morph target, so no positions");
    if (st->version < 0x34000 && !vks_cur_skip(&c, 12))
        return vks__rw_truncated(ctx, &c, path, "surface properties (ambient, specular, diffuse)");
    g->vertex_count = nv;
    g->triangle_count = nt;
    uint32_t tex = (flags >> 16) & 0xFF;
    if (tex == 0)
        tex = (flags & RW_GEO_TEXTURED2) ? 2 : (flags & RW_GEO_TEXTURED) ? 1 : 0;
    g->tex_sets = tex;
    if ((flags & RW_GEO_PRELIT) && !(vks_cur_fits(&c, nv, 4) && vks_cur_skip(&c, (size_t)nv * 4)))
        return vks__rw_truncated(ctx, &c, path, "prelit colours (4 bytes per vertex)");
    for (uint32_t t = 0; t < tex; t++) {
        if (!vks_cur_fits(&c, nv, 8))
            return vks__rw_truncated(ctx, &c, path, "texture coordinates (8 bytes per vertex)");
        if (t >= VKS_MAX_UV_SETS) {
            vks_cur_skip(&c, (size_t)nv * 8);
            continue;
        }
        g->uv[t] = vks__rw_tmp(ctx, nv, sizeof *g->uv[t]);
        if (!g->uv[t])
            return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory for %u UVs", nv);
        uint64_t at = vks_cur_offset(&c);
        vks_cur_f32n(&c, &g->uv[t][0][0], (size_t)nv * 2);
        for (uint32_t v = 0; v < nv; v++) /* refused like a non-finite position: nothing downstream wants it */
            if (!isfinite(g->uv[t][v][0]) || !isfinite(g->uv[t][v][1]))
                return vks_error_set(ctx->err, VKS_ERR_FORMAT, at + 8 * (uint64_t)v + (isfinite(g->uv[t][v][0]) ? 4 : 0),
                                     path, "UV set %u vertex %u: (%g, %g) is not finite", t, v, g->uv[t][v][0],
                                     g->uv[t][v][1]);
        g->uv_sets = t + 1;
    }
    if (!vks_cur_fits(&c, nt, 8))
        return vks__rw_truncated(ctx, &c, path, "triangles (8 bytes each)");
    g->triangles = vks__rw_tmp(ctx, nt, sizeof *g->triangles);
    g->triangle_material = vks__rw_tmp(ctx, nt, sizeof *g->triangle_material);
    if (!g->triangles || !g->triangle_material)
        return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory for %u triangles", nt);
    for (uint32_t t = 0; t < nt; t++) {
        uint64_t at = vks_cur_offset(&c);
        uint16_t v1 = 0, v0 = 0, mat = 0, v2 = 0; /* disk order v1, v0, mat, v2 */
        vks_cur_u16(&c, &v1);
        vks_cur_u16(&c, &v0);
        vks_cur_u16(&c, &mat);
        vks_cur_u16(&c, &v2);
        if (v0 >= nv || v1 >= nv || v2 >= nv)
            return vks_error_set(ctx->err, VKS_ERR_FORMAT, at, path,
                                 "triangle %u: vertex (%u, %u, %u) out of range, %u vertices", t, v0, v1, v2, nv);
        g->triangles[t][0] = v0;
        g->triangles[t][1] = v1;
        g->triangles[t][2] = v2;
        g->triangle_material[t] = mat;
    }
    /* morph target 0: sphere, hasVertices, hasNormals, arrays (the positions and normals; the
       later targets follow it, rw_morph.c) */
    uint32_t has_v = 0, has_n = 0;
    if (!vks_cur_skip(&c, 16) || !vks_cur_u32(&c, &has_v) || !vks_cur_u32(&c, &has_n))
        return vks__rw_truncated(ctx, &c, path, "morph target 0 header");
    if (!has_v && nv > 0)
        return vks_error_set(ctx->err, VKS_ERR_FORMAT, vks_cur_offset(&c) - 8, path,
                             "morph target 0 has no vertex positions");
    /* the arrays must be in the chunk before they are allocated */
    if (!vks_cur_fits(&c, nv, (has_v ? 12u : 0u) + (has_n ? 12u : 0u)))
        return vks_error_set(ctx->err, VKS_ERR_TRUNCATED, vks_cur_offset(&c), path,
                             "morph target 0: %u vertices need %llu bytes of positions and normals, %zu left", nv,
                             (unsigned long long)nv * ((has_v ? 12u : 0u) + (has_n ? 12u : 0u)), vks_cur_left(&c));
    g->positions = vks__rw_tmp(ctx, nv, sizeof *g->positions);
    if (!g->positions)
        return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory for %u vertices", nv);
    if (has_v && !vks_cur_f32n(&c, &g->positions[0][0], (size_t)nv * 3))
        return vks__rw_truncated(ctx, &c, path, "morph target 0 positions (12 bytes per vertex)");
    if (has_n) {
        g->normals = vks__rw_tmp(ctx, nv, sizeof *g->normals);
        if (!g->normals)
            return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory");
        if (!vks_cur_f32n(&c, &g->normals[0][0], (size_t)nv * 3))
            return vks__rw_truncated(ctx, &c, path, "morph target 0 normals (12 bytes per vertex)");
    }
    return nmorph > 1 ? vks__rw_read_morph_targets(ctx, &c, g, nmorph, path) : VKS_OK;
}

/* A String chunk's text up to its first NUL (the chunk pads it to 4 bytes), copied into the skin. */
static const char *string_chunk(rw_ctx *ctx, const rw_chunk *ch)
{
    const char *p = (const char *)ch->body.p;
    size_t n = 0, left = vks_cur_left(&ch->body);
    while (n < left && p[n])
        n++;
    return vks_skin_strndup(ctx->skin, p, n);
}

/* Texture (0x06): Struct (filter and addressing), String name, String mask, Extension. The name
 * is what the engine looks up in its texture dictionary; the mask (alpha) is not kept. */
static vks_result read_texture(rw_ctx *ctx, const rw_chunk *tx, vks_material *m, const char *path)
{
    vks_cursor c = tx->body;
    rw_chunk ch;
    int found = vks__rw_find_child(ctx, &c, RW_STRING, &ch, path);
    if (found < 0)
        return ctx->err->code;
    if (found == 0)
        return vks_error_set(ctx->err, VKS_ERR_FORMAT, tx->offset, path, "texture without a name string");
    m->base_texture = string_chunk(ctx, &ch);
    return m->base_texture ? VKS_OK : vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory");
}

/* Material (0x07): Struct (flags, RGBA, unused, isTextured[, surface properties]) and, when
 * textured, a Texture. RW materials have no name. */
static vks_result read_material(rw_ctx *ctx, const rw_chunk *mc, vks_material *m, const char *path)
{
    vks_cursor c = mc->body;
    rw_chunk st;
    int found = vks__rw_find_child(ctx, &c, RW_STRUCT, &st, path);
    if (found < 0)
        return ctx->err->code;
    if (found == 0)
        return vks_error_set(ctx->err, VKS_ERR_FORMAT, mc->offset, path, "material without a struct");
    vks_cursor s = st.body;
    uint32_t flags;
    uint8_t rgba[4];
    int32_t unused, textured;
    if (!vks_cur_u32(&s, &flags) || !vks_cur_bytes(&s, rgba, 4) || !vks_cur_i32(&s, &unused) ||
        !vks_cur_i32(&s, &textured))
        return vks__rw_truncated(ctx, &s, path, "material struct (flags, colour, unused, textured)");
    *m = vks_material_default();
    for (int k = 0; k < 4; k++)
        m->base_color[k] = rgba[k] / 255.0f;
    if (!textured)
        return VKS_OK;
    rw_chunk tx;
    char tp[RW_PATH_MAX + 48];
    snprintf(tp, sizeof tp, "%s/texture", path);
    found = vks__rw_find_child(ctx, &c, RW_TEXTURE, &tx, tp);
    if (found < 0)
        return ctx->err->code;
    if (found == 0)
        return vks_error_set(ctx->err, VKS_ERR_FORMAT, mc->offset, tp, "textured material without a texture");
    return read_texture(ctx, &tx, m, tp);
}

static vks_result read_material_list(rw_ctx *ctx, const rw_chunk *ml, rw_geometry *g, const char *gpath)
{
    char path[RW_PATH_MAX];
    snprintf(path, sizeof path, "%s/material_list", gpath);
    vks_cursor c = ml->body;
    rw_chunk st;
    int found = vks__rw_find_child(ctx, &c, RW_STRUCT, &st, path);
    if (found < 0)
        return ctx->err->code;
    if (found == 0)
        return vks_error_set(ctx->err, VKS_ERR_FORMAT, ml->offset, path, "material list without a struct");
    vks_cursor s = st.body;
    uint32_t n;
    if (!vks_cur_u32(&s, &n))
        return vks__rw_truncated(ctx, &s, path, "material count");
    if (!vks_cur_fits(&s, n, 4))
        return vks_error_set(ctx->err, VKS_ERR_TRUNCATED, vks_cur_offset(&s) - 4, path,
                             "%u material indices, %zu bytes left", n, vks_cur_left(&s));
    if (n > 65536) /* triangles name materials in 16 bits */
        return vks_error_set(ctx->err, VKS_ERR_LIMIT, vks_cur_offset(&s) - 4, path, "%u materials, at most 65536", n);
    g->first_material = (uint32_t)ctx->materials.count;
    vks_material *mats = n ? vks__vec_push(&ctx->materials, &ctx->opt.allocator, n) : NULL;
    if (n && !mats)
        return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory for %u materials", n);
    for (uint32_t i = 0; i < n; i++) {
        int32_t idx = -1;
        vks_cur_i32(&s, &idx);
        /* -1: a Material chunk follows; otherwise reuse an earlier entry */
        if (idx != -1 && (idx < 0 || (uint32_t)idx >= i))
            return vks_error_set(ctx->err, VKS_ERR_FORMAT, vks_cur_offset(&s) - 4, path,
                                 "material %u reuses entry %d, which is not an earlier one", i, idx);
        mats = (vks_material *)ctx->materials.data + g->first_material;
        if (idx != -1) {
            mats[i] = mats[idx];
            continue;
        }
        rw_chunk mc;
        char mp[RW_PATH_MAX + 24];
        snprintf(mp, sizeof mp, "%s/material[%u]", path, i);
        found = vks__rw_find_child(ctx, &c, RW_MATERIAL, &mc, mp);
        if (found < 0)
            return ctx->err->code;
        if (found == 0)
            return vks_error_set(ctx->err, VKS_ERR_FORMAT, ml->offset, mp, "entry %u is -1, but no Material chunk follows",
                                 i);
        vks_result r = read_material(ctx, &mc, &mats[i], mp);
        if (r != VKS_OK)
            return r;
    }
    g->material_count = n;
    return VKS_OK;
}

/* Bin Mesh PLG: flags (0 list, 1 strip), meshes of u32 indices turned into triangles. */
static vks_result read_bin_mesh(rw_ctx *ctx, const rw_chunk *ch, rw_geometry *g, const char *gpath)
{
    char path[RW_PATH_MAX];
    snprintf(path, sizeof path, "%s/extension/bin_mesh", gpath);
    vks_cursor c = ch->body;
    uint32_t flags, nm, total;
    if (!vks_cur_u32(&c, &flags) || !vks_cur_u32(&c, &nm) || !vks_cur_u32(&c, &total))
        return vks__rw_truncated(ctx, &c, path, "bin mesh header (flags, meshes, total indices)");
    if (flags > 1)
        return vks_error_set(ctx->err, VKS_ERR_UNSUPPORTED, ch->body.p - ch->body.base, path,
                             "bin mesh flags %u (only 0 = list and 1 = strip exist)", flags);
    if (!vks_cur_fits(&c, nm, 8))
        return vks_error_set(ctx->err, VKS_ERR_TRUNCATED, vks_cur_offset(&c) - 8, path,
                             "%u meshes need at least %llu bytes, %zu left", nm, (unsigned long long)nm * 8,
                             vks_cur_left(&c));
    /* each mesh may become a group with a palette of up to 256 bones (Skin PLG split data):
       an 8-byte mesh header must not buy that without bound, so Bin Mesh meshes count
       against the mesh limit over the whole file */
    ctx->total_bin_meshes += nm;
    if (ctx->total_bin_meshes > ctx->opt.max_meshes)
        return vks_error_set(ctx->err, VKS_ERR_LIMIT, vks_cur_offset(&c) - 8, path,
                             "%u meshes, %llu in the file's bin meshes, limit %u", nm,
                             (unsigned long long)ctx->total_bin_meshes, ctx->opt.max_meshes);
    g->has_bin_mesh = 1;
    g->bin_flags = flags;
    g->bin_mesh_count = nm;
    g->bin_total = total;
    g->bin_meshes = vks__rw_tmp(ctx, nm, sizeof *g->bin_meshes);
    if (!g->bin_meshes)
        return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory");
    for (uint32_t m = 0; m < nm; m++) {
        rw_bin_mesh *bm = &g->bin_meshes[m];
        uint32_t ni;
        snprintf(path, sizeof path, "%s/extension/bin_mesh/mesh[%u]", gpath, m);
        if (!vks_cur_u32(&c, &ni) || !vks_cur_i32(&c, &bm->material))
            return vks__rw_truncated(ctx, &c, path, "mesh header (index count, material)");
        if (!vks_cur_fits(&c, ni, 4))
            return vks_error_set(ctx->err, VKS_ERR_TRUNCATED, vks_cur_offset(&c) - 8, path,
                                 "%u indices, %zu bytes left", ni, vks_cur_left(&c));
        if (g->material_count && (bm->material < 0 || (uint32_t)bm->material >= g->material_count))
            return vks_error_set(ctx->err, VKS_ERR_FORMAT, vks_cur_offset(&c) - 4, path,
                                 "material %d outside the %u materials", bm->material, g->material_count);
        bm->index_count = ni;
        uint32_t max_tris = flags ? (ni >= 3 ? ni - 2 : 0) : ni / 3;
        bm->triangles = vks__rw_tmp(ctx, max_tris, sizeof *bm->triangles);
        uint32_t *idx = vks__rw_tmp(ctx, ni, sizeof *idx);
        if (!bm->triangles || !idx)
            return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory for %u indices", ni);
        for (uint32_t i = 0; i < ni; i++) {
            vks_cur_u32(&c, &idx[i]);
            if (idx[i] >= g->vertex_count)
                return vks_error_set(ctx->err, VKS_ERR_FORMAT, vks_cur_offset(&c) - 4, path,
                                     "index %u is %u, %u vertices", i, idx[i], g->vertex_count);
        }
        uint32_t nt = 0;
        if (flags == 0) {
            for (uint32_t k = 0; k + 2 < ni; k += 3, nt++)
                for (int j = 0; j < 3; j++)
                    bm->triangles[nt][j] = idx[k + (uint32_t)j];
        } else {
            /* strip: odd triangles swap their first two indices; degenerate joins are skipped */
            for (uint32_t k = 0; k + 2 < ni; k++) {
                uint32_t a = idx[k], b = idx[k + 1], d = idx[k + 2];
                if (a == b || b == d || a == d)
                    continue;
                bm->triangles[nt][0] = (k & 1) ? b : a;
                bm->triangles[nt][1] = (k & 1) ? a : b;
                bm->triangles[nt][2] = d;
                nt++;
            }
        }
        bm->triangle_count = nt;
        if (ctx->total_triangles + nt > ctx->opt.max_triangles)
            return vks_error_set(ctx->err, VKS_ERR_LIMIT, VKS_NO_OFFSET, path, "%u triangles, limit %u", nt,
                                 ctx->opt.max_triangles);
    }
    return VKS_OK;
}

vks_result vks__rw_read_geometry(rw_ctx *ctx, const rw_chunk *geo, rw_geometry *g, const char *gpath)
{
    vks_cursor c = geo->body;
    rw_chunk ch;
    int have_struct = 0;
    while (vks_cur_left(&c) > 0) {
        if (vks__rw_chunk_next(ctx, &c, &ch, gpath) != VKS_OK)
            return ctx->err->code;
        vks_result r = VKS_OK;
        if (ch.type == RW_STRUCT && !have_struct) {
            r = read_struct(ctx, &ch, g, gpath);
            have_struct = 1;
        } else if (ch.type == RW_MATERIAL_LIST && have_struct) {
            r = read_material_list(ctx, &ch, g, gpath);
        } else if (ch.type == RW_EXTENSION && have_struct) {
            vks_cursor e = ch.body;
            char path[RW_PATH_MAX];
            snprintf(path, sizeof path, "%s/extension", gpath);
            while (r == VKS_OK && vks_cur_left(&e) > 0) {
                rw_chunk x;
                if (vks__rw_chunk_next(ctx, &e, &x, path) != VKS_OK)
                    return ctx->err->code;
                if (x.type == RW_BIN_MESH && !g->has_bin_mesh) {
                    r = read_bin_mesh(ctx, &x, g, gpath);
                } else if (x.type == RW_SKIN && !g->skin.present) {
                    char sp[RW_PATH_MAX];
                    snprintf(sp, sizeof sp, "%s/extension/skin", gpath);
                    r = vks__rw_read_skin(ctx, &x, g->vertex_count, &g->skin, sp);
                } else if (x.type == RW_MORPH_PLG) {
                    vks__rw_morph_plugin(ctx, &x, g, gpath);
                }
            }
            if (r != VKS_OK)
                return r;
            break; /* the Extension ends the Geometry */
        }
        if (r != VKS_OK)
            return r;
    }
    if (!have_struct)
        return vks_error_set(ctx->err, VKS_ERR_FORMAT, geo->offset, gpath, "geometry without a struct chunk");
    if (g->material_count)
        for (uint32_t t = 0; t < g->triangle_count; t++)
            if (g->triangle_material[t] >= g->material_count)
                return vks_error_set(ctx->err, VKS_ERR_FORMAT, geo->offset, gpath,
                                     "triangle %u uses material %u, %u materials", t, g->triangle_material[t],
                                     g->material_count);
    return VKS_OK;
}
