/* glTF 2.0 model reader: every skinned mesh node of the scene becomes meshes of the skin model
 * (one per primitive; consecutive primitives over the same attributes, each with a material,
 * make one mesh whose triangles keep their primitive's material: a mesh with several
 * materials, as vkskin's writer writes it), the skeleton is every node the skins' joints need (the joints and
 * their ancestors up to the scene roots) in topological order, and the bones of each mesh are
 * its skin's joints with their inverse bind matrices (identity where the skin has none).
 *
 * Skin space. The specification ignores a skinned mesh node's own transform: joint worlds are
 * in the scene root's space and so is the skinned result. That is the skin model with
 * space_node = -1 and space_pre = identity (K = W(joint) * IB).
 *
 * Weights (gltf_influences.c): per vertex, the 8 largest of all weight sets (JOINTS_0/WEIGHTS_0,
 * JOINTS_1/WEIGHTS_1, ...: with two sets, all of them) scaled to sum 1; vertices with more than
 * 4 positive weights are counted in skin->weights.over_four, with more than 8 (cut to the 8
 * largest) in skin->weights.truncated.
 *
 * Surface (gltf_materials.c): TEXCOORD_0..3 of each primitive, its material (every material of
 * the file with its base colour and base-colour texture), and the images and samplers the
 * textures use; embedded image bytes are copied into the skin.
 *
 * Rigid parts: a mesh node of the scene without a skin (a sword or a helmet parented to a
 * joint, a robot's body part under an animated node, a prop at a root) is part of the
 * character: its node (and the node's ancestors) joins the skeleton, and each of its
 * primitives is one group on that node, weight 1, inverse bind identity, vertices node-local
 * as the file stores them, flagged VKS_GROUP_RIGID (as NW4C's rigid sets): K = W(node), the
 * world the scene gives the mesh, in the same pass as the skinned meshes. Meshes come in the
 * file's node order, skinned and rigid alike.
 *
 * Morph targets (gltf_morph.c): each primitive's POSITION and NORMAL deltas, sparse or dense,
 * with the node's (else the mesh's) weights as the defaults; a morphed primitive is a mesh of
 * its own (never merged with the primitives after it).
 *
 * Not read, each with a note through the logger: points and lines primitives. A mesh without NORMAL has no normals (VKS_MESH_HAS_NORMALS
 * unset): the reader does not invent data the file does not hold. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "gltf_internal.h"
#include "gltf_morph.h"
#include "vkskin/build.h"

typedef struct skin_info {
    int loaded;
    int rigid;            /* a mesh node without a skin: one bone, its own node (gltf_read.c) */
    uint32_t joint_count;
    int32_t *joints;      /* glTF node per joint */
    vks_affine *inverse;  /* per joint */
    vks_bone *bones;      /* per joint, skeleton node indices */
} skin_info;

typedef struct reader {
    gltf_doc d;
    skin_info *skins;
    uint32_t skin_count;
    int32_t *node_of;     /* glTF node -> skeleton node, -1 */
    uint8_t *needed;
    uint32_t vertices, triangles, meshes;
    gltf_influence_counts influences;
    uint32_t skipped_primitives, rigid_nodes;
    uint64_t skipped_vertices; /* the POSITION counts of the primitives skipped (points, lines) */
    uint32_t material_count; /* the document's, read into the skin before the meshes */
    uint32_t node;           /* the mesh node being read (its weights override the mesh's) */
    gltf_morph_prim *morphs; /* the morphed primitives read, in mesh order (gltf_morph.c) */
    uint32_t morph_count, morph_cap;
} reader;

/* The targets of the primitive just built kept for gltf_morph.c until the skin is built. */
static vks_result keep_morph(reader *R, gltf_morph_prim *mp)
{
    mp->mesh = R->meshes - 1; /* the builder makes one model mesh per call */
    if (R->morph_count == R->morph_cap) {
        uint32_t cap = R->morph_cap ? 2 * R->morph_cap : 8;
        gltf_morph_prim *more = vks__gltfr_alloc(&R->d, cap, sizeof *more);
        if (!more)
            return vks__gltfr_nomem(&R->d, "targets");
        if (R->morph_count)
            memcpy(more, R->morphs, R->morph_count * sizeof *more);
        R->morphs = more, R->morph_cap = cap;
    }
    R->morphs[R->morph_count++] = *mp;
    return VKS_OK;
}

static const cJSON *member(const cJSON *o, const char *name)
{
    return cJSON_GetObjectItemCaseSensitive(o, name);
}

/* Preorder walk of the forest from the roots given (all roots when roots is NULL), children
 * in file order: each node reached gets order[count++] when keep is NULL or keep[node]. */
