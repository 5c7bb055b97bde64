/* The model builder (see include/vkskin/build.h). Temporary arrays use the skin's allocator;
 * the finished arrays are copied into the skin's arena. */
#include "vkskin/build.h"

#include "core/vec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PALETTE 65535u

/* The builder works on eight slots per file vertex (VKS_MAX_INFLUENCES): the sources' sets of
   four (build.h) are widened once per mesh and per file group that brings its own (widen). */
typedef uint16_t wide_bone[VKS_MAX_INFLUENCES];
typedef float wide_weight[VKS_MAX_INFLUENCES];

struct vks_skin_builder {
    vks_skin *skin;
    vks_vec meshes, groups, bones, palette, positions, normals, influences, source, triangles, materials;
    vks_vec uv[VKS_MAX_UV_SETS]; /* set k grows only when a mesh has it: the vertices of meshes
                                    before (or without) it are padded with 0 when it does, and
                                    by finish (no memory for models without UVs) */
    int has_normals, has_materials;
    uint32_t uv_sets;            /* most sets of any mesh */
    int failed;
    vks_weight_report report; /* over every mesh added; copied into the skin by finish */
};

/* Appends n zeroed elements to one of the model's arrays; a failure marks the builder failed. */
static void *vec_push(vks_skin_builder *b, vks_vec *v, size_t n)
{
    if (b->failed)
        return NULL;
    void *r = vks__vec_push(v, &b->skin->allocator, n);
    if (!r)
        b->failed = 1;
    return r;
}

static void *tmp_alloc(vks_skin_builder *b, size_t count, size_t elem)
{
    if (elem && count > SIZE_MAX / 4 / elem)
        return NULL;
    size_t n = (count && elem) ? count * elem : 1;
    void *p = b->skin->allocator.alloc(b->skin->allocator.user, n);
    if (p)
        memset(p, 0, n);
    return p;
}
static void tmp_free(vks_skin_builder *b, void *p)
{
    if (p)
        b->skin->allocator.free(b->skin->allocator.user, p);
}

vks_skin_builder *vks_builder_create(vks_skin *skin)
{
    vks_skin_builder *b = skin->allocator.alloc(skin->allocator.user, sizeof *b);
    if (!b)
        return NULL;
    memset(b, 0, sizeof *b);
    b->skin = skin;
    /* the model's arrays start at 64 elements and double */
    b->meshes = (vks_vec)VKS_VEC_INIT(sizeof(vks_mesh), 64);
    b->groups = (vks_vec)VKS_VEC_INIT(sizeof(vks_group), 64);
    b->bones = (vks_vec)VKS_VEC_INIT(sizeof(vks_bone), 64);
    b->palette = (vks_vec)VKS_VEC_INIT(sizeof(uint16_t), 64);
    b->positions = (vks_vec)VKS_VEC_INIT(sizeof(float[3]), 64);
    b->normals = (vks_vec)VKS_VEC_INIT(sizeof(float[3]), 64);
    b->influences = (vks_vec)VKS_VEC_INIT(sizeof(vks_influence), 64);
    b->source = (vks_vec)VKS_VEC_INIT(sizeof(uint32_t), 64);
    b->triangles = (vks_vec)VKS_VEC_INIT(sizeof(uint32_t[3]), 64);
    b->materials = (vks_vec)VKS_VEC_INIT(sizeof(uint16_t), 64);
    for (int k = 0; k < VKS_MAX_UV_SETS; k++)
        b->uv[k] = (vks_vec)VKS_VEC_INIT(sizeof(float[2]), 64);
    return b;
}

void vks_builder_destroy(vks_skin_builder *b)
{
    if (!b)
        return;
    vks_vec *all[] = {&b->meshes, &b->groups, &b->bones, &b->palette, &b->positions,
                    &b->normals, &b->influences, &b->source, &b->triangles, &b->materials};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        vks__vec_free(all[i], &b->skin->allocator);
    for (int k = 0; k < VKS_MAX_UV_SETS; k++)
        vks__vec_free(&b->uv[k], &b->skin->allocator);
    b->skin->allocator.free(b->skin->allocator.user, b);
}

/* A group while it is being planned: its palette (mesh bone indices) and triangle list. */
typedef struct plan_group {
    uint16_t *palette;
    uint32_t palette_count;
    size_t palette_cap;
    uint32_t *tris; /* indices into the plan's triangle source */
    uint32_t tri_count;
    size_t tri_cap;
    const uint32_t (*tri_src)[3];
    const uint16_t *mat_src;
    const uint32_t *extra;
    uint32_t extra_count;
    uint32_t *extra_own; /* leftover vertices placed here by the builder */
    uint32_t extra_own_count;
    size_t extra_own_cap;
    const wide_bone *bone;
    const wide_weight *weight;
    wide_bone *own_bone; /* the file group's own influences, widened (freed with the plan) */
    wide_weight *own_weight;
    uint32_t flags;
    int fixed_palette;
} plan_group;

static int palette_has(const plan_group *g, uint16_t bone)
{
    for (uint32_t i = 0; i < g->palette_count; i++)
        if (g->palette[i] == bone)
            return 1;
    return 0;
}

/* Appends v to a group's triangle or vertex list (16 first, then doubling). */
static int grow_u32(vks_skin_builder *b, uint32_t **arr, uint32_t *count, size_t *cap, uint32_t v)
{
    uint32_t *p = vks__grow_array(&b->skin->allocator, *arr, *count, cap, 1, sizeof *p, 16);
    if (!p)
        return 0;
    *arr = p;
    p[(*count)++] = v;
    return 1;
}

static int palette_add(vks_skin_builder *b, plan_group *g, uint16_t bone)
{
    if (palette_has(g, bone))
        return 1;
    uint16_t *p = vks__grow_array(&b->skin->allocator, g->palette, g->palette_count, &g->palette_cap, 1, sizeof *p, 16);
    if (!p)
        return 0;
    g->palette = p;
    g->palette[g->palette_count++] = bone;
    return 1;
}

