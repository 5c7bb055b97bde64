/* From a parsed P3D LOD and a skeleton to the canonical model (notes sections 5, 8, 9).
 *
 * Bones: the skeleton's bones (model.cfg or ODOL model info), else the --bones list as flat
 * roots. A bone takes the vertices of the named selection with its name (case-insensitive);
 * ODOL LODs bring their own per-vertex bone references instead. Per point the 4 largest
 * weights are kept (1 for isDiscrete skeletons) and renormalised.
 *
 * Points in no bone selection are static in the engine (they follow the model, not a bone):
 * they are bound to an extra root node "(model)" that only exists when such points do.
 *
 * P3D has no bind matrices: vertices are in model space and animation matrices map bind
 * model space to posed model space. The bind world of a bone is a translation to its pivot
 * (the memory LOD's selection named like the bone, or "<bone>_axis": the mean of its points;
 * otherwise the parent's pivot), the inverse bind its inverse, so skin matrices are the
 * identity at bind and procedural rotations turn limbs about their joints. S = identity.
 *
 * Groups: model.cfg sections[] selections split the triangles into separate runs first; each
 * run is cut greedily into groups of at most bone_limit bones (the palettes). Without
 * sections the builder's own palette-limited grouping does the same. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p3d_internal.h"
#include "vkskin/build.h"

/* A LOD's selections by name (the first of a name wins): looked up once per bone and
 * section, so a scan each time would be bones x selections. */
typedef struct sel_index {
    const p3d_lod *lod; /* NULL: no LOD, nothing found */
    p3d_name_map map;
} sel_index;

static int sel_index_build(p3d_pool *pool, sel_index *x, const p3d_lod *lod)
{
    memset(x, 0, sizeof *x);
    x->lod = lod;
    for (uint32_t i = 0; lod && i < lod->sel_count; i++)
        if (p3d_map_add(pool, &x->map, lod->sels[i].name, i) < 0)
            return 0;
    return 1;
}

static const p3d_sel *find_sel(const sel_index *x, const char *name)
{
    int32_t i = x->lod ? p3d_map_find(&x->map, name) : -1;
    return i < 0 ? NULL : &x->lod->sels[i];
}

static int pivot_of(const sel_index *mem, const char *bone, float out[3])
{
    const p3d_sel *s = find_sel(mem, bone);
    if (!s) {
        char axis[P3D_MAX_NAME + 8];
        snprintf(axis, sizeof axis, "%s_axis", bone);
        s = find_sel(mem, axis);
    }
    if (!s)
        return 0;
    double sum[3] = {0, 0, 0};
    uint32_t n = 0;
    if (s->weight) {
        for (uint32_t i = 0; i < mem->lod->point_count; i++)
            if (s->weight[i] > 0) {
                for (int k = 0; k < 3; k++)
                    sum[k] += mem->lod->points[i][k];
                n++;
            }
    } else {
        for (uint32_t j = 0; j < s->sparse_points; j++)
            if (s->point_weight[j] > 0) {
                for (int k = 0; k < 3; k++)
                    sum[k] += mem->lod->points[s->point[j]][k];
                n++;
            }
    }
    if (!n)
        return 0;
    for (int k = 0; k < 3; k++)
        out[k] = (float)(sum[k] / n);
    return 1;
}

/* Inserts (bone, w) keeping the slots sorted by weight, largest first. Returns the positive
   weight that no slot keeps (w itself, or the smallest it pushed out), 0 when none. */
static float keep_largest(int32_t bone[4], float weight[4], int32_t b, float w, int slots)
{
    if (!(w > 0))
        return 0;
    int pos = slots;
    while (pos > 0 && (bone[pos - 1] < 0 || weight[pos - 1] < w))
        pos--;
    if (pos >= slots)
        return w;
    float out = bone[slots - 1] >= 0 ? weight[slots - 1] : 0;
    for (int k = slots - 1; k > pos; k--) {
        bone[k] = bone[k - 1];
        weight[k] = weight[k - 1];
    }
    bone[pos] = b;
    weight[pos] = w;
    return out;
}

