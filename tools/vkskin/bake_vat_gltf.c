/* The VAT's rest mesh as binary glTF (.glb): bind positions and normals in model vertex order,
 * TEXCOORD_0 on each vertex's texel of frame 0 (glTF's UV origin is the image's top-left, as
 * the texture's first row), indices; the node carries the axis correction to glTF's frame
 * (vks_gltf_correction), so positions from the texture go through the same node transform. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "bake_job.h"
#include "vkskin/gltf.h"
#include "vkskin/vat.h"

static void put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

/* A buffer view and its accessor; returns the accessor's index. */
static int accessor(cJSON *views, cJSON *accs, size_t offset, size_t bytes, uint32_t count, int ctype,
                    const char *type, int target)
{
    cJSON *v = cJSON_CreateObject();
    cJSON_AddNumberToObject(v, "buffer", 0);
    cJSON_AddNumberToObject(v, "byteOffset", (double)offset);
    cJSON_AddNumberToObject(v, "byteLength", (double)bytes);
    cJSON_AddNumberToObject(v, "target", target);
    cJSON_AddItemToArray(views, v);
    cJSON *a = cJSON_CreateObject();
    cJSON_AddNumberToObject(a, "bufferView", cJSON_GetArraySize(views) - 1);
    cJSON_AddNumberToObject(a, "componentType", ctype);
    cJSON_AddNumberToObject(a, "count", count);
    cJSON_AddStringToObject(a, "type", type);
    cJSON_AddItemToArray(accs, a);
    return cJSON_GetArraySize(accs) - 1;
}

