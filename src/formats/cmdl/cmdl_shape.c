/* The .cmdl reader's shape step (notes §4, §5, §7): each SeparateDataShapeCtr becomes one
 * builder mesh; each PrimitiveSetCtr with triangles becomes one of its groups, with the
 * set's BoneIndexTable as the group's palette.
 *
 * Mesh bones are (node, inverse bind) pairs made on demand: smooth sets bind to
 * (node, inverse(World_bind)); rigid sets (and None sets inside a SkeletalModel, which the
 * binary decoders treat as rigid to BoneIndexTable[0]) store bone-local vertices, so they get
 * (node, identity) and the group is flagged VKS_GROUP_RIGID. None sets without a table, and
 * every set of a plain Model, follow the static model-space node.
 *
 * BoneIndex values are palette-relative, so one shape vertex can mean different bones in
 * different sets. Influences go into one mesh-level table while sets agree; a set that
 * disagrees with an earlier set on any of its vertices gets its own per-vertex table, and the
 * builder then duplicates the vertices of each group. Weights are stored x Scale (percent x
 * 0.01 in the writers' convention), divided by their sum; normals are renormalised. */
#include "cmdl_internal.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* Per-vertex tables of sets that disagree: at most this many entries in all (bounds the
 * memory a hostile file with many small sets over a large shape can ask for). */
#define CMDL_MAX_OWN_ENTRIES (1u << 23)

typedef struct shape_streams {
    const cmdl_stream *pos, *nrm, *bidx, *bwt;
    const cmdl_stream *uv[3]; /* TextureCoordinate0..2 */
} shape_streams;

static float value(const cmdl_stream *s, uint32_t v, int k)
{
    return s->constant ? s->values[k] : s->values[(size_t)v * (size_t)s->components + (size_t)k];
}

typedef struct set_plan {
    uint16_t *palette; /* mesh bones, the table's order */
    uint32_t palette_count;
    uint32_t flags;
    int static_set; /* follows the static node (slot 0 always) */
} set_plan;

typedef struct mesh_bones {
    int32_t *smooth_of, *rigid_of; /* node -> mesh bone, -1 none */
    vks_vec bones;                /* vks_bone */
} mesh_bones;

static int32_t mesh_bone(cmdl_ctx *c, mesh_bones *mb, uint32_t node, int rigid, const vks_affine *inverse_bind)
{
    int32_t *slot = rigid ? &mb->rigid_of[node] : &mb->smooth_of[node];
    if (*slot >= 0)
        return *slot;
    if (mb->bones.count >= 65535)
        return -2;
    vks_bone *b = vks__cmdl_push(c, &mb->bones, 1);
    if (!b)
        return -1;
    b->node = node;
    b->inverse_bind = rigid ? vks_affine_identity() : inverse_bind[node];
    *slot = (int32_t)(mb->bones.count - 1);
    return *slot;
}

/* Influences of shape vertex v drawn by set (mesh bone indices), renormalised; *stored_sum
 * (may be NULL) gets the sum they had before. 0 and an error on a bad BoneIndex. */
