/* vks_gltf_write_skin (include/vkskin/gltf.h): the skin's skeleton, meshes and skins as glTF
 * nodes, meshes and skins; the clips follow in gltf_anim.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"
#include "gltf_layout.h"
#include "skin_axes.h"

vks_gltf_container vks_gltf_container_from_path(const char *path)
{
    size_t n = strlen(path);
    return n >= 5 && !strcmp(path + n - 5, ".gltf") ? VKS_GLTF_EMBEDDED : VKS_GLTF_GLB;
}

vks_affine vks_gltf_correction(const vks_skin *skin)
{
    vks_affine c = vks_affine_identity();
    vks_axes axes = vks__skin_axes(skin);
    if (axes == VKS_AXES_Z_UP) { /* x stays, z becomes y, y becomes -z */
        c.m[4] = 0, c.m[5] = -1; /* image of the y axis: (0, 0, -1) */
        c.m[7] = 1, c.m[8] = 0;  /* image of the z axis: (0, 1, 0) */
    } else if (axes == VKS_AXES_LEFT_Y_UP) { /* mirror z */
        c.m[8] = -1;
    }
    return c;
}

static vks_affine round_affine(const vks_affine_d *a)
{
    vks_affine r;
    for (int i = 0; i < 12; i++)
        r.m[i] = (float)a->m[i];
    return r;
}

/* Per mesh its skin space at bind (S = space_pre * inverse world of space_node), and meshes
 * with the same S sharing one skeleton copy. */
static int plan_copies(vks__gltf_layout *L, const vks_skin *s)
{
    vks_affine_d *world = malloc(((size_t)s->node_count + 1) * sizeof *world);
    L->copy_of_mesh = calloc((size_t)s->mesh_count + 1, sizeof *L->copy_of_mesh);
    L->copy_space = malloc(((size_t)s->mesh_count + 1) * sizeof *L->copy_space);
    if (!world || !L->copy_of_mesh || !L->copy_space) {
        free(world);
        return 0;
    }
    for (uint32_t n = 0; n < s->node_count; n++) {
        vks_affine_d l = vks_affine_d_from(&s->nodes[n].bind_local);
        world[n] = s->nodes[n].parent < 0 ? l : vks_affine_d_mul(&world[s->nodes[n].parent], &l);
    }
    L->copies = 0;
    for (uint32_t m = 0; m < s->mesh_count; m++) {
        const vks_mesh *me = &s->meshes[m];
        vks_affine_d S = vks_affine_d_from(&me->space_pre), inv;
        if (me->space_node >= 0 && (uint32_t)me->space_node < s->node_count &&
            vks_affine_d_inverse(&world[me->space_node], &inv))
            S = vks_affine_d_mul(&S, &inv);
        uint32_t c = 0;
        while (c < L->copies && vks_affine_d_max_diff(&L->copy_space[c], &S) > 1e-7)
            c++;
        if (c == L->copies)
            L->copy_space[L->copies++] = S;
        L->copy_of_mesh[m] = c;
    }
    if (L->copies == 0) /* a model without meshes still gets its skeleton */
        L->copy_space[L->copies++] = vks_affine_d_identity();
    free(world);
    return 1;
}

static cJSON *name_item(cJSON *o, const char *name)
{
    if (o && name && name[0])
        cJSON_AddStringToObject(o, "name", name);
    return o;
}

static void add_child(vks__gltf *g, uint32_t parent, uint32_t child)
{
    cJSON *p = cJSON_GetArrayItem(g->nodes, (int)parent);
    cJSON *c = p ? cJSON_GetObjectItemCaseSensitive(p, "children") : NULL;
    if (p && !c)
        c = cJSON_AddArrayToObject(p, "children");
    if (!c || !cJSON_AddItemToArray(c, cJSON_CreateNumber(child)))
        g->failed = 1;
}

