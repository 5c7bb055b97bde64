/* RenderWare geometry morph targets (renderware.md 5.1): after target 0, which gives the
 * mesh's positions and normals, targets 1..N-1 of the same vertex count, each a bounding
 * sphere, hasVertices, hasNormals and the arrays. They are kept as the skin model keeps morph
 * targets (skin.h, MORPH TARGETS): deltas from target 0, default weight 0 (RpMorph shows target
 * 0 until its interpolators say otherwise), named "morph1".. by their place. The animation
 * that RpMorph plays over them (the Morph PLG, 0x105) is not read: said with a warning. */
#include "core/log.h"
#include "rw_internal.h"

#include <math.h>
#include <stdio.h>

/* n vertices of target t (positions or normals, what) read into out as deltas from base (NULL:
   from zero); refused where not finite, at its offset. */
static vks_result read_deltas(rw_ctx *ctx, vks_cursor *c, uint32_t n, const float (*base)[3], float (**out)[3],
                              uint32_t t, const char *what, const char *path)
{
    float(*d)[3] = vks__rw_tmp(ctx, n ? n : 1, sizeof *d);
    if (!d)
        return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory for morph target %u", t);
    uint64_t at = vks_cur_offset(c);
    vks_cur_f32n(c, &d[0][0], (size_t)n * 3); /* the caller checked the bytes */
    for (uint32_t v = 0; v < n; v++)
        for (int k = 0; k < 3; k++) {
            if (!isfinite(d[v][k]))
                return vks_error_set(ctx->err, VKS_ERR_FORMAT, at + 12 * (uint64_t)v + 4 * (uint64_t)k, path,
                                     "morph target %u %s of vertex %u: %g is not finite", t, what, v, d[v][k]);
            d[v][k] -= base ? base[v][k] : 0.0f;
        }
    *out = d;
    return VKS_OK;
}

vks_result vks__rw_read_morph_targets(rw_ctx *ctx, vks_cursor *c, rw_geometry *g, uint32_t count, const char *path)
{
    uint32_t nv = g->vertex_count;
    /* each target is at least its 24-byte header: the count must fit before it buys arrays */
    if (!vks_cur_fits(c, count - 1, 24))
        return vks_error_set(ctx->err, VKS_ERR_TRUNCATED, vks_cur_offset(c), path,
                             "%u morph targets after target 0 need at least %llu bytes, %zu left", count - 1,
                             (unsigned long long)(count - 1) * 24, vks_cur_left(c));
    /* every target becomes nv deltas in the model, whatever it stores: bounded like vertices */
    ctx->target_vertices += (uint64_t)(count - 1) * nv;
    if (ctx->target_vertices > ctx->opt.max_vertices)
        return vks_error_set(ctx->err, VKS_ERR_LIMIT, vks_cur_offset(c), path,
                             "%u morph targets of %u vertices: %llu target vertices over the file, limit %u", count - 1,
                             nv, (unsigned long long)ctx->target_vertices, ctx->opt.max_vertices);
    g->morph_pos = vks__rw_tmp(ctx, count, sizeof *g->morph_pos);
    g->morph_nrm = vks__rw_tmp(ctx, count, sizeof *g->morph_nrm);
    if (!g->morph_pos || !g->morph_nrm)
        return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory for %u morph targets", count);
    for (uint32_t t = 1; t < count; t++) {
        char what[96];
        uint32_t has_v = 0, has_n = 0;
        snprintf(what, sizeof what, "morph target %u header (sphere, hasVertices, hasNormals)", t);
        if (!vks_cur_skip(c, 16) || !vks_cur_u32(c, &has_v) || !vks_cur_u32(c, &has_n))
            return vks__rw_truncated(ctx, c, path, what);
        uint64_t need = (uint64_t)nv * ((has_v ? 12u : 0u) + (has_n ? 12u : 0u));
        if (vks_cur_left(c) < need)
            return vks_error_set(ctx->err, VKS_ERR_TRUNCATED, vks_cur_offset(c), path,
                                 "morph target %u: %u vertices need %llu bytes of positions and normals, %zu left", t,
                                 nv, (unsigned long long)need, vks_cur_left(c));
        vks_result r = VKS_OK;
        if (has_v)
            r = read_deltas(ctx, c, nv, (const float (*)[3])g->positions, &g->morph_pos[t], t, "position", path);
        if (r == VKS_OK && has_n && g->normals)
            r = read_deltas(ctx, c, nv, (const float (*)[3])g->normals, &g->morph_nrm[t], t, "normal", path);
        else if (r == VKS_OK && has_n) /* target 0 has no normals: the mesh has none to move */
            vks_cur_skip(c, (size_t)nv * 12);
        if (r != VKS_OK)
            return r;
    }
    g->morph_count = count;
    return VKS_OK;
}

void vks__rw_morph_plugin(rw_ctx *ctx, const rw_chunk *x, const rw_geometry *g, const char *gpath)
{
    ctx->morph_plugins++;
    char targets[96] = "the geometry has no morph target besides target 0";
    if (g->morph_count > 1)
        snprintf(targets, sizeof targets, "targets 1..%u are read, at weight 0 unless a pose sets them",
                 g->morph_count - 1);
    vks__log(&ctx->opt.logger, VKS_LOG_WARNING,
             "warning: %s/extension: Morph PLG (0x105, RpMorph interpolators) at offset %llu, %u bytes, not read: the "
             "animation of the geometry's morph targets is not played (%s)",
             gpath, (unsigned long long)x->offset, x->size, targets);
}