static int influence(cmdl_ctx *c, const shape_streams *ss, const cmdl_set *set, const set_plan *pl, uint32_t v,
                     uint16_t bone[4], float w[4], float *stored_sum)
{
    memset(bone, 0, 4 * sizeof *bone);
    memset(w, 0, 4 * sizeof *w);
    float unused, *sum_out = stored_sum ? stored_sum : &unused; /* the stored weights' sum */
    *sum_out = 1.0f; /* static and rigid sets: one bone, weight 1 */
    if (pl->static_set) {
        bone[0] = pl->palette[0];
        w[0] = 1.0f;
        return 1;
    }
    if (set->skinning != CMDL_SKIN_SMOOTH) {
        float slot = set->skinning == CMDL_SKIN_RIGID && ss->bidx ? value(ss->bidx, v, 0) : 0.0f;
        if (slot != floorf(slot) || slot < 0 || slot >= (float)set->table_count)
            return vks__cmdl_fail_at(c, VKS_ERR_FORMAT, &set->at,
                                     "vertex %u: BoneIndex %.9g is beyond the BoneIndexTable of %u entries", v,
                                     (double)slot, set->table_count),
                   0;
        bone[0] = pl->palette[(uint32_t)slot];
        w[0] = 1.0f;
        return 1;
    }
    int n = ss->bidx ? ss->bidx->components : (int)set->table_count; /* no stream: the table (<= 4) */
    float sum = 0;
    int u = 0;
    for (int k = 0; k < n; k++) {
        float slot = ss->bidx ? value(ss->bidx, v, k) : (float)k;
        float wt = ss->bwt ? (k < ss->bwt->components ? value(ss->bwt, v, k) : 0.0f) : 1.0f;
        if (!(wt > 0))
            continue; /* an unused slot: its index does not matter */
        if (slot != floorf(slot) || slot < 0 || slot >= (float)set->table_count)
            return vks__cmdl_fail_at(c, VKS_ERR_FORMAT, &set->at,
                                     "vertex %u: BoneIndex %.9g (slot %d) is beyond the BoneIndexTable of %u entries",
                                     v, (double)slot, k, set->table_count),
                   0;
        bone[u] = pl->palette[(uint32_t)slot];
        w[u] = wt;
        sum += wt;
        u++;
    }
    *sum_out = sum;
    if (sum > 0)
        for (int k = 0; k < u; k++)
            w[k] /= sum;
    return 1;
}

static int same_influence(const uint16_t a[4], const float aw[4], const uint16_t b[4], const float bw[4])
{
    for (int k = 0; k < 4; k++)
        if (aw[k] != bw[k] || (aw[k] > 0 && a[k] != b[k]))
            return 0;
    return 1;
}

/* Finds the streams skinning needs and checks they agree on the vertex count. */
static vks_result find_streams(cmdl_ctx *c, const cmdl_shape *sh, shape_streams *ss, uint32_t *vertex_count)
{
    const cmdl_stream *st = sh->streams.data;
    memset(ss, 0, sizeof *ss);
    for (size_t i = 0; i < sh->streams.count; i++) {
        const cmdl_stream **slot = st[i].usage == CMDL_USAGE_POSITION      ? &ss->pos
                                   : st[i].usage == CMDL_USAGE_NORMAL      ? &ss->nrm
                                   : st[i].usage == CMDL_USAGE_BONE_INDEX  ? &ss->bidx
                                   : st[i].usage == CMDL_USAGE_BONE_WEIGHT ? &ss->bwt
                                   : st[i].usage >= CMDL_USAGE_TEXCOORD0 && st[i].usage <= CMDL_USAGE_TEXCOORD2
                                       ? &ss->uv[st[i].usage - CMDL_USAGE_TEXCOORD0]
                                       : NULL;
        if (!slot)
            continue;
        if (*slot)
            return vks__cmdl_fail_at(c, VKS_ERR_FORMAT, &st[i].at, "a second %s stream in one shape",
                                     st[i].usage == CMDL_USAGE_POSITION ? "Position"
                                     : st[i].usage == CMDL_USAGE_NORMAL ? "Normal"
                                     : st[i].usage == CMDL_USAGE_BONE_INDEX ? "BoneIndex"
                                     : st[i].usage == CMDL_USAGE_BONE_WEIGHT ? "BoneWeight" : "TextureCoordinate");
        *slot = &st[i];
    }
    if (!ss->pos)
        return vks__cmdl_fail_at(c, VKS_ERR_FORMAT, &sh->at, "shape has no Position vertex stream");
    if (ss->pos->constant || ss->pos->components < 2)
        return vks__cmdl_fail_at(c, VKS_ERR_FORMAT, &ss->pos->at,
                                 "Position must be a Vector2..4 vertex stream, one vector per vertex");
    if (ss->nrm && ss->nrm->components < 3)
        return vks__cmdl_fail_at(c, VKS_ERR_FORMAT, &ss->nrm->at, "Normal must have 3 or 4 components");
    for (int k = 0; k < 3; k++)
        if (ss->uv[k] && ss->uv[k]->components < 2)
            return vks__cmdl_fail_at(c, VKS_ERR_FORMAT, &ss->uv[k]->at, "TextureCoordinate%d must have 2 or more components",
                                     k);
    *vertex_count = ss->pos->vertex_size;
    for (size_t i = 0; i < sh->streams.count; i++)
        if (!st[i].constant && st[i].vertex_size != *vertex_count)
            return vks__cmdl_fail_at(c, VKS_ERR_FORMAT, &st[i].at,
                                     "VertexSize %u differs from the Position stream's %u", st[i].vertex_size,
                                     *vertex_count);
    return VKS_OK;
}