/* Every copy: its root (C * S) and the skeleton's nodes under it, in skin order. */
static void write_skeletons(vks__gltf *g, const vks__gltf_layout *L, const vks_skin *s, const vks_affine *C)
{
    vks_affine_d Cd = vks_affine_d_from(C);
    for (uint32_t c = 0; c < L->copies; c++) {
        vks_affine_d root = vks_affine_d_mul(&Cd, &L->copy_space[c]);
        vks_affine ra = round_affine(&root);
        char name[48];
        snprintf(name, sizeof name, L->copies > 1 ? "vkskin root %u" : "vkskin root", c);
        cJSON *r = name_item(cJSON_CreateObject(), name);
        if (r)
            vks__gltf_node_trs(r, &ra);
        uint32_t ri = vks__gltf_push(g, g->nodes, r);
        vks__gltf_push(g, g->scene_nodes, cJSON_CreateNumber(ri));
        for (uint32_t n = 0; n < s->node_count; n++) {
            /* a copy's nodes get names of their own, so that tools binding by name (vkskin's
               clips, Blender) tell the copies apart */
            char copy_name[192];
            snprintf(copy_name, sizeof copy_name, "%s (skin space %u)", s->nodes[n].name, c);
            cJSON *o = name_item(cJSON_CreateObject(), c ? copy_name : s->nodes[n].name);
            if (o)
                vks__gltf_node_trs(o, &s->nodes[n].bind_local);
            uint32_t ni = vks__gltf_push(g, g->nodes, o);
            add_child(g, s->nodes[n].parent < 0 ? ri : vks__gltf_node(L, c, (uint32_t)s->nodes[n].parent), ni);
        }
    }
}

/* The group that holds model vertex v (groups are contiguous per mesh). */
static const vks_group *group_of(const vks_skin *s, const vks_mesh *me, uint32_t v)
{
    for (uint32_t gi = me->first_group; gi < me->first_group + me->group_count; gi++) {
        const vks_group *gr = &s->groups[gi];
        if (v >= gr->first_vertex && v < gr->first_vertex + gr->vertex_count)
            return gr;
    }
    return NULL;
}

/* Keeps the `most` largest of n merged influences (ties: the earlier slot), in slot order;
 * returns the largest weight left out, 0 when none is. */
static double keep_largest(uint16_t *j, double *acc, int *n, int most)
{
    double dropped = 0;
    while (*n > most) {
        int small = 0;
        for (int k = 1; k < *n; k++)
            small = acc[k] <= acc[small] ? k : small;
        dropped = acc[small] > dropped ? acc[small] : dropped;
        for (int k = small; k + 1 < *n; k++)
            j[k] = j[k + 1], acc[k] = acc[k + 1];
        (*n)--;
    }
    return dropped;
}

/* One file vertex's influences as skin joints, up to `most` (<= 8: JOINTS_0 then JOINTS_1):
 * duplicate joints merged, the largest `most` kept (the largest weight dropped, of the sum 1,
 * into *dropped; 0 when none), weights normalised (the largest one 1 - the others, so float
 * sums are as close to 1 as float allows). Returns 1 when the stored weights did not sum to 1. */
static int vertex_joints(const vks_skin *s, const vks_mesh *me, uint32_t v, int most, uint16_t j[VKS_MAX_INFLUENCES],
                         float w[VKS_MAX_INFLUENCES], double *dropped)
{
    *dropped = 0;
    double acc[VKS_MAX_INFLUENCES] = {0}, sum = 0;
    int n = 0;
    memset(j, 0, VKS_MAX_INFLUENCES * sizeof *j);
    memset(w, 0, VKS_MAX_INFLUENCES * sizeof *w);
    const vks_group *gr = v == UINT32_MAX ? NULL : group_of(s, me, v);
    for (int k = 0; gr && k < VKS_MAX_INFLUENCES; k++) {
        float wk = s->influences[v].weight[k];
        if (!(wk > 0) || s->influences[v].index[k] >= gr->palette_count)
            continue;
        uint32_t bone = s->palette[gr->first_palette + s->influences[v].index[k]];
        uint16_t joint = (uint16_t)(bone - me->first_bone);
        int at = 0;
        while (at < n && j[at] != joint)
            at++;
        if (at == n)
            j[n++] = joint;
        acc[at] += wk;
        sum += wk;
    }
    if (n == 0 || !(sum > 0)) {
        j[0] = 0, w[0] = 1;
        return 1;
    }
    int stored_off = fabs(sum - 1.0) > 1e-3;
    if (n > most) {
        *dropped = keep_largest(j, acc, &n, most) / sum;
        sum = 0;
        for (int k = 0; k < n; k++)
            sum += acc[k];
    }
    /* float weights, those that round to 0 dropped (the validator refuses a joint used with
       weight 0), the largest taking 1 - the others so that the sum is 1 as near as float gets */
    int kept = 0, big = 0;
    uint16_t jj[VKS_MAX_INFLUENCES] = {0};
    float ww[VKS_MAX_INFLUENCES] = {0};
    for (int k = 0; k < n; k++) {
        float f = (float)(acc[k] / sum);
        if (f > 0) {
            jj[kept] = j[k], ww[kept] = f;
            big = ww[kept] > ww[big] ? kept : big;
            kept++;
        }
    }
    float rest = 1.0f;
    for (int k = 0; k < kept; k++)
        rest -= k == big ? 0.0f : ww[k];
    ww[big] = rest;
    memcpy(j, jj, sizeof jj);
    memcpy(w, ww, sizeof ww);
    return stored_off;
}

