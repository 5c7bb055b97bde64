/* vks_skin_validate: every cross-reference of the model checked once, so the deformers (and
 * the GPU, which does no bounds checks) can trust the data. Errors name the element. */
#include "skin_morph.h"
#include "vkskin/skin.h"

#include <math.h>
#include <stdio.h>

#include <stdarg.h>

static vks_result bad(vks_error *err, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static vks_result bad(vks_error *err, const char *path, const char *fmt, ...)
{
    char msg[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path, "%s", msg);
}

static int finite3(const float *p)
{
    return isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]);
}

/* A matrix the float32 deformers cannot use (math.c has the reasoning): names what it is. */
static vks_result check_scale(vks_error *err, const char *path, const char *what, const vks_affine *a)
{
    double lo, hi;
    if (!vks_affine_scale_range(a, &lo, &hi))
        return bad(err, path, "%s is singular", what);
    if (!vks_float32_scale_ok(lo, hi))
        return bad(err, path, "%s scales by %.3g..%.3g: float32 deformers need 2^-48..2^48, at most 2^9 apart", what,
                   lo, hi);
    return VKS_OK;
}

/* Rigid groups keep bone-local vertices (identity inverse bind), so at bind their skin matrix
 * is the bone's world itself: it must pass the same float32 check. */
static vks_result check_rigid_worlds(const vks_skin *s, vks_error *err)
{
    uint32_t g = 0;
    while (g < s->group_count && !(s->groups[g].flags & VKS_GROUP_RIGID))
        g++;
    if (g == s->group_count)
        return VKS_OK;
    vks_allocator a = vks_allocator_or_default(&s->allocator);
    vks_affine *world = a.alloc(a.user, (s->node_count ? s->node_count : 1) * sizeof *world);
    if (!world)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "skin", "out of memory for %u node worlds",
                             s->node_count);
    for (uint32_t i = 0; i < s->node_count; i++) {
        int32_t p = s->nodes[i].parent;
        world[i] = p < 0 ? s->nodes[i].bind_local : vks_affine_mul(&world[p], &s->nodes[i].bind_local);
    }
    vks_result r = VKS_OK;
    for (; g < s->group_count && r == VKS_OK; g++) {
        const vks_group *gr = &s->groups[g];
        if (!(gr->flags & VKS_GROUP_RIGID))
            continue;
        for (uint32_t p = 0; p < gr->palette_count && r == VKS_OK; p++) {
            uint32_t b = s->palette[gr->first_palette + p], node = s->bones[b].node;
            char path[64], what[96];
            snprintf(path, sizeof path, "bones[%u]", b);
            snprintf(what, sizeof what, "rigid bone's node \"%.40s\": bind world", s->nodes[node].name);
            r = check_scale(err, path, what, &world[node]);
        }
    }
    a.free(a.user, world);
    return r;
}

/* UV sets, materials, images and samplers: every array present and every index inside. */
static vks_result check_surface(const vks_skin *s, vks_error *err)
{
    char path[64];
    if (s->uv_set_count > VKS_MAX_UV_SETS)
        return bad(err, "skin", "%u UV sets, at most %d", s->uv_set_count, VKS_MAX_UV_SETS);
    for (uint32_t k = 0; k < s->uv_set_count; k++)
        if (!s->uv[k] && s->vertex_count)
            return bad(err, "skin", "UV set %u has no array", k);
    if ((s->material_count && !s->materials) || (s->image_count && !s->images) ||
        (s->sampler_count && !s->samplers))
        return bad(err, "skin", "material, image or sampler array missing");
    for (uint32_t i = 0; i < s->material_count; i++) {
        const vks_material *m = &s->materials[i];
        snprintf(path, sizeof path, "materials[%u]", i);
        if (!m->name || !m->base_texture)
            return bad(err, path, "material has no name or texture string");
        if (m->base_image < -1 || m->base_image >= (int64_t)s->image_count)
            return bad(err, path, "image %d outside the model's %u images", m->base_image, s->image_count);
        if (m->base_sampler < -1 || m->base_sampler >= (int64_t)s->sampler_count)
            return bad(err, path, "sampler %d outside the model's %u samplers", m->base_sampler, s->sampler_count);
        if (m->base_uv_set >= VKS_MAX_UV_SETS)
            return bad(err, path, "UV set %u, at most %d sets", m->base_uv_set, VKS_MAX_UV_SETS);
    }
    for (uint32_t i = 0; i < s->image_count; i++) {
        const vks_image *im = &s->images[i];
        snprintf(path, sizeof path, "images[%u]", i);
        if (!im->name || !im->uri || !im->mime_type || (im->size && !im->data))
            return bad(err, path, "image has no name, URI or type string, or no bytes for its size");
    }
    return VKS_OK;
}