/* Bones (weight > 0) of a set of file vertices, deduplicated; returns the count. */
static uint32_t bones_of(const vks_mesh_source *m, const wide_bone *bone, const wide_weight *weight,
                         const uint32_t *verts, uint32_t nverts, uint16_t *out)
{
    (void)m;
    uint32_t n = 0;
    for (uint32_t i = 0; i < nverts; i++)
        for (int k = 0; k < VKS_MAX_INFLUENCES; k++) {
            if (!(weight[verts[i]][k] > 0))
                continue;
            uint16_t bb = bone[verts[i]][k];
            uint32_t j = 0;
            while (j < n && out[j] != bb)
                j++;
            if (j == n)
                out[n++] = bb;
        }
    return n;
}

static int cmp_u16(const void *a, const void *b)
{
    return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

/* Groups beyond which the builder stops trying every group for a fit (first fit is
   O(groups x palette) per triangle) and only tries the groups the needed bones already live in. */
#define FULL_SCAN_GROUPS 64u

/* Places a set of needed bones into an auto group with room: the hint first, then the first
   fit over all auto groups while they are few, otherwise the groups the bones live in
   (home[bone], the latest group given that bone). Returns -1 when a new group must be made. */
static int find_fit(plan_group *gs, uint32_t first_auto, uint32_t count, uint32_t hint, const int32_t *home,
                    const uint16_t *need, uint32_t nneed, uint32_t limit)
{
    int32_t cands[1 + 12];
    uint32_t nc = 0;
    cands[nc++] = (int32_t)hint;
    if (count - first_auto > FULL_SCAN_GROUPS)
        for (uint32_t k = 0; k < nneed && nc < 13; k++)
            cands[nc++] = home[need[k]];
    for (uint32_t pass = 0; pass < 2; pass++) {
        uint32_t n = pass == 0 ? nc : (count - first_auto > FULL_SCAN_GROUPS ? 0 : count);
        for (uint32_t i = 0; i < n; i++) {
            int64_t gi = pass == 0 ? cands[i] : (int64_t)i;
            if (gi < (int64_t)first_auto || gi >= (int64_t)count)
                continue;
            uint32_t add = 0;
            for (uint32_t k = 0; k < nneed; k++)
                add += !palette_has(&gs[gi], need[k]);
            if (gs[gi].palette_count + add <= limit)
                return (int)gi;
        }
    }
    return -1;
}

/* True when group c may take a leftover vertex with these bones as they are. */
static int takes_as_is(const plan_group *g, int fixed_or_auto, const wide_bone *mb, const uint16_t *need,
                       uint32_t nn)
{
    if (g->bone != mb || !fixed_or_auto)
        return 0;
    for (uint32_t k = 0; k < nn; k++)
        if (g->fixed_palette != 2 && !palette_has(g, need[k]))
            return 0;
    return 1;
}

static vks_result fail(vks_error *err, vks_result code, const char *mesh, const char *fmt,
                       unsigned long long a, unsigned long long b, unsigned long long c)
{
    char path[128];
    snprintf(path, sizeof path, "mesh \"%.100s\"", mesh ? mesh : "");
    return vks_error_set(err, code, VKS_NO_OFFSET, path, fmt, a, b, c);
}

/* Readers refuse non-finite weights where they read them (naming the offset); this is the
   builder's own guard, so that no path can hand one to the layout, which would drop it. */
static int first_non_finite(const wide_weight *w, uint32_t n, uint32_t *vertex, uint32_t *slot)
{
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t k = 0; k < VKS_MAX_INFLUENCES; k++)
            if (!isfinite(w[v][k])) {
                *vertex = v, *slot = k;
                return 1;
            }
    return 0;
}

/* One file vertex into the weight report: its stored sum (the reader's, when it normalised
   by its format's rule before handing the weights over) and what the layout will repair. */
static void report_vertex(vks_weight_report *r, const float *w, const float *stored_sum)
{
    double sum = 0;
    int positive = 0, negative = 0;
    for (int k = 0; k < VKS_MAX_INFLUENCES; k++) {
        sum += w[k] > 0 ? w[k] : 0.0;
        positive |= w[k] > 0;
        negative |= w[k] < 0;
    }
    double stored = stored_sum ? *stored_sum : sum;
    int off = fabs(stored - 1.0) > 1e-3;
    if (r->vertices == 0 || stored < r->stored_min_sum)
        r->stored_min_sum = stored;
    if (r->vertices == 0 || stored > r->stored_max_sum)
        r->stored_max_sum = stored;
    r->vertices++;
    r->stored_sum_off += (uint32_t)off;
    r->all_zero += (uint32_t)!positive;
    r->negative += (uint32_t)negative;
    r->renormalised += (uint32_t)(stored_sum && off && positive);
}

/* The checks of a mesh as a whole, before anything is allocated: its bones within the model's
   limits and naming nodes that exist, and every influence slot in use naming one of its bones.
   The mesh's influences may only be absent when every file group brings its own. */