typedef struct bone_list {
    uint32_t count;
    const char **names;
    int32_t *parents;
} bone_list;

/* Splits "a, b,c" into names (trimmed, empty ones dropped, duplicates dropped). */
static vks_result bones_from_list(p3d_pool *pool, const char *list, bone_list *out, vks_error *err)
{
    size_t n = strlen(list), cap = 1;
    for (size_t i = 0; i < n; i++)
        cap += list[i] == ',';
    out->names = p3d_alloc(pool, cap, sizeof *out->names);
    out->parents = p3d_alloc(pool, cap, sizeof *out->parents);
    if (!out->names || !out->parents)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "p3d/bones", "out of memory");
    out->count = 0;
    const char *p = list;
    while (*p) {
        const char *e = strchr(p, ',');
        if (!e)
            e = p + strlen(p);
        const char *a = p, *b = e;
        while (a < b && (*a == ' ' || *a == '\t'))
            a++;
        while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
            b--;
        if (b > a) {
            char *name = p3d_strndup(pool, a, (size_t)(b - a));
            if (!name)
                return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "p3d/bones", "out of memory");
            int dup = 0;
            for (uint32_t i = 0; i < out->count && !dup; i++)
                dup = !p3d_stricmp(out->names[i], name);
            if (!dup) {
                out->names[out->count] = name;
                out->parents[out->count++] = -1;
            }
        }
        p = *e ? e + 1 : e;
    }
    return VKS_OK;
}

/* Greedy grouping of the triangles of one section run under limit bones. */
typedef struct grouping {
    vks_group_source *groups;
    uint32_t count, cap;
} grouping;

/* The bones triangle t adds to a group whose bones are marked stamp, into fresh (3 corners x 4
 * influences at most); their count. */
static uint32_t new_bones(const p3d_lod *lod, uint32_t t, const uint16_t (*vbone)[4], const float (*vweight)[4],
                          const uint32_t *mark, uint32_t stamp, uint16_t fresh[12])
{
    uint32_t add = 0;
    for (int c = 0; c < 3; c++)
        for (int s = 0; s < 4; s++) {
            uint32_t v = lod->tris[t][c];
            if (!(vweight[v][s] > 0))
                continue;
            uint16_t b = vbone[v][s];
            int seen = mark[b] == stamp;
            for (uint32_t j = 0; j < add && !seen; j++)
                seen = fresh[j] == b;
            if (!seen)
                fresh[add++] = b;
        }
    return add;
}

