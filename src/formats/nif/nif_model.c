/* Parsed NIF blocks -> the canonical model (DESIGN.md section 4) through the builder.
 *
 * Skeleton: every NiNode-family block, parents taken from the Children lists (first parent
 * wins, cycles broken), in block order wherever that already puts parents first.
 * One mesh per skinned NiTriShape / NiTriStrips / BSTriShape:
 *   bones          NiSkinInstance.Bones[i] with inverse bind S2B_i (NiSkinData per bone)
 *   skin space     space_node = the skeleton root, space_pre = NiSkinData's overall transform,
 *                  so K_i = Overall * W(root)^-1 * W(bone_i) * S2B_i (nif.md 6.2)
 *   weights        NiSkinData's when it stores them, otherwise the partitions' (SSE: the
 *                  vertex buffer's). Rule for any source: the 4 largest positive weights of
 *                  a vertex, divided by their sum (nif.md 4.9: sums need not be 1, e.g. the
 *                  PyNifly cone; with the rule its NiSkinData and partition weights agree).
 *   groups         one per NiSkinPartition partition: its palette, its vertex map and its
 *                  triangles (strips converted). Where a vertex's weights use a bone outside
 *                  a partition's palette, that group takes the partition's own weights.
 *   normals        renormalised after blending (VKS_MESH_RENORMALIZE), as nifskope does
 *                  and OpenMW's shaders do.
 * Then one mesh per shape without a skin instance under a node (a rigid part: a helmet or a
 * sword under a bone, a body part under an animated node), after the skinned ones in block
 * order: one group on its parent node, weight 1, inverse bind = the shape's own transform, so
 * K = W(parent) * T(shape), vertices in shape space as stored, flagged VKS_GROUP_RIGID, in the
 * first skinned shape's skin space (the world's when none is skinned).
 * Matrices: R[row][col] = r[3*row + col] (row-major for column vectors, nif.md 5). */
#include "nif_internal.h"
#include "core/vec.h"
#include "vkskin/build.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct model_ctx {
    const nif_file *f;
    vks_skin *skin;
    vks_error *err;
    int32_t *node_of; /* block -> node index or -1 */
    uint64_t file_vertices; /* vertices the geometry blocks hold, each block once */
    uint64_t file_triangles, drawn_triangles; /* the same for triangles; what the meshes draw */
    vks_vec materials; /* vks_material per shape with a material or texturing property */
    uint32_t rule_dropped;   /* vertices whose stored weights the rule kept to 4 (skin->weights) */
    float rule_dropped_max;  /* the largest weight so left out */
    uint32_t *mesh_block;    /* the shape block of each mesh added (nif_morph_attach) */
    uint32_t mesh_count;
} model_ctx;

/* how many times over the file's own vertices the skinned shapes may draw them */
#define NIF_MAX_SHARING 16u

static vks_affine to_affine(const nif_xform *x)
{
    vks_affine a;
    for (int row = 0; row < 3; row++) {
        for (int col = 0; col < 3; col++)
            a.m[col * 3 + row] = x->s * x->r[3 * row + col];
        a.m[9 + row] = x->t[row];
    }
    return a;
}

static int finite3(const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return 0;
    return 1;
}

/* The transform as the model stores it (s * R, t) is finite: a huge finite scale times a
   huge finite rotation entry is not. */
static int finite_xform(const nif_xform *x)
{
    vks_affine a = to_affine(x);
    return vks_affine_is_finite(&a);
}

static void *tmp(const nif_file *f, uint64_t count, size_t elem)
{
    if (count == 0)
        count = 1;
    return count <= SIZE_MAX / elem ? vks_skin_alloc_array(f->scratch, (size_t)count, elem) : NULL;
}

static vks_result fail_block(model_ctx *m, vks_result code, uint32_t block, const char *field, const char *fmt,
                             unsigned long long a, unsigned long long b, unsigned long long c)
{
    char path[128];
    const nif_block *bl = &m->f->blocks[block];
    snprintf(path, sizeof path, "nif/block[%u] %s/%s", block, bl->type, field);
    vks_error_set(m->err, code, bl->offset, path, fmt, a, b, c);
    return code;
}

static const nif_block *ref(const nif_file *f, int32_t r, nif_kind kind)
{
    if (r < 0 || (uint32_t)r >= f->block_count || f->blocks[r].kind != kind)
        return NULL;
    return &f->blocks[r];
}

/* ---- skeleton ---- */

