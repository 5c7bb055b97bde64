/* A skin's bind mesh as plain glTF (gltf.h, vks_gltf_write_bind_mesh): the rest mesh that
 * vertex animation textures displace, each vertex addressed in model order.
 *
 * UV sets follow Houdini's VAT and Unreal's AnimToTexture: UV0 stays the character's own (its
 * material's texture reads it), the VAT lookup goes in UV1, the character's further sets after
 * it; a character without UVs has the lookup in UV0 (vks_gltf_bind_mesh_lookup_set). The
 * character's materials come along, one primitive per material. */
#include <stdio.h>
#include <stdlib.h>

#include "gltf_internal.h"

uint32_t vks_gltf_bind_mesh_lookup_set(const vks_skin *skin)
{
    return skin->uv_set_count ? 1 : 0;
}

/* Model-order indices of every triangle whose material is global material `material` (-1:
 * triangles without one) into idx; returns how many. */
static uint32_t material_indices(const vks_skin *skin, int64_t material, uint32_t *idx)
{
    uint32_t n = 0;
    for (uint32_t m = 0; m < skin->mesh_count; m++) {
        const vks_mesh *me = &skin->meshes[m];
        for (uint32_t t = me->first_triangle; t < me->first_triangle + me->triangle_count; t++) {
            const vks_material *mat = vks_skin_triangle_material(skin, m, t);
            if ((mat ? (int64_t)(mat - skin->materials) : -1) != material)
                continue;
            for (int k = 0; k < 3; k++)
                idx[n++] = me->first_vertex + skin->triangles[t][k];
        }
    }
    return n;
}

/* One primitive per material that has triangles (and one for those without), sharing attr. */
static void bind_primitives(vks__gltf *g, const vks_skin *skin, cJSON *prims, const cJSON *attr, uint32_t *idx)
{
    for (int64_t mat = -1; mat < (int64_t)skin->material_count; mat++) {
        uint32_t n = material_indices(skin, mat, idx);
        if (!n)
            continue;
        cJSON *prim = cJSON_CreateObject(), *a = cJSON_Duplicate(attr, 1);
        if (!prim || !a || !cJSON_AddItemToObject(prim, "attributes", a)) {
            cJSON_Delete(prim), cJSON_Delete(a);
            g->failed = 1;
            return;
        }
        cJSON_AddNumberToObject(prim, "indices", vks__gltf_indices(g, idx, n));
        if (mat >= 0)
            cJSON_AddNumberToObject(prim, "material", (double)mat);
        vks__gltf_push(g, prims, prim);
    }
}

vks_result vks_gltf_write_bind_mesh(const char *path, const vks_skin *skin, const float *texcoords,
                                    const vks_gltf_options *opt, vks_error *err)
{
    vks_gltf_options o = opt ? *opt : (vks_gltf_options){0};
    uint32_t nv = skin->vertex_count, ni = skin->triangle_count * 3;
    uint32_t *idx = malloc(((size_t)ni + 1) * sizeof *idx);
    vks__gltf g;
    if (!idx || !vks__gltf_init(&g, o.generator)) {
        if (idx)
            vks__gltf_free(&g);
        free(idx);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory building the glTF document");
    }
    cJSON *mesh = cJSON_CreateObject(), *prims = mesh ? cJSON_AddArrayToObject(mesh, "primitives") : NULL;
    cJSON *attr = cJSON_CreateObject();
    if (!mesh || !prims || !attr) {
        cJSON_Delete(mesh);
        mesh = NULL, g.failed = 1;
    } else {
        /* the lookup's set: 1 after the character's set 0; without a lookup the character's
           sets stay together (glTF numbers TEXCOORD_n without gaps) */
        uint32_t at = texcoords ? vks_gltf_bind_mesh_lookup_set(skin) : skin->uv_set_count;
        cJSON_AddNumberToObject(attr, "POSITION", vks__gltf_floats(&g, skin->positions[0], nv, 3, VKS__GL_ARRAY_BUFFER, 1));
        if (skin->normals)
            cJSON_AddNumberToObject(attr, "NORMAL", vks__gltf_floats(&g, skin->normals[0], nv, 3, VKS__GL_ARRAY_BUFFER, 0));
        vks__gltf_texcoords(&g, attr, skin, NULL, nv, 0, at, 0);
        if (texcoords) {
            char name[16];
            snprintf(name, sizeof name, "TEXCOORD_%u", at);
            cJSON_AddNumberToObject(attr, name, vks__gltf_floats(&g, texcoords, nv, 2, VKS__GL_ARRAY_BUFFER, 0));
            if (skin->uv_set_count > at)
                vks__gltf_texcoords(&g, attr, skin, NULL, nv, at, skin->uv_set_count - at, at + 1);
        }
        /* a texture reading the character's set k >= at reads TEXCOORD_(k + 1) here */
        vks__gltf_materials_shifted(&g, skin, texcoords ? at : UINT32_MAX);
        bind_primitives(&g, skin, prims, attr, idx);
    }
    cJSON_Delete(attr);
    uint32_t mi = vks__gltf_push(&g, g.meshes, mesh); /* a NULL mesh marks g failed */
    cJSON *node = cJSON_CreateObject();
    if (node) {
        vks_affine c = vks_gltf_correction(skin);
        cJSON_AddNumberToObject(node, "mesh", mi);
        vks__gltf_node_trs(node, &c);
    }
    vks__gltf_push(&g, g.scene_nodes, cJSON_CreateNumber(vks__gltf_push(&g, g.nodes, node)));
    vks_gltf_container container = o.container ? o.container : vks_gltf_container_from_path(path);
    vks_result r = vks__gltf_save(&g, path, container, NULL, err);
    vks__gltf_free(&g);
    free(idx);
    return r;
}