static vks_result walk(reader *R, const uint32_t *roots, uint32_t root_count, const uint8_t *keep, uint32_t *order,
                       uint32_t *count)
{
    gltf_doc *d = &R->d;
    uint32_t n = d->node_count;
    const cJSON **stack = vks__gltfr_alloc(d, n + 1, sizeof *stack);
    if (!stack)
        return vks__gltfr_nomem(d, "nodes");
    *count = 0;
    uint32_t loops = roots ? root_count : n;
    for (uint32_t i = 0; i < loops; i++) {
        uint32_t root = roots ? roots[i] : i;
        if (!roots && d->parent[root] >= 0)
            continue;
        uint32_t sp = 0, k = root;
        for (;;) {
            if (!keep || keep[k])
                order[(*count)++] = k;
            const cJSON *ch = member(d->node_at[k], "children");
            stack[sp++] = ch ? ch->child : NULL;
            while (sp && !stack[sp - 1])
                sp--;
            if (!sp)
                break;
            const cJSON *c = stack[sp - 1];
            stack[sp - 1] = c->next;
            k = (uint32_t)c->valuedouble; /* checked by the forest walk in gltf_doc_open */
        }
    }
    return VKS_OK;
}

/* The nodes of the scene that the file asks for (scene, else scenes[0]); a file without
 * scenes shows all its nodes. reach[n] = 1 for each node of it. */
static vks_result scene_nodes(reader *R, uint8_t *reach)
{
    gltf_doc *d = &R->d;
    const cJSON *scenes = member(d->json, "scenes");
    uint32_t n = d->node_count, count = 0;
    uint32_t *order = vks__gltfr_alloc(d, n, sizeof *order);
    if (!order)
        return vks__gltfr_nomem(d, "scenes");
    if (scenes && (!cJSON_IsArray(scenes) || cJSON_GetArraySize(scenes) == 0))
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, "scenes", "must be a non-empty array");
    if (!scenes) {
        if (member(d->json, "scene"))
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, "scene", "is set, but the file has no scenes");
        memset(reach, 1, n);
        return VKS_OK;
    }
    int32_t s = 0;
    vks_result r = vks__gltfr_get_index(d, d->json, "", "scene", 0, (uint32_t)cJSON_GetArraySize(scenes), "scenes", &s);
    if (r != VKS_OK)
        return r;
    char path[40];
    snprintf(path, sizeof path, "scenes[%d].nodes", s);
    const cJSON *sn = member(vks__gltfr_item(scenes, (uint32_t)s), "nodes");
    if (sn && !cJSON_IsArray(sn))
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "must be an array");
    uint32_t rc = 0;
    uint32_t *roots = vks__gltfr_alloc(d, n, sizeof *roots);
    if (!roots)
        return vks__gltfr_nomem(d, path);
    uint32_t k = 0;
    for (const cJSON *e = sn ? sn->child : NULL; e; e = e->next, k++) {
        double x = e->valuedouble;
        if (!cJSON_IsNumber(e) || !(x >= 0) || x >= n || x != (double)(uint32_t)x)
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "[%u] is not a node index (the file has %u nodes)", k, n);
        uint32_t root = (uint32_t)x;
        if (d->parent[root] >= 0)
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "[%u]: node %u is a child of node %d, not a root", k, root,
                             d->parent[root]);
        if (reach[root])
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "[%u]: node %u is listed twice", k, root);
        reach[root] = 1;
        roots[rc++] = root;
    }
    if ((r = walk(R, roots, rc, NULL, order, &count)) != VKS_OK)
        return r;
    for (uint32_t i = 0; i < count; i++)
        reach[order[i]] = 1;
    return VKS_OK;
}

/* Skin s's joints and inverse binds, checked; its joints and their ancestors marked needed. */
static vks_result load_skin(reader *R, int32_t s)
{
    gltf_doc *d = &R->d;
    skin_info *si = &R->skins[s];
    if (si->loaded)
        return VKS_OK;
    char path[48];
    snprintf(path, sizeof path, "skins[%d]", s);
    const cJSON *o = d->skin_at[s];
    const cJSON *joints = member(o, "joints");
    int n = cJSON_IsArray(joints) ? cJSON_GetArraySize(joints) : 0;
    if (n < 1 || n > 65535)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "joints must be an array of 1..65535 node indices");
    si->joint_count = (uint32_t)n;
    si->joints = vks__gltfr_alloc(d, (size_t)n, sizeof *si->joints);
    si->inverse = vks__gltfr_alloc(d, (size_t)n, sizeof *si->inverse);
    si->bones = vks__gltfr_alloc(d, (size_t)n, sizeof *si->bones);
    if (!si->joints || !si->inverse || !si->bones)
        return vks__gltfr_nomem(d, path);
    int k = 0;
    for (const cJSON *e = joints->child; e; e = e->next, k++) {
        double x = e->valuedouble;
        if (!cJSON_IsNumber(e) || !(x >= 0) || x >= d->node_count || x != (double)(uint32_t)x)
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "joints[%d] is not a node index (the file has %u nodes)", k,
                             d->node_count);
        si->joints[k] = (int32_t)x;
        for (int32_t a = si->joints[k]; a >= 0 && !R->needed[a]; a = d->parent[a])
            R->needed[a] = 1;
        si->inverse[k] = vks_affine_identity();
    }
    int32_t ibm = -1;
    vks_result r = vks__gltfr_get_index(d, o, path, "inverseBindMatrices", 0, d->accessor_count,
                                  "accessors", &ibm);
    if (r != VKS_OK || ibm < 0) {
        si->loaded = r == VKS_OK;
        return r;
    }
    char ap[96];
    snprintf(ap, sizeof ap, "%s.inverseBindMatrices", path);
    gltf_accessor_want want = {"MAT4", GLTF_BIT(GLTF_FLOAT), -1, 0, 0};
    gltf_values info;
    float *m = NULL;
    if ((r = vks__gltfr_accessor_floats(d, ibm, ap, &want, &info, &m)) != VKS_OK)
        return r;
    /* the specification: at least as many matrices as joints */
    if (info.count < si->joint_count)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, ap, "accessor %d has %u matrices for %u joints", ibm, info.count,
                         si->joint_count);
    for (uint32_t j = 0; j < si->joint_count; j++)
        if (!vks__gltfr_matrix_affine(m + 16 * j, &si->inverse[j]))
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, ap, "matrix %u's last row is not (0, 0, 0, 1)", j);
    si->loaded = 1;
    return VKS_OK;
}

