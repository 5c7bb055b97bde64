/* RenderWare Frame List (56-byte records), its per-frame extensions (HAnim PLG, Rockstar
 * node names) and the HAnim hierarchy: nodes attached to frames by ID, node parents rebuilt
 * from PUSH/POP and checked against the frame tree. renderware.md 4 and 7. */
#include "rw_internal.h"

#include <math.h>
#include <stdio.h>

static vks_result read_hanim(rw_ctx *ctx, const rw_chunk *ch, rw_frames *f, uint32_t frame, const char *path)
{
    vks_cursor c = ch->body;
    int32_t version, id, num_nodes;
    if (!vks_cur_i32(&c, &version) || !vks_cur_i32(&c, &id) || !vks_cur_i32(&c, &num_nodes))
        return vks__rw_truncated(ctx, &c, path, "HAnim PLG header (version, node ID, node count)");
    if (version != 0x100)
        return vks_error_set(ctx->err, VKS_ERR_FORMAT, ch->body.p - ch->body.base, path,
                             "HAnim PLG version 0x%x, expected 0x100", (unsigned)version);
    f->hanim_id[frame] = id;
    f->has_hanim[frame] = 1;
    if (num_nodes < 0)
        return vks_error_set(ctx->err, VKS_ERR_FORMAT, ch->body.p - ch->body.base + 8, path,
                             "HAnim node count %d is negative", num_nodes);
    if (num_nodes == 0 || f->hier_frame >= 0)
        return VKS_OK; /* an ordinary bone frame, or a second hierarchy (only the first is used) */
    uint32_t flags, key_size;
    if (!vks_cur_u32(&c, &flags) || !vks_cur_u32(&c, &key_size))
        return vks__rw_truncated(ctx, &c, path, "HAnim hierarchy flags and key frame size");
    if ((uint32_t)num_nodes > ctx->opt.max_nodes)
        return vks_error_set(ctx->err, VKS_ERR_LIMIT, ch->body.p - ch->body.base + 8, path,
                             "%d HAnim nodes, limit %u", num_nodes, ctx->opt.max_nodes);
    if (!vks_cur_fits(&c, (uint64_t)num_nodes, 12))
        return vks_error_set(ctx->err, VKS_ERR_TRUNCATED, ch->body.p - ch->body.base + 8, path,
                             "%d HAnim nodes need %llu bytes, %zu left", num_nodes,
                             (unsigned long long)num_nodes * 12, vks_cur_left(&c));
    f->node_count = (uint32_t)num_nodes;
    f->hier_frame = (int32_t)frame;
    f->hier_flags = flags;
    f->key_frame_size = key_size;
    f->node_id = vks__rw_tmp(ctx, f->node_count, sizeof(int32_t));
    f->node_index = vks__rw_tmp(ctx, f->node_count, sizeof(int32_t));
    f->node_flags = vks__rw_tmp(ctx, f->node_count, sizeof(int32_t));
    f->node_frame = vks__rw_tmp(ctx, f->node_count, sizeof(int32_t));
    f->node_parent = vks__rw_tmp(ctx, f->node_count, sizeof(int32_t));
    if (!f->node_id || !f->node_index || !f->node_flags || !f->node_frame || !f->node_parent)
        return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory for %d nodes", num_nodes);
    for (uint32_t i = 0; i < f->node_count; i++) {
        vks_cur_i32(&c, &f->node_id[i]);
        vks_cur_i32(&c, &f->node_index[i]); /* ignored like librw: the position is authoritative */
        vks_cur_i32(&c, &f->node_flags[i]);
    }
    return VKS_OK;
}

