/* Morph targets' checks, weights and default rest (skin_morph.h). */
#include "skin_morph.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int finite3(const float *p)
{
    return isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]);
}

static vks_result check_target(const vks_skin *s, uint32_t t, vks_error *err)
{
    const vks_morph_target *mt = &s->targets[t];
    char path[48];
    snprintf(path, sizeof path, "targets[%u]", t);
    if (mt->mesh >= s->mesh_count)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path, "mesh %u >= mesh count %u", mt->mesh,
                             s->mesh_count);
    const vks_mesh *me = &s->meshes[mt->mesh];
    if (t < me->first_target || t - me->first_target >= me->target_count || mt->index != t - me->first_target)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path,
                             "not target %u of mesh %u's range %u + %u", mt->index, mt->mesh, me->first_target,
                             me->target_count);
    if (!mt->name || (!mt->position && me->vertex_count))
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path, "name or position deltas missing");
    if (!isfinite(mt->default_weight))
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path, "default weight is not finite");
    if (mt->normal && !(me->flags & VKS_MESH_HAS_NORMALS))
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path, "normal deltas on a mesh without normals");
    for (uint32_t v = 0; v < me->vertex_count; v++)
        if (!finite3(mt->position[v]) || (mt->normal && !finite3(mt->normal[v])))
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path, "delta of vertex %u is not finite", v);
    return VKS_OK;
}

vks_result vks__skin_validate_morphs(const vks_skin *s, vks_error *err)
{
    if (s->target_count && !s->targets)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "skin", "%u targets but no target array",
                             s->target_count);
    uint32_t next = 0;
    for (uint32_t m = 0; m < s->mesh_count; m++) {
        const vks_mesh *me = &s->meshes[m];
        if (me->target_count && (me->first_target != next || me->target_count > s->target_count - next)) {
            char path[32];
            snprintf(path, sizeof path, "meshes[%u]", m);
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path,
                                 "target range %u + %u: expected to start at %u, within %u targets", me->first_target,
                                 me->target_count, next, s->target_count);
        }
        next += me->target_count;
    }
    if (next != s->target_count)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "skin", "meshes cover %u of %u targets", next,
                             s->target_count);
    for (uint32_t t = 0; t < s->target_count; t++) {
        vks_result r = check_target(s, t, err);
        if (r != VKS_OK)
            return r;
    }
    return VKS_OK;
}

int vks__morph_defaults_active(const vks_skin *s)
{
    for (uint32_t t = 0; t < s->target_count; t++)
        if (s->targets[t].default_weight != 0.0f)
            return 1;
    return 0;
}

uint32_t vks__morph_weights_off_default(const vks_deform_job *job)
{
    const vks_skin *s = job->skin;
    uint32_t off = 0;
    if (!job->morph_weights)
        return 0;
    for (uint32_t t = 0; t < s->target_count; t++)
        for (uint32_t i = 0; i < job->instance_count; i++)
            if (job->morph_weights[(size_t)i * s->target_count + t] != s->targets[t].default_weight) {
                off++;
                break;
            }
    return off;
}

void vks__morph_rest_into(const vks_skin *s, float *pos, float *nrm)
{
    memcpy(pos, s->positions, (size_t)s->vertex_count * 3 * sizeof *pos);
    if (nrm && s->normals)
        memcpy(nrm, s->normals, (size_t)s->vertex_count * 3 * sizeof *nrm);
    /* target by target over the mesh's vertices (each delta array read once, in order), in
       float as the engines that deform this rest compute */
    for (uint32_t m = 0; m < s->mesh_count; m++) {
        const vks_mesh *me = &s->meshes[m];
        size_t n = (size_t)me->vertex_count * 3, at = (size_t)me->first_vertex * 3;
        for (uint32_t t = me->first_target; t < me->first_target + me->target_count; t++) {
            const vks_morph_target *mt = &s->targets[t];
            float w = mt->default_weight;
            if (w == 0.0f || n == 0)
                continue;
            const float *dp = mt->position[0], *dn = mt->normal ? mt->normal[0] : NULL;
            for (size_t i = 0; i < n; i++)
                pos[at + i] += w * dp[i];
            for (size_t i = 0; nrm && dn && i < n; i++)
                nrm[at + i] += w * dn[i];
        }
    }
}

vks_result vks__morph_rest(const vks_skin *s, const vks_allocator *alloc, float (**pos)[3], float (**nrm)[3],
                           vks_error *err)
{
    *pos = NULL, *nrm = NULL;
    if (!vks__morph_defaults_active(s))
        return VKS_OK;
    vks_allocator a = vks_allocator_or_default(alloc);
    size_t n = s->vertex_count ? s->vertex_count : 1, arrays = s->normals ? 2 : 1;
    float(*block)[3] = a.alloc(a.user, arrays * n * sizeof *block);
    if (!block)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "morph targets",
                             "out of memory for %u morphed vertices", s->vertex_count);
    vks__morph_rest_into(s, block[0], s->normals ? block[n] : NULL);
    *pos = block;
    *nrm = s->normals ? block + n : NULL;
    return VKS_OK;
}