/* Mesh m's skin: its bones in order as joints (so JOINTS_0 are mesh-local bone numbers), with
 * their inverse binds; a node that is two bones of the mesh gets a helper child with an
 * identity transform for its second inverse bind. ibm: room for 16 floats per bone. */
static uint32_t write_skin(vks__gltf *g, const vks__gltf_layout *L, const vks_skin *s, uint32_t m, float *ibm)
{
    const vks_mesh *me = &s->meshes[m];
    uint32_t c = L->copy_of_mesh[m];
    cJSON *skin = cJSON_CreateObject(), *joints = skin ? cJSON_AddArrayToObject(skin, "joints") : NULL;
    for (uint32_t b = 0; joints && b < me->bone_count; b++) {
        const vks_bone *bo = &s->bones[me->first_bone + b];
        uint32_t node = vks__gltf_node(L, c, bo->node);
        for (uint32_t e = 0; e < b; e++)
            if (s->bones[me->first_bone + e].node == bo->node) {
                char name[160];
                snprintf(name, sizeof name, "%s (bone %u)", s->nodes[bo->node].name, b);
                uint32_t h = vks__gltf_push(g, g->nodes, name_item(cJSON_CreateObject(), name));
                add_child(g, node, h);
                node = h;
                break;
            }
        if (!cJSON_AddItemToArray(joints, cJSON_CreateNumber(node)))
            g->failed = 1;
        vks__gltf_mat4(&bo->inverse_bind, ibm + (size_t)b * 16);
    }
    if (skin) {
        cJSON_AddNumberToObject(skin, "inverseBindMatrices", vks__gltf_floats(g, ibm, me->bone_count, 16, 0, 0));
        cJSON_AddNumberToObject(skin, "skeleton", L->copy_root[c]);
    }
    return vks__gltf_push(g, g->skins, name_item(skin, me->name));
}

/* Mesh m's primitives over the same attributes: one per mesh-local material that has triangles
 * (glTF gives a primitive one material), or one for all its triangles. */
static void write_primitives(vks__gltf *g, const vks_skin *s, uint32_t m, cJSON *prims, const cJSON *attr,
                             const cJSON *targets)
{
    const vks_mesh *me = &s->meshes[m];
    uint32_t parts = me->material_count > 1 ? me->material_count : 1;
    for (uint32_t l = 0; l < parts; l++) {
        uint32_t used = 0;
        for (uint32_t t = me->first_triangle; parts > 1 && t < me->first_triangle + me->triangle_count; t++)
            used += (s->triangle_material ? s->triangle_material[t] : 0) == l;
        if (parts > 1 && !used)
            continue;
        cJSON *prim = cJSON_CreateObject(), *a = cJSON_Duplicate(attr, 1);
        if (!prim || !a || !cJSON_AddItemToObject(prim, "attributes", a)) {
            cJSON_Delete(prim), cJSON_Delete(a);
            g->failed = 1;
            return;
        }
        if (me->triangle_count)
            cJSON_AddNumberToObject(prim, "indices", vks__gltf_mesh_indices_of(g, s, m, parts > 1 ? (int32_t)l : -1));
        if (me->material_count)
            cJSON_AddNumberToObject(prim, "material", me->first_material + l);
        if (targets && !cJSON_AddItemToObject(prim, "targets", cJSON_Duplicate(targets, 1)))
            g->failed = 1;
        vks__gltf_push(g, prims, prim);
    }
}