static vks_result check_mesh(const vks_skin_builder *b, const vks_mesh_source *m, const char *mname,
                             vks_error *err)
{
    const vks_skin *s = b->skin;
    if (m->bone_count > MAX_PALETTE || m->bone_count == 0)
        return fail(err, VKS_ERR_LIMIT, mname, "bone count %llu outside 1..%llu", m->bone_count, MAX_PALETTE, 0);
    /* palette[] holds global bone indices as uint16: the whole model has at most 65536 bones */
    if ((uint64_t)b->bones.count + m->bone_count > MAX_PALETTE + 1u)
        return fail(err, VKS_ERR_LIMIT, mname, "model bones %llu + %llu over %llu", b->bones.count, m->bone_count,
                    MAX_PALETTE + 1u);
    for (uint32_t i = 0; i < m->bone_count; i++)
        if (m->bones[i].node >= s->node_count)
            return fail(err, VKS_ERR_FORMAT, mname, "bone %llu names node %llu, node count %llu", i,
                        m->bones[i].node, s->node_count);
    if (m->space_node >= (int32_t)s->node_count || m->space_node < -1)
        return fail(err, VKS_ERR_FORMAT, mname, "skin-space node %llu >= node count %llu",
                    (unsigned long long)(long long)m->space_node, s->node_count, 0);
    if (m->uv_set_count > VKS_MAX_UV_SETS)
        return fail(err, VKS_ERR_INVALID, mname, "%llu UV sets, at most %llu", m->uv_set_count, VKS_MAX_UV_SETS, 0);
    for (uint32_t k = 0; k < m->uv_set_count; k++)
        if (!m->uv[k] && m->vertex_count)
            return fail(err, VKS_ERR_INVALID, mname, "UV set %llu has no array", k, 0, 0);

    if (!m->bone != !m->weight || !m->bone_more != !m->weight_more)
        return fail(err, VKS_ERR_INVALID, mname, "bone indices without weights or weights without bone indices",
                    0, 0, 0);
    if (m->bone_more && !m->bone)
        return fail(err, VKS_ERR_INVALID, mname, "slots 4..7 without slots 0..3", 0, 0, 0);
    if (!m->bone && m->vertex_count && m->group_count == 0)
        return fail(err, VKS_ERR_INVALID, mname, "mesh has no influences", 0, 0, 0);
    return VKS_OK;
}

/* n file vertices' influences as eight slots: lo's four, then hi's (NULL: empty slots). */
static int widen(vks_skin_builder *b, const uint16_t (*lo_bone)[4], const float (*lo_weight)[4],
                 const uint16_t (*hi_bone)[4], const float (*hi_weight)[4], uint32_t n, wide_bone **bone,
                 wide_weight **weight)
{
    *bone = tmp_alloc(b, n, sizeof **bone);
    *weight = tmp_alloc(b, n, sizeof **weight);
    if (!*bone || !*weight)
        return 0;
    for (uint32_t v = 0; v < n; v++) {
        memset((*bone)[v], 0, sizeof (*bone)[v]);
        memset((*weight)[v], 0, sizeof (*weight)[v]);
        memcpy((*bone)[v], lo_bone[v], sizeof lo_bone[v]);
        memcpy((*weight)[v], lo_weight[v], sizeof lo_weight[v]);
        if (hi_bone) {
            memcpy((*bone)[v] + 4, hi_bone[v], sizeof hi_bone[v]);
            memcpy((*weight)[v] + 4, hi_weight[v], sizeof hi_weight[v]);
        }
    }
    return 1;
}

/* The mesh's own influences, once widened: finite weights, and every slot in use naming one of
   the mesh's bones. */
static vks_result check_mesh_influences(const vks_mesh_source *m, const char *mname, const wide_bone *mb,
                                        const wide_weight *mw, vks_error *err)
{
    uint32_t bad_v, bad_k;
    if (mw && first_non_finite(mw, m->vertex_count, &bad_v, &bad_k))
        return fail(err, VKS_ERR_FORMAT, mname, "vertex %llu slot %llu: weight is not finite", bad_v, bad_k, 0);
    for (uint32_t v = 0; v < m->vertex_count && mb; v++)
        for (int k = 0; k < VKS_MAX_INFLUENCES; k++)
            if (mw[v][k] > 0 && mb[v][k] >= m->bone_count)
                return fail(err, VKS_ERR_FORMAT, mname, "vertex %llu names bone %llu, bone count %llu", v,
                            mb[v][k], m->bone_count);
    return VKS_OK;
}

/* One mesh on its way into the model: the groups planned for it and the tables the steps share. */
typedef struct mesh_plan {
    const vks_mesh_source *m;
    const char *name;        /* m->name or "", for messages */
    const wide_bone *mb; /* the mesh's own influences, widened (NULL when every file group has its own) */
    const wide_weight *mw;
    wide_bone *own_mb;   /* what mb and mw point to, freed with the plan */
    wide_weight *own_mw;
    uint32_t limit;          /* bones per group the builder makes */
    vks_vec groups;          /* plan_group: the file's, then the builder's from first_auto on */
    uint32_t first_auto;
    uint32_t *group_of;      /* vertex -> first group reaching it, + 1 (0: none yet) */
    uint32_t *model_index;   /* vertex -> its index in the laid-out mesh (its latest copy) */
    uint8_t *used;           /* vertex -> reached by the group being laid out */
    int32_t *home;           /* bone -> latest group holding it, -1 none */
    /* where the mesh starts in the model's arrays (step 4) */
    uint32_t mesh_index, first_vertex, first_bone;
} mesh_plan;

static vks_result plan_nomem(const mesh_plan *p, vks_error *err)
{
    return fail(err, VKS_ERR_NOMEM, p->name, "out of memory", 0, 0, 0);
}
static vks_result layout_nomem(const mesh_plan *p, vks_error *err)
{
    return fail(err, VKS_ERR_NOMEM, p->name, "out of memory building the model", 0, 0, 0);
}

/* A new zeroed group at the end of the plan (the array may move); NULL when out of memory. */
static plan_group *new_group(vks_skin_builder *b, mesh_plan *p)
{
    return vks__vec_push(&p->groups, &b->skin->allocator, 1);
}

/* The plan's tables, all allocated up front so one message covers them. Room for the file's
   groups and 64 more first: most meshes never need the group array to grow. */
