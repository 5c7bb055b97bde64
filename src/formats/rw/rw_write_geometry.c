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

/* One Geometry being written: the mesh, where its chunks go, and the triangle order the Bin
   Mesh and the split data share. */
typedef struct geo_w {
    rw_wctx *w;
    const vks_skin *s;
    const vks_mesh *me;
    vks_bytebuf *b;
    char path[64];
    uint32_t st, nv, nt, H, nmat;
    int old_layout, strips, normals;
    const uint32_t (*tri)[3];
    uint32_t *order;  /* mesh triangles sorted by (group, material) */
    bin_mesh_w *bm;   /* one Bin Mesh mesh per (group, material) in use */
    uint32_t nbm;
    uint32_t *idx;    /* one Bin Mesh mesh's indices (strips take up to 6 per triangle) */
    uint8_t *used;    /* hierarchy node -> some vertex uses it */
} geo_w;

static vks_result geo_nomem(const geo_w *g)
{
    return vks_error_set(g->w->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, g->path, "out of memory");
}

/* Materials the mesh needs: one past the highest triangle material (1 without materials). */
static uint32_t material_count(const vks_skin *s, const vks_mesh *me)
{
    uint32_t nmat = 1;
    if (s->triangle_material)
        for (uint32_t t = 0; t < me->triangle_count; t++)
            if (s->triangle_material[me->first_triangle + t] + 1u > nmat)
                nmat = s->triangle_material[me->first_triangle + t] + 1u;
    return nmat;
}

/* Bin Mesh meshes: per group, per material in use (ascending), each a range of g->order. */
static void plan_bin_meshes(geo_w *g)
{
    const vks_skin *s = g->s;
    uint32_t no = 0;
    for (uint32_t gi = 0; gi < g->me->group_count; gi++) {
        const vks_group *gr = &s->groups[g->me->first_group + gi];
        for (uint32_t m = 0; m < g->nmat; m++) {
            uint32_t first = no;
            for (uint32_t t = gr->first_triangle; t < gr->first_triangle + gr->triangle_count; t++) {
                uint32_t tm = s->triangle_material ? s->triangle_material[t] : 0;
                if (tm == m)
                    g->order[no++] = t - g->me->first_triangle;
            }
            if (no > first)
                g->bm[g->nbm++] = (bin_mesh_w){gi, m, first, no - first};
        }
    }
}

/* The bounding sphere RenderWare stores: the centre of the bounding box and the largest
   distance from it. */
static void bounding_sphere(const float (*pos)[3], uint32_t nv, float c[3], float *r)
{
    float lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    for (uint32_t v = 0; v < nv; v++)
        for (int k = 0; k < 3; k++) {
            if (v == 0 || pos[v][k] < lo[k])
                lo[k] = pos[v][k];
            if (v == 0 || pos[v][k] > hi[k])
                hi[k] = pos[v][k];
        }
    for (int k = 0; k < 3; k++)
        c[k] = 0.5f * (lo[k] + hi[k]);
    *r = 0;
    for (uint32_t v = 0; v < nv; v++) {
        float d = sqrtf((pos[v][0] - c[0]) * (pos[v][0] - c[0]) + (pos[v][1] - c[1]) * (pos[v][1] - c[1]) +
                        (pos[v][2] - c[2]) * (pos[v][2] - c[2]));
        if (d > *r)
            *r = d;
    }
}

/* The Geometry's struct: flags, counts, triangles (v1, v0, material, v2), the bounding
   sphere, positions and normals. */