/* A rigid part: a mesh whose every group is rigid on its one bone (a sword on a hand, a
 * helmet, a prop at a root: VKS_GROUP_RIGID, weight 1), so its vertices follow that bone's
 * node whole and need no skin. */
static int rigid_part(const vks_skin *s, const vks_mesh *me)
{
    if (me->bone_count != 1 || me->group_count == 0)
        return 0;
    for (uint32_t gi = me->first_group; gi < me->first_group + me->group_count; gi++)
        if (!(s->groups[gi].flags & VKS_GROUP_RIGID))
            return 0;
    return 1;
}

/* A node's local transform: TRS where the affine is one (within float), else its matrix. */
static void local_transform(cJSON *node, const vks_affine *a)
{
    float t[3], q[4], sc[3], m16[16];
    vks_affine_to_trs(a, t, q, sc);
    vks_affine back = vks_affine_from_trs(t, q, sc);
    double size = 0, off = 0;
    for (int i = 0; i < 12; i++) {
        size = fmax(size, fabs((double)a->m[i]));
        off = fmax(off, fabs((double)back.m[i] - (double)a->m[i]));
    }
    if (off <= 1e-6 * (size > 1 ? size : 1)) {
        vks__gltf_node_trs(node, a);
        return;
    }
    vks__gltf_mat4(a, m16);
    cJSON_AddItemToObject(node, "matrix", vks__gltf_numbers(m16, 16));
}

/* Rigid mesh m as a mesh node (no skin) under its bone's node in its skeleton copy. Its
 * vertices stay as the source stores them (the part's own space); the node's local transform
 * is the bone's inverse bind, which for a rigid group places those vertices in the bone's
 * space (identity for glTF, RenderWare and NW4C; the shape's transform under its node for
 * NIF): its world, C * S * W(bone) * inverse bind, is the skin matrix the one-joint skin had.
 * A node named as a skeleton node (its bone, for glTF's rigid parts) is called
 * "<name> (mesh)", so that clips and poses that bind by name find the skeleton's node. */
static void write_rigid_node(vks__gltf *g, const vks__gltf_layout *L, const vks_skin *s, uint32_t m,
                             uint32_t mesh_index)
{
    const vks_mesh *me = &s->meshes[m];
    const vks_bone *bo = &s->bones[me->first_bone];
    char name[192];
    int clash = 0;
    for (uint32_t n = 0; n < s->node_count && !clash; n++)
        clash = !strcmp(me->name, s->nodes[n].name);
    snprintf(name, sizeof name, clash ? "%s (mesh)" : "%s", me->name);
    cJSON *node = name_item(cJSON_CreateObject(), name);
    if (node) {
        cJSON_AddNumberToObject(node, "mesh", mesh_index);
        local_transform(node, &bo->inverse_bind);
    }
    uint32_t ni = vks__gltf_push(g, g->nodes, node);
    add_child(g, vks__gltf_node(L, L->copy_of_mesh[m], bo->node), ni);
}

/* One mesh: its primitive in file vertex order, and its skin and node at the scene root, or,
 * for a rigid part, its node under its bone (write_rigid_node). */