/* Fills the set's palette with mesh bones; decides rigid / smooth / static. */
static vks_result plan_set(cmdl_ctx *c, const cmdl_set *set, mesh_bones *mb, const uint32_t *bone_node,
                           int32_t static_node, const vks_affine *inverse_bind, const uint8_t *singular,
                           const shape_streams *ss, set_plan *pl)
{
    uint32_t nb = (uint32_t)c->doc.bones.count;
    memset(pl, 0, sizeof *pl);
    int skeletal = c->doc.skeletal == 1;
    if (!skeletal || (set->skinning == CMDL_SKIN_NONE && set->table_count == 0)) {
        pl->static_set = 1;
        pl->palette = vks__cmdl_alloc(c, 1, sizeof *pl->palette);
        int32_t b = static_node >= 0 ? mesh_bone(c, mb, (uint32_t)static_node, 1, inverse_bind) : -1;
        if (!pl->palette || b < 0)
            return vks__cmdl_fail_at(c, VKS_ERR_NOMEM, &set->at, "out of memory");
        pl->palette[0] = (uint16_t)b;
        pl->palette_count = 1;
        return VKS_OK;
    }
    if (set->table_count == 0)
        return vks__cmdl_fail_at(c, VKS_ERR_FORMAT, &set->at, "%s set has an empty BoneIndexTable",
                                 set->skinning == CMDL_SKIN_SMOOTH ? "SmoothSkinning" : "RigidSkinning");
    if (set->skinning == CMDL_SKIN_SMOOTH && !ss->bidx && set->table_count > 4)
        return vks__cmdl_fail_at(c, VKS_ERR_FORMAT, &set->at,
                                 "SmoothSkinning set without a BoneIndex stream has %u table entries (at most 4)",
                                 set->table_count);
    if (set->skinning == CMDL_SKIN_SMOOTH && !ss->bwt && (ss->bidx ? ss->bidx->components : (int)set->table_count) > 1)
        return vks__cmdl_fail_at(c, VKS_ERR_FORMAT, &set->at,
                                 "SmoothSkinning set with several bones per vertex but no BoneWeight stream");
    int rigid = set->skinning != CMDL_SKIN_SMOOTH;
    pl->flags = rigid ? VKS_GROUP_RIGID : 0;
    pl->palette = vks__cmdl_alloc(c, set->table_count, sizeof *pl->palette);
    if (!pl->palette)
        return vks__cmdl_fail_at(c, VKS_ERR_NOMEM, &set->at, "out of memory");
    pl->palette_count = set->table_count;
    for (uint32_t i = 0; i < set->table_count; i++) {
        if (set->table[i] >= nb)
            return vks__cmdl_fail_at(c, VKS_ERR_FORMAT, &set->at, "BoneIndexTable[%u] = %u, but the skeleton has %u bones",
                                     i, set->table[i], nb);
        uint32_t node = bone_node[set->table[i]];
        if (!rigid && singular[node])
            return vks__cmdl_fail_at(c, VKS_ERR_FORMAT, &set->at,
                                     "smooth set binds to bone \"%.60s\", whose bind world matrix is singular",
                                     c->doc.bones.count ? ((const cmdl_bone *)c->doc.bones.data)[set->table[i]].name : "");
        int32_t b = mesh_bone(c, mb, node, rigid, inverse_bind);
        if (b == -2)
            return vks__cmdl_fail_at(c, VKS_ERR_LIMIT, &set->at, "shape uses more than 65535 bone bindings");
        if (b < 0)
            return vks__cmdl_fail_at(c, VKS_ERR_NOMEM, &set->at, "out of memory");
        pl->palette[i] = (uint16_t)b;
    }
    return VKS_OK;
}