static void put_geometry_struct(const geo_w *g)
{
    const vks_skin *s = g->s;
    const vks_mesh *me = g->me;
    vks_bytebuf *b = g->b;
    size_t ss = vks__rw_begin(b, RW_STRUCT, g->st);
    uint32_t uv_sets = me->uv_set_count; /* numTexSets in bits 16..23, TEXTURED(2) for old readers */
    vks_buf_u32(b, RW_GEO_POSITIONS | RW_GEO_LIGHT | (g->normals ? RW_GEO_NORMALS : 0) |
                       (g->strips ? RW_GEO_TRISTRIP : 0) | (uv_sets == 1 ? RW_GEO_TEXTURED : 0) |
                       (uv_sets >= 2 ? RW_GEO_TEXTURED2 : 0) | uv_sets << 16);
    vks_buf_u32(b, g->nt);
    vks_buf_u32(b, g->nv);
    vks_buf_u32(b, 1);
    if (g->w->version < 0x34000) {
        vks_buf_f32(b, 1.0f), vks_buf_f32(b, 1.0f), vks_buf_f32(b, 1.0f);
    }
    for (uint32_t k = 0; k < uv_sets; k++) /* RW's v runs from the top, as the model's */
        for (uint32_t v = 0; v < g->nv; v++)
            vks_buf_f32(b, s->uv[k][me->first_vertex + v][0]), vks_buf_f32(b, s->uv[k][me->first_vertex + v][1]);
    for (uint32_t t = 0; t < g->nt; t++) {
        vks_buf_u16(b, (uint16_t)g->tri[t][1]);
        vks_buf_u16(b, (uint16_t)g->tri[t][0]);
        vks_buf_u16(b, s->triangle_material ? s->triangle_material[me->first_triangle + t] : 0);
        vks_buf_u16(b, (uint16_t)g->tri[t][2]);
    }
    const float (*pos)[3] = (const float (*)[3])s->positions + me->first_vertex;
    float c[3], r;
    bounding_sphere(pos, g->nv, c, &r);
    vks_buf_f32(b, c[0]), vks_buf_f32(b, c[1]), vks_buf_f32(b, c[2]), vks_buf_f32(b, r);
    vks_buf_u32(b, 1);
    vks_buf_u32(b, g->normals ? 1 : 0);
    for (uint32_t v = 0; v < g->nv; v++)
        for (int k = 0; k < 3; k++)
            vks_buf_f32(b, pos[v][k]);
    if (g->normals)
        for (uint32_t v = 0; v < g->nv; v++)
            for (int k = 0; k < 3; k++)
                vks_buf_f32(b, s->normals[me->first_vertex + v][k]);
    vks__rw_end(b, ss);
}

/* A String chunk: the text, NUL-terminated, padded with NULs to 4 bytes. */
static void put_string(const geo_w *g, const char *text)
{
    size_t st = vks__rw_begin(g->b, RW_STRING, g->st), n = strlen(text);
    vks_buf_put(g->b, text, n);
    for (size_t k = n; k < (n + 4) / 4 * 4; k++)
        vks_buf_u8(g->b, 0);
    vks__rw_end(g->b, st);
}

/* A Texture: filtering (linear, mip-mapped) and wrap addressing, the name, an empty mask. */
static void put_texture(const geo_w *g, const char *name)
{
    size_t tx = vks__rw_begin(g->b, RW_TEXTURE, g->st), ts = vks__rw_begin(g->b, RW_STRUCT, g->st);
    vks_buf_u32(g->b, 0x1106u); /* filter 6 (linear mip linear) | wrap U << 8 | wrap V << 12 */
    vks__rw_end(g->b, ts);
    put_string(g, name);
    put_string(g, "");
    vks__rw_end(g->b, vks__rw_begin(g->b, RW_EXTENSION, g->st));
    vks__rw_end(g->b, tx);
}

/* The material list: per index in use the model's material (colour, texture name), or plain
   white untextured where the model has none. */
static void put_material_list(const geo_w *g)
{
    vks_bytebuf *b = g->b;
    size_t ml = vks__rw_begin(b, RW_MATERIAL_LIST, g->st);
    size_t mls = vks__rw_begin(b, RW_STRUCT, g->st);
    vks_buf_u32(b, g->nmat);
    for (uint32_t m = 0; m < g->nmat; m++)
        vks_buf_i32(b, -1);
    vks__rw_end(b, mls);
    for (uint32_t m = 0; m < g->nmat; m++) {
        size_t mat = vks__rw_begin(b, RW_MATERIAL, g->st);
        size_t ms = vks__rw_begin(b, RW_STRUCT, g->st);
        const vks_material *mm = m < g->me->material_count ? &g->s->materials[g->me->first_material + m] : NULL;
        vks_buf_u32(b, 0);
        for (int k = 0; k < 4; k++) {
            float c = mm ? mm->base_color[k] : 1.0f;
            vks_buf_u8(b, (uint8_t)(c <= 0 ? 0 : c >= 1 ? 255 : c * 255.0f + 0.5f));
        }
        vks_buf_u32(b, 0);
        vks_buf_u32(b, mm && mm->base_texture[0] ? 1 : 0); /* textured */
        if (g->w->version >= 0x30400)
            vks_buf_f32(b, 1.0f), vks_buf_f32(b, 1.0f), vks_buf_f32(b, 1.0f);
        vks__rw_end(b, ms);
        if (mm && mm->base_texture[0])
            put_texture(g, mm->base_texture);
        vks__rw_end(b, vks__rw_begin(b, RW_EXTENSION, g->st));
        vks__rw_end(b, mat);
    }
    vks__rw_end(b, ml);
}