static vks_result build_nodes(model_ctx *m)
{
    const nif_file *f = m->f;
    uint32_t nb = f->block_count, count = 0;
    int32_t *parent = tmp(f, nb, sizeof *parent), *stack = tmp(f, nb, sizeof *stack);
    uint8_t *state = tmp(f, nb, 1); /* 0 new, 1 on the stack, 2 emitted */
    m->node_of = tmp(f, nb, sizeof *m->node_of);
    if (!parent || !stack || !state || !m->node_of)
        return vks_error_set(m->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "nif/nodes", "out of memory");
    for (uint32_t i = 0; i < nb; i++) {
        parent[i] = -1, m->node_of[i] = -1;
        count += f->blocks[i].kind == NIF_K_NODE;
    }
    if (count > f->opt.max_nodes)
        return vks_error_set(m->err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "nif/nodes", "%u nodes is over the limit %u",
                             count, f->opt.max_nodes);
    for (uint32_t i = 0; i < nb; i++) {
        const nif_block *b = &f->blocks[i];
        if (b->kind != NIF_K_NODE)
            continue;
        for (uint32_t k = 0; k < b->u.node.child_count; k++) {
            int32_t c = b->u.node.children[k];
            if (ref(f, c, NIF_K_NODE) && (uint32_t)c != i && parent[c] < 0)
                parent[c] = (int32_t)i;
        }
    }
    vks_node *nodes = vks_skin_alloc_array(m->skin, count ? count : 1, sizeof *nodes);
    if (!nodes)
        return vks_error_set(m->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "nif/nodes", "out of memory");
    uint32_t out = 0;
    for (uint32_t i = 0; i < nb; i++) {
        if (f->blocks[i].kind != NIF_K_NODE || state[i] == 2)
            continue;
        /* climb to the first emitted ancestor (or a root), then emit top-down */
        uint32_t sp = 0;
        int32_t p = (int32_t)i;
        while (p >= 0 && state[p] == 0) {
            state[p] = 1;
            stack[sp++] = p;
            p = parent[p];
        }
        if (p >= 0 && state[p] == 1) /* a cycle: the topmost node becomes a root */
            parent[stack[sp - 1]] = -1;
        while (sp > 0) {
            int32_t b = stack[--sp];
            const nif_node *nd = &f->blocks[b].u.node;
            if (!finite_xform(&nd->xf))
                return vks_error_set(m->err, VKS_ERR_FORMAT, f->blocks[b].offset, "nif/node",
                                     "block %d: transform is not finite", (int)b);
            vks_node *n = &nodes[out];
            n->name = vks_skin_strndup(m->skin, nd->name, strlen(nd->name));
            n->parent = parent[b] >= 0 ? m->node_of[parent[b]] : -1;
            n->bind_local = to_affine(&nd->xf);
            if (!n->name)
                return vks_error_set(m->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "nif/nodes", "out of memory");
            m->node_of[b] = (int32_t)out++;
            state[b] = 2;
        }
    }
    m->skin->nodes = nodes;
    m->skin->node_count = count;
    return VKS_OK;
}

/* ---- influences ---- */

/* Adds (b, w) to a vertex's 4 slots, keeping the largest. Returns the positive weight that
   no slot keeps (w, or the one it replaced), 0 when none. */
static float add_influence(uint16_t bone[4], float weight[4], uint16_t b, float w)
{
    if (!(w > 0) || !(w < 1e30f)) /* not positive, NaN, inf or absurd: ignored */
        return 0;
    int k = 0;
    for (; k < 4; k++) {
        if (weight[k] > 0 && bone[k] == b) { /* the same bone twice: add up */
            weight[k] += w;
            return 0;
        }
    }
    /* replace the smallest slot when the new weight is larger (empty slots are 0) */
    int lo = 0;
    for (k = 1; k < 4; k++)
        if (weight[k] < weight[lo])
            lo = k;
    if (!(w > weight[lo]))
        return w;
    float out = weight[lo];
    bone[lo] = b;
    weight[lo] = w;
    return out;
}

/* The rule: the 4 largest positive weights, scaled to sum 1. stored_sum (may be NULL) gets
   each vertex's sum before the scaling, for the model's weight report. */
static void normalise(uint16_t (*bone)[4], float (*weight)[4], uint32_t n, float *stored_sum)
{
    for (uint32_t v = 0; v < n; v++) {
        /* used slots first, largest first */
        for (int a = 0; a < 4; a++)
            for (int b = a + 1; b < 4; b++)
                if (weight[v][b] > weight[v][a]) {
                    float tw = weight[v][a];
                    uint16_t tb = bone[v][a];
                    weight[v][a] = weight[v][b], bone[v][a] = bone[v][b];
                    weight[v][b] = tw, bone[v][b] = tb;
                }
        double sum = 0;
        for (int k = 0; k < 4; k++)
            sum += weight[v][k] > 0 ? weight[v][k] : 0;
        if (stored_sum)
            stored_sum[v] = (float)sum;
        /* already normalised to float precision: kept exactly as the file stores it */
        if (!(sum > 0) || sum > 1e30 || (sum > 1.0 - 1e-6 && sum < 1.0 + 1e-6))
            continue;
        for (int k = 0; k < 4; k++) {
            if (weight[v][k] > 0)
                weight[v][k] = (float)(weight[v][k] / sum);
            else
                weight[v][k] = 0, bone[v][k] = 0;
        }
    }
}

/* Influences of partition vertex lv (mesh bone indices), the 4 largest where the partition
   stores more (dropped, may be NULL, gets the largest left out, 0 when none); 0 on a bad index. */
static int partition_vertex(const nif_partition *p, uint32_t lv, uint32_t bone_count, uint16_t bone[4],
                            float weight[4], float *dropped)
{
    uint32_t nw = p->weights_per_vertex;
    for (uint32_t j = 0; j < nw; j++) {
        float w = p->weights ? p->weights[(size_t)lv * nw + j] : (j == 0 ? 1.0f : 0.0f);
        if (!(w > 0))
            continue;
        uint32_t local = p->bone_indices ? p->bone_indices[(size_t)lv * nw + j] : j;
        if (local >= p->bone_count || p->bones[local] >= bone_count)
            return 0;
        float out = add_influence(bone, weight, p->bones[local], w);
        if (dropped && out > *dropped)
            *dropped = out;
    }
    return 1;
}

/* ---- one skinned shape ---- */

typedef struct shape_in {
    uint32_t block;
    const char *name;
    const nif_skininst *inst;
    const nif_skindata *data;
    const nif_skinpart *part; /* NULL: none */
    uint32_t vertex_count, triangle_count;
    const float (*positions)[3];
    const float (*normals)[3];
    const uint32_t (*triangles)[3];
    uint32_t uv_sets;
    const float (*const *uv)[2];
} shape_in;