/* Material names sorted (then by index), so a mesh's MaterialReference is found by a
 * binary search, not a scan of every material per mesh (meshes x materials). */
typedef struct mat_entry {
    const char *name;
    int32_t index;
} mat_entry;

static int cmp_mat(const void *pa, const void *pb)
{
    const mat_entry *a = pa, *b = pb;
    int r = strcmp(a->name, b->name);
    return r ? r : (a->index > b->index) - (a->index < b->index);
}

/* The first material (below 65535) named name, or -1. */
static int32_t find_material(const mat_entry *sorted, size_t n, const char *name)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(sorted[mid].name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && strcmp(sorted[lo].name, name) == 0 ? sorted[lo].index : -1;
}

static int32_t material_of(cmdl_ctx *c, const mat_entry *sorted, size_t nsorted, uint32_t shape)
{
    const cmdl_meshref *m = c->doc.meshes.data;
    for (size_t i = 0; i < c->doc.meshes.count; i++) {
        if (m[i].shape != (int64_t)shape || !m[i].material)
            continue;
        int32_t k = find_material(sorted, nsorted, m[i].material);
        if (k >= 0)
            return k;
    }
    return -1;
}

typedef struct shape_work {
    float (*positions)[3];
    float (*normals)[3];
    float (*uv[3])[2]; /* TextureCoordinate0..2 as the skin keeps them */
    uint16_t (*bone)[4];
    float (*weight)[4];
    float *stored_sum; /* per vertex, the mesh table's weights before renormalisation */
    uint8_t *assigned;
    set_plan *plans;
    vks_group_source *groups;
    void **own; /* per set: own bone / weight tables (2 per set) */
    uint32_t *unreferenced;
    mesh_bones mb;
} shape_work;

static void work_free(cmdl_ctx *c, shape_work *w, size_t nsets)
{
    for (int k = 0; k < 3; k++)
        vks__cmdl_free(c, w->uv[k]);
    vks__cmdl_free(c, w->positions);
    vks__cmdl_free(c, w->normals);
    vks__cmdl_free(c, w->bone);
    vks__cmdl_free(c, w->weight);
    vks__cmdl_free(c, w->stored_sum);
    vks__cmdl_free(c, w->assigned);
    if (w->plans)
        for (size_t i = 0; i < nsets; i++)
            vks__cmdl_free(c, w->plans[i].palette);
    if (w->own)
        for (size_t i = 0; i < 2 * nsets; i++)
            vks__cmdl_free(c, w->own[i]);
    vks__cmdl_free(c, w->plans);
    vks__cmdl_free(c, w->groups);
    vks__cmdl_free(c, w->own);
    vks__cmdl_free(c, w->unreferenced);
    vks__cmdl_free(c, w->mb.smooth_of);
    vks__cmdl_free(c, w->mb.rigid_of);
    vks__cmdl_vec_free(c, &w->mb.bones);
}

/* The shape's per-vertex tables and per-set lists, zeroed. Returns 0 when out of memory. */
static int work_alloc(cmdl_ctx *c, shape_work *w, const shape_streams *ss, uint32_t V, size_t nsets, uint32_t node_count)
{
    w->mb.bones.elem = sizeof(vks_bone);
    w->positions = vks__cmdl_alloc(c, V, sizeof *w->positions);
    w->normals = ss->nrm ? vks__cmdl_alloc(c, V, sizeof *w->normals) : NULL;
    w->bone = vks__cmdl_alloc(c, V, sizeof *w->bone);
    w->weight = vks__cmdl_alloc(c, V, sizeof *w->weight);
    w->stored_sum = vks__cmdl_alloc(c, V, sizeof *w->stored_sum);
    w->assigned = vks__cmdl_alloc(c, V, 1);
    w->plans = vks__cmdl_alloc(c, nsets, sizeof *w->plans);
    w->groups = vks__cmdl_alloc(c, nsets, sizeof *w->groups);
    w->own = vks__cmdl_alloc(c, 2 * nsets, sizeof *w->own);
    w->mb.smooth_of = vks__cmdl_alloc(c, node_count, sizeof(int32_t));
    w->mb.rigid_of = vks__cmdl_alloc(c, node_count, sizeof(int32_t));
    if (!w->positions || (ss->nrm && !w->normals) || !w->bone || !w->weight || !w->stored_sum || !w->assigned ||
        !w->plans || !w->groups || !w->own || !w->mb.smooth_of || !w->mb.rigid_of)
        return 0;
    for (uint32_t n = 0; n < node_count; n++)
        w->mb.smooth_of[n] = w->mb.rigid_of[n] = -1;
    return 1;
}