static vks_result read_frame_extension(rw_ctx *ctx, const rw_chunk *ext, rw_frames *f, uint32_t frame)
{
    char path[RW_PATH_MAX];
    vks_cursor c = ext->body;
    while (vks_cur_left(&c) > 0) {
        rw_chunk ch;
        snprintf(path, sizeof path, "clump/frame_list/frame[%u]/extension", frame);
        if (vks__rw_chunk_next(ctx, &c, &ch, path) != VKS_OK)
            return ctx->err->code;
        if (ch.type == RW_HANIM) {
            snprintf(path, sizeof path, "clump/frame_list/frame[%u]/extension/hanim", frame);
            vks_result r = read_hanim(ctx, &ch, f, frame, path);
            if (r != VKS_OK)
                return r;
        } else if (ch.type == RW_NODE_NAME) {
            /* raw ASCII, no NUL, size = length; stop at an embedded NUL */
            size_t n = 0;
            while (n < ch.size && ch.body.p[n] != 0)
                n++;
            f->name[frame] = vks_skin_strndup(ctx->skin, (const char *)ch.body.p, n);
            if (!f->name[frame])
                return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory for a name");
        }
    }
    return VKS_OK;
}

vks_result vks__rw_read_frame_list(rw_ctx *ctx, const rw_chunk *list, rw_frames *f)
{
    const char *path = "clump/frame_list/struct";
    vks_cursor c = list->body;
    rw_chunk st;
    int found = vks__rw_find_child(ctx, &c, RW_STRUCT, &st, "clump/frame_list");
    if (found < 0)
        return ctx->err->code;
    if (found == 0)
        return vks_error_set(ctx->err, VKS_ERR_FORMAT, list->offset, "clump/frame_list",
                             "frame list without a struct chunk");
    vks_cursor s = st.body;
    uint32_t n;
    if (!vks_cur_u32(&s, &n))
        return vks__rw_truncated(ctx, &s, path, "frame count");
    if (n > ctx->opt.max_nodes)
        return vks_error_set(ctx->err, VKS_ERR_LIMIT, vks_cur_offset(&s) - 4, path, "%u frames, limit %u", n,
                             ctx->opt.max_nodes);
    if (!vks_cur_fits(&s, n, 56))
        return vks_error_set(ctx->err, VKS_ERR_TRUNCATED, vks_cur_offset(&s) - 4, path,
                             "%u frames need %llu bytes, struct has %zu left", n, (unsigned long long)n * 56,
                             vks_cur_left(&s));
    f->count = n;
    f->hier_frame = -1;
    f->local = vks__rw_tmp(ctx, n, sizeof *f->local);
    f->parent = vks__rw_tmp(ctx, n, sizeof *f->parent);
    f->name = vks__rw_tmp(ctx, n, sizeof *f->name);
    f->hanim_id = vks__rw_tmp(ctx, n, sizeof *f->hanim_id);
    f->has_hanim = vks__rw_tmp(ctx, n, 1);
    if (!f->local || !f->parent || !f->name || !f->hanim_id || !f->has_hanim)
        return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory for %u frames", n);
    for (uint32_t i = 0; i < n; i++) {
        float r[12] = {0}; /* the record fits: checked for all n above */
        uint32_t flags;
        uint64_t at = vks_cur_offset(&s);
        vks_cur_f32n(&s, r, 12);
        vks_cur_i32(&s, &f->parent[i]);
        vks_cur_u32(&s, &flags); /* matrix flags: ignored on read, as librw does */
        /* RW rows right/up/at/pos are the columns of the column-vector affine */
        for (int k = 0; k < 12; k++) {
            if (!isfinite(r[k])) {
                char p[RW_PATH_MAX];
                snprintf(p, sizeof p, "clump/frame_list/frame[%u]/matrix", i);
                return vks_error_set(ctx->err, VKS_ERR_FORMAT, at + 4 * (uint64_t)k, p,
                                     "matrix element %d is not a finite number", k);
            }
            f->local[i].m[k] = r[k];
        }
        if (f->parent[i] < -1 || f->parent[i] >= (int32_t)i) {
            char p[RW_PATH_MAX];
            snprintf(p, sizeof p, "clump/frame_list/frame[%u]/parent", i);
            return vks_error_set(ctx->err, VKS_ERR_FORMAT, at + 48, p,
                                 "parent %d must be -1 or an earlier frame (< %u)", f->parent[i], i);
        }
        f->name[i] = "";
        f->hanim_id[i] = -1;
    }
    /* exactly one Extension per frame, in frame order */
    for (uint32_t i = 0; i < n; i++) {
        rw_chunk ext;
        char p[RW_PATH_MAX];
        snprintf(p, sizeof p, "clump/frame_list/frame[%u]/extension", i);
        found = vks__rw_find_child(ctx, &c, RW_EXTENSION, &ext, p);
        if (found < 0)
            return ctx->err->code;
        if (found == 0)
            return vks_error_set(ctx->err, VKS_ERR_FORMAT, list->offset, p,
                                 "frame list has %u frames but only %u extension chunks", n, i);
        vks_result r = read_frame_extension(ctx, &ext, f, i);
        if (r != VKS_OK)
            return r;
    }
    return VKS_OK;
}