static vks_result resolve_shape(model_ctx *m, uint32_t i, shape_in *s)
{
    const nif_file *f = m->f;
    const nif_block *b = &f->blocks[i];
    const nif_shape *sh = &b->u.shape;
    const nif_block *ib = ref(f, sh->skin, NIF_K_SKININST);
    memset(s, 0, sizeof *s);
    s->block = i;
    s->name = sh->name;
    if (!ib)
        return fail_block(m, VKS_ERR_FORMAT, i, "skin_instance", "ref %lld is not an NiSkinInstance block%llu%llu",
                          (unsigned long long)(long long)sh->skin, 0, 0);
    s->inst = &ib->u.inst;
    const nif_block *db = ref(f, s->inst->data, NIF_K_SKINDATA);
    if (!db)
        return fail_block(m, VKS_ERR_FORMAT, (uint32_t)sh->skin, "data", "ref %lld is not an NiSkinData block%llu%llu",
                          (unsigned long long)(long long)s->inst->data, 0, 0);
    s->data = &db->u.data;
    int32_t pr = s->inst->partition >= 0 ? s->inst->partition : s->data->partition;
    if (pr >= 0) {
        const nif_block *pb = ref(f, pr, NIF_K_SKINPART);
        if (!pb)
            return fail_block(m, VKS_ERR_FORMAT, (uint32_t)sh->skin, "skin_partition",
                              "ref %llu is not an NiSkinPartition block%llu%llu", (unsigned long long)pr, 0, 0);
        if (pb->u.part.part_count > 0 || pb->u.part.positions)
            s->part = &pb->u.part;
    }
    if (s->inst->bone_count == 0 || s->inst->bone_count != s->data->bone_count)
        return fail_block(m, VKS_ERR_FORMAT, (uint32_t)sh->skin, "bones",
                          "skin instance has %llu bones, its NiSkinData %llu (must be equal and > 0)%llu",
                          s->inst->bone_count, s->data->bone_count, 0);
    if (b->kind == NIF_K_SHAPE) {
        const nif_block *gb = ref(f, sh->data, NIF_K_GEOMDATA);
        if (!gb)
            return fail_block(m, VKS_ERR_FORMAT, i, "data", "ref %lld is not an NiTriShapeData/NiTriStripsData block%llu%llu",
                              (unsigned long long)(long long)sh->data, 0, 0);
        const nif_geomdata *g = &gb->u.geom;
        if (!g->positions)
            return fail_block(m, VKS_ERR_UNSUPPORTED, i, "data", "the shape's data stores no vertices%llu%llu%llu", 0, 0, 0);
        s->vertex_count = g->vertex_count, s->positions = g->positions, s->normals = g->normals;
        s->triangle_count = g->triangle_count, s->triangles = g->triangles;
        s->uv_sets = g->uv_sets, s->uv = g->uv;
    } else if (sh->positions) { /* BSTriShape with its own vertex data */
        s->vertex_count = sh->vertex_count, s->positions = sh->positions, s->normals = sh->normals;
        s->triangle_count = sh->triangle_count, s->triangles = sh->triangles;
        s->uv_sets = sh->uv != NULL, s->uv = &sh->uv;
    } else { /* SSE skinned: the vertices live in the partition */
        if (!s->part || !s->part->positions)
            return fail_block(m, VKS_ERR_FORMAT, i, "data_size",
                              "no vertex data in the shape nor in its NiSkinPartition%llu%llu%llu", 0, 0, 0);
        s->vertex_count = s->part->vertex_count, s->positions = s->part->positions, s->normals = s->part->normals;
        s->uv_sets = s->part->uv != NULL, s->uv = &s->part->uv;
    }
    return VKS_OK;
}

static vks_result shape_nomem(model_ctx *m)
{
    return vks_error_set(m->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "nif/shape", "out of memory");
}

/* A shape's numbers must be finite: vertices, normals, the overall skin transform and each
   bone's skin-to-bone transform. */
static vks_result check_shape_finite(model_ctx *m, uint32_t i, const shape_in *s)
{
    uint32_t nv = s->vertex_count;
    if (!finite3(&s->positions[0][0], (size_t)nv * 3) || (s->normals && !finite3(&s->normals[0][0], (size_t)nv * 3)))
        return fail_block(m, VKS_ERR_FORMAT, i, "vertices", "a vertex position or normal is not finite%llu%llu%llu", 0,
                          0, 0);
    if (!finite_xform(&s->data->overall))
        return fail_block(m, VKS_ERR_FORMAT, (uint32_t)s->inst->data, "skin_transform", "not finite%llu%llu%llu", 0, 0,
                          0);
    for (uint32_t k = 0; k < s->inst->bone_count; k++)
        if (!finite_xform(&s->data->bones[k].s2b))
            return fail_block(m, VKS_ERR_FORMAT, (uint32_t)s->inst->data, "bone_list/skin_transform",
                              "bone %llu: not finite%llu%llu", k, 0, 0);
    return VKS_OK;
}

/* Counts what the shape adds to the model against the read limits. Shapes may share their
   data: each becomes a mesh with its own copy, so a short shape block must not buy a whole
   mesh over and over; the model may draw at most NIF_MAX_SHARING times what the file holds. */
static vks_result count_shape_draws(model_ctx *m, uint32_t i, const shape_in *s, uint32_t *total_vertices)
{
    const nif_file *f = m->f;
    uint32_t nv = s->vertex_count;
    if (nv > f->opt.max_vertices - *total_vertices)
        return fail_block(m, VKS_ERR_LIMIT, i, "vertices", "%llu more vertices go over the limit %llu%llu", nv,
                          f->opt.max_vertices, 0);
    *total_vertices += nv;
    if (*total_vertices > NIF_MAX_SHARING * (uint64_t)m->file_vertices + 65536u)
        return fail_block(m, VKS_ERR_LIMIT, i, "data",
                          "skinned shapes draw %llu vertices, more than %llu times the %llu the file's geometry "
                          "blocks hold (data shared by too many shapes)",
                          *total_vertices, NIF_MAX_SHARING, m->file_vertices);
    uint64_t part_tris = 0;
    for (uint32_t pi = 0; s->part && pi < s->part->part_count; pi++)
        part_tris += s->part->parts[pi].triangle_count;
    m->drawn_triangles += s->triangle_count > part_tris ? s->triangle_count : part_tris;
    if (m->drawn_triangles > f->opt.max_triangles)
        return fail_block(m, VKS_ERR_LIMIT, i, "triangles",
                          "skinned shapes draw %llu triangles, over the limit %llu%llu", m->drawn_triangles,
                          f->opt.max_triangles, 0);
    if (m->drawn_triangles > NIF_MAX_SHARING * m->file_triangles + 65536u)
        return fail_block(m, VKS_ERR_LIMIT, i, "data",
                          "skinned shapes draw %llu triangles, more than %llu times the %llu the file's geometry "
                          "blocks hold (data shared by too many shapes)",
                          m->drawn_triangles, NIF_MAX_SHARING, m->file_triangles);
    return VKS_OK;
}