/* The Bin Mesh: each (group, material) mesh's indices as a list or as one strip. */
static void put_bin_mesh(geo_w *g)
{
    vks_bytebuf *b = g->b;
    size_t bin = vks__rw_begin(b, RW_BIN_MESH, g->st);
    vks_buf_u32(b, g->strips ? 1 : 0);
    vks_buf_u32(b, g->nbm);
    size_t total_at = b->size;
    vks_buf_u32(b, 0);
    uint32_t total = 0;
    for (uint32_t i = 0; i < g->nbm; i++) {
        uint32_t n = 0;
        for (uint32_t k = 0; k < g->bm[i].count; k++) {
            const uint32_t *t = g->tri[g->order[g->bm[i].first + k]];
            if (g->strips)
                put_strip(b, g->idx, &n, t);
            else
                for (int j = 0; j < 3; j++)
                    g->idx[n++] = t[j];
        }
        vks_buf_u32(b, n);
        vks_buf_u32(b, g->bm[i].material);
        for (uint32_t k = 0; k < n; k++)
            vks_buf_u32(b, g->idx[k]);
        total += n;
    }
    vks_buf_patch_u32(b, total_at, total);
    vks__rw_end(b, bin);
}

/* Each vertex's influences as hierarchy nodes (slot indices resolved through its group's
   palette) and weights; marks the nodes used. Returns the most influences of a vertex. */
static uint32_t skin_influences(geo_w *g, uint8_t (*vi)[4], float (*vw)[4])
{
    const vks_skin *s = g->s;
    uint32_t maxw = 1;
    for (uint32_t gi = 0; gi < g->me->group_count; gi++) {
        const vks_group *gr = &s->groups[g->me->first_group + gi];
        for (uint32_t v = gr->first_vertex; v < gr->first_vertex + gr->vertex_count; v++) {
            const vks_influence *in = &s->influences[v];
            uint32_t lv = v - g->me->first_vertex, u = 0;
            for (int k = 0; k < VKS_MAX_INFLUENCES; k++) {
                if (!(in->weight[k] > 0))
                    continue;
                uint32_t h = bone_hier(g->w, s->palette[gr->first_palette + in->index[k]]);
                vi[lv][u] = (uint8_t)h;
                vw[lv][u] = in->weight[k];
                g->used[h] = 1;
                u++;
            }
            if (u > maxw)
                maxw = u;
        }
    }
    return maxw;
}

/* One inverse matrix per hierarchy node: the mesh's inverse bind for its bones; for nodes
   that are not its bones, the bind-consistent value inverse(W(H)) * W(A). */
static void put_skin_matrices(const geo_w *g)
{
    const vks_skin *s = g->s;
    const vks_mesh *me = g->me;
    const rw_wctx *w = g->w;
    int32_t afr = me->space_node >= 0 ? me->space_node : 0;
    for (uint32_t h = 0; h < g->H; h++) {
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
        if (g->old_layout)
            vks_buf_u32(g->b, 0xDEADDEADu);
        put_rw_matrix(g->b, &S);
    }
}

/* Whether the groups need split data: several groups, or one whose palette is not the
   hierarchy in order. */
static int needs_split(const geo_w *g)
{
    const vks_skin *s = g->s;
    if (g->me->group_count != 1)
        return g->me->group_count > 1;
    const vks_group *gr = &s->groups[g->me->first_group];
    int split = gr->palette_count != g->H;
    for (uint32_t i = 0; i < gr->palette_count && !split; i++)
        split = bone_hier(g->w, s->palette[gr->first_palette + i]) != i;
    return split;
}

/* RtSkinSplit's scheme: a bone shared by several groups gets the lowest slot free in all of
   them (first pass), then each group's own bones fill its free slots (second pass).
   in[g * H + h]: group g uses node h; taken[g * 256 + slot]. *limit: slots used. */
