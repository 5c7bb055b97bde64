/* RenderWare DFF writer: a vks_skin as one Clump that vks_rw_read and librw read. Frames are
 * the nodes (each with a node-name chunk); the HAnim hierarchy covers every node any mesh
 * uses as a bone, rooted at their lowest common ancestor (the first bone node's frame in a
 * usual skeleton), in depth-first pre-order with PUSH/POP flags from the tree. Each mesh is
 * one Geometry + Atomic on its space_node (frame 0 when -1). Versions 3.4-3.7 write the new
 * Skin layout; 3.0.4-3.3 the old one (no split data, so groups are not kept there). */
#include "rw_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t vks__rw_encode_stamp(uint32_t version)
{
    /* new form: VVJJJJNNNNBBBBBB (version - 0x30000 without the build) then build 0xFFFF */
    return (((version - 0x30000u) & 0x3FF00u) << 14) | ((version & 0x3Fu) << 16) | 0xFFFFu;
}

static int is_ancestor(const vks_skin *s, int32_t a, int32_t n)
{
    while (n >= 0 && n != a)
        n = s->nodes[n].parent;
    return n == a;
}

/* The lowest common ancestor of the marked (bone) nodes: the HAnim hierarchy's one root; -1
 * (w->err set) when there is none. */
static int32_t common_root(rw_wctx *w, const uint8_t *mark)
{
    const vks_skin *s = w->skin;
    uint32_t n = s->node_count;
    int32_t root = -1;
    for (uint32_t i = 0; i < n && root < 0; i++)
        if (mark[i])
            root = (int32_t)i;
    if (root < 0) {
        vks_error_set(w->err, VKS_ERR_INVALID, VKS_NO_OFFSET, "rw", "the model has no bones");
        return -1;
    }
    for (;;) { /* climb until every bone node lies under root */
        int all = 1;
        for (uint32_t i = 0; i < n && all; i++)
            if (mark[i] && !is_ancestor(s, root, (int32_t)i))
                all = 0;
        if (all)
            break;
        root = s->nodes[root].parent;
        if (root < 0) {
            vks_error_set(w->err, VKS_ERR_INVALID, VKS_NO_OFFSET, "rw",
                          "the bones lie under different root nodes; an HAnim hierarchy needs one root");
            return -1;
        }
    }
    return root;
}