/* The mesh's bones: NiSkinInstance.Bones[k] (nodes) with NiSkinData's skin-to-bone
   transform as inverse bind. */
static vks_result shape_bones(model_ctx *m, const shape_in *s, uint32_t skin_block, vks_bone *bones)
{
    for (uint32_t k = 0; k < s->inst->bone_count; k++) {
        int32_t nb = s->inst->bones[k];
        if (!ref(m->f, nb, NIF_K_NODE))
            return fail_block(m, VKS_ERR_FORMAT, skin_block, "bones", "bone %llu: ref %lld is not a node%llu", k,
                              (unsigned long long)(long long)nb, 0);
        bones[k].node = (uint32_t)m->node_of[nb];
        bones[k].inverse_bind = to_affine(&s->data->bones[k].s2b);
    }
    return VKS_OK;
}

/* Weights from NiSkinData's per-bone (vertex, weight) lists, which may give a vertex more than
   the 4 that partitions hold (nif.md): the vertices so cut are counted in m. */
static vks_result weights_from_skin_data(model_ctx *m, const shape_in *s, uint16_t (*vb)[4], float (*vw)[4])
{
    uint32_t nv = s->vertex_count, data_block = (uint32_t)s->inst->data;
    float *dropped = tmp(m->f, nv, sizeof *dropped); /* per vertex, the largest left out */
    if (!dropped)
        return shape_nomem(m);
    for (uint32_t k = 0; k < s->inst->bone_count; k++) {
        const nif_bonedata *bd = &s->data->bones[k];
        for (uint32_t j = 0; j < bd->weight_count; j++) {
            uint32_t v = bd->vertex[j];
            if (v >= nv)
                return fail_block(m, VKS_ERR_FORMAT, data_block, "bone_list/vertex_weights",
                                  "bone %llu weights vertex %llu, vertex count %llu", k, v, nv);
            float out = add_influence(vb[v], vw[v], (uint16_t)k, bd->weight[j]);
            dropped[v] = out > dropped[v] ? out : dropped[v];
        }
    }
    for (uint32_t v = 0; v < nv; v++)
        if (dropped[v] > 0) {
            m->rule_dropped++;
            m->rule_dropped_max = dropped[v] > m->rule_dropped_max ? dropped[v] : m->rule_dropped_max;
        }
    return VKS_OK;
}

/* Weights from the partitions: each vertex from the first partition that maps it. */
static vks_result weights_from_partitions(model_ctx *m, const shape_in *s, uint16_t (*vb)[4], float (*vw)[4])
{
    uint32_t nv = s->vertex_count;
    uint8_t *seen = tmp(m->f, nv, 1);
    if (!seen)
        return shape_nomem(m);
    for (uint32_t pi = 0; pi < s->part->part_count; pi++) {
        const nif_partition *p = &s->part->parts[pi];
        for (uint32_t lv = 0; lv < p->vertex_count; lv++) {
            uint32_t fv = p->vertex_map ? p->vertex_map[lv] : lv;
            if (fv >= nv)
                return vks_error_set(m->err, VKS_ERR_FORMAT, VKS_NO_OFFSET, "nif/skin_partition/vertex_map",
                                     "partition %u maps to vertex %u, vertex count %u", pi, fv, nv);
            if (seen[fv])
                continue;
            seen[fv] = 1;
            float dropped = 0;
            if (!partition_vertex(p, lv, s->inst->bone_count, vb[fv], vw[fv], &dropped))
                return vks_error_set(m->err, VKS_ERR_FORMAT, VKS_NO_OFFSET, "nif/skin_partition",
                                     "partition %u vertex %u uses a bone outside the palette or the skin", pi, lv);
            if (dropped > 0) { /* a partition of more than 4 weights a vertex (nif.md: at most 4) */
                m->rule_dropped++;
                m->rule_dropped_max = dropped > m->rule_dropped_max ? dropped : m->rule_dropped_max;
            }
        }
    }
    return VKS_OK;
}

/* Weights from the SSE vertex buffer the partition carries. */
static vks_result weights_from_sse(model_ctx *m, const shape_in *s, uint16_t (*vb)[4], float (*vw)[4])
{
    uint32_t nbones = s->inst->bone_count;
    for (uint32_t v = 0; v < s->vertex_count; v++)
        for (int k = 0; k < 4; k++) {
            if (s->part->sse_weights[v][k] > 0 && s->part->sse_bones[v][k] >= nbones)
                return vks_error_set(m->err, VKS_ERR_FORMAT, VKS_NO_OFFSET, "nif/skin_partition/vertex_data",
                                     "vertex %u uses bone %u, bone count %u", v, s->part->sse_bones[v][k], nbones);
            add_influence(vb[v], vw[v], s->part->sse_bones[v][k], s->part->sse_weights[v][k]);
        }
    return VKS_OK;
}

/* The shape's weights: NiSkinData's when it stores any, else the partitions', else the SSE
   vertex buffer's; then the rule (4 largest, sum 1), keeping the sums as stored. */
