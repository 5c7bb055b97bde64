/* RenderWare writer, one Geometry per mesh: struct (positions, normals, triangles in the
 * v1,v0,mat,v2 order), a material list sized from triangle_material, a Bin Mesh (lists, or
 * strips with degenerate joins) with one mesh per (group, material), and the Skin PLG in the
 * new layout with split data encoding the groups, or the old layout before 3.4. */
#include "rw_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct bin_mesh_w {
    uint32_t group;
    uint32_t material;
    uint32_t first, count; /* range in the sorted triangle order */
} bin_mesh_w;

static void put_rw_matrix(vks_bytebuf *b, const vks_affine *a)
{
    /* columns x, y, z, t become the RwMatrix rows right, up, at, pos; 4th column (0,0,0,1) */
    for (int r = 0; r < 4; r++) {
        for (int k = 0; k < 3; k++)
            vks_buf_f32(b, a->m[r * 3 + k]);
        vks_buf_f32(b, r == 3 ? 1.0f : 0.0f);
    }
}

/* Hierarchy node of a global bone index. */
static uint32_t bone_hier(const rw_wctx *w, uint32_t bone)
{
    return (uint32_t)w->node_of_frame[w->skin->bones[bone].node];
}

static void put_strip(vks_bytebuf *b, uint32_t *idx, uint32_t *n, const uint32_t t[3])
{
    if (*n > 0) {
        /* degenerate join: repeat the last index and the next first index, padding so the
           next triangle starts at an even position (odd ones are read with swapped winding) */
        uint32_t last = idx[*n - 1];
        idx[(*n)++] = last;
        idx[(*n)++] = t[0];
        if (*n & 1)
            idx[(*n)++] = t[0];
    }
    for (int k = 0; k < 3; k++)
        idx[(*n)++] = t[k];
    (void)b;
}