/* Decoded vertices: stored x Scale (done while parsing) + PositionOffset for positions,
   normals made unit, texture coordinates flipped to the skin model's v. */
static vks_result decode_vertices(cmdl_ctx *c, const cmdl_shape *sh, const shape_streams *ss, shape_work *w, uint32_t V)
{
    for (uint32_t v = 0; v < V; v++) {
        for (int k = 0; k < 3; k++)
            w->positions[v][k] = (k < ss->pos->components ? value(ss->pos, v, k) : 0.0f) + sh->offset[k];
        if (w->normals) {
            double n[3], len = 0;
            for (int k = 0; k < 3; k++)
                n[k] = value(ss->nrm, v, k), len += n[k] * n[k];
            len = sqrt(len);
            for (int k = 0; k < 3; k++)
                w->normals[v][k] = len > 0 ? (float)(n[k] / len) : 0.0f;
        }
        for (int k = 0; k < 3; k++)
            if (!isfinite(w->positions[v][k]))
                return vks__cmdl_fail_at(c, VKS_ERR_FORMAT, &ss->pos->at, "vertex %u: position overflows a float", v);
    }
    /* texture coordinates: stored x Scale; NW4C (the PICA200, OpenGL's convention) counts v from
       the bottom of the image, the skin model from the top */
    for (int k = 0; k < 3; k++) {
        if (!ss->uv[k])
            continue;
        if (!(w->uv[k] = vks__cmdl_alloc(c, V, sizeof *w->uv[k])))
            return vks__cmdl_fail_at(c, VKS_ERR_NOMEM, &sh->at, "out of memory for %u vertices", V);
        for (uint32_t v = 0; v < V; v++)
            w->uv[k][v][0] = value(ss->uv[k], v, 0), w->uv[k][v][1] = 1.0f - value(ss->uv[k], v, 1);
    }
    return VKS_OK;
}

/* Primitive set s of the shape: its palette planned, its vertices claimed in the mesh table,
   and one group (*ngroups counts them) with a table of its own when its influences disagree
   with another set's on a shared vertex. An empty set adds no group. */