/* The skeleton: needed nodes in preorder, with names and bind locals. */
static vks_result skeleton(reader *R, vks_skin *skin)
{
    gltf_doc *d = &R->d;
    uint32_t n = d->node_count, count = 0;
    uint32_t *order = vks__gltfr_alloc(d, n, sizeof *order);
    R->node_of = vks__gltfr_alloc(d, n, sizeof *R->node_of);
    if (!order || !R->node_of)
        return vks__gltfr_nomem(d, "nodes");
    vks_result r = walk(R, NULL, 0, R->needed, order, &count);
    if (r != VKS_OK)
        return r;
    skin->nodes = vks_skin_alloc_array(skin, count, sizeof *skin->nodes);
    if (!skin->nodes)
        return vks__gltfr_nomem(d, "nodes");
    skin->node_count = count;
    for (uint32_t i = 0; i < n; i++)
        R->node_of[i] = -1;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t g = order[i];
        R->node_of[g] = (int32_t)i;
        vks_node *nd = &skin->nodes[i];
        nd->name = vks_skin_strndup(skin, d->names[g], strlen(d->names[g]));
        if (!nd->name)
            return vks__gltfr_nomem(d, "nodes");
        nd->parent = d->parent[g] >= 0 ? R->node_of[d->parent[g]] : -1; /* ancestors of needed are needed */
        if ((r = vks__gltfr_node_local(d, g, &nd->bind_local)) != VKS_OK)
            return r;
    }
    for (uint32_t s = 0; s < R->skin_count; s++)
        for (uint32_t j = 0; R->skins[s].loaded && j < R->skins[s].joint_count; j++) {
            R->skins[s].bones[j].node = (uint32_t)R->node_of[R->skins[s].joints[j]];
            R->skins[s].bones[j].inverse_bind = R->skins[s].inverse[j];
        }
    return VKS_OK;
}

/* Triangles of a primitive from its indices (or 0..count-1) by mode. Strips alternate their
 * winding as the specification writes them; degenerate strip and fan triangles are dropped. */
static vks_result triangles(reader *R, const char *path, int mode, const uint32_t *idx, uint32_t n, uint32_t vcount,
                            uint32_t (**out)[3], uint32_t *tcount)
{
    gltf_doc *d = &R->d;
    *tcount = 0;
    if (mode == 4 && n % 3)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "%u %s do not make whole triangles", n,
                               idx ? "indices" : "vertices (no indices)");
    uint32_t max = mode == 4 ? n / 3 : n >= 3 ? n - 2 : 0;
    uint32_t(*t)[3] = vks__gltfr_alloc(d, max, sizeof *t);
    if (!t)
        return vks__gltfr_nomem(d, path);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = idx ? idx[i] : i;
        if (v >= vcount)
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "index %u is %u, but POSITION has %u vertices", i, v, vcount);
    }
    for (uint32_t k = 0; k < max; k++) {
        uint32_t a, b, c;
        if (mode == 4)
            a = 3 * k, b = 3 * k + 1, c = 3 * k + 2;
        else if (mode == 5)
            a = k, b = k + 1 + k % 2, c = k + 2 - k % 2;
        else
            a = k + 1, b = k + 2, c = 0;
        uint32_t A = idx ? idx[a] : a, B = idx ? idx[b] : b, C = idx ? idx[c] : c;
        if (mode != 4 && (A == B || B == C || A == C))
            continue;
        t[*tcount][0] = A, t[*tcount][1] = B, t[*tcount][2] = C;
        (*tcount)++;
    }
    *out = t;
    return VKS_OK;
}

/* Triangles of primitive prim (another primitive of the same mesh over the same attributes,
 * so vcount vertices), appended to *all (*count so far, room for cap). */