static int write_mesh(vks__gltf *g, const vks__gltf_layout *L, const vks_skin *s, uint32_t m, const uint32_t *file_to_model,
                      int most, vks_gltf_report *rep)
{
    const vks_mesh *me = &s->meshes[m];
    uint32_t nv = me->source_vertex_count;
    float (*pos)[3] = malloc(((size_t)nv + 1) * sizeof *pos), (*nrm)[3] = malloc(((size_t)nv + 1) * sizeof *nrm);
    /* joints and weights of set 0 in [0, nv), of set 1 (slots 4..7) in [nv, 2 nv) */
    float (*wts)[4] = malloc(((size_t)nv + 1) * 2 * sizeof *wts), *ibm = malloc(((size_t)me->bone_count + 1) * 64);
    uint16_t (*jts)[4] = malloc(((size_t)nv + 1) * 2 * sizeof *jts);
    int ok = pos && nrm && wts && ibm && jts, two_sets = 0, rigid = rigid_part(s, me);
    int has_n = s->normals && (me->flags & VKS_MESH_HAS_NORMALS);
    for (uint32_t j = 0; ok && j < nv; j++) {
        uint32_t v = file_to_model[j];
        for (int k = 0; k < 3; k++)
            pos[j][k] = v == UINT32_MAX ? 0.0f : s->positions[v][k];
        if (has_n && !vks__gltf_unit(v == UINT32_MAX ? 0 : s->normals[v][0], v == UINT32_MAX ? 0 : s->normals[v][1],
                                     v == UINT32_MAX ? 0 : s->normals[v][2], nrm[j]))
            rep->normals_replaced++;
        uint16_t jv[VKS_MAX_INFLUENCES];
        float wv[VKS_MAX_INFLUENCES];
        double dropped;
        rep->weights_normalised += (uint32_t)vertex_joints(s, me, v, most, jv, wv, &dropped);
        rep->influences_dropped += dropped > 0;
        if (dropped > rep->influence_max_dropped)
            rep->influence_max_dropped = (float)dropped;
        memcpy(jts[j], jv, sizeof jts[j]), memcpy(jts[nv + j], jv + 4, sizeof jts[j]);
        memcpy(wts[j], wv, sizeof wts[j]), memcpy(wts[nv + j], wv + 4, sizeof wts[j]);
        two_sets |= wv[4] > 0;
    }
    if (ok) {
        cJSON *attr = cJSON_CreateObject();
        if (attr) {
            cJSON_AddNumberToObject(attr, "POSITION", vks__gltf_floats(g, &pos[0][0], nv, 3, VKS__GL_ARRAY_BUFFER, 1));
            if (has_n)
                cJSON_AddNumberToObject(attr, "NORMAL", vks__gltf_floats(g, &nrm[0][0], nv, 3, VKS__GL_ARRAY_BUFFER, 0));
            vks__gltf_texcoords(g, attr, s, file_to_model, nv, 0, me->uv_set_count, 0);
            if (me->bone_count && !rigid) {
                cJSON_AddNumberToObject(attr, "JOINTS_0", vks__gltf_joints(g, (const uint16_t(*)[4])jts, nv));
                cJSON_AddNumberToObject(attr, "WEIGHTS_0", vks__gltf_floats(g, &wts[0][0], nv, 4, VKS__GL_ARRAY_BUFFER, 0));
            }
            if (me->bone_count && two_sets && !rigid) { /* only meshes with more than 4 influences */
                cJSON_AddNumberToObject(attr, "JOINTS_1", vks__gltf_joints(g, (const uint16_t(*)[4])(jts + nv), nv));
                cJSON_AddNumberToObject(attr, "WEIGHTS_1",
                                        vks__gltf_floats(g, &wts[nv][0], nv, 4, VKS__GL_ARRAY_BUFFER, 0));
            }
        }
        cJSON *mesh = name_item(cJSON_CreateObject(), me->name), *prims = mesh ? cJSON_AddArrayToObject(mesh, "primitives") : NULL;
        cJSON *targets = vks__gltf_morph_targets(g, s, m, file_to_model, has_n);
        vks__gltf_morph_mesh(g, mesh, s, m);
        if (!prims || !attr)
            g->failed = 1;
        else
            write_primitives(g, s, m, prims, attr, targets);
        cJSON_Delete(attr);
        cJSON_Delete(targets);
        uint32_t mesh_index = vks__gltf_push(g, g->meshes, mesh);
        if (rigid) {
            write_rigid_node(g, L, s, m, mesh_index);
        } else {
            int32_t skin_index = me->bone_count ? (int32_t)write_skin(g, L, s, m, ibm) : -1;
            rep->joints += me->bone_count;
            cJSON *node = name_item(cJSON_CreateObject(), me->name);
            if (node) {
                cJSON_AddNumberToObject(node, "mesh", mesh_index);
                if (skin_index >= 0) /* a mesh without bones is written unskinned */
                    cJSON_AddNumberToObject(node, "skin", skin_index);
            }
            vks__gltf_push(g, g->scene_nodes, cJSON_CreateNumber(vks__gltf_push(g, g->nodes, node)));
        }
    }
    free(pos), free(nrm), free(wts), free(ibm), free(jts);
    return ok;
}