/* The vertices of group gr of mesh m: weights finite and positive, slots within the group's
   palette and influence count, finite positions (and normals), a file vertex each. path is the
   caller's buffer: the message of a later check of the mesh names the last vertex checked. */
static vks_result check_group_vertices(const vks_skin *s, const vks_mesh *me, uint32_t m, const vks_group *gr,
                                       char *path, size_t path_size, vks_error *err)
{
    for (uint32_t v = gr->first_vertex; v < gr->first_vertex + gr->vertex_count; v++) {
        const vks_influence *in = &s->influences[v];
        double sum = 0;
        unsigned used = 0;
        snprintf(path, path_size, "meshes[%u].vertices[%u]", m, v - me->first_vertex);
        for (int k = 0; k < VKS_MAX_INFLUENCES; k++) {
            float w = in->weight[k];
            if (!isfinite(w) || w < 0)
                return bad(err, path, "weight in slot %lld is negative or not finite", (long long)(k));
            if (w > 0) {
                used = (unsigned)k + 1;
                if (in->index[k] >= gr->palette_count)
                    return bad(err, path, "influence slot index %lld >= palette size %lld", (long long)(in->index[k]), (long long)(gr->palette_count));
            }
            sum += w;
        }
        if (!(sum > 0))
            return bad(err, path, "vertex has no positive weight");
        if (used > gr->max_influences)
            return bad(err, path, "uses %lld influence slots, group allows %lld", (long long)(used), (long long)(gr->max_influences));
        if (!finite3(s->positions[v]))
            return bad(err, path, "position is not finite");
        if ((me->flags & VKS_MESH_HAS_NORMALS) && !finite3(s->normals[v]))
            return bad(err, path, "normal is not finite");
        if (s->source_vertex[v] >= me->source_vertex_count)
            return bad(err, path, "source vertex %lld >= file vertex count %lld", (long long)(s->source_vertex[v]), (long long)(me->source_vertex_count));
    }
    return VKS_OK;
}

/* The nodes (names, parents before children, finite binds), the bones' nodes and inverse
 * binds, and the palette's bone indices. */
static vks_result check_skeleton(const vks_skin *s, vks_error *err)
{
    char path[64];
    for (uint32_t i = 0; i < s->node_count; i++) {
        snprintf(path, sizeof path, "nodes[%u]", i);
        if (!s->nodes[i].name)
            return bad(err, path, "node has no name string");
        if (s->nodes[i].parent >= (int32_t)i || s->nodes[i].parent < -1)
            return bad(err, path, "parent %lld is not before node %lld", (long long)s->nodes[i].parent, (long long)(i));
        if (!vks_affine_is_finite(&s->nodes[i].bind_local))
            return bad(err, path, "bind local transform is not finite");
    }
    for (uint32_t b = 0; b < s->bone_count; b++) {
        snprintf(path, sizeof path, "bones[%u]", b);
        if (s->bones[b].node >= s->node_count)
            return bad(err, path, "node %lld >= node count %lld", (long long)(s->bones[b].node), (long long)(s->node_count));
        if (!vks_affine_is_finite(&s->bones[b].inverse_bind))
            return bad(err, path, "inverse bind matrix is not finite");
    }
    for (uint32_t p = 0; p < s->palette_count; p++)
        if (s->palette[p] >= s->bone_count) {
            snprintf(path, sizeof path, "palette[%u]", p);
            return bad(err, path, "bone %lld >= bone count %lld", (long long)(s->palette[p]), (long long)(s->bone_count));
        }
    return VKS_OK;
}

