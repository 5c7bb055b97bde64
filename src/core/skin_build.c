/* The model builder (see include/vkskin/build.h). Temporary arrays use the skin's allocator;
 * the finished arrays are copied into the skin's arena. */
#include "vkskin/build.h"

#include "core/vec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PALETTE 65535u

struct vks_skin_builder {
    vks_skin *skin;
    vks_vec meshes, groups, bones, palette, positions, normals, influences, source, triangles, materials;
    int has_normals, has_materials;
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
    const uint16_t (*bone)[4];
    const float (*weight)[4];
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
static uint32_t bones_of(const vks_mesh_source *m, const uint16_t (*bone)[4], const float (*weight)[4],
                         const uint32_t *verts, uint32_t nverts, uint16_t *out)
{
    (void)m;
    uint32_t n = 0;
    for (uint32_t i = 0; i < nverts; i++)
        for (int k = 0; k < 4; k++) {
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
static int takes_as_is(const plan_group *g, int fixed_or_auto, const uint16_t (*mb)[4], const uint16_t *need,
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
static int first_non_finite(const float (*w)[4], uint32_t n, uint32_t *vertex, uint32_t *slot)
{
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t k = 0; k < 4; k++)
            if (!isfinite(w[v][k])) {
                *vertex = v, *slot = k;
                return 1;
            }
    return 0;
}

/* One file vertex into the weight report: its stored sum (the reader's, when it normalised
   by its format's rule before handing the weights over) and what the layout will repair. */
static void report_vertex(vks_weight_report *r, const float w[4], const float *stored_sum)
{
    double sum = 0;
    int positive = 0, negative = 0;
    for (int k = 0; k < 4; k++) {
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

static vks_result add_mesh(vks_skin_builder *b, const vks_mesh_source *m, vks_error *err)
{
    vks_skin *s = b->skin;
    const char *mname = m->name ? m->name : "";
    vks_result rc = VKS_OK;
    if (b->failed)
        return fail(err, VKS_ERR_INVALID, mname, "an earlier step of building the model failed", 0, 0, 0);
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

    /* Every influence slot in use must name one of the mesh's bones. The mesh's influences
       may only be absent when every file group brings its own. */
    const uint16_t (*mb)[4] = m->bone;
    const float (*mw)[4] = m->weight;
    if (!mb != !mw)
        return fail(err, VKS_ERR_INVALID, mname, "bone indices without weights or weights without bone indices",
                    0, 0, 0);
    if (!mb && m->vertex_count && m->group_count == 0)
        return fail(err, VKS_ERR_INVALID, mname, "mesh has no influences", 0, 0, 0);
    uint32_t bad_v, bad_k;
    if (mw && first_non_finite(mw, m->vertex_count, &bad_v, &bad_k))
        return fail(err, VKS_ERR_FORMAT, mname, "vertex %llu slot %llu: weight is not finite", bad_v, bad_k, 0);
    for (uint32_t v = 0; v < m->vertex_count && mb; v++)
        for (int k = 0; k < 4; k++)
            if (mw[v][k] > 0 && mb[v][k] >= m->bone_count)
                return fail(err, VKS_ERR_FORMAT, mname, "vertex %llu names bone %llu, bone count %llu", v,
                            mb[v][k], m->bone_count);

    uint32_t limit = m->palette_limit ? m->palette_limit : m->bone_count;
    if (limit > MAX_PALETTE)
        limit = MAX_PALETTE;
    uint32_t cap = m->group_count + 64, count = 0;
    plan_group *gs = tmp_alloc(b, cap, sizeof *gs);
    uint32_t *group_of = tmp_alloc(b, m->vertex_count, sizeof *group_of); /* first group reaching v, +1 */
    uint32_t *model_index = tmp_alloc(b, m->vertex_count, sizeof *model_index);
    uint8_t *used = tmp_alloc(b, m->vertex_count, 1);
    int32_t *home = tmp_alloc(b, m->bone_count, sizeof *home); /* bone -> latest group holding it */
    if (!gs || !group_of || !model_index || !used || !home) {
        rc = fail(err, VKS_ERR_NOMEM, mname, "out of memory for %llu vertices", m->vertex_count, 0, 0);
        goto done;
    }

    /* 1. The file's own groups. */
    for (uint32_t gi = 0; gi < m->group_count; gi++) {
        const vks_group_source *src = &m->groups[gi];
        plan_group *g = &gs[count++];
        g->tri_src = src->triangles;
        g->mat_src = src->triangle_material;
        g->bone = src->bone ? src->bone : mb;
        g->weight = src->weight ? src->weight : mw;
        g->extra = src->vertices;
        g->extra_count = src->vertex_count;
        g->flags = src->flags;
        if (!src->bone != !src->weight) {
            rc = fail(err, VKS_ERR_INVALID, mname, "group %llu has bone indices or weights, not both", gi, 0, 0);
            goto done;
        }
        if (!g->bone || !g->weight) {
            rc = fail(err, VKS_ERR_INVALID, mname, "group %llu has no influences", gi, 0, 0);
            goto done;
        }
        for (uint32_t t = 0; t < src->triangle_count; t++) {
            for (int k = 0; k < 3; k++)
                if (src->triangles[t][k] >= m->vertex_count) {
                    rc = fail(err, VKS_ERR_FORMAT, mname, "group %llu triangle %llu: vertex index %llu out of range",
                              gi, t, src->triangles[t][k]);
                    goto done;
                }
            if (!grow_u32(b, &g->tris, &g->tri_count, &g->tri_cap, t)) {
                rc = fail(err, VKS_ERR_NOMEM, mname, "out of memory", 0, 0, 0);
                goto done;
            }
        }
        for (uint32_t i = 0; i < src->vertex_count; i++)
            if (src->vertices[i] >= m->vertex_count) {
                rc = fail(err, VKS_ERR_FORMAT, mname, "group %llu vertex %llu out of range %llu", gi,
                          src->vertices[i], m->vertex_count);
                goto done;
            }
        if (src->weight && first_non_finite(src->weight, m->vertex_count, &bad_v, &bad_k)) {
            rc = fail(err, VKS_ERR_FORMAT, mname, "group %llu vertex %llu: weight is not finite", gi, bad_v, 0);
            goto done;
        }
        if (src->bone)
            for (uint32_t v = 0; v < m->vertex_count; v++)
                for (int k = 0; k < 4; k++)
                    if (src->weight[v][k] > 0 && src->bone[v][k] >= m->bone_count) {
                        rc = fail(err, VKS_ERR_FORMAT, mname, "group vertex %llu names bone %llu, bone count %llu",
                                  v, src->bone[v][k], m->bone_count);
                        goto done;
                    }
        if (src->palette) {
            g->fixed_palette = 1;
            for (uint32_t i = 0; i < src->palette_count; i++) {
                if (src->palette[i] >= m->bone_count) {
                    rc = fail(err, VKS_ERR_FORMAT, mname, "group %llu palette names bone %llu, bone count %llu",
                              gi, src->palette[i], m->bone_count);
                    goto done;
                }
                if (!palette_add(b, g, src->palette[i])) {
                    rc = fail(err, VKS_ERR_NOMEM, mname, "out of memory", 0, 0, 0);
                    goto done;
                }
            }
        }
    }
    /* (palettes of the file's groups are filled in step 3, once their vertices are known) */
    for (uint32_t k = 0; k < m->bone_count; k++)
        home[k] = -1;
    for (uint32_t gi = 0; gi < count; gi++)
        if (gs[gi].fixed_palette)
            for (uint32_t i = 0; i < m->groups[gi].palette_count; i++)
                if (home[m->groups[gi].palette[i]] < 0)
                    home[m->groups[gi].palette[i]] = (int32_t)gi;

    /* 2. Auto groups from the mesh's triangles (only when the file gives none). */
    uint32_t first_auto = count;
    if (m->group_count == 0) {
        if (!m->palette_limit) {
            plan_group *g = &gs[count++];
            g->tri_src = m->triangles;
            g->mat_src = m->triangle_material;
            g->bone = mb;
            g->weight = mw;
            g->fixed_palette = 2; /* all bones in order */
        }
        for (uint32_t t = 0; t < m->triangle_count; t++) {
            for (int k = 0; k < 3; k++)
                if (m->triangles[t][k] >= m->vertex_count) {
                    rc = fail(err, VKS_ERR_FORMAT, mname, "triangle %llu: vertex index %llu >= vertex count %llu", t,
                              m->triangles[t][k], m->vertex_count);
                    goto done;
                }
            int gi = m->palette_limit ? -2 : (int)first_auto;
            if (gi == -2) {
                uint16_t need[12];
                uint32_t nn = bones_of(m, mb, mw, m->triangles[t], 3, need);
                if (nn > limit) {
                    rc = fail(err, VKS_ERR_LIMIT, mname, "triangle %llu needs %llu bones, palette limit %llu", t, nn, limit);
                    goto done;
                }
                gi = find_fit(gs, first_auto, count, count ? count - 1 : 0, home, need, nn, limit);
                if (gi < 0) {
                    if (count == cap) {
                        plan_group *ng = tmp_alloc(b, cap * 2, sizeof *ng);
                        if (!ng) {
                            rc = fail(err, VKS_ERR_NOMEM, mname, "out of memory", 0, 0, 0);
                            goto done;
                        }
                        memcpy(ng, gs, cap * sizeof *gs);
                        tmp_free(b, gs);
                        gs = ng;
                        cap *= 2;
                    }
                    gi = (int)count++;
                    gs[gi].tri_src = m->triangles;
                    gs[gi].mat_src = m->triangle_material;
                    gs[gi].bone = mb;
                    gs[gi].weight = mw;
                }
                for (uint32_t k = 0; k < nn; k++) {
                    if (!palette_add(b, &gs[gi], need[k])) {
                        rc = fail(err, VKS_ERR_NOMEM, mname, "out of memory", 0, 0, 0);
                        goto done;
                    }
                    home[need[k]] = gi;
                }
            }
            if (!grow_u32(b, &gs[gi].tris, &gs[gi].tri_count, &gs[gi].tri_cap, t)) {
                rc = fail(err, VKS_ERR_NOMEM, mname, "out of memory", 0, 0, 0);
                goto done;
            }
        }
    }

    /* 3. Which vertices each group reaches; leftovers go to a group with room. */
    for (uint32_t gi = 0; gi < count; gi++) {
        plan_group *g = &gs[gi];
        for (uint32_t i = 0; i < g->tri_count; i++)
            for (int k = 0; k < 3; k++) {
                uint32_t v = g->tri_src[g->tris[i]][k];
                if (!group_of[v])
                    group_of[v] = gi + 1;
            }
        for (uint32_t i = 0; i < g->extra_count; i++)
            if (!group_of[g->extra[i]])
                group_of[g->extra[i]] = gi + 1;
    }
    for (uint32_t v = 0; v < m->vertex_count; v++) {
        if (group_of[v])
            continue;
        if (!mb) {
            rc = fail(err, VKS_ERR_INVALID, mname,
                      "vertex %llu is in no group and the mesh has no influences of its own", v, 0, 0);
            goto done;
        }
        uint16_t need[4];
        uint32_t nn = bones_of(m, mb, mw, &v, 1, need);
        int gi = -1;
        /* a file group or the all-bones group may take it when the bones are in its palette:
           every group while they are few, else the groups its bones live in */
        if (count <= FULL_SCAN_GROUPS) {
            for (uint32_t c = 0; c < count && gi < 0; c++)
                if (takes_as_is(&gs[c], gs[c].fixed_palette || c >= first_auto, mb, need, nn))
                    gi = (int)c;
        } else {
            if (first_auto < count && gs[first_auto].fixed_palette == 2)
                gi = (int)first_auto; /* the all-bones group takes anything */
            for (uint32_t k = 0; k < nn && gi < 0; k++) {
                int32_t c = home[need[k]];
                if (c >= 0 && takes_as_is(&gs[c], gs[c].fixed_palette || (uint32_t)c >= first_auto, mb, need, nn))
                    gi = c;
            }
        }
        if (gi < 0 && count > first_auto)
            gi = find_fit(gs, first_auto, count, count - 1, home, need, nn, limit);
        if (gi < 0) {
            if (count == cap) {
                plan_group *ng = tmp_alloc(b, cap * 2, sizeof *ng);
                if (!ng) {
                    rc = fail(err, VKS_ERR_NOMEM, mname, "out of memory", 0, 0, 0);
                    goto done;
                }
                memcpy(ng, gs, cap * sizeof *gs);
                tmp_free(b, gs);
                gs = ng;
                cap *= 2;
            }
            gi = (int)count++;
            gs[gi].bone = mb;
            gs[gi].weight = mw;
            if (first_auto > (uint32_t)gi)
                first_auto = (uint32_t)gi;
        }
        if (!gs[gi].fixed_palette)
            for (uint32_t k = 0; k < nn; k++) {
                if (!palette_add(b, &gs[gi], need[k])) {
                    rc = fail(err, VKS_ERR_NOMEM, mname, "out of memory", 0, 0, 0);
                    goto done;
                }
                home[need[k]] = gi;
            }
        if (!grow_u32(b, &gs[gi].extra_own, &gs[gi].extra_own_count, &gs[gi].extra_own_cap, v)) {
            rc = fail(err, VKS_ERR_NOMEM, mname, "out of memory", 0, 0, 0);
            goto done;
        }
        group_of[v] = (uint32_t)gi + 1;
    }

    /* The weight report, per file vertex, from the table of the first group that reaches it
       (the one its first copy is laid out with). */
    for (uint32_t v = 0; v < m->vertex_count; v++) {
        const float (*tw)[4] = gs[group_of[v] - 1].weight;
        report_vertex(&b->report, tw[v], tw == mw && m->stored_weight_sum ? &m->stored_weight_sum[v] : NULL);
    }

    /* 4. Lay the groups out: vertices ascending by file index, triangles re-indexed. */
    uint32_t mesh_first_vertex = (uint32_t)b->positions.count;
    vks_mesh *me = vec_push(b, &b->meshes, 1);
    if (!me)
        goto nomem;
    uint32_t mesh_index = (uint32_t)b->meshes.count - 1;
    me->name = vks_skin_strndup(s, mname, strlen(mname));
    me->first_vertex = mesh_first_vertex;
    me->first_triangle = (uint32_t)b->triangles.count;
    me->first_group = (uint32_t)b->groups.count;
    me->first_bone = (uint32_t)b->bones.count;
    me->bone_count = m->bone_count;
    me->source_vertex_count = m->vertex_count;
    me->space_node = m->space_node;
    int pre_zero = 1;
    for (int i = 0; i < 12; i++)
        pre_zero &= m->space_pre.m[i] == 0.0f;
    me->space_pre = pre_zero ? vks_affine_identity() : m->space_pre;
    me->flags = m->flags | (m->normals ? VKS_MESH_HAS_NORMALS : 0);
    if (!me->name)
        goto nomem;
    if (m->normals)
        b->has_normals = 1;
    vks_bone *bo = vec_push(b, &b->bones, m->bone_count);
    if (!bo)
        goto nomem;
    memcpy(bo, m->bones, m->bone_count * sizeof *bo);
    for (uint32_t i = 0; i < m->bone_count; i++)
        bo[i].node = m->bones[i].node;

    for (uint32_t gi = 0; gi < count; gi++) {
        plan_group *g = &gs[gi];
        memset(used, 0, m->vertex_count);
        for (uint32_t i = 0; i < g->tri_count; i++)
            for (int k = 0; k < 3; k++)
                used[g->tri_src[g->tris[i]][k]] = 1;
        for (uint32_t i = 0; i < g->extra_count; i++)
            used[g->extra[i]] = 1;
        for (uint32_t i = 0; i < g->extra_own_count; i++)
            used[g->extra_own[i]] = 1;
        /* palette: the file's, all bones, or the sorted bones in use */
        uint16_t *pal = NULL;
        uint32_t npal = 0;
        if (g->fixed_palette == 2) {
            npal = m->bone_count;
        } else if (gi < m->group_count && m->groups[gi].palette) {
            npal = m->groups[gi].palette_count;
        } else {
            for (uint32_t v = 0; v < m->vertex_count; v++)
                if (used[v])
                    for (int k = 0; k < 4; k++)
                        if (g->weight[v][k] > 0 && !palette_add(b, g, g->bone[v][k]))
                            goto nomem;
            /* vertices without any positive weight follow slot 0; give such a group bone 0 */
            if (g->palette_count == 0 && !palette_add(b, g, 0))
                goto nomem;
            qsort(g->palette, g->palette_count, sizeof *g->palette, cmp_u16);
            npal = g->palette_count;
        }
        if (npal > MAX_PALETTE || npal == 0) {
            rc = fail(err, VKS_ERR_LIMIT, mname, "group %llu palette of %llu bones outside 1..%llu", gi, npal, MAX_PALETTE);
            goto done;
        }
        uint32_t first_palette = (uint32_t)b->palette.count;
        pal = vec_push(b, &b->palette, npal);
        if (!pal)
            goto nomem;
        for (uint32_t i = 0; i < npal; i++) {
            uint32_t mbone = g->fixed_palette == 2 ? i
                             : (gi < m->group_count && m->groups[gi].palette) ? m->groups[gi].palette[i]
                                                                               : g->palette[i];
            pal[i] = (uint16_t)(me->first_bone + mbone);
        }
        /* slot lookup: mesh bone -> palette slot (first occurrence) */
        uint32_t *slot = tmp_alloc(b, m->bone_count, sizeof *slot);
        if (!slot)
            goto nomem;
        for (uint32_t i = 0; i < m->bone_count; i++)
            slot[i] = UINT32_MAX;
        for (uint32_t i = npal; i-- > 0;)
            slot[pal[i] - me->first_bone] = i;

        vks_group *gr = vec_push(b, &b->groups, 1);
        if (!gr) {
            tmp_free(b, slot);
            goto nomem;
        }
        gr->mesh = mesh_index;
        gr->first_vertex = (uint32_t)b->positions.count;
        gr->first_palette = first_palette;
        gr->palette_count = npal;
        gr->flags = g->flags;
        gr->max_influences = 1;
        for (uint32_t v = 0; v < m->vertex_count; v++) {
            if (!used[v])
                continue;
            float *p = vec_push(b, &b->positions, 1);
            float *n = vec_push(b, &b->normals, 1);
            vks_influence *in = vec_push(b, &b->influences, 1);
            uint32_t *sv = vec_push(b, &b->source, 1);
            if (!p || !n || !in || !sv) {
                tmp_free(b, slot);
                goto nomem;
            }
            memcpy(p, m->positions[v], 12);
            if (m->normals)
                memcpy(n, m->normals[v], 12);
            *sv = v;
            model_index[v] = (uint32_t)(b->positions.count - 1 - mesh_first_vertex);
            uint32_t u = 0;
            for (int k = 0; k < 4; k++) {
                float w = g->weight[v][k];
                if (!(w > 0))
                    continue;
                uint32_t sl = slot[g->bone[v][k]];
                if (sl == UINT32_MAX) {
                    tmp_free(b, slot);
                    rc = fail(err, VKS_ERR_FORMAT, mname,
                              "vertex %llu uses bone %llu, which is not in its group's palette (group %llu)", v,
                              g->bone[v][k], gi);
                    goto done;
                }
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
        tmp_free(b, slot);
        gr->vertex_count = (uint32_t)b->positions.count - gr->first_vertex;
        gr->first_triangle = (uint32_t)b->triangles.count;
        for (uint32_t i = 0; i < g->tri_count; i++) {
            uint32_t *t = vec_push(b, &b->triangles, 1);
            if (!t)
                goto nomem;
            for (int k = 0; k < 3; k++)
                t[k] = model_index[g->tri_src[g->tris[i]][k]];
            uint16_t *mat = vec_push(b, &b->materials, 1);
            if (!mat)
                goto nomem;
            if (g->mat_src) {
                *mat = g->mat_src[g->tris[i]];
                b->has_materials = 1;
            }
        }
        gr->triangle_count = (uint32_t)b->triangles.count - gr->first_triangle;
        me = (vks_mesh *)b->meshes.data + mesh_index; /* vec_push may have moved nothing here, but stay safe */
    }
    me = (vks_mesh *)b->meshes.data + mesh_index;
    me->vertex_count = (uint32_t)b->positions.count - mesh_first_vertex;
    me->triangle_count = (uint32_t)b->triangles.count - me->first_triangle;
    me->group_count = (uint32_t)b->groups.count - me->first_group;
    if (b->positions.count > UINT32_MAX / 2) {
        rc = fail(err, VKS_ERR_LIMIT, mname, "model has %llu vertices", b->positions.count, 0, 0);
        goto done;
    }
    goto done;
nomem:
    rc = fail(err, VKS_ERR_NOMEM, mname, "out of memory building the model", 0, 0, 0);
done:
    if (gs)
        for (uint32_t gi = 0; gi < count; gi++) {
            tmp_free(b, gs[gi].palette);
            tmp_free(b, gs[gi].tris);
            tmp_free(b, gs[gi].extra_own);
        }
    tmp_free(b, gs);
    tmp_free(b, group_of);
    tmp_free(b, model_index);
    tmp_free(b, used);
    tmp_free(b, home);
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