/* Hierarchy over the bone nodes: root, pre-order and PUSH/POP flags. */
static vks_result build_hierarchy(rw_wctx *w)
{
    const vks_skin *s = w->skin;
    uint32_t n = s->node_count;
    uint8_t *mark = calloc(n ? n : 1, 1);
    int32_t *first_child = malloc(sizeof(int32_t) * (n ? n : 1));
    int32_t *next_sib = malloc(sizeof(int32_t) * (n ? n : 1));
    int32_t *hparent = malloc(sizeof(int32_t) * (n ? n : 1));
    int32_t *stack = malloc(sizeof(int32_t) * (n + 1));
    vks_result rc = VKS_OK;
    if (!mark || !first_child || !next_sib || !hparent || !stack) {
        rc = vks_error_set(w->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "rw", "out of memory");
        goto done;
    }
    for (uint32_t m = 0; m < s->mesh_count; m++) {
        const vks_mesh *me = &s->meshes[m];
        for (uint32_t i = 0; i < me->bone_count; i++) {
            uint32_t node = s->bones[me->first_bone + i].node;
            for (uint32_t j = 0; j < i; j++)
                if (s->bones[me->first_bone + j].node == node) {
                    rc = vks_error_set(w->err, VKS_ERR_INVALID, VKS_NO_OFFSET, "rw",
                                       "mesh %u: bones %u and %u share node %u; a RenderWare skin needs one frame "
                                       "per bone (HAnim node)",
                                       m, j, i, node);
                    goto done;
                }
            mark[node] = 1;
        }
    }
    int32_t root = common_root(w, mark);
    if (root < 0) {
        rc = w->err->code;
        goto done;
    }
    mark[root] = 1;
    uint32_t count = 0;
    for (uint32_t i = 0; i < n; i++) {
        first_child[i] = next_sib[i] = hparent[i] = -1;
        count += mark[i];
    }
    if (count > 255) {
        rc = vks_error_set(w->err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "rw",
                           "%u HAnim nodes (bones plus their common root); a RenderWare skin holds 255", count);
        goto done;
    }
    /* tree over marked nodes: parent = nearest marked ancestor; children in node order */
    for (uint32_t i = n; i-- > 0;) {
        if (!mark[i] || (int32_t)i == root)
            continue;
        int32_t p = s->nodes[i].parent;
        while (p >= 0 && !mark[p])
            p = s->nodes[p].parent;
        hparent[i] = p;
        next_sib[i] = first_child[p];
        first_child[p] = (int32_t)i;
    }
    w->hier_count = count;
    w->hier_frame = malloc(sizeof(int32_t) * count);
    w->hier_flags = malloc(sizeof(int32_t) * count);
    w->node_of_frame = malloc(sizeof(int32_t) * (n ? n : 1));
    if (!w->hier_frame || !w->hier_flags || !w->node_of_frame) {
        rc = vks_error_set(w->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "rw", "out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < n; i++)
        w->node_of_frame[i] = -1;
    uint32_t sp = 0, k = 0;
    stack[sp++] = root;
    while (sp > 0) {
        int32_t f = stack[--sp];
        w->node_of_frame[f] = (int32_t)k;
        w->hier_frame[k] = f;
        /* POP: a leaf; PUSH: later siblings follow (renderware.md 7.3) */
        w->hier_flags[k] = (first_child[f] < 0 ? RW_HANIM_POP : 0) | (f != root && next_sib[f] >= 0 ? RW_HANIM_PUSH : 0);
        k++;
        /* push children in reverse so the first child is visited first */
        int32_t tmp[256];
        uint32_t nc = 0;
        for (int32_t c = first_child[f]; c >= 0; c = next_sib[c])
            tmp[nc++] = c;
        while (nc > 0)
            stack[sp++] = tmp[--nc];
    }
done:
    free(mark), free(first_child), free(next_sib), free(hparent), free(stack);
    return rc;
}

static void write_frame_list(rw_wctx *w)
{
    const vks_skin *s = w->skin;
    vks_bytebuf *b = w->b;
    uint32_t st = w->stamp;
    size_t fl = vks__rw_begin(b, RW_FRAME_LIST, st);
    size_t fs = vks__rw_begin(b, RW_STRUCT, st);
    vks_buf_u32(b, s->node_count);
    for (uint32_t i = 0; i < s->node_count; i++) {
        for (int k = 0; k < 12; k++)
            vks_buf_f32(b, s->nodes[i].bind_local.m[k]);
        vks_buf_i32(b, s->nodes[i].parent);
        vks_buf_u32(b, 0);
    }
    vks__rw_end(b, fs);
    for (uint32_t i = 0; i < s->node_count; i++) {
        size_t ext = vks__rw_begin(b, RW_EXTENSION, st);
        int32_t node = w->node_of_frame[i];
        if (node >= 0) {
            size_t h = vks__rw_begin(b, RW_HANIM, st);
            vks_buf_u32(b, 0x100);
            vks_buf_i32(b, (int32_t)i); /* node ID: the frame index (distinct by construction) */
            if (node == 0) {
                vks_buf_u32(b, w->hier_count);
                vks_buf_u32(b, 0);  /* hierarchy flags */
                vks_buf_u32(b, 36); /* key frame size */
                for (uint32_t k = 0; k < w->hier_count; k++) {
                    vks_buf_i32(b, w->hier_frame[k]);
                    vks_buf_u32(b, k);
                    vks_buf_i32(b, w->hier_flags[k]);
                }
            } else {
                vks_buf_u32(b, 0);
            }
            vks__rw_end(b, h);
        }
        const char *name = s->nodes[i].name ? s->nodes[i].name : "";
        if (*name) {
            size_t nn = vks__rw_begin(b, RW_NODE_NAME, st);
            vks_buf_put(b, name, strlen(name));
            vks__rw_end(b, nn);
        }
        vks__rw_end(b, ext);
    }
    vks__rw_end(b, fl);
}

/* Mesh m's atomic: its frame, geometry m, and the skin pipeline as San Andreas writes it. */
static void write_atomic(vks_bytebuf *b, const vks_skin *skin, uint32_t m, uint32_t st)
{
    size_t at = vks__rw_begin(b, RW_ATOMIC, st);
    size_t as = vks__rw_begin(b, RW_STRUCT, st);
    vks_buf_i32(b, skin->meshes[m].space_node >= 0 ? skin->meshes[m].space_node : 0);
    vks_buf_u32(b, m);
    vks_buf_u32(b, 5); /* collision test | render */
    vks_buf_u32(b, 0);
    vks__rw_end(b, as);
    size_t ext = vks__rw_begin(b, RW_EXTENSION, st);
    size_t rr = vks__rw_begin(b, RW_RIGHT_TO_RENDER, st); /* skin pipeline, as SA writes it */
    vks_buf_u32(b, RW_SKIN);
    vks_buf_u32(b, 1);
    vks__rw_end(b, rr);
    vks__rw_end(b, ext);
    vks__rw_end(b, at);
}

vks_result vks_rw_write(const vks_skin *skin, const vks_write_options *opt, uint8_t **out_bytes, size_t *out_size,
                        vks_error *err)
{
    vks_error local;
    memset(&local, 0, sizeof local);
    if (!err)
        err = &local;
    if (!skin || !out_bytes || !out_size)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "rw", "skin, out_bytes and out_size are required");
    uint32_t over = vks_skin_vertices_over(skin, 4);
    if (over)
        return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "rw",
                             "%u vertices have more than 4 influences; a Skin PLG stores 4 a vertex (glTF keeps up "
                             "to 8: vkskin convert)", over);
    uint32_t version = opt && opt->version ? opt->version : 0x36003;
    if (version < 0x30400 || version > 0x37FFF)
        return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "rw",
                             "version 0x%x: the writer supports RW 3.0.4 to 3.7 (0x30400..0x37fff)", version);
    if (skin->mesh_count == 0)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "rw", "the model has no mesh");
    vks_result rc = vks_skin_validate(skin, err);
    if (rc != VKS_OK)
        return rc;
    for (uint32_t m = 0; m < skin->mesh_count; m++) {
        const vks_affine *p = &skin->meshes[m].space_pre;
        vks_affine id = vks_affine_identity();
        for (int k = 0; k < 12; k++)
            if (fabsf(p->m[k] - id.m[k]) > 1e-6f)
                return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "rw",
                                     "mesh %u has a space_pre transform; RenderWare skins are in their atomic "
                                     "frame's space only",
                                     m);
    }

    vks_bytebuf b;
    memset(&b, 0, sizeof b);
    rw_wctx w;
    memset(&w, 0, sizeof w);
    w.skin = skin;
    w.opt = opt;
    w.b = &b;
    w.err = err;
    w.version = version;
    w.stamp = vks__rw_encode_stamp(version);
    w.world = malloc(sizeof *w.world * (skin->node_count ? skin->node_count : 1));
    if (!w.world) {
        rc = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "rw", "out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < skin->node_count; i++) {
        int32_t p = skin->nodes[i].parent;
        w.world[i] = p >= 0 ? vks_affine_mul(&w.world[p], &skin->nodes[i].bind_local) : skin->nodes[i].bind_local;
    }
    rc = build_hierarchy(&w);
    if (rc != VKS_OK)
        goto done;

    uint32_t st = w.stamp;
    size_t clump = vks__rw_begin(&b, RW_CLUMP, st);
    size_t cs = vks__rw_begin(&b, RW_STRUCT, st);
    vks_buf_u32(&b, skin->mesh_count);
    if (version > 0x33000)
        vks_buf_u32(&b, 0), vks_buf_u32(&b, 0); /* lights, cameras */
    vks__rw_end(&b, cs);
    write_frame_list(&w);
    size_t gl = vks__rw_begin(&b, RW_GEOMETRY_LIST, st);
    size_t gs = vks__rw_begin(&b, RW_STRUCT, st);
    vks_buf_u32(&b, skin->mesh_count);
    vks__rw_end(&b, gs);
    for (uint32_t m = 0; m < skin->mesh_count && rc == VKS_OK; m++)
        rc = vks__rw_write_geometry(&w, m);
    if (rc != VKS_OK)
        goto done;
    vks__rw_end(&b, gl);
    for (uint32_t m = 0; m < skin->mesh_count; m++)
        write_atomic(&b, skin, m, st);
    vks__rw_end(&b, vks__rw_begin(&b, RW_EXTENSION, st));
    vks__rw_end(&b, clump);
    if (b.failed)
        rc = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "rw", "out of memory writing %zu bytes", b.size);
done:
    free(w.world), free(w.hier_frame), free(w.hier_flags), free(w.node_of_frame);
    if (rc != VKS_OK) {
        vks_buf_free(&b);
        return rc;
    }
    *out_bytes = b.data;
    *out_size = b.size;
    return VKS_OK;
}
