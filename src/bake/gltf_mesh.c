/* A skin's bind mesh as plain glTF (gltf.h, vks_gltf_write_bind_mesh): the rest mesh that
 * vertex animation textures displace, each vertex addressed in model order. */
#include <stdlib.h>

#include "gltf_internal.h"

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
    for (uint32_t m = 0; m < skin->mesh_count; m++) {
        const vks_mesh *me = &skin->meshes[m];
        for (uint32_t t = me->first_triangle; t < me->first_triangle + me->triangle_count; t++)
            for (int k = 0; k < 3; k++)
                idx[(size_t)t * 3 + k] = me->first_vertex + skin->triangles[t][k];
    }
    cJSON *mesh = cJSON_CreateObject(), *prims = mesh ? cJSON_AddArrayToObject(mesh, "primitives") : NULL;
    cJSON *prim = cJSON_CreateObject(), *attr = prim ? cJSON_AddObjectToObject(prim, "attributes") : NULL;
    if (!mesh || !prims || !prim || !attr || !cJSON_AddItemToArray(prims, prim)) {
        cJSON_Delete(prim), cJSON_Delete(mesh);
        mesh = NULL, g.failed = 1;
    } else {
        cJSON_AddNumberToObject(attr, "POSITION", vks__gltf_floats(&g, skin->positions[0], nv, 3, VKS__GL_ARRAY_BUFFER, 1));
        if (skin->normals)
            cJSON_AddNumberToObject(attr, "NORMAL", vks__gltf_floats(&g, skin->normals[0], nv, 3, VKS__GL_ARRAY_BUFFER, 0));
        if (texcoords)
            cJSON_AddNumberToObject(attr, "TEXCOORD_0", vks__gltf_floats(&g, texcoords, nv, 2, VKS__GL_ARRAY_BUFFER, 0));
        cJSON_AddNumberToObject(prim, "indices", vks__gltf_indices(&g, idx, ni));
    }
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