static vks_result more_triangles(reader *R, const cJSON *prim, const char *ppath, uint32_t vcount, uint32_t (**all)[3],
                                 uint32_t *count, uint32_t *cap)
{
    gltf_doc *d = &R->d;
    uint64_t mode = 4;
    int32_t ind = -1;
    vks_result r = vks__gltfr_get_uint(d, prim, ppath, "mode", 0, 6, &mode);
    if (r == VKS_OK)
        r = vks__gltfr_get_index(d, prim, ppath, "indices", 0, d->accessor_count, "accessors", &ind);
    if (r != VKS_OK)
        return r;
    uint32_t *indices = NULL, icount = vcount;
    char path[160];
    snprintf(path, sizeof path, "%s%s", ppath, ind >= 0 ? ".indices" : "");
    if (ind >= 0) {
        gltf_accessor_want wi = {"SCALAR", GLTF_BIT(GLTF_UNSIGNED_BYTE) | GLTF_BIT(GLTF_UNSIGNED_SHORT) |
                                 GLTF_BIT(GLTF_UNSIGNED_INT), 0, 1, 0};
        gltf_values ii;
        if ((r = vks__gltfr_accessor_uints(d, ind, path, &wi, &ii, &indices)) != VKS_OK)
            return r;
        icount = ii.count;
    }
    uint32_t(*t)[3] = NULL, n = 0;
    if ((r = triangles(R, path, (int)mode, indices, icount, vcount, &t, &n)) != VKS_OK)
        return r;
    if (n > d->opt.max_triangles - R->triangles - *count)
        return vks__gltfr_fail(d, VKS_ERR_LIMIT, path, "%u more triangles pass the limit of %u", n, d->opt.max_triangles);
    if (*count + n > *cap) {
        uint32_t ncap = (*count + n) * 2;
        uint32_t(*grown)[3] = vks__gltfr_alloc(d, ncap, sizeof *grown);
        if (!grown)
            return vks__gltfr_nomem(d, ppath);
        memcpy(grown, *all, (size_t)*count * sizeof *grown);
        *all = grown, *cap = ncap;
    }
    memcpy(*all + *count, t, (size_t)n * sizeof *t);
    *count += n;
    return VKS_OK;
}

/* The accessors of a primitive's POSITION (required), NORMAL and indices (-1: absent). */
static vks_result attribute_accessors(gltf_doc *d, const cJSON *prim, const char *ppath, const cJSON *attrs,
                                      const char *apath, int32_t *pos, int32_t *nrm, int32_t *ind)
{
    uint32_t accessors = d->accessor_count;
    vks_result r = vks__gltfr_get_index(d, attrs, apath, "POSITION", 1, accessors, "accessors", pos);
    if (r == VKS_OK)
        r = vks__gltfr_get_index(d, attrs, apath, "NORMAL", 0, accessors, "accessors", nrm);
    if (r == VKS_OK)
        r = vks__gltfr_get_index(d, prim, ppath, "indices", 0, accessors, "accessors", ind);
    return r;
}

/* The primitives after the first that share its attributes (more, nmore): their triangles
 * appended to tris, and a material per triangle (tmat, relative to *lo; lo..hi the range of
 * all the primitives' materials). */
static vks_result shared_primitives(reader *R, const cJSON *const *more, uint32_t nmore, const char *ppath,
                                    const char *mpath, int first_index, int32_t material, uint32_t vcount,
                                    uint32_t (**tris)[3], uint32_t *tcount, uint16_t **tmat_out, int32_t *lo, int32_t *hi)
{
    gltf_doc *d = &R->d;
    vks_result r;
    uint32_t cap = *tcount, *ends = vks__gltfr_alloc(d, nmore + 1, sizeof *ends);
    int32_t *mats = vks__gltfr_alloc(d, nmore + 1, sizeof *mats);
    if (!ends || !mats)
        return vks__gltfr_nomem(d, ppath);
    ends[0] = *tcount, mats[0] = material;
    for (uint32_t k = 0; k < nmore; k++) {
        char qpath[96];
        snprintf(qpath, sizeof qpath, "%s.primitives[%d]", mpath, first_index + 1 + (int)k);
        mats[k + 1] = -1;
        if ((r = vks__gltfr_get_index(d, more[k], qpath, "material", 1, R->material_count, "materials",
                                      &mats[k + 1])) != VKS_OK ||
            (r = more_triangles(R, more[k], qpath, vcount, tris, tcount, &cap)) != VKS_OK)
            return r;
        ends[k + 1] = *tcount;
        *lo = mats[k + 1] < *lo ? mats[k + 1] : *lo;
        *hi = mats[k + 1] > *hi ? mats[k + 1] : *hi;
    }
    if (*hi - *lo >= 65535)
        return vks__gltfr_fail(d, VKS_ERR_LIMIT, mpath, "materials %d..%d of one mesh: at most 65535 apart", *lo, *hi);
    uint16_t *tmat = *tmat_out = vks__gltfr_alloc(d, *tcount, sizeof *tmat);
    if (!tmat)
        return vks__gltfr_nomem(d, ppath);
    for (uint32_t k = 0, t = 0; k <= nmore; k++)
        for (; t < ends[k]; t++)
            tmat[t] = (uint16_t)(mats[k] - *lo);
    return VKS_OK;
}

