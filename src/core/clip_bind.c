/* Binding a clip to a skin (clip.h): which track drives which node, by tag, animation index or
 * name, with what did not match counted; and the bind pose pieces sampling needs, computed
 * once here so that sampling allocates nothing. */
#include <ctype.h>
#include <string.h>

#include "vkskin/clip.h"

#include "vkskin/clip_sample.h"
static int same_nocase(const char *a, const char *b)
{
    while (*a && *b && tolower((unsigned char)*a) == tolower((unsigned char)*b))
        a++, b++;
    return *a == 0 && *b == 0;
}

static int32_t find_node(const vks_skin *skin, const vks_track *tr)
{
    if (tr->has_tag)
        for (uint32_t n = 0; n < skin->node_count; n++)
            if (skin->nodes[n].has_tag && skin->nodes[n].tag == tr->node_tag)
                return (int32_t)n;
    if (tr->has_index)
        for (uint32_t n = 0; n < skin->node_count; n++)
            if (skin->nodes[n].has_anim_index && skin->nodes[n].anim_index == tr->node_index)
                return (int32_t)n;
    if (!tr->node_name[0])
        return -1;
    for (uint32_t n = 0; n < skin->node_count; n++)
        if (strcmp(skin->nodes[n].name, tr->node_name) == 0)
            return (int32_t)n;
    for (uint32_t n = 0; n < skin->node_count; n++)
        if (same_nocase(skin->nodes[n].name, tr->node_name))
            return (int32_t)n;
    return -1;
}

void vks_clip_binding_free(vks_clip_binding *b)
{
    if (!b || !b->allocator.free)
        return;
    void *blocks[] = {b->track_of_node, b->unmatched, b->bind_trs, b->bind_world, b->bind_world_inv};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++)
        if (blocks[i])
            b->allocator.free(b->allocator.user, blocks[i]);
    memset(b, 0, sizeof *b);
}

static void *alloc_array(const vks_allocator *a, size_t count, size_t elem)
{
    if (count == 0)
        count = 1;
    if (count > SIZE_MAX / elem)
        return NULL;
    void *p = a->alloc(a->user, count * elem);
    if (p)
        memset(p, 0, count * elem);
    return p;
}

vks_result vks_clip_bind_with(const vks_clip *clip, const vks_skin *skin, const vks_allocator *allocator,
                              vks_clip_binding *out, vks_error *err)
{
    memset(out, 0, sizeof *out);
    if (!clip || !skin)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "clip binding", "no clip or no skin");
    vks_clip_binding b = {0};
    b.allocator = vks_allocator_or_default(allocator);
    b.node_count = skin->node_count;
    b.track_of_node = alloc_array(&b.allocator, skin->node_count, sizeof *b.track_of_node);
    b.unmatched = alloc_array(&b.allocator, clip->track_count, sizeof *b.unmatched);
    b.bind_trs = alloc_array(&b.allocator, skin->node_count, sizeof *b.bind_trs);
    b.bind_world = alloc_array(&b.allocator, skin->node_count, sizeof *b.bind_world);
    b.bind_world_inv = alloc_array(&b.allocator, skin->node_count, sizeof *b.bind_world_inv);
    if (!b.track_of_node || !b.unmatched || !b.bind_trs || !b.bind_world || !b.bind_world_inv) {
        vks_clip_binding_free(&b);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "clip binding", "out of memory");
    }
    for (uint32_t n = 0; n < skin->node_count; n++) {
        b.track_of_node[n] = -1;
        const vks_node *node = &skin->nodes[n];
        vks_affine_to_trs(&node->bind_local, b.bind_trs[n], b.bind_trs[n] + 3, b.bind_trs[n] + 7);
        vks_affine_d l = vks_affine_d_from(&node->bind_local);
        b.bind_world[n] = node->parent >= 0 ? vks_affine_d_mul(&b.bind_world[node->parent], &l) : l;
    }
    /* delta clips act in the first mesh's skin space at bind: S_b = space_pre W(space_node)^-1 */
    vks_affine_d space = vks_affine_d_identity(), inv;
    if (skin->mesh_count) {
        const vks_mesh *m = &skin->meshes[0];
        space = vks_affine_d_from(&m->space_pre);
        if (m->space_node >= 0 && (uint32_t)m->space_node < skin->node_count &&
            vks_affine_d_inverse(&b.bind_world[m->space_node], &inv))
            space = vks_affine_d_mul(&space, &inv);
    }
    if (!vks_affine_d_inverse(&space, &b.skin_space_inv)) {
        space = vks_affine_d_identity();
        b.skin_space_inv = space;
    }
    for (uint32_t n = 0; n < skin->node_count; n++) {
        b.bind_world[n] = vks_affine_d_mul(&space, &b.bind_world[n]);
        if (!vks_affine_d_inverse(&b.bind_world[n], &b.bind_world_inv[n]))
            b.bind_world_inv[n] = vks_affine_d_identity();
    }
    for (uint32_t t = 0; t < clip->track_count; t++) {
        int32_t n = find_node(skin, &clip->tracks[t]);
        if (n >= 0 && b.track_of_node[n] < 0) {
            b.track_of_node[n] = (int32_t)t;
            b.bound_tracks++;
        } else
            b.unmatched[b.unmatched_tracks++] = (int32_t)t;
    }
    b.untouched_nodes = skin->node_count - b.bound_tracks;
    *out = b;
    return VKS_OK;
}

vks_result vks_clip_bind(const vks_clip *clip, const vks_skin *skin, vks_clip_binding *out, vks_error *err)
{
    return vks_clip_bind_with(clip, skin, NULL, out, err);
}