static vks_result plan_begin(vks_skin_builder *b, const vks_mesh_source *m, const char *mname, mesh_plan *p,
                             vks_error *err)
{
    memset(p, 0, sizeof *p);
    p->m = m;
    p->name = mname;
    p->limit = m->palette_limit ? m->palette_limit : m->bone_count;
    if (p->limit > MAX_PALETTE)
        p->limit = MAX_PALETTE;
    p->groups = (vks_vec)VKS_VEC_INIT(sizeof(plan_group), m->group_count + 64);
    int groups_ok = vks__vec_reserve(&p->groups, &b->skin->allocator, m->group_count + 64);
    p->group_of = tmp_alloc(b, m->vertex_count, sizeof *p->group_of);
    p->model_index = tmp_alloc(b, m->vertex_count, sizeof *p->model_index);
    p->used = tmp_alloc(b, m->vertex_count, 1);
    p->home = tmp_alloc(b, m->bone_count, sizeof *p->home);
    if (!groups_ok || !p->group_of || !p->model_index || !p->used || !p->home ||
        (m->bone && !widen(b, m->bone, m->weight, m->bone_more, m->weight_more, m->vertex_count, &p->own_mb,
                           &p->own_mw)))
        return fail(err, VKS_ERR_NOMEM, mname, "out of memory for %llu vertices", m->vertex_count, 0, 0);
    p->mb = p->own_mb;
    p->mw = p->own_mw;
    return check_mesh_influences(m, mname, p->mb, p->mw, err);
}

static void plan_free(vks_skin_builder *b, mesh_plan *p)
{
    plan_group *gs = p->groups.data;
    for (size_t gi = 0; gi < p->groups.count; gi++) {
        tmp_free(b, gs[gi].palette);
        tmp_free(b, gs[gi].tris);
        tmp_free(b, gs[gi].extra_own);
        tmp_free(b, gs[gi].own_bone);
        tmp_free(b, gs[gi].own_weight);
    }
    tmp_free(b, p->own_mb);
    tmp_free(b, p->own_mw);
    vks__vec_free(&p->groups, &b->skin->allocator);
    tmp_free(b, p->group_of);
    tmp_free(b, p->model_index);
    tmp_free(b, p->used);
    tmp_free(b, p->home);
}

/* Step 1, one of the file's own groups: its triangles, listed vertices, influences and palette
   as the file gives them, each checked against the mesh. A group without a palette gets the
   bones its vertices use in step 4, once they are known. */
static vks_result plan_file_group(vks_skin_builder *b, mesh_plan *p, uint32_t gi, vks_error *err)
{
    const vks_mesh_source *m = p->m;
    const char *mname = p->name;
    const vks_group_source *src = &m->groups[gi];
    plan_group *g = new_group(b, p);
    if (!g)
        return plan_nomem(p, err);
    g->tri_src = src->triangles;
    g->mat_src = src->triangle_material;
    g->extra = src->vertices;
    g->extra_count = src->vertex_count;
    g->flags = src->flags;
    if (!src->bone != !src->weight)
        return fail(err, VKS_ERR_INVALID, mname, "group %llu has bone indices or weights, not both", gi, 0, 0);
    if (src->bone && !widen(b, src->bone, src->weight, NULL, NULL, m->vertex_count, &g->own_bone, &g->own_weight))
        return plan_nomem(p, err);
    g->bone = src->bone ? g->own_bone : p->mb;
    g->weight = src->bone ? g->own_weight : p->mw;
    if (!g->bone || !g->weight)
        return fail(err, VKS_ERR_INVALID, mname, "group %llu has no influences", gi, 0, 0);
    for (uint32_t t = 0; t < src->triangle_count; t++) {
        for (int k = 0; k < 3; k++)
            if (src->triangles[t][k] >= m->vertex_count)
                return fail(err, VKS_ERR_FORMAT, mname, "group %llu triangle %llu: vertex index %llu out of range",
                            gi, t, src->triangles[t][k]);
        if (!grow_u32(b, &g->tris, &g->tri_count, &g->tri_cap, t))
            return plan_nomem(p, err);
    }
    for (uint32_t i = 0; i < src->vertex_count; i++)
        if (src->vertices[i] >= m->vertex_count)
            return fail(err, VKS_ERR_FORMAT, mname, "group %llu vertex %llu out of range %llu", gi,
                        src->vertices[i], m->vertex_count);
    uint32_t bad_v, bad_k;
    if (src->weight && first_non_finite(g->weight, m->vertex_count, &bad_v, &bad_k))
        return fail(err, VKS_ERR_FORMAT, mname, "group %llu vertex %llu: weight is not finite", gi, bad_v, 0);
    if (src->bone)
        for (uint32_t v = 0; v < m->vertex_count; v++)
            for (int k = 0; k < 4; k++)
                if (src->weight[v][k] > 0 && src->bone[v][k] >= m->bone_count)
                    return fail(err, VKS_ERR_FORMAT, mname, "group vertex %llu names bone %llu, bone count %llu",
                                v, src->bone[v][k], m->bone_count);
    if (src->palette) {
        g->fixed_palette = 1;
        for (uint32_t i = 0; i < src->palette_count; i++) {
            if (src->palette[i] >= m->bone_count)
                return fail(err, VKS_ERR_FORMAT, mname, "group %llu palette names bone %llu, bone count %llu",
                            gi, src->palette[i], m->bone_count);
            if (!palette_add(b, g, src->palette[i]))
                return plan_nomem(p, err);
        }
    }
    return VKS_OK;
}

/* home[bone]: the first file group whose palette holds the bone, so that later steps can try
   the groups a bone already lives in instead of every group. */