/* file vertex order (meshes in order) -> the first model vertex that came from it (as bake.c) */
static uint32_t *file_vertex_map(const vks_skin *s, uint32_t m)
{
    const vks_mesh *me = &s->meshes[m];
    uint32_t *map = malloc(((size_t)me->source_vertex_count + 1) * sizeof *map);
    if (!map)
        return NULL;
    for (uint32_t j = 0; j < me->source_vertex_count; j++)
        map[j] = UINT32_MAX;
    for (uint32_t v = me->vertex_count; v-- > 0;) {
        uint32_t sv = s->source_vertex[me->first_vertex + v];
        if (sv < me->source_vertex_count)
            map[sv] = me->first_vertex + v;
    }
    return map;
}

vks_result vks_gltf_write_skin(const char *path, const vks_skin *skin, const vks_gltf_clip *clips, uint32_t clip_count,
                               const vks_gltf_options *opt, vks_gltf_report *report, vks_error *err)
{
    vks_gltf_options o = opt ? *opt : (vks_gltf_options){0};
    if (!(o.fps > 0) || !isfinite(o.fps))
        o.fps = 30;
    if (o.container == VKS_GLTF_FROM_PATH)
        o.container = vks_gltf_container_from_path(path);
    vks_gltf_report rep;
    memset(&rep, 0, sizeof rep);
    vks__gltf g;
    vks__gltf_layout L;
    memset(&L, 0, sizeof L);
    L.node_count = skin->node_count;
    int ok = vks__gltf_init(&g, o.generator) && plan_copies(&L, skin);
    L.copy_root = ok ? malloc(((size_t)L.copies + 1) * sizeof *L.copy_root) : NULL;
    ok = ok && L.copy_root;
    for (uint32_t c = 0; ok && c < L.copies; c++)
        L.copy_root[c] = c * (skin->node_count + 1);
    vks_affine C = vks_gltf_correction(skin);
    if (ok) {
        write_skeletons(&g, &L, skin, &C);
        cJSON *vk = vks__gltf_extras(&g, &C);
        if (!vk || !cJSON_AddStringToObject(vk, "source_format", skin->format ? skin->format : ""))
            g.failed = 1;
    }
    if (ok)
        vks__gltf_materials(&g, skin);
    L.mesh_node = ok ? malloc(((size_t)skin->mesh_count + 1) * sizeof *L.mesh_node) : NULL;
    ok = ok && L.mesh_node;
    for (uint32_t m = 0; ok && m < skin->mesh_count; m++) {
        uint32_t *map = file_vertex_map(skin, m);
        ok = map && write_mesh(&g, &L, skin, m, map,
                               o.max_influences - 1u < VKS_MAX_INFLUENCES ? (int)o.max_influences : VKS_MAX_INFLUENCES,
                               &rep);
        L.mesh_node[m] = (uint32_t)cJSON_GetArraySize(g.nodes) - 1; /* write_mesh's node comes last */
        free(map);
    }
    vks_result r = VKS_OK;
    if (ok)
        r = vks__gltf_animations(&g, &L, skin, clips, clip_count, o.fps, &rep, err);
    if (r == VKS_OK && !ok)
        r = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory building the glTF document");
    if (r == VKS_OK) {
        rep.nodes = (uint32_t)cJSON_GetArraySize(g.nodes);
        rep.meshes = (uint32_t)cJSON_GetArraySize(g.meshes);
        rep.skins = (uint32_t)cJSON_GetArraySize(g.skins);
        rep.animations = (uint32_t)cJSON_GetArraySize(g.animations);
        rep.skeleton_copies = L.copies;
        rep.uv_sets = skin->uv_set_count;
        rep.materials = (uint32_t)cJSON_GetArraySize(g.materials);
        rep.images = (uint32_t)cJSON_GetArraySize(g.images);
        r = vks__gltf_save(&g, path, o.container, &rep.bytes, err);
    }
    vks__gltf_free(&g);
    free(L.copy_of_mesh), free(L.copy_space), free(L.copy_root), free(L.mesh_node);
    if (report)
        *report = rep;
    return r;
}
