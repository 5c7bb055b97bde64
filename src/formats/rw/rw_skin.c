/* RenderWare Skin PLG (0x116): old (<= 3.3) and new (>= 3.4) non-native layouts chosen by
 * chunk size, then librw's rule; inverse matrices with the junk 4th column dropped; split
 * data (bone limit, remap, per-mesh RLE runs). Also the legacy atomic-level skin.
 * All arrays after usedBones are unaligned: everything goes through the cursor.
 * renderware.md 6. */
#include "rw_internal.h"

#include <math.h>
#include <stdio.h>

/* 4x4 RwMatrix rows right/up/at/pos (each with a junk 4th float) -> column-major affine. */
static void read_rw_matrix(vks_cursor *c, vks_affine *out)
{
    float m[16];
    vks_cur_f32n(c, m, 16);
    for (int r = 0; r < 4; r++)
        for (int k = 0; k < 3; k++)
            out->m[r * 3 + k] = m[r * 4 + k];
}

static vks_result read_vertex_data(rw_ctx *ctx, vks_cursor *c, uint32_t nv, uint32_t nb, rw_skin_plg *s,
                                   const char *path)
{
    if (!vks_cur_fits(c, nv, 20))
        return vks_error_set(ctx->err, VKS_ERR_TRUNCATED, vks_cur_offset(c), path,
                             "%u vertices need %llu bytes of indices and weights, %zu left", nv,
                             (unsigned long long)nv * 20, vks_cur_left(c));
    s->bone = vks__rw_tmp(ctx, nv, sizeof *s->bone);
    s->weight = vks__rw_tmp(ctx, nv, sizeof *s->weight);
    if (!s->bone || !s->weight)
        return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory for %u vertices", nv);
    uint64_t idx_at = vks_cur_offset(c);
    for (uint32_t v = 0; v < nv; v++)
        for (int k = 0; k < 4; k++) {
            uint8_t b = 0;
            vks_cur_u8(c, &b);
            s->bone[v][k] = b;
        }
    uint64_t weight_at = vks_cur_offset(c);
    for (uint32_t v = 0; v < nv; v++)
        vks_cur_f32n(c, s->weight[v], 4);
    uint32_t maxw = 0;
    for (uint32_t v = 0; v < nv; v++)
        for (uint32_t k = 0; k < 4; k++) {
            if (!isfinite(s->weight[v][k])) /* refused like a non-finite position, not dropped */
                return vks_error_set(ctx->err, VKS_ERR_FORMAT, weight_at + ((uint64_t)v * 4 + k) * 4, path,
                                     "vertex %u slot %u: weight %g is not finite", v, k, s->weight[v][k]);
            if (!(s->weight[v][k] > 0))
                continue; /* zero-weight slots may carry any index */
            if (s->bone[v][k] >= nb)
                return vks_error_set(ctx->err, VKS_ERR_FORMAT, idx_at + (uint64_t)v * 4 + k, path,
                                     "vertex %u slot %u: bone index %u with weight %g, %u bones", v, k,
                                     s->bone[v][k], s->weight[v][k], nb);
            if (k + 1 > maxw)
                maxw = k + 1;
        }
    if (s->max_weights == 0)
        s->max_weights = maxw ? maxw : 1;
    return VKS_OK;
}