static vks_result assign_split_slots(const geo_w *g, const uint8_t *in, uint8_t *taken, uint8_t *remap,
                                     uint32_t *limit)
{
    uint32_t G = g->me->group_count, H = g->H;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t h = 0; h < H; h++) {
            uint32_t users = 0;
            for (uint32_t gi = 0; gi < G; gi++)
                users += in[(size_t)gi * H + h];
            if (users == 0 || (pass == 0) != (users > 1))
                continue;
            uint32_t slot = 0;
            for (;; slot++) {
                int free_all = 1;
                for (uint32_t gi = 0; gi < G && free_all; gi++)
                    if (in[(size_t)gi * H + h] && taken[(size_t)gi * 256 + slot])
                        free_all = 0;
                if (free_all || slot == 255)
                    break;
            }
            if (slot >= 255)
                return vks_error_set(g->w->err, VKS_ERR_LIMIT, VKS_NO_OFFSET, g->path,
                                     "split data: no free matrix slot below 255 for bone %u", h);
            remap[h] = (uint8_t)slot;
            if (slot + 1 > *limit)
                *limit = slot + 1;
            for (uint32_t gi = 0; gi < G; gi++)
                if (in[(size_t)gi * H + h])
                    taken[(size_t)gi * 256 + slot] = 1;
        }
    return VKS_OK;
}

/* Each group's bones as RLE runs of contiguous hierarchy nodes: runs[g * H * 2 + 2 * i] is
   run i's first node, the next byte its length; nruns[g] runs. */
static void split_runs(const geo_w *g, const uint8_t *in, uint8_t *runs, uint32_t *nruns)
{
    uint32_t G = g->me->group_count, H = g->H;
    for (uint32_t gi = 0; gi < G; gi++)
        for (uint32_t h = 0; h < H; h++)
            if (in[(size_t)gi * H + h] && (h == 0 || !in[(size_t)gi * H + h - 1])) {
                uint32_t n = 0;
                while (h + n < H && in[(size_t)gi * H + h + n])
                    n++;
                runs[(size_t)gi * H * 2 + nruns[gi] * 2] = (uint8_t)h;
                runs[(size_t)gi * H * 2 + nruns[gi] * 2 + 1] = (uint8_t)n;
                nruns[gi]++;
            }
}

/* The Skin PLG's split data (3.4 layout): zeros when not needed, else the bone remap to
   matrix slots and, per Bin Mesh mesh, its group's RLE runs. */
static vks_result put_split_data(const geo_w *g)
{
    vks_bytebuf *b = g->b;
    if (!needs_split(g)) {
        vks_buf_u32(b, 0), vks_buf_u32(b, 0), vks_buf_u32(b, 0);
        return VKS_OK;
    }
    const vks_skin *s = g->s;
    uint32_t G = g->me->group_count, H = g->H;
    uint8_t *in = calloc((size_t)G * H + 1, 1);
    uint8_t *taken = calloc((size_t)G * 256 + 1, 1);
    uint8_t *remap = malloc(H + 1);
    uint8_t *runs = malloc((size_t)G * H * 2 + 2);
    uint32_t *nruns = calloc(G + 1, sizeof *nruns);
    vks_result rc = VKS_OK;
    if (!in || !taken || !remap || !runs || !nruns) {
        rc = geo_nomem(g);
        goto out;
    }
    memset(remap, 0xFF, H + 1);
    for (uint32_t gi = 0; gi < G; gi++) {
        const vks_group *gr = &s->groups[g->me->first_group + gi];
        for (uint32_t i = 0; i < gr->palette_count; i++)
            in[(size_t)gi * H + bone_hier(g->w, s->palette[gr->first_palette + i])] = 1;
    }
    uint32_t limit = 0;
    rc = assign_split_slots(g, in, taken, remap, &limit);
    if (rc != VKS_OK)
        goto out;
    split_runs(g, in, runs, nruns);
    uint32_t nrle = 0;
    for (uint32_t i = 0; i < g->nbm; i++)
        nrle += nruns[g->bm[i].group];
    if (nrle > 255) {
        rc = vks_error_set(g->w->err, VKS_ERR_LIMIT, VKS_NO_OFFSET, g->path,
                           "split data needs %u RLE runs, the format holds 255", nrle);
        goto out;
    }
    vks_buf_u32(b, limit);
    vks_buf_u32(b, g->nbm);
    vks_buf_u32(b, nrle);
    vks_buf_put(b, remap, H);
    uint32_t first = 0;
    for (uint32_t i = 0; i < g->nbm; i++) {
        vks_buf_u8(b, (uint8_t)first);
        vks_buf_u8(b, (uint8_t)nruns[g->bm[i].group]);
        first += nruns[g->bm[i].group];
    }
    for (uint32_t i = 0; i < g->nbm; i++)
        vks_buf_put(b, runs + (size_t)g->bm[i].group * H * 2, (size_t)nruns[g->bm[i].group] * 2);
out:
    free(in), free(taken), free(remap), free(runs), free(nruns);
    return rc;
}