/* A primitive's POSITION and NORMAL (accessor nrm < 0: none) as floats; *vcount its vertices. */
static vks_result read_vertices(reader *R, const char *ppath, int32_t pos, int32_t nrm, float **positions,
                                float **normals, uint32_t *vcount)
{
    gltf_doc *d = &R->d;
    uint32_t geo = GLTF_BIT(GLTF_FLOAT);
    if (d->quantized) /* KHR_mesh_quantization: integer positions and normals */
        geo |= GLTF_BIT(GLTF_BYTE) | GLTF_BIT(GLTF_UNSIGNED_BYTE) | GLTF_BIT(GLTF_SHORT) | GLTF_BIT(GLTF_UNSIGNED_SHORT);
    gltf_accessor_want wp = {"VEC3", geo, -1, 0, 1};
    gltf_values pi, ni;
    char path[160];
    snprintf(path, sizeof path, "%s.attributes.POSITION", ppath);
    vks_result r = vks__gltfr_accessor_floats(d, pos, path, &wp, &pi, positions);
    if (r != VKS_OK)
        return r;
    *vcount = pi.count;
    if (pi.count > d->opt.max_vertices - R->vertices)
        return vks__gltfr_fail(d, VKS_ERR_LIMIT, path, "%u more vertices pass the limit of %u", pi.count, d->opt.max_vertices);
    if (nrm >= 0) {
        snprintf(path, sizeof path, "%s.attributes.NORMAL", ppath);
        if ((r = vks__gltfr_accessor_floats(d, nrm, path, &wp, &ni, normals)) != VKS_OK)
            return r;
        if (ni.count != pi.count)
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "accessor %d has %u elements, POSITION %u", nrm, ni.count, pi.count);
    }
    return VKS_OK;
}

/* The primitive's influences, up to 8 a vertex (gltf_influences.c); a rigid mesh's vertices all
 * on its node itself, weight 1 (bone 0). */
static vks_result primitive_influences(reader *R, const skin_info *si, const char *ppath, const cJSON *attrs,
                                       uint32_t vcount, gltf_influence_out *io)
{
    gltf_influence_sets is = {0};
    vks_result r = VKS_OK;
    if (!si->rigid && (r = vks__gltfr_influences(&R->d, ppath, attrs, vcount, si->joint_count, &is)) != VKS_OK)
        return r;
    if ((r = vks__gltfr_largest_eight(&R->d, ppath, &is, vcount, io, &R->influences)) != VKS_OK)
        return r;
    for (uint32_t v = 0; si->rigid && v < vcount; v++)
        io->weight[v][0] = io->stored[v] = 1.0f;
    return VKS_OK;
}

/* A rigid mesh: one group on its node, its vertices node-local (the node's world places them:
 * inverse bind identity), flagged so the bind check knows them (as NW4C's). */
static void rigid_group(vks_mesh_source *m, vks_group_source *rigid)
{
    static const uint16_t node_slot = 0;
    memset(rigid, 0, sizeof *rigid);
    rigid->triangles = m->triangles, rigid->triangle_count = m->triangle_count;
    rigid->triangle_material = m->triangle_material;
    rigid->palette = &node_slot, rigid->palette_count = 1, rigid->flags = VKS_GROUP_RIGID;
    m->groups = rigid, m->group_count = 1;
}

/* A points or lines primitive: no surface to deform, said with its size (never dropped
   silently) and counted for the format detail. */
static void skip_points_lines(reader *R, const cJSON *prim, const char *ppath, unsigned mode)
{
    gltf_doc *d = &R->d;
    const cJSON *pos = member(member(prim, "attributes"), "POSITION");
    const cJSON *count = cJSON_IsNumber(pos) ? member(vks__gltfr_item(d->accessors, (uint32_t)pos->valuedouble), "count")
                                            : NULL;
    uint64_t n = cJSON_IsNumber(count) && count->valuedouble >= 0 ? (uint64_t)count->valuedouble : 0;
    vks__log(&d->opt.logger, VKS_LOG_WARNING, "%s: mode %u (%s) is not a surface to deform: %llu vertices skipped",
             ppath, mode, mode == 0 ? "points" : "lines", (unsigned long long)n);
    R->skipped_primitives++;
    R->skipped_vertices += n;
}

/* The primitive's indices (accessor ind; -1: none, *count stays the vertex count), and in path
 * what names them in errors (the indices accessor, else the primitive). */
static vks_result read_indices(gltf_doc *d, const char *ppath, int32_t ind, char *path, size_t cap,
                               uint32_t **indices, uint32_t *count)
{
    if (ind < 0) {
        snprintf(path, cap, "%s", ppath);
        return VKS_OK;
    }
    snprintf(path, cap, "%s.indices", ppath);
    gltf_accessor_want wi = {"SCALAR", GLTF_BIT(GLTF_UNSIGNED_BYTE) | GLTF_BIT(GLTF_UNSIGNED_SHORT) |
                             GLTF_BIT(GLTF_UNSIGNED_INT), 0, 1, 0};
    gltf_values ii;
    vks_result r = vks__gltfr_accessor_uints(d, ind, path, &wi, &ii, indices);
    if (r == VKS_OK)
        *count = ii.count;
    return r;
}