vks_result vks__rw_write_geometry(rw_wctx *w, uint32_t mi)
{
    const vks_skin *s = w->skin;
    const vks_mesh *me = &s->meshes[mi];
    vks_bytebuf *b = w->b;
    uint32_t st = w->stamp, nv = me->vertex_count, nt = me->triangle_count, H = w->hier_count;
    int old_layout = w->version < 0x34000, strips = w->opt && w->opt->triangle_strips;
    int normals = s->normals && (me->flags & VKS_MESH_HAS_NORMALS);
    char path[64];
    snprintf(path, sizeof path, "mesh[%u]", mi);
    if (nv > 65535)
        return vks_error_set(w->err, VKS_ERR_LIMIT, VKS_NO_OFFSET, path,
                             "%u vertices, a RenderWare geometry holds at most 65535", nv);
    const uint32_t (*tri)[3] = (const uint32_t (*)[3])s->triangles + me->first_triangle;
    uint32_t nmat = 1;
    if (s->triangle_material)
        for (uint32_t t = 0; t < nt; t++)
            if (s->triangle_material[me->first_triangle + t] + 1u > nmat)
                nmat = s->triangle_material[me->first_triangle + t] + 1u;

    /* Bin Mesh meshes: per group, per material in use (ascending) */
    uint32_t *order = malloc(sizeof *order * (nt ? nt : 1));
    bin_mesh_w *bm = malloc(sizeof *bm * ((size_t)me->group_count * nmat + 1));
    uint32_t *idx = malloc(sizeof *idx * ((size_t)nt * 6 + 4));
    uint8_t *used = calloc(H ? H : 1, 1);
    if (!order || !bm || !idx || !used) {
        free(order), free(bm), free(idx), free(used);
        return vks_error_set(w->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory");
    }
    uint32_t nbm = 0, no = 0;
    for (uint32_t g = 0; g < me->group_count; g++) {
        const vks_group *gr = &s->groups[me->first_group + g];
        for (uint32_t m = 0; m < nmat; m++) {
            uint32_t first = no;
            for (uint32_t t = gr->first_triangle; t < gr->first_triangle + gr->triangle_count; t++) {
                uint32_t tm = s->triangle_material ? s->triangle_material[t] : 0;
                if (tm == m)
                    order[no++] = t - me->first_triangle;
            }
            if (no > first)
                bm[nbm++] = (bin_mesh_w){g, m, first, no - first};
        }
    }

    size_t geo = vks__rw_begin(b, RW_GEOMETRY, st);
    /* struct */
    size_t ss = vks__rw_begin(b, RW_STRUCT, st);
    vks_buf_u32(b, RW_GEO_POSITIONS | RW_GEO_LIGHT | (normals ? RW_GEO_NORMALS : 0) | (strips ? RW_GEO_TRISTRIP : 0));
    vks_buf_u32(b, nt);
    vks_buf_u32(b, nv);
    vks_buf_u32(b, 1);
    if (w->version < 0x34000) {
        vks_buf_f32(b, 1.0f), vks_buf_f32(b, 1.0f), vks_buf_f32(b, 1.0f);
    }
    for (uint32_t t = 0; t < nt; t++) {
        vks_buf_u16(b, (uint16_t)tri[t][1]);
        vks_buf_u16(b, (uint16_t)tri[t][0]);
        vks_buf_u16(b, s->triangle_material ? s->triangle_material[me->first_triangle + t] : 0);
        vks_buf_u16(b, (uint16_t)tri[t][2]);
    }
    const float (*pos)[3] = (const float (*)[3])s->positions + me->first_vertex;
    float lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, c[3], r = 0;
    for (uint32_t v = 0; v < nv; v++)
        for (int k = 0; k < 3; k++) {
            if (v == 0 || pos[v][k] < lo[k])
                lo[k] = pos[v][k];
            if (v == 0 || pos[v][k] > hi[k])
                hi[k] = pos[v][k];
        }
    for (int k = 0; k < 3; k++)
        c[k] = 0.5f * (lo[k] + hi[k]);
    for (uint32_t v = 0; v < nv; v++) {
        float d = sqrtf((pos[v][0] - c[0]) * (pos[v][0] - c[0]) + (pos[v][1] - c[1]) * (pos[v][1] - c[1]) +
                        (pos[v][2] - c[2]) * (pos[v][2] - c[2]));
        if (d > r)
            r = d;
    }
    vks_buf_f32(b, c[0]), vks_buf_f32(b, c[1]), vks_buf_f32(b, c[2]), vks_buf_f32(b, r);
    vks_buf_u32(b, 1);
    vks_buf_u32(b, normals ? 1 : 0);
    for (uint32_t v = 0; v < nv; v++)
        for (int k = 0; k < 3; k++)
            vks_buf_f32(b, pos[v][k]);
    if (normals)
        for (uint32_t v = 0; v < nv; v++)
            for (int k = 0; k < 3; k++)
                vks_buf_f32(b, s->normals[me->first_vertex + v][k]);
    vks__rw_end(b, ss);

    /* material list: one plain material per index in use */
    size_t ml = vks__rw_begin(b, RW_MATERIAL_LIST, st);
    size_t mls = vks__rw_begin(b, RW_STRUCT, st);
    vks_buf_u32(b, nmat);
    for (uint32_t m = 0; m < nmat; m++)
        vks_buf_i32(b, -1);
    vks__rw_end(b, mls);
    for (uint32_t m = 0; m < nmat; m++) {
        size_t mat = vks__rw_begin(b, RW_MATERIAL, st);
        size_t ms = vks__rw_begin(b, RW_STRUCT, st);
        vks_buf_u32(b, 0);
        vks_buf_u32(b, 0xFFFFFFFFu); /* rgba white */
        vks_buf_u32(b, 0);
        vks_buf_u32(b, 0); /* not textured */
        if (w->version >= 0x30400)
            vks_buf_f32(b, 1.0f), vks_buf_f32(b, 1.0f), vks_buf_f32(b, 1.0f);
        vks__rw_end(b, ms);
        vks__rw_end(b, vks__rw_begin(b, RW_EXTENSION, st));
        vks__rw_end(b, mat);
    }
    vks__rw_end(b, ml);

    size_t ext = vks__rw_begin(b, RW_EXTENSION, st);
    /* Bin Mesh */
    size_t bin = vks__rw_begin(b, RW_BIN_MESH, st);
    vks_buf_u32(b, strips ? 1 : 0);
    vks_buf_u32(b, nbm);
    size_t total_at = b->size;
    vks_buf_u32(b, 0);
    uint32_t total = 0;
    for (uint32_t i = 0; i < nbm; i++) {
        uint32_t n = 0;
        for (uint32_t k = 0; k < bm[i].count; k++) {
            const uint32_t *t = tri[order[bm[i].first + k]];
            if (strips)
                put_strip(b, idx, &n, t);
            else
                for (int j = 0; j < 3; j++)
                    idx[n++] = t[j];
        }
        vks_buf_u32(b, n);
        vks_buf_u32(b, bm[i].material);
        for (uint32_t k = 0; k < n; k++)
            vks_buf_u32(b, idx[k]);
        total += n;
    }
    vks_buf_patch_u32(b, total_at, total);
    vks__rw_end(b, bin);

    /* Skin PLG: bones are the H hierarchy nodes; slot indices resolved through the palettes */
    size_t sk = vks__rw_begin(b, RW_SKIN, st);
    uint8_t (*vi)[4] = calloc(nv ? nv : 1, 4);
    float (*vw)[4] = calloc(nv ? nv : 1, 16);
    if (!vi || !vw) {
        free(vi), free(vw), free(order), free(bm), free(idx), free(used);
        return vks_error_set(w->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory");
    }
    uint32_t maxw = 1;
    for (uint32_t g = 0; g < me->group_count; g++) {
        const vks_group *gr = &s->groups[me->first_group + g];
        for (uint32_t v = gr->first_vertex; v < gr->first_vertex + gr->vertex_count; v++) {
            const vks_influence *in = &s->influences[v];
            uint32_t lv = v - me->first_vertex, u = 0;
            for (int k = 0; k < VKS_MAX_INFLUENCES; k++) {
                if (!(in->weight[k] > 0))
                    continue;
                uint32_t h = bone_hier(w, s->palette[gr->first_palette + in->index[k]]);
                vi[lv][u] = (uint8_t)h;
                vw[lv][u] = in->weight[k];
                used[h] = 1;
                u++;
            }
            if (u > maxw)
                maxw = u;
        }
    }
    uint32_t nused = 0;
    for (uint32_t h = 0; h < H; h++)
        nused += used[h];
    vks_buf_u8(b, (uint8_t)H);
    vks_buf_u8(b, old_layout ? 0 : (uint8_t)nused);
    vks_buf_u8(b, old_layout ? 0 : (uint8_t)maxw);
    vks_buf_u8(b, 0);
    if (!old_layout)
        for (uint32_t h = 0; h < H; h++)
            if (used[h])
                vks_buf_u8(b, (uint8_t)h);
    vks_buf_put(b, vi, (size_t)nv * 4);
    for (uint32_t v = 0; v < nv; v++)
        for (int k = 0; k < 4; k++)
            vks_buf_f32(b, vw[v][k]);
    /* inverse matrices: the mesh's inverse binds for its bones; for hierarchy nodes that are
       not its bones, the bind-consistent value inverse(W(H)) * W(A) */
    int32_t afr = me->space_node >= 0 ? me->space_node : 0;
    for (uint32_t h = 0; h < H; h++) {
        vks_affine S;
        int found = 0;
        for (uint32_t bi = 0; bi < me->bone_count && !found; bi++)
            if ((int32_t)s->bones[me->first_bone + bi].node == w->hier_frame[h]) {
                S = s->bones[me->first_bone + bi].inverse_bind;
                if (me->space_node < 0) /* the atomic sits on frame 0: S = W(0) * inverse_bind */
                    S = vks_affine_mul(&w->world[0], &S);
                found = 1;
            }
        if (!found) {
            vks_affine inv;
            vks_affine_inverse(&w->world[w->hier_frame[h]], &inv);
            S = vks_affine_mul(&inv, &w->world[afr]);
        }
        if (old_layout)
            vks_buf_u32(b, 0xDEADDEADu);
        put_rw_matrix(b, &S);
    }
    if (!old_layout) {
        int split = me->group_count > 1;
        if (me->group_count == 1) {
            const vks_group *gr = &s->groups[me->first_group];
            split = gr->palette_count != H;
            for (uint32_t i = 0; i < gr->palette_count && !split; i++)
                split = bone_hier(w, s->palette[gr->first_palette + i]) != i;
        }
        if (!split) {
            vks_buf_u32(b, 0), vks_buf_u32(b, 0), vks_buf_u32(b, 0);
        } else {
            /* RtSkinSplit's scheme: a bone shared by several groups gets the lowest slot free
               in all of them, then each group's own bones fill its free slots; a mesh's RLE
               runs cover its bones as contiguous global ranges */
            uint32_t G = me->group_count;
            uint8_t *in = calloc((size_t)G * H + 1, 1);
            uint8_t *taken = calloc((size_t)G * 256 + 1, 1);
            uint8_t *remap = malloc(H + 1);
            uint8_t *runs = malloc((size_t)G * H * 2 + 2);
            uint32_t *nruns = calloc(G + 1, sizeof *nruns);
            if (!in || !taken || !remap || !runs || !nruns) {
                free(in), free(taken), free(remap), free(runs), free(nruns);
                free(vi), free(vw), free(order), free(bm), free(idx), free(used);
                return vks_error_set(w->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory");
            }
            memset(remap, 0xFF, H + 1);
            for (uint32_t g = 0; g < G; g++) {
                const vks_group *gr = &s->groups[me->first_group + g];
                for (uint32_t i = 0; i < gr->palette_count; i++)
                    in[(size_t)g * H + bone_hier(w, s->palette[gr->first_palette + i])] = 1;
            }
            uint32_t limit = 0;
            vks_result rc = VKS_OK;
            for (int pass = 0; pass < 2 && rc == VKS_OK; pass++)
                for (uint32_t h = 0; h < H && rc == VKS_OK; h++) {
                    uint32_t users = 0;
                    for (uint32_t g = 0; g < G; g++)
                        users += in[(size_t)g * H + h];
                    if (users == 0 || (pass == 0) != (users > 1))
                        continue;
                    uint32_t slot = 0;
                    for (;; slot++) {
                        int free_all = 1;
                        for (uint32_t g = 0; g < G && free_all; g++)
                            if (in[(size_t)g * H + h] && taken[(size_t)g * 256 + slot])
                                free_all = 0;
                        if (free_all || slot == 255)
                            break;
                    }
                    if (slot >= 255) {
                        rc = vks_error_set(w->err, VKS_ERR_LIMIT, VKS_NO_OFFSET, path,
                                           "split data: no free matrix slot below 255 for bone %u", h);
                        break;
                    }
                    remap[h] = (uint8_t)slot;
                    if (slot + 1 > limit)
                        limit = slot + 1;
                    for (uint32_t g = 0; g < G; g++)
                        if (in[(size_t)g * H + h])
                            taken[(size_t)g * 256 + slot] = 1;
                }
            uint32_t nrle = 0;
            for (uint32_t g = 0; g < G; g++)
                for (uint32_t h = 0; h < H; h++)
                    if (in[(size_t)g * H + h] && (h == 0 || !in[(size_t)g * H + h - 1])) {
                        uint32_t n = 0;
                        while (h + n < H && in[(size_t)g * H + h + n])
                            n++;
                        runs[(size_t)g * H * 2 + nruns[g] * 2] = (uint8_t)h;
                        runs[(size_t)g * H * 2 + nruns[g] * 2 + 1] = (uint8_t)n;
                        nruns[g]++;
                    }
            for (uint32_t i = 0; i < nbm; i++)
                nrle += nruns[bm[i].group];
            if (rc == VKS_OK && nrle > 255)
                rc = vks_error_set(w->err, VKS_ERR_LIMIT, VKS_NO_OFFSET, path,
                                   "split data needs %u RLE runs, the format holds 255", nrle);
            if (rc != VKS_OK) {
                free(in), free(taken), free(remap), free(runs), free(nruns);
                free(vi), free(vw), free(order), free(bm), free(idx), free(used);
                return rc;
            }
            vks_buf_u32(b, limit);
            vks_buf_u32(b, nbm);
            vks_buf_u32(b, nrle);
            vks_buf_put(b, remap, H);
            uint32_t first = 0;
            for (uint32_t i = 0; i < nbm; i++) {
                vks_buf_u8(b, (uint8_t)first);
                vks_buf_u8(b, (uint8_t)nruns[bm[i].group]);
                first += nruns[bm[i].group];
            }
            for (uint32_t i = 0; i < nbm; i++)
                vks_buf_put(b, runs + (size_t)bm[i].group * H * 2, (size_t)nruns[bm[i].group] * 2);
            free(in), free(taken), free(remap), free(runs), free(nruns);
        }
    }
    vks__rw_end(b, sk);
    vks__rw_end(b, ext);
    vks__rw_end(b, geo);
    free(vi), free(vw), free(order), free(bm), free(idx), free(used);
    return VKS_OK;
}