/* The Skin PLG: bones are the H hierarchy nodes. Counts, the nodes used (3.4 layout), each
   vertex's node indices and weights, the inverse matrices, then the split data. */
static vks_result put_skin(geo_w *g)
{
    vks_bytebuf *b = g->b;
    size_t sk = vks__rw_begin(b, RW_SKIN, g->st);
    uint8_t (*vi)[4] = calloc(g->nv ? g->nv : 1, 4);
    float (*vw)[4] = calloc(g->nv ? g->nv : 1, 16);
    if (!vi || !vw) {
        free(vi), free(vw);
        return geo_nomem(g);
    }
    uint32_t maxw = skin_influences(g, vi, vw);
    uint32_t nused = 0;
    for (uint32_t h = 0; h < g->H; h++)
        nused += g->used[h];
    vks_buf_u8(b, (uint8_t)g->H);
    vks_buf_u8(b, g->old_layout ? 0 : (uint8_t)nused);
    vks_buf_u8(b, g->old_layout ? 0 : (uint8_t)maxw);
    vks_buf_u8(b, 0);
    if (!g->old_layout)
        for (uint32_t h = 0; h < g->H; h++)
            if (g->used[h])
                vks_buf_u8(b, (uint8_t)h);
    vks_buf_put(b, vi, (size_t)g->nv * 4);
    for (uint32_t v = 0; v < g->nv; v++)
        for (int k = 0; k < 4; k++)
            vks_buf_f32(b, vw[v][k]);
    free(vi), free(vw);
    put_skin_matrices(g);
    vks_result rc = g->old_layout ? VKS_OK : put_split_data(g);
    if (rc == VKS_OK)
        vks__rw_end(b, sk);
    return rc;
}

vks_result vks__rw_write_geometry(rw_wctx *w, uint32_t mi)
{
    geo_w g = {0};
    g.w = w;
    g.s = w->skin;
    g.me = &g.s->meshes[mi];
    g.b = w->b;
    g.st = w->stamp;
    g.nv = g.me->vertex_count;
    g.nt = g.me->triangle_count;
    g.H = w->hier_count;
    g.old_layout = w->version < 0x34000;
    g.strips = w->opt && w->opt->triangle_strips;
    g.normals = g.s->normals && (g.me->flags & VKS_MESH_HAS_NORMALS);
    snprintf(g.path, sizeof g.path, "mesh[%u]", mi);
    if (g.nv > 65535)
        return vks_error_set(w->err, VKS_ERR_LIMIT, VKS_NO_OFFSET, g.path,
                             "%u vertices, a RenderWare geometry holds at most 65535", g.nv);
    g.tri = (const uint32_t (*)[3])g.s->triangles + g.me->first_triangle;
    g.nmat = material_count(g.s, g.me);
    g.order = malloc(sizeof *g.order * (g.nt ? g.nt : 1));
    g.bm = malloc(sizeof *g.bm * ((size_t)g.me->group_count * g.nmat + 1));
    g.idx = malloc(sizeof *g.idx * ((size_t)g.nt * 6 + 4));
    g.used = calloc(g.H ? g.H : 1, 1);
    vks_result rc = VKS_OK;
    if (!g.order || !g.bm || !g.idx || !g.used) {
        rc = geo_nomem(&g);
    } else {
        plan_bin_meshes(&g);
        size_t geo = vks__rw_begin(g.b, RW_GEOMETRY, g.st);
        put_geometry_struct(&g);
        put_material_list(&g);
        size_t ext = vks__rw_begin(g.b, RW_EXTENSION, g.st);
        put_bin_mesh(&g);
        rc = put_skin(&g);
        if (rc == VKS_OK) {
            vks__rw_end(g.b, ext);
            vks__rw_end(g.b, geo);
        }
    }
    free(g.order), free(g.bm), free(g.idx), free(g.used);
    return rc;
}