vks_result vks_bake_write_vat_glb(const char *path, const vks_skin *s, const vks_vat_layout *lay, vks_error *err)
{
    uint32_t nv = s->vertex_count, nt = s->triangle_count;
    int has_n = s->normals != NULL;
    size_t pos_b = (size_t)nv * 12, nrm_b = has_n ? (size_t)nv * 12 : 0, uv_b = (size_t)nv * 8,
           idx_b = (size_t)nt * 12;
    size_t bin = pos_b + nrm_b + uv_b + idx_b;
    uint8_t *b = malloc(bin + 4);
    if (!b)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, NULL, "no memory for %s", path);
    memcpy(b, s->positions, pos_b);
    if (has_n)
        memcpy(b + pos_b, s->normals, nrm_b);
    float *uv = (float *)(void *)(b + pos_b + nrm_b);
    for (uint32_t v = 0; v < nv; v++) {
        float t[2];
        vks_vat_uv(lay, v, t);
        memcpy(uv + 2 * v, t, 8);
    }
    uint8_t *ix = b + pos_b + nrm_b + uv_b;
    for (uint32_t m = 0; m < s->mesh_count; m++)
        for (uint32_t t = s->meshes[m].first_triangle; t < s->meshes[m].first_triangle + s->meshes[m].triangle_count; t++)
            for (int k = 0; k < 3; k++)
                put_u32(ix + ((size_t)t * 3 + (size_t)k) * 4, s->meshes[m].first_vertex + s->triangles[t][k]);

    cJSON *doc = cJSON_CreateObject(), *asset = cJSON_AddObjectToObject(doc, "asset");
    cJSON_AddStringToObject(asset, "version", "2.0");
    cJSON_AddStringToObject(asset, "generator", "vkskin bake (VAT rest mesh)");
    cJSON *views = cJSON_AddArrayToObject(doc, "bufferViews"), *accs = cJSON_AddArrayToObject(doc, "accessors");
    int a_pos = accessor(views, accs, 0, pos_b, nv, 5126, "VEC3", 34962);
    float mn[3], mx[3];
    vks_vat_bounds(&s->positions[0][0], nv, mn, mx);
    cJSON *pa = cJSON_GetArrayItem(accs, a_pos), *amin = cJSON_AddArrayToObject(pa, "min"),
          *amax = cJSON_AddArrayToObject(pa, "max");
    for (int k = 0; k < 3; k++) {
        cJSON_AddItemToArray(amin, cJSON_CreateNumber(mn[k]));
        cJSON_AddItemToArray(amax, cJSON_CreateNumber(mx[k]));
    }
    int a_nrm = has_n ? accessor(views, accs, pos_b, nrm_b, nv, 5126, "VEC3", 34962) : -1;
    int a_uv = accessor(views, accs, pos_b + nrm_b, uv_b, nv, 5126, "VEC2", 34962);
    int a_ix = accessor(views, accs, pos_b + nrm_b + uv_b, idx_b, nt * 3, 5125, "SCALAR", 34963);
    cJSON *buffers = cJSON_AddArrayToObject(doc, "buffers"), *buf = cJSON_CreateObject();
    cJSON_AddNumberToObject(buf, "byteLength", (double)bin);
    cJSON_AddItemToArray(buffers, buf);
    cJSON *meshes = cJSON_AddArrayToObject(doc, "meshes"), *mesh = cJSON_CreateObject();
    cJSON *prims = cJSON_AddArrayToObject(mesh, "primitives"), *prim = cJSON_CreateObject();
    cJSON *attr = cJSON_AddObjectToObject(prim, "attributes");
    cJSON_AddNumberToObject(attr, "POSITION", a_pos);
    if (a_nrm >= 0)
        cJSON_AddNumberToObject(attr, "NORMAL", a_nrm);
    cJSON_AddNumberToObject(attr, "TEXCOORD_0", a_uv);
    cJSON_AddNumberToObject(prim, "indices", a_ix);
    cJSON_AddItemToArray(prims, prim);
    cJSON_AddItemToArray(meshes, mesh);
    cJSON *nodes = cJSON_AddArrayToObject(doc, "nodes"), *node = cJSON_CreateObject();
    cJSON_AddNumberToObject(node, "mesh", 0);
    vks_affine c = vks_gltf_correction(s);
    static const float identity[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    if (memcmp(c.m, identity, sizeof identity)) {
        cJSON *mat = cJSON_AddArrayToObject(node, "matrix");
        for (int col = 0; col < 4; col++)
            for (int row = 0; row < 4; row++)
                cJSON_AddItemToArray(mat, cJSON_CreateNumber(row < 3 ? c.m[col * 3 + row] : col == 3 ? 1 : 0));
    }
    cJSON_AddItemToArray(nodes, node);
    cJSON *scenes = cJSON_AddArrayToObject(doc, "scenes"), *scene = cJSON_CreateObject();
    cJSON *sn = cJSON_AddArrayToObject(scene, "nodes");
    cJSON_AddItemToArray(sn, cJSON_CreateNumber(0));
    cJSON_AddItemToArray(scenes, scene);
    cJSON_AddNumberToObject(doc, "scene", 0);
    char *json = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);

    size_t jl = json ? strlen(json) : 0, jp = (jl + 3) & ~(size_t)3, bp = (bin + 3) & ~(size_t)3;
    vks_output *o = NULL;
    vks_result r = json ? vks_output_open(&o, path, err) : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, NULL, "no memory");
    if (r == VKS_OK) {
        FILE *f = vks_output_stream(o);
        uint8_t h[20];
        memcpy(h, "glTF", 4);
        put_u32(h + 4, 2);
        put_u32(h + 8, (uint32_t)(12 + 8 + jp + 8 + bp));
        put_u32(h + 12, (uint32_t)jp);
        memcpy(h + 16, "JSON", 4);
        int ok = fwrite(h, 1, 20, f) == 20 && fwrite(json, 1, jl, f) == jl && fwrite("   ", 1, jp - jl, f) == jp - jl;
        put_u32(h, (uint32_t)bp);
        memcpy(h + 4, "BIN\0", 4);
        static const uint8_t zeros[4] = {0};
        ok = ok && fwrite(h, 1, 8, f) == 8 && fwrite(b, 1, bin, f) == bin && fwrite(zeros, 1, bp - bin, f) == bp - bin;
        r = vks_output_close(o, ok, err);
    }
    free(json);
    free(b);
    return r;
}