vks_result vks_skin_validate(const vks_skin *s, vks_error *err)
{
    char path[64];
    if (!s)
        return bad(err, "skin", "no model");
    vks_result sr = check_surface(s, err);
    if (sr != VKS_OK)
        return sr;
    if (s->vertex_count && (!s->positions || !s->influences || !s->source_vertex))
        return bad(err, "skin", "vertex arrays missing for %lld vertices", (long long)(s->vertex_count));
    vks_result kr = check_skeleton(s, err);
    if (kr != VKS_OK)
        return kr;

    uint32_t next_vertex = 0, next_tri = 0, next_group = 0, next_bone = 0;
    for (uint32_t m = 0; m < s->mesh_count; m++) {
        const vks_mesh *me = &s->meshes[m];
        snprintf(path, sizeof path, "meshes[%u]", m);
        if (!me->name)
            return bad(err, path, "mesh has no name string");
        if (me->first_vertex != next_vertex || me->vertex_count > s->vertex_count - next_vertex)
            return bad(err, path, "vertex range starts at %lld, expected %lld", (long long)(me->first_vertex), (long long)(next_vertex));
        if (me->first_triangle != next_tri || me->triangle_count > s->triangle_count - next_tri)
            return bad(err, path, "triangle range starts at %lld, expected %lld", (long long)(me->first_triangle), (long long)(next_tri));
        if (me->first_group != next_group || me->group_count > s->group_count - next_group)
            return bad(err, path, "group range starts at %lld, expected %lld", (long long)(me->first_group), (long long)(next_group));
        if (me->first_bone != next_bone || me->bone_count > s->bone_count - next_bone)
            return bad(err, path, "bone range starts at %lld, expected %lld", (long long)(me->first_bone), (long long)(next_bone));
        if (me->space_node >= (int32_t)s->node_count || me->space_node < -1)
            return bad(err, path, "skin-space node %lld >= node count %lld", (long long)me->space_node, (long long)(s->node_count));
        if (!vks_affine_is_finite(&me->space_pre))
            return bad(err, path, "skin-space transform is not finite");
        if ((me->flags & VKS_MESH_HAS_NORMALS) && !s->normals)
            return bad(err, path, "mesh has normals but the model has no normal array");
        if (me->uv_set_count > s->uv_set_count)
            return bad(err, path, "mesh has %u UV sets, the model %u", me->uv_set_count, s->uv_set_count);
        if (me->first_material > s->material_count || me->material_count > s->material_count - me->first_material)
            return bad(err, path, "material range %u + %u ends past %u materials", me->first_material,
                       me->material_count, s->material_count);
        for (uint32_t t = me->first_triangle; me->material_count && s->triangle_material &&
                                              t < me->first_triangle + me->triangle_count && t < s->triangle_count; t++)
            if (s->triangle_material[t] >= me->material_count) {
                snprintf(path, sizeof path, "meshes[%u].triangles[%u]", m, t - me->first_triangle);
                return bad(err, path, "material %u >= the mesh's %u materials", s->triangle_material[t],
                           me->material_count);
            }
        uint32_t gv = me->first_vertex, gt = me->first_triangle;
        for (uint32_t g = me->first_group; g < me->first_group + me->group_count; g++) {
            const vks_group *gr = &s->groups[g];
            snprintf(path, sizeof path, "meshes[%u].groups[%u]", m, g - me->first_group);
            if (gr->mesh != m)
                return bad(err, path, "group names mesh %lld, expected %lld", (long long)(gr->mesh), (long long)(m));
            if (gr->first_vertex != gv || gr->vertex_count > me->first_vertex + me->vertex_count - gv)
                return bad(err, path, "vertex range starts at %lld, expected %lld", (long long)(gr->first_vertex), (long long)(gv));
            if (gr->first_triangle != gt || gr->triangle_count > me->first_triangle + me->triangle_count - gt)
                return bad(err, path, "triangle range starts at %lld, expected %lld", (long long)(gr->first_triangle), (long long)(gt));
            if (gr->first_palette > s->palette_count || gr->palette_count > s->palette_count - gr->first_palette)
                return bad(err, path, "palette range ends past %lld entries", (long long)(s->palette_count));
            if (gr->max_influences < 1 || gr->max_influences > VKS_MAX_INFLUENCES)
                return bad(err, path, "max influences %lld outside 1..%lld", (long long)(gr->max_influences), (long long)(VKS_MAX_INFLUENCES));
            for (uint32_t p = 0; p < gr->palette_count; p++) {
                uint32_t b = s->palette[gr->first_palette + p];
                if (b < me->first_bone || b >= me->first_bone + me->bone_count)
                    return bad(err, path, "palette slot names bone %lld outside the mesh's bones (slot %lld)", (long long)(b), (long long)(p));
            }
            vks_result vr = check_group_vertices(s, me, m, gr, path, sizeof path, err);
            if (vr != VKS_OK)
                return vr;
            gv += gr->vertex_count;
            gt += gr->triangle_count;
        }
        if (gv != me->first_vertex + me->vertex_count)
            return bad(err, path, "groups cover %lld of %lld vertices", (long long)(gv - me->first_vertex), (long long)(me->vertex_count));
        if (gt != me->first_triangle + me->triangle_count)
            return bad(err, path, "groups cover %lld of %lld triangles", (long long)(gt - me->first_triangle), (long long)(me->triangle_count));
        for (uint32_t t = me->first_triangle; t < me->first_triangle + me->triangle_count; t++)
            for (int k = 0; k < 3; k++)
                if (s->triangles[t][k] >= me->vertex_count) {
                    snprintf(path, sizeof path, "meshes[%u].triangles[%u]", m, t - me->first_triangle);
                    return bad(err, path, "index %lld >= mesh vertex count %lld", (long long)(s->triangles[t][k]), (long long)(me->vertex_count));
                }
        next_vertex += me->vertex_count;
        next_tri += me->triangle_count;
        next_group += me->group_count;
        next_bone += me->bone_count;
    }
    if (next_vertex != s->vertex_count || next_tri != s->triangle_count ||
        next_group != s->group_count || next_bone != s->bone_count)
        return bad(err, "skin", "meshes cover %lld of %lld vertices (or groups, bones, triangles left over)", (long long)(next_vertex), (long long)(s->vertex_count));
    vks_result mr = vks__skin_validate_morphs(s, err);
    if (mr != VKS_OK)
        return mr;
    return vks_skin_check_float32(s, err);
}

vks_result vks_skin_check_float32(const vks_skin *s, vks_error *err)
{
    char path[64], what[96];
    for (uint32_t b = 0; b < s->bone_count; b++) {
        snprintf(path, sizeof path, "bones[%u]", b);
        snprintf(what, sizeof what, "node \"%.40s\": inverse bind matrix", s->nodes[s->bones[b].node].name);
        vks_result r = check_scale(err, path, what, &s->bones[b].inverse_bind);
        if (r != VKS_OK)
            return r;
    }
    for (uint32_t m = 0; m < s->mesh_count; m++) {
        snprintf(path, sizeof path, "meshes[%u]", m);
        vks_result r = check_scale(err, path, "skin-space transform", &s->meshes[m].space_pre);
        if (r != VKS_OK)
            return r;
    }
    return check_rigid_worlds(s, err);
}