vks_result vks__rw_read_skin(rw_ctx *ctx, const rw_chunk *ch, uint32_t nv, rw_skin_plg *s, const char *path)
{
    vks_cursor c = ch->body;
    uint8_t h[4];
    if (!vks_cur_bytes(&c, h, 4))
        return vks__rw_truncated(ctx, &c, path, "skin header (bones, used bones, max weights, pad)");
    uint32_t nb = h[0], nused = h[1];
    if (nb == 0)
        return vks_error_set(ctx->err, VKS_ERR_FORMAT, ch->body.p - ch->body.base, path, "skin with 0 bones");

    /* Layout: the one whose computed size equals the chunk size; else librw's rule. */
    uint64_t size = ch->size;
    uint64_t size_old = 4 + 20ull * nv + 68ull * nb;
    uint64_t base_new = 4 + nused + 20ull * nv + 64ull * nb + 12;
    uint64_t size_new = UINT64_MAX;
    if (base_new <= size) {
        const uint8_t *split = ch->body.p + base_new - 12;
        uint32_t nm = vks_le32(split + 4), nr = vks_le32(split + 8);
        size_new = base_new + (nm ? nb + 2ull * nm + 2ull * nr : 0);
    }
    int old_ok = size == size_old, new_ok = size == size_new;
    s->old_layout = old_ok != new_ok ? old_ok : nused == 0;
    s->present = 1;
    s->chunk_size = ch->size;
    s->bone_count = nb;
    s->used_count = s->old_layout ? 0 : nused;
    s->max_weights = s->old_layout ? 0 : h[2];

    if (!s->old_layout) {
        s->used = vks__rw_tmp(ctx, nused, 1);
        if (!s->used)
            return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory");
        if (!vks_cur_bytes(&c, s->used, nused))
            return vks__rw_truncated(ctx, &c, path, "used bones");
    }
    vks_result r = read_vertex_data(ctx, &c, nv, nb, s, path);
    if (r != VKS_OK)
        return r;
    s->inverse = vks__rw_tmp(ctx, nb, sizeof *s->inverse);
    if (!s->inverse)
        return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory");
    if (!vks_cur_fits(&c, nb, s->old_layout ? 68 : 64))
        return vks__rw_truncated(ctx, &c, path, "inverse bone matrices");
    for (uint32_t b = 0; b < nb; b++) {
        if (s->old_layout) {
            /* 0xDEADDEAD in every file seen. When the chunk size already proves the old
               layout the word is not needed; when only librw's rule chose it, a wrong marker
               means neither layout fits */
            uint64_t at = vks_cur_offset(&c);
            uint32_t marker = 0;
            vks_cur_u32(&c, &marker);
            if (marker != 0xDEADDEADu && !old_ok)
                return vks_error_set(ctx->err, VKS_ERR_FORMAT, at, path,
                                     "skin chunk of %u bytes fits neither layout (old %llu, new %llu) and bone %u's "
                                     "marker is 0x%08x, not 0xDEADDEAD",
                                     ch->size, (unsigned long long)size_old,
                                     size_new == UINT64_MAX ? 0ull : (unsigned long long)size_new, b, marker);
        }
        read_rw_matrix(&c, &s->inverse[b]);
    }
    if (s->old_layout)
        return VKS_OK;

    if (!vks_cur_u32(&c, &s->bone_limit) || !vks_cur_u32(&c, &s->split_meshes) || !vks_cur_u32(&c, &s->split_rle))
        return vks__rw_truncated(ctx, &c, path, "split data header (bone limit, meshes, RLE count)");
    if (s->split_meshes == 0)
        return VKS_OK;
    if (!vks_cur_fits(&c, nb, 1) || !vks_cur_fits(&c, s->split_meshes, 2) ||
        (uint64_t)nb + 2ull * s->split_meshes + 2ull * s->split_rle > vks_cur_left(&c))
        return vks_error_set(ctx->err, VKS_ERR_TRUNCATED, vks_cur_offset(&c) - 8, path,
                             "split data of %u meshes and %u runs needs %llu bytes, %zu left", s->split_meshes,
                             s->split_rle, (unsigned long long)nb + 2ull * s->split_meshes + 2ull * s->split_rle,
                             vks_cur_left(&c));
    s->remap = vks__rw_tmp(ctx, nb, 1);
    s->rle_count = vks__rw_tmp(ctx, s->split_meshes, 2);
    s->rle = vks__rw_tmp(ctx, s->split_rle, 2);
    if (!s->remap || !s->rle_count || !s->rle)
        return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory");
    vks_cur_bytes(&c, s->remap, nb);
    vks_cur_bytes(&c, s->rle_count, 2ull * s->split_meshes);
    vks_cur_bytes(&c, s->rle, 2ull * s->split_rle);
    return VKS_OK;
}

vks_result vks__rw_read_skin_legacy(rw_ctx *ctx, const rw_chunk *ch, uint32_t nv, rw_skin_plg *s, const char *path)
{
    vks_cursor c = ch->body;
    int32_t nb, nvf;
    if (!vks_cur_i32(&c, &nb) || !vks_cur_i32(&c, &nvf))
        return vks__rw_truncated(ctx, &c, path, "legacy skin header (bones, vertices)");
    if (nb <= 0 || nb > 256)
        return vks_error_set(ctx->err, VKS_ERR_FORMAT, ch->body.p - ch->body.base, path,
                             "legacy skin bone count %d outside 1..256", nb);
    if ((uint32_t)nvf != nv)
        return vks_error_set(ctx->err, VKS_ERR_FORMAT, ch->body.p - ch->body.base + 4, path,
                             "legacy skin has %d vertices, the geometry %u", nvf, nv);
    s->present = 1;
    s->legacy = 1;
    s->old_layout = 1;
    s->chunk_size = ch->size;
    s->bone_count = (uint32_t)nb;
    vks_result r = read_vertex_data(ctx, &c, nv, (uint32_t)nb, s, path);
    if (r != VKS_OK)
        return r;
    if (!vks_cur_fits(&c, (uint64_t)nb, 76))
        return vks__rw_truncated(ctx, &c, path, "legacy skin bones (ID, index, flags, matrix)");
    s->inverse = vks__rw_tmp(ctx, (uint64_t)nb, sizeof *s->inverse);
    s->legacy_id = vks__rw_tmp(ctx, (uint64_t)nb, sizeof(int32_t));
    s->legacy_flags = vks__rw_tmp(ctx, (uint64_t)nb, sizeof(int32_t));
    if (!s->inverse || !s->legacy_id || !s->legacy_flags)
        return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory");
    for (int32_t b = 0; b < nb; b++) {
        int32_t index = 0;
        vks_cur_i32(&c, &s->legacy_id[b]);
        vks_cur_i32(&c, &index);
        vks_cur_i32(&c, &s->legacy_flags[b]);
        s->legacy_flags[b] &= 3;
        read_rw_matrix(&c, &s->inverse[b]);
    }
    return VKS_OK;
}