static vks_result group_sections(p3d_pool *pool, const p3d_lod *lod, const sel_index *lsel, const p3d_skeleton *skel,
                                 const uint16_t (*vbone)[4], const float (*vweight)[4], uint32_t bone_total,
                                 uint32_t limit, grouping *out, vks_error *err)
{
    /* section key per triangle: the first sections[] selection holding its face, else -1 */
    const p3d_sel **ssel = p3d_alloc(pool, skel->section_count + 1, sizeof *ssel);
    int32_t *key = p3d_alloc(pool, lod->tri_count, sizeof *key);
    uint32_t (*tris)[3] = p3d_alloc(pool, lod->tri_count, sizeof *tris);
    uint16_t *mats = p3d_alloc(pool, lod->tri_count, sizeof *mats);
    uint32_t *mark = p3d_alloc(pool, bone_total, sizeof *mark);
    out->groups = p3d_alloc(pool, lod->tri_count + 1, sizeof *out->groups);
    if (!ssel || !key || !tris || !mats || !mark || !out->groups)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "p3d/sections", "out of memory");
    /* each face's section: the first sections[] entry whose selection holds it, found by
       walking each selection once (not every section for every triangle) */
    int32_t *face_key = p3d_alloc(pool, lod->face_count, sizeof *face_key);
    uint8_t *walked = p3d_alloc(pool, lod->sel_count, 1);
    uint32_t *bucket = p3d_alloc(pool, (size_t)skel->section_count + 2, sizeof *bucket);
    uint32_t *order = p3d_alloc(pool, lod->tri_count, sizeof *order);
    if (!face_key || !walked || !bucket || !order)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "p3d/sections", "out of memory");
    for (uint32_t f = 0; f < lod->face_count; f++)
        face_key[f] = -1;
    for (uint32_t s = 0; s < skel->section_count; s++) {
        const p3d_sel *sel = ssel[s] = find_sel(lsel, skel->sections[s]);
        if (!sel || walked[sel - lod->sels])
            continue; /* a selection named again adds no face its first section did not take */
        walked[sel - lod->sels] = 1;
        if (sel->faces) {
            for (uint32_t f = 0; f < lod->face_count; f++)
                if (sel->faces[f] && face_key[f] < 0)
                    face_key[f] = (int32_t)s;
        } else {
            for (uint32_t j = 0; j < sel->sparse_faces; j++)
                if (face_key[sel->face[j]] < 0)
                    face_key[sel->face[j]] = (int32_t)s;
        }
    }
    /* triangles by key (-1 first), in triangle order within a key */
    for (uint32_t t = 0; t < lod->tri_count; t++) {
        key[t] = face_key[lod->tri_face[t]];
        bucket[key[t] + 2]++;
    }
    for (uint32_t k = 1; k < skel->section_count + 2; k++)
        bucket[k] += bucket[k - 1];
    for (uint32_t t = 0; t < lod->tri_count; t++)
        order[bucket[key[t] + 1]++] = t;
    uint32_t n = 0, stamp = 0, q = 0;
    for (int32_t k = -1; k < (int32_t)skel->section_count; k++) {
        uint32_t bones_in = 0, first = n;
        stamp++;
        vks_group_source *g = NULL;
        for (; q < lod->tri_count && key[order[q]] == k; q++) {
            uint32_t t = order[q];
            uint16_t fresh[12];
            uint32_t add = new_bones(lod, t, vbone, vweight, mark, stamp, fresh);
            if (!g || bones_in + add > limit) {
                g = &out->groups[out->count++];
                g->triangles = (const uint32_t(*)[3])(tris + n);
                g->triangle_material = mats + n;
                bones_in = 0;
                stamp++;
                first = n;
                /* recount this triangle's bones against the fresh group (no mark is the new stamp) */
                add = new_bones(lod, t, vbone, vweight, mark, stamp, fresh);
                if (add > limit)
                    return vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "p3d/sections",
                                         "triangle %u uses %u bones, over the bone limit %u", t, add, limit);
            }
            for (uint32_t j = 0; j < add; j++)
                mark[fresh[j]] = stamp;
            bones_in += add;
            memcpy(tris[n], lod->tris[t], sizeof tris[n]);
            mats[n] = lod->tri_material[t];
            n++;
            g->triangle_count = n - first;
        }
    }
    return VKS_OK;
}

/* Per point: up to 4 skeleton bones, largest first (one when the skeleton is discrete), from
   the LOD's own influences when it has them, else from the selections named after the bones;
   into *report, the points that had more (the toolchain keeps the 4 largest, formats/p3d.md)
   and the largest weight left out. Returns 0 when out of memory. */