static vks_result shape_weights(model_ctx *m, const shape_in *s, uint16_t (*vb)[4], float (*vw)[4],
                                float *stored_sum)
{
    uint64_t stored = 0;
    for (uint32_t k = 0; k < s->inst->bone_count && s->data->has_weights; k++)
        stored += s->data->bones[k].weight_count;
    vks_result rc = VKS_OK;
    if (stored > 0)
        rc = weights_from_skin_data(m, s, vb, vw);
    else if (s->part && s->part->part_count > 0)
        rc = weights_from_partitions(m, s, vb, vw);
    else if (s->part && s->part->sse_weights && s->part->vertex_count == s->vertex_count)
        rc = weights_from_sse(m, s, vb, vw);
    if (rc == VKS_OK)
        normalise(vb, vw, s->vertex_count, stored_sum);
    return rc;
}

/* Whether every weighted bone of the partition's vertices is in its palette. */
static int palette_covers(const nif_partition *p, const uint32_t *verts, const uint16_t (*vb)[4],
                          const float (*vw)[4])
{
    for (uint32_t lv = 0; lv < p->vertex_count; lv++)
        for (int k = 0; k < 4; k++) {
            if (!(vw[verts[lv]][k] > 0))
                continue;
            int in = 0;
            for (uint32_t q = 0; q < p->bone_count && !in; q++)
                in = p->bones[q] == vb[verts[lv]][k];
            if (!in)
                return 0;
        }
    return 1;
}

/* A group that cannot use the mesh's weights takes the partition's own, normalised by the
   same rule. *own counts the vertices such tables cost, bounded on hostile files. */
static vks_result partition_own_weights(model_ctx *m, const shape_in *s, uint32_t pi, const uint32_t *verts,
                                        uint64_t *own, vks_group_source *g)
{
    const nif_partition *p = &s->part->parts[pi];
    uint32_t nv = s->vertex_count;
    *own += nv;
    if (*own > (1u << 21)) /* bounds memory on hostile files (~48 MiB) */
        return vks_error_set(m->err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "nif/skin_partition",
                             "too many partitions with their own weights");
    uint16_t (*gb)[4] = tmp(m->f, nv, sizeof *gb);
    float (*gw)[4] = tmp(m->f, nv, sizeof *gw);
    if (!gb || !gw)
        return shape_nomem(m);
    for (uint32_t lv = 0; lv < p->vertex_count; lv++)
        if (!partition_vertex(p, lv, s->inst->bone_count, gb[verts[lv]], gw[verts[lv]], NULL))
            return vks_error_set(m->err, VKS_ERR_FORMAT, VKS_NO_OFFSET, "nif/skin_partition",
                                 "partition %u vertex %u uses a bone outside the palette or the skin", pi, lv);
    normalise(gb, gw, nv, NULL);
    g->bone = (const uint16_t (*)[4])gb;
    g->weight = (const float (*)[4])gw;
    return VKS_OK;
}

/* Partition pi as a group: its vertex map, palette and triangles (as shape vertices, written
   at *tris, which moves past them). */
static vks_result partition_group(model_ctx *m, const shape_in *s, uint32_t pi, const uint16_t (*vb)[4],
                                  const float (*vw)[4], uint32_t (**tris)[3], uint64_t *own, vks_group_source *g)
{
    const nif_partition *p = &s->part->parts[pi];
    uint32_t nv = s->vertex_count, nbones = s->inst->bone_count;
    uint32_t *verts = tmp(m->f, p->vertex_count, sizeof *verts);
    if (!verts)
        return shape_nomem(m);
    for (uint32_t lv = 0; lv < p->vertex_count; lv++) {
        verts[lv] = p->vertex_map ? p->vertex_map[lv] : lv;
        if (verts[lv] >= nv)
            return vks_error_set(m->err, VKS_ERR_FORMAT, VKS_NO_OFFSET, "nif/skin_partition/vertex_map",
                                 "partition %u maps to vertex %u, vertex count %u", pi, verts[lv], nv);
    }
    for (uint32_t k = 0; k < p->bone_count; k++)
        if (p->bones[k] >= nbones)
            return vks_error_set(m->err, VKS_ERR_FORMAT, VKS_NO_OFFSET, "nif/skin_partition/bones",
                                 "partition %u palette entry %u names bone %u, bone count %u", pi, k, p->bones[k],
                                 nbones);
    uint32_t (*t3)[3] = *tris;
    g->triangles = (const uint32_t (*)[3])t3;
    for (uint32_t t = 0; t < p->triangle_count; t++)
        for (int k = 0; k < 3; k++)
            t3[t][k] = verts[p->triangles[t][k]];
    *tris = t3 + p->triangle_count;
    g->triangle_count = p->triangle_count;
    g->vertices = verts;
    g->vertex_count = p->vertex_count;
    g->palette = p->bones;
    g->palette_count = p->bone_count;
    /* a vertex whose weights name a bone outside this palette: the group takes the
       partition's own weights */
    if (palette_covers(p, verts, vb, vw))
        return VKS_OK;
    return partition_own_weights(m, s, pi, verts, own, g);
}

/* One group per NiSkinPartition partition (none without partitions). */
static vks_result partition_groups(model_ctx *m, const shape_in *s, const uint16_t (*vb)[4], const float (*vw)[4],
                                   vks_group_source **groups, uint32_t *ngroups)
{
    const nif_file *f = m->f;
    if (!s->part || s->part->part_count == 0)
        return VKS_OK;
    *ngroups = s->part->part_count;
    *groups = tmp(f, *ngroups, sizeof **groups);
    uint64_t tri_total = 0, own = 0;
    for (uint32_t pi = 0; pi < *ngroups; pi++)
        tri_total += s->part->parts[pi].triangle_count;
    if (tri_total > f->opt.max_triangles)
        return vks_error_set(m->err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "nif/skin_partition",
                             "%llu triangles over the limit %u", (unsigned long long)tri_total, f->opt.max_triangles);
    uint32_t (*all_tris)[3] = tmp(f, tri_total, sizeof *all_tris);
    if (!*groups || !all_tris)
        return shape_nomem(m);
    for (uint32_t pi = 0; pi < *ngroups; pi++) {
        vks_result rc = partition_group(m, s, pi, vb, vw, &all_tris, &own, &(*groups)[pi]);
        if (rc != VKS_OK)
            return rc;
    }
    return VKS_OK;
}