/* One skin mesh from a primitive, and from the primitives after it that share its attributes
 * (more, nmore: a mesh with several materials over one vertex list, as vkskin's writer and
 * many exporters write it); each triangle then has its primitive's material. */
static vks_result add_primitive(reader *R, vks_skin_builder *b, const cJSON *prim, const char *ppath,
                                const char *name, const skin_info *si, const cJSON *const *more, uint32_t nmore,
                                int32_t mesh, const char *mpath, int first_index)
{
    gltf_doc *d = &R->d;
    if (!cJSON_IsObject(prim))
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, ppath, "must be an object");
    uint64_t mode = 4;
    vks_result r = vks__gltfr_get_uint(d, prim, ppath, "mode", 0, 6, &mode);
    if (r != VKS_OK)
        return r;
    if (mode < 4) {
        skip_points_lines(R, prim, ppath, (unsigned)mode);
        return VKS_OK;
    }
    int32_t material = -1;
    r = vks__gltfr_get_index(d, prim, ppath, "material", 0, R->material_count, "materials", &material);
    if (r != VKS_OK)
        return r;
    const cJSON *attrs = member(prim, "attributes");
    char path[160];
    snprintf(path, sizeof path, "%s.attributes", ppath);
    if (!cJSON_IsObject(attrs))
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "must be an object");
    int32_t pos = -1, nrm = -1, ind = -1;
    if ((r = attribute_accessors(d, prim, ppath, attrs, path, &pos, &nrm, &ind)) != VKS_OK)
        return r;
    float *positions = NULL, *normals = NULL;
    uint32_t *indices = NULL, vcount = 0;
    if ((r = read_vertices(R, ppath, pos, nrm, &positions, &normals, &vcount)) != VKS_OK)
        return r;
    gltf_morph_prim mp;
    if ((r = vks__gltfr_morph_read(d, prim, ppath, d->mesh_at[mesh], R->node, vcount, normals != NULL, &mp)) != VKS_OK)
        return r;
    uint32_t icount = vcount;
    if ((r = read_indices(d, ppath, ind, path, sizeof path, &indices, &icount)) != VKS_OK)
        return r;
    uint32_t(*tris)[3] = NULL, tcount = 0;
    if ((r = triangles(R, path, (int)mode, indices, icount, vcount, &tris, &tcount)) != VKS_OK)
        return r;
    if (tcount > d->opt.max_triangles - R->triangles)
        return vks__gltfr_fail(d, VKS_ERR_LIMIT, path, "%u more triangles pass the limit of %u", tcount, d->opt.max_triangles);
    gltf_influence_out io;
    if ((r = primitive_influences(R, si, ppath, attrs, vcount, &io)) != VKS_OK)
        return r;
    float(*uv[VKS_MAX_UV_SETS])[2] = {NULL};
    uint32_t uv_sets = 0;
    if ((r = vks__gltfr_texcoords(d, ppath, attrs, vcount, uv, &uv_sets)) != VKS_OK)
        return r;
    /* the primitives that share these attributes: their triangles, each with its material */
    uint16_t *tmat = NULL;
    int32_t lo = material, hi = material;
    if (nmore && (r = shared_primitives(R, more, nmore, ppath, mpath, first_index, material, vcount, &tris, &tcount,
                                        &tmat, &lo, &hi)) != VKS_OK)
        return r;
    if (tcount == 0) {
        vks__log(&d->opt.logger, VKS_LOG_INFO, "%s: no triangles: skipped", ppath);
        R->skipped_primitives++;
        return VKS_OK;
    }
    if (R->meshes >= d->opt.max_meshes)
        return vks__gltfr_fail(d, VKS_ERR_LIMIT, ppath, "more than %u skinned primitives (the mesh limit)",
                               d->opt.max_meshes);
    R->meshes++;
    vks_mesh_source m = {0};
    m.name = name;
    m.vertex_count = vcount;
    m.positions = (const float(*)[3])positions;
    m.normals = (const float(*)[3])normals;
    m.bone = (const uint16_t(*)[4])io.bone;
    m.weight = (const float(*)[4])io.weight;
    m.bone_more = (const uint16_t(*)[4])io.bone_more;
    m.weight_more = (const float(*)[4])io.weight_more;
    m.stored_weight_sum = io.stored;
    m.triangle_count = tcount;
    m.triangles = (const uint32_t(*)[3])tris;
    m.bone_count = si->joint_count;
    m.bones = si->bones;
    m.space_node = -1; /* skin space = the scene root's: the mesh node's transform is ignored */
    m.flags = VKS_MESH_RENORMALIZE;
    for (uint32_t k = 0; k < uv_sets; k++)
        m.uv[k] = (const float(*)[2])uv[k];
    m.uv_set_count = uv_sets;
    if (material >= 0) /* the range of the primitives' materials; one primitive: its material */
        m.first_material = (uint32_t)lo, m.material_count = (uint32_t)(hi - lo + 1);
    m.triangle_material = tmat;
    vks_group_source rigid;
    if (si->rigid)
        rigid_group(&m, &rigid);
    r = vks_builder_add_mesh(b, &m, d->err);
    if (r == VKS_OK && mp.target_count)
        r = keep_morph(R, &mp);
    R->vertices += vcount;
    R->triangles += tcount;
    return r;
}