static int point_influences(p3d_pool *pool, const p3d_lod *lod, const p3d_skeleton *skel, const sel_index *lsel,
                            int32_t (**pb_out)[4], float (**pw_out)[4], vks_weight_report *report)
{
    uint32_t nb = skel->bone_count;
    uint32_t np = lod->point_count;
    int slots = skel->is_discrete ? 1 : 4;
    int32_t (*pb)[4] = p3d_alloc(pool, np, sizeof *pb);
    float (*pw)[4] = p3d_alloc(pool, np, sizeof *pw);
    float *dropped = p3d_alloc(pool, np, sizeof *dropped); /* per point, the largest left out */
    if (!pb || !pw || !dropped)
        return 0;
    for (uint32_t i = 0; i < np; i++)
        for (int k = 0; k < 4; k++)
            pb[i][k] = -1;
#define KEEP(i, b, w)                                                                                        \
    do {                                                                                                     \
        float out_ = keep_largest(pb[i], pw[i], (b), (w), slots);                                            \
        dropped[i] = out_ > dropped[i] ? out_ : dropped[i];                                                  \
    } while (0)
    if (lod->inf_bone) {
        for (uint32_t i = 0; i < np; i++)
            for (int k = 0; k < 4; k++)
                if (lod->inf_bone[i][k] >= 0 && (uint32_t)lod->inf_bone[i][k] < nb)
                    KEEP(i, lod->inf_bone[i][k], lod->inf_weight[i][k]);
    } else {
        for (uint32_t b = 0; b < nb; b++) {
            const p3d_sel *s = find_sel(lsel, skel->names[b]);
            if (!s)
                continue;
            if (s->weight)
                for (uint32_t i = 0; i < np; i++)
                    KEEP(i, (int32_t)b, s->weight[i]);
            else
                for (uint32_t j = 0; j < s->sparse_points; j++)
                    KEEP(s->point[j], (int32_t)b, s->point_weight[j]);
        }
    }
#undef KEEP
    for (uint32_t i = 0; i < np; i++)
        if (dropped[i] > 0) {
            report->rule_dropped++;
            report->rule_dropped_max = dropped[i] > report->rule_dropped_max ? dropped[i] : report->rule_dropped_max;
        }
    *pb_out = pb;
    *pw_out = pw;
    return 1;
}

/* The skin's nodes: a static "(model)" node first when off is 1 (some vertex has no bone, or
   there is no skeleton), then the skeleton's bones placed at their pivots from the memory LOD
   (a bone without one sits at its parent's), and one bone per node whose inverse bind undoes
   that pivot. Returns 0 when out of memory. */
static int build_nodes(vks_skin *skin, p3d_pool *pool, const p3d_skeleton *skel, const sel_index *msel, uint32_t off,
                       vks_bone **bones_out)
{
    uint32_t nb = skel->bone_count;
    uint32_t nn = nb + off;
    skin->nodes = vks_skin_alloc_array(skin, nn, sizeof *skin->nodes);
    vks_bone *bones = p3d_alloc(pool, nn, sizeof *bones);
    float (*pivot)[3] = p3d_alloc(pool, nn, sizeof *pivot);
    if (!skin->nodes || !bones || !pivot)
        return 0;
    skin->node_count = nn;
    if (off) {
        skin->nodes[0].name = vks_skin_strndup(skin, "(model)", 7);
        skin->nodes[0].parent = -1;
        skin->nodes[0].bind_local = vks_affine_identity();
        if (!skin->nodes[0].name)
            return 0;
    }
    for (uint32_t b = 0; b < nb; b++) {
        uint32_t n = b + off;
        int32_t parent = skel->parents[b] >= 0 ? skel->parents[b] + (int32_t)off : -1;
        const char *name = skel->names[b];
        skin->nodes[n].name = vks_skin_strndup(skin, name, strlen(name));
        if (!skin->nodes[n].name)
            return 0;
        skin->nodes[n].parent = parent;
        if (!pivot_of(msel, name, pivot[n]) && parent >= 0)
            memcpy(pivot[n], pivot[parent], sizeof pivot[n]);
        vks_affine local = vks_affine_identity();
        for (int k = 0; k < 3; k++)
            local.m[9 + k] = pivot[n][k] - (parent >= 0 ? pivot[parent][k] : 0.0f);
        skin->nodes[n].bind_local = local;
    }
    for (uint32_t n = 0; n < nn; n++) {
        bones[n].node = n;
        bones[n].inverse_bind = vks_affine_identity();
        for (int k = 0; k < 3; k++)
            bones[n].inverse_bind.m[9 + k] = -pivot[n][k];
    }
    *bones_out = bones;
    return 1;
}