/* One skinned shape as a mesh: checked and counted against the limits, its bones, weights
   and partition groups, skin space at the skeleton root with NiSkinData's overall transform. */
/* Skyrim's material (bsver 83, 100): the BSLightingShaderProperty's name and alpha (its
 * shader has no diffuse colour: the base colour stays white) and its BSShaderTextureSet's
 * diffuse texture, read through UV set 0 (the only one Skyrim's vertices carry). */
static void bs_shader_material(model_ctx *m, const nif_block *bs, vks_material *mt)
{
    const nif_block *set = ref(m->f, bs->u.bsshader.texture_set, NIF_K_TEXSET);
    mt->name = vks_skin_strndup(m->skin, bs->u.bsshader.name, strlen(bs->u.bsshader.name));
    mt->base_color[3] = isfinite(bs->u.bsshader.alpha) ? bs->u.bsshader.alpha : 1.0f;
    if (set)
        mt->base_texture = vks_skin_strndup(m->skin, set->u.texset.diffuse, strlen(set->u.texset.diffuse));
}

/* The shape's material from its properties (NiMaterialProperty: name, diffuse, alpha;
 * NiTexturingProperty: the base texture's file and UV set; Skyrim's shader property, see
 * bs_shader_material), appended to m->materials; *index gets its place, or UINT32_MAX when
 * the shape has none of them. */
static vks_result shape_material(model_ctx *m, const nif_shape *sh, uint32_t *index)
{
    const nif_file *f = m->f;
    const nif_block *mat = NULL, *tex = NULL, *bs = ref(f, sh->shader, NIF_K_BSSHADER);
    *index = UINT32_MAX;
    for (uint32_t k = 0; k < sh->prop_count; k++) {
        mat = mat ? mat : ref(f, sh->props[k], NIF_K_MATPROP);
        tex = tex ? tex : ref(f, sh->props[k], NIF_K_TEXPROP);
    }
    if (!mat && !tex && !bs)
        return VKS_OK;
    vks_material mt = vks_material_default();
    if (bs)
        bs_shader_material(m, bs, &mt);
    if (mat) {
        const char *name = mat->u.matprop.name ? mat->u.matprop.name : "";
        mt.name = vks_skin_strndup(m->skin, name, strlen(name));
        memcpy(mt.base_color, mat->u.matprop.diffuse, 3 * sizeof(float));
        mt.base_color[3] = isfinite(mat->u.matprop.alpha) ? mat->u.matprop.alpha : 1.0f;
        for (int k = 0; k < 3; k++)
            mt.base_color[k] = isfinite(mt.base_color[k]) ? mt.base_color[k] : 1.0f;
    }
    const nif_block *src = tex ? ref(f, tex->u.texprop.base_source, NIF_K_SOURCETEX) : NULL;
    if (src) {
        mt.base_texture = vks_skin_strndup(m->skin, src->u.srctex.file, strlen(src->u.srctex.file));
        mt.base_uv_set = tex->u.texprop.uv_set < VKS_MAX_UV_SETS ? tex->u.texprop.uv_set : 0;
    }
    vks_material *slot = vks__vec_push(&m->materials, &f->opt.allocator, 1);
    if (!slot || !mt.name || !mt.base_texture)
        return shape_nomem(m);
    *slot = mt;
    *index = (uint32_t)m->materials.count - 1;
    return VKS_OK;
}

/* What a shape's mesh takes from the shape whether skinned or rigid: its name (into name, 96
   bytes), vertices, normals (renormalised after blending), triangles, UV sets and material. */
static vks_result shape_source(model_ctx *m, uint32_t i, const shape_in *s, char *name, vks_mesh_source *ms)
{
    if (s->name && s->name[0])
        snprintf(name, 96, "%s", s->name);
    else
        snprintf(name, 96, "shape[%u]", i);
    memset(ms, 0, sizeof *ms);
    ms->name = name;
    ms->vertex_count = s->vertex_count;
    ms->positions = s->positions;
    ms->normals = s->normals;
    ms->triangle_count = s->triangle_count;
    ms->triangles = s->triangles;
    ms->flags = VKS_MESH_RENORMALIZE;
    for (uint32_t k = 0; k < s->uv_sets; k++)
        ms->uv[k] = s->uv[k];
    ms->uv_set_count = s->uv_sets;
    uint32_t mat;
    vks_result rc = shape_material(m, &m->f->blocks[i].u.shape, &mat);
    if (rc == VKS_OK && mat != UINT32_MAX)
        ms->first_material = mat, ms->material_count = 1;
    return rc;
}

/* The mesh of shape block i, its block kept for its morph targets (nif_morph_model.c). */
static vks_result add_mesh(model_ctx *m, vks_skin_builder *bld, const vks_mesh_source *ms, uint32_t i)
{
    vks_result rc = vks_builder_add_mesh(bld, ms, m->err);
    if (rc == VKS_OK)
        m->mesh_block[m->mesh_count++] = i;
    return rc;
}