static void home_from_file_palettes(mesh_plan *p)
{
    const vks_mesh_source *m = p->m;
    const plan_group *gs = p->groups.data;
    for (uint32_t k = 0; k < m->bone_count; k++)
        p->home[k] = -1;
    for (uint32_t gi = 0; gi < p->groups.count; gi++)
        if (gs[gi].fixed_palette)
            for (uint32_t i = 0; i < m->groups[gi].palette_count; i++)
                if (p->home[m->groups[gi].palette[i]] < 0)
                    p->home[m->groups[gi].palette[i]] = (int32_t)gi;
}

/* Step 2 under a palette limit: the auto group triangle t joins (the first with room for its
   bones, else a new one), with those bones added to its palette. */
static vks_result group_for_triangle(vks_skin_builder *b, mesh_plan *p, uint32_t t, int *out, vks_error *err)
{
    const vks_mesh_source *m = p->m;
    uint16_t need[3 * VKS_MAX_INFLUENCES];
    uint32_t nn = bones_of(m, p->mb, p->mw, m->triangles[t], 3, need);
    if (nn > p->limit)
        return fail(err, VKS_ERR_LIMIT, p->name, "triangle %llu needs %llu bones, palette limit %llu", t, nn,
                    p->limit);
    uint32_t count = (uint32_t)p->groups.count;
    int gi = find_fit(p->groups.data, p->first_auto, count, count ? count - 1 : 0, p->home, need, nn, p->limit);
    if (gi < 0) {
        plan_group *g = new_group(b, p);
        if (!g)
            return plan_nomem(p, err);
        gi = (int)count;
        g->tri_src = m->triangles;
        g->mat_src = m->triangle_material;
        g->bone = p->mb;
        g->weight = p->mw;
    }
    plan_group *g = (plan_group *)p->groups.data + gi;
    for (uint32_t k = 0; k < nn; k++) {
        if (!palette_add(b, g, need[k]))
            return plan_nomem(p, err);
        p->home[need[k]] = gi;
    }
    *out = gi;
    return VKS_OK;
}

/* Step 2, only when the file gives no groups: the builder groups the mesh's triangles. Without
   a palette limit one group takes them all with every bone in order; with one, each triangle
   goes where its bones fit. */
static vks_result plan_auto_groups(vks_skin_builder *b, mesh_plan *p, vks_error *err)
{
    const vks_mesh_source *m = p->m;
    p->first_auto = (uint32_t)p->groups.count;
    if (m->group_count != 0)
        return VKS_OK;
    if (!m->palette_limit) {
        plan_group *g = new_group(b, p);
        if (!g)
            return plan_nomem(p, err);
        g->tri_src = m->triangles;
        g->mat_src = m->triangle_material;
        g->bone = p->mb;
        g->weight = p->mw;
        g->fixed_palette = 2; /* all bones in order */
    }
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        for (int k = 0; k < 3; k++)
            if (m->triangles[t][k] >= m->vertex_count)
                return fail(err, VKS_ERR_FORMAT, p->name, "triangle %llu: vertex index %llu >= vertex count %llu", t,
                            m->triangles[t][k], m->vertex_count);
        int gi = (int)p->first_auto;
        if (m->palette_limit) {
            vks_result rc = group_for_triangle(b, p, t, &gi, err);
            if (rc != VKS_OK)
                return rc;
        }
        plan_group *g = (plan_group *)p->groups.data + gi;
        if (!grow_u32(b, &g->tris, &g->tri_count, &g->tri_cap, t))
            return plan_nomem(p, err);
    }
    return VKS_OK;
}

/* Step 3 begins: group_of[v] = the first group (+ 1) whose triangles or listed vertices reach
   v; that group lays out v's first copy. */
static void mark_reached(mesh_plan *p)
{
    const plan_group *gs = p->groups.data;
    for (uint32_t gi = 0; gi < p->groups.count; gi++) {
        const plan_group *g = &gs[gi];
        for (uint32_t i = 0; i < g->tri_count; i++)
            for (int k = 0; k < 3; k++) {
                uint32_t v = g->tri_src[g->tris[i]][k];
                if (!p->group_of[v])
                    p->group_of[v] = gi + 1;
            }
        for (uint32_t i = 0; i < g->extra_count; i++)
            if (!p->group_of[g->extra[i]])
                p->group_of[g->extra[i]] = gi + 1;
    }
}

/* An existing group that takes a leftover vertex with these bones, or -1. A file group or the
   all-bones group takes it as it is when the bones are in its palette: every group is tried
   while they are few, else only the groups its bones live in. Then an auto group with room. */
static int leftover_group(const mesh_plan *p, const uint16_t *need, uint32_t nn)
{
    const plan_group *gs = p->groups.data;
    uint32_t count = (uint32_t)p->groups.count, first_auto = p->first_auto;
    int gi = -1;
    if (count <= FULL_SCAN_GROUPS) {
        for (uint32_t c = 0; c < count && gi < 0; c++)
            if (takes_as_is(&gs[c], gs[c].fixed_palette || c >= first_auto, p->mb, need, nn))
                gi = (int)c;
    } else {
        if (first_auto < count && gs[first_auto].fixed_palette == 2)
            gi = (int)first_auto; /* the all-bones group takes anything */
        for (uint32_t k = 0; k < nn && gi < 0; k++) {
            int32_t c = p->home[need[k]];
            if (c >= 0 && takes_as_is(&gs[c], gs[c].fixed_palette || (uint32_t)c >= first_auto, p->mb, need, nn))
                gi = c;
        }
    }
    if (gi < 0 && count > first_auto)
        gi = find_fit(p->groups.data, first_auto, count, count - 1, p->home, need, nn, p->limit);
    return gi;
}

/* Step 3, the vertices no group reaches (a file's loose vertices): each goes to a group that
   takes its bones, else to a new group, so that every file vertex is in the model. */