/* The render vertices of m (positions, bones, weights): a vertex takes its point's influences,
   renormalised, or the static node 0 when the point has none; the sum as decoded is kept for
   the validator. Returns 0 when out of memory. */
static int render_vertices(p3d_pool *pool, const p3d_lod *lod, int32_t (*pb)[4], float (*pw)[4], uint32_t off,
                           vks_mesh_source *m)
{
    uint32_t nv = lod->vertex_count;
    float (*pos)[3] = p3d_alloc(pool, nv, sizeof *pos);
    uint16_t (*vb)[4] = p3d_alloc(pool, nv, sizeof *vb);
    float (*vw)[4] = p3d_alloc(pool, nv, sizeof *vw);
    float *stored_sum = p3d_alloc(pool, nv, sizeof *stored_sum);
    if (!pos || !vb || !vw || !stored_sum)
        return 0;
    for (uint32_t v = 0; v < nv; v++) {
        uint32_t p = lod->vertex_point[v];
        memcpy(pos[v], lod->points[p], sizeof pos[v]);
        if (pb[p][0] < 0) {
            vb[v][0] = 0; /* the static node */
            vw[v][0] = 1.0f;
            stored_sum[v] = 1.0f;
            continue;
        }
        float sum = 0;
        for (int k = 0; k < 4; k++)
            if (pb[p][k] >= 0)
                sum += pw[p][k];
        stored_sum[v] = sum; /* the selections' weights as decoded, before Arma's renormalisation */
        for (int k = 0; k < 4; k++) {
            if (pb[p][k] < 0)
                continue;
            vb[v][k] = (uint16_t)(pb[p][k] + (int32_t)off);
            vw[v][k] = pw[p][k] / sum;
        }
    }
    m->vertex_count = nv;
    m->positions = (const float(*)[3])pos;
    m->bone = (const uint16_t(*)[4])vb;
    m->weight = (const float(*)[4])vw;
    m->stored_weight_sum = stored_sum;
    return 1;
}

/* The skin's materials, one per texture (.paa) and material (.rvmat) pair of the LOD. Returns
   0 when out of memory. */
static int add_materials(vks_skin *skin, const p3d_lod *lod)
{
    skin->materials = vks_skin_alloc_array(skin, lod->material_count, sizeof *skin->materials);
    if (!skin->materials)
        return 0;
    for (uint32_t k = 0; k < lod->material_count; k++) {
        vks_material *mt = &skin->materials[k];
        *mt = vks_material_default();
        mt->name = vks_skin_strndup(skin, lod->mat_name[k], strlen(lod->mat_name[k]));
        /* a procedural colour, "#(argb,8,8,3)color(r,g,b,a[,type])", is the base colour itself */
        float rgba[4];
        const char *tx = lod->mat_texture[k], *col = strstr(tx, ")color(");
        int solid = !strncmp(tx, "#(", 2) && col &&
                    sscanf(col, ")color(%f,%f,%f,%f", &rgba[0], &rgba[1], &rgba[2], &rgba[3]) == 4;
        for (int c = 0; solid && c < 4; c++)
            solid = rgba[c] >= 0 && rgba[c] <= 1;
        if (solid)
            memcpy(mt->base_color, rgba, sizeof rgba), tx = "";
        mt->base_texture = vks_skin_strndup(skin, tx, strlen(tx));
        if (!mt->name || !mt->base_texture)
            return 0;
    }
    skin->material_count = lod->material_count;
    return 1;
}