static vks_result build_shape(model_ctx *m, uint32_t i, uint32_t *total_vertices, vks_skin_builder *bld)
{
    const nif_file *f = m->f;
    shape_in s;
    vks_result rc = resolve_shape(m, i, &s);
    if (rc == VKS_OK)
        rc = check_shape_finite(m, i, &s);
    if (rc == VKS_OK)
        rc = count_shape_draws(m, i, &s, total_vertices);
    if (rc != VKS_OK)
        return rc;
    uint32_t nv = s.vertex_count, nbones = s.inst->bone_count;
    uint32_t skin_block = (uint32_t)f->blocks[i].u.shape.skin;
    if (!ref(f, s.inst->root, NIF_K_NODE))
        return fail_block(m, VKS_ERR_FORMAT, skin_block, "skeleton_root", "ref %lld is not a node%llu%llu",
                          (unsigned long long)(long long)s.inst->root, 0, 0);
    vks_bone *bones = tmp(f, nbones, sizeof *bones);
    uint16_t (*vb)[4] = tmp(f, nv, sizeof *vb);
    float (*vw)[4] = tmp(f, nv, sizeof *vw);
    float *stored_sum = tmp(f, nv, sizeof *stored_sum);
    if (!bones || !vb || !vw || !stored_sum)
        return shape_nomem(m);
    vks_group_source *groups = NULL;
    uint32_t ngroups = 0;
    rc = shape_bones(m, &s, skin_block, bones);
    if (rc == VKS_OK)
        rc = shape_weights(m, &s, vb, vw, stored_sum);
    if (rc == VKS_OK)
        rc = partition_groups(m, &s, (const uint16_t (*)[4])vb, (const float (*)[4])vw, &groups, &ngroups);
    if (rc != VKS_OK)
        return rc;
    if (!groups && !s.triangles && s.triangle_count == 0 && f->blocks[i].kind == NIF_K_BSTRISHAPE)
        return fail_block(m, VKS_ERR_FORMAT, i, "triangles", "no triangles in the shape nor in a partition%llu%llu%llu",
                          0, 0, 0);

    char name[96];
    vks_mesh_source ms;
    if ((rc = shape_source(m, i, &s, name, &ms)) != VKS_OK)
        return rc;
    ms.bone = (const uint16_t (*)[4])vb;
    ms.weight = (const float (*)[4])vw;
    ms.stored_weight_sum = stored_sum;
    ms.bone_count = nbones;
    ms.bones = bones;
    ms.space_node = m->node_of[s.inst->root];
    ms.space_pre = to_affine(&s.data->overall);
    ms.groups = groups;
    ms.group_count = ngroups;
    return add_mesh(m, bld, &ms, i);
}

/* The node whose Children list holds block i first, or -1. */
static int32_t shape_parent(const nif_file *f, uint32_t i)
{
    for (uint32_t n = 0; n < f->block_count; n++) {
        const nif_block *b = &f->blocks[n];
        if (b->kind != NIF_K_NODE)
            continue;
        for (uint32_t k = 0; k < b->u.node.child_count; k++)
            if (b->u.node.children[k] == (int32_t)i)
                return (int32_t)n;
    }
    return -1;
}

/* A shape's own geometry (NiTriShapeData / NiTriStripsData, or a BSTriShape's vertices), or
   VKS_ERR_UNSUPPORTED when it has none of its own. */
static vks_result rigid_geometry(model_ctx *m, uint32_t i, shape_in *s)
{
    const nif_file *f = m->f;
    const nif_shape *sh = &f->blocks[i].u.shape;
    memset(s, 0, sizeof *s);
    s->block = i;
    s->name = sh->name;
    if (f->blocks[i].kind == NIF_K_SHAPE) {
        const nif_block *gb = ref(f, sh->data, NIF_K_GEOMDATA);
        if (!gb)
            return fail_block(m, VKS_ERR_FORMAT, i, "data", "ref %lld is not an NiTriShapeData/NiTriStripsData block%llu%llu",
                              (unsigned long long)(long long)sh->data, 0, 0);
        const nif_geomdata *g = &gb->u.geom;
        s->vertex_count = g->vertex_count, s->positions = g->positions, s->normals = g->normals;
        s->triangle_count = g->triangle_count, s->triangles = g->triangles;
        s->uv_sets = g->uv_sets, s->uv = g->uv;
    } else {
        s->vertex_count = sh->vertex_count, s->positions = sh->positions, s->normals = sh->normals;
        s->triangle_count = sh->triangle_count, s->triangles = sh->triangles;
        s->uv_sets = sh->uv != NULL, s->uv = &sh->uv;
    }
    return s->positions && s->triangle_count ? VKS_OK : VKS_ERR_UNSUPPORTED;
}

/* One rigid shape (see the top of the file): parent node, space of the skinned shapes. */
static vks_result build_rigid_shape(model_ctx *m, uint32_t i, int32_t parent, int32_t space, vks_affine space_pre,
                                    uint32_t *total_vertices, vks_skin_builder *bld)
{
    const nif_file *f = m->f;
    shape_in s;
    vks_result rc = rigid_geometry(m, i, &s);
    if (rc == VKS_ERR_UNSUPPORTED)
        return VKS_OK; /* nothing to draw (no vertices or no triangles of its own) */
    uint32_t nv = s.vertex_count;
    if (rc == VKS_OK &&
        (!finite3(&s.positions[0][0], (size_t)nv * 3) || (s.normals && !finite3(&s.normals[0][0], (size_t)nv * 3))))
        rc = fail_block(m, VKS_ERR_FORMAT, i, "vertices", "a vertex position or normal is not finite%llu%llu%llu", 0, 0, 0);
    if (rc == VKS_OK && !finite_xform(&f->blocks[i].u.shape.xf))
        rc = fail_block(m, VKS_ERR_FORMAT, i, "transform", "not finite%llu%llu%llu", 0, 0, 0);
    if (rc == VKS_OK)
        rc = count_shape_draws(m, i, &s, total_vertices);
    if (rc != VKS_OK)
        return rc;
    uint16_t (*vb)[4] = tmp(f, nv, sizeof *vb);
    float (*vw)[4] = tmp(f, nv, sizeof *vw);
    vks_bone *bone = tmp(f, 1, sizeof *bone);
    vks_group_source *group = tmp(f, 1, sizeof *group);
    if (!vb || !vw || !bone || !group)
        return shape_nomem(m);
    memset(vb, 0, (size_t)nv * sizeof *vb);
    memset(vw, 0, (size_t)nv * sizeof *vw);
    for (uint32_t v = 0; v < nv; v++)
        vw[v][0] = 1.0f;
    bone->node = (uint32_t)m->node_of[parent];
    bone->inverse_bind = to_affine(&f->blocks[i].u.shape.xf); /* the shape's place under its node */
    static const uint16_t node_slot = 0;
    memset(group, 0, sizeof *group);
    group->triangles = s.triangles, group->triangle_count = s.triangle_count;
    group->palette = &node_slot, group->palette_count = 1, group->flags = VKS_GROUP_RIGID;
    char name[96];
    vks_mesh_source ms;
    if ((rc = shape_source(m, i, &s, name, &ms)) != VKS_OK)
        return rc;
    ms.bone = (const uint16_t (*)[4])vb;
    ms.weight = (const float (*)[4])vw;
    ms.bone_count = 1;
    ms.bones = bone;
    ms.space_node = space;
    ms.space_pre = space_pre;
    ms.groups = group;
    ms.group_count = 1;
    return add_mesh(m, bld, &ms, i);
}