/* Whether primitive q draws the vertices of primitive p with a material of its own: the same
 * attributes, both with a material, triangles (mode 4..6), no morph targets. */
static int shares_vertices(const cJSON *p, const cJSON *q)
{
    const cJSON *pm = member(p, "mode"), *qm = member(q, "mode");
    return cJSON_IsObject(p) && cJSON_IsObject(q) && cJSON_IsNumber(member(p, "material")) &&
           cJSON_IsNumber(member(q, "material")) && !member(p, "targets") && !member(q, "targets") &&
           (!pm || (cJSON_IsNumber(pm) && pm->valuedouble >= 4)) && (!qm || (cJSON_IsNumber(qm) && qm->valuedouble >= 4)) &&
           cJSON_Compare(member(p, "attributes"), member(q, "attributes"), 1);
}

static vks_result add_node_meshes(reader *R, vks_skin_builder *b, int32_t mesh, const skin_info *si)
{
    gltf_doc *d = &R->d;
    char mpath[48];
    snprintf(mpath, sizeof mpath, "meshes[%d]", mesh);
    const cJSON *mo = d->mesh_at[mesh];
    const cJSON *prims = member(mo, "primitives");
    int np = cJSON_IsArray(prims) ? cJSON_GetArraySize(prims) : 0;
    if (np < 1)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, mpath, "primitives must be a non-empty array");
    const cJSON *nm = member(mo, "name");
    const char *base = cJSON_IsString(nm) && nm->valuestring[0] ? nm->valuestring : mpath;
    const cJSON **more = vks__gltfr_alloc(d, (size_t)np, sizeof *more);
    if (!more)
        return vks__gltfr_nomem(d, mpath);
    int p = 0;
    for (const cJSON *prim = prims->child; prim; p++) {
        /* the primitives after it over the same attributes, each with a material, none morphed
           nor points or lines: one mesh (a mesh with several materials) */
        uint32_t nmore = 0;
        const cJSON *q = prim->next;
        while (q && shares_vertices(prim, q))
            more[nmore++] = q, q = q->next;
        char ppath[80], name[160];
        snprintf(ppath, sizeof ppath, "%s.primitives[%d]", mpath, p);
        if (np == 1 || (int)nmore + 1 == np)
            snprintf(name, sizeof name, "%.100s", base);
        else
            snprintf(name, sizeof name, "%.100s/primitives[%d]", base, p);
        vks_result r = add_primitive(R, b, prim, ppath, name, si, more, nmore, mesh, mpath, p);
        if (r != VKS_OK)
            return r;
        p += (int)nmore;
        prim = q;
    }
    return VKS_OK;
}

/* EXT_mesh_gpu_instancing draws a node's mesh at many places; vkskin reads it once, at the
   node, and says how many places it leaves out (issue 38: no silent loss). */
static void warn_gpu_instancing(gltf_doc *d, uint32_t node)
{
    const cJSON *ext = member(member(d->node_at[node], "extensions"), "EXT_mesh_gpu_instancing");
    if (!ext)
        return;
    const cJSON *attrs = member(ext, "attributes"), *a = attrs ? attrs->child : NULL;
    const cJSON *count = cJSON_IsNumber(a) ? member(vks__gltfr_item(d->accessors, (uint32_t)a->valuedouble), "count")
                                           : NULL;
    vks__log(&d->opt.logger, VKS_LOG_WARNING,
             "nodes[%u]: EXT_mesh_gpu_instancing draws its mesh at %.0f places; read once, at the node", node,
             cJSON_IsNumber(count) ? count->valuedouble : 0.0);
}

/* The skinned and rigid meshes of the scene's nodes, in the file's node order. */
static vks_result add_meshes(reader *R, vks_skin_builder *b, const uint8_t *reach, const int32_t *mesh_of,
                             const int32_t *skin_of)
{
    for (uint32_t i = 0; i < R->d.node_count; i++) {
        if (!reach[i] || mesh_of[i] < 0)
            continue;
        vks_bone node_bone = {(uint32_t)R->node_of[i], vks_affine_identity()};
        skin_info rigid = {.loaded = 1, .rigid = 1, .joint_count = 1, .bones = &node_bone};
        R->node = i;
        vks_result r = add_node_meshes(R, b, mesh_of[i], skin_of[i] >= 0 ? &R->skins[skin_of[i]] : &rigid);
        if (r != VKS_OK)
            return r;
    }
    return VKS_OK;
}