static vks_result place_leftovers(vks_skin_builder *b, mesh_plan *p, vks_error *err)
{
    const vks_mesh_source *m = p->m;
    for (uint32_t v = 0; v < m->vertex_count; v++) {
        if (p->group_of[v])
            continue;
        if (!p->mb)
            return fail(err, VKS_ERR_INVALID, p->name,
                        "vertex %llu is in no group and the mesh has no influences of its own", v, 0, 0);
        uint16_t need[VKS_MAX_INFLUENCES];
        uint32_t nn = bones_of(m, p->mb, p->mw, &v, 1, need);
        int gi = leftover_group(p, need, nn);
        if (gi < 0) {
            plan_group *ng = new_group(b, p);
            if (!ng)
                return plan_nomem(p, err);
            gi = (int)p->groups.count - 1;
            ng->bone = p->mb;
            ng->weight = p->mw;
            if (p->first_auto > (uint32_t)gi)
                p->first_auto = (uint32_t)gi;
        }
        plan_group *g = (plan_group *)p->groups.data + gi;
        if (!g->fixed_palette)
            for (uint32_t k = 0; k < nn; k++) {
                if (!palette_add(b, g, need[k]))
                    return plan_nomem(p, err);
                p->home[need[k]] = gi;
            }
        if (!grow_u32(b, &g->extra_own, &g->extra_own_count, &g->extra_own_cap, v))
            return plan_nomem(p, err);
        p->group_of[v] = (uint32_t)gi + 1;
    }
    return VKS_OK;
}

/* The weight report, per file vertex, from the table of the first group that reaches it
   (the one its first copy is laid out with). */
static void report_weights(vks_skin_builder *b, const mesh_plan *p)
{
    const vks_mesh_source *m = p->m;
    const plan_group *gs = p->groups.data;
    for (uint32_t v = 0; v < m->vertex_count; v++) {
        const wide_weight *tw = gs[p->group_of[v] - 1].weight;
        report_vertex(&b->report, tw[v], tw == p->mw && m->stored_weight_sum ? &m->stored_weight_sum[v] : NULL);
    }
}

/* Step 4 begins: the mesh's record and its bones in the model's arrays. */
static vks_result lay_out_mesh_record(vks_skin_builder *b, mesh_plan *p, vks_error *err)
{
    const vks_mesh_source *m = p->m;
    p->first_vertex = (uint32_t)b->positions.count;
    vks_mesh *me = vec_push(b, &b->meshes, 1);
    if (!me)
        return layout_nomem(p, err);
    p->mesh_index = (uint32_t)b->meshes.count - 1;
    me->name = vks_skin_strndup(b->skin, p->name, strlen(p->name));
    me->first_vertex = p->first_vertex;
    me->first_triangle = (uint32_t)b->triangles.count;
    me->first_group = (uint32_t)b->groups.count;
    me->first_bone = p->first_bone = (uint32_t)b->bones.count;
    me->bone_count = m->bone_count;
    me->source_vertex_count = m->vertex_count;
    me->space_node = m->space_node;
    int pre_zero = 1;
    for (int i = 0; i < 12; i++)
        pre_zero &= m->space_pre.m[i] == 0.0f;
    me->space_pre = pre_zero ? vks_affine_identity() : m->space_pre;
    me->flags = m->flags | (m->normals ? VKS_MESH_HAS_NORMALS : 0);
    me->first_material = m->first_material;
    me->material_count = m->material_count;
    me->uv_set_count = m->uv_set_count;
    if (m->uv_set_count > b->uv_sets)
        b->uv_sets = m->uv_set_count;
    if (!me->name)
        return layout_nomem(p, err);
    if (m->normals)
        b->has_normals = 1;
    vks_bone *bo = vec_push(b, &b->bones, m->bone_count);
    if (!bo)
        return layout_nomem(p, err);
    memcpy(bo, m->bones, m->bone_count * sizeof *bo);
    for (uint32_t i = 0; i < m->bone_count; i++)
        bo[i].node = m->bones[i].node;
    return VKS_OK;
}

/* used[v] = 1 for the vertices group g lays out: those its triangles reach, the ones the file
   lists for it and the leftovers placed in it. */
static void mark_used(mesh_plan *p, const plan_group *g)
{
    memset(p->used, 0, p->m->vertex_count);
    for (uint32_t i = 0; i < g->tri_count; i++)
        for (int k = 0; k < 3; k++)
            p->used[g->tri_src[g->tris[i]][k]] = 1;
    for (uint32_t i = 0; i < g->extra_count; i++)
        p->used[g->extra[i]] = 1;
    for (uint32_t i = 0; i < g->extra_own_count; i++)
        p->used[g->extra_own[i]] = 1;
}

/* Group gi's palette into the model (as model bone indices): the file's, all bones, or the
   sorted bones its vertices use. *first is where it starts in the model's palette array. */
static vks_result lay_out_palette(vks_skin_builder *b, mesh_plan *p, uint32_t gi, uint32_t *first,
                                  uint32_t *count, vks_error *err)
{
    const vks_mesh_source *m = p->m;
    plan_group *g = (plan_group *)p->groups.data + gi;
    const uint16_t *file_palette = gi < m->group_count ? m->groups[gi].palette : NULL;
    uint32_t npal;
    if (g->fixed_palette == 2) {
        npal = m->bone_count;
    } else if (file_palette) {
        npal = m->groups[gi].palette_count;
    } else {
        for (uint32_t v = 0; v < m->vertex_count; v++)
            if (p->used[v])
                for (int k = 0; k < VKS_MAX_INFLUENCES; k++)
                    if (g->weight[v][k] > 0 && !palette_add(b, g, g->bone[v][k]))
                        return layout_nomem(p, err);
        /* vertices without any positive weight follow slot 0; give such a group bone 0 */
        if (g->palette_count == 0 && !palette_add(b, g, 0))
            return layout_nomem(p, err);
        qsort(g->palette, g->palette_count, sizeof *g->palette, cmp_u16);
        npal = g->palette_count;
    }
    if (npal > MAX_PALETTE || npal == 0)
        return fail(err, VKS_ERR_LIMIT, p->name, "group %llu palette of %llu bones outside 1..%llu", gi, npal,
                    MAX_PALETTE);
    *first = (uint32_t)b->palette.count;
    uint16_t *pal = vec_push(b, &b->palette, npal);
    if (!pal)
        return layout_nomem(p, err);
    for (uint32_t i = 0; i < npal; i++) {
        uint32_t mbone = g->fixed_palette == 2 ? i : file_palette ? file_palette[i] : g->palette[i];
        pal[i] = (uint16_t)(p->first_bone + mbone);
    }
    *count = npal;
    return VKS_OK;
}

