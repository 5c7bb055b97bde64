/* The .cmdl reader's skeleton step (notes §6): <Bone> elements become skin nodes.
 * Parents are resolved by name (a missing parent, a duplicate name or a cycle is an error);
 * nodes keep document order when it already puts parents first, otherwise a depth-first
 * order from the roots. The bind local is T * Rz * Ry * Rx * S (radians); with
 * ScalingRule="Maya" a segment-scale-compensating bone divides out its parent's scale:
 * T * S(1/S_parent) * R * S. There is no stored bind matrix: inverse binds are the inverses
 * of the bind worlds computed here. */
#include "cmdl_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct name_ix {
    const char *name;
    uint32_t index;
} name_ix;

static int cmp_name(const void *a, const void *b)
{
    const name_ix *x = a, *y = b;
    int r = strcmp(x->name, y->name);
    return r ? r : (x->index > y->index) - (x->index < y->index);
}

static int32_t find_name(const name_ix *sorted, uint32_t n, const char *name)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int r = strcmp(sorted[mid].name, name);
        if (r == 0)
            return (int32_t)sorted[mid].index;
        if (r < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* T * S(1/pre) * Rz * Ry * Rx * S as a column-major 3x4 (pre: the parent's scale, or 1). */
static vks_affine bone_local(const cmdl_bone *b, const float pre[3])
{
    double ca = cos(b->r[0]), sa = sin(b->r[0]);
    double cb = cos(b->r[1]), sb = sin(b->r[1]);
    double cc = cos(b->r[2]), sc = sin(b->r[2]);
    double R[3][3] = {{cc * cb, cc * sb * sa - sc * ca, cc * sb * ca + sc * sa},
                      {sc * cb, sc * sb * sa + cc * ca, sc * sb * ca - cc * sa},
                      {-sb, cb * sa, cb * ca}};
    vks_affine m;
    for (int col = 0; col < 3; col++)
        for (int row = 0; row < 3; row++) {
            double inv = pre[row] != 0.0f ? 1.0 / pre[row] : 1.0;
            m.m[col * 3 + row] = (float)(R[row][col] * b->s[col] * inv);
        }
    m.m[9] = b->t[0], m.m[10] = b->t[1], m.m[11] = b->t[2];
    return m;
}

/* Node order when some parent comes after its child: depth-first from the roots, children in
   document order (first_child, next_sibling and stack are scratch of nb entries). A bone no root
   reaches sits on a parent cycle: an error. */
static vks_result depth_first_order(cmdl_ctx *c, const cmdl_bone *bones, const int32_t *parent, uint32_t nb,
                                    uint32_t *order, uint32_t *first_child, uint32_t *next_sibling, uint32_t *stack)
{
    const uint32_t none = UINT32_MAX;
    for (uint32_t i = 0; i < nb; i++)
        first_child[i] = next_sibling[i] = none;
    for (uint32_t i = nb; i-- > 0;)
        if (parent[i] >= 0) {
            next_sibling[i] = first_child[parent[i]];
            first_child[parent[i]] = i;
        }
    uint32_t placed = 0;
    for (uint32_t r = 0; r < nb; r++) {
        if (parent[r] >= 0)
            continue;
        uint32_t sp = 0;
        stack[sp++] = r;
        while (sp) {
            uint32_t v = stack[--sp];
            order[placed++] = v;
            /* push children in reverse so the first child is visited first */
            uint32_t cnt = 0;
            for (uint32_t ch = first_child[v]; ch != none; ch = next_sibling[ch])
                cnt++;
            uint32_t at = sp + cnt;
            for (uint32_t ch = first_child[v]; ch != none; ch = next_sibling[ch])
                stack[--at] = ch;
            sp += cnt;
        }
    }
    if (placed < nb) {
        uint8_t *seen = (uint8_t *)first_child; /* reuse: mark placed bones */
        memset(seen, 0, nb);
        for (uint32_t i = 0; i < placed; i++)
            seen[order[i]] = 1;
        for (uint32_t i = 0; i < nb; i++)
            if (!seen[i])
                return vks__cmdl_fail_at(c, VKS_ERR_FORMAT, &bones[i].at,
                                         "bone \"%.50s\" is on a parent cycle (ParentBoneName \"%.50s\")",
                                         bones[i].name, bones[i].parent);
    }
    return VKS_OK;
}

/* Geometry without a bone (a plain Model, or a None set with an empty table) follows an extra
 * root at node nb, which poses leave at identity: model space. */
static vks_result add_static_node(cmdl_ctx *c, vks_skin *skin, uint32_t nb)
{
    const cmdl_doc *d = &c->doc;
    vks_node *node = &skin->nodes[nb];
    const char *nm = d->skeletal == 0 && d->model_name && d->model_name[0] ? d->model_name : "(model space)";
    node->name = vks_skin_strndup(skin, nm, strlen(nm));
    node->parent = -1;
    node->bind_local = vks_affine_identity();
    if (!node->name)
        return vks_error_set(c->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "cmdl/Skeleton", "out of memory");
    return VKS_OK;
}

vks_result vks__cmdl_skeleton(cmdl_ctx *c, vks_skin *skin, uint32_t **bone_node_out, int need_static,
                              int32_t *static_node)
{
    cmdl_doc *d = &c->doc;
    const cmdl_bone *bones = d->bones.data;
    uint32_t nb = (uint32_t)d->bones.count;
    vks_result rc = VKS_OK;
    name_ix *sorted = vks__cmdl_alloc(c, nb, sizeof *sorted);
    int32_t *parent = vks__cmdl_alloc(c, nb, sizeof *parent);
    uint32_t *order = vks__cmdl_alloc(c, nb, sizeof *order);       /* node -> bone */
    uint32_t *bone_node = vks__cmdl_alloc(c, nb, sizeof *bone_node); /* bone -> node */
    uint32_t *first_child = vks__cmdl_alloc(c, nb, sizeof *first_child);
    uint32_t *next_sibling = vks__cmdl_alloc(c, nb, sizeof *next_sibling);
    uint32_t *stack = vks__cmdl_alloc(c, nb, sizeof *stack);
    if (!sorted || !parent || !order || !bone_node || !first_child || !next_sibling || !stack) {
        rc = vks_error_set(c->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "cmdl/Skeleton", "out of memory for %u bones", nb);
        goto done;
    }
    for (uint32_t i = 0; i < nb; i++)
        sorted[i].name = bones[i].name, sorted[i].index = i;
    qsort(sorted, nb, sizeof *sorted, cmp_name);
    for (uint32_t i = 1; i < nb; i++)
        if (strcmp(sorted[i - 1].name, sorted[i].name) == 0) {
            rc = vks__cmdl_fail_at(c, VKS_ERR_FORMAT, &bones[sorted[i].index].at,
                                   "bone name \"%.60s\" is used twice (parents are named)", sorted[i].name);
            goto done;
        }

    int in_order = 1;
    for (uint32_t i = 0; i < nb; i++) {
        parent[i] = -1;
        if (bones[i].parent[0] == 0)
            continue;
        parent[i] = find_name(sorted, nb, bones[i].parent);
        if (parent[i] < 0) {
            rc = vks__cmdl_fail_at(c, VKS_ERR_FORMAT, &bones[i].at, "bone \"%.50s\": ParentBoneName \"%.50s\" names no bone",
                                   bones[i].name, bones[i].parent);
            goto done;
        }
        if ((uint32_t)parent[i] >= i)
            in_order = 0;
    }

    /* Node order: document order when parents come first, else depth-first from the roots
       (children in document order). A bone no root reaches sits on a parent cycle. */
    if (in_order) {
        for (uint32_t i = 0; i < nb; i++)
            order[i] = i;
    } else if ((rc = depth_first_order(c, bones, parent, nb, order, first_child, next_sibling, stack)) != VKS_OK) {
        goto done;
    }
    for (uint32_t n = 0; n < nb; n++)
        bone_node[order[n]] = n;

    uint32_t total = nb + (need_static ? 1u : 0u);
    skin->nodes = vks_skin_alloc_array(skin, total ? total : 1, sizeof *skin->nodes);
    if (!skin->nodes) {
        rc = vks_error_set(c->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "cmdl/Skeleton", "out of memory for %u nodes", total);
        goto done;
    }
    for (uint32_t n = 0; n < nb; n++) {
        const cmdl_bone *b = &bones[order[n]];
        vks_node *node = &skin->nodes[n];
        node->name = vks_skin_strndup(skin, b->name, strlen(b->name));
        node->parent = parent[order[n]] >= 0 ? (int32_t)bone_node[parent[order[n]]] : -1;
        float one[3] = {1, 1, 1};
        const float *pre = one;
        if (d->maya_scaling && b->segment_scale_compensate && parent[order[n]] >= 0)
            pre = bones[parent[order[n]]].s;
        node->bind_local = bone_local(b, pre);
        if (!node->name) {
            rc = vks_error_set(c->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "cmdl/Skeleton", "out of memory");
            goto done;
        }
    }
    *static_node = -1;
    if (need_static) {
        if ((rc = add_static_node(c, skin, nb)) != VKS_OK)
            goto done;
        *static_node = (int32_t)nb;
    }
    skin->node_count = total;
    *bone_node_out = bone_node;
    bone_node = NULL;
done:
    vks__cmdl_free(c, sorted);
    vks__cmdl_free(c, parent);
    vks__cmdl_free(c, order);
    vks__cmdl_free(c, bone_node);
    vks__cmdl_free(c, first_child);
    vks__cmdl_free(c, next_sibling);
    vks__cmdl_free(c, stack);
    return rc;
}

vks_result vks__cmdl_inverse_binds(cmdl_ctx *c, const vks_skin *skin, vks_affine *out, uint8_t *singular)
{
    vks_affine_d *world = vks__cmdl_alloc(c, skin->node_count, sizeof *world);
    if (!world)
        return vks_error_set(c->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "cmdl/Skeleton", "out of memory");
    for (uint32_t n = 0; n < skin->node_count; n++) {
        vks_affine_d local = vks_affine_d_from(&skin->nodes[n].bind_local);
        int32_t p = skin->nodes[n].parent;
        world[n] = p >= 0 ? vks_affine_d_mul(&world[p], &local) : local;
        vks_affine_d inv;
        singular[n] = !vks_affine_d_inverse(&world[n], &inv);
        for (int k = 0; k < 12; k++)
            out[n].m[k] = singular[n] ? 0.0f : (float)inv.m[k];
        if (singular[n] || !vks_affine_is_finite(&out[n])) {
            /* a zero scale: only an error when a smooth set binds to this bone */
            singular[n] = 1;
            out[n] = vks_affine_identity();
        }
    }
    vks__cmdl_free(c, world);
    return VKS_OK;
}