static vks_result one_set(cmdl_ctx *c, const cmdl_set *set, size_t s, shape_work *w, const shape_streams *ss,
                          uint32_t V, const uint32_t *bone_node, int32_t static_node, const vks_affine *inverse_bind,
                          const uint8_t *singular, uint64_t *own_entries, int32_t material, uint32_t *ngroups)
{
    set_plan *pl = &w->plans[s];
    vks_result rc;
    if ((rc = plan_set(c, set, &w->mb, bone_node, static_node, inverse_bind, singular, ss, pl)) != VKS_OK)
        return rc;
    const uint32_t(*tris)[3] = set->tris.data;
    size_t nt = set->tris.count;
    if (nt == 0)
        return VKS_OK;
    for (size_t t = 0; t < nt; t++)
        for (int k = 0; k < 3; k++)
            if (tris[t][k] >= V)
                return vks__cmdl_fail_at(c, VKS_ERR_FORMAT, &set->at, "index %u is beyond the shape's %u vertices",
                                         tris[t][k], V);
    /* Pass 1: claim unassigned vertices in the mesh table, look for disagreement. */
    int conflict = 0;
    uint16_t bo[4];
    float wt[4], st;
    for (size_t t = 0; t < nt; t++)
        for (int k = 0; k < 3; k++) {
            uint32_t v = tris[t][k];
            if (!influence(c, ss, set, pl, v, bo, wt, &st))
                return c->err && c->err->code ? c->err->code : VKS_ERR_FORMAT;
            if (!w->assigned[v]) {
                memcpy(w->bone[v], bo, sizeof bo);
                memcpy(w->weight[v], wt, sizeof wt);
                w->stored_sum[v] = st;
                w->assigned[v] = 1;
            } else if (!same_influence(w->bone[v], w->weight[v], bo, wt)) {
                conflict = 1;
            }
        }
    vks_group_source *g = &w->groups[(*ngroups)++];
    g->triangles = tris;
    g->triangle_count = (uint32_t)nt;
    g->palette = pl->palette;
    g->palette_count = pl->palette_count;
    g->flags = pl->flags;
    if (conflict) {
        /* Pass 2: this set's own table, its vertices only (the rest stay unused). */
        *own_entries += V;
        if (*own_entries > CMDL_MAX_OWN_ENTRIES)
            return vks__cmdl_fail_at(c, VKS_ERR_LIMIT, &set->at,
                                     "too many primitive sets with conflicting palettes over %u vertices", V);
        uint16_t(*ob)[4] = vks__cmdl_alloc(c, V, sizeof *ob);
        float(*ow)[4] = vks__cmdl_alloc(c, V, sizeof *ow);
        w->own[2 * s] = ob;
        w->own[2 * s + 1] = ow;
        if (!ob || !ow)
            return vks__cmdl_fail_at(c, VKS_ERR_NOMEM, &set->at, "out of memory");
        for (size_t t = 0; t < nt; t++)
            for (int k = 0; k < 3; k++)
                influence(c, ss, set, pl, tris[t][k], ob[tris[t][k]], ow[tris[t][k]], NULL);
        g->bone = (const uint16_t(*)[4])ob;
        g->weight = (const float(*)[4])ow;
    }
    if (material >= 0) {
        uint16_t *mat = vks__cmdl_alloc(c, nt, sizeof *mat);
        if (!mat)
            return vks__cmdl_fail_at(c, VKS_ERR_NOMEM, &set->at, "out of memory");
        for (size_t t = 0; t < nt; t++)
            mat[t] = (uint16_t)material;
        g->triangle_material = mat; /* freed after the mesh is added */
    }
    return VKS_OK;
}

/* Vertices no set draws go with the first group (the builder gives them slot 0). */
static vks_result gather_unreferenced(cmdl_ctx *c, const cmdl_shape *sh, shape_work *w, uint32_t V)
{
    uint32_t nun = 0;
    for (uint32_t v = 0; v < V; v++)
        nun += !w->assigned[v];
    if (!nun)
        return VKS_OK;
    w->unreferenced = vks__cmdl_alloc(c, nun, sizeof *w->unreferenced);
    if (!w->unreferenced)
        return vks__cmdl_fail_at(c, VKS_ERR_NOMEM, &sh->at, "out of memory");
    nun = 0;
    for (uint32_t v = 0; v < V; v++)
        if (!w->assigned[v])
            w->unreferenced[nun++] = v;
    w->groups[0].vertices = w->unreferenced;
    w->groups[0].vertex_count = nun;
    return VKS_OK;
}