/* Group g's vertices into the model, ascending by file index: position, normal, source
   vertex, and influences as palette slots (slot: mesh bone -> its first slot). */
static vks_result lay_out_vertices(vks_skin_builder *b, mesh_plan *p, const plan_group *g, uint32_t gi,
                                   const uint32_t *slot, vks_group *gr, vks_error *err)
{
    const vks_mesh_source *m = p->m;
    for (uint32_t v = 0; v < m->vertex_count; v++) {
        if (!p->used[v])
            continue;
        float *pos = vec_push(b, &b->positions, 1);
        float *n = vec_push(b, &b->normals, 1);
        vks_influence *in = vec_push(b, &b->influences, 1);
        uint32_t *sv = vec_push(b, &b->source, 1);
        if (!pos || !n || !in || !sv)
            return layout_nomem(p, err);
        memcpy(pos, m->positions[v], 12);
        if (m->normals)
            memcpy(n, m->normals[v], 12);
        for (uint32_t k = 0; k < m->uv_set_count; k++) {
            size_t pad = b->positions.count - 1 - b->uv[k].count; /* vertices without set k */
            float *uv = vec_push(b, &b->uv[k], pad + 1);
            if (!uv)
                return layout_nomem(p, err);
            memcpy(uv + 2 * pad, m->uv[k][v], 8);
        }
        *sv = v;
        p->model_index[v] = (uint32_t)(b->positions.count - 1 - p->first_vertex);
        uint32_t u = 0;
        for (int k = 0; k < VKS_MAX_INFLUENCES; k++) {
            float w = g->weight[v][k];
            if (!(w > 0))
                continue;
            uint32_t sl = slot[g->bone[v][k]];
            if (sl == UINT32_MAX)
                return fail(err, VKS_ERR_FORMAT, p->name,
                            "vertex %llu uses bone %llu, which is not in its group's palette (group %llu)", v,
                            g->bone[v][k], gi);
            in->index[u] = (uint16_t)sl;
            in->weight[u] = w;
            u++;
        }
        if (u == 0) {
            /* no positive weight: follow the palette's first bone with weight 1 so the
               vertex stays where the file puts it at bind (counted in skin->weights as
               all_zero, reported by inspect) */
            in->index[0] = 0;
            in->weight[0] = 1.0f;
            u = 1;
        }
        if (u > gr->max_influences)
            gr->max_influences = u;
    }
    return VKS_OK;
}

/* Group g's triangles into the model, re-indexed to the mesh's laid-out vertices, with their
   materials. */
static vks_result lay_out_triangles(vks_skin_builder *b, mesh_plan *p, const plan_group *g, vks_error *err)
{
    for (uint32_t i = 0; i < g->tri_count; i++) {
        uint32_t *t = vec_push(b, &b->triangles, 1);
        if (!t)
            return layout_nomem(p, err);
        for (int k = 0; k < 3; k++)
            t[k] = p->model_index[g->tri_src[g->tris[i]][k]];
        uint16_t *mat = vec_push(b, &b->materials, 1);
        if (!mat)
            return layout_nomem(p, err);
        if (g->mat_src) {
            *mat = g->mat_src[g->tris[i]];
            b->has_materials = 1;
        }
    }
    return VKS_OK;
}

/* Step 4, one group: its palette, its record, its vertices and its triangles. */
static vks_result lay_out_group(vks_skin_builder *b, mesh_plan *p, uint32_t gi, vks_error *err)
{
    const vks_mesh_source *m = p->m;
    plan_group *g = (plan_group *)p->groups.data + gi;
    mark_used(p, g);
    uint32_t first_palette = 0, npal = 0;
    vks_result rc = lay_out_palette(b, p, gi, &first_palette, &npal, err);
    if (rc != VKS_OK)
        return rc;
    /* slot lookup: mesh bone -> palette slot (first occurrence) */
    uint32_t *slot = tmp_alloc(b, m->bone_count, sizeof *slot);
    if (!slot)
        return layout_nomem(p, err);
    const uint16_t *pal = (const uint16_t *)b->palette.data + first_palette;
    for (uint32_t i = 0; i < m->bone_count; i++)
        slot[i] = UINT32_MAX;
    for (uint32_t i = npal; i-- > 0;)
        slot[pal[i] - p->first_bone] = i;

    vks_group *gr = vec_push(b, &b->groups, 1);
    if (!gr) {
        tmp_free(b, slot);
        return layout_nomem(p, err);
    }
    gr->mesh = p->mesh_index;
    gr->first_vertex = (uint32_t)b->positions.count;
    gr->first_palette = first_palette;
    gr->palette_count = npal;
    gr->flags = g->flags;
    gr->max_influences = 1;
    rc = lay_out_vertices(b, p, g, gi, slot, gr, err);
    tmp_free(b, slot);
    if (rc != VKS_OK)
        return rc;
    gr->vertex_count = (uint32_t)b->positions.count - gr->first_vertex;
    gr->first_triangle = (uint32_t)b->triangles.count;
    rc = lay_out_triangles(b, p, g, err);
    if (rc != VKS_OK)
        return rc;
    gr->triangle_count = (uint32_t)b->triangles.count - gr->first_triangle;
    return VKS_OK;
}