vks_result vks__rw_attach_hierarchy(rw_ctx *ctx, rw_frames *f, uint64_t offset)
{
    const char *path = "clump/frame_list/hierarchy";
    uint32_t n = f->node_count;
    /* frames under the hierarchy-owning frame (parents come first, so one pass) */
    uint8_t *inside = vks__rw_tmp(ctx, f->count, 1);
    uint8_t *taken = vks__rw_tmp(ctx, f->count, 1);
    int32_t *stack = vks__rw_tmp(ctx, n + 1, sizeof(int32_t));
    if (!inside || !taken || !stack)
        return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory");
    for (uint32_t i = 0; i < f->count; i++)
        inside[i] = (int32_t)i == f->hier_frame || (f->parent[i] >= 0 && inside[f->parent[i]]);

    /* node -> frame: the first unattached frame of the subtree with that HAnim ID
       (librw HAnimHierarchy::attach / findUnattachedById) */
    for (uint32_t i = 0; i < n; i++) {
        int32_t fr = -1;
        for (uint32_t j = 0; j < f->count && fr < 0; j++)
            if (inside[j] && !taken[j] && f->has_hanim[j] && f->hanim_id[j] == f->node_id[i])
                fr = (int32_t)j;
        if (fr < 0)
            return vks_error_set(ctx->err, VKS_ERR_FORMAT, offset, path,
                                 "HAnim node %u (ID %d) matches no frame under frame %d", i, f->node_id[i],
                                 f->hier_frame);
        taken[fr] = 1;
        f->node_frame[i] = fr;
    }

    /* parents from PUSH/POP (librw HAnimHierarchy::updateMatrices) */
    int32_t cur = -1;
    uint32_t sp = 0;
    stack[sp++] = -1;
    for (uint32_t i = 0; i < n; i++) {
        f->node_parent[i] = cur;
        if (f->node_flags[i] & RW_HANIM_PUSH) {
            if (sp > n)
                return vks_error_set(ctx->err, VKS_ERR_FORMAT, offset, path, "HAnim PUSH stack overflow at node %u", i);
            stack[sp++] = cur;
        }
        cur = (int32_t)i;
        if (f->node_flags[i] & RW_HANIM_POP)
            cur = sp > 0 ? stack[--sp] : -1;
    }
    /* cross-check: a node's parent node must sit on a frame above the node's frame; node 0
       is the hierarchy-owning frame itself */
    if (n > 0 && f->node_frame[0] != f->hier_frame)
        return vks_error_set(ctx->err, VKS_ERR_FORMAT, offset, path,
                             "HAnim node 0 is on frame %d, expected the hierarchy frame %d", f->node_frame[0],
                             f->hier_frame);
    for (uint32_t i = 1; i < n; i++) {
        int32_t want = f->node_parent[i] >= 0 ? f->node_frame[f->node_parent[i]] : -1;
        int32_t a = f->parent[f->node_frame[i]];
        while (a >= 0 && a != want)
            a = f->parent[a];
        if (want < 0 || a != want)
            return vks_error_set(ctx->err, VKS_ERR_FORMAT, offset, path,
                                 "HAnim node %u (frame %d): PUSH/POP parent node %d (frame %d) is not above it in "
                                 "the frame tree",
                                 i, f->node_frame[i], f->node_parent[i], want);
    }
    return VKS_OK;
}