static vks_result one_shape(cmdl_ctx *c, vks_skin *skin, vks_skin_builder *b, uint32_t si, const uint32_t *bone_node,
                            int32_t static_node, const vks_affine *inverse_bind, const uint8_t *singular,
                            uint64_t *own_entries, const mat_entry *mats, size_t nmats)
{
    const cmdl_shape *sh = (const cmdl_shape *)c->doc.shapes.data + si;
    const cmdl_set *sets = sh->sets.data;
    size_t nsets = sh->sets.count;
    shape_streams ss;
    uint32_t V = 0, ngroups = 0;
    vks_result rc = find_streams(c, sh, &ss, &V);
    if (rc != VKS_OK)
        return rc;
    c->doc.vertex_total += V;
    if (c->doc.vertex_total > c->opt.max_vertices)
        return vks__cmdl_fail_at(c, VKS_ERR_LIMIT, &sh->at, "more than %u vertices in all shapes (limit)",
                                 c->opt.max_vertices);

    shape_work w = {0};
    if (!work_alloc(c, &w, &ss, V, nsets, skin->node_count)) {
        rc = vks__cmdl_fail_at(c, VKS_ERR_NOMEM, &sh->at, "out of memory for %u vertices", V);
        goto done;
    }
    if ((rc = decode_vertices(c, sh, &ss, &w, V)) != VKS_OK)
        goto done;

    int32_t material = material_of(c, mats, nmats, si);
    for (size_t s = 0; s < nsets; s++)
        if ((rc = one_set(c, &sets[s], s, &w, &ss, V, bone_node, static_node, inverse_bind, singular, own_entries,
                          material, &ngroups)) != VKS_OK)
            goto done;
    if (ngroups == 0)
        goto done; /* nothing drawn: the shape adds no mesh */
    if ((rc = gather_unreferenced(c, sh, &w, V)) != VKS_OK)
        goto done;

    char name[32];
    snprintf(name, sizeof name, "Shapes[%u]", si);
    vks_mesh_source m = {0};
    m.name = name;
    m.vertex_count = V;
    m.positions = (const float(*)[3])w.positions;
    m.normals = (const float(*)[3])w.normals;
    m.bone = (const uint16_t(*)[4])w.bone;
    m.weight = (const float(*)[4])w.weight;
    m.stored_weight_sum = w.stored_sum; /* weights above are renormalised (NW4C's rule) */
    m.bone_count = (uint32_t)w.mb.bones.count;
    m.bones = w.mb.bones.data;
    m.space_node = -1; /* NW4C skin space is model space (DESIGN.md §4) */
    m.flags = VKS_MESH_RENORMALIZE;
    m.groups = w.groups;
    m.group_count = ngroups;
    for (int k = 0; k < 3 && ss.uv[k]; k++) /* sets numbered without gaps, as the skin keeps them */
        m.uv[k] = (const float(*)[2])w.uv[k], m.uv_set_count = (uint32_t)k + 1;
    if (material >= 0) /* triangle_material holds the document's material index */
        m.first_material = 0, m.material_count = (uint32_t)skin->material_count;
    rc = vks_builder_add_mesh(b, &m, c->err);
done:
    for (uint32_t g = 0; w.groups && g < ngroups; g++)
        vks__cmdl_free(c, (void *)w.groups[g].triangle_material);
    work_free(c, &w, nsets);
    return rc;
}

vks_result vks__cmdl_shapes(cmdl_ctx *c, vks_skin *skin, vks_skin_builder *b, const uint32_t *bone_node,
                            int32_t static_node, const vks_affine *inverse_bind, const uint8_t *singular)
{
    uint64_t own_entries = 0;
    size_t nmats = c->doc.materials.count < 65535 ? c->doc.materials.count : 65535;
    mat_entry *mats = vks__cmdl_alloc(c, nmats, sizeof *mats);
    if (!mats)
        return vks_error_set(c->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "cmdl/Materials", "out of memory");
    char *const *names = c->doc.materials.data;
    for (size_t k = 0; k < nmats; k++) {
        mats[k].name = names[k];
        mats[k].index = (int32_t)k;
    }
    qsort(mats, nmats, sizeof *mats, cmp_mat);
    /* every MaterialCtr by name (texture references are not read: no sample shows their form) */
    skin->materials = nmats ? vks_skin_alloc_array(skin, nmats, sizeof *skin->materials) : NULL;
    if (nmats && !skin->materials) {
        vks__cmdl_free(c, mats);
        return vks_error_set(c->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "cmdl/Materials", "out of memory");
    }
    for (size_t k = 0; k < nmats; k++) {
        skin->materials[k] = vks_material_default();
        skin->materials[k].name = vks_skin_strndup(skin, names[k] ? names[k] : "", names[k] ? strlen(names[k]) : 0);
        if (!skin->materials[k].name) {
            vks__cmdl_free(c, mats);
            return vks_error_set(c->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "cmdl/Materials", "out of memory");
        }
    }
    skin->material_count = (uint32_t)nmats;
    vks_result rc = VKS_OK;
    for (uint32_t si = 0; si < c->doc.shapes.count && rc == VKS_OK; si++)
        rc = one_shape(c, skin, b, si, bone_node, static_node, inverse_bind, singular, &own_entries, mats, nmats);
    vks__cmdl_free(c, mats);
    return rc;
}