/* Step 4: the groups laid out one after another, each with its vertices ascending by file
   index (a vertex several groups reach is copied into each) and its triangles re-indexed. */
static vks_result lay_out_mesh(vks_skin_builder *b, mesh_plan *p, vks_error *err)
{
    vks_result rc = lay_out_mesh_record(b, p, err);
    for (uint32_t gi = 0; rc == VKS_OK && gi < p->groups.count; gi++)
        rc = lay_out_group(b, p, gi, err);
    if (rc != VKS_OK)
        return rc;
    vks_mesh *me = (vks_mesh *)b->meshes.data + p->mesh_index;
    me->vertex_count = (uint32_t)b->positions.count - p->first_vertex;
    me->triangle_count = (uint32_t)b->triangles.count - me->first_triangle;
    me->group_count = (uint32_t)b->groups.count - me->first_group;
    if (b->positions.count > UINT32_MAX / 2)
        return fail(err, VKS_ERR_LIMIT, p->name, "model has %llu vertices", b->positions.count, 0, 0);
    return VKS_OK;
}

/* One mesh into the model: checked whole, then planned as groups (the file's own, then the
   builder's under the palette limit, then a home for every vertex no group reaches), then
   laid out group by group. Any failure marks the builder failed. */
static vks_result add_mesh(vks_skin_builder *b, const vks_mesh_source *m, vks_error *err)
{
    const char *mname = m->name ? m->name : "";
    if (b->failed)
        return fail(err, VKS_ERR_INVALID, mname, "an earlier step of building the model failed", 0, 0, 0);
    vks_result rc = check_mesh(b, m, mname, err);
    if (rc != VKS_OK)
        return rc;
    mesh_plan p;
    rc = plan_begin(b, m, mname, &p, err);
    for (uint32_t gi = 0; rc == VKS_OK && gi < m->group_count; gi++)
        rc = plan_file_group(b, &p, gi, err);
    if (rc == VKS_OK) {
        home_from_file_palettes(&p);
        rc = plan_auto_groups(b, &p, err);
    }
    if (rc == VKS_OK) {
        mark_reached(&p);
        rc = place_leftovers(b, &p, err);
    }
    if (rc == VKS_OK) {
        report_weights(b, &p);
        rc = lay_out_mesh(b, &p, err);
    }
    plan_free(b, &p);
    if (rc != VKS_OK)
        b->failed = 1;
    return rc;
}

/* (fail's formats use only as many of the three numbers as they need; printf ignores the
 * rest, as C allows.) Any failure, early checks included, marks the builder failed so finish cannot hand out a
 * half-built model when a caller ignores the result of one mesh. */
vks_result vks_builder_add_mesh(vks_skin_builder *b, const vks_mesh_source *m, vks_error *err)
{
    if (!b)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "model", "out of memory (no builder)");
    vks_result rc = add_mesh(b, m, err);
    if (rc != VKS_OK)
        b->failed = 1;
    return rc;
}

static void *to_arena(vks_skin *s, const vks_vec *v)
{
    void *p = vks_skin_alloc_array(s, v->count ? v->count : 1, v->elem);
    if (p && v->count)
        memcpy(p, v->data, v->count * v->elem);
    return p;
}

vks_result vks_builder_finish(vks_skin_builder *b, vks_error *err)
{
    if (!b)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "model", "out of memory");
    vks_skin *s = b->skin;
    vks_result rc = VKS_OK;
    if (b->failed) {
        rc = vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "model", "building the model failed");
        goto out;
    }
    s->meshes = to_arena(s, &b->meshes);
    s->groups = to_arena(s, &b->groups);
    s->bones = to_arena(s, &b->bones);
    s->palette = to_arena(s, &b->palette);
    s->positions = to_arena(s, &b->positions);
    s->normals = b->has_normals ? to_arena(s, &b->normals) : NULL;
    s->influences = to_arena(s, &b->influences);
    s->source_vertex = to_arena(s, &b->source);
    s->triangles = to_arena(s, &b->triangles);
    s->triangle_material = b->has_materials ? to_arena(s, &b->materials) : NULL;
    for (uint32_t k = 0; k < b->uv_sets; k++) /* the last meshes without set k: 0 */
        if (b->uv[k].count < b->positions.count && !vec_push(b, &b->uv[k], b->positions.count - b->uv[k].count)) {
            rc = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "model", "out of memory");
            goto out;
        }
    for (uint32_t k = 0; k < VKS_MAX_UV_SETS; k++)
        s->uv[k] = k < b->uv_sets ? to_arena(s, &b->uv[k]) : NULL;
    s->uv_set_count = b->uv_sets;
    for (uint32_t k = 0; k < b->uv_sets; k++)
        if (!s->uv[k]) {
            rc = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "model", "out of memory");
            goto out;
        }
    if (!s->meshes || !s->groups || !s->bones || !s->palette || !s->positions ||
        (b->has_normals && !s->normals) || !s->influences || !s->source_vertex || !s->triangles ||
        (b->has_materials && !s->triangle_material)) {
        rc = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "model", "out of memory");
        goto out;
    }
    s->mesh_count = (uint32_t)b->meshes.count;
    s->group_count = (uint32_t)b->groups.count;
    s->bone_count = (uint32_t)b->bones.count;
    s->palette_count = (uint32_t)b->palette.count;
    s->vertex_count = (uint32_t)b->positions.count;
    s->triangle_count = (uint32_t)b->triangles.count;
    s->weights = b->report;
    /* bones the float32 deformers cannot use are refused here, where every reader passes */
    rc = vks_skin_check_float32(s, err);
out:
    vks_builder_destroy(b);
    return rc;
}