vks_result p3d_build_skin(vks_skin *skin, const p3d_build_in *in, vks_error *err)
{
    p3d_pool pool = p3d_pool_make(&skin->allocator);
    vks_result r = VKS_OK;
    const p3d_lod *lod = in->lod;
    const p3d_skeleton *skel = in->skel;
    const char *path = "p3d/skin";
#define NOMEM()                                                                                              \
    do {                                                                                                     \
        r = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory");                         \
        goto done;                                                                                           \
    } while (0)

    uint32_t nb = skel->bone_count;
    sel_index lsel, msel;
    if (!sel_index_build(&pool, &lsel, lod) || !sel_index_build(&pool, &msel, in->memory))
        NOMEM();

    int32_t (*pb)[4];
    float (*pw)[4];
    vks_weight_report rule = {0};
    if (!point_influences(&pool, lod, skel, &lsel, &pb, &pw, &rule))
        NOMEM();
    int need_static = 0;
    for (uint32_t v = 0; v < lod->vertex_count; v++)
        if (pb[lod->vertex_point[v]][0] < 0)
            need_static = 1;
    if (nb == 0)
        need_static = 1;
    uint32_t off = need_static ? 1u : 0u;
    uint32_t nn = nb + off;

    vks_bone *bones;
    if (!build_nodes(skin, &pool, skel, &msel, off, &bones))
        NOMEM();

    vks_mesh_source m = {0};
    m.name = in->mesh_name;
    if (!render_vertices(&pool, lod, pb, pw, off, &m))
        NOMEM();
    m.normals = (const float(*)[3])lod->vertex_normal;
    m.triangle_count = lod->tri_count;
    m.triangles = (const uint32_t(*)[3])lod->tris;
    m.triangle_material = lod->material_count > 1 ? lod->tri_material : NULL;
    m.bone_count = nn;
    m.bones = bones;
    m.space_node = -1;
    m.palette_limit = in->bone_limit;
    if (lod->vertex_uv)
        m.uv[0] = (const float(*)[2])lod->vertex_uv, m.uv_set_count = 1;
    if (lod->mat_texture && lod->material_count) {
        if (!add_materials(skin, lod))
            NOMEM();
        m.first_material = 0, m.material_count = lod->material_count;
    }

    int any_section = 0;
    for (uint32_t s = 0; s < skel->section_count; s++)
        any_section |= find_sel(&lsel, skel->sections[s]) != NULL;
    grouping gr = {0};
    if (any_section) {
        r = group_sections(&pool, lod, &lsel, skel, m.bone, m.weight, nn, in->bone_limit, &gr, err);
        if (r)
            goto done;
        if (!m.triangle_material)
            for (uint32_t g = 0; g < gr.count; g++)
                gr.groups[g].triangle_material = NULL;
        m.groups = gr.groups;
        m.group_count = gr.count;
    }

    vks_skin_builder *bld = vks_builder_create(skin);
    if (!bld)
        NOMEM();
    r = vks_builder_add_mesh(bld, &m, err);
    if (r) {
        vks_builder_destroy(bld);
        goto done;
    }
    r = vks_builder_finish(bld, err);
    if (r == VKS_OK) {
        /* The builder numbered the render vertices it was given (MLOD: one per distinct
           corner); the file's own vertex is the point (MLOD: its index in the LOD; ODOL: the
           LOD vertex, which is its own point), so outputs map back to points. Several model
           vertices may share a point; its position follows from the point alone. */
        vks_mesh *me = &skin->meshes[skin->mesh_count - 1];
        for (uint32_t v = me->first_vertex; v < me->first_vertex + me->vertex_count; v++)
            skin->source_vertex[v] = lod->vertex_point[skin->source_vertex[v]];
        me->source_vertex_count = lod->point_count;
        skin->weights.rule_dropped = rule.rule_dropped;
        skin->weights.rule_dropped_max = rule.rule_dropped_max;
    }
done:
    p3d_pool_free(&pool);
    return r;
#undef NOMEM
}

/* The bone list when there is no skeleton: the --bones option. */
vks_result p3d_bones_option(p3d_pool *pool, const char *list, p3d_skeleton *skel, vks_error *err)
{
    bone_list bl = {0};
    vks_result r = bones_from_list(pool, list, &bl, err);
    if (r)
        return r;
    skel->bone_count = bl.count;
    skel->names = bl.names;
    skel->parents = bl.parents;
    return VKS_OK;
}