/* The skin space of the first skinned shape (its skeleton root and overall transform), where
   the rigid shapes are placed too; -1 and identity when no shape is skinned. */
static int32_t skinned_space(const model_ctx *m, vks_affine *pre)
{
    const nif_file *f = m->f;
    *pre = vks_affine_identity();
    for (uint32_t i = 0; i < f->block_count; i++) {
        const nif_block *b = &f->blocks[i];
        if ((b->kind != NIF_K_SHAPE && b->kind != NIF_K_BSTRISHAPE) || b->u.shape.skin < 0)
            continue;
        const nif_block *ib = ref(f, b->u.shape.skin, NIF_K_SKININST);
        const nif_block *db = ib ? ref(f, ib->u.inst.data, NIF_K_SKINDATA) : NULL;
        if (!db || !ref(f, ib->u.inst.root, NIF_K_NODE))
            return -1;
        *pre = to_affine(&db->u.data.overall);
        return m->node_of[ib->u.inst.root];
    }
    return -1;
}

vks_result nif_build_model(const nif_file *f, vks_skin *skin, uint32_t *morph_unplayed, vks_error *err)
{
    model_ctx m = {f, skin, err, NULL, 0, 0, 0, VKS_VEC_INIT(sizeof(vks_material), 8), 0, 0, NULL, 0};
    vks_result rc = build_nodes(&m);
    if (rc != VKS_OK)
        return rc;
    uint32_t shapes = 0, total_vertices = 0;
    int32_t *parent = tmp(f, f->block_count, sizeof *parent);
    m.mesh_block = tmp(f, f->block_count, sizeof *m.mesh_block);
    if (!parent || !m.mesh_block)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "nif/shapes", "out of memory");
    for (uint32_t i = 0; i < f->block_count; i++) {
        const nif_block *b = &f->blocks[i];
        int is_shape = b->kind == NIF_K_SHAPE || b->kind == NIF_K_BSTRISHAPE;
        parent[i] = is_shape && b->u.shape.skin < 0 ? shape_parent(f, i) : -1; /* a rigid part's node */
        shapes += is_shape && (b->u.shape.skin >= 0 || parent[i] >= 0);
        if (b->kind == NIF_K_GEOMDATA) {
            m.file_vertices += b->u.geom.vertex_count;
            m.file_triangles += b->u.geom.triangle_count;
        } else if (b->kind == NIF_K_BSTRISHAPE) {
            m.file_vertices += b->u.shape.vertex_count;
            m.file_triangles += b->u.shape.triangle_count;
        } else if (b->kind == NIF_K_SKINPART) {
            m.file_vertices += b->u.part.vertex_count;
            for (uint32_t pi = 0; pi < b->u.part.part_count; pi++)
                m.file_triangles += b->u.part.parts[pi].triangle_count;
        }
    }
    if (shapes == 0)
        return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "nif/shapes",
                             "no NiTriShape, NiTriStrips or BSTriShape skinned or under a node in the file");
    if (shapes > f->opt.max_meshes)
        return vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "nif/shapes", "%u shapes, limit %u", shapes,
                             f->opt.max_meshes);
    vks_skin_builder *bld = vks_builder_create(skin);
    if (!bld)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "nif/shapes", "out of memory");
    for (uint32_t i = 0; i < f->block_count; i++) {
        const nif_block *b = &f->blocks[i];
        if ((b->kind != NIF_K_SHAPE && b->kind != NIF_K_BSTRISHAPE) || b->u.shape.skin < 0)
            continue;
        rc = build_shape(&m, i, &total_vertices, bld);
        if (rc != VKS_OK) {
            vks_builder_destroy(bld);
            vks__vec_free(&m.materials, &f->opt.allocator);
            return rc;
        }
    }
    vks_affine space_pre;
    int32_t space = skinned_space(&m, &space_pre);
    for (uint32_t i = 0; i < f->block_count; i++) {
        if (parent[i] < 0)
            continue;
        rc = build_rigid_shape(&m, i, parent[i], space, space_pre, &total_vertices, bld);
        if (rc != VKS_OK) {
            vks_builder_destroy(bld);
            vks__vec_free(&m.materials, &f->opt.allocator);
            return rc;
        }
    }
    rc = vks_builder_finish(bld, err);
    if (rc == VKS_OK)
        rc = nif_morph_attach(f, skin, m.mesh_block, m.mesh_count, morph_unplayed, err);
    if (rc == VKS_OK) {
        skin->weights.rule_dropped = m.rule_dropped;
        skin->weights.rule_dropped_max = m.rule_dropped_max;
    }
    if (rc == VKS_OK && m.materials.count) {
        skin->materials = vks_skin_alloc_array(skin, m.materials.count, sizeof(vks_material));
        if (skin->materials) {
            memcpy(skin->materials, m.materials.data, m.materials.count * sizeof(vks_material));
            skin->material_count = (uint32_t)m.materials.count;
        } else {
            rc = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "nif/shapes", "out of memory");
        }
    }
    vks__vec_free(&m.materials, &f->opt.allocator);
    return rc;
}