/* The model's format_detail: the document's, plus its rigid mesh nodes and skipped primitives. */
static void format_detail(const reader *R, char *detail, size_t cap)
{
    int len = snprintf(detail, cap, "%s", R->d.detail);
    if (R->rigid_nodes && len > 0 && (size_t)len < cap)
        len += snprintf(detail + len, cap - (size_t)len, ", %u rigid mesh node(s)", R->rigid_nodes);
    if (R->skipped_primitives && len > 0 && (size_t)len < cap)
        snprintf(detail + len, cap - (size_t)len,
                 ", %u primitive(s) without triangles skipped (%llu vertices of points and lines)", R->skipped_primitives,
                 (unsigned long long)R->skipped_vertices);
}

vks_result vks_gltf_read(const vks_read_options *opt, const void *bytes, size_t size, vks_skin **out, vks_error *err)
{
    reader R;
    memset(&R, 0, sizeof R);
    vks_skin *skin = NULL;
    gltf_doc *d = &R.d;
    vks_result r = vks__gltfr_doc_open(d, opt, bytes, size, err);
    if (r != VKS_OK)
        goto done;
    uint32_t n = d->node_count;
    R.skin_count = d->skin_count;
    R.skins = vks__gltfr_alloc(d, R.skin_count, sizeof *R.skins);
    R.needed = vks__gltfr_alloc(d, n, 1);
    uint8_t *reach = vks__gltfr_alloc(d, n, 1);
    int32_t *mesh_of = vks__gltfr_alloc(d, n, sizeof *mesh_of), *skin_of = vks__gltfr_alloc(d, n, sizeof *skin_of);
    if (!R.skins || !R.needed || !reach || !mesh_of || !skin_of) {
        r = vks__gltfr_nomem(d, "nodes");
        goto done;
    }
    if ((r = scene_nodes(&R, reach)) != VKS_OK)
        goto done;
    uint32_t skinned = 0, meshes = d->mesh_count;
    for (uint32_t i = 0; i < n; i++) {
        char path[32];
        snprintf(path, sizeof path, "nodes[%u]", i);
        const cJSON *o = d->node_at[i];
        mesh_of[i] = skin_of[i] = -1;
        if ((r = vks__gltfr_get_index(d, o, path, "mesh", 0, meshes, "meshes", &mesh_of[i])) != VKS_OK ||
            (r = vks__gltfr_get_index(d, o, path, "skin", 0, R.skin_count, "skins", &skin_of[i])) != VKS_OK)
            goto done;
        if (skin_of[i] >= 0 && mesh_of[i] < 0) {
            r = vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "has a skin but no mesh");
            goto done;
        }
        if (!reach[i] || mesh_of[i] < 0)
            continue;
        warn_gpu_instancing(d, i);
        if (skin_of[i] < 0) { /* a rigid part: its node and the node's ancestors join the skeleton */
            for (int32_t a = (int32_t)i; a >= 0 && !R.needed[a]; a = d->parent[a])
                R.needed[a] = 1;
            R.rigid_nodes++;
            continue;
        }
        if ((r = load_skin(&R, skin_of[i])) != VKS_OK)
            goto done;
        skinned++;
    }
    if (!skinned && !R.rigid_nodes) {
        r = vks__gltfr_fail(d, VKS_ERR_FORMAT, "nodes", "the scene has no node with a mesh");
        goto done;
    }
    skin = vks_skin_create(&d->opt.allocator);
    if (!skin) {
        r = vks__gltfr_nomem(d, "nodes");
        goto done;
    }
    if ((r = skeleton(&R, skin)) != VKS_OK || (r = vks__gltfr_materials(d, skin)) != VKS_OK)
        goto done;
    R.material_count = skin->material_count;
    vks_skin_builder *b = vks_builder_create(skin);
    if (!b) {
        r = vks__gltfr_nomem(d, "meshes");
        goto done;
    }
    if ((r = add_meshes(&R, b, reach, mesh_of, skin_of)) != VKS_OK) {
        vks_builder_destroy(b);
        goto done;
    }
    if ((r = vks_builder_finish(b, err)) != VKS_OK)
        goto done;
    if (skin->mesh_count == 0) {
        r = vks__gltfr_fail(d, VKS_ERR_FORMAT, "meshes", "the meshes have no triangles");
        goto done;
    }
    skin->weights.over_four = R.influences.over_four;
    skin->weights.truncated = R.influences.truncated;
    skin->weights.truncated_max_weight = R.influences.truncated_max;
    if ((r = vks__gltfr_morph_attach(d, skin, R.morphs, R.morph_count)) != VKS_OK)
        goto done;
    char detail[192];
    format_detail(&R, detail, sizeof detail);
    skin->format = "gltf";
    skin->format_detail = vks_skin_strndup(skin, detail, strlen(detail));
    if (!skin->format_detail)
        r = vks__gltfr_nomem(d, "asset");
    if (r == VKS_OK) /* a model this reader returns is always deformable */
        r = vks_skin_validate(skin, err);
done:
    vks__gltfr_doc_free(d);
    if (r != VKS_OK) {
        vks_skin_free(skin);
        if (err && err->code == VKS_OK)
            vks_error_set(err, r, VKS_NO_OFFSET, "gltf", "read failed");
        return r;
    }
    *out = skin;
    return VKS_OK;
}
